/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The datapath functions with crafted mbufs: the L2 modes, the TX buffer, a
 * worker's burst handling and shutdown flush, and the lcore map checks. TX goes
 * to net_ring ports whose rings the test reads back (or fills, to make the
 * port refuse packets).
 */

#include <string.h>

#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fwd_app.h"
#include "fwd_lcore.h"
#include "fwd_map.h"
#include "fwd_modes.h"
#include "fwd_trace.h"
#include "fwd_test.h"
#include "fwd_txbuf.h"

#define POOL_SIZE 1023
#define RING_SIZE 64

static struct rte_mempool *pool;
static struct rte_ring *tx_ring[2];
static uint16_t ring_port[2];

static const struct rte_ether_addr mac_a = {{0x00, 0x11, 0x22, 0x33, 0x44, 0x55}};
static const struct rte_ether_addr mac_b = {{0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb}};

/* A frame of @p len bytes: dst=mac_a, src=mac_b, then bytes seq, seq+1, ... */
static struct rte_mbuf *
frame(uint16_t len, uint8_t seq)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;
	uint16_t i;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seq + i);
	if (len >= RTE_ETHER_HDR_LEN) {
		memcpy(p, &mac_a, 6);
		memcpy(p + 6, &mac_b, 6);
	}
	return m;
}

/* The payload after the MACs is untouched. */
static int
payload_intact(const struct rte_mbuf *m, uint8_t seq)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t i;

	for (i = 12; i < rte_pktmbuf_data_len(m); i++)
		if (p[i] != (uint8_t)(seq + i))
			return 0;
	return 1;
}

static unsigned int
in_use(void)
{
	return POOL_SIZE - rte_mempool_avail_count(pool);
}

static void
drain_rings(void)
{
	struct rte_mbuf *m;
	unsigned int i;

	for (i = 0; i < 2; i++)
		while (rte_ring_dequeue(tx_ring[i], (void **)&m) == 0)
			rte_pktmbuf_free(m);
}

static void
test_mode_mac(void)
{
	struct fwd_lcore_stats st = {0};
	struct rte_mbuf *pkts[8];
	const uint16_t lens[8] = {60, 13, 14, 1514, 0, 64, 12, 100};
	static const struct rte_ether_addr src = {{0x02, 0, 0, 0, 0, 0x10}};
	static const struct rte_ether_addr dst = {{0x02, 0, 0, 0, 0, 0x20}};
	uint16_t i, n, k = 0;

	for (i = 0; i < 8; i++)
		pkts[i] = frame(lens[i], (uint8_t)(i * 17));
	n = fwd_mode_mac(pkts, 8, &src, &dst, &st);
	CHECK_EQ(n, 5);
	CHECK_EQ(st.drops[FWD_DROP_RUNT], 3);
	CHECK_EQ(in_use(), 5); /* the runts went back to the pool */
	for (i = 0; i < 8; i++) {
		const struct rte_ether_hdr *eth;

		if (lens[i] < RTE_ETHER_HDR_LEN)
			continue;
		/* order kept, and only the MACs changed */
		CHECK_EQ(rte_pktmbuf_data_len(pkts[k]), lens[i]);
		eth = rte_pktmbuf_mtod(pkts[k], const struct rte_ether_hdr *);
		CHECK(rte_is_same_ether_addr(&eth->dst_addr, &dst));
		CHECK(rte_is_same_ether_addr(&eth->src_addr, &src));
		CHECK(payload_intact(pkts[k], (uint8_t)(i * 17)));
		k++;
	}
	rte_pktmbuf_free_bulk(pkts, n);
	CHECK_EQ(in_use(), 0);

	/* the common case: no runt, nothing dropped */
	for (i = 0; i < 8; i++)
		pkts[i] = frame(64, (uint8_t)i);
	CHECK_EQ(fwd_mode_mac(pkts, 8, &src, &dst, &st), 8);
	CHECK_EQ(st.drops[FWD_DROP_RUNT], 3);
	rte_pktmbuf_free_bulk(pkts, 8);
}

