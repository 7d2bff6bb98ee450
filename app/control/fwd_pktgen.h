/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_PKTGEN_H
#define FWD_PKTGEN_H

/**
 * @file
 * The app's side of --fwd pktgen (lib/pktgen): every worker generates on the
 * first TX queue it owns (its first output port, by the topology) and
 * accounts what its RX queues receive. Count and flows are split over the
 * workers. The stream comes from the [pktgen] section and "pktgen set".
 * Each worker's generator owns a fragpool and builds its packets from it.
 */

#include <stdbool.h>
#include <stdio.h>

#include "fwd_app.h"

/** Create every worker's generator and receive side. @return 0 or -errno with @p err. */
int fwd_pktgen_setup(struct fwd_app *app, char *err, size_t errlen);

/**
 * Rebuild the generators from app->cfg.pktgen (after "pktgen set"). The new
 * generators are built beside the running ones, which go on untouched if
 * that fails (both must fit in memory); forwarding stops only for the swap
 * and starts again if it ran. A replaced generator whose mbufs a port still
 * holds is kept until they are back (freed by a later rebuild or at exit).
 * The receive sides follow the stream's flow count and keep their counters.
 *
 * @param prev
 *   The stream the running generators were built from.
 * @return
 *   0, or -errno with @p err (-EBUSY: the ports still hold the mbufs of too
 *   many replaced generators); the running generators and receive sides are
 *   then unchanged.
 */
int fwd_pktgen_rebuild(
	struct fwd_app *app, const struct pktgen_stream_cfg *prev, char *err, size_t errlen);

/** Every worker has its generator and receive side (the forwarder started in pktgen mode). */
bool fwd_pktgen_ready(const struct fwd_app *app);

/** Send the stream again from the start (count, duration, sequence numbers). */
void fwd_pktgen_restart(struct fwd_app *app);

/** Every generator reached its count or duration. */
bool fwd_pktgen_done(const struct fwd_app *app);

/** Zero the receive-side counters (applied by each worker at its next poll). */
void fwd_pktgen_clear(struct fwd_app *app);

/**
 * Add to @p missing the mbufs of each generator's fragpool still out (the
 * workers stopped, which dropped the templates, and the ports closed),
 * reporting each generator short.
 */
void fwd_pktgen_check(struct fwd_app *app, int *missing);

/** Free generators and receive sides (ports stopped: no packet in flight). */
void fwd_pktgen_free(struct fwd_app *app);

/**
 * Once a second (call it more often; it keeps its own time): a warning for
 * each generator that fell short of its rate in the last second (its
 * pace_short went up: the port or the lcore cannot go faster), with the rate
 * asked and the rate sent. Main lcore only.
 */
void fwd_pktgen_watch(struct fwd_app *app);

/** Print the generator's and the receive side's counters. */
void fwd_pktgen_print(const struct fwd_app *app, FILE *f);

/** Write the "pktgen" member of the stats file (with a trailing comma). */
void fwd_pktgen_json(const struct fwd_app *app, FILE *f);

#endif /* FWD_PKTGEN_H */
