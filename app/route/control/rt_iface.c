/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The table's interfaces (rt_table.h, "Enable port"...): a port's MAC, its
 * address with the connected and local routes it brings, its MTU and the
 * copies of it the next hops carry, and the one check of a gateway or a
 * static neighbour against the connected networks.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rt_ipv4.h"
#include "rt_log.h"
#include "rt_table.h"
#include "rt_table_priv.h"

int
rt_iface_lookup_net(const struct rt_table *t, uint32_t ip)
{
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++) {
		const struct rt_port *port = &t->ports[p];

		if (port->ip != 0 && ((ip ^ port->ip) & rt4_mask(port->plen)) == 0)
			return p;
	}
	return -1;
}

bool
rt_iface_is_local(const struct rt_table *t, uint32_t ip)
{
	uint16_t p;

	for (p = 0; p < RTE_MAX_ETHPORTS; p++)
		if (t->ports[p].ip != 0 && t->ports[p].ip == ip)
			return true;
	return false;
}

int
rt_iface_enable(struct rt_table *t, uint16_t port, const struct rte_ether_addr *mac)
{
	struct rt_port *p;

	if (port >= RTE_MAX_ETHPORTS || mac == NULL)
		return -EINVAL;
	pthread_mutex_lock(&t->lock);
	p = &t->ports[port];
	p->mac = *mac;
	p->mac_w = 0;
	memcpy(&p->mac_w, mac, RTE_ETHER_ADDR_LEN);
	if (p->mtu == 0)
		p->mtu = RT_MTU_DEFAULT;
	p->enabled = 1;
	pthread_mutex_unlock(&t->lock);
	return 0;
}

int
rt_iface_trust_rx_cksum(struct rt_table *t, uint16_t port, bool on)
{
	if (t == NULL || port >= RTE_MAX_ETHPORTS || !t->ports[port].enabled)
		return -EINVAL;
	__atomic_store_n(&t->ports[port].rx_cksum, on ? 1 : 0, __ATOMIC_RELAXED);
	return 0;
}

int
rt_iface_set_twin(struct rt_table *t, uint16_t port, bool on)
{
	if (t == NULL || port >= RTE_MAX_ETHPORTS || !t->ports[port].enabled)
		return -EINVAL;
	__atomic_store_n(&t->ports[port].twin, on ? 1 : 0, __ATOMIC_RELAXED);
	return 0;
}

static int
set_addr_locked(
	struct rt_table *t, uint16_t port, uint32_t ip, uint8_t plen, char *err, size_t errlen)
{
	struct rt_port *p = &t->ports[port];
	uint32_t mask = rt4_mask(plen), net = ip & mask, bcast = net | ~mask;
	char a[16], b[16];
	uint32_t nh;
	uint16_t q;
	int ret;

	if (!p->enabled) {
		snprintf(err, errlen, "port %u is not used by the router", port);
		return -EINVAL;
	}
	if (p->ip != 0) {
		snprintf(err, errlen, "port %u already has address %s/%u", port,
			rt4_addr_str(p->ip, a), p->plen);
		return -EBUSY;
	}
	if (plen == 0 || plen > 32 || rt_ipv4_martian_src(ip)) {
		snprintf(err, errlen, "%s/%u is not a usable interface address",
			rt4_addr_str(ip, a), plen);
		return -EINVAL;
	}
	if (rt4_net_bcast_or_net(ip, plen)) {
		snprintf(err, errlen, "%s is the network or broadcast address of %s/%u",
			rt4_addr_str(ip, a), rt4_addr_str(net, b), plen);
		return -EINVAL;
	}
	for (q = 0; q < RTE_MAX_ETHPORTS; q++) {
		const struct rt_port *o = &t->ports[q];
		uint8_t l = RTE_MIN(plen, o->plen);

		if (q == port || o->ip == 0 || ((ip ^ o->ip) & rt4_mask(l)) != 0)
			continue;
		snprintf(err, errlen, "%s/%u overlaps port %u's network %s/%u", rt4_addr_str(ip, a),
			plen, q, rt4_addr_str(o->ip & rt4_mask(o->plen), b), o->plen);
		return -EINVAL;
	}
	if ((plen < 32 && rt_route_find_locked(t, net, plen) != NULL) ||
		rt_route_find_locked(t, ip, 32) != NULL ||
		(plen <= 30 && rt_route_find_locked(t, bcast, 32) != NULL)) {
		snprintf(err, errlen, "a route to %s/%u or to the address already exists",
			rt4_addr_str(net, a), plen);
		return -EEXIST;
	}

