/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dpdk_compat.h"

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_pause.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mempool.h>
#include <rte_ring.h>

#include "fragpool.h"
#include "fwd_log.h"
#include "fwd_component.h"
#include "fwd_route.h"
#include "rt_control.h"
#include "rt_fileload.h"
#include "rt_nhgroup.h"
#include "rt_worker_setup.h"
#include "rt_table.h"

/*
 * The route component's context: the table, the slow path and its thread,
 * the counters it keeps at release. The router's own: the others ask for the
 * table (fwd_route_table()).
 */
struct fwd_route_ctx {
	struct rt_table *rt;
	struct rt_control *ctl;
	struct rt_control_stats *ctl_final; /**< the slow path's counters, kept at release */
	struct rte_ring *tx_ring;           /**< the slow path's frames, sent by the first worker */
	bool thread_running;
	int thread_ready;    /**< control thread: 1 with a fragpool, -errno without */
	int ctl_phase;       /**< control thread's exit handshake */
	struct fragpool *fp; /**< the control thread's pool for the packets it builds */
	uint64_t fp_in_use;  /**< its fragments not back at exit (a leak) */
	volatile bool ctl_stop;
	pthread_t thread;
};

static struct fwd_component route_component;

static struct fwd_route_ctx *
rtc(const struct fwd_app *app)
{
	return fwd_component_ctx(app, &route_component);
}

struct rt_table *
fwd_route_table(const struct fwd_app *app)
{
	return rtc(app)->rt;
}

/* The router's parts (the flow stage, the twins), in order: filled by constructors. */
static const struct fwd_route_part *parts[FWD_ROUTE_PARTS_MAX];
static unsigned int n_parts;

void
fwd_route_part_register(const struct fwd_route_part *p)
{
	unsigned int i;

	/* a fixed table too small is the build's mistake, not the user's */
	RTE_VERIFY(n_parts < FWD_ROUTE_PARTS_MAX);
	for (i = n_parts; i > 0 && parts[i - 1]->order > p->order; i--)
		parts[i] = parts[i - 1];
	parts[i] = p;
	n_parts++;
}

/* the context's ctl_phase: how the control thread and the main lcore part at exit */
enum { FWD_RT_RUNNING, FWD_RT_STOPPED, FWD_RT_DRAINED };

/* 128 x 16 KiB: ICMP, ARP and fragments in flight at once */
#define FWD_ROUTE_FP_CHUNKS 128

/*
 * The slow path's thread. It registers as an lcore so that it can own a
 * fragpool: every packet the router builds (ICMP errors and echo replies, ARP
 * requests and replies, fragments) is carved from it with no atomic, and comes
 * back through the pool's return ring when the first worker's port has sent
 * it. The thread sends nothing itself (frames go to the first worker through
 * the context's tx_ring), so it can outlive the ports and settle every fragment
 * before the pool is checked.
 */
static void *
control_thread(void *arg)
{
	struct fwd_route_ctx *r = rtc(arg);
	struct rt_control *ctl;
	struct fragpool *fp = NULL;
	int ready = -ENOTSUP;

	if (rte_thread_register() == 0) {
		fp = fragpool_create(&(struct fragpool_params){
			.name = "fwd_rt_ctl",
			.lcore_id = rte_lcore_id(),
			.socket_id = SOCKET_ID_ANY,
			.n_chunks = FWD_ROUTE_FP_CHUNKS,
		});
		ready = fp != NULL ? 1 : -rte_errno;
		if (fp == NULL)
			rte_thread_unregister();
	}
	r->fp = fp;
	__atomic_store_n(&r->thread_ready, ready, __ATOMIC_RELEASE);

	/* the main lcore creates the slow path with our pool, or gives up */
	while ((ctl = __atomic_load_n(&r->ctl, __ATOMIC_ACQUIRE)) == NULL &&
		!__atomic_load_n(&r->ctl_stop, __ATOMIC_ACQUIRE))
		rte_pause();
	/*
	 * A stop seen with no slow path: it may have been handed over between
	 * the two loads (a later component failed its set-up and the release
	 * stopped us before we looked again). The main lcore hands it over
	 * before any stop, so it is there to see now; else it never came.
	 */
	if (ctl == NULL)
		ctl = __atomic_load_n(&r->ctl, __ATOMIC_ACQUIRE);
	while (!r->ctl_stop) {
		if (rt_control_poll(ctl, rte_rdtsc(), 0) == 0) {
			struct timespec ts = {0, 50 * 1000}; /* 50 us: ARP and ICMP latency */

			if (fp != NULL)
				fragpool_reclaim(fp);
			nanosleep(&ts, NULL);
		}
	}
	if (ctl != NULL) {
		/* every frame it still has is counted before the counters are kept */
		rt_control_drain(ctl);
		*r->ctl_final = *rt_control_stats(ctl);
		rt_control_free(ctl); /* ours come back to fp here */
	}
	/* frames we built may still wait on the TX ring: the main lcore frees them */
	__atomic_store_n(&r->ctl_phase, FWD_RT_STOPPED, __ATOMIC_RELEASE);
	while (__atomic_load_n(&r->ctl_phase, __ATOMIC_ACQUIRE) != FWD_RT_DRAINED)
		rte_pause();
	if (fp != NULL) {
		fragpool_reclaim(fp);
		r->fp_in_use = fragpool_in_use(fp);
		if (r->fp_in_use == 0)
			fragpool_free(fp);
		rte_thread_unregister();
	}
	return NULL;
}

