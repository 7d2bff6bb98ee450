/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec with 3 RX and 3 TX rings (the AVB ENET of i.MX8M) against its
 * model: RCMR classification by VLAN priority (devarg rcmr=), each TX ring
 * to the wire in the model's strict-priority order, queue stop/start and
 * deferred start per ring, descriptor status and tx_done_cleanup per ring, a
 * fault restart with 3 rings, and a 1-ring SoC refusing queue 1. One EAL per
 * case (argv[1]); the model is stepped by the test. Prints TAP.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF  2048
#define NB_DESC  64
#define ETH_TEST 0x88B5

static struct rte_ether_addr port_mac;
static const uint8_t peer_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

/* What the cases' devarg rcmr=[1:4-5,2:6-7] makes of a PCP. */
static unsigned int
ring_of_pcp(int pcp)
{
	return pcp < 4 ? 0 : pcp < 6 ? 1 : 2;
}

/*
 * A frame to the port: with pcp >= 0 an 802.1Q tag of that priority, then the
 * test ethertype and a sequence number.
 */
static uint16_t
mkframe(uint8_t *f, int pcp, uint32_t seq)
{
	uint16_t off = 12;

	memset(f, 0, 64);
	memcpy(f, port_mac.addr_bytes, 6);
	memcpy(f + 6, peer_mac, 6);
	if (pcp >= 0) {
		f[off++] = 0x81;
		f[off++] = 0x00;
		f[off++] = (uint8_t)(pcp << 5);
		f[off++] = 7; /* VID 7 */
	}
	f[off++] = ETH_TEST >> 8;
	f[off++] = ETH_TEST & 0xFF;
	memcpy(f + off, &seq, 4);
	return 64;
}

static int
inject(int pcp, uint32_t seq)
{
	uint8_t f[64];

	return fec_model_rx_frame(model, f, mkframe(f, pcp, seq));
}

/* The sequence number of a received frame (tagged or not), or UINT32_MAX. */
static uint32_t
frame_seq(const uint8_t *f, uint32_t len)
{
	uint32_t off = f[12] == 0x81 && f[13] == 0x00 ? 16 : 12, seq;

	if (len < off + 6 || f[off] != ETH_TEST >> 8 || f[off + 1] != (ETH_TEST & 0xFF))
		return UINT32_MAX;
	memcpy(&seq, f + off + 2, 4);
	return seq;
}

/* Receive everything queue q holds: how many, their sequence numbers in seqs. */
static unsigned int
rx_all(uint16_t q, uint32_t *seqs, unsigned int max)
{
	struct rte_mbuf *m[32];
	unsigned int n = 0, i, got;

	do {
		got = rte_eth_rx_burst(port, q, m, RTE_DIM(m));
		for (i = 0; i < got; i++) {
			if (n < max)
				seqs[n] = frame_seq(rte_pktmbuf_mtod(m[i], uint8_t *),
					rte_pktmbuf_data_len(m[i]));
			n++;
			rte_pktmbuf_free(m[i]);
		}
	} while (got != 0);
	return n;
}

/* Send n frames with sequence numbers from seq on TX queue q: how many were taken. */
static unsigned int
tx_seq(uint16_t q, uint32_t seq, unsigned int n)
{
	struct rte_mbuf *m[64];
	unsigned int i, sent;

	n = RTE_MIN(n, (unsigned int)RTE_DIM(m));
	if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		uint8_t *f = rte_pktmbuf_mtod(m[i], uint8_t *);

		mkframe(f, -1, seq + i);
		memcpy(f, peer_mac, 6);
		m[i]->data_len = m[i]->pkt_len = 64;
	}
	sent = rte_eth_tx_burst(port, q, m, (uint16_t)n);
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(m[i]);
	return sent;
}

/* The wire's frames in order: how many, their sequence numbers in seqs. */
static unsigned int
wire_all(uint32_t *seqs, unsigned int max)
{
	uint8_t buf[2048];
	unsigned int n = 0;
	int len;

	while ((len = fec_model_tx_frame(model, buf, sizeof(buf))) >= 0) {
		if (n < max)
			seqs[n] = frame_seq(buf, (uint32_t)len);
		n++;
	}
	return n;
}

