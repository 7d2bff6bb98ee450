/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * TX lcore control path: the fragpool and the templates built from it by the
 * polling lcore (payload pattern written once per start), per-flow header
 * images with their checksums pre-summed, the IMIX schedule, the pacing
 * constants, and settling references on stop.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_icmp.h>
#include <rte_ip.h>
#include <rte_lcore.h>
#include <rte_log.h>
#include <rte_malloc.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "dpdk_compat.h"
#include "pktgen.h"
#include "pktgen_priv.h"

RTE_LOG_REGISTER(pktgen_logtype, lib.pktgen, INFO);

const char *const pktgen_tx_stat_names[] = {
#define PKTGEN_STAT_NAME(f, d) #f,
	PKTGEN_TX_STATS(PKTGEN_STAT_NAME)};

const char *const pktgen_rx_stat_names[] = {PKTGEN_RX_STATS(PKTGEN_STAT_NAME)
#undef PKTGEN_STAT_NAME
};

/* Every counter is a uint64_t, so the structs can be walked as arrays. */
_Static_assert(sizeof(struct pktgen_tx_stats) == PKTGEN_TX_STAT_MAX * sizeof(uint64_t),
	"pktgen_tx_stats is not an array of counters");
_Static_assert(sizeof(struct pktgen_rx_stats) == PKTGEN_RX_STAT_MAX * sizeof(uint64_t),
	"pktgen_rx_stats is not an array of counters");

uint8_t
pktgen_pattern_byte(const struct pktgen_stream_cfg *cfg, uint32_t q)
{
	switch (cfg->payload) {
	case PKTGEN_PAYLOAD_INC:
		return (uint8_t)q;
	case PKTGEN_PAYLOAD_BYTES:
		return cfg->pattern_len ? cfg->pattern[q % cfg->pattern_len] : 0;
	default:
		return 0;
	}
}

uint64_t
pktgen_splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

uint32_t
pktgen_flow_field(const struct pktgen_range *r, uint32_t flow, uint32_t seed, unsigned int field)
{
	uint64_t width = (uint64_t)r->max - r->min + 1;

	if (r->vary == PKTGEN_VARY_RANDOM)
		return (uint32_t)(r->min + pktgen_splitmix(((uint64_t)seed << 32) ^
							   ((uint64_t)flow << 2) ^ field) %
						   width);
	return (uint32_t)(r->min + flow % width);
}

/* The 16-bit word a byte contributes to a ones' complement sum, as a host load sees it. */
static uint32_t
byte_word(uint8_t b, bool odd)
{
	uint8_t w[2] = {odd ? 0 : b, odd ? b : 0};
	uint16_t v;

	memcpy(&v, w, 2);
	return v;
}

static uint16_t
hdr_len_of(const struct pktgen_stream_cfg *cfg, uint16_t *l3, uint16_t *l4)
{
	*l3 = (uint16_t)(RTE_ETHER_HDR_LEN + (cfg->vlan ? 4 : 0));
	*l4 = (uint16_t)(*l3 + sizeof(struct rte_ipv4_hdr));
	return (uint16_t)(*l4 + (cfg->proto == PKTGEN_PROTO_TCP ? sizeof(struct rte_tcp_hdr)
								: sizeof(struct rte_udp_hdr)));
}

