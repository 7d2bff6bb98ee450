/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>

#include "rt_drop.h"
#include "rt_fib_ctl.h"
#include "rt_log.h"
#include "rt_rib.h"
#include "rt_table.h"
#include "rt_table_priv.h"

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

/* ---- next hops (lock held) ---- */

/* The key of an IPv6 neighbour in rt_table::neigh6_idx: a link-local address is one per link. */
static struct rt_neigh6_key
neigh6_key(const struct rt6_addr *ip6, uint16_t port)
{
	struct rt_neigh6_key k;

	memset(&k, 0, sizeof(k));
	k.ip = *ip6;
	k.port = port;
	return k;
}

/*
 * Fill slot @p i for its new use before any route points at it: an IPv4 next hop (@p ip6
 * NULL; @p ip the neighbour of RT_NH_GW) or an IPv6 one (the neighbour @p ip6).
 */
static uint32_t
nh_fill(struct rt_table *t, uint32_t i, enum rt_nh_type type, uint16_t port, uint32_t ip,
	const struct rt6_addr *ip6)
{
	struct rt_nh *nh = &t->nh[i];
	struct rt_nh_info *ni = &t->nh_info[i];
	const uint16_t etype = ip6 == NULL ? RTE_ETHER_TYPE_IPV4 : RTE_ETHER_TYPE_IPV6;
	int ret = 0;

	nh->l2 = 0;
	nh->port = port;
	nh->src_w = t->ports[port].mac_w | (uint64_t)rte_cpu_to_be_16(etype) << 48;
	nh->mtu = t->ports[port].mtu;
	memset(&ni->ip6, 0, sizeof(ni->ip6));
	if (ip6 == NULL)
		ni->ip = ip;
	else
		ni->ip6 = *ip6;
	ni->family = ip6 == NULL ? RT_NH_FAM_IP4 : RT_NH_FAM_IP6;
	ni->refcnt = 0;
	ni->retired = 0;
	ni->is_static = 0;
	__atomic_store_n(&nh->type, (uint8_t)type, __ATOMIC_RELEASE);
	if (type == RT_NH_GW && ip6 == NULL) {
		uint32_t key = ip;

		ret = rte_hash_add_key_data(t->neigh_idx, &key, (void *)(uintptr_t)i);
	} else if (type == RT_NH_GW) {
		const struct rt_neigh6_key k = neigh6_key(ip6, port);

		ret = rte_hash_add_key_data(t->neigh6_idx, &k, (void *)(uintptr_t)i);
	}
	if (ret < 0) {
		nh->type = RT_NH_FREE;
		t->nh_free[t->n_free++] = i;
		return RT_NH_MISS;
	}
	return i;
}

/* Take neighbour next hop @p i out of its family's index: the next user gets a fresh slot. */
static void
neigh_unindex(struct rt_table *t, uint32_t i)
{
	const struct rt_nh_info *ni = &t->nh_info[i];

	if (ni->family == RT_NH_FAM_IP6) {
		const struct rt_neigh6_key k = neigh6_key(&ni->ip6, t->nh[i].port);

		rte_hash_del_key(t->neigh6_idx, &k);
	} else {
		uint32_t key = ni->ip;

		rte_hash_del_key(t->neigh_idx, &key);
	}
}

/*
 * The oldest retired slot, once every reader has passed a quiescent state
 * since it was retired. When only young ones are left the writer (never a
 * worker) waits for the readers rather than fail: a burst of route changes
 * must not depend on how often the workers happened to run. A slot brought
 * back into use while queued is skipped.
 */
static uint32_t
nh_reclaim(struct rt_table *t)
{
	while (t->retq_n > 0) {
		uint32_t i = t->nh_retq[t->retq_head];
		const struct rt_nh_info *ni = &t->nh_info[i];

		if (ni->refcnt == 0 && ni->retired != 0 &&
			rte_rcu_qsbr_check(t->qsbr, ni->retired, false) != 1)
			rte_rcu_qsbr_synchronize(t->qsbr, RTE_QSBR_THRID_INVALID);
		t->retq_head = (t->retq_head + 1) % t->max_nh;
		t->retq_n--;
		t->nh_queued[i] = 0;
		if (ni->refcnt == 0 && ni->retired != 0)
			return i;
	}
	return RT_NH_MISS;
}

uint32_t
rt_nh_alloc_locked(struct rt_table *t, enum rt_nh_type type, uint16_t port, uint32_t ip)
{
	uint32_t i = t->n_free > 0 ? t->nh_free[--t->n_free] : nh_reclaim(t);

	if (i == RT_NH_MISS) {
		rte_errno = ENOSPC;
		return RT_NH_MISS;
	}
	i = nh_fill(t, i, type, port, ip, NULL);
	if (i == RT_NH_MISS)
		rte_errno = ENOSPC;
	return i;
}

