/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_TEST_TABLE_H
#define RT_TEST_TABLE_H

/*
 * The small table the control-path tests start from: ports 0 and 1 enabled
 * (MACs rt_test_mac_p0/p1), 10.0.0.1/24 on port 0 and 10.0.1.1/24 on port 1.
 */

#include <stdbool.h>
#include <stdio.h>

#include <rte_ether.h>

#include "rt_table.h"
#include "rt_test_pkt.h"

static const struct rte_ether_addr rt_test_mac_p0 = {{0x02, 0, 0, 0, 0, 0x01}};
static const struct rte_ether_addr rt_test_mac_p1 = {{0x02, 0, 0, 0, 0, 0x02}};

/**
 * A table made as @p p says (0 sizes: the defaults) with ports 0 and 1
 * enabled and, if @p addressed, given their addresses; NULL on failure, with
 * the reason on a TAP comment line.
 */
static inline struct rt_table *
rt_test_table_make(const struct rt_table_params *p, bool addressed)
{
	char err[RT_ERR_LEN];
	struct rt_table *t = rt_table_create(p);

	if (t == NULL)
		return NULL;
	rt_iface_enable(t, 0, &rt_test_mac_p0);
	rt_iface_enable(t, 1, &rt_test_mac_p1);
	if (addressed &&
		(rt_iface_set_addr(t, 0, IP4(10, 0, 0, 1), 24, err, sizeof(err)) != 0 ||
			rt_iface_set_addr(t, 1, IP4(10, 0, 1, 1), 24, err, sizeof(err)) != 0)) {
		printf("#   %s\n", err);
		rt_table_free(t);
		return NULL;
	}
	return t;
}

/** Ports 0 and 1 enabled without addresses (the caller gives them). */
static inline struct rt_table *
rt_test_table_bare(const char *name, uint32_t max_routes, uint32_t max_nh)
{
	return rt_test_table_make(&(struct rt_table_params){.name = name,
					  .socket = SOCKET_ID_ANY,
					  .max_routes = max_routes,
					  .max_nh = max_nh},
		false);
}

/** The table of 8192 routes and 1024 next hops, both ports addressed; NULL on failure. */
static inline struct rt_table *
rt_test_table(const char *name)
{
	return rt_test_table_make(
		&(struct rt_table_params){
			.name = name, .socket = SOCKET_ID_ANY, .max_routes = 8192, .max_nh = 1024},
		true);
}

#endif /* RT_TEST_TABLE_H */
