/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "fwd_lifecycle.h"
#include "fwd_map.h"
#include "fwd_component.h"
#include "fwd_ctl.h"
#include "fwd_log.h"
#include "fwd_port.h"
#include "fwd_route.h"
#include "fwd_shell.h"
#include "fwd_stats.h"

RTE_LOG_REGISTER(fwd_logtype, app.forwarder, INFO);

static int
port_socket(uint16_t port_id)
{
	int s = rte_eth_dev_socket_id(port_id);

	/* vdevs and --no-huge report no socket: use the main lcore's */
	return s >= 0 ? s : (int)rte_socket_id();
}

static int
setup_ports_table(struct fwd_app *app, char *err, size_t errlen)
{
	uint16_t pid;

	app->nb_ports = rte_eth_dev_count_avail();
	if (app->nb_ports == 0) {
		snprintf(err, errlen,
			"no ports found: give EAL a device (e.g. --vdev net_null0) or bind a NIC "
			"to vfio-pci");
		return -ENODEV;
	}
	RTE_ETH_FOREACH_DEV(pid)
	{
		struct fwd_port *p;

		if (pid >= app->nb_ports) {
			snprintf(err, errlen,
				"port ids are not contiguous (port %u with %u ports); remove the "
				"device that failed to probe",
				pid, app->nb_ports);
			return -EINVAL;
		}
		p = &app->ports[pid];
		p->id = pid;
		p->socket = port_socket(pid);
		p->out_port = fwd_topology_peer(app->cfg.topology, pid, app->nb_ports);
		if (rte_eth_dev_get_name_by_port(pid, p->name) != 0)
			snprintf(p->name, sizeof(p->name), "port%u", pid);
	}
	return 0;
}

static int
cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/* The topology over the used ports only, as testpmd pairs the ports of its --portmask. */
static void
setup_peers(struct fwd_app *app)
{
	uint16_t used[RTE_MAX_ETHPORTS];
	uint16_t n = 0, p, k;

	for (p = 0; p < app->nb_ports; p++)
		if (fwd_port_used(&app->cfg, p))
			used[n++] = p;
	for (k = 0; k < n; k++)
		app->ports[used[k]].out_port = used[fwd_topology_peer(app->cfg.topology, k, n)];
}

/* One worker per distinct lcore of the map; TX queues are handed out per port. */
static int
setup_workers(struct fwd_app *app, char *err, size_t errlen)
{
	const struct fwd_config *cfg = &app->cfg;
	unsigned int lcores[FWD_MAX_MAP];
	unsigned int n_lcores = 0, i, j;
	uint64_t drain_tsc = (rte_get_tsc_hz() + 1000000 - 1) / 1000000 * FWD_DRAIN_US;

	for (i = 0; i < cfg->n_map; i++) {
		for (j = 0; j < n_lcores && lcores[j] != cfg->map[i].lcore; j++)
			;
		if (j == n_lcores)
			lcores[n_lcores++] = cfg->map[i].lcore;
		if (cfg->map[i].queue + 1 > app->ports[cfg->map[i].port].nb_rxq)
			app->ports[cfg->map[i].port].nb_rxq = cfg->map[i].queue + 1;
	}
	qsort(lcores, n_lcores, sizeof(lcores[0]), cmp_uint);

	for (i = 0; i < n_lcores; i++) {
		uint16_t out[RTE_MAX_ETHPORTS];
		uint16_t n_out = 0, k;
		struct fwd_lcore *lc;

		/* the output ports this lcore sends to, in map order; a router sends anywhere */
		if (cfg->mode == FWD_MODE_ROUTE)
			for (n_out = 0; n_out < app->nb_ports; n_out++)
				out[n_out] = n_out;
		for (j = 0; j < cfg->n_map && cfg->mode != FWD_MODE_ROUTE; j++) {
			uint16_t o;

			if (cfg->map[j].lcore != lcores[i])
				continue;
			o = app->ports[cfg->map[j].port].out_port;
			for (k = 0; k < n_out && out[k] != o; k++)
				;
			if (k == n_out)
				out[n_out++] = o;
		}

		lc = rte_zmalloc_socket("fwd_lcore", sizeof(*lc) + n_out * sizeof(struct fwd_txbuf),
			RTE_CACHE_LINE_SIZE, (int)rte_lcore_to_socket_id(lcores[i]));
		if (lc == NULL) {
			snprintf(err, errlen, "out of memory for lcore %u (try a larger -m)",
				lcores[i]);
			return -ENOMEM;
		}
		app->workers[app->n_workers++] = lc;
		lc->lcore_id = lcores[i];
		lc->mode = cfg->mode;
		lc->burst = cfg->burst;
		lc->drain_tsc = drain_tsc;
		lc->idle_sleep = cfg->idle == FWD_IDLE_SLEEP;
		lc->quit = &app->fwd_stop;
		lc->pg_sending = &app->pg_sending;
		lc->pg_keep = &app->pg_keep;
		lc->n_txb = n_out;
		for (k = 0; k < n_out; k++) {
			struct fwd_txbuf *b = &lc->txb[k];

			b->port = out[k];
			b->queue = app->ports[out[k]].nb_txq++;
			b->burst = cfg->burst;
		}
		for (j = 0; j < cfg->n_map; j++) {
			struct fwd_rx_source *src;
			uint16_t o;

			if (cfg->map[j].lcore != lcores[i])
				continue;
			src = &lc->rx[lc->n_rx++];
			src->port = cfg->map[j].port;
			src->queue = cfg->map[j].queue;
			o = app->ports[src->port].out_port;
			for (k = 0; out[k] != o; k++)
				;
			src->txb = src->txb_up = k;
		}
	}
	return 0;
}