uint32_t
rt_nh_alloc6_locked(
	struct rt_table *t, enum rt_nh_type type, uint16_t port, const struct rt6_addr *ip6)
{
	uint32_t i;

	if (t->neigh6_idx == NULL) {
		rte_errno = EINVAL; /* no IPv6 table (rt6_table_create()) */
		return RT_NH_MISS;
	}
	i = t->n_free > 0 ? t->nh_free[--t->n_free] : nh_reclaim(t);
	if (i == RT_NH_MISS) {
		rte_errno = ENOSPC;
		return RT_NH_MISS;
	}
	i = nh_fill(t, i, type, port, 0, ip6);
	if (i == RT_NH_MISS)
		rte_errno = ENOSPC;
	return i;
}

uint32_t
rt_neigh6_find_locked(const struct rt_table *t, const struct rt6_addr *ip6, uint16_t port)
{
	const struct rt_neigh6_key k = neigh6_key(ip6, port);
	void *data;

	if (t->neigh6_idx == NULL || rte_hash_lookup_data(t->neigh6_idx, &k, &data) < 0)
		return RT_NH_MISS;
	return (uint32_t)(uintptr_t)data;
}

void
rt_nh_free_unused_locked(struct rt_table *t, uint32_t i)
{
	struct rt_nh *nh = &t->nh[i];
	const struct rt_nh_info *ni = &t->nh_info[i];

	if (ni->refcnt != 0 || ni->retired != 0)
		return;
	if (nh->type == RT_NH_GW)
		neigh_unindex(t, i);
	nh->type = RT_NH_FREE;
	t->nh_free[t->n_free++] = i;
}

void
rt_nh_ref_locked(struct rt_table *t, uint32_t i)
{
	/* back in use before anything reused it: no longer retired */
	t->nh_info[i].refcnt++;
	t->nh_info[i].retired = 0;
}

/*
 * A next hop nothing refers to keeps its content (a worker may have looked it
 * up just before its last route went) and is reused only once every reader
 * has passed a quiescent state since. A neighbour leaves the index at once:
 * the next user of its address gets a fresh slot.
 */
void
rt_nh_unref_locked(struct rt_table *t, uint32_t i)
{
	const struct rt_nh *nh = &t->nh[i];
	struct rt_nh_info *ni = &t->nh_info[i];

	if (ni->refcnt == 0 || --ni->refcnt != 0)
		return;
	if (nh->type == RT_NH_GW)
		neigh_unindex(t, i);
	ni->retired = rte_rcu_qsbr_start(t->qsbr);
	if (!t->nh_queued[i]) {
		t->nh_retq[(t->retq_head + t->retq_n) % t->max_nh] = i;
		t->retq_n++;
		t->nh_queued[i] = 1;
	}
	/* ECMP hook: a group's members and active set go with it */
	if (nh->type == RT_NH_GROUP)
		rt_nhgroup_release_locked(t, i);
}

uint32_t
rt_neigh_find_locked(const struct rt_table *t, uint32_t ip)
{
	uint32_t key = ip;
	void *data;

	if (rte_hash_lookup_data(t->neigh_idx, &key, &data) < 0)
		return RT_NH_MISS;
	return (uint32_t)(uintptr_t)data;
}

/* ---- route records (lock held) ---- */

static bool
route_is_static(const struct rt_route *r)
{
	return r->kind == RT_ROUTE_VIA || r->kind == RT_ROUTE_DEV ||
	       r->kind == RT_ROUTE_BLACKHOLE || r->kind == RT_ROUTE_REJECT;
}

struct rt_route *
rt_route_find_locked(const struct rt_table *t, uint32_t prefix, uint8_t plen)
{
	return rt_rib_find(t->rib, prefix, plen);
}

int
rt_route_insert_locked(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind,
	uint16_t port, uint32_t gw, uint32_t nh)
{
	struct rt_route *r;
	int ret;

	if (rt_rib_count(t->rib) >= t->max_routes)
		return -ENOSPC;
	r = rt_rib_insert(t->rib, prefix, plen);
	if (r == NULL)
		return -rte_errno;
	/* the lookup has no /0: the default is what a miss returns */
	ret = plen == 0 ? 0 : rt_fib_add(t->fib, prefix, plen, nh);
	if (ret < 0) {
		rt_rib_remove(t->rib, prefix, plen);
		return ret;
	}
	rt_nh_ref_locked(t, nh);
	if (plen == 0)
		__atomic_store_n(&t->default_nh, nh, __ATOMIC_RELEASE);
	r->kind = (uint8_t)kind;
	r->port = port;
	r->gw = gw;
	r->nh = nh;
	/* only the writers' own routes carry their source; the rest are the router's */
	r->src = kind == RT_ROUTE_CONNECTED || kind == RT_ROUTE_LOCAL || kind == RT_ROUTE_NEIGH
			 ? RT_SRC_SYSTEM
			 : t->add_src;
	r->since = rt_table_now();
	t->n_kind[kind & 7]++;
	rt_table_gen_bump(t);
	return 0;
}

