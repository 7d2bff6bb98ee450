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
#include "rt_nlsync_ctl.h"

/**
 * Start the sync of the config's netlink-netns with its [port N]
 * netlink-ifname map (nothing when the config has none), after the table
 * has its ports, routes and files.
 *
 * @return 0, or a negative errno with @p err set.
 */
int fwd_nlsync_setup(struct fwd_app *app, char *err, size_t errlen);

/** Stop and free the sync (the table's routes stay; NULL sync is fine). */
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

#endif /* FWD_NLSYNC_H */
