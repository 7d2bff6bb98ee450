/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* The model's uDMA: ring walks, ownership checks, address filter, MIB. */

#include <string.h>

#include <rte_common.h>
#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_byteorder.h>

#include "fec_model_priv.h"

static uint32_t crc_table[256];

/* Table-driven on purpose: the driver computes the same CRC bit by bit. */
static uint32_t
crc32_le(uint32_t crc, const uint8_t *p, size_t len)
{
	size_t i;

	if (crc_table[1] == 0) {
		uint32_t n, k, c;

		for (n = 0; n < 256; n++) {
			c = n;
			for (k = 0; k < 8; k++)
				c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
			crc_table[n] = c;
		}
	}
	for (i = 0; i < len; i++)
		crc = crc_table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
	return crc;
}

static inline bool
is_bcast(const uint8_t *a)
{
	return (a[0] & a[1] & a[2] & a[3] & a[4] & a[5]) == 0xFF;
}

static inline volatile struct fec_bd *
bd_at(struct fec_model *m, uint32_t bus)
{
	return (volatile struct fec_bd *)(m->bd_area + (bus - FEC_MODEL_BD_BUS));
}

static inline volatile struct fec_bd_ex *
bdx_at(struct fec_model *m, uint32_t bus)
{
	return (volatile struct fec_bd_ex *)bd_at(m, bus);
}

static bool
ring_base_ok(struct fec_model *m, uint32_t base, const char *what)
{
	if (base < FEC_MODEL_BD_BUS || base + FEC_BD_SIZE_ENHANCED > FEC_MODEL_BD_BUS + m->bd_len) {
		fec_model_violation(m, "%s 0x%08x outside the descriptor area", what, base);
		return false;
	}
	return true;
}

static const char *const ring_names[2][FEC_MAX_RINGS] = {
	{"RX", "RX1", "RX2"}, {"TX", "TX1", "TX2"}};
static const char *const rdsr_names[2][FEC_MAX_RINGS] = {
	{"RDSR", "RDSR1", "RDSR2"}, {"TDSR", "TDSR1", "TDSR2"}};

static inline const char *
ring_name(const struct fec_model_ring_state *r)
{
	return ring_names[r->tx][r->q];
}

static inline uint32_t
ring_dar(const struct fec_model_ring_state *r)
{
	return r->tx ? fec_tdar_off(r->q) : fec_rdar_off(r->q);
}

static void
ring_init(struct fec_model *m, struct fec_model_ring_state *r, uint32_t base)
{
	const char *what = rdsr_names[r->tx][r->q];
	uint32_t limit, bus;

	r->start = base;
	r->ptr = base;
	r->nb = 0;
	r->idle_race = false;
	/* Rings 1 and 2 are optional: a driver using fewer leaves their start at 0. */
	if (r->q != 0 && base == 0)
		return;
	if (!ring_base_ok(m, base, what))
		return;
	limit = RTE_MIN(base + FEC_RING_SLICE, FEC_MODEL_BD_BUS + (uint32_t)m->bd_len);
	for (bus = base; bus + m->bd_size <= limit; bus += m->bd_size) {
		r->nb++;
		if (rte_le_to_cpu_16(bd_at(m, bus)->sc) & FEC_BD_W)
			return;
	}
	fec_model_violation(
		m, "%s ring at 0x%08x has no wrap bit within %u bytes", what, base, FEC_RING_SLICE);
}

void
fec_model_dma_enable(struct fec_model *m)
{
	unsigned int q;

	m->bd_size = (fec_model_reg(m, FEC_ECR) & FEC_ECR_EN1588) ? FEC_BD_SIZE_ENHANCED
								  : FEC_BD_SIZE_LEGACY;
	memset(m->owned, 0, m->bd_len / 8);
	for (q = 0; q < m->nb_rings; q++) {
		ring_init(m, &m->rx[q], fec_model_reg(m, fec_rdsr_off(q)));
		ring_init(m, &m->tx[q], fec_model_reg(m, fec_tdsr_off(q)));
		if (m->rx[q].nb != 0 && fec_model_reg(m, fec_mrbr_off(q)) == 0)
			fec_model_violation(m, "ETHEREN set with MRBR%.0u=0", q);
	}
}

