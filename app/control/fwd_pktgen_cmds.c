/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The generator (--fwd pktgen) as a component (fwd_component.h): its shell
 * commands, /forwarder/pktgen, its set-up, the check of its pools at
 * release, its statistics lines and stats-file member, its once-a-second
 * word on a rate it cannot reach, and the end of a counted run. The
 * generators themselves are fwd_pktgen.c's.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_telemetry.h>

#include "pktgen.h"

#include "fwd_cmds.h"
#include "fwd_component.h"
#include "fwd_ctl.h"
#include "fwd_pktgen.h"
#include "fwd_tel_page.h"

/* ---- pktgen set|start|stop|clear, show pktgen ---- */

struct cmd_pktgen_result {
	cmdline_fixed_string_t pktgen;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t key;
	cmdline_fixed_string_t value;
};

static bool
generating(const struct fwd_app *app)
{
	if (app->cfg.mode != FWD_MODE_PKTGEN)
		printf(fwd_pktgen_ready(app)
				? "not generating: set fwd pktgen first\n"
				: "not generating: start the forwarder with --fwd pktgen\n");
	return app->cfg.mode == FWD_MODE_PKTGEN;
}

static void
cmd_pktgen_set_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data;
	struct cmd_pktgen_result *r = res;
	struct pktgen_stream_cfg saved = app->cfg.pktgen;
	char err[256];
	int ret;

	if (!generating(app))
		return;
	ret = pktgen_stream_set(&app->cfg.pktgen, r->key, r->value, err, sizeof(err));
	if (ret == -ENOENT) {
		fwd_cmds_say("unknown key '%s'; the keys:\n", r->key);
		pktgen_stream_help(stdout);
		return;
	}
	if (ret < 0) {
		fwd_cmds_say("%s\n", err);
		return;
	}
	/* the generators are built from the stream: new ones replace them */
	ret = fwd_pktgen_rebuild(app, &saved, err, sizeof(err));
	if (ret < 0) {
		fwd_cmds_say("%s; keeping the previous stream\n", err);
		app->cfg.pktgen = saved;
	} else {
		fwd_cmds_say("pktgen %s = %s\n", r->key, r->value);
	}
}

static void
cmd_pktgen_op_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data;
	struct cmd_pktgen_result *r = res;

	if (!generating(app))
		return;
	if (strcmp(r->op, "start") == 0) {
		const bool was_running = fwd_ctl_pause_generators_end(app);

		fwd_pktgen_restart(app); /* the whole count again, sequence numbers from 0 */
		/* generating already: the same run goes on; else this starts one */
		if (was_running)
			fwd_ctl_resume(app, true);
		else
			fwd_ctl_start(app);
		printf("generating\n");
	} else if (strcmp(r->op, "stop") == 0) {
		fwd_ctl_stop(app); /* settles every clone reference */
		printf("generator stopped\n");
	} else {
		fwd_pktgen_clear(app);
		printf("receive-side counters cleared\n");
	}
}

static void
cmd_show_pktgen_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data;
	if (!generating(app))
		return;
	pktgen_stream_print(&app->cfg.pktgen, stdout);
	fwd_pktgen_print(app, stdout);
}

static cmdline_parse_token_string_t cmd_pktgen_pktgen =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, pktgen, "pktgen");
static cmdline_parse_token_string_t cmd_pktgen_set =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, op, "set");
static cmdline_parse_token_string_t cmd_pktgen_ops =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, op, "start#stop#clear");
static cmdline_parse_token_string_t cmd_pktgen_key =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, key, NULL);
static cmdline_parse_token_string_t cmd_pktgen_value =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, value, NULL);
static cmdline_parse_inst_t cmd_pktgen_set_inst = {
	.f = cmd_pktgen_set_parsed,
	.help_str = "pktgen set <key> <value>: change the stream (keys as in [pktgen]; an unknown "
		    "key lists them)",
	.tokens = {(void *)&cmd_pktgen_pktgen, (void *)&cmd_pktgen_set, (void *)&cmd_pktgen_key,
		(void *)&cmd_pktgen_value, NULL},
};
static cmdline_parse_inst_t cmd_pktgen_op_inst = {
	.f = cmd_pktgen_op_parsed,
	.help_str = "pktgen start|stop|clear: send the stream from the start, stop (settling "
		    "every reference), zero the receive side",
	.tokens = {(void *)&cmd_pktgen_pktgen, (void *)&cmd_pktgen_ops, NULL},
};
static cmdline_parse_token_string_t cmd_pktgen_show =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, pktgen, "show");
static cmdline_parse_token_string_t cmd_show_what_pktgen =
	TOKEN_STRING_INITIALIZER(struct cmd_pktgen_result, op, "pktgen");
