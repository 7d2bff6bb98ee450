/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The flow stage of --fwd route as a component (fwd_component.h): its shell
 * commands (show flows, filter add|del|show, set flowsort, set flow-table), its telemetry
 * endpoints (/forwarder/flows, /forwarder/filter) and the zeroing of its
 * counters at "clear fwd stats", registered from here. What they call is
 * fwd_flow.c's. Its set-up, teardown and statistics lines stay the
 * router's (fwd_route.c): the flow stage is built inside the router's
 * set-up, and its lines are printed in the router's block, which says
 * whether there is a router to report at all.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_telemetry.h>

#include "numparse.h"

#include "fwd_cmds.h"
#include "fwd_component.h"
#include "fwd_flow.h"
#include "fwd_route.h"
#include "fwd_tel_page.h"

struct cmd_flows_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t flows;
	cmdline_fixed_string_t top;
	cmdline_fixed_string_t n;
	cmdline_fixed_string_t by;
};

static void
cmd_show_flows_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_flows_result *r = res;
	const struct fwd_app *app = data;
	uint64_t n = 10;

	if (r->n[0] != '\0') {
		if (num_u64(r->n, 1, 256, &n) < 0) {
			fwd_cmds_say("bad count '%s': expected 1 to 256\n", r->n);
			return;
		}
	}
	fwd_flow_show(app, stdout, (unsigned int)n,
		strcmp(r->by, "bytes") == 0 ? RT_FLOW_BY_BYTES : RT_FLOW_BY_PKTS);
}

static cmdline_parse_token_string_t cmd_flows_show =
	TOKEN_STRING_INITIALIZER(struct cmd_flows_result, show, "show");
static cmdline_parse_token_string_t cmd_flows_flows =
	TOKEN_STRING_INITIALIZER(struct cmd_flows_result, flows, "flows");
static cmdline_parse_token_string_t cmd_flows_top =
	TOKEN_STRING_INITIALIZER(struct cmd_flows_result, top, "top");
static cmdline_parse_token_string_t cmd_flows_n =
	TOKEN_STRING_INITIALIZER(struct cmd_flows_result, n, NULL);
static cmdline_parse_token_string_t cmd_flows_by =
	TOKEN_STRING_INITIALIZER(struct cmd_flows_result, by, "pkts#bytes");
static cmdline_parse_inst_t cmd_show_flows = {
	.f = cmd_show_flows_parsed,
	.help_str = "show flows: the 10 biggest flows by packets, over all workers",
	.tokens = {(void *)&cmd_flows_show, (void *)&cmd_flows_flows, NULL},
};
static cmdline_parse_inst_t cmd_show_flows_top = {
	.f = cmd_show_flows_parsed,
	.help_str = "show flows top <n>: the n biggest flows by packets",
	.tokens = {(void *)&cmd_flows_show, (void *)&cmd_flows_flows, (void *)&cmd_flows_top,
		(void *)&cmd_flows_n, NULL},
};
static cmdline_parse_inst_t cmd_show_flows_top_by = {
	.f = cmd_show_flows_parsed,
	.help_str = "show flows top <n> pkts|bytes: the n biggest flows by packets or bytes",
	.tokens = {(void *)&cmd_flows_show, (void *)&cmd_flows_flows, (void *)&cmd_flows_top,
		(void *)&cmd_flows_n, (void *)&cmd_flows_by, NULL},
};

struct cmd_filter_result {
	cmdline_fixed_string_t filter;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t arg;
	cmdline_fixed_string_t match;
};

static void
cmd_filter_add_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_filter_result *r = res;
	struct fwd_app *app = data;
	char err[256];

	if (fwd_flow_filter_add(app, r->arg, r->match, UINT32_MAX, err, sizeof(err)) < 0)
		fwd_cmds_say("filter rule not added: %s\n", err);
	else
		printf("filter rule %u added\n", rt_acl_count(fwd_flow_ctx(app)->acl) - 1);
}

static void
cmd_filter_del_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_filter_result *r = res;
	struct fwd_app *app = data;
	uint64_t n;
	char err[256];

	if (num_u64(r->arg, 0, RT_ACL_MAX_RULES - 1, &n) < 0) {
		fwd_cmds_say("bad rule number '%s': see filter show\n", r->arg);
		return;
	}
	if (fwd_flow_filter_del(app, (uint32_t)n, err, sizeof(err)) < 0)
		fwd_cmds_say("filter rule not deleted: %s\n", err);
	else
		printf("filter rule %" PRIu64 " deleted\n", n);
}

