/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * flowsort benchmark: cycles per packet of the grouping itself and of a
 * per-group consumer against a per-packet consumer, in the same run, on the
 * same mbufs. Consumers: one rte_lpm lookup (cheap, DIR-24-8) and one rte_hash
 * lookup in a large flow table (expensive: cache misses). Variants per traffic
 * pattern:
 *   off   per-packet parse + lookup, no flowsort (the baseline)
 *   hint  per-packet, but reuse the result when the key equals the previous one
 *   group flowsort_burst() alone (mode on)
 *   on    flowsort mode on: one lookup per group, a per-packet store via order[]
 *   auto  flowsort mode auto: as on, or per-packet when it bypasses
 * Before each burst its mbuf headers are written (untimed), as a PMD's RX does.
 * Every burst is timed on its own and a burst that was preempted is left out;
 * a run's figure is the mean of its bursts, and every figure printed is the
 * median (or with --min the minimum) of --runs runs. Ratios are off / variant.
 *
 *   flowsort_bench [EAL args] -- [--runs N] [--bursts N] [--entries N] [--passes N] [--min]
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
#include <rte_ether.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_lpm.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_thash.h>

#include "flowsort.h"

#define BURST    64
#define MAX_RUNS 101
/* 2000 cycles per packet: ten times the slowest real burst, far below a time slice */
#define BURST_PREEMPTED (2000ull * BURST)
#define NB_FLOW_COUNTS  6

static unsigned int opt_runs = 11, opt_bursts = 256, opt_entries = 200000, opt_passes = 4;
/* median (default) or min of the runs: min shows the figures without preemption */
static int opt_min;

static struct rte_mbuf **pkts;     /* opt_bursts * BURST */
static struct flowsort_key *flows; /* the flow population, as keys */
static struct rte_lpm *lpm;
static struct rte_hash *ftable;
static volatile uint64_t sink;
static uint64_t bursts_timed, bursts_dropped;

static const uint8_t rss_key[40] = {0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67,
	0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77,
	0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa};

static uint64_t rng = 88172645463325252ULL;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

enum consumer { C_LPM, C_HASH };
static const char *const consumer_name[] = {"lpm", "hash"};

/* ---- the consumers: one lookup, then a per-packet store of the result ---- */

static inline uint32_t
lookup(enum consumer c, const struct flowsort_key *k)
{
	uint32_t nh = 0;

	if (c == C_LPM) {
		rte_lpm_lookup(lpm, rte_be_to_cpu_32(k->dst_addr), &nh);
	} else {
		void *data = NULL;

		if (rte_hash_lookup_data(ftable, k, &data) >= 0)
			nh = (uint32_t)(uintptr_t)data;
	}
	return nh;
}

/* what a per-packet LPM stage parses: the destination only */
static inline void
parse_dst(const struct rte_mbuf *m, struct flowsort_key *k)
{
	const struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, const struct rte_ether_hdr *);

	k->dst_addr = 0;
	if (likely(m->data_len >= sizeof(*eth) + sizeof(struct rte_ipv4_hdr) &&
		    eth->ether_type == RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		k->dst_addr = ((const struct rte_ipv4_hdr *)(eth + 1))->dst_addr;
}

static inline void
per_packet(enum consumer c, struct rte_mbuf **b, uint16_t n)
{
	struct flowsort_key k;
	uint16_t i;

	for (i = 0; i < n; i++) {
		/* the same prefetches as flowsort_group(), to be fair */
		if (likely(i + FLOWSORT_PREFETCH_MBUF < n))
			rte_prefetch0(b[i + FLOWSORT_PREFETCH_MBUF]);
		if (likely(i + FLOWSORT_PREFETCH_DATA < n))
			rte_prefetch0(rte_pktmbuf_mtod(b[i + FLOWSORT_PREFETCH_DATA], void *));
		if (c == C_LPM)
			parse_dst(b[i], &k);
		else
			flowsort_key_extract(b[i], &k);
		b[i]->port = (uint16_t)lookup(c, &k);
	}
}

static inline void
per_packet_hint(enum consumer c, struct rte_mbuf **b, uint16_t n)
{
	struct flowsort_key k, prev = {.w = {0, 0}};
	uint32_t nh = 0;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (likely(i + FLOWSORT_PREFETCH_MBUF < n))
			rte_prefetch0(b[i + FLOWSORT_PREFETCH_MBUF]);
		if (likely(i + FLOWSORT_PREFETCH_DATA < n))
			rte_prefetch0(rte_pktmbuf_mtod(b[i + FLOWSORT_PREFETCH_DATA], void *));
		if (c == C_LPM) {
			parse_dst(b[i], &k);
			if (i == 0 || k.dst_addr != prev.dst_addr)
				nh = lookup(c, &k);
			prev.dst_addr = k.dst_addr;
		} else {
			flowsort_key_extract(b[i], &k);
			/* prev kept as two words: a 16-byte struct copy stalls on store forwarding */
			if (!flowsort_key_eq(&k, &prev))
				nh = lookup(c, &k);
			prev.w[0] = k.w[0];
			prev.w[1] = k.w[1];
		}
		b[i]->port = (uint16_t)nh;
	}
}

