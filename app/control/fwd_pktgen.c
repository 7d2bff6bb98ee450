/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "fwd_ctl.h"
#include "fwd_log.h"
#include "fwd_pktgen.h"
#include "fwd_telemetry.h"

/* Build every worker's generator for app->cfg.pktgen into @p pg (nothing on failure). */
static int
create_generators(struct fwd_app *app, struct pktgen_lcore **pg, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		struct rte_eth_link link = {0};
		char name[32], why[256] = "";

		if (rte_eth_link_get_nowait(lc->txb[0].port, &link) != 0)
			link = (struct rte_eth_link){0}; /* no link info: speed unknown */
		snprintf(name, sizeof(name), "fwd_pg%u", lc->lcore_id);
		pg[i] = pktgen_lcore_create(name, &app->cfg.pktgen,
			&(struct pktgen_lcore_params){
				.port = lc->txb[0].port,
				.queue = lc->txb[0].queue,
				.socket = (int)rte_lcore_to_socket_id(lc->lcore_id),
				.lcore = lc->lcore_id, /* builds its mbufs from its own fragpool */
				.index = i,
				.count = app->n_workers,
				.link_speed_mbps = link.link_speed,
				.err = why,
				.errlen = sizeof(why),
			});
		if (pg[i] == NULL) {
			int ret = -rte_errno;

			snprintf(err, errlen, "lcore %u: cannot create the generator: %s",
				lc->lcore_id, why[0] != '\0' ? why : rte_strerror(-ret));
			/* never polled: they hold nothing */
			while (i-- > 0)
				pktgen_lcore_free(pg[i]);
			return ret;
		}
	}
	return 0;
}

/* Free the replaced generators whose mbufs the ports gave back (workers stopped). */
static void
reap_retired(struct fwd_app *app)
{
	unsigned int i, j, k;

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		for (j = k = 0; j < lc->n_pg_retired; j++)
			if (!pktgen_lcore_try_free(lc->pg_retired[j]))
				lc->pg_retired[k++] = lc->pg_retired[j];
		lc->n_pg_retired = (uint16_t)k;
	}
}

/* Every receive side to @p flows flows; on failure all are back at @p old. */
static int
set_rx_flows(struct fwd_app *app, uint32_t flows, uint32_t old, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		int ret = pktgen_rx_set_flows(app->workers[i]->pg_rx, flows);

		if (ret < 0) {
			snprintf(err, errlen,
				"lcore %u: cannot resize the receive side to %u flows: %s",
				app->workers[i]->lcore_id, flows, rte_strerror(-ret));
			while (i-- > 0)
				pktgen_rx_set_flows(
					app->workers[i]->pg_rx, old); /* shrinks: no alloc */
			return ret;
		}
	}
	return 0;
}

void
fwd_pktgen_check(struct fwd_app *app, int *missing)
{
	unsigned int i, j;

	/* the ports are closed: what the replaced generators are still short of is lost too */
	reap_retired(app);
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		uint64_t out;

		if (lc->pg == NULL)
			continue;
		/* the workers returned: what the ports freed on this lcore is settled here */
		out = pktgen_lcore_in_use(lc->pg);
		for (j = 0; j < lc->n_pg_retired; j++)
			out += pktgen_lcore_in_use(lc->pg_retired[j]);
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
	struct pktgen_lcore *pg[RTE_MAX_LCORE];
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
	ret = create_generators(app, pg, err, errlen);
	if (ret < 0)
		return ret;
	for (i = 0; i < app->n_workers; i++)
		app->workers[i]->pg = pg[i];
	return 0;
}

/* Some worker keeps as many replaced generators as it may. */
static bool
retired_full(const struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->n_pg_retired == FWD_PKTGEN_RETIRED_MAX)
			return true;
	return false;
}

int
fwd_pktgen_rebuild(
	struct fwd_app *app, const struct pktgen_stream_cfg *prev, char *err, size_t errlen)
{
	struct pktgen_lcore *pg[RTE_MAX_LCORE];
	bool was_running = app->running;
	unsigned int i;
	int ret;

