/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * IEEE 1588 on the model's frozen clock, exact values. The model's timer
 * (fec_model_ptp.c): ATINC/ATCOR/ATPER, ATCR EN/RESTART/CAPTURE, ATVR
 * writes, the counter in the ts word of an enhanced RX BD and of a TX BD with
 * ESC.TS. The driver (fec_ptp.c, fec_rx_ts.c, fec_tx_ts.c): the RX timestamp
 * offload (dynamic field and flag on every frame when on, none when off,
 * scattered frames), the 64-bit time across the counter's wrap, the timesync
 * ops (read/write/adjust time, read_clock, the RX and TX PTP stamps read
 * once), a hard-reset restart, legacy BDs refused. One EAL per case
 * (argv[1]); TAP.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_time.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF 512

static const uint8_t fec0_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};

static void
wr(uint32_t off, uint32_t val)
{
	fec_model_write32(model, off, val);
}

/* ATCR.CAPTURE, then ATVR, as Linux's fec_ptp_read. */
static uint32_t
capture(void)
{
	wr(FEC_ATCR, reg(FEC_ATCR) | FEC_ATCR_CAPTURE);
	return reg(FEC_ATVR);
}

static void
case_timer(void)
{
	fec_model_time_freeze(model);
	wr(FEC_ATINC, 8);
	wr(FEC_ATPER, 1000000000u);
	CHECK(capture() == 0, "stopped: 0");
	fec_model_time_advance(model, 1000);
	CHECK(capture() == 0, "not enabled: still 0");
	wr(FEC_ATCR, FEC_ATCR_EN | FEC_ATCR_RESTART);
	CHECK(reg(FEC_ATCR) == FEC_ATCR_EN, "RESTART self-clears: ATCR %#x", reg(FEC_ATCR));
	fec_model_time_advance(model, 1000);
	CHECK(capture() == 1000, "1000 ns at INC 8 and 125 MHz: %u", reg(FEC_ATVR));
	CHECK(reg(FEC_ATCR) == FEC_ATCR_EN, "CAPTURE self-clears");
	fec_model_time_advance(model, 4);
	CHECK(capture() == 1000, "half a clock: no tick: %u", reg(FEC_ATVR));
	fec_model_time_advance(model, 4);
	CHECK(capture() == 1008, "one clock more: %u", reg(FEC_ATVR));
	/* Correction: every 10th clock adds 9 instead of 8 (a faster clock). */
	wr(FEC_ATCOR, 10);
	wr(FEC_ATINC, 8 | 9u << FEC_ATINC_CORR_SHIFT);
	fec_model_time_advance(model, 800);
	CHECK(capture() == 1008 + 800 + 10, "100 clocks with 10 corrections: %u", reg(FEC_ATVR));
	/* Slower: every 4th clock adds 7. */
	wr(FEC_ATCOR, 4);
	wr(FEC_ATINC, 8 | 7u << FEC_ATINC_CORR_SHIFT);
	fec_model_time_advance(model, 800);
	CHECK(capture() == 1818 + 800 - 25, "100 clocks with 25 corrections: %u", reg(FEC_ATVR));
	wr(FEC_ATCOR, 0);
	/* A write sets the counter; ATPER wraps it. */
	wr(FEC_ATVR, 999999992u);
	CHECK(capture() == 999999992u, "ATVR written: %u", reg(FEC_ATVR));
	fec_model_time_advance(model, 16);
	CHECK(capture() == 8, "wrapped at ATPER: %u", reg(FEC_ATVR));
	wr(FEC_ATCR, 0);
	fec_model_time_advance(model, 1000);
	CHECK(capture() == 8, "disabled: held at 8: %u", reg(FEC_ATVR));
	wr(FEC_ATCR, FEC_ATCR_EN | FEC_ATCR_RESTART | FEC_ATCR_CAPTURE);
	CHECK(reg(FEC_ATVR) == 0, "RESTART with CAPTURE: 0, got %u", reg(FEC_ATVR));
	check_clean();
}

