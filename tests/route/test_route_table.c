/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's table and config: interfaces and their validation, longest
 * prefix match edge cases (/0, /32, nested prefixes, delete and re-add,
 * neighbour routes under static ones), updates while a second lcore looks
 * routes up, and the config file syntax, good and bad lines.
 */

#include <string.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include "fwd_cfgfile.h"
#include "fwd_test.h"
#include "rt_config.h"
#include "rt_burst.h"
#include "rt_worker_setup.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"

static const struct rte_ether_addr mac_n = {{0x02, 0, 0, 0, 0x01, 0x02}};
static unsigned int n_tables;

static struct rt_table *
mk_table(void)
{
	char name[32];

	snprintf(name, sizeof(name), "rt_tbl%u", n_tables++);
	return rt_test_table_make(&(struct rt_table_params){.name = name,
					  .socket = SOCKET_ID_ANY,
					  .max_routes = 4096,
					  .max_nh = 1024,
					  .tbl8s = 256},
		true);
}

static uint32_t
nh_of(struct rt_table *t, uint32_t ip)
{
	return rt_route_lookup(t, ip);
}

static void
test_parse(void)
{
	uint32_t ip;
	uint8_t plen;

	CHECK_EQ(rt4_addr_parse("10.1.2.3", &ip), 0);
	CHECK_EQ(ip, IP4(10, 1, 2, 3));
	CHECK_EQ(rt4_addr_parse("255.255.255.255", &ip), 0);
	CHECK(rt4_addr_parse("256.1.1.1", &ip) < 0);
	CHECK(rt4_addr_parse("1.2.3", &ip) < 0);
	CHECK(rt4_addr_parse("1.2.3.4.5", &ip) < 0);
	CHECK(rt4_addr_parse("1..3.4", &ip) < 0);
	CHECK(rt4_addr_parse("0001.2.3.4", &ip) < 0);
	CHECK(rt4_addr_parse("", &ip) < 0);
	CHECK_EQ(rt4_prefix_parse("10.0.0.0/8", &ip, &plen, true), 0);
	CHECK_EQ(plen, 8);
	CHECK_EQ(rt4_prefix_parse("0.0.0.0/0", &ip, &plen, true), 0);
	CHECK_EQ(plen, 0);
	CHECK(rt4_prefix_parse("10.0.0.0/33", &ip, &plen, true) < 0);
	CHECK(rt4_prefix_parse("10.0.0.0/", &ip, &plen, true) < 0);
	CHECK(rt4_prefix_parse("10.0.0.0/-1", &ip, &plen, true) < 0);
	CHECK(rt4_prefix_parse("10.0.0.1", &ip, &plen, true) < 0);
	CHECK_EQ(rt4_prefix_parse("10.0.0.1", &ip, &plen, false), 0);
	CHECK_EQ(plen, 32);
}

static void
test_iface_validation(void)
{
	struct rt_table *t = mk_table();
	char err[RT_ERR_LEN];
	uint32_t nh;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	rt_iface_enable(t, 2, &rt_test_mac_p0);
	rt_iface_enable(t, 3, &rt_test_mac_p0);
	CHECK_EQ(rt_iface_set_addr(t, 2, IP4(10, 0, 0, 200), 16, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "overlaps port 0");
	CHECK_EQ(rt_iface_set_addr(t, 2, IP4(10, 0, 0, 129), 25, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt_iface_set_addr(t, 2, IP4(10, 0, 2, 0), 24, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "network or broadcast");
	CHECK_EQ(rt_iface_set_addr(t, 2, IP4(127, 0, 0, 1), 8, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt_iface_set_addr(t, 2, IP4(10, 0, 2, 1), 0, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt_iface_set_addr(t, 0, IP4(10, 0, 5, 1), 24, err, sizeof(err)), -EBUSY);
	CHECK_EQ(rt_iface_set_addr(t, 5, IP4(10, 0, 5, 1), 24, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt_iface_set_addr(t, 2, IP4(10, 0, 2, 1), 24, err, sizeof(err)), 0);
	CHECK_EQ(rt_iface_set_addr(t, 3, IP4(172, 16, 0, 1), 32, err, sizeof(err)), 0);
	CHECK_EQ(rt_iface_set_mtu(t, 0, 67, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "MTU 67");
	CHECK_EQ(rt_iface_set_mtu(t, 0, 9217, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt_iface_set_mtu(t, 0, 68, err, sizeof(err)), 0);
	CHECK_EQ(t->ports[0].mtu, 68);
	CHECK_EQ(rt_iface_set_mtu(t, 9, 1500, err, sizeof(err)), -EINVAL);

	/* what the address brings: local /32, broadcast, connected */
	nh = nh_of(t, IP4(10, 0, 2, 1));
	CHECK_EQ(t->nh[nh].type, RT_NH_LOCAL);
	CHECK_EQ(t->nh[nh_of(t, IP4(10, 0, 2, 255))].type, RT_NH_LOCAL);
	nh = nh_of(t, IP4(10, 0, 2, 9));
	CHECK_EQ(t->nh[nh].type, RT_NH_CONNECTED);
	CHECK_EQ(t->nh[nh].port, 2);
	CHECK_EQ(t->nh[nh_of(t, IP4(172, 16, 0, 1))].type, RT_NH_LOCAL);
	CHECK_EQ(nh_of(t, IP4(172, 16, 0, 2)), RT_NH_MISS);
	CHECK(rt_iface_is_local(t, IP4(10, 0, 1, 1)));
	CHECK(!rt_iface_is_local(t, IP4(10, 0, 1, 2)));
	CHECK_EQ(rt_iface_lookup_net(t, IP4(10, 0, 1, 200)), 1);
	CHECK_EQ(rt_iface_lookup_net(t, IP4(10, 9, 1, 200)), -1);
	rt_table_free(t);
}

static void
test_route_validation(void)
{
	struct rt_table *t = mk_table();
	char err[RT_ERR_LEN];

	if (t == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 2, 3), 16, RT_ROUTE_VIA, IP4(10, 0, 0, 2), -1, err,
			 sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "host bits");
	CHECK_CONTAINS(err, "10.1.0.0/16");
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 33, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		-EINVAL);
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 9, 0, 2), -1, err,
			 sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "not on any connected network");
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 0, 2), 1, err,
			 sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "port 0's network, not port 1's");
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 0, 1), -1, err,
			 sizeof(err)),
		-EINVAL);
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 0, 255), -1, err,
			 sizeof(err)),
		-EINVAL);
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_DEV, 0, 7, err, sizeof(err)),
		-EINVAL);
	CHECK_EQ(rt_test_add(t, IP4(10, 0, 0, 0), 24, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		-EEXIST);
	CHECK_CONTAINS(err, "own network");
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 0, 2), 0, err,
			 sizeof(err)),
		0);
	CHECK_EQ(rt_test_add(t, IP4(10, 1, 0, 0), 16, RT_ROUTE_REJECT, 0, -1, err, sizeof(err)),
		-EEXIST);
	CHECK_EQ(rt_test_del(t, IP4(10, 0, 0, 0), 24, err, sizeof(err)), -EPERM);
	CHECK_EQ(rt_test_del(t, IP4(10, 2, 0, 0), 16, err, sizeof(err)), -ENOENT);
	rt_table_free(t);
}

