/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "rt_rib.h"

#define NIL UINT32_MAX

/*
 * A node at depth d stands for the first d bits of its key. Node 0 is the
 * root (0/0) and is never freed; every other node has at least one route
 * at or below it (@c count > 0), so a removal frees the chain of nodes it
 * leaves empty and nothing else is ever empty.
 */
struct rib_node {
	uint32_t child[2];
	uint32_t rec;   /**< record index, NIL = no route of this exact prefix */
	uint32_t count; /**< routes at or below this node */
};

struct rt_rib {
	struct rib_node *nodes;
	uint32_t n_nodes; /**< high-water mark of used node slots */
	uint32_t cap_nodes;
	uint32_t free_node; /**< free node chain through child[0], NIL = none */
	uint32_t n_free_nodes;
	struct rt_route *recs;
	uint32_t n_recs; /**< high-water mark of used record slots */
	uint32_t cap_recs;
	uint32_t free_rec; /**< free record chain through rt_route::nh, NIL = none */
	uint32_t by_plen[33];
	struct rib_slot *idx; /**< exact-match index: open addressing, linear probing */
	uint32_t idx_mask;    /**< slots - 1 (a power of two, at least twice the records) */
};

/*
 * The exact-match index beside the trie: (prefix, length) -> record in one
 * or two cache lines, where the trie's walk to a /24 reads 25 nodes, each a
 * cache miss on a full table (docs/benchmarks-route.md, "Control path
 * against the table's size"). The slot holds the key, so a probe reads no
 * record. 8 bytes a slot, at most half full: 16 MiB for a million routes.
 */
#define RIB_REC_BITS  26 /* max-routes' limit is 2^26 (app/control/fwd_opts.c) */
#define RIB_MAX_RECS  (1u << RIB_REC_BITS)
#define RIB_SLOT_FREE UINT32_MAX

struct rib_slot {
	uint32_t prefix;
	uint32_t rec_plen; /**< record << 6 | plen; RIB_SLOT_FREE = empty */
};

static inline unsigned int
bit(uint32_t key, unsigned int depth)
{
	return (key >> (31 - depth)) & 1;
}

static int
grow(void **arr, uint32_t *cap, size_t elem)
{
	uint32_t n = *cap != 0 ? *cap * 2 : 64;
	void *p;

	if (*cap >= UINT32_MAX / 2)
		return -ENOMEM;
	p = realloc(*arr, (size_t)n * elem);
	if (p == NULL)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static uint32_t
node_alloc(struct rt_rib *rib)
{
	uint32_t n = rib->free_node;

	if (n != NIL) {
		rib->free_node = rib->nodes[n].child[0];
		rib->n_free_nodes--;
	} else {
		if (rib->n_nodes == rib->cap_nodes &&
			grow((void **)&rib->nodes, &rib->cap_nodes, sizeof(*rib->nodes)) < 0)
			return NIL;
		n = rib->n_nodes++;
	}
	rib->nodes[n] = (struct rib_node){.child = {NIL, NIL}, .rec = NIL, .count = 0};
	return n;
}

static void
node_free(struct rt_rib *rib, uint32_t n)
{
	rib->nodes[n].child[0] = rib->free_node;
	rib->free_node = n;
	rib->n_free_nodes++;
}

static uint32_t
rec_alloc(struct rt_rib *rib)
{
	uint32_t r = rib->free_rec;

	if (r != NIL) {
		rib->free_rec = rib->recs[r].nh;
		return r;
	}
	if (rib->n_recs == RIB_MAX_RECS)
		return NIL;
	if (rib->n_recs == rib->cap_recs &&
		grow((void **)&rib->recs, &rib->cap_recs, sizeof(*rib->recs)) < 0)
		return NIL;
	return rib->n_recs++;
}

static void
rec_free(struct rt_rib *rib, uint32_t r)
{
	rib->recs[r].nh = rib->free_rec;
	rib->free_rec = r;
}

static inline uint32_t
slot_hash(uint32_t prefix, uint8_t plen)
{
	uint64_t k = ((uint64_t)prefix << 6 | plen) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32);
}

/* The slot of @p prefix/@p plen, or the empty slot where it would go. */
static uint32_t
idx_slot(const struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	uint32_t i = slot_hash(prefix, plen) & rib->idx_mask;

	for (;; i = (i + 1) & rib->idx_mask) {
		const struct rib_slot *s = &rib->idx[i];

		if (s->rec_plen == RIB_SLOT_FREE ||
			(s->prefix == prefix && (s->rec_plen & 63) == plen))
			return i;
	}
}

