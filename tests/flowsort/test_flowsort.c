/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Unit tests of lib/flowsort on crafted mbufs. Every grouping result is checked
 * against the packets' known flows by check_grouping(): a permutation, one
 * run per flow (no merge, no split), stable inside a run, runs in order of
 * first appearance, and the run key equal to each member's key.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_thash.h>
#include <rte_udp.h>

#include "flowsort.h"
#include "fwd_test.h"

#define NB_MBUFS  1023
#define MAX_FLOWS 1024

static struct rte_mempool *pool;

/* a flow of the model: what a packet is made of */
struct tflow {
	uint32_t src, dst; /* host order */
	uint16_t sport, dport;
	uint8_t proto;
};

static uint64_t rng_state = 1;

static uint32_t
rnd(void)
{
	/* xorshift64*: reproducible per seed, independent of libc */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/* DPDK 22.11's RTE_IPV4 shifts an int: UB for a first octet >= 128 (UBSan says so) */
#define IPV4(a, b, c, d) \
	(((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

static struct tflow
flow_n(unsigned int i)
{
	struct tflow f = {
		.src = IPV4(10, 0, (i >> 8) & 0xff, i & 0xff),
		.dst = IPV4(192, 168, 1, 1),
		.sport = (uint16_t)(1000 + i),
		.dport = 80,
		.proto = IPPROTO_UDP,
	};

	return f;
}

/* Ethernet + optional VLAN + IPv4 (+ ports for TCP/UDP), total frame of len bytes */
static struct rte_mbuf *
mk_pkt(const struct tflow *f, int vlan, uint16_t frag_off, uint16_t ip_id, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct rte_ether_hdr *eth;
	struct rte_ipv4_hdr *ip;
	uint8_t *p;
	uint16_t l3 = sizeof(*eth);

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	memset(p, 0, len);
	eth = (struct rte_ether_hdr *)p;
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	if (vlan >= 0) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16((uint16_t)vlan);
		vh->eth_proto = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		l3 += sizeof(*vh);
	}
	ip = (struct rte_ipv4_hdr *)(p + l3);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(len - l3));
	ip->next_proto_id = f->proto;
	ip->src_addr = rte_cpu_to_be_32(f->src);
	ip->dst_addr = rte_cpu_to_be_32(f->dst);
	ip->fragment_offset = rte_cpu_to_be_16(frag_off);
	ip->packet_id = rte_cpu_to_be_16(ip_id);
	ip->time_to_live = 64;
	if (f->proto == IPPROTO_UDP || f->proto == IPPROTO_TCP) {
		rte_be16_t *ports = (rte_be16_t *)(ip + 1);

		ports[0] = rte_cpu_to_be_16(f->sport);
		ports[1] = rte_cpu_to_be_16(f->dport);
	}
	return m;
}

static struct rte_mbuf *
mk_flow_pkt(unsigned int flow)
{
	struct tflow f = flow_n(flow);

	return mk_pkt(&f, -1, 0, 0, 64);
}

static void
free_pkts(struct rte_mbuf **pkts, unsigned int n)
{
	rte_pktmbuf_free_bulk(pkts, n);
}

/*
 * The one oracle: flow_of[i] is the true flow of packet i (equal ids = same
 * flow); the result in ctx must group exactly by it, stably.
 */
static int
check_grouping(const struct flowsort_ctx *ctx, uint16_t nb, struct rte_mbuf **pkts,
	const int *flow_of, uint16_t n)
{
	uint8_t seen[FLOWSORT_BURST_MAX] = {0};
	int run_of_flow[MAX_FLOWS * 2];
	unsigned int r, j, distinct = 0, total = 0;
	int ok = 1, last_first = -1;

	for (j = 0; j < RTE_DIM(run_of_flow); j++)
		run_of_flow[j] = -1;
	for (j = 0; j < n; j++) {
		if (run_of_flow[flow_of[j]] == -1) {
			run_of_flow[flow_of[j]] = -2;
			distinct++;
		}
	}
	if (nb != distinct || ctx->nb_runs != nb || ctx->nb_pkts != n) {
		printf("#   %u runs for %u flows (nb_runs %u, nb_pkts %u of %u)\n", nb, distinct,
			ctx->nb_runs, ctx->nb_pkts, n);
		return 0;
	}
	for (r = 0; r < nb; r++) {
		const struct flowsort_run *run = &ctx->runs[r];
		int prev = -1;

		if (run->count == 0 || run->first != total) {
			printf("#   run %u: first %u count %u, expected first %u\n", r, run->first,
				run->count, total);
			return 0;
		}
		total += run->count;
		if (total > n)
			return 0;
		if ((int)ctx->order[run->first] <= last_first) {
			printf("#   run %u is not in order of first appearance\n", r);
			ok = 0;
		}
		last_first = ctx->order[run->first];
		for (j = run->first; j < run->first + run->count; j++) {
			uint16_t i = ctx->order[j];
			struct flowsort_key k;

			if (i >= n || seen[i]) {
				printf("#   order is not a permutation (index %u)\n", i);
				return 0;
			}
			seen[i] = 1;
			if ((int)i <= prev) {
				printf("#   run %u: packet %u after %d, order within flow lost\n",
					r, i, prev);
				ok = 0;
			}
			prev = i;
			if (run_of_flow[flow_of[i]] >= 0 && run_of_flow[flow_of[i]] != (int)r) {
				printf("#   flow %d split over runs %d and %u\n", flow_of[i],
					run_of_flow[flow_of[i]], r);
				ok = 0;
			}
			run_of_flow[flow_of[i]] = (int)r;
			if (flow_of[i] != flow_of[ctx->order[run->first]]) {
				printf("#   run %u mixes flows %d and %d\n", r,
					flow_of[ctx->order[run->first]], flow_of[i]);
				ok = 0;
			}
			flowsort_key_extract(pkts[i], &k);
			if (!flowsort_key_eq(&k, &run->key)) {
				printf("#   run %u: key of packet %u differs from the run key\n", r,
					i);
				ok = 0;
			}
		}
	}
	return ok && total == n;
}

static struct flowsort_ctx *
ctx_new(flowsort_hash_t fn, void *arg, uint32_t flags)
{
	struct flowsort_ctx_conf c = {.hash_fn = fn, .hash_arg = arg, .flags = flags};

	return flowsort_ctx_create(&c, SOCKET_ID_ANY);
}

/* burst of n packets, packet i of flow flow_of[i]; group it and check */
static int
group_and_check(struct flowsort_ctx *ctx, const int *flow_of, uint16_t n)
{
	struct rte_mbuf *pkts[FLOWSORT_BURST_MAX];
	uint16_t i, nb;
	int ok;

	for (i = 0; i < n; i++) {
		pkts[i] = mk_flow_pkt((unsigned int)flow_of[i]);
		if (pkts[i] == NULL) {
			free_pkts(pkts, i);
			return 0;
		}
	}
	nb = flowsort_group(ctx, pkts, n);
	ok = check_grouping(ctx, nb, pkts, flow_of, n);
	free_pkts(pkts, n);
	return ok;
}

static void
test_trains(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	static const uint16_t flows[] = {1, 2, 3, 4, 8, 16, 32, 64};
	int flow_of[FLOWSORT_BURST_MAX];
	unsigned int f, i;

	CHECK(ctx != NULL);
	for (f = 0; f < RTE_DIM(flows); f++) {
		uint16_t n = 64;

		for (i = 0; i < n; i++)
			flow_of[i] = (int)(i / (n / flows[f]));
		CHECK(group_and_check(ctx, flow_of, n));
		/* trains that come back: A A B B A A B B */
		for (i = 0; i < n; i++)
			flow_of[i] = (int)((i / 2) % flows[f]);
		CHECK(group_and_check(ctx, flow_of, n));
	}
	flowsort_ctx_free(ctx);
}

static void
test_round_robin(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	int flow_of[FLOWSORT_BURST_MAX];
	unsigned int f, i;

	CHECK(ctx != NULL);
	for (f = 1; f <= 64; f *= 2) {
		for (i = 0; i < 64; i++)
			flow_of[i] = (int)(i % f);
		CHECK(group_and_check(ctx, flow_of, 64));
	}
	/* largest burst, 3 flows interleaved */
	for (i = 0; i < FLOWSORT_BURST_MAX; i++)
		flow_of[i] = (int)(i % 3);
	CHECK(group_and_check(ctx, flow_of, FLOWSORT_BURST_MAX));
	flowsort_ctx_free(ctx);
}

static void
test_random(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	int flow_of[FLOWSORT_BURST_MAX];
	unsigned int seed, i, bad = 0;

	CHECK(ctx != NULL);
	for (seed = 1; seed <= 300; seed++) {
		uint16_t n = (uint16_t)(1 + seed % FLOWSORT_BURST_MAX);
		unsigned int nflows;

		rng_state = seed * 0x9e3779b97f4a7c15ULL;
		nflows = 1 + rnd() % 40;
		n = (uint16_t)(seed % 3 == 0 ? 64 : n);
		for (i = 0; i < n; i++)
			flow_of[i] = (int)(rnd() % nflows);
		if (!group_and_check(ctx, flow_of, n)) {
			printf("#   seed %u failed\n", seed);
			bad++;
		}
	}
	CHECK_EQ(bad, 0);
	flowsort_ctx_free(ctx);
}

static void
test_all_distinct_all_same(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	int flow_of[FLOWSORT_BURST_MAX];
	unsigned int i;

	CHECK(ctx != NULL);
	for (i = 0; i < FLOWSORT_BURST_MAX; i++)
		flow_of[i] = (int)i;
	CHECK(group_and_check(ctx, flow_of, FLOWSORT_BURST_MAX));
	for (i = 0; i < FLOWSORT_BURST_MAX; i++)
		flow_of[i] = 7;
	CHECK(group_and_check(ctx, flow_of, FLOWSORT_BURST_MAX));
	CHECK_EQ(ctx->nb_runs, 1);
	CHECK_EQ(ctx->runs[0].count, FLOWSORT_BURST_MAX);
	flow_of[0] = 3;
	CHECK(group_and_check(ctx, flow_of, 1));
	flowsort_ctx_free(ctx);
}

struct hash_probe {
	unsigned int calls;
	uint32_t modulo;
};

static uint32_t
hash_collide(const struct flowsort_key *key, void *arg)
{
	struct hash_probe *hp = arg;

	hp->calls++;
	/* modulo 1: every key collides; else a handful of buckets */
	return hp->modulo == 1 ? 0xdeadbeef : rte_be_to_cpu_16(key->src_port) % hp->modulo;
}

static void
test_collisions(void)
{
	struct hash_probe hp = {.modulo = 1};
	struct flowsort_ctx *ctx = ctx_new(hash_collide, &hp, 0);
	int flow_of[FLOWSORT_BURST_MAX];
	unsigned int i, seed, m;

	CHECK(ctx != NULL);
	for (m = 1; m <= 3; m++) {
		hp.modulo = m;
		for (i = 0; i < 64; i++)
			flow_of[i] = (int)(i % 16);
		CHECK(group_and_check(ctx, flow_of, 64));
		for (i = 0; i < FLOWSORT_BURST_MAX; i++)
			flow_of[i] = (int)i;
		CHECK(group_and_check(ctx, flow_of, FLOWSORT_BURST_MAX));
		for (seed = 1; seed <= 20; seed++) {
			rng_state = seed;
			for (i = 0; i < 64; i++)
				flow_of[i] = (int)(rnd() % 24);
			CHECK(group_and_check(ctx, flow_of, 64));
		}
	}
	/* the injected hash is really used (once per new run head) */
	CHECK(hp.calls > 0);
	flowsort_ctx_free(ctx);
}

/* a stand-in for the NIC: Toeplitz over src, dst, ports, as RSS does */
static uint32_t
nic_rss(const struct rte_mbuf *m, uint32_t *colliding)
{
	static const uint8_t rss_key[40] = {0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41,
		0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30,
		0xb4, 0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe,
		0xac, 0x01, 0xfa};
	struct flowsort_key k;
	uint32_t tuple[3];

	if (colliding != NULL)
		return *colliding;
	flowsort_key_extract(m, &k);
	tuple[0] = rte_be_to_cpu_32(k.src_addr);
	tuple[1] = rte_be_to_cpu_32(k.dst_addr);
	tuple[2] = ((uint32_t)rte_be_to_cpu_16(k.src_port) << 16) | rte_be_to_cpu_16(k.dst_port);
	return rte_softrss(tuple, 3, rss_key);
}

static void
test_rss_vs_sw(void)
{
	struct flowsort_ctx *sw = ctx_new(NULL, NULL, 0);
	struct flowsort_ctx *rss = ctx_new(NULL, NULL, 0);
	struct flowsort_ctx *norss = ctx_new(NULL, NULL, FLOWSORT_F_NO_RSS);
	struct rte_mbuf *pkts[64];
	int flow_of[64];
	unsigned int seed, i;
	uint32_t same = 0x5a5a5a5a;

	CHECK(sw != NULL && rss != NULL && norss != NULL);
	for (seed = 1; seed <= 30; seed++) {
		uint16_t nb_sw, nb_rss, nb_norss;

		rng_state = seed;
		for (i = 0; i < 64; i++) {
			flow_of[i] = (int)(rnd() % (1 + seed % 20));
			pkts[i] = mk_flow_pkt((unsigned int)flow_of[i]);
		}
		nb_sw = flowsort_group(sw, pkts, 64);
		for (i = 0; i < 64; i++) {
			pkts[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
			/* the last seeds: the "NIC" gives every packet the same hash */
			pkts[i]->hash.rss = nic_rss(pkts[i], seed > 25 ? &same : NULL);
		}
		nb_rss = flowsort_group(rss, pkts, 64);
		nb_norss = flowsort_group(norss, pkts, 64);
		CHECK(check_grouping(rss, nb_rss, pkts, flow_of, 64));
		CHECK(check_grouping(norss, nb_norss, pkts, flow_of, 64));
		CHECK_EQ(nb_sw, nb_rss);
		CHECK(memcmp(sw->order, rss->order, sizeof(sw->order[0]) * 64) == 0);
		for (i = 0; i < nb_rss && i < nb_sw; i++) {
			CHECK_EQ(sw->runs[i].first, rss->runs[i].first);
			CHECK_EQ(sw->runs[i].count, rss->runs[i].count);
			/* which hash was used shows which path ran */
			CHECK_EQ(rss->runs[i].hash, pkts[rss->order[rss->runs[i].first]]->hash.rss);
			CHECK_EQ(sw->runs[i].hash, flowsort_hash_sw(&sw->runs[i].key));
			CHECK_EQ(norss->runs[i].hash, flowsort_hash_sw(&norss->runs[i].key));
		}
		free_pkts(pkts, 64);
	}
	flowsort_ctx_free(sw);
	flowsort_ctx_free(rss);
	flowsort_ctx_free(norss);
}

/*
 * Real NICs hash a first fragment with its ports and the next ones without,
 * and hash IPv6 by its own addresses: RSS values that differ inside one key.
 * Such keys must not trust the RSS hash, or one key would split in two runs.
 */
static void
test_rss_untrusted_keys(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	struct tflow f = flow_n(4);
	struct rte_mbuf *pkts[12];
	int flow_of[12];
	uint16_t i, nb;

	CHECK(ctx != NULL);
	for (i = 0; i < 12; i++) {
		/* 0, 3, 6, 9: fragments of datagram 9; 1, 4, 7, 10: IPv6; others: the flow */
		switch (i % 3) {
		case 0:
			pkts[i] = mk_pkt(&f, -1,
				i == 0 ? RTE_IPV4_HDR_MF_FLAG
				       : (uint16_t)(i | RTE_IPV4_HDR_MF_FLAG),
				9, 64);
			break;
		case 1:
			pkts[i] = mk_pkt(&f, -1, 0, 0, 64);
			rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *)->ether_type =
				rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
			break;
		default:
			pkts[i] = mk_pkt(&f, -1, 0, 0, 64);
			break;
		}
		CHECK(pkts[i] != NULL);
		flow_of[i] = i % 3;
		pkts[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		pkts[i]->hash.rss = (i % 3 == 2) ? 0x1234 : 0x1000u * i;
	}
	nb = flowsort_group(ctx, pkts, 12);
	CHECK(check_grouping(ctx, nb, pkts, flow_of, 12));
	CHECK_EQ(nb, 3);
	free_pkts(pkts, 12);
	flowsort_ctx_free(ctx);
}

/*
 * A frame whose bytes past data_len would complete a valid UDP header: a parser
 * that reads past data_len would key it as a flow instead of BAD.
 */
static struct rte_mbuf *
mk_truncated(uint16_t keep, int vlan)
{
	struct tflow f = flow_n(1);
	struct rte_mbuf *m = mk_pkt(&f, vlan, 0, 0, 64);

	if (m != NULL)
		m->data_len = m->pkt_len = keep;
	return m;
}

static void
test_malformed_and_classes(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	struct tflow udp = flow_n(1), icmp = flow_n(1);
	struct rte_mbuf *pkts[32];
	struct flowsort_key k;
	int flow_of[32];
	uint16_t n = 0, nb, i;
	static const uint16_t cuts[] = {0, 5, 13, 14, 33, 34, 35, 36, 37};

	CHECK(ctx != NULL);
	icmp.proto = IPPROTO_ICMP;
	/* every cut before the end of the ports is BAD, whatever follows in the buffer */
	for (i = 0; i < RTE_DIM(cuts); i++) {
		struct rte_mbuf *m = mk_truncated(cuts[i], -1);

		CHECK(m != NULL);
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_BAD);
		rte_pktmbuf_free(m);
	}
	{
		/* 38 bytes: the ports are just in */
		struct rte_mbuf *m = mk_truncated(38, -1);

		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_L4);
		rte_pktmbuf_free(m);
		/* VLAN frames: cut in the tag and in the ports */
		m = mk_truncated(17, 5);
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_BAD);
		rte_pktmbuf_free(m);
		m = mk_truncated(41, 5);
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_BAD);
		rte_pktmbuf_free(m);
	}
	{
		/* IHL of 15 (60 bytes) in a 64-byte frame: ports past data_len */
		struct rte_mbuf *m = mk_pkt(&udp, -1, 0, 0, 64);
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, struct rte_ipv4_hdr *, 14);

		ip->version_ihl = 0x4f;
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_BAD);
		ip->version_ihl = 0x44; /* IHL 4 < 5 */
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_BAD);
		ip->version_ihl = 0x65; /* version 6 behind an IPv4 EtherType */
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_BAD);
		ip->version_ihl = 0x46; /* one option word: ports move by 4 */
		memcpy((uint8_t *)ip + 24, (uint8_t *)ip + 20, 4);
		flowsort_key_extract(m, &k);
		CHECK_EQ(k.type, FLOWSORT_KEY_L4);
		CHECK_EQ(rte_be_to_cpu_16(k.src_port), udp.sport);
		rte_pktmbuf_free(m);
	}

	/*
	 * A burst mixing a UDP flow with its own fragments, another datagram's
	 * fragments, an ICMP flow, VLAN copies of the flow, non-IPv4 and runts.
	 * Flow ids: 0 UDP, 1 frags id 7, 2 frags id 8, 3 ICMP, 4 VLAN 5, 5 VLAN 6,
	 * 6 IPv6 class, 7 ARP class, 8 BAD class, 9 double tag (class)
	 */
