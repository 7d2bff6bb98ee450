/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Out-of-line copies of fragpool's inline owner path, so that the machine
 * code the compiler makes of them has symbols that check-no-lock.py can find
 * and disassemble. fp_known_atomic() must contain a LOCK prefix: it proves
 * that the checker sees one when there is one.
 */

#include "fp_owner_path.h"

void *
fp_owner_alloc(struct fragpool *fp, uint32_t len)
{
	return fragpool_alloc(fp, len);
}

void
fp_owner_put(struct fragpool *fp, void *frag)
{
	fragpool_put(fp, frag);
}

void
fp_owner_put_any(void *frag)
{
	fragpool_put_any(frag);
}

int
fp_owner_alloc_bulk(struct fragpool *fp, void **frags, unsigned int n, uint32_t len)
{
	return fragpool_alloc_bulk(fp, frags, n, len);
}

void
fp_owner_put_bulk(struct fragpool *fp, void *const *frags, unsigned int n)
{
	fragpool_put_bulk(fp, frags, n);
}

struct rte_mbuf *
fp_owner_mbuf_alloc(struct fragpool *fp, uint32_t len)
{
	return fragpool_mbuf_alloc(fp, len);
}

struct rte_mbuf *
fp_owner_extbuf_alloc(struct fragpool *fp, struct rte_mempool *hdr_pool, uint32_t len)
{
	return fragpool_extbuf_alloc(fp, hdr_pool, len);
}

void
fp_known_atomic(struct rte_mbuf *m, uint16_t k)
{
	/* Takes the atomic add when someone else holds a reference. */
	fragpool_mbuf_share(m, k);
}