void
fec_model_dma_disable(struct fec_model *m)
{
	unsigned int q;

	/* Internal pointers go back to the ring starts (QEMU semantics). */
	for (q = 0; q < FEC_MAX_RINGS; q++) {
		fec_model_reg_set(m, fec_rdar_off(q), 0);
		fec_model_reg_set(m, fec_tdar_off(q), 0);
		m->rx[q].ptr = m->rx[q].start;
		m->tx[q].ptr = m->tx[q].start;
		m->tx[q].idle_race = false;
	}
	memset(m->owned, 0, m->bd_len / 8);
	/* A write-back still held (rx_wb_late) never comes: the frame is lost. */
	if (m->wb_n != 0)
		m->drops_fault++;
	m->wb_n = 0;
	/* A BDU still held (rx_bdu_late): the frame stays E clear, BDU 0 (a restart discards it). */
	m->bdu_n = 0;
	/* A TX write-back still held (tx_wb_late): the frame went out, its BDs stay R. */
	m->txwb_n = 0;
	/* A hung uDMA (injected) comes back with the MAC's disable. */
	m->rx_hung = false;
	m->tx_hung = false;
	if (m->gts_pending) {
		m->gts_pending = false;
		fec_model_gra(m);
	}
}

/*
 * Every descriptor the driver handed over is copied; a later difference means
 * the driver wrote a descriptor it no longer owns.
 */
static void
check_bd(struct fec_model *m, const struct fec_model_ring_state *r, uint32_t bus)
{
	uint32_t off = bus - FEC_MODEL_BD_BUS;
	const volatile uint8_t *bd = m->bd_area + off;
	uint8_t cur[FEC_BD_SIZE_ENHANCED];
	unsigned int i;
	uint16_t sc;

	/*
	 * Status first, then the rest, as the uDMA reads a BD: the driver fills a
	 * BD and hands it over with its status word last, so a copy in that order
	 * (in thread mode, beside a driver writing it) is never half old, half new.
	 */
	sc = ((const volatile struct fec_bd *)bd)->sc;
	rte_smp_rmb();
	for (i = 0; i < m->bd_size; i++)
		cur[i] = bd[i];
	memcpy(cur + offsetof(struct fec_bd, sc), &sc, sizeof(sc));
	if (m->owned[off / 8] && m->tx_halted && r->tx) {
		/* After a graceful stop the driver may take TX BDs back (queue stop). */
		m->owned[off / 8] = 0;
	} else if (m->owned[off / 8]) {
		if (memcmp(cur, m->shadow + off, m->bd_size) != 0) {
			fec_model_violation(m,
				"%s BD %u written by the driver while the MAC owns it",
				ring_name(r), (bus - r->start) / m->bd_size);
			memcpy(m->shadow + off, cur, m->bd_size);
		}
		return;
	}
	if (rte_le_to_cpu_16(((const struct fec_bd *)cur)->sc) & FEC_BD_E) {
		m->owned[off / 8] = 1;
		memcpy(m->shadow + off, cur, m->bd_size);
	}
}

void
fec_model_snapshot(struct fec_model *m, struct fec_model_ring_state *r)
{
	uint32_t i;

	for (i = 0; i < r->nb; i++)
		check_bd(m, r, r->start + i * m->bd_size);
}

static void
release_bd(struct fec_model *m, uint32_t bus)
{
	m->owned[(bus - FEC_MODEL_BD_BUS) / 8] = 0;
}

static uint32_t
ring_next(struct fec_model *m, struct fec_model_ring_state *r, uint32_t bus)
{
	if (rte_le_to_cpu_16(bd_at(m, bus)->sc) & FEC_BD_W)
		return r->start;
	bus += m->bd_size;
	if (bus >= r->start + FEC_RING_SLICE || bus + m->bd_size > FEC_MODEL_BD_BUS + m->bd_len) {
		fec_model_violation(
			m, "%s ring ran past its slice: wrap bit missing", ring_name(r));
		return r->start;
	}
	return bus;
}

