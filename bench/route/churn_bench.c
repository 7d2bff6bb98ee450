/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Churn under traffic (issue 17): the update rate the control path sustains
 * and the rate a worker forwards at meanwhile. A table is loaded from a route
 * file and its neighbour file (bench/route/mkfulltable.py's); a worker lcore
 * runs the router's burst function, rt_route_burst(), on pre-built frames to
 * destinations across the routed space (a quarter of them inside the /24s
 * the churn adds and deletes), rewritten before each burst as a PMD's RX
 * would write them, and reports its quiescent state once per burst as the
 * forwarder's worker does. The main lcore changes routes through the calls
 * the shell's `route add`, `route del` and `route replace` make, paced by the
 * TSC: in each 8 updates, 7 alternate an add of a new /24 (inside
 * 100.0.0.0/10, absent from the loaded table) and the delete of the oldest
 * one the churn added (WINDOW of them stay in the table), and 1 replaces a
 * route's gateway (in turn one the churn added and one of the loaded table's
 * that the traffic goes to). Three phases of --seconds each, taken in turn
 * in slices of 0.25 s so that the shared machine's load weighs on them
 * alike: the worker alone, the worker with --rate updates/s, the worker with
 * updates as fast as they go. While it paces updates, and in the first
 * phase, the main lcore spins (as a poll-mode control loop would). At the
 * end every route the churn added is gone and every replaced gateway is
 * restored (the table holds what was loaded), every mbuf is back in its
 * pool, and every frame sent was forwarded, punted or dropped under a
 * counter; the exit status says whether it was so. Never run by the
 * tests but for a smoke run (bench-smoke suite); docs/benchmarks-route.md
 * holds the command and a run.
 *
 *   churn_bench EAL... (2 lcores) -- [--rate N] [--seconds S] ROUTES_FILE NEIGH_FILE
 */

#include <getopt.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ether.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_random.h>
#include <rte_ring.h>

#include "bench_table.h"
#include "rt_burst.h"
#include "rt_test_pkt.h"
#include "rt_worker_setup.h"

#define BURST     32
#define NDST      8192 /* frames (and mbufs), reused burst after burst */
#define FRAME_LEN 64
#define WINDOW    4096  /* /24s the churn keeps in the table */
#define N_CAND    16384 /* the /24s of 100.0.0.0/10 */
#define CAND_BASE 0x64000000u
#define MAX_GW    4096 /* gateways the churn routes through */
#define SLICE_S   0.25 /* seconds of a phase at a time */

static struct rt_table *tbl;
static struct rte_mempool *pool;
static struct rte_ring *punt;
static struct rt_worker wk;
static struct rte_mbuf *bufs[NDST];
static uint8_t tmpl[NDST][FRAME_LEN];
static volatile int stop;
static uint64_t n_sent, n_punted; /* the worker's; n_sent read by the main lcore */
static int worker_failed;
/* the worker thread's CPU clock: on the shared machine, what it was given of its CPU */
static clockid_t worker_clock;
static int worker_started;

/* The churn's state (main lcore). */
static uint32_t cand[N_CAND], n_cand; /* /24s absent from the loaded table, in churn order */
static uint32_t head, live;           /* next to add is cand[head % n_cand]; live before it */
static uint32_t gws[MAX_GW], n_gw;
static struct rt_route *dst_route; /* loaded routes the traffic goes to, and may be replaced */
static uint8_t *replaced;          /* dst_route[i]'s gateway is another one now */
static uint32_t n_dst_route;
static uint64_t n_ops, n_adds, n_dels, n_repl, n_failed;

/* Random enough for picking destinations and routes, the same from run to run. */
static uint32_t
rnd(void)
{
	return (uint32_t)rte_rand();
}

/* ---- the worker ---- */

/* After a burst that did not keep or punt all of burst @p base's mbufs: replace the freed ones. */
static void
refill(unsigned int base, struct rte_mbuf *const *kept, uint16_t nk, struct rte_mbuf *const *pd,
	unsigned int np)
{
	unsigned int i, j;

	for (i = 0; i < BURST; i++) {
		struct rte_mbuf *m = bufs[base + i];
		bool held = false;

		for (j = 0; j < nk && !held; j++)
			held = kept[j] == m;
		for (j = 0; j < np && !held; j++)
			held = pd[j] == m;
		if (held)
			continue;
		m = rte_pktmbuf_alloc(pool);
		if (m == NULL || rte_pktmbuf_append(m, FRAME_LEN) == NULL) {
			worker_failed = 1;
			stop = 1;
			return;
		}
		bufs[base + i] = m;
	}
}

