/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <rte_common.h>

#include "rt_netlink.h"
#include "rt_nhgroup.h"

#define RT_NL_NAME(sym, name, desc) name,
#define RT_NL_DESC(sym, name, desc) desc,
static const char *const reason_name[] = {RT_NL_REASONS(RT_NL_NAME)};
static const char *const reason_desc[] = {RT_NL_REASONS(RT_NL_DESC)};
#undef RT_NL_NAME
#undef RT_NL_DESC

const char *
rt_nl_reason_name(enum rt_nl_reason why)
{
	return (unsigned int)why < RT_NL_REASON_MAX ? reason_name[why] : "?";
}

const char *
rt_nl_reason_desc(enum rt_nl_reason why)
{
	return (unsigned int)why < RT_NL_REASON_MAX ? reason_desc[why] : "?";
}

const char *
rt_nl_encap_name(uint16_t type)
{
	/* as iproute2 names them; by number: the oldest uapi headers lack the newest */
	static const char *const name[] = {"none", "mpls", "ip", "ila", "ip6", "seg6", "bpf",
		"seg6local", "rpl", "ioam6", "xfrm"};

	return type < RTE_DIM(name) ? name[type] : NULL;
}

/* What the attribute walk of one message collects. */
struct walk {
	struct rt_nl_route *r;
	enum rt_nl_reason why;
	bool has_table, has_dst, has_mp;
	bool encap;       /* RTA_ENCAP / RTA_ENCAP_TYPE on the route or one of its hops */
	bool allow_nh_id; /* rt_netlink_parse_nh(): RTA_NH_ID is kept, not refused */
	uint32_t table, dst;
	struct rt_nl_hop one; /* RTA_GATEWAY / RTA_OIF outside RTA_MULTIPATH */
};

/* An address attribute: exactly 4 bytes (mnl_attr_validate checks at least). */
static bool
get_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_get_payload_len(a) != sizeof(uint32_t))
		return false;
	*v = mnl_attr_get_u32(a);
	return true;
}

/*
 * RTA_ENCAP / RTA_ENCAP_TYPE, on the route or in a hop: the route is
 * encapsulated (its type kept, the first one seen). False when malformed.
 */
static bool
encap_attr(const struct nlattr *a, struct walk *w)
{
	if (mnl_attr_get_type(a) == RTA_ENCAP_TYPE) {
		if (mnl_attr_get_payload_len(a) != sizeof(uint16_t))
			return false;
		if (!w->encap || w->r->encap == 0)
			w->r->encap = mnl_attr_get_u16(a);
	}
	w->encap = true;
	return true;
}

/* What the walk of one rtnexthop's attributes collects. */
struct hop_walk {
	struct rt_nl_hop h;
	struct walk *w;
};

/* The attributes of one rtnexthop: its RTA_GATEWAY and encap (others ignored). */
static int
hop_attr(const struct nlattr *a, void *data)
{
	struct hop_walk *hw = data;
	uint32_t v;

	switch (mnl_attr_get_type(a)) {
	case RTA_GATEWAY:
		if (!get_u32(a, &v))
			return MNL_CB_ERROR;
		hw->h.gw = ntohl(v);
		break;
	case RTA_ENCAP:
	case RTA_ENCAP_TYPE:
		/* one hop tunnelled among plain ones: the whole route is refused */
		if (!encap_attr(a, hw->w))
			return MNL_CB_ERROR;
		break;
	default:
		break;
	}
	return MNL_CB_OK;
}