/* A route or neighbour file's "dev NAME": the port of that DPDK name, if the app uses it. */
static int
port_by_name(void *arg, const char *name)
{
	const struct fwd_app *app = arg;
	uint16_t port;

	if (rte_eth_dev_get_port_by_name(name, &port) != 0 || port >= app->nb_ports)
		return -ENODEV;
	return port;
}

int
fwd_route_load_file(struct fwd_app *app, const char *path, bool neigh, FILE *out)
{
	struct rt_fileload l = {
		.t = rtc(app)->rt,
		.dev = port_by_name,
		.dev_arg = app,
		.out = out,
		.max_errors = FWD_ROUTE_LOAD_MAX_ERRORS,
		.quit = &app->quit,
		.pipe_wait_ms = FWD_ROUTE_LOAD_PIPE_WAIT_MS,
		.escape = fwd_escape,
	};
	const char *what = neigh ? "neighbours" : "routes";
	int ret;

	ret = neigh ? rt_fileload_neigh(&l, path) : rt_fileload_routes(&l, path);
	if (l.counts.errors > FWD_ROUTE_LOAD_MAX_ERRORS)
		fprintf(out, "(%u more bad lines not shown)\n",
			l.counts.errors - FWD_ROUTE_LOAD_MAX_ERRORS);
	fwd_fprintf_escaped(out, "%u %s loaded from %s", l.counts.taken, what, path);
	if (l.counts.skipped > 0)
		fprintf(out, ", %u lines skipped (no MAC, FAILED, INCOMPLETE or IPv6)",
			l.counts.skipped);
	if (l.counts.errors > 0)
		fprintf(out, ", %u bad lines", l.counts.errors);
	fprintf(out, "\n");
	return ret;
}

/*
 * Why the table found no memory: the mbuf pools, made before it, may hold
 * most of what the EAL has (a big --mbuf-size): say how much, so that the
 * user is not sent to shrink a table that was never the problem.
 */
static void
nomem_why(const struct fwd_app *app, int socket, char *out, size_t len)
{
	struct rte_malloc_socket_stats st = {0};
	uint64_t pool_bytes = 0, mbufs = 0;
	unsigned int s;

	for (s = 0; s < RTE_DIM(app->pools); s++) {
		const struct rte_mempool *mp = app->pools[s];

		if (mp == NULL)
			continue;
		mbufs += mp->size;
		pool_bytes +=
			(uint64_t)mp->size * (mp->header_size + mp->elt_size + mp->trailer_size);
	}
	(void)rte_malloc_get_socket_stats(socket, &st);
	if (pool_bytes == 0) {
		snprintf(out, len, " (give the EAL more memory with -m, or lower them)");
		return;
	}
	snprintf(out, len,
		": the mbuf pool holds %.0f MiB of the EAL's %.0f MiB (%" PRIu64
		" mbufs of --mbuf-size %u, %.0f MiB left); give the EAL more memory with -m, "
		"or a smaller --mbuf-size or --total-num-mbufs, or lower the table's sizes",
		pool_bytes / 1048576.0, st.heap_totalsz_bytes / 1048576.0, mbufs,
		app->cfg.mbuf_size, st.heap_freesz_bytes / 1048576.0);
}

