/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * ECMP next-hop groups: records, sharing by member set, failover and the RCU
 * publication of each group's active set (rt_nhgroup.h). Everything here but
 * the entry points that say otherwise runs under rt_table::lock.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_errno.h>
#include <rte_hash_crc.h>
#include <rte_malloc.h>
#include <rte_rcu_qsbr.h>

#include "rt_ecmp.h"
#include "rt_log.h"
#include "rt_nhgroup.h"
#include "rt_table_priv.h"

#define NHG_BUCKETS_MIN 64

struct rt_nhg;

/* A group's place on the list of one of its members. */
struct rt_nhg_link {
	LIST_ENTRY(rt_nhg_link) next;
	struct rt_nhg *g;
};
LIST_HEAD(rt_nhg_links, rt_nhg_link);

/* One group (control memory: the workers read only its set). */
struct rt_nhg {
	LIST_ENTRY(rt_nhg) hnext; /* hash chain */
	uint32_t hash;            /* of n and member[] */
	uint32_t nh;              /* its RT_NH_GROUP next hop */
	unsigned int n;
	uint32_t member[RT_ECMP_MAX]; /* by gateway address, ascending */
	struct rt_nhg_link link[RT_ECMP_MAX];
	struct rt_ecmp_set *set; /* what t->nh[nh].set points at */
};
LIST_HEAD(rt_nhg_chain, rt_nhg);

/* A set swapped out, freed once every reader has passed a quiescent state. */
struct nhg_retired {
	TAILQ_ENTRY(nhg_retired) next;
	struct rt_ecmp_set *set;
	uint64_t token;
};

/* rt_table::ecmp: made with the first group. */
struct rt_nhgroups {
	uint32_t max_nh;
	struct rt_nhg_links *of_member; /* [max_nh]: the groups each next hop is in */
	struct rt_nhg **of_nh;          /* [max_nh]: the record of each group next hop */
	struct rt_nhg_chain *bucket;
	uint32_t n_buckets; /* a power of 2 */
	uint32_t n_groups;
	TAILQ_HEAD(, nhg_retired) retired;
};

static struct rt_nhgroups *
groups_get(struct rt_table *t)
{
	struct rt_nhgroups *gs = t->ecmp;
	uint32_t i;

	if (gs != NULL)
		return gs;
	gs = calloc(1, sizeof(*gs));
	if (gs == NULL)
		return NULL;
	gs->max_nh = t->max_nh;
	gs->of_member = calloc(t->max_nh, sizeof(gs->of_member[0]));
	gs->of_nh = calloc(t->max_nh, sizeof(gs->of_nh[0]));
	gs->n_buckets = NHG_BUCKETS_MIN;
	gs->bucket = calloc(gs->n_buckets, sizeof(gs->bucket[0]));
	if (gs->of_member == NULL || gs->of_nh == NULL || gs->bucket == NULL) {
		free(gs->of_member);
		free(gs->of_nh);
		free(gs->bucket);
		free(gs);
		return NULL;
	}
	for (i = 0; i < t->max_nh; i++)
		LIST_INIT(&gs->of_member[i]);
	for (i = 0; i < gs->n_buckets; i++)
		LIST_INIT(&gs->bucket[i]);
	TAILQ_INIT(&gs->retired);
	t->ecmp = gs;
	return gs;
}

static uint32_t
members_hash(const uint32_t *member, unsigned int n)
{
	uint32_t h = n;
	unsigned int i;

	for (i = 0; i < n; i++)
		h = rte_hash_crc_4byte(member[i], h);
	return h;
}

static struct rt_nhg *
group_find(const struct rt_nhgroups *gs, const uint32_t *member, unsigned int n, uint32_t hash)
{
	struct rt_nhg *g;

	LIST_FOREACH(g, &gs->bucket[hash & (gs->n_buckets - 1)], hnext)
	if (g->hash == hash && g->n == n && memcmp(g->member, member, n * sizeof(*member)) == 0)
		return g;
	return NULL;
}

/* Twice the buckets when the chains would grow past one group each on average. */
static void
buckets_grow(struct rt_nhgroups *gs)
{
	const uint32_t nb = gs->n_buckets * 2;
	struct rt_nhg_chain *b = calloc(nb, sizeof(*b));
	struct rt_nhg *g;
	uint32_t i;

	if (b == NULL)
		return; /* longer chains, still correct */
	for (i = 0; i < nb; i++)
		LIST_INIT(&b[i]);
	for (i = 0; i < gs->n_buckets; i++) {
		while ((g = LIST_FIRST(&gs->bucket[i])) != NULL) {
			LIST_REMOVE(g, hnext);
			LIST_INSERT_HEAD(&b[g->hash & (nb - 1)], g, hnext);
		}
	}
	free(gs->bucket);
	gs->bucket = b;
	gs->n_buckets = nb;
}

