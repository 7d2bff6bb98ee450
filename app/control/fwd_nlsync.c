/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_errno.h>

#include "dpdk_compat.h"
#include "fwd_component.h"
#include "fwd_log.h"
#include "fwd_nlsync.h"
#include "fwd_route.h"
#include "fwd_stats.h"
#include "rt_nlsync_ctl.h"
#include "rt_table.h"

/* how long the start-up waits for the first dump (a full table takes seconds) */
#define FWD_NLSYNC_WAIT_MS 30000

unsigned int
fwd_sync_ifnames(const struct rt_config *cfg, struct rt_nlsync_ifname *names)
{
	unsigned int n = 0;
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		if (cfg->ports[p].nl_ifname[0] == '\0')
			continue;
		snprintf(names[n].name, sizeof(names[n].name), "%s", cfg->ports[p].nl_ifname);
		names[n++].port = p;
	}
	return n;
}

/*
 * Start the sync of the config's netlink-netns with its [port N]
 * netlink-ifname map (nothing without one), after the table has its ports,
 * routes and files; the start-up waits for the first dump.
 */
static int
fwd_nlsync_setup(struct fwd_app *app, char *err, size_t errlen)
{
	const struct rt_config *cfg = &app->cfg.route;
	struct rt_nlsync_ifname names[RTE_MAX_ETHPORTS];
	unsigned int n;
	int ret;

	if (!cfg->has_netlink || app->rt == NULL)
		return 0;
	n = fwd_sync_ifnames(cfg, names);
	app->rt_nlsync = rt_nlsync_create(&(struct rt_nlsync_params){
		.table = app->rt,
		.netns = cfg->netlink_netns,
		.ifnames = names,
		.n_ifnames = n,
		.rcvbuf = cfg->netlink_rcvbuf,
	});
	if (app->rt_nlsync == NULL) {
		snprintf(err, errlen, "netlink sync: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ret = rt_nlsync_start(app->rt_nlsync, err, errlen);
	if (ret < 0) {
		rt_nlsync_free(app->rt_nlsync);
		app->rt_nlsync = NULL;
		return ret;
	}
	/* forwarding starts with the namespace's table in place, not with a part of it */
	if (rt_nlsync_wait(app->rt_nlsync, FWD_NLSYNC_WAIT_MS) < 0)
		FWD_LOG(WARNING,
			"netlink: the first dump is not done after %u ms: forwarding "
			"starts meanwhile\n",
			FWD_NLSYNC_WAIT_MS);
	return 0;
}

struct fwd_sync_kept *
fwd_sync_keep(
	const char *where, const char *state, const struct rt_nlsync_counter *c, unsigned int n)
{
	struct fwd_sync_kept *k = calloc(1, sizeof(*k));

	if (k == NULL)
		return NULL;
	snprintf(k->where, sizeof(k->where), "%s", where);
	k->state = state;
	k->n = RTE_MIN(n, (unsigned int)RTE_DIM(k->c));
	memcpy(k->c, c, k->n * sizeof(*c));
	return k;
}

/* Stop and free the sync (its routes stay), its final counters kept for the stats file. */
static void
fwd_nlsync_release(struct fwd_app *app)
{
	struct rt_nlsync_counter c[RT_NLSYNC_COUNTERS_MAX];
	const char *state;
	unsigned int n;

	if (app->rt_nlsync == NULL)
		return;
	/* the state it ran in, the counters once its thread has stopped writing them */
	state = rt_nlsync_state(app->rt_nlsync);
	(void)rt_nlsync_stop(app->rt_nlsync);
	n = rt_nlsync_counters(app->rt_nlsync, c, RTE_DIM(c));
	free(app->rt_nlsync_kept);
	app->rt_nlsync_kept = fwd_sync_keep(
		rt_nlsync_netns(app->rt_nlsync), state, c, RTE_MIN(n, (unsigned int)RTE_DIM(c)));
	rt_nlsync_free(app->rt_nlsync);
	app->rt_nlsync = NULL;
}

/* The shell's netlink start|stop|resync (@p op), said on @p out. */
static int
fwd_nlsync_op(struct fwd_app *app, const char *op, FILE *out)
{
	char err[RT_ERR_LEN];
	int ret;

	if (app->rt_nlsync == NULL) {
		fprintf(out, "no netlink sync: give [route] netlink-netns in the config\n");
		return -ENOTCONN;
	}
	if (strcmp(op, "start") == 0) {
		ret = rt_nlsync_start(app->rt_nlsync, err, sizeof(err));
		if (ret < 0)
			fprintf(out, "netlink start: %s\n", err);
		else
			fprintf(out, "netlink sync started: a dump, then the sweep of what went\n");
	} else if (strcmp(op, "stop") == 0) {
		ret = rt_nlsync_stop(app->rt_nlsync);
		fprintf(out,
			ret < 0 ? "netlink sync not running\n"
				: "netlink sync stopped: its routes stay until the next start\n");
	} else {
		ret = rt_nlsync_resync(app->rt_nlsync);
		fprintf(out, ret < 0 ? "netlink sync not running: netlink start\n"
				     : "netlink resync asked\n");
	}
	return ret;
}

/* The shell's show netlink: namespace, state, counters by reason. */
static void
fwd_nlsync_show(const struct fwd_app *app, FILE *f)
{
	struct rt_nlsync_counter c[RT_NLSYNC_COUNTERS_MAX];
	const char *ns;
	unsigned int n;

	if (app->rt_nlsync == NULL) {
		fprintf(f, "no netlink sync: give [route] netlink-netns in the config\n");
		return;
	}
	ns = rt_nlsync_netns(app->rt_nlsync);
	fprintf(f, "netlink: namespace %s, %s\n", ns[0] != '\0' ? ns : "(own)",
		rt_nlsync_state(app->rt_nlsync));
	n = RTE_MIN(rt_nlsync_counters(app->rt_nlsync, c, RTE_DIM(c)), (unsigned int)RTE_DIM(c));
	fwd_sync_counters_print(f, c, n);
}

void
fwd_sync_counters_print(FILE *f, const struct rt_nlsync_counter *c, unsigned int n)
{
	const char *group = NULL;
	unsigned int i;

	/* the plain counters on one line, then a line a group: "rejected: other_table 7 ..." */
	for (i = 0; i < n; i++) {
		if (c[i].group != group) {
			fprintf(f, "\n%s:", c[i].group);
			group = c[i].group;
		}
		fprintf(f, "%s%s %" PRIu64, i == 0 ? "" : " ", c[i].name, c[i].value);
	}
	fprintf(f, "\n");
}

void
fwd_sync_counters_tel(struct rte_tel_data *d, const struct rt_nlsync_counter *c, unsigned int n)
{
	struct rte_tel_data *sub = NULL;
	const char *group = NULL;
	unsigned int i;

	for (i = 0; i <= n; i++) {
		if (sub != NULL && (i == n || c[i].group != group)) {
			rte_tel_data_add_dict_container(d, group, sub, 0);
			sub = NULL;
		}
		if (i == n)
			break;
		if (c[i].group == NULL) {
			rte_tel_data_add_dict_u64(d, c[i].name, c[i].value);
			continue;
		}
		if (sub == NULL) {
			sub = rte_tel_data_alloc();
			if (sub == NULL)
				return;
			rte_tel_data_start_dict(sub);
			group = c[i].group;
		}
		rte_tel_data_add_dict_u64(sub, c[i].name, c[i].value);
	}
}

void
fwd_sync_kept_json(FILE *f, const char *key, const char *where_key, const struct fwd_sync_kept *k)
{
	const char *group = NULL;
	unsigned int i;

	if (k == NULL)
		return;
	fprintf(f, "  \"%s\": {\"%s\": ", key, where_key);
	fwd_stats_json_string(f, k->where);
	fprintf(f, ", \"state\": \"%s\"", k->state);
	for (i = 0; i < k->n; i++) {
		const char *sep = ", ";

		if (k->c[i].group != group) {
			if (group != NULL)
				fprintf(f, "}");
			group = k->c[i].group;
			if (group != NULL) {
				fprintf(f, ", \"%s\": {", group);
				sep = "";
			}
		}
		fprintf(f, "%s\"%s\": %" PRIu64, sep, k->c[i].name, k->c[i].value);
	}
	fprintf(f, "%s},\n", group != NULL ? "}" : "");
}

/* ---- the component: netlink start|stop|resync, show netlink, /forwarder/netlink ---- */

struct cmd_netlink_result {
	cmdline_fixed_string_t a;
	cmdline_fixed_string_t b;
};

/* The sync's commands answer in route mode only, as the router's own do. */
static bool
routing(const struct fwd_app *app)
{
	if (app->rt == NULL)
		printf("not routing: start the forwarder with --fwd route\n");
	return app->rt != NULL;
}

static void
cmd_netlink_op_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_netlink_result *r = res;
	struct fwd_app *app = data;

	RTE_SET_USED(cl);
	if (routing(app))
		fwd_nlsync_op(app, r->b, stdout);
}

static void
cmd_show_netlink_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	if (routing(app))
		fwd_nlsync_show(app, stdout);
}

