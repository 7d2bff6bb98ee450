/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The IPv6 lookup library for the router (issue 40), chosen by measurement:
 * DPDK's rte_lpm6 against rte_fib6 (TRIE, 4-byte next hops, and 8-byte with
 * --nh8) on a synthetic table with the IPv6 DFZ's prefix-length mix (half
 * /48, then /32, /44, /40, /36, /29...), the routes clustered in /29-/32
 * allocations inside six RIR /12s, made here from a fixed seed. For each:
 * load time of the whole table (CPU seconds, median of --loads), memory
 * (the DPDK heap's growth: both allocate everything at create), cycles per
 * address looked up in bursts of 32 (rte_lpm6_lookup_bulk_func(),
 * rte_fib6_lookup_bulk() scalar and, when this CPU and DPDK's build have it,
 * AVX-512: the same table switched with rte_fib6_select_lookup()), cycles per
 * update at full size (add of a new /48, its delete, a next-hop change of an
 * existing route), and whether ::/0 is taken. --ir N looks up N addresses
 * once per structure in functions of their own (ir_lpm6, ir_fib6,
 * ir_fib6_8b) for callgrind's instruction counts, and skips the timings.
 * Never run by the tests: bench/route6/run.sh runs it, the results are in
 * docs/benchmarks-route6.md.
 *
 *	fib6_bench [EAL args] -- [--routes N] [--rounds N] [--loads N] [--nh8]
 *		[--fib-tbl8 F] [--lpm-tbl8 F] [--ir N] [--sorted]
 *
 * --sorted loads the routes in prefix order (a covering route first) instead of a random one.
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
#include <rte_fib6.h>
#include <rte_lpm6.h>
#include <rte_malloc.h>
#include <rte_vect.h>

#include "dpdk_compat.h"

#define BULK      32
#define NEXT_HOPS 65536
#define MISS      UINT32_MAX
#define CHUNK     2048 /* lookups per timed chunk: well inside a time slice */
#define UPD_CHUNK 50   /* updates per timed chunk */
#define UPDATES   2000

/* A route of the synthetic table: every prefix is at most /64, so its top 64 bits say it all. */
struct route {
	uint64_t hi; /**< the prefix's first 64 bits, host order */
	uint8_t plen;
	uint32_t nh;
};

/* An address as the libraries take it: 16 bytes, network order. */
struct ip6 {
	uint8_t b[16];
};

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t
rnd64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static uint32_t
rnd(void)
{
	return (uint32_t)(rnd64() >> 32);
}

static inline uint64_t
mask64(uint8_t plen)
{
	return plen == 0 ? 0 : UINT64_MAX << (64 - plen);
}

static void
to_ip6(uint64_t hi, uint64_t lo, struct ip6 *a)
{
	for (int i = 0; i < 8; i++) {
		a->b[i] = (uint8_t)(hi >> (56 - 8 * i));
		a->b[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
	}
}

/*
 * Routes per million of each length: the IPv6 DFZ's mix (docs/benchmarks-route6.md: /48 half,
 * /32 16 %, /44 8 %, /40 7 %, /36 4 %, /29 4 %, the rest over /24-/47, a few /56 and /64);
 * what the lengths below leave of a million goes to /48.
 */
static const uint32_t mix_ppm[65] = {
	[20] = 100,
	[22] = 100,
	[24] = 1500,
	[25] = 300,
	[26] = 500,
	[27] = 700,
	[28] = 3000,
	[29] = 40000,
	[30] = 4000,
	[31] = 3000,
	[32] = 160000,
	[33] = 8000,
	[34] = 6000,
	[35] = 4000,
	[36] = 40000,
	[37] = 3000,
	[38] = 5000,
	[39] = 4000,
	[40] = 70000,
	[41] = 4000,
	[42] = 9000,
	[43] = 5000,
	[44] = 80000,
	[45] = 9000,
	[46] = 18000,
	[47] = 10000,
	[56] = 1500,
	[64] = 500,
};

/* The six RIR blocks the allocations are made in (2000::/12 ... 2c00::/12). */
static const uint64_t rir12[] = {0x2000ull << 48, 0x2400ull << 48, 0x2600ull << 48, 0x2800ull << 48,
	0x2a00ull << 48, 0x2c00ull << 48};

/* Open addressing set of (prefix, plen): the table has each route once (plen 0 = free slot). */
static uint64_t *seen_hi;
static uint8_t *seen_len;
static uint64_t seen_mask;

static int
seen_add(uint64_t hi, uint8_t plen)
{
	uint64_t h = (((hi ^ plen) * 0x9e3779b97f4a7c15ull) >> 20) & seen_mask;

	while (seen_len[h] != 0) {
		if (seen_hi[h] == hi && seen_len[h] == plen)
			return 0;
		h = (h + 1) & seen_mask;
	}
	seen_hi[h] = hi;
	seen_len[h] = plen;
	return 1;
}

static uint64_t *alloc_hi;
static uint8_t *alloc_len;
static uint32_t n_alloc;

/* Allocations: /32 70 %, /29 20 %, /30 and /31 5 % each, in the RIR blocks. */
static void
make_allocs(uint32_t n)
{
	uint32_t i;

	n_alloc = RTE_MAX(n / 5, 1000u);
	alloc_hi = malloc(sizeof(*alloc_hi) * n_alloc);
	alloc_len = malloc(n_alloc);
	for (i = 0; i < n_alloc; i++) {
		const uint32_t p = rnd() % 100;
		const uint8_t len = p < 70 ? 32 : (p < 90 ? 29 : (p < 95 ? 30 : 31));

		alloc_len[i] = len;
		alloc_hi[i] = (rir12[rnd() % RTE_DIM(rir12)] | (rnd64() >> 12)) & mask64(len);
	}
}

/* A prefix of length @p len in a random allocation: inside it, or the aggregate covering it. */
static uint64_t
prefix_in_alloc(uint8_t len)
{
	const uint32_t a = rnd() % n_alloc;

	if (len >= alloc_len[a])
		return (alloc_hi[a] | (rnd64() & ~mask64(alloc_len[a]))) & mask64(len);
	return alloc_hi[a] & mask64(len);
}

/* @p n routes of the mix, each once, in a random order (as a feed gives them). */
static struct route *
make_table(uint32_t n)
{
	struct route *r = malloc(sizeof(*r) * n), t;
	uint32_t k = 0, len, want, i, j, tries;

	seen_mask = 1;
	while (seen_mask < (uint64_t)n * 4)
		seen_mask <<= 1;
	seen_hi = calloc(seen_mask, sizeof(*seen_hi));
	seen_len = calloc(seen_mask, 1);
	seen_mask--;
	make_allocs(n);
	for (len = 1; len <= 64; len++) {
		if (len == 48)
			continue;
		want = (uint32_t)((uint64_t)mix_ppm[len] * n / 1000000);
		for (i = 0, tries = 0; i < want && k < n && tries < want * 20; tries++) {
			const uint64_t p = prefix_in_alloc((uint8_t)len);

			if (seen_add(p, (uint8_t)len)) {
				r[k++] = (struct route){p, (uint8_t)len, rnd() % NEXT_HOPS};
				i++;
			}
		}
	}
	while (k < n) { /* the rest: /48s */
		const uint64_t p = prefix_in_alloc(48);

		if (seen_add(p, 48))
			r[k++] = (struct route){p, 48, rnd() % NEXT_HOPS};
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
static struct ip6 *
make_dests(const struct route *r, uint32_t nr, uint32_t n)
{
	struct ip6 *d = rte_malloc(NULL, sizeof(*d) * n, 64);
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct route *x = &r[rnd() % nr];

		to_ip6(x->hi | (rnd64() & ~mask64(x->plen)), rnd64(), &d[i]);
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

/* Prefix order, a covering route before the routes inside it: what --sorted loads in. */
static int
cmp_route(const void *a, const void *b)
{
	const struct route *x = a, *y = b;

	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return (int)x->plen - (int)y->plen;
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

/* CPU time of this thread, s: the machine is shared, a wall clock counts the others' turns. */
static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Touch the heap once (see bench/route/fib_bench.c): DPDK's zmalloc skips zeroing memory it
 * never handed out, so the first structure would pay a page fault per new 4 KiB.
 */
static void
prefault(void)
{
	size_t sz;
	void *p;

	for (sz = (size_t)3 << 30; sz >= (64u << 20); sz = sz * 3 / 4) {
		p = rte_malloc(NULL, sz, 0);
		if (p != NULL) {
			memset(p, 0, sz);
			rte_free(p);
			printf("# heap pre-faulted: %zu MiB\n", sz >> 20);
			return;
		}
	}
}

/* ---- the structures behind one set of calls ---- */

enum kind { K_LPM6, K_FIB6, K_FIB6_8B, K_N };
static const char *const kind_name[K_N] = {"rte_lpm6", "rte_fib6 4B", "rte_fib6 8B"};

struct tbl {
	enum kind k;
	struct rte_lpm6 *lpm;
	struct rte_fib6 *fib;
	size_t mem_create; /**< heap bytes create took */
	size_t mem;        /**< heap bytes create and the load took */
	uint32_t tbl8;     /**< groups asked for */
};

static double fib_tbl8_factor = 2.2, lpm_tbl8_factor = 1.0;

static int
tbl_create(struct tbl *t, enum kind k, uint32_t routes)
{
	static unsigned int seq;
	const size_t h0 = heap_used();
	char name[32];

	memset(t, 0, sizeof(*t));
	t->k = k;
	snprintf(name, sizeof(name), "f6b%u", seq++);
	if (k == K_LPM6) {
		struct rte_lpm6_config c = {.max_rules = routes + 2 * UPDATES + 16,
			.number_tbl8s = (uint32_t)(routes * lpm_tbl8_factor) + 1024};

		t->tbl8 = c.number_tbl8s;
		t->lpm = rte_lpm6_create(name, SOCKET_ID_ANY, &c);
	} else {
		struct rte_fib6_conf c = {.type = RTE_FIB6_TRIE,
			.default_nh = k == K_FIB6 ? MISS >> 1 : MISS,
			.max_routes = (int)(routes + 2 * UPDATES + 16),
			.trie = {.nh_sz = k == K_FIB6 ? RTE_FIB6_TRIE_4B : RTE_FIB6_TRIE_8B,
				.num_tbl8 = (uint32_t)(routes * fib_tbl8_factor) + 1024}};

		t->tbl8 = c.trie.num_tbl8;
		t->fib = rte_fib6_create(name, SOCKET_ID_ANY, &c);
	}
	if (t->lpm == NULL && t->fib == NULL) {
		fprintf(stderr, "fib6_bench: %s create: %s\n", kind_name[k],
			rte_strerror(rte_errno));
		return -1;
	}
	t->mem_create = t->mem = heap_used() - h0;
	return 0;
}

static void
tbl_free(struct tbl *t)
{
	rte_lpm6_free(t->lpm);
	rte_fib6_free(t->fib);
	t->lpm = NULL;
	t->fib = NULL;
}

static inline int
tbl_add(struct tbl *t, const struct route *r, uint32_t nh)
{
	struct ip6 a;

	to_ip6(r->hi, 0, &a);
	if (t->k == K_LPM6)
		return rte_lpm6_add(t->lpm, FWD_COMPAT_IP6(&a), r->plen, nh);
	return rte_fib6_add(t->fib, FWD_COMPAT_IP6(&a), r->plen, nh);
}

static inline int
tbl_del(struct tbl *t, const struct route *r)
{
	struct ip6 a;

	to_ip6(r->hi, 0, &a);
	if (t->k == K_LPM6)
		return rte_lpm6_delete(t->lpm, FWD_COMPAT_IP6(&a), r->plen);
	return rte_fib6_delete(t->fib, FWD_COMPAT_IP6(&a), r->plen);
}

/* One burst of @p n (<= BULK) lookups into @p hops (MISS where none matches). */
static inline void
tbl_lookup(struct tbl *t, struct ip6 *ips, uint32_t *hops, unsigned int n)
{
	unsigned int j;

	if (t->k == K_LPM6) {
		int32_t h32[BULK];

		rte_lpm6_lookup_bulk_func(t->lpm, FWD_COMPAT_IP6_ARRAY(ips), h32, n);
		for (j = 0; j < n; j++)
			hops[j] = h32[j] < 0 ? MISS : (uint32_t)h32[j];
	} else {
		uint64_t h64[BULK];

		rte_fib6_lookup_bulk(t->fib, FWD_COMPAT_IP6_ARRAY(ips), h64, (int)n);
		for (j = 0; j < n; j++)
			hops[j] = (h64[j] == MISS >> 1 || h64[j] == MISS) ? MISS : (uint32_t)h64[j];
	}
}

/* The lookups measured: a structure, and for rte_fib6 a lookup function. */
struct method {
	const char *name;
	enum kind k;
	int fib_type; /**< enum rte_fib6_lookup_type */
};

static struct method methods[8];
static unsigned int n_methods;

static void
method_select(struct tbl *t, const struct method *m)
{
	if (t[m->k].fib != NULL)
		rte_fib6_select_lookup(t[m->k].fib, (enum rte_fib6_lookup_type)m->fib_type);
}

/* ---- measures ---- */

/* Load @p n routes; returns the CPU seconds it took (and the wall in @p wall), -1 on an error. */
static double
load(struct tbl *t, const struct route *r, uint32_t n, double *wall)
{
	const double t0 = cpu_s(), w0 = wall_s();
	const size_t h0 = heap_used();
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = tbl_add(t, &r[i], r[i].nh);
		if (ret != 0) {
			fprintf(stderr, "# %s: add %u of %u: %s\n", kind_name[t->k], i, n,
				strerror(-ret));
			return -1;
		}
	}
	if (wall != NULL)
		*wall = wall_s() - w0;
	t->mem += heap_used() - h0;
	return cpu_s() - t0;
}

/*
 * Create and load @p k with @p n routes; on ENOSPC (tbl8 groups short) the factor grows by
 * 0.2 and it tries again: what it settles on is printed, the table sized for it.
 */
static double
create_load(struct tbl *t, enum kind k, const struct route *r, uint32_t n, double *wall)
{
	double *f = k == K_LPM6 ? &lpm_tbl8_factor : &fib_tbl8_factor, c;

	for (;;) {
		if (tbl_create(t, k, n) != 0)
			return -1;
		c = load(t, r, n, wall);
		if (c >= 0)
			return c;
		tbl_free(t);
		*f += 0.2;
		if (*f > 6)
			return -1;
		printf("# %s: tbl8 groups short, factor now %.1f x routes\n", kind_name[k], *f);
	}
}

/*
 * Cycles per address over @p dests (bursts of 32) of each method: every chunk of 2048 lookups
 * timed with the TSC, the methods taking turns pass by pass for @p rounds passes (a busy phase
 * of the machine hits them alike); per method the median chunk, so a chunk that lost the CPU
 * to another process does not count.
 */
static void
lookup_cycles(struct tbl *t, struct ip6 *dests, uint32_t nd, unsigned int rounds, double *out)
{
	const uint32_t per = RTE_MIN(nd, (uint32_t)CHUNK), chunks = nd / per;
	const size_t each = (size_t)rounds * chunks;
	uint64_t *c = malloc(sizeof(*c) * each * n_methods), t0;
	uint32_t hops[BULK], sink = 0, ch, j;
	unsigned int r, it;

	for (r = 0; r < rounds; r++)
		for (it = 0; it < n_methods; it++) {
			struct tbl *x = &t[methods[it].k];

			method_select(t, &methods[it]);
			for (ch = 0; ch < chunks; ch++) {
				t0 = rte_rdtsc_precise();
				for (j = ch * per; j < ch * per + per; j += BULK) {
					tbl_lookup(x, &dests[j], hops, BULK);
					sink += hops[j % BULK];
				}
				c[it * each + (size_t)r * chunks + ch] = rte_rdtsc_precise() - t0;
			}
		}
	if (sink == 1)
		printf(" ");
	for (it = 0; it < n_methods; it++)
		out[it] = (double)median(&c[it * each], (unsigned int)each) / per;
	free(c);
}

/* Routes not in the table: /48s in random allocations. */
static void
new_routes(struct route *x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n;) {
		const uint64_t p = prefix_in_alloc(48);

		if (seen_add(p, 48))
			x[i++] = (struct route){p, 48, rnd() % NEXT_HOPS};
	}
}

/*
 * Cycles per update of @p t at its size: add of a new /48 (@p x), its delete, and a new next
 * hop for an existing route of @p r: in chunks of 50, each timed, the median chunk.
 */
static void
update_cycles(struct tbl *t, const struct route *x, const struct route *r, uint32_t nr, double *add,
	double *del, double *chg)
{
	const unsigned int nc = UPDATES / UPD_CHUNK;
	uint64_t t0, ca[UPDATES / UPD_CHUNK], cd[UPDATES / UPD_CHUNK], cc[UPDATES / UPD_CHUNK];
	unsigned int i, j;
	int bad = 0;

	for (i = 0; i < nc; i++) {
		t0 = rte_rdtsc_precise();
		for (j = i * UPD_CHUNK; j < (i + 1) * UPD_CHUNK; j++)
			bad |= tbl_add(t, &x[j], x[j].nh);
		ca[i] = rte_rdtsc_precise() - t0;
	}
	for (i = 0; i < nc; i++) {
		t0 = rte_rdtsc_precise();
		for (j = i * UPD_CHUNK; j < (i + 1) * UPD_CHUNK; j++)
			bad |= tbl_del(t, &x[j]);
		cd[i] = rte_rdtsc_precise() - t0;
	}
	for (i = 0; i < nc; i++) {
		t0 = rte_rdtsc_precise();
		for (j = i * UPD_CHUNK; j < (i + 1) * UPD_CHUNK; j++) {
			const struct route *o = &r[(j * 7919u) % nr];

			bad |= tbl_add(t, o, (o->nh + 1) % NEXT_HOPS);
		}
		cc[i] = rte_rdtsc_precise() - t0;
	}
	if (bad != 0)
		printf("# %s: an update failed\n", kind_name[t->k]);
	*add = (double)median(ca, nc) / UPD_CHUNK;
	*del = (double)median(cd, nc) / UPD_CHUNK;
	*chg = (double)median(cc, nc) / UPD_CHUNK;
}

static unsigned int
mismatches(struct tbl *a, struct tbl *b, struct ip6 *dests, uint32_t nd)
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

/* What each takes of ::/0: the add's answer, and a lookup outside every route after it. */
static void
default_route(enum kind k)
{
	const struct route def = {0, 0, 7}, one = {0x2001ull << 48, 16, 9};
	struct ip6 out[BULK];
	uint32_t hops[BULK];
	struct tbl t;
	int ret;

	if (tbl_create(&t, k, 1024) != 0)
		return;
	to_ip6(0x3fffull << 48, 1, &out[0]);
	ret = tbl_add(&t, &def, def.nh);
	tbl_lookup(&t, out, hops, 1);
	printf("# ::/0 on an empty %s: add %s, lookup of 3fff::1 -> %d", kind_name[k],
		ret == 0 ? "ok" : strerror(-ret), hops[0] == MISS ? -1 : (int)hops[0]);
	tbl_add(&t, &one, one.nh);
	ret = tbl_del(&t, &def);
	tbl_lookup(&t, out, hops, 1);
	printf("; with 2001::/16 beside, delete %s, lookup -> %d\n",
		ret == 0 ? "ok" : strerror(-ret), hops[0] == MISS ? -1 : (int)hops[0]);
	tbl_free(&t);
}

/* ---- callgrind's functions (--ir): one per structure, each toggled on by its name ---- */

static uint32_t ir_sink;

/* the tag keeps their bodies apart: identical functions would be folded into one */
#define IR_FN(name, tag)                                                                     \
	__attribute__((noinline)) static void name(struct tbl *t, struct ip6 *d, uint32_t n) \
	{                                                                                    \
		uint32_t hops[BULK];                                                         \
		for (uint32_t i = 0; i + BULK <= n; i += BULK) {                             \
			tbl_lookup(t, &d[i], hops, BULK);                                    \
			ir_sink += hops[i % BULK] + (tag);                                   \
		}                                                                            \
	}
IR_FN(ir_lpm6, 1)
IR_FN(ir_fib6, 2)
IR_FN(ir_fib6_8b, 3)

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {{"routes", 1, NULL, 'r'}, {"rounds", 1, NULL, 'n'},
		{"loads", 1, NULL, 'l'}, {"nh8", 0, NULL, '8'}, {"fib-tbl8", 1, NULL, 'f'},
		{"lpm-tbl8", 1, NULL, 'p'}, {"ir", 1, NULL, 'i'}, {"sorted", 0, NULL, 's'},
		{NULL, 0, NULL, 0}};
	uint32_t nroutes = 500000, ndest = 1u << 20, nsmall = 1024, n_ir = 0;
	unsigned int rounds = 9, loads = 3, i, k, o, nk = 2;
	bool sorted = false;
	double ltime[K_N] = {0}, lwall[K_N] = {0}, c[16], w[16], big[8], lit[8];
	double ua[K_N], ud[K_N], uc[K_N];
	struct tbl t[K_N];
	struct route *r, *x;
	struct ip6 *dests, *small;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "fib6_bench: EAL init failed\n");
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
		case 'n':
			rounds = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'l':
			loads = RTE_MIN((unsigned int)strtoul(optarg, NULL, 0), 15u);
			break;
		case '8':
			nk = 3;
			break;
		case 'f':
			fib_tbl8_factor = strtod(optarg, NULL);
			break;
		case 'p':
			lpm_tbl8_factor = strtod(optarg, NULL);
			break;
		case 'i':
			n_ir = (uint32_t)strtoul(optarg, NULL, 0);
			break;
		case 's':
			sorted = true;
			break;
		default:
			fprintf(stderr,
				"usage: fib6_bench [EAL] -- [--routes N] [--rounds N] "
				"[--loads N] [--nh8] [--fib-tbl8 F] [--lpm-tbl8 F] [--ir N] "
				"[--sorted]\n");
			return 2;
		}
	}
	if (nroutes < 1000 || loads == 0 || rounds == 0) {
		fprintf(stderr, "fib6_bench: --routes >= 1000, --loads and --rounds >= 1\n");
		return 2;
	}
	/* before any rte_fib6_create(): the AVX-512 lookup is chosen only under a 512-bit limit */
	rte_vect_set_max_simd_bitwidth(RTE_VECT_SIMD_512);
	if (n_ir == 0)
		prefault();
	r = make_table(nroutes);
	dests = make_dests(r, nroutes, n_ir != 0 ? n_ir : ndest);
	small = make_dests(r, nroutes, nsmall);
	x = malloc(sizeof(*x) * UPDATES);
	new_routes(x, UPDATES);
	if (sorted) /* after the destinations: they are the same either way */
		qsort(r, nroutes, sizeof(*r), cmp_route);
	printf("# fib6_bench: %u routes over %u next hops in %u allocations, TSC %.2f GHz, "
	       "max SIMD %u bits\n",
		nroutes, NEXT_HOPS, n_alloc, rte_get_tsc_hz() / 1e9,
		(unsigned int)rte_vect_get_max_simd_bitwidth());
	{
		uint32_t per[65] = {0};
		double sum = 0;

		for (i = 0; i < nroutes; i++) {
			per[r[i].plen]++;
			sum += r[i].plen;
		}
		printf("# mix (average /%.1f):", sum / nroutes);
		for (i = 1; i <= 64; i++)
			if (per[i] != 0)
				printf(" /%u %.2f%%", i, 100.0 * per[i] / nroutes);
		printf("\n");
	}

	if (n_ir != 0) {
		for (k = 0; k < nk; k++)
			if (create_load(&t[k], (enum kind)k, r, nroutes, NULL) < 0)
				return 1;
		/* valgrind hides AVX-512: rte_fib6 runs its scalar lookup here */
		ir_lpm6(&t[K_LPM6], dests, n_ir);
		ir_fib6(&t[K_FIB6], dests, n_ir);
		if (nk > 2)
			ir_fib6_8b(&t[K_FIB6_8B], dests, n_ir);
		printf("# --ir: %u addresses looked up once by each (ir_lpm6, ir_fib6%s)\n", n_ir,
			nk > 2 ? ", ir_fib6_8b" : "");
		for (k = 0; k < nk; k++)
			tbl_free(&t[k]);
		rte_free(dests);
		rte_free(small);
		rte_eal_cleanup();
		return 0;
	}

	for (k = 0; k < nk; k++)
		default_route((enum kind)k);

	/* load time: median of @p loads, the last table kept for the lookups */
	for (k = 0; k < nk; k++) {
		for (i = 0; i < loads; i++) {
			c[i] = create_load(&t[k], (enum kind)k, r, nroutes, &w[i]);
			if (c[i] < 0)
				return 1;
			if (i + 1 < loads)
				tbl_free(&t[k]);
		}
		ltime[k] = median_d(c, loads);
		lwall[k] = median_d(w, loads);
		printf("# %s: %u routes loaded in %.3f s CPU, %.3f s wall (medians of %u); "
		       "%u tbl8 groups asked for; %.0f MiB at create, %.0f MiB loaded\n",
			kind_name[k], nroutes, ltime[k], lwall[k], loads, t[k].tbl8,
			t[k].mem_create / 1048576.0, t[k].mem / 1048576.0);
	}
	printf("# mismatches rte_lpm6 vs rte_fib6: %u of %u\n",
		mismatches(&t[K_LPM6], &t[K_FIB6], dests, ndest), ndest);

	n_methods = 0;
	methods[n_methods++] = (struct method){"rte_lpm6 lookup_bulk_func", K_LPM6, 0};
	for (k = K_FIB6; k < nk; k++) {
		methods[n_methods++] =
			(struct method){k == K_FIB6 ? "rte_fib6 4B scalar" : "rte_fib6 8B scalar",
				(enum kind)k, RTE_FIB6_LOOKUP_TRIE_SCALAR};
		if (rte_fib6_select_lookup(t[k].fib, RTE_FIB6_LOOKUP_TRIE_VECTOR_AVX512) == 0)
			methods[n_methods++] = (struct method){
				k == K_FIB6 ? "rte_fib6 4B AVX-512" : "rte_fib6 8B AVX-512",
				(enum kind)k, RTE_FIB6_LOOKUP_TRIE_VECTOR_AVX512};
		else
			printf("# %s: no AVX-512 lookup here (CPU, DPDK's build or SIMD limit)\n",
				kind_name[k]);
	}
	lookup_cycles(t, dests, ndest, rounds, big);
	lookup_cycles(t, small, nsmall, rounds * 100, lit);

	for (k = 0; k < nk; k++)
		update_cycles(&t[k], x, r, nroutes, &ua[k], &ud[k], &uc[k]);

	printf("\n| structure | routes | load (CPU s) | load (wall s) | memory (MiB) | tbl8 "
	       "groups | add / del / next-hop change (cyc) |\n");
	printf("|---|---|---|---|---|---|---|\n");
	for (k = 0; k < nk; k++)
		printf("| %s | %u | %.3f | %.3f | %.0f | %u (%.1f x routes) | %.0f / %.0f / %.0f "
		       "|\n",
			kind_name[k], nroutes, ltime[k], lwall[k], t[k].mem / 1048576.0, t[k].tbl8,
			(double)t[k].tbl8 / nroutes, ua[k], ud[k], uc[k]);
	printf("\n| lookup, bursts of 32 | 1 M dests (cyc/addr) | 1 k dests (cyc/addr) |\n");
	printf("|---|---|---|\n");
	for (i = 0; i < n_methods; i++)
		printf("| %s | %.1f | %.1f |\n", methods[i].name, big[i], lit[i]);
	for (k = 0; k < nk; k++)
		tbl_free(&t[k]);
	rte_free(dests);
	rte_free(small);
	free(r);
	free(x);
	rte_eal_cleanup();
	return 0;
}