#define ADD(mk, id)                  \
	do {                         \
		pkts[n] = (mk);      \
		flow_of[n++] = (id); \
	} while (0)
	ADD(mk_pkt(&udp, -1, 0, 0, 64), 0);
	ADD(mk_pkt(&udp, -1, RTE_IPV4_HDR_MF_FLAG, 7, 64), 1); /* first fragment, has ports */
	ADD(mk_pkt(&udp, -1, 0, 0, 64), 0);
	ADD(mk_pkt(&udp, -1, 3, 7, 64), 1); /* last fragment */
	ADD(mk_pkt(&udp, -1, RTE_IPV4_HDR_MF_FLAG, 8, 64), 2);
	ADD(mk_pkt(&icmp, -1, 0, 0, 64), 3);
	ADD(mk_pkt(&udp, 5, 0, 0, 64), 4);
	ADD(mk_pkt(&udp, 0x2006, 0, 0, 64), 5); /* PCP bits ignored */
	ADD(mk_truncated(20, -1), 8);
	ADD(mk_pkt(&udp, 5, 0, 0, 64), 4);
	ADD(mk_pkt(&udp, -1, 0, 0, 64), 0);
	ADD(mk_pkt(&udp, 6, 0, 0, 64), 5);
	ADD(mk_pkt(&udp, -1, 0, 0, 64), 6);
	ADD(mk_pkt(&udp, -1, 0, 0, 64), 7);
	ADD(mk_pkt(&udp, -1, 0, 0, 64), 6);
	ADD(mk_truncated(3, -1), 8);
	ADD(mk_pkt(&icmp, -1, 0, 0, 64), 3);
	ADD(mk_pkt(&udp, 9, 0, 0, 64), 9);
	ADD(mk_pkt(&udp, -1, 3, 7, 64), 1);
