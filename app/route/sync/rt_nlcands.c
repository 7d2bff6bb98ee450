/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "rt_log.h"
#include "rt_nlcands.h"

/* One kernel route: a prefix's candidate of one metric, what its message said. */
struct rt_nlcand {
	struct rt_nlcand *next; /* in its bucket */
	uint32_t prefix;
	uint32_t metric;
	uint32_t gen; /* the resync that last saw it */
	uint8_t plen;
	uint8_t kind;
	uint8_t n_hops;
	struct rt_nl_hop hops[];
};

#define NLCANDS_FIRST_BUCKETS 1024

static inline uint32_t
cand_hash(uint32_t prefix, uint8_t plen, uint32_t n_buckets)
{
	const uint64_t k = (uint64_t)prefix << 8 | plen;

	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & (n_buckets - 1);
}

static void
count_update(struct rt_nlcands *c, uint32_t n_prefixes)
{
	c->standby = c->n - n_prefixes;
}

/* The link that points at the candidate of (prefix, plen, metric), or NULL. */
static struct rt_nlcand **
find(struct rt_nlcands *c, uint32_t prefix, uint8_t plen, uint32_t metric)
{
	struct rt_nlcand **l;

	if (c->n_buckets == 0)
		return NULL;
	for (l = &c->bucket[cand_hash(prefix, plen, c->n_buckets)]; *l != NULL; l = &(*l)->next)
		if ((*l)->prefix == prefix && (*l)->plen == plen && (*l)->metric == metric)
			return l;
	return NULL;
}

/* The prefix's candidate of the lowest metric (the one the kernel forwards by), or NULL. */
static struct rt_nlcand *
lowest(const struct rt_nlcands *c, uint32_t prefix, uint8_t plen)
{
	struct rt_nlcand *e, *best = NULL;

	if (c->n_buckets == 0)
		return NULL;
	for (e = c->bucket[cand_hash(prefix, plen, c->n_buckets)]; e != NULL; e = e->next)
		if (e->prefix == prefix && e->plen == plen &&
			(best == NULL || e->metric < best->metric))
			best = e;
	return best;
}

/* Candidates of prefixes that have at least one: what is installed. */
static uint32_t
n_prefixes(const struct rt_nlcands *c)
{
	return c->n - c->standby;
}

