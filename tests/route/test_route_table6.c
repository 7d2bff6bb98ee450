/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The IPv6 route table (rt6_table.h) beside an IPv4 one: add, replace and delete against a
 * brute-force longest match on random tables (the workers' lookup, rt6_fib.h, checked), ::/0,
 * ECMP groups shared by routes through one set of gateways in any order, next hops keyed by
 * family (an IPv6 gateway never found as an IPv4 neighbour), owners, bad requests.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "fwd_test.h"
#include "rt6_fib.h"
#include "rt6_table.h"
#include "rt_nhgroup.h"
#include "rt_table_priv.h"
#include "rt_test_table.h"

static unsigned int n_tables;
static char err[RT_ERR_LEN];

/* An IPv4 table (ports 0 and 1, addressed) and its IPv6 table. */
static struct rt6_table *
mk(struct rt_table **t, uint32_t max_routes, uint32_t max_nh)
{
	char name[32];
	struct rt6_table *t6;

	snprintf(name, sizeof(name), "rt6_%u", n_tables++);
	*t = rt_test_table_make(&(struct rt_table_params){.name = name,
					.socket = SOCKET_ID_ANY,
					.max_routes = 1024,
					.max_nh = max_nh},
		true);
	if (*t == NULL)
		return NULL;
	t6 = rt6_table_create(*t, &(struct rt6_table_params){.name = name,
					  .socket = SOCKET_ID_ANY,
					  .max_routes = max_routes,
					  .tbl8s = max_routes * 2 + 64});
	if (t6 == NULL)
		rt_table_free(*t);
	return t6;
}

static void
rm(struct rt_table *t, struct rt6_table *t6)
{
	rt6_table_free(t6);
	rt_table_free(t);
}

static struct rt6_addr
A(const char *s) {
	struct rt6_addr x;

	memset(&x, 0, sizeof(x));
	CHECK_EQ(rt6_addr_parse(s, &x), 0);
	return x;
}

static int
set(struct rt6_table *t6, enum rt_route_src src, uint32_t flags, const char *prefix, uint8_t plen,
	enum rt_route_kind kind, const char *gw, int port)
{
	struct rt6_route_req req = {.prefix = A(prefix),
		.plen = plen,
		.kind = kind,
		.src = src,
		.flags = flags,
		.n_hops = kind == RT_ROUTE_VIA || kind == RT_ROUTE_DEV ? 1 : 0,
		.hop[0] = {.gw = gw != NULL ? A(gw) : (struct rt6_addr){{0}}, .port = port}};

	return rt6_route_set(t6, &req, err, sizeof(err));
}

static int
del(struct rt6_table *t6, enum rt_route_src src, const char *prefix, uint8_t plen)
{
	struct rt6_route_req req = {.prefix = A(prefix), .plen = plen, .src = src};

	return rt6_route_del(t6, &req, err, sizeof(err));
}

static uint32_t
look(struct rt6_table *t6, const char *ip)
{
	const struct rt6_addr a = A(ip);

	return rt6_route_lookup(t6, &a);
}

/* the workers' form: one burst, the default beside the table */
static void
look_bulk(struct rt6_table *t6, const struct rt6_addr *ips, uint32_t *hop, unsigned int n)
{
	rt6_fib_lookup_bulk(
		t6->lpm, ips, hop, n, __atomic_load_n(&t6->default_nh, __ATOMIC_ACQUIRE));
}

static void
test_basic(void)
{
	struct rt_table *t;
	struct rt6_table *t6 = mk(&t, 256, 256);
	struct rt6_route r;
	uint32_t a, b;

	if (t6 == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(look(t6, "2001:db8::1"), RT_NH_MISS);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::1", 0), 0);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8:1::", 48, RT_ROUTE_VIA, "fe80::2", 1), 0);
	a = look(t6, "2001:db8::1");
	b = look(t6, "2001:db8:1::1");
	CHECK(a != RT_NH_MISS && b != RT_NH_MISS && a != b);
	CHECK_EQ(t->nh[a].type, RT_NH_GW);
	CHECK_EQ(t->nh[a].port, 0);
	CHECK_EQ(t->nh[b].port, 1);
	/* keyed by family: an IPv6 neighbour, sent as IPv6, never an IPv4 one */
	CHECK_EQ(t->nh_info[a].family, RT_NH_FAM_IP6);
	CHECK(rt6_addr_eq(&t->nh_info[a].ip6, &(struct rt6_addr){{0xfe, 0x80, [15] = 1}}));
	CHECK_EQ(t->nh[a].src_w >> 48, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV6));
	CHECK_EQ(rt_nh_neigh_find(t, 0), RT_NH_MISS);
	/* one neighbour next hop for every route through it */
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db9::", 32, RT_ROUTE_VIA, "fe80::1", 0), 0);
	CHECK_EQ(look(t6, "2001:db9::5"), a);
	/* the same link-local on another port is another neighbour */
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:dba::", 32, RT_ROUTE_VIA, "fe80::1", 1), 0);
	CHECK(look(t6, "2001:dba::5") != a);
	CHECK_EQ(rt6_route_count(t6), 4);

	CHECK_EQ(rt6_route_get(t6, &(struct rt6_addr){{0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 9}}, 0,
			 false, &r),
		0);
	CHECK_EQ(r.plen, 48);
	CHECK_EQ(rt6_route_get(t6, &(struct rt6_addr){{0x20, 0x01, 0x0d, 0xb8}}, 32, true, &r), 0);
	CHECK_EQ(r.kind, RT_ROUTE_VIA);
	CHECK_EQ(r.src, RT_SRC_CONFIG);
	CHECK_EQ(rt6_route_get(t6, &(struct rt6_addr){{0x20, 0x01, 0x0d, 0xb8}}, 33, true, &r),
		-ENOENT);

	/* blackhole, reject, on-link */
	CHECK_EQ(set(t6, RT_SRC_SHELL, 0, "2001:db8:2::", 48, RT_ROUTE_BLACKHOLE, NULL, 0), 0);
	CHECK_EQ(look(t6, "2001:db8:2::1"), t->nh_blackhole);
	CHECK_EQ(set(t6, RT_SRC_SHELL, 0, "2001:db8:3::", 48, RT_ROUTE_REJECT, NULL, 0), 0);
	CHECK_EQ(look(t6, "2001:db8:3::1"), t->nh_reject);
	CHECK_EQ(set(t6, RT_SRC_SHELL, 0, "2001:db8:4::", 64, RT_ROUTE_DEV, NULL, 1), 0);
	a = look(t6, "2001:db8:4::77");
	CHECK_EQ(t->nh[a].type, RT_NH_CONNECTED);
	CHECK_EQ(t->nh_info[a].family, RT_NH_FAM_IP6);

	/* delete: the covering route again */
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:db8:1::", 48), 0);
	CHECK_EQ(look(t6, "2001:db8:1::1"), look(t6, "2001:db8::1"));
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:db8:1::", 48), -ENOENT);
	rm(t, t6);
}

