/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec RX interrupt coalescing (devarg rx_coalesce=FRAMES:USECS, the
 * ENET's RXICn) against the model in step mode with its clock frozen, so
 * that every count is exact: frames land one at a time, and after each a
 * sleeper's turn looks at queue 0's interrupt fd the way --idle sleep does
 * (woken: disable, poll everything, enable again). One EAL per case (argv[1]).
 * Prints TAP.
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF   1024
#define NB_FRAMES 60
/* rx_coalesce=16:10000: ICTT = 10000 us * 266 MHz / 64 clocks = 41562 periods. */
#define COAL_FRAMES 16u
#define COAL_ICTT   41562u
#define COAL_NS     (COAL_ICTT * 64ull * 1000u / 266u)

static unsigned int wakeups, received;

static int
port_setup(void)
{
	struct rte_eth_conf conf = {.intr_conf.rxq = 1};

	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
		rte_eth_rx_queue_setup(port, 0, 128, 0, NULL, pool) != 0 ||
		rte_eth_tx_queue_setup(port, 0, 128, 0, NULL) != 0 ||
		rte_eth_dev_start(port) != 0 || rte_eth_dev_rx_intr_enable(port, 0) != 0)
		return -1;
	return 0;
}

/* One broadcast frame onto the wire and through the MAC. */
static void
land_frame(void)
{
	uint8_t f[100];

	memset(f, 0xA5, sizeof(f));
	memset(f, 0xFF, 6);
	CHECK(fec_model_rx_frame(model, f, sizeof(f)) == 0, "inject");
	step_all();
}

/* Queue 0's fd is readable: the sleeper would be woken now. */
static int
woken(void)
{
	struct pollfd p = {.fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0), .events = POLLIN};

	return poll(&p, 1, 0) == 1;
}

/* The sleeper's turn: if woken, take the count, disable, poll every frame, enable. */
static unsigned int
sleeper_turn(void)
{
	struct rte_mbuf *m[32];
	unsigned int got = 0, k, i;
	uint64_t count;

	if (!woken())
		return 0;
	CHECK(read(rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0), &count, sizeof(count)) ==
			sizeof(count),
		"read the count");
	wakeups++;
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	do {
		k = rte_eth_rx_burst(port, 0, m, RTE_DIM(m));
		for (i = 0; i < k; i++)
			rte_pktmbuf_free(m[i]);
		got += k;
	} while (k > 0);
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	received += got;
	return got;
}

/* NB_FRAMES frames one after the other, the sleeper's turn after each. */
static void
sparse_frames(void)
{
	unsigned int i;

	fec_model_time_freeze(model);
	CHECK(port_setup() == 0, "port setup");
	for (i = 0; i < NB_FRAMES; i++) {
		land_frame();
		sleeper_turn();
	}
}

/* Without coalescing: every frame interrupts and wakes the sleeper. */
static void
case_off(void)
{
	sparse_frames();
	CHECK(reg(FEC_RXIC(0)) == 0, "RXIC0 left 0");
	CHECK(wakeups == NB_FRAMES, "%u wake-ups for %u frames", wakeups, NB_FRAMES);
	CHECK(fec_model_line_irqs(model, 0) == NB_FRAMES, "%u interrupts",
		fec_model_line_irqs(model, 0));
	CHECK(received == NB_FRAMES, "received %u", received);
	CHECK(fec_model_coal_events(model, false) == 0, "no coalesced event");
}

/*
 * rx_coalesce=16:10000: an interrupt per 16 frames (3 for 48), then the last
 * 12 are held until ICTT after the first of them: not at half of it, but at
 * ICTT the sleeper is woken and takes all 12. 4 interrupts for 60 frames
 * instead of 60, none lost.
 */
