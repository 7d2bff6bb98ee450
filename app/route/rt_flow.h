/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FLOW_H
#define RT_FLOW_H

/**
 * @file
 * The flow stage of --fwd route: a per-worker exact-match flow table in
 * front of the route, neighbour and filter lookups, fed group by group by
 * lib/flowsort.
 *
 * Key: flowsort's 16-byte key (5-tuple, or 3-tuple for non-TCP/UDP/SCTP)
 * plus the input port. Value: the cached decision (forward out of a port
 * with a destination MAC, hand to the slow path with an exception, or drop
 * with a reason) and the flow's packets, bytes, first and last seen (TSC).
 *
 * Per burst: the RFC 1812 input checks per packet (as rt_route_burst()),
 * reading each survivor's flow key on the way and cutting runs of equal
 * keys; flowsort groups the runs; per group one table lookup, one counter
 * update and one rewrite template (MAC words, output port, MTU); per packet,
 * in arrival order, the TTL, MTU, checksum and MAC stores. A burst flowsort
 * does not group (flowsort = off, or auto mode measuring short groups, or
 * measuring that ungrouped bursts cost less) takes the same steps per run of
 * equal keys (a previous-key hint). In auto mode the stage times the bursts
 * flowsort asks it to (flowsort_queue_timed()) and reports their cost.
 *
 * A miss runs the full lookup: the filter (rt_acl) first, then the LPM and
 * the next hop. Invalidation is by generation: every change of the routing
 * table (routes, neighbour MACs, MTUs: rt_table::gen) or of the filter
 * (rt_acl::gen) bumps a counter, and an entry decided under another sum of
 * the two is a miss. Simple and always correct, at the price of re-deciding
 * every flow once after any change, including changes that do not affect
 * it.
 *
 * The table is set associative: RT_FLOW_WAYS entries per bucket, a 32-bit
 * signature array scanned first, one 64-byte entry read on a match. An entry
 * idle longer than the timeout is aged (a miss; its counters restart); a
 * new flow takes an empty or aged way, else evicts the least recently seen
 * one (counted). Fragments are never cached (flowsort keys them per
 * datagram): each is decided on its own.
 *
 * Threading: one rt_flow per worker lcore, used only by it. The control
 * path reads entries and counters (rt_flow_top(), rt_flow_stats_get())
 * without locks. An entry's key and decision are only rewritten on a miss,
 * inside a per-entry sequence count (rt_flow::seq) that rt_flow_top()
 * checks, so it never shows a torn entry (a key half old, half new, or one
 * flow's counters under another's key). The counters a hit updates (pkts,
 * bytes, last: aligned 64-bit stores by the one writer) are read without it:
 * each value is one the worker wrote, and pkts and bytes may be one group
 * apart. Counter sets (rt_flow_stats_get()) may likewise be one burst old.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_hash_crc.h>
#include <rte_mbuf.h>

#include "flowsort.h"
#include "rt_acl.h"
#include "rt_fwd.h"

#define RT_FLOW_WAYS         8     /**< entries per bucket */
#define RT_FLOW_DEFAULT_SIZE 65536 /**< entries per worker when the conf says 0 */
#define RT_FLOW_DEFAULT_AGE  30    /**< idle seconds before a flow is aged, default */
#define RT_FLOW_CHUNK        64    /**< packets processed per pass */

_Static_assert(RTE_MAX_ETHPORTS <= 256, "rt_flow_entry keeps ports in a byte");

/** What a cached decision does. */
enum rt_flow_action {
	RT_FLOW_FWD = 0, /**< rewrite with rt_flow_entry::l2 and send out of out_port */
	RT_FLOW_PUNT,    /**< to the slow path; l2 holds RT_PUNT_TAG(exception, next hop) */
	RT_FLOW_DROP,    /**< free and count; l2 holds the rt_drop_reason */
};

/** Shift from TSC to rt_flow_way::seen units (about 0.3 us; wraps after about 20 min). */
#define RT_FLOW_SEEN_SHIFT 10

/**
 * A way's signature and coarse last-seen time: a bucket's eight fit in one
 * cache line, so the lookup reads one line before the entry and choosing the
 * least recently seen victim reads no entry at all.
 */
struct rt_flow_way {
	uint32_t sig;  /**< hash | 1; 0 = empty way */
	uint32_t seen; /**< TSC >> RT_FLOW_SEEN_SHIFT of its latest burst */
};

/** One flow: one cache line. */
struct rt_flow_entry {
	uint64_t key[2]; /**< struct flowsort_key words */
	/** FWD: rt_nh::l2 (MAC | RT_NH_F_VALID); PUNT: RT_PUNT_TAG; DROP: rt_drop_reason */
	uint64_t l2;
	uint32_t gen;     /**< generation the decision was taken under */
	uint8_t in_port;  /**< part of the key */
	uint8_t out_port; /**< FWD: output port */
	uint8_t action;   /**< enum rt_flow_action */
	uint8_t rule;     /**< filter counter slot of the rule that matched, or RT_ACL_NO_RULE */
	uint64_t pkts;    /**< packets since installed (or aged) */
	uint64_t bytes;   /**< their bytes, Ethernet header included */
	uint64_t first;   /**< TSC of the first packet */
	uint64_t last;    /**< TSC of the burst of the latest packet */
} __rte_aligned(64);

