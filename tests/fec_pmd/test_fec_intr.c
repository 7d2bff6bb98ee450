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
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>

#include "fec_cases.h"
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

/* Until the model has written a frame to a BD and raised the EIR bit (RXF of its ring). */
static int
wait_until(uint32_t eir_bit)
{
	uint64_t deadline = rte_get_timer_cycles() + 2 * rte_get_timer_hz();

	while (!(fec_model_read32(model, FEC_EIR) & eir_bit))
		if (rte_get_timer_cycles() > deadline)
			return -1;
	return 0;
}

/* Until ring 0 has a frame. */
static int
wait_landed(void)
{
	return wait_until(FEC_EIR_RXF);
}

static int
epoll_wait_ms(int timeout_ms)
{
	struct rte_epoll_event ev[1];

	return rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 1, timeout_ms);
}

/* Readable without consuming it (rte_epoll_wait reads the count), queue q's fd. */
static int
fd_readable_q(uint16_t q)
{
	struct pollfd p = {.fd = rte_eth_dev_rx_intr_ctl_q_get_fd(port, q), .events = POLLIN};

	return poll(&p, 1, 0) == 1;
}

/* The frames received now (retried shortly: the last BD may still be in flight), on queue q. */
static unsigned int
rx_all_q(uint16_t q)
{
	struct rte_mbuf *m[8];
	unsigned int got = 0, i, k, tries;

	for (tries = 0; tries < 100; tries++) {
		k = rte_eth_rx_burst(port, q, m, RTE_DIM(m));
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

/*
 * Port up, queue 0 enabled and in this thread's epoll: a frame injected from
 * the interrupt thread 100 ms into a 3 s wait wakes it (not the timeout).
 */
static void
woken_by_frame(void)
{
	uint64_t t0, hz = rte_get_timer_hz();
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(rte_eal_alarm_set(100 * 1000, inject, NULL) == 0, "alarm");
	t0 = rte_get_timer_cycles();
	n = epoll_wait_ms(3000);
	CHECK(n == 1, "epoll returned %d", n);
	CHECK(rte_get_timer_cycles() - t0 < 2 * hz, "woken by the frame, not the timeout");
	/* Information only: model thread + fd + epoll, on a shared machine. */
	printf("# woken %.0f us after the frame was put on the wire\n",
		(double)(rte_get_timer_cycles() - injected_at) * 1e6 / (double)hz);
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
	woken_by_frame();
	CHECK(fec_model_irqs(model) == 1, "one interrupt, got %u", fec_model_irqs(model));
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all_q(0) == 1, "the frame is received");
	/* Ring empty again: enabling does not wake the caller. */
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable again");
	CHECK(!fd_readable_q(0), "no wake-up with an empty ring");
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
	CHECK(fec_model_irqs(model) == 0 && !fd_readable_q(0), "masked: no interrupt");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(fd_readable_q(0), "fd readable when enable returns");
	n = epoll_wait_ms(0);
	CHECK(n == 1, "epoll returned %d at once", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all_q(0) == 1, "the frame is received");
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
	CHECK(rx_all_q(0) == 1, "the frame is still received by polling");
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
	CHECK(rx_all_q(0) == 1, "the frame is received");
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

/* 3 RX queues (one per ring, rcmr= classifying by PCP), 1 TX, RX interrupts on. */
static int port_setup_n(uint16_t n);

static int
port_setup_rings(void)
{
	return port_setup_n(3);
}

/* A broadcast frame tagged with VLAN priority pcp (which picks its ring). */
static void
inject_pcp(int pcp)
{
	uint8_t f[FRAME_LEN];

	memset(f, 0xA5, sizeof(f));
	memset(f, 0xFF, 6);
	f[12] = 0x81;
	f[13] = 0x00;
	f[14] = (uint8_t)(pcp << 5);
	f[15] = 7;
	injected_at = rte_get_timer_cycles();
	if (fec_model_rx_frame(model, f, sizeof(f)) != 0)
		printf("# inject failed\n");
}

static void
inject_ring1(void *arg)
{
	RTE_SET_USED(arg);
	inject_pcp(5);
}

static void
inject_ring2(void *arg)
{
	RTE_SET_USED(arg);
	inject_pcp(6);
}

/* Queue q's fd into this thread's epoll, the queue number as the event's data. */
static void
ctl_add_q(uint16_t q)
{
	CHECK(rte_eth_dev_rx_intr_ctl_q(
		      port, q, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, (void *)(uintptr_t)q) == 0,
		"queue %u fd into this thread's epoll", q);
}

/*
 * An idle lcore on ring 1, then ring 2 (each alone enabled, all three fds in
 * its epoll): a frame of that ring's priority wakes it through that ring's
 * line only, epoll names the queue, rx_burst on it returns the frame. A frame
 * for ring 0 (masked) wakes nobody; with every queue enabled a ring 2 frame
 * wakes the waiter with ring 2's event alone.
 */
static void
case_ring_wake(void)
{
	void (*inj[3])(void *) = {NULL, inject_ring1, inject_ring2};
	struct rte_epoll_event ev[3];
	uint64_t t0, hz = rte_get_timer_hz();
	uint16_t q;
	int n;

	CHECK(port_setup_rings() == 0, "port setup, 3 RX queues");
	for (q = 0; q < 3; q++)
		ctl_add_q(q);
	for (q = 1; q < 3; q++) {
		unsigned int before = fec_model_line_irqs(model, q);

		CHECK(rte_eth_dev_rx_intr_enable(port, q) == 0, "enable %u", q);
		CHECK(fec_model_read32(model, FEC_EIMR) == fec_eir_rxf(q), "EIMR 0x%x: RXF%u only",
			fec_model_read32(model, FEC_EIMR), q);
		CHECK(rte_eal_alarm_set(100 * 1000, inj[q], NULL) == 0, "alarm");
		t0 = rte_get_timer_cycles();
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 3, 3000);
		CHECK(n == 1 && ev[0].epdata.data == (void *)(uintptr_t)q,
			"ring %u: epoll returned %d, queue %lu", q, n,
			n > 0 ? (unsigned long)(uintptr_t)ev[0].epdata.data : 99ul);
		CHECK(rte_get_timer_cycles() - t0 < 2 * hz, "woken by the frame, not the timeout");
		printf("# ring %u: woken %.0f us after the frame was put on the wire\n", q,
			(double)(rte_get_timer_cycles() - injected_at) * 1e6 / (double)hz);
		CHECK(fec_model_line_irqs(model, q) == before + 1 &&
				fec_model_line_irqs(model, 0) == 0,
			"ring %u: one interrupt on int%u (%u), none on int0 (%u)", q, q,
			fec_model_line_irqs(model, q) - before, fec_model_line_irqs(model, 0));
		CHECK(rte_eth_dev_rx_intr_disable(port, q) == 0, "disable %u", q);
		CHECK(rx_all_q(q) == 1, "ring %u: the frame is received on queue %u", q, q);
		CHECK(rx_all_q(0) == 0 && rx_all_q(3 - q) == 0, "nothing on the other queues");
	}
	/* Ring 1 enabled, a frame for ring 0 lands: nobody is woken. */
	CHECK(rte_eth_dev_rx_intr_enable(port, 1) == 0, "enable 1");
	inject_pcp(0);
	CHECK(wait_landed() == 0, "frame in ring 0");
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 3, 200);
	CHECK(n == 0, "a ring 0 frame does not wake ring 1's waiter: %d", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 1) == 0, "disable 1");
	CHECK(rx_all_q(0) == 1, "the ring 0 frame is polled");
	/* All three enabled: a ring 2 frame wakes with ring 2's event alone. */
	for (q = 0; q < 3; q++)
		CHECK(rte_eth_dev_rx_intr_enable(port, q) == 0, "enable %u", q);
	CHECK(rte_eal_alarm_set(50 * 1000, inject_ring2, NULL) == 0, "alarm");
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 3, 3000);
	CHECK(n == 1 && ev[0].epdata.data == (void *)(uintptr_t)2, "all enabled: %d events", n);
	for (q = 0; q < 3; q++)
		CHECK(rte_eth_dev_rx_intr_disable(port, q) == 0, "disable %u", q);
	CHECK(fec_model_read32(model, FEC_EIMR) == 0, "every RXF masked");
	CHECK(rx_all_q(2) == 1, "the ring 2 frame");
}

