/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <string.h>

#include <rte_ethdev.h>

#include "fwd_log.h"
#include "fwd_port.h"

#define FWD_RSS_HF (RTE_ETH_RSS_IP | RTE_ETH_RSS_TCP | RTE_ETH_RSS_UDP)

#define PORT_ERR(p, what, ret)                                                  \
	snprintf(err, errlen, "port %u (%s): %s: %s", (p)->id, (p)->name, what, \
		rte_strerror(-(ret)))

void
fwd_port_link_report(struct fwd_port *port)
{
	struct rte_eth_link link;
	char str[RTE_ETH_LINK_MAX_STR_LEN];
	uint8_t now, was;

	if (rte_eth_link_get_nowait(port->id, &link) != 0)
		return;
	now = link.link_status == RTE_ETH_LINK_UP ? FWD_LINK_UP : FWD_LINK_DOWN;
	/* the LSC callback (interrupt thread) and the main loop may both get here */
	was = __atomic_exchange_n(&port->link, now, __ATOMIC_RELAXED);
	if (was == now)
		return;
	if (was != FWD_LINK_UNKNOWN)
		__atomic_fetch_add(&port->link_changes, 1, __ATOMIC_RELAXED);
	rte_eth_link_to_str(str, sizeof(str), &link);
	FWD_LOG(INFO, "port %u (%s): %s%s\n", port->id, port->name, str,
		port->lsc ? "" : " (polled)");
}

void
fwd_port_watch_links(struct fwd_port *ports, uint16_t n, bool all)
{
	uint16_t p;

	for (p = 0; p < n; p++)
		if (all || !ports[p].lsc)
			fwd_port_link_report(&ports[p]);
}

static int
lsc_event(uint16_t port_id, enum rte_eth_event_type type, void *arg, void *ret_param)
{
	RTE_SET_USED(port_id);
	RTE_SET_USED(type);
	RTE_SET_USED(ret_param);
	fwd_port_link_report(arg);
	return 0;
}

/*
 * PMDs of DPDK 22.11 that count packets but leave ibytes/obytes at 0: on
 * their ports the forwarder counts the bytes itself (fwd_stats_port_get()).
 * A list rather than a probe: a probe needs traffic, and a port that has
 * received nothing yet looks the same whether its PMD counts bytes or not.
 */
static const char *const no_byte_count_drivers[] = {"net_null", "net_ring"};

/* @p driver is one of the @p n names of @p list. */
static bool
driver_listed(const char *driver, const char *const *list, unsigned int n)
{
	unsigned int i;

	for (i = 0; driver != NULL && i < n; i++)
		if (strcmp(driver, list[i]) == 0)
			return true;
	return false;
}

/*
 * --idle sleep needs an RX interrupt on every queue of the port, refused at
 * start rather than found out by a worker that would poll for ever. DPDK
 * 22.11's dev_info has no RX-interrupt flag, so ask for the queue's event fd
 * (a PMD without an interrupt handle or vector has none; PCI PMDs set them up
 * at dev_start, hence after start), then enable and disable it once (a PMD
 * without rx_queue_intr_enable says -ENOTSUP).
 */
static int
check_rx_intr(struct fwd_port *port, char *err, size_t errlen)
{
	uint16_t q;
	int ret;

	for (q = 0; q < port->nb_rxq; q++) {
		if (rte_eth_dev_rx_intr_ctl_q_get_fd(port->id, q) < 0) {
			snprintf(err, errlen,
				"port %u (%s): --idle sleep: RX queue %u has no RX interrupt "
				"(the driver offers none); use --idle poll",
				port->id, port->name, q);
			return -ENOTSUP;
		}
		ret = rte_eth_dev_rx_intr_enable(port->id, q);
		if (ret == 0)
			ret = rte_eth_dev_rx_intr_disable(port->id, q);
		if (ret < 0) {
			snprintf(err, errlen,
				"port %u (%s): --idle sleep: RX queue %u: cannot enable its RX "
				"interrupt: %s; use --idle poll",
				port->id, port->name, q, rte_strerror(-ret));
			return ret;
		}
	}
	return 0;
}

/*
 * PMDs of DPDK 22.11 that receive a frame longer than one mbuf as a chain
 * and send chains without advertising RTE_ETH_RX_OFFLOAD_SCATTER or
 * RTE_ETH_TX_OFFLOAD_MULTI_SEGS (net_pcap: eth_pcap_rx_jumbo, and its TX
 * copies a chain out whole); ethdev refuses an offload a port does not list.
 */
