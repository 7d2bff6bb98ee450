/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_LIFECYCLE_H
#define FWD_LIFECYCLE_H

/**
 * @file
 * The three phases main() walks through: setup (ports, workers, pools, then
 * every component), run, teardown (with the leak check); and the abort of a
 * setup that failed.
 */

#include <stdbool.h>
#include <stddef.h>

#include "fwd_app.h"

/**
 * Check the map against the running system (ports, lcores), or build the
 * default one, then create workers, pools and ports and start the ports.
 *
 * @return 0, or a negative errno with @p err set to one line.
 */
int fwd_app_setup(struct fwd_app *app, char *err, size_t errlen);

/**
 * Non-interactive run: start forwarding and wait, printing stats every stats
 * period, until --duration passes or app->quit is set (by a signal); then
 * stop forwarding.
 */
void fwd_app_run(struct fwd_app *app);

/**
 * Stop the workers if they run, then the ports, read the final counters, close the ports,
 * check that every mbuf is back in its pool, print and write the stats.
 *
 * @return 0, or -EFAULT when mbufs are missing from a pool (reported on
 *   stderr), or -EIO when the stats file cannot be written.
 */
int fwd_app_teardown(struct fwd_app *app);

/**
 * Undo a setup that failed part-way: stop and close the ports, free the
 * workers and pools. No stats are printed.
 */
void fwd_app_abort(struct fwd_app *app);

#endif /* FWD_LIFECYCLE_H */