static void
mib_size(struct fec_model *m, uint32_t first, uint32_t len)
{
	uint32_t bin;

	if (len <= 64)
		bin = 0;
	else if (len <= 127)
		bin = 1;
	else if (len <= 255)
		bin = 2;
	else if (len <= 511)
		bin = 3;
	else if (len <= 1023)
		bin = 4;
	else if (len <= 2047)
		bin = 5;
	else
		bin = 6;
	fec_model_mib_add(m, first + 4 * bin, 1);
}

static void
dma_error(struct fec_model *m)
{
	unsigned int q;

	fec_model_event(m, FEC_EIR_EBERR);
	for (q = 0; q < FEC_MAX_RINGS; q++) {
		fec_model_reg_set(m, fec_rdar_off(q), 0);
		fec_model_reg_set(m, fec_tdar_off(q), 0);
		m->tx[q].idle_race = false;
	}
}

/*
 * Transmit one frame starting at the ring's pointer: 1 when sent, 0 when the
 * BD there is not ready (the ring is empty), -1 when the uDMA stopped on it
 * (a fault, a violation).
 */
static int
tx_one(struct fec_model *m, struct fec_model_ring_state *r)
{
	bool ex = m->bd_size == FEC_BD_SIZE_ENHANCED;
	uint32_t bus = r->ptr, first = bus, nb = 0, len = 0, i, esc0 = 0, ts = 0;
	const struct fec_model_tx_err *err = NULL;
	bool late;
	uint16_t sc = rte_le_to_cpu_16(bd_at(m, bus)->sc);
	bool tc, intr = true;
	const uint8_t *d;

	if (!(sc & FEC_BD_R))
		return 0;
	if (unlikely(m->fault_armed) && fec_model_fault_hit(m, FEC_FAULT_TX_HANG)) {
		/* No write-back, TDAR stays set: hung until ETHEREN goes off. */
		m->tx_hung = true;
		return -1;
	}
	tc = sc & FEC_BD_TC;
	for (;;) {
		volatile struct fec_bd *bd = bd_at(m, bus);
		uint16_t blen = rte_le_to_cpu_16(bd->datlen);
		uint32_t addr = rte_le_to_cpu_32(bd->addr);

		sc = rte_le_to_cpu_16(bd->sc);
		if (!(sc & FEC_BD_R)) {
			fec_model_violation(m, "TX chain without L: BD not ready mid-frame");
			return -1;
		}
		if (m->cfg.check)
			check_bd(m, r, bus);
		d = fec_model_dma_va(m, addr, blen);
		if (blen == 0 || addr == 0 || d == NULL) {
			fec_model_violation(
				m, "TX BD with bad buffer: addr 0x%08x len %u", addr, blen);
			dma_error(m);
			return -1;
		}
		if (len + blen <= FEC_MODEL_FRAME_MAX)
			memcpy(m->txbuf + len, d, blen);
		len += blen;
		nb++;
		if (ex) {
			uint32_t esc = rte_le_to_cpu_32(bdx_at(m, bus)->esc);

			intr = esc & FEC_BD_EX_TX_INT;
			/* Checksum insertion is the frame's: its first BD says (Linux sets all). */
			if (nb == 1)
				esc0 = esc;
		}
		if (sc & FEC_BD_L)
			break;
		bus = ring_next(m, r, bus);
		if (nb > r->nb)
			return -1;
	}
	if (!tc && len >= 4)
		len -= 4; /* software supplied the FCS */
	if (len > FEC_MODEL_FRAME_MAX) {
		/* Beyond the model's buffer: dropped (real hardware would send it). */
		fec_model_event(m, FEC_EIR_BABT);
		len = 0;
	}
	if (len > 0 && unlikely(m->fault_armed)) {
		err = fec_model_tx_fault(m);
		if (err != NULL) {
			fec_model_mib_add(m, err->mib, 1);
			fec_model_event(m, err->eir);
			len = 0; /* not on the wire */
		}
	}
	if (len > 0)
		fec_model_tx_accel(m, m->txbuf, len, esc0);
	if (len > 0 && len < 60) {
		memset(m->txbuf + len, 0, 60 - len);
		len = 60;
	}
	if (len > 0) {
		uint32_t flen = len + 4;
		uint32_t max_fl =
			(fec_model_reg(m, FEC_RCR) & FEC_RCR_MAX_FL_MASK) >> FEC_RCR_MAX_FL_SHIFT;

		/* Babbling transmit: longer than MAX_FL, sent whole all the same (RM). */
		if (max_fl != 0 && flen > max_fl) {
			fec_model_event(m, FEC_EIR_BABT);
			fec_model_mib_add(m, FEC_MIB_OFF_rmon_t_oversize, 1);
		}
		r->frames++;
		fec_model_mib_add(m, FEC_MIB_OFF_rmon_t_packets, 1);
		fec_model_mib_add(m, FEC_MIB_OFF_rmon_t_octets, flen);
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_t_frame_ok, 1);
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_t_octets_ok, flen);
		if (m->txbuf[0] & 1)
			fec_model_mib_add(m,
				is_bcast(m->txbuf) ? FEC_MIB_OFF_rmon_t_bc_pkt
						   : FEC_MIB_OFF_rmon_t_mc_pkt,
				1);
		mib_size(m, FEC_MIB_OFF_rmon_t_p64, flen);
		if (fec_model_reg(m, FEC_RCR) & FEC_RCR_LOOP)
			fec_model_fifo_push(&m->in, m->txbuf, (uint16_t)len);
		else if (m->phy_link)
			fec_model_wire_tx(m, m->txbuf, (uint16_t)len);
	}
	/* ESC.TS (the frame's, from its first BD): the 1588 counter as it left. */
	if (ex && (esc0 & FEC_BD_EX_TX_TS))
		ts = fec_model_ptp_now(m);
	/*
	 * tx_wb_late: the events now, the write-back (R cleared) at the next
	 * step; the ring waits for it (completion stays in ring order).
	 */
	late = unlikely(m->fault_armed) && m->txwb_n == 0 && nb <= FEC_MODEL_WB_MAX &&
	       fec_model_fault_hit(m, FEC_FAULT_TX_WB_LATE);
	/* Write back: R cleared last, W and software bits kept. */
	bus = first;
	for (i = 0; i < nb; i++) {
		volatile struct fec_bd *bd = bd_at(m, bus);

		uint16_t errsc = 0;

		if (ex && (esc0 & FEC_BD_EX_TX_TS))
			bdx_at(m, bus)->ts = rte_cpu_to_le_32(ts);
		if (ex)
			bdx_at(m, bus)->bdu = rte_cpu_to_le_32(FEC_BD_EX_BDU);
		/* The error bits go into the frame's last BD. */
		if (err != NULL && i == nb - 1) {
			errsc = err->sc;
			if (ex)
				bdx_at(m, bus)->esc = rte_cpu_to_le_32(
					rte_le_to_cpu_32(bdx_at(m, bus)->esc) | err->esc);
		}
		if (late) {
			m->txwb_bus[m->txwb_n] = bus;
			m->txwb_sc[m->txwb_n++] = (rte_le_to_cpu_16(bd->sc) & ~FEC_BD_R) | errsc;
		} else {
			release_bd(m, bus);
			rte_io_wmb();
			bd->sc = rte_cpu_to_le_16((rte_le_to_cpu_16(bd->sc) & ~FEC_BD_R) | errsc);
		}
		fec_model_event(m, fec_eir_txb(r->q));
		bus = ring_next(m, r, bus);
	}
	r->ptr = bus;
	if (ex && (esc0 & FEC_BD_EX_TX_TS))
		fec_model_event(m, FEC_EIR_TS_AVAIL);
	if (intr)
		fec_model_frame_event(m, true, r->q);
	return 1;
}

