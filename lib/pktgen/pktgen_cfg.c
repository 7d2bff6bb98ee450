/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Stream configuration from text: one parser per key, shared by the config
 * file's [pktgen] section and the shell's `pktgen set`, and the key table
 * that both print as help.
 */

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <arpa/inet.h>
#include <rte_tcp.h>

#include "numparse.h"
#include "pktgen.h"

typedef int (*key_parse_t)(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len);

struct key_def {
	struct pktgen_key k;
	key_parse_t parse;
};

static int __rte_format_printf(3, 4) fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Whole-string unsigned integer in [min, max], by the forwarder's one rule (lib/numparse). */
static int
parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	return num_u64(s, min, max, out) < 0 ? -1 : 0;
}

static int
parse_uint_key(const char *v, uint64_t min, uint64_t max, uint64_t *out, const char *what,
	char *err, size_t len)
{
	if (parse_u64(v, min, max, out) != 0)
		return fail(err, len, "%s: '%s' is not an integer in [%" PRIu64 ", %" PRIu64 "]",
			what, v, min, max);
	return 0;
}

static int
key_proto(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	if (strcasecmp(v, "udp") == 0)
		cfg->proto = PKTGEN_PROTO_UDP;
	else if (strcasecmp(v, "tcp") == 0)
		cfg->proto = PKTGEN_PROTO_TCP;
	else if (strcasecmp(v, "icmp") == 0)
		cfg->proto = PKTGEN_PROTO_ICMP;
	else
		return fail(err, len, "proto: '%s' is not udp, tcp or icmp", v);
	return 0;
}

static int
parse_mac(const char *v, struct rte_ether_addr *mac, const char *what, char *err, size_t len)
{
	struct rte_ether_addr a;

	/* rte_ether_unformat_addr() may write part of a bad address */
	if (rte_ether_unformat_addr(v, &a) != 0)
		return fail(err, len, "%s: '%s' is not a MAC address (aa:bb:cc:dd:ee:ff)", what, v);
	*mac = a;
	return 0;
}

static int
key_src_mac(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	return parse_mac(v, &cfg->src_mac, "src-mac", err, len);
}

static int
key_dst_mac(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	return parse_mac(v, &cfg->dst_mac, "dst-mac", err, len);
}

static int
key_vlan(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	char buf[32], *slash;
	uint64_t id, prio = 0;

	if (strcasecmp(v, "none") == 0 || strcmp(v, "0") == 0) {
		cfg->vlan = 0;
		cfg->vlan_prio = 0;
		return 0;
	}
	if (strlen(v) >= sizeof(buf))
		return fail(err, len, "vlan: '%s' is too long", v);
	strcpy(buf, v);
	slash = strchr(buf, '/');
	if (slash != NULL)
		*slash++ = '\0';
	if (parse_u64(buf, 1, 4095, &id) != 0 ||
		(slash != NULL && parse_u64(slash, 0, 7, &prio) != 0))
		return fail(
			err, len, "vlan: '%s' is not none, ID (1-4095) or ID/PRIO (PRIO 0-7)", v);
	cfg->vlan = (uint16_t)id;
	cfg->vlan_prio = (uint8_t)prio;
	return 0;
}

static int
parse_size(const char *s, uint64_t *out)
{
	return parse_u64(s, PKTGEN_SIZE_MIN, PKTGEN_SIZE_MAX, out);
}

