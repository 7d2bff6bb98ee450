/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's lookup structure (rt_fib, app/route/datapath/rt_fib.h) against
 * DPDK's rte_lpm and rte_fib (DIR24_8, 4-byte next hops) on a synthetic full
 * table: the DFZ's prefix-length mix (issue 17), 1 M routes over 64 k next
 * hops, made here from a fixed seed. For each: load time (median of 3),
 * memory (the DPDK heap's growth), cycles per lookup (bulks of 32 random
 * routed destinations, median of rounds) and cycles per add and delete at
 * 1 k and 1 M routes. rte_lpm's add scans the rules of its depth, so it is
 * loaded up to --lpm-max routes (default 100 k) three times, with the
 * per-add cost at each size; --lpm-full loads the whole table once more
 * (about 2 minutes) for its lookup and update figures on the full table.
 * Never run by the tests: bench/route/fib_bench.sh runs it, the results are
 * in docs/benchmarks-route.md.
 *
 *	fib_bench [EAL args] -- [--routes N] [--lpm-max N] [--lpm-full] [--rounds N] [--variants]
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_fib.h>
#include <rte_lpm.h>
#include <rte_malloc.h>
#include <rte_vect.h>

#include "rt_fib_ctl.h"

#define BULK      32
#define NEXT_HOPS 65536
#define TBL8      65536
#define MISS      0xffffffu

struct route {
	uint32_t prefix;
	uint8_t plen;
	uint32_t nh;
};

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint32_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 0x2545f4914f6cdd1dull) >> 32);
}

static inline uint32_t
mask_of(uint8_t plen)
{
	return plen == 0 ? 0 : UINT32_MAX << (32 - plen);
}

/*
 * Routes per million of each length: the DFZ's mix as issue 17 gives it
 * (60 % /24, 13 % /22, 12 % /23, 6 % /21, 5 % /20, 1.4 % /16), the rest
 * over /8../19 growing with the length, and a few longer than /24.
 */
static const uint32_t mix_ppm[33] = {
	[8] = 10,
	[9] = 20,
	[10] = 60,
	[11] = 150,
	[12] = 400,
	[13] = 800,
	[14] = 1500,
	[15] = 2500,
	[16] = 14000,
	[17] = 3500,
	[18] = 5000,
	[19] = 7000,
	[20] = 50000,
	[21] = 60000,
	[22] = 130000,
	[23] = 120000,
	[24] = 600000,
	[25] = 1200,
	[26] = 1000,
	[27] = 700,
	[28] = 600,
	[29] = 500,
	[30] = 400,
	[31] = 100,
	[32] = 500,
};

/* Open addressing set of (prefix, plen): the table has each route once. */
static uint64_t *seen;
static uint32_t seen_mask;

static int
seen_add(uint32_t prefix, uint8_t plen)
{
	const uint64_t key = ((uint64_t)prefix << 6 | plen) + 1;
	uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & seen_mask;

	while (seen[h] != 0) {
		if (seen[h] == key)
			return 0;
		h = (h + 1) & seen_mask;
	}
	seen[h] = key;
	return 1;
}

/* A unicast address (1.0.0.0 .. 223.255.255.255). */
static uint32_t
unicast(void)
{
	uint32_t ip;

	do
		ip = rnd();
	while ((ip >> 24) == 0 || (ip >> 24) >= 224 || (ip >> 24) == 127);
	return ip;
}

/* @p n routes of the mix, each once, in a random order (as a file gives them). */
static struct route *
make_table(uint32_t n)
{
	struct route *r = malloc(sizeof(*r) * n), t;
	uint32_t k = 0, len, want, i, j, room;

	seen_mask = 1;
	while (seen_mask < n * 2)
		seen_mask <<= 1;
	seen = calloc(seen_mask, sizeof(*seen));
	seen_mask--;
	for (len = 1; len <= 32; len++) {
		want = (uint32_t)((uint64_t)mix_ppm[len] * n / 1000000);
		room = len < 8 ? 0 : (len >= 12 ? UINT32_MAX : (224u << (len - 8)) / 2);
		want = RTE_MIN(want, room);
		for (i = 0; i < want && k < n;) {
			const uint32_t p = unicast() & mask_of((uint8_t)len);

			if (seen_add(p, (uint8_t)len)) {
				r[k++] = (struct route){p, (uint8_t)len, rnd() % NEXT_HOPS};
				i++;
			}
		}
	}
	while (k < n) { /* rounding: fill up with /24s */
		const uint32_t p = unicast() & mask_of(24);

		if (seen_add(p, 24))
			r[k++] = (struct route){p, 24, rnd() % NEXT_HOPS};
	}
	for (i = n - 1; i > 0; i--) {
		j = rnd() % (i + 1);
		t = r[i];
		r[i] = r[j];
		r[j] = t;
	}
	return r;
}