static const char *const chains_unadvertised_drivers[] = {"net_pcap"};

/*
 * --mbuf-size below the port's largest frame (the standard MTU, ethdev's
 * default, plus the port's L2 overhead as ethdev reckons it): frames come
 * as mbuf chains, so ask for scattered RX and multi-segment TX (the
 * forwarder sends what it received), and leave fast free out (it puts
 * segments back without resetting their chain fields). A port that can
 * do neither is refused, with the size that would do.
 */
static int
port_chains(struct fwd_port *port, const struct rte_eth_dev_info *info, struct rte_mempool *pool,
	struct rte_eth_conf *conf, char *err, size_t errlen)
{
	uint16_t room = rte_pktmbuf_data_room_size(pool);
	uint32_t overhead = RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN, frame;
	const char *cannot = NULL;
	bool anyway = driver_listed(info->driver_name, chains_unadvertised_drivers,
		RTE_DIM(chains_unadvertised_drivers));

	if (info->max_mtu != UINT16_MAX && info->max_rx_pktlen > info->max_mtu)
		overhead = info->max_rx_pktlen - info->max_mtu;
	frame = RTE_ETHER_MTU + overhead;
	if (frame <= (uint32_t)room - RTE_PKTMBUF_HEADROOM)
		return 0;
	if (!anyway && !(info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER))
		cannot = "receive them over several (no scattered RX)";
	else if (!anyway && !(info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS))
		cannot = "send mbuf chains (no multi-segment TX)";
	if (cannot != NULL) {
		snprintf(err, errlen,
			"port %u (%s): its %u-byte frames do not fit one mbuf of --mbuf-size %u and "
			"the port cannot %s: give --mbuf-size %u or more",
			port->id, port->name, frame, room, cannot, frame + RTE_PKTMBUF_HEADROOM);
		return -ENOTSUP;
	}
	conf->rxmode.offloads |= info->rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER;
	conf->txmode.offloads |= info->tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	conf->txmode.offloads &= ~RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	FWD_LOG(INFO, "port %u (%s): %u-byte frames over %u-byte mbufs: as chains\n", port->id,
		port->name, frame, room - RTE_PKTMBUF_HEADROOM);
	return 0;
}