/* Destination filter; returns false to drop, sets BC/MC/M status bits. */
static bool
rx_filter(struct fec_model *m, const uint8_t *dst, uint16_t *st)
{
	uint32_t rcr = fec_model_reg(m, FEC_RCR);
	bool prom = rcr & FEC_RCR_PROM;
	uint32_t hash, reg;

	if (is_bcast(dst)) {
		*st |= FEC_BD_RX_BC;
		return !(rcr & FEC_RCR_BC_REJ) || prom;
	}
	hash = crc32_le(0xFFFFFFFFu, dst, 6) >> 26;
	if (dst[0] & 1) {
		*st |= FEC_BD_RX_MC;
		reg = fec_model_reg(m, hash >= 32 ? FEC_GAUR : FEC_GALR);
	} else {
		uint32_t palr = fec_model_reg(m, FEC_PALR), paur = fec_model_reg(m, FEC_PAUR);

		if (dst[0] == (palr >> 24) && dst[1] == ((palr >> 16) & 0xFF) &&
			dst[2] == ((palr >> 8) & 0xFF) && dst[3] == (palr & 0xFF) &&
			dst[4] == (paur >> 24) && dst[5] == ((paur >> 16) & 0xFF))
			return true;
		reg = fec_model_reg(m, hash >= 32 ? FEC_IAUR : FEC_IALR);
	}
	if (reg & (1u << (hash & 31)))
		return true;
	if (prom) {
		*st |= FEC_BD_RX_M;
		return true;
	}
	return false;
}

