/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_ETHDEV_H
#define FEC_ETHDEV_H

/**
 * @file
 * net_fec PMD internals: private data, queues, the register accessor shared by
 * both backends, and the fast-path functions.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_io.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>
#include <ethdev_driver.h>

#include "fec_model.h"
#include "fec_ptp.h"
#include "fec_quirks.h"
#include "fec_regs.h"

extern int fec_logtype;
#define FEC_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, fec_logtype, "net_fec: " fmt "\n", ##__VA_ARGS__)

enum fec_backend { FEC_BACKEND_MODEL, FEC_BACKEND_UIO };

/* RX offloads the enhanced descriptor's ESC word reports. */
#define FEC_RX_CSUM_OFFLOADS                                            \
	(RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM | \
		RTE_ETH_RX_OFFLOAD_TCP_CKSUM)

/* RX replacement mbufs are taken from the pool this many at a time. */
#define FEC_RX_STASH 32

struct fec_priv;

/*
 * RX BD status errors, one reason per dropped frame (the first that matches,
 * so the counts add up to ierrors), in Linux's classes kept apart: name, the
 * bits of (sc ^ L) | (enhanced BD: ESC & FEC_BD_EX_RX_ERRORS) that select it
 * (0: the length sanity check, which must stay last).
 */
#define FEC_RX_ERR_TABLE(X)                               \
	X(NO_LAST, "rx_err_no_last", FEC_BD_L)            \
	X(TRUNCATED, "rx_err_truncated", FEC_BD_RX_TR)    \
	X(LENGTH, "rx_err_length", FEC_BD_RX_LG)          \
	X(NON_OCTET, "rx_err_non_octet", FEC_BD_RX_NO)    \
	X(CRC, "rx_err_crc", FEC_BD_RX_CR)                \
	X(OVERRUN, "rx_err_overrun", FEC_BD_RX_OV)        \
	X(MAC, "rx_err_mac", FEC_BD_EX_RX_ME)             \
	X(PHY, "rx_err_phy", FEC_BD_EX_RX_PE)             \
	X(COLLISION, "rx_err_collision", FEC_BD_EX_RX_CE) \
	X(BAD_LEN, "rx_err_bad_len", 0) /* datlen outside (trim, MRBR] */

/** RX error reasons (FEC_RX_ERR_TABLE). */
enum fec_rx_err {
#define FEC_RX_ERR_ENUM(k, name, bits) FEC_RX_ERR_##k,
	FEC_RX_ERR_TABLE(FEC_RX_ERR_ENUM)
#undef FEC_RX_ERR_ENUM
		FEC_RX_ERR_NB
};

/*
 * Why the driver restarted the MAC on its own (fec_watchdog.c): reason, xstat
 * name. Linux restarts on a TX timeout; the others are what the watchdog
 * finds a dead or stuck MAC by.
 */
#define FEC_RESTART_TABLE(X)                                                      \
	X(EBERR, "restart_eberr")            /* EIR.EBERR: bus error */           \
	X(MAC_OFF, "restart_mac_off")        /* ETHEREN found clear: reset */     \
	X(RX_STALL, "restart_rx_stall")      /* frames dropped, BDs left empty */ \
	X(TX_TIMEOUT, "tx_timeout_restarts") /* ring full, no completion */       \
	X(LINK, "restart_link")              /* new speed or duplex */

/*
 * MAC events the watchdog alarm counts and acknowledges (fec_watchdog.c), with
 * no other action (Linux's interrupt handler acks them and does nothing
 * more): kind, xstat name, EIR bit. Each counts the checks that found the
 * event pending, so a burst of frames between two checks counts once; the
 * MIB counts the frames (rmon_r_oversize, rmon_t_oversize).
 */
#define FEC_EVENT_TABLE(X)                       \
	X(BABR, "eir_babr_events", FEC_EIR_BABR) \
	X(BABT, "eir_babt_events", FEC_EIR_BABT)

/*
 * TX errors read from the last BD of each completed frame, as Linux's
 * fec_enet_tx_queue counts them (legacy status bits, which the MAC writes
 * with both BD formats; **RM?**): reason, xstat name, status bits. Only with
 * stats=sw (fec_txerr.c): with the MIB, oerrors comes from its counters of
 * the same frames (ieee_t_macerr, ieee_t_lcol, ieee_t_excol).
 */
