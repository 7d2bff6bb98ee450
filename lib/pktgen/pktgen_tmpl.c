/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The generator's templates: a mempool of mbufs whose memory is fragments
 * of the TX lcore's fragpool, carved by that lcore when it starts generating
 * (fragpool allocation is owner-only) and given back when the run has
 * stopped and every template is back in the pool.
 *
 * Why a mempool over fragpool memory rather than fragpool's mbuf flavour:
 * a template lives for the whole run and is sent again as soon as the port
 * frees it. Both ways of keeping a fragment-resident mbuf alive were
 * measured (docs/benchmarks-pktgen.md): holding a reference to it makes
 * every free by the port an atomic decrement (0.64x the packets per CPU
 * second at clone 1), and a mempool driver of our own that takes it back
 * costs an indirect call per free (0.65x). Over a mempool the port's free of
 * a clone-1 packet takes DPDK's non-atomic branch into the lcore's mempool
 * cache, as before: the generator keeps its speed, and its packets are
 * fragpool memory (the lcore's pool, its socket, the chunks' IOVA).
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "pktgen.h"
#include "pktgen_priv.h"

/* Bytes of a fragment kept for objects: a whole chunk's worth. */
#define TMPL_FRAG_MAX FRAGPOOL_MAX_LEN

static uint32_t
data_room(const struct pktgen_lcore *g)
{
	return RTE_PKTMBUF_HEADROOM + g->tmpl_data;
}

/* rte_mempool_free() gives each memory chunk back: the fragment, from any lcore. */
static void
tmpl_chunk_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	fragpool_put_any(opaque);
}

/* mempool obj_iter: the payload pattern, once for the run; no headers yet. */
static void
fill_one(struct rte_mempool *mp, void *arg, void *obj, unsigned int idx)
{
	const struct pktgen_lcore *g = arg;
	struct rte_mbuf *m = obj;

	RTE_SET_USED(mp);
	RTE_SET_USED(idx);
	PKTGEN_KEY(m) = UINT32_MAX;
	rte_memcpy((uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM + g->hdr_len, g->fill,
		g->tmpl_data - g->hdr_len);
}

/*
 * Objects of total_sz bytes that one fragment of len bytes starting at chunk
 * offset off holds, placed as rte_mempool_op_populate_helper() does: a
 * cache-line aligned start, and no object across a page boundary (pg_sz,
 * 0: any) unless it is larger than a page.
 */
static uint32_t
objs_in_frag(size_t off, size_t len, size_t total_sz, size_t pg_sz)
{
	size_t at = RTE_ALIGN_CEIL(off, (size_t)RTE_MEMPOOL_ALIGN), end = off + len;
	uint32_t n = 0;

	for (;;) {
		if (pg_sz != 0 && total_sz <= pg_sz && at / pg_sz != (at + total_sz - 1) / pg_sz)
			at = RTE_ALIGN_CEIL(at, pg_sz);
		if (at + total_sz > end)
			return n;
		at += total_sz;
		n++;
	}
}

/*
 * The page size rte_mempool_get_page_size() uses for our pools (the system's
 * without hugepages; with them no object of ours crosses one: a fragment
 * lies in a chunk, a chunk in a page).
 */
static size_t
tmpl_page_size(void)
{
	return rte_eal_has_hugepages() ? 0 : (size_t)sysconf(_SC_PAGESIZE);
}

uint32_t
pktgen_tmpl_chunks(const struct pktgen_lcore *g)
{
	struct rte_mempool_objsz sz;
	uint32_t per;

	rte_mempool_calc_obj_size(sizeof(struct rte_mbuf) + data_room(g), 0, &sz);
	/* a full fragment starts right after its chunk's header */
	per = objs_in_frag(FRAGPOOL_CHUNK_HDR, TMPL_FRAG_MAX, sz.total_size, tmpl_page_size());
	if (per == 0)
		return 0;
	return (g->n_tmpl + per - 1) / per;
}

int
pktgen_tmpl_build(struct pktgen_lcore *g)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = (uint16_t)data_room(g),
		.mbuf_priv_size = 0,
	};
	char name[RTE_MEMPOOL_NAMESIZE];
	struct rte_mempool *mp;
	bool full = false;
	size_t total;
	int ret;

	snprintf(name, sizeof(name), "pg%u_t%u", g->uid, g->tmpl_gen++);
	mp = rte_mempool_create_empty(name, g->n_tmpl, sizeof(struct rte_mbuf) + data_room(g),
		g->tmpl_cache, sizeof(priv), g->socket, 0);
	if (mp == NULL)
		return -rte_errno;
	ret = rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(), NULL);
	if (ret < 0)
		goto fail;
	rte_pktmbuf_pool_init(mp, &priv);
	total = mp->header_size + mp->elt_size + mp->trailer_size;
	while (mp->populated_size < mp->size) {
		uint64_t want =
			(uint64_t)(mp->size - mp->populated_size) * total + RTE_MEMPOOL_ALIGN;
		uint32_t len =
			full ? TMPL_FRAG_MAX : (uint32_t)RTE_MIN(want, (uint64_t)TMPL_FRAG_MAX);
		void *frag = fragpool_alloc(g->fp, len);

		if (frag == NULL) {
			ret = -rte_errno;
			goto fail;
		}
		ret = rte_mempool_populate_iova(
			mp, frag, fragpool_virt2iova(frag), len, tmpl_chunk_free, frag);
		if (ret <= 0) {
			/* not taken (no object fits, or an error): ours to give back */
			fragpool_put(g->fp, frag);
			if (ret == 0 && !full) {
				full = true; /* the tail lost to a page boundary: a whole one */
				continue;
			}
			ret = ret < 0 ? ret : -ENOSPC;
			goto fail;
		}
		full = false;
	}
	rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
	rte_mempool_obj_iter(mp, fill_one, g);
	g->pool = mp;
	return 0;
fail:
	rte_mempool_free(mp); /* its fragments back */
	return ret;
}

bool
pktgen_tmpl_release(struct pktgen_lcore *g)
{
	if (g->pool == NULL)
		return true;
	/* every template back: the mempool counts its lcores' caches too */
	if (rte_mempool_avail_count(g->pool) != g->pool->size)
		return false;
	rte_mempool_free(g->pool);
	g->pool = NULL;
	return true;
}
