/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's slow path, end to end through a worker and the control
 * context, with net_ring ports whose TX rings the test reads: ICMP errors
 * (parsed back: type, code, checksums, quoted header), their suppression and
 * rate limit, echo replies, ARP answers, resolution with held packets
 * released in order, the hold bound, giving up on silent neighbours, and
 * fragmentation.
 */

#include <string.h>

#include <rte_arp.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_icmp.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "fwd_test.h"
#include "rt_control.h"
#include "rt_burst.h"
#include "rt_worker_setup.h"
#include "rt_icmp.h"
#include "rt_control_priv.h" /* the neighbours (rt_neigh.c), the context's inside */
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"

#define POOL_SIZE 4095

static struct rte_mempool *pool;
static struct rte_ring *txr[2];
static uint16_t port[2];
static struct rt_table *tbl;
static struct rt_control *ctl;
static struct rt_worker wk;
static uint64_t now;
static uint64_t hz;

static struct rte_ether_addr mac_p[2];
static const struct rte_ether_addr mac_host = {{0x02, 0, 0, 0, 0x0a, 0x09}};
static const struct rte_ether_addr mac_gw = {{0x02, 0, 0, 0, 0x01, 0x02}};
static const struct rte_ether_addr mac_gw3 = {{0x02, 0, 0, 0, 0x01, 0x03}};

static const struct rt_control_stats *
st(void)
{
	return rt_control_stats(ctl);
}

/* Through the worker (received on port @p in), then one control poll. */
static void
inject(struct rte_mbuf **m, uint16_t n, uint16_t in)
{
	uint16_t out[64], k, i;

	k = rt_route_burst(&wk, port[in], m, n, out);
	for (i = 0; i < k; i++) /* the fast path's share goes out as the worker would */
		rte_ring_enqueue(txr[out[i] == port[0] ? 0 : 1], m[i]);
	rt_control_poll(ctl, now, 0);
}

static struct rte_mbuf *
take(unsigned int p)
{
	struct rte_mbuf *m = NULL;

	if (rte_ring_dequeue(txr[p], (void **)&m) != 0)
		return NULL;
	return m;
}

static void
drain(void)
{
	struct rte_mbuf *m;
	unsigned int p;

	for (p = 0; p < 2; p++)
		while ((m = take(p)) != NULL)
			rte_pktmbuf_free(m);
}

static struct pkt_spec
spec(uint32_t dst, uint8_t ttl)
{
	struct pkt_spec s = {0};

	s.dst_mac = mac_p[0];
	s.src_mac = mac_host;
	s.src = IP4(10, 0, 0, 9);
	s.dst = dst;
	s.ttl = ttl;
	s.payload = 40;
	s.seq = 3;
	return s;
}

/* Check @p r is an ICMP error of @p type/@p code about the frame @p orig. */
static void
check_icmp_error(struct rte_mbuf *r, const uint8_t *orig, uint16_t orig_ip_len, uint8_t type,
	uint8_t code, uint16_t mtu)
{
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	struct rte_icmp_hdr *icmp;
	uint16_t quote;

	CHECK(r != NULL);
	if (r == NULL)
		return;
	eth = pkt_eth(r);
	ip = pkt_ip(r);
	icmp = (struct rte_icmp_hdr *)(ip + 1);
	quote = RTE_MIN(orig_ip_len, 548);
	CHECK(rte_is_same_ether_addr(&eth->dst_addr, &mac_host));
	CHECK(rte_is_same_ether_addr(&eth->src_addr, &mac_p[0]));
	CHECK_EQ(ip->version_ihl, 0x45);
	CHECK_EQ(ip->next_proto_id, IPPROTO_ICMP);
	CHECK_EQ(rte_be_to_cpu_32(ip->src_addr), IP4(10, 0, 0, 1));
	CHECK_EQ(rte_be_to_cpu_32(ip->dst_addr), IP4(10, 0, 0, 9));
	CHECK_EQ(rte_be_to_cpu_16(ip->total_length), 28 + quote);
	CHECK_EQ(rte_pktmbuf_pkt_len(r), 14 + 28 + quote);
	CHECK_EQ(rt_ipv4_hdr_sum(ip, 5), 0xffff);
	CHECK_EQ(icmp->icmp_type, type);
	CHECK_EQ(icmp->icmp_code, code);
	CHECK_EQ(rte_raw_cksum(icmp, 8 + quote), 0xffff);
	CHECK_EQ(icmp->icmp_ident, 0);
	CHECK_EQ(rte_be_to_cpu_16(icmp->icmp_seq_nb), mtu);
	/* the offending datagram as received: header and at least 8 bytes */
	CHECK(memcmp(icmp + 1, orig + 14, quote) == 0);
}

static void
error_case(uint32_t dst, uint8_t ttl, uint16_t payload, bool df, uint8_t type, uint8_t code,
	uint16_t mtu, enum rt_drop_reason reason)
{
	struct pkt_spec s = spec(dst, ttl);
	struct rte_mbuf *m;
	uint8_t copy[1600];
	uint64_t before = st()->drops[reason], sent = st()->c[RT_CTL_ICMP_ERRORS];
	uint16_t len;

	s.payload = payload;
	s.frag = df ? RTE_IPV4_HDR_DF_FLAG : 0;
	m = pkt_make(pool, &s);
	len = rte_pktmbuf_data_len(m);
	memcpy(copy, rte_pktmbuf_mtod(m, void *), len);
	inject(&m, 1, 0);
	CHECK_EQ(st()->drops[reason] - before, 1);
	CHECK_EQ(st()->c[RT_CTL_ICMP_ERRORS] - sent, 1);
	m = take(0);
	check_icmp_error(m, copy, (uint16_t)(len - 14), type, code, mtu);
	rte_pktmbuf_free(m);
	CHECK(take(0) == NULL && take(1) == NULL);
}

static void
test_icmp_errors(void)
{
	char err[RT_ERR_LEN];

	drain();
	error_case(IP4(198, 18, 0, 1), 1, 40, false, 11, 0, 0, RT_DROP_TTL_EXCEEDED);
	error_case(IP4(8, 8, 8, 8), 64, 40, false, 3, 0, 0, RT_DROP_NO_ROUTE);
	error_case(IP4(198, 51, 100, 1), 64, 40, false, 3, 1, 0, RT_DROP_REJECT);
	/* big ones: the quote stops at 576 bytes of ICMP datagram */
	error_case(IP4(8, 8, 8, 8), 64, 1000, false, 3, 0, 0, RT_DROP_NO_ROUTE);
	CHECK_EQ(rt_iface_set_mtu(tbl, port[1], 1000, err, sizeof(err)), 0);
	error_case(IP4(198, 18, 0, 1), 64, 1200, true, 3, 4, 1000, RT_DROP_FRAG_NEEDED);
	CHECK_EQ(rt_iface_set_mtu(tbl, port[1], 1500, err, sizeof(err)), 0);
}