static void
cmd_filter_show_parsed(void *res, struct cmdline *cl, void *data)
{
	fwd_flow_filter_show(data, stdout);
}

static cmdline_parse_token_string_t cmd_filter_filter =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, filter, "filter");
static cmdline_parse_token_string_t cmd_filter_add =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, op, "add");
static cmdline_parse_token_string_t cmd_filter_del =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, op, "del");
static cmdline_parse_token_string_t cmd_filter_show =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, op, "show");
static cmdline_parse_token_string_t cmd_filter_action =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, arg, "permit#deny");
static cmdline_parse_token_string_t cmd_filter_n =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, arg, NULL);
static cmdline_parse_token_string_t cmd_filter_match =
	TOKEN_STRING_INITIALIZER(struct cmd_filter_result, match, TOKEN_STRING_MULTI);
static cmdline_parse_inst_t cmd_filter_add_inst = {
	.f = cmd_filter_add_parsed,
	.help_str =
		"filter add permit|deny <match>: append a rule ('any', or proto/src/dst/sport/dport as in [filter])",
	.tokens = {(void *)&cmd_filter_filter, (void *)&cmd_filter_add, (void *)&cmd_filter_action,
		(void *)&cmd_filter_match, NULL},
};
static cmdline_parse_inst_t cmd_filter_del_inst = {
	.f = cmd_filter_del_parsed,
	.help_str = "filter del <n>: delete rule n (numbers as in filter show)",
	.tokens = {(void *)&cmd_filter_filter, (void *)&cmd_filter_del, (void *)&cmd_filter_n,
		NULL},
};
struct cmd_set_flowsort_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t flowsort;
	cmdline_fixed_string_t mode;
};

static void
cmd_set_flowsort_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_set_flowsort_result *r = res;
	struct fwd_app *app = data;
	enum flowsort_mode m;
	char err[256];

	if (rt_flow_mode_parse(r->mode, &m, err, sizeof(err)) < 0 ||
		fwd_flow_set_mode(app, m, err, sizeof(err)) < 0)
		fwd_cmds_say("flowsort not changed: %s\n", err);
	else
		printf("flowsort %s\n", r->mode);
}

static cmdline_parse_token_string_t cmd_set_flowsort_set =
	TOKEN_STRING_INITIALIZER(struct cmd_set_flowsort_result, set, "set");
static cmdline_parse_token_string_t cmd_set_flowsort_flowsort =
	TOKEN_STRING_INITIALIZER(struct cmd_set_flowsort_result, flowsort, "flowsort");
static cmdline_parse_token_string_t cmd_set_flowsort_mode =
	TOKEN_STRING_INITIALIZER(struct cmd_set_flowsort_result, mode, "on#off#auto");
static cmdline_parse_inst_t cmd_set_flowsort = {
	.f = cmd_set_flowsort_parsed,
	.help_str =
		"set flowsort on|off|auto: group bursts by flow in front of the flow table (while stopped)",
	.tokens = {(void *)&cmd_set_flowsort_set, (void *)&cmd_set_flowsort_flowsort,
		(void *)&cmd_set_flowsort_mode, NULL},
};
struct cmd_set_flow_table_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t key;
	cmdline_fixed_string_t mode;
};

static void
cmd_set_flow_table_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_set_flow_table_result *r = res;
	struct fwd_app *app = data;
	enum rt_flow_table_mode t;
	char err[256];

	if (rt_flow_table_parse(r->mode, &t, err, sizeof(err)) < 0 ||
		fwd_flow_set_table(app, t, err, sizeof(err)) < 0)
		fwd_cmds_say("flow-table not changed: %s\n", err);
	else
		printf("flow-table %s\n", r->mode);
}

static cmdline_parse_token_string_t cmd_set_flow_table_set =
	TOKEN_STRING_INITIALIZER(struct cmd_set_flow_table_result, set, "set");
static cmdline_parse_token_string_t cmd_set_flow_table_key =
	TOKEN_STRING_INITIALIZER(struct cmd_set_flow_table_result, key, "flow-table");
static cmdline_parse_token_string_t cmd_set_flow_table_mode =
	TOKEN_STRING_INITIALIZER(struct cmd_set_flow_table_result, mode, "on#off#auto");