/*
 * The one request (struct rt4_route_req) of rt4_route_set() and
 * rt4_route_del(): it names its owner (a request left zero would be the
 * router's own, RT_SRC_SYSTEM: refused), its hops fit its kind, and one
 * request both adds and, with RT_ROUTE_F_REPLACE, turns a one-hop route
 * into an ECMP one, recording its owner.
 */
static void
test_route_request(void)
{
	struct rt_table *t = mk_table();
	struct rt4_route_req req = {
		.prefix = IP4(10, 7, 0, 0),
		.plen = 16,
		.kind = RT_ROUTE_VIA,
		.n_hops = 1,
		.hop[0] = {IP4(10, 0, 0, 2), -1},
	};
	char err[RT_ERR_LEN];
	struct rt_route r;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	/* no owner given */
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "kernel");
	CHECK_EQ(rt_route_get(t, req.prefix, req.plen, true, &r), -ENOENT);
	req.src = RT_SRC_MAX;
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), -EINVAL);
	/* hops that do not fit the kind */
	req.src = RT_SRC_SHELL;
	req.n_hops = 0;
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "0 next hops");
	req.kind = RT_ROUTE_DEV;
	req.hop[0] = (struct rt_hop){0, 0};
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "on-link");
	/* one gateway, then replaced by two in one request */
	req.kind = RT_ROUTE_VIA;
	req.n_hops = 1;
	req.hop[0] = (struct rt_hop){IP4(10, 0, 0, 2), -1};
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), 0);
	CHECK_EQ(rt_route_get(t, req.prefix, req.plen, true, &r), 0);
	CHECK_EQ(r.src, RT_SRC_SHELL);
	CHECK_EQ(t->nh[r.nh].type, RT_NH_GW);
	req.n_hops = 2;
	req.hop[1] = (struct rt_hop){IP4(10, 0, 1, 2), -1};
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), -EEXIST);
	req.flags = RT_ROUTE_F_REPLACE;
	req.src = RT_SRC_FILE;
	CHECK_EQ(rt4_route_set(t, &req, err, sizeof(err)), 0);
	CHECK_EQ(rt_route_get(t, req.prefix, req.plen, true, &r), 0);
	CHECK_EQ(r.src, RT_SRC_FILE);
	CHECK_EQ(t->nh[r.nh].type, RT_NH_GROUP);
	/* a delete reads the prefix and the owner only; a sync may not take an operator's */
	req.src = RT_SRC_SYSTEM;
	CHECK_EQ(rt4_route_del(t, &req, err, sizeof(err)), -EINVAL);
	req.src = RT_SRC_NETLINK;
	CHECK_EQ(rt4_route_del(t, &req, err, sizeof(err)), -EPERM);
	CHECK_EQ(rt4_route_del(t,
			 &(const struct rt4_route_req){
				 .prefix = req.prefix, .plen = req.plen, .src = RT_SRC_SHELL},
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_route_get(t, req.prefix, req.plen, true, &r), -ENOENT);
	rt_table_free(t);
}

