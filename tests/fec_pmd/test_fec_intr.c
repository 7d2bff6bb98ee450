/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec RX interrupts against the model in thread mode (the MAC runs beside
 * the test): one EAL per case (argv[1]), the l3fwd-power cycle of
 * rte_eth_dev_rx_intr_ctl_q + enable + rte_epoll_wait + disable + rx_burst.
 * Prints TAP.
 */

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_mbuf.h>

#include "fec_check.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF   1024
#define FRAME_LEN 100

static int
port_setup(int rxq_intr)
{
	struct rte_eth_conf conf = {.intr_conf.rxq = rxq_intr};

	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
		rte_eth_rx_queue_setup(port, 0, 128, 0, NULL, pool) != 0 ||
		rte_eth_tx_queue_setup(port, 0, 128, 0, NULL) != 0 || rte_eth_dev_start(port) != 0)
		return -1;
	return 0;
}

static volatile uint64_t injected_at; /* TSC of the last inject() */

/* A broadcast frame, so no filter setting matters. */
static void
inject(void *arg)
{
	uint8_t f[FRAME_LEN];

	RTE_SET_USED(arg);
	memset(f, 0xA5, sizeof(f));
	memset(f, 0xFF, 6);
	injected_at = rte_get_timer_cycles();
	if (fec_model_rx_frame(model, f, sizeof(f)) != 0)
		printf("# inject failed\n");
}

/* Until the model has written the frame to a BD and raised RXF. */
static int
wait_landed(void)
{
	uint64_t deadline = rte_get_timer_cycles() + 2 * rte_get_timer_hz();

	while (!(fec_model_read32(model, FEC_EIR) & FEC_EIR_RXF))
		if (rte_get_timer_cycles() > deadline)
			return -1;
	return 0;
}

static int
epoll_wait_ms(int timeout_ms)
{
	struct rte_epoll_event ev[1];

	return rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 1, timeout_ms);
}

/* Readable without consuming it (rte_epoll_wait reads the count). */
static int
fd_readable(void)
{
	struct pollfd p = {.fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0), .events = POLLIN};

	return poll(&p, 1, 0) == 1;
}

/* The frames received now (retried shortly: the last BD may still be in flight). */
static unsigned int
rx_all(void)
{
	struct rte_mbuf *m[8];
	unsigned int got = 0, i, k, tries;

	for (tries = 0; tries < 100; tries++) {
		k = rte_eth_rx_burst(port, 0, m, RTE_DIM(m));
		for (i = 0; i < k; i++) {
			if (m[i]->pkt_len != FRAME_LEN)
				printf("# frame of %u bytes\n", m[i]->pkt_len);
			rte_pktmbuf_free(m[i]);
		}
		got += k;
		if (got > 0 && k == 0)
			break;
		rte_delay_us(1000);
	}
	return got;
}

static void
ctl_add(void)
{
	CHECK(rte_eth_dev_rx_intr_ctl_q(port, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL) ==
			0,
		"queue fd into this thread's epoll");
}

/* Enabled, nothing arrives: rte_epoll_wait times out (and enable did not self-wake). */
static void
case_timeout(void)
{
	uint64_t t0;
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(fec_model_read32(model, FEC_EIMR) & FEC_EIR_RXF, "RXF unmasked");
	t0 = rte_get_timer_cycles();
	n = epoll_wait_ms(200);
	CHECK(n == 0, "epoll returned %d, no frame", n);
	CHECK(rte_get_timer_cycles() - t0 >= rte_get_timer_hz() / 10, "slept until the timeout");
	CHECK(fec_model_irqs(model) == 0, "no interrupt asserted");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(!(fec_model_read32(model, FEC_EIMR) & FEC_EIR_RXF), "RXF masked");
}