/** X(field, "name", "description") for every flow-stage counter of a worker. */
#define RT_FLOW_STATS(X)                                                                          \
	X(lookups, "lookups", "flow-table lookups: one per group, or per run of equal keys")      \
	X(hits, "hits", "lookups that found a current decision")                                  \
	X(misses, "misses", "lookups that ran the route + neighbour + filter lookup")             \
	X(new_flows, "new_flows", "misses that installed a flow the table did not hold")          \
	X(invalidated, "invalidated",                                                             \
		"misses on an entry decided before a route, neighbour "                           \
		"or filter change")                                                               \
	X(aged, "aged", "misses on an entry idle longer than the timeout (counters restart)")     \
	X(evictions, "evictions", "live entries replaced because their bucket was full")          \
	X(uncached, "uncached", "fragments, decided one by one and never cached")                 \
	X(grouped_pkts, "grouped_pkts", "packets that went through the stage in flowsort groups") \
	X(ungrouped_pkts, "ungrouped_pkts", "packets that went through it one by one")

/** Counters of one worker's flow stage. */
struct rt_flow_stats {
#define RT_FLOW_STAT_FIELD(f, name, desc) uint64_t f;
	RT_FLOW_STATS(RT_FLOW_STAT_FIELD)
#undef RT_FLOW_STAT_FIELD
};

/** Number of counters in struct rt_flow_stats. */
#define RT_FLOW_NB_STATS (sizeof(struct rt_flow_stats) / sizeof(uint64_t))

/** Parameters of rt_flow_create(). Zero-filled gives the defaults. */
struct rt_flow_conf {
	uint32_t size;            /**< entries, rounded up to a power of 2 (>= 8); 0 = default */
	double age_s;             /**< idle seconds before an entry is aged; 0 = default */
	enum flowsort_mode mode;  /**< flowsort = on|off|auto for every queue */
	uint16_t n_queues;        /**< RX queues the worker polls (>= 1) */
	int socket;               /**< NUMA socket */
	const uint32_t *tbl_gen;  /**< &rt_table::gen */
	const struct rt_acl *acl; /**< the filter, or NULL */
	/** hash for both the grouping and the table (tests force collisions); NULL = CRC32-C */
	flowsort_hash_t hash_fn;
	void *hash_arg; /**< passed to hash_fn */
};

/** One worker's flow stage. */
struct rt_flow {
	struct rt_flow_entry *ent; /**< buckets x RT_FLOW_WAYS entries */
	struct rt_flow_way *way;   /**< their signatures and last-seen times */
	/**
	 * One sequence count per entry: odd while the worker rewrites the entry's
	 * key and decision (install, refresh), so that rt_flow_top() never shows
	 * a torn entry. Written on misses only.
	 */
	uint32_t *seq;
	uint32_t mask;    /**< buckets - 1 */
	uint32_t size;    /**< entries */
	uint64_t timeout; /**< idle TSC cycles before an entry is aged */
	const uint32_t *tbl_gen;
	const struct rt_acl *acl;
	flowsort_hash_t hash_fn;
	void *hash_arg;
	struct flowsort_ctx *fs;
	uint16_t n_queues;
	uint32_t frozen_gen; /**< what tbl_gen points at after rt_flow_detach() */
	uint8_t mode;        /**< enum flowsort_mode of its queues */
	struct rt_flow_stats stats;
	uint64_t rule_pkts[RT_ACL_MAX_RULES];  /**< packets per filter slot */
	uint32_t rule_epoch[RT_ACL_MAX_RULES]; /**< rt_acl::slot_epoch these counts belong to */
	struct flowsort_queue *fq[];           /**< one per RX queue */
};

/**
 * Create a worker's flow stage.
 *
 * @return it, or NULL with rte_errno set (EINVAL, ENOMEM).
 */
struct rt_flow *rt_flow_create(const struct rt_flow_conf *conf);

/** Free @p fl (NULL is fine). */
void rt_flow_free(struct rt_flow *fl);

/**
 * The routing table and the filter are about to be freed: keep @p fl
 * readable (rt_flow_top(), counters) without them. No packet may go through
 * @p fl afterwards.
 */
void rt_flow_detach(struct rt_flow *fl);

/**
 * Change the flowsort mode of every queue (from the worker, or while it is
 * stopped).
 *
 * @return 0 or -EINVAL.
 */
int rt_flow_set_mode(struct rt_flow *fl, enum flowsort_mode mode);

/**
 * Parse "on", "off" or "auto".
 *
 * @return 0, or -EINVAL with @p err set.
 */
int rt_flow_mode_parse(const char *s, enum flowsort_mode *mode, char *err, size_t errlen);

/** "on", "off" or "auto". */
const char *rt_flow_mode_name(enum flowsort_mode mode);

/** Name of the i-th counter of struct rt_flow_stats, or NULL. */
const char *rt_flow_stats_name(unsigned int i);