static void
test_lpm_edges(void)
{
	struct rt_table *t = mk_table();
	char err[RT_ERR_LEN];
	uint32_t a, b, c, d;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(nh_of(t, IP4(8, 8, 8, 8)), RT_NH_MISS);
	/* default route */
	CHECK_EQ(rt_test_add(t, 0, 0, RT_ROUTE_VIA, IP4(10, 0, 0, 2), -1, err, sizeof(err)), 0);
	a = nh_of(t, IP4(8, 8, 8, 8));
	CHECK_EQ(t->nh[a].type, RT_NH_GW);
	CHECK_EQ(t->nh_info[a].ip, IP4(10, 0, 0, 2));
	CHECK_EQ(nh_of(t, IP4(255, 255, 255, 254)), a);
	/* nested: /8 /16 /24 /32, each wins in its range */
	CHECK_EQ(rt_test_add(t, IP4(20, 0, 0, 0), 8, RT_ROUTE_VIA, IP4(10, 0, 1, 2), -1, err,
			 sizeof(err)),
		0);
	CHECK_EQ(rt_test_add(t, IP4(20, 1, 0, 0), 16, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_add(t, IP4(20, 1, 1, 0), 24, RT_ROUTE_VIA, IP4(10, 0, 1, 3), -1, err,
			 sizeof(err)),
		0);
	CHECK_EQ(rt_test_add(t, IP4(20, 1, 1, 1), 32, RT_ROUTE_REJECT, 0, -1, err, sizeof(err)), 0);
	b = nh_of(t, IP4(20, 9, 9, 9));
	c = nh_of(t, IP4(20, 1, 1, 2));
	d = nh_of(t, IP4(20, 1, 1, 1));
	CHECK_EQ(t->nh_info[b].ip, IP4(10, 0, 1, 2));
	CHECK_EQ(t->nh[b].port, 1);
	CHECK_EQ(t->nh[nh_of(t, IP4(20, 1, 2, 3))].type, RT_NH_BLACKHOLE);
	CHECK_EQ(t->nh_info[c].ip, IP4(10, 0, 1, 3));
	CHECK_EQ(t->nh[d].type, RT_NH_REJECT);
	CHECK_EQ(t->nh_info[nh_of(t, IP4(20, 1, 1, 0))].ip, IP4(10, 0, 1, 3));
	CHECK_EQ(t->nh_info[nh_of(t, IP4(20, 1, 1, 255))].ip, IP4(10, 0, 1, 3));
	CHECK_EQ(nh_of(t, IP4(21, 0, 0, 0)), a);
	/* delete the middle: the /8 shows through, the /24 and /32 stay */
	CHECK_EQ(rt_test_del(t, IP4(20, 1, 0, 0), 16, err, sizeof(err)), 0);
	CHECK_EQ(nh_of(t, IP4(20, 1, 2, 3)), b);
	CHECK_EQ(nh_of(t, IP4(20, 1, 1, 2)), c);
	CHECK_EQ(t->nh[nh_of(t, IP4(20, 1, 1, 1))].type, RT_NH_REJECT);
	/* delete the /32 and re-add it with another next hop */
	CHECK_EQ(rt_test_del(t, IP4(20, 1, 1, 1), 32, err, sizeof(err)), 0);
	CHECK_EQ(nh_of(t, IP4(20, 1, 1, 1)), c);
	CHECK_EQ(rt_test_add(t, IP4(20, 1, 1, 1), 32, RT_ROUTE_VIA, IP4(10, 0, 0, 2), -1, err,
			 sizeof(err)),
		0);
	CHECK_EQ(nh_of(t, IP4(20, 1, 1, 1)), a); /* same gateway, same next hop */
	/* the default goes: misses again outside 20/8 */
	CHECK_EQ(rt_test_del(t, 0, 0, err, sizeof(err)), 0);
	CHECK_EQ(nh_of(t, IP4(8, 8, 8, 8)), RT_NH_MISS);
	CHECK_EQ(nh_of(t, IP4(20, 1, 1, 1)), a); /* still used by the /32 */
	CHECK_EQ(t->nh_info[a].refcnt, 1);
	CHECK_EQ(rt_test_del(t, IP4(20, 1, 1, 1), 32, err, sizeof(err)), 0);
	CHECK_EQ(t->nh_info[a].refcnt, 0); /* retired */
	CHECK_EQ(rt_test_add(t, 0, 0, RT_ROUTE_DEV, 0, 1, err, sizeof(err)), 0);
	CHECK_EQ(t->nh[nh_of(t, IP4(8, 8, 8, 8))].type, RT_NH_CONNECTED);
	CHECK_EQ(t->nh[nh_of(t, IP4(8, 8, 8, 8))].port, 1);
	rt_table_free(t);
}

static void
test_neigh_routes(void)
{
	struct rt_table *t = mk_table();
	char err[RT_ERR_LEN];
	uint32_t n, v;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(rt_neigh_static_add(t, IP4(10, 0, 1, 9), &mac_n, err, sizeof(err)), 0);
	CHECK_EQ(rt_neigh_static_add(t, IP4(10, 0, 1, 9), &mac_n, err, sizeof(err)), -EEXIST);
	CHECK_EQ(rt_neigh_static_add(t, IP4(10, 0, 7, 9), &mac_n, err, sizeof(err)), -EINVAL);
	CHECK_EQ(rt_neigh_static_add(t, IP4(10, 0, 1, 1), &mac_n, err, sizeof(err)), -EINVAL);
	/* the rule of gateways: no network or broadcast address either */
	CHECK_EQ(rt_neigh_static_add(t, IP4(10, 0, 1, 0), &mac_n, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "network or broadcast address");
	CHECK_EQ(rt_neigh_static_add(t, IP4(10, 0, 1, 255), &mac_n, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "neighbour 10.0.1.255 is the network or broadcast address");
	CHECK_EQ(rt_test_add(t, IP4(198, 20, 0, 0), 16, RT_ROUTE_VIA, IP4(10, 0, 1, 255), -1, err,
			 sizeof(err)),
		-EINVAL);
	CHECK_CONTAINS(err, "next hop 10.0.1.255 is the network or broadcast address");
	n = nh_of(t, IP4(10, 0, 1, 9));
	CHECK_EQ(t->nh[n].type, RT_NH_GW);
	CHECK(t->nh[n].l2 & RT_NH_F_VALID);
	CHECK(memcmp(&t->nh[n].l2, &mac_n, 6) == 0);
	/* a static /32 takes over, and its deletion gives the neighbour route back */
	CHECK_EQ(rt_test_add(t, IP4(10, 0, 1, 9), 32, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		0);
	CHECK_EQ(t->nh[nh_of(t, IP4(10, 0, 1, 9))].type, RT_NH_BLACKHOLE);
	CHECK_EQ(rt_test_del(t, IP4(10, 0, 1, 9), 32, err, sizeof(err)), 0);
	CHECK_EQ(nh_of(t, IP4(10, 0, 1, 9)), n);
	/* a dynamic neighbour: its route goes with its last user */
	v = rt_nh_neigh_get(t, IP4(10, 0, 0, 50), 0, true);
	CHECK(v != RT_NH_MISS);
	CHECK_EQ(nh_of(t, IP4(10, 0, 0, 50)), v);
	CHECK_EQ(rt_nh_neigh_find(t, IP4(10, 0, 0, 50)), v);
	rt_nh_neigh_put(t, v);
	CHECK_EQ(t->nh[nh_of(t, IP4(10, 0, 0, 50))].type, RT_NH_CONNECTED);
	CHECK_EQ(rt_nh_neigh_find(t, IP4(10, 0, 0, 50)), RT_NH_MISS);
	rt_table_free(t);
}

/* ---- updates while another lcore reads ---- */

static struct rt_table *rcu_t;
static volatile int rcu_stop;
static uint64_t rcu_lookups, rcu_bad;

static int
reader(void *arg)
{
	struct rte_rcu_qsbr *v = rcu_t->qsbr;
	unsigned int id = rte_lcore_id();
	static const uint32_t ips[] = {
		IP4(100, 64, 1, 5), IP4(100, 64, 2, 200), IP4(100, 65, 0, 1)};

	rte_rcu_qsbr_thread_register(v, id);
	rte_rcu_qsbr_thread_online(v, id);
	while (!rcu_stop) {
		unsigned int i;

		for (i = 0; i < RTE_DIM(ips); i++) {
			uint32_t hop;
			const struct rt_nh *nh;
			uint8_t type;
			uint32_t gw;

			hop = rt_fib_lookup(rcu_t->fib, ips[i], RT_NH_MISS);
			if (hop == RT_NH_MISS) {
				rcu_bad++; /* the covering /10 is always there */
				continue;
			}
			nh = &rcu_t->nh[hop];
			type = __atomic_load_n(&nh->type, __ATOMIC_ACQUIRE);
			gw = rcu_t->nh_info[hop].ip;
			/* one of the gateways, never a slot reused under our feet */
			if (type != RT_NH_GW || (gw != IP4(10, 0, 1, 2) && gw != IP4(10, 0, 1, 3) &&
							gw != IP4(10, 0, 1, 4)))
				rcu_bad++;
			rcu_lookups++;
		}
		rte_rcu_qsbr_quiescent(v, id);
	}
	rte_rcu_qsbr_thread_offline(v, id);
	rte_rcu_qsbr_thread_unregister(v, id);
	return 0;
}

static void
test_update_while_reading(void)
{
	char err[RT_ERR_LEN];
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), i;
	int ret = 0;

	rcu_t = mk_table();
	if (rcu_t == NULL || lcore >= RTE_MAX_LCORE) {
		printf("#   needs a second lcore and a table\n");
		CHECK(0);
		return;
	}
	CHECK_EQ(rt_test_add(rcu_t, IP4(100, 64, 0, 0), 10, RT_ROUTE_VIA, IP4(10, 0, 1, 2), -1, err,
			 sizeof(err)),
		0);
	rcu_stop = 0;
	rte_eal_remote_launch(reader, NULL, lcore);
	for (i = 0; i < 3000; i++) {
		/* /24 and /25 toggles: the /25 needs a tbl8 group, freed through RCU */
		ret |= rt_test_add(rcu_t, IP4(100, 64, 1, 0), 24, RT_ROUTE_VIA, IP4(10, 0, 1, 3),
			-1, err, sizeof(err));
		ret |= rt_test_add(rcu_t, IP4(100, 64, 2, 128), 25, RT_ROUTE_VIA,
			IP4(10, 0, 1, 3 + i % 2), -1, err, sizeof(err));
		if (i % 64 == 0)
			rte_pause();
		ret |= rt_test_del(rcu_t, IP4(100, 64, 1, 0), 24, err, sizeof(err));
		ret |= rt_test_del(rcu_t, IP4(100, 64, 2, 128), 25, err, sizeof(err));
	}
	rcu_stop = 1;
	rte_eal_wait_lcore(lcore);
	CHECK_EQ(ret, 0);
	CHECK(rcu_lookups > 0);
	CHECK_EQ(rcu_bad, 0);
	/* and the table is back where it started */
	CHECK_EQ(rcu_t->nh_info[nh_of(rcu_t, IP4(100, 64, 2, 200))].ip, IP4(10, 0, 1, 2));
	rt_table_free(rcu_t);
}

/* ---- config ---- */

static int
parse(const char *text, struct rt_config *cfg, char *err, size_t len)
{
	rt_config_free(cfg);              /* what the last parse grew; a static cfg starts empty */
	cfg->where = fwd_cfgfile_where(); /* as the app does: each line's origin is kept */
	err[0] = '\0';
	return fwd_cfgfile_parse("r.ini", text, strlen(text), rt_config_cfgfile_cb, cfg, err, len);
}

static const char good_cfg[] = "[port 0]\n"
			       "ip = 10.0.0.1/24\n"
			       "mtu = 9000\n"
			       "[port 1]\n"
			       "ip = 10.0.1.1/24   # uplink\n"
			       "[route]\n"
			       "route = 198.18.0.0/16 via 10.0.1.2\n"
			       "route = 198.19.0.0/16 via 10.0.0.2 dev 0\n"
			       "route = 0.0.0.0/0 dev 1\n"
			       "route = 192.0.2.1 via 10.0.1.3\n"
			       "blackhole = 192.0.2.0/24\n"
			       "reject = 198.51.100.0/24\n"
			       "[neigh]\n"
			       "10.0.1.2 = 02:00:00:00:01:02\n";

static void
test_config_good(void)
{
	static struct rt_config cfg;
	char err[256];
	struct rt_table *t;
	uint32_t nh;

	CHECK_EQ(parse(good_cfg, &cfg, err, sizeof(err)), 0);
	CHECK_EQ(cfg.n_routes, 6);
	CHECK_EQ(cfg.n_neigh, 1);
	CHECK(cfg.ports[0].has_ip && cfg.ports[0].has_mtu && cfg.ports[0].mtu == 9000);
	CHECK_EQ(cfg.routes[1].port, 0);
	CHECK_EQ(cfg.routes[3].plen, 32);
	CHECK_EQ(cfg.routes[2].kind, RT_ROUTE_DEV);

	t = rt_table_create(&(struct rt_table_params){.name = "rt_cfg",
		.socket = SOCKET_ID_ANY,
		.max_routes = 4096,
		.max_nh = 1024,
		.tbl8s = 256});
	if (t == NULL) {
		CHECK(0);
		return;
	}
	rt_iface_enable(t, 0, &rt_test_mac_p0);
	CHECK_EQ(rt_config_apply(&cfg, t, err, sizeof(err)), -ENODEV);
	CHECK_CONTAINS(err, "[port 1]");
	rt_table_free(t);

	/* what only the table finds names the line: 6 next hops run out at the second gateway */
	t = rt_table_create(&(struct rt_table_params){.name = "rt_cfg1",
		.socket = SOCKET_ID_ANY,
		.max_nh = 6,
		.max_routes = 4096,
		.tbl8s = 256});
	rt_iface_enable(t, 0, &rt_test_mac_p0);
	rt_iface_enable(t, 1, &rt_test_mac_p1);
	CHECK_EQ(rt_config_apply(&cfg, t, err, sizeof(err)), -ENOSPC);
	CHECK_CONTAINS(err, "r.ini:8: no free next hop");
	rt_table_free(t);

	t = rt_table_create(&(struct rt_table_params){.name = "rt_cfg2",
		.socket = SOCKET_ID_ANY,
		.max_routes = 4096,
		.max_nh = 1024,
		.tbl8s = 256});
	rt_iface_enable(t, 0, &rt_test_mac_p0);
	rt_iface_enable(t, 1, &rt_test_mac_p1);
	CHECK_EQ(rt_config_apply(&cfg, t, err, sizeof(err)), 0);
	CHECK_EQ(t->ports[0].mtu, 9000);
	CHECK_EQ(t->ports[1].mtu, RT_MTU_DEFAULT);
	nh = nh_of(t, IP4(198, 18, 3, 4));
	CHECK_EQ(t->nh_info[nh].ip, IP4(10, 0, 1, 2));
	CHECK(t->nh[nh].l2 & RT_NH_F_VALID); /* the static neighbour */
	CHECK_EQ(t->nh_info[nh_of(t, IP4(192, 0, 2, 1))].ip, IP4(10, 0, 1, 3));
	CHECK_EQ(t->nh[nh_of(t, IP4(192, 0, 2, 2))].type, RT_NH_BLACKHOLE);
	CHECK_EQ(t->nh[nh_of(t, IP4(198, 51, 100, 2))].type, RT_NH_REJECT);
	CHECK_EQ(t->nh[nh_of(t, IP4(1, 1, 1, 1))].type, RT_NH_CONNECTED);
	rt_table_free(t);
}

static void
test_config_bad(void)
{
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{"[port 0]\nip = 10.0.0.1\n", "r.ini:2: ip '10.0.0.1' is not ADDRESS/LENGTH"},
		{"[port 0]\nip = 10.0.0.0/24\n", "r.ini:2: 10.0.0.0/24 is not a usable"},
		{"[port 0]\nip = 10.0.0.1/24\nip = 10.0.0.2/24\n",
			"r.ini:3: port 0: ip given twice"},
		{"[port 0]\nip = 10.0.0.1/24\n[port 1]\nip = 10.0.0.9/16\n",
			"r.ini:4: 10.0.0.9/16 overlaps port 0"},
		{"[port 0]\nmtu = 67\n", "r.ini:2: mtu '67'"},
		{"[port 0]\nmtu = 9217\n", "r.ini:2: mtu"},
		{"[port 0]\nmtu = 1500x\n", "r.ini:2: mtu"},
		{"[port 0]\nspeed = 10\n", "r.ini:2: unknown key 'speed'"},
		{"[port 99]\nmtu = 1500\n", "r.ini:2: unknown section [port 99]"},
		{"[route]\nroute = 10.1.0.0/16 via 10.0.0.2\n",
			"r.ini:2: next hop 10.0.0.2 is not on any connected network"},
		{"[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 10.1.2.0/16 via 10.0.0.2\n",
			"r.ini:4: 10.1.2.0/16 has host bits set (did you mean 10.1.0.0/16?)"},
		{"[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 10.1.0.0/16 via 10.0.0.2 dev 1\n",
			"r.ini:4: next hop 10.0.0.2 is on port 0's network, not port 1's"},
		{"[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 10.1.0.0/16 via 10.0.0.1\n",
			"r.ini:4: next hop 10.0.0.1 is the router's own"},
		{"[port 0]\nip = 10.0.0.1/24\n[route]\nroute = 10.1.0.0/16 dev 1\n",
			"r.ini:4: port 1 has no ip"},
		{"[port 0]\nip = 10.0.0.1/24\n[route]\nblackhole = 10.1.0.0/16\nreject = 10.1.0.0/16\n",
			"r.ini:5: a route to 10.1.0.0/16 is already given"},
		{"[port 0]\nip = 10.0.0.1/24\n[route]\nblackhole = 10.0.0.0/24\n",
			"r.ini:4: 10.0.0.0/24 is port 0's own network"},
		{"[route]\nroute = 10.1.0.0/16\n", "r.ini:2: expected 'route = PREFIX via"},
		{"[route]\nroute = 10.1.0.0/16 through 10.0.0.2\n",
			"r.ini:2: unexpected 'through'"},
		{"[route]\nroute = 10.1.0.0/40 dev 0\n", "r.ini:2: '10.1.0.0/40' is not a prefix"},
		{"[route]\nblackhole = 1.2.3.0/24 extra\n",
			"r.ini:2: expected 'blackhole = PREFIX'"},
		{"[route]\nmulticast = 1.2.3.0/24\n", "r.ini:2: unknown key 'multicast'"},
		{"[port 0]\nip = 10.0.0.1/24\n[neigh]\n10.0.0.2 = 01:00:5e:00:00:01\n",
			"r.ini:4: '01:00:5e:00:00:01' is not a unicast MAC"},
		{"[port 0]\nip = 10.0.0.1/24\n[neigh]\n10.0.9.2 = 02:00:00:00:00:01\n",
			"r.ini:4: neighbour 10.0.9.2 is not on any connected network"},
		{"[neigh]\nrouter = 02:00:00:00:00:01\n", "r.ini:2: expected 'ADDRESS = MAC'"},
		{"[port 0]\nip = 10.0.0.1/24\n[neigh]\n10.0.0.2 = 02:00:00:00:00:01\n10.0.0.2 = "
		 "02:00:00:00:00:02\n",
			"r.ini:5: neighbour 10.0.0.2 is already given"},
	};
	static struct rt_config cfg;
	char err[256];
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		int ret = parse(bad[i].text, &cfg, err, sizeof(err));

		CHECK(ret < 0);
		CHECK_CONTAINS(err, bad[i].msg);
	}
	CHECK(rt_config_owns_section("port 3"));
	CHECK(rt_config_owns_section("route"));
	CHECK(rt_config_owns_section("neigh"));
	CHECK(!rt_config_owns_section("forward"));
}

/* The longest route covering @p ip among @p n routes, by brute force. */
static const struct rt_route *
longest_of(const struct rt_route *all, uint32_t n, uint32_t ip)
{
	const struct rt_route *best = NULL;
	uint32_t i;

	for (i = 0; i < n; i++)
		if (((ip ^ all[i].prefix) & rt4_mask(all[i].plen)) == 0 &&
			(best == NULL || all[i].plen > best->plen))
			best = &all[i];
	return best;
}

/*
 * `show route ADDRESS` (rt_route_get(), not exact) takes the route's length
 * from the lookup table and finds it by the RIB's index: it must give what
 * the longest match over every route gives, routes longer than /24 (tbl8)
 * and deletions included, with and without a default route.
 */
static void
test_covering_route(void)
{
	static struct rt_route all[4096];
	struct rt_table *t = mk_table();
	char err[RT_ERR_LEN];
	uint32_t i, n, seed = 12345, bad = 0, added = 0, pass;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	for (i = 0; i < 1500; i++) {
		uint8_t plen;
		uint32_t ip;

		seed = seed * 1103515245u + 12345u;
		plen = (uint8_t)(i % 10 == 9 ? 25 + (seed >> 24) % 8 : 1 + (seed >> 24) % 24);
		seed = seed * 1103515245u + 12345u;
		ip = (seed ^ (seed << 13)) & rt4_mask(plen);
		added += rt_test_add(t, ip, plen, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)) == 0;
	}
	CHECK(added > 1000);
	for (pass = 0; pass < 3; pass++) {
		if (pass == 1) { /* a third of them go */
			n = rt_route_list_within(t, 0, 0, 0, all, RTE_DIM(all));
			for (i = 0; i < n; i += 3)
				if (all[i].kind == RT_ROUTE_BLACKHOLE)
					CHECK_EQ(rt_test_del(t, all[i].prefix, all[i].plen, err,
							 sizeof(err)),
						0);
		}
		if (pass == 2)
			CHECK_EQ(rt_test_add(t, 0, 0, RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
				0);
		n = rt_route_list_within(t, 0, 0, 0, all, RTE_DIM(all));
		for (i = 0; i < 20000; i++) {
			uint32_t ip;
			const struct rt_route *want;
			struct rt_route got;
			int ret;

			seed = seed * 1103515245u + 12345u;
			/* half inside a route (often a long one), half anywhere */
			ip = i % 2 == 0 ? all[(seed >> 8) % n].prefix | ((seed * 7u) & 0xff)
					: seed ^ (seed >> 7);
			want = longest_of(all, n, ip);
			ret = rt_route_get(t, ip, 32, false, &got);
			bad += want == NULL ? ret != -ENOENT
					    : ret != 0 || got.prefix != want->prefix ||
						      got.plen != want->plen;
		}
		CHECK_EQ(bad, 0);
	}
	rt_table_free(t);
}

/*
 * The summary's next hops are the slots in use: after add/del cycles an
 * empty table says what it said before them, the released slots apart
 * (once it said "16 of 16" on a table of no route: retired slots counted).
 */
static void
test_summary_next_hops(void)
{
	struct rt_table *t = rt_test_table_make(&(struct rt_table_params){.name = "rt_nh_sum",
							.socket = SOCKET_ID_ANY,
							.max_routes = 64,
							.max_nh = 16},
		true);
	struct rt_route_summary s0, s;
	const struct rt_hop hops[] = {{IP4(10, 0, 0, 2), -1}, {IP4(10, 0, 1, 2), -1}};
	char err[RT_ERR_LEN];
	unsigned int cycle, i;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	rt_route_summary_get(t, &s0);
	CHECK_EQ(s0.nh_retiring, 0);
	for (cycle = 0; cycle < 4; cycle++) {
		for (i = 0; i < 8; i++)
			CHECK_EQ(rt_test_add(t, IP4(172, 16, i, 0), 24, RT_ROUTE_VIA,
					 IP4(10, 0, (i & 1), 3 + i), -1, err, sizeof(err)),
				0);
		CHECK_EQ(rt_test_set_multi(t, RT_SRC_CONFIG, 0, IP4(172, 17, 0, 0), 16, hops, 2,
				 err, sizeof(err)),
			0);
		rt_route_summary_get(t, &s);
		CHECK(s.nh_used > s0.nh_used + 8);
		for (i = 0; i < 8; i++)
			CHECK_EQ(rt_test_del(t, IP4(172, 16, i, 0), 24, err, sizeof(err)), 0);
		CHECK_EQ(rt_test_del(t, IP4(172, 17, 0, 0), 16, err, sizeof(err)), 0);
		rt_route_summary_get(t, &s);
		CHECK_EQ(s.routes, s0.routes);
		CHECK_EQ(s.nh_used, s0.nh_used);
		CHECK(s.nh_retiring > 0 && s.nh_used + s.nh_retiring <= s.nh_max);
	}
	rt_table_free(t);
}

/*
 * A delete leaves no lookup entry behind: each route deleted in turn with no
 * covering route (a miss after), under only the default (the default after:
 * the lookup has no /0 of its own) and under a covering /8 (the /8 after),
 * at lengths in the first level (/16), at its end (/24) and in the second
 * (/28, /32), checked at the first and last address of the prefix.
 */
static void
test_delete_leaves_no_entry(void)
{
	static const uint8_t lens[] = {16, 24, 28, 32};
	struct rt_table *t = mk_table();
	char err[RT_ERR_LEN];
	unsigned int cover, i;
	uint32_t under;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	/* cover 0: nothing under the prefixes; 1: the default; 2: the default and a /8 */
	for (cover = 0; cover < 3; cover++) {
		if (cover == 1)
			CHECK_EQ(rt_test_add(t, 0, 0, RT_ROUTE_VIA, IP4(10, 0, 0, 2), -1, err,
					 sizeof(err)),
				0);
		if (cover == 2)
			CHECK_EQ(rt_test_add(t, IP4(100, 0, 0, 0), 8, RT_ROUTE_VIA,
					 IP4(10, 0, 1, 2), -1, err, sizeof(err)),
				0);
		under = nh_of(t, IP4(100, 64, 0, 0));
		CHECK_EQ(under, cover == 0 ? RT_NH_MISS : nh_of(t, IP4(100, 200, 0, 0)));
		for (i = 0; i < RTE_DIM(lens); i++) {
			const uint32_t p = IP4(100, 64, 7, 16) & rt4_mask(lens[i]);
			const uint32_t last = p | ~rt4_mask(lens[i]);

			CHECK_EQ(rt_test_add(
					 t, p, lens[i], RT_ROUTE_REJECT, 0, -1, err, sizeof(err)),
				0);
			CHECK_EQ(nh_of(t, p), t->nh_reject);
			CHECK_EQ(nh_of(t, last), t->nh_reject);
			CHECK_EQ(rt_test_del(t, p, lens[i], err, sizeof(err)), 0);
			if (nh_of(t, p) != under || nh_of(t, last) != under)
				printf("#   cover %u: /%u left its entry\n", cover, lens[i]);
			CHECK_EQ(nh_of(t, p), under);
			CHECK_EQ(nh_of(t, last), under);
		}
	}
	rt_table_free(t);
}

/*
 * What a sync owns only that sync changes: the shell neither deletes nor
 * replaces (one hop or ECMP) a netlink or an FPM route, each refusal names
 * the owner and is counted; one sync does not touch the other's (not
 * counted: the sync counts its own as not_ours); the operator's sources
 * change each other's routes; a flush deletes the operator's routes, keeps
 * the syncs' and says which by source; the sync's own delete still works.
 */
static void
test_sync_owned(void)
{
	struct rt_table *t = mk_table();
	const struct rt_hop two[] = {{IP4(10, 0, 0, 2), -1}, {IP4(10, 0, 1, 2), -1}};
	struct rt_route_flush_counts c;
	struct rt_route_summary sum;
	char err[RT_ERR_LEN];
	struct rt_route r;
	uint32_t fpm_nh;

	if (t == NULL) {
		CHECK(0);
		return;
	}
	CHECK_EQ(rt_test_set(t, RT_SRC_FPM, 0, IP4(172, 16, 0, 0), 16, RT_ROUTE_VIA,
			 IP4(10, 0, 0, 2), -1, err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, 0, IP4(172, 17, 0, 0), 16, RT_ROUTE_BLACKHOLE, 0,
			 -1, err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_CONFIG, 0, IP4(172, 18, 0, 0), 16, RT_ROUTE_REJECT, 0, -1,
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_FILE, 0, IP4(172, 19, 0, 0), 16, RT_ROUTE_REJECT, 0, -1, err,
			 sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_SHELL, 0, IP4(172, 20, 0, 0), 16, RT_ROUTE_REJECT, 0, -1,
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_test_set(t, RT_SRC_SHELL, 0, IP4(172, 21, 0, 0), 16, RT_ROUTE_REJECT, 0, -1,
			 err, sizeof(err)),
		0);
	fpm_nh = nh_of(t, IP4(172, 16, 0, 1));

	/* the shell: refused, the owner named, counted; the route as it was */
	CHECK_EQ(rt_test_del_from(t, RT_SRC_SHELL, IP4(172, 16, 0, 0), 16, err, sizeof(err)),
		-EPERM);
	CHECK_CONTAINS(err, "route of fpm");
	CHECK_EQ(rt_test_set(t, RT_SRC_SHELL, RT_ROUTE_F_REPLACE, IP4(172, 16, 0, 0), 16,
			 RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		-EPERM);
	CHECK_CONTAINS(err, "only its sync");
	CHECK_EQ(rt_test_set_multi(t, RT_SRC_SHELL, RT_ROUTE_F_REPLACE, IP4(172, 16, 0, 0), 16, two,
			 2, err, sizeof(err)),
		-EPERM);
	CHECK_EQ(rt_test_set(t, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, IP4(172, 17, 0, 0), 16,
			 RT_ROUTE_REJECT, 0, -1, err, sizeof(err)),
		-EPERM);
	CHECK_CONTAINS(err, "route of netlink");
	CHECK_EQ(nh_of(t, IP4(172, 16, 0, 1)), fpm_nh);
	CHECK_EQ(rt_route_get(t, IP4(172, 16, 0, 0), 16, true, &r), 0);
	CHECK_EQ(r.src, RT_SRC_FPM);
	CHECK_EQ(nh_of(t, IP4(172, 17, 0, 1)), t->nh_blackhole);
	rt_route_summary_get(t, &sum);
	CHECK_EQ(sum.refused_synced, 4);
	/* one sync and the other's: refused, not counted here */
	CHECK_EQ(rt_test_del_from(t, RT_SRC_FPM, IP4(172, 17, 0, 0), 16, err, sizeof(err)), -EPERM);
	CHECK_EQ(rt_test_set(t, RT_SRC_NETLINK, RT_ROUTE_F_REPLACE, IP4(172, 16, 0, 0), 16,
			 RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		-EPERM);
	rt_route_summary_get(t, &sum);
	CHECK_EQ(sum.refused_synced, 4);
	/* the operator's sources share: the shell deletes a config route, replaces a file's */
	CHECK_EQ(rt_test_del_from(t, RT_SRC_SHELL, IP4(172, 18, 0, 0), 16, err, sizeof(err)), 0);
	CHECK_EQ(rt_test_set(t, RT_SRC_SHELL, RT_ROUTE_F_REPLACE, IP4(172, 19, 0, 0), 16,
			 RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err)),
		0);
	CHECK_EQ(rt_route_get(t, IP4(172, 19, 0, 0), 16, true, &r), 0);
	CHECK_EQ(r.src, RT_SRC_SHELL);
	/* a flush: the operator's go, the syncs' stay, each counted by source */
	CHECK_EQ(rt_test_set(t, RT_SRC_CONFIG, 0, IP4(172, 18, 0, 0), 16, RT_ROUTE_REJECT, 0, -1,
			 err, sizeof(err)),
		0);
	CHECK_EQ(rt_route_flush(t, &c), 4);
	CHECK_EQ(c.flushed[RT_SRC_SHELL], 3);
	CHECK_EQ(c.flushed[RT_SRC_CONFIG], 1);
	CHECK_EQ(c.flushed[RT_SRC_FPM] + c.flushed[RT_SRC_NETLINK], 0);
	CHECK_EQ(c.kept[RT_SRC_FPM], 1);
	CHECK_EQ(c.kept[RT_SRC_NETLINK], 1);
	CHECK_EQ(c.kept[RT_SRC_SYSTEM], 0); /* connected and local routes are not "kept" routes */
	CHECK_EQ(nh_of(t, IP4(172, 16, 0, 1)), fpm_nh);
	CHECK_EQ(nh_of(t, IP4(172, 17, 0, 1)), t->nh_blackhole);
	CHECK_EQ(nh_of(t, IP4(172, 18, 0, 1)), RT_NH_MISS);
	CHECK_EQ(nh_of(t, IP4(172, 21, 0, 1)), RT_NH_MISS);
	CHECK_EQ(rt_route_flush(t, NULL), 0);
	/* zebra's delete of its own route is not refused (it was "not_ours" once taken over) */
	CHECK_EQ(rt_test_del_from(t, RT_SRC_FPM, IP4(172, 16, 0, 0), 16, err, sizeof(err)), 0);
	CHECK_EQ(rt_test_del_from(t, RT_SRC_NETLINK, IP4(172, 17, 0, 0), 16, err, sizeof(err)), 0);
	CHECK_EQ(nh_of(t, IP4(172, 16, 0, 1)), RT_NH_MISS);
	rt_table_free(t);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_summary_next_hops),
	FWD_TEST(test_parse),
	FWD_TEST(test_iface_validation),
	FWD_TEST(test_route_validation),
	FWD_TEST(test_lpm_edges),
	FWD_TEST(test_covering_route),
	FWD_TEST(test_neigh_routes),
	FWD_TEST(test_update_while_reading),
	FWD_TEST(test_config_good),
	FWD_TEST(test_config_bad),
	FWD_TEST(test_delete_leaves_no_entry),
	FWD_TEST(test_sync_owned),
	FWD_TEST(test_route_request),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("route-table", 128) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_eal_cleanup();
	return ret;
}
