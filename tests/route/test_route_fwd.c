/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's fast path with crafted mbufs: the checksum arithmetic, every
 * RFC 1812 input check and its drop counter, forwarding (MACs, TTL, checksum,
 * output port), every exception handed to the slow path, and a corpus of
 * malformed frames held in buffers of their exact size (so that ASan sees a
 * read past the end).
 */

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "fwd_test.h"
#include "rt_burst.h"
#include "rt_worker_setup.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_world.h"

#define POOL_SIZE 2047

static struct rte_mempool *pool;
static struct rt_table *tbl;
static struct rte_ring *punt;
static struct rt_worker wk;

static const struct rte_ether_addr mac_p0 = {{0x02, 0, 0, 0, 0, 0x01}};
static const struct rte_ether_addr mac_p1 = {{0x02, 0, 0, 0, 0, 0x02}};
static const struct rte_ether_addr mac_host = {{0x02, 0, 0, 0, 0x0a, 0x09}};
static const struct rte_ether_addr mac_other = {{0x02, 0, 0, 0, 0x77, 0x77}};
static const struct rte_ether_addr mac_bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};

static unsigned int
in_use(void)
{
	return POOL_SIZE - rte_mempool_avail_count(pool);
}

/* A good frame arriving on port 0 for 198.18.0.1 (routed via 10.0.1.2). */
static struct pkt_spec
spec_fwd(void)
{
	struct pkt_spec s = {0};

	s.dst_mac = mac_p0;
	s.src_mac = mac_host;
	s.src = IP4(10, 0, 0, 9);
	s.dst = IP4(198, 18, 0, 1);
	s.ttl = 64;
	s.payload = 26;
	s.seq = 7;
	return s;
}

static void
drain_punts(void)
{
	rt_test_world_drain(punt);
}

static uint64_t
drops_total(void)
{
	uint64_t s = 0;
	unsigned int r;

	for (r = 0; r < RT_DROP_MAX; r++)
		s += wk.drops[r];
	return s;
}

static uint64_t
punts_total(void)
{
	uint64_t s = 0;
	unsigned int e;

	for (e = 0; e < RT_EXC_MAX; e++)
		s += wk.stats.punts[e];
	return s;
}

/* ---- checksum arithmetic ---- */

static void
test_cksum_incremental_edges(void)
{
	struct rte_ipv4_hdr h, ref;
	unsigned int id, ttl_i, mismatches = 0, naive_wrong = 0, edge_ffff = 0, edge_0000 = 0;
	static const uint8_t ttls[] = {2, 64, 128, 255, 1};

	/* every checksum value is reached by some packet id */
	for (ttl_i = 0; ttl_i < RTE_DIM(ttls); ttl_i++) {
		for (id = 0; id < 65536; id++) {
			uint16_t naive;

			memset(&h, 0, sizeof(h));
			h.version_ihl = RTE_IPV4_VHL_DEF;
			h.total_length = RTE_BE16(84);
			h.packet_id = rte_cpu_to_be_16((uint16_t)id);
			h.time_to_live = ttls[ttl_i];
			h.next_proto_id = IPPROTO_ICMP;
			h.src_addr = RTE_BE32(IP4(10, 0, 0, 9));
			h.dst_addr = RTE_BE32(IP4(198, 18, 0, 1));
			h.hdr_checksum = rte_ipv4_cksum(&h);
			if (h.hdr_checksum == 0xffff)
				edge_ffff++;
			if (h.hdr_checksum == 0x0000)
				edge_0000++;
			naive = (uint16_t)(rte_be_to_cpu_16(h.hdr_checksum) + 0x0100);
			ref = h;
			rt_ipv4_ttl_dec(&h);
			ref.time_to_live--;
			ref.hdr_checksum = 0;
			ref.hdr_checksum = rte_ipv4_cksum(&ref);
			if (h.hdr_checksum != ref.hdr_checksum ||
				h.time_to_live != ref.time_to_live ||
				h.next_proto_id != ref.next_proto_id)
				mismatches++;
			if (rte_cpu_to_be_16(naive) != ref.hdr_checksum)
				naive_wrong++;
			/* and the checker accepts the result */
			if (rt_ipv4_hdr_sum(&h, 5) != 0xffff)
				mismatches++;
		}
	}
	CHECK_EQ(mismatches, 0);
	/* the sweep went through the edges, where a bare add goes wrong */
	CHECK(edge_0000 > 0);
	CHECK(naive_wrong > 0);
	(void)edge_ffff;
}

static void
test_cksum_with_options(void)
{
	uint8_t buf[60];
	struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)buf;
	unsigned int i, ihl;

	for (ihl = 5; ihl <= 15; ihl++) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)rte_rand();
		h->version_ihl = (uint8_t)(0x40 | ihl);
		h->hdr_checksum = 0;
		CHECK_EQ(rt_ipv4_cksum(h), rte_ipv4_cksum(h));
		h->hdr_checksum = rte_ipv4_cksum(h);
		CHECK_EQ(rt_ipv4_hdr_sum(h, ihl), 0xffff);
		CHECK_EQ(rt_ipv4_cksum(h), h->hdr_checksum); /* the field does not count */
		buf[ihl * 4 - 1] ^= 0x40;
		CHECK(rt_ipv4_hdr_sum(h, ihl) != 0xffff);
	}
}

