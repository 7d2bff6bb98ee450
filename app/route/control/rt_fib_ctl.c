/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The writer of the DIR-24-8 lookup structure (rt_fib.h). No rule store: an
 * add rewrites the entries of its range that a route no longer than it
 * decides (depth <= plen), a delete hands the entries it still decides
 * (depth == plen) to the covering route its caller names. So an add or a
 * delete costs the entries of its range, whatever the table's size.
 *
 * tbl8 groups: a stack of free ones, and a FIFO of those given back, each
 * with the RCU token taken when it left tbl24. Tokens grow, so the FIFO's
 * head is the first to become safe; a group moves to the stack once every
 * reader has reported a quiescent state after its token.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_eal.h>
#include <rte_malloc.h>

#include "rt_fib_ctl.h"
#include "rt_log.h"

/** A group given back, reusable once the readers have passed @p token. */
struct rt_fib_retired {
	uint64_t token;
	uint32_t group;
};

/** The writer's state around what the readers see. */
struct rt_fib_impl {
	struct rt_fib f; /* first: rt_fib * <-> rt_fib_impl * */
	char name[32];
	struct rte_rcu_qsbr *qsbr; /* NULL: no concurrent reader */
	uint32_t *free;            /* stack of free group indexes */
	uint32_t n_free;
	struct rt_fib_retired *retired; /* FIFO, tbl8_groups slots */
	uint32_t ret_head;
	uint32_t n_retired;
	uint32_t used; /* groups tbl24 points to */
};

static inline struct rt_fib_impl *
impl_of(const struct rt_fib *f)
{
	return (struct rt_fib_impl *)(uintptr_t)f;
}

struct rt_fib *
rt_fib_create(const char *name, int socket, uint32_t tbl8_groups, struct rte_rcu_qsbr *qsbr)
{
	struct rt_fib_impl *fi;
	char n[64];
	uint32_t g;

	if (name == NULL || tbl8_groups == 0 || tbl8_groups > RT_FIB_NH_MASK + 1u) {
		rte_errno = EINVAL;
		return NULL;
	}
	fi = rte_zmalloc_socket(name, sizeof(*fi), RTE_CACHE_LINE_SIZE, socket);
	if (fi == NULL)
		goto enomem;
	snprintf(fi->name, sizeof(fi->name), "%s", name);
	fi->qsbr = qsbr;
	fi->f.tbl8_groups = tbl8_groups;
	snprintf(n, sizeof(n), "%s_tbl24", name);
	fi->f.tbl24 = rte_zmalloc_socket(
		n, (size_t)RT_FIB_TBL24_SIZE * sizeof(uint32_t), RTE_CACHE_LINE_SIZE, socket);
	snprintf(n, sizeof(n), "%s_tbl8", name);
	fi->f.tbl8 =
		rte_zmalloc_socket(n, (size_t)tbl8_groups * RT_FIB_TBL8_GROUP * sizeof(uint32_t),
			RTE_CACHE_LINE_SIZE, socket);
	fi->free = rte_malloc_socket(NULL, (size_t)tbl8_groups * sizeof(*fi->free), 0, socket);
	fi->retired =
		rte_malloc_socket(NULL, (size_t)tbl8_groups * sizeof(*fi->retired), 0, socket);
	if (fi->f.tbl24 == NULL || fi->f.tbl8 == NULL || fi->free == NULL || fi->retired == NULL)
		goto enomem;
	/*
	 * Without hugepages the EAL's memory is anonymous pages the kernel maps
	 * on first touch, and rte_zmalloc() does not write memory it knows is
	 * fresh: the first lookup into each 4 KiB of tbl24 would take a page
	 * fault (about 15 us here) on the worker, and a `show route ADDRESS`
	 * on a small table would cost 200 times its walk (ctl_bench). Writing
	 * the zeros maps them now; hugepages come mapped.
	 */
	if (!rte_eal_has_hugepages())
		memset(fi->f.tbl24, 0, (size_t)RT_FIB_TBL24_SIZE * sizeof(uint32_t));
	/* group 0 on top: the first ones used are the first in memory */
	for (g = 0; g < tbl8_groups; g++)
		fi->free[g] = tbl8_groups - 1 - g;
	fi->n_free = tbl8_groups;
	return &fi->f;

enomem:
	rt_fib_free(fi != NULL ? &fi->f : NULL);
	rte_errno = ENOMEM;
	return NULL;
}

