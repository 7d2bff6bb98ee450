/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* Register file semantics, DMA windows, registry, checker bookkeeping, thread. */

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "fec_model_priv.h"

RTE_LOG_REGISTER(fec_model_logtype, pmd.net.fec.model, NOTICE);

#define MODEL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, fec_model_logtype, "fec_model: " fmt "\n", ##__VA_ARGS__)

#define FEC_MODEL_MAX 8
static struct fec_model *fec_models[FEC_MODEL_MAX];
static rte_spinlock_t fec_models_lock = RTE_SPINLOCK_INITIALIZER;

void
fec_model_violation(struct fec_model *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->last_violation, sizeof(m->last_violation), fmt, ap);
	va_end(ap);
	m->violations++;
	MODEL_LOG(ERR, "%s: driver violation: %s", m->name, m->last_violation);
}

void
fec_model_reset(struct fec_model *m)
{
	unsigned int i;

	for (i = 0; i < FEC_REG_SPACE / 4; i++)
		if (i * 4 < FEC_MIB_FIRST || i * 4 > FEC_MIB_LAST)
			fec_model_reg_set(m, i * 4, 0);
	fec_model_reg_set(m, FEC_ECR, FEC_ECR_RESET_VAL);
	fec_model_reg_set(m, FEC_RCR, FEC_RCR_RESET_VAL);
	fec_model_reg_set(m, FEC_MIBC, FEC_MIBC_RESET_VAL);
	fec_model_reg_set(m, FEC_OPD, FEC_OPD_RESET_VAL);
	fec_model_reg_set(m, FEC_PAUR, FEC_PAUR_TYPE);
	fec_model_reg_set(m, FEC_FTRL, FEC_FTRL_RESET_VAL);
	fec_model_reg_set(m, FEC_TIPG, 0xC);
	fec_model_reg_set(m, FEC_RAEM, 4);
	fec_model_reg_set(m, FEC_RAFL, 4);
	fec_model_reg_set(m, FEC_TAEM, 4);
	fec_model_reg_set(m, FEC_TAFL, 8);
	fec_model_dma_disable(m);
	fec_model_coal_reset(m);
	/* The 1588 counter too: stopped at 0. */
	m->ptp_val = 0;
	m->ptp_cphase = 0;
	m->gts_pending = false;
	m->tx_halted = false;
}

static int
fec_model_register(struct fec_model *m)
{
	int i, slot = -1;

	rte_spinlock_lock(&fec_models_lock);
	for (i = 0; i < FEC_MODEL_MAX; i++) {
		if (fec_models[i] != NULL && strcmp(fec_models[i]->name, m->name) == 0) {
			rte_spinlock_unlock(&fec_models_lock);
			return -EEXIST;
		}
		if (fec_models[i] == NULL && slot < 0)
			slot = i;
	}
	if (slot >= 0)
		fec_models[slot] = m;
	rte_spinlock_unlock(&fec_models_lock);
	return slot < 0 ? -ENOSPC : 0;
}

struct fec_model *
fec_model_lookup(const char *name)
{
	struct fec_model *m = NULL;
	int i;

	rte_spinlock_lock(&fec_models_lock);
	for (i = 0; i < FEC_MODEL_MAX; i++)
		if (fec_models[i] != NULL && strcmp(fec_models[i]->name, name) == 0)
			m = fec_models[i];
	rte_spinlock_unlock(&fec_models_lock);
	return m;
}