/* Free the swapped-out sets no reader can hold any more. */
static void
reclaim(struct rt_table *t, struct rt_nhgroups *gs)
{
	struct nhg_retired *r, *next;

	for (r = TAILQ_FIRST(&gs->retired); r != NULL; r = next) {
		next = TAILQ_NEXT(r, next);
		if (rte_rcu_qsbr_check(t->qsbr, r->token, false) != 1)
			continue;
		TAILQ_REMOVE(&gs->retired, r, next);
		rte_free(r->set);
		free(r);
	}
}

/* @p s is swapped out (or its group gone): free it after a grace period. */
static void
set_retire(struct rt_table *t, struct rt_nhgroups *gs, struct rt_ecmp_set *s)
{
	struct nhg_retired *r = malloc(sizeof(*r));

	if (r == NULL) {
		/* no room to defer: wait for the readers instead (the writer is never a worker) */
		rte_rcu_qsbr_synchronize(t->qsbr, RTE_QSBR_THRID_INVALID);
		rte_free(s);
		return;
	}
	r->set = s;
	r->token = rte_rcu_qsbr_start(t->qsbr);
	TAILQ_INSERT_TAIL(&gs->retired, r, next);
}

/*
 * The set of group @p g as its members' neighbours are now. Each slot has
 * an order of preference over the members and goes to the first one in use:
 * first its home, member s % n (so that with every member up each has
 * RT_ECMP_SLOTS / n slots, one more for some, and a flow's member depends on
 * its hash alone); then the others, starting at an offset that advances with
 * s / n, so that a lost member's slots are dealt evenly over the rest. The
 * set is a function of which members are up: a member that leaves moves only
 * its own slots, and when it comes back it takes back exactly those. With no
 * member resolved every member is in use (see rt_nhgroup.h).
 */
static struct rt_ecmp_set *
set_build(const struct rt_table *t, const struct rt_nhg *g)
{
	const unsigned int n = g->n;
	bool use[RT_ECMP_MAX];
	unsigned int i, s, n_up = 0;
	struct rt_ecmp_set *set;

	set = rte_zmalloc("rt_ecmp_set", sizeof(*set), RTE_CACHE_LINE_SIZE);
	if (set == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		use[i] = (__atomic_load_n(&t->nh[g->member[i]].l2, __ATOMIC_ACQUIRE) &
				 RT_NH_F_VALID) != 0;
		n_up += use[i];
	}
	if (n_up == 0)
		for (i = 0; i < n; i++)
			use[i] = true;
	set->n_members = (uint8_t)n;
	set->n_active = (uint8_t)n_up;
	memcpy(set->member, g->member, n * sizeof(g->member[0]));
	for (s = 0; s < RT_ECMP_SLOTS; s++) {
		const unsigned int home = s % n, r = s / n;
		unsigned int m = home, k;

		for (k = 1; !use[m] && k < n; k++)
			m = (home + 1 + (r + k - 1) % (n - 1)) % n;
		set->slot[s] = (uint8_t)m;
	}
	return set;
}

/* Rebuild and publish group @p g's set; the old one is retired. */
static void
republish(struct rt_table *t, struct rt_nhgroups *gs, struct rt_nhg *g)
{
	struct rt_ecmp_set *s = set_build(t, g);
	char a[16];

	if (s == NULL) {
		/* the old set stays: packets to a lost member are punted, not lost */
		RT_LOG(ERR, "ECMP group %u: no memory for its new set\n", g->nh);
		return;
	}
	__atomic_store_n(&t->nh[g->nh].set, s, __ATOMIC_RELEASE);
	if (g->set->n_active != s->n_active)
		RT_LOG(INFO, "ECMP group %u (first member %s): %u of %u members active\n", g->nh,
			rt4_addr_str(t->nh_info[g->member[0]].ip, a), s->n_active, s->n_members);
	set_retire(t, gs, g->set);
	g->set = s;
}

/* Members' next hops that rt_nhgroup_get_locked() made and no group kept. */
static void
fresh_undo(struct rt_table *t, const uint32_t *member, const bool *fresh, unsigned int n)
{
	unsigned int i;

	/* back to the free stack and out of the neighbour index: marked free but
	 * left indexed, a slot was lost and the next route to its gateway took it */
	for (i = 0; i < n; i++)
		if (fresh[i])
			rt_nh_free_unused_locked(t, member[i]);
}