/* The ts word of an enhanced RX BD: the counter when the frame came in. */
static void
case_rx_ts(void)
{
	struct rte_eth_conf conf;
	struct rte_mbuf *m[4];
	const struct fec_rxq *rxq;
	const volatile struct fec_bd_ex *bx;
	uint8_t f[60];
	uint16_t got = 0;
	int i;

	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	CHECK(rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, pool) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, 64, 0, NULL) == 0, "txq");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	fec_model_time_freeze(model);
	wr(FEC_ATINC, 8);
	wr(FEC_ATCR, FEC_ATCR_EN | FEC_ATCR_RESTART);
	fec_model_time_advance(model, 123456);
	memset(f, 0, sizeof(f));
	memcpy(f, fec0_mac, 6);
	CHECK(fec_model_rx_frame(model, f, sizeof(f)) == 0, "inject");
	step_all();
	rxq = rte_eth_devices[port].data->rx_queues[0];
	bx = (const volatile struct fec_bd_ex *)(rxq->bd + ((uint32_t)rxq->cur << rxq->bd_shift));
	CHECK(!(rte_le_to_cpu_16(bx->bd.sc) & FEC_BD_E), "BD written");
	CHECK(rte_le_to_cpu_32(bx->ts) == 123456, "ts %u", rte_le_to_cpu_32(bx->ts));
	for (i = 0; i < 3 && got == 0; i++)
		got = rte_eth_rx_burst(port, 0, m, RTE_DIM(m));
	CHECK(got == 1, "received %u", got);
	while (got > 0)
		rte_pktmbuf_free(m[--got]);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Timestamp dynamic field and flag as registered (-1 / 0 when not). */
static int ts_off = -1;
static uint64_t ts_flag;

static void
ts_lookup(void)
{
	int b = rte_mbuf_dynflag_lookup(RTE_MBUF_DYNFLAG_RX_TIMESTAMP_NAME, NULL);

	ts_off = rte_mbuf_dynfield_lookup(RTE_MBUF_DYNFIELD_TIMESTAMP_NAME, NULL);
	ts_flag = b >= 0 ? 1ULL << b : 0;
}

static uint64_t
dyn_ts(const struct rte_mbuf *m)
{
	return *RTE_MBUF_DYNFIELD(m, ts_off, const rte_mbuf_timestamp_t *);
}

/* One RX and one TX queue (nb_txd BDs) from mp, started. */
static int
port_up(uint64_t rx_offloads, struct rte_mempool *mp, uint16_t nb_txd)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.rxmode.offloads = rx_offloads;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, mp);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, nb_txd, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/*
 * A frame to fec0 of len bytes with ether type type (behind a VLAN tag if
 * vlan), processed by the model now: its BD's ts word is the counter now.
 */
static void
inject(uint16_t type, bool vlan, uint16_t len)
{
	uint8_t f[1600];

	memset(f, 0, sizeof(f));
	memcpy(f, fec0_mac, 6);
	f[6] = 0x02;
	if (vlan) {
		f[12] = 0x81;
		f[14] = 0x20; /* PCP 1 */
		f[16] = type >> 8;
		f[17] = type & 0xFF;
	} else {
		f[12] = type >> 8;
		f[13] = type & 0xFF;
	}
	CHECK(fec_model_rx_frame(model, f, len) == 0, "inject %u bytes", len);
	step_all();
}

static uint64_t
ns_of(const struct timespec *ts)
{
	return rte_timespec_to_ns(ts);
}

/* rte_eth_timesync_read_time in ns, UINT64_MAX on error. */
static uint64_t
read_time(void)
{
	struct timespec ts;

	return rte_eth_timesync_read_time(port, &ts) == 0 ? ns_of(&ts) : UINT64_MAX;
}

static uint64_t
read_clock(void)
{
	uint64_t c;

	return rte_eth_read_clock(port, &c) == 0 ? c : UINT64_MAX;
}

static void
poison_cb(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	RTE_SET_USED(mp);
	RTE_SET_USED(arg);
	RTE_SET_USED(idx);
	*RTE_MBUF_DYNFIELD((struct rte_mbuf *)obj, ts_off, rte_mbuf_timestamp_t *) = 0xDEADBEEF;
}

/*
 * RTE_ETH_RX_OFFLOAD_TIMESTAMP: advertised, the field and flag registered,
 * fec_rx_burst_ts chosen, every frame stamped with the counter as it came
 * in; then configured without it: fec_rx_burst again, no flag, the field
 * not written, the counter stopped.
 */
