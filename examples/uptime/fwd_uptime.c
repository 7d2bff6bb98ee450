/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The worked example of docs/architecture.md ("Components"): a feature that
 * is one component in one folder. How long the forwarder has been up:
 * `show uptime`, /forwarder/uptime, a line in the final statistics; `clear
 * fwd stats` starts it again. Not in the forwarder (its folder is not under
 * app/): unit-example links it beside the real components and drives it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "fwd_component.h"

/* Its state, in the app: zeroed before set-up, freed after teardown. */
struct uptime_ctx {
	time_t since; /* CLOCK_MONOTONIC seconds at set-up or at the last clear */
};

static struct fwd_component uptime_component;

static struct uptime_ctx *
ctx(const struct fwd_app *app)
{
	return fwd_component_ctx(app, &uptime_component);
}

static time_t
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static uint64_t
seconds(const struct fwd_app *app)
{
	return (uint64_t)(now() - ctx(app)->since);
}

static int
uptime_setup(struct fwd_app *app, char *err, size_t errlen)
{
	RTE_SET_USED(err);
	RTE_SET_USED(errlen);
	ctx(app)->since = now();
	return 0;
}

static void
uptime_clear(struct fwd_app *app)
{
	ctx(app)->since = now();
}

static void
uptime_print(struct fwd_app *app, FILE *f, bool final)
{
	if (final)
		fprintf(f, "uptime: %" PRIu64 " s\n", seconds(app));
}

struct cmd_uptime_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t uptime;
};

static void
cmd_show_uptime_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data; /* every component command's data is the app */

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	printf("up %" PRIu64 " s\n", seconds(app));
}

static cmdline_parse_token_string_t cmd_show_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_uptime_result, show, "show");
static cmdline_parse_token_string_t cmd_uptime_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_uptime_result, uptime, "uptime");
static cmdline_parse_inst_t cmd_show_uptime = {
	.f = cmd_show_uptime_parsed,
	.help_str = "show uptime: seconds since start-up or the last clear fwd stats",
	.tokens = {(void *)&cmd_show_tok, (void *)&cmd_uptime_tok, NULL},
};

static cmdline_parse_ctx_t uptime_cmds[] = {(cmdline_parse_inst_t *)&cmd_show_uptime, NULL};

static int
tel_uptime(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	if (params != NULL && *params != '\0')
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "seconds", seconds(app));
	return 0;
}

static const struct fwd_tel_endpoint uptime_tel[] = {
	{"/forwarder/uptime", tel_uptime,
		"Seconds since start-up or the last clear. No parameters."},
};

static struct fwd_component uptime_component = {
	.name = "uptime",
	.order = 800, /* after the modes' components: its line comes after theirs */
	.ctx_size = sizeof(struct uptime_ctx),
	.setup = uptime_setup,
	.clear = uptime_clear,
	.print = uptime_print,
	.cmds = uptime_cmds,
	.tel = uptime_tel,
	.n_tel = RTE_DIM(uptime_tel),
};

FWD_COMPONENT_REGISTER(uptime_component)
