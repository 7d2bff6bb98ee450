/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Shell commands, in testpmd's grammar. Each command is an rte_cmdline
 * instruction whose help string is "usage: what it does"; the shell's
 * "help", its bad-argument messages and docs/shell.md all come from these.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmdline_parse.h>
#include <cmdline_parse_num.h>
#include <cmdline_parse_string.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "numparse.h"

#include "fwd_cmds.h"
#include "fwd_component.h"
#include "fwd_ctl.h"
#include "fwd_escape.h"
#include "fwd_port.h"
#include "fwd_route.h"
#include "fwd_stats.h"

static struct fwd_app *app;

int
fwd_cmds_port_arg(const struct fwd_app *a, const char *s, uint16_t *port)
{
	uint64_t v;

	if (strcmp(s, "all") == 0) {
		*port = FWD_CMDS_ALL_PORTS;
		return 0;
	}
	if (num_u64(s, 0, a->nb_ports - 1, &v) < 0) {
		fwd_cmds_say("bad port '%s': expected a port number from 0 to %u, or all\n", s,
			a->nb_ports - 1);
		return -EINVAL;
	}
	*port = (uint16_t)v;
	return 0;
}

struct rt_table *
fwd_cmds_router(const struct fwd_app *a)
{
	if (fwd_route_table(a) == NULL)
		printf("not routing: start the forwarder with --fwd route\n");
	return fwd_route_table(a);
}

#define FOREACH_SELECTED_PORT(p, sel)                       \
	for ((p) = (sel) == FWD_CMDS_ALL_PORTS ? 0 : (sel); \
		(p) < app->nb_ports && ((sel) == FWD_CMDS_ALL_PORTS || (p) == (sel)); (p)++)

/* ---- start / stop / quit / help ---- */

struct cmd_word_result {
	cmdline_fixed_string_t word;
};

static void
cmd_start_parsed(void *res, struct cmdline *cl, void *data)
{
	if (fwd_ctl_start(app) == -EALREADY)
		printf("forwarding is already started\n");
	else
		printf("forwarding started: %s mode\n", fwd_mode_name(app->cfg.mode));
}

/* testpmd's "start tx_first": one burst out of every port, then start */
static void
cmd_start_tx_first_parsed(void *res, struct cmdline *cl, void *data)
{
	char err[FWD_ERR_LEN];
	int n = fwd_ctl_tx_first(app, err, sizeof(err));

	if (n < 0) {
		printf("start tx_first: %s\n", err);
		return;
	}
	printf("tx_first: sent %d packets\n", n);
	cmd_start_parsed(res, cl, data);
}

/* A counter of this run: since start, or since a clear made during it. */
static uint64_t
run_delta(uint64_t now, uint64_t base)
{
	return now >= base ? now - base : now;
}

/* RX and TX lines of a port's (or all ports') forward statistics, testpmd's layout */
static void
print_run_lines(uint64_t rx, uint64_t rx_drop, uint64_t tx, uint64_t tx_drop)
{
	printf("  RX-packets: %-14" PRIu64 " RX-dropped: %-14" PRIu64 " RX-total: %" PRIu64 "\n",
		rx, rx_drop, rx + rx_drop);
	printf("  TX-packets: %-14" PRIu64 " TX-dropped: %-14" PRIu64 " TX-total: %" PRIu64 "\n",
		tx, tx_drop, tx + tx_drop);
}

/* What the run just ended did on each port, as testpmd prints at stop. */
static void
print_run_stats(void)
{
	uint64_t sum[4] = {0};
	uint16_t p;

	for (p = 0; p < app->nb_ports; p++) {
		const struct rte_eth_stats *b = &app->ports[p].run_base;
		struct rte_eth_stats s;
		uint64_t v[4];
		unsigned int k;

		if (!fwd_port_used(&app->cfg, p) || fwd_stats_port_get(app, p, &s) != 0)
			continue;
		v[0] = run_delta(s.ipackets, b->ipackets);
		v[1] = run_delta(s.imissed, b->imissed) + run_delta(s.rx_nombuf, b->rx_nombuf);
		v[2] = run_delta(s.opackets, b->opackets);
		v[3] = run_delta(s.oerrors, b->oerrors);
		printf("  ---------------------- Forward statistics for port %-2u "
		       "----------------------\n",
			p);
		print_run_lines(v[0], v[1], v[2], v[3]);
		for (k = 0; k < 4; k++)
			sum[k] += v[k];
	}
	printf("  ++++++++++++++ Accumulated forward statistics for all ports "
	       "+++++++++++++++\n");
	print_run_lines(sum[0], sum[1], sum[2], sum[3]);
	printf("  (the lcores' and drops' counters of every run: show fwd stats)\n");
}