int
fwd_port_start(const struct fwd_config *cfg, struct fwd_port *port, struct rte_mempool *pool,
	char *err, size_t errlen)
{
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = cfg->nb_rxd, nb_txd = cfg->nb_txd;
	uint16_t q;
	int ret;

	ret = rte_eth_dev_info_get(port->id, &info);
	if (ret < 0) {
		PORT_ERR(port, "cannot read device info", ret);
		return ret;
	}
	if (port->nb_rxq > info.max_rx_queues) {
		snprintf(err, errlen, "port %u (%s): the map uses %u RX queues but the port has %u",
			port->id, port->name, port->nb_rxq, info.max_rx_queues);
		return -EINVAL;
	}
	if (port->nb_txq > info.max_tx_queues) {
		snprintf(err, errlen,
			"port %u (%s): %u lcores send to it but the port has %u TX queues",
			port->id, port->name, port->nb_txq, info.max_tx_queues);
		return -EINVAL;
	}

	port->app_bytes = driver_listed(
		info.driver_name, no_byte_count_drivers, RTE_DIM(no_byte_count_drivers));
	memset(&conf, 0, sizeof(conf));
	port->rss = false;
	if (port->nb_rxq > 1 && (info.flow_type_rss_offloads & FWD_RSS_HF) != 0) {
		conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
		conf.rx_adv_conf.rss_conf.rss_hf = FWD_RSS_HF & info.flow_type_rss_offloads;
		port->rss = true;
		/* flowsort and the flow table read the NIC's hash when it is there */
		if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_RSS_HASH)
			conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_RSS_HASH;
	} else if (port->nb_rxq > 1) {
		FWD_LOG(NOTICE,
			"port %u (%s) has no RSS: each of its %u RX queues gets what the PMD puts "
			"there\n",
			port->id, port->name, port->nb_rxq);
	}
	/* the router trusts the port's verdict on IPv4 header checksums when it gives one */
	port->rx_ip_cksum = (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_IPV4_CKSUM) != 0;
	if (port->rx_ip_cksum)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_IPV4_CKSUM;
	/*
	 * The L2 modes send what they received, from one pool, with refcnt 1:
	 * exactly what fast free requires, so take it where the port offers it.
	 */
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE;
	ret = port_chains(port, &info, pool, &conf, err, errlen);
	if (ret < 0)
		return ret;
	/* link changes come as interrupts where the PMD can (igb, e1000e, ixgbe) */
	port->lsc = info.dev_flags != NULL && (*info.dev_flags & RTE_ETH_DEV_INTR_LSC) != 0;
	if (port->lsc) {
		conf.intr_conf.lsc = 1;
		ret = rte_eth_dev_callback_register(
			port->id, RTE_ETH_EVENT_INTR_LSC, lsc_event, port);
		if (ret < 0) {
			PORT_ERR(port, "cannot register the link event callback", ret);
			return ret;
		}
	}

	/* --idle sleep: the workers wait on the RX queues' interrupts (checked after start) */
	if (cfg->idle == FWD_IDLE_SLEEP)
		conf.intr_conf.rxq = 1;

	ret = rte_eth_dev_configure(port->id, port->nb_rxq, port->nb_txq, &conf);
	if (ret < 0 && cfg->idle == FWD_IDLE_SLEEP) {
		PORT_ERR(port, "configure with RX interrupts failed (needed by --idle sleep)", ret);
		return ret;
	}
	if (ret < 0) {
		PORT_ERR(port, "configure failed", ret);
		return ret;
	}

	ret = rte_eth_dev_adjust_nb_rx_tx_desc(port->id, &nb_rxd, &nb_txd);
	if (ret < 0) {
		PORT_ERR(port, "descriptor counts not accepted", ret);
		return ret;
	}
	for (q = 0; q < port->nb_rxq; q++) {
		struct rte_eth_rxconf rxconf = info.default_rxconf;

		rxconf.offloads = conf.rxmode.offloads;
		ret = rte_eth_rx_queue_setup(port->id, q, nb_rxd, port->socket, &rxconf, pool);
		if (ret < 0) {
			PORT_ERR(port, "RX queue setup failed", ret);
			return ret;
		}
	}
	for (q = 0; q < port->nb_txq; q++) {
		struct rte_eth_txconf txconf = info.default_txconf;

		txconf.offloads = conf.txmode.offloads;
		ret = rte_eth_tx_queue_setup(port->id, q, nb_txd, port->socket, &txconf);
		if (ret < 0) {
			PORT_ERR(port, "TX queue setup failed", ret);
			return ret;
		}
	}

	ret = rte_eth_macaddr_get(port->id, &port->mac);
	if (ret < 0) {
		PORT_ERR(port, "cannot read MAC address", ret);
		return ret;
	}
	ret = rte_eth_dev_start(port->id);
	if (ret < 0) {
		PORT_ERR(port, "start failed", ret);
		return ret;
	}
	port->started = true;
	if (cfg->idle == FWD_IDLE_SLEEP) {
		ret = check_rx_intr(port, err, errlen);
		if (ret < 0)
			return ret;
	}

	if (cfg->promisc) {
		ret = rte_eth_promiscuous_enable(port->id);
		if (ret < 0 && ret != -ENOTSUP)
			FWD_LOG(WARNING, "port %u: cannot enable promiscuous mode: %s\n", port->id,
				rte_strerror(-ret));
	}
	FWD_LOG(INFO,
		"port %u (%s) " RTE_ETHER_ADDR_PRT_FMT ": %u RX / %u TX queues%s -> port %u\n",
		port->id, port->name, RTE_ETHER_ADDR_BYTES(&port->mac), port->nb_rxq, port->nb_txq,
		port->rss ? " (RSS)" : "", port->out_port);
	return 0;
}

void
fwd_port_stop(struct fwd_port *port)
{
	int ret;

	if (!port->started)
		return;
	ret = rte_eth_dev_stop(port->id);
	if (ret < 0)
		FWD_LOG(WARNING, "port %u: stop failed: %s\n", port->id, rte_strerror(-ret));
	port->started = false;
}

void
fwd_port_close(struct fwd_port *port)
{
	int ret;

	if (port->closed)
		return;
	if (port->lsc)
		rte_eth_dev_callback_unregister(port->id, RTE_ETH_EVENT_INTR_LSC, lsc_event, port);
	ret = rte_eth_dev_close(port->id);
	if (ret < 0)
		FWD_LOG(WARNING, "port %u: close failed: %s\n", port->id, rte_strerror(-ret));
	port->closed = true;
}
