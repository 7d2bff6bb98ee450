/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Unit tests of lib/fragpool. One case per process (argv[1] names it), so each
 * meson test brings up its own EAL (--no-huge, --no-pci, two lcores, a
 * net_null port) and reports TAP. Every case ends by checking that the pool's
 * accounting is back to zero.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* nftw() */
#endif

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fragpool.h"
#include "fwd_test.h"

static struct fragpool *
pool_new_cfg(const char *name, uint32_t n_chunks, uint8_t no_cache)
{
	struct fragpool_params p = {
		.name = name,
		.lcore_id = rte_lcore_id(),
		.socket_id = SOCKET_ID_ANY,
		.n_chunks = n_chunks,
		.no_cache = no_cache,
	};
	struct fragpool *fp = fragpool_create(&p);

	if (fp == NULL) {
		printf("#   fragpool_create(%s): %s\n", name, rte_strerror(rte_errno));
		exit(1);
	}
	return fp;
}

/* A pool with the recycle cache (the default). */
static struct fragpool *
pool_new(const char *name, uint32_t n_chunks)
{
	return pool_new_cfg(name, n_chunks, 0);
}

/*
 * Accounting back to zero: every fragment settled (cached ones count as freed), and once the
 * recycle cache is flushed, only the current chunk busy.
 */
static void
check_settled(struct fragpool *fp)
{
	struct fragpool_stats st, after;
	unsigned int cached;

	fragpool_reclaim(fp);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(fragpool_in_use(fp), 0);
	CHECK_EQ(st.allocs, st.frees);
	cached = fragpool_cache_count(fp);
	CHECK(cached <= FRAGPOOL_CACHE_LINES * FRAGPOOL_CACHE_DEPTH);
	CHECK_EQ(fragpool_cache_flush(fp), cached);
	CHECK_EQ(fragpool_cache_count(fp), 0);
	/* Flushing moves freed fragments from the cache to their chunks: no counter moves. */
	fragpool_stats_get(fp, &after);
	CHECK_EQ(after.allocs, st.allocs);
	CHECK_EQ(after.frees, st.frees);
	CHECK_EQ(after.cache_hits, st.cache_hits);
	CHECK_EQ(fragpool_in_use(fp), 0);
	CHECK(fragpool_chunks_busy(fp) <= 1);
	if (fwd_test_case_failed)
		fragpool_dump(stderr, fp);
}

static void
test_alignment(void)
{
	struct fragpool *fp = pool_new("align", 2000 * 704 / FRAGPOOL_MAX_LEN + 4);
	static void *frags[2000];
	uint64_t pad = 0;
	struct fragpool_stats st;
	unsigned int i;

	srand(1);
	for (i = 0; i < RTE_DIM(frags); i++) {
		uint32_t len = 1 + rand() % 700;
		uint8_t *f = fragpool_alloc(fp, len);
		rte_iova_t iova;

		CHECK(f != NULL);
		if (f == NULL)
			break;
		frags[i] = f;
		CHECK_EQ((uintptr_t)f % RTE_CACHE_LINE_SIZE, 0);
		CHECK(fragpool_of(f) == fp);
		/* Within its chunk, past the header, not crossing the chunk end. */
		CHECK((uintptr_t)f - (uintptr_t)fragpool_chunk_of(f) >= FRAGPOOL_CHUNK_HDR);
		CHECK(fragpool_chunk_of(f + len - 1) == fragpool_chunk_of(f));
		iova = rte_mem_virt2iova(f);
		if (iova != RTE_BAD_IOVA)
			CHECK_EQ(fragpool_virt2iova(f + 7), iova + 7);
		memset(f, (int)(i & 0xff), len);
		/* Same chunk as the previous one: it starts where the previous one's padding ends. */
		if (i > 0 && fragpool_chunk_of(frags[i - 1]) == fragpool_chunk_of(f))
			CHECK((uint8_t *)frags[i - 1] < f);
		pad += RTE_ALIGN_CEIL(len, 64) - len;
	}
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.pad_bytes, pad);
	CHECK_EQ(st.allocs, RTE_DIM(frags));
	for (i = 0; i < RTE_DIM(frags); i++) /* nothing overwrote anybody */
		CHECK_EQ(((uint8_t *)frags[i])[0], i & 0xff);
	for (i = 0; i < RTE_DIM(frags); i++)
		fragpool_put(fp, frags[i]);
	check_settled(fp);
	fragpool_free(fp);
}

static void
test_sizes(void)
{
	static const uint32_t lens[] = {1, 63, 64, 65, 1500, 2048, 9000, FRAGPOOL_MAX_LEN / 2,
		FRAGPOOL_MAX_LEN - 1, FRAGPOOL_MAX_LEN};
	struct fragpool *fp = pool_new("sizes", 4);
	struct fragpool_stats st;
	uint8_t *small, *big, *after;
	unsigned int i;

	rte_errno = 0;
	CHECK(fragpool_alloc(fp, 0) == NULL);
	CHECK_EQ(rte_errno, EINVAL);
	rte_errno = 0;
	CHECK(fragpool_alloc(fp, FRAGPOOL_MAX_LEN + 1) == NULL);
	CHECK_EQ(rte_errno, EINVAL);
	for (i = 0; i < RTE_DIM(lens); i++) {
		small = fragpool_alloc(fp, 64);
		big = fragpool_alloc(fp, lens[i]);
		after = fragpool_alloc(fp, 64);
		CHECK(small != NULL && big != NULL && after != NULL);
		if (small == NULL || big == NULL || after == NULL)
			break;
		memset(small, 0xa5, 64);
		memset(after, 0x5a, 64);
		memset(big, 0xff, lens[i]);
		CHECK(small[63] == 0xa5 && after[0] == 0x5a);
		CHECK(fragpool_chunk_of(big + lens[i] - 1) == fragpool_chunk_of(big));
		fragpool_put(fp, big);
		fragpool_put(fp, small);
		fragpool_put(fp, after);
	}
	/* A chunk-sized fragment takes a whole chunk, twice in a row. */
	big = fragpool_alloc(fp, FRAGPOOL_MAX_LEN);
	after = fragpool_alloc(fp, FRAGPOOL_MAX_LEN);
	CHECK(big != NULL && after != NULL && fragpool_chunk_of(big) != fragpool_chunk_of(after));
	fragpool_put(fp, big);
	fragpool_put(fp, after);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.failures, 2);
	check_settled(fp);
	fragpool_free(fp);
}

