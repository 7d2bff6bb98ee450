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
#include <string.h>

#include <rte_ether.h>

#include "rt_table.h"
#include "rt_test_pkt.h"

static const struct rte_ether_addr rt_test_mac_p0 = {{0x02, 0, 0, 0, 0, 0x01}};
static const struct rte_ether_addr rt_test_mac_p1 = {{0x02, 0, 0, 0, 0, 0x02}};

/*
 * Short forms of rt4_route_set() and rt4_route_del() for the tests, one
 * request each: a route of @p kind with at most one hop (@p gw, @p port as
 * struct rt_hop: VIA's gateway and port, -1 from the gateway; DEV's port),
 * or the @p n hops of @p hops; @p flags RT_ROUTE_F_*.
 */
static inline int
rt_test_set(struct rt_table *t, enum rt_route_src src, uint32_t flags, uint32_t prefix,
	uint8_t plen, enum rt_route_kind kind, uint32_t gw, int port, char *err, size_t errlen)
{
	struct rt4_route_req req = {
		.prefix = prefix,
		.plen = plen,
		.kind = kind,
		.src = src,
		.flags = flags,
		.n_hops = kind == RT_ROUTE_VIA || kind == RT_ROUTE_DEV ? 1 : 0,
		.hop[0] = {.gw = gw, .port = port},
	};

	return rt4_route_set(t, &req, err, errlen);
}

/** rt_test_set() of RT_SRC_CONFIG, no flags: the config file's add. */
static inline int
rt_test_add(struct rt_table *t, uint32_t prefix, uint8_t plen, enum rt_route_kind kind, uint32_t gw,
	int port, char *err, size_t errlen)
{
	return rt_test_set(t, RT_SRC_CONFIG, 0, prefix, plen, kind, gw, port, err, errlen);
}

/** A via route through the @p n hops of @p hops (n > RT_ECMP_MAX is passed on: refused). */
static inline int
rt_test_set_multi(struct rt_table *t, enum rt_route_src src, uint32_t flags, uint32_t prefix,
	uint8_t plen, const struct rt_hop *hops, unsigned int n, char *err, size_t errlen)
{
	struct rt4_route_req req = {
		.prefix = prefix,
		.plen = plen,
		.kind = RT_ROUTE_VIA,
		.src = src,
		.flags = flags,
		.n_hops = n,
	};

	memcpy(req.hop, hops, RTE_MIN(n, (unsigned int)RT_ECMP_MAX) * sizeof(hops[0]));
	return rt4_route_set(t, &req, err, errlen);
}

/** rt4_route_del() of @p prefix/@p plen by @p src. */
static inline int
rt_test_del_from(struct rt_table *t, enum rt_route_src src, uint32_t prefix, uint8_t plen,
	char *err, size_t errlen)
{
	return rt4_route_del(t,
		&(const struct rt4_route_req){.prefix = prefix, .plen = plen, .src = src}, err,
		errlen);
}

/** rt_test_del_from() by the config (RT_SRC_CONFIG): any of the operator's routes. */
static inline int
rt_test_del(struct rt_table *t, uint32_t prefix, uint8_t plen, char *err, size_t errlen)
{
	return rt_test_del_from(t, RT_SRC_CONFIG, prefix, plen, err, errlen);
}

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