static void
cmd_stop_parsed(void *res, struct cmdline *cl, void *data)
{
	if (fwd_ctl_stop(app) == -EALREADY) {
		printf("forwarding is not started\n");
		return;
	}
	printf("forwarding stopped\n");
	print_run_stats();
	printf("Done.\n");
}

static void
cmd_quit_parsed(void *res, struct cmdline *cl, void *data)
{
	app->quit = true;
}

static void
cmd_help_parsed(void *res, struct cmdline *cl, void *data)
{
	fwd_cmds_help(stdout);
}

#define WORD_CMD(name, str, help)                                            \
	static cmdline_parse_token_string_t cmd_##name##_tok =               \
		TOKEN_STRING_INITIALIZER(struct cmd_word_result, word, str); \
	static cmdline_parse_inst_t cmd_##name = {                           \
		.f = cmd_##name##_parsed,                                    \
		.help_str = help,                                            \
		.tokens = {(void *)&cmd_##name##_tok, NULL},                 \
	}

WORD_CMD(start, "start", "start: start forwarding");
WORD_CMD(stop, "stop",
	"stop: stop forwarding (workers flush their TX buffers), print the run's forward statistics per port");
WORD_CMD(quit, "quit", "quit: stop forwarding and exit, printing the final stats");
WORD_CMD(help, "help", "help: list the commands");

/* ---- sleep <seconds> ---- */

struct cmd_sleep_result {
	cmdline_fixed_string_t sleep;
	cmdline_fixed_string_t secs;
};

/*
 * For --cmdline-file scripts: commands spaced in time while forwarding runs
 * (queue restarts under traffic, say). The main loop is not running meanwhile,
 * so the sleep does its link watch: ports without link interrupts are read
 * every half second and a change is logged. A signal ends it early and quits.
 */
static void
cmd_sleep_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_sleep_result *r = res;
	uint64_t hz = rte_get_tsc_hz(), end, now, last_poll = 0;
	double secs;

	if (num_secs(r->secs, 3600, &secs) < 0) {
		fwd_cmds_say(
			"bad seconds '%s': expected a number of seconds from 0 to 3600\n", r->secs);
		return;
	}
	fflush(stdout); /* what came before shows now, not after the wait */
	end = rte_get_tsc_cycles() + (uint64_t)(secs * (double)hz);
	while (!app->quit && (now = rte_get_tsc_cycles()) < end) {
		uint64_t left_us = (end - now) * 1000000 / hz;
		struct timespec ts = {0, (long)RTE_MIN(left_us, (uint64_t)10000) * 1000};

		if (now - last_poll >= hz / 2) {
			fwd_port_watch_links(app->ports, app->nb_ports, false);
			last_poll = now;
		}
		fwd_components_tick(app); /* a generator's word on its rate */
		nanosleep(&ts, NULL);     /* a signal cuts it short; app->quit says why */
	}
}

static cmdline_parse_token_string_t cmd_sleep_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_sleep_result, sleep, "sleep");
static cmdline_parse_token_string_t cmd_sleep_secs =
	TOKEN_STRING_INITIALIZER(struct cmd_sleep_result, secs, NULL);
static cmdline_parse_inst_t cmd_sleep = {
	.f = cmd_sleep_parsed,
	.help_str = "sleep <seconds>: wait (fractions allowed, at most 3600; for --cmdline-file "
		    "scripts; a signal ends it)",
	.tokens = {(void *)&cmd_sleep_tok, (void *)&cmd_sleep_secs, NULL},
};

