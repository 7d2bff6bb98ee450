/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * rtnetlink route messages (rt_netlink.h), built with libmnl as the kernel
 * and zebra's FPM build them: a plain on-link route, via a gateway, a
 * 3-hop multipath, blackhole/unreachable/prohibit, a delete, a replace
 * (also one refused, which leaves the old route, ECMP included), each
 * applied to a table and checked by lookup; then every refusal reason, and
 * a check that each reason of RT_NL_REASONS was produced by some case;
 * and the sources: applied routes are netlink's, a replace by the same
 * route changes nothing, another source's route is neither deleted nor
 * replaced, and with no interface map a hop's port comes from its gateway.
 * With RT_NL_CORPUS=DIR set, the messages are also written there (the
 * fuzzer's seeds, tests/fuzz/corpus-netlink).
 *
 * The FPM listener's session without a socket (rt_fpm_feed(), issue 37):
 * what it remembers of the routes' next-hop objects is bounded by the live
 * table (a reconnect's sweep forgets what it deleted); an object re-sent
 * unchanged moves no route; an add for a connected prefix is counted as
 * exists; a map none of whose names resolves refuses, not ports by gateway;
 * encapsulated routes (inline, in a hop, by their next-hop object) are
 * refused and withdraw what they replace.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <rte_eal.h>

#include <linux/lwtunnel.h>
#include <linux/nexthop.h>

#include "fwd_test.h"
#include "rt_fpm.h"
#include "rt_netlink.h"
#include "rt_nhgroup.h"
#include "rt_nlcands.h"
#include "rt_nlsync.h"
#include "rt_syncmarks.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"

#define TABLE RT_NL_TABLE_MAIN
#define IFX0  5 /* the kernel's ifindex of port 0 */
#define IFX1  7 /* of port 1 */

static const struct rt_nl_ifmap ifmap[] = {{IFX0, 0}, {IFX1, 1}};
static bool seen[RT_NL_REASON_MAX];
static uint64_t buf_space[4096 / 8]; /* netlink buffers are aligned */
static char *const buf = (char *)buf_space;

/* Write the message to $RT_NL_CORPUS/NAME when asked: the fuzzer's seeds. */
static void
keep(const char *name, const struct nlmsghdr *nlh)
{
	const char *dir = getenv("RT_NL_CORPUS");
	char path[512];
	FILE *f;

	if (dir == NULL)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL)
		return;
	fwrite(nlh, 1, nlh->nlmsg_len, f);
	fclose(f);
}

static struct nlmsghdr *
msg(uint16_t type, uint16_t flags, uint8_t rtype, uint32_t dst, uint8_t plen)
{
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;

	memset(buf_space, 0, sizeof(buf_space));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = plen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_BGP;
	rtm->rtm_scope = RT_SCOPE_UNIVERSE;
	rtm->rtm_type = rtype;
	if (plen > 0)
		mnl_attr_put_u32(nlh, RTA_DST, htonl(dst));
	mnl_attr_put_u32(nlh, RTA_PRIORITY, 20); /* as every sender puts it */
	return nlh;
}

/*
 * A unicast route (@p del: its delete) of metric @p metric via @p gw out of
 * kernel interface @p ifx, as the kernel notifies it (a metric of 0 is left
 * out, as the kernel leaves it out), parsed into @p r.
 */
static enum rt_nl_reason
parse_metric(bool del, uint32_t dst, uint8_t plen, uint32_t gw, uint32_t ifx, uint32_t metric,
	struct rt_nl_route *r)
{
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;

	memset(buf_space, 0, sizeof(buf_space));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = del ? RTM_DELROUTE : RTM_NEWROUTE;
	nlh->nlmsg_flags = del ? 0 : NLM_F_CREATE | NLM_F_EXCL;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = plen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_BOOT;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put_u32(nlh, RTA_TABLE, RT_TABLE_MAIN);
	mnl_attr_put_u32(nlh, RTA_DST, htonl(dst));
	if (metric != 0)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, metric);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(gw));
	mnl_attr_put_u32(nlh, RTA_OIF, ifx);
	return rt_netlink_parse(nlh, nlh->nlmsg_len, TABLE, r);
}

static struct nlmsghdr *
msg_new(uint8_t rtype, uint32_t dst, uint8_t plen)
{
	return msg(RTM_NEWROUTE, NLM_F_CREATE, rtype, dst, plen);
}

static struct rtmsg *
rtm_of(struct nlmsghdr *nlh)
{
	return mnl_nlmsg_get_payload(nlh);
}

/* RTA_MULTIPATH as the kernel writes it (no NLA_F_NESTED); gw 0 = a hop without RTA_GATEWAY. */
static void
put_multipath(struct nlmsghdr *nlh, const uint32_t *gw, const uint32_t *ifx, const uint8_t *weight,
	unsigned int n)
{
	struct nlattr *mp = mnl_nlmsg_get_payload_tail(nlh);
	unsigned int i;

	mp->nla_type = RTA_MULTIPATH;
	nlh->nlmsg_len += MNL_ALIGN(sizeof(*mp));
	for (i = 0; i < n; i++) {
		struct rtnexthop *h = mnl_nlmsg_get_payload_tail(nlh);

		memset(h, 0, sizeof(*h));
		h->rtnh_ifindex = (int)(ifx != NULL ? ifx[i] : 0);
		h->rtnh_hops = weight != NULL ? (uint8_t)(weight[i] - 1) : 0;
		nlh->nlmsg_len += RTNH_ALIGN(sizeof(*h));
		if (gw[i] != 0)
			mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(gw[i]));
		h->rtnh_len = (unsigned short)((char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)h);
	}
	mp->nla_len = (uint16_t)((char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)mp);
}

/* RTA_ENCAP (an MPLS label, nested, as iproute2 puts it) and RTA_ENCAP_TYPE. */
static void
put_encap(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, RTA_ENCAP);

	mnl_attr_put_u32(nlh, 1 /* MPLS_IPTUNNEL_DST */, htonl(100 << 12 | 1 << 8 | 64));
	mnl_attr_nest_end(nlh, nest);
	mnl_attr_put_u16(nlh, RTA_ENCAP_TYPE, type);
}

/*
 * RTA_MULTIPATH of @p n hops via @p gw, hop @p encap_hop (n or more: none)
 * carrying an encap, as `ip route add P nexthop via A encap ip ... nexthop via B` sends it.
 */
static void
put_multipath_encap(
	struct nlmsghdr *nlh, const uint32_t *gw, unsigned int n, unsigned int encap_hop)
{
	struct nlattr *mp = mnl_nlmsg_get_payload_tail(nlh);
	unsigned int i;

	mp->nla_type = RTA_MULTIPATH;
	nlh->nlmsg_len += MNL_ALIGN(sizeof(*mp));
	for (i = 0; i < n; i++) {
		struct rtnexthop *h = mnl_nlmsg_get_payload_tail(nlh);

		memset(h, 0, sizeof(*h));
		h->rtnh_ifindex = IFX0;
		nlh->nlmsg_len += RTNH_ALIGN(sizeof(*h));
		mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(gw[i]));
		if (i == encap_hop)
			put_encap(nlh, LWTUNNEL_ENCAP_IP);
		h->rtnh_len = (unsigned short)((char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)h);
	}
	mp->nla_len = (uint16_t)((char *)mnl_nlmsg_get_payload_tail(nlh) - (char *)mp);
}

/* Parse, remembering the reason for the every-reason check. */
static enum rt_nl_reason
parse(const struct nlmsghdr *nlh, size_t len, struct rt_nl_route *r)
{
	enum rt_nl_reason why = rt_netlink_parse(nlh, len, TABLE, r);

	if ((unsigned int)why < RT_NL_REASON_MAX)
		seen[why] = true;
	return why;
}

/* Parse the message in buf (its own length) and apply it: the table's answer. */
static int
apply(struct rt_table *t, const char *name, char *err)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	struct rt_nl_route r;
	enum rt_nl_reason why;

	keep(name, nlh);
	err[0] = '\0';
	why = parse(nlh, nlh->nlmsg_len, &r);
	if (why != RT_NL_OK) {
		snprintf(err, RT_ERR_LEN, "refused: %s", rt_nl_reason_name(why));
		return -1000;
	}
	return rt_netlink_apply(t, &r, ifmap, RTE_DIM(ifmap), err, RT_ERR_LEN);
}

