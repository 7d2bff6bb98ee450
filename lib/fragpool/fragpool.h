/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FRAGPOOL_H
#define FRAGPOOL_H

/**
 * @file
 * fragpool: per-lcore packet-buffer fragment pools with no atomic on the
 * owner's path (the DPDK counterpart of Linux's page_frag_cache).
 *
 * A pool belongs to one lcore (its owner) and carves cache-line aligned
 * fragments out of FRAGPOOL_CHUNK_SIZE chunks of DPDK memory, each chunk
 * aligned to its size so that a fragment finds its chunk header by masking.
 *
 * Bias scheme: when a chunk becomes current its plain reference count and the
 * pool's local bias are both set to B (more than the fragments a chunk can
 * hold). An allocation only decrements the bias; a free by the owner only
 * decrements the chunk's count. When the chunk is used up the unused bias is
 * subtracted once: if the count is then zero every fragment is already back
 * and the chunk is recycled in place, otherwise the last free pushes it on the
 * free-chunk list. Only the owner ever writes these counters, so they are
 * plain integers: no atomic, no LOCK-prefixed instruction on the owner's
 * alloc or free (tests/fragpool/check-no-lock.py checks the machine code).
 *
 * A retired chunk whose fragments are all back but an eighth (the rest are
 * likely held long) is carved again around them, using the chunk's fragment
 * map (one byte per cache line, stored by alloc and free), so a straggler
 * pins its own lines rather than its whole chunk.
 *
 * A fragment of a retired chunk freed by the owner goes to a small recycle
 * cache (a ring per fragment length in lines, up to 4 KiB) and is handed out
 * again by the next allocation of that length: a held fragment then pins only
 * itself, as in a mempool. The current chunk's fragments go back to it.
 *
 * Fragments freed by another thread go to the owner's return ring (one
 * compare-and-swap, on that remote path only) and are settled by the owner
 * when it next needs a chunk or calls fragpool_reclaim().
 *
 * See docs/fragpool.md for what fragpool is for and what it is not for.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef FRAGPOOL_CHUNK_SHIFT
/**
 * log2 of the chunk size, one size for the whole process (a foreign fragment is found by mask).
 * 16 KiB measured better than 64 KiB: fewer bytes pinned by a straggler, fewer L1 set conflicts
 * for power-of-two fragment sizes (docs/benchmarks-fragpool.md).
 */
#define FRAGPOOL_CHUNK_SHIFT 14
#endif
/** Bytes per chunk (16 KiB by default), also the chunk alignment. */
#define FRAGPOOL_CHUNK_SIZE (UINT32_C(1) << FRAGPOOL_CHUNK_SHIFT)
/** Fragment alignment and granule: one cache line. */
#define FRAGPOOL_ALIGN RTE_CACHE_LINE_SIZE
/** Cache lines per chunk: the granule of the per-chunk fragment map. */
#define FRAGPOOL_CHUNK_LINES (FRAGPOOL_CHUNK_SIZE / FRAGPOOL_ALIGN)
/** 64-bit words of a bitmap of a chunk's lines. */
#define FRAGPOOL_MAP_WORDS ((FRAGPOOL_CHUNK_LINES + 63) / 64)
/** Largest value of a fragment-map byte: a fragment of that many lines or more. */
#define FRAGPOOL_MAP_MAX 255

/** Free runs of a partially reused chunk that are carved (the first ones, in address order). */
#define FRAGPOOL_MAX_RUNS 8
/** Free runs shorter than this many lines are not carved in a partially reused chunk. */
#define FRAGPOOL_MIN_RUN 4

#ifndef FRAGPOOL_CACHE_LINES
/** Longest fragment the owner's recycle cache keeps, in cache lines (one class per length). */
#define FRAGPOOL_CACHE_LINES 64
#endif
#ifndef FRAGPOOL_CACHE_DEPTH
/**
 * Fragments a recycle-cache class holds at most: a power of two from 8 to 64, so that a
 * class's slots take 64 to 512 bytes and their address is the fragment size times a scale
 * factor of the x86 addressing modes (no instruction from length to slots).
 */
#define FRAGPOOL_CACHE_DEPTH 32
#endif
#if FRAGPOOL_CACHE_DEPTH < 8 || FRAGPOOL_CACHE_DEPTH > 64 || \
	(FRAGPOOL_CACHE_DEPTH & (FRAGPOOL_CACHE_DEPTH - 1)) != 0
#error "FRAGPOOL_CACHE_DEPTH must be a power of two from 8 to 64"
#endif