/* Header image of global flow @p gf, and its partial sums (lengths and checksums left 0). */
static void
build_image(const struct pktgen_stream_cfg *cfg, const struct pktgen_lcore *g, uint32_t gf,
	uint8_t *img, uint32_t *ip_sum, uint32_t *l4_sum)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)img;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(img + g->l3_off);
	uint8_t *l4 = img + g->l4_off;
	uint32_t sport = pktgen_flow_field(&cfg->src_port, gf, cfg->seed, 2);
	uint32_t dport = pktgen_flow_field(&cfg->dst_port, gf, cfg->seed, 3);
	uint8_t proto;
	uint16_t l4hdr;
	uint32_t i, sum;

	memset(img, 0, PKTGEN_HDR_IMG);
	eth->dst_addr = cfg->dst_mac;
	eth->src_addr = cfg->src_mac;
	if (cfg->vlan != 0) {
		struct rte_vlan_hdr *vh = (struct rte_vlan_hdr *)(eth + 1);

		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN);
		vh->vlan_tci = rte_cpu_to_be_16((uint16_t)(cfg->vlan_prio << 13 | cfg->vlan));
		vh->eth_proto = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	} else {
		eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	}
	switch (cfg->proto) {
	case PKTGEN_PROTO_TCP:
		proto = IPPROTO_TCP;
		break;
	case PKTGEN_PROTO_ICMP:
		proto = IPPROTO_ICMP;
		break;
	default:
		proto = IPPROTO_UDP;
	}
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->type_of_service = cfg->tos;
	ip->time_to_live = cfg->ttl;
	ip->next_proto_id = proto;
	ip->src_addr = rte_cpu_to_be_32(pktgen_flow_field(&cfg->src_ip, gf, cfg->seed, 0));
	ip->dst_addr = rte_cpu_to_be_32(pktgen_flow_field(&cfg->dst_ip, gf, cfg->seed, 1));
	*ip_sum = rte_raw_cksum(ip, sizeof(*ip));

	if (cfg->proto == PKTGEN_PROTO_TCP) {
		struct rte_tcp_hdr *t = (struct rte_tcp_hdr *)l4;

		t->src_port = rte_cpu_to_be_16((uint16_t)sport);
		t->dst_port = rte_cpu_to_be_16((uint16_t)dport);
		t->data_off = (sizeof(*t) / 4) << 4;
		t->tcp_flags = cfg->tcp_flags;
		t->rx_win = rte_cpu_to_be_16(65535);
		l4hdr = sizeof(*t);
	} else if (cfg->proto == PKTGEN_PROTO_ICMP) {
		struct rte_icmp_hdr *ic = (struct rte_icmp_hdr *)l4;

		ic->icmp_type = RTE_ICMP_TYPE_ECHO_REQUEST;
		ic->icmp_ident = rte_cpu_to_be_16((uint16_t)sport);
		ic->icmp_seq_nb = rte_cpu_to_be_16((uint16_t)dport);
		l4hdr = sizeof(*ic);
	} else {
		struct rte_udp_hdr *u = (struct rte_udp_hdr *)l4;

		u->src_port = rte_cpu_to_be_16((uint16_t)sport);
		u->dst_port = rte_cpu_to_be_16((uint16_t)dport);
		l4hdr = sizeof(*u);
	}
	sum = rte_raw_cksum(l4, l4hdr);
	if (cfg->proto != PKTGEN_PROTO_ICMP) {
		/* pseudo header without its length: addresses, zero, protocol */
		uint8_t zp[2] = {0, proto};
		uint16_t w;

		memcpy(&w, zp, 2);
		sum += rte_raw_cksum(&ip->src_addr, 8) + w;
	}
	*l4_sum = sum;
	/* the image ends with the payload as the buffer already holds it */
	for (i = g->hdr_len; i < PKTGEN_HDR_IMG; i++)
		img[i] = pktgen_pattern_byte(cfg, i - g->hdr_len);
}

/*
 * The payload as every template holds it after the headers, copied into each
 * template when it is built (the configuration is not kept).
 */
static uint8_t *
build_fill(const struct pktgen_stream_cfg *cfg, const char *name, uint32_t room, int socket)
{
	uint8_t *fill = rte_malloc_socket(name, RTE_MAX(room, 1u), 0, socket);
	uint32_t q;

	if (fill != NULL)
		for (q = 0; q < room; q++)
			fill[q] = pktgen_pattern_byte(cfg, q);
	return fill;
}

/* Smooth weighted round robin: 7:4:1 comes out interleaved, not as 7 then 4 then 1. */
static int
build_imix(const struct pktgen_stream_cfg *cfg, struct pktgen_lcore *g, uint16_t *sizes)
{
	int32_t cur[PKTGEN_IMIX_MAX] = {0};
	uint32_t total = 0, i, j;

	for (i = 0; i < cfg->imix_n; i++)
		total += cfg->imix_weight[i];
	for (j = 0; j < total; j++) {
		uint32_t best = 0;

		for (i = 0; i < cfg->imix_n; i++) {
			cur[i] += cfg->imix_weight[i];
			if (cur[i] > cur[best])
				best = i;
		}
		cur[best] -= (int32_t)total;
		sizes[j] = (uint16_t)(cfg->imix_size[best] - PKTGEN_FCS_LEN);
	}
	g->n_sizes = (uint16_t)total;
	return 0;
}

