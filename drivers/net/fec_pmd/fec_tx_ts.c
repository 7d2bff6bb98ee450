/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * TX timestamps (timesync): a frame sent with RTE_MBUF_F_TX_IEEE1588_TMST
 * gets ESC.TS (fec_rxtx.c's ESC instance, which also records its last BD in
 * txq->ts_bd); the MAC writes the 1588 counter into that BD's ts word on
 * write-back (Linux reads it in fec_enet_tx_queue). The stamp is claimed by
 * whoever sees the BD written back first, the reclaim (before the BD can be
 * reused) or read_tx_timestamp (fec_tx_ts_poll, which must not wait for a
 * reclaim: tx_burst reclaims only when the ring runs low): a compare and
 * swap on ts_bd, so it is latched once.
 */

#include <rte_byteorder.h>

#include "fec_tx.h"

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