/* --mbuf-size: the quote stops at what one mbuf holds, never below the IP header and 8 bytes. */
static void
test_icmp_error_small_mbufs(void)
{
	struct rte_mempool *small = rte_pktmbuf_pool_create(
		"icmp_small", 63, 0, 0, RTE_PKTMBUF_HEADROOM + 128, SOCKET_ID_ANY);
	struct rte_mempool *tiny = rte_pktmbuf_pool_create(
		"icmp_tiny", 63, 0, 0, RTE_PKTMBUF_HEADROOM + 64, SOCKET_ID_ANY);
	struct pkt_spec s = spec(IP4(8, 8, 8, 8), 64);
	struct rte_ipv4_hdr *ip;
	struct rte_icmp_hdr *icmp;
	struct rte_mbuf *m, *r;

	CHECK(small != NULL && tiny != NULL);
	if (small == NULL || tiny == NULL)
		return;
	s.payload = 1000;
	m = pkt_make(pool, &s);
	r = rt_icmp_error_build(small, m, 3, 0, 0, IP4(10, 0, 0, 1), &mac_p[0], 7);
	CHECK(r != NULL);
	if (r != NULL) {
		ip = pkt_ip(r);
		icmp = (struct rte_icmp_hdr *)(ip + 1);
		/* 128 bytes: Ethernet 14, IP 20, ICMP 8, then 86 of the datagram */
		CHECK_EQ(rte_pktmbuf_pkt_len(r), 128);
		CHECK_EQ(r->nb_segs, 1);
		CHECK_EQ(rte_be_to_cpu_16(ip->total_length), 28 + 86);
		CHECK_EQ(rt_ipv4_hdr_sum(ip, 5), 0xffff);
		CHECK_EQ(rte_raw_cksum(icmp, 8 + 86), 0xffff);
		CHECK(memcmp(icmp + 1, rte_pktmbuf_mtod_offset(m, void *, 14), 86) == 0);
		rte_pktmbuf_free(r);
	}
	/* 64 bytes of frame cannot hold the IP header and 8 bytes after the headers */
	CHECK(rt_icmp_error_build(tiny, m, 3, 0, 0, IP4(10, 0, 0, 1), &mac_p[0], 8) == NULL);
	CHECK_EQ(rte_mempool_avail_count(tiny), 63);
	CHECK_EQ(rte_mempool_avail_count(small), 63);
	rte_pktmbuf_free(m);
	rte_mempool_free(small);
	rte_mempool_free(tiny);
}

static void
test_icmp_never_about(void)
{
	struct pkt_spec s;
	struct rte_mbuf *m;
	uint64_t supp = st()->c[RT_CTL_ICMP_SUPPRESSED], sent = st()->c[RT_CTL_ICMP_ERRORS];
	uint8_t *icmp;

	drain();
	/* about an ICMP error (dest unreachable) with TTL 1 */
	s = spec(IP4(198, 18, 0, 1), 1);
	s.proto = IPPROTO_ICMP;
	m = pkt_make(pool, &s);
	icmp = (uint8_t *)(pkt_ip(m) + 1);
	icmp[0] = 3;
	inject(&m, 1, 0);
	/* a non-first fragment */
	s = spec(IP4(198, 18, 0, 1), 1);
	s.frag = 100;
	m = pkt_make(pool, &s);
	inject(&m, 1, 0);
	CHECK_EQ(st()->c[RT_CTL_ICMP_SUPPRESSED] - supp, 2);
	CHECK_EQ(st()->c[RT_CTL_ICMP_ERRORS] - sent, 0);
	CHECK(take(0) == NULL);
	/* an echo request is a query: errors about it are fine */
	s = spec(IP4(198, 18, 0, 1), 1);
	s.proto = IPPROTO_ICMP;
	m = pkt_make(pool, &s);
	icmp = (uint8_t *)(pkt_ip(m) + 1);
	icmp[0] = 8;
	inject(&m, 1, 0);
	CHECK_EQ(st()->c[RT_CTL_ICMP_ERRORS] - sent, 1);
	drain();
	/* the decision function on what the worker never hands over */
	s = spec(IP4(198, 18, 0, 1), 1);
	s.dst_mac = (struct rte_ether_addr){{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	m = pkt_make(pool, &s);
	CHECK(!rt_icmp_error_allowed(m));
	pkt_eth(m)->dst_addr = mac_p[0];
	CHECK(rt_icmp_error_allowed(m));
	pkt_ip(m)->dst_addr = RTE_BE32(IP4(224, 0, 0, 9));
	CHECK(!rt_icmp_error_allowed(m));
	pkt_ip(m)->dst_addr = RTE_BE32(IP4(198, 18, 0, 1));
	pkt_ip(m)->src_addr = RTE_BE32(IP4(0, 0, 0, 0));
	CHECK(!rt_icmp_error_allowed(m));
	rte_pktmbuf_free(m);
}

static void
test_icmp_rate_limit(void)
{
	struct rt_tb tb;
	unsigned int i, ok = 0;
	uint64_t sent = st()->c[RT_CTL_ICMP_ERRORS], lim = st()->c[RT_CTL_ICMP_RATELIMITED];
	struct rte_mbuf *m[40];

	rt_tb_init(&tb, 1000, 10, 5, 0); /* 10/s, bursts of 5, a 1 kHz clock */
	for (i = 0; i < 20; i++)
		ok += rt_tb_take(&tb, 7);
	CHECK_EQ(ok, 5);
	CHECK(!rt_tb_take(&tb, 99)); /* 92 ticks: not yet a token */
	CHECK(rt_tb_take(&tb, 107)); /* 100 ticks = one token */
	CHECK(!rt_tb_take(&tb, 107));
	for (i = 0, ok = 0; i < 20; i++)
		ok += rt_tb_take(&tb, 1000000); /* a long pause refills only the depth */
	CHECK_EQ(ok, 5);

	/* through the control context: its bucket is 50 deep at 100/s */
	drain();
	now += 10 * hz; /* full bucket */
	for (i = 0; i < 40; i++) {
		struct pkt_spec s = spec(IP4(8, 8, 8, 8), 64);

		m[i] = pkt_make(pool, &s);
	}
	inject(m, 40, 0);
	for (i = 0; i < 40; i++) {
		struct pkt_spec s = spec(IP4(8, 8, 8, 8), 64);

		m[i] = pkt_make(pool, &s);
	}
	inject(m, 40, 0);
	CHECK_EQ(st()->c[RT_CTL_ICMP_ERRORS] - sent, 50);
	CHECK_EQ(st()->c[RT_CTL_ICMP_RATELIMITED] - lim, 30);
	now += hz / 10; /* 10 more tokens */
	for (i = 0; i < 20; i++) {
		struct pkt_spec s = spec(IP4(8, 8, 8, 8), 64);

		m[i] = pkt_make(pool, &s);
	}
	inject(m, 20, 0);
	CHECK_EQ(st()->c[RT_CTL_ICMP_ERRORS] - sent, 60);
	drain();
	now += 10 * hz;
}

static void
test_echo(void)
{
	struct pkt_spec s = spec(IP4(10, 0, 1, 1), 1); /* the other port's address, TTL 1 */
	struct rte_mbuf *m;
	struct rte_icmp_hdr *icmp;
	uint64_t other = st()->drops[RT_DROP_LOCAL_OTHER];
	uint8_t payload[32];

	drain();
	s.proto = IPPROTO_ICMP;
	s.payload = 40;
	m = pkt_make(pool, &s);
	icmp = (struct rte_icmp_hdr *)(pkt_ip(m) + 1);
	icmp->icmp_type = 8;
	icmp->icmp_code = 0;
	icmp->icmp_ident = RTE_BE16(77);
	icmp->icmp_seq_nb = RTE_BE16(5);
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = (uint16_t)~rte_raw_cksum(icmp, 40);
	memcpy(payload, icmp + 1, 32);
	inject(&m, 1, 0);
	m = take(0);
	CHECK(m != NULL);
	if (m != NULL) {
		icmp = (struct rte_icmp_hdr *)(pkt_ip(m) + 1);
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_host));
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->src_addr, &mac_p[0]));
		CHECK_EQ(rte_be_to_cpu_32(pkt_ip(m)->src_addr), IP4(10, 0, 1, 1));
		CHECK_EQ(rte_be_to_cpu_32(pkt_ip(m)->dst_addr), IP4(10, 0, 0, 9));
		CHECK_EQ(rt_ipv4_hdr_sum(pkt_ip(m), 5), 0xffff);
		CHECK_EQ(icmp->icmp_type, 0);
		CHECK_EQ(icmp->icmp_ident, RTE_BE16(77));
		CHECK_EQ(icmp->icmp_seq_nb, RTE_BE16(5));
		CHECK_EQ(rte_raw_cksum(icmp, 40), 0xffff);
		CHECK(memcmp(icmp + 1, payload, 32) == 0);
		rte_pktmbuf_free(m);
	}
	CHECK_EQ(st()->c[RT_CTL_ECHO_REPLIES], 1);
	/* a bad ICMP checksum, UDP to us, echo to the subnet broadcast: silence */
	m = pkt_make(pool, &s);
	icmp = (struct rte_icmp_hdr *)(pkt_ip(m) + 1);
	icmp->icmp_type = 8;
	inject(&m, 1, 0);
	s.proto = IPPROTO_UDP;
	m = pkt_make(pool, &s);
	inject(&m, 1, 0);
	CHECK_EQ(st()->drops[RT_DROP_LOCAL_OTHER] - other, 2);
	CHECK(take(0) == NULL);
}

