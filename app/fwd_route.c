/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_ring.h>

#include "fwd_log.h"
#include "fwd_route.h"
#include "route/rt_control.h"
#include "route/rt_fwd.h"
#include "route/rt_table.h"

/* The slow path: ARP, ICMP, fragments, held packets. Sleeps when idle. */
static void *
control_thread(void *arg)
{
	struct fwd_app *app = arg;

	while (!app->rt_ctl_stop) {
		if (rt_control_poll(app->rt_ctl, rte_rdtsc(), 0) == 0) {
			struct timespec ts = {0, 50 * 1000}; /* 50 us: ARP and ICMP latency */

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

int
fwd_route_setup(struct fwd_app *app, char *err, size_t errlen)
{
	int socket = (int)rte_socket_id();
	unsigned int i;
	uint16_t p;
	int ret;

	app->rt = rt_table_create(&(struct rt_table_params){.name = "fwd_rt", .socket = socket});
	if (app->rt == NULL) {
		snprintf(err, errlen, "cannot create the routing table: %s",
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (p = 0; p < app->nb_ports; p++) {
		ret = rt_iface_enable(app->rt, p, &app->ports[p].mac);
		if (ret < 0) {
			snprintf(err, errlen, "port %u: cannot enable routing", p);
			return ret;
		}
	}
	ret = rt_config_apply(&app->cfg.route, app->rt, err, errlen);
	if (ret < 0)
		return ret;

	app->rt_tx_ring = rte_ring_create("fwd_rt_tx", 4096, socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (app->rt_tx_ring == NULL) {
		snprintf(err, errlen, "cannot create the slow path's TX ring: %s",
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	app->workers[0]->ctl_tx = app->rt_tx_ring;
	app->rt_ctl = rt_control_create(&(struct rt_control_params){
		.table = app->rt,
		.pool = app->pools[app->ports[0].socket],
		.tx_ring = app->rt_tx_ring,
	});
	if (app->rt_ctl == NULL) {
		snprintf(err, errlen, "cannot create the routing slow path: %s",
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		struct rte_ring *ring = rt_control_add_worker(app->rt_ctl, lc->lcore_id);

		lc->rt = rte_zmalloc_socket("fwd_rt_worker", sizeof(*lc->rt), RTE_CACHE_LINE_SIZE,
			(int)rte_lcore_to_socket_id(lc->lcore_id));
		if (ring == NULL || lc->rt == NULL) {
			snprintf(err, errlen, "out of memory for the routing context of lcore %u",
				lc->lcore_id);
			return -ENOMEM;
		}
		ret = rt_worker_init(lc->rt, app->rt, ring, lc->lcore_id,
			&lc->stats.drops[FWD_DROP_ROUTE_FIRST]);
		if (ret < 0) {
			snprintf(err, errlen, "lcore %u: cannot join the routing table: %s",
				lc->lcore_id, rte_strerror(-ret));
			return ret;
		}
		/* offline until it forwards: a stopped worker must not hold back table updates */
		rte_rcu_qsbr_thread_offline(lc->rt->qsbr, lc->rt->thread_id);
	}

	app->rt_ctl_stop = false;
	ret = rte_ctrl_thread_create(&app->rt_thread, "fwd-route-ctl", NULL, control_thread, app);
	if (ret != 0) {
		snprintf(err, errlen, "cannot start the routing control thread: %s", strerror(ret));
		return -ret;
	}
	app->rt_thread_running = true;
	return 0;
}

void
fwd_route_stop(struct fwd_app *app)
{
	if (!app->rt_thread_running)
		return;
	app->rt_ctl_stop = true;
	pthread_join(app->rt_thread, NULL);
	app->rt_thread_running = false;
}

void
fwd_route_release(struct fwd_app *app)
{
	unsigned int i;

	fwd_route_stop(app);
	if (app->rt_ctl != NULL) {
		if (app->rt_ctl_final == NULL)
			app->rt_ctl_final =
				rte_zmalloc("fwd_rt_stats", sizeof(*app->rt_ctl_final), 0);
		if (app->rt_ctl_final != NULL)
			*app->rt_ctl_final = *rt_control_stats(app->rt_ctl);
	}
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		if (lc->rt != NULL && lc->rt->qsbr != NULL) {
			rt_worker_fini(lc->rt);
			lc->rt->qsbr = NULL;
		}
	}
	rt_control_free(app->rt_ctl);
	app->rt_ctl = NULL;
	rt_table_free(app->rt);
	app->rt = NULL;
	if (app->rt_tx_ring != NULL) {
		struct rte_mbuf *m;

		/* what the first worker did not send before it stopped */
		while (rte_ring_sc_dequeue(app->rt_tx_ring, (void **)&m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(app->rt_tx_ring);
		app->rt_tx_ring = NULL;
		app->workers[0]->ctl_tx = NULL;
	}
}

void
fwd_route_free(struct fwd_app *app)
{
	unsigned int i;

	fwd_route_release(app);
	for (i = 0; i < app->n_workers; i++) {
		rte_free(app->workers[i]->rt);
		app->workers[i]->rt = NULL;
	}
	rte_free(app->rt_ctl_final);
	app->rt_ctl_final = NULL;
}

/* Live counters while the slow path exists, the kept copy after release, or NULL. */
static const struct rt_control_stats *
ctl_stats(const struct fwd_app *app)
{
	return app->rt_ctl != NULL ? rt_control_stats(app->rt_ctl) : app->rt_ctl_final;
}

uint64_t
fwd_route_ctl_drops(const struct fwd_app *app, enum fwd_drop_reason r)
{
	const struct rt_control_stats *cs = ctl_stats(app);

	if (cs == NULL || r < FWD_DROP_ROUTE_FIRST || r >= FWD_DROP_MAX)
		return 0;
	return cs->drops[r - FWD_DROP_ROUTE_FIRST];
}

static const char *const exc_names[] = {
#define EXC_NAME(sym, name, desc) name,
	RT_EXCEPTIONS(EXC_NAME)
#undef EXC_NAME
};

void
fwd_route_print(const struct fwd_app *app, FILE *f)
{
	const struct rt_control_stats *cs = ctl_stats(app);
	unsigned int i, e;

	if (cs == NULL)
		return;
	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];

		if (lc->rt == NULL)
			continue;
		fprintf(f, "route lcore %u: forwarded %" PRIu64 " | to slow path:", lc->lcore_id,
			lc->rt->stats.fwd);
		for (e = 0; e < RT_EXC_MAX; e++)
			fprintf(f, " %s %" PRIu64, exc_names[e], lc->rt->stats.punts[e]);
		fprintf(f, "\n");
	}
	fprintf(f, "route slow path:");
	for (e = 0; e < RT_CTL_MAX; e++)
		fprintf(f, " %s %" PRIu64, rt_ctl_counter_name(e), cs->c[e]);
	fprintf(f, "\n");
}

void
fwd_route_json(const struct fwd_app *app, FILE *f)
{
	const struct rt_control_stats *cs = ctl_stats(app);
	unsigned int i, e;

	if (cs == NULL)
		return;
	fprintf(f, "  \"route\": {\n    \"lcores\": [");
	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];

		fprintf(f, "%s{\"lcore\": %u, \"forwarded\": %" PRIu64 ", \"punted\": {",
			i ? ", " : "", lc->lcore_id, lc->rt != NULL ? lc->rt->stats.fwd : 0);
		for (e = 0; e < RT_EXC_MAX; e++)
			fprintf(f, "%s\"%s\": %" PRIu64, e ? ", " : "", exc_names[e],
				lc->rt != NULL ? lc->rt->stats.punts[e] : 0);
		fprintf(f, "}}");
	}
	fprintf(f, "],\n    \"slow_path\": {");
	for (e = 0; e < RT_CTL_MAX; e++)
		fprintf(f, "%s\"%s\": %" PRIu64, e ? ", " : "", rt_ctl_counter_name(e), cs->c[e]);
	fprintf(f, "}\n  },\n");
}

static const char *const kind_names[] = {
	[RT_ROUTE_CONNECTED] = "connected",
	[RT_ROUTE_LOCAL] = "local",
	[RT_ROUTE_VIA] = "via",
	[RT_ROUTE_DEV] = "dev",
	[RT_ROUTE_BLACKHOLE] = "blackhole",
	[RT_ROUTE_REJECT] = "reject",
	[RT_ROUTE_NEIGH] = "neighbour",
};

void
fwd_route_show(struct fwd_app *app, FILE *f)
{
	struct rt_route routes[256];
	uint32_t n, i;
	char a[16], g[16];

	if (app->rt == NULL) {
		fprintf(f, "not routing: start with --fwd route\n");
		return;
	}
	n = rt_route_list(app->rt, routes, RTE_DIM(routes));
	for (i = 0; i < n && i < RTE_DIM(routes); i++) {
		const struct rt_route *r = &routes[i];

		fprintf(f, "%s/%u %s", rt_ip_str(r->prefix, a), r->plen,
			r->kind < RTE_DIM(kind_names) ? kind_names[r->kind] : "?");
		if (r->kind == RT_ROUTE_VIA)
			fprintf(f, " %s", rt_ip_str(r->gw, g));
		if (r->kind != RT_ROUTE_BLACKHOLE && r->kind != RT_ROUTE_REJECT)
			fprintf(f, " dev %u", r->port);
		fprintf(f, "\n");
	}
	if (n > RTE_DIM(routes))
		fprintf(f, "... %u routes in all\n", n);
}