/*
 * The lost wake-up race per ring: a frame lands in ring q while its RXF is
 * masked; enabling q leaves q's fd readable (and no other queue's).
 */
static void
case_ring_race(void)
{
	struct rte_epoll_event ev[3];
	uint16_t q;
	int n;

	CHECK(port_setup_rings() == 0, "port setup, 3 RX queues");
	for (q = 0; q < 3; q++)
		ctl_add_q(q);
	for (q = 1; q < 3; q++) {
		inject_pcp(q == 1 ? 4 : 7);
		CHECK(wait_until(fec_eir_rxf(q)) == 0, "frame in ring %u", q);
		CHECK(fec_model_irqs(model) == 0 && !fd_readable_q(q), "masked: no interrupt");
		CHECK(rte_eth_dev_rx_intr_enable(port, q) == 0, "enable %u", q);
		CHECK(fd_readable_q(q) && !fd_readable_q(0) && !fd_readable_q(3 - q),
			"ring %u: its fd alone readable when enable returns", q);
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 3, 0);
		CHECK(n == 1 && ev[0].epdata.data == (void *)(uintptr_t)q,
			"epoll returned %d at once", n);
		CHECK(rte_eth_dev_rx_intr_disable(port, q) == 0, "disable %u", q);
		CHECK(rx_all_q(q) == 1, "the frame is received on queue %u", q);
		fec_model_write32(model, FEC_EIR, fec_eir_rxf(q));
	}
}

