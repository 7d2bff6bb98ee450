/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#define _GNU_SOURCE /* setns() */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/rtnetlink.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fwd_log.h"
#include "fwd_route.h"
#include "fwd_twin.h"
#include "rt_control.h"
#include "rt_table.h"

/* A twin's RX ring; TX needs little (a TAP's TX is a write) */
#define TWIN_RXD 256
#define TWIN_TXD 256

/*
 * Its pool: the RX rings, what waits on the slow path's TX ring to the
 * sending worker (4096 at most, fwd_route.c) and a burst in hand.
 */
#define TWIN_POOL_EXTRA 4096 + 512

/* The "file:line: " of port @p p's section, or "". */
static const char *
where_of(const struct fwd_app *app, uint16_t p, char *buf, size_t len)
{
	const char *w = app->cfg.route.ports[p].where;

	snprintf(buf, len, "%s%s", w, w[0] != '\0' ? ": " : "");
	return buf;
}

/* This thread into the namespace @p ns ("" = stay); @p back gets where it was (-1: stayed). */
static int
enter_ns(const char *ns, int *back, char *err, size_t errlen)
{
	char path[RT_NETNS_LEN + 16];
	int fd, e;

	*back = -1;
	if (ns[0] == '\0')
		return 0;
	*back = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*back < 0 || fd < 0 || setns(fd, CLONE_NEWNET) < 0) {
		e = errno;
		snprintf(err, errlen, "twin-netns %s: %s", ns, strerror(e));
		if (fd >= 0)
			close(fd);
		if (*back >= 0)
			close(*back);
		*back = -1;
		return -e;
	}
	close(fd);
	return 0;
}

/* Back from enter_ns(); a thread that cannot return must not go on (it would work elsewhere). */
static void
leave_ns(int back)
{
	if (back < 0)
		return;
	if (setns(back, CLONE_NEWNET) < 0)
		rte_panic(
			"twin: cannot return to the forwarder's namespace: %s\n", strerror(errno));
	close(back);
}

/*
 * Put @p ip/@p plen on interface @p ifindex through @p nl (a socket of the
 * interface's namespace): RTM_NEWADDR, acknowledged.
 */
static int
add_addr(struct mnl_socket *nl, unsigned int ifindex, uint32_t ip, uint8_t plen)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	uint32_t seq = (uint32_t)time(NULL), portid = mnl_socket_get_portid(nl);
	uint32_t bcast = ip | (plen < 32 ? UINT32_MAX >> plen : 0);
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifaddrmsg *ifa;
	ssize_t n;
	int ret;

	nlh->nlmsg_type = RTM_NEWADDR;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_REPLACE | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = plen;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = ifindex;
	mnl_attr_put_u32(nlh, IFA_LOCAL, htonl(ip));
	mnl_attr_put_u32(nlh, IFA_ADDRESS, htonl(ip));
	mnl_attr_put_u32(nlh, IFA_BROADCAST, htonl(bcast));
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	ret = mnl_cb_run(buf, (size_t)n, seq, portid, NULL, NULL);
	return ret < 0 ? -errno : 0;
}