static void
case_frames(void)
{
	uint32_t want = FEC_IC_EN | FEC_IC_CS | FEC_IC_ICFT(COAL_FRAMES) | FEC_IC_ICTT(COAL_ICTT);
	unsigned int q;

	sparse_frames();
	for (q = 0; q < 3; q++)
		CHECK(reg(FEC_RXIC(q)) == want, "RXIC%u %#x, want %#x", q, reg(FEC_RXIC(q)), want);
	CHECK(wakeups == NB_FRAMES / COAL_FRAMES, "%u wake-ups after %u frames", wakeups,
		NB_FRAMES);
	CHECK(received == NB_FRAMES / COAL_FRAMES * COAL_FRAMES, "received %u", received);
	CHECK(!(reg(FEC_EIR) & FEC_EIR_RXF), "the last 12 held: no RXF");
	fec_model_time_advance(model, COAL_NS / 2);
	step_all();
	CHECK(sleeper_turn() == 0, "not woken at half the timer");
	fec_model_time_advance(model, COAL_NS - COAL_NS / 2);
	step_all();
	CHECK(sleeper_turn() == NB_FRAMES % COAL_FRAMES, "woken by the timer for the last %u",
		NB_FRAMES % COAL_FRAMES);
	CHECK(received == NB_FRAMES, "received %u of %u", received, NB_FRAMES);
	CHECK(wakeups == NB_FRAMES / COAL_FRAMES + 1, "%u wake-ups", wakeups);
	CHECK(fec_model_line_irqs(model, 0) == wakeups, "%u interrupts",
		fec_model_line_irqs(model, 0));
	CHECK(fec_model_coal_events(model, false) == wakeups, "%u coalesced events",
		fec_model_coal_events(model, false));
	/* A port restart keeps it: the restart writes RXICn again. */
	CHECK(rte_eth_dev_stop(port) == 0 && port_setup() == 0, "restarted");
	CHECK(reg(FEC_RXIC(0)) == want, "RXIC0 after a restart");
}

/*
 * Frames held when coalescing is turned off (RXIC written without ICEN) raise
 * their event then; ICEN with ICFT 0 is refused by the model as unpredictable.
 */
static void
case_off_flush(void)
{
	fec_model_time_freeze(model);
	CHECK(port_setup() == 0, "port setup");
	land_frame();
	land_frame();
	CHECK(!woken(), "2 frames held");
	fec_model_write32(model, FEC_RXIC(0), 0);
	CHECK(sleeper_turn() == 2, "woken for both when coalescing went off");
	CHECK(fec_model_violations(model) == 0, "no violation yet");
	fec_model_write32(model, FEC_RXIC(0), FEC_IC_EN | FEC_IC_ICTT(100));
	CHECK(fec_model_violations(model) == 1 &&
			strstr(fec_model_last_violation(model), "unpredictable") != NULL,
		"ICFT 0: %s", fec_model_last_violation(model));
	fec_model_write32(model, FEC_RXIC(0), 0);
}

/* Values refused at probe with the reason logged; a good one taken. */
static void
case_devargs(void)
{
	static const char *const bad[] = {"rx_coalesce=1:100", "rx_coalesce=256:100",
		"rx_coalesce=16:0", "rx_coalesce=16:16000", "rx_coalesce=16",
		"rx_coalesce=16:", "rx_coalesce=x:100", "rx_coalesce=16:100us",
		"rx_coalesce=16:5000,itr_clk_mhz=1000", "rx_coalesce=16:100,itr_clk_mhz=0",
		"soc=imx6q,rx_coalesce=16:100"};
	char name[32];
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		snprintf(name, sizeof(name), "net_fec%u", i + 1);
		CHECK(rte_vdev_init(name, bad[i]) < 0, "'%s' refused", bad[i]);
	}
	/* 15000 us is the most ICTT holds at 266 MHz; at 100 MHz 41000 us is. */
	CHECK(rte_vdev_init("net_fec20", "rx_coalesce=255:15000") == 0 &&
			rte_vdev_uninit("net_fec20") == 0,
		"255:15000 taken");
	CHECK(rte_vdev_init("net_fec21", "rx_coalesce=2:41000,itr_clk_mhz=100") == 0 &&
			rte_vdev_uninit("net_fec21") == 0,
		"2:41000 at 100 MHz taken");
	CHECK(port_setup() == 0, "port setup");
}

static const struct fec_case cases[] = {
	{"off", "", .fn = case_off},
	{"frames", ",rx_coalesce=16:10000", .fn = case_frames},
	{"off_flush", ",rx_coalesce=16:10000", .fn = case_off_flush},
	{"devargs", "", .fn = case_devargs},
};

/* Every case ends stopped with its mbufs back; off_flush made (and checked) its violation. */
static void
coal_teardown(const struct fec_case *c)
{
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	if (c->fn != case_off_flush)
		check_clean();
}

FEC_CASES_MAIN(
	cases, .tag = "fecc", .log_level = "*:error", .nb_mbuf = NB_MBUF, .teardown = coal_teardown)