static void
test_exhaustion(void)
{
	const unsigned int per_chunk = FRAGPOOL_MAX_LEN / 2048;
	struct fragpool *fp = pool_new("exhaust", 4);
	static void *frags[4096];
	struct fragpool_stats st;
	unsigned int n, round, i;

	for (round = 0; round < 3; round++) {
		for (n = 0; n < RTE_DIM(frags); n++) {
			frags[n] = fragpool_alloc(fp, 2048);
			if (frags[n] == NULL)
				break;
		}
		CHECK_EQ(n, 4 * per_chunk);
		CHECK_EQ(rte_errno, ENOBUFS);
		/* Failing again and again is harmless. */
		for (i = 0; i < 10; i++)
			CHECK(fragpool_alloc(fp, 2048) == NULL);
		CHECK(fragpool_alloc_bulk(fp, frags + n, 4, 2048) == -ENOBUFS);
		/* The last resort carves the 1408-byte tails of the full chunks. */
		frags[n] = fragpool_alloc(fp, 1024);
		CHECK(frags[n] != NULL);
		fragpool_put(fp, frags[n]);
		CHECK_EQ(fragpool_chunks_busy(fp), 4);
		for (i = 0; i < n; i++)
			fragpool_put(fp, frags[i]);
		CHECK_EQ(fragpool_in_use(fp), 0);
	}
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.fresh_chunks, 4);
	CHECK_EQ(st.failures, 3 * 12);
	/* Bulk: all or nothing, and it recovers too. */
	CHECK_EQ(fragpool_alloc_bulk(fp, frags, 3 * per_chunk, 2048), 0);
	CHECK_EQ(fragpool_alloc_bulk(fp, frags + 3 * per_chunk, per_chunk + 1, 2048), -ENOBUFS);
	CHECK_EQ(fragpool_in_use(fp), 3 * per_chunk);
	fragpool_put_bulk(fp, frags, 3 * per_chunk);
	check_settled(fp);
	fragpool_free(fp);
}

static void
test_recycle(void)
{
	struct fragpool *fp = pool_new("recycle", 2);
	struct fragpool_stats st;
	void *fifo[8];
	unsigned int i;

	/* Alloc and free at once: the first chunk is recycled in place forever. */
	for (i = 0; i < 100000; i++) {
		void *f = fragpool_alloc(fp, 1000);

		CHECK(f != NULL);
		if (f == NULL)
			break;
		fragpool_put(fp, f);
	}
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.fresh_chunks, 1);
	CHECK_EQ(st.reused_chunks, 0);
	CHECK_EQ(st.recycles, 100000 / (FRAGPOOL_MAX_LEN / 1024));
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.cache_hits, 0); /* the current chunk's fragments go back to it */
	check_settled(fp);
	fragpool_free(fp);

	/*
	 * A FIFO of 8 in flight: a chunk is retired with fragments out, then freed by its last.
	 * Without the recycle cache, which would hand the retired chunk's fragments out again.
	 */
	fp = pool_new_cfg("recycle2", 2, 1);
	for (i = 0; i < RTE_DIM(fifo); i++)
		fifo[i] = fragpool_alloc(fp, 1000);
	for (i = 0; i < 100000; i++) {
		fragpool_put(fp, fifo[i % 8]);
		fifo[i % 8] = fragpool_alloc(fp, 1000);
		CHECK(fifo[i % 8] != NULL);
	}
	fragpool_put_bulk(fp, fifo, RTE_DIM(fifo));
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.fresh_chunks, 2);
	CHECK(st.reused_chunks > 1000);
	CHECK_EQ(st.failures, 0);
	check_settled(fp);
	fragpool_free(fp);

	/*
	 * With the cache, the fragments in flight spread over both chunks, so neither may drain:
	 * the allocator recycles the current one in place or carves around what is out of a
	 * pinned one (its last resort) rather than fail.
	 */
	fp = pool_new("recycle3", 2);
	for (i = 0; i < RTE_DIM(fifo); i++)
		fifo[i] = fragpool_alloc(fp, 1000);
	for (i = 0; i < 100000; i++) {
		fragpool_put(fp, fifo[i % 8]);
		fifo[i % 8] = fragpool_alloc(fp, 1000);
		CHECK(fifo[i % 8] != NULL);
		if (fifo[i % 8] == NULL)
			break;
	}
	fragpool_put_bulk(fp, fifo, RTE_DIM(fifo));
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.fresh_chunks, 2);
	CHECK_EQ(st.failures, 0);
	CHECK(st.cache_hits > 50000);
	/* Chunks keep being recycled, in place or carved around what is out. */
	CHECK(st.recycles + st.reused_chunks + st.partial_chunks > 100);
	check_settled(fp);
	fragpool_free(fp);
}