static void
test_mode_macswap(void)
{
	struct fwd_lcore_stats st = {0};
	struct rte_mbuf *pkts[4];
	uint16_t i, n;

	pkts[0] = frame(64, 1);
	pkts[1] = frame(10, 2);
	pkts[2] = frame(14, 3);
	pkts[3] = frame(200, 4);
	n = fwd_mode_macswap(pkts, 4, &st);
	CHECK_EQ(n, 3);
	CHECK_EQ(st.drops[FWD_DROP_RUNT], 1);
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eth =
			rte_pktmbuf_mtod(pkts[i], const struct rte_ether_hdr *);

		CHECK(rte_is_same_ether_addr(&eth->dst_addr, &mac_b));
		CHECK(rte_is_same_ether_addr(&eth->src_addr, &mac_a));
	}
	CHECK(payload_intact(pkts[0], 1));
	CHECK(payload_intact(pkts[2], 4)); /* the third kept one is the 4th frame */
	rte_pktmbuf_free_bulk(pkts, n);
	CHECK_EQ(in_use(), 0);
}

static void
test_mode_rxonly(void)
{
	struct fwd_lcore_stats st = {0};
	struct rte_mbuf *pkts[5];
	uint16_t i;

	for (i = 0; i < 5; i++)
		pkts[i] = frame(64, (uint8_t)i);
	fwd_mode_rxonly(pkts, 5, &st);
	CHECK_EQ(st.drops[FWD_DROP_RXONLY], 5);
	CHECK_EQ(in_use(), 0);
}

static void
txbuf_init(struct fwd_txbuf *b, uint16_t port, uint16_t burst)
{
	memset(b, 0, sizeof(*b));
	b->port = port;
	b->queue = 0;
	b->burst = burst;
}

static void
test_txbuf_batches(void)
{
	static struct fwd_txbuf b;
	struct fwd_lcore_stats st = {0};
	struct rte_mbuf *pkts[40], *out[RING_SIZE];
	unsigned int i, n;

	txbuf_init(&b, ring_port[0], 8);
	for (i = 0; i < 20; i++)
		pkts[i] = frame(64, (uint8_t)i);

	fwd_txbuf_add(&b, &pkts[0], 3, &st); /* waits: below the burst */
	CHECK_EQ(b.len, 3);
	CHECK_EQ(rte_ring_count(tx_ring[0]), 0);
	fwd_txbuf_add(&b, &pkts[3], 4, &st);
	CHECK_EQ(b.len, 7);
	fwd_txbuf_add(&b, &pkts[7], 2, &st); /* 9 >= 8: all nine leave */
	CHECK_EQ(b.len, 0);
	CHECK_EQ(rte_ring_count(tx_ring[0]), 9);
	fwd_txbuf_add(&b, &pkts[9], 8, &st); /* a full burst on an empty buffer goes straight out */
	CHECK_EQ(b.len, 0);
	fwd_txbuf_add(&b, &pkts[17], 3, &st);
	fwd_txbuf_flush(&b, &st, FWD_DROP_TX_FULL); /* the drain timer's flush */
	CHECK_EQ(b.len, 0);
	CHECK_EQ(st.tx_pkts, 20);
	CHECK_EQ(b.tx_pkts, 20);

	/* in the order they were added */
	n = rte_ring_dequeue_burst(tx_ring[0], (void **)out, RING_SIZE, NULL);
	CHECK_EQ(n, 20);
	for (i = 0; i < n; i++)
		CHECK(out[i] == pkts[i]);
	rte_pktmbuf_free_bulk(out, n);
	CHECK_EQ(in_use(), 0);
}

static void
test_txbuf_refused(void)
{
	static struct fwd_txbuf b;
	struct fwd_lcore_stats st = {0};
	struct rte_mbuf *pkts[RING_SIZE];
	unsigned int i, room;

	/* leave room for 5 packets only */
	room = rte_ring_free_count(tx_ring[0]);
	for (i = 0; i < room - 5; i++)
		rte_ring_enqueue(tx_ring[0], frame(60, 0));
	txbuf_init(&b, ring_port[0], 16);
	for (i = 0; i < 16; i++)
		pkts[i] = frame(64, (uint8_t)i);
	fwd_txbuf_add(&b, pkts, 16, &st);
	CHECK_EQ(st.tx_pkts, 5);
	CHECK_EQ(st.drops[FWD_DROP_TX_FULL], 11);
	CHECK_EQ(rte_ring_count(tx_ring[0]), room);
	drain_rings();
	CHECK_EQ(in_use(), 0); /* the refused ones were freed, not leaked */
}

