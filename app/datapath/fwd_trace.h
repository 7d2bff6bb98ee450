/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TRACE_H
#define FWD_TRACE_H

/**
 * @file
 * The packet trace ("trace start N [port P]" in the shell): for the next N
 * packets, one record each of the stages they passed and what each decided.
 *
 * Cost when off: the poll loop reads its lcore's fwd_lcore.trace_on once per
 * burst, a plain load and a branch that is never taken; nothing else of the
 * trace is touched. When on, the burst goes through fwd_trace_burst()
 * (fwd_trace.c), out of line, which claims packets from the shared budget
 * (one atomic per burst, only then) and records them.
 *
 * Memory ordering:
 * - Arming, stopping and clearing are done by the control thread with the
 *   workers stopped (fwd_ctl's stop/start around the change): the launch
 *   and the wait order everything, so fwd_lcore.trace_on and the buffer's
 *   head need no atomics.
 * - While the workers run, a buffer has one writer, its lcore. It fills
 *   record n completely, then stores n + 1 into fwd_trace_buf.n with release
 *   semantics; the control thread loads n with acquire semantics and reads
 *   only records below it, which are never written again until a clear.
 * - The budget, fwd_trace_ctl.left, is shared by the lcores: claimed with a
 *   compare-and-swap per traced burst, so N packets in all are recorded
 *   however many workers there are.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_common.h>

#define FWD_TRACE_MAX      256        /**< largest N of "trace start N" */
#define FWD_TRACE_STAGES   12         /**< stages one record holds (more are not kept) */
#define FWD_TRACE_ANY_PORT UINT16_MAX /**< fwd_trace_ctl.port: record every port */

/* X(ENUM_SUFFIX, "name shown by show trace") */
#define FWD_TRACE_KINDS(X)          \
	X(ETH, "ethernet")          \
	X(IPV4, "ipv4")             \
	X(ACTION, "action")         \
	X(FLOW_GROUP, "flow-group") \
	X(ROUTE, "route")           \
	X(ECMP, "ecmp")             \
	X(NEXT_HOP, "next-hop")     \
	X(NEIGH, "neighbour")       \
	X(PUNT, "punt")             \
	X(FRAG, "fragment")         \
	X(ICMP, "icmp")             \
	X(DROP, "drop")             \
	X(TX, "tx")

/** What a stage record says; its fields' meaning depends on it (fwd_trace_ctl.c prints them). */
enum fwd_trace_kind {
#define FWD_TRACE_ENUM(sym, name) FWD_TRACE_##sym,
	FWD_TRACE_KINDS(FWD_TRACE_ENUM)
#undef FWD_TRACE_ENUM
		FWD_TRACE_KIND_MAX
};

/** One stage a packet passed: a kind and four words, raw; formatted only when shown. */
struct fwd_trace_stage {
	uint8_t kind; /**< enum fwd_trace_kind */
	uint8_t u8;
	uint16_t u16;
	uint32_t w[4];
};

/** One traced packet. */
struct fwd_trace_rec {
	uint64_t tsc;   /**< when it was received (rte_rdtsc of the traced burst) */
	uint32_t seq;   /**< packet number in this trace, from 0 */
	uint16_t lcore; /**< worker that received it */
	uint16_t port;  /**< input port and queue */
	uint16_t queue;
	uint16_t n_stages; /**< stages kept in @c st */
	uint32_t len;      /**< pkt_len as received */
	struct fwd_trace_stage st[FWD_TRACE_STAGES];
};

/** What the lcores share: the budget and the port filter. */
struct fwd_trace_ctl {
	uint32_t left;  /**< packets still to record, all lcores together (atomic) */
	uint32_t total; /**< N of the last "trace start N" */
	uint16_t port;  /**< only this input port, or FWD_TRACE_ANY_PORT */
};

/** One lcore's records, written by that lcore only. */
struct fwd_trace_buf {
	uint32_t n; /**< records published: release store by the lcore, acquire load to read */
	struct fwd_trace_ctl *ctl;
	struct fwd_trace_rec rec[FWD_TRACE_MAX];
};

/**
 * Claim up to @p want packets from the shared budget.
 *
 * @param seq
 *   Receives the trace's packet number of the first one claimed.
 * @return
 *   How many were claimed: 0 once the budget is spent.
 */
static inline uint32_t
fwd_trace_claim(struct fwd_trace_ctl *ctl, uint32_t want, uint32_t *seq)
{
	uint32_t left = __atomic_load_n(&ctl->left, __ATOMIC_RELAXED);
	uint32_t take;

	do {
		if (left == 0)
			return 0;
		take = RTE_MIN(left, want);
	} while (!__atomic_compare_exchange_n(
		&ctl->left, &left, left - take, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	*seq = ctl->total - left;
	return take;
}

/**
 * Start the record of packet @p seq in @p b (not yet visible to readers).
 *
 * @return the record to fill, or NULL when the buffer is full (a limit,
 *   never a wrap: what was recorded stays as it was).
 */
static inline struct fwd_trace_rec *
fwd_trace_begin(struct fwd_trace_buf *b, uint32_t seq, uint16_t lcore, uint16_t port,
	uint16_t queue, uint32_t len, uint64_t tsc)
{
	struct fwd_trace_rec *r;

	if (b->n >= FWD_TRACE_MAX)
		return NULL;
	r = &b->rec[b->n];
	r->tsc = tsc;
	r->seq = seq;
	r->lcore = lcore;
	r->port = port;
	r->queue = queue;
	r->len = len;
	r->n_stages = 0;
	return r;
}

/**
 * Add a stage to @p r (ignored past FWD_TRACE_STAGES, or when @p r is NULL).
 *
 * @return the stage to fill its words in, or NULL.
 */
static inline struct fwd_trace_stage *
fwd_trace_stage(struct fwd_trace_rec *r, enum fwd_trace_kind kind, uint8_t u8, uint16_t u16)
{
	struct fwd_trace_stage *s;

	if (r == NULL || r->n_stages >= FWD_TRACE_STAGES)
		return NULL;
	s = &r->st[r->n_stages++];
	memset(s, 0, sizeof(*s));
	s->kind = (uint8_t)kind;
	s->u8 = u8;
	s->u16 = u16;
	return s;
}

/** Make the record begun last in @p b visible to the control thread. */
static inline void
fwd_trace_publish(struct fwd_trace_buf *b, const struct fwd_trace_rec *r)
{
	if (r == NULL)
		return;
	/* release: every store to the record before the reader can see n cover it */
	__atomic_store_n(&b->n, b->n + 1, __ATOMIC_RELEASE);
}

/**
 * Records the control thread may read in @p b: every one below the
 * returned count is complete.
 */
static inline uint32_t
fwd_trace_count(const struct fwd_trace_buf *b)
{
	return __atomic_load_n(&b->n, __ATOMIC_ACQUIRE);
}

/** Empty @p b; only with its lcore stopped. */
static inline void
fwd_trace_clear(struct fwd_trace_buf *b)
{
	b->n = 0;
}

#endif /* FWD_TRACE_H */
