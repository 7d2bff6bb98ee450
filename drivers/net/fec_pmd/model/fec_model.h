/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_MODEL_H
#define FEC_MODEL_H

/**
 * @file
 * Software model of the i.MX FEC/ENET MAC: register file, buffer descriptor
 * area with fake 32-bit bus addresses, uDMA ring walks, filters, MIB counters,
 * MDIO and a clause-22 PHY, wire backends. It is also a checker: every breach
 * of the descriptor contract by the driver is recorded as a violation.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_mempool.h>
#include <rte_ring.h>

struct fec_model;

/** Model configuration. */
struct fec_model_cfg {
	const char *profile;   /**< SoC quirk profile (fec_quirks.h), NULL: imx8mm */
	unsigned int phy_addr; /**< MDIO address of the PHY */
	int autostep;          /**< run the DMA on every RDAR/TDAR write */
	int check;             /**< shadow-check HW-owned descriptors */
	/** Clock of the coalescing timer (TXIC/RXIC ICTT), MHz; 0: 266 (i.MX8M ENET_AXI). */
	unsigned int itr_clk_mhz;
};

/** One register write, as logged by the model. */
struct fec_reg_write {
	uint32_t off; /**< register offset */
	uint32_t val; /**< value written */
};

/** Largest frame (without FCS) the wire accepts. */
#define FEC_MODEL_FRAME_MAX 2304u

/**
 * Create a model and make it findable by name.
 *
 * @param name
 *   Unique name (the driver uses the vdev name).
 * @param cfg
 *   Configuration; NULL for defaults.
 * @return
 *   The model, or NULL with rte_errno set.
 */
struct fec_model *fec_model_create(const char *name, const struct fec_model_cfg *cfg);

/**
 * Stop the model's thread if any, release its memory and wire.
 *
 * @param m
 *   Model (NULL is a no-op).
 */
void fec_model_free(struct fec_model *m);

/**
 * Find a model by name.
 *
 * @param name
 *   Name given to fec_model_create().
 * @return
 *   The model, or NULL.
 */
struct fec_model *fec_model_lookup(const char *name);

/**
 * Register file, laid out as the hardware's 4 KiB block. Reads are plain loads.
 *
 * @param m
 *   Model.
 * @return
 *   Base of the register file.
 */
volatile uint8_t *fec_model_regs(struct fec_model *m);

/**
 * Descriptor area (as UIO map1).
 *
 * @param m
 *   Model.
 * @param bus
 *   Out: its 32-bit bus address.
 * @param len
 *   Out: its size.
 * @return
 *   Its virtual address.
 */
void *fec_model_bd_area(struct fec_model *m, uint32_t *bus, size_t *len);

/**
 * Make a packet mempool visible to the model's DMA: its memory gets fake 32-bit
 * bus addresses and every mbuf's buf_iova is rewritten to them. Idempotent.
 *
 * @param m
 *   Model.
 * @param mp
 *   Pool of mbufs.
 * @return
 *   0, or a negative errno (-ENOSPC when the bus space or window table is full).
 */
int fec_model_map_mempool(struct fec_model *m, struct rte_mempool *mp);

/**
 * MMIO write with the register's side effects (W1C, doorbells, reset, MDIO).
 *
 * @param m
 *   Model.
 * @param off
 *   Register offset.
 * @param val
 *   Value.
 */
void fec_model_write32(struct fec_model *m, uint32_t off, uint32_t val);

/**
 * fec_model_write32() as net_fec's register write handler (fec_priv.wr32,
 * set at probe by the model backend, fec_model_backend.c).
 *
 * @param m
 *   Model (struct fec_model *).
 * @param off
 *   Register offset.
 * @param val
 *   Value.
 */
void fec_model_reg_write(void *m, uint32_t off, uint32_t val);

/**
 * MMIO read (a plain load of the register file).
 *
 * @param m
 *   Model.
 * @param off
 *   Register offset.
 * @return
 *   Register value.
 */
uint32_t fec_model_read32(struct fec_model *m, uint32_t off);

/**
 * Run the uDMA: TX ring walk, wire, RX ring walk.
 *
 * @param m
 *   Model.
 * @param budget
 *   Maximum number of frames moved each way.
 * @return
 *   Number of frames moved (TX + RX + dropped).
 */
int fec_model_step(struct fec_model *m, unsigned int budget);

