/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Recovery from a dead or stuck MAC, at no cost to the bursts:
 * - TX timeout (Linux's fec_enet_tx_timeout -> fec_restart): checked only on
 *   tx_burst's ring-full path, where Linux's netdev watchdog looks too (it
 *   fires only for a stopped queue), with the timer read there alone;
 * - an EAL alarm while started: EIR.EBERR, ETHEREN found clear (a reset), RDAR
 *   found clear while the driver waits on an empty BD (re-armed), and frames
 *   dropped for lack of a BD while that BD is empty (the uDMA hung); it also
 *   counts and acknowledges the babbling RX/TX events (FEC_EVENT_TABLE).
 * A restart counts what the ring re-init throws away, so every frame is
 * either delivered, sent, or in a counter.
 */

#include <errno.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_pause.h>

#include "fec_ethdev.h"
#include "fec_tx.h"

static const char *const fec_restart_names[FEC_RESTART_NB] = {
#define X(k, name) [FEC_RESTART_##k] = name,
	FEC_RESTART_TABLE(X)
#undef X
};

static const uint32_t fec_event_bits[FEC_EVENT_NB] = {
#define X(k, name, bit) [FEC_EVENT_##k] = (bit),
	FEC_EVENT_TABLE(X)
#undef X
};

/*
 * Babbling RX/TX (EIR.BABR/BABT): counted and acknowledged, nothing more, as
 * Linux's handler does (the frames are in the MIB's oversize counters; an
 * oversize RX frame is also dropped for LG). Write-1-to-clear touches only
 * these bits: RXF is the RX interrupt path's (fec_intr.c).
 */
static void
wd_events(struct fec_priv *fep)
{
	uint32_t eir = fec_rd32(fep, FEC_EIR), ack = 0;
	unsigned int i;

	for (i = 0; i < FEC_EVENT_NB; i++) {
		if (!(eir & fec_event_bits[i]))
			continue;
		ack |= fec_event_bits[i];
		__atomic_fetch_add(&fep->events[i], 1, __ATOMIC_RELEASE);
	}
	if (ack != 0)
		fec_wr32(fep, FEC_EIR, ack);
}

/* Frames (last segments) still on the TX ring after a reclaim. */
static uint64_t
tx_inflight_frames(const struct fec_txq *txq)
{
	uint16_t i = txq->dirty, n = txq->nb_desc - txq->nb_free;
	uint64_t frames = 0;

	while (n-- > 0) {
		if (txq->sw_ring[i] != NULL && txq->sw_ring[i]->next == NULL)
			frames++;
		i = i + 1 == txq->nb_desc ? 0 : i + 1;
	}
	return frames;
}

/* Frames the MAC wrote that the driver has not taken yet (bd_init discards them). */
static uint64_t
rx_pending_frames(struct fec_rxq *rxq)
{
	uint64_t frames = 0;
	uint16_t i;

	if (!rxq->started)
		return 0;
	for (i = 0; i < rxq->nb_desc; i++) {
		const volatile struct fec_bd *bd =
			(const volatile struct fec_bd *)(rxq->bd + ((uint32_t)i << rxq->bd_shift));
		uint16_t len;

		if ((rte_le_to_cpu_16(bd->sc) & FEC_BD_E) || rxq->sw_ring[i] == NULL)
			continue;
		frames++;
		len = rte_le_to_cpu_16(bd->datlen);
		rxq->restart_discard_bytes += len > rxq->trim ? len - rxq->trim : 0;
	}
	return frames;
}

/* BDs the driver took back on every RX queue: frames delivered or dropped for errors. */
static uint64_t
rx_progress(const struct rte_eth_dev *dev)
{
	uint64_t progress = 0;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq != NULL)
			progress += rxq->sw_pkts + rxq->ierrors;
	}
	return progress;
}

/* Every queue's sync, RX then TX; NULL for a queue not set up. */
static struct fec_qsync *
q_sync(const struct rte_eth_dev *dev, uint16_t i)
{
	uint16_t nrx = dev->data->nb_rx_queues;

	if (i < nrx)
		return fec_rxq_at(dev, i) != NULL ? &fec_rxq_at(dev, i)->sync : NULL;
	return fec_txq_at(dev, i - nrx) != NULL ? &fec_txq_at(dev, i - nrx)->sync : NULL;
}