/** State of a chunk that is not the current one (owner only). */
enum fragpool_chunk_state {
	FRAGPOOL_CHUNK_CURRENT = 0, /**< being carved (or never used) */
	FRAGPOOL_CHUNK_PINNED,      /**< retired with fragments outstanding */
	FRAGPOOL_CHUNK_FREE,        /**< all fragments back: free list or partial-reuse stack */
};

struct fragpool;

/**
 * Header at the start of every chunk. Line 0 holds the counters and links; then the fragment
 * map: one byte per line of the chunk (at fragpool_map_idx()), the length in cache lines of
 * the fragment starting at that line (FRAGPOOL_MAP_MAX: that long or longer), 0 if none starts
 * there or it was freed. Allocation and free each store one byte (no read-modify-write); with
 * it the owner can carve a pinned chunk again around its outstanding fragments.
 */
struct fragpool_chunk {
	uint32_t refs;  /**< B - fragments freed - unused bias settled, minus wm until it drains */
	uint16_t wm;    /**< pinned, not yet drained: fragments out when refs reaches 0 */
	uint8_t state;  /**< enum fragpool_chunk_state */
	uint8_t queued; /**< on the pool's partial-reuse stack */
	struct fragpool *pool;       /**< owner */
	rte_iova_t iova;             /**< IOVA of the chunk's first byte */
	struct fragpool_chunk *next; /**< free-chunk list link */
	/** Drained: its free runs worth carving (first line, end line; 0, 0 ends the list). */
	uint16_t runs[FRAGPOOL_MAX_RUNS][2];
	/** Fragment map, one byte per line of the chunk. */
	uint8_t lmap[FRAGPOOL_CHUNK_LINES] __rte_cache_aligned;
} __rte_cache_aligned;

/** Bytes at the start of each chunk kept for its header (five cache lines with 16 KiB chunks). */
#define FRAGPOOL_CHUNK_HDR ((uint32_t)sizeof(struct fragpool_chunk))
/** Largest fragment: a whole chunk but its header. */
#define FRAGPOOL_MAX_LEN (FRAGPOOL_CHUNK_SIZE - FRAGPOOL_CHUNK_HDR)
/** Initial count and bias of a chunk: one more than the fragments it can hold, so never zero while current. */
#define FRAGPOOL_BIAS (FRAGPOOL_MAX_LEN / FRAGPOOL_ALIGN + 1)

/* X(field, "what it counts") */
#define FRAGPOOL_STATS(X)                                                                          \
	X(allocs, "fragments handed out")                                                          \
	X(frees, "fragments returned, by the owner or settled from the return ring")               \
	X(remote_frees, "fragments returned through the return ring (freed off the owner lcore)")  \
	X(recycles, "chunks recycled in place (all fragments back when the chunk was used up)")    \
	X(fresh_chunks, "chunks taken from the never-used part of the arena")                      \
	X(reused_chunks, "chunks taken whole from the free list or the partial-reuse stack")       \
	X(partial_chunks, "pinned chunks taken again, carving around their outstanding fragments") \
	X(failures, "allocations that returned NULL (exhaustion or bad length)")                   \
	X(pad_bytes, "bytes lost rounding fragments up to a cache line")                           \
	X(tail_bytes, "bytes left unused at the end of chunks retired before they were full")      \
	X(cache_hits, "allocations served by the recycle cache (an own fragment freed before)")

/**
 * Counters of one pool; written by the owner only, with plain stores. Read them with
 * fragpool_stats_get(): allocs and frees are not counted per fragment but derived (allocs from
 * the bias, frees from the chunks' counts), which keeps two stores off the fast path.
 */
struct fragpool_stats {
#define FRAGPOOL_STAT_FIELD(f, d) uint64_t f;
	FRAGPOOL_STATS(FRAGPOOL_STAT_FIELD)
#undef FRAGPOOL_STAT_FIELD
};

struct rte_ring;
struct rte_mempool;
struct rte_memzone;

/**
 * Indices of one class of the recycle cache, a ring of fragments of one length. Free-running:
 * tail - head fragments are in it. The free writes only tail, the allocation only head, so
 * that a free and the next allocation do not chain through one counter in memory (a LIFO
 * count does: it cost 40 % in FIFO workloads).
 */
struct fragpool_cache_ring {
	uint32_t head; /**< next to allocate */
	uint32_t tail; /**< next free slot */
};

/**
 * Slots of the recycle-cache class of fragments of sz bytes (a multiple of FRAGPOOL_ALIGN, at
 * most FRAGPOOL_CACHE_LINES lines): the size scaled, no division.
 */
