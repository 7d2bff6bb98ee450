/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec against the model's injected faults (fec_model_inject): one EAL per
 * case (argv[1]). Each case asserts the counters that must move, that every
 * frame is received once or counted (ierrors, imissed, oerrors, or the
 * model's own count of frames a fault took), that the driver makes progress
 * (restarts where Linux restarts), that every mbuf is back in the pool, and
 * that the model saw no contract violation. Prints TAP.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_tx.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF  1024
#define NB_DESC  64
#define ETH_TEST 0x88B5
/* Waits are bounded by a count of 1 ms polls, never asserted on time. */
#define WAIT_POLLS 5000
/* Longer than MAX_FL (1518 at MTU 1500): a babbling frame. */
#define LONG_FRAME 1600

static const uint8_t peer_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
static const uint8_t fec0_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};
static uint32_t rx_seq;    /* next sequence number put on the wire towards the port */
static uint32_t rx_expect; /* received so far, in order, by seq */

/* What a MAC-dead or TX error case injects and how it shows (its struct fec_case's arg). */
struct fault {
	enum fec_model_fault_kind kind;
	const char *xname;  /* the xstat that counts it (MAC dead: the restart's) */
	uint32_t eir;       /* TX error: the EIR bit, */
	uint16_t sc;        /* the BD status bit */
	uint32_t esc;       /* and the enhanced BD's ESC bits it sets */
	bool burst_reclaim; /* TX error: counted by the TX burst's reclaim, not tx_done_cleanup */
};

static struct fec_priv *
priv(void)
{
	return rte_eth_devices[port].data->dev_private;
}

static struct fec_rxq *
rxq0(void)
{
	return rte_eth_devices[port].data->rx_queues[0];
}

/* n frames of len bytes (at most LONG_FRAME) to the port, each with its sequence number. */
static void
push_len(unsigned int n, uint16_t len)
{
	uint8_t f[LONG_FRAME];
	unsigned int i;

	for (i = 0; i < n; i++) {
		memset(f, 0, len);
		memcpy(f, fec0_mac, 6);
		memcpy(f + 6, peer_mac, 6);
		f[12] = ETH_TEST >> 8;
		f[13] = ETH_TEST & 0xFF;
		memcpy(f + 14, &rx_seq, 4);
		if (fec_model_rx_frame(model, f, len) == 0)
			rx_seq++;
	}
}

/* n frames of 64 bytes. */
static void
push(unsigned int n)
{
	push_len(n, 64);
}

/*
 * Receive until nothing comes; frames must arrive in order, each once (seq
 * strictly increasing). Returns how many; lost seqs are skipped over.
 */
static unsigned int
rx_drain(uint32_t *seqs, unsigned int max)
{
	struct rte_mbuf *m[32];
	unsigned int got = 0, idle = 0, i;

	while (idle < 3) {
		uint16_t k = rte_eth_rx_burst(port, 0, m, 32);

		if (k == 0) {
			idle++;
			step_all();
			continue;
		}
		idle = 0;
		for (i = 0; i < k; i++) {
			uint32_t seq;

			memcpy(&seq, rte_pktmbuf_mtod(m[i], uint8_t *) + 14, 4);
			CHECK(seq >= rx_expect && m[i]->pkt_len == 64, "seq %u after %u, len %u",
				seq, rx_expect, m[i]->pkt_len);
			rx_expect = seq + 1;
			if (seqs != NULL && got < max)
				seqs[got] = seq;
			got++;
			rte_pktmbuf_free(m[i]);
		}
	}
	return got;
}

/* Frames to the wire; returns how many the port took. */
static unsigned int
tx_n(unsigned int n)
{
	return fec_test_tx(peer_mac, n);
}

static unsigned int
drain_wire(void)
{
	return fec_test_drain_wire();
}

static int
port_setup(void)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
		rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, pool) != 0 ||
		rte_eth_tx_queue_setup(port, 0, NB_DESC, 0, NULL) != 0)
		return -1;
	return rte_eth_dev_start(port);
}

/* Started port, nothing in flight: the RX ring's buffers and the stash, no more. */
static void
check_inuse(const char *when)
{
	unsigned int want = rxq0()->nb_desc + rxq0()->stash_n;

	CHECK(rte_mempool_in_use_count(pool) == want, "%s: %u mbufs in use, want %u", when,
		rte_mempool_in_use_count(pool), want);
}

static void
check_end(void)
{
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_mempool_avail_count(pool) == NB_MBUF, "%u of %u mbufs back after stop",
		rte_mempool_avail_count(pool), NB_MBUF);
	CHECK(fec_model_violations(model) == 0, "model: %u violations, last: %s",
		fec_model_violations(model), fec_model_last_violation(model));
}

/* Every frame sent to the port is received once or in a counter. */
static void
check_accounted(uint64_t received)
{
	struct rte_eth_stats st;

	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	CHECK(received + st.ierrors + st.imissed + fec_model_fault_drops(model) == rx_seq,
		"%u sent = %lu received + %lu ierrors + %lu imissed + %lu taken by the fault",
		rx_seq, (unsigned long)received, (unsigned long)st.ierrors,
		(unsigned long)st.imissed, (unsigned long)fec_model_fault_drops(model));
	CHECK(st.ipackets == received, "ipackets %lu, received %lu", (unsigned long)st.ipackets,
		(unsigned long)received);
}

static int
arm(enum fec_model_fault_kind kind, uint32_t after, uint32_t count, uint32_t ppm, uint64_t seed)
{
	struct fec_model_fault f = {
		.kind = kind, .after = after, .count = count, .ppm = ppm, .seed = seed};

	return fec_model_inject(model, &f);
}

/* Bounded wait for an xstat to reach want; the model is stepped meanwhile. */
static uint64_t
wait_xstat(const char *name, uint64_t want)
{
	unsigned int i;
	uint64_t v = 0;

	for (i = 0; i < WAIT_POLLS; i++) {
		v = xstat(name);
		if (v >= want)
			break;
		rte_delay_ms(1);
	}
	return v;
}

/* RX BD status error: counted by reason, BD recycled, good frames around it exactly once. */
static void
case_rx_status(const struct fec_case *c)
{
	const char *kind_name = c->name, *xname = c->arg;
	static const char *const reasons[] = {"rx_err_no_last", "rx_err_truncated", "rx_err_length",
		"rx_err_non_octet", "rx_err_crc", "rx_err_overrun", "rx_err_mac", "rx_err_phy",
		"rx_err_collision", "rx_err_bad_len"};
	int kind = fec_model_fault_kind(kind_name);
	uint32_t seqs[64];
	unsigned int got, i, round, total = 0;

	CHECK(kind >= 0, "kind %s", kind_name);
	if (kind < 0)
		return;
	CHECK(arm(FEC_FAULT_NB, 0, 1, 0, 0) == -EINVAL, "unknown kind refused");
	CHECK(port_setup() == 0, "port setup");
	check_inuse("after start");
	/* Three rounds of 40 wrap the 64-BD ring: the errored BDs were given back. */
	for (round = 0; round < 3; round++) {
		uint32_t first = rx_seq;

		CHECK(arm(kind, 3, 2, 0, 0) == 0, "armed");
		push(40);
		step_all();
		got = rx_drain(seqs, RTE_DIM(seqs));
		total += got;
		CHECK(got == 38, "round %u: %u of 40 received", round, got);
		for (i = 0; i < got && i < RTE_DIM(seqs); i++)
			CHECK(seqs[i] == first + i + (i >= 3 ? 2 : 0),
				"round %u: frame %u is seq %u", round, i, seqs[i]);
	}
	CHECK(fec_model_faults_injected(model, (enum fec_model_fault_kind)kind) == 6,
		"%lu injected",
		(unsigned long)fec_model_faults_injected(model, (enum fec_model_fault_kind)kind));
	CHECK(fec_model_fault_pending(model, (enum fec_model_fault_kind)kind) == 0, "spent");
	CHECK(xstat(xname) == 6, "%s = %lu", xname, (unsigned long)xstat(xname));
	for (i = 0; i < RTE_DIM(reasons); i++)
		if (strcmp(reasons[i], xname) != 0)
			CHECK(xstat(reasons[i]) == 0, "%s = %lu", reasons[i],
				(unsigned long)xstat(reasons[i]));
	check_accounted(total);
	/* A zero length is a write-back fault: the MAC counted the frames good. */
	CHECK(xstat("ieee_r_frame_ok") == total + (strcmp(xname, "rx_err_bad_len") == 0 ? 6 : 0),
		"MIB frame_ok %lu: errored frames are not ok",
		(unsigned long)xstat("ieee_r_frame_ok"));
	CHECK(xstat("restart_eberr") + xstat("restart_mac_off") + xstat("restart_rx_stall") == 0,
		"no restart for a bad frame");
	check_inuse("after the errors");
	check_end();
}