/* "N", "MIN-MAX", "imix", "imix:SIZE*WEIGHT,..." */
static int
key_size(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	char buf[256], *dash, *tok, *save;
	uint64_t a, b;
	struct pktgen_stream_cfg c = *cfg;

	if (strlen(v) >= sizeof(buf))
		return fail(err, len, "size: '%s' is too long", v);
	strcpy(buf, v);
	if (strcasecmp(buf, "imix") == 0) {
		static const uint16_t sz[] = {64, 576, 1500}, w[] = {7, 4, 1};

		c.size_mode = PKTGEN_SIZE_IMIX;
		c.imix_n = 3;
		memcpy(c.imix_size, sz, sizeof(sz));
		memcpy(c.imix_weight, w, sizeof(w));
		*cfg = c;
		return 0;
	}
	if (strncasecmp(buf, "imix:", 5) == 0) {
		c.size_mode = PKTGEN_SIZE_IMIX;
		c.imix_n = 0;
		for (tok = strtok_r(buf + 5, ",", &save); tok != NULL;
			tok = strtok_r(NULL, ",", &save)) {
			char *star = strchr(tok, '*');
			uint64_t w = 1;

			if (star != NULL)
				*star++ = '\0';
			if (c.imix_n == PKTGEN_IMIX_MAX)
				return fail(
					err, len, "size: at most %d IMIX entries", PKTGEN_IMIX_MAX);
			if (parse_size(tok, &a) != 0 ||
				(star != NULL && parse_u64(star, 1, 1000, &w) != 0))
				return fail(err, len,
					"size: bad IMIX entry in '%s': want SIZE*WEIGHT with SIZE "
					"%d-%d, WEIGHT 1-1000",
					v, PKTGEN_SIZE_MIN, PKTGEN_SIZE_MAX);
			c.imix_size[c.imix_n] = (uint16_t)a;
			c.imix_weight[c.imix_n] = (uint16_t)w;
			c.imix_n++;
		}
		if (c.imix_n == 0)
			return fail(err, len, "size: 'imix:' needs at least one SIZE*WEIGHT");
		*cfg = c;
		return 0;
	}
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash++ = '\0';
	if (parse_size(buf, &a) != 0 || (dash != NULL && parse_size(dash, &b) != 0))
		return fail(err, len,
			"size: '%s' is not N, MIN-MAX, imix or imix:SIZE*WEIGHT,... (sizes %d-%d, "
			"FCS included)",
			v, PKTGEN_SIZE_MIN, PKTGEN_SIZE_MAX);
	if (dash != NULL && b < a)
		return fail(err, len, "size: range '%s' is empty (MIN > MAX)", v);
	cfg->size_mode = dash == NULL || a == b ? PKTGEN_SIZE_FIXED : PKTGEN_SIZE_RANGE;
	cfg->size_min = (uint16_t)a;
	cfg->size_max = (uint16_t)(dash == NULL ? a : b);
	return 0;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "zero", "inc", "byte:N" (decimal, as every number), "hex:DEADBEEF" */
static int
key_payload(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t b;

	if (strcasecmp(v, "zero") == 0) {
		cfg->payload = PKTGEN_PAYLOAD_ZERO;
		return 0;
	}
	if (strcasecmp(v, "inc") == 0) {
		cfg->payload = PKTGEN_PAYLOAD_INC;
		return 0;
	}
	if (strncasecmp(v, "byte:", 5) == 0) {
		if (parse_u64(v + 5, 0, 255, &b) != 0)
			return fail(err, len,
				"payload: '%s': byte:N wants a decimal N in 0-255 (hex:NN for hex)",
				v);
		cfg->payload = PKTGEN_PAYLOAD_BYTES;
		cfg->pattern[0] = (uint8_t)b;
		cfg->pattern_len = 1;
		return 0;
	}
	if (strncasecmp(v, "hex:", 4) == 0) {
		const char *h = v + 4;
		size_t n = strlen(h), i;

		if (n == 0 || n % 2 != 0 || n / 2 > PKTGEN_PATTERN_MAX)
			return fail(err, len,
				"payload: '%s': hex: wants an even number of hex digits, 2-%d", v,
				2 * PKTGEN_PATTERN_MAX);
		for (i = 0; i < n; i++)
			if (hexval(h[i]) < 0)
				return fail(err, len, "payload: '%s': '%c' is not a hex digit", v,
					h[i]);
		for (i = 0; i < n / 2; i++)
			cfg->pattern[i] = (uint8_t)(hexval(h[2 * i]) << 4 | hexval(h[2 * i + 1]));
		cfg->pattern_len = (uint8_t)(n / 2);
		cfg->payload = PKTGEN_PAYLOAD_BYTES;
		return 0;
	}
	return fail(err, len, "payload: '%s' is not zero, inc, byte:N or hex:HEXDIGITS", v);
}

/* "[rand:|inc:]A[-B]" with A, B parsed by @p one */
static int
parse_range(const char *v, struct pktgen_range *r, int (*one)(const char *, uint32_t *))
{
	char buf[64], *s = buf, *dash;
	struct pktgen_range out = {.vary = PKTGEN_VARY_INC};

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	if (strncasecmp(s, "rand:", 5) == 0) {
		out.vary = PKTGEN_VARY_RANDOM;
		s += 5;
	} else if (strncasecmp(s, "random:", 7) == 0) {
		out.vary = PKTGEN_VARY_RANDOM;
		s += 7;
	} else if (strncasecmp(s, "inc:", 4) == 0) {
		s += 4;
	}
	dash = strchr(s, '-');
	if (dash != NULL)
		*dash++ = '\0';
	if (one(s, &out.min) != 0)
		return -1;
	out.max = out.min;
	if (dash != NULL && (one(dash, &out.max) != 0 || out.max < out.min))
		return -1;
	*r = out;
	return 0;
}

static int
one_ip(const char *s, uint32_t *out)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return -1;
	*out = rte_be_to_cpu_32(a.s_addr);
	return 0;
}

