/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Churn under traffic (issue 17): one worker looks destinations up with the
 * datapath's own functions (rt_lookup_fib(), then the next hop as
 * rt_lookup_nh() reads it, an ECMP group's member by rt_ecmp_member()) and
 * reports its quiescent state once per burst, while the main thread adds,
 * deletes and replaces routes (via static and ARP-learnt gateways, ECMP
 * groups, blackholes) as fast as it can. Every lookup must give the
 * prefix's route as it was just before or just after one of the changes
 * made while the lookup ran: never a freed, reused or half-written next hop.
 *
 * Each prefix keeps a seqlock-style history: its version is odd while a
 * change is being made (state k -> k+1) and even when stable (state k), and
 * the last HIST states are kept. A reader takes the version before and after
 * its lookup and accepts any state in between. The worker stalls now and
 * then inside a burst (an interrupted core): a writer that reused a next hop
 * or a lookup group without its RCU grace period is then caught.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "fwd_test.h"
#include "rt_ecmp.h"
#include "rt_lookup.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"
#include "rt_worker_setup.h"

#define N_PORTS     4
#define N_STATIC    256  /* static neighbours, never retired */
#define N_DYN       2048 /* gateways learnt for their routes, retired with the last one */
#define N_GROUPS    256  /* ECMP member sets the routes choose from */
#define GRP_MAX     4    /* members of a group at most */
#define N_PREFIX    10000
#define HIST        16 /* states of a prefix kept: a lookup may span HIST - 1 changes */
#define BURST       32
#define RUN_MS      3000 /* of churn */
#define STALL_US    100  /* an interrupted worker, every STALL_EVERY bursts */
#define STALL_EVERY 128
/*
 * Next-hop slots: the writer keeps the live ones (specials, connected, static
 * neighbours, groups and learnt gateways in use) at most NH_SPARE below this,
 * so that once the never-used slots are gone a retired slot is reused a few
 * retirements after its last route went: within a stalled worker's burst.
 */
#define MAX_NH   1024
#define NH_SPARE 4
#define N_HOT    256 /* half the changes and lookups are on these prefixes */

enum st_kind { S_NONE, S_VIA, S_GROUP, S_BH };

/* What a prefix routes to (gateways sorted for a group). */
struct st {
	uint8_t kind;
	uint8_t n;
	uint16_t id; /* S_VIA: static gateway, or N_STATIC + learnt one; S_GROUP: group */
	uint32_t gw[GRP_MAX];
};

struct hist {
	uint32_t ver; /* 2k: state k; 2k + 1: going from k to k + 1 */
	struct st h[HIST];
};

static struct rt_table *tbl;
static struct hist *hist;
static uint32_t grp[N_GROUPS][GRP_MAX];
static uint8_t grp_n[N_GROUPS];
static volatile int stop;
static uint64_t n_lookups, n_unchecked, n_bad, n_bursts;
static uint64_t seed;
static uint32_t dyn_users[N_DYN], grp_users[N_GROUPS], nh_live;

