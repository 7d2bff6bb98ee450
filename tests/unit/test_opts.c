/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* Option, map and config-file parsing: good and bad inputs, and precedence. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>

#include "numparse.h"

#include "fwd_cfgfile.h"
#include "fwd_opts.h"
#include "fwd_test.h"

static struct fwd_config cfg;
static char err[FWD_ERR_LEN];

/* Parse a NULL-terminated list of arguments. */
static int
parse_v(const char *const *args)
{
	char *argv[64];
	int argc = 0;

	while (args[argc] != NULL) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	err[0] = '\0';
	fwd_config_free(&cfg); /* what the last parse grew (its routes) */
	return fwd_opts_parse(&cfg, argc, argv, err, sizeof(err));
}

#define PARSE(...) parse_v((const char *const[]){__VA_ARGS__, NULL})

/* Expect a parse failure whose message contains @p msg. */
#define CHECK_PARSE_FAILS(msg, ...)            \
	do {                                   \
		CHECK(PARSE(__VA_ARGS__) < 0); \
		CHECK_CONTAINS(err, msg);      \
	} while (0)

static char tmp_path[64];

static const char *
write_tmp(const char *text)
{
	int fd;

	strcpy(tmp_path, "/tmp/fwd-unit-XXXXXX");
	fd = mkstemp(tmp_path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	return tmp_path;
}

static void
test_defaults(void)
{
	CHECK_EQ(parse_v((const char *const[]){NULL}), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_IO);
	CHECK_EQ(cfg.topology, FWD_TOPO_PAIRED);
	CHECK_EQ(cfg.burst, 32);
	CHECK_EQ(cfg.nb_rxd, 1024);
	CHECK_EQ(cfg.rxq, 1);
	CHECK_EQ(cfg.n_map, 0);
	CHECK(cfg.promisc);
	CHECK(!cfg.xstats);
	CHECK_EQ(cfg.stats_file[0], '\0');
	CHECK_EQ(cfg.peer[3].addr_bytes[0], 0x02);
	CHECK_EQ(cfg.peer[3].addr_bytes[5], 3);
}

static void
test_good_options(void)
{
	CHECK_EQ(PARSE("--fwd", "mac", "--burst", "64", "--rxd=512", "--txd", "256",
			 "--stats-period", "0.5", "--duration=2", "--stats-file", "/tmp/x.json",
			 "--xstats", "--promisc=off", "--eth-peer", "1,aa:bb:cc:dd:ee:ff",
			 "--port-topology", "chained", "--total-num-mbufs", "4096", "--mbuf-cache",
			 "0", "--rxq", "4"),
		FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_MAC);
	CHECK_EQ(cfg.burst, 64);
	CHECK_EQ(cfg.nb_rxd, 512);
	CHECK_EQ(cfg.nb_txd, 256);
	CHECK(cfg.stats_period == 0.5);
	CHECK(cfg.duration == 2.0);
	CHECK(strcmp(cfg.stats_file, "/tmp/x.json") == 0);
	CHECK(cfg.xstats);
	CHECK(!cfg.promisc);
	CHECK_EQ(cfg.peer[1].addr_bytes[0], 0xaa);
	CHECK_EQ(cfg.peer[1].addr_bytes[5], 0xff);
	CHECK_EQ(cfg.peer[0].addr_bytes[0], 0x02); /* others untouched */
	CHECK_EQ(cfg.topology, FWD_TOPO_CHAINED);
	CHECK_EQ(cfg.nb_mbufs, 4096);
	CHECK_EQ(cfg.mbuf_cache, 0);
	CHECK_EQ(cfg.rxq, 4);

	CHECK_EQ(PARSE("--fwd", "macswap"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_MACSWAP);
	CHECK_EQ(PARSE("--fwd=rxonly", "--burst", "1"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_RXONLY);
	CHECK_EQ(cfg.burst, 1);
	CHECK_EQ(PARSE("--burst", "512", "--burst", "7"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.burst, 7); /* the last one wins */
}

static void
test_help(void)
{
	CHECK_EQ(PARSE("--help"), FWD_OPTS_HELP);
	CHECK_EQ(PARSE("-h"), FWD_OPTS_HELP);
	/* help wins even after a later bad option: the user asked for help */
	CHECK_EQ(PARSE("--fwd", "mac", "--help"), FWD_OPTS_HELP);
	CHECK_EQ(PARSE("--help=md"), FWD_OPTS_HELP);
	CHECK_EQ(cfg.help_format, FWD_HELP_MD);
	CHECK_EQ(PARSE("--help=man"), FWD_OPTS_HELP);
	CHECK_EQ(cfg.help_format, FWD_HELP_MAN);
	CHECK_PARSE_FAILS("--help: 'pdf' is not text, md or man", "--help=pdf");
}

static void
test_bad_options(void)
{
	CHECK_PARSE_FAILS("unknown option '--brust'", "--brust", "4");
	CHECK_PARSE_FAILS("unexpected argument 'mac'", "mac");
	CHECK_PARSE_FAILS("unexpected argument '-x'", "-x");
	CHECK_PARSE_FAILS("--burst: '0' is not a number from 1 to 512", "--burst", "0");
	CHECK_PARSE_FAILS("--burst: '513' is not a number from 1 to 512", "--burst", "513");
	CHECK_PARSE_FAILS("--burst: 'abc'", "--burst", "abc");
	CHECK_PARSE_FAILS("--burst: '-1'", "--burst", "-1");
	CHECK_PARSE_FAILS("--burst: '32x'", "--burst", "32x");
	CHECK_PARSE_FAILS("--burst: ' 32'", "--burst", " 32");
	CHECK_PARSE_FAILS(
		"--burst: '99999999999999999999999'", "--burst", "99999999999999999999999");
	CHECK_PARSE_FAILS("--burst needs an argument (N)", "--burst");
	CHECK_PARSE_FAILS("--fwd: unknown mode 'route2'", "--fwd", "route2");
	CHECK_PARSE_FAILS("--port-topology: unknown topology 'ring'", "--port-topology", "ring");
	CHECK_PARSE_FAILS("--duration: '-1'", "--duration", "-1");
	CHECK_PARSE_FAILS("--duration: 'nan'", "--duration", "nan");
	CHECK_PARSE_FAILS("--duration: 'inf'", "--duration", "inf");
	CHECK_PARSE_FAILS("--stats-period: '1e9'", "--stats-period", "1e9");
	CHECK_PARSE_FAILS("--xstats: 'maybe' is not on or off", "--xstats=maybe");
	CHECK_PARSE_FAILS("--help: 'x' is not text, md or man", "--fwd", "io", "--help=x");
	CHECK_PARSE_FAILS("--eth-peer: expected PORT,MAC", "--eth-peer", "aa:bb:cc:dd:ee:ff");
	CHECK_PARSE_FAILS("--eth-peer: 'aa:bb' is not a MAC", "--eth-peer", "0,aa:bb");
	CHECK_PARSE_FAILS(
		"--eth-peer: '9999' is not a port", "--eth-peer", "9999,aa:bb:cc:dd:ee:ff");
	CHECK_PARSE_FAILS("--stats-file: empty", "--stats-file", "");
	CHECK_PARSE_FAILS("--rxd: '0'", "--rxd", "0");
	/* the headroom and 128 bytes of frame; 16 bits */
	CHECK_PARSE_FAILS("--mbuf-size: 255 bytes is too small: the data room holds the "
			  "128-byte headroom and at least 128 bytes of frame",
		"--mbuf-size", "255");
	CHECK_PARSE_FAILS("--mbuf-size: 65536 bytes is too large: an mbuf's data room is at most "
			  "65535",
		"--mbuf-size", "65536");
	CHECK_PARSE_FAILS("--mbuf-size: '2k' is not a number of bytes", "--mbuf-size", "2k");
	CHECK_EQ(PARSE("--mbuf-size", "256"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mbuf_size, 256);
	CHECK_EQ(PARSE("--mbuf-size", "65535"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mbuf_size, 65535);
}

static void
test_map(void)
{
	CHECK_EQ(PARSE("--map", "(0,0,1),(1,0,1)"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.n_map, 2);
	CHECK_EQ(cfg.map[1].port, 1);
	CHECK_EQ(cfg.map[1].lcore, 1);

	CHECK_EQ(PARSE("--map", " ( 0 , 1 , 2 ) , (3,0,4) "), FWD_OPTS_RUN);
	CHECK_EQ(cfg.n_map, 2);
	CHECK_EQ(cfg.map[0].queue, 1);
	CHECK_EQ(cfg.map[0].lcore, 2);
	CHECK_EQ(cfg.map[1].port, 3);
	CHECK_EQ(cfg.map[1].lcore, 4);

	CHECK_PARSE_FAILS("--map: expected ',' after queue 0", "--map", "(0,0)");
	CHECK_PARSE_FAILS("--map: expected ')' after lcore 1", "--map", "(0,0,1");
	CHECK_PARSE_FAILS("--map: expected '('", "--map", "0,0,1");
	CHECK_PARSE_FAILS("--map: trailing ','", "--map", "(0,0,1),");
	CHECK_PARSE_FAILS("--map: expected ',' or end of map", "--map", "(0,0,1)(1,0,1)");
	CHECK_PARSE_FAILS("--map: port 99999 out of range", "--map", "(99999,0,1)");
	CHECK_PARSE_FAILS("--map: queue 64 out of range", "--map", "(0,64,1)");
	CHECK_PARSE_FAILS("--map: expected a lcore number", "--map", "(0,0,-1)");
	CHECK_PARSE_FAILS("--map: empty map", "--map", "  ");
	CHECK_PARSE_FAILS(
		"port 0 queue 0 is mapped twice (lcores 1 and 2)", "--map", "(0,0,1),(0,0,2)");
}

static void
test_topology(void)
{
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_PAIRED, 0, 4), 1);
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_PAIRED, 1, 4), 0);
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_PAIRED, 3, 4), 2);
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_PAIRED, 2, 3), 2); /* odd count: last loops */
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_PAIRED, 0, 1), 0);
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_CHAINED, 0, 3), 1);
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_CHAINED, 2, 3), 0);
	CHECK_EQ(fwd_topology_peer(FWD_TOPO_LOOP, 2, 3), 2);
	CHECK(strcmp(fwd_mode_name(FWD_MODE_MACSWAP), "macswap") == 0);
	CHECK(fwd_mode_name(FWD_MODE_MAX) == NULL);
	CHECK(strcmp(fwd_topology_name(FWD_TOPO_LOOP), "loop") == 0);
}

