/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>

#include "rt_nlfresh.h"

#define NLFRESH_EMPTY 0xff /* no prefix length is this */

struct rt_nlfresh_slot {
	uint32_t prefix;
	uint32_t metric;
	uint8_t plen;
};

static inline uint32_t
fresh_hash(uint32_t prefix, uint8_t plen, uint32_t metric, uint32_t cap)
{
	const uint64_t k = ((uint64_t)prefix << 32 | metric) ^ ((uint64_t)plen << 56);

	return (uint32_t)(((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* The slot of the key, or the empty one where it would go. */
static struct rt_nlfresh_slot *
slot_of(const struct rt_nlfresh *f, uint32_t prefix, uint8_t plen, uint32_t metric)
{
	uint32_t i;

	for (i = fresh_hash(prefix, plen, metric, f->cap); f->slot[i].plen != NLFRESH_EMPTY;
		i = (i + 1) & (f->cap - 1))
		if (f->slot[i].prefix == prefix && f->slot[i].plen == plen &&
			f->slot[i].metric == metric)
			break;
	return &f->slot[i];
}

static int
grow(struct rt_nlfresh *f)
{
	struct rt_nlfresh g = {.cap = f->cap != 0 ? f->cap * 2 : 1024};
	uint32_t i;

	g.slot = malloc(g.cap * sizeof(*g.slot));
	if (g.slot == NULL)
		return -ENOMEM;
	for (i = 0; i < g.cap; i++)
		g.slot[i].plen = NLFRESH_EMPTY;
	for (i = 0; i < f->cap; i++)
		if (f->slot[i].plen != NLFRESH_EMPTY)
			*slot_of(&g, f->slot[i].prefix, f->slot[i].plen, f->slot[i].metric) =
				f->slot[i];
	g.n = f->n;
	free(f->slot);
	*f = g;
	return 0;
}

int
rt_nlfresh_add(struct rt_nlfresh *f, uint32_t prefix, uint8_t plen, uint32_t metric)
{
	struct rt_nlfresh_slot *s;

	/* at most half full: the probes stay short */
	if ((uint64_t)(f->n + 1) * 2 > f->cap && grow(f) < 0) {
		f->overflow = true;
		return -ENOMEM;
	}
	s = slot_of(f, prefix, plen, metric);
	if (s->plen == NLFRESH_EMPTY) {
		*s = (struct rt_nlfresh_slot){.prefix = prefix, .metric = metric, .plen = plen};
		f->n++;
	}
	return 0;
}

bool
rt_nlfresh_has(const struct rt_nlfresh *f, uint32_t prefix, uint8_t plen, uint32_t metric)
{
	if (f->cap == 0)
		return false;
	return slot_of(f, prefix, plen, metric)->plen != NLFRESH_EMPTY;
}

void
rt_nlfresh_clear(struct rt_nlfresh *f)
{
	free(f->slot);
	*f = (struct rt_nlfresh){0};
}

void
rt_nlrecent_add(struct rt_nlrecent *r, uint32_t prefix, uint8_t plen, uint32_t metric, bool del)
{
	r->ev[r->n % RT_NLRECENT_N] = (struct rt_nlrecent_ev){
		.prefix = prefix, .metric = metric, .plen = plen, .del = del};
	r->n++;
}

void
rt_nlrecent_clear(struct rt_nlrecent *r)
{
	r->n = 0;
}

int
rt_nlfresh_seed(struct rt_nlfresh *f, const struct rt_nlrecent *r)
{
	const uint32_t kept = r->n < RT_NLRECENT_N ? r->n : RT_NLRECENT_N;
	uint32_t i, j;
	int ret = 0;

	/* newest first: a key's first sight is its latest event */
	for (i = 0; i < kept; i++) {
		const struct rt_nlrecent_ev *e = &r->ev[(r->n - 1 - i) % RT_NLRECENT_N];
		bool newer = false;

		if (!e->del)
			continue;
		for (j = 0; j < i && !newer; j++) {
			const struct rt_nlrecent_ev *x = &r->ev[(r->n - 1 - j) % RT_NLRECENT_N];

			newer = x->prefix == e->prefix && x->plen == e->plen &&
				x->metric == e->metric;
		}
		if (!newer && rt_nlfresh_add(f, e->prefix, e->plen, e->metric) < 0)
			ret = -ENOMEM;
	}
	return ret;
}