static int
worker(void *arg __rte_unused)
{
	struct rte_mbuf *pk[BURST], *pd[BURST];
	uint16_t out[BURST], nk;
	unsigned int base = 0, i, np;
	void *m = NULL;

	if (pthread_getcpuclockid(pthread_self(), &worker_clock) != 0)
		worker_failed = 1;
	__atomic_store_n(&worker_started, 1, __ATOMIC_RELEASE);
	while (!stop) {
		for (i = 0; i < BURST; i++) {
			pk[i] = bufs[base + i];
			rte_memcpy(rte_pktmbuf_mtod(pk[i], void *), tmpl[base + i], FRAME_LEN);
		}
		nk = rt_route_burst(&wk, 0, pk, BURST, out);
		/* the slow path's ring: we are its consumer, the frames are ours */
		for (np = 0; np < BURST && rte_ring_dequeue(punt, &m) == 0; np++)
			pd[np] = m;
		n_punted += np;
		if (unlikely(nk + np != BURST))
			refill(base, pk, nk, pd, np);
		rt_worker_quiescent(&wk);
		__atomic_store_n(&n_sent, n_sent + BURST, __ATOMIC_RELAXED);
		base = (base + BURST) % NDST;
	}
	return 0;
}

/* ---- the churn (main lcore) ---- */

static uint32_t
gw_other(uint32_t gw, unsigned int k)
{
	uint32_t g = gws[k % n_gw];

	return g != gw ? g : gws[(k + 1) % n_gw];
}

static int
route_add(uint32_t prefix, uint32_t gw, char *err, size_t errlen)
{
	const struct rt4_route_req req = {.src = RT_SRC_CONFIG,
		.prefix = prefix,
		.plen = 24,
		.kind = RT_ROUTE_VIA,
		.n_hops = 1,
		.hop[0] = {gw, -1}};

	return rt4_route_set(tbl, &req, err, errlen);
}

static int
route_replace(uint32_t prefix, uint8_t plen, uint32_t gw, char *err, size_t errlen)
{
	const struct rt4_route_req req = {.src = RT_SRC_CONFIG,
		.prefix = prefix,
		.plen = plen,
		.kind = RT_ROUTE_VIA,
		.flags = RT_ROUTE_F_REPLACE,
		.n_hops = 1,
		.hop[0] = {gw, -1}};

	return rt4_route_set(tbl, &req, err, errlen);
}

static int
churn_del(uint32_t prefix, char *err, size_t errlen)
{
	return rt4_route_del(tbl,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG, .prefix = prefix, .plen = 24},
		err, errlen);
}

/* Update number n_ops: see the file's comment. */
static int
churn_one(void)
{
	const uint64_t k = n_ops++;
	char err[RT_ERR_LEN];
	uint32_t i;
	int ret;

	if (k % 8 == 7) {
		n_repl++;
		if ((k / 8) % 2 == 0 || n_dst_route == 0) {
			i = head - 1 - rnd() % live;
			return route_replace(cand[i % n_cand], 24, gw_other(0, (uint32_t)k / 8),
				err, sizeof(err));
		}
		i = rnd() % n_dst_route;
		ret = route_replace(dst_route[i].prefix, dst_route[i].plen,
			replaced[i] ? dst_route[i].gw : gw_other(dst_route[i].gw, (uint32_t)k / 8),
			err, sizeof(err));
		if (ret == 0)
			replaced[i] ^= 1;
		return ret;
	}
	/* add and delete in turn, once the window is full */
	if (live < WINDOW || n_adds == n_dels) {
		ret = route_add(cand[head % n_cand], gws[head % n_gw], err, sizeof(err));
		if (ret == 0) {
			head++;
			live++;
			n_adds++;
		}
		return ret;
	}
	ret = churn_del(cand[(head - live) % n_cand], err, sizeof(err));
	if (ret == 0) {
		live--;
		n_dels++;
	}
	return ret;
}

/*
 * Updates at @p rate a second (0: as fast as they go), or none (< 0), for
 * @p cyc cycles, @p owed of them late from before: due at once.
 */