static int
one_port(const char *s, uint32_t *out)
{
	uint64_t v;

	if (parse_u64(s, 0, 65535, &v) != 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

#define RANGE_KEY(fn, field, one, what, syntax)                                            \
	static int fn(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len) \
	{                                                                                  \
		if (parse_range(v, &cfg->field, one) != 0)                                 \
			return fail(err, len, what ": '%s' is not " syntax, v);            \
		return 0;                                                                  \
	}

#define IP_SYNTAX   "[rand:]A.B.C.D[-A.B.C.D]"
#define PORT_SYNTAX "[rand:]N[-M] (0-65535)"
RANGE_KEY(key_src_ip, src_ip, one_ip, "src-ip", IP_SYNTAX)
RANGE_KEY(key_dst_ip, dst_ip, one_ip, "dst-ip", IP_SYNTAX)
RANGE_KEY(key_src_port, src_port, one_port, "src-port", PORT_SYNTAX)
RANGE_KEY(key_dst_port, dst_port, one_port, "dst-port", PORT_SYNTAX)

static int
key_flows(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 1, PKTGEN_FLOWS_MAX, &n, "flows", err, len);

	if (ret == 0)
		cfg->flows = (uint32_t)n;
	return ret;
}

/* "rr" or "train:K" */
static int
key_pattern(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t k;

	if (strcasecmp(v, "rr") == 0 || strcasecmp(v, "round-robin") == 0) {
		cfg->arrival = PKTGEN_ARRIVAL_RR;
		cfg->train = 1;
		return 0;
	}
	if (strncasecmp(v, "train:", 6) == 0 && parse_u64(v + 6, 1, 1u << 20, &k) == 0) {
		cfg->arrival = PKTGEN_ARRIVAL_TRAIN;
		cfg->train = (uint32_t)k;
		return 0;
	}
	return fail(err, len, "pattern: '%s' is not rr or train:K (K 1-%u)", v, 1u << 20);
}

static int
key_count(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	return parse_uint_key(v, 0, UINT64_MAX - 1, &cfg->count, "count", err, len);
}

/* A decimal real followed by a unit the caller checks ("14.88mpps", "2.5s"). */
static int
parse_double(const char *s, double *out, char **end)
{
	const char *e;

	if (num_real(s, &e, out) < 0)
		return -1;
	*end = (char *)(uintptr_t)e;
	return 0;
}

static int
key_duration(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	char *end;
	double d;

	/* a time that rounds to no tick would mean "no limit" */
	if (parse_double(v, &d, &end) != 0 || (*end != '\0' && strcmp(end, "s") != 0) ||
		d > 31536000 || (d != 0 && d < NUM_SECS_MIN))
		return fail(
			err, len, "duration: '%s' is not 0 or seconds in [0.000001, 31536000]", v);
	cfg->duration = d;
	return 0;
}

/* "max", "N[pps|kpps|mpps]", "N(bps|kbps|mbps|gbps)", "N%" */
static int
key_rate(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	static const struct {
		const char *suffix;
		enum pktgen_rate_unit unit;
		double mult;
	} units[] = {
		{"", PKTGEN_RATE_PPS, 1},
		{"pps", PKTGEN_RATE_PPS, 1},
		{"kpps", PKTGEN_RATE_PPS, 1e3},
		{"mpps", PKTGEN_RATE_PPS, 1e6},
		{"bps", PKTGEN_RATE_BPS, 1},
		{"kbps", PKTGEN_RATE_BPS, 1e3},
		{"mbps", PKTGEN_RATE_BPS, 1e6},
		{"gbps", PKTGEN_RATE_BPS, 1e9},
		{"%", PKTGEN_RATE_PCT, 1},
	};
	char *end;
	double r;
	unsigned int i;

	if (strcasecmp(v, "max") == 0 || strcmp(v, "0") == 0) {
		cfg->rate_unit = PKTGEN_RATE_MAX;
		cfg->rate = 0;
		return 0;
	}
	if (parse_double(v, &r, &end) != 0 || r <= 0)
		goto bad;
	for (i = 0; i < RTE_DIM(units); i++) {
		if (strcasecmp(end, units[i].suffix) != 0)
			continue;
		r *= units[i].mult;
		/*
		 * Below a millionth (a packet in 11 days) no rate means anything, and
		 * every accepted one then prints as a plain decimal that reads back.
		 */
		if (r < 1e-6)
			goto bad;
		if (units[i].unit == PKTGEN_RATE_PCT && r > 100)
			return fail(
				err, len, "rate: '%s': a percentage of the link is at most 100", v);
		if (units[i].unit == PKTGEN_RATE_PPS && r > 1e10)
			goto bad;
		if (units[i].unit == PKTGEN_RATE_BPS && r > 1e13)
			goto bad;
		cfg->rate = r;
		cfg->rate_unit = units[i].unit;
		return 0;
	}
bad:
	return fail(err, len,
		"rate: '%s' is not max, N[pps|kpps|mpps], N(bps|kbps|mbps|gbps) or N%% (N >= "
		"0.000001)",
		v);
}

static int
key_clone(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 1, PKTGEN_CLONE_MAX, &n, "clone", err, len);

	if (ret == 0)
		cfg->clone = (uint16_t)n;
	return ret;
}

