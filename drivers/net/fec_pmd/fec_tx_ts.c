/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * What the reclaim reads from a frame's last BD besides ownership, out of
 * line (fec_tx_reclaim_slow): its stamp and its errors.
 *
 * TX timestamps (timesync): a frame sent with RTE_MBUF_F_TX_IEEE1588_TMST
 * gets ESC.TS (fec_rxtx.c's ESC instance, which also records its last BD in
 * txq->ts_bd); the MAC writes the 1588 counter into that BD's ts word on
 * write-back (Linux reads it in fec_enet_tx_queue). The stamp is claimed by
 * whoever sees the BD written back first, the reclaim (before the BD can be
 * reused) or read_tx_timestamp (fec_tx_ts_poll, which must not wait for a
 * reclaim: tx_burst reclaims only when the ring runs low): a compare and
 * swap on ts_bd, so it is latched once.
 *
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

void
fec_tx_ts_conf(const struct rte_eth_dev *dev, struct fec_txq *txq)
{
	const struct fec_priv *fep = dev->data->dev_private;

	txq->ts_ptp = fep->ex && fep->ptp.timesync;
	/*
	 * With timesync the ESC instance runs without the checksum offloads
	 * too: an application must not set checksum flags it did not
	 * configure (tx_prepare refuses them).
	 */
	txq->esc_ol = txq->csum || txq->ts_ptp;
	txq->reclaim_slow = txq->count_errs || txq->ts_ptp;
}

/*
 * The stamp in BD bd (written back, its ts read after its status), latched
 * if nobody claimed it yet.
 */
static void
ts_claim(struct fec_txq *txq, uint32_t bd)
{
	const volatile struct fec_bd_ex *bx =
		(const volatile struct fec_bd_ex *)(txq->bd + (bd << txq->bd_shift));
	uint32_t ts = rte_le_to_cpu_32(bx->ts), want = bd;
	struct fec_ptp_tc tc;

	if (!__atomic_compare_exchange_n(
		    &txq->ts_bd, &want, FEC_TS_BD_NONE, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;
	fec_ptp_snapshot(&txq->fep->ptp, &tc);
	fec_ptp_latch_set(&txq->fep->ptp.tx, fec_ptp_extend(&tc, ts));
}

void
fec_tx_reclaim_slow(struct fec_txq *txq, uint16_t first, uint16_t n)
{
	uint32_t bd;

	if (txq->count_errs)
		fec_tx_count_errors(txq, first, n);
	if (!txq->ts_ptp)
		return;
	/* A run does not wrap: it ends at the ring's last BD at the latest. */
	bd = __atomic_load_n(&txq->ts_bd, __ATOMIC_RELAXED);
	if (bd != FEC_TS_BD_NONE && bd - first < n)
		ts_claim(txq, bd);
}

void
fec_tx_ts_poll(struct rte_eth_dev *dev)
{
	uint16_t q;

	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);
		const volatile struct fec_bd_ex *bx;
		uint32_t bd;

		if (txq == NULL || !txq->ex)
			continue;
		bd = __atomic_load_n(&txq->ts_bd, __ATOMIC_ACQUIRE);
		if (bd == FEC_TS_BD_NONE || bd >= txq->nb_desc)
			continue;
		bx = (const volatile struct fec_bd_ex *)(txq->bd + (bd << txq->bd_shift));
		/* Written back: R clear and BDU set (a ring reset clears BDU). */
		if ((rte_le_to_cpu_16(bx->bd.sc) & FEC_BD_R) ||
			!(rte_le_to_cpu_32(bx->bdu) & FEC_BD_EX_BDU))
			continue;
		rte_io_rmb();
		ts_claim(txq, bd);
	}
}
