/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The mbuf flavours' control and free paths: a mempool driver ("fragpool")
 * whose enqueue returns fragment-resident mbufs to their fragpool, and the
 * extbuf free callback.
 *
 * A fragment-resident mbuf names fp->mbuf_pool as its pool. That mempool has
 * no cache and no objects of its own, so rte_mempool_put() from
 * rte_pktmbuf_free() anywhere (a PMD's TX completion included) goes straight
 * to fragpool_mp_enqueue(), which frees the fragment on the owner's plain
 * path or through the owner's return ring.
 */

#include <errno.h>
#include <stdio.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fragpool.h"
#include "fragpool_priv.h"

static int
fragpool_mp_alloc(struct rte_mempool *mp)
{
	mp->pool_data = mp->pool_config;
	return 0;
}

static void
fragpool_mp_free(struct rte_mempool *mp)
{
	RTE_SET_USED(mp);
}

static int
fragpool_mp_enqueue(struct rte_mempool *mp, void *const *obj_table, unsigned int n)
{
	unsigned int lcore = rte_lcore_id();
	unsigned int i;

	RTE_SET_USED(mp);
	for (i = 0; i < n; i++) {
		struct fragpool *owner = fragpool_of(obj_table[i]);

		fragpool_put(owner->lcore_id == lcore ? owner : NULL, obj_table[i]);
	}
	return 0;
}

/* rte_pktmbuf_alloc(fp->mbuf_pool) lands here: carve on the owner lcore only. */
static int
fragpool_mp_dequeue(struct rte_mempool *mp, void **obj_table, unsigned int n)
{
	struct fragpool *fp = mp->pool_config;
	uint32_t len = fp->mbuf_data_room - RTE_PKTMBUF_HEADROOM;
	unsigned int i;

	if (rte_lcore_id() != fp->lcore_id)
		return -EPERM;
	for (i = 0; i < n; i++) {
		obj_table[i] = fragpool_mbuf_alloc(fp, len);
		if (unlikely(obj_table[i] == NULL)) {
			while (i-- > 0)
				fragpool_put(fp, obj_table[i]);
			return -ENOBUFS;
		}
	}
	return 0;
}

static unsigned int
fragpool_mp_get_count(const struct rte_mempool *mp)
{
	const struct fragpool *fp = mp->pool_config;
	uint32_t per_chunk = FRAGPOOL_MAX_LEN / RTE_ALIGN_CEIL(mp->elt_size, FRAGPOOL_ALIGN);

	/* An estimate: whole chunks that are free or never used. */
	return (fp->n_chunks - fragpool_chunks_busy(fp)) * per_chunk;
}

static const struct rte_mempool_ops fragpool_mempool_ops = {
	.name = "fragpool",
	.alloc = fragpool_mp_alloc,
	.free = fragpool_mp_free,
	.enqueue = fragpool_mp_enqueue,
	.dequeue = fragpool_mp_dequeue,
	.get_count = fragpool_mp_get_count,
};

/*
 * Registered on first use, not by a constructor: mempool ops are numbered in
 * the order they register, and a secondary process (dpdk-dumpcap, pdump)
 * that has no "fragpool" must number DPDK's own ops as this process does.
 * A constructor would run before EAL loads the PMD plugins that register
 * ring_mp_mc & co, shift their numbers, and make the primary use a
 * secondary's mempool with the wrong ops (DPDK bug 1073).
 */
static int
register_ops_once(void)
{
	static int registered = -1; /* control path: the caller serialises creates */

	if (registered < 0) {
		registered = rte_mempool_register_ops(&fragpool_mempool_ops);
		if (registered < 0)
			return registered;
	}
	return 0;
}

void
fragpool_extbuf_free_cb(void *addr, void *opaque)
{
	RTE_SET_USED(addr);
	fragpool_put_any(opaque);
}

int
fragpool_mbuf_pool_create(struct fragpool *fp)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = fp->mbuf_data_room,
		.mbuf_priv_size = fp->mbuf_priv_size,
	};
	uint32_t elt = sizeof(struct rte_mbuf) + fp->mbuf_priv_size + fp->mbuf_data_room;
	uint32_t n = fp->n_chunks * (FRAGPOOL_MAX_LEN / RTE_ALIGN_CEIL(elt, FRAGPOOL_ALIGN));
	char name[RTE_MEMPOOL_NAMESIZE];
	int ret;

	ret = register_ops_once();
	if (ret < 0)
		return ret;
	snprintf(name, sizeof(name), "fpm_%.20s", fp->name);
	fp->mbuf_pool = rte_mempool_create_empty(
		name, RTE_MAX(n, 1u), elt, 0, sizeof(priv), fp->socket_id, 0);
	if (fp->mbuf_pool == NULL)
		return -rte_errno;
	ret = rte_mempool_set_ops_byname(fp->mbuf_pool, "fragpool", fp);
	if (ret < 0)
		return ret;
	rte_pktmbuf_pool_init(fp->mbuf_pool, &priv);
	return 0;
}