static inline void
per_group(enum consumer c, const struct flowsort_ctx *ctx, struct rte_mbuf **b, uint16_t nb)
{
	uint16_t r, j;

	for (r = 0; r < nb; r++) {
		const struct flowsort_run *run = &ctx->runs[r];
		uint16_t nh = (uint16_t)lookup(c, &run->key);

		for (j = run->first; j < run->first + run->count; j++)
			b[ctx->order[j]]->port = nh;
	}
}

/* ---- traffic ---- */

static void
write_pkt(struct rte_mbuf *m, const struct flowsort_key *k)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	rte_be16_t *ports = (rte_be16_t *)(ip + 1);
	uint32_t tuple[3];

	ip->src_addr = k->src_addr;
	ip->dst_addr = k->dst_addr;
	ip->next_proto_id = k->proto;
	ports[0] = k->src_port;
	ports[1] = k->dst_port;
	/* as a NIC with RSS on IPv4/UDP would deliver it */
	tuple[0] = rte_be_to_cpu_32(k->src_addr);
	tuple[1] = rte_be_to_cpu_32(k->dst_addr);
	tuple[2] = ((uint32_t)rte_be_to_cpu_16(k->src_port) << 16) | rte_be_to_cpu_16(k->dst_port);
	m->hash.rss = rte_softrss(tuple, 3, rss_key);
	m->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
}

/* every burst: `nflows` flows drawn from the population, as trains or round-robin */
static void
make_traffic(unsigned int nflows, int trains)
{
	unsigned int b, i;

	for (b = 0; b < opt_bursts; b++) {
		unsigned int pick[BURST];

		for (i = 0; i < nflows; i++)
			pick[i] = rnd() % opt_entries;
		for (i = 0; i < BURST; i++) {
			unsigned int f = trains ? i / (BURST / nflows) : i % nflows;

			write_pkt(pkts[b * BURST + i], &flows[pick[f]]);
		}
	}
}

static int
setup(void)
{
	struct rte_lpm_config lc = {.max_rules = 1 << 16, .number_tbl8s = 256};
	struct rte_hash_parameters hp = {
		.name = "fs_bench_flows",
		.entries = opt_entries + opt_entries / 4,
		.key_len = sizeof(struct flowsort_key),
		.hash_func = rte_hash_crc,
		.socket_id = (int)rte_socket_id(),
	};
	struct rte_mempool *mp;
	unsigned int i, n = opt_bursts * BURST;

	mp = rte_pktmbuf_pool_create(
		"fs_bench", n, 0, 0, RTE_PKTMBUF_HEADROOM + 128, (int)rte_socket_id());
	pkts = calloc(n, sizeof(*pkts));
	flows = calloc(opt_entries, sizeof(*flows));
	if (mp == NULL || pkts == NULL || flows == NULL ||
		rte_pktmbuf_alloc_bulk(mp, pkts, n) != 0) {
		fprintf(stderr, "no memory for %u mbufs / %u flows\n", n, opt_entries);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct rte_ether_hdr *eth = (struct rte_ether_hdr *)rte_pktmbuf_append(pkts[i], 64);
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

		memset(eth, 0, 64);
		eth->ether_type = RTE_BE16(RTE_ETHER_TYPE_IPV4);
		ip->version_ihl = RTE_IPV4_VHL_DEF;
		ip->total_length = RTE_BE16(50);
		ip->time_to_live = 64;
	}
	lpm = rte_lpm_create("fs_bench_lpm", (int)rte_socket_id(), &lc);
	ftable = rte_hash_create(&hp);
	if (lpm == NULL || ftable == NULL) {
		fprintf(stderr, "cannot create the LPM or the flow table\n");
		return -1;
	}
	/* 4096 /20 routes over 16.0.0.0/8: dsts spread over tbl24, as a real FIB */
	for (i = 0; i < 4096; i++)
		rte_lpm_add(lpm, RTE_IPV4(16, 0, 0, 0) + (i << 12), 20, i % 16);
	for (i = 0; i < opt_entries; i++) {
		struct flowsort_key *k = &flows[i];

		memset(k, 0, sizeof(*k));
		k->src_addr = rte_cpu_to_be_32(RTE_IPV4(10, 0, 0, 0) + (rnd() & 0xffffff));
		k->dst_addr = rte_cpu_to_be_32(RTE_IPV4(16, 0, 0, 0) + (rnd() & 0xffffff));
		k->src_port = rte_cpu_to_be_16((uint16_t)(1024 + rnd() % 60000));
		k->dst_port = rte_cpu_to_be_16((uint16_t)(rnd() % 2 ? 53 : 443));
		k->proto = IPPROTO_UDP;
		k->type = FLOWSORT_KEY_L4;
		if (rte_hash_add_key_data(ftable, k, (void *)(uintptr_t)(i % 16)) < 0) {
			fprintf(stderr, "flow table full at %u\n", i);
			return -1;
		}
	}
	return 0;
}