#define FRAGPOOL_CACHE_SLOTS(fp, sz)            \
	((void **)((uintptr_t)(fp)->cache_obj + \
		   (uintptr_t)(sz) * (FRAGPOOL_CACHE_DEPTH * sizeof(void *) / FRAGPOOL_ALIGN)))

/**
 * Page offset of the owner's hot line in struct fragpool (the struct is page-aligned). Chunk
 * headers and the first fragment of every chunk sit at page offsets 0x000-0x17f: a load of the
 * pool's state whose address matches a just-written fragment's in bits 11..0 waits for that
 * store (4K aliasing: a recycle-cache count at the page offset of every other 2 KiB fragment
 * cost alloc-then-free 20 %), so the hot state starts past them, at a fixed place.
 */
#define FRAGPOOL_HOT_OFF 0x180

/** A per-lcore fragment pool (page-aligned). Fields are private; the fast path reads them. */
struct fragpool {
	/* Control path and remote path first, so that the hot state is at FRAGPOOL_HOT_OFF. */
	union {
		struct {
			struct rte_ring *ret;         /**< return ring: MP enqueue, SC dequeue */
			const struct rte_memzone *mz; /**< the arena */
			uint8_t *arena;               /**< first chunk */
			uint32_t n_chunks;            /**< chunks in the arena */
			uint32_t n_fresh;             /**< chunks of the arena handed out so far */
			uint32_t lcore_id;            /**< owner */
			int socket_id;
			char name[32];
		};
		uint8_t cold_room[FRAGPOOL_HOT_OFF];
	};

	/* Owner's hot state: one cache line. */
	uint8_t *cur;   /**< current chunk, NULL when none */
	uint32_t off;   /**< next free offset in cur */
	uint32_t limit; /**< end of the free run being carved in cur */
	/*
	 * Not next to off: GCC merged the two stores of an allocation into one 64-bit store built
	 * in a vector register, which put two cycles of latency on the off chain (a slower
	 * allocation).
	 */
	uint32_t bias;                      /**< bias left in cur */
	uint32_t n_partial;                 /**< entries on the partial-reuse stack */
	struct fragpool_chunk *free_chunks; /**< chunks whose fragments are all back (LIFO) */
	struct rte_mempool *mbuf_pool;      /**< the mbuf flavour's mempool (ops "fragpool") */
	uint16_t mbuf_priv_size;            /**< private area of the mbuf flavour */
	uint16_t mbuf_data_room;            /**< data room given by rte_pktmbuf_alloc(mbuf_pool) */
	uint16_t n_runs;                    /**< entries in cur's runs */
	uint16_t next_run;                  /**< next entry of cur's runs to carve */
	struct fragpool_chunk **partial;    /**< pinned chunks with few fragments left (LIFO) */
	uint32_t cache_lines; /**< longest fragment the owner's free caches (0: none) */

	struct fragpool_stats stats __rte_cache_aligned;

	/**
	 * Recycle cache: class i holds fragments of exactly i lines freed by the owner, still
	 * counted out by their chunks. Classes 0 and FRAGPOOL_CACHE_LINES + 1 stay empty (the
	 * allocation clamps its class instead of testing the length).
	 */
	struct fragpool_cache_ring cache_ring[FRAGPOOL_CACHE_LINES + 2];
	/** Slots of the recycle cache's classes. */
	void *cache_obj[FRAGPOOL_CACHE_LINES + 1][FRAGPOOL_CACHE_DEPTH] __rte_aligned(256);

	uint64_t occ[FRAGPOOL_MAP_WORDS]; /**< scratch: lines of a chunk not free to carve */
};

/** Parameters of fragpool_create(). */
struct fragpool_params {
	const char *name;        /**< unique name, at most 20 characters */
	unsigned int lcore_id;   /**< owner lcore; the only one that may allocate */
	int socket_id;           /**< SOCKET_ID_ANY: the owner lcore's socket */
	uint32_t n_chunks;       /**< chunks of FRAGPOOL_CHUNK_SIZE in the arena */
	uint16_t mbuf_priv_size; /**< private area of the mbuf flavour (multiple of 8) */
	uint16_t mbuf_data_room; /**< as in rte_pktmbuf_pool_create() (headroom included), for
				  * rte_pktmbuf_alloc(fp->mbuf_pool); 0: RTE_MBUF_DEFAULT_BUF_SIZE */
	uint8_t no_cache;        /**< 1: no recycle cache, the owner's frees go to their chunk */
};