static uint16_t
max_frame(const struct pktgen_stream_cfg *cfg)
{
	uint16_t m = cfg->size_max;
	unsigned int i;

	if (cfg->size_mode == PKTGEN_SIZE_IMIX)
		for (m = 0, i = 0; i < cfg->imix_n; i++)
			m = RTE_MAX(m, cfg->imix_size[i]);
	return m;
}

/* Packets per second of the whole stream, 0 for unpaced, -1 if it cannot be known. */
static double
stream_pps(const struct pktgen_stream_cfg *cfg, uint32_t link_mbps)
{
	double wire_bits = (pktgen_stream_mean_size(cfg) + PKTGEN_L1_OVERHEAD) * 8;

	switch (cfg->rate_unit) {
	case PKTGEN_RATE_PPS:
		return cfg->rate;
	case PKTGEN_RATE_BPS:
		return cfg->rate / wire_bits;
	case PKTGEN_RATE_PCT:
		if (link_mbps == 0)
			return -1;
		return link_mbps * 1e6 * cfg->rate / 100 / wire_bits;
	default:
		return 0;
	}
}

int
pktgen_pace_init(struct pktgen_lcore *g, double pps, uint16_t slack)
{
	g->paced = pps > 0;
	if (!g->paced)
		return 0;
	g->pps_milli = (uint64_t)llround(pps * 1000);
	if (g->pps_milli == 0)
		g->pps_milli = 1;
	g->pkt_cost = g->hz * 1000;
	/*
	 * Auto (0): 100 us of traffic, 32 packets at least. A fixed count is too
	 * tight at high rates: 32 packets are 2 us at 14.88 Mpps, shorter than the
	 * hiccups of a VM or a timer tick, so the pacer forgave ~3 % of the rate;
	 * 100 us keeps a catch-up burst short and the long-run rate within 0.3 %.
	 */
	if (slack == 0) {
		const double want = RTE_MAX(pps * 100e-6, 32.0);

		slack = (uint16_t)RTE_MIN(want, 4096.0);
	}
	g->credit_cap = (uint64_t)slack * g->pkt_cost;
	g->dt_cap = g->credit_cap / g->pps_milli + 1;
	g->credit = 0;
	return 0;
}

static int
init_tables(
	struct pktgen_lcore *g, const struct pktgen_stream_cfg *cfg, const char *name, int socket)
{
	uint32_t *psum;
	uint8_t *pat0;
	uint32_t f, q, acc;
	uint16_t *sizes;

	g->hdr = rte_zmalloc_socket(
		name, (size_t)g->n_flows * PKTGEN_HDR_IMG, RTE_CACHE_LINE_SIZE, socket);
	g->ip_sum = rte_zmalloc_socket(name, g->n_flows * sizeof(uint32_t), 0, socket);
	g->l4_sum = rte_zmalloc_socket(name, g->n_flows * sizeof(uint32_t), 0, socket);
	g->seq = rte_zmalloc_socket(name, g->n_flows * sizeof(uint32_t), 0, socket);
	g->sig_head = rte_zmalloc_socket(name, g->n_flows * sizeof(uint32_t), 0, socket);
	g->sig_sum = rte_zmalloc_socket(name, g->n_flows * sizeof(uint32_t), 0, socket);
	psum = rte_zmalloc_socket(name, 2 * PKTGEN_PSUM_NOSIG * sizeof(uint32_t), 0, socket);
	pat0 = rte_zmalloc_socket(name, sizeof(struct pktgen_sig), 0, socket);
	sizes = rte_zmalloc_socket(name, 4096 * sizeof(uint16_t), 0, socket);
	g->psum = psum;
	g->pat0 = pat0;
	g->sizes = sizes;
	if (g->hdr == NULL || g->ip_sum == NULL || g->l4_sum == NULL || g->seq == NULL ||
		g->sig_head == NULL || g->sig_sum == NULL || psum == NULL || pat0 == NULL ||
		sizes == NULL)
		return -ENOMEM;
	for (f = 0; f < g->n_flows; f++) {
		struct pktgen_sig sig = {
			.magic = PKTGEN_SIG_MAGIC,
			.copies = 1,
			.flow = (uint16_t)(g->flow_base + f * g->flow_stride),
		};
		uint32_t *head = (uint32_t *)(uintptr_t)&g->sig_head[f];
		uint32_t *l4 = (uint32_t *)(uintptr_t)&g->l4_sum[f];

		build_image(cfg, g, sig.flow, (uint8_t *)(uintptr_t)g->hdr[f],
			(uint32_t *)(uintptr_t)&g->ip_sum[f], l4);
		memcpy(head, &sig, sizeof(*head));
		((uint32_t *)(uintptr_t)g->sig_sum)[f] = *l4 + rte_raw_cksum(head, sizeof(*head));
	}
	/* payload sums: the payload starts at an even offset of the L4 segment */
	for (acc = 0, q = 0; q < PKTGEN_PSUM_NOSIG; q++) {
		psum[PKTGEN_PSUM_NOSIG + q] = acc;
		psum[q] = q <= sizeof(struct pktgen_sig)
				  ? 0
				  : psum[q - 1] +
					    byte_word(pktgen_pattern_byte(cfg, q - 1), (q - 1) & 1);
		acc += byte_word(pktgen_pattern_byte(cfg, q), q & 1);
	}
	for (q = 0; q < sizeof(struct pktgen_sig); q++)
		pat0[q] = pktgen_pattern_byte(cfg, q);
	if (cfg->size_mode == PKTGEN_SIZE_IMIX)
		build_imix(cfg, g, sizes);
	return 0;
}

