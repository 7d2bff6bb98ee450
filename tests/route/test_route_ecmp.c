/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * ECMP routes (issue 17): groups shared by member set and refcounted, the
 * limits and duplicates refused, no next hop leaked when the last route
 * goes; members leaving and coming back with their neighbour, and only the
 * lost member's flows moving; the spread of many random flows over 2..16
 * members, a flow always on one member, the RSS hash deciding when given;
 * and the router-alone burst and the slow path's choice on real frames.
 */

#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "fwd_cfgfile.h"
#include "fwd_test.h"
#include "rt_burst.h"
#include "rt_config.h"
#include "rt_ecmp.h"
#include "rt_nhgroup.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"
#include "rt_worker_setup.h"

#define POOL_SIZE 2047
#define N_FLOWS   400000

static struct rte_mempool *pool;
static struct rte_ring *punt;
static unsigned int n_tables;

static const struct rte_ether_addr mac_host = {{0x02, 0, 0, 0, 0x0a, 0x09}};

/* Gateway k (1..RT_ECMP_MAX + 1) is 10.0.1.(10 + k), MAC 02:00:00:00:01:k. */
static uint32_t
gw_ip(unsigned int k)
{
	return IP4(10, 0, 1, 10 + k);
}

static struct rte_ether_addr
gw_mac(unsigned int k)
{
	struct rte_ether_addr a = {{0x02, 0, 0, 0, 0x01, (uint8_t)k}};

	return a;
}

static struct rt_table *
mk_table(void)
{
	char name[32];

	snprintf(name, sizeof(name), "rt_ecmp%u", n_tables++);
	return rt_test_table_make(
		&(struct rt_table_params){.name = name, .socket = SOCKET_ID_ANY, .max_nh = 64},
		true);
}

/* Static neighbours for gateways 1..n. */
static int
add_neighs(struct rt_table *t, unsigned int n)
{
	char err[RT_ERR_LEN];
	unsigned int k;

	for (k = 1; k <= n; k++) {
		struct rte_ether_addr mac = gw_mac(k);

		if (rt_neigh_static_add(t, gw_ip(k), &mac, err, sizeof(err)) != 0) {
			printf("#   %s\n", err);
			return -1;
		}
	}
	return 0;
}

static void
hops_of(struct rt_hop *h, unsigned int n, unsigned int first)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		h[i].gw = gw_ip(first + i);
		h[i].port = -1;
	}
}

/* Next hops in use (a reference held): a leak shows as a count that does not come back. */
static unsigned int
nh_in_use(const struct rt_table *t)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->max_nh; i++)
		n += t->nh[i].type != RT_NH_FREE && t->nh_info[i].refcnt != 0;
	return n;
}

/* The member (1..16, by gateway) of @p t's group next hop @p g for @p hash. */
static unsigned int
member_k(const struct rt_table *t, uint32_t g, uint32_t hash)
{
	const uint32_t m = rt_ecmp_member(&t->nh[g], hash);

	return t->nh_info[m].ip - gw_ip(0);
}