/**
 * Create a pool owned by one lcore, with its arena, return ring and mbuf-flavour mempool on that
 * lcore's socket.
 *
 * @param p
 *   Parameters.
 * @return
 *   The pool, or NULL with rte_errno set (EINVAL, EEXIST, ENOMEM, ENOSPC).
 */
struct fragpool *fragpool_create(const struct fragpool_params *p);

/**
 * Free a pool and its memory. Every fragment and mbuf must be back (fragpool_in_use() == 0),
 * or they become dangling (logged as a warning). Fragments in the recycle cache and in the
 * return ring count as back: they are settled first. Call it once the owner no longer uses the
 * pool. NULL is ignored.
 *
 * @param fp
 *   Pool to free.
 */
void fragpool_free(struct fragpool *fp);

/**
 * Find a pool by the name given to fragpool_create().
 *
 * @param name
 *   Pool name.
 * @return
 *   The pool, or NULL with rte_errno = ENOENT.
 */
struct fragpool *fragpool_lookup(const char *name);

/**
 * Return every fragment in the owner's recycle cache to its chunk, so that chunks pinned only by
 * cached fragments are free again. Owner only. The allocator calls it itself before it fails
 * for want of a chunk, and fragpool_free() calls it; call it to hand memory back sooner (e.g.
 * when a workload of one fragment size ends). Statistics do not change: cached fragments
 * already count as freed.
 *
 * @param fp
 *   Own pool.
 * @return
 *   Number of fragments returned to their chunks.
 */
unsigned int fragpool_cache_flush(struct fragpool *fp);

/**
 * Fragments in the owner's recycle cache (freed, still pinning their chunks).
 *
 * @param fp
 *   Pool.
 * @return
 *   The count.
 */
unsigned int fragpool_cache_count(const struct fragpool *fp);

/**
 * Settle fragments freed by other lcores (drain the return ring). Owner only, or any thread
 * while the owner is known not to touch the pool (its lcore has returned: the control path
 * after a stop). Called by the allocator whenever it needs a chunk; call it from an idle
 * loop to release chunks sooner.
 *
 * @param fp
 *   Own pool.
 * @return
 *   Number of fragments settled.
 */
unsigned int fragpool_reclaim(struct fragpool *fp);

/**
 * Copy the pool's counters.
 *
 * @param fp
 *   Pool (read from any lcore; figures are exact once the owner is idle).
 * @param st
 *   Filled with the counters.
 */
void fragpool_stats_get(const struct fragpool *fp, struct fragpool_stats *st);

/**
 * Name of counter i of struct fragpool_stats, in field order.
 *
 * @param i
 *   Index, 0 .. fragpool_stats_count() - 1.
 * @return
 *   The field name, or NULL if out of range.
 */
const char *fragpool_stats_name(unsigned int i);

/**
 * Number of counters in struct fragpool_stats.
 *
 * @return
 *   The count.
 */
unsigned int fragpool_stats_count(void);

/**
 * Fragments handed out and not yet settled as freed (fragments in the return ring still count).
 *
 * @param fp
 *   Pool.
 * @return
 *   allocs - frees.
 */
uint64_t fragpool_in_use(const struct fragpool *fp);

/**
 * Chunks that are current or pinned by outstanding fragments (not free, not never used).
 *
 * @param fp
 *   Pool.
 * @return
 *   The count.
 */
unsigned int fragpool_chunks_busy(const struct fragpool *fp);

/**
 * Most chunks ever busy at once.
 *
 * @param fp
 *   Pool.
 * @return
 *   The count.
 */
unsigned int fragpool_chunks_peak(const struct fragpool *fp);

/**
 * Print the pool's state and counters.
 *
 * @param f
 *   Output stream.
 * @param fp
 *   Pool.
 */
void fragpool_dump(FILE *f, const struct fragpool *fp);

/**
 * Find the free runs of a pinned chunk (into c->runs). Owner only; called when the chunk is
 * about to be carved around its outstanding fragments, not for direct use.
 *
 * @param fp
 *   Own pool.
 * @param c
 *   The chunk.
 * @return
 *   True if enough of it is free to be worth carving around its outstanding fragments.
 */
bool fragpool_chunk_plan(struct fragpool *fp, struct fragpool_chunk *c);

/**
 * Slow path of fragpool_alloc(): settle remote frees, retire or recycle the current chunk, take
 * a new one. Owner only; not for direct use.
 *
 * @param fp
 *   Own pool.
 * @param len
 *   Requested length.
 * @return
 *   The fragment, or NULL with rte_errno = EINVAL (len 0 or above FRAGPOOL_MAX_LEN) or ENOBUFS.
 */