/* Up to 100 frames with seed 7 at p=0.2: positions of the frames that arrive. */
static unsigned int
rx_replay(uint32_t *pos, uint64_t *hits)
{
	uint64_t before = fec_model_faults_injected(model, FEC_FAULT_RX_CR);
	uint32_t base = rx_seq;
	unsigned int got = 0, i;

	CHECK(arm(FEC_FAULT_RX_CR, 0, 100, 200000, 7) == 0, "seed 7");
	for (i = 0; i < 4; i++) {
		push(25);
		step_all();
		got += rx_drain(pos + got, 100 - got);
	}
	for (i = 0; i < got; i++)
		pos[i] -= base;
	*hits = fec_model_faults_injected(model, FEC_FAULT_RX_CR) - before;
	return got;
}

/* A probability with a seed: about p of the frames hit, and the same seed hits the same ones. */
static void
case_rx_random(void)
{
	static uint32_t a[100], b[100];
	unsigned int got = 0, got_a, got_b, i;
	uint64_t hits, hits_a, hits_b;

	CHECK(port_setup() == 0, "port setup");
	CHECK(arm(FEC_FAULT_RX_CR, 0, 300, 200000, 42) == 0, "armed p=0.2 seed 42");
	for (i = 0; i < 10; i++) {
		push(30);
		step_all();
		got += rx_drain(NULL, 0);
	}
	hits = fec_model_faults_injected(model, FEC_FAULT_RX_CR);
	CHECK(hits > 20 && hits < 120, "%lu of 300 hit at p=0.2", (unsigned long)hits);
	CHECK(got + hits == 300, "%u received + %lu hit", got, (unsigned long)hits);
	CHECK(xstat("rx_err_crc") == hits, "rx_err_crc %lu", (unsigned long)xstat("rx_err_crc"));
	got_a = rx_replay(a, &hits_a);
	got_b = rx_replay(b, &hits_b);
	CHECK(got_a + hits_a == 100 && got_b + hits_b == 100, "%u + %lu, %u + %lu", got_a,
		(unsigned long)hits_a, got_b, (unsigned long)hits_b);
	CHECK(got_a == got_b && memcmp(a, b, got_a * sizeof(a[0])) == 0,
		"replay: the same %u frames arrive (%u the second time)", got_a, got_b);
	check_accounted(got + got_a + got_b);
	check_inuse("after the errors");
	check_end();
}

/* EBERR or a MAC reset behind the driver: the watchdog restarts, traffic resumes. */
static void
case_mac_dead(const struct fec_case *c)
{
	const struct fault *f = c->arg;
	const enum fec_model_fault_kind kind = f->kind;
	const char *restart = f->xname;
	unsigned int got = 0, sent, out;
	uint64_t v;

	CHECK(port_setup() == 0, "port setup");
	/* TX frames in flight too: held on the ring, as by a pause frame. */
	fec_model_tx_hold(model, 1);
	sent = tx_n(8);
	CHECK(sent == 8, "8 frames on the TX ring");
	CHECK(arm(kind, 5, 1, 0, 0) == 0, "armed at RX frame 5");
	push(10);
	step_all();
	CHECK(fec_model_faults_injected(model, kind) == 1, "injected");
	CHECK(!(reg(FEC_ECR) & FEC_ECR_ETHEREN), "MAC off: ECR %#x", reg(FEC_ECR));
	if (kind == FEC_FAULT_EBERR)
		CHECK(reg(FEC_EIR) & FEC_EIR_EBERR, "EIR.EBERR: %#x", reg(FEC_EIR));
	/* No burst meanwhile: the restart runs on the interrupt thread. */
	v = wait_xstat(restart, 1);
	CHECK(v == 1, "%s = %lu", restart, (unsigned long)v);
	CHECK((reg(FEC_ECR) & FEC_ECR_ETHEREN) && !(reg(FEC_EIR) & FEC_EIR_EBERR) &&
			(reg(FEC_RDAR) & FEC_DAR_ACTIVE),
		"running again: ECR %#x EIR %#x RDAR %#x", reg(FEC_ECR), reg(FEC_EIR),
		reg(FEC_RDAR));
	CHECK(xstat("rx_restart_discards") == 5, "the 5 frames in the ring discarded, counted: %lu",
		(unsigned long)xstat("rx_restart_discards"));
	CHECK(xstat("tx_restart_drops") == 8, "the 8 frames on the TX ring dropped, counted: %lu",
		(unsigned long)xstat("tx_restart_drops"));
	check_inuse("after the restart");
	fec_model_tx_hold(model, 0);
	/* The 4 frames that waited in the FIFO, then 20 more. */
	got += rx_drain(NULL, 0);
	push(20);
	step_all();
	got += rx_drain(NULL, 0);
	CHECK(got == 24, "%u of 24 received after the restart", got);
	CHECK(tx_n(10) == 10, "TX after the restart");
	step_all();
	out = drain_wire();
	CHECK(out == 10, "%u of 10 sent after the restart (none of the dropped 8)", out);
	check_accounted(got);
	{
		struct rte_eth_stats st;

		rte_eth_stats_get(port, &st);
		CHECK(st.oerrors == 8, "oerrors %lu", (unsigned long)st.oerrors);
		CHECK(st.ibytes == (uint64_t)got * 64, "ibytes %lu", (unsigned long)st.ibytes);
	}
	rte_eth_tx_done_cleanup(port, 0, 0);
	check_inuse("after traffic");
	check_end();
}

/* RDAR cleared under the driver: the watchdog writes it again (no restart). */
static void
case_rdar_clear(void)
{
	unsigned int got;
	uint64_t v;

	CHECK(port_setup() == 0, "port setup");
	CHECK(arm(FEC_FAULT_RDAR_CLEAR, 0, 1, 0, 0) == 0, "armed at the next frame");
	push(10);
	step_all();
	CHECK(fec_model_faults_injected(model, FEC_FAULT_RDAR_CLEAR) == 1, "injected");
	got = rx_drain(NULL, 0);
	v = wait_xstat("rx_rdar_rearms", 1);
	CHECK(v >= 1, "re-armed %lu times", (unsigned long)v);
	CHECK(reg(FEC_RDAR) & FEC_DAR_ACTIVE, "RDAR %#x", reg(FEC_RDAR));
	push(20);
	step_all();
	got += rx_drain(NULL, 0);
	CHECK(got >= 20, "%u received, the 20 after the re-arm among them", got);
	check_accounted(got);
	CHECK(xstat("restart_rx_stall") == 0 && xstat("restart_mac_off") == 0,
		"a re-arm, not a restart");
	check_inuse("after traffic");
	check_end();
}