/**
 * Start a thread that steps the model continuously (thread mode).
 *
 * @param m
 *   Model.
 * @return
 *   0 or a negative errno.
 */
int fec_model_thread_start(struct fec_model *m);

/**
 * Stop the model's thread.
 *
 * @param m
 *   Model.
 */
void fec_model_thread_stop(struct fec_model *m);

/**
 * Put a frame on the wire towards the MAC (without FCS; the model adds it).
 *
 * @param m
 *   Model.
 * @param frame
 *   Frame bytes.
 * @param len
 *   Length (14..FEC_MODEL_FRAME_MAX).
 * @return
 *   0, -EINVAL or -ENOSPC.
 */
int fec_model_rx_frame(struct fec_model *m, const void *frame, uint16_t len);

/**
 * Take the oldest frame the MAC transmitted (script wire).
 *
 * @param m
 *   Model.
 * @param buf
 *   Destination.
 * @param size
 *   Its size.
 * @return
 *   Frame length (without FCS), or -ENOENT.
 */
int fec_model_tx_frame(struct fec_model *m, void *buf, uint16_t size);

/**
 * Wire backend: 0 = script (frames injected and captured by the caller),
 * 1 = external loopback (every transmitted frame comes back).
 *
 * @param m
 *   Model.
 * @param on
 *   Loopback on or off.
 */
void fec_model_set_wire_loop(struct fec_model *m, int on);

/**
 * Wire backend on an rte_ring pair "<name>_rx" (towards the MAC) and "<name>_tx"
 * (from the MAC), looked up or created, so that another port (rte_eth_from_rings)
 * sits on the other end of the cable.
 *
 * @param m
 *   Model.
 * @param name
 *   Ring name prefix.
 * @return
 *   0 or a negative errno.
 */
int fec_model_set_wire_ring(struct fec_model *m, const char *name);

/**
 * Wire backend on a pcap file pair: every frame the MAC transmits is appended
 * to @p out (with the time it left), and the frames of @p in are offered to
 * the MAC's receive side one by one, each only once the uDMA has an empty
 * descriptor for it (so none is lost to a full ring; filtered ones are
 * dropped as on a real cable). Frames shorter than 14 bytes are skipped,
 * longer ones cut at FEC_MODEL_FRAME_MAX.
 *
 * @param m
 *   Model.
 * @param in
 *   pcap file (Ethernet link type) to receive from, or NULL / "" for none.
 * @param out
 *   pcap file to create for transmitted frames, or NULL / "" to discard them.
 * @return
 *   0, -EINVAL (neither file, or IN is not an Ethernet capture) or -EIO (a file
 *   cannot be opened or created).
 */
int fec_model_set_wire_pcap(struct fec_model *m, const char *in, const char *out);

/**
 * Pcap wire: at the end of the input file, keep it open and look again at
 * the next step instead of falling silent, as `tail -f` does, so that a test
 * can append frames while the port runs (a record not yet complete is read
 * again from its start). For frames that must arrive after an idle time.
 *
 * @param m
 *   Model, with a pcap wire set.
 * @param on
 *   1 to follow the input file, 0 to stop at its end (the default).
 */
void fec_model_set_wire_pcap_follow(struct fec_model *m, int on);

/**
 * Frames that crossed the wire backend (pcap or ring) so far.
 *
 * @param m
 *   Model.
 * @param out
 *   Out (may be NULL): frames given to the cable by the MAC's transmitter.
 * @return
 *   Frames taken from the cable towards the MAC's receiver.
 */
uint64_t fec_model_wire_frames(const struct fec_model *m, uint64_t *out);

/**
 * Change the PHY's link partner (as if the cable or the far end changed).
 *
 * @param m
 *   Model.
 * @param up
 *   Link up.
 * @param speed
 *   10, 100 or 1000.
 * @param full_duplex
 *   Duplex.
 */
void fec_model_phy_set_link(struct fec_model *m, int up, unsigned int speed, int full_duplex);

/**
 * Set what the link partner advertises for pause (ANLPAR bits 10 PAUSE and
 * 11 ASM_DIR, shown while the link is up; none after a PHY reset).
 *
 * @param m
 *   Model.
 * @param pause
 *   The partner advertises PAUSE.
 * @param asym_pause
 *   The partner advertises ASM_DIR.
 */
void fec_model_phy_set_partner_pause(struct fec_model *m, int pause, int asym_pause);