static void
test_is_app_option(void)
{
	CHECK(fwd_opts_is_app_option("--fwd"));
	CHECK(fwd_opts_is_app_option("--burst=4"));
	CHECK(fwd_opts_is_app_option("-h"));
	CHECK(!fwd_opts_is_app_option("--no-huge"));
	CHECK(!fwd_opts_is_app_option("-l"));
	CHECK(!fwd_opts_is_app_option("--"));
	CHECK(!fwd_opts_is_app_option("--vdev"));
}

static void
test_config_file(void)
{
	const char *p = write_tmp("# example\n"
				  "; another comment\n"
				  "\n"
				  "[forward]\r\n"
				  "fwd = mac   # trailing comment\n"
				  "burst=64\n"
				  "  eth-peer = 1,aa:bb:cc:dd:ee:01\n"
				  "map = (0,0,1), (1,0,1)\n"
				  "xstats = on\n"
				  "promisc = no\n"
				  "stats-file = /tmp/a#b.json\n");
	char arg[80];

	snprintf(arg, sizeof(arg), "--config=%s", p);
	CHECK_EQ(PARSE(arg), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_MAC);
	CHECK_EQ(cfg.burst, 64);
	CHECK_EQ(cfg.peer[1].addr_bytes[5], 0x01);
	CHECK_EQ(cfg.n_map, 2);
	CHECK(cfg.xstats);
	CHECK(!cfg.promisc);
	CHECK(strcmp(cfg.stats_file, "/tmp/a#b.json") == 0); /* '#' inside a value stays */
	CHECK(strcmp(cfg.config_file, p) == 0);

	/* the command line overrides the file, wherever --config stands */
	CHECK_EQ(PARSE("--fwd", "macswap", "--config", p, "--burst", "8"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_MACSWAP);
	CHECK_EQ(cfg.burst, 8);
	CHECK(cfg.xstats); /* what the command line does not set comes from the file */
	unlink(p);
}

/* Parse @p text as a config file; expect failure with @p msg after "file:". */
static void
check_config_error(const char *text, const char *msg)
{
	const char *p = write_tmp(text);
	char want[256];

	CHECK(PARSE("--config", p) < 0);
	snprintf(want, sizeof(want), "%s:%s", p, msg);
	CHECK_CONTAINS(err, want);
	unlink(p);
}

static void
test_config_errors(void)
{
	check_config_error(
		"[forward]\nfwd = io\nbrust = 4\n", "3: unknown key 'brust' in [forward]");
	check_config_error("fwd = io\n", "1: key 'fwd' is outside any [section]");
	check_config_error("[forward\n", "1: section header must be '[name]'");
	check_config_error("[forward] x\n", "1: section header must be '[name]'");
	check_config_error("[]\n", "1: bad section name ''");
	check_config_error("[forward]\n\nfwd io\n", "3: expected 'key = value' or '[section]'");
	check_config_error("[eal]\nx = 1\n",
		"2: unknown section [eal] (expected [forward], [port N], [route], [neigh] or [pktgen])");
	check_config_error("[forward]\nburst = 0\n", "2: burst: '0' is not a number from 1 to 512");
	check_config_error("[forward]\nfwd =\n", "2: key 'fwd' has no value");
	check_config_error("[forward]\nconfig = other.ini\n", "2: unknown key 'config'");
	check_config_error("[forward]\nmap = (0,0)\n", "2: map: expected ','");
	check_config_error("[forward]\n= 3\n", "2: bad key ''");

	CHECK(PARSE("--config", "/nonexistent/fwd.ini") < 0);
	CHECK_CONTAINS(err, "/nonexistent/fwd.ini: cannot open config file: No such file");
}

static int
count_cb(void *arg, const char *section, const char *key, const char *value, char *e, size_t elen)
{
	(*(int *)arg)++;
	return 0;
}

static void
test_cfgfile_limits(void)
{
	static char big[4096];
	char e[256];
	int n = 0;

	/* a line longer than the limit is refused with its number */
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "[s]\nk = ", 8);
	CHECK(fwd_cfgfile_parse("big", big, strlen(big), count_cb, &n, e, sizeof(e)) < 0);
	CHECK_CONTAINS(e, "big:2: line longer than");

	CHECK(fwd_cfgfile_parse("nul", "[s]\nk=\0v\n", 9, count_cb, &n, e, sizeof(e)) < 0);
	CHECK_CONTAINS(e, "nul:2: NUL byte");

	/* no newline at the end of the last line is fine */
	n = 0;
	CHECK_EQ(fwd_cfgfile_parse("t", "[s]\na=1\nb=2", 11, count_cb, &n, e, sizeof(e)), 0);
	CHECK_EQ(n, 2);
}

