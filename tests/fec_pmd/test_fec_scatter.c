/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec scattered RX (RTE_ETH_RX_OFFLOAD_SCATTER) on the model: frames
 * over 1 to 5 BDs of 512-byte buffers, the FCS alone in the last BD, ring
 * wrap mid-frame, a chain broken by a missing L or ended by an error (dropped,
 * counted, freed), the pool running dry mid-chain, frames up to MAX_FL, the
 * configurations refused without scatter. One EAL per case (argv[1]); the
 * model is stepped by the test. Prints TAP.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF  512
#define NB_SMALL 256
/* 512-byte RX buffers: MRBR 512. */
#define SMALL_ROOM (RTE_PKTMBUF_HEADROOM + 512)
#define MTU_MAX    (FEC_MAX_FRAME - RTE_ETHER_HDR_LEN - RTE_VLAN_HLEN - RTE_ETHER_CRC_LEN)

static const uint8_t peer_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
static const uint8_t fec0_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};
static struct rte_mempool *spool; /* the small-buffer pool the RX queue takes from */
static unsigned int shift;        /* SHIFT16's two bytes, 0 with shift16=0 */

static uint16_t
mkframe(uint8_t *f, uint32_t seq, uint16_t len)
{
	uint16_t i;

	memcpy(f, fec0_mac, 6);
	memcpy(f + 6, peer_mac, 6);
	f[12] = 0x88;
	f[13] = 0xB5;
	memcpy(f + 14, &seq, 4);
	for (i = 18; i < len; i++)
		f[i] = (uint8_t)(seq * 7 + i);
	return len;
}

static int
inject(uint32_t seq, uint16_t len)
{
	uint8_t f[FEC_MODEL_FRAME_MAX];

	return fec_model_rx_frame(model, f, mkframe(f, seq, len));
}

/* The frame's bytes, its segments consistent, the BDs it took. */
static int
frame_ok(const struct rte_mbuf *m, uint32_t seq, uint16_t len)
{
	uint8_t exp[FEC_MODEL_FRAME_MAX], got[FEC_MODEL_FRAME_MAX];
	const struct rte_mbuf *s;
	uint32_t sum = 0;
	unsigned int nseg = 0;
	/* Segments: the BDs, less the last if it held only FCS bytes. */
	unsigned int total = len + 4u + shift, bds = (total + 511) / 512;
	unsigned int segs = (bds > 1 && total - 512 * (bds - 1) <= 4) ? bds - 1 : bds;

	for (s = m; s != NULL; s = s->next) {
		sum += s->data_len;
		nseg++;
		if (s->data_len == 0)
			return 0;
	}
	if (m->pkt_len != len || sum != len || nseg != m->nb_segs || nseg != segs)
		return 0;
	mkframe(exp, seq, len);
	return memcmp(rte_pktmbuf_read(m, 0, len, got), exp, len) == 0;
}

static int
port_setup(uint16_t nb_rxd, bool scatter, uint16_t mtu)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	if (scatter)
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_SCATTER;
	conf.rxmode.mtu = mtu;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, nb_rxd, 0, NULL, spool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, 64, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

static struct fec_rxq *
rxq0(void)
{
	return rte_eth_devices[port].data->rx_queues[0];
}

static void
check_small_back(const char *when)
{
	CHECK(rte_mempool_avail_count(spool) == NB_SMALL, "%s: %u of %u small mbufs back", when,
		rte_mempool_avail_count(spool), NB_SMALL);
}

