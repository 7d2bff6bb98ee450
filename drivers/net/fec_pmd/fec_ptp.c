/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * IEEE 1588, control path: the ENET's counter (ATCR/ATVR/ATINC/ATPER), the
 * driver's 64-bit time over it (Linux's timecounter in fec_ptp.c: read by
 * an EAL alarm every FEC_PTP_KEEP_MS, moved by adjust_time in software, set
 * by write_time), and the timesync ops. The counter runs while a user needs
 * it: timesync_enable, or the RX timestamp offload while started.
 */

#include <errno.h>
#include <time.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_time.h>

#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_tx.h"

/* ATCR while running: enabled, the counter wraps at ATPER (Linux's PERIOD_RST). */
#define FEC_PTP_ATCR (FEC_ATCR_EN | FEC_ATCR_PEREN)

int
fec_ptp_clk_parse(const char *name, unsigned long mhz, uint32_t *inc)
{
	/* ATINC.INC holds whole ns per clock, 7 bits. */
	if (mhz == 0 || mhz > 1000 || 1000 % mhz != 0 || 1000 / mhz > FEC_ATINC_INC_MASK) {
		FEC_LOG(ERR, "%s: ptp_clk_mhz=%lu: need a divisor of 1000 from 8 to 1000 MHz", name,
			mhz);
		return -EINVAL;
	}
	*inc = (uint32_t)(1000 / mhz);
	return 0;
}

void
fec_ptp_init(struct fec_priv *fep, uint32_t inc)
{
	rte_spinlock_init(&fep->ptp.lock);
	rte_seqcount_init(&fep->ptp.seq);
	fep->ptp.inc = inc;
	fep->ptp.rx_ts_off = -1;
}

/* The counter now: ATCR.CAPTURE latches it into ATVR (Linux's fec_ptp_read). */
static uint32_t
capture(struct fec_priv *fep)
{
	fec_wr32(fep, FEC_ATCR, FEC_PTP_ATCR | FEC_ATCR_CAPTURE);
	/* BUG_CAPTURE SoCs need the latch to settle (240 ns; Linux waits 1 us). */
	if (fep->soc->quirks & FEC_QUIRK_BUG_CAPTURE)
		rte_delay_us(1);
	return fec_rd32(fep, FEC_ATVR) & FEC_PTP_MASK;
}

/* The reading the bursts extend against, stored under the sequence count. Lock held. */
static void
tc_set(struct fec_priv *fep, uint64_t ns, uint32_t cyc)
{
	rte_seqcount_write_begin(&fep->ptp.seq);
	fep->ptp.tc.nsec = ns;
	fep->ptp.tc.cycle_last = cyc;
	rte_seqcount_write_end(&fep->ptp.seq);
}

/*
 * timecounter_read: the time now, the reading moved forward. Lock held; the
 * capture (a register round trip, 1 us on BUG_CAPTURE SoCs) is outside the
 * sequence count, so bursts do not wait for it.
 */
static uint64_t
tc_read(struct fec_priv *fep)
{
	uint32_t c = capture(fep);
	uint64_t ns = fep->ptp.tc.nsec + ((c - fep->ptp.tc.cycle_last) & FEC_PTP_MASK);

	tc_set(fep, ns, c);
	return ns;
}

/* The counter at cyc, running, the 64-bit time ns at it. Lock held. */
static void
counter_start(struct fec_priv *fep, uint32_t cyc, uint64_t ns, bool restart)
{
	fec_wr32(fep, FEC_ATCR, 0);
	fec_wr32(fep, FEC_ATINC, fep->ptp.inc);
	fec_wr32(fep, FEC_ATPER, FEC_PTP_PERIOD);
	fec_wr32(fep, FEC_ATCOR, 0);
	if (!restart)
		fec_wr32(fep, FEC_ATVR, cyc);
	fec_wr32(fep, FEC_ATCR, FEC_PTP_ATCR | (restart ? FEC_ATCR_RESTART : 0));
	tc_set(fep, ns, cyc);
}

