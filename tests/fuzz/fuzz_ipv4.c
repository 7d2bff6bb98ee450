/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: any bytes as one frame through the router's input checks
 * and rt_route_burst(), or the flow stage (rt_flow_route_burst(): flow key,
 * flowsort, flow table, filter), then whatever it hands over through the slow
 * path (ARP, ICMP errors and echo, fragmentation). Built with clang
 * -fsanitize=fuzzer,address,undefined by scripts/fuzz.sh. The frame sits in a
 * malloc'd buffer of exactly its size, so any read past its end is an ASan
 * error. Must never crash, and must account for the frame exactly once:
 * forwarded, handed to the slow path, or dropped under one reason.
 *
 * The first input byte steers the frame past the checks a mutator rarely
 * gets right by chance: bit 0 fixes the IPv4 header checksum, bit 1 writes
 * the port's MAC as destination, bit 2 marks the checksum NIC-verified, bit 3
 * makes the port one whose checksum flags are trusted. Bit 4 routes through
 * the flow stage, with flowsort off, on or auto by bits 5-6; bit 7 makes the
 * burst two frames, the second a copy of the first in a pool mbuf.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fuzz_lsan.h"
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "rt_acl.h"
#include "rt_control.h"
#include "rt_flow_ctl.h"
#include "rt_burst.h"
#include "rt_worker_setup.h"
#include "rt_table.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rte_mempool *pool, *slow_pool;
static struct rte_ring *punt;
static struct rt_table *tbl;
static struct rt_control *ctl;
static struct rt_worker wk;
static struct rte_ring *txr[2];
static uint16_t port[2];
static struct rt_acl *acl;
static struct rt_flow *flow;

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct rte_ether_addr gw = {{0x02, 0, 0, 0, 1, 2}};
	char prefix[64], err[RT_ERR_LEN];
	char *args[] = {"fuzz", "--no-huge", "-m", "128", "--no-pci", "--file-prefix", prefix,
		"--log-level", "*:error", NULL};
	struct rt_control_params cp = {0};
	unsigned int i;
	int ret = 0;

	snprintf(prefix, sizeof(prefix), "fuzz-ipv4-%d", (int)getpid());
	if (rte_eal_init(9, args) < 0)
		abort();
	fuzz_lsan_scan_dpdk_memory();
	fuzz_clean_rundir_at_exit();
	pool = rte_pktmbuf_pool_create("fz", 1023, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	slow_pool = rte_pktmbuf_pool_create("fz_slow", 8191, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	tbl = rt_table_create(&(struct rt_table_params){.name = "fz",
		.socket = SOCKET_ID_ANY,
		.max_routes = 4096,
		.max_nh = 1024,
		.tbl8s = 256});
	if (pool == NULL || slow_pool == NULL || tbl == NULL)
		abort();
	for (i = 0; i < 2; i++) {
		struct rte_ether_addr mac;
		char name[32];
		int p;

		snprintf(name, sizeof(name), "fz_tx%u", i);
		txr[i] = rte_ring_create(name, 1024, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "net_ring_fz%u", i);
		p = rte_eth_from_rings(name, &txr[i], 1, &txr[i], 1, 0);
		if (txr[i] == NULL || p < 0)
			abort();
		port[i] = (uint16_t)p;
		rte_eth_dev_configure(p, 1, 1, &(struct rte_eth_conf){0});
		rte_eth_rx_queue_setup(p, 0, 64, 0, NULL, pool);
		rte_eth_tx_queue_setup(p, 0, 1024, 0, NULL);
		rte_eth_dev_start(p);
		rte_eth_macaddr_get(p, &mac);
		ret |= rt_iface_enable(tbl, port[i], &mac);
	}
	ret |= rt_iface_set_addr(tbl, port[0], IP4(10, 0, 0, 1), 24, err, sizeof(err));
	ret |= rt_iface_set_addr(tbl, port[1], IP4(10, 0, 1, 1), 24, err, sizeof(err));
	ret |= rt_neigh_static_add(tbl, IP4(10, 0, 1, 2), &gw, err, sizeof(err));
	ret |= rt4_route_set(tbl,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
			.prefix = IP4(198, 18, 0, 0),
			.plen = 15,
			.kind = RT_ROUTE_VIA,
			.n_hops = 1,
			.hop[0] = {IP4(10, 0, 1, 2), -1}},
		err, sizeof(err));
	ret |= rt4_route_set(tbl,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
			.prefix = IP4(203, 0, 113, 0),
			.plen = 24,
			.kind = RT_ROUTE_VIA,
			.n_hops = 1,
			.hop[0] = {IP4(10, 0, 1, 3), -1}},
		err, sizeof(err));
	ret |= rt4_route_set(tbl,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
			.prefix = IP4(192, 0, 2, 0),
			.plen = 24,
			.kind = RT_ROUTE_BLACKHOLE},
		err, sizeof(err));
	ret |= rt4_route_set(tbl,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
			.prefix = IP4(198, 51, 100, 0),
			.plen = 24,
			.kind = RT_ROUTE_REJECT},
		err, sizeof(err));
	ret |= rt_iface_set_mtu(tbl, port[1], 576, err, sizeof(err)); /* fragment the big ones */
	/* the flow stage: a small table (evictions), a filter that denies and permits */
	acl = rt_acl_create(NULL, SOCKET_ID_ANY);
	if (acl == NULL)
		abort();
	{
		static const char *const rules[][2] = {
			{"deny", "proto udp dport 9"},
			{"deny", "proto tcp src 10.0.0.0/8 sport 1-1023"},
			{"permit", "dst 198.18.0.0/15"},
		};
		struct rt_acl_rule r;

		for (i = 0; i < RTE_DIM(rules); i++) {
			ret |= rt_acl_rule_parse(rules[i][0], rules[i][1], &r, err, sizeof(err));
			ret |= rt_acl_add(acl, &r, UINT32_MAX, err, sizeof(err));
		}
	}
	flow = rt_flow_create(&(struct rt_flow_conf){.size = 16,
		.mode = FLOWSORT_MODE_AUTO,
		.n_queues = 1,
		.socket = SOCKET_ID_ANY,
		.tbl_gen = &tbl->gen,
		.acl = acl});
	if (flow == NULL)
		abort();
	cp.table = tbl;
	cp.pool = slow_pool;
	ctl = rt_control_create(&cp);
	punt = ctl != NULL ? rt_control_add_worker(ctl, rte_lcore_id()) : NULL;
	if (ret != 0 || punt == NULL || rt_worker_init(&wk, tbl, punt, rte_lcore_id(), NULL) != 0)
		abort();
	rte_rcu_qsbr_thread_offline(wk.qsbr, wk.thread_id); /* online only while routing */
	return 0;
}

