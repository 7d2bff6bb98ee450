/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_launch.h>

#include "fwd_ctl.h"
#include "fwd_component.h"
#include "fwd_log.h"
#include "fwd_port.h"
#include "fwd_route.h"
#include "fwd_stats.h"
#include "rt_worker_setup.h"

static bool
txq_is_stopped(const struct fwd_app *app, uint16_t port, uint16_t queue)
{
	return queue < 64 && (app->ports[port].txq_stopped >> queue & 1);
}

/* Point every RX source at its output, or at nothing while a port or queue is down. */
static void
apply_port_states(struct fwd_app *app)
{
	unsigned int i, j;

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];
		uint16_t p;

		for (p = 0; p < app->nb_ports; p++) {
			lc->out_down[p] = app->ports[p].started ? FWD_OUT_UP : FWD_OUT_PORT_DOWN;
			/* route mode: TX buffer p is port p's, on this worker's queue */
			if (lc->out_down[p] == FWD_OUT_UP && p < lc->n_txb &&
				lc->txb[p].port == p && txq_is_stopped(app, p, lc->txb[p].queue))
				lc->out_down[p] = FWD_OUT_TXQ_STOPPED;
		}
		/* the generator sends on TX buffer 0 */
		lc->pg_tx_down = lc->n_txb != 0 &&
				 (!app->ports[lc->txb[0].port].started ||
					 txq_is_stopped(app, lc->txb[0].port, lc->txb[0].queue));
		for (j = 0; j < lc->n_rx; j++) {
			struct fwd_rx_source *src = &lc->rx[j];
			const struct fwd_txbuf *b = &lc->txb[src->txb_up];
			const struct fwd_port *in = &app->ports[src->port];

			src->down = !in->started ||
				    (src->queue < 64 && (in->rxq_stopped >> src->queue & 1));
			if (!app->ports[b->port].started)
				src->txb = FWD_TXB_DOWN;
			else if (txq_is_stopped(app, b->port, b->queue))
				src->txb = FWD_TXB_QSTOPPED;
			else
				src->txb = src->txb_up;
		}
	}
}

/* Ports @p port names: one, or all of them (RTE_MAX_ETHPORTS). */
static int
port_range(const struct fwd_app *app, uint16_t port, uint16_t *first, uint16_t *last, char *err,
	size_t errlen)
{
	if (port == RTE_MAX_ETHPORTS) {
		*first = 0;
		*last = app->nb_ports - 1;
		return 0;
	}
	if (port >= app->nb_ports) {
		if (err != NULL)
			snprintf(err, errlen, "port %u does not exist (%u ports)", port,
				app->nb_ports);
		return -ENODEV;
	}
	*first = *last = port;
	return 0;
}

/* The ports' counters at the start of a run: stop prints what the run added. */
static void
take_run_base(struct fwd_app *app)
{
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++)
		if (fwd_stats_port_get(app, i, &app->ports[i].run_base) != 0)
			memset(&app->ports[i].run_base, 0, sizeof(app->ports[i].run_base));
}

/* Launch the workers: a new run, or (@p resume) the one fwd_ctl_pause() stopped going on. */
static int
start(struct fwd_app *app, bool resume)
{
	unsigned int i;

	if (app->running)
		return -EALREADY;
	apply_port_states(app);
	app->fwd_stop = false;
	app->pg_sending = app->n_workers;
	if (app->start_tsc == 0)
		app->start_tsc = rte_get_tsc_cycles();
	/*
	 * Counters and time restart together: a rate spans what ran since this
	 * start only (a change made while stopped, a clear, a port restart, may
	 * change the rate: shell-rates). A resume is the same run: its base, what
	 * stop prints, stays.
	 */
	fwd_stats_rate_base(app);
	app->run_tsc = app->prev_tsc;
	if (!resume && !app->run_base_set)
		take_run_base(app);
	app->run_base_set = false;
	for (i = 0; i < app->n_workers; i++)
		rte_eal_remote_launch(fwd_lcore_main, app->workers[i], app->workers[i]->lcore_id);
	app->running = true;
	FWD_LOG(INFO, "%s forwarding on %u lcore%s, burst %u%s\n", fwd_mode_name(app->cfg.mode),
		app->n_workers, app->n_workers == 1 ? "" : "s", app->cfg.burst,
		app->cfg.idle == FWD_IDLE_SLEEP ? ", sleeping when idle (--idle sleep)" : "");
	return 0;
}

