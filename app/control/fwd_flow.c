/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "fwd_flow.h"
#include "fwd_log.h"
#include "fwd_route.h"
#include "fwd_tel_page.h"

static const char *const exc_names[] = {
#define EXC_NAME(sym, name, desc) name,
	RT_EXCEPTIONS(EXC_NAME)
#undef EXC_NAME
};

/*
 * flow-table = off leaves the flow stage out, and both the filter (its
 * verdict is cached per flow) and flowsort = on (it groups bursts for the
 * table) live in it: such a set-up is refused rather than one setting
 * silently beating the other (a deny rule skipped would let traffic through).
 */
static int
table_conflict(enum rt_flow_table_mode table, enum flowsort_mode mode, uint32_t rules, char *err,
	size_t errlen)
{
	if (table != RT_FLOW_TABLE_OFF)
		return 0;
	if (rules != 0) {
		snprintf(err, errlen,
			"flow-table = off, but the filter has %u rule%s and runs in the flow table: "
			"delete them, or set flow-table auto",
			rules, rules == 1 ? "" : "s");
		return -EINVAL;
	}
	if (mode == FLOWSORT_MODE_ON) {
		snprintf(err, errlen,
			"flow-table = off, but flowsort = on groups bursts for the flow table: set "
			"flowsort auto or off, or flow-table auto");
		return -EINVAL;
	}
	return 0;
}

