/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "fwd_component.h"
#include "fwd_log.h"
#include "fwd_port.h"
#include "fwd_route.h"
#include "fwd_stats.h"

static const char *const drop_names[] = {
#define FWD_DROP_NAME(sym, name, desc) name,
	FWD_DROP_REASONS(FWD_DROP_NAME)
#undef FWD_DROP_NAME
};

static const char *const drop_descs[] = {
#define FWD_DROP_DESC(sym, name, desc) desc,
	FWD_DROP_REASONS(FWD_DROP_DESC)
#undef FWD_DROP_DESC
};

const char *
fwd_drop_name(enum fwd_drop_reason r)
{
	return (unsigned int)r < FWD_DROP_MAX ? drop_names[r] : "unknown";
}

const char *
fwd_drop_desc(enum fwd_drop_reason r)
{
	return (unsigned int)r < FWD_DROP_MAX ? drop_descs[r] : "unknown";
}

uint64_t
fwd_stats_drop_total(const struct fwd_app *app, enum fwd_drop_reason r)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < app->n_workers; i++)
		sum += app->workers[i]->stats.drops[r];
	return sum + fwd_route_ctl_drops(app, r);
}

uint64_t
fwd_stats_lcore_dropped(const uint64_t drops[FWD_DROP_MAX])
{
	uint64_t sum = 0;
	unsigned int r;

	for (r = 0; r < FWD_DROP_MAX; r++)
		if (r != FWD_DROP_PKTGEN_RX)
			sum += drops[r];
	return sum;
}

void
fwd_stats_app_bytes(const struct fwd_app *app, uint16_t p, uint64_t *ibytes, uint64_t *obytes)
{
	uint64_t ib = 0, ob = app->ports[p].app_obytes;
	unsigned int i, j;

	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];

		for (j = 0; j < lc->n_rx; j++)
			if (lc->rx[j].port == p)
				ib += lc->rx[j].rx_bytes;
		for (j = 0; j < lc->n_txb; j++)
			if (lc->txb[j].port == p)
				ob += lc->txb[j].tx_bytes;
	}
	*ibytes = ib;
	*obytes = ob;
}

int
fwd_stats_port_get(const struct fwd_app *app, uint16_t p, struct rte_eth_stats *s)
{
	const struct fwd_port *port = &app->ports[p];
	uint64_t ib, ob;
	int ret = rte_eth_stats_get(p, s);

	if (ret < 0 || p >= app->nb_ports || !port->app_bytes)
		return ret;
	fwd_stats_app_bytes(app, p, &ib, &ob);
	s->ibytes = ib - port->app_ibytes_clr;
	s->obytes = ob - port->app_obytes_clr;
	return 0;
}

/*
 * Frames the PMD took for port @p p (every TX buffer's accepted count, the
 * slow path's included) that the device does not count as sent: a device
 * that discards what it cannot parse says nothing else. QEMU's igb model
 * drops on TX a frame whose IPv4 or IPv6 header it cannot parse (an IPv4
 * IHL below 5, an IPv6 extension chain past the frame) while the PMD sees the
 * descriptor done; real hardware sends it. Read when TX has drained (the
 * final stats, after the workers stopped) it is exact; 0 when the device
 * counts more than the buffers gave it (the control thread's own sends).
 */
uint64_t
fwd_stats_port_tx_lost(const struct fwd_app *app, uint16_t p, const struct rte_eth_stats *s)
{
	uint64_t accepted = 0;
	unsigned int i, j;

	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];

		for (j = 0; j < lc->n_txb; j++)
			if (lc->txb[j].port == p)
				accepted +=
					((const volatile struct fwd_txbuf *)&lc->txb[j])->tx_pkts;
	}
	return accepted > s->opackets ? accepted - s->opackets : 0;
}

/*
 * One lcore's counters, copied at one moment: a display prints from the
 * copy, so every figure of a block (an lcore's dropped beside the reasons
 * it sums, the lcores beside the totals) comes from one read of each
 * counter. What leaves an lcore (tx, drops, punts) is read before what
 * enters it (rx, the slow path's frames): the worker counts a packet in
 * before it counts it out, so the difference, the packets in flight (in a
 * TX buffer, or in the burst in hand), is never negative.
 */