/* The gateway the lookup of @p ip goes to, 0 when it is not a gateway next hop. */
static uint32_t
gw_of(struct rt_table *t, uint32_t ip, uint16_t *port)
{
	uint32_t nh = rt_route_lookup(t, ip);

	if (nh == RT_NH_MISS || t->nh[nh].type != RT_NH_GW)
		return 0;
	if (port != NULL)
		*port = t->nh[nh].port;
	return t->nh_info[nh].ip;
}

static unsigned int
members_of(struct rt_table *t, uint32_t ip, uint32_t *gws)
{
	uint32_t nh = rt_route_lookup(t, ip), m[RT_ECMP_MAX];
	unsigned int i, n;

	if (nh == RT_NH_MISS || t->nh[nh].type != RT_NH_GROUP)
		return 0;
	n = rt_nhgroup_members(t, nh, m, NULL);
	for (i = 0; i < n; i++)
		gws[i] = t->nh_info[m[i]].ip;
	return n;
}

static void
test_routes_applied(void)
{
	struct rt_table *t = rt_test_table("rt_nl1");
	const uint32_t gw3[] = {IP4(10, 0, 0, 2), IP4(10, 0, 0, 3), IP4(10, 0, 1, 2)};
	const uint32_t ifx3[] = {IFX0, IFX0, IFX1};
	const uint8_t w3[] = {1, 2, 3};
	struct rt_nl_route r;
	char err[RT_ERR_LEN];
	uint32_t gws[RT_ECMP_MAX];
	struct nlmsghdr *nlh;
	uint16_t port = 99;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	/* on-link: dev only */
	nlh = msg_new(RTN_UNICAST, IP4(172, 16, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_OIF, IFX1);
	CHECK_EQ(apply(t, "dev.nl", err), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 16, 3, 4)), t->nh_connected[1]);

	/* via a gateway, with its oif; the fields are all read */
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 1, 9)));
	mnl_attr_put_u32(nlh, RTA_OIF, IFX1);
	mnl_attr_put_u32(nlh, RTA_PREFSRC, htonl(IP4(10, 0, 1, 1)));
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
	CHECK(!r.del && !r.replace);
	CHECK_EQ(r.kind, RT_ROUTE_VIA);
	CHECK_EQ(r.prefix, IP4(192, 168, 0, 0));
	CHECK_EQ(r.plen, 16);
	CHECK_EQ(r.table, TABLE);
	CHECK_EQ(r.protocol, RTPROT_BGP);
	CHECK_EQ(r.n_hops, 1);
	CHECK_EQ(r.hops[0].gw, IP4(10, 0, 1, 9));
	CHECK_EQ(r.hops[0].ifindex, IFX1);
	CHECK_EQ(r.hops[0].weight, 1);
	CHECK_EQ(apply(t, "via.nl", err), 0);
	CHECK_EQ(gw_of(t, IP4(192, 168, 7, 7), &port), IP4(10, 0, 1, 9));
	CHECK_EQ(port, 1);

	/* via without an oif: the table finds the port; a default route has no RTA_DST */
	nlh = msg_new(RTN_UNICAST, 0, 0);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 254)));
	CHECK_EQ(apply(t, "default.nl", err), 0);
	CHECK_EQ(gw_of(t, IP4(8, 8, 8, 8), &port), IP4(10, 0, 0, 254));
	CHECK_EQ(port, 0);

	/* multipath of 3, weights read (the table spreads evenly) */
	nlh = msg_new(RTN_UNICAST, IP4(198, 51, 100, 0), 24);
	put_multipath(nlh, gw3, ifx3, w3, 3);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
	CHECK_EQ(r.n_hops, 3);
	CHECK_EQ(r.hops[1].gw, IP4(10, 0, 0, 3));
	CHECK_EQ(r.hops[2].ifindex, IFX1);
	CHECK_EQ(r.hops[2].weight, 3);
	CHECK_EQ(apply(t, "multipath3.nl", err), 0);
	CHECK_EQ(members_of(t, IP4(198, 51, 100, 1), gws), 3);
	CHECK_EQ(gws[0], gw3[0]);
	CHECK_EQ(gws[2], gw3[2]);

	/* blackhole, unreachable, prohibit */
	msg_new(RTN_BLACKHOLE, IP4(192, 0, 2, 0), 24);
	CHECK_EQ(apply(t, "blackhole.nl", err), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(192, 0, 2, 1)), t->nh_blackhole);
	msg_new(RTN_UNREACHABLE, IP4(203, 0, 113, 0), 24);
	CHECK_EQ(apply(t, "unreachable.nl", err), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(203, 0, 113, 1)), t->nh_reject);
	msg_new(RTN_PROHIBIT, IP4(203, 0, 114, 0), 24);
	CHECK_EQ(apply(t, "prohibit.nl", err), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(203, 0, 114, 1)), t->nh_reject);

	/* a second add without replace: the table refuses it */
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 9)));
	CHECK_EQ(apply(t, "add-again.nl", err), -EEXIST);
	CHECK_EQ(gw_of(t, IP4(192, 168, 7, 7), NULL), IP4(10, 0, 1, 9));

	/* an interface that is no port */
	nlh = msg_new(RTN_UNICAST, IP4(100, 64, 0, 0), 10);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	mnl_attr_put_u32(nlh, RTA_OIF, 42);
	CHECK_EQ(apply(t, "no-port.nl", err), -ENODEV);
	CHECK_CONTAINS(err, "interface 42");
	CHECK_EQ(rt_route_lookup(t, IP4(100, 64, 0, 1)), rt_route_lookup(t, IP4(8, 8, 8, 8)));

	/* delete, by prefix alone (type unspec, as some senders do) */
	msg(RTM_DELROUTE, 0, RTN_UNSPEC, IP4(192, 0, 2, 0), 24);
	CHECK_EQ(apply(t, "delete.nl", err), 0);
	CHECK_EQ(gw_of(t, IP4(192, 0, 2, 1), NULL), IP4(10, 0, 0, 254)); /* the default now */
	CHECK_EQ(apply(t, "delete.nl", err), -ENOENT);
	/*
	 * A multipath delete whose hop has no gateway (`ip route del P nexthop
	 * dev X`): taken, its hops not kept (the fuzzer found it handed on).
	 */
	{
		const uint32_t gw0[] = {0, IP4(10, 0, 0, 3)};
		const uint32_t ifx[] = {IFX0, IFX0};
		struct rt_nl_route del;

		nlh = msg(RTM_DELROUTE, 0, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
		put_multipath(nlh, gw0, ifx, NULL, 2);
		CHECK_EQ(parse(nlh, nlh->nlmsg_len, &del), RT_NL_OK);
		CHECK(del.del);
		CHECK_EQ(del.n_hops, 0);
	}
	rt_table_free(t);
}