void
rt_route_remove_locked(struct rt_table *t, struct rt_route *victim)
{
	struct rt_route r = *victim;

	if (r.plen == 0) {
		__atomic_store_n(&t->default_nh, RT_NH_MISS, __ATOMIC_RELEASE);
	} else {
		/* the covering route takes over its entries (/0 is the miss value: none) */
		const struct rt_route *sub = rt_rib_parent(t->rib, r.prefix, r.plen);

		if (sub != NULL && sub->plen > 0)
			rt_fib_del(t->fib, r.prefix, r.plen, sub->nh, sub->plen);
		else
			rt_fib_del(t->fib, r.prefix, r.plen, 0, 0);
	}
	rt_rib_remove(t->rib, r.prefix, r.plen);
	t->n_kind[r.kind & 7]--;
	rt_nh_unref_locked(t, r.nh);
	rt_table_gen_bump(t);
}

/*
 * Replace static route @p r by (@p kind, @p port, @p gw, @p nh) in one step:
 * each lookup entry the route owns takes the new next hop with one store, so
 * a worker sees the old route or the new one, never the covering route nor
 * a miss between them (a delete then an add would show it either). The old
 * next hop is let go through the RCU path of rt_nh_unref_locked().
 */
static void
route_rewrite_locked(struct rt_table *t, struct rt_route *r, enum rt_route_kind kind, uint16_t port,
	uint32_t gw, uint32_t nh)
{
	const uint32_t old_nh = r->nh;

	rt_nh_ref_locked(t, nh);
	if (r->plen == 0)
		__atomic_store_n(&t->default_nh, nh, __ATOMIC_RELEASE);
	else
		/* the route exists, so its tbl8 group does: rewriting allocates nothing */
		RTE_VERIFY(rt_fib_add(t->fib, r->prefix, r->plen, nh) == 0);
	t->n_kind[r->kind & 7]--;
	t->n_kind[kind & 7]++;
	r->kind = (uint8_t)kind;
	r->port = port;
	r->gw = gw;
	r->nh = nh;
	r->src = t->add_src;
	r->since = rt_table_now();
	rt_nh_unref_locked(t, old_nh);
	rt_table_gen_bump(t);
}

/*
 * Why a writer of source @p writer may not change route @p r (another
 * source's, rt_route_src_may_change()): said naming the owner, and counted
 * when it is the operator's (a sync counts its own as not_ours).
 */
static int
not_owner_locked(struct rt_table *t, const struct rt_route *r, enum rt_route_src writer, char *err,
	size_t errlen)
{
	char a[16];

	if (rt_route_src_synced(r->src))
		snprintf(err, errlen,
			"%s/%u is a route of %s: only its sync changes it (it goes when the "
			"routing daemon withdraws it)",
			rt4_addr_str(r->prefix, a), r->plen, rt_route_src_name(r->src));
	else
		snprintf(err, errlen, "%s/%u is a route of %s, not of %s",
			rt4_addr_str(r->prefix, a), r->plen, rt_route_src_name(r->src),
			rt_route_src_name(writer));
	if (!rt_route_src_synced(writer))
		t->refused_synced++;
	return -EPERM;
}

/*
 * The checks on a prefix an add makes: its length, its host bits, and what
 * route it already has (@p *old: NULL, a neighbour route a static /32
 * shadows, or with @p replace a static route to rewrite).
 */
static int
prefix_check_locked(struct rt_table *t, uint32_t prefix, uint8_t plen, bool replace,
	struct rt_route **old, char *err, size_t errlen)
{
	char a[16], b[16];
	struct rt_route *r;