/*
 * A ring full of errored frames (rx_crc on 64 in a row, no burst meanwhile):
 * the uDMA finds no empty BD after the last one and clears RDAR. The burst
 * that gives all 64 back delivers nothing; it must still write RDAR, or the
 * uDMA stays stopped on a ring of empty BDs and every later frame is dropped
 * until the watchdog's re-arm (a period away: watchdog_ms=30000 here, and
 * the re-arm count must stay 0).
 */
static void
case_rx_errors_full(void)
{
	struct rte_mbuf *m[32];
	unsigned int got;

	CHECK(port_setup() == 0, "port setup");
	CHECK(arm(FEC_FAULT_RX_CR, 0, NB_DESC, 0, 0) == 0, "armed for a ring of frames");
	push(NB_DESC);
	step_all();
	CHECK(fec_model_faults_injected(model, FEC_FAULT_RX_CR) == NB_DESC, "%lu injected",
		(unsigned long)fec_model_faults_injected(model, FEC_FAULT_RX_CR));
	CHECK(!(reg(FEC_RDAR) & FEC_DAR_ACTIVE), "ring full: the uDMA stopped, RDAR %#x",
		reg(FEC_RDAR));
	CHECK(rte_eth_rx_burst(port, 0, m, RTE_DIM(m)) == 0, "no frame out of %u errors", NB_DESC);
	CHECK(xstat("rx_err_crc") == NB_DESC, "rx_err_crc %lu", (unsigned long)xstat("rx_err_crc"));
	CHECK(reg(FEC_RDAR) & FEC_DAR_ACTIVE, "RDAR written by the burst that gave the BDs back");
	push(20);
	step_all();
	got = rx_drain(NULL, 0);
	CHECK(got == 20, "%u of the 20 after the errors received", got);
	CHECK(xstat("rx_rdar_rearms") == 0, "no re-arm by the watchdog: %lu",
		(unsigned long)xstat("rx_rdar_rearms"));
	check_accounted(got);
	CHECK(xstat("restart_eberr") + xstat("restart_mac_off") + xstat("restart_rx_stall") == 0,
		"no restart");
	check_inuse("after the errors");
	check_end();
}

/* RX uDMA hung (no write-back, frames dropped, BDs left empty): restart. */
static void
case_rx_hang(void)
{
	unsigned int got, i;
	uint64_t v = 0;

	CHECK(port_setup() == 0, "port setup");
	CHECK(arm(FEC_FAULT_RX_HANG, 2, 1, 0, 0) == 0, "armed at RX frame 2");
	push(10);
	step_all();
	got = rx_drain(NULL, 0);
	CHECK(got == 2, "%u before the hang", got);
	CHECK(reg(FEC_RDAR) & FEC_DAR_ACTIVE, "RDAR still set: no re-arm can help");
	/* Frames keep coming and are dropped; no burst while the watchdog may restart. */
	for (i = 0; i < WAIT_POLLS && v == 0; i++) {
		push(1);
		step_all();
		rte_delay_ms(1);
		v = xstat("restart_rx_stall");
	}
	CHECK(v == 1, "restart_rx_stall %lu", (unsigned long)v);
	push(20);
	step_all();
	got += rx_drain(NULL, 0);
	CHECK(got >= 22, "%u received: traffic resumed", got);
	check_accounted(got);
	check_inuse("after traffic");
	check_end();
}

/* TX uDMA hung: the ring fills, tx_burst's watchdog restarts after tx_timeout_ms. */
static void
case_tx_hang(void)
{
	unsigned int sent = 0, out, i, k, late = 0;
	struct rte_eth_stats st;
	uint64_t v = 0;

	CHECK(port_setup() == 0, "port setup");
	CHECK(arm(FEC_FAULT_TX_HANG, 3, 1, 0, 0) == 0, "armed at TX frame 3");
	for (i = 0; i < 8; i++) {
		sent += tx_n(16);
		step_all();
		rte_eth_tx_done_cleanup(port, 0, 0);
	}
	out = drain_wire();
	CHECK(out == 3, "%u sent before the hang", out);
	CHECK(sent == 3 + NB_DESC, "%u taken: the ring is full", sent);
	for (i = 0; i < WAIT_POLLS && v == 0; i++) {
		/*
		 * The ring is full while hung: a frame taken here was taken after
		 * the restart (the one a burst makes returns 0, but the watchdog's
		 * alarm may restart between two bursts on a busy machine).
		 */
		k = tx_n(1);
		late += k;
		sent += k;
		rte_delay_ms(1);
		v = xstat("tx_timeout_restarts");
	}
	CHECK(v == 1, "tx_timeout_restarts %lu after %u full bursts", (unsigned long)v, i);
	CHECK(late <= 1, "%u taken while hung", late);
	CHECK(xstat("tx_restart_drops") == NB_DESC, "%lu dropped: the ring's frames",
		(unsigned long)xstat("tx_restart_drops"));
	if (late != 0) {
		step_all();
		CHECK(drain_wire() == late, "the frame taken after the restart sent");
		rte_eth_tx_done_cleanup(port, 0, 0);
	}
	check_inuse("after the restart");
	CHECK(tx_n(20) == 20, "TX after the restart");
	step_all();
	out = drain_wire();
	CHECK(out == 20, "%u of 20 sent after the restart", out);
	rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.opackets == 23 + late &&
			st.oerrors == NB_DESC,
		"opackets %lu oerrors %lu", (unsigned long)st.opackets, (unsigned long)st.oerrors);
	check_inuse("after traffic");
	check_end();
}

/*
 * ERR007885: a TDAR write while TDAR is still set hangs TX. The imx8mm
 * guard never writes then; imx6q (no such erratum, no guard) does, and with
 * the hang injected it recovers by the TX timeout.
 */
static void
case_tdar_hang(const struct fec_case *c)
{
	const int guarded = strstr(c->devargs, "soc=imx8mm") != NULL;
	unsigned int sent, out, i;
	uint64_t v = 0;

	CHECK(port_setup() == 0, "port setup");
	CHECK(priv()->err007885 == guarded, "guard %d", priv()->err007885);
	CHECK(arm(FEC_FAULT_TDAR_HANG, 0, 1, 0, 0) == 0, "armed at the next busy TDAR write");
	/* No step between the bursts: TDAR is still set for the second one. */
	sent = tx_n(5) + tx_n(5);
	CHECK(sent == 10, "10 queued");
	step_all();
	out = drain_wire();
	if (guarded) {
		CHECK(fec_model_tdar_busy_writes(model) == 0 &&
				fec_model_faults_injected(model, FEC_FAULT_TDAR_HANG) == 0 &&
				fec_model_fault_pending(model, FEC_FAULT_TDAR_HANG) == 1,
			"the guard never wrote TDAR while set: no hang");
		CHECK(out == 10, "%u of 10 sent", out);
		rte_eth_tx_done_cleanup(port, 0, 0);
		check_inuse("after traffic");
		check_end();
		return;
	}
	CHECK(fec_model_tdar_busy_writes(model) == 1 &&
			fec_model_faults_injected(model, FEC_FAULT_TDAR_HANG) == 1,
		"busy write %u: hung", fec_model_tdar_busy_writes(model));
	CHECK(out == 0, "%u sent while hung", out);
	sent += tx_n(NB_DESC);
	CHECK(sent == NB_DESC, "%u taken: the ring is full", sent);
	for (i = 0; i < WAIT_POLLS && v == 0; i++) {
		tx_n(1);
		rte_delay_ms(1);
		v = xstat("tx_timeout_restarts");
	}
	CHECK(v == 1, "tx_timeout_restarts %lu", (unsigned long)v);
	CHECK(xstat("tx_restart_drops") == NB_DESC, "%lu dropped",
		(unsigned long)xstat("tx_restart_drops"));
	check_inuse("after the restart");
	CHECK(tx_n(10) == 10, "TX after the restart");
	step_all();
	out = drain_wire();
	CHECK(out == 10, "%u of 10 sent after the restart", out);
	rte_eth_tx_done_cleanup(port, 0, 0);
	check_inuse("after traffic");
	check_end();
}

