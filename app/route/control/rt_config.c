/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rt_config.h"
#include "rt_fileload.h"
#include "rt_log.h"
#include "numparse.h"

#include "rt_ipv4.h"

/* a multipath route: PREFIX, then up to one hop too many of 'via GW dev N' */
#define MAX_WORDS (1 + 4 * (RT_ECMP_MAX + 1))

void
rt_config_init(struct rt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

void
rt_config_free(struct rt_config *cfg)
{
	uint32_t i;

	for (i = 0; i < cfg->n_files; i++)
		free(cfg->files[i].path);
	free(cfg->files);
	free(cfg->routes);
	free(cfg->neigh);
	free(cfg->seen);
	rt_config_init(cfg);
}

/* Make room for one more of @p size bytes in *@p arr (*@p cap of them); -ENOMEM. */
static int
grow(void **arr, uint32_t n, uint32_t *cap, size_t size)
{
	uint32_t c = *cap == 0 ? 64 : *cap * 2;
	void *a;

	if (n < *cap)
		return 0;
	if (c <= *cap)
		return -ENOMEM;
	a = realloc(*arr, (size_t)c * size);
	if (a == NULL)
		return -ENOMEM;
	*arr = a;
	*cap = c;
	return 0;
}

/*
 * The set of routes (prefix and length) and neighbours (a flag bit above)
 * read so far: an open-addressing hash, so that "already given" costs the
 * same for the 10th line and the 100 000th.
 */
#define SEEN_NEIGH (UINT64_C(1) << 40)

static uint32_t
seen_slot(const uint64_t *tab, uint32_t cap, uint64_t key)
{
	uint64_t h = (key + 1) * UINT64_C(0x9e3779b97f4a7c15);
	uint32_t i = (uint32_t)(h >> 32) & (cap - 1);

	while (tab[i] != 0 && tab[i] != key + 1)
		i = (i + 1) & (cap - 1);
	return i;
}

/* 1 if @p key was seen, 0 after adding it, -ENOMEM */
static int
seen_add(struct rt_config *cfg, uint64_t key)
{
	uint32_t i;

	if ((cfg->seen_n + 1) * 2 > cfg->seen_cap) {
		uint32_t cap = cfg->seen_cap == 0 ? 256 : cfg->seen_cap * 2;
		uint64_t *tab = calloc(cap, sizeof(*tab));

		if (tab == NULL || cap <= cfg->seen_cap) {
			free(tab);
			return -ENOMEM;
		}
		for (i = 0; i < cfg->seen_cap; i++)
			if (cfg->seen[i] != 0)
				tab[seen_slot(tab, cap, cfg->seen[i] - 1)] = cfg->seen[i];
		free(cfg->seen);
		cfg->seen = tab;
		cfg->seen_cap = cap;
	}
	i = seen_slot(cfg->seen, cfg->seen_cap, key);
	if (cfg->seen[i] != 0)
		return 1;
	cfg->seen[i] = key + 1;
	cfg->seen_n++;
	return 0;
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

		if (cp->has_ip && ((ip ^ cp->ip) & rt4_mask(cp->plen)) == 0)
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
		      : rt4_neigh_addr_invalid(ip, cfg->ports[net].ip, cfg->ports[net].plen);
	if (why != NULL) {
		snprintf(err, errlen, "%s %s is %s", what, rt4_addr_str(ip, a), why);
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

/* Anything given in the [port N] section (its where is then set). */
static bool
port_given(const struct rt_cfg_port *cp)
{
	return cp->has_ip || cp->has_mtu || cp->nl_ifname[0] != '\0' || cp->twin[0] != '\0' ||
	       cp->punt_rate != 0;
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

	if (!port_given(cp))
		set_where(cfg, cp->where, sizeof(cp->where));
	if (strcmp(key, "netlink-ifname") == 0 || strcmp(key, "twin") == 0) {
		bool twin = key[0] == 't';
		char *dst = twin ? cp->twin : cp->nl_ifname;

		/* an interface name: 1 to 15 bytes, no '/', no blank (as the kernel wants) */
		if (value[0] == '\0' || strlen(value) >= sizeof(cp->nl_ifname) ||
			strpbrk(value, "/ \t:,=") != NULL || strcmp(value, ".") == 0 ||
			strcmp(value, "..") == 0) {
			snprintf(err, errlen,
				"%s '%s' is not an interface name (1 to 15 characters, "
				"no '/', ':', ',', '=' or blank)",
				key, value);
			return -EINVAL;
		}
		if (dst[0] != '\0') {
			snprintf(err, errlen, "port %d: %s given twice", port, key);
			return -EINVAL;
		}
		for (q = 0; q < RTE_MAX_ETHPORTS; q++)
			if (q != port && strcmp(twin ? cfg->ports[q].twin : cfg->ports[q].nl_ifname,
						 value) == 0) {
				snprintf(err, errlen, "%s %s is port %d's already", key, value, q);
				return -EINVAL;
			}
		snprintf(dst, sizeof(cp->nl_ifname), "%s", value);
		return 0;
	}
	if (strcmp(key, "punt-rate") == 0) {
		uint64_t r;

		if (num_u64(value, 1, 100000000, &r) < 0) {
			snprintf(err, errlen,
				"punt-rate '%s' is not a number of frames per second in 1..100000000",
				value);
			return -EINVAL;
		}
		cp->punt_rate = (uint32_t)r;
		return 0;
	}
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
		snprintf(err, errlen,
			"unknown key '%s' in [port %d] (expected ip, mtu, netlink-ifname, twin, "
			"punt-rate)",
			key, port);
		return -EINVAL;
	}
	if (cp->has_ip) {
		snprintf(err, errlen, "port %d: ip given twice", port);
		return -EINVAL;
	}
	if (rt4_prefix_parse(value, &ip, &plen, true) < 0 || plen == 0) {
		snprintf(err, errlen, "ip '%s' is not ADDRESS/LENGTH (e.g. 10.0.0.1/24)", value);
		return -EINVAL;
	}
	if (rt_ipv4_martian_src(ip) || rt4_net_bcast_or_net(ip, plen)) {
		snprintf(err, errlen, "%s/%u is not a usable interface address",
			rt4_addr_str(ip, a), plen);
		return -EINVAL;
	}
	for (q = 0; q < RTE_MAX_ETHPORTS; q++) {
		const struct rt_cfg_port *o = &cfg->ports[q];

		if (o->has_ip && ((ip ^ o->ip) & rt4_mask(RTE_MIN(plen, o->plen))) == 0) {
			snprintf(err, errlen, "%s/%u overlaps port %d's network %s/%u",
				rt4_addr_str(ip, a), plen, q,
				rt4_addr_str(o->ip & rt4_mask(o->plen), b), o->plen);
			return -EINVAL;
		}
	}
	cp->ip = ip;
	cp->plen = plen;
	cp->has_ip = true;
	return 0;
}

/*
 * routes-file / neigh-file = PATH: relative to the directory of the config
 * file (from cfg->where, "file:line"); opened now, so that a wrong name is
 * told with its line before EAL starts.
 */
static int
parse_file(struct rt_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	struct rt_cfg_file *f;
	const char *where = cfg->where != NULL ? cfg->where : "";
	const char *colon = strrchr(where, ':');
	size_t dlen = 0, len;
	struct stat st;
	char *path;

	if (value[0] == '\0') {
		snprintf(err, errlen, "%s needs a file name", key);
		return -EINVAL;
	}
	if (value[0] != '/' && colon != NULL) {
		dlen = (size_t)(colon - where);
		while (dlen > 0 && where[dlen - 1] != '/')
			dlen--; /* up to the last '/' of the file name, kept */
	}
	len = dlen + strlen(value);
	if (grow((void **)&cfg->files, cfg->n_files, &cfg->cap_files, sizeof(*f)) < 0 ||
		(path = malloc(len + 1)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(path, where, dlen);
	strcpy(path + dlen, value);
	/* stat + access, not a trial open: opening a pipe would wait for its writer */
	if (stat(path, &st) < 0 || access(path, R_OK) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s %.200s: %s", key, path, strerror(e));
		free(path);
		return -e;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(err, errlen, "%s %.200s: %s", key, path,
			S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file or a pipe");
		free(path);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	f = &cfg->files[cfg->n_files++];
	f->path = path;
	f->neigh = key[0] == 'n';
	set_where(cfg, f->where, sizeof(f->where));
	return 0;
}

static int
count_via(char **w, int n)
{
	int i, v = 0;

	for (i = 1; i < n; i++)
		v += strcmp(w[i], "via") == 0;
	return v;
}

/* A multipath route's words after the prefix: (via GW [dev PORT])+, 2 to RT_ECMP_MAX hops. */
static int
parse_hops(struct rt_cfg_route *r, char **w, int n, char *err, size_t errlen)
{
	char a[16];
	int i = 1;
	unsigned int k;

	r->kind = RT_ROUTE_VIA;
	while (i < n) {
		struct rt_hop *h = &r->hops[r->n_hops];

		if (strcmp(w[i], "via") != 0 || i + 1 >= n) {
			snprintf(err, errlen, "expected 'via GATEWAY [dev PORT]', got '%s'", w[i]);
			return -EINVAL;
		}
		if (r->n_hops == RT_ECMP_MAX) {
			snprintf(err, errlen, "more than %u next hops (RT_ECMP_MAX)", RT_ECMP_MAX);
			return -EINVAL;
		}
		if (rt4_addr_parse(w[i + 1], &h->gw) < 0) {
			snprintf(err, errlen, "bad gateway address '%s'", w[i + 1]);
			return -EINVAL;
		}
		for (k = 0; k < r->n_hops; k++) {
			if (r->hops[k].gw == h->gw) {
				snprintf(err, errlen, "next hop %s given twice",
					rt4_addr_str(h->gw, a));
				return -EINVAL;
			}
		}
		h->port = -1;
		i += 2;
		if (i + 1 < n && strcmp(w[i], "dev") == 0) {
			uint64_t p;

			if (num_u64(w[i + 1], 0, RTE_MAX_ETHPORTS - 1, &p) < 0) {
				snprintf(err, errlen, "bad port '%s'", w[i + 1]);
				return -EINVAL;
			}
			h->port = (int)p;
			i += 2;
		}
		r->n_hops++;
	}
	r->gw = r->hops[0].gw;
	return 0;
}

/*
 * netlink-netns / twin-netns = NAME (@p key): a name under /run/netns (as
 * `ip netns` makes them), checked to exist now so that a wrong one is told
 * with its line; "." or nothing: the forwarder's own namespace. Into @p dst
 * (RT_NETNS_LEN), @p has set.
 */
static int
parse_netns(const char *key, const char *value, char *dst, bool *has, char *err, size_t errlen)
{
	char path[RT_NETNS_LEN + 16];

	if (*has) {
		snprintf(err, errlen, "%s given twice", key);
		return -EINVAL;
	}
	if (value[0] == '\0' || strcmp(value, ".") == 0) {
		dst[0] = '\0';
		*has = true;
		return 0;
	}
	if (strlen(value) >= RT_NETNS_LEN || strchr(value, '/') != NULL ||
		strcmp(value, "..") == 0) {
		snprintf(err, errlen,
			"%s '%s' is not a namespace name (up to %d characters, no '/')", key, value,
			RT_NETNS_LEN - 1);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/run/netns/%s", value);
	if (access(path, F_OK) < 0) {
		int e = errno;

		snprintf(err, errlen, "%s %s: %s: %s (ip netns add %s?)", key, value, path,
			strerror(e), value);
		return -e;
	}
	snprintf(dst, RT_NETNS_LEN, "%s", value);
	*has = true;
	return 0;
}

/*
 * fpm-listen = ADDRESS[:PORT]: where zebra's `fpm address A port P` connects
 * (the port 2620 when not given, zebra's default).
 */
static int
parse_fpm_listen(struct rt_config *cfg, const char *value, char *err, size_t errlen)
{
	char a[32];
	const char *colon = strchr(value, ':');
	size_t alen = colon != NULL ? (size_t)(colon - value) : strlen(value);
	uint64_t port = 2620;

	if (cfg->has_fpm) {
		snprintf(err, errlen, "fpm-listen given twice");
		return -EINVAL;
	}
	if (alen >= sizeof(a) || (colon != NULL && num_u64(colon + 1, 1, UINT16_MAX, &port) < 0)) {
		snprintf(err, errlen,
			"fpm-listen '%s' is not ADDRESS[:PORT] (an IPv4 address, a port 1..65535)",
			value);
		return -EINVAL;
	}
	memcpy(a, value, alen);
	a[alen] = '\0';
	if (rt4_addr_parse(a, &cfg->fpm_addr) < 0) {
		snprintf(err, errlen,
			"fpm-listen '%s' is not ADDRESS[:PORT] (an IPv4 address, a port 1..65535)",
			value);
		return -EINVAL;
	}
	cfg->fpm_port = (uint16_t)port;
	cfg->has_fpm = true;
	return 0;
}

/*
 * fpm-allow = NET[/LEN], ...: the peers that may connect to fpm-listen (commas
 * or blanks between them; a bare address is a /32). Replaces the default
 * (loopback and twin-netns' addresses), so loopback is named when wanted.
 */
static int
parse_fpm_allow(struct rt_config *cfg, const char *value, char *err, size_t errlen)
{
	char buf[1024], *save = NULL, *tok;
	struct rt_fpm_net *a;

	if (cfg->n_fpm_allow > 0) {
		snprintf(err, errlen, "fpm-allow given twice");
		return -EINVAL;
	}
	if (strlen(value) >= sizeof(buf))
		goto bad;
	strcpy(buf, value);
	for (tok = strtok_r(buf, ", \t", &save); tok != NULL; tok = strtok_r(NULL, ", \t", &save)) {
		if (cfg->n_fpm_allow == RT_FPM_ALLOW_MAX) {
			snprintf(err, errlen, "fpm-allow: more than %d networks", RT_FPM_ALLOW_MAX);
			return -EINVAL;
		}
		a = &cfg->fpm_allow[cfg->n_fpm_allow];
		if (rt4_prefix_parse(tok, &a->net, &a->plen, false) < 0)
			goto bad;
		if ((a->net & ~rt4_mask(a->plen)) != 0) {
			snprintf(err, errlen, "fpm-allow '%s': host bits set past /%u", tok,
				a->plen);
			return -EINVAL;
		}
		cfg->n_fpm_allow++;
	}
	if (cfg->n_fpm_allow > 0)
		return 0;
bad:
	snprintf(err, errlen,
		"fpm-allow '%s' is not a list of NET[/LEN] (IPv4, e.g. 127.0.0.0/8, 192.168.255.2)",
		value);
	return -EINVAL;
}

static int
parse_route(struct rt_config *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	char buf[1024];
	char *w[MAX_WORDS];
	struct rt_cfg_route r = {.port = -1};
	char a[16], b[16];
	int n, i, net, ret;
	uint64_t k;

	if (strcmp(key, "routes-file") == 0 || strcmp(key, "neigh-file") == 0)
		return parse_file(cfg, key, value, err, errlen);
	if (strcmp(key, "netlink-netns") == 0)
		return parse_netns(key, value, cfg->netlink_netns, &cfg->has_netlink, err, errlen);
	if (strcmp(key, "twin-netns") == 0)
		return parse_netns(key, value, cfg->twin_netns, &cfg->has_twin_netns, err, errlen);
	if (strcmp(key, "netlink-rcvbuf") == 0) {
		if (num_u64(value, 4096, 1u << 30, &k) < 0) {
			snprintf(err, errlen,
				"netlink-rcvbuf '%s' is not a number of bytes in "
				"4096..1073741824",
				value);
			return -EINVAL;
		}
		cfg->netlink_rcvbuf = (uint32_t)k;
		return 0;
	}
	if (strcmp(key, "fpm-listen") == 0)
		return parse_fpm_listen(cfg, value, err, errlen);
	if (strcmp(key, "fpm-allow") == 0)
		return parse_fpm_allow(cfg, value, err, errlen);
	if (strcmp(key, "icmp-echo-rate") == 0) {
		if (num_u64(value, 1, 100000000, &k) < 0) {
			snprintf(err, errlen,
				"icmp-echo-rate '%s' is not a number of replies per second in "
				"1..100000000",
				value);
			return -EINVAL;
		}
		cfg->icmp_echo_rate = (uint32_t)k;
		return 0;
	}
	if (strcmp(key, "fpm-sweep-delay") == 0) {
		if (num_u64(value, 1, 3600 * 1000, &k) < 0) {
			snprintf(err, errlen,
				"fpm-sweep-delay '%s' is not a number of milliseconds in 1..3600000",
				value);
			return -EINVAL;
		}
		cfg->fpm_sweep_ms = (uint32_t)k;
		return 0;
	}
	n = split(value, buf, sizeof(buf), w);
	if (strcmp(key, "blackhole") == 0 || strcmp(key, "reject") == 0) {
		r.kind = key[0] == 'b' ? RT_ROUTE_BLACKHOLE : RT_ROUTE_REJECT;
		if (n != 1) {
			snprintf(err, errlen, "expected '%s = PREFIX'", key);
			return -EINVAL;
		}
	} else if (strcmp(key, "route") == 0 && count_via(w, n) >= 2) {
		if (parse_hops(&r, w, n, err, errlen) < 0)
			return -EINVAL;
	} else if (strcmp(key, "route") == 0) {
		if (n != 3 && n != 5) {
			snprintf(err, errlen,
				"expected 'route = PREFIX via GATEWAY [dev PORT]' or 'route = PREFIX dev PORT'");
			return -EINVAL;
		}
		r.kind = RT_ROUTE_DEV;
		for (i = 1; i + 1 < n; i += 2) {
			if (strcmp(w[i], "via") == 0 && r.kind != RT_ROUTE_VIA) {
				if (rt4_addr_parse(w[i + 1], &r.gw) < 0) {
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
			"unknown key '%s' in [route] (expected route, blackhole, reject, routes-file, "
			"neigh-file, netlink-netns, netlink-rcvbuf, fpm-listen, fpm-allow, fpm-sweep-delay, "
			"twin-netns, icmp-echo-rate)",
			key);
		return -EINVAL;
	}
	if (rt4_prefix_parse(w[0], &r.prefix, &r.plen, false) < 0) {
		snprintf(err, errlen, "'%s' is not a prefix (ADDRESS/LENGTH)", w[0]);
		return -EINVAL;
	}
	if ((r.prefix & ~rt4_mask(r.plen)) != 0) {
		snprintf(err, errlen, "%s has host bits set (did you mean %s/%u?)", w[0],
			rt4_addr_str(r.prefix & rt4_mask(r.plen), a), r.plen);
		return -EINVAL;
	}
	for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
		const struct rt_cfg_port *cp = &cfg->ports[i];

		if (cp->has_ip &&
			((r.plen == cp->plen && r.prefix == (cp->ip & rt4_mask(cp->plen))) ||
				(r.plen == 32 && r.prefix == cp->ip))) {
			snprintf(err, errlen, "%s/%u is port %d's own network or address",
				rt4_addr_str(r.prefix, a), r.plen, i);
			return -EEXIST;
		}
	}
	for (k = 0; k < r.n_hops; k++) {
		net = neigh_port(cfg, "next hop", r.hops[k].gw, err, errlen);
		if (net < 0)
			return -EINVAL;
		if (r.hops[k].port >= 0 && r.hops[k].port != net) {
			snprintf(err, errlen, "next hop %s is on port %d's network, not port %d's",
				rt4_addr_str(r.hops[k].gw, a), net, r.hops[k].port);
			return -EINVAL;
		}
	}
	if (r.kind == RT_ROUTE_VIA && r.n_hops == 0) {
		net = neigh_port(cfg, "next hop", r.gw, err, errlen);
		if (net < 0)
			return -EINVAL;
		if (r.port >= 0 && r.port != net) {
			snprintf(err, errlen, "next hop %s is on port %d's network, not port %d's",
				rt4_addr_str(r.gw, a), net, r.port);
			return -EINVAL;
		}
	} else if (r.kind == RT_ROUTE_DEV && !cfg->ports[r.port].has_ip) {
		snprintf(err, errlen, "port %d has no ip (give [port %d] ip = ... first)", r.port,
			r.port);
		return -EINVAL;
	}
	if (grow((void **)&cfg->routes, cfg->n_routes, &cfg->cap_routes, sizeof(r)) < 0) {
		snprintf(err, errlen, "out of memory for the routes");
		return -ENOMEM;
	}
	k = (uint64_t)r.prefix << 8 | r.plen;
	ret = seen_add(cfg, k);
	if (ret != 0) {
		if (ret > 0)
			snprintf(err, errlen, "a route to %s/%u is already given",
				rt4_addr_str(r.prefix, a), r.plen);
		else
			snprintf(err, errlen, "out of memory for the routes");
		return ret > 0 ? -EEXIST : ret;
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
	int ret;

	if (rt4_addr_parse(key, &nb.ip) < 0) {
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
	if (grow((void **)&cfg->neigh, cfg->n_neigh, &cfg->cap_neigh, sizeof(nb)) < 0) {
		snprintf(err, errlen, "out of memory for the neighbours");
		return -ENOMEM;
	}
	ret = seen_add(cfg, SEEN_NEIGH | nb.ip);
	if (ret != 0) {
		if (ret > 0)
			snprintf(err, errlen, "neighbour %s is already given",
				rt4_addr_str(nb.ip, a));
		else
			snprintf(err, errlen, "out of memory for the neighbours");
		return ret > 0 ? -EEXIST : ret;
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

/* The table's request for route line @p r: a config route belongs to RT_SRC_CONFIG. */
static void
cfg_route_req(const struct rt_cfg_route *r, struct rt4_route_req *req)
{
	*req = (struct rt4_route_req){
		.prefix = r->prefix,
		.plen = r->plen,
		.kind = (enum rt_route_kind)r->kind,
		.src = RT_SRC_CONFIG,
	};
	if (r->n_hops > 1) {
		req->n_hops = r->n_hops;
		memcpy(req->hop, r->hops, r->n_hops * sizeof(r->hops[0]));
	} else if (r->kind == RT_ROUTE_VIA || r->kind == RT_ROUTE_DEV) {
		req->n_hops = 1;
		req->hop[0] = (struct rt_hop){.gw = r->gw, .port = r->port};
	}
}

int
rt_config_apply(const struct rt_config *cfg, struct rt_table *t, char *err, size_t errlen)
{
	char why[RT_ERR_LEN];
	const char *where = "";
	uint32_t i;
	int p, ret;

	if (cfg->has_fpm && cfg->fpm_addr >> 24 != 127 && cfg->n_fpm_allow == 0 &&
		!cfg->has_twin_netns) {
		/* reachable from elsewhere, with nothing saying who may connect */
		snprintf(err, errlen,
			"fpm-listen %s is not a loopback address: give fpm-allow (the peers "
			"that may connect) or twin-netns (zebra's namespace)",
			rt4_addr_str(cfg->fpm_addr, why));
		return -EINVAL;
	}
	if (cfg->n_fpm_allow > 0 && !cfg->has_fpm) {
		snprintf(err, errlen, "fpm-allow without fpm-listen: nothing listens");
		return -EINVAL;
	}
	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct rt_cfg_port *cp = &cfg->ports[p];

		if (!port_given(cp))
			continue;
		if (!t->ports[p].enabled) {
			snprintf(err, errlen, "%s%s[port %d]: no such port", cp->where,
				cp->where[0] != '\0' ? ": " : "", p);
			return -ENODEV;
		}
		if (cp->nl_ifname[0] != '\0' && !cfg->has_netlink && !cfg->has_fpm) {
			/* a map with no sync to use it is a config that does not do what it says */
			snprintf(err, errlen,
				"%s%snetlink-ifname %s without [route] netlink-netns or fpm-listen: "
				"no sync uses it",
				cp->where, cp->where[0] != '\0' ? ": " : "", cp->nl_ifname);
			return -EINVAL;
		}
		if (cp->punt_rate != 0 && cp->twin[0] == '\0') {
			snprintf(err, errlen, "%s%spunt-rate without twin: nothing to limit",
				cp->where, cp->where[0] != '\0' ? ": " : "");
			return -EINVAL;
		}
		if (cp->twin[0] != '\0' && !cp->has_ip) {
			/* the kernel must answer for an address: the port's */
			snprintf(err, errlen,
				"%s%stwin %s without ip: a twin has the port's address", cp->where,
				cp->where[0] != '\0' ? ": " : "", cp->twin);
			return -EINVAL;
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
		struct rt4_route_req req;

		where = cfg->routes[i].where;
		cfg_route_req(&cfg->routes[i], &req);
		ret = rt4_route_set(t, &req, why, sizeof(why));
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
rt_config_apply_files(
	const struct rt_config *cfg, const struct rt_fileload *how, char *err, size_t errlen)
{
	struct rt_fileload l = {.t = how->t,
		.dev = how->dev,
		.dev_arg = how->dev_arg,
		.quit = how->quit,
		.pipe_wait_ms = how->pipe_wait_ms,
		.escape = how->escape,
		.err = err,
		.errlen = errlen};
	uint32_t i;
	int ret;

	for (i = 0; i < cfg->n_files; i++) {
		const struct rt_cfg_file *f = &cfg->files[i];
		struct timespec w0, w1, c0, c1;

		/* CPU time beside wall time: on a shared machine the wall counts others' turns */
		clock_gettime(CLOCK_MONOTONIC, &w0);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
		ret = f->neigh ? rt_fileload_neigh(&l, f->path) : rt_fileload_routes(&l, f->path);
		if (ret < 0)
			return ret;
		clock_gettime(CLOCK_MONOTONIC, &w1);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
		RT_LOG(INFO, "%u %s loaded from %s in %.3f s (%.3f s of CPU)\n", l.counts.taken,
			f->neigh ? "neighbours" : "routes", f->path,
			(double)(w1.tv_sec - w0.tv_sec) + (w1.tv_nsec - w0.tv_nsec) / 1e9,
			(double)(c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9);
	}
	return 0;
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
