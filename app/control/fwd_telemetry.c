/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_rwlock.h>
#include <rte_telemetry.h>

#include "fwd_flow.h"
#include "fwd_route.h"
#include "fwd_stats.h"
#include "rt_table.h"
#include "fwd_telemetry.h"

/*
 * Callbacks run on the telemetry thread. They read counters that workers
 * write (plain aligned 64-bit stores: a read sees an old or a new value), and
 * the app structure itself, which teardown frees: the lock keeps the two
 * apart.
 */
static rte_rwlock_t tel_lock = RTE_RWLOCK_INITIALIZER;
static struct fwd_app *tel_app;

/*
 * DPDK 22.11 telemetry nests one level only: the per-lcore dicts are top-level
 * keys "lcore<N>" next to the totals.
 */
static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint64_t rx = 0, tx = 0, dropped = 0;
	unsigned int i, r;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	if (tel_app == NULL) {
		rte_rwlock_read_unlock(&tel_lock);
		rte_tel_data_add_dict_string(d, "state", "exiting");
		return 0;
	}
	for (i = 0; i < tel_app->n_workers; i++) {
		const struct fwd_lcore *lc = tel_app->workers[i];
		struct rte_tel_data *one = rte_tel_data_alloc();
		uint64_t lc_drops = 0;
		char key[32];

		for (r = 0; r < FWD_DROP_MAX; r++)
			lc_drops += lc->stats.drops[r];
		rx += lc->stats.rx_pkts;
		tx += lc->stats.tx_pkts;
		dropped += lc_drops;
		if (one == NULL)
			continue;
		rte_tel_data_start_dict(one);
		rte_tel_data_add_dict_u64(one, "rx_pkts", lc->stats.rx_pkts);
		rte_tel_data_add_dict_u64(one, "tx_pkts", lc->stats.tx_pkts);
		rte_tel_data_add_dict_u64(one, "dropped", lc_drops);
		rte_tel_data_add_dict_u64(one, "rx_bursts", lc->stats.rx_bursts);
		rte_tel_data_add_dict_u64(one, "punted", fwd_route_punted(lc));
		rte_tel_data_add_dict_u64(one, "slow_tx", lc->stats.slow_tx);
		snprintf(key, sizeof(key), "lcore%u", lc->lcore_id);
		rte_tel_data_add_dict_container(d, key, one, 0);
	}
	rte_tel_data_add_dict_string(d, "mode", fwd_mode_name(tel_app->cfg.mode));
	rte_tel_data_add_dict_string(d, "state", tel_app->running ? "forwarding" : "stopped");
	rte_tel_data_add_dict_u64(d, "ports", tel_app->nb_ports);
	rte_tel_data_add_dict_u64(d, "rx_pkts", rx);
	rte_tel_data_add_dict_u64(d, "tx_pkts", tx);
	rte_tel_data_add_dict_u64(d, "dropped", dropped);
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

