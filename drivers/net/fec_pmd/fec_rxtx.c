/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* Fast path: RX and TX bursts over the BD rings. */

#include <netinet/in.h>
#include <stddef.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_branch_prediction.h>
#include <rte_ether.h>
#include <rte_mbuf.h>

#include "fec_rx.h"
#include "fec_tx.h"
#include "fec_rx_ts.h"

/*
 * Queue fields are copied to locals before the loops: stores to the volatile
 * 16-bit BD fields could alias them and would force a reload per packet.
 */

/* Two 64-bit lanes stored at once; GCC vector extension, so also NEON on arm64. */
typedef uint64_t fec_u64x2 __attribute__((vector_size(16), aligned(16), may_alias));

_Static_assert(offsetof(struct rte_mbuf, ol_flags) == offsetof(struct rte_mbuf, rearm_data) + 8 &&
		       offsetof(struct rte_mbuf, rearm_data) % 16 == 0,
	"rearm_data and ol_flags must form one aligned 16-byte block");

/* data_len and vlan_tci (= 0: no VLAN flag) written as one 32-bit word. */
typedef uint32_t fec_u32 __attribute__((may_alias));

_Static_assert(offsetof(struct rte_mbuf, vlan_tci) == offsetof(struct rte_mbuf, data_len) + 2 &&
		       offsetof(struct rte_mbuf, data_len) % 4 == 0,
	"data_len and vlan_tci must form one aligned 32-bit word");

/*
 * An enhanced BD's BDU bit, as one test of the byte that holds it (a 32-bit
 * load and a test cost one instruction more a frame, fec_pmd.md).
 */
static __rte_always_inline bool
bdu_set(const volatile struct fec_bd *bd)
{
	const uint8_t *w =
		(const uint8_t *)(uintptr_t) & ((const volatile struct fec_bd_ex *)bd)->bdu;

#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return w[3] & (FEC_BD_EX_BDU >> 24);
#else
	return w[0] & (FEC_BD_EX_BDU >> 24);
#endif
}

static inline volatile struct fec_bd *
bd_at(volatile uint8_t *base, uint8_t shift, unsigned int i)
{
	return (volatile struct fec_bd *)(base + ((uint32_t)i << shift));
}

void
fec_rx_stash_free(struct fec_rxq *rxq)
{
	if (rxq->stash_n != 0)
		rte_mempool_put_bulk(rxq->mp, (void **)rxq->stash, rxq->stash_n);
	rxq->stash_n = 0;
}

/* Refill the stash in bulk; when the pool runs low, one mbuf at a time. */
static __rte_noinline unsigned int
rx_stash_refill(struct fec_rxq *rxq)
{
	struct rte_mbuf *m;

	if (rte_mempool_get_bulk(rxq->mp, (void **)rxq->stash, FEC_RX_STASH) == 0)
		return FEC_RX_STASH;
	m = rte_mbuf_raw_alloc(rxq->mp);
	if (m == NULL)
		return 0;
	rxq->stash[0] = m;
	return 1;
}

static const uint32_t fec_rx_err_bits[FEC_RX_ERR_NB] = {
#define X(k, name, bits) [FEC_RX_ERR_##k] = (bits),
	FEC_RX_ERR_TABLE(X)
#undef X
};

/*
 * A frame dropped for its status, its enhanced BD's ESC errors or its length:
 * counted once, by its first reason.
 */
static __rte_noinline void
rx_error(struct fec_rxq *rxq, const volatile struct fec_bd *bd, uint16_t sc, bool ex)
{
	uint32_t bits = (sc ^ FEC_BD_L) & FEC_BD_RX_ERRORS;
	unsigned int i;

	if (ex)
		bits |= rte_le_to_cpu_32(((const volatile struct fec_bd_ex *)bd)->esc) &
			FEC_BD_EX_RX_ERRORS;

	for (i = 0; i < FEC_RX_ERR_BAD_LEN; i++)
		if (bits & fec_rx_err_bits[i])
			break;
	rxq->err[i]++;
	rxq->ierrors++;
}

/*
 * What the enhanced BD says of a frame, into the mbuf: packet type and
 * checksum flags from one lookup (fec_rx_desc_tab, fec_rxdesc.c), the VLAN
 * flag and TCI (read from the frame: the BD has only the bit), the tag
 * stripped in software with VLAN_STRIP as Linux's fec does.
 */
