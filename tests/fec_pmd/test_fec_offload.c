/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec offloads against its model: TX checksum insertion (tx_prepare
 * clears the fields, the burst sets IINS/PINS, the model's MAC fills them),
 * what tx_prepare refuses, packet types and the VLAN flag/strip from the
 * enhanced RX descriptor, and the capabilities with legacy BDs. One EAL per
 * case (argv[1]); the model is stepped by the test. Prints TAP.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF 1024
#define NB_DESC 64

static const uint8_t peer_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
static const uint8_t own_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};

#define TX_CSUM                                                         \
	(RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM | \
		RTE_ETH_TX_OFFLOAD_TCP_CKSUM)

static int
port_setup(uint64_t tx_offloads, uint64_t rx_offloads)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	conf.txmode.offloads = tx_offloads;
	conf.rxmode.offloads = rx_offloads;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, NB_DESC, 0, NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, NB_DESC, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	return ret;
}

/* How a test frame is built. */
struct frame_spec {
	uint8_t proto;    /* IPPROTO_UDP / IPPROTO_TCP / 0: ARP-like, not IP */
	uint8_t vlan;     /* one 802.1Q tag */
	uint8_t qinq;     /* two tags (the MAC cannot find the IP header) */
	uint8_t opt;      /* 32-bit words of IP options */
	uint16_t payload; /* L4 payload bytes */
	uint16_t frag;    /* IPv4 fragment_offset field (host order) */
	uint8_t ipv6;     /* IPv6 instead of IPv4 */
};

/*
 * A frame with correct checksums, then both fields overwritten with garbage
 * (what an application leaves there when the MAC is to fill them).
 * Returns its length; *l2 and *l3 get the header lengths.
 */
static uint16_t
mk_frame(uint8_t *f, const struct frame_spec *s, uint32_t seq, uint16_t *l2, uint16_t *l3)
{
	uint16_t off = 12, l4 = s->proto == IPPROTO_TCP ? 20 : 8, i, ihl = 20 + 4 * s->opt;
	uint8_t *ip, *t;

	memset(f, 0, 1600);
	memcpy(f, peer_mac, 6);
	memcpy(f + 6, own_mac, 6);
	if (s->qinq) {
		f[off++] = 0x88;
		f[off++] = 0xA8;
		f[off++] = 0;
		f[off++] = 5;
	}
	if (s->vlan || s->qinq) {
		f[off++] = 0x81;
		f[off++] = 0x00;
		f[off++] = 0x20;
		f[off++] = 9;
	}
	if (s->proto == 0) {
		f[off] = 0x08;
		f[off + 1] = 0x06;
		memcpy(f + off + 2, &seq, 4);
		*l2 = off + 2;
		*l3 = 0;
		return 60;
	}
	f[off++] = s->ipv6 ? 0x86 : 0x08;
	f[off++] = s->ipv6 ? 0xDD : 0x00;
	*l2 = off;
	ip = f + off;
	if (s->ipv6) {
		struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)ip;

		h->vtc_flow = rte_cpu_to_be_32(6u << 28);
		h->payload_len = rte_cpu_to_be_16((uint16_t)(l4 + s->payload));
		h->proto = s->proto;
		h->hop_limits = 64;
		memset(h->src_addr, 0x20, 16);
		memset(h->dst_addr, 0x21, 16);
		ihl = 40;
	} else {
		struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;

		h->version_ihl = (uint8_t)(0x40 | (ihl / 4));
		h->total_length = rte_cpu_to_be_16((uint16_t)(ihl + l4 + s->payload));
		h->packet_id = rte_cpu_to_be_16((uint16_t)seq);
		h->fragment_offset = rte_cpu_to_be_16(s->frag);
		h->time_to_live = 64;
		h->next_proto_id = s->proto;
		h->src_addr = rte_cpu_to_be_32(0x0A000001);
		h->dst_addr = rte_cpu_to_be_32(0x0A000002 + seq);
		for (i = 20; i < ihl; i++)
			ip[i] = 1; /* NOP options */
	}
	*l3 = ihl;
	t = ip + ihl;
	for (i = 0; i < s->payload; i++)
		t[l4 + i] = (uint8_t)(seq * 7 + i);
	memcpy(t + l4, &seq, RTE_MIN(4u, s->payload));
	if (s->proto == IPPROTO_UDP) {
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)t;

		u->src_port = rte_cpu_to_be_16(1000);
		u->dst_port = rte_cpu_to_be_16(2000);
		u->dgram_len = rte_cpu_to_be_16((uint16_t)(l4 + s->payload));
		u->dgram_cksum = 0xBEEF;
	} else {
		struct rte_tcp_hdr *tc = (struct rte_tcp_hdr *)t;

		tc->src_port = rte_cpu_to_be_16(1000);
		tc->dst_port = rte_cpu_to_be_16(2000);
		tc->sent_seq = rte_cpu_to_be_32(seq);
		tc->data_off = 5 << 4;
		tc->tcp_flags = RTE_TCP_ACK_FLAG;
		tc->rx_win = rte_cpu_to_be_16(512);
		tc->cksum = 0xBEEF;
	}
	if (!s->ipv6)
		((struct rte_ipv4_hdr *)ip)->hdr_checksum = 0x1234;
	return (uint16_t)(off + ihl + l4 + s->payload);
}