/* RTA_MULTIPATH: a packed list of struct rtnexthop, each followed by its attributes. */
static enum rt_nl_reason
multipath(struct walk *w, const struct nlattr *a)
{
	struct rt_nl_route *r = w->r;
	const uint8_t *p = mnl_attr_get_payload(a);
	size_t left = mnl_attr_get_payload_len(a);

	r->n_hops = 0;
	while (left >= sizeof(struct rtnexthop)) {
		const struct rtnexthop *nh = (const struct rtnexthop *)p;
		size_t step = RTNH_ALIGN(nh->rtnh_len);
		struct hop_walk hw = {.h = {.ifindex = (uint32_t)nh->rtnh_ifindex,
					      .weight = (uint16_t)(nh->rtnh_hops + 1)},
			.w = w};

		if (nh->rtnh_len < sizeof(*nh) || nh->rtnh_len > left)
			return RT_NL_BAD_ATTR;
		if (nh->rtnh_len > sizeof(*nh) &&
			mnl_attr_parse_payload(
				RTNH_DATA(nh), nh->rtnh_len - sizeof(*nh), hop_attr, &hw) < 0)
			return RT_NL_BAD_ATTR;
		if (r->n_hops == RT_ECMP_MAX)
			return RT_NL_TOO_MANY_HOPS;
		r->hops[r->n_hops++] = hw.h;
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	return RT_NL_OK;
}

static int
route_attr(const struct nlattr *a, void *data)
{
	struct walk *w = data;
	uint32_t v;

	switch (mnl_attr_get_type(a)) {
	case RTA_DST:
		if (!get_u32(a, &v))
			goto bad;
		w->dst = ntohl(v);
		w->has_dst = true;
		break;
	case RTA_TABLE:
		if (!get_u32(a, &w->table))
			goto bad;
		w->has_table = true;
		break;
	case RTA_GATEWAY:
		if (!get_u32(a, &v))
			goto bad;
		w->one.gw = ntohl(v);
		break;
	case RTA_OIF:
		if (!get_u32(a, &w->one.ifindex))
			goto bad;
		break;
	case RTA_PRIORITY:
		/* the netlink sync keeps a prefix's routes by metric (rt_nlcands.h) */
		if (!get_u32(a, &w->r->metric))
			goto bad;
		break;
	case RTA_SRC:
		w->why = RT_NL_SRC_ROUTE;
		return MNL_CB_ERROR;
	case RTA_NH_ID:
		if (!w->allow_nh_id) {
			w->why = RT_NL_NH_ID;
			return MNL_CB_ERROR;
		}
		if (!get_u32(a, &w->r->nh_id) || w->r->nh_id == 0)
			goto bad;
		break;
	case RTA_ENCAP:
	case RTA_ENCAP_TYPE:
		if (!encap_attr(a, w))
			goto bad;
		break;
	case RTA_MULTIPATH:
		w->has_mp = true;
		w->why = multipath(w, a);
		if (w->why != RT_NL_OK)
			return MNL_CB_ERROR;
		break;
	default:
		break; /* RTA_PREFSRC, RTA_METRICS, ...: nothing here needs them */
	}
	return MNL_CB_OK;
bad:
	w->why = RT_NL_BAD_ATTR;
	return MNL_CB_ERROR;
}

static enum rt_nl_reason
parse(const void *buf, size_t len, uint32_t table, bool allow_nh_id, struct rt_nl_route *r)
{
	const struct nlmsghdr *nlh = buf;
	const struct rtmsg *rtm;
	struct walk w = {.r = r, .allow_nh_id = allow_nh_id};
	unsigned int i;

	if (len < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len)
		return RT_NL_TRUNCATED;
	if (nlh->nlmsg_type != RTM_NEWROUTE && nlh->nlmsg_type != RTM_DELROUTE)
		return RT_NL_NOT_ROUTE;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*rtm)))
		return RT_NL_TRUNCATED;
	rtm = mnl_nlmsg_get_payload(nlh);
	if (rtm->rtm_family != AF_INET)
		return RT_NL_NOT_INET;
	if (rtm->rtm_dst_len > 32)
		return RT_NL_BAD_PLEN;
	if (rtm->rtm_src_len != 0)
		return RT_NL_SRC_ROUTE;
	memset(r, 0, sizeof(*r));
	r->del = nlh->nlmsg_type == RTM_DELROUTE;
	r->replace = (nlh->nlmsg_flags & NLM_F_REPLACE) != 0;
	r->plen = rtm->rtm_dst_len;
	r->protocol = rtm->rtm_protocol;
	if (mnl_attr_parse(nlh, sizeof(*rtm), route_attr, &w) < 0)
		return w.why != RT_NL_OK ? w.why : RT_NL_BAD_ATTR;
	r->table = w.has_table ? w.table : rtm->rtm_table;
	if (r->table != table)
		return RT_NL_OTHER_TABLE;
	/* a /0 carries no RTA_DST; any other length without one means 0.0.0.0/len */
	r->prefix = w.has_dst ? w.dst : 0;
	if (r->plen < 32 && (r->prefix & ~rt4_mask(r->plen)) != 0)
		return RT_NL_HOST_BITS;
	switch (rtm->rtm_type) {
	case RTN_UNICAST:
		r->kind = RT_ROUTE_VIA;
		break;
	case RTN_BLACKHOLE:
		r->kind = RT_ROUTE_BLACKHOLE;
		break;
	case RTN_UNREACHABLE:
	case RTN_PROHIBIT:
		r->kind = RT_ROUTE_REJECT;
		break;
	case RTN_UNSPEC:
		if (r->del) { /* a delete may name no type: the prefix is enough */
			r->kind = RT_ROUTE_VIA;
			break;
		}
		/* fall through */
	default:
		return RT_NL_UNSUPPORTED_TYPE;
	}
	if (w.encap && !r->del) {
		/*
		 * A tunnel's route (lwtunnel: MPLS, IP-in-IP, SRv6, BPF, ...), or one
		 * hop of it: the forwarder sends plain IPv4, and a tunnel's traffic
		 * sent untunnelled goes where it must not. The hops are kept as read
		 * (the caller names the route, and withdraws what it held there).
		 */
		if (!w.has_mp && (w.one.gw != 0 || w.one.ifindex != 0)) {
			w.one.weight = 1;
			r->hops[0] = w.one;
			r->n_hops = 1;
		}
		return RT_NL_ENCAP;
	}
	if (r->nh_id != 0) {
		/* the next hop object says where; inline hops beside it are not used */
		r->n_hops = 0;
		return RT_NL_OK;
	}
	if (!w.has_mp && (w.one.gw != 0 || w.one.ifindex != 0)) {
		w.one.weight = 1;
		r->hops[0] = w.one;
		r->n_hops = 1;
	}
	if (r->kind != RT_ROUTE_VIA)
		r->n_hops = 0; /* the kernel keeps a blackhole's oif; the table needs none */
	if (r->del) {
		/*
		 * The table holds one route a prefix: a delete names its prefix, and
		 * its hops (`ip route del P nexthop dev X` has none with a gateway)
		 * are checked for form above but not kept, so no caller sees a hop
		 * an add would have refused.
		 */
		r->n_hops = 0;
		return RT_NL_OK;
	}
	if (r->kind == RT_ROUTE_VIA && r->n_hops == 0)
		return RT_NL_NO_NEXTHOP;
	for (i = 0; r->n_hops > 1 && i < r->n_hops; i++)
		if (r->hops[i].gw == 0)
			return RT_NL_HOP_NO_GW;
	return RT_NL_OK;
}

