/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * MIB counters: 32-bit in the MAC, 64-bit in the driver. An EAL alarm folds
 * them in while the port is started, so an application that reads stats
 * rarely (or never) loses nothing to a wrap; the fast path pays nothing.
 */

#include <rte_alarm.h>

#include "fec_ethdev.h"

static const uint32_t fec_mib_offs[FEC_MIB_NB] = {
#define X(n, o) (o),
	FEC_MIB_TABLE(X)
#undef X
};

/* Alarm callbacks run so far, all ports (tests wait on it). */
static uint64_t fec_mib_alarm_runs;

void
fec_mib_update(struct fec_priv *fep)
{
	unsigned int i;

	for (i = 0; i < FEC_MIB_NB; i++) {
		uint32_t cur = fec_rd32(fep, fec_mib_offs[i]);

		/* 32-bit counters wrap: unsigned difference is the increment. */
		fep->mib[i] += (uint32_t)(cur - fep->mib_last[i]);
		fep->mib_last[i] = cur;
	}
}

static void
fec_mib_alarm(void *arg)
{
	struct fec_priv *fep = arg;

	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	rte_spinlock_unlock(&fep->mib_lock);
	__atomic_fetch_add(&fec_mib_alarm_runs, 1, __ATOMIC_RELEASE);
	/*
	 * Re-armed from inside the callback: rte_eal_alarm_cancel() from another
	 * thread waits for a running callback and then also removes what it
	 * re-armed; the flag makes that independent of the EAL's loop.
	 */
	if (__atomic_load_n(&fep->mib_alarm_on, __ATOMIC_ACQUIRE) &&
		rte_eal_alarm_set(fep->mib_period_ms * 1000ULL, fec_mib_alarm, fep) < 0)
		FEC_LOG(ERR, "%s: MIB alarm not re-armed: counters may wrap unseen", fep->name);
}

int
fec_mib_alarm_start(struct fec_priv *fep)
{
	int ret;

	__atomic_store_n(&fep->mib_alarm_on, true, __ATOMIC_RELEASE);
	ret = rte_eal_alarm_set(fep->mib_period_ms * 1000ULL, fec_mib_alarm, fep);
	if (ret < 0)
		__atomic_store_n(&fep->mib_alarm_on, false, __ATOMIC_RELEASE);
	return ret;
}

void
fec_mib_alarm_stop(struct fec_priv *fep)
{
	__atomic_store_n(&fep->mib_alarm_on, false, __ATOMIC_RELEASE);
	/* Waits for a callback running on the interrupt thread to finish. */
	rte_eal_alarm_cancel(fec_mib_alarm, fep);
}

uint64_t
fec_mib_alarm_count(void)
{
	return __atomic_load_n(&fec_mib_alarm_runs, __ATOMIC_ACQUIRE);
}

static const char *const fec_mib_names[FEC_MIB_NB] = {
#define X(n, o) #n,
	FEC_MIB_TABLE(X)
#undef X
};

/* The driver's counts of every queue, summed for the port's totals. */
struct fec_sums {
	uint64_t rx_pkts, rx_bytes, ierrors;
	uint64_t stop_discards, stop_discard_bytes, restart_discards, restart_discard_bytes;
	uint64_t err[FEC_RX_ERR_NB];
	uint64_t tx_pkts, tx_bytes, stop_drops, restart_drops;
	uint64_t tx_err[FEC_TX_ERR_NB], tx_errs, tx_err_bytes;
};

static void
fec_sums_get(struct rte_eth_dev *dev, struct fec_sums *t)
{
	unsigned int i;
	uint16_t q;

	memset(t, 0, sizeof(*t));
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		const struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		t->rx_pkts += rxq->sw_pkts;
		t->rx_bytes += rxq->sw_bytes;
		t->ierrors += rxq->ierrors;
		t->stop_discards += rxq->stop_discards;
		t->stop_discard_bytes += rxq->stop_discard_bytes;
		t->restart_discards += rxq->restart_discards;
		t->restart_discard_bytes += rxq->restart_discard_bytes;
		for (i = 0; i < FEC_RX_ERR_NB; i++)
			t->err[i] += rxq->err[i];
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		const struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		t->tx_pkts += txq->sw_pkts;
		t->tx_bytes += txq->sw_bytes;
		t->stop_drops += txq->stop_drops;
		t->restart_drops += txq->restart_drops;
		for (i = 0; i < FEC_TX_ERR_NB; i++) {
			t->tx_err[i] += txq->err[i];
			t->tx_errs += txq->err[i];
		}
		t->tx_err_bytes += txq->err_bytes;
	}
}

