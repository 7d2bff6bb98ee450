/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "fwd_log.h"
#include "fwd_nlsync.h"
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

int
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

void
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

int
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

void
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