/* A worker with one RX source on port @p rx (unused here) sending to ring port 1. */
static struct fwd_lcore *
make_lcore(enum fwd_mode mode, uint16_t burst)
{
	struct fwd_lcore *lc = rte_zmalloc(NULL, sizeof(*lc) + sizeof(struct fwd_txbuf), 64);

	lc->mode = mode;
	lc->burst = burst;
	lc->n_rx = 1;
	lc->rx[0].port = ring_port[0];
	lc->rx[0].txb = 0;
	lc->n_txb = 1;
	txbuf_init(&lc->txb[0], ring_port[1], burst);
	lc->txb[0].src = mac_a;
	lc->txb[0].dst = mac_b;
	return lc;
}

static void
test_handle_burst(void)
{
	struct fwd_lcore *lc = make_lcore(FWD_MODE_MAC, 4);
	struct rte_mbuf *pkts[6], *out[8];
	unsigned int i, n;

	for (i = 0; i < 6; i++)
		pkts[i] = frame(i == 2 ? 8 : 64, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 6);
	CHECK_EQ(lc->stats.rx_pkts, 6);
	CHECK_EQ(lc->rx[0].rx_pkts, 6);
	CHECK_EQ(lc->stats.rx_bursts, 1);
	CHECK_EQ(lc->stats.drops[FWD_DROP_RUNT], 1);
	CHECK_EQ(lc->stats.tx_pkts, 5);
	n = rte_ring_dequeue_burst(tx_ring[1], (void **)out, 8, NULL);
	CHECK_EQ(n, 5);
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(out[i], struct rte_ether_hdr *);

		CHECK(rte_is_same_ether_addr(&eth->src_addr, &mac_a));
		CHECK(rte_is_same_ether_addr(&eth->dst_addr, &mac_b));
	}
	rte_pktmbuf_free_bulk(out, n);

	/* io: untouched; below the burst it waits for the drain */
	lc->mode = FWD_MODE_IO;
	pkts[0] = frame(64, 9);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 1);
	CHECK_EQ(lc->txb[0].len, 1);
	fwd_lcore_flush_all(lc, FWD_DROP_TX_FULL);
	CHECK_EQ(rte_ring_dequeue(tx_ring[1], (void **)out), 0);
	CHECK(out[0] == pkts[0]);
	CHECK(payload_intact(out[0], 9));
	CHECK_EQ(memcmp(rte_pktmbuf_mtod(out[0], void *), &mac_a, 6), 0);
	rte_pktmbuf_free(out[0]);

	/* every received packet is sent or counted: rx == tx + drops */
	CHECK_EQ(lc->stats.rx_pkts, lc->stats.tx_pkts + lc->stats.drops[FWD_DROP_RUNT]);
	rte_free(lc);
	CHECK_EQ(in_use(), 0);
}

/* fwd_burst_bytes(): the sum of pkt_len for every burst size, the passes of four and the rest. */
static void
test_burst_bytes(void)
{
	struct rte_mbuf *pkts[11];
	uint64_t want = 0;
	uint16_t n;

	CHECK_EQ(fwd_burst_bytes(pkts, 0), 0);
	for (n = 0; n < RTE_DIM(pkts); n++)
		pkts[n] = frame((uint16_t)(60 + 7 * n), (uint8_t)n);
	for (n = 1; n <= RTE_DIM(pkts); n++) {
		want += 60 + 7 * (n - 1);
		CHECK_EQ(fwd_burst_bytes(pkts, n), want);
	}
	rte_pktmbuf_free_bulk(pkts, RTE_DIM(pkts));
	CHECK_EQ(in_use(), 0);
}

/*
 * Ports without byte counters: io hands the RX sum on to the TX buffer (waiting
 * and sent straight), mac with a runt dropped sums again; what the port refuses
 * is not counted as sent. rx_bytes and tx_bytes are what went in and out.
 */