/*
 * Create the table, enable every port with its MAC, apply the [port N],
 * [route] and [neigh] sections, create the slow path, the workers' routing
 * contexts, and start the control thread. The slow path has no TX queue of
 * its own (single-queue NICs, one TX queue per worker): its frames go on a
 * ring that the first worker sends from. Call after the ports have started.
 *
 * @return 0, or a negative errno with @p err set to one line.
 */
static int
fwd_route_setup(struct fwd_app *app, char *err, size_t errlen)
{
	struct fwd_route_ctx *r = rtc(app);
	int socket = (int)rte_socket_id();
	struct rte_mempool *pool;
	struct rt_control *ctl;
	unsigned int i;
	uint16_t p;
	int ret, ready;

	r->rt = rt_table_create(&(struct rt_table_params){.name = "fwd_rt",
		.socket = socket,
		.max_routes = app->cfg.max_routes,
		.max_nh = app->cfg.max_next_hops,
		.tbl8s = app->cfg.tbl8_groups});
	if (r->rt == NULL) {
		int e = rte_errno;
		int n = snprintf(err, errlen,
			"cannot create the routing table (max-routes %u, max-next-hops %u, "
			"tbl8-groups %u): %s",
			app->cfg.max_routes, app->cfg.max_next_hops, app->cfg.tbl8_groups,
			rte_strerror(e));

		if (e == ENOMEM && n > 0 && (size_t)n < errlen)
			nomem_why(app, socket, err + n, errlen - (size_t)n);
		return -e;
	}
	for (p = 0; p < app->nb_ports; p++) {
		ret = rt_iface_enable(r->rt, p, &app->ports[p].mac);
		if (ret == 0)
			ret = rt_iface_trust_rx_cksum(r->rt, p, app->ports[p].rx_ip_cksum);
		if (ret < 0) {
			snprintf(err, errlen, "port %u: cannot enable routing", p);
			return ret;
		}
	}
	ret = rt_config_apply(&app->cfg.route, r->rt, err, errlen);
	if (ret == 0)
		ret = rt_config_apply_files(&app->cfg.route,
			&(struct rt_fileload){.t = r->rt,
				.dev = port_by_name,
				.dev_arg = app,
				.quit = &app->quit,
				.escape = fwd_escape},
			err, errlen);
	if (ret < 0)
		return ret;

	r->tx_ring = rte_ring_create("fwd_rt_tx", 4096, socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
	r->ctl_final = rte_zmalloc("fwd_rt_stats", sizeof(*r->ctl_final), 0);
	if (r->tx_ring == NULL || r->ctl_final == NULL) {
		snprintf(err, errlen, "out of memory for the routing slow path");
		return -ENOMEM;
	}
	app->workers[0]->ctl_tx = r->tx_ring;

	r->ctl_stop = false;
	ret = fwd_compat_ctrl_thread_create(&r->thread, "fwd-route-ctl", control_thread, app);
	if (ret != 0) {
		snprintf(err, errlen, "cannot start the routing control thread: %s", strerror(ret));
		return -ret;
	}
	r->thread_running = true;
	while ((ready = __atomic_load_n(&r->thread_ready, __ATOMIC_ACQUIRE)) == 0)
		rte_pause();
	pool = app->pools[app->ports[0].socket];
	if (ready > 0)
		pool = r->fp->mbuf_pool;
	else
		FWD_LOG(WARNING, "route: slow path without a fragpool (%s): building from %s\n",
			rte_strerror(-ready), pool->name);

	ctl = rt_control_create(&(struct rt_control_params){
		.table = r->rt,
		.pool = pool,
		.tx_ring = r->tx_ring,
		.echo_rate = app->cfg.route.icmp_echo_rate,
	});
	if (ctl == NULL) {
		snprintf(err, errlen, "cannot create the routing slow path: %s",
			rte_strerror(rte_errno));
		return -rte_errno;
	}
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		struct rte_ring *ring = rt_control_add_worker(ctl, lc->lcore_id);

		lc->rt = rte_zmalloc_socket("fwd_rt_worker", sizeof(*lc->rt), RTE_CACHE_LINE_SIZE,
			(int)rte_lcore_to_socket_id(lc->lcore_id));
		if (ring == NULL || lc->rt == NULL) {
			rt_control_free(ctl);
			snprintf(err, errlen, "out of memory for the routing context of lcore %u",
				lc->lcore_id);
			return -ENOMEM;
		}
		ret = rt_worker_init(
			lc->rt, r->rt, ring, lc->lcore_id, &lc->stats.drops[FWD_DROP_ROUTE_FIRST]);
		if (ret < 0) {
			rt_control_free(ctl);
			snprintf(err, errlen, "lcore %u: cannot join the routing table: %s",
				lc->lcore_id, rte_strerror(-ret));
			return ret;
		}
		/* offline until it forwards: a stopped worker must not hold back table updates */
		rte_rcu_qsbr_thread_offline(lc->rt->qsbr, lc->rt->thread_id);
	}
	for (i = 0; i < n_parts; i++) {
		ret = parts[i]->setup != NULL ? parts[i]->setup(app, ctl, err, errlen) : 0;
		if (ret < 0) {
			rt_control_free(ctl);
			return ret;
		}
	}
	/* the control thread starts polling as soon as it sees this */
	__atomic_store_n(&r->ctl, ctl, __ATOMIC_RELEASE);
	return 0;
}