static cmdline_parse_token_string_t cmd_start_tx_first_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_word_result, word, "tx_first");
static cmdline_parse_inst_t cmd_start_tx_first = {
	.f = cmd_start_tx_first_parsed,
	.help_str = "start tx_first: send one burst out of every port first (io, mac, macswap), "
		    "then start",
	.tokens = {(void *)&cmd_start_tok, (void *)&cmd_start_tx_first_tok, NULL},
};

/* ---- set fwd <mode> ---- */

struct cmd_set_fwd_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t fwd;
	cmdline_fixed_string_t mode;
};

/* Built from the FWD_MODES table by fwd_cmds_ctx(), so new modes appear by themselves. */
static char mode_choices[128]; /* "io#mac#..." */
static char set_fwd_help[256]; /* "set fwd io|mac|...: ..." */

static void
cmd_set_fwd_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_set_fwd_result *r = res;
	char err[256];
	unsigned int m;

	for (m = 0; m < FWD_MODE_MAX; m++)
		if (strcmp(r->mode, fwd_mode_name(m)) == 0)
			break;
	if (fwd_ctl_set_mode(app, (enum fwd_mode)m, err, sizeof(err)) < 0) {
		printf("%s\n", err);
		return;
	}
	printf("forwarding mode: %s\n", fwd_mode_name(m));
}

static cmdline_parse_token_string_t cmd_set_fwd_set =
	TOKEN_STRING_INITIALIZER(struct cmd_set_fwd_result, set, "set");
static cmdline_parse_token_string_t cmd_set_fwd_fwd =
	TOKEN_STRING_INITIALIZER(struct cmd_set_fwd_result, fwd, "fwd");
static cmdline_parse_token_string_t cmd_set_fwd_mode =
	TOKEN_STRING_INITIALIZER(struct cmd_set_fwd_result, mode, mode_choices);
static cmdline_parse_inst_t cmd_set_fwd = {
	.f = cmd_set_fwd_parsed,
	.help_str = set_fwd_help,
	.tokens = {(void *)&cmd_set_fwd_set, (void *)&cmd_set_fwd_fwd, (void *)&cmd_set_fwd_mode,
		NULL},
};

/* ---- show port info|stats|xstats <port>|all ---- */

struct cmd_show_port_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t port;
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t which;
};

static void
show_port_info(uint16_t p)
{
	const struct fwd_port *fp = &app->ports[p];
	struct rte_eth_dev_info info;
	struct rte_eth_link link;
	char link_str[RTE_ETH_LINK_MAX_STR_LEN] = "unknown";
	uint16_t mtu = 0;

	if (rte_eth_dev_info_get(p, &info) != 0)
		memset(&info, 0, sizeof(info));
	if (rte_eth_link_get_nowait(p, &link) == 0)
		rte_eth_link_to_str(link_str, sizeof(link_str), &link);
	rte_eth_dev_get_mtu(p, &mtu);
	printf("port %u: %s, driver %s, socket %d\n", p, fp->name,
		info.driver_name != NULL ? info.driver_name : "?", fp->socket);
	printf("  MAC " RTE_ETHER_ADDR_PRT_FMT ", MTU %u, promiscuous %s, %s\n",
		RTE_ETHER_ADDR_BYTES(&fp->mac), mtu, rte_eth_promiscuous_get(p) == 1 ? "on" : "off",
		fp->started ? "started" : "stopped");
	printf("  link: %s (changes %s, %u so far)\n", link_str,
		fp->lsc ? "by interrupt" : "polled", fp->link_changes);
	printf("  %u RX queue%s%s, %u TX queue%s, forwards to port %u\n", fp->nb_rxq,
		fp->nb_rxq == 1 ? "" : "s", fp->rss ? " (RSS)" : "", fp->nb_txq,
		fp->nb_txq == 1 ? "" : "s", fp->out_port);
	printf("  RX IPv4 checksum: %s\n",
		fp->rx_ip_cksum ? "checked by the port (flags trusted)" : "checked in software");
}

static void
show_port_stats(uint16_t p)
{
	struct rte_eth_stats s;

	if (fwd_stats_port_get(app, p, &s) != 0) {
		printf("port %u: no stats\n", p);
		return;
	}
	printf("port %u (%s):\n", p, app->ports[p].name);
	printf("  rx %" PRIu64 " pkts %" PRIu64 " bytes, missed %" PRIu64 ", errors %" PRIu64
	       ", no mbuf %" PRIu64 "\n",
		s.ipackets, s.ibytes, s.imissed, s.ierrors, s.rx_nombuf);
	printf("  tx %" PRIu64 " pkts %" PRIu64 " bytes, errors %" PRIu64 "\n", s.opackets,
		s.obytes, s.oerrors);
}