struct lcore_snap {
	struct fwd_lcore_stats st;
	uint64_t punted;
	uint64_t in_flight;
	uint64_t rx_q[FWD_MAX_RX_PER_LCORE];
	uint64_t tx_q[RTE_MAX_ETHPORTS];
	uint64_t dropped; /**< sum of st.drops[] but pktgen_rx */
	uint64_t
		measured; /**< st.drops[FWD_DROP_PKTGEN_RX]: the generator's receive side took them */
};

/* Every worker's counters, and the drop totals from the same copy. */
struct stats_snap {
	uint64_t drops[FWD_DROP_MAX]; /**< the lcores' and the slow path's */
	uint64_t ctl_dropped;         /**< of those, the slow path's */
	uint64_t rx, tx, dropped, in_flight, punted, slow_tx, tx_first,
		measured; /**< over lcores */
	struct lcore_snap lc[];
};

static void
snap_lcore(const struct fwd_lcore *lc, struct lcore_snap *s)
{
	const volatile struct fwd_lcore_stats *v = &lc->stats;
	uint64_t in, out;
	unsigned int r;

	/*
	 * An lcore's rx and tx are the sums of its queues' (each packet is
	 * counted in both, the same way): taken from the queues' copies, the
	 * queue lines add up to the lcore's.
	 */
	s->st.tx_pkts = 0;
	for (r = 0; r < lc->n_txb; r++) {
		s->tx_q[r] = ((const volatile struct fwd_txbuf *)&lc->txb[r])->tx_pkts;
		s->st.tx_pkts += s->tx_q[r];
	}
	for (r = 0; r < FWD_DROP_MAX; r++)
		s->st.drops[r] = v->drops[r];
	s->punted = fwd_route_punted(lc);
	rte_smp_rmb();
	s->st.rx_pkts = 0;
	for (r = 0; r < lc->n_rx; r++) {
		s->rx_q[r] = ((const volatile struct fwd_rx_source *)&lc->rx[r])->rx_pkts;
		s->st.rx_pkts += s->rx_q[r];
	}
	s->st.slow_tx = v->slow_tx;
	s->st.tx_first = v->tx_first;
	s->st.rx_bursts = v->rx_bursts;
	s->st.polls = v->polls;
	s->st.idle_sleeps = v->idle_sleeps;
	s->st.idle_wakeups = v->idle_wakeups;
	/* what --fwd pktgen receives is measured, not dropped: shown apart */
	s->dropped = fwd_stats_lcore_dropped(s->st.drops);
	s->measured = s->st.drops[FWD_DROP_PKTGEN_RX];
	in = s->st.rx_pkts + s->st.slow_tx + s->st.tx_first;
	out = s->st.tx_pkts + s->dropped + s->measured + s->punted;
	/* --fwd pktgen: what goes out was generated, not received */
	if (lc->pg != NULL)
		in += s->st.tx_pkts;
	s->in_flight = in >= out ? in - out : 0;
}

/* Copy every counter a display prints; NULL (and a log) without memory. */
static struct stats_snap *
snap_take(const struct fwd_app *app)
{
	struct stats_snap *s = calloc(1, sizeof(*s) + app->n_workers * sizeof(s->lc[0]));
	unsigned int i, r;

	if (s == NULL) {
		FWD_LOG(ERR, "no memory for a copy of the counters\n");
		return NULL;
	}
	for (i = 0; i < app->n_workers; i++) {
		struct lcore_snap *l = &s->lc[i];

		snap_lcore(app->workers[i], l);
		for (r = 0; r < FWD_DROP_MAX; r++)
			s->drops[r] += l->st.drops[r];
		s->rx += l->st.rx_pkts;
		s->tx += l->st.tx_pkts;
		s->dropped += l->dropped;
		s->measured += l->measured;
		s->in_flight += l->in_flight;
		s->punted += l->punted;
		s->slow_tx += l->st.slow_tx;
		s->tx_first += l->st.tx_first;
	}
	for (r = 0; r < FWD_DROP_MAX; r++) {
		uint64_t c = fwd_route_ctl_drops(app, r);

		s->drops[r] += c;
		s->ctl_dropped += c;
	}
	return s;
}