/* Configure n RX queues (1 TX), RX interrupts on, and start. */
static int
port_setup_n(uint16_t n)
{
	struct rte_eth_conf conf = {.intr_conf.rxq = 1};
	uint16_t q;

	if (rte_eth_dev_configure(port, n, 1, &conf) != 0)
		return -1;
	for (q = 0; q < n; q++)
		if (rte_eth_rx_queue_setup(port, q, 128, 0, NULL, pool) != 0)
			return -1;
	if (rte_eth_tx_queue_setup(port, 0, 128, 0, NULL) != 0 || rte_eth_dev_start(port) != 0)
		return -1;
	return 0;
}

/*
 * rcmr=1:4-5: configured with 2 RX queues (queue 2 does not exist), then
 * with 3: the handle follows the queue count, queue 2 gets its own fd, and
 * ring 1 still wakes its waiter; configured again with 3: the same fds.
 */
static void
case_ring_reconfigure(void)
{
	struct rte_epoll_event ev[1];
	int fd1, n;

	CHECK(port_setup_n(2) == 0, "port setup, 2 RX queues");
	CHECK(rte_eth_dev_rx_intr_enable(port, 2) != 0, "no queue 2");
	fd1 = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 1);
	CHECK(fd1 >= 0, "queue 1 has an fd");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(port_setup_n(3) == 0, "port setup, 3 RX queues");
	CHECK(rte_eth_dev_rx_intr_ctl_q_get_fd(port, 2) >= 0 &&
			rte_eth_dev_rx_intr_ctl_q_get_fd(port, 2) != fd1 &&
			rte_eth_dev_rx_intr_ctl_q_get_fd(port, 2) !=
				rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0),
		"queue 2 has an fd of its own");
	CHECK(rte_eth_dev_rx_intr_enable(port, 2) == 0, "enable 2");
	CHECK(rte_eth_dev_rx_intr_disable(port, 2) == 0, "disable 2");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(port_setup_n(3) == 0, "configured again with 3");
	CHECK(rte_eth_dev_rx_intr_ctl_q_get_fd(port, 1) == fd1, "the same fd for queue 1");
	ctl_add_q(1);
	CHECK(rte_eth_dev_rx_intr_enable(port, 1) == 0, "enable 1");
	CHECK(rte_eal_alarm_set(50 * 1000, inject_ring1, NULL) == 0, "alarm");
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 1, 3000);
	CHECK(n == 1 && ev[0].epdata.data == (void *)(uintptr_t)1, "ring 1 wakes: %d", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 1) == 0, "disable 1");
	CHECK(rx_all_q(1) == 1, "the frame");
}

/*
 * The seeded random race (thread mode: the model's thread is the DMA). Two
 * worker lcores each poll, then sleep on RX interrupts as dpdk-forwarder's
 * --idle sleep does: lcore 1 on queue 0, lcore 2 on queues 1 and 2 (so two
 * lcores enable and disable RXF bits of the one EIMR at random moments). The
 * main lcore puts frames on the wire in random batches of random priorities
 * (hence rings) with random gaps, some long enough for the workers to fall
 * asleep, and takes what the workers send back off the wire. Asserted: every
 * frame received exactly once, on its ring's queue, in order per ring;
 * nothing missed or in error; every frame a worker sent is on the wire; no
 * sleep timed out while frames were still coming (a lost wake-up: the
 * timeout is 2 s, the gaps at most 4 ms); every mbuf back.
 */
