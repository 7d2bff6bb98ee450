/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * pcap replay: the file is loaded once into mbufs of a pool of its own, and
 * each send takes one more reference to the loaded mbuf (a plain store when
 * we hold the only one) instead of copying it.
 */

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include <pcap/pcap.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "pktgen.h"
#include "pktgen_priv.h"

/* The largest packet a replay buffer takes (jumbo frames and then some). */
#define PCAP_MAX_LEN 9600

struct pktgen_pcap {
	struct rte_mempool *pool;
	struct rte_mbuf **pkts;
	uint64_t *ts_ns; /**< capture time relative to the first packet */
	uint32_t n;
	uint32_t skipped;
	uint64_t span_ns; /**< one pass: last - first + the mean gap */
	/* replay state */
	uint32_t pos;
	uint32_t loop;
	uint32_t loops;
	bool original;
	double tsc_per_ns; /**< TSC cycles per capture nanosecond, speed included */
	uint64_t base_tsc; /**< TSC when pass 0 started */
	uint64_t max_lag;
};

static int __rte_format_printf(3, 4) set_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && len > 0) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static pcap_t *
open_file(const char *path, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	pcap_t *pc =
		pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, ebuf);

	if (pc == NULL) {
		set_err(err, errlen, "pcap %s: %s", path, ebuf);
		return NULL;
	}
	if (pcap_datalink(pc) != DLT_EN10MB) {
		set_err(err, errlen, "pcap %s: link type %d is not Ethernet", path,
			pcap_datalink(pc));
		pcap_close(pc);
		return NULL;
	}
	return pc;
}

struct pktgen_pcap *
pktgen_pcap_load(const char *name, const char *path, int socket, char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	struct pktgen_pcap *p;
	uint32_t n = 0, maxlen = 64;
	uint64_t t0 = 0;
	pcap_t *pc;
	int ret;

	pc = open_file(path, err, errlen);
	if (pc == NULL) {
		rte_errno = ENOENT;
		return NULL;
	}
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		if (h->caplen < h->len || h->len > PCAP_MAX_LEN || h->len < RTE_ETHER_HDR_LEN)
			continue;
		n++;
		maxlen = RTE_MAX(maxlen, h->len);
	}
	pcap_close(pc);
	if (n == 0) {
		set_err(err, errlen, "pcap %s: no packet to replay", path);
		rte_errno = EINVAL;
		return NULL;
	}
	p = rte_zmalloc_socket(name, sizeof(*p), 0, socket);
	if (p == NULL)
		goto nomem;
	p->pkts = rte_zmalloc_socket(name, n * sizeof(p->pkts[0]), 0, socket);
	p->ts_ns = rte_zmalloc_socket(name, n * sizeof(p->ts_ns[0]), 0, socket);
	p->pool = rte_pktmbuf_pool_create(
		name, n, 0, 0, (uint16_t)(RTE_PKTMBUF_HEADROOM + maxlen), socket);
	if (p->pkts == NULL || p->ts_ns == NULL || p->pool == NULL)
		goto nomem;
	pc = open_file(path, err, errlen);
	if (pc == NULL) {
		pktgen_pcap_free(p);
		rte_errno = ENOENT;
		return NULL;
	}
	while (p->n < n && pcap_next_ex(pc, &h, &data) == 1) {
		uint64_t t = (uint64_t)h->ts.tv_sec * 1000000000ULL + (uint64_t)h->ts.tv_usec;
		struct rte_mbuf *m;

		if (h->caplen < h->len || h->len > PCAP_MAX_LEN || h->len < RTE_ETHER_HDR_LEN) {
			p->skipped++;
			continue;
		}
		m = rte_pktmbuf_alloc(p->pool);
		if (m == NULL)
			break;
		memcpy(rte_pktmbuf_append(m, (uint16_t)h->len), data, h->len);
		if (p->n == 0)
			t0 = t;
		/* a capture that goes back in time is replayed without waiting */
		p->ts_ns[p->n] = t > t0 ? t - t0 : 0;
		if (p->n > 0 && p->ts_ns[p->n] < p->ts_ns[p->n - 1])
			p->ts_ns[p->n] = p->ts_ns[p->n - 1];
		p->pkts[p->n++] = m;
	}
	pcap_close(pc);
	p->span_ns = p->ts_ns[p->n - 1] + (p->n > 1 ? p->ts_ns[p->n - 1] / (p->n - 1) : 0);
	return p;