#define FEC_TX_ERR_TABLE(X)                          \
	X(UNDERRUN, "tx_err_underrun", FEC_BD_TX_UN) \
	X(LATE_COL, "tx_err_late_col", FEC_BD_TX_LC) \
	X(RETRY_LIMIT, "tx_err_retry_limit", FEC_BD_TX_RL)

/** TX error reasons (FEC_TX_ERR_TABLE). */
enum fec_tx_err {
#define FEC_TX_ERR_ENUM(k, name, bits) FEC_TX_ERR_##k,
	FEC_TX_ERR_TABLE(FEC_TX_ERR_ENUM)
#undef FEC_TX_ERR_ENUM
		FEC_TX_ERR_NB
};

/** Counted MAC events (FEC_EVENT_TABLE). */
enum fec_event {
#define FEC_EVENT_ENUM(k, name, bit) FEC_EVENT_##k,
	FEC_EVENT_TABLE(FEC_EVENT_ENUM)
#undef FEC_EVENT_ENUM
		FEC_EVENT_NB
};

/** Restart reasons (FEC_RESTART_TABLE). */
enum fec_restart_reason {
#define FEC_RESTART_ENUM(k, name) FEC_RESTART_##k,
	FEC_RESTART_TABLE(FEC_RESTART_ENUM)
#undef FEC_RESTART_ENUM
		FEC_RESTART_NB
};

/*
 * Restart serialisation (fec_watchdog.c; "Restart serialisation" in
 * fec_pmd.md). A MAC restart re-initialises every ring, and may run on the
 * interrupt thread (watchdog, LSC), a control thread (link_update) or the
 * lcore of one TX queue (TX timeout) while bursts run on other lcores. Linux
 * stops its NAPI poll and takes the TX lock; a poll-mode driver has neither,
 * and no atomic per packet to spare. Instead each queue has a gate the burst
 * reads on entry (it replaces the started test: one compare either way) and
 * a sequence count the burst bumps on entry and exit, once per burst: odd
 * while a burst runs. The restart closes every gate (FEC_GATE_HOLD), then
 * waits until no queue is inside a burst, re-initialises, and opens them.
 */
#define FEC_GATE_STARTED 1u /**< the queue is started (its started flag) */
#define FEC_GATE_HOLD    2u /**< a restart is running: bursts return 0 */

/** A queue's side of the restart serialisation. */
struct fec_qsync {
	uint32_t seq; /**< bursts entered + left, odd inside one (written by its lcore only) */
	uint8_t gate; /**< FEC_GATE_*: a burst runs only when it is FEC_GATE_STARTED */
};