static int
key_burst(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 1, PKTGEN_BURST_MAX, &n, "burst", err, len);

	if (ret == 0)
		cfg->burst = (uint16_t)n;
	return ret;
}

static int
key_pace_slack(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret;

	if (strcmp(v, "auto") == 0) {
		cfg->pace_slack = 0;
		return 0;
	}
	ret = parse_uint_key(v, 1, 4096, &n, "pace-slack", err, len);
	if (ret == 0)
		cfg->pace_slack = (uint16_t)n;
	return ret;
}

static int
key_ttl(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 1, 255, &n, "ttl", err, len);

	if (ret == 0)
		cfg->ttl = (uint8_t)n;
	return ret;
}

static int
key_tos(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 0, 255, &n, "tos", err, len);

	if (ret == 0)
		cfg->tos = (uint8_t)n;
	return ret;
}

/* letters of FSRPAUEC, as tcpdump prints them */
static const char tcp_letters[] = "FSRPAUEC";

static int
key_tcp_flags(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint8_t f = 0;
	const char *p;

	if (*v == '\0')
		return fail(
			err, len, "tcp-flags: empty (letters of %s, e.g. S or PA)", tcp_letters);
	for (p = v; *p != '\0'; p++) {
		const char *at = strchr(tcp_letters, toupper((unsigned char)*p));

		if (at == NULL || *p == '\0')
			return fail(err, len, "tcp-flags: '%c' is not one of %s", *p, tcp_letters);
		f |= (uint8_t)(1u << (at - tcp_letters));
	}
	cfg->tcp_flags = f;
	return 0;
}

static int
key_seed(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 0, UINT32_MAX, &n, "seed", err, len);

	if (ret == 0)
		cfg->seed = (uint32_t)n;
	return ret;
}

static int
key_mbufs(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 2 * PKTGEN_BURST_MAX, 1u << 24, &n, "mbufs", err, len);

	if (ret == 0)
		cfg->mbufs = (uint32_t)n;
	return ret;
}

static int
key_refcnt(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	if (strcasecmp(v, "batch") == 0)
		cfg->refcnt = PKTGEN_REFCNT_BATCH;
	else if (strcasecmp(v, "per-packet") == 0)
		cfg->refcnt = PKTGEN_REFCNT_PER_PKT;
	else
		return fail(err, len, "refcnt: '%s' is not batch or per-packet", v);
	return 0;
}

