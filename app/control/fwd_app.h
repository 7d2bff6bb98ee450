/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_APP_H
#define FWD_APP_H

/**
 * @file
 * The running application: configuration, ports, pools and workers. The
 * three phases main() walks through (setup, run, teardown) are
 * fwd_lifecycle.h's; this header is the type every part of app/ shares.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "fwd_config.h"
#include "fwd_lcore.h"
#include "fwd_opts.h"

/** Components a program may register (fwd_component.h): the size of fwd_app::ctx. */
#define FWD_COMPONENTS_MAX 32

struct fwd_port {
	uint16_t id;
	uint16_t out_port; /**< where this port's packets go (topology) */
	uint16_t nb_rxq;
	uint16_t nb_txq;
	int socket; /**< NUMA socket, 0 when the port does not say */
	bool closed;
	bool started;
	uint64_t rxq_stopped;  /**< bit q: RX queue q stopped by the shell (not polled) */
	uint64_t txq_stopped;  /**< bit q: TX queue q stopped by the shell ("txq_stopped") */
	bool rss;              /**< RSS spreads RX over nb_rxq queues */
	bool rx_ip_cksum;      /**< the port checks IPv4 header checksums on RX (flags in mbufs) */
	bool lsc;              /**< the port raises link-change interrupts (else: polled) */
	uint8_t link;          /**< last reported link state: FWD_LINK_* (fwd_port_link_report) */
	uint32_t link_changes; /**< link state changes reported since start */
	/**
	 * The PMD leaves ibytes/obytes at 0: the workers (and tx_first) count
	 * them, and fwd_stats_port_get() reports those counts as the port's.
	 */
	bool app_bytes;
	uint64_t app_obytes;     /**< bytes sent from the main lcore (start tx_first) */
	uint64_t app_ibytes_clr; /**< the app's byte counts at the last port stats clear */
	uint64_t app_obytes_clr;
	char name[RTE_ETH_NAME_MAX_LEN];
	struct rte_ether_addr mac;
	struct rte_eth_stats stats;      /**< last read: periodic, then final */
	struct rte_eth_stats prev_stats; /**< at the previous print, for rates */
	uint64_t busy_at_clear;          /**< app->busy_tsc when its counters were cleared */
	struct rte_eth_stats run_base;   /**< at the last start: stop prints the run's */
	int n_xstats;                    /**< with --xstats: entries below */
	struct rte_eth_xstat_name *xstat_names;
	uint64_t *xstat_values;
};

struct fwd_app {
	struct fwd_config cfg;
	uint16_t nb_ports;
	struct fwd_port ports[RTE_MAX_ETHPORTS];
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
	unsigned int n_workers;
	struct fwd_lcore *workers[RTE_MAX_LCORE];
	volatile bool quit;     /**< exit requested (SIGINT/SIGTERM, quit command) */
	volatile bool fwd_stop; /**< workers leave their loops when set */
	bool running;           /**< workers are launched */
	uint64_t start_tsc;     /**< first start of forwarding */
	uint64_t prev_tsc;      /**< time of the rate base: the previous print or a start */
	uint64_t stop_tsc;
	uint64_t run_tsc;  /**< start of the current run (rates count forwarding time only) */
	uint64_t busy_tsc; /**< time forwarded by the runs before the current one */
	int leak;          /**< mbufs missing from the pools at exit (after close) */
	bool run_base_set; /**< tx_first took ports[].run_base: its frames are the next run's */
	/**
	 * Each component's context (its state), by its registered id: opaque
	 * here, reached through fwd_component_ctx() by the component's files.
	 */
	void *ctx[FWD_COMPONENTS_MAX];
	/** --fwd pktgen: workers whose generator has not stopped yet (atomic) */
	unsigned int pg_sending;
	/** --fwd pktgen: the workers stop for a pause (fwd_ctl_pause()): generators go on after */
	volatile bool pg_keep;
};

#endif /* FWD_APP_H */