/*
 * Free what the first worker did not send for the slow path before it
 * stopped. The ring is that worker's (the slow path counted the frames as
 * handed on, ctl_tx), so they count as taken and dropped by it; it has
 * stopped, so its counters are ours to write.
 */
static void
drain_tx_ring(struct fwd_app *app)
{
	struct fwd_route_ctx *r = rtc(app);
	struct fwd_lcore *lc = app->workers[0];
	struct rte_mbuf *m;

	while (r->tx_ring != NULL && rte_ring_sc_dequeue(r->tx_ring, (void **)&m) == 0) {
		rte_pktmbuf_free(m);
		lc->stats.slow_tx++;
		lc->stats.drops[FWD_DROP_CTL_QUEUED_AT_EXIT]++;
	}
}

/*
 * Free what the first worker did not send for the slow path, take the workers
 * out of the table, stop the control thread (which keeps the final counters,
 * frees the slow path with the packets it holds, and settles its fragpool:
 * the context's fp_in_use), free the table. Call after the ports are closed, before
 * the pool check.
 */
static void
fwd_route_release(struct fwd_app *app)
{
	struct fwd_route_ctx *r = rtc(app);
	unsigned int i;

	/* the syncs, writers of the table, were released before (components after this one) */
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		if (lc->rt != NULL && lc->rt->qsbr != NULL) {
			rt_worker_fini(lc->rt);
			lc->rt->qsbr = NULL;
		}
	}
	/* the thread keeps the final counters, frees the slow path and settles its pool */
	if (r->thread_running) {
		__atomic_store_n(&r->ctl_stop, true, __ATOMIC_RELEASE);
		while (__atomic_load_n(&r->ctl_phase, __ATOMIC_ACQUIRE) != FWD_RT_STOPPED)
			rte_pause();
		drain_tx_ring(app);
		__atomic_store_n(&r->ctl_phase, FWD_RT_DRAINED, __ATOMIC_RELEASE);
		pthread_join(r->thread, NULL);
		r->thread_running = false;
		r->ctl = NULL;
		r->fp = NULL;
	}
	/* no poll of them any more, the frames they sent are freed: the twins can go */
	for (i = n_parts; i-- > 0;)
		if (parts[i]->release != NULL)
			parts[i]->release(app);
	rt_table_free(r->rt);
	r->rt = NULL;
	if (r->tx_ring != NULL) {
		drain_tx_ring(app);
		rte_ring_free(r->tx_ring);
		r->tx_ring = NULL;
		app->workers[0]->ctl_tx = NULL;
	}
}

/* Release (if not done) and free the workers' routing contexts. */
static void
fwd_route_free(struct fwd_app *app)
{
	struct fwd_route_ctx *r = rtc(app);
	unsigned int i;

	fwd_route_release(app);
	for (i = n_parts; i-- > 0;)
		if (parts[i]->free != NULL)
			parts[i]->free(app);
	for (i = 0; i < app->n_workers; i++) {
		rte_free(app->workers[i]->rt);
		app->workers[i]->rt = NULL;
	}
	rte_free(r->ctl_final);
	r->ctl_final = NULL;
}