/** RX queue: ring qid of the MAC (rings 1 and 2 only on the AVB IPs). */
struct fec_rxq {
	volatile uint8_t *bd;      /**< ring base (virtual) */
	struct rte_mbuf **sw_ring; /**< mbuf attached to each BD */
	struct fec_priv *fep;      /**< device */
	uint64_t mbuf_init;        /**< rearm_data template */
	uint16_t nb_desc;          /**< ring size */
	uint16_t cur;              /**< next BD to look at */
	uint16_t data_off;         /**< data_off of a received frame (headroom + SHIFT16) */
	uint16_t trim;             /**< bytes of datlen that are not payload (FCS + SHIFT16) */
	uint16_t buf_len;          /**< MRBR */
	uint8_t bd_shift;          /**< log2 of the BD size */
	bool ex;                   /**< enhanced BDs */
	bool csum;                 /**< RX checksum flags from the ESC word */
	bool vlan_strip;           /**< RTE_ETH_RX_OFFLOAD_VLAN_STRIP (in software, on ESC.VLAN) */
	bool ptype;                /**< packet_type from the ESC and prot words */
	bool desc;                 /**< any of the three: the burst reads ESC/prot */
	uint64_t queue_offloads;   /**< RX offloads given at queue setup */
	uint32_t bd_bus;           /**< ring base (bus) */
	struct rte_mempool *mp;    /**< buffers */
	uint64_t ierrors;          /**< frames dropped for BD status errors */
	uint64_t err[FEC_RX_ERR_NB];    /**< ierrors by reason */
	uint64_t restart_discards;      /**< frames in the ring a fault restart threw away */
	uint64_t restart_discard_bytes; /**< their bytes (without FCS) */
	uint64_t sw_pkts;               /**< frames handed to the application */
	uint64_t sw_bytes;              /**< their bytes (without FCS) */
	uint64_t stop_discards;         /**< frames the MAC wrote while the queue was stopped */
	uint64_t stop_discard_bytes;    /**< their bytes (without FCS) */
	struct fec_qsync sync;          /**< against restarts (fec_q_enter) */
	uint16_t port_id;               /**< ethdev port */
	bool started;                   /**< BDs are given back to the MAC (also in sync.gate) */
	bool deferred_start;            /**< rx_deferred_start: dev_start leaves it stopped */
	uint16_t stash_n;               /**< mbufs in stash */
	struct rte_mbuf *stash[FEC_RX_STASH]; /**< replacements taken from the pool in bulk */
	uint32_t rdar;                        /**< this ring's RDAR offset */
	uint16_t qid;                         /**< queue = ring number */
	/* Scattered RX (fec_rx_scatter.c): the frame being chained over BDs. */
	struct rte_mbuf *sg_first; /**< its first segment, NULL between frames */
	struct rte_mbuf *sg_last;  /**< its last segment so far */
	/* IEEE 1588 (fec_rx_ts.c): set at dev_start and by timesync_enable/disable. */
	bool ts;          /**< either below: the burst reads each frame's ts word */
	bool ts_dyn;      /**< RTE_ETH_RX_OFFLOAD_TIMESTAMP: the dynamic field and flag */
	bool ts_ptp;      /**< timesync on: PTP frames flagged, their stamp latched */
	int ts_off;       /**< offset of the timestamp dynamic field */
	uint64_t ts_flag; /**< RTE_MBUF_DYNFLAG_RX_TIMESTAMP's bit */
};

/** TX queue: ring qid of the MAC (rings 1 and 2 only on the AVB IPs). */
struct fec_txq {
	volatile uint8_t *bd;      /**< ring base (virtual) */
	struct rte_mbuf **sw_ring; /**< segment attached to each BD */
	struct fec_priv *fep;      /**< device */
	uint32_t tdar;             /**< this ring's TDAR offset */
	uint16_t qid;              /**< queue = ring number */
	uint16_t nb_desc;          /**< ring size */
	uint16_t cur;              /**< next BD to fill */
	uint16_t dirty;            /**< oldest BD not yet reclaimed */
	uint16_t nb_free;          /**< BDs software may fill */
	uint16_t free_thresh;      /**< reclaim when fewer are free */
	bool fast_free;            /**< RTE_ETH_TX_OFFLOAD_MBUF_FAST_FREE */
	uint8_t bd_shift;          /**< log2 of the BD size */
	bool ex;                   /**< enhanced BDs */
	bool csum;                 /**< TX checksum offloads configured: IINS/PINS from ol_flags */
	uint64_t offloads;         /**< TX offloads configured (port and queue), for txq_info */
	uint32_t bd_bus;           /**< ring base (bus) */
	uint64_t sw_pkts;          /**< frames put on the ring */
	uint64_t sw_bytes;         /**< their bytes */
	uint64_t stop_drops;       /**< frames taken off the ring unsent by a queue stop */
	uint64_t restart_drops;    /**< frames a fault restart took off the ring unsent */
	uint64_t stall_start;  /**< timer when the ring was seen full without progress, 0: not */
	uint64_t stall_pkts;   /**< sw_pkts then */
	struct fec_qsync sync; /**< against restarts (fec_q_enter) */
	uint16_t port_id;      /**< ethdev port */
	bool started;          /**< bursts are accepted (also in sync.gate) */
	bool deferred_start;   /**< tx_deferred_start: dev_start leaves it stopped */
	bool count_errs;       /**< stats=sw: the reclaim reads each frame's error bits */
	uint64_t err[FEC_TX_ERR_NB]; /**< frames the MAC did not send, by reason (stats=sw) */
	uint64_t err_bytes;          /**< their bytes (BD lengths) */
	uint32_t frame_bytes;        /**< BD lengths of the frame being reclaimed, so far */
	/* IEEE 1588 (fec_tx_ts.c). */
	bool esc_ol;       /**< ESC bits from ol_flags: checksum insertion or timesync */
	bool ts_ptp;       /**< timesync on: the reclaim takes TX stamps */
	bool reclaim_slow; /**< count_errs or ts_ptp: fec_tx_reclaim_slow per reclaim run */
	uint32_t ts_bd;    /**< last BD of the newest frame sent with TS, FEC_TS_BD_NONE: none */
};

