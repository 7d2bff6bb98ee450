/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TEST_WORLD_H
#define RT_TEST_WORLD_H

/*
 * The world the datapath tests (test_route_fwd.c, test_route_flow.c) route
 * bursts in: an mbuf pool, a punt ring, one worker and a table with ports 0
 * and 1 (rt_test_mac_p0/p1; 10.0.0.1/24, 10.0.1.1/24), the gateway 10.0.1.2 resolved statically
 * (rt_test_world_mac_gw), 10.0.1.3 not resolved, and four routes:
 *
 *   198.18.0.0/16   via 10.0.1.2 (resolved)
 *   203.0.113.0/24  via 10.0.1.3 (unresolved: punted)
 *   192.0.2.0/24    blackhole
 *   198.51.100.0/24 reject (unreachable)
 */

#include <stdbool.h>
#include <stdio.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "fwd_test.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"
#include "rt_worker_setup.h"

/** The resolved gateway's MAC. */
static const struct rte_ether_addr rt_test_world_mac_gw = {{0x02, 0, 0, 0, 0x01, 0x02}};

/** What rt_test_world_create() made. */
struct rt_test_world {
	struct rte_mempool *pool;
	struct rt_table *tbl;
	struct rte_ring *punt;
	struct rt_worker *wk; /**< the caller's, set up on tbl and punt */
};

/** Free every punted frame; @return how many there were. */
static inline unsigned int
rt_test_world_drain(struct rte_ring *punt)
{
	struct rte_mbuf *m;
	unsigned int n = 0;

	while (rte_ring_dequeue(punt, (void **)&m) == 0) {
		rte_pktmbuf_free(m);
		n++;
	}
	return n;
}

/*
 * EAL (@p eal_name, @p eal_mb MB), a pool of @p pool_size mbufs, a punt ring
 * of @p punt_size, the table above on which port 0 trusts the NIC's RX
 * checksum flags if @p trust_p0, and the worker @p wk on them.
 * @return 0, or -1 after a "Bail out!" line (TAP) saying what failed.
 */
static inline int
rt_test_world_create(struct rt_test_world *w, const char *eal_name, unsigned int eal_mb,
	unsigned int pool_size, unsigned int punt_size, bool trust_p0, struct rt_worker *wk)
{
	struct rt_table_params tp = {.name = "rt_world",
		.socket = SOCKET_ID_ANY,
		.max_routes = 4096,
		.max_nh = 1024,
		.tbl8s = 256};
	char err[RT_ERR_LEN] = "";
	int ret = 0;

	if (fwd_test_eal_init(eal_name, eal_mb) < 0) {
		printf("Bail out! EAL init failed\n");
		return -1;
	}
	w->wk = wk;
	w->pool = rte_pktmbuf_pool_create(
		"rt_pool", pool_size, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	w->tbl = rt_table_create(&tp);
	w->punt =
		rte_ring_create("rt_punt", punt_size, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (w->pool == NULL || w->tbl == NULL || w->punt == NULL) {
		printf("Bail out! cannot create pool, table or ring\n");
		return -1;
	}
	ret |= rt_iface_enable(w->tbl, 0, &rt_test_mac_p0);
	ret |= rt_iface_enable(w->tbl, 1, &rt_test_mac_p1);
	ret |= rt_iface_set_addr(w->tbl, 0, IP4(10, 0, 0, 1), 24, err, sizeof(err));
	ret |= rt_iface_set_addr(w->tbl, 1, IP4(10, 0, 1, 1), 24, err, sizeof(err));
	if (trust_p0)
		ret |= rt_iface_trust_rx_cksum(w->tbl, 0, true);
	ret |= rt_neigh_static_add(
		w->tbl, IP4(10, 0, 1, 2), &rt_test_world_mac_gw, err, sizeof(err));
	ret |= rt_test_add(w->tbl, IP4(198, 18, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 1, 2), -1, err,
		sizeof(err));
	ret |= rt_test_add(w->tbl, IP4(203, 0, 113, 0), 24, RT_ROUTE_VIA, IP4(10, 0, 1, 3), -1, err,
		sizeof(err));
	ret |= rt_test_add(
		w->tbl, IP4(192, 0, 2, 0), 24, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err));
	ret |= rt_test_add(
		w->tbl, IP4(198, 51, 100, 0), 24, RT_ROUTE_REJECT, 0, -1, err, sizeof(err));
	ret |= rt_worker_init(wk, w->tbl, w->punt, rte_lcore_id(), NULL);
	if (ret != 0) {
		printf("Bail out! set-up: %s\n", err);
		return -1;
	}
	return 0;
}

/** Undo rt_test_world_create(): the worker, the punted frames, the table, EAL. */
static inline void
rt_test_world_free(struct rt_test_world *w)
{
	rt_worker_fini(w->wk);
	rt_test_world_drain(w->punt);
	rt_table_free(w->tbl);
	rte_eal_cleanup();
}

#endif /* RT_TEST_WORLD_H */