static void
stop_clean(void)
{
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_small_back("after stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * Lengths over 1..5 buffers; with SHIFT16 507..510 leave 1..4 bytes (FCS
 * only) in a second BD, 511 one byte of data and the FCS; 2043 is MAX_FL.
 * 16 BDs: the ring wraps inside frames again and again.
 */
static void
case_sizes(void)
{
	static const uint16_t lens[] = {60, 504, 505, 506, 507, 508, 509, 510, 511, 1000, 1014,
		1018, 1019, 1500, 1530, 1531, 2000, 2043};
	struct rte_mbuf *m[32];
	struct rte_eth_rxq_info qi;
	struct rte_eth_stats st;
	uint64_t bytes = 0;
	unsigned int i, r, bad = 0, seq = 0, got;

	CHECK(port_setup(16, true, MTU_MAX) == 0, "port setup with scatter");
	CHECK(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 && qi.scattered_rx == 1 &&
			qi.rx_buf_size == 512,
		"rxq info: scattered_rx %u, buffer %u", qi.scattered_rx, qi.rx_buf_size);
	CHECK(reg(FEC_MRBR) == 512, "MRBR %u", reg(FEC_MRBR));
	CHECK(reg(FEC_FTRL) == FEC_MAX_FRAME, "FTRL %u", reg(FEC_FTRL));
	CHECK((reg(FEC_RCR) >> 16 & 0x3FFF) == FEC_MAX_FRAME, "MAX_FL %u",
		reg(FEC_RCR) >> 16 & 0x3FFF);
	for (r = 0; r < 3; r++) {
		for (i = 0; i < RTE_DIM(lens); i++) {
			CHECK(inject(seq, lens[i]) == 0, "inject %u", lens[i]);
			got = fec_test_rx_all(m, 1);
			CHECK(got == 1, "length %u: %u frames", lens[i], got);
			if (got == 1 && !frame_ok(m[0], seq, lens[i])) {
				bad++;
				printf("# length %u: pkt_len %u, %u segments\n", lens[i],
					m[0]->pkt_len, m[0]->nb_segs);
			}
			bytes += lens[i];
			fec_test_free_all(m, got);
			seq++;
		}
	}
	CHECK(bad == 0, "%u frames wrong", bad);
	/* Back to back: several chains in one burst, across the wrap. */
	for (i = 0; i < 3; i++)
		CHECK(inject(seq + i, 1500) == 0, "inject");
	step_all();
	got = fec_test_rx_all(m, 3);
	CHECK(got == 3, "3 back to back: %u", got);
	for (i = 0; i < got; i++)
		CHECK(frame_ok(m[i], seq + i, 1500), "back to back frame %u", i);
	fec_test_free_all(m, got);
	bytes += 3 * 1500;
	rte_eth_stats_get(port, &st);
	CHECK(st.ipackets == 3 * RTE_DIM(lens) + 3 && st.ibytes == bytes && st.ierrors == 0,
		"stats: %" PRIu64 " packets, %" PRIu64 " bytes, %" PRIu64 " errors", st.ipackets,
		st.ibytes, st.ierrors);
	CHECK(rxq0()->sg_first == NULL, "no chain left");
	stop_clean();
}

/* Without the offload, a frame of the MTU must fit one buffer. */
static void
case_refuse(void)
{
	struct rte_eth_dev_info info;
	struct rte_eth_rxq_info qi;

	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info");
	CHECK(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER, "SCATTER advertised");
	CHECK(info.max_rx_pktlen == FEC_MAX_FRAME && info.max_mtu == MTU_MAX,
		"max_rx_pktlen %u max_mtu %u", info.max_rx_pktlen, info.max_mtu);
	CHECK(port_setup(16, false, 1500) == -EINVAL, "MTU 1500 in 512-byte buffers refused");
	check_small_back("after the refused start");
	/* 510 bytes in a buffer with SHIFT16: MTU 488. */
	CHECK(port_setup(16, false, 488) == 0, "MTU 488 fits one buffer");
	CHECK(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 && qi.scattered_rx == 0,
		"not scattered");
	CHECK(rte_eth_dev_set_mtu(port, 489) != 0, "started: MTU 489 refused");
	CHECK(reg(FEC_FTRL) == 510, "FTRL %u", reg(FEC_FTRL));
	{
		struct rte_mbuf *m[4];

		CHECK(inject(1, 600) == 0, "inject");
		CHECK(fec_test_rx_all(m, RTE_DIM(m)) == 0, "600 bytes not received");
	}
	CHECK(xstat("rx_err_truncated") == 1, "600 bytes: truncated at FTRL, dropped: %" PRIu64,
		xstat("rx_err_truncated"));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_set_mtu(port, 1500) != 0, "stopped: MTU 1500 refused without scatter");
	CHECK(port_setup(16, true, 488) == 0, "scatter on");
	CHECK(rte_eth_dev_set_mtu(port, MTU_MAX) == 0, "started with scatter: MTU %u", MTU_MAX);
	CHECK(rte_eth_dev_set_mtu(port, MTU_MAX + 1) != 0, "MTU %u refused", MTU_MAX + 1);
	stop_clean();
}