int
fwd_ctl_start(struct fwd_app *app)
{
	return start(app, false);
}

/* Stop the workers; @p pause: for a change in the user's run (generators go on after). */
static int
stop(struct fwd_app *app, bool pause)
{
	if (!app->running)
		return -EALREADY;
	app->pg_keep = pause;
	app->fwd_stop = true;
	rte_eal_mp_wait_lcore();
	app->pg_keep = false;
	app->running = false;
	app->stop_tsc = rte_get_tsc_cycles();
	app->busy_tsc += app->stop_tsc - app->run_tsc;
	return 0;
}

int
fwd_ctl_stop(struct fwd_app *app)
{
	return stop(app, false);
}

bool
fwd_ctl_pause(struct fwd_app *app)
{
	return stop(app, true) == 0;
}

bool
fwd_ctl_pause_generators_end(struct fwd_app *app)
{
	return stop(app, false) == 0;
}

void
fwd_ctl_resume(struct fwd_app *app, bool was_running)
{
	if (was_running)
		start(app, true);
}

/*
 * tx_first's frames go out of queue 0 of port @p p, a worker's TX queue: they
 * count as that worker's (tx_pkts, its queue's line, and tx_first, so that
 * its balance holds), written here because the workers are stopped.
 */
static void
tx_first_count(struct fwd_app *app, uint16_t p, uint16_t n, uint16_t len)
{
	struct fwd_port *fp = &app->ports[p];
	unsigned int i, k;

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		for (k = 0; k < lc->n_txb; k++) {
			struct fwd_txbuf *b = &lc->txb[k];

			if (b->port != p || b->queue != 0)
				continue;
			lc->stats.tx_pkts += n;
			lc->stats.tx_first += n;
			b->tx_pkts += n;
			if (b->count_bytes)
				b->tx_bytes += (uint64_t)n * len;
			return;
		}
	}
	if (fp->app_bytes) /* no worker sends there: the port's bytes all the same */
		fp->app_obytes += (uint64_t)n * len;
}

int
fwd_ctl_tx_first(struct fwd_app *app, char *err, size_t errlen)
{
	enum fwd_mode m = app->cfg.mode;
	int sent = 0;
	uint16_t p;

	if (app->running) {
		snprintf(err, errlen, "forwarding is already started");
		return -EALREADY;
	}
	if (m != FWD_MODE_IO && m != FWD_MODE_MAC && m != FWD_MODE_MACSWAP) {
		snprintf(err, errlen,
			"tx_first needs a mode that forwards what it receives (io, mac, "
			"macswap), not %s: use start",
			fwd_mode_name(m));
		return -ENOTSUP;
	}
	/* as in testpmd, the burst sent first belongs to the run it starts (stop's summary) */
	take_run_base(app);
	app->run_base_set = true;
	for (p = 0; p < app->nb_ports; p++) {
		struct fwd_port *fp = &app->ports[p];
		struct rte_mbuf *pkts[FWD_MAX_BURST];
		uint16_t n = app->cfg.burst, k, done;

		if (!fp->started || app->pools[fp->socket] == NULL)
			continue;
		if (rte_pktmbuf_alloc_bulk(app->pools[fp->socket], pkts, n) != 0) {
			snprintf(err, errlen, "port %u: no mbufs for tx_first", p);
			return -ENOMEM;
		}
		for (k = 0; k < n; k++) {
			struct rte_ether_hdr *eh =
				(struct rte_ether_hdr *)rte_pktmbuf_append(pkts[k], 60);

			/* a minimal frame to the peer, as the port's own forwarding would send */
			memset(eh, 0, 60);
			rte_ether_addr_copy(&app->cfg.peer[p], &eh->dst_addr);
			rte_ether_addr_copy(&fp->mac, &eh->src_addr);
			eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
		}
		/* the workers are not running: queue 0 is free to use from here */
		done = rte_eth_tx_burst(p, 0, pkts, n);
		tx_first_count(app, p, done, 60);
		if (done < n)
			rte_pktmbuf_free_bulk(pkts + done, n - done);
		sent += done;
	}
	return sent;
}

