/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Queue control: start/stop, descriptor status, tx_done_cleanup, queue info.
 * Queue n is ring n of the MAC (1 ring, or 3 on the AVB IPs), each with its
 * own BD ring and doorbells; what follows holds for every ring.
 *
 * A ring has no enable bit of its own (only ECR.ETHEREN, which takes the whole
 * MAC down and resets both BD pointers), and software cannot clear RDAR/TDAR:
 * any write sets them. So a queue is stopped the way the reference manual lets
 * a ring run dry: RX stops giving BDs back, the uDMA fills what it still owns
 * and clears RDAR itself (further frames are MAC drops, counted by the MIB);
 * TX lets the ring drain, and what is still on it then is taken off after a
 * graceful stop (TCR.GTS → EIR.GRA), when the uDMA no longer reads it. No
 * buffer the MAC may still write is ever freed: RX buffers stay attached to
 * their BDs until dev_stop clears ETHEREN.
 */

#include <errno.h>

#include <rte_cycles.h>

#include "fec_backend.h"
#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_tx.h"

/* How long a TX stop waits for the ring to drain (frames of 1518 bytes at 10 Mb/s: ~1.2 ms each). */
#define FEC_TX_DRAIN_US 20000
#define FEC_GRA_US      2000

static inline volatile struct fec_bd *
bd_at(volatile uint8_t *base, uint8_t shift, unsigned int i)
{
	return (volatile struct fec_bd *)(base + ((uint32_t)i << shift));
}

/*
 * Time passes for the MAC: on the model in step mode nothing moves unless it
 * is stepped, so a wait loop steps it (harmless in thread mode).
 */
static void
fec_wait_tick(const struct fec_priv *fep)
{
	fep->be->wait_tick(fep);
}

/* A BD the MAC wrote (a frame or part of one); a parked BD has neither. */
static inline bool
rx_bd_written(uint16_t sc, uint16_t datlen)
{
	return (sc & FEC_BD_L) != 0 || datlen != 0;
}

static void
rx_bd_arm(struct fec_rxq *rxq, unsigned int i)
{
	volatile struct fec_bd *bd = bd_at(rxq->bd, rxq->bd_shift, i);
	const struct rte_mbuf *m = rxq->sw_ring[i];

	if (rxq->ex) {
		volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

		bx->esc = rte_cpu_to_le_32(FEC_BD_EX_RX_INT);
		bx->prot = 0;
		bx->bdu = 0;
	}
	/* datlen 0 tells a BD given back from one the MAC wrote, should it stop again. */
	bd->datlen = 0;
	bd->addr = rte_cpu_to_le_32((uint32_t)(m->buf_iova + RTE_PKTMBUF_HEADROOM));
	rte_io_wmb();
	bd->sc = rte_cpu_to_le_16((i == rxq->nb_desc - 1u ? FEC_BD_W : 0) | FEC_BD_E);
}

int
fec_rx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_rxq *rxq = fec_rxq_at(dev, qid);
	unsigned int i, idx, run = 0;
	bool in_run = true;

	if (rxq == NULL)
		return -EINVAL;
	if (rxq->started)
		return 0;
	/* The rest of a frame half chained before the stop is in the run below. */
	fec_rx_sg_drop(rxq);
	/*
	 * From cur the MAC wrote a run of BDs (at most the whole ring), then
	 * stopped at the first one it did not own: its internal pointer. Every BD
	 * it does not own goes back to it; the run's frames were received while
	 * stopped and are dropped, counted. BDs still owned are left alone: the
	 * MAC may be writing one now, and cur will meet it as a new frame.
	 */
	for (i = 0; i < rxq->nb_desc; i++) {
		volatile struct fec_bd *bd;
		uint16_t sc;

		idx = rxq->cur + i;
		if (idx >= rxq->nb_desc)
			idx -= rxq->nb_desc;
		bd = bd_at(rxq->bd, rxq->bd_shift, idx);
		sc = rte_le_to_cpu_16(bd->sc);
		if (sc & FEC_BD_E) {
			in_run = false;
			continue;
		}
		rte_io_rmb();
		if (rx_bd_written(sc, rte_le_to_cpu_16(bd->datlen))) {
			if (in_run)
				run++;
			if (sc & FEC_BD_L) {
				rxq->stop_discards++;
				rxq->stop_discard_bytes +=
					RTE_MAX(rte_le_to_cpu_16(bd->datlen), rxq->trim) -
					rxq->trim;
			}
		} else {
			in_run = false;
		}
		rx_bd_arm(rxq, idx);
	}
	rxq->cur = (uint16_t)((rxq->cur + run) % rxq->nb_desc);
	fec_q_started_set(&rxq->sync, &rxq->started, true);
	dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	fec_wr32(rxq->fep, rxq->rdar, 0);
	return 0;
}