/*
 * A chain broken by a missing L (the BD after it starts the next frame), a
 * CRC error in a frame's last BD, an ME in its ESC word: each dropped and
 * counted, every segment freed, the frames around them intact.
 */
static void
case_bad_chain(void)
{
	struct fec_model_fault f = {.kind = FEC_FAULT_RX_NO_LAST, .after = 2, .count = 1};
	struct rte_mbuf *m[16];
	struct rte_eth_stats st;
	unsigned int i, got, k = 0;
	static const uint32_t want[] = {0, 1, 3, 4, 6};

	CHECK(port_setup(16, true, MTU_MAX) == 0, "port setup");
	CHECK(fec_model_inject(model, &f) == 0, "arm no_last on frame 2");
	f.kind = FEC_FAULT_RX_CR;
	f.after = 5;
	CHECK(fec_model_inject(model, &f) == 0, "arm crc on frame 5");
	/* an error only the enhanced BD's ESC word says: the chain is dropped too */
	f.kind = FEC_FAULT_RX_ME;
	f.after = 7;
	CHECK(fec_model_inject(model, &f) == 0, "arm ME on frame 7");
	for (i = 0; i < 8; i++) {
		CHECK(inject(i, 1200) == 0, "inject %u", i);
		step_all();
		got = fec_test_rx_all(m, RTE_DIM(m));
		if (got == 1 && k < RTE_DIM(want))
			CHECK(frame_ok(m[0], want[k], 1200), "frame %u", want[k]);
		k += got;
		fec_test_free_all(m, got);
	}
	CHECK(k == RTE_DIM(want), "%u of %zu frames", k, RTE_DIM(want));
	CHECK(xstat("rx_err_no_last") == 1, "rx_err_no_last %" PRIu64, xstat("rx_err_no_last"));
	CHECK(xstat("rx_err_crc") == 1, "rx_err_crc %" PRIu64, xstat("rx_err_crc"));
	CHECK(xstat("rx_err_mac") == 1, "rx_err_mac %" PRIu64, xstat("rx_err_mac"));
	rte_eth_stats_get(port, &st);
	CHECK(st.ierrors == 3 && st.ipackets == RTE_DIM(want),
		"ierrors %" PRIu64 " ipackets %" PRIu64, st.ierrors, st.ipackets);
	CHECK(rxq0()->sg_first == NULL, "no chain left");
	stop_clean();
}

/*
 * The pool runs dry mid-chain: the burst stops at the BD, the segments so far
 * wait in the queue; with mbufs back the frame completes intact.
 */
