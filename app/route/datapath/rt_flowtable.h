/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FLOWTABLE_H
#define RT_FLOWTABLE_H

/**
 * @file
 * The flow stage of --fwd route: a per-worker exact-match flow table in
 * front of the route, neighbour and filter lookups, fed group by group by
 * lib/flowsort.
 *
 * Key: flowsort's 16-byte key (5-tuple, or 3-tuple for non-TCP/UDP/SCTP)
 * plus the input port. Value: the cached decision (forward out of a port
 * with a destination MAC, hand to the slow path with an exception, or drop
 * with a reason) and the flow's packets, bytes, first and last seen (TSC).
 *
 * Per burst: the RFC 1812 input checks per packet (as rt_route_burst()),
 * reading each survivor's flow key on the way and cutting runs of equal
 * keys; flowsort groups the runs; per group one table lookup, one counter
 * update and one rewrite template (MAC words, output port, MTU); per packet,
 * in arrival order, the TTL, MTU, checksum and MAC stores. A burst flowsort
 * does not group (flowsort = off, or auto mode measuring short groups, or
 * measuring that ungrouped bursts cost less) takes the same steps per run of
 * equal keys (a previous-key hint). In auto mode the stage times the bursts
 * flowsort asks it to (flowsort_queue_timed()) and reports their cost.
 *
 * A miss runs the full lookup: the filter (rt_acl) first, then the LPM and
 * the next hop (an ECMP group's member chosen by the key's hash, rt_ecmp.h,
 * and cached with the flow). Invalidation is by generation: every change of the routing
 * table (routes, neighbour MACs, MTUs: rt_table::gen) or of the filter
 * (rt_acl::gen) bumps a counter, and an entry decided under another sum of
 * the two is a miss. Simple and always correct, at the price of re-deciding
 * every flow once after any change, including changes that do not affect
 * it.
 *
 * The table is set associative: RT_FLOW_WAYS entries per bucket, a 32-bit
 * signature array scanned first, one 64-byte entry read on a match. An entry
 * idle longer than the timeout is aged (a miss; its counters restart); a
 * new flow takes an empty or aged way, else evicts the least recently seen
 * one (counted). Fragments are never cached (flowsort keys them per
 * datagram): each is decided on its own.
 *
 * Threading: one rt_flow per worker lcore, used only by it. The control
 * path reads entries and counters (rt_flow_top(), rt_flow_stats_get())
 * without locks. An entry's key and decision are only rewritten on a miss,
 * inside a per-entry sequence count (rt_flow::seq) that rt_flow_top()
 * checks, so it never shows a torn entry (a key half old, half new, or one
 * flow's counters under another's key). The counters a hit updates (pkts,
 * bytes, last: aligned 64-bit stores by the one writer) are read without it:
 * each value is one the worker wrote, and pkts and bytes may be one group
 * apart. Counter sets (rt_flow_stats_get()) may likewise be one burst old.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_hash_crc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "flowsort.h"
#include "rt_acl_match.h"
#include "rt_worker.h"

#define RT_FLOW_WAYS         8     /**< entries per bucket */
#define RT_FLOW_DEFAULT_SIZE 65536 /**< entries per worker when the conf says 0 */
#define RT_FLOW_DEFAULT_AGE  30    /**< idle seconds before a flow is aged, default */
#define RT_FLOW_CHUNK        64    /**< packets processed per pass */

/*
 * Table bypass (rt_flow_bypass_check()): after every RT_FLOW_BYPASS_WINDOW
 * lookups, if fewer than one in 2^RT_FLOW_BYPASS_HITS_SHIFT hit and no filter
 * rule is loaded, the next RT_FLOW_BYPASS_BURSTS bursts are routed by the
 * router alone; then a window through the table again (the probe).
 */
#define RT_FLOW_BYPASS_WINDOW     2048u /**< lookups per decision */
#define RT_FLOW_BYPASS_HITS_SHIFT 4     /**< bypass below 1 hit in 16 lookups */
#define RT_FLOW_BYPASS_BURSTS     4096u /**< bursts routed without the table per bypass */

_Static_assert(RTE_MAX_ETHPORTS <= 256, "rt_flow_entry keeps ports in a byte");

/** What a cached decision does. */
enum rt_flow_action {
	RT_FLOW_FWD = 0, /**< rewrite with rt_flow_entry::l2 and send out of out_port */
	RT_FLOW_PUNT,    /**< to the slow path; l2 holds RT_PUNT_TAG(exception, next hop) */
	RT_FLOW_DROP,    /**< free and count; l2 holds the rt_drop_reason */
};