static void
test_address_classes(void)
{
	CHECK(rt_ipv4_martian_src(IP4(0, 1, 2, 3)));
	CHECK(rt_ipv4_martian_src(IP4(127, 0, 0, 1)));
	CHECK(rt_ipv4_martian_src(IP4(224, 0, 0, 1)));
	CHECK(rt_ipv4_martian_src(IP4(239, 255, 255, 255)));
	CHECK(rt_ipv4_martian_src(IP4(240, 0, 0, 1)));
	CHECK(rt_ipv4_martian_src(IP4(255, 255, 255, 255)));
	CHECK(!rt_ipv4_martian_src(IP4(1, 0, 0, 0)));
	CHECK(!rt_ipv4_martian_src(IP4(126, 255, 255, 255)));
	CHECK(!rt_ipv4_martian_src(IP4(128, 0, 0, 0)));
	CHECK(!rt_ipv4_martian_src(IP4(223, 255, 255, 255)));
	CHECK(rt_ipv4_martian_dst(IP4(0, 0, 0, 0)));
	CHECK(rt_ipv4_martian_dst(IP4(127, 1, 2, 3)));
	CHECK(!rt_ipv4_martian_dst(IP4(10, 0, 0, 0)));
	CHECK(rt_ipv4_group_dst(IP4(224, 0, 0, 5)));
	CHECK(rt_ipv4_group_dst(IP4(255, 255, 255, 255)));
	CHECK(!rt_ipv4_group_dst(IP4(223, 255, 255, 255)));
}

/* ---- input checks ---- */

enum mut {
	M_NONE,
	M_SHORT,
	M_VERSION,
	M_IHL4,
	M_IHL_LONG,
	M_TOT_SMALL,
	M_TOT_BIG,
	M_TOT_LT_IHL,
	M_CKSUM,
	M_NIC_BAD,
	M_NIC_GOOD_WRONG,
	M_SRC0,
	M_SRC127,
	M_SRC_MCAST,
	M_SRC_BCAST,
	M_SRC_E,
	M_DST0,
	M_DST127,
	M_DST_MCAST,
	M_DST_BCAST,
};

static const struct {
	enum mut mut;
	unsigned int verdict;
	const char *what;
} check_cases[] = {
	{M_NONE, RT_CHECK_OK, "good"},
	{M_SHORT, 1 + RT_DROP_IP_TRUNCATED, "19-byte IP header"},
	{M_VERSION, 1 + RT_DROP_IP_VERSION, "version 6"},
	{M_IHL4, 1 + RT_DROP_IP_IHL, "ihl 4"},
	{M_IHL_LONG, 1 + RT_DROP_IP_IHL, "ihl 15 in a short frame"},
	{M_TOT_SMALL, 1 + RT_DROP_IP_LEN, "total length 19"},
	{M_TOT_BIG, 1 + RT_DROP_IP_LEN, "total length beyond the frame"},
	{M_TOT_LT_IHL, 1 + RT_DROP_IP_LEN, "total length below ihl*4"},
	{M_CKSUM, 1 + RT_DROP_IP_CKSUM, "bad checksum"},
	{M_NIC_BAD, 1 + RT_DROP_IP_CKSUM, "NIC says bad"},
	{M_NIC_GOOD_WRONG, RT_CHECK_OK, "NIC says good: trusted"},
	{M_SRC0, 1 + RT_DROP_MARTIAN_SRC, "source 0/8"},
	{M_SRC127, 1 + RT_DROP_MARTIAN_SRC, "source 127/8"},
	{M_SRC_MCAST, 1 + RT_DROP_MARTIAN_SRC, "source multicast"},
	{M_SRC_BCAST, 1 + RT_DROP_MARTIAN_SRC, "source 255.255.255.255"},
	{M_SRC_E, 1 + RT_DROP_MARTIAN_SRC, "source 240/4"},
	{M_DST0, 1 + RT_DROP_MARTIAN_DST, "destination 0.0.0.0"},
	{M_DST127, 1 + RT_DROP_MARTIAN_DST, "destination 127.0.0.1"},
	{M_DST_MCAST, 1 + RT_DROP_MCAST_DST, "destination multicast"},
	{M_DST_BCAST, 1 + RT_DROP_MCAST_DST, "destination 255.255.255.255"},
};