uint32_t
rt_nhgroup_get_locked(struct rt_table *t, const struct rt_hop *hops, unsigned int n,
	uint16_t *port0, uint32_t *gw0, char *err, size_t errlen)
{
	uint32_t gw[RT_ECMP_MAX], member[RT_ECMP_MAX];
	int port[RT_ECMP_MAX];
	bool fresh[RT_ECMP_MAX] = {false};
	unsigned int i, j;
	char a[16];

	if (n < 2 || n > RT_ECMP_MAX) {
		snprintf(err, errlen, "%u next hops: an ECMP route has 2 to %u (RT_ECMP_MAX)", n,
			RT_ECMP_MAX);
		rte_errno = EINVAL;
		return RT_NH_MISS;
	}
	/* checked in the order given, so that the message names the first bad one */
	for (i = 0; i < n; i++) {
		int out;

		if (rt_gw_check_locked(t, "next hop", hops[i].gw, hops[i].port, &out, err, errlen) <
			0) {
			rte_errno = EINVAL;
			return RT_NH_MISS;
		}
		for (j = 0; j < i; j++) {
			if (hops[j].gw == hops[i].gw) {
				snprintf(err, errlen, "next hop %s given twice",
					rt4_addr_str(hops[i].gw, a));
				rte_errno = EINVAL;
				return RT_NH_MISS;
			}
		}
		/* by address: the same set in any order is the same group */
		for (j = i; j > 0 && gw[j - 1] > hops[i].gw; j--) {
			gw[j] = gw[j - 1];
			port[j] = port[j - 1];
		}
		gw[j] = hops[i].gw;
		port[j] = out;
	}
	for (i = 0; i < n; i++) {
		member[i] = rt_neigh_find_locked(t, gw[i]);
		if (member[i] == RT_NH_MISS) {
			member[i] = rt_nh_alloc_locked(t, RT_NH_GW, (uint16_t)port[i], gw[i]);
			fresh[i] = true;
		}
		if (member[i] == RT_NH_MISS) {
			fresh_undo(t, member, fresh, i);
			snprintf(err, errlen, "no free next hop (max-next-hops %u)", t->max_nh);
			rte_errno = ENOSPC;
			return RT_NH_MISS;
		}
	}
	*port0 = t->nh[member[0]].port;
	*gw0 = gw[0];
	return rt_nhgroup_of_members_locked(t, member, fresh, n, err, errlen);
}

uint32_t
rt_nhgroup_of_members_locked(struct rt_table *t, const uint32_t *member, const bool *fresh,
	unsigned int n, char *err, size_t errlen)
{
	struct rt_nhgroups *gs = groups_get(t);
	uint32_t hash, gnh;
	struct rt_nhg *g;
	unsigned int i;

	if (gs == NULL) {
		fresh_undo(t, member, fresh, n);
		snprintf(err, errlen, "no memory for ECMP groups");
		rte_errno = ENOMEM;
		return RT_NH_MISS;
	}
	reclaim(t, gs);
	hash = members_hash(member, n);
	g = group_find(gs, member, n, hash);
	if (g != NULL)
		return g->nh;

	gnh = rt_nh_alloc_locked(t, RT_NH_GROUP, t->nh[member[0]].port, 0);
	g = gnh != RT_NH_MISS ? calloc(1, sizeof(*g)) : NULL;
	if (g == NULL) {
		if (gnh != RT_NH_MISS)
			t->nh[gnh].type = RT_NH_FREE;
		fresh_undo(t, member, fresh, n);
		snprintf(err, errlen,
			gnh == RT_NH_MISS ? "no free next hop (max-next-hops %u)"
					  : "no memory for an ECMP group",
			t->max_nh);
		rte_errno = gnh == RT_NH_MISS ? ENOSPC : ENOMEM;
		return RT_NH_MISS;
	}
	g->hash = hash;
	g->nh = gnh;
	g->n = n;
	memcpy(g->member, member, n * sizeof(member[0]));
	g->set = set_build(t, g);
	if (g->set == NULL) {
		free(g);
		t->nh[gnh].type = RT_NH_FREE;
		fresh_undo(t, member, fresh, n);
		snprintf(err, errlen, "no memory for an ECMP group");
		rte_errno = ENOMEM;
		return RT_NH_MISS;
	}
	for (i = 0; i < n; i++) {
		rt_nh_ref_locked(t, member[i]);
		g->link[i].g = g;
		LIST_INSERT_HEAD(&gs->of_member[member[i]], &g->link[i], next);
	}
	/* before any route points at it */
	__atomic_store_n(&t->nh[gnh].set, g->set, __ATOMIC_RELEASE);
	gs->of_nh[gnh] = g;
	LIST_INSERT_HEAD(&gs->bucket[hash & (gs->n_buckets - 1)], g, hnext);
	if (++gs->n_groups > gs->n_buckets)
		buckets_grow(gs);
	return gnh;
}