static void
case_offload(void)
{
	/* Multiples of the model's 8 ns clock. */
	static const uint64_t at[] = {1000, 2008, 3016, 4024};
	struct rte_eth_dev_info info;
	struct rte_mbuf *m[8];
	unsigned int i, got;

	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
			(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP),
		"TIMESTAMP advertised with enhanced BDs");
	fec_model_time_freeze(model);
	CHECK(port_up(RTE_ETH_RX_OFFLOAD_TIMESTAMP, pool, 64) == 0, "started with TIMESTAMP");
	ts_lookup();
	CHECK(ts_off >= 0 && ts_flag != 0, "dynamic field %d and flag %#" PRIx64 " registered",
		ts_off, ts_flag);
	CHECK(rte_eth_devices[port].rx_pkt_burst == fec_rx_burst_ts, "fec_rx_burst_ts chosen");
	CHECK((reg(FEC_ATCR) & FEC_ATCR_EN) && reg(FEC_ATINC) == 8 &&
			reg(FEC_ATPER) == FEC_PTP_PERIOD,
		"counter on: ATCR %#x ATINC %u ATPER %#x", reg(FEC_ATCR), reg(FEC_ATINC),
		reg(FEC_ATPER));
	for (i = 0; i < RTE_DIM(at); i++) {
		fec_model_time_advance(model, at[i] - (i == 0 ? 0 : at[i - 1]));
		inject(0x0800, false, 60);
	}
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == RTE_DIM(at), "received %u", got);
	for (i = 0; i < got && i < RTE_DIM(at); i++)
		CHECK((m[i]->ol_flags & ts_flag) && dyn_ts(m[i]) == at[i],
			"frame %u: flag %d, timestamp %" PRIu64 " (want %" PRIu64 ")", i,
			(m[i]->ol_flags & ts_flag) != 0, dyn_ts(m[i]), at[i]);
	fec_test_free_all(m, got);
	CHECK(read_clock() == 4024, "read_clock: the same clock, %" PRIu64, read_clock());
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(!(reg(FEC_ATCR) & FEC_ATCR_EN), "stopped: counter off (no timesync)");
	check_no_leak("after stop");

	/* Off: the field is poisoned in every mbuf and must stay so. */
	rte_mempool_obj_iter(pool, poison_cb, NULL);
	CHECK(port_up(0, pool, 64) == 0, "started without TIMESTAMP");
	CHECK(rte_eth_devices[port].rx_pkt_burst == fec_rx_burst, "fec_rx_burst chosen");
	fec_model_time_advance(model, 1000);
	inject(0x0800, false, 60);
	inject(0x0800, false, 60);
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 2, "received %u", got);
	for (i = 0; i < got; i++)
		CHECK(!(m[i]->ol_flags & ts_flag) && dyn_ts(m[i]) == 0xDEADBEEF,
			"frame %u: no flag, field not written (%#" PRIx64 ")", i, dyn_ts(m[i]));
	fec_test_free_all(m, got);
	CHECK(read_clock() == UINT64_MAX, "read_clock: counter stopped, refused");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * The 64-bit time across the counter's wrap at ATPER (2^31 ns): readings
 * less than a period apart carry it on; a stamp taken before the wrap and
 * extended after a reading past it goes back across it; one after it.
 */