/* ---- measurement ---- */

enum variant { V_OFF, V_HINT, V_GROUP, V_ON, V_AUTO, V_MAX };

/*
 * What rte_eth_rx_burst() leaves behind, untimed: the PMD has just written
 * every mbuf header (flags, lengths, RSS hash), so they are in L1; the packet
 * data was written by the NIC's DMA and is not.
 */
static inline void
rx_touch(struct rte_mbuf **b)
{
	unsigned int i;

	for (i = 0; i < BURST; i++)
		b[i]->ol_flags |= RTE_MBUF_F_RX_RSS_HASH;
}

/* one timed pass set; returns cycles per packet */
static double
measure(enum variant v, enum consumer c, struct flowsort_ctx *ctx, struct flowsort_queue *qon,
	struct flowsort_queue *qauto)
{
	uint64_t total = 0, kept = 0;
	unsigned int p, b;

	for (p = 0; p < opt_passes; p++) {
		for (b = 0; b < opt_bursts; b++) {
			struct rte_mbuf **burst = &pkts[b * BURST];
			uint64_t t0, dt;
			uint16_t nb;

			rx_touch(burst);
			t0 = rte_rdtsc();

			switch (v) {
			case V_OFF:
				per_packet(c, burst, BURST);
				break;
			case V_HINT:
				per_packet_hint(c, burst, BURST);
				break;
			case V_GROUP:
				sink += flowsort_burst(ctx, qon, burst, BURST);
				break;
			case V_ON:
				nb = flowsort_burst(ctx, qon, burst, BURST);
				per_group(c, ctx, burst, nb);
				break;
			case V_AUTO:
				nb = flowsort_burst(ctx, qauto, burst, BURST);
				if (nb > 0)
					per_group(c, ctx, burst, nb);
				else
					per_packet(c, burst, BURST);
				break;
			default:
				break;
			}
			dt = rte_rdtsc() - t0;
			/*
			 * A burst takes a few thousand cycles; one that took more than
			 * BURST_PREEMPTED was preempted (the machine is shared): leave it
			 * out rather than let a 4 ms time slice swamp the sample. Probe
			 * bursts (a few x normal) stay in.
			 */
			if (dt < BURST_PREEMPTED) {
				total += dt;
				kept++;
			} else {
				bursts_dropped++;
			}
			bursts_timed++;
		}
	}
	return kept ? (double)total / ((double)kept * BURST) : 0.0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
run_config(enum consumer c, unsigned int nflows, int trains, struct flowsort_ctx *ctx,
	struct flowsort_queue *qon, struct flowsort_queue *qauto)
{
	static double samples[V_MAX][MAX_RUNS];
	double med[V_MAX];
	struct flowsort_stats st_on, st_auto;
	unsigned int r, v;