#define RACE_FRAMES  20000u
#define RACE_INFLOAT 48u  /* frames on the wire not yet received: well below a ring */
#define RACE_TIMEOUT 2000 /* ms: only a lost wake-up sleeps this long */

static uint64_t race_seed;

struct race_worker {
	uint16_t q[3], nq, txq;
	uint64_t rx, tx, tx_refused, sleeps, wakeups, empty_wakeups, lost, misplaced, order;
	uint32_t last_seq[3];
};

static struct race_worker race_w[2];
static uint8_t race_seen[RACE_FRAMES];
static volatile int race_injecting; /* the main lcore still puts frames on the wire */
static volatile int race_stop;
static uint64_t race_received;

static uint64_t
xorshift64(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* What rcmr=[1:4-5,2:6-7] makes of a priority (-1: untagged). */
static uint16_t
race_ring(int pcp)
{
	return pcp < 4 ? 0 : pcp < 6 ? 1 : 2;
}

static void
race_frame(int pcp, uint32_t seq)
{
	uint8_t f[FRAME_LEN];
	uint32_t off = 12;

	memset(f, 0x5A, sizeof(f));
	memset(f, 0xFF, 6);
	if (pcp >= 0) {
		f[off++] = 0x81;
		f[off++] = 0x00;
		f[off++] = (uint8_t)(pcp << 5);
		f[off++] = 7;
	}
	f[off++] = 0x88;
	f[off++] = 0xB5;
	memcpy(f + off, &seq, 4);
	while (fec_model_rx_frame(model, f, sizeof(f)) != 0)
		rte_pause(); /* the wire FIFO is full: the model's thread empties it */
}

/* Poll the worker's queues once, send what came back out: frames received. */
static unsigned int
race_poll(struct race_worker *w)
{
	struct rte_mbuf *m[32];
	unsigned int i, j, n = 0;

	for (i = 0; i < w->nq; i++) {
		uint16_t k = rte_eth_rx_burst(port, w->q[i], m, RTE_DIM(m)), sent;

		for (j = 0; j < k; j++) {
			const uint8_t *p = rte_pktmbuf_mtod(m[j], const uint8_t *);
			int tagged = p[12] == 0x81 && p[13] == 0x00;
			uint32_t seq;

			memcpy(&seq, p + (tagged ? 18 : 14), 4);
			if (seq >= RACE_FRAMES || m[j]->pkt_len != FRAME_LEN) {
				w->misplaced++;
				continue;
			}
			__atomic_fetch_add(&race_seen[seq], 1, __ATOMIC_RELAXED);
			if (race_ring(tagged ? p[14] >> 5 : -1) != w->q[i])
				w->misplaced++;
			if (w->last_seq[i] != UINT32_MAX && seq <= w->last_seq[i])
				w->order++;
			w->last_seq[i] = seq;
		}
		sent = rte_eth_tx_burst(port, w->txq, m, k);
		w->tx += sent;
		w->tx_refused += k - sent;
		rte_pktmbuf_free_bulk(m + sent, k - sent);
		n += k;
	}
	w->rx += n;
	__atomic_fetch_add(&race_received, n, __ATOMIC_RELAXED);
	return n;
}

static void
race_intr(struct race_worker *w, int on)
{
	unsigned int i;

	for (i = 0; i < w->nq; i++)
		if ((on ? rte_eth_dev_rx_intr_enable(port, w->q[i])
			: rte_eth_dev_rx_intr_disable(port, w->q[i])) != 0)
			w->misplaced++;
}

static int
race_worker_main(void *arg)
{
	struct race_worker *w = arg;
	struct rte_epoll_event ev[3];
	unsigned int i, idle = 0;
	uint64_t rx_at_wake = UINT64_MAX; /* w->rx when the last sleep was ended by an interrupt */

	for (i = 0; i < w->nq; i++)
		if (rte_eth_dev_rx_intr_ctl_q(
			    port, w->q[i], RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL) != 0)
			return -1;
	while (!race_stop) {
		int n;

		if (race_poll(w) != 0) {
			idle = 0;
			continue;
		}
		if (++idle < 32)
			continue;
		idle = 0;
		/* Woken, and nothing came since: the interrupt was not for a frame. */
		if (rx_at_wake == w->rx)
			w->empty_wakeups++;
		rx_at_wake = UINT64_MAX;
		race_intr(w, 1);
		/* A frame that landed before the unmask: no sleep (as the forwarder). */
		if (race_poll(w) != 0) {
			race_intr(w, 0);
			continue;
		}
		w->sleeps++;
		n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, 3, RACE_TIMEOUT);
		race_intr(w, 0);
		if (n > 0) {
			w->wakeups++;
			rx_at_wake = w->rx;
		} else if (race_injecting)
			w->lost++;
	}
	for (i = 0; i < w->nq; i++)
		rte_eth_dev_rx_intr_ctl_q(
			port, w->q[i], RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL, NULL);
	/* Whatever is still on the TX ring goes out. */
	for (i = 0; i < 1000 && rte_eth_tx_done_cleanup(port, w->txq, 0) >= 0; i++)
		rte_delay_us(100);
	return 0;
}

