/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* The model's edges: frame FIFOs, wire backends, MDIO and the PHY. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "fec_model_priv.h"

int
fec_model_fifo_init(struct fec_model_fifo *f)
{
	f->slot = calloc(FEC_MODEL_FIFO, sizeof(*f->slot));
	f->head = 0;
	f->tail = 0;
	return f->slot == NULL ? -ENOMEM : 0;
}

void
fec_model_fifo_free(struct fec_model_fifo *f)
{
	free(f->slot);
	f->slot = NULL;
}

struct fec_model_frame *
fec_model_fifo_peek(struct fec_model_fifo *f)
{
	if (f->head == f->tail)
		return NULL;
	return &f->slot[f->tail % FEC_MODEL_FIFO];
}

void
fec_model_fifo_pop(struct fec_model_fifo *f)
{
	f->tail++;
}

int
fec_model_fifo_push(struct fec_model_fifo *f, const void *data, uint16_t len)
{
	struct fec_model_frame *s;

	if (f->head - f->tail == FEC_MODEL_FIFO)
		return -ENOSPC;
	s = &f->slot[f->head % FEC_MODEL_FIFO];
	memcpy(s->data, data, len);
	s->len = len;
	f->head++;
	return 0;
}

int
fec_model_rx_frame(struct fec_model *m, const void *frame, uint16_t len)
{
	int ret;

	if (len < 14 || len > FEC_MODEL_FRAME_MAX)
		return -EINVAL;
	rte_spinlock_lock(&m->lock);
	ret = fec_model_fifo_push(&m->in, frame, len);
	rte_spinlock_unlock(&m->lock);
	return ret;
}

int
fec_model_tx_frame(struct fec_model *m, void *buf, uint16_t size)
{
	struct fec_model_frame *f;
	int len;

	rte_spinlock_lock(&m->lock);
	f = fec_model_fifo_peek(&m->out);
	if (f == NULL) {
		rte_spinlock_unlock(&m->lock);
		return -ENOENT;
	}
	len = f->len;
	memcpy(buf, f->data, RTE_MIN((uint16_t)len, size));
	fec_model_fifo_pop(&m->out);
	rte_spinlock_unlock(&m->lock);
	return len;
}

void
fec_model_set_wire_loop(struct fec_model *m, int on)
{
	rte_spinlock_lock(&m->lock);
	m->wire = on ? FEC_WIRE_LOOP : FEC_WIRE_SCRIPT;
	rte_spinlock_unlock(&m->lock);
}

static struct rte_ring *
ring_get(const char *prefix, const char *suffix)
{
	char name[RTE_RING_NAMESIZE];
	struct rte_ring *r;

	if (snprintf(name, sizeof(name), "%s_%s", prefix, suffix) >= (int)sizeof(name))
		return NULL;
	r = rte_ring_lookup(name);
	if (r == NULL)
		r = rte_ring_create(name, 1024, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	return r;
}

int
fec_model_set_wire_ring(struct fec_model *m, const char *name)
{
	char pname[RTE_MEMPOOL_NAMESIZE];
	struct rte_ring *rx, *tx;
	struct rte_mempool *mp;

	rx = ring_get(name, "rx");
	tx = ring_get(name, "tx");
	if (rx == NULL || tx == NULL)
		return -ENOMEM;
	snprintf(pname, sizeof(pname), "fecw_%s", name);
	mp = rte_mempool_lookup(pname);
	if (mp == NULL)
		mp = rte_pktmbuf_pool_create(pname, 2047, 0, 0,
			RTE_PKTMBUF_HEADROOM + FEC_MODEL_FRAME_MAX, SOCKET_ID_ANY);
	if (mp == NULL)
		return -ENOMEM;
	/* The far port may hand these mbufs back to our driver for TX. */
	if (fec_model_map_mempool(m, mp) < 0)
		return -ENOSPC;
	rte_spinlock_lock(&m->lock);
	m->ring_rx = rx;
	m->ring_tx = tx;
	m->wire_pool = mp;
	m->wire = FEC_WIRE_RING;
	rte_spinlock_unlock(&m->lock);
	return 0;
}

static void
wire_pcap_close(struct fec_model *m)
{
	if (m->pcap_out != NULL)
		pcap_dump_close(m->pcap_out);
	if (m->pcap_dead != NULL)
		pcap_close(m->pcap_dead);
	if (m->pcap_in != NULL)
		pcap_close(m->pcap_in);
	m->pcap_out = NULL;
	m->pcap_dead = NULL;
	m->pcap_in = NULL;
	m->pcap_unflushed = false;
	m->pcap_follow = false;
}

int
fec_model_set_wire_pcap(struct fec_model *m, const char *in, const char *out)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *pin = NULL, *dead = NULL;
	pcap_dumper_t *pout = NULL;

	if (in != NULL && in[0] == '\0')
		in = NULL;
	if (out != NULL && out[0] == '\0')
		out = NULL;
	if (in == NULL && out == NULL)
		return -EINVAL;
	if (in != NULL) {
		pin = pcap_open_offline(in, err);
		if (pin == NULL)
			return -EIO;
		if (pcap_datalink(pin) != DLT_EN10MB) {
			pcap_close(pin);
			return -EINVAL;
		}
	}
	if (out != NULL) {
		dead = pcap_open_dead(DLT_EN10MB, FEC_MODEL_FRAME_MAX);
		pout = dead != NULL ? pcap_dump_open(dead, out) : NULL;
		if (pout == NULL) {
			if (dead != NULL)
				pcap_close(dead);
			if (pin != NULL)
				pcap_close(pin);
			return -EIO;
		}
	}
	rte_spinlock_lock(&m->lock);
	wire_pcap_close(m);
	m->pcap_in = pin;
	m->pcap_dead = dead;
	m->pcap_out = pout;
	m->wire = FEC_WIRE_PCAP;
	rte_spinlock_unlock(&m->lock);
	return 0;
}

