/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "rt_drop.h"
#include "rt_ipv4.h"
#include "rt_log.h"
#include "numparse.h"
#include "rt_table.h"

RTE_LOG_REGISTER(rt_logtype, app.route, INFO);

#if RTE_BYTE_ORDER != RTE_LITTLE_ENDIAN
#error "rt_nh.l2 packs a MAC in the low bytes of a word: little-endian only"
#endif

static const char *const drop_names[] = {
#define RT_DROP_NAME(sym, name, desc) name,
	RT_DROP_REASONS(RT_DROP_NAME)
#undef RT_DROP_NAME
};

static const char *const drop_descs[] = {
#define RT_DROP_DESC(sym, name, desc) desc,
	RT_DROP_REASONS(RT_DROP_DESC)
#undef RT_DROP_DESC
};

const char *
rt_drop_name(enum rt_drop_reason r)
{
	return (unsigned int)r < RT_DROP_MAX ? drop_names[r] : "unknown";
}

const char *
rt_drop_desc(enum rt_drop_reason r)
{
	return (unsigned int)r < RT_DROP_MAX ? drop_descs[r] : "unknown";
}

const char *
rt_ip_str(uint32_t ip, char *buf)
{
	snprintf(buf, 16, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
	return buf;
}

int
rt_ip_parse(const char *s, uint32_t *ip)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned int octet = 0, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			octet = octet * 10 + (unsigned int)(*s++ - '0');
			digits++;
		}
		if (digits == 0 || digits > 3 || octet > 255)
			return -EINVAL;
		v = v << 8 | octet;
		if (i < 3 && *s++ != '.')
			return -EINVAL;
	}
	if (*s != '\0')
		return -EINVAL;
	*ip = v;
	return 0;
}

int
rt_prefix_parse(const char *s, uint32_t *ip, uint8_t *plen, bool need_len)
{
	char buf[32];
	const char *slash = strchr(s, '/');
	size_t n = slash != NULL ? (size_t)(slash - s) : strlen(s);
	uint64_t len;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (rt_ip_parse(buf, ip) < 0)
		return -EINVAL;
	if (slash == NULL) {
		if (need_len)
			return -EINVAL;
		*plen = 32;
		return 0;
	}
	if (num_u64(slash + 1, 0, 32, &len) < 0)
		return -EINVAL;
	*plen = (uint8_t)len;
	return 0;
}

/* ---- next hops (lock held) ---- */

static uint32_t
nh_scan(struct rt_table *t, enum rt_nh_type type, uint16_t port, uint32_t ip)
{
	uint32_t i;

	for (i = 0; i < t->max_nh; i++) {
		struct rt_nh *nh = &t->nh[i];

		if (nh->type != RT_NH_FREE &&
			(nh->refcnt != 0 || nh->retired == 0 ||
				rte_rcu_qsbr_check(t->qsbr, nh->retired, false) != 1))
			continue;
		/* nothing reads it any more: fill it before a route points at it */
		nh->l2 = 0;
		nh->port = port;
		nh->src_w = t->ports[port].mac_w | (uint64_t)RTE_BE16(RTE_ETHER_TYPE_IPV4) << 48;
		nh->mtu = t->ports[port].mtu;
		nh->ip = ip;
		nh->refcnt = 0;
		nh->retired = 0;
		nh->is_static = 0;
		__atomic_store_n(&nh->type, (uint8_t)type, __ATOMIC_RELEASE);
		return i;
	}
	return RT_NH_MISS;
}

static bool
nh_any_retired(const struct rt_table *t)
{
	uint32_t i;

	for (i = 0; i < t->max_nh; i++)
		if (t->nh[i].type != RT_NH_FREE && t->nh[i].refcnt == 0 && t->nh[i].retired != 0)
			return true;
	return false;
}

/*
 * When every free slot still waits for slow readers, the writer (never a
 * worker) waits for them rather than fail: a burst of route changes must not
 * depend on how often the workers happened to run.
 */