static void
case_wrap(void)
{
	const uint64_t t1 = 2100000000ull, t2 = 2200000000ull, t3 = 2600000000ull;
	const struct fec_priv *fep = rte_eth_devices[port].data->dev_private;
	struct rte_mbuf *m[4];
	unsigned int got, i;

	fec_model_time_freeze(model);
	CHECK(port_up(RTE_ETH_RX_OFFLOAD_TIMESTAMP, pool, 64) == 0, "started with TIMESTAMP");
	ts_lookup();
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_clock() == 1000000000ull, "1 s: %" PRIu64, read_clock());
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_clock() == 2000000000ull, "2 s: %" PRIu64, read_clock());
	fec_model_time_advance(model, t1 - 2000000000ull);
	inject(0x0800, false, 60); /* stamped before the wrap */
	fec_model_time_advance(model, t2 - t1);
	CHECK(read_clock() == t2, "past the wrap: %" PRIu64, read_clock());
	CHECK(reg(FEC_ATVR) == (uint32_t)(t2 - FEC_PTP_PERIOD), "the counter wrapped: %u",
		reg(FEC_ATVR));
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && dyn_ts(m[0]) == t1, "stamp before the wrap, read after it: %" PRIu64,
		got == 1 ? dyn_ts(m[0]) : 0);
	fec_test_free_all(m, got);
	fec_model_time_advance(model, t3 - t2);
	inject(0x0800, false, 60);
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && dyn_ts(m[0]) == t3, "stamp after the reading: %" PRIu64,
		got == 1 ? dyn_ts(m[0]) : 0);
	fec_test_free_all(m, got);
	/* The reading alarm runs on its own (EAL alarm, every FEC_PTP_KEEP_MS). */
	for (i = 0; i < 100 && __atomic_load_n(&fep->ptp.keeps, __ATOMIC_ACQUIRE) == 0; i++)
		rte_delay_ms(50);
	CHECK(__atomic_load_n(&fep->ptp.keeps, __ATOMIC_ACQUIRE) > 0, "the alarm read the counter");
	CHECK(read_clock() == t3, "time unchanged by the alarm (frozen clock): %" PRIu64,
		read_clock());
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* read_time, write_time, adjust_time, read_clock; refused before enable and after disable. */
static void
case_time(void)
{
	struct timespec ts = {0, 0};
	const uint64_t w = 5000000007ull;
	uint32_t inc;

	fec_model_time_freeze(model);
	CHECK(port_up(0, pool, 64) == 0, "started");
	CHECK(rte_eth_timesync_read_time(port, &ts) == -EINVAL, "read_time before enable: EINVAL");
	CHECK(rte_eth_timesync_adjust_time(port, 5) == -EINVAL, "adjust_time before enable");
	CHECK(rte_eth_timesync_write_time(port, &ts) == -EINVAL, "write_time before enable");
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == -EINVAL, "rx stamp before");
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == -EINVAL, "tx stamp before");
	CHECK(rte_eth_timesync_enable(port) == 0, "enable");
	CHECK((reg(FEC_ATCR) & FEC_ATCR_EN) && reg(FEC_ATINC) == 8 &&
			reg(FEC_ATPER) == FEC_PTP_PERIOD && reg(FEC_ATCOR) == 0,
		"counter programmed: ATCR %#x ATINC %u ATPER %#x", reg(FEC_ATCR), reg(FEC_ATINC),
		reg(FEC_ATPER));
	CHECK(read_time() == 0, "time 0 at enable: %" PRIu64, read_time());
	fec_model_time_advance(model, 1232);
	CHECK(read_time() == 1232, "1232 ns later: %" PRIu64, read_time());
	ts.tv_sec = 5;
	ts.tv_nsec = 7;
	CHECK(rte_eth_timesync_write_time(port, &ts) == 0, "write_time 5.000000007");
	CHECK(reg(FEC_ATVR) == (uint32_t)(w & FEC_PTP_MASK), "ATVR %u: the time's low bits",
		reg(FEC_ATVR));
	CHECK(read_time() == w, "read back: %" PRIu64, read_time());
	fec_model_time_advance(model, 96);
	CHECK(read_time() == w + 96, "+96: %" PRIu64, read_time());
	CHECK(rte_eth_timesync_adjust_time(port, -1000) == 0, "adjust -1000");
	CHECK(read_time() == w + 96 - 1000, "adjusted: %" PRIu64, read_time());
	CHECK(rte_eth_timesync_adjust_time(port, 3000000000ll) == 0, "adjust +3 s");
	CHECK(read_time() == w + 96 - 1000 + 3000000000ull, "adjusted: %" PRIu64, read_time());
	/* Two periods in readings 1 s apart. */
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_time() == w + 96 - 1000 + 4000000000ull, "+1 s: %" PRIu64, read_time());
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_clock() == w + 96 - 1000 + 5000000000ull, "read_clock +1 s: %" PRIu64,
		read_clock());
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_time() == w + 96 - 1000 + 6000000000ull, "+1 s: %" PRIu64, read_time());
	ts.tv_sec = 1;
	ts.tv_nsec = 1000000000;
	CHECK(rte_eth_timesync_write_time(port, &ts) == -EINVAL, "tv_nsec 1e9 refused");
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	CHECK(rte_eth_timesync_write_time(port, &ts) == -EINVAL, "negative time refused");
	CHECK(rte_eth_timesync_enable(port) == 0 && read_time() == w + 96 - 1000 + 6000000000ull,
		"enable again: no change");
	CHECK(rte_eth_timesync_disable(port) == 0, "disable");
	CHECK(!(reg(FEC_ATCR) & FEC_ATCR_EN), "counter off: ATCR %#x", reg(FEC_ATCR));
	/* Devarg ptp_clk_mhz: ATINC in whole ns, 7 bits. */
	CHECK(fec_ptp_clk_parse("t", 100, &inc) == 0 && inc == 10, "100 MHz: ATINC 10");
	CHECK(fec_ptp_clk_parse("t", 125, &inc) == 0 && inc == 8, "125 MHz: ATINC 8");
	CHECK(fec_ptp_clk_parse("t", 66, &inc) == -EINVAL, "66 MHz refused (not whole ns)");
	CHECK(fec_ptp_clk_parse("t", 5, &inc) == -EINVAL, "5 MHz refused (ATINC 200)");
	CHECK(fec_ptp_clk_parse("t", 0, &inc) == -EINVAL, "0 refused");
	CHECK(rte_eth_timesync_read_time(port, &ts) == -EINVAL, "read_time after disable");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * PTP frames (0x88F7, untagged or behind a VLAN tag) flagged and their stamp
 * latched for one read, with timesync enabled after dev_start (as
 * ptpclient does: the burst is switched in rte_eth_fp_ops); others not.
 */