static void
churn_for(long rate, uint64_t cyc, uint64_t owed)
{
	const uint64_t t0 = rte_rdtsc(), end = t0 + cyc;
	const double period = rate > 0 ? (double)rte_get_tsc_hz() / (double)rate : 0;
	double next = (double)t0 - (double)owed * period;
	uint64_t now;

	while ((now = rte_rdtsc()) < end) {
		/*
		 * The worker alone: the main lcore spins as it does between paced
		 * updates, so that both phases leave the shared machine's other
		 * processes the same CPU and differ by the updates only.
		 */
		if (rate < 0 || (double)now < next) {
			rte_pause();
			continue;
		}
		if (churn_one() != 0 && n_failed++ < 5)
			fprintf(stderr, "churn_bench: update %" PRIu64 " refused\n", n_ops - 1);
		next += period;
	}
}

/* A phase's totals over its slices. */
struct phase {
	const char *name;
	long rate; /* < 0: no churn */
	uint64_t cyc, ops, adds, dels, repl, pkts;
	uint64_t wcpu, mcpu; /* ns of CPU the worker and the main lcore had */
};

static uint64_t
cpu_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One slice of @p secs of phase @p p, added to its totals. */
static void
run_slice(struct phase *p, double secs)
{
	const uint64_t hz = rte_get_tsc_hz();
	uint64_t t0, s0, ops0 = n_ops, a0 = n_adds, d0 = n_dels, r0 = n_repl;
	const uint64_t w0 = cpu_ns(worker_clock), m0 = cpu_ns(CLOCK_THREAD_CPUTIME_ID);

	t0 = rte_rdtsc();
	s0 = __atomic_load_n(&n_sent, __ATOMIC_RELAXED);
	/* the updates a slice could not make (the writer lost its CPU) are made up in the next */
	churn_for(p->rate, (uint64_t)(secs * (double)hz),
		p->rate > 0 ? (uint64_t)RTE_MAX(0.0, (double)p->cyc * (double)p->rate / (double)hz -
							     (double)p->ops)
			    : 0);
	p->pkts += __atomic_load_n(&n_sent, __ATOMIC_RELAXED) - s0;
	p->cyc += rte_rdtsc() - t0;
	p->ops += n_ops - ops0;
	p->adds += n_adds - a0;
	p->dels += n_dels - d0;
	p->repl += n_repl - r0;
	p->wcpu += cpu_ns(worker_clock) - w0;
	p->mcpu += cpu_ns(CLOCK_THREAD_CPUTIME_ID) - m0;
}

/* ---- set-up and the checks at the end ---- */

static int
cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Destinations (frames), the loaded routes they go to, the gateways, the churn's /24s. */
static int
setup_traffic(uint32_t n_routes)
{
	struct rt_route *all = calloc(n_routes, sizeof(*all)), r;
	uint32_t n, i, j;

	dst_route = calloc(NDST, sizeof(*dst_route));
	replaced = calloc(NDST, 1);
	if (all == NULL || dst_route == NULL || replaced == NULL)
		return -1;
	n = RTE_MIN(rt_route_list(tbl, all, n_routes), n_routes);
	for (i = 0, j = 0; i < n; i++)
		if (all[i].kind == RT_ROUTE_VIA && all[i].plen > 0)
			all[j++] = all[i];
	n = j;
	/* a quarter of the frames to the churn's space, the rest to the loaded routes */
	for (i = 0; i < NDST; i++) {
		struct pkt_spec spec = {
			.dst_mac = BENCH_TABLE_MAC0,
			.src_mac = {{0x02, 0, 0, 0, 0, 9}},
			.src = IP4(10, 0, 0, 9),
			.payload = FRAME_LEN - RTE_ETHER_HDR_LEN - sizeof(struct rte_ipv4_hdr),
		};

		if (i % 4 == 3 || n == 0) {
			spec.dst = CAND_BASE | (rnd() % (N_CAND << 8));
		} else {
			r = all[rnd() % n];
			spec.dst = r.prefix | (r.plen == 32 ? 0 : rnd() & (UINT32_MAX >> r.plen));
			dst_route[n_dst_route++] = r;
		}
		/* the frame as RX leaves it, and its copy, put back before each burst */
		bufs[i] = pkt_make(pool, &spec);
		if (bufs[i] == NULL)
			return -1;
		memcpy(tmpl[i], rte_pktmbuf_mtod(bufs[i], void *), FRAME_LEN);
	}
	/* the gateways: the loaded routes' (they have neighbours), else the default's */
	for (i = 0; i < n_dst_route && n_gw < MAX_GW; i++)
		gws[n_gw++] = dst_route[i].gw;
	if (n_gw == 0)
		gws[n_gw++] = BENCH_TABLE_GW0;
	qsort(gws, n_gw, sizeof(gws[0]), cmp_u32);
	for (i = 1, j = 1; i < n_gw; i++)
		if (gws[i] != gws[j - 1])
			gws[j++] = gws[i];
	n_gw = j;
	/* the /24s, scattered (7919 is prime), that the loaded table does not have */
	for (i = 0; i < N_CAND; i++) {
		uint32_t p = CAND_BASE | (i * 7919u % N_CAND) << 8;

		if (rt_route_get(tbl, p, 24, true, &r) != 0)
			cand[n_cand++] = p;
	}
	free(all);
	return n_cand > WINDOW ? 0 : -1;
}