enum rt_nl_reason
rt_netlink_parse(const void *buf, size_t len, uint32_t table, struct rt_nl_route *r)
{
	return parse(buf, len, table, false, r);
}

enum rt_nl_reason
rt_netlink_parse_nh(const void *buf, size_t len, uint32_t table, struct rt_nl_route *r)
{
	return parse(buf, len, table, true, r);
}

/*
 * The port of @p ifindex: -1 (the table finds it from the gateway) when there
 * is none, or when there is no map at all and the hop has a gateway;
 * -ENODEV when the map does not have it.
 */
static int
port_of(uint32_t ifindex, uint32_t gw, const struct rt_nl_ifmap *map, unsigned int n_map, char *err,
	size_t errlen)
{
	unsigned int i;

	if (ifindex == 0 || (n_map == 0 && gw != 0))
		return -1;
	for (i = 0; i < n_map; i++)
		if (map[i].ifindex == ifindex)
			return map[i].port;
	if (n_map == 0)
		snprintf(err, errlen,
			"on-link through interface %u: no interface is mapped to a port", ifindex);
	else
		snprintf(err, errlen, "interface %u is not one of the router's ports", ifindex);
	return -ENODEV;
}

/* What an existing route is, to compare a replacement with. */
struct saved {
	struct rt_route r;
	unsigned int n;
	struct rt_hop hops[RT_ECMP_MAX];
};

static void
save_route(struct rt_table *t, const struct rt_route *old, struct saved *s)
{
	uint32_t nh[RT_ECMP_MAX];
	unsigned int i;

	s->r = *old;
	/* rt_nhgroup_members() takes the lock itself */
	s->n = old->kind == RT_ROUTE_VIA ? rt_nhgroup_members(t, old->nh, nh, NULL) : 0;
	pthread_mutex_lock(&t->lock);
	for (i = 0; i < s->n; i++)
		s->hops[i] = (struct rt_hop){.gw = t->nh_info[nh[i]].ip, .port = t->nh[nh[i]].port};
	pthread_mutex_unlock(&t->lock);
}

/* The hops of @p r as the table takes them (ports from the map, -1 = from the gateway). */
static int
to_hops(const struct rt_nl_route *r, const struct rt_nl_ifmap *map, unsigned int n_map,
	struct rt_hop *hops, char *err, size_t errlen)
{
	unsigned int i;
	int port;

	for (i = 0; i < r->n_hops; i++) {
		port = port_of(r->hops[i].ifindex, r->hops[i].gw, map, n_map, err, errlen);
		if (port == -ENODEV)
			return port;
		hops[i] = (struct rt_hop){.gw = r->hops[i].gw, .port = port};
	}
	return 0;
}

