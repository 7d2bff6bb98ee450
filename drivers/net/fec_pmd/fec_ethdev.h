/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_ETHDEV_H
#define FEC_ETHDEV_H

/**
 * @file
 * net_fec control path: queue start/stop and info, MAC restart and MDIO,
 * register dump, flow control, link events, RX interrupts, watchdog, MIB,
 * the UIO backend and IEEE 1588 (the ethdev ops the files implement).
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <ethdev_driver.h>

#include "fec_priv.h"

/** The port's eth_dev_ops (fec_ethdev.c), given by probe (fec_probe.c). */
extern const struct eth_dev_ops fec_eth_ops;

/** stats_get (fec_mib.c): the MIB's or (stats=sw) the driver's counts. */
int fec_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st);
/** stats_reset and xstats_reset (fec_mib.c). */
int fec_stats_reset(struct rte_eth_dev *dev);
/** xstats_get_names (fec_mib.c): the MIB, then the driver's counters. */
int fec_xstats_get_names(struct rte_eth_dev *dev, struct rte_eth_xstat_name *names, unsigned int n);
/** xstats_get (fec_mib.c). */
int fec_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs, unsigned int n);

/**
 * rx_queue_start: give every BD the MAC does not own back to it, counting the
 * frames it wrote while the queue was stopped, and ring RDAR.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue (ring).
 * @return
 *   0 or a negative errno.
 */
int fec_rx_queue_start(struct rte_eth_dev *dev, uint16_t qid);

/**
 * rx_queue_stop: stop giving BDs back; the MAC fills what it owns, then
 * clears RDAR itself. Buffers stay attached until dev_stop.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue (ring).
 * @return
 *   0 or a negative errno.
 */
int fec_rx_queue_stop(struct rte_eth_dev *dev, uint16_t qid);

/**
 * tx_queue_start: accept bursts again (and lift a graceful stop).
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue (ring).
 * @return
 *   0 or a negative errno.
 */
int fec_tx_queue_start(struct rte_eth_dev *dev, uint16_t qid);

/**
 * tx_queue_stop: let the ring drain; what is still on it then is taken off
 * after a graceful stop (TCR.GTS, EIR.GRA), freed and counted.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue (ring).
 * @return
 *   0, or -EBUSY when the MAC would not stop (the queue stays started).
 */
int fec_tx_queue_stop(struct rte_eth_dev *dev, uint16_t qid);

/**
 * rxq_info_get.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue.
 * @param qinfo
 *   Filled in.
 */
void fec_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_rxq_info *qinfo);

/**
 * txq_info_get.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue.
 * @param qinfo
 *   Filled in.
 */
void fec_txq_info_get(struct rte_eth_dev *dev, uint16_t qid, struct rte_eth_txq_info *qinfo);

/**
 * Program the MAC and rings and enable it (Linux fec_restart order).
 *
 * @param dev
 *   Port.
 */
void fec_hw_restart(struct rte_eth_dev *dev);

/**
 * Graceful stop, disable the MAC.
 *
 * @param dev
 *   Port.
 */
void fec_hw_stop(struct rte_eth_dev *dev);

/**
 * Clause-22 MDIO read.
 *
 * @param fep
 *   Device.
 * @param reg
 *   PHY register.
 * @return
 *   Value, or a negative errno.
 */
int fec_mdio_read(struct fec_priv *fep, unsigned int reg);

/**
 * Clause-22 MDIO write.
 *
 * @param fep
 *   Device.
 * @param reg
 *   PHY register.
 * @param val
 *   Value.
 * @return
 *   0 or a negative errno.
 */
int fec_mdio_write(struct fec_priv *fep, unsigned int reg, uint16_t val);

/**
 * Linux's multicast hash bin (0..63) of an address.
 *
 * @param addr
 *   Six bytes.
 * @return
 *   Bin.
 */
unsigned int fec_hash_bin(const uint8_t *addr);

/**
 * get_reg: register dump (fec_regdump.c). data NULL: length (1024 words) and
 * width (4) only; else words from offset (a register index, offset/4).
 *
 * @param dev
 *   Port.
 * @param info
 *   Request and result; version is the SoC profile's quirk bits.
 * @return
 *   0 or -EINVAL (range beyond the block).
 */
int fec_get_reg(struct rte_eth_dev *dev, struct rte_dev_reg_info *info);