static const char *example_ini;

/* config/example.ini documents every key at its default: it must parse to the defaults. */
static void
test_example_config(void)
{
	struct fwd_config defaults;

	if (example_ini == NULL) {
		CHECK(!"no path to config/example.ini given");
		return;
	}
	fwd_config_defaults(&defaults);
	CHECK_EQ(PARSE("--config", example_ini), FWD_OPTS_RUN);
	CHECK_EQ(strcmp(err, ""), 0);
	memset(cfg.config_file, 0, sizeof(cfg.config_file));
	CHECK(memcmp(&cfg, &defaults, sizeof(cfg)) == 0);
}

static const char *router_ini;

/* config/router.ini, the routing example of the user guide, parses as documented. */
static void
test_router_config(void)
{
	if (router_ini == NULL) {
		CHECK(!"no path to config/router.ini given");
		return;
	}
	CHECK_EQ(PARSE("--config", router_ini), FWD_OPTS_RUN);
	CHECK_EQ(strcmp(err, ""), 0);
	CHECK_EQ(cfg.mode, FWD_MODE_ROUTE);
	CHECK(cfg.route.ports[0].has_ip && cfg.route.ports[1].has_ip);
	CHECK_EQ(cfg.route.ports[1].plen, 24);
	CHECK_EQ(cfg.route.n_routes, 4);
	CHECK_EQ(cfg.route.n_neigh, 1);
}