static void
test_group_sharing(void)
{
	struct rt_table *t = mk_table();
	struct rt_hop h[4], r[4];
	char err[RT_ERR_LEN];
	uint32_t g1, g2, g3, mem[RT_ECMP_MAX];
	unsigned int before, i;

	if (t == NULL || add_neighs(t, 4) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	before = nh_in_use(t);
	hops_of(h, 3, 1);
	for (i = 0; i < 3; i++)
		r[i] = h[2 - i];
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 3, err, sizeof(err)),
		0);
	/* the same set in another order: the same group */
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 19, 0, 0), 16, r, 3, err, sizeof(err)),
		0);
	g1 = rt_route_lookup(t, IP4(198, 18, 1, 1));
	g2 = rt_route_lookup(t, IP4(198, 19, 1, 1));
	CHECK_EQ(t->nh[g1].type, RT_NH_GROUP);
	CHECK_EQ(g1, g2);
	CHECK_EQ(t->nh_info[g1].refcnt, 2);
	CHECK_EQ(rt_nhgroup_members(t, g1, mem, NULL), 3);
	/* members by address, each referenced by the group */
	for (i = 0; i < 3; i++)
		CHECK_EQ(t->nh_info[mem[i]].ip, gw_ip(1 + i));
	CHECK_EQ(t->nh_info[mem[0]].refcnt, 3); /* static entry, its /32, the group */
	/* another set: another group */
	hops_of(h, 2, 3);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 20, 0, 0), 16, h, 2, err, sizeof(err)),
		0);
	g3 = rt_route_lookup(t, IP4(198, 20, 1, 1));
	CHECK(g3 != g1);
	CHECK_EQ(t->nh[g3].type, RT_NH_GROUP);
	CHECK_EQ(t->nh[g3].set->n_members, 2);
	CHECK_EQ(nh_in_use(t), before + 2);
	/* one hop: an ordinary route through the gateway */
	hops_of(h, 1, 4);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 21, 0, 0), 16, h, 1, err, sizeof(err)),
		0);
	CHECK_EQ(t->nh[rt_route_lookup(t, IP4(198, 21, 0, 1))].type, RT_NH_GW);
	/* a route deleted: its group stays while another uses it */
	CHECK_EQ(rt_test_del(t, IP4(198, 18, 0, 0), 16, err, sizeof(err)), 0);
	CHECK_EQ(t->nh_info[g1].refcnt, 1);
	CHECK_EQ(t->nh[g1].type, RT_NH_GROUP);
	CHECK_EQ(rt_route_lookup(t, IP4(198, 19, 0, 1)), g1);
	rt_table_free(t);
}

static void
test_limits_and_duplicates(void)
{
	struct rt_table *t = mk_table();
	struct rt_hop h[RT_ECMP_MAX + 1];
	char err[RT_ERR_LEN];
	unsigned int before;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	before = nh_in_use(t);
	hops_of(h, RT_ECMP_MAX + 1, 1);
	CHECK_EQ(rt_test_set_multi(t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, RT_ECMP_MAX + 1,
			 err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "17 next hops");
	CHECK_CONTAINS(err, "RT_ECMP_MAX");
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 0, err, sizeof(err)),
		-EINVAL);
	/* a duplicate, anywhere in the list */
	h[5].gw = h[2].gw;
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 8, err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "10.0.1.13 given twice");
	/* each hop checked as a gateway is */
	hops_of(h, 4, 1);
	h[3].gw = IP4(10, 9, 9, 9);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 4, err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "10.9.9.9 is not on any connected network");
	h[3].gw = IP4(10, 0, 1, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 4, err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "router's own address");
	h[3].gw = gw_ip(4);
	h[3].port = 0;
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 4, err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "not port 0's");
	h[3].port = 1;
	/* the prefix checks of rt_test_add() */
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 1), 16, h, 4, err, sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "host bits");
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(10, 0, 0, 0), 24, h, 4, err, sizeof(err)),
		-EEXIST);
	/* nothing refused kept a next hop */
	CHECK_EQ(nh_in_use(t), before);
	/* sixteen is the limit, and fine */
	hops_of(h, RT_ECMP_MAX, 1);
	CHECK_EQ(rt_test_set_multi(t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, RT_ECMP_MAX, err,
			 sizeof(err)),
		0);
	CHECK_EQ(t->nh[rt_route_lookup(t, IP4(198, 18, 0, 1))].set->n_members, RT_ECMP_MAX);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 2, err, sizeof(err)),
		-EEXIST);
	rt_table_free(t);
}

/*
 * An ECMP route refused for want of next hops (max-next-hops) gives back the
 * members it had just made: the slots go back to the free stack and leave the
 * neighbour index, so a later route through one of those gateways gets a live
 * next hop, not a slot marked free.
 */