/* No frame received for this long: the race is stuck (not merely slow). */
#define RACE_STALL_S 10

struct race_progress {
	uint64_t received; /**< race_received when it last moved */
	uint64_t at;       /**< and when */
};

static void
race_progress_init(struct race_progress *p)
{
	p->received = __atomic_load_n(&race_received, __ATOMIC_RELAXED);
	p->at = rte_get_timer_cycles();
}

/* True when race_received has not moved for RACE_STALL_S. */
static bool
race_stalled(struct race_progress *p, uint64_t hz)
{
	uint64_t r = __atomic_load_n(&race_received, __ATOMIC_RELAXED),
		 now = rte_get_timer_cycles();

	if (r != p->received) {
		p->received = r;
		p->at = now;
	}
	return now - p->at >= RACE_STALL_S * hz;
}

static void
case_race_seeded(void)
{
	struct rte_eth_conf conf = {.intr_conf.rxq = 1};
	struct rte_eth_stats st;
	uint8_t buf[2048];
	uint64_t seed = race_seed, x, wire = 0, t0, hz = rte_get_timer_hz();
	uint32_t seq = 0, w, q, dup = 0, missing = 0;
	struct race_progress pr;

	printf("# seed %" PRIu64 " (rerun: test_fec_intr race_seeded %" PRIu64 ")\n", seed, seed);
	x = seed != 0 ? seed : 1;
	CHECK(rte_lcore_count() == 3, "3 lcores (main + 2 workers): %u", rte_lcore_count());
	CHECK(rte_eth_dev_configure(port, 3, 2, &conf) == 0, "configure 3 RX, 2 TX");
	for (q = 0; q < 3; q++)
		CHECK(rte_eth_rx_queue_setup(port, q, 128, 0, NULL, pool) == 0, "rxq %u", q);
	for (q = 0; q < 2; q++)
		CHECK(rte_eth_tx_queue_setup(port, q, 128, 0, NULL) == 0, "txq %u", q);
	CHECK(rte_eth_dev_start(port) == 0, "start");
	race_w[0] = (struct race_worker){.q = {0}, .nq = 1, .txq = 0};
	race_w[1] = (struct race_worker){.q = {1, 2}, .nq = 2, .txq = 1};
	for (w = 0; w < 2; w++)
		for (q = 0; q < 3; q++)
			race_w[w].last_seq[q] = UINT32_MAX;
	race_injecting = 1;
	w = 0;
	{
		unsigned int lc;

		RTE_LCORE_FOREACH_WORKER(lc)
		if (w < 2)
			CHECK(rte_eal_remote_launch(race_worker_main, &race_w[w++], lc) == 0,
				"launch worker on lcore %u", lc);
	}
	/*
	 * Deadlines follow progress: the run stops early only when no frame was
	 * received for RACE_STALL_S (a stuck worker or a lost wakeup), not after
	 * a fixed time a busy machine would miss.
	 */
	race_progress_init(&pr);
	while (seq < RACE_FRAMES && !race_stalled(&pr, hz)) {
		uint64_t r = xorshift64(&x);
		unsigned int batch = 1 + (unsigned int)(r % 16), i;

		for (i = 0; i < batch && seq < RACE_FRAMES; i++) {
			int pcp = (int)((xorshift64(&x) % 9)) - 1;

			/* Never more in flight than a ring holds, whichever ring they go to. */
			while (seq - __atomic_load_n(&race_received, __ATOMIC_RELAXED) >=
					RACE_INFLOAT &&
				!race_stalled(&pr, hz))
				while (fec_model_tx_frame(model, buf, sizeof(buf)) >= 0)
					wire++;
			race_frame(pcp, seq++);
		}
		while (fec_model_tx_frame(model, buf, sizeof(buf)) >= 0)
			wire++;
		/* No gap, a short one, or (1 in 8) 1-4 ms: long enough to fall asleep. */
		switch ((r >> 32) % 8) {
		case 0:
			rte_delay_us_sleep(1000 + (unsigned int)((r >> 40) % 3000));
			break;
		case 1:
		case 2:
			rte_delay_us_block((unsigned int)((r >> 40) % 50));
			break;
		default:
			break;
		}
	}
	race_injecting = 0;
	/* Until everything is received and back on the wire (while it progresses). */
	race_progress_init(&pr);
	while (!race_stalled(&pr, hz) && __atomic_load_n(&race_received, __ATOMIC_RELAXED) < seq) {
		while (fec_model_tx_frame(model, buf, sizeof(buf)) >= 0)
			wire++;
		rte_delay_us_sleep(1000);
	}
	race_stop = 1;
	rte_eal_mp_wait_lcore();
	/* what the workers sent, out of the model: until it stops coming */
	t0 = rte_get_timer_cycles();
	while (rte_get_timer_cycles() - t0 < RACE_STALL_S * hz &&
		wire < race_w[0].tx + race_w[1].tx) {
		uint64_t before = wire;

		while (fec_model_tx_frame(model, buf, sizeof(buf)) >= 0)
			wire++;
		if (wire != before)
			t0 = rte_get_timer_cycles();
		rte_delay_us_sleep(1000);
	}
	for (q = 0; q < RACE_FRAMES; q++) {
		dup += race_seen[q] > 1;
		missing += q < seq && race_seen[q] == 0;
	}
	CHECK(seq == RACE_FRAMES, "injected %u of %u: nothing received for %u s", seq, RACE_FRAMES,
		RACE_STALL_S);
	CHECK(dup == 0 && missing == 0, "each frame received once: %u twice, %u missing", dup,
		missing);
	CHECK(race_received == seq, "received %" PRIu64 " of %u", race_received, seq);
	for (w = 0; w < 2; w++) {
		struct race_worker *k = &race_w[w];

		printf("# lcore %u: rx %" PRIu64 " tx %" PRIu64 " refused %" PRIu64
		       " sleeps %" PRIu64 " wakeups %" PRIu64 " (%" PRIu64 " found no frame)\n",
			w + 1, k->rx, k->tx, k->tx_refused, k->sleeps, k->wakeups,
			k->empty_wakeups);
		CHECK(k->misplaced == 0 && k->order == 0,
			"worker %u: %" PRIu64 " on a wrong queue or failed calls, %" PRIu64
			" out of order",
			w + 1, k->misplaced, k->order);
		CHECK(k->lost == 0, "worker %u: %" PRIu64 " sleeps timed out while frames came",
			w + 1, k->lost);
		/*
		 * An interrupt with no frame behind it: a busy loop in disguise (e.g. an
		 * RXF never acked asserts on every unmask). A few are legitimate: a
		 * frame the self-check signalled and the re-poll took leaves a count.
		 */
		CHECK(k->empty_wakeups <= k->sleeps / 4 + 5,
			"worker %u: %" PRIu64 " of %" PRIu64 " wake-ups found no frame", w + 1,
			k->empty_wakeups, k->wakeups);
		CHECK(k->sleeps > 0 && k->wakeups > 0,
			"worker %u slept (%" PRIu64 ") and was woken (%" PRIu64 ")", w + 1,
			k->sleeps, k->wakeups);
	}
	CHECK(race_w[0].rx > 0 && race_w[1].rx > 0, "both workers received");
	CHECK(wire == race_w[0].tx + race_w[1].tx, "on the wire %" PRIu64 " of %" PRIu64 " sent",
		wire, race_w[0].tx + race_w[1].tx);
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.imissed == 0 && st.ierrors == 0,
		"imissed %" PRIu64 " ierrors %" PRIu64, st.imissed, st.ierrors);
	CHECK(fec_model_read32(model, FEC_EIMR) == 0, "every RXF masked at the end");
}