static void
test_replace(void)
{
	struct rt_table *t = rt_test_table("rt_nl2");
	const uint32_t gw3[] = {IP4(10, 0, 0, 2), IP4(10, 0, 0, 3), IP4(10, 0, 1, 2)};
	const uint16_t fl = NLM_F_CREATE | NLM_F_REPLACE;
	char err[RT_ERR_LEN];
	uint32_t gws[RT_ECMP_MAX];
	struct nlmsghdr *nlh;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	/* replace of nothing: an add (zebra sends every route so) */
	nlh = msg(RTM_NEWROUTE, fl, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(apply(t, "replace-new.nl", err), 0);
	CHECK_EQ(gw_of(t, IP4(192, 168, 1, 1), NULL), IP4(10, 0, 0, 2));
	/* a new gateway */
	nlh = msg(RTM_NEWROUTE, fl, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 1, 5)));
	CHECK_EQ(apply(t, "replace.nl", err), 0);
	CHECK_EQ(gw_of(t, IP4(192, 168, 1, 1), NULL), IP4(10, 0, 1, 5));
	{
		struct rt_route got;

		CHECK_EQ(rt_route_get(t, IP4(192, 168, 0, 0), 16, true, &got), 0);
		CHECK_EQ(got.src, RT_SRC_NETLINK); /* shown as proto netlink */
	}
	/* refused (gateway on no connected network): the old route stays */
	nlh = msg(RTM_NEWROUTE, fl, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 9, 9, 9)));
	CHECK_EQ(apply(t, "replace-bad.nl", err), -EINVAL);
	CHECK_EQ(gw_of(t, IP4(192, 168, 1, 1), NULL), IP4(10, 0, 1, 5));
	/* to ECMP, to blackhole, and a refused one that must bring the group back */
	nlh = msg(RTM_NEWROUTE, fl, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath(nlh, gw3, NULL, NULL, 3);
	CHECK_EQ(apply(t, "replace-multipath.nl", err), 0);
	CHECK_EQ(members_of(t, IP4(192, 168, 1, 1), gws), 3);
	nlh = msg(RTM_NEWROUTE, fl, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	mnl_attr_put_u32(nlh, RTA_OIF, IFX1); /* 10.0.0.2 is on port 0 */
	CHECK_EQ(apply(t, "replace-bad-port.nl", err), -EINVAL);
	CHECK_EQ(members_of(t, IP4(192, 168, 1, 1), gws), 3);
	CHECK_EQ(gws[1], gw3[1]);
	msg(RTM_NEWROUTE, fl, RTN_BLACKHOLE, IP4(192, 168, 0, 0), 16);
	CHECK_EQ(apply(t, "replace-blackhole.nl", err), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(192, 168, 1, 1)), t->nh_blackhole);
	/* the port's own network is not a route to replace */
	nlh = msg(RTM_NEWROUTE, fl, RTN_UNICAST, IP4(10, 0, 0, 0), 24);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 1, 5)));
	CHECK_EQ(apply(t, "replace-connected.nl", err), -EPERM);
	CHECK_EQ(rt_route_lookup(t, IP4(10, 0, 0, 77)), t->nh_connected[0]);
	rt_table_free(t);
}

/* Every refusal: the reason, nothing applied. */
static void
test_refusals(void)
{
	const uint32_t gw17[17] = {IP4(10, 0, 0, 2), IP4(10, 0, 0, 3), IP4(10, 0, 0, 4),
		IP4(10, 0, 0, 5), IP4(10, 0, 0, 6), IP4(10, 0, 0, 7), IP4(10, 0, 0, 8),
		IP4(10, 0, 0, 9), IP4(10, 0, 0, 10), IP4(10, 0, 0, 11), IP4(10, 0, 0, 12),
		IP4(10, 0, 0, 13), IP4(10, 0, 0, 14), IP4(10, 0, 0, 15), IP4(10, 0, 0, 16),
		IP4(10, 0, 0, 17), IP4(10, 0, 0, 18)};
	const uint32_t gw_half[] = {IP4(10, 0, 0, 2), 0};
	const uint32_t ifx_half[] = {IFX0, IFX1};
	struct rt_nl_route r;
	struct nlmsghdr *nlh;
	struct rtnexthop *h;
	struct nlattr *a;
	uint16_t two = 0;
	unsigned int i;

	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
	/* truncated: less read than nlmsg_len, less than the headers, no header at all */
	CHECK_EQ(parse(nlh, nlh->nlmsg_len - 1, &r), RT_NL_TRUNCATED);
	CHECK_EQ(parse(nlh, 8, &r), RT_NL_TRUNCATED);
	nlh->nlmsg_len = (uint32_t)mnl_nlmsg_size(sizeof(struct rtmsg)) - 4;
	CHECK_EQ(parse(nlh, 4096, &r), RT_NL_TRUNCATED);
	keep("truncated.nl", nlh);
	nlh->nlmsg_len = 4;
	CHECK_EQ(parse(nlh, 4096, &r), RT_NL_TRUNCATED);

	nlh = msg(RTM_NEWLINK, 0, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_NOT_ROUTE);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	rtm_of(nlh)->rtm_family = AF_INET6;
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_NOT_INET);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 33);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_BAD_PLEN);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 1), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_HOST_BITS);

	/* an address of 2 bytes; a nexthop longer than its attribute; one shorter than itself */
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put(nlh, RTA_GATEWAY, sizeof(two), &two);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_BAD_ATTR);
	keep("bad-gateway.nl", nlh);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath(nlh, gw17, NULL, NULL, 2);
	a = (struct nlattr *)((char *)nlh + nlh->nlmsg_len - (4 + 2 * 16)); /* RTA_MULTIPATH */
	h = (struct rtnexthop *)((char *)a + 4 + 16);                       /* the second hop */
	h->rtnh_len = 17;
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_BAD_ATTR);
	keep("bad-rtnh-len.nl", nlh);
	h->rtnh_len = 4;
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_BAD_ATTR);

	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	rtm_of(nlh)->rtm_src_len = 8;
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_SRC_ROUTE);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_SRC, htonl(IP4(10, 0, 0, 0)));
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_SRC_ROUTE);

	/* tables: rtm_table, and RTA_TABLE over it (ids above 255 only fit there) */
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	rtm_of(nlh)->rtm_table = 100;
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OTHER_TABLE);
	keep("other-table.nl", nlh);
	mnl_attr_put_u32(nlh, RTA_TABLE, TABLE);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	mnl_attr_put_u32(nlh, RTA_TABLE, 1000);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OTHER_TABLE);

	nlh = msg_new(RTN_LOCAL, IP4(10, 0, 0, 1), 32);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_UNSUPPORTED_TYPE);
	nlh = msg_new(RTN_THROW, IP4(192, 168, 0, 0), 16);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_UNSUPPORTED_TYPE);
	nlh = msg_new(RTN_UNSPEC, IP4(192, 168, 0, 0), 16);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_UNSUPPORTED_TYPE);

	/* zebra's default FPM route: RTA_DST, RTA_PRIORITY, RTA_NH_ID */
	nlh = msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_NH_ID, 17);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_NH_ID);
	keep("nh-id.nl", nlh);

	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath(nlh, gw17, NULL, NULL, RT_ECMP_MAX);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
	CHECK_EQ(r.n_hops, RT_ECMP_MAX);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath(nlh, gw17, NULL, NULL, RT_ECMP_MAX + 1);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_TOO_MANY_HOPS);
	keep("too-many-hops.nl", nlh);

	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_NO_NEXTHOP);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath(nlh, gw17, NULL, NULL, 0);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_NO_NEXTHOP);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath(nlh, gw_half, ifx_half, NULL, 2);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_HOP_NO_GW);
	keep("hop-no-gw.nl", nlh);

	/*
	 * Encapsulated routes (issue 37.15): on the route, or on one hop of an
	 * ECMP route (the whole route refused); the route is named all the same.
	 * A delete of one is a delete; a malformed RTA_ENCAP_TYPE is bad_attr.
	 */
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_encap(nlh, LWTUNNEL_ENCAP_MPLS);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	mnl_attr_put_u32(nlh, RTA_OIF, IFX0);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_ENCAP);
	CHECK_EQ(r.prefix, IP4(192, 168, 0, 0));
	CHECK_EQ(r.plen, 16);
	CHECK_EQ(r.metric, 20);
	CHECK_EQ(r.encap, LWTUNNEL_ENCAP_MPLS);
	CHECK_EQ(strcmp(rt_nl_encap_name(r.encap), "mpls"), 0);
	keep("encap-mpls.nl", nlh);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath_encap(nlh, gw17, 3, 1);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_ENCAP);
	CHECK_EQ(r.encap, LWTUNNEL_ENCAP_IP);
	CHECK_EQ(strcmp(rt_nl_encap_name(r.encap), "ip"), 0);
	keep("encap-multipath.nl", nlh);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_multipath_encap(nlh, gw17, 3, 3);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK); /* the same, no hop tunnelled */
	CHECK_EQ(r.n_hops, 3);
	nlh = msg(RTM_DELROUTE, 0, RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	put_encap(nlh, LWTUNNEL_ENCAP_SEG6);
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
	CHECK(r.del);
	nlh = msg_new(RTN_UNICAST, IP4(192, 168, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_ENCAP_TYPE, LWTUNNEL_ENCAP_MPLS); /* 4 bytes, not 2 */
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_BAD_ATTR);
	CHECK(rt_nl_encap_name(999) == NULL);

	/* every reason of the table was produced above, and each has a name */
	for (i = 0; i < RT_NL_REASON_MAX; i++) {
		if (!seen[i])
			printf("# reason %s never produced\n", rt_nl_reason_name(i));
		CHECK(seen[i]);
		CHECK(strcmp(rt_nl_reason_name(i), "?") != 0);
		CHECK(strlen(rt_nl_reason_desc(i)) > 4);
	}
	CHECK_EQ(strcmp(rt_nl_reason_name(RT_NL_REASON_MAX), "?"), 0);
}

