/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <stdio.h>

#include <rte_ether.h>

#include "bench_table.h"
#include "rt_fileload.h"

struct rt_table *
bench_table_load(
	const char *name, const char *routes_file, const char *neigh_file, char *err, size_t errlen)
{
	static const struct rte_ether_addr mac0 = BENCH_TABLE_MAC0, mac1 = {{0x02, 0, 0, 0, 1, 1}};
	struct rt_fileload l = {0};
	struct rt_route def;
	struct rt_table *t;

	t = rt_table_create(&(struct rt_table_params){.name = name, .socket = SOCKET_ID_ANY});
	if (t == NULL || rt_iface_enable(t, 0, &mac0) != 0 || rt_iface_enable(t, 1, &mac1) != 0 ||
		rt_iface_set_addr(t, 0, 0x0a000001, 24, err, errlen) != 0 ||
		rt_iface_set_addr(t, 1, 0x64400001, 10, err, errlen) != 0) {
		snprintf(err, errlen, "table set-up failed");
		rt_table_free(t);
		return NULL;
	}
	l.t = t;
	l.err = err;
	l.errlen = errlen;
	if (rt_fileload_neigh(&l, neigh_file) != 0 || rt_fileload_routes(&l, routes_file) != 0 ||
		(rt_route_get(t, 0, 0, true, &def) != 0 &&
			rt4_route_set(t,
				&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
					.kind = RT_ROUTE_VIA,
					.n_hops = 1,
					.hop[0] = {BENCH_TABLE_GW0, -1}},
				err, errlen) != 0)) {
		rt_table_free(t);
		return NULL;
	}
	return t;
}