/* Destinations: a random address inside a random route. */
static uint32_t *
make_dests(const struct route *r, uint32_t nr, uint32_t n)
{
	uint32_t *d = malloc(sizeof(*d) * n), i;

	for (i = 0; i < n; i++) {
		const struct route *x = &r[rnd() % nr];

		d[i] = x->prefix | (rnd() & ~mask_of(x->plen));
	}
	return d;
}

static size_t
heap_used(void)
{
	struct rte_malloc_socket_stats st;
	size_t sum = 0;
	unsigned int s;

	for (s = 0; s < rte_socket_count(); s++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(s), &st) == 0)
			sum += st.heap_allocsz_bytes;
	return sum;
}

static int
cmp_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t
median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

static int
cmp_d(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median_d(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

/*
 * Touch the heap once: DPDK's zmalloc skips zeroing memory it has never
 * handed out (the kernel zeroed it), so without this the first load into a
 * structure takes a page fault per new 4 KiB of tbl24 and the figures
 * measure the kernel. Hugepages are faulted in by EAL already.
 */
static void
prefault(void)
{
	size_t sz;
	void *p;

	for (sz = (size_t)1600 << 20; sz >= (64u << 20); sz /= 2) {
		p = rte_malloc(NULL, sz, 0);
		if (p != NULL) {
			memset(p, 0, sz);
			rte_free(p);
			printf("# heap pre-faulted: %zu MiB\n", sz >> 20);
			return;
		}
	}
}

/* ---- the three structures behind one set of calls ---- */

enum kind { K_RT, K_LPM, K_FIB, K_N };
static const char *const kind_name[K_N] = {"rt_fib", "rte_lpm", "rte_fib"};

struct tbl {
	enum kind k;
	struct rt_fib *rt;
	struct rte_lpm *lpm;
	struct rte_fib *fib;
	size_t mem;
};

static int
tbl_create(struct tbl *t, enum kind k, uint32_t max_routes)
{
	static unsigned int seq;
	char name[32];

	memset(t, 0, sizeof(*t));
	t->k = k;
	snprintf(name, sizeof(name), "fb%u", seq++);
	t->mem = heap_used();
	if (k == K_RT) {
		t->rt = rt_fib_create(name, SOCKET_ID_ANY, TBL8, NULL);
	} else if (k == K_LPM) {
		struct rte_lpm_config c = {.max_rules = max_routes, .number_tbl8s = TBL8};

		t->lpm = rte_lpm_create(name, SOCKET_ID_ANY, &c);
	} else {
		struct rte_fib_conf c = {.type = RTE_FIB_DIR24_8,
			.default_nh = MISS,
			.max_routes = (int)max_routes,
			.dir24_8 = {.nh_sz = RTE_FIB_DIR24_8_4B, .num_tbl8 = TBL8}};

		t->fib = rte_fib_create(name, SOCKET_ID_ANY, &c);
	}
	if (t->rt == NULL && t->lpm == NULL && t->fib == NULL) {
		fprintf(stderr, "fib_bench: %s create: %s\n", kind_name[k],
			rte_strerror(rte_errno));
		return -1;
	}
	return 0;
}

static void
tbl_free(struct tbl *t)
{
	rt_fib_free(t->rt);
	rte_lpm_free(t->lpm);
	rte_fib_free(t->fib);
}

static inline int
tbl_add(struct tbl *t, const struct route *r)
{
	if (t->k == K_RT)
		return rt_fib_add(t->rt, r->prefix, r->plen, r->nh);
	if (t->k == K_LPM)
		return rte_lpm_add(t->lpm, r->prefix, r->plen, r->nh);
	return rte_fib_add(t->fib, r->prefix, r->plen, r->nh);
}

/* rt_fib's delete takes the covering route: @p sub (plen 0 = none). */
static inline int
tbl_del(struct tbl *t, const struct route *r, const struct route *sub)
{
	if (t->k == K_RT)
		return rt_fib_del(t->rt, r->prefix, r->plen, sub->nh, sub->plen);
	if (t->k == K_LPM)
		return rte_lpm_delete(t->lpm, r->prefix, r->plen);
	return rte_fib_delete(t->fib, r->prefix, r->plen);
}

static void
tbl_lookup(struct tbl *t, uint32_t *ips, uint32_t *hops, unsigned int n)
{
	uint64_t h64[BULK];
	unsigned int i, j;

	if (t->k == K_RT) {
		rt_fib_lookup_bulk(t->rt, ips, hops, n, MISS);
	} else if (t->k == K_LPM) {
		/* what the router does today (rt_lookup.h): four at a time */
		for (i = 0; i + 4 <= n; i += 4)
			rte_lpm_lookupx4(t->lpm, *(xmm_t *)&ips[i], &hops[i], MISS);
		for (; i < n; i++)
			if (rte_lpm_lookup(t->lpm, ips[i], &hops[i]) != 0)
				hops[i] = MISS;
	} else {
		for (i = 0; i < n; i += BULK) {
			const unsigned int k = RTE_MIN(n - i, (unsigned int)BULK);

			rte_fib_lookup_bulk(t->fib, &ips[i], h64, (int)k);
			for (j = 0; j < k; j++)
				hops[i + j] = (uint32_t)h64[j];
		}
	}
}

/* ---- rt_fib lookup forms, for --variants: which one the header keeps ---- */

/* one at a time */
static void
v_scalar(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		hops[i] = rt_fib_lookup(f, ips[i], MISS);
}

/* the whole bulk's tbl24 lines prefetched, then read (two passes, no step) */
static void
v_all(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n)
{
	uint32_t e[BULK];
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_prefetch0(&f->tbl24[ips[i] >> 8]);
	for (i = 0; i < n; i++) {
		e[i] = rt_fib_tbl24_entry(f, ips[i]);
		if (unlikely(e[i] & RT_FIB_EXT))
			e[i] = rt_fib_tbl8_entry(f, e[i], ips[i]);
	}
	for (i = 0; i < n; i++)
		hops[i] = (e[i] & RT_FIB_VALID) ? (e[i] & RT_FIB_NH_MASK) : MISS;
}

/* the first form of rt_fib_lookup_bulk(): steps of 16, the tbl8 lines prefetched in a pass of their own */
static void
v_two_pass16(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n)
{
	uint32_t e[16], ext;
	unsigned int b, i, k;

	for (b = 0; b < n; b += k) {
		k = RTE_MIN(n - b, 16u);
		for (i = 0; i < k; i++)
			rte_prefetch0(&f->tbl24[ips[b + i] >> 8]);
		ext = 0;
		for (i = 0; i < k; i++) {
			e[i] = rt_fib_tbl24_entry(f, ips[b + i]);
			ext |= e[i];
		}
		if (unlikely(ext & RT_FIB_EXT)) {
			for (i = 0; i < k; i++)
				if (e[i] & RT_FIB_EXT)
					rte_prefetch0(&f->tbl8[(e[i] & RT_FIB_NH_MASK) *
								       RT_FIB_TBL8_GROUP +
							       (ips[b + i] & 0xff)]);
			for (i = 0; i < k; i++)
				if (e[i] & RT_FIB_EXT)
					e[i] = rt_fib_tbl8_entry(f, e[i], ips[b + i]);
		}
		for (i = 0; i < k; i++)
			hops[b + i] = (e[i] & RT_FIB_VALID) ? (e[i] & RT_FIB_NH_MASK) : MISS;
	}
}

/* a rolling prefetch @p D ahead */
#define V_ROLL(D)                                                                            \
	static void v_roll##D(                                                               \
		const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n) \
	{                                                                                    \
		unsigned int i;                                                              \
		for (i = 0; i < RTE_MIN(n, (unsigned int)D); i++)                            \
			rte_prefetch0(&f->tbl24[ips[i] >> 8]);                               \
		for (i = 0; i < n; i++) {                                                    \
			if (i + D < n)                                                       \
				rte_prefetch0(&f->tbl24[ips[i + D] >> 8]);                   \
			hops[i] = rt_fib_lookup(f, ips[i], MISS);                            \
		}                                                                            \
	}
V_ROLL(8)
V_ROLL(16)

/* four at a time with SSE for the index and the result, the loads scalar */
static void
v_sse4(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n)
{
	const __m128i valid = _mm_set1_epi32((int)RT_FIB_VALID),
		      nhm = _mm_set1_epi32((int)RT_FIB_NH_MASK), miss = _mm_set1_epi32((int)MISS);
	unsigned int i;

	for (i = 0; i + 4 <= n; i += 4) {
		const __m128i ip = _mm_loadu_si128((const __m128i *)&ips[i]);
		const __m128i ix = _mm_srli_epi32(ip, 8);
		uint32_t e0 = f->tbl24[_mm_extract_epi32(ix, 0)],
			 e1 = f->tbl24[_mm_extract_epi32(ix, 1)],
			 e2 = f->tbl24[_mm_extract_epi32(ix, 2)],
			 e3 = f->tbl24[_mm_extract_epi32(ix, 3)];
		__m128i e, ok;

		if (unlikely((e0 | e1 | e2 | e3) & RT_FIB_EXT)) {
			if (e0 & RT_FIB_EXT)
				e0 = rt_fib_tbl8_entry(f, e0, ips[i]);
			if (e1 & RT_FIB_EXT)
				e1 = rt_fib_tbl8_entry(f, e1, ips[i + 1]);
			if (e2 & RT_FIB_EXT)
				e2 = rt_fib_tbl8_entry(f, e2, ips[i + 2]);
			if (e3 & RT_FIB_EXT)
				e3 = rt_fib_tbl8_entry(f, e3, ips[i + 3]);
		}
		e = _mm_set_epi32((int)e3, (int)e2, (int)e1, (int)e0);
		ok = _mm_cmpeq_epi32(_mm_and_si128(e, valid), valid);
		_mm_storeu_si128(
			(__m128i *)&hops[i], _mm_or_si128(_mm_and_si128(ok, _mm_and_si128(e, nhm)),
						     _mm_andnot_si128(ok, miss)));
	}
	for (; i < n; i++)
		hops[i] = rt_fib_lookup(f, ips[i], MISS);
}

/* the bulk's tbl24 lines prefetched, then the x4 SSE form */
static void
v_pf_sse4(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		rte_prefetch0(&f->tbl24[ips[i] >> 8]);
	v_sse4(f, ips, hops, n);
}

typedef void (*lookup_fn)(const struct rt_fib *, const uint32_t *, uint32_t *, unsigned int);

static void
v_bulk(const struct rt_fib *f, const uint32_t *ips, uint32_t *hops, unsigned int n)
{
	rt_fib_lookup_bulk(f, ips, hops, n, MISS);
}

static const struct {
	const char *name;
	lookup_fn fn;
} variants[] = {
	{"rt_fib_lookup_bulk (rt_fib.h)", v_bulk},
	{"one at a time", v_scalar},
	{"steps of 16, tbl8 prefetched in a second pass", v_two_pass16},
	{"prefetch all 32, then read", v_all},
	{"rolling prefetch 8 ahead", v_roll8},
	{"rolling prefetch 16 ahead", v_roll16},
	{"x4 SSE index and result", v_sse4},
	{"prefetch all 32, then x4 SSE", v_pf_sse4},
};

/* ---- measures ---- */

/* CPU time of this thread, s: the machine is shared, a wall clock counts the others' turns. */
static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Load @p n routes; returns the CPU seconds it took, or -1 on an error. */
static double
load(struct tbl *t, const struct route *r, uint32_t n)
{
	const double t0 = cpu_s();
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tbl_add(t, &r[i]);
		if (ret != 0) {
			fprintf(stderr, "fib_bench: %s add %u: %s\n", kind_name[t->k], i,
				strerror(-ret));
			return -1;
		}
	}
	return cpu_s() - t0;
}

