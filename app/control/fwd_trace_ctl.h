/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TRACE_CTL_H
#define FWD_TRACE_CTL_H

/**
 * @file
 * The packet trace's control side: "trace start|stop|clear" and "show
 * trace" (the shell), /forwarder/trace (telemetry). The records are the
 * workers' (datapath/fwd_trace.h); this file arms them and prints them.
 */

#include <stdint.h>
#include <stdio.h>

#include "fwd_app.h"

/**
 * Record the next @p n packets received on @p port (FWD_TRACE_ANY_PORT:
 * any), on every worker; what an earlier trace recorded is cleared. The
 * workers are stopped around the change and restarted if they ran.
 *
 * @return 0, or -EINVAL (n not in 1..FWD_TRACE_MAX, no such port) or
 *   -ENOMEM, with @p err set to one line.
 */
int fwd_trace_ctl_start(struct fwd_app *app, uint32_t n, uint16_t port, char *err, size_t errlen);

/** Stop recording; what was recorded stays for show trace. */
void fwd_trace_ctl_stop(struct fwd_app *app);

/** Empty the records; a trace that records goes on with what is left of its budget. */
void fwd_trace_ctl_clear(struct fwd_app *app);

/** Print every record, packet by packet in trace order, one line per stage. */
void fwd_trace_ctl_show(const struct fwd_app *app, FILE *f);

struct rte_tel_data;

/**
 * /forwarder/trace[,START]: "packet<N>" from the @p start-th record (0:
 * the first), each an array of strings: the packet's line, then its stages'
 * lines as show trace prints them (cut at 127 characters), as many as the
 * reply to @p cmd holds; then "recorded", "asked", "recording", "start",
 * "count" (packets sent), "more" and "next" (the first not sent).
 */
void fwd_trace_ctl_telemetry(
	const struct fwd_app *app, struct rte_tel_data *d, const char *cmd, uint32_t start);

/** Free the workers' trace buffers (teardown). */
void fwd_trace_ctl_free(struct fwd_app *app);

#endif /* FWD_TRACE_CTL_H */
