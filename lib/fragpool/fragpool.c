/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Control path of fragpool: create/free/lookup, the allocation slow path
 * (chunk retirement, in-place recycle, free-chunk list), the remote free path
 * and the return-ring drain. The fast path is in fragpool.h.
 */

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include "fragpool.h"
#include "fragpool_priv.h"

RTE_LOG_REGISTER(fragpool_logtype, lib.fragpool, INFO);

/* Pools by name, for fragpool_lookup(); control path only. */
static struct fragpool *fragpool_list[RTE_MAX_LCORE * 4];
static rte_spinlock_t fragpool_list_lock = RTE_SPINLOCK_INITIALIZER;

static const char *const fragpool_stat_names[] = {
#define FRAGPOOL_STAT_NAME(f, d) #f,
	FRAGPOOL_STATS(FRAGPOOL_STAT_NAME)
#undef FRAGPOOL_STAT_NAME
};

/*
 * A retired chunk is offered for partial reuse when all but 1/FP_WM_DIV of its fragments are
 * back. 8 measured best of 2, 4, 8, 16, 32 with 1 % stragglers (docs/benchmarks-fragpool.md):
 * a smaller divisor lets long-held fragments crowd the chunks that are reused (more, shorter
 * runs), a larger one leaves more chunks pinned whole.
 */
#define FP_WM_DIV 8

/* Lines taken by the chunk header: never carved. */
#define FP_HDR_LINES (FRAGPOOL_CHUNK_HDR / FRAGPOOL_ALIGN)

/* First line >= i whose bit in m is set (want) or clear (!want); FRAGPOOL_CHUNK_LINES if none. */
static unsigned int
fp_map_next(const uint64_t *m, unsigned int i, bool want)
{
	while (i < FRAGPOOL_CHUNK_LINES) {
		uint64_t w = (want ? m[i >> 6] : ~m[i >> 6]) >> (i & 63);

		if (w != 0)
			return RTE_MIN(i + (unsigned int)__builtin_ctzll(w),
				(unsigned int)FRAGPOOL_CHUNK_LINES);
		i = (i | 63) + 1;
	}
	return FRAGPOOL_CHUNK_LINES;
}

/* Set lines [a, b) in m. */
static void
fp_map_set_range(uint64_t *m, unsigned int a, unsigned int b)
{
	while (a < b) {
		unsigned int n = RTE_MIN(b - a, 64 - (a & 63));
		uint64_t bits = n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;

		m[a >> 6] |= bits << (a & 63);
		a += n;
	}
}

static void
fragpool_make_current(struct fragpool *fp, struct fragpool_chunk *c)
{
	c->wm = 0;
	c->state = FRAGPOOL_CHUNK_CURRENT;
	fp->bias = FRAGPOOL_BIAS;
	fp->cur = (uint8_t *)c;
}

/* A chunk whose fragments are all back (its map is all zero): one run, the whole chunk. */
static void
fragpool_chunk_start(struct fragpool *fp, struct fragpool_chunk *c)
{
	c->refs = FRAGPOOL_BIAS;
	fragpool_make_current(fp, c);
	fp->off = FRAGPOOL_CHUNK_HDR;
	fp->limit = FRAGPOOL_CHUNK_SIZE;
	fp->n_runs = 0;
	fp->next_run = 0;
}

/* Lines of chunk c that its header and live fragments occupy, into fp->occ. */
static void
fragpool_chunk_occupancy(struct fragpool *fp, const struct fragpool_chunk *c)
{
	unsigned int i;

	memset(fp->occ, 0, sizeof(fp->occ));
	fp_map_set_range(fp->occ, 0, FP_HDR_LINES);
	/* Eight map bytes at a time, visiting only the non-zero ones: few fragments are left. */
	for (i = 0; i < FRAGPOOL_CHUNK_LINES; i += 8) {
		uint64_t w;

		memcpy(&w, &c->lmap[i], sizeof(w));
		while (w != 0) {
			unsigned int b = (unsigned int)__builtin_ctzll(w) / 8, idx = i + b;
			unsigned int n = (unsigned int)(w >> (8 * b)) & 0xff;
			/* The inverse of fragpool_map_idx(). */
			unsigned int j = (idx % (FRAGPOOL_CHUNK_LINES / 4)) * 4 +
					 idx / (FRAGPOOL_CHUNK_LINES / 4);

			w &= ~(UINT64_C(0xff) << (8 * b));
			/* FRAGPOOL_MAP_MAX: at least that long; the rest of the chunk, to be safe. */
			if (n >= FRAGPOOL_MAP_MAX)
				n = FRAGPOOL_CHUNK_LINES - j;
			fp_map_set_range(
				fp->occ, j, RTE_MIN(j + n, (unsigned int)FRAGPOOL_CHUNK_LINES));
		}
	}
}