static void
free_tables(struct pktgen_lcore *g)
{
	rte_free((void *)(uintptr_t)g->hdr);
	rte_free((void *)(uintptr_t)g->ip_sum);
	rte_free((void *)(uintptr_t)g->l4_sum);
	rte_free(g->seq);
	rte_free((void *)(uintptr_t)g->sig_head);
	rte_free((void *)(uintptr_t)g->sig_sum);
	rte_free((void *)(uintptr_t)g->psum);
	rte_free((void *)(uintptr_t)g->pat0);
	rte_free((void *)(uintptr_t)g->sizes);
	rte_free((void *)(uintptr_t)g->fill);
}

/*
 * Chunks for a pcap's mbufs of one run plus those a port may still hold
 * from the previous one when the next starts (each is dropped at stop, a
 * port frees its own later, and they pin their chunks): a TX ring's worth,
 * two bursts, at most a whole run's.
 */
static uint32_t
fp_chunks(uint32_t run_chunks, uint32_t n_mbufs, uint32_t per_chunk, uint16_t port, uint16_t queue)
{
	struct rte_eth_txq_info qi;
	uint32_t held = 4096;

	if (rte_eth_tx_queue_info_get(port, queue, &qi) == 0 && qi.nb_desc != 0)
		held = qi.nb_desc;
	held = RTE_MIN(held + 2 * PKTGEN_BURST_MAX, n_mbufs);
	return run_chunks + (held + per_chunk - 1) / per_chunk + 1;
}

static struct fragpool *
create_fp(struct pktgen_lcore *g, uint32_t n_chunks, int socket)
{
	char fname[24];

	snprintf(fname, sizeof(fname), "pg%u_fp", g->uid);
	return fragpool_create(&(struct fragpool_params){
		.name = fname,
		.lcore_id = g->lcore,
		.socket_id = socket,
		.n_chunks = n_chunks,
	});
}

/* Why a create failed: into params->err when the caller gave one, else the log. */
static struct pktgen_lcore *__rte_format_printf(4, 5)
	create_fail(const struct pktgen_lcore_params *params, const char *name, int errnum,
		const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (params != NULL && params->err != NULL && params->errlen > 0)
		snprintf(params->err, params->errlen, "%s", msg);
	else
		PKTGEN_LOG(ERR, "%s: %s", name != NULL ? name : "?", msg);
	rte_errno = errnum;
	return NULL;
}