int
fec_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_sums t;
	uint16_t q;

	fec_sums_get(dev, &t);
	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	if (fep->sw_stats) {
		st->ipackets = t.rx_pkts;
		st->ibytes = t.rx_bytes;
		/* Put on the ring, less what the MAC reported it could not send. */
		st->opackets = t.tx_pkts - RTE_MIN(t.tx_pkts, t.tx_errs);
		st->obytes = t.tx_bytes - RTE_MIN(t.tx_bytes, t.tx_err_bytes);
	} else {
		/* A BD length the driver refused: a good frame for the MAC, not received. */
		st->ipackets =
			fep->mib[FEC_MIB_ieee_r_frame_ok] -
			RTE_MIN(fep->mib[FEC_MIB_ieee_r_frame_ok], t.err[FEC_RX_ERR_BAD_LEN]);
		st->ibytes = fep->mib[FEC_MIB_ieee_r_octets_ok] - RTE_ETHER_CRC_LEN * st->ipackets;
		/* The MAC received them, but a stopped queue or a restart dropped them: missed. */
		if (st->ipackets >= t.stop_discards + t.restart_discards) {
			st->ipackets -= t.stop_discards + t.restart_discards;
			st->ibytes -=
				RTE_MIN(st->ibytes, t.stop_discard_bytes + t.restart_discard_bytes);
		}
		st->opackets = fep->mib[FEC_MIB_ieee_t_frame_ok];
		st->obytes = fep->mib[FEC_MIB_ieee_t_octets_ok] - RTE_ETHER_CRC_LEN * st->opackets;
	}
	/* Frames a queue stop discarded are missed (RX) or not sent (TX). */
	st->imissed = fep->mib[FEC_MIB_ieee_r_macerr] + fep->mib[FEC_MIB_ieee_r_drop] +
		      t.stop_discards + t.restart_discards;
	st->ierrors = t.ierrors;
	/* The MAC's TX errors: from its MIB, or (stats=sw) as the BDs reported them. */
	st->oerrors =
		(fep->sw_stats ? t.tx_errs
			       : fep->mib[FEC_MIB_ieee_t_macerr] + fep->mib[FEC_MIB_ieee_t_lcol] +
					 fep->mib[FEC_MIB_ieee_t_excol]) +
		t.stop_drops + t.restart_drops;
	rte_spinlock_unlock(&fep->mib_lock);
	/* Per queue: the driver's counts (the MIB does not know rings). */
	for (q = 0; q < dev->data->nb_rx_queues && q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		const struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		st->q_ipackets[q] = rxq->sw_pkts;
		st->q_ibytes[q] = rxq->sw_bytes;
		st->q_errors[q] = rxq->ierrors;
	}
	for (q = 0; q < dev->data->nb_tx_queues && q < RTE_ETHDEV_QUEUE_STAT_CNTRS; q++) {
		const struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		st->q_opackets[q] = txq->sw_pkts;
		st->q_obytes[q] = txq->sw_bytes;
	}
	return 0;
}

int
fec_stats_reset(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;

	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	memset(fep->mib, 0, sizeof(fep->mib));
	rte_spinlock_unlock(&fep->mib_lock);
	for (q = 0; q < dev->data->nb_rx_queues; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);

		if (rxq == NULL)
			continue;
		rxq->ierrors = 0;
		rxq->sw_pkts = 0;
		rxq->sw_bytes = 0;
		rxq->stop_discards = 0;
		rxq->stop_discard_bytes = 0;
		rxq->restart_discards = 0;
		rxq->restart_discard_bytes = 0;
		memset(rxq->err, 0, sizeof(rxq->err));
	}
	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq == NULL)
			continue;
		txq->sw_pkts = 0;
		txq->sw_bytes = 0;
		txq->stop_drops = 0;
		txq->restart_drops = 0;
		memset(txq->err, 0, sizeof(txq->err));
		txq->err_bytes = 0;
	}
	memset(fep->restarts, 0, sizeof(fep->restarts));
	memset(fep->events, 0, sizeof(fep->events));
	fep->rx_rearms = 0;
	fep->mdio_timeouts = 0;
	fep->gra_timeouts = 0;
	dev->data->rx_mbuf_alloc_failed = 0;
	return 0;
}

