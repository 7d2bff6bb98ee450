/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_MODEL_PRIV_H
#define FEC_MODEL_PRIV_H

/* Internals shared by the model's files; not used by the driver. */

#include <pthread.h>
#include <stdbool.h>

#include <pcap/pcap.h>

#include <rte_spinlock.h>

#include "fec_model.h"
#include "fec_quirks.h"
#include "fec_regs.h"

#define FEC_MODEL_BD_BUS  0x50000000u
#define FEC_MODEL_DMA_BUS 0x40000000u
#define FEC_MODEL_DMA_END 0x50000000u
#define FEC_MODEL_MAX_WIN 64
#define FEC_MODEL_FIFO    1024u
#define FEC_MODEL_LOG     4096u
#define FEC_MODEL_MSG     160
#define FEC_MODEL_UIO_MAX 4 /* opens of the emulated UIO device */

struct fec_model_win {
	uintptr_t va;
	uint32_t bus;
	uint32_t len;
};

struct fec_model_frame {
	uint16_t len;
	uint8_t data[FEC_MODEL_FRAME_MAX + 4];
};

/* Single-producer single-consumer frame FIFO (wire in, captured out). */
struct fec_model_fifo {
	struct fec_model_frame *slot;
	uint32_t head, tail;
};

enum fec_model_wire { FEC_WIRE_SCRIPT, FEC_WIRE_LOOP, FEC_WIRE_RING, FEC_WIRE_PCAP };

struct fec_model_ring_state {
	uint32_t start;  /* bus address of the first BD (RDSR/TDSR at enable) */
	uint32_t ptr;    /* bus address of the BD the uDMA looks at next */
	uint32_t nb;     /* BDs up to and including the one with W; 0: ring not set up */
	uint8_t q;       /* ring number */
	bool tx;         /* a TX ring */
	uint64_t frames; /* frames this ring moved (received into / sent from it) */
	/*
	 * TX: a BD was handed over as the uDMA went idle (fec_model_doorbell.c):
	 * it serves the ring on, TDAR reading clear, until the ring runs dry.
	 */
	bool idle_race;
};

/* Frames held by interrupt coalescing on one ring and direction (fec_model_coal.c). */
struct fec_model_coal {
	uint32_t frames;   /* completed since the last event */
	uint64_t first_ns; /* model time of the first of them */
};

/* One armed fault (fec_model_fault.c). */
struct fec_model_fault_state {
	uint32_t skip;     /* events still to let pass */
	uint32_t left;     /* candidates left after them */
	uint32_t ppm;      /* hit probability of a candidate, 0: always */
	uint64_t rng;      /* xorshift64 state from the seed */
	uint64_t injected; /* hits so far */
};

struct fec_model {
	uint32_t regs[FEC_REG_SPACE / 4]; /* first: 4 KiB aligned via rte_zmalloc */
	char name[64];
	struct fec_model_cfg cfg;
	const struct fec_soc *soc;
	bool err007885;
	/* TDAR errata and injected faults (fec_model_fault.c). */
	unsigned int tdar_busy_writes; /* TDAR written while active */
	/* The TX doorbell's hand-off (fec_model_doorbell.c). */
	uint64_t tx_idle_races;          /* BDs served that came as a ring went idle */
	fec_model_idle_hook_t idle_hook; /* test hook, one-shot */
	enum fec_model_idle_point idle_at;
	void *idle_arg;
	struct fec_model_fault_state fault[FEC_FAULT_NB];
	uint32_t fault_armed;  /* bit per kind with candidates left */
	bool rx_hung, tx_hung; /* uDMA hung until ETHEREN goes off (or a reset) */
	uint64_t drops_fault;  /* frames a fault took off the wire (not in the ring) */
	/* rx_wb_late: one frame's status write-backs, held to the next step. */
#define FEC_MODEL_WB_MAX 8
	uint32_t wb_bus[FEC_MODEL_WB_MAX];
	uint16_t wb_sc[FEC_MODEL_WB_MAX];
	unsigned int wb_n;
	/* rx_bdu_late: one frame's BDU and ESC words, held to the next step. */
	uint32_t bdu_bus[FEC_MODEL_WB_MAX];
	uint32_t bdu_esc[FEC_MODEL_WB_MAX];
	unsigned int bdu_n;
	/* tx_wb_late: one frame's TX write-backs (R cleared), held to the next step. */
	uint32_t txwb_bus[FEC_MODEL_WB_MAX];
	uint16_t txwb_sc[FEC_MODEL_WB_MAX];
	unsigned int txwb_n;
	rte_spinlock_t lock;

