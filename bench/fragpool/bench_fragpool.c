/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * fragpool against DPDK's own allocators, every variant in the same run,
 * interleaved (A B C ... A B C ...), one lcore.
 *
 *	bench-fragpool [EAL args] -- [--reps R] [--ops N] [--only SCENARIO]
 *
 * A scenario is a workload (alloc-then-free, FIFO of 512 or 4096 in flight,
 * FIFO 512 with 1 % stragglers held 100x longer) and a size (64 B, IMIX 7:4:1
 * of 64/594/1518 B, 2 KiB). Every allocation gets one 8-byte store at the
 * start of its data (the packet is written), every free is of the object
 * allocated depth operations earlier. Reported: cycles per alloc+free
 * (rte_rdtsc_precise() around N operations), median and p5/p95 over the
 * repetitions, the working set (distinct cache lines the allocator and the
 * one store touch over N operations: for fragpool the fragment, the chunk's
 * first header line and its fragment-map line), and ratios against the best
 * DPDK baseline of the same scenario.
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fragpool.h"

#define BURST       32
#define STRAG_EVERY 100
#define STRAG_DEPTH 512
#define MAX_DEPTH   4096
#define N_MBUFS     16383
#define MP_CACHE    512
#define FP_CHUNKS   2048

/* X(id, "label", is_dpdk_baseline) */
#define VARIANTS(X)                                           \
	X(PKT, "rte_pktmbuf_alloc/free", 1)                   \
	X(PKT_BULK, "rte_pktmbuf_alloc_bulk/free_bulk", 1)    \
	X(RAW, "rte_mbuf_raw_alloc/raw_free", 1)              \
	X(MP_BULK, "rte_mempool_get_bulk/put_bulk", 1)        \
	X(FP_RAW, "fragpool_alloc/put", 0)                    \
	X(FP_BULK, "fragpool_alloc_bulk/put_bulk", 0)         \
	X(FP_MBUF, "fragpool_mbuf_alloc/rte_pktmbuf_free", 0) \
	X(FP_EXT, "fragpool_extbuf_alloc/rte_pktmbuf_free", 0)

enum variant {
#define V_ENUM(id, label, base) V_##id,
	VARIANTS(V_ENUM)
#undef V_ENUM
		V_MAX
};

static const char *const v_label[] = {
#define V_LABEL(id, label, base) label,
	VARIANTS(V_LABEL)
#undef V_LABEL
};

static const int v_baseline[] = {
#define V_BASE(id, label, base) base,
	VARIANTS(V_BASE)
#undef V_BASE
};

enum size_kind { SZ_64, SZ_IMIX, SZ_2K, SZ_MAX };
static const char *const size_label[] = {"64B", "IMIX", "2KiB"};

struct scenario {
	const char *workload;
	unsigned int depth; /* 0: free right after alloc */
	int stragglers;
	enum size_kind size;
};

struct bench {
	struct rte_mempool *mp;  /* pktmbuf pool, 2 KiB data room */
	struct rte_mempool *hdr; /* header-only pktmbuf pool for the extbuf flavour */
	struct fragpool *fp;     /* recreated per scenario and variant */
	uint16_t *lens;          /* ops lengths, cycled */
	unsigned int n_ops;
	void **fifo;
	void **strag;
	void *stash[BURST]; /* bulk variants: allocated, not yet handed out */
	unsigned int n_stash;
	void *out[BURST]; /* bulk variants: freed, not yet put back */
	unsigned int n_out;
	uint64_t *lines; /* working-set recording */
	unsigned int n_lines;
};

static struct bench B;

static __rte_always_inline void
rec(uintptr_t a)
{
	B.lines[B.n_lines++] = a & ~(uintptr_t)(RTE_CACHE_LINE_SIZE - 1);
}