static bool
rx_can_accept(struct fec_model *m, const struct fec_model_ring_state *r)
{
	return !m->rx_hung && r->nb != 0 && (fec_model_reg(m, ring_dar(r)) & FEC_DAR_ACTIVE) &&
	       (rte_le_to_cpu_16(bd_at(m, r->ptr)->sc) & FEC_BD_E);
}

/* The cable is read while some ring has room; a frame for a full ring is then dropped. */
static bool
rx_any_accept(struct fec_model *m)
{
	unsigned int q;

	for (q = 0; q < m->nb_rings; q++)
		if (rx_can_accept(m, &m->rx[q]))
			return true;
	return false;
}

/*
 * RX classification (RCMR1/2): a frame with an 802.1Q tag whose PCP equals
 * one of the four compare values of a register with MATCHEN goes to its
 * ring, RCMR1 tried first; everything else to ring 0.
 */
static unsigned int
rx_classify(const struct fec_model *m, const uint8_t *frame, uint16_t len)
{
	unsigned int q, n, pcp;

	if (m->nb_rings == 1 || len < 18 || frame[12] != 0x81 || frame[13] != 0x00)
		return 0;
	pcp = frame[14] >> 5;
	for (q = 1; q < m->nb_rings; q++) {
		uint32_t rcmr = fec_model_reg(m, q == 1 ? FEC_RCMR1 : FEC_RCMR2);

		if (!(rcmr & FEC_RCMR_MATCHEN))
			continue;
		for (n = 0; n < 4; n++)
			if (FEC_RCMR_CMP_GET(rcmr, n) == pcp)
				return q;
	}
	return 0;
}

