/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_RIB_H
#define RT_RIB_H

/**
 * @file
 * The table's route records, in a binary trie keyed by (prefix, length):
 * the control path's one index of routes, of any number.
 *
 * Exact find is one probe of a hash index of (prefix, length) beside the
 * trie (a cache line or two, where a walk to a /24 reads 25 nodes); insert
 * and remove walk at most 32 nodes, the covering route of a prefix (the one
 * that takes over when it goes) and the longest match of an address
 * likewise: their cost does not depend on how many routes there are. Every node counts the routes below it, so the k-th route in order
 * is found in 32 steps too, and a reader pages through a million routes in
 * pages of any size at the same cost per page. The order is (prefix,
 * length): 10.0.0.0/8, 10.0.0.0/16, 10.0.1.0/24, 10.1.0.0/16, ...
 *
 * Nodes and records live in the C heap, grown as needed (not in DPDK
 * memory: the workers never read them, and a full table must not depend on
 * the -m the EAL was given). Not thread safe: the table's lock serialises
 * every use.
 */

#include <stddef.h>
#include <stdint.h>

#include "rt_route.h"

struct rt_rib;

/** Create an empty record store, or NULL (ENOMEM). */
struct rt_rib *rt_rib_create(void);

/** Free @p rib (NULL is fine). */
void rt_rib_free(struct rt_rib *rib);

/**
 * The record of @p prefix/@p plen, or NULL. The pointer is valid until the
 * next insert or remove.
 */
struct rt_route *rt_rib_find(const struct rt_rib *rib, uint32_t prefix, uint8_t plen);

/**
 * Add a record for @p prefix/@p plen (host bits clear), its other fields
 * zero, for the caller to fill.
 *
 * @return the record (valid until the next insert or remove), or NULL with
 *   rte_errno = EEXIST (already there) or ENOMEM.
 */
struct rt_route *rt_rib_insert(struct rt_rib *rib, uint32_t prefix, uint8_t plen);

/** Remove the record of @p prefix/@p plen (nothing if there is none). */
void rt_rib_remove(struct rt_rib *rib, uint32_t prefix, uint8_t plen);

/**
 * The longest route strictly shorter than @p plen that covers
 * @p prefix/@p plen (what takes over when it goes), or NULL.
 */
struct rt_route *rt_rib_parent(const struct rt_rib *rib, uint32_t prefix, uint8_t plen);

/** The longest route covering address @p ip, or NULL. */
struct rt_route *rt_rib_match(const struct rt_rib *rib, uint32_t ip);

/** Number of routes. */
uint32_t rt_rib_count(const struct rt_rib *rib);

/** Number of routes of prefix length @p plen (0..32). */
uint32_t rt_rib_count_plen(const struct rt_rib *rib, uint8_t plen);

/** Number of routes inside @p prefix/@p plen (itself included). */
uint32_t rt_rib_count_within(const struct rt_rib *rib, uint32_t prefix, uint8_t plen);

/**
 * Copy, in order, up to @p max routes inside @p prefix/@p plen (0/0: all),
 * starting with the @p start-th of them, into @p out.
 *
 * @return the number copied.
 */
uint32_t rt_rib_list(const struct rt_rib *rib, uint32_t prefix, uint8_t plen, uint32_t start,
	struct rt_route *out, uint32_t max);

/** Trie nodes in use (the root included): 1 when empty, whatever it held before. */
uint32_t rt_rib_nodes(const struct rt_rib *rib);

/** Bytes of heap the store holds (nodes and records, allocated capacity). */
size_t rt_rib_memory(const struct rt_rib *rib);

#endif /* RT_RIB_H */