/* lib/numparse's rule itself: decimal digits only, in range; seconds at least 1 us. */
static void
test_number_rule(void)
{
	static const struct {
		const char *s;
		int ret;
		uint64_t v;
	} ints[] = {
		{"0", 0, 0},
		{"42", 0, 42},
		{"042", 0, 42},
		{"18446744073709551615", 0, UINT64_MAX},
		{"18446744073709551616", -ERANGE, 0},
		{"99999999999999999999999", -ERANGE, 0},
		{"", -EINVAL, 0},
		{"+1", -EINVAL, 0},
		{"-1", -EINVAL, 0},
		{"0x10", -EINVAL, 0},
		{" 1", -EINVAL, 0},
		{"1 ", -EINVAL, 0},
		{"1e3", -EINVAL, 0},
		{"1.0", -EINVAL, 0},
		{"12abc", -EINVAL, 0},
		{"\xd9\xa3", -EINVAL, 0},
	};
	static const struct {
		const char *s;
		int ret;
		double v;
	} secs[] = {
		{"0", 0, 0},
		{"2", 0, 2},
		{"2.5", 0, 2.5},
		{"0.000001", 0, 1e-6},
		{"0.0", 0, 0},
		{"0.0000001", -ERANGE, 0},
		{"86401", -ERANGE, 0},
		{"1e-10", -EINVAL, 0},
		{"0x10", -EINVAL, 0},
		{"+1", -EINVAL, 0},
		{".5", -EINVAL, 0},
		{"5.", -EINVAL, 0},
		{"inf", -EINVAL, 0},
		{"nan", -EINVAL, 0},
		{"1,5", -EINVAL, 0},
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(ints); i++) {
		uint64_t v = 7;
		int ret = num_u64(ints[i].s, 0, UINT64_MAX, &v);

		if (ret != ints[i].ret || (ret == 0 && v != ints[i].v))
			printf("#   num_u64('%s') = %d, %" PRIu64 "\n", ints[i].s, ret, v);
		CHECK_EQ(ret, ints[i].ret);
	}
	for (i = 0; i < RTE_DIM(secs); i++) {
		double v = 7;
		int ret = num_secs(secs[i].s, 86400, &v);

		if (ret != secs[i].ret || (ret == 0 && v != secs[i].v))
			printf("#   num_secs('%s') = %d, %g\n", secs[i].s, ret, v);
		CHECK_EQ(ret, secs[i].ret);
	}
	CHECK_EQ(num_u64("5", 6, 9, &(uint64_t){0}), -ERANGE);
}

/*
 * Every key that takes a number, in every section, and every option: the
 * number @c N in @c text is replaced by hostile spellings, each refused with
 * a message naming the key or quoting the value, and by a leading zero, read
 * as the same decimal number.
 */