struct pktgen_lcore *
pktgen_lcore_create(const char *name, const struct pktgen_stream_cfg *cfg,
	const struct pktgen_lcore_params *params)
{
	static uint32_t uid; /* control path: creates are serialised */
	char pname[RTE_MEMPOOL_NAMESIZE], err[256];
	struct pktgen_lcore *g;
	uint32_t n, chunks;
	uint16_t maxlen;
	double pps;
	int ret;

	if (name == NULL || cfg == NULL || params == NULL || params->count == 0 ||
		params->index >= params->count || strlen(name) > 20)
		return create_fail(params, name, EINVAL, "bad parameters");
	if (pktgen_stream_check(cfg, err, sizeof(err)) != 0)
		return create_fail(params, name, EINVAL, "%s", err);
	if (cfg->pcap[0] == '\0' && cfg->flows < params->count)
		return create_fail(params, name, EINVAL,
			"%u flows for %u TX lcores: each lcore needs a flow of its own", cfg->flows,
			params->count);
	pps = stream_pps(cfg, params->link_speed_mbps);
	if (pps < 0)
		return create_fail(
			params, name, EINVAL, "rate in %% of a link whose speed is unknown");
	if (params->lcore >= RTE_MAX_LCORE)
		return create_fail(params, name, EINVAL, "lcore %u out of range", params->lcore);
	g = rte_zmalloc_socket(name, sizeof(*g), RTE_CACHE_LINE_SIZE, params->socket);
	if (g == NULL)
		return create_fail(params, name, ENOMEM, "out of memory for its state");
	snprintf(g->name, sizeof(g->name), "%s", name);
	/* memory names by number: a generator freed while a port held its mbufs keeps its own */
	g->uid = uid++;
	g->lcore = params->lcore;
	g->hz = params->hz != 0 ? params->hz : rte_get_tsc_hz();
	g->port = params->port;
	g->queue = params->queue;
	g->burst = cfg->burst;
	g->clone = cfg->clone;
	g->proto = (uint8_t)cfg->proto;
	g->refcnt_mode = (uint8_t)cfg->refcnt;
	g->dur_tsc = (uint64_t)(cfg->duration * (double)g->hz);

	if (cfg->pcap[0] != '\0') {
		g->count_share = cfg->count != 0 ? cfg->count : UINT64_MAX;
		if (params->index != 0) {
			/* one replaying lcore keeps the capture's order */
			g->count_share = 0;
		} else {
			snprintf(pname, sizeof(pname), "%s_pcap", name);
			g->pcap = pktgen_pcap_load(
				pname, cfg->pcap, params->socket, err, sizeof(err));
			if (g->pcap == NULL) {
				ret = rte_errno;
				rte_free(g);
				return create_fail(params, name, ret, "%s", err);
			}
			pktgen_replay_init(g, cfg);
			pktgen_pace_init(g, cfg->replay_timing == PKTGEN_REPLAY_FAST ? pps : 0,
				cfg->pace_slack);
			n = pktgen_pcap_count(g->pcap);
			chunks = pktgen_pcap_chunks(g->pcap);
			/* held packets: counted as if each took a chunk's mean share */
			g->fp = create_fp(g,
				fp_chunks(chunks, n, RTE_MAX(n / chunks, 1u), g->port, g->queue),
				params->socket);
			if (g->fp == NULL) {
				ret = rte_errno;
				pktgen_pcap_free(g->pcap);
				rte_free(g);
				return create_fail(params, name, ret,
					"cannot create its fragpool for the capture: %s",
					rte_strerror(ret));
			}
		}
		g->remaining = g->count_share;
		g->done = g->remaining == 0;
		return g;
	}

	g->l3_off = 0;
	g->hdr_len = hdr_len_of(cfg, &g->l3_off, &g->l4_off);
	switch (cfg->proto) {
	case PKTGEN_PROTO_TCP:
		g->ck_off = (uint16_t)(g->l4_off + offsetof(struct rte_tcp_hdr, cksum));
		g->len_words = 1; /* the pseudo header's */
		break;
	case PKTGEN_PROTO_ICMP:
		g->ck_off = (uint16_t)(g->l4_off + offsetof(struct rte_icmp_hdr, icmp_cksum));
		break;
	default:
		g->ck_off = (uint16_t)(g->l4_off + offsetof(struct rte_udp_hdr, dgram_cksum));
		g->len_words = 2; /* the pseudo header's and the UDP header's */
		g->ck_zero = 0xffff;
	}
	g->size_mode = (uint8_t)cfg->size_mode;
	g->len_min = (uint16_t)(cfg->size_min - PKTGEN_FCS_LEN);
	g->len_span = (uint16_t)(cfg->size_max - cfg->size_min + 1);
	g->flow_base = (uint16_t)params->index;
	g->flow_stride = (uint16_t)params->count;
	g->n_flows = (cfg->flows - params->index + params->count - 1) / params->count;
	g->train = cfg->arrival == PKTGEN_ARRIVAL_TRAIN ? cfg->train : 1;
	g->train_left = g->train;
	g->rng = pktgen_splitmix(((uint64_t)cfg->seed << 32) | params->index) | 1;
	if (cfg->count != 0)
		g->count_share =
			cfg->count / params->count + (params->index < cfg->count % params->count);
	else
		g->count_share = UINT64_MAX;
	g->remaining = g->count_share;
	pktgen_pace_init(g, pps / params->count, cfg->pace_slack);

	if (init_tables(g, cfg, name, params->socket) != 0) {
		free_tables(g);
		rte_free(g);
		return create_fail(params, name, ENOMEM, "out of memory for its flow tables");
	}
	maxlen = (uint16_t)(max_frame(cfg) - PKTGEN_FCS_LEN);
	/* room for the 64-byte image copy, whatever the size */
	g->tmpl_data = RTE_MAX(maxlen, (uint16_t)PKTGEN_HDR_IMG);
	g->n_tmpl = cfg->mbufs;
	g->tmpl_cache = RTE_MIN(256u, cfg->mbufs / 4);
	g->socket = params->socket;
	g->fill = build_fill(cfg, name, g->tmpl_data - g->hdr_len, params->socket);
	chunks = pktgen_tmpl_chunks(g);
	if (g->fill == NULL || chunks == 0) {
		bool nomem = g->fill == NULL;

		free_tables(g);
		rte_free(g);
		if (nomem)
			return create_fail(params, name, ENOMEM, "out of memory for its payload");
		return create_fail(params, name, EINVAL,
			"a %u-byte template does not fit a fragpool chunk", maxlen);
	}
	/*
	 * No slack: the templates are carved again only after every one came back and
	 * the pool gave its fragments back (one spare chunk against rounding).
	 */
	g->fp = create_fp(g, chunks + 1, params->socket);
	if (g->fp == NULL) {
		ret = rte_errno;
		free_tables(g);
		rte_free(g);
		return create_fail(params, name, ret,
			"cannot create its fragpool for %u mbufs of %u bytes: %s", cfg->mbufs,
			maxlen, rte_strerror(ret));
	}
	g->done = g->remaining == 0;
	return g;
}

