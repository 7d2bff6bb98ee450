/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_config.h"
#include "numparse.h"

#include "rt_ipv4.h"

#define MAX_WORDS 6

void
rt_config_init(struct rt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

/* "port N" -> N, or -1 */
static int
section_port(const char *section)
{
	uint64_t n;

	if (strncmp(section, "port ", 5) != 0 ||
		num_u64(section + 5, 0, RTE_MAX_ETHPORTS - 1, &n) < 0)
		return -1;
	return (int)n;
}

bool
rt_config_owns_section(const char *section)
{
	return strcmp(section, "route") == 0 || strcmp(section, "neigh") == 0 ||
	       strcmp(section, "filter") == 0 || strncmp(section, "port ", 5) == 0;
}

/* Split @p s (copied into @p buf) on blanks; returns the number of words or -1. */
static int
split(const char *s, char *buf, size_t len, char **w)
{
	char *save = NULL, *tok;
	int n = 0;

	if (strlen(s) >= len)
		return -1;
	strcpy(buf, s);
	for (tok = strtok_r(buf, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		if (n == MAX_WORDS)
			return -1;
		w[n++] = tok;
	}
	return n;
}

static int
port_of_net(const struct rt_config *cfg, uint32_t ip)
{
	int p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct rt_cfg_port *cp = &cfg->ports[p];

		if (cp->has_ip && ((ip ^ cp->ip) & rt_mask(cp->plen)) == 0)
			return p;
	}
	return -1;
}

/*
 * A gateway or a static neighbour (@p what): the rule of rt_table's
 * check_neighbour(), on the ports read so far; the port whose network holds
 * it, or -1 with @p err set.
 */
static int
neigh_port(const struct rt_config *cfg, const char *what, uint32_t ip, char *err, size_t errlen)
{
	int net = port_of_net(cfg, ip);
	const char *why;
	char a[16];

	why = net < 0 ? "not on any connected network (the [port N] section with its ip must "
			"come first)"
		      : rt_neigh_addr_invalid(ip, cfg->ports[net].ip, cfg->ports[net].plen);
	if (why != NULL) {
		snprintf(err, errlen, "%s %s is %s", what, rt_ip_str(ip, a), why);
		return -1;
	}
	return net;
}

/* "file:line" of the key being read into @p where, for errors found later. */
static void
set_where(const struct rt_config *cfg, char *where, size_t len)
{
	snprintf(where, len, "%s", cfg->where != NULL ? cfg->where : "");
}

static int
parse_port_key(struct rt_config *cfg, int port, const char *key, const char *value, char *err,
	size_t errlen)
{
	struct rt_cfg_port *cp = &cfg->ports[port];
	char a[16], b[16];
	uint32_t ip;
	uint8_t plen;
	int q;

	if (!cp->has_ip && !cp->has_mtu)
		set_where(cfg, cp->where, sizeof(cp->where));
	if (strcmp(key, "mtu") == 0) {
		uint64_t mtu;

		if (num_u64(value, RT_MTU_MIN, RT_MTU_MAX, &mtu) < 0) {
			snprintf(err, errlen, "mtu '%s' is not a number in %u..%u", value,
				RT_MTU_MIN, RT_MTU_MAX);
			return -EINVAL;
		}
		cp->mtu = (uint16_t)mtu;
		cp->has_mtu = true;
		return 0;
	}
	if (strcmp(key, "ip") != 0) {
		snprintf(
			err, errlen, "unknown key '%s' in [port %d] (expected ip, mtu)", key, port);
		return -EINVAL;
	}
	if (cp->has_ip) {
		snprintf(err, errlen, "port %d: ip given twice", port);
		return -EINVAL;
	}
	if (rt_prefix_parse(value, &ip, &plen, true) < 0 || plen == 0) {
		snprintf(err, errlen, "ip '%s' is not ADDRESS/LENGTH (e.g. 10.0.0.1/24)", value);
		return -EINVAL;
	}
	if (rt_ipv4_martian_src(ip) || rt_net_bcast_or_net(ip, plen)) {
		snprintf(err, errlen, "%s/%u is not a usable interface address", rt_ip_str(ip, a),
			plen);
		return -EINVAL;
	}
	for (q = 0; q < RTE_MAX_ETHPORTS; q++) {
		const struct rt_cfg_port *o = &cfg->ports[q];

		if (o->has_ip && ((ip ^ o->ip) & rt_mask(RTE_MIN(plen, o->plen))) == 0) {
			snprintf(err, errlen, "%s/%u overlaps port %d's network %s/%u",
				rt_ip_str(ip, a), plen, q, rt_ip_str(o->ip & rt_mask(o->plen), b),
				o->plen);
			return -EINVAL;
		}
	}
	cp->ip = ip;
	cp->plen = plen;
	cp->has_ip = true;
	return 0;
}

static int
parse_route(struct rt_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	char buf[1024];
	char *w[MAX_WORDS];
	struct rt_cfg_route r = {.port = -1};
	char a[16], b[16];
	int n, i, net;
	uint32_t k;

	n = split(value, buf, sizeof(buf), w);
	if (strcmp(key, "blackhole") == 0 || strcmp(key, "reject") == 0) {
		r.kind = key[0] == 'b' ? RT_ROUTE_BLACKHOLE : RT_ROUTE_REJECT;
		if (n != 1) {
			snprintf(err, errlen, "expected '%s = PREFIX'", key);
			return -EINVAL;
		}
	} else if (strcmp(key, "route") == 0) {
		if (n != 3 && n != 5) {
			snprintf(err, errlen,
				"expected 'route = PREFIX via GATEWAY [dev PORT]' or 'route = PREFIX dev PORT'");
			return -EINVAL;
		}
		r.kind = RT_ROUTE_DEV;
		for (i = 1; i + 1 < n; i += 2) {
			if (strcmp(w[i], "via") == 0 && r.kind != RT_ROUTE_VIA) {
				if (rt_ip_parse(w[i + 1], &r.gw) < 0) {
					snprintf(err, errlen, "bad gateway address '%s'", w[i + 1]);
					return -EINVAL;
				}
				r.kind = RT_ROUTE_VIA;
			} else if (strcmp(w[i], "dev") == 0 && r.port < 0) {
				uint64_t p;

				if (num_u64(w[i + 1], 0, RTE_MAX_ETHPORTS - 1, &p) < 0) {
					snprintf(err, errlen, "bad port '%s'", w[i + 1]);
					return -EINVAL;
				}
				r.port = (int16_t)p;
			} else {
				snprintf(
					err, errlen, "unexpected '%s' (expected via or dev)", w[i]);
				return -EINVAL;
			}
		}
		if (r.kind == RT_ROUTE_DEV && r.port < 0) {
			snprintf(err, errlen, "route needs 'via GATEWAY' or 'dev PORT'");
			return -EINVAL;
		}
	} else {
		snprintf(err, errlen,
			"unknown key '%s' in [route] (expected route, blackhole, reject)", key);
		return -EINVAL;
	}
	if (rt_prefix_parse(w[0], &r.prefix, &r.plen, false) < 0) {
		snprintf(err, errlen, "'%s' is not a prefix (ADDRESS/LENGTH)", w[0]);
		return -EINVAL;
	}
	if ((r.prefix & ~rt_mask(r.plen)) != 0) {
		snprintf(err, errlen, "%s has host bits set (did you mean %s/%u?)", w[0],
			rt_ip_str(r.prefix & rt_mask(r.plen), a), r.plen);
		return -EINVAL;
	}
	for (k = 0; k < cfg->n_routes; k++) {
		if (cfg->routes[k].prefix == r.prefix && cfg->routes[k].plen == r.plen) {
			snprintf(err, errlen, "a route to %s/%u is already given",
				rt_ip_str(r.prefix, a), r.plen);
			return -EEXIST;
		}
	}
	for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
		const struct rt_cfg_port *cp = &cfg->ports[i];

		if (cp->has_ip &&
			((r.plen == cp->plen && r.prefix == (cp->ip & rt_mask(cp->plen))) ||
				(r.plen == 32 && r.prefix == cp->ip))) {
			snprintf(err, errlen, "%s/%u is port %d's own network or address",
				rt_ip_str(r.prefix, a), r.plen, i);
			return -EEXIST;
		}
	}
	if (r.kind == RT_ROUTE_VIA) {
		net = neigh_port(cfg, "next hop", r.gw, err, errlen);
		if (net < 0)
			return -EINVAL;
		if (r.port >= 0 && r.port != net) {
			snprintf(err, errlen, "next hop %s is on port %d's network, not port %d's",
				rt_ip_str(r.gw, a), net, r.port);
			return -EINVAL;
		}
	} else if (r.kind == RT_ROUTE_DEV && !cfg->ports[r.port].has_ip) {
		snprintf(err, errlen, "port %d has no ip (give [port %d] ip = ... first)", r.port,
			r.port);
		return -EINVAL;
	}
	if (cfg->n_routes >= RT_CFG_MAX_ROUTES) {
		snprintf(err, errlen, "more than %d routes", RT_CFG_MAX_ROUTES);
		return -ENOSPC;
	}
	(void)b;
	set_where(cfg, r.where, sizeof(r.where));
	cfg->routes[cfg->n_routes++] = r;
	return 0;
}