static const struct {
	const char *text; /* a config file; "%s" is where the number goes */
	const char *good; /* a number that makes it valid */
	const char *opt;  /* the same as a command-line option, or NULL */
} numeric_keys[] = {
	{"[forward]\nburst = %s\n", "32", "--burst"},
	{"[forward]\nrxq = %s\n", "1", "--rxq"},
	{"[forward]\nrxd = %s\n", "512", "--rxd"},
	{"[forward]\ntxd = %s\n", "512", "--txd"},
	{"[forward]\ntotal-num-mbufs = %s\n", "8192", "--total-num-mbufs"},
	{"[forward]\nmbuf-cache = %s\n", "64", "--mbuf-cache"},
	{"[forward]\nmbuf-size = %s\n", "640", "--mbuf-size"},
	{"[forward]\nstats-period = %s\n", "1", "--stats-period"},
	{"[forward]\nduration = %s\n", "16", "--duration"},
	{"[forward]\nmap = (%s,0,1)\n", "0", NULL},
	{"[forward]\nmap = (0,%s,1)\n", "0", NULL},
	{"[forward]\nmap = (0,0,%s)\n", "1", NULL},
	{"[forward]\neth-peer = %s,02:00:00:00:00:01\n", "1", NULL},
	{"[port %s]\nip = 10.0.0.1/24\n", "0", NULL},
	{"[port 0]\nip = 10.0.0.1/%s\n", "24", NULL},
	{"[port 0]\nmtu = %s\n", "1500", NULL},
	{"[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 172.16.0.0/%s via 10.0.0.2\n", "16", NULL},
	{"[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 172.16.0.0/16 dev %s\n", "0", NULL},
	{"[port 0]\nip = 10.0.0.1/24\n[route]\nblackhole = 192.0.2.0/%s\n", "24", NULL},
	{"[filter]\ndeny = proto %s\n", "17", NULL},
	{"[filter]\ndeny = proto udp dport %s\n", "80", NULL},
	{"[filter]\ndeny = proto tcp sport 1000-%s\n", "2000", NULL},
	{"[filter]\ndeny = src 10.0.0.0/%s\n", "8", NULL},
	{"[pktgen]\nsize = %s\n", "64", NULL},
	{"[pktgen]\nsize = 64-%s\n", "1518", NULL},
	{"[pktgen]\nsize = imix:64*%s,1500*1\n", "7", NULL},
	{"[pktgen]\nflows = %s\n", "16", NULL},
	{"[pktgen]\ncount = %s\n", "100", NULL},
	{"[pktgen]\nduration = %s\n", "2", NULL},
	{"[pktgen]\nrate = %skpps\n", "10", NULL},
	{"[pktgen]\nrate = %s%%\n", "50", NULL},
	{"[pktgen]\nclone = %s\n", "4", NULL},
	{"[pktgen]\nburst = %s\n", "32", NULL},
	{"[pktgen]\npace-slack = %s\n", "32", NULL},
	{"[pktgen]\nttl = %s\n", "64", NULL},
	{"[pktgen]\ntos = %s\n", "16", NULL},
	{"[pktgen]\nseed = %s\n", "7", NULL},
	{"[pktgen]\nmbufs = %s\n", "4096", NULL},
	{"[pktgen]\nloop = %s\n", "2", NULL},
	{"[pktgen]\nvlan = %s\n", "10", NULL},
	{"[pktgen]\nvlan = 10/%s\n", "3", NULL},
	{"[pktgen]\ndst-port = %s\n", "1000", NULL},
	{"[pktgen]\nsrc-port = 1000-%s\n", "1999", NULL},
	{"[pktgen]\npayload = byte:%s\n", "90", NULL},
	{"[pktgen]\npattern = train:%s\n", "8", NULL},
	{"[pktgen]\nspeed = %s\n", "2", NULL},
};

/* @p a and @p b hold the same config (the router's grown arrays compared by content). */
static bool
cfg_same(const struct fwd_config *a, const struct fwd_config *b)
{
	static struct fwd_config x, y;
	const struct rt_config *ra = &a->route, *rb = &b->route;
	uint32_t i;

	if (ra->n_routes != rb->n_routes || ra->n_neigh != rb->n_neigh ||
		ra->n_files != rb->n_files)
		return false;
	if (ra->n_routes > 0 &&
		memcmp(ra->routes, rb->routes, ra->n_routes * sizeof(ra->routes[0])) != 0)
		return false;
	if (ra->n_neigh > 0 &&
		memcmp(ra->neigh, rb->neigh, ra->n_neigh * sizeof(ra->neigh[0])) != 0)
		return false;
	for (i = 0; i < ra->n_files; i++)
		if (strcmp(ra->files[i].path, rb->files[i].path) != 0)
			return false;
	x = *a;
	y = *b;
	x.route.routes = y.route.routes = NULL;
	x.route.neigh = y.route.neigh = NULL;
	x.route.files = y.route.files = NULL;
	x.route.seen = y.route.seen = NULL;
	return memcmp(&x, &y, sizeof(x)) == 0;
}

/* Parse one numeric_keys[] text with @p n for the number into @p out; 0 or -errno. */
static int
parse_numeric(unsigned int k, const char *n, struct fwd_config *out)
{
	char text[512];

	snprintf(text, sizeof(text), numeric_keys[k].text, n);
	fwd_config_free(out);
	err[0] = '\0';
	return fwd_cfgfile_parse(
		"t.ini", text, strlen(text), fwd_opts_cfgfile_cb, out, err, sizeof(err));
}

/* The key of the line with the number ("port" for a "[port %s]" header). */
static void
numeric_key(const char *text, char *key, size_t len)
{
	const char *at = strstr(text, "%s");
	const char *line = at;
	size_t n;

	while (line > text && line[-1] != '\n')
		line--;
	if (line[0] == '[') {
		snprintf(key, len, "port");
		return;
	}
	n = strcspn(line, " =");
	snprintf(key, len, "%.*s", (int)n, line);
}