/**
 * Flow-control defaults at probe: pause both ways, Linux's thresholds.
 *
 * @param fep
 *   Device.
 */
void fec_fc_init(struct fec_priv *fep);

/**
 * Restart step 10: write the pause thresholds and OPD, return rcr with FCE
 * and PAUFWD as configured.
 *
 * @param fep
 *   Device.
 * @param rcr
 *   RCR value being built.
 * @return
 *   RCR value to write.
 */
uint32_t fec_fc_restart(struct fec_priv *fep, uint32_t rcr);

/**
 * Pause autonegotiation at a link update: with autoneg on, resolve the mode
 * from the PHY's ANAR and ANLPAR (IEEE 802.3 Annex 28B; none on a link down
 * or half duplex) into fc_mode. The caller applies it (fec_fc_apply, or the
 * restart it makes anyway).
 *
 * @param dev
 *   Port.
 * @param link
 *   The link as the PHY shows it now.
 * @return
 *   true if fc_mode changed.
 */
bool fec_fc_link_update(struct rte_eth_dev *dev, const struct rte_eth_link *link);

/**
 * When started, make RCR.FCE, PAUFWD, the thresholds and OPD follow the
 * flow-control state now (fec_fc_restart on the running RCR).
 *
 * @param dev
 *   Port.
 */
void fec_fc_apply(struct rte_eth_dev *dev);

/**
 * flow_ctrl_get: the mode the MAC follows (resolved, when autonegotiated),
 * autoneg as set.
 *
 * @param dev
 *   Port.
 * @param fc
 *   Filled in.
 * @return
 *   0.
 */
int fec_flow_ctrl_get(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc);

/**
 * flow_ctrl_set: any mode; pause_time 0 means Linux's 0xFFF0; applied at once
 * when started and by every restart. With autoneg the mode is advertised
 * (ANAR PAUSE/ASM_DIR), autonegotiation restarted and the mode resolved by
 * link updates; without, the mode is forced.
 *
 * @param dev
 *   Port.
 * @param fc
 *   Settings (high_water, low_water and send_xon unused: Linux's thresholds).
 * @return
 *   0, -EINVAL (mode or autoneg out of range), -ENOTSUP (autoneg without a
 *   PHY that autonegotiates) or the MDIO error (-ETIMEDOUT); nothing changed
 *   on an error.
 */
int fec_flow_ctrl_set(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc);

/** Default PHY poll period for LSC events (phylib polls once a second). */
#define FEC_LSC_PERIOD_MS 1000

/**
 * Start polling the PHY for link changes if dev_conf.intr_conf.lsc is set.
 *
 * @param dev
 *   Port.
 * @return
 *   0 or a negative errno.
 */
int fec_lsc_start(struct rte_eth_dev *dev);

/**
 * Stop polling the PHY; returns after a running poll has finished.
 *
 * @param dev
 *   Port.
 */
void fec_lsc_stop(struct rte_eth_dev *dev);

/**
 * With dev_conf.intr_conf.rxq: give the port an interrupt handle with an
 * event fd per RX queue (queue n: the model's interrupt line n, vector
 * RTE_INTR_VEC_RXTX_OFFSET + n); without it, drop a handle an earlier
 * configure made. Idempotent for the same number of RX queues.
 *
 * @param dev
 *   Port.
 * @return
 *   0, -ENOTSUP (UIO backend) or a negative errno.
 */
int fec_intr_setup(struct rte_eth_dev *dev);

/**
 * Release the interrupt handle (close), taking its fd out of epoll sets.
 *
 * @param dev
 *   Port.
 */
void fec_intr_free(struct rte_eth_dev *dev);

/** Default of devarg itr_clk_mhz: the i.MX8M ENET system clock (ENET_AXI, Linux's clk_ahb). */
#define FEC_ITR_CLK_MHZ 266u

/**
 * Parse devarg rx_coalesce=FRAMES:USECS into an RXICn value: an RX interrupt
 * after FRAMES frames (2..255) or USECS microseconds after the first of them
 * (at least one and at most 0xFFFF ICTT periods of 64 clocks at @p clk_mhz),
 * whichever first. Logs what is wrong.
 *
 * @param name
 *   Port, for the log.
 * @param spec
 *   Value.
 * @param clk_mhz
 *   The coalescing clock (devarg itr_clk_mhz).
 * @param[out] rxic
 *   The register value (ICEN, ICCS, ICFT, ICTT).
 * @return
 *   0 or -EINVAL.
 */
