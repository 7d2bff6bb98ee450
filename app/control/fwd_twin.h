/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TWIN_H
#define FWD_TWIN_H

/**
 * @file
 * The kernel twins of the router ports (the exception path, issue 18): for
 * each `[port N] twin = IFNAME` a net_tap port, made at set-up in
 * `[route] twin-netns` with the router port's MAC, MTU and address and
 * handed to the slow path (rt_control_set_twin()), which sends it what is
 * for the router and not answered by itself, and sends out of the router
 * port what the kernel sends on it. Twins are not router ports: no worker
 * polls them, they are not in app->nb_ports, the port stats leave them out.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ethdev.h>
#include <rte_mempool.h>

#include "fwd_app.h"

struct rt_control;

/** The twins' component context (fwd_component.h): the router ports' kernel twins. */
struct fwd_twin_ctx {
	uint16_t n_twins;
	struct fwd_twin_port {
		uint16_t port;    /**< the router port */
		uint16_t port_id; /**< the twin's DPDK port */
		bool started;
		char dev[32]; /**< its vdev name */
	} twins[RTE_MAX_ETHPORTS];
	struct rte_mempool *pool; /**< what the twins receive into */
};

/** The twins' context in @p app (the component's, fwd_twin_cmds.c). */
struct fwd_twin_ctx *fwd_twin_ctx(const struct fwd_app *app);

/**
 * Make, configure and start the twins the config asks for (nothing when it
 * asks for none) and give them to @p ctl, before its first poll.
 *
 * @return 0, or a negative errno with @p err set (the [port N] section's
 *   file:line first).
 */
int fwd_twin_setup(struct fwd_app *app, struct rt_control *ctl, char *err, size_t errlen);

/**
 * Stop, close and remove the twins (their interfaces go with them). Call
 * when the slow path no longer polls them and the frames from them on the
 * TX ring are freed; then fwd_twin_check().
 */
void fwd_twin_release(struct fwd_app *app);

/** Add to @p missing the twins' pool's mbufs not back (reported on stderr), free the pool. */
void fwd_twin_check(struct fwd_app *app, int *missing);

/** The shell's `show twin`: each twin (port, interface, namespace) and the counters. */
void fwd_twin_show(const struct fwd_app *app, FILE *f);

#endif /* FWD_TWIN_H */