static int
key_pcap(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	if (strlen(v) >= sizeof(cfg->pcap))
		return fail(err, len, "pcap: file name too long");
	if (strcasecmp(v, "none") == 0)
		cfg->pcap[0] = '\0';
	else
		strcpy(cfg->pcap, v);
	return 0;
}

static int
key_pcap_timing(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	if (strcasecmp(v, "original") == 0)
		cfg->replay_timing = PKTGEN_REPLAY_ORIGINAL;
	else if (strcasecmp(v, "fast") == 0)
		cfg->replay_timing = PKTGEN_REPLAY_FAST;
	else
		return fail(err, len, "pcap-timing: '%s' is not original or fast", v);
	return 0;
}

static int
key_loops(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	uint64_t n = 0;
	int ret = parse_uint_key(v, 0, UINT32_MAX, &n, "loop", err, len);

	if (ret == 0)
		cfg->loops = (uint32_t)n;
	return ret;
}

/*
 * @p v as a plain decimal (no exponent, which the parsers refuse), the
 * shortest that reads back as the same double: what print writes, set reads.
 */
static const char *
fmt_real(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 0; prec <= 60; prec++) {
		snprintf(buf, len, "%.*f", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return buf;
}

static int
key_speed(struct pktgen_stream_cfg *cfg, const char *v, char *err, size_t len)
{
	char *end;
	double d;

	if (parse_double(v, &d, &end) != 0 || *end != '\0' || d < 0.001 || d > 1e6)
		return fail(err, len, "speed: '%s' is not a multiplier in [0.001, 1e6]", v);
	cfg->speed = d;
	return 0;
}

static const struct key_def keys[] = {
	{{"proto", "udp|tcp|icmp", "L4 protocol over IPv4 (icmp: echo request)"}, key_proto},
	{{"src-mac", "aa:bb:cc:dd:ee:ff", "source MAC"}, key_src_mac},
	{{"dst-mac", "aa:bb:cc:dd:ee:ff", "destination MAC"}, key_dst_mac},
	{{"vlan", "none|ID[/PRIO]", "802.1Q tag, ID 1-4095, PRIO 0-7"}, key_vlan},
	{{"size", "N|MIN-MAX|imix|imix:SIZE*W,...",
		 "frame size with FCS (64-9018): fixed, uniform random per mbuf, or IMIX "
		 "(imix = 64*7,576*4,1500*1)"},
		key_size},
	{{"payload", "zero|inc|byte:N|hex:HEX",
		 "payload fill (a signature, when it fits, covers its first 12 bytes)"},
		key_payload},
	{{"src-ip", IP_SYNTAX, "source address(es): flow i takes the i-th (inc) or a random one"},
		key_src_ip},
	{{"dst-ip", IP_SYNTAX, "destination address(es), as src-ip"}, key_dst_ip},
	{{"src-port", PORT_SYNTAX, "UDP/TCP source port(s) (ICMP: echo id), as src-ip"},
		key_src_port},
	{{"dst-port", PORT_SYNTAX, "UDP/TCP destination port(s) (ICMP: echo seq), as src-ip"},
		key_dst_port},
	{{"flows", "N", "distinct 5-tuples, 1-65536 (each range is walked or drawn per flow)"},
		key_flows},
	{{"pattern", "rr|train:K",
		 "arrival order: round-robin over flows, or K mbufs of one flow back to back"},
		key_pattern},
	{{"count", "N", "packets to send in all (0: no limit); exact"}, key_count},
	{{"duration", "SEC", "stop after SEC seconds (0: no limit); fractions ok"}, key_duration},
	{{"rate", "max|N[pps|kpps|mpps]|N(bps|kbps|mbps|gbps)|N%",
		 "pace: packets/s, or bits/s on the wire (frame+FCS+20 B), or % of link speed"},
		key_rate},
	{{"clone", "K", "send each mbuf K times (1-255); its refcount is set once"}, key_clone},
	{{"burst", "N", "packets per tx_burst (1-128)"}, key_burst},
	{{"pace-slack", "auto|N",
		 "most packets sent above the rate to catch up after a stall (auto: 100 us of traffic, "
		 ">= 32)"},
		key_pace_slack},
	{{"ttl", "N", "IPv4 TTL (1-255)"}, key_ttl},
	{{"tos", "N", "IPv4 TOS byte (0-255)"}, key_tos},
	{{"tcp-flags", "LETTERS", "TCP flags from FSRPAUEC (e.g. S, PA)"}, key_tcp_flags},
	{{"seed", "N", "seed of the random ranges and sizes"}, key_seed},
	{{"mbufs", "N", "template pool per TX lcore (>= TX descriptors + 2 bursts)"}, key_mbufs},
	{{"refcnt", "batch|per-packet",
		 "clone references: one store per mbuf, or one atomic per send (benchmark)"},
		key_refcnt},
	{{"pcap", "FILE|none", "replay FILE instead of building packets"}, key_pcap},
	{{"pcap-timing", "original|fast", "replay with the capture's gaps, or back to back"},
		key_pcap_timing},
	{{"loop", "N", "replay the file N times (0: until count/duration/stop)"}, key_loops},
	{{"speed", "X", "replay timing multiplier (2: twice as fast)"}, key_speed},
};

void
pktgen_stream_init(struct pktgen_stream_cfg *cfg)
{
	static const struct rte_ether_addr src = {{0x02, 0x00, 0x00, 0x00, 0x00, 0x01}};
	static const struct rte_ether_addr dst = {{0x02, 0x00, 0x00, 0x00, 0x00, 0x02}};

	memset(cfg, 0, sizeof(*cfg));
	cfg->proto = PKTGEN_PROTO_UDP;
	cfg->src_mac = src;
	cfg->dst_mac = dst;
	cfg->ttl = 64;
	cfg->tcp_flags = RTE_TCP_ACK_FLAG;
	cfg->size_mode = PKTGEN_SIZE_FIXED;
	cfg->size_min = cfg->size_max = 64;
	cfg->payload = PKTGEN_PAYLOAD_INC;
	cfg->src_ip = (struct pktgen_range){RTE_IPV4(10, 0, 0, 1), RTE_IPV4(10, 0, 0, 1), 0};
	cfg->dst_ip = (struct pktgen_range){RTE_IPV4(10, 0, 0, 2), RTE_IPV4(10, 0, 0, 2), 0};
	cfg->src_port = (struct pktgen_range){1024, 1024, 0};
	cfg->dst_port = (struct pktgen_range){1024, 1024, 0};
	cfg->flows = 1;
	cfg->arrival = PKTGEN_ARRIVAL_RR;
	cfg->train = 1;
	cfg->rate_unit = PKTGEN_RATE_MAX;
	cfg->clone = 1;
	cfg->burst = 32;
	cfg->pace_slack = 0; /* auto: 100 us of traffic */
	cfg->refcnt = PKTGEN_REFCNT_BATCH;
	cfg->seed = 1;
	cfg->mbufs = 8191;
	cfg->replay_timing = PKTGEN_REPLAY_ORIGINAL;
	cfg->loops = 1;
	cfg->speed = 1;
}

int
pktgen_stream_set(
	struct pktgen_stream_cfg *cfg, const char *key, const char *value, char *err, size_t errlen)
{
	unsigned int i;

	if (key == NULL || value == NULL)
		return fail(err, errlen, "missing key or value");
	for (i = 0; i < RTE_DIM(keys); i++)
		if (strcasecmp(key, keys[i].k.name) == 0)
			return keys[i].parse(cfg, value, err, errlen);
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "unknown pktgen key '%s' (see 'pktgen help')", key);
	return -ENOENT;
}

