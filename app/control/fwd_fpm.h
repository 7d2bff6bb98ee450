/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_FPM_H
#define FWD_FPM_H

/**
 * @file
 * The app's side of the FPM listener (route/sync/rt_fpm.h): started at
 * set-up when the config has `[route] fpm-listen`, stopped before the table
 * goes, and the shell's `show fpm`.
 */

#include <stdio.h>

#include "fwd_app.h"

/**
 * Listen where the config's fpm-listen says, with the [port N]
 * netlink-ifname map (nothing when the config has no fpm-listen), after the
 * table and its ports are set up.
 *
 * @return 0, or a negative errno with @p err set (the address in use, ...).
 */
int fwd_fpm_setup(struct fwd_app *app, char *err, size_t errlen);

/**
 * Stop the listener and free it (nothing when there is none). Its routes
 * stay; its final counters are kept in app->rt_fpm_kept for the stats file.
 */
void fwd_fpm_release(struct fwd_app *app);

/** The shell's `show fpm`: where, state, counters by reason. */
void fwd_fpm_show(const struct fwd_app *app, FILE *f);

#endif /* FWD_FPM_H */