static void
show_port_xstats(uint16_t p)
{
	struct rte_eth_xstat_name *names;
	uint64_t *values;
	int n = rte_eth_xstats_get_names(p, NULL, 0), i;

	printf("port %u (%s) xstats:\n", p, app->ports[p].name);
	if (n <= 0)
		return;
	names = calloc(n, sizeof(*names));
	values = calloc(n, sizeof(*values));
	if (names != NULL && values != NULL && rte_eth_xstats_get_names(p, names, n) == n &&
		rte_eth_xstats_get_by_id(p, NULL, values, n) == n)
		for (i = 0; i < n; i++)
			printf("  %s: %" PRIu64 "\n", names[i].name, values[i]);
	free(names);
	free(values);
}

/* testpmd's "show port summary": one line a port */
static void
cmd_show_port_summary_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_show_port_result *r = res;
	uint16_t sel, p;

	if (fwd_cmds_port_arg(app, r->which, &sel) < 0)
		return;
	printf("Number of available ports: %u\n", app->nb_ports);
	printf("%-4s %-17s %-16s %-12s %-8s %s\n", "Port", "MAC Address", "Name", "Driver",
		"Status", "Link");
	FOREACH_SELECTED_PORT(p, sel)
	{
		const struct fwd_port *fp = &app->ports[p];
		struct rte_eth_dev_info info;
		struct rte_eth_link link;
		char speed[32] = "?";

		if (rte_eth_dev_info_get(p, &info) != 0)
			memset(&info, 0, sizeof(info));
		if (rte_eth_link_get_nowait(p, &link) == 0)
			snprintf(speed, sizeof(speed), "%s",
				rte_eth_link_speed_to_str(link.link_speed));
		printf("%-4u " RTE_ETHER_ADDR_PRT_FMT " %-16s %-12s %-8s %s\n", p,
			RTE_ETHER_ADDR_BYTES(&fp->mac), fp->name,
			info.driver_name != NULL ? info.driver_name : "?",
			!fwd_port_used(&app->cfg, p) ? "unused"
			: fp->started                ? "up"
						     : "stopped",
			speed);
	}
}

static void
cmd_show_port_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_show_port_result *r = res;
	uint16_t sel, p;

	if (fwd_cmds_port_arg(app, r->which, &sel) < 0)
		return;
	FOREACH_SELECTED_PORT(p, sel)
	{
		if (strcmp(r->what, "info") == 0)
			show_port_info(p);
		else if (strcmp(r->what, "stats") == 0)
			show_port_stats(p);
		else
			show_port_xstats(p);
	}
}

static cmdline_parse_token_string_t cmd_show_port_show =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, show, "show");
static cmdline_parse_token_string_t cmd_show_port_port =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, port, "port");
static cmdline_parse_token_string_t cmd_show_port_what =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, what, "info#stats#xstats");
static cmdline_parse_token_string_t cmd_show_port_which =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, which, NULL);
static cmdline_parse_token_string_t cmd_show_port_summary_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, what, "summary");
static cmdline_parse_inst_t cmd_show_port_summary = {
	.f = cmd_show_port_summary_parsed,
	.help_str = "show port summary <port>|all: one line a port (MAC, name, driver, status, "
		    "link)",
	.tokens = {(void *)&cmd_show_port_show, (void *)&cmd_show_port_port,
		(void *)&cmd_show_port_summary_tok, (void *)&cmd_show_port_which, NULL},
};
static cmdline_parse_inst_t cmd_show_port = {
	.f = cmd_show_port_parsed,
	.help_str = "show port info|stats|xstats <port>|all: port details or counters",
	.tokens = {(void *)&cmd_show_port_show, (void *)&cmd_show_port_port,
		(void *)&cmd_show_port_what, (void *)&cmd_show_port_which, NULL},
};

/* ---- clear port stats <port>|all ---- */

