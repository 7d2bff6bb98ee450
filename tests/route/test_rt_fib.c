/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The DIR-24-8 lookup structure (app/route/datapath/rt_fib.h, control in
 * rt_fib_ctl.c) against a brute-force longest prefix match over an array of
 * rules: random overlapping prefixes of every length added and deleted in
 * random order, every step checked on a sample of addresses and on the
 * edges of every prefix; tbl8 groups given back and reused; the group limit
 * and recovery from it; a group given back is reused only after the readers
 * have passed; and a reader racing a writer that flips routes and adds and
 * deletes more-specifics never sees a next hop its address cannot have.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#include <rte_rcu_qsbr.h>

#include "fwd_test.h"
#include "rt_fib_ctl.h"

#define IP4(a, b, c, d) (((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))
#define MISS            0xfeedu

/* ---- the reference: an array of rules, longest match by brute force ---- */

struct ref_rule {
	uint32_t prefix;
	uint8_t plen;
	uint32_t nh;
};

#define REF_MAX 512
struct ref {
	struct ref_rule r[REF_MAX];
	unsigned int n;
};

static inline uint32_t
mask_of(uint8_t plen)
{
	return plen == 0 ? 0 : UINT32_MAX << (32 - plen);
}

/* The longest rule of @p ref containing @p ip, shorter than @p below; NULL if none. */
static const struct ref_rule *
ref_best(const struct ref *ref, uint32_t ip, uint8_t below)
{
	const struct ref_rule *best = NULL;
	unsigned int i;

	for (i = 0; i < ref->n; i++) {
		const struct ref_rule *r = &ref->r[i];

		if (r->plen < below && (ip & mask_of(r->plen)) == r->prefix &&
			(best == NULL || r->plen > best->plen))
			best = r;
	}
	return best;
}

static uint32_t
ref_lookup(const struct ref *ref, uint32_t ip)
{
	const struct ref_rule *b = ref_best(ref, ip, 33);

	return b != NULL ? b->nh : MISS;
}

static int
ref_find(const struct ref *ref, uint32_t prefix, uint8_t plen)
{
	unsigned int i;

	for (i = 0; i < ref->n; i++)
		if (ref->r[i].prefix == prefix && ref->r[i].plen == plen)
			return (int)i;
	return -1;
}