#undef ADD
	for (i = 0; i < n; i++)
		CHECK(pkts[i] != NULL);
	rte_pktmbuf_mtod_offset(pkts[12], struct rte_ether_hdr *, 0)->ether_type =
		rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	rte_pktmbuf_mtod_offset(pkts[13], struct rte_ether_hdr *, 0)->ether_type =
		rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
	rte_pktmbuf_mtod_offset(pkts[14], struct rte_ether_hdr *, 0)->ether_type =
		rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6);
	/* second tag inside the first: 802.1ad + 802.1Q */
	rte_pktmbuf_mtod_offset(pkts[17], struct rte_ether_hdr *, 0)->ether_type =
		rte_cpu_to_be_16(RTE_ETHER_TYPE_QINQ);
	rte_pktmbuf_mtod_offset(pkts[17], struct rte_vlan_hdr *, 14)->eth_proto =
		rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
	/* a NIC-stripped tag counts as the same VLAN as the one in the data */
	{
		struct tflow f = flow_n(1);
		struct rte_mbuf *m = mk_pkt(&f, -1, 0, 0, 64);

		rte_pktmbuf_free(pkts[11]);
		pkts[11] = m;
		m->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
		m->vlan_tci = 0x6006;
	}
	nb = flowsort_group(ctx, pkts, n);
	CHECK(check_grouping(ctx, nb, pkts, flow_of, n));
	{
		static const uint8_t type_of_flow[] = {FLOWSORT_KEY_L4, FLOWSORT_KEY_FRAG,
			FLOWSORT_KEY_FRAG, FLOWSORT_KEY_L3, FLOWSORT_KEY_L4, FLOWSORT_KEY_L4,
			FLOWSORT_KEY_NONIP, FLOWSORT_KEY_NONIP, FLOWSORT_KEY_BAD,
			FLOWSORT_KEY_NONIP};

		for (i = 0; i < nb; i++) {
			const struct flowsort_run *r = &ctx->runs[i];

			CHECK_EQ(r->key.type, type_of_flow[flow_of[ctx->order[r->first]]]);
		}
	}
	/* run 1 is datagram 7: its fragments, and nothing else, in order */
	CHECK_EQ(ctx->runs[1].count, 3);
	CHECK_EQ(ctx->order[ctx->runs[1].first + 2], 18);
	CHECK_EQ(rte_be_to_cpu_16(ctx->runs[1].key.src_port), 7);
	free_pkts(pkts, n);
	flowsort_ctx_free(ctx);
}