static void
test_straggler(void)
{
	/* No recycle cache: it would reuse the straggler's siblings (see test_cache_straggler). */
	struct fragpool *fp = pool_new_cfg("straggle", 3, 1);
	struct fragpool_chunk *pinned;
	struct fragpool_stats st;
	uint8_t *straggler;
	void *fifo[4];
	unsigned int i;
	bool retired = false;

	straggler = fragpool_alloc(fp, 100);
	memset(straggler, 0x77, 100);
	pinned = fragpool_chunk_of(straggler);
	for (i = 0; i < RTE_DIM(fifo); i++)
		fifo[i] = fragpool_alloc(fp, 3000);
	/* Many chunk lifetimes: the straggler's chunk is never handed out again; the others are. */
	for (i = 0; i < 50000; i++) {
		fragpool_put(fp, fifo[i % 4]);
		fifo[i % 4] = fragpool_alloc(fp, 3000);
		CHECK(fifo[i % 4] != NULL);
		if (fifo[i % 4] == NULL)
			break;
		/* Once the allocator has moved past it, the pinned chunk is never handed out. */
		if (fragpool_chunk_of(fifo[i % 4]) != pinned)
			retired = true;
		else
			CHECK(!retired);
	}
	CHECK(retired);
	CHECK_EQ(straggler[99], 0x77);
	CHECK(fragpool_chunks_busy(fp) <= 3);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.fresh_chunks, 3);
	CHECK_EQ(st.failures, 0);
	/* Its free releases the chunk: filling the pool now reaches it. */
	fragpool_put(fp, straggler);
	fragpool_put_bulk(fp, fifo, RTE_DIM(fifo));
	{
		static void *all[3 * (FRAGPOOL_MAX_LEN / 3008)];
		bool reached = false;

		for (i = 0; i < RTE_DIM(all); i++) {
			all[i] = fragpool_alloc(fp, 3000);
			if (all[i] == NULL)
				break;
			reached |= fragpool_chunk_of(all[i]) == pinned;
		}
		/* The rest of the current chunk and two whole ones: the pinned one is free again. */
		CHECK(reached);
		CHECK(i > 2 * (FRAGPOOL_MAX_LEN / 3008));
		fragpool_put_bulk(fp, all, i);
	}
	check_settled(fp);
	fragpool_free(fp);
}

static bool
overlaps(const uint8_t *a, uint32_t alen, const uint8_t *b, uint32_t blen)
{
	return a < b + blen && b < a + alen;
}

/* Fill the current chunk with fragments of len bytes (after one to start a fresh chunk). */
static unsigned int
fill_chunk(struct fragpool *fp, uint8_t **frags, uint32_t len)
{
	struct fragpool_chunk *c;
	unsigned int n = 0;

	frags[n++] = fragpool_alloc(fp, len);
	c = fragpool_chunk_of(frags[0]);
	while ((uint32_t)(frags[n - 1] - (uint8_t *)c) + 2 * RTE_ALIGN_CEIL(len, FRAGPOOL_ALIGN) <=
		FRAGPOOL_CHUNK_SIZE) {
		frags[n] = fragpool_alloc(fp, len);
		memset(frags[n], n & 0xff, len);
		n++;
	}
	return n;
}

/*
 * Partial reuse: a chunk pinned by a few small stragglers is carved again around them once all
 * but an eighth of its fragments are back, and no new fragment ever overlaps a straggler. A
 * chunk that its stragglers crowd (less than a quarter free) waits until they are back.
 */
static void
test_partial(void)
{
	/* No recycle cache: the frees must reach the chunk for it to drain (chunk-level test). */
	struct fragpool *fp = pool_new_cfg("partial", 4, 1);
	static uint8_t *frags[300], *more[600];
	struct fragpool_chunk *pinned;
	struct fragpool_stats st;
	unsigned int n, i, k, m = 0, in_pinned = 0, bad = 0;
	uint8_t *strag[3];

	n = fill_chunk(fp, frags, 256);
	pinned = fragpool_chunk_of(frags[0]);
	CHECK(n > 50 && fragpool_chunk_of(frags[n - 1]) == pinned);
	strag[0] = frags[0];
	strag[1] = frags[n / 2];
	strag[2] = frags[n - 2];
	/* Retire it with everything out, then free all but the stragglers. */
	more[m++] = fragpool_alloc(fp, 256);
	CHECK(fragpool_chunk_of(more[0]) != pinned);
	for (i = 0; i < n; i++)
		if (frags[i] != strag[0] && frags[i] != strag[1] && frags[i] != strag[2])
			fragpool_put(fp, frags[i]);
	CHECK_EQ(fragpool_in_use(fp), 3 + 1);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.partial_chunks, 0);
	/* Keep allocating: the current chunk runs out, and the pinned one is taken around them. */
	for (i = 0; i < 3 * n; i++) {
		uint8_t *f = fragpool_alloc(fp, 256);

		CHECK(f != NULL);
		if (f == NULL)
			break;
		memset(f, 0xee, 256);
		more[m++] = f;
		if (fragpool_chunk_of(f) != pinned) {
			if (in_pinned > 0)
				break; /* carved all it could and moved on */
			continue;
		}
		in_pinned++;
		for (k = 0; k < 3; k++)
			bad += overlaps(f, 256, strag[k], 256);
	}
	fragpool_stats_get(fp, &st);
	CHECK(st.partial_chunks >= 1);
	CHECK_EQ(bad, 0);
	/*
	 * All of it but the stragglers, and the fragments still out when it drained to its
	 * watermark (an eighth; they are back now, but the plan was made then).
	 */
	CHECK(in_pinned >= n - n / 8);
	for (k = 0; k < 3; k++)
		for (i = 0; i < 256; i++)
			if (strag[k][i] !=
				(uint8_t)((strag[k] - (uint8_t *)pinned - FRAGPOOL_CHUNK_HDR) /
						  256 &
					  0xff))
				bad++;
	CHECK_EQ(bad, 0);
	CHECK_EQ(fragpool_in_use(fp), 3 + m);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.allocs - st.frees, fragpool_in_use(fp));
	for (k = 0; k < 3; k++)
		fragpool_put(fp, strag[k]);
	fragpool_put_bulk(fp, (void **)more, m);
	check_settled(fp);
	fragpool_free(fp);

	/* Crowded: eight 1600-byte fragments fill over three quarters of their chunk. */
	fp = pool_new_cfg("crowded", 4, 1);
	for (i = 0; i < 8; i++)
		frags[i] = fragpool_alloc(fp, 1600);
	pinned = fragpool_chunk_of(frags[0]);
	for (n = 8; fragpool_chunk_of(frags[n - 1]) == pinned; n++)
		frags[n] = fragpool_alloc(fp, 64);
	/* frags[n - 1] opened the next chunk; free the small ones of the pinned chunk. */
	for (i = 8; i < n - 1; i++)
		fragpool_put(fp, frags[i]);
	CHECK(!fragpool_chunk_plan(fp, pinned));
	/* With two of them back it is worth carving, in runs that miss the other six. */
	fragpool_put(fp, frags[2]);
	fragpool_put(fp, frags[5]);
	CHECK(fragpool_chunk_plan(fp, pinned));
	CHECK(pinned->runs[0][1] != 0);
	in_pinned = 0;
	for (k = 0, bad = 0; k < FRAGPOOL_MAX_RUNS && pinned->runs[k][1] != 0; k++) {
		uint8_t *rs = (uint8_t *)pinned + pinned->runs[k][0] * FRAGPOOL_ALIGN;
		uint32_t rl = (pinned->runs[k][1] - pinned->runs[k][0]) * FRAGPOOL_ALIGN;

		CHECK(pinned->runs[k][0] * FRAGPOOL_ALIGN >= FRAGPOOL_CHUNK_HDR);
		for (i = 0; i < 8; i++)
			if (i != 2 && i != 5)
				bad += overlaps(rs, rl, frags[i], 1600);
		/* The freed ones' lines are in a run. */
		in_pinned += overlaps(rs, rl, frags[2], 1600) + overlaps(rs, rl, frags[5], 1600);
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(in_pinned, 2);
	for (i = 0; i < 8; i++)
		if (i != 2 && i != 5)
			fragpool_put(fp, frags[i]);
	fragpool_put(fp, frags[n - 1]);
	check_settled(fp);
	fragpool_free(fp);
}

