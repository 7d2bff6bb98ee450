/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_malloc.h>

#include "flowsort.h"

RTE_LOG_REGISTER(flowsort_logtype, lib.flowsort, INFO);

#define FS_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, flowsort_logtype, "flowsort: " fmt "\n", ##__VA_ARGS__)

/* 1.0 in the 8-bit fixed point of mean group lengths */
#define FS_ONE             256
#define FS_DEF_OFF_BELOW   (FS_ONE * 6 / 5)
#define FS_DEF_ON_AT       (FS_ONE * 3 / 2)
#define FS_DEF_PROBE_EVERY 16
#define FS_DEF_MIN_BURST   4
/*
 * Samples are capped: anything above 4 packets per group wins clearly, and an
 * uncapped mean built on 64-packet trains would take ~40 bursts to notice that
 * the trains stopped.
 */
#define FS_SAMPLE_CAP (4 * FS_ONE)
/* running mean while on: new = old - old/4 + sample/4, off in ~10 bursts from the cap */
#define FS_EWMA_SHIFT           2
#define FS_DEF_COST_PROBE_EVERY 64
/* the first try of the other way comes soon: until then only one way is known */
#define FS_COST_FIRST_PROBE 4
/* fractional bits of the costs per packet */
#define FS_COST_FRAC 4
/* switch ways when the other is cheaper by more than 1/32 of the current cost */
#define FS_COST_MARGIN_SHIFT 5
/* keeps cost << FS_COST_FRAC and twice the mean well inside 32 bits */
#define FS_COST_MAX (UINT32_MAX >> 2)

/* forget both ways' costs: after a change of mode or of the group-length state */
static void
fs_cost_reset(struct flowsort_queue *q)
{
	q->cost_way = FLOWSORT_COST_GROUPED;
	q->timed = 0;
	/* the way taken is timed at once: the first try of the other can then decide */
	q->tick = FLOWSORT_COST_TICK - 1;
	q->spike = 0;
	q->cost[0] = 0;
	q->cost[1] = 0;
	q->until_cost_probe = RTE_MIN(FS_COST_FIRST_PROBE, q->cost_probe_every);
}

struct flowsort_ctx *
flowsort_ctx_create(const struct flowsort_ctx_conf *conf, int socket_id)
{
	struct flowsort_ctx *ctx;

	if (conf != NULL &&
		(conf->flags & ~(uint32_t)(FLOWSORT_F_NO_RSS | FLOWSORT_F_NO_ORDER)) != 0) {
		FS_LOG(ERR, "unknown flags 0x%x", conf->flags);
		rte_errno = EINVAL;
		return NULL;
	}
	/* zeroed once here: gen 0 is never current, so every slot starts free */
	ctx = rte_zmalloc_socket("flowsort_ctx", sizeof(*ctx), RTE_CACHE_LINE_SIZE, socket_id);
	if (ctx == NULL) {
		FS_LOG(ERR, "no memory for a context (%zu bytes)", sizeof(*ctx));
		rte_errno = ENOMEM;
		return NULL;
	}
	if (conf != NULL) {
		ctx->hash_fn = conf->hash_fn;
		ctx->hash_arg = conf->hash_arg;
		ctx->flags = conf->flags;
	}
	return ctx;
}

void
flowsort_ctx_free(struct flowsort_ctx *ctx)
{
	rte_free(ctx);
}

void
__flowsort_ctx_wrap(struct flowsort_ctx *ctx)
{
	memset(ctx->slot, 0, sizeof(ctx->slot));
	ctx->gen = 1;
}

int
flowsort_queue_set_mode(struct flowsort_queue *q, enum flowsort_mode mode)
{
	if (mode != FLOWSORT_MODE_AUTO && mode != FLOWSORT_MODE_ON && mode != FLOWSORT_MODE_OFF)
		return -EINVAL;
	q->mode = mode;
	/* start optimistic: a wrong guess costs the few bursts it takes to turn off */
	q->off = 0;
	q->mean_len = FS_SAMPLE_CAP;
	q->probe_gap = q->probe_every;
	q->until_probe = q->probe_gap;
	fs_cost_reset(q);
	return 0;
}

