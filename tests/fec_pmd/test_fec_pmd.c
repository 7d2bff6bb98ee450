/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec against its model. One EAL per case (argv[1] names it); the model is
 * stepped by the test, so every outcome is deterministic. Prints TAP.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcap/pcap.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_eth_ring.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_model.h"
#include "fec_regs.h"

#define NB_MBUF       2048
#define ETH_TYPE_TEST 0x88B5

static const uint8_t peer_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};
/* What the driver gives port 0 before the test can ask (pcap wire input). */
static const uint8_t fec0_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};
static const uint8_t foreign_mac[6] = {0x02, 0x99, 0x88, 0x77, 0x66, 0x55};
static char pcap_in[96], pcap_out[96];
static int autostep;
static struct rte_ether_addr port_mac;

/* Frame: dst, src, test ethertype, 32-bit sequence, then a pattern from it. */
static uint16_t
mkframe(uint8_t *f, const uint8_t *dst, uint32_t seq, uint16_t len)
{
	uint16_t i;

	memcpy(f, dst, 6);
	memcpy(f + 6, peer_mac, 6);
	f[12] = ETH_TYPE_TEST >> 8;
	f[13] = ETH_TYPE_TEST & 0xFF;
	memcpy(f + 14, &seq, 4);
	for (i = 18; i < len; i++)
		f[i] = (uint8_t)(seq + i);
	return len;
}

static struct rte_mbuf *
mkmbuf(const uint8_t *dst, uint32_t seq, uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

	if (m == NULL)
		return NULL;
	mkframe(rte_pktmbuf_mtod(m, uint8_t *), dst, seq, len);
	m->data_len = len;
	m->pkt_len = len;
	return m;
}

static int
frame_ok(const uint8_t *f, uint16_t flen, const uint8_t *dst, uint32_t seq, uint16_t len)
{
	uint8_t exp[FEC_MODEL_FRAME_MAX];

	mkframe(exp, dst, seq, len);
	return flen == len && memcmp(f, exp, len) == 0;
}

static int
inject(const uint8_t *dst, uint32_t seq, uint16_t len)
{
	uint8_t f[FEC_MODEL_FRAME_MAX];

	mkframe(f, dst, seq, len);
	return fec_model_rx_frame(model, f, len);
}

static int
port_setup(uint16_t nb_rxd, uint16_t nb_txd)
{
	struct rte_eth_conf conf;
	int ret;

	memset(&conf, 0, sizeof(conf));
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, nb_rxd, 0, NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, nb_txd, 0, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		ret = rte_eth_macaddr_get(port, &port_mac);
	return ret;
}

static int
find_write(const struct fec_reg_write *log, unsigned int n, unsigned int from, uint32_t off)
{
	unsigned int i;

	for (i = from; i < n; i++)
		if (log[i].off == off)
			return (int)i;
	return -1;
}

/*
 * Probe-time reset values, then the start sequence in Linux fec_restart order
 * (EN1588 with the enhanced descriptors, not with bd=legacy).
 */
static void
case_init(const struct fec_case *c)
{
	const int enhanced = strstr(c->devargs, "bd=legacy") == NULL;
	static const uint32_t order[] = {FEC_ECR, FEC_PALR, FEC_PAUR, FEC_EIR, FEC_RDSR, FEC_MRBR,
		FEC_TDSR, FEC_TCR, FEC_MSCR, FEC_RACC, FEC_FTRL, FEC_RCR, FEC_GAUR, FEC_GALR,
		FEC_TFWR, FEC_MIBC, FEC_ECR, FEC_RDAR, FEC_EIMR};
	struct fec_reg_write log[256];
	unsigned int n, i;
	int pos = 0;
	uint32_t ecr, rcr, bus;
	size_t len;

	CHECK(reg(FEC_RCR) == FEC_RCR_RESET_VAL, "RCR after reset 0x%08x", reg(FEC_RCR));
	CHECK(reg(FEC_FTRL) == FEC_FTRL_RESET_VAL, "FTRL after reset 0x%x", reg(FEC_FTRL));
	CHECK((reg(FEC_PAUR) & 0xFFFF) == FEC_PAUR_TYPE, "PAUR type 0x%x", reg(FEC_PAUR));
	CHECK(reg(FEC_MIBC) == FEC_MIBC_RESET_VAL, "MIBC 0x%08x", reg(FEC_MIBC));
	CHECK(!(reg(FEC_ECR) & FEC_ECR_ETHEREN), "disabled before start");
	fec_model_clear_log(model);
	CHECK(port_setup(512, 512) == 0, "port setup");
	n = fec_model_write_log(model, log, RTE_DIM(log));
	CHECK(n > 0 && n <= RTE_DIM(log), "%u writes", n);
	for (i = 0; i < RTE_DIM(order) && pos >= 0; i++) {
		pos = find_write(log, n, pos == 0 && i == 0 ? 0 : (unsigned int)pos + 1, order[i]);
		CHECK(pos >= 0, "write %u (reg 0x%03x) missing or out of order", i, order[i]);
	}
	pos = find_write(log, n, 0, FEC_ECR);
	CHECK(pos >= 0 && log[pos].val == 0, "restart begins with ECR=0 (imx8mm)");
	pos = find_write(log, n, (unsigned int)pos, FEC_EIR);
	CHECK(pos >= 0 && log[pos].val == ~FEC_EIR_MII, "then EIR acks all but MII");
	fec_model_bd_area(model, &bus, &len);
	CHECK(reg(FEC_TDSR) == bus, "TDSR 0x%08x", reg(FEC_TDSR));
	CHECK(reg(FEC_RDSR) == bus + len / 6, "RDSR 0x%08x", reg(FEC_RDSR));
	CHECK(reg(FEC_MRBR) % 16 == 0 && reg(FEC_MRBR) >= 1986, "MRBR %u", reg(FEC_MRBR));
	ecr = reg(FEC_ECR);
	CHECK((ecr & (FEC_ECR_ETHEREN | FEC_ECR_DBSWP | FEC_ECR_SPEED)) ==
			(FEC_ECR_ETHEREN | FEC_ECR_DBSWP | FEC_ECR_SPEED),
		"ECR 0x%08x", ecr);
	CHECK(!!(ecr & FEC_ECR_EN1588) == enhanced, "EN1588 follows bd= (ECR 0x%08x)", ecr);
	rcr = reg(FEC_RCR);
	CHECK((rcr >> 16 & 0x3FFF) == 1522, "MAX_FL %u", rcr >> 16 & 0x3FFF);
	CHECK((rcr & FEC_RCR_MII_MODE) && !(rcr & FEC_RCR_LOOP) && !(rcr & FEC_RCR_PROM),
		"RCR 0x%08x", rcr);
	CHECK(reg(FEC_TCR) == FEC_TCR_FDEN, "TCR 0x%x", reg(FEC_TCR));
	CHECK(reg(FEC_RACC) & FEC_RACC_SHIFT16, "SHIFT16");
	CHECK(reg(FEC_TFWR) & FEC_TFWR_STRFWD, "store and forward");
	CHECK(reg(FEC_RDAR) & FEC_DAR_ACTIVE, "RDAR armed");
	CHECK(reg(FEC_PALR) == 0x020000FEu && (reg(FEC_PAUR) >> 16) == (0xC000u | port),
		"station address %08x %08x", reg(FEC_PALR), reg(FEC_PAUR));
	CHECK(rte_mempool_avail_count(pool) == NB_MBUF - 512, "512 RX buffers posted");
	/* Stop: graceful stop, then the MAC is off and the doorbells clear. */
	fec_model_clear_log(model);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	n = fec_model_write_log(model, log, RTE_DIM(log));
	CHECK(find_write(log, n, 0, FEC_TCR) >= 0 &&
			(log[find_write(log, n, 0, FEC_TCR)].val & FEC_TCR_GTS),
		"stop begins with TCR.GTS");
	CHECK(!(reg(FEC_ECR) & FEC_ECR_ETHEREN), "ETHEREN off after stop");
	CHECK(reg(FEC_RDAR) == 0 && reg(FEC_TDAR) == 0, "doorbells clear after stop");
	check_no_leak("after stop");
	check_clean();
}

static void
tx_and_check(unsigned int n, uint16_t len, uint32_t seq0)
{
	struct rte_mbuf *m[FEC_RING_MAX];
	uint8_t f[FEC_MODEL_FRAME_MAX];
	unsigned int i, sent = 0, ok = 0;
	int flen;

	for (i = 0; i < n; i++)
		m[i] = mkmbuf(peer_mac, seq0 + i, len);
	while (sent < n) {
		uint16_t k = rte_eth_tx_burst(port, 0, m + sent, (uint16_t)(n - sent));

		sent += k;
		if (k == 0)
			step_all();
	}
	step_all();
	for (i = 0; i < n; i++) {
		flen = fec_model_tx_frame(model, f, sizeof(f));
		ok += flen >= 0 && frame_ok(f, (uint16_t)flen, peer_mac, seq0 + i, len);
	}
	CHECK(ok == n, "TX burst %u x %u: %u frames correct", n, len, ok);
	CHECK(fec_model_tx_frame(model, f, sizeof(f)) == -ENOENT, "no extra TX frame");
}

static void
rx_and_check(unsigned int n, uint16_t len, uint32_t seq0)
{
	struct rte_mbuf *m[FEC_RING_MAX];
	unsigned int i, got, ok = 0;

	for (i = 0; i < n; i++)
		inject(port_mac.addr_bytes, seq0 + i, len);
	step_all();
	got = fec_test_rx_all(m, n);
	for (i = 0; i < got; i++)
		ok += m[i]->nb_segs == 1 && m[i]->port == port &&
		      frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len,
			      port_mac.addr_bytes, seq0 + i, len);
	CHECK(got == n && ok == n, "RX burst %u x %u: got %u, %u correct", n, len, got, ok);
	fec_test_free_all(m, got);
}

