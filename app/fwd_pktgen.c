/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "fwd_pktgen.h"

static int
create_generators(struct fwd_app *app, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		struct rte_eth_link link = {0};
		char name[32];

		rte_eth_link_get_nowait(lc->txb[0].port, &link);
		snprintf(name, sizeof(name), "fwd_pg%u", lc->lcore_id);
		lc->pg = pktgen_lcore_create(name, &app->cfg.pktgen,
			&(struct pktgen_lcore_params){
				.port = lc->txb[0].port,
				.queue = lc->txb[0].queue,
				.socket = (int)rte_lcore_to_socket_id(lc->lcore_id),
				.lcore = lc->lcore_id, /* builds its mbufs from its own fragpool */
				.index = i,
				.count = app->n_workers,
				.link_speed_mbps = link.link_speed,
			});
		if (lc->pg == NULL) {
			snprintf(err, errlen, "lcore %u: cannot create the generator: %s",
				lc->lcore_id, rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return 0;
}

void
fwd_pktgen_check(const struct fwd_app *app, int *missing)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];
		uint64_t out;

		if (lc->pg == NULL)
			continue;
		/* the workers returned: what the ports freed on this lcore is settled here */
		out = pktgen_lcore_in_use(lc->pg);
		if (out != 0) {
			fprintf(stderr,
				"dpdk-forwarder: error: mbuf leak: %" PRIu64
				" mbufs of the generator's fragpool (lcore %u) did not come back\n",
				out, lc->lcore_id);
			*missing += (int)out;
		}
	}
}

int
fwd_pktgen_setup(struct fwd_app *app, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	ret = pktgen_stream_check(&app->cfg.pktgen, err, errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		char name[32];

		snprintf(name, sizeof(name), "fwd_pgrx%u", lc->lcore_id);
		lc->pg_rx = pktgen_rx_create(
			name, app->cfg.pktgen.flows, (int)rte_lcore_to_socket_id(lc->lcore_id), 0);
		if (lc->pg_rx == NULL) {
			snprintf(err, errlen, "lcore %u: cannot create the receive side: %s",
				lc->lcore_id, rte_strerror(rte_errno));
			return -rte_errno;
		}
	}
	return create_generators(app, err, errlen);
}

int
fwd_pktgen_rebuild(struct fwd_app *app, char *err, size_t errlen)
{
	unsigned int i;
	int ret;

	ret = pktgen_stream_check(&app->cfg.pktgen, err, errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < app->n_workers; i++) {
		pktgen_lcore_free(app->workers[i]->pg);
		app->workers[i]->pg = NULL;
	}
	return create_generators(app, err, errlen);
}

bool
fwd_pktgen_ready(const struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->pg == NULL || app->workers[i]->pg_rx == NULL)
			return false;
	return app->n_workers > 0;
}

void
fwd_pktgen_restart(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->pg != NULL)
			pktgen_lcore_restart(app->workers[i]->pg);
}

bool
fwd_pktgen_done(const struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->pg != NULL && !pktgen_lcore_done(app->workers[i]->pg))
			return false;
	return app->n_workers > 0;
}

void
fwd_pktgen_clear(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->pg_rx != NULL)
			pktgen_rx_reset(app->workers[i]->pg_rx);
}

void
fwd_pktgen_free(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		pktgen_lcore_free(lc->pg);
		pktgen_rx_free(lc->pg_rx);
		lc->pg = NULL;
		lc->pg_rx = NULL;
	}
}

void
fwd_pktgen_print(const struct fwd_app *app, FILE *f)
{
	unsigned int i, k;

	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];
		struct pktgen_tx_stats ts;
		struct pktgen_rx_stats rs;

		if (lc->pg == NULL || lc->pg_rx == NULL)
			continue;
		pktgen_lcore_stats(lc->pg, &ts);
		pktgen_rx_stats(lc->pg_rx, &rs);
		fprintf(f, "pktgen lcore %u tx:", lc->lcore_id);
		for (k = 0; k < PKTGEN_TX_STAT_MAX; k++)
			fprintf(f, " %s %" PRIu64, pktgen_tx_stat_names[k], pktgen_tx_stat(&ts, k));
		fprintf(f, "\npktgen lcore %u rx:", lc->lcore_id);
		for (k = 0; k < PKTGEN_RX_STAT_MAX; k++)
			fprintf(f, " %s %" PRIu64, pktgen_rx_stat_names[k], pktgen_rx_stat(&rs, k));
		fprintf(f, "\n");
	}
}

void
fwd_pktgen_json(const struct fwd_app *app, FILE *f)
{
	unsigned int i, k;

	if (app->cfg.mode != FWD_MODE_PKTGEN)
		return;
	fprintf(f, "  \"pktgen\": [");
	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];
		struct pktgen_tx_stats ts;
		struct pktgen_rx_stats rs;

		memset(&ts, 0, sizeof(ts));
		memset(&rs, 0, sizeof(rs));
		if (lc->pg != NULL)
			pktgen_lcore_stats(lc->pg, &ts);
		if (lc->pg_rx != NULL)
			pktgen_rx_stats(lc->pg_rx, &rs);
		fprintf(f, "%s\n    {\"lcore\": %u, \"port\": %u, \"queue\": %u, \"tx\": {",
			i ? "," : "", lc->lcore_id, lc->txb[0].port, lc->txb[0].queue);
		for (k = 0; k < PKTGEN_TX_STAT_MAX; k++)
			fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", pktgen_tx_stat_names[k],
				pktgen_tx_stat(&ts, k));
		fprintf(f, "}, \"rx\": {");
		for (k = 0; k < PKTGEN_RX_STAT_MAX; k++)
			fprintf(f, "%s\"%s\": %" PRIu64, k ? ", " : "", pktgen_rx_stat_names[k],
				pktgen_rx_stat(&rs, k));
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ],\n");
}