static void
test_number_rule_every_key(void)
{
	/* {prefix, suffix} around the good number */
	static const char *const bad[][2] = {
		{"+", ""},
		{"-", ""},
		{"0x", ""},
		{"", "x"},
		{"", "e0"},
		{"", ".5e1"},
		{"99999999999999999999999", ""},
		{"", "\x01"},
		{"\xd9\xa3", ""},
	};
	static struct fwd_config good, got;
	char n[64], key[64];
	unsigned int k, b;

	for (k = 0; k < RTE_DIM(numeric_keys); k++) {
		if (parse_numeric(k, numeric_keys[k].good, &good) != 0) {
			printf("#   %s with %s: %s\n", numeric_keys[k].text, numeric_keys[k].good,
				err);
			CHECK(!"the good value is refused");
			continue;
		}
		numeric_key(numeric_keys[k].text, key, sizeof(key));
		for (b = 0; b < RTE_DIM(bad); b++) {
			snprintf(n, sizeof(n), "%s%s%s", bad[b][0],
				bad[b][0][0] == '9' ? "" : numeric_keys[k].good, bad[b][1]);
			if (parse_numeric(k, n, &got) == 0) {
				printf("#   accepted: ");
				printf(numeric_keys[k].text, n);
				CHECK(!"a number outside the rule is accepted");
				continue;
			}
			/* file:line, and the key or the value it quotes */
			CHECK_CONTAINS(err, "t.ini:");
			if (strstr(err, key) == NULL && strstr(err, n) == NULL) {
				printf("#   '%s' (key %s) refused without naming it: %s\n", n, key,
					err);
				CHECK(!"the message names neither the key nor the value");
			}
		}
		/* a leading zero is still decimal: the same value */
		snprintf(n, sizeof(n), "0%s", numeric_keys[k].good);
		CHECK_EQ(parse_numeric(k, n, &got), 0);
		if (!cfg_same(&got, &good)) {
			printf("#   ");
			printf(numeric_keys[k].text, n);
			CHECK(!"a leading zero changed the value");
		}
		if (numeric_keys[k].opt != NULL) {
			CHECK_EQ(PARSE(numeric_keys[k].opt, numeric_keys[k].good), FWD_OPTS_RUN);
			for (b = 0; b < RTE_DIM(bad); b++) {
				snprintf(n, sizeof(n), "%s%s%s", bad[b][0],
					bad[b][0][0] == '9' ? "" : numeric_keys[k].good, bad[b][1]);
				CHECK(PARSE(numeric_keys[k].opt, n) < 0);
				CHECK_CONTAINS(err, numeric_keys[k].opt);
			}
		}
	}
	/* below one tick would be "forever" */
	CHECK_PARSE_FAILS("--duration: '0.0000000001' is not 0 or decimal seconds", "--duration",
		"0.0000000001");
	CHECK_PARSE_FAILS("--stats-period: '1e-12'", "--stats-period", "1e-12");
	CHECK_PARSE_FAILS("--duration: '1e-10'", "--duration", "1e-10");
	CHECK_EQ(PARSE("--duration", "0.000001"), FWD_OPTS_RUN);
	CHECK(cfg.duration == 1e-6);
}