void *fragpool_alloc_slow(struct fragpool *fp, uint32_t len);

/**
 * Return a fragment of another lcore's pool through its return ring. Not for direct use:
 * fragpool_put() calls it.
 *
 * @param owner
 *   The fragment's pool.
 * @param frag
 *   The fragment.
 */
void fragpool_put_remote(struct fragpool *owner, void *frag);

/**
 * Chunk header of a fragment (or of any address inside a chunk).
 *
 * @param frag
 *   Fragment.
 * @return
 *   Its chunk.
 */
static inline struct fragpool_chunk *
fragpool_chunk_of(const void *frag)
{
	return (struct fragpool_chunk *)((uintptr_t)frag & ~(uintptr_t)(FRAGPOOL_CHUNK_SIZE - 1));
}

/**
 * IOVA of an address inside a fragment, for handing the fragment to a device.
 *
 * @param p
 *   Address inside a fragment.
 * @return
 *   Its IOVA.
 */
static inline rte_iova_t
fragpool_virt2iova(const void *p)
{
	const struct fragpool_chunk *c = fragpool_chunk_of(p);

	return c->iova + ((uintptr_t)p - (uintptr_t)c);
}

/**
 * Pool a fragment belongs to.
 *
 * @param frag
 *   Fragment.
 * @return
 *   Its owner pool.
 */
static inline struct fragpool *
fragpool_of(const void *frag)
{
	return fragpool_chunk_of(frag)->pool;
}

/**
 * Index in the fragment map of the fragment starting at offset off of its chunk. The two low
 * bits of the line number are the high bits of the index, so fragments a few lines apart share
 * a map line (seven 2 KiB fragments touch one map line, not four).
 *
 * @param off
 *   Offset in the chunk.
 * @return
 *   The map index.
 */
static inline uint32_t
fragpool_map_idx(uint32_t off)
{
	return ((off / FRAGPOOL_ALIGN) % 4) * (FRAGPOOL_CHUNK_LINES / 4) +
	       off / (4 * FRAGPOOL_ALIGN);
}

/**
 * Record in the current chunk's map that a fragment of sz bytes starts at off. Owner only.
 *
 * @param cur
 *   Current chunk.
 * @param off
 *   Offset of the fragment in the chunk.
 * @param sz
 *   Its size, a multiple of FRAGPOOL_ALIGN.
 */
static inline void
fragpool_chunk_mark_alloc(uint8_t *cur, uint32_t off, uint32_t sz)
{
	struct fragpool_chunk *c = (struct fragpool_chunk *)cur;
	uint32_t lines = sz / FRAGPOOL_ALIGN;

#if FRAGPOOL_CHUNK_SHIFT > 14 /* up to 16 KiB chunks, no fragment is 255 lines long */
	lines = RTE_MIN(lines, (uint32_t)FRAGPOOL_MAP_MAX);
#endif
	c->lmap[fragpool_map_idx(off)] = (uint8_t)lines;
}

/**
 * Owner-side bookkeeping of a retired chunk whose count reached 0. Either it has drained to its
 * watermark (the fragments still out are likely long-held): the count becomes those fragments
 * and the chunk goes on the partial-reuse stack, to be carved around them. Or every fragment is
 * back: to the free list (or, if it is on the stack, it is taken from there as a whole chunk).
 * Not for direct use.
 *
 * @param fp
 *   Own pool.
 * @param c
 *   The chunk.
 */
static inline void
fragpool_chunk_drained(struct fragpool *fp, struct fragpool_chunk *c)
{
	if (c->wm != 0) {
		c->refs = c->wm;
		c->wm = 0;
		if (!c->queued) {
			/* Each chunk is on the stack at most once, so n_chunks entries suffice. */
			c->queued = 1;
			fp->partial[fp->n_partial++] = c;
		}
		return;
	}
	c->state = FRAGPOOL_CHUNK_FREE;
	if (c->queued)
		return;
	c->next = fp->free_chunks;
	fp->free_chunks = c;
}

/**
 * Allocate a fragment. Owner lcore only; no atomic instruction.
 *
 * @param fp
 *   Own pool.
 * @param len
 *   Bytes wanted, 1 .. FRAGPOOL_MAX_LEN; rounded up to a cache line.
 * @return
 *   A cache-line aligned fragment, or NULL with rte_errno = ENOBUFS (exhausted) or EINVAL.
 */