/* The routes of one source and of the others: netlink's are its own, and the others' stay. */
static void
test_sources(void)
{
	struct rt_table *t = rt_test_table("rt_nl3");
	char err[RT_ERR_LEN];
	struct rt_route rt;
	struct nlmsghdr *nlh;
	uint32_t gen, nh;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	/* an applied route is proto netlink (show route's "proto netlink") */
	nlh = msg_new(RTN_UNICAST, IP4(172, 16, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(apply(t, "src-netlink.nl", err), 0);
	CHECK_EQ(rt_route_get(t, IP4(172, 16, 0, 0), 16, true, &rt), 0);
	CHECK_EQ(rt.src, RT_SRC_NETLINK);
	/* the same route again, as a resync's dump sends it: nothing changes, not even briefly */
	nh = rt.nh;
	gen = t->gen;
	nlh = msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_UNICAST, IP4(172, 16, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	mnl_attr_put_u32(nlh, RTA_OIF, IFX0);
	CHECK_EQ(apply(t, "replace-same.nl", err), 0);
	CHECK_EQ(t->gen, gen);
	CHECK_EQ(rt_route_get(t, IP4(172, 16, 0, 0), 16, true, &rt), 0);
	CHECK_EQ(rt.nh, nh);

	/* a shell route: netlink neither deletes nor replaces it */
	CHECK_EQ(rt_test_set(t, RT_SRC_SHELL, 0, IP4(172, 17, 0, 0), 16, RT_ROUTE_VIA,
			 IP4(10, 0, 1, 2), -1, err, sizeof(err)),
		0);
	msg(RTM_DELROUTE, 0, RTN_UNICAST, IP4(172, 17, 0, 0), 16);
	CHECK_EQ(apply(t, "delete-shell.nl", err), -EPERM);
	CHECK_CONTAINS(err, "of shell");
	nlh = msg(
		RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_BLACKHOLE, IP4(172, 17, 0, 0), 16);
	CHECK_EQ(apply(t, "replace-shell.nl", err), -EEXIST);
	CHECK_EQ(gw_of(t, IP4(172, 17, 1, 1), NULL), IP4(10, 0, 1, 2));
	CHECK_EQ(rt_route_get(t, IP4(172, 17, 0, 0), 16, true, &rt), 0);
	CHECK_EQ(rt.src, RT_SRC_SHELL);
	/* and a config route likewise */
	CHECK_EQ(
		rt_test_add(t, IP4(172, 18, 0, 0), 16, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		0);
	msg(RTM_DELROUTE, 0, RTN_UNSPEC, IP4(172, 18, 0, 0), 16);
	CHECK_EQ(apply(t, "delete-static.nl", err), -EPERM);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 18, 0, 1)), t->nh_blackhole);
	CHECK_EQ(rt_test_del_from(t, RT_SRC_NETLINK, IP4(172, 18, 0, 0), 16, err, sizeof(err)),
		-EPERM);
	CHECK_EQ(rt_test_del_from(t, RT_SRC_CONFIG, IP4(172, 18, 0, 0), 16, err, sizeof(err)), 0);

	/* no map: a hop's port is the one whose network holds its gateway, its oif unknown */
	nlh = msg_new(RTN_UNICAST, IP4(172, 19, 0, 0), 16);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 1, 7)));
	mnl_attr_put_u32(nlh, RTA_OIF, 42);
	{
		struct rt_nl_route r;
		uint16_t port = 99;

		CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
		CHECK_EQ(
			rt_netlink_apply_from(t, RT_SRC_NETLINK, &r, NULL, 0, err, sizeof(err)), 0);
		CHECK_EQ(gw_of(t, IP4(172, 19, 0, 1), &port), IP4(10, 0, 1, 7));
		CHECK_EQ(port, 1);
		/* on-link, no map: no port to go out of */
		nlh = msg_new(RTN_UNICAST, IP4(172, 20, 0, 0), 16);
		mnl_attr_put_u32(nlh, RTA_OIF, 42);
		CHECK_EQ(parse(nlh, nlh->nlmsg_len, &r), RT_NL_OK);
		CHECK_EQ(rt_netlink_apply_from(t, RT_SRC_NETLINK, &r, NULL, 0, err, sizeof(err)),
			-ENODEV);
		CHECK_CONTAINS(err, "no interface is mapped");
		CHECK_EQ(rt_nlsync_refusal_of(-ENODEV), RT_NLSYNC_NO_PORT);
		CHECK_EQ(rt_nlsync_refusal_of(-EEXIST), RT_NLSYNC_EXISTS);
		CHECK_EQ(rt_nlsync_refusal_of(-EPERM), RT_NLSYNC_NOT_OURS);
		CHECK_EQ(rt_nlsync_refusal_of(-ENOENT), RT_NLSYNC_NO_ROUTE);
		CHECK_EQ(rt_nlsync_refusal_of(-EINVAL), RT_NLSYNC_TABLE);
		CHECK_EQ(strcmp(rt_nlsync_refusal_name(RT_NLSYNC_NO_PORT), "no_port"), 0);
		CHECK_EQ(strcmp(rt_nlsync_refusal_name(RT_NLSYNC_REFUSAL_MAX), "?"), 0);
	}
	rt_table_free(t);
}

/* FPM frames, one message each (zebra's framing: version 1, type 1, the length). */
static uint8_t fpm_buf[65536];

/* Feed @p nlh to @p f as one frame. @return rt_fpm_feed()'s. */
static int
fpm_send(struct rt_fpm *f, const struct nlmsghdr *nlh)
{
	const size_t len = nlh->nlmsg_len + RT_FPM_HDR_LEN;

	fpm_buf[0] = RT_FPM_VERSION;
	fpm_buf[1] = RT_FPM_TYPE_NL;
	fpm_buf[2] = (uint8_t)(len >> 8);
	fpm_buf[3] = (uint8_t)len;
	memcpy(fpm_buf + RT_FPM_HDR_LEN, nlh, nlh->nlmsg_len);
	return rt_fpm_feed(f, fpm_buf, len);
}

/* RTM_NEWNEXTHOP: object @p id via @p gw. */
static int
fpm_nexthop(struct rt_fpm *f, uint32_t id, uint32_t gw)
{
	struct nlmsghdr *nlh;
	struct nhmsg *nhm;

	memset(buf_space, 0, sizeof(buf_space));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWNEXTHOP;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
	nhm = mnl_nlmsg_put_extra_header(nlh, sizeof(*nhm));
	nhm->nh_family = AF_INET;
	mnl_attr_put_u32(nlh, NHA_ID, id);
	mnl_attr_put_u32(nlh, NHA_GATEWAY, htonl(gw));
	return fpm_send(f, nlh);
}

/* A route to @p dst/@p plen naming object @p nh_id (0: via @p gw, through @p oif if not 0). */
static int
fpm_route(struct rt_fpm *f, uint32_t dst, uint8_t plen, uint32_t nh_id, uint32_t gw, uint32_t oif)
{
	struct nlmsghdr *nlh =
		msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_UNICAST, dst, plen);

	if (nh_id != 0)
		mnl_attr_put_u32(nlh, RTA_NH_ID, nh_id);
	if (gw != 0)
		mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(gw));
	if (oif != 0)
		mnl_attr_put_u32(nlh, RTA_OIF, oif);
	return fpm_send(f, nlh);
}

static unsigned int
fpm_routes_in(struct rt_table *t)
{
	struct rt_route page[256];
	unsigned int n, i, k = 0, start = 0, got;

	do {
		n = rt_route_list_at(t, start, page, RTE_DIM(page));
		got = start < n ? RTE_MIN(n - start, (unsigned int)RTE_DIM(page)) : 0;
		for (i = 0; i < got; i++)
			k += page[i].src == RT_SRC_FPM;
		start += got;
	} while (got == RTE_DIM(page));
	return k;
}

/*
 * What the listener remembers of the routes' objects follows the table: a
 * reconnect that replays fewer routes sweeps the rest, and forgets them
 * (it kept one entry per route ever sent, issue 37 item 8).
 */