static struct rte_mbuf *
mk_mbuf(const uint8_t *f, uint16_t len, uint16_t l2, uint16_t l3, uint64_t ol)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	if (m == NULL)
		return NULL;
	memcpy(rte_pktmbuf_mtod(m, uint8_t *), f, len);
	m->data_len = m->pkt_len = len;
	m->l2_len = l2;
	m->l3_len = l3;
	m->ol_flags = ol;
	return m;
}

/* 1 when the IPv4 header at @p ip sums right (field included). */
static int
ip_ok(const uint8_t *ip)
{
	return rte_raw_cksum(ip, (ip[0] & 0xF) * 4u) == 0xFFFF;
}

/* The TCP/UDP checksum field of the IPv4 datagram at @p ip (memory order). */
static uint16_t
l4_field(const uint8_t *ip)
{
	uint16_t v;

	memcpy(&v, ip + (ip[0] & 0xF) * 4u + (ip[9] == IPPROTO_TCP ? 16 : 6), 2);
	return v;
}

/* 1 when the TCP/UDP checksum of the IPv4 datagram at @p ip verifies. */
static int
l4_ok(const uint8_t *ip)
{
	const struct rte_ipv4_hdr *h = (const struct rte_ipv4_hdr *)ip;

	if (h->next_proto_id == IPPROTO_UDP && l4_field(ip) == 0)
		return 0; /* "no checksum" is not an inserted one */
	return rte_ipv4_udptcp_cksum_verify(h, ip + (ip[0] & 0xF) * 4u) == 0;
}

/* Send one mbuf (already prepared or not), step, take it off the wire. */
static int
send_one(struct rte_mbuf *m, uint8_t *out, uint16_t size)
{
	if (rte_eth_tx_burst(port, 0, &m, 1) != 1) {
		rte_pktmbuf_free(m);
		return -1;
	}
	step_all();
	return fec_model_tx_frame(model, out, size);
}

/* Prepare (expecting success) and send; the wire frame in out. */
static int
prep_send(struct rte_mbuf *m, uint8_t *out)
{
	uint16_t k = rte_eth_tx_prepare(port, 0, &m, 1);

	CHECK(k == 1, "tx_prepare refused a good frame: %s", rte_strerror(rte_errno));
	if (k != 1) {
		rte_pktmbuf_free(m);
		return -1;
	}
	return send_one(m, out, 2048);
}

/*
 * Make the TCP/UDP sum of the frame (fields as prepare leaves them: 0) fold
 * to 0xFFFF, so its checksum is 0: a payload word takes the complement of
 * the rest. UDP must then carry 0xFFFF, TCP 0.
 */
static void
fold_l4_to_zero(uint8_t *ip)
{
	struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;
	uint8_t *t = ip + (ip[0] & 0xF) * 4u;
	uint16_t at = h->next_proto_id == IPPROTO_TCP ? 16 : 6, hl = at == 16 ? 20 : 8;
	uint16_t w;

	memset(t + at, 0, 2);
	memset(t + hl, 0, 2);
	/* ~sum: added to the sum it makes 0xFFFF (UDP's 0xFFFF for sum 0xFFFF adds nothing). */
	w = rte_ipv4_udptcp_cksum(h, t);
	memcpy(t + hl, &w, 2);
	memcpy(t + at, (const uint16_t[]){0xBEEF}, 2);
}

/* An IPv4 header whose sum (checksum field 0) folds to 0xFFFF: checksum 0. */
static void
fold_ip_to_zero(uint8_t *ip)
{
	struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;
	uint16_t w;

	h->hdr_checksum = 0;
	h->packet_id = 0;
	w = (uint16_t)~rte_raw_cksum(ip, 20);
	memcpy(&h->packet_id, &w, 2);
	h->hdr_checksum = 0x1234;
}

/*
 * TX checksum insertion: each frame goes through tx_prepare and the burst
 * with garbage in the fields; on the wire every requested checksum verifies,
 * the others are as given, the 0 → 0xFFFF rule holds for UDP and not for
 * TCP, and the payload is intact.
 */