static __rte_always_inline void
rx_desc(struct rte_mbuf *m, uint32_t esc, uint32_t prot, const bool csum, const bool strip,
	const bool ptype)
{
	uint32_t e = fec_rx_desc_tab[fec_rx_desc_idx(esc, prot)];
	uint32_t pt = e & FEC_RX_DESC_PT_MASK;

	if (csum)
		m->ol_flags |= e >> FEC_RX_DESC_FL_SHIFT;
	if (unlikely(esc & FEC_BD_EX_RX_VLAN) && m->data_len >= RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN) {
		if (strip && rte_vlan_strip(m) == 0) {
			/* rte_vlan_strip set RX_VLAN|RX_VLAN_STRIPPED and the TCI. */
			pt = (pt & ~RTE_PTYPE_L2_MASK) | RTE_PTYPE_L2_ETHER;
		} else {
			const struct rte_vlan_hdr *vh = rte_pktmbuf_mtod_offset(
				m, const struct rte_vlan_hdr *, RTE_ETHER_HDR_LEN);

			m->vlan_tci = rte_be_to_cpu_16(vh->vlan_tci);
			m->ol_flags |= RTE_MBUF_F_RX_VLAN;
		}
	}
	if (ptype)
		m->packet_type = pt;
}

/* tc: the time to extend each frame's ts word against, NULL (a constant) for no stamps. */
static __rte_always_inline uint16_t
rx_burst(struct fec_rxq *rxq, struct rte_mbuf **pkts, uint16_t n, const bool ex, const bool desc,
	const struct fec_ptp_tc *tc)
{
	volatile uint8_t *base = rxq->bd;
	struct rte_mbuf **sw_ring = rxq->sw_ring;
	const fec_u64x2 mbuf_init = {rxq->mbuf_init, 0};
	const uint32_t trim = rxq->trim;
	/* trim < length <= buf_len, as one unsigned compare of length - trim - 1. */
	const uint32_t len_lim = (uint32_t)rxq->buf_len - trim;
	const uint8_t shift = ex ? 5 : 3;
	const uint64_t ierrors = rxq->ierrors;
	unsigned int stash_n = rxq->stash_n;
	unsigned int cur = rxq->cur, nb;
	/*
	 * Frames go out through a pointer, bounded by an end pointer: two
	 * registers where an index, its bound and pkts (spilled) were three
	 * (one stack reload and one move a frame fewer, fec_pmd.md).
	 */
	struct rte_mbuf **out = pkts, **const end = pkts + n;
	uint64_t bytes = 0;
	const bool csum = desc && rxq->csum, strip = desc && rxq->vlan_strip,
		   ptype = desc && rxq->ptype;

	/*
	 * An empty stash is refilled here, where little is live, rather than in
	 * the loop, where the call made GCC save and restore seven registers
	 * (the loop still refills when a burst empties the stash midway).
	 */
	if (unlikely(stash_n == 0))
		stash_n = rx_stash_refill(rxq);
	while (out < end) {
		volatile struct fec_bd *bd = bd_at(base, shift, cur);
		uint16_t sc = rte_le_to_cpu_16(bd->sc);
		struct rte_mbuf *m, *nm;
		uint32_t len;
		uint16_t wrap;

		if (sc & FEC_BD_E)
			break;
		/* Status first, then the rest of what the MAC wrote. */
		rte_io_rmb();
		/*
		 * Enhanced: E clear but BDU not yet set is a write-back still in
		 * progress (ESC and the rest may be stale): not ours yet, as for
		 * E. The recycle below clears BDU. One test of the word in memory.
		 */
		if (ex && unlikely(!bdu_set(bd)))
			break;
		len = (uint32_t)rte_le_to_cpu_16(bd->datlen) - trim;
		/*
		 * The enhanced BD's ME/PE/CE: an invalid frame the status word does
		 * not flag. Read after the barrier, and not as volatile so that it
		 * is one test of the word in memory.
		 */
		if (unlikely(((sc ^ FEC_BD_L) & FEC_BD_RX_ERRORS) || len - 1u >= len_lim ||
			     (ex && (((const struct fec_bd_ex *)(uintptr_t)bd)->esc &
					    rte_cpu_to_le_32(FEC_BD_EX_RX_ERRORS))))) {
			rx_error(rxq, bd, sc, ex);
			goto recycle;
		}
		if (unlikely(stash_n == 0)) {
			stash_n = rx_stash_refill(rxq);
			if (stash_n == 0) {
				/* The frame stays in its BD; the ring is untouched. */
				rte_eth_devices[rxq->port_id].data->rx_mbuf_alloc_failed++;
				break;
			}
		}
		nm = rxq->stash[--stash_n];
		m = sw_ring[cur];
		sw_ring[cur] = nm;
		/* rearm_data and ol_flags (= 0) are adjacent and 16-byte aligned. */
		*(fec_u64x2 *)((char *)m + offsetof(struct rte_mbuf, rearm_data)) = mbuf_init;
		m->packet_type = RTE_PTYPE_L2_ETHER;
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
		*(fec_u32 *)((char *)m + offsetof(struct rte_mbuf, data_len)) = len;
#else
		m->data_len = (uint16_t)len;
		m->vlan_tci = 0;
#endif
		m->pkt_len = len;
		bytes += len;
		if (ex && desc) {
			volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

			rx_desc(m, rte_le_to_cpu_32(bx->esc), rte_le_to_cpu_32(bx->prot), csum,
				strip, ptype);
		}
		if (ex && tc != NULL)
			fec_rx_ts_frame(rxq, tc, m,
				rte_le_to_cpu_32(((volatile struct fec_bd_ex *)bd)->ts));
		*out++ = m;
		bd->addr = rte_cpu_to_le_32((uint32_t)(nm->buf_iova + RTE_PKTMBUF_HEADROOM));
	recycle:
		if (ex) {
			/*
			 * 32-bit stores only: on NXP's layout the BDs are a UIO map,
			 * Device memory, where wider or unaligned accesses fault.
			 * ESC carries INT and the error bits the burst tests, so it
			 * is cleared; prot is not (Linux zeroes it): the MAC writes
			 * it with every frame's last BD, the only one it is read
			 * from, and the store paid for the ESC test (fec_pmd.md).
			 */
			volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

			bx->esc = rte_cpu_to_le_32(FEC_BD_EX_RX_INT);
			bx->bdu = 0;
		}
		wrap = sc & FEC_BD_W;
		rte_io_wmb();
		bd->sc = rte_cpu_to_le_16(wrap | FEC_BD_E);
		cur++;
		if (unlikely(wrap != 0))
			cur = 0;
	}
	/*
	 * Any write sets RDAR: one after the refill restarts a stalled uDMA. BDs
	 * given back = frames delivered + frames dropped for errors (rare, so
	 * counted in the queue and not in a register of the loop).
	 */
	nb = (unsigned int)(out - pkts);
	rxq->cur = (uint16_t)cur;
	rxq->stash_n = (uint16_t)stash_n;
	rxq->sw_pkts += nb;
	rxq->sw_bytes += bytes;
	if (nb != 0 || rxq->ierrors != ierrors)
		fec_wr32(rxq->fep, rxq->rdar, 0);
	return (uint16_t)nb;
}