static struct rte_mbuf *
mutated(enum mut mut)
{
	struct pkt_spec s = spec_fwd();
	struct rte_mbuf *m;
	struct rte_ipv4_hdr *ip;
	bool fix = true;

	if (mut == M_TOT_LT_IHL)
		s.opt_len = 4;
	m = pkt_make(pool, &s);
	ip = pkt_ip(m);
	switch (mut) {
	case M_SHORT:
		rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_data_len(m) - RT_L2_LEN - 19));
		break;
	case M_VERSION:
		ip->version_ihl = 0x65;
		break;
	case M_IHL4:
		ip->version_ihl = 0x44;
		break;
	case M_IHL_LONG:
		ip->version_ihl = 0x4f; /* 60 bytes: the frame has 46 */
		fix = false;
		break;
	case M_TOT_SMALL:
		ip->total_length = RTE_BE16(19);
		break;
	case M_TOT_BIG:
		ip->total_length =
			rte_cpu_to_be_16((uint16_t)(rte_pktmbuf_data_len(m) - RT_L2_LEN + 1));
		break;
	case M_TOT_LT_IHL:
		ip->total_length = RTE_BE16(22);
		break;
	case M_CKSUM:
		ip->hdr_checksum ^= 1;
		fix = false;
		break;
	case M_NIC_BAD:
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_BAD;
		break;
	case M_NIC_GOOD_WRONG:
		ip->hdr_checksum ^= 0x100;
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
		fix = false;
		break;
	case M_SRC0:
		ip->src_addr = RTE_BE32(IP4(0, 1, 2, 3));
		break;
	case M_SRC127:
		ip->src_addr = RTE_BE32(IP4(127, 0, 0, 1));
		break;
	case M_SRC_MCAST:
		ip->src_addr = RTE_BE32(IP4(224, 0, 0, 1));
		break;
	case M_SRC_BCAST:
		ip->src_addr = RTE_BE32(IP4(255, 255, 255, 255));
		break;
	case M_SRC_E:
		ip->src_addr = RTE_BE32(IP4(240, 0, 0, 1));
		break;
	case M_DST0:
		ip->dst_addr = 0;
		break;
	case M_DST127:
		ip->dst_addr = RTE_BE32(IP4(127, 0, 0, 1));
		break;
	case M_DST_MCAST:
		ip->dst_addr = RTE_BE32(IP4(224, 0, 0, 5));
		break;
	case M_DST_BCAST:
		ip->dst_addr = RTE_BE32(IP4(255, 255, 255, 255));
		break;
	default:
		break;
	}
	if (fix && mut != M_SHORT)
		pkt_fix_cksum(m);
	return m;
}

static void
test_input_checks(void)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(check_cases); i++) {
		struct rte_mbuf *m = mutated(check_cases[i].mut);
		unsigned int v = rt_ipv4_check(m, true);

		if (v != check_cases[i].verdict)
			printf("#   case '%s': verdict %u, expected %u\n", check_cases[i].what, v,
				check_cases[i].verdict);
		CHECK_EQ(v, check_cases[i].verdict);
		rte_pktmbuf_free(m);
	}
}

/*
 * A port without RX checksum offload: its flags are not read. A right header
 * flagged BAD is forwarded, a wrong one flagged GOOD is dropped, through the
 * check and through the burst function (the other copy of its loop).
 */
static void
test_cksum_flags_untrusted(void)
{
	static const struct {
		enum mut mut;
		unsigned int verdict;
	} c[] = {
		{M_NIC_BAD, RT_CHECK_OK},
		{M_NIC_GOOD_WRONG, 1 + RT_DROP_IP_CKSUM},
	};
	unsigned int i;

	CHECK_EQ(rt_iface_trust_rx_cksum(tbl, 0, false), 0);
	for (i = 0; i < RTE_DIM(c); i++) {
		struct rte_mbuf *m = mutated(c[i].mut);
		uint64_t before = wk.drops[RT_DROP_IP_CKSUM];
		uint16_t out[1], n;

		CHECK_EQ(rt_ipv4_check(m, false), c[i].verdict);
		n = rt_route_burst(&wk, 0, &m, 1, out);
		CHECK_EQ(n, c[i].verdict == RT_CHECK_OK ? 1 : 0);
		CHECK_EQ(wk.drops[RT_DROP_IP_CKSUM] - before, c[i].verdict == RT_CHECK_OK ? 0 : 1);
		if (n == 1)
			rte_pktmbuf_free(m);
	}
	CHECK_EQ(rt_iface_trust_rx_cksum(tbl, 0, true), 0);
	/* a port the router does not use has no flags to trust */
	CHECK_EQ(rt_iface_trust_rx_cksum(tbl, 7, true), -EINVAL);
	CHECK_EQ(rt_iface_trust_rx_cksum(tbl, RTE_MAX_ETHPORTS, true), -EINVAL);
}

/* Each failing check through the burst function: freed, counted under its reason only. */
static void
test_burst_drop_reasons(void)
{
	unsigned int i, r;

	for (i = 0; i < RTE_DIM(check_cases); i++) {
		struct rte_mbuf *m = mutated(check_cases[i].mut);
		uint64_t before[RT_DROP_MAX];
		uint16_t out[1], n;
		unsigned int base = in_use() - 1;

		memcpy(before, wk.drops, sizeof(before));
		n = rt_route_burst(&wk, 0, &m, 1, out);
		if (check_cases[i].verdict == RT_CHECK_OK) {
			CHECK_EQ(n, 1);
			rte_pktmbuf_free(m);
			continue;
		}
		CHECK_EQ(n, 0);
		for (r = 0; r < RT_DROP_MAX; r++)
			CHECK_EQ(wk.drops[r] - before[r], r == check_cases[i].verdict - 1 ? 1 : 0);
		CHECK_EQ(in_use(), base);
	}
}