/* A frame arrives while the caller sleeps: it wakes, rx_burst returns it. */
static void
case_wake(void)
{
	uint64_t t0, hz = rte_get_timer_hz();
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	/* From the interrupt thread, 100 ms into the wait. */
	CHECK(rte_eal_alarm_set(100 * 1000, inject, NULL) == 0, "alarm");
	t0 = rte_get_timer_cycles();
	n = epoll_wait_ms(3000);
	CHECK(n == 1, "epoll returned %d", n);
	CHECK(rte_get_timer_cycles() - t0 < 2 * hz, "woken by the frame, not the timeout");
	/* Information only: model thread + eventfd + epoll, on a shared machine. */
	printf("# woken %.0f us after the frame was put on the wire\n",
		(double)(rte_get_timer_cycles() - injected_at) * 1e6 / (double)hz);
	CHECK(fec_model_irqs(model) == 1, "one interrupt, got %u", fec_model_irqs(model));
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all() == 1, "the frame is received");
	/* Ring empty again: enabling does not wake the caller. */
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable again");
	CHECK(!fd_readable(), "no wake-up with an empty ring");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
}

/*
 * The lost wake-up race: the frame lands after the last empty burst but
 * before the unmask (RXF raised while masked). Enable must leave the fd
 * readable, else the caller would sleep on a frame.
 */
static void
case_race(void)
{
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	inject(NULL);
	CHECK(wait_landed() == 0, "frame in the ring");
	CHECK(fec_model_irqs(model) == 0 && !fd_readable(), "masked: no interrupt");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(fd_readable(), "fd readable when enable returns");
	n = epoll_wait_ms(0);
	CHECK(n == 1, "epoll returned %d at once", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all() == 1, "the frame is received");
}

/* Disabled: frames arrive, nobody is woken. */
static void
case_disable(void)
{
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	inject(NULL);
	CHECK(wait_landed() == 0, "frame in the ring");
	n = epoll_wait_ms(200);
	CHECK(n == 0, "epoll returned %d while disabled", n);
	CHECK(fec_model_irqs(model) == 0, "no interrupt, got %u", fec_model_irqs(model));
	CHECK(rx_all() == 1, "the frame is still received by polling");
	CHECK(rte_eth_dev_rx_intr_ctl_q(port, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL, NULL) ==
			0,
		"queue fd out of the epoll");
}

/* A MAC restart (link speed change) while enabled keeps RXF unmasked. */
static void
case_restart(void)
{
	struct rte_eth_link l;
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	fec_model_clear_log(model);
	fec_model_phy_set_link(model, 1, 100, 1);
	CHECK(rte_eth_link_get_nowait(port, &l) == 0 && l.link_speed == 100, "link at 100");
	CHECK(fec_model_write_log(model, NULL, 0) > 10, "the MAC was restarted");
	CHECK(fec_model_read32(model, FEC_EIMR) & FEC_EIR_RXF, "RXF still unmasked");
	CHECK(rte_eal_alarm_set(50 * 1000, inject, NULL) == 0, "alarm");
	n = epoll_wait_ms(3000);
	CHECK(n == 1, "epoll returned %d", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all() == 1, "the frame is received");
}

/*
 * Without intr_conf.rxq there is no handle: the calls fail, nothing is
 * unmasked. Configured with it first, then again without it.
 */
static void
case_none(void)
{
	CHECK(port_setup(1) == 0, "port setup with intr_conf.rxq");
	ctl_add();
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(port_setup(0) == 0, "port setup without");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == -ENOTSUP, "enable refused");
	CHECK(rte_eth_dev_rx_intr_ctl_q(port, 0, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL) !=
			0,
		"no queue fd");
	CHECK(fec_model_read32(model, FEC_EIMR) == 0, "EIMR stays 0");
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{"timeout", case_timeout},
	{"wake", case_wake},
	{"race", case_race},
	{"disable", case_disable},
	{"restart", case_restart},
	{"none", case_none},
};

int
main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2)
		return 2;
	if (fec_test_init(argv[0], "feci", argv[1], ",mode=thread", NB_MBUF, "*:error") < 0)
		return 1;
	for (i = 0; i < RTE_DIM(cases); i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			break;
	if (i == RTE_DIM(cases)) {
		printf("Bail out! no case %s\n", argv[1]);
		return 2;
	}
	cases[i].fn();
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
	return fec_test_finish(argv[1]);
}
