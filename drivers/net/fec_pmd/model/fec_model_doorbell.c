/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The TX doorbell's hand-off: the uDMA going idle on a TX ring (TDAR
 * cleared) while the driver hands BDs over and decides whether to ring.
 *
 * On the SoC the uDMA clears TDAR 2-4 cycles after it read a BD it does not
 * own; the ERR007885 guard (read TDAR up to 4 times, write only if one read is
 * 0) outlasts that window, so a doorbell it skips was not needed: the uDMA was
 * still running and reads the BD again. The model's uDMA is a thread: between
 * reading the BD and clearing TDAR it can be descheduled for a time slice,
 * and a driver reading TDAR set all that time skips its write while the uDMA
 * is already on its way to idle. The ring's BDs then wait for a doorbell that
 * never comes (issue 37: 64 frames, a full ring, never sent).
 *
 * So the model goes idle as a store-then-load handshake with the driver's:
 * clear TDAR, a full barrier, read the BD again. The driver stores R, has a
 * full barrier and reads TDAR. One of the two sees the other's store: either
 * the driver reads TDAR clear and rings, or the uDMA sees the BD ready and
 * serves the ring on (TDAR reading clear meanwhile, as if the driver had rung
 * after the clear). A ready BD left with TDAR clear and the ring not served
 * is then the driver's fault alone; fec_model_tx_stall() says which side.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_byteorder.h>

#include "fec_model_priv.h"

static inline uint16_t
ptr_sc(const struct fec_model *m, const struct fec_model_ring_state *r)
{
	return rte_le_to_cpu_16(
		((const volatile struct fec_bd *)(m->bd_area + (r->ptr - FEC_MODEL_BD_BUS)))->sc);
}

/*
 * The one-shot hook at point @p at, with the lock released (it may call the
 * driver, and the driver may write a register). False when the MAC was
 * disabled meanwhile: the ring state is the disable's.
 */
static bool
idle_hook(struct fec_model *m, struct fec_model_ring_state *r, enum fec_model_idle_point at)
{
	fec_model_idle_hook_t fn = m->idle_hook;

	if (likely(fn == NULL) || m->idle_at != at)
		return true;
	m->idle_hook = NULL;
	rte_spinlock_unlock(&m->lock);
	fn(m, r->q, at, m->idle_arg);
	rte_spinlock_lock(&m->lock);
	return (fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN) != 0;
}

bool
fec_model_tx_idle(struct fec_model *m, struct fec_model_ring_state *r)
{
	if (!idle_hook(m, r, FEC_MODEL_IDLE_SEEN))
		return false;
	fec_model_reg_set(m, fec_tdar_off(r->q), 0);
	r->idle_race = false;
	/* The driver's side: store R, rte_io_mb(), read TDAR (tx_kick). */
	rte_atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!idle_hook(m, r, FEC_MODEL_IDLE_CLEARED))
		return false;
	if (!(ptr_sc(m, r) & FEC_BD_R))
		return false;
	/* Handed over while TDAR was going clear: the driver may have read it set. */
	r->idle_race = true;
	m->tx_idle_races++;
	return true;
}

void
fec_model_tx_idle_hook(
	struct fec_model *m, enum fec_model_idle_point at, fec_model_idle_hook_t fn, void *arg)
{
	rte_spinlock_lock(&m->lock);
	m->idle_at = at;
	m->idle_arg = arg;
	m->idle_hook = fn;
	rte_spinlock_unlock(&m->lock);
}

uint64_t
fec_model_tx_idle_races(const struct fec_model *m)
{
	return m->tx_idle_races;
}

/* Why a uDMA that should be sending is not (the model's side). */
static const char *
tx_stopped_why(const struct fec_model *m)
{
	if (m->tx_hung)
		return "hung (an injected fault)";
	if (m->tx_hold)
		return "held (fec_model_tx_hold)";
	if (fec_model_reg(m, FEC_TCR) & FEC_TCR_GTS)
		return "stopped (TCR.GTS)";
	if (m->txwb_n != 0)
		return "waiting on a held write-back";
	return "not stepped (no step ran since: the model thread stalled, or the test did not step)";
}

int
fec_model_tx_stall(struct fec_model *m, unsigned int ring, char *msg, size_t size)
{
	const struct fec_model_ring_state *r;
	int ret = FEC_MODEL_TX_OK;
	uint32_t tdar;
	unsigned int bd;

	if (ring >= m->nb_rings)
		return -EINVAL;
	r = &m->tx[ring];
	rte_spinlock_lock(&m->lock);
	tdar = fec_model_reg(m, fec_tdar_off(ring));
	bd = m->bd_size != 0 ? (r->ptr - r->start) / m->bd_size : 0;
	if (!(fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN) || r->nb == 0) {
		snprintf(msg, size, "TX%u: MAC disabled or ring not set up", ring);
	} else if (!(ptr_sc(m, r) & FEC_BD_R)) {
		snprintf(msg, size,
			"TX%u: no BD ready at the MAC's pointer (BD %u): nothing stalled", ring,
			bd);
	} else if ((tdar & FEC_DAR_ACTIVE) || r->idle_race) {
		ret = FEC_MODEL_TX_STALL_MODEL;
		snprintf(msg, size,
			"model stalled: TX%u BD %u ready and the uDMA active (TDAR %s), but it is %s",
			ring, bd, (tdar & FEC_DAR_ACTIVE) ? "set" : "clear, ring served on",
			tx_stopped_why(m));
	} else {
		ret = FEC_MODEL_TX_STALL_DRIVER;
		snprintf(msg, size,
			"driver left a ready BD without a doorbell: TX%u BD %u ready, TDAR clear since "
			"the uDMA went idle (it read the BD after clearing TDAR: %" PRIu64
			" hand-overs caught so); %u TDAR writes lost to an injected fault",
			ring, bd, m->tx_idle_races, fec_model_tdar_lost(m));
	}
	rte_spinlock_unlock(&m->lock);
	return ret;
}