/* malloc'd buffers of exactly data_len bytes: run under valgrind to see any overread */
static void
test_exact_size_buffers(void)
{
	static const uint16_t lens[] = {0, 1, 13, 14, 17, 18, 33, 34, 37, 38, 41, 42};
	struct flowsort_key k;
	unsigned int i;

	for (i = 0; i < RTE_DIM(lens); i++) {
		struct tflow f = flow_n(2);
		struct rte_mbuf *src = mk_pkt(&f, (i & 1) ? 3 : -1, 0, 0, 64);
		struct rte_mbuf fake;
		uint8_t *buf = malloc(lens[i] ? lens[i] : 1);

		CHECK(src != NULL && buf != NULL);
		memcpy(buf, rte_pktmbuf_mtod(src, void *), lens[i]);
		memset(&fake, 0, sizeof(fake));
		fake.buf_addr = buf;
		fake.data_off = 0;
		fake.data_len = lens[i];
		fake.pkt_len = lens[i];
		fake.nb_segs = 1;
		flowsort_key_extract(&fake, &k);
		/* untagged: ports end at 38; tagged: at 42 */
		CHECK_EQ(k.type,
			lens[i] >= ((i & 1) ? 42 : 38) ? FLOWSORT_KEY_L4 : FLOWSORT_KEY_BAD);
		free(buf);
		rte_pktmbuf_free(src);
	}
}

/* feed one burst of n packets of `flows` distinct flows, round-robin; return the call's result */
/* feed() through flowsort_burst_keys() instead of flowsort_burst() */
static int feed_with_keys;

static uint16_t
feed(struct flowsort_ctx *ctx, struct flowsort_queue *q, unsigned int flows, uint16_t n,
	unsigned int base)
{
	struct rte_mbuf *pkts[FLOWSORT_BURST_MAX];
	int flow_of[FLOWSORT_BURST_MAX];
	uint16_t i, nb;

	for (i = 0; i < n; i++) {
		flow_of[i] = (int)(i % flows);
		pkts[i] = mk_flow_pkt(base + (unsigned int)flow_of[i]);
	}
	if (feed_with_keys) {
		struct flowsort_key keys[FLOWSORT_BURST_MAX];

		for (i = 0; i < n; i++)
			flowsort_key_extract(pkts[i], &keys[i]);
		nb = flowsort_burst_keys(ctx, q, pkts, keys, n);
	} else {
		nb = flowsort_burst(ctx, q, pkts, n);
	}
	if (nb > 0 && !check_grouping(ctx, nb, pkts, flow_of, n)) {
		printf("#   grouping wrong in feed(%u flows)\n", flows);
		fwd_test_case_failed = 1;
	}
	free_pkts(pkts, n);
	return nb;
}

static void
test_bypass(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	struct flowsort_queue *q = flowsort_queue_create(NULL, SOCKET_ID_ANY);
	struct flowsort_stats st;
	unsigned int b, to_off = 0, to_on = 0, returned = 0;

	CHECK(ctx != NULL && q != NULL);
	CHECK(!flowsort_queue_is_off(q));
	/* every packet its own flow: must turn off, quickly */
	for (b = 0; b < 100 && !flowsort_queue_is_off(q); b++)
		feed(ctx, q, 64, 64, b * 64);
	to_off = b;
	CHECK(flowsort_queue_is_off(q));
	CHECK(to_off <= 12);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.turned_off, 1);
	CHECK_EQ(st.bursts_sorted, to_off);
	/*
	 * Stays off under the same traffic; probes after gaps of 16, 32, 64, 128,
	 * 256, 256: bursts 16, 48, 112, 240, 496, 752.
	 */
	flowsort_queue_stats_reset(q);
	for (b = 0; b < 752; b++)
		returned += feed(ctx, q, 16, 16, b * 64) > 0;
	flowsort_queue_stats_get(q, &st);
	CHECK(flowsort_queue_is_off(q));
	CHECK_EQ(st.probes, 6);
	CHECK_EQ(returned, 6);
	CHECK_EQ(st.bursts_bypassed, 752 - 6);
	CHECK_EQ(st.pkts_bypassed, (752 - 6) * 16);
	CHECK_EQ(st.bursts_sorted, 6);
	CHECK_EQ(st.groups, 6 * 16);
	CHECK_EQ(st.turned_on, 0);
	/* trains come back (8 flows x 8): on again at the next probe, 256 bursts away */
	for (b = 0; b < 400 && flowsort_queue_is_off(q); b++)
		feed(ctx, q, 8, 64, 0);
	to_on = b;
	CHECK(!flowsort_queue_is_off(q));
	CHECK_EQ(to_on, 256);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.turned_on, 1);
	for (b = 0; b < 50; b++)
		CHECK_EQ(feed(ctx, q, 8, 64, 0), 8);
	CHECK(!flowsort_queue_is_off(q));
	/* off again: the probe gap starts from 16 again */
	for (b = 0; b < 40 && !flowsort_queue_is_off(q); b++)
		feed(ctx, q, 64, 64, b * 64);
	CHECK(flowsort_queue_is_off(q));
	for (b = 0; b < 16 && flowsort_queue_is_off(q); b++)
		feed(ctx, q, 4, 64, 0);
	CHECK_EQ(b, 16);
	CHECK(!flowsort_queue_is_off(q));
	printf("#   off after %u bursts, on after %u\n", to_off, to_on);
	flowsort_queue_free(q);
	flowsort_ctx_free(ctx);
}