static void
rx_one(struct fec_model *m, const uint8_t *frame, uint16_t len)
{
	bool ex = m->bd_size == FEC_BD_SIZE_ENHANCED;
	struct fec_model_ring_state *r = &m->rx[rx_classify(m, frame, len)];
	uint32_t rdar = ring_dar(r);
	uint32_t rcr = fec_model_reg(m, FEC_RCR);
	uint32_t max_fl = (rcr & FEC_RCR_MAX_FL_MASK) >> FEC_RCR_MAX_FL_SHIFT;
	uint32_t ftrl = fec_model_reg(m, FEC_FTRL) & 0x3FFF;
	uint32_t mrbr = fec_model_reg(m, fec_mrbr_off(r->q));
	uint32_t shift = (fec_model_reg(m, FEC_RACC) & FEC_RACC_SHIFT16) ? 2 : 0;
	uint32_t flen = len + 4u, total, done, nbd, i, bus, fcs;
	uint8_t data[FEC_MODEL_FRAME_MAX + 8];
	uint32_t esc_err = 0;
	uint16_t st = 0;
	bool intr = true, zero_len, crc_only, late, bdu_late;

	if (!(fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN) || len < 14)
		return;
	if (!rx_filter(m, frame, &st)) {
		m->drops_filtered++;
		return;
	}
	fec_model_mib_add(m, FEC_MIB_OFF_rmon_r_packets, 1);
	fec_model_mib_add(m, FEC_MIB_OFF_rmon_r_octets, flen);
	mib_size(m, FEC_MIB_OFF_rmon_r_p64, flen);
	if (st & FEC_BD_RX_BC)
		fec_model_mib_add(m, FEC_MIB_OFF_rmon_r_bc_pkt, 1);
	if (st & FEC_BD_RX_MC)
		fec_model_mib_add(m, FEC_MIB_OFF_rmon_r_mc_pkt, 1);
	if (r->nb == 0 && r->q != 0)
		fec_model_violation(m, "RCMR%u sends a frame to ring %u, which has no RDSR%u", r->q,
			r->q, r->q);
	if (!rx_can_accept(m, r) || mrbr == 0) {
		/* No empty descriptor: the frame overflows the FIFO. */
		m->drops_nodesc++;
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_macerr, 1);
		/* Hung, the uDMA does not even see the ring: RDAR stays set. */
		if (!m->rx_hung)
			fec_model_reg_set(m, rdar, 0);
		return;
	}
	memset(data, 0, shift);
	memcpy(data + shift, frame, len);
	fcs = ~crc32_le(0xFFFFFFFFu, frame, len);
	data[shift + len] = fcs & 0xFF;
	data[shift + len + 1] = (fcs >> 8) & 0xFF;
	data[shift + len + 2] = (fcs >> 16) & 0xFF;
	data[shift + len + 3] = fcs >> 24;
	if (max_fl != 0 && flen > max_fl) {
		/* Babbling receive: LG in the BD and the BABR event. */
		st |= FEC_BD_RX_LG;
		fec_model_mib_add(m, FEC_MIB_OFF_rmon_r_oversize, 1);
		fec_model_event(m, FEC_EIR_BABR);
	}
	if (flen > ftrl) {
		st |= FEC_BD_RX_TR | FEC_BD_RX_LG;
		flen = ftrl;
	}
	total = flen + shift;
	nbd = (total + mrbr - 1) / mrbr;
	bus = r->ptr;
	for (i = 0; i < nbd; i++) {
		if (!(rte_le_to_cpu_16(bd_at(m, bus)->sc) & FEC_BD_E)) {
			m->drops_nodesc++;
			fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_macerr, 1);
			fec_model_reg_set(m, rdar, 0);
			return;
		}
		bus = ring_next(m, r, bus);
	}
	if (unlikely(m->fault_armed) && fec_model_rx_fault(m, rdar, &st, &esc_err))
		return;
	/* An ESC error is a frame the RM calls invalid: not a good frame (RM?). */
	if (!ex)
		esc_err = 0;
	/* A write-back with E clear but no length: the MAC counted a good frame. */
	zero_len = unlikely(m->fault_armed) && fec_model_fault_hit(m, FEC_FAULT_RX_ZERO_LEN);
	/* The same with the FCS's (and SHIFT16's) bytes only: no data, length 0 after the trim. */
	crc_only = unlikely(m->fault_armed) && fec_model_fault_hit(m, FEC_FAULT_RX_CRC_ONLY);
	/* The events before the write-back: E is cleared at the next step. */
	late = unlikely(m->fault_armed) && m->wb_n == 0 && nbd <= FEC_MODEL_WB_MAX &&
	       fec_model_fault_hit(m, FEC_FAULT_RX_WB_LATE);
	/* The status written back (E clear) before BDU and ESC: they come at the next step. */
	bdu_late = unlikely(m->fault_armed) && ex && !late && m->bdu_n == 0 &&
		   nbd <= FEC_MODEL_WB_MAX && fec_model_fault_hit(m, FEC_FAULT_RX_BDU_LATE);
	if (st & FEC_BD_RX_CR) {
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_crc, 1);
		fec_model_mib_add(m, FEC_MIB_OFF_rmon_r_crc_align, 1);
	}
	if (st & FEC_BD_RX_NO)
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_align, 1);
	/* Only a frame without an error (nor a missing L) is a good one. */
	if (!(st & (FEC_BD_RX_ERRORS & ~FEC_BD_L)) && !(st & FEC_BD_L) && esc_err == 0) {
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_frame_ok, 1);
		fec_model_mib_add(m, FEC_MIB_OFF_ieee_r_octets_ok, flen);
	}
	bus = r->ptr;
	for (done = 0, i = 0; i < nbd; i++) {
		volatile struct fec_bd *bd = bd_at(m, bus);
		uint32_t addr = rte_le_to_cpu_32(bd->addr);
		uint32_t chunk = RTE_MIN(mrbr, total - done);
		uint16_t sc = rte_le_to_cpu_16(bd->sc);
		bool last = i == nbd - 1;
		void *va;

		if (m->cfg.check)
			check_bd(m, r, bus);
		va = fec_model_dma_va(m, addr, mrbr);
		if (addr == 0 || va == NULL) {
			fec_model_violation(
				m, "RX BD with bad buffer: addr 0x%08x (MRBR %u)", addr, mrbr);
			dma_error(m);
			return;
		}
		memcpy(va, data + done, chunk);
		done += chunk;
		bd->datlen = rte_cpu_to_le_16(zero_len ? 0
					      : last   ? (crc_only ? shift + 4u : total)
						       : mrbr);
		if (ex) {
			volatile struct fec_bd_ex *bx = bdx_at(m, bus);
			uint32_t esc = rte_le_to_cpu_32(bx->esc);

			intr = esc & FEC_BD_EX_RX_INT;
			esc &= FEC_BD_EX_RX_INT;
			if (!(frame[0] & 1))
				esc |= FEC_BD_EX_RX_UC;
			if (last) {
				uint32_t prot;

				esc |= fec_model_rx_accel(frame, len, &prot) | esc_err;
				bx->prot = rte_cpu_to_le_32(prot);
			}
			/* The 1588 counter as the frame came in (fec_model_ptp.c). */
			bx->ts = rte_cpu_to_le_32(fec_model_ptp_now(m));
			if (bdu_late) {
				/*
				 * ESC and BDU keep what the driver left, until the next
				 * step: the uDMA only ever sets BDU, the driver clears it
				 * on recycle, so a BD given back with BDU still set reads
				 * as written back here.
				 */
				m->bdu_bus[m->bdu_n] = bus;
				m->bdu_esc[m->bdu_n++] = esc;
			} else {
				bx->esc = rte_cpu_to_le_32(esc);
				bx->bdu = rte_cpu_to_le_32(FEC_BD_EX_BDU);
			}
		}
		/* st holds L only when a fault removes it, hence XOR. */
		sc = (sc & (FEC_BD_W | 0x5000u)) | (last ? (FEC_BD_L ^ st) : 0);
		if (late) {
			/* Still the MAC's: the checker's copy takes what the MAC wrote so far. */
			memcpy(m->shadow + (bus - FEC_MODEL_BD_BUS),
				(const void *)(m->bd_area + (bus - FEC_MODEL_BD_BUS)), m->bd_size);
			m->wb_bus[m->wb_n] = bus;
			m->wb_sc[m->wb_n++] = sc;
		} else {
			release_bd(m, bus);
			rte_io_wmb();
			bd->sc = rte_cpu_to_le_16(sc);
		}
		fec_model_event(m, fec_eir_rxb(r->q));
		bus = ring_next(m, r, bus);
	}
	r->ptr = bus;
	r->frames++;
	if (intr)
		fec_model_frame_event(m, false, r->q);
	if (!(rte_le_to_cpu_16(bd_at(m, bus)->sc) & FEC_BD_E))
		fec_model_reg_set(m, rdar, 0);
}