static struct rte_mbuf *
arp_frame(uint16_t op, const struct rte_ether_addr *sha, uint32_t spa,
	const struct rte_ether_addr *dst, uint32_t tpa)
{
	return rt_arp_build(pool, op, dst, sha, spa, op == RTE_ARP_OP_REPLY ? dst : NULL, tpa);
}

static void
test_arp_reply_to_us(void)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	struct rte_mbuf *m = arp_frame(
		RTE_ARP_OP_REQUEST, &mac_host, IP4(10, 0, 0, 9), &bcast, IP4(10, 0, 0, 1));
	struct rt_arp_info a;
	uint64_t bad = st()->drops[RT_DROP_ARP_BAD];
	uint32_t nh;

	drain();
	inject(&m, 1, 0);
	m = take(0);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_EQ(rt_arp_parse(m, &a), 0);
		CHECK_EQ(a.op, RTE_ARP_OP_REPLY);
		CHECK(rte_is_same_ether_addr(&a.sha, &mac_p[0]));
		CHECK_EQ(a.spa, IP4(10, 0, 0, 1));
		CHECK(rte_is_same_ether_addr(&a.tha, &mac_host));
		CHECK_EQ(a.tpa, IP4(10, 0, 0, 9));
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_host));
		rte_pktmbuf_free(m);
	}
	/* the asker was learnt: traffic to it goes out on the fast path */
	nh = rt_route_lookup(tbl, IP4(10, 0, 0, 9));
	CHECK_EQ(tbl->nh[nh].type, RT_NH_GW);
	CHECK(tbl->nh[nh].l2 & RT_NH_F_VALID);
	/* for somebody else, and garbage */
	m = arp_frame(RTE_ARP_OP_REQUEST, &mac_host, IP4(10, 0, 0, 66), &bcast, IP4(10, 0, 0, 77));
	inject(&m, 1, 0);
	m = arp_frame(RTE_ARP_OP_REQUEST, &mac_host, IP4(10, 0, 0, 9), &bcast, IP4(10, 0, 0, 1));
	rte_pktmbuf_mtod_offset(m, struct rte_arp_hdr *, 14)->arp_hlen = 8;
	inject(&m, 1, 0);
	CHECK_EQ(st()->drops[RT_DROP_ARP_BAD] - bad, 2);
	CHECK(take(0) == NULL);
}

/*
 * An ARP request on port 1 is answered out of port 1 with port 1's MAC, in
 * the Ethernet header and as the sender (it was answered with port 0's
 * whatever the port: issue 44).
 */
static void
test_arp_reply_port1(void)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	static const struct rte_ether_addr mac_h1 = {{0x02, 0, 0, 0, 0x0b, 0x09}};
	struct rte_mbuf *m =
		arp_frame(RTE_ARP_OP_REQUEST, &mac_h1, IP4(10, 0, 1, 9), &bcast, IP4(10, 0, 1, 1));
	uint64_t replies = st()->c[RT_CTL_ARP_REPLIES];
	struct rt_arp_info a;

	CHECK(!rte_is_same_ether_addr(&mac_p[0], &mac_p[1]));
	drain();
	inject(&m, 1, 1);
	CHECK(take(0) == NULL);
	m = take(1);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_EQ(rt_arp_parse(m, &a), 0);
		CHECK_EQ(a.op, RTE_ARP_OP_REPLY);
		CHECK(rte_is_same_ether_addr(&a.sha, &mac_p[1]));
		CHECK_EQ(a.spa, IP4(10, 0, 1, 1));
		CHECK(rte_is_same_ether_addr(&a.tha, &mac_h1));
		CHECK_EQ(a.tpa, IP4(10, 0, 1, 9));
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->src_addr, &mac_p[1]));
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_h1));
		rte_pktmbuf_free(m);
	}
	CHECK_EQ(st()->c[RT_CTL_ARP_REPLIES] - replies, 1);
	drain();
}

/* An echo request from 10.0.0.9 to @p dst, received on port 0 (its ICMP checksum right). */
static struct rte_mbuf *
echo_request(uint32_t dst, uint16_t seq)
{
	struct pkt_spec s = spec(dst, 64);
	struct rte_icmp_hdr *icmp;
	struct rte_mbuf *m;

	s.proto = IPPROTO_ICMP;
	s.payload = 40;
	m = pkt_make(pool, &s);
	icmp = (struct rte_icmp_hdr *)(pkt_ip(m) + 1);
	icmp->icmp_type = 8;
	icmp->icmp_code = 0;
	icmp->icmp_ident = RTE_BE16(78);
	icmp->icmp_seq_nb = rte_cpu_to_be_16(seq);
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = (uint16_t)~rte_raw_cksum(icmp, 40);
	return m;
}

/* IPv4 frames out of port @p p now (all freed; the neighbour timers may send ARP meanwhile). */
static unsigned int
count_out(unsigned int p)
{
	struct rte_mbuf *m;
	unsigned int n = 0;

	while ((m = take(p)) != NULL) {
		n += pkt_eth(m)->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4);
		rte_pktmbuf_free(m);
	}
	return n;
}

/*
 * Echo replies are rate-limited (RFC 1812 4.3.2.8): the control's bucket of
 * the default RT_ECHO_RATE_DEFAULT a second, a tenth of that deep; the
 * requests beyond it are dropped as echo_rate, unanswered (they were all
 * answered: 1.35 M replies in 3 s, issue 37).
 */
static void
test_echo_rate_limit(void)
{
	const unsigned int depth = RT_ECHO_RATE_DEFAULT / 10;
	uint64_t replies = st()->c[RT_CTL_ECHO_REPLIES], lim = st()->drops[RT_DROP_ECHO_RATE];
	struct rte_mbuf *m[32];
	unsigned int i, j, out = 0;

	drain();
	now += 10 * hz; /* a full bucket */
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 32; j++)
			m[j] = echo_request(IP4(10, 0, 0, 1), (uint16_t)(i * 32 + j));
		inject(m, 32, 0);
		out += count_out(0);
	}
	CHECK_EQ(out, depth);
	CHECK_EQ(st()->c[RT_CTL_ECHO_REPLIES] - replies, depth);
	CHECK_EQ(st()->drops[RT_DROP_ECHO_RATE] - lim, 256 - depth);
	/* a tenth of a second later a tenth of the rate more */
	now += hz / 10;
	for (j = 0; j < 32; j++)
		m[j] = echo_request(IP4(10, 0, 1, 1), (uint16_t)j);
	inject(m, 32, 0);
	CHECK_EQ(count_out(0), 32);
	CHECK_EQ(st()->c[RT_CTL_ECHO_REPLIES] - replies, depth + 32);
	now += 10 * hz; /* full again for the next tests */
	drain();
}

/*
 * A flood of echo requests fills the worker's ring to the slow path but for
 * the last 1/RT_PUNT_ARP_SHARE of it, which only ARP may fill: ARP requests
 * that come behind the flood are all queued and answered (half of them were
 * dropped as punt_full: issue 37); once ARP has filled its share too, ARP is
 * dropped as arp_punt_full, counted apart.
 */
