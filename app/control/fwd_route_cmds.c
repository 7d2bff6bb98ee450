/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's shell commands, the "route" component's (fwd_route.c
 * registers it): route add|replace|del|load|flush, show route [summary|
 * ADDRESS|PREFIX|longer PREFIX], neigh add|del|show|load. Each takes the app
 * from its data argument; what they call is fwd_route.c's and the table's
 * (app/route/). Outside --fwd route they say "not routing" (fwd_cmds_router()).
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_ether.h>

#include "fwd_cmds.h"
#include "fwd_route.h"
#include "rt_table.h"

struct cmd_route_result {
	cmdline_fixed_string_t route;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t prefix;
	cmdline_fixed_string_t how;
	cmdline_fixed_string_t arg;
	cmdline_fixed_string_t dev;
	cmdline_fixed_string_t port;
};

static int
parse_prefix(const char *s, uint32_t *ip, uint8_t *plen)
{
	if (rt4_prefix_parse(s, ip, plen, false) < 0) {
		fwd_cmds_say("bad prefix '%s': expected A.B.C.D/LEN\n", s);
		return -1;
	}
	return 0;
}

static int
parse_out_port(const struct fwd_app *app, const char *s, int *port)
{
	uint16_t p = 0; /* fwd_cmds_port_arg() sets it on success: for gcc, which cannot tell */

	if (fwd_cmds_port_arg(app, s, &p) < 0)
		return -1;
	if (p == FWD_CMDS_ALL_PORTS) {
		printf("a route goes out of one port, not all\n");
		return -1;
	}
	*port = p;
	return 0;
}

/*
 * "route add" or "route replace" (as `ip route replace`: an add, or the
 * prefix's static route replaced in one step) of a one-path route; says
 * what became of it.
 */
static void
route_set(struct rt_table *t, const char *op, const char *what, uint32_t prefix, uint8_t plen,
	enum rt_route_kind kind, uint32_t gw, int port)
{
	const bool replace = strcmp(op, "replace") == 0;
	struct rt4_route_req req = {
		.prefix = prefix,
		.plen = plen,
		.kind = kind,
		.src = RT_SRC_SHELL,
		.flags = replace ? RT_ROUTE_F_REPLACE : 0,
		.n_hops = kind == RT_ROUTE_VIA || kind == RT_ROUTE_DEV ? 1 : 0,
		.hop[0] = {.gw = gw, .port = port},
	};
	char err[256];
	int ret;

	ret = rt4_route_set(t, &req, err, sizeof(err));
	if (ret < 0)
		fwd_cmds_say("route %s not %s: %s\n", what, replace ? "replaced" : "added", err);
	else
		printf("route %s %s\n", what, replace ? "set" : "added");
}

static void
route_add(const struct fwd_app *app, struct cmd_route_result *r, bool with_dev)
{
	struct rt_table *t = fwd_cmds_router(app);
	enum rt_route_kind kind;
	uint32_t prefix, gw = 0;
	uint8_t plen;
	int port = -1;

	if (t == NULL || parse_prefix(r->prefix, &prefix, &plen) < 0)
		return;
	if (strcmp(r->how, "via") == 0) {
		kind = RT_ROUTE_VIA;
		if (rt4_addr_parse(r->arg, &gw) < 0) {
			fwd_cmds_say("bad gateway '%s': expected A.B.C.D\n", r->arg);
			return;
		}
		if (with_dev && parse_out_port(app, r->port, &port) < 0)
			return;
	} else {
		kind = RT_ROUTE_DEV;
		if (parse_out_port(app, r->arg, &port) < 0)
			return;
	}
	route_set(t, r->op, r->prefix, prefix, plen, kind, gw, port);
}

static void
cmd_route_via_parsed(void *res, struct cmdline *cl, void *data)
{
	route_add(data, res, false);
}