/* Live counters while the slow path runs, the kept copy after release, or NULL. */
static const struct rt_control_stats *
ctl_stats(const struct fwd_app *app)
{
	struct fwd_route_ctx *r = rtc(app);
	if (r->ctl != NULL)
		return rt_control_stats(r->ctl);
	return app->cfg.mode == FWD_MODE_ROUTE ? r->ctl_final : NULL;
}

uint64_t
fwd_route_ctl_drops(const struct fwd_app *app, enum fwd_drop_reason r)
{
	const struct rt_control_stats *cs = ctl_stats(app);

	if (cs == NULL || r < FWD_DROP_ROUTE_FIRST || r >= FWD_DROP_MAX)
		return 0;
	return cs->drops[r - FWD_DROP_ROUTE_FIRST];
}

uint64_t
fwd_route_ctl_counter(const struct fwd_app *app, enum rt_ctl_counter c)
{
	const struct rt_control_stats *cs = ctl_stats(app);

	return cs != NULL && (unsigned int)c < RT_CTL_MAX ? cs->c[c] : 0;
}

/*
 * Zero the slow path's counters (not what it holds), with the workers
 * stopped: once the slow path has taken what they punted, the control
 * thread, which owns the counters, is asked and this waits until it has done
 * it. What is still in flight then is noted (rt_control_stats' carried_*).
 */
static void
fwd_route_clear_stats(struct fwd_app *app)
{
	struct fwd_route_ctx *r = rtc(app);
	struct rt_control *ctl = r->ctl;

	if (ctl == NULL) {
		if (r->ctl_final != NULL)
			memset(r->ctl_final, 0, sizeof(*r->ctl_final));
		return;
	}
	/*
	 * What the stopped workers punted is taken first (so its drops and
	 * errors come before the clear, not after); then the control thread,
	 * which owns the counters, zeroes them at its next poll.
	 */
	while (rt_control_queued(ctl) != 0 &&
		__atomic_load_n(&r->ctl_phase, __ATOMIC_ACQUIRE) == FWD_RT_RUNNING)
		rte_pause();
	rt_control_clear_request(ctl);
	while (rt_control_clear_pending(ctl) &&
		__atomic_load_n(&r->ctl_phase, __ATOMIC_ACQUIRE) == FWD_RT_RUNNING)
		rte_pause();
}

/* Frames in flight through the slow path: on the workers' rings to it, held, on its TX ring. */
static void
in_flight(const struct fwd_app *app, uint64_t *queued, uint64_t *held, uint64_t *tx_ring)
{
	struct fwd_route_ctx *r = rtc(app);
	const struct rt_control_stats *cs = ctl_stats(app);

	*queued = r->ctl != NULL ? rt_control_queued(r->ctl) : 0;
	*held = cs != NULL ? cs->held : 0;
	*tx_ring = r->tx_ring != NULL ? rte_ring_count(r->tx_ring) : 0;
}

static const char *const exc_names[] = {
#define EXC_NAME(sym, name, desc) name,
	RT_EXCEPTIONS(EXC_NAME)
#undef EXC_NAME
};

uint64_t
fwd_route_punted(const struct fwd_lcore *lc)
{
	uint64_t n = 0;
	unsigned int e;

	if (lc->rt != NULL)
		for (e = 0; e < RT_EXC_MAX; e++)
			n += lc->rt->stats.punts[e];
	return n;
}

/*
 * Print the router's non-drop counters (forwarded, punted, slow path) and
 * what is in flight through the slow path (on its rings, held for ARP).
 */
static void
fwd_route_print(const struct fwd_app *app, FILE *f)
{
	const struct rt_control_stats *cs = ctl_stats(app);
	uint64_t queued, held, tx_ring;
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
	in_flight(app, &queued, &held, &tx_ring);
	fprintf(f,
		"route in flight: to slow path %" PRIu64 " held %" PRIu64
		" to the sending worker %" PRIu64 "\n",
		queued, held, tx_ring);
	for (i = 0; i < n_parts; i++)
		if (parts[i]->print != NULL)
			parts[i]->print(app, f);
}