/* testpmd's and l3fwd's spellings (issue 23), and "did you mean" */
static void
test_other_tools_spellings(void)
{
	CHECK_EQ(PARSE("--forward-mode=macswap"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_MACSWAP);
	CHECK_EQ(PARSE("--forward-mode", "mac", "--mbcache=64", "--txq=3", "--nb-cores", "2"),
		FWD_OPTS_RUN);
	CHECK_EQ(cfg.mode, FWD_MODE_MAC);
	CHECK_EQ(cfg.mbuf_cache, 64);
	CHECK_EQ(cfg.txq, 3);
	CHECK_EQ(cfg.nb_cores, 2);
	CHECK_PARSE_FAILS("--fwd: unknown mode 'ioo'", "--forward-mode", "ioo");
	CHECK_PARSE_FAILS("--nb-cores: '0'", "--nb-cores=0");
	/* testpmd's -i -a after "--" */
	CHECK_EQ(PARSE("-i", "-a"), FWD_OPTS_RUN);
	CHECK(cfg.interactive);
	CHECK(cfg.auto_start);
	/* l3fwd's -p, hexadecimal with or without 0x, and testpmd's --portmask */
	CHECK_EQ(PARSE("-p", "0x3"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.portmask, 3);
	CHECK_EQ(PARSE("-pA"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.portmask, 10);
	CHECK_EQ(PARSE("--portmask=ff"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.portmask, 255);
	CHECK_PARSE_FAILS("names no port", "-p", "0");
	CHECK_PARSE_FAILS("not a hexadecimal port mask", "-p", "0xg");
	CHECK_PARSE_FAILS("not a hexadecimal port mask", "-p", "0x100000000");
	CHECK_PARSE_FAILS("-p needs an argument", "-p");
	CHECK_EQ(PARSE("--nb-ports=3", "--tx-first"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.portmask, 7);
	CHECK(cfg.tx_first);
	CHECK_PARSE_FAILS("--nb-ports: '0' is not a number from 1", "--nb-ports", "0");
	/* l3fwd's --config LIST is --map; anything else stays a file */
	CHECK_EQ(PARSE("--config", "(0,0,1),(1,0,2)"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.n_map, 2);
	CHECK_EQ(cfg.map[1].lcore, 2);
	CHECK_EQ(cfg.config_file[0], '\0');
	CHECK_EQ(PARSE("--config= (0,0,1)"), FWD_OPTS_RUN);
	CHECK_EQ(cfg.n_map, 1);
	CHECK_PARSE_FAILS("--map: expected ','", "--config", "(0,0)");
	CHECK(PARSE("--config", "/nonexistent/fwd.ini") < 0);
	CHECK_CONTAINS(err, "/nonexistent/fwd.ini");
	/* the nearest known option */
	CHECK_PARSE_FAILS("unknown option '--brust'; did you mean --burst?", "--brust", "4");
	CHECK_PARSE_FAILS("did you mean --forward-mode?", "--forward-mod=io");
	CHECK_PARSE_FAILS("did you mean --nb-cores?", "--nb-core", "1");
	CHECK_PARSE_FAILS("unknown option '--zzzzzzzz' (see --help)", "--zzzzzzzz");
	/* before "--": -p is ours, -a is EAL's allow-list */
	CHECK(fwd_opts_is_app_option("-p"));
	CHECK(fwd_opts_is_app_option("--forward-mode=io"));
	CHECK(!fwd_opts_is_app_option("-a"));
}

static const char *user_guide;

/* The whole of a small text file, NUL-terminated (abort on failure: a test bug). */
static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 1 << 20);
	size_t n;

	if (f == NULL || text == NULL)
		abort();
	n = fread(text, 1, (1 << 20) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* What fwd_opts_help() prints as @p format, as one string. */
static char *
help_text(int format)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		abort();
	fwd_opts_help(f, format, "dpdk-forwarder");
	fclose(f);
	return buf;
}

/* Does @p text hold a line that is exactly @p line? */
static int
has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = strstr(text, line); p != NULL; p = strstr(p + 1, line))
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return 1;
	return 0;
}

/*
 * Each option's documented default is its built-in default: applied to the
 * defaults it changes nothing. An option without one has no value that is
 * its default (a "0 = as needed" field, or a path) and says it in words.
 */
static void
test_table_defaults(void)
{
	struct fwd_config defaults;
	struct fwd_opt_doc d;
	unsigned int i, n = 0;
	char modes[128] = "";

	fwd_config_defaults(&defaults);
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		n++;
		CHECK(d.help != NULL && d.help[0] != '\0');
		if (strcmp(d.name, "help") == 0)
			continue;
		CHECK(d.defdoc != NULL);
		if (d.def == NULL)
			continue;
		fwd_config_free(&cfg);
		err[0] = '\0';
		CHECK_EQ(fwd_opt_apply(&cfg, d.name, d.def, err, sizeof(err)), 0);
		if (memcmp(&cfg, &defaults, sizeof(cfg)) != 0)
			printf("# --%s: documented default '%s' is not the built-in one\n", d.name,
				d.def);
		CHECK(memcmp(&cfg, &defaults, sizeof(cfg)) == 0);
	}
	CHECK(n > 20);
	/* --fwd's values are the mode table's */
#define MODE_CAT(sym, name, desc)                                              \
	snprintf(modes + strlen(modes), sizeof(modes) - strlen(modes), "%s%s", \
		modes[0] ? "|" : "", name);
	FWD_MODES(MODE_CAT)
#undef MODE_CAT
	CHECK_EQ(fwd_opts_doc(1, &d), 0);
	CHECK_EQ(strcmp(d.name, "fwd"), 0);
	CHECK_EQ(strcmp(d.range, modes), 0);
}

/* --help shows every option with its values and default. */
static void
test_help_shows_defaults(void)
{
	char *text = help_text(FWD_HELP_TEXT);
	char *flat = strdup(text), *p, *q;
	struct fwd_opt_doc d;
	unsigned int i;

	/* the lines wrap: compare with every run of blanks made one space */
	for (p = q = flat; *p != '\0'; p++)
		if (!(*p == ' ' || *p == '\n') || (q > flat && q[-1] != ' '))
			*q++ = *p == '\n' ? ' ' : *p;
	*q = '\0';
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		char want[256];

		snprintf(want, sizeof(want), "--%s%s%s ", d.name, d.arg ? " " : "",
			d.arg ? d.arg : "");
		CHECK_CONTAINS(flat, want);
		if (d.range[0] != '\0' && d.defdoc != NULL)
			snprintf(want, sizeof(want), "(%s; default %s)", d.range, d.defdoc);
		else if (d.defdoc != NULL)
			snprintf(want, sizeof(want), "(default %s)", d.defdoc);
		else
			continue;
		CHECK_CONTAINS(flat, want);
	}
	CHECK_CONTAINS(flat,
		"--burst N packets per RX burst, and the TX flush threshold (1-512; default 32)");
	free(flat);
	free(text);
}

/* The user guide's option table is what --help=md prints now. */
static void
test_user_guide_table(void)
{
	static const char begin[] = "<!-- options: generated";
	static const char end[] = "<!-- end of options -->";
	char *doc, *want, *b, *e;

	if (user_guide == NULL) {
		CHECK(!"no path to docs/user-guide.md given");
		return;
	}
	doc = slurp(user_guide);
	want = help_text(FWD_HELP_MD);
	b = strstr(doc, begin);
	CHECK(b != NULL);
	if (b != NULL) {
		b = strchr(b, '\n') + 1;
		e = strstr(b, end);
		CHECK(e != NULL);
		if (e != NULL) {
			*e = '\0';
			if (strcmp(b, want) != 0)
				printf("# docs/user-guide.md's option table is stale: run "
				       "scripts/update-docs.sh\n");
			CHECK_EQ(strcmp(b, want), 0);
		}
	}
	free(want);
	free(doc);
}

/* The man page names every option. */
static void
test_man_page(void)
{
	char *man = help_text(FWD_HELP_MAN);
	struct fwd_opt_doc d;
	unsigned int i;

	CHECK_EQ(strncmp(man, ".\\\"", 3), 0);
	CHECK_CONTAINS(man, ".TH DPDK\\-FORWARDER 1");
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		char want[128], *q = want;
		const char *p;

		q += sprintf(q, "\\fB\\-\\-");
		for (p = d.name; *p != '\0'; p++)
			q += *p == '-' ? sprintf(q, "\\-") : sprintf(q, "%c", *p);
		CHECK_CONTAINS(man, want);
	}
	free(man);
}