/* Delete rule @p i of @p ref from both, handing its entries to its covering rule. */
static int
del_both(struct rt_fib *f, struct ref *ref, unsigned int i)
{
	struct ref_rule r = ref->r[i];
	const struct ref_rule *sub;

	ref->r[i] = ref->r[--ref->n];
	sub = ref_best(ref, r.prefix, r.plen);
	return rt_fib_del(
		f, r.prefix, r.plen, sub != NULL ? sub->nh : 0, sub != NULL ? sub->plen : 0);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	/* xorshift64*: the same sequence on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

/* ---- checks ---- */

static unsigned int n_fibs;

static struct rt_fib *
mk_fib(uint32_t groups, struct rte_rcu_qsbr *v)
{
	char name[32];

	snprintf(name, sizeof(name), "tfib%u", n_fibs++);
	return rt_fib_create(name, SOCKET_ID_ANY, groups, v);
}

/* @p ip looks up the same in @p f (one and bulk) as in @p ref; prints the first few misses. */
static unsigned int n_bad;

static void
check_ip(const struct rt_fib *f, const struct ref *ref, uint32_t ip)
{
	uint32_t want = ref_lookup(ref, ip), got = rt_fib_lookup(f, ip, MISS);

	if (got != want) {
		if (n_bad++ < 10)
			printf("#   %u.%u.%u.%u: got %u, want %u\n", ip >> 24, (ip >> 16) & 0xff,
				(ip >> 8) & 0xff, ip & 0xff, got, want);
		fwd_test_case_failed = 1;
	}
}

/* Every rule's first and last address and their neighbours, and @p ns samples. */
static void
check_all(const struct rt_fib *f, const struct ref *ref, const uint32_t *samples, unsigned int ns)
{
	uint32_t want[64], got[64];
	unsigned int i, j;

	for (i = 0; i < ref->n; i++) {
		const uint32_t lo = ref->r[i].prefix, hi = lo | ~mask_of(ref->r[i].plen);

		check_ip(f, ref, lo);
		check_ip(f, ref, hi);
		check_ip(f, ref, lo - 1);
		check_ip(f, ref, hi + 1);
	}
	for (i = 0; i < ns; i += 64) {
		const unsigned int k = RTE_MIN(64u, ns - i);

		rt_fib_lookup_bulk(f, &samples[i], got, k, MISS);
		for (j = 0; j < k; j++)
			want[j] = ref_lookup(ref, samples[i + j]);
		for (j = 0; j < k; j++)
			if (got[j] != want[j]) {
				if (n_bad++ < 10)
					printf("#   bulk %08x: got %u, want %u\n", samples[i + j],
						got[j], want[j]);
				fwd_test_case_failed = 1;
			}
	}
}

/* The groups in use: one per /24 holding a rule longer than /24. */
static uint32_t
ref_groups(const struct ref *ref)
{
	uint32_t seen[REF_MAX], n = 0, i, j;

	for (i = 0; i < ref->n; i++) {
		if (ref->r[i].plen <= 24)
			continue;
		for (j = 0; j < n && seen[j] != ref->r[i].prefix >> 8; j++)
			;
		if (j == n)
			seen[n++] = ref->r[i].prefix >> 8;
	}
	return n;
}

/* ---- cases ---- */

static void
test_args(void)
{
	struct rt_fib *f = mk_fib(4, NULL);

	CHECK(f != NULL);
	if (f == NULL)
		return;
	CHECK_EQ(rt_fib_add(f, IP4(10, 0, 0, 0), 0, 1), -EINVAL);
	CHECK_EQ(rt_fib_add(f, IP4(10, 0, 0, 0), 33, 1), -EINVAL);
	CHECK_EQ(rt_fib_add(f, IP4(10, 0, 0, 1), 24, 1), -EINVAL);
	CHECK_EQ(rt_fib_add(f, IP4(10, 0, 0, 0), 24, RT_FIB_NH_MASK + 1), -EINVAL);
	CHECK_EQ(rt_fib_add(f, IP4(10, 0, 0, 0), 24, RT_FIB_NH_MASK), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 0, 0, 9), MISS), RT_FIB_NH_MASK);
	CHECK_EQ(rt_fib_add(f, IP4(10, 0, 0, 7), 32, 0), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 0, 0, 7), MISS), 0);
	CHECK_EQ(rt_fib_add(f, IP4(128, 0, 0, 0), 1, 3), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(255, 255, 255, 255), MISS), 3);
	CHECK_EQ(rt_fib_lookup(f, IP4(127, 255, 255, 255), MISS), MISS);
	CHECK_EQ(rt_fib_del(f, IP4(10, 0, 0, 0), 24, 0, 24), -EINVAL); /* sub not shorter */
	CHECK_EQ(rt_fib_del(f, IP4(10, 0, 0, 0), 24, RT_FIB_NH_MASK + 1, 8), -EINVAL);
	CHECK_EQ(rt_fib_del(f, IP4(10, 0, 1, 0), 25, 0, 0), -ENOENT); /* no group there */
	CHECK_EQ(rt_fib_tbl8_used(f), 1);
	CHECK_EQ(rt_fib_tbl8_groups(f), 4);
	CHECK(rt_fib_memory(f) >= (size_t)RT_FIB_TBL24_SIZE * 4 + 4 * 1024);
	rt_fib_free(f);
	rt_fib_free(NULL);
	f = rt_fib_create("tfib_bad", SOCKET_ID_ANY, 0, NULL);
	CHECK(f == NULL && rte_errno == EINVAL);
}

