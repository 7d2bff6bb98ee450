/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Model errata and injected faults: the TDAR doorbell's ERR006358 and
 * ERR007885 behaviours, and fec_model_inject()'s table (fec-enet.md §3.7),
 * each fault with a trigger: after N events of its kind, M candidates, each
 * hit always or with a probability drawn from a seeded sequence, so a failing
 * run replays exactly.
 */

#include <errno.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>

#include "fec_model_priv.h"

static const char *const fault_names[FEC_FAULT_NB] = {
#define FAULT_NAME(k, name, ev) [FEC_FAULT_##k] = name,
	FEC_MODEL_FAULT_TABLE(FAULT_NAME)
#undef FAULT_NAME
};

/* The RX kinds, tested together once per frame before looking at each. */
#define FAULT_RX_BIT(k, name, ev) | (FAULT_EV_##ev == FAULT_EV_RX ? 1u << FEC_FAULT_##k : 0u)
enum { FAULT_EV_RX, FAULT_EV_TX, FAULT_EV_TDAR, FAULT_EV_TDAR_BUSY, FAULT_EV_MDIO, FAULT_EV_GTS };
static const uint32_t fault_rx_mask = 0u FEC_MODEL_FAULT_TABLE(FAULT_RX_BIT);
#undef FAULT_RX_BIT

_Static_assert(FEC_FAULT_NB <= 32, "fault_armed is a 32-bit mask");

/* xorshift64*: small, seedable, the same hits on every machine. */
static uint64_t
rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

int
fec_model_inject(struct fec_model *m, const struct fec_model_fault *f)
{
	struct fec_model_fault_state *s;

	if (m == NULL || f == NULL || (unsigned int)f->kind >= FEC_FAULT_NB)
		return -EINVAL;
	rte_spinlock_lock(&m->lock);
	s = &m->fault[f->kind];
	s->skip = f->after;
	s->left = f->count;
	s->ppm = f->ppm >= 1000000u ? 0 : f->ppm;
	/* A zero state would stay zero. */
	s->rng = f->seed != 0 ? f->seed : 0x9E3779B97F4A7C15ULL;
	if (s->left != 0)
		m->fault_armed |= 1u << f->kind;
	else
		m->fault_armed &= ~(1u << f->kind);
	rte_spinlock_unlock(&m->lock);
	return 0;
}

bool
fec_model_fault_armed(const struct fec_model *m, enum fec_model_fault_kind kind)
{
	return (m->fault_armed & (1u << kind)) != 0;
}

/* Called with the model lock held, at the kind's event. */
bool
fec_model_fault_hit(struct fec_model *m, enum fec_model_fault_kind kind)
{
	struct fec_model_fault_state *s = &m->fault[kind];

	if (!fec_model_fault_armed(m, kind))
		return false;
	if (s->skip > 0) {
		s->skip--;
		return false;
	}
	if (--s->left == 0)
		m->fault_armed &= ~(1u << kind);
	if (s->ppm != 0 && rng_next(&s->rng) % 1000000u >= s->ppm)
		return false;
	s->injected++;
	return true;
}

/*
 * Called with the lock held for a frame that has its descriptors. Returns
 * true when a fault took the frame (lost before the ring); else ORs the
 * injected status bits into *st (FEC_BD_L there means "L missing": the
 * caller XORs it with L) and the enhanced BD's ESC error bits into *esc
 * (the caller writes them into the last BD; a legacy BD has no ESC).
 */
bool
fec_model_rx_fault(struct fec_model *m, uint32_t rdar, uint16_t *st, uint32_t *esc)
{
	static const struct {
		enum fec_model_fault_kind kind;
		uint32_t bits;
	} esc_err[] = {
		{FEC_FAULT_RX_ME, FEC_BD_EX_RX_ME},
		{FEC_FAULT_RX_PE, FEC_BD_EX_RX_PE},
		{FEC_FAULT_RX_CE, FEC_BD_EX_RX_CE},
	};
	static const struct {
		enum fec_model_fault_kind kind;
		uint16_t bits;
	} status[] = {
		{FEC_FAULT_RX_CR, FEC_BD_RX_CR},
		{FEC_FAULT_RX_OV, FEC_BD_RX_OV},
		{FEC_FAULT_RX_LG, FEC_BD_RX_LG},
		{FEC_FAULT_RX_NO, FEC_BD_RX_NO},
		{FEC_FAULT_RX_TR, FEC_BD_RX_TR | FEC_BD_RX_LG},
		{FEC_FAULT_RX_NO_LAST, FEC_BD_L},
	};
	unsigned int i;

	if (!(m->fault_armed & fault_rx_mask))
		return false;
	if (fec_model_fault_hit(m, FEC_FAULT_EBERR)) {
		/* The uDMA stops and the MAC disables itself (RM: EBERR). */
		m->drops_fault++;
		fec_model_event(m, FEC_EIR_EBERR);
		fec_model_reg_set(m, FEC_ECR, fec_model_reg(m, FEC_ECR) & ~FEC_ECR_ETHEREN);
		fec_model_dma_disable(m);
		return true;
	}
	if (fec_model_fault_hit(m, FEC_FAULT_ECR_RESET)) {
		m->drops_fault++;
		fec_model_reset(m);
		return true;
	}
	if (fec_model_fault_hit(m, FEC_FAULT_RDAR_CLEAR)) {
		/* As if the uDMA found no descriptor: the frame overflows the FIFO. */
		m->drops_nodesc++;
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_macerr, 1);
		fec_model_reg_set(m, rdar, 0);
		return true;
	}
	if (fec_model_fault_hit(m, FEC_FAULT_RX_HANG)) {
		/* Hung with RDAR still set: every frame overflows until a disable. */
		m->rx_hung = true;
		m->drops_nodesc++;
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_macerr, 1);
		return true;
	}
	for (i = 0; i < RTE_DIM(status); i++)
		if (fec_model_fault_hit(m, status[i].kind))
			*st |= status[i].bits;
	for (i = 0; i < RTE_DIM(esc_err); i++)
		if (fec_model_fault_hit(m, esc_err[i].kind))
			*esc |= esc_err[i].bits;
	return false;
}