void
fec_model_set_wire_pcap_follow(struct fec_model *m, int on)
{
	rte_spinlock_lock(&m->lock);
	m->pcap_follow = on != 0;
	rte_spinlock_unlock(&m->lock);
}

/* Called at the end of a step: the file is complete whenever the MAC is idle. */
void
fec_model_wire_flush(struct fec_model *m)
{
	if (!m->pcap_unflushed)
		return;
	pcap_dump_flush(m->pcap_out);
	m->pcap_unflushed = false;
}

uint64_t
fec_model_wire_frames(const struct fec_model *m, uint64_t *out)
{
	if (out != NULL)
		*out = m->wire_out;
	return m->wire_in;
}

void
fec_model_wire_free(struct fec_model *m)
{
	struct rte_mbuf *mb;

	if (m->ring_rx != NULL)
		while (rte_ring_dequeue(m->ring_rx, (void **)&mb) == 0)
			rte_pktmbuf_free(mb);
	m->ring_rx = NULL;
	m->ring_tx = NULL;
	wire_pcap_close(m);
}

static void
wire_pcap_tx(struct fec_model *m, const uint8_t *frame, uint16_t len)
{
	struct pcap_pkthdr h;

	if (m->pcap_out == NULL)
		return;
	gettimeofday(&h.ts, NULL);
	h.caplen = len;
	h.len = len;
	pcap_dump((u_char *)m->pcap_out, &h, frame);
	m->pcap_unflushed = true;
}

void
fec_model_wire_tx(struct fec_model *m, const uint8_t *frame, uint16_t len)
{
	struct rte_mbuf *mb;

	switch (m->wire) {
	case FEC_WIRE_LOOP:
		if (fec_model_fifo_push(&m->in, frame, len) < 0)
			m->drops_wire++;
		break;
	case FEC_WIRE_RING:
		mb = rte_pktmbuf_alloc(m->wire_pool);
		if (mb == NULL) {
			m->drops_wire++;
			break;
		}
		memcpy(rte_pktmbuf_mtod(mb, void *), frame, len);
		mb->data_len = len;
		mb->pkt_len = len;
		if (rte_ring_enqueue(m->ring_tx, mb) < 0) {
			rte_pktmbuf_free(mb);
			m->drops_wire++;
		} else {
			m->wire_out++;
		}
		break;
	case FEC_WIRE_PCAP:
		wire_pcap_tx(m, frame, len);
		m->wire_out++;
		break;
	default:
		if (fec_model_fifo_push(&m->out, frame, len) < 0)
			m->drops_wire++;
		break;
	}
}

/* Next frame of the input file (runts skipped), or NULL at its end. */
static const struct fec_model_frame *
wire_pcap_rx(struct fec_model *m, struct fec_model_frame *tmp)
{
	struct pcap_pkthdr *h;
	const u_char *data;

	if (m->pcap_in == NULL)
		return NULL;
	for (;;) {
		FILE *f = pcap_file(m->pcap_in);
		long pos = f != NULL ? ftell(f) : -1;

		if (pcap_next_ex(m->pcap_in, &h, &data) == 1) {
			if (h->caplen >= 14)
				break;
			continue;
		}
		/*
		 * Following: the end for now, or a record the writer has not
		 * finished. Back to its start (which also clears the end-of-file
		 * flag), to be read again at the next step.
		 */
		if (m->pcap_follow && pos >= 0 && fseek(f, pos, SEEK_SET) == 0)
			return NULL;
		/* End of file (or a damaged one): the cable falls silent. */
		pcap_close(m->pcap_in);
		m->pcap_in = NULL;
		return NULL;
	}
	tmp->len = (uint16_t)RTE_MIN(h->caplen, FEC_MODEL_FRAME_MAX);
	memcpy(tmp->data, data, tmp->len);
	m->wire_in++;
	return tmp;
}