/*
 * intr=uio: the driver's UIO path against the model's emulation of
 * uio_pdrv_genirq (fec_model_uio_open()): one IRQ, disabled by each
 * interrupt until the driver enables it again, RXF acked at disable.
 */

/* Enabled, nothing arrives: the wait times out; disable masks RXF. */
static void
case_uio_timeout(void)
{
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(fec_model_read32(model, FEC_EIMR) == FEC_EIR_RXF, "RXF alone unmasked");
	n = epoll_wait_ms(200);
	CHECK(n == 0, "epoll returned %d, no frame", n);
	CHECK(fec_model_uio_irqs(model) == 0, "no interrupt");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(fec_model_read32(model, FEC_EIMR) == 0, "RXF masked");
	/* The devarg: lines or uio on the model, nothing else. */
	CHECK(rte_vdev_init("net_fec1", "intr=irq") < 0, "intr=irq refused");
	CHECK(rte_vdev_init("net_fec2", "intr=lines") == 0 && rte_vdev_uninit("net_fec2") == 0,
		"intr=lines taken");
}

/*
 * A frame wakes the sleeper through the UIO IRQ; a second one while the IRQ
 * is still off (the kernel's handler disabled it) interrupts nothing. Both
 * are polled after disable; the next enable with RXF acked does not wake.
 */