static void
test_punt_arp_reserve(void)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	const unsigned int cap = rte_ring_get_capacity(wk.punt);
	const unsigned int reserve = cap / RT_PUNT_ARP_SHARE;
	const uint64_t full0 = wk.drops[RT_DROP_PUNT_FULL],
		       arp_full0 = wk.drops[RT_DROP_ARP_PUNT_FULL],
		       replies0 = st()->c[RT_CTL_ARP_REPLIES], arp_in0 = st()->c[RT_CTL_ARP_IN];
	struct rte_mbuf *m[32];
	uint16_t out[32];
	unsigned int i, j, echo = 0, arp = 0, polled = 0;

	drain();
	CHECK_EQ(wk.punt_arp_reserve, reserve);
	CHECK(reserve >= 32);
	/* the flood, the slow path not polled meanwhile: stops short of the reserve */
	while (echo < cap) {
		for (j = 0; j < 32; j++)
			m[j] = echo_request(IP4(10, 0, 0, 1), (uint16_t)(echo + j));
		CHECK_EQ(rt_route_burst(&wk, port[0], m, 32, out), 0);
		echo += 32;
	}
	CHECK_EQ(rte_ring_count(wk.punt), cap - reserve);
	CHECK_EQ(wk.drops[RT_DROP_PUNT_FULL] - full0, echo - (cap - reserve));
	/* ARP behind it, interleaved with more echo: ARP takes the reserve */
	for (i = 0; i < reserve / 16; i++) {
		for (j = 0; j < 32; j++) {
			if (j % 2 == 0) {
				m[j] = arp_frame(RTE_ARP_OP_REQUEST, &mac_host, IP4(10, 0, 0, 9),
					&bcast, IP4(10, 0, 0, 1));
				arp++;
			} else {
				m[j] = echo_request(IP4(10, 0, 0, 1), (uint16_t)j);
				echo++;
			}
		}
		CHECK_EQ(rt_route_burst(&wk, port[0], m, 32, out), 0);
	}
	CHECK_EQ(arp, reserve / 16 * 16);
	CHECK_EQ(rte_ring_count(wk.punt), cap - reserve + arp);
	CHECK_EQ(wk.drops[RT_DROP_PUNT_FULL] - full0, echo - (cap - reserve));
	CHECK_EQ(wk.drops[RT_DROP_ARP_PUNT_FULL] - arp_full0, 0);
	/* more ARP than the reserve holds: the rest counted as arp_punt_full */
	for (j = 0; j < 32; j++)
		m[j] = arp_frame(
			RTE_ARP_OP_REQUEST, &mac_host, IP4(10, 0, 0, 9), &bcast, IP4(10, 0, 0, 1));
	CHECK_EQ(rt_route_burst(&wk, port[0], m, 32, out), 0);
	CHECK_EQ(rte_ring_count(wk.punt), cap);
	CHECK_EQ(wk.drops[RT_DROP_ARP_PUNT_FULL] - arp_full0, 32 - (reserve - arp));
	arp = reserve;
	/* every ARP request that got in is answered */
	while (rte_ring_count(wk.punt) > 0 && polled++ < 64) {
		rt_control_poll(ctl, now, 0);
		count_out(0);
	}
	CHECK_EQ(rte_ring_count(wk.punt), 0);
	CHECK_EQ(st()->c[RT_CTL_ARP_REPLIES] - replies0, arp);
	CHECK_EQ(st()->c[RT_CTL_ARP_IN] - arp_in0, arp);
	now += 10 * hz;
	drain();
}

/* Packets to 203.0.113.0/24 via 10.0.1.3, which nobody has resolved yet. */
static void
send_unresolved(unsigned int n, uint8_t seq0)
{
	struct rte_mbuf *m[64];
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct pkt_spec s = spec(IP4(203, 0, 113, 5), 64);

		s.seq = (uint8_t)(seq0 + i);
		m[i] = pkt_make(pool, &s);
	}
	inject(m, (uint16_t)n, 0);
}

static void
check_request(struct rte_mbuf *m, uint32_t tpa)
{
	struct rt_arp_info a;

	CHECK(m != NULL);
	if (m == NULL)
		return;
	CHECK_EQ(rt_arp_parse(m, &a), 0);
	CHECK_EQ(a.op, RTE_ARP_OP_REQUEST);
	CHECK_EQ(a.spa, IP4(10, 0, 1, 1));
	CHECK_EQ(a.tpa, tpa);
	CHECK(rte_is_same_ether_addr(&a.sha, &mac_p[1]));
	CHECK(rte_is_broadcast_ether_addr(&pkt_eth(m)->dst_addr));
	rte_pktmbuf_free(m);
}

static void
test_arp_resolution(void)
{
	struct rte_mbuf *m;
	uint32_t nh = rt_nh_neigh_find(tbl, IP4(10, 0, 1, 3)), i;
	uint64_t full = st()->drops[RT_DROP_ARP_HOLD_FULL];

	drain();
	send_unresolved(6, 0); /* the hold queue takes 4 */
	check_request(take(1), IP4(10, 0, 1, 3));
	CHECK(take(1) == NULL); /* one request, not one per packet */
	CHECK_EQ(rt_neigh_state(ctl, nh), RT_NEIGH_INCOMPLETE);
	CHECK_EQ(rt_neigh_held(ctl, nh), 4);
	CHECK_EQ(st()->drops[RT_DROP_ARP_HOLD_FULL] - full, 2);

	/* the reply releases them, in order, rewritten */
	m = arp_frame(RTE_ARP_OP_REPLY, &mac_gw3, IP4(10, 0, 1, 3), &mac_p[1], IP4(10, 0, 1, 1));
	inject(&m, 1, 1);
	for (i = 0; i < 4; i++) {
		const uint8_t *p;

		m = take(1);
		CHECK(m != NULL);
		if (m == NULL)
			break;
		p = (const uint8_t *)(pkt_ip(m) + 1);
		CHECK_EQ(p[0], (uint8_t)i); /* the first payload byte is the packet's number */
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_gw3));
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->src_addr, &mac_p[1]));
		CHECK_EQ(pkt_ip(m)->time_to_live, 63);
		CHECK_EQ(rt_ipv4_hdr_sum(pkt_ip(m), 5), 0xffff);
		rte_pktmbuf_free(m);
	}
	CHECK(take(1) == NULL);
	CHECK_EQ(rt_neigh_state(ctl, nh), RT_NEIGH_REACHABLE);
	CHECK_EQ(rt_neigh_held(ctl, nh), 0);
	/* from now on the fast path forwards it without the control context */
	send_unresolved(3, 50);
	for (i = 0; i < 3; i++) {
		m = take(1);
		CHECK(m != NULL && rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_gw3));
		rte_pktmbuf_free(m);
	}
	CHECK_EQ(st()->c[RT_CTL_RELEASED], 4);
}

/*
 * RFC 826's refresh is of a sender on its own port: an ARP packet on port 0
 * that claims 10.0.1.3 (a neighbour of port 1) with another MAC changes
 * nothing (once, any host on another segment could take the neighbour's
 * traffic).
 */
static void
test_arp_other_port(void)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	static const struct rte_ether_addr mac_thief = {{0x02, 0, 0, 0, 0x66, 0x66}};
	uint32_t nh = rt_nh_neigh_find(tbl, IP4(10, 0, 1, 3));
	struct rte_mbuf *m;

	drain();
	CHECK_EQ(rt_neigh_state(ctl, nh), RT_NEIGH_REACHABLE);
	m = arp_frame(RTE_ARP_OP_REQUEST, &mac_thief, IP4(10, 0, 1, 3), &bcast, IP4(10, 0, 0, 77));
	inject(&m, 1, 0);
	m = arp_frame(RTE_ARP_OP_REPLY, &mac_thief, IP4(10, 0, 1, 3), &mac_p[0], IP4(10, 0, 0, 1));
	inject(&m, 1, 0);
	drain();
	send_unresolved(1, 0);
	m = take(1);
	CHECK(m != NULL && rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_gw3));
	rte_pktmbuf_free(m);
}