/* Allocate, checking success; counts the allocations for the exact-stats checks. */
static uint64_t n_alloc, n_free;

static void *
t_alloc(struct fragpool *fp, uint32_t len)
{
	void *f = fragpool_alloc(fp, len);

	CHECK(f != NULL);
	if (f == NULL) {
		printf("#   alloc(%u): %s\n", len, rte_strerror(rte_errno));
		exit(1);
	}
	n_alloc++;
	return f;
}

static void
t_put(struct fragpool *fp, void *f)
{
	fragpool_put(fp, f);
	n_free++;
}

static void
check_stats(struct fragpool *fp, uint64_t hits)
{
	struct fragpool_stats st;

	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.allocs, n_alloc);
	CHECK_EQ(st.frees, n_free);
	CHECK_EQ(st.cache_hits, hits);
	CHECK_EQ(fragpool_in_use(fp), n_alloc - n_free);
}

/* Retire the current chunk: a chunk-sized fragment takes a new one (freed by the caller). */
static void *
retire_current(struct fragpool *fp, const void *in_old)
{
	void *big = t_alloc(fp, FRAGPOOL_MAX_LEN);

	CHECK(fragpool_chunk_of(big) != fragpool_chunk_of(in_old));
	return big;
}

/*
 * Recycle cache: a fragment of a retired chunk freed by the owner is handed out again to the
 * next allocation of the same length in lines; one of the current chunk goes back to it; each
 * class holds FRAGPOOL_CACHE_DEPTH at most; bulk allocation takes from it; statistics stay
 * exact; a pool created with no_cache has none.
 */
