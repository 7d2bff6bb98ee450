/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_PORT_H
#define FWD_PORT_H

/**
 * @file
 * Port bring-up and shutdown: configure (RSS and offloads only when the port
 * advertises them), queue setup, start, stop, close.
 */

#include "fwd_app.h"

/**
 * Configure, set up the queues of and start port @p port->id; RX queues take
 * mbufs from @p pool.
 *
 * @return 0, or a negative errno with @p err set to
 *   "port N (name): what failed: why".
 */
int fwd_port_start(const struct fwd_config *cfg, struct fwd_port *port, struct rte_mempool *pool,
	char *err, size_t errlen);

/** fwd_port::link: nothing reported yet, down, up. */
enum { FWD_LINK_UNKNOWN, FWD_LINK_DOWN, FWD_LINK_UP };

/**
 * Read the link of @p port without waiting and log a line when it differs
 * from the last one reported ("port N (name): link up, 1 Gbps full-duplex" /
 * "link down"). Called from the LSC callback on ports that raise link
 * interrupts, and periodically by the main loop for the others.
 */
void fwd_port_link_report(struct fwd_port *port);

/**
 * Log the link of every one of the @p n @p ports whose state changed since
 * its last line: all of them when @p all (the first look), else those
 * without link interrupts (the others report from their LSC callback). For
 * the loops that wait while forwarding runs: fwd_app_run(), the shell's sleep.
 */
void fwd_port_watch_links(struct fwd_port *ports, uint16_t n, bool all);

/** Stop a started port (TX pcap files are complete after this). */
void fwd_port_stop(struct fwd_port *port);

/** Close a probed port (once), releasing its queues and their mbufs. */
void fwd_port_close(struct fwd_port *port);

#endif /* FWD_PORT_H */