int
fec_rx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_rxq *rxq = fec_rxq_at(dev, qid);

	if (rxq == NULL)
		return -EINVAL;
	/* rx_burst returns nothing from now on, so no BD goes back to the MAC. */
	fec_q_started_set(&rxq->sync, &rxq->started, false);
	dev->data->rx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

int
fec_tx_queue_start(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_txq *txq = fec_txq_at(dev, qid);
	struct fec_priv *fep;
	uint32_t tcr;

	if (txq == NULL)
		return -EINVAL;
	fep = txq->fep;
	tcr = fec_rd32(fep, FEC_TCR);
	if (tcr & FEC_TCR_GTS)
		fec_wr32(fep, FEC_TCR, tcr & ~FEC_TCR_GTS);
	fec_q_started_set(&txq->sync, &txq->started, true);
	dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

/* Another TX queue of the port takes bursts: a graceful stop would halt it too. */
static bool
tx_others_started(const struct rte_eth_dev *dev, uint16_t qid)
{
	uint16_t q;

	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct fec_txq *o = fec_txq_at(dev, q);

		if (q != qid && o != NULL && o->started)
			return true;
	}
	return false;
}

/* After GRA: the BDs in [dirty, cur) are not read any more: free and count. */
static void
tx_take_off(struct fec_txq *txq)
{
	uint16_t i = txq->dirty;

	while (txq->nb_free < txq->nb_desc) {
		volatile struct fec_bd *bd = bd_at(txq->bd, txq->bd_shift, i);

		if (rte_le_to_cpu_16(bd->sc) & FEC_BD_L)
			txq->stop_drops++;
		bd->sc = rte_cpu_to_le_16(i == txq->nb_desc - 1u ? FEC_BD_W : 0);
		rte_pktmbuf_free_seg(txq->sw_ring[i]);
		txq->sw_ring[i] = NULL;
		txq->nb_free++;
		i = i + 1 == txq->nb_desc ? 0 : i + 1;
	}
	/* The MAC resumes at its pointer, the first BD it did not send: dirty. */
	txq->cur = txq->dirty;
	txq->frame_bytes = 0;
}

int
fec_tx_queue_stop(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_txq *txq = fec_txq_at(dev, qid);
	struct fec_priv *fep;
	unsigned int i;

	if (txq == NULL)
		return -EINVAL;
	fep = txq->fep;
	fec_q_started_set(&txq->sync, &txq->started, false);
	dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STOPPED;
	if (!dev->data->dev_started) {
		fec_tx_free_inflight(txq);
		return 0;
	}
	/* Frames already on the ring are sent: reclaim (and kick) until it is empty. */
	for (i = 0; i < FEC_TX_DRAIN_US; i++) {
		fec_tx_reclaim(txq);
		if (txq->nb_free == txq->nb_desc)
			return 0;
		fec_wait_tick(fep);
	}
	/* Not draining (link down, pause): graceful stop, then take the rest off. */
	fec_wr32(fep, FEC_TCR, fec_rd32(fep, FEC_TCR) | FEC_TCR_GTS);
	for (i = 0; i < FEC_GRA_US; i++) {
		if (fec_rd32(fep, FEC_EIR) & FEC_EIR_GRA)
			break;
		fec_wait_tick(fep);
	}
	if (i == FEC_GRA_US) {
		fep->gra_timeouts++;
		FEC_LOG(ERR, "%s: TX graceful stop timed out: queue left started", fep->name);
		fec_wr32(fep, FEC_TCR, fec_rd32(fep, FEC_TCR) & ~FEC_TCR_GTS);
		fec_q_started_set(&txq->sync, &txq->started, true);
		dev->data->tx_queue_state[qid] = RTE_ETH_QUEUE_STATE_STARTED;
		return -EBUSY;
	}
	fec_wr32(fep, FEC_EIR, FEC_EIR_GRA);
	/* The frame in flight when GTS was set has completed: reclaim it first. */
	fec_tx_reclaim(txq);
	tx_take_off(txq);
	/*
	 * TCR.GTS stays set while stopped; tx_queue_start lifts it. GTS halts
	 * every ring: with other queues still sending it is lifted now, the
	 * stopped ring holding no BD the MAC would send.
	 */
	if (tx_others_started(dev, qid)) {
		fec_wr32(fep, FEC_TCR, fec_rd32(fep, FEC_TCR) & ~FEC_TCR_GTS);
		/* Their frames that arrived during the stop. */
		for (i = 0; i < dev->data->nb_tx_queues; i++) {
			struct fec_txq *o = fec_txq_at(dev, (uint16_t)i);

			if (o != NULL && o->started && o->nb_free < o->nb_desc &&
				!(fec_rd32(fep, o->tdar) & FEC_DAR_ACTIVE))
				fec_wr32(fep, o->tdar, 0);
		}
	}
	return 0;
}