static __rte_always_inline void *
do_alloc(enum variant v, uint32_t len, int record)
{
	struct rte_mbuf *m = NULL;
	void *obj = NULL;
	uint8_t *data;

	switch (v) {
	case V_PKT:
		m = rte_pktmbuf_alloc(B.mp);
		break;
	case V_RAW:
		m = rte_mbuf_raw_alloc(B.mp);
		break;
	case V_PKT_BULK:
		if (B.n_stash == 0) {
			if (rte_pktmbuf_alloc_bulk(B.mp, (struct rte_mbuf **)B.stash, BURST) != 0)
				return NULL;
			B.n_stash = BURST;
		}
		m = B.stash[--B.n_stash];
		break;
	case V_MP_BULK:
		if (B.n_stash == 0) {
			if (rte_mempool_get_bulk(B.mp, B.stash, BURST) != 0)
				return NULL;
			B.n_stash = BURST;
		}
		obj = B.stash[--B.n_stash];
		break;
	case V_FP_RAW:
		obj = fragpool_alloc(B.fp, len);
		break;
	case V_FP_BULK:
		/* Same length per burst: the bulk call carves one run. */
		if (B.n_stash == 0) {
			if (fragpool_alloc_bulk(B.fp, B.stash, BURST, len) != 0)
				return NULL;
			B.n_stash = BURST;
		}
		obj = B.stash[--B.n_stash];
		break;
	case V_FP_MBUF:
		m = fragpool_mbuf_alloc(B.fp, len);
		break;
	case V_FP_EXT:
		m = fragpool_extbuf_alloc(B.fp, B.hdr, len);
		break;
	default:
		break;
	}
	if (m != NULL) {
		obj = m;
		data = rte_pktmbuf_mtod(m, uint8_t *);
	} else if (v == V_MP_BULK) {
		/* A raw mempool object is an mbuf: write where its packet data would be. */
		data = (uint8_t *)obj + sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM;
	} else {
		data = obj;
	}
	if (unlikely(obj == NULL))
		return NULL;
	*(volatile uint64_t *)data = len;
	if (record) {
		rec((uintptr_t)data);
		if (m != NULL) {
			rec((uintptr_t)m);
			rec((uintptr_t)m + RTE_CACHE_LINE_SIZE);
			if (RTE_MBUF_HAS_EXTBUF(m))
				rec((uintptr_t)m->shinfo);
		}
		if (v >= V_FP_RAW) {
			const uint8_t *f = v == V_FP_EXT ? m->buf_addr : obj;
			struct fragpool_chunk *c = fragpool_chunk_of(f);

			/* The chunk's first header line and its fragment-map line. */
			rec((uintptr_t)c);
			rec((uintptr_t)&c->lmap[fragpool_map_idx((uint32_t)(f - (uint8_t *)c))]);
		}
	}
	return obj;
}

static __rte_always_inline void
do_free(enum variant v, void *obj)
{
	switch (v) {
	case V_PKT:
	case V_FP_MBUF:
	case V_FP_EXT:
		rte_pktmbuf_free(obj);
		break;
	case V_RAW:
		rte_mbuf_raw_free(obj);
		break;
	case V_PKT_BULK:
		B.out[B.n_out++] = obj;
		if (B.n_out == BURST) {
			rte_pktmbuf_free_bulk((struct rte_mbuf **)B.out, BURST);
			B.n_out = 0;
		}
		break;
	case V_MP_BULK:
		B.out[B.n_out++] = obj;
		if (B.n_out == BURST) {
			rte_mempool_put_bulk(B.mp, B.out, BURST);
			B.n_out = 0;
		}
		break;
	case V_FP_RAW:
		fragpool_put(B.fp, obj);
		break;
	case V_FP_BULK:
		B.out[B.n_out++] = obj;
		if (B.n_out == BURST) {
			fragpool_put_bulk(B.fp, B.out, BURST);
			B.n_out = 0;
		}
		break;
	default:
		break;
	}
}

