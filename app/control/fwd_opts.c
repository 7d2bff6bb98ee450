/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "numparse.h"

#include "fwd_cfgfile.h"
#include "fwd_opts.h"
#include "fwd_suggest.h"
#include "rt_flow_ctl.h"

/* How an option's argument is read and where it is stored. */
enum opt_kind {
	OPT_U16,     /* integer in [min, max] into a uint16_t field */
	OPT_U32,     /* integer in [min, max] into a uint32_t field */
	OPT_SECS,    /* non-negative seconds (fractions allowed) into a double field */
	OPT_FLAG,    /* no argument on the command line; on|off in the file */
	OPT_PATH,    /* a file name into a char[PATH_MAX] field */
	OPT_SPECIAL, /* parsed by its own function */
	OPT_ACTION   /* no value, nothing stored: acted on by the parser (--help) */
};

struct fwd_opt {
	const char *name;
	enum opt_kind kind;
	size_t off; /* field offset in struct fwd_config */
	uint32_t min, max;
	const char *arg; /* argument name for --help, NULL for flags */
	const char *help;
	int (*parse)(struct fwd_config *cfg, const char *value, char *err, size_t errlen);
	const char *def;    /* the default as a value the option accepts, or NULL */
	const char *defdoc; /* the default in words, when def is NULL */
	const char *range;  /* accepted values, when not MIN-MAX */
};

