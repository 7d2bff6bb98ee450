/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's checksum accelerator, TX side: IPv4 header (IINS, TACC.IPCHK)
 * and TCP/UDP (PINS, TACC.PROCHK) checksums inserted into a frame the MAC
 * holds whole (store and forward).
 */

#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "fec_model_priv.h"

/*
 * The MAC sums the fields as it finds them, as the reference manual asks
 * software to clear them first ("the checksum field must be cleared", TACC;
 * Linux's fec_enet_clear_csum zeroes both): a field left non-zero, such as an
 * Intel-style pseudo-header sum, gives a wrong checksum on the wire.
 */
/* rte_raw_cksum sums 16-bit words in memory order: the result is stored as is. */
static void
put_sum(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof(v));
}

void
fec_model_tx_accel(struct fec_model *m, uint8_t *frame, uint32_t len, uint32_t esc)
{
	uint32_t tacc = fec_model_reg(m, FEC_TACC);
	bool ip = (esc & FEC_BD_EX_TX_IINS) || (tacc & FEC_TACC_IPCHK);
	bool l4 = (esc & FEC_BD_EX_TX_PINS) || (tacc & FEC_TACC_PROCHK);
	uint32_t off = 12, ihl, tot, l4len, sum, at;
	uint16_t type, v;
	uint8_t proto, *h;

	if (!ip && !l4)
		return;
	/* Only a frame the MAC holds whole can have its headers rewritten (RM?). */
	if (!(fec_model_reg(m, FEC_TFWR) & FEC_TFWR_STRFWD)) {
		fec_model_violation(m, "checksum insertion without TFWR.STRFWD");
		return;
	}
	/* Ethernet II, one 802.1Q tag at most; anything else is sent as given. */
	if (len < 14)
		return;
	type = (uint16_t)(frame[off] << 8 | frame[off + 1]);
	if (type == 0x8100 && len >= 18) {
		off += 4;
		type = (uint16_t)(frame[off] << 8 | frame[off + 1]);
	}
	off += 2;
	if (type != 0x0800 || len < off + 20)
		return;
	h = frame + off;
	ihl = (h[0] & 0xF) * 4u;
	tot = (uint32_t)(h[2] << 8 | h[3]);
	if ((h[0] >> 4) != 4 || ihl < 20 || tot < ihl || off + tot > len)
		return;
	if (ip) {
		put_sum(h + 10, (uint16_t)~rte_raw_cksum(h, ihl));
		m->tx_csum_ip++;
	}
	proto = h[9];
	l4len = tot - ihl;
	/* A fragment's payload is not the whole segment: left alone. */
	if (!l4 || (h[6] << 8 | h[7]) & 0x3FFF)
		return;
	if (proto == IPPROTO_UDP && l4len >= 8)
		at = 6;
	else if (proto == IPPROTO_TCP && l4len >= 20)
		at = 16;
	else
		return;
	/* Pseudo header (addresses, protocol, L4 length), then the segment as given. */
	sum = __rte_raw_cksum(h + 12, 8, 0);
	sum += rte_cpu_to_be_16((uint16_t)proto) + rte_cpu_to_be_16((uint16_t)l4len);
	sum = __rte_raw_cksum(h + ihl, l4len, sum);
	v = (uint16_t)~__rte_raw_cksum_reduce(sum);
	/* RFC 768: a UDP sum of 0 is sent as all ones (0 means "no checksum") (RM?). */
	if (v == 0 && proto == IPPROTO_UDP)
		v = 0xFFFF;
	put_sum(h + ihl + at, v);
	m->tx_csum_l4++;
}
