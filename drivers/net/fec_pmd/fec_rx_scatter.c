/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Fast path: scattered RX. The MAC writes a frame longer than MRBR over
 * several BDs: datlen MRBR on each but the last, which has L and the whole
 * frame's length (FCS and SHIFT16 included). Each BD's mbuf becomes a
 * segment; a chain that breaks (a BD without L whose length is not MRBR: the
 * L of the previous frame went missing, or a frame longer than FTRL allows)
 * is dropped, counted, its segments freed. A separate burst from fec_rxtx.c's,
 * chosen at dev_start, so that the single-BD loop stays as it is.
 *
 * Control, at the end: whether dev_start picks fec_rx_burst_scatter, and the
 * configurations refused without it (a frame of the MTU longer than the
 * smallest RX buffer), as other PMDs refuse them.
 */

#include <errno.h>
#include <stddef.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "fec_rx.h"

void
fec_rx_sg_drop(struct fec_rxq *rxq)
{
	if (rxq->sg_first != NULL)
		rte_pktmbuf_free(rxq->sg_first);
	rxq->sg_first = NULL;
	rxq->sg_last = NULL;
}

/* The chain so far is dropped for its last BD's reason (fec_rx_error). */
static __rte_noinline void
sg_error(struct fec_rxq *rxq, const volatile struct fec_bd *bd, uint16_t sc, bool ex)
{
	fec_rx_sg_drop(rxq);
	fec_rx_error(rxq, bd, sc, ex);
}

/*
 * The last segment came: drop the FCS (which may lie partly or wholly in the
 * segment before, when the last BD holds 4 bytes or fewer) and finish the
 * frame's header fields. The complete frame, or NULL if nothing is left.
 */
static struct rte_mbuf *
sg_finish(struct fec_rxq *rxq, uint32_t frame_len)
{
	struct rte_mbuf *first = rxq->sg_first, *last = rxq->sg_last, *m;
	uint32_t fcs = RTE_ETHER_CRC_LEN;

	rxq->sg_first = NULL;
	rxq->sg_last = NULL;
	if (last->data_len <= fcs && first != last) {
		fcs -= last->data_len;
		for (m = first; m->next != last; m = m->next)
			;
		rte_pktmbuf_free_seg(last);
		m->next = NULL;
		first->nb_segs--;
		last = m;
	}
	last->data_len = (uint16_t)(last->data_len - fcs);
	first->pkt_len = frame_len;
	return first;
}

/* A BD back to the MAC, software bits reset; the index of the next one. */
static inline unsigned int
sg_recycle(volatile struct fec_bd *bd, bool ex, uint16_t sc, unsigned int cur)
{
	if (ex) {
		/* 32-bit stores only (UIO maps the BDs as Device memory). */
		volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

		bx->esc = rte_cpu_to_le_32(FEC_BD_EX_RX_INT);
		bx->prot = 0;
		bx->bdu = 0;
	}
	rte_io_wmb();
	bd->sc = rte_cpu_to_le_16((sc & FEC_BD_W) | FEC_BD_E);
	return (sc & FEC_BD_W) ? 0 : cur + 1;
}