static int parse_mode(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_topology(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_map(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_peer(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_flowsort(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_flow_table(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_idle(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_portmask(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_nb_ports(struct fwd_config *cfg, const char *v, char *err, size_t errlen);
static int parse_mbuf_size(struct fwd_config *cfg, const char *v, char *err, size_t errlen);

_Static_assert(FWD_DEFAULT_MBUF_SIZE == RTE_MBUF_DEFAULT_BUF_SIZE, "DPDK's default data room");
_Static_assert(FWD_MIN_MBUF_SIZE == RTE_PKTMBUF_HEADROOM + FWD_MIN_MBUF_FRAME,
	"the headroom and the smallest frame room");

#define FIELD(f) offsetof(struct fwd_config, f)

/*
 * The one table of options: the parser, --help, the user guide's option
 * table, the man page and config/example.ini's [forward] section all come
 * from (or are checked against) it. DEF is the default as a value the option
 * accepts (tests/unit/test_opts.c applies it to the defaults and expects no
 * change), or NULL with DEFDOC saying it in words. RANGE is given for options
 * whose values are not a number range (those print MIN-MAX).
 */
#define OPT(name, kind, off, min, max, arg, help, parse, def, defdoc, range)    \
	{                                                                       \
		name, kind, off, min, max, arg, help, parse, def, defdoc, range \
	}

static const struct fwd_opt fwd_opts[] = {
	OPT("config", OPT_PATH, FIELD(config_file), 0, 0, "FILE",
		"load options from an INI file (keys are these option names; the command line "
		"overrides it); a (port,queue,lcore) list instead is l3fwd's and means --map",
		NULL, NULL, "none", NULL),
	OPT("fwd", OPT_SPECIAL, 0, 0, 0, "MODE", "forwarding mode (see MODES)", parse_mode, "io",
		NULL, "io|mac|macswap|rxonly|route|pktgen"),
	OPT("map", OPT_SPECIAL, 0, 0, 0, "LIST",
		"(port,queue,lcore)[,...], as l3fwd's --config: which worker lcore polls which RX "
		"queue",
		parse_map, NULL, "every port's queues 0..rxq-1 over the workers", NULL),
	OPT("port-topology", OPT_SPECIAL, 0, 0, 0, "TOPO",
		"output port of each input port: paired (0<->1, 2<->3; an odd last port to "
		"itself), chained (0->1->...->0), loop (to itself)",
		parse_topology, "paired", NULL, "paired|chained|loop"),
	OPT("eth-peer", OPT_SPECIAL, 0, 0, 0, "PORT,MAC",
		"destination MAC that --fwd mac writes on packets leaving PORT (repeatable)",
		parse_peer, NULL, "02:00:00:00:00:PORT", NULL),
	OPT("flowsort", OPT_SPECIAL, 0, 0, 0, "MODE",
		"--fwd route: group each burst by flow in front of the flow table (off with no "
		"[filter] rule leaves the flow stage out)",
		parse_flowsort, "auto", NULL, "on|off|auto"),
	OPT("flow-table", OPT_SPECIAL, 0, 0, 0, "MODE",
		"--fwd route: when the flow table runs: on (flow statistics), off (never; refused "
		"with [filter] rules or flowsort on), auto (only for [filter] rules or flowsort on)",
		parse_flow_table, "auto", NULL, "on|off|auto"),
	OPT("idle", OPT_SPECIAL, 0, 0, 0, "MODE",
		"what a worker does when its RX queues are empty: poll, or sleep on their RX "
		"interrupts after a few empty polls (every polled port must have them)",
		parse_idle, "poll", NULL, "poll|sleep"),
	OPT("max-routes", OPT_U32, FIELD(max_routes), 16, 1u << 26, "N",
		"--fwd route: routes the table holds at most (a full IPv4 table is about 1 M)",
		NULL, RTE_STR(RT_DEFAULT_MAX_ROUTES), NULL, NULL),
	OPT("max-next-hops", OPT_U32, FIELD(max_next_hops), 16, (1u << 24) - 1, "N",
		"--fwd route: next hops at most: neighbours (gateways and hosts on connected "
		"networks) and ECMP groups; each takes 32 bytes of DPDK memory (what the workers "
		"read) and 24 of heap",
		NULL, RTE_STR(RT_DEFAULT_MAX_NH), NULL, NULL),
	OPT("tbl8-groups", OPT_U32, FIELD(tbl8_groups), 1, 1u << 24, "N",
		"--fwd route: lookup groups for routes longer than /24, one per /24 that has "
		"any (1 KiB of DPDK memory each)",
		NULL, RTE_STR(RT_DEFAULT_TBL8S), NULL, NULL),
	OPT("flow-table-size", OPT_U32, FIELD(flow_table_size), 8, 1u << 26, "N",
		"--fwd route: flow-table entries per worker (rounded up to a power of 2; 64 bytes "
		"each); a full table evicts the least recently seen flow",
		NULL, RTE_STR(RT_FLOW_DEFAULT_SIZE), NULL, NULL),
	OPT("flow-age", OPT_SECS, FIELD(flow_age), 0, 86400, "SEC",
		"--fwd route: a flow idle this long is aged out of the flow table", NULL,
		RTE_STR(RT_FLOW_DEFAULT_AGE), NULL, NULL),
	OPT("burst", OPT_U16, FIELD(burst), 1, FWD_MAX_BURST, "N",
		"packets per RX burst, and the TX flush threshold", NULL,
		RTE_STR(FWD_DEFAULT_BURST), NULL, NULL),
	OPT("rxq", OPT_U16, FIELD(rxq), 1, FWD_MAX_QUEUES, "N",
		"RX queues per port when no --map is given", NULL, "1", NULL, NULL),
	OPT("txq", OPT_U16, FIELD(txq), 1, FWD_MAX_QUEUES, "N",
		"TX queues per port; fewer than the lcores sending to a port is refused (each has "
		"its own)",
		NULL, NULL, "one per lcore sending to the port", NULL),
	OPT("nb-cores", OPT_U16, FIELD(nb_cores), 1, RTE_MAX_LCORE, "N",
		"forward on the first N worker lcores only (with a --map, it may name at most N)",
		NULL, NULL, "every worker", NULL),
	OPT("portmask", OPT_SPECIAL, 0, 0, 0, "HEX",
		"use only these ports (hexadecimal, 0x optional); the others are neither "
		"polled nor started",
		parse_portmask, NULL, "every port",
		"a mask of ports below " RTE_STR(RTE_MAX_ETHPORTS)),
	OPT("nb-ports", OPT_SPECIAL, 0, 0, 0, "N",
		"testpmd's: use only ports 0..N-1 (a --portmask of N bits)", parse_nb_ports, NULL,
		"every port", "1-" RTE_STR(RTE_MAX_ETHPORTS)),
	OPT("rxd", OPT_U16, FIELD(nb_rxd), 1, 32768, "N",
		"RX descriptors per queue (adjusted to what the port accepts)", NULL,
		RTE_STR(FWD_DEFAULT_RXD), NULL, NULL),
	OPT("txd", OPT_U16, FIELD(nb_txd), 1, 32768, "N",
		"TX descriptors per queue (adjusted to what the port accepts)", NULL,
		RTE_STR(FWD_DEFAULT_TXD), NULL, NULL),
	OPT("total-num-mbufs", OPT_U32, FIELD(nb_mbufs), 0, 1u << 26, "N",
		"mbufs in each NUMA socket's packet pool (0: sized from the queues and lcores)",
		NULL, "0", NULL, NULL),
	OPT("mbuf-cache", OPT_U32, FIELD(mbuf_cache), 0, RTE_MEMPOOL_CACHE_MAX_SIZE, "N",
		"per-lcore mempool cache size", NULL, RTE_STR(FWD_DEFAULT_MBUF_CACHE), NULL, NULL),
	OPT("mbuf-size", OPT_SPECIAL, 0, 0, 0, "N",
		"data room of each mbuf in bytes, headroom included (as testpmd's); frames longer "
		"than the room less the headroom arrive as mbuf chains, on ports that can "
		"scatter RX (others are refused)",
		parse_mbuf_size, RTE_STR(FWD_DEFAULT_MBUF_SIZE), NULL,
		RTE_STR(FWD_MIN_MBUF_SIZE) "-65535"),
	OPT("stats-period", OPT_SECS, FIELD(stats_period), 0, 86400, "SEC",
		"print stats every SEC seconds, fractions allowed (0: only at exit)", NULL, "0",
		NULL, NULL),
	OPT("duration", OPT_SECS, FIELD(duration), 0, 31536000, "SEC",
		"forward for SEC seconds, then stop as on SIGTERM (0: until a signal)", NULL, "0",
		NULL, NULL),
	OPT("stats-file", OPT_PATH, FIELD(stats_file), 0, 0, "FILE",
		"at exit, write every counter as JSON to FILE", NULL, NULL, "none", NULL),
	OPT("promisc", OPT_FLAG, FIELD(promisc), 0, 0, NULL,
		"promiscuous mode on every port (--promisc=off to leave it)", NULL, "on", NULL,
		NULL),
	OPT("xstats", OPT_FLAG, FIELD(xstats), 0, 0, NULL,
		"print non-zero extended port stats, and put them all in the stats file", NULL,
		"off", NULL, NULL),
	OPT("tx-first", OPT_FLAG, FIELD(tx_first), 0, 0, NULL,
		"send one burst out of every port before forwarding starts, as the shell's start "
		"tx_first (io, mac, macswap)",
		NULL, "off", NULL, NULL),
	OPT("interactive", OPT_FLAG, FIELD(interactive), 0, 0, NULL,
		"open the shell (dpdk-forwarder> ) on stdin; forwarding waits for 'start'", NULL,
		"off", NULL, NULL),
	OPT("auto-start", OPT_FLAG, FIELD(auto_start), 0, 0, NULL,
		"with -i, start forwarding before showing the prompt (before \"--\", -a is "
		"EAL's allow-list)",
		NULL, "off", NULL, NULL),
	OPT("cmdline-file", OPT_PATH, FIELD(cmdline_file), 0, 0, "FILE",
		"run shell commands from FILE first (then the prompt with -i)", NULL, NULL, "none",
		NULL),
	OPT("help", OPT_ACTION, 0, 0, 0, NULL,
		"print this help and exit (--help=md, --help=man: the table for the user guide, "
		"the man page)",
		NULL, NULL, NULL, NULL),
};

/*
 * testpmd's and l3fwd's spellings of our options, on the command line only
 * (docs/user-guide.md, "Coming from testpmd / l3fwd"). Their -i, -a and -p are
 * in split_arg(); l3fwd's --config LIST is in fwd_opts_parse().
 */
static const struct {
	const char *name, *of, *from;
} fwd_aliases[] = {
	{"forward-mode", "fwd", "testpmd"},
	{"mbcache", "mbuf-cache", "testpmd"},
};

#define FWD_NB_OPTS (sizeof(fwd_opts) / sizeof(fwd_opts[0]))

static const char *const mode_names[] = {
#define FWD_MODE_NAME(sym, name, desc) name,
	FWD_MODES(FWD_MODE_NAME)
#undef FWD_MODE_NAME
};

static const char *const topology_names[] = {
#define FWD_TOPO_NAME(sym, name, desc) name,
	FWD_TOPOLOGIES(FWD_TOPO_NAME)
#undef FWD_TOPO_NAME
};

const char *
fwd_mode_name(enum fwd_mode mode)
{
	return (unsigned int)mode < FWD_MODE_MAX ? mode_names[mode] : NULL;
}

static const char *const idle_names[] = {
#define FWD_IDLE_NAME(sym, name, desc) name,
	FWD_IDLE_MODES(FWD_IDLE_NAME)
#undef FWD_IDLE_NAME
};

const char *
fwd_idle_name(enum fwd_idle_mode idle)
{
	return (unsigned int)idle < FWD_IDLE_MAX ? idle_names[idle] : NULL;
}

const char *
fwd_topology_name(enum fwd_topology topo)
{
	return (unsigned int)topo < FWD_TOPO_MAX ? topology_names[topo] : NULL;
}

uint16_t
fwd_topology_peer(enum fwd_topology topo, uint16_t port, uint16_t nb_ports)
{
	switch (topo) {
	case FWD_TOPO_CHAINED:
		return (uint16_t)((port + 1) % nb_ports);
	case FWD_TOPO_LOOP:
		return port;
	case FWD_TOPO_PAIRED:
	default:
		if ((port ^ 1) >= nb_ports)
			return port; /* odd port count: the last one loops */
		return port ^ 1;
	}
}

void
fwd_config_defaults(struct fwd_config *cfg)
{
	uint16_t p;

	memset(cfg, 0, sizeof(*cfg));
	cfg->mode = FWD_MODE_IO;
	cfg->topology = FWD_TOPO_PAIRED;
	cfg->burst = FWD_DEFAULT_BURST;
	cfg->nb_rxd = FWD_DEFAULT_RXD;
	cfg->nb_txd = FWD_DEFAULT_TXD;
	cfg->rxq = 1;
	cfg->mbuf_cache = FWD_DEFAULT_MBUF_CACHE;
	cfg->mbuf_size = FWD_DEFAULT_MBUF_SIZE;
	cfg->max_routes = RT_DEFAULT_MAX_ROUTES;
	cfg->max_next_hops = RT_DEFAULT_MAX_NH;
	cfg->tbl8_groups = RT_DEFAULT_TBL8S;
	cfg->flow_table_size = RT_FLOW_DEFAULT_SIZE;
	cfg->flow_age = RT_FLOW_DEFAULT_AGE;
	cfg->promisc = true;
	rt_config_init(&cfg->route);
	pktgen_stream_init(&cfg->pktgen);
	/* testpmd's default peers: 02:00:00:00:00:<port>, locally administered */
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		struct rte_ether_addr *a = &cfg->peer[p];

		memset(a, 0, sizeof(*a));
		a->addr_bytes[0] = 0x02;
		a->addr_bytes[5] = (uint8_t)p;
	}
}

void
fwd_config_free(struct fwd_config *cfg)
{
	rt_config_free(&cfg->route);
	fwd_config_defaults(cfg);
}

/* Every number follows lib/numparse's rule: decimal digits, in range. */
static int
parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	return num_u64(s, 0, max, out);
}

static int
parse_mode(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < FWD_MODE_MAX; i++) {
		if (strcmp(v, mode_names[i]) == 0) {
			cfg->mode = (enum fwd_mode)i;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown mode '%s' (io, mac, macswap, rxonly, route, pktgen)", v);
	return -EINVAL;
}

static int
parse_topology(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < FWD_TOPO_MAX; i++) {
		if (strcmp(v, topology_names[i]) == 0) {
			cfg->topology = (enum fwd_topology)i;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown topology '%s' (paired, chained, loop)", v);
	return -EINVAL;
}

static int
parse_idle(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < FWD_IDLE_MAX; i++) {
		if (strcmp(v, idle_names[i]) == 0) {
			cfg->idle = (uint8_t)i;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown idle mode '%s' (poll, sleep)", v);
	return -EINVAL;
}

static int
parse_peer(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	char port_str[16];
	const char *comma = strchr(v, ',');
	uint64_t port;

	if (comma == NULL || (size_t)(comma - v) >= sizeof(port_str)) {
		snprintf(err, errlen, "expected PORT,MAC, got '%s'", v);
		return -EINVAL;
	}
	memcpy(port_str, v, comma - v);
	port_str[comma - v] = '\0';
	if (parse_uint(port_str, RTE_MAX_ETHPORTS - 1, &port) < 0) {
		snprintf(err, errlen, "'%s' is not a port number below %d", port_str,
			RTE_MAX_ETHPORTS);
		return -EINVAL;
	}
	if (rte_ether_unformat_addr(comma + 1, &cfg->peer[port]) < 0) {
		snprintf(err, errlen, "'%s' is not a MAC address (xx:xx:xx:xx:xx:xx)", comma + 1);
		return -EINVAL;
	}
	return 0;
}

static int
parse_flowsort(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	enum flowsort_mode m;
	int ret = rt_flow_mode_parse(v, &m, err, errlen);

	if (ret == 0)
		cfg->flowsort = (uint8_t)m;
	return ret;
}

static int
parse_flow_table(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	enum rt_flow_table_mode t;
	int ret = rt_flow_table_parse(v, &t, err, errlen);

	if (ret == 0)
		cfg->flow_table = (uint8_t)t;
	return ret;
}

/* l3fwd's -p: hexadecimal, "0x" optional, as l3fwd reads it */
static int
parse_portmask(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	const char *p = v;
	uint64_t mask = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (*p == '\0') {
		snprintf(err, errlen, "'%s' is not a hexadecimal port mask (e.g. 0x3)", v);
		return -EINVAL;
	}
	for (; *p != '\0'; p++) {
		unsigned int d;

		if (!isxdigit((unsigned char)*p) || (mask >> (RTE_MAX_ETHPORTS - 4)) != 0) {
			snprintf(err, errlen,
				"'%s' is not a hexadecimal port mask of ports 0-%d (e.g. 0x3)", v,
				RTE_MAX_ETHPORTS - 1);
			return -EINVAL;
		}
		d = isdigit((unsigned char)*p)
			    ? (unsigned int)(*p - '0')
			    : (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		mask = mask << 4 | d;
	}
	if (mask == 0) {
		snprintf(err, errlen, "mask %s names no port", v);
		return -EINVAL;
	}
	cfg->portmask = mask;
	return 0;
}

/* testpmd's --nb-ports N: the first N ports, which is a port mask */
static int
parse_nb_ports(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_uint(v, RTE_MAX_ETHPORTS, &n) < 0 || n == 0) {
		snprintf(err, errlen, "'%s' is not a number from 1 to %d", v, RTE_MAX_ETHPORTS);
		return -EINVAL;
	}
	cfg->portmask = n == 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
	return 0;
}

/* testpmd's --mbuf-size: the reason in the error, not just the range */
static int
parse_mbuf_size(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_uint(v, UINT64_MAX, &n) < 0) {
		snprintf(err, errlen, "'%s' is not a number of bytes", v);
		return -EINVAL;
	}
	if (n < FWD_MIN_MBUF_SIZE) {
		snprintf(err, errlen,
			"%s bytes is too small: the data room holds the %u-byte headroom and at "
			"least %u bytes of frame (a minimum frame's headers, the router's ICMP "
			"errors): %u or more",
			v, RTE_PKTMBUF_HEADROOM, FWD_MIN_MBUF_FRAME, FWD_MIN_MBUF_SIZE);
		return -EINVAL;
	}
	if (n > UINT16_MAX) {
		snprintf(err, errlen, "%s bytes is too large: an mbuf's data room is at most %u", v,
			UINT16_MAX);
		return -EINVAL;
	}
	cfg->mbuf_size = (uint16_t)n;
	return 0;
}

/* l3fwd's --config "(port,queue,lcore),...": a value that opens a list is a map */
static bool
is_map_list(const char *v)
{
	while (isspace((unsigned char)*v))
		v++;
	return *v == '(';
}

static int
parse_map(struct fwd_config *cfg, const char *v, char *err, size_t errlen)
{
	return fwd_map_parse(cfg, v, err, errlen);
}

int
fwd_map_parse(struct fwd_config *cfg, const char *s, char *err, size_t errlen)
{
	static const uint64_t max[3] = {
		RTE_MAX_ETHPORTS - 1, FWD_MAX_QUEUES - 1, RTE_MAX_LCORE - 1};
	static const char *const what[3] = {"port", "queue", "lcore"};
	unsigned int n = 0, i, j;
	const char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0') {
		snprintf(err, errlen, "empty map; expected (port,queue,lcore)[,...]");
		return -EINVAL;
	}
	while (*p != '\0') {
		uint64_t f[3];
		char num[16];

		if (n == FWD_MAX_MAP) {
			snprintf(err, errlen, "more than %d map entries", FWD_MAX_MAP);
			return -EINVAL;
		}
		if (*p != '(') {
			snprintf(err, errlen, "expected '(' at '%s'", p);
			return -EINVAL;
		}
		p++;
		for (i = 0; i < 3; i++) {
			size_t len = 0;

			while (isspace((unsigned char)*p))
				p++;
			while (isdigit((unsigned char)p[len]))
				len++;
			if (len == 0 || len >= sizeof(num)) {
				snprintf(err, errlen, "expected a %s number at '%s'", what[i], p);
				return -EINVAL;
			}
			memcpy(num, p, len);
			num[len] = '\0';
			if (parse_uint(num, max[i], &f[i]) < 0) {
				snprintf(err, errlen, "%s %s out of range (0-%" PRIu64 ")", what[i],
					num, max[i]);
				return -EINVAL;
			}
			p += len;
			while (isspace((unsigned char)*p))
				p++;
			if (*p != (i < 2 ? ',' : ')')) {
				snprintf(err, errlen, "expected '%c' after %s %s",
					i < 2 ? ',' : ')', what[i], num);
				return -EINVAL;
			}
			p++;
		}
		for (j = 0; j < n; j++) {
			if (cfg->map[j].port == f[0] && cfg->map[j].queue == f[1]) {
				snprintf(err, errlen,
					"port %" PRIu64 " queue %" PRIu64
					" is mapped twice (lcores %u and %" PRIu64 ")",
					f[0], f[1], cfg->map[j].lcore, f[2]);
				return -EINVAL;
			}
		}
		cfg->map[n].port = (uint16_t)f[0];
		cfg->map[n].queue = (uint16_t)f[1];
		cfg->map[n].lcore = (unsigned int)f[2];
		n++;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',') {
			p++;
			while (isspace((unsigned char)*p))
				p++;
			if (*p == '\0') {
				snprintf(err, errlen, "trailing ',' in map");
				return -EINVAL;
			}
		} else if (*p != '\0') {
			snprintf(err, errlen, "expected ',' or end of map at '%s'", p);
			return -EINVAL;
		}
	}
	cfg->n_map = n;
	return 0;
}

static const struct fwd_opt *
opt_lookup(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < FWD_NB_OPTS; i++)
		if (strlen(fwd_opts[i].name) == len && strncmp(fwd_opts[i].name, name, len) == 0)
			return &fwd_opts[i];
	return NULL;
}

/* An option of the command line: one of ours or another tool's spelling of it. */
static const struct fwd_opt *
opt_lookup_alias(const char *name, size_t len)
{
	const struct fwd_opt *o = opt_lookup(name, len);
	unsigned int i;

	for (i = 0; o == NULL && i < RTE_DIM(fwd_aliases); i++)
		if (strlen(fwd_aliases[i].name) == len &&
			strncmp(fwd_aliases[i].name, name, len) == 0)
			o = opt_lookup(fwd_aliases[i].of, strlen(fwd_aliases[i].of));
	return o;
}

/* "unknown option '--brust'; did you mean --burst?" */
static void
unknown_option(const char *typed, size_t len, char *err, size_t errlen)
{
	char name[64];
	const char *best = NULL;
	unsigned int best_d = UINT32_MAX, i;

	snprintf(name, sizeof(name), "%.*s", (int)(len < sizeof(name) ? len : sizeof(name) - 1),
		typed);
	for (i = 0; i < FWD_NB_OPTS; i++)
		fwd_suggest_consider(name, fwd_opts[i].name, &best, &best_d);
	for (i = 0; i < RTE_DIM(fwd_aliases); i++)
		fwd_suggest_consider(name, fwd_aliases[i].name, &best, &best_d);
	if (best != NULL)
		snprintf(err, errlen, "unknown option '--%s'; did you mean --%s? (see --help)",
			name, best);
	else
		snprintf(err, errlen, "unknown option '--%s' (see --help)", name);
}

static int
parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = {"on", "yes", "true", "1"};
	static const char *const no[] = {"off", "no", "false", "0"};
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (strcasecmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

static int
opt_apply(const struct fwd_opt *o, struct fwd_config *cfg, const char *value, char *err,
	size_t errlen)
{
	char *field = (char *)cfg + o->off;
	uint64_t u;

	if (o->kind == OPT_ACTION) {
		int fmt = value == NULL ? FWD_HELP_TEXT : fwd_help_format_parse(value);

		if (fmt < 0) {
			snprintf(err, errlen, "--%s: '%s' is not text, md or man", o->name, value);
			return -EINVAL;
		}
		cfg->help_format = (uint8_t)fmt;
		return 0;
	}
	if (o->kind != OPT_FLAG && value == NULL) {
		snprintf(err, errlen, "--%s needs an argument (%s)", o->name, o->arg);
		return -EINVAL;
	}
	switch (o->kind) {
	case OPT_U16:
	case OPT_U32:
		if (parse_uint(value, o->max, &u) < 0 || u < o->min) {
			snprintf(err, errlen, "--%s: '%s' is not a number from %u to %u", o->name,
				value, o->min, o->max);
			return -EINVAL;
		}
		if (o->kind == OPT_U16)
			*(uint16_t *)field = (uint16_t)u;
		else
			*(uint32_t *)field = (uint32_t)u;
		return 0;
	case OPT_SECS: {
		double d;

		/* not "from 0": a time that rounds to no tick would mean "forever" */
		if (num_secs(value, o->max, &d) < 0) {
			snprintf(err, errlen,
				"--%s: '%s' is not 0 or decimal seconds from 0.000001 to %u",
				o->name, value, o->max);
			return -EINVAL;
		}
		*(double *)field = d;
		return 0;
	}
	case OPT_FLAG:
		if (value == NULL) {
			*(bool *)field = true;
			return 0;
		}
		if (parse_bool(value, (bool *)field) < 0) {
			snprintf(err, errlen, "--%s: '%s' is not on or off", o->name, value);
			return -EINVAL;
		}
		return 0;
	case OPT_PATH:
		if (value[0] == '\0' || strlen(value) >= PATH_MAX) {
			snprintf(err, errlen, "--%s: empty or too long file name", o->name);
			return -EINVAL;
		}
		strcpy(field, value);
		return 0;
	case OPT_SPECIAL:
	default: {
		char reason[FWD_ERR_LEN - 64];
		int ret = o->parse(cfg, value, reason, sizeof(reason));

		if (ret < 0)
			snprintf(err, errlen, "--%s: %s", o->name, reason);
		return ret;
	}
	}
}

int
fwd_opt_apply(struct fwd_config *cfg, const char *name, const char *value, char *err, size_t errlen)
{
	const struct fwd_opt *o = opt_lookup_alias(name, strlen(name));

	if (o == NULL) {
		unknown_option(name, strlen(name), err, errlen);
		return -ENOENT;
	}
	return opt_apply(o, cfg, value, err, errlen);
}

/* Config file keys are option names, all in the [forward] section. */
int
fwd_opts_cfgfile_cb(void *arg, const char *section, const char *key, const char *value, char *err,
	size_t errlen)
{
	struct fwd_config *cfg = arg;
	const struct fwd_opt *o;

	if (rt_config_owns_section(section)) {
		int ret;

		/* a [port N] may name a port that only turns out missing after EAL init */
		cfg->route.where = fwd_cfgfile_where();
		ret = rt_config_cfgfile_cb(&cfg->route, section, key, value, err, errlen);
		cfg->route.where = NULL;
		return ret;
	}
	if (strcmp(section, "pktgen") == 0) {
		int ret = pktgen_stream_set(&cfg->pktgen, key, value, err, errlen);

		if (ret == -ENOENT)
			snprintf(err, errlen, "unknown key '%s' in [pktgen]", key);
		return ret;
	}
	if (strcmp(section, "forward") != 0) {
		snprintf(err, errlen,
			"unknown section [%s] (expected [forward], [port N], [route], [neigh] or "
			"[pktgen])",
			section);
		return -EINVAL;
	}
	o = opt_lookup(key, strlen(key));
	if (o == NULL || strcmp(key, "config") == 0 || strcmp(key, "help") == 0) {
		snprintf(err, errlen, "unknown key '%s' in [forward]", key);
		return -EINVAL;
	}
	if (value[0] == '\0') {
		snprintf(err, errlen, "key '%s' has no value", key);
		return -EINVAL;
	}
	if (opt_apply(o, cfg, value, err, errlen) < 0) {
		/* the file names keys, not options: drop the leading "--" */
		if (strncmp(err, "--", 2) == 0)
			memmove(err, err + 2, strlen(err + 2) + 1);
		return -EINVAL;
	}
	return 0;
}

int
fwd_opts_is_app_option(const char *arg)
{
	const char *eq;

	if (strcmp(arg, "-h") == 0 || strcmp(arg, "-i") == 0 || strcmp(arg, "-p") == 0)
		return 1;
	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0')
		return 0;
	arg += 2;
	eq = strchr(arg, '=');
	return opt_lookup_alias(arg, eq != NULL ? (size_t)(eq - arg) : strlen(arg)) != NULL;
}

/*
 * Split argv[i] into option and value: "--name=value", "--name value" (for
 * options that take one) or "--name". Returns the number of argv slots used.
 */
static int
split_arg(int argc, char **argv, int i, const struct fwd_opt **o, const char **value, char *err,
	size_t errlen)
{
	const char *a = argv[i];
	const char *eq;
	size_t len;

	*value = NULL;
	if (a[0] == '-' && a[1] != '-' && a[1] != '\0') {
		/* testpmd's -i and -a, l3fwd's -p MASK (or -pMASK) */
		static const char *const shorts[][2] = {{"h", "help"}, {"i", "interactive"},
			{"a", "auto-start"}, {"p", "portmask"}};
		unsigned int s;

		for (s = 0; s < RTE_DIM(shorts) && a[1] != shorts[s][0][0]; s++)
			;
		if (s < RTE_DIM(shorts) && (a[2] == '\0' || s == 3)) {
			*o = opt_lookup(shorts[s][1], strlen(shorts[s][1]));
			if ((*o)->kind == OPT_FLAG || (*o)->kind == OPT_ACTION)
				return 1;
			if (a[2] != '\0') {
				*value = a + 2;
				return 1;
			}
			if (i + 1 >= argc) {
				snprintf(err, errlen, "%s needs an argument (%s)", a, (*o)->arg);
				return -EINVAL;
			}
			*value = argv[i + 1];
			return 2;
		}
	}
	if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
		snprintf(err, errlen,
			"unexpected argument '%s' (options start with --; see --help)", a);
		return -EINVAL;
	}
	a += 2;
	eq = strchr(a, '=');
	len = eq != NULL ? (size_t)(eq - a) : strlen(a);
	*o = opt_lookup_alias(a, len);
	if (*o == NULL) {
		unknown_option(a, len, err, errlen);
		return -ENOENT;
	}
	if (eq != NULL) {
		*value = eq + 1;
		return 1;
	}
	if ((*o)->kind == OPT_FLAG || (*o)->kind == OPT_ACTION)
		return 1;
	if (i + 1 >= argc) {
		snprintf(err, errlen, "--%s needs an argument (%s)", (*o)->name, (*o)->arg);
		return -EINVAL;
	}
	*value = argv[i + 1];
	return 2;
}

int
fwd_opts_parse(struct fwd_config *cfg, int argc, char **argv, char *err, size_t errlen)
{
	const struct fwd_opt *o;
	const char *value;
	const char *config = NULL;
	int i, n, ret;

	fwd_config_defaults(cfg);

	/* First pass: syntax, --help, and where the config file is. */
	for (i = 0; i < argc; i += n) {
		n = split_arg(argc, argv, i, &o, &value, err, errlen);
		if (n < 0)
			return n;
		if (strcmp(o->name, "help") == 0) {
			/* --help=md, --help=man: the generated docs */
			ret = opt_apply(o, cfg, value, err, errlen);
			return ret < 0 ? ret : FWD_OPTS_HELP;
		}
		if (strcmp(o->name, "config") == 0 && !is_map_list(value))
			config = value;
	}

	if (config != NULL) {
		if (config[0] == '\0' || strlen(config) >= sizeof(cfg->config_file)) {
			snprintf(err, errlen, "--config: empty or too long file name");
			return -EINVAL;
		}
		ret = fwd_cfgfile_load(config, fwd_opts_cfgfile_cb, cfg, err, errlen);
		if (ret < 0)
			return ret;
		strcpy(cfg->config_file, config);
	}

	/* Second pass: the command line overrides the file. */
	for (i = 0; i < argc; i += n) {
		n = split_arg(argc, argv, i, &o, &value, err, errlen);
		if (strcmp(o->name, "config") == 0 && !is_map_list(value))
			continue;
		if (strcmp(o->name, "config") == 0)
			o = opt_lookup("map", 3); /* l3fwd's --config is our --map */
		ret = opt_apply(o, cfg, value, err, errlen);
		if (ret < 0)
			return ret;
	}
	return FWD_OPTS_RUN;
}

int
fwd_opts_doc(unsigned int i, struct fwd_opt_doc *d)
{
	static const char *const shorts[][2] = {
		{"help", "-h"}, {"interactive", "-i"}, {"auto-start", "-a"}, {"portmask", "-p"}};
	const struct fwd_opt *o;
	unsigned int s;

	if (i >= FWD_NB_OPTS)
		return -ENOENT;
	o = &fwd_opts[i];
	memset(d, 0, sizeof(*d));
	d->name = o->name;
	d->arg = o->arg;
	d->help = o->help;
	d->def = o->def;
	d->defdoc = o->def != NULL ? o->def : o->defdoc;
	d->file_key = o->kind != OPT_ACTION && strcmp(o->name, "config") != 0;
	for (s = 0; s < RTE_DIM(shorts); s++)
		if (strcmp(o->name, shorts[s][0]) == 0)
			d->short_name = shorts[s][1];
	if (o->range != NULL)
		snprintf(d->range, sizeof(d->range), "%s", o->range);
	else if (o->kind == OPT_FLAG)
		snprintf(d->range, sizeof(d->range), "on|off");
	else if (o->kind == OPT_U16 || o->kind == OPT_U32 || o->kind == OPT_SECS)
		snprintf(d->range, sizeof(d->range), "%u-%u", o->min, o->max);
	return 0;
}

int
fwd_opts_alias(unsigned int i, const char **name, const char **of, const char **from)
{
	if (i >= RTE_DIM(fwd_aliases))
		return -ENOENT;
	*name = fwd_aliases[i].name;
	*of = fwd_aliases[i].of;
	*from = fwd_aliases[i].from;
	return 0;
}