static uint32_t
nh_alloc(struct rt_table *t, enum rt_nh_type type, uint16_t port, uint32_t ip)
{
	uint32_t i = nh_scan(t, type, port, ip);

	if (i == RT_NH_MISS && nh_any_retired(t)) {
		rte_rcu_qsbr_synchronize(t->qsbr, RTE_QSBR_THRID_INVALID);
		i = nh_scan(t, type, port, ip);
	}
	if (i == RT_NH_MISS)
		rte_errno = ENOSPC;
	return i;
}

/* rte_lpm_add(), waiting for readers once if freed tbl8 groups are still in use. */
static int
lpm_add(struct rt_table *t, uint32_t prefix, uint8_t plen, uint32_t nh)
{
	int ret = rte_lpm_add(t->lpm, prefix, plen, nh);

	if (ret == -ENOSPC) {
		rte_rcu_qsbr_synchronize(t->qsbr, RTE_QSBR_THRID_INVALID);
		ret = rte_lpm_add(t->lpm, prefix, plen, nh);
	}
	return ret;
}

static void
nh_ref(struct rt_table *t, uint32_t i)
{
	/* back in use before anything reused it: no longer retired */
	t->nh[i].refcnt++;
	t->nh[i].retired = 0;
}

/*
 * A next hop nothing refers to keeps its content (a worker may have looked it
 * up just before its last route went) and is reused only once every reader
 * has passed a quiescent state since.
 */
static void
nh_unref(struct rt_table *t, uint32_t i)
{
	struct rt_nh *nh = &t->nh[i];

	if (nh->refcnt == 0 || --nh->refcnt != 0)
		return;
	nh->retired = rte_rcu_qsbr_start(t->qsbr);
}

static uint32_t
neigh_find(const struct rt_table *t, uint32_t ip)
{
	uint32_t i;

	for (i = 0; i < t->max_nh; i++) {
		const struct rt_nh *nh = &t->nh[i];

		if (nh->type == RT_NH_GW && nh->refcnt != 0 && nh->ip == ip)
			return i;
	}
	return RT_NH_MISS;
}

/* ---- route records (lock held) ---- */

static int
route_find(const struct rt_table *t, uint32_t prefix, uint8_t plen)
{
	uint32_t i;

	for (i = 0; i < t->n_routes; i++)
		if (t->routes[i].prefix == prefix && t->routes[i].plen == plen)
			return (int)i;
	return -1;
}

static int
route_insert(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind,
	uint16_t port, uint32_t gw, uint32_t nh)
{
	struct rt_route *r;
	int ret;

	if (t->n_routes >= t->max_routes)
		return -ENOSPC;
	/* rte_lpm has no /0: the default is what a miss returns */
	ret = plen == 0 ? 0 : lpm_add(t, prefix, plen, nh);
	if (ret < 0)
		return ret;
	nh_ref(t, nh);
	if (plen == 0)
		__atomic_store_n(&t->default_nh, nh, __ATOMIC_RELEASE);
	r = &t->routes[t->n_routes++];
	r->prefix = prefix;
	r->plen = plen;
	r->kind = (uint8_t)kind;
	r->port = port;
	r->gw = gw;
	r->nh = nh;
	rt_table_gen_bump(t);
	return 0;
}

static void
route_remove(struct rt_table *t, uint32_t idx)
{
	struct rt_route r = t->routes[idx];

	if (r.plen == 0)
		__atomic_store_n(&t->default_nh, RT_NH_MISS, __ATOMIC_RELEASE);
	else
		rte_lpm_delete(t->lpm, r.prefix, r.plen);
	t->routes[idx] = t->routes[--t->n_routes];
	nh_unref(t, r.nh);
	rt_table_gen_bump(t);
}

static int
lookup_net(const struct rt_table *t, uint32_t ip)
{
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct rt_port *port = &t->ports[p];

		if (port->ip != 0 && ((ip ^ port->ip) & rt_mask(port->plen)) == 0)
			return p;
	}
	return -1;
}