static void
test_padding_trimmed(void)
{
	struct pkt_spec s = spec_fwd();
	struct rte_mbuf *m;
	uint16_t out[1];

	s.pad = 20;
	m = pkt_make(pool, &s);
	CHECK_EQ(rte_pktmbuf_data_len(m), RT_L2_LEN + 20 + 26 + 20);
	CHECK_EQ(rt_route_burst(&wk, 0, &m, 1, out), 1);
	CHECK_EQ(rte_pktmbuf_data_len(m), RT_L2_LEN + 20 + 26);
	CHECK_EQ(rte_pktmbuf_pkt_len(m), RT_L2_LEN + 20 + 26);
	rte_pktmbuf_free(m);
}

/* Padding longer than the last segment, or ending in a middle one: cut across the chain. */
static void
test_padding_chain(void)
{
	static const struct {
		uint16_t payload, pad, seg, segs_after;
	} c[] = {
		{26, 1800, 200, 1},  /* the datagram in the first segment, 9 more of padding */
		{26, 1800, 50, 2},   /* ends 10 bytes into the 2nd of 38 */
		{500, 1000, 256, 3}, /* ends in the 3rd of 6 */
		{500, 6, 534, 1},    /* ends exactly where the first segment does */
		{500, 2, 256, 3},    /* padding in the last segment only */
	};
	unsigned int i, before = in_use();

	for (i = 0; i < RTE_DIM(c); i++) {
		struct pkt_spec s = spec_fwd();
		uint32_t want = RT_L2_LEN + 20 + c[i].payload;
		struct rte_mbuf *m;
		uint16_t out[1];
		uint8_t buf[600];

		s.payload = c[i].payload;
		s.pad = c[i].pad;
		m = pkt_chain(pool, pkt_make(pool, &s), c[i].seg);
		CHECK(m != NULL && m->nb_segs > 1);
		if (m == NULL)
			continue;
		if (rt_route_burst(&wk, 0, &m, 1, out) != 1) {
			CHECK(!"padded chain forwarded"); /* dropped: m is gone */
			continue;
		}
		CHECK_EQ(rte_pktmbuf_pkt_len(m), want);
		CHECK_EQ(m->nb_segs, c[i].segs_after);
		/* the segments add up and the datagram's last bytes are there */
		CHECK_EQ(rte_pktmbuf_pkt_len(m), rte_pktmbuf_data_len(rte_pktmbuf_lastseg(m)) +
							 (m->nb_segs - 1u) * c[i].seg);
		CHECK_EQ(*(const uint8_t *)rte_pktmbuf_read(m, want - 1, 1, buf),
			(uint8_t)(s.seq + c[i].payload - 1));
		rte_pktmbuf_free(m);
	}
	CHECK_EQ(in_use(), before);
}

static void
test_burst_l2_reasons(void)
{
	struct pkt_spec s = spec_fwd();
	struct rte_mbuf *m[6];
	uint64_t before[RT_DROP_MAX];
	uint16_t out[6];
	unsigned int base = in_use();

	memcpy(before, wk.drops, sizeof(before));
	m[0] = pkt_make(pool, &s);
	pkt_eth(m[0])->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV6);
	s.dst_mac = mac_other;
	m[1] = pkt_make(pool, &s); /* for another host */
	s.dst_mac = mac_bcast;
	m[2] = pkt_make(pool, &s); /* broadcast frame to be routed */
	s.dst_mac = mac_p0;
	s.dst = IP4(192, 0, 2, 33);
	m[3] = pkt_make(pool, &s); /* blackhole */
	m[4] = rte_pktmbuf_alloc(pool);
	rte_pktmbuf_append(m[4], 10); /* runt */
	memcpy(rte_pktmbuf_mtod(m[4], void *), &mac_p0, 6);
	s.dst = IP4(198, 18, 0, 1);
	m[5] = pkt_make(pool, &s); /* and one good one */

	CHECK_EQ(rt_route_burst(&wk, 0, m, 6, out), 1);
	CHECK_EQ(out[0], 1);
	CHECK_EQ(rte_be_to_cpu_32(pkt_ip(m[0])->dst_addr), IP4(198, 18, 0, 1));
	rte_pktmbuf_free(m[0]);
	CHECK_EQ(wk.drops[RT_DROP_NOT_IPV4] - before[RT_DROP_NOT_IPV4], 1);
	CHECK_EQ(wk.drops[RT_DROP_OTHER_HOST] - before[RT_DROP_OTHER_HOST], 1);
	CHECK_EQ(wk.drops[RT_DROP_L2_BCAST] - before[RT_DROP_L2_BCAST], 1);
	CHECK_EQ(wk.drops[RT_DROP_BLACKHOLE] - before[RT_DROP_BLACKHOLE], 1);
	CHECK_EQ(wk.drops[RT_DROP_IP_TRUNCATED] - before[RT_DROP_IP_TRUNCATED], 1);
	CHECK_EQ(in_use(), base);
}