/*
 * Close every queue's gate, then wait until no burst is inside: from here
 * the rings are the restart's alone. The restart's half of the Dekker pattern
 * of fec_q_enter (fec_priv.h): the seq_cst RMW on the gate (x86 `lock or`,
 * arm64 `ldsetal`) comes before the seq_cst load of seq in their one total
 * order, so a burst that entered unseen reads HOLD and touches nothing. A seq
 * read odd belongs to a burst that may not have seen HOLD: wait for any
 * change of it (only its exit can come next, a release store; the acquire
 * load that sees it makes the burst's ring writes visible here). @p self is
 * the queue whose burst called the restart (TX timeout): it is inside, and
 * waits for nobody. No bound on the wait: a burst is a bounded loop, and
 * giving up would let the restart and a burst walk a ring together.
 */
static void
quiesce(const struct rte_eth_dev *dev, const struct fec_qsync *self)
{
	uint16_t nq = dev->data->nb_rx_queues + dev->data->nb_tx_queues, i;
	struct fec_qsync *s;

	for (i = 0; i < nq; i++)
		if ((s = q_sync(dev, i)) != NULL)
			__atomic_fetch_or(&s->gate, FEC_GATE_HOLD, __ATOMIC_SEQ_CST);
	for (i = 0; i < nq; i++) {
		uint32_t seq;

		if ((s = q_sync(dev, i)) == NULL || s == self)
			continue;
		seq = __atomic_load_n(&s->seq, __ATOMIC_SEQ_CST);
		if (seq & 1)
			while (__atomic_load_n(&s->seq, __ATOMIC_ACQUIRE) == seq)
				rte_pause();
	}
}

/* Open the gates: release, so the next burst (acquire) sees the re-initialised rings. */
static void
unquiesce(const struct rte_eth_dev *dev)
{
	uint16_t nq = dev->data->nb_rx_queues + dev->data->nb_tx_queues, i;
	struct fec_qsync *s;

	for (i = 0; i < nq; i++)
		if ((s = q_sync(dev, i)) != NULL)
			__atomic_fetch_and(&s->gate, (uint8_t)~FEC_GATE_HOLD, __ATOMIC_RELEASE);
}

static void
restart_locked(struct rte_eth_dev *dev, enum fec_restart_reason why, const struct fec_qsync *self)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint64_t lost_rx = 0, lost_tx = 0, n;
	uint16_t q;

	quiesce(dev, self);
	/*
	 * The MAC halted before the counts (ETHEREN off: RX at once, TX after
	 * the frame in flight): a frame it wrote or sent after them would be
	 * thrown away uncounted, or counted as lost and sent.
	 */
	fec_wr32(fep, FEC_ECR, 0);
	rte_delay_us(10);

	/* Every ring is re-initialised: count what each one loses. */
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		/* Sent frames are completions, not losses (a hung MAC has none). */
		fec_tx_reclaim(txq);
		n = tx_inflight_frames(txq);
		txq->restart_drops += n;
		lost_tx += n;
	}
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		n = rx_pending_frames(rxq);
		rxq->restart_discards += n;
		lost_rx += n;
	}
	FEC_LOG(WARNING, "%s: %s: restarting the MAC (%" PRIu64 " RX, %" PRIu64 " TX frames lost)",
		fep->name, fec_restart_names[why], lost_rx, lost_tx);
	fec_hw_restart(dev);
	for (q = 0; q < dev->data->nb_tx_queues; q++)
		if (fec_txq_at(dev, q) != NULL)
			fec_txq_at(dev, q)->stall_start = 0;
	fep->wd_macerr = fec_rd32(fep, FEC_MIB_OFF_ieee_r_macerr);
	fep->wd_rx_progress = rx_progress(dev);
	__atomic_fetch_add(&fep->restarts[why], 1, __ATOMIC_RELEASE);
	unquiesce(dev);
}

static int
fault_restart(struct rte_eth_dev *dev, enum fec_restart_reason why, const struct fec_qsync *self)
{
	struct fec_priv *fep = dev->data->dev_private;

	if (!rte_spinlock_trylock(&fep->restart_lock))
		return -EBUSY;
	restart_locked(dev, why, self);
	rte_spinlock_unlock(&fep->restart_lock);
	return 0;
}

int
fec_fault_restart(struct rte_eth_dev *dev, enum fec_restart_reason why)
{
	return fault_restart(dev, why, NULL);
}

void
fec_link_restart(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	/* Waits for a fault restart rather than skip: the new speed must be set. */
	rte_spinlock_lock(&fep->restart_lock);
	restart_locked(dev, FEC_RESTART_LINK, NULL);
	rte_spinlock_unlock(&fep->restart_lock);
}