	ret = pktgen_stream_check(&app->cfg.pktgen, err, errlen);
	if (ret < 0)
		return ret;
	if (retired_full(app)) {
		fwd_ctl_stop(app); /* reaping reads the fragpools: their owners must not run */
		reap_retired(app);
		if (retired_full(app)) {
			snprintf(err, errlen,
				"the ports still hold mbufs of the last %u generators (a stopped "
				"port gives them back once started)",
				FWD_PKTGEN_RETIRED_MAX);
			ret = -EBUSY;
			goto out;
		}
	}
	/* beside the running ones, which go on generating if these cannot be built */
	ret = create_generators(app, pg, err, errlen);
	if (ret < 0)
		goto out;
	fwd_ctl_stop(app);
	/* the telemetry thread reads the generators and receive sides: not while they change */
	fwd_telemetry_quiesce();
	ret = set_rx_flows(app, app->cfg.pktgen.flows, prev->flows, err, errlen);
	if (ret < 0) {
		fwd_telemetry_resume();
		for (i = 0; i < app->n_workers; i++)
			pktgen_lcore_free(pg[i]);
		goto out;
	}
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		/* a port still holding its mbufs frees them into its pools: kept until then */
		if (!pktgen_lcore_try_free(lc->pg)) {
			FWD_LOG(INFO,
				"lcore %u: a port still holds %" PRIu64
				" mbufs of the replaced generator: its pools are freed once they "
				"are back\n",
				lc->lcore_id, pktgen_lcore_in_use(lc->pg));
			lc->pg_retired[lc->n_pg_retired++] = lc->pg;
		}
		lc->pg = pg[i];
	}
	fwd_telemetry_resume();
	reap_retired(app);
out:
	/* a change of the generators mid-run: the user's run goes on (stop's totals span it) */
	fwd_ctl_resume(app, was_running && !app->running);
	return ret;
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
		while (lc->n_pg_retired > 0)
			pktgen_lcore_free(lc->pg_retired[--lc->n_pg_retired]);
		pktgen_rx_free(lc->pg_rx);
		lc->pg = NULL;
		lc->pg_rx = NULL;
	}
}

/* What fwd_pktgen_watch() saw of each worker's generator at its last look. */
static struct {
	const struct pktgen_lcore *pg; /* a rebuild makes another: start over */
	uint64_t short_secs, tx, tsc;
} watch[RTE_MAX_LCORE];
static uint64_t watch_next;

void
fwd_pktgen_watch(struct fwd_app *app)
{
	const uint64_t now = rte_get_tsc_cycles(), hz = rte_get_tsc_hz();
	unsigned int i;

	if (app->cfg.mode != FWD_MODE_PKTGEN || now < watch_next)
		return;
	watch_next = now + hz;
	for (i = 0; i < app->n_workers && i < RTE_DIM(watch); i++) {
		const struct fwd_lcore *lc = app->workers[i];
		struct pktgen_tx_stats ts;

		if (lc->pg == NULL)
			continue;
		pktgen_lcore_stats(lc->pg, &ts);
		if (watch[i].pg == lc->pg && ts.pace_short > watch[i].short_secs &&
			now > watch[i].tsc && ts.tx_pkts >= watch[i].tx) {
			const double secs = (double)(now - watch[i].tsc) / (double)hz;

			FWD_LOG(WARNING,
				"pktgen lcore %u: %.3f Mpps asked, %.3f Mpps sent in the last %.1f s: "
				"the port or the lcore cannot go faster (pace_short %" PRIu64
				", pace_forgiven %" PRIu64 ")\n",
				lc->lcore_id, pktgen_lcore_pps(lc->pg) / 1e6,
				(double)(ts.tx_pkts - watch[i].tx) / secs / 1e6, secs,
				ts.pace_short, ts.pace_forgiven);
		}
		watch[i].pg = lc->pg;
		watch[i].short_secs = ts.pace_short;
		watch[i].tx = ts.tx_pkts;
		watch[i].tsc = now;
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
		uint64_t hist[PKTGEN_HIST_BUCKETS];

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
		fprintf(f, "}, \"lat_hist\": [");
		/* Bucket 0 is 0 ns, bucket i is [2^(i-1), 2^i) ns, the last is open: sums to
		 * signed_pkts, so a reader can plot the distribution, not only min/avg/max. */
		memset(hist, 0, sizeof(hist));
		if (lc->pg_rx != NULL)
			pktgen_rx_hist(lc->pg_rx, hist);
		for (k = 0; k < PKTGEN_HIST_BUCKETS; k++)
			fprintf(f, "%s%" PRIu64, k ? ", " : "", hist[k]);
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n");
}