/** Copy @p fl's counters into @p st. */
void rt_flow_stats_get(const struct rt_flow *fl, struct rt_flow_stats *st);

/**
 * Zero @p fl's counters: the flow-stage counters, its queues' flowsort
 * counters, the filter rules' packet counts and every flow's packets and
 * bytes (a flow then shows up again with its next packet). Only while the
 * worker is stopped: they are its counters.
 */
void rt_flow_stats_reset(struct rt_flow *fl);

/** Sum of the flowsort counters of @p fl's queues. */
void rt_flow_sort_stats_get(const struct rt_flow *fl, struct flowsort_stats *st);

/**
 * Packets the filter rule in counter slot @p slot matched, summed over the
 * @p n flow stages @p fl (workers whose count belongs to an older rule in the
 * slot are left out).
 */
uint64_t rt_flow_rule_pkts(
	struct rt_flow *const *fl, unsigned int n, const struct rt_acl *acl, uint8_t slot);

/** How rt_flow_top() orders flows. */
enum rt_flow_order {
	RT_FLOW_BY_PKTS,
	RT_FLOW_BY_BYTES,
};

/** A flow as rt_flow_top() reports it. */
struct rt_flow_info {
	struct flowsort_key key;
	uint16_t in_port;
	uint16_t out_port;
	uint8_t action;  /**< enum rt_flow_action */
	bool current;    /**< decided under the current generation */
	uint32_t detail; /**< PUNT: RT_PUNT_TAG; DROP: rt_drop_reason */
	uint64_t pkts;
	uint64_t bytes;
	uint64_t first;     /**< TSC */
	uint64_t last;      /**< TSC */
	unsigned int table; /**< index of its table in the array given */
};

/**
 * The @p max biggest flows of the @p n tables @p fl, by packets or bytes,
 * biggest first; entries idle longer than the timeout at @p now are left out.
 *
 * @return the number written to @p out.
 */
unsigned int rt_flow_top(struct rt_flow *const *fl, unsigned int n, enum rt_flow_order by,
	uint64_t now, struct rt_flow_info *out, unsigned int max);

/**
 * Live entries of @p fl at @p now (not aged out).
 */
uint32_t rt_flow_count(const struct rt_flow *fl, uint64_t now);

/** @internal Miss: decide for @p k and install it (or refresh @p e); never NULL. */
struct rt_flow_entry *__rt_flow_miss(struct rt_flow *fl, struct rt_worker *w,
	const struct flowsort_key *k, uint16_t in_port, uint32_t hash, struct rt_flow_entry *e,
	uint32_t gen, uint64_t now);

/** @internal Decide for @p k into @p e without caching (fragments). */
void __rt_flow_decide(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k,
	uint16_t in_port, struct rt_flow_entry *e);

/**
 * Whether the stage has work to do (once per burst): flowsort is not off, or
 * the filter has rules. With flowsort = off and no filter the app routes with
 * rt_route_burst() alone: the flow table on its own costs about as much as
 * the whole router (docs/benchmarks-flowstage.md) and gives only statistics.
 */
static inline bool
rt_flow_wanted(const struct rt_flow *fl)
{
	return fl->mode != FLOWSORT_MODE_OFF ||
	       (fl->acl != NULL && __atomic_load_n(&fl->acl->n, __ATOMIC_RELAXED) != 0);
}

/**
 * The table's hash from @p kh, the key's flowsort hash (flowsort_hash_sw(), or
 * the injected hash_fn): flowsort computes it once per group, so a grouped
 * burst hashes each group once in all.
 */
static inline uint32_t
rt_flow_hash_mix(const struct rt_flow *fl, uint32_t kh, uint16_t in_port)
{
	if (unlikely(fl->hash_fn != NULL))
		return kh;
	return rte_hash_crc_4byte(in_port, kh);
}

/** The table's hash of a key and input port. */
static inline uint32_t
rt_flow_hash(const struct rt_flow *fl, const struct flowsort_key *k, uint16_t in_port)
{
	if (unlikely(fl->hash_fn != NULL))
		return fl->hash_fn(k, fl->hash_arg);
	return rt_flow_hash_mix(fl, flowsort_hash_sw(k), in_port);
}

/** Current generation: table changes plus filter changes. */
static inline uint32_t
rt_flow_gen(const struct rt_flow *fl)
{
	uint32_t g = __atomic_load_n(fl->tbl_gen, __ATOMIC_ACQUIRE);

	if (fl->acl != NULL)
		g += rt_acl_gen(fl->acl);
	return g;
}

/** Prefetch the bucket line of hash @p h (first step of a batch of lookups). */
static inline void
rt_flow_prefetch_way(const struct rt_flow *fl, uint32_t h)
{
	rte_prefetch0(&fl->way[(h & fl->mask) * RT_FLOW_WAYS]);
}

/** Prefetch the entry whose signature matches @p h, if any (second step). */
static inline void
rt_flow_prefetch_entry(const struct rt_flow *fl, uint32_t h)
{
	const uint32_t b = (h & fl->mask) * RT_FLOW_WAYS;
	unsigned int i;

	for (i = 0; i < RT_FLOW_WAYS; i++) {
		if (fl->way[b + i].sig == (h | 1)) {
			rte_prefetch0(&fl->ent[b + i]);
			return;
		}
	}
}