static cmdline_parse_inst_t cmd_show_pktgen = {
	.f = cmd_show_pktgen_parsed,
	.help_str = "show pktgen: the stream, and the generator's and receive side's counters",
	.tokens = {(void *)&cmd_pktgen_show, (void *)&cmd_show_what_pktgen, NULL},
};

static cmdline_parse_ctx_t pktgen_cmds[] = {
	(cmdline_parse_inst_t *)&cmd_pktgen_set_inst,
	(cmdline_parse_inst_t *)&cmd_pktgen_op_inst,
	(cmdline_parse_inst_t *)&cmd_show_pktgen,
	NULL,
};

static bool
tel_pktgen_fill(struct rte_tel_data *one, const struct fwd_lcore *lc, size_t *b)
{
	struct pktgen_tx_stats ts;
	struct pktgen_rx_stats rs;
	uint64_t hist[PKTGEN_HIST_BUCKETS];
	unsigned int k;

	if (lc->pg == NULL || lc->pg_rx == NULL)
		return false;
	pktgen_lcore_stats(lc->pg, &ts);
	pktgen_rx_stats(lc->pg_rx, &rs);
	for (k = 0; k < PKTGEN_TX_STAT_MAX; k++)
		fwd_tel_u64(one, b, pktgen_tx_stat_names[k], pktgen_tx_stat(&ts, k));
	for (k = 0; k < PKTGEN_RX_STAT_MAX; k++)
		fwd_tel_u64(one, b, pktgen_rx_stat_names[k], pktgen_rx_stat(&rs, k));
	/*
	 * The stats file's lat_hist beside lat_min/avg/max_ns, flat (DPDK 22.11
	 * nests one level: no array in a worker's dict): lat_hist_0 counts 0 ns,
	 * lat_hist_<i> [2^(i-1), 2^i) ns, the last everything above; and their
	 * exact sum, which an exporter's histogram needs.
	 */
	pktgen_rx_hist(lc->pg_rx, hist);
	for (k = 0; k < PKTGEN_HIST_BUCKETS; k++) {
		char key[16];

		snprintf(key, sizeof(key), "lat_hist_%u", k);
		fwd_tel_u64(one, b, key, hist[k]);
	}
	fwd_tel_u64(one, b, "lat_sum_ns", pktgen_rx_lat_sum_ns(lc->pg_rx));
	return true;
}

/* "/forwarder/pktgen[,START]": the generator's counters per worker, from the START-th */
static int
tel_pktgen(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct fwd_tel_page pg;
	uint64_t start = 0;

	if (params != NULL && fwd_tel_param_uint(params, UINT32_MAX, &start) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (app->cfg.mode == FWD_MODE_PKTGEN) {
		fwd_tel_page_init(&pg, cmd, FWD_TEL_LCORES_TAIL);
		fwd_tel_lcore_page(app, d, &pg, start, tel_pktgen_fill);
	}
	return 0;
}

static const struct fwd_tel_endpoint pktgen_tel[] = {
	{"/forwarder/pktgen", tel_pktgen,
		"--fwd pktgen: generator and receive-side counters per lcore, paged (next). "
		"Parameter: the first worker (default 0)."},
};

static int
pktgen_setup(struct fwd_app *app, char *err, size_t errlen)
{
	return app->cfg.mode == FWD_MODE_PKTGEN ? fwd_pktgen_setup(app, err, errlen) : 0;
}

static void
pktgen_print(struct fwd_app *app, FILE *f, bool final)
{
	RTE_SET_USED(final);
	fwd_pktgen_print(app, f);
}

static bool
pktgen_done(const struct fwd_app *app)
{
	return app->cfg.mode == FWD_MODE_PKTGEN && fwd_pktgen_done(app);
}

/* The generators (their fragpools, sized at start) and the receive sides exist only if it ran from the start. */
static int
pktgen_mode_check(const struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen)
{
	if (mode != FWD_MODE_PKTGEN || fwd_pktgen_ready(app))
		return 0;
	snprintf(err, errlen,
		"pktgen mode must be chosen at start (--fwd pktgen): it sets up the "
		"generators, their fragpools and the receive sides");
	return -ENOTSUP;
}

static struct fwd_component pktgen_component = {
	.name = "pktgen",
	.order = 200, /* after the router's (the modes exclude each other) */
	.setup = pktgen_setup,
	/* its pools are its own: settled on stop, checked once the ports are closed */
	.release = fwd_pktgen_check,
	.free = fwd_pktgen_free,
	.print = pktgen_print,
	.json = fwd_pktgen_json,
	.tick = fwd_pktgen_watch,
	.done = pktgen_done,
	.mode_check = pktgen_mode_check,
	.cmds = pktgen_cmds,
	.tel = pktgen_tel,
	.n_tel = RTE_DIM(pktgen_tel),
};

FWD_COMPONENT_REGISTER(pktgen_component)
