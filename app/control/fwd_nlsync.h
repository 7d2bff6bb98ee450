/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_NLSYNC_H
#define FWD_NLSYNC_H

/**
 * @file
 * The app's side of the route syncs (route/sync/): the netlink sync
 * (fwd_nlsync.c: `[route] netlink-netns`, the shell's `netlink
 * start|stop|resync` and `show netlink`, /forwarder/netlink) and the FPM
 * listener (fwd_fpm.c: `fpm-listen`, `show fpm`, /forwarder/fpm), each a
 * component of its own (fwd_component.h) ordered after the router's, and
 * what they share, below.
 */

#include <stdio.h>

#include <rte_telemetry.h>

#include "fwd_app.h"
#include "rt_fpm_ctl.h"
#include "rt_nlsync_ctl.h"

/**
 * The config's [port N] netlink-ifname map into @p names (RTE_MAX_ETHPORTS
 * entries): the interfaces of the netlink sync and of the FPM listener.
 *
 * @return how many there are.
 */
unsigned int fwd_sync_ifnames(const struct rt_config *cfg, struct rt_nlsync_ifname *names);

/**
 * Print @p n counters of a route sync (the netlink sync's or the FPM
 * listener's): the plain ones on one line, then one line a group
 * ("rejected: other_table 7 ...").
 */
void fwd_sync_counters_print(FILE *f, const struct rt_nlsync_counter *c, unsigned int n);

/** The most counters a route sync has (the FPM listener's list is the longer). */
#define FWD_SYNC_COUNTERS_MAX RT_FPM_COUNTERS_MAX
_Static_assert(RT_FPM_COUNTERS_MAX >= RT_NLSYNC_COUNTERS_MAX, "a kept sync holds either list");

/**
 * A route sync's counters as they were when it was released: the stats file
 * is written after the table, and so the syncs that write into it, are gone.
 */
struct fwd_sync_kept {
	char where[64];    /**< the netlink namespace ("" its own), or the FPM address */
	const char *state; /**< its state before the stop (a static string) */
	unsigned int n;
	struct rt_nlsync_counter c[FWD_SYNC_COUNTERS_MAX]; /**< names: static strings */
};

/**
 * A copy of @p n counters @p c (up to FWD_SYNC_COUNTERS_MAX), @p where and
 * @p state, for a sync's release.
 *
 * @return the copy (free() it), or NULL when out of memory (the stats file
 *   then lacks the sync's counters, nothing else does).
 */
struct fwd_sync_kept *fwd_sync_keep(
	const char *where, const char *state, const struct rt_nlsync_counter *c, unsigned int n);

/**
 * A sync's counters into the telemetry dict @p d: the plain ones as they are,
 * each group's (in a row) in one nested dict, as telemetry nests one level.
 */
void fwd_sync_counters_tel(
	struct rte_tel_data *d, const struct rt_nlsync_counter *c, unsigned int n);

/**
 * The stats file's member @p key of a sync kept at its release (nothing when
 * @p k is NULL), in the shape of its telemetry endpoint: @p where_key (its
 * namespace or address), the state, the plain counters, then each group of
 * reasons as one object; a comma and a newline after it.
 */
void fwd_sync_kept_json(
	FILE *f, const char *key, const char *where_key, const struct fwd_sync_kept *k);

#endif /* FWD_NLSYNC_H */