/* Take the churn's routes out, put the replaced gateways back; 0 when the table is as loaded. */
static int
restore(uint32_t loaded)
{
	struct rt_route_summary s;
	char err[RT_ERR_LEN];
	struct rt_route r;
	uint32_t i;
	int bad = 0;

	for (; live > 0; live--)
		bad |= churn_del(cand[(head - live) % n_cand], err, sizeof(err));
	for (i = 0; i < n_dst_route; i++)
		if (replaced[i])
			bad |= route_replace(dst_route[i].prefix, dst_route[i].plen,
				dst_route[i].gw, err, sizeof(err));
	/* then check: a route may be the destination of more than one frame */
	for (i = 0; i < n_dst_route; i++)
		if (rt_route_get(tbl, dst_route[i].prefix, dst_route[i].plen, true, &r) != 0 ||
			r.gw != dst_route[i].gw)
			bad = -1;
	rt_route_summary_get(tbl, &s);
	printf("# end: %u routes, loaded %u: %s\n", s.routes, loaded,
		s.routes == loaded && bad == 0 ? "ok" : "NOT THE SAME");
	return s.routes == loaded && bad == 0 ? 0 : -1;
}

/* Every mbuf back in the pool, every frame counted; 0 when so. */
static int
account(void)
{
	uint64_t drops = 0;
	unsigned int i, avail;
	void *m = NULL;

	while (rte_ring_dequeue(punt, &m) == 0) {
		n_punted++;
		rte_pktmbuf_free(m);
	}
	for (i = 0; i < NDST; i++)
		rte_pktmbuf_free(bufs[i]);
	for (i = 0; i < RT_DROP_MAX; i++)
		drops += wk.drops[i];
	avail = rte_mempool_avail_count(pool);
	printf("# end: frames %" PRIu64 " = forwarded %" PRIu64 " + punted %" PRIu64
	       " + dropped %" PRIu64 ": %s; mbufs %u of %u back: %s\n",
		n_sent, wk.stats.fwd, n_punted, drops,
		n_sent == wk.stats.fwd + n_punted + drops ? "ok" : "NOT COUNTED", avail, pool->size,
		avail == pool->size ? "ok" : "LEAK");
	return n_sent == wk.stats.fwd + n_punted + drops && avail == pool->size && !worker_failed
		       ? 0
		       : -1;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"rate", required_argument, NULL, 'r'},
		{"seconds", required_argument, NULL, 's'},
		{NULL, 0, NULL, 0},
	};
	struct phase ph[] = {
		{.name = "alone", .rate = -1},
		{.name = "churn", .rate = 100000},
		{.name = "churn max", .rate = 0},
	};
	struct rt_route_summary s;
	unsigned int lcore, i, k, slices;
	double secs = 5, mpps[3], mppc[3];
	char err[256], name[32];
	int n, opt, bad;

	n = rte_eal_init(argc, argv);
	if (n < 0)
		return 1;
	rte_srand(17); /* the same frames and updates from run to run */
	argc -= n;
	argv += n;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (opt == 'r')
			ph[1].rate = atol(optarg);
		else if (opt == 's')
			secs = atof(optarg);
		else
			return 2;
	}
	lcore = rte_get_next_lcore(-1, 1, 0);
	if (argc - optind != 2 || secs <= 0 || ph[1].rate < 0 || lcore >= RTE_MAX_LCORE) {
		fprintf(stderr, "usage: churn_bench EAL... (2 lcores) -- [--rate N] [--seconds S] "
				"ROUTES_FILE NEIGH_FILE\n");
		return 2;
	}
	tbl = bench_table_load("churn_bench", argv[optind], argv[optind + 1], err, sizeof(err));
	if (tbl == NULL) {
		fprintf(stderr, "churn_bench: %s\n", err);
		return 1;
	}
	rt_route_summary_get(tbl, &s);
	pool = rte_pktmbuf_pool_create(
		"churn", NDST + 1023, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	punt = rte_ring_create("churn_punt", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (pool == NULL || punt == NULL || setup_traffic(s.routes) != 0 ||
		rt_worker_init(&wk, tbl, punt, lcore, NULL) != 0) {
		fprintf(stderr, "churn_bench: set-up failed\n");
		return 1;
	}
	/* the churn's window, before the phases */
	while (live < WINDOW)
		if (churn_one() != 0) {
			fprintf(stderr, "churn_bench: an add of the window failed\n");
			return 1;
		}
	n_ops = n_adds = n_dels = n_repl = 0;
	printf("# table: %u routes, %u neighbours; %u frames to %u of its routes and to "
	       "100.0.0.0/10, where the churn keeps %u of %u /24s through %u gateways\n",
		s.routes, s.neighbours, NDST, n_dst_route, WINDOW, n_cand, n_gw);
	printf("%-16s %10s %8s %8s %8s %8s %6s %6s %9s %6s %6s %10s\n", "phase", "updates/s",
		"adds", "dels", "replaces", "Mpps", "ratio", "cpu%", "Mpps/cpu", "ratio", "m-cpu%",
		"upd/cpu-s");
	fflush(stdout);
	rte_eal_remote_launch(worker, NULL, lcore);
	while (!__atomic_load_n(&worker_started, __ATOMIC_ACQUIRE))
		rte_pause();
	/*
	 * The phases in turn, a slice each, until each has had its seconds: the
	 * shared machine's load then weighs on all three alike. Each slice is
	 * warmed up for 20 ms (untimed): the first updates after a change of
	 * phase find their caches cold.
	 */
	slices = RTE_MAX(1u, (unsigned int)(secs / SLICE_S + 0.5));
	for (k = 0; k < slices; k++)
		for (i = 0; i < RTE_DIM(ph); i++) {
			churn_for(ph[i].rate, rte_get_tsc_hz() / 50, 0);
			run_slice(&ph[i], secs / slices);
		}
	/*
	 * Per second of the phase, and per second of CPU its thread had (the
	 * machine is shared: "cpu%" is how much of its core each one got).
	 */
	for (i = 0; i < RTE_DIM(ph); i++) {
		const double t = (double)ph[i].cyc / (double)rte_get_tsc_hz();
		const double wt = (double)RTE_MAX(ph[i].wcpu, 1u) / 1e9;
		const double mt = (double)RTE_MAX(ph[i].mcpu, 1u) / 1e9;

		mpps[i] = (double)ph[i].pkts / t / 1e6;
		mppc[i] = (double)ph[i].pkts / wt / 1e6;
		if (ph[i].rate > 0)
			snprintf(name, sizeof(name), "%s %ld/s", ph[i].name, ph[i].rate);
		else
			snprintf(name, sizeof(name), "%s", ph[i].name);
		printf("%-16s %10.0f %8" PRIu64 " %8" PRIu64 " %8" PRIu64
		       " %8.2f %6.2f %6.0f %9.2f "
		       "%6.2f %6.0f %10.0f\n",
			name, (double)ph[i].ops / t, ph[i].adds, ph[i].dels, ph[i].repl, mpps[i],
			mpps[0] > 0 ? mpps[i] / mpps[0] : 0, 100 * wt / t, mppc[i],
			mppc[0] > 0 ? mppc[i] / mppc[0] : 0, 100 * mt / t, (double)ph[i].ops / mt);
	}
	stop = 1;
	rte_eal_wait_lcore(lcore);
	rt_worker_fini(&wk);
	bad = restore(s.routes);
	bad |= account();
	if (n_failed != 0) {
		printf("# end: %" PRIu64 " updates refused\n", n_failed);
		bad = -1;
	}
	printf("# TSC %.2f GHz, %.1f s a phase\n", (double)rte_get_tsc_hz() / 1e9, secs);
	rt_table_free(tbl);
	rte_ring_free(punt);
	rte_mempool_free(pool);
	free(dst_route);
	free(replaced);
	rte_eal_cleanup();
	return bad != 0;
}