static void
test_default_route(void)
{
	struct rt_table *t;
	struct rt6_table *t6 = mk(&t, 64, 64);
	uint32_t d, x;

	if (t6 == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "::", 0, RT_ROUTE_VIA, "fe80::1", 0), 0);
	d = look(t6, "3fff::1");
	CHECK(d != RT_NH_MISS);
	CHECK_EQ(look(t6, "::1"), d);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::2", 0), 0);
	x = look(t6, "2001:db8::1");
	CHECK(x != d);
	CHECK_EQ(look(t6, "2001:db9::1"), d);
	/* ::/0 replaced in one step, then deleted: misses again */
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "::", 0, RT_ROUTE_VIA, "fe80::3", 1), -EEXIST);
	CHECK_EQ(
		set(t6, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, "::", 0, RT_ROUTE_VIA, "fe80::3", 1), 0);
	CHECK(look(t6, "3fff::1") != d);
	CHECK_EQ(t->nh[look(t6, "3fff::1")].port, 1);
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "::", 0), 0);
	CHECK_EQ(look(t6, "3fff::1"), RT_NH_MISS);
	CHECK_EQ(look(t6, "2001:db8::1"), x);
	rm(t, t6);
}

static void
test_bad_requests(void)
{
	struct rt_table *t;
	struct rt6_table *t6 = mk(&t, 64, 64);
	struct rt6_route_req req;

	if (t6 == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::1", 32, RT_ROUTE_VIA, "fe80::1", 0), -EINVAL);
	CHECK_CONTAINS(err, "host bits");
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 129, RT_ROUTE_VIA, "fe80::1", 0), -EINVAL);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "::", 0), -EINVAL);
	CHECK_CONTAINS(err, "unspecified");
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "::1", 0), -EINVAL);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "ff02::1", 0), -EINVAL);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "::ffff:10.0.0.2", 0),
		-EINVAL);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::1", 5), -EINVAL);
	CHECK_CONTAINS(err, "port 5");
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::1", -1), -EINVAL);
	CHECK_EQ(
		set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_LOCAL, "fe80::1", 0), -EINVAL);
	req = (struct rt6_route_req){.prefix = A("2001:db8::"),
		.plen = 32,
		.kind = RT_ROUTE_VIA,
		.src = RT_SRC_CONFIG,
		.n_hops = 2,
		.hop = {{A("fe80::1"), 0}, {A("fe80::1"), 0}}};
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "twice");
	req.n_hops = RT_ECMP_MAX + 1;
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), -EINVAL);
	req.n_hops = 0;
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), -EINVAL);
	req.kind = RT_ROUTE_BLACKHOLE;
	req.n_hops = 1;
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt6_route_count(t6), 0);

	/* owners: the operator's sources share, a sync's route is its own */
	CHECK_EQ(set(t6, RT_SRC_FPM, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::1", 0), 0);
	CHECK_EQ(set(t6, RT_SRC_SHELL, RT_ROUTE_F_REPLACE, "2001:db8::", 32, RT_ROUTE_BLACKHOLE,
			 NULL, 0),
		-EPERM);
	CHECK_CONTAINS(err, "fpm");
	CHECK_EQ(del(t6, RT_SRC_SHELL, "2001:db8::", 32), -EPERM);
	CHECK_EQ(del(t6, RT_SRC_FPM, "2001:db8::", 32), 0);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::1", 0), 0);
	CHECK_EQ(del(t6, RT_SRC_SHELL, "2001:db8::", 32), 0);
	/* full */
	rm(t, t6);
	t6 = mk(&t, 2, 64);
	if (t6 == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_BLACKHOLE, NULL, 0), 0);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db9::", 32, RT_ROUTE_BLACKHOLE, NULL, 0), 0);
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:dba::", 32, RT_ROUTE_BLACKHOLE, NULL, 0), -ENOSPC);
	/* a replace is not a new route */
	CHECK_EQ(set(t6, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, "2001:db9::", 32, RT_ROUTE_REJECT, NULL,
			 0),
		0);
	rm(t, t6);
}