/* Flush the bulk variants' stashes (outside the timed part). */
static void
drain_stash(enum variant v)
{
	while (B.n_stash > 0)
		do_free(v, B.stash[--B.n_stash]);
	switch (v) {
	case V_PKT_BULK:
		rte_pktmbuf_free_bulk((struct rte_mbuf **)B.out, B.n_out);
		break;
	case V_MP_BULK:
		rte_mempool_put_bulk(B.mp, B.out, B.n_out);
		break;
	case V_FP_BULK:
		fragpool_put_bulk(B.fp, B.out, B.n_out);
		break;
	default:
		break;
	}
	B.n_out = 0;
}

/* Returns the cycles of n_ops alloc+free, or UINT64_MAX if an allocation failed. */
static __rte_always_inline uint64_t
run_body(enum variant v, const struct scenario *s, int record)
{
	const unsigned int depth = s->depth, mask = B.n_ops - 1;
	unsigned int i, head = 0, shead = 0, nfree = 0;
	uint64_t t0, t1;
	void *obj;

	/* Fill the pipelines first: the timed part is steady state. */
	for (i = 0; i < depth; i++)
		if ((B.fifo[i] = do_alloc(v, B.lens[i & mask], 0)) == NULL)
			return UINT64_MAX;
	if (s->stragglers)
		for (i = 0; i < STRAG_DEPTH; i++)
			if ((B.strag[i] = do_alloc(v, B.lens[i & mask], 0)) == NULL)
				return UINT64_MAX;
	B.n_lines = 0;
	t0 = rte_rdtsc_precise();
	for (i = 0; i < B.n_ops; i++) {
		obj = do_alloc(v, B.lens[i], record);
		if (unlikely(obj == NULL))
			return UINT64_MAX;
		if (depth != 0) {
			void *old = B.fifo[head];

			B.fifo[head] = obj;
			head = head + 1 == depth ? 0 : head + 1;
			obj = old;
		}
		if (s->stragglers && ++nfree == STRAG_EVERY) {
			void *old = B.strag[shead];

			nfree = 0;
			B.strag[shead] = obj;
			shead = shead + 1 == STRAG_DEPTH ? 0 : shead + 1;
			obj = old;
		}
		do_free(v, obj);
	}
	t1 = rte_rdtsc_precise();
	for (i = 0; i < depth; i++)
		do_free(v, B.fifo[i]);
	if (s->stragglers)
		for (i = 0; i < STRAG_DEPTH; i++)
			do_free(v, B.strag[i]);
	drain_stash(v);
	return t1 - t0;
}

