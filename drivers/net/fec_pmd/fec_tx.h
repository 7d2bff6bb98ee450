/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_TX_H
#define FEC_TX_H

/**
 * @file
 * net_fec TX: the burst and tx_prepare, the reclaim and what it counts
 * (errors, timestamps), the ERR006358 re-kick and the ring-full path.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <ethdev_driver.h>

#include "fec_priv.h"

/**
 * ERR006358 (SoCs with the quirk): frames still on the TX ring but the MAC
 * went idle, its doorbell lost: kick it again. Called after completion handling.
 *
 * @param txq
 *   TX queue.
 */
static inline void
fec_tx_err006358_kick(struct fec_txq *txq)
{
	if (txq->fep->err006358 && txq->nb_free < txq->nb_desc &&
		!(fec_rd32(txq->fep, txq->tdar) & FEC_DAR_ACTIVE))
		fec_wr32(txq->fep, txq->tdar, 0);
}

/**
 * Transmit burst; returns fewer than n when the ring is full (back-pressure).
 *
 * @param q
 *   TX queue.
 * @param pkts
 *   Frames.
 * @param n
 *   How many.
 * @return
 *   Frames taken.
 */
uint16_t fec_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * tx_prepare (fec_txprep.c): clear the IPv4 header and TCP/UDP checksum
 * fields the MAC is asked to fill (it sums them as it finds them); refuse
 * what it cannot insert: IPv6, SCTP, tunnels, TSO, fragments, QinQ or
 * non-Ethernet-II framing (ENOTSUP), lengths or flags that disagree with the
 * headers (EINVAL), checksum flags on a queue without the offload (ENOTSUP).
 *
 * @param q
 *   TX queue.
 * @param pkts
 *   Frames.
 * @param n
 *   How many.
 * @return
 *   Frames ready; when fewer than n, rte_errno says why the next one is not.
 */
uint16_t fec_tx_prepare(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * Free every segment still on the TX ring and reset its indices.
 *
 * @param txq
 *   TX queue.
 */
void fec_tx_free_inflight(struct fec_txq *txq);

/**
 * Reclaim transmitted BDs and apply the ERR006358 kick.
 *
 * @param txq
 *   TX queue.
 */
void fec_tx_reclaim(struct fec_txq *txq);

/**
 * stats=sw: count the TX errors of the completed BDs about to be reclaimed
 * (FEC_TX_ERR_TABLE), one per frame, from its last BD.
 *
 * @param txq
 *   TX queue.
 * @param first
 *   First BD of the run.
 * @param n
 *   BDs in the run (the MAC has written them all back).
 */
void fec_tx_count_errors(struct fec_txq *txq, uint16_t first, uint16_t n);

/**
 * tx_descriptor_status (fast-path op).
 *
 * @param q
 *   TX queue.
 * @param offset
 *   BD after the next one to be filled.
 * @return
 *   RTE_ETH_TX_DESC_FULL / _DONE, or -EINVAL.
 */
int fec_tx_descriptor_status(void *q, uint16_t offset);

/**
 * tx_done_cleanup: free transmitted mbufs.
 *
 * @param q
 *   TX queue.
 * @param free_cnt
 *   Most packets to free, 0 for all.
 * @return
 *   Packets freed.
 */
int fec_tx_done_cleanup(void *q, uint32_t free_cnt);

/**
 * TX ring full after reclaim (tx_burst's slow path): the TX watchdog. The
 * first call starts a window; a call after tx_timeout with no frame taken
 * meanwhile restarts the MAC (FEC_RESTART_TX_TIMEOUT).
 *
 * @param txq
 *   TX queue.
 * @return
 *   0 (frames taken).
 */
uint16_t fec_tx_full(struct fec_txq *txq);

/**
 * TX queue's 1588 settings from the port (queue setup, timesync
 * enable/disable): TS bit from ol_flags, the reclaim's stamp claim.
 *
 * @param dev
 *   Port.
 * @param txq
 *   TX queue.
 */
void fec_tx_ts_conf(const struct rte_eth_dev *dev, struct fec_txq *txq);

/**
 * The reclaim's per-run extra work (txq->reclaim_slow): stats=sw TX errors,
 * and with timesync the stamp of the frame ts_bd names when the run has it.
 *
 * @param txq
 *   TX queue.
 * @param first
 *   First BD of the run.
 * @param n
 *   BDs in the run (written back by the MAC).
 */
void fec_tx_reclaim_slow(struct fec_txq *txq, uint16_t first, uint16_t n);

/**
 * Take the newest timestamped TX frame's stamp into the port's latch if
 * the MAC has written it back and no reclaim took it yet (read_tx_timestamp,
 * without waiting for a reclaim).
 *
 * @param dev
 *   Port.
 */
void fec_tx_ts_poll(struct rte_eth_dev *dev);

#endif /* FEC_TX_H */