/*
 * After the MIB: the driver's own counts, the ones to compare with a MAC that
 * has no MIB (QEMU's ENET reads 0 there).
 */
static const char *const fec_sw_names[] = {"rx_sw_packets", "rx_sw_bytes", "tx_sw_packets",
	"tx_sw_bytes", "rx_queue_stop_discards", "tx_queue_stop_drops",
	/* Faults (fec_watchdog.c): what the restarts threw away, re-arms, MDIO, graceful stops. */
	"rx_restart_discards", "tx_restart_drops", "rx_rdar_rearms", "mdio_timeouts",
	"gra_timeouts",
#define X(k, name, bits) name,
	FEC_RX_ERR_TABLE(X)
#undef X
#define X(k, name) name,
		FEC_RESTART_TABLE(X)
#undef X
#define X(k, name, bit) name,
			FEC_EVENT_TABLE(X)
#undef X
#define X(k, name, bits) name,
				FEC_TX_ERR_TABLE(X)
#undef X
};
#define FEC_XSTATS_NB       (FEC_MIB_NB + RTE_DIM(fec_sw_names))
#define FEC_XSTATS_SW_FIXED 11
_Static_assert(RTE_DIM(fec_sw_names) == FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + FEC_RESTART_NB +
						FEC_EVENT_NB + FEC_TX_ERR_NB,
	"fixed driver counts, then the RX error, restart, event and TX error tables");

int
fec_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names, unsigned int n)
{
	unsigned int i;

	RTE_SET_USED(dev);
	if (names == NULL || n < FEC_XSTATS_NB)
		return FEC_XSTATS_NB;
	for (i = 0; i < FEC_MIB_NB; i++)
		snprintf(names[i].name, sizeof(names[i].name), "%s", fec_mib_names[i]);
	for (i = 0; i < RTE_DIM(fec_sw_names); i++)
		snprintf(names[FEC_MIB_NB + i].name, sizeof(names[0].name), "%s", fec_sw_names[i]);
	return FEC_XSTATS_NB;
}

int
fec_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int n)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_sums t;
	unsigned int i;

	if (xs == NULL || n < FEC_XSTATS_NB)
		return FEC_XSTATS_NB;
	fec_sums_get(dev, &t);
	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	for (i = 0; i < FEC_MIB_NB; i++) {
		xs[i].id = i;
		xs[i].value = fep->mib[i];
	}
	rte_spinlock_unlock(&fep->mib_lock);
	/* The driver's counts: all queues together. */
	xs[FEC_MIB_NB].value = t.rx_pkts;
	xs[FEC_MIB_NB + 1].value = t.rx_bytes;
	xs[FEC_MIB_NB + 2].value = t.tx_pkts;
	xs[FEC_MIB_NB + 3].value = t.tx_bytes;
	xs[FEC_MIB_NB + 4].value = t.stop_discards;
	xs[FEC_MIB_NB + 5].value = t.stop_drops;
	xs[FEC_MIB_NB + 6].value = t.restart_discards;
	xs[FEC_MIB_NB + 7].value = t.restart_drops;
	xs[FEC_MIB_NB + 8].value = fep->rx_rearms;
	xs[FEC_MIB_NB + 9].value = fep->mdio_timeouts;
	xs[FEC_MIB_NB + 10].value = fep->gra_timeouts;
	for (i = 0; i < FEC_RX_ERR_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + i].value = t.err[i];
	for (i = 0; i < FEC_RESTART_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + i].value =
			__atomic_load_n(&fep->restarts[i], __ATOMIC_ACQUIRE);
	for (i = 0; i < FEC_EVENT_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + FEC_RESTART_NB + i].value =
			__atomic_load_n(&fep->events[i], __ATOMIC_ACQUIRE);
	for (i = 0; i < FEC_TX_ERR_NB; i++)
		xs[FEC_MIB_NB + FEC_XSTATS_SW_FIXED + FEC_RX_ERR_NB + FEC_RESTART_NB +
			FEC_EVENT_NB + i]
			.value = t.tx_err[i];
	for (i = FEC_MIB_NB; i < FEC_XSTATS_NB; i++)
		xs[i].id = i;
	return FEC_XSTATS_NB;
}
