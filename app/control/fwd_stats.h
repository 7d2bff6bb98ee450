/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_STATS_H
#define FWD_STATS_H

/**
 * @file
 * Reading, printing and writing the counters: per port (ethdev basic stats,
 * xstats on request), per RX queue and TX buffer, per lcore, and drops by
 * reason.
 */

#include <stdio.h>

#include "fwd_app.h"

/** Sum of one drop reason over every worker. */
uint64_t fwd_stats_drop_total(const struct fwd_app *app, enum fwd_drop_reason r);

/**
 * An lcore's dropped packets: the sum of its @p drops by reason but
 * pktgen_rx. What --fwd pktgen receives is measured by the generator, not
 * dropped (the lcore line's "measured"): the console's and telemetry's
 * "dropped" are this one definition (the stats file keeps every reason).
 */
uint64_t fwd_stats_lcore_dropped(const uint64_t drops[FWD_DROP_MAX]);

/**
 * rte_eth_stats_get() of port @p p, with the bytes the forwarder counted in
 * place of the PMD's where it counts none (net_null, net_ring: see
 * fwd_port.app_bytes), less what they were at the last clear of the port's
 * stats. Every display of a port's counters reads them through this.
 *
 * @return 0 or a negative errno (from rte_eth_stats_get()).
 */
int fwd_stats_port_get(const struct fwd_app *app, uint16_t p, struct rte_eth_stats *s);

/**
 * Frames port @p p's TX queues accepted (the forwarder's TX buffers, the
 * slow path's included) that the device does not count as sent in @p s
 * (its fwd_stats_port_get()): what a device that discards silently lost.
 * Exact once TX has drained; 0 when the device counts more.
 */
uint64_t fwd_stats_port_tx_lost(
	const struct fwd_app *app, uint16_t p, const struct rte_eth_stats *s);

/** The bytes the forwarder counted on port @p p since the start (with fwd_port.app_bytes). */
void fwd_stats_app_bytes(const struct fwd_app *app, uint16_t p, uint64_t *ibytes, uint64_t *obytes);

/** Refresh app->ports[].stats from the ports (keeps the previous read for rates). */
void fwd_stats_read_ports(struct fwd_app *app);

/**
 * Make the ports' counters as they are now the base of the next rates
 * (app->prev_tsc, ports[].prev_stats): at every start and counter reset, so
 * that a rate never divides packets of one period by the time of another.
 */
void fwd_stats_rate_base(struct fwd_app *app);

/** Cycles spent forwarding so far, over every start/stop, the current run included. */
uint64_t fwd_stats_busy(const struct fwd_app *app);

/**
 * Print every counter to @p f; @p final selects the exit report (totals over
 * the run) instead of the periodic one (with rates since the previous print).
 */
void fwd_stats_print(struct fwd_app *app, FILE *f, bool final);

/**
 * Check, before a run, that the stats file can be written where @p path says
 * (see fwd_stats_write_json() for how): a directory, a block device, a socket
 * or a place without write permission is refused now rather than at exit.
 *
 * @return 0, or a negative errno with the reason in @p err.
 */
int fwd_stats_file_check(const char *path, char *err, size_t errlen);

/**
 * Write every counter as one JSON object to @p path. A regular file, a
 * symlink to one (the target is written) or a new file gets a temporary file
 * renamed into place, so no reader sees half of it; a character device, a
 * FIFO (it must have a reader) or the forwarder's own stdout/stderr is
 * written in place, never replaced.
 *
 * @return 0, or a negative errno (-ENOSPC on a full disk) with the reason
 *   in @p err.
 */
int fwd_stats_write_json(const struct fwd_app *app, const char *path, char *err, size_t errlen);

/**
 * Write @p s to @p f as a JSON string, quoted and escaped: names come from
 * drivers, namespaces and configs, and the stats file stays valid whatever
 * they hold (a component's json hook uses it too).
 */
void fwd_stats_json_string(FILE *f, const char *s);

#endif /* FWD_STATS_H */