static void
cmd_route_via_dev_parsed(void *res, struct cmdline *cl, void *data)
{
	route_add(data, res, true);
}

/* "route add P via A [dev N] via B [dev N] ...": the hops after the first "via". */
struct cmd_route_multi_result {
	cmdline_fixed_string_t route;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t prefix;
	cmdline_fixed_string_t via;
	cmdline_fixed_string_t gw;   /* the first hop's gateway */
	cmdline_fixed_string_t dev;  /* "dev", when the first hop names its port */
	cmdline_fixed_string_t port; /* and the port */
	cmdline_fixed_string_t via2;
	cmdline_multi_string_t hops; /* the second hop and those after it */
};

/*
 * Parse "A [dev N] [via B [dev N]] ..." (the hops after the first) into
 * @p hops; returns how many, or -1 (said why).
 */
static int
parse_hops(const struct fwd_app *app, char *s, struct rt_hop *hops)
{
	char *save = NULL, *tok;
	int n = 0;

	for (tok = strtok_r(s, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		if (n >= RT_ECMP_MAX - 1) {
			fwd_cmds_say(
				"more than %u next hops: a route has at most %u (RT_ECMP_MAX)\n",
				RT_ECMP_MAX, RT_ECMP_MAX);
			return -1;
		}
		if (rt4_addr_parse(tok, &hops[n].gw) < 0) {
			fwd_cmds_say("bad gateway '%s': expected A.B.C.D\n", tok);
			return -1;
		}
		hops[n].port = -1;
		tok = strtok_r(NULL, " \t", &save);
		if (tok != NULL && strcmp(tok, "dev") == 0) {
			tok = strtok_r(NULL, " \t", &save);
			if (tok == NULL) {
				fwd_cmds_say("'dev' needs a port\n");
				return -1;
			}
			if (parse_out_port(app, tok, &hops[n].port) < 0)
				return -1;
			tok = strtok_r(NULL, " \t", &save);
		}
		n++;
		if (tok == NULL)
			break;
		if (strcmp(tok, "via") != 0) {
			fwd_cmds_say("expected 'via GATEWAY' or 'dev PORT', not '%s'\n", tok);
			return -1;
		}
	}
	if (n == 0 || tok != NULL) {
		fwd_cmds_say("'via' needs a gateway\n");
		return -1;
	}
	return n;
}

static void
cmd_route_multi_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_route_multi_result *r = res;
	struct rt4_route_req req = {.kind = RT_ROUTE_VIA, .src = RT_SRC_SHELL};
	const struct fwd_app *app = data;
	struct rt_hop *hops = req.hop;
	struct rt_table *t = fwd_cmds_router(app);
	char err[256];
	int n;

	if (t == NULL || parse_prefix(r->prefix, &req.prefix, &req.plen) < 0)
		return;
	if (rt4_addr_parse(r->gw, &hops[0].gw) < 0) {
		fwd_cmds_say("bad gateway '%s': expected A.B.C.D\n", r->gw);
		return;
	}
	hops[0].port = -1;
	if (r->dev[0] != '\0' && parse_out_port(app, r->port, &hops[0].port) < 0)
		return;
	n = parse_hops(app, r->hops, hops + 1);
	if (n < 0)
		return;
	req.n_hops = (unsigned int)n + 1;
	if (strcmp(r->op, "replace") == 0) {
		req.flags = RT_ROUTE_F_REPLACE;
		if (rt4_route_set(t, &req, err, sizeof(err)) < 0)
			fwd_cmds_say("route %s not replaced: %s\n", r->prefix, err);
		else
			printf("route %s set\n", r->prefix);
		return;
	}
	if (rt4_route_set(t, &req, err, sizeof(err)) < 0)
		fwd_cmds_say("route %s not added: %s\n", r->prefix, err);
	else
		printf("route %s added\n", r->prefix);
}