int
fwd_flow_setup(struct fwd_app *app, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	fwd_flow_ctx(app)->acl = rt_acl_create(fwd_route_table(app)->qsbr, (int)rte_socket_id());
	if (fwd_flow_ctx(app)->acl == NULL) {
		snprintf(err, errlen, "cannot create the filter: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ret = rt_config_apply_filter(&app->cfg.route, fwd_flow_ctx(app)->acl, err, errlen);
	if (ret < 0)
		return ret;
	ret = table_conflict((enum rt_flow_table_mode)app->cfg.flow_table,
		(enum flowsort_mode)app->cfg.flowsort, rt_acl_count(fwd_flow_ctx(app)->acl), err,
		errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		struct rt_flow_conf c = {
			.size = app->cfg.flow_table_size,
			.age_s = app->cfg.flow_age,
			.mode = (enum flowsort_mode)app->cfg.flowsort,
			.table = (enum rt_flow_table_mode)app->cfg.flow_table,
			.n_queues = RTE_MAX(lc->n_rx, 1),
			.socket = (int)rte_lcore_to_socket_id(lc->lcore_id),
			.tbl_gen = &fwd_route_table(app)->gen,
			.acl = fwd_flow_ctx(app)->acl,
		};

		lc->flow = rt_flow_create(&c);
		if (lc->flow == NULL) {
			snprintf(err, errlen, "lcore %u: cannot create the flow table: %s",
				lc->lcore_id, rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

void
fwd_flow_detach(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->flow != NULL)
			rt_flow_detach(app->workers[i]->flow);
}

void
fwd_flow_free(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		rt_flow_free(app->workers[i]->flow);
		app->workers[i]->flow = NULL;
	}
	rt_acl_free(fwd_flow_ctx(app)->acl);
	fwd_flow_ctx(app)->acl = NULL;
}

/* The workers' flow stages, in worker order; returns how many (0: not routing). */
static unsigned int
tables(const struct fwd_app *app, struct rt_flow **fl)
{
	unsigned int i, n = 0;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->flow != NULL)
			fl[n++] = app->workers[i]->flow;
	return n;
}

/*
 * NULL while the workers run the flow stage, else why they do not and how to
 * turn it on: zeros there would read as "no traffic". The datapath's own
 * decision (rt_flow_wanted(): the same config and filter for every worker),
 * taken from the app's config and filter, which stay after
 * fwd_flow_detach() for the final stats.
 */
static const char *
table_off(const struct fwd_app *app, unsigned int nt)
{
	if (nt == 0 ||
		rt_flow_table_always((enum rt_flow_table_mode)app->cfg.flow_table,
			(enum flowsort_mode)app->cfg.flowsort) ||
		(fwd_flow_ctx(app)->acl != NULL && rt_acl_count(fwd_flow_ctx(app)->acl) != 0))
		return NULL;
	if (app->cfg.flow_table == RT_FLOW_TABLE_OFF)
		return "the flow table is off (flow-table = off): no flow statistics; "
		       "set flow-table on to count flows";
	return "the flow table is off (flow-table = auto runs it only for [filter] rules or "
	       "flowsort on): set flow-table on to count flows";
}

static const char *
proto_name(uint8_t p, char *buf, size_t len)
{
	switch (p) {
	case IPPROTO_TCP:
		return "tcp";
	case IPPROTO_UDP:
		return "udp";
	case IPPROTO_ICMP:
		return "icmp";
	case IPPROTO_SCTP:
		return "sctp";
	default:
		snprintf(buf, len, "proto %u", p);
		return buf;
	}
}

/* "fwd out 1", "slow path unresolved", "drop filter_deny" */
static void
action_str(const struct rt_flow_info *fi, char *buf, size_t len)
{
	if (fi->action == RT_FLOW_FWD)
		snprintf(buf, len, "fwd out %u", fi->out_port);
	else if (fi->action == RT_FLOW_PUNT)
		snprintf(buf, len, "slow path %s",
			(fi->detail >> 24) < RT_EXC_MAX ? exc_names[fi->detail >> 24] : "?");
	else
		snprintf(buf, len, "drop %s", rt_drop_name((enum rt_drop_reason)fi->detail));
}

static void
print_flow(
	const struct fwd_app *app, FILE *f, const struct rt_flow_info *fi, uint64_t now, double hz)
{
	char s[16], d[16], p[16], act[48];

	action_str(fi, act, sizeof(act));
	fprintf(f,
		"%s:%u -> %s:%u %s in %u: %s%s | %" PRIu64 " pkts %" PRIu64
		" bytes | first %.1f s ago, last %.1f s ago | lcore %u\n",
		rt4_addr_str(rte_be_to_cpu_32(fi->key.src_addr), s),
		rte_be_to_cpu_16(fi->key.src_port),
		rt4_addr_str(rte_be_to_cpu_32(fi->key.dst_addr), d),
		rte_be_to_cpu_16(fi->key.dst_port), proto_name(fi->key.proto, p, sizeof(p)),
		fi->in_port, act, fi->current ? "" : " (stale)", fi->pkts, fi->bytes,
		(double)(int64_t)(now - fi->first) / hz, (double)(int64_t)(now - fi->last) / hz,
		app->workers[fi->table]->lcore_id);
}

void
fwd_flow_show(const struct fwd_app *app, FILE *f, unsigned int n, enum rt_flow_order by)
{
	struct rt_flow *fl[RTE_MAX_LCORE];
	struct rt_flow_info top[256];
	unsigned int nt = tables(app, fl), got, i;
	uint64_t now = rte_rdtsc();

	if (nt == 0) {
		fprintf(f, "not routing: start with --fwd route\n");
		return;
	}
	if (table_off(app, nt) != NULL) {
		fprintf(f, "%s\n", table_off(app, nt));
		return;
	}
	/* tables() skips nothing once set up: table index = worker index */
	got = rt_flow_top(fl, nt, by, now, top, RTE_MIN(n, RTE_DIM(top)));
	if (got == 0)
		fprintf(f, "no flows\n");
	for (i = 0; i < got; i++)
		print_flow(app, f, &top[i], now, (double)rte_get_tsc_hz());
}

void
fwd_flow_filter_show(const struct fwd_app *app, FILE *f)
{
	struct rt_flow *fl[RTE_MAX_LCORE];
	unsigned int nt = tables(app, fl);
	uint32_t i;
	char buf[160];

	if (fwd_flow_ctx(app)->acl == NULL) {
		fprintf(f, "not routing: start with --fwd route\n");
		return;
	}
	if (rt_acl_count(fwd_flow_ctx(app)->acl) == 0)
		fprintf(f, "no filter rules: everything is permitted\n");
	for (i = 0; i < rt_acl_count(fwd_flow_ctx(app)->acl); i++) {
		rt_acl_rule_format(&fwd_flow_ctx(app)->acl->rules[i], buf, sizeof(buf));
		fprintf(f, "%u: %s | %" PRIu64 " pkts\n", i, buf,
			rt_flow_rule_pkts(fl, nt, fwd_flow_ctx(app)->acl,
				rt_acl_slot(fwd_flow_ctx(app)->acl, i)));
	}
}

int
fwd_flow_filter_add(struct fwd_app *app, const char *action, const char *match, uint32_t pos,
	char *err, size_t errlen)
{
	struct rt_acl_rule r;
	int ret;

	if (fwd_flow_ctx(app)->acl == NULL) {
		snprintf(err, errlen, "not routing: start with --fwd route");
		return -ENODEV;
	}
	if (app->cfg.flow_table == RT_FLOW_TABLE_OFF) {
		/* a rule the datapath would apply although the key says off: refused */
		snprintf(err, errlen,
			"flow-table = off, and the filter runs in the flow table: set flow-table "
			"auto (while stopped) first");
		return -EINVAL;
	}
	ret = rt_acl_rule_parse(action, match, &r, err, errlen);
	if (ret < 0)
		return ret;
	return rt_acl_add(fwd_flow_ctx(app)->acl, &r, pos, err, errlen);
}

int
fwd_flow_filter_del(struct fwd_app *app, uint32_t pos, char *err, size_t errlen)
{
	if (fwd_flow_ctx(app)->acl == NULL) {
		snprintf(err, errlen, "not routing: start with --fwd route");
		return -ENODEV;
	}
	return rt_acl_del(fwd_flow_ctx(app)->acl, pos, err, errlen);
}

/*
 * Whether the shell may set flow-table @p table with flowsort @p mode (one of
 * them the one asked, @p what its name): routing, stopped, and no conflict
 * with the other or the filter. 0 or -errno with @p err.
 */
static int
set_allowed(const struct fwd_app *app, enum rt_flow_table_mode table, enum flowsort_mode mode,
	const char *what, char *err, size_t errlen)
{
	if (fwd_flow_ctx(app)->acl == NULL) {
		snprintf(err, errlen, "not routing: start with --fwd route");
		return -ENODEV;
	}
	if (app->running) {
		snprintf(err, errlen, "stop forwarding first (stop), then set %s", what);
		return -EBUSY;
	}
	return table_conflict(table, mode, rt_acl_count(fwd_flow_ctx(app)->acl), err, errlen);
}

int
fwd_flow_set_mode(struct fwd_app *app, enum flowsort_mode mode, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	ret = set_allowed(
		app, (enum rt_flow_table_mode)app->cfg.flow_table, mode, "flowsort", err, errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < app->n_workers; i++) {
		if (app->workers[i]->flow == NULL)
			continue;
		ret = rt_flow_set_mode(app->workers[i]->flow, mode);
		if (ret < 0) {
			snprintf(err, errlen, "lcore %u: cannot set flowsort",
				app->workers[i]->lcore_id);
			return ret;
		}
	}
	app->cfg.flowsort = (uint8_t)mode;
	return 0;
}

int
fwd_flow_set_table(struct fwd_app *app, enum rt_flow_table_mode table, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	ret = set_allowed(
		app, table, (enum flowsort_mode)app->cfg.flowsort, "flow-table", err, errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < app->n_workers; i++) {
		if (app->workers[i]->flow == NULL)
			continue;
		ret = rt_flow_set_table(app->workers[i]->flow, table);
		if (ret < 0) {
			snprintf(err, errlen, "lcore %u: cannot set flow-table",
				app->workers[i]->lcore_id);
			return ret;
		}
	}
	app->cfg.flow_table = (uint8_t)table;
	return 0;
}

void
fwd_flow_print(const struct fwd_app *app, FILE *f)
{
	struct rt_flow *fl[RTE_MAX_LCORE];
	struct rt_flow_info top[FWD_FLOW_TOP_STATS];
	unsigned int nt = tables(app, fl), i, k, got;
	uint64_t now = rte_rdtsc();

	if (table_off(app, nt) != NULL) {
		fprintf(f, "flows: %s\n", table_off(app, nt));
		return;
	}
	for (i = 0; i < nt; i++) {
		struct rt_flow_stats st;
		struct flowsort_stats ss;

		rt_flow_stats_get(fl[i], &st);
		rt_flow_sort_stats_get(fl[i], &ss);
		fprintf(f, "flows lcore %u: entries %u |", app->workers[i]->lcore_id,
			rt_flow_count(fl[i], now));
		for (k = 0; k < RT_FLOW_NB_STATS; k++)
			fprintf(f, " %s %" PRIu64, rt_flow_stats_name(k),
				((const uint64_t *)&st)[k]);
		fprintf(f,
			" | flowsort %s: mean group %.2f, bypassed %" PRIu64 " of %" PRIu64
			" bursts\n",
			rt_flow_mode_name((enum flowsort_mode)app->cfg.flowsort),
			ss.groups ? (double)ss.pkts_sorted / (double)ss.groups : 0.0,
			ss.bursts_bypassed, ss.bursts_sorted + ss.bursts_bypassed);
	}
	if (nt == 0)
		return;
	got = rt_flow_top(fl, nt, RT_FLOW_BY_PKTS, now, top, RTE_DIM(top));
	if (got != 0)
		fprintf(f, "top flows by packets:\n");
	for (i = 0; i < got; i++) {
		fprintf(f, "    ");
		print_flow(app, f, &top[i], now, (double)rte_get_tsc_hz());
	}
	if (fwd_flow_ctx(app)->acl != NULL && rt_acl_count(fwd_flow_ctx(app)->acl) != 0) {
		fprintf(f, "filter:\n");
		for (i = 0; i < rt_acl_count(fwd_flow_ctx(app)->acl); i++) {
			char buf[160];

			rt_acl_rule_format(&fwd_flow_ctx(app)->acl->rules[i], buf, sizeof(buf));
			fprintf(f, "    %u: %s | %" PRIu64 " pkts\n", i, buf,
				rt_flow_rule_pkts(fl, nt, fwd_flow_ctx(app)->acl,
					rt_acl_slot(fwd_flow_ctx(app)->acl, i)));
		}
	}
}

static void
json_top(const struct fwd_app *app, FILE *f, struct rt_flow **fl, unsigned int nt,
	enum rt_flow_order by, uint64_t now)
{
	struct rt_flow_info top[FWD_FLOW_TOP_STATS];
	unsigned int got = rt_flow_top(fl, nt, by, now, top, RTE_DIM(top)), i;

	for (i = 0; i < got; i++) {
		const struct rt_flow_info *fi = &top[i];
		char s[16], d[16], act[48];

		action_str(fi, act, sizeof(act));
		fprintf(f,
			"%s{\"src\": \"%s\", \"dst\": \"%s\", \"proto\": %u, \"sport\": %u"
			", \"dport\": %u, \"in_port\": %u, \"action\": \"%s\", \"pkts\": %" PRIu64
			", \"bytes\": %" PRIu64 ", \"lcore\": %u}",
			i ? ", " : "", rt4_addr_str(rte_be_to_cpu_32(fi->key.src_addr), s),
			rt4_addr_str(rte_be_to_cpu_32(fi->key.dst_addr), d), fi->key.proto,
			rte_be_to_cpu_16(fi->key.src_port), rte_be_to_cpu_16(fi->key.dst_port),
			fi->in_port, act, fi->pkts, fi->bytes, app->workers[fi->table]->lcore_id);
	}
}

void
fwd_flow_json(const struct fwd_app *app, FILE *f)
{
	struct rt_flow *fl[RTE_MAX_LCORE];
	unsigned int nt = tables(app, fl), i, k;
	uint64_t now = rte_rdtsc();

	if (nt == 0)
		return;
	fprintf(f,
		"  \"flows\": {\n    \"flowsort\": \"%s\",\n    \"flow_table\": \"%s\",\n"
		"    \"in_use\": %s,\n    \"lcores\": [",
		rt_flow_mode_name((enum flowsort_mode)app->cfg.flowsort),
		rt_flow_table_name((enum rt_flow_table_mode)app->cfg.flow_table),
		table_off(app, nt) == NULL ? "true" : "false");
	if (table_off(app, nt) != NULL) {
		/* as /forwarder/flows: why, and no counters that would read as "no traffic" */
		fprintf(f,
			"],\n    \"off\": \"%s\",\n    \"top_by_pkts\": [],\n"
			"    \"top_by_bytes\": [],\n    \"filter\": []\n  },\n",
			table_off(app, nt));
		return;
	}
	for (i = 0; i < nt; i++) {
		struct rt_flow_stats st;
		struct flowsort_stats ss;

		rt_flow_stats_get(fl[i], &st);
		rt_flow_sort_stats_get(fl[i], &ss);
		fprintf(f, "%s{\"lcore\": %u, \"entries\": %u", i ? ", " : "",
			app->workers[i]->lcore_id, rt_flow_count(fl[i], now));
		for (k = 0; k < RT_FLOW_NB_STATS; k++)
			fprintf(f, ", \"%s\": %" PRIu64, rt_flow_stats_name(k),
				((const uint64_t *)&st)[k]);
		fprintf(f, ", \"flowsort\": {");
		for (k = 0; k < FLOWSORT_NB_STATS; k++)
			fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", flowsort_stats_name(k),
				((const uint64_t *)&ss)[k]);
		fprintf(f, "}}");
	}
	fprintf(f, "],\n    \"top_by_pkts\": [");
	json_top(app, f, fl, nt, RT_FLOW_BY_PKTS, now);
	fprintf(f, "],\n    \"top_by_bytes\": [");
	json_top(app, f, fl, nt, RT_FLOW_BY_BYTES, now);
	fprintf(f, "],\n    \"filter\": [");
	for (i = 0; fwd_flow_ctx(app)->acl != NULL && i < rt_acl_count(fwd_flow_ctx(app)->acl);
		i++) {
		char buf[160];

		rt_acl_rule_format(&fwd_flow_ctx(app)->acl->rules[i], buf, sizeof(buf));
		fprintf(f, "%s{\"rule\": \"%s\", \"pkts\": %" PRIu64 "}", i ? ", " : "", buf,
			rt_flow_rule_pkts(fl, nt, fwd_flow_ctx(app)->acl,
				rt_acl_slot(fwd_flow_ctx(app)->acl, i)));
	}
	fprintf(f, "]\n  },\n");
}

void
fwd_flow_stats_reset(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->flow != NULL)
			rt_flow_stats_reset(app->workers[i]->flow);
}

/* JSON bytes a top<N> flow takes at most: its keys, 3 strings (action up to 48) and 8 u64s */
#define TEL_TOP_BYTES 400

int
fwd_flow_telemetry(const struct fwd_app *app, struct rte_tel_data *d, enum rt_flow_order by,
	struct fwd_tel_page *pg, uint32_t start)
{
	struct rt_flow *fl[RTE_MAX_LCORE];
	struct rt_flow_info top[FWD_FLOW_TOP_STATS];
	unsigned int nt = tables(app, fl), i, k, got = 0, count = 0;
	uint64_t now = rte_rdtsc(), flows = 0;

	rte_tel_data_add_dict_string(
		d, "flowsort", rt_flow_mode_name((enum flowsort_mode)app->cfg.flowsort));
	if (nt == 0)
		return -ENODEV;
	rte_tel_data_add_dict_string(
		d, "flow_table", rt_flow_table_name((enum rt_flow_table_mode)app->cfg.flow_table));
	rte_tel_data_add_dict_u64(d, "in_use", table_off(app, nt) == NULL);
	if (table_off(app, nt) != NULL) {
		/* no counters that would read as "no traffic": why, and how to turn it on */
		rte_tel_data_add_dict_string(d, "off", table_off(app, nt));
		rte_tel_data_add_dict_u64(d, "start", start);
		rte_tel_data_add_dict_u64(d, "count", 0);
		rte_tel_data_add_dict_u64(d, "more", 0);
		return 0;
	}
	for (i = 0; i < nt; i++)
		flows += rt_flow_count(fl[i], now);
	/* the top list on the first page, before the tables: its room taken first */
	if (start == 0) {
		got = rt_flow_top(fl, nt, by, now, top, RTE_DIM(top));
		for (i = 0; i < got; i++)
			fwd_tel_page_take(pg, TEL_TOP_BYTES);
	}
	for (i = RTE_MIN(start, nt); i < nt; i++) {
		struct rte_tel_data *one = rte_tel_data_alloc();
		struct rt_flow_stats st;
		struct flowsort_stats ss;
		uint64_t v;
		size_t bytes = fwd_tel_key_bytes("lcoreNNNN") + 2;
		char key[32];

		if (one == NULL)
			return -ENOMEM;
		rt_flow_stats_get(fl[i], &st);
		rt_flow_sort_stats_get(fl[i], &ss);
		rte_tel_data_start_dict(one);
		v = rt_flow_count(fl[i], now);
		rte_tel_data_add_dict_u64(one, "entries", v);
		bytes += fwd_tel_u64_bytes("entries", v);
		for (k = 0; k < RT_FLOW_NB_STATS; k++) {
			v = ((const uint64_t *)&st)[k];
			rte_tel_data_add_dict_u64(one, rt_flow_stats_name(k), v);
			bytes += fwd_tel_u64_bytes(rt_flow_stats_name(k), v);
		}
		for (k = 0; k < FLOWSORT_NB_STATS; k++) {
			v = ((const uint64_t *)&ss)[k];
			rte_tel_data_add_dict_u64(one, flowsort_stats_name(k), v);
			bytes += fwd_tel_u64_bytes(flowsort_stats_name(k), v);
		}
		if (!fwd_tel_page_take(pg, bytes)) {
			rte_tel_data_free(one);
			break; /* the page ends here: "next" names this table */
		}
		snprintf(key, sizeof(key), "lcore%u", app->workers[i]->lcore_id);
		rte_tel_data_add_dict_container(d, key, one, 0);
		count++;
	}
	rte_tel_data_add_dict_u64(d, "start", start);
	rte_tel_data_add_dict_u64(d, "count", count);
	rte_tel_data_add_dict_u64(d, "more", i < nt);
	if (i < nt)
		rte_tel_data_add_dict_u64(d, "next", i);
	/* the top list is cut at FWD_FLOW_TOP_STATS: say of how many */
	rte_tel_data_add_dict_u64(d, "flows", flows);
	rte_tel_data_add_dict_u64(d, "flows_shown", got);
	for (i = 0; i < got; i++) {
		const struct rt_flow_info *fi = &top[i];
		struct rte_tel_data *one = rte_tel_data_alloc();
		char s[16], dst[16], act[48], key[16];

		if (one == NULL)
			return -ENOMEM;
		action_str(fi, act, sizeof(act));
		rte_tel_data_start_dict(one);
		rte_tel_data_add_dict_string(
			one, "src", rt4_addr_str(rte_be_to_cpu_32(fi->key.src_addr), s));
		rte_tel_data_add_dict_string(
			one, "dst", rt4_addr_str(rte_be_to_cpu_32(fi->key.dst_addr), dst));
		rte_tel_data_add_dict_u64(one, "proto", fi->key.proto);
		rte_tel_data_add_dict_u64(one, "sport", rte_be_to_cpu_16(fi->key.src_port));
		rte_tel_data_add_dict_u64(one, "dport", rte_be_to_cpu_16(fi->key.dst_port));
		rte_tel_data_add_dict_u64(one, "in_port", fi->in_port);
		rte_tel_data_add_dict_string(one, "action", act);
		rte_tel_data_add_dict_u64(one, "pkts", fi->pkts);
		rte_tel_data_add_dict_u64(one, "bytes", fi->bytes);
		rte_tel_data_add_dict_u64(one, "lcore", app->workers[fi->table]->lcore_id);
		snprintf(key, sizeof(key), "top%u", i);
		rte_tel_data_add_dict_container(d, key, one, 0);
	}
	return 0;
}

int
fwd_flow_filter_telemetry(
	const struct fwd_app *app, struct rte_tel_data *d, struct fwd_tel_page *pg, uint32_t start)
{
	struct rt_flow *fl[RTE_MAX_LCORE];
	unsigned int nt = tables(app, fl);
	uint32_t n, i;

	if (fwd_flow_ctx(app)->acl == NULL)
		return -ENODEV;
	/*
	 * A shell's filter add or del runs beside this (main lcore): a rule
	 * read while it moves is shown as it was or as it is, never past the
	 * arrays (positions and slots stay below RT_ACL_MAX_RULES).
	 */
	n = RTE_MIN(rt_acl_count(fwd_flow_ctx(app)->acl), (uint32_t)RT_ACL_MAX_RULES);
	rte_tel_data_add_dict_u64(d, "rules", n);
	for (i = RTE_MIN(start, n); i < n; i++) {
		struct rte_tel_data *one;
		char text[160], key[16];
		uint64_t pkts;
		size_t bytes = fwd_tel_key_bytes("ruleNNN") + 2; /* the key, { and } */

		rt_acl_rule_format(&fwd_flow_ctx(app)->acl->rules[i], text, sizeof(text));
		pkts = rt_flow_rule_pkts(
			fl, nt, fwd_flow_ctx(app)->acl, rt_acl_slot(fwd_flow_ctx(app)->acl, i));
		bytes += fwd_tel_key_bytes("rule") + fwd_tel_str_bytes(text) +
			 fwd_tel_u64_bytes("pkts", pkts);
		if (!fwd_tel_page_take(pg, bytes))
			break; /* the page ends here: "next" names this rule */
		one = rte_tel_data_alloc();
		if (one == NULL)
			break;
		rte_tel_data_start_dict(one);
		rte_tel_data_add_dict_string(one, "rule", text);
		rte_tel_data_add_dict_u64(one, "pkts", pkts);
		snprintf(key, sizeof(key), "rule%u", i);
		rte_tel_data_add_dict_container(d, key, one, 0);
	}
	rte_tel_data_add_dict_u64(d, "start", start);
	rte_tel_data_add_dict_u64(d, "count", i - RTE_MIN(start, n));
	rte_tel_data_add_dict_u64(d, "more", i < n);
	if (i < n)
		rte_tel_data_add_dict_u64(d, "next", i);
	return 0;
}