static inline void *
fragpool_alloc(struct fragpool *fp, uint32_t len)
{
	uint32_t sz = RTE_ALIGN_CEIL(len, FRAGPOOL_ALIGN);
	struct fragpool_cache_ring *r;
	uint32_t off, h;

#ifdef RTE_LIBRTE_FRAGPOOL_DEBUG
	RTE_VERIFY(rte_lcore_id() == fp->lcore_id);
#endif
	/*
	 * Recycle cache first. Classes 0 (len 0, or a huge len whose size wrapped to 0) and
	 * FRAGPOOL_CACHE_LINES + 1 (every longer fragment) are always empty: one branch.
	 */
	r = &fp->cache_ring[RTE_MIN(sz / FRAGPOOL_ALIGN, (uint32_t)FRAGPOOL_CACHE_LINES + 1)];
	h = r->head;
	/*
	 * The hint is for the code layout, not the prediction: with the size tested in a branch
	 * of its own, GCC put the carving path behind two taken branches (alloc-then-free 45 %
	 * slower).
	 */
	if (likely(h != r->tail)) {
		r->head = h + 1;
		fp->stats.cache_hits++;
		fp->stats.pad_bytes += sz - len;
		return FRAGPOOL_CACHE_SLOTS(fp, sz)[h % FRAGPOOL_CACHE_DEPTH];
	}
	off = fp->off;
	/* len - 1 wraps for 0, so one compare rejects both 0 and too long. */
	if (unlikely(len - 1 >= FRAGPOOL_MAX_LEN || off + sz > fp->limit))
		return fragpool_alloc_slow(fp, len);
	fp->off = off + sz;
	fp->bias--; /* also the allocation count: stats.allocs is settled from it */
	fp->stats.pad_bytes += sz - len;
	fragpool_chunk_mark_alloc(fp->cur, off, sz);
	return fp->cur + off;
}

/**
 * Return a fragment of the own pool to its chunk (plain counters), bypassing the recycle cache.
 * Owner only; not for direct use.
 *
 * @param fp
 *   Own pool.
 * @param c
 *   The fragment's chunk.
 * @param idx
 *   The fragment's index in the chunk's map (fragpool_map_idx()).
 */
static inline void
fragpool_put_chunk(struct fragpool *fp, struct fragpool_chunk *c, uint32_t idx)
{
	c->lmap[idx] = 0;
	/*
	 * The current chunk keeps refs >= bias >= 1, so this branch is for a retired chunk that is
	 * now free or down to its last few, probably long-held, fragments.
	 */
	if (unlikely(--c->refs == 0))
		fragpool_chunk_drained(fp, c);
}

/**
 * Free a fragment from any thread. On the owner it goes to the recycle cache (the slot of its
 * length, if the slot has room and holds that length or nothing) or else back to its chunk;
 * elsewhere to the owner's return ring.
 *
 * @param fp
 *   The calling lcore's own pool, or NULL if it has none.
 * @param frag
 *   Fragment from fragpool_alloc() of any pool.
 */
static inline void
fragpool_put(struct fragpool *fp, void *frag)
{
	struct fragpool_chunk *c = fragpool_chunk_of(frag);
	uint32_t idx = fragpool_map_idx((uint32_t)((uintptr_t)frag & (FRAGPOOL_CHUNK_SIZE - 1)));

	if (unlikely(fp == NULL))
		goto remote;
	/*
	 * A fragment of the chunk being carved goes back to it: the bump allocator reuses it
	 * (recycle in place). Through the cache, a fragment allocated and freed back to back would
	 * chain free to alloc through the class it is loaded from (3x slower). The current chunk
	 * is the caller's own: no owner test either.
	 */
	if ((uint8_t *)c != fp->cur) {
		uint32_t lines;

		if (unlikely(c->pool != fp))
			goto remote;
		/* The map byte is the fragment's length in lines: its class. */
		lines = c->lmap[idx];
		/* Otherwise a retired chunk's fragment would pin it or wait for its siblings. */
		if (lines <= fp->cache_lines) {
			struct fragpool_cache_ring *r = &fp->cache_ring[lines];
			uint32_t t = r->tail;

			if (t - r->head < FRAGPOOL_CACHE_DEPTH) {
				fp->cache_obj[lines][t % FRAGPOOL_CACHE_DEPTH] = frag;
				r->tail = t + 1;
				return;
			}
		}
	}
	fragpool_put_chunk(fp, c, idx);
	return;
remote:
	fragpool_put_remote(c->pool, frag);
}

/**
 * Free a fragment from any thread without knowing the caller's pool: the fragment's owner is
 * compared with rte_lcore_id() (one TLS read). Used by the mbuf flavours' free paths.
 *
 * @param frag
 *   Fragment from fragpool_alloc() of any pool.
 */