/* MDIO timeout: the read fails with -ETIMEDOUT, no hang, the link state is kept. */
static void
case_mdio_timeout(void)
{
	struct fec_priv *fep = priv();
	struct rte_eth_link l;
	int v;

	CHECK(port_setup() == 0, "port setup");
	CHECK(arm(FEC_FAULT_MDIO_TIMEOUT, 0, 1, 0, 0) == 0, "armed");
	v = fec_mdio_read(fep, FEC_PHY_BMSR);
	CHECK(v == -ETIMEDOUT, "read: %d", v);
	CHECK(xstat("mdio_timeouts") == 1, "mdio_timeouts %lu",
		(unsigned long)xstat("mdio_timeouts"));
	v = fec_mdio_read(fep, FEC_PHY_BMSR);
	CHECK(v >= 0 && (v & FEC_BMSR_LINK), "next read works: %#x", v);
	CHECK(arm(FEC_FAULT_MDIO_TIMEOUT, 0, 100, 0, 0) == 0, "armed for 100");
	CHECK(rte_eth_link_get_nowait(port, &l) == 0 && l.link_status == RTE_ETH_LINK_UP &&
			l.link_speed == RTE_ETH_SPEED_NUM_1G,
		"PHY silent: the link state is kept (%u %u), no flap", l.link_status, l.link_speed);
	CHECK(fec_model_faults_injected(model, FEC_FAULT_MDIO_TIMEOUT) == 2,
		"one transaction tried, then the update gave up: %lu",
		(unsigned long)fec_model_faults_injected(model, FEC_FAULT_MDIO_TIMEOUT));
	CHECK(arm(FEC_FAULT_MDIO_TIMEOUT, 0, 0, 0, 0) == 0 &&
			fec_model_fault_pending(model, FEC_FAULT_MDIO_TIMEOUT) == 0,
		"disarmed");
	fec_model_phy_set_link(model, 1, 100, 1);
	CHECK(rte_eth_link_get_nowait(port, &l) == 0 && l.link_speed == RTE_ETH_SPEED_NUM_100M,
		"PHY back: %u", l.link_speed);
	push(10);
	step_all();
	CHECK(rx_drain(NULL, 0) == 10, "traffic");
	check_accounted(10);
	check_end();
}

/* MIB preset near 2^32 with errored frames around the wrap: the 64-bit sums go on. */
static void
case_mib_wrap(void)
{
	uint64_t ok0, octets0;
	unsigned int got;

	CHECK(port_setup() == 0, "port setup");
	ok0 = xstat("ieee_r_frame_ok");
	octets0 = xstat("ieee_r_octets_ok");
	fec_model_mib_preset(model, FEC_MIB_OFF_ieee_r_frame_ok, UINT32_MAX - 3);
	fec_model_mib_preset(model, FEC_MIB_OFF_ieee_r_octets_ok, UINT32_MAX - 100);
	/* The fold sees the preset as traffic: take it as the base. */
	ok0 = xstat("ieee_r_frame_ok");
	octets0 = xstat("ieee_r_octets_ok");
	CHECK(arm(FEC_FAULT_RX_CR, 2, 2, 0, 0) == 0, "two CRC errors among them");
	push(10);
	step_all();
	got = rx_drain(NULL, 0);
	CHECK(got == 8, "%u received", got);
	CHECK(reg(FEC_MIB_OFF_ieee_r_frame_ok) == 4, "the register wrapped: %u",
		reg(FEC_MIB_OFF_ieee_r_frame_ok));
	CHECK(xstat("ieee_r_frame_ok") - ok0 == 8, "frame_ok +%lu across the wrap",
		(unsigned long)(xstat("ieee_r_frame_ok") - ok0));
	CHECK(xstat("ieee_r_octets_ok") - octets0 == 8 * 68, "octets_ok +%lu across the wrap",
		(unsigned long)(xstat("ieee_r_octets_ok") - octets0));
	CHECK(xstat("rx_err_crc") == 2, "rx_err_crc %lu", (unsigned long)xstat("rx_err_crc"));
	check_end();
}

/*
 * GRA never raised (the graceful stop completes, the event is lost): TX
 * queue stop with frames held on the ring (XOFF) gives up after its 2 ms,
 * -EBUSY, the queue still started and TCR.GTS lifted; once the hold ends
 * the frames go out, each once, and a stop without the fault then works.
 * dev_stop with the fault armed goes on after its 1 ms (as Linux's
 * fec_stop): every mbuf back, the next start sends and receives.
 */
static void
case_gra_lost(void)
{
	struct rte_eth_stats st;
	unsigned int out, got;

	CHECK(port_setup() == 0, "port setup");
	fec_model_tx_hold(model, 1);
	CHECK(tx_n(6) == 6, "6 frames on the TX ring, held");
	CHECK(arm(FEC_FAULT_GRA_LOST, 0, 1, 0, 0) == 0, "armed at the next graceful stop");
	CHECK(rte_eth_dev_tx_queue_stop(port, 0) == -EBUSY, "TX queue stop without GRA: -EBUSY");
	CHECK(fec_model_faults_injected(model, FEC_FAULT_GRA_LOST) == 1, "injected");
	CHECK(xstat("gra_timeouts") == 1, "gra_timeouts %lu", (unsigned long)xstat("gra_timeouts"));
	CHECK(!(reg(FEC_TCR) & FEC_TCR_GTS), "GTS lifted: TCR %#x", reg(FEC_TCR));
	CHECK(xstat("tx_queue_stop_drops") == 0, "nothing taken off the ring");
	fec_model_tx_hold(model, 0);
	step_all();
	rte_eth_tx_done_cleanup(port, 0, 0);
	out = drain_wire();
	CHECK(out == 6, "the 6 held frames sent once: %u", out);
	CHECK(tx_n(4) == 4, "the queue still takes frames");
	step_all();
	CHECK(drain_wire() == 4, "and sends them");
	CHECK(rte_eth_dev_tx_queue_stop(port, 0) == 0, "stop without the fault");
	CHECK(rte_eth_dev_tx_queue_start(port, 0) == 0, "start");
	push(5);
	step_all();
	got = rx_drain(NULL, 0);
	CHECK(got == 5, "RX unaffected: %u of 5", got);
	/* dev_stop: the MAC is idle, GTS would complete at once; GRA is lost. */
	CHECK(arm(FEC_FAULT_GRA_LOST, 0, 1, 0, 0) == 0, "armed again");
	CHECK(rte_eth_dev_stop(port) == 0, "dev_stop without GRA");
	CHECK(xstat("gra_timeouts") == 2, "gra_timeouts %lu", (unsigned long)xstat("gra_timeouts"));
	CHECK(rte_mempool_avail_count(pool) == NB_MBUF, "%u of %u mbufs back after stop",
		rte_mempool_avail_count(pool), NB_MBUF);
	CHECK(rte_eth_dev_start(port) == 0, "start again");
	CHECK(tx_n(3) == 3, "TX after the start");
	step_all();
	rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(drain_wire() == 3, "3 sent");
	push(5);
	step_all();
	got = rx_drain(NULL, 0);
	CHECK(got == 5, "5 received after the start: %u", got);
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.oerrors == 0 && st.opackets == 13 &&
			st.ipackets == 10 && st.imissed == 0 && st.ierrors == 0,
		"opackets %lu oerrors %lu ipackets %lu", (unsigned long)st.opackets,
		(unsigned long)st.oerrors, (unsigned long)st.ipackets);
	check_inuse("after traffic");
	check_end();
}

