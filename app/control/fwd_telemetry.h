/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TELEMETRY_H
#define FWD_TELEMETRY_H

/**
 * @file
 * The forwarder's telemetry endpoints, next to DPDK's own /ethdev/...:
 *   /forwarder/stats   mode, state, totals and per-lcore counters
 *   /forwarder/drops   drop totals by reason
 *   /forwarder/lcores  which lcore polls which (port, queue)
 *   /forwarder/pktgen  generator and receive-side counters (--fwd pktgen)
 * and checked versions of DPDK's /eal/heap_info, /eal/memzone_info and
 * /ethdev/info, which crash on an out-of-range parameter in 22.11; then
 * every component's own (fwd_component.h: the router's /forwarder/routes,
 * /forwarder/route_summary and /forwarder/router, the flow stage's
 * /forwarder/flows and /forwarder/filter, /forwarder/trace, ...).
 * Read them with dpdk-telemetry.py (-f FILE_PREFIX) or the v2 socket.
 */

#include "fwd_app.h"

/**
 * Register the endpoints (once), as soon as EAL is up: until
 * fwd_telemetry_init() they answer state "starting" (/forwarder/stats, with
 * @p mode and no workers) or nothing, where an unregistered command answers
 * null. The telemetry socket is there from rte_eal_init(), and the set-up of
 * many workers takes seconds (2 s for 20 on 2 CPUs).
 */
void fwd_telemetry_register(enum fwd_mode mode);

/** Register the endpoints if they are not yet, and let them read @p app. */
void fwd_telemetry_init(struct fwd_app *app);

/**
 * Make the endpoints answer "not running" from now on; call before the app's
 * workers are freed (telemetry runs on its own thread and has no unregister).
 */
void fwd_telemetry_uninit(void);

/**
 * Keep every endpoint out until fwd_telemetry_resume(): for a change of
 * what they read that must not be seen half done (the generators replaced).
 * A reader waits meanwhile, so keep it short; not while holding the
 * endpoints' data locks.
 */
void fwd_telemetry_quiesce(void);

/** Let the endpoints read again (after fwd_telemetry_quiesce()). */
void fwd_telemetry_resume(void);

#endif /* FWD_TELEMETRY_H */