int
pktgen_lcore_prepare(struct pktgen_lcore *g)
{
	int ret;

	if (g->built || g->done)
		return 0;
	if (rte_lcore_id() != g->lcore) {
		/* fragpool allocation is for its owner only */
		PKTGEN_LOG(ERR, "%s: polled on lcore %u, created for lcore %u", g->name,
			rte_lcore_id(), g->lcore);
		ret = -EPERM;
	} else {
		/* what a port freed on another lcore since the last run */
		fragpool_reclaim(g->fp);
		ret = g->pcap != NULL ? pktgen_pcap_build(g->pcap, g->fp) : pktgen_tmpl_build(g);
		if (ret < 0)
			PKTGEN_LOG(ERR,
				"%s: cannot build its mbufs: %s (%" PRIu64
				" of its fragpool's still held)",
				g->name, rte_strerror(-ret), fragpool_in_use(g->fp));
	}
	if (ret < 0) {
		g->stats.alloc_fail++;
		g->remaining = 0;
		g->done = true;
		return ret;
	}
	g->built = true;
	return 0;
}

/*
 * Stopped: give the mbufs back to the fragpool. A pcap's at once (a port
 * frees what it holds into the fragpool); the templates once all are back
 * in their mempool (the pool's fragments go back with it).
 */
static void
release_mbufs(struct pktgen_lcore *g)
{
	if (!g->built || !g->stopped)
		return;
	if (g->pcap != NULL)
		pktgen_pcap_release(g->pcap);
	else if (!pktgen_tmpl_release(g))
		return;
	g->built = false;
	/* the owner's frees are settled; a non-owner's went to the return ring */
	fragpool_reclaim(g->fp);
}