static void
case_uio_wake(void)
{
	int n;

	woken_by_frame();
	CHECK(fec_model_uio_irqs(model) == 1, "one interrupt, got %u", fec_model_uio_irqs(model));
	/* RXF cleared behind the driver's back: the second frame is a new edge. */
	fec_model_write32(model, FEC_EIR, FEC_EIR_RXF);
	inject(NULL);
	CHECK(wait_landed() == 0, "second frame in the ring");
	CHECK(fec_model_uio_irqs(model) == 1 && !fd_readable_q(0),
		"IRQ off until enabled again: %u interrupts", fec_model_uio_irqs(model));
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(!(fec_model_read32(model, FEC_EIR) & FEC_EIR_RXF), "disable acked RXF");
	CHECK(rx_all_q(0) == 2, "both frames received");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable again");
	CHECK(!fd_readable_q(0) && fec_model_uio_irqs(model) == 1,
		"no wake-up with an empty ring and RXF acked");
	/* Enable turned the IRQ back on: a third frame wakes the next wait. */
	CHECK(rte_eal_alarm_set(50 * 1000, inject, NULL) == 0, "alarm");
	n = epoll_wait_ms(3000);
	CHECK(n == 1 && fec_model_uio_irqs(model) == 2, "woken again: epoll %d, %u interrupts", n,
		fec_model_uio_irqs(model));
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all_q(0) == 1, "the third frame is received");
}

/*
 * The lost wake-up race on UIO: a frame lands after the caller's disable
 * (RXF pending, masked) and is not polled. The driver cannot write the UIO fd;
 * the unmask with the IRQ enabled must interrupt at once instead.
 */
static void
case_uio_race(void)
{
	int n;

	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	inject(NULL);
	CHECK(wait_landed() == 0, "frame in the ring");
	CHECK(fec_model_uio_irqs(model) == 0 && !fd_readable_q(0), "masked: no interrupt");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(fd_readable_q(0), "fd readable when enable returns");
	CHECK(fec_model_uio_irqs(model) == 1, "the unmask interrupted: %u",
		fec_model_uio_irqs(model));
	n = epoll_wait_ms(0);
	CHECK(n == 1, "epoll returned %d at once", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all_q(0) == 1, "the frame is received");
}

/*
 * An interrupt the caller did not wait for (it timed out, then polled the
 * frame): enable consumes the stale count, so the next wait does not end at
 * once for a frame already taken.
 */
static void
case_uio_stale(void)
{
	CHECK(port_setup(1) == 0, "port setup");
	ctl_add();
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	inject(NULL);
	CHECK(wait_landed() == 0, "frame in the ring");
	CHECK(fec_model_uio_irqs(model) == 1 && fd_readable_q(0), "interrupted");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable without waiting");
	CHECK(rx_all_q(0) == 1, "the frame is received");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "enable");
	CHECK(!fd_readable_q(0), "the stale count was consumed");
	CHECK(epoll_wait_ms(100) == 0, "the next wait sleeps");
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
}

/*
 * 3 RX queues with intr=uio (rcmr=1:4-5): the one IRQ carries ring 0, so
 * queue 0 alone has a vector; the others have no fd and refuse enable.
 * Configured again with 2 and 3 queues in turn, then without
 * intr_conf.rxq: each old handle's UIO open is closed (the model's 4 opens
 * would run out otherwise).
 */