void
rt_nhgroup_release_locked(struct rt_table *t, uint32_t gnh)
{
	struct rt_nhgroups *gs = t->ecmp;
	struct rt_nhg *g;
	unsigned int i;

	if (gs == NULL || gnh >= gs->max_nh || (g = gs->of_nh[gnh]) == NULL)
		return;
	LIST_REMOVE(g, hnext);
	gs->of_nh[gnh] = NULL;
	gs->n_groups--;
	for (i = 0; i < g->n; i++)
		LIST_REMOVE(&g->link[i], next);
	if (t->nh_info[gnh].retired == 0) {
		/* never referenced (its route was not added): no reader ever saw it */
		rte_free(g->set);
		t->nh[gnh].type = RT_NH_FREE;
	} else {
		set_retire(t, gs, g->set);
	}
	/* after the group's own retirement token: a member goes no sooner than the group */
	for (i = 0; i < g->n; i++)
		rt_nh_unref_locked(t, g->member[i]);
	free(g);
	reclaim(t, gs);
}

void
rt_nhgroup_neigh_changed(struct rt_table *t, uint32_t nh)
{
	struct rt_nhgroups *gs;
	struct rt_nhg_link *l;

	pthread_mutex_lock(&t->lock);
	gs = t->ecmp;
	if (gs != NULL && nh < gs->max_nh) {
		LIST_FOREACH(l, &gs->of_member[nh], next)
		republish(t, gs, l->g);
		reclaim(t, gs);
	}
	pthread_mutex_unlock(&t->lock);
}

unsigned int
rt_nhgroup_members(struct rt_table *t, uint32_t gnh, uint32_t *nh, uint8_t *active)
{
	struct rt_nhgroups *gs;
	const struct rt_nhg *g;
	unsigned int i, n = 0;

	pthread_mutex_lock(&t->lock);
	gs = t->ecmp;
	if (gs != NULL && gnh < gs->max_nh && (g = gs->of_nh[gnh]) != NULL) {
		n = g->n;
		for (i = 0; i < n; i++) {
			nh[i] = g->member[i];
			if (active != NULL)
				active[i] = (__atomic_load_n(&t->nh[nh[i]].l2, __ATOMIC_ACQUIRE) &
						    RT_NH_F_VALID) != 0;
		}
	}
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint32_t
rt_nhgroup_pick(struct rt_table *t, uint32_t gnh, uint32_t hash, uint32_t hint)
{
	struct rt_nhgroups *gs;
	const struct rt_nhg *g;
	uint32_t pick = RT_NH_MISS;
	unsigned int i;

	pthread_mutex_lock(&t->lock);
	gs = t->ecmp;
	if (gs != NULL && gnh < gs->max_nh && (g = gs->of_nh[gnh]) != NULL) {
		pick = rt_ecmp_select(g->set, hash);
		for (i = 0; i < g->n; i++)
			if (g->member[i] == hint &&
				(__atomic_load_n(&t->nh[hint].l2, __ATOMIC_ACQUIRE) &
					RT_NH_F_VALID))
				pick = hint;
	}
	pthread_mutex_unlock(&t->lock);
	return pick;
}

void
rt_nhgroup_free(struct rt_table *t)
{
	struct rt_nhgroups *gs = t->ecmp;
	struct nhg_retired *r;
	struct rt_nhg *g;
	uint32_t i;

	if (gs == NULL)
		return;
	while ((r = TAILQ_FIRST(&gs->retired)) != NULL) {
		TAILQ_REMOVE(&gs->retired, r, next);
		rte_free(r->set);
		free(r);
	}
	for (i = 0; i < gs->n_buckets; i++) {
		while ((g = LIST_FIRST(&gs->bucket[i])) != NULL) {
			LIST_REMOVE(g, hnext);
			rte_free(g->set);
			free(g);
		}
	}
	free(gs->bucket);
	free(gs->of_nh);
	free(gs->of_member);
	free(gs);
	t->ecmp = NULL;
}