static void
case_ptp_rx(void)
{
	struct rte_mbuf *m[4];
	struct timespec ts;
	const uint64_t ptp_fl = RTE_MBUF_F_RX_IEEE1588_PTP | RTE_MBUF_F_RX_IEEE1588_TMST;
	unsigned int got;

	fec_model_time_freeze(model);
	CHECK(port_up(0, pool, 64) == 0, "started");
	CHECK(rte_eth_fp_ops[port].rx_pkt_burst == fec_rx_burst, "fec_rx_burst");
	CHECK(rte_eth_timesync_enable(port) == 0, "enable");
	CHECK(rte_eth_fp_ops[port].rx_pkt_burst == fec_rx_burst_ts,
		"fec_rx_burst_ts in fp_ops after enable");
	fec_model_time_advance(model, 500);
	inject(0x0800, false, 60);
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && (m[0]->ol_flags & ptp_fl) == 0, "IPv4 frame: no PTP flags");
	fec_test_free_all(m, got);
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == -EINVAL, "no PTP frame: EINVAL");
	fec_model_time_advance(model, 500);
	inject(RTE_ETHER_TYPE_1588, false, 60);
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && (m[0]->ol_flags & ptp_fl) == ptp_fl, "PTP frame flagged");
	fec_test_free_all(m, got);
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == 0 && ns_of(&ts) == 1000,
		"its stamp: %" PRIu64, ns_of(&ts));
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == -EINVAL, "read once");
	fec_model_time_advance(model, 500);
	inject(RTE_ETHER_TYPE_1588, true, 64);
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && (m[0]->ol_flags & ptp_fl) == ptp_fl, "VLAN-tagged PTP frame flagged");
	fec_test_free_all(m, got);
	fec_model_time_advance(model, 100);
	inject(RTE_ETHER_TYPE_1588, false, 60);
	got = fec_test_rx_all(m, RTE_DIM(m));
	fec_test_free_all(m, got);
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == 0 && ns_of(&ts) == 1600,
		"the newest stamp: %" PRIu64, ns_of(&ts));
	CHECK(rte_eth_timesync_disable(port) == 0, "disable");
	CHECK(rte_eth_fp_ops[port].rx_pkt_burst == fec_rx_burst, "fec_rx_burst after disable");
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == -EINVAL, "disabled: EINVAL");
	inject(RTE_ETHER_TYPE_1588, false, 60);
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && (m[0]->ol_flags & ptp_fl) == 0, "disabled: PTP frame not flagged");
	fec_test_free_all(m, got);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* One 60-byte frame with ol_flags on TX queue 0: frames taken. */
static uint16_t
tx_one(uint64_t ol_flags)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint16_t n;

	if (m == NULL)
		return 0;
	memset(rte_pktmbuf_mtod(m, uint8_t *), 0, 60);
	rte_pktmbuf_mtod(m, uint8_t *)[0] = 0x02;
	m->data_len = m->pkt_len = 60;
	m->ol_flags = ol_flags;
	n = rte_eth_tx_burst(port, 0, &m, 1);
	if (n == 0)
		rte_pktmbuf_free(m);
	return n;
}

/*
 * TX stamps: RTE_MBUF_F_TX_IEEE1588_TMST sets ESC.TS, the model writes the
 * counter into the BD and raises TS_AVAIL; read_tx_timestamp takes it once,
 * from the ring before any reclaim, or from the reclaim.
 */