static uint16_t
hdr_len(const struct pktgen_stream_cfg *cfg)
{
	return (uint16_t)(RTE_ETHER_HDR_LEN + (cfg->vlan != 0 ? 4 : 0) + 20 +
			  (cfg->proto == PKTGEN_PROTO_TCP ? 20 : 8));
}

int
pktgen_stream_check(const struct pktgen_stream_cfg *cfg, char *err, size_t errlen)
{
	unsigned int i;
	uint32_t wsum = 0;

	if (cfg->size_mode == PKTGEN_SIZE_IMIX) {
		if (cfg->imix_n == 0 || cfg->imix_n > PKTGEN_IMIX_MAX)
			return fail(err, errlen, "size: IMIX needs 1-%d entries", PKTGEN_IMIX_MAX);
		for (i = 0; i < cfg->imix_n; i++) {
			if (cfg->imix_size[i] < PKTGEN_SIZE_MIN ||
				cfg->imix_size[i] > PKTGEN_SIZE_MAX || cfg->imix_weight[i] == 0)
				return fail(err, errlen, "size: bad IMIX entry %u", i);
			wsum += cfg->imix_weight[i];
		}
		if (wsum > 4096)
			return fail(
				err, errlen, "size: IMIX weights sum to %u (at most 4096)", wsum);
	} else if (cfg->size_min < PKTGEN_SIZE_MIN || cfg->size_max > PKTGEN_SIZE_MAX ||
		   cfg->size_min > cfg->size_max) {
		return fail(err, errlen, "size: %u-%u is not within %d-%d", cfg->size_min,
			cfg->size_max, PKTGEN_SIZE_MIN, PKTGEN_SIZE_MAX);
	}
	if (hdr_len(cfg) + PKTGEN_FCS_LEN > PKTGEN_SIZE_MIN)
		return fail(err, errlen, "internal: headers longer than the smallest frame");
	if (cfg->src_ip.min > cfg->src_ip.max || cfg->dst_ip.min > cfg->dst_ip.max ||
		cfg->src_port.min > cfg->src_port.max || cfg->dst_port.min > cfg->dst_port.max ||
		cfg->src_port.max > 65535 || cfg->dst_port.max > 65535)
		return fail(err, errlen, "an address or port range has MIN > MAX");
	if (cfg->flows == 0 || cfg->flows > PKTGEN_FLOWS_MAX)
		return fail(err, errlen, "flows: %u is not in 1-%d", cfg->flows, PKTGEN_FLOWS_MAX);
	if (cfg->clone == 0 || cfg->clone > PKTGEN_CLONE_MAX || cfg->burst == 0 ||
		cfg->burst > PKTGEN_BURST_MAX || cfg->train == 0)
		return fail(err, errlen, "clone, burst and train must be positive");
	if (cfg->rate_unit != PKTGEN_RATE_MAX && !(cfg->rate > 0))
		return fail(err, errlen, "rate: must be positive (or max)");
	if (cfg->mbufs < 2u * PKTGEN_BURST_MAX)
		return fail(err, errlen, "mbufs: at least %d", 2 * PKTGEN_BURST_MAX);
	if (!(cfg->speed > 0))
		return fail(err, errlen, "speed: must be positive");
	return 0;
}