/**
 * Find the flow @p k from @p in_port, whose rt_flow_hash() is @p h, deciding
 * and installing it on a miss. The entry's counters are the caller's to update.
 *
 * @return the entry (never NULL), valid until the next lookup.
 */
static inline struct rt_flow_entry *
rt_flow_lookup(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k,
	uint16_t in_port, uint32_t h, uint32_t gen, uint64_t now)
{
	const uint32_t b = (h & fl->mask) * RT_FLOW_WAYS;
	const uint32_t sig = h | 1;
	struct rt_flow_way *s = &fl->way[b];
	unsigned int i;

	/*
	 * A plain loop, not one vector compare of the whole line: with the table
	 * far from full a flow sits in its bucket's first ways, and measured, the
	 * loop's early exit costs fewer instructions.
	 */
	fl->stats.lookups++;
	for (i = 0; i < RT_FLOW_WAYS; i++) {
		struct rt_flow_entry *e;

		if (s[i].sig != sig)
			continue;
		e = &fl->ent[b + i];
		if (e->key[0] != k->w[0] || e->key[1] != k->w[1] || e->in_port != in_port)
			continue;
		if (likely(e->gen == gen && now - e->last <= fl->timeout)) {
			fl->stats.hits++;
			s[i].seen = (uint32_t)(now >> RT_FLOW_SEEN_SHIFT);
			return e;
		}
		return __rt_flow_miss(fl, w, k, in_port, h, e, gen, now);
	}
	return __rt_flow_miss(fl, w, k, in_port, h, NULL, gen, now);
}

/** Add @p n packets to the filter rule in slot @p s (restarting a reused slot). */
static inline void
rt_flow_rule_count(struct rt_flow *fl, uint8_t s, uint64_t n)
{
	uint32_t ep = __atomic_load_n(&fl->acl->slot_epoch[s], __ATOMIC_RELAXED);

	if (unlikely(fl->rule_epoch[s] != ep)) {
		fl->rule_epoch[s] = ep;
		fl->rule_pkts[s] = 0;
	}
	fl->rule_pkts[s] += n;
}

/** Next hop of @p ip's destination, for the exceptions a cached FWD can still take. */
static __rte_noinline uint32_t
rt_flow_nh_of(const struct rt_worker *w, const struct rte_ipv4_hdr *ip)
{
	uint32_t h;

	if (rte_lpm_lookup(w->lpm, rte_be_to_cpu_32(ip->dst_addr), &h) != 0)
		h = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
	return h;
}

/** Where the stage puts what it forwards and what it hands to the slow path. */
struct rt_flow_out {
	struct rte_mbuf **pkts; /**< forwarded, in arrival order */
	uint16_t *port;         /**< their output ports */
	uint16_t n;
	struct rte_mbuf **punts; /**< for the slow path, in arrival order */
	uint16_t np;
};

/**
 * One group's decision made ready for its packets: the entry (for the
 * counters) and, for a forward, the rewrite template.
 */
struct rt_flow_tmpl {
	struct rt_flow_entry *e; /**< NULL: fragments and the like, decided per packet */
	uint64_t w0;             /**< FWD: frame bytes 0-7 (destination MAC, source MAC 0-1) */
	uint64_t bytes;          /**< bytes of the group's packets so far */
	uint32_t w1;             /**< FWD: frame bytes 8-11 (source MAC 2-5) */
	uint32_t mtu;            /**< FWD: output port's MTU */
	uint16_t port;           /**< FWD: output port */
	uint8_t fwd;             /**< a cached FWD: the tight loop */
};

/** A cached FWD's per-packet exceptions: TTL expiring (first), or too big for the MTU. */
static __rte_noinline void
rt_flow_fwd_exception(struct rt_worker *w, struct rte_mbuf *m, const struct rte_ipv4_hdr *ip,
	uint16_t in_port, struct rt_flow_out *o)
{
	rt_punt(o->punts, &o->np, m, in_port, ip->time_to_live <= 1 ? RT_EXC_TTL : RT_EXC_MTU,
		rt_flow_nh_of(w, ip));
}

/**
 * Per packet of a group whose decision @p e is not FWD: hand to the slow
 * path or drop.
 */
static __rte_noinline void
rt_flow_apply_other(struct rt_worker *w, const struct rt_flow_entry *e, uint16_t in_port,
	struct rte_mbuf *m, struct rt_flow_out *o)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);

	if (e->action == RT_FLOW_FWD) {
		/* an uncached decision (fragments): the FWD path, one packet */
		const uint16_t mtu = __atomic_load_n(&w->ports[e->out_port].mtu, __ATOMIC_RELAXED);
		struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);

		if (unlikely(ip->time_to_live <= 1 || __builtin_bswap16(ip->total_length) > mtu)) {
			rt_flow_fwd_exception(w, m, ip, in_port, o);
			return;
		}
		rt_ipv4_ttl_dec((struct rte_ipv4_hdr *)(uintptr_t)ip);
		memcpy(eth, &e->l2, sizeof(e->l2));
		rte_ether_addr_copy(&w->ports[e->out_port].mac, &eth->src_addr);
		o->port[o->n] = e->out_port;
		o->pkts[o->n++] = m;
		return;
	}
	if (e->action == RT_FLOW_PUNT) {
		uint32_t tag = (uint32_t)e->l2;

		/* an unresolved next hop: TTL first, as rt_route_burst() does */
		if (tag >> 24 == RT_EXC_UNRESOLVED && ip->time_to_live <= 1)
			tag = RT_PUNT_TAG(RT_EXC_TTL, tag);
		m->port = in_port;
		m->hash.usr = tag;
		o->punts[o->np++] = m;
		return;
	}
	rte_pktmbuf_free(m);
	w->drops[e->l2]++;
}