static cmdline_parse_token_string_t cmd_netlink_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_netlink_result, a, "netlink");
static cmdline_parse_token_string_t cmd_netlink_ops =
	TOKEN_STRING_INITIALIZER(struct cmd_netlink_result, b, "start#stop#resync");
static cmdline_parse_inst_t cmd_netlink_op = {
	.f = cmd_netlink_op_parsed,
	.help_str = "netlink start|stop|resync: the sync of [route] netlink-netns; stop keeps its "
		    "routes, start and resync dump the FIB and sweep the stale ones",
	.tokens = {(void *)&cmd_netlink_tok, (void *)&cmd_netlink_ops, NULL},
};
static cmdline_parse_token_string_t cmd_show_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_netlink_result, a, "show");
static cmdline_parse_token_string_t cmd_show_what_netlink =
	TOKEN_STRING_INITIALIZER(struct cmd_netlink_result, b, "netlink");
static cmdline_parse_inst_t cmd_show_netlink = {
	.f = cmd_show_netlink_parsed,
	.help_str = "show netlink: the netlink route sync: state, messages received, applied, "
		    "rejected and refused by reason, resyncs, routes swept",
	.tokens = {(void *)&cmd_show_tok, (void *)&cmd_show_what_netlink, NULL},
};

static cmdline_parse_ctx_t netlink_cmds[] = {
	(cmdline_parse_inst_t *)&cmd_netlink_op,
	(cmdline_parse_inst_t *)&cmd_show_netlink,
	NULL,
};