bool
fragpool_chunk_plan(struct fragpool *fp, struct fragpool_chunk *c)
{
	unsigned int s, e, n = 0, lines = 0;

	fragpool_chunk_occupancy(fp, c);
	for (s = fp_map_next(fp->occ, 0, false); s < FRAGPOOL_CHUNK_LINES && n < FRAGPOOL_MAX_RUNS;
		s = fp_map_next(fp->occ, e, false)) {
		e = fp_map_next(fp->occ, s, true);
		if (e - s < FRAGPOOL_MIN_RUN)
			continue;
		c->runs[n][0] = (uint16_t)s;
		c->runs[n][1] = (uint16_t)e;
		lines += e - s;
		n++;
	}
	if (n < FRAGPOOL_MAX_RUNS)
		c->runs[n][0] = c->runs[n][1] = 0;
	/* Too crowded with long-held fragments to be worth carving: wait for them. */
	return lines >= FRAGPOOL_CHUNK_LINES / 4;
}

/*
 * Make the next run of c->runs that holds sz bytes the one being carved. Shorter runs passed
 * over are counted in tail_bytes when count_skips.
 */
static bool
fragpool_next_run(
	struct fragpool *fp, const struct fragpool_chunk *c, uint32_t sz, bool count_skips)
{
	unsigned int need = sz / FRAGPOOL_ALIGN;

	while (fp->next_run < fp->n_runs) {
		unsigned int s = c->runs[fp->next_run][0], e = c->runs[fp->next_run][1];

		fp->next_run++;
		if (e - s >= need) {
			fp->off = s * FRAGPOOL_ALIGN;
			fp->limit = e * FRAGPOOL_ALIGN;
			return true;
		}
		if (count_skips)
			fp->stats.tail_bytes += (uint64_t)(e - s) * FRAGPOOL_ALIGN;
	}
	return false;
}

/*
 * Take a chunk from the partial-reuse stack (most recently drained first: its lines are the
 * warmest). A chunk whose fragments are all back is started whole; a pinned one is carved
 * around its outstanding fragments, unless they crowd it (then it is dropped from the stack and
 * freed whole later). Looks at `tries` pinned chunks at most.
 */
static bool
fragpool_take_partial(struct fragpool *fp, uint32_t sz, unsigned int tries)
{
	unsigned int i = fp->n_partial;

	while (i-- > 0 && tries > 0) {
		struct fragpool_chunk *c = fp->partial[i];
		bool whole = c->state == FRAGPOOL_CHUNK_FREE;

		if (!whole) {
			unsigned int n = 0;
			bool roomy;

			tries--;
			/*
			 * Planned only now: most chunks on the stack are whole again by the time they
			 * are needed (the fragments out at the watermark were just late, not held).
			 */
			roomy = fragpool_chunk_plan(fp, c);
			while (n < FRAGPOOL_MAX_RUNS && c->runs[n][1] != 0)
				n++;
			fp->n_runs = (uint16_t)n;
			fp->next_run = 0;
			if (roomy && !fragpool_next_run(fp, c, sz, false))
				continue; /* keep it for a smaller fragment */
			if (!roomy) {
				/* Crowded by long-held fragments: freed whole when they are back. */
				c->queued = 0;
				fp->partial[i] = fp->partial[--fp->n_partial];
				continue;
			}
		}
		c->queued = 0;
		fp->partial[i] = fp->partial[--fp->n_partial];
		if (whole) {
			fp->stats.reused_chunks++;
			fragpool_chunk_start(fp, c);
		} else {
			c->refs += FRAGPOOL_BIAS;
			fragpool_make_current(fp, c);
			fp->stats.partial_chunks++;
		}
		return true;
	}
	return false;
}