/**
 * The MAC header of a cached forward @p e out of port @p p as frame bytes
 * 0-7 (@p w0) and 8-11 (@p w1), for rt_eth_store12(): destination from the
 * entry, source from the port. Built in registers: bytes stored and read back
 * as words stall on store forwarding.
 */
static __rte_always_inline void
rt_flow_mac_words(
	const struct rt_flow_entry *e, const struct rt_port *p, uint64_t *w0, uint32_t *w1)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	*w0 = (e->l2 & RT_NH_MAC_MASK) | p->mac_w << 48;
	*w1 = (uint32_t)(p->mac_w >> 16);
#else
	uint8_t hdr[12];

	memcpy(hdr, &e->l2, RTE_ETHER_ADDR_LEN);
	memcpy(hdr + RTE_ETHER_ADDR_LEN, &p->mac, RTE_ETHER_ADDR_LEN);
	memcpy(w0, hdr, sizeof(*w0));
	memcpy(w1, hdr + sizeof(*w0), sizeof(*w1));
#endif
}

/**
 * Per group with table hash @p h: the one lookup (a miss decides and
 * installs), and the rewrite template of a forward: destination and source
 * MAC as one 8- and one 4-byte store, the output port and its MTU.
 */
static __rte_always_inline void
rt_flow_tmpl_get(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k, uint32_t h,
	uint16_t in_port, uint32_t gen, uint64_t now, struct rt_flow_tmpl *t)
{
	struct rt_flow_entry *e;

	t->bytes = 0;
	t->fwd = 0;
	if (unlikely(k->type != FLOWSORT_KEY_L4 && k->type != FLOWSORT_KEY_L3)) {
		t->e = NULL;
		return;
	}
	e = rt_flow_lookup(fl, w, k, in_port, h, gen, now);
	t->e = e;
	if (likely(e->action == RT_FLOW_FWD)) {
		const uint16_t port = e->out_port;

		t->fwd = 1;
		t->port = port;
		t->mtu = __atomic_load_n(&w->ports[port].mtu, __ATOMIC_RELAXED);
		rt_flow_mac_words(e, &w->ports[port], &t->w0, &t->w1);
	}
}

/** Fragments and datagrams too short for their ports: decided one by one, never cached. */
static __rte_noinline void
rt_flow_uncached(struct rt_flow *fl, struct rt_worker *w, uint16_t in_port, struct rte_mbuf *m,
	struct rt_flow_out *o)
{
	const struct rte_ipv4_hdr *ip =
		rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
	struct rt_flow_entry tmp;
	struct flowsort_key pk;

	/* on addresses and protocol, ports 0 (a key per datagram would only churn the table) */
	pk.src_addr = ip->src_addr;
	pk.dst_addr = ip->dst_addr;
	pk.src_port = 0;
	pk.dst_port = 0;
	pk.proto = ip->next_proto_id;
	pk.type = FLOWSORT_KEY_L3;
	pk.vlan = 0;
	__rt_flow_decide(fl, w, &pk, in_port, &tmp);
	if (tmp.rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, tmp.rule, 1);
	fl->stats.uncached++;
	rt_flow_apply_other(w, &tmp, in_port, m, o);
}

/**
 * Per packet of a run pkts[first .. first + cnt) of group @p t: for a cached
 * forward only the TTL and MTU tests, the TTL decrement with its checksum
 * update and two stores of the MAC header.
 */
static __rte_always_inline void
rt_flow_apply_run(struct rt_flow *fl, struct rt_worker *w, struct rt_flow_tmpl *t, uint16_t in_port,
	struct rte_mbuf *const *pkts, unsigned int first, unsigned int cnt, struct rt_flow_out *o)
{
	unsigned int j;