/* made-up costs per packet of the two ways, reported whenever flowsort asks */
struct fake_cost {
	uint32_t grouped, ungrouped;
	unsigned int timed; /* bursts flowsort asked to time */
};

/* one burst of `flows` flows round-robin in 64 packets; 1 if it was grouped */
static int
feed_cost(struct flowsort_ctx *ctx, struct flowsort_queue *q, unsigned int flows, unsigned int base,
	struct fake_cost *fc)
{
	int grouped = feed(ctx, q, flows, 64, base) > 0;

	if (flowsort_queue_timed(q)) {
		fc->timed++;
		flowsort_queue_cost(q, (uint64_t)(grouped ? fc->grouped : fc->ungrouped) * 64, 64);
	}
	return grouped;
}

/* bursts of 8 flows x 8 (long groups) until the cost switches; the bursts it took */
static unsigned int
until_switch(
	struct flowsort_ctx *ctx, struct flowsort_queue *q, struct fake_cost *fc, unsigned int max)
{
	struct flowsort_stats st;
	uint64_t sw;
	unsigned int b;

	flowsort_queue_stats_get(q, &st);
	sw = st.cost_switches;
	for (b = 1; b <= max; b++) {
		feed_cost(ctx, q, 8, 0, fc);
		flowsort_queue_stats_get(q, &st);
		if (st.cost_switches != sw)
			return b;
	}
	return b;
}

/* n bursts of 8 flows x 8: how many were grouped; probes of the other way in *probes */
static unsigned int
count_grouped(struct flowsort_ctx *ctx, struct flowsort_queue *q, struct fake_cost *fc,
	unsigned int n, unsigned int *probes)
{
	struct flowsort_stats s0, s1;
	unsigned int b, grouped = 0;

	flowsort_queue_stats_get(q, &s0);
	for (b = 0; b < n; b++)
		grouped += (unsigned int)feed_cost(ctx, q, 8, 0, fc);
	flowsort_queue_stats_get(q, &s1);
	*probes = (unsigned int)(s1.cost_probes - s0.cost_probes);
	return grouped;
}

/*
 * Auto mode by cost: long groups (8 packets) that are expensive to group
 * make it bypass, and grouping again once it pays; the other way is tried
 * one burst in 64; a preempted burst or a difference under 1/32 flips nothing.
 */
static void
test_cost_choice(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	struct flowsort_queue *q = flowsort_queue_create(
		&(struct flowsort_queue_conf){.mode = FLOWSORT_MODE_AUTO, .by_cost = 1},
		SOCKET_ID_ANY);
	struct flowsort_queue *plain = flowsort_queue_create(NULL, SOCKET_ID_ANY);
	struct fake_cost fc = {.grouped = 30, .ungrouped = 20};
	struct flowsort_stats st;
	unsigned int b, n, probes, grouped;

	CHECK(ctx != NULL && q != NULL && plain != NULL);
	if (ctx == NULL || q == NULL || plain == NULL)
		return;
	/* grouping costs more: off within the first measures of both ways */
	n = until_switch(ctx, q, &fc, 64);
	CHECK(n <= 16);
	grouped = count_grouped(ctx, q, &fc, 256, &probes);
	/* only the tries of the other way are grouped; groups are long, the length gate is on */
	CHECK_EQ(probes, 4);
	CHECK_EQ(grouped, probes);
	CHECK(!flowsort_queue_is_off(q));
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.cost_switches, 1);
	CHECK_EQ(st.turned_off, 0);
	/* grouping pays again: back within three tries of it */
	fc.grouped = 10;
	n = until_switch(ctx, q, &fc, 1000);
	CHECK(n <= 3 * 64);
	grouped = count_grouped(ctx, q, &fc, 256, &probes);
	CHECK_EQ(probes, 4);
	CHECK_EQ(grouped, 256 - probes);
	/* one way is timed one burst in 8, plus the tries */
	fc.timed = 0;
	count_grouped(ctx, q, &fc, 512, &probes);
	CHECK(fc.timed >= 512 / 8 && fc.timed <= 512 / 8 + probes + 1);
	/* a preempted burst of the way taken (100x its cost) flips nothing */
	for (b = 0; b < 64; b++) {
		int g = feed(ctx, q, 8, 64, 0) > 0;

		if (flowsort_queue_timed(q) && g) {
			flowsort_queue_cost(q, 1000 * 64, 64);
			break;
		}
		if (flowsort_queue_timed(q))
			flowsort_queue_cost(q, (uint64_t)fc.ungrouped * 64, 64);
	}
	CHECK(b < 64);
	grouped = count_grouped(ctx, q, &fc, 128, &probes);
	CHECK_EQ(grouped, 128 - probes);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.cost_switches, 2);
	/* a report nobody asked for is dropped */
	flowsort_queue_cost(q, 1, 64);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.cost_switches, 2);
	/* within 1/32: hysteresis keeps the way taken, in both directions */
	flowsort_queue_set_mode(q, FLOWSORT_MODE_AUTO);
	fc.grouped = 100;
	fc.ungrouped = 98;
	grouped = count_grouped(ctx, q, &fc, 1000, &probes);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.cost_switches, 2);
	CHECK_EQ(grouped, 1000 - probes);
	fc.ungrouped = 90;
	CHECK(until_switch(ctx, q, &fc, 1000) <= 64);
	fc.grouped = 88;
	grouped = count_grouped(ctx, q, &fc, 1000, &probes);
	CHECK_EQ(grouped, probes);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.cost_switches, 3);
	fc.grouped = 80;
	CHECK(until_switch(ctx, q, &fc, 1000) <= 2 * 64);
	/* without by_cost: never asks for a time, groups long groups, never tries */
	fc.timed = 0;
	for (b = 0; b < 300; b++)
		CHECK_EQ(feed_cost(ctx, plain, 8, 0, &fc), 1);
	flowsort_queue_stats_get(plain, &st);
	CHECK_EQ(fc.timed, 0);
	CHECK_EQ(st.cost_probes, 0);
	CHECK_EQ(st.bursts_sorted, 300);
	flowsort_queue_free(plain);
	flowsort_queue_free(q);
	flowsort_ctx_free(ctx);
}

/*
 * The group-length gate still rules by_cost: short groups turn grouping off
 * even while cost says ungrouped (its tries measure the groups), and when
 * long groups come back grouping restarts with both costs forgotten.
 */