void
pktgen_lcore_pause(struct pktgen_lcore *g, uint64_t now)
{
	if (!g->done && g->pause_tsc == 0)
		g->pause_tsc = now != 0 ? now : 1;
}

void
pktgen_lcore_stop(struct pktgen_lcore *g)
{
	uint16_t i = g->pend_pos, end = (uint16_t)(g->pend_pos + g->n_pend);

	/* one reference update per mbuf, not one per refused send */
	while (i < end) {
		struct rte_mbuf *m = g->pend[i];
		uint16_t c = 1;

		while (i + c < end && g->pend[i + c] == m)
			c++;
		/* c sends held: drop c - 1 in one update, then the last one as a free */
		fragpool_mbuf_settle(m, (uint16_t)(c - 1));
		rte_pktmbuf_free(m);
		i += c;
	}
	g->stats.tx_unsent += g->n_pend;
	g->n_pend = 0;
	g->pend_pos = 0;
	g->remaining = 0;
	g->done = true;
	g->stopped = true;
	g->pause_tsc = 0;
	release_mbufs(g);
}

void
pktgen_lcore_restart(struct pktgen_lcore *g)
{
	pktgen_lcore_stop(g);
	g->stopped = false;
	g->remaining = g->count_share;
	g->started = false;
	g->done = g->remaining == 0;
	if (g->pcap != NULL)
		pktgen_replay_rewind(g);
}

void
pktgen_lcore_free(struct pktgen_lcore *g)
{
	uint64_t in_use;

	if (g == NULL)
		return;
	pktgen_lcore_stop(g);
	in_use = pktgen_lcore_in_use(g);
	if (in_use == 0) {
		fragpool_free(g->fp);
	} else {
		/*
		 * A port still holds some: their free reaches the template mempool or the
		 * fragpool, so both stay. A leak is better than a use after free.
		 */
		PKTGEN_LOG(WARNING, "%s: %" PRIu64 " mbufs still held by a port: pools kept",
			g->name, in_use);
	}
	pktgen_pcap_free(g->pcap);
	free_tables(g);
	rte_free(g);
}

bool
pktgen_lcore_try_free(struct pktgen_lcore *g)
{
	if (g == NULL)
		return true;
	pktgen_lcore_stop(g);
	if (pktgen_lcore_in_use(g) != 0)
		return false;
	pktgen_lcore_free(g);
	return true;
}

uint64_t
pktgen_lcore_in_use(struct pktgen_lcore *g)
{
	if (g->fp == NULL) /* a pcap lcore other than index 0 sends nothing */
		return 0;
	release_mbufs(g);
	fragpool_reclaim(g->fp);
	return fragpool_in_use(g->fp);
}

struct fragpool *
pktgen_lcore_fragpool(const struct pktgen_lcore *g)
{
	return g->fp;
}

struct rte_mempool *
pktgen_lcore_pool(const struct pktgen_lcore *g)
{
	return g->pool;
}

struct pktgen_pcap *
pktgen_lcore_pcap(const struct pktgen_lcore *g)
{
	return g->pcap;
}

void
pktgen_pace_window(struct pktgen_lcore *g, uint64_t now)
{
	if (g->win_end != 0) {
		const double due = (double)(now - g->win_start) / (double)g->hz *
				   (double)g->pps_milli / 1000.0;
		const uint64_t forgiven = g->stats.pace_forgiven - g->win_forgiven;

		if ((double)forgiven * 100.0 > due)
			g->stats.pace_short++;
	}
	g->win_start = now;
	g->win_forgiven = g->stats.pace_forgiven;
	g->win_end = now + g->hz;
}

double
pktgen_lcore_pps(const struct pktgen_lcore *g)
{
	return g->paced ? (double)g->pps_milli / 1000.0 : 0.0;
}

void
pktgen_lcore_stats(const struct pktgen_lcore *g, struct pktgen_tx_stats *st)
{
	*st = g->stats;
}

int
pktgen_lcore_run(struct pktgen_lcore *g, volatile bool *quit)
{
	const uint16_t port = g->port, queue = g->queue;

	pktgen_lcore_prepare(g);
	while (!*quit && !g->done)
		pktgen_lcore_poll(g, port, queue);
	pktgen_lcore_stop(g);
	return 0;
}