const struct fec_model_frame *
fec_model_wire_rx(struct fec_model *m, struct fec_model_frame *tmp)
{
	struct rte_mbuf *mb;
	const void *p;

	if (m->wire == FEC_WIRE_PCAP)
		return wire_pcap_rx(m, tmp);
	if (m->wire != FEC_WIRE_RING || rte_ring_dequeue(m->ring_rx, (void **)&mb) < 0)
		return NULL;
	tmp->len = (uint16_t)RTE_MIN(rte_pktmbuf_pkt_len(mb), FEC_MODEL_FRAME_MAX);
	p = rte_pktmbuf_read(mb, 0, tmp->len, tmp->data);
	if (p != NULL && p != (const void *)tmp->data)
		memcpy(tmp->data, p, tmp->len);
	rte_pktmbuf_free(mb);
	m->wire_in++;
	return tmp;
}

void
fec_model_wire_rx_done(struct fec_model *m)
{
	RTE_SET_USED(m);
}

/* A clause-22 gigabit PHY (AR8031 identifiers), autonegotiating. */
void
fec_model_phy_reset(struct fec_model *m)
{
	memset(m->phy, 0, sizeof(m->phy));
	m->phy_lp_pause = 0;
	m->phy_an_restarts = 0;
	m->phy[FEC_PHY_BMCR] = 0x1140;
	m->phy[FEC_PHY_ID1] = 0x004D;
	m->phy[FEC_PHY_ID2] = 0xD074;
	m->phy[FEC_PHY_ANAR] = 0x01E1;
	m->phy[FEC_PHY_CTRL1000] = FEC_ADV_1000FD;
	fec_model_phy_set_link(m, 1, 1000, 1);
}

void
fec_model_phy_set_link(struct fec_model *m, int up, unsigned int speed, int full_duplex)
{
	uint16_t lpa = 0x0001, lpa1000 = 0;

	m->phy_link = up;
	m->phy[FEC_PHY_BMSR] = 0x7949 | (up ? FEC_BMSR_LINK | FEC_BMSR_ANEG_OK : 0);
	if (speed == 1000)
		lpa1000 = full_duplex ? 0x0800 : 0x0400;
	else if (speed == 100)
		lpa |= full_duplex ? FEC_ADV_100FD : FEC_ADV_100HD;
	else
		lpa |= full_duplex ? FEC_ADV_10FD : FEC_ADV_10HD;
	m->phy[FEC_PHY_ANLPAR] = up ? lpa | m->phy_lp_pause : 0;
	m->phy[FEC_PHY_STAT1000] = up ? lpa1000 : 0;
}

void
fec_model_phy_set_partner_pause(struct fec_model *m, int pause, int asym_pause)
{
	m->phy_lp_pause = (uint16_t)((pause ? FEC_ADV_PAUSE : 0) | (asym_pause ? FEC_ADV_ASYM : 0));
	if (m->phy_link)
		m->phy[FEC_PHY_ANLPAR] =
			(uint16_t)((m->phy[FEC_PHY_ANLPAR] & ~(FEC_ADV_PAUSE | FEC_ADV_ASYM)) |
				   m->phy_lp_pause);
}

uint16_t
fec_model_phy_read(const struct fec_model *m, unsigned int reg)
{
	return reg < RTE_DIM(m->phy) ? m->phy[reg] : 0xFFFF;
}

uint32_t
fec_model_phy_an_restarts(const struct fec_model *m)
{
	return m->phy_an_restarts;
}

void
fec_model_mdio(struct fec_model *m, uint32_t mmfr)
{
	unsigned int st = mmfr >> 30, op = (mmfr >> 28) & 3;
	unsigned int pa = (mmfr >> 23) & 31, ra = (mmfr >> 18) & 31;
	uint16_t data = 0xFFFF;

	/* The management frame goes nowhere: no data, no MII event. */
	if (fec_model_fault_hit(m, FEC_FAULT_MDIO_TIMEOUT))
		return;
	if (st == 1 && pa == m->cfg.phy_addr) {
		if (op == 1) {
			if (ra == FEC_PHY_BMCR) {
				/* Autonegotiation completes at once, with the same partner. */
				m->phy_an_restarts += (mmfr & FEC_BMCR_ANRST) != 0;
				m->phy[ra] = (mmfr & 0xFFFF) & ~0x8200u; /* reset, restart AN */
			} else if (ra == FEC_PHY_ANAR || ra == FEC_PHY_CTRL1000)
				m->phy[ra] = mmfr & 0xFFFF;
		} else if (op == 2) {
			data = m->phy[ra];
		}
	}
	if (op == 2)
		fec_model_reg_set(m, FEC_MMFR, (mmfr & 0xFFFF0000u) | data);
	fec_model_event(m, FEC_EIR_MII);
}

void
fec_model_tx_hold(struct fec_model *m, int on)
{
	rte_spinlock_lock(&m->lock);
	m->tx_hold = on != 0;
	rte_spinlock_unlock(&m->lock);
}
