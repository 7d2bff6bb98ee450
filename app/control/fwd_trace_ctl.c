/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The packet trace, control side: arming the workers' buffers and printing
 * their records the way VPP's "show trace" does, a packet then one line per
 * stage. Records hold raw words; their meaning per stage kind is here.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ether.h>
#include <rte_malloc.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "fwd_config.h"
#include "fwd_ctl.h"
#include "fwd_lcore.h"
#include "fwd_tel_page.h"
#include "fwd_trace.h"
#include "fwd_trace_ctl.h"
#include "rt_exception.h"
#include "rt_types.h"

/* what the workers share; one forwarder per process */
static struct fwd_trace_ctl trace_ctl = {.port = FWD_TRACE_ANY_PORT};
static uint64_t trace_start_tsc;

static const char *const kind_names[] = {
#define KIND_NAME(sym, name) name,
	FWD_TRACE_KINDS(KIND_NAME)
#undef KIND_NAME
};

static const char *const exc_names[] = {
#define EXC_NAME(sym, name, desc) name,
	RT_EXCEPTIONS(EXC_NAME)
#undef EXC_NAME
};

static const char *const exc_descs[] = {
#define EXC_DESC(sym, name, desc) desc,
	RT_EXCEPTIONS(EXC_DESC)
#undef EXC_DESC
};

/*
 * Run @p fn with the workers stopped; they restart if they ran, in the same
 * run: the ports' counters at its start are kept, so the run's statistics
 * that stop prints still count from the start, not from the trace command.
 */
static void
with_workers_stopped(struct fwd_app *app, void (*fn)(struct fwd_app *, void *), void *arg)
{
	const bool was_running = fwd_ctl_pause(app);

	fn(app, arg);
	fwd_ctl_resume(app, was_running);
}

struct arm_args {
	uint32_t n;
	uint16_t port;
};

static void
arm(struct fwd_app *app, void *arg)
{
	const struct arm_args *a = arg;
	unsigned int i;

	trace_ctl.total = a->n;
	trace_ctl.left = a->n;
	trace_ctl.port = a->port;
	trace_start_tsc = rte_rdtsc();
	for (i = 0; i < app->n_workers; i++) {
		fwd_trace_clear(app->workers[i]->trace);
		app->workers[i]->trace_on = a->n != 0;
	}
}

int
fwd_trace_ctl_start(struct fwd_app *app, uint32_t n, uint16_t port, char *err, size_t errlen)
{
	struct arm_args a = {.n = n, .port = port};
	unsigned int i;

	if (n < 1 || n > FWD_TRACE_MAX) {
		snprintf(err, errlen, "trace start %" PRIu32 ": expected 1 to %d packets", n,
			FWD_TRACE_MAX);
		return -EINVAL;
	}
	if (port != FWD_TRACE_ANY_PORT && port >= app->nb_ports) {
		snprintf(err, errlen, "port %u does not exist (%u ports)", port, app->nb_ports);
		return -EINVAL;
	}
	for (i = 0; i < app->n_workers; i++) {
		struct fwd_lcore *lc = app->workers[i];

		if (lc->trace != NULL)
			continue;
		/* on the worker's socket: its lcore is the one that writes it */
		lc->trace = rte_zmalloc_socket("fwd_trace", sizeof(*lc->trace), RTE_CACHE_LINE_SIZE,
			(int)rte_lcore_to_socket_id(lc->lcore_id));
		if (lc->trace == NULL) {
			snprintf(err, errlen, "no memory for lcore %u's trace records",
				lc->lcore_id);
			return -ENOMEM;
		}
		lc->trace->ctl = &trace_ctl;
	}
	with_workers_stopped(app, arm, &a);
	return 0;
}

static void
disarm(struct fwd_app *app, void *arg)
{
	unsigned int i;

	RTE_SET_USED(arg);
	trace_ctl.left = 0;
	for (i = 0; i < app->n_workers; i++)
		app->workers[i]->trace_on = 0;
}

void
fwd_trace_ctl_stop(struct fwd_app *app)
{
	with_workers_stopped(app, disarm, NULL);
}

static void
empty(struct fwd_app *app, void *arg)
{
	unsigned int i;

	RTE_SET_USED(arg);
	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->trace != NULL)
			fwd_trace_clear(app->workers[i]->trace);
}