static cmdline_parse_inst_t cmd_set_flow_table = {
	.f = cmd_set_flow_table_parsed,
	.help_str = "set flow-table on|off|auto: when the flow table runs: always (flow "
		    "statistics), never, or for filter rules and flowsort on (while stopped)",
	.tokens = {(void *)&cmd_set_flow_table_set, (void *)&cmd_set_flow_table_key,
		(void *)&cmd_set_flow_table_mode, NULL},
};
static cmdline_parse_inst_t cmd_filter_show_inst = {
	.f = cmd_filter_show_parsed,
	.help_str = "filter show: the rules in order (first match wins) with their packet counts",
	.tokens = {(void *)&cmd_filter_filter, (void *)&cmd_filter_show, NULL},
};

/*
 * "/forwarder/flows[,ORDER][,START]": flow-table counters per worker from the
 * START-th, paged, and (first page) the top flows by packets or bytes (ORDER)
 */
static int
tel_flows(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	enum rt_flow_order by = RT_FLOW_BY_PKTS;
	struct fwd_tel_page pg;
	uint64_t start = 0;

	if (params != NULL && *params != '\0') {
		const char *num = params;

		if (strncmp(params, "bytes", 5) == 0 || strncmp(params, "pkts", 4) == 0) {
			by = params[0] == 'b' ? RT_FLOW_BY_BYTES : RT_FLOW_BY_PKTS;
			num = params + (by == RT_FLOW_BY_BYTES ? 5 : 4);
			if (*num != '\0' && *num++ != ',')
				return -EINVAL;
		}
		if (*num != '\0' || num == params)
			if (fwd_tel_param_uint(num, UINT32_MAX, &start) < 0)
				return -EINVAL;
	}
	rte_tel_data_start_dict(d);
	/* flowsort, flows, flows_shown and the page tail */
	fwd_tel_page_init(&pg, cmd, 3 + FWD_TEL_LCORES_TAIL);
	fwd_flow_telemetry(app, d, by, &pg, (uint32_t)start);
	return 0;
}

/* the head of a /forwarder/filter page: rules, start, count, more, next */
#define TEL_FILTER_HEAD 5

/* "/forwarder/filter[,START]": the filter rules and their packet counts, paged */
static int
tel_filter(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fwd_tel_page pg;
	uint64_t start = 0;

	if (params != NULL && fwd_tel_param_uint(params, UINT32_MAX, &start) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	fwd_tel_page_init(&pg, cmd, TEL_FILTER_HEAD);
	fwd_flow_filter_telemetry(app, d, &pg, (uint32_t)start);
	return 0;
}

static cmdline_parse_ctx_t flow_cmds[] = {
	&cmd_show_flows,
	&cmd_show_flows_top,
	&cmd_show_flows_top_by,
	&cmd_filter_add_inst,
	&cmd_filter_del_inst,
	&cmd_filter_show_inst,
	&cmd_set_flowsort,
	&cmd_set_flow_table,
	NULL,
};

static const struct fwd_tel_endpoint flow_tel_endpoints[] = {
	{"/forwarder/flows", tel_flows,
		"--fwd route: flow-table use and counters per lcore, paged, and the top flows "
		"(top0..). "
		"Parameters: [pkts|bytes][,first worker]."},
	{"/forwarder/filter", tel_filter,
		"--fwd route: the filter rules (rule<N>: rule, pkts), paged; rules, count, more, "
		"next. Parameter: the first rule (default 0)."},
};

static struct fwd_component flow_component = {
	.name = "flow",
	.order = FWD_FLOW_ORDER,
	.ctx_size = sizeof(struct fwd_flow_ctx),
	.clear = fwd_flow_stats_reset,
	.cmds = flow_cmds,
	.tel = flow_tel_endpoints,
	.n_tel = RTE_DIM(flow_tel_endpoints),
};

FWD_COMPONENT_REGISTER(flow_component)

struct fwd_flow_ctx *
fwd_flow_ctx(const struct fwd_app *app)
{
	return fwd_component_ctx(app, &flow_component);
}

/* ctl is the slow path's: the flow stage does not use it */
static int
flow_part_setup(struct fwd_app *app, struct rt_control *ctl, char *err, size_t errlen)
{
	RTE_SET_USED(ctl);
	return fwd_flow_setup(app, err, errlen);
}

/* The router's part: the workers' flow stages and the filter, built once they route. */
static const struct fwd_route_part flow_part = {
	.name = "flow",
	.order = 10, /* before the twins, as the workers' is before the slow path's */
	.setup = flow_part_setup,
	.release = fwd_flow_detach,
	.free = fwd_flow_free,
	.print = fwd_flow_print,
	.json = fwd_flow_json,
};

FWD_ROUTE_PART_REGISTER(flow_part)