/* Write the "route" member of the stats file (with a trailing comma). */
static void
fwd_route_json(const struct fwd_app *app, FILE *f)
{
	const struct rt_control_stats *cs = ctl_stats(app);
	uint64_t queued, held, tx_ring;
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
	in_flight(app, &queued, &held, &tx_ring);
	fprintf(f,
		"},\n    \"in_flight\": {\"queued\": %" PRIu64 ", \"held\": %" PRIu64
		", \"tx_ring\": %" PRIu64 "},\n",
		queued, held, tx_ring);
	fprintf(f,
		"    \"in_flight_at_clear\": {\"queued\": %" PRIu64 ", \"held\": %" PRIu64
		", \"tx_ring\": %" PRIu64 "}\n  },\n",
		cs->carried_queued, cs->carried_held, cs->carried_tx);
	for (i = 0; i < n_parts; i++)
		if (parts[i]->json != NULL)
			parts[i]->json(app, f);
}

static const char *const kind_names[] = {
	[RT_ROUTE_CONNECTED] = "connected",
	[RT_ROUTE_LOCAL] = "local",
	[RT_ROUTE_VIA] = "via",
	[RT_ROUTE_BLACKHOLE] = "blackhole",
	[RT_ROUTE_REJECT] = "reject",
	[RT_ROUTE_NEIGH] = "neighbour",
};

/* " proto SRC age HH:MM:SS": where the route came from and how long ago, as FRR prints it */
static void
route_print_src(FILE *f, const struct rt_route *r)
{
	const uint32_t age = rt_table_now() - r->since;

	fprintf(f, " proto %s age %02u:%02u:%02u", rt_route_src_name(r->src), age / 3600,
		age / 60 % 60, age % 60);
}

static void
route_print(FILE *f, struct rt_table *t, const struct rt_route *r)
{
	uint32_t mem[RT_ECMP_MAX];
	char a[16], g[16];
	unsigned int k, nm;

	fprintf(f, "%s/%u", rt4_addr_str(r->prefix, a), r->plen);
	/* multipath, as ip route prints it: one line per next hop */
	nm = r->kind == RT_ROUTE_VIA ? rt_nhgroup_members(t, r->nh, mem, NULL) : 0;
	if (nm != 0) {
		route_print_src(f, r);
		fprintf(f, "\n");
		for (k = 0; k < nm; k++)
			fprintf(f, "\tnexthop via %s dev %u\n",
				rt4_addr_str(t->nh_info[mem[k]].ip, g), t->nh[mem[k]].port);
		return;
	}
	/* an on-link route is "dev N", as written in the config and the shell */
	if (r->kind != RT_ROUTE_DEV)
		fprintf(f, " %s",
			r->kind < RTE_DIM(kind_names) && kind_names[r->kind] != NULL
				? kind_names[r->kind]
				: "?");
	if (r->kind == RT_ROUTE_VIA)
		fprintf(f, " %s", rt4_addr_str(r->gw, g));
	if (r->kind != RT_ROUTE_BLACKHOLE && r->kind != RT_ROUTE_REJECT)
		fprintf(f, " dev %u", r->port);
	route_print_src(f, r);
	fprintf(f, "\n");
}

uint32_t
fwd_route_show_within(struct fwd_app *app, FILE *f, uint32_t prefix, uint8_t plen)
{
	struct rt_table *t = rtc(app)->rt;
	struct rt_route page[256];
	uint32_t start = 0, n, got, i;

	if (t == NULL) {
		fprintf(f, "not routing: start with --fwd route\n");
		return 0;
	}
	/* page by page: a full table prints without a copy of it */
	do {
		n = rt_route_list_within(t, prefix, plen, start, page, RTE_DIM(page));
		got = start < n ? RTE_MIN(n - start, (uint32_t)RTE_DIM(page)) : 0;
		for (i = 0; i < got; i++)
			route_print(f, t, &page[i]);
		start += got;
	} while (got == RTE_DIM(page));
	return start;
}

void
fwd_route_show(struct fwd_app *app, FILE *f)
{
	fwd_route_show_within(app, f, 0, 0);
}

int
fwd_route_show_one(struct fwd_app *app, FILE *f, uint32_t prefix, uint8_t plen, bool exact)
{
	struct rt_table *t = rtc(app)->rt;
	struct rt_route r;
	char a[16];

	if (t == NULL) {
		fprintf(f, "not routing: start with --fwd route\n");
		return -EINVAL;
	}
	if (rt_route_get(t, prefix, plen, exact, &r) < 0) {
		if (exact)
			fprintf(f, "no route %s/%u\n", rt4_addr_str(prefix, a), plen);
		else
			fprintf(f, "no route to %s\n", rt4_addr_str(prefix, a));
		return -ENOENT;
	}
	route_print(f, t, &r);
	return 0;
}