static void
case_ptp_tx(void)
{
	const struct fec_txq *txq;
	struct rte_mbuf *m, *m2;
	struct timespec ts;
	unsigned int i;

	fec_model_time_freeze(model);
	CHECK(port_up(0, pool, 64) == 0, "started");
	txq = rte_eth_devices[port].data->tx_queues[0];
	CHECK(rte_eth_timesync_enable(port) == 0, "enable");
	fec_model_time_advance(model, 7000);
	CHECK(tx_one(RTE_MBUF_F_TX_IEEE1588_TMST) == 1, "stamped frame sent");
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == -EINVAL, "not sent yet: EINVAL");
	fec_model_write32(model, FEC_EIR, FEC_EIR_TS_AVAIL);
	step_all();
	CHECK(reg(FEC_EIR) & FEC_EIR_TS_AVAIL, "model: TS_AVAIL");
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == 0 && ns_of(&ts) == 7000,
		"its stamp from the ring: %" PRIu64, ns_of(&ts));
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == -EINVAL, "read once");
	CHECK(tx_one(0) == 1, "plain frame sent");
	step_all();
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == -EINVAL, "plain frame: no stamp");
	/* Taken by the reclaim this time: the ring wraps past it before the read. */
	fec_model_time_advance(model, 1000);
	CHECK(tx_one(RTE_MBUF_F_TX_IEEE1588_TMST) == 1, "stamped frame sent");
	step_all();
	fec_model_time_advance(model, 1000);
	for (i = 0; i < 8; i++) {
		CHECK(fec_test_tx(fec0_mac, 16) == 16, "16 frames");
		step_all();
	}
	CHECK(__atomic_load_n(&txq->ts_bd, __ATOMIC_RELAXED) == FEC_TS_BD_NONE,
		"claimed by the reclaim");
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == 0 && ns_of(&ts) == 8000,
		"its stamp: %" PRIu64, ns_of(&ts));
	CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == -EINVAL, "read once");
	/* A frame in two segments: the stamp is its last BD's. */
	fec_model_time_advance(model, 1000);
	m = rte_pktmbuf_alloc(pool);
	m2 = rte_pktmbuf_alloc(pool);
	CHECK(m != NULL && m2 != NULL, "two mbufs");
	if (m != NULL && m2 != NULL) {
		memset(rte_pktmbuf_mtod(m, uint8_t *), 0, 40);
		rte_pktmbuf_mtod(m, uint8_t *)[0] = 0x02;
		memset(rte_pktmbuf_mtod(m2, uint8_t *), 0, 40);
		m->data_len = m2->data_len = 40;
		m->pkt_len = 80;
		m->nb_segs = 2;
		m->next = m2;
		m->ol_flags = RTE_MBUF_F_TX_IEEE1588_TMST;
		CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "2-segment stamped frame sent");
		step_all();
		CHECK(rte_eth_timesync_read_tx_timestamp(port, &ts) == 0 && ns_of(&ts) == 10000,
			"its stamp: %" PRIu64, ns_of(&ts));
	}
	fec_test_drain_wire();
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Scattered RX with timestamps: the first mbuf of the chain, from the last BD. */
static void
case_scatter(void)
{
	struct rte_mempool *sp =
		rte_pktmbuf_pool_create("fecptp_sg", 256, 0, 0, RTE_PKTMBUF_HEADROOM + 512, 0);
	struct rte_mbuf *m[4];
	struct timespec ts;
	uint16_t got = 0;
	int i;

	CHECK(sp != NULL, "small pool");
	if (sp == NULL)
		return;
	fec_model_time_freeze(model);
	CHECK(port_up(RTE_ETH_RX_OFFLOAD_TIMESTAMP | RTE_ETH_RX_OFFLOAD_SCATTER, sp, 64) == 0,
		"started with SCATTER and TIMESTAMP");
	ts_lookup();
	CHECK(rte_eth_devices[port].rx_pkt_burst == fec_rx_burst_scatter, "scattered burst");
	fec_model_time_advance(model, 4240);
	inject(0x0800, false, 1200);
	for (i = 0; i < 3 && got == 0; i++)
		got = rte_eth_rx_burst(port, 0, m, RTE_DIM(m));
	CHECK(got == 1 && m[0]->nb_segs == 3, "one frame of %u segments",
		got == 1 ? m[0]->nb_segs : 0);
	if (got == 1) {
		CHECK((m[0]->ol_flags & ts_flag) && dyn_ts(m[0]) == 4240,
			"first segment stamped: %" PRIu64, dyn_ts(m[0]));
		CHECK(!(m[0]->next->ol_flags & ts_flag), "second segment: no flag");
	}
	fec_test_free_all(m, got);
	CHECK(rte_eth_timesync_enable(port) == 0, "enable");
	CHECK(rte_eth_devices[port].rx_pkt_burst == fec_rx_burst_scatter, "still scattered");
	fec_model_time_advance(model, 760);
	inject(RTE_ETHER_TYPE_1588, false, 1000);
	got = 0;
	for (i = 0; i < 3 && got == 0; i++)
		got = rte_eth_rx_burst(port, 0, m, RTE_DIM(m));
	CHECK(got == 1 && (m[0]->ol_flags & RTE_MBUF_F_RX_IEEE1588_PTP), "PTP frame flagged");
	fec_test_free_all(m, got);
	CHECK(rte_eth_timesync_read_rx_timestamp(port, &ts, 0) == 0 && ns_of(&ts) == 5000,
		"its stamp: %" PRIu64, ns_of(&ts));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_mempool_avail_count(sp) == 256, "small pool: %u of 256 back",
		rte_mempool_avail_count(sp));
	check_no_leak("after stop");
	check_clean();
}