	rng = 0x9e3779b97f4a7c15ULL * (nflows * 2 + (unsigned int)trains + 1);
	make_traffic(nflows, trains);
	flowsort_queue_set_mode(qauto, FLOWSORT_MODE_AUTO);
	/* warm caches, tables and the auto queue's running mean */
	for (v = 0; v < V_MAX; v++)
		measure((enum variant)v, c, ctx, qon, qauto);
	flowsort_queue_stats_reset(qon);
	flowsort_queue_stats_reset(qauto);
	/* variants interleaved inside every run, so drift hits them alike */
	for (r = 0; r < opt_runs; r++)
		for (v = 0; v < V_MAX; v++)
			samples[v][r] = measure((enum variant)v, c, ctx, qon, qauto);
	for (v = 0; v < V_MAX; v++) {
		med[v] = median(samples[v], opt_runs);
		if (opt_min)
			med[v] = samples[v][0]; /* sorted by median() */
	}
	flowsort_queue_stats_get(qon, &st_on);
	flowsort_queue_stats_get(qauto, &st_auto);
	printf("| %-4s | %2u | %-6s | %5.1f | %5.1f | %5.1f | %5.1f | %5.1f | %5.2f | %5.2f | %5.2f "
	       "| %5.1f | %3.0f %% |\n",
		consumer_name[c], nflows, trains ? "trains" : "rr", med[V_OFF], med[V_HINT],
		med[V_GROUP], med[V_ON], med[V_AUTO], med[V_OFF] / med[V_HINT],
		med[V_OFF] / med[V_ON], med[V_OFF] / med[V_AUTO],
		st_on.groups ? (double)st_on.pkts_sorted / (double)st_on.groups : 0.0,
		100.0 * (double)st_auto.bursts_bypassed /
			(double)RTE_MAX(st_auto.bursts_bypassed + st_auto.bursts_sorted, 1u));
	fflush(stdout);
}

static int
parse_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"runs", required_argument, NULL, 'r'},
		{"bursts", required_argument, NULL, 'b'},
		{"entries", required_argument, NULL, 'e'},
		{"passes", required_argument, NULL, 'p'},
		{"min", no_argument, NULL, 'm'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		unsigned long v;

		if (opt == '?')
			return -1;
		if (opt == 'm') {
			opt_min = 1;
			continue;
		}
		v = strtoul(optarg, NULL, 0);
		if (opt == 'r')
			opt_runs = v < 1 ? 1 : v > MAX_RUNS ? MAX_RUNS : (unsigned int)v;
		else if (opt == 'b')
			opt_bursts = (unsigned int)RTE_MAX(v, 1ul);
		else if (opt == 'e')
			opt_entries = (unsigned int)RTE_MAX(v, 1024ul);
		else if (opt == 'p')
			opt_passes = (unsigned int)RTE_MAX(v, 1ul);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const unsigned int flow_counts[NB_FLOW_COUNTS] = {1, 2, 4, 8, 32, 64};
	struct flowsort_queue_conf on = {.mode = FLOWSORT_MODE_ON};
	struct flowsort_queue *qon, *qauto;
	struct flowsort_ctx *ctx;
	unsigned int c, f;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	if (parse_args(argc - ret, argv + ret) < 0 || setup() < 0)
		return 1;
	ctx = flowsort_ctx_create(NULL, (int)rte_socket_id());
	qon = flowsort_queue_create(&on, (int)rte_socket_id());
	qauto = flowsort_queue_create(NULL, (int)rte_socket_id());
	if (ctx == NULL || qon == NULL || qauto == NULL)
		return 1;
	printf("# flowsort_bench: %u bursts of %u, %u passes, %s of %u runs, flow table %u "
	       "entries, TSC %.2f GHz\n",
		opt_bursts, BURST, opt_passes, opt_min ? "min" : "median", opt_runs, opt_entries,
		rte_get_tsc_hz() / 1e9);
	printf("# cycles per packet; x = off / variant (> 1: faster than per-packet); "
	       "glen = mean group length; byp = bursts bypassed by auto\n");
	printf("| cons | fl | order  |   off |  hint | group |    on |  auto | xhint |   xon | "
	       "xauto |  glen |   byp |\n");
	printf("|------|----|--------|------:|------:|------:|------:|------:|------:|------:|"
	       "------:|------:|------:|\n");
	for (c = 0; c < 2; c++)
		for (f = 0; f < NB_FLOW_COUNTS; f++) {
			run_config((enum consumer)c, flow_counts[f], 1, ctx, qon, qauto);
			if (flow_counts[f] > 1 && flow_counts[f] < BURST)
				run_config((enum consumer)c, flow_counts[f], 0, ctx, qon, qauto);
		}
	printf("# %" PRIu64 " of %" PRIu64 " timed bursts left out as preempted (> %llu cycles)\n",
		bursts_dropped, bursts_timed, BURST_PREEMPTED);
	flowsort_queue_free(qauto);
	flowsort_queue_free(qon);
	flowsort_ctx_free(ctx);
	rte_hash_free(ftable);
	rte_lpm_free(lpm);
	rte_eal_cleanup();
	return 0;
}
