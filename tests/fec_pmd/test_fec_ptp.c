/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's IEEE 1588 timer (fec_model_ptp.c) on its frozen clock, exact
 * values: ATINC/ATCOR/ATPER, ATCR EN/RESTART/CAPTURE, ATVR writes, and the
 * counter in the ts word of an enhanced RX BD. One EAL per case (argv[1]);
 * TAP.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_check.h"
#include "fec_ethdev.h"
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

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{"timer", case_timer},
	{"rx_ts", case_rx_ts},
};

int
main(int argc, char **argv)
{
	unsigned int c;

	if (argc < 2)
		return 2;
	for (c = 0; c < RTE_DIM(cases); c++)
		if (strcmp(cases[c].name, argv[1]) == 0)
			break;
	if (c == RTE_DIM(cases)) {
		fprintf(stderr, "unknown case %s\n", argv[1]);
		return 2;
	}
	if (fec_test_init(argv[0], "fecptp", cases[c].name, "", NB_MBUF, "*:warning") < 0)
		return 1;
	cases[c].fn();
	return fec_test_finish(cases[c].name);
}