/* Twice the buckets once there are more candidates than buckets. */
static int
grow(struct rt_nlcands *c)
{
	const uint32_t nb = c->n_buckets != 0 ? c->n_buckets * 2 : NLCANDS_FIRST_BUCKETS;
	struct rt_nlcand **b, *e, *next;
	uint32_t i;

	b = calloc(nb, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	for (i = 0; i < c->n_buckets; i++)
		for (e = c->bucket[i]; e != NULL; e = next) {
			uint32_t h = cand_hash(e->prefix, e->plen, nb);

			next = e->next;
			e->next = b[h];
			b[h] = e;
		}
	free(c->bucket);
	c->bucket = b;
	c->n_buckets = nb;
	return 0;
}

/* What candidate @p e says, as a message that installs it (a replace). */
static void
to_route(const struct rt_nlcand *e, struct rt_nl_route *r)
{
	memset(r, 0, sizeof(*r));
	r->replace = true;
	r->kind = e->kind;
	r->plen = e->plen;
	r->prefix = e->prefix;
	r->table = RT_NL_TABLE_MAIN;
	r->metric = e->metric;
	r->n_hops = e->n_hops;
	memcpy(r->hops, e->hops, e->n_hops * sizeof(e->hops[0]));
}

static int
install(struct rt_table *t, const struct rt_nlcand *e, const struct rt_nl_ifmap *map,
	unsigned int n_map, char *err, size_t errlen)
{
	struct rt_nl_route r;

	to_route(e, &r);
	return rt_netlink_apply_from(t, RT_SRC_NETLINK, &r, map, n_map, err, errlen);
}

/* The kernel no longer routes @p prefix/@p plen at all: the table's route goes. */
static int
withdraw(struct rt_table *t, uint32_t prefix, uint8_t plen, char *err, size_t errlen)
{
	return rt4_route_del(t,
		&(const struct rt4_route_req){
			.prefix = prefix, .plen = plen, .src = RT_SRC_NETLINK},
		err, errlen);
}

/*
 * The installed candidate of @p prefix/@p plen went: the next lowest in its
 * place, or the route deleted when there is none or the table refuses it
 * (the kernel does not forward by the one that went any more).
 */
static int
expose_next(struct rt_nlcands *c, struct rt_table *t, uint32_t prefix, uint8_t plen,
	const struct rt_nl_ifmap *map, unsigned int n_map, char *err, size_t errlen)
{
	const struct rt_nlcand *next = lowest(c, prefix, plen);
	char a[16];

	if (next != NULL) {
		if (install(t, next, map, n_map, err, errlen) == 0)
			return 0;
		RT_LOG(DEBUG, "netlink: %s/%u metric %u refused (%s): the prefix has no route\n",
			rt4_addr_str(prefix, a), plen, next->metric, err);
	}
	return withdraw(t, prefix, plen, err, errlen);
}

static int
take_new(struct rt_nlcands *c, struct rt_table *t, const struct rt_nl_route *r,
	const struct rt_nl_ifmap *map, unsigned int n_map, bool *standby, char *err, size_t errlen)
{
	const size_t size = sizeof(struct rt_nlcand) + r->n_hops * sizeof(r->hops[0]);
	uint32_t pfx = n_prefixes(c);
	struct rt_nlcand **l, *e;

	if (c->n + 1 > c->n_buckets && grow(c) < 0 && c->n_buckets == 0)
		goto nomem;
	l = find(c, r->prefix, r->plen, r->metric);
	if (l == NULL) {
		if (lowest(c, r->prefix, r->plen) == NULL)
			pfx++;
		e = malloc(size);
		if (e == NULL)
			goto nomem;
		e->next = c->bucket[cand_hash(r->prefix, r->plen, c->n_buckets)];
		c->bucket[cand_hash(r->prefix, r->plen, c->n_buckets)] = e;
		c->n++;
	} else if ((*l)->n_hops != r->n_hops) {
		e = realloc(*l, size);
		if (e == NULL)
			goto nomem;
		*l = e;
	} else {
		e = *l;
	}
	e->prefix = r->prefix;
	e->plen = r->plen;
	e->metric = r->metric;
	e->gen = c->gen;
	e->kind = r->kind;
	e->n_hops = r->n_hops;
	memcpy(e->hops, r->hops, r->n_hops * sizeof(r->hops[0]));
	count_update(c, pfx);
	if (lowest(c, r->prefix, r->plen) != e) {
		*standby = true; /* behind a lower metric: the kernel does not forward by it */
		return 0;
	}
	return install(t, e, map, n_map, err, errlen);
nomem:
	snprintf(err, errlen, "out of memory for the routes by metric");
	return -ENOMEM;
}

static int
take_del(struct rt_nlcands *c, struct rt_table *t, const struct rt_nl_route *r,
	const struct rt_nl_ifmap *map, unsigned int n_map, bool *standby, char *err, size_t errlen)
{
	struct rt_nlcand **l = find(c, r->prefix, r->plen, r->metric), *e;
	uint32_t pfx = n_prefixes(c);
	bool installed;
	char a[16];

	if (l == NULL) {
		if (lowest(c, r->prefix, r->plen) == NULL)
			return rt_netlink_apply_from(t, RT_SRC_NETLINK, r, map, n_map, err, errlen);
		snprintf(err, errlen, "no route to %s/%u of metric %u", rt4_addr_str(r->prefix, a),
			r->plen, r->metric);
		return -ENOENT;
	}
	e = *l;
	installed = lowest(c, r->prefix, r->plen) == e;
	*l = e->next;
	free(e);
	c->n--;
	if (lowest(c, r->prefix, r->plen) == NULL)
		pfx--;
	count_update(c, pfx);
	if (!installed) {
		*standby = true;
		return 0;
	}
	return expose_next(c, t, r->prefix, r->plen, map, n_map, err, errlen);
}

int
rt_nlcands_apply(struct rt_nlcands *c, struct rt_table *t, const struct rt_nl_route *r,
	const struct rt_nl_ifmap *map, unsigned int n_map, bool *standby, char *err, size_t errlen)
{
	bool dummy;

	if (standby == NULL)
		standby = &dummy;
	*standby = false;
	return r->del ? take_del(c, t, r, map, n_map, standby, err, errlen)
		      : take_new(c, t, r, map, n_map, standby, err, errlen);
}

void
rt_nlcands_begin(struct rt_nlcands *c)
{
	c->gen++;
}

/* A prefix with candidates the resync did not see, and whether its installed one is of them. */
struct stale_prefix {
	uint32_t prefix;
	uint8_t plen;
	bool installed;
};

uint32_t
rt_nlcands_sweep(
	struct rt_nlcands *c, struct rt_table *t, const struct rt_nl_ifmap *map, unsigned int n_map)
{
	struct stale_prefix *sp = NULL;
	uint32_t n_sp = 0, cap = 0, dropped = 0, i, pfx;
	struct rt_nlcand *e, **l;
	char err[RT_ERR_LEN];

	/* first the prefixes (each once: the first stale one of a prefix in its bucket) */
	for (i = 0; i < c->n_buckets; i++)
		for (e = c->bucket[i]; e != NULL; e = e->next) {
			const struct rt_nlcand *f;

			if (e->gen == c->gen)
				continue;
			for (f = c->bucket[i]; f != e; f = f->next)
				if (f->gen != c->gen && f->prefix == e->prefix &&
					f->plen == e->plen)
					break;
			if (f != e)
				continue;
			if (n_sp == cap) {
				uint32_t nc = cap != 0 ? cap * 2 : 64;
				struct stale_prefix *g = realloc(sp, nc * sizeof(*g));

				if (g == NULL)
					goto out; /* what is left stays until the next resync */
				sp = g;
				cap = nc;
			}
			sp[n_sp++] = (struct stale_prefix){.prefix = e->prefix,
				.plen = e->plen,
				.installed = lowest(c, e->prefix, e->plen)->gen != c->gen};
		}
out:
	/* then each one's stale candidates dropped, and its route put right */
	for (i = 0; i < n_sp; i++) {
		pfx = n_prefixes(c);
		l = &c->bucket[cand_hash(sp[i].prefix, sp[i].plen, c->n_buckets)];
		while (*l != NULL) {
			e = *l;
			if (e->gen != c->gen && e->prefix == sp[i].prefix &&
				e->plen == sp[i].plen) {
				*l = e->next;
				free(e);
				c->n--;
				dropped++;
				continue;
			}
			l = &e->next;
		}
		if (lowest(c, sp[i].prefix, sp[i].plen) == NULL)
			pfx--;
		count_update(c, pfx);
		if (sp[i].installed)
			expose_next(c, t, sp[i].prefix, sp[i].plen, map, n_map, err, sizeof(err));
	}
	free(sp);
	return dropped;
}

unsigned int
rt_nlcands_metrics(
	const struct rt_nlcands *c, uint32_t prefix, uint8_t plen, uint32_t *out, unsigned int max)
{
	const struct rt_nlcand *e;
	unsigned int n = 0, k;

	if (c->n_buckets == 0)
		return 0;
	for (e = c->bucket[cand_hash(prefix, plen, c->n_buckets)]; e != NULL; e = e->next) {
		if (e->prefix != prefix || e->plen != plen)
			continue;
		/* insertion in order: a prefix has a handful */
		for (k = RTE_MIN(n, max); k > 0 && out[k - 1] > e->metric; k--)
			if (k < max)
				out[k] = out[k - 1];
		if (k < max)
			out[k] = e->metric;
		n++;
	}
	return n;
}

void
rt_nlcands_clear(struct rt_nlcands *c)
{
	struct rt_nlcand *e, *next;
	uint32_t i;

	for (i = 0; i < c->n_buckets; i++)
		for (e = c->bucket[i]; e != NULL; e = next) {
			next = e->next;
			free(e);
		}
	free(c->bucket);
	*c = (struct rt_nlcands){.gen = c->gen};
}