static uint64_t
xs(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint32_t
static_gw(unsigned int k)
{
	return IP4(10, k % N_PORTS, 1, k / N_PORTS + 1);
}

static uint32_t
dyn_gw(unsigned int d)
{
	return IP4(10, d % N_PORTS, 2, d / N_PORTS + 1);
}

static uint16_t
gw_port(uint32_t gw)
{
	return (uint16_t)((gw >> 16) & 0xff);
}

/* Gateway @p gw's MAC 02:01:<its address>: each gateway has its own. */
static struct rte_ether_addr
gw_mac(uint32_t gw)
{
	struct rte_ether_addr a = {
		{0x02, 0x01, gw >> 24, (gw >> 16) & 0xff, (gw >> 8) & 0xff, gw & 0xff}};

	return a;
}

/* rt_nh.l2 of a resolved gateway @p gw. */
static uint64_t
gw_l2(uint32_t gw)
{
	struct rte_ether_addr a = gw_mac(gw);
	uint64_t w = 0;

	memcpy(&w, &a, RTE_ETHER_ADDR_LEN);
	return w | RT_NH_F_VALID;
}

static uint32_t
pfx(unsigned int i, uint8_t *plen)
{
	/* one in 8 a /28 alone in its /24: a lookup group is taken and given back */
	*plen = i % 8 == 7 ? 28 : 24;
	return IP4(20, 0, 0, 0) + (i << 8) + (i % 8 == 7 ? 16 : 0);
}

/* ---- the worker ---- */

/* What the worker saw for one destination. */
struct obs {
	uint8_t kind; /* enum st_kind, or S_BAD */
	uint8_t n;
	uint64_t l2[RT_ECMP_MAX];
	uint16_t port[RT_ECMP_MAX];
};
#define S_BAD 0xff

/* Read next hop @p h as rt_lookup_nh() does (type, a group's member, MAC word, port). */
static void
observe(const struct rt_worker *w, uint32_t h, uint32_t hash, struct obs *o)
{
	const struct rt_ecmp_set *set;
	const struct rt_nh *nh;
	unsigned int m;
	uint32_t pick;
	uint8_t type;

	o->n = 0;
	o->kind = S_BAD;
	if (h == RT_NH_MISS) {
		o->kind = S_NONE;
		return;
	}
	if (h >= MAX_NH)
		return;
	nh = &w->nh[h];
	type = __atomic_load_n(&nh->type, __ATOMIC_ACQUIRE);
	if (type == RT_NH_BLACKHOLE) {
		o->kind = S_BH;
	} else if (type == RT_NH_GW) {
		o->kind = S_VIA;
		o->n = 1;
		o->l2[0] = __atomic_load_n(&nh->l2, __ATOMIC_ACQUIRE);
		o->port[0] = nh->port;
	} else if (type == RT_NH_GROUP) {
		pick = rt_ecmp_member(nh, hash);
		set = __atomic_load_n(&nh->set, __ATOMIC_ACQUIRE);
		if (set == NULL || set->n_members > RT_ECMP_MAX || set->n_active != set->n_members)
			return;
		for (m = 0; m < set->n_members && set->member[m] != pick; m++)
			;
		if (m == set->n_members)
			return; /* the datapath's pick is no member */
		for (m = 0; m < set->n_members; m++) {
			const struct rt_nh *mn = &w->nh[set->member[m] % MAX_NH];

			if (__atomic_load_n(&mn->type, __ATOMIC_ACQUIRE) != RT_NH_GW)
				return;
			o->l2[m] = __atomic_load_n(&mn->l2, __ATOMIC_ACQUIRE);
			o->port[m] = mn->port;
		}
		o->n = set->n_members;
		o->kind = S_GROUP;
	}
}

static bool
matches(const struct st *s, const struct obs *o)
{
	unsigned int i, m;

	if (s->kind != o->kind || s->n != o->n)
		return false;
	for (i = 0; i < s->n; i++) {
		for (m = 0; m < o->n; m++)
			if (o->l2[m] == gw_l2(s->gw[i]) && o->port[m] == gw_port(s->gw[i]))
				break;
		if (m == o->n)
			return false;
	}
	return true;
}

/* Check destination of prefix @p i seen as @p o between versions @p v1 and @p v2. */
static void
check(unsigned int i, uint32_t dst, uint32_t v1, uint32_t v2, const struct obs *o)
{
	const struct hist *hs = &hist[i];
	uint32_t k, last = (v2 + 1) >> 1, v3;

	if (last - (v1 >> 1) >= HIST - 1) {
		n_unchecked++;
		return;
	}
	for (k = v1 >> 1; k <= last; k++)
		if (matches(&hs->h[k % HIST], o))
			return;
	/* the history read may have raced with the writer overwriting it */
	v3 = __atomic_load_n(&hs->ver, __ATOMIC_ACQUIRE);
	if (((v3 + 1) >> 1) - (v1 >> 1) >= HIST - 1) {
		n_unchecked++;
		return;
	}
	if (n_bad++ < 5)
		printf("#   lookup of %u.%u.%u.%u (prefix %u, versions %u..%u): kind %u, %u "
		       "hops, first l2 %" PRIx64 " port %u; expected kind %u\n",
			dst >> 24, (dst >> 16) & 0xff, (dst >> 8) & 0xff, dst & 0xff, i, v1, v2,
			o->kind, o->n, o->n ? o->l2[0] : 0, o->n ? o->port[0] : 0,
			hs->h[(v1 >> 1) % HIST].kind);
}

static int
worker(void *arg)
{
	struct rt_worker *w = arg;
	uint32_t idx[BURST], dst[BURST], hop[BURST], v1[BURST], v2[BURST];
	struct obs o[BURST];
	uint64_t s = seed ^ 0x9e3779b97f4a7c15ull;
	unsigned int j;
	uint8_t plen;

	while (!stop) {
		for (j = 0; j < BURST; j++) {
			uint64_t r = xs(&s);

			idx[j] = (uint32_t)(r % (r & 1 ? N_HOT : N_PREFIX));
			dst[j] = pfx(idx[j], &plen) |
				 (uint32_t)((r >> 32) & (plen == 28 ? 0xf : 0xff));
			v1[j] = __atomic_load_n(&hist[idx[j]].ver, __ATOMIC_ACQUIRE);
		}
		rt_lookup_fib(w, dst, hop, BURST, __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE));
		if (++n_bursts % STALL_EVERY == 0)
			rte_delay_us_block(STALL_US); /* interrupted between lookup and next hop */
		for (j = 0; j < BURST; j++)
			observe(w, hop[j], (uint32_t)xs(&s), &o[j]);
		/* the reads above happen before the versions are read again */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		for (j = 0; j < BURST; j++)
			v2[j] = __atomic_load_n(&hist[idx[j]].ver, __ATOMIC_ACQUIRE);
		for (j = 0; j < BURST; j++)
			check(idx[j], dst[j], v1[j], v2[j], &o[j]);
		__atomic_fetch_add(&n_lookups, BURST, __ATOMIC_RELAXED);
		rt_worker_quiescent(w);
	}
	return 0;
}

