/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */
#ifndef FEC_CHECK_H
#define FEC_CHECK_H

#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_model.h"

/*
 * The net_fec tests' assertion and frame helpers. The assertion: counts into the including file's `checks` and `failures`
 * (each test binary keeps its own) and prints a TAP "not ok" line with the reason.
 */
#define CHECK(cond, ...)                                                           \
	do {                                                                       \
		checks++;                                                          \
		if (!(cond)) {                                                     \
			failures++;                                                \
			printf("not ok - %s:%d: %s: ", __func__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                       \
			printf("\n");                                              \
		}                                                                  \
	} while (0)

/*
 * Send @p n (at most 64) 60-byte frames to @p dst from @p pool on queue 0 of
 * @p port: how many the PMD took (the rest are freed, as are all of them
 * when the pool runs dry).
 */
static inline unsigned int
fec_test_tx(struct rte_mempool *pool, uint16_t port, const uint8_t *dst, unsigned int n)
{
	struct rte_mbuf *m[64];
	unsigned int i, sent;

	n = RTE_MIN(n, (unsigned int)RTE_DIM(m));
	if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		memset(rte_pktmbuf_mtod(m[i], uint8_t *), 0, 60);
		memcpy(rte_pktmbuf_mtod(m[i], uint8_t *), dst, 6);
		m[i]->data_len = m[i]->pkt_len = 60;
	}
	sent = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(m[i]);
	return sent;
}

/* Take every frame the MAC of @p model has put on its wire: how many. */
static inline unsigned int
fec_test_drain_wire(struct fec_model *model)
{
	uint8_t buf[2048];
	unsigned int n = 0;

	while (fec_model_tx_frame(model, buf, sizeof(buf)) >= 0)
		n++;
	return n;
}

#endif /* FEC_CHECK_H */