	uint8_t *bd_area;
	size_t bd_len;
	/* Shadow of HW-owned descriptors, one bit per 8-byte slot. */
	uint8_t *shadow;
	uint8_t *owned;

	struct fec_model_win win[FEC_MODEL_MAX_WIN];
	unsigned int nb_win;
	uint32_t next_bus;

	/* Rings 0..nb_rings-1 (FEC_MAX_RINGS on AVB IPs, 1 on the others). */
	struct fec_model_ring_state rx[FEC_MAX_RINGS], tx[FEC_MAX_RINGS];
	unsigned int nb_rings;
	unsigned int bd_size;
	bool gts_pending;
	/* GTS set and GRA raised: the TX uDMA reads no BD, the driver may take them back. */
	bool tx_halted;
	bool tx_hold; /* XOFF: the TX uDMA sends nothing */

	enum fec_model_wire wire;
	struct fec_model_fifo in, out;
	struct rte_ring *ring_rx, *ring_tx;
	struct rte_mempool *wire_pool;
	pcap_t *pcap_in, *pcap_dead;
	pcap_dumper_t *pcap_out;
	bool pcap_unflushed;
	bool pcap_follow;           /* at the end of IN, wait for more (a file still written) */
	uint64_t wire_in, wire_out; /* frames taken from / given to the cable */
	uint8_t txbuf[FEC_MODEL_FRAME_MAX + 64];

	uint16_t phy[32];
	bool phy_link;
	uint16_t phy_lp_pause;    /* the link partner's ANLPAR PAUSE/ASM_DIR bits */
	uint32_t phy_an_restarts; /* BMCR writes with ANRST */

	uint64_t drops_nodesc, drops_filtered, drops_wire;
	uint64_t tx_csum_ip, tx_csum_l4; /* checksums the TX accelerator inserted */
	unsigned int violations;
	char last_violation[FEC_MODEL_MSG];

	struct fec_reg_write *log;
	unsigned int nb_log;

	/* Interrupt lines int0..int2 (fec_model_irq.c): eventfds, -1 until asked for. */
	int irq_fd[FEC_MAX_RINGS];
	unsigned int irqs[FEC_MAX_RINGS]; /* assertions so far, per line */
	/*
	 * Line 0 as uio_pdrv_genirq presents it (fec_model_uio_*): listeners
	 * (one eventfd per open, -1 when free), the IRQ's enable state and the
	 * interrupts it took.
	 */
	int uio_fd[FEC_MODEL_UIO_MAX];
	bool uio_irq_off;
	unsigned int uio_irqs;
	/* Interrupt coalescing (fec_model_coal.c): [0] RX, [1] TX, per ring. */
	struct fec_model_coal coal[2][FEC_MAX_RINGS];
	unsigned int coal_events[2]; /* frame events coalescing raised (ICFT or ICTT) */
	/* 1588 timer (fec_model_ptp.c): its value at model time ptp_base_ns. */
	uint64_t ptp_base_ns;
	uint32_t ptp_val;
	uint32_t ptp_cphase;     /* clocks since the last ATCOR correction */
	uint64_t time_warp_ns;   /* fec_model_time_advance() */
	uint64_t time_frozen_ns; /* fec_model_time_freeze(): the clock stopped here; 0: runs */

	pthread_t thread;
	volatile int thread_run;
	bool thread_on;
};

bool fec_model_tdar_fault(struct fec_model *m, uint32_t tdar);
/*
 * Called with the lock held when the TX uDMA finds the BD at ring r's pointer
 * not ready: clears TDAR, then looks at the BD again. True when it became
 * ready meanwhile: the ring is served on.
 */
bool fec_model_tx_idle(struct fec_model *m, struct fec_model_ring_state *r);
bool fec_model_fault_hit(struct fec_model *m, enum fec_model_fault_kind kind);
void fec_model_gra(struct fec_model *m);
bool fec_model_rx_fault(struct fec_model *m, uint32_t rdar, uint16_t *st, uint32_t *esc);