static void
test_cost_and_length(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	struct flowsort_queue *q = flowsort_queue_create(
		&(struct flowsort_queue_conf){.mode = FLOWSORT_MODE_AUTO, .by_cost = 1},
		SOCKET_ID_ANY);
	struct fake_cost fc = {.grouped = 30, .ungrouped = 20};
	struct flowsort_stats st;
	unsigned int b, timed_off;

	CHECK(ctx != NULL && q != NULL);
	if (ctx == NULL || q == NULL)
		return;
	CHECK(until_switch(ctx, q, &fc, 64) <= 16);
	/* every packet its own flow: only the cost tries group, and they turn it off */
	for (b = 0; b < 64 * 12 && !flowsort_queue_is_off(q); b++)
		feed_cost(ctx, q, 64, b * 64, &fc);
	CHECK(flowsort_queue_is_off(q));
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.turned_off, 1);
	CHECK(st.cost_probes >= 4);
	/* while off by length nothing is timed */
	timed_off = fc.timed;
	for (b = 0; b < 100; b++)
		feed_cost(ctx, q, 64, b * 64, &fc);
	CHECK_EQ(fc.timed, timed_off);
	/* long groups again: on at a length probe, grouped from then on (but the tries) */
	for (b = 0; b < 400 && flowsort_queue_is_off(q); b++)
		feed_cost(ctx, q, 8, 0, &fc);
	CHECK(!flowsort_queue_is_off(q));
	fc.grouped = 10;
	for (b = 0; b < 200; b++)
		CHECK_EQ(feed_cost(ctx, q, 8, 0, &fc), b % 64 != 3);
	flowsort_queue_stats_get(q, &st);
	CHECK_EQ(st.turned_on, 1);
	CHECK_EQ(st.cost_switches, 1);
	flowsort_queue_free(q);
	flowsort_ctx_free(ctx);
}

static void
test_hysteresis_and_modes(void)
{
	struct flowsort_ctx *ctx = ctx_new(NULL, NULL, 0);
	struct flowsort_queue_conf c = {.mode = FLOWSORT_MODE_AUTO};
	struct flowsort_queue *q = flowsort_queue_create(&c, SOCKET_ID_ANY);
	struct rte_mbuf *big[FLOWSORT_BURST_MAX + 1];
	unsigned int b, i;

	CHECK(ctx != NULL && q != NULL);
	/* 48 flows in 64 packets: mean 1.33, between off (1.2) and on (1.5) */
	for (b = 0; b < 200; b++)
		feed(ctx, q, 48, 64, 0);
	CHECK(!flowsort_queue_is_off(q)); /* was on: stays on */
	for (b = 0; b < 50; b++)
		feed(ctx, q, 64, 64, 0);
	CHECK(flowsort_queue_is_off(q));
	for (b = 0; b < 200; b++)
		feed(ctx, q, 48, 64, 0);
	CHECK(flowsort_queue_is_off(q)); /* was off: stays off */

	CHECK_EQ(flowsort_queue_set_mode(q, FLOWSORT_MODE_ON), 0);
	for (b = 0; b < 50; b++)
		CHECK_EQ(feed(ctx, q, 64, 64, 0), 64);
	CHECK_EQ(flowsort_queue_set_mode(q, FLOWSORT_MODE_OFF), 0);
	CHECK(flowsort_queue_is_off(q));
	CHECK_EQ(feed(ctx, q, 1, 64, 0), 0);
	CHECK_EQ(flowsort_queue_set_mode(q, FLOWSORT_MODE_AUTO), 0);
	CHECK(!flowsort_queue_is_off(q));
	CHECK_EQ(feed(ctx, q, 1, 64, 0), 1);
	CHECK_EQ(flowsort_queue_set_mode(q, (enum flowsort_mode)9), -EINVAL);
	/* short bursts and over-long bursts are not grouped */
	CHECK_EQ(feed(ctx, q, 1, 3, 0), 0);
	for (i = 0; i < RTE_DIM(big); i++)
		big[i] = mk_flow_pkt(0);
	CHECK_EQ(flowsort_burst(ctx, q, big, RTE_DIM(big)), 0);
	CHECK_EQ(flowsort_burst(ctx, q, big, FLOWSORT_BURST_MAX), 1);
	free_pkts(big, RTE_DIM(big));
	flowsort_queue_free(q);

	/* bad configurations */
	c.off_below = 400;
	c.on_at = 300;
	CHECK(flowsort_queue_create(&c, SOCKET_ID_ANY) == NULL);
	c.off_below = 0;
	c.on_at = 0;
	c.probe_every = 64;
	c.probe_max = 32;
	CHECK(flowsort_queue_create(&c, SOCKET_ID_ANY) == NULL);
	c.probe_every = 0;
	c.probe_max = 0;
	c.mode = (enum flowsort_mode)7;
	CHECK(flowsort_queue_create(&c, SOCKET_ID_ANY) == NULL);
	{
		struct flowsort_ctx_conf cc = {.flags = 0x80};

		CHECK(flowsort_ctx_create(&cc, SOCKET_ID_ANY) == NULL);
	}
	flowsort_ctx_free(NULL);
	flowsort_queue_free(NULL);
	flowsort_ctx_free(ctx);
}

static void
test_no_leak_between_bursts(void)
{
	struct hash_probe hp = {.modulo = 1};
	/* every key in one bucket: any stale slot would be probed and could match */
	struct flowsort_ctx *ctx = ctx_new(hash_collide, &hp, 0);
	int flow_of[FLOWSORT_BURST_MAX];
	unsigned int i, b;

	CHECK(ctx != NULL);
	for (i = 0; i < 200; i++)
		flow_of[i] = (int)i;
	CHECK(group_and_check(ctx, flow_of, 200));
	/* a burst of other flows and one old flow: no group from the last burst shows up */
	for (i = 0; i < 30; i++)
		flow_of[i] = (int)(500 + i % 3);
	flow_of[7] = 5;
	CHECK(group_and_check(ctx, flow_of, 30));
	CHECK_EQ(ctx->nb_runs, 4);
	CHECK_EQ(ctx->table_used, 0);
	/* the same with more groups than the small path takes: through the table */
	for (i = 0; i < 30; i++)
		flow_of[i] = (int)(500 + i % (FLOWSORT_SMALL_GROUPS + 3));
	flow_of[7] = 5;
	CHECK(group_and_check(ctx, flow_of, 30));
	CHECK_EQ(ctx->nb_runs, FLOWSORT_SMALL_GROUPS + 4);
	CHECK_EQ(ctx->table_used, 1);
	/*
	 * Across the generation wrap, which must wipe the table: generation 1 is
	 * current again, and the slots from the first burst still say generation 1
	 * and point at runs[] that still hold flows 4..199. Only bursts that use
	 * the table (more than FLOWSORT_SMALL_GROUPS groups) start a generation.
	 */
	ctx->gen = UINT16_MAX - 2;
	for (i = 0; i < 32; i++)
		flow_of[i] = (int)(i & 15);
	CHECK(group_and_check(ctx, flow_of, 32));
	CHECK_EQ(ctx->gen, UINT16_MAX - 1);
	for (i = 0; i < 100; i++)
		flow_of[i] = (int)i;
	CHECK(group_and_check(ctx, flow_of, 100));
	CHECK_EQ(ctx->gen, 1);
	for (b = 0; b < 8; b++) {
		for (i = 0; i < 64; i++)
			flow_of[i] = (int)((i + b) % (b + 2));
		CHECK(group_and_check(ctx, flow_of, 64));
		/* 2..9 groups: the table only for the burst with 9 */
		CHECK_EQ(ctx->table_used, b + 2 > FLOWSORT_SMALL_GROUPS);
	}
	CHECK_EQ(ctx->gen, 2);
	flowsort_ctx_free(ctx);
}