/* ---- the writer ---- */

static uint64_t n_changes, n_adds, n_dels, n_replaces, n_replaces1, n_refused;

/*
 * Make the table hold state @p s for prefix @p i: through the replace calls,
 * which add when the prefix has no route and otherwise replace it in one
 * step (the history then goes from the old state to the new with no "none"
 * between: a lookup that fell to the covering route would be a violation).
 */
static int
apply(unsigned int i, const struct st *s)
{
	char err[RT_ERR_LEN];
	struct rt_hop hops[GRP_MAX];
	struct rte_ether_addr mac;
	uint32_t prefix, nh;
	unsigned int m;
	uint8_t plen;
	int ret;

	prefix = pfx(i, &plen);
	switch (s->kind) {
	case S_NONE:
		ret = rt_test_del(tbl, prefix, plen, err, sizeof(err));
		break;
	case S_BH:
		ret = rt_test_set(tbl, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, prefix, plen,
			RT_ROUTE_BLACKHOLE, 0, -1, err, sizeof(err));
		break;
	case S_VIA:
		if (((s->gw[0] >> 8) & 0xff) == 1)
			return rt_test_set(tbl, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, prefix, plen,
				RT_ROUTE_VIA, s->gw[0], -1, err, sizeof(err));
		/* as ARP learns a gateway: resolved before the route, held by it alone */
		nh = rt_nh_neigh_get(tbl, s->gw[0], gw_port(s->gw[0]), false);
		if (nh == RT_NH_MISS)
			return -ENOSPC;
		mac = gw_mac(s->gw[0]);
		rt_nh_set_mac(tbl, nh, &mac);
		ret = rt_test_set(tbl, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, prefix, plen,
			RT_ROUTE_VIA, s->gw[0], -1, err, sizeof(err));
		rt_nh_neigh_put(tbl, nh);
		break;
	default:
		for (m = 0; m < s->n; m++)
			hops[m] = (struct rt_hop){s->gw[m], -1};
		ret = rt_test_set_multi(tbl, RT_SRC_CONFIG, RT_ROUTE_F_REPLACE, prefix, plen, hops,
			s->n, err, sizeof(err));
		break;
	}
	if (ret != 0 && n_refused++ < 5)
		printf("#   prefix %u: %s\n", i, err);
	return ret;
}

/* The users of the next hop of state @p s (learnt gateway or group), or NULL. */
static uint32_t *
users_of(const struct st *s)
{
	if (s->kind == S_VIA && s->id >= N_STATIC)
		return &dyn_users[s->id - N_STATIC];
	if (s->kind == S_GROUP)
		return &grp_users[s->id];
	return NULL;
}