int fec_coalesce_parse(const char *name, const char *spec, unsigned int clk_mhz, uint32_t *rxic);

/**
 * rx_queue_intr_enable: ack the ring's RXF, unmask it, then wake the caller
 * at once if a frame is already in the ring (no wake-up lost to the race with
 * the unmask).
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue (ring).
 * @return
 *   0, -ENOTSUP without intr_conf.rxq, or a negative errno.
 */
int fec_rx_intr_enable(struct rte_eth_dev *dev, uint16_t qid);

/**
 * rx_queue_intr_disable: mask the ring's RXF.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue (ring).
 * @return
 *   0 or -ENOTSUP without intr_conf.rxq.
 */
int fec_rx_intr_disable(struct rte_eth_dev *dev, uint16_t qid);

/** Linux's TX_TIMEOUT (2 s): devarg tx_timeout_ms. */
#define FEC_TX_TIMEOUT_MS 2000
/** Watchdog period (devarg watchdog_ms). */
#define FEC_WD_PERIOD_MS 1000

/**
 * Restart the MAC after a fault (Linux's fec_restart from its TX timeout
 * work): reclaim what was sent, count the RX frames and TX frames the ring
 * re-init throws away (imissed, oerrors), restart, count the reason. Skipped
 * (returns -EBUSY) when another restart is running.
 *
 * @param dev
 *   Port (started).
 * @param why
 *   Reason.
 * @return
 *   0 or -EBUSY.
 */
int fec_fault_restart(struct rte_eth_dev *dev, enum fec_restart_reason why);

/**
 * Link restart (link_update on a new speed or duplex, Linux's adjust_link):
 * the same serialised restart, waiting for a fault restart to finish rather
 * than skipping, counted as FEC_RESTART_LINK.
 *
 * @param dev
 *   Port (started).
 */
void fec_link_restart(struct rte_eth_dev *dev);

/**
 * Arm the watchdog alarm (every fep->wd_period_ms while started): EBERR or
 * ETHEREN lost → restart; RDAR clear with empty BDs → write it; frames
 * dropped while the BD the driver waits on stays empty → restart.
 *
 * @param dev
 *   Port.
 * @return
 *   0 or a negative errno.
 */
int fec_wd_start(struct rte_eth_dev *dev);

/**
 * Disarm the watchdog; returns after a running check has finished.
 *
 * @param dev
 *   Port.
 */
void fec_wd_stop(struct rte_eth_dev *dev);

/** Default MIB fold period: octet counters wrap in ~34 s at 1 Gb/s. */
#define FEC_MIB_PERIOD_MS 5000
/** Longest period accepted (devarg mib_period_ms), still under one wrap. */
#define FEC_MIB_PERIOD_MAX_MS 30000

/**
 * Fold the MIB counters into the 64-bit accumulators. The caller holds
 * fep->mib_lock once the port can be started (the alarm folds too).
 *
 * @param fep
 *   Device.
 */
void fec_mib_update(struct fec_priv *fep);

/**
 * Arm the periodic MIB fold (EAL alarm, every fep->mib_period_ms).
 *
 * @param fep
 *   Device.
 * @return
 *   0 or a negative errno.
 */
int fec_mib_alarm_start(struct fec_priv *fep);

/**
 * Disarm the periodic MIB fold; returns after a running callback has finished,
 * so nothing folds after it (stop, close).
 *
 * @param fep
 *   Device.
 */
void fec_mib_alarm_stop(struct fec_priv *fep);

/**
 * Number of periodic folds run so far by all net_fec ports (for tests).
 *
 * @return
 *   Count.
 */
uint64_t fec_mib_alarm_count(void);

/**
 * Bytes per ring slice of a descriptor area of bd_len bytes cut in
 * FEC_NB_SLICES: rounded down so that every slice, and so every ring base,
 * is naturally aligned (4 KiB when slices are that large, else 64 bytes).
 * Plain bd_len / 6 is not even 4-byte aligned for NXP's 1 MiB map1.
 *
 * @param bd_len
 *   Size of the descriptor area.
 * @return
 *   Slice size, 0 when the area is too small for one 64-byte slice each.
 */