#define CHUNK 2048 /* lookups per timed chunk: well inside a time slice */

/*
 * Cycles per lookup over @p dests (bulks of 32) of each structure, then (with
 * @p with_variants) of each rt_fib form: every chunk of 2048 lookups timed
 * with the TSC, the forms taking turns pass by pass for @p rounds passes
 * (a busy phase of the machine hits them alike; a whole pass, so one form
 * does not warm the cache for the next); per form the median chunk,
 * so a chunk that lost the CPU to another process does not count.
 */
static void
lookup_cycles(struct tbl *t, bool with_variants, uint32_t *dests, uint32_t nd, unsigned int rounds,
	double *out)
{
	const unsigned int ni = K_N + (with_variants ? RTE_DIM(variants) : 0);
	const uint32_t per = RTE_MIN(nd, (uint32_t)CHUNK), chunks = nd / per;
	const size_t each = (size_t)rounds * chunks;
	uint64_t *c = malloc(sizeof(*c) * each * ni), t0;
	uint32_t hops[BULK], sink = 0, ch, j;
	unsigned int r, it;

	for (r = 0; r < rounds; r++)
		for (it = 0; it < ni; it++)
			for (ch = 0; ch < chunks; ch++) {
				t0 = rte_rdtsc_precise();
				for (j = ch * per; j < ch * per + per; j += BULK) {
					if (it < K_N)
						tbl_lookup(&t[it], &dests[j], hops, BULK);
					else
						variants[it - K_N].fn(
							t[K_RT].rt, &dests[j], hops, BULK);
					sink += hops[j % BULK];
				}
				c[it * each + (size_t)r * chunks + ch] = rte_rdtsc_precise() - t0;
			}
	if (sink == 1)
		printf(" ");
	for (it = 0; it < ni; it++)
		out[it] = (double)median(&c[it * each], (unsigned int)each) / per;
	free(c);
}