/**
 * A PHY register as the MAC's MDIO would read it (tests: the advertisement).
 *
 * @param m
 *   Model.
 * @param reg
 *   Clause-22 register 0-31.
 * @return
 *   Its value; 0xFFFF past 31.
 */
uint16_t fec_model_phy_read(const struct fec_model *m, unsigned int reg);

/**
 * Autonegotiation restarts (BMCR writes with ANRST) since the PHY's reset.
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
uint32_t fec_model_phy_an_restarts(const struct fec_model *m);

/**
 * Hold the transmitter as a received XOFF pause frame would: TX BDs stay
 * owned by the MAC, a graceful stop still completes (tests of TX queue stop
 * with frames that cannot drain).
 *
 * @param m
 *   Model.
 * @param on
 *   Hold.
 */
void fec_model_tx_hold(struct fec_model *m, int on);

/**
 * Preset a MIB counter (tests of 32-bit wrap).
 *
 * @param m
 *   Model.
 * @param off
 *   Counter offset.
 * @param val
 *   Value.
 */
void fec_model_mib_preset(struct fec_model *m, uint32_t off, uint32_t val);

/**
 * Advance a MIB counter as that much traffic would, wrapping at 2^32 (tests of
 * the driver's periodic fold without moving gigabytes through the model).
 *
 * @param m
 *   Model.
 * @param off
 *   Counter offset.
 * @param delta
 *   Increment.
 */
void fec_model_mib_advance(struct fec_model *m, uint32_t off, uint32_t delta);

/**
 * Number of contract violations by the driver so far.
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
unsigned int fec_model_violations(const struct fec_model *m);

/**
 * Text of the last violation.
 *
 * @param m
 *   Model.
 * @return
 *   Text ("" if none).
 */
const char *fec_model_last_violation(const struct fec_model *m);

/**
 * Copy the register write log.
 *
 * @param m
 *   Model.
 * @param out
 *   Destination (may be NULL to count).
 * @param max
 *   Capacity of out.
 * @return
 *   Number of writes logged (may exceed max).
 */
unsigned int fec_model_write_log(
	const struct fec_model *m, struct fec_reg_write *out, unsigned int max);

/**
 * Empty the register write log.
 *
 * @param m
 *   Model.
 */
void fec_model_clear_log(struct fec_model *m);

/**
 * Frames dropped by the model so far (no descriptor, filtered, wire full).
 *
 * @param m
 *   Model.
 * @param filtered
 *   Out (may be NULL): frames rejected by the address filter.
 * @return
 *   Frames dropped for lack of an empty RX descriptor.
 */
uint64_t fec_model_drops(const struct fec_model *m, uint64_t *filtered);

/*
 * Fault kinds: name, and the event that advances the kind's trigger (RX: a
 * frame that passed the address filter and has an empty descriptor; TX: a
 * frame at the TX pointer; TDAR: a doorbell write while enabled; TDAR_BUSY:
 * one while TDAR is still set (the ERR007885 window); MDIO: a management
 * frame started). What each does is in docs/fec_pmd.md "Faults".
 */
