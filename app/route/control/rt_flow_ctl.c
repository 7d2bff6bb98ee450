/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_pause.h>

#include "rt_flow_ctl.h"

static const char *const stat_names[] = {
#define RT_FLOW_STAT_NAME(f, name, desc) name,
	RT_FLOW_STATS(RT_FLOW_STAT_NAME)
#undef RT_FLOW_STAT_NAME
};

static const char *const mode_names[] = {
	[FLOWSORT_MODE_AUTO] = "auto",
	[FLOWSORT_MODE_ON] = "on",
	[FLOWSORT_MODE_OFF] = "off",
};

const char *
rt_flow_stats_name(unsigned int i)
{
	return i < RTE_DIM(stat_names) ? stat_names[i] : NULL;
}

const char *
rt_flow_mode_name(enum flowsort_mode mode)
{
	return (unsigned int)mode < RTE_DIM(mode_names) ? mode_names[mode] : "?";
}

/* flow-table's values are flowsort's, in the same order */
_Static_assert(RT_FLOW_TABLE_AUTO == (int)FLOWSORT_MODE_AUTO &&
		       RT_FLOW_TABLE_ON == (int)FLOWSORT_MODE_ON &&
		       RT_FLOW_TABLE_OFF == (int)FLOWSORT_MODE_OFF,
	"one name table for flowsort and flow-table");

/* index of @p s in mode_names, or -EINVAL with @p err naming the key @p what */
static int
on_off_auto(const char *what, const char *s, char *err, size_t errlen)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mode_names); i++)
		if (strcmp(s, mode_names[i]) == 0)
			return (int)i;
	snprintf(err, errlen, "%s '%s' is not on, off or auto", what, s);
	return -EINVAL;
}

int
rt_flow_mode_parse(const char *s, enum flowsort_mode *mode, char *err, size_t errlen)
{
	int i = on_off_auto("flowsort", s, err, errlen);

	if (i < 0)
		return i;
	*mode = (enum flowsort_mode)i;
	return 0;
}

int
rt_flow_table_parse(const char *s, enum rt_flow_table_mode *table, char *err, size_t errlen)
{
	int i = on_off_auto("flow-table", s, err, errlen);

	if (i < 0)
		return i;
	*table = (enum rt_flow_table_mode)i;
	return 0;
}

const char *
rt_flow_table_name(enum rt_flow_table_mode table)
{
	return (unsigned int)table < RTE_DIM(mode_names) ? mode_names[table] : "?";
}

void
rt_flow_free(struct rt_flow *fl)
{
	uint16_t q;

	if (fl == NULL)
		return;
	for (q = 0; q < fl->n_queues; q++)
		flowsort_queue_free(fl->fq[q]);
	flowsort_ctx_free(fl->fs);
	rte_free(fl->ent);
	rte_free(fl->way);
	rte_free(fl->seq);
	rte_free(fl);
}