static inline void
fragpool_put_any(void *frag)
{
	struct fragpool *owner = fragpool_of(frag);

	fragpool_put(owner->lcore_id == rte_lcore_id() ? owner : NULL, frag);
}

/**
 * Allocate n fragments of the same length, all or none. Owner lcore only.
 *
 * @param fp
 *   Own pool.
 * @param frags
 *   Filled with n fragments.
 * @param n
 *   Count.
 * @param len
 *   Bytes per fragment, 1 .. FRAGPOOL_MAX_LEN.
 * @return
 *   0, or -ENOBUFS / -EINVAL (rte_errno set too) with nothing allocated.
 */
static inline int
fragpool_alloc_bulk(struct fragpool *fp, void **frags, unsigned int n, uint32_t len)
{
	uint32_t sz = RTE_ALIGN_CEIL(len, FRAGPOOL_ALIGN);
	uint32_t off = fp->off;
	unsigned int i, k = 0;

	/* From the recycle cache first, as many as it has. */
	if (sz <= FRAGPOOL_CACHE_LINES * FRAGPOOL_ALIGN) {
		struct fragpool_cache_ring *r = &fp->cache_ring[sz / FRAGPOOL_ALIGN];
		void **slots = FRAGPOOL_CACHE_SLOTS(fp, sz);
		uint32_t h = r->head;

		k = RTE_MIN(n, r->tail - h);
		for (i = 0; i < k; i++)
			frags[i] = slots[(h + i) % FRAGPOOL_CACHE_DEPTH];
		r->head = h + k;
		fp->stats.cache_hits += k;
		fp->stats.pad_bytes += (uint64_t)(sz - len) * k;
		if (k == n)
			return 0;
	}
	/* The rest carved in one go if the current run holds them. */
	if (likely(len - 1 < FRAGPOOL_MAX_LEN &&
		    (uint64_t)off + (uint64_t)sz * (n - k) <= fp->limit)) {
		for (i = k; i < n; i++) {
			frags[i] = fp->cur + off + (i - k) * sz;
			fragpool_chunk_mark_alloc(fp->cur, off + (i - k) * sz, sz);
		}
		fp->off = off + sz * (n - k);
		fp->bias -= n - k;
		fp->stats.pad_bytes += (uint64_t)(sz - len) * (n - k);
		return 0;
	}
	for (i = k; i < n; i++) {
		frags[i] = fragpool_alloc(fp, len);
		if (unlikely(frags[i] == NULL)) {
			int err = rte_errno;

			while (i-- > 0)
				fragpool_put(fp, frags[i]);
			rte_errno = err;
			return -err;
		}
	}
	return 0;
}

/**
 * Free n fragments from any thread (see fragpool_put()).
 *
 * @param fp
 *   The calling lcore's own pool, or NULL.
 * @param frags
 *   Fragments.
 * @param n
 *   Count.
 */
static inline void
fragpool_put_bulk(struct fragpool *fp, void *const *frags, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fragpool_put(fp, frags[i]);
}

/**
 * Allocate an mbuf living in one fragment (header, private area, headroom and data room), from
 * the pool's own mempool whose ops return the fragment, so rte_pktmbuf_free() on any lcore and
 * in any driver frees it. Owner lcore only; no atomic on alloc, none on an owner-lcore free.
 *
 * @param fp
 *   Own pool.
 * @param len
 *   Bytes of data room after the headroom (RTE_PKTMBUF_HEADROOM); len + headroom <= UINT16_MAX.
 * @return
 *   A reset mbuf (refcnt 1, one segment, data_len 0), or NULL with rte_errno set.
 */
static inline struct rte_mbuf *
fragpool_mbuf_alloc(struct fragpool *fp, uint32_t len)
{
	uint32_t hdr = sizeof(struct rte_mbuf) + fp->mbuf_priv_size;
	uint32_t buf_len = len + RTE_PKTMBUF_HEADROOM;
	struct rte_mbuf *m;

	if (unlikely(buf_len > UINT16_MAX)) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = (struct rte_mbuf *)fragpool_alloc(fp, hdr + buf_len);
	if (unlikely(m == NULL))
		return NULL;
	/* The fields rte_pktmbuf_init() sets once per mempool object, then rte_pktmbuf_reset(). */
	m->buf_addr = (char *)m + hdr;
	rte_mbuf_iova_set(m, fragpool_virt2iova(m) + hdr);
	m->data_off = RTE_PKTMBUF_HEADROOM;
	rte_mbuf_refcnt_set(m, 1);
	m->nb_segs = 1;
	m->port = RTE_MBUF_PORT_INVALID;
	m->ol_flags = 0;
	m->packet_type = 0;
	m->pkt_len = 0;
	m->data_len = 0;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	m->buf_len = (uint16_t)buf_len;
	m->pool = fp->mbuf_pool;
	m->next = NULL;
	m->tx_offload = 0;
	m->priv_size = fp->mbuf_priv_size;
	m->timesync = 0;
	return m;
}