uint16_t
fec_rx_burst_scatter(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct fec_rxq *rxq = q;
	const bool ex = rxq->ex, desc = ex && rxq->desc;
	const uint32_t buf_len = rxq->buf_len, trim = rxq->trim;
	const uint16_t shift16 = (uint16_t)(rxq->data_off - RTE_PKTMBUF_HEADROOM);
	unsigned int cur = rxq->cur, nb = 0, stash_n = rxq->stash_n, taken = 0;
	uint64_t bytes = 0;

	if (unlikely(!fec_q_enter(&rxq->sync))) {
		fec_q_leave(&rxq->sync);
		return 0;
	}
	while (nb < n) {
		volatile struct fec_bd *bd =
			(volatile struct fec_bd *)(rxq->bd + ((uint32_t)cur << rxq->bd_shift));
		uint16_t sc = rte_le_to_cpu_16(bd->sc);
		struct rte_mbuf *m, *nm;
		uint32_t dlen, have, seg;

		if (sc & FEC_BD_E)
			break;
		rte_io_rmb();
		/* A write-back in progress (BDU not set yet): not ours yet (fec_rx_burst). */
		if (ex && !(((const volatile struct fec_bd_ex *)bd)->bdu &
				  rte_cpu_to_le_32(FEC_BD_EX_BDU)))
			break;
		dlen = rte_le_to_cpu_16(bd->datlen);
		/* Bytes of the frame (SHIFT16 included) in the segments before this BD. */
		have = rxq->sg_first == NULL ? 0 : rxq->sg_first->pkt_len + shift16;
		taken++;
		if (!(sc & FEC_BD_L)) {
			/* Not the last: a full buffer, and the frame within FTRL. */
			if (unlikely(dlen != buf_len || have + dlen >= FEC_MAX_FRAME + shift16)) {
				sg_error(rxq, bd, 0, false); /* rx_err_no_last */
				cur = sg_recycle(bd, ex, sc, cur);
				continue;
			}
			seg = dlen;
		} else if (unlikely((sc & FEC_BD_RX_ERRORS & ~FEC_BD_L) ||
				    dlen <= RTE_MAX(have, trim) || dlen > have + buf_len ||
				    (ex && (((const volatile struct fec_bd_ex *)bd)->esc &
						   rte_cpu_to_le_32(FEC_BD_EX_RX_ERRORS))))) {
			/* the status word's errors, a bad length, the ESC's ME/PE/CE */
			sg_error(rxq, bd, sc, ex);
			cur = sg_recycle(bd, ex, sc, cur);
			continue;
		} else {
			seg = dlen - have;
		}
		if (unlikely(stash_n == 0)) {
			stash_n = fec_rx_stash_refill(rxq);
			if (stash_n == 0) {
				/* This BD waits with its buffer; the chain so far stays. */
				taken--;
				rte_eth_devices[rxq->port_id].data->rx_mbuf_alloc_failed++;
				break;
			}
		}
		nm = rxq->stash[--stash_n];
		m = rxq->sw_ring[cur];
		rxq->sw_ring[cur] = nm;
		bd->addr = rte_cpu_to_le_32((uint32_t)(nm->buf_iova + RTE_PKTMBUF_HEADROOM));
		*(uint64_t *)((char *)m + offsetof(struct rte_mbuf, rearm_data)) = rxq->mbuf_init;
		m->ol_flags = 0;
		m->next = NULL;
		m->vlan_tci = 0;
		if (rxq->sg_first == NULL) {
			/* SHIFT16's two bytes lead the first buffer only. */
			m->data_len = (uint16_t)(seg - shift16);
			m->pkt_len = m->data_len;
			m->packet_type = RTE_PTYPE_L2_ETHER;
			rxq->sg_first = m;
		} else {
			m->data_off = RTE_PKTMBUF_HEADROOM;
			m->data_len = (uint16_t)seg;
			rxq->sg_last->next = m;
			rxq->sg_first->nb_segs++;
			rxq->sg_first->pkt_len += seg;
		}
		rxq->sg_last = m;
		if (sc & FEC_BD_L) {
			struct rte_mbuf *f = sg_finish(rxq, dlen - trim);

			if (desc) {
				volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

				fec_rx_desc_apply(f, rte_le_to_cpu_32(bx->esc),
					rte_le_to_cpu_32(bx->prot), rxq->csum, rxq->vlan_strip,
					rxq->ptype);
			}
			/* Timestamps: the last BD's ts word into the first mbuf (fec_rx_ts.c). */
			if (unlikely(rxq->ts))
				fec_rx_ts_sg(rxq, f,
					rte_le_to_cpu_32(((volatile struct fec_bd_ex *)bd)->ts));
			bytes += f->pkt_len;
			pkts[nb++] = f;
		}
		cur = sg_recycle(bd, ex, sc, cur);
	}
	rxq->cur = (uint16_t)cur;
	rxq->stash_n = (uint16_t)stash_n;
	rxq->sw_pkts += nb;
	rxq->sw_bytes += bytes;
	/* As fec_rx_burst: any write to RDAR restarts a uDMA that ran out of BDs. */
	if (taken != 0)
		fec_wr32(rxq->fep, rxq->rdar, 0);
	fec_q_leave(&rxq->sync);
	return (uint16_t)nb;
}

/* Control of scattered RX (dev_start, mtu_set). */

bool
fec_rx_scatter_asked(const struct rte_eth_dev *dev)
{
	return (dev->data->dev_conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0;
}

int
fec_rx_scatter_conf(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t frame =
		(uint32_t)dev->data->mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN;

	fep->scatter = fec_rx_scatter_asked(dev);
	dev->data->scattered_rx = fep->scatter;
	if (!fep->scatter && frame > fep->rx_frame_max) {
		FEC_LOG(ERR,
			"%s: MTU %u needs %u-byte frames, RX buffers hold %u: enable "
			"RTE_ETH_RX_OFFLOAD_SCATTER or use larger mbufs",
			fep->name, dev->data->mtu, frame, fep->rx_frame_max);
		return -EINVAL;
	}
	return 0;
}