struct rt_flow *
rt_flow_create(const struct rt_flow_conf *c)
{
	struct flowsort_ctx_conf fc = {0};
	struct flowsort_queue_conf qc = {0};
	struct rt_flow *fl;
	uint32_t size;
	double age;
	uint16_t q;

	if (c == NULL || c->n_queues == 0 || c->tbl_gen == NULL || c->age_s < 0 ||
		(unsigned int)c->mode > FLOWSORT_MODE_OFF ||
		(unsigned int)c->table > RT_FLOW_TABLE_OFF || c->size > (1u << 26)) {
		rte_errno = EINVAL;
		return NULL;
	}
	size = rte_align32pow2(
		RTE_MAX(c->size != 0 ? c->size : RT_FLOW_DEFAULT_SIZE, (uint32_t)RT_FLOW_WAYS));
	fl = rte_zmalloc_socket("rt_flow", sizeof(*fl) + c->n_queues * sizeof(fl->fq[0]),
		RTE_CACHE_LINE_SIZE, c->socket);
	if (fl == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	fl->n_queues = c->n_queues;
	fl->mode = (uint8_t)c->mode;
	fl->table = (uint8_t)c->table;
	fl->always = rt_flow_table_always(c->table, c->mode);
	fl->size = size;
	fl->mask = size / RT_FLOW_WAYS - 1;
	age = c->age_s != 0 ? c->age_s : RT_FLOW_DEFAULT_AGE;
	fl->timeout = (uint64_t)(age * (double)rte_get_tsc_hz());
	fl->tbl_gen = c->tbl_gen;
	fl->acl = c->acl;
	fl->hash_fn = c->hash_fn;
	fl->hash_arg = c->hash_arg;
	fl->ent = rte_zmalloc_socket(
		"rt_flow_ent", (size_t)size * sizeof(fl->ent[0]), RTE_CACHE_LINE_SIZE, c->socket);
	fl->way = rte_zmalloc_socket(
		"rt_flow_way", (size_t)size * sizeof(fl->way[0]), RTE_CACHE_LINE_SIZE, c->socket);
	fl->seq = rte_zmalloc_socket(
		"rt_flow_seq", (size_t)size * sizeof(fl->seq[0]), RTE_CACHE_LINE_SIZE, c->socket);
	/*
	 * The same hash for grouping and table, and never the NIC's: each group's
	 * flowsort_run::hash then gives its table hash (rt_flow_hash_mix()) with
	 * no second hash of the key, and a flow hashes alike grouped or not. No
	 * order[]: the stage applies each group's decision in arrival order.
	 */
	fc.hash_fn = c->hash_fn;
	fc.hash_arg = c->hash_arg;
	fc.flags = FLOWSORT_F_NO_RSS | FLOWSORT_F_NO_ORDER;
	fl->fs = flowsort_ctx_create(&fc, c->socket);
	if (fl->ent == NULL || fl->way == NULL || fl->seq == NULL || fl->fs == NULL)
		goto nomem;
	qc.mode = c->mode;
	/*
	 * Auto mode by measured cost: groups of 4-8 packets in random order cost
	 * more to tell apart than the lookups they save over the previous-key
	 * hint, and only timing both ways shows which one wins on this machine.
	 */
	qc.by_cost = 1;
	for (q = 0; q < c->n_queues; q++) {
		fl->fq[q] = flowsort_queue_create(&qc, c->socket);
		if (fl->fq[q] == NULL)
			goto nomem;
	}
	return fl;
nomem:
	rt_flow_free(fl);
	rte_errno = ENOMEM;
	return NULL;
}

void
rt_flow_detach(struct rt_flow *fl)
{
	fl->frozen_gen = rt_flow_gen(fl);
	fl->tbl_gen = &fl->frozen_gen;
	fl->acl = NULL;
}

int
rt_flow_set_mode(struct rt_flow *fl, enum flowsort_mode mode)
{
	uint16_t q;
	int ret;

	for (q = 0; q < fl->n_queues; q++) {
		ret = flowsort_queue_set_mode(fl->fq[q], mode);
		if (ret < 0)
			return ret;
	}
	fl->mode = (uint8_t)mode;
	fl->always = rt_flow_table_always((enum rt_flow_table_mode)fl->table, mode);
	return 0;
}

int
rt_flow_set_table(struct rt_flow *fl, enum rt_flow_table_mode table)
{
	if ((unsigned int)table > RT_FLOW_TABLE_OFF)
		return -EINVAL;
	fl->table = (uint8_t)table;
	fl->always = rt_flow_table_always(table, (enum flowsort_mode)fl->mode);
	return 0;
}

void
rt_flow_stats_get(const struct rt_flow *fl, struct rt_flow_stats *st)
{
	*st = fl->stats;
}

void
rt_flow_stats_reset(struct rt_flow *fl)
{
	uint32_t i;
	uint16_t q;

	memset(&fl->stats, 0, sizeof(fl->stats));
	memset(fl->rule_pkts, 0, sizeof(fl->rule_pkts));
	for (q = 0; q < fl->n_queues; q++)
		flowsort_queue_stats_reset(fl->fq[q]);
	for (i = 0; i < fl->size; i++) {
		if (fl->way[i].sig == 0)
			continue;
		fl->ent[i].pkts = 0;
		fl->ent[i].bytes = 0;
	}
}

void
rt_flow_sort_stats_get(const struct rt_flow *fl, struct flowsort_stats *st)
{
	uint64_t *sum = (uint64_t *)st;
	uint16_t q;
	unsigned int i;

	memset(st, 0, sizeof(*st));
	for (q = 0; q < fl->n_queues; q++) {
		struct flowsort_stats one;

		flowsort_queue_stats_get(fl->fq[q], &one);
		for (i = 0; i < FLOWSORT_NB_STATS; i++)
			sum[i] += ((const uint64_t *)&one)[i];
	}
}

uint64_t
rt_flow_rule_pkts(struct rt_flow *const *fl, unsigned int n, const struct rt_acl *acl, uint8_t slot)
{
	uint32_t ep = __atomic_load_n(&acl->slot_epoch[slot], __ATOMIC_ACQUIRE);
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fl[i] != NULL && fl[i]->rule_epoch[slot] == ep)
			sum += fl[i]->rule_pkts[slot];
	return sum;
}