/*
 * Link-layer multicast is not "for another host": a group-addressed frame is
 * for the router's own address or for nobody, and counted by what it carries
 * (an OSPF hello to 224.0.0.5 is mcast_dst without a twin to take it; a
 * unicast datagram in a multicast frame is l2_bcast, never routed).
 */
static void
test_burst_l2_multicast(void)
{
	static const struct rte_ether_addr mac_ospf = {{0x01, 0x00, 0x5e, 0x00, 0x00, 0x05}};
	struct pkt_spec s = spec_fwd();
	uint64_t before[RT_DROP_MAX], punts_before = wk.stats.punts[RT_EXC_LOCAL];
	struct rte_mbuf *m[3];
	uint16_t out[3];
	unsigned int base = in_use();

	memcpy(before, wk.drops, sizeof(before));
	s.dst_mac = mac_ospf;
	s.dst = IP4(224, 0, 0, 5);
	m[0] = pkt_make(pool, &s); /* an OSPF hello, port 0 has no twin */
	s.dst = IP4(198, 18, 0, 1);
	m[1] = pkt_make(pool, &s); /* a routable datagram in a multicast frame */
	s.dst = IP4(10, 0, 0, 1);
	m[2] = pkt_make(pool, &s); /* to the router's own address */
	CHECK_EQ(rt_route_burst(&wk, 0, m, 3, out), 0);
	CHECK_EQ(wk.drops[RT_DROP_MCAST_DST] - before[RT_DROP_MCAST_DST], 1);
	CHECK_EQ(wk.drops[RT_DROP_L2_BCAST] - before[RT_DROP_L2_BCAST], 1);
	CHECK_EQ(wk.drops[RT_DROP_OTHER_HOST] - before[RT_DROP_OTHER_HOST], 0);
	CHECK_EQ(wk.stats.punts[RT_EXC_LOCAL] - punts_before, 1);
	drain_punts();
	CHECK_EQ(in_use(), base);
}

/* ---- forwarding ---- */

static void
check_forwarded(struct rte_mbuf *m, uint8_t ttl_in, uint8_t seq, uint16_t payload)
{
	struct rte_ipv4_hdr *ip = pkt_ip(m);
	struct rte_ether_hdr *eth = pkt_eth(m);
	const uint8_t *p = (const uint8_t *)ip + rte_ipv4_hdr_len(ip);
	uint16_t i;

	CHECK(rte_is_same_ether_addr(&eth->dst_addr, &rt_test_world_mac_gw));
	CHECK(rte_is_same_ether_addr(&eth->src_addr, &mac_p1));
	CHECK(eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4));
	CHECK_EQ(ip->time_to_live, ttl_in - 1);
	CHECK_EQ(rt_ipv4_hdr_sum(ip, ip->version_ihl & 0xf), 0xffff);
	for (i = 0; i < payload; i++)
		if (p[i] != (uint8_t)(seq + i))
			break;
	CHECK_EQ(i, payload);
}

static void
test_burst_forward(void)
{
	struct rte_mbuf *m[100];
	uint16_t out[100], i, n;
	uint64_t fwd = wk.stats.fwd;
	static const uint8_t opts[8] = {0x01, 0x01, 0x07, 0x05, 0x04, 0, 0, 0};

	for (i = 0; i < 100; i++) {
		struct pkt_spec s = spec_fwd();

		s.seq = (uint8_t)i;
		s.ttl = (uint8_t)(2 + i);
		s.dst = IP4(198, 18, i, 1);
		if (i % 10 == 3) {
			s.opt_len = 8; /* options pass through untouched */
			s.opts = opts;
		}
		m[i] = pkt_make(pool, &s);
	}
	n = rt_route_burst(&wk, 0, m, 100, out);
	CHECK_EQ(n, 100);
	CHECK_EQ(wk.stats.fwd - fwd, 100);
	for (i = 0; i < n; i++) {
		CHECK_EQ(out[i], 1);
		/* in order */
		CHECK_EQ(rte_be_to_cpu_32(pkt_ip(m[i])->dst_addr), IP4(198, 18, i, 1));
		check_forwarded(m[i], (uint8_t)(2 + i), (uint8_t)i, 26);
		if (i % 10 == 3)
			CHECK(memcmp(pkt_ip(m[i]) + 1, opts, 8) == 0);
	}
	rte_pktmbuf_free_bulk(m, n);
}

/* ---- exceptions ---- */