/* "/forwarder/netlink": what "show netlink" prints; rejected and refused are dicts by reason */
static int
tel_netlink(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rt_nlsync_counter c[RT_NLSYNC_COUNTERS_MAX];
	unsigned int n;

	RTE_SET_USED(cmd);
	if (params != NULL && *params != '\0')
		return -EINVAL;
	rte_tel_data_start_dict(d);
	if (app->rt_nlsync == NULL) {
		rte_tel_data_add_dict_string(d, "state", "none");
		return 0;
	}
	rte_tel_data_add_dict_string(d, "netns", rt_nlsync_netns(app->rt_nlsync));
	rte_tel_data_add_dict_string(d, "state", rt_nlsync_state(app->rt_nlsync));
	n = rt_nlsync_counters(app->rt_nlsync, c, RTE_DIM(c));
	fwd_sync_counters_tel(d, c, RTE_MIN(n, (unsigned int)RTE_DIM(c)));
	return 0;
}

static const struct fwd_tel_endpoint netlink_tel[] = {
	{"/forwarder/netlink", tel_netlink,
		"--fwd route: the netlink route sync: state, received, applied, rejected and "
		"refused by reason, resyncs, swept. No parameters."},
};

static void
netlink_release(struct fwd_app *app, int *missing)
{
	RTE_SET_USED(missing); /* it holds no mbuf */
	fwd_nlsync_release(app);
}

static void
netlink_free(struct fwd_app *app)
{
	fwd_nlsync_release(app);
	free(app->rt_nlsync_kept);
	app->rt_nlsync_kept = NULL;
}

static void
netlink_json(const struct fwd_app *app, FILE *f)
{
	fwd_sync_kept_json(f, "netlink", "netns", app->rt_nlsync_kept);
}

static struct fwd_component netlink_component = {
	.name = "netlink",
	/* after the router (its table, the ports' networks), released before it */
	.order = FWD_ROUTE_ORDER + 10,
	.setup = fwd_nlsync_setup,
	.release = netlink_release,
	.free = netlink_free,
	.json = netlink_json,
	.cmds = netlink_cmds,
	.tel = netlink_tel,
	.n_tel = RTE_DIM(netlink_tel),
};

FWD_COMPONENT_REGISTER(netlink_component)
