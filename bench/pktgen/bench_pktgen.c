/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * lib/pktgen TX benchmark on net_null: one TX lcore runs pktgen_lcore_run()
 * for a fixed duration; the figures are packets per wall second and per
 * second of CPU the TX thread got (from /proc/thread-self/schedstat, so a
 * shared, noisy machine does not count against the code). Variants, run
 * interleaved round after round in one process:
 *   clone1         every packet its own mbuf (built, stamped)
 *   clone16        one mbuf sent 16 times, refcount set once per burst
 *   clone16-perpkt the same, one refcount increment per send (the old way)
 *   paced          --rate PPS for the duration: achieved rate vs target
 * docs/benchmarks-pktgen.md has the command (bench/pktgen/run.sh) and figures.
 *
 *   bench-pktgen [EAL args] -- [--seconds S] [--rounds N] [--size BYTES] [--rate PPS]
 *                               [--paced-seconds S] [--only VARIANT] [--pace-slack N]
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "pktgen.h"

struct run {
	struct pktgen_lcore *g;
	volatile bool quit;
	uint64_t cpu_ns;
	uint64_t wall_ns;
};

/* --pace-slack: the pacer's catch-up bound in packets (NULL: the stream's default) */
static const char *pace_slack;

static uint64_t
thread_cpu_ns(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	unsigned long long ns = 0;

	if (f != NULL) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

static int
tx_lcore(void *arg)
{
	struct run *r = arg;
	uint64_t c0 = thread_cpu_ns(), t0 = rte_rdtsc();

	pktgen_lcore_run(r->g, &r->quit);
	r->wall_ns = (uint64_t)((double)(rte_rdtsc() - t0) * 1e9 / rte_get_tsc_hz());
	r->cpu_ns = thread_cpu_ns() - c0;
	return 0;
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
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_ROUNDS 64

struct variant {
	const char *name;
	const char *clone;
	const char *refcnt;
	bool paced;
	double mpps[MAX_ROUNDS], cpu_mpps[MAX_ROUNDS], achieved[MAX_ROUNDS];
	uint64_t forgiven[MAX_ROUNDS];
};

static int
run_variant(struct variant *v, unsigned int round, uint16_t port, double seconds, const char *size,
	double rate)
{
	struct pktgen_stream_cfg cfg;
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	struct pktgen_lcore_params p = {
		.port = port, .socket = (int)rte_socket_id(), .lcore = lcore, .count = 1};
	struct pktgen_tx_stats st;
	struct run r = {0};
	char err[128], val[64];

	pktgen_stream_init(&cfg);
	snprintf(val, sizeof(val), "%.3f", seconds);
	if (pktgen_stream_set(&cfg, "duration", val, err, sizeof(err)) != 0 ||
		pktgen_stream_set(&cfg, "size", size, err, sizeof(err)) != 0 ||
		pktgen_stream_set(&cfg, "clone", v->clone, err, sizeof(err)) != 0 ||
		pktgen_stream_set(&cfg, "refcnt", v->refcnt, err, sizeof(err)) != 0 ||
		pktgen_stream_set(&cfg, "mbufs", "4096", err, sizeof(err)) != 0) {
		fprintf(stderr, "bench: %s\n", err);
		return -1;
	}
	if (v->paced) {
		snprintf(val, sizeof(val), "%.0fpps", rate);
		if (pktgen_stream_set(&cfg, "rate", val, err, sizeof(err)) != 0 ||
			(pace_slack != NULL && pktgen_stream_set(&cfg, "pace-slack", pace_slack,
						       err, sizeof(err)) != 0)) {
			fprintf(stderr, "bench: %s\n", err);
			return -1;
		}
	}
	r.g = pktgen_lcore_create("bench", &cfg, &p);
	if (r.g == NULL || lcore >= RTE_MAX_LCORE) {
		fprintf(stderr, "bench: cannot create the generator or no worker lcore\n");
		return -1;
	}
	rte_eal_remote_launch(tx_lcore, &r, lcore);
	/* sleep, not rte_eal_wait_lcore()'s spin: the machine has 2 CPUs to share */
	while (rte_eal_get_lcore_state(lcore) == RUNNING)
		usleep(2000);
	rte_eal_wait_lcore(lcore);
	pktgen_lcore_stats(r.g, &st);
	v->mpps[round] = st.tx_pkts / (r.wall_ns / 1e3);
	v->cpu_mpps[round] = r.cpu_ns ? st.tx_pkts / (r.cpu_ns / 1e3) : 0;
	v->achieved[round] = st.tx_pkts / seconds;
	v->forgiven[round] = st.pace_forgiven;
	printf("round %u %-15s %10" PRIu64 " pkts  wall %.3f s  cpu %.3f s  %7.2f Mpps  %7.2f "
	       "Mpps/CPU-s%s",
		round, v->name, st.tx_pkts, r.wall_ns / 1e9, r.cpu_ns / 1e9, v->mpps[round],
		v->cpu_mpps[round], v->paced ? "" : "\n");
	/*
	 * What a stall (the thread off CPU) costs is forgiven, not caught up:
	 * sent + forgiven against the target shows the pacer's own accuracy, the
	 * CPU share shows what the machine took.
	 */
	if (v->paced)
		printf("  achieved %.0f pps of %.0f (%+.3f %%), on CPU %.1f %%, forgiven %" PRIu64
		       ", (sent + forgiven) / target %+.3f %%\n",
			v->achieved[round], rate, (v->achieved[round] / rate - 1) * 100,
			r.cpu_ns / (seconds * 1e7), st.pace_forgiven,
			((double)(st.tx_pkts + st.pace_forgiven) / (rate * seconds) - 1) * 100);
	fflush(stdout);
	pktgen_lcore_free(r.g);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct variant vars[] = {
		{.name = "clone1", .clone = "1", .refcnt = "batch"},
		{.name = "clone16", .clone = "16", .refcnt = "batch"},
		{.name = "clone16-perpkt", .clone = "16", .refcnt = "per-packet"},
		{.name = "paced", .clone = "1", .refcnt = "batch", .paced = true},
	};
	static const struct option longopts[] = {
		{"seconds", required_argument, NULL, 's'},
		{"rounds", required_argument, NULL, 'r'},
		{"size", required_argument, NULL, 'z'},
		{"rate", required_argument, NULL, 'p'},
		{"paced-seconds", required_argument, NULL, 'P'},
		{"only", required_argument, NULL, 'o'},
		{"pace-slack", required_argument, NULL, 'k'},
		{NULL, 0, NULL, 0},
	};
	double seconds = 1, paced_seconds = 10, rate = 5e6;
	unsigned int rounds = 3, r, i;
	const char *size = "68", *only = NULL;
	struct rte_eth_conf conf = {0};
	uint16_t port = 0;
	struct rte_mempool *dummy;
	int ret, c;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			seconds = atof(optarg);
			break;
		case 'r':
			rounds = RTE_MIN((unsigned int)atoi(optarg), (unsigned int)MAX_ROUNDS);
			break;
		case 'z':
			size = optarg;
			break;
		case 'p':
			rate = atof(optarg);
			break;
		case 'P':
			paced_seconds = atof(optarg);
			break;
		case 'o':
			only = optarg;
			break;
		case 'k':
			pace_slack = optarg;
			break;
		default:
			fprintf(stderr, "usage: see the comment at the top of bench_pktgen.c\n");
			return 1;
		}
	}
	if (rte_eth_dev_count_avail() == 0 || rounds == 0) {
		fprintf(stderr, "bench: give a port (--vdev net_null0) and --rounds >= 1\n");
		return 1;
	}
	/* net_null never receives here, but a queue needs a pool */
	dummy = rte_pktmbuf_pool_create(
		"rxdummy", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	if (dummy == NULL || rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
		rte_eth_rx_queue_setup(port, 0, 512, (unsigned int)rte_socket_id(), NULL, dummy) !=
			0 ||
		rte_eth_tx_queue_setup(port, 0, 512, (unsigned int)rte_socket_id(), NULL) != 0 ||
		rte_eth_dev_start(port) != 0) {
		fprintf(stderr, "bench: cannot set up port 0\n");
		return 1;
	}
	printf("# size %s B (FCS included), %.1f s per unpaced run, paced %.0f pps for %.1f s, "
	       "%u rounds\n",
		size, seconds, rate, paced_seconds, rounds);
	for (r = 0; r < rounds; r++)
		for (i = 0; i < RTE_DIM(vars); i++) {
			if (only != NULL && strcmp(only, vars[i].name) != 0)
				continue;
			if (run_variant(&vars[i], r, port, vars[i].paced ? paced_seconds : seconds,
				    size, rate) != 0)
				return 1;
		}
	printf("# medians over %u rounds\n", rounds);
	for (i = 0; i < RTE_DIM(vars); i++) {
		if (only != NULL && strcmp(only, vars[i].name) != 0)
			continue;
		printf("median %-15s %7.2f Mpps  %7.2f Mpps/CPU-s", vars[i].name,
			median(vars[i].mpps, rounds), median(vars[i].cpu_mpps, rounds));
		if (vars[i].paced)
			printf("  achieved/target %.5f", median(vars[i].achieved, rounds) / rate);
		printf("\n");
	}
	rte_eth_dev_stop(port);
	rte_eal_cleanup();
	return 0;
}