static void
test_burst_exceptions(void)
{
	static const struct {
		uint32_t dst;
		uint8_t ttl;
		uint16_t payload;
		enum rt_exception exc;
	} cases[] = {
		{IP4(198, 18, 0, 1), 1, 26, RT_EXC_TTL},
		{IP4(198, 18, 0, 1), 0, 26, RT_EXC_TTL},
		{IP4(8, 8, 8, 8), 64, 26, RT_EXC_NO_ROUTE},
		{IP4(198, 51, 100, 7), 64, 26, RT_EXC_REJECT},
		{IP4(10, 0, 0, 1), 64, 26, RT_EXC_LOCAL},
		{IP4(10, 0, 1, 1), 1, 26, RT_EXC_LOCAL},    /* TTL 1 is fine for us */
		{IP4(10, 0, 0, 255), 64, 26, RT_EXC_LOCAL}, /* subnet broadcast */
		{IP4(203, 0, 113, 5), 64, 26, RT_EXC_UNRESOLVED},
		{IP4(10, 0, 1, 77), 64, 26, RT_EXC_UNRESOLVED}, /* connected */
		{IP4(10, 0, 1, 77), 1, 26, RT_EXC_TTL},
		{IP4(198, 18, 0, 1), 64, 1400, RT_EXC_MTU},
	};
	struct rte_mbuf *m[RTE_DIM(cases) + 1], *orig[RTE_DIM(cases) + 1], *got;
	uint64_t before[RT_EXC_MAX];
	uint16_t out[RTE_DIM(cases) + 1], i;
	char err[RT_ERR_LEN];

	drain_punts();
	memcpy(before, wk.stats.punts, sizeof(before));
	/* an ARP frame first: pass 1 hands it over before the routed ones */
	m[0] = rte_pktmbuf_alloc(pool);
	rte_pktmbuf_append(m[0], 60);
	memcpy(rte_pktmbuf_mtod(m[0], void *), &mac_bcast, 6);
	pkt_eth(m[0])->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	for (i = 0; i < RTE_DIM(cases); i++) {
		struct pkt_spec s = spec_fwd();

		s.dst = cases[i].dst;
		s.ttl = cases[i].ttl;
		s.payload = cases[i].payload;
		s.seq = (uint8_t)i;
		m[i + 1] = pkt_make(pool, &s);
		if (cases[i].ttl == 0) {
			pkt_ip(m[i + 1])->time_to_live = 0;
			pkt_fix_cksum(m[i + 1]);
		}
	}

	memcpy(orig, m, sizeof(m)); /* the burst function reuses the array */
	CHECK_EQ(rt_iface_set_mtu(tbl, 1, 1000, err, sizeof(err)), 0);
	CHECK_EQ(rt_route_burst(&wk, 0, m, RTE_DIM(cases) + 1, out), 0);
	CHECK_EQ(rt_iface_set_mtu(tbl, 1, 1500, err, sizeof(err)), 0);
	CHECK_EQ(rte_ring_count(punt), RTE_DIM(cases) + 1);
	for (i = 0; i <= RTE_DIM(cases); i++) {
		enum rt_exception want = i == 0 ? RT_EXC_ARP : cases[i - 1].exc;

		if (rte_ring_dequeue(punt, (void **)&got) != 0)
			break;
		CHECK(got == orig[i]); /* in order */
		CHECK_EQ(RT_PUNT_EXC(got), want);
		CHECK_EQ(got->port, 0);
		if (want != RT_EXC_ARP) {
			/* untouched: the slow path quotes it as received */
			CHECK_EQ(pkt_ip(got)->time_to_live, cases[i - 1].ttl);
			CHECK_EQ(rt_ipv4_hdr_sum(pkt_ip(got), 5), 0xffff);
			CHECK(rte_is_same_ether_addr(&pkt_eth(got)->dst_addr, &mac_p0));
		}
		rte_pktmbuf_free(got);
	}
	CHECK_EQ(wk.stats.punts[RT_EXC_TTL] - before[RT_EXC_TTL], 3);
	CHECK_EQ(wk.stats.punts[RT_EXC_LOCAL] - before[RT_EXC_LOCAL], 3);
	CHECK_EQ(wk.stats.punts[RT_EXC_UNRESOLVED] - before[RT_EXC_UNRESOLVED], 2);
	CHECK_EQ(wk.stats.punts[RT_EXC_MTU] - before[RT_EXC_MTU], 1);
	CHECK_EQ(wk.stats.punts[RT_EXC_ARP] - before[RT_EXC_ARP], 1);
}

/*
 * A full ring to the slow path drops as punt_full, and the ring's ARP share
 * (RT_PUNT_ARP_SHARE) is left to ARP: an ARP frame still gets in.
 */
static void
test_punt_ring_full(void)
{
	struct rte_mbuf *m[80];
	uint16_t out[80], i;
	uint64_t full = wk.drops[RT_DROP_PUNT_FULL], arp = wk.stats.punts[RT_EXC_ARP];
	unsigned int cap, base;

	drain_punts();
	cap = rte_ring_free_count(punt);
	base = in_use();
	CHECK_EQ(wk.punt_arp_reserve, cap / RT_PUNT_ARP_SHARE);
	for (i = 0; i < 80; i++) {
		struct pkt_spec s = spec_fwd();

		s.ttl = 1;
		m[i] = pkt_make(pool, &s);
	}
	CHECK_EQ(rt_route_burst(&wk, 0, m, 80, out), 0);
	CHECK_EQ(rte_ring_count(punt), cap - wk.punt_arp_reserve);
	CHECK_EQ(wk.drops[RT_DROP_PUNT_FULL] - full, 80 - (cap - wk.punt_arp_reserve));
	m[0] = rte_pktmbuf_alloc(pool);
	rte_pktmbuf_append(m[0], 60);
	memcpy(rte_pktmbuf_mtod(m[0], void *), &mac_bcast, 6);
	pkt_eth(m[0])->ether_type = RTE_BE16(RTE_ETHER_TYPE_ARP);
	CHECK_EQ(rt_route_burst(&wk, 0, m, 1, out), 0);
	CHECK_EQ(wk.stats.punts[RT_EXC_ARP] - arp, 1);
	CHECK_EQ(rte_ring_count(punt), cap - wk.punt_arp_reserve + 1);
	drain_punts();
	CHECK_EQ(in_use(), base);
}