/* Replacing, nesting both ways, a /24 deleted from under its /25s. */
static void
test_depth_rule(void)
{
	struct rt_fib *f = mk_fib(8, NULL);

	CHECK(f != NULL);
	if (f == NULL)
		return;
	/* longer first, then the shorter one must not hide it */
	CHECK_EQ(rt_fib_add(f, IP4(10, 1, 2, 128), 25, 25), 0);
	CHECK_EQ(rt_fib_add(f, IP4(10, 1, 0, 0), 16, 16), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 200), MISS), 25);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 100), MISS), 16);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 3, 100), MISS), 16);
	/* replace: same prefix, new next hop */
	CHECK_EQ(rt_fib_add(f, IP4(10, 1, 0, 0), 16, 17), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 100), MISS), 17);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 200), MISS), 25);
	CHECK_EQ(rt_fib_add(f, IP4(10, 1, 2, 128), 25, 26), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 200), MISS), 26);
	/* a /24 hidden by two /25s: its delete changes nothing visible */
	CHECK_EQ(rt_fib_add(f, IP4(10, 1, 2, 0), 25, 27), 0);
	CHECK_EQ(rt_fib_add(f, IP4(10, 1, 2, 0), 24, 24), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 1), MISS), 27);
	CHECK_EQ(rt_fib_del(f, IP4(10, 1, 2, 0), 24, 17, 16), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 1), MISS), 27);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 255), MISS), 26);
	/* the /25s go: the group folds into the /16's entry */
	CHECK_EQ(rt_fib_tbl8_used(f), 1);
	CHECK_EQ(rt_fib_del(f, IP4(10, 1, 2, 0), 25, 17, 16), 0);
	CHECK_EQ(rt_fib_tbl8_used(f), 1);
	CHECK_EQ(rt_fib_del(f, IP4(10, 1, 2, 128), 25, 17, 16), 0);
	CHECK_EQ(rt_fib_tbl8_used(f), 0);
	CHECK(!(f->tbl24[IP4(10, 1, 2, 0) >> 8] & RT_FIB_EXT));
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 200), MISS), 17);
	CHECK_EQ(rt_fib_del(f, IP4(10, 1, 0, 0), 16, 0, 0), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(10, 1, 2, 200), MISS), MISS);
	rt_fib_free(f);
}

/* A random prefix of length @p plen near one of @p anchors (so prefixes overlap). */
static uint32_t
near(const uint32_t *anchors, unsigned int na, uint8_t plen)
{
	uint32_t ip = anchors[rnd() % na] ^ (rnd() & ((1u << (rnd() % 20)) - 1));

	return ip & mask_of(plen);
}

static uint8_t
rnd_plen(void)
{
	uint32_t x = rnd() % 100;

	if (x < 3)
		return 1 + rnd() % 8; /* a few short ones: millions of entries */
	if (x < 45)
		return 25 + rnd() % 8;
	return 9 + rnd() % 16;
}

static void
test_random(void)
{
	static struct ref ref;
	uint32_t anchors[8], samples[512];
	unsigned int step, i, steps = 1500;
	struct rt_fib *f = mk_fib(512, NULL);
	int ret;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	ref.n = 0;
	n_bad = 0;
	for (i = 0; i < RTE_DIM(anchors); i++)
		anchors[i] = rnd();
	for (i = 0; i < RTE_DIM(samples); i++)
		samples[i] = i % 4 == 0 ? rnd() : near(anchors, RTE_DIM(anchors), 32);
	for (step = 0; step < steps && !fwd_test_case_failed; step++) {
		/* grow to ~300 rules, then shrink to none in the last third */
		const bool grow = step < steps * 2 / 3 ? rnd() % 100 < 65 : false;

		if (grow && ref.n < REF_MAX) {
			const uint8_t plen = rnd_plen();
			const uint32_t p = near(anchors, RTE_DIM(anchors), plen), nh = rnd() % 1000;
			const int at = ref_find(&ref, p, plen);

			ret = rt_fib_add(f, p, plen, nh);
			CHECK_EQ(ret, 0);
			if (at >= 0)
				ref.r[at].nh = nh;
			else
				ref.r[ref.n++] = (struct ref_rule){p, plen, nh};
		} else if (ref.n > 0) {
			CHECK_EQ(del_both(f, &ref, rnd() % ref.n), 0);
		}
		check_all(f, &ref, samples, RTE_DIM(samples));
		CHECK_EQ(rt_fib_tbl8_used(f), ref_groups(&ref));
	}
	CHECK_EQ(ref.n, 0);
	CHECK_EQ(rt_fib_tbl8_used(f), 0);
	/* empty again: every entry of both tables is empty */
	for (i = 0; i < RT_FIB_TBL24_SIZE && f->tbl24[i] == 0; i++)
		;
	CHECK_EQ(i, RT_FIB_TBL24_SIZE);
	printf("#   %u steps\n", step);
	rt_fib_free(f);
}

