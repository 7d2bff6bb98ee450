/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_CTL_H
#define FWD_CTL_H

/**
 * @file
 * Control operations on a set-up application, shared by the non-interactive
 * run, the shell and telemetry. Anything that changes what the workers read
 * (mode, ports) is done with the workers stopped: an operation that needs it
 * stops forwarding, makes the change and starts forwarding again, so the
 * datapath never races a change.
 *
 * All run on the main lcore. Errors: negative errno, with a reason in @p err
 * where one is taken.
 */

#include <stdbool.h>
#include <stdint.h>

#include "fwd_app.h"

/** Launch the workers. @return 0, or -EALREADY if forwarding runs. */
int fwd_ctl_start(struct fwd_app *app);

/**
 * testpmd's "start tx_first": before the workers start, send one burst of
 * 64-byte frames out of every started port, so that ports wired into a loop
 * have something to forward. Only where the mode forwards what it receives
 * (io, mac, macswap), with forwarding stopped.
 *
 * @return frames sent, or -errno with the reason in @p err.
 */
int fwd_ctl_tx_first(struct fwd_app *app, char *err, size_t errlen);

/**
 * Start forwarding, after fwd_ctl_tx_first() when --tx-first was given (a
 * mode that cannot is logged, and starts anyway, as testpmd does).
 */
void fwd_ctl_start_configured(struct fwd_app *app);

/**
 * testpmd's "set burst N": packets per RX burst and TX flush, on every worker
 * (quiesced and restarted if forwarding). @return 0 or -EINVAL (reason in @p err).
 */
int fwd_ctl_set_burst(struct fwd_app *app, unsigned int burst, char *err, size_t errlen);

/** Stop the workers and wait for them (they flush their TX buffers). @return 0 or -EALREADY. */
int fwd_ctl_stop(struct fwd_app *app);

/**
 * Stop the workers for a change made with them stopped (set burst, set
 * mode, a port or queue stop or start, a counter clear, trace start), in the
 * same run: fwd_ctl_resume() goes on with it. Generators pause and go on
 * after it, where they were (pktgen_lcore_pause()).
 *
 * @return whether forwarding ran (fwd_ctl_resume()'s @p was_running).
 */
bool fwd_ctl_pause(struct fwd_app *app);

/**
 * fwd_ctl_pause() for a change of the generators themselves (pktgen start,
 * a new stream): their runs end as at a stop, every clone reference settled
 * and what was on its way back received, before the change.
 *
 * @return whether forwarding ran (fwd_ctl_resume()'s @p was_running).
 */
bool fwd_ctl_pause_generators_end(struct fwd_app *app);

/**
 * Start the workers again after fwd_ctl_pause() when @p was_running, in the
 * run the user started: the ports' counters at its start are kept (what
 * stop prints counts from the user's start, not from the change). The rate
 * base is taken again, as at any start: the next rate covers what ran since.
 * Nothing when forwarding did not run.
 */
void fwd_ctl_resume(struct fwd_app *app, bool was_running);

/**
 * Change the forwarding mode of every worker. Route and pktgen mode need
 * what only a start in that mode sets up (the router; the generators and
 * receive sides): -ENOTSUP otherwise, with the reason in @p err, and the
 * mode stays. Leaving route or pktgen mode for an L2 mode and coming back
 * works (the generators go on where they stopped).
 */
int fwd_ctl_set_mode(struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen);

/**
 * Stop or start port @p port (RTE_MAX_ETHPORTS: every port). While a port is
 * stopped, nothing polls it and packets routed to it are dropped as
 * "port_down".
 *
 * @return 0, -ENODEV for a bad port, or the ethdev error of the first failure
 *   (@p err says which port and why).
 */
int fwd_ctl_port_set(struct fwd_app *app, uint16_t port, bool up, char *err, size_t errlen);

/**
 * testpmd's "port P rxq|txq Q start|stop": start or stop one queue of a started
 * port, with the workers quiesced. A stopped RX queue is not polled; packets
 * for a stopped TX queue are dropped as "txq_stopped". A port start starts
 * every queue again.
 *
 * @return 0, -ENODEV/-EINVAL for a bad port or queue, -ENOTSUP when the
 *   driver has no queue start/stop, or the ethdev error (reason in @p err).
 */
int fwd_ctl_queue_set(struct fwd_app *app, uint16_t port, bool rx, uint16_t queue, bool up,
	char *err, size_t errlen);

/** Promiscuous mode on/off on @p port (RTE_MAX_ETHPORTS: every port). */
int fwd_ctl_promisc(struct fwd_app *app, uint16_t port, bool on, char *err, size_t errlen);

/** Zero the port counters (ethdev stats and xstats) of @p port (RTE_MAX_ETHPORTS: all). */
int fwd_ctl_clear_port_stats(struct fwd_app *app, uint16_t port);

/**
 * Zero every counter the forwarding stats show: the workers' (RX/TX, per
 * queue, drops), the flow stage's and the route slow path's. Forwarding may
 * run (it is stopped and started around the clear).
 */
void fwd_ctl_clear_fwd_stats(struct fwd_app *app);

#endif /* FWD_CTL_H */