static void
cmd_route_special_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_route_result *r = res;
	struct rt_table *t = fwd_cmds_router(data);
	uint32_t prefix;
	uint8_t plen;

	if (t == NULL || parse_prefix(r->prefix, &prefix, &plen) < 0)
		return;
	route_set(t, r->op, r->prefix, prefix, plen,
		strcmp(r->how, "blackhole") == 0 ? RT_ROUTE_BLACKHOLE : RT_ROUTE_REJECT, 0, -1);
}

static void
cmd_route_del_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_route_result *r = res;
	struct rt_table *t = fwd_cmds_router(data);
	uint32_t prefix;
	uint8_t plen;
	char err[256];

	if (t == NULL || parse_prefix(r->prefix, &prefix, &plen) < 0)
		return;
	/* the shell's own, the config's and files' routes; a sync's only through its sync */
	if (rt4_route_del(t,
		    &(const struct rt4_route_req){
			    .prefix = prefix, .plen = plen, .src = RT_SRC_SHELL},
		    err, sizeof(err)) < 0)
		fwd_cmds_say("route %s not deleted: %s\n", r->prefix, err);
	else
		printf("route %s deleted\n", r->prefix);
}

static void
cmd_show_route_parsed(void *res, struct cmdline *cl, void *data)
{
	fwd_route_show(data, stdout);
}

static cmdline_parse_token_string_t cmd_route_route =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, route, "route");
static cmdline_parse_token_string_t cmd_route_add_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, op, "add#replace");
static cmdline_parse_token_string_t cmd_route_del_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, op, "del");
static cmdline_parse_token_string_t cmd_route_prefix =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, prefix, NULL);
static cmdline_parse_token_string_t cmd_route_via =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, how, "via");
static cmdline_parse_token_string_t cmd_route_how_dev =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, how, "dev");
static cmdline_parse_token_string_t cmd_route_special =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, how, "blackhole#reject");
static cmdline_parse_token_string_t cmd_route_arg =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, arg, NULL);
static cmdline_parse_token_string_t cmd_route_dev =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, dev, "dev");
static cmdline_parse_token_string_t cmd_route_port =
	TOKEN_STRING_INITIALIZER(struct cmd_route_result, port, NULL);

static cmdline_parse_inst_t cmd_route_add_via = {
	.f = cmd_route_via_parsed,
	.help_str =
		"route add|replace <prefix> via <gateway>: static route through a neighbour (replace: "
		"add, or swap the prefix's route in one step)",
	.tokens = {(void *)&cmd_route_route, (void *)&cmd_route_add_tok, (void *)&cmd_route_prefix,
		(void *)&cmd_route_via, (void *)&cmd_route_arg, NULL},
};
static cmdline_parse_inst_t cmd_route_add_via_dev = {
	.f = cmd_route_via_dev_parsed,
	.help_str =
		"route add|replace <prefix> via <gateway> dev <port>: the same, naming the port",
	.tokens = {(void *)&cmd_route_route, (void *)&cmd_route_add_tok, (void *)&cmd_route_prefix,
		(void *)&cmd_route_via, (void *)&cmd_route_arg, (void *)&cmd_route_dev,
		(void *)&cmd_route_port, NULL},
};
static cmdline_parse_inst_t cmd_route_add_dev = {
	.f = cmd_route_via_parsed,
	.help_str =
		"route add|replace <prefix> dev <port>: on-link route out of a port (ARP per host)",
	.tokens = {(void *)&cmd_route_route, (void *)&cmd_route_add_tok, (void *)&cmd_route_prefix,
		(void *)&cmd_route_how_dev, (void *)&cmd_route_arg, NULL},
};
static cmdline_parse_inst_t cmd_route_add_special = {
	.f = cmd_route_special_parsed,
	.help_str =
		"route add|replace <prefix> blackhole|reject: drop silently, or with ICMP unreachable",
	.tokens = {(void *)&cmd_route_route, (void *)&cmd_route_add_tok, (void *)&cmd_route_prefix,
		(void *)&cmd_route_special, NULL},
};
static cmdline_parse_token_string_t cmd_route_multi_route =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, route, "route");
static cmdline_parse_token_string_t cmd_route_multi_add =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, op, "add#replace");
static cmdline_parse_token_string_t cmd_route_multi_prefix =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, prefix, NULL);
static cmdline_parse_token_string_t cmd_route_multi_via =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, via, "via");
static cmdline_parse_token_string_t cmd_route_multi_gw =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, gw, NULL);
static cmdline_parse_token_string_t cmd_route_multi_dev =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, dev, "dev");
static cmdline_parse_token_string_t cmd_route_multi_port =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, port, NULL);
static cmdline_parse_token_string_t cmd_route_multi_via2 =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, via2, "via");
static cmdline_parse_token_string_t cmd_route_multi_hops =
	TOKEN_STRING_INITIALIZER(struct cmd_route_multi_result, hops, TOKEN_STRING_MULTI);