static void
test_fpm_nh_routes_bounded(void)
{
	struct rt_table *t = rt_test_table("rt_nl4");
	struct rt_fpm *f;
	unsigned int i, round;
	const unsigned int n = 1000;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	f = rt_fpm_create(&(struct rt_fpm_params){.table = t});
	CHECK(f != NULL);
	/* three sessions, each with a thousand routes of its own: at most one session's kept */
	for (round = 0; f != NULL && round < 3; round++) {
		rt_fpm_session_begin(f);
		CHECK_EQ(fpm_nexthop(f, 1, IP4(10, 0, 0, 2)), 0);
		for (i = 0; i < n; i++)
			CHECK_EQ(fpm_route(
					 f, IP4(100, 64 + 4 * round, 0, 0) + (i << 8), 24, 1, 0, 0),
				0);
		CHECK_EQ(rt_fpm_nh_routes(f), round == 0 ? n : 2 * n);
		rt_fpm_sweep(f);
		CHECK_EQ(fpm_routes_in(t), n);
		CHECK_EQ(rt_fpm_nh_routes(f), n);
	}
	/* a route deleted by zebra, and one by another hand (as a flush would): both forgotten */
	if (f != NULL) {
		char err[RT_ERR_LEN];
		struct nlmsghdr *nlh = msg(RTM_DELROUTE, 0, RTN_UNICAST, IP4(100, 72, 0, 0), 24);

		CHECK_EQ(fpm_send(f, nlh), 0);
		CHECK_EQ(rt_fpm_nh_routes(f), n - 1);
		CHECK_EQ(rt_test_del_from(t, RT_SRC_FPM, IP4(100, 72, 1, 0), 24, err, sizeof(err)),
			0);
		rt_fpm_session_begin(f);
		rt_fpm_sweep(f); /* a reconnect that sent nothing: every route swept */
		CHECK_EQ(fpm_routes_in(t), 0);
		CHECK_EQ(rt_fpm_nh_routes(f), 0);
	}
	rt_fpm_free(f);
	rt_table_free(t);
}

/*
 * An object re-sent as it is moves no route (zebra re-sends them; each once
 * re-applied every route naming it, issue 37 item 9); a changed one does.
 */
static void
test_fpm_nexthop_same(void)
{
	struct rt_table *t = rt_test_table("rt_nl5");
	struct rt_fpm_stats st;
	struct rt_fpm *f;
	uint32_t gen;
	unsigned int i;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	f = rt_fpm_create(&(struct rt_fpm_params){.table = t});
	CHECK(f != NULL);
	if (f == NULL) {
		rt_table_free(t);
		return;
	}
	rt_fpm_session_begin(f);
	CHECK_EQ(fpm_nexthop(f, 1, IP4(10, 0, 0, 2)), 0);
	for (i = 0; i < 100; i++)
		CHECK_EQ(fpm_route(f, IP4(172, 16, i, 0), 24, 1, 0, 0), 0);
	gen = t->gen;
	for (i = 0; i < 5; i++)
		CHECK_EQ(fpm_nexthop(f, 1, IP4(10, 0, 0, 2)), 0);
	rt_fpm_stats_get(f, &st);
	CHECK_EQ(st.nh_applied, 6);
	CHECK_EQ(st.nh_moved, 0);
	CHECK_EQ(t->gen, gen);
	/* a change moves every route naming it, once */
	CHECK_EQ(fpm_nexthop(f, 1, IP4(10, 0, 1, 2)), 0);
	rt_fpm_stats_get(f, &st);
	CHECK_EQ(st.nh_moved, 100);
	CHECK_EQ(gw_of(t, IP4(172, 16, 7, 1), NULL), IP4(10, 0, 1, 2));
	rt_fpm_free(f);
	rt_table_free(t);
}

/*
 * Refusals of the FPM's as the user guide names them: an add for a connected
 * prefix is `exists` (it was `not_ours`); with `netlink-ifname` given and no
 * name found, a route through an interface is `no_port` as the log says (it
 * was ported by its gateway, issue 43 item 1).
 */
static void
test_fpm_refusals(void)
{
	const struct rt_nlsync_ifname names[] = {{"fwdnosuch0", 0}, {"fwdnosuch1", 1}};
	struct rt_table *t = rt_test_table("rt_nl6");
	struct rt_fpm_stats st;
	struct rt_fpm *f;
	struct rt_route rt;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	f = rt_fpm_create(
		&(struct rt_fpm_params){.table = t, .ifnames = names, .n_ifnames = RTE_DIM(names)});
	CHECK(f != NULL);
	if (f == NULL) {
		rt_table_free(t);
		return;
	}
	rt_fpm_session_begin(f);
	CHECK_EQ(fpm_route(f, IP4(10, 0, 0, 0), 24, 0, IP4(10, 0, 1, 2), 0), 0);
	CHECK_EQ(fpm_route(f, IP4(172, 16, 0, 0), 16, 0, IP4(10, 0, 1, 2), 42), 0);
	rt_fpm_stats_get(f, &st);
	CHECK_EQ(st.refused[RT_NLSYNC_EXISTS], 1);
	CHECK_EQ(st.refused[RT_NLSYNC_NOT_OURS], 0);
	CHECK_EQ(st.refused[RT_NLSYNC_NO_PORT], 1);
	CHECK_EQ(st.applied, 0);
	CHECK(rt_route_get(t, IP4(172, 16, 0, 0), 16, true, &rt) < 0);
	rt_fpm_free(f);
	rt_table_free(t);
}

/*
 * RTM_NEWNEXTHOP: object @p id via @p gw with an encap of @p encap (0: none,
 * NHA_ENCAP_TYPE else, as `ip nexthop add id N encap ip id 1 dst D via G`
 * sends it), or a group of @p n members (@p gw unused).
 */
static int
fpm_nexthop_ext(struct rt_fpm *f, uint32_t id, uint32_t gw, uint16_t encap, const uint32_t *members,
	unsigned int n)
{
	struct nlmsghdr *nlh;
	struct nhmsg *nhm;

	memset(buf_space, 0, sizeof(buf_space));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_NEWNEXTHOP;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE;
	nhm = mnl_nlmsg_put_extra_header(nlh, sizeof(*nhm));
	nhm->nh_family = n > 0 ? AF_UNSPEC : AF_INET;
	mnl_attr_put_u32(nlh, NHA_ID, id);
	if (n > 0) {
		struct nexthop_grp g[RT_ECMP_MAX];
		unsigned int i;

		memset(g, 0, sizeof(g));
		for (i = 0; i < n; i++)
			g[i].id = members[i];
		mnl_attr_put(nlh, NHA_GROUP, n * sizeof(g[0]), g);
	} else {
		mnl_attr_put_u32(nlh, NHA_GATEWAY, htonl(gw));
		mnl_attr_put_u32(nlh, NHA_OIF, IFX0);
	}
	if (encap != 0) {
		struct nlattr *nest = mnl_attr_nest_start(nlh, NHA_ENCAP);

		mnl_attr_put_u32(nlh, 2 /* LWTUNNEL_IP_DST */, htonl(IP4(10, 9, 9, 9)));
		mnl_attr_nest_end(nlh, nest);
		mnl_attr_put_u16(nlh, NHA_ENCAP_TYPE, encap);
	}
	return fpm_send(f, nlh);
}

/*
 * Encapsulated routes from zebra (issue 37.15): loaded as plain routes, they
 * were sent without their tunnel. Refused whole, counted (rejected: encap):
 * RTA_ENCAP on a route, inside one hop of an inline ECMP route, NHA_ENCAP on
 * the next-hop object a route names or on one member of its group. A plain
 * route replaced by an encapsulated one is withdrawn, and so are the routes
 * of an object replaced in place by a tunnel's.
 */