static void
read_xstats(struct fwd_port *p)
{
	int n = rte_eth_xstats_get_names(p->id, NULL, 0);

	if (n <= 0)
		return;
	if (p->xstat_names == NULL || n != p->n_xstats) {
		free(p->xstat_names);
		free(p->xstat_values);
		p->xstat_names = calloc(n, sizeof(*p->xstat_names));
		p->xstat_values = calloc(n, sizeof(*p->xstat_values));
		p->n_xstats = 0;
		if (p->xstat_names == NULL || p->xstat_values == NULL ||
			rte_eth_xstats_get_names(p->id, p->xstat_names, n) != n)
			return;
	}
	if (rte_eth_xstats_get_by_id(p->id, NULL, p->xstat_values, n) != n)
		return;
	p->n_xstats = n;
}

void
fwd_stats_read_ports(struct fwd_app *app)
{
	uint16_t i;

	for (i = 0; i < app->nb_ports; i++) {
		struct fwd_port *p = &app->ports[i];

		p->prev_stats = p->stats;
		if (fwd_stats_port_get(app, p->id, &p->stats) < 0)
			p->stats = p->prev_stats;
		if (app->cfg.xstats)
			read_xstats(p);
	}
}

void
fwd_stats_rate_base(struct fwd_app *app)
{
	uint16_t i;

	fwd_stats_read_ports(app);
	for (i = 0; i < app->nb_ports; i++)
		app->ports[i].prev_stats = app->ports[i].stats;
	app->prev_tsc = rte_get_tsc_cycles();
}

uint64_t
fwd_stats_busy(const struct fwd_app *app)
{
	return app->busy_tsc + (app->running ? rte_get_tsc_cycles() - app->run_tsc : 0);
}

static double
rate(uint64_t now, uint64_t before, double secs)
{
	/* a PMD that zeroes its counters on a port restart: count from zero */
	if (now < before)
		before = 0;
	return secs > 0 ? (double)(now - before) / secs : 0.0;
}