/* Out of groups: -ENOSPC and nothing changed; a delete gives one back. */
static void
test_enospc(void)
{
	struct rt_fib *f = mk_fib(4, NULL);
	unsigned int i;

	CHECK(f != NULL);
	if (f == NULL)
		return;
	CHECK_EQ(rt_fib_add(f, IP4(20, 0, 0, 0), 8, 8), 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ(rt_fib_add(f, IP4(20, 0, i, 128), 25, 100 + i), 0);
	CHECK_EQ(rt_fib_tbl8_used(f), 4);
	CHECK_EQ(rt_fib_add(f, IP4(20, 0, 9, 128), 25, 109), -ENOSPC);
	CHECK_EQ(rt_fib_lookup(f, IP4(20, 0, 9, 200), MISS), 8);
	CHECK_EQ(rt_fib_lookup(f, IP4(20, 0, 0, 200), MISS), 100);
	/* a /24 that has a group takes more without a new one */
	CHECK_EQ(rt_fib_add(f, IP4(20, 0, 0, 64), 26, 200), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(20, 0, 0, 65), MISS), 200);
	/* still full for a fifth /24 */
	CHECK_EQ(rt_fib_add(f, IP4(20, 0, 9, 0), 32, 109), -ENOSPC);
	CHECK_EQ(rt_fib_del(f, IP4(20, 0, 3, 128), 25, 8, 8), 0);
	CHECK_EQ(rt_fib_tbl8_used(f), 3);
	CHECK_EQ(rt_fib_add(f, IP4(20, 0, 9, 128), 25, 109), 0);
	CHECK_EQ(rt_fib_lookup(f, IP4(20, 0, 9, 200), MISS), 109);
	CHECK_EQ(rt_fib_lookup(f, IP4(20, 0, 3, 200), MISS), 8);
	CHECK_EQ(rt_fib_tbl8_used(f), 4);
	rt_fib_free(f);
}

/* ---- RCU: a group is reused only after the readers have passed ---- */

static struct rte_rcu_qsbr *
mk_qsbr(void)
{
	size_t sz = rte_rcu_qsbr_get_memsize(2);
	struct rte_rcu_qsbr *v = rte_zmalloc("tfib_qsbr", sz, RTE_CACHE_LINE_SIZE);

	if (v != NULL && rte_rcu_qsbr_init(v, 2) != 0) {
		rte_free(v);
		v = NULL;
	}
	return v;
}

static struct rte_rcu_qsbr *slow_v;
static volatile int slow_go, slow_reported;

/* A reader online from the start that reports once, when told. */
static int
slow_reader(void *arg __rte_unused)
{
	while (!slow_go)
		rte_pause();
	usleep(100 * 1000); /* leave the writer waiting (not asserted: ordering is) */
	slow_reported = 1;
	rte_rcu_qsbr_quiescent(slow_v, 1);
	return 0;
}

static void
test_rcu_reuse(void)
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	struct rt_fib *f;
	uint32_t g0;

	slow_v = mk_qsbr();
	CHECK(slow_v != NULL && lcore < RTE_MAX_LCORE);
	if (slow_v == NULL || lcore >= RTE_MAX_LCORE)
		return;
	f = mk_fib(2, slow_v);
	CHECK(f != NULL);
	if (f == NULL)
		return;
	CHECK_EQ(rte_rcu_qsbr_thread_register(slow_v, 1), 0);
	rte_rcu_qsbr_thread_online(slow_v, 1);
	slow_go = slow_reported = 0;
	rte_eal_remote_launch(slow_reader, NULL, lcore);

	CHECK_EQ(rt_fib_add(f, IP4(30, 0, 0, 0), 25, 1), 0);
	g0 = f->tbl24[IP4(30, 0, 0, 0) >> 8] & RT_FIB_NH_MASK;
	CHECK_EQ(rt_fib_del(f, IP4(30, 0, 0, 0), 25, 0, 0), 0);
	CHECK_EQ(rt_fib_tbl8_used(f), 0);
	/* the reader has not passed: the next /24 gets the other group */
	CHECK_EQ(rt_fib_add(f, IP4(30, 0, 1, 0), 25, 2), 0);
	CHECK((f->tbl24[IP4(30, 0, 1, 0) >> 8] & RT_FIB_NH_MASK) != g0);
	/* none free: the add waits for the reader, then reuses g0 */
	slow_go = 1;
	CHECK_EQ(rt_fib_add(f, IP4(30, 0, 2, 0), 25, 3), 0);
	CHECK_EQ(slow_reported, 1);
	CHECK_EQ(f->tbl24[IP4(30, 0, 2, 0) >> 8] & RT_FIB_NH_MASK, g0);
	CHECK_EQ(rt_fib_lookup(f, IP4(30, 0, 2, 1), MISS), 3);
	CHECK_EQ(rt_fib_lookup(f, IP4(30, 0, 1, 1), MISS), 2);
	CHECK_EQ(rt_fib_lookup(f, IP4(30, 0, 0, 1), MISS), MISS);
	rte_eal_wait_lcore(lcore);
	/* both in use, the reader still online but current: -ENOSPC without a wait */
	CHECK_EQ(rt_fib_add(f, IP4(30, 0, 3, 0), 25, 4), -ENOSPC);
	rte_rcu_qsbr_thread_offline(slow_v, 1);
	rte_rcu_qsbr_thread_unregister(slow_v, 1);
	rt_fib_free(f);
	rte_free(slow_v);
}