/* A TX error the MAC reports for a frame it did not send (fec_model_tx_fault). */
struct fec_model_tx_err {
	uint32_t eir; /* event */
	uint32_t mib; /* MIB counter offset */
	uint16_t sc;  /* last BD's status bits */
	uint32_t esc; /* enhanced ESC bits */
};
const struct fec_model_tx_err *fec_model_tx_fault(struct fec_model *m);
bool fec_model_fault_armed(const struct fec_model *m, enum fec_model_fault_kind kind);
void fec_model_violation(struct fec_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void *fec_model_dma_va(struct fec_model *m, uint32_t bus, uint32_t len);
void fec_model_phy_reset(struct fec_model *m);
void fec_model_mdio(struct fec_model *m, uint32_t mmfr);
void fec_model_dma_enable(struct fec_model *m);
void fec_model_dma_disable(struct fec_model *m);
void fec_model_reset(struct fec_model *m);
void fec_model_snapshot(struct fec_model *m, struct fec_model_ring_state *r);
int fec_model_step_locked(struct fec_model *m, unsigned int budget);
int fec_model_fifo_init(struct fec_model_fifo *f);
void fec_model_fifo_free(struct fec_model_fifo *f);
struct fec_model_frame *fec_model_fifo_peek(struct fec_model_fifo *f);
void fec_model_fifo_pop(struct fec_model_fifo *f);
int fec_model_fifo_push(struct fec_model_fifo *f, const void *data, uint16_t len);
void fec_model_wire_tx(struct fec_model *m, const uint8_t *frame, uint16_t len);
const struct fec_model_frame *fec_model_wire_rx(struct fec_model *m, struct fec_model_frame *tmp);
void fec_model_wire_rx_done(struct fec_model *m);
void fec_model_wire_free(struct fec_model *m);
void fec_model_wire_flush(struct fec_model *m);
void fec_model_irq_raise(struct fec_model *m, uint32_t bits);
/* A frame completed on ring q: its TXF/RXF now, or held by TXIC/RXIC q. */
void fec_model_frame_event(struct fec_model *m, bool tx, unsigned int q);
/* Raise what coalescing held past its ICTT (every step). */
void fec_model_coal_tick(struct fec_model *m);
void fec_model_coal_write(struct fec_model *m, uint32_t off, uint32_t val);
void fec_model_coal_reset(struct fec_model *m);
/* A write to a 1588 timer register (ATCR..ATINC). */
void fec_model_ptp_write(struct fec_model *m, uint32_t off, uint32_t val);
/* The 1588 counter now (what an RX BD's ts word gets). */
uint32_t fec_model_ptp_now(struct fec_model *m);
uint32_t fec_model_rx_accel(const uint8_t *frame, uint16_t len, uint32_t *prot);
void fec_model_tx_accel(struct fec_model *m, uint8_t *frame, uint32_t len, uint32_t esc);
void fec_model_irq_free(struct fec_model *m);

static inline uint32_t
fec_model_reg(const struct fec_model *m, uint32_t off)
{
	return __atomic_load_n(&m->regs[off / 4], __ATOMIC_RELAXED);
}

static inline void
fec_model_reg_set(struct fec_model *m, uint32_t off, uint32_t val)
{
	__atomic_store_n(&m->regs[off / 4], val, __ATOMIC_RELEASE);
}

static inline void
fec_model_event(struct fec_model *m, uint32_t bits)
{
	uint32_t eir = fec_model_reg(m, FEC_EIR);

	fec_model_reg_set(m, FEC_EIR, eir | bits);
	/* A newly pending unmasked event asserts the line; one still pending does not. */
	fec_model_irq_raise(m, bits & ~eir & fec_model_reg(m, FEC_EIMR));
}

static inline void
fec_model_mib_add(struct fec_model *m, uint32_t off, uint32_t n)
{
	if (fec_model_reg(m, FEC_MIBC) & FEC_MIBC_DIS)
		return;
	fec_model_reg_set(m, off, fec_model_reg(m, off) + n);
}

#endif /* FEC_MODEL_PRIV_H */