static void
test_cache(void)
{
	struct fragpool *fp = pool_new("cache", 8);
	static uint8_t *f[FRAGPOOL_CACHE_DEPTH + 5];
	void *bulk[16], *big, *big2, *big3;
	struct fragpool_stats st;
	uint64_t hits = 0, pad;
	uint8_t *a, *x, *y, *z;
	unsigned int i, k, found;

	n_alloc = n_free = 0;
	a = t_alloc(fp, 100); /* 2 lines */
	big = retire_current(fp, a);
	t_put(fp, a);
	CHECK_EQ(fragpool_cache_count(fp), 1);
	check_stats(fp, hits);
	/* Another length of 2 lines gets the same fragment, and its padding is counted. */
	x = t_alloc(fp, 128);
	hits++;
	CHECK(x == a);
	CHECK_EQ(fragpool_cache_count(fp), 0);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.pad_bytes, 28);
	check_stats(fp, hits);
	/* Another length in lines misses it. */
	t_put(fp, x);
	y = t_alloc(fp, 200); /* 4 lines: carved from a new chunk (the big one's is full) */
	CHECK(y != x);
	CHECK_EQ(fragpool_cache_count(fp), 1);
	/* A fragment of the current chunk goes back to it, not to the cache. */
	z = t_alloc(fp, 150); /* 3 lines: a class with nothing cached */
	CHECK(fragpool_chunk_of(z) == fragpool_chunk_of(y));
	t_put(fp, z);
	CHECK_EQ(fragpool_cache_count(fp), 1);
	check_stats(fp, hits);

	/* Bound: DEPTH + 5 fragments of one class, freed from a retired chunk. */
	for (i = 0; i < RTE_DIM(f); i++) {
		f[i] = t_alloc(fp, 64);
		CHECK(fragpool_chunk_of(f[i]) == fragpool_chunk_of(y));
	}
	big2 = retire_current(fp, y);
	for (i = 0; i < RTE_DIM(f); i++)
		t_put(fp, f[i]);
	CHECK_EQ(fragpool_cache_count(fp), 1 + FRAGPOOL_CACHE_DEPTH);
	check_stats(fp, hits);
	/* The first DEPTH freed are handed out again, in the order they were freed. */
	for (i = 0; i < FRAGPOOL_CACHE_DEPTH; i++) {
		uint8_t *g = t_alloc(fp, 64);

		hits++;
		CHECK(g == f[i]);
	}
	CHECK_EQ(fragpool_cache_count(fp), 1);
	/* Then carved: the big fragment's chunk is full, so from a new one. */
	x = t_alloc(fp, 64);
	CHECK(fragpool_chunk_of(x) != fragpool_chunk_of(f[0]));
	CHECK_EQ(fragpool_in_use(fp), 3 + FRAGPOOL_CACHE_DEPTH + 1); /* big*, y, f, x */
	check_stats(fp, hits);

	/* Bulk: 10 cached, 16 wanted: the 10 and 6 carved, all distinct. */
	big3 = retire_current(fp, x);
	for (i = 0; i < FRAGPOOL_CACHE_DEPTH; i++)
		t_put(fp, f[i]);
	t_put(fp, x);
	CHECK_EQ(fragpool_cache_count(fp), 1 + FRAGPOOL_CACHE_DEPTH); /* full: x to its chunk */
	/* Drain the class to 10 entries. */
	for (k = 0; k < FRAGPOOL_CACHE_DEPTH - 10; k++) {
		uint8_t *g = t_alloc(fp, 64);

		hits++;
		f[k] = g;
	}
	CHECK_EQ(fragpool_cache_count(fp), 1 + 10);
	CHECK_EQ(fragpool_alloc_bulk(fp, bulk, RTE_DIM(bulk), 64), 0);
	n_alloc += RTE_DIM(bulk);
	hits += 10;
	CHECK_EQ(fragpool_cache_count(fp), 1);
	for (i = 0, found = 0; i < RTE_DIM(bulk); i++) {
		CHECK(bulk[i] != NULL);
		for (k = 0; k < i; k++)
			CHECK(bulk[k] != bulk[i]);
		found += fragpool_chunk_of(bulk[i]) == fragpool_chunk_of(f[0]);
	}
	CHECK_EQ(found, 10); /* the cached ones came from f's chunk, the carved ones not */
	check_stats(fp, hits);
	fragpool_put_bulk(fp, bulk, RTE_DIM(bulk));
	n_free += RTE_DIM(bulk);
	for (k = 0; k < FRAGPOOL_CACHE_DEPTH - 10; k++)
		t_put(fp, f[k]);
	t_put(fp, y);
	t_put(fp, big);
	t_put(fp, big2);
	t_put(fp, big3);
	check_stats(fp, hits);
	fragpool_stats_get(fp, &st);
	pad = st.pad_bytes;
	CHECK_EQ(pad, 28 + 56 + 42); /* a (100 B), y (200 B), z (150 B); x (128 B) has none */
	check_settled(fp);
	fragpool_free(fp);

	/* no_cache: a retired chunk's fragment goes straight back to it. */
	fp = pool_new_cfg("nocache", 4, 1);
	n_alloc = n_free = 0;
	a = t_alloc(fp, 100);
	big = retire_current(fp, a);
	t_put(fp, a);
	CHECK_EQ(fragpool_cache_count(fp), 0);
	CHECK_EQ(fragpool_chunks_busy(fp), 1); /* a's chunk is free again */
	/* Not a cache hit: a's chunk, free, is taken whole again and carved from its start. */
	x = t_alloc(fp, 100);
	CHECK(x == a);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.reused_chunks, 1);
	t_put(fp, x);
	t_put(fp, big);
	check_stats(fp, 0);
	check_settled(fp);
	fragpool_free(fp);
}

/*
 * Flush: a chunk pinned only by cached fragments is free again once they are flushed (the next
 * chunk taken is it); the allocator flushes by itself before it fails for want of a chunk; and
 * fragpool_free() returns cached fragments before its check that nothing is in use.
 */
static void
test_cache_flush(void)
{
	const unsigned int per_chunk = FRAGPOOL_MAX_LEN / 4032;
	struct fragpool *fp = pool_new("flush", 4);
	static uint8_t *f[16];
	struct fragpool_chunk *pinned;
	struct fragpool_stats st;
	uint8_t *big, *g;
	unsigned int i;
	char *log = NULL;
	size_t log_len = 0;
	FILE *logf;

	/* Five 1000-byte fragments pin their retired chunk from the cache alone. */
	n_alloc = n_free = 0;
	for (i = 0; i < 5; i++)
		f[i] = t_alloc(fp, 1000);
	pinned = fragpool_chunk_of(f[0]);
	big = retire_current(fp, f[0]);
	for (i = 0; i < 5; i++)
		t_put(fp, f[i]);
	CHECK_EQ(fragpool_cache_count(fp), 5);
	CHECK_EQ(fragpool_in_use(fp), 1);
	CHECK_EQ(fragpool_chunks_busy(fp), 2);
	CHECK_EQ(fragpool_cache_flush(fp), 5);
	CHECK_EQ(fragpool_cache_count(fp), 0);
	CHECK_EQ(fragpool_chunks_busy(fp), 1);
	check_stats(fp, 0);
	/* The big fragment's chunk is full: the next chunk is the flushed one, taken whole. */
	g = t_alloc(fp, 1000);
	CHECK(fragpool_chunk_of(g) == pinned);
	CHECK(g == f[0]); /* carved from its start again, not a cache hit */
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.reused_chunks, 1);
	check_stats(fp, 0);
	t_put(fp, g);
	t_put(fp, big);
	check_settled(fp);
	fragpool_free(fp);

	/* Exhaustion: two chunks, both pinned only by cached fragments; another length still fits. */
	fp = pool_new("flushx", 2);
	n_alloc = n_free = 0;
	for (i = 0; i < 2 * per_chunk; i++)
		f[i] = t_alloc(fp, 4000); /* 63 lines: cacheable */
	rte_errno = 0;
	CHECK(fragpool_alloc(fp, 4000) == NULL);
	CHECK_EQ(rte_errno, ENOBUFS);
	for (i = 0; i < 2 * per_chunk; i++)
		t_put(fp, f[i]);
	CHECK_EQ(fragpool_cache_count(fp), 2 * per_chunk);
	CHECK_EQ(fragpool_chunks_busy(fp), 2);
	CHECK_EQ(fragpool_in_use(fp), 0);
	g = t_alloc(fp, 64); /* another class: nothing cached, no chunk free until the flush */
	CHECK_EQ(fragpool_cache_count(fp), 0);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.failures, 1);
	CHECK_EQ(st.reused_chunks, 1);
	t_put(fp, g);
	check_stats(fp, 0);
	check_settled(fp);
	fragpool_free(fp);

	/*
	 * fragpool_free(): cached fragments and remote frees still in the return ring are not "in
	 * use"; a fragment still out is.
	 */
	logf = open_memstream(&log, &log_len);
	CHECK(logf != NULL);
	rte_openlog_stream(logf);
	fp = pool_new("flushd", 4);
	f[0] = fragpool_alloc(fp, 500);
	f[1] = fragpool_alloc(fp, 500);
	f[2] = fragpool_alloc(fp, 500);
	big = retire_current(fp, f[0]);
	fragpool_put(fp, f[0]);
	fragpool_put(fp, f[1]);
	fragpool_put(fp, big);
	fragpool_put(NULL, f[2]); /* as from another lcore: the return ring, not drained yet */
	CHECK_EQ(fragpool_cache_count(fp), 2);
	CHECK_EQ(fragpool_in_use(fp), 1);
	fragpool_free(fp);
	fp = pool_new("flushe", 4);
	f[0] = fragpool_alloc(fp, 500);
	f[1] = fragpool_alloc(fp, 500);
	big = retire_current(fp, f[0]);
	fragpool_put(fp, f[0]);
	fragpool_put(fp, big);
	CHECK_EQ(fragpool_cache_count(fp), 1);
	fragpool_free(fp); /* f[1] still out: reported, and dangling from here on */
	fflush(logf);
	rte_openlog_stream(NULL);
	CHECK(log != NULL && strstr(log, "flushd: freed with") == NULL);
	CHECK(log != NULL && strstr(log, "flushe: freed with 1 fragments in use") != NULL);
	fclose(logf);
	free(log);
}