static void
test_ecmp(void)
{
	struct rt_table *t;
	struct rt6_table *t6 = mk(&t, 64, 64);
	struct rt6_route_req req = {.prefix = A("2001:db8::"),
		.plen = 32,
		.kind = RT_ROUTE_VIA,
		.src = RT_SRC_CONFIG,
		.n_hops = 3,
		.hop = {{A("fe80::1"), 0}, {A("fe80::2"), 1}, {A("2001:db8:ffff::9"), 0}}};
	uint32_t g, g2, mem[RT_ECMP_MAX], single;
	uint8_t act[RT_ECMP_MAX];
	unsigned int n, i, used0;

	if (t6 == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), 0);
	g = look(t6, "2001:db8::1");
	CHECK_EQ(t->nh[g].type, RT_NH_GROUP);
	n = rt_nhgroup_members(t, g, mem, act);
	CHECK_EQ(n, 3);
	for (i = 0; i < n; i++) {
		CHECK_EQ(t->nh[mem[i]].type, RT_NH_GW);
		CHECK_EQ(t->nh_info[mem[i]].family, RT_NH_FAM_IP6);
	}
	/* the same set in another order: the same group */
	req.prefix = A("2001:db9::");
	req.hop[0] = (struct rt6_hop){A("2001:db8:ffff::9"), 0};
	req.hop[2] = (struct rt6_hop){A("fe80::1"), 0};
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), 0);
	CHECK_EQ(look(t6, "2001:db9::1"), g);
	/* a single route through a member shares its neighbour next hop */
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:dba::", 32, RT_ROUTE_VIA, "fe80::2", 1), 0);
	single = look(t6, "2001:dba::1");
	CHECK(single == mem[0] || single == mem[1] || single == mem[2]);
	/* another set: another group */
	req.prefix = A("2001:dbb::");
	req.n_hops = 2;
	CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), 0);
	g2 = look(t6, "2001:dbb::1");
	CHECK(g2 != g);
	CHECK_EQ(t->nh[g2].type, RT_NH_GROUP);
	/* the group goes with its last route */
	used0 = t->max_nh - t->n_free;
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:db8::", 32), 0);
	CHECK_EQ(t->nh_info[g].refcnt, 1);
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:db9::", 32), 0);
	CHECK_EQ(t->nh_info[g].refcnt, 0);
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:dbb::", 32), 0);
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:dba::", 32), 0);
	CHECK_EQ(rt_neigh6_find_locked(t, &(struct rt6_addr){{0xfe, 0x80, [15] = 2}}, 1),
		RT_NH_MISS);
	CHECK(used0 > 0);
	rm(t, t6);
}