static void
case_nombuf(void)
{
	struct rte_mbuf *held[NB_SMALL], *m[64];
	struct rte_eth_stats st;
	unsigned int nheld = 0, s, k, i, nfr, got = 0, tries;
	bool mid = false;

	CHECK(port_setup(128, true, MTU_MAX) == 0, "port setup");
	/* A burst on an empty ring: the stash is as the start left it. */
	rte_eth_rx_burst(port, 0, m, 1);
	while (nheld < NB_SMALL && (held[nheld] = rte_pktmbuf_alloc(spool)) != NULL)
		nheld++;
	s = rxq0()->stash_n;
	if (s == 0) {
		rte_pktmbuf_free(held[--nheld]);
		s = 1;
	}
	/* k BDs a frame, s not a multiple of k: the stash runs out inside a frame. */
	for (k = 2; s % k == 0; k++)
		;
	nfr = s / k + 1;
	for (i = 0; i < nfr; i++)
		CHECK(inject(i, (uint16_t)(512 * k - 8 - shift)) == 0, "inject %u", i);
	step_all();
	for (tries = 0; tries < 4; tries++)
		got += rte_eth_rx_burst(port, 0, m + got, (uint16_t)(RTE_DIM(m) - got));
	mid = rxq0()->sg_first != NULL;
	CHECK(got == s / k, "%u frames before the pool ran dry (stash %u, %u BDs each)", got, s, k);
	CHECK(mid, "a chain waits for mbufs");
	rte_eth_stats_get(port, &st);
	CHECK(st.rx_nombuf > 0, "rx_nombuf %" PRIu64, st.rx_nombuf);
	for (i = 0; i < nheld; i++)
		rte_pktmbuf_free(held[i]);
	got += fec_test_rx_all(m + got, RTE_DIM(m) - got);
	CHECK(got == nfr, "%u of %u frames", got, nfr);
	for (i = 0; i < got; i++)
		CHECK(frame_ok(m[i], i, (uint16_t)(512 * k - 8 - shift)), "frame %u", i);
	fec_test_free_all(m, got);
	stop_clean();
}

/* MAX_FL: 2047 bytes with FCS taken, one more dropped (LG, TR at FTRL). */
static void
case_jumbo(void)
{
	struct rte_mbuf *m[4];
	unsigned int got;

	CHECK(port_setup(32, true, MTU_MAX) == 0, "port setup");
	CHECK(inject(1, FEC_MAX_FRAME - 4) == 0, "inject 2043");
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && frame_ok(m[0], 1, FEC_MAX_FRAME - 4), "2043 bytes (2047 with FCS)");
	fec_test_free_all(m, got);
	CHECK(inject(2, FEC_MAX_FRAME - 3) == 0, "inject 2044");
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 0, "2048 with FCS dropped: %u", got);
	fec_test_free_all(m, got);
	CHECK(xstat("rx_err_truncated") == 1, "counted: truncated %" PRIu64,
		xstat("rx_err_truncated"));
	/* Smaller MTU: MAX_FL follows, the frames above it are length errors. */
	CHECK(rte_eth_dev_set_mtu(port, 1500) == 0, "MTU 1500");
	CHECK(inject(3, 1600) == 0, "inject 1600");
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 0, "1604 > MAX_FL 1522 dropped");
	CHECK(xstat("rx_err_length") == 1, "rx_err_length %" PRIu64, xstat("rx_err_length"));
	CHECK(inject(4, 1518) == 0, "inject 1518");
	got = fec_test_rx_all(m, RTE_DIM(m));
	CHECK(got == 1 && frame_ok(m[0], 4, 1518), "1518 received");
	fec_test_free_all(m, got);
	stop_clean();
}

static const struct fec_case cases[] = {
	{"sizes", "", .fn = case_sizes},
	{"sizes_legacy", ",bd=legacy", .fn = case_sizes},
	{"sizes_noshift", ",shift16=0,bd=legacy", .fn = case_sizes},
	{"refuse", "", .fn = case_refuse},
	{"bad_chain", "", .fn = case_bad_chain},
	{"nombuf", "", .fn = case_nombuf},
	{"jumbo", "", .fn = case_jumbo},
};

/* The small-buffer pool every case's RX queue takes from; the port's SHIFT16. */
static int
scatter_setup(const struct fec_case *c)
{
	spool = rte_pktmbuf_pool_create("fecsg_small", NB_SMALL, 0, 0, SMALL_ROOM, 0);
	if (spool == NULL) {
		printf("Bail out! small pool\n");
		return -1;
	}
	shift = strstr(c->devargs, "shift16=0") != NULL ? 0 : 2;
	return 0;
}

FEC_CASES_MAIN(
	cases, .tag = "fecsg", .log_level = "*:warning", .nb_mbuf = NB_MBUF, .setup = scatter_setup)