static void
cmd_clear_port_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_show_port_result *r = res;
	uint16_t sel;

	if (fwd_cmds_port_arg(app, r->which, &sel) < 0)
		return;
	fwd_ctl_clear_port_stats(app, sel);
	printf("port stats cleared\n");
}

static cmdline_parse_token_string_t cmd_clear_port_clear =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, show, "clear");
static cmdline_parse_token_string_t cmd_clear_port_stats =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, what, "stats");
static cmdline_parse_inst_t cmd_clear_port = {
	.f = cmd_clear_port_parsed,
	.help_str = "clear port stats <port>|all: zero the port counters",
	.tokens = {(void *)&cmd_clear_port_clear, (void *)&cmd_show_port_port,
		(void *)&cmd_clear_port_stats, (void *)&cmd_show_port_which, NULL},
};

/* ---- port start|stop <port>|all ---- */

static void
cmd_port_startstop_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_show_port_result *r = res;
	bool up = strcmp(r->what, "start") == 0;
	char err[256];
	uint16_t sel;

	if (fwd_cmds_port_arg(app, r->which, &sel) < 0)
		return;
	if (fwd_ctl_port_set(app, sel, up, err, sizeof(err)) < 0)
		fwd_cmds_say("%s\n", err);
	else
		printf("port %s %s\n", r->which, up ? "started" : "stopped");
}

static cmdline_parse_token_string_t cmd_port_ss_port =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, show, "port");
static cmdline_parse_token_string_t cmd_port_ss_what =
	TOKEN_STRING_INITIALIZER(struct cmd_show_port_result, what, "start#stop");
static cmdline_parse_inst_t cmd_port_startstop = {
	.f = cmd_port_startstop_parsed,
	.help_str = "port start|stop <port>|all: start or stop ports (a stopped port is not "
		    "polled; packets for it count as port_down)",
	.tokens = {(void *)&cmd_port_ss_port, (void *)&cmd_port_ss_what,
		(void *)&cmd_show_port_which, NULL},
};

/* ---- port <port> rxq|txq <queue> start|stop ---- */

struct cmd_port_queue_result {
	cmdline_fixed_string_t port;
	cmdline_fixed_string_t which;
	cmdline_fixed_string_t dir;
	cmdline_fixed_string_t queue;
	cmdline_fixed_string_t what;
};

static void
cmd_port_queue_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_port_queue_result *r = res;
	bool up = strcmp(r->what, "start") == 0;
	bool rx = strcmp(r->dir, "rxq") == 0;
	char err[256];
	uint64_t q;
	uint16_t sel;

	if (fwd_cmds_port_arg(app, r->which, &sel) < 0)
		return;
	if (sel == FWD_CMDS_ALL_PORTS) {
		fwd_cmds_say("%s %s takes one port, not all\n", r->dir, r->what);
		return;
	}
	if (num_u64(r->queue, 0, UINT16_MAX, &q) < 0) {
		fwd_cmds_say("bad queue '%s': expected a queue number\n", r->queue);
		return;
	}
	if (fwd_ctl_queue_set(app, sel, rx, (uint16_t)q, up, err, sizeof(err)) < 0)
		fwd_cmds_say("%s\n", err);
	else
		printf("port %u %s %u %s\n", sel, r->dir, (unsigned int)q,
			up ? "started" : "stopped");
}

static cmdline_parse_token_string_t cmd_port_queue_port =
	TOKEN_STRING_INITIALIZER(struct cmd_port_queue_result, port, "port");
static cmdline_parse_token_string_t cmd_port_queue_which =
	TOKEN_STRING_INITIALIZER(struct cmd_port_queue_result, which, NULL);
static cmdline_parse_token_string_t cmd_port_queue_dir =
	TOKEN_STRING_INITIALIZER(struct cmd_port_queue_result, dir, "rxq#txq");
static cmdline_parse_token_string_t cmd_port_queue_queue =
	TOKEN_STRING_INITIALIZER(struct cmd_port_queue_result, queue, NULL);
static cmdline_parse_token_string_t cmd_port_queue_what =
	TOKEN_STRING_INITIALIZER(struct cmd_port_queue_result, what, "start#stop");