static void
test_refused_group_gives_back(void)
{
	char name[32], err[RT_ERR_LEN];
	struct rt_table *t;
	struct rt_hop h[RT_ECMP_MAX];
	unsigned int n, free_before;
	uint32_t nh;

	snprintf(name, sizeof(name), "rt_ecmp%u", n_tables++);
	t = rt_test_table_make(
		&(struct rt_table_params){.name = name, .socket = SOCKET_ID_ANY, .max_nh = 8},
		true);
	if (t == NULL) {
		CHECK(0);
		return;
	}
	free_before = t->n_free;
	n = RTE_MIN(free_before + 1, (unsigned int)RT_ECMP_MAX);
	CHECK(n >= 2);
	hops_of(h, n, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, n, err, sizeof(err)),
		-ENOSPC);
	CHECK_CONTAINS(err, "no free next hop");
	CHECK_EQ(t->n_free, free_before); /* every fresh member back */
	/* the first gateway (it had a slot) through a plain route: a live next hop */
	CHECK_EQ(rt_test_add(
			 t, IP4(198, 19, 0, 0), 16, RT_ROUTE_VIA, gw_ip(1), -1, err, sizeof(err)),
		0);
	nh = rt_route_lookup(t, IP4(198, 19, 0, 1));
	CHECK(nh != RT_NH_MISS);
	if (nh != RT_NH_MISS) {
		CHECK_EQ(t->nh[nh].type, RT_NH_GW);
		CHECK_EQ(t->nh_info[nh].ip, gw_ip(1));
	}
	CHECK_EQ(t->n_free, free_before - 1);
	rt_table_free(t);
}

static void
test_last_route_frees_group(void)
{
	struct rt_table *t = mk_table();
	struct rt_hop h[RT_ECMP_MAX];
	char err[RT_ERR_LEN];
	unsigned int before, round;

	if (t == NULL || add_neighs(t, 2) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	before = nh_in_use(t);
	/* many rounds on a table of 64 next hops: a leak would run it out */
	for (round = 0; round < 40; round++) {
		hops_of(h, 6, 1 + round % 8);
		CHECK_EQ(rt_test_set_multi(t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 6, err,
				 sizeof(err)),
			0);
		CHECK_EQ(rt_test_set_multi(t, RT_SRC_CONFIG, 0, IP4(198, 19, 0, 0), 16, h, 6, err,
				 sizeof(err)),
			0);
		/* group + members it made (gateways without a static entry) */
		CHECK(nh_in_use(t) > before);
		CHECK_EQ(rt_test_del(t, IP4(198, 18, 0, 0), 16, err, sizeof(err)), 0);
		CHECK_EQ(rt_test_del(t, IP4(198, 19, 0, 0), 16, err, sizeof(err)), 0);
		CHECK_EQ(nh_in_use(t), before);
	}
	/* a flush releases them too */
	hops_of(h, 4, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 4, err, sizeof(err)),
		0);
	CHECK_EQ(rt_route_flush(t, NULL), 1);
	CHECK_EQ(nh_in_use(t), before);
	/* the static neighbours kept theirs */
	CHECK(rt_nh_neigh_find(t, gw_ip(1)) != RT_NH_MISS);
	rt_table_free(t);
}