/*
 * config/example.ini holds every key: each [forward] key with a default as
 * "key = DEFAULT", the others as a commented "# key = EXAMPLE"; every [pktgen]
 * key at its default as pktgen_stream_print() writes it; and commented
 * [port N], [route], [neigh] and [filter] sections. With the comment marks
 * of "# [section]" and "# key = value" lines taken off, it still parses: the
 * commented examples are valid.
 */
static void
test_example_every_key(void)
{
	struct pktgen_stream_cfg pg;
	struct fwd_opt_doc d;
	char *text, *out, *line, *save = NULL, *pgdef = NULL;
	size_t pglen = 0;
	unsigned int i;
	FILE *f;

	if (example_ini == NULL) {
		CHECK(!"no path to config/example.ini given");
		return;
	}
	text = slurp(example_ini);
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		char want[256];

		if (!d.file_key)
			continue;
		if (d.def != NULL)
			snprintf(want, sizeof(want), "%s = %s", d.name, d.def);
		else
			snprintf(want, sizeof(want), "# %s = ", d.name);
		if (d.def != NULL ? !has_line(text, want) : strstr(text, want) == NULL)
			printf("# config/example.ini lacks '%s'\n", want);
		CHECK(d.def != NULL ? has_line(text, want) : strstr(text, want) != NULL);
	}
	CHECK(has_line(text, "[forward]"));
	CHECK(has_line(text, "[pktgen]"));
	CHECK(has_line(text, "# [port 0]"));
	CHECK(has_line(text, "# [route]"));
	CHECK(has_line(text, "# [neigh]"));
	CHECK(has_line(text, "# [filter]"));

	pktgen_stream_init(&pg);
	f = open_memstream(&pgdef, &pglen);
	pktgen_stream_print(&pg, f);
	fclose(f);
	for (line = strtok_r(pgdef, "\n", &save); line != NULL;
		line = strtok_r(NULL, "\n", &save)) {
		if (!has_line(text, line))
			printf("# config/example.ini lacks '%s' in [pktgen]\n", line);
		CHECK(has_line(text, line));
	}
	free(pgdef);

	/* uncomment the examples: "# [x]" and "# key = value" lines */
	out = calloc(1, strlen(text) + 1);
	save = NULL;
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		const char *l = line;

		if (strncmp(l, "# ", 2) == 0 &&
			(l[2] == '[' || (strchr(l, '=') != NULL && strchr(l + 2, ' ') != NULL &&
						strchr(l + 2, ' ') < strchr(l, '=') &&
						strchr(l + 2, ' ')[1] == '=')))
			l += 2;
		strcat(out, l);
		strcat(out, "\n");
	}
	CHECK_EQ(PARSE("--config", write_tmp(out)), FWD_OPTS_RUN);
	if (err[0] != '\0')
		printf("# uncommented example: %s\n", err);
	CHECK(cfg.route.n_routes > 0 && cfg.route.n_neigh > 0 && cfg.route.n_filters > 0);
	CHECK(cfg.n_map > 0);
	unlink(tmp_path);
	free(out);
	free(text);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_defaults),
	FWD_TEST(test_good_options),
	FWD_TEST(test_help),
	FWD_TEST(test_bad_options),
	FWD_TEST(test_map),
	FWD_TEST(test_topology),
	FWD_TEST(test_is_app_option),
	FWD_TEST(test_config_file),
	FWD_TEST(test_config_errors),
	FWD_TEST(test_cfgfile_limits),
	FWD_TEST(test_example_config),
	FWD_TEST(test_router_config),
	FWD_TEST(test_number_rule),
	FWD_TEST(test_number_rule_every_key),
	FWD_TEST(test_other_tools_spellings),
	FWD_TEST(test_table_defaults),
	FWD_TEST(test_help_shows_defaults),
	FWD_TEST(test_user_guide_table),
	FWD_TEST(test_man_page),
	FWD_TEST(test_example_every_key),
};

int
main(int argc, char **argv)
{
	example_ini = argc > 1 ? argv[1] : NULL;
	router_ini = argc > 2 ? argv[2] : NULL;
	user_guide = argc > 3 ? argv[3] : NULL;
	return fwd_test_run(cases, RTE_DIM(cases));
}