static int
idx_resize(struct rt_rib *rib, uint32_t slots)
{
	struct rib_slot *old = rib->idx;
	uint32_t i, old_slots = old != NULL ? rib->idx_mask + 1 : 0;
	struct rib_slot *idx = malloc((size_t)slots * sizeof(*idx));

	if (idx == NULL)
		return -ENOMEM;
	memset(idx, 0xff, (size_t)slots * sizeof(*idx));
	rib->idx = idx;
	rib->idx_mask = slots - 1;
	for (i = 0; i < old_slots; i++)
		if (old[i].rec_plen != RIB_SLOT_FREE)
			idx[idx_slot(rib, old[i].prefix, old[i].rec_plen & 63)] = old[i];
	free(old);
	return 0;
}

/* Make room for one more record in the index (it stays at most half full). */
static int
idx_reserve(struct rt_rib *rib)
{
	uint32_t slots = rib->idx_mask + 1;

	if ((uint64_t)(rib->nodes[0].count + 1) * 2 <= slots)
		return 0;
	return idx_resize(rib, slots * 2);
}

/* Remove the slot @p i, moving later ones of its probe run back into the gap. */
static void
idx_delete(struct rt_rib *rib, uint32_t i)
{
	uint32_t j = i, home;

	for (;;) {
		rib->idx[i].rec_plen = RIB_SLOT_FREE;
		for (;;) {
			j = (j + 1) & rib->idx_mask;
			if (rib->idx[j].rec_plen == RIB_SLOT_FREE)
				return;
			home = slot_hash(rib->idx[j].prefix, rib->idx[j].rec_plen & 63) &
			       rib->idx_mask;
			/* j may move to i unless its home lies cyclically in (i, j] */
			if (i <= j ? (home <= i || home > j) : (home <= i && home > j))
				break;
		}
		rib->idx[i] = rib->idx[j];
		i = j;
	}
}