uint16_t
fec_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct fec_rxq *rxq = q;
	uint16_t nb = 0;

	/*
	 * The gate: started (a stopped queue gives no BD back to the MAC,
	 * fec_queue.c) and no restart running (fec_priv.h, fec_q_enter).
	 * Descriptor flags are a separate instance: no per-frame test without
	 * them.
	 */
	if (likely(fec_q_enter(&rxq->sync))) {
		if (rxq->ex)
			nb = rxq->desc ? rx_burst(rxq, pkts, n, true, true, NULL)
				       : rx_burst(rxq, pkts, n, true, false, NULL);
		else
			nb = rx_burst(rxq, pkts, n, false, false, NULL);
	}
	fec_q_leave(&rxq->sync);
	return nb;
}

uint16_t
fec_rx_burst_ts(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct fec_rxq *rxq = q;
	struct fec_ptp_tc tc;
	uint16_t nb = 0;

	/* Stamps exist only in enhanced BDs (fec_rx_ts.c sets ts only then). */
	if (!rxq->ts)
		return fec_rx_burst(q, pkts, n);
	/* The same gate as fec_rx_burst: a restart waits for this burst to leave. */
	if (likely(fec_q_enter(&rxq->sync))) {
		/* One copy of the time a burst: every stamp in the ring is within reach of it. */
		fec_ptp_snapshot(&rxq->fep->ptp, &tc);
		nb = rxq->desc ? rx_burst(rxq, pkts, n, true, true, &tc)
			       : rx_burst(rxq, pkts, n, true, false, &tc);
	}
	fec_q_leave(&rxq->sync);
	return nb;
}

#define FEC_FREE_BULK 32