/* The route covering @p p/@p plen in @p t, read from rt_fib's tbl24 (exact for /24s outside groups). */
static struct route
cover_of(const struct rt_fib *f, uint32_t p)
{
	const uint32_t e = f->tbl24[p >> 8];

	if (!(e & RT_FIB_VALID))
		return (struct route){0, 0, 0};
	return (struct route){0, (uint8_t)RT_FIB_DEPTH(e), e & RT_FIB_NH_MASK};
}

/*
 * Cycles per add and per delete of @p n new /24s not in the table (and not
 * in a /24 holding a group), at the table's current size.
 */
static void
update_cycles(struct tbl *t, const struct tbl *ref_rt, unsigned int n, double *add, double *del)
{
	struct route *x = malloc(sizeof(*x) * n), *sub = malloc(sizeof(*sub) * n);
	uint64_t t0, ca[64], cd[64];
	unsigned int i, j;

	n = RTE_MIN(n, 64u * 50);

	for (i = 0; i < n;) {
		const uint32_t p = unicast() & mask_of(24);

		if (!seen_add(p, 24) || (ref_rt->rt->tbl24[p >> 8] & RT_FIB_EXT))
			continue;
		x[i] = (struct route){p, 24, rnd() % NEXT_HOPS};
		sub[i] = cover_of(ref_rt->rt, p);
		if (sub[i].plen == 24)
			continue; /* (cannot happen: seen_add said new) */
		i++;
	}
	/* in chunks of 50, each timed: the median chunk (see lookup_cycles()) */
	for (i = 0; i < n / 50; i++) {
		t0 = rte_rdtsc_precise();
		for (j = i * 50; j < i * 50 + 50; j++)
			tbl_add(t, &x[j]);
		ca[i] = rte_rdtsc_precise() - t0;
	}
	for (i = 0; i < n / 50; i++) {
		t0 = rte_rdtsc_precise();
		for (j = i * 50; j < i * 50 + 50; j++)
			tbl_del(t, &x[j], &sub[j]);
		cd[i] = rte_rdtsc_precise() - t0;
	}
	*add = (double)median(ca, n / 50) / 50;
	*del = (double)median(cd, n / 50) / 50;
	free(x);
	free(sub);
}

