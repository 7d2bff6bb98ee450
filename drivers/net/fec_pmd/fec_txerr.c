/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * TX errors per frame, for a MAC without a MIB (stats=sw, QEMU's ENET): the
 * reclaim hands over each run of written-back BDs before freeing their
 * mbufs, and the frame's last BD says whether the MAC sent it, as Linux's
 * fec_enet_tx_queue reads it. Out of line, and called only with stats=sw,
 * so with the MIB (the default) the reclaim pays one test per run.
 */

#include <rte_byteorder.h>

#include "fec_tx.h"

static const uint16_t fec_tx_err_bits[FEC_TX_ERR_NB] = {
#define X(k, name, bits) [FEC_TX_ERR_##k] = (bits),
	FEC_TX_ERR_TABLE(X)
#undef X
};

#define FEC_BD_TX_ERRORS (FEC_BD_TX_UN | FEC_BD_TX_LC | FEC_BD_TX_RL)

__rte_noinline void
fec_tx_count_errors(struct fec_txq *txq, uint16_t first, uint16_t n)
{
	uint32_t bytes = txq->frame_bytes;
	uint16_t i, k;

	/* A run may end inside a frame: its bytes so far are kept in the queue. */
	for (i = 0; i < n; i++) {
		const volatile struct fec_bd *bd =
			(const volatile struct fec_bd *)(txq->bd +
							 ((uint32_t)(first + i) << txq->bd_shift));
		uint16_t sc = rte_le_to_cpu_16(bd->sc);

		bytes += rte_le_to_cpu_16(bd->datlen);
		if (!(sc & FEC_BD_L))
			continue;
		if (sc & FEC_BD_TX_ERRORS) {
			/* One reason per frame, the first of the table that matches. */
			for (k = 0; k < FEC_TX_ERR_NB - 1; k++)
				if (sc & fec_tx_err_bits[k])
					break;
			txq->err[k]++;
			txq->err_bytes += bytes;
		}
		bytes = 0;
	}
	txq->frame_bytes = bytes;
}