/* Add, or with @p replace add or replace in one step (RT_ROUTE_F_REPLACE). */
static int
add(struct rt_table *t, enum rt_route_src src, const struct rt_nl_route *r,
	const struct rt_hop *hops, bool replace, char *err, size_t errlen)
{
	struct rt4_route_req req = {
		.prefix = r->prefix,
		.plen = r->plen,
		.kind = r->kind,
		.src = src,
		.flags = replace ? RT_ROUTE_F_REPLACE : 0,
	};

	if (r->kind == RT_ROUTE_VIA) {
		/* one hop without a gateway: on-link out of its port */
		if (r->n_hops == 1 && hops[0].gw == 0)
			req.kind = RT_ROUTE_DEV;
		req.n_hops = r->n_hops;
		memcpy(req.hop, hops, r->n_hops * sizeof(hops[0]));
	}
	return rt4_route_set(t, &req, err, errlen);
}

/* True when hop @p h (port -1: from its gateway) is the next hop @p gw on @p port. */
static bool
same_hop(const struct rt_table *t, const struct rt_hop *h, uint32_t gw, uint16_t port)
{
	return h->gw == gw && (h->port >= 0 ? h->port : rt_iface_lookup_net(t, h->gw)) == port;
}

/*
 * True when the saved route @p s is what @p r with @p hops would install:
 * then a replace (every route of a resync's dump) changes nothing, and is
 * not done (no generation bump, no next-hop churn).
 */
static bool
same_route(const struct rt_table *t, const struct saved *s, const struct rt_nl_route *r,
	const struct rt_hop *hops)
{
	unsigned int i, k;

	if (r->kind != RT_ROUTE_VIA)
		return s->r.kind == r->kind;
	if (r->n_hops == 1 && hops[0].gw == 0)
		return s->r.kind == RT_ROUTE_DEV && s->r.port == hops[0].port;
	if (s->r.kind != RT_ROUTE_VIA)
		return false;
	if (r->n_hops == 1)
		return s->n == 0 && same_hop(t, &hops[0], s->r.gw, s->r.port);
	if (s->n != r->n_hops)
		return false;
	/* the same set (the table refuses duplicate gateways, so counting suffices) */
	for (i = 0; i < r->n_hops; i++) {
		for (k = 0; k < s->n; k++)
			if (same_hop(t, &hops[i], s->hops[k].gw, (uint16_t)s->hops[k].port))
				break;
		if (k == s->n)
			return false;
	}
	return true;
}

int
rt_netlink_apply_from(struct rt_table *t, enum rt_route_src src, const struct rt_nl_route *r,
	const struct rt_nl_ifmap *map, unsigned int n_map, char *err, size_t errlen)
{
	struct rt_hop hops[RT_ECMP_MAX];
	struct rt_route old;
	struct saved s;
	char a[16];
	int ret;

	if (r->del)
		return rt4_route_del(t,
			&(const struct rt4_route_req){
				.prefix = r->prefix, .plen = r->plen, .src = src},
			err, errlen);
	ret = to_hops(r, map, n_map, hops, err, errlen);
	if (ret < 0)
		return ret;
	if (!r->replace || rt_route_get(t, r->prefix, r->plen, true, &old) < 0 ||
		old.kind == RT_ROUTE_NEIGH)
		return add(t, src, r, hops, false, err, errlen);
	if (old.kind == RT_ROUTE_CONNECTED || old.kind == RT_ROUTE_LOCAL) {
		snprintf(err, errlen,
			"%s/%u is the port's own network or address: not a route "
			"to replace",
			rt4_addr_str(r->prefix, a), r->plen);
		return -EPERM;
	}
	if (old.src != src) {
		/* the config's, a file's or the shell's: not this source's to replace */
		snprintf(err, errlen, "a route to %s/%u of %s exists", rt4_addr_str(r->prefix, a),
			r->plen, rt_route_src_name(old.src));
		return -EEXIST;
	}
	save_route(t, &old, &s);
	if (same_route(t, &s, r, hops))
		return 0; /* a resync's dump replaces every route: most change nothing */
	/* in one step; a refused replacement leaves the old route, as the kernel does */
	return add(t, src, r, hops, true, err, errlen);
}

int
rt_netlink_apply(struct rt_table *t, const struct rt_nl_route *r, const struct rt_nl_ifmap *map,
	unsigned int n_map, char *err, size_t errlen)
{
	return rt_netlink_apply_from(t, RT_SRC_NETLINK, r, map, n_map, err, errlen);
}