/* ---- churn: a reader racing the writer ---- */

/*
 * The routes the writer churns, each with the next hops it may take, under
 * a /10 that is always there. Every /28 sits at the same offset of its own
 * /24 with next hops of its own: a reader that followed a group recycled for
 * another /24 would see that /24's next hop, which its address never has.
 */
#define CH_BASE  IP4(100, 64, 0, 0)
#define CH_N28   24
#define CH_MAXNH 4

struct ch_route {
	uint32_t prefix;
	uint8_t plen;
	uint32_t nh[2];
};

static struct ch_route ch_routes[CH_N28 + 4];
static unsigned int ch_n;

#define CH_SAMPLES 256
static uint32_t ch_ip[CH_SAMPLES];
static uint32_t ch_allowed[CH_SAMPLES][CH_MAXNH * 2];
static unsigned int ch_nallowed[CH_SAMPLES];

static struct rt_fib *ch_f;
static struct rte_rcu_qsbr *ch_v;
static volatile int ch_stop;
static uint64_t ch_lookups, ch_bad;
static volatile uint64_t ch_progress; /* lookup rounds the reader has done */

static void
ch_setup(void)
{
	unsigned int i, j, k;

	ch_n = 0;
	ch_routes[ch_n++] = (struct ch_route){IP4(100, 64, 1, 0), 24, {10, 11}};
	ch_routes[ch_n++] = (struct ch_route){IP4(100, 64, 1, 128), 25, {20, 21}};
	ch_routes[ch_n++] = (struct ch_route){IP4(100, 64, 0, 0), 22, {30, 31}};
	ch_routes[ch_n++] = (struct ch_route){IP4(100, 64, 1, 192), 32, {40, 41}};
	for (i = 0; i < CH_N28; i++)
		ch_routes[ch_n++] =
			(struct ch_route){IP4(100, 64, 2 + i, 16), 28, {100 + i, 100 + i}};
	/* samples: inside each /28, beside it, and in the churned /24s */
	for (i = 0; i < CH_SAMPLES; i++) {
		switch (i % 4) {
		case 0:
			ch_ip[i] = IP4(100, 64, 2 + (i / 4) % CH_N28, 16 + i % 16);
			break;
		case 1:
			ch_ip[i] = IP4(100, 64, 2 + (i / 4) % CH_N28, 100);
			break;
		case 2:
			ch_ip[i] = IP4(100, 64, 1, rnd() & 0xff);
			break;
		default:
			ch_ip[i] = IP4(100, 64, rnd() % 32, rnd() & 0xff);
		}
		ch_nallowed[i] = 0;
		ch_allowed[i][ch_nallowed[i]++] = 1; /* the /10 */
		for (j = 0; j < ch_n; j++)
			if ((ch_ip[i] & mask_of(ch_routes[j].plen)) == ch_routes[j].prefix)
				for (k = 0; k < 2; k++)
					ch_allowed[i][ch_nallowed[i]++] = ch_routes[j].nh[k];
	}
}