void
rt_fib_free(struct rt_fib *f)
{
	struct rt_fib_impl *fi = impl_of(f);

	if (f == NULL)
		return;
	rte_free(fi->retired);
	rte_free(fi->free);
	rte_free(f->tbl8);
	rte_free(f->tbl24);
	rte_free(fi);
}

/*
 * Move the given-back groups the readers are done with to the free stack;
 * with @p wait, first wait until they are done with all of them.
 */
static void
reclaim(struct rt_fib_impl *fi, bool wait)
{
	struct rt_fib_retired *r;

	if (wait && fi->n_retired > 0 && fi->qsbr != NULL) {
		uint32_t last = (fi->ret_head + fi->n_retired - 1) % fi->f.tbl8_groups;

		rte_rcu_qsbr_check(fi->qsbr, fi->retired[last].token, true);
	}
	while (fi->n_retired > 0) {
		r = &fi->retired[fi->ret_head];
		if (fi->qsbr != NULL && rte_rcu_qsbr_check(fi->qsbr, r->token, false) != 1)
			break;
		fi->free[fi->n_free++] = r->group;
		fi->ret_head = (fi->ret_head + 1) % fi->f.tbl8_groups;
		fi->n_retired--;
	}
}

/* A free group's index, or -ENOSPC when all are in use. */
static int
group_alloc(struct rt_fib_impl *fi, uint32_t *g)
{
	reclaim(fi, false);
	if (fi->n_free == 0 && fi->n_retired > 0)
		reclaim(fi, true); /* wait for the readers once */
	if (fi->n_free == 0) {
		RT_LOG(WARNING, "%s: all %u tbl8-groups in use\n", fi->name, fi->f.tbl8_groups);
		return -ENOSPC;
	}
	*g = fi->free[--fi->n_free];
	fi->used++;
	return 0;
}

/* Group @p g has left tbl24: reusable once the readers have passed. */
static void
group_retire(struct rt_fib_impl *fi, uint32_t g)
{
	struct rt_fib_retired *r;

	fi->used--;
	if (fi->qsbr == NULL) {
		fi->free[fi->n_free++] = g;
		return;
	}
	r = &fi->retired[(fi->ret_head + fi->n_retired) % fi->f.tbl8_groups];
	r->group = g;
	r->token = rte_rcu_qsbr_start(fi->qsbr);
	fi->n_retired++;
}

/*
 * The one way an entry a reader may see is written: one 32-bit store, with
 * release so what the next hop's index leads to (the caller's next-hop
 * record, written before the route) is seen with it.
 */
static inline void
entry_set(uint32_t *p, uint32_t e)
{
	__atomic_store_n(p, e, __ATOMIC_RELEASE);
}

/* Entries [@p first, @p first + @p n) of @p t with depth <= @p depth get @p e. */
static void
write_le(uint32_t *t, uint32_t first, uint32_t n, uint32_t e, uint8_t depth)
{
	uint32_t i;

	for (i = first; i < first + n; i++)
		if (RT_FIB_DEPTH(t[i]) <= depth)
			entry_set(&t[i], e);
}

/* Entries [@p first, @p first + @p n) of group @p t with depth == @p depth get @p e. */
static void
write_eq(uint32_t *t, uint32_t first, uint32_t n, uint32_t e, uint8_t depth)
{
	uint32_t i;

	for (i = first; i < first + n; i++)
		if ((t[i] & RT_FIB_VALID) && RT_FIB_DEPTH(t[i]) == depth)
			entry_set(&t[i], e);
}

static inline uint32_t *
group_of(const struct rt_fib *f, uint32_t e24)
{
	return &f->tbl8[(size_t)(e24 & RT_FIB_NH_MASK) * RT_FIB_TBL8_GROUP];
}

/* Bad prefix, length or next hop. */
static bool
bad_route(uint32_t prefix, uint8_t plen, uint32_t nh)
{
	if (plen < 1 || plen > 32 || nh > RT_FIB_NH_MASK)
		return true;
	return plen < 32 && (prefix & (UINT32_MAX >> plen)) != 0;
}