void
fwd_route_show_summary(struct fwd_app *app, FILE *f)
{
	struct rt_table *t = rtc(app)->rt;
	static const char *const kinds[] = {
		[RT_ROUTE_CONNECTED] = "connected",
		[RT_ROUTE_LOCAL] = "local",
		[RT_ROUTE_VIA] = "via",
		[RT_ROUTE_DEV] = "dev",
		[RT_ROUTE_BLACKHOLE] = "blackhole",
		[RT_ROUTE_REJECT] = "reject",
		[RT_ROUTE_NEIGH] = "neighbour",
	};
	struct rt_route_summary s;
	unsigned int i;

	if (t == NULL) {
		fprintf(f, "not routing: start with --fwd route\n");
		return;
	}
	rt_route_summary_get(t, &s);
	fprintf(f, "routes %u of max-routes %u\n", s.routes, s.max_routes);
	fprintf(f, "by kind:");
	for (i = 0; i < RTE_DIM(kinds); i++)
		fprintf(f, " %s %u", kinds[i], s.by_kind[i]);
	fprintf(f, "\nby prefix length:");
	for (i = 0; i <= 32; i++)
		if (s.by_plen[i] != 0)
			fprintf(f, " /%u %u", i, s.by_plen[i]);
	fprintf(f, "\nnext hops %u of max-next-hops %u (neighbours %u)", s.nh_used, s.nh_max,
		s.neighbours);
	if (s.nh_retiring != 0)
		fprintf(f, ", %u released (free to the next adds)", s.nh_retiring);
	fprintf(f, "\n");
	fprintf(f, "tbl8 groups %u of tbl8-groups %u\n", s.tbl8_used, s.tbl8_max);
	fprintf(f,
		"memory: lookup %.1f MiB, next hops %.1f MiB (DPDK memory), records %.1f MiB "
		"(heap)\n",
		s.mem_lookup / 1048576.0, s.mem_nh / 1048576.0, s.mem_records / 1048576.0);
	fprintf(f, "refused: %" PRIu64 " deletes and replaces of a sync's routes (netlink, fpm)\n",
		s.refused_synced);
}

/* The component's set-up: the router in --fwd route only. */
static int
route_setup(struct fwd_app *app, char *err, size_t errlen)
{
	return app->cfg.mode == FWD_MODE_ROUTE ? fwd_route_setup(app, err, errlen) : 0;
}

/*
 * It holds packets (ARP hold queues, punt rings): given back before the pool
 * check; its fragpool's fragments not back (settled by the control thread as
 * it stops) are added to @p missing.
 */
static void
route_release(struct fwd_app *app, int *missing)
{
	struct fwd_route_ctx *r = rtc(app);
	fwd_route_release(app);
	if (r->fp_in_use != 0) {
		fwd_err("mbuf leak: %" PRIu64
			" fragments of the router's fragpool did not come back",
			r->fp_in_use);
		*missing += (int)r->fp_in_use;
	}
}

static void
route_stats_print(struct fwd_app *app, FILE *f, bool final)
{
	RTE_SET_USED(final);
	fwd_route_print(app, f);
}

/* The router's table, slow path and TX queues exist only if it ran from the start. */
static int
route_mode_check(const struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen)
{
	if (mode != FWD_MODE_ROUTE || rtc(app)->rt != NULL)
		return 0;
	snprintf(err, errlen,
		"route mode must be chosen at start (--fwd route): it sets up the table, "
		"the slow path and their TX queues");
	return -ENOTSUP;
}

static struct fwd_component route_component = {
	.name = "route",
	.order = FWD_ROUTE_ORDER,
	.ctx_size = sizeof(struct fwd_route_ctx),
	.setup = route_setup,
	.release = route_release,
	.free = fwd_route_free,
	.clear = fwd_route_clear_stats,
	.print = route_stats_print,
	.json = fwd_route_json,
	.mode_check = route_mode_check,
	.cmds = fwd_route_cmds,
	.tel = fwd_route_tel,
	.n_tel = FWD_ROUTE_N_TEL,
};

FWD_COMPONENT_REGISTER(route_component)