struct flowsort_queue *
flowsort_queue_create(const struct flowsort_queue_conf *conf, int socket_id)
{
	struct flowsort_queue_conf c = {0};
	struct flowsort_queue *q;

	if (conf != NULL)
		c = *conf;
	if (c.off_below == 0)
		c.off_below = FS_DEF_OFF_BELOW;
	if (c.on_at == 0)
		c.on_at = RTE_MAX(FS_DEF_ON_AT, c.off_below);
	if (c.probe_every == 0)
		c.probe_every = FS_DEF_PROBE_EVERY;
	if (c.probe_max == 0)
		c.probe_max = (uint16_t)RTE_MIN(16u * c.probe_every, 32768u);
	if (c.min_burst == 0)
		c.min_burst = FS_DEF_MIN_BURST;
	if (c.cost_probe_every == 0)
		c.cost_probe_every = FS_DEF_COST_PROBE_EVERY;
	if (c.probe_max < c.probe_every || c.probe_max > 32768) {
		FS_LOG(ERR, "need probe_every (%u) <= probe_max (%u) <= 32768", c.probe_every,
			c.probe_max);
		rte_errno = EINVAL;
		return NULL;
	}
	if (c.on_at < c.off_below || c.on_at > FS_SAMPLE_CAP) {
		FS_LOG(ERR, "need off_below (%u) <= on_at (%u) <= %u", c.off_below, c.on_at,
			FS_SAMPLE_CAP);
		rte_errno = EINVAL;
		return NULL;
	}
	q = rte_zmalloc_socket("flowsort_queue", sizeof(*q), RTE_CACHE_LINE_SIZE, socket_id);
	if (q == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	q->off_below = c.off_below;
	q->on_at = c.on_at;
	q->probe_every = c.probe_every;
	q->probe_max = c.probe_max;
	q->min_burst = c.min_burst;
	q->by_cost = c.by_cost != 0;
	q->cost_probe_every = c.cost_probe_every;
	if (flowsort_queue_set_mode(q, c.mode) != 0) {
		FS_LOG(ERR, "unknown mode %d", (int)c.mode);
		rte_free(q);
		rte_errno = EINVAL;
		return NULL;
	}
	return q;
}

void
flowsort_queue_free(struct flowsort_queue *q)
{
	rte_free(q);
}

void
__flowsort_queue_update(struct flowsort_queue *q, uint16_t n, uint16_t nb_runs)
{
	uint32_t sample = RTE_MIN(((uint32_t)n * FS_ONE) / nb_runs, (uint32_t)FS_SAMPLE_CAP);

	if (!q->off) {
		q->mean_len =
			q->mean_len - (q->mean_len >> FS_EWMA_SHIFT) + (sample >> FS_EWMA_SHIFT);
		if (q->mean_len < q->off_below) {
			q->off = 1;
			q->probe_gap = q->probe_every;
			q->until_probe = q->probe_gap;
			q->stats.turned_off++;
		}
		return;
	}
	/*
	 * While off only one burst in probe_every is seen, so a probe weighs 1/2:
	 * one burst of real trains is enough to turn back on, a single lucky burst
	 * among ~1-packet groups is not.
	 */
	q->mean_len = (q->mean_len + sample) / 2;
	if (q->mean_len >= q->on_at) {
		q->off = 0;
		q->stats.turned_on++;
		/* costs measured before the groups got short say nothing about now */
		fs_cost_reset(q);
		return;
	}
	/*
	 * Still off: back off. A probe costs a whole grouping pass, which against
	 * a cheap per-packet stage is most of the bypass overhead in the worst case.
	 */
	q->probe_gap = (uint16_t)RTE_MIN(2u * q->probe_gap, (uint32_t)q->probe_max);
	q->until_probe = q->probe_gap;
}

void
flowsort_queue_cost(struct flowsort_queue *q, uint64_t cycles, uint16_t n)
{
	const unsigned int way = q->timed - 1u;
	const unsigned int cur = q->cost_way;
	uint64_t sample;
	uint32_t *c;

	/* off by group length: the burst was a length probe, costs are not compared */
	if (q->timed == 0 || n == 0 || q->off || q->mode != FLOWSORT_MODE_AUTO) {
		q->timed = 0;
		return;
	}
	q->timed = 0;
	c = &q->cost[way];
	sample = RTE_MIN((cycles << FS_COST_FRAC) / n, (uint64_t)FS_COST_MAX);
	if (*c == 0) {
		*c = (uint32_t)RTE_MAX(sample, 1u);
	} else {
		/*
		 * One preempted burst must not count: a sample above twice the mean
		 * counts as twice the mean, unless the previous one of this way was
		 * as high (the traffic changed).
		 */
		if (sample > 2ull * *c) {
			if (!(q->spike & (1u << way))) {
				q->spike |= (uint8_t)(1u << way);
				sample = 2ull * *c;
			}
		} else {
			q->spike &= (uint8_t) ~(1u << way);
		}
		/* the other way is sampled rarely: a try weighs 1/2, the way taken 1/4 */
		if (way == cur)
			*c = (uint32_t)(*c - (*c >> 2) + (sample >> 2));
		else
			*c = (uint32_t)((*c + sample) / 2);
		*c = RTE_MAX(*c, 1u);
	}
	/*
	 * Decide on a try only, when the other way's cost is fresh: the way
	 * taken is sampled far more often, and comparing its new cost with
	 * the other's old one would flip back and forth while the traffic
	 * changes (both costs move, one of them seen late).
	 */
	if (way == cur || q->cost[0] == 0 || q->cost[1] == 0)
		return;
	if (q->cost[way] + (q->cost[cur] >> FS_COST_MARGIN_SHIFT) < q->cost[cur]) {
		q->cost_way = (uint8_t)(cur ^ 1);
		q->stats.cost_switches++;
	}
}

void
flowsort_queue_stats_get(const struct flowsort_queue *q, struct flowsort_stats *stats)
{
	*stats = q->stats;
}

void
flowsort_queue_stats_reset(struct flowsort_queue *q)
{
	memset(&q->stats, 0, sizeof(q->stats));
}

const char *
flowsort_stats_name(unsigned int i)
{
	static const char *const names[] = {
#define FLOWSORT_STAT_NAME(f, name, desc) name,
		FLOWSORT_STATS(FLOWSORT_STAT_NAME)
#undef FLOWSORT_STAT_NAME
	};

	RTE_BUILD_BUG_ON(RTE_DIM(names) != FLOWSORT_NB_STATS);
	return i < RTE_DIM(names) ? names[i] : NULL;
}