static void
tx_free(struct fec_txq *txq, struct rte_mbuf **sw, uint16_t n)
{
	struct rte_mbuf *fr[FEC_FREE_BULK];
	struct rte_mempool *mp = NULL;
	unsigned int nfr = 0, i;

	if (txq->fast_free) {
		/* The application promised one pool and no references. */
		rte_mempool_put_bulk(sw[0]->pool, (void **)sw, n);
		return;
	}
	/* Grouped per pool; the pool is kept in a register, not reloaded from fr[0]. */
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = rte_pktmbuf_prefree_seg(sw[i]);

		if (unlikely(m == NULL))
			continue;
		if (unlikely(m->pool != mp)) {
			if (nfr != 0)
				rte_mempool_put_bulk(mp, (void **)fr, nfr);
			nfr = 0;
			mp = m->pool;
		}
		fr[nfr++] = m;
	}
	if (nfr != 0)
		rte_mempool_put_bulk(mp, (void **)fr, nfr);
}

void
fec_tx_free_inflight(struct fec_txq *txq)
{
	uint16_t i = txq->dirty, n = txq->nb_desc - txq->nb_free;

	/* Entries outside [dirty, cur) are stale: reclaim does not clear them. */
	while (n-- > 0) {
		rte_pktmbuf_free_seg(txq->sw_ring[i]);
		i = i + 1 == txq->nb_desc ? 0 : i + 1;
	}
	memset(txq->sw_ring, 0, txq->nb_desc * sizeof(*txq->sw_ring));
	txq->nb_free = txq->nb_desc;
	txq->cur = 0;
	txq->dirty = 0;
	txq->frame_bytes = 0;
	__atomic_store_n(&txq->ts_bd, FEC_TS_BD_NONE, __ATOMIC_RELAXED);
}

void
fec_tx_reclaim(struct fec_txq *txq)
{
	volatile uint8_t *base = txq->bd;
	const uint16_t nb_desc = txq->nb_desc;
	uint16_t dirty = txq->dirty, nb_free = txq->nb_free;

	while (nb_free < nb_desc) {
		uint16_t n = RTE_MIN((uint16_t)(nb_desc - nb_free), (uint16_t)(nb_desc - dirty));

		n = RTE_MIN(n, (uint16_t)FEC_FREE_BULK);
		/* The MAC completes BDs in ring order: the last of a run stands for all. */
		if (rte_le_to_cpu_16(bd_at(base, txq->bd_shift, dirty + n - 1)->sc) & FEC_BD_R) {
			uint16_t done = 0;

			/*
			 * Bounded by n: the MAC runs beside us and may finish BD
			 * n - 1 during this scan; an unbounded scan then runs past
			 * the frames in flight (and the ring's end) and frees what
			 * is not there.
			 */
			while (done < n - 1u &&
				!(rte_le_to_cpu_16(bd_at(base, txq->bd_shift, dirty + done)->sc) &
					FEC_BD_R))
				done++;
			if (done == 0)
				break;
			n = done;
		}
		rte_io_rmb();
		/* stats=sw TX errors (no MIB), timesync TX stamps: fec_tx_ts.c. */
		if (unlikely(txq->reclaim_slow))
			fec_tx_reclaim_slow(txq, dirty, n);
		tx_free(txq, &txq->sw_ring[dirty], n);
		dirty = dirty + n == nb_desc ? 0 : dirty + n;
		nb_free += n;
	}
	txq->dirty = dirty;
	txq->nb_free = nb_free;
	fec_tx_err006358_kick(txq);
}

static inline void
tx_kick(const struct fec_txq *txq)
{
	const struct fec_priv *fep = txq->fep;
	const uint32_t tdar = txq->tdar;
	const volatile uint8_t *reg;
	unsigned int i;

	if (!fep->err007885) {
		fec_wr32(fep, tdar, 0);
		return;
	}
	/*
	 * ERR007885: a TDAR write racing the MAC clearing it can hang TX. Write
	 * only when idle; if it stays busy it will find the new BDs itself. The
	 * register's address is taken once (fec_rd32's load, without reloading
	 * fep->regs after each read's barrier).
	 *
	 * The BDs' R stores must be visible before TDAR is read: read set
	 * while a store still sits in the write buffer, the uDMA may find R
	 * clear, go idle, and the skipped write was the one doorbell the BDs
	 * had (rte_io_wmb orders stores only; Linux has wmb(), a dsb, here).
	 * The model goes idle with the mirror image (model/fec_model_doorbell.c).
	 */
	rte_io_mb();
	reg = fep->regs + tdar;
	for (i = 0; i < 4; i++) {
		if (!(rte_read32(reg) & FEC_DAR_ACTIVE)) {
			fec_wr32(fep, tdar, 0);
			return;
		}
	}
}