/*
 * Last resort before failing: carve around the live fragments of any pinned chunk with a free
 * run that fits, however crowded (the recycle cache lets the fragments in flight spread over
 * more chunks than carving order would, so a small pool can have every chunk pinned by a few).
 * Chunks on the partial-reuse stack were tried already.
 */
static bool
fragpool_take_pinned(struct fragpool *fp, uint32_t sz)
{
	uint32_t i;

	for (i = 0; i < fp->n_fresh; i++) {
		struct fragpool_chunk *c =
			(struct fragpool_chunk *)(fp->arena + (size_t)i * FRAGPOOL_CHUNK_SIZE);
		unsigned int n = 0;

		if (c->state != FRAGPOOL_CHUNK_PINNED || c->queued)
			continue;
		fragpool_chunk_plan(fp, c);
		while (n < FRAGPOOL_MAX_RUNS && c->runs[n][1] != 0)
			n++;
		fp->n_runs = (uint16_t)n;
		fp->next_run = 0;
		if (!fragpool_next_run(fp, c, sz, false))
			continue;
		/* Not drained to its watermark yet: refs + wm is what is out. */
		c->refs += c->wm + FRAGPOOL_BIAS;
		fragpool_make_current(fp, c);
		fp->stats.partial_chunks++;
		return true;
	}
	fp->n_runs = 0;
	fp->next_run = 0;
	return false;
}

/* The slow path proper: retire the current chunk, take another one. */
static __rte_noinline void *
fragpool_alloc_refill(struct fragpool *fp, uint32_t len)
{
	uint32_t sz = RTE_ALIGN_CEIL(len, FRAGPOOL_ALIGN), carved;
	struct fragpool_chunk *c;

	if (len == 0 || len > FRAGPOOL_MAX_LEN) {
		fp->stats.failures++;
		rte_errno = EINVAL;
		return NULL;
	}
	if (fp->cur != NULL) {
		c = (struct fragpool_chunk *)fp->cur;
		fp->stats.tail_bytes += fp->limit - fp->off;
		/* A partially reused chunk may have more free runs further on: the cheap case. */
		if (fp->next_run < fp->n_runs && fragpool_next_run(fp, c, sz, true))
			return fragpool_alloc(fp, len);
	}
	/* Remote frees may complete the current chunk and allow recycling it in place. */
	fragpool_reclaim(fp);
	if (fp->cur != NULL) {
		c = (struct fragpool_chunk *)fp->cur;
		carved = FRAGPOOL_BIAS - fp->bias;
		/* The only settlement of the bias: refs becomes the fragments still out. */
		fp->stats.allocs += carved;
		c->refs -= fp->bias;
		fp->cur = NULL;
		fp->off = FRAGPOOL_CHUNK_SIZE;
		fp->limit = FRAGPOOL_CHUNK_SIZE;
		fp->bias = 0;
		if (c->refs == 0) {
			fp->stats.recycles++;
			goto start;
		}
		/*
		 * Outstanding fragments pin this chunk; its last fragpool_put() frees it. Once all
		 * but an eighth are back (the rest are likely long-held), it is offered for carving
		 * around them, while its lines are still warm.
		 */
		c->state = FRAGPOOL_CHUNK_PINNED;
		c->wm = (uint16_t)(c->refs / FP_WM_DIV);
		c->refs -= c->wm; /* reaches 0 when drained to the watermark */
	}
	c = fp->free_chunks;
	if (c != NULL) {
		fp->free_chunks = c->next;
		fp->stats.reused_chunks++;
	} else if (fragpool_take_partial(fp, sz, 1)) {
		return fragpool_alloc(fp, len);
	} else if (fp->n_fresh < fp->n_chunks) {
		c = (struct fragpool_chunk *)(fp->arena +
					      (size_t)fp->n_fresh * FRAGPOOL_CHUNK_SIZE);
		fp->n_fresh++;
		fp->stats.fresh_chunks++;
	} else if (fragpool_take_partial(fp, sz, UINT_MAX)) {
		return fragpool_alloc(fp, len);
	} else if (fragpool_cache_flush(fp) != 0) {
		/* Chunks pinned only by cached fragments are free now (or partially reusable). */
		return fragpool_alloc(fp, len);
	} else if (fragpool_take_pinned(fp, sz)) {
		return fragpool_alloc(fp, len);
	} else {
		fp->stats.failures++;
		rte_errno = ENOBUFS;
		return NULL;
	}
start:
	fragpool_chunk_start(fp, c);
	return fragpool_alloc(fp, len);
}