static void
test_arp_ageing_and_failure(void)
{
	uint32_t nh = rt_nh_neigh_find(tbl, IP4(10, 0, 1, 3)), i;
	uint64_t failed = st()->drops[RT_DROP_ARP_FAILED];
	struct rte_mbuf *m;

	drain();
	/* reachable time (1 s here) passes: probes, still forwarding meanwhile */
	now += hz + hz / 50;
	rt_control_poll(ctl, now, 0);
	CHECK_EQ(rt_neigh_state(ctl, nh), RT_NEIGH_PROBE);
	check_request(take(1), IP4(10, 0, 1, 3));
	CHECK(tbl->nh[nh].l2 & RT_NH_F_VALID);
	/* three unanswered requests: forgotten, the fast path punts again */
	for (i = 0; i < 3; i++) {
		now += hz / 10 + hz / 50;
		rt_control_poll(ctl, now, 0);
		m = take(1);
		if (m != NULL)
			check_request(m, IP4(10, 0, 1, 3));
	}
	CHECK_EQ(rt_neigh_state(ctl, nh), RT_NEIGH_NONE);
	CHECK(!(tbl->nh[nh].l2 & RT_NH_F_VALID));

	/* an unanswered resolution drops what it held */
	send_unresolved(2, 0);
	check_request(take(1), IP4(10, 0, 1, 3));
	for (i = 0; i < 4; i++) {
		now += hz / 10 + hz / 50;
		rt_control_poll(ctl, now, 0);
	}
	drain();
	CHECK_EQ(rt_neigh_state(ctl, nh), RT_NEIGH_NONE);
	CHECK_EQ(st()->drops[RT_DROP_ARP_FAILED] - failed, 2);
}

static void
test_connected_resolution(void)
{
	struct pkt_spec s = spec(IP4(10, 0, 1, 77), 9);
	struct rte_mbuf *m = pkt_make(pool, &s);
	uint32_t nh;

	drain();
	inject(&m, 1, 0);
	check_request(take(1), IP4(10, 0, 1, 77));
	nh = rt_route_lookup(tbl, IP4(10, 0, 1, 77));
	CHECK_EQ(tbl->nh[nh].type, RT_NH_GW); /* its own /32 now */
	CHECK_EQ(rt_neigh_held(ctl, nh), 1);
	m = arp_frame(RTE_ARP_OP_REPLY, &mac_gw, IP4(10, 0, 1, 77), &mac_p[1], IP4(10, 0, 1, 1));
	inject(&m, 1, 1);
	m = take(1);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(rte_is_same_ether_addr(&pkt_eth(m)->dst_addr, &mac_gw));
		CHECK_EQ(pkt_ip(m)->time_to_live, 8);
		rte_pktmbuf_free(m);
	}
}

static void
test_fragmentation(void)
{
	/* record route (not copied), then a copied option (type 0x94 router alert) */
	static const uint8_t opts[12] = {0x07, 7, 4, 0, 0, 0, 0, 0x94, 0x04, 0, 0, 0x00};
	struct pkt_spec s = spec(IP4(198, 18, 0, 1), 64);
	struct rte_mbuf *m, *f;
	uint8_t orig[1500], joined[1500];
	char err[RT_ERR_LEN];
	uint16_t expect_off = 0, n = 0, total = 0;
	bool last_seen = false;

	drain();
	CHECK_EQ(rt_iface_set_mtu(tbl, port[1], 576, err, sizeof(err)), 0);
	s.payload = 1400;
	s.opt_len = 12;
	s.opts = opts;
	m = pkt_make(pool, &s);
	memcpy(orig, rte_pktmbuf_mtod_offset(m, void *, 14 + 32), 1400);
	inject(&m, 1, 0);
	while ((f = take(1)) != NULL) {
		struct rte_ipv4_hdr *ip = pkt_ip(f);
		uint16_t fo = rte_be_to_cpu_16(ip->fragment_offset);
		uint16_t hl = rte_ipv4_hdr_len(ip), tl = rte_be_to_cpu_16(ip->total_length);

		CHECK(!last_seen);
		CHECK(tl <= 576);
		CHECK_EQ(rte_pktmbuf_pkt_len(f), 14 + tl);
		CHECK_EQ((fo & RTE_IPV4_HDR_OFFSET_MASK) * 8, expect_off);
		CHECK_EQ(rt_ipv4_hdr_sum(ip, hl / 4), 0xffff);
		CHECK_EQ(ip->time_to_live, 63);
		CHECK(rte_is_same_ether_addr(&pkt_eth(f)->dst_addr, &mac_gw));
		if (n == 0) {
			CHECK_EQ(hl, 32); /* every option in the first */
			CHECK(memcmp(ip + 1, opts, 12) == 0);
		} else {
			CHECK_EQ(hl, 24); /* only the copied one after */
			CHECK(memcmp(ip + 1, opts + 7, 4) == 0);
		}
		if (!(fo & RTE_IPV4_HDR_MF_FLAG))
			last_seen = true;
		else
			CHECK_EQ((tl - hl) % 8, 0);
		if (expect_off + tl - hl <= (int)sizeof(joined))
			memcpy(joined + expect_off, (uint8_t *)ip + hl, tl - hl);
		expect_off = (uint16_t)(expect_off + tl - hl);
		total = (uint16_t)(total + tl - hl);
		n++;
		rte_pktmbuf_free(f);
	}
	CHECK(last_seen);
	CHECK(n >= 3);
	CHECK_EQ(total, 1400);
	CHECK(memcmp(joined, orig, 1400) == 0);
	CHECK_EQ(st()->c[RT_CTL_FRAGMENTED], 1);
	CHECK_EQ(st()->c[RT_CTL_FRAGMENTS], n);

	/* an already fragmented packet keeps MF on its last piece */
	s.opt_len = 0;
	s.opts = NULL;
	s.frag = RTE_IPV4_HDR_MF_FLAG | 100;
	m = pkt_make(pool, &s);
	inject(&m, 1, 0);
	n = 0;
	while ((f = take(1)) != NULL) {
		uint16_t fo = rte_be_to_cpu_16(pkt_ip(f)->fragment_offset);

		CHECK(fo & RTE_IPV4_HDR_MF_FLAG);
		if (n == 0)
			CHECK_EQ(fo & RTE_IPV4_HDR_OFFSET_MASK, 100);
		n++;
		rte_pktmbuf_free(f);
	}
	CHECK(n >= 3);
	CHECK_EQ(rt_iface_set_mtu(tbl, port[1], 1500, err, sizeof(err)), 0);
}

/* An echo request of @p payload ICMP bytes from 10.0.0.9 to @p dst, in segments of @p seg. */
static struct rte_mbuf *
echo_chain(uint32_t dst, uint16_t payload, uint16_t seg, uint32_t src)
{
	struct pkt_spec s = spec(dst, 64);
	struct rte_icmp_hdr *icmp;
	struct rte_mbuf *m;

	s.proto = IPPROTO_ICMP;
	s.payload = payload;
	s.src = src;
	m = pkt_make(pool, &s);
	icmp = (struct rte_icmp_hdr *)(pkt_ip(m) + 1);
	icmp->icmp_type = 8;
	icmp->icmp_code = 0;
	icmp->icmp_ident = RTE_BE16(78);
	icmp->icmp_seq_nb = RTE_BE16(6);
	icmp->icmp_cksum = 0;
	icmp->icmp_cksum = (uint16_t)~rte_raw_cksum(icmp, payload);
	return pkt_chain(pool, m, seg);
}