/*
 * A TX error (underrun, late collision, retry limit) on frames 3 and 4: the
 * MAC sends neither, writes the error bits back into their BDs (legacy
 * status, enhanced ESC with TXE), raises its EIR bit and counts the MIB
 * counter oerrors is made of; the driver reclaims them like any sent frame
 * (no restart, as Linux), the other 38 go out once, in order of the ring.
 * With stats=sw the driver counts them from the BDs: in tx_done_cleanup, or
 * (burst_reclaim) in the reclaim of the TX burst that runs low on BDs.
 */
static void
case_tx_err(const struct fec_case *c)
{
	const struct fault *f = c->arg;
	const enum fec_model_fault_kind kind = f->kind;
	const uint32_t eir = f->eir, esc = f->esc;
	const uint16_t sc = f->sc;
	const char *xname = f->xname;
	const bool burst_reclaim = f->burst_reclaim;
	static const char *const reasons[] = {
		"tx_err_underrun", "tx_err_late_col", "tx_err_retry_limit"};
	/* stats=sw: the driver reads the BDs (no MIB); with the MIB its xstats stay 0. */
	const bool sw = priv()->sw_stats;
	struct fec_txq *txq;
	struct rte_eth_stats st;
	unsigned int sent = 0, out = 0, i;

	CHECK(port_setup() == 0, "port setup");
	txq = rte_eth_devices[port].data->tx_queues[0];
	CHECK(arm(kind, 3, 2, 0, 0) == 0, "armed at TX frames 3 and 4");
	sent = tx_n(10);
	step_all();
	for (i = 3; i < 5; i++) {
		volatile struct fec_bd *bd =
			(volatile struct fec_bd *)(txq->bd + ((uint32_t)i << txq->bd_shift));
		uint16_t st_sc = rte_le_to_cpu_16(bd->sc);

		CHECK(!(st_sc & FEC_BD_R) && (st_sc & sc) == sc,
			"BD %u written back with 0x%x: 0x%x", i, sc, st_sc);
		if (txq->bd_shift == 5)
			CHECK((rte_le_to_cpu_32(((volatile struct fec_bd_ex *)bd)->esc) & esc) ==
					esc,
				"BD %u ESC 0x%x", i,
				rte_le_to_cpu_32(((volatile struct fec_bd_ex *)bd)->esc));
	}
	CHECK(reg(FEC_EIR) & eir, "EIR %#x has %#x", reg(FEC_EIR), eir);
	for (i = 0; i < 3; i++) {
		if (!burst_reclaim)
			rte_eth_tx_done_cleanup(port, 0, 0);
		sent += tx_n(10);
		step_all();
	}
	if (!burst_reclaim)
		rte_eth_tx_done_cleanup(port, 0, 0);
	out = drain_wire();
	CHECK(sent == 40 && out == 38, "%u taken, %u on the wire (2 in error)", sent, out);
	CHECK(fec_model_faults_injected(model, kind) == 2, "injected %lu",
		(unsigned long)fec_model_faults_injected(model, kind));
	/* Not reclaimed yet with burst_reclaim: nothing counted (24 BDs free). */
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.opackets == (burst_reclaim ? 40u : 38u) &&
			st.oerrors == (burst_reclaim ? 0u : 2u),
		"opackets %lu oerrors %lu", (unsigned long)st.opackets, (unsigned long)st.oerrors);
	CHECK(st.obytes == (burst_reclaim ? 40 : 38) * 60, "obytes %lu", (unsigned long)st.obytes);
	for (i = 0; i < RTE_DIM(reasons); i++)
		CHECK(xstat(reasons[i]) ==
				(sw && !burst_reclaim && strcmp(reasons[i], xname) == 0 ? 2u : 0u),
			"%s %lu", reasons[i], (unsigned long)xstat(reasons[i]));
	CHECK(xstat("tx_timeout_restarts") == 0 && xstat("tx_restart_drops") == 0, "no restart");
	if (!burst_reclaim)
		check_inuse("after the errors");
	/* With 24 BDs free, this burst reclaims the 40 first. */
	CHECK(tx_n(20) == 20, "20 more");
	step_all();
	CHECK(drain_wire() == 20, "all 20 sent");
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.opackets == 58 && st.oerrors == 2 &&
			st.obytes == 58 * 60,
		"opackets %lu oerrors %lu obytes %lu", (unsigned long)st.opackets,
		(unsigned long)st.oerrors, (unsigned long)st.obytes);
	for (i = 0; i < RTE_DIM(reasons); i++)
		CHECK(xstat(reasons[i]) == (sw && strcmp(reasons[i], xname) == 0 ? 2u : 0u),
			"%s %lu", reasons[i], (unsigned long)xstat(reasons[i]));
	rte_eth_tx_done_cleanup(port, 0, 0);
	check_inuse("after traffic");
	check_end();
}

/*
 * A round of the late write-back cases, after the step that wrote 5 frames
 * from seq first with frame 2 held (BD at): the burst takes 0 and 1 and stops,
 * a second takes nothing, then (stepping) the other 3 come in order. How many
 * were received.
 */
static unsigned int
rx_late_round(unsigned int round, uint32_t first, uint16_t at)
{
	struct rte_mbuf *m[8];
	uint32_t seqs[8];
	unsigned int got, i;
	uint16_t k;

	k = rte_eth_rx_burst(port, 0, m, 8);
	CHECK(k == 2, "round %u: %u taken before the write-back, want 2", round, k);
	for (i = 0; i < k; i++) {
		uint32_t seq;

		memcpy(&seq, rte_pktmbuf_mtod(m[i], uint8_t *) + 14, 4);
		CHECK(seq == first + i, "round %u: frame %u is seq %u", round, i, seq);
		rte_pktmbuf_free(m[i]);
	}
	rx_expect = first + k;
	CHECK(rte_eth_rx_burst(port, 0, m, 8) == 0, "round %u: still nothing at BD %u", round, at);
	got = rx_drain(seqs, RTE_DIM(seqs));
	CHECK(got == 3, "round %u: %u after the write-back, want 3", round, got);
	for (i = 0; i < got && i < RTE_DIM(seqs); i++)
		CHECK(seqs[i] == first + 2 + i, "round %u: seq %u", round, seqs[i]);
	return k + got;
}

/*
 * Events before the write-back (rx_wb_late): frame 2 of 5 raises RXB/RXF with
 * its BD still E; the burst stops there (the driver takes no BD it does not
 * own), and the frame and those behind it come once, in order, when the
 * write-back arrives at the next model step. Three rounds wrap the ring.
 */
static void
case_rx_wb_late(void)
{
	unsigned int round, total = 0;

	CHECK(port_setup() == 0, "port setup");
	for (round = 0; round < 15; round++) {
		uint32_t first = rx_seq;
		uint16_t at = (uint16_t)((rxq0()->cur + 2) % NB_DESC);
		const volatile struct fec_bd *bd =
			(const volatile struct fec_bd *)(rxq0()->bd +
							 ((uint32_t)at << rxq0()->bd_shift));

		CHECK(arm(FEC_FAULT_RX_WB_LATE, 2, 1, 0, 0) == 0, "armed");
		fec_model_write32(model, FEC_EIR, FEC_EIR_RXF);
		push(5);
		CHECK(fec_model_step(model, 1024) > 0, "stepped");
		CHECK(reg(FEC_EIR) & FEC_EIR_RXF, "round %u: RXF raised", round);
		CHECK(rte_le_to_cpu_16(bd->sc) & FEC_BD_E, "round %u: BD %u still E", round, at);
		total += rx_late_round(round, first, at);
	}
	CHECK(fec_model_faults_injected(model, FEC_FAULT_RX_WB_LATE) == 15, "15 injected");
	CHECK(xstat("restart_eberr") + xstat("restart_mac_off") + xstat("restart_rx_stall") == 0,
		"no restart");
	check_accounted(total);
	check_inuse("after the late write-backs");
	check_end();
}