uint64_t
fec_model_faults_injected(const struct fec_model *m, enum fec_model_fault_kind kind)
{
	if ((unsigned int)kind >= FEC_FAULT_NB)
		return 0;
	return m->fault[kind].injected;
}

uint64_t
fec_model_fault_pending(const struct fec_model *m, enum fec_model_fault_kind kind)
{
	if ((unsigned int)kind >= FEC_FAULT_NB || !fec_model_fault_armed(m, kind))
		return 0;
	return (uint64_t)m->fault[kind].skip + m->fault[kind].left;
}

uint64_t
fec_model_fault_drops(const struct fec_model *m)
{
	return m->drops_fault;
}

const char *
fec_model_fault_name(enum fec_model_fault_kind kind)
{
	return (unsigned int)kind < FEC_FAULT_NB ? fault_names[kind] : NULL;
}

int
fec_model_fault_kind(const char *name)
{
	unsigned int i;

	for (i = 0; name != NULL && i < FEC_FAULT_NB; i++)
		if (strcmp(name, fault_names[i]) == 0)
			return (int)i;
	return -ENOENT;
}

/* Called with the model lock held, for a TDAR (any ring's) write while ETHEREN=1. */
bool
fec_model_tdar_fault(struct fec_model *m, uint32_t tdar)
{
	if (fec_model_reg(m, tdar) & FEC_DAR_ACTIVE) {
		m->tdar_busy_writes++;
		if (m->err007885)
			RTE_LOG(WARNING, PMD,
				"fec_model: %s: TDAR written while active (ERR007885)\n", m->name);
		/* The erratum's hang: TX stops, TDAR stays set, until a disable. */
		if (fec_model_fault_hit(m, FEC_FAULT_TDAR_HANG))
			m->tx_hung = true;
	}
	return fec_model_fault_hit(m, FEC_FAULT_TDAR_LOSE);
}

void
fec_model_tdar_lose(struct fec_model *m, unsigned int n)
{
	struct fec_model_fault f = {.kind = FEC_FAULT_TDAR_LOSE, .count = n};

	fec_model_inject(m, &f);
}

unsigned int
fec_model_tdar_lost(const struct fec_model *m)
{
	return (unsigned int)fec_model_faults_injected(m, FEC_FAULT_TDAR_LOSE);
}

unsigned int
fec_model_tdar_busy_writes(const struct fec_model *m)
{
	return m->tdar_busy_writes;
}

/* Called with the lock held where a graceful stop completes (the GTS event). */
void
fec_model_gra(struct fec_model *m)
{
	/* The transmitter halts all the same; only the event is missing. */
	if (!fec_model_fault_hit(m, FEC_FAULT_GRA_LOST))
		fec_model_event(m, FEC_EIR_GRA);
}

/*
 * Called with the lock held for a frame about to go out: the TX error an
 * injected fault gives it, or NULL. The MAC then sends nothing, counts the
 * error in its MIB (Linux's fec_enet_tx_queue reads the same bits per frame
 * and counts tx_errors) and writes the bits back into the frame's last BD.
 */
const struct fec_model_tx_err *
fec_model_tx_fault(struct fec_model *m)
{
	static const struct {
		enum fec_model_fault_kind kind;
		struct fec_model_tx_err err;
	} errs[] = {
		{FEC_FAULT_TX_UN, {FEC_EIR_UN, FEC_MIB_OFF_ieee_t_macerr, FEC_BD_TX_UN,
					  FEC_BD_EX_TX_TXE | FEC_BD_EX_TX_UE}},
		{FEC_FAULT_TX_LC, {FEC_EIR_LC, FEC_MIB_OFF_ieee_t_lcol, FEC_BD_TX_LC,
					  FEC_BD_EX_TX_TXE | FEC_BD_EX_TX_LCE}},
		{FEC_FAULT_TX_RL, {FEC_EIR_RL, FEC_MIB_OFF_ieee_t_excol, FEC_BD_TX_RL,
					  FEC_BD_EX_TX_TXE | FEC_BD_EX_TX_EE}},
	};
	unsigned int i;

	for (i = 0; i < RTE_DIM(errs); i++)
		if (fec_model_fault_hit(m, errs[i].kind))
			return &errs[i].err;
	return NULL;
}