/* test_bypass() again, through flowsort_burst_keys(): the same switching */
static void
test_bypass_keys(void)
{
	feed_with_keys = 1;
	test_bypass();
	feed_with_keys = 0;
}

/*
 * The small-group path and its switch to the table: every number of groups
 * around FLOWSORT_SMALL_GROUPS, in trains, round-robin and random order, the
 * extra group appearing first, in the middle or last, with the real hash and
 * with every key in one bucket; flowsort_group_keys(), flowsort_group_runs()
 * and the stream (flowsort_stream_key() key by key) on the same keys give the
 * same result as flowsort_group().
 */
static void
test_small_groups_boundary(void)
{
	struct hash_probe hp = {.modulo = 1};
	struct flowsort_ctx *ctxs[2] = {ctx_new(NULL, NULL, 0), ctx_new(hash_collide, &hp, 0)};
	struct flowsort_queue *q = flowsort_queue_create(
		&(struct flowsort_queue_conf){.mode = FLOWSORT_MODE_ON}, SOCKET_ID_ANY);
	struct flowsort_stream st = {0};
	struct flowsort_stats ss;
	struct rte_mbuf *pkts[64];
	int flow_of[64];
	unsigned int c, g, pat, i, bad = 0, bursts = 0, sorted = 0, groups = 0;

	CHECK(ctxs[0] != NULL && ctxs[1] != NULL && q != NULL);
	for (c = 0; c < 2 && ctxs[0] != NULL && ctxs[1] != NULL && q != NULL; c++) {
		struct flowsort_ctx *ctx = ctxs[c];

		for (g = 1; g <= FLOWSORT_SMALL_GROUPS + 3; g++) {
			for (pat = 0; pat < 5; pat++) {
				const uint16_t n = 48;
				uint16_t nb, nb2;
				uint16_t order[64], group_of[64];
				uint8_t in_order;
				int same;
				struct flowsort_run runs[64];
				struct flowsort_key keys[64];
				uint16_t start[65];

				rng_state = 1 + g * 7 + pat;
				for (i = 0; i < n; i++) {
					if (pat == 0) /* trains */
						flow_of[i] = (int)(i * g / n);
					else if (pat == 1) /* round-robin */
						flow_of[i] = (int)(i % g);
					else if (pat == 2) /* random */
						flow_of[i] = (int)(rnd() % g);
					else if (pat == 3) /* the last group arrives last, once */
						flow_of[i] =
							i == n - 1 ? (int)g - 1
								   : (int)(i % RTE_MAX(g - 1, 1u));
					else /* the first groups return after the switch */
						flow_of[i] = (int)((i < n / 2 ? i : n - 1 - i) % g);
				}
				for (i = 0; i < n; i++)
					pkts[i] = mk_flow_pkt((unsigned int)flow_of[i] + 100 * g);
				nb = flowsort_group(ctx, pkts, n);
				if (!check_grouping(ctx, nb, pkts, flow_of, n)) {
					printf("#   ctx %u, %u groups, pattern %u\n", c, g, pat);
					bad++;
				}
				/* the table exactly when there are more groups than the small path takes */
				if (ctx->table_used != (nb > FLOWSORT_SMALL_GROUPS)) {
					printf("#   %u groups: table_used %u\n", nb,
						ctx->table_used);
					bad++;
				}
				memcpy(order, ctx->order, sizeof(order[0]) * n);
				memcpy(runs, ctx->runs, sizeof(runs[0]) * nb);
				in_order = ctx->in_order;
				/* from keys the caller extracted: the same groups, order and hashes */
				for (i = 0; i < n; i++)
					flowsort_key_extract(pkts[i], &keys[i]);
				nb2 = flowsort_group_keys(ctx, pkts, keys, n);
				if (nb2 != nb ||
					memcmp(order, ctx->order, sizeof(order[0]) * n) != 0 ||
					memcmp(runs, ctx->runs, sizeof(runs[0]) * nb) != 0) {
					printf("#   flowsort_group_keys differs (%u groups)\n", g);
					bad++;
				}
				/*
				 * From runs the caller cut, here one packet each (equal
				 * adjacent runs allowed): the same groups, order and hashes.
				 */
				for (i = 0; i <= n; i++)
					start[i] = (uint16_t)i;
				nb2 = flowsort_group_runs(ctx, pkts, keys, start, n);
				if (nb2 != nb ||
					memcmp(order, ctx->order, sizeof(order[0]) * n) != 0 ||
					memcmp(runs, ctx->runs, sizeof(runs[0]) * nb) != 0 ||
					ctx->nb_in != n) {
					printf("#   flowsort_group_runs differs (%u groups)\n", g);
					bad++;
				}
				memcpy(group_of, ctx->group_of, sizeof(group_of[0]) * n);
				/*
				 * Key by key: the same groups, hashes, order, each packet's
				 * group (runs of one packet above) and contiguity; a
				 * wrong guess always looks in the table.
				 */
				CHECK(flowsort_stream_begin(ctx, q, n, &st));
				for (i = 0; i < n; i++)
					flowsort_stream_key(ctx, &st, pkts[i], &keys[i]);
				nb2 = flowsort_stream_end(ctx, q, &st);
				same = nb2 == nb &&
				       memcmp(order, ctx->order, sizeof(order[0]) * n) == 0 &&
				       memcmp(runs, ctx->runs, sizeof(runs[0]) * nb) == 0;
				same = same &&
				       !memcmp(group_of, ctx->group_of, n * sizeof(group_of[0]));
				if (!same || ctx->in_order != in_order || !ctx->table_used ||
					ctx->nb_in != n || ctx->nb_pkts != n) {
					printf("#   flowsort_stream_key differs (%u groups, pattern %u)\n",
						g, pat);
					bad++;
				}
				bursts++;
				sorted += n;
				groups += nb;
				/* every packet's group, through group_of[] and the runs */
				for (i = 0; i < n; i++) {
					const struct flowsort_run *rn =
						&ctx->runs[ctx->group_of[i]];

					if (flow_of[i] != flow_of[ctx->order[rn->first]]) {
						printf("#   group_of[%u] names another flow\n", i);
						bad++;
					}
				}
				free_pkts(pkts, n);
			}
		}
	}
	CHECK_EQ(bad, 0);
	/* one hash per group, never per packet, while the small path holds */
	hp.calls = 0;
	for (i = 0; i < 64; i++)
		flow_of[i] = (int)(i % FLOWSORT_SMALL_GROUPS);
	CHECK(group_and_check(ctxs[1], flow_of, 64));
	CHECK_EQ(hp.calls, FLOWSORT_SMALL_GROUPS);
	/* the stream counts each burst as grouped, as flowsort_burst() does */
	if (q != NULL) {
		flowsort_queue_stats_get(q, &ss);
		CHECK_EQ(ss.bursts_sorted, bursts);
		CHECK_EQ(ss.pkts_sorted, sorted);
		CHECK_EQ(ss.groups, groups);
		CHECK_EQ(ss.bursts_bypassed, 0);
	}
	/*
	 * Hashes once per group, and once per wrong guess of a group seen
	 * before: flows taking turns (A B C D A: the second A), and trains.
	 */
	if (ctxs[1] != NULL && q != NULL) {
		struct flowsort_key k;

		for (pat = 0; pat < 2; pat++) {
			hp.calls = 0;
			for (i = 0; i < 64; i++)
				pkts[i] = mk_flow_pkt(pat == 0 ? i % 4 : i / 16);
			CHECK(flowsort_stream_begin(ctxs[1], q, 64, &st));
			for (i = 0; i < 64; i++) {
				flowsort_key_extract(pkts[i], &k);
				flowsort_stream_key(ctxs[1], &st, pkts[i], &k);
			}
			CHECK_EQ(flowsort_stream_end(ctxs[1], q, &st), 4);
			CHECK_EQ(hp.calls, pat == 0 ? 5 : 4);
			/* taking turns: scattered groups; trains: contiguous */
			CHECK_EQ(ctxs[1]->in_order, pat == 1);
			for (i = 0; i < 64; i++)
				bad += ctxs[1]->group_of[i] != (pat == 0 ? i % 4 : i / 16);
			free_pkts(pkts, 64);
		}
		CHECK_EQ(bad, 0);
		/* no key given (the caller dropped every packet): no groups, not counted */
		flowsort_queue_stats_get(q, &ss);
		CHECK(flowsort_stream_begin(ctxs[1], q, 8, &st));
		CHECK_EQ(flowsort_stream_end(ctxs[1], q, &st), 0);
		bursts = (unsigned int)ss.bursts_sorted;
		flowsort_queue_stats_get(q, &ss);
		CHECK_EQ(ss.bursts_sorted, bursts);
		CHECK_EQ(ss.bursts_bypassed, 0);
		/* off, or under min_burst: not grouped, counted as bypassed */
		CHECK(!flowsort_stream_begin(ctxs[1], q, 3, &st));
		CHECK_EQ(flowsort_queue_set_mode(q, FLOWSORT_MODE_OFF), 0);
		CHECK(!flowsort_stream_begin(ctxs[1], q, 32, &st));
		flowsort_queue_stats_get(q, &ss);
		CHECK_EQ(ss.bursts_bypassed, 2);
		CHECK_EQ(ss.pkts_bypassed, 35);
	}
	flowsort_queue_free(q);
	flowsort_ctx_free(ctxs[0]);
	flowsort_ctx_free(ctxs[1]);
}