void
fwd_stats_print(struct fwd_app *app, FILE *f, bool final)
{
	uint64_t now = final ? app->stop_tsc : rte_get_tsc_cycles();
	/* while stopped nothing moves: the rate's time ends at the stop */
	uint64_t end = app->running ? now : app->stop_tsc;
	double hz = (double)rte_get_tsc_hz();
	double since_start = app->start_tsc != 0 ? (double)(now - app->start_tsc) / hz : 0.0;
	double since_prev = end > app->prev_tsc ? (double)(end - app->prev_tsc) / hz : 0.0;
	uint64_t busy = fwd_stats_busy(app);
	/* the lcores first: the ports' counters were read just before (they lead them) */
	struct stats_snap *snap = snap_take(app);
	unsigned int i, r;
	uint16_t p;

	if (snap == NULL)
		return;

	fprintf(f, "\n=== %s: %s forwarding, %.1f s ===\n", final ? "final stats" : "stats",
		fwd_mode_name(app->cfg.mode), since_start);

	for (p = 0; p < app->nb_ports; p++) {
		const struct fwd_port *port = &app->ports[p];
		const struct rte_eth_stats *s = &port->stats;
		const struct rte_eth_stats *b = &port->prev_stats;
		struct rte_eth_stats zero = {0};

		/* the exit report: averages over the time forwarded since the last clear */
		if (final) {
			b = &zero;
			since_prev = (double)(busy - port->busy_at_clear) / hz;
		}
		fprintf(f,
			"port %u (%s): rx %" PRIu64 " pkts %" PRIu64
			" bytes (%.3f Mpps) | tx %" PRIu64 " pkts %" PRIu64
			" bytes (%.3f Mpps) | missed %" PRIu64 " rx-errors %" PRIu64
			" tx-errors %" PRIu64 " rx-nombuf %" PRIu64 "\n",
			port->id, port->name, s->ipackets, s->ibytes,
			rate(s->ipackets, b->ipackets, since_prev) / 1e6, s->opackets, s->obytes,
			rate(s->opackets, b->opackets, since_prev) / 1e6, s->imissed, s->ierrors,
			s->oerrors, s->rx_nombuf);
		if (final && fwd_stats_port_tx_lost(app, port->id, s) != 0)
			fprintf(f,
				"    tx-lost %" PRIu64 " (the PMD took them; the device did not "
				"send them)\n",
				fwd_stats_port_tx_lost(app, port->id, s));
		for (i = 0; i < (unsigned int)port->n_xstats; i++)
			if (port->xstat_values[i] != 0)
				fprintf(f, "    %s: %" PRIu64 "\n", port->xstat_names[i].name,
					port->xstat_values[i]);
	}

	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];
		const struct lcore_snap *l = &snap->lc[i];

		fprintf(f,
			"lcore %u: rx %" PRIu64 " tx %" PRIu64 " dropped %" PRIu64
			" in flight %" PRIu64,
			lc->lcore_id, l->st.rx_pkts, l->st.tx_pkts, l->dropped, l->in_flight);
		/* so that rx + from + tx_first = tx + dropped + to + in flight adds up in route mode */
		if (lc->rt != NULL)
			fprintf(f, " | to slow path %" PRIu64 " from slow path %" PRIu64, l->punted,
				l->st.slow_tx);
		if (l->st.tx_first != 0)
			fprintf(f, " | tx_first %" PRIu64, l->st.tx_first);
		/* rx + generated = tx + dropped + measured + in flight */
		if (lc->pg != NULL)
			fprintf(f, " | generated %" PRIu64 " measured %" PRIu64, l->st.tx_pkts,
				l->measured);
		fprintf(f, " | avg burst %.1f",
			l->st.rx_bursts ? (double)l->st.rx_pkts / l->st.rx_bursts : 0.0);
		/* --idle sleep: how often it slept, and how many of those an interrupt ended */
		if (lc->idle_sleep)
			fprintf(f, " | polls %" PRIu64 " sleeps %" PRIu64 " wakeups %" PRIu64,
				l->st.polls, l->st.idle_sleeps, l->st.idle_wakeups);
		fprintf(f, "\n");
		for (r = 0; r < lc->n_rx; r++)
			fprintf(f, "    rx port %u queue %u: %" PRIu64 " pkts\n", lc->rx[r].port,
				lc->rx[r].queue, l->rx_q[r]);
		for (r = 0; r < lc->n_txb; r++)
			fprintf(f, "    tx port %u queue %u: %" PRIu64 " pkts\n", lc->txb[r].port,
				lc->txb[r].queue, l->tx_q[r]);
	}
	if (app->n_workers > 1 || app->cfg.mode == FWD_MODE_ROUTE) {
		fprintf(f,
			"all lcores: rx %" PRIu64 " tx %" PRIu64 " dropped %" PRIu64
			" in flight %" PRIu64,
			snap->rx, snap->tx, snap->dropped, snap->in_flight);
		if (app->cfg.mode == FWD_MODE_ROUTE)
			fprintf(f,
				" | to slow path %" PRIu64 " from slow path %" PRIu64
				" | slow path dropped %" PRIu64,
				snap->punted, snap->slow_tx, snap->ctl_dropped);
		if (snap->tx_first != 0)
			fprintf(f, " | tx_first %" PRIu64, snap->tx_first);
		if (app->cfg.mode == FWD_MODE_PKTGEN)
			fprintf(f, " | measured %" PRIu64, snap->measured);
		fprintf(f, "\n");
	}

	fwd_components_print(app, f, final);
	/* the lcores' dropped and the slow path's sum to these */
	fprintf(f, "drops:");
	for (r = 0; r < FWD_DROP_MAX; r++) {
		uint64_t n = snap->drops[r];

		/*
		 * The router's reasons only where it runs, and then only those that
		 * happened; not pktgen_rx, which is no drop (the lcores' "measured").
		 */
		if (r == FWD_DROP_PKTGEN_RX)
			continue;
		if (r < FWD_DROP_ROUTE_FIRST || (app->cfg.mode == FWD_MODE_ROUTE && n != 0))
			fprintf(f, " %s %" PRIu64, drop_names[r], n);
	}
	fprintf(f, "\n");
	if (!final)
		app->prev_tsc = now;
	fflush(f);
	free(snap);
}