/*
 * The TX ring served next: strict priority, ring 2 over ring 1 over ring 0
 * (the AVB classes above best effort), one frame per pick. DMA_CFGn's
 * IDLE_SLOPE credit shaper is not modelled.
 */
static struct fec_model_ring_state *
tx_pick(struct fec_model *m)
{
	unsigned int q;

	for (q = m->nb_rings; q-- > 0;)
		if ((fec_model_reg(m, fec_tdar_off(q)) & FEC_DAR_ACTIVE) || m->tx[q].idle_race)
			return &m->tx[q];
	return NULL;
}

/*
 * rx_bdu_late: the BDU and ESC words held since the last step arrive now. The
 * BD is the driver's since its E was cleared; a driver that waits for BDU has
 * not given it back yet (E still clear). One given back already was taken
 * half written: a violation (and the late words are not written over it).
 */
static void
rx_bdu_apply(struct fec_model *m)
{
	unsigned int i;

	for (i = 0; i < m->bdu_n; i++) {
		volatile struct fec_bd_ex *bx = bdx_at(m, m->bdu_bus[i]);

		if (rte_le_to_cpu_16(bx->bd.sc) & FEC_BD_E) {
			fec_model_violation(m, "RX BD 0x%08x taken before its write-back (BDU 0)",
				m->bdu_bus[i]);
			continue;
		}
		bx->esc = rte_cpu_to_le_32(m->bdu_esc[i]);
		rte_io_wmb();
		bx->bdu = rte_cpu_to_le_32(FEC_BD_EX_BDU);
	}
	m->bdu_n = 0;
}