/* flowsort_key_ipv4() on a header the caller checked gives flowsort_key_extract()'s key. */
/* flowsort_key_eq(): every field counts, each of the two words alone too. */
static void
test_key_eq(void)
{
	struct flowsort_key a, b;

	memset(&a, 0, sizeof(a));
	a.src_addr = RTE_BE32(0x0a000001);
	a.dst_addr = RTE_BE32(0x0a000002);
	a.src_port = RTE_BE16(1000);
	a.dst_port = RTE_BE16(53);
	a.proto = IPPROTO_UDP;
	a.type = FLOWSORT_KEY_L4;
	b = a;
	CHECK(flowsort_key_eq(&a, &b));
	b.src_port = RTE_BE16(1001); /* the same two hosts, another flow */
	CHECK(!flowsort_key_eq(&a, &b));
	b = a;
	b.proto = IPPROTO_TCP;
	CHECK(!flowsort_key_eq(&a, &b));
	b = a;
	b.vlan = 5;
	CHECK(!flowsort_key_eq(&a, &b));
	b = a;
	b.dst_addr = RTE_BE32(0x0a000003);
	CHECK(!flowsort_key_eq(&a, &b));
}

static void
test_key_ipv4_same_as_extract(void)
{
	static const uint8_t protos[] = {IPPROTO_UDP, IPPROTO_TCP, IPPROTO_SCTP, IPPROTO_ICMP, 47};
	unsigned int p, v, fr, len, bad = 0, n = 0;

	for (p = 0; p < RTE_DIM(protos); p++) {
		for (v = 0; v < 3; v++) {
			for (fr = 0; fr < 3; fr++) {
				/* 34: no room for ports; 37: one byte short; 38: just enough */
				for (len = 34; len <= 64; len += (len < 38 ? 1 : 26)) {
					struct tflow f = flow_n(p * 7 + len);
					struct flowsort_key a, b;
					struct rte_mbuf *m;

					f.proto = protos[p];
					m = mk_pkt(&f, -1,
						fr == 0 ? 0 : (fr == 1 ? 0x2000 : 0x0010),
						(uint16_t)(100 + len), (uint16_t)len);
					if (m == NULL) {
						bad++;
						continue;
					}
					if (v > 0) {
						/* a tag the NIC stripped, VID 5 or 0 */
						m->ol_flags |= RTE_MBUF_F_RX_VLAN_STRIPPED;
						m->vlan_tci = v == 1 ? 0xe005 : 0;
					}
					flowsort_key_extract(m, &a);
					memset(&b, 0xa5, sizeof(b));
					flowsort_key_ipv4(m, RTE_ETHER_HDR_LEN, 20,
						flowsort_key_vlan_stripped(m), &b);
					if (!flowsort_key_eq(&a, &b)) {
						printf("#   proto %u vlan %u frag %u len %u: keys differ\n",
							protos[p], v, fr, len);
						bad++;
					}
					n++;
					rte_pktmbuf_free(m);
				}
			}
		}
	}
	CHECK_EQ(bad, 0);
	CHECK(n > 100);
}

static void
test_stats_names(void)
{
	struct flowsort_stats st;
	unsigned int i;

	CHECK_EQ(FLOWSORT_NB_STATS, sizeof(st) / sizeof(uint64_t));
	for (i = 0; i < FLOWSORT_NB_STATS; i++)
		CHECK(flowsort_stats_name(i) != NULL);
	CHECK(strcmp(flowsort_stats_name(0), "bursts_sorted") == 0);
	CHECK(flowsort_stats_name(FLOWSORT_NB_STATS) == NULL);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_trains),
	FWD_TEST(test_round_robin),
	FWD_TEST(test_random),
	FWD_TEST(test_all_distinct_all_same),
	FWD_TEST(test_collisions),
	FWD_TEST(test_rss_vs_sw),
	FWD_TEST(test_rss_untrusted_keys),
	FWD_TEST(test_malformed_and_classes),
	FWD_TEST(test_exact_size_buffers),
	FWD_TEST(test_bypass),
	FWD_TEST(test_hysteresis_and_modes),
	FWD_TEST(test_cost_choice),
	FWD_TEST(test_cost_and_length),
	FWD_TEST(test_no_leak_between_bursts),
	FWD_TEST(test_stats_names),
	FWD_TEST(test_bypass_keys),
	FWD_TEST(test_small_groups_boundary),
	FWD_TEST(test_key_eq),
	FWD_TEST(test_key_ipv4_same_as_extract),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("flowsort", 64) < 0) {
		printf("1..0 # SKIP EAL init failed\n");
		return 1;
	}
	pool = rte_pktmbuf_pool_create("flowsort_test", NB_MBUFS, 0, 0, 256, SOCKET_ID_ANY);
	if (pool == NULL) {
		printf("Bail out! no mbuf pool\n");
		rte_eal_cleanup();
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return ret;
}