static int
setup_pools(struct fwd_app *app, char *err, size_t errlen)
{
	const struct fwd_config *cfg = &app->cfg;
	uint64_t need[RTE_MAX_NUMA_NODES] = {0};
	/* mbufs a frame of a standard MTU (VLAN-tagged) takes with --mbuf-size */
	const unsigned int room = cfg->mbuf_size - RTE_PKTMBUF_HEADROOM;
	const unsigned int segs = (RTE_ETHER_MAX_LEN + RTE_VLAN_HLEN + room - 1) / room;
	unsigned int s, i;
	uint16_t p, nb_rxd, nb_txd;

	for (p = 0; p < app->nb_ports; p++) {
		struct fwd_port *port = &app->ports[p];

		if (!fwd_port_used(cfg, p))
			continue; /* left out by -p: neither configured nor started */
		if (port->nb_rxq == 0)
			port->nb_rxq = 1; /* not polled, but a port needs one to start */
		if (port->nb_txq == 0)
			port->nb_txq = 1;
		if ((unsigned int)port->socket >= RTE_MAX_NUMA_NODES)
			port->socket = 0;
		/* what the port really takes (fwd_port_start() adjusts the same way) */
		nb_rxd = cfg->nb_rxd;
		nb_txd = cfg->nb_txd;
		if (rte_eth_dev_adjust_nb_rx_tx_desc(p, &nb_rxd, &nb_txd) != 0) {
			nb_rxd = cfg->nb_rxd;
			nb_txd = cfg->nb_txd;
		}
		need[port->socket] +=
			(uint64_t)port->nb_rxq * nb_rxd + (uint64_t)port->nb_txq * nb_txd;
	}
	for (i = 0; i < app->n_workers; i++) {
		/*
		 * what a worker can hold: its cache, its TX buffers, one RX burst;
		 * frames of the buffers and the burst as chains of segs mbufs
		 */
		uint64_t held =
			cfg->mbuf_cache * 3 / 2 +
			((uint64_t)app->workers[i]->n_txb * 2 * FWD_MAX_BURST + FWD_MAX_BURST) *
				segs;

		for (s = 0; s < RTE_MAX_NUMA_NODES; s++)
			if (need[s] != 0)
				need[s] += held;
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		char name[RTE_MEMPOOL_NAMESIZE];
		uint64_t n = cfg->nb_mbufs != 0 ? cfg->nb_mbufs : need[s] + 1024;

		if (need[s] == 0)
			continue;
		/*
		 * Below the worst case the RX rings fill with the pool's mbufs and
		 * what is left cannot carry a burst: the ports stall, or a driver
		 * that frees sent mbufs only in its next TX burst never gets one
		 * (seen: net_fec with 1200 mbufs stopped after 416 frames, RX
		 * without buffers for good). Refused, with the figure.
		 */
		if (cfg->nb_mbufs != 0 && n < need[s]) {
			snprintf(err, errlen,
				"--total-num-mbufs %" PRIu64 ": socket %u needs at least %" PRIu64
				" (the RX and TX rings, the lcores' caches and bursts); give "
				"more, or fewer --rxd/--txd",
				n, s, need[s]);
			return -EINVAL;
		}
		if (n > UINT32_MAX)
			n = UINT32_MAX;
		snprintf(name, sizeof(name), "fwd_pool_s%u", s);
		app->pools[s] = rte_pktmbuf_pool_create(
			name, (unsigned int)n, cfg->mbuf_cache, 0, cfg->mbuf_size, (int)s);
		if (app->pools[s] == NULL) {
			snprintf(err, errlen,
				"cannot create a pool of %" PRIu64 " mbufs on socket %u: %s (give "
				"EAL more memory with -m, or set --total-num-mbufs)",
				n, s, rte_strerror(rte_errno));
			return -ENOMEM;
		}
	}
	return 0;
}