/* a second "via" is what tells these from the one-hop forms (rte_cmdline refuses two matches) */
static cmdline_parse_inst_t cmd_route_add_multi = {
	.f = cmd_route_multi_parsed,
	.help_str =
		"route add|replace <prefix> via <gateway> [dev <port>] via <gateway> ...: ECMP, 2 to 16 "
		"gateways",
	.tokens = {(void *)&cmd_route_multi_route, (void *)&cmd_route_multi_add,
		(void *)&cmd_route_multi_prefix, (void *)&cmd_route_multi_via,
		(void *)&cmd_route_multi_gw, (void *)&cmd_route_multi_via2,
		(void *)&cmd_route_multi_hops, NULL},
};
static cmdline_parse_inst_t cmd_route_add_multi_dev = {
	.f = cmd_route_multi_parsed,
	.help_str =
		"route add|replace <prefix> via <gateway> dev <port> via <gateway> ...: the same, "
		"naming the first hop's port",
	.tokens = {(void *)&cmd_route_multi_route, (void *)&cmd_route_multi_add,
		(void *)&cmd_route_multi_prefix, (void *)&cmd_route_multi_via,
		(void *)&cmd_route_multi_gw, (void *)&cmd_route_multi_dev,
		(void *)&cmd_route_multi_port, (void *)&cmd_route_multi_via2,
		(void *)&cmd_route_multi_hops, NULL},
};
static cmdline_parse_inst_t cmd_route_del = {
	.f = cmd_route_del_parsed,
	.help_str = "route del <prefix>: delete a static route (a shorter prefix takes over); "
		    "not one of netlink or fpm (only their sync changes it)",
	.tokens = {(void *)&cmd_route_route, (void *)&cmd_route_del_tok, (void *)&cmd_route_prefix,
		NULL},
};

/* route load PATH, neigh load PATH, route flush */
struct cmd_rtfile_result {
	cmdline_fixed_string_t what;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t path;
};

static void
cmd_rtfile_load_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_rtfile_result *r = res;
	struct fwd_app *app = data;

	if (fwd_cmds_router(app) != NULL)
		fwd_route_load_file(app, r->path, strcmp(r->what, "neigh") == 0, stdout);
}

/*
 * "route flush": the operator's routes go, the syncs' stay (only their sync
 * changes them); says what it touched and what it kept, by source:
 * "12 routes flushed (static 10, shell 2); kept 106 fpm, 3 netlink (owned by their sync)".
 */