/*
 * The status written back before BDU (rx_bdu_late, enhanced BDs): frame 2 of
 * 5 has E clear but BDU 0 (and its ESC not yet written) until the next model
 * step. The burst takes frames 0 and 1 and stops at it, as at an E BD; a
 * second burst takes nothing; after the step the other 3 come in order. A
 * driver that took the BD half written is a model violation. The model
 * leaves BDU as the driver gave the BD back: from round 13 on the BD hit
 * is one the driver recycled (the 64-BD ring wrapped), and one recycled
 * with BDU still set reads as done before its write-back.
 */
static void
case_rx_bdu_late(void)
{
	unsigned int round, total = 0;

	CHECK(port_setup() == 0, "port setup");
	for (round = 0; round < 15; round++) {
		uint32_t first = rx_seq;
		uint16_t at = (uint16_t)((rxq0()->cur + 2) % NB_DESC);
		const volatile struct fec_bd_ex *bx =
			(const volatile struct fec_bd_ex *)(rxq0()->bd +
							    ((uint32_t)at << rxq0()->bd_shift));

		CHECK(arm(FEC_FAULT_RX_BDU_LATE, 2, 1, 0, 0) == 0, "armed");
		push(5);
		CHECK(fec_model_step(model, 1024) > 0, "stepped");
		CHECK(!(rte_le_to_cpu_16(bx->bd.sc) & FEC_BD_E) &&
				!(rte_le_to_cpu_32(bx->bdu) & FEC_BD_EX_BDU),
			"round %u: BD %u E clear, BDU 0", round, at);
		total += rx_late_round(round, first, at);
	}
	CHECK(fec_model_faults_injected(model, FEC_FAULT_RX_BDU_LATE) == 15, "15 injected");
	CHECK(xstat("restart_eberr") + xstat("restart_mac_off") + xstat("restart_rx_stall") == 0,
		"no restart");
	check_accounted(total);
	check_inuse("after the late BDUs");
	check_end();
}

/*
 * TX events before the write-back (tx_wb_late): frame 2 of 5 goes on the
 * wire and raises TXB/TXF, but its BD keeps R until the next model step (the
 * ring waits for it). The reclaim reads R, never EIR: tx_done_cleanup frees
 * frames 0 and 1 and stops at frame 2, the burst-side reclaim
 * (fec_tx_reclaim) too; after the step the other 3 are freed. Each frame
 * freed once (the pool's count) and counted once (opackets).
 */
static void
case_tx_wb_late(void)
{
	struct fec_txq *txq;
	unsigned int round, wire = 0;
	struct rte_eth_stats st;

	CHECK(port_setup() == 0, "port setup");
	txq = rte_eth_devices[port].data->tx_queues[0];
	for (round = 0; round < 15; round++) {
		uint16_t at = (uint16_t)((txq->cur + 2) % NB_DESC);
		const volatile struct fec_bd *bd =
			(const volatile struct fec_bd *)(txq->bd + ((uint32_t)at << txq->bd_shift));
		int n;

		CHECK(arm(FEC_FAULT_TX_WB_LATE, 2, 1, 0, 0) == 0, "armed");
		fec_model_write32(model, FEC_EIR, FEC_EIR_TXF);
		CHECK(tx_n(5) == 5, "round %u: 5 on the ring", round);
		CHECK(fec_model_step(model, 1024) > 0, "stepped");
		CHECK(reg(FEC_EIR) & FEC_EIR_TXF, "round %u: TXF raised", round);
		CHECK(rte_le_to_cpu_16(bd->sc) & FEC_BD_R, "round %u: BD %u still R", round, at);
		wire += drain_wire();
		if (round % 2 == 0) {
			n = rte_eth_tx_done_cleanup(port, 0, 0);
			CHECK(n == 2, "round %u: cleanup freed %d before the write-back, want 2",
				round, n);
		} else {
			fec_tx_reclaim(txq);
		}
		CHECK(txq->nb_free == NB_DESC - 3, "round %u: %u BDs free, want %u", round,
			txq->nb_free, NB_DESC - 3);
		CHECK(rte_mempool_in_use_count(pool) == rxq0()->nb_desc + rxq0()->stash_n + 3u,
			"round %u: %u mbufs in use, want the RX ring + stash + 3", round,
			rte_mempool_in_use_count(pool));
		step_all();
		wire += drain_wire();
		n = rte_eth_tx_done_cleanup(port, 0, 0);
		CHECK(n == 3, "round %u: cleanup freed %d after the write-back, want 3", round, n);
		CHECK(txq->nb_free == NB_DESC, "round %u: ring empty", round);
	}
	CHECK(fec_model_faults_injected(model, FEC_FAULT_TX_WB_LATE) == 15, "15 injected");
	CHECK(wire == 75, "%u on the wire, want 75", wire);
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.opackets == 75 && st.oerrors == 0,
		"opackets %" PRIu64 ", oerrors %" PRIu64, st.opackets, st.oerrors);
	CHECK(xstat("tx_timeout_restarts") == 0, "no restart");
	check_inuse("after the late TX write-backs");
	check_end();
}

/* Watchdog checks so far (its alarm runs on the interrupt thread). */
static uint64_t
wd_runs(void)
{
	return __atomic_load_n(&priv()->wd_runs, __ATOMIC_ACQUIRE);
}

/*
 * Babbling RX and TX (frames longer than MAX_FL, 1518 at MTU 1500): the MAC
 * raises EIR.BABR / BABT; the watchdog counts and acks them, nothing more (as
 * Linux); the RX frame is dropped for LG, the TX frame goes out whole (RM).
 */
