/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FP_OWNER_PATH_H
#define FP_OWNER_PATH_H

/**
 * @file
 * Non-inline wrappers of fragpool's owner-path inline functions, for the
 * disassembly test (check-no-lock.py) and the benchmark's sanity runs.
 */

#include "fragpool.h"

/** fragpool_alloc() out of line. */
void *fp_owner_alloc(struct fragpool *fp, uint32_t len);

/** fragpool_put() out of line. */
void fp_owner_put(struct fragpool *fp, void *frag);

/** fragpool_put_any() out of line. */
void fp_owner_put_any(void *frag);

/** fragpool_alloc_bulk() out of line. */
int fp_owner_alloc_bulk(struct fragpool *fp, void **frags, unsigned int n, uint32_t len);

/** fragpool_put_bulk() out of line. */
void fp_owner_put_bulk(struct fragpool *fp, void *const *frags, unsigned int n);

/** fragpool_mbuf_alloc() out of line. */
struct rte_mbuf *fp_owner_mbuf_alloc(struct fragpool *fp, uint32_t len);

/** fragpool_extbuf_alloc() out of line. */
struct rte_mbuf *fp_owner_extbuf_alloc(
	struct fragpool *fp, struct rte_mempool *hdr_pool, uint32_t len);

/** fragpool_mbuf_share() out of line: has an atomic, the checker's positive control. */
void fp_known_atomic(struct rte_mbuf *m, uint16_t k);

#endif /* FP_OWNER_PATH_H */
