/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's checksum accelerator. RX: what the enhanced descriptor reports
 * of a frame (ESC checksum errors and VLAN/IPV6/FRAG, the prot word). TX:
 * IPv4 header (IINS, TACC.IPCHK) and TCP/UDP (PINS, TACC.PROCHK) checksums
 * inserted into a frame the MAC holds whole (store and forward).
 */

#include <netinet/in.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_ip.h>

#include "fec_model_priv.h"

/* Length of the TCP (data offset) or UDP header at @p l4, 0 for others or too short. */
static uint32_t
l4_hdr_len(uint8_t proto, const uint8_t *l4, uint32_t l4len)
{
	if (proto == IPPROTO_UDP && l4len >= 8)
		return 8;
	if (proto == IPPROTO_TCP && l4len >= 20 && (l4[12] >> 4) * 4u >= 20 &&
		(l4[12] >> 4) * 4u <= l4len)
		return (l4[12] >> 4) * 4u;
	return 0;
}

static uint32_t
prot_word(uint32_t hdr_bytes, uint8_t proto, const uint8_t *pay, uint32_t paylen)
{
	return (hdr_bytes / 4) << FEC_BD_EX_PROT_HLEN_SHIFT |
	       (uint32_t)proto << FEC_BD_EX_PROT_PROTO_SHIFT |
	       rte_be_to_cpu_16(rte_raw_cksum(pay, paylen));
}

/*
 * The enhanced RX descriptor's words, as the MAC's accelerator fills them:
 * ICE when an IPv4 header is malformed or sums wrong, PCR when a TCP or UDP
 * checksum over an unfragmented IPv4 datagram sums wrong (UDP 0 = none),
 * VLAN/IPV6/FRAG for what it parsed; *prot gets the header length, the
 * protocol and the payload sum (0 when no IP header could be parsed; IPv6:
 * the fixed header's next header, extension headers not walked (RM?)).
 * Everything is bounded by len: a truncated header is an error, never a read
 * past the frame.
 */
uint32_t
fec_model_rx_accel(const uint8_t *frame, uint16_t len, uint32_t *prot)
{
	uint32_t esc = 0, off = 12, ihl, tot, l4len, sum;
	uint16_t type, frag;
	uint8_t proto;

	*prot = 0;
	type = (uint16_t)(frame[off] << 8 | frame[off + 1]);
	if (type == 0x8100 && len >= 18) {
		esc |= FEC_BD_EX_RX_VLAN;
		off += 4;
		type = (uint16_t)(frame[off] << 8 | frame[off + 1]);
	}
	off += 2;
	if (type == 0x86DD) {
		esc |= FEC_BD_EX_RX_IPV6;
		if (len < off + 40 || (frame[off] >> 4) != 6)
			return esc;
		tot = (uint32_t)(frame[off + 4] << 8 | frame[off + 5]);
		if (off + 40 + tot > len)
			return esc;
		proto = frame[off + 6];
		if (proto == 44)
			esc |= FEC_BD_EX_RX_FRAG;
		*prot = prot_word(40 + l4_hdr_len(proto, frame + off + 40, tot), proto,
			frame + off + 40, tot);
		return esc;
	}
	if (type != 0x0800)
		return esc;
	if (len < off + 20)
		return esc | FEC_BD_EX_RX_ICE;
	ihl = (frame[off] & 0xF) * 4u;
	tot = (uint32_t)(frame[off + 2] << 8 | frame[off + 3]);
	if ((frame[off] >> 4) != 4 || ihl < 20 || tot < ihl || off + tot > len)
		return esc | FEC_BD_EX_RX_ICE;
	if (rte_raw_cksum(frame + off, ihl) != 0xFFFF)
		esc |= FEC_BD_EX_RX_ICE;
	proto = frame[off + 9];
	l4len = tot - ihl;
	frag = (uint16_t)((frame[off + 6] << 8 | frame[off + 7]) & 0x3FFF);
	/* A later fragment has no L4 header: the IP header alone. */
	*prot = prot_word(ihl + ((frag & 0x1FFF) ? 0 : l4_hdr_len(proto, frame + off + ihl, l4len)),
		proto, frame + off + ihl, l4len);
	if (frag != 0)
		return esc | FEC_BD_EX_RX_FRAG;
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP)
		return esc;
	if (l4len < (proto == IPPROTO_TCP ? 20u : 8u))
		return esc | FEC_BD_EX_RX_PCR;
	if (proto == IPPROTO_UDP && frame[off + ihl + 6] == 0 && frame[off + ihl + 7] == 0)
		return esc;
	/* Pseudo header: addresses, protocol, L4 length; then the segment. */
	sum = __rte_raw_cksum(frame + off + 12, 8, 0);
	sum += rte_cpu_to_be_16((uint16_t)proto) + rte_cpu_to_be_16((uint16_t)l4len);
	sum = __rte_raw_cksum(frame + off + ihl, l4len, sum);
	if (__rte_raw_cksum_reduce(sum) != 0xFFFF)
		esc |= FEC_BD_EX_RX_PCR;
	return esc;
}

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