/*
 * Kept small (no callee-saved registers to spill) for its common case, recycling in place
 * without draining the return ring first: every fragment carved from the used-up current chunk
 * is back (none in the ring, none in the recycle cache: those still count in refs). The ring is
 * drained when a chunk is needed.
 */
void *
fragpool_alloc_slow(struct fragpool *fp, uint32_t len)
{
	uint32_t sz = RTE_ALIGN_CEIL(len, FRAGPOOL_ALIGN);
	struct fragpool_chunk *c = (struct fragpool_chunk *)fp->cur;

	if (likely(c != NULL && len - 1 < FRAGPOOL_MAX_LEN && c->refs == fp->bias &&
		    fp->next_run >= fp->n_runs)) {
		fp->stats.tail_bytes += fp->limit - fp->off;
		fp->stats.allocs += FRAGPOOL_BIAS - fp->bias;
		fp->stats.recycles++;
		fp->stats.pad_bytes += sz - len;
		c->refs = FRAGPOOL_BIAS;
		fp->bias = FRAGPOOL_BIAS - 1;
		fp->off = FRAGPOOL_CHUNK_HDR + sz;
		fp->limit = FRAGPOOL_CHUNK_SIZE;
		fp->n_runs = 0;
		fp->next_run = 0;
		fragpool_chunk_mark_alloc(fp->cur, FRAGPOOL_CHUNK_HDR, sz);
		return fp->cur + FRAGPOOL_CHUNK_HDR;
	}
	return fragpool_alloc_refill(fp, len);
}

/* Kept out of line: the one atomic (the ring's CAS) must stay out of the owner's path. */
__rte_noinline void
fragpool_put_remote(struct fragpool *owner, void *frag)
{
	/* The ring holds as many entries as the arena has fragments: it cannot be full. */
	if (unlikely(rte_ring_mp_enqueue(owner->ret, frag) != 0))
		rte_panic(
			"fragpool %s: return ring full (double free of %p?)\n", owner->name, frag);
}

/* Back to its chunk: the fragment's map index from its offset. */
static void
fragpool_put_chunk_frag(struct fragpool *fp, void *frag)
{
	fragpool_put_chunk(fp, fragpool_chunk_of(frag),
		fragpool_map_idx((uint32_t)((uintptr_t)frag & (FRAGPOOL_CHUNK_SIZE - 1))));
}

unsigned int
fragpool_cache_flush(struct fragpool *fp)
{
	unsigned int l, i, total = 0;

	for (l = 1; l <= FRAGPOOL_CACHE_LINES; l++) {
		struct fragpool_cache_ring *r = &fp->cache_ring[l];

		for (i = r->head; i != r->tail; i++)
			fragpool_put_chunk_frag(fp, fp->cache_obj[l][i % FRAGPOOL_CACHE_DEPTH]);
		total += r->tail - r->head;
		r->head = r->tail;
	}
	return total;
}

unsigned int
fragpool_cache_count(const struct fragpool *fp)
{
	unsigned int l, n = 0;

	for (l = 1; l <= FRAGPOOL_CACHE_LINES; l++)
		n += fp->cache_ring[l].tail - fp->cache_ring[l].head;
	return n;
}

unsigned int
fragpool_reclaim(struct fragpool *fp)
{
	void *objs[64];
	unsigned int n, i, total = 0;

	/*
	 * Single-consumer dequeue: plain loads and stores on x86, no CAS. Remote frees go to their
	 * chunks, not to the recycle cache: they are cold here, and settling them is what lets a
	 * chunk be recycled.
	 */
	while ((n = rte_ring_sc_dequeue_burst(fp->ret, objs, RTE_DIM(objs), NULL)) != 0) {
		for (i = 0; i < n; i++)
			fragpool_put_chunk_frag(fp, objs[i]);
		total += n;
	}
	fp->stats.remote_frees += total;
	return total;
}