int
fwd_app_setup(struct fwd_app *app, char *err, size_t errlen)
{
	struct fwd_config *cfg = &app->cfg;
	unsigned int i, k;
	uint16_t p;
	int ret;

	/* first: every component's hooks, the release and free of a failed start among them, use it */
	ret = fwd_components_init(app);
	if (ret < 0) {
		snprintf(err, errlen, "out of memory for the components' state");
		return ret;
	}
	if (cfg->stats_file[0] != '\0') {
		char why[FWD_ERR_LEN - 64];

		/* found out now, not after the run whose counters it was to keep */
		ret = fwd_stats_file_check(cfg->stats_file, why, sizeof(why));
		if (ret < 0) {
			snprintf(err, errlen, "cannot write stats file %s: %s", cfg->stats_file,
				why);
			return ret;
		}
	}
	ret = setup_ports_table(app, err, errlen);
	if (ret < 0)
		return ret;
	if (cfg->n_map == 0) {
		ret = fwd_map_default(cfg, app->nb_ports, err, errlen);
		if (ret < 0)
			return ret;
	}
	ret = fwd_map_validate(cfg, app->nb_ports, err, errlen);
	if (ret < 0)
		return ret;
	setup_peers(app);
	ret = setup_workers(app, err, errlen);
	if (ret < 0)
		return ret;
	for (p = 0; p < app->nb_ports; p++)
		/* a router's TX buffer k is port k's: an unused port keeps its (never
		 * sent to: the port is down) buffer, but the port gets no queue */
		if (!fwd_port_used(cfg, p))
			app->ports[p].nb_txq = 0;
	for (p = 0; p < app->nb_ports && cfg->txq != 0; p++) {
		struct fwd_port *port = &app->ports[p];

		/* each sending lcore has a TX queue of its own: no locks on the way out */
		if (port->nb_txq > cfg->txq) {
			snprintf(err, errlen,
				"--txq %u: port %u needs %u TX queues, one per lcore sending to it",
				cfg->txq, p, port->nb_txq);
			return -EINVAL;
		}
		if (fwd_port_used(cfg, p))
			port->nb_txq = cfg->txq;
	}
	ret = setup_pools(app, err, errlen);
	if (ret < 0)
		return ret;
	for (p = 0; p < app->nb_ports; p++) {
		struct fwd_port *port = &app->ports[p];

		if (!fwd_port_used(cfg, p))
			continue;
		ret = fwd_port_start(cfg, port, app->pools[port->socket], err, errlen);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		for (k = 0; k < lc->n_txb; k++) {
			lc->txb[k].src = app->ports[lc->txb[k].port].mac;
			lc->txb[k].dst = cfg->peer[lc->txb[k].port];
			lc->txb[k].count_bytes = app->ports[lc->txb[k].port].app_bytes;
		}
		for (k = 0; k < lc->n_rx; k++)
			lc->rx[k].count_bytes = app->ports[lc->rx[k].port].app_bytes;
	}
	/* the router, its syncs, the generator among them (fwd_route.c, fwd_pktgen_cmds.c...) */
	return fwd_components_setup(app, err, errlen);
}

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000};

	nanosleep(&ts, NULL); /* a signal cuts it short, which is what we want */
}

