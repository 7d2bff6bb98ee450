/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_errno.h>

#include "fwd_fpm.h"
#include "fwd_nlsync.h"
#include "rt_fpm_ctl.h"
#include "rt_table.h"

int
fwd_fpm_setup(struct fwd_app *app, char *err, size_t errlen)
{
	const struct rt_config *cfg = &app->cfg.route;
	struct rt_nlsync_ifname names[RTE_MAX_ETHPORTS];
	unsigned int n;
	int ret;

	if (!cfg->has_fpm || app->rt == NULL)
		return 0;
	n = fwd_sync_ifnames(cfg, names);
	app->rt_fpm = rt_fpm_create(&(struct rt_fpm_params){
		.table = app->rt,
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
	if (app->rt_fpm == NULL) {
		snprintf(err, errlen, "fpm: %s", rte_strerror(rte_errno));
		return -rte_errno;
	}
	ret = rt_fpm_start(app->rt_fpm, err, errlen);
	if (ret < 0) {
		rt_fpm_free(app->rt_fpm);
		app->rt_fpm = NULL;
	}
	return ret;
}

void
fwd_fpm_release(struct fwd_app *app)
{
	struct rt_nlsync_counter c[RT_FPM_COUNTERS_MAX];
	const char *state;
	char where[32];
	unsigned int n;

	if (app->rt_fpm == NULL)
		return;
	/* the state it ran in, the counters once its thread has stopped writing them */
	state = rt_fpm_state(app->rt_fpm);
	(void)rt_fpm_stop(app->rt_fpm);
	n = rt_fpm_counters(app->rt_fpm, c, RTE_DIM(c));
	free(app->rt_fpm_kept);
	app->rt_fpm_kept = fwd_sync_keep(rt_fpm_where(app->rt_fpm, where, sizeof(where)), state, c,
		RTE_MIN(n, (unsigned int)RTE_DIM(c)));
	rt_fpm_free(app->rt_fpm);
	app->rt_fpm = NULL;
}

void
fwd_fpm_show(const struct fwd_app *app, FILE *f)
{
	struct rt_nlsync_counter c[RT_FPM_COUNTERS_MAX];
	char where[32];
	unsigned int n;

	if (app->rt_fpm == NULL) {
		fprintf(f, "no fpm listener: give [route] fpm-listen in the config\n");
		return;
	}
	fprintf(f, "fpm: listening on %s, %s\n", rt_fpm_where(app->rt_fpm, where, sizeof(where)),
		rt_fpm_state(app->rt_fpm));
	n = RTE_MIN(rt_fpm_counters(app->rt_fpm, c, RTE_DIM(c)), (unsigned int)RTE_DIM(c));
	fwd_sync_counters_print(f, c, n);
}