/*
 * With the recycle cache a straggler pins only itself: its chunk's other fragments come back
 * to the cache and are handed out again (without the cache, test_straggler: the whole chunk
 * waits for it), and none of them overlaps the straggler.
 */
static void
test_cache_straggler(void)
{
	struct fragpool *fp = pool_new("cstraggle", 3);
	struct fragpool_chunk *pinned;
	struct fragpool_stats st;
	uint8_t *straggler;
	void *fifo[4];
	unsigned int i, again = 0, bad = 0;
	bool moved = false;

	straggler = fragpool_alloc(fp, 100);
	memset(straggler, 0x77, 100);
	pinned = fragpool_chunk_of(straggler);
	for (i = 0; i < RTE_DIM(fifo); i++)
		fifo[i] = fragpool_alloc(fp, 3000);
	for (i = 0; i < 50000; i++) {
		uint8_t *g;

		fragpool_put(fp, fifo[i % 4]);
		g = fragpool_alloc(fp, 3000);
		CHECK(g != NULL);
		if (g == NULL)
			break;
		memset(g, 0x11, 3000);
		fifo[i % 4] = g;
		if (fragpool_chunk_of(g) != pinned)
			moved = true;
		else if (moved)
			again++;
		bad += overlaps(g, 3000, straggler, 100);
	}
	CHECK(moved);
	CHECK(again > 30000); /* the pinned chunk's siblings circulate */
	CHECK_EQ(bad, 0);
	CHECK_EQ(straggler[0], 0x77);
	CHECK_EQ(straggler[99], 0x77);
	fragpool_stats_get(fp, &st);
	/* Three frees in four are of a retired chunk's fragment (five per chunk, four in flight). */
	CHECK(st.cache_hits > 30000);
	CHECK_EQ(st.failures, 0);
	CHECK(fragpool_chunks_peak(fp) <= 2);
	fragpool_put(fp, straggler);
	fragpool_put_bulk(fp, fifo, RTE_DIM(fifo));
	check_settled(fp);
	fragpool_free(fp);
}

/* Remote frees: lcore 1 checks and frees what the owner (main lcore) allocated. */
#define REMOTE_N 200000

struct remote_ctx {
	struct rte_ring *handoff;
	unsigned int bad;
	unsigned int done;
	int mbufs;
};

