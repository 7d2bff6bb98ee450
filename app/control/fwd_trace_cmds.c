/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The packet trace as a component (fwd_component.h): its shell commands
 * (trace start|stop|clear, show trace), its telemetry endpoint
 * (/forwarder/trace) and its teardown, registered from here. What they call
 * is fwd_trace_ctl.c's; the records are the workers' (datapath/fwd_trace.h).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_telemetry.h>

#include "numparse.h"

#include "fwd_component.h"
#include "fwd_escape.h"
#include "fwd_tel_page.h"
#include "fwd_trace.h"
#include "fwd_trace_ctl.h"

struct cmd_trace_result {
	cmdline_fixed_string_t trace;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t n;
	cmdline_fixed_string_t port;
	cmdline_fixed_string_t which;
};

static void
cmd_trace_start_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_trace_result *r = res;
	struct fwd_app *app = data;
	uint16_t port = FWD_TRACE_ANY_PORT;
	char err[FWD_ERR_LEN];
	uint64_t n;

	if (num_u64(r->n, 1, FWD_TRACE_MAX, &n) < 0) {
		fwd_fprintf_escaped(stdout,
			"trace start: bad count '%s': expected 1 to %d packets\n", r->n,
			FWD_TRACE_MAX);
		return;
	}
	if (r->port[0] != '\0') {
		uint64_t p;

		if (num_u64(r->which, 0, app->nb_ports - 1, &p) < 0) {
			fwd_fprintf_escaped(stdout,
				"trace start: bad port '%s': expected a port number from 0 to %u\n",
				r->which, app->nb_ports - 1);
			return;
		}
		port = (uint16_t)p;
	}
	if (fwd_trace_ctl_start(app, (uint32_t)n, port, err, sizeof(err)) < 0) {
		printf("trace start: %s\n", err);
		return;
	}
	if (port == FWD_TRACE_ANY_PORT)
		printf("tracing the next %" PRIu64 " packets\n", n);
	else
		printf("tracing the next %" PRIu64 " packets received on port %u\n", n, port);
}

static void
cmd_trace_op_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_trace_result *r = res;
	struct fwd_app *app = data;

	if (strcmp(r->op, "stop") == 0) {
		fwd_trace_ctl_stop(app);
		printf("trace stopped\n");
	} else {
		fwd_trace_ctl_clear(app);
		printf("trace cleared\n");
	}
}

static void
cmd_show_trace_parsed(void *res, struct cmdline *cl, void *data)
{
	const struct fwd_app *app = data;

	fwd_trace_ctl_show(app, stdout);
}

static cmdline_parse_token_string_t cmd_trace_trace =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, trace, "trace");
static cmdline_parse_token_string_t cmd_trace_start =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, op, "start");
static cmdline_parse_token_string_t cmd_trace_ops =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, op, "stop#clear");
static cmdline_parse_token_string_t cmd_trace_n =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, n, NULL);
static cmdline_parse_token_string_t cmd_trace_port =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, port, "port");
static cmdline_parse_token_string_t cmd_trace_which =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, which, NULL);
static cmdline_parse_inst_t cmd_trace_start_inst = {
	.f = cmd_trace_start_parsed,
	.help_str = "trace start <n>: record the stages of the next n packets (1-256), cleared "
		    "first; show trace prints them",
	.tokens = {(void *)&cmd_trace_trace, (void *)&cmd_trace_start, (void *)&cmd_trace_n, NULL},
};
static cmdline_parse_inst_t cmd_trace_start_port_inst = {
	.f = cmd_trace_start_parsed,
	.help_str = "trace start <n> port <port>: the same, for packets received on that port only",
	.tokens = {(void *)&cmd_trace_trace, (void *)&cmd_trace_start, (void *)&cmd_trace_n,
		(void *)&cmd_trace_port, (void *)&cmd_trace_which, NULL},
};
static cmdline_parse_inst_t cmd_trace_op_inst = {
	.f = cmd_trace_op_parsed,
	.help_str = "trace stop|clear: stop recording (the records stay), or empty the records",
	.tokens = {(void *)&cmd_trace_trace, (void *)&cmd_trace_ops, NULL},
};
static cmdline_parse_token_string_t cmd_show_show =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, trace, "show");
static cmdline_parse_token_string_t cmd_show_what_trace =
	TOKEN_STRING_INITIALIZER(struct cmd_trace_result, op, "trace");
static cmdline_parse_inst_t cmd_show_trace = {
	.f = cmd_show_trace_parsed,
	.help_str =
		"show trace: the traced packets, one line per stage (headers, flow group, route, "
		"next hop, neighbour, punt, fragment, ICMP, drop, tx)",
	.tokens = {(void *)&cmd_show_show, (void *)&cmd_show_what_trace, NULL},
};

static cmdline_parse_ctx_t trace_cmds[] = {
	&cmd_trace_start_inst,
	&cmd_trace_start_port_inst,
	&cmd_trace_op_inst,
	&cmd_show_trace,
	NULL,
};

/* "/forwarder/trace[,START]": what "show trace" prints, a packet an array of lines, paged */
static int
trace_tel(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint64_t start = 0;

	if (params != NULL && fwd_tel_param_uint(params, UINT32_MAX, &start) < 0)
		return -EINVAL;
	fwd_trace_ctl_telemetry(app, d, cmd, (uint32_t)start);
	return 0;
}

static const struct fwd_tel_endpoint trace_tel_endpoints[] = {
	{"/forwarder/trace", trace_tel,
		"The packet trace: counts, packet<N> (show trace lines) as many as a reply holds; "
		"count, more, next. Parameter: first packet."},
};

static struct fwd_component trace_component = {
	.name = "trace",
	.order = 900, /* after the modes' own commands in the shell's help */
	.free = fwd_trace_ctl_free,
	.cmds = trace_cmds,
	.tel = trace_tel_endpoints,
	.n_tel = RTE_DIM(trace_tel_endpoints),
};

FWD_COMPONENT_REGISTER(trace_component)