static void
cmd_route_flush_parsed(void *res, struct cmdline *cl, void *data)
{
	struct rt_route_flush_counts c;
	struct rt_table *t = fwd_cmds_router(data);
	const char *sep = " (";
	uint32_t n, kept = 0;
	unsigned int i;

	if (t == NULL)
		return;
	n = rt_route_flush(t, &c);
	printf("%u routes flushed", n);
	for (i = 0; i < RT_SRC_MAX; i++)
		if (c.flushed[i] != 0) {
			printf("%s%s %u", sep, rt_route_src_name(i), c.flushed[i]);
			sep = ", ";
		}
	printf("%s", n != 0 ? ")" : "");
	sep = "; kept ";
	for (i = 0; i < RT_SRC_MAX; i++)
		if (c.kept[i] != 0) {
			printf("%s%u %s", sep, c.kept[i], rt_route_src_name(i));
			sep = ", ";
			kept += c.kept[i];
		}
	printf("%s\n", kept != 0 ? " (owned by their sync)" : "");
}

static cmdline_parse_token_string_t cmd_rtfile_route =
	TOKEN_STRING_INITIALIZER(struct cmd_rtfile_result, what, "route");
static cmdline_parse_token_string_t cmd_rtfile_neigh =
	TOKEN_STRING_INITIALIZER(struct cmd_rtfile_result, what, "neigh");
static cmdline_parse_token_string_t cmd_rtfile_load =
	TOKEN_STRING_INITIALIZER(struct cmd_rtfile_result, op, "load");
static cmdline_parse_token_string_t cmd_rtfile_flush =
	TOKEN_STRING_INITIALIZER(struct cmd_rtfile_result, op, "flush");
static cmdline_parse_token_string_t cmd_rtfile_path =
	TOKEN_STRING_INITIALIZER(struct cmd_rtfile_result, path, NULL);

static cmdline_parse_inst_t cmd_route_load = {
	.f = cmd_rtfile_load_parsed,
	.help_str = "route load <file>: add the routes of a file of `ip -4 route show` lines; "
		    "the good lines are loaded, the first 10 bad ones shown (file:line) and all "
		    "counted",
	.tokens = {(void *)&cmd_rtfile_route, (void *)&cmd_rtfile_load, (void *)&cmd_rtfile_path,
		NULL},
};
static cmdline_parse_inst_t cmd_route_flush = {
	.f = cmd_route_flush_parsed,
	.help_str = "route flush: delete every static route (via, dev, blackhole, reject) of the "
		    "config, files and the shell; not the connected ones, nor those of netlink and "
		    "fpm (only their sync changes them)",
	.tokens = {(void *)&cmd_rtfile_route, (void *)&cmd_rtfile_flush, NULL},
};
static cmdline_parse_inst_t cmd_neigh_load = {
	.f = cmd_rtfile_load_parsed,
	.help_str = "neigh load <file>: add static neighbours from a file of `ip -4 neigh show` "
		    "lines, as route load does",
	.tokens = {(void *)&cmd_rtfile_neigh, (void *)&cmd_rtfile_load, (void *)&cmd_rtfile_path,
		NULL},
};

/* show route [summary|ADDRESS|PREFIX|longer PREFIX] */
struct cmd_show_route_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t route;
	cmdline_fixed_string_t c;
	cmdline_fixed_string_t d;
};

static cmdline_parse_token_string_t cmd_show_route_show =
	TOKEN_STRING_INITIALIZER(struct cmd_show_route_result, show, "show");
static cmdline_parse_token_string_t cmd_show_what_route =
	TOKEN_STRING_INITIALIZER(struct cmd_show_route_result, route, "route");
static cmdline_parse_inst_t cmd_show_route = {
	.f = cmd_show_route_parsed,
	.help_str = "show route: the routing table (connected, static, neighbour /32s)",
	.tokens = {(void *)&cmd_show_route_show, (void *)&cmd_show_what_route, NULL},
};