static void
test_fpm_encap(void)
{
	const uint32_t gws[] = {IP4(10, 0, 0, 2), IP4(10, 0, 0, 3), IP4(10, 0, 0, 4)};
	const uint32_t grp[] = {1, 2};
	struct rt_table *t = rt_test_table("rt_nl7");
	struct rt_fpm_stats st;
	struct nlmsghdr *nlh;
	struct rt_route rt;
	struct rt_fpm *f;
	uint64_t rest = 0;
	unsigned int i;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	f = rt_fpm_create(&(struct rt_fpm_params){.table = t});
	CHECK(f != NULL);
	if (f == NULL) {
		rt_table_free(t);
		return;
	}
	rt_fpm_session_begin(f);
	/* inline, on the route: refused */
	nlh = msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_UNICAST, IP4(172, 16, 0, 0), 16);
	put_encap(nlh, LWTUNNEL_ENCAP_MPLS);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(fpm_send(f, nlh), 0);
	CHECK(rt_route_get(t, IP4(172, 16, 0, 0), 16, true, &rt) < 0);
	/* one hop of three tunnelled: the whole route refused */
	nlh = msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_UNICAST, IP4(172, 17, 0, 0), 16);
	put_multipath_encap(nlh, gws, 3, 2);
	CHECK_EQ(fpm_send(f, nlh), 0);
	CHECK(rt_route_get(t, IP4(172, 17, 0, 0), 16, true, &rt) < 0);
	/* a plain route, then zebra's replace of it by a tunnel's: withdrawn */
	CHECK_EQ(fpm_route(f, IP4(172, 18, 0, 0), 16, 0, IP4(10, 0, 0, 2), 0), 0);
	CHECK_EQ(gw_of(t, IP4(172, 18, 1, 1), NULL), IP4(10, 0, 0, 2));
	nlh = msg(RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE, RTN_UNICAST, IP4(172, 18, 0, 0), 16);
	put_encap(nlh, LWTUNNEL_ENCAP_IP);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(IP4(10, 0, 0, 2)));
	CHECK_EQ(fpm_send(f, nlh), 0);
	CHECK(rt_route_get(t, IP4(172, 18, 0, 0), 16, true, &rt) < 0);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 18, 1, 1)), RT_NH_MISS);

	/* next-hop objects: 1 plain, 2 a tunnel's, 3 a group of both */
	CHECK_EQ(fpm_nexthop_ext(f, 1, IP4(10, 0, 0, 2), 0, NULL, 0), 0);
	CHECK_EQ(fpm_nexthop_ext(f, 2, IP4(10, 0, 0, 3), LWTUNNEL_ENCAP_IP, NULL, 0), 0);
	CHECK_EQ(fpm_nexthop_ext(f, 3, 0, 0, grp, 2), 0);
	rt_fpm_stats_get(f, &st);
	CHECK_EQ(st.nh_applied, 3);
	CHECK_EQ(fpm_route(f, IP4(172, 19, 0, 0), 16, 2, 0, 0), 0);
	CHECK(rt_route_get(t, IP4(172, 19, 0, 0), 16, true, &rt) < 0);
	CHECK_EQ(fpm_route(f, IP4(172, 20, 0, 0), 16, 3, 0, 0), 0);
	CHECK(rt_route_get(t, IP4(172, 20, 0, 0), 16, true, &rt) < 0);
	/* routes naming the plain one, which then becomes a tunnel's: withdrawn */
	for (i = 0; i < 4; i++)
		CHECK_EQ(fpm_route(f, IP4(172, 21, i, 0), 24, 1, 0, 0), 0);
	CHECK_EQ(gw_of(t, IP4(172, 21, 3, 1), NULL), IP4(10, 0, 0, 2));
	CHECK_EQ(rt_fpm_nh_routes(f), 4);
	CHECK_EQ(fpm_nexthop_ext(f, 1, IP4(10, 0, 0, 2), LWTUNNEL_ENCAP_SEG6, NULL, 0), 0);
	for (i = 0; i < 4; i++)
		CHECK(rt_route_get(t, IP4(172, 21, i, 0), 24, true, &rt) < 0);
	CHECK_EQ(rt_fpm_nh_routes(f), 0);

	rt_fpm_stats_get(f, &st);
	CHECK_EQ(st.rejected[RT_NL_ENCAP], 5);
	CHECK_EQ(st.nh_moved, 0);
	CHECK_EQ(st.applied, 5); /* 172.18 plain, and the four of object 1 */
	for (i = 0; i < RT_NL_REASON_MAX; i++)
		rest += st.rejected[i];
	for (i = 0; i < RT_NLSYNC_REFUSAL_MAX; i++)
		rest += st.refused[i];
	CHECK_EQ(st.received, st.applied + rest + st.unresolved);
	CHECK_EQ(fpm_routes_in(t), 0);
	rt_fpm_free(f);
	rt_table_free(t);
}

/*
 * The mark set and the sweep (rt_syncmarks.h), without a socket: a mark is
 * of a prefix and its length (a marked 10.0.0.0/8 does not shield a stale
 * 10.0.0.0/16, nor the reverse); the sweep deletes exactly the source's
 * unmarked routes and says how many, leaves the other sources' (marked or
 * not), and after an overflow deletes nothing.
 */
static void
test_syncmarks(void)
{
	struct rt_table *t = rt_test_table("rt_nl4");
	struct rt_syncmarks m = {0};
	char err[RT_ERR_LEN];
	unsigned int i;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	CHECK(!rt_syncmarks_has(&m, IP4(10, 0, 0, 0), 8));
	CHECK_EQ(rt_syncmarks_add(&m, IP4(20, 0, 0, 0), 8), 0);
	CHECK(rt_syncmarks_has(&m, IP4(20, 0, 0, 0), 8));
	CHECK(!rt_syncmarks_has(&m, IP4(20, 0, 0, 0), 16));
	CHECK(!rt_syncmarks_has(&m, IP4(20, 0, 0, 0), 7));
	CHECK_EQ(rt_syncmarks_add(&m, IP4(20, 0, 0, 0), 8), 0); /* twice: one mark */
	CHECK_EQ(m.n, 1);
	/* netlink: 20/8 and 20.0/16 (one address, two lengths), 21/8; fpm: 22/8; config: 23/8 */
	CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, 0, IP4(20, 0, 0, 0), 8, RT_ROUTE_BLACKHOLE, 0, -1,
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, 0, IP4(20, 0, 0, 0), 16, RT_ROUTE_REJECT, 0, -1,
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, 0, IP4(21, 0, 0, 0), 8, RT_ROUTE_BLACKHOLE, 0, -1,
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_FPM, 0, IP4(22, 0, 0, 0), 8, RT_ROUTE_BLACKHOLE, 0, -1, err,
			 sizeof(err)),
		0);
	CHECK_EQ(rt_test_add(t, IP4(23, 0, 0, 0), 8, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		0);
	/* 20/8 marked (so is 22/8, of another source): 20.0/16 and 21/8 are stale */
	CHECK_EQ(rt_syncmarks_add(&m, IP4(22, 0, 0, 0), 8), 0);
	CHECK_EQ(rt_syncmarks_sweep(t, RT_SRC_NETLINK, &m), 2);
	CHECK_EQ(rt_route_lookup(t, IP4(20, 0, 1, 1)), t->nh_blackhole); /* the /8 now */
	CHECK_EQ(rt_route_lookup(t, IP4(21, 0, 1, 1)), RT_NH_MISS);
	CHECK_EQ(rt_route_lookup(t, IP4(22, 0, 1, 1)), t->nh_blackhole);
	CHECK_EQ(rt_route_lookup(t, IP4(23, 0, 1, 1)), t->nh_blackhole);
	/* the reverse: the /16 marked shields not the /8 */
	CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, 0, IP4(20, 0, 0, 0), 16, RT_ROUTE_REJECT, 0, -1,
			 err, sizeof(err)),
		0);
	rt_syncmarks_clear(&m);
	CHECK_EQ(rt_syncmarks_add(&m, IP4(20, 0, 0, 0), 16), 0);
	CHECK_EQ(rt_syncmarks_sweep(t, RT_SRC_NETLINK, &m), 1);
	CHECK_EQ(rt_route_lookup(t, IP4(20, 0, 1, 1)), t->nh_reject);
	CHECK_EQ(rt_route_lookup(t, IP4(20, 1, 1, 1)), RT_NH_MISS);
	/* many marks (the set grows): every one still found, none of another length */
	for (i = 0; i < 5000; i++)
		CHECK_EQ(rt_syncmarks_add(&m, IP4(30, 0, 0, 0) + (i << 8), 24), 0);
	for (i = 0; i < 5000; i++)
		if (!rt_syncmarks_has(&m, IP4(30, 0, 0, 0) + (i << 8), 24) ||
			rt_syncmarks_has(&m, IP4(30, 0, 0, 0) + (i << 8), 23))
			break;
	CHECK_EQ(i, 5000);
	/* an empty set sweeps all of the source's routes; an overflowed one none */
	rt_syncmarks_clear(&m);
	m.overflow = true;
	CHECK_EQ(rt_syncmarks_sweep(t, RT_SRC_NETLINK, &m), -ENOMEM);
	CHECK_EQ(rt_route_lookup(t, IP4(20, 0, 1, 1)), t->nh_reject);
	m.overflow = false;
	CHECK_EQ(rt_syncmarks_sweep(t, RT_SRC_NETLINK, &m), 1);
	CHECK_EQ(rt_route_lookup(t, IP4(20, 0, 1, 1)), RT_NH_MISS);
	CHECK_EQ(rt_syncmarks_sweep(t, RT_SRC_FPM, &m), 1);
	CHECK_EQ(rt_route_lookup(t, IP4(22, 0, 1, 1)), RT_NH_MISS);
	CHECK_EQ(rt_route_lookup(t, IP4(23, 0, 1, 1)), t->nh_blackhole);
	rt_syncmarks_clear(&m);
	rt_table_free(t);
}