static int
parse_neigh(struct rt_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	struct rt_cfg_neigh nb;
	char a[16];
	uint32_t k;

	if (rt_ip_parse(key, &nb.ip) < 0) {
		snprintf(err, errlen, "expected 'ADDRESS = MAC' in [neigh], got key '%s'", key);
		return -EINVAL;
	}
	if (rte_ether_unformat_addr(value, &nb.mac) < 0 || !rte_is_unicast_ether_addr(&nb.mac) ||
		rte_is_zero_ether_addr(&nb.mac)) {
		snprintf(err, errlen, "'%s' is not a unicast MAC address", value);
		return -EINVAL;
	}
	if (neigh_port(cfg, "neighbour", nb.ip, err, errlen) < 0)
		return -EINVAL;
	for (k = 0; k < cfg->n_neigh; k++) {
		if (cfg->neigh[k].ip == nb.ip) {
			snprintf(err, errlen, "neighbour %s is already given", rt_ip_str(nb.ip, a));
			return -EEXIST;
		}
	}
	if (cfg->n_neigh >= RT_CFG_MAX_NEIGH) {
		snprintf(err, errlen, "more than %d neighbours", RT_CFG_MAX_NEIGH);
		return -ENOSPC;
	}
	set_where(cfg, nb.where, sizeof(nb.where));
	cfg->neigh[cfg->n_neigh++] = nb;
	return 0;
}