static void
keep_alarm(void *arg)
{
	struct fec_priv *fep = arg;

	rte_spinlock_lock(&fep->ptp.lock);
	if (fep->ptp.users != 0)
		tc_read(fep);
	rte_spinlock_unlock(&fep->ptp.lock);
	__atomic_fetch_add(&fep->ptp.keeps, 1, __ATOMIC_RELEASE);
	/* Re-armed from inside, as the MIB alarm (fec_mib.c). */
	if (__atomic_load_n(&fep->ptp.keep_on, __ATOMIC_ACQUIRE) &&
		rte_eal_alarm_set(FEC_PTP_KEEP_MS * 1000ULL, keep_alarm, fep) < 0)
		FEC_LOG(ERR, "%s: 1588 alarm not re-armed: timestamps wrong after %u s", fep->name,
			FEC_PTP_PERIOD / 2 / 1000000000u);
}

int
fec_ptp_clock_get(struct fec_priv *fep, uint8_t user)
{
	int ret = 0;

	if (!fep->ex)
		return -ENOTSUP;
	if (fep->ptp.users == 0) {
		/* Linux's fec_ptp_start_cyclecounter: from 0, time 0. */
		rte_spinlock_lock(&fep->ptp.lock);
		counter_start(fep, 0, 0, true);
		fep->ptp.users = user;
		rte_spinlock_unlock(&fep->ptp.lock);
		__atomic_store_n(&fep->ptp.keep_on, true, __ATOMIC_RELEASE);
		ret = rte_eal_alarm_set(FEC_PTP_KEEP_MS * 1000ULL, keep_alarm, fep);
		if (ret < 0)
			__atomic_store_n(&fep->ptp.keep_on, false, __ATOMIC_RELEASE);
	}
	fep->ptp.users |= user;
	return ret;
}

void
fec_ptp_clock_put(struct fec_priv *fep, uint8_t user)
{
	if (fep->ptp.users == 0)
		return;
	fep->ptp.users &= (uint8_t)~user;
	if (fep->ptp.users != 0)
		return;
	__atomic_store_n(&fep->ptp.keep_on, false, __ATOMIC_RELEASE);
	/* Waits for a running reading. */
	rte_eal_alarm_cancel(keep_alarm, fep);
	rte_spinlock_lock(&fep->ptp.lock);
	fec_wr32(fep, FEC_ATCR, 0);
	rte_spinlock_unlock(&fep->ptp.lock);
}

void
fec_ptp_restart_save(struct fec_priv *fep)
{
	fep->ptp.restart_saved = false;
	if (fep->ptp.users == 0)
		return;
	rte_spinlock_lock(&fep->ptp.lock);
	fep->ptp.restart_ns = tc_read(fep);
	fep->ptp.restart_tsc = rte_get_timer_cycles();
	fep->ptp.restart_saved = true;
	rte_spinlock_unlock(&fep->ptp.lock);
}

void
fec_ptp_restart_restore(struct fec_priv *fep)
{
	uint64_t ns;

	if (!fep->ptp.restart_saved)
		return;
	fep->ptp.restart_saved = false;
	/* ECR=0 (the multi-queue SoCs) leaves the timer running: nothing lost. */
	if (fec_rd32(fep, FEC_ATCR) & FEC_ATCR_EN)
		return;
	ns = fep->ptp.restart_ns + (rte_get_timer_cycles() - fep->ptp.restart_tsc) *
					   (uint64_t)NS_PER_S / rte_get_timer_hz();
	rte_spinlock_lock(&fep->ptp.lock);
	counter_start(fep, (uint32_t)ns & FEC_PTP_MASK, ns, false);
	rte_spinlock_unlock(&fep->ptp.lock);
}

/* Every queue's 1588 settings from fep->ptp.timesync, the RX burst chosen again. */
static void
queues_conf(struct rte_eth_dev *dev)
{
	uint16_t q;

	for (q = 0; q < dev->data->nb_tx_queues; q++) {
		struct fec_txq *txq = fec_txq_at(dev, q);

		if (txq != NULL)
			fec_tx_ts_conf(dev, txq);
	}
	fec_rx_ts_conf(dev);
}

