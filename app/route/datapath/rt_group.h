/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_GROUP_H
#define RT_GROUP_H

/**
 * @file
 * Stage 2 of a routed burst with the flow stage: flow grouping. flowsort
 * decides per burst whether to group (lib/flowsort: on, off, or auto by
 * measured cost); grouped, the input checks give it each packet's key as
 * they read it (flowsort_stream_key()), so that the lookup is done once per
 * group; ungrouped, they cut runs of equal keys, one lookup per run. The
 * flow-table hash of every group (or, ungrouped, of every run)
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
 * End the grouping of burst @p b whose @p k survivors' keys went to
 * flowsort_stream_key() (rt_flow_input_checks() with flowsort's stream @p st),
 * on its queue b->q: on return @p hs holds each group's table hash (its
 * bucket and entry prefetched), fl->fs->group_of each packet's group.
 *
 * @return the number of groups (flowsort's runs, fl->fs->runs).
 */
static __rte_always_inline unsigned int
rt_group_end(const struct rt_burst_ctx *b, const struct flowsort_stream *st, unsigned int k,
	uint32_t *hs)
{
	struct rt_flow *fl = b->fl;
	const struct rt_worker *w = b->w;
	const uint16_t q = b->q, in_port = b->in_port;
	const struct flowsort_run *runs = fl->fs->runs;
	unsigned int nb, r;

	nb = flowsort_stream_end(fl->fs, fl->fq[q], st);
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

/**
 * Burst @p b, which flowsort does not group: every run of equal keys of the
 * @p kr runs of its @p k survivors is its own group. On return @p hs holds
 * each run's table hash (its bucket and entry prefetched).
 */
static __rte_always_inline void
rt_group_runs(
	const struct rt_burst_ctx *b, const struct rt_flow_runs *kr, unsigned int k, uint32_t *hs)
{
	struct rt_flow *fl = b->fl;
	const struct rt_worker *w = b->w;
	const uint16_t in_port = b->in_port;
	unsigned int r;

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
}

#endif /* RT_GROUP_H */
