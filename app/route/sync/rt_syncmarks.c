/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_common.h>

#include "rt_syncmarks.h"

static inline uint64_t
mark_key(uint32_t prefix, uint8_t plen)
{
	return ((uint64_t)prefix << 8 | plen) + 1;
}

static inline uint32_t
mark_hash(uint64_t k, uint32_t cap)
{
	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

bool
rt_syncmarks_has(const struct rt_syncmarks *m, uint32_t prefix, uint8_t plen)
{
	const uint64_t k = mark_key(prefix, plen);
	uint32_t i;

	if (m->cap == 0)
		return false;
	for (i = mark_hash(k, m->cap); m->slot[i] != 0; i = (i + 1) & (m->cap - 1))
		if (m->slot[i] == k)
			return true;
	return false;
}

static void
put_key(struct rt_syncmarks *m, uint64_t k)
{
	uint32_t i;

	for (i = mark_hash(k, m->cap); m->slot[i] != 0; i = (i + 1) & (m->cap - 1))
		if (m->slot[i] == k)
			return;
	m->slot[i] = k;
	m->n++;
}

int
rt_syncmarks_add(struct rt_syncmarks *m, uint32_t prefix, uint8_t plen)
{
	if ((uint64_t)(m->n + 1) * 2 > m->cap) {
		struct rt_syncmarks g = {.cap = m->cap != 0 ? m->cap * 2 : 1024};
		uint32_t i;

		g.slot = calloc(g.cap, sizeof(*g.slot));
		if (g.slot == NULL) {
			m->overflow = true;
			return -ENOMEM;
		}
		for (i = 0; i < m->cap; i++)
			if (m->slot[i] != 0)
				put_key(&g, m->slot[i]);
		g.overflow = m->overflow;
		free(m->slot);
		*m = g;
	}
	put_key(m, mark_key(prefix, plen));
	return 0;
}

void
rt_syncmarks_clear(struct rt_syncmarks *m)
{
	free(m->slot);
	*m = (struct rt_syncmarks){0};
}

int
rt_syncmarks_sweep(struct rt_table *t, enum rt_route_src src, const struct rt_syncmarks *m)
{
	struct rt_route page[256];
	struct rt_route *stale = NULL;
	uint32_t n_stale = 0, cap = 0, start = 0, n, got, i;
	char err[RT_ERR_LEN];
	int swept = 0;

	if (m->overflow)
		return -ENOMEM;
	do {
		n = rt_route_list_at(t, start, page, RTE_DIM(page));
		got = start < n ? RTE_MIN(n - start, (uint32_t)RTE_DIM(page)) : 0;
		for (i = 0; i < got; i++) {
			if (page[i].src != src || rt_syncmarks_has(m, page[i].prefix, page[i].plen))
				continue;
			if (n_stale == cap) {
				uint32_t c = cap != 0 ? cap * 2 : 64;
				struct rt_route *g = realloc(stale, c * sizeof(*g));

				if (g == NULL)
					break;
				stale = g;
				cap = c;
			}
			stale[n_stale++] = page[i];
		}
		start += got;
	} while (got == RTE_DIM(page));
	for (i = 0; i < n_stale; i++)
		if (rt4_route_del(t,
			    &(const struct rt4_route_req){
				    .prefix = stale[i].prefix, .plen = stale[i].plen, .src = src},
			    err, sizeof(err)) == 0)
			swept++;
	free(stale);
	return swept;
}
