/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's IEEE 1588 timer on model time (fec_model_time_ns, which a test
 * can freeze and advance): a counter clocked at FEC_MODEL_PTP_CLK_NS that adds
 * ATINC.INC ns a clock, ATINC.INC_CORR on every ATCOR-th clock instead (the
 * frequency correction Linux's fec_ptp_adjfine programs), wraps at ATPER.
 * ATCR.EN runs it, RESTART zeroes it, CAPTURE latches it into ATVR (reads of
 * ATVR return the latch, as Linux's fec_ptp_read expects); a write to ATVR
 * sets it. The state is the value at the last change and the time of it.
 */

#include "fec_model_priv.h"

/* The timer's clock: 125 MHz, the ENET's usual 1588 reference (clk_ptp). */
#define FEC_MODEL_PTP_CLK_NS 8u

/*
 * Clocks since the last change (whole ones: the base moves by whole clocks,
 * so a change keeps the clock's phase).
 */
static uint64_t
ptp_ticks(const struct fec_model *m, uint64_t now)
{
	if (!(fec_model_reg(m, FEC_ATCR) & FEC_ATCR_EN) || now <= m->ptp_base_ns)
		return 0;
	return (now - m->ptp_base_ns) / FEC_MODEL_PTP_CLK_NS;
}

/* The counter after ticks clocks from the last change. */
static uint32_t
ptp_value(const struct fec_model *m, uint64_t ticks)
{
	uint32_t inc = fec_model_reg(m, FEC_ATINC), cor = fec_model_reg(m, FEC_ATCOR);
	uint32_t per = fec_model_reg(m, FEC_ATPER);
	uint64_t v = m->ptp_val + ticks * (inc & FEC_ATINC_INC_MASK);

	if (cor != 0) {
		/* Every cor-th clock, counted across changes, adds INC_CORR instead. */
		uint64_t ncor = (m->ptp_cphase + ticks) / cor;
		uint32_t corr = (inc & FEC_ATINC_CORR_MASK) >> FEC_ATINC_CORR_SHIFT;

		v = v - ncor * (inc & FEC_ATINC_INC_MASK) + ncor * corr;
	}
	return per != 0 ? (uint32_t)(v % per) : (uint32_t)v;
}

uint32_t
fec_model_ptp_now(struct fec_model *m)
{
	return ptp_value(m, ptp_ticks(m, fec_model_time_ns(m)));
}

void
fec_model_ptp_write(struct fec_model *m, uint32_t off, uint32_t val)
{
	uint64_t now = fec_model_time_ns(m), ticks = ptp_ticks(m, now);
	uint32_t cor = fec_model_reg(m, FEC_ATCOR);

	/* What ran so far at the old settings; the new ones count from here. */
	m->ptp_val = ptp_value(m, ticks);
	m->ptp_cphase = cor != 0 ? (uint32_t)((m->ptp_cphase + ticks) % cor) : 0;
	if (fec_model_reg(m, FEC_ATCR) & FEC_ATCR_EN)
		m->ptp_base_ns += ticks * FEC_MODEL_PTP_CLK_NS;
	else
		m->ptp_base_ns = now;
	switch (off) {
	case FEC_ATCR:
		if (val & FEC_ATCR_RESTART)
			m->ptp_val = 0;
		if (val & FEC_ATCR_CAPTURE)
			fec_model_reg_set(m, FEC_ATVR, m->ptp_val);
		fec_model_reg_set(m, off, val & ~(FEC_ATCR_RESTART | FEC_ATCR_CAPTURE));
		break;
	case FEC_ATVR:
		m->ptp_val = val;
		fec_model_reg_set(m, off, val);
		break;
	default:
		fec_model_reg_set(m, off, val);
		break;
	}
}
