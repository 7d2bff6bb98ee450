/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Drives net_fec0 (model, step mode) RX or TX bursts so that callgrind can count
 * the driver's instructions per packet: run.sh collects only inside
 * fec_rx_burst/fec_tx_burst and toggles collection off inside the model's
 * register write, so the model's cost is excluded. A net_ring port built from
 * rte_eth_from_rings() is driven the same way as a same-run baseline.
 *
 *   bench-fec-pmd rx|tx|ring-rx|ring-tx [BURSTS] [BURST]
 *       [legacy|fastfree|csum|ptype|offload|rxcsum|scatter|timestamp|timesync]
 *
 * Every feature is off unless named: packet types too (rte_eth_dev_set_ptypes
 * with RTE_PTYPE_UNKNOWN, as they are on by default with enhanced BDs).
 * csum: TX checksum offloads configured, UDP/IPv4 frames asking for both
 * checksums, put through rte_eth_tx_prepare before each burst. ptype: the
 * PMD's default (packet types from the descriptor). offload: RX checksum
 * offloads and VLAN strip configured as well, UDP/IPv4 frames. rxcsum: what
 * dpdk-forwarder configures, RX IPv4 checksum only (packet types on), the same
 * frames. timestamp: RTE_ETH_RX_OFFLOAD_TIMESTAMP (fec_rx_burst_ts), packet
 * types off as in the plain case. timesync: rte_eth_timesync_enable after
 * start, frames without RTE_MBUF_F_TX_IEEE1588_TMST (the TS-capable TX
 * instance).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_eth_ring.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "fec_model.h"

static struct rte_mempool *pool;

static int fast_free;
static int csum;
static int ptype;
static int rx_offload; /* 1: checksums and VLAN strip, 2: IPv4 checksum only */
static int scatter;    /* RTE_ETH_RX_OFFLOAD_SCATTER: fec_rx_burst_scatter, one BD a frame */
static int rx_ts;      /* RTE_ETH_RX_OFFLOAD_TIMESTAMP: fec_rx_burst_ts */
static int timesync;   /* rte_eth_timesync_enable: TX through its ESC instance */

static int
port_up(uint16_t port)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	if (fast_free)
		conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	if (csum && !rx_offload)
		conf.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	if (rx_offload == 1)
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_CHECKSUM | RTE_ETH_RX_OFFLOAD_VLAN_STRIP;
	if (rx_offload == 2)
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
	if (scatter)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	if (rx_ts)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_TIMESTAMP;
	if (rte_eth_dev_configure(port, 1, 1, &conf) != 0 ||
		(!ptype && rte_eth_dev_set_ptypes(port, RTE_PTYPE_UNKNOWN, NULL, 0) != 0) ||
		rte_eth_rx_queue_setup(port, 0, 512, 0, NULL, pool) != 0 ||
		rte_eth_tx_queue_setup(port, 0, 512, 0, NULL) != 0 || rte_eth_dev_start(port) != 0)
		return -1;
	return timesync ? rte_eth_timesync_enable(port) : 0;
}

static void
fill(uint8_t *f, const struct rte_ether_addr *dst, unsigned int i)
{
	memcpy(f, dst->addr_bytes, 6);
	memset(f + 6, 0x02, 6);
	f[12] = 0x88;
	f[13] = 0xB5;
	memset(f + 14, (int)i, 50);
	if (csum) {
		/* IPv4 (20) + UDP (8) + 18 bytes: 60 in all. */
		static const uint8_t ip[] = {0x08, 0x00, 0x45, 0, 0, 46, 0, 0, 0, 0, 64, 17, 0, 0,
			10, 0, 0, 1, 10, 0, 0, 2, 0x03, 0xE8, 0x07, 0xD0, 0, 26, 0, 0};

		memcpy(f + 12, ip, sizeof(ip));
		((struct rte_ipv4_hdr *)(f + 14))->hdr_checksum =
			rte_ipv4_cksum((struct rte_ipv4_hdr *)(f + 14));
		((struct rte_udp_hdr *)(f + 34))->dgram_cksum =
			rte_ipv4_udptcp_cksum((struct rte_ipv4_hdr *)(f + 14), f + 34);
	}
}

/* The offload request of a csum frame. */
static void
mark(struct rte_mbuf *m)
{
	if (!csum)
		return;
	m->l2_len = 14;
	m->l3_len = 20;
	m->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM;
}