/*
 * ESC of a TX BD: the completion event, and with the checksum offloads the
 * insertion bits moved straight from ol_flags (two shifts, no branches).
 * RTE_MBUF_F_TX_TCP_CKSUM's bit is set in both the TCP and the UDP value of
 * the L4 field, not in SCTP's (tx_prepare refuses SCTP).
 */
_Static_assert(RTE_MBUF_F_TX_IP_CKSUM == 1ULL << 54 && RTE_MBUF_F_TX_TCP_CKSUM == 1ULL << 52 &&
		       RTE_MBUF_F_TX_UDP_CKSUM == 3ULL << 52 && FEC_BD_EX_TX_IINS == 1u << 27 &&
		       FEC_BD_EX_TX_PINS == 1u << 28 && RTE_MBUF_F_TX_IEEE1588_TMST == 1ULL << 51 &&
		       FEC_BD_EX_TX_TS == 1u << 29,
	"TX checksum and timestamp flags and ESC bits where the shifts expect them");

static __rte_always_inline uint32_t
tx_esc(const struct rte_mbuf *m, const bool csum, const bool ts)
{
	uint64_t ol;
	uint32_t esc;

	if (!csum)
		return FEC_BD_EX_TX_INT;
	ol = m->ol_flags;
	esc = FEC_BD_EX_TX_INT | ((uint32_t)(ol >> 27) & FEC_BD_EX_TX_IINS) |
	      ((uint32_t)(ol >> 24) & FEC_BD_EX_TX_PINS);
	/* TS: the MAC writes the 1588 counter into the BD (timesync, fec_tx_ts.c). */
	if (ts)
		esc |= (uint32_t)(ol >> 22) & FEC_BD_EX_TX_TS;
	return esc;
}

static inline void
tx_fill(volatile struct fec_bd *bd, const struct rte_mbuf *seg, const bool ex, uint32_t esc)
{
	bd->addr = rte_cpu_to_le_32((uint32_t)rte_mbuf_data_iova(seg));
	bd->datlen = rte_cpu_to_le_16(seg->data_len);
	if (ex) {
		volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

		bx->esc = rte_cpu_to_le_32(esc);
		bx->bdu = 0;
	}
}

/* A frame in several segments: one BD each, the first handed over last. */
static __rte_noinline uint16_t
tx_chain(struct fec_txq *txq, struct rte_mbuf *m, uint16_t cur, const bool ex, const bool csum,
	const bool ts)
{
	/* Every BD of the frame carries its insertion bits, as Linux sets them. */
	const uint32_t esc = tx_esc(m, csum, ts);
	const uint16_t last = txq->nb_desc - 1;
	volatile struct fec_bd *first = bd_at(txq->bd, txq->bd_shift, cur);
	uint16_t first_sc = 0;
	struct rte_mbuf *seg;

	for (seg = m; seg != NULL; seg = seg->next) {
		volatile struct fec_bd *bd = bd_at(txq->bd, txq->bd_shift, cur);
		uint16_t sc = FEC_BD_R | FEC_BD_TC;

		tx_fill(bd, seg, ex, esc);
		if (seg->next == NULL) {
			sc |= FEC_BD_L;
			/* The stamp is read from the frame's last BD (fec_tx_ts.c). */
			if (ts && unlikely(esc & FEC_BD_EX_TX_TS))
				__atomic_store_n(&txq->ts_bd, cur, __ATOMIC_RELAXED);
		}
		if (cur == last)
			sc |= FEC_BD_W;
		txq->sw_ring[cur] = seg;
		if (bd == first) {
			first_sc = sc;
		} else {
			rte_io_wmb();
			bd->sc = rte_cpu_to_le_16(sc);
		}
		cur = cur == last ? 0 : cur + 1;
	}
	rte_io_wmb();
	first->sc = rte_cpu_to_le_16(first_sc);
	return cur;
}