/* A multi-segment echo request is answered; above the port's MTU in fragments. */
static void
test_echo_chain(void)
{
	uint64_t replies = st()->c[RT_CTL_ECHO_REPLIES], cut = st()->c[RT_CTL_FRAGMENTED];
	uint8_t a[1900], b[1900];
	struct rte_mbuf *m, *req;
	char err[RT_ERR_LEN];
	uint32_t ip_bytes = 0;
	unsigned int n = 0;
	uint16_t sum = 0;

	drain();
	/* a jumbo port: the reply fits in one frame, the chain it came in */
	CHECK_EQ(rt_iface_set_mtu(tbl, port[0], 9000, err, sizeof(err)), 0);
	m = echo_chain(IP4(10, 0, 0, 1), 1800, 400, IP4(10, 0, 0, 9));
	req = rte_pktmbuf_copy(m, pool, 0, UINT32_MAX);
	CHECK(m != NULL && req != NULL && m->nb_segs == 5);
	inject(&m, 1, 0);
	m = take(0);
	CHECK(m != NULL);
	if (m != NULL && req != NULL) {
		CHECK(m->nb_segs > 1);
		CHECK_EQ(rte_pktmbuf_pkt_len(m), 14 + 20 + 1800);
		CHECK_EQ(rte_be_to_cpu_32(pkt_ip(m)->dst_addr), IP4(10, 0, 0, 9));
		CHECK_EQ(rt_ipv4_hdr_sum(pkt_ip(m), 5), 0xffff);
		CHECK_EQ(((struct rte_icmp_hdr *)(pkt_ip(m) + 1))->icmp_type, 0);
		CHECK_EQ(rte_raw_cksum_mbuf(m, 34, 1800, &sum), 0);
		CHECK_EQ(sum, 0xffff);
		/* id, sequence and data as in the request */
		CHECK(memcmp(rte_pktmbuf_read(m, 38, 1796, a), rte_pktmbuf_read(req, 38, 1796, b),
			      1796) == 0);
		rte_pktmbuf_free(m);
	}
	rte_pktmbuf_free(req);
	CHECK_EQ(st()->c[RT_CTL_ECHO_REPLIES] - replies, 1);
	/* the same out of a 576-byte MTU: fragments that carry all of it */
	CHECK_EQ(rt_iface_set_mtu(tbl, port[0], 576, err, sizeof(err)), 0);
	m = echo_chain(IP4(10, 0, 0, 1), 1800, 400, IP4(10, 0, 0, 9));
	inject(&m, 1, 0);
	while ((m = take(0)) != NULL) {
		CHECK(rte_pktmbuf_pkt_len(m) - 14 <= 576);
		CHECK_EQ(rt_ipv4_hdr_sum(pkt_ip(m), 5), 0xffff);
		ip_bytes += rte_be_to_cpu_16(pkt_ip(m)->total_length) - 20;
		n++;
		rte_pktmbuf_free(m);
	}
	CHECK(n >= 4);
	CHECK_EQ(ip_bytes, 1800);
	CHECK_EQ(st()->c[RT_CTL_FRAGMENTED] - cut, 1);
	CHECK_EQ(st()->c[RT_CTL_ECHO_REPLIES] - replies, 2);
	CHECK_EQ(rt_iface_set_mtu(tbl, port[0], 1500, err, sizeof(err)), 0);
}

/* No ICMP error, nor echo reply, to a subnet broadcast or network source. */
static void
test_icmp_bcast_src(void)
{
	static const uint32_t srcs[] = {IP4(10, 0, 0, 255), IP4(10, 0, 0, 0), IP4(10, 0, 1, 255)};
	uint64_t sup = st()->c[RT_CTL_ICMP_SUPPRESSED], sent = st()->c[RT_CTL_ICMP_ERRORS];
	uint64_t ttl = st()->drops[RT_DROP_TTL_EXCEEDED], rej = st()->drops[RT_DROP_REJECT];
	uint64_t mart = st()->drops[RT_DROP_MARTIAN_SRC];
	struct rte_mbuf *m;
	unsigned int i;

	drain();
	now += 10 * hz; /* a full token bucket: a silence is not the rate limit */
	for (i = 0; i < RTE_DIM(srcs); i++) {
		struct pkt_spec s = spec(IP4(198, 18, 0, 1), 1);

		s.src = srcs[i];
		m = pkt_make(pool, &s);
		inject(&m, 1, 0); /* time exceeded */
		s = spec(IP4(198, 51, 100, 1), 64);
		s.src = srcs[i];
		m = pkt_make(pool, &s);
		inject(&m, 1, 0); /* host unreachable (reject) */
		m = echo_chain(IP4(10, 0, 0, 1), 40, 400, srcs[i]);
		inject(&m, 1, 0);
		CHECK(take(0) == NULL);
	}
	CHECK_EQ(st()->c[RT_CTL_ICMP_SUPPRESSED] - sup, 6);
	CHECK_EQ(st()->c[RT_CTL_ICMP_ERRORS] - sent, 0);
	CHECK_EQ(st()->drops[RT_DROP_TTL_EXCEEDED] - ttl, 3);
	CHECK_EQ(st()->drops[RT_DROP_REJECT] - rej, 3);
	CHECK_EQ(st()->drops[RT_DROP_MARTIAN_SRC] - mart, 3);
}

/*
 * No next hop left for a new on-link neighbour: nh_full (not ctl_nomem). Its
 * own table and slow path, small; rt_control_drain() then counts what it held.
 */
static void
test_nh_full_and_drain(void)
{
	struct rt_table_params tp = {.name = "rt_ctl_small", .socket = SOCKET_ID_ANY, .max_nh = 8};
	struct rt_control_params cp = {.pool = pool, .arp_hold = 4};
	struct rt_table *t = rt_table_create(&tp);
	const struct rt_control_stats *cs;
	struct rt_control *c2 = NULL;
	unsigned int i, before;
	struct rte_mbuf *m[5], *q;
	char err[RT_ERR_LEN];
	struct rte_ring *ring;
	struct rt_worker w2;
	uint16_t out[5];

	drain();
	before = POOL_SIZE - rte_mempool_avail_count(pool);
	CHECK(t != NULL);
	if (t == NULL)
		return;
	for (i = 0; i < 2; i++)
		CHECK_EQ(rt_iface_enable(t, port[i], &mac_p[i]), 0);
	CHECK_EQ(rt_iface_set_addr(t, port[0], IP4(10, 0, 0, 1), 24, err, sizeof(err)), 0);
	CHECK_EQ(rt_iface_set_addr(t, port[1], IP4(10, 0, 1, 1), 24, err, sizeof(err)), 0);
	cp.table = t;
	c2 = rt_control_create(&cp);
	ring = c2 != NULL ? rt_control_add_worker(c2, rte_lcore_id()) : NULL;
	CHECK(ring != NULL && rt_worker_init(&w2, t, ring, rte_lcore_id(), NULL) == 0);
	if (ring == NULL)
		goto out;
	/* 8 next hops: local, blackhole, reject, two connected, three neighbours */
	for (i = 0; i < 5; i++) {
		struct pkt_spec s = spec(IP4(10, 0, 1, 10 + i), 64);

		m[i] = pkt_make(pool, &s);
	}
	CHECK_EQ(rt_route_burst(&w2, port[0], m, 5, out), 0);
	rt_control_poll(c2, now, 0);
	cs = rt_control_stats(c2);
	CHECK_EQ(cs->drops[RT_DROP_NH_FULL], 2);
	CHECK_EQ(cs->drops[RT_DROP_CTL_NOMEM], 0);
	CHECK_EQ(cs->held, 3);
	/* at exit: held and queued frames counted, none freed silently */
	q = pkt_make(pool, &(struct pkt_spec){.src = IP4(10, 0, 0, 9), .dst = IP4(10, 0, 1, 20)});
	CHECK_EQ(rte_ring_enqueue(ring, q), 0);
	rt_worker_fini(&w2);
	rt_control_drain(c2);
	CHECK_EQ(cs->drops[RT_DROP_ARP_HELD_AT_EXIT], 3);
	CHECK_EQ(cs->drops[RT_DROP_CTL_QUEUED_AT_EXIT], 1); /* its ARP requests went at the poll */
	CHECK_EQ(cs->held, 0);
out:
	rt_control_free(c2);
	rt_table_free(t);
	drain();
	CHECK_EQ(POOL_SIZE - rte_mempool_avail_count(pool), before);
}