static void
case_tx_csum(void)
{
	static const struct {
		struct frame_spec s;
		uint64_t ol;
		const char *what;
	} t[] = {
		{{IPPROTO_UDP, 0, 0, 0, 100, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM,
			"UDP"},
		{{IPPROTO_TCP, 0, 0, 0, 333, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_CKSUM,
			"TCP"},
		{{IPPROTO_TCP, 0, 0, 3, 1001, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_CKSUM,
			"TCP, IP options"},
		{{IPPROTO_UDP, 1, 0, 0, 1400, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM,
			"UDP, VLAN tag"},
		{{IPPROTO_UDP, 0, 0, 0, 1, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM,
			"UDP, 43 bytes (padded by the MAC)"},
		{{IPPROTO_UDP, 0, 0, 0, 200, 0, 0}, RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM,
			"IP only"},
		{{IPPROTO_TCP, 0, 0, 0, 200, 0, 0}, RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TCP_CKSUM,
			"TCP only"},
		{{IPPROTO_UDP, 0, 0, 0, 64, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM,
			"UDP summing to 0"},
		{{IPPROTO_TCP, 0, 0, 0, 64, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_CKSUM,
			"TCP summing to 0"},
		{{IPPROTO_UDP, 0, 0, 0, 64, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM,
			"IP header summing to 0"},
		{{0, 0, 0, 0, 0, 0, 0}, 0, "not IP, no flags"},
		{{IPPROTO_UDP, 0, 0, 0, 30, 0, 1}, RTE_MBUF_F_TX_IPV6, "IPv6, no checksum flag"},
	};
	struct rte_eth_dev_info info;
	uint8_t f[1600], w[2048];
	uint64_t ip0, l40, ip1, l41, want_ip = 0, want_l4 = 0;
	unsigned int i;

	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info");
	CHECK((info.tx_offload_capa & TX_CSUM) == TX_CSUM, "TX checksum capa 0x%" PRIx64,
		info.tx_offload_capa);
	CHECK(port_setup(TX_CSUM, 0) == 0, "port setup");
	{
		struct rte_eth_txq_info qi;

		CHECK(rte_eth_tx_queue_info_get(port, 0, &qi) == 0 &&
				(qi.conf.offloads & TX_CSUM) == TX_CSUM,
			"txq_info shows the checksum offloads");
	}
	fec_model_tx_csum_counts(model, &ip0, &l40);
	for (i = 0; i < RTE_DIM(t); i++) {
		uint16_t l2, l3, len = mk_frame(f, &t[i].s, i, &l2, &l3);
		const uint8_t *ip = w + l2;
		struct rte_mbuf *m;
		int wl;

		if (strcmp(t[i].what, "UDP summing to 0") == 0 ||
			strcmp(t[i].what, "TCP summing to 0") == 0)
			fold_l4_to_zero(f + l2);
		if (strcmp(t[i].what, "IP header summing to 0") == 0)
			fold_ip_to_zero(f + l2);
		m = mk_mbuf(f, len, l2, l3, t[i].ol);
		wl = prep_send(m, w);
		CHECK(wl == RTE_MAX(len, 60), "%s: %d bytes on the wire, want %u", t[i].what, wl,
			RTE_MAX(len, 60));
		if (wl < 0)
			continue;
		if (t[i].s.proto == 0 || t[i].s.ipv6) {
			CHECK(memcmp(w, f, len) == 0, "%s: sent as given", t[i].what);
			continue;
		}
		/* Everything but the two checksum fields as given. */
		{
			uint8_t a[1600], b[2048];
			uint16_t at = l2 + l3 + (t[i].s.proto == IPPROTO_TCP ? 16 : 6);

			memcpy(a, f, len);
			memcpy(b, w, len);
			a[l2 + 10] = a[l2 + 11] = b[l2 + 10] = b[l2 + 11] = 0;
			a[at] = a[at + 1] = b[at] = b[at + 1] = 0;
			CHECK(memcmp(a, b, len) == 0, "%s: frame changed beyond the checksums",
				t[i].what);
		}
		if (t[i].ol & RTE_MBUF_F_TX_IP_CKSUM) {
			CHECK(ip_ok(ip), "%s: IP checksum 0x%04x wrong", t[i].what,
				rte_be_to_cpu_16(((const struct rte_ipv4_hdr *)ip)->hdr_checksum));
			want_ip++;
		} else {
			CHECK(memcmp(ip + 10, f + l2 + 10, 2) == 0, "%s: IP checksum not as given",
				t[i].what);
		}
		if (t[i].ol & RTE_MBUF_F_TX_L4_MASK) {
			CHECK(l4_ok(ip), "%s: L4 checksum 0x%04x wrong", t[i].what,
				rte_be_to_cpu_16(l4_field(ip)));
			want_l4++;
		} else {
			CHECK(l4_field(ip) == 0xBEEF, "%s: L4 checksum 0x%04x not as given",
				t[i].what, l4_field(ip));
		}
		if (strcmp(t[i].what, "UDP summing to 0") == 0)
			CHECK(l4_field(ip) == 0xFFFF, "UDP sum 0 sent as 0x%04x, want 0xffff",
				l4_field(ip));
		if (strcmp(t[i].what, "TCP summing to 0") == 0)
			CHECK(l4_field(ip) == 0, "TCP sum 0 sent as 0x%04x, want 0", l4_field(ip));
		if (strcmp(t[i].what, "IP header summing to 0") == 0)
			CHECK(((const struct rte_ipv4_hdr *)ip)->hdr_checksum == 0,
				"IP header sum 0 sent as 0x%04x, want 0",
				((const struct rte_ipv4_hdr *)ip)->hdr_checksum);
	}
	/* A chain: headers in the first segment, the payload in two more. */
	{
		const struct frame_spec s = {IPPROTO_UDP, 0, 0, 0, 900, 0, 0};
		uint16_t l2, l3, len = mk_frame(f, &s, 77, &l2, &l3);
		struct rte_mbuf *m = mk_mbuf(f, 100, l2, l3,
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM);
		struct rte_mbuf *s1 = rte_pktmbuf_alloc(pool), *s2 = rte_pktmbuf_alloc(pool);

		memcpy(rte_pktmbuf_mtod(s1, uint8_t *), f + 100, 400);
		s1->data_len = s1->pkt_len = 400;
		memcpy(rte_pktmbuf_mtod(s2, uint8_t *), f + 500, len - 500);
		s2->data_len = s2->pkt_len = (uint16_t)(len - 500);
		CHECK(rte_pktmbuf_chain(m, s1) == 0 && rte_pktmbuf_chain(m, s2) == 0, "chain");
		CHECK(prep_send(m, w) == len, "chain: %u bytes on the wire", len);
		CHECK(ip_ok(w + l2) && l4_ok(w + l2), "chain: checksums right");
		CHECK(memcmp(w + l2 + 28, f + l2 + 28, len - l2 - 28) == 0,
			"chain: payload intact");
		want_ip++;
		want_l4++;
	}
	/*
	 * Without tx_prepare the garbage stays in the fields and the MAC adds it:
	 * the checksums come out wrong. That is the hardware's need prepare meets.
	 */
	{
		const struct frame_spec s = {IPPROTO_UDP, 0, 0, 0, 100, 0, 0};
		uint16_t l2, l3, len = mk_frame(f, &s, 99, &l2, &l3);
		int wl = send_one(mk_mbuf(f, len, l2, l3,
					  RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM |
						  RTE_MBUF_F_TX_UDP_CKSUM),
			w, sizeof(w));

		CHECK(wl == len && !ip_ok(w + l2) && !l4_ok(w + l2),
			"unprepared fields: the MAC's sums include them (wrong on the wire)");
		want_ip++;
		want_l4++;
	}
	fec_model_tx_csum_counts(model, &ip1, &l41);
	CHECK(ip1 - ip0 == want_ip && l41 - l40 == want_l4,
		"the MAC inserted %" PRIu64 " IP and %" PRIu64 " L4 checksums, want %" PRIu64
		" and %" PRIu64,
		ip1 - ip0, l41 - l40, want_ip, want_l4);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* What tx_prepare refuses, with which rte_errno; nothing is sent. */
static void
case_tx_prepare(void)
{
	static const struct {
		struct frame_spec s;
		uint64_t ol;
		int l3_delta;
		int err;
		const char *what;
	} t[] = {
		{{IPPROTO_UDP, 0, 0, 0, 40, 0, 1}, RTE_MBUF_F_TX_IPV6 | RTE_MBUF_F_TX_UDP_CKSUM, 0,
			ENOTSUP, "IPv6 UDP"},
		{{IPPROTO_UDP, 0, 0, 0, 40, 0, 0}, RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_SCTP_CKSUM, 0,
			ENOTSUP, "SCTP"},
		{{IPPROTO_TCP, 0, 0, 0, 40, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TCP_SEG, 0,
			ENOTSUP, "TSO"},
		{{IPPROTO_UDP, 0, 0, 0, 40, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_TUNNEL_VXLAN, 0,
			ENOTSUP, "VXLAN tunnel"},
		{{IPPROTO_UDP, 0, 0, 0, 40, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_VLAN, 0,
			ENOTSUP, "VLAN insertion"},
		{{IPPROTO_UDP, 0, 0, 0, 40, RTE_IPV4_HDR_MF_FLAG, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM, 0, ENOTSUP, "first fragment"},
		{{IPPROTO_UDP, 0, 0, 0, 40, 100, 0}, RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_UDP_CKSUM,
			0, ENOTSUP, "later fragment"},
		{{IPPROTO_UDP, 0, 1, 0, 40, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM, 0,
			ENOTSUP, "QinQ"},
		{{IPPROTO_UDP, 0, 0, 1, 40, 0, 0},
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM, -4,
			EINVAL, "l3_len not the IHL"},
		{{IPPROTO_UDP, 0, 0, 0, 40, 0, 0}, RTE_MBUF_F_TX_IP_CKSUM, 0, EINVAL,
			"IP checksum without RTE_MBUF_F_TX_IPV4"},
		{{IPPROTO_UDP, 0, 0, 0, 40, 0, 0}, RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_TCP_CKSUM, 0,
			EINVAL, "TCP flag on a UDP datagram"},
	};
	uint8_t f[1600];
	unsigned int i;

	CHECK(port_setup(TX_CSUM, 0) == 0, "port setup");
	for (i = 0; i < RTE_DIM(t); i++) {
		uint16_t l2, l3, len = mk_frame(f, &t[i].s, i, &l2, &l3);
		const struct frame_spec good = {IPPROTO_UDP, 0, 0, 0, 40, 0, 0};
		struct rte_mbuf *m[2];
		uint16_t gl2, gl3, k;

		m[1] = mk_mbuf(f, len, l2, (uint16_t)(l3 + t[i].l3_delta), t[i].ol);
		len = mk_frame(f, &good, i, &gl2, &gl3);
		m[0] = mk_mbuf(f, len, gl2, gl3,
			RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM);
		rte_errno = 0;
		k = rte_eth_tx_prepare(port, 0, m, 2);
		CHECK(k == 1 && rte_errno == t[i].err, "%s: prepared %u, rte_errno %d, want 1, %d",
			t[i].what, k, rte_errno, t[i].err);
		rte_pktmbuf_free_bulk(m, 2);
	}
	CHECK(fec_test_drain_wire() == 0, "nothing sent");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * Offload not configured (enhanced BDs) or not there (legacy): prepare
 * refuses checksum flags, and a burst given them anyway sets no IINS/PINS:
 * the frame goes out as given. Legacy BDs advertise no TX checksum.
 */
static void
case_tx_csum_off(void)
{
	const struct frame_spec s = {IPPROTO_UDP, 0, 0, 0, 100, 0, 0};
	const uint64_t ol = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM;
	uint8_t f[1600], w[2048];
	uint16_t l2, l3, len = mk_frame(f, &s, 1, &l2, &l3), k;
	struct rte_mbuf *m;
	uint64_t ip, l4;

	CHECK(port_setup(0, 0) == 0, "port setup");
	m = mk_mbuf(f, len, l2, l3, ol);
	rte_errno = 0;
	k = rte_eth_tx_prepare(port, 0, &m, 1);
	CHECK(k == 0 && rte_errno == ENOTSUP, "prepare without the offload: %u, rte_errno %d", k,
		rte_errno);
	CHECK(send_one(m, w, sizeof(w)) == len && memcmp(w, f, len) == 0,
		"sent as given, no insertion");
	fec_model_tx_csum_counts(model, &ip, &l4);
	CHECK(ip == 0 && l4 == 0, "the MAC inserted nothing (%" PRIu64 ", %" PRIu64 ")", ip, l4);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

static void
case_tx_csum_legacy(void)
{
	struct rte_eth_dev_info info;

	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info");
	CHECK((info.tx_offload_capa & TX_CSUM) == 0, "legacy BDs: no TX checksum capa 0x%" PRIx64,
		info.tx_offload_capa);
	CHECK(rte_eth_dev_configure(port, 1, 1,
		      &(struct rte_eth_conf){.txmode.offloads = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM}) < 0,
		"configure with TX checksum refused");
	case_tx_csum_off();
}

/* The frame of @p s with right checksums, to the port (RX tests). */
static uint16_t
mk_rx_frame(uint8_t *f, const struct frame_spec *s, uint32_t seq, uint16_t *l2)
{
	struct rte_ether_addr mac;
	uint16_t l3, len = mk_frame(f, s, seq, l2, &l3);
	uint8_t *ip = f + *l2;

	rte_eth_macaddr_get(port, &mac);
	memcpy(f, mac.addr_bytes, 6);
	if (s->proto == 0)
		return len;
	if (s->ipv6) {
		struct rte_ipv6_hdr *h = (struct rte_ipv6_hdr *)ip;
		uint8_t *t = ip + 40;

		if (s->proto == IPPROTO_UDP) {
			((struct rte_udp_hdr *)t)->dgram_cksum = 0;
			((struct rte_udp_hdr *)t)->dgram_cksum = rte_ipv6_udptcp_cksum(h, t);
		} else if (s->proto == IPPROTO_TCP) {
			((struct rte_tcp_hdr *)t)->cksum = 0;
			((struct rte_tcp_hdr *)t)->cksum = rte_ipv6_udptcp_cksum(h, t);
		}
		return len;
	}
	{
		struct rte_ipv4_hdr *h = (struct rte_ipv4_hdr *)ip;
		uint8_t *t = ip + l3;

		h->hdr_checksum = 0;
		h->hdr_checksum = rte_ipv4_cksum(h);
		if (s->frag != 0)
			return len;
		if (s->proto == IPPROTO_UDP) {
			((struct rte_udp_hdr *)t)->dgram_cksum = 0;
			((struct rte_udp_hdr *)t)->dgram_cksum = rte_ipv4_udptcp_cksum(h, t);
		} else if (s->proto == IPPROTO_TCP) {
			((struct rte_tcp_hdr *)t)->cksum = 0;
			((struct rte_tcp_hdr *)t)->cksum = rte_ipv4_udptcp_cksum(h, t);
		}
	}
	return len;
}

/* Inject every frame, step, receive them all (n at most 32). */
static unsigned int
rx_frames(uint8_t (*f)[1600], const uint16_t *len, unsigned int n, struct rte_mbuf **out)
{
	unsigned int i, got = 0;

	for (i = 0; i < n; i++)
		CHECK(fec_model_rx_frame(model, f[i], len[i]) == 0, "frame %u in", i);
	step_all();
	while (got < n) {
		uint16_t k = rte_eth_rx_burst(port, 0, out + got, (uint16_t)(n - got));

		if (k == 0)
			break;
		got += k;
	}
	CHECK(got == n, "%u of %u frames received", got, n);
	return got;
}

static int
ptype_listed(uint32_t pt)
{
	uint32_t list[32];
	int i, n = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_ALL_MASK, list, RTE_DIM(list));
	uint32_t l2 = pt & RTE_PTYPE_L2_MASK, l3 = pt & RTE_PTYPE_L3_MASK,
		 l4 = pt & RTE_PTYPE_L4_MASK;
	int f2 = 0, f3 = l3 == 0, f4 = l4 == 0;

	for (i = 0; i < n; i++) {
		f2 |= list[i] == l2;
		f3 |= l3 != 0 && list[i] == l3;
		f4 |= l4 != 0 && list[i] == l4;
	}
	return f2 && f3 && f4;
}

#define PT_V4 (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN)
#define PT_V6 (RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV6_EXT_UNKNOWN)

/*
 * Packet types from the enhanced descriptor (on by default), each one in
 * the supported list; the VLAN flag and TCI of a tagged frame, tag kept
 * (no strip configured); no checksum flags without the offload; off with
 * rte_eth_dev_set_ptypes(RTE_PTYPE_UNKNOWN) (L2_ETHER only), on again.
 */
static void
case_rx_ptype(void)
{
	static const struct {
		struct frame_spec s;
		int bad_ip;
		uint32_t pt;
		const char *what;
	} t[] = {
		{{0, 0, 0, 0, 0, 0, 0}, 0, RTE_PTYPE_L2_ETHER, "ARP"},
		{{IPPROTO_UDP, 0, 0, 0, 50, 0, 0}, 0, PT_V4 | RTE_PTYPE_L4_UDP, "IPv4 UDP"},
		{{IPPROTO_TCP, 0, 0, 2, 50, 0, 0}, 0, PT_V4 | RTE_PTYPE_L4_TCP,
			"IPv4 TCP, options"},
		{{IPPROTO_UDP, 1, 0, 0, 50, 0, 0}, 0,
			RTE_PTYPE_L2_ETHER_VLAN | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN | RTE_PTYPE_L4_UDP,
			"VLAN IPv4 UDP"},
		{{IPPROTO_UDP, 0, 0, 0, 50, RTE_IPV4_HDR_MF_FLAG, 0}, 0, PT_V4 | RTE_PTYPE_L4_FRAG,
			"first fragment"},
		{{IPPROTO_UDP, 0, 0, 0, 50, 185, 0}, 0, PT_V4 | RTE_PTYPE_L4_FRAG,
			"later fragment"},
		{{IPPROTO_ICMP, 0, 0, 0, 50, 0, 0}, 0, PT_V4, "ICMP: no L4 type"},
		{{IPPROTO_UDP, 0, 0, 0, 50, 0, 0}, 1, PT_V4, "bad IP header: protocol not trusted"},
		{{IPPROTO_UDP, 0, 0, 0, 50, 0, 1}, 0, PT_V6 | RTE_PTYPE_L4_UDP, "IPv6 UDP"},
		{{IPPROTO_TCP, 0, 0, 0, 50, 0, 1}, 0, PT_V6 | RTE_PTYPE_L4_TCP, "IPv6 TCP"},
		{{44, 0, 0, 0, 50, 0, 1}, 0, PT_V6 | RTE_PTYPE_L4_FRAG, "IPv6 fragment header"},
		{{0, 1, 0, 0, 0, 0, 0}, 0, RTE_PTYPE_L2_ETHER_VLAN, "VLAN ARP"},
	};
	const uint64_t vmask = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	const uint64_t cmask = RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK;
	static uint8_t f[RTE_DIM(t)][1600];
	uint16_t len[RTE_DIM(t)], l2;
	struct rte_mbuf *m[RTE_DIM(t)];
	unsigned int i, n, round;
	uint32_t set[16];

	CHECK(port_setup(0, 0) == 0, "port setup");
	for (round = 0; round < 3; round++) {
		/* round 1: packet types off; round 2: on again with a mask */
		if (round == 1)
			CHECK(rte_eth_dev_set_ptypes(port, RTE_PTYPE_UNKNOWN, NULL, 0) == 0,
				"set_ptypes(UNKNOWN)");
		if (round == 2)
			CHECK(rte_eth_dev_set_ptypes(port, RTE_PTYPE_L3_MASK | RTE_PTYPE_L4_MASK,
				      set, RTE_DIM(set)) == 0 &&
					set[0] == RTE_PTYPE_L3_IPV4_EXT_UNKNOWN,
				"set_ptypes(L3|L4): first 0x%x", set[0]);
		for (i = 0; i < RTE_DIM(t); i++) {
			len[i] = mk_rx_frame(f[i], &t[i].s, i, &l2);
			if (t[i].bad_ip)
				f[i][l2 + 8] ^= 1; /* TTL */
		}
		n = rx_frames(f, len, RTE_DIM(t), m);
		for (i = 0; i < n; i++) {
			uint32_t want = round == 1 ? RTE_PTYPE_L2_ETHER : t[i].pt;
			int tagged = t[i].s.vlan;

			CHECK(m[i]->packet_type == want, "round %u %s: packet_type 0x%x, want 0x%x",
				round, t[i].what, m[i]->packet_type, want);
			if (round == 0)
				CHECK(ptype_listed(t[i].pt), "%s: 0x%x in the supported list",
					t[i].what, t[i].pt);
			CHECK((m[i]->ol_flags & cmask) == 0, "%s: no checksum flags", t[i].what);
			/* The VLAN flag comes with the descriptor reads, off in round 1. */
			CHECK((m[i]->ol_flags & vmask) ==
					(tagged && round != 1 ? RTE_MBUF_F_RX_VLAN : 0),
				"round %u %s: VLAN flags 0x%" PRIx64, round, t[i].what,
				m[i]->ol_flags & vmask);
			if (tagged && round != 1)
				CHECK(m[i]->vlan_tci == 0x2009, "%s: TCI 0x%x", t[i].what,
					m[i]->vlan_tci);
			CHECK(m[i]->pkt_len == len[i] && memcmp(rte_pktmbuf_mtod(m[i], uint8_t *),
								 f[i], len[i]) == 0,
				"%s: frame as sent (tag kept)", t[i].what);
		}
		rte_pktmbuf_free_bulk(m, n);
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * VLAN_STRIP: the tag comes off (in software, on the descriptor's bit),
 * RX_VLAN|RX_VLAN_STRIPPED and the TCI set, the rest of the frame intact,
 * packet type without the tag; an untagged frame untouched. Turned off at
 * run time with rte_eth_dev_set_vlan_offload: the tag stays, RX_VLAN only.
 * With RX checksum offloads too: a stripped frame's flags are right.
 */
static void
case_rx_vlan_strip(void)
{
	const struct frame_spec tag = {IPPROTO_UDP, 1, 0, 0, 80, 0, 0};
	const struct frame_spec untag = {IPPROTO_TCP, 0, 0, 0, 80, 0, 0};
	const uint64_t vmask = RTE_MBUF_F_RX_VLAN | RTE_MBUF_F_RX_VLAN_STRIPPED;
	const uint64_t good = RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD;
	const uint64_t cmask = RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK;
	static uint8_t f[2][1600];
	struct rte_eth_dev_info info;
	struct rte_mbuf *m[2];
	uint16_t len[2], l2;
	unsigned int round;

	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
			(info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_VLAN_STRIP),
		"VLAN strip capa");
	CHECK(port_setup(0, RTE_ETH_RX_OFFLOAD_VLAN_STRIP | RTE_ETH_RX_OFFLOAD_CHECKSUM) == 0,
		"port setup");
	{
		struct rte_eth_rxq_info qi;

		CHECK(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 &&
				(qi.conf.offloads & RTE_ETH_RX_OFFLOAD_VLAN_STRIP),
			"rxq_info shows VLAN strip");
	}
	for (round = 0; round < 2; round++) {
		if (round == 1)
			CHECK(rte_eth_dev_set_vlan_offload(port, 0) == 0 &&
					!(rte_eth_dev_get_vlan_offload(port) &
						RTE_ETH_VLAN_STRIP_OFFLOAD),
				"strip off at run time");
		len[0] = mk_rx_frame(f[0], &tag, 1, &l2);
		len[1] = mk_rx_frame(f[1], &untag, 2, &l2);
		if (rx_frames(f, len, 2, m) != 2)
			continue;
		CHECK((m[0]->ol_flags & cmask) == good && (m[1]->ol_flags & cmask) == good,
			"round %u: checksum flags 0x%" PRIx64 " 0x%" PRIx64, round,
			m[0]->ol_flags & cmask, m[1]->ol_flags & cmask);
		CHECK(m[0]->vlan_tci == 0x2009, "TCI 0x%x", m[0]->vlan_tci);
		if (round == 0) {
			CHECK((m[0]->ol_flags & vmask) == vmask, "stripped: flags 0x%" PRIx64,
				m[0]->ol_flags);
			CHECK(m[0]->pkt_len == len[0] - 4u && m[0]->data_len == len[0] - 4u &&
					memcmp(rte_pktmbuf_mtod(m[0], uint8_t *), f[0], 12) == 0 &&
					memcmp(rte_pktmbuf_mtod(m[0], uint8_t *) + 12, f[0] + 16,
						len[0] - 16) == 0,
				"the tag is gone, the rest intact (%u bytes)", m[0]->pkt_len);
			CHECK(m[0]->packet_type ==
					(RTE_PTYPE_L2_ETHER | RTE_PTYPE_L3_IPV4_EXT_UNKNOWN |
						RTE_PTYPE_L4_UDP),
				"stripped packet_type 0x%x", m[0]->packet_type);
		} else {
			CHECK((m[0]->ol_flags & vmask) == RTE_MBUF_F_RX_VLAN &&
					m[0]->pkt_len == len[0] &&
					memcmp(rte_pktmbuf_mtod(m[0], uint8_t *), f[0], len[0]) ==
						0,
				"not stripped: RX_VLAN, tag kept (flags 0x%" PRIx64 ")",
				m[0]->ol_flags);
		}
		CHECK((m[1]->ol_flags & vmask) == 0 && m[1]->pkt_len == len[1] &&
				memcmp(rte_pktmbuf_mtod(m[1], uint8_t *), f[1], len[1]) == 0,
			"untagged frame untouched");
		rte_pktmbuf_free_bulk(m, 2);
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Legacy BDs: L2_ETHER only, listed alone; no VLAN flag or strip capa. */
static void
case_rx_legacy(void)
{
	const struct frame_spec tag = {IPPROTO_UDP, 1, 0, 0, 80, 0, 0};
	struct rte_eth_dev_info info;
	uint32_t list[8];
	static uint8_t f[1][1600];
	struct rte_mbuf *m[1];
	uint16_t len[1], l2;
	int n;

	CHECK(rte_eth_dev_info_get(port, &info) == 0 &&
			info.rx_offload_capa == RTE_ETH_RX_OFFLOAD_SCATTER,
		"legacy: no RX offload capa but scatter (0x%" PRIx64 ")", info.rx_offload_capa);
	n = rte_eth_dev_get_supported_ptypes(port, RTE_PTYPE_ALL_MASK, list, RTE_DIM(list));
	CHECK(n == 1 && list[0] == RTE_PTYPE_L2_ETHER, "supported ptypes: %d", n);
	CHECK(rte_eth_dev_configure(port, 1, 1,
		      &(struct rte_eth_conf){.rxmode.offloads = RTE_ETH_RX_OFFLOAD_VLAN_STRIP}) < 0,
		"configure with VLAN strip refused");
	CHECK(port_setup(0, 0) == 0, "port setup");
	len[0] = mk_rx_frame(f[0], &tag, 1, &l2);
	if (rx_frames(f, len, 1, m) == 1) {
		CHECK(m[0]->packet_type == RTE_PTYPE_L2_ETHER && m[0]->ol_flags == 0 &&
				m[0]->vlan_tci == 0,
			"legacy: L2_ETHER, no flags (0x%x, 0x%" PRIx64 ")", m[0]->packet_type,
			m[0]->ol_flags);
		rte_pktmbuf_free(m[0]);
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

static const struct fec_case cases[] = {
	{"tx_csum", "", .fn = case_tx_csum},
	{"tx_prepare", "", .fn = case_tx_prepare},
	{"tx_csum_off", "", .fn = case_tx_csum_off},
	{"tx_csum_legacy", ",bd=legacy", .fn = case_tx_csum_legacy},
	{"rx_ptype", "", .fn = case_rx_ptype},
	{"rx_vlan_strip", "", .fn = case_rx_vlan_strip},
	{"rx_legacy", ",bd=legacy", .fn = case_rx_legacy},
};

FEC_CASES_MAIN(cases, .tag = "fecoff", .log_level = "*:error", .nb_mbuf = NB_MBUF)