/**
 * Free callback of the extbuf flavour's rte_mbuf_ext_shared_info: returns the fragment.
 *
 * @param addr
 *   Buffer address (the fragment).
 * @param opaque
 *   The fragment.
 */
void fragpool_extbuf_free_cb(void *addr, void *opaque);

/**
 * Allocate an mbuf from hdr_pool whose data is an external buffer in a fragment (with its own
 * rte_mbuf_ext_shared_info at the fragment's end, refcnt 1, so freeing it takes DPDK's
 * non-atomic branch). rte_pktmbuf_free() anywhere returns the mbuf to hdr_pool and the fragment
 * to fp. Owner lcore only.
 *
 * @param fp
 *   Own pool.
 * @param hdr_pool
 *   A pktmbuf pool for the mbuf headers (its data room is not used).
 * @param len
 *   Bytes of buffer, at most UINT16_MAX.
 * @return
 *   The mbuf (data_off 0, data_len 0), or NULL with rte_errno set.
 */
static inline struct rte_mbuf *
fragpool_extbuf_alloc(struct fragpool *fp, struct rte_mempool *hdr_pool, uint32_t len)
{
	uint32_t room = RTE_ALIGN_CEIL(len, sizeof(void *));
	struct rte_mbuf_ext_shared_info *shinfo;
	struct rte_mbuf *m;
	uint8_t *frag;

	if (unlikely(len > UINT16_MAX)) {
		rte_errno = EINVAL;
		return NULL;
	}
	m = rte_pktmbuf_alloc(hdr_pool);
	if (unlikely(m == NULL)) {
		rte_errno = ENOBUFS;
		return NULL;
	}
	frag = (uint8_t *)fragpool_alloc(fp, room + sizeof(*shinfo));
	if (unlikely(frag == NULL)) {
		/* Fresh, direct, refcnt 1: the raw free has no atomic branch. */
		rte_mbuf_raw_free(m);
		return NULL;
	}
	shinfo = (struct rte_mbuf_ext_shared_info *)(frag + room);
	shinfo->free_cb = fragpool_extbuf_free_cb;
	shinfo->fcb_opaque = frag;
	rte_mbuf_ext_refcnt_set(shinfo, 1);
	rte_pktmbuf_attach_extbuf(m, frag, fragpool_virt2iova(frag), (uint16_t)len, shinfo);
	return m;
}

/**
 * Refcount batching for a sender of one mbuf many times (the generator's seed): before handing
 * k pointers to m to tx_burst, add k references at once (a plain store when the caller holds the
 * only reference, else one atomic add per segment) instead of one update per packet. The caller
 * keeps its own reference and settles the unsent ones with fragpool_mbuf_settle().
 *
 * @param m
 *   The mbuf (every segment gets the references).
 * @param k
 *   References to add (packets about to be sent).
 */
static inline void
fragpool_mbuf_share(struct rte_mbuf *m, uint16_t k)
{
	for (; m != NULL; m = m->next) {
		if (rte_mbuf_refcnt_read(m) == 1)
			rte_mbuf_refcnt_set(m, (uint16_t)(1 + k));
		else
			rte_mbuf_refcnt_update(m, (int16_t)k);
	}
}

/**
 * Settle a fragpool_mbuf_share(): drop, in one update per segment, the references that were
 * not sent (tx_burst returned fewer than k). The caller's own reference remains.
 *
 * @param m
 *   The mbuf given to fragpool_mbuf_share().
 * @param unsent
 *   k minus the packets the driver accepted.
 */
static inline void
fragpool_mbuf_settle(struct rte_mbuf *m, uint16_t unsent)
{
	if (unsent == 0)
		return;
	for (; m != NULL; m = m->next) {
		/* Exactly ours plus the unsent: nobody else holds it, so no one can race a store. */
		if (rte_mbuf_refcnt_read(m) == 1 + unsent)
			rte_mbuf_refcnt_set(m, 1);
		else
			rte_mbuf_refcnt_update(m, (int16_t) - (int)unsent);
	}
}

#ifdef __cplusplus
}
#endif

#endif /* FRAGPOOL_H */