/*
 * A kernel twin on port 0 (a net_ring port standing for the TAP): what is
 * for the router and not echo goes to it within punt-rate, the rest is
 * punt_rate; ARP for the port's address is answered and copied to it;
 * 224.0.0.0/24 on the twin's port goes to it, on port 1 it is mcast_dst;
 * port 1 (no twin) still drops local_other; what the twin sends leaves port
 * 0 unchanged. Its own table and slow path, so the others' counts stay.
 */
static void
test_twin(void)
{
	static const struct rte_ether_addr bcast = {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};
	static const struct rte_ether_addr mc5 = {{0x01, 0x00, 0x5e, 0x00, 0x00, 0x05}};
	struct rt_table_params tp = {.name = "rt_ctl_twin", .socket = SOCKET_ID_ANY, .max_nh = 64};
	struct rt_control_params cp = {.pool = pool};
	struct rt_table *t = rt_table_create(&tp);
	struct rte_ring *tw_rx = rte_ring_create("rtc_tw_rx", 64, 0, 0);
	struct rte_ring *tw_tx = rte_ring_create("rtc_tw_tx", 256, 0, 0);
	const struct rt_control_stats *cs;
	struct rte_mbuf *m[40], *r;
	struct rt_control *c2 = NULL;
	unsigned int i, before, n;
	struct rte_ring *ring = NULL;
	char err[RT_ERR_LEN];
	struct rt_arp_info a;
	struct rt_worker w2;
	uint64_t t0 = now;
	uint16_t out[40];
	int twin = -1;

	drain();
	before = POOL_SIZE - rte_mempool_avail_count(pool);
	CHECK(t != NULL && tw_rx != NULL && tw_tx != NULL);
	if (t == NULL || tw_rx == NULL || tw_tx == NULL)
		goto out;
	twin = rte_eth_from_rings("net_ring_rtc_twin", &tw_rx, 1, &tw_tx, 1, 0);
	CHECK(twin >= 0);
	if (twin < 0)
		goto out;
	rte_eth_dev_configure(twin, 1, 1, &(struct rte_eth_conf){0});
	rte_eth_rx_queue_setup(twin, 0, 64, 0, NULL, pool);
	rte_eth_tx_queue_setup(twin, 0, 256, 0, NULL);
	rte_eth_dev_start(twin);
	for (i = 0; i < 2; i++)
		CHECK_EQ(rt_iface_enable(t, port[i], &mac_p[i]), 0);
	CHECK_EQ(rt_iface_set_addr(t, port[0], IP4(10, 0, 0, 1), 24, err, sizeof(err)), 0);
	CHECK_EQ(rt_iface_set_addr(t, port[1], IP4(10, 0, 1, 1), 24, err, sizeof(err)), 0);
	CHECK_EQ(rt_iface_set_twin(t, port[0], true), 0);
	cp.table = t;
	c2 = rt_control_create(&cp);
	ring = c2 != NULL ? rt_control_add_worker(c2, rte_lcore_id()) : NULL;
	CHECK(ring != NULL && rt_worker_init(&w2, t, ring, rte_lcore_id(), NULL) == 0);
	if (ring == NULL)
		goto out;
	/* 50 pps: a burst of 32 */
	CHECK_EQ(rt_control_set_twin(c2, port[0], (uint16_t)twin, 50), 0);
	CHECK_EQ(rt_control_set_twin(c2, port[0], (uint16_t)twin, 50), -EINVAL); /* has one */
	CHECK_EQ(rt_control_set_twin(c2, port[1], port[0], 50), -EINVAL);        /* a router port */
	cs = rt_control_stats(c2);

	/* UDP to the router: 32 to the twin, as received, 8 over the bucket */
	for (i = 0; i < 40; i++) {
		struct pkt_spec s = spec(IP4(10, 0, 0, 1), 64);

		s.proto = IPPROTO_UDP;
		s.seq = (uint8_t)i;
		m[i] = pkt_make(pool, &s);
	}
	CHECK_EQ(rt_route_burst(&w2, port[0], m, 40, out), 0);
	rt_control_poll(c2, t0, 0);
	CHECK_EQ(cs->c[RT_CTL_TO_TWIN], 32);
	CHECK_EQ(cs->drops[RT_DROP_PUNT_RATE], 8);
	CHECK_EQ(rte_ring_count(tw_tx), 32);
	r = NULL;
	rte_ring_dequeue(tw_tx, (void **)&r);
	CHECK(r != NULL && pkt_ip(r)->dst_addr == RTE_BE32(IP4(10, 0, 0, 1)) &&
		rte_is_same_ether_addr(&pkt_eth(r)->src_addr, &mac_host));
	rte_pktmbuf_free(r);
	while (rte_ring_dequeue(tw_tx, (void **)&r) == 0)
		rte_pktmbuf_free(r);

	/* a second later: OSPF's 224.0.0.5 on port 0 goes to the twin, on port 1 it drops */
	t0 += hz;
	for (i = 0; i < 2; i++) {
		struct pkt_spec s = spec(IP4(224, 0, 0, 5), 1);

		s.dst_mac = mc5;
		s.proto = 89;
		m[i] = pkt_make(pool, &s);
	}
	CHECK_EQ(rt_route_burst(&w2, port[0], &m[0], 1, out), 0);
	CHECK_EQ(rt_route_burst(&w2, port[1], &m[1], 1, out), 0);
	CHECK_EQ(w2.drops[RT_DROP_MCAST_DST], 1);
	rt_control_poll(c2, t0, 0);
	CHECK_EQ(cs->c[RT_CTL_TO_TWIN], 33);
	CHECK_EQ(rte_ring_count(tw_tx), 1);
	while (rte_ring_dequeue(tw_tx, (void **)&r) == 0)
		rte_pktmbuf_free(r);

	/* port 1 has no twin: UDP to its address is local_other */
	{
		struct pkt_spec s = spec(IP4(10, 0, 1, 1), 64);

		s.dst_mac = mac_p[1];
		s.src = IP4(10, 0, 1, 9);
		s.proto = IPPROTO_UDP;
		m[0] = pkt_make(pool, &s);
	}
	CHECK_EQ(rt_route_burst(&w2, port[1], m, 1, out), 0);
	rt_control_poll(c2, t0, 0);
	CHECK_EQ(cs->drops[RT_DROP_LOCAL_OTHER], 1);
	CHECK_EQ(cs->c[RT_CTL_TO_TWIN], 33);

	/* ARP for 10.0.0.1: answered out of port 0, and a copy to the twin */
	drain();
	m[0] = arp_frame(RTE_ARP_OP_REQUEST, &mac_host, IP4(10, 0, 0, 9), &bcast, IP4(10, 0, 0, 1));
	CHECK_EQ(rt_route_burst(&w2, port[0], m, 1, out), 0);
	rt_control_poll(c2, t0, 0);
	CHECK_EQ(cs->c[RT_CTL_ARP_TO_TWIN], 1);
	CHECK_EQ(cs->c[RT_CTL_ARP_REPLIES], 1);
	r = take(0);
	CHECK(r != NULL && rt_arp_parse(r, &a) == 0 && a.op == RTE_ARP_OP_REPLY);
	rte_pktmbuf_free(r);
	r = NULL;
	rte_ring_dequeue(tw_tx, (void **)&r);
	CHECK(r != NULL && rt_arp_parse(r, &a) == 0 && a.op == RTE_ARP_OP_REQUEST &&
		a.tpa == IP4(10, 0, 0, 1));
	rte_pktmbuf_free(r);

	/* what the kernel sends on the twin leaves port 0 as it is */
	{
		struct pkt_spec s = spec(IP4(10, 0, 0, 9), 64);

		s.src_mac = mac_p[0];
		s.dst_mac = mac_host;
		s.src = IP4(10, 0, 0, 1);
		s.proto = IPPROTO_TCP;
		s.seq = 77;
		m[0] = pkt_make(pool, &s);
	}
	n = rte_pktmbuf_pkt_len(m[0]);
	CHECK_EQ(rte_ring_enqueue(tw_rx, m[0]), 0);
	rt_control_poll(c2, t0, 0);
	CHECK_EQ(cs->c[RT_CTL_FROM_TWIN], 1);
	r = take(0);
	CHECK(r == m[0] && rte_pktmbuf_pkt_len(r) == n &&
		rte_is_same_ether_addr(&pkt_eth(r)->dst_addr, &mac_host));
	rte_pktmbuf_free(r);
	/* the balance of rt_control_stats, the twins' part included */
	{
		uint64_t in = cs->c[RT_CTL_RX] + cs->c[RT_CTL_ICMP_ERRORS] +
			      cs->c[RT_CTL_ARP_REQUESTS] + cs->c[RT_CTL_ARP_REPLIES] +
			      cs->c[RT_CTL_FRAGMENTS] + cs->drops[RT_DROP_CTL_NOMEM] +
			      cs->c[RT_CTL_ARP_TO_TWIN] + cs->c[RT_CTL_FROM_TWIN];
		uint64_t outs = cs->c[RT_CTL_TX] + cs->c[RT_CTL_ARP_IN] + cs->c[RT_CTL_FRAGMENTED] +
				cs->held + cs->c[RT_CTL_TO_TWIN];

		for (i = 0; i < RT_DROP_MAX; i++)
			outs += cs->drops[i];
		CHECK_EQ(in, outs);
	}
	rt_worker_fini(&w2);
out:
	rt_control_free(c2);
	rt_table_free(t);
	if (twin >= 0) {
		rte_eth_dev_stop(twin);
		rte_eth_dev_close(twin);
	}
	drain();
	if (tw_tx != NULL)
		while (rte_ring_dequeue(tw_tx, (void **)&r) == 0)
			rte_pktmbuf_free(r);
	rte_ring_free(tw_rx);
	rte_ring_free(tw_tx);
	CHECK_EQ(POOL_SIZE - rte_mempool_avail_count(pool), before);
}