static int
tel_drops(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int r;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	/* the router's reasons only when routing */
	for (r = 0; tel_app != NULL && r < FWD_DROP_MAX; r++)
		if (r < FWD_DROP_ROUTE_FIRST || tel_app->cfg.mode == FWD_MODE_ROUTE)
			rte_tel_data_add_dict_u64(
				d, fwd_drop_name(r), fwd_stats_drop_total(tel_app, r));
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

static int
tel_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i, j;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	for (i = 0; tel_app != NULL && i < tel_app->n_workers; i++) {
		const struct fwd_lcore *lc = tel_app->workers[i];
		struct rte_tel_data *q = rte_tel_data_alloc();
		char key[16];

		if (q == NULL)
			break;
		rte_tel_data_start_array(q, RTE_TEL_STRING_VAL);
		for (j = 0; j < lc->n_rx; j++) {
			char s[32];

			snprintf(s, sizeof(s), "%u/%u", lc->rx[j].port, lc->rx[j].queue);
			rte_tel_data_add_array_string(q, s);
		}
		snprintf(key, sizeof(key), "%u", lc->lcore_id);
		rte_tel_data_add_dict_container(d, key, q, 0);
	}
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

static int
tel_routes(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rt_route routes[128];
	uint32_t n, i;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	if (tel_app == NULL || tel_app->rt == NULL) {
		rte_rwlock_read_unlock(&tel_lock);
		return 0;
	}
	n = rt_route_list(tel_app->rt, routes, RTE_DIM(routes));
	rte_rwlock_read_unlock(&tel_lock);
	for (i = 0; i < n && i < RTE_DIM(routes); i++) {
		char prefix[24], a[16], val[48];

		snprintf(prefix, sizeof(prefix), "%s/%u", rt_ip_str(routes[i].prefix, a),
			routes[i].plen);
		if (routes[i].kind == RT_ROUTE_VIA)
			snprintf(val, sizeof(val), "via %s dev %u", rt_ip_str(routes[i].gw, a),
				routes[i].port);
		else if (routes[i].kind == RT_ROUTE_BLACKHOLE)
			snprintf(val, sizeof(val), "blackhole");
		else if (routes[i].kind == RT_ROUTE_REJECT)
			snprintf(val, sizeof(val), "reject");
		else
			snprintf(val, sizeof(val), "dev %u", routes[i].port);
		/* telemetry keys allow [a-zA-Z0-9_/]: 10.0.0.0/24 -> 10_0_0_0/24 */
		for (char *c = prefix; *c != '\0'; c++)
			if (*c == '.')
				*c = '_';
		rte_tel_data_add_dict_string(d, prefix, val);
	}
	return 0;
}

/* "/forwarder/flows[,bytes]": flow-table counters and the top flows by packets (or bytes) */
static int
tel_flows(const char *cmd, const char *params, struct rte_tel_data *d)
{
	enum rt_flow_order by = RT_FLOW_BY_PKTS;

	if (params != NULL && *params != '\0') {
		if (strcmp(params, "bytes") == 0)
			by = RT_FLOW_BY_BYTES;
		else if (strcmp(params, "pkts") != 0)
			return -EINVAL;
	}
	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	if (tel_app != NULL)
		fwd_flow_telemetry(tel_app, d, by);
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

static int
tel_pktgen(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i, k;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	for (i = 0; tel_app != NULL && i < tel_app->n_workers; i++) {
		const struct fwd_lcore *lc = tel_app->workers[i];
		struct rte_tel_data *one;
		struct pktgen_tx_stats ts;
		struct pktgen_rx_stats rs;
		char key[32];

		if (lc->pg == NULL || lc->pg_rx == NULL || (one = rte_tel_data_alloc()) == NULL)
			continue;
		pktgen_lcore_stats(lc->pg, &ts);
		pktgen_rx_stats(lc->pg_rx, &rs);
		rte_tel_data_start_dict(one);
		for (k = 0; k < PKTGEN_TX_STAT_MAX; k++)
			rte_tel_data_add_dict_u64(
				one, pktgen_tx_stat_names[k], pktgen_tx_stat(&ts, k));
		for (k = 0; k < PKTGEN_RX_STAT_MAX; k++)
			rte_tel_data_add_dict_u64(
				one, pktgen_rx_stat_names[k], pktgen_rx_stat(&rs, k));
		snprintf(key, sizeof(key), "lcore%u", lc->lcore_id);
		rte_tel_data_add_dict_container(d, key, one, 0);
	}
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

void
fwd_telemetry_init(struct fwd_app *app)
{
	static bool registered;

	rte_rwlock_write_lock(&tel_lock);
	tel_app = app;
	rte_rwlock_write_unlock(&tel_lock);
	if (registered)
		return;
	registered = true;
	rte_telemetry_register_cmd("/forwarder/stats", tel_stats,
		"Forwarding mode, state, packet totals and per-lcore counters. No parameters.");
	rte_telemetry_register_cmd(
		"/forwarder/drops", tel_drops, "Dropped packets by reason. No parameters.");
	rte_telemetry_register_cmd("/forwarder/lcores", tel_lcores,
		"RX queues (port/queue) polled by each worker lcore. No parameters.");
	rte_telemetry_register_cmd("/forwarder/routes", tel_routes,
		"--fwd route: the routing table, prefix (dots as _) -> how. No parameters.");
	rte_telemetry_register_cmd("/forwarder/flows", tel_flows,
		"--fwd route: flow-table counters per lcore and the top flows (top0..). "
		"Parameter: pkts (default) or bytes, the order.");
	rte_telemetry_register_cmd("/forwarder/pktgen", tel_pktgen,
		"--fwd pktgen: generator and receive-side counters per lcore. No parameters.");
}

void
fwd_telemetry_uninit(void)
{
	rte_rwlock_write_lock(&tel_lock);
	tel_app = NULL;
	rte_rwlock_write_unlock(&tel_lock);
}