	if (likely(t->fwd)) {
		const uint64_t w0 = t->w0;
		const uint32_t w1 = t->w1, mtu = t->mtu;
		const uint16_t port = t->port;
		struct rte_mbuf **out = o->pkts;
		uint16_t *out_port = o->port;
		unsigned int n = o->n;
		uint64_t bytes = 0;

		for (j = first; j < first + cnt; j++) {
			struct rte_mbuf *m = pkts[j];
			uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
			struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + RT_L2_LEN);

			bytes += rte_pktmbuf_pkt_len(m);
			if (unlikely(ip->time_to_live <= 1 ||
				     __builtin_bswap16(ip->total_length) > mtu)) {
				rt_flow_fwd_exception(w, m, ip, in_port, o);
				continue;
			}
			rt_ipv4_ttl_dec(ip);
			rt_eth_store12(eth, w0, w1);
			out_port[n] = port;
			/* out is pkts: nothing to store while every frame stays */
			if (n != j)
				out[n] = m;
			n++;
		}
		o->n = (uint16_t)n;
		t->bytes += bytes;
		return;
	}
	for (j = first; j < first + cnt; j++) {
		if (t->e == NULL) {
			rt_flow_uncached(fl, w, in_port, pkts[j], o);
			continue;
		}
		t->bytes += rte_pktmbuf_pkt_len(pkts[j]);
		rt_flow_apply_other(w, t->e, in_port, pkts[j], o);
	}
}

/** Per group: the one counter update, for its @p cnt packets. */
static __rte_always_inline void
rt_flow_tmpl_put(struct rt_flow *fl, const struct rt_flow_tmpl *t, unsigned int cnt, uint64_t now)
{
	struct rt_flow_entry *e = t->e;

	if (e == NULL)
		return;
	e->pkts += cnt;
	e->bytes += t->bytes;
	e->last = now;
	if (e->rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, e->rule, cnt);
}

/**
 * A group that is one run pkts[first .. first + cnt): lookup, template,
 * packets and counters in one go, everything in registers (trains, and
 * every run when flowsort does not group).
 */
static __rte_always_inline void
rt_flow_one_run(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k, uint32_t h,
	uint16_t in_port, struct rte_mbuf *const *pkts, unsigned int first, unsigned int cnt,
	uint32_t gen, uint64_t now, struct rt_flow_out *o)
{
	struct rt_flow_tmpl t;

	rt_flow_tmpl_get(fl, w, k, h, in_port, gen, now, &t);
	rt_flow_apply_run(fl, w, &t, in_port, pkts, first, cnt, o);
	rt_flow_tmpl_put(fl, &t, cnt, now);
}

/**
 * A run of one packet, pkts[idx] (every packet when no two neighbours share a
 * flow: many flows, bypassed grouping): rt_flow_one_run() without the
 * template and the run loop. A cached forward is applied straight from the
 * entry and its port; anything else takes rt_flow_one_run().
 */
static __rte_always_inline void
rt_flow_one_pkt(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k, uint32_t h,
	uint16_t in_port, struct rte_mbuf *const *pkts, unsigned int idx, uint32_t gen,
	uint64_t now, struct rt_flow_out *o)
{
	struct rte_mbuf *m = pkts[idx];
	uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + RT_L2_LEN);
	const struct rt_port *p;
	struct rt_flow_entry *e;
	uint64_t w0;
	uint32_t w1;

	if (unlikely(k->type != FLOWSORT_KEY_L4 && k->type != FLOWSORT_KEY_L3))
		goto general;
	e = rt_flow_lookup(fl, w, k, in_port, h, gen, now);
	if (unlikely(e->action != RT_FLOW_FWD))
		goto general_found;
	p = &w->ports[e->out_port];
	e->pkts++;
	e->bytes += rte_pktmbuf_pkt_len(m);
	e->last = now;
	if (e->rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, e->rule, 1);
	if (unlikely(ip->time_to_live <= 1 || __builtin_bswap16(ip->total_length) >
						      __atomic_load_n(&p->mtu, __ATOMIC_RELAXED))) {
		rt_flow_fwd_exception(w, m, ip, in_port, o);
		return;
	}
	rt_ipv4_ttl_dec(ip);
	rt_flow_mac_words(e, p, &w0, &w1);
	rt_eth_store12(eth, w0, w1);
	o->port[o->n] = e->out_port;
	/* out is pkts: nothing to store while every frame stays */
	if (o->n != idx)
		o->pkts[o->n] = m;
	o->n++;
	return;
general_found:
	/* the lookup is done: the rest of rt_flow_one_run() on this entry */
	{
		struct rt_flow_tmpl t = {.e = e, .bytes = 0, .fwd = 0};

		rt_flow_apply_run(fl, w, &t, in_port, pkts, idx, 1, o);
		rt_flow_tmpl_put(fl, &t, 1, now);
	}
	return;
general:
	rt_flow_one_run(fl, w, k, h, in_port, pkts, idx, 1, gen, now, o);
}

/** A group that is one run: rt_flow_one_pkt() for a run of one, else rt_flow_one_run(). */
static __rte_always_inline void
rt_flow_run(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k, uint32_t h,
	uint16_t in_port, struct rte_mbuf *const *pkts, unsigned int first, unsigned int cnt,
	uint32_t gen, uint64_t now, struct rt_flow_out *o)
{
	if (cnt == 1)
		rt_flow_one_pkt(fl, w, k, h, in_port, pkts, first, gen, now, o);
	else
		rt_flow_one_run(fl, w, k, h, in_port, pkts, first, cnt, gen, now, o);
}

/**
 * Packets of interleaved groups, in arrival order: packet i belongs to group
 * pg[i] of @p tm. Per packet, the template is read from tm[] (L1) rather
 * than kept in registers; the per-run set-up of rt_flow_apply_run() would
 * cost more when runs are one packet long.
 */