static int
parse_filter(struct rt_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	struct rt_acl_rule r;
	int ret;

	ret = rt_acl_rule_parse(key, value, &r, err, errlen);
	if (ret < 0)
		return ret;
	if (cfg->n_filters >= RT_ACL_MAX_RULES) {
		snprintf(err, errlen, "more than %d filter rules", RT_ACL_MAX_RULES);
		return -ENOSPC;
	}
	cfg->filters[cfg->n_filters++] = r;
	return 0;
}

int
rt_config_cfgfile_cb(void *arg, const char *section, const char *key, const char *value, char *err,
	size_t errlen)
{
	struct rt_config *cfg = arg;
	int port;

	if (strcmp(section, "route") == 0)
		return parse_route(cfg, key, value, err, errlen);
	if (strcmp(section, "neigh") == 0)
		return parse_neigh(cfg, key, value, err, errlen);
	if (strcmp(section, "filter") == 0)
		return parse_filter(cfg, key, value, err, errlen);
	port = section_port(section);
	if (port >= 0)
		return parse_port_key(cfg, port, key, value, err, errlen);
	snprintf(err, errlen,
		"unknown section [%s] (expected [port N], [route], [neigh], [filter])", section);
	return -EINVAL;
}

int
rt_config_apply(const struct rt_config *cfg, struct rt_table *t, char *err, size_t errlen)
{
	char why[RT_ERR_LEN];
	const char *where = "";
	uint32_t i;
	int p, ret;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct rt_cfg_port *cp = &cfg->ports[p];

		if (!cp->has_ip && !cp->has_mtu)
			continue;
		if (!t->ports[p].enabled) {
			snprintf(err, errlen, "%s%s[port %d]: no such port", cp->where,
				cp->where[0] != '\0' ? ": " : "", p);
			return -ENODEV;
		}
		where = cp->where;
		if (cp->has_mtu) {
			ret = rt_iface_set_mtu(t, (uint16_t)p, cp->mtu, why, sizeof(why));
			if (ret < 0)
				goto fail;
		}
		if (cp->has_ip) {
			ret = rt_iface_set_addr(t, (uint16_t)p, cp->ip, cp->plen, why, sizeof(why));
			if (ret < 0)
				goto fail;
		}
	}
	for (i = 0; i < cfg->n_routes; i++) {
		const struct rt_cfg_route *r = &cfg->routes[i];

		where = r->where;
		ret = rt_route_add(t, r->prefix, r->plen, (enum rt_route_kind)r->kind, r->gw,
			r->port, why, sizeof(why));
		if (ret < 0)
			goto fail;
	}
	for (i = 0; i < cfg->n_neigh; i++) {
		where = cfg->neigh[i].where;
		ret = rt_neigh_static_add(
			t, cfg->neigh[i].ip, &cfg->neigh[i].mac, why, sizeof(why));
		if (ret < 0)
			goto fail;
	}
	return 0;
fail:
	/* found after EAL start, long after the line was read: name it */
	if (where[0] != '\0')
		snprintf(err, errlen, "%s: %s", where, why);
	else
		snprintf(err, errlen, "route config: %s", why);
	return ret;
}

int
rt_config_apply_filter(const struct rt_config *cfg, struct rt_acl *acl, char *err, size_t errlen)
{
	char why[RT_ERR_LEN];
	int ret = rt_acl_append(acl, cfg->filters, cfg->n_filters, why, sizeof(why));

	if (ret < 0)
		snprintf(err, errlen, "filter config: %s", why);
	return ret;
}
