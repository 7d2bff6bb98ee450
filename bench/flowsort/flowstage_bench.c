/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Flow-stage benchmark (--fwd route): cycles per packet of the whole routing
 * call on one lcore, same run, same mbufs, for
 *   route  rt_route_burst(): no flow stage (the router as it was)
 *   pkt    the flow stage with one lookup per packet: no grouping, no previous-key hint
 *   off    rt_flow_route_burst(), flowsort off: flow table + filter per run of equal keys
 *   on     the same with flowsort on: one lookup, counter update and template per group
 *   auto   flowsort auto: grouping, or per packet when it measures short groups
 *   group  flowsort_burst() alone (mode on): what grouping itself costs
 * with a filter of RULES rules that the traffic never matches (so every flow
 * is classified on its miss and permitted). Traffic: 1, 2, 4, 8, 32 flows
 * per 32-packet burst in trains (k packets of a flow back to back),
 * round-robin and random order (each packet one of the k flows at random), and every packet a new flow (each a miss: filter + route +
 * install, and evictions once the table is full).
 * Before each burst its headers are rewritten (untimed), as a PMD's RX does;
 * every burst is timed on its own, a preempted one is left out; a run's
 * figure is the mean of its bursts, and every figure printed is the median of
 * --runs runs. Ratios are baseline / variant (> 1: faster than the baseline).
 *
 *   flowstage_bench [EAL args] -- [--runs N] [--bursts N] [--no-new]
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_udp.h>

#include "rt_acl.h"
#include "rt_flow_ctl.h"
#include "rt_burst.h"
#include "rt_worker_setup.h"
#include "rt_table.h"

#define BURST           32
#define MAX_RUNS        101
#define RULES           16
#define BURST_PREEMPTED (5000ull * BURST)
#define FRAME_LEN       64

enum variant { V_ROUTE, V_PKT, V_OFF, V_ON, V_AUTO, V_GROUP, V_MAX };
static const char *const vnames[V_MAX] = {"route", "pkt", "off", "on", "auto", "group"};

static unsigned int opt_runs = 11, opt_bursts = 256;
static int opt_no_new; /* --no-new: leave out the all-new traffic (for profiling the hits) */
static struct rte_mempool *pool;
static struct rt_table *tbl;
static struct rt_acl *acl;
static struct rte_ring *punt;
static struct rt_worker wk;
static struct rt_flow *fl[V_MAX];
static struct flowsort_ctx *gctx; /* V_GROUP: flowsort_burst() alone, mode on */
static struct flowsort_queue *gq;
static volatile uint16_t sink;
static struct rte_mbuf **bufs;     /* opt_bursts * BURST, reused */
static uint8_t (*tmpl)[FRAME_LEN]; /* the frame each of them must hold before its burst */
static uint32_t new_flow_seq;

static const struct rte_ether_addr mac_p0 = {{0x02, 0, 0, 0, 0, 0x01}};
static const struct rte_ether_addr mac_p1 = {{0x02, 0, 0, 0, 0, 0x02}};
static const struct rte_ether_addr mac_gw = {{0x02, 0, 0, 0, 0x01, 0x02}};

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* A 64-byte UDP frame for port 0, flow @p f: 10.<f>.1 -> 198.18.<f>.1, ports f, 80. */
static void
make_frame(uint8_t *p, uint32_t f)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)p;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);

	memset(p, 0, FRAME_LEN);
	eth->dst_addr = mac_p0;
	eth->src_addr = mac_gw;
	eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(FRAME_LEN - RTE_ETHER_HDR_LEN);
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->src_addr = rte_cpu_to_be_32(IP4(10, 0, 0, 0) | ((f >> 8) & 0xffff) << 8 | 9);
	ip->dst_addr = rte_cpu_to_be_32(IP4(198, 18, f & 0xff, 1));
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->src_port = rte_cpu_to_be_16((uint16_t)(1024 + (f & 0x3fff)));
	udp->dst_port = RTE_BE16(80);
}