static void
test_handle_burst_bytes(void)
{
	struct fwd_lcore *lc = make_lcore(FWD_MODE_IO, 4);
	struct rte_mbuf *pkts[8];
	uint64_t in = 0, out = 0;
	unsigned int i, room;

	lc->rx[0].count_bytes = true;
	lc->txb[0].count_bytes = true;
	/* io, below the burst: waits with its bytes; the next burst sends both */
	for (i = 0; i < 3; i++)
		pkts[i] = frame((uint16_t)(64 + i), (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 3);
	CHECK_EQ(lc->txb[0].len, 3);
	CHECK_EQ(lc->txb[0].len_bytes, 64 + 65 + 66);
	CHECK_EQ(lc->txb[0].tx_bytes, 0);
	for (i = 0; i < 2; i++)
		pkts[i] = frame(100, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 2);
	in = out = 64 + 65 + 66 + 200;
	CHECK_EQ(lc->rx[0].rx_bytes, in);
	CHECK_EQ(lc->txb[0].len, 0);
	CHECK_EQ(lc->txb[0].len_bytes, 0);
	CHECK_EQ(lc->txb[0].tx_bytes, out);
	/* io, a full burst straight out */
	for (i = 0; i < 4; i++)
		pkts[i] = frame(70, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 4);
	in += 280;
	out += 280;
	CHECK_EQ(lc->txb[0].tx_bytes, out);
	/* mac, a runt dropped: the TX side counts the 4 sent, not the 5 received */
	lc->mode = FWD_MODE_MAC;
	for (i = 0; i < 5; i++)
		pkts[i] = frame(i == 1 ? 8 : 80, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 5);
	in += 4 * 80 + 8;
	out += 4 * 80;
	CHECK_EQ(lc->rx[0].rx_bytes, in);
	CHECK_EQ(lc->txb[0].tx_bytes, out);
	/* the RX port counts its own bytes, the TX port not: TX sums for itself */
	lc->mode = FWD_MODE_IO;
	lc->rx[0].count_bytes = false;
	for (i = 0; i < 4; i++)
		pkts[i] = frame(90, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 4);
	out += 360;
	CHECK_EQ(lc->rx[0].rx_bytes, in);
	CHECK_EQ(lc->txb[0].tx_bytes, out);
	/* and the reverse: the RX sum counts, the TX port's bytes are its own (0 here) */
	lc->rx[0].count_bytes = true;
	lc->txb[0].count_bytes = false;
	for (i = 0; i < 4; i++)
		pkts[i] = frame(50, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 4);
	in += 200;
	CHECK_EQ(lc->rx[0].rx_bytes, in);
	CHECK_EQ(lc->txb[0].tx_bytes, out);
	drain_rings();
	/* a port that takes 2 of a waiting 3 (66, 67 sent, 68 refused) */
	lc->txb[0].count_bytes = true;
	room = rte_ring_free_count(tx_ring[1]);
	for (i = 0; i < room - 2; i++)
		rte_ring_enqueue(tx_ring[1], frame(60, 0));
	for (i = 0; i < 3; i++)
		pkts[i] = frame((uint16_t)(66 + i), (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 3);
	fwd_lcore_flush_all(lc, FWD_DROP_TX_FULL);
	out += 66 + 67;
	CHECK_EQ(lc->txb[0].tx_bytes, out);
	CHECK_EQ(lc->txb[0].len_bytes, 0);
	CHECK_EQ(lc->stats.drops[FWD_DROP_TX_FULL], 1);
	CHECK_EQ(lc->stats.drops[FWD_DROP_RUNT], 1);
	CHECK_EQ(lc->stats.rx_pkts, lc->stats.tx_pkts + 2);
	drain_rings();
	rte_free(lc);
	CHECK_EQ(in_use(), 0);
}

/* The trace buffer: the shared budget counted down, records, the stage and record limits, clear. */
static void
test_trace_buffer(void)
{
	struct fwd_trace_ctl ctl = {.left = 5, .total = 5, .port = FWD_TRACE_ANY_PORT};
	struct fwd_trace_buf *b = rte_zmalloc(NULL, sizeof(*b), 64);
	struct fwd_trace_rec *r;
	uint32_t seq = 99, i;

	b->ctl = &ctl;
	/* the budget: 3 of a burst of 3, then the 2 left of a burst of 4, then none */
	CHECK_EQ(fwd_trace_claim(&ctl, 3, &seq), 3);
	CHECK_EQ(seq, 0);
	CHECK_EQ(ctl.left, 2);
	CHECK_EQ(fwd_trace_claim(&ctl, 4, &seq), 2);
	CHECK_EQ(seq, 3);
	CHECK_EQ(ctl.left, 0);
	seq = 77;
	CHECK_EQ(fwd_trace_claim(&ctl, 4, &seq), 0);
	CHECK_EQ(seq, 77);

	/* a record is invisible until published */
	r = fwd_trace_begin(b, 0, 1, 2, 3, 60, 1234);
	CHECK(r != NULL);
	CHECK(fwd_trace_stage(r, FWD_TRACE_DROP, 0, FWD_DROP_RUNT) != NULL);
	CHECK_EQ(fwd_trace_count(b), 0);
	fwd_trace_publish(b, r);
	CHECK_EQ(fwd_trace_count(b), 1);
	CHECK_EQ(b->rec[0].n_stages, 1);
	CHECK_EQ(b->rec[0].st[0].kind, FWD_TRACE_DROP);
	CHECK_EQ(b->rec[0].st[0].u16, FWD_DROP_RUNT);
	CHECK_EQ(b->rec[0].port, 2);
	CHECK_EQ(b->rec[0].queue, 3);

	/* stages past the limit are not kept, and do not overwrite */
	r = fwd_trace_begin(b, 1, 1, 0, 0, 60, 1235);
	for (i = 0; i < FWD_TRACE_STAGES; i++)
		CHECK(fwd_trace_stage(r, FWD_TRACE_TX, 0, (uint16_t)i) != NULL);
	CHECK(fwd_trace_stage(r, FWD_TRACE_DROP, 0, 0) == NULL);
	CHECK_EQ(r->n_stages, FWD_TRACE_STAGES);
	CHECK_EQ(r->st[FWD_TRACE_STAGES - 1].u16, FWD_TRACE_STAGES - 1);
	fwd_trace_publish(b, r);

	/* a full buffer refuses more (a limit, not a wrap): the first records stay */
	for (i = 2; i < FWD_TRACE_MAX; i++) {
		r = fwd_trace_begin(b, i, 1, 0, 0, 60, 0);
		CHECK(r != NULL);
		fwd_trace_publish(b, r);
	}
	CHECK_EQ(fwd_trace_count(b), FWD_TRACE_MAX);
	r = fwd_trace_begin(b, FWD_TRACE_MAX, 1, 0, 0, 60, 0);
	CHECK(r == NULL);
	CHECK(fwd_trace_stage(r, FWD_TRACE_TX, 0, 0) == NULL);
	fwd_trace_publish(b, r);
	CHECK_EQ(fwd_trace_count(b), FWD_TRACE_MAX);
	CHECK_EQ(b->rec[0].st[0].u16, FWD_DROP_RUNT);

	fwd_trace_clear(b);
	CHECK_EQ(fwd_trace_count(b), 0);
	rte_free(b);
}

/* A traced burst (mac mode): the first packets recorded, the burst handled as without trace. */
static void
test_trace_burst(void)
{
	struct fwd_lcore *lc = make_lcore(FWD_MODE_MAC, 4);
	struct fwd_trace_ctl ctl = {.left = 4, .total = 4, .port = FWD_TRACE_ANY_PORT};
	struct rte_mbuf *pkts[6], *out[8];
	const struct fwd_trace_rec *r;
	unsigned int i, n;

	lc->trace = rte_zmalloc(NULL, sizeof(*lc->trace), 64);
	lc->trace->ctl = &ctl;
	lc->trace_on = 1;
	lc->lcore_id = 3;
	for (i = 0; i < 6; i++)
		pkts[i] = frame(i == 2 ? 8 : 64, (uint8_t)i);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 6);
	/* the burst itself: as test_handle_burst */
	CHECK_EQ(lc->stats.rx_pkts, 6);
	CHECK_EQ(lc->stats.drops[FWD_DROP_RUNT], 1);
	CHECK_EQ(lc->stats.tx_pkts, 5);
	n = rte_ring_dequeue_burst(tx_ring[1], (void **)out, 8, NULL);
	CHECK_EQ(n, 5);
	rte_pktmbuf_free_bulk(out, n);
	/* four records: headers, the action, then tx (or the runt's drop) */
	CHECK_EQ(fwd_trace_count(lc->trace), 4);
	CHECK_EQ(ctl.left, 0);
	for (i = 0; i < 4; i++) {
		const struct fwd_trace_stage *last;

		r = &lc->trace->rec[i];
		CHECK_EQ(r->seq, i);
		CHECK_EQ(r->lcore, 3);
		CHECK_EQ(r->port, ring_port[0]);
		CHECK_EQ(r->len, i == 2 ? 8 : 64);
		CHECK(r->n_stages >= 2);
		last = &r->st[r->n_stages - 1];
		if (i == 2) {
			/* a runt has no Ethernet header to show */
			CHECK_EQ(r->st[0].kind, FWD_TRACE_ACTION);
			CHECK_EQ(last->kind, FWD_TRACE_DROP);
			CHECK_EQ(last->u16, FWD_DROP_RUNT);
		} else {
			CHECK_EQ(r->st[0].kind, FWD_TRACE_ETH);
			CHECK_EQ(memcmp(r->st[0].w, &mac_a, 6), 0);
			CHECK_EQ(r->st[1].kind, FWD_TRACE_ACTION);
			CHECK_EQ(r->st[1].u8, FWD_MODE_MAC);
			CHECK_EQ(last->kind, FWD_TRACE_TX);
			CHECK_EQ(last->u16, ring_port[1]);
		}
	}
	/* the budget spent: the next burst turns the lcore's trace off and records nothing */
	pkts[0] = frame(64, 9);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 1);
	CHECK_EQ(lc->trace_on, 0);
	CHECK_EQ(fwd_trace_count(lc->trace), 4);
	fwd_lcore_flush_all(lc, FWD_DROP_TX_FULL);
	n = rte_ring_dequeue_burst(tx_ring[1], (void **)out, 8, NULL);
	CHECK_EQ(n, 1);
	rte_pktmbuf_free_bulk(out, n);

	/* another port's packets are not recorded */
	ctl.left = ctl.total = 2;
	ctl.port = (uint16_t)(ring_port[0] + 1);
	lc->trace_on = 1;
	fwd_trace_clear(lc->trace);
	pkts[0] = frame(64, 10);
	fwd_lcore_handle_burst(lc, &lc->rx[0], pkts, 1);
	CHECK_EQ(fwd_trace_count(lc->trace), 0);
	CHECK_EQ(ctl.left, 2);
	fwd_lcore_flush_all(lc, FWD_DROP_TX_FULL);
	n = rte_ring_dequeue_burst(tx_ring[1], (void **)out, 8, NULL);
	CHECK_EQ(n, 1);
	rte_pktmbuf_free_bulk(out, n);
	rte_free(lc->trace);
	rte_free(lc);
	CHECK_EQ(in_use(), 0);
}

