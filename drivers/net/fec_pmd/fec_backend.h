/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_BACKEND_H
#define FEC_BACKEND_H

/**
 * @file
 * What lies behind a net_fec port's registers, chosen once at probe by devarg
 * backend=: the i.MX ENET through UIO (fec_uio.c, always built in) or the
 * software model (drivers/net/fec_pmd/model/, a library of its own that
 * registers itself when linked). The driver calls the backend only through
 * this table and fec_priv.wr32, so it tests no backend anywhere, and the PMD
 * links neither the model nor libpcap.
 */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fec_priv.h"

/** The devargs of a net_fec port, parsed and checked at probe (fec_probe.c). */
struct fec_args {
	char backend[8];
	char bd[12];
	char profile[12];
	char mode[12];
	char wire[PATH_MAX * 2 + 16];
	char uio_name[32];
	char stats[4];
	char rcmr[64];
	char intr[8];
	char coal[24];
	unsigned int itr_clk_mhz;
	unsigned long ptp_clk_mhz; /**< 1588 clock (fec_ptp_clk_parse checks it) */
	unsigned int phy_addr;
	bool phy_set; /**< phy_addr given; else the PHY is looked for on MDIO */
	unsigned int shift16;
	unsigned int pcap_follow; /**< wire=pcap: wait at the end of IN for more frames */
	unsigned int mib_period_ms;
	unsigned int lsc_period_ms;
	unsigned int tx_timeout_ms;
	unsigned int wd_period_ms;
};

/** A register backend: its name (devarg backend=) and what the driver asks of it. */
struct fec_backend {
	const char *name;
	/**
	 * Take the port: set fep->regs, wr32 and wr32_ctx, be_ctx, the BD area
	 * (bd_va, bd_bus, bd_len) and uio_dev (named in interrupt logs).
	 * 0 or -errno (logged here), nothing held on failure.
	 */
	int (*attach)(struct fec_priv *fep, const struct fec_args *a);
	/** Give it back (close, failed probe). */
	void (*detach)(struct fec_priv *fep);
	/** An RX queue's pool: made reachable by the MAC's DMA, or refused (-errno). */
	int (*rx_pool)(struct fec_priv *fep, struct rte_mempool *mp);
	/** dev_start: every pool the application may transmit from; < 0 refuses the start. */
	int (*tx_pools)(struct fec_priv *fep);
	/** Let time pass for the MAC inside a wait loop (step mode needs a step). */
	void (*wait_tick)(const struct fec_priv *fep);
	/** RX interrupts as the one UIO IRQ: another open of the device (an fd or -errno). */
	int (*irq_open)(struct fec_priv *fep);
	/** Close what irq_open gave. */
	void (*irq_close)(struct fec_priv *fep, int fd);
	/** Enable the IRQ the handler disabled (uio_pdrv_genirq's irqcontrol). */
	int (*irq_enable)(struct fec_priv *fep);
	/** Bytes a wake-up leaves on the irq_open fd (EAL reads as many). */
	uint32_t irq_counter_size;
	/** The interrupt line of RX queue q as an event fd; NULL: no lines (intr=lines refused). */
	int (*line_fd)(struct fec_priv *fep, uint16_t q);
};

/**
 * Make a backend known to net_fec (from a constructor: before EAL probes).
 *
 * @param be
 *   The table (static storage).
 */
void fec_backend_register(const struct fec_backend *be);

/**
 * A backend by name.
 *
 * @param name
 *   Devarg backend= value.
 * @return
 *   The table, NULL when no backend of that name is linked in.
 */
const struct fec_backend *fec_backend_find(const char *name);

/**
 * A pool of packet mbufs, as rte_pktmbuf_pool_create() makes them: its private
 * area holds struct rte_pktmbuf_pool_private (rounded up to a cache line by
 * the mempool library, so not compared for equality: that compare matched no
 * pool, and a pool only transmitted from was never mapped nor checked) and an
 * element is an mbuf, its private area and its data room. Other pools'
 * objects have no buf_iova to check or rewrite.
 *
 * @param mp
 *   Pool.
 * @return
 *   It holds packet mbufs.
 */
static inline bool
fec_is_pktmbuf_pool(struct rte_mempool *mp)
{
	const struct rte_pktmbuf_pool_private *p;

	if (mp->private_data_size < sizeof(*p))
		return false;
	p = rte_mempool_get_priv(mp);
	return mp->elt_size ==
	       sizeof(struct rte_mbuf) + (uint32_t)p->mbuf_priv_size + p->mbuf_data_room_size;
}

#endif /* FEC_BACKEND_H */