void
fwd_ctl_start_configured(struct fwd_app *app)
{
	char err[FWD_ERR_LEN];

	if (app->cfg.tx_first && !app->running) {
		int n = fwd_ctl_tx_first(app, err, sizeof(err));

		if (n < 0)
			FWD_LOG(WARNING, "--tx-first: %s\n", err);
		else
			FWD_LOG(INFO, "tx_first: sent %d packets\n", n);
	}
	fwd_ctl_start(app);
}

int
fwd_ctl_set_burst(struct fwd_app *app, unsigned int burst, char *err, size_t errlen)
{
	unsigned int i, k;
	bool was_running;

	if (burst < 1 || burst > FWD_MAX_BURST) {
		snprintf(err, errlen, "burst %u: expected 1 to %d", burst, FWD_MAX_BURST);
		return -EINVAL;
	}
	was_running = fwd_ctl_pause(app);
	app->cfg.burst = (uint16_t)burst;
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		lc->burst = (uint16_t)burst;
		for (k = 0; k < lc->n_txb; k++)
			lc->txb[k].burst = (uint16_t)burst;
	}
	fwd_ctl_resume(app, was_running);
	return 0;
}

int
fwd_ctl_set_mode(struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen)
{
	unsigned int i;
	int ret;
	bool was_running;

	if ((unsigned int)mode >= FWD_MODE_MAX) {
		snprintf(err, errlen, "no forwarding mode %u", (unsigned int)mode);
		return -EINVAL;
	}
	/* a mode whose state is set up at start only (the router's, the generators') */
	ret = fwd_components_mode_check(app, mode, err, errlen);
	if (ret < 0)
		return ret;
	was_running = fwd_ctl_pause(app);
	app->cfg.mode = mode;
	for (i = 0; i < app->n_workers; i++)
		app->workers[i]->mode = mode;
	fwd_ctl_resume(app, was_running);
	return 0;
}

int
fwd_ctl_port_set(struct fwd_app *app, uint16_t port, bool up, char *err, size_t errlen)
{
	uint16_t p, first, last;
	int ret = port_range(app, port, &first, &last, err, errlen);
	bool was_running;

	if (ret < 0)
		return ret;
	was_running = fwd_ctl_pause(app);
	for (p = first; p <= last && ret == 0; p++) {
		struct fwd_port *fp = &app->ports[p];

		if (!up) {
			fwd_port_stop(fp);
			continue;
		}
		if (fp->started)
			continue;
		ret = rte_eth_dev_start(p);
		if (ret < 0) {
			snprintf(err, errlen, "port %u (%s): start failed: %s", p, fp->name,
				rte_strerror(-ret));
		} else {
			fp->started = true;
			/* a port start starts every queue */
			fp->rxq_stopped = 0;
			fp->txq_stopped = 0;
		}
	}
	fwd_ctl_resume(app, was_running);
	return ret;
}

