/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: any bytes as a route file and as a neighbour file
 * (rt_routefile.h), no EAL. Checks what every caller relies on: a route
 * handed on is well formed (length <= 32, no host bits, a known kind, 1 to
 * RT_ECMP_MAX gateways for a via, ports in range), every refusal and warning
 * starts with "file:line: ", at most one warning of each kind a file, a
 * line ends in at most one route, neighbour, skip or error, and a read that
 * stops at the first bad line takes no more than one that reads on.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_routefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct fz {
	unsigned int n_warn;
	bool stop;
	const char *name;
	uint32_t taken_seen;
};

/* "name:LINE: " or "name: " */
static void
check_msg(const struct fz *z, const char *msg)
{
	size_t n = strlen(z->name);
	const char *p;

	if (strncmp(msg, z->name, n) != 0 || msg[n] != ':')
		abort();
	p = msg + n + 1;
	if (*p == ' ')
		return;
	if (*p < '1' || *p > '9')
		abort();
	while (*p >= '0' && *p <= '9')
		p++;
	if (p[0] != ':' || p[1] != ' ')
		abort();
}

static int
take_route(void *arg, const struct rt_rf_route *r, char *err, size_t errlen)
{
	struct fz *z = arg;
	unsigned int i;

	if (r->plen > 32 || (r->plen < 32 && (r->prefix & (UINT32_MAX >> r->plen)) != 0))
		abort();
	switch (r->kind) {
	case RT_ROUTE_VIA:
		if (r->n_hops < 1 || r->n_hops > RT_ECMP_MAX)
			abort();
		for (i = 0; i < r->n_hops; i++)
			if (r->hops[i].gw == 0 || r->hops[i].port < -1 ||
				r->hops[i].port >= RTE_MAX_ETHPORTS)
				abort();
		if (!r->multipath && r->n_hops != 1)
			abort();
		break;
	case RT_ROUTE_DEV:
		if (r->port < 0 || r->port >= RTE_MAX_ETHPORTS)
			abort();
		break;
	case RT_ROUTE_BLACKHOLE:
	case RT_ROUTE_REJECT:
		break;
	default:
		abort();
	}
	if (r->line == 0)
		abort();
	/* a table refuses some: the refusal path runs too */
	if ((r->prefix ^ r->plen) % 7 == 0) {
		snprintf(err, errlen, "refused by the fuzzer");
		return -ENOSPC;
	}
	z->taken_seen++;
	return 0;
}

static int
take_neigh(void *arg, const struct rt_rf_neigh *n, char *err, size_t errlen)
{
	struct fz *z = arg;

	(void)err;
	(void)errlen;
	if (n->port < -1 || n->port >= RTE_MAX_ETHPORTS || n->line == 0 ||
		!rte_is_unicast_ether_addr(&n->mac) || rte_is_zero_ether_addr(&n->mac))
		abort();
	z->taken_seen++;
	return 0;
}

static int
dev(void *arg, const char *name)
{
	(void)arg;
	if (strncmp(name, "net_pcap", 8) == 0 && name[8] >= '0' && name[8] <= '3' &&
		name[9] == '\0')
		return name[8] - '0';
	return -ENODEV;
}

static int
error(void *arg, const char *msg, int code)
{
	struct fz *z = arg;

	if (code >= 0)
		abort();
	check_msg(z, msg);
	return z->stop ? -1 : 0;
}

static void
warn(void *arg, const char *msg)
{
	struct fz *z = arg;

	check_msg(z, msg);
	z->n_warn++;
}

static void
one(const char *name, const uint8_t *data, size_t size, bool neigh)
{
	struct rt_rf_counts on, stop;
	struct fz z = {.name = name};
	const struct rt_rf_sink s = {.route = take_route,
		.neigh = take_neigh,
		.dev = dev,
		.error = error,
		.warn = warn,
		.arg = &z};
	int ret, ret2;

	ret = neigh ? rt_neighfile_parse(name, (const char *)data, size, &s, &on)
		    : rt_routefile_parse(name, (const char *)data, size, &s, &on);
	if ((ret < 0) != (on.errors > 0) || on.taken != z.taken_seen)
		abort();
	if (on.taken + on.errors + on.skipped > on.lines)
		abort();
	if (z.n_warn > (neigh ? 1u : 2u))
		abort(); /* one a kind a file */
	z = (struct fz){.name = name, .stop = true};
	ret2 = neigh ? rt_neighfile_parse(name, (const char *)data, size, &s, &stop)
		     : rt_routefile_parse(name, (const char *)data, size, &s, &stop);
	if (ret2 != ret || stop.errors > 1 || stop.taken > on.taken || stop.lines > on.lines)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one("fuzz.routes", data, size, false);
	one("fuzz.neigh", data, size, true);
	return 0;
}