/* nrx/ntx queues of NB_DESC BDs; bit q of rx_deferred: RX queue q deferred. */
static int
port_setup(uint16_t nrx, uint16_t ntx, unsigned int rx_deferred)
{
	struct rte_eth_rxconf rxc;
	struct rte_eth_conf conf;
	uint16_t q;
	int ret;

	memset(&conf, 0, sizeof(conf));
	memset(&rxc, 0, sizeof(rxc));
	ret = rte_eth_dev_configure(port, nrx, ntx, &conf);
	for (q = 0; ret == 0 && q < nrx; q++) {
		rxc.rx_deferred_start = (rx_deferred >> q) & 1;
		ret = rte_eth_rx_queue_setup(port, q, NB_DESC, 0, &rxc, pool);
	}
	for (q = 0; ret == 0 && q < ntx; q++)
		ret = rte_eth_tx_queue_setup(port, q, NB_DESC, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		ret = rte_eth_macaddr_get(port, &port_mac);
	return ret;
}

/* The register set-up: three rings each way, RCMR as the devarg says, classes on. */
static void
case_regs(void)
{
	static uint32_t dump[FEC_REG_SPACE / 4];
	struct rte_dev_reg_info ri;
	struct rte_eth_dev_info info;
	uint32_t bus, slice;
	size_t len;
	unsigned int q;

	CHECK(rte_eth_dev_info_get(port, &info) == 0 && info.max_rx_queues == 3 &&
			info.max_tx_queues == 3,
		"imx8mm: 3 RX and 3 TX queues (%u, %u)", info.max_rx_queues, info.max_tx_queues);
	CHECK(port_setup(3, 3, 0) == 0, "port setup, 3+3 queues");
	fec_model_bd_area(model, &bus, &len);
	slice = (uint32_t)fec_bd_slice_size(len);
	for (q = 0; q < 3; q++) {
		CHECK(fec_model_read32(model, fec_tdsr_off(q)) == bus + 2 * q * slice, "TDSR%u %#x",
			q, fec_model_read32(model, fec_tdsr_off(q)));
		CHECK(fec_model_read32(model, fec_rdsr_off(q)) == bus + (2 * q + 1) * slice,
			"RDSR%u %#x", q, fec_model_read32(model, fec_rdsr_off(q)));
		CHECK(fec_model_read32(model, fec_mrbr_off(q)) >= 1984, "MRBR%u %u", q,
			fec_model_read32(model, fec_mrbr_off(q)));
		CHECK(fec_model_read32(model, fec_rdar_off(q)) & FEC_DAR_ACTIVE, "RDAR%u rung", q);
	}
	CHECK(fec_model_read32(model, FEC_RCMR1) ==
			(FEC_RCMR_MATCHEN | FEC_RCMR_CMP(4, 0) | FEC_RCMR_CMP(5, 1) |
				FEC_RCMR_CMP(4, 2) | FEC_RCMR_CMP(4, 3)),
		"RCMR1 %#x", fec_model_read32(model, FEC_RCMR1));
	CHECK(fec_model_read32(model, FEC_RCMR2) ==
			(FEC_RCMR_MATCHEN | FEC_RCMR_CMP(6, 0) | FEC_RCMR_CMP(7, 1) |
				FEC_RCMR_CMP(6, 2) | FEC_RCMR_CMP(6, 3)),
		"RCMR2 %#x", fec_model_read32(model, FEC_RCMR2));
	CHECK((fec_model_read32(model, FEC_DMA_CFG1) & FEC_DMA_CLASS_EN) &&
			(fec_model_read32(model, FEC_DMA_CFG2) & FEC_DMA_CLASS_EN),
		"TX classes 1 and 2 on");
	/* The register dump has the AVB rings' registers on a 3-ring SoC. */
	memset(&ri, 0, sizeof(ri));
	ri.data = dump;
	CHECK(rte_eth_dev_get_reg_info(port, &ri) == 0 &&
			dump[FEC_RCMR1 / 4] == fec_model_read32(model, FEC_RCMR1) &&
			dump[FEC_TDSR2 / 4] == fec_model_read32(model, FEC_TDSR2) &&
			dump[FEC_TDSR2 / 4] != 0,
		"get_reg: RCMR1 %#x TDSR2 %#x", dump[FEC_RCMR1 / 4], dump[FEC_TDSR2 / 4]);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	/* Back to one queue each way: rings 1 and 2 unprogrammed, no classification. */
	CHECK(rte_eth_dev_configure(port, 1, 1, &(struct rte_eth_conf){0}) == -EINVAL,
		"rcmr= names ring 2: one RX queue refused");
	check_no_leak("after stop");
	check_clean();
}

/* VLAN PCP 0..7 and untagged frames land on the ring rcmr= maps them to. */
static void
case_pcp(void)
{
	struct rte_eth_stats st;
	uint32_t seqs[64];
	unsigned int q, n, i, want[3] = {0}, bad;
	int pcp;

	CHECK(port_setup(3, 3, 0) == 0, "port setup, 3+3 queues");
	/* Three frames of each PCP (sequence = PCP * 100 + i), two untagged (seq 900+). */
	for (pcp = 0; pcp < 8; pcp++)
		for (i = 0; i < 3; i++) {
			CHECK(inject(pcp, (uint32_t)pcp * 100 + i) == 0, "inject");
			want[ring_of_pcp(pcp)]++;
		}
	CHECK(inject(-1, 900) == 0 && inject(-1, 901) == 0, "inject untagged");
	want[0] += 2;
	step_all();
	for (q = 0; q < 3; q++) {
		CHECK(fec_model_ring_frames(model, 0, q) == want[q], "model ring %u: %" PRIu64, q,
			fec_model_ring_frames(model, 0, q));
		n = rx_all((uint16_t)q, seqs, RTE_DIM(seqs));
		CHECK(n == want[q], "queue %u: %u frames, want %u", q, n, want[q]);
		for (i = 0, bad = 0; i < RTE_MIN(n, (unsigned int)RTE_DIM(seqs)); i++) {
			unsigned int exp = seqs[i] >= 900 ? 0 : ring_of_pcp((int)(seqs[i] / 100));

			bad += seqs[i] == UINT32_MAX || exp != q;
		}
		CHECK(bad == 0, "queue %u: %u frames of another ring", q, bad);
	}
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	for (q = 0; q < 3; q++)
		CHECK(st.q_ipackets[q] == want[q], "q_ipackets[%u] %" PRIu64, q, st.q_ipackets[q]);
	CHECK(st.ipackets == 26 && st.imissed == 0 && st.ierrors == 0,
		"ipackets %" PRIu64 " imissed %" PRIu64, st.ipackets, st.imissed);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * Every TX ring's frames reach the wire; queued on all three before the MAC
 * runs, ring 2 goes first, then 1, then 0 (the model's strict priority).
 * Descriptor status and tx_done_cleanup per ring.
 */
static void
case_tx_rings(void)
{
	struct rte_eth_stats st;
	uint32_t seqs[64];
	unsigned int q, n, i, order_bad = 0;

	CHECK(port_setup(3, 3, 0) == 0, "port setup, 3+3 queues");
	for (q = 0; q < 3; q++)
		CHECK(tx_seq((uint16_t)q, q * 100, 8) == 8, "8 frames on TX queue %u", q);
	for (q = 0; q < 3; q++)
		CHECK(rte_eth_tx_descriptor_status(port, (uint16_t)q, 0) == RTE_ETH_TX_DESC_DONE &&
				rte_eth_tx_descriptor_status(port, (uint16_t)q, NB_DESC - 8) ==
					RTE_ETH_TX_DESC_FULL,
			"queue %u: 8 BDs owned by the MAC", q);
	step_all();
	n = wire_all(seqs, RTE_DIM(seqs));
	CHECK(n == 24, "%u of 24 frames on the wire", n);
	for (i = 0; i < RTE_MIN(n, 24u); i++)
		order_bad += seqs[i] != (2 - i / 8) * 100 + i % 8;
	CHECK(order_bad == 0, "ring 2, then 1, then 0, each in order (%u out of place)", order_bad);
	for (q = 0; q < 3; q++) {
		CHECK(fec_model_ring_frames(model, 1, q) == 8, "model TX ring %u: %" PRIu64, q,
			fec_model_ring_frames(model, 1, q));
		CHECK(rte_eth_tx_descriptor_status(port, (uint16_t)q, NB_DESC - 8) ==
				RTE_ETH_TX_DESC_DONE,
			"queue %u: sent BDs done", q);
		CHECK(rte_eth_tx_done_cleanup(port, (uint16_t)q, 0) == 8, "queue %u: 8 freed", q);
	}
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	for (q = 0; q < 3; q++)
		CHECK(st.q_opackets[q] == 8 && st.q_obytes[q] == 8 * 64, "q_opackets[%u] %" PRIu64,
			q, st.q_opackets[q]);
	CHECK(st.opackets == 24, "opackets (MIB) %" PRIu64, st.opackets);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * RX queue 1 stopped under traffic: its ring fills, the rest are MAC drops;
 * the other rings go on. Started again, what it held is counted as missed.
 * TX queue 1 stopped with frames the MAC will not send (XOFF): taken off
 * after a graceful stop, counted, and queue 0 keeps sending. No mbuf lost.
 */
static void
case_qstop(void)
{
	struct rte_eth_stats st;
	uint32_t seqs[128];
	unsigned int i, n, k;

	CHECK(port_setup(3, 3, 0) == 0, "port setup, 3+3 queues");
	CHECK(rte_eth_dev_rx_queue_stop(port, 1) == 0, "RX queue 1 stopped");
	/* In rounds of 16, queue 0 polled after each: only ring 1 overflows. */
	for (i = 0, n = 0, k = 0; i < NB_DESC + 10; i++) {
		CHECK(inject(4, i) == 0 && inject(0, 1000 + i) == 0, "inject");
		if (i % 16 == 15 || i == NB_DESC + 9) {
			step_all();
			n += rx_all(0, seqs, RTE_DIM(seqs));
			k += rx_all(1, seqs, RTE_DIM(seqs));
		}
	}
	CHECK(k == 0, "stopped queue 1 gives nothing (%u)", k);
	CHECK(n == NB_DESC + 10, "queue 0 goes on: %u", n);
	CHECK(fec_model_ring_frames(model, 0, 1) == NB_DESC, "ring 1 filled: %" PRIu64,
		fec_model_ring_frames(model, 0, 1));
	CHECK(rte_eth_dev_rx_queue_start(port, 1) == 0, "RX queue 1 started");
	CHECK(fec_model_read32(model, FEC_RDAR1) & FEC_DAR_ACTIVE, "RDAR1 rung");
	for (i = 0; i < 5; i++)
		CHECK(inject(5, 2000 + i) == 0, "inject");
	step_all();
	n = rx_all(1, seqs, RTE_DIM(seqs));
	CHECK(n == 5 && seqs[0] == 2000, "queue 1 receives again: %u (first %u)", n, seqs[0]);
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	CHECK(st.imissed == NB_DESC + 10, "imissed %" PRIu64 " (ring held %u, MAC dropped 10)",
		st.imissed, NB_DESC);
	CHECK(st.q_ipackets[1] == 5 && st.q_ipackets[0] == NB_DESC + 10,
		"q_ipackets %" PRIu64 " %" PRIu64, st.q_ipackets[0], st.q_ipackets[1]);

	/* TX: XOFF, 6 frames on ring 1, stop it: graceful stop, taken off. */
	fec_model_tx_hold(model, 1);
	CHECK(tx_seq(1, 300, 6) == 6, "6 frames on TX queue 1");
	CHECK(rte_eth_dev_tx_queue_stop(port, 1) == 0, "TX queue 1 stopped");
	CHECK(!(fec_model_read32(model, FEC_TCR) & FEC_TCR_GTS),
		"graceful stop lifted: queues 0 and 2 still send");
	CHECK(tx_seq(1, 400, 1) == 0, "a stopped queue takes nothing");
	fec_model_tx_hold(model, 0);
	CHECK(tx_seq(0, 500, 4) == 4, "queue 0 sends");
	step_all();
	n = wire_all(seqs, RTE_DIM(seqs));
	CHECK(n == 4 && seqs[0] == 500, "only queue 0's frames went: %u (first %u)", n, seqs[0]);
	CHECK(rte_eth_dev_tx_queue_start(port, 1) == 0, "TX queue 1 started");
	CHECK(tx_seq(1, 600, 3) == 3, "queue 1 sends again");
	step_all();
	n = wire_all(seqs, RTE_DIM(seqs));
	CHECK(n == 3 && seqs[0] == 600, "queue 1's new frames went: %u (first %u)", n, seqs[0]);
	CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
	CHECK(st.oerrors == 6, "the 6 taken off are oerrors: %" PRIu64, st.oerrors);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* RX queue 2 deferred: parked until started; frames for it are MAC drops meanwhile. */
static void
case_deferred(void)
{
	struct rte_eth_rxq_info qi;
	uint32_t seqs[16];
	unsigned int n;

	CHECK(port_setup(3, 3, 1u << 2) == 0, "port setup, RX queue 2 deferred");
	CHECK(rte_eth_rx_queue_info_get(port, 2, &qi) == 0 &&
			qi.queue_state == RTE_ETH_QUEUE_STATE_STOPPED && qi.conf.rx_deferred_start,
		"queue 2 stopped, deferred");
	CHECK(inject(7, 1) == 0 && inject(1, 2) == 0, "inject");
	step_all();
	CHECK(rx_all(2, seqs, RTE_DIM(seqs)) == 0 && rx_all(0, seqs, RTE_DIM(seqs)) == 1,
		"ring 2 parked, ring 0 receives");
	CHECK(rte_eth_dev_rx_queue_start(port, 2) == 0, "queue 2 started");
	CHECK(inject(6, 3) == 0, "inject");
	step_all();
	CHECK(rte_eth_rx_descriptor_status(port, 2, 0) == RTE_ETH_RX_DESC_DONE &&
			rte_eth_rx_descriptor_status(port, 2, 1) == RTE_ETH_RX_DESC_AVAIL &&
			rte_eth_rx_descriptor_status(port, 1, 0) == RTE_ETH_RX_DESC_AVAIL,
		"descriptor status: one frame on ring 2, none on ring 1");
	n = rx_all(2, seqs, RTE_DIM(seqs));
	CHECK(n == 1 && seqs[0] == 3, "queue 2 receives: %u (seq %u)", n, seqs[0]);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * A fault restart with frames in every RX ring and in flight on every TX
 * ring: all rings re-initialised, what they held counted, traffic again on
 * each, mbufs balanced.
 */
static void
case_restart(void)
{
	struct rte_eth_dev *dev = &rte_eth_devices[port];
	struct rte_eth_xstat_name names[256];
	struct rte_eth_xstat xs[256];
	struct rte_eth_stats st;
	uint32_t seqs[32];
	unsigned int q, i;
	int nx, k;
	uint64_t disc = UINT64_MAX, drops = UINT64_MAX;

	CHECK(port_setup(3, 3, 0) == 0, "port setup, 3+3 queues");
	for (i = 0; i < 3; i++)
		CHECK(inject(0, i) == 0 && inject(4, 10 + i) == 0 && inject(6, 20 + i) == 0,
			"inject");
	step_all();
	fec_model_tx_hold(model, 1);
	for (q = 0; q < 3; q++)
		CHECK(tx_seq((uint16_t)q, 100 * q, 2) == 2, "2 frames on TX queue %u", q);
	step_all();
	CHECK(fec_fault_restart(dev, FEC_RESTART_TX_TIMEOUT) == 0, "restart");
	fec_model_tx_hold(model, 0);
	CHECK(fec_model_read32(model, FEC_RDAR1) & fec_model_read32(model, FEC_RDAR2) &
			FEC_DAR_ACTIVE,
		"RDAR1/2 rung again");
	nx = rte_eth_xstats_get_names(port, names, RTE_DIM(names));
	CHECK(nx > 0 && rte_eth_xstats_get(port, xs, RTE_DIM(xs)) == nx, "xstats");
	for (k = 0; k < nx; k++) {
		if (strcmp(names[k].name, "rx_restart_discards") == 0)
			disc = xs[k].value;
		if (strcmp(names[k].name, "tx_restart_drops") == 0)
			drops = xs[k].value;
	}
	CHECK(disc == 9 && drops == 6, "restart threw away 9 RX, 6 TX frames: %" PRIu64 " %" PRIu64,
		disc, drops);
	for (q = 0; q < 3; q++)
		CHECK(rx_all((uint16_t)q, seqs, RTE_DIM(seqs)) == 0, "ring %u empty after restart",
			q);
	for (q = 0; q < 3; q++) {
		static const int pcp[3] = {2, 5, 7};

		CHECK(inject(pcp[q], 50 + q) == 0, "inject");
		CHECK(tx_seq((uint16_t)q, 700 + q, 1) == 1, "TX queue %u", q);
	}
	step_all();
	for (q = 0; q < 3; q++)
		CHECK(rx_all((uint16_t)q, seqs, RTE_DIM(seqs)) == 1 && seqs[0] == 50 + q,
			"ring %u receives after restart", q);
	CHECK(wire_all(seqs, RTE_DIM(seqs)) == 3, "each TX ring sends after restart");
	CHECK(rte_eth_stats_get(port, &st) == 0 && st.oerrors == 6 && st.imissed == 9,
		"oerrors %" PRIu64 " imissed %" PRIu64, st.oerrors, st.imissed);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Devarg rcmr=: what is accepted and the register values it makes. */
static void
case_rcmr_parse(void)
{
	static const char *const bad[] = {"", "[]", "0:1", "3:1", "1:8", "1:5-4", "1:", "1:2,",
		"[1:0-4]", "[1:1,2:1]", "1:1-2-3", "x", "[1:1,,2:2]", "1:1x"};
	uint32_t r[FEC_MAX_RINGS];
	uint8_t max;
	unsigned int i;

	CHECK(fec_rcmr_parse("1:3", r, &max) == 0 && max == 1 &&
			r[1] == (FEC_RCMR_MATCHEN | FEC_RCMR_CMP(3, 0) | FEC_RCMR_CMP(3, 1) |
					FEC_RCMR_CMP(3, 2) | FEC_RCMR_CMP(3, 3)) &&
			r[2] == 0,
		"1:3 -> %#x %#x", r[1], r[2]);
	CHECK(fec_rcmr_parse("[2:0-1,2:7,1:4]", r, &max) == 0 && max == 2 &&
			r[2] == (FEC_RCMR_MATCHEN | FEC_RCMR_CMP(0, 0) | FEC_RCMR_CMP(1, 1) |
					FEC_RCMR_CMP(7, 2) | FEC_RCMR_CMP(0, 3)),
		"[2:0-1,2:7,1:4] -> %#x", r[2]);
	for (i = 0; i < RTE_DIM(bad); i++)
		CHECK(fec_rcmr_parse(bad[i], r, &max) == -EINVAL, "'%s' refused", bad[i]);
	CHECK(rte_vdev_init("net_fec1", "backend=model,rcmr=[1:1,2:1]") < 0,
		"a PCP on two rings: probe refused");
	CHECK(rte_vdev_init("net_fec2", "backend=model,soc=imx6q,rcmr=1:4") < 0,
		"rcmr= on a 1-ring SoC: probe refused");
}

/* i.MX6Q: one ring each way; queue 1 refused. */
static void
case_one_ring(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_info_get(port, &info) == 0 && info.max_rx_queues == 1 &&
			info.max_tx_queues == 1,
		"imx6q: 1 RX, 1 TX queue (%u, %u)", info.max_rx_queues, info.max_tx_queues);
	CHECK(fec_model_nb_rings(model) == 1, "the model has one ring");
	CHECK(rte_eth_dev_configure(port, 2, 1, &conf) < 0, "2 RX queues refused");
	CHECK(rte_eth_dev_configure(port, 1, 2, &conf) < 0, "2 TX queues refused");
	CHECK(port_setup(1, 1, 0) == 0, "1+1 queues");
	CHECK(tx_seq(0, 1, 4) == 4, "4 sent");
	CHECK(inject(5, 9) == 0, "a tagged frame");
	step_all();
	{
		uint32_t seqs[8];

		CHECK(rx_all(0, seqs, RTE_DIM(seqs)) == 1, "tagged frame on ring 0");
		CHECK(wire_all(seqs, RTE_DIM(seqs)) == 4, "sent on the wire");
	}
	/* The model catches a driver ringing a ring the SoC does not have. */
	fec_model_write32(model, FEC_TDAR1, 0);
	CHECK(fec_model_violations(model) == 1, "TDAR1 on imx6q is a violation: %s",
		fec_model_last_violation(model));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
}

/* imx8mm's 3 rings, VLAN priorities 4-5 to ring 1, 6-7 to ring 2; one_ring: imx6q's one. */
#define MQ ",soc=imx8mm,rcmr=[1:4-5,2:6-7]"

static const struct fec_case cases[] = {
	{"regs", MQ, .fn = case_regs},
	{"pcp", MQ, .fn = case_pcp},
	{"tx_rings", MQ, .fn = case_tx_rings},
	{"qstop", MQ, .fn = case_qstop},
	{"deferred", MQ, .fn = case_deferred},
	{"restart", MQ, .fn = case_restart},
	{"rcmr_parse", MQ, .fn = case_rcmr_parse},
	{"one_ring", ",soc=imx6q", .fn = case_one_ring},
};

FEC_CASES_MAIN(cases, .tag = "fecmq", .log_level = "*:error", .nb_mbuf = NB_MBUF)