static void
case_frames(void)
{
	static const unsigned int sizes[] = {1, 2, 7, 31, 32, 33, 64, 100, 255, 256, 511, 512};
	uint8_t f[FEC_MODEL_FRAME_MAX];
	uint32_t seq = 1000;
	unsigned int i;
	int flen;

	CHECK(port_setup(512, 512) == 0, "port setup");
	/* Single frames, short ones padded to 60 by the MAC. */
	tx_and_check(1, 60, seq++);
	tx_and_check(1, 1514, seq++);
	rx_and_check(1, 60, seq++);
	rx_and_check(1, 1514, seq++);
	{
		struct rte_mbuf *m = mkmbuf(peer_mac, 7, 42);

		CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "short frame taken");
		step_all();
		flen = fec_model_tx_frame(model, f, sizeof(f));
		CHECK(flen == 60 && f[59] == 0, "42-byte frame padded to %d", flen);
	}
	/* Bursts of every interesting size, both ways; the running sum wraps the rings. */
	for (i = 0; i < RTE_DIM(sizes); i++) {
		tx_and_check(sizes[i], (uint16_t)(64 + 13 * i), seq);
		rx_and_check(sizes[i], (uint16_t)(64 + 17 * i), seq);
		seq += sizes[i];
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* An IPv4 frame to the port (proto 6/17, or 0x0806 ARP when proto == 0). */
static uint16_t
mk_ip_frame(uint8_t *f, uint8_t proto)
{
	struct rte_ether_hdr *eh = (struct rte_ether_hdr *)f;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eh + 1);
	uint16_t l4 = proto == IPPROTO_TCP ? 20 : 8, plen = 18;

	memset(f, 0, 128);
	rte_ether_addr_copy(&port_mac, &eh->dst_addr);
	memcpy(&eh->src_addr, peer_mac, 6);
	if (proto == 0) {
		eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_ARP);
		return 60;
	}
	eh->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = 0x45;
	ip->total_length = rte_cpu_to_be_16((uint16_t)(20 + l4 + plen));
	ip->time_to_live = 64;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(0x0A000001);
	ip->dst_addr = rte_cpu_to_be_32(0x0A000002);
	memset((uint8_t *)(ip + 1) + l4, 0xA5, plen);
	if (proto == IPPROTO_UDP) {
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)(ip + 1);

		u->src_port = rte_cpu_to_be_16(1000);
		u->dst_port = rte_cpu_to_be_16(2000);
		u->dgram_len = rte_cpu_to_be_16((uint16_t)(l4 + plen));
		u->dgram_cksum = rte_ipv4_udptcp_cksum(ip, u);
	} else {
		struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)(ip + 1);

		t->src_port = rte_cpu_to_be_16(1000);
		t->dst_port = rte_cpu_to_be_16(2000);
		t->data_off = 5 << 4;
		t->cksum = rte_ipv4_udptcp_cksum(ip, t);
	}
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	return (uint16_t)(14 + 20 + l4 + plen);
}

/*
 * The model's enhanced RX descriptor reports checksum errors: ICE for a bad
 * IPv4 header, PCR for a bad TCP/UDP checksum, neither for good frames nor
 * for a non-IP one. Read from the BDs before rx_burst recycles them.
 */
static void
rx_csum_round(int offload)
{
	static const struct {
		uint8_t proto;
		int corrupt; /* 0 none, 1 IP header, 2 L4 payload */
		uint32_t want;
		uint64_t flags;
	} t[] = {
		{IPPROTO_UDP, 0, 0, RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD},
		{IPPROTO_TCP, 0, 0, RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_GOOD},
		/* A bad IP header: its protocol field is not trusted, no L4 verdict. */
		{IPPROTO_UDP, 1, FEC_BD_EX_RX_ICE, RTE_MBUF_F_RX_IP_CKSUM_BAD},
		{IPPROTO_UDP, 2, FEC_BD_EX_RX_PCR,
			RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_BAD},
		{IPPROTO_TCP, 2, FEC_BD_EX_RX_PCR,
			RTE_MBUF_F_RX_IP_CKSUM_GOOD | RTE_MBUF_F_RX_L4_CKSUM_BAD},
		{0, 0, 0, 0},
	};
	const uint64_t mask = RTE_MBUF_F_RX_IP_CKSUM_MASK | RTE_MBUF_F_RX_L4_CKSUM_MASK;
	struct rte_eth_conf conf;
	struct rte_mbuf *pk[8];
	uint8_t f[128], *bd;
	uint32_t bus, rdsr, esc;
	size_t len;
	unsigned int i;
	uint16_t n, flen;

	memset(&conf, 0, sizeof(conf));
	if (offload)
		conf.rxmode.offloads = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM |
				       RTE_ETH_RX_OFFLOAD_UDP_CKSUM | RTE_ETH_RX_OFFLOAD_TCP_CKSUM;
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure (offload %d)", offload);
	CHECK(rte_eth_rx_queue_setup(port, 0, 64, 0, NULL, pool) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, 64, 0, NULL) == 0, "txq");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	CHECK(rte_eth_macaddr_get(port, &port_mac) == 0, "mac");
	bd = fec_model_bd_area(model, &bus, &len);
	rdsr = reg(FEC_RDSR);
	for (i = 0; i < RTE_DIM(t); i++) {
		flen = mk_ip_frame(f, t[i].proto);
		if (t[i].corrupt == 1)
			f[14 + 8] ^= 1; /* TTL */
		else if (t[i].corrupt == 2)
			f[flen - 1] ^= 0x10;
		CHECK(fec_model_rx_frame(model, f, flen) == 0, "frame %u in", i);
	}
	step_all();
	for (i = 0; i < RTE_DIM(t); i++) {
		esc = rte_le_to_cpu_32((
			(volatile struct fec_bd_ex *)(bd + (rdsr - bus) + i * FEC_BD_SIZE_ENHANCED))
					       ->esc);
		CHECK((esc & (FEC_BD_EX_RX_ICE | FEC_BD_EX_RX_PCR)) == t[i].want,
			"frame %u: ESC 0x%08x, want ICE/PCR 0x%x", i, esc, t[i].want);
	}
	n = rte_eth_rx_burst(port, 0, pk, RTE_DIM(pk));
	CHECK(n == RTE_DIM(t), "%u frames received", n);
	for (i = 0; i < n && i < RTE_DIM(t); i++)
		CHECK((pk[i]->ol_flags & mask) == (offload ? t[i].flags : 0),
			"offload %d frame %u: ol_flags 0x%" PRIx64, offload, i, pk[i]->ol_flags);
	rte_pktmbuf_free_bulk(pk, n);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
}

/*
 * The model's enhanced RX descriptor reports checksum errors (ICE for a bad
 * IPv4 header, PCR for bad TCP/UDP), read from the BDs before rx_burst
 * recycles them; the PMD turns them into GOOD/BAD mbuf flags only when the
 * offloads are configured (nothing for a non-IP frame), and advertises them.
 */
static void
case_rx_csum_esc(void)
{
	struct rte_eth_dev_info info;

	CHECK(rte_eth_dev_info_get(port, &info) == 0, "info");
	CHECK((info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_CHECKSUM) == RTE_ETH_RX_OFFLOAD_CHECKSUM,
		"RX checksum capa 0x%" PRIx64, info.rx_offload_capa);
	rx_csum_round(0);
	rx_csum_round(1);
	check_clean();
}

/* RX ring exhausted: RDAR clears, frames count as missed; refill re-arms. */
static void
case_ring_full(void)
{
	struct rte_mbuf *m[FEC_RING_MAX + 100];
	struct rte_eth_stats st;
	unsigned int i, got, sent;
	uint64_t drops;

	CHECK(port_setup(128, 128) == 0, "port setup");
	for (i = 0; i < 150; i++)
		inject(port_mac.addr_bytes, i, 100);
	step_all();
	drops = fec_model_drops(model, NULL);
	CHECK(drops == 22, "%" PRIu64 " frames dropped for lack of BDs (want 22)", drops);
	CHECK(!(reg(FEC_RDAR) & FEC_DAR_ACTIVE), "RDAR cleared by the MAC on a full ring");
	got = rte_eth_rx_burst(port, 0, m, 16);
	CHECK(got == 16, "got %u", got);
	CHECK(reg(FEC_RDAR) & FEC_DAR_ACTIVE, "RDAR re-armed after refill");
	for (i = 0; i < 10; i++)
		inject(port_mac.addr_bytes, 1000 + i, 100);
	step_all();
	CHECK(fec_model_drops(model, NULL) == drops, "no drop once re-armed");
	got += fec_test_rx_all(m + got, RTE_DIM(m) - got);
	CHECK(got == 138, "received %u of 128 + 10", got);
	CHECK(frame_ok(rte_pktmbuf_mtod(m[128], uint8_t *), m[128]->pkt_len, port_mac.addr_bytes,
		      1000, 100),
		"first frame after re-arm");
	fec_test_free_all(m, got);
	rte_eth_stats_get(port, &st);
	CHECK(st.imissed == 22 && st.ipackets == 138, "imissed %" PRIu64 " ipackets %" PRIu64,
		st.imissed, st.ipackets);
	/* TX: a full ring is back-pressure, not an error. */
	for (i = 0; i < 200; i++)
		m[i] = mkmbuf(peer_mac, i, 80);
	sent = rte_eth_tx_burst(port, 0, m, 200);
	CHECK(sent == 128, "TX took %u of 200 into a 128 ring", sent);
	CHECK(rte_eth_tx_burst(port, 0, m + sent, 200 - sent) == 0, "full ring takes nothing");
	step_all();
	sent += rte_eth_tx_burst(port, 0, m + sent, 200 - sent);
	CHECK(sent == 200, "after completion the rest went: %u", sent);
	step_all();
	rte_eth_stats_get(port, &st);
	CHECK(st.oerrors == 0 && st.opackets == 200, "oerrors %" PRIu64 " opackets %" PRIu64,
		st.oerrors, st.opackets);
	while (fec_model_tx_frame(model, m, 0) >= 0)
		;
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* RX allocation failure: the frame stays in the ring and rx_nombuf counts it. */
static void
case_nombuf(void)
{
	struct rte_mbuf *hold[NB_MBUF], *m[64];
	struct rte_eth_stats st;
	unsigned int nhold = 0, got = 0, i;
	uint16_t k;

	CHECK(port_setup(256, 64) == 0, "port setup");
	/* Leave exactly 10 free mbufs. */
	while (rte_mempool_avail_count(pool) > 10)
		hold[nhold++] = rte_pktmbuf_alloc(pool);
	for (i = 0; i < 40; i++)
		inject(port_mac.addr_bytes, i, 128);
	step_all();
	k = rte_eth_rx_burst(port, 0, m, 64);
	CHECK(k == 10, "burst stopped at the 10 mbufs left: %u", k);
	rte_eth_stats_get(port, &st);
	CHECK(st.rx_nombuf == 1, "rx_nombuf %" PRIu64, st.rx_nombuf);
	CHECK(rte_eth_rx_burst(port, 0, m + k, 64) == 0, "nothing while the pool is empty");
	fec_test_free_all(m, k);
	fec_test_free_all(hold, nhold);
	got = fec_test_rx_all(m, 30);
	CHECK(got == 30, "the other 30 arrive once mbufs are back: %u", got);
	for (i = 0; i < got; i++)
		CHECK(frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len,
			      port_mac.addr_bytes, 10 + i, 128),
			"frame %u in order", i);
	fec_test_free_all(m, got);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Stop with frames in flight both ways, start again, repeatedly. */
static void
case_startstop(void)
{
	struct rte_mbuf *m[100];
	unsigned int round, i;

	CHECK(port_setup(256, 256) == 0, "port setup");
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 100; i++)
			m[i] = mkmbuf(peer_mac, i, 200);
		CHECK(rte_eth_tx_burst(port, 0, m, 100) == 100, "round %u: TX queued", round);
		for (i = 0; i < 50; i++)
			inject(port_mac.addr_bytes, i, 200);
		fec_model_step(model, 20); /* part of it moved, part in flight */
		CHECK(rte_eth_dev_stop(port) == 0, "stop");
		check_no_leak("stop with traffic in flight");
		CHECK(rte_eth_dev_start(port) == 0, "start after stop");
		while (fec_model_tx_frame(model, m, 0) >= 0)
			;
		step_all();
		/* The injected frames not yet taken were dropped while the MAC was off. */
		fec_test_free_all(m, fec_test_rx_all(m, 100));
		tx_and_check(10, 300, 5000 + round);
		rx_and_check(10, 300, 6000 + round);
	}
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("end");
	check_clean();
}