/* One change of prefix @p i to @p s, published in its history around the table's. */
static void
change(unsigned int i, const struct st *s)
{
	struct hist *hs = &hist[i];
	const uint32_t k = hs->ver >> 1;

	hs->h[(k + 1) % HIST] = *s;
	__atomic_store_n(&hs->ver, 2 * k + 1, __ATOMIC_RELEASE);
	/* the table's stores come after the odd version */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (apply(i, s) != 0) {
		hs->h[(k + 1) % HIST] = hs->h[k % HIST]; /* refused: nothing changed */
	} else {
		uint32_t *u = users_of(&hs->h[k % HIST]);

		if (u != NULL && --*u == 0)
			nh_live--;
		u = users_of(s);
		if (u != NULL && (*u)++ == 0)
			nh_live++;
	}
	__atomic_store_n(&hs->ver, 2 * k + 2, __ATOMIC_RELEASE);
	n_changes++;
}

static void
rnd_state(uint64_t *s, struct st *st)
{
	const unsigned int r = xs(s) % 100;
	unsigned int g;

	memset(st, 0, sizeof(*st));
	if (r < 10) {
		st->kind = S_NONE;
	} else if (r < 60) {
		st->kind = S_VIA;
		st->n = 1;
		st->id = (uint16_t)(xs(s) % N_STATIC);
		st->gw[0] = static_gw(st->id);
	} else if (r < 80) {
		g = xs(s) % N_DYN;
		st->kind = S_VIA;
		st->n = 1;
		st->id = (uint16_t)(N_STATIC + g);
		st->gw[0] = dyn_gw(g);
	} else if (r < 95) {
		g = xs(s) % N_GROUPS;
		st->kind = S_GROUP;
		st->id = (uint16_t)g;
		st->n = grp_n[g];
		memcpy(st->gw, grp[g], sizeof(st->gw));
	} else {
		st->kind = S_BH;
	}
	/* a new next hop only while the slots allow: else a static gateway */
	if (users_of(st) != NULL && *users_of(st) == 0 && nh_live >= MAX_NH - NH_SPARE) {
		g = xs(s) % N_STATIC;
		memset(st, 0, sizeof(*st));
		st->kind = S_VIA;
		st->n = 1;
		st->id = (uint16_t)g;
		st->gw[0] = static_gw(g);
	}
}