static cmdline_parse_inst_t cmd_port_queue = {
	.f = cmd_port_queue_parsed,
	.help_str = "port <port> rxq|txq <queue> start|stop: start or stop one queue (a stopped "
		    "RX queue is not polled; packets for a stopped TX queue count as txq_stopped)",
	.tokens = {(void *)&cmd_port_queue_port, (void *)&cmd_port_queue_which,
		(void *)&cmd_port_queue_dir, (void *)&cmd_port_queue_queue,
		(void *)&cmd_port_queue_what, NULL},
};

/* ---- set promisc <port>|all on|off ---- */

struct cmd_promisc_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t promisc;
	cmdline_fixed_string_t which;
	cmdline_fixed_string_t onoff;
};

static void
cmd_promisc_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_promisc_result *r = res;
	char err[256];
	uint16_t sel;

	if (fwd_cmds_port_arg(app, r->which, &sel) < 0)
		return;
	if (fwd_ctl_promisc(app, sel, strcmp(r->onoff, "on") == 0, err, sizeof(err)) < 0)
		fwd_cmds_say("%s\n", err);
	else
		printf("promiscuous mode %s on port %s\n", r->onoff, r->which);
}

static cmdline_parse_token_string_t cmd_promisc_set =
	TOKEN_STRING_INITIALIZER(struct cmd_promisc_result, set, "set");
static cmdline_parse_token_string_t cmd_promisc_promisc =
	TOKEN_STRING_INITIALIZER(struct cmd_promisc_result, promisc, "promisc");
static cmdline_parse_token_string_t cmd_promisc_which =
	TOKEN_STRING_INITIALIZER(struct cmd_promisc_result, which, NULL);
static cmdline_parse_token_string_t cmd_promisc_onoff =
	TOKEN_STRING_INITIALIZER(struct cmd_promisc_result, onoff, "on#off");
static cmdline_parse_inst_t cmd_promisc = {
	.f = cmd_promisc_parsed,
	.help_str = "set promisc <port>|all on|off: promiscuous mode",
	.tokens = {(void *)&cmd_promisc_set, (void *)&cmd_promisc_promisc,
		(void *)&cmd_promisc_which, (void *)&cmd_promisc_onoff, NULL},
};

/* ---- show|clear fwd stats, show lcores, show drops ---- */

struct cmd_three_result {
	cmdline_fixed_string_t a;
	cmdline_fixed_string_t b;
	cmdline_fixed_string_t c;
	cmdline_fixed_string_t d;
};

static void
cmd_show_fwd_stats_parsed(void *res, struct cmdline *cl, void *data)
{
	fwd_stats_read_ports(app);
	fwd_stats_print(app, stdout, false);
}

static void
cmd_clear_fwd_stats_parsed(void *res, struct cmdline *cl, void *data)
{
	fwd_ctl_clear_fwd_stats(app);
	printf("forwarding stats cleared\n");
}

static cmdline_parse_token_string_t cmd_fwd_stats_show =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, a, "show");
static cmdline_parse_token_string_t cmd_fwd_stats_clear =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, a, "clear");
static cmdline_parse_token_string_t cmd_fwd_stats_fwd =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, b, "fwd");
static cmdline_parse_token_string_t cmd_fwd_stats_stats =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, c, "stats");
static cmdline_parse_inst_t cmd_show_fwd_stats = {
	.f = cmd_show_fwd_stats_parsed,
	.help_str = "show fwd stats: ports, lcores, queues and drops, with rates since the last "
		    "show",
	.tokens = {(void *)&cmd_fwd_stats_show, (void *)&cmd_fwd_stats_fwd,
		(void *)&cmd_fwd_stats_stats, NULL},
};
static cmdline_parse_token_string_t cmd_fwd_stats_all =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, d, "all");
static cmdline_parse_inst_t cmd_show_fwd_stats_all = {
	.f = cmd_show_fwd_stats_parsed,
	.help_str = "show fwd stats all: testpmd's spelling of show fwd stats",
	.tokens = {(void *)&cmd_fwd_stats_show, (void *)&cmd_fwd_stats_fwd,
		(void *)&cmd_fwd_stats_stats, (void *)&cmd_fwd_stats_all, NULL},
};
static cmdline_parse_inst_t cmd_clear_fwd_stats = {
	.f = cmd_clear_fwd_stats_parsed,
	.help_str = "clear fwd stats: zero the lcore, queue and drop counters",
	.tokens = {(void *)&cmd_fwd_stats_clear, (void *)&cmd_fwd_stats_fwd,
		(void *)&cmd_fwd_stats_stats, NULL},
};