static unsigned int
rx_count(const uint8_t *dst, unsigned int n)
{
	struct rte_mbuf *m[64];
	unsigned int i, got;

	for (i = 0; i < n; i++)
		inject(dst, i, 64);
	step_all();
	got = fec_test_rx_all(m, 64);
	fec_test_free_all(m, got);
	return got;
}

static void
case_filters(void)
{
	static const uint8_t other[6] = {0x02, 0x99, 0x99, 0x99, 0x99, 0x99};
	static const uint8_t bcast[6] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
	/* Bins computed independently (Python, Linux's ether_crc_le() >> 26). */
	static struct rte_ether_addr mc[2] = {
		{{0x01, 0x00, 0x5E, 0x00, 0x00, 0x01}}, /* bin 54 */
		{{0x33, 0x33, 0x00, 0x00, 0x00, 0x01}}, /* bin 23 */
	};
	static const uint8_t mc_other[6] = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x00}; /* bin 58 */
	struct rte_ether_addr newmac = {{0x02, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE}};

	CHECK(port_setup(128, 128) == 0, "port setup");
	CHECK(rx_count(port_mac.addr_bytes, 3) == 3, "own unicast");
	CHECK(rx_count(other, 3) == 0, "foreign unicast filtered");
	CHECK(rx_count(bcast, 3) == 3, "broadcast");
	CHECK(rx_count(mc[0].addr_bytes, 3) == 0, "multicast not in the list filtered");
	CHECK(rte_eth_promiscuous_enable(port) == 0, "promisc on");
	CHECK(reg(FEC_RCR) & FEC_RCR_PROM, "RCR.PROM");
	CHECK(rx_count(other, 3) == 3, "foreign unicast in promisc");
	CHECK(rte_eth_promiscuous_disable(port) == 0, "promisc off");
	CHECK(rx_count(other, 3) == 0, "foreign unicast filtered again");
	CHECK(rte_eth_dev_set_mc_addr_list(port, mc, 2) == 0, "mc list");
	CHECK(reg(FEC_GAUR) == (1u << (54 - 32)) && reg(FEC_GALR) == (1u << 23),
		"hash GAUR %08x GALR %08x", reg(FEC_GAUR), reg(FEC_GALR));
	CHECK(rx_count(mc[0].addr_bytes, 3) == 3, "listed multicast");
	CHECK(rx_count(mc[1].addr_bytes, 3) == 3, "listed multicast 2");
	CHECK(rx_count(mc_other, 3) == 0, "unlisted multicast filtered");
	CHECK(rte_eth_allmulticast_enable(port) == 0, "allmulti on");
	CHECK(rx_count(mc_other, 3) == 3, "any multicast with allmulti");
	CHECK(rte_eth_allmulticast_disable(port) == 0, "allmulti off");
	CHECK(rx_count(mc_other, 3) == 0, "unlisted multicast filtered again");
	CHECK(rx_count(mc[0].addr_bytes, 3) == 3, "list kept across allmulti");
	CHECK(rte_eth_dev_default_mac_addr_set(port, &newmac) == 0, "MAC set");
	CHECK(rx_count(newmac.addr_bytes, 3) == 3, "new MAC received");
	CHECK(rx_count(port_mac.addr_bytes, 3) == 0, "old MAC filtered");
	/* A restart reprograms the address the reset cleared. */
	CHECK(rte_eth_dev_stop(port) == 0 && rte_eth_dev_start(port) == 0, "restart");
	CHECK(rx_count(newmac.addr_bytes, 3) == 3, "new MAC after restart");
	CHECK(rx_count(mc[1].addr_bytes, 3) == 3, "mc list after restart");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

static unsigned int
rx_count_len(uint16_t len)
{
	struct rte_mbuf *m[4];
	unsigned int got;

	inject(port_mac.addr_bytes, len, len);
	step_all();
	got = fec_test_rx_all(m, 4);
	fec_test_free_all(m, got);
	return got;
}

/*
 * Ring slices of a UIO descriptor area: NXP's map1 of 1 MiB cut in six must
 * give naturally aligned ring bases (plain 1 MiB / 6 = 0x2AAAA is not even
 * 4-byte aligned: an alignment fault on a Device-memory mapping, the trap of
 * DPDK's net_enetfec), and the model's area keeps its 16 KiB slices.
 */
static void
case_bd_slice(void)
{
	static const size_t lens[] = {0x100000, 0x60000, FEC_BD_AREA_SIZE, 6 * 512 * 8, 1000};
	unsigned int i;

	for (i = 0; i < RTE_DIM(lens); i++) {
		size_t sl = fec_bd_slice_size(lens[i]);

		CHECK(sl % 64 == 0, "slice %#zx of %#zx not 64-byte aligned", sl, lens[i]);
		CHECK(sl * FEC_NB_SLICES <= lens[i], "slices of %#zx overrun it", lens[i]);
		CHECK(sl > lens[i] / FEC_NB_SLICES - (sl >= 4096 ? 4096 : 64),
			"slice %#zx of %#zx wastes too much", sl, lens[i]);
		if (sl >= 4096)
			CHECK(sl % 4096 == 0, "slice %#zx of %#zx not page aligned", sl, lens[i]);
	}
	CHECK(fec_bd_slice_size(0x100000) == 0x2A000, "1 MiB: slice %#zx",
		fec_bd_slice_size(0x100000));
	CHECK(fec_bd_slice_size(FEC_BD_AREA_SIZE) == FEC_RING_SLICE, "model area: slice %#zx",
		fec_bd_slice_size(FEC_BD_AREA_SIZE));
	check_clean();
}