/** fec_txq.ts_bd: no timestamped frame waits. */
#define FEC_TS_BD_NONE UINT32_MAX

/** Per-device private data. */
struct fec_priv {
	volatile uint8_t *regs;  /**< register block */
	struct fec_model *model; /**< model backend, or NULL on hardware */
	enum fec_backend backend;
	/** Quirk profile (devarg soc=). */
	const struct fec_soc *soc;
	bool ex;          /**< enhanced (32-byte) BDs */
	bool ptype_off;   /**< rte_eth_dev_set_ptypes(RTE_PTYPE_UNKNOWN): L2_ETHER only */
	uint8_t nb_rings; /**< RX/TX rings of the IP (soc->nb_queues): max queues */
	/**
	 * RCMR1/2 values from devarg rcmr= (index 1 and 2; 0: no match on that
	 * ring), written by every restart on multi-ring IPs.
	 */
	uint32_t rcmr[FEC_MAX_RINGS];
	uint8_t rcmr_ring_max; /**< highest ring rcmr= sends frames to, 0: none */
	bool err007885;        /**< TDAR write guard */
	bool err006358;        /**< TDAR re-kick after completion with frames pending */
	bool hard_reset;       /**< restart with ECR.RESET (not multi-queue IPs) */
	bool shift16;          /**< RACC.SHIFT16 */
	bool sw_stats;         /**< basic stats from the driver's counts, not the MIB */
	bool uio_stock;        /**< uio_pdrv_genirq: registers only, BDs in DPDK memory */
	bool pool_bad;         /**< a pool beyond the 32-bit DMA reach (dev_start check) */
	uint8_t *bd_va;        /**< descriptor area */
	uint32_t bd_bus;
	size_t bd_len;
	size_t bd_slice; /**< bytes per ring slice */
	uint32_t phy_addr;
	uint32_t mscr;
	/* MAC state the restart reprograms. */
	uint32_t speed; /**< 10/100/1000 as applied to the MAC */
	bool full_duplex;
	bool link_up;
	/* LSC polling (fec_lsc.c). */
	bool lsc_on;            /**< the alarm re-arms itself */
	uint32_t lsc_period_ms; /**< PHY poll period (devarg lsc_period_ms) */
	uint64_t lsc_events;    /**< RTE_ETH_EVENT_INTR_LSC raised */
	/** EIMR: RX interrupts enabled by the application (fec_intr.c); restarts keep it. */
	uint32_t eimr;
	/**
	 * Held while the copy is changed and written to EIMR (one register for
	 * every ring): lcores sleeping on different queues must not write it in
	 * the opposite order of their updates, which would mask a queue that is
	 * waiting. Never taken by a burst.
	 */
	rte_spinlock_t eimr_lock;
	/**
	 * RX interrupts as the one UIO IRQ (backend=uio, or devarg intr=uio on
	 * the model): queue 0 only, fec_intr.c.
	 */
	bool intr_uio;
	int intr_uio_fd; /**< this port's own open of the UIO device, -1: none */
	/** RXICn value from devarg rx_coalesce (0: off), written by every restart. */
	uint32_t rxic;
	/*
	 * Flow control (fec_fc.c), applied by every restart: what the MAC does,
	 * the forced mode or what autonegotiation resolved (the asked one is in
	 * the PHY's advertisement).
	 */
	enum rte_eth_fc_mode fc_mode;
	bool fc_autoneg; /**< pause autonegotiated: fc_mode resolved at each link update */
	/** OPD pause duration. */
	uint16_t pause_time;
	/** RCR.PAUFWD: pause frames go to the ring. */
	bool pause_fwd;
	uint32_t gaur, galr;   /**< multicast hash */
	uint16_t rx_frame_max; /**< largest frame a single RX buffer holds */
	bool scatter;          /**< RX scatter on (set by dev_start): frames over several BDs */
	/* Watchdog and fault restarts (fec_watchdog.c). */
	rte_spinlock_t restart_lock; /**< one restart at a time, none while the watchdog looks */
	rte_spinlock_t mdio_lock;    /**< one MDIO transaction at a time (fec_hw.c) */
	bool wd_on;                  /**< the watchdog alarm re-arms itself */
	uint32_t wd_period_ms;       /**< its period (devarg watchdog_ms) */
	uint64_t tx_timeout_cycles;  /**< ring full this long without progress: restart */
	uint64_t wd_runs;            /**< watchdog checks so far */
	uint32_t wd_macerr;          /**< IEEE_R_MACERR at the last check */
	uint64_t wd_rx_progress;     /**< RX BDs the driver took back by then */
	uint64_t restarts[FEC_RESTART_NB]; /**< restarts by reason */
	uint64_t events[FEC_EVENT_NB];     /**< watchdog checks that found the event */
	uint64_t rx_rearms;                /**< RDAR found clear with empty BDs: written again */
	uint64_t mdio_timeouts;            /**< MDIO transactions that never completed */
	uint64_t gra_timeouts;             /**< graceful stops (TCR.GTS) without EIR.GRA in time */
	/*
	 * MIB accumulated into 64 bits. mib_lock serialises the alarm's fold
	 * (interrupt thread) with stats/xstats get and reset (control threads).
	 */
	rte_spinlock_t mib_lock;
	bool mib_alarm_on;      /**< the alarm re-arms itself */
	uint32_t mib_period_ms; /**< fold period while started */
	uint32_t mib_last[FEC_MIB_NB];
	uint64_t mib[FEC_MIB_NB];
	int uio_fd;
	char uio_dev[32];                /**< /dev/uioN */
	const struct rte_memzone *bd_mz; /**< BD area of the stock UIO layout */
	void *uio_regs_map, *uio_bd_map;
	size_t uio_regs_len, uio_bd_len;
	char name[RTE_ETH_NAME_MAX_LEN];
	/** IEEE 1588: the counter, the 64-bit time, the latched stamps (fec_ptp.c). */
	struct fec_ptp ptp;
};

