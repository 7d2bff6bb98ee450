/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_PRIV_H
#define FEC_PRIV_H

/**
 * @file
 * net_fec PMD internals every file shares: private data, queues, the restart
 * gate of a burst, and the register accessors, whose backend (MMIO, or the
 * model's write handler) was chosen at probe (fec_backend.h). The functions
 * are declared by concern: fec_rx.h, fec_tx.h, fec_ethdev.h (control).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_io.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>
#include <ethdev_driver.h>

#include "fec_ptp.h"
#include "fec_quirks.h"
#include "fec_regs.h"

extern int fec_logtype;
#define FEC_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, fec_logtype, "net_fec: " fmt "\n", ##__VA_ARGS__)

/* RX offloads the enhanced descriptor's ESC word reports. */
#define FEC_RX_CSUM_OFFLOADS                                            \
	(RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM | \
		RTE_ETH_RX_OFFLOAD_TCP_CKSUM)

/* RX replacement mbufs are taken from the pool this many at a time. */
#define FEC_RX_STASH 32

struct fec_priv;
struct fec_backend;

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
 * stats=sw (fec_tx_ts.c): with the MIB, oerrors comes from its counters of
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
	volatile uint8_t *regs; /**< register block: reads are loads from it */
	/**
	 * Register write, set once at probe by the backend (fec_backend.h): a
	 * store for MMIO, the model's write handler for a model port.
	 */
	void (*wr32)(void *ctx, uint32_t off, uint32_t val);
	void *wr32_ctx;               /**< its first argument */
	const struct fec_backend *be; /**< the port's backend (probe) */
	void *be_ctx;                 /**< the backend's own state (the model), or NULL */
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
	char uio_dev[32];                /**< /dev/uioN (model: its emulation, as logs name it) */
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
 * Register write, through the handler the port's backend set at probe: no
 * access asks which backend the port has. On hardware the handler is one
 * store (fec_uio.c); on the model, its write handler, which sees the side
 * effects (W1C, doorbells) plain memory cannot.
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
	fep->wr32(fep->wr32_ctx, off, val);
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

#endif /* FEC_PRIV_H */
