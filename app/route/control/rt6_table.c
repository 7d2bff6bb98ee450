/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lpm6.h>
#include <rte_malloc.h>

#include "dpdk_compat.h"
#include "rt6_fib.h"
#include "rt6_table.h"
#include "rt_nhgroup.h"
#include "rt_table_priv.h"

/* The key of a route record: the whole key is hashed, so the padding is zero. */
struct rt6_rib_key {
	struct rt6_addr prefix;
	uint8_t plen;
	uint8_t pad[3];
};

static struct rt6_rib_key
rib_key(const struct rt6_addr *prefix, uint8_t plen)
{
	struct rt6_rib_key k;

	memset(&k, 0, sizeof(k));
	k.prefix = *prefix;
	k.plen = plen;
	return k;
}

/* The record of @p prefix/@p plen, or NULL. */
static struct rt6_route *
rib_find(const struct rt6_table *t6, const struct rt6_addr *prefix, uint8_t plen)
{
	const struct rt6_rib_key k = rib_key(prefix, plen);
	const int32_t pos = rte_hash_lookup(t6->rib, &k);

	return pos < 0 ? NULL : &t6->routes[pos];
}

struct rt6_table *
rt6_table_create(struct rt_table *t, const struct rt6_table_params *p)
{
	struct rt6_table *t6;
	char name[RTE_HASH_NAMESIZE];
	uint32_t tbl8s, n_idx;

	if (t == NULL || p == NULL || p->name == NULL || t->neigh6_idx != NULL ||
		t->max_nh > RT6_FIB_NH_MAX) {
		rte_errno = EINVAL;
		return NULL;
	}
	t6 = calloc(1, sizeof(*t6));
	if (t6 == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	t6->t = t;
	t6->default_nh = RT_NH_MISS;
	t6->max_routes = p->max_routes != 0 ? p->max_routes : RT6_DEFAULT_MAX_ROUTES;
	/* rte_hash wants 8 entries at least; the table stops at max_routes itself */
	n_idx = RTE_MAX(t6->max_routes, 8u);
	tbl8s = p->tbl8s != 0 ? p->tbl8s : RT6_DEFAULT_TBL8S;
	memset(t6->nh_connected, 0xff, sizeof(t6->nh_connected));

	snprintf(name, sizeof(name), "%.20s_r6", p->name);
	/* the extendable buckets: an insert never fails below max_routes */
	t6->rib = rte_hash_create(&(struct rte_hash_parameters){
		.name = name,
		.entries = n_idx,
		.key_len = sizeof(struct rt6_rib_key),
		.hash_func = rte_hash_crc,
		.socket_id = p->socket,
		.extra_flag = RTE_HASH_EXTRA_FLAGS_EXT_TABLE,
	});
	/* a key's position is below the index's entries */
	t6->routes = calloc(n_idx, sizeof(*t6->routes));
	snprintf(name, sizeof(name), "%.20s_n6", p->name);
	t->neigh6_idx = rte_hash_create(&(struct rte_hash_parameters){
		.name = name,
		.entries = RTE_MAX(t->max_nh, 8u),
		.key_len = sizeof(struct rt_neigh6_key),
		.hash_func = rte_hash_crc,
		.socket_id = p->socket,
	});
	snprintf(name, sizeof(name), "%.20s_l6", p->name);
	t6->lpm = rte_lpm6_create(name, p->socket,
		&(struct rte_lpm6_config){.max_rules = n_idx, .number_tbl8s = tbl8s});
	if (t6->rib == NULL || t6->routes == NULL || t->neigh6_idx == NULL || t6->lpm == NULL) {
		if (t6->routes == NULL)
			rte_errno = ENOMEM;
		rt6_table_free(t6);
		return NULL;
	}
	return t6;
}

void
rt6_table_free(struct rt6_table *t6)
{
	const int e = rte_errno;
	struct rt_table *t;
	const void *key;
	uint32_t it = 0, p;
	void *data;
	int32_t pos;

	if (t6 == NULL)
		return;
	t = t6->t;
	pthread_mutex_lock(&t->lock);
	while (t6->rib != NULL && (pos = rte_hash_iterate(t6->rib, &key, &data, &it)) >= 0)
		rt_nh_unref_locked(t, t6->routes[pos].nh);
	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (t6->nh_connected[p] != RT_NH_MISS)
			rt_nh_unref_locked(t, t6->nh_connected[p]);
	rte_hash_free(t->neigh6_idx);
	t->neigh6_idx = NULL;
	pthread_mutex_unlock(&t->lock);
	rte_lpm6_free(t6->lpm);
	rte_hash_free(t6->rib);
	free(t6->routes);
	free(t6);
	rte_errno = e;
}

/* Why @p gw may not be a gateway, or NULL. */
static const char *
gw_invalid(const struct rt6_addr *gw)
{
	if (rt6_addr_is_unspec(gw))
		return "the unspecified address";
	if (rt6_addr_is_loopback(gw))
		return "the loopback address";
	if (rt6_addr_is_mcast(gw))
		return "a multicast address";
	if (rt6_addr_is_v4mapped(gw))
		return "an IPv4-mapped address";
	return NULL;
}

/* The request's checks that need no table: -EINVAL with @p err set, or 0. */
static int
req_check(const struct rt6_table *t6, const struct rt6_route_req *req, char *err, size_t errlen)
{
	char a[RT6_PREFIX_STRLEN];
	unsigned int i, j;
	const char *why;

	if (req->plen > 128) {
		snprintf(err, errlen, "prefix length %u: IPv6 has 0 to 128", req->plen);
		return -EINVAL;
	}
	if (rt6_addr_has_host_bits(&req->prefix, req->plen)) {
		snprintf(err, errlen, "%s has host bits set",
			rt6_prefix_str(&req->prefix, req->plen, a));
		return -EINVAL;
	}
	if ((unsigned int)req->src >= RT_SRC_MAX) {
		snprintf(err, errlen, "unknown route source %d", (int)req->src);
		return -EINVAL;
	}
	switch (req->kind) {
	case RT_ROUTE_VIA:
		if (req->n_hops < 1 || req->n_hops > RT_ECMP_MAX) {
			snprintf(err, errlen, "%u next hops: a route has 1 to %u", req->n_hops,
				RT_ECMP_MAX);
			return -EINVAL;
		}
		break;
	case RT_ROUTE_DEV:
		if (req->n_hops != 1) {
			snprintf(err, errlen, "an on-link route has one port");
			return -EINVAL;
		}
		break;
	case RT_ROUTE_BLACKHOLE:
	case RT_ROUTE_REJECT:
		if (req->n_hops != 0) {
			snprintf(err, errlen, "a blackhole or reject route has no next hop");
			return -EINVAL;
		}
		return 0;
	default:
		snprintf(err, errlen, "route kind %d cannot be set", (int)req->kind);
		return -EINVAL;
	}
	for (i = 0; i < req->n_hops; i++) {
		const struct rt6_hop *h = &req->hop[i];

		if (h->port < 0 || h->port >= RTE_MAX_ETHPORTS || !t6->t->ports[h->port].enabled) {
			snprintf(err, errlen, "next hop %u: port %d is not one of the router's", i,
				h->port);
			return -EINVAL;
		}
		if (req->kind == RT_ROUTE_DEV)
			break;
		why = gw_invalid(&h->gw);
		if (why != NULL) {
			snprintf(err, errlen, "next hop %s: %s", rt6_addr_str(&h->gw, a), why);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (rt6_addr_eq(&req->hop[j].gw, &h->gw) && req->hop[j].port == h->port) {
				snprintf(err, errlen, "next hop %s given twice",
					rt6_addr_str(&h->gw, a));
				return -EINVAL;
			}
	}
	return 0;
}

/* The neighbour next hop of @p h (found or made: @p fresh says which), or RT_NH_MISS. */
static uint32_t
neigh_get(struct rt_table *t, const struct rt6_hop *h, bool *fresh)
{
	uint32_t nh = rt_neigh6_find_locked(t, &h->gw, (uint16_t)h->port);

	*fresh = nh == RT_NH_MISS;
	if (nh == RT_NH_MISS)
		nh = rt_nh_alloc6_locked(t, RT_NH_GW, (uint16_t)h->port, &h->gw);
	return nh;
}

/* (gateway, port) order: the same set of hops in any order is one group */
static int
hop_cmp(const void *a, const void *b)
{
	const struct rt6_hop *x = a, *y = b;
	const int c = rt6_addr_cmp(&x->gw, &y->gw);

	return c != 0 ? c : x->port - y->port;
}

/*
 * The next hop @p req's route points at, no reference taken yet; its first hop's port in
 * @p port. RT_NH_MISS with @p err set when there is none to be had.
 */
static uint32_t
req_nh(struct rt6_table *t6, const struct rt6_route_req *req, uint16_t *port, char *err,
	size_t errlen)
{
	struct rt_table *t = t6->t;
	struct rt6_hop hops[RT_ECMP_MAX];
	uint32_t member[RT_ECMP_MAX], nh;
	bool fresh[RT_ECMP_MAX];
	unsigned int i;

	*port = req->n_hops > 0 ? (uint16_t)req->hop[0].port : 0;
	switch (req->kind) {
	case RT_ROUTE_BLACKHOLE:
		return t->nh_blackhole;
	case RT_ROUTE_REJECT:
		return t->nh_reject;
	case RT_ROUTE_DEV:
		nh = t6->nh_connected[*port];
		if (nh == RT_NH_MISS) {
			nh = rt_nh_alloc6_locked(
				t, RT_NH_CONNECTED, *port, &(struct rt6_addr){{0}});
			if (nh != RT_NH_MISS) {
				rt_nh_ref_locked(t, nh); /* the port's own, dropped at free */
				t6->nh_connected[*port] = nh;
			}
		}
		break;
	default:
		if (req->n_hops == 1) {
			nh = neigh_get(t, &req->hop[0], &fresh[0]);
			break;
		}
		memcpy(hops, req->hop, req->n_hops * sizeof(hops[0]));
		qsort(hops, req->n_hops, sizeof(hops[0]), hop_cmp);
		for (i = 0; i < req->n_hops; i++) {
			member[i] = neigh_get(t, &hops[i], &fresh[i]);
			if (member[i] == RT_NH_MISS) {
				/* the fresh ones before: nothing refers to them, so they go */
				while (i-- > 0)
					if (fresh[i]) {
						rt_nh_ref_locked(t, member[i]);
						rt_nh_unref_locked(t, member[i]);
					}
				break;
			}
		}
		if (i < req->n_hops) {
			nh = RT_NH_MISS;
			break;
		}
		return rt_nhgroup_of_members_locked(t, member, fresh, req->n_hops, err, errlen);
	}
	if (nh == RT_NH_MISS)
		rt_nh_full_err(t, err, errlen);
	return nh;
}

/* Publish the ::/0 route's next hop: a worker reads the old one or the new one. */
static void
default_set(struct rt6_table *t6, uint32_t nh)
{
	__atomic_store_n(&t6->default_nh, nh, __ATOMIC_RELEASE);
}

static int
lpm_add(struct rt6_table *t6, const struct rt6_addr *prefix, uint8_t plen, uint32_t nh)
{
	if (plen == 0) {
		default_set(t6, nh);
		return 0;
	}
	return rte_lpm6_add(t6->lpm, FWD_COMPAT_IP6(prefix), plen, nh);
}

static void
lpm_del(struct rt6_table *t6, const struct rt6_addr *prefix, uint8_t plen)
{
	if (plen == 0)
		default_set(t6, RT_NH_MISS);
	else
		rte_lpm6_delete(t6->lpm, FWD_COMPAT_IP6(prefix), plen);
}

/* The refusal of a change to another owner's route: -EPERM with @p err set. */
static int
owner_refused(struct rt6_table *t6, const struct rt6_route *r, char *err, size_t errlen)
{
	char a[RT6_PREFIX_STRLEN];

	if (rt_route_src_synced((enum rt_route_src)r->src))
		t6->t->refused_synced++;
	snprintf(err, errlen, "%s belongs to %s", rt6_prefix_str(&r->prefix, r->plen, a),
		rt_route_src_name((enum rt_route_src)r->src));
	return -EPERM;
}

static int
route_set_locked(struct rt6_table *t6, const struct rt6_route_req *req, char *err, size_t errlen)
{
	struct rt_table *t = t6->t;
	struct rt6_route *r = rib_find(t6, &req->prefix, req->plen);
	char a[RT6_PREFIX_STRLEN];
	struct rt6_rib_key k;
	uint16_t port;
	uint32_t nh, old;
	int32_t pos;
	int ret;

	if (r != NULL && !(req->flags & RT_ROUTE_F_REPLACE)) {
		snprintf(err, errlen, "%s: a route exists (replace it)",
			rt6_prefix_str(&req->prefix, req->plen, a));
		return -EEXIST;
	}
	if (r != NULL && !rt_route_src_may_change(req->src, (enum rt_route_src)r->src))
		return owner_refused(t6, r, err, errlen);
	if (r == NULL && t6->n_routes >= t6->max_routes) {
		snprintf(err, errlen, "the IPv6 table is full (%u routes)", t6->max_routes);
		return -ENOSPC;
	}
	nh = req_nh(t6, req, &port, err, errlen);
	if (nh == RT_NH_MISS)
		return -rte_errno;
	rt_nh_ref_locked(t, nh);
	/* a replace is one store per lookup entry: the old route or the new, never neither */
	ret = lpm_add(t6, &req->prefix, req->plen, nh);
	if (ret < 0) {
		rt_nh_unref_locked(t, nh);
		snprintf(err, errlen, "%s: %s", rt6_prefix_str(&req->prefix, req->plen, a),
			ret == -ENOSPC ? "no free IPv6 lookup groups (tbl8)" : strerror(-ret));
		return ret;
	}
	if (r != NULL) {
		old = r->nh;
	} else {
		k = rib_key(&req->prefix, req->plen);
		pos = rte_hash_add_key(t6->rib, &k);
		if (pos < 0) { /* cannot happen below max_routes: take it back */
			lpm_del(t6, &req->prefix, req->plen);
			rt_nh_unref_locked(t, nh);
			snprintf(err, errlen, "the IPv6 route index is full");
			return -ENOSPC;
		}
		r = &t6->routes[pos];
		old = RT_NH_MISS;
		t6->n_routes++;
	}
	*r = (struct rt6_route){
		.prefix = req->prefix,
		.gw = req->kind == RT_ROUTE_VIA ? req->hop[0].gw : (struct rt6_addr){{0}},
		.nh = nh,
		.since = rt_table_now(),
		.port = port,
		.plen = req->plen,
		.kind = (uint8_t)req->kind,
		.src = (uint8_t)req->src,
	};
	if (old != RT_NH_MISS)
		rt_nh_unref_locked(t, old);
	rt_table_gen_bump(t);
	return 0;
}

int
rt6_route_set(struct rt6_table *t6, const struct rt6_route_req *req, char *err, size_t errlen)
{
	int ret = req_check(t6, req, err, errlen);

	if (ret < 0)
		return ret;
	pthread_mutex_lock(&t6->t->lock);
	ret = route_set_locked(t6, req, err, errlen);
	pthread_mutex_unlock(&t6->t->lock);
	return ret;
}

int
rt6_route_del(struct rt6_table *t6, const struct rt6_route_req *req, char *err, size_t errlen)
{
	struct rt_table *t = t6->t;
	char a[RT6_PREFIX_STRLEN];
	struct rt6_rib_key k;
	struct rt6_route *r;
	uint32_t nh;
	int ret = 0;

	if (req->plen > 128) {
		snprintf(err, errlen, "prefix length %u: IPv6 has 0 to 128", req->plen);
		return -EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	r = rib_find(t6, &req->prefix, req->plen);
	if (r == NULL) {
		snprintf(err, errlen, "no route to %s", rt6_prefix_str(&req->prefix, req->plen, a));
		ret = -ENOENT;
	} else if (!rt_route_src_may_change(req->src, (enum rt_route_src)r->src)) {
		ret = owner_refused(t6, r, err, errlen);
	} else {
		nh = r->nh;
		lpm_del(t6, &r->prefix, r->plen);
		k = rib_key(&r->prefix, r->plen);
		rte_hash_del_key(t6->rib, &k);
		t6->n_routes--;
		rt_nh_unref_locked(t, nh);
		rt_table_gen_bump(t);
	}
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
rt6_route_get(struct rt6_table *t6, const struct rt6_addr *prefix, uint8_t plen, bool exact,
	struct rt6_route *out)
{
	const struct rt6_route *r = NULL;
	struct rt6_addr p;
	int len;

	if (plen > 128)
		return -ENOENT;
	pthread_mutex_lock(&t6->t->lock);
	if (exact) {
		r = rib_find(t6, prefix, plen);
	} else {
		/* longest first: at most 129 probes, whatever the table's size */
		for (len = 128; len >= 0 && r == NULL; len--) {
			p = *prefix;
			rt6_addr_mask(&p, (uint8_t)len);
			r = rib_find(t6, &p, (uint8_t)len);
		}
	}
	if (r != NULL)
		*out = *r;
	pthread_mutex_unlock(&t6->t->lock);
	return r != NULL ? 0 : -ENOENT;
}

uint32_t
rt6_route_lookup(struct rt6_table *t6, const struct rt6_addr *ip)
{
	return rt6_fib_lookup(t6->lpm, ip, __atomic_load_n(&t6->default_nh, __ATOMIC_ACQUIRE));
}

uint32_t
rt6_route_count(struct rt6_table *t6)
{
	uint32_t n;

	pthread_mutex_lock(&t6->t->lock);
	n = t6->n_routes;
	pthread_mutex_unlock(&t6->t->lock);
	return n;
}
