/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The route records' trie (rt_rib) against a brute-force reference: random
 * prefixes of every length inserted and removed; after each phase every
 * exact find, longest match, covering route, count (total, per length,
 * inside a prefix) and page (in order, from any start, inside any prefix)
 * agrees with the reference, and a table emptied is empty.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "fwd_test.h"
#include "rt_rib.h"

#define N_ROUTES 3000

struct ref {
	uint32_t prefix;
	uint8_t plen;
	uint8_t live;
	uint32_t tag;
};

static struct ref refs[N_ROUTES];
static unsigned int n_refs;
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static uint32_t
mask(uint8_t plen)
{
	return plen == 0 ? 0 : UINT32_MAX << (32 - plen);
}

static int
cmp_route(const void *a, const void *b)
{
	const struct rt_route *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return (int)x->plen - (int)y->plen;
}

static bool
inside(uint32_t p, uint8_t l, uint32_t within, uint8_t wl)
{
	return l >= wl && ((p ^ within) & mask(wl)) == 0;
}

/* the live reference routes inside within/wl, sorted; returns how many */
static unsigned int
ref_sorted(struct rt_route *out, uint32_t within, uint8_t wl)
{
	unsigned int i, n = 0;

	for (i = 0; i < n_refs; i++)
		if (refs[i].live && inside(refs[i].prefix, refs[i].plen, within, wl))
			out[n++] = (struct rt_route){
				.prefix = refs[i].prefix, .plen = refs[i].plen, .gw = refs[i].tag};
	qsort(out, n, sizeof(*out), cmp_route);
	return n;
}

static const struct ref *
ref_longest(uint32_t ip, int below_plen)
{
	const struct ref *best = NULL;
	unsigned int i;

	for (i = 0; i < n_refs; i++)
		if (refs[i].live && (int)refs[i].plen < below_plen &&
			((ip ^ refs[i].prefix) & mask(refs[i].plen)) == 0 &&
			(best == NULL || refs[i].plen > best->plen))
			best = &refs[i];
	return best;
}

static void
check_all(struct rt_rib *rib)
{
	static struct rt_route want[N_ROUTES], got[N_ROUTES];
	unsigned int i, n, k, bad = 0;
	uint32_t per_len[33] = {0};

	n = ref_sorted(want, 0, 0);
	CHECK_EQ(rt_rib_count(rib), n);
	for (i = 0; i < n; i++)
		per_len[want[i].plen]++;
	for (i = 0; i <= 32; i++)
		bad += rt_rib_count_plen(rib, (uint8_t)i) != per_len[i];
	CHECK_EQ(bad, 0);

	/* the whole table in order, then pages from random starts */
	CHECK_EQ(rt_rib_list(rib, 0, 0, 0, got, N_ROUTES), n);
	for (i = 0, bad = 0; i < n; i++)
		bad += got[i].prefix != want[i].prefix || got[i].plen != want[i].plen ||
		       got[i].gw != want[i].gw;
	CHECK_EQ(bad, 0);
	for (k = 0, bad = 0; k < 50; k++) {
		uint32_t start = n > 0 ? rnd() % (n + 5) : 0, m;

		m = rt_rib_list(rib, 0, 0, start, got, 37);
		bad += m != (start < n ? RTE_MIN(n - start, 37u) : 0);
		for (i = 0; i < m; i++)
			bad += cmp_route(&got[i], &want[start + i]) != 0;
	}
	CHECK_EQ(bad, 0);

	/* inside random prefixes (some of them routes themselves) */
	for (k = 0, bad = 0; k < 200; k++) {
		uint8_t wl = (uint8_t)(rnd() % 20);
		uint32_t within =
			(k % 2 == 0 && n_refs > 0 ? refs[rnd() % n_refs].prefix : rnd()) & mask(wl);
		unsigned int w = ref_sorted(want, within, wl), m;

		bad += rt_rib_count_within(rib, within, wl) != w;
		m = rt_rib_list(rib, within, wl, 0, got, N_ROUTES);
		bad += m != w;
		for (i = 0; i < m && i < w; i++)
			bad += cmp_route(&got[i], &want[i]) != 0;
	}
	CHECK_EQ(bad, 0);

	/* exact finds, longest matches and covering routes */
	for (i = 0, bad = 0; i < n_refs; i++) {
		const struct rt_route *r = rt_rib_find(rib, refs[i].prefix, refs[i].plen);
		const struct ref *p = ref_longest(refs[i].prefix, refs[i].plen);
		const struct rt_route *q = rt_rib_parent(rib, refs[i].prefix, refs[i].plen);

		bad += refs[i].live ? r == NULL || r->gw != refs[i].tag : r != NULL;
		bad += p == NULL ? q != NULL : q == NULL || q->plen != p->plen || q->gw != p->tag;
	}
	CHECK_EQ(bad, 0);
	for (k = 0, bad = 0; k < 3000; k++) {
		uint32_t ip = k % 2 == 0 && n_refs > 0
				      ? refs[rnd() % n_refs].prefix | (rnd() & 0xff)
				      : rnd();
		const struct ref *p = ref_longest(ip, 33);
		const struct rt_route *q = rt_rib_match(rib, ip);

		bad += p == NULL ? q != NULL : q == NULL || q->plen != p->plen || q->gw != p->tag;
	}
	CHECK_EQ(bad, 0);
}