/* One specialised copy per variant, so no switch is left in the loop. */
#define V_RUN(id, label, base)                                                        \
	static __rte_noinline uint64_t run_##id(const struct scenario *s, int record) \
	{                                                                             \
		return record ? run_body(V_##id, s, 1) : run_body(V_##id, s, 0);      \
	}
VARIANTS(V_RUN)
#undef V_RUN

static uint64_t (*const runners[])(const struct scenario *, int) = {
#define V_FN(id, label, base) run_##id,
	VARIANTS(V_FN)
#undef V_FN
};

static void
fill_lens(enum size_kind k)
{
	static const uint16_t imix[12] = {64, 64, 64, 64, 64, 64, 64, 594, 594, 594, 594, 1518};
	unsigned int i;
	uint64_t x = 88172645463325252ull;

	for (i = 0; i < B.n_ops; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		B.lens[i] = k == SZ_64 ? 64 : k == SZ_2K ? 2048 : imix[x % 12];
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
working_set_kib(void)
{
	unsigned int i, n = 0;

	qsort(B.lines, B.n_lines, sizeof(B.lines[0]), cmp_u64);
	for (i = 0; i < B.n_lines; i++)
		if (i == 0 || B.lines[i] != B.lines[i - 1])
			n++;
	return (double)n * RTE_CACHE_LINE_SIZE / 1024;
}

static void
run_scenario(const struct scenario *s, unsigned int reps)
{
	static double cyc[V_MAX][64];
	double med[V_MAX], p5[V_MAX], p95[V_MAX], best = 0;
	double ws[V_MAX];
	unsigned int v, r;
	struct fragpool_stats st[V_MAX];
	unsigned int peak[V_MAX];
	struct fragpool *fps[V_MAX] = {0};
	char name[32];

	fill_lens(s->size);
	/* One fragpool per fragpool variant, fresh for the scenario (its stats are per scenario). */
	for (v = V_FP_RAW; v < V_MAX; v++) {
		snprintf(name, sizeof(name), "b%u", v);
		struct fragpool_params p = {.name = name,
			.lcore_id = rte_lcore_id(),
			.socket_id = SOCKET_ID_ANY,
			.n_chunks = FP_CHUNKS};
		fps[v] = fragpool_create(&p);
		if (fps[v] == NULL)
			rte_exit(EXIT_FAILURE, "fragpool_create: %s\n", rte_strerror(rte_errno));
		/* Page offsets matter (4K aliasing between pool state and fragments). */
		if (getenv("BENCH_FP_ADDR") != NULL)
			printf("# %s: fp %p arena %p\n", v_label[v], (void *)fps[v],
				(void *)fps[v]->arena);
	}
	/* Warm-up pass per variant, recording the working set. */
	for (v = 0; v < V_MAX; v++) {
		B.fp = fps[v];
		if (runners[v](s, 1) == UINT64_MAX)
			rte_exit(EXIT_FAILURE, "%s: allocation failed\n", v_label[v]);
		ws[v] = working_set_kib();
	}
	for (r = 0; r < reps; r++)
		for (v = 0; v < V_MAX; v++) {
			uint64_t c;

			B.fp = fps[v];
			c = runners[v](s, 0);
			if (c == UINT64_MAX)
				rte_exit(EXIT_FAILURE, "%s: allocation failed\n", v_label[v]);
			cyc[v][r] = (double)c / B.n_ops;
		}
	if (getenv("BENCH_FP_RAW") != NULL)
		for (v = 0; v < V_MAX; v++) {
			printf("# %s:", v_label[v]);
			for (r = 0; r < reps; r++)
				printf(" %.1f", cyc[v][r]);
			printf("\n");
		}
	for (v = 0; v < V_MAX; v++) {
		double sorted[64];

		memcpy(sorted, cyc[v], sizeof(double) * reps);
		for (r = 1; r < reps; r++) { /* insertion sort: reps is small */
			double x = sorted[r];
			unsigned int j = r;

			for (; j > 0 && sorted[j - 1] > x; j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = x;
		}
		med[v] = sorted[reps / 2];
		p5[v] = sorted[(unsigned int)(0.05 * (reps - 1))];
		p95[v] = sorted[(unsigned int)(0.95 * (reps - 1) + 0.999)];
		if (v_baseline[v] && (best == 0 || med[v] < best))
			best = med[v];
		if (fps[v] != NULL) {
			fragpool_stats_get(fps[v], &st[v]);
			peak[v] = fragpool_chunks_peak(fps[v]);
			if (fragpool_in_use(fps[v]) != 0)
				rte_exit(EXIT_FAILURE, "%s leaked %" PRIu64 " fragments\n",
					v_label[v], fragpool_in_use(fps[v]));
			fragpool_free(fps[v]);
		}
	}
	printf("\n### %s, %s (%u ops x %u reps)\n\n", s->workload, size_label[s->size], B.n_ops,
		reps);
	printf("| variant | median | p5 | p95 | best DPDK / this | working set KiB | chunks: "
	       "recycled in place / reused / partial / fresh (peak) | recycle-cache hits |\n");
	printf("|---|---:|---:|---:|---:|---:|---|---:|\n");
	for (v = 0; v < V_MAX; v++) {
		printf("| %s | %.1f | %.1f | %.1f | %.2fx | %.1f |", v_label[v], med[v], p5[v],
			p95[v], best / med[v], ws[v]);
		if (fps[v] != NULL)
			printf(" %" PRIu64 " / %" PRIu64 " / %" PRIu64 " / %" PRIu64
			       " (%u) | %.1f %% |\n",
				st[v].recycles, st[v].reused_chunks, st[v].partial_chunks,
				st[v].fresh_chunks, peak[v],
				st[v].allocs != 0
					? 100.0 * (double)st[v].cache_hits / (double)st[v].allocs
					: 0.0);
		else
			printf(" | |\n");
	}
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static const struct scenario workloads[] = {
		{"alloc-then-free", 0, 0, 0},
		{"FIFO 512 in flight", 512, 0, 0},
		{"FIFO 4096 in flight", 4096, 0, 0},
		{"FIFO 512 + 1% stragglers held 100x longer", 512, 1, 0},
	};
	static const struct option opts[] = {
		{"reps", required_argument, NULL, 'r'},
		{"ops", required_argument, NULL, 'n'},
		{"only", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	unsigned int reps = 21, w, k;
	int only = -1, ret, c;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		rte_exit(EXIT_FAILURE, "rte_eal_init failed\n");
	argc -= ret;
	argv += ret;
	B.n_ops = 65536;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			reps = (unsigned int)atoi(optarg);
			break;
		case 'n':
			B.n_ops = rte_align32pow2((uint32_t)atoi(optarg));
			break;
		case 'o':
			only = atoi(optarg);
			break;
		default:
			rte_exit(EXIT_FAILURE,
				"usage: bench-fragpool [EAL] -- [--reps R] [--ops N] "
				"[--only SCENARIO_INDEX]\n");
		}
	}
	if (reps < 11 || reps > 64)
		rte_exit(EXIT_FAILURE, "--reps must be 11..64\n");

	B.mp = rte_pktmbuf_pool_create(
		"bench_mp", N_MBUFS, MP_CACHE, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	B.hdr = rte_pktmbuf_pool_create("bench_hdr", N_MBUFS, MP_CACHE, 0, 0, SOCKET_ID_ANY);
	B.lens = rte_malloc(NULL, sizeof(*B.lens) * B.n_ops, 0);
	B.fifo = rte_malloc(NULL, sizeof(void *) * MAX_DEPTH, 0);
	B.strag = rte_malloc(NULL, sizeof(void *) * STRAG_DEPTH, 0);
	B.lines = rte_malloc(NULL, sizeof(uint64_t) * 6 * B.n_ops, 0); /* up to 6 lines per op */
	if (B.mp == NULL || B.hdr == NULL || !B.lens || !B.fifo || !B.strag || !B.lines)
		rte_exit(EXIT_FAILURE, "no memory: %s\n", rte_strerror(rte_errno));

	printf("# bench-fragpool: cycles per alloc+free (rte_rdtsc_precise), %u reps interleaved, "
	       "TSC %" PRIu64 " Hz, lcore %u\n",
		reps, rte_get_tsc_hz(), rte_lcore_id());
	printf("# mempool: %u mbufs, cache %u, data room %u; fragpool: %u chunks of %u B\n",
		N_MBUFS, MP_CACHE, RTE_MBUF_DEFAULT_BUF_SIZE, FP_CHUNKS, FRAGPOOL_CHUNK_SIZE);
	for (w = 0; w < RTE_DIM(workloads); w++)
		for (k = 0; k < SZ_MAX; k++) {
			struct scenario s = workloads[w];

			if (only >= 0 && (unsigned int)only != w * SZ_MAX + k)
				continue;
			s.size = k;
			run_scenario(&s, reps);
		}
	rte_mempool_free(B.mp);
	rte_mempool_free(B.hdr);
	rte_eal_cleanup();
	return 0;
}