	if (plen > 32) {
		snprintf(err, errlen, "prefix length %u > 32", plen);
		return -EINVAL;
	}
	if ((prefix & ~rt4_mask(plen)) != 0) {
		snprintf(err, errlen, "%s/%u has host bits set (did you mean %s/%u?)",
			rt4_addr_str(prefix, a), plen, rt4_addr_str(prefix & rt4_mask(plen), b),
			plen);
		return -EINVAL;
	}
	r = rt_route_find_locked(t, prefix, plen);
	if (r != NULL && replace && route_is_static(r) &&
		!rt_route_src_may_change(t->add_src, r->src))
		return not_owner_locked(t, r, t->add_src, err, errlen);
	if (r != NULL && r->kind != RT_ROUTE_NEIGH && !(replace && route_is_static(r))) {
		snprintf(err, errlen, "a route to %s/%u already exists%s", rt4_addr_str(prefix, a),
			plen,
			r->kind == RT_ROUTE_CONNECTED || r->kind == RT_ROUTE_LOCAL
				? " (the port's own network or address)"
				: "");
		return -EEXIST;
	}
	*old = r;
	return 0;
}

/* Why a next hop could not be had: the limit, by its config name. */
void
rt_nh_full_err(const struct rt_table *t, char *err, size_t errlen)
{
	snprintf(err, errlen, "no free next hop (max-next-hops %u)", t->max_nh);
}

/* Why rt_route_insert_locked() failed with @p ret: the limit reached, by its config name. */
void
rt_route_insert_err(const struct rt_table *t, int ret, char *err, size_t errlen)
{
	if (ret == -ENOSPC && rt_rib_count(t->rib) >= t->max_routes)
		snprintf(err, errlen, "route table full (max-routes %u)", t->max_routes);
	else if (ret == -ENOSPC)
		snprintf(err, errlen,
			"no free lookup group for a route longer than /24 (tbl8-groups %u)",
			t->tbl8s);
	else
		snprintf(err, errlen, "route not added: %s", rte_strerror(-ret));
}

/* ---- the table ---- */

