/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_WORKER_SETUP_H
#define RT_WORKER_SETUP_H

/**
 * @file
 * Putting a worker's routing context in service and out of it (RCU
 * registration), on the control path.
 */

#include "rt_table.h"
#include "rt_worker.h"

/**
 * Set up @p w to route with @p t, handing exceptions to @p punt (a ring made
 * by rt_control_add_worker()), reporting quiescent states to the table's RCU
 * as thread @p thread_id (the lcore id: unique among workers, below the
 * table's max_threads), counting drops into @p drops (RT_DROP_MAX counters;
 * NULL = inside @p w). Registers the thread with RCU and puts it online.
 *
 * @return 0 or a negative errno.
 */
int rt_worker_init(struct rt_worker *w, struct rt_table *t, struct rte_ring *punt,
	unsigned int thread_id, uint64_t *drops);

/**
 * The worker stops routing: takes it offline and unregisters it from RCU, so
 * that table updates no longer wait for it.
 */
void rt_worker_fini(struct rt_worker *w);

#endif /* RT_WORKER_SETUP_H */