/* A clear asked from another thread is done by the poller, which keeps what it holds. */
static void
test_clear(void)
{
	unsigned int i;
	bool zero = true;

	drain();
	send_unresolved(2, 90); /* held for 10.0.1.3 if it is unresolved */
	rt_control_clear_request(ctl);
	CHECK(rt_control_clear_pending(ctl));
	rt_control_poll(ctl, now, 0);
	CHECK(!rt_control_clear_pending(ctl));
	for (i = 0; i < RT_CTL_MAX; i++)
		zero = zero && (st()->c[i] == 0 || i == RT_CTL_TX || i == RT_CTL_ARP_REQUESTS);
	for (i = 0; i < RT_DROP_MAX; i++)
		zero = zero && st()->drops[i] == 0;
	CHECK(zero);
	CHECK_EQ(st()->carried_held, st()->held);
	drain();
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_icmp_errors), FWD_TEST(test_icmp_error_small_mbufs),
	FWD_TEST(test_icmp_never_about), FWD_TEST(test_icmp_rate_limit), FWD_TEST(test_echo),
	FWD_TEST(test_arp_reply_to_us), FWD_TEST(test_arp_reply_port1),
	FWD_TEST(test_echo_rate_limit), FWD_TEST(test_punt_arp_reserve),
	FWD_TEST(test_arp_resolution), FWD_TEST(test_arp_other_port),
	FWD_TEST(test_arp_ageing_and_failure), FWD_TEST(test_connected_resolution),
	FWD_TEST(test_fragmentation), FWD_TEST(test_echo_chain), FWD_TEST(test_icmp_bcast_src),
	FWD_TEST(test_nh_full_and_drain), FWD_TEST(test_twin),
	FWD_TEST(test_clear), /* last: the others count from where they start, but test_echo not */
};

int
main(void)
{
	struct rt_table_params tp = {.name = "rt_ctl_test",
		.socket = SOCKET_ID_ANY,
		.max_routes = 4096,
		.max_nh = 1024,
		.tbl8s = 256};
	struct rt_control_params cp = {0};
	char err[RT_ERR_LEN];
	struct rte_ring *punt;
	unsigned int i;
	int ret = 0;

	if (fwd_test_eal_init("route-ctl", 256) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	hz = rte_get_tsc_hz();
	now = rte_rdtsc();
	pool = rte_pktmbuf_pool_create(
		"rt_pool", POOL_SIZE, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	tbl = rt_table_create(&tp);
	if (pool == NULL || tbl == NULL) {
		printf("Bail out! pool or table\n");
		return 1;
	}
	for (i = 0; i < 2; i++) {
		char name[32];
		int p;

		snprintf(name, sizeof(name), "rtc_tx%u", i);
		txr[i] = rte_ring_create(name, 256, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "net_ring_rtc%u", i);
		p = rte_eth_from_rings(name, &txr[i], 1, &txr[i], 1, 0);
		if (txr[i] == NULL || p < 0) {
			printf("Bail out! ring ports\n");
			return 1;
		}
		port[i] = (uint16_t)p;
		rte_eth_dev_configure(p, 1, 1, &(struct rte_eth_conf){0});
		rte_eth_rx_queue_setup(p, 0, 64, 0, NULL, pool);
		rte_eth_tx_queue_setup(p, 0, 256, 0, NULL);
		rte_eth_dev_start(p);
		/*
		 * Each port a MAC of its own (net_ring gives every port zeros): a frame
		 * built with another port's MAC than its own is then seen to be wrong.
		 */
		mac_p[i] = (struct rte_ether_addr){{0x02, 0, 0, 0, 0xee, (uint8_t)(i + 1)}};
		ret |= rt_iface_enable(tbl, port[i], &mac_p[i]);
	}
	ret |= rt_iface_set_addr(tbl, port[0], IP4(10, 0, 0, 1), 24, err, sizeof(err));
	ret |= rt_iface_set_addr(tbl, port[1], IP4(10, 0, 1, 1), 24, err, sizeof(err));
	ret |= rt_neigh_static_add(tbl, IP4(10, 0, 1, 2), &mac_gw, err, sizeof(err));
	ret |= rt_test_add(
		tbl, IP4(198, 18, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 1, 2), -1, err, sizeof(err));
	ret |= rt_test_add(
		tbl, IP4(203, 0, 113, 0), 24, RT_ROUTE_VIA, IP4(10, 0, 1, 3), -1, err, sizeof(err));
	ret |= rt_test_add(tbl, IP4(198, 51, 100, 0), 24, RT_ROUTE_REJECT, 0, -1, err, sizeof(err));
	cp.table = tbl;
	cp.pool = pool;
	cp.tx_queue = 0;
	cp.arp_hold = 4;
	cp.arp_reachable_ms = 1000;
	cp.arp_retrans_ms = 100;
	ctl = rt_control_create(&cp);
	punt = ctl != NULL ? rt_control_add_worker(ctl, rte_lcore_id()) : NULL;
	if (ret != 0 || punt == NULL || rt_worker_init(&wk, tbl, punt, rte_lcore_id(), NULL) != 0) {
		printf("Bail out! set-up: %s\n", err);
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	drain();
	rt_worker_fini(&wk);
	rt_control_free(ctl);
	rt_table_free(tbl);
	rte_eal_cleanup();
	return ret;
}