/**
 * flow-table = on|off|auto: when the flow stage runs (rt_flow_wanted()).
 * Same order as enum flowsort_mode, so that one name table serves both.
 */
enum rt_flow_table_mode {
	RT_FLOW_TABLE_AUTO = 0, /**< only when something uses it: a filter rule, flowsort = on */
	RT_FLOW_TABLE_ON,       /**< always: the user asked for flow statistics */
	RT_FLOW_TABLE_OFF, /**< never (the control path refuses filter rules and flowsort on) */
};

/** Shift from TSC to rt_flow_way::seen units (about 0.3 us; wraps after about 20 min). */
#define RT_FLOW_SEEN_SHIFT 10

/**
 * A way's signature and coarse last-seen time: a bucket's eight fit in one
 * cache line, so the lookup reads one line before the entry and choosing the
 * least recently seen victim reads no entry at all.
 */
struct rt_flow_way {
	uint32_t sig;  /**< hash | 1; 0 = empty way */
	uint32_t seen; /**< TSC >> RT_FLOW_SEEN_SHIFT of its latest burst */
};

/** One flow: one cache line. */
struct rt_flow_entry {
	uint64_t key[2]; /**< struct flowsort_key words */
	/** FWD: rt_nh::l2 (MAC | RT_NH_F_VALID); PUNT: RT_PUNT_TAG; DROP: rt_drop_reason */
	uint64_t l2;
	uint32_t gen;     /**< generation the decision was taken under */
	uint8_t in_port;  /**< part of the key */
	uint8_t out_port; /**< FWD: output port */
	uint8_t action;   /**< enum rt_flow_action */
	uint8_t rule;     /**< filter counter slot of the rule that matched, or RT_ACL_NO_RULE */
	uint64_t pkts;    /**< packets since installed (or aged) */
	uint64_t bytes;   /**< their bytes, Ethernet header included */
	uint64_t first;   /**< TSC of the first packet */
	uint64_t last;    /**< TSC of the burst of the latest packet */
} __rte_aligned(64);

/** X(field, "name", "description") for every flow-stage counter of a worker. */
#define RT_FLOW_STATS(X)                                                                          \
	X(lookups, "lookups", "flow-table lookups: one per group, or per run of equal keys")      \
	X(hits, "hits", "lookups that found a current decision")                                  \
	X(misses, "misses", "lookups that ran the route + neighbour + filter lookup")             \
	X(new_flows, "new_flows", "misses that installed a flow the table did not hold")          \
	X(invalidated, "invalidated",                                                             \
		"misses on an entry decided before a route, neighbour "                           \
		"or filter change")                                                               \
	X(aged, "aged", "misses on an entry idle longer than the timeout (counters restart)")     \
	X(evictions, "evictions", "live entries replaced because their bucket was full")          \
	X(uncached, "uncached", "fragments, decided one by one and never cached")                 \
	X(grouped_pkts, "grouped_pkts", "packets that went through the stage in flowsort groups") \
	X(ungrouped_pkts, "ungrouped_pkts", "packets that went through it one by one")            \
	X(bypasses, "bypasses", "times nearly every lookup of a window missed: table bypassed")   \
	X(bypassed_pkts, "bypassed_pkts", "packets routed without the table (no flow counted)")

/** Counters of one worker's flow stage. */
struct rt_flow_stats {
#define RT_FLOW_STAT_FIELD(f, name, desc) uint64_t f;
	RT_FLOW_STATS(RT_FLOW_STAT_FIELD)
#undef RT_FLOW_STAT_FIELD
};

/** Number of counters in struct rt_flow_stats. */
#define RT_FLOW_NB_STATS (sizeof(struct rt_flow_stats) / sizeof(uint64_t))

/** One worker's flow stage. */
struct rt_flow {
	struct rt_flow_entry *ent; /**< buckets x RT_FLOW_WAYS entries */
	struct rt_flow_way *way;   /**< their signatures and last-seen times */
	/**
	 * One sequence count per entry: odd while the worker rewrites the entry's
	 * key and decision (install, refresh), so that rt_flow_top() never shows
	 * a torn entry. Written on misses only.
	 */
	uint32_t *seq;
	uint32_t mask;    /**< buckets - 1 */
	uint32_t size;    /**< entries */
	uint64_t timeout; /**< idle TSC cycles before an entry is aged */
	const uint32_t *tbl_gen;
	const struct rt_acl *acl;
	flowsort_hash_t hash_fn;
	void *hash_arg;
	struct flowsort_ctx *fs;
	uint16_t n_queues;
	uint32_t frozen_gen; /**< what tbl_gen points at after rt_flow_detach() */
	uint8_t mode;        /**< enum flowsort_mode of its queues */
	uint8_t table;       /**< enum rt_flow_table_mode */
	/**
	 * The stage runs whatever the filter holds: flow-table = on, or
	 * flow-table = auto with flowsort = on (rt_flow_table_always()).
	 */
	bool always;
	uint32_t bypass_left; /**< bursts still to route without the table */
	uint64_t win_lookups; /**< stats.lookups at the start of the bypass window */
	uint64_t win_hits;    /**< stats.hits then */
	struct rt_flow_stats stats;
	uint64_t rule_pkts[RT_ACL_MAX_RULES];  /**< packets per filter slot */
	uint32_t rule_epoch[RT_ACL_MAX_RULES]; /**< rt_acl::slot_epoch these counts belong to */
	struct flowsort_queue *fq[];           /**< one per RX queue */
};