static void
case_mtu(void)
{
	struct rte_eth_stats st;

	CHECK(port_setup(128, 128) == 0, "port setup");
	rte_eth_stats_reset(port);
	/* MAX_FL leaves room for one VLAN tag: a tagged full-MTU frame is 1518. */
	CHECK(rx_count_len(1518) == 1, "1518-byte frame at MTU 1500");
	CHECK(rx_count_len(1519) == 0, "1519-byte frame dropped at MTU 1500");
	rte_eth_stats_get(port, &st);
	CHECK(st.ierrors == 1, "oversize counted in ierrors: %" PRIu64, st.ierrors);
	CHECK(rte_eth_dev_set_mtu(port, 1000) == 0, "MTU 1000");
	CHECK((reg(FEC_RCR) >> 16 & 0x3FFF) == 1022, "MAX_FL %u", reg(FEC_RCR) >> 16 & 0x3FFF);
	CHECK(rx_count_len(1018) == 1, "1018 at MTU 1000");
	CHECK(rx_count_len(1019) == 0, "1019 dropped at MTU 1000");
	CHECK(rte_eth_dev_set_mtu(port, 3000) != 0, "MTU beyond one buffer refused");
	CHECK(rx_count_len(2100) == 0, "frame beyond FTRL truncated and dropped");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	CHECK(rte_eth_dev_start(port) == 0, "start keeps the MTU");
	CHECK((reg(FEC_RCR) >> 16 & 0x3FFF) == 1022, "MAX_FL %u", reg(FEC_RCR) >> 16 & 0x3FFF);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Basic stats and xstats from the MIB, deltas, 32-bit wrap, reset. */
static void
case_stats(void)
{
	struct rte_eth_xstat_name names[64];
	struct rte_eth_stats st;
	struct rte_mbuf *m[64];
	unsigned int i;
	int n;

	CHECK(port_setup(128, 128) == 0, "port setup");
	n = rte_eth_xstats_get_names(port, names, RTE_DIM(names));
	CHECK(n >= 53, "%d xstats", n);
	CHECK(xstat("rmon_r_packets") == 0 && xstat("ieee_t_octets_ok") == 0, "zero at start");
	tx_and_check(20, 100, 0);
	rx_and_check(30, 200, 0);
	rte_eth_stats_get(port, &st);
	CHECK(st.opackets == 20 && st.obytes == 20 * 100, "TX %" PRIu64 "/%" PRIu64, st.opackets,
		st.obytes);
	CHECK(st.ipackets == 30 && st.ibytes == 30 * 200, "RX %" PRIu64 "/%" PRIu64, st.ipackets,
		st.ibytes);
	CHECK(xstat("rmon_r_packets") == 30 && xstat("rmon_r_octets") == 30 * 204,
		"rmon_r %" PRIu64, xstat("rmon_r_octets"));
	CHECK(xstat("rmon_t_p65to127") == 20 && xstat("rmon_r_p128to255") == 30, "size bins");
	CHECK(rte_eth_stats_reset(port) == 0, "reset");
	rte_eth_stats_get(port, &st);
	CHECK(st.ipackets == 0 && st.opackets == 0 && xstat("rmon_r_packets") == 0,
		"zero after reset");
	/* The hardware counter wraps during the next burst; the 64-bit sum does not. */
	fec_model_mib_preset(model, FEC_MIB_OFF_ieee_r_frame_ok, 0xFFFFFFF0u);
	fec_model_mib_preset(model, FEC_MIB_OFF_rmon_r_packets, 0xFFFFFFF8u);
	rte_eth_stats_get(port, &st);
	rte_eth_stats_reset(port);
	rx_and_check(40, 64, 100);
	rte_eth_stats_get(port, &st);
	CHECK(fec_model_read32(model, FEC_MIB_OFF_ieee_r_frame_ok) == 24, "HW counter wrapped");
	CHECK(st.ipackets == 40, "ipackets across the wrap: %" PRIu64, st.ipackets);
	CHECK(xstat("rmon_r_packets") == 40, "xstat across the wrap");
	/* Broadcast and multicast counters. */
	for (i = 0; i < 5; i++)
		m[i] = mkmbuf((const uint8_t *)"\xff\xff\xff\xff\xff\xff", i, 64);
	CHECK(rte_eth_tx_burst(port, 0, m, 5) == 5, "bcast sent");
	step_all();
	while (fec_model_tx_frame(model, m, 0) >= 0)
		;
	CHECK(xstat("rmon_t_bc_pkt") == 5, "rmon_t_bc_pkt %" PRIu64, xstat("rmon_t_bc_pkt"));
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Wait for two alarm folds: the second began after this call. */
static int
wait_fold(void)
{
	uint64_t c = fec_mib_alarm_count();
	unsigned int ms;

	for (ms = 0; ms < 5000; ms++) {
		if (fec_mib_alarm_count() >= c + 2)
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * The alarm (mib_period_ms=1 here) folds the 32-bit MIB into 64 bits with no
 * stats read: two wraps between reads are exact. Stop and close disarm it.
 */
static void
case_mib_fold(void)
{
	const uint64_t step = 3000000000ull;
	uint64_t c, t_end, sum = 0;
	struct rte_eth_stats st;
	unsigned int k;

	CHECK(port_setup(128, 128) == 0, "port setup");
	CHECK(wait_fold() == 0, "alarm runs while started");
	rte_eth_stats_reset(port);
	/* 9e9 octets: the 32-bit register wraps twice; no stats read until the end. */
	rx_and_check(10, 64, 0);
	for (k = 0; k < 3; k++) {
		fec_model_mib_advance(model, FEC_MIB_OFF_ieee_r_octets_ok, (uint32_t)step);
		fec_model_mib_advance(model, FEC_MIB_OFF_rmon_t_octets, (uint32_t)step);
		CHECK(wait_fold() == 0, "fold %u", k);
	}
	rte_eth_stats_get(port, &st);
	CHECK(st.ipackets == 10 && st.ibytes == 3 * step + 10 * 64,
		"ibytes %" PRIu64 " expected %" PRIu64, st.ibytes, 3 * step + 10 * 64);
	CHECK(xstat("rmon_t_octets") == 3 * step, "rmon_t_octets %" PRIu64, xstat("rmon_t_octets"));
	/* Reads racing with the 1 ms alarm: every increment counted once. */
	rte_eth_stats_reset(port);
	c = fec_mib_alarm_count();
	t_end = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	for (k = 0; fec_mib_alarm_count() < c + 20 && rte_get_timer_cycles() < t_end; k++) {
		fec_model_mib_advance(model, FEC_MIB_OFF_ieee_t_octets_ok, 1000003u);
		sum += 1000003u;
		if (k % 2 == 0)
			rte_eth_stats_get(port, &st);
		else
			xstat("ieee_t_octets_ok");
	}
	CHECK(fec_mib_alarm_count() >= c + 20, "alarm ran during the reads");
	CHECK(xstat("ieee_t_octets_ok") == sum, "ieee_t_octets_ok %" PRIu64 " expected %" PRIu64,
		xstat("ieee_t_octets_ok"), sum);
	/* Stop disarms: nothing folds for 50 periods; start re-arms. */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	c = fec_mib_alarm_count();
	usleep(50 * 1000);
	CHECK(fec_mib_alarm_count() == c, "%" PRIu64 " folds after stop",
		fec_mib_alarm_count() - c);
	check_no_leak("after stop");
	CHECK(rte_eth_dev_start(port) == 0, "start again");
	CHECK(wait_fold() == 0, "alarm runs again after start");
	check_clean();
	/*
	 * ethdev closes only a stopped port; close disarms again in case. Nothing
	 * may run afterwards (under ASan a late callback reads freed memory).
	 */
	CHECK(rte_eth_dev_stop(port) == 0 && rte_eth_dev_close(port) == 0, "stop, close");
	c = fec_mib_alarm_count();
	usleep(50 * 1000);
	CHECK(fec_mib_alarm_count() == c, "%" PRIu64 " folds after close",
		fec_mib_alarm_count() - c);
	CHECK(fec_model_lookup("net_fec0") == NULL, "model freed by close");
	check_no_leak("after close");
}

/* Link from the PHY over MDIO; speed and duplex reach the MAC. */
static void
case_link(void)
{
	struct rte_eth_link l;

	CHECK(port_setup(64, 64) == 0, "port setup");
	CHECK(rte_eth_link_get_nowait(port, &l) == 0, "link get");
	CHECK(l.link_status == 1 && l.link_speed == 1000 && l.link_duplex == 1, "1G full: %u %u",
		l.link_speed, l.link_duplex);
	fec_model_phy_set_link(model, 1, 100, 1);
	rte_eth_link_get_nowait(port, &l);
	CHECK(l.link_status == 1 && l.link_speed == 100 && l.link_duplex == 1, "100 full: %u %u",
		l.link_speed, l.link_duplex);
	CHECK(!(reg(FEC_ECR) & FEC_ECR_SPEED) && (reg(FEC_ECR) & FEC_ECR_ETHEREN),
		"ECR.SPEED cleared, MAC running: 0x%08x", reg(FEC_ECR));
	fec_model_phy_set_link(model, 1, 10, 0);
	rte_eth_link_get_nowait(port, &l);
	CHECK(l.link_speed == 10 && l.link_duplex == 0, "10 half: %u %u", l.link_speed,
		l.link_duplex);
	CHECK((reg(FEC_RCR) & (FEC_RCR_RMII_10T | FEC_RCR_DRT)) ==
				(FEC_RCR_RMII_10T | FEC_RCR_DRT) &&
			!(reg(FEC_TCR) & FEC_TCR_FDEN),
		"RCR 0x%08x TCR 0x%x", reg(FEC_RCR), reg(FEC_TCR));
	rx_and_check(5, 100, 1);
	fec_model_phy_set_link(model, 0, 0, 0);
	rte_eth_link_get_nowait(port, &l);
	CHECK(l.link_status == 0, "link down");
	fec_model_phy_set_link(model, 1, 1000, 1);
	rte_eth_link_get_nowait(port, &l);
	CHECK(l.link_status == 1 && (reg(FEC_ECR) & FEC_ECR_SPEED), "back to 1G");
	tx_and_check(5, 100, 1);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* The model catches a driver that breaks the descriptor contract. */
static void
case_checker(void)
{
	volatile struct fec_bd *rx0, *tx0;
	uint8_t *bd;
	uint32_t bus, rdsr;
	size_t len;
	unsigned int v;

	CHECK(port_setup(64, 64) == 0, "port setup");
	check_clean();
	bd = fec_model_bd_area(model, &bus, &len);
	rdsr = reg(FEC_RDSR);
	rx0 = (volatile struct fec_bd *)(bd + (rdsr - bus));
	/* Writing a BD the MAC owns. */
	rx0->addr = rx0->addr + 64;
	fec_model_step(model, 1);
	v = fec_model_violations(model);
	CHECK(v == 1, "HW-owned BD write detected (%u): %s", v, fec_model_last_violation(model));
	/* A TX BD with an address outside every DMA window. */
	tx0 = (volatile struct fec_bd *)(bd + (reg(FEC_TDSR) - bus));
	tx0->addr = 0x1234;
	tx0->datlen = 60;
	tx0->sc = FEC_BD_R | FEC_BD_L | FEC_BD_TC;
	fec_model_write32(model, FEC_TDAR, 0);
	fec_model_step(model, 1);
	CHECK(fec_model_violations(model) == v + 1, "bad buffer address detected: %s",
		fec_model_last_violation(model));
	CHECK(strstr(fec_model_last_violation(model), "bad buffer") != NULL, "message");
	tx0->sc = 0;
	/* A ring without a wrap bit, found when the MAC is enabled. */
	rte_eth_dev_stop(port);
	v = fec_model_violations(model);
	memset(bd, 0, len);
	fec_model_write32(model, FEC_RDSR, rdsr);
	fec_model_write32(model, FEC_ECR, FEC_ECR_ETHEREN | FEC_ECR_DBSWP);
	CHECK(fec_model_violations(model) > v && strstr(fec_model_last_violation(model), "wrap"),
		"missing wrap bit detected: %s", fec_model_last_violation(model));
	/* Ring registers written while enabled. */
	v = fec_model_violations(model);
	fec_model_write32(model, FEC_MRBR, 1024);
	CHECK(fec_model_violations(model) == v + 1, "MRBR while enabled: %s",
		fec_model_last_violation(model));
	fec_model_write32(model, FEC_ECR, 0);
	check_no_leak("after stop");
}

/* Thread mode, external loopback: the model runs beside the test. */
static void
case_thread(void)
{
	const unsigned int total = 3000;
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	unsigned int sent = 0, got = 0, ok = 0, i, k;
	struct rte_mbuf *m[64];

	CHECK(port_setup(512, 512) == 0, "port setup");
	while (got < total && rte_get_timer_cycles() < deadline) {
		/*
		 * At most one RX ring of frames in flight: more could all reach the
		 * MAC while this thread is descheduled and overrun the RX ring (a
		 * drop the hardware would make too, not a driver fault).
		 */
		if (sent < total && sent - got + 32 <= 512) {
			unsigned int n = RTE_MIN(32u, total - sent);

			for (i = 0; i < n; i++)
				if ((m[i] = mkmbuf(port_mac.addr_bytes, sent + i, 128)) == NULL)
					break;
			n = i; /* the pool may be empty for a moment: mbufs in flight */
			k = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
			fec_test_free_all(m + k, n - k);
			sent += k;
		}
		k = rte_eth_rx_burst(port, 0, m, 64);
		for (i = 0; i < k; i++)
			ok += frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len,
				port_mac.addr_bytes, got + i, 128);
		got += k;
		fec_test_free_all(m, k);
	}
	CHECK(got == total && ok == total, "looped %u of %u, %u in order and intact", got, total,
		ok);
	CHECK(fec_model_drops(model, NULL) == 0, "no drops");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * TX reclaim while the MAC completes beside it (thread mode, RX not polled, so
 * only TX moves): a small ring keeps nearly every reclaim racing the MAC on its
 * last BD. The reclaim once scanned on past the frames in flight when the MAC
 * finished that BD mid-scan, and freed mbufs that were not there (a crash, or
 * BDs the MAC owned written: violations). Every frame put on the ring must
 * come back to the pool, none twice.
 */
static void
case_tx_reclaim_race(void)
{
	uint64_t deadline = rte_get_timer_cycles() + 2 * rte_get_timer_hz();
	unsigned int v = fec_model_violations(model), i, k, sent = 0, bursts = 0;
	char why[256] = "";
	struct rte_mbuf *m[32];
	struct rte_eth_stats st;
	uint64_t last;

	CHECK(port_setup(512, 64) == 0, "port setup");
	while (rte_get_timer_cycles() < deadline || bursts < 2000) {
		for (i = 0; i < 32; i++)
			if ((m[i] = mkmbuf(port_mac.addr_bytes, sent + i, 64)) == NULL)
				break;
		k = rte_eth_tx_burst(port, 0, m, (uint16_t)i);
		fec_test_free_all(m + k, i - k);
		sent += k;
		bursts++;
		if (fec_model_violations(model) != v)
			break;
	}
	CHECK(fec_model_violations(model) == v, "after %u frames: %s", sent,
		fec_model_last_violation(model));
	/*
	 * What is still on the ring goes out: wait until the MAC has sent it
	 * all, for as long as it makes progress (a busy machine is slow, not
	 * stuck); stuck, the model says whose side holds the frames.
	 */
	deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	last = 0;
	do {
		rte_eth_tx_done_cleanup(port, 0, 0);
		CHECK(rte_eth_stats_get(port, &st) == 0, "stats");
		if (st.opackets != last) {
			last = st.opackets;
			deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
		}
	} while (st.opackets < sent && rte_get_timer_cycles() < deadline);
	if (st.opackets != sent)
		fec_model_tx_stall(model, 0, why, sizeof(why));
	CHECK(st.opackets == sent, "the MAC sent %" PRIu64 " of %u frames: %s", st.opackets, sent,
		why);
	/* Hand-overs the uDMA caught as it went idle: the doorbells the guard skipped. */
	printf("# %" PRIu64 " BDs handed over as the MAC went idle, served without a doorbell\n",
		fec_model_tx_idle_races(model));
	CHECK(sent > 1000, "only %u frames sent", sent);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* rte_ring wire: a net_ring port (rte_eth_from_rings) on the other end of the cable. */
static void
case_wire_ring(void)
{
	const unsigned int total = 1000;
	struct rte_ring *to_mac = rte_ring_lookup("fw0_rx"), *from_mac = rte_ring_lookup("fw0_tx");
	uint64_t deadline = rte_get_timer_cycles() + 5 * rte_get_timer_hz();
	unsigned int sent_p = 0, sent_f = 0, got_p = 0, got_f = 0, ok_p = 0, ok_f = 0, i, k;
	struct rte_eth_stats st, stp;
	struct rte_eth_conf conf;
	struct rte_mbuf *m[64];
	int peer;

	CHECK(to_mac != NULL && from_mac != NULL, "wire rings exist");
	peer = rte_eth_from_rings("peer0", &from_mac, 1, &to_mac, 1, 0);
	CHECK(peer >= 0, "peer port");
	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(peer, 1, 1, &conf) == 0 &&
			rte_eth_rx_queue_setup(peer, 0, 256, 0, NULL, pool) == 0 &&
			rte_eth_tx_queue_setup(peer, 0, 256, 0, NULL) == 0 &&
			rte_eth_dev_start(peer) == 0,
		"peer up");
	CHECK(port_setup(512, 512) == 0, "port setup");
	while ((got_p < total || got_f < total) && rte_get_timer_cycles() < deadline) {
		if (sent_p < total) {
			unsigned int n = RTE_MIN(32u, total - sent_p);

			for (i = 0; i < n; i++)
				if ((m[i] = mkmbuf(port_mac.addr_bytes, sent_p + i, 100)) == NULL)
					break;
			n = i; /* the pool may be empty for a moment: mbufs in flight */
			k = rte_eth_tx_burst(peer, 0, m, (uint16_t)n);
			fec_test_free_all(m + k, n - k);
			sent_p += k;
		}
		if (sent_f < total) {
			unsigned int n = RTE_MIN(32u, total - sent_f);

			for (i = 0; i < n; i++)
				if ((m[i] = mkmbuf(peer_mac, sent_f + i, 200)) == NULL)
					break;
			n = i; /* the pool may be empty for a moment: mbufs in flight */
			k = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
			fec_test_free_all(m + k, n - k);
			sent_f += k;
		}
		k = rte_eth_rx_burst(port, 0, m, 64);
		for (i = 0; i < k; i++)
			ok_f += frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len,
				port_mac.addr_bytes, got_f + i, 100);
		got_f += k;
		fec_test_free_all(m, k);
		k = rte_eth_rx_burst(peer, 0, m, 64);
		for (i = 0; i < k; i++)
			ok_p += frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len, peer_mac,
				got_p + i, 200);
		got_p += k;
		fec_test_free_all(m, k);
	}
	CHECK(got_f == total && ok_f == total, "fec got %u, %u intact", got_f, ok_f);
	CHECK(got_p == total && ok_p == total, "peer got %u, %u intact", got_p, ok_p);
	rte_eth_stats_get(port, &st);
	rte_eth_stats_get(peer, &stp);
	CHECK(st.ipackets == stp.opackets && st.opackets == stp.ipackets,
		"fec in %" PRIu64 " out %" PRIu64 ", peer in %" PRIu64 " out %" PRIu64, st.ipackets,
		st.opackets, stp.ipackets, stp.opackets);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	rte_eth_dev_stop(peer);
	check_no_leak("after stop");
	check_clean();
}

/* Probe then close without configuring: nothing to free but the model. */
static void
case_close_unconfigured(void)
{
	struct rte_eth_stats st;

	CHECK(rte_eth_stats_get(port, &st) == 0 && st.ipackets == 0, "stats before configure");
	CHECK(rte_eth_dev_close(port) == 0, "close");
	CHECK(fec_model_lookup("net_fec0") == NULL, "model freed by close");
	check_no_leak("after close");
}

/* Autostep, loop wire: the TDAR write alone moves the frame out and back in. */
static void
case_autostep(void)
{
	struct rte_mbuf *m = NULL;
	unsigned int i, ok = 0;

	CHECK(port_setup(64, 64) == 0, "port setup");
	for (i = 0; i < 100; i++) {
		m = mkmbuf(port_mac.addr_bytes, i, 90);
		CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 1, "sent %u", i);
		m = NULL;
		if (rte_eth_rx_burst(port, 0, &m, 1) == 1)
			ok += frame_ok(rte_pktmbuf_mtod(m, uint8_t *), m->pkt_len,
				port_mac.addr_bytes, i, 90);
		rte_pktmbuf_free(m);
	}
	CHECK(ok == 100, "%u of 100 frames back with no explicit step", ok);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* A frame as 3 segments (14 + 40 + rest bytes of the pattern). */
static struct rte_mbuf *
mkchain(uint32_t seq, uint16_t len)
{
	uint8_t f[FEC_MODEL_FRAME_MAX];
	const uint16_t cut[3] = {14, 40, (uint16_t)(len - 54)};
	struct rte_mbuf *head = NULL;
	unsigned int i, off = 0;

	mkframe(f, peer_mac, seq, len);
	for (i = 0; i < 3; i++) {
		struct rte_mbuf *m = rte_pktmbuf_alloc(pool);

		if (m == NULL)
			break;
		memcpy(rte_pktmbuf_append(m, cut[i]), f + off, cut[i]);
		off += cut[i];
		if (head == NULL)
			head = m;
		else if (rte_pktmbuf_chain(head, m) != 0)
			rte_pktmbuf_free(m);
	}
	return head;
}

/* TX of chained mbufs: one BD per segment, contents, and the ring bound. */
static void
case_tx_multiseg(void)
{
	uint8_t f[FEC_MODEL_FRAME_MAX];
	struct rte_mbuf *m[64];
	unsigned int i, k, ok = 0, nb = 0, seq = 0;
	int len;

	CHECK(port_setup(64, 64) == 0, "port setup");
	/* 30 chains of 3 BDs into 64 BDs: 21 fit, the 22nd is back-pressure. */
	for (i = 0; i < 30; i++)
		m[i] = mkchain(i, 200);
	k = rte_eth_tx_burst(port, 0, m, 30);
	CHECK(k == 21, "%u of 30 chains taken by a 64-BD ring", k);
	step_all();
	k += rte_eth_tx_burst(port, 0, m + k, (uint16_t)(30 - k));
	CHECK(k == 30, "the rest after completion: %u", k);
	step_all();
	/* A chain then singles: the chain's extra BDs shrink what singles may take. */
	rte_eth_tx_burst(port, 0, NULL, 0); /* reclaim runs inside the burst */
	m[0] = mkchain(30, 300);
	for (i = 1; i < 64; i++)
		m[i] = mkmbuf(peer_mac, 30 + i, 100);
	k = rte_eth_tx_burst(port, 0, m, 64);
	CHECK(k == 62, "chain + %u singles taken, want chain + 61 (64 BDs)", k - 1);
	fec_test_free_all(m + k, 64 - k);
	step_all();
	while ((len = fec_model_tx_frame(model, f, sizeof(f))) >= 0) {
		uint16_t want = seq < 30 ? 200 : seq == 30 ? 300 : 100;

		ok += frame_ok(f, (uint16_t)len, peer_mac, seq, want);
		seq++;
		nb++;
	}
	CHECK(nb == 92 && ok == 92, "%u frames on the wire, %u as sent", nb, ok);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* The second pool of tx_two_pools: small, so that a wrong count shows. */
#define TWO_POOLS_NB 64u

/*
 * TX bursts from two mempools, switching every 3 frames: the reclaim frees
 * in bulk per pool (tx_free), and every mbuf goes back to its own pool, once.
 * Four rounds of 48 frames into a 64-BD ring: from the second on, the burst
 * reclaims the last round's 48, 8 switches in each run of BDs.
 */
static void
case_tx_two_pools(void)
{
	struct rte_mempool *pb = rte_pktmbuf_pool_create(
		"fec_b", TWO_POOLS_NB, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, (int)rte_socket_id());
	struct rte_mbuf *m[TWO_POOLS_NB + 1];
	uint8_t f[FEC_MODEL_FRAME_MAX];
	unsigned int round, i, k, seq = 0, nb = 0, ok = 0, own = 0;
	int len;

	CHECK(pb != NULL, "second pool");
	if (pb == NULL)
		return;
	CHECK(port_setup(64, 64) == 0, "port setup");
	for (round = 0; round < 4; round++) {
		for (i = 0; i < 48; i++) {
			m[i] = rte_pktmbuf_alloc((i / 3) % 2 != 0 ? pb : pool);
			if (m[i] == NULL)
				break;
			m[i]->data_len = m[i]->pkt_len =
				mkframe(rte_pktmbuf_mtod(m[i], uint8_t *), peer_mac, seq + i, 60);
		}
		CHECK(i == 48, "round %u: 48 mbufs from the two pools, got %u", round, i);
		k = rte_eth_tx_burst(port, 0, m, (uint16_t)i);
		CHECK(k == i, "round %u: %u of %u taken", round, k, i);
		fec_test_free_all(m + k, i - k);
		seq += k;
		step_all();
		while ((len = fec_model_tx_frame(model, f, sizeof(f))) >= 0) {
			ok += frame_ok(f, (uint16_t)len, peer_mac, nb, 60);
			nb++;
		}
	}
	CHECK(nb == 192 && ok == 192, "%u frames on the wire, %u as sent", nb, ok);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	/* Each of the second pool's mbufs once, and only its own. */
	for (k = 0; k < RTE_DIM(m) && (m[k] = rte_pktmbuf_alloc(pb)) != NULL; k++)
		own += m[k]->pool == pb;
	CHECK(k == TWO_POOLS_NB && own == k, "%u mbufs in the second pool of %u, %u its own", k,
		TWO_POOLS_NB, own);
	fec_test_free_all(m, k);
	check_clean();
}

/* pcap wire input: ours (in order), a foreign unicast every 30th, two runts. */
#define PCAP_OURS    300u
#define PCAP_FOREIGN 10u

static uint16_t
pcap_in_len(unsigned int i)
{
	return (uint16_t)(60 + i * 37 % 1455);
}

static int
pcap_write_input(const char *path)
{
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
	pcap_dumper_t *d = dead != NULL ? pcap_dump_open(dead, path) : NULL;
	uint8_t f[FEC_MODEL_FRAME_MAX];
	struct pcap_pkthdr h;
	unsigned int i;

	if (d == NULL)
		return -1;
	memset(&h, 0, sizeof(h));
	for (i = 0; i < PCAP_OURS; i++) {
		if (i % 30 == 15) {
			h.caplen = h.len = mkframe(f, foreign_mac, 0xF000u + i, 100);
			pcap_dump((u_char *)d, &h, f);
		}
		if (i == 7 || i == 250) {
			h.caplen = h.len = 10; /* a runt the cable never carries */
			pcap_dump((u_char *)d, &h, f);
		}
		h.caplen = h.len = mkframe(f, fec0_mac, i, pcap_in_len(i));
		pcap_dump((u_char *)d, &h, f);
	}
	pcap_dump_close(d);
	pcap_close(dead);
	return 0;
}

static uint16_t
pcap_out_len(unsigned int i)
{
	return (uint16_t)(i == 0 ? 42 : 60 + i * 7);
}

/* Compare OUT with what was sent (short frames padded to 60 by the MAC). */
static unsigned int
pcap_check_output(const char *path, unsigned int total, unsigned int *nb)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline(path, err);
	struct pcap_pkthdr *h;
	const u_char *data;
	unsigned int ok = 0;
	uint8_t exp[FEC_MODEL_FRAME_MAX];

	*nb = 0;
	if (p == NULL)
		return 0;
	while (pcap_next_ex(p, &h, &data) == 1) {
		uint16_t len = pcap_out_len(*nb), wlen = RTE_MAX(len, (uint16_t)60);

		if (*nb < total) {
			memset(exp, 0, sizeof(exp));
			mkframe(exp, peer_mac, *nb, len);
			ok += h->caplen == wlen && h->len == wlen && memcmp(data, exp, wlen) == 0;
		}
		(*nb)++;
	}
	pcap_close(p);
	return ok;
}

/*
 * pcap wire: IN reaches the MAC one frame per empty BD (none lost to the full
 * ring), foreign frames are filtered, runts skipped; every transmitted frame is
 * in OUT as soon as the model has stepped. Stepped by the test, or (autostep)
 * by the driver's own doorbell writes.
 */
static void
case_wire_pcap(void)
{
	const unsigned int total_tx = 200;
	unsigned int got = 0, ok = 0, idle = 0, sent = 0, nb_out = 0, i, k;
	uint64_t filtered = 0, wire_out = 0;
	struct rte_eth_stats st;
	struct rte_mbuf *m[64];

	CHECK(port_setup(64, 64) == 0, "port setup");
	CHECK(memcmp(port_mac.addr_bytes, fec0_mac, 6) == 0, "port MAC as the input file assumes");
	if (!autostep)
		step_all();
	/* The ring is full: the rest waits on the cable instead of being dropped. */
	CHECK(fec_model_wire_frames(model, NULL) < 64 + 3, "%" PRIu64 " frames taken for 64 BDs",
		fec_model_wire_frames(model, NULL));
	CHECK(!(reg(FEC_RDAR) & FEC_DAR_ACTIVE), "RDAR cleared on the full ring");
	while (got < PCAP_OURS && idle < 3) {
		k = rte_eth_rx_burst(port, 0, m, 16);
		for (i = 0; i < k; i++)
			ok += frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len, fec0_mac,
				got + i, pcap_in_len(got + i));
		got += k;
		fec_test_free_all(m, k);
		if (k == 0) {
			idle++;
			if (!autostep)
				step_all();
		} else {
			idle = 0;
		}
	}
	CHECK(got == PCAP_OURS && ok == PCAP_OURS, "received %u of %u, %u in order and intact", got,
		PCAP_OURS, ok);
	CHECK(fec_model_drops(model, &filtered) == 0, "no frame lost for lack of a BD");
	CHECK(filtered == PCAP_FOREIGN, "%" PRIu64 " foreign frames filtered", filtered);
	CHECK(fec_model_wire_frames(model, NULL) == PCAP_OURS + PCAP_FOREIGN,
		"%" PRIu64 " frames off the cable (runts skipped)",
		fec_model_wire_frames(model, NULL));
	while (sent < total_tx) {
		unsigned int n = RTE_MIN(32u, total_tx - sent);

		for (i = 0; i < n; i++)
			m[i] = mkmbuf(peer_mac, sent + i, pcap_out_len(sent + i));
		k = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
		fec_test_free_all(m + k, n - k);
		sent += k;
		if (!autostep)
			step_all();
	}
	/* Still running: what is in OUT must already be complete. */
	ok = pcap_check_output(pcap_out, total_tx, &nb_out);
	CHECK(nb_out == total_tx && ok == total_tx, "OUT holds %u frames, %u as sent", nb_out, ok);
	fec_model_wire_frames(model, &wire_out);
	CHECK(wire_out == total_tx, "%" PRIu64 " frames onto the cable", wire_out);
	rte_eth_stats_get(port, &st);
	CHECK(st.ipackets == PCAP_OURS && st.opackets == total_tx && st.imissed == 0,
		"stats in %" PRIu64 " out %" PRIu64 " missed %" PRIu64, st.ipackets, st.opackets,
		st.imissed);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
	if (autostep)
		return;
	/* Bad cables refuse the probe. */
	CHECK(rte_vdev_init("net_fec1", "wire=pcap:[/nonexistent/dir/x.pcap,]") < 0, "missing IN");
	CHECK(rte_vdev_init("net_fec2", "wire=pcap:[,/nonexistent/dir/y.pcap]") < 0, "bad OUT");
	CHECK(rte_vdev_init("net_fec3", "wire=pcap:[,]") < 0, "no file");
	CHECK(rte_vdev_init("net_fec4", "wire=pcap:x.pcap") < 0, "no brackets");
	CHECK(fec_model_lookup("net_fec1") == NULL && fec_model_lookup("net_fec2") == NULL,
		"no model left behind");
}

/* Frames received in the order sent, seq0 upward; frees them. */
static unsigned int
rx_expect(unsigned int n, uint16_t len, uint32_t seq0)
{
	struct rte_mbuf *m[FEC_RING_MAX];
	unsigned int i, got, ok = 0;

	got = fec_test_rx_all(m, RTE_MIN(n + 1, (unsigned int)RTE_DIM(m)));
	for (i = 0; i < got; i++)
		ok += frame_ok(rte_pktmbuf_mtod(m[i], uint8_t *), m[i]->pkt_len,
			port_mac.addr_bytes, seq0 + i, len);
	fec_test_free_all(m, got);
	return got == n ? ok : 0;
}

static unsigned int
wire_count(void)
{
	uint8_t f[FEC_MODEL_FRAME_MAX];
	unsigned int n = 0;

	while (fec_model_tx_frame(model, f, sizeof(f)) >= 0)
		n++;
	return n;
}

/* A burst handed over from inside the MAC going idle (fec_model_tx_idle_hook). */
struct idle_burst {
	unsigned int n;    /* frames to send */
	unsigned int sent; /* the PMD took */
	uint32_t tdar;     /* TDAR as the driver found it */
};

static void
idle_burst(struct fec_model *m, unsigned int ring __rte_unused,
	enum fec_model_idle_point at __rte_unused, void *arg)
{
	struct idle_burst *b = arg;

	b->tdar = fec_model_read32(m, FEC_TDAR);
	b->sent = fec_test_tx(peer_mac, b->n);
}

/*
 * A TX doorbell racing the MAC going idle (issue 37): the uDMA finds the BD at
 * its pointer not ready and clears TDAR; a burst handed over in between, at
 * each point (c->arg), must go out. At the first point TDAR still reads set,
 * so the ERR007885 guard rightly skips its write (the SoC clears TDAR within
 * cycles and reads the BD again after it); the model used to clear TDAR after
 * its one look and the 8 frames stayed on the ring for good, which a model
 * thread descheduled in that window made 64 (the ring) in
 * fec_pmd_tx_reclaim_race. At the second TDAR reads clear and the driver
 * rings. imx6q has no guard: its write while TDAR is set is counted, and the
 * clear after it must not erase it.
 */
static void
case_tx_idle_race(const struct fec_case *c)
{
	const enum fec_model_idle_point at = (enum fec_model_idle_point)(uintptr_t)c->arg;
	const bool guard = strstr(c->devargs, "imx6q") == NULL;
	struct idle_burst b = {.n = 8};
	unsigned int busy;
	char why[256] = "";
	uint64_t sent;

	CHECK(port_setup(128, 64) == 0, "port setup");
	busy = fec_model_tdar_busy_writes(model);
	CHECK(fec_test_tx(peer_mac, 4) == 4, "first burst");
	fec_model_tx_idle_hook(model, at, idle_burst, &b);
	step_all();
	CHECK(b.sent == 8, "the burst in the idle window: %u of 8 taken", b.sent);
	CHECK(b.tdar == (at == FEC_MODEL_IDLE_SEEN ? FEC_DAR_ACTIVE : 0u),
		"TDAR read 0x%08x in the window", b.tdar);
	sent = fec_model_ring_frames(model, 1, 0);
	if (sent != 12)
		fec_model_tx_stall(model, 0, why, sizeof(why));
	CHECK(sent == 12, "the MAC sent %" PRIu64 " of 12 frames: %s", sent, why);
	CHECK(wire_count() == 12, "12 on the wire");
	CHECK(fec_model_tx_idle_races(model) == 1, "%" PRIu64 " hand-overs caught going idle",
		fec_model_tx_idle_races(model));
	CHECK(fec_model_tx_stall(model, 0, why, sizeof(why)) == FEC_MODEL_TX_OK, "%s", why);
	CHECK(fec_model_tdar_busy_writes(model) - busy ==
			(!guard && at == FEC_MODEL_IDLE_SEEN ? 1u : 0u),
		"%u TDAR writes while set", fec_model_tdar_busy_writes(model) - busy);
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 12, "12 reclaimed");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * fec_model_tx_stall() names the side holding frames on a TX ring: nothing
 * (ring drained), the model (TDAR set, the uDMA held: it does not send), the
 * driver (no doorbell reached the MAC: here a lost one, said so).
 */
static void
case_tx_stall_side(void)
{
	char why[256] = "";
	int side;

	CHECK(port_setup(128, 64) == 0, "port setup");
	step_all();
	side = fec_model_tx_stall(model, 0, why, sizeof(why));
	CHECK(side == FEC_MODEL_TX_OK, "empty ring: %d %s", side, why);
	CHECK(fec_model_tx_stall(model, 3, why, sizeof(why)) == -EINVAL, "no ring 3");
	fec_model_tx_hold(model, 1);
	CHECK(fec_test_tx(peer_mac, 5) == 5, "5 frames");
	step_all();
	side = fec_model_tx_stall(model, 0, why, sizeof(why));
	CHECK(side == FEC_MODEL_TX_STALL_MODEL && strstr(why, "model stalled") != NULL &&
			strstr(why, "held") != NULL,
		"held MAC: %d %s", side, why);
	fec_model_tx_hold(model, 0);
	step_all();
	CHECK(wire_count() == 5, "5 on the wire once released");
	fec_model_tdar_lose(model, 1);
	CHECK(fec_test_tx(peer_mac, 5) == 5, "5 frames");
	step_all();
	side = fec_model_tx_stall(model, 0, why, sizeof(why));
	CHECK(side == FEC_MODEL_TX_STALL_DRIVER && strstr(why, "without a doorbell") != NULL &&
			strstr(why, "1 TDAR writes lost") != NULL,
		"no doorbell: %d %s", side, why);
	CHECK(fec_test_tx(peer_mac, 1) == 1, "1 frame");
	step_all();
	CHECK(wire_count() == 6, "the next doorbell sends all 6");
	side = fec_model_tx_stall(model, 0, why, sizeof(why));
	CHECK(side == FEC_MODEL_TX_OK, "drained: %d %s", side, why);
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 11, "11 reclaimed");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * RX queue stop with frames pending, while more arrive: the MAC fills the BDs
 * it owns and then drops; start discards and counts what it wrote, and the
 * next frame is received once, in order. Repeated; every mbuf back at stop.
 */
static void
case_qstop_rx(void)
{
	struct rte_mbuf *m[8];
	struct rte_eth_stats st;
	struct rte_eth_rxq_info qi;
	uint64_t discards = 0, drops0;
	unsigned int round, i;
	uint32_t seq = 100;

	CHECK(port_setup(128, 128) == 0, "port setup");
	for (round = 0; round < 4; round++) {
		/* 10 frames pending (not polled) when the queue stops. */
		for (i = 0; i < 10; i++)
			inject(port_mac.addr_bytes, seq++, 90);
		step_all();
		CHECK(rte_eth_dev_rx_queue_stop(port, 0) == 0, "round %u: rx stop", round);
		CHECK(rte_eth_rx_queue_info_get(port, 0, &qi) == 0 &&
				qi.queue_state == RTE_ETH_QUEUE_STATE_STOPPED,
			"round %u: state stopped", round);
		CHECK(rte_eth_rx_burst(port, 0, m, 8) == 0,
			"round %u: a stopped queue yields nothing", round);
		/* Round 0: the ring overflows while stopped; round 1: a few frames; else none. */
		drops0 = fec_model_drops(model, NULL);
		for (i = 0; i < (round == 0 ? 200u : round == 1 ? 5u : 0u); i++)
			inject(port_mac.addr_bytes, seq++, 90);
		step_all();
		if (round == 0) {
			CHECK(fec_model_drops(model, NULL) - drops0 == 200 - 118,
				"MAC drops what the ring cannot hold: %" PRIu64,
				fec_model_drops(model, NULL) - drops0);
			CHECK(!(reg(FEC_RDAR) & FEC_DAR_ACTIVE), "the MAC cleared RDAR itself");
		}
		discards += round == 0 ? 128 : round == 1 ? 15 : 10;
		CHECK(rte_eth_dev_rx_queue_start(port, 0) == 0, "round %u: rx start", round);
		CHECK(reg(FEC_RDAR) & FEC_DAR_ACTIVE, "round %u: RDAR rung", round);
		CHECK(xstat("rx_queue_stop_discards") == discards,
			"round %u: %" PRIu64 " discards counted (want %" PRIu64 ")", round,
			xstat("rx_queue_stop_discards"), discards);
		for (i = 0; i < 20; i++)
			inject(port_mac.addr_bytes, seq + i, 90);
		step_all();
		CHECK(rx_expect(20, 90, seq) == 20, "round %u: 20 frames after restart, in order",
			round);
		seq += 20;
	}
	rte_eth_stats_get(port, &st);
	CHECK(st.ipackets == 80 && st.imissed == discards + 82,
		"ipackets %" PRIu64 " imissed %" PRIu64, st.ipackets, st.imissed);
	/* Stop while the queue is stopped; the port comes back with it started. */
	CHECK(rte_eth_dev_rx_queue_stop(port, 0) == 0, "rx stop");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop with the queue stopped");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	for (i = 0; i < 5; i++)
		inject(port_mac.addr_bytes, 9000 + i, 70);
	step_all();
	CHECK(rx_expect(5, 70, 9000) == 5, "receives after port restart");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/*
 * TX queue stop: frames on the ring are sent (drain); with the MAC held (XOFF)
 * they are taken off after a graceful stop, freed and counted, and the ring
 * restarts where the MAC stands. Every frame sent once or counted.
 */
static void
case_qstop_tx(void)
{
	struct rte_mbuf *m[300];
	struct rte_eth_stats st;
	unsigned int i, sent, wire = 0, round;

	CHECK(port_setup(128, 128) == 0, "port setup");
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 50; i++)
			m[i] = mkmbuf(peer_mac, round * 1000 + i, 80);
		sent = rte_eth_tx_burst(port, 0, m, 50);
		CHECK(sent == 50, "50 on the ring");
		CHECK(rte_eth_dev_tx_queue_stop(port, 0) == 0, "round %u: tx stop drains", round);
		CHECK(wire_count() == 50, "round %u: the 50 were sent", round);
		CHECK(rte_eth_tx_burst(port, 0, m, 0) == 0, "nothing");
		m[0] = mkmbuf(peer_mac, 1, 80);
		CHECK(rte_eth_tx_burst(port, 0, m, 1) == 0, "a stopped queue takes nothing");
		rte_pktmbuf_free(m[0]);
		CHECK(rte_eth_dev_tx_queue_start(port, 0) == 0, "tx start");
		wire += 50;
	}
	CHECK(xstat("tx_queue_stop_drops") == 0, "nothing dropped while draining");
	/* Held MAC: 40 frames (one of them two segments) cannot drain. */
	fec_model_tx_hold(model, 1);
	for (i = 0; i < 40; i++)
		m[i] = mkmbuf(peer_mac, 5000 + i, 100);
	{
		struct rte_mbuf *tail = mkmbuf(peer_mac, 0, 30);

		CHECK(tail != NULL && rte_pktmbuf_chain(m[39], tail) == 0, "chain");
	}
	CHECK(rte_eth_tx_burst(port, 0, m, 40) == 40, "40 queued");
	step_all();
	CHECK(rte_eth_tx_descriptor_status(port, 0, 127) == RTE_ETH_TX_DESC_FULL ||
			rte_eth_tx_descriptor_status(port, 0, 0) == RTE_ETH_TX_DESC_DONE,
		"status readable");
	CHECK(rte_eth_dev_tx_queue_stop(port, 0) == 0, "tx stop with a held MAC");
	CHECK(reg(FEC_TCR) & FEC_TCR_GTS, "graceful stop requested");
	CHECK(xstat("tx_queue_stop_drops") == 40, "40 frames taken off and counted: %" PRIu64,
		xstat("tx_queue_stop_drops"));
	CHECK(rte_mempool_avail_count(pool) == NB_MBUF - 128, "their 41 mbufs freed (%u)",
		rte_mempool_avail_count(pool));
	fec_model_tx_hold(model, 0);
	step_all();
	CHECK(wire_count() == 0, "none of them sent");
	CHECK(rte_eth_dev_tx_queue_start(port, 0) == 0, "tx start");
	CHECK(!(reg(FEC_TCR) & FEC_TCR_GTS), "GTS lifted");
	for (i = 0; i < 200; i++)
		m[i] = mkmbuf(peer_mac, 7000 + i, 64);
	sent = 0;
	while (sent < 200) {
		sent += rte_eth_tx_burst(port, 0, m + sent, (uint16_t)(200 - sent));
		step_all();
	}
	{
		uint8_t f[FEC_MODEL_FRAME_MAX];
		unsigned int ok = 0;
		int flen;

		for (i = 0; i < 200; i++) {
			flen = fec_model_tx_frame(model, f, sizeof(f));
			ok += flen >= 0 && frame_ok(f, (uint16_t)flen, peer_mac, 7000 + i, 64);
		}
		CHECK(ok == 200, "after restart 200 frames sent once, in order: %u", ok);
	}
	wire += 200;
	rte_eth_stats_get(port, &st);
	CHECK(st.oerrors == 40, "oerrors %" PRIu64, st.oerrors);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
	RTE_SET_USED(wire);
}

/* Deferred start: dev_start leaves both queues stopped until queue start. */
static void
case_qdeferred(void)
{
	struct rte_eth_conf conf;
	struct rte_eth_rxconf rxc;
	struct rte_eth_txconf txc;
	struct rte_eth_rxq_info rqi;
	struct rte_eth_txq_info tqi;
	struct rte_mbuf *m;
	unsigned int i;

	memset(&conf, 0, sizeof(conf));
	memset(&rxc, 0, sizeof(rxc));
	memset(&txc, 0, sizeof(txc));
	rxc.rx_deferred_start = 1;
	txc.tx_deferred_start = 1;
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0, "configure");
	CHECK(rte_eth_rx_queue_setup(port, 0, 64, 0, &rxc, pool) == 0, "rxq");
	CHECK(rte_eth_tx_queue_setup(port, 0, 64, 0, &txc) == 0, "txq");
	CHECK(rte_eth_dev_start(port) == 0, "start");
	rte_eth_macaddr_get(port, &port_mac);
	CHECK(rte_eth_rx_queue_info_get(port, 0, &rqi) == 0 && rqi.conf.rx_deferred_start &&
			rqi.queue_state == RTE_ETH_QUEUE_STATE_STOPPED,
		"rx deferred, stopped (state %u)", rqi.queue_state);
	CHECK(rte_eth_tx_queue_info_get(port, 0, &tqi) == 0 && tqi.conf.tx_deferred_start &&
			tqi.queue_state == RTE_ETH_QUEUE_STATE_STOPPED && tqi.nb_desc == 64,
		"tx deferred, stopped");
	CHECK(rte_eth_rx_descriptor_status(port, 0, 0) == RTE_ETH_RX_DESC_UNAVAIL,
		"parked BDs are not the MAC's");
	for (i = 0; i < 5; i++)
		inject(port_mac.addr_bytes, i, 80);
	step_all();
	CHECK(fec_model_drops(model, NULL) == 5, "no BD: the MAC drops");
	m = mkmbuf(peer_mac, 1, 80);
	CHECK(rte_eth_tx_burst(port, 0, &m, 1) == 0, "deferred TX takes nothing");
	rte_pktmbuf_free(m);
	CHECK(rte_eth_dev_rx_queue_start(port, 0) == 0 && rte_eth_dev_tx_queue_start(port, 0) == 0,
		"queue start");
	CHECK(xstat("rx_queue_stop_discards") == 0, "nothing to discard");
	for (i = 0; i < 5; i++)
		inject(port_mac.addr_bytes, 50 + i, 80);
	step_all();
	CHECK(rx_expect(5, 80, 50) == 5, "RX after queue start");
	tx_and_check(10, 70, 300);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	/* Deferred again on the next start. */
	CHECK(rte_eth_dev_start(port) == 0, "start again");
	CHECK(rte_eth_rx_queue_info_get(port, 0, &rqi) == 0 &&
			rqi.queue_state == RTE_ETH_QUEUE_STATE_STOPPED,
		"deferred again");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after second stop");
	check_clean();
}

