/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_errno.h>

#include "fwd_component.h"
#include "fwd_nlsync.h"
#include "fwd_route.h"
#include "rt_fpm_ctl.h"
#include "rt_table.h"

/* The fpm component's context: the listener, and its counters kept at release. */
struct fpm_ctx {
	struct rt_fpm *fpm; /**< routes from FRR zebra over FPM, or NULL */
	struct fwd_sync_kept *kept;
};

static struct fwd_component fpm_component;

static struct fpm_ctx *
fpm(const struct fwd_app *app)
{
	return fwd_component_ctx(app, &fpm_component);
}

/*
 * Start the FPM listener of the config's fpm-listen (nothing without one),
 * in the twins' namespace when there is one: zebra runs beside bgpd.
 */
static int
fwd_fpm_setup(struct fwd_app *app, char *err, size_t errlen)
{
	const struct rt_config *cfg = &app->cfg.route;
	struct rt_nlsync_ifname names[RTE_MAX_ETHPORTS];
	unsigned int n;
	int ret;

	if (!cfg->has_fpm || fwd_route_table(app) == NULL)
		return 0;
	n = fwd_sync_ifnames(cfg, names);
	fpm(app)->fpm = rt_fpm_create(&(struct rt_fpm_params){
		.table = fwd_route_table(app),
		.addr = cfg->fpm_addr,
		.port = cfg->fpm_port,
		.sweep_ms = cfg->fpm_sweep_ms,
		.ifnames = names,
		.n_ifnames = n,
		/* zebra runs beside bgpd, on the twins: its interfaces and addresses are there */
		.netns = cfg->has_twin_netns ? cfg->twin_netns : NULL,
		.allow = cfg->fpm_allow,
		.n_allow = cfg->n_fpm_allow,
	});
	if (fpm(app)->fpm == NULL) {
		snprintf(err, errlen, "fpm: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ret = rt_fpm_start(fpm(app)->fpm, err, errlen);
	if (ret < 0) {
		rt_fpm_free(fpm(app)->fpm);
		fpm(app)->fpm = NULL;
	}
	return ret;
}

/* Stop and free the listener (its routes stay), its final counters kept for the stats file. */
static void
fwd_fpm_release(struct fwd_app *app)
{
	struct rt_nlsync_counter c[RT_FPM_COUNTERS_MAX];
	const char *state;
	char where[32];
	unsigned int n;

	if (fpm(app)->fpm == NULL)
		return;
	/* the state it ran in, the counters once its thread has stopped writing them */
	state = rt_fpm_state(fpm(app)->fpm);
	(void)rt_fpm_stop(fpm(app)->fpm);
	n = rt_fpm_counters(fpm(app)->fpm, c, RTE_DIM(c));
	free(fpm(app)->kept);
	fpm(app)->kept = fwd_sync_keep(rt_fpm_where(fpm(app)->fpm, where, sizeof(where)), state, c,
		RTE_MIN(n, (unsigned int)RTE_DIM(c)));
	rt_fpm_free(fpm(app)->fpm);
	fpm(app)->fpm = NULL;
}

/* The shell's show fpm: address, state, counters by reason. */
static void
fwd_fpm_show(const struct fwd_app *app, FILE *f)
{
	struct rt_nlsync_counter c[RT_FPM_COUNTERS_MAX];
	char where[32];
	unsigned int n;

	if (fpm(app)->fpm == NULL) {
		fprintf(f, "no fpm listener: give [route] fpm-listen in the config\n");
		return;
	}
	fprintf(f, "fpm: listening on %s, %s\n", rt_fpm_where(fpm(app)->fpm, where, sizeof(where)),
		rt_fpm_state(fpm(app)->fpm));
	n = RTE_MIN(rt_fpm_counters(fpm(app)->fpm, c, RTE_DIM(c)), (unsigned int)RTE_DIM(c));
	fwd_sync_counters_print(f, c, n);
}

/* ---- the component: show fpm, /forwarder/fpm ---- */

struct cmd_fpm_result {
	cmdline_fixed_string_t a;
	cmdline_fixed_string_t b;
};

static void
cmd_show_fpm_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	if (fwd_route_table(app) == NULL)
		printf("not routing: start the forwarder with --fwd route\n");
	else
		fwd_fpm_show(app, stdout);
}

static cmdline_parse_token_string_t cmd_show_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_fpm_result, a, "show");
static cmdline_parse_token_string_t cmd_show_what_fpm =
	TOKEN_STRING_INITIALIZER(struct cmd_fpm_result, b, "fpm");
static cmdline_parse_inst_t cmd_show_fpm = {
	.f = cmd_show_fpm_parsed,
	.help_str = "show fpm: the FPM listener (routes from FRR zebra): state, connects, "
		    "messages received, applied, rejected and refused by reason, next hops, "
		    "resyncs, routes swept",
	.tokens = {(void *)&cmd_show_tok, (void *)&cmd_show_what_fpm, NULL},
};

static cmdline_parse_ctx_t fpm_cmds[] = {
	(cmdline_parse_inst_t *)&cmd_show_fpm,
	NULL,
};

/* "/forwarder/fpm": what "show fpm" prints; framing, rejected, refused, nh_rejected are dicts */
static int
tel_fpm(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rt_nlsync_counter c[RT_FPM_COUNTERS_MAX];
	char where[32];
	unsigned int n;

	RTE_SET_USED(cmd);
	if (params != NULL && *params != '\0')
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (fpm(app)->fpm == NULL) {
		rte_tel_data_add_dict_string(d, "state", "none");
		return 0;
	}
	rte_tel_data_add_dict_string(
		d, "listen", rt_fpm_where(fpm(app)->fpm, where, sizeof(where)));
	rte_tel_data_add_dict_string(d, "state", rt_fpm_state(fpm(app)->fpm));
	n = rt_fpm_counters(fpm(app)->fpm, c, RTE_DIM(c));
	fwd_sync_counters_tel(d, c, RTE_MIN(n, (unsigned int)RTE_DIM(c)));
	return 0;
}

static const struct fwd_tel_endpoint fpm_tel[] = {
	{"/forwarder/fpm", tel_fpm,
		"--fwd route: FPM (routes from FRR zebra): state, connects, received, applied, "
		"refusals by reason, swept. No parameters."},
};

static void
fpm_release(struct fwd_app *app, int *missing)
{
	RTE_SET_USED(missing); /* it holds no mbuf */
	fwd_fpm_release(app);
}

static void
fpm_free(struct fwd_app *app)
{
	fwd_fpm_release(app);
	free(fpm(app)->kept);
	fpm(app)->kept = NULL;
}

static void
fpm_json(const struct fwd_app *app, FILE *f)
{
	fwd_sync_kept_json(f, "fpm", "listen", fpm(app)->kept);
}

static struct fwd_component fpm_component = {
	.name = "fpm",
	/* after the router (its table, the twins' namespace), released before it */
	.order = FWD_ROUTE_ORDER + 20,
	.ctx_size = sizeof(struct fpm_ctx),
	.setup = fwd_fpm_setup,
	.release = fpm_release,
	.free = fpm_free,
	.json = fpm_json,
	.cmds = fpm_cmds,
	.tel = fpm_tel,
	.n_tel = RTE_DIM(fpm_tel),
};

FWD_COMPONENT_REGISTER(fpm_component)
