/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * pcap replay: the file is read once into memory at creation; the replaying
 * lcore builds one mbuf per packet from its own fragpool when it starts
 * (fragpool allocation is owner-only) and drops them at every stop. Each send
 * takes one more reference to the loaded mbuf (fragpool_mbuf_share(): a plain
 * store when we hold the only one) instead of copying it.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <pcap/pcap.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "pktgen.h"
#include "pktgen_priv.h"

/* The largest packet a replay buffer takes (jumbo frames and then some). */
#define PCAP_MAX_LEN 9600

struct pktgen_pcap {
	uint8_t *data;          /**< the packets' bytes back to back, as read */
	uint32_t *off;          /**< where packet i starts in data */
	uint16_t *len;          /**< its length */
	struct rte_mbuf **pkts; /**< built from data, while pkts_built */
	bool pkts_built;
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

/*
 * Open @p path for reading its packets; NULL with rte_errno and the reason:
 * the file cannot be read (its errno), or it is not a capture of Ethernet
 * frames (EINVAL).
 */
static pcap_t *
open_file(const char *path, char *err, size_t errlen)
{
	char ebuf[PCAP_ERRBUF_SIZE];
	struct stat st;
	pcap_t *pc;
	FILE *f;
	int dlt;

	/* opened here, so that a file we cannot read is told from one that is not a pcap */
	f = fopen(path, "rb");
	if (f == NULL) {
		rte_errno = errno;
		set_err(err, errlen, "pcap %s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		rte_errno = EISDIR;
		set_err(err, errlen, "pcap %s: is a directory, not a capture file", path);
		return NULL;
	}
	pc = pcap_fopen_offline_with_tstamp_precision(f, PCAP_TSTAMP_PRECISION_NANO, ebuf);
	if (pc == NULL) {
		fclose(f);
		rte_errno = EINVAL;
		set_err(err, errlen, "pcap %s: not a pcap or pcapng capture (%s)", path, ebuf);
		return NULL;
	}
	dlt = pcap_datalink(pc);
	if (dlt != DLT_EN10MB) {
		const char *dname = pcap_datalink_val_to_name(dlt);

		set_err(err, errlen,
			"pcap %s: link type %d (%s) is not Ethernet: only Ethernet (EN10MB) "
			"captures can be replayed",
			path, dlt, dname != NULL ? dname : "unknown");
		pcap_close(pc);
		rte_errno = EINVAL;
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
	uint64_t t0 = 0, bytes = 0;
	uint32_t n = 0, at = 0;
	pcap_t *pc;
	int ret;

	pc = open_file(path, err, errlen);
	if (pc == NULL)
		return NULL;
	while ((ret = pcap_next_ex(pc, &h, &data)) == 1) {
		if (h->caplen < h->len || h->len > PCAP_MAX_LEN || h->len < RTE_ETHER_HDR_LEN)
			continue;
		n++;
		bytes += h->len;
	}
	pcap_close(pc);
	if (n == 0) {
		set_err(err, errlen, "pcap %s: no packet to replay", path);
		rte_errno = EINVAL;
		return NULL;
	}
	if (bytes > UINT32_MAX) {
		set_err(err, errlen, "pcap %s: more than 4 GiB of packets", path);
		rte_errno = EINVAL;
		return NULL;
	}
	p = rte_zmalloc_socket(name, sizeof(*p), 0, socket);
	if (p == NULL)
		goto nomem;
	p->pkts = rte_zmalloc_socket(name, n * sizeof(p->pkts[0]), 0, socket);
	p->ts_ns = rte_zmalloc_socket(name, n * sizeof(p->ts_ns[0]), 0, socket);
	p->off = rte_zmalloc_socket(name, n * sizeof(p->off[0]), 0, socket);
	p->len = rte_zmalloc_socket(name, n * sizeof(p->len[0]), 0, socket);
	p->data = rte_malloc_socket(name, bytes, 0, socket);
	if (p->pkts == NULL || p->ts_ns == NULL || p->off == NULL || p->len == NULL ||
		p->data == NULL)
		goto nomem;
	pc = open_file(path, err, errlen);
	if (pc == NULL) {
		ret = rte_errno;
		pktgen_pcap_free(p);
		rte_errno = ret;
		return NULL;
	}
	while (p->n < n && pcap_next_ex(pc, &h, &data) == 1) {
		uint64_t t = (uint64_t)h->ts.tv_sec * 1000000000ULL + (uint64_t)h->ts.tv_usec;

		if (h->caplen < h->len || h->len > PCAP_MAX_LEN || h->len < RTE_ETHER_HDR_LEN) {
			p->skipped++;
			continue;
		}
		/* the file may have changed since it was counted */
		if (at + h->len > bytes)
			break;
		memcpy(p->data + at, data, h->len);
		p->off[p->n] = at;
		p->len[p->n] = (uint16_t)h->len;
		at += h->len;
		if (p->n == 0)
			t0 = t;
		/* a capture that goes back in time is replayed without waiting */
		p->ts_ns[p->n] = t > t0 ? t - t0 : 0;
		if (p->n > 0 && p->ts_ns[p->n] < p->ts_ns[p->n - 1])
			p->ts_ns[p->n] = p->ts_ns[p->n - 1];
		p->n++;
	}
	pcap_close(pc);
	if (p->n == 0) {
		set_err(err, errlen, "pcap %s: no packet to replay", path);
		pktgen_pcap_free(p);
		rte_errno = EINVAL;
		return NULL;
	}
	p->span_ns = p->ts_ns[p->n - 1] + (p->n > 1 ? p->ts_ns[p->n - 1] / (p->n - 1) : 0);
	return p;
nomem:
	set_err(err, errlen, "pcap %s: out of memory for %u packets", path, n);
	pktgen_pcap_free(p);
	rte_errno = ENOMEM;
	return NULL;
}

uint32_t
pktgen_pcap_chunks(const struct pktgen_pcap *p)
{
	uint32_t i, chunks = 0, off = FRAGPOOL_MAX_LEN;

	/* fragpool carves in order: a fragment that does not fit starts a chunk */
	for (i = 0; i < p->n; i++) {
		uint32_t sz = RTE_ALIGN_CEIL(pktgen_mbuf_frag(p->len[i]), FRAGPOOL_ALIGN);

		if (off + sz > FRAGPOOL_MAX_LEN) {
			chunks++;
			off = 0;
		}
		off += sz;
	}
	return chunks;
}

int
pktgen_pcap_build(struct pktgen_pcap *p, struct fragpool *fp)
{
	uint32_t i;

	if (p->pkts_built)
		return 0;
	for (i = 0; i < p->n; i++) {
		struct rte_mbuf *m = fragpool_mbuf_alloc(fp, p->len[i]);

		if (m == NULL) {
			int ret = -rte_errno;

			while (i-- > 0)
				rte_pktmbuf_free(p->pkts[i]);
			return ret;
		}
		rte_memcpy(rte_pktmbuf_append(m, p->len[i]), p->data + p->off[i], p->len[i]);
		p->pkts[i] = m;
	}
	p->pkts_built = true;
	return 0;
}

void
pktgen_pcap_release(struct pktgen_pcap *p)
{
	uint32_t i;

	if (p == NULL || !p->pkts_built)
		return;
	/* our reference; a packet a port still holds is freed by the port */
	for (i = 0; i < p->n; i++)
		rte_pktmbuf_free(p->pkts[i]);
	p->pkts_built = false;
}

void
pktgen_pcap_free(struct pktgen_pcap *p)
{
	if (p == NULL)
		return;
	pktgen_pcap_release(p);
	rte_free(p->pkts);
	rte_free(p->ts_ns);
	rte_free(p->off);
	rte_free(p->len);
	rte_free(p->data);
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
		/* the seed pattern: a plain store when the ports hold none of m */
		fragpool_mbuf_share(m, 1);
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