int
main(int argc, char **argv)
{
	char prefix[64], vdev[96];
	char *eal[] = {argv[0], "-l", "0", "--no-huge", "-m", "128", "--no-pci", "--file-prefix",
		prefix, "--vdev", vdev, "--log-level", "*:error"};
	const char *what = argc > 1 ? argv[1] : "rx";
	unsigned int bursts = argc > 2 ? (unsigned int)atoi(argv[2]) : 200;
	unsigned int burst = argc > 3 ? (unsigned int)atoi(argv[3]) : 32;
	int legacy = argc > 4 && strcmp(argv[4], "legacy") == 0;

	fast_free = argc > 4 && strcmp(argv[4], "fastfree") == 0;
	csum = argc > 4 && strcmp(argv[4], "csum") == 0;
	scatter = argc > 4 && strcmp(argv[4], "scatter") == 0;
	rx_ts = argc > 4 && strcmp(argv[4], "timestamp") == 0;
	timesync = argc > 4 && strcmp(argv[4], "timesync") == 0;
	rx_offload = argc > 4 && strcmp(argv[4], "offload") == 0  ? 1
		     : argc > 4 && strcmp(argv[4], "rxcsum") == 0 ? 2
								  : 0;
	ptype = rx_offload || (argc > 4 && strcmp(argv[4], "ptype") == 0);
	/* RX with offloads: IPv4/UDP frames, as the TX csum case sends. */
	csum |= rx_offload;
	struct rte_mbuf *m[512];
	struct rte_ether_addr mac;
	struct fec_model *model;
	uint64_t pkts = 0;
	uint16_t port;
	unsigned int b, i;
	uint8_t f[64];

	if (burst == 0 || burst > 256)
		return 2;
	snprintf(prefix, sizeof(prefix), "fec_bench_%d", (int)getpid());
	snprintf(vdev, sizeof(vdev), "net_fec0,backend=model%s", legacy ? ",bd=legacy" : "");
	if (rte_eal_init((int)RTE_DIM(eal), eal) < 0)
		return 1;
	pool = rte_pktmbuf_pool_create("bench", 4096, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	model = fec_model_lookup("net_fec0");
	if (pool == NULL || model == NULL)
		return 1;
	if (strncmp(what, "ring", 4) == 0) {
		struct rte_ring *r =
			rte_ring_create("bench_r", 1024, 0, RING_F_SP_ENQ | RING_F_SC_DEQ);
		int p = rte_eth_from_rings("bench_ring", &r, 1, &r, 1, 0);

		if (p < 0 || port_up((uint16_t)p) != 0)
			return 1;
		port = (uint16_t)p;
	} else if (rte_eth_dev_get_port_by_name("net_fec0", &port) != 0 || port_up(port) != 0) {
		return 1;
	}
	rte_eth_macaddr_get(port, &mac);
	for (b = 0; b < bursts; b++) {
		uint16_t k;

		if (strcmp(what, "rx") == 0 || strcmp(what, "ring-rx") == 0) {
			if (strcmp(what, "rx") == 0) {
				for (i = 0; i < burst; i++) {
					fill(f, &mac, i);
					fec_model_rx_frame(model, f, 60);
				}
				fec_model_step(model, burst);
			} else {
				for (i = 0; i < burst; i++) {
					m[i] = rte_pktmbuf_alloc(pool);
					fill(rte_pktmbuf_mtod(m[i], uint8_t *), &mac, i);
					m[i]->data_len = m[i]->pkt_len = 60;
				}
				rte_eth_tx_burst(port, 0, m, (uint16_t)burst);
			}
			k = rte_eth_rx_burst(port, 0, m, (uint16_t)burst);
			pkts += k;
			rte_pktmbuf_free_bulk(m, k);
		} else {
			for (i = 0; i < burst; i++) {
				m[i] = rte_pktmbuf_alloc(pool);
				fill(rte_pktmbuf_mtod(m[i], uint8_t *), &mac, i);
				m[i]->data_len = m[i]->pkt_len = 60;
				mark(m[i]);
			}
			if (csum && rte_eth_tx_prepare(port, 0, m, (uint16_t)burst) != burst)
				return 1;
			k = rte_eth_tx_burst(port, 0, m, (uint16_t)burst);
			pkts += k;
			rte_pktmbuf_free_bulk(m + k, burst - k);
			if (strcmp(what, "tx") == 0) {
				fec_model_step(model, burst);
				while (fec_model_tx_frame(model, f, sizeof(f)) >= 0)
					;
			} else {
				k = rte_eth_rx_burst(port, 0, m, (uint16_t)burst);
				rte_pktmbuf_free_bulk(m, k);
			}
		}
	}
	printf("%s: %" PRIu64 " packets in %u bursts of %u\n", what, pkts, bursts, burst);
	rte_eth_dev_stop(port);
	rte_eal_cleanup();
	return pkts == (uint64_t)bursts * burst ? 0 : 1;
}