nomem:
	set_err(err, errlen, "pcap %s: out of memory for %u packets", path, n);
	pktgen_pcap_free(p);
	rte_errno = ENOMEM;
	return NULL;
}

void
pktgen_pcap_free(struct pktgen_pcap *p)
{
	uint32_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		rte_pktmbuf_free(p->pkts[i]);
	rte_mempool_free(p->pool);
	rte_free(p->pkts);
	rte_free(p->ts_ns);
	rte_free(p);
}

uint32_t
pktgen_pcap_count(const struct pktgen_pcap *p)
{
	return p->n;
}

uint32_t
pktgen_pcap_skipped(const struct pktgen_pcap *p)
{
	return p->skipped;
}

struct rte_mempool *
pktgen_pcap_pool(const struct pktgen_pcap *p)
{
	return p->pool;
}

void
pktgen_replay_init(struct pktgen_lcore *g, const struct pktgen_stream_cfg *cfg)
{
	struct pktgen_pcap *p = g->pcap;

	p->loops = cfg->loops;
	p->original = cfg->replay_timing == PKTGEN_REPLAY_ORIGINAL;
	p->tsc_per_ns = (double)g->hz / 1e9 / cfg->speed;
	p->max_lag = g->hz / 1000000 * PKTGEN_REPLAY_MAX_LAG_US;
	pktgen_replay_rewind(g);
}

void
pktgen_replay_rewind(struct pktgen_lcore *g)
{
	g->pcap->pos = 0;
	g->pcap->loop = 0;
}

uint16_t
pktgen_replay_poll(struct pktgen_lcore *g, uint16_t port, uint16_t queue, uint64_t now)
{
	struct pktgen_pcap *p = g->pcap;
	struct rte_mbuf *out[PKTGEN_BURST_MAX];
	bool first = !g->started;
	uint64_t bytes = 0;
	uint16_t n, i, sent;

	n = pktgen_tx_budget(g, now);
	if (first)
		p->base_tsc = now;
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m;

		if (p->loops != 0 && p->loop >= p->loops) {
			g->remaining = 0;
			break;
		}
		if (p->original) {
			double off =
				((double)p->loop * p->span_ns + p->ts_ns[p->pos]) * p->tsc_per_ns;
			uint64_t due = p->base_tsc + (uint64_t)off;

			if ((int64_t)(now - due) < 0)
				break;
			if (now - due > p->max_lag) {
				/* after a stall, move the clock on rather than burst to catch up */
				g->stats.pace_forgiven++;
				p->base_tsc += now - due;
			}
		}
		m = p->pkts[p->pos];
		if (rte_mbuf_refcnt_read(m) == 1)
			rte_mbuf_refcnt_set(m, 2);
		else
			rte_mbuf_refcnt_update(m, 1);
		out[i] = m;
		bytes += m->pkt_len;
		if (++p->pos == p->n) {
			p->pos = 0;
			p->loop++;
			g->stats.replay_loops++;
		}
	}
	if (i == 0) {
		if (g->remaining == 0)
			g->done = true;
		return 0;
	}
	sent = rte_eth_tx_burst(port, queue, out, i);
	g->stats.tx_bytes += bytes;
	g->stats.tx_pkts += sent;
	g->stats.tx_bursts += sent != 0;
	g->stats.mbufs += i;
	if (unlikely(sent < i))
		pktgen_keep_unsent(g, out, sent, i);
	if (g->remaining != UINT64_MAX)
		g->remaining -= i;
	if (g->paced)
		g->credit -= (uint64_t)i * g->pkt_cost;
	if (p->loops != 0 && p->loop >= p->loops)
		g->remaining = 0;
	if (g->remaining == 0 && g->n_pend == 0)
		g->done = true;
	return sent;
}