struct rt_table *
rt_table_create(const struct rt_table_params *p)
{
	uint32_t threads = p->max_threads != 0 ? p->max_threads : RTE_MAX_LCORE;
	char hname[RTE_HASH_NAMESIZE];
	struct rt_table *t;
	uint32_t i;
	size_t qs;

	t = rte_zmalloc_socket("rt_table", sizeof(*t), RTE_CACHE_LINE_SIZE, p->socket);
	if (t == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	pthread_mutex_init(&t->lock, NULL);
	t->add_src = RT_SRC_CONFIG;
	t->max_routes = p->max_routes != 0 ? p->max_routes : RT_DEFAULT_MAX_ROUTES;
	t->max_nh = p->max_nh != 0 ? p->max_nh : RT_DEFAULT_MAX_NH;
	t->tbl8s = p->tbl8s != 0 ? p->tbl8s : RT_DEFAULT_TBL8S;
	if (t->max_nh >= (1u << 24) || t->max_nh < 4)
		goto einval; /* 24 bits of next hop in a lookup entry; the specials need a few */
	t->rib = rt_rib_create();
	t->nh_free = malloc(t->max_nh * sizeof(*t->nh_free));
	t->nh_retq = malloc(t->max_nh * sizeof(*t->nh_retq));
	t->nh_queued = calloc(t->max_nh, sizeof(*t->nh_queued));
	t->nh = rte_zmalloc_socket(
		"rt_nh", t->max_nh * sizeof(*t->nh), RTE_CACHE_LINE_SIZE, p->socket);
	t->nh_info = calloc(t->max_nh, sizeof(*t->nh_info));
	qs = rte_rcu_qsbr_get_memsize(threads);
	t->qsbr = rte_zmalloc_socket("rt_qsbr", qs, RTE_CACHE_LINE_SIZE, p->socket);
	if (t->rib == NULL || t->nh_free == NULL || t->nh_retq == NULL || t->nh_queued == NULL ||
		t->nh == NULL || t->nh_info == NULL || t->qsbr == NULL)
		goto enomem;
	if (rte_rcu_qsbr_init(t->qsbr, threads) != 0)
		goto einval;
	/* slot 0 on top: the specials get the first slots, as they always did */
	for (i = 0; i < t->max_nh; i++)
		t->nh_free[i] = t->max_nh - 1 - i;
	t->n_free = t->max_nh;
	snprintf(hname, sizeof(hname), "%.24s_nb", p->name);
	t->neigh_idx = rte_hash_create(&(struct rte_hash_parameters){
		.name = hname,
		.entries = RTE_MAX(t->max_nh, 8u),
		.key_len = sizeof(uint32_t),
		.hash_func = rte_hash_crc,
		.socket_id = p->socket,
	});
	if (t->neigh_idx == NULL)
		goto fail; /* rte_errno set */

	t->fib = rt_fib_create(p->name, p->socket, t->tbl8s, t->qsbr);
	if (t->fib == NULL)
		goto fail; /* rte_errno set */

	t->nh_local = rt_nh_alloc_locked(t, RT_NH_LOCAL, 0, 0);
	t->nh_blackhole = rt_nh_alloc_locked(t, RT_NH_BLACKHOLE, 0, 0);
	t->nh_reject = rt_nh_alloc_locked(t, RT_NH_REJECT, 0, 0);
	if (t->nh_reject == RT_NH_MISS)
		goto enomem;
	/* pinned: never retired */
	t->nh_info[t->nh_local].refcnt = t->nh_info[t->nh_blackhole].refcnt =
		t->nh_info[t->nh_reject].refcnt = 1;
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
	rt_nhgroup_free(t); /* ECMP hook */
	rt_fib_free(t->fib);
	rte_hash_free(t->neigh_idx);
	rte_hash_free(t->neigh6_idx);
	rte_free(t->qsbr);
	rte_free(t->nh);
	free(t->nh_info);
	free(t->nh_queued);
	free(t->nh_retq);
	free(t->nh_free);
	rt_rib_free(t->rib);
	pthread_mutex_destroy(&t->lock);
	rte_free(t);
	rte_errno = e;
}

static int
route_add_locked(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind,
	uint32_t gw, int port, bool replace, char *err, size_t errlen)
{
	uint32_t nh;
	struct rt_route *old = NULL;
	int ret, out = port;

	ret = prefix_check_locked(t, prefix, plen, replace, &old, err, errlen);
	if (ret < 0)
		return ret;

	switch (kind) {
	case RT_ROUTE_VIA:
		ret = rt_gw_check_locked(t, "next hop", gw, port, &out, err, errlen);
		if (ret < 0)
			return ret;
		nh = rt_neigh_find_locked(t, gw);
		if (nh == RT_NH_MISS)
			nh = rt_nh_alloc_locked(t, RT_NH_GW, (uint16_t)out, gw);
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
		rt_nh_full_err(t, err, errlen);
		return -ENOSPC;
	}
	if (old != NULL && old->kind != RT_ROUTE_NEIGH) {
		route_rewrite_locked(t, old, kind, (uint16_t)out, gw, nh);
		return 0;
	}
	/* a static /32 takes over from the neighbour route it shadows */
	if (old != NULL)
		rt_route_remove_locked(t, old);
	ret = rt_route_insert_locked(t, prefix, plen, kind, (uint16_t)out, gw, nh);
	if (ret < 0) {
		rt_nh_free_unused_locked(t, nh);
		rt_route_insert_err(t, ret, err, errlen);
		return ret;
	}
	return 0;
}

const char *
rt_route_src_name(enum rt_route_src src)
{
	static const char *const names[] = {
#define RT_SRC_NAME(n, s) [RT_SRC_##n] = s,
		RT_SRC_TABLE(RT_SRC_NAME)
#undef RT_SRC_NAME
	};

	return (unsigned int)src < RTE_DIM(names) ? names[src] : "?";
}

uint32_t
rt_table_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)ts.tv_sec;
}

/* Remove static route @p r, uncovering the neighbour route a static /32 had replaced. */
static void
static_remove(struct rt_table *t, struct rt_route *r)
{
	const uint32_t prefix = r->prefix;
	const uint8_t plen = r->plen;
	uint32_t nh;

	rt_route_remove_locked(t, r);
	nh = plen == 32 ? rt_neigh_find_locked(t, prefix) : RT_NH_MISS;
	if (nh != RT_NH_MISS && rt_iface_lookup_net(t, prefix) == t->nh[nh].port)
		rt_route_insert_locked(t, prefix, 32, RT_ROUTE_NEIGH, t->nh[nh].port, prefix, nh);
}

/*
 * ECMP hook: the checks of route_add_locked() on the prefix, then the group
 * of the hops (rt_nhgroup.c) as the route's next hop.
 */
static int
route_add_multi_locked(struct rt_table *t, uint32_t prefix, uint8_t plen, const struct rt_hop *hops,
	unsigned int n_hops, bool replace, char *err, size_t errlen)
{
	struct rt_route *old = NULL;
	uint32_t nh, gw0;
	uint16_t port0;
	int ret;

	ret = prefix_check_locked(t, prefix, plen, replace, &old, err, errlen);
	if (ret < 0)
		return ret;
	nh = rt_nhgroup_get_locked(t, hops, n_hops, &port0, &gw0, err, errlen);
	if (nh == RT_NH_MISS)
		return -rte_errno;
	if (old != NULL && old->kind != RT_ROUTE_NEIGH) {
		route_rewrite_locked(t, old, RT_ROUTE_VIA, port0, gw0, nh);
		return 0;
	}
	if (old != NULL)
		rt_route_remove_locked(t, old);
	ret = rt_route_insert_locked(t, prefix, plen, RT_ROUTE_VIA, port0, gw0, nh);
	if (ret < 0) {
		if (t->nh_info[nh].refcnt == 0)
			rt_nhgroup_release_locked(t, nh);
		snprintf(err, errlen, "route table full (%s)", rte_strerror(-ret));
		return ret;
	}
	return 0;
}