/* One RX and one TX queue, the port's IP MTU, started (which brings the link up). */
static int
twin_start(struct fwd_app *app, uint16_t p, struct fwd_twin_port *tw)
{
	struct fwd_twin_ctx *tc = fwd_twin_ctx(app);
	struct rte_eth_conf conf = {0};
	uint16_t id = tw->port_id;
	int ret;

	ret = rte_eth_dev_configure(id, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_dev_set_mtu(id, fwd_route_table(app)->ports[p].mtu);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(id, 0, TWIN_RXD, SOCKET_ID_ANY, NULL, tc->pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(id, 0, TWIN_TXD, SOCKET_ID_ANY, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(id);
	if (ret == 0)
		tw->started = true;
	return ret;
}

/*
 * No IPv6 on twin @p ifname (before its link is up): the router is IPv4's
 * alone (the workers drop the rest as not_ipv4), so the kernel's router
 * solicitations and MLD reports would only leave the port as noise. Through
 * /proc/sys/net, which shows the namespace of the thread that opens it: ours,
 * in the twin's namespace now. Best effort: a kernel without IPv6 has none.
 */
static void
no_ipv6(const char *ifname)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6", ifname);
	f = fopen(path, "w");
	if (f == NULL) {
		FWD_LOG(DEBUG, "twin %s: IPv6 stays on (%s: %s)\n", ifname, path, strerror(errno));
		return;
	}
	ok = fputs("1", f) >= 0;
	if (fclose(f) != 0 || !ok)
		FWD_LOG(DEBUG, "twin %s: IPv6 stays on (%s: %s)\n", ifname, path, strerror(errno));
}

/*
 * Twin @p tw of router port @p p, made by a thread in the twins' namespace:
 * probe, queues, start and address. A TUN device is born in its creator's
 * namespace, and net_tap makes one at probe and attaches a queue's file by
 * the interface's name (TUNSETIFF) at queue set-up: both must run there.
 * Its ioctl socket, made at probe, is then of the namespace too, so its
 * link, MTU and MAC control keep working where the interface is.
 */
static int
twin_make_here(struct fwd_app *app, uint16_t p, struct fwd_twin_port *tw, bool *probed, char *why,
	size_t len)
{
	const struct rt_cfg_port *cp = &app->cfg.route.ports[p];
	char args[96], mac[RTE_ETHER_ADDR_FMT_SIZE], a[INET_ADDRSTRLEN];
	struct in_addr in = {.s_addr = htonl(cp->ip)};
	struct mnl_socket *nl;
	unsigned int ifindex;
	int ret;

	rte_ether_format_addr(mac, sizeof(mac), &app->ports[p].mac);
	snprintf(args, sizeof(args), "iface=%s,mac=%s", cp->twin, mac);
	ret = rte_eal_hotplug_add("vdev", tw->dev, args);
	if (ret < 0) {
		snprintf(why, len, "cannot make the TAP (%s %s): %s", tw->dev, args,
			rte_strerror(-ret));
		return ret;
	}
	*probed = true;
	ifindex = if_nametoindex(cp->twin);
	if (rte_eth_dev_get_port_by_name(tw->dev, &tw->port_id) != 0 || ifindex == 0) {
		snprintf(why, len, "no such interface after the probe");
		return -ENODEV;
	}
	no_ipv6(cp->twin);
	ret = twin_start(app, p, tw);
	if (ret < 0) {
		snprintf(why, len, "cannot start its port %u: %s", tw->port_id, rte_strerror(-ret));
		return ret;
	}
	nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (nl == NULL || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -(errno != 0 ? errno : EIO);
		snprintf(why, len, "netlink socket: %s", strerror(-ret));
	} else {
		ret = add_addr(nl, ifindex, cp->ip, cp->plen);
		if (ret < 0)
			snprintf(why, len, "cannot add %s/%u: %s",
				inet_ntop(AF_INET, &in, a, sizeof(a)), cp->plen, strerror(-ret));
	}
	if (nl != NULL)
		mnl_socket_close(nl);
	return ret;
}

/* twin_make_here() from inside twin-netns, back out after; @p err starts with the line. */
static int
twin_make(struct fwd_app *app, uint16_t p, struct fwd_twin_port *tw, bool *probed, char *err,
	size_t errlen)
{
	const char *ns = app->cfg.route.twin_netns;
	char why[160], w[112];
	int back, ret;

	snprintf(tw->dev, sizeof(tw->dev), "net_tap_twin%u", p);
	ret = enter_ns(ns, &back, why, sizeof(why));
	if (ret == 0) {
		ret = twin_make_here(app, p, tw, probed, why, sizeof(why));
		leave_ns(back);
	}
	if (ret < 0)
		snprintf(err, errlen, "%stwin %s%s%s: %s", where_of(app, p, w, sizeof(w)),
			app->cfg.route.ports[p].twin, ns[0] != '\0' ? " in namespace " : "", ns,
			why);
	return ret;
}

int
fwd_twin_setup(struct fwd_app *app, struct rt_control *ctl, char *err, size_t errlen)
{
	struct fwd_twin_ctx *tc = fwd_twin_ctx(app);
	const struct rt_config *rc = &app->cfg.route;
	unsigned int n = 0;
	uint16_t p;
	int ret;

	for (p = 0; p < app->nb_ports; p++)
		n += rc->ports[p].twin[0] != '\0';
	if (n == 0)
		return 0;
	tc->pool = rte_pktmbuf_pool_create("fwd_twin_pool",
		n * (TWIN_RXD + TWIN_TXD) + TWIN_POOL_EXTRA, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
		SOCKET_ID_ANY);
	if (tc->pool == NULL) {
		snprintf(err, errlen,
			"cannot create the kernel twins' pool: %s (give EAL more "
			"memory with -m)",
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (p = 0; p < app->nb_ports; p++) {
		const struct rt_cfg_port *cp = &rc->ports[p];
		struct fwd_twin_port *tw = &tc->twins[tc->n_twins];
		bool probed = false;
		char w[112];

		if (cp->twin[0] == '\0')
			continue;

		tw->port = p;
		ret = twin_make(app, p, tw, &probed, err, errlen);
		if (probed)
			tc->n_twins++; /* released from here on */
		if (ret < 0)
			return ret;
		ret = rt_iface_set_twin(fwd_route_table(app), p, true);
		if (ret == 0)
			ret = rt_control_set_twin(ctl, p, tw->port_id, cp->punt_rate);
		if (ret < 0) {
			snprintf(err, errlen, "%stwin %s: the router refuses it as port %u's twin",
				where_of(app, p, w, sizeof(w)), cp->twin, p);
			return ret;
		}
		FWD_LOG(INFO, "port %u: kernel twin %s%s%s is port %u\n", p, cp->twin,
			rc->twin_netns[0] != '\0' ? " in namespace " : "", rc->twin_netns,
			tw->port_id);
	}
	return 0;
}

void
fwd_twin_release(struct fwd_app *app)
{
	struct fwd_twin_ctx *tc = fwd_twin_ctx(app);
	uint16_t i;

	for (i = 0; i < tc->n_twins; i++) {
		struct fwd_twin_port *tw = &tc->twins[i];

		if (fwd_route_table(app) != NULL)
			rt_iface_set_twin(fwd_route_table(app), tw->port, false);
		if (tw->started)
			rte_eth_dev_stop(tw->port_id);
		tw->started = false;
		/* close gives its RX ring's mbufs back; remove ends the TAP */
		rte_eth_dev_close(tw->port_id);
		rte_eal_hotplug_remove("vdev", tw->dev);
	}
	tc->n_twins = 0;
}

void
fwd_twin_check(struct fwd_app *app, int *missing)
{
	struct fwd_twin_ctx *tc = fwd_twin_ctx(app);
	struct rte_mempool *mp = tc->pool;
	unsigned int avail;

	if (mp == NULL)
		return;
	avail = rte_mempool_avail_count(mp);
	if (avail != mp->size) {
		fwd_err("mbuf leak: %u of %u mbufs of pool %s did not come back", mp->size - avail,
			mp->size, mp->name);
		*missing += (int)(mp->size - avail);
	}
	rte_mempool_free(mp);
	tc->pool = NULL;
}

void
fwd_twin_show(const struct fwd_app *app, FILE *f)
{
	const struct fwd_twin_ctx *tc = fwd_twin_ctx(app);
	const char *ns = app->cfg.route.twin_netns;
	uint16_t i;

	if (tc->n_twins == 0) {
		fprintf(f, "no kernel twins: give [port N] twin = IFNAME in the config\n");
		return;
	}
	fprintf(f,
		"to_twin %" PRIu64 " arp_to_twin %" PRIu64 " from_twin %" PRIu64
		" | drops: punt_rate %" PRIu64 " twin_tx_full %" PRIu64 "\n",
		fwd_route_ctl_counter(app, RT_CTL_TO_TWIN),
		fwd_route_ctl_counter(app, RT_CTL_ARP_TO_TWIN),
		fwd_route_ctl_counter(app, RT_CTL_FROM_TWIN),
		fwd_route_ctl_drops(app, FWD_DROP_PUNT_RATE),
		fwd_route_ctl_drops(app, FWD_DROP_TWIN_TX_FULL));
	for (i = 0; i < tc->n_twins; i++) {
		const struct fwd_twin_port *tw = &tc->twins[i];
		const struct rt_cfg_port *cp = &app->cfg.route.ports[tw->port];

		fprintf(f, "port %u: twin %s in %s%s, port %u, punt-rate %u\n", tw->port, cp->twin,
			ns[0] != '\0' ? "namespace " : "the forwarder's namespace", ns, tw->port_id,
			cp->punt_rate != 0 ? cp->punt_rate : RT_TWIN_RATE_DEFAULT);
	}
}
