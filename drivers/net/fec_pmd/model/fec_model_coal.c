/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's interrupt coalescing (TXICn/RXICn) and its clock. With ICEN a
 * ring's frame event (TXF/RXF n) is held: the first frame not yet signalled
 * starts a timer, and the event is raised when ICFT frames have completed or
 * ICTT periods of 64 clocks have passed since that first frame, whichever
 * comes first; then counting starts again (**RM?**: the timer's start, per
 * the i.MX8MP RM's "after the first frame"; the clock is the one the model
 * was given, itr_clk_mhz, whatever ICCS says). The buffer events (TXB/RXB)
 * are not held. Writing the register without ICEN raises what is held, so
 * turning coalescing off loses no event. Model time is CLOCK_MONOTONIC plus
 * what a test added (fec_model_time_advance()), or only the latter once a
 * test froze it; the timer is looked at on every step (the thread steps
 * every 20 us when idle).
 */

#include <string.h>
#include <time.h>

#include "fec_model_priv.h"

/* The i.MX8M ENET system clock (ENET_AXI, Linux's clk_ahb) when none is given. */
#define COAL_CLK_MHZ_DEFAULT 266u

static uint64_t
monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t
fec_model_time_ns(const struct fec_model *m)
{
	uint64_t base = __atomic_load_n(&m->time_frozen_ns, __ATOMIC_ACQUIRE);

	return (base != 0 ? base : monotonic_ns()) +
	       __atomic_load_n(&m->time_warp_ns, __ATOMIC_RELAXED);
}

void
fec_model_time_freeze(struct fec_model *m)
{
	__atomic_store_n(&m->time_frozen_ns, monotonic_ns(), __ATOMIC_RELEASE);
}

void
fec_model_time_advance(struct fec_model *m, uint64_t ns)
{
	__atomic_fetch_add(&m->time_warp_ns, ns, __ATOMIC_RELAXED);
}

static uint32_t
ic_reg(bool tx, unsigned int q)
{
	return tx ? FEC_TXIC(q) : FEC_RXIC(q);
}

static uint32_t
frame_bit(bool tx, unsigned int q)
{
	return tx ? fec_eir_txf(q) : fec_eir_rxf(q);
}

/* ICTT periods in ns at the model's coalescing clock. */
static uint64_t
ictt_ns(const struct fec_model *m, uint32_t ic)
{
	unsigned int mhz = m->cfg.itr_clk_mhz != 0 ? m->cfg.itr_clk_mhz : COAL_CLK_MHZ_DEFAULT;

	return (uint64_t)FEC_IC_ICTT_GET(ic) * FEC_IC_TT_CLOCKS * 1000u / mhz;
}

static void
coal_flush(struct fec_model *m, bool tx, unsigned int q)
{
	struct fec_model_coal *c = &m->coal[tx][q];

	if (c->frames == 0)
		return;
	c->frames = 0;
	m->coal_events[tx]++;
	fec_model_event(m, frame_bit(tx, q));
}

void
fec_model_frame_event(struct fec_model *m, bool tx, unsigned int q)
{
	uint32_t ic = fec_model_reg(m, ic_reg(tx, q));
	struct fec_model_coal *c = &m->coal[tx][q];

	if (!(ic & FEC_IC_EN)) {
		fec_model_event(m, frame_bit(tx, q));
		return;
	}
	if (c->frames++ == 0)
		c->first_ns = fec_model_time_ns(m);
	if (c->frames >= FEC_IC_ICFT_GET(ic))
		coal_flush(m, tx, q);
}

void
fec_model_coal_tick(struct fec_model *m)
{
	uint64_t now = 0;
	unsigned int q, tx;

	for (tx = 0; tx < 2; tx++) {
		for (q = 0; q < m->nb_rings; q++) {
			uint32_t ic = fec_model_reg(m, ic_reg(tx, q));
			struct fec_model_coal *c = &m->coal[tx][q];

			if (c->frames == 0 || !(ic & FEC_IC_EN))
				continue;
			if (now == 0)
				now = fec_model_time_ns(m);
			if (now - c->first_ns >= ictt_ns(m, ic))
				coal_flush(m, tx, q);
		}
	}
}

void
fec_model_coal_write(struct fec_model *m, uint32_t off, uint32_t val)
{
	bool tx = off < FEC_RXIC(0);
	unsigned int q = (off - (tx ? FEC_TXIC(0) : FEC_RXIC(0))) / 4;

	if (q >= m->nb_rings) {
		fec_model_violation(
			m, "%sIC%u written on a %u-ring ENET", tx ? "TX" : "RX", q, m->nb_rings);
		return;
	}
	if ((val & FEC_IC_EN) && (FEC_IC_ICFT_GET(val) == 0 || FEC_IC_ICTT_GET(val) == 0))
		fec_model_violation(m,
			"%sIC%u = %#x: coalescing with ICFT or ICTT 0 is unpredictable (RM)",
			tx ? "TX" : "RX", q, val);
	fec_model_reg_set(m, off, val);
	if (!(val & FEC_IC_EN))
		coal_flush(m, tx, q);
}

void
fec_model_coal_reset(struct fec_model *m)
{
	memset(m->coal, 0, sizeof(m->coal));
}

unsigned int
fec_model_coal_events(const struct fec_model *m, bool tx)
{
	return __atomic_load_n(&m->coal_events[tx], __ATOMIC_RELAXED);
}