int
fec_timesync_enable(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret;

	/* The stamps are in the enhanced BD only (Linux: bufdesc_ex). */
	if (!fep->ex)
		return -ENOTSUP;
	if (fep->ptp.timesync)
		return 0;
	/* Already running for the RX offload: the time goes on (stamps stay monotonic). */
	ret = fec_ptp_clock_get(fep, FEC_PTP_USER_TIMESYNC);
	if (ret < 0)
		FEC_LOG(WARNING, "%s: no 1588 reading alarm: time wrong after %u s", fep->name,
			FEC_PTP_PERIOD / 2 / 1000000000u);
	__atomic_store_n(&fep->ptp.rx.valid, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&fep->ptp.tx.valid, 0, __ATOMIC_RELEASE);
	fep->ptp.timesync = true;
	queues_conf(dev);
	return 0;
}

int
fec_timesync_disable(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	if (!fep->ex)
		return -ENOTSUP;
	if (!fep->ptp.timesync)
		return 0;
	fep->ptp.timesync = false;
	queues_conf(dev);
	fec_ptp_clock_put(fep, FEC_PTP_USER_TIMESYNC);
	return 0;
}

/* A latched stamp, once: -EINVAL when none came since the last read. */
static int
latch_read(struct fec_ptp_latch *l, struct timespec *ts)
{
	if (!__atomic_exchange_n(&l->valid, 0, __ATOMIC_ACQUIRE))
		return -EINVAL;
	*ts = rte_ns_to_timespec(__atomic_load_n(&l->ns, __ATOMIC_ACQUIRE));
	return 0;
}

int
fec_timesync_read_rx_timestamp(struct rte_eth_dev *dev, struct timespec *ts, uint32_t flags)
{
	struct fec_priv *fep = dev->data->dev_private;

	RTE_SET_USED(flags);
	if (!fep->ex)
		return -ENOTSUP;
	if (!fep->ptp.timesync)
		return -EINVAL;
	return latch_read(&fep->ptp.rx, ts);
}

int
fec_timesync_read_tx_timestamp(struct rte_eth_dev *dev, struct timespec *ts)
{
	struct fec_priv *fep = dev->data->dev_private;

	if (!fep->ex)
		return -ENOTSUP;
	if (!fep->ptp.timesync)
		return -EINVAL;
	/* A frame the MAC sent that no reclaim has reached yet. */
	fec_tx_ts_poll(dev);
	return latch_read(&fep->ptp.tx, ts);
}

/* -ENOTSUP with legacy BDs, -EINVAL with the counter stopped. */
static int
clock_check(const struct fec_priv *fep)
{
	if (!fep->ex)
		return -ENOTSUP;
	return fep->ptp.users != 0 ? 0 : -EINVAL;
}

int
fec_timesync_adjust_time(struct rte_eth_dev *dev, int64_t delta)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret = clock_check(fep);

	if (ret < 0)
		return ret;
	/* Linux's timecounter_adjtime: the counter is not touched. */
	rte_spinlock_lock(&fep->ptp.lock);
	tc_set(fep, fep->ptp.tc.nsec + (uint64_t)delta, fep->ptp.tc.cycle_last);
	rte_spinlock_unlock(&fep->ptp.lock);
	return 0;
}

int
fec_read_clock(struct rte_eth_dev *dev, uint64_t *clock)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret = clock_check(fep);

	if (ret < 0)
		return ret;
	rte_spinlock_lock(&fep->ptp.lock);
	*clock = tc_read(fep);
	rte_spinlock_unlock(&fep->ptp.lock);
	return 0;
}

int
fec_timesync_read_time(struct rte_eth_dev *dev, struct timespec *ts)
{
	uint64_t ns;
	int ret = fec_read_clock(dev, &ns);

	if (ret < 0)
		return ret;
	*ts = rte_ns_to_timespec(ns);
	return 0;
}

int
fec_timesync_write_time(struct rte_eth_dev *dev, const struct timespec *ts)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret = clock_check(fep);
	uint64_t ns;

	if (ret < 0)
		return ret;
	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= NS_PER_S)
		return -EINVAL;
	ns = rte_timespec_to_ns(ts);
	/* Linux's fec_ptp_settime: the counter's bits follow the time's. */
	rte_spinlock_lock(&fep->ptp.lock);
	fec_wr32(fep, FEC_ATVR, (uint32_t)ns & FEC_PTP_MASK);
	tc_set(fep, ns, (uint32_t)ns & FEC_PTP_MASK);
	rte_spinlock_unlock(&fep->ptp.lock);
	return 0;
}
