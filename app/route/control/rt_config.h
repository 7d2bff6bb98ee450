/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_CONFIG_H
#define RT_CONFIG_H

/**
 * @file
 * The router's part of the config file, read by fwd_cfgfile's reader
 * (which prefixes "file:line: " to every refusal):
 *
 *	[port 0]                       # one section per router port
 *	ip = 10.0.0.1/24               # address/prefix; gives the connected route
 *	mtu = 1500                     # IP MTU, 68..9216 (default 1500)
 *	netlink-ifname = tap0          # this port's interface in netlink-netns
 *	                               # (or, with fpm-listen, in zebra's namespace)
 *	twin = rtr0                    # its kernel twin: a TAP of this name in
 *	                               # twin-netns with the port's MAC, MTU and ip;
 *	                               # what is for the router and not ARP or ICMP
 *	                               # echo goes there (docs/user-guide.md)
 *	punt-rate = 10000              # frames per second to the twin (default
 *	                               # 10000), the excess dropped as punt_rate
 *
 *	[route]
 *	route = 10.1.0.0/16 via 10.0.0.2         # next hop on a connected network
 *	route = 10.2.0.0/16 via 10.0.0.2 dev 0   # ... checked to be on port 0
 *	route = 0.0.0.0/0 dev 1                  # on-link: ARP for each destination
 *	route = 10.3.0.0/16 via 10.0.0.2 via 10.0.0.3   # ECMP: 2..16 gateways, by flow
 *	blackhole = 192.0.2.0/24                 # dropped, counted
 *	reject = 198.51.100.0/24                 # dropped, ICMP host unreachable
 *	routes-file = bgp.routes                 # `ip -4 route show` lines (rt_routefile.h)
 *	neigh-file = lan.neigh                   # `ip -4 neigh show` lines
 *	netlink-netns = rtr                      # follow /run/netns/rtr's FIB (rt_nlsync.h);
 *	                                         # "." = the forwarder's own namespace
 *	netlink-rcvbuf = 4194304                 # its socket's receive buffer (bytes)
 *	fpm-listen = 127.0.0.1:2620              # take FRR zebra's FPM stream (rt_fpm.h);
 *	                                         # the port is 2620 when not given
 *	fpm-allow = 127.0.0.0/8, 192.168.255.2   # peers that may connect (default: loopback
 *	                                         # and twin-netns' own addresses)
 *	fpm-sweep-delay = 3000                   # ms after zebra connects: sweep what it
 *	                                         # did not send again
 *	twin-netns = rtr                         # the ports' twins are made in
 *	                                         # /run/netns/rtr ("." or none: ours)
 *	icmp-echo-rate = 1000                    # echo replies a second (default 1000,
 *	                                         # burst a tenth, at least 32), the
 *	                                         # excess dropped as echo_rate
 *
 *	[neigh]                        # static ARP entries, never aged
 *	10.0.0.2 = 02:00:00:00:00:02   # the port is the one whose network holds it
 *
 *	[filter]                       # in order, first match wins, default permit
 *	deny = proto udp src 10.0.0.0/8 dport 53
 *	permit = proto tcp dst 10.1.0.0/16 dport 1024-65535
 *	deny = any                     # see rt_acl.h for the syntax
 *
 * A bare address in a route means /32. Checked while reading, so the error
 * names the line: addresses and prefixes well formed, no host bits set in a
 * prefix, port networks that do not overlap, no duplicate route, no route to a
 * port's own network, next hops and neighbours on a connected network (so a
 * [port N] section must come before the routes through it), MTU in range,
 * twin names well formed and unique, twin-netns existing; when the table
 * takes it, a twin needs the port's ip and punt-rate a twin.
 * Reading does not need EAL; rt_config_apply() puts the result into a table.
 *
 * routes-file and neigh-file may be given any number of times; a relative
 * path is relative to the config file's directory. Reading the config only
 * checks that each file can be opened: its lines are read by
 * rt_config_apply_files(), after EAL (a dev may be a port's DPDK name), in
 * the order given, after the config's own routes and neighbours, and the
 * first bad line stops the start-up with its file:line. There is no limit
 * on the number of routes or neighbours but the table's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "rt_acl.h"
#include "rt_fpm_ctl.h"
#include "rt_table.h"

struct rt_fileload; /* rt_fileload.h */

/** Room for a namespace name (under /run/netns) and its NUL. */
#define RT_NETNS_LEN 64

/** One [port N] section. */
struct rt_cfg_port {
	bool has_ip;
	bool has_mtu;
	uint8_t plen;
	uint16_t mtu;
	uint32_t ip;
	char nl_ifname[16]; /**< netlink-ifname (IF_NAMESIZE), "" = none */
	char twin[16];      /**< twin: its kernel twin's interface name, "" = none */
	uint32_t punt_rate; /**< punt-rate: frames per second to the twin, 0 = default */
	char where[96];     /**< "file:line" of the section's first key, for errors found later */
};