/*
 * Touch every 4 KiB page of a chunk once at create time: without hugepages
 * (--no-huge) the memory is faulted in lazily, and a first touch on the
 * datapath costs thousands of cycles.
 */
static void
fragpool_prefault(uint8_t *chunk)
{
	size_t o;

	for (o = FRAGPOOL_CHUNK_HDR; o < FRAGPOOL_CHUNK_SIZE; o += 4096)
		((volatile uint8_t *)chunk)[o] = 0;
}

static int
fragpool_chunk_iovas(struct fragpool *fp, bool contig)
{
	uint32_t i;

	for (i = 0; i < fp->n_chunks; i++) {
		uint8_t *base = fp->arena + (size_t)i * FRAGPOOL_CHUNK_SIZE;
		struct fragpool_chunk *c = (struct fragpool_chunk *)base;
		rte_iova_t iova;

		if (rte_eal_iova_mode() == RTE_IOVA_VA) {
			iova = (uintptr_t)base;
		} else if (contig) {
			iova = fp->mz->iova + (base - (uint8_t *)fp->mz->addr);
		} else {
			/* rte_malloc_virt2iova() is not safe under --no-huge; walk the pages. */
			const struct rte_memseg *ms = rte_mem_virt2memseg(base, NULL);
			size_t pg = ms != NULL ? ms->hugepage_sz : 4096;
			size_t o;

			iova = rte_mem_virt2iova(base);
			for (o = pg; o < FRAGPOOL_CHUNK_SIZE && iova != RTE_BAD_IOVA; o += pg)
				if (rte_mem_virt2iova(base + o) != iova + o)
					iova = RTE_BAD_IOVA;
			if (iova == RTE_BAD_IOVA) {
				FP_LOG(ERR, "%s: chunk %u is not IOVA-contiguous\n", fp->name, i);
				return -ENOMEM;
			}
		}
		memset(c, 0, sizeof(*c));
		c->pool = fp;
		c->iova = iova;
		fragpool_prefault(base);
	}
	return 0;
}

static int
fragpool_register(struct fragpool *fp)
{
	unsigned int i, slot = RTE_DIM(fragpool_list);
	int ret = 0;

	rte_spinlock_lock(&fragpool_list_lock);
	for (i = 0; i < RTE_DIM(fragpool_list); i++) {
		if (fragpool_list[i] == NULL) {
			if (slot == RTE_DIM(fragpool_list))
				slot = i;
		} else if (strcmp(fragpool_list[i]->name, fp->name) == 0) {
			ret = -EEXIST;
		}
	}
	if (ret == 0 && slot == RTE_DIM(fragpool_list))
		ret = -ENOSPC;
	if (ret == 0)
		fragpool_list[slot] = fp;
	rte_spinlock_unlock(&fragpool_list_lock);
	return ret;
}

static void
fragpool_unregister(struct fragpool *fp)
{
	unsigned int i;

	rte_spinlock_lock(&fragpool_list_lock);
	for (i = 0; i < RTE_DIM(fragpool_list); i++)
		if (fragpool_list[i] == fp)
			fragpool_list[i] = NULL;
	rte_spinlock_unlock(&fragpool_list_lock);
}

