/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's telemetry endpoints, the "route" component's (fwd_route.c
 * registers it): /forwarder/routes (the table, paged by bytes),
 * /forwarder/route_summary (what "show route summary" prints) and
 * /forwarder/router (the slow path's counters and each worker's forwarded
 * and punted). They run on telemetry's thread with the app live
 * (fwd_telemetry.c's lock held, fwd_component.h); outside --fwd route they
 * answer an empty dict.
 */

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"
#include "fwd_component.h"
#include "fwd_route.h"
#include "fwd_tel_page.h"
#include "rt_control.h"
#include "rt_exception.h"
#include "rt_nhgroup.h"
#include "rt_table.h"

/*
 * Routes a page holds at most: the routes fetched per request. A page is
 * also cut by bytes (fwd_tel_page.h): 128 plain routes fit in a reply, 128
 * 16-hop ECMP routes do not.
 */
#define TEL_ROUTES_PAGE 128

/* the head of a /forwarder/routes page: total, start, count, more, next */
#define TEL_ROUTES_HEAD 5

/*
 * An ECMP route (next hop @p nh a group) as an array: its members, "via A
 * dev N active" or "... inactive" (neighbour unresolved: out of the set),
 * then @p origin ("proto SRC age SECONDS"), added to @p d under @p prefix
 * when it fits @p pg.
 *
 * @return 1 added, 0 when @p nh is no group (nothing added), -ENOSPC when
 *   the page has no room for it (nothing added), -ENOMEM.
 */
static int
tel_route_multipath(const struct fwd_app *app, struct rte_tel_data *d, struct fwd_tel_page *pg,
	const char *prefix, uint32_t nh, const char *origin)
{
	uint32_t mem[RT_ECMP_MAX];
	uint8_t act[RT_ECMP_MAX];
	struct rte_tel_data *arr;
	unsigned int k, n;
	size_t bytes;

	n = app->rt != NULL ? rt_nhgroup_members(app->rt, nh, mem, act) : 0;
	if (n == 0)
		return 0;
	arr = rte_tel_data_alloc();
	if (arr == NULL)
		return -ENOMEM;
	rte_tel_data_start_array(arr, RTE_TEL_STRING_VAL);
	bytes = fwd_tel_key_bytes(prefix) + 2; /* [ and ] */
	for (k = 0; k < n; k++) {
		char a[16], val[64];

		snprintf(val, sizeof(val), "via %s dev %u %s",
			rt4_addr_str(app->rt->nh_info[mem[k]].ip, a), app->rt->nh[mem[k]].port,
			act[k] ? "active" : "inactive");
		rte_tel_data_add_array_string(arr, val);
		bytes += fwd_tel_str_bytes(val);
	}
	/* where the group came from, last, so the hops stay the array's head */
	rte_tel_data_add_array_string(arr, origin);
	bytes += fwd_tel_str_bytes(origin);
	if (!fwd_tel_page_take(pg, bytes)) {
		rte_tel_data_free(arr);
		return -ENOSPC;
	}
	rte_tel_data_add_dict_container(d, prefix, arr, 0);
	return 1;
}

/*
 * "/forwarder/routes[,START]": the routes from the START-th, as many as the
 * reply holds (at most TEL_ROUTES_PAGE), then "count" (how many were sent)
 * and "next" (the first that was not), so paging by "next" gets every route.
 */
static int
tel_routes(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rt_route routes[TEL_ROUTES_PAGE];
	struct fwd_tel_page pg;
	uint64_t start = 0;
	uint32_t total, n, i;

	if (params != NULL && fwd_tel_param_uint(params, UINT32_MAX, &start) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (app->rt == NULL)
		return 0;
	total = rt_route_list_at(app->rt, (uint32_t)start, routes, RTE_DIM(routes));
	n = start < total ? RTE_MIN(total - (uint32_t)start, RTE_DIM(routes)) : 0;
	fwd_tel_page_init(&pg, cmd, TEL_ROUTES_HEAD);
	for (i = 0; i < n; i++) {
		char prefix[24], a[16], val[48], origin[48], line[96];
		int ret;

		snprintf(prefix, sizeof(prefix), "%s/%u", rt4_addr_str(routes[i].prefix, a),
			routes[i].plen);
		/* telemetry keys allow [a-zA-Z0-9_/]: 10.0.0.0/24 -> 10_0_0_0/24 */
		for (char *c = prefix; *c != '\0'; c++)
			if (*c == '.')
				*c = '_';
		/* as show route prints it, the age in seconds: where and since when */
		snprintf(origin, sizeof(origin), "proto %s age %u",
			rt_route_src_name(routes[i].src), rt_table_now() - routes[i].since);
		if (routes[i].kind == RT_ROUTE_VIA) {
			ret = tel_route_multipath(app, d, &pg, prefix, routes[i].nh, origin);
			if (ret > 0)
				continue;
			if (ret < 0)
				break; /* the page ends here: "next" names this route */
		}
		if (routes[i].kind == RT_ROUTE_VIA)
			snprintf(val, sizeof(val), "via %s dev %u", rt4_addr_str(routes[i].gw, a),
				routes[i].port);
		else if (routes[i].kind == RT_ROUTE_BLACKHOLE)
			snprintf(val, sizeof(val), "blackhole");
		else if (routes[i].kind == RT_ROUTE_REJECT)
			snprintf(val, sizeof(val), "reject");
		else
			snprintf(val, sizeof(val), "dev %u", routes[i].port);
		snprintf(line, sizeof(line), "%s %s", val, origin);
		if (!fwd_tel_page_take(&pg, fwd_tel_key_bytes(prefix) + fwd_tel_str_bytes(line)))
			break;
		rte_tel_data_add_dict_string(d, prefix, line);
	}
	/* the head last: only now is it known how many fitted */
	rte_tel_data_add_dict_u64(d, "total", total);
	rte_tel_data_add_dict_u64(d, "start", start);
	rte_tel_data_add_dict_u64(d, "count", i);
	rte_tel_data_add_dict_u64(d, "more", start + i < total);
	if (start + i < total)
		rte_tel_data_add_dict_u64(d, "next", start + i);
	return 0;
}

/* the routes of each kind, as "kind_<name>" keys */
static const char *const route_kind_keys[] = {
	[RT_ROUTE_CONNECTED] = "kind_connected",
	[RT_ROUTE_LOCAL] = "kind_local",
	[RT_ROUTE_VIA] = "kind_via",
	[RT_ROUTE_DEV] = "kind_dev",
	[RT_ROUTE_BLACKHOLE] = "kind_blackhole",
	[RT_ROUTE_REJECT] = "kind_reject",
	[RT_ROUTE_NEIGH] = "kind_neighbour",
};

/* "/forwarder/route_summary": what "show route summary" prints: counts, limits, memory */
static int
tel_route_summary(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rt_route_summary s;
	struct rte_tel_data *plens;
	unsigned int i;

	if (params != NULL && *params != '\0')
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (app->rt == NULL)
		return 0;
	rt_route_summary_get(app->rt, &s);
	rte_tel_data_add_dict_u64(d, "routes", s.routes);
	rte_tel_data_add_dict_u64(d, "max_routes", s.max_routes);
	rte_tel_data_add_dict_u64(d, "next_hops", s.nh_used);
	rte_tel_data_add_dict_u64(d, "max_next_hops", s.nh_max);
	rte_tel_data_add_dict_u64(d, "neighbours", s.neighbours);
	rte_tel_data_add_dict_u64(d, "tbl8_groups_used", s.tbl8_used);
	rte_tel_data_add_dict_u64(d, "tbl8_groups", s.tbl8_max);
	rte_tel_data_add_dict_u64(d, "mem_lookup_bytes", s.mem_lookup);
	rte_tel_data_add_dict_u64(d, "mem_next_hops_bytes", s.mem_nh);
	rte_tel_data_add_dict_u64(d, "mem_records_bytes", s.mem_records);
	/* one u64 per prefix length, 0..32: 33 numbers however big the table */
	plens = rte_tel_data_alloc();
	if (plens == NULL)
		return 0;
	rte_tel_data_start_array(plens, RTE_TEL_U64_VAL);
	for (i = 0; i <= 32; i++)
		rte_tel_data_add_array_u64(plens, s.by_plen[i]);
	rte_tel_data_add_dict_container(d, "by_prefix_length", plens, 0);
	for (i = 0; i < RTE_DIM(route_kind_keys); i++)
		rte_tel_data_add_dict_u64(d, route_kind_keys[i], s.by_kind[i]);
	return 0;
}

static const char *const tel_punt_keys[] = {
#define TEL_PUNT_KEY(sym, name, desc) "punted_" name,
	RT_EXCEPTIONS(TEL_PUNT_KEY)
#undef TEL_PUNT_KEY
};

static bool
tel_router_fill(struct rte_tel_data *one, const struct fwd_lcore *lc, size_t *b)
{
	unsigned int e;

	if (lc->rt == NULL)
		return false;
	fwd_tel_u64(one, b, "forwarded", lc->rt->stats.fwd);
	for (e = 0; e < RT_EXC_MAX; e++)
		fwd_tel_u64(one, b, tel_punt_keys[e], lc->rt->stats.punts[e]);
	return true;
}

/*
 * "/forwarder/router[,START]": the router's own counters, as the stats
 * file's "route" has them: the slow path's (icmp_errors, echo_replies,
 * arp_*, fragmented, to_twin...) and, per worker from the START-th
 * (lcore<N>), packets forwarded and punted by exception (punted_<exception>).
 */
static int
tel_router(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fwd_tel_page pg;
	uint64_t start = 0;
	unsigned int e;

	if (params != NULL && fwd_tel_param_uint(params, UINT32_MAX, &start) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (app->cfg.mode != FWD_MODE_ROUTE)
		return 0;
	fwd_tel_page_init(&pg, cmd, RT_CTL_MAX + FWD_TEL_LCORES_TAIL);
	for (e = 0; e < RT_CTL_MAX; e++)
		rte_tel_data_add_dict_u64(d, rt_ctl_counter_name((enum rt_ctl_counter)e),
			fwd_route_ctl_counter(app, (enum rt_ctl_counter)e));
	fwd_tel_lcore_page(app, d, &pg, start, tel_router_fill);
	return 0;
}

const struct fwd_tel_endpoint fwd_route_tel[] = {
	{"/forwarder/routes", tel_routes,
		"--fwd route: routes (dots as _), as many as a reply holds; total, count, more, "
		"next. Parameter: the first route (default 0)."},
	{"/forwarder/route_summary", tel_route_summary,
		"--fwd route: route counts (by_prefix_length: /0../32), limits and memory. No "
		"parameters."},
	{"/forwarder/router", tel_router,
		"--fwd route: slow-path counters (ICMP, ARP, fragments, twins), per lcore "
		"forwarded, punted_<why>. Parameter: first worker."},
};
/* the count fwd_route.c registers: a list that grew or shrank must say so */
static_assert(RTE_DIM(fwd_route_tel) == FWD_ROUTE_N_TEL, "FWD_ROUTE_N_TEL is not the count");