void
fwd_stats_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void
json_ports(const struct fwd_app *app, FILE *f)
{
	uint16_t p;
	int i;

	fprintf(f, "  \"ports\": [");
	for (p = 0; p < app->nb_ports; p++) {
		const struct fwd_port *port = &app->ports[p];
		const struct rte_eth_stats *s = &port->stats;

		fprintf(f, "%s\n    {\"port\": %u, \"name\": ", p ? "," : "", port->id);
		fwd_stats_json_string(f, port->name);
		fprintf(f,
			", \"mac\": \"" RTE_ETHER_ADDR_PRT_FMT "\", \"out_port\": %u"
			", \"rx_queues\": %u, \"tx_queues\": %u, \"rss\": %s"
			", \"rx_ip_cksum\": %s, \"link_up\": %s, \"link_changes\": %u"
			", \"ipackets\": %" PRIu64 ", \"opackets\": %" PRIu64
			", \"ibytes\": %" PRIu64 ", \"obytes\": %" PRIu64 ", \"imissed\": %" PRIu64
			", \"ierrors\": %" PRIu64 ", \"oerrors\": %" PRIu64
			", \"rx_nombuf\": %" PRIu64 ", \"tx_lost\": %" PRIu64,
			RTE_ETHER_ADDR_BYTES(&port->mac), port->out_port, port->nb_rxq,
			port->nb_txq, port->rss ? "true" : "false",
			port->rx_ip_cksum ? "true" : "false",
			port->link == FWD_LINK_UP ? "true" : "false", port->link_changes,
			s->ipackets, s->opackets, s->ibytes, s->obytes, s->imissed, s->ierrors,
			s->oerrors, s->rx_nombuf, fwd_stats_port_tx_lost(app, port->id, s));
		if (app->cfg.xstats) {
			fprintf(f, ", \"xstats\": {");
			for (i = 0; i < port->n_xstats; i++) {
				fprintf(f, "%s", i ? ", " : "");
				fwd_stats_json_string(f, port->xstat_names[i].name);
				fprintf(f, ": %" PRIu64, port->xstat_values[i]);
			}
			fprintf(f, "}");
		}
		fprintf(f, "}");
	}
	fprintf(f, "\n  ],\n");
}

static void
json_lcores(const struct fwd_app *app, const struct stats_snap *snap, FILE *f)
{
	unsigned int i, j;

	fprintf(f, "  \"lcores\": [");
	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];
		const struct lcore_snap *l = &snap->lc[i];

		fprintf(f,
			"%s\n    {\"lcore\": %u, \"rx_pkts\": %" PRIu64 ", \"tx_pkts\": %" PRIu64
			", \"rx_bursts\": %" PRIu64 ", \"polls\": %" PRIu64 ", \"punted\": %" PRIu64
			", \"slow_tx\": %" PRIu64 ", \"tx_first\": %" PRIu64
			", \"in_flight\": %" PRIu64 ", \"idle_sleeps\": %" PRIu64
			", \"idle_wakeups\": %" PRIu64 ", \"drops\": {",
			i ? "," : "", lc->lcore_id, l->st.rx_pkts, l->st.tx_pkts, l->st.rx_bursts,
			l->st.polls, l->punted, l->st.slow_tx, l->st.tx_first, l->in_flight,
			l->st.idle_sleeps, l->st.idle_wakeups);
		for (j = 0; j < FWD_DROP_MAX; j++)
			fprintf(f, "%s\"%s\": %" PRIu64, j ? ", " : "", drop_names[j],
				l->st.drops[j]);
		fprintf(f, "}, \"rx_queues\": [");
		for (j = 0; j < lc->n_rx; j++)
			fprintf(f, "%s{\"port\": %u, \"queue\": %u, \"pkts\": %" PRIu64 "}",
				j ? ", " : "", lc->rx[j].port, lc->rx[j].queue, l->rx_q[j]);
		fprintf(f, "], \"tx_queues\": [");
		for (j = 0; j < lc->n_txb; j++)
			fprintf(f, "%s{\"port\": %u, \"queue\": %u, \"pkts\": %" PRIu64 "}",
				j ? ", " : "", lc->txb[j].port, lc->txb[j].queue, l->tx_q[j]);
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n");
}