static void
test_random(void)
{
	struct rt_rib *rib = rt_rib_create();
	unsigned int i, bad = 0, dup = 0;

	if (rib == NULL) {
		CHECK(0);
		return;
	}
	/* every length, crowded in a few /8s so that prefixes nest and share paths */
	while (n_refs < N_ROUTES) {
		uint8_t plen = (uint8_t)(rnd() % 33);
		uint32_t prefix =
			((rnd() % 4) << 30 | (rnd() & 0x00ffffff) << (rnd() % 8)) & mask(plen);
		struct rt_route *r;

		for (i = 0; i < n_refs; i++)
			if (refs[i].prefix == prefix && refs[i].plen == plen)
				break;
		if (i < n_refs) {
			r = rt_rib_insert(rib, prefix, plen);
			dup += r == NULL && rte_errno == EEXIST;
			continue;
		}
		r = rt_rib_insert(rib, prefix, plen);
		if (r == NULL) {
			bad++;
			break;
		}
		r->gw = n_refs + 1; /* a tag to tell records apart */
		refs[n_refs++] =
			(struct ref){.prefix = prefix, .plen = plen, .live = 1, .tag = r->gw};
	}
	CHECK_EQ(bad, 0);
	CHECK(dup > 0); /* the low lengths repeat: duplicates were tried and refused */
	check_all(rib);

	/* remove half, at random */
	for (i = 0; i < n_refs; i++)
		if (rnd() % 2 == 0) {
			rt_rib_remove(rib, refs[i].prefix, refs[i].plen);
			refs[i].live = 0;
		}
	rt_rib_remove(rib, 0x01020300, 24); /* most likely absent: nothing happens */
	for (i = 0; i < n_refs; i++)
		if (refs[i].prefix == 0x01020300 && refs[i].plen == 24)
			refs[i].live = 0;
	check_all(rib);
	/* add the removed ones back, then remove everything */
	for (i = 0; i < n_refs; i++)
		if (!refs[i].live) {
			struct rt_route *r = rt_rib_insert(rib, refs[i].prefix, refs[i].plen);

			if (r != NULL) {
				r->gw = refs[i].tag;
				refs[i].live = 1;
			}
		}
	check_all(rib);
	for (i = 0; i < n_refs; i++) {
		rt_rib_remove(rib, refs[i].prefix, refs[i].plen);
		refs[i].live = 0;
	}
	check_all(rib);
	CHECK_EQ(rt_rib_count(rib), 0);
	CHECK_EQ(rt_rib_nodes(rib), 1); /* every emptied node was given back */
	CHECK(rt_rib_match(rib, 0x0a000001) == NULL);
	rt_rib_free(rib);
}

static void
test_edges(void)
{
	struct rt_rib *rib = rt_rib_create();
	struct rt_route out[4];

	if (rib == NULL) {
		CHECK(0);
		return;
	}
	CHECK(rt_rib_insert(rib, 0, 0) != NULL);           /* the default */
	CHECK(rt_rib_insert(rib, UINT32_MAX, 32) != NULL); /* the last address */
	CHECK(rt_rib_insert(rib, 0x0a000000, 8) != NULL);
	CHECK(rt_rib_insert(rib, 0x0a000000, 33) == NULL); /* no such length */
	CHECK_EQ(rte_errno, EINVAL);
	CHECK(rt_rib_find(rib, 0x0a000000, 33) == NULL);
	CHECK_EQ(rt_rib_count(rib), 3);
	CHECK_EQ(rt_rib_match(rib, UINT32_MAX)->plen, 32);
	CHECK_EQ(rt_rib_match(rib, 0x0a010203)->plen, 8);
	CHECK_EQ(rt_rib_match(rib, 0x0b000000)->plen, 0);
	CHECK_EQ(rt_rib_parent(rib, UINT32_MAX, 32)->plen, 0);
	CHECK(rt_rib_parent(rib, 0, 0) == NULL);
	CHECK_EQ(rt_rib_list(rib, 0, 0, 0, out, 4), 3);
	CHECK(out[0].plen == 0 && out[1].plen == 8 && out[2].plen == 32);
	CHECK_EQ(rt_rib_list(rib, 0, 0, 3, out, 4), 0);          /* past the end */
	CHECK_EQ(rt_rib_list(rib, 0x0c000000, 8, 0, out, 4), 0); /* nothing there */
	CHECK(rt_rib_memory(rib) > 0);
	rt_rib_free(rib);
	rt_rib_free(NULL);
}

int
main(void)
{
	static const struct fwd_test_case tests[] = {
		FWD_TEST(test_edges),
		FWD_TEST(test_random),
	};

	return fwd_test_run(tests, RTE_DIM(tests));
}