void
fwd_app_run(struct fwd_app *app)
{
	const struct fwd_config *cfg = &app->cfg;
	uint64_t hz = rte_get_tsc_hz();
	/* rounded up: a time under one tick must not become 0, "no limit" */
	uint64_t period = (uint64_t)ceil(cfg->stats_period * (double)hz);
	uint64_t duration = (uint64_t)ceil(cfg->duration * (double)hz);
	uint64_t start, link_poll = 0;

	fwd_ctl_start_configured(app);
	start = rte_get_tsc_cycles();
	while (!app->quit) {
		uint64_t now;

		now = rte_get_tsc_cycles();
		/* the first state of every port, then changes on ports without LSC interrupts */
		if (now - link_poll >= hz / 2) {
			fwd_port_watch_links(app->ports, app->nb_ports, link_poll == 0);
			link_poll = now;
		}
		sleep_ms(10);
		fwd_components_tick(app); /* a generator's rate it cannot reach: once a second */
		now = rte_get_tsc_cycles();
		if (duration != 0 && now - start >= duration)
			break;
		/* a generator with a count or a duration ends the run once it is done */
		if (fwd_components_done(app)) {
			sleep_ms(100); /* what is still on the wire comes back */
			break;
		}
		/* a reader that closed stdout ends the prints, not the run */
		if (period != 0 && now - app->prev_tsc >= period && !fwd_stdout_closed()) {
			fwd_stats_read_ports(app);
			fwd_stats_print(app, stdout, false);
		}
	}
	fwd_ctl_stop(app);
}

/* Stop and close the ports, then count what is missing from each pool. */
static int
release_ports_and_check_pools(struct fwd_app *app)
{
	unsigned int s;
	uint16_t p;
	int missing = 0;

	/* what a loop still carries (a net_ring, tx_first's frames): back to the pool */
	for (p = 0; p < app->nb_ports; p++) {
		uint16_t q;

		for (q = 0; app->ports[p].started && q < app->ports[p].nb_rxq; q++) {
			struct rte_mbuf *pkts[FWD_MAX_BURST];
			uint16_t n, tries;

			for (tries = 0; tries < 64; tries++) {
				n = rte_eth_rx_burst(p, q, pkts, FWD_MAX_BURST);
				if (n == 0)
					break;
				rte_pktmbuf_free_bulk(pkts, n);
			}
		}
	}
	for (p = 0; p < app->nb_ports; p++)
		fwd_port_stop(&app->ports[p]);
	for (p = 0; p < app->nb_ports; p++)
		fwd_port_close(&app->ports[p]);
	/*
	 * the components hold packets (the router's ARP hold queues, punt rings): back
	 * first; what their own pools miss is added (the router's fragpool, the twins')
	 */
	fwd_components_release(app, &missing);
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		struct rte_mempool *mp = app->pools[s];
		unsigned int avail;

		if (mp == NULL)
			continue;
		avail = rte_mempool_avail_count(mp);
		if (avail != mp->size) {
			fwd_err("mbuf leak: %u of %u mbufs of pool %s did not come back",
				mp->size - avail, mp->size, mp->name);
			missing += (int)(mp->size - avail);
		}
	}
	return missing;
}

static void
free_all(struct fwd_app *app)
{
	unsigned int i;
	uint16_t p;

	fwd_components_free(app);
	fwd_components_fini(app);
	for (i = 0; i < app->n_workers; i++)
		rte_free(app->workers[i]);
	app->n_workers = 0;
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		rte_mempool_free(app->pools[i]);
		app->pools[i] = NULL;
	}
	for (p = 0; p < app->nb_ports; p++) {
		free(app->ports[p].xstat_names);
		free(app->ports[p].xstat_values);
		app->ports[p].xstat_names = NULL;
		app->ports[p].xstat_values = NULL;
	}
}

void
fwd_app_abort(struct fwd_app *app)
{
	release_ports_and_check_pools(app);
	free_all(app);
}

int
fwd_app_teardown(struct fwd_app *app)
{
	int ret = 0;

	fwd_ctl_stop(app);
	fwd_stats_read_ports(app); /* before close: a closed port has no counters */
	app->leak = release_ports_and_check_pools(app);
	fwd_stats_print(app, stdout, true);
	if (app->cfg.stats_file[0] != '\0') {
		char why[FWD_ERR_LEN - 64];

		if (fwd_stats_write_json(app, app->cfg.stats_file, why, sizeof(why)) < 0) {
			fwd_err("cannot write stats file %s: %s", app->cfg.stats_file, why);
			ret = -EIO;
		}
	}
	if (app->leak != 0)
		ret = -EFAULT;
	free_all(app);
	rt_config_free(&app->cfg.route); /* the shell and the stats file are done with it */
	return ret;
}