/** One line of [route]. */
struct rt_cfg_route {
	uint32_t prefix;
	uint8_t plen;
	uint8_t kind; /**< enum rt_route_kind */
	int16_t port; /**< -1 = from the gateway */
	uint32_t gw;
	uint8_t n_hops;                  /**< multipath (ECMP): 2..RT_ECMP_MAX, else 0 */
	struct rt_hop hops[RT_ECMP_MAX]; /**< its gateways (@c gw is the first) */
	char where[96]; /**< "file:line", for errors found when the table takes it */
};

/** One line of [neigh]. */
struct rt_cfg_neigh {
	uint32_t ip;
	struct rte_ether_addr mac;
	char where[96]; /**< "file:line", for errors found when the table takes it */
};

/** One routes-file or neigh-file key. */
struct rt_cfg_file {
	char *path; /**< as opened: relative to the config file's directory */
	bool neigh; /**< neigh-file */
	char where[96];
};

/** The router's configuration as read from the file (rt_config_free() when done). */
struct rt_config {
	struct rt_cfg_port ports[RTE_MAX_ETHPORTS];
	uint32_t n_routes;
	uint32_t cap_routes;
	struct rt_cfg_route *routes; /**< grown as read */
	uint32_t n_neigh;
	uint32_t cap_neigh;
	struct rt_cfg_neigh *neigh;
	uint32_t n_files;
	uint32_t cap_files;
	struct rt_cfg_file *files; /**< in the order given */
	/** routes (prefix, length) and neighbours read so far, for "already given" */
	uint64_t *seen;
	uint32_t seen_cap; /**< slots, a power of 2 (0: none yet) */
	uint32_t seen_n;
	uint32_t n_filters;                           /**< lines of [filter] */
	struct rt_acl_rule filters[RT_ACL_MAX_RULES]; /**< in order */
	bool has_netlink;                             /**< netlink-netns given */
	char netlink_netns[RT_NETNS_LEN]; /**< its name, "" = the forwarder's own namespace */
	uint32_t netlink_rcvbuf;          /**< netlink-rcvbuf: the socket's buffer, 0 = default */
	bool has_fpm;                     /**< fpm-listen given */
	uint32_t fpm_addr;                /**< its address, host order */
	uint16_t fpm_port;                /**< its port (RT_FPM_PORT_DEFAULT when not given) */
	uint32_t fpm_sweep_ms;            /**< fpm-sweep-delay, 0 = default */
	struct rt_fpm_net fpm_allow[RT_FPM_ALLOW_MAX]; /**< fpm-allow: the peers that may connect */
	unsigned int n_fpm_allow;                      /**< 0: the default (loopback, twin-netns) */
	bool has_twin_netns;                           /**< twin-netns given */
	char twin_netns[RT_NETNS_LEN]; /**< the twins' namespace, "" = the forwarder's own */
	uint32_t icmp_echo_rate;       /**< icmp-echo-rate: replies per second, 0 = default */
	/** "file:line" of the key being read, set by the reader; NULL = unknown */
	const char *where;
};

/** Empty @p cfg (no port addresses, no routes). */
void rt_config_init(struct rt_config *cfg);

/** Free what @p cfg grew while read; it is empty again (rt_config_init()). */
void rt_config_free(struct rt_config *cfg);

/**
 * True for the sections rt_config_cfgfile_cb() handles: "port N", "route",
 * "neigh", "filter"; the app sends those to it and the rest elsewhere.
 */
bool rt_config_owns_section(const char *section);

/**
 * fwd_cfgfile_cb for the router's sections; @p arg is a struct rt_config.
 *
 * @return 0, or -EINVAL / -EEXIST / -ENOMEM / -ENOENT (a file that cannot be
 *   opened) with @p err set to the reason.
 */
int rt_config_cfgfile_cb(void *arg, const char *section, const char *key, const char *value,
	char *err, size_t errlen);

/**
 * Put @p cfg into the table @p t, whose ports the app has enabled
 * (rt_iface_enable()): MTUs and addresses, then routes, then neighbours.
 *
 * @return 0, or a negative errno with @p err set, starting with the
 *   "file:line" of the line the table refused (e.g. a [port N] that the app
 *   does not have, a full route table).
 */
int rt_config_apply(const struct rt_config *cfg, struct rt_table *t, char *err, size_t errlen);

/**
 * Load the routes-file and neigh-file files of @p cfg, in order, into
 * @p how->t (after rt_config_apply()), as @p how says: its dev, when not
 * NULL, turns a port's DPDK name into its id (the app's uses
 * rte_eth_dev_get_port_by_name()); a load stops with -EINTR when its quit
 * (may be NULL) turns true, so a signal ends a start-up that waits on a
 * pipe; its escape makes the messages safe for a terminal. Its out,
 * max_errors, err and counts are not used: every file stops at its first
 * bad line.
 *
 * @return 0, or the first bad line's -errno with @p err set to
 *   "file:line: reason" (nothing after it is loaded).
 */
int rt_config_apply_files(
	const struct rt_config *cfg, const struct rt_fileload *how, char *err, size_t errlen);

/**
 * Put the [filter] rules of @p cfg, in order, into @p acl.
 *
 * @return 0, or a negative errno with @p err set.
 */
int rt_config_apply_filter(
	const struct rt_config *cfg, struct rt_acl *acl, char *err, size_t errlen);

#endif /* RT_CONFIG_H */