static int
cmp_u32(const void *a, const void *b)
{
	const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
setup(uint64_t *s)
{
	struct rt_table_params p = {.name = "rt_churn",
		.socket = SOCKET_ID_ANY,
		.max_nh = MAX_NH,
		.tbl8s = N_PREFIX / 8 + 64,
		.max_threads = RTE_MAX_LCORE};
	char err[RT_ERR_LEN];
	struct rte_ether_addr mac = {{0x02, 0, 0, 0, 0, 0}};
	unsigned int k, m, j;
	uint16_t port;

	nh_live = 3 + N_PORTS + N_STATIC;
	tbl = rt_table_create(&p);
	hist = calloc(N_PREFIX, sizeof(*hist));
	if (tbl == NULL || hist == NULL)
		return -1;
	for (port = 0; port < N_PORTS; port++) {
		mac.addr_bytes[5] = (uint8_t)(port + 1);
		if (rt_iface_enable(tbl, port, &mac) != 0 ||
			rt_iface_set_addr(tbl, port, IP4(10, port, 0, 1), 16, err, sizeof(err)) !=
				0)
			return -1;
	}
	for (k = 0; k < N_STATIC; k++) {
		mac = gw_mac(static_gw(k));
		if (rt_neigh_static_add(tbl, static_gw(k), &mac, err, sizeof(err)) != 0) {
			printf("#   %s\n", err);
			return -1;
		}
	}
	for (k = 0; k < N_GROUPS; k++) {
		grp_n[k] = (uint8_t)(2 + k % (GRP_MAX - 1));
		for (m = 0; m < grp_n[k]; m++) {
			do {
				grp[k][m] = static_gw(xs(s) % N_STATIC);
				for (j = 0; j < m && grp[k][j] != grp[k][m]; j++)
					;
			} while (j < m);
		}
		qsort(grp[k], grp_n[k], sizeof(grp[k][0]), cmp_u32);
	}
	return 0;
}

static void
test_churn(void)
{
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0), i;
	uint64_t s, end, hz = rte_get_timer_hz(), t0, lookups0;
	struct rte_ring *punt;
	struct rt_worker w;
	struct st st;
	const char *env = getenv("CHURN_SEED");

	seed = env != NULL ? strtoull(env, NULL, 0) : 0x5eed17;
	s = seed | 1;
	printf("# seed %" PRIu64 " (CHURN_SEED)\n", seed);
	CHECK(lcore < RTE_MAX_LCORE);
	CHECK_EQ(setup(&s), 0);
	punt = rte_ring_create("churn_punt", 64, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	CHECK(punt != NULL);
	if (lcore >= RTE_MAX_LCORE || tbl == NULL || hist == NULL || punt == NULL)
		return;
	/* the base table */
	for (i = 0; i < N_PREFIX; i++) {
		rnd_state(&s, &st);
		if (st.kind != S_NONE)
			change(i, &st);
	}
	CHECK_EQ(n_refused, 0);
	CHECK_EQ(rt_worker_init(&w, tbl, punt, lcore, NULL), 0);
	n_changes = 0;
	stop = 0;
	rte_eal_remote_launch(worker, &w, lcore);
	/* the worker's rate alone first, then under churn */
	t0 = rte_get_timer_cycles();
	rte_delay_us_sleep(200 * 1000);
	lookups0 = __atomic_load_n(&n_lookups, __ATOMIC_RELAXED);
	printf("# worker alone: %.1f M lookups/s\n",
		lookups0 / ((rte_get_timer_cycles() - t0) / (double)hz) / 1e6);
	t0 = rte_get_timer_cycles();
	end = t0 + hz * RUN_MS / 1000;
	while (rte_get_timer_cycles() < end) {
		const struct st *cur;

		i = xs(&s) % (s & 1 ? N_HOT : N_PREFIX);
		cur = &hist[i].h[(hist[i].ver >> 1) % HIST];
		rnd_state(&s, &st);
		if (cur->kind == S_NONE && st.kind == S_NONE)
			continue;
		if (cur->kind != S_NONE && st.kind != S_NONE) {
			/*
			 * A replace: every other one in one step (rt_test_set()), * the rest as a delete then an add (netlink's old way, RT_ROUTE_F_REPLACE, and a user's).
			 */
			if (n_replaces++ & 1)
				n_replaces1++;
			else
				change(i, &(struct st){.kind = S_NONE});
		} else if (st.kind == S_NONE) {
			n_dels++;
		} else {
			n_adds++;
		}
		change(i, &st);
	}
	stop = 1;
	rte_eal_wait_lcore(lcore);
	t0 = rte_get_timer_cycles() - t0;
	rt_worker_fini(&w);
	printf("# %" PRIu64 " changes in %.2f s (%.0f /s): %" PRIu64 " adds, %" PRIu64
	       " deletes, %" PRIu64 " replaces (%" PRIu64 " in one step), %" PRIu64 " refused\n",
		n_changes, t0 / (double)hz, n_changes / (t0 / (double)hz), n_adds, n_dels,
		n_replaces, n_replaces1, n_refused);
	printf("# %" PRIu64 " lookups under churn (%.1f M/s), %" PRIu64
	       " too long to check, %" PRIu64 " violations\n",
		n_lookups - lookups0, (n_lookups - lookups0) / (t0 / (double)hz) / 1e6, n_unchecked,
		n_bad);
	CHECK(n_changes > 1000);
	CHECK(n_replaces1 > 100);
	CHECK(n_lookups - lookups0 > 100000);
	CHECK(n_unchecked < n_lookups / 100);
	CHECK_EQ(n_refused, 0);
	CHECK_EQ(n_bad, 0);
	CHECK(nh_live <= MAX_NH - NH_SPARE);
	rt_table_free(tbl);
	rte_ring_free(punt);
	free(hist);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_churn),
};

int
main(void)
{
	if (fwd_test_eal_init("route_churn", 256) != 0) {
		printf("1..0 # SKIP no EAL\n");
		return 0;
	}
	return fwd_test_run(cases, RTE_DIM(cases));
}
