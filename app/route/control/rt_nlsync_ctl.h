/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_NLSYNC_CTL_H
#define RT_NLSYNC_CTL_H

/**
 * @file
 * What the app (app/control) uses of the netlink route sync, whose code is
 * in route/sync/rt_nlsync.c (see rt_nlsync.h for what it takes and how):
 * create, start, stop, resync, and its counters as (group, name, value)
 * triples, so that the shell and telemetry print them without knowing the
 * reasons' tables.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <net/if.h>

struct rt_table;
struct rt_nlsync;

/** A kernel interface name that is a port. */
struct rt_nlsync_ifname {
	char name[IF_NAMESIZE];
	uint16_t port;
};

/** Parameters of rt_nlsync_create(); copied. */
struct rt_nlsync_params {
	struct rt_table *table;
	/** the namespace's name under /run/netns; "", "." or NULL: the forwarder's own */
	const char *netns;
	const struct rt_nlsync_ifname *ifnames; /**< the map; may be NULL */
	unsigned int n_ifnames;
	/** the socket's receive buffer in bytes (0: 4 MiB); small ones overrun sooner */
	uint32_t rcvbuf;
};

struct rt_nlsync;

/**
 * Create a sync of @p p (not started). @return the object, or NULL with
 * rte_errno set (EINVAL: a name too long, ENOMEM).
 */
struct rt_nlsync *rt_nlsync_create(const struct rt_nlsync_params *p);

/**
 * Start the thread and wait until it has entered the namespace and opened
 * and bound its socket; it then dumps and follows the events.
 *
 * @return 0, -EALREADY when running, or a negative errno with @p err set
 *   (no such namespace, no permission, ...).
 */
int rt_nlsync_start(struct rt_nlsync *s, char *err, size_t errlen);

/**
 * Stop the thread and wait for it. The routes it put in stay (as a routing
 * daemon's do over its restart); the next start's sweep removes those that
 * went meanwhile. @return 0 or -EALREADY when not running.
 */
int rt_nlsync_stop(struct rt_nlsync *s);

/**
 * Ask the running thread for a resync (a new dump, then a sweep).
 * @return 0 or -ENOTCONN when not running.
 */
int rt_nlsync_resync(struct rt_nlsync *s);

/** The namespace's name, "" for the forwarder's own. */
const char *rt_nlsync_netns(const struct rt_nlsync *s);

/** Stop @p s if running and free it (NULL is fine). The routes stay. */
void rt_nlsync_free(struct rt_nlsync *s);

/**
 * Wait up to @p timeout_ms for the running sync's first complete resync
 * since its start (its dump applied and swept): the app's start-up waits, so
 * that forwarding starts with the namespace's routes in the table.
 *
 * @return 0, -ETIMEDOUT, or -ENOTCONN when the thread does not run.
 */
int rt_nlsync_wait(const struct rt_nlsync *s, unsigned int timeout_ms);

/** One counter of rt_nlsync_counters(). */
struct rt_nlsync_counter {
	const char *group; /**< NULL, or "rejected" / "refused" for the reasons */
	const char *name;  /**< "received", ..., or the reason's name */
	uint64_t value;
};

/**
 * Put one counter at @p c[*n] when *n < @p max, and count it in *n either
 * way (the counter lists of the netlink sync and the FPM listener).
 */
static inline void
rt_sync_counter_put(struct rt_nlsync_counter *c, unsigned int max, unsigned int *n,
	const char *group, const char *name, uint64_t value)
{
	if (*n < max)
		c[*n] = (struct rt_nlsync_counter){.group = group, .name = name, .value = value};
	(*n)++;
}

/**
 * rt_sync_counter_put() of @p v[from..to-1], each named by @p name_of(i), in
 * group @p group (a reasons' X-macro table's counters).
 */
static inline void
rt_sync_counter_group(struct rt_nlsync_counter *c, unsigned int max, unsigned int *n,
	const char *group, const char *(*name_of)(unsigned int), const uint64_t *v,
	unsigned int from, unsigned int to)
{
	unsigned int i;

	for (i = from; i < to; i++)
		rt_sync_counter_put(c, max, n, group, name_of(i), v[i]);
}

/** rt_nlsync_counters() never gives more than this. */
#define RT_NLSYNC_COUNTERS_MAX 64

/**
 * The counters, in a fixed order: received, applied, resyncs, swept,
 * overruns, last_marked, superseded, logs_suppressed, then the "rejected" reasons (rt_netlink_parse()'s)
 * and the "refused" ones, into @p c (up to @p max).
 *
 * @return how many there are.
 */
unsigned int rt_nlsync_counters(
	const struct rt_nlsync *s, struct rt_nlsync_counter *c, unsigned int max);

/** "stopped", "syncing" (a dump under way, or asked) or "in_sync". */
const char *rt_nlsync_state(const struct rt_nlsync *s);

#endif /* RT_NLSYNC_CTL_H */