/*
 * The kernel's routes to one prefix by metric (rt_nlcands.h), as the sync
 * takes them: of metrics 20 and 10 the lower is installed whatever the
 * order; a higher one is held (the table untouched); a delete of the
 * installed one installs the next in one step (never the covering route nor
 * a miss between: the lookup answers at once), of a held one changes
 * nothing, of one not held is refused; the last one's delete deletes the
 * route; a resync that does not see the installed one installs the next,
 * and one that sees none of a prefix deletes it.
 */
static void
test_metrics(void)
{
	const uint32_t p = IP4(172, 16, 0, 0), p2 = IP4(172, 30, 0, 0);
	struct rt_table *t = rt_test_table("rt_nl5");
	struct rt_nlcands c = {0};
	char err[RT_ERR_LEN];
	struct rt_nl_route r;
	uint32_t ms[4];
	bool standby = false;

	CHECK(t != NULL);
	if (t == NULL)
		return;
#define TAKE(del, dst, gw, ifx, metric)                                                         \
	(parse_metric(del, dst, 16, gw, ifx, metric, &r) == RT_NL_OK                            \
			? rt_nlcands_apply(                                                     \
				  &c, t, &r, ifmap, RTE_DIM(ifmap), &standby, err, sizeof(err)) \
			: -1000)
	/* the RTA_PRIORITY is read; none is metric 0 */
	CHECK_EQ(parse_metric(false, p, 16, IP4(10, 0, 0, 2), IFX0, 20, &r), RT_NL_OK);
	CHECK_EQ(r.metric, 20);
	CHECK_EQ(parse_metric(false, p, 16, IP4(10, 0, 0, 2), IFX0, 0, &r), RT_NL_OK);
	CHECK_EQ(r.metric, 0);
	/* 20 then 10: 10 wins */
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 2), IFX0, 20), 0);
	CHECK(!standby);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 2));
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK(!standby);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 1, 2));
	/* 30 is held: the kernel does not forward by it */
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 3), IFX0, 30), 0);
	CHECK(standby);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 1, 2));
	CHECK_EQ(c.standby, 2);
	CHECK_EQ(rt_nlcands_metrics(&c, p, 16, ms, 4), 3);
	CHECK_EQ(ms[0], 10);
	CHECK_EQ(ms[1], 20);
	CHECK_EQ(ms[2], 30);
	/* a delete of a metric not held: refused, nothing changes */
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 0, 2), IFX0, 15), -ENOENT);
	CHECK_CONTAINS(err, "metric 15");
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 1, 2));
	/* the installed one goes: 20 is next */
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK(!standby);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 2));
	/* a held one goes: nothing changes */
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 0, 3), IFX0, 30), 0);
	CHECK(standby);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 2));
	/* the same key again replaces it (the kernel's replace) */
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 4), IFX0, 20), 0);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 4));
	CHECK_EQ(c.n, 1);
	/* 10 then 20: 10 stays (the later is not the kernel's choice) */
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 0, 4), IFX0, 20), 0);
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 2), IFX0, 20), 0);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 1, 2));
	/* the last one's delete deletes the route */
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 2));
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 0, 2), IFX0, 20), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 16, 1, 1)), RT_NH_MISS);
	CHECK_EQ(c.n, 0);
	CHECK_EQ(c.standby, 0);
	/* a next one the table refuses (no port): the route still goes, as in the kernel */
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 2), 99, 20), 0);
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 16, 1, 1)), RT_NH_MISS);
	CHECK_EQ(TAKE(true, p, IP4(10, 0, 0, 2), 99, 20), -ENOENT); /* not in the table */
	CHECK_EQ(c.n, 0);

	/* resync: p's 10 (installed) and 20, p2's 10; the dump shows p's 20 only */
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 1, 2), IFX1, 10), 0);
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 2), IFX0, 20), 0);
	CHECK_EQ(TAKE(false, p2, IP4(10, 0, 0, 2), IFX0, 10), 0);
	rt_nlcands_begin(&c);
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 2), IFX0, 20), 0);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 1, 2)); /* 10 until the sweep */
	CHECK_EQ(rt_nlcands_sweep(&c, t, ifmap, RTE_DIM(ifmap)), 2);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 2));
	CHECK_EQ(rt_route_lookup(t, IP4(172, 30, 1, 1)), RT_NH_MISS);
	CHECK_EQ(c.n, 1);
	CHECK_EQ(c.standby, 0);
	/* a resync that sees it all drops nothing */
	rt_nlcands_begin(&c);
	CHECK_EQ(TAKE(false, p, IP4(10, 0, 0, 2), IFX0, 20), 0);
	CHECK_EQ(rt_nlcands_sweep(&c, t, ifmap, RTE_DIM(ifmap)), 0);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), IP4(10, 0, 0, 2));
	/* many prefixes (the set grows), each with two metrics: each keeps its lowest */
	{
		unsigned int i, bad = 0;

		for (i = 0; i < 3000; i++) {
			const uint32_t q = IP4(100, 0, 0, 0) + (i << 16);

			if (TAKE(false, q, IP4(10, 0, 0, 2), IFX0, 200) != 0 ||
				TAKE(false, q, IP4(10, 0, 1, 2), IFX1, 100) != 0)
				bad++;
		}
		for (i = 0; i < 3000; i++)
			if (gw_of(t, IP4(100, 0, 0, 1) + (i << 16), NULL) != IP4(10, 0, 1, 2))
				bad++;
		CHECK_EQ(bad, 0);
		CHECK_EQ(c.standby, 3000);
	}
#undef TAKE
	rt_nlcands_clear(&c);
	CHECK_EQ(c.n, 0);
	rt_table_free(t);
}

/*
 * The sweep reads the table a page (256 routes) at a time: 1 000 stale
 * routes of the source among 1 000 marked ones and 300 of another source,
 * every stale one deleted, over every page, and nothing else.
 */
static void
test_syncmarks_sweep_pages(void)
{
	struct rt_table *t = rt_test_table("rt_nl5");
	struct rt_syncmarks m = {0};
	char err[RT_ERR_LEN];
	unsigned int i, left = 0;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	for (i = 0; i < 2000; i++) {
		CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, 0, IP4(40, 0, 0, 0) + (i << 8), 24,
				 RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
			0);
		if (i % 2 == 0)
			CHECK_EQ(rt_syncmarks_add(&m, IP4(40, 0, 0, 0) + (i << 8), 24), 0);
	}
	for (i = 0; i < 300; i++)
		CHECK_EQ(rt_test_set(t, RT_SRC_FPM, 0, IP4(41, 0, 0, 0) + (i << 8), 24,
				 RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
			0);
	CHECK_EQ(rt_syncmarks_sweep(t, RT_SRC_NETLINK, &m), 1000);
	for (i = 0; i < 2000; i++)
		left += rt_route_lookup(t, IP4(40, 0, 0, 1) + (i << 8)) != RT_NH_MISS;
	CHECK_EQ(left, 1000);
	for (i = 0; i < 2000; i += 2)
		CHECK(rt_route_lookup(t, IP4(40, 0, 0, 1) + (i << 8)) == t->nh_blackhole);
	for (i = 0; i < 300; i++)
		CHECK(rt_route_lookup(t, IP4(41, 0, 0, 1) + (i << 8)) == t->nh_blackhole);
	rt_syncmarks_clear(&m);
	rt_table_free(t);
}