/* On stop, what is still buffered is flushed; what the port refuses counts as "stopped". */
static void
test_worker_stop_flush(void)
{
	struct fwd_lcore *lc = make_lcore(FWD_MODE_IO, 32);
	volatile bool quit = true;
	struct rte_mbuf *pkts[3];
	unsigned int i, room;

	lc->quit = &quit;
	lc->n_rx = 0; /* nothing to poll: fwd_lcore_main returns at once */
	room = rte_ring_free_count(tx_ring[1]);
	for (i = 0; i < room - 1; i++)
		rte_ring_enqueue(tx_ring[1], frame(60, 0));
	for (i = 0; i < 3; i++)
		pkts[i] = frame(64, (uint8_t)i);
	fwd_txbuf_add(&lc->txb[0], pkts, 3, &lc->stats);
	CHECK_EQ(fwd_lcore_main(lc), 0);
	CHECK_EQ(lc->txb[0].len, 0);
	CHECK_EQ(lc->stats.tx_pkts, 1);
	CHECK_EQ(lc->stats.drops[FWD_DROP_STOPPED], 2);
	drain_rings();
	rte_free(lc);
	CHECK_EQ(in_use(), 0);
}

/* A worker really forwards on its own lcore until told to stop. */
static void
test_worker_loop(void)
{
	struct fwd_lcore *lc = make_lcore(FWD_MODE_MACSWAP, 32);
	volatile bool quit = false;
	struct rte_ring *rx_ring =
		rte_ring_create("rx", RING_SIZE, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
	struct rte_mbuf *out[RING_SIZE];
	int port;
	unsigned int i, n = 0;

	port = rte_eth_from_ring(rx_ring);
	CHECK(port >= 0);
	CHECK_EQ(rte_eth_dev_configure(port, 1, 1, &(struct rte_eth_conf){0}), 0);
	CHECK_EQ(rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, pool), 0);
	CHECK_EQ(rte_eth_tx_queue_setup(port, 0, 64, 0, NULL), 0);
	CHECK_EQ(rte_eth_dev_start(port), 0);
	lc->quit = &quit;
	lc->rx[0].port = (uint16_t)port;
	lc->drain_tsc = 1;
	for (i = 0; i < 10; i++)
		rte_ring_enqueue(rx_ring, frame(64, (uint8_t)i));
	CHECK_EQ(rte_eal_remote_launch(fwd_lcore_main, lc, 1), 0);
	while (n < 10 && !fwd_test_case_failed) {
		n += rte_ring_dequeue_burst(tx_ring[1], (void **)&out[n], RING_SIZE - n, NULL);
		rte_pause();
	}
	quit = true;
	rte_eal_wait_lcore(1);
	CHECK_EQ(n, 10);
	for (i = 0; i < n; i++) {
		const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(out[i], struct rte_ether_hdr *);

		CHECK(rte_is_same_ether_addr(&eth->src_addr, &mac_a)); /* swapped */
		CHECK(payload_intact(out[i], (uint8_t)i));             /* and in order */
	}
	rte_pktmbuf_free_bulk(out, n);
	CHECK_EQ(lc->stats.rx_pkts, 10);
	CHECK_EQ(lc->stats.tx_pkts, 10);
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
	rte_ring_free(rx_ring);
	rte_free(lc);
	CHECK_EQ(in_use(), 0);
}

