/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_GROUP_H
#define RT_GROUP_H

/**
 * @file
 * Stage 2 of a routed burst with the flow stage: flow grouping. flowsort
 * groups the runs of equal keys that the input checks cut (lib/flowsort:
 * on, off, or auto by measured cost), so that the lookup is done once per
 * group; the flow-table hash of every group (or, ungrouped, of every run)
 * is computed and its bucket and entry prefetched before the first lookup
 * (for a key its bucket does not hold, a new flow, the tbl24 line its miss
 * will read instead: on a full table that line is a cache miss too).
 */

#include <stdint.h>

#include <rte_prefetch.h>

#include "flowsort.h"
#include "rt_fib.h"
#include "rt_flowtable.h"
#include "rt_input.h"

/*
 * Second prefetch step of a lookup of hash @p h for key @p key: its entry,
 * or for a key the bucket does not hold (its lookup will miss) the tbl24
 * line the miss will read.
 */
static __rte_always_inline void
rt_group_prefetch_lookup(const struct rt_flow *fl, const struct rt_worker *w,
	const struct flowsort_key *key, uint32_t h)
{
	if (!rt_flow_prefetch_entry(fl, h))
		rt_fib_prefetch(w->fib, __builtin_bswap32(key->dst_addr));
}

/**
 * Group the @p kr runs of a burst's @p k survivors on queue @p q: on return
 * @p hs holds each group's table hash (its bucket and entry prefetched).
 *
 * @return the number of groups (flowsort's runs, fl->fs->runs), or 0 when
 *   flowsort does not group this burst: then every run is its own group, and
 *   @p hs holds each run's hash.
 */
static __rte_always_inline unsigned int
rt_group_burst(struct rt_flow *fl, const struct rt_worker *w, uint16_t q, uint16_t in_port,
	const struct rt_flow_runs *kr, unsigned int k, uint32_t *hs)
{
	unsigned int nb, r;

	nb = flowsort_burst_runs(fl->fs, fl->fq[q], NULL, kr->key, kr->start, kr->n);
	if (nb != 0) {
		const struct flowsort_run *runs = fl->fs->runs;

		fl->stats.grouped_pkts += k;
		/* every group's key is known: overlap the table misses of all of them */
		for (r = 0; r < nb; r++) {
			hs[r] = rt_flow_hash_mix(fl, runs[r].hash, in_port);
			rt_flow_prefetch_way(fl, hs[r]);
		}
		for (r = 0; nb > 1 && r < nb; r++)
			rt_group_prefetch_lookup(fl, w, &runs[r].key, hs[r]);
		return nb;
	}
	fl->stats.ungrouped_pkts += k;
	/*
	 * Runs of equal keys share one lookup (the previous-key hint); as with
	 * groups, all their lookups are prefetched before the first.
	 */
	for (r = 0; r < kr->n; r++) {
		hs[r] = rt_flow_hash(fl, &kr->key[r], in_port);
		rt_flow_prefetch_way(fl, hs[r]);
	}
	for (r = 0; kr->n > 1 && r < kr->n; r++)
		rt_group_prefetch_lookup(fl, w, &kr->key[r], hs[r]);
	return 0;
}

/**
 * The group of each packet of a burst whose runs flowsort grouped into
 * fewer groups than runs: @p group_of gives each run's group (with runs of
 * one packet, already each packet's), @p pgs receives each packet's.
 *
 * @return what the rewrite reads: @p group_of itself when every run is one
 *   packet, else @p pgs.
 */
static __rte_always_inline const uint16_t *
rt_group_of_pkts(
	const struct rt_flow_runs *kr, unsigned int k, const uint16_t *group_of, uint16_t *pgs)
{
	unsigned int r, i;

	if (kr->n == k)
		return group_of;
	for (r = 0; r < kr->n; r++)
		for (i = kr->start[r]; i < kr->start[r + 1]; i++)
			pgs[i] = group_of[r];
	return pgs;
}

#endif /* RT_GROUP_H */