#define FEC_MODEL_FAULT_TABLE(X)                                                           \
	X(TDAR_LOSE, "tdar_lose", TDAR)           /* ERR006358: the doorbell is lost */    \
	X(RX_CR, "rx_crc", RX)                    /* RX BD status CR */                    \
	X(RX_OV, "rx_overrun", RX)                /* RX BD status OV */                    \
	X(RX_LG, "rx_length", RX)                 /* RX BD status LG */                    \
	X(RX_NO, "rx_non_octet", RX)              /* RX BD status NO */                    \
	X(RX_TR, "rx_truncated", RX)              /* RX BD status TR and LG */             \
	X(RX_NO_LAST, "rx_no_last", RX)           /* RX BD without L */                    \
	X(RX_ZERO_LEN, "rx_zero_len", RX)         /* RX BD written back with datlen 0 */   \
	X(RDAR_CLEAR, "rdar_clear", RX)           /* RDAR cleared, the frame lost */       \
	X(RX_HANG, "rx_hang", RX)                 /* RX uDMA hung: no write-back */        \
	X(EBERR, "eberr", RX)                     /* bus error: EIR.EBERR, ETHEREN off */  \
	X(ECR_RESET, "ecr_reset", RX)             /* MAC reset behind the driver */        \
	X(TX_HANG, "tx_hang", TX)                 /* TX uDMA hung: no write-back */        \
	X(TDAR_HANG, "tdar_busy_hang", TDAR_BUSY) /* ERR007885: TX hung */                 \
	X(MDIO_TIMEOUT, "mdio_timeout", MDIO)     /* no MII event, no data */              \
	X(GRA_LOST, "gra_lost", GTS)              /* graceful stop done, GRA not raised */ \
	X(TX_UN, "tx_underrun", TX)               /* TX FIFO underrun: EIR.UN, UN/UE */    \
	X(TX_LC, "tx_late_col", TX)               /* late collision: EIR.LC, LC/LCE */     \
	X(TX_RL, "tx_retry_limit", TX)            /* excess collisions: EIR.RL, RL/EE */   \
	X(RX_ME, "rx_mac_err", RX)                /* enhanced RX BD ESC.ME */              \
	X(RX_PE, "rx_phy_err", RX)                /* enhanced RX BD ESC.PE */              \
	X(RX_CE, "rx_collision", RX)              /* enhanced RX BD ESC.CE */              \
	X(RX_WB_LATE, "rx_wb_late", RX)           /* RXB/RXF before E is cleared */        \
	X(RX_BDU_LATE, "rx_bdu_late", RX)         /* E cleared before BDU (and ESC) */     \
	X(TX_WB_LATE, "tx_wb_late", TX)           /* TXB/TXF before R is cleared */        \
	X(RX_CRC_ONLY, "rx_crc_only", RX)         /* RX BD length: the FCS alone */

/** Fault kinds (FEC_MODEL_FAULT_TABLE). */
enum fec_model_fault_kind {
#define FEC_MODEL_FAULT_ENUM(k, name, ev) FEC_FAULT_##k,
	FEC_MODEL_FAULT_TABLE(FEC_MODEL_FAULT_ENUM)
#undef FEC_MODEL_FAULT_ENUM
		FEC_FAULT_NB
};

/** A fault to inject, with its trigger. */
struct fec_model_fault {
	enum fec_model_fault_kind kind; /**< what */
	uint32_t after; /**< events of the kind's type to let pass first (0: the next one) */
	uint32_t count; /**< then this many events are candidates (0 disarms the kind) */
	/**
	 * Probability of a candidate being hit, in millionths; 0 (or >= 1000000)
	 * hits every candidate, so after/count alone give "at frame N".
	 */
	uint32_t ppm;
	uint64_t seed; /**< random sequence for ppm (the same seed, the same hits) */
};

/**
 * Arm a fault. It replaces what was armed for that kind (count 0 disarms
 * it); faults of different kinds are independent and may overlap.
 *
 * @param m
 *   Model.
 * @param f
 *   Fault and trigger.
 * @return
 *   0, or -EINVAL (NULL, unknown kind).
 */
int fec_model_inject(struct fec_model *m, const struct fec_model_fault *f);

/**
 * Faults of a kind injected so far (hits, not candidates).
 *
 * @param m
 *   Model.
 * @param kind
 *   Kind.
 * @return
 *   Count (0 for an unknown kind).
 */
uint64_t fec_model_faults_injected(const struct fec_model *m, enum fec_model_fault_kind kind);

/**
 * Candidates of an armed fault still to come (0 once it is spent).
 *
 * @param m
 *   Model.
 * @param kind
 *   Kind.
 * @return
 *   Events still to pass plus candidates left.
 */
uint64_t fec_model_fault_pending(const struct fec_model *m, enum fec_model_fault_kind kind);

/**
 * Frames the faults took before they reached the ring (EBERR, ECR_RESET):
 * neither received nor in any MAC counter. RDAR_CLEAR and RX_HANG frames are
 * counted as the hardware counts a frame without a descriptor (IEEE_R_MACERR,
 * fec_model_drops()).
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
uint64_t fec_model_fault_drops(const struct fec_model *m);

/**
 * Name of a fault kind, as in FEC_MODEL_FAULT_TABLE.
 *
 * @param kind
 *   Kind.
 * @return
 *   Name, or NULL for an unknown kind.
 */
const char *fec_model_fault_name(enum fec_model_fault_kind kind);

/**
 * Look a fault kind up by name.
 *
 * @param name
 *   Name.
 * @return
 *   Kind, or -ENOENT.
 */
int fec_model_fault_kind(const char *name);