/* Flow of packet i of burst b in a pattern; k = 0 means every packet new. */
static uint32_t
flow_of(unsigned int b, unsigned int i, unsigned int k, int trains)
{
	if (k == 0)
		return 100000 + (new_flow_seq++ % 1000000);
	/* a burst's flows differ from the previous burst's only in which k */
	if (trains == 2) {
		/* random order: a fixed pseudo-random pick per (burst, packet) */
		uint32_t x = (b * BURST + i + 1) * 2654435761u;

		x ^= x >> 15;
		return (b % 64) * 32 + (x * 2246822519u >> 16) % k;
	}
	return (b % 64) * 32 + (trains ? i / (BURST / k) : i % k);
}

static void
fill_templates(unsigned int k, int trains)
{
	unsigned int b, i;

	for (b = 0; b < opt_bursts; b++)
		for (i = 0; i < BURST; i++)
			make_frame(tmpl[b * BURST + i], flow_of(b, i, k, trains));
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * V_PKT: the flow stage as rt_flow_route_chunk() runs it with flowsort off,
 * but one lookup per packet (no previous-key hint): the per-packet baseline.
 * The same pieces (rt_burst.h and its stages), the same batched prefetch of every lookup.
 */
static uint16_t
route_per_packet(struct rt_flow *f, struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	struct rte_mbuf *punts[RT_FLOW_CHUNK];
	struct flowsort_key keys[RT_FLOW_CHUNK];
	struct rt_flow_runs kr;
	struct rt_flow_tmpl t;
	uint32_t hs[RT_FLOW_CHUNK];
	struct rt_flow_out o = {.pkts = pkts, .port = out_port, .n = 0, .punts = punts, .np = 0};
	struct rt_burst_ctx b = {.w = &wk,
		.fl = f,
		.o = &o,
		.punts = punts,
		.np = &o.np,
		.defv = __atomic_load_n(wk.default_nh, __ATOMIC_ACQUIRE),
		.in_port = 0};
	uint16_t k = rt_flow_input_checks(&b, pkts, n, &kr, NULL, NULL), i, r;
	const uint64_t now = rte_rdtsc();

	b.gen = rt_flow_gen(f);
	b.now = now;

	/* every packet's key (the runs hold each run's) */
	for (r = 0; r < kr.n; r++)
		for (i = kr.start[r]; i < kr.start[r + 1]; i++)
			keys[i] = kr.key[r];
	f->stats.ungrouped_pkts += k;
	for (i = 0; i < k; i++) {
		hs[i] = rt_flow_hash(f, &keys[i], 0);
		rt_flow_prefetch_way(f, hs[i]);
	}
	for (i = 0; i < k; i++)
		rt_flow_prefetch_entry(f, hs[i]);
	for (i = 0; i < k; i++) {
		rt_flow_tmpl_get(&b, &keys[i], hs[i], &t);
		rt_flow_apply_run(&b, &t, pkts, i, 1);
		rt_flow_tmpl_put(f, &t, 1, now);
	}
	rt_punt_flush(&wk, punts, o.np);
	wk.stats.fwd += o.n;
	return o.n;
}

/* One pass over every burst with variant @p v: mean cycles per packet. */
static double
run_once(enum variant v)
{
	struct rte_mbuf *pk[BURST];
	uint16_t out[BURST];
	uint64_t cyc = 0, n = 0;
	unsigned int b, i;

	for (b = 0; b < opt_bursts; b++) {
		uint64_t t0, t1;
		uint16_t got;
		void *m;

		for (i = 0; i < BURST; i++) {
			struct rte_mbuf *x = bufs[b * BURST + i];

			rte_memcpy(rte_pktmbuf_mtod(x, void *), tmpl[b * BURST + i], FRAME_LEN);
			pk[i] = x;
		}
		t0 = rte_rdtsc_precise();
		if (v == V_ROUTE) {
			got = rt_route_burst(&wk, 0, pk, BURST, out);
		} else if (v == V_PKT) {
			got = route_per_packet(fl[v], pk, BURST, out);
		} else if (v == V_GROUP) {
			sink = flowsort_burst(gctx, gq, pk, BURST);
			got = BURST;
		} else {
			got = rt_flow_route_burst(fl[v], &wk, 0, 0, pk, BURST, out);
		}
		t1 = rte_rdtsc_precise();
		/* punted (none expected) come back from the ring: our mbufs, reused */
		while (rte_ring_dequeue(punt, &m) == 0)
			;
		if (got != BURST) {
			fprintf(stderr, "%s: %u of %u forwarded\n", vnames[v], got, BURST);
			exit(1);
		}
		if (t1 - t0 > BURST_PREEMPTED)
			continue;
		cyc += t1 - t0;
		n += BURST;
	}
	return n ? (double)cyc / (double)n : 0;
}

static void
bench(const char *name, unsigned int k, int trains)
{
	static uint64_t r[V_MAX][MAX_RUNS];
	double med[V_MAX];
	struct flowsort_stats s0, s1;
	unsigned int run, v;

	fill_templates(k, trains);
	/* steady state: this pattern's flows are in every table (all-new traffic excepted) */
	for (v = 0; v < V_MAX && k != 0; v++)
		run_once((enum variant)v);
	rt_flow_sort_stats_get(fl[V_AUTO], &s0);
	for (run = 0; run < opt_runs; run++) {
		unsigned int j;

		/* the order rotates from run to run: no variant always follows another */
		for (j = 0; j < V_MAX; j++) {
			v = (j + run) % V_MAX;
			/* every-new-flow traffic: new keys each pass, for every variant */
			if (k == 0)
				fill_templates(k, trains);
			r[v][run] = (uint64_t)(run_once((enum variant)v) * 100);
		}
	}
	for (v = 0; v < V_MAX; v++) {
		qsort(r[v], opt_runs, sizeof(r[v][0]), cmp_u64);
		med[v] = (double)r[v][opt_runs / 2] / 100.0;
	}
	rt_flow_sort_stats_get(fl[V_AUTO], &s1);
	printf("%-10s %6.1f %6.1f %6.1f %6.1f %6.1f %6.1f  %5.2fx %5.2fx %5.2fx %5.2fx %5.2fx  %5.2f "
	       "%5.1f%%\n",
		name, med[V_ROUTE], med[V_PKT], med[V_OFF], med[V_ON], med[V_AUTO], med[V_GROUP],
		med[V_ON] / med[V_ROUTE], med[V_PKT] / med[V_ON], med[V_PKT] / med[V_AUTO],
		med[V_OFF] / med[V_ON], med[V_OFF] / med[V_AUTO],
		s1.groups - s0.groups ? (double)(s1.pkts_sorted - s0.pkts_sorted) /
						(double)(s1.groups - s0.groups)
				      : 0.0,
		100.0 * (double)(s1.bursts_bypassed - s0.bursts_bypassed) /
			(double)RTE_MAX(1u, (s1.bursts_bypassed - s0.bursts_bypassed) +
						    (s1.bursts_sorted - s0.bursts_sorted)));
	fflush(stdout);
}

static int
setup(void)
{
	static const enum flowsort_mode modes[V_MAX] = {
		0, FLOWSORT_MODE_OFF, FLOWSORT_MODE_OFF, FLOWSORT_MODE_ON, FLOWSORT_MODE_AUTO, 0};
	char err[RT_ERR_LEN];
	unsigned int i, v, n = opt_bursts * BURST;
	int ret = 0;

	pool = rte_pktmbuf_pool_create(
		"fs_bench", n + 1023, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	tbl = rt_table_create(&(struct rt_table_params){
		.name = "fs_bench", .socket = 0, .max_routes = 4096, .max_nh = 1024, .tbl8s = 256});
	punt = rte_ring_create("fs_punt", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	acl = rt_acl_create(NULL, SOCKET_ID_ANY);
	bufs = calloc(n, sizeof(*bufs));
	tmpl = calloc(n, sizeof(*tmpl));
	if (pool == NULL || tbl == NULL || punt == NULL || acl == NULL || bufs == NULL ||
		tmpl == NULL)
		return -1;
	ret |= rt_iface_enable(tbl, 0, &mac_p0);
	ret |= rt_iface_enable(tbl, 1, &mac_p1);
	ret |= rt_iface_set_addr(tbl, 0, IP4(10, 0, 0, 1), 8, err, sizeof(err));
	ret |= rt_iface_set_addr(tbl, 1, IP4(172, 31, 1, 1), 24, err, sizeof(err));
	ret |= rt_neigh_static_add(tbl, IP4(172, 31, 1, 2), &mac_gw, err, sizeof(err));
	ret |= rt4_route_set(tbl,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
			.prefix = IP4(198, 18, 0, 0),
			.plen = 15,
			.kind = RT_ROUTE_VIA,
			.n_hops = 1,
			.hop[0] = {IP4(172, 31, 1, 2), -1}},
		err, sizeof(err));
	for (i = 0; i < RULES; i++) {
		struct rt_acl_rule r;
		char text[96];

		/* rules the traffic never matches: every flow walks the whole filter */
		snprintf(text, sizeof(text), "proto udp src 192.168.%u.0/24 dport %u", i, 1000 + i);
		ret |= rt_acl_rule_parse("deny", text, &r, err, sizeof(err));
		ret |= rt_acl_add(acl, &r, UINT32_MAX, err, sizeof(err));
	}
	ret |= rt_worker_init(&wk, tbl, punt, rte_lcore_id(), NULL);
	if (ret != 0) {
		fprintf(stderr, "set-up: %s\n", err);
		return -1;
	}
	gctx = flowsort_ctx_create(NULL, 0);
	gq = flowsort_queue_create(&(struct flowsort_queue_conf){.mode = FLOWSORT_MODE_ON}, 0);
	if (gctx == NULL || gq == NULL)
		return -1;
	for (v = V_PKT; v <= V_AUTO; v++) {
		fl[v] = rt_flow_create(&(struct rt_flow_conf){
			.mode = modes[v],
			.n_queues = 1,
			.socket = 0,
			.tbl_gen = &tbl->gen,
			.acl = acl,
		});
		if (fl[v] == NULL)
			return -1;
	}
	for (i = 0; i < n; i++) {
		bufs[i] = rte_pktmbuf_alloc(pool);
		if (bufs[i] == NULL || rte_pktmbuf_append(bufs[i], FRAME_LEN) == NULL)
			return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const unsigned int counts[] = {1, 2, 4, 8, 32};
	static const struct option longopts[] = {
		{"runs", required_argument, NULL, 'r'},
		{"bursts", required_argument, NULL, 'b'},
		{"no-new", no_argument, NULL, 'n'},
		{NULL, 0, NULL, 0},
	};
	unsigned int i;
	int ret, opt;
	char name[32];

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'r')
			opt_runs = RTE_MIN((unsigned int)atoi(optarg), (unsigned int)MAX_RUNS);
		else if (opt == 'b')
			opt_bursts = (unsigned int)atoi(optarg);
		else if (opt == 'n')
			opt_no_new = 1;
		else
			return 1;
	}
	if (opt_runs == 0 || opt_bursts == 0 || setup() < 0) {
		fprintf(stderr, "flowstage_bench: bad arguments or set-up failed\n");
		return 1;
	}
	printf("cycles/packet, median of %u runs of %u bursts of %u (flow table + %u-rule filter)\n",
		opt_runs, opt_bursts, BURST, RULES);
	printf("%-10s %6s %6s %6s %6s %6s %6s  %6s %6s %6s %6s %6s  %5s %6s\n", "traffic", "route",
		"pkt", "off", "on", "auto", "group", "on/rt", "pk/on", "pk/au", "of/on", "of/au",
		"grp", "bypass");
	for (i = 0; i < RTE_DIM(counts); i++) {
		snprintf(name, sizeof(name), "trains %u", counts[i]);
		bench(name, counts[i], 1);
		snprintf(name, sizeof(name), "rr %u", counts[i]);
		bench(name, counts[i], 0);
		if (counts[i] > 1 && counts[i] < 32) {
			snprintf(name, sizeof(name), "rnd %u", counts[i]);
			bench(name, counts[i], 2);
		}
	}
	if (!opt_no_new)
		bench("all new", 0, 0);
	rt_worker_fini(&wk);
	rte_eal_cleanup();
	return 0;
}