static __rte_always_inline void
rt_flow_apply_groups(struct rt_flow *fl, struct rt_worker *w, struct rt_flow_tmpl *tm,
	const uint16_t *pg, uint16_t in_port, struct rte_mbuf *const *pkts, unsigned int k,
	struct rt_flow_out *o)
{
	struct rte_mbuf **out = o->pkts;
	uint16_t *out_port = o->port;
	unsigned int i, n = o->n;

	for (i = 0; i < k; i++) {
		struct rt_flow_tmpl *t = &tm[pg[i]];
		struct rte_mbuf *m = pkts[i];
		uint8_t *eth = rte_pktmbuf_mtod(m, uint8_t *);
		struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + RT_L2_LEN);

		if (unlikely(!t->fwd)) {
			o->n = (uint16_t)n;
			rt_flow_apply_run(fl, w, t, in_port, pkts, i, 1, o);
			n = o->n;
			continue;
		}
		t->bytes += rte_pktmbuf_pkt_len(m);
		if (unlikely(ip->time_to_live <= 1 ||
			     __builtin_bswap16(ip->total_length) > t->mtu)) {
			rt_flow_fwd_exception(w, m, ip, in_port, o);
			continue;
		}
		rt_ipv4_ttl_dec(ip);
		rt_eth_store12(eth, t->w0, t->w1);
		out_port[n] = t->port;
		/* out is pkts: nothing to store while every frame stays */
		if (n != i)
			out[n] = m;
		n++;
	}
	o->n = (uint16_t)n;
}

/** Runs of equal flow keys in a burst, as rt_flow_input_checks() cuts them. */
struct rt_flow_runs {
	uint16_t n;                             /**< number of runs */
	uint16_t start[RT_FLOW_CHUNK + 1];      /**< first packet of each, then the end */
	struct flowsort_key key[RT_FLOW_CHUNK]; /**< their keys */
};

/**
 * Pass 1: the input checks of rt_route_burst_chunk() (L2, RFC 1812 5.2.2,
 * group-addressed frames), in the same order with the same counters, and the
 * flow key of each survivor, read while its header is at hand and compared
 * with the previous survivor's: @p runs gets the runs of equal keys (what
 * flowsort groups, and the previous-key hint when it does not). Survivors
 * (unicast IPv4 for the LPM) are compacted at the front of @p pkts.
 *
 * @return how many survived.
 */
static __rte_always_inline uint16_t
rt_flow_input_checks(struct rt_worker *w, uint16_t in_port, struct rte_mbuf **pkts, uint16_t n,
	struct rt_flow_runs *runs, struct rt_flow_out *o)
{
	const uint64_t mac_w = w->ports[in_port].mac_w;
	const bool hw_cksum = w->ports[in_port].rx_cksum;
	const uint32_t defv = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
	uint64_t *drops = w->drops;
	/* type 0 is no key type: the first survivor always starts a run */
	struct flowsort_key prev = {.w = {0, 0}};
	unsigned int i, k = 0, nr = 0;

	for (i = 0; i < RTE_MIN((unsigned int)n, 4u); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
		struct flowsort_key key;
		enum rt_input r;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		r = rt_input_fast(m, f, mac_w, hw_cksum, drops);
		if (unlikely(r != RT_IN_KEEP)) {
			if (r == RT_IN_DROPPED)
				continue;
			goto slow;
		}
		/* rt_input_fast() saw EtherType IPv4 at 12 and a 20-byte header */
		flowsort_key_ipv4(m, RT_L2_LEN, sizeof(struct rte_ipv4_hdr),
			flowsort_key_vlan_stripped(m), &key);
	keep:
		flowsort_run_cut(&key, k, &prev, runs->key, runs->start, &nr);
		if (k != i)
			pkts[k] = m;
		k++;
		continue;
	slow:
		/* unicast IPv4 with options: the general parser */
		if (rt_classify_slow(w, in_port, m, o->punts, &o->np, defv)) {
			flowsort_key_extract(m, &key);
			goto keep;
		}
	}
	runs->n = (uint16_t)nr;
	runs->start[nr] = (uint16_t)k;
	return (uint16_t)k;
}

/** Hand the punts to the slow path and count them, as rt_route_burst() does. */
static inline void
rt_flow_punt_flush(struct rt_worker *w, struct rte_mbuf **punts, uint16_t np)
{
	uint16_t i, sent;

	if (np == 0)
		return;
	sent = (uint16_t)rte_ring_sp_enqueue_burst(w->punt, (void **)punts, np, NULL);
	for (i = 0; i < sent; i++)
		w->stats.punts[RT_PUNT_EXC(punts[i])]++;
	if (unlikely(sent < np)) {
		rte_pktmbuf_free_bulk(&punts[sent], np - sent);
		w->drops[RT_DROP_PUNT_FULL] += np - sent;
	}
}

/**
 * rt_route_burst() with the flow stage: route at most RT_FLOW_CHUNK
 * packets received on @p in_port through RX queue number @p q of this
 * worker (an index < rt_flow_conf::n_queues).
 *
 * @return the packets left at the front of @p pkts, ready to transmit, each
 *   with its output port in @p out_port, in arrival order (grouping changes
 *   what is looked up, never the order).
 */