static void
ext_free(void *addr, void *opaque)
{
	free(opaque);
}

static uint64_t
accounted(void)
{
	uint64_t s = wk.stats.fwd;
	unsigned int i;

	for (i = 0; i < RT_DROP_MAX; i++)
		s += wk.drops[i];
	for (i = 0; i < RT_EXC_MAX; i++)
		s += wk.stats.punts[i];
	return s;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rte_mbuf_ext_shared_info *sh;
	static const enum flowsort_mode modes[] = {
		FLOWSORT_MODE_OFF, FLOWSORT_MODE_ON, FLOWSORT_MODE_AUTO, FLOWSORT_MODE_ON};
	struct rte_mbuf *m, *t, *b[2];
	uint8_t *buf, *frame, flags;
	uint16_t len, out[2], n, nb = 1;
	uint64_t before;
	unsigned int i;

	if (size < 1 || size > 2048)
		return 0;
	flags = data[0];
	len = (uint16_t)(size - 1);
	/* the shared info in front, so that the frame ends the allocation */
	buf = malloc(sizeof(*sh) + 8 + len);
	sh = (struct rte_mbuf_ext_shared_info *)buf;
	frame = buf + sizeof(*sh) + 8;
	memcpy(frame, data + 1, len);
	if ((flags & 2) && len >= 6)
		memcpy(frame, &tbl->ports[port[0]].mac, 6);
	if ((flags & 1) && len >= 34 && (frame[14] & 0xf) >= 5 &&
		14u + (frame[14] & 0xf) * 4 <= len) {
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(frame + 14);

		ip->hdr_checksum = 0;
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	}
	sh->free_cb = ext_free;
	sh->fcb_opaque = buf;
	rte_mbuf_ext_refcnt_set(sh, 1);
	m = rte_pktmbuf_alloc(pool);
	if (m == NULL)
		abort(); /* a leak somewhere */
	rte_pktmbuf_attach_extbuf(m, frame, 0, len, sh);
	m->data_off = 0;
	m->data_len = len;
	m->pkt_len = len;
	if (flags & 4)
		m->ol_flags |= RTE_MBUF_F_RX_IP_CKSUM_GOOD;
	/* both copies of the loop: a port whose checksum flags are trusted, or not */
	rt_iface_trust_rx_cksum(tbl, port[0], (flags & 8) != 0);

	b[0] = m;
	if (flags & 0x80) {
		b[1] = rte_pktmbuf_copy(m, pool, 0, UINT32_MAX);
		if (b[1] != NULL)
			nb = 2;
	}

	before = accounted();
	/*
	 * One thread plays worker and control path: online only while it routes,
	 * as a worker between polls, so that a table update waiting for readers
	 * (a next hop reused once RCU says so) does not wait for itself.
	 */
	rte_rcu_qsbr_thread_online(wk.qsbr, wk.thread_id);
	if (flags & 0x10) {
		if (rt_flow_set_mode(flow, modes[(flags >> 5) & 3]) != 0)
			abort();
		n = rt_flow_route_burst(flow, &wk, 0, port[0], b, nb, out);
	} else {
		n = rt_route_burst(&wk, port[0], b, nb, out);
	}
	rte_rcu_qsbr_thread_offline(wk.qsbr, wk.thread_id);
	if (accounted() - before != nb || n > nb)
		abort(); /* a frame counted zero or two times */
	rte_pktmbuf_free_bulk(b, n);
	/*
	 * The slow path may hold a frame for a long time (ARP): give it a copy
	 * in a pool mbuf, so that the exact-size buffer goes back now and the
	 * leak checker does not mistake a held frame for a leak.
	 */
	for (i = 0; i < nb && rte_ring_dequeue(punt, (void **)&t) == 0; i++) {
		struct rte_mbuf *c = rte_pktmbuf_copy(t, slow_pool, 0, UINT32_MAX);

		rte_pktmbuf_free(t);
		if (c != NULL)
			rte_ring_enqueue(punt, c);
	}
	rt_control_poll(ctl, rte_rdtsc(), 0);
	for (i = 0; i < 2; i++)
		while (rte_ring_dequeue(txr[i], (void **)&t) == 0)
			rte_pktmbuf_free(t);
	return 0;
}