/* tx_wb_late: the TX write-backs held since the last step arrive now. */
static void
tx_wb_apply(struct fec_model *m)
{
	unsigned int i;

	for (i = 0; i < m->txwb_n; i++) {
		release_bd(m, m->txwb_bus[i]);
		rte_io_wmb();
		bd_at(m, m->txwb_bus[i])->sc = rte_cpu_to_le_16(m->txwb_sc[i]);
	}
	m->txwb_n = 0;
}

/* rx_wb_late: the status write-backs held since the last step arrive now. */
static unsigned int
rx_wb_apply(struct fec_model *m)
{
	unsigned int i, n = m->wb_n;

	for (i = 0; i < n; i++) {
		release_bd(m, m->wb_bus[i]);
		rte_io_wmb();
		bd_at(m, m->wb_bus[i])->sc = rte_cpu_to_le_16(m->wb_sc[i]);
	}
	m->wb_n = 0;
	return n != 0;
}

int
fec_model_step_locked(struct fec_model *m, unsigned int budget)
{
	struct fec_model_frame tmp;
	struct fec_model_ring_state *r;
	unsigned int ntx = 0, nrx = 0, q;

	fec_model_coal_tick(m);
	if (!(fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN))
		return 0;
	nrx = rx_wb_apply(m);
	if (m->bdu_n != 0)
		rx_bdu_apply(m);
	if (m->txwb_n != 0)
		tx_wb_apply(m);
	if (m->cfg.check) {
		for (q = 0; q < m->nb_rings; q++) {
			fec_model_snapshot(m, &m->rx[q]);
			fec_model_snapshot(m, &m->tx[q]);
		}
	}
	while (ntx < budget && !m->tx_hold && !m->tx_hung && m->txwb_n == 0 &&
		!(fec_model_reg(m, FEC_TCR) & FEC_TCR_GTS && !m->gts_pending) &&
		(r = tx_pick(m)) != NULL) {
		int sent = tx_one(m, r);

		if (sent == 0 && fec_model_tx_idle(m, r))
			continue; /* a BD came as TDAR went clear: served on */
		if (sent <= 0) {
			/* Empty (idle now), or stopped on an error: the next ring. */
			if (sent < 0 && !m->tx_hung) {
				fec_model_reg_set(m, ring_dar(r), 0);
				r->idle_race = false;
			}
			if (!(fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN))
				break;
			continue;
		}
		ntx++;
		if (m->gts_pending)
			break;
	}
	/* Graceful stop completes once the frame in flight is out. */
	if (m->gts_pending) {
		m->gts_pending = false;
		m->tx_halted = true;
		fec_model_gra(m);
	}
	while (nrx < budget) {
		struct fec_model_frame *f = fec_model_fifo_peek(&m->in);
		const struct fec_model_frame *w;

		/* A fault disabled the MAC mid-step: the rest waits on the cable. */
		if (!(fec_model_reg(m, FEC_ECR) & FEC_ECR_ETHEREN))
			break;

		if (f != NULL) {
			rx_one(m, f->data, f->len);
			fec_model_fifo_pop(&m->in);
		} else if (rx_any_accept(m) && (w = fec_model_wire_rx(m, &tmp)) != NULL) {
			rx_one(m, w->data, w->len);
			fec_model_wire_rx_done(m);
		} else {
			break;
		}
		nrx++;
	}
	fec_model_wire_flush(m);
	return (int)(ntx + nrx);
}
