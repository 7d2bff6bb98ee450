/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FPM_CTL_H
#define RT_FPM_CTL_H

/**
 * @file
 * What the app (app/control) uses of the FPM listener, whose code is in
 * route/sync/rt_fpm_listen.c and rt_fpm_session.c (see rt_fpm.h for what it takes and how): create,
 * start, stop, and its counters as (group, name, value) triples, the
 * netlink sync's struct, so that the shell and telemetry print both alike.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_nlsync_ctl.h"

struct rt_table;
struct rt_fpm;

/** The port zebra's `fpm address A port P` connects to by default. */
#define RT_FPM_PORT_DEFAULT 2620

/** How long after a connect the routes not sent again are swept, by default. */
#define RT_FPM_SWEEP_MS_DEFAULT 3000

/** How long a second connection may stay silent before it is closed, by default. */
#define RT_FPM_CANDIDATE_MS_DEFAULT 5000

/** The most networks [route] fpm-allow names. */
#define RT_FPM_ALLOW_MAX 16

/** A network of peers that may connect (fpm-allow). */
struct rt_fpm_net {
	uint32_t net; /**< host order, no host bits */
	uint8_t plen; /**< 0..32 */
};

/** Parameters of rt_fpm_create(); copied. */
struct rt_fpm_params {
	struct rt_table *table;                 /**< NULL: parse and resolve only (the fuzzer) */
	uint32_t addr;                          /**< the address to listen on, host order */
	uint16_t port;                          /**< 0: any (rt_fpm_port() says which) */
	uint32_t sweep_ms;                      /**< 0: RT_FPM_SWEEP_MS_DEFAULT */
	const struct rt_nlsync_ifname *ifnames; /**< interfaces to ports; may be NULL */
	unsigned int n_ifnames;
	/**
	 * The namespace zebra runs in (the twins', [route] twin-netns), under
	 * /run/netns; "", "." or NULL: the forwarder's own. The listener's
	 * thread enters it: @c ifnames are looked up there, and a peer whose
	 * address is one of that namespace's own may connect by default.
	 */
	const char *netns;
	/**
	 * The peers that may connect (fpm-allow), @c n_allow of them; none: the
	 * default, loopback (127.0.0.0/8) and the addresses of @c netns. A
	 * connection from any other peer is closed at once (refused_peers).
	 */
	const struct rt_fpm_net *allow;
	unsigned int n_allow;
	/** 0: RT_FPM_CANDIDATE_MS_DEFAULT (see rt_fpm.h, "One session") */
	uint32_t candidate_ms;
};

/**
 * Create a listener of @p p (not started). @return the object, or NULL with
 * rte_errno set (EINVAL: too many names or networks, a namespace name too
 * long; ENOMEM).
 */
struct rt_fpm *rt_fpm_create(const struct rt_fpm_params *p);

/**
 * Listen (bind and listen now, so that an address in use is told at once)
 * and start the thread that accepts zebra and reads its stream.
 *
 * @return 0, -EALREADY when running, or a negative errno with @p err set.
 */
int rt_fpm_start(struct rt_fpm *f, char *err, size_t errlen);

/**
 * Stop the thread (closing the listener and the connection) and wait for
 * it. Its routes stay. @return 0 or -EALREADY when not running.
 */
int rt_fpm_stop(struct rt_fpm *f);

/** Stop @p f if running and free it (NULL is fine). The routes stay. */
void rt_fpm_free(struct rt_fpm *f);

/** The port listened on (the one bound when the params said 0), 0 before a start. */
uint16_t rt_fpm_port(const struct rt_fpm *f);

/** "ADDR:PORT" listened on, into @p buf. @return @p buf. */
const char *rt_fpm_where(const struct rt_fpm *f, char *buf, size_t len);

/** "stopped", "listening" (no client), "syncing" (a client, not swept yet) or "in_sync". */
const char *rt_fpm_state(const struct rt_fpm *f);

/**
 * Wait up to @p timeout_ms for the sweep of a connection that began after
 * the call (tests and tools). @return 0, -ETIMEDOUT or -ENOTCONN (not running).
 */
int rt_fpm_wait_sync(const struct rt_fpm *f, unsigned int timeout_ms);

/** rt_fpm_counters() never gives more than this. */
#define RT_FPM_COUNTERS_MAX 80

/**
 * The counters, in a fixed order: connects, replaced, disconnects,
 * refused_peers, candidates, candidates_dropped, logs_suppressed, frames,
 * received, applied, unresolved, nexthops_received, nexthops_applied,
 * nexthops, nexthop_moves, resyncs, swept, last_marked, then the groups "framing",
 * "rejected" (rt_netlink_parse()'s reasons), "refused" and "nh_rejected",
 * into @p c (up to @p max).
 *
 * @return how many there are.
 */
unsigned int rt_fpm_counters(const struct rt_fpm *f, struct rt_nlsync_counter *c, unsigned int max);

#endif /* RT_FPM_CTL_H */