/** An entry idle longer than the timeout at @p now (last may be a little after now). */
static inline bool
rt_flow_aged(const struct rt_flow *fl, const struct rt_flow_entry *e, uint64_t now)
{
	return (int64_t)(now - e->last) > (int64_t)fl->timeout;
}

/** @internal Miss: decide for @p k and install it (or refresh @p e); never NULL. */
struct rt_flow_entry *__rt_flow_miss(struct rt_flow *fl, struct rt_worker *w,
	const struct flowsort_key *k, uint16_t in_port, uint32_t hash, struct rt_flow_entry *e,
	uint32_t gen, uint64_t now);

/** @internal Decide for @p k into @p e without caching (fragments). */
void __rt_flow_decide(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k,
	uint16_t in_port, struct rt_flow_entry *e);

/** Whether no filter rule is loaded: the table gives only counters then. */
static inline bool
rt_flow_no_filter(const struct rt_flow *fl)
{
	return fl->acl == NULL || __atomic_load_n(&fl->acl->n, __ATOMIC_RELAXED) == 0;
}

/**
 * Whether the stage runs whatever the filter holds (rt_flow::always), from
 * flow-table = @p table and flowsort = @p mode: flow-table = on (the user
 * asked for flow statistics), or auto with flowsort = on (grouping sits in
 * front of the table and has no other use). flow-table = off: never.
 */
static inline bool
rt_flow_table_always(enum rt_flow_table_mode table, enum flowsort_mode mode)
{
	return table == RT_FLOW_TABLE_ON ||
	       (table == RT_FLOW_TABLE_AUTO && mode == FLOWSORT_MODE_ON);
}

/**
 * Whether the stage has work to do (once per burst): something uses the
 * table (rt_flow::always), or the filter has rules (the filter's verdict is
 * cached per flow; a rule is never skipped, whatever flow-table says: the
 * control path refuses rules with flow-table = off). Otherwise, the default
 * (flow-table = auto, flowsort = auto, no filter), the app routes with
 * rt_route_burst() alone: the flow table on its own costs about as much as
 * the whole router (docs/benchmarks-flowstage.md) and would give only
 * statistics nobody asked for.
 */
static inline bool
rt_flow_wanted(const struct rt_flow *fl)
{
	return fl->always || !rt_flow_no_filter(fl);
}

/**
 * Whether to route the next burst without the table, by the router alone:
 * rt_flow_bypass_check() found that nearly every lookup missed (every packet
 * a new flow, or more flows than the table holds), where the table can only
 * add its lookup, install and eviction to the router's work. Never with a
 * filter rule (the table applies it). Counts the burst's @p n packets.
 */
static inline bool
rt_flow_bypass(struct rt_flow *fl, uint16_t n)
{
	if (likely(fl->bypass_left == 0) || !rt_flow_no_filter(fl))
		return false;
	fl->bypass_left--;
	fl->stats.bypassed_pkts += n;
	return true;
}

/**
 * After a burst through the table: at the end of each window of
 * RT_FLOW_BYPASS_WINDOW lookups, start a bypass (rt_flow_bypass()) if fewer
 * than one lookup in 2^RT_FLOW_BYPASS_HITS_SHIFT hit. The window after a
 * bypass is its probe: flows that repeat hit again (the entries installed
 * before stay until they age) and end it.
 */
static inline void
rt_flow_bypass_check(struct rt_flow *fl)
{
	uint64_t l = fl->stats.lookups - fl->win_lookups;
	uint64_t h = fl->stats.hits - fl->win_hits;

	if (likely(l < RT_FLOW_BYPASS_WINDOW))
		return;
	/* a stats reset (control path) leaves lookups below the window's start */
	if (fl->stats.lookups >= fl->win_lookups && fl->stats.hits >= fl->win_hits &&
		(h << RT_FLOW_BYPASS_HITS_SHIFT) < l && rt_flow_no_filter(fl)) {
		fl->bypass_left = RT_FLOW_BYPASS_BURSTS;
		fl->stats.bypasses++;
	}
	fl->win_lookups = fl->stats.lookups;
	fl->win_hits = fl->stats.hits;
}