static int
remote_worker(void *arg)
{
	struct remote_ctx *ctx = arg;
	uint32_t expect = 0;
	void *objs[32];

	while (expect < REMOTE_N) {
		unsigned int n = rte_ring_sc_dequeue_burst(ctx->handoff, objs, 32, NULL);
		unsigned int i;

		for (i = 0; i < n; i++, expect++) {
			if (ctx->mbufs) {
				struct rte_mbuf *m = objs[i];

				if (*rte_pktmbuf_mtod(m, uint32_t *) != expect)
					ctx->bad++;
				rte_pktmbuf_free(m);
			} else {
				uint32_t *f = objs[i];

				/* Both ends of the fragment: overwritten if handed out twice. */
				if (f[0] != expect || f[127] != ~expect)
					ctx->bad++;
				fragpool_put(NULL, f);
			}
		}
	}
	__atomic_store_n(&ctx->done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void
run_remote(struct fragpool *fp, int mbufs)
{
	struct remote_ctx ctx = {.mbufs = mbufs};
	struct fragpool_stats before, st;
	uint32_t seq;

	fragpool_stats_get(fp, &before);
	ctx.handoff = rte_ring_create(
		mbufs ? "hand_m" : "hand_f", 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	CHECK(ctx.handoff != NULL);
	CHECK_EQ(rte_eal_remote_launch(remote_worker, &ctx, 1), 0);
	for (seq = 0; seq < REMOTE_N; seq++) {
		unsigned long spins = 0;
		void *obj;

		do {
			if (mbufs) {
				struct rte_mbuf *m = fragpool_mbuf_alloc(fp, 512);

				if (m != NULL)
					*(uint32_t *)rte_pktmbuf_append(m, 4) = seq;
				obj = m;
			} else {
				uint32_t *f = fragpool_alloc(fp, 512);

				if (f != NULL) {
					f[0] = seq;
					f[127] = ~seq;
				}
				obj = f;
			}
			/* Exhausted while lcore 1 holds everything: settle its frees and retry. */
			if (obj == NULL && fragpool_reclaim(fp) == 0 && ++spins > 100000000ul) {
				printf("#   remote frees never came back (seq %u)\n", seq);
				exit(1);
			}
		} while (obj == NULL);
		while (rte_ring_sp_enqueue(ctx.handoff, obj) != 0)
			fragpool_reclaim(fp);
	}
	rte_eal_wait_lcore(1);
	CHECK_EQ(ctx.bad, 0);
	fragpool_reclaim(fp);
	fragpool_stats_get(fp, &st);
	CHECK_EQ(st.remote_frees - before.remote_frees, REMOTE_N);
	CHECK_EQ(st.allocs - before.allocs, REMOTE_N);
	CHECK(st.reused_chunks + st.recycles > 100);
	rte_ring_free(ctx.handoff);
}

static void
test_remote(void)
{
	struct fragpool *fp = pool_new("remote", 8);

	CHECK(rte_lcore_count() >= 2);
	if (rte_lcore_count() < 2)
		return;
	run_remote(fp, 0);
	check_settled(fp);
	run_remote(fp, 1);
	check_settled(fp);
	fragpool_free(fp);
}

/* Port 0 is net_null: its TX frees every mbuf with rte_pktmbuf_free(). */
static struct rte_mempool *
null_port_start(void)
{
	struct rte_mempool *mp = rte_pktmbuf_pool_create("rxpool", 1024, 0, 0, 2048, SOCKET_ID_ANY);
	struct rte_eth_conf conf = {0};

	CHECK(mp != NULL);
	CHECK(rte_eth_dev_count_avail() >= 1);
	CHECK_EQ(rte_eth_dev_configure(0, 1, 1, &conf), 0);
	CHECK_EQ(rte_eth_rx_queue_setup(0, 0, 128, SOCKET_ID_ANY, NULL, mp), 0);
	CHECK_EQ(rte_eth_tx_queue_setup(0, 0, 128, SOCKET_ID_ANY, NULL), 0);
	CHECK_EQ(rte_eth_dev_start(0), 0);
	return mp;
}

static void
test_mbuf(void)
{
	struct fragpool *fp = pool_new("mbuf", 8);
	struct rte_mempool *hdr = rte_pktmbuf_pool_create("hdrpool", 511, 0, 0, 0, SOCKET_ID_ANY);
	struct rte_mempool *rxp = null_port_start();
	struct rte_mbuf *m, *c, *burst[32];
	const char *why = NULL;
	unsigned int i;

	/* Fragment-resident mbuf. */
	m = fragpool_mbuf_alloc(fp, 1000);
	CHECK(m != NULL);
	CHECK(fragpool_of(m) == fp);
	CHECK(m->pool == fp->mbuf_pool);
	CHECK_EQ(rte_mbuf_check(m, 1, &why), 0);
	CHECK_EQ(m->buf_len, 1000 + RTE_PKTMBUF_HEADROOM);
	CHECK_EQ(rte_pktmbuf_headroom(m), RTE_PKTMBUF_HEADROOM);
	CHECK_EQ(rte_pktmbuf_tailroom(m), 1000);
	CHECK_EQ(rte_pktmbuf_iova(m), fragpool_virt2iova(rte_pktmbuf_mtod(m, void *)));
	CHECK(rte_pktmbuf_append(m, 1000) != NULL);
	CHECK(rte_pktmbuf_append(m, 1) == NULL);
	CHECK_EQ(fragpool_in_use(fp), 1);
	rte_pktmbuf_free(m);
	CHECK_EQ(fragpool_in_use(fp), 0);

	/* Through the mempool: rte_pktmbuf_alloc() of the pool's own mempool. */
	m = rte_pktmbuf_alloc(fp->mbuf_pool);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK_EQ(rte_mbuf_check(m, 1, &why), 0);
		CHECK_EQ(m->buf_len, RTE_MBUF_DEFAULT_BUF_SIZE);
		/* An indirect clone keeps the fragment until both are freed. */
		c = rte_pktmbuf_clone(m, hdr);
		CHECK(c != NULL);
		rte_pktmbuf_free(m);
		CHECK_EQ(fragpool_in_use(fp), 1);
		rte_pktmbuf_free(c);
		CHECK_EQ(fragpool_in_use(fp), 0);
	}

	/* Extbuf flavour: header from hdrpool, data in a fragment. */
	m = fragpool_extbuf_alloc(fp, hdr, 1500);
	CHECK(m != NULL);
	if (m != NULL) {
		CHECK(RTE_MBUF_HAS_EXTBUF(m));
		CHECK_EQ(rte_pktmbuf_tailroom(m), 1500);
		CHECK(fragpool_of(m->buf_addr) == fp);
		CHECK_EQ(rte_pktmbuf_iova(m), fragpool_virt2iova(m->buf_addr));
		CHECK_EQ(rte_mempool_in_use_count(hdr), 1);
		rte_pktmbuf_free(m);
		CHECK_EQ(rte_mempool_in_use_count(hdr), 0);
		CHECK_EQ(fragpool_in_use(fp), 0);
	}

	/* Freed by a driver: net_null's TX. Both flavours in one burst. */
	for (i = 0; i < 32; i++) {
		burst[i] = i & 1 ? fragpool_extbuf_alloc(fp, hdr, 64) : fragpool_mbuf_alloc(fp, 64);
		CHECK(burst[i] != NULL);
		rte_pktmbuf_append(burst[i], 60);
	}
	CHECK_EQ(fragpool_in_use(fp), 32);
	CHECK_EQ(rte_eth_tx_burst(0, 0, burst, 32), 32);
	CHECK_EQ(fragpool_in_use(fp), 0);
	CHECK_EQ(rte_mempool_in_use_count(hdr), 0);

	/* rte_pktmbuf_free_bulk and rte_mempool's own put path. */
	CHECK_EQ(rte_pktmbuf_alloc_bulk(fp->mbuf_pool, burst, 32), 0);
	CHECK_EQ(fragpool_in_use(fp), 32);
	rte_pktmbuf_free_bulk(burst, 32);

	check_settled(fp);
	rte_eth_dev_stop(0);
	rte_mempool_free(hdr);
	rte_mempool_free(rxp);
	fragpool_free(fp);
}

static void
test_refcnt(void)
{
	struct fragpool *fp = pool_new("refcnt", 2);
	struct rte_mempool *rxp = null_port_start();
	struct rte_mbuf *seed, *burst[32];
	unsigned int i, round;

	seed = fragpool_mbuf_alloc(fp, 64);
	CHECK(seed != NULL);
	if (seed == NULL)
		return;
	rte_pktmbuf_append(seed, 60);
	for (round = 0; round < 100; round++) {
		/* k sends with one refcount write; the driver drops one reference per packet. */
		fragpool_mbuf_share(seed, 32);
		CHECK_EQ(rte_mbuf_refcnt_read(seed), 33);
		for (i = 0; i < 32; i++)
			burst[i] = seed;
		CHECK_EQ(rte_eth_tx_burst(0, 0, burst, 32), 32);
		CHECK_EQ(rte_mbuf_refcnt_read(seed), 1);
	}
	/* Partial send: 5 of 8 accepted, the 3 unsent settled at once. */
	fragpool_mbuf_share(seed, 8);
	for (i = 0; i < 5; i++)
		rte_pktmbuf_free(seed);
	CHECK_EQ(rte_mbuf_refcnt_read(seed), 4);
	fragpool_mbuf_settle(seed, 3);
	CHECK_EQ(rte_mbuf_refcnt_read(seed), 1);
	/* Someone else (a TX ring) still holds one: share and settle add and drop atomically. */
	rte_mbuf_refcnt_update(seed, 1);
	fragpool_mbuf_share(seed, 4);
	CHECK_EQ(rte_mbuf_refcnt_read(seed), 6);
	rte_pktmbuf_free(seed);
	fragpool_mbuf_settle(seed, 3);
	CHECK_EQ(rte_mbuf_refcnt_read(seed), 2);
	rte_pktmbuf_free(seed); /* the other holder */
	CHECK_EQ(fragpool_in_use(fp), 1);
	rte_pktmbuf_free(seed); /* ours: the fragment goes back */
	CHECK_EQ(fragpool_in_use(fp), 0);
	check_settled(fp);
	rte_eth_dev_stop(0);
	rte_mempool_free(rxp);
	fragpool_free(fp);
}

static void
test_control(void)
{
	struct fragpool_params p = {.name = "ctl",
		.lcore_id = rte_lcore_id(),
		.n_chunks = 2,
		.socket_id = SOCKET_ID_ANY};
	struct fragpool *fp = fragpool_create(&p);
	struct fragpool_params bad;
	unsigned int i;

	CHECK(fp != NULL);
	CHECK(fragpool_lookup("ctl") == fp);
	CHECK(fragpool_lookup("nope") == NULL && rte_errno == ENOENT);
	CHECK(fragpool_create(&p) == NULL && rte_errno == EEXIST);
	bad = p;
	bad.n_chunks = 0;
	CHECK(fragpool_create(&bad) == NULL && rte_errno == EINVAL);
	bad = p;
	bad.name = "a-name-longer-than-twenty-chars";
	CHECK(fragpool_create(&bad) == NULL && rte_errno == EINVAL);
	bad = p;
	bad.lcore_id = RTE_MAX_LCORE;
	CHECK(fragpool_create(&bad) == NULL && rte_errno == EINVAL);
	CHECK_EQ(fragpool_stats_count(), sizeof(struct fragpool_stats) / sizeof(uint64_t));
	for (i = 0; i < fragpool_stats_count(); i++)
		CHECK(fragpool_stats_name(i) != NULL);
	CHECK(fragpool_stats_name(i) == NULL);
	CHECK(strcmp(fragpool_stats_name(0), "allocs") == 0);
	fragpool_free(fp);
	CHECK(fragpool_lookup("ctl") == NULL);
	/* The name is free again. */
	fp = fragpool_create(&p);
	CHECK(fp != NULL);
	fragpool_free(fp);
}

static const struct fwd_test_case cases[] = {
	{"alignment", test_alignment},
	{"sizes", test_sizes},
	{"exhaustion", test_exhaustion},
	{"recycle", test_recycle},
	{"straggler", test_straggler},
	{"partial", test_partial},
	{"cache", test_cache},
	{"cache-flush", test_cache_flush},
	{"cache-straggler", test_cache_straggler},
	{"remote", test_remote},
	{"mbuf", test_mbuf},
	{"refcnt", test_refcnt},
	{"control", test_control},
};

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	RTE_SET_USED(st);
	RTE_SET_USED(flag);
	RTE_SET_USED(ftw);
	return remove(path);
}

int
main(int argc, char **argv)
{
	const struct fwd_test_case *c = fwd_test_case_named(cases, RTE_DIM(cases), argc, argv);
	char prefix[64], rundir[PATH_MAX];
	int ret;

	if (c == NULL)
		return 2;
	snprintf(prefix, sizeof(prefix), "--file-prefix=fp_%s_%d", c->name, (int)getpid());
	char *eal[] = {argv[0], "--no-huge", "-m", "128", "--no-pci", prefix, "--lcores", "0@0,1@1",
		"--vdev", "net_null0", "--log-level", "lib.eal:error", "--no-telemetry"};
	if (rte_eal_init(RTE_DIM(eal), eal) < 0) {
		printf("1..0 # SKIP rte_eal_init: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	ret = fwd_test_run_one(c);
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	rte_eal_cleanup();
	/* --no-huge rules out --in-memory: remove this process's runtime directory by hand. */
	if (strstr(rundir, "/fp_") != NULL)
		nftw(rundir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	return ret;
}