static int
ch_reader(void *arg __rte_unused)
{
	uint32_t hops[CH_SAMPLES];
	unsigned int i, j, round = 0;
	uint64_t bad = 0, n = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		/* EAL put both lcores on CPU 0: race on a core of its own */
		cpu_set_t cs;

		CPU_ZERO(&cs);
		CPU_SET(1, &cs);
		pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
	}
	rte_rcu_qsbr_thread_register(ch_v, 1);
	rte_rcu_qsbr_thread_online(ch_v, 1);
	while (!ch_stop) {
		if (round++ % 2)
			rt_fib_lookup_bulk(ch_f, ch_ip, hops, CH_SAMPLES, MISS);
		else
			for (i = 0; i < CH_SAMPLES; i++)
				hops[i] = rt_fib_lookup(ch_f, ch_ip[i], MISS);
		for (i = 0; i < CH_SAMPLES; i++) {
			for (j = 0; j < ch_nallowed[i] && ch_allowed[i][j] != hops[i]; j++)
				;
			if (j == ch_nallowed[i] && bad++ < 5)
				printf("#   reader: %08x gave %u\n", ch_ip[i], hops[i]);
		}
		n += CH_SAMPLES;
		ch_progress++;
		rte_rcu_qsbr_quiescent(ch_v, 1);
	}
	rte_rcu_qsbr_thread_offline(ch_v, 1);
	rte_rcu_qsbr_thread_unregister(ch_v, 1);
	ch_lookups = n;
	ch_bad = bad;
	return 0;
}

static void
test_churn(void)
{
	static struct ref ref;
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), op, i, ops = 60000;
	unsigned int enospc = 0;
	int ret;

	ch_v = mk_qsbr();
	CHECK(ch_v != NULL && lcore < RTE_MAX_LCORE);
	if (ch_v == NULL || lcore >= RTE_MAX_LCORE)
		return;
	/* fewer groups than churned /24s: groups are given back and reused */
	ch_f = mk_fib(12, ch_v);
	CHECK(ch_f != NULL);
	if (ch_f == NULL)
		return;
	ch_setup();
	ref.n = 0;
	CHECK_EQ(rt_fib_add(ch_f, IP4(100, 64, 0, 0), 10, 1), 0);
	ref.r[ref.n++] = (struct ref_rule){IP4(100, 64, 0, 0), 10, 1};
	ch_stop = 0;
	ch_lookups = ch_bad = ch_progress = 0;
	rte_eal_remote_launch(ch_reader, NULL, lcore);
	/* at least @p ops, and on until the reader has done its share beside them */
	for (op = 0; op < ops || ch_progress < 50000; op++) {
		const struct ch_route *r = &ch_routes[rnd() % ch_n];
		const int at = ref_find(&ref, r->prefix, r->plen);

		if (at < 0 || rnd() % 2) {
			const uint32_t nh = r->nh[rnd() % 2];

			ret = rt_fib_add(ch_f, r->prefix, r->plen, nh);
			if (ret == -ENOSPC) {
				enospc++;
				continue;
			}
			CHECK_EQ(ret, 0);
			if (at >= 0)
				ref.r[at].nh = nh;
			else
				ref.r[ref.n++] = (struct ref_rule){r->prefix, r->plen, nh};
		} else {
			CHECK_EQ(del_both(ch_f, &ref, (unsigned int)at), 0);
		}
	}
	ch_stop = 1;
	rte_eal_wait_lcore(lcore);
	printf("#   %u ops (%u -ENOSPC), %" PRIu64 " lookups, %" PRIu64 " foreign\n", op, enospc,
		ch_lookups, ch_bad);
	CHECK(ch_lookups > 0);
	CHECK_EQ(ch_bad, 0);
	n_bad = 0;
	for (i = 0; i < CH_SAMPLES; i++)
		check_ip(ch_f, &ref, ch_ip[i]);
	CHECK_EQ(rt_fib_tbl8_used(ch_f), ref_groups(&ref));
	rt_fib_free(ch_f);
	rte_free(ch_v);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_args),
	FWD_TEST(test_depth_rule),
	FWD_TEST(test_random),
	FWD_TEST(test_enospc),
	FWD_TEST(test_rcu_reuse),
	FWD_TEST(test_churn),
};

int
main(void)
{
	if (fwd_test_eal_init("rt_fib", 512) != 0) {
		printf("1..0 # SKIP EAL init failed\n");
		return 0;
	}
	return fwd_test_run(cases, RTE_DIM(cases));
}