int
rt_fib_add(struct rt_fib *f, uint32_t prefix, uint8_t plen, uint32_t nh)
{
	struct rt_fib_impl *fi = impl_of(f);
	uint32_t e = RT_FIB_ENTRY(nh, plen), i, cur, g, *t;
	int ret;

	if (f == NULL || bad_route(prefix, plen, nh))
		return -EINVAL;
	if (plen <= 24) {
		const uint32_t first = prefix >> 8, n = 1u << (24 - plen);

		/* only this thread writes: plain reads of what it wrote */
		for (i = first; i < first + n; i++) {
			cur = f->tbl24[i];
			if (cur & RT_FIB_EXT)
				write_le(group_of(f, cur), 0, RT_FIB_TBL8_GROUP, e, plen);
			else if (RT_FIB_DEPTH(cur) <= plen)
				entry_set(&f->tbl24[i], e);
		}
		return 0;
	}
	i = prefix >> 8;
	cur = f->tbl24[i];
	if (cur & RT_FIB_EXT) {
		write_le(group_of(f, cur), prefix & 0xff, 1u << (32 - plen), e, plen);
		return 0;
	}
	ret = group_alloc(fi, &g);
	if (ret != 0)
		return ret;
	/* no reader can reach the group yet: fill it, then publish it */
	t = group_of(f, g);
	for (uint32_t j = 0; j < RT_FIB_TBL8_GROUP; j++)
		t[j] = cur;
	for (uint32_t j = prefix & 0xff; j < (prefix & 0xff) + (1u << (32 - plen)); j++)
		t[j] = e;
	entry_set(&f->tbl24[i], RT_FIB_EXT | g);
	return 0;
}

/* Group @p t's one value when its 256 entries are equal with depth <= 24. */
static bool
group_folds(const uint32_t *t, uint32_t *v)
{
	uint32_t j;

	if (RT_FIB_DEPTH(t[0]) > 24)
		return false;
	for (j = 1; j < RT_FIB_TBL8_GROUP; j++)
		if (t[j] != t[0])
			return false;
	*v = t[0];
	return true;
}

int
rt_fib_del(struct rt_fib *f, uint32_t prefix, uint8_t plen, uint32_t sub_nh, uint8_t sub_plen)
{
	uint32_t s, i, cur, v, *t;

	if (f == NULL || bad_route(prefix, plen, 0) || sub_plen >= plen ||
		(sub_plen != 0 && sub_nh > RT_FIB_NH_MASK))
		return -EINVAL;
	s = sub_plen != 0 ? RT_FIB_ENTRY(sub_nh, sub_plen) : 0;
	if (plen <= 24) {
		const uint32_t first = prefix >> 8, n = 1u << (24 - plen);

		/*
		 * A group always holds an entry deeper than /24 (it folds when
		 * its last one goes), which this leaves: no fold here.
		 */
		for (i = first; i < first + n; i++) {
			cur = f->tbl24[i];
			if (cur & RT_FIB_EXT)
				write_eq(group_of(f, cur), 0, RT_FIB_TBL8_GROUP, s, plen);
			else if ((cur & RT_FIB_VALID) && RT_FIB_DEPTH(cur) == plen)
				entry_set(&f->tbl24[i], s);
		}
		return 0;
	}
	i = prefix >> 8;
	cur = f->tbl24[i];
	if (!(cur & RT_FIB_EXT))
		return -ENOENT;
	t = group_of(f, cur);
	write_eq(t, prefix & 0xff, 1u << (32 - plen), s, plen);
	if (group_folds(t, &v)) {
		entry_set(&f->tbl24[i], v);
		group_retire(impl_of(f), cur & RT_FIB_NH_MASK);
	}
	return 0;
}

size_t
rt_fib_memory(const struct rt_fib *f)
{
	if (f == NULL)
		return 0;
	return sizeof(struct rt_fib_impl) + (size_t)RT_FIB_TBL24_SIZE * sizeof(uint32_t) +
	       (size_t)f->tbl8_groups * (RT_FIB_TBL8_GROUP * sizeof(uint32_t) + sizeof(uint32_t) +
						sizeof(struct rt_fib_retired));
}

uint32_t
rt_fib_tbl8_used(const struct rt_fib *f)
{
	return f != NULL ? impl_of(f)->used : 0;
}

uint32_t
rt_fib_tbl8_groups(const struct rt_fib *f)
{
	return f != NULL ? f->tbl8_groups : 0;
}