/* show route summary | show route PREFIX|ADDRESS | show route longer PREFIX */
static void
cmd_show_route_arg_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_show_route_result *r = res;
	struct fwd_app *app = data;
	uint32_t prefix;
	uint8_t plen;

	if (fwd_cmds_router(app) == NULL)
		return;
	if (strcmp(r->c, "summary") == 0) {
		fwd_route_show_summary(app, stdout);
		return;
	}
	if (rt4_prefix_parse(r->c, &prefix, &plen, false) < 0) {
		fwd_cmds_say("bad argument '%s': expected summary, A.B.C.D or A.B.C.D/LEN\n", r->c);
		return;
	}
	/* with a length, that route; a bare address, the route it takes */
	fwd_route_show_one(app, stdout, prefix, plen, strchr(r->c, '/') != NULL);
}

static void
cmd_show_route_longer_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_show_route_result *r = res;
	struct fwd_app *app = data;
	uint32_t prefix;
	uint8_t plen;
	char a[16];

	if (fwd_cmds_router(app) == NULL || parse_prefix(r->d, &prefix, &plen) < 0)
		return;
	if ((prefix & ~rt4_mask(plen)) != 0) {
		fwd_cmds_say("bad prefix '%s': host bits set\n", r->d);
		return;
	}
	/* an empty answer would look like a command that did nothing */
	if (fwd_route_show_within(app, stdout, prefix, plen) == 0)
		printf("no route within %s/%u\n", rt4_addr_str(prefix, a), plen);
}

static cmdline_parse_token_string_t cmd_show_route_arg =
	TOKEN_STRING_INITIALIZER(struct cmd_show_route_result, c, NULL);
static cmdline_parse_token_string_t cmd_show_route_longer_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_show_route_result, c, "longer");
static cmdline_parse_token_string_t cmd_show_route_longer_arg =
	TOKEN_STRING_INITIALIZER(struct cmd_show_route_result, d, NULL);
static cmdline_parse_inst_t cmd_show_route_one = {
	.f = cmd_show_route_arg_parsed,
	.help_str = "show route summary|<address>|<prefix>: counts and memory; the route an "
		    "address takes; one route",
	.tokens = {(void *)&cmd_show_route_show, (void *)&cmd_show_what_route,
		(void *)&cmd_show_route_arg, NULL},
};
static cmdline_parse_inst_t cmd_show_route_longer = {
	.f = cmd_show_route_longer_parsed,
	.help_str = "show route longer <prefix>: the routes inside a prefix, in order",
	.tokens = {(void *)&cmd_show_route_show, (void *)&cmd_show_what_route,
		(void *)&cmd_show_route_longer_tok, (void *)&cmd_show_route_longer_arg, NULL},
};
struct cmd_neigh_result {
	cmdline_fixed_string_t neigh;
	cmdline_fixed_string_t op;
	cmdline_fixed_string_t ip;
	cmdline_fixed_string_t mac;
};

static void
cmd_neigh_parsed(void *res, struct cmdline *cl, void *data)
{
	struct cmd_neigh_result *r = res;
	struct rt_table *t = fwd_cmds_router(data);
	struct rte_ether_addr mac;
	uint32_t ip;
	char err[256];
	int ret;

	if (t == NULL)
		return;
	if (rt4_addr_parse(r->ip, &ip) < 0) {
		fwd_cmds_say("bad address '%s': expected A.B.C.D\n", r->ip);
		return;
	}
	if (strcmp(r->op, "del") == 0) {
		ret = rt_neigh_static_del(t, ip, err, sizeof(err));
	} else if (rte_ether_unformat_addr(r->mac, &mac) < 0) {
		fwd_cmds_say("bad MAC '%s': expected xx:xx:xx:xx:xx:xx\n", r->mac);
		return;
	} else {
		ret = rt_neigh_static_add(t, ip, &mac, err, sizeof(err));
	}
	if (ret < 0)
		fwd_cmds_say("neighbour %s not %s: %s\n", r->ip,
			strcmp(r->op, "del") == 0 ? "deleted" : "added", err);
	else
		printf("neighbour %s %s\n", r->ip, strcmp(r->op, "del") == 0 ? "deleted" : "added");
}