static void
json_pools(const struct fwd_app *app, FILE *f)
{
	unsigned int s, n = 0;

	fprintf(f, "  \"mempools\": [");
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		struct rte_mempool *mp = app->pools[s];

		if (mp == NULL)
			continue;
		fprintf(f, "%s\n    {\"name\": ", n++ ? "," : "");
		fwd_stats_json_string(f, mp->name);
		fprintf(f, ", \"socket\": %u, \"size\": %u, \"available\": %u, \"data_room\": %u}",
			s, mp->size, rte_mempool_avail_count(mp), rte_pktmbuf_data_room_size(mp));
	}
	fprintf(f, "\n  ],\n");
}

/*
 * How the stats file reaches what --stats-file names. A regular file (or a
 * symlink to one, or nothing yet) gets a temporary file renamed over it, so a
 * reader never sees half a file; a rename would replace anything else by a
 * regular file (a symlink by a copy, /dev/null by a file, a FIFO's reader left
 * waiting), so those are written in place.
 */
enum stats_dest {
	STATS_RENAME,   /* write target.tmpPID, rename it onto target */
	STATS_IN_PLACE, /* open target and write into it */
};

/* Is @p st the file our stdout or stderr writes to? ("--stats-file /dev/stdout > log") */
static bool
is_own_output(const struct stat *st)
{
	struct stat o;
	int fd;

	for (fd = 1; fd <= 2; fd++)
		if (fstat(fd, &o) == 0 && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
			return true;
	return false;
}

/* Where the file ends up (@p target) and how; -errno with @p err set if it cannot be. */
static int
stats_dest(const char *path, char *target, enum stats_dest *how, char *err, size_t errlen)
{
	struct stat st, lst;
	char dir[PATH_MAX];
	char *slash;

	if (strlen(path) >= PATH_MAX) {
		snprintf(err, errlen, "file name too long");
		return -ENAMETOOLONG;
	}
	strcpy(target, path);
	*how = STATS_RENAME;
	if (stat(path, &st) != 0) {
		if (errno != ENOENT) {
			snprintf(err, errlen, "%s", strerror(errno));
			return -errno;
		}
		/* a dangling symlink: create what it points to, through it */
		if (lstat(path, &lst) == 0)
			*how = STATS_IN_PLACE;
	} else if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "it is a directory");
		return -EISDIR;
	} else if (S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "it is a %s, not a file to write JSON into",
			S_ISBLK(st.st_mode) ? "block device" : "socket");
		return -EINVAL;
	} else if (!S_ISREG(st.st_mode) || is_own_output(&st)) {
		*how = STATS_IN_PLACE; /* a character device, a FIFO, our own stdout */
	} else if (realpath(path, target) == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -errno;
	}
	if (*how == STATS_IN_PLACE) {
		if (access(path, W_OK) != 0 && errno != ENOENT) {
			snprintf(err, errlen, "%s", strerror(errno));
			return -errno;
		}
		return 0;
	}
	/* the temporary file goes beside the target, to be renamed on one file system */
	snprintf(dir, sizeof(dir), "%s", target);
	slash = strrchr(dir, '/');
	if (slash == NULL)
		strcpy(dir, ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (access(dir, W_OK) != 0) {
		snprintf(err, errlen, "%s (directory %s)", strerror(errno), dir);
		return -errno;
	}
	if (access(target, W_OK) != 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -errno;
	}
	return 0;
}

int
fwd_stats_file_check(const char *path, char *err, size_t errlen)
{
	char target[PATH_MAX];
	enum stats_dest how;

	return stats_dest(path, target, &how, err, errlen);
}