static bool
is_local(const struct rt_table *t, uint32_t ip)
{
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (t->ports[p].ip != 0 && t->ports[p].ip == ip)
			return true;
	return false;
}

/* ---- the table ---- */

struct rt_table *
rt_table_create(const struct rt_table_params *p)
{
	struct rte_lpm_config lc = {0};
	struct rte_lpm_rcu_config rc = {0};
	uint32_t threads = p->max_threads != 0 ? p->max_threads : RTE_MAX_LCORE;
	struct rt_table *t;
	size_t qs;

	t = rte_zmalloc_socket("rt_table", sizeof(*t), RTE_CACHE_LINE_SIZE, p->socket);
	if (t == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	t->max_routes = p->max_routes != 0 ? p->max_routes : 4096;
	t->max_nh = p->max_nh != 0 ? p->max_nh : 1024;
	if (t->max_nh >= (1u << 24))
		goto einval; /* rte_lpm keeps 24 bits of next hop */
	t->routes =
		rte_zmalloc_socket("rt_routes", t->max_routes * sizeof(*t->routes), 0, p->socket);
	t->nh = rte_zmalloc_socket(
		"rt_nh", t->max_nh * sizeof(*t->nh), RTE_CACHE_LINE_SIZE, p->socket);
	qs = rte_rcu_qsbr_get_memsize(threads);
	t->qsbr = rte_zmalloc_socket("rt_qsbr", qs, RTE_CACHE_LINE_SIZE, p->socket);
	if (t->routes == NULL || t->nh == NULL || t->qsbr == NULL)
		goto enomem;
	if (rte_rcu_qsbr_init(t->qsbr, threads) != 0)
		goto einval;

	lc.max_rules = t->max_routes;
	lc.number_tbl8s = p->tbl8s != 0 ? p->tbl8s : 256;
	t->lpm = rte_lpm_create(p->name, p->socket, &lc);
	if (t->lpm == NULL)
		goto fail; /* rte_errno set */
	rc.v = t->qsbr;
	rc.mode = RTE_LPM_QSBR_MODE_DQ;
	if (rte_lpm_rcu_qsbr_add(t->lpm, &rc) != 0)
		goto fail;

	t->nh_local = nh_alloc(t, RT_NH_LOCAL, 0, 0);
	t->nh_blackhole = nh_alloc(t, RT_NH_BLACKHOLE, 0, 0);
	t->nh_reject = nh_alloc(t, RT_NH_REJECT, 0, 0);
	if (t->nh_reject == RT_NH_MISS)
		goto enomem;
	/* pinned: never retired */
	t->nh[t->nh_local].refcnt = t->nh[t->nh_blackhole].refcnt = t->nh[t->nh_reject].refcnt = 1;
	memset(t->nh_connected, 0xff, sizeof(t->nh_connected));
	t->default_nh = RT_NH_MISS;
	return t;

einval:
	rte_errno = EINVAL;
	goto fail;
enomem:
	rte_errno = ENOMEM;
fail:
	rt_table_free(t);
	return NULL;
}

void
rt_table_free(struct rt_table *t)
{
	int e = rte_errno;

	if (t == NULL)
		return;
	rte_lpm_free(t->lpm);
	rte_free(t->qsbr);
	rte_free(t->nh);
	rte_free(t->routes);
	pthread_mutex_destroy(&t->lock);
	rte_free(t);
	rte_errno = e;
}

int
rt_iface_enable(struct rt_table *t, uint16_t port, const struct rte_ether_addr *mac)
{
	struct rt_port *p;

	if (port >= RTE_MAX_ETHPORTS || mac == NULL)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	p = &t->ports[port];
	p->mac = *mac;
	p->mac_w = 0;
	memcpy(&p->mac_w, mac, RTE_ETHER_ADDR_LEN);
	if (p->mtu == 0)
		p->mtu = RT_MTU_DEFAULT;
	p->enabled = 1;
	pthread_mutex_unlock(&t->lock);
	return 0;
}

int
rt_iface_trust_rx_cksum(struct rt_table *t, uint16_t port, bool on)
{
	if (t == NULL || port >= RTE_MAX_ETHPORTS || !t->ports[port].enabled)
		return -EINVAL;
	__atomic_store_n(&t->ports[port].rx_cksum, on ? 1 : 0, __ATOMIC_RELAXED);
	return 0;
}

static int
set_addr_locked(
	struct rt_table *t, uint16_t port, uint32_t ip, uint8_t plen, char *err, size_t errlen)
{
	struct rt_port *p = &t->ports[port];
	uint32_t mask = rt_mask(plen), net = ip & mask, bcast = net | ~mask;
	char a[16], b[16];
	uint32_t nh;
	uint16_t q;
	int ret;

	if (!p->enabled) {
		snprintf(err, errlen, "port %u is not used by the router", port);
		return -EINVAL;
	}
	if (p->ip != 0) {
		snprintf(err, errlen, "port %u already has address %s/%u", port,
			rt_ip_str(p->ip, a), p->plen);
		return -EBUSY;
	}
	if (plen == 0 || plen > 32 || rt_ipv4_martian_src(ip)) {
		snprintf(err, errlen, "%s/%u is not a usable interface address", rt_ip_str(ip, a),
			plen);
		return -EINVAL;
	}
	if (rt_net_bcast_or_net(ip, plen)) {
		snprintf(err, errlen, "%s is the network or broadcast address of %s/%u",
			rt_ip_str(ip, a), rt_ip_str(net, b), plen);
		return -EINVAL;
	}
	for (q = 0; q < RTE_MAX_ETHPORTS; q++) {
		const struct rt_port *o = &t->ports[q];
		uint8_t l = RTE_MIN(plen, o->plen);

		if (q == port || o->ip == 0 || ((ip ^ o->ip) & rt_mask(l)) != 0)
			continue;
		snprintf(err, errlen, "%s/%u overlaps port %u's network %s/%u", rt_ip_str(ip, a),
			plen, q, rt_ip_str(o->ip & rt_mask(o->plen), b), o->plen);
		return -EINVAL;
	}
	if ((plen < 32 && route_find(t, net, plen) >= 0) || route_find(t, ip, 32) >= 0 ||
		(plen <= 30 && route_find(t, bcast, 32) >= 0)) {
		snprintf(err, errlen, "a route to %s/%u or to the address already exists",
			rt_ip_str(net, a), plen);
		return -EEXIST;
	}

	nh = nh_alloc(t, RT_NH_CONNECTED, port, 0);
	if (nh == RT_NH_MISS) {
		snprintf(err, errlen, "no free next hop");
		return -ENOSPC;
	}
	t->nh[nh].refcnt = 1; /* the port's own reference */
	t->nh_connected[port] = nh;
	ret = route_insert(t, ip, 32, RT_ROUTE_LOCAL, port, 0, t->nh_local);
	if (ret == 0 && plen < 32)
		ret = route_insert(t, net, plen, RT_ROUTE_CONNECTED, port, 0, nh);
	if (ret == 0 && plen <= 30)
		ret = route_insert(t, bcast, 32, RT_ROUTE_LOCAL, port, 0, t->nh_local);
	if (ret < 0) {
		snprintf(err, errlen, "route table full");
		return ret;
	}
	p->plen = plen;
	p->ip = ip;
	RT_LOG(INFO, "port %u: %s/%u mtu %u\n", port, rt_ip_str(ip, a), plen, p->mtu);
	return 0;
}

int
rt_iface_set_addr(
	struct rt_table *t, uint16_t port, uint32_t ip, uint8_t plen, char *err, size_t errlen)
{
	int ret;

	if (port >= RTE_MAX_ETHPORTS) {
		snprintf(err, errlen, "port %u out of range", port);
		return -EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	ret = set_addr_locked(t, port, ip, plen, err, errlen);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
rt_iface_set_mtu(struct rt_table *t, uint16_t port, uint32_t mtu, char *err, size_t errlen)
{
	uint32_t i;

	if (port >= RTE_MAX_ETHPORTS || !t->ports[port].enabled) {
		snprintf(err, errlen, "port %u is not used by the router", port);
		return -EINVAL;
	}
	if (mtu < RT_MTU_MIN || mtu > RT_MTU_MAX) {
		snprintf(err, errlen, "MTU %u out of range %u..%u", mtu, RT_MTU_MIN, RT_MTU_MAX);
		return -EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	__atomic_store_n(&t->ports[port].mtu, (uint16_t)mtu, __ATOMIC_RELAXED);
	/* and the copies the workers read */
	for (i = 0; i < t->max_nh; i++)
		if (t->nh[i].type != RT_NH_FREE && t->nh[i].port == port)
			__atomic_store_n(&t->nh[i].mtu, (uint16_t)mtu, __ATOMIC_RELAXED);
	rt_table_gen_bump(t);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

int
rt_iface_lookup_net(const struct rt_table *t, uint32_t ip)
{
	return lookup_net(t, ip);
}

bool
rt_iface_is_local(const struct rt_table *t, uint32_t ip)
{
	return is_local(t, ip);
}

bool
rt_iface_is_subnet_bcast(const struct rt_table *t, uint32_t ip)
{
	int net = lookup_net(t, ip);

	return net >= 0 && rt_net_bcast_or_net(ip, t->ports[net].plen);
}

/*
 * The one check of a gateway or a static neighbour (@p what names it in the
 * message): on a connected network (port @p port's if >= 0), and neither the
 * router's address nor the network's network or broadcast address.
 */
static int
check_neighbour(const struct rt_table *t, const char *what, uint32_t ip, int port, int *out_port,
	char *err, size_t errlen)
{
	int net = lookup_net(t, ip);
	const char *why;
	char a[16];

	why = net < 0 ? "not on any connected network"
		      : rt_neigh_addr_invalid(ip, t->ports[net].ip, t->ports[net].plen);
	if (why != NULL) {
		snprintf(err, errlen, "%s %s is %s", what, rt_ip_str(ip, a), why);
		return -EINVAL;
	}
	if (port >= 0 && net != port) {
		snprintf(err, errlen, "%s %s is on port %d's network, not port %d's", what,
			rt_ip_str(ip, a), net, port);
		return -EINVAL;
	}
	*out_port = net;
	return 0;
}

static int
route_add_locked(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind,
	uint32_t gw, int port, char *err, size_t errlen)
{
	char a[16], b[16];
	uint32_t nh;
	int idx, ret, out = port;

	if (plen > 32) {
		snprintf(err, errlen, "prefix length %u > 32", plen);
		return -EINVAL;
	}
	if ((prefix & ~rt_mask(plen)) != 0) {
		snprintf(err, errlen, "%s/%u has host bits set (did you mean %s/%u?)",
			rt_ip_str(prefix, a), plen, rt_ip_str(prefix & rt_mask(plen), b), plen);
		return -EINVAL;
	}
	idx = route_find(t, prefix, plen);
	if (idx >= 0 && t->routes[idx].kind != RT_ROUTE_NEIGH) {
		snprintf(err, errlen, "a route to %s/%u already exists%s", rt_ip_str(prefix, a),
			plen,
			t->routes[idx].kind == RT_ROUTE_CONNECTED ||
					t->routes[idx].kind == RT_ROUTE_LOCAL
				? " (the port's own network or address)"
				: "");
		return -EEXIST;
	}

	switch (kind) {
	case RT_ROUTE_VIA:
		ret = check_neighbour(t, "next hop", gw, port, &out, err, errlen);
		if (ret < 0)
			return ret;
		nh = neigh_find(t, gw);
		if (nh == RT_NH_MISS)
			nh = nh_alloc(t, RT_NH_GW, (uint16_t)out, gw);
		break;
	case RT_ROUTE_DEV:
		if (port < 0 || port >= RTE_MAX_ETHPORTS || t->ports[port].ip == 0) {
			snprintf(err, errlen, "port %d has no address to resolve neighbours with",
				port);
			return -EINVAL;
		}
		nh = t->nh_connected[port];
		break;
	case RT_ROUTE_BLACKHOLE:
		nh = t->nh_blackhole;
		out = 0;
		break;
	case RT_ROUTE_REJECT:
		nh = t->nh_reject;
		out = 0;
		break;
	default:
		snprintf(err, errlen, "not a static route kind");
		return -EINVAL;
	}
	if (nh == RT_NH_MISS) {
		snprintf(err, errlen, "no free next hop");
		return -ENOSPC;
	}
	/* a static /32 takes over from the neighbour route it shadows */
	if (idx >= 0)
		route_remove(t, (uint32_t)idx);
	ret = route_insert(t, prefix, plen, kind, (uint16_t)out, gw, nh);
	if (ret < 0) {
		if (t->nh[nh].refcnt == 0)
			t->nh[nh].type = RT_NH_FREE;
		snprintf(err, errlen, "route table full (%s)", rte_strerror(-ret));
		return ret;
	}
	return 0;
}

int
rt_route_add(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind,
	uint32_t gw, int port, char *err, size_t errlen)
{
	int ret;

	pthread_mutex_lock(&t->lock);
	ret = route_add_locked(t, prefix, plen, kind, gw, port, err, errlen);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
rt_route_del(struct rt_table *t, uint32_t prefix, uint8_t plen, char *err, size_t errlen)
{
	char a[16];
	uint32_t nh;
	int idx, ret = 0;

	pthread_mutex_lock(&t->lock);
	idx = route_find(t, prefix, plen);
	if (idx < 0) {
		snprintf(err, errlen, "no route to %s/%u", rt_ip_str(prefix, a), plen);
		ret = -ENOENT;
	} else if (t->routes[idx].kind == RT_ROUTE_CONNECTED ||
		   t->routes[idx].kind == RT_ROUTE_LOCAL || t->routes[idx].kind == RT_ROUTE_NEIGH) {
		snprintf(err, errlen, "%s/%u is not a static route", rt_ip_str(prefix, a), plen);
		ret = -EPERM;
	} else {
		route_remove(t, (uint32_t)idx);
		/* uncover the neighbour route a static /32 had replaced */
		nh = plen == 32 ? neigh_find(t, prefix) : RT_NH_MISS;
		if (nh != RT_NH_MISS && lookup_net(t, prefix) == t->nh[nh].port)
			route_insert(t, prefix, 32, RT_ROUTE_NEIGH, t->nh[nh].port, prefix, nh);
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

uint32_t
rt_route_lookup(const struct rt_table *t, uint32_t ip)
{
	uint32_t nh;

	return rte_lpm_lookup(t->lpm, ip, &nh) == 0
		       ? nh
		       : __atomic_load_n(&t->default_nh, __ATOMIC_ACQUIRE);
}

uint32_t
rt_route_list(struct rt_table *t, struct rt_route *out, uint32_t max)
{
	uint32_t n;

	pthread_mutex_lock(&t->lock);
	n = t->n_routes;
	memcpy(out, t->routes, RTE_MIN(n, max) * sizeof(*out));
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint32_t
rt_route_list_at(struct rt_table *t, uint32_t start, struct rt_route *out, uint32_t max)
{
	uint32_t n;

	pthread_mutex_lock(&t->lock);
	n = t->n_routes;
	if (start < n)
		memcpy(out, t->routes + start, RTE_MIN(n - start, max) * sizeof(*out));
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint32_t
rt_nh_neigh_get(struct rt_table *t, uint32_t ip, uint16_t port, bool host_route)
{
	uint32_t nh;

	pthread_mutex_lock(&t->lock);
	nh = neigh_find(t, ip);
	if (nh == RT_NH_MISS)
		nh = nh_alloc(t, RT_NH_GW, port, ip);
	if (nh != RT_NH_MISS) {
		nh_ref(t, nh);
		if (host_route && route_find(t, ip, 32) < 0)
			route_insert(t, ip, 32, RT_ROUTE_NEIGH, port, ip, nh);
	}
	pthread_mutex_unlock(&t->lock);
	return nh;
}

uint32_t
rt_nh_neigh_find(const struct rt_table *t, uint32_t ip)
{
	return neigh_find(t, ip);
}

void
rt_nh_neigh_put(struct rt_table *t, uint32_t nh)
{
	int idx;

	if (nh >= t->max_nh)
		return;
	pthread_mutex_lock(&t->lock);
	nh_unref(t, nh);
	/* only its own /32 keeps it: the neighbour is gone, so is the route */
	idx = route_find(t, t->nh[nh].ip, 32);
	if (t->nh[nh].refcnt == 1 && idx >= 0 && t->routes[idx].kind == RT_ROUTE_NEIGH &&
		t->routes[idx].nh == nh)
		route_remove(t, (uint32_t)idx);
	pthread_mutex_unlock(&t->lock);
}

void
rt_nh_set_mac(struct rt_table *t, uint32_t nh, const struct rte_ether_addr *mac)
{
	uint64_t w = 0;

	if (nh >= t->max_nh)
		return;
	if (mac != NULL) {
		memcpy(&w, mac, RTE_ETHER_ADDR_LEN);
		w |= RT_NH_F_VALID;
	}
	/* ARP refreshes republish the same MAC: only a change invalidates the flows */
	if (__atomic_exchange_n(&t->nh[nh].l2, w, __ATOMIC_ACQ_REL) != w)
		rt_table_gen_bump(t);
}

int
rt_neigh_static_add(
	struct rt_table *t, uint32_t ip, const struct rte_ether_addr *mac, char *err, size_t errlen)
{
	char a[16];
	uint32_t nh;
	int port, ret = 0;

	if (!rte_is_unicast_ether_addr(mac) || rte_is_zero_ether_addr(mac)) {
		snprintf(err, errlen, "neighbour MAC must be a unicast address");
		return -EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	ret = check_neighbour(t, "neighbour", ip, -1, &port, err, errlen);
	if (ret < 0)
		goto out;
	nh = neigh_find(t, ip);
	if (nh != RT_NH_MISS && t->nh[nh].is_static) {
		snprintf(err, errlen, "neighbour %s is already static", rt_ip_str(ip, a));
		ret = -EEXIST;
		goto out;
	}
	if (nh == RT_NH_MISS)
		nh = nh_alloc(t, RT_NH_GW, (uint16_t)port, ip);
	if (nh == RT_NH_MISS) {
		snprintf(err, errlen, "no free next hop");
		ret = -ENOSPC;
		goto out;
	}
	nh_ref(t, nh); /* the static entry's own: never returned */
	t->nh[nh].is_static = 1;
	if (route_find(t, ip, 32) < 0)
		route_insert(t, ip, 32, RT_ROUTE_NEIGH, (uint16_t)port, ip, nh);
	pthread_mutex_unlock(&t->lock);
	rt_nh_set_mac(t, nh, mac);
	return 0;
out:
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
rt_neigh_static_del(struct rt_table *t, uint32_t ip, char *err, size_t errlen)
{
	char a[16];
	uint32_t nh;

	pthread_mutex_lock(&t->lock);
	nh = neigh_find(t, ip);
	if (nh == RT_NH_MISS || !t->nh[nh].is_static) {
		pthread_mutex_unlock(&t->lock);
		snprintf(err, errlen, "%s is not a static neighbour", rt_ip_str(ip, a));
		return -ENOENT;
	}
	t->nh[nh].is_static = 0;
	pthread_mutex_unlock(&t->lock);
	/* unresolved from now on: the next packet to it asks ARP again */
	rt_nh_set_mac(t, nh, NULL);
	rt_nh_neigh_put(t, nh); /* the static entry's reference */
	return 0;
}
