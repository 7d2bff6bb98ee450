/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Receive side control path: creation, reset, and the totals, which add to
 * the final losses of each flow the sequence numbers its window still misses.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "pktgen.h"
#include "pktgen_priv.h"

struct pktgen_rx *
pktgen_rx_create(const char *name, uint32_t n_flows, int socket, uint64_t hz)
{
	struct pktgen_rx *r;

	if (name == NULL || n_flows == 0 || n_flows > PKTGEN_FLOWS_MAX) {
		rte_errno = EINVAL;
		return NULL;
	}
	r = rte_zmalloc_socket(name, sizeof(*r), RTE_CACHE_LINE_SIZE, socket);
	if (r == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	r->flows = rte_zmalloc_socket(
		name, (size_t)n_flows * sizeof(r->flows[0]), RTE_CACHE_LINE_SIZE, socket);
	if (r->flows == NULL) {
		rte_free(r);
		rte_errno = ENOMEM;
		return NULL;
	}
	r->n_flows = n_flows;
	r->n_alloc = n_flows;
	r->socket = socket;
	r->hz = hz != 0 ? hz : rte_get_tsc_hz();
	r->ns_mult = (uint64_t)((1e9 * 4294967296.0) / (double)r->hz);
	pktgen_rx_reset_apply(r);
	return r;
}

int
pktgen_rx_set_flows(struct pktgen_rx *r, uint32_t n_flows)
{
	struct pktgen_rx_flow *flows;

	if (n_flows == 0 || n_flows > PKTGEN_FLOWS_MAX)
		return -EINVAL;
	if (n_flows > r->n_alloc) {
		flows = rte_zmalloc_socket("pktgen_rx", (size_t)n_flows * sizeof(flows[0]),
			RTE_CACHE_LINE_SIZE, r->socket);
		if (flows == NULL)
			return -ENOMEM;
		memcpy(flows, r->flows, (size_t)r->n_alloc * sizeof(flows[0]));
		rte_free(r->flows);
		r->flows = flows;
		r->n_alloc = n_flows;
	}
	/* a smaller count keeps the array: what the flows beyond counted stays in the totals */
	r->n_flows = n_flows;
	return 0;
}

void
pktgen_rx_free(struct pktgen_rx *r)
{
	if (r == NULL)
		return;
	rte_free(r->flows);
	rte_free(r);
}

void
pktgen_rx_reset(struct pktgen_rx *r)
{
	__atomic_store_n(&r->reset_req, 1, __ATOMIC_RELEASE);
}

void
pktgen_rx_reset_apply(struct pktgen_rx *r)
{
	memset(r->flows, 0, (size_t)r->n_alloc * sizeof(r->flows[0]));
	r->pkts = 0;
	r->bytes = 0;
	r->foreign = 0;
	r->lat_n = 0;
	r->lat_sum_ns = 0;
	r->lat_min_ns = UINT64_MAX;
	r->lat_max_ns = 0;
	memset(r->hist, 0, sizeof(r->hist));
	__atomic_store_n(&r->reset_req, 0, __ATOMIC_RELEASE);
}

/* Copies still missing in the window: final once no more packets come. */
static uint64_t
window_missing(const struct pktgen_rx_flow *fl)
{
	uint32_t span = fl->max_seq - fl->first_seq + 1, i;
	uint64_t miss = 0;

	if (!fl->started)
		return 0;
	span = RTE_MIN(span, (uint32_t)PKTGEN_RX_WINDOW);
	for (i = 0; i < span; i++)
		miss += pktgen_rx_missing(fl, (fl->max_seq - i) % PKTGEN_RX_WINDOW);
	return miss;
}

static void
flow_stats(const struct pktgen_rx_flow *fl, struct pktgen_rx_flow_stats *st)
{
	int64_t lost = fl->lost + (int64_t)window_missing(fl);

	st->pkts = fl->pkts;
	st->bytes = fl->bytes;
	st->lost = lost > 0 ? (uint64_t)lost : 0;
	st->reorder = fl->reorder;
	st->dup = fl->dup;
	st->late = fl->late;
}

int
pktgen_rx_flow_stats(const struct pktgen_rx *r, uint32_t flow, struct pktgen_rx_flow_stats *st)
{
	if (flow >= r->n_alloc)
		return -EINVAL;
	flow_stats(&r->flows[flow], st);
	return 0;
}

void
pktgen_rx_stats(const struct pktgen_rx *r, struct pktgen_rx_stats *st)
{
	uint32_t f;

	memset(st, 0, sizeof(*st));
	st->rx_pkts = r->pkts;
	st->rx_bytes = r->bytes;
	st->foreign = r->foreign;
	st->signed_pkts = r->lat_n;
	for (f = 0; f < r->n_alloc; f++) {
		struct pktgen_rx_flow_stats fs;

		if (!r->flows[f].started)
			continue;
		flow_stats(&r->flows[f], &fs);
		st->lost += fs.lost;
		st->reorder += fs.reorder;
		st->dup += fs.dup;
		st->late += fs.late;
	}
	if (r->lat_n != 0) {
		st->lat_min_ns = r->lat_min_ns;
		st->lat_avg_ns = r->lat_sum_ns / r->lat_n;
		st->lat_max_ns = r->lat_max_ns;
	}
}

void
pktgen_rx_hist(const struct pktgen_rx *r, uint64_t hist[PKTGEN_HIST_BUCKETS])
{
	memcpy(hist, r->hist, sizeof(r->hist));
}

uint64_t
pktgen_rx_lat_sum_ns(const struct pktgen_rx *r)
{
	return r->lat_sum_ns;
}