struct fec_model *
fec_model_create(const char *name, const struct fec_model_cfg *cfg)
{
	static const struct fec_model_cfg defaults = {.profile = "imx8mm", .check = 1};
	struct fec_model *m;
	unsigned int i;
	int ret;

	if (name == NULL || strlen(name) >= sizeof(m->name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	if (cfg == NULL)
		cfg = &defaults;
	m = rte_zmalloc("fec_model", sizeof(*m), 4096);
	if (m == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->cfg = *cfg;
	m->cfg.profile = NULL;
	/* The same profile as the driver's: its errata are the model's behaviour. */
	m->soc = fec_soc_find(cfg->profile);
	if (m->soc == NULL) {
		rte_free(m);
		rte_errno = EINVAL;
		return NULL;
	}
	m->err007885 = (m->soc->quirks & FEC_QUIRK_ERR007885) != 0;
	m->nb_rings = m->soc->nb_queues > 1 ? FEC_MAX_RINGS : 1;
	for (i = 0; i < FEC_MAX_RINGS; i++) {
		m->rx[i].q = (uint8_t)i;
		m->tx[i].q = (uint8_t)i;
		m->tx[i].tx = true;
	}
	m->cfg.phy_addr &= 31;
	rte_spinlock_init(&m->lock);
	for (i = 0; i < FEC_MAX_RINGS; i++)
		m->irq_fd[i] = -1;
	for (i = 0; i < FEC_MODEL_UIO_MAX; i++)
		m->uio_fd[i] = -1;
	m->bd_len = FEC_BD_AREA_SIZE;
	m->bd_area = rte_zmalloc("fec_model_bd", m->bd_len, 4096);
	m->shadow = calloc(1, m->bd_len);
	m->owned = calloc(1, m->bd_len / 8);
	m->log = calloc(FEC_MODEL_LOG, sizeof(*m->log));
	m->next_bus = FEC_MODEL_DMA_BUS;
	if (m->bd_area == NULL || m->shadow == NULL || m->owned == NULL || m->log == NULL ||
		fec_model_fifo_init(&m->in) < 0 || fec_model_fifo_init(&m->out) < 0) {
		rte_errno = ENOMEM;
		goto fail;
	}
	fec_model_reset(m);
	fec_model_phy_reset(m);
	ret = fec_model_register(m);
	if (ret < 0) {
		rte_errno = -ret;
		goto fail;
	}
	return m;
fail:
	fec_model_fifo_free(&m->in);
	fec_model_fifo_free(&m->out);
	free(m->log);
	free(m->owned);
	free(m->shadow);
	rte_free(m->bd_area);
	rte_free(m);
	return NULL;
}

void
fec_model_free(struct fec_model *m)
{
	int i;

	if (m == NULL)
		return;
	fec_model_thread_stop(m);
	rte_spinlock_lock(&fec_models_lock);
	for (i = 0; i < FEC_MODEL_MAX; i++)
		if (fec_models[i] == m)
			fec_models[i] = NULL;
	rte_spinlock_unlock(&fec_models_lock);
	fec_model_wire_free(m);
	fec_model_irq_free(m);
	fec_model_fifo_free(&m->in);
	fec_model_fifo_free(&m->out);
	free(m->log);
	free(m->owned);
	free(m->shadow);
	rte_free(m->bd_area);
	rte_free(m);
}

volatile uint8_t *
fec_model_regs(struct fec_model *m)
{
	return (volatile uint8_t *)m->regs;
}

void *
fec_model_bd_area(struct fec_model *m, uint32_t *bus, size_t *len)
{
	*bus = FEC_MODEL_BD_BUS;
	*len = m->bd_len;
	return m->bd_area;
}

void *
fec_model_dma_va(struct fec_model *m, uint32_t bus, uint32_t len)
{
	unsigned int i;

	if (bus >= FEC_MODEL_BD_BUS && (uint64_t)bus + len <= FEC_MODEL_BD_BUS + m->bd_len)
		return m->bd_area + (bus - FEC_MODEL_BD_BUS);
	for (i = 0; i < m->nb_win; i++) {
		const struct fec_model_win *w = &m->win[i];

		if (bus >= w->bus && (uint64_t)bus + len <= (uint64_t)w->bus + w->len)
			return (void *)(w->va + (bus - w->bus));
	}
	return NULL;
}

struct map_ctx {
	struct fec_model *m;
	int ret;
};

static void
map_chunk(struct rte_mempool *mp, void *opaque, struct rte_mempool_memhdr *memhdr,
	unsigned int mem_idx)
{
	struct map_ctx *c = opaque;
	struct fec_model *m = c->m;
	struct fec_model_win *w;
	uint32_t len;
	unsigned int i;

	for (i = 0; i < m->nb_win; i++)
		if (m->win[i].va == (uintptr_t)memhdr->addr)
			return;
	len = RTE_ALIGN_CEIL((uint32_t)memhdr->len, 4096);
	if (m->nb_win == FEC_MODEL_MAX_WIN || memhdr->len > UINT32_MAX ||
		(uint64_t)m->next_bus + len > FEC_MODEL_DMA_END) {
		c->ret = -ENOSPC;
		return;
	}
	w = &m->win[m->nb_win++];
	w->va = (uintptr_t)memhdr->addr;
	w->bus = m->next_bus;
	w->len = (uint32_t)memhdr->len;
	m->next_bus += len;
}

static void
set_iova(struct rte_mempool *mp, void *opaque, void *obj, unsigned int idx)
{
	struct fec_model *m = opaque;
	struct rte_mbuf *mb = obj;
	uintptr_t va = (uintptr_t)mb->buf_addr;
	unsigned int i;

	for (i = 0; i < m->nb_win; i++) {
		const struct fec_model_win *w = &m->win[i];

		if (va >= w->va && va < w->va + w->len) {
			mb->buf_iova = w->bus + (va - w->va);
			return;
		}
	}
}

int
fec_model_map_mempool(struct fec_model *m, struct rte_mempool *mp)
{
	struct map_ctx c = {.m = m, .ret = 0};

	rte_spinlock_lock(&m->lock);
	rte_mempool_mem_iter(mp, map_chunk, &c);
	if (c.ret == 0)
		rte_mempool_obj_iter(mp, set_iova, m);
	rte_spinlock_unlock(&m->lock);
	return c.ret;
}

static void
fec_model_log(struct fec_model *m, uint32_t off, uint32_t val)
{
	if (m->nb_log < FEC_MODEL_LOG) {
		m->log[m->nb_log].off = off;
		m->log[m->nb_log].val = val;
	}
	m->nb_log++;
}

/* Some TX ring's doorbell is set (or it is served on): the uDMA may be reading BDs. */
static bool
tx_active(const struct fec_model *m)
{
	unsigned int q;

	for (q = 0; q < m->nb_rings; q++)
		if ((fec_model_reg(m, fec_tdar_off(q)) & FEC_DAR_ACTIVE) || m->tx[q].idle_race)
			return true;
	return false;
}

static void
write_ecr(struct fec_model *m, uint32_t val)
{
	uint32_t old = fec_model_reg(m, FEC_ECR);

	if (val & FEC_ECR_RESET) {
		fec_model_reset(m);
		return;
	}
	fec_model_reg_set(m, FEC_ECR, val | FEC_ECR_RESET_VAL);
	if ((old & FEC_ECR_ETHEREN) && !(val & FEC_ECR_ETHEREN)) {
		fec_model_dma_disable(m);
	} else if (!(old & FEC_ECR_ETHEREN) && (val & FEC_ECR_ETHEREN)) {
		if (!(val & FEC_ECR_DBSWP))
			fec_model_violation(m, "ECR.ETHEREN set without DBSWP");
		if (!(fec_model_reg(m, FEC_RCR) & FEC_RCR_MII_MODE))
			fec_model_violation(m, "ECR.ETHEREN set with RCR.MII_MODE clear");
		fec_model_dma_enable(m);
	} else if ((old ^ val) & FEC_ECR_EN1588 & ~FEC_ECR_RESET_VAL) {
		if (val & FEC_ECR_ETHEREN)
			fec_model_violation(m, "ECR.EN1588 toggled while enabled");
	}
}

/* Ring of a doorbell register, or -1. */
static int
dar_ring(uint32_t off, bool *tx)
{
	unsigned int q;

	for (q = 0; q < FEC_MAX_RINGS; q++) {
		if (off == fec_rdar_off(q) || off == fec_tdar_off(q)) {
			*tx = off == fec_tdar_off(q);
			return (int)q;
		}
	}
	return -1;
}

/* Ring of a start/size register (RDSR, TDSR, MRBR of rings 0..2), or -1. */
static int
sr_ring(uint32_t off)
{
	unsigned int q;

	for (q = 0; q < FEC_MAX_RINGS; q++)
		if (off == fec_rdsr_off(q) || off == fec_tdsr_off(q) || off == fec_mrbr_off(q))
			return (int)q;
	return -1;
}

static void
write_dar(struct fec_model *m, uint32_t off, struct fec_model_ring_state *r)
{
	if (!(fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN))
		return;
	if (r->q >= m->nb_rings) {
		fec_model_violation(
			m, "0x%03x: ring %u doorbell on a %u-ring ENET", off, r->q, m->nb_rings);
		return;
	}
	if (r->nb == 0) {
		fec_model_violation(
			m, "0x%03x: ring %u doorbell without a ring (start 0)", off, r->q);
		return;
	}
	if (r->tx && r->q != 0 &&
		!(fec_model_reg(m, r->q == 1 ? FEC_DMA_CFG1 : FEC_DMA_CFG2) & FEC_DMA_CLASS_EN)) {
		fec_model_violation(
			m, "TDAR%u written with DMA_CFG%u.DMA_CLASS_EN clear", r->q, r->q);
		return;
	}
	if (r->tx && fec_model_tdar_fault(m, off))
		return;
	fec_model_reg_set(m, off, FEC_DAR_ACTIVE);
	if (m->cfg.check)
		fec_model_snapshot(m, r);
	if (m->cfg.autostep)
		fec_model_step_locked(m, UINT32_MAX);
}

void
fec_model_write32(struct fec_model *m, uint32_t off, uint32_t val)
{
	uint32_t old;

	if (off >= FEC_REG_SPACE || (off & 3)) {
		fec_model_violation(m, "register write outside the block: 0x%x", off);
		return;
	}
	rte_spinlock_lock(&m->lock);
	fec_model_log(m, off, val);
	old = fec_model_reg(m, off);
	switch (off) {
	case FEC_EIR:
		fec_model_reg_set(m, off, old & ~val);
		break;
	case FEC_EIMR:
		fec_model_reg_set(m, off, val);
		/* Unmasking an event already pending asserts the line (level source). */
		fec_model_irq_raise(m, fec_model_reg(m, FEC_EIR) & val & ~old);
		break;
	case FEC_RDAR:
	case FEC_RDAR1:
	case FEC_RDAR2:
	case FEC_TDAR:
	case FEC_TDAR1:
	case FEC_TDAR2: {
		bool tx = false;
		int q = dar_ring(off, &tx);

		write_dar(m, off, tx ? &m->tx[q] : &m->rx[q]);
		break;
	}
	case FEC_ECR:
		write_ecr(m, val);
		break;
	case FEC_MMFR:
		fec_model_reg_set(m, off, val);
		/* Without an MDC clock the transaction never completes. */
		if (fec_model_reg(m, FEC_MSCR) != 0)
			fec_model_mdio(m, val);
		break;
	case FEC_MSCR:
		fec_model_reg_set(m, off, val);
		/* The spurious event Linux's CLEAR_SETUP_MII quirk avoids. */
		if (old == 0 && val != 0 && fec_model_reg(m, FEC_MMFR) != 0)
			fec_model_event(m, FEC_EIR_MII);
		break;
	case FEC_MIBC:
		if (val & FEC_MIBC_CLEAR) {
			uint32_t o;

			for (o = FEC_MIB_FIRST; o <= FEC_MIB_LAST; o += 4)
				fec_model_reg_set(m, o, 0);
		}
		fec_model_reg_set(m, off, (val & FEC_MIBC_DIS) | FEC_MIBC_IDLE);
		break;
	case FEC_PAUR:
		fec_model_reg_set(m, off, (val & 0xFFFF0000u) | FEC_PAUR_TYPE);
		break;
	case FEC_TXIC(0):
	case FEC_TXIC(1):
	case FEC_TXIC(2):
	case FEC_RXIC(0):
	case FEC_RXIC(1):
	case FEC_RXIC(2):
		fec_model_coal_write(m, off, val);
		break;
	case FEC_ATCR:
	case FEC_ATVR:
	case FEC_ATPER:
	case FEC_ATCOR:
	case FEC_ATINC:
		fec_model_ptp_write(m, off, val);
		break;
	case FEC_OPD:
		fec_model_reg_set(m, off, (val & 0xFFFFu) | FEC_OPD_RESET_VAL);
		break;
	case FEC_TCR:
		fec_model_reg_set(m, off, val);
		if ((val & FEC_TCR_GTS) && !(old & FEC_TCR_GTS)) {
			if (tx_active(m)) {
				m->gts_pending = true;
			} else {
				fec_model_gra(m);
				m->tx_halted = true;
			}
		}
		if (!(val & FEC_TCR_GTS) && m->tx_halted) {
			/* What the driver took back while halted is its own now. */
			if (m->cfg.check && (fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN)) {
				unsigned int q;

				for (q = 0; q < m->nb_rings; q++)
					fec_model_snapshot(m, &m->tx[q]);
			}
			m->tx_halted = false;
		}
		break;
	case FEC_RDSR:
	case FEC_TDSR:
	case FEC_MRBR:
	case FEC_RDSR1:
	case FEC_TDSR1:
	case FEC_MRBR1:
	case FEC_RDSR2:
	case FEC_TDSR2:
	case FEC_MRBR2: {
		bool mrbr = off == fec_mrbr_off((unsigned int)sr_ring(off));

		if (fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN)
			fec_model_violation(m, "0x%03x written while ETHEREN=1", off);
		if ((unsigned int)sr_ring(off) >= m->nb_rings)
			fec_model_violation(m, "0x%03x: ring %d register on a %u-ring ENET", off,
				sr_ring(off), m->nb_rings);
		if (mrbr && (val & 0xF))
			fec_model_violation(m, "MRBR %u not a multiple of 16", val);
		if (!mrbr && (val & 0x7))
			fec_model_violation(m, "ring base 0x%08x not 8-byte aligned", val);
		fec_model_reg_set(m, off, mrbr ? (val & 0x3FF0u) : val);
		break;
	}
	default:
		if (off >= FEC_MIB_FIRST && off <= FEC_MIB_LAST) {
			/* Counters are writable only while frozen. */
			if (fec_model_reg(m, FEC_MIBC) & FEC_MIBC_DIS)
				fec_model_reg_set(m, off, val);
			break;
		}
		fec_model_reg_set(m, off, val);
		break;
	}
	rte_spinlock_unlock(&m->lock);
}

uint32_t
fec_model_read32(struct fec_model *m, uint32_t off)
{
	return fec_model_reg(m, off & (FEC_REG_SPACE - 4));
}

int
fec_model_step(struct fec_model *m, unsigned int budget)
{
	int n;

	rte_spinlock_lock(&m->lock);
	n = fec_model_step_locked(m, budget);
	rte_spinlock_unlock(&m->lock);
	return n;
}

static void *
fec_model_thread_main(void *arg)
{
	struct fec_model *m = arg;

	while (__atomic_load_n(&m->thread_run, __ATOMIC_ACQUIRE)) {
		if (fec_model_step(m, 64) == 0)
			usleep(20);
	}
	return NULL;
}

int
fec_model_thread_start(struct fec_model *m)
{
	int ret;

	if (m->thread_on)
		return -EBUSY;
	m->thread_run = 1;
	ret = pthread_create(&m->thread, NULL, fec_model_thread_main, m);
	if (ret != 0)
		return -ret;
	m->thread_on = true;
	return 0;
}

void
fec_model_thread_stop(struct fec_model *m)
{
	if (!m->thread_on)
		return;
	__atomic_store_n(&m->thread_run, 0, __ATOMIC_RELEASE);
	pthread_join(m->thread, NULL);
	m->thread_on = false;
}

void
fec_model_mib_preset(struct fec_model *m, uint32_t off, uint32_t val)
{
	rte_spinlock_lock(&m->lock);
	fec_model_reg_set(m, off, val);
	rte_spinlock_unlock(&m->lock);
}

void
fec_model_mib_advance(struct fec_model *m, uint32_t off, uint32_t delta)
{
	rte_spinlock_lock(&m->lock);
	fec_model_reg_set(m, off, fec_model_reg(m, off) + delta);
	rte_spinlock_unlock(&m->lock);
}

unsigned int
fec_model_violations(const struct fec_model *m)
{
	return m->violations;
}

const char *
fec_model_last_violation(const struct fec_model *m)
{
	return m->last_violation;
}

unsigned int
fec_model_write_log(const struct fec_model *m, struct fec_reg_write *out, unsigned int max)
{
	unsigned int cap = RTE_MIN(max, FEC_MODEL_LOG);
	unsigned int n = RTE_MIN(m->nb_log, cap);

	if (out != NULL)
		memcpy(out, m->log, n * sizeof(*out));
	return m->nb_log;
}

void
fec_model_clear_log(struct fec_model *m)
{
	m->nb_log = 0;
}

uint64_t
fec_model_drops(const struct fec_model *m, uint64_t *filtered)
{
	if (filtered != NULL)
		*filtered = m->drops_filtered;
	return m->drops_nodesc;
}

unsigned int
fec_model_nb_rings(const struct fec_model *m)
{
	return m->nb_rings;
}

uint64_t
fec_model_ring_frames(const struct fec_model *m, int tx, unsigned int ring)
{
	if (ring >= m->nb_rings)
		return 0;
	return tx ? m->tx[ring].frames : m->rx[ring].frames;
}

void
fec_model_tx_csum_counts(const struct fec_model *m, uint64_t *ip, uint64_t *l4)
{
	if (ip != NULL)
		*ip = m->tx_csum_ip;
	if (l4 != NULL)
		*l4 = m->tx_csum_l4;
}