int
fec_rx_descriptor_status(void *q, uint16_t offset)
{
	struct fec_rxq *rxq = q;
	volatile struct fec_bd *bd;
	unsigned int idx;
	uint16_t sc;

	if (unlikely(offset >= rxq->nb_desc))
		return -EINVAL;
	idx = rxq->cur + offset;
	if (idx >= rxq->nb_desc)
		idx -= rxq->nb_desc;
	bd = bd_at(rxq->bd, rxq->bd_shift, idx);
	sc = rte_le_to_cpu_16(bd->sc);
	if (sc & FEC_BD_E)
		return RTE_ETH_RX_DESC_AVAIL;
	rte_io_rmb();
	return rx_bd_written(sc, rte_le_to_cpu_16(bd->datlen)) ? RTE_ETH_RX_DESC_DONE
							       : RTE_ETH_RX_DESC_UNAVAIL;
}

int
fec_tx_descriptor_status(void *q, uint16_t offset)
{
	struct fec_txq *txq = q;
	unsigned int idx;

	if (unlikely(offset >= txq->nb_desc))
		return -EINVAL;
	idx = txq->cur + offset;
	if (idx >= txq->nb_desc)
		idx -= txq->nb_desc;
	return rte_le_to_cpu_16(bd_at(txq->bd, txq->bd_shift, idx)->sc) & FEC_BD_R
		       ? RTE_ETH_TX_DESC_FULL
		       : RTE_ETH_TX_DESC_DONE;
}

int
fec_tx_done_cleanup(void *q, uint32_t free_cnt)
{
	struct fec_txq *txq = q;
	uint16_t dirty;
	uint32_t pkts = 0;

	/* It walks the ring as tx_burst does: not beside a restart (fec_q_enter). */
	if (fec_q_enter_gate(&txq->sync) & FEC_GATE_HOLD) {
		fec_q_leave(&txq->sync);
		return 0;
	}
	dirty = txq->dirty;
	/* Segment by segment, stopping only after a frame's last one. */
	while (txq->nb_free < txq->nb_desc && (free_cnt == 0 || pkts < free_cnt)) {
		uint16_t sc = rte_le_to_cpu_16(bd_at(txq->bd, txq->bd_shift, dirty)->sc);

		if (sc & FEC_BD_R)
			break;
		rte_io_rmb();
		if (txq->count_errs)
			fec_tx_count_errors(txq, dirty, 1);
		rte_pktmbuf_free_seg(txq->sw_ring[dirty]);
		txq->sw_ring[dirty] = NULL;
		if (sc & FEC_BD_L)
			pkts++;
		dirty = dirty + 1 == txq->nb_desc ? 0 : dirty + 1;
		txq->nb_free++;
		txq->dirty = dirty;
	}
	/* Completion handling, as Linux's fec_enet_tx_queue: the ERR006358 kick too. */
	fec_tx_err006358_kick(txq);
	fec_q_leave(&txq->sync);
	return (int)pkts;
}

void
fec_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_rxq_info *qinfo)
{
	struct fec_rxq *rxq = dev->data->rx_queues[qid];

	qinfo->mp = rxq->mp;
	qinfo->nb_desc = rxq->nb_desc;
	qinfo->scattered_rx = dev->data->scattered_rx;
	qinfo->rx_buf_size = rxq->buf_len;
	qinfo->queue_state = dev->data->rx_queue_state[qid];
	qinfo->conf.rx_deferred_start = rxq->deferred_start;
	qinfo->conf.rx_drop_en = 1; /* a ring without BDs drops in the MAC */
	qinfo->conf.offloads = dev->data->dev_conf.rxmode.offloads | rxq->queue_offloads;
}

void
fec_txq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_txq_info *qinfo)
{
	struct fec_txq *txq = dev->data->tx_queues[qid];

	qinfo->nb_desc = txq->nb_desc;
	qinfo->queue_state = dev->data->tx_queue_state[qid];
	qinfo->conf.tx_free_thresh = txq->free_thresh;
	qinfo->conf.tx_deferred_start = txq->deferred_start;
	qinfo->conf.offloads = txq->offloads;
}