__rte_noinline uint16_t
fec_tx_full(struct fec_txq *txq)
{
	struct fec_priv *fep = txq->fep;
	uint64_t now = rte_get_timer_cycles();

	if (txq->stall_start == 0 || txq->sw_pkts != txq->stall_pkts) {
		/* Frames were taken since: the MAC completes, this is back-pressure. */
		txq->stall_start = now;
		txq->stall_pkts = txq->sw_pkts;
		return 0;
	}
	if (now - txq->stall_start < fep->tx_timeout_cycles)
		return 0;
	/* From inside this queue's burst: the restart does not wait for it. */
	fault_restart(&rte_eth_devices[txq->port_id], FEC_RESTART_TX_TIMEOUT, &txq->sync);
	return 0;
}

/*
 * The RX side of a check: RDAR lost (per ring), or the uDMA hung with BDs it
 * owns. The MIB's drop count is the MAC's, not a ring's: a hang is only
 * concluded when every RX queue is started and waits on an empty BD (a
 * stopped queue's frames are dropped by design).
 */
static void
wd_rx(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	bool all_empty = true, rearmed = false, any_started = false;
	uint64_t progress;
	uint32_t macerr;
	uint16_t q;

	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);
		const volatile struct fec_bd *bd;
		bool empty;

		if (rxq == NULL || !rxq->started) {
			all_empty = false;
			continue;
		}
		/* Racy reads of the queue, on purpose: a hint, confirmed by the MAC's counters. */
		bd = (const volatile struct fec_bd *)(rxq->bd +
						      ((uint32_t)rxq->cur << rxq->bd_shift));
		empty = (rte_le_to_cpu_16(bd->sc) & FEC_BD_E) != 0;
		any_started = true;
		if (empty && !(fec_rd32(fep, rxq->rdar) & FEC_DAR_ACTIVE)) {
			/* The uDMA stopped with BDs to fill: any write sets RDAR again. */
			fec_wr32(fep, rxq->rdar, 0);
			fep->rx_rearms++;
			rearmed = true;
		}
		all_empty = all_empty && empty;
	}
	if (!any_started)
		return;
	macerr = fec_rd32(fep, FEC_MIB_OFF_ieee_r_macerr);
	progress = rx_progress(dev);
	if (all_empty && !rearmed && macerr != fep->wd_macerr && progress == fep->wd_rx_progress) {
		/*
		 * Frames dropped for lack of a BD since the last check, none
		 * taken by the driver, and the BDs it waits on are empty: the
		 * MAC does not use the BDs it owns.
		 */
		restart_locked(dev, FEC_RESTART_RX_STALL, NULL);
		return;
	}
	fep->wd_macerr = macerr;
	fep->wd_rx_progress = progress;
}

static void
fec_wd_alarm(void *arg)
{
	struct rte_eth_dev *dev = arg;
	struct fec_priv *fep = dev->data->dev_private;

	/* A restart running on the TX lcore shows ETHEREN clear for a while: skip. */
	if (rte_spinlock_trylock(&fep->restart_lock)) {
		if (fec_rd32(fep, FEC_EIR) & FEC_EIR_EBERR)
			restart_locked(dev, FEC_RESTART_EBERR, NULL);
		else if (!(fec_rd32(fep, FEC_ECR) & FEC_ECR_ETHEREN))
			restart_locked(dev, FEC_RESTART_MAC_OFF, NULL);
		else
			wd_rx(dev);
		wd_events(fep);
		rte_spinlock_unlock(&fep->restart_lock);
	}
	__atomic_fetch_add(&fep->wd_runs, 1, __ATOMIC_RELEASE);
	if (__atomic_load_n(&fep->wd_on, __ATOMIC_ACQUIRE) &&
		rte_eal_alarm_set(fep->wd_period_ms * 1000ULL, fec_wd_alarm, dev) < 0)
		FEC_LOG(ERR, "%s: watchdog not re-armed: no recovery from a stuck MAC", fep->name);
}

int
fec_wd_start(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret;

	fep->wd_macerr = fec_rd32(fep, FEC_MIB_OFF_ieee_r_macerr);
	fep->wd_rx_progress = rx_progress(dev);
	__atomic_store_n(&fep->wd_on, true, __ATOMIC_RELEASE);
	ret = rte_eal_alarm_set(fep->wd_period_ms * 1000ULL, fec_wd_alarm, dev);
	if (ret < 0)
		__atomic_store_n(&fep->wd_on, false, __ATOMIC_RELEASE);
	return ret;
}

void
fec_wd_stop(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	__atomic_store_n(&fep->wd_on, false, __ATOMIC_RELEASE);
	/* Waits for a running check; also removes what it re-armed. */
	rte_eal_alarm_cancel(fec_wd_alarm, dev);
}