/* Open what the stats go to; a FIFO with no reader fails rather than hangs the exit. */
static FILE *
stats_open(const char *path, enum stats_dest how, mode_t mode, char *err, size_t errlen)
{
	int flags = O_WRONLY | O_CLOEXEC | O_NOCTTY;
	struct stat st;
	FILE *f;
	int fd;

	if (how == STATS_RENAME)
		flags |= O_CREAT | O_EXCL;
	else if (stat(path, &st) != 0)
		flags |= O_CREAT; /* through a dangling symlink */
	else if (S_ISREG(st.st_mode))
		flags |= O_APPEND; /* our own stdout: after what it printed */
	else if (S_ISFIFO(st.st_mode))
		flags |= O_NONBLOCK;
	fd = open(path, flags, mode);
	if (fd < 0) {
		snprintf(err, errlen, "%s",
			errno == ENXIO && (flags & O_NONBLOCK) ? "nothing reads the FIFO"
							       : strerror(errno));
		return NULL;
	}
	if ((flags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		close(fd);
	}
	return f;
}

int
fwd_stats_write_json(const struct fwd_app *app, const char *path, char *err, size_t errlen)
{
	char target[PATH_MAX], tmp[PATH_MAX + 16];
	double secs = (double)(app->stop_tsc - app->start_tsc) / (double)rte_get_tsc_hz();
	struct stats_snap *snap;
	enum stats_dest how;
	mode_t mode = 0666; /* less the umask, as any new file */
	bool keep_mode = false;
	struct stat st;
	unsigned int r;
	FILE *f;
	int ret;

	ret = stats_dest(path, target, &how, err, errlen);
	if (ret < 0)
		return ret;
	if (how == STATS_RENAME) {
		if (snprintf(tmp, sizeof(tmp), "%s.tmp%d", target, (int)getpid()) >=
			(int)sizeof(tmp)) {
			snprintf(err, errlen, "file name too long");
			return -ENAMETOOLONG;
		}
		/* a file replaced keeps its permissions */
		if (stat(target, &st) == 0) {
			mode = st.st_mode & 07777;
			keep_mode = true;
		}
		unlink(tmp); /* left by a crashed run of the same pid */
	}
	f = stats_open(how == STATS_RENAME ? tmp : path, how, mode, err, errlen);
	if (f == NULL)
		return -EIO;
	snap = snap_take(app);
	if (snap == NULL) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		fclose(f);
		if (how == STATS_RENAME)
			unlink(tmp);
		return -ENOMEM;
	}
	/*
	 * The umask must not narrow a replaced file's mode; a new file has what
	 * open() gave it, 0666 less the umask (an fchmod() here would skip the
	 * umask: a root-owned world-writable file).
	 */
	if (keep_mode)
		(void)fchmod(fileno(f), mode);

	fprintf(f, "{\n  \"mode\": \"%s\",\n  \"topology\": \"%s\",\n  \"burst\": %u,\n",
		fwd_mode_name(app->cfg.mode), fwd_topology_name(app->cfg.topology), app->cfg.burst);
	fprintf(f, "  \"duration_s\": %.6f,\n", secs);
	json_ports(app, f);
	json_lcores(app, snap, f);
	json_pools(app, f);
	fwd_components_json(app, f);
	fprintf(f, "  \"mbufs_leaked\": %d,\n  \"drops\": {", app->leak);
	for (r = 0; r < FWD_DROP_MAX; r++)
		fprintf(f, "%s\"%s\": %" PRIu64, r ? ", " : "", drop_names[r], snap->drops[r]);
	fprintf(f, "}\n}\n");
	free(snap);

	/* a full disk (or /dev/full) shows at the flush, or at the close */
	errno = EIO;
	if (fflush(f) != 0 || ferror(f))
		ret = -errno;
	errno = EIO;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && how == STATS_RENAME && rename(tmp, target) != 0)
		ret = -errno;
	if (ret < 0) {
		snprintf(err, errlen, "%s", strerror(-ret));
		if (how == STATS_RENAME)
			unlink(tmp);
	}
	return ret;
}