static void
case_babble(void)
{
	uint8_t buf[2048];
	uint32_t seq0;
	struct rte_mbuf *m;
	uint64_t runs;
	unsigned int i, got;
	int len = -1;

	CHECK(port_setup() == 0, "port setup");
	/* Normal traffic over several checks: no event counted. */
	push(10);
	got = rx_drain(NULL, 0);
	CHECK(tx_n(10) == 10, "10 sent");
	step_all();
	CHECK(drain_wire() == 10, "10 on the wire");
	runs = wd_runs();
	for (i = 0; i < WAIT_POLLS && wd_runs() < runs + 3; i++)
		rte_delay_ms(1);
	CHECK(wd_runs() >= runs + 3, "watchdog ran");
	CHECK(xstat("eir_babr_events") == 0 && xstat("eir_babt_events") == 0,
		"no babble: babr %lu babt %lu", (unsigned long)xstat("eir_babr_events"),
		(unsigned long)xstat("eir_babt_events"));
	/* RX: 1604 bytes with the FCS, 5 normal frames after it. */
	seq0 = rx_seq;
	push_len(1, LONG_FRAME);
	CHECK(rx_seq == seq0 + 1, "long frame queued");
	push(5);
	got += rx_drain(NULL, 0);
	CHECK(got == 15, "%u of 15 normal frames", got);
	CHECK(xstat("rx_err_length") == 1 && xstat("rmon_r_oversize") == 1,
		"rx_err_length %lu rmon_r_oversize %lu", (unsigned long)xstat("rx_err_length"),
		(unsigned long)xstat("rmon_r_oversize"));
	CHECK(wait_xstat("eir_babr_events", 1) == 1, "eir_babr_events %lu",
		(unsigned long)xstat("eir_babr_events"));
	CHECK(!(reg(FEC_EIR) & FEC_EIR_BABR), "BABR acked: EIR %#x", reg(FEC_EIR));
	/* TX: one frame of 1600 bytes (no FCS yet). */
	m = rte_pktmbuf_alloc(pool);
	CHECK(m != NULL && rte_pktmbuf_append(m, LONG_FRAME) != NULL, "long mbuf");
	if (m == NULL)
		return;
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), peer_mac, 6);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "long frame taken");
	step_all();
	len = fec_model_tx_frame(model, buf, sizeof(buf));
	CHECK(len == (int)LONG_FRAME, "sent whole: %d bytes", len);
	CHECK(xstat("rmon_t_oversize") == 1, "rmon_t_oversize %lu",
		(unsigned long)xstat("rmon_t_oversize"));
	CHECK(wait_xstat("eir_babt_events", 1) == 1, "eir_babt_events %lu",
		(unsigned long)xstat("eir_babt_events"));
	CHECK(!(reg(FEC_EIR) & FEC_EIR_BABT), "BABT acked: EIR %#x", reg(FEC_EIR));
	CHECK(xstat("eir_babr_events") == 1, "BABR still counted once");
	/* Nothing restarted; traffic goes on. */
	CHECK(xstat("restart_eberr") + xstat("restart_mac_off") + xstat("restart_rx_stall") +
				xstat("tx_timeout_restarts") ==
			0,
		"no restart");
	rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(tx_n(10) == 10, "10 more sent");
	step_all();
	rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(drain_wire() == 10, "10 more on the wire");
	push(10);
	got += rx_drain(NULL, 0);
	CHECK(got == 25, "%u of 25 normal frames", got);
	check_accounted(got);
	check_inuse("after the babble");
	check_end();
}

/*
 * A MAC restart beside running bursts (thread mode: the model's thread is the
 * DMA). Lcore 1 polls RX queue 0, lcore 2 sends on TX queue 0, while the main
 * lcore puts frames on the wire in random batches, takes the sent ones off it,
 * and restarts the MAC at random moments as link_update does (fec_link_restart:
 * from a control thread, serialised with the bursts by the queue gates). Each
 * restart re-initialises both rings under the bursts' feet: without the
 * serialisation a burst walks a ring being rewritten (a frame received twice,
 * an mbuf freed twice or lost, BDs written that the MAC owns). Asserted: every
 * frame to the port received at most once, and received or counted; every
 * frame sent on the wire at most once, and on the wire or counted
 * (tx_restart_drops); the restarts happened; no model violation; the mempool
 * holds exactly the RX ring and stash when everything is done; every mbuf back
 * after stop. The seed (RESTART_RACE_SEED, default 42) sets the batches, the
 * gaps and when the restarts come; the lcores' timing is the machine's.
 */
#define RACE_RX_FRAMES 30000u
#define RACE_TX_FRAMES 30000u
#define RACE_WINDOW    48u /* frames on the wire not yet received or counted */
#define RACE_RESTARTS  50u /* at least this many before the traffic stops */

static uint8_t race_rx_seen[RACE_RX_FRAMES];
static uint8_t race_tx_seen[RACE_TX_FRAMES];
static volatile int race_stop;
static uint64_t race_rx_got, race_rx_bad, race_tx_sent;

static uint64_t
race_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int
race_rx_worker(void *arg)
{
	struct rte_mbuf *m[32];
	unsigned int i;

	RTE_SET_USED(arg);
	while (!race_stop) {
		uint16_t k = rte_eth_rx_burst(port, 0, m, RTE_DIM(m));

		for (i = 0; i < k; i++) {
			uint32_t seq;

			memcpy(&seq, rte_pktmbuf_mtod(m[i], uint8_t *) + 14, 4);
			if (seq < RACE_RX_FRAMES && m[i]->pkt_len == 64)
				race_rx_seen[seq]++;
			else
				race_rx_bad++;
			rte_pktmbuf_free(m[i]);
		}
		__atomic_store_n(&race_rx_got, race_rx_got + k, __ATOMIC_RELEASE);
	}
	return 0;
}

static int
race_tx_worker(void *arg)
{
	struct rte_mbuf *m[32];
	uint32_t seq = 0;
	unsigned int i, n;

	RTE_SET_USED(arg);
	while (!race_stop && seq < RACE_TX_FRAMES) {
		n = RTE_MIN((unsigned int)RTE_DIM(m), RACE_TX_FRAMES - seq);
		if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
			continue; /* mbufs in flight: the pool is back soon */
		for (i = 0; i < n; i++) {
			uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);
			uint32_t s = seq + i;

			memset(f, 0, 60);
			memcpy(f, peer_mac, 6);
			memcpy(f + 6, fec0_mac, 6);
			f[12] = ETH_TEST >> 8;
			f[13] = ETH_TEST & 0xFF;
			memcpy(f + 14, &s, 4);
			m[i]->data_len = m[i]->pkt_len = 60;
		}
		i = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
		fec_test_free_all(m + i, n - i);
		seq += i;
		__atomic_store_n(&race_tx_sent, seq, __ATOMIC_RELEASE);
	}
	return 0;
}

/* Frames the MAC put on the wire: each once, by seq. */
static unsigned int
race_wire(void)
{
	uint8_t buf[2048];
	unsigned int n = 0;
	int len;

	while ((len = fec_model_tx_frame(model, buf, sizeof(buf))) >= 0) {
		uint32_t seq;

		memcpy(&seq, buf + 14, 4);
		if (len >= 18 && seq < RACE_TX_FRAMES)
			race_tx_seen[seq]++;
		n++;
	}
	return n;
}

/* Frames to the port neither received nor counted yet. */
static uint64_t
race_rx_open(void)
{
	struct rte_eth_stats st;

	if (rte_eth_stats_get(port, &st) != 0)
		return UINT64_MAX;
	return rx_seq - __atomic_load_n(&race_rx_got, __ATOMIC_ACQUIRE) - st.ierrors - st.imissed -
	       fec_model_fault_drops(model);
}