static void
case_uio_queues(void)
{
	int fd0, n;
	uint16_t q;

	CHECK(port_setup_n(3) == 0, "port setup, 3 RX queues");
	fd0 = rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0);
	CHECK(fd0 >= 0, "queue 0 has an fd");
	for (q = 1; q < 3; q++) {
		CHECK(rte_eth_dev_rx_intr_ctl_q_get_fd(port, q) < 0, "queue %u has no fd", q);
		CHECK(rte_eth_dev_rx_intr_ctl_q(
			      port, q, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL) != 0,
			"queue %u into epoll refused", q);
		CHECK(rte_eth_dev_rx_intr_enable(port, q) == -ENOTSUP, "queue %u enable refused",
			q);
		CHECK(rte_eth_dev_rx_intr_disable(port, q) == -ENOTSUP, "queue %u disable refused",
			q);
	}
	ctl_add_q(0);
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == 0, "queue 0 enable");
	CHECK(rte_eal_alarm_set(50 * 1000, inject, NULL) == 0, "alarm");
	n = epoll_wait_ms(3000);
	CHECK(n == 1, "queue 0 woken: epoll returned %d", n);
	CHECK(rte_eth_dev_rx_intr_disable(port, 0) == 0, "disable");
	CHECK(rx_all_q(0) == 1, "the frame is received on queue 0");
	/* Each change of the queue count makes a new handle (and a new open). */
	for (n = 0; n < 6; n++) {
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
		CHECK(port_setup_n((uint16_t)(2 + n % 2)) == 0, "configured again, %d queues",
			2 + n % 2);
	}
	CHECK(rte_eth_dev_rx_intr_ctl_q_get_fd(port, 0) >= 0, "queue 0 has an fd again");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_configure(port, 2, 1, &(struct rte_eth_conf){.intr_conf.rxq = 0}) == 0,
		"configured without intr_conf.rxq");
	CHECK(rte_eth_dev_rx_intr_enable(port, 0) == -ENOTSUP, "enable refused");
	CHECK(fec_model_uio_open(model) >= 0, "the model's UIO opens were given back");
	CHECK(rte_eth_dev_configure(port, 2, 1, &(struct rte_eth_conf){.intr_conf.rxq = 1}) == 0 &&
			rte_eth_rx_queue_setup(port, 0, 128, 0, NULL, pool) == 0 &&
			rte_eth_rx_queue_setup(port, 1, 128, 0, NULL, pool) == 0 &&
			rte_eth_dev_start(port) == 0,
		"started again with intr_conf.rxq");
}

/* Every case runs the model's thread; the rings' cases: VLAN priorities 4-5 to ring 1, 6-7 to ring 2. */
#define THREAD ",mode=thread"
#define RCMR   ",rcmr=[1:4-5,2:6-7]"

static const struct fec_case cases[] = {
	{"timeout", THREAD, .fn = case_timeout},
	{"wake", THREAD, .fn = case_wake},
	{"race", THREAD, .fn = case_race},
	{"disable", THREAD, .fn = case_disable},
	{"restart", THREAD, .fn = case_restart},
	{"none", THREAD, .fn = case_none},
	{"ring_wake", THREAD RCMR, .fn = case_ring_wake},
	{"ring_race", THREAD RCMR, .fn = case_ring_race},
	{"ring_reconfigure", THREAD ",rcmr=1:4-5", .fn = case_ring_reconfigure},
	/* Two workers beside the main lcore. */
	{"race_seeded", THREAD RCMR, .fn = case_race_seeded, .lcores = "0@0,1@1,2@1"},
	{"uio_timeout", THREAD ",intr=uio", .fn = case_uio_timeout},
	{"uio_wake", THREAD ",intr=uio", .fn = case_uio_wake},
	{"uio_race", THREAD ",intr=uio", .fn = case_uio_race},
	{"uio_stale", THREAD ",intr=uio", .fn = case_uio_stale},
	{"uio_queues", THREAD ",intr=uio,rcmr=1:4-5", .fn = case_uio_queues},
};

/* race_seeded: a seed from the command line (test_fec_intr race_seeded SEED) replays a run. */
static int
intr_prepare(const struct fec_case *c, int argc, char **argv, char *devargs __rte_unused,
	size_t size __rte_unused)
{
	if (c->fn == case_race_seeded)
		race_seed = argc > 2 ? strtoull(argv[2], NULL, 0) : rte_rdtsc();
	return 0;
}

/* Every case ends stopped, its mbufs back, the model clean. */
static void
intr_teardown(const struct fec_case *c __rte_unused)
{
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

FEC_CASES_MAIN(cases, .tag = "feci", .log_level = "*:error", .nb_mbuf = NB_MBUF,
	.prepare = intr_prepare, .teardown = intr_teardown)