/*
 * A datagram exactly the output MTU long is forwarded by the worker, one
 * byte more is punted as too big: the test is "longer than the MTU" (RFC
 * 791), and a ">=" would send every full-size frame through the slow path,
 * which forwards it unfragmented, so only the punt counters tell (issue 44).
 */
static void
test_mtu_exact(void)
{
	static const uint16_t mtus[] = {1000, 1500, 68};
	uint64_t mtu0 = wk.stats.punts[RT_EXC_MTU], f0 = wk.stats.fwd;
	char err[RT_ERR_LEN];
	unsigned int k;

	drain_punts();
	for (k = 0; k < RTE_DIM(mtus); k++) {
		struct pkt_spec s = spec_fwd();
		struct rte_mbuf *m[2];
		uint16_t out[2], n;

		CHECK_EQ(rt_iface_set_mtu(tbl, 1, mtus[k], err, sizeof(err)), 0);
		s.payload = (uint16_t)(mtus[k] - 20);
		s.seq = (uint8_t)k;
		m[0] = pkt_make(pool, &s);
		s.payload++;
		m[1] = pkt_make(pool, &s);
		n = rt_route_burst(&wk, 0, m, 2, out);
		CHECK_EQ(n, 1);
		if (n == 1) {
			CHECK_EQ(rte_be_to_cpu_16(pkt_ip(m[0])->total_length), mtus[k]);
			CHECK_EQ(out[0], 1);
			check_forwarded(m[0], 64, (uint8_t)k, (uint16_t)(mtus[k] - 20));
		}
		rte_pktmbuf_free_bulk(m, n);
		CHECK_EQ(wk.stats.punts[RT_EXC_MTU] - mtu0, k + 1);
		CHECK_EQ(rte_ring_count(punt), 1);
		drain_punts();
	}
	CHECK_EQ(wk.stats.fwd - f0, RTE_DIM(mtus));
	CHECK_EQ(rt_iface_set_mtu(tbl, 1, 1500, err, sizeof(err)), 0);
}

/* Every frame is forwarded, punted or dropped: exactly one of them. */
static void
test_burst_accounting(void)
{
	struct rte_mbuf *m[64];
	uint16_t out[64], i, n;
	uint64_t d0 = drops_total(), p0 = punts_total(), f0 = wk.stats.fwd;

	drain_punts();
	for (i = 0; i < 64; i++)
		m[i] = mutated((enum mut)(rte_rand() % (M_DST_BCAST + 1)));
	n = rt_route_burst(&wk, 0, m, 64, out);
	CHECK_EQ((drops_total() - d0) + (punts_total() - p0) + (wk.stats.fwd - f0), 64);
	CHECK_EQ(wk.stats.fwd - f0, n);
	rte_pktmbuf_free_bulk(m, n);
	drain_punts();
}

/* ---- corpus: exact-size buffers ---- */

static void
ext_free(void *addr, void *opaque)
{
	free(opaque);
}

/* An mbuf whose data is exactly @p len bytes of malloc'd memory. */
static struct rte_mbuf *
ext_frame(const void *bytes, uint16_t len)
{
	struct rte_mbuf_ext_shared_info *sh;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *buf = malloc(len + sizeof(*sh) + 8);

	/* the shared info sits in front, so the frame ends the allocation */
	sh = (struct rte_mbuf_ext_shared_info *)buf;
	sh->free_cb = ext_free;
	sh->fcb_opaque = buf;
	rte_mbuf_ext_refcnt_set(sh, 1);
	memcpy(buf + sizeof(*sh) + 8, bytes, len);
	rte_pktmbuf_attach_extbuf(m, buf + sizeof(*sh) + 8, 0, len, sh);
	rte_pktmbuf_reset_headroom(m);
	m->data_off = 0;
	m->data_len = len;
	m->pkt_len = len;
	return m;
}