struct fragpool *
fragpool_create(const struct fragpool_params *p)
{
	char zname[RTE_MEMZONE_NAMESIZE];
	struct fragpool *fp;
	uint64_t ring_sz;
	int socket, ret;
	bool contig = true;

	if (p == NULL || p->name == NULL || strlen(p->name) == 0 || strlen(p->name) > 20 ||
		p->lcore_id >= RTE_MAX_LCORE || p->n_chunks == 0 || (p->mbuf_priv_size & 7) != 0 ||
		(p->mbuf_data_room != 0 && p->mbuf_data_room < RTE_PKTMBUF_HEADROOM)) {
		rte_errno = EINVAL;
		return NULL;
	}
	ring_sz = (uint64_t)p->n_chunks * (FRAGPOOL_BIAS - 1);
	if (ring_sz > RTE_RING_SZ_MASK ||
		(uint64_t)p->n_chunks * FRAGPOOL_CHUNK_SIZE > (uint64_t)SIZE_MAX / 2) {
		rte_errno = EINVAL;
		return NULL;
	}
	socket = p->socket_id;
	if (socket == SOCKET_ID_ANY)
		socket = (int)rte_lcore_to_socket_id(p->lcore_id);

	/* Page-aligned: the layout keeps the hot state clear of chunk headers (FRAGPOOL_HOT_OFF). */
	RTE_BUILD_BUG_ON(offsetof(struct fragpool, cur) != FRAGPOOL_HOT_OFF);
	fp = rte_zmalloc_socket("fragpool", sizeof(*fp), 4096, socket);
	if (fp == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(fp->name, sizeof(fp->name), "%s", p->name);
	fp->lcore_id = p->lcore_id;
	fp->socket_id = socket;
	fp->n_chunks = p->n_chunks;
	/* No current chunk: the first alloc takes the slow path. */
	fp->off = FRAGPOOL_CHUNK_SIZE;
	fp->limit = FRAGPOOL_CHUNK_SIZE;
	fp->mbuf_priv_size = p->mbuf_priv_size;
	fp->mbuf_data_room = p->mbuf_data_room != 0 ? p->mbuf_data_room : RTE_MBUF_DEFAULT_BUF_SIZE;
	fp->cache_lines = p->no_cache ? 0 : FRAGPOOL_CACHE_LINES;

	ret = fragpool_register(fp);
	if (ret < 0) {
		rte_free(fp);
		rte_errno = -ret;
		return NULL;
	}

	snprintf(zname, sizeof(zname), "fpa_%.20s", p->name);
	fp->mz = rte_memzone_reserve_aligned(zname, (size_t)p->n_chunks * FRAGPOOL_CHUNK_SIZE,
		socket, RTE_MEMZONE_IOVA_CONTIG, FRAGPOOL_CHUNK_SIZE);
	if (fp->mz == NULL) {
		contig = false;
		fp->mz = rte_memzone_reserve_aligned(zname,
			(size_t)p->n_chunks * FRAGPOOL_CHUNK_SIZE, socket, 0, FRAGPOOL_CHUNK_SIZE);
	}
	if (fp->mz == NULL) {
		FP_LOG(ERR, "%s: no memory for %u chunks on socket %d\n", p->name, p->n_chunks,
			socket);
		ret = -ENOMEM;
		goto fail;
	}
	fp->arena = fp->mz->addr;
	fp->partial = rte_zmalloc_socket("fragpool_partial", sizeof(*fp->partial) * p->n_chunks,
		RTE_CACHE_LINE_SIZE, socket);
	if (fp->partial == NULL) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = fragpool_chunk_iovas(fp, contig);
	if (ret < 0)
		goto fail;

	snprintf(zname, sizeof(zname), "fpr_%.20s", p->name);
	fp->ret = rte_ring_create(
		zname, (unsigned int)ring_sz, socket, RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (fp->ret == NULL) {
		ret = -rte_errno;
		goto fail;
	}
	ret = fragpool_mbuf_pool_create(fp);
	if (ret < 0)
		goto fail;
	FP_LOG(DEBUG, "%s: lcore %u socket %d, %u chunks of %u bytes, %s IOVA\n", fp->name,
		fp->lcore_id, socket, fp->n_chunks, FRAGPOOL_CHUNK_SIZE,
		contig ? "contiguous" : "per-chunk");
	return fp;
fail:
	fragpool_free(fp);
	rte_errno = -ret;
	return NULL;
}

void
fragpool_free(struct fragpool *fp)
{
	if (fp == NULL)
		return;
	/*
	 * Cached fragments and those in the return ring are freed ones: settled first, so that
	 * only fragments really still out are reported (the owner no longer runs by now).
	 */
	if (fp->arena != NULL && fp->ret != NULL) {
		fragpool_reclaim(fp);
		fragpool_cache_flush(fp);
		if (fragpool_in_use(fp) != 0)
			FP_LOG(WARNING, "%s: freed with %" PRIu64 " fragments in use\n", fp->name,
				fragpool_in_use(fp));
	}
	fragpool_unregister(fp);
	rte_mempool_free(fp->mbuf_pool);
	rte_ring_free(fp->ret);
	rte_memzone_free(fp->mz);
	rte_free(fp->partial);
	rte_free(fp);
}

struct fragpool *
fragpool_lookup(const char *name)
{
	struct fragpool *fp = NULL;
	unsigned int i;

	rte_spinlock_lock(&fragpool_list_lock);
	for (i = 0; name != NULL && i < RTE_DIM(fragpool_list); i++)
		if (fragpool_list[i] != NULL && strcmp(fragpool_list[i]->name, name) == 0)
			fp = fragpool_list[i];
	rte_spinlock_unlock(&fragpool_list_lock);
	if (fp == NULL)
		rte_errno = ENOENT;
	return fp;
}

void
fragpool_stats_get(const struct fragpool *fp, struct fragpool_stats *st)
{
	uint64_t in_use = fragpool_in_use(fp);

	*st = fp->stats;
	/* Allocations in the current chunk are settled into stats.allocs when it is retired. */
	if (fp->cur != NULL)
		st->allocs += FRAGPOOL_BIAS - fp->bias;
	/* Carved ones and those served by the recycle cache. */
	st->allocs += st->cache_hits;
	st->frees = st->allocs - in_use;
}

const char *
fragpool_stats_name(unsigned int i)
{
	return i < RTE_DIM(fragpool_stat_names) ? fragpool_stat_names[i] : NULL;
}

unsigned int
fragpool_stats_count(void)
{
	return RTE_DIM(fragpool_stat_names);
}

uint64_t
fragpool_in_use(const struct fragpool *fp)
{
	uint64_t n = 0;
	uint32_t i;

	/*
	 * A chunk's count plus its watermark is its outstanding fragments (those in the return
	 * ring and in the recycle cache included), plus the unused bias for the current one; free
	 * and never-used chunks count 0. Cached fragments are freed ones: subtracted.
	 */
	for (i = 0; i < fp->n_fresh; i++) {
		const struct fragpool_chunk *c =
			(const struct fragpool_chunk *)(fp->arena +
							(size_t)i * FRAGPOOL_CHUNK_SIZE);

		n += c->refs + c->wm;
	}
	if (fp->cur != NULL)
		n -= fp->bias;
	return n - fragpool_cache_count(fp);
}

unsigned int
fragpool_chunks_busy(const struct fragpool *fp)
{
	const struct fragpool_chunk *c;
	unsigned int n_free = 0, i;

	for (c = fp->free_chunks; c != NULL; c = c->next)
		n_free++;
	for (i = 0; i < fp->n_partial; i++)
		n_free += fp->partial[i]->state == FRAGPOOL_CHUNK_FREE;
	return fp->n_fresh - n_free;
}

unsigned int
fragpool_chunks_peak(const struct fragpool *fp)
{
	/*
	 * A fresh chunk is taken only when no free or partially reusable chunk was found, so
	 * n_fresh is the peak (an upper bound: a free chunk deep in the partial-reuse stack can
	 * be missed when the top of the stack is a pinned chunk too fragmented for the request).
	 */
	return fp->n_fresh;
}

void
fragpool_dump(FILE *f, const struct fragpool *fp)
{
	struct fragpool_stats st;
	const uint64_t *v = (const uint64_t *)&st;
	unsigned int i;

	fragpool_stats_get(fp, &st);

	fprintf(f,
		"fragpool %s: lcore %u socket %d chunks %u (busy %u, peak %u) in use %" PRIu64
		" return ring %u recycle cache %u\n",
		fp->name, fp->lcore_id, fp->socket_id, fp->n_chunks, fragpool_chunks_busy(fp),
		fragpool_chunks_peak(fp), fragpool_in_use(fp), rte_ring_count(fp->ret),
		fragpool_cache_count(fp));
	for (i = 0; i < RTE_DIM(fragpool_stat_names); i++)
		fprintf(f, "  %-14s %" PRIu64 "\n", fragpool_stat_names[i], v[i]);
}
