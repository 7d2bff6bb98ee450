/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NLSYNC_H
#define RT_NLSYNC_H

/**
 * @file
 * Routes from a network namespace's kernel FIB: one control thread enters
 * the namespace (setns() on /run/netns/NAME, that thread only), opens a
 * NETLINK_ROUTE socket with libmnl, joins RTNLGRP_IPV4_ROUTE, dumps the
 * routes (RTM_GETROUTE, NLM_F_DUMP) and then follows the events, each
 * message read by rt_netlink_parse() and applied by rt_netlink_apply_from()
 * as source RT_SRC_NETLINK: the table's RCU update path, as the shell's.
 *
 * Taken: the main table's unicast (via, dev, ECMP), blackhole, unreachable
 * and prohibit routes. Not taken (counted under their reason): other tables
 * (the local table: the namespace's own addresses and broadcasts), routes of
 * protocol kernel (the connected routes of the namespace's interfaces: the
 * router's connected networks come from its own [port N] ip), and what
 * rt_netlink.h refuses. An encapsulated route (encap, rt_netlink.h) is
 * refused whole, logged (rate-limited, rt_lograte.h), and withdraws the
 * route the sync held under its key: the kernel routes that key through a
 * tunnel now, which the forwarder must not do plain.
 *
 * Interfaces to ports: with a map (@c ifnames, the config's
 * `[port N] netlink-ifname`), resolved with if_nametoindex() inside the
 * namespace at every (re)sync, a hop through an interface that is not in it
 * is refused (no_port); without a map, each hop's port is the one whose
 * connected network holds its gateway, and an on-link route (no gateway) is
 * refused (no_port).
 *
 * Mark and sweep: every (re)sync (the start, an ENOBUFS overrun, a restart
 * of the thread, rt_nlsync_resync()) marks each route the dump or the events
 * meanwhile put in; after a complete dump (one without NLM_F_DUMP_INTR),
 * every route of source netlink that was not marked is deleted. An overrun
 * (or any socket error) opens a new socket and starts the marks afresh. Routes of
 * other sources are never touched: a netlink route to a prefix that has one
 * from the config, a file or the shell is refused (exists), and a netlink
 * delete or replace of one is refused (not_ours).
 *
 * The table keeps one route a prefix: a route message replaces the netlink
 * route to the same prefix (a dump carries no NLM_F_REPLACE), so of two
 * kernel routes to one prefix (two metrics) the later one is kept.
 */

#include <stdbool.h>
#include <stdint.h>

#include "rt_netlink.h"
#include "rt_nlsync_ctl.h"
#include "rt_table.h"

/* X(SYM, "name", "what it means"): why a parsed route was not applied */
#define RT_NLSYNC_REFUSALS(X)                                                                  \
	X(KERNEL, "kernel",                                                                    \
		"protocol kernel: a connected route of the namespace's own interfaces (the "   \
		"router's come from its ports)")                                               \
	X(NO_PORT, "no_port",                                                                  \
		"through an interface that is no port (not mapped by netlink-ifname), or "     \
		"on-link with no map")                                                         \
	X(EXISTS, "exists", "a route to the prefix from another source (config, file, shell)") \
	X(NOT_OURS, "not_ours", "a delete or replace of a route that is not from netlink")     \
	X(NO_ROUTE, "no_route", "a delete of a route the table does not have")                 \
	X(TABLE, "table", "refused by the table (gateway on no connected network, full, ...)")

/** Why a parsed route was not applied. */
enum rt_nlsync_refusal {
#define RT_NLSYNC_ENUM(sym, name, desc) RT_NLSYNC_##sym,
	RT_NLSYNC_REFUSALS(RT_NLSYNC_ENUM)
#undef RT_NLSYNC_ENUM
		RT_NLSYNC_REFUSAL_MAX
};

/** The counter-style name of @p why ("no_port"), "?" when out of range. */
const char *rt_nlsync_refusal_name(enum rt_nlsync_refusal why);

/** One line saying what @p why means, "?" when out of range. */
const char *rt_nlsync_refusal_desc(enum rt_nlsync_refusal why);

/** The refusal a negative errno of rt_netlink_apply_from() stands for. */
enum rt_nlsync_refusal rt_nlsync_refusal_of(int err);

/**
 * The counters. Every route message received is applied, rejected (by
 * rt_netlink_parse()) or refused (by the rules above or the table), or
 * it is a dump's word on a route an event already spoke of in that resync
 * (superseded: rt_nlfresh.h):
 * received = applied + sum(rejected) + sum(refused) + superseded.
 */
struct rt_nlsync_stats {
	uint64_t received; /**< RTM_NEWROUTE / RTM_DELROUTE messages, dumped or events */
	uint64_t applied;
	uint64_t rejected[RT_NL_REASON_MAX]; /**< by enum rt_nl_reason ([RT_NL_OK] stays 0) */
	uint64_t refused[RT_NLSYNC_REFUSAL_MAX];
	uint64_t resyncs;         /**< complete dumps, each followed by a sweep */
	uint64_t swept;           /**< stale netlink routes the sweeps deleted */
	uint64_t overruns;        /**< ENOBUFS: events lost, a resync follows */
	uint64_t last_marked;     /**< routes marked by the last complete resync */
	uint64_t superseded;      /**< dumped routes left out: an event of theirs came first */
	uint64_t logs_suppressed; /**< log lines left out by the rate limit (rt_lograte.h) */
	bool running;             /**< the thread runs */
	bool in_sync; /**< a dump completed since the thread started, no overrun since */
};

/**
 * The thread's path for what it reads, without a socket (tests, the fuzzer;
 * a sync not started): a resync begins as if a dump had been asked with
 * sequence @p seq (0 is taken as 1) from port id @p portid.
 *
 * @return 0, or -EBUSY while the thread runs.
 */
int rt_nlsync_replay_begin(struct rt_nlsync *s, uint32_t portid, uint32_t seq);

/**
 * One datagram as recv() gives it to the thread (a sync not started): events,
 * and the parts of the dump rt_nlsync_replay_begin() began (its port id and
 * sequence), whose NLMSG_DONE ends the resync (the sweep, in_sync).
 *
 * @return 0, or -EBUSY while the thread runs.
 */
int rt_nlsync_replay(struct rt_nlsync *s, const void *buf, size_t len);

/** Copy the counters into @p st (any thread; each a single aligned read). */
void rt_nlsync_stats_get(const struct rt_nlsync *s, struct rt_nlsync_stats *st);

/**
 * rt_sync_counter_group() of the "rejected" (@p rejected, by enum
 * rt_nl_reason, RT_NL_OK left out) and "refused" (@p refused, by enum
 * rt_nlsync_refusal) counters: the groups the netlink sync and the FPM
 * listener share.
 */
void rt_nlsync_counters_reasons(struct rt_nlsync_counter *c, unsigned int max, unsigned int *n,
	const uint64_t *rejected, const uint64_t *refused);

#endif /* RT_NLSYNC_H */