void
fwd_trace_ctl_clear(struct fwd_app *app)
{
	with_workers_stopped(app, empty, NULL);
}

void
fwd_trace_ctl_free(struct fwd_app *app)
{
	unsigned int i;

	for (i = 0; i < app->n_workers; i++) {
		rte_free(app->workers[i]->trace);
		app->workers[i]->trace = NULL;
		app->workers[i]->trace_on = 0;
	}
}

/* ------------------------------------------------------------ show trace */

static const char *
ip_str(uint32_t ip, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
	return buf;
}

static const char *
mac_str(const void *p, char *buf, size_t len)
{
	struct rte_ether_addr a;

	memcpy(&a, p, sizeof(a));
	rte_ether_format_addr(buf, (uint16_t)len, &a);
	return buf;
}

static const char *
nh_type_str(uint8_t type)
{
	switch (type) {
	case RT_NH_GW:
		return "via";
	case RT_NH_CONNECTED:
		return "on-link";
	case RT_NH_LOCAL:
		return "local (for the router)";
	case RT_NH_BLACKHOLE:
		return "blackhole";
	case RT_NH_REJECT:
		return "reject";
	case RT_NH_GROUP:
		return "ecmp group";
	default:
		return "free";
	}
}

static const char *
icmp_str(uint8_t type, uint16_t code)
{
	if (type == 11)
		return "time exceeded";
	if (type == 0)
		return "echo reply";
	if (type == 3 && code == 0)
		return "net unreachable";
	if (type == 3 && code == 1)
		return "host unreachable";
	if (type == 3 && code == 4)
		return "fragmentation needed";
	return "error";
}

/* One stage's line: its kind's name, what it decided, and a newline. */
static void
format_stage(const struct fwd_trace_stage *s, FILE *f)
{
	char a[RTE_ETHER_ADDR_FMT_SIZE + 16], b[RTE_ETHER_ADDR_FMT_SIZE + 16];

	fprintf(f, "%s: ", s->kind < FWD_TRACE_KIND_MAX ? kind_names[s->kind] : "?");
	switch (s->kind) {
	case FWD_TRACE_ETH:
		fprintf(f, "%s -> %s, type 0x%04x\n",
			mac_str((const uint8_t *)s->w + 6, a, sizeof(a)),
			mac_str(s->w, b, sizeof(b)), s->u16);
		break;
	case FWD_TRACE_IPV4:
		fprintf(f, "%s -> %s, proto %u, ttl %u, length %u, ihl %u, frag 0x%04x",
			ip_str(s->w[0], a, sizeof(a)), ip_str(s->w[1], b, sizeof(b)), s->u8,
			s->w[2] >> 24, s->u16, (s->w[2] >> 16) & 0xf, s->w[2] & 0xffff);
		if (s->w[3] != 0)
			fprintf(f, ", ports %u -> %u", s->w[3] >> 16, s->w[3] & 0xffff);
		fprintf(f, "\n");
		break;
	case FWD_TRACE_ACTION:
		fprintf(f, "%s", fwd_mode_name((enum fwd_mode)s->u8));
		if (s->u8 == FWD_MODE_MAC)
			fprintf(f, ": dst := %s, src := %s", mac_str(s->w, a, sizeof(a)),
				mac_str((const uint8_t *)s->w + 6, b, sizeof(b)));
		else if (s->u8 == FWD_MODE_MACSWAP)
			fprintf(f, ": source and destination MAC swapped");
		else if (s->u8 == FWD_MODE_IO)
			fprintf(f, ": unchanged");
		fprintf(f, "\n");
		break;
	case FWD_TRACE_FLOW_GROUP:
		fprintf(f, "group %u, %u packet%s of the burst's %u\n", s->u16, s->w[0],
			s->w[0] == 1 ? "" : "s", s->w[1]);
		break;
	case FWD_TRACE_ROUTE:
		if (s->u8 == UINT8_MAX)
			fprintf(f, "no route to %s\n", ip_str(s->w[0], a, sizeof(a)));
		else
			fprintf(f, "%s/%u hit by %s, next hop %u\n", ip_str(s->w[1], a, sizeof(a)),
				s->u8, ip_str(s->w[0], b, sizeof(b)), s->w[2]);
		break;
	case FWD_TRACE_NEXT_HOP:
		fprintf(f, "%u %s", s->w[0], nh_type_str(s->u8));
		if (s->u8 == RT_NH_GW)
			fprintf(f, " %s", ip_str(s->w[1], a, sizeof(a)));
		if (s->u8 == RT_NH_GW || s->u8 == RT_NH_CONNECTED)
			fprintf(f, " out of port %u (mtu %u)", s->u16, s->w[2]);
		fprintf(f, "\n");
		break;
	case FWD_TRACE_ECMP:
		/* u8: 1 by the RSS hash; u16: the member's index; w: group, hash, active, members */
		fprintf(f, "group %u: member %u of %u (%u active) by %s hash 0x%08x\n", s->w[0],
			s->u16 + 1, s->w[3], s->w[2], s->u8 ? "the RSS" : "the flow's", s->w[1]);
		break;
	case FWD_TRACE_NEIGH:
		if (s->u8)
			fprintf(f, "%s resolved, %s\n", ip_str(s->w[0], a, sizeof(a)),
				mac_str(&s->w[1], b, sizeof(b)));
		else
			fprintf(f, "%s unresolved: ARP, the packet held\n",
				ip_str(s->w[0], a, sizeof(a)));
		break;
	case FWD_TRACE_PUNT:
		fprintf(f, "%s to the slow path (%s)\n",
			s->u8 < RT_EXC_MAX ? exc_names[s->u8] : "?",
			s->u8 < RT_EXC_MAX ? exc_descs[s->u8] : "?");
		break;
	case FWD_TRACE_FRAG:
		fprintf(f, "into %u fragments for mtu %u, by the slow path\n", s->u16, s->w[0]);
		break;
	case FWD_TRACE_ICMP:
		fprintf(f, "%s (type %u code %u)", icmp_str(s->u8, s->u16), s->u8, s->u16);
		if (s->u8 == 3 && s->u16 == 4)
			fprintf(f, " mtu %u", s->w[0]);
		fprintf(f, ", built by the slow path (within its rate limit)\n");
		break;
	case FWD_TRACE_DROP:
		fprintf(f, "%s (%s)\n", fwd_drop_name((enum fwd_drop_reason)s->u16),
			fwd_drop_desc((enum fwd_drop_reason)s->u16));
		break;
	case FWD_TRACE_TX:
		fprintf(f, "port %u queue %u\n", s->u16, s->w[0]);
		break;
	default:
		fprintf(f, "?\n");
		break;
	}
}