static void
corpus_one(const uint8_t *bytes, uint16_t len, int want)
{
	struct rte_mbuf *m = ext_frame(bytes, len);
	uint64_t before[RT_DROP_MAX];
	uint64_t p0 = punts_total(), f0 = wk.stats.fwd;
	uint16_t out[1], n;
	unsigned int r;

	memcpy(before, wk.drops, sizeof(before));
	n = rt_route_burst(&wk, 0, &m, 1, out);
	if (want >= 0) {
		CHECK_EQ(n, 0);
		for (r = 0; r < RT_DROP_MAX; r++)
			if (wk.drops[r] - before[r] != (r == (unsigned int)want ? 1u : 0u)) {
				printf("#   len %u: reason %s counted %llu times\n", len,
					rt_drop_name(r),
					(unsigned long long)(wk.drops[r] - before[r]));
				fwd_test_case_failed = 1;
			}
	} else {
		uint64_t d = 0;

		for (r = 0; r < RT_DROP_MAX; r++)
			d += wk.drops[r] - before[r];
		CHECK_EQ(d + (punts_total() - p0) + (wk.stats.fwd - f0), 1);
	}
	if (n == 1)
		rte_pktmbuf_free(m);
	drain_punts();
}

static void
test_malformed_corpus(void)
{
	struct pkt_spec s = spec_fwd();
	struct rte_mbuf *good = pkt_make(pool, &s);
	uint8_t frame[128], f[128];
	uint16_t len = rte_pktmbuf_data_len(good), cut;
	unsigned int base;

	memcpy(frame, rte_pktmbuf_mtod(good, void *), len);
	rte_pktmbuf_free(good);
	base = in_use();

	/* every truncation of a good frame */
	for (cut = 0; cut < len; cut++) {
		int want = cut < RT_MIN_FRAME ? RT_DROP_IP_TRUNCATED : RT_DROP_IP_LEN;

		corpus_one(frame, cut, want);
	}
#define MUTATE(stmt, reason)                  \
	do {                                  \
		memcpy(f, frame, len);        \
		stmt;                         \
		corpus_one(f, len, (reason)); \
	} while (0)
	MUTATE(f[14] = 0x46, RT_DROP_IP_CKSUM); /* fits, but the sum now covers 24 bytes */
	MUTATE(f[14] = 0x4f, RT_DROP_IP_IHL);   /* 60 bytes: past the frame */
	MUTATE(f[14] = 0x40, RT_DROP_IP_IHL);
	MUTATE(f[14] = 0x00, RT_DROP_IP_VERSION);
	MUTATE(f[14] = 0xf5, RT_DROP_IP_VERSION);
	MUTATE((f[16] = 0, f[17] = 0), RT_DROP_IP_LEN);
	MUTATE((f[16] = 0xff, f[17] = 0xff), RT_DROP_IP_LEN);
	MUTATE(f[24] ^= 0xff, RT_DROP_IP_CKSUM);
	MUTATE(f[12] = 0x86, RT_DROP_NOT_IPV4);                 /* 0x86xx */
	MUTATE((f[12] = 0x81, f[13] = 0x00), RT_DROP_NOT_IPV4); /* VLAN */
	MUTATE(f[0] = 0x04, RT_DROP_OTHER_HOST);
	/* martians need a right checksum to get that far: adjust it */
	{
		static const uint32_t srcs[] = {IP4(0, 0, 0, 0), IP4(127, 0, 0, 1),
			IP4(224, 1, 1, 1), IP4(255, 255, 255, 255)};
		unsigned int i;

		for (i = 0; i < RTE_DIM(srcs); i++) {
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(f + 14);

			memcpy(f, frame, len);
			ip->src_addr = rte_cpu_to_be_32(srcs[i]);
			ip->hdr_checksum = 0;
			ip->hdr_checksum = rte_ipv4_cksum(ip);
			corpus_one(f, len, RT_DROP_MARTIAN_SRC);
		}
	}
	CHECK_EQ(in_use(), base);
	/* random damage: counted exactly once, whatever happens */
	for (cut = 0; cut < 2000; cut++) {
		uint16_t l = (uint16_t)(rte_rand() % (len + 1));
		unsigned int k;

		memcpy(f, frame, len);
		for (k = 0; k < 3; k++)
			f[rte_rand() % len] = (uint8_t)rte_rand();
		corpus_one(f, l, -1);
	}
	CHECK_EQ(in_use(), base);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_cksum_incremental_edges),
	FWD_TEST(test_cksum_with_options),
	FWD_TEST(test_address_classes),
	FWD_TEST(test_input_checks),
	FWD_TEST(test_burst_drop_reasons),
	FWD_TEST(test_cksum_flags_untrusted),
	FWD_TEST(test_padding_trimmed),
	FWD_TEST(test_padding_chain),
	FWD_TEST(test_burst_l2_reasons),
	FWD_TEST(test_burst_l2_multicast),
	FWD_TEST(test_burst_forward),
	FWD_TEST(test_burst_exceptions),
	FWD_TEST(test_punt_ring_full),
	FWD_TEST(test_mtu_exact),
	FWD_TEST(test_burst_accounting),
	FWD_TEST(test_malformed_corpus),
};

int
main(void)
{
	struct rt_test_world w;
	int ret;

	/* port 0 trusts the NIC's checksum flags: the cases with NIC flags expect it */
	if (rt_test_world_create(&w, "route-fwd", 128, POOL_SIZE, 64, true, &wk) != 0)
		return 1;
	pool = w.pool;
	tbl = w.tbl;
	punt = w.punt;
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rt_test_world_free(&w);
	return ret;
}
