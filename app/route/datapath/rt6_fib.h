/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT6_FIB_H
#define RT6_FIB_H

/**
 * @file
 * The IPv6 longest-prefix match the workers run: DPDK's rte_lpm6, chosen by
 * measurement against rte_fib6 (docs/benchmarks-route6.md: as cheap a lookup
 * as rte_fib6's scalar one, a 500 k-route table loaded in a quarter of the
 * time, cheaper updates, half the memory). It has no depth 0: the table keeps
 * the ::/0 route's next hop beside it (rt6_table::default_nh), which a miss
 * returns, as IPv4's table does. Its next hop is 21 bits, which holds every
 * next-hop index (max-next-hops is below 2^21: rt6_table_create() checks).
 * The control path writes it (rt6_table.h); this header only reads.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_lpm6.h>

#include "dpdk_compat.h"
#include "rt_addr6.h"

/** Next hops rte_lpm6 can hold: its entries keep 21 bits of one. */
#define RT6_FIB_NH_MAX (1u << 21)

/**
 * Longest-prefix match of the @p n addresses @p dst (network order, as in the
 * headers: 16 bytes each, packed) in @p lpm: @p hop gets each next hop, @p defv
 * (the ::/0 route's, or RT_NH_MISS) where no route matches.
 */
static __rte_always_inline void
rt6_fib_lookup_bulk(const struct rte_lpm6 *lpm, const struct rt6_addr *dst, uint32_t *hop,
	unsigned int n, uint32_t defv)
{
	int32_t *h = (int32_t *)hop; /* rte_lpm6 writes int32_t, -1 for a miss, in place */
	unsigned int i;

	/* the array is only read: 22.11's prototype lacks the const */
	rte_lpm6_lookup_bulk_func(lpm, FWD_COMPAT_IP6_ARRAY((uintptr_t)dst), h, n);
	for (i = 0; i < n; i++)
		if (unlikely(h[i] < 0))
			hop[i] = defv;
}

/** rt6_fib_lookup_bulk() of one address. */
static inline uint32_t
rt6_fib_lookup(const struct rte_lpm6 *lpm, const struct rt6_addr *dst, uint32_t defv)
{
	uint32_t h;

	rt6_fib_lookup_bulk(lpm, dst, &h, 1, defv);
	return h;
}

#endif /* RT6_FIB_H */