int
fwd_ctl_queue_set(struct fwd_app *app, uint16_t port, bool rx, uint16_t queue, bool up, char *err,
	size_t errlen)
{
	const char *dir = rx ? "rxq" : "txq";
	struct fwd_port *fp;
	bool was_running;
	uint64_t *mask;
	uint16_t first, last;
	int ret = port_range(app, port, &first, &last, err, errlen);

	if (ret < 0)
		return ret;
	if (port == RTE_MAX_ETHPORTS) {
		snprintf(err, errlen, "%s start|stop takes one port", dir);
		return -EINVAL;
	}
	fp = &app->ports[port];
	if (queue >= (rx ? fp->nb_rxq : fp->nb_txq) || queue >= 64) {
		snprintf(err, errlen, "port %u (%s): no %s %u (%u configured)", port, fp->name, dir,
			queue, rx ? fp->nb_rxq : fp->nb_txq);
		return -EINVAL;
	}
	if (!fp->started) {
		snprintf(err, errlen, "port %u (%s) is stopped: start it first", port, fp->name);
		return -EINVAL;
	}
	mask = rx ? &fp->rxq_stopped : &fp->txq_stopped;
	if (!!(*mask >> queue & 1) == !up)
		return 0;
	/* the workers see the new state only once they are stopped and started again */
	was_running = fwd_ctl_pause(app);
	if (rx)
		ret = up ? rte_eth_dev_rx_queue_start(port, queue)
			 : rte_eth_dev_rx_queue_stop(port, queue);
	else
		ret = up ? rte_eth_dev_tx_queue_start(port, queue)
			 : rte_eth_dev_tx_queue_stop(port, queue);
	if (ret == -ENOTSUP)
		snprintf(err, errlen, "port %u (%s): the driver cannot %s %s %u", port, fp->name,
			up ? "start" : "stop", dir, queue);
	else if (ret < 0)
		snprintf(err, errlen, "port %u (%s): %s %u %s failed: %s", port, fp->name, dir,
			queue, up ? "start" : "stop", rte_strerror(-ret));
	else if (up)
		*mask &= ~(UINT64_C(1) << queue);
	else
		*mask |= UINT64_C(1) << queue;
	if (was_running)
		fwd_ctl_resume(app, true);
	else
		apply_port_states(app);
	return ret;
}

int
fwd_ctl_promisc(struct fwd_app *app, uint16_t port, bool on, char *err, size_t errlen)
{
	uint16_t p, first, last;

	if (port_range(app, port, &first, &last, err, errlen) < 0)
		return -ENODEV;
	for (p = first; p <= last; p++) {
		int ret = on ? rte_eth_promiscuous_enable(p) : rte_eth_promiscuous_disable(p);

		if (ret < 0) {
			snprintf(err, errlen, "port %u: cannot turn promiscuous mode %s: %s", p,
				on ? "on" : "off", rte_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int
fwd_ctl_clear_port_stats(struct fwd_app *app, uint16_t port)
{
	uint16_t p, first, last;

	if (port_range(app, port, &first, &last, NULL, 0) < 0)
		return -ENODEV;
	for (p = first; p <= last; p++) {
		rte_eth_stats_reset(p);
		rte_eth_xstats_reset(p);
		/* a worker may add to its byte counts meanwhile: what it adds now is after the clear */
		fwd_stats_app_bytes(
			app, p, &app->ports[p].app_ibytes_clr, &app->ports[p].app_obytes_clr);
		memset(&app->ports[p].stats, 0, sizeof(app->ports[p].stats));
		memset(&app->ports[p].prev_stats, 0, sizeof(app->ports[p].prev_stats));
		app->ports[p].busy_at_clear = fwd_stats_busy(app);
	}
	/* the next rate counts from zero at this instant, not from the previous print */
	fwd_stats_rate_base(app);
	return 0;
}

void
fwd_ctl_clear_fwd_stats(struct fwd_app *app)
{
	unsigned int i, j;
	/* counters belong to their worker: zero them only while it is stopped */
	const bool was_running = fwd_ctl_pause(app);

	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		memset(&lc->stats, 0, sizeof(lc->stats));
		if (lc->rt != NULL) /* forwarded and punted: they add up with rx and tx */
			memset(&lc->rt->stats, 0, sizeof(lc->rt->stats));
		for (j = 0; j < lc->n_rx; j++)
			lc->rx[j].rx_pkts = 0;
		for (j = 0; j < lc->n_txb; j++)
			lc->txb[j].tx_pkts = 0;
	}
	/*
	 * the router's slow path among them, which the totals show (ttl_exceeded,
	 * ...), and the flow tables' counters and every flow's packets and bytes
	 */
	fwd_components_clear(app);
	fwd_ctl_resume(app, was_running);
}