/*
 * A request names its owner: a writer's source, not the router's own
 * (RT_SRC_SYSTEM, the zero a request left unset would carry: its routes
 * come from ports and neighbours, never from a request).
 */
static int
req_src_check(const struct rt4_route_req *req, char *err, size_t errlen)
{
	if (req->src == RT_SRC_SYSTEM || (unsigned int)req->src >= RT_SRC_MAX) {
		snprintf(err, errlen, "route source %s (%u) may not write routes",
			rt_route_src_name(req->src), (unsigned int)req->src);
		return -EINVAL;
	}
	return 0;
}

/* The owner, and the hops @p req's kind takes: VIA 1..RT_ECMP_MAX, DEV 1, the others none. */
static int
req_check(const struct rt4_route_req *req, char *err, size_t errlen)
{
	if (req->kind == RT_ROUTE_VIA && (req->n_hops == 0 || req->n_hops > RT_ECMP_MAX)) {
		snprintf(err, errlen, "%u next hops: a route has 1 to %u (RT_ECMP_MAX)",
			req->n_hops, RT_ECMP_MAX);
		return -EINVAL;
	}
	if (req->kind == RT_ROUTE_DEV && req->n_hops != 1) {
		snprintf(err, errlen, "%u next hops: an on-link route has one, its port",
			req->n_hops);
		return -EINVAL;
	}
	return req_src_check(req, err, errlen);
}