static void
cmd_neigh_show_parsed(void *res, struct cmdline *cl, void *data)
{
	struct rt_table *t = fwd_cmds_router(data);
	uint32_t i, n = 0;
	char a[16];

	if (t == NULL)
		return;
	for (i = 0; i < t->max_nh; i++) {
		const struct rt_nh *nh = &t->nh[i];
		const struct rt_nh_info *ni = &t->nh_info[i];
		uint64_t l2 = __atomic_load_n(&nh->l2, __ATOMIC_ACQUIRE);

		if (nh->type != RT_NH_GW || ni->refcnt == 0)
			continue;
		printf("%-15s dev %u ", rt4_addr_str(ni->ip, a), nh->port);
		if (l2 & RT_NH_F_VALID) {
			struct rte_ether_addr mac;

			memcpy(&mac, &l2, sizeof(mac));
			printf(RTE_ETHER_ADDR_PRT_FMT, RTE_ETHER_ADDR_BYTES(&mac));
		} else {
			printf("(unresolved)");
		}
		printf("%s\n", ni->is_static ? " static" : "");
		n++;
	}
	if (n == 0)
		printf("no neighbours\n");
}

static cmdline_parse_token_string_t cmd_neigh_neigh =
	TOKEN_STRING_INITIALIZER(struct cmd_neigh_result, neigh, "neigh");
static cmdline_parse_token_string_t cmd_neigh_add =
	TOKEN_STRING_INITIALIZER(struct cmd_neigh_result, op, "add");
static cmdline_parse_token_string_t cmd_neigh_del =
	TOKEN_STRING_INITIALIZER(struct cmd_neigh_result, op, "del");
static cmdline_parse_token_string_t cmd_neigh_show =
	TOKEN_STRING_INITIALIZER(struct cmd_neigh_result, op, "show");
static cmdline_parse_token_string_t cmd_neigh_ip =
	TOKEN_STRING_INITIALIZER(struct cmd_neigh_result, ip, NULL);
static cmdline_parse_token_string_t cmd_neigh_mac =
	TOKEN_STRING_INITIALIZER(struct cmd_neigh_result, mac, NULL);

static cmdline_parse_inst_t cmd_neigh_add_inst = {
	.f = cmd_neigh_parsed,
	.help_str = "neigh add <ip> <mac>: static ARP entry (never aged, never changed by ARP)",
	.tokens = {(void *)&cmd_neigh_neigh, (void *)&cmd_neigh_add, (void *)&cmd_neigh_ip,
		(void *)&cmd_neigh_mac, NULL},
};
static cmdline_parse_inst_t cmd_neigh_del_inst = {
	.f = cmd_neigh_parsed,
	.help_str = "neigh del <ip>: remove a static ARP entry (ARP resolves it again if needed)",
	.tokens = {(void *)&cmd_neigh_neigh, (void *)&cmd_neigh_del, (void *)&cmd_neigh_ip, NULL},
};
static cmdline_parse_inst_t cmd_neigh_show_inst = {
	.f = cmd_neigh_show_parsed,
	.help_str = "neigh show: neighbours, their MACs and whether they are static",
	.tokens = {(void *)&cmd_neigh_neigh, (void *)&cmd_neigh_show, NULL},
};

cmdline_parse_ctx_t fwd_route_cmds[] = {
	&cmd_route_add_via,
	&cmd_route_add_via_dev,
	&cmd_route_add_dev,
	&cmd_route_add_special,
	&cmd_route_add_multi,
	&cmd_route_add_multi_dev,
	&cmd_route_del,
	&cmd_route_load,
	&cmd_route_flush,
	&cmd_show_route,
	&cmd_show_route_one,
	&cmd_show_route_longer,
	&cmd_neigh_add_inst,
	&cmd_neigh_del_inst,
	&cmd_neigh_show_inst,
	&cmd_neigh_load,
	NULL,
};