/* Descriptor status values, tx_done_cleanup, queue info. */
static void
case_qstatus(void)
{
	struct rte_mbuf *m[64];
	struct rte_eth_rxq_info rqi;
	struct rte_eth_txq_info tqi;
	unsigned int i;
	int n;

	CHECK(port_setup(64, 64) == 0, "port setup");
	CHECK(rte_eth_rx_queue_info_get(port, 0, &rqi) == 0 && rqi.nb_desc == 64 &&
			rqi.mp == pool && rqi.rx_buf_size >= 1536 && !rqi.scattered_rx &&
			rqi.queue_state == RTE_ETH_QUEUE_STATE_STARTED,
		"rxq info: %u BDs, buf %u", rqi.nb_desc, rqi.rx_buf_size);
	CHECK(rte_eth_tx_queue_info_get(port, 0, &tqi) == 0 && tqi.nb_desc == 64 &&
			tqi.conf.tx_free_thresh == 32,
		"txq info");
	CHECK(rte_eth_rx_descriptor_status(port, 0, 0) == RTE_ETH_RX_DESC_AVAIL, "empty ring");
	for (i = 0; i < 3; i++)
		inject(port_mac.addr_bytes, i, 80);
	step_all();
	for (i = 0; i < 3; i++)
		CHECK(rte_eth_rx_descriptor_status(port, 0, (uint16_t)i) == RTE_ETH_RX_DESC_DONE,
			"BD %u done", i);
	CHECK(rte_eth_rx_descriptor_status(port, 0, 3) == RTE_ETH_RX_DESC_AVAIL, "BD 3 avail");
	CHECK(rte_eth_rx_descriptor_status(port, 0, 64) == -EINVAL, "offset past the ring");
	CHECK(rte_eth_rx_burst(port, 0, m, 1) == 1, "one received");
	rte_pktmbuf_free(m[0]);
	CHECK(rte_eth_rx_descriptor_status(port, 0, 0) == RTE_ETH_RX_DESC_DONE &&
			rte_eth_rx_descriptor_status(port, 0, 2) == RTE_ETH_RX_DESC_AVAIL &&
			rte_eth_rx_descriptor_status(port, 0, 63) == RTE_ETH_RX_DESC_AVAIL,
		"offsets follow the next BD");
	CHECK(rte_eth_rx_burst(port, 0, m, 8) == 2, "the other two");
	fec_test_free_all(m, 2);
	/* TX: queued BDs are FULL until the MAC sends them. */
	CHECK(rte_eth_tx_descriptor_status(port, 0, 0) == RTE_ETH_TX_DESC_DONE, "unused BD");
	for (i = 0; i < 10; i++)
		m[i] = mkmbuf(peer_mac, i, 64);
	CHECK(rte_eth_tx_burst(port, 0, m, 10) == 10, "10 queued");
	CHECK(rte_eth_tx_descriptor_status(port, 0, 0) == RTE_ETH_TX_DESC_DONE,
		"next BD to fill is free");
	CHECK(rte_eth_tx_descriptor_status(port, 0, 63) == RTE_ETH_TX_DESC_FULL,
		"last filled BD waits for the MAC");
	CHECK(rte_eth_tx_descriptor_status(port, 0, 64) == -EINVAL, "offset past the ring");
	CHECK(rte_eth_tx_done_cleanup(port, 0, 0) == 0, "nothing sent, nothing freed");
	step_all();
	CHECK(rte_eth_tx_descriptor_status(port, 0, 63) == RTE_ETH_TX_DESC_DONE, "sent: done");
	n = rte_eth_tx_done_cleanup(port, 0, 4);
	CHECK(n == 4, "cleanup of 4 freed %d", n);
	n = rte_eth_tx_done_cleanup(port, 0, 0);
	CHECK(n == 6, "cleanup of all freed %d", n);
	{
		const struct fec_rxq *rxq = rte_eth_devices[port].data->rx_queues[0];

		CHECK(rte_mempool_avail_count(pool) == NB_MBUF - 64u - rxq->stash_n,
			"TX mbufs back before stop: %u", rte_mempool_avail_count(pool));
	}
	CHECK(wire_count() == 10, "10 on the wire");
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

static const struct fec_case cases[] = {
	{"init", "", .fn_case = case_init},
	{"close_unconfigured", "", .fn = case_close_unconfigured},
	{"init_legacy", ",bd=legacy", .fn_case = case_init},
	{"frames", "", .fn = case_frames},
	{"frames_legacy", ",bd=legacy", .fn = case_frames},
	{"frames_noshift", ",shift16=0,bd=legacy", .fn = case_frames},
	{"ring_full", "", .fn = case_ring_full},
	{"nombuf", "", .fn = case_nombuf},
	{"startstop", "", .fn = case_startstop},
	{"startstop_imx6q", ",profile=imx6q", .fn = case_startstop},
	{"filters", "", .fn = case_filters},
	{"mtu", "", .fn = case_mtu},
	{"bd_slice", "", .fn = case_bd_slice},
	{"stats", "", .fn = case_stats},
	{"mib_fold", ",mib_period_ms=1", .fn = case_mib_fold},
	{"link", "", .fn = case_link},
	{"checker", "", .fn = case_checker},
	{"rx_csum_esc", "", .fn = case_rx_csum_esc},
	{"autostep", ",mode=autostep,wire=loop", .fn = case_autostep},
	{"thread", ",mode=thread,wire=loop", .fn = case_thread},
	{"tx_reclaim_race", ",mode=thread,wire=loop", .fn = case_tx_reclaim_race},
	{"tx_idle_seen", "", .fn_case = case_tx_idle_race, .arg = (void *)FEC_MODEL_IDLE_SEEN},
	{"tx_idle_cleared", "", .fn_case = case_tx_idle_race,
		.arg = (void *)FEC_MODEL_IDLE_CLEARED},
	{"tx_idle_seen_imx6q", ",profile=imx6q", .fn_case = case_tx_idle_race,
		.arg = (void *)FEC_MODEL_IDLE_SEEN},
	{"tx_stall_side", "", .fn = case_tx_stall_side},
	{"wire_ring", ",mode=thread,wire=ring:fw0", .fn = case_wire_ring},
	{"tx_multiseg", "", .fn = case_tx_multiseg},
	{"tx_two_pools", "", .fn = case_tx_two_pools},
	{"wire_pcap", ",wire=pcap:[%s,%s]", .fn = case_wire_pcap},
	{"qstop_rx", "", .fn = case_qstop_rx},
	{"qstop_rx_legacy", ",bd=legacy", .fn = case_qstop_rx},
	{"qstop_tx", "", .fn = case_qstop_tx},
	{"qstop_tx_legacy", ",bd=legacy", .fn = case_qstop_tx},
	{"qdeferred", "", .fn = case_qdeferred},
	{"qstatus", "", .fn = case_qstatus},
	{"wire_pcap_autostep", ",mode=autostep,wire=pcap:[%s,%s]", .fn = case_wire_pcap},
};

/* The pcap wire's files go when the process does, whatever became of the case. */
static void
pcap_unlink(void)
{
	unlink(pcap_in);
	unlink(pcap_out);
}

/* The pcap wire's cases: its input written, the two files' paths in the devargs. */
static int
pmd_prepare(const struct fec_case *c, int argc __rte_unused, char **argv __rte_unused,
	char *devargs, size_t size)
{
	const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";

	if (strstr(c->devargs, "pcap:") == NULL)
		return 0;
	snprintf(pcap_in, sizeof(pcap_in), "%s/fec_%s_%d_in.pcap", tmp, c->name, (int)getpid());
	snprintf(pcap_out, sizeof(pcap_out), "%s/fec_%s_%d_out.pcap", tmp, c->name, (int)getpid());
	atexit(pcap_unlink);
	if (pcap_write_input(pcap_in) < 0) {
		printf("Bail out! cannot write %s\n", pcap_in);
		return -1;
	}
	snprintf(devargs, size, c->devargs, pcap_in, pcap_out);
	autostep = strstr(c->devargs, "autostep") != NULL;
	return 0;
}

FEC_CASES_MAIN(
	cases, .tag = "fec", .log_level = "*:warning", .nb_mbuf = NB_MBUF, .prepare = pmd_prepare)
