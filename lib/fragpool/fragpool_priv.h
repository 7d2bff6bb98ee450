/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FRAGPOOL_PRIV_H
#define FRAGPOOL_PRIV_H

/**
 * @file
 * Internals shared by the files of lib/fragpool; not installed, not for users.
 */

#include <rte_log.h>

#include "fragpool.h"

extern int fragpool_logtype;

#define FP_LOG(level, ...) rte_log(RTE_LOG_##level, fragpool_logtype, "fragpool: " __VA_ARGS__)

/**
 * Create fp->mbuf_pool: an empty mempool with the "fragpool" ops, so that mbufs living in
 * fragments go back to their fragpool through rte_mempool_put().
 *
 * @param fp
 *   Pool being created.
 * @return
 *   0 or a negative errno.
 */
int fragpool_mbuf_pool_create(struct fragpool *fp);

#endif /* FRAGPOOL_PRIV_H */