/**
 * Parse devarg rcmr=: RX classification by VLAN priority. Entries RING:PCP or
 * RING:LO-HI (ring 1 or 2, PCP 0..7), several in brackets with commas
 * ([1:4-5,2:6-7]); at most four PCP values per ring (RCMR's compare fields),
 * none on two rings.
 *
 * @param spec
 *   Value.
 * @param rcmr
 *   Out: RCMR1/2 values at index 1 and 2 (0 for a ring without entries).
 * @param ring_max
 *   Out: highest ring named.
 * @return
 *   0 or -EINVAL.
 */
int fec_rcmr_parse(const char *spec, uint32_t rcmr[FEC_MAX_RINGS], uint8_t *ring_max);

/**
 * RX queue qid of a port, or NULL.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue.
 * @return
 *   The queue, NULL when not configured or not set up.
 */
static inline struct fec_rxq *
fec_rxq_at(const struct rte_eth_dev *dev, uint16_t qid)
{
	return dev->data->rx_queues != NULL && qid < dev->data->nb_rx_queues
		       ? dev->data->rx_queues[qid]
		       : NULL;
}

/**
 * TX queue qid of a port, or NULL.
 *
 * @param dev
 *   Port.
 * @param qid
 *   Queue.
 * @return
 *   The queue, NULL when not configured or not set up.
 */
static inline struct fec_txq *
fec_txq_at(const struct rte_eth_dev *dev, uint16_t qid)
{
	return dev->data->tx_queues != NULL && qid < dev->data->nb_tx_queues
		       ? dev->data->tx_queues[qid]
		       : NULL;
}