const struct pktgen_key *
pktgen_stream_keys(unsigned int *n)
{
	static struct pktgen_key table[RTE_DIM(keys)];
	unsigned int i;

	for (i = 0; i < RTE_DIM(keys); i++)
		table[i] = keys[i].k;
	*n = RTE_DIM(keys);
	return table;
}

void
pktgen_stream_help(FILE *f)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(keys); i++)
		fprintf(f, "  %-11s %-34s %s\n", keys[i].k.name, keys[i].k.syntax, keys[i].k.help);
}

static void
print_ip(FILE *f, uint32_t a)
{
	fprintf(f, "%u.%u.%u.%u", a >> 24, (a >> 16) & 0xff, (a >> 8) & 0xff, a & 0xff);
}

static void
print_range(FILE *f, const char *key, const struct pktgen_range *r, bool ip)
{
	fprintf(f, "%s = %s", key, r->vary == PKTGEN_VARY_RANDOM ? "rand:" : "");
	if (ip)
		print_ip(f, r->min);
	else
		fprintf(f, "%u", r->min);
	if (r->max != r->min) {
		fputc('-', f);
		if (ip)
			print_ip(f, r->max);
		else
			fprintf(f, "%u", r->max);
	}
	fputc('\n', f);
}

void
pktgen_stream_print(const struct pktgen_stream_cfg *cfg, FILE *f)
{
	static const char *const protos[] = {"udp", "tcp", "icmp"};
	char mac[RTE_ETHER_ADDR_FMT_SIZE], num[96];
	unsigned int i;

	fprintf(f, "proto = %s\n", protos[cfg->proto]);
	rte_ether_format_addr(mac, sizeof(mac), &cfg->src_mac);
	fprintf(f, "src-mac = %s\n", mac);
	rte_ether_format_addr(mac, sizeof(mac), &cfg->dst_mac);
	fprintf(f, "dst-mac = %s\n", mac);
	if (cfg->vlan == 0)
		fprintf(f, "vlan = none\n");
	else
		fprintf(f, "vlan = %u/%u\n", cfg->vlan, cfg->vlan_prio);
	switch (cfg->size_mode) {
	case PKTGEN_SIZE_IMIX:
		fprintf(f, "size = imix:");
		for (i = 0; i < cfg->imix_n; i++)
			fprintf(f, "%s%u*%u", i ? "," : "", cfg->imix_size[i], cfg->imix_weight[i]);
		fputc('\n', f);
		break;
	case PKTGEN_SIZE_RANGE:
		fprintf(f, "size = %u-%u\n", cfg->size_min, cfg->size_max);
		break;
	default:
		fprintf(f, "size = %u\n", cfg->size_min);
	}
	switch (cfg->payload) {
	case PKTGEN_PAYLOAD_ZERO:
		fprintf(f, "payload = zero\n");
		break;
	case PKTGEN_PAYLOAD_INC:
		fprintf(f, "payload = inc\n");
		break;
	default:
		fprintf(f, "payload = hex:");
		for (i = 0; i < cfg->pattern_len; i++)
			fprintf(f, "%02x", cfg->pattern[i]);
		fputc('\n', f);
	}
	print_range(f, "src-ip", &cfg->src_ip, true);
	print_range(f, "dst-ip", &cfg->dst_ip, true);
	print_range(f, "src-port", &cfg->src_port, false);
	print_range(f, "dst-port", &cfg->dst_port, false);
	fprintf(f, "flows = %u\n", cfg->flows);
	if (cfg->arrival == PKTGEN_ARRIVAL_TRAIN)
		fprintf(f, "pattern = train:%u\n", cfg->train);
	else
		fprintf(f, "pattern = rr\n");
	fprintf(f, "count = %" PRIu64 "\n", cfg->count);
	fprintf(f, "duration = %s\n", fmt_real(num, sizeof(num), cfg->duration));
	switch (cfg->rate_unit) {
	case PKTGEN_RATE_PPS:
		fprintf(f, "rate = %spps\n", fmt_real(num, sizeof(num), cfg->rate));
		break;
	case PKTGEN_RATE_BPS:
		fprintf(f, "rate = %sbps\n", fmt_real(num, sizeof(num), cfg->rate));
		break;
	case PKTGEN_RATE_PCT:
		fprintf(f, "rate = %s%%\n", fmt_real(num, sizeof(num), cfg->rate));
		break;
	default:
		fprintf(f, "rate = max\n");
	}
	fprintf(f, "clone = %u\nburst = %u\n", cfg->clone, cfg->burst);
	if (cfg->pace_slack == 0)
		fprintf(f, "pace-slack = auto\n");
	else
		fprintf(f, "pace-slack = %u\n", cfg->pace_slack);
	fprintf(f, "ttl = %u\ntos = %u\n", cfg->ttl, cfg->tos);
	fprintf(f, "tcp-flags = ");
	for (i = 0; i < 8; i++)
		if (cfg->tcp_flags & (1u << i))
			fputc(tcp_letters[i], f);
	fprintf(f, "\nseed = %u\nmbufs = %u\nrefcnt = %s\n", cfg->seed, cfg->mbufs,
		cfg->refcnt == PKTGEN_REFCNT_BATCH ? "batch" : "per-packet");
	fprintf(f, "pcap = %s\npcap-timing = %s\nloop = %u\nspeed = %s\n",
		cfg->pcap[0] ? cfg->pcap : "none",
		cfg->replay_timing == PKTGEN_REPLAY_FAST ? "fast" : "original", cfg->loops,
		fmt_real(num, sizeof(num), cfg->speed));
}

double
pktgen_stream_mean_size(const struct pktgen_stream_cfg *cfg)
{
	double s = 0, w = 0;
	unsigned int i;

	switch (cfg->size_mode) {
	case PKTGEN_SIZE_IMIX:
		for (i = 0; i < cfg->imix_n; i++) {
			s += (double)cfg->imix_size[i] * cfg->imix_weight[i];
			w += cfg->imix_weight[i];
		}
		return w > 0 ? s / w : 0;
	case PKTGEN_SIZE_RANGE:
		return (cfg->size_min + cfg->size_max) / 2.0;
	default:
		return cfg->size_min;
	}
}