static void
test_member_loss_and_return(void)
{
	struct rt_table *t = mk_table();
	static uint8_t before[N_FLOWS / 8];
	struct rt_hop h[4];
	char err[RT_ERR_LEN];
	struct rte_ether_addr mac = gw_mac(2);
	unsigned int i, moved_other = 0, moved_lost = 0, on_lost = 0, back = 0;
	uint32_t g, mem[RT_ECMP_MAX];
	uint8_t act[RT_ECMP_MAX];

	if (t == NULL || add_neighs(t, 4) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	hops_of(h, 4, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 4, err, sizeof(err)),
		0);
	g = rt_route_lookup(t, IP4(198, 18, 0, 1));
	CHECK_EQ(t->nh[g].set->n_active, 4);
	for (i = 0; i < RTE_DIM(before); i++)
		before[i] = (uint8_t)member_k(t, g, (uint32_t)(i * 2654435761u));
	/* gateway 2's neighbour lost: it leaves, only its flows move */
	CHECK_EQ(rt_neigh_static_del(t, gw_ip(2), err, sizeof(err)), 0);
	CHECK_EQ(t->nh[g].set->n_active, 3);
	CHECK_EQ(rt_nhgroup_members(t, g, mem, act), 4);
	CHECK(act[0] && !act[1] && act[2] && act[3]);
	for (i = 0; i < RTE_DIM(before); i++) {
		unsigned int k = member_k(t, g, (uint32_t)(i * 2654435761u));

		CHECK(k != 2);
		if (before[i] == 2) {
			on_lost++;
			moved_lost += k != 2;
		} else {
			moved_other += k != before[i];
		}
	}
	CHECK(on_lost > 0);
	CHECK_EQ(moved_lost, on_lost);
	CHECK_EQ(moved_other, 0);
	/* back: it takes back exactly its own flows, and no other flow moves */
	CHECK_EQ(rt_neigh_static_add(t, gw_ip(2), &mac, err, sizeof(err)), 0);
	CHECK_EQ(t->nh[g].set->n_active, 4);
	moved_other = 0;
	for (i = 0; i < RTE_DIM(before); i++) {
		unsigned int k = member_k(t, g, (uint32_t)(i * 2654435761u));

		back += k == 2;
		moved_other += k != before[i];
	}
	CHECK_EQ(moved_other, 0);
	CHECK_EQ(back, on_lost);
	/* every member lost: the slots spread over all of them, unresolved (punted for ARP) */
	for (i = 1; i <= 4; i++)
		CHECK_EQ(rt_neigh_static_del(t, gw_ip(i), err, sizeof(err)), 0);
	CHECK_EQ(t->nh[g].set->n_active, 0);
	for (i = 0; i < 4000; i++) {
		const uint32_t m = rt_ecmp_member(&t->nh[g], (uint32_t)(i * 2654435761u));

		CHECK_EQ(t->nh[m].type, RT_NH_GW);
		CHECK(!(t->nh[m].l2 & RT_NH_F_VALID));
	}
	/* one resolved again: every flow on it */
	mac = gw_mac(3);
	rt_nh_set_mac(t, mem[2], &mac);
	CHECK_EQ(t->nh[g].set->n_active, 1);
	for (i = 0; i < 4000; i++)
		CHECK_EQ(member_k(t, g, (uint32_t)(i * 2654435761u)), 3);
	rt_table_free(t);
}