/* A datagram of route messages, as the sync's socket reads one. */
struct dgram {
	uint64_t space[8192 / 8];
	size_t len;
};

/*
 * Append a route message to @p d: (@p dst/16, @p metric) via @p gw on
 * port 0's interface, or its delete; a dump part when @p seq is not 0
 * (NLM_F_MULTI, the dump's port id and sequence), an event otherwise.
 */
static void
dg_route(struct dgram *d, bool del, uint32_t dst, uint32_t gw, uint32_t metric, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header((char *)d->space + d->len);
	struct rtmsg *rtm;

	nlh->nlmsg_type = del ? RTM_DELROUTE : RTM_NEWROUTE;
	nlh->nlmsg_flags = seq != 0 ? NLM_F_MULTI : 0;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = seq != 0 ? 77 : 0;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = 16;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_BOOT;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put_u32(nlh, RTA_DST, htonl(dst));
	if (metric != 0)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, metric);
	mnl_attr_put_u32(nlh, RTA_GATEWAY, htonl(gw));
	d->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

/* Append the dump's end (NLMSG_DONE of port id 77, sequence @p seq). */
static void
dg_done(struct dgram *d, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header((char *)d->space + d->len);

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 77;
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	d->len += NLMSG_ALIGN(nlh->nlmsg_len);
}

static void
dg_replay(struct rt_nlsync *s, struct dgram *d)
{
	CHECK_EQ(rt_nlsync_replay(s, d->space, d->len), 0);
	d->len = 0;
}

/*
 * A kernel that dumps its FIB without the RTNL (Linux 6.9 on) may fill a dump
 * part before a change and queue it after the change's event. The sync's
 * thread path (rt_nlsync_replay) given such orders: a route whose delete was
 * heard does not come back from the stale part, a replace heard is not undone
 * by it, a key of another metric is not confused with it, and the set is
 * emptied at the resync's end (a later dump is believed again).
 */
static void
test_nlsync_dump_race(void)
{
	const uint32_t a = IP4(172, 16, 0, 0), b = IP4(172, 17, 0, 0), c = IP4(172, 18, 0, 0),
		       e = IP4(172, 19, 0, 0), gw = IP4(10, 0, 0, 2), gw2 = IP4(10, 0, 0, 3),
		       gw3 = IP4(10, 0, 1, 2);
	struct rt_table *t = rt_test_table("rt_nl6");
	static struct dgram d;
	struct rt_nlsync_stats st;
	struct rt_nlsync *s;

	CHECK(t != NULL);
	if (t == NULL)
		return;
	s = rt_nlsync_create(&(struct rt_nlsync_params){.table = t});
	CHECK(s != NULL);
	if (s == NULL) {
		rt_table_free(t);
		return;
	}
	/* the first resync: a, b and e (metric 20) */
	CHECK_EQ(rt_nlsync_replay_begin(s, 77, 1), 0);
	dg_route(&d, false, a, gw, 0, 1);
	dg_route(&d, false, b, gw, 0, 1);
	dg_route(&d, false, e, gw, 20, 1);
	dg_done(&d, 1);
	dg_replay(s, &d);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), gw);
	CHECK_EQ(gw_of(t, IP4(172, 17, 1, 1), NULL), gw);
	CHECK_EQ(strcmp(rt_nlsync_state(s), "stopped"), 0); /* no thread: the state says so */

	/* the next: a deleted, b replaced, e given a metric 10 too, all heard first; then the
	 * stale dump part with a, b as it was, e's 20, and c */
	CHECK_EQ(rt_nlsync_replay_begin(s, 77, 2), 0);
	dg_route(&d, true, a, gw, 0, 0);
	dg_route(&d, false, b, gw2, 0, 0);
	dg_route(&d, false, e, gw3, 10, 0);
	dg_replay(s, &d);
	dg_route(&d, false, a, gw, 0, 2);
	dg_route(&d, false, b, gw, 0, 2);
	dg_route(&d, false, c, gw, 0, 2);
	dg_route(&d, false, e, gw, 20, 2);
	dg_replay(s, &d);
	dg_done(&d, 2);
	dg_replay(s, &d);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 16, 1, 1)), RT_NH_MISS); /* not back */
	CHECK_EQ(gw_of(t, IP4(172, 17, 1, 1), NULL), gw2);            /* not undone */
	CHECK_EQ(gw_of(t, IP4(172, 18, 1, 1), NULL), gw);
	CHECK_EQ(gw_of(t, IP4(172, 19, 1, 1), NULL), gw3); /* 10 heard, 20 dumped: 10 */
	rt_nlsync_stats_get(s, &st);
	CHECK_EQ(st.superseded, 2); /* a's and b's; e's 20 is another key */
	CHECK_EQ(st.resyncs, 2);
	CHECK_EQ(st.swept, 0);
	CHECK_EQ(st.received, st.applied + st.superseded);

	/* e's 10 goes as an event between resyncs; the one after believes its dump again,
	 * and sweeps what it does not see (c) */
	dg_route(&d, true, e, gw3, 10, 0);
	dg_replay(s, &d);
	CHECK_EQ(gw_of(t, IP4(172, 19, 1, 1), NULL), gw); /* the 20 exposed */
	CHECK_EQ(rt_nlsync_replay_begin(s, 77, 3), 0);
	dg_route(&d, false, b, gw3, 0, 3);
	dg_route(&d, false, e, gw, 20, 3);
	dg_done(&d, 3);
	dg_replay(s, &d);
	CHECK_EQ(gw_of(t, IP4(172, 17, 1, 1), NULL), gw3);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 18, 1, 1)), RT_NH_MISS);
	rt_nlsync_stats_get(s, &st);
	CHECK_EQ(st.superseded, 2);
	CHECK_EQ(st.resyncs, 3);
	CHECK_EQ(st.swept, 1);

	/* b deleted, a added and deleted and added again, e's 20 deleted: all heard before the
	 * next resync began, the deletes' routes still seen by its dump (the kernel unlinks a
	 * route after its delete's event): b and e stay gone, a is believed and marked */
	dg_route(&d, true, b, gw3, 0, 0);
	dg_route(&d, false, a, gw, 0, 0);
	dg_route(&d, true, a, gw, 0, 0);
	dg_route(&d, false, a, gw2, 0, 0);
	dg_route(&d, true, e, gw, 20, 0);
	dg_replay(s, &d);
	CHECK_EQ(rt_nlsync_replay_begin(s, 77, 4), 0);
	dg_route(&d, false, a, gw2, 0, 4);
	dg_route(&d, false, b, gw3, 0, 4);
	dg_route(&d, false, e, gw, 20, 4);
	dg_done(&d, 4);
	dg_replay(s, &d);
	CHECK_EQ(rt_route_lookup(t, IP4(172, 17, 1, 1)), RT_NH_MISS); /* not back */
	CHECK_EQ(rt_route_lookup(t, IP4(172, 19, 1, 1)), RT_NH_MISS);
	CHECK_EQ(gw_of(t, IP4(172, 16, 1, 1), NULL), gw2); /* not swept */
	rt_nlsync_stats_get(s, &st);
	CHECK_EQ(st.superseded, 4);
	CHECK_EQ(st.resyncs, 4);
	CHECK_EQ(st.swept, 1);
	rt_nlsync_free(s);
	rt_table_free(t);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_nlsync_dump_race),
	FWD_TEST(test_routes_applied),
	FWD_TEST(test_replace),
	FWD_TEST(test_refusals),
	FWD_TEST(test_sources),
	FWD_TEST(test_syncmarks),
	FWD_TEST(test_syncmarks_sweep_pages),
	FWD_TEST(test_metrics),
	FWD_TEST(test_fpm_nh_routes_bounded),
	FWD_TEST(test_fpm_nexthop_same),
	FWD_TEST(test_fpm_refusals),
	FWD_TEST(test_fpm_encap),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("route-netlink", 128) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_eal_cleanup();
	return ret;
}