/*
 * Why the burst side is correct (the restart's side is fec_watchdog.c's
 * quiesce). It is Dekker's pattern: the burst writes seq then reads gate, the
 * restart writes gate then reads seq, and all four accesses are sequentially
 * consistent, so they fall in one total order and at least one side sees the
 * other's write: either the restart sees the odd seq (and waits for the
 * exit), or the burst sees HOLD (and touches nothing). A plain store then a
 * load would not do: both x86 (store buffer) and arm64 let a load pass an
 * earlier store to another address. The seq_cst RMW is that fence, once per
 * burst: x86 `lock add` (a full barrier), arm64 `ldaddal` (release, and a
 * later `ldar` of the gate is not reordered before it). The exit is a
 * release store: the ring and queue writes of the burst are visible to a
 * restart that reads the new seq (acquire). A restart opens the gate with a
 * release, the burst's gate load is an acquire: the re-initialised ring is
 * what the next burst sees.
 */

/**
 * Entry of a burst (or of another walk of the ring on the queue's lcore):
 * announce it, then read the gate.
 *
 * @param s
 *   The queue's sync.
 * @return
 *   The gate (FEC_GATE_*); either way fec_q_leave() follows.
 */
static __rte_always_inline uint8_t
fec_q_enter_gate(struct fec_qsync *s)
{
	__atomic_fetch_add(&s->seq, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&s->gate, __ATOMIC_SEQ_CST);
}

/**
 * Burst entry: fec_q_enter_gate() for a burst.
 *
 * @param s
 *   The queue's sync.
 * @return
 *   true when the burst may touch the ring (started, no restart); either way
 *   fec_q_leave() follows.
 */
static __rte_always_inline bool
fec_q_enter(struct fec_qsync *s)
{
	return fec_q_enter_gate(s) == FEC_GATE_STARTED;
}

/**
 * Burst exit: seq even again, published with release ordering (one writer,
 * so a load and a store, no atomic RMW).
 *
 * @param s
 *   The queue's sync.
 */