static inline uint16_t
rt_flow_route_chunk(struct rt_flow *fl, struct rt_worker *w, uint16_t q, uint16_t in_port,
	struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	struct rte_mbuf *punts[RT_FLOW_CHUNK];
	struct rt_flow_tmpl tm[RT_FLOW_CHUNK];
	struct rt_flow_runs kr;
	uint32_t hs[RT_FLOW_CHUNK];
	/* in arrival order, the output can overwrite pkts[]: it never overtakes the input */
	struct rt_flow_out o = {.pkts = pkts, .port = out_port, .n = 0, .punts = punts, .np = 0};
	uint64_t now;
	uint32_t gen;
	unsigned int k, nb, r;

	k = rt_flow_input_checks(w, in_port, pkts, n, &kr, &o);
	if (k == 0)
		goto flush;
	/* generation before any lookup: a change after this makes what we install stale */
	gen = rt_flow_gen(fl);
	now = rte_rdtsc();
	nb = flowsort_burst_runs(fl->fs, fl->fq[q], NULL, kr.key, kr.start, kr.n);
	if (nb != 0) {
		const struct flowsort_run *runs = fl->fs->runs;
		const uint16_t *group_of = fl->fs->group_of;

		fl->stats.grouped_pkts += k;
		/* every group's key is known: overlap the table misses of all of them */
		for (r = 0; r < nb; r++) {
			hs[r] = rt_flow_hash_mix(fl, runs[r].hash, in_port);
			rt_flow_prefetch_way(fl, hs[r]);
		}
		for (r = 0; nb > 1 && r < nb; r++)
			rt_flow_prefetch_entry(fl, hs[r]);
		if (nb == kr.n) {
			/* every group one run (trains): as without grouping, one pass */
			for (r = 0; r < nb; r++)
				rt_flow_run(fl, w, &runs[r].key, hs[r], in_port, pkts, kr.start[r],
					runs[r].count, gen, now, &o);
		} else {
			uint16_t pgs[RT_FLOW_CHUNK];
			const uint16_t *pg = group_of;
			unsigned int i;

			/* per group: one lookup, one template */
			for (r = 0; r < nb; r++)
				rt_flow_tmpl_get(
					fl, w, &runs[r].key, hs[r], in_port, gen, now, &tm[r]);
			/* per packet, in arrival order: nothing is reordered, not even across flows */
			if (kr.n != k) {
				/* the group of each packet (with runs of one, group_of[] is that) */
				for (r = 0; r < kr.n; r++)
					for (i = kr.start[r]; i < kr.start[r + 1]; i++)
						pgs[i] = group_of[r];
				pg = pgs;
			}
			rt_flow_apply_groups(fl, w, tm, pg, in_port, pkts, k, &o);
			/* per group: one counter update */
			for (r = 0; r < nb; r++)
				rt_flow_tmpl_put(fl, &tm[r], runs[r].count, now);
		}
	} else {
		fl->stats.ungrouped_pkts += k;
		/*
		 * Runs of equal keys share one lookup (the previous-key hint); as
		 * with groups, all their lookups are prefetched before the first.
		 */
		for (r = 0; r < kr.n; r++) {
			hs[r] = rt_flow_hash(fl, &kr.key[r], in_port);
			rt_flow_prefetch_way(fl, hs[r]);
		}
		for (r = 0; kr.n > 1 && r < kr.n; r++)
			rt_flow_prefetch_entry(fl, hs[r]);
		for (r = 0; r < kr.n; r++)
			rt_flow_run(fl, w, &kr.key[r], hs[r], in_port, pkts, kr.start[r],
				kr.start[r + 1] - kr.start[r], gen, now, &o);
	}
	/* auto mode's measure: grouping and per-flow work, one burst in several */
	if (unlikely(flowsort_queue_timed(fl->fq[q])))
		flowsort_queue_cost(fl->fq[q], rte_rdtsc() - now, (uint16_t)k);
flush:
	rt_flow_punt_flush(w, punts, o.np);
	w->stats.fwd += o.n;
	return o.n;
}

/**
 * rt_flow_route_chunk() on a burst of any length.
 *
 * @return the number of packets left in @p pkts, with their output ports.
 */
static inline uint16_t
rt_flow_route_burst(struct rt_flow *fl, struct rt_worker *w, uint16_t q, uint16_t in_port,
	struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	uint16_t done = 0, kept = 0;

	if (likely(n <= RT_FLOW_CHUNK))
		return rt_flow_route_chunk(fl, w, q, in_port, pkts, n, out_port);
	while (done < n) {
		uint16_t c = RTE_MIN(n - done, RT_FLOW_CHUNK);
		uint16_t left =
			rt_flow_route_chunk(fl, w, q, in_port, pkts + done, c, out_port + kept);

		memmove(pkts + kept, pkts + done, left * sizeof(pkts[0]));
		kept += left;
		done += c;
	}
	return kept;
}

#endif /* RT_FLOW_H */