static void
test_map_default_and_validate(void)
{
	struct fwd_config cfg;
	char err[FWD_ERR_LEN];

	fwd_config_defaults(&cfg);
	cfg.rxq = 2;
	CHECK_EQ(fwd_map_default(&cfg, 2, err, sizeof(err)), 0);
	CHECK_EQ(cfg.n_map, 4); /* 2 ports x 2 queues, all on the only worker, lcore 1 */
	CHECK_EQ(cfg.map[0].lcore, 1);
	CHECK_EQ(cfg.map[3].port, 1);
	CHECK_EQ(cfg.map[3].queue, 1);
	CHECK_EQ(fwd_map_validate(&cfg, 2, err, sizeof(err)), 0);

	cfg.map[1].port = 2;
	CHECK(fwd_map_validate(&cfg, 2, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "port 2 does not exist (2 ports found)");
	cfg.map[1].port = 1;

	cfg.map[0].lcore = 7;
	CHECK(fwd_map_validate(&cfg, 2, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "lcore 7 is not enabled");
	cfg.map[0].lcore = 0;
	CHECK(fwd_map_validate(&cfg, 2, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "lcore 0 is the main lcore");
	cfg.map[0].lcore = 1;

	cfg.n_map = 3; /* drops (1,1,1): port 1 keeps queue 0 only, fine */
	CHECK_EQ(fwd_map_validate(&cfg, 2, err, sizeof(err)), 0);
	cfg.map[1].queue = 1; /* port 1: queue 1 without queue 0 */
	cfg.map[1].port = 1;
	cfg.map[2].port = 0;
	cfg.map[2].queue = 3;
	CHECK(fwd_map_validate(&cfg, 2, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "port 0 RX queue 1 is not mapped");
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_mode_mac),
	FWD_TEST(test_mode_macswap),
	FWD_TEST(test_mode_rxonly),
	FWD_TEST(test_txbuf_batches),
	FWD_TEST(test_txbuf_refused),
	FWD_TEST(test_handle_burst),
	FWD_TEST(test_burst_bytes),
	FWD_TEST(test_handle_burst_bytes),
	FWD_TEST(test_trace_buffer),
	FWD_TEST(test_trace_burst),
	FWD_TEST(test_worker_stop_flush),
	FWD_TEST(test_worker_loop),
	FWD_TEST(test_map_default_and_validate),
};

int
main(void)
{
	unsigned int i;
	int ret;

	if (fwd_test_eal_init("datapath", 128) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	pool = rte_pktmbuf_pool_create(
		"unit_pool", POOL_SIZE, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	for (i = 0; i < 2; i++) {
		char name[16];
		int port;

		snprintf(name, sizeof(name), "tx%u", i);
		tx_ring[i] = rte_ring_create(name, RING_SIZE, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "net_ring_tx%u", i);
		/* the port's RX and TX are the same ring: the test reads what it sent */
		port = rte_eth_from_rings(name, &tx_ring[i], 1, &tx_ring[i], 1, 0);
		if (pool == NULL || tx_ring[i] == NULL || port < 0) {
			printf("Bail out! cannot create pool, rings or ring ports\n");
			return 1;
		}
		ring_port[i] = (uint16_t)port;
		rte_eth_dev_configure(port, 1, 1, &(struct rte_eth_conf){0});
		rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, pool);
		rte_eth_tx_queue_setup(port, 0, 64, 0, NULL);
		rte_eth_dev_start(port);
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	drain_rings();
	rte_eal_cleanup();
	return ret;
}