static void
case_restart_race(void)
{
	struct rte_eth_dev *dev = &rte_eth_devices[port];
	const char *env = getenv("RESTART_RACE_SEED");
	uint64_t x = env != NULL ? strtoull(env, NULL, 0) : 42, wire = 0, got = 0, dup = 0;
	/* A bound on the work on a loaded machine, not a timing assertion. */
	const uint64_t deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	unsigned int restarts = 0, i, polls;
	struct rte_eth_stats st;

	if (x == 0)
		x = 42;
	printf("# seed %" PRIu64 "\n", x);
	CHECK(rte_lcore_count() == 3, "3 lcores, %u", rte_lcore_count());
	CHECK(port_setup() == 0, "port setup");
	CHECK(rte_eal_remote_launch(race_rx_worker, NULL, 1) == 0 &&
			rte_eal_remote_launch(race_tx_worker, NULL, 2) == 0,
		"workers launched");
	while (rx_seq < RACE_RX_FRAMES || restarts < RACE_RESTARTS) {
		unsigned int batch = 1 + race_rand(&x) % 32;
		uint64_t r = race_rand(&x);

		if (rx_seq < RACE_RX_FRAMES && race_rx_open() + batch <= RACE_WINDOW)
			push(RTE_MIN(batch, RACE_RX_FRAMES - rx_seq));
		wire += race_wire();
		if (r % 4 == 0) {
			/* A restart at a random point of the bursts. */
			rte_delay_us((unsigned int)(r >> 8) % 200);
			fec_link_restart(dev);
			restarts++;
		} else {
			rte_delay_us((unsigned int)(r >> 8) % 50);
		}
		if (restarts > 40 * RACE_RESTARTS ||
			(restarts >= RACE_RESTARTS && rte_get_timer_cycles() > deadline))
			break; /* the checks below hold for what was sent */
	}
	/* Everything in flight received or counted, everything sent or counted. */
	for (polls = 0; polls < WAIT_POLLS; polls++) {
		wire += race_wire();
		if (race_rx_open() == 0 &&
			__atomic_load_n(&race_tx_sent, __ATOMIC_ACQUIRE) >= RACE_TX_FRAMES &&
			rte_eth_stats_get(port, &st) == 0 &&
			st.opackets + st.oerrors >= race_tx_sent)
			break;
		rte_delay_ms(1);
	}
	race_stop = 1;
	rte_eal_mp_wait_lcore();
	wire += race_wire();
	for (i = 0; i < RACE_RX_FRAMES; i++) {
		got += race_rx_seen[i];
		dup += race_rx_seen[i] > 1;
	}
	CHECK(dup == 0 && race_rx_bad == 0,
		"%" PRIu64 " frames received more than once, %" PRIu64 " not sent", dup,
		race_rx_bad);
	CHECK(got == race_rx_got, "received %" PRIu64 ", by seq %" PRIu64, race_rx_got, got);
	check_accounted(got);
	for (i = 0, dup = 0; i < RACE_TX_FRAMES; i++)
		dup += race_tx_seen[i] > 1;
	CHECK(dup == 0, "%" PRIu64 " frames on the wire more than once", dup);
	CHECK(race_tx_sent == RACE_TX_FRAMES, "sent %" PRIu64 " of %u", race_tx_sent,
		RACE_TX_FRAMES);
	/* The script wire's FIFO drops what the main lcore was too slow to take: not the port's. */
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.oerrors == xstat("tx_restart_drops") &&
			st.opackets + st.oerrors == race_tx_sent && wire <= st.opackets,
		"%" PRIu64 " sent = %" PRIu64 " opackets (%" PRIu64 " on the wire) + %" PRIu64
		" oerrors (%" PRIu64 " dropped by restarts)",
		race_tx_sent, st.opackets, wire, st.oerrors, xstat("tx_restart_drops"));
	CHECK(xstat("restart_link") == restarts && restarts >= RACE_RESTARTS,
		"%u restarts, restart_link %" PRIu64, restarts, xstat("restart_link"));
	printf("# %u restarts, %" PRIu64 " received, %" PRIu64 " RX discarded, %" PRIu64
	       " imissed, %" PRIu64 " on the wire, %" PRIu64 " TX dropped\n",
		restarts, got, xstat("rx_restart_discards"), st.imissed, wire,
		xstat("tx_restart_drops"));
	/* The rings are consistent: the TX ring empty, the RX ring full of buffers. */
	rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(dev->data->tx_queues != NULL &&
			((struct fec_txq *)dev->data->tx_queues[0])->nb_free == NB_DESC,
		"TX ring empty");
	check_inuse("after the race");
	check_end();
}

static const struct fault eberr = {.kind = FEC_FAULT_EBERR, .xname = "restart_eberr"};
static const struct fault ecr_reset = {.kind = FEC_FAULT_ECR_RESET, .xname = "restart_mac_off"};
static const struct fault tx_underrun = {FEC_FAULT_TX_UN, "tx_err_underrun", FEC_EIR_UN,
	FEC_BD_TX_UN, FEC_BD_EX_TX_TXE | FEC_BD_EX_TX_UE, false};
static const struct fault tx_late_col = {FEC_FAULT_TX_LC, "tx_err_late_col", FEC_EIR_LC,
	FEC_BD_TX_LC, FEC_BD_EX_TX_TXE | FEC_BD_EX_TX_LCE, false};
static const struct fault tx_late_col_burst = {FEC_FAULT_TX_LC, "tx_err_late_col", FEC_EIR_LC,
	FEC_BD_TX_LC, FEC_BD_EX_TX_TXE | FEC_BD_EX_TX_LCE, true};
static const struct fault tx_retry_limit = {
	FEC_FAULT_TX_RL, "tx_err_retry_limit", FEC_EIR_RL, FEC_BD_TX_RL, 0, false};

/* An RX BD status error, the case named after its fault kind, counted in xstat @p x. */
#define RX_STATUS(name, x)                                    \
	{                                                     \
		name, "", .fn_case = case_rx_status, .arg = x \
	}

static const struct fec_case cases[] = {
	RX_STATUS("rx_crc", "rx_err_crc"),
	RX_STATUS("rx_overrun", "rx_err_overrun"),
	RX_STATUS("rx_length", "rx_err_length"),
	RX_STATUS("rx_non_octet", "rx_err_non_octet"),
	RX_STATUS("rx_truncated", "rx_err_truncated"),
	RX_STATUS("rx_no_last", "rx_err_no_last"),
	RX_STATUS("rx_zero_len", "rx_err_bad_len"),
	RX_STATUS("rx_crc_only", "rx_err_bad_len"),
	RX_STATUS("rx_mac_err", "rx_err_mac"),
	RX_STATUS("rx_phy_err", "rx_err_phy"),
	RX_STATUS("rx_collision", "rx_err_collision"),
	{"rx_random", "", .fn = case_rx_random},
	{"eberr", ",watchdog_ms=1", .fn_case = case_mac_dead, .arg = &eberr},
	{"ecr_reset", ",watchdog_ms=1", .fn_case = case_mac_dead, .arg = &ecr_reset},
	{"rdar_clear", ",watchdog_ms=1", .fn = case_rdar_clear},
	{"rx_hang", ",watchdog_ms=1", .fn = case_rx_hang},
	{"tx_hang", ",tx_timeout_ms=5", .fn = case_tx_hang},
	{"tdar_hang_imx6q", ",soc=imx6q,tx_timeout_ms=5", .fn_case = case_tdar_hang},
	{"tdar_hang_imx8mm", ",soc=imx8mm,tx_timeout_ms=5", .fn_case = case_tdar_hang},
	{"mdio_timeout", "", .fn = case_mdio_timeout},
	{"mib_wrap", "", .fn = case_mib_wrap},
	{"gra_lost", "", .fn = case_gra_lost},
	{"tx_underrun", "", .fn_case = case_tx_err, .arg = &tx_underrun},
	{"tx_late_col", "", .fn_case = case_tx_err, .arg = &tx_late_col},
	{"tx_retry_limit_legacy", ",bd=legacy", .fn_case = case_tx_err, .arg = &tx_retry_limit},
	{"babble", ",watchdog_ms=1", .fn = case_babble},
	{"rx_wb_late", "", .fn = case_rx_wb_late},
	{"tx_underrun_sw", ",stats=sw", .fn_case = case_tx_err, .arg = &tx_underrun},
	{"tx_late_col_sw", ",stats=sw", .fn_case = case_tx_err, .arg = &tx_late_col},
	{"tx_late_col_sw_burst", ",stats=sw", .fn_case = case_tx_err, .arg = &tx_late_col_burst},
	{"tx_retry_limit_legacy_sw", ",bd=legacy,stats=sw", .fn_case = case_tx_err,
		.arg = &tx_retry_limit},
	/* A worker lcore per burst direction, the main one restarts. */
	{"restart_race", ",mode=thread", .fn = case_restart_race, .lcores = "0@0,1@1,2@0"},
	{"rx_bdu_late", "", .fn = case_rx_bdu_late},
	{"tx_wb_late", "", .fn = case_tx_wb_late},
	{"rx_errors_full", ",watchdog_ms=30000", .fn = case_rx_errors_full},
};

FEC_CASES_MAIN(cases, .tag = "fecf", .log_level = "*:error", .nb_mbuf = NB_MBUF)