static void
cmd_show_lcores_parsed(void *res, struct cmdline *cl, void *data)
{
	unsigned int i, j;

	printf("main lcore %u: stats and shell; forwarding %s, %s mode\n", rte_get_main_lcore(),
		app->running ? "started" : "stopped", fwd_mode_name(app->cfg.mode));
	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];

		printf("lcore %u (socket %u):", lc->lcore_id, rte_lcore_to_socket_id(lc->lcore_id));
		for (j = 0; j < lc->n_rx; j++)
			printf(" rx %u/%u -> tx %u/%u%s", lc->rx[j].port, lc->rx[j].queue,
				lc->txb[lc->rx[j].txb_up].port, lc->txb[lc->rx[j].txb_up].queue,
				j + 1 < lc->n_rx ? "," : "");
		printf("\n");
	}
}

/* testpmd's "show config fwd": the mode, the counts, then who polls what */
static void
cmd_show_config_fwd_parsed(void *res, struct cmdline *cl, void *data)
{
	unsigned int i, streams = 0;
	uint16_t p, used = 0;

	for (i = 0; i < app->n_workers; i++)
		streams += app->workers[i]->n_rx;
	for (p = 0; p < app->nb_ports; p++)
		used += fwd_port_used(&app->cfg, p);
	printf("%s packet forwarding - ports=%u - cores=%u - streams=%u - burst=%u - topology "
	       "%s\n",
		fwd_mode_name(app->cfg.mode), used, app->n_workers, streams, app->cfg.burst,
		fwd_topology_name(app->cfg.topology));
	cmd_show_lcores_parsed(res, cl, data);
}

struct cmd_set_num_result {
	cmdline_fixed_string_t set;
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t n;
};

/* testpmd's "set burst N" and "set nbcore N" */
static void
cmd_set_num_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_set_num_result *r = res;
	char err[FWD_ERR_LEN];
	uint64_t n;

	if (num_u64(r->n, 0, UINT32_MAX, &n) < 0) {
		fwd_cmds_say("set %s: '%s' is not a number\n", r->what, r->n);
		return;
	}
	if (strcmp(r->what, "burst") == 0) {
		if (fwd_ctl_set_burst(app, (unsigned int)n, err, sizeof(err)) < 0)
			printf("set burst: %s\n", err);
		else
			printf("burst set to %u\n", app->cfg.burst);
		return;
	}
	/* the map is fixed at start: which lcore polls which queue, and their TX queues */
	if (n != app->n_workers)
		printf("set nbcore %" PRIu64 ": %u lcore%s forward; the map (and the TX queues "
		       "it sized) is fixed at start: restart with --nb-cores %" PRIu64
		       " or a --map\n",
			n, app->n_workers, app->n_workers == 1 ? "" : "s", n);
	else
		printf("nbcore is %u\n", app->n_workers);
}

static cmdline_parse_token_string_t cmd_set_num_set =
	TOKEN_STRING_INITIALIZER(struct cmd_set_num_result, set, "set");
static cmdline_parse_token_string_t cmd_set_num_what =
	TOKEN_STRING_INITIALIZER(struct cmd_set_num_result, what, "burst#nbcore");
static cmdline_parse_token_string_t cmd_set_num_n =
	TOKEN_STRING_INITIALIZER(struct cmd_set_num_result, n, NULL);
static cmdline_parse_inst_t cmd_set_num = {
	.f = cmd_set_num_parsed,
	.help_str = "set burst|nbcore <n>: packets per burst (1-512); nbcore only reports, the map "
		    "is fixed at start (--nb-cores)",
	.tokens = {(void *)&cmd_set_num_set, (void *)&cmd_set_num_what, (void *)&cmd_set_num_n,
		NULL},
};

static void
cmd_show_drops_parsed(void *res, struct cmdline *cl, void *data)
{
	unsigned int r;

	for (r = 0; r < FWD_DROP_MAX; r++)
		if (r < FWD_DROP_ROUTE_FIRST || fwd_route_table(app) != NULL)
			printf("%-16s %12" PRIu64 "  %s\n", fwd_drop_name(r),
				fwd_stats_drop_total(app, r), fwd_drop_desc(r));
}