int
rt4_route_set(struct rt_table *t, const struct rt4_route_req *req, char *err, size_t errlen)
{
	const bool replace = (req->flags & RT_ROUTE_F_REPLACE) != 0;
	const bool multi = req->kind == RT_ROUTE_VIA && req->n_hops > 1;
	/* DEV: its port; VIA: its one gateway, on its port or found from it */
	const uint32_t gw = req->kind == RT_ROUTE_VIA ? req->hop[0].gw : 0;
	const int port =
		req->kind == RT_ROUTE_VIA || req->kind == RT_ROUTE_DEV ? req->hop[0].port : -1;
	int ret;

	ret = req_check(req, err, errlen);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&t->lock);
	t->add_src = req->src;
	if (multi)
		ret = route_add_multi_locked(
			t, req->prefix, req->plen, req->hop, req->n_hops, replace, err, errlen);
	else
		ret = route_add_locked(
			t, req->prefix, req->plen, req->kind, gw, port, replace, err, errlen);
	t->add_src = RT_SRC_CONFIG;
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
rt4_route_del(struct rt_table *t, const struct rt4_route_req *req, char *err, size_t errlen)
{
	const uint32_t prefix = req->prefix;
	const uint8_t plen = req->plen;
	char a[RT4_ADDR_STRLEN];
	struct rt_route *r;
	int ret;

	ret = req_src_check(req, err, errlen);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&t->lock);
	r = rt_route_find_locked(t, prefix, plen);
	if (r == NULL) {
		snprintf(err, errlen, "no route to %s/%u", rt4_addr_str(prefix, a), plen);
		ret = -ENOENT;
	} else if (!route_is_static(r)) {
		snprintf(err, errlen, "%s/%u is not a static route", rt4_addr_str(prefix, a), plen);
		ret = -EPERM;
	} else if (!rt_route_src_may_change(req->src, r->src)) {
		/* checked under the lock: another writer cannot slip its route in between */
		ret = not_owner_locked(t, r, req->src, err, errlen);
	} else {
		static_remove(t, r);
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

uint32_t
rt_route_flush(struct rt_table *t, struct rt_route_flush_counts *c)
{
	struct rt_route page[256];
	uint32_t n = 0, start = 0, got, i;

	if (c != NULL)
		memset(c, 0, sizeof(*c));
	pthread_mutex_lock(&t->lock);
	/*
	 * In pages, in order; what stays (connected, local, neighbours, and the
	 * syncs' routes: only their sync changes them) is stepped over.
	 */
	do {
		got = rt_rib_list(t->rib, 0, 0, start, page, RTE_DIM(page));
		for (i = 0; i < got; i++) {
			struct rt_route *r = rt_route_find_locked(t, page[i].prefix, page[i].plen);

			if (r == NULL || !route_is_static(r) || rt_route_src_synced(r->src)) {
				if (c != NULL && r != NULL && route_is_static(r))
					c->kept[r->src % RT_SRC_MAX]++;
				start++;
				continue;
			}
			if (c != NULL)
				c->flushed[r->src % RT_SRC_MAX]++;
			/* a /32 may uncover its neighbour route: counted in start next page */
			static_remove(t, r);
			if (rt_route_find_locked(t, page[i].prefix, page[i].plen) != NULL)
				start++;
			n++;
		}
	} while (got == RTE_DIM(page));
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint32_t
rt_route_lookup(const struct rt_table *t, uint32_t ip)
{
	uint32_t nh;

	nh = rt_fib_lookup(t->fib, ip, RT_NH_MISS);
	return nh != RT_NH_MISS ? nh : __atomic_load_n(&t->default_nh, __ATOMIC_ACQUIRE);
}

uint32_t
rt_route_list(struct rt_table *t, struct rt_route *out, uint32_t max)
{
	return rt_route_list_at(t, 0, out, max);
}

uint32_t
rt_route_list_at(struct rt_table *t, uint32_t start, struct rt_route *out, uint32_t max)
{
	uint32_t n;

	pthread_mutex_lock(&t->lock);
	n = rt_rib_count(t->rib);
	rt_rib_list(t->rib, 0, 0, start, out, max);
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint32_t
rt_route_list_within(struct rt_table *t, uint32_t prefix, uint8_t plen, uint32_t start,
	struct rt_route *out, uint32_t max)
{
	uint32_t n;

	pthread_mutex_lock(&t->lock);
	n = rt_rib_count_within(t->rib, prefix, plen);
	rt_rib_list(t->rib, prefix, plen, start, out, max);
	pthread_mutex_unlock(&t->lock);
	return n;
}

/*
 * The longest route covering @p ip. The lookup table already knows it: its
 * entry for @p ip records the matched route's length, so the route is one
 * exact find (the RIB's hash) instead of the trie's walk of up to 33 nodes,
 * which on a full table is a cache miss a node (docs/benchmarks-route.md,
 * "Control path against the table's size"). Both are written under the
 * table's lock, which the caller holds, so they agree; the walk remains as
 * the answer if they ever did not.
 */
static const struct rt_route *
route_match_locked(const struct rt_table *t, uint32_t ip)
{
	uint32_t e = rt_fib_tbl24_entry(t->fib, ip);
	const struct rt_route *r;
	uint8_t depth;

	if (e & RT_FIB_EXT)
		e = rt_fib_tbl8_entry(t->fib, e, ip);
	depth = (e & RT_FIB_VALID) ? (uint8_t)RT_FIB_DEPTH(e) : 0; /* no entry: the default, /0 */
	r = rt_rib_find(t->rib, ip & rt4_mask(depth), depth);
	return r != NULL || depth == 0 ? r : rt_rib_match(t->rib, ip);
}

int
rt_route_get(struct rt_table *t, uint32_t prefix, uint8_t plen, bool exact, struct rt_route *out)
{
	const struct rt_route *r;

	pthread_mutex_lock(&t->lock);
	r = exact ? rt_rib_find(t->rib, prefix, plen) : route_match_locked(t, prefix);
	if (r != NULL)
		*out = *r;
	pthread_mutex_unlock(&t->lock);
	return r != NULL ? 0 : -ENOENT;
}

void
rt_route_summary_get(struct rt_table *t, struct rt_route_summary *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	pthread_mutex_lock(&t->lock);
	s->routes = rt_rib_count(t->rib);
	s->max_routes = t->max_routes;
	for (i = 0; i <= 32; i++)
		s->by_plen[i] = rt_rib_count_plen(t->rib, (uint8_t)i);
	memcpy(s->by_kind, t->n_kind, sizeof(s->by_kind));
	s->nh_max = t->max_nh;
	/* a retired slot (no user, waiting for the readers) is free to the next add */
	for (i = 0; i < t->retq_n; i++) {
		const struct rt_nh_info *ni =
			&t->nh_info[t->nh_retq[(t->retq_head + i) % t->max_nh]];

		if (ni->refcnt == 0 && ni->retired != 0)
			s->nh_retiring++;
	}
	s->nh_used = t->max_nh - t->n_free - s->nh_retiring;
	s->neighbours = rte_hash_count(t->neigh_idx);
	s->tbl8_max = t->tbl8s;
	s->tbl8_used = rt_fib_tbl8_used(t->fib);
	s->mem_lookup = rt_fib_memory(t->fib);
	s->mem_nh = (uint64_t)t->max_nh * sizeof(struct rt_nh);
	/* the next hops' control part, free and retire lists */
	s->mem_records =
		rt_rib_memory(t->rib) +
		(uint64_t)t->max_nh * (sizeof(struct rt_nh_info) + 2 * sizeof(uint32_t) + 1);
	s->refused_synced = t->refused_synced;
	pthread_mutex_unlock(&t->lock);
}

uint32_t
rt_nh_neigh_get(struct rt_table *t, uint32_t ip, uint16_t port, bool host_route)
{
	uint32_t nh;

	pthread_mutex_lock(&t->lock);
	nh = rt_neigh_find_locked(t, ip);
	if (nh == RT_NH_MISS)
		nh = rt_nh_alloc_locked(t, RT_NH_GW, port, ip);
	if (nh != RT_NH_MISS) {
		rt_nh_ref_locked(t, nh);
		if (host_route && rt_route_find_locked(t, ip, 32) == NULL)
			rt_route_insert_locked(t, ip, 32, RT_ROUTE_NEIGH, port, ip, nh);
	}
	pthread_mutex_unlock(&t->lock);
	return nh;
}

uint32_t
rt_nh_neigh_find(struct rt_table *t, uint32_t ip)
{
	uint32_t nh;

	pthread_mutex_lock(&t->lock);
	nh = rt_neigh_find_locked(t, ip);
	pthread_mutex_unlock(&t->lock);
	return nh;
}

void
rt_nh_neigh_put(struct rt_table *t, uint32_t nh)
{
	struct rt_route *r;

	if (nh >= t->max_nh)
		return;
	pthread_mutex_lock(&t->lock);
	rt_nh_unref_locked(t, nh);
	/* only its own /32 keeps it: the neighbour is gone, so is the route */
	r = rt_route_find_locked(t, t->nh_info[nh].ip, 32);
	if (t->nh_info[nh].refcnt == 1 && r != NULL && r->kind == RT_ROUTE_NEIGH && r->nh == nh)
		rt_route_remove_locked(t, r);
	pthread_mutex_unlock(&t->lock);
}

void
rt_nh_set_mac(struct rt_table *t, uint32_t nh, const struct rte_ether_addr *mac)
{
	uint64_t w = 0, old;

	if (nh >= t->max_nh)
		return;
	if (mac != NULL) {
		memcpy(&w, mac, RTE_ETHER_ADDR_LEN);
		w |= RT_NH_F_VALID;
	}
	/* ARP refreshes republish the same MAC: only a change invalidates the flows */
	old = __atomic_exchange_n(&t->nh[nh].l2, w, __ATOMIC_ACQ_REL);
	if (old == w)
		return;
	/* ECMP hook: resolved or lost, the member joins or leaves its groups' sets */
	if ((old ^ w) & RT_NH_F_VALID)
		rt_nhgroup_neigh_changed(t, nh);
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
	ret = rt_gw_check_locked(t, "neighbour", ip, -1, &port, err, errlen);
	if (ret < 0)
		goto out;
	nh = rt_neigh_find_locked(t, ip);
	if (nh != RT_NH_MISS && t->nh_info[nh].is_static) {
		snprintf(err, errlen, "neighbour %s is already static", rt4_addr_str(ip, a));
		ret = -EEXIST;
		goto out;
	}
	if (nh == RT_NH_MISS)
		nh = rt_nh_alloc_locked(t, RT_NH_GW, (uint16_t)port, ip);
	if (nh == RT_NH_MISS) {
		rt_nh_full_err(t, err, errlen);
		ret = -ENOSPC;
		goto out;
	}
	rt_nh_ref_locked(t, nh); /* the static entry's own: never returned */
	t->nh_info[nh].is_static = 1;
	if (rt_route_find_locked(t, ip, 32) == NULL)
		rt_route_insert_locked(t, ip, 32, RT_ROUTE_NEIGH, (uint16_t)port, ip, nh);
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
	nh = rt_neigh_find_locked(t, ip);
	if (nh == RT_NH_MISS || !t->nh_info[nh].is_static) {
		pthread_mutex_unlock(&t->lock);
		snprintf(err, errlen, "%s is not a static neighbour", rt4_addr_str(ip, a));
		return -ENOENT;
	}
	t->nh_info[nh].is_static = 0;
	pthread_mutex_unlock(&t->lock);
	/* unresolved from now on: the next packet to it asks ARP again */
	rt_nh_set_mac(t, nh, NULL);
	rt_nh_neigh_put(t, nh); /* the static entry's reference */
	return 0;
}
