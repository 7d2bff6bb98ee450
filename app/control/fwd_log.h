/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_LOG_H
#define FWD_LOG_H

/**
 * @file
 * The application's one log type ("app.forwarder") and its logging macro.
 *
 * Diagnostics go through rte_log so that --log-level=app.forwarder:debug works
 * as with any DPDK component. User errors (bad option, bad config line) are
 * printed with fwd_err(), which works before EAL is up.
 */

#include <stdio.h>

#include <rte_log.h>

#include "fwd_escape.h"

extern int fwd_logtype;

#define FWD_LOG(level, ...) rte_log(RTE_LOG_##level, fwd_logtype, "forwarder: " __VA_ARGS__)

/**
 * Print one user-facing error line on stderr: "dpdk-forwarder: error: ...",
 * with what is not printable in it (bytes of a binary config file, a
 * terminal escape in an option value) written as \xNN.
 */
#define fwd_err(...) fwd_err_print(__VA_ARGS__)

#endif /* FWD_LOG_H */
