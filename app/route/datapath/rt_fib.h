/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FIB_H
#define RT_FIB_H

/**
 * @file
 * The router's IPv4 lookup structure as the workers read it: DIR-24-8.
 * tbl24 has one 32-bit entry per /24; an entry either holds the next hop of
 * the longest route covering its whole /24, or points to a tbl8 group of 256
 * entries, one per address of that /24, when a route longer than /24 lies
 * inside it. A lookup is one load, or two for an address under a > /24.
 *
 * Entry layout (ours, not rte_lpm's):
 *
 *	bits  0..23  next hop, or the tbl8 group's index when EXT is set
 *	bit   24     VALID: a route covers the entry
 *	bit   25     EXT: tbl24 only, the entry points to a tbl8 group
 *	bits 26..31  depth: the prefix length of the route written (0..32)
 *
 * Readers take no lock. The writer (app/route/control/rt_fib_ctl.c, one thread
 * at a time) stores every entry with one atomic 32-bit store, fills a tbl8
 * group before it publishes the tbl24 entry pointing to it (release), and
 * recycles a group only after every reader registered with the structure's
 * RCU (rte_rcu_qsbr) has reported a quiescent state: so a reader holding a
 * group index between its two loads never reads another /24's entries.
 * A reader must not report a quiescent state inside a lookup.
 *
 * There is no rule store here: the route records live with the table that
 * owns this structure (the writer's caller), which passes the covering route
 * on delete.
 */

#include <stddef.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_prefetch.h>

#define RT_FIB_NH_BITS     24
#define RT_FIB_NH_MASK     ((1u << RT_FIB_NH_BITS) - 1) /**< also the largest next hop */
#define RT_FIB_VALID       (1u << 24)
#define RT_FIB_EXT         (1u << 25)
#define RT_FIB_DEPTH_SHIFT 26
#define RT_FIB_TBL24_SIZE  (1u << 24)
#define RT_FIB_TBL8_GROUP  256u

/** The entry of a route to @p nh of prefix length @p depth. */
#define RT_FIB_ENTRY(nh, depth) \
	((uint32_t)(nh) | RT_FIB_VALID | ((uint32_t)(depth) << RT_FIB_DEPTH_SHIFT))
/** The prefix length recorded in entry @p e (0 for an empty entry). */
#define RT_FIB_DEPTH(e) ((uint32_t)(e) >> RT_FIB_DEPTH_SHIFT)

/** A lookup structure, as the readers see it (the writer's state is rt_fib_ctl.c's). */
struct rt_fib {
	uint32_t *tbl24;      /**< RT_FIB_TBL24_SIZE entries, index = address >> 8 */
	uint32_t *tbl8;       /**< tbl8_groups * 256 entries */
	uint32_t tbl8_groups; /**< groups in tbl8 */
};

/*
 * The loads are relaxed atomics: each is one untorn 32-bit read, and the tbl8
 * load's address depends on the tbl24 value, which orders it after the
 * writer's release store on every CPU DPDK runs on (what rte_lpm relies on
 * too, with plain loads); an acquire would cost a compiler barrier per entry
 * in the batched form.
 */
static __rte_always_inline uint32_t
rt_fib_tbl24_entry(const struct rt_fib *f, uint32_t ip)
{
	return __atomic_load_n(&f->tbl24[ip >> 8], __ATOMIC_RELAXED);
}

static __rte_always_inline uint32_t
rt_fib_tbl8_entry(const struct rt_fib *f, uint32_t e24, uint32_t ip)
{
	return __atomic_load_n(&f->tbl8[(e24 & RT_FIB_NH_MASK) * RT_FIB_TBL8_GROUP + (ip & 0xff)],
		__ATOMIC_RELAXED);
}

/**
 * The next hop of the longest route covering @p ip (host order), or @p miss
 * when none does.
 */
static __rte_always_inline uint32_t
rt_fib_lookup(const struct rt_fib *f, uint32_t ip, uint32_t miss)
{
	uint32_t e = rt_fib_tbl24_entry(f, ip);

	if (unlikely(e & RT_FIB_EXT))
		e = rt_fib_tbl8_entry(f, e, ip);
	return (e & RT_FIB_VALID) ? (e & RT_FIB_NH_MASK) : miss;
}

/**
 * Prefetch the tbl24 line of @p ip (host order): the first step of a
 * rt_fib_lookup() that will come later (a flow-table miss).
 */
static __rte_always_inline void
rt_fib_prefetch(const struct rt_fib *f, uint32_t ip)
{
	rte_prefetch0(&f->tbl24[ip >> 8]);
}

/** Addresses whose tbl24 lines rt_fib_lookup_bulk() has in flight at once. */
#define RT_FIB_BULK_STEP 32u

/**
 * rt_fib_lookup() for @p n addresses @p ips (host order) into @p hops: in
 * steps of RT_FIB_BULK_STEP, every tbl24 line of the step is prefetched
 * before the first is read, so the step's cache (and, on 4 KiB pages, TLB)
 * misses overlap instead of following one another. An entry that points to
 * a group is followed at once: on a full table fewer than 1 % of the
 * destinations do, and a second prefetch pass for them measured no faster
 * (docs/benchmarks-route.md, "Lookup structure").
 *
 * With @p rec_base (a constant NULL folds it away), the record of each next
 * hop found, rec_base + hop * @p rec_size, is prefetched as soon as it is
 * known, so that the caller's reads of those records (a random line each on
 * a full table) overlap too. A miss prefetches an address outside the
 * records, which a prefetch never faults on; the address is an integer
 * for that reason.
 */
static __rte_always_inline void
rt_fib_lookup_bulk_prefetch(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops,
	unsigned int n, uint32_t miss, const void *rec_base, size_t rec_size)
{
	unsigned int b, i, k;
	uint32_t e, h;

	for (b = 0; b < n; b += k) {
		k = RTE_MIN(n - b, RT_FIB_BULK_STEP);
		for (i = b; i < b + k; i++)
			rte_prefetch0(&f->tbl24[ips[i] >> 8]);
		for (i = b; i < b + k; i++) {
			e = rt_fib_tbl24_entry(f, ips[i]);
			if (unlikely(e & RT_FIB_EXT))
				e = rt_fib_tbl8_entry(f, e, ips[i]);
			h = (e & RT_FIB_VALID) ? (e & RT_FIB_NH_MASK) : miss;
			hops[i] = h;
			if (rec_base != NULL)
				rte_prefetch0((const void *)((uintptr_t)rec_base +
							     (uintptr_t)h * rec_size));
		}
	}
}

/** rt_fib_lookup_bulk_prefetch() without the records' prefetch. */
static inline void
rt_fib_lookup_bulk(
	const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n, uint32_t miss)
{
	rt_fib_lookup_bulk_prefetch(f, ips, hops, n, miss, NULL, 0);
}

#endif /* RT_FIB_H */