/* ---- random tables against a brute-force longest match ---- */

struct ref_route {
	struct rt6_addr p;
	uint8_t plen;
	uint8_t live;
	uint32_t nh;
};

static uint64_t rs = 0x853c49e6748fea9bull;

static uint64_t
rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static uint32_t
ref_lookup(const struct ref_route *r, unsigned int n, const struct rt6_addr *ip)
{
	int best = -1;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (r[i].live && rt6_addr_in_prefix(ip, &r[i].p, r[i].plen) &&
			(best < 0 || r[i].plen > r[best].plen))
			best = (int)i;
	return best < 0 ? RT_NH_MISS : r[best].nh;
}

/* a prefix near others: a few /16 blocks, every length, so routes nest */
static void
rnd_prefix(struct rt6_addr *p, uint8_t *plen)
{
	const unsigned int k = rnd() % 16;

	rt6_addr_from_halves(
		p, (0x2001ull << 48) | ((rnd() % 4) << 32) | (rnd() >> 32 << 0), rnd());
	*plen = k == 0 ? 0 : (k < 4 ? (uint8_t)(rnd() % 129) : (uint8_t)(16 + rnd() % 49));
	rt6_addr_mask(p, *plen);
}

static void
test_random_vs_brute_force(void)
{
	enum { N = 600, PROBES = 3000, ROUNDS = 3 };
	static const char *const gws[] = {"fe80::1", "fe80::2", "2001:db8:ff::1", "fe80::a"};
	struct ref_route *ref = calloc(N, sizeof(*ref));
	struct rt6_addr ips[32];
	uint32_t hop[32], want, nh_of_gw[8];
	struct rt_table *t;
	struct rt6_table *t6 = mk(&t, N + 16, 256);
	unsigned int i, j, k, round, n = 0, bad = 0;

	if (t6 == NULL || ref == NULL) {
		CHECK(0);
		free(ref);
		return;
	}
	/*
	 * The next hop of each (gateway, port): what a route through it must find. A route of
	 * its own outside the random ones (3fff:K::/32) holds it for the whole test: a
	 * neighbour next hop nothing refers to goes, and the next route gets a fresh one.
	 */
	for (k = 0; k < 8; k++) {
		char pin[32];

		snprintf(pin, sizeof(pin), "3fff:%u::", k);
		CHECK_EQ(set(t6, RT_SRC_SHELL, 0, pin, 32, RT_ROUTE_VIA, gws[k % 4], (int)(k / 4)),
			0);
		snprintf(pin, sizeof(pin), "3fff:%u::1", k);
		nh_of_gw[k] = look(t6, pin);
	}
	for (round = 0; round < ROUNDS; round++) {
		/* add or replace a batch, delete about a third */
		for (i = 0; i < N / ROUNDS; i++) {
			struct rt6_route_req req = {.kind = RT_ROUTE_VIA,
				.src = RT_SRC_CONFIG,
				.flags = RT_ROUTE_F_REPLACE,
				.n_hops = 1};
			struct ref_route *x = NULL;

			k = rnd() % 8;
			rnd_prefix(&req.prefix, &req.plen);
			req.hop[0] = (struct rt6_hop){A(gws[k % 4]), (int)(k / 4)};
			for (j = 0; j < n; j++)
				if (ref[j].live && ref[j].plen == req.plen &&
					rt6_addr_eq(&ref[j].p, &req.prefix))
					x = &ref[j];
			if (x == NULL && n < N)
				x = &ref[n++];
			if (x == NULL)
				break;
			CHECK_EQ(rt6_route_set(t6, &req, err, sizeof(err)), 0);
			*x = (struct ref_route){req.prefix, req.plen, 1, nh_of_gw[k]};
		}
		for (j = 0; j < n; j++)
			if (ref[j].live && rnd() % 3 == 0) {
				struct rt6_route_req req = {.prefix = ref[j].p,
					.plen = ref[j].plen,
					.src = RT_SRC_CONFIG};

				CHECK_EQ(rt6_route_del(t6, &req, err, sizeof(err)), 0);
				ref[j].live = 0;
			}
		/* probes inside routes (and beside them), in bursts as the workers look up */
		for (i = 0; i < PROBES; i += 32) {
			for (j = 0; j < 32; j++) {
				const struct ref_route *x = &ref[rnd() % n];
				struct rt6_addr m;
				uint64_t hi, lo, mh, ml;

				rt6_addr_halves(&x->p, &hi, &lo);
				rt6_mask(x->plen, &m);
				rt6_addr_halves(&m, &mh, &ml);
				rt6_addr_from_halves(
					&ips[j], hi | (rnd() & ~mh), lo | (rnd() & ~ml));
				if (j % 8 == 7) /* a bit flipped near the prefix's end */
					ips[j].a[(x->plen % 128) / 8] ^=
						(uint8_t)(0x80 >> (x->plen % 8));
			}
			look_bulk(t6, ips, hop, 32);
			for (j = 0; j < 32; j++) {
				want = ref_lookup(ref, n, &ips[j]);
				if (hop[j] != want || rt6_route_lookup(t6, &ips[j]) != want)
					bad++;
			}
		}
		k = 0;
		for (j = 0; j < n; j++)
			k += ref[j].live;
		CHECK_EQ(rt6_route_count(t6), k + 8);
	}
	CHECK_EQ(bad, 0);
	/* every route deleted: no next hop left but the IPv4 table's own */
	for (j = 0; j < n; j++)
		if (ref[j].live) {
			struct rt6_route_req req = {
				.prefix = ref[j].p, .plen = ref[j].plen, .src = RT_SRC_CONFIG};

			CHECK_EQ(rt6_route_del(t6, &req, err, sizeof(err)), 0);
		}
	CHECK_EQ(rt6_route_count(t6), 8); /* the pins */
	CHECK_EQ(rt6_route_lookup(t6, &ips[0]), RT_NH_MISS);
	for (k = 0; k < 8; k++)
		CHECK_EQ(t->nh_info[nh_of_gw[k]].refcnt, 1);
	free(ref);
	rm(t, t6);
}