static unsigned int
mismatches(struct tbl *a, struct tbl *b, uint32_t *dests, uint32_t nd)
{
	uint32_t ha[BULK], hb[BULK], i, j, bad = 0;

	for (i = 0; i + BULK <= nd; i += BULK) {
		tbl_lookup(a, &dests[i], ha, BULK);
		tbl_lookup(b, &dests[i], hb, BULK);
		for (j = 0; j < BULK; j++)
			bad += ha[j] != hb[j];
	}
	return bad;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {{"routes", 1, NULL, 'r'},
		{"lpm-max", 1, NULL, 'l'}, {"lpm-full", 0, NULL, 'f'}, {"rounds", 1, NULL, 'n'},
		{"variants", 0, NULL, 'v'}, {NULL, 0, NULL, 0}};
	uint32_t nroutes = 1000000, lpm_max = 100000, ndest = 1u << 20, nsmall = 1024;
	unsigned int rounds = 9, i, k, o;
	bool lpm_full = false, want_variants = false;
	double c[3];
	struct route *r;
	uint32_t *dests, *small;
	struct tbl t[K_N], small_rt, tmp;
	double la[K_N], ld[K_N], ba[K_N], bd[K_N], big[K_N], lit[K_N], ltime[K_N];
	size_t mem[K_N];
	uint32_t loaded[K_N];
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "fib_bench: EAL init failed\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	while ((o = (unsigned int)getopt_long(argc, argv, "", longopts, NULL)) !=
		(unsigned int)-1) {
		switch (o) {
		case 'r':
			nroutes = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			lpm_max = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 'f':
			lpm_full = true;
			break;
		case 'v':
			want_variants = true;
			break;
		case 'n':
			rounds = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: fib_bench [EAL] -- [--routes N] [--lpm-max N] "
					"[--lpm-full] [--rounds N] [--variants]\n");
			return 2;
		}
	}
	lpm_max = RTE_MIN(lpm_max, nroutes);
	prefault();
	r = make_table(nroutes);
	dests = make_dests(r, nroutes, ndest);
	small = make_dests(r, nroutes, nsmall);
	printf("# fib_bench: %u routes over %u next hops, tbl8 groups %u, TSC %.2f GHz\n", nroutes,
		NEXT_HOPS, TBL8, rte_get_tsc_hz() / 1e9);
	{
		uint32_t per[33] = {0};

		for (i = 0; i < nroutes; i++)
			per[r[i].plen]++;
		printf("# mix:");
		for (i = 1; i <= 32; i++)
			if (per[i] != 0)
				printf(" /%u %.2f%%", i, 100.0 * per[i] / nroutes);
		printf("\n");
	}

	/* load time, median of 3 (rte_lpm: up to lpm_max) */
	for (k = 0; k < K_N; k++) {
		loaded[k] = k == K_LPM ? lpm_max : nroutes;
		for (i = 0; i < 3; i++) {
			if (tbl_create(&tmp, (enum kind)k, 2 * nroutes) != 0)
				return 1;
			c[i] = load(&tmp, r, loaded[k]);
			if (c[i] < 0)
				return 1;
			if (i == 2 && k != K_LPM) {
				t[k] = tmp; /* keep the last one for the lookups */
				t[k].mem = heap_used() - tmp.mem;
			} else {
				if (i == 2)
					mem[k] = heap_used() - tmp.mem;
				tbl_free(&tmp);
			}
		}
		ltime[k] = median_d(c, 3);
		if (k != K_LPM)
			mem[k] = t[k].mem;
		printf("# %s: %u routes loaded in %.3f s CPU (median of 3)\n", kind_name[k],
			loaded[k], ltime[k]);
		if (k == K_RT)
			printf("# rt_fib: %u of %u tbl8 groups in use, %zu bytes by rt_fib_memory()\n",
				rt_fib_tbl8_used(t[k].rt), rt_fib_tbl8_groups(t[k].rt),
				rt_fib_memory(t[k].rt));
	}

	/* rte_lpm's per-add cost as it grows: time of each tenth of lpm_max */
	printf("# rte_lpm per-add CPU time by table size (us):");
	{
		const uint32_t step = lpm_max / 10;
		double t0;

		if (tbl_create(&tmp, K_LPM, 2 * nroutes) != 0)
			return 1;
		for (i = 0; i + step <= lpm_max; i += step) {
			t0 = cpu_s();
			for (uint32_t j = i; j < i + step; j++)
				rte_lpm_add(tmp.lpm, r[j].prefix, r[j].plen, r[j].nh);
			printf(" %uk:%.2f", (i + step) / 1000, (cpu_s() - t0) * 1e6 / step);
		}
		printf("\n");
		tbl_free(&tmp);
	}

	if (lpm_full) {
		double cl;

		if (tbl_create(&t[K_LPM], K_LPM, 2 * nroutes) != 0)
			return 1;
		cl = load(&t[K_LPM], r, nroutes);
		t[K_LPM].mem = heap_used() - t[K_LPM].mem;
		mem[K_LPM] = t[K_LPM].mem;
		if (cl < 0)
			return 1;
		printf("# rte_lpm: %u routes loaded in %.1f s CPU (one run)\n", nroutes, cl);
		ltime[K_LPM] = cl;
		loaded[K_LPM] = nroutes;
	} else {
		if (tbl_create(&t[K_LPM], K_LPM, 2 * nroutes) != 0 ||
			load(&t[K_LPM], r, lpm_max) < 0)
			return 1;
	}

	/* the three agree on every destination of the full table */
	printf("# mismatches rt_fib vs rte_fib: %u of %u\n",
		mismatches(&t[K_RT], &t[K_FIB], dests, ndest), ndest);
	if (lpm_full)
		printf("# mismatches rt_fib vs rte_lpm: %u of %u\n",
			mismatches(&t[K_RT], &t[K_LPM], dests, ndest), ndest);

	{
		double bigv[K_N + RTE_DIM(variants)], litv[K_N + RTE_DIM(variants)];

		lookup_cycles(t, want_variants, dests, ndest, rounds, bigv);
		lookup_cycles(t, want_variants, small, nsmall, rounds * 100, litv);
		for (k = 0; k < K_N; k++) {
			big[k] = bigv[k];
			lit[k] = litv[k];
		}
		for (i = 0; want_variants && i < RTE_DIM(variants); i++)
			printf("# rt_fib lookup, %s: %.1f cyc (1 M dests), %.1f cyc (1 k dests)\n",
				variants[i].name, bigv[K_N + i], litv[K_N + i]);
	}
	/* updates at the full size (rte_lpm: as loaded) */
	for (k = 0; k < K_N; k++)
		update_cycles(&t[k], &t[K_RT], 1000, &ba[k], &bd[k]);
	for (k = 0; k < K_N; k++)
		tbl_free(&t[k]);

	/* updates at 1 k routes */
	for (k = 0; k < K_N; k++) {
		if (tbl_create(&t[k], (enum kind)k, 2 * nroutes) != 0)
			return 1;
	}
	if (tbl_create(&small_rt, K_RT, 0) != 0 || load(&small_rt, r, 1000) < 0)
		return 1;
	for (k = 0; k < K_N; k++) {
		if (load(&t[k], r, 1000) < 0)
			return 1;
		update_cycles(&t[k], &small_rt, 1000, &la[k], &ld[k]);
		tbl_free(&t[k]);
	}
	tbl_free(&small_rt);

	printf("\n| structure | routes loaded | load (CPU s) | memory (MiB) | lookup, 1 M dests "
	       "(cyc) | lookup, 1 k dests (cyc) | add / del at 1 k (cyc) | add / del at %s "
	       "(cyc) |\n",
		lpm_full ? "1 M" : "1 M (rte_lpm: as loaded)");
	printf("|---|---|---|---|---|---|---|---|\n");
	for (k = 0; k < K_N; k++)
		printf("| %s | %u | %.3f | %.0f | %.1f | %.1f | %.0f / %.0f | %.0f / %.0f |\n",
			kind_name[k], loaded[k], ltime[k], mem[k] / 1048576.0, big[k], lit[k],
			la[k], ld[k], ba[k], bd[k]);
	rte_eal_cleanup();
	return 0;
}