size_t fec_bd_slice_size(size_t bd_len);

/**
 * Map the UIO device: NXP's imx-fec-uio (map0 registers, map1 descriptor
 * area with its bus address) or the stock uio_pdrv_genirq (map0 registers
 * only; the descriptor area is then a DPDK memzone with a physical address
 * below 4 GiB, which needs IOVA as PA). The layout is told by the map count.
 *
 * @param fep
 *   Device.
 * @param uio_name
 *   Name in /sys/class/uio/uioX/name to match; empty: imx-fec-uio (a
 *   substring, as NXP's module names it), else one named exactly
 *   "ethernet" (uio_pdrv_genirq names it after the DT node).
 * @return
 *   0 or a negative errno.
 */
int fec_uio_map(struct fec_priv *fep, const char *uio_name);

/**
 * Undo fec_uio_map().
 *
 * @param fep
 *   Device.
 */
void fec_uio_unmap(struct fec_priv *fep);

/**
 * Parse devarg ptp_clk_mhz: the 1588 clock, a divisor of 1000 (ATINC holds
 * whole ns per clock, at most 127).
 *
 * @param name
 *   Port, for the log.
 * @param mhz
 *   Value.
 * @param[out] inc
 *   ATINC.INC.
 * @return
 *   0 or -EINVAL (logged).
 */
int fec_ptp_clk_parse(const char *name, unsigned long mhz, uint32_t *inc);

/**
 * Probe: 1588 state at rest (counter stopped, no users).
 *
 * @param fep
 *   Device.
 * @param inc
 *   ATINC.INC for the 1588 clock.
 */
void fec_ptp_init(struct fec_priv *fep, uint32_t inc);

/**
 * Start the counter for @p user if nobody runs it yet (Linux's
 * fec_ptp_start_cyclecounter: ATINC, ATPER, ATCR EN and RESTART; time 0),
 * with its reading alarm.
 *
 * @param fep
 *   Device.
 * @param user
 *   FEC_PTP_USER_*.
 * @return
 *   0 or a negative errno (no alarm).
 */
int fec_ptp_clock_get(struct fec_priv *fep, uint8_t user);

/**
 * @p user no longer needs the counter: stopped with its alarm when nobody does.
 *
 * @param fep
 *   Device.
 * @param user
 *   FEC_PTP_USER_*.
 */
void fec_ptp_clock_put(struct fec_priv *fep, uint8_t user);

/**
 * Before a MAC restart: the time now, in case the reset stops the counter
 * (ECR.RESET clears the 1588 registers; Linux's fec_ptp_save_state).
 *
 * @param fep
 *   Device.
 */
void fec_ptp_restart_save(struct fec_priv *fep);

/**
 * After a MAC restart: if the reset stopped the counter, program and start
 * it again at the saved time plus the time the restart took (Linux's
 * fec_ptp_restore_state).
 *
 * @param fep
 *   Device.
 */
void fec_ptp_restart_restore(struct fec_priv *fep);

/** timesync_enable (fec_ptp.c): -ENOTSUP with legacy BDs. */
int fec_timesync_enable(struct rte_eth_dev *dev);
/** timesync_disable. */
int fec_timesync_disable(struct rte_eth_dev *dev);
/** timesync_read_rx_timestamp: the last PTP frame's stamp, once; else -EINVAL. */
int fec_timesync_read_rx_timestamp(struct rte_eth_dev *dev, struct timespec *ts, uint32_t flags);
/** timesync_read_tx_timestamp: the last stamped TX frame's stamp, once; else -EINVAL. */
int fec_timesync_read_tx_timestamp(struct rte_eth_dev *dev, struct timespec *ts);
/** timesync_adjust_time: the 64-bit time moved by delta ns. */
int fec_timesync_adjust_time(struct rte_eth_dev *dev, int64_t delta);
/** timesync_read_time: the counter captured and extended. */
int fec_timesync_read_time(struct rte_eth_dev *dev, struct timespec *ts);
/** timesync_write_time: counter and 64-bit time set. */
int fec_timesync_write_time(struct rte_eth_dev *dev, const struct timespec *ts);
/** read_clock: the 64-bit time in ns (the RX timestamp's clock). */
int fec_read_clock(struct rte_eth_dev *dev, uint64_t *clock);

#endif /* FEC_ETHDEV_H */
