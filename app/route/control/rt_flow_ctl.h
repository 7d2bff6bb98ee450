/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FLOW_CTL_H
#define RT_FLOW_CTL_H

/**
 * @file
 * The flow stage's control path: creating and freeing a worker's flow table
 * (datapath/rt_flowtable.h), its flowsort mode, its counters and the biggest
 * flows for the shell and telemetry.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flowsort.h"
#include "rt_acl.h"
#include "rt_flowtable.h"

/** Parameters of rt_flow_create(). Zero-filled gives the defaults. */
struct rt_flow_conf {
	uint32_t size;           /**< entries, rounded up to a power of 2 (>= 8); 0 = default */
	double age_s;            /**< idle seconds before an entry is aged; 0 = default */
	enum flowsort_mode mode; /**< flowsort = on|off|auto for every queue */
	/** flow-table = on|off|auto: when the stage runs (rt_flow_wanted()) */
	enum rt_flow_table_mode table;
	uint16_t n_queues;        /**< RX queues the worker polls (>= 1) */
	int socket;               /**< NUMA socket */
	const uint32_t *tbl_gen;  /**< &rt_table::gen */
	const struct rt_acl *acl; /**< the filter, or NULL */
	/** hash for both the grouping and the table (tests force collisions); NULL = CRC32-C */
	flowsort_hash_t hash_fn;
	void *hash_arg; /**< passed to hash_fn */
};

/**
 * Create a worker's flow stage.
 *
 * @return it, or NULL with rte_errno set (EINVAL, ENOMEM).
 */
struct rt_flow *rt_flow_create(const struct rt_flow_conf *conf);

/** Free @p fl (NULL is fine). */
void rt_flow_free(struct rt_flow *fl);

/**
 * The routing table and the filter are about to be freed: keep @p fl
 * readable (rt_flow_top(), counters) without them. No packet may go through
 * @p fl afterwards.
 */
void rt_flow_detach(struct rt_flow *fl);

/**
 * Change the flowsort mode of every queue (from the worker, or while it is
 * stopped).
 *
 * @return 0 or -EINVAL.
 */
int rt_flow_set_mode(struct rt_flow *fl, enum flowsort_mode mode);

/**
 * Change when the stage runs (flow-table = on|off|auto; rt_flow_wanted()),
 * while the worker is stopped.
 *
 * @return 0 or -EINVAL.
 */
int rt_flow_set_table(struct rt_flow *fl, enum rt_flow_table_mode table);

/**
 * Parse a flow-table value: "on", "off" or "auto".
 *
 * @return 0, or -EINVAL with @p err set.
 */
int rt_flow_table_parse(const char *s, enum rt_flow_table_mode *table, char *err, size_t errlen);

/** "on", "off" or "auto". */
const char *rt_flow_table_name(enum rt_flow_table_mode table);

/**
 * Parse "on", "off" or "auto".
 *
 * @return 0, or -EINVAL with @p err set.
 */
int rt_flow_mode_parse(const char *s, enum flowsort_mode *mode, char *err, size_t errlen);

/** "on", "off" or "auto". */
const char *rt_flow_mode_name(enum flowsort_mode mode);

/** Name of the i-th counter of struct rt_flow_stats, or NULL. */
const char *rt_flow_stats_name(unsigned int i);

/** Copy @p fl's counters into @p st. */
void rt_flow_stats_get(const struct rt_flow *fl, struct rt_flow_stats *st);

/**
 * Zero @p fl's counters: the flow-stage counters, its queues' flowsort
 * counters, the filter rules' packet counts and every flow's packets and
 * bytes (a flow then shows up again with its next packet). Only while the
 * worker is stopped: they are its counters.
 */
void rt_flow_stats_reset(struct rt_flow *fl);

/** Sum of the flowsort counters of @p fl's queues. */
void rt_flow_sort_stats_get(const struct rt_flow *fl, struct flowsort_stats *st);

/**
 * Packets the filter rule in counter slot @p slot matched, summed over the
 * @p n flow stages @p fl (workers whose count belongs to an older rule in the
 * slot are left out).
 */
uint64_t rt_flow_rule_pkts(
	struct rt_flow *const *fl, unsigned int n, const struct rt_acl *acl, uint8_t slot);

/** How rt_flow_top() orders flows. */
enum rt_flow_order {
	RT_FLOW_BY_PKTS,
	RT_FLOW_BY_BYTES,
};

/** A flow as rt_flow_top() reports it. */
struct rt_flow_info {
	struct flowsort_key key;
	uint16_t in_port;
	uint16_t out_port;
	uint8_t action;  /**< enum rt_flow_action */
	bool current;    /**< decided under the current generation */
	uint32_t detail; /**< PUNT: RT_PUNT_TAG; DROP: rt_drop_reason */
	uint64_t pkts;
	uint64_t bytes;
	uint64_t first;     /**< TSC */
	uint64_t last;      /**< TSC */
	unsigned int table; /**< index of its table in the array given */
};

/**
 * The @p max biggest flows of the @p n tables @p fl, by packets or bytes,
 * biggest first; entries idle longer than the timeout at @p now are left out.
 *
 * @return the number written to @p out.
 */
unsigned int rt_flow_top(struct rt_flow *const *fl, unsigned int n, enum rt_flow_order by,
	uint64_t now, struct rt_flow_info *out, unsigned int max);

/**
 * Live entries of @p fl at @p now (not aged out).
 */
uint32_t rt_flow_count(const struct rt_flow *fl, uint64_t now);

#endif /* RT_FLOW_CTL_H */