struct rt_rib *
rt_rib_create(void)
{
	struct rt_rib *rib = calloc(1, sizeof(*rib));

	if (rib == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	rib->free_node = NIL;
	rib->free_rec = NIL;
	if (node_alloc(rib) != 0 || idx_resize(rib, 64) < 0) { /* the root, an empty index */
		rt_rib_free(rib);
		rte_errno = ENOMEM;
		return NULL;
	}
	return rib;
}

void
rt_rib_free(struct rt_rib *rib)
{
	if (rib == NULL)
		return;
	free(rib->nodes);
	free(rib->recs);
	free(rib->idx);
	free(rib);
}

/* The node of @p prefix/@p plen, or NIL. */
static uint32_t
node_find(const struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	uint32_t n = 0;
	unsigned int d;

	for (d = 0; d < plen && n != NIL; d++)
		n = rib->nodes[n].child[bit(prefix, d)];
	return n;
}

struct rt_route *
rt_rib_find(const struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	const struct rib_slot *s;

	if (plen > 32)
		return NULL;
	s = &rib->idx[idx_slot(rib, prefix, plen)];
	return s->rec_plen != RIB_SLOT_FREE ? &rib->recs[s->rec_plen >> 6] : NULL;
}

struct rt_route *
rt_rib_insert(struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	uint32_t n = 0, r, path[33];
	unsigned int d;

	if (plen > 32) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (rt_rib_find(rib, prefix, plen) != NULL) {
		rte_errno = EEXIST;
		return NULL;
	}
	if (idx_reserve(rib) < 0)
		goto enomem;
	r = rec_alloc(rib);
	if (r == NIL)
		goto enomem;
	/* make the path first: a failure half way leaves only empty nodes to undo */
	path[0] = 0;
	for (d = 0; d < plen; d++) {
		uint32_t c = rib->nodes[n].child[bit(prefix, d)];

		if (c == NIL) {
			c = node_alloc(rib);
			if (c == NIL) {
				/* undo: the new nodes (count 0) hang below path[k] */
				unsigned int k;

				for (k = 0; k < d && rib->nodes[path[k + 1]].count != 0; k++)
					;
				if (k < d) {
					rib->nodes[path[k]].child[bit(prefix, k)] = NIL;
					for (; k < d; k++)
						node_free(rib, path[k + 1]);
				}
				rec_free(rib, r);
				goto enomem;
			}
			rib->nodes[n].child[bit(prefix, d)] = c;
		}
		n = c;
		path[d + 1] = n;
	}
	for (d = 0; d <= plen; d++)
		rib->nodes[path[d]].count++;
	rib->nodes[n].rec = r;
	rib->idx[idx_slot(rib, prefix, plen)] =
		(struct rib_slot){.prefix = prefix, .rec_plen = r << 6 | plen};
	rib->by_plen[plen]++;
	memset(&rib->recs[r], 0, sizeof(rib->recs[r]));
	rib->recs[r].prefix = prefix;
	rib->recs[r].plen = plen;
	return &rib->recs[r];
enomem:
	rte_errno = ENOMEM;
	return NULL;
}

void
rt_rib_remove(struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	uint32_t n = 0, path[33];
	unsigned int d;

	if (plen > 32)
		return;
	path[0] = 0;
	for (d = 0; d < plen; d++) {
		n = rib->nodes[n].child[bit(prefix, d)];
		if (n == NIL)
			return;
		path[d + 1] = n;
	}
	if (rib->nodes[n].rec == NIL)
		return;
	rec_free(rib, rib->nodes[n].rec);
	rib->nodes[n].rec = NIL;
	idx_delete(rib, idx_slot(rib, prefix, plen));
	rib->by_plen[plen]--;
	for (d = 0; d <= plen; d++)
		rib->nodes[path[d]].count--;
	/* the first node left empty, and the chain below it, go */
	for (d = 1; d <= plen && rib->nodes[path[d]].count != 0; d++)
		;
	if (d > plen)
		return;
	rib->nodes[path[d - 1]].child[bit(prefix, d - 1)] = NIL;
	for (; d <= plen; d++)
		node_free(rib, path[d]);
}

struct rt_route *
rt_rib_parent(const struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	uint32_t n = 0, best = NIL;
	unsigned int d;

	for (d = 0; d < plen && n != NIL; d++) {
		if (rib->nodes[n].rec != NIL)
			best = rib->nodes[n].rec;
		n = rib->nodes[n].child[bit(prefix, d)];
	}
	return best != NIL ? &rib->recs[best] : NULL;
}

struct rt_route *
rt_rib_match(const struct rt_rib *rib, uint32_t ip)
{
	uint32_t n = 0, best = NIL;
	unsigned int d;

	for (d = 0; n != NIL; d++) {
		if (rib->nodes[n].rec != NIL)
			best = rib->nodes[n].rec;
		if (d == 32)
			break;
		n = rib->nodes[n].child[bit(ip, d)];
	}
	return best != NIL ? &rib->recs[best] : NULL;
}

uint32_t
rt_rib_count(const struct rt_rib *rib)
{
	return rib->nodes[0].count;
}

uint32_t
rt_rib_count_plen(const struct rt_rib *rib, uint8_t plen)
{
	return plen <= 32 ? rib->by_plen[plen] : 0;
}

uint32_t
rt_rib_count_within(const struct rt_rib *rib, uint32_t prefix, uint8_t plen)
{
	uint32_t n = plen <= 32 ? node_find(rib, prefix, plen) : NIL;

	return n != NIL ? rib->nodes[n].count : 0;
}

struct list_ctx {
	const struct rt_rib *rib;
	uint32_t skip;
	struct rt_route *out;
	uint32_t max;
	uint32_t got;
};

/* In order: the node's own route, then its 0 side, then its 1 side; whole subtrees skipped by count. */
static void
collect(struct list_ctx *c, uint32_t n)
{
	const struct rib_node *node = &c->rib->nodes[n];
	unsigned int b;

	if (c->got == c->max)
		return;
	if (node->count <= c->skip) {
		c->skip -= node->count;
		return;
	}
	if (node->rec != NIL) {
		if (c->skip > 0)
			c->skip--;
		else
			c->out[c->got++] = c->rib->recs[node->rec];
	}
	for (b = 0; b < 2; b++)
		if (node->child[b] != NIL)
			collect(c, node->child[b]);
}

uint32_t
rt_rib_list(const struct rt_rib *rib, uint32_t prefix, uint8_t plen, uint32_t start,
	struct rt_route *out, uint32_t max)
{
	struct list_ctx c = {.rib = rib, .skip = start, .out = out, .max = max};
	uint32_t n = plen <= 32 ? node_find(rib, prefix, plen) : NIL;

	if (n != NIL && max > 0)
		collect(&c, n);
	return c.got;
}

size_t
rt_rib_memory(const struct rt_rib *rib)
{
	return sizeof(*rib) + (size_t)rib->cap_nodes * sizeof(*rib->nodes) +
	       (size_t)rib->cap_recs * sizeof(*rib->recs);
}

uint32_t
rt_rib_nodes(const struct rt_rib *rib)
{
	return rib->n_nodes - rib->n_free_nodes;
}
