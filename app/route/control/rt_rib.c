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
	if (node_alloc(rib) != 0) { /* the root */
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
	uint32_t n = plen <= 32 ? node_find(rib, prefix, plen) : NIL;

	return n != NIL && rib->nodes[n].rec != NIL ? &rib->recs[rib->nodes[n].rec] : NULL;
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