/* IPv4 beside: its routes and neighbours are untouched by IPv6 ones */
static void
test_ipv4_beside(void)
{
	struct rt_table *t;
	struct rt6_table *t6 = mk(&t, 64, 64);
	uint32_t v4, v6;

	if (t6 == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(rt_test_add(t, IP4(192, 0, 2, 0), 24, RT_ROUTE_VIA, IP4(10, 0, 0, 2), -1, err,
			 sizeof(err)),
		0);
	v4 = rt_route_lookup(t, IP4(192, 0, 2, 1));
	CHECK_EQ(set(t6, RT_SRC_CONFIG, 0, "2001:db8::", 32, RT_ROUTE_VIA, "fe80::1", 0), 0);
	v6 = look(t6, "2001:db8::1");
	CHECK(v4 != v6);
	CHECK_EQ(t->nh_info[v4].family, RT_NH_FAM_IP4);
	CHECK_EQ(t->nh_info[v4].ip, IP4(10, 0, 0, 2));
	CHECK_EQ(t->nh[v4].src_w >> 48, rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4));
	CHECK_EQ(rt_nh_neigh_find(t, IP4(10, 0, 0, 2)), v4);
	CHECK_EQ(del(t6, RT_SRC_CONFIG, "2001:db8::", 32), 0);
	CHECK_EQ(rt_route_lookup(t, IP4(192, 0, 2, 1)), v4);
	CHECK_EQ(rt_nh_neigh_find(t, IP4(10, 0, 0, 2)), v4);
	/* a second IPv6 table on one IPv4 table is refused */
	CHECK(rt6_table_create(t, &(struct rt6_table_params){
					  .name = "rt6_again", .socket = SOCKET_ID_ANY}) == NULL);
	CHECK_EQ(rte_errno, EINVAL);
	rm(t, t6);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_basic),
	FWD_TEST(test_default_route),
	FWD_TEST(test_bad_requests),
	FWD_TEST(test_ecmp),
	FWD_TEST(test_random_vs_brute_force),
	FWD_TEST(test_ipv4_beside),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("route-table6", 512) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_eal_cleanup();
	return ret;
}
