/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_fileload.h"
#include "rt_log.h"

/* a reader's message (512) with every byte escaped as \xNN */
#define RT_FL_MSG_MAX (4 * 512)

/* bad lines told so far in this load */
struct ctx {
	struct rt_fileload *l;
	unsigned int told;
};

int
rt_fileload_route(struct rt_table *t, const struct rt_rf_route *r, char *err, size_t errlen)
{
	struct rt4_route_req req = {
		.prefix = r->prefix,
		.plen = r->plen,
		.kind = (enum rt_route_kind)r->kind,
		.src = RT_SRC_FILE,
	};

	if (r->kind == RT_ROUTE_VIA) {
		req.n_hops = r->n_hops;
		memcpy(req.hop, r->hops, r->n_hops * sizeof(r->hops[0]));
	} else if (r->kind == RT_ROUTE_DEV) {
		req.n_hops = 1;
		req.hop[0] = (struct rt_hop){.gw = 0, .port = r->port};
	}
	return rt4_route_set(t, &req, err, errlen);
}

static int
take_route(void *arg, const struct rt_rf_route *r, char *err, size_t errlen)
{
	struct ctx *c = arg;

	return rt_fileload_route(c->l->t, r, err, errlen);
}

static int
take_neigh(void *arg, const struct rt_rf_neigh *n, char *err, size_t errlen)
{
	struct ctx *c = arg;
	char a[16];
	int net;

	if (n->port >= 0) {
		net = rt_iface_lookup_net(c->l->t, n->ip);
		if (net >= 0 && net != n->port) {
			snprintf(err, errlen, "neighbour %s is on port %d's network, not port %d's",
				rt4_addr_str(n->ip, a), net, n->port);
			return -EINVAL;
		}
	}
	return rt_neigh_static_add(c->l->t, n->ip, &n->mac, err, errlen);
}

static int
dev(void *arg, const char *name)
{
	struct ctx *c = arg;

	return c->l->dev != NULL ? c->l->dev(c->l->dev_arg, name) : -ENODEV;
}

/* A message quotes the file's words (and its name): escaped before it is shown or kept. */
static const char *
safe(const struct rt_fileload *l, const char *msg, char *buf, size_t len)
{
	if (l->escape == NULL)
		return msg;
	l->escape(buf, len, msg, 0);
	return buf;
}

static void
say(const struct rt_fileload *l, const char *raw)
{
	char buf[RT_FL_MSG_MAX];
	const char *msg = safe(l, raw, buf, sizeof(buf));

	if (l->out != NULL)
		fprintf(l->out, "%s\n", msg);
	else
		RT_LOG(WARNING, "%s\n", msg);
}

static int
bad_line(void *arg, const char *msg, int code)
{
	struct ctx *c = arg;
	struct rt_fileload *l = c->l;

	RTE_SET_USED(code);
	if (c->told == 0 && l->err != NULL && l->errlen > 0) {
		char buf[RT_FL_MSG_MAX];

		snprintf(l->err, l->errlen, "%s", safe(l, msg, buf, sizeof(buf)));
	}
	if (l->max_errors == 0)
		return -1;
	if (c->told < l->max_errors)
		say(l, msg);
	c->told++;
	return 0;
}

static void
warn(void *arg, const char *msg)
{
	const struct ctx *c = arg;

	say(c->l, msg);
}

static bool
cancelled(void *arg)
{
	const struct ctx *c = arg;

	return c->l->quit != NULL && *c->l->quit;
}

static int
load(struct rt_fileload *l, const char *path, bool neigh)
{
	struct ctx c = {.l = l};
	const struct rt_rf_sink sink = {
		.route = take_route,
		.neigh = take_neigh,
		.dev = dev,
		.error = bad_line,
		.warn = warn,
		.cancelled = cancelled,
		.pipe_wait_ms = l->pipe_wait_ms,
		.arg = &c,
	};

	if (l->err != NULL && l->errlen > 0)
		l->err[0] = '\0';
	return neigh ? rt_neighfile_load(path, &sink, &l->counts)
		     : rt_routefile_load(path, &sink, &l->counts);
}

int
rt_fileload_routes(struct rt_fileload *l, const char *path)
{
	return load(l, path, false);
}

int
rt_fileload_neigh(struct rt_fileload *l, const char *path)
{
	return load(l, path, true);
}