static __rte_always_inline void
fec_q_leave(struct fec_qsync *s)
{
	__atomic_store_n(&s->seq, __atomic_load_n(&s->seq, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

/**
 * Control path: a queue started or stopped (its started flag and its gate).
 *
 * @param s
 *   The queue's sync.
 * @param started
 *   The queue's started flag.
 * @param on
 *   Started.
 */
static inline void
fec_q_started_set(struct fec_qsync *s, bool *started, bool on)
{
	*started = on;
	if (on)
		__atomic_fetch_or(&s->gate, FEC_GATE_STARTED, __ATOMIC_RELEASE);
	else
		__atomic_fetch_and(&s->gate, (uint8_t)~FEC_GATE_STARTED, __ATOMIC_RELEASE);
}

/**
 * Register write: the one access path for both backends.
 *
 * @param fep
 *   Device.
 * @param off
 *   Register offset.
 * @param val
 *   Value.
 */
static inline void
fec_wr32(const struct fec_priv *fep, uint32_t off, uint32_t val)
{
	if (fep->model != NULL)
		fec_model_write32(fep->model, off, val);
	else
		rte_write32(val, fep->regs + off);
}

/**
 * Register read (a load from the block in both backends).
 *
 * @param fep
 *   Device.
 * @param off
 *   Register offset.
 * @return
 *   Value.
 */
static inline uint32_t
fec_rd32(const struct fec_priv *fep, uint32_t off)
{
	return rte_read32(fep->regs + off);
}

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
 * Receive burst.
 *
 * @param q
 *   RX queue.
 * @param pkts
 *   Output array.
 * @param n
 *   Its size.
 * @return
 *   Frames received.
 */
uint16_t fec_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * Receive burst with RTE_ETH_RX_OFFLOAD_SCATTER (fec_rx_scatter.c): a frame
 * longer than one buffer spans several BDs (L on the last), chained mbufs.
 * Chosen by dev_start, so the single-BD burst keeps no test for it.
 *
 * @param q
 *   RX queue.
 * @param pkts
 *   Output array.
 * @param n
 *   Its size.
 * @return
 *   Frames received.
 */
uint16_t fec_rx_burst_scatter(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * Free the frame a scattered RX queue was chaining (queue stop, restart,
 * port stop): its BDs are gone with the ring's reset.
 *
 * @param rxq
 *   RX queue.
 */
void fec_rx_sg_drop(struct fec_rxq *rxq);

/**
 * RTE_ETH_RX_OFFLOAD_SCATTER in the port's configuration.
 *
 * @param dev
 *   Port.
 * @return
 *   Whether the application asked for it.
 */
bool fec_rx_scatter_asked(const struct rte_eth_dev *dev);

/**
 * At dev_start: RX scatter on if the application asked for it (fep->scatter,
 * scattered_rx); a frame of the MTU longer than the smallest RX buffer
 * without it is refused.
 *
 * @param dev
 *   Port.
 * @return
 *   0, or -EINVAL (logged).
 */
int fec_rx_scatter_conf(struct rte_eth_dev *dev);

/**
 * Count a frame dropped for its BD status or, on an enhanced BD, its ESC
 * errors (the first reason of FEC_RX_ERR_TABLE that matches), or for its
 * length if none does.
 *
 * @param rxq
 *   RX queue.
 * @param bd
 *   The frame's last BD (its ESC word is read when @p ex).
 * @param sc
 *   Status of the frame's last BD.
 * @param ex
 *   The ring has enhanced BDs.
 */
void fec_rx_error(struct fec_rxq *rxq, const volatile struct fec_bd *bd, uint16_t sc, bool ex);

/**
 * Refill the queue's stash of replacement mbufs (empty on entry): in bulk,
 * or one when the pool runs low.
 *
 * @param rxq
 *   RX queue.
 * @return
 *   Mbufs now in the stash (0: the pool is empty).
 */
unsigned int fec_rx_stash_refill(struct fec_rxq *rxq);

/**
 * What an enhanced RX BD says of a frame, into its (first) mbuf: packet type,
 * checksum flags, VLAN flag/TCI, the tag stripped (as the single-BD burst).
 *
 * @param m
 *   Frame.
 * @param esc
 *   ESC word of its last BD (CPU order).
 * @param prot
 *   Its prot word.
 * @param csum
 *   Set the checksum flags.
 * @param strip
 *   Strip a VLAN tag.
 * @param ptype
 *   Set packet_type.
 */
void fec_rx_desc_apply(
	struct rte_mbuf *m, uint32_t esc, uint32_t prot, bool csum, bool strip, bool ptype);

/*
 * Packet type and checksum flags of an enhanced RX BD, by one table lookup
 * (fec_rxdesc.c builds it): index = ESC bits FRAG, IPV6, VLAN, PCR, ICE
 * (0x37), a header length in the prot word (bit 3), the protocol's class
 * (bits 7:6: 1 TCP, 2 UDP); entry = packet type (11:0) | checksum flags << 12.
 */
#define FEC_RX_DESC_TAB      256
#define FEC_RX_DESC_ESC      0x37u
#define FEC_RX_DESC_PT_MASK  0xFFFu
#define FEC_RX_DESC_FL_SHIFT 12
extern uint32_t fec_rx_desc_tab[FEC_RX_DESC_TAB];
/** IP protocol number -> its class, already at bits 7:6 of the index. */
extern uint8_t fec_rx_proto_cls[256];

static __rte_always_inline unsigned int
fec_rx_desc_idx(uint32_t esc, uint32_t prot)
{
	return (esc & FEC_RX_DESC_ESC) | ((prot >> FEC_BD_EX_PROT_HLEN_SHIFT) != 0) << 3 |
	       fec_rx_proto_cls[(prot >> FEC_BD_EX_PROT_PROTO_SHIFT) & 0xFF];
}

/**
 * Set what the RX queue reads from the enhanced descriptor (checksum flags,
 * VLAN strip, packet types) from the device's configuration and
 * fep->ptype_off; the burst picks its instance from it.
 *
 * @param dev
 *   Device.
 * @param rxq
 *   RX queue.
 * @param offloads
 *   Its RX offloads (port and queue).
 */
void fec_rxq_desc_conf(const struct rte_eth_dev *dev, struct fec_rxq *rxq, uint64_t offloads);

/**
 * Packet types the RX burst recognises (dev_supported_ptypes_get): from the
 * enhanced descriptor, or L2_ETHER only with legacy BDs.
 *
 * @param dev
 *   Device.
 * @return
 *   RTE_PTYPE_UNKNOWN-terminated list.
 */
const uint32_t *fec_supported_ptypes(struct rte_eth_dev *dev);

/**
 * dev_ptypes_set: a mask of 0 (RTE_PTYPE_UNKNOWN) turns the descriptor's
 * packet types off (L2_ETHER only, the burst without per-frame descriptor
 * reads when no RX offload needs them); any other mask turns them on.
 *
 * @param dev
 *   Device.
 * @param mask
 *   Packet types the application wants.
 * @return
 *   0.
 */
int fec_ptypes_set(struct rte_eth_dev *dev, uint32_t mask);

/**
 * vlan_offload_set: VLAN strip on or off at run time (the others are refused).
 *
 * @param dev
 *   Device.
 * @param mask
 *   RTE_ETH_VLAN_*_MASK: what changed in dev_conf.rxmode.offloads.
 * @return
 *   0 or -ENOTSUP.
 */
int fec_vlan_offload_set(struct rte_eth_dev *dev, int mask);

/**
 * Give the RX queue's spare mbufs back to the pool.
 *
 * @param rxq
 *   RX queue.
 */
void fec_rx_stash_free(struct fec_rxq *rxq);

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
 * rx_descriptor_status (fast-path op).
 *
 * @param q
 *   RX queue.
 * @param offset
 *   BD after the next one to be received.
 * @return
 *   RTE_ETH_RX_DESC_AVAIL / _DONE / _UNAVAIL, or -EINVAL.
 */
int fec_rx_descriptor_status(void *q, uint16_t offset);

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
 * Receive burst that also reads each frame's ts word (fec_rx_ts.c): the
 * timestamp dynamic field and flag with RTE_ETH_RX_OFFLOAD_TIMESTAMP, the
 * PTP flags and latch with timesync on. Chosen at dev_start (and by
 * timesync_enable/disable) when a queue needs it, so fec_rx_burst keeps no
 * test for it; a queue that does not behaves as in fec_rx_burst.
 *
 * @param q
 *   RX queue.
 * @param pkts
 *   Output array.
 * @param n
 *   Its size.
 * @return
 *   Frames received.
 */
uint16_t fec_rx_burst_ts(void *q, struct rte_mbuf **pkts, uint16_t n);

/**
 * The timestamp of a scattered frame, from its last BD's ts word, into its
 * first mbuf (fec_rx_burst_scatter, with rxq->ts).
 *
 * @param rxq
 *   RX queue.
 * @param m
 *   First segment.
 * @param ts
 *   The ts word (CPU order).
 */
void fec_rx_ts_sg(struct fec_rxq *rxq, struct rte_mbuf *m, uint32_t ts);

/**
 * dev_configure: with RTE_ETH_RX_OFFLOAD_TIMESTAMP, register the timestamp
 * dynamic field and flag (rte_mbuf_dyn_rx_timestamp_register).
 *
 * @param dev
 *   Port.
 * @return
 *   0 or a negative errno (logged).
 */
int fec_rx_ts_configure(struct rte_eth_dev *dev);

/**
 * dev_start: what each RX queue stamps (RTE_ETH_RX_OFFLOAD_TIMESTAMP from the
 * port's and queue's offloads; PTP frames when timesync is on), the counter
 * started for the offload, the RX burst chosen (scattered, with timestamps,
 * or plain).
 *
 * @param dev
 *   Port.
 */
void fec_rx_ts_start(struct rte_eth_dev *dev);

/**
 * Each RX queue's PTP stamping from fep->ptp.timesync (timesync
 * enable/disable, dev_start), then the RX burst chosen again.
 *
 * @param dev
 *   Port.
 */
void fec_rx_ts_conf(struct rte_eth_dev *dev);

/**
 * dev_stop: the offload no longer keeps the counter running.
 *
 * @param dev
 *   Port.
 */
void fec_rx_ts_stop(struct rte_eth_dev *dev);

/**
 * Set rx_pkt_burst from the port's state (also in rte_eth_fp_ops when
 * started: timesync_enable may come after dev_start, as in ptpclient).
 *
 * @param dev
 *   Port.
 */
void fec_rx_burst_select(struct rte_eth_dev *dev);

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