	nh = rt_nh_alloc_locked(t, RT_NH_CONNECTED, port, 0);
	if (nh == RT_NH_MISS) {
		rt_nh_full_err(t, err, errlen);
		return -ENOSPC;
	}
	t->nh_info[nh].refcnt = 1; /* the port's own reference */
	t->nh_connected[port] = nh;
	ret = rt_route_insert_locked(t, ip, 32, RT_ROUTE_LOCAL, port, 0, t->nh_local);
	if (ret == 0 && plen < 32)
		ret = rt_route_insert_locked(t, net, plen, RT_ROUTE_CONNECTED, port, 0, nh);
	if (ret == 0 && plen <= 30)
		ret = rt_route_insert_locked(t, bcast, 32, RT_ROUTE_LOCAL, port, 0, t->nh_local);
	if (ret < 0) {
		rt_route_insert_err(t, ret, err, errlen);
		return ret;
	}
	p->plen = plen;
	p->ip = ip;
	RT_LOG(INFO, "port %u: %s/%u mtu %u\n", port, rt4_addr_str(ip, a), plen, p->mtu);
	return 0;
}

int
rt_iface_set_addr(
	struct rt_table *t, uint16_t port, uint32_t ip, uint8_t plen, char *err, size_t errlen)
{
	int ret;

	if (port >= RTE_MAX_ETHPORTS) {
		snprintf(err, errlen, "port %u out of range", port);
		return -EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	ret = set_addr_locked(t, port, ip, plen, err, errlen);
	pthread_mutex_unlock(&t->lock);
	return ret;
}

int
rt_iface_set_mtu(struct rt_table *t, uint16_t port, uint32_t mtu, char *err, size_t errlen)
{
	uint32_t i;

	if (port >= RTE_MAX_ETHPORTS || !t->ports[port].enabled) {
		snprintf(err, errlen, "port %u is not used by the router", port);
		return -EINVAL;
	}
	if (mtu < RT_MTU_MIN || mtu > RT_MTU_MAX) {
		snprintf(err, errlen, "MTU %u out of range %u..%u", mtu, RT_MTU_MIN, RT_MTU_MAX);
		return -EINVAL;
	}
	pthread_mutex_lock(&t->lock);
	__atomic_store_n(&t->ports[port].mtu, (uint16_t)mtu, __ATOMIC_RELAXED);
	/* and the copies the workers read */
	for (i = 0; i < t->max_nh; i++)
		if (t->nh[i].type != RT_NH_FREE && t->nh[i].port == port)
			__atomic_store_n(&t->nh[i].mtu, (uint16_t)mtu, __ATOMIC_RELAXED);
	rt_table_gen_bump(t);
	pthread_mutex_unlock(&t->lock);
	return 0;
}

bool
rt_iface_is_subnet_bcast(const struct rt_table *t, uint32_t ip)
{
	int net = rt_iface_lookup_net(t, ip);

	return net >= 0 && rt4_net_bcast_or_net(ip, t->ports[net].plen);
}

/*
 * The one check of a gateway or a static neighbour (@p what names it in the
 * message): on a connected network (port @p port's if >= 0), and neither the
 * router's address nor the network's network or broadcast address.
 */
int
rt_gw_check_locked(const struct rt_table *t, const char *what, uint32_t ip, int port, int *out_port,
	char *err, size_t errlen)
{
	int net = rt_iface_lookup_net(t, ip);
	const char *why;
	char a[16];

	why = net < 0 ? "not on any connected network"
		      : rt4_neigh_addr_invalid(ip, t->ports[net].ip, t->ports[net].plen);
	if (why != NULL) {
		snprintf(err, errlen, "%s %s is %s", what, rt4_addr_str(ip, a), why);
		return -EINVAL;
	}
	if (port >= 0 && net != port) {
		snprintf(err, errlen, "%s %s is on port %d's network, not port %d's", what,
			rt4_addr_str(ip, a), net, port);
		return -EINVAL;
	}
	*out_port = net;
	return 0;
}