static int
by_seq(const void *a, const void *b)
{
	const struct fwd_trace_rec *x = *(const struct fwd_trace_rec *const *)a;
	const struct fwd_trace_rec *y = *(const struct fwd_trace_rec *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Every published record of every worker, in trace order (an array to
 * free), their number in @p n; NULL without memory.
 */
static const struct fwd_trace_rec **
gather(const struct fwd_app *app, unsigned int *count)
{
	const struct fwd_trace_rec **recs;
	unsigned int i, n = 0, want = 0;
	uint32_t j;

	for (i = 0; i < app->n_workers; i++)
		if (app->workers[i]->trace != NULL)
			want += fwd_trace_count(app->workers[i]->trace);
	recs = calloc(want + 1, sizeof(*recs));
	if (recs == NULL)
		return NULL;
	for (i = 0; i < app->n_workers; i++) {
		const struct fwd_trace_buf *b = app->workers[i]->trace;
		uint32_t c;

		if (b == NULL)
			continue;
		/* acquire: the records below the count are complete; more may come after */
		c = fwd_trace_count(b);
		for (j = 0; j < c && n < want; j++)
			recs[n++] = &b->rec[j];
	}
	qsort(recs, n, sizeof(*recs), by_seq);
	*count = n;
	return recs;
}

/* Microseconds from trace start to @p r's burst. */
static uint64_t
rec_us(const struct fwd_trace_rec *r)
{
	const uint64_t hz = rte_get_tsc_hz();

	return r->tsc > trace_start_tsc && hz != 0 ? (r->tsc - trace_start_tsc) * 1000000 / hz : 0;
}

static bool
recording(void)
{
	return __atomic_load_n(&trace_ctl.left, __ATOMIC_RELAXED) != 0;
}

void
fwd_trace_ctl_show(const struct fwd_app *app, FILE *f)
{
	const struct fwd_trace_rec **recs;
	unsigned int i, n = 0;

	recs = gather(app, &n);
	if (recs == NULL) {
		fprintf(f, "show trace: no memory\n");
		return;
	}
	fprintf(f, "trace: %u packet%s recorded of %" PRIu32 " asked", n, n == 1 ? "" : "s",
		trace_ctl.total);
	if (trace_ctl.port != FWD_TRACE_ANY_PORT)
		fprintf(f, " (port %u)", trace_ctl.port);
	fprintf(f, ", %s\n",
		__atomic_load_n(&trace_ctl.left, __ATOMIC_RELAXED) != 0 ? "recording"
									: "not recording");
	for (i = 0; i < n; i++) {
		const struct fwd_trace_rec *r = recs[i];
		const uint64_t us = rec_us(r);
		unsigned int s;

		fprintf(f, "Packet %" PRIu32 "\n", r->seq + 1);
		fprintf(f,
			"  %" PRIu64 ".%06" PRIu64 " s: lcore %u, rx port %u queue %u, %" PRIu32
			" bytes\n",
			us / 1000000, us % 1000000, r->lcore, r->port, r->queue, r->len);
		for (s = 0; s < r->n_stages; s++) {
			fprintf(f, "    ");
			format_stage(&r->st[s], f);
		}
	}
	free(recs);
}

/* the head of a /forwarder/trace page: recorded, asked, recording, start, count, more, next */
#define TEL_TRACE_HEAD 7

/*
 * Record @p r as an array of strings: its packet line, then a line per
 * stage, cut to what a telemetry string holds; its JSON bytes in @p bytes.
 */
static struct rte_tel_data *
tel_packet(const struct fwd_trace_rec *r, size_t *bytes)
{
	struct rte_tel_data *a = rte_tel_data_alloc();
	char line[RTE_TEL_MAX_STRING_LEN];
	unsigned int s;

	if (a == NULL)
		return NULL;
	rte_tel_data_start_array(a, RTE_TEL_STRING_VAL);
	snprintf(line, sizeof(line),
		"%" PRIu64 " us: lcore %u, rx port %u queue %u, %" PRIu32 " bytes", rec_us(r),
		r->lcore, r->port, r->queue, r->len);
	rte_tel_data_add_array_string(a, line);
	*bytes = 2 + fwd_tel_str_bytes(line); /* [ and ] */
	for (s = 0; s < r->n_stages; s++) {
		/* the shell's line, cut to what a telemetry string holds */
		FILE *f = fmemopen(line, sizeof(line), "w");

		if (f == NULL)
			break;
		format_stage(&r->st[s], f);
		fclose(f);
		line[sizeof(line) - 1] = '\0';
		line[strcspn(line, "\n")] = '\0';
		rte_tel_data_add_array_string(a, line);
		*bytes += fwd_tel_str_bytes(line);
	}
	return a;
}

void
fwd_trace_ctl_telemetry(
	const struct fwd_app *app, struct rte_tel_data *d, const char *cmd, uint32_t start)
{
	const struct fwd_trace_rec **recs;
	struct fwd_tel_page pg;
	unsigned int i, n = 0;

	rte_tel_data_start_dict(d);
	recs = gather(app, &n);
	if (recs == NULL)
		return;
	fwd_tel_page_init(&pg, cmd, TEL_TRACE_HEAD);
	for (i = start; i < n; i++) {
		const struct fwd_trace_rec *r = recs[i];
		char key[32];
		size_t bytes = 0;
		struct rte_tel_data *a = tel_packet(r, &bytes);

		if (a == NULL)
			break;
		snprintf(key, sizeof(key), "packet%" PRIu32, r->seq + 1);
		if (!fwd_tel_page_take(&pg, fwd_tel_key_bytes(key) + bytes)) {
			rte_tel_data_free(a);
			break; /* the page ends here: "next" names this packet */
		}
		rte_tel_data_add_dict_container(d, key, a, 0);
	}
	free(recs);
	/* the head last: only now is it known how many fitted */
	rte_tel_data_add_dict_u64(d, "recorded", n);
	rte_tel_data_add_dict_u64(d, "asked", trace_ctl.total);
	rte_tel_data_add_dict_u64(d, "recording", recording());
	rte_tel_data_add_dict_u64(d, "start", start);
	rte_tel_data_add_dict_u64(d, "count", i > start ? i - start : 0);
	rte_tel_data_add_dict_u64(d, "more", i < n);
	if (i < n)
		rte_tel_data_add_dict_u64(d, "next", i);
}