/**
 * The table's hash from @p kh, the key's flowsort hash (flowsort_hash_sw(), or
 * the injected hash_fn): flowsort computes it once per group, so a grouped
 * burst hashes each group once in all.
 */
static inline uint32_t
rt_flow_hash_mix(const struct rt_flow *fl, uint32_t kh, uint16_t in_port)
{
	if (unlikely(fl->hash_fn != NULL))
		return kh;
	return rte_hash_crc_4byte(in_port, kh);
}

/** The table's hash of a key and input port. */
static inline uint32_t
rt_flow_hash(const struct rt_flow *fl, const struct flowsort_key *k, uint16_t in_port)
{
	if (unlikely(fl->hash_fn != NULL))
		return fl->hash_fn(k, fl->hash_arg);
	return rt_flow_hash_mix(fl, flowsort_hash_sw(k), in_port);
}

/** Current generation: table changes plus filter changes. */
static inline uint32_t
rt_flow_gen(const struct rt_flow *fl)
{
	uint32_t g = __atomic_load_n(fl->tbl_gen, __ATOMIC_ACQUIRE);

	if (fl->acl != NULL)
		g += rt_acl_gen(fl->acl);
	return g;
}

/** Prefetch the bucket line of hash @p h (first step of a batch of lookups). */
static inline void
rt_flow_prefetch_way(const struct rt_flow *fl, uint32_t h)
{
	rte_prefetch0(&fl->way[(h & fl->mask) * RT_FLOW_WAYS]);
}

/**
 * Prefetch the entry whose signature matches @p h, if any (second step).
 *
 * @return false when no way has the signature: the lookup will miss (a new
 *   flow), and the caller can prefetch what the miss reads instead.
 */
static inline bool
rt_flow_prefetch_entry(const struct rt_flow *fl, uint32_t h)
{
	const uint32_t b = (h & fl->mask) * RT_FLOW_WAYS;
	unsigned int i;

	for (i = 0; i < RT_FLOW_WAYS; i++) {
		if (fl->way[b + i].sig == (h | 1)) {
			rte_prefetch0(&fl->ent[b + i]);
			return true;
		}
	}
	return false;
}

/**
 * Find the flow @p k from @p in_port, whose rt_flow_hash() is @p h, deciding
 * and installing it on a miss. The entry's counters are the caller's to update.
 *
 * @return the entry (never NULL), valid until the next lookup.
 */
static inline struct rt_flow_entry *
rt_flow_lookup(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k,
	uint16_t in_port, uint32_t h, uint32_t gen, uint64_t now)
{
	const uint32_t b = (h & fl->mask) * RT_FLOW_WAYS;
	const uint32_t sig = h | 1;
	struct rt_flow_way *s = &fl->way[b];
	unsigned int i;

	/*
	 * A plain loop, not one vector compare of the whole line: with the table
	 * far from full a flow sits in its bucket's first ways, and measured, the
	 * loop's early exit costs fewer instructions.
	 */
	fl->stats.lookups++;
	for (i = 0; i < RT_FLOW_WAYS; i++) {
		struct rt_flow_entry *e;

		if (s[i].sig != sig)
			continue;
		e = &fl->ent[b + i];
		if (e->key[0] != k->w[0] || e->key[1] != k->w[1] || e->in_port != in_port)
			continue;
		if (likely(e->gen == gen && now - e->last <= fl->timeout)) {
			fl->stats.hits++;
			s[i].seen = (uint32_t)(now >> RT_FLOW_SEEN_SHIFT);
			return e;
		}
		return __rt_flow_miss(fl, w, k, in_port, h, e, gen, now);
	}
	return __rt_flow_miss(fl, w, k, in_port, h, NULL, gen, now);
}

/** Add @p n packets to the filter rule in slot @p s (restarting a reused slot). */
static inline void
rt_flow_rule_count(struct rt_flow *fl, uint8_t s, uint64_t n)
{
	uint32_t ep = __atomic_load_n(&fl->acl->slot_epoch[s], __ATOMIC_RELAXED);

	if (unlikely(fl->rule_epoch[s] != ep)) {
		fl->rule_epoch[s] = ep;
		fl->rule_pkts[s] = 0;
	}
	fl->rule_pkts[s] += n;
}

#endif /* RT_FLOWTABLE_H */