static cmdline_parse_token_string_t cmd_show_what_lcores =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, b, "lcores");
static cmdline_parse_token_string_t cmd_show_what_drops =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, b, "drops");
static cmdline_parse_inst_t cmd_show_lcores = {
	.f = cmd_show_lcores_parsed,
	.help_str = "show lcores: which lcore polls which queue and sends where",
	.tokens = {(void *)&cmd_fwd_stats_show, (void *)&cmd_show_what_lcores, NULL},
};
static cmdline_parse_token_string_t cmd_show_config_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, b, "config");
static cmdline_parse_token_string_t cmd_show_config_fwd_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_three_result, c, "fwd");
static cmdline_parse_inst_t cmd_show_config_fwd = {
	.f = cmd_show_config_fwd_parsed,
	.help_str = "show config fwd: mode, ports, cores, streams and burst, then show lcores",
	.tokens = {(void *)&cmd_fwd_stats_show, (void *)&cmd_show_config_tok,
		(void *)&cmd_show_config_fwd_tok, NULL},
};
static cmdline_parse_inst_t cmd_show_drops = {
	.f = cmd_show_drops_parsed,
	.help_str = "show drops: drop counters by reason, with what each reason means",
	.tokens = {(void *)&cmd_fwd_stats_show, (void *)&cmd_show_what_drops, NULL},
};

/* the core's commands; then the components' (fwd_component.h) and these last */
static cmdline_parse_ctx_t fwd_cmds_core[] = {
	&cmd_start,
	&cmd_start_tx_first,
	&cmd_stop,
	&cmd_set_fwd,
	&cmd_set_num,
	&cmd_show_port,
	&cmd_show_port_summary,
	&cmd_clear_port,
	&cmd_port_startstop,
	&cmd_port_queue,
	&cmd_promisc,
	&cmd_show_fwd_stats,
	&cmd_show_fwd_stats_all,
	&cmd_clear_fwd_stats,
	&cmd_show_config_fwd,
	&cmd_show_lcores,
	&cmd_show_drops,
	NULL,
};
static cmdline_parse_ctx_t fwd_cmds_last[] = {
	&cmd_sleep,
	&cmd_help,
	&cmd_quit,
	NULL,
};

/* the shell's list: room for the core's, every component's and the last ones */
#define FWD_CMDS_MAX 256
static cmdline_parse_ctx_t fwd_cmds[FWD_CMDS_MAX + 1];

cmdline_parse_ctx_t *
fwd_cmds_ctx(struct fwd_app *a)
{
	unsigned int m, n;
	int ret;

	app = a;
	mode_choices[0] = '\0';
	for (m = 0; m < FWD_MODE_MAX; m++) {
		if (m > 0)
			strcat(mode_choices, "#");
		strcat(mode_choices, fwd_mode_name(m));
	}
	snprintf(set_fwd_help, sizeof(set_fwd_help), "set fwd %s: change the forwarding mode",
		mode_choices);
	for (m = 0; set_fwd_help[m] != ':'; m++)
		if (set_fwd_help[m] == '#')
			set_fwd_help[m] = '|';
	n = 0;
	for (m = 0; fwd_cmds_core[m] != NULL; m++)
		fwd_cmds[n++] = fwd_cmds_core[m];
	ret = fwd_components_cmds(a, fwd_cmds, n, FWD_CMDS_MAX);
	/* a fixed table too small is the build's mistake, not the user's */
	RTE_VERIFY(ret >= 0);
	n = (unsigned int)ret;
	for (m = 0; fwd_cmds_last[m] != NULL; m++) {
		RTE_VERIFY(n < FWD_CMDS_MAX);
		fwd_cmds[n++] = fwd_cmds_last[m];
	}
	fwd_cmds[n] = NULL;
	return fwd_cmds;
}

void
fwd_cmds_help(FILE *f)
{
	unsigned int i;

	for (i = 0; fwd_cmds[i] != NULL; i++)
		fprintf(f, "  %s\n", fwd_cmds[i]->help_str);
}