uint32_t
rt_flow_count(const struct rt_flow *fl, uint64_t now)
{
	uint32_t i, n = 0;

	for (i = 0; i < fl->size; i++)
		if (fl->way[i].sig != 0 && !rt_flow_aged(fl, &fl->ent[i], now))
			n++;
	return n;
}

static uint64_t
weight(const struct rt_flow_info *f, enum rt_flow_order by)
{
	return by == RT_FLOW_BY_BYTES ? f->bytes : f->pkts;
}

/*
 * A consistent copy of entry @p i: its key, decision and first seen are read
 * between two equal even values of its sequence count (the worker rewrites
 * them only inside an odd one); a few retries, then the entry is skipped.
 */
static bool
read_entry(const struct rt_flow *f, uint32_t i, uint32_t gen, struct rt_flow_info *fi)
{
	const struct rt_flow_entry *e = &f->ent[i];
	unsigned int tries;
	uint32_t s0, s1;

	for (tries = 0; tries < 16; tries++) {
		s0 = __atomic_load_n(&f->seq[i], __ATOMIC_ACQUIRE);
		if (s0 & 1) {
			rte_pause();
			continue;
		}
		fi->key.w[0] = e->key[0];
		fi->key.w[1] = e->key[1];
		fi->in_port = e->in_port;
		fi->out_port = e->out_port;
		fi->action = e->action;
		fi->current = e->gen == gen;
		fi->detail = e->action == RT_FLOW_FWD ? 0 : (uint32_t)e->l2;
		fi->pkts = e->pkts;
		fi->bytes = e->bytes;
		fi->first = e->first;
		fi->last = e->last;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		s1 = __atomic_load_n(&f->seq[i], __ATOMIC_RELAXED);
		if (s0 == s1)
			return true;
	}
	return false;
}

unsigned int
rt_flow_top(struct rt_flow *const *fl, unsigned int n, enum rt_flow_order by, uint64_t now,
	struct rt_flow_info *out, unsigned int max)
{
	unsigned int t, got = 0, j;
	uint32_t i;

	if (max == 0)
		return 0;
	for (t = 0; t < n; t++) {
		const struct rt_flow *f = fl[t];
		uint32_t gen;

		if (f == NULL)
			continue;
		gen = rt_flow_gen(f);
		for (i = 0; i < f->size; i++) {
			struct rt_flow_info fi;

			if (__atomic_load_n(&f->way[i].sig, __ATOMIC_RELAXED) == 0 ||
				!read_entry(f, i, gen, &fi) || fi.pkts == 0 ||
				(int64_t)(now - fi.last) > (int64_t)f->timeout)
				continue;
			fi.table = t;
			if (got == max && weight(&fi, by) <= weight(&out[got - 1], by))
				continue;
			/* insertion into the sorted top list, biggest first */
			j = got < max ? got++ : max - 1;
			while (j > 0 && weight(&out[j - 1], by) < weight(&fi, by)) {
				out[j] = out[j - 1];
				j--;
			}
			out[j] = fi;
		}
	}
	return got;
}
