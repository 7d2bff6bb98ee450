/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Control path of fragpool: create/free/lookup, the allocation slow path
 * (chunk retirement, in-place recycle, free-chunk list), the remote free path
 * and the return-ring drain. The fast path is in fragpool.h.
 */

#include <inttypes.h>
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

static void
fragpool_chunk_start(struct fragpool *fp, struct fragpool_chunk *c)
{
	c->refs = FRAGPOOL_BIAS;
	fp->bias = FRAGPOOL_BIAS;
	fp->cur = (uint8_t *)c;
	fp->off = FRAGPOOL_CHUNK_HDR;
}

void *
fragpool_alloc_slow(struct fragpool *fp, uint32_t len)
{
	struct fragpool_chunk *c;

	if (len == 0 || len > FRAGPOOL_MAX_LEN) {
		fp->stats.failures++;
		rte_errno = EINVAL;
		return NULL;
	}
	/* Remote frees may complete the current chunk and allow recycling it in place. */
	fragpool_reclaim(fp);
	if (fp->cur != NULL) {
		c = (struct fragpool_chunk *)fp->cur;
		fp->stats.tail_bytes += FRAGPOOL_CHUNK_SIZE - fp->off;
		/* The only settlement of the bias: refs becomes the fragments still out. */
		c->refs -= fp->bias;
		fp->cur = NULL;
		fp->off = FRAGPOOL_CHUNK_SIZE;
		fp->bias = 0;
		if (c->refs == 0) {
			fp->stats.recycles++;
			goto start;
		}
		/* Outstanding fragments pin this chunk; its last fragpool_put() frees it. */
	}
	c = fp->free_chunks;
	if (c != NULL) {
		fp->free_chunks = c->next;
		fp->stats.reused_chunks++;
	} else if (fp->n_fresh < fp->n_chunks) {
		c = (struct fragpool_chunk *)(fp->arena +
					      (size_t)fp->n_fresh * FRAGPOOL_CHUNK_SIZE);
		fp->n_fresh++;
		fp->stats.fresh_chunks++;
	} else {
		fp->stats.failures++;
		rte_errno = ENOBUFS;
		return NULL;
	}
start:
	fragpool_chunk_start(fp, c);
	return fragpool_alloc(fp, len);
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

unsigned int
fragpool_reclaim(struct fragpool *fp)
{
	void *objs[64];
	unsigned int n, i, total = 0;

	/* Single-consumer dequeue: plain loads and stores on x86, no CAS. */
	while ((n = rte_ring_sc_dequeue_burst(fp->ret, objs, RTE_DIM(objs), NULL)) != 0) {
		for (i = 0; i < n; i++)
			fragpool_put(fp, objs[i]);
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

	fp = rte_zmalloc_socket("fragpool", sizeof(*fp), RTE_CACHE_LINE_SIZE, socket);
	if (fp == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(fp->name, sizeof(fp->name), "%s", p->name);
	fp->lcore_id = p->lcore_id;
	fp->socket_id = socket;
	fp->n_chunks = p->n_chunks;
	fp->off = FRAGPOOL_CHUNK_SIZE; /* no current chunk: the first alloc takes the slow path */
	fp->mbuf_priv_size = p->mbuf_priv_size;
	fp->mbuf_data_room = p->mbuf_data_room != 0 ? p->mbuf_data_room : RTE_MBUF_DEFAULT_BUF_SIZE;

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
	fragpool_unregister(fp);
	rte_mempool_free(fp->mbuf_pool);
	rte_ring_free(fp->ret);
	rte_memzone_free(fp->mz);
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
	*st = fp->stats;
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
	return fp->stats.allocs - fp->stats.frees;
}

unsigned int
fragpool_chunks_busy(const struct fragpool *fp)
{
	const struct fragpool_chunk *c;
	unsigned int n_free = 0;

	for (c = fp->free_chunks; c != NULL; c = c->next)
		n_free++;
	return fp->n_fresh - n_free;
}

unsigned int
fragpool_chunks_peak(const struct fragpool *fp)
{
	/* A fresh chunk is taken only when the free list is empty, so the peak is n_fresh. */
	return fp->n_fresh;
}

void
fragpool_dump(FILE *f, const struct fragpool *fp)
{
	const uint64_t *v = (const uint64_t *)&fp->stats;
	unsigned int i;

	fprintf(f,
		"fragpool %s: lcore %u socket %d chunks %u (busy %u, peak %u) in use %" PRIu64
		" return ring %u\n",
		fp->name, fp->lcore_id, fp->socket_id, fp->n_chunks, fragpool_chunks_busy(fp),
		fragpool_chunks_peak(fp), fragpool_in_use(fp), rte_ring_count(fp->ret));
	for (i = 0; i < RTE_DIM(fragpool_stat_names); i++)
		fprintf(f, "  %-14s %" PRIu64 "\n", fragpool_stat_names[i], v[i]);
}