static __rte_always_inline uint16_t
tx_burst(struct fec_txq *txq, struct rte_mbuf **pkts, uint16_t n, const bool ex, const bool csum,
	const bool ts)
{
	const uint8_t shift = ex ? 5 : 3;
	const unsigned int last = txq->nb_desc - 1u;
	volatile uint8_t *base;
	struct rte_mbuf **sw_ring = txq->sw_ring;
	unsigned int cur, nb_free, sent;
	uint64_t bytes = 0;

	if (txq->nb_free < RTE_MAX(n, txq->free_thresh)) {
		fec_tx_reclaim(txq);
		/* Full even after the reclaim: only there the TX watchdog looks. */
		if (unlikely(txq->nb_free == 0))
			return fec_tx_full(txq);
	}
	base = txq->bd;
	cur = txq->cur;
	/*
	 * Every frame takes at least one BD, so clamping n to the free BDs bounds
	 * the single-segment path without a per-packet check; a chain takes
	 * nb_segs - 1 more, taken off nb_free and off the bound.
	 */
	nb_free = txq->nb_free;
	if (n > nb_free)
		n = (uint16_t)nb_free;
	for (sent = 0; sent < n; sent++) {
		struct rte_mbuf *m = pkts[sent];
		volatile struct fec_bd *bd;
		uint32_t esc;

		/*
		 * The byte sum after the chain test, in each branch: summed before
		 * it (and taken back on a chain that does not fit), it cost two
		 * moves a frame (fec_pmd.md).
		 */
		if (unlikely(m->nb_segs != 1)) {
			if (m->nb_segs > nb_free - sent)
				break;
			bytes += m->pkt_len;
			cur = tx_chain(txq, m, (uint16_t)cur, ex, csum, ts);
			nb_free -= m->nb_segs - 1u;
			if (n > nb_free)
				n = (uint16_t)nb_free;
			continue;
		}
		bytes += m->pkt_len;
		bd = bd_at(base, shift, cur);
		esc = tx_esc(m, csum, ts);
		tx_fill(bd, m, ex, esc);
		if (ts && unlikely(esc & FEC_BD_EX_TX_TS))
			__atomic_store_n(&txq->ts_bd, cur, __ATOMIC_RELAXED);
		sw_ring[cur] = m;
		rte_io_wmb();
		if (unlikely(cur == last)) {
			bd->sc = rte_cpu_to_le_16(FEC_BD_R | FEC_BD_TC | FEC_BD_L | FEC_BD_W);
			cur = 0;
		} else {
			bd->sc = rte_cpu_to_le_16(FEC_BD_R | FEC_BD_TC | FEC_BD_L);
			cur++;
		}
	}
	txq->cur = (uint16_t)cur;
	txq->nb_free = (uint16_t)(nb_free - sent);
	txq->sw_pkts += sent;
	txq->sw_bytes += bytes;
	if (sent != 0)
		tx_kick(txq);
	return (uint16_t)sent;
}

/*
 * ESC bits from ol_flags out of line, so that the plain instances keep their
 * register allocation: checksum insertion; with timesync also the TS bit
 * (fec_tx_ts.c), a third instance so the checksum one stays as it was.
 */
static __rte_noinline uint16_t
tx_burst_csum(struct fec_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	return tx_burst(txq, pkts, n, true, true, false);
}

static __rte_noinline uint16_t
tx_burst_ts(struct fec_txq *txq, struct rte_mbuf **pkts, uint16_t n)
{
	return tx_burst(txq, pkts, n, true, true, true);
}

uint16_t
fec_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n)
{
	struct fec_txq *txq = q;
	uint16_t sent = 0;

	/*
	 * The gate: started, no restart running (fec_q_enter). A separate
	 * instance: no per-frame offload test without the offload.
	 */
	if (likely(fec_q_enter(&txq->sync))) {
		if (!txq->ex)
			sent = tx_burst(txq, pkts, n, false, false, false);
		else if (txq->esc_ol)
			sent = txq->ts_ptp ? tx_burst_ts(txq, pkts, n)
					   : tx_burst_csum(txq, pkts, n);
		else
			sent = tx_burst(txq, pkts, n, true, false, false);
	}
	fec_q_leave(&txq->sync);
	return sent;
}

void
fec_rx_error(struct fec_rxq *rxq, const volatile struct fec_bd *bd, uint16_t sc, bool ex)
{
	rx_error(rxq, bd, sc, ex);
}

unsigned int
fec_rx_stash_refill(struct fec_rxq *rxq)
{
	return rx_stash_refill(rxq);
}

void
fec_rx_desc_apply(
	struct rte_mbuf *m, uint32_t esc, uint32_t prot, bool csum, bool strip, bool ptype)
{
	rx_desc(m, esc, prot, csum, strip, ptype);
}
