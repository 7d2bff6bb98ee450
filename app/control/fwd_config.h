/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_CONFIG_H
#define FWD_CONFIG_H

/**
 * @file
 * The run configuration: what the options and the config file set.
 *
 * Precedence: built-in defaults, then the config file (--config), then the
 * command line. Both sources go through the same option table
 * (fwd_opts.c), so a key in the file and the long option of the same name
 * always mean the same thing.
 */

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>

#include "pktgen.h"
#include "rt_config.h"
#include "fwd_types.h"

/** How an input port's packets choose their output port (testpmd's --port-topology). */
#define FWD_TOPOLOGIES(X)                                                             \
	X(PAIRED, "paired", "0<->1, 2<->3, ...; an odd last port forwards to itself") \
	X(CHAINED, "chained", "0->1->2->...->0")                                      \
	X(LOOP, "loop", "every port forwards to itself")

enum fwd_topology {
#define FWD_TOPO_ENUM(sym, name, desc) FWD_TOPO_##sym,
	FWD_TOPOLOGIES(FWD_TOPO_ENUM)
#undef FWD_TOPO_ENUM
		FWD_TOPO_MAX
};

/** What a worker does when its RX queues are empty (--idle). */
#define FWD_IDLE_MODES(X)                                                         \
	X(POLL, "poll", "keep polling (lowest latency, one CPU at 100 % always)") \
	X(SLEEP, "sleep", "after a few empty polls, sleep on the RX queues' interrupts")

enum fwd_idle_mode {
#define FWD_IDLE_ENUM(sym, name, desc) FWD_IDLE_##sym,
	FWD_IDLE_MODES(FWD_IDLE_ENUM)
#undef FWD_IDLE_ENUM
		FWD_IDLE_MAX
};

/**
 * --mbuf-size: data room of the packet pools' mbufs (headroom included), as
 * testpmd's. The default is DPDK's RTE_MBUF_DEFAULT_BUF_SIZE; at least the
 * headroom and FWD_MIN_MBUF_FRAME bytes, so that one segment holds a minimum
 * Ethernet frame (the headers the forwarder reads) and the smallest ICMP
 * error the router builds (Ethernet, IP and ICMP headers, then the quoted IP
 * header of up to 60 bytes and 8 bytes of data: 110); a data room is 16 bits.
 */
#define FWD_DEFAULT_MBUF_SIZE 2176
#define FWD_MIN_MBUF_FRAME    128
#define FWD_MIN_MBUF_SIZE     256

/** One entry of the l3fwd-style map: lcore @c lcore polls RX queue @c queue of @c port. */
struct fwd_map_entry {
	uint16_t port;
	uint16_t queue;
	unsigned int lcore;
};

struct fwd_config {
	enum fwd_mode mode;
	enum fwd_topology topology;
	uint16_t burst;      /**< packets per rx_burst and TX flush threshold */
	uint16_t nb_rxd;     /**< RX descriptors per queue */
	uint16_t nb_txd;     /**< TX descriptors per queue */
	uint16_t rxq;        /**< RX queues per port when no map is given */
	uint16_t txq;        /**< testpmd's --txq: TX queues per port; 0 = as needed */
	uint16_t nb_cores;   /**< testpmd's --nb-cores: workers that forward; 0 = all */
	uint64_t portmask;   /**< l3fwd's -p: bit N = port N is used; 0 = every port */
	uint32_t nb_mbufs;   /**< mbufs in the pool; 0 = sized from the queues */
	uint32_t mbuf_cache; /**< per-lcore mempool cache */
	uint16_t mbuf_size;  /**< data room of the pools' mbufs, headroom included */
	double stats_period; /**< seconds between stats prints; 0 = only at exit */
	double duration;     /**< seconds to forward; 0 = until SIGINT/SIGTERM */
	uint32_t max_routes; /**< --fwd route: table sizes (rt_table_params) */
	uint32_t max_next_hops;
	uint32_t tbl8_groups;
	uint32_t flow_table_size;    /**< --fwd route: flow-table entries per worker */
	double flow_age;             /**< --fwd route: idle seconds before a flow is aged */
	bool promisc;                /**< put every port in promiscuous mode */
	bool xstats;                 /**< include extended port stats in prints and the file */
	bool interactive;            /**< -i: the shell on stdin */
	bool auto_start;             /**< with -i: start forwarding before the prompt */
	bool tx_first;               /**< testpmd's --tx-first: one burst out before the start */
	char cmdline_file[PATH_MAX]; /**< shell commands to run first; "" = none */
	char stats_file[PATH_MAX];   /**< JSON of every counter at exit; "" = none */
	char config_file[PATH_MAX];  /**< the file that was loaded, for messages */
	unsigned int n_map;          /**< 0 = build the default map from the ports */
	struct fwd_map_entry map[FWD_MAX_MAP];
	struct rte_ether_addr peer[RTE_MAX_ETHPORTS]; /**< destination MAC in --fwd mac */
	struct rt_config route;          /**< --fwd route: addresses, MTUs, routes, neighbours */
	struct pktgen_stream_cfg pktgen; /**< --fwd pktgen: the stream */
	uint8_t flowsort;    /**< --fwd route: flowsort = on|off|auto (enum flowsort_mode) */
	uint8_t flow_table;  /**< --fwd route: flow-table = on|off|auto (enum rt_flow_table_mode) */
	uint8_t help_format; /**< --help=FORMAT: enum fwd_help_format (fwd_opts.h) */
	uint8_t idle;        /**< --idle: enum fwd_idle_mode */
};

/** Is @p port one the run uses (l3fwd's -p; every port without one)? */
static inline bool
fwd_port_used(const struct fwd_config *cfg, uint16_t port)
{
	return cfg->portmask == 0 || (cfg->portmask >> port & 1) != 0;
}

/** Fill @p cfg with the built-in defaults. */
void fwd_config_defaults(struct fwd_config *cfg);

/** Free what reading a config grew (the router's routes, neighbours, files); defaults again. */
void fwd_config_free(struct fwd_config *cfg);

/** Name of a mode ("io", ...), or NULL if out of range. */
const char *fwd_mode_name(enum fwd_mode mode);

/** Name of an idle mode ("poll", "sleep"), or NULL if out of range. */
const char *fwd_idle_name(enum fwd_idle_mode idle);

/** Name of a topology ("paired", ...), or NULL if out of range. */
const char *fwd_topology_name(enum fwd_topology topo);

/**
 * Output port of @p port among @p nb_ports ports under topology @p topo.
 * Ports are numbered 0..nb_ports-1 (the app uses every probed port).
 */
uint16_t fwd_topology_peer(enum fwd_topology topo, uint16_t port, uint16_t nb_ports);

#endif /* FWD_CONFIG_H */
