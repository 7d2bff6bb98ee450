/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_PTP_H
#define FEC_PTP_H

/**
 * @file
 * IEEE 1588 in net_fec: the driver's 64-bit time over the ENET's 1588
 * counter, as Linux's fec_ptp.c keeps it (a timecounter). The counter counts
 * nanoseconds and wraps at ATPER (Linux's FEC_COUNTER_PERIOD, 2^31 ns,
 * 2.1 s: the largest power of two the 32-bit ATPER holds, so that a
 * difference of two readings is one mask); the driver keeps the 64-bit time
 * at its last reading and extends every 32-bit stamp (RX and TX BD ts words,
 * captures) against it. An EAL alarm reads the counter every
 * FEC_PTP_KEEP_MS, well within half a period, so a stamp is never more
 * than half a period away from the last reading.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_seqcount.h>
#include <rte_spinlock.h>

/** ATPER: the counter wraps here (Linux's FEC_COUNTER_PERIOD). */
#define FEC_PTP_PERIOD (1u << 31)
/** Counter bits (Linux's cc.mask, CLOCKSOURCE_MASK(31)). */
#define FEC_PTP_MASK (FEC_PTP_PERIOD - 1u)
/** Period of the reading alarm (Linux reads it every second). */
#define FEC_PTP_KEEP_MS 500
/** Default 1588 clock (devarg ptp_clk_mhz): ATINC = 1000 / MHz ns a clock. */
#define FEC_PTP_CLK_MHZ 125u

/** Who keeps the counter running (fec_ptp_clock_get/put). */
#define FEC_PTP_USER_TIMESYNC (1u << 0) /**< timesync_enable */
#define FEC_PTP_USER_RX_TS    (1u << 1) /**< RTE_ETH_RX_OFFLOAD_TIMESTAMP while started */

/** The 64-bit time at a reading of the counter (Linux's struct timecounter). */
struct fec_ptp_tc {
	uint64_t nsec;       /**< time at the reading, ns */
	uint32_t cycle_last; /**< the counter then */
};

/** A stamp kept for one read (timesync_read_rx/tx_timestamp). */
struct fec_ptp_latch {
	uint64_t ns;    /**< the stamp, extended */
	uint32_t valid; /**< set with the stamp, cleared by the read (atomics) */
};

/** 1588 state of a port (fec_priv.ptp). */
struct fec_ptp {
	/**
	 * Serialises the writers (the alarm, the ops) and their captures; the
	 * bursts never take it: they read tc under seq, which a writer holds
	 * only while it stores tc (not across the capture).
	 */
	rte_spinlock_t lock;
	rte_seqcount_t seq;      /**< guards tc for the bursts */
	struct fec_ptp_tc tc;    /**< the time at the last reading */
	uint32_t inc;            /**< ATINC.INC: ns per clock (devarg ptp_clk_mhz) */
	uint8_t users;           /**< FEC_PTP_USER_*: the counter runs when not 0 */
	bool keep_on;            /**< the reading alarm re-arms itself */
	bool timesync;           /**< timesync enabled: PTP frames latched */
	uint64_t restart_ns;     /**< time before a restart (fec_ptp_restart_save) */
	uint64_t restart_tsc;    /**< timer cycles then */
	bool restart_saved;      /**< restart_ns is valid */
	struct fec_ptp_latch rx; /**< last PTP frame received */
	struct fec_ptp_latch tx; /**< last frame sent with RTE_MBUF_F_TX_IEEE1588_TMST */
	uint64_t keeps;          /**< alarm readings so far (tests) */
	int rx_ts_off;           /**< timestamp dynamic field offset, -1: not registered */
	uint64_t rx_ts_flag;     /**< RTE_MBUF_DYNFLAG_RX_TIMESTAMP's bit */
};

/**
 * A 32-bit counter value as 64-bit time, against the reading @p tc (Linux's
 * timecounter_cyc2time): a stamp less than half a period before the reading
 * is in the past, otherwise after it.
 *
 * @param tc
 *   The time at a reading.
 * @param cyc
 *   Counter value (a BD's ts word, a capture).
 * @return
 *   Time, ns.
 */
static inline uint64_t
fec_ptp_extend(const struct fec_ptp_tc *tc, uint32_t cyc)
{
	uint32_t delta = (cyc - tc->cycle_last) & FEC_PTP_MASK;

	if (delta > FEC_PTP_MASK / 2)
		return tc->nsec - ((tc->cycle_last - cyc) & FEC_PTP_MASK);
	return tc->nsec + delta;
}

/**
 * A consistent copy of the last reading (the alarm may be writing it).
 *
 * @param ptp
 *   Port's 1588 state.
 * @param out
 *   The copy.
 */
static inline void
fec_ptp_snapshot(const struct fec_ptp *ptp, struct fec_ptp_tc *out)
{
	uint32_t sn;

	do {
		sn = rte_seqcount_read_begin(&ptp->seq);
		*out = ptp->tc;
	} while (rte_seqcount_read_retry(&ptp->seq, sn));
}

/**
 * Keep a stamp for one read: the newest one wins, as a MAC's latch register.
 *
 * @param l
 *   Latch.
 * @param ns
 *   Stamp.
 */
static inline void
fec_ptp_latch_set(struct fec_ptp_latch *l, uint64_t ns)
{
	__atomic_store_n(&l->valid, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&l->ns, ns, __ATOMIC_RELEASE);
	__atomic_store_n(&l->valid, 1, __ATOMIC_RELEASE);
}

#endif /* FEC_PTP_H */