/**
 * ERR006358 lost kick: the next n TDAR writes are lost (TDAR stays clear, the
 * frames on the ring stall until a later write). The same as injecting
 * FEC_FAULT_TDAR_LOSE with after 0 and count n.
 *
 * @param m
 *   Model.
 * @param n
 *   Writes to lose.
 */
void fec_model_tdar_lose(struct fec_model *m, unsigned int n);

/**
 * TDAR writes lost so far (fec_model_tdar_lose): the FEC_FAULT_TDAR_LOSE hits.
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
unsigned int fec_model_tdar_lost(const struct fec_model *m);

/**
 * TDAR writes made while TDAR was still active: the ERR007885 window, which
 * the driver must avoid on the SoCs that have it (logged at WARNING there).
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
unsigned int fec_model_tdar_busy_writes(const struct fec_model *m);

/** Points of the TX uDMA going idle on a ring, where fec_model_tx_idle_hook() can run. */
enum fec_model_idle_point {
	FEC_MODEL_IDLE_SEEN,    /**< the BD at the ring's pointer read not ready, TDAR still set */
	FEC_MODEL_IDLE_CLEARED, /**< TDAR cleared, that BD not read again yet */
};

/** A hook run as the TX uDMA goes idle (fec_model_tx_idle_hook()). */
typedef void (*fec_model_idle_hook_t)(
	struct fec_model *m, unsigned int ring, enum fec_model_idle_point at, void *arg);

/**
 * Test hook: run @p fn once, the next time the TX uDMA goes idle on a ring,
 * at point @p at. That is the window a TX doorbell races (the MAC clearing
 * TDAR: a few cycles on the SoC, as long as the model's thread is descheduled
 * in thread mode), made deterministic for step-mode tests. The model's lock
 * is released around the call, so @p fn may call the driver (a tx_burst and
 * its TDAR write). One-shot: cleared before @p fn runs.
 *
 * @param m
 *   Model.
 * @param at
 *   Point.
 * @param fn
 *   Hook (NULL disarms).
 * @param arg
 *   Its argument.
 */
void fec_model_tx_idle_hook(
	struct fec_model *m, enum fec_model_idle_point at, fec_model_idle_hook_t fn, void *arg);

/**
 * TX BDs handed over while the uDMA was going idle on their ring, which it
 * then served without a doorbell (the driver may have read TDAR still set and
 * rightly skipped its write: the ERR007885 guard).
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
uint64_t fec_model_tx_idle_races(const struct fec_model *m);

/** What fec_model_tx_stall() found. */
enum fec_model_tx_stall {
	FEC_MODEL_TX_OK = 0,       /**< no BD ready at the MAC's pointer, or no ring */
	FEC_MODEL_TX_STALL_DRIVER, /**< a ready BD, TDAR clear, the uDMA idle: no doorbell */
	FEC_MODEL_TX_STALL_MODEL,  /**< a ready BD, the uDMA active, yet not sending */
};

/**
 * Which side holds frames on a TX ring, for a test's failure message: the
 * driver (a BD ready at the uDMA's pointer, TDAR clear since the uDMA went
 * idle, so a doorbell was due and not written) or the model (TDAR set, or the
 * ring served on, and the uDMA not sending: hung, held, stopped, not stepped).
 * Only meaningful once the model has had time to run.
 *
 * @param m
 *   Model.
 * @param ring
 *   TX ring.
 * @param msg
 *   Out: a sentence naming the side and the BD.
 * @param size
 *   Its size.
 * @return
 *   An enum fec_model_tx_stall, or -EINVAL (no such ring).
 */
int fec_model_tx_stall(struct fec_model *m, unsigned int ring, char *msg, size_t size);

/**
 * One of the model's interrupt lines as an eventfd (created on the first
 * call, closed by fec_model_free()): 1 is added each time an event of the
 * line becomes pending in EIR while EIMR unmasks it, or EIMR unmasks one
 * already pending. Line n carries ring n's events (RXF/RXB/TXF/TXB n, EIR
 * bits 0-3 for ring 1, 4-7 for ring 2), line 0 also every other event.
 *
 * @param m
 *   Model.
 * @param line
 *   0..2 (int0..int2).
 * @return
 *   The fd (non-blocking), or a negative errno (-EINVAL: no such line).
 */
int fec_model_irq_fd(struct fec_model *m, unsigned int line);