static void
test_spread_and_stickiness(void)
{
	struct rt_table *t = mk_table();
	static uint32_t cnt[RT_ECMP_MAX + 1];
	struct rt_hop h[RT_ECMP_MAX];
	char err[RT_ERR_LEN];
	unsigned int n, i, k, sticky_bad = 0;
	double worst = 0;

	if (t == NULL || add_neighs(t, RT_ECMP_MAX) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	rte_srand(17);
	for (n = 2; n <= RT_ECMP_MAX; n++) {
		const uint32_t prefix = IP4(100, 64 + n, 0, 0);
		uint32_t g;

		hops_of(h, n, 1);
		CHECK_EQ(rt_test_set_multi(t, RT_SRC_CONFIG, 0, prefix, 16, h, n, err, sizeof(err)),
			0);
		g = rt_route_lookup(t, prefix);
		memset(cnt, 0, sizeof(cnt));
		for (i = 0; i < N_FLOWS; i++) {
			const uint64_t r = rte_rand(), r2 = rte_rand();
			const uint32_t src = rte_cpu_to_be_32((uint32_t)r);
			const uint32_t dst = rte_cpu_to_be_32(prefix | (uint32_t)(r >> 48));
			const uint32_t ports = (uint32_t)r2;
			const uint8_t proto = (r2 >> 32) & 1 ? IPPROTO_TCP : IPPROTO_UDP;
			const uint32_t hs = rt_ecmp_hash_tuple(src, dst, proto, ports);

			k = member_k(t, g, hs);
			cnt[k]++;
			/* the same flow, asked again: the same member */
			sticky_bad +=
				member_k(t, g, rt_ecmp_hash_tuple(src, dst, proto, ports)) != k;
		}
		for (k = 1; k <= n; k++) {
			const double share = (double)cnt[k] * n / (N_FLOWS);
			const double dev = share > 1 ? share - 1 : 1 - share;

			if (dev > worst)
				worst = dev;
			if (dev > 0.05)
				printf("#   n=%u member %u: %.3f of its share\n", n, k, share);
			CHECK(dev <= 0.05);
		}
	}
	printf("#   spread over %u random 5-tuples, n = 2..16: worst member %.2f %% off its share\n",
		N_FLOWS, worst * 100);
	CHECK_EQ(sticky_bad, 0);
	rt_table_free(t);
}

/* Frames through the router alone: member by 5-tuple, every frame of a flow on one. */
static void
test_burst_by_flow(void)
{
	struct rt_table *t = mk_table();
	struct rt_worker w;
	struct rt_hop h[4];
	char err[RT_ERR_LEN];
	unsigned int i, r, bad_flow = 0, bad_mac = 0, seen[5] = {0};
	uint32_t g;

	if (t == NULL || add_neighs(t, 4) != 0 || rt_worker_init(&w, t, punt, 1, NULL) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	hops_of(h, 4, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 4, err, sizeof(err)),
		0);
	g = rt_route_lookup(t, IP4(198, 18, 0, 1));
	for (r = 0; r < 3; r++) {
		for (i = 0; i < 256; i += 32) {
			struct rte_mbuf *pk[32];
			uint16_t out[32], j, kept;

			for (j = 0; j < 32; j++) {
				struct pkt_spec s = {0};
				struct rte_udp_hdr *u;

				s.dst_mac = rt_test_mac_p0;
				s.src_mac = mac_host;
				s.src = IP4(10, 0, 0, 9);
				s.dst = IP4(198, 18, 0, 1 + (i + j) % 7);
				s.payload = 26;
				pk[j] = pkt_make(pool, &s);
				if (pk[j] == NULL)
					return;
				u = (struct rte_udp_hdr *)(pkt_ip(pk[j]) + 1);
				u->src_port = rte_cpu_to_be_16((uint16_t)(1000 + i + j));
				u->dst_port = RTE_BE16(53);
				if (r == 2) {
					/* a NIC's RSS hash decides, whatever the 5-tuple */
					pk[j]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
					pk[j]->hash.rss = (i + j) * 2654435761u;
				}
			}
			kept = rt_route_burst(&w, 0, pk, 32, out);
			CHECK_EQ(kept, 32);
			for (j = 0; j < kept; j++) {
				const struct rte_ether_hdr *eth = pkt_eth(pk[j]);
				const struct rte_ipv4_hdr *ip = pkt_ip(pk[j]);
				const unsigned int fl =
					rte_be_to_cpu_16(
						((const struct rte_udp_hdr *)(ip + 1))->src_port) -
					1000;
				const uint32_t hs = r == 2 ? fl * 2654435761u
							   : rt_ecmp_hash_sw(pk[j], ip, RT_L2_LEN);
				const unsigned int k = member_k(t, g, hs);
				const struct rte_ether_addr want = gw_mac(k);

				bad_mac += !rte_is_same_ether_addr(&eth->dst_addr, &want);
				bad_flow += out[j] != 1;
				seen[k]++;
			}
			rte_pktmbuf_free_bulk(pk, kept);
		}
	}
	CHECK_EQ(bad_mac, 0);
	CHECK_EQ(bad_flow, 0);
	/* 256 flows reach every member */
	for (i = 1; i <= 4; i++)
		CHECK(seen[i] > 0);
	rt_worker_fini(&w);
	rt_table_free(t);
}

/* Fragments hash by the 3-tuple: every fragment of a datagram on one member. */
static void
test_fragments_together(void)
{
	struct rt_table *t = mk_table();
	struct rt_hop h[8];
	char err[RT_ERR_LEN];
	unsigned int d, bad = 0;
	uint32_t g;

	if (t == NULL || add_neighs(t, 8) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	hops_of(h, 8, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 8, err, sizeof(err)),
		0);
	g = rt_route_lookup(t, IP4(198, 18, 0, 1));
	for (d = 0; d < 64; d++) {
		struct pkt_spec s = {0};
		struct rte_mbuf *first, *later;
		struct rte_udp_hdr *u;

		s.src = IP4(10, 0, 0, 9);
		s.dst = IP4(198, 18, 0, 1 + d);
		s.payload = 64;
		s.frag = RTE_IPV4_HDR_MF_FLAG;
		first = pkt_make(pool, &s);
		s.frag = 8; /* offset 64 bytes, last */
		later = pkt_make(pool, &s);
		if (first == NULL || later == NULL)
			return;
		u = (struct rte_udp_hdr *)(pkt_ip(first) + 1);
		u->src_port = rte_cpu_to_be_16((uint16_t)(4000 + d));
		/* the RSS hash of a fragment is not used either */
		later->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
		later->hash.rss = d * 77777u;
		bad += member_k(t, g, rt_ecmp_hash_pkt(first, pkt_ip(first), RT_L2_LEN)) !=
		       member_k(t, g, rt_ecmp_hash_pkt(later, pkt_ip(later), RT_L2_LEN));
		rte_pktmbuf_free(first);
		rte_pktmbuf_free(later);
	}
	CHECK_EQ(bad, 0);
	rt_table_free(t);
}

/* The slow path keeps the worker's member while it is active, else chooses by flow. */
static void
test_slow_path_pick(void)
{
	struct rt_table *t = mk_table();
	struct rt_hop h[3];
	char err[RT_ERR_LEN];
	uint32_t g, mem[RT_ECMP_MAX];

	if (t == NULL || add_neighs(t, 3) != 0) {
		CHECK(0);
		rt_table_free(t);
		return;
	}
	hops_of(h, 3, 1);
	CHECK_EQ(rt_test_set_multi(
			 t, RT_SRC_CONFIG, 0, IP4(198, 18, 0, 0), 16, h, 3, err, sizeof(err)),
		0);
	g = rt_route_lookup(t, IP4(198, 18, 0, 1));
	CHECK_EQ(rt_nhgroup_members(t, g, mem, NULL), 3);
	CHECK_EQ(rt_nhgroup_pick(t, g, 12345, mem[1]), mem[1]);
	CHECK_EQ(rt_nhgroup_pick(t, g, 12345, g), rt_ecmp_member(&t->nh[g], 12345));
	CHECK_EQ(rt_neigh_static_del(t, gw_ip(2), err, sizeof(err)), 0);
	CHECK(rt_nhgroup_pick(t, g, 12345, mem[1]) != mem[1]);
	CHECK_EQ(rt_nhgroup_pick(t, mem[0], 1, 0), RT_NH_MISS);
	rt_table_free(t);
}

static int
cfg_parse(const char *text, struct rt_config *cfg, char *err, size_t len)
{
	rt_config_free(cfg); /* what the last parse grew (a static cfg starts empty) */
	cfg->where = fwd_cfgfile_where();
	err[0] = '\0';
	return fwd_cfgfile_parse("e.ini", text, strlen(text), rt_config_cfgfile_cb, cfg, err, len);
}

/* [route] multipath lines: read, refused with file:line, applied as one group. */
static void
test_config_multipath(void)
{
	static const char head[] = "[port 0]\nip = 10.0.0.1/24\n[port 1]\nip = 10.0.1.1/24\n"
				   "[route]\n";
	static struct rt_config cfg;
	char text[2048], err[256];
	struct rt_table *t;
	unsigned int k;
	uint32_t g;

	snprintf(text, sizeof(text),
		"%sroute = 198.18.0.0/16 via 10.0.1.11 via 10.0.1.12 dev 1 via 10.0.1.13\n", head);
	CHECK_EQ(cfg_parse(text, &cfg, err, sizeof(err)), 0);
	CHECK_EQ(cfg.n_routes, 1);
	CHECK_EQ(cfg.routes[0].n_hops, 3);
	CHECK_EQ(cfg.routes[0].hops[1].port, 1);
	CHECK_EQ(cfg.routes[0].hops[2].gw, IP4(10, 0, 1, 13));
	t = rt_table_create(
		&(struct rt_table_params){.name = "rt_ecmp_cfg", .socket = SOCKET_ID_ANY});
	if (t == NULL) {
		CHECK(0);
		return;
	}
	rt_iface_enable(t, 0, &rt_test_mac_p0);
	rt_iface_enable(t, 1, &rt_test_mac_p1);
	CHECK_EQ(rt_config_apply(&cfg, t, err, sizeof(err)), 0);
	g = rt_route_lookup(t, IP4(198, 18, 0, 1));
	CHECK_EQ(t->nh[g].type, RT_NH_GROUP);
	CHECK_EQ(t->nh[g].set->n_members, 3);
	rt_table_free(t);

	snprintf(text, sizeof(text), "%sroute = 198.18.0.0/16 via 10.0.1.11 via 10.0.1.11\n", head);
	CHECK(cfg_parse(text, &cfg, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "e.ini:6");
	CHECK_CONTAINS(err, "10.0.1.11 given twice");
	snprintf(text, sizeof(text), "%sroute = 198.18.0.0/16 via 10.0.1.11 via 10.0.0.12 dev 1\n",
		head);
	CHECK(cfg_parse(text, &cfg, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "not port 1's");
	snprintf(text, sizeof(text), "%sroute = 198.18.0.0/16 via 10.0.1.11 via 10.9.0.1\n", head);
	CHECK(cfg_parse(text, &cfg, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "10.9.0.1");
	snprintf(text, sizeof(text), "%sroute = 198.18.0.0/16 via 10.0.1.11 via\n", head);
	CHECK(cfg_parse(text, &cfg, err, sizeof(err)) < 0);
	k = (unsigned int)snprintf(text, sizeof(text), "%sroute = 198.18.0.0/16", head);
	for (unsigned int i = 1; i <= RT_ECMP_MAX + 1; i++)
		k += (unsigned int)snprintf(text + k, sizeof(text) - k, " via 10.0.1.%u", 10 + i);
	snprintf(text + k, sizeof(text) - k, "\n");
	CHECK(cfg_parse(text, &cfg, err, sizeof(err)) < 0);
	CHECK_CONTAINS(err, "more than 16 next hops (RT_ECMP_MAX)");
	rt_config_free(&cfg);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_group_sharing),
	FWD_TEST(test_limits_and_duplicates),
	FWD_TEST(test_refused_group_gives_back),
	FWD_TEST(test_last_route_frees_group),
	FWD_TEST(test_member_loss_and_return),
	FWD_TEST(test_spread_and_stickiness),
	FWD_TEST(test_burst_by_flow),
	FWD_TEST(test_fragments_together),
	FWD_TEST(test_slow_path_pick),
	FWD_TEST(test_config_multipath),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("route-ecmp", 128) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	pool = rte_pktmbuf_pool_create(
		"rt_pool", POOL_SIZE, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	punt = rte_ring_create("rt_punt", 64, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (pool == NULL || punt == NULL) {
		printf("Bail out! cannot create pool or ring\n");
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_eal_cleanup();
	return ret;
}