/* Legacy BDs have no ts word: the offload not advertised, the ops refused. */
static void
case_legacy(void)
{
	struct rte_eth_dev_info info;
	struct timespec ts;
	uint64_t c;

	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
			!(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_TIMESTAMP),
		"TIMESTAMP not advertised");
	CHECK(port_up(RTE_ETH_RX_OFFLOAD_TIMESTAMP, pool, 64) != 0, "TIMESTAMP refused");
	CHECK(port_up(0, pool, 64) == 0, "started without");
	CHECK(rte_eth_timesync_enable(port) == -ENOTSUP, "timesync_enable: ENOTSUP");
	CHECK(rte_eth_timesync_read_time(port, &ts) == -ENOTSUP, "read_time: ENOTSUP");
	CHECK(rte_eth_read_clock(port, &c) == -ENOTSUP, "read_clock: ENOTSUP");
	CHECK(!(reg(FEC_ATCR) & FEC_ATCR_EN), "counter off");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * i.MX6Q restarts with ECR.RESET, which stops and clears the counter: the
 * driver starts it again where the time was (plus the restart's own time,
 * real time here: the model's clock is frozen, so at most a second).
 */
static void
case_restart(void)
{
	uint64_t t0, t1, t2;

	fec_model_time_freeze(model);
	CHECK(port_up(0, pool, 64) == 0, "started");
	CHECK(rte_eth_timesync_enable(port) == 0, "enable");
	/* Readings less than a period (2^31 ns) apart, as the alarm makes them. */
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_time() == 1000000000ull, "1 s");
	fec_model_time_advance(model, 1000000000ull);
	CHECK(read_time() == 2000000000ull, "2 s");
	fec_model_time_advance(model, 1000000000ull);
	t0 = read_time();
	CHECK(t0 == 3000000000ull, "3 s: %" PRIu64, t0);
	CHECK(rte_eth_dev_stop(port) == 0, "stop (ECR.RESET)");
	CHECK(reg(FEC_ATCR) & FEC_ATCR_EN, "counter running while stopped");
	t1 = read_time();
	CHECK(t1 >= t0 && t1 < t0 + 1000000000ull, "time kept across the reset: %" PRIu64, t1);
	CHECK(rte_eth_dev_start(port) == 0, "start (ECR.RESET)");
	t2 = read_time();
	CHECK(t2 >= t1 && t2 < t1 + 1000000000ull, "and across the restart: %" PRIu64, t2);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

static const struct fec_case cases[] = {
	{"timer", "", .fn = case_timer},
	{"rx_ts", "", .fn = case_rx_ts},
	{"offload", "", .fn = case_offload},
	{"wrap", "", .fn = case_wrap},
	{"time", "", .fn = case_time},
	{"ptp_rx", "", .fn = case_ptp_rx},
	{"ptp_tx", "", .fn = case_ptp_tx},
	{"scatter", "", .fn = case_scatter},
	{"legacy", ",bd=legacy", .fn = case_legacy},
	{"restart", ",soc=imx6q", .fn = case_restart},
};

FEC_CASES_MAIN(cases, .tag = "fecptp", .log_level = "*:warning", .nb_mbuf = NB_MBUF)