/**
 * Open the model's line 0 as uio_pdrv_genirq presents its IRQ in /dev/uioX,
 * for the driver's UIO interrupt path: an eventfd (non-blocking, 8-byte
 * count) to which each interrupt adds 1. An interrupt happens when an event
 * of line 0 becomes pending unmasked while the IRQ is enabled; it disables
 * the IRQ (as the kernel's handler does) until fec_model_uio_irqcontrol()
 * enables it, which interrupts at once if line 0 is still asserted. Each open
 * counts for itself, as each open of /dev/uioX does. The IRQ starts enabled.
 *
 * @param m
 *   Model.
 * @return
 *   The fd, or a negative errno (-EMFILE: too many opens).
 */
int fec_model_uio_open(struct fec_model *m);

/**
 * Close an fd fec_model_uio_open() gave (fec_model_free() closes the rest).
 *
 * @param m
 *   Model.
 * @param fd
 *   The fd; another value is ignored.
 */
void fec_model_uio_close(struct fec_model *m, int fd);

/**
 * The write of 1 (enable) or 0 (disable) to /dev/uioX: uio_pdrv_genirq's
 * irqcontrol.
 *
 * @param m
 *   Model.
 * @param on
 *   Enable the IRQ.
 */
void fec_model_uio_irqcontrol(struct fec_model *m, bool on);

/**
 * Interrupts the emulated UIO device took so far (fec_model_uio_open()).
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
unsigned int fec_model_uio_irqs(const struct fec_model *m);

/**
 * Model time: CLOCK_MONOTONIC in ns (or where fec_model_time_freeze() stopped
 * it) plus what fec_model_time_advance() added.
 * The interrupt coalescing timer (TXIC/RXIC ICTT) runs on it.
 *
 * @param m
 *   Model.
 * @return
 *   Nanoseconds.
 */
uint64_t fec_model_time_ns(const struct fec_model *m);

/**
 * Stop model time's own clock: from now on it moves only by
 * fec_model_time_advance() (deterministic coalescing timers in step mode).
 *
 * @param m
 *   Model.
 */
void fec_model_time_freeze(struct fec_model *m);

/**
 * Move model time forward (a test's shortcut past a coalescing timeout); the
 * next step raises what expired.
 *
 * @param m
 *   Model.
 * @param ns
 *   Nanoseconds to add.
 */
void fec_model_time_advance(struct fec_model *m, uint64_t ns);

/**
 * Frame events (TXF/RXF) raised by interrupt coalescing so far: when ICFT
 * frames were reached, ICTT expired, or coalescing was turned off with
 * frames held. Events raised without coalescing are not counted.
 *
 * @param m
 *   Model.
 * @param tx
 *   TX (TXICn) rather than RX (RXICn).
 * @return
 *   Count.
 */
unsigned int fec_model_coal_events(const struct fec_model *m, bool tx);

/**
 * Interrupt assertions so far on all lines (counted with or without an eventfd).
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
unsigned int fec_model_irqs(const struct fec_model *m);

/**
 * Interrupt assertions so far on one line.
 *
 * @param m
 *   Model.
 * @param line
 *   0..2; another line has none.
 * @return
 *   Count.
 */
unsigned int fec_model_line_irqs(const struct fec_model *m, unsigned int line);

/**
 * Rings the model's ENET has: 3 on the AVB IPs (i.MX6SX, i.MX8M*), else 1.
 *
 * @param m
 *   Model.
 * @return
 *   Count.
 */
unsigned int fec_model_nb_rings(const struct fec_model *m);

/**
 * Frames one ring has moved since the model was created: received into an RX
 * ring (RCMR classification) or sent from a TX ring (strict priority, ring 2
 * first).
 *
 * @param m
 *   Model.
 * @param tx
 *   Non-zero: a TX ring.
 * @param ring
 *   Ring (0..2).
 * @return
 *   Count (0 for a ring the ENET does not have).
 */
uint64_t fec_model_ring_frames(const struct fec_model *m, int tx, unsigned int ring);

/**
 * Checksums the TX accelerator has inserted since the model was created
 * (enhanced BD IINS/PINS or TACC.IPCHK/PROCHK, on IPv4 frames it could parse).
 *
 * @param m
 *   Model.
 * @param ip
 *   Out: IPv4 header checksums (may be NULL).
 * @param l4
 *   Out: TCP/UDP checksums (may be NULL).
 */
void fec_model_tx_csum_counts(const struct fec_model *m, uint64_t *ip, uint64_t *l4);

#endif /* FEC_MODEL_H */
