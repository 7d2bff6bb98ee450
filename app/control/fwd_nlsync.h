/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_NLSYNC_H
#define FWD_NLSYNC_H

/**
 * @file
 * The app's side of the netlink route sync (route/sync/rt_nlsync.h): started
 * at set-up when the config has `[route] netlink-netns`, stopped before the
 * table goes, and the shell's `netlink start|stop|resync` and `show netlink`.
 */

#include <stdio.h>

#include "fwd_app.h"
#include "rt_fpm_ctl.h"
#include "rt_nlsync_ctl.h"

/**
 * Start the sync of the config's netlink-netns with its [port N]
 * netlink-ifname map (nothing when the config has none), after the table
 * has its ports, routes and files.
 *
 * @return 0, or a negative errno with @p err set.
 */
int fwd_nlsync_setup(struct fwd_app *app, char *err, size_t errlen);

/**
 * Stop and free the sync (the table's routes stay; NULL sync is fine), its
 * final counters kept in app->rt_nlsync_kept for the stats file.
 */
void fwd_nlsync_release(struct fwd_app *app);

/**
 * The shell's `netlink start`, `netlink stop` and `netlink resync`
 * (@p op), reporting on @p out.
 *
 * @return 0 or a negative errno (said on @p out).
 */
int fwd_nlsync_op(struct fwd_app *app, const char *op, FILE *out);

/** The shell's `show netlink`: state, namespace, counters by reason. */
void fwd_nlsync_show(const struct fwd_app *app, FILE *f);

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
 * @p state, for fwd_nlsync_release() and fwd_fpm_release().
 *
 * @return the copy (free() it), or NULL when out of memory (the stats file
 *   then lacks the sync's counters, nothing else does).
 */
struct fwd_sync_kept *fwd_sync_keep(
	const char *where, const char *state, const struct rt_nlsync_counter *c, unsigned int n);

#endif /* FWD_NLSYNC_H */
