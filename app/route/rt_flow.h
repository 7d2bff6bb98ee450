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
 * then flowsort groups the survivors; per group one table lookup, one
 * counter update and one rewrite template (MAC word, source MAC, MTU); per
 * packet the TTL, MTU, checksum and MAC copy. A burst flowsort does not
 * group (flowsort = off, or auto mode measuring short groups) takes the
 * same steps per packet, with a previous-key hint.
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
 * without locks: a figure may be one burst old, and an entry being replaced
 * may show a mix of old and new; nothing else is affected.
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
	uint32_t mask;             /**< buckets - 1 */
	uint32_t size;             /**< entries */
	uint64_t timeout;          /**< idle TSC cycles before an entry is aged */
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

/** The table's hash of a key and input port. */
static inline uint32_t
rt_flow_hash(const struct rt_flow *fl, const struct flowsort_key *k, uint16_t in_port)
{
	if (unlikely(fl->hash_fn != NULL))
		return fl->hash_fn(k, fl->hash_arg);
	return rte_hash_crc_4byte(in_port, flowsort_hash_sw(k));
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

/** Where rt_flow_apply() puts what it does not forward. */
struct rt_flow_out {
	struct rte_mbuf **pkts; /**< forwarded, in order */
	uint16_t *port;         /**< their output ports */
	uint16_t n;
	struct rte_mbuf **punts; /**< for the slow path */
	uint16_t np;
	uint16_t *pidx; /**< index in the burst of each punt, to hand them over in order */
};

/**
 * Per packet: apply the decision @p e to @p m, whose input checks passed.
 * @p mtu and @p smac are the group's template (output port's MTU and MAC).
 */
static __rte_always_inline void
rt_flow_apply(struct rt_worker *w, const struct rt_flow_entry *e, uint64_t l2, uint16_t mtu,
	const struct rte_ether_addr *smac, uint16_t in_port, struct rte_mbuf *m, uint16_t pos,
	struct rt_flow_out *o)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);

	if (likely(e->action == RT_FLOW_FWD)) {
		if (unlikely(ip->time_to_live <= 1)) {
			o->pidx[o->np] = pos;
			rt_punt(o->punts, &o->np, m, in_port, RT_EXC_TTL, rt_flow_nh_of(w, ip));
			return;
		}
		if (unlikely(__builtin_bswap16(ip->total_length) > mtu)) {
			o->pidx[o->np] = pos;
			rt_punt(o->punts, &o->np, m, in_port, RT_EXC_MTU, rt_flow_nh_of(w, ip));
			return;
		}
		rt_ipv4_ttl_dec(ip);
		/* 8 bytes of MAC word, then the source MAC over its last two */
		memcpy(eth, &l2, sizeof(l2));
		rte_ether_addr_copy(smac, &eth->src_addr);
		o->port[o->n] = e->out_port;
		o->pkts[o->n++] = m;
		return;
	}
	if (e->action == RT_FLOW_PUNT) {
		uint32_t tag = (uint32_t)l2;

		/* an unresolved next hop: TTL first, as rt_route_burst() does */
		if (tag >> 24 == RT_EXC_UNRESOLVED && ip->time_to_live <= 1)
			tag = RT_PUNT_TAG(RT_EXC_TTL, tag);
		m->port = in_port;
		m->hash.usr = tag;
		o->pidx[o->np] = pos;
		o->punts[o->np++] = m;
		return;
	}
	rte_pktmbuf_free(m);
	w->drops[l2]++;
}

/**
 * Per group (or run of equal keys) with hash @p h: the lookup, the counters, the template,
 * then rt_flow_apply() on each of the @p cnt packets pkts[idx[0..cnt)] (idx
 * NULL: pkts[0..cnt)).
 */
static __rte_always_inline void
rt_flow_group(struct rt_flow *fl, struct rt_worker *w, const struct flowsort_key *k, uint32_t h,
	uint16_t in_port, struct rte_mbuf *const *pkts, const uint16_t *idx, uint16_t cnt,
	uint32_t gen, uint64_t now, struct rt_flow_out *o)
{
	struct rt_flow_entry tmp, *e;
	const struct rte_ether_addr *smac;
	uint64_t bytes = 0, l2;
	uint16_t j, mtu;

	if (unlikely(k->type != FLOWSORT_KEY_L4 && k->type != FLOWSORT_KEY_L3)) {
		/*
		 * Fragments (a key per datagram would only churn the table) and
		 * datagrams too short for their ports: decided one by one on
		 * addresses and protocol, ports 0.
		 */
		for (j = 0; j < cnt; j++) {
			struct rte_mbuf *m = pkts[idx != NULL ? idx[j] : j];
			const struct rte_ipv4_hdr *ip =
				rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, RT_L2_LEN);
			struct flowsort_key pk;

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
			rt_flow_apply(w, &tmp, tmp.l2, w->ports[tmp.out_port].mtu,
				&w->ports[tmp.out_port].mac, in_port, m, idx != NULL ? idx[j] : j,
				o);
		}
		return;
	}
	e = rt_flow_lookup(fl, w, k, in_port, h, gen, now);
	l2 = e->l2;
	mtu = __atomic_load_n(&w->ports[e->out_port].mtu, __ATOMIC_RELAXED);
	smac = &w->ports[e->out_port].mac;
	for (j = 0; j < cnt; j++) {
		struct rte_mbuf *m = pkts[idx != NULL ? idx[j] : j];

		bytes += rte_pktmbuf_pkt_len(m);
		rt_flow_apply(w, e, l2, mtu, smac, in_port, m, idx != NULL ? idx[j] : j, o);
	}
	e->pkts += cnt;
	e->bytes += bytes;
	e->last = now;
	if (e->rule != RT_ACL_NO_RULE)
		rt_flow_rule_count(fl, e->rule, cnt);
}

/**
 * Pass 1: the input checks of rt_route_burst_chunk() (L2, RFC 1812 5.2.2,
 * group-addressed frames), in the same order with the same counters.
 * Survivors (unicast IPv4 for the LPM) are compacted at the front of @p pkts.
 *
 * @return how many survived.
 */
static __rte_always_inline uint16_t
rt_flow_input_checks(struct rt_worker *w, uint16_t in_port, struct rte_mbuf **pkts, uint16_t n,
	struct rt_flow_out *o)
{
	const uint64_t mac_w = w->ports[in_port].mac_w;
	const uint32_t defv = __atomic_load_n(w->default_nh, __ATOMIC_ACQUIRE);
	uint64_t *drops = w->drops;
	uint16_t i, k = 0;

	for (i = 0; i < RTE_MIN(n, 4); i++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[i], void *));
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		const uint8_t *f = rte_pktmbuf_mtod(m, const uint8_t *);
		const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(f + RT_L2_LEN);
		unsigned int v;

		if (i + 4 < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + 4], void *));
		if (unlikely(!rt_common_frame(m, f, mac_w)))
			goto slow;
		v = rt_ipv4_check_body(m, ip, 5);
		if (unlikely(v != RT_CHECK_OK)) {
			rte_pktmbuf_free(m);
			drops[v - 1]++;
			continue;
		}
	keep:
		pkts[k++] = m;
		continue;
	slow:
		if (rt_classify_slow(w, in_port, m, o->punts, &o->np, defv))
			goto keep;
	}
	return k;
}

/** Stable insertion sort of the @p n punts by their index in the burst (few, rare). */
static __rte_noinline void
rt_flow_punt_sort(struct rte_mbuf **punts, uint16_t *pidx, uint16_t n)
{
	uint16_t i, j;

	for (i = 1; i < n; i++) {
		struct rte_mbuf *m = punts[i];
		uint16_t x = pidx[i];

		for (j = i; j > 0 && pidx[j - 1] > x; j--) {
			punts[j] = punts[j - 1];
			pidx[j] = pidx[j - 1];
		}
		punts[j] = m;
		pidx[j] = x;
	}
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
 *   with its output port in @p out_port. Packets of one flow keep their
 *   order; packets of different flows may come out grouped by flow.
 */
static inline uint16_t
rt_flow_route_chunk(struct rt_flow *fl, struct rt_worker *w, uint16_t q, uint16_t in_port,
	struct rte_mbuf **pkts, uint16_t n, uint16_t *out_port)
{
	struct rte_mbuf *punts[RT_FLOW_CHUNK], *fwd[RT_FLOW_CHUNK];
	uint16_t pidx[RT_FLOW_CHUNK];
	uint32_t hs[RT_FLOW_CHUNK];
	struct rt_flow_out o = {
		.pkts = fwd, .port = out_port, .n = 0, .punts = punts, .np = 0, .pidx = pidx};
	uint64_t now;
	uint32_t gen;
	uint16_t k, nb, r, i, np0;

	k = rt_flow_input_checks(w, in_port, pkts, n, &o);
	np0 = o.np;
	if (k != 0) {
		/* generation before any lookup: a change after this makes what we install stale */
		gen = rt_flow_gen(fl);
		now = rte_rdtsc();
		nb = flowsort_burst(fl->fs, fl->fq[q], pkts, k);
		if (nb != 0) {
			const struct flowsort_run *runs = fl->fs->runs;

			fl->stats.grouped_pkts += k;
			/* every group's key is known: overlap the table misses of all of them */
			for (r = 0; r < nb; r++) {
				hs[r] = rt_flow_hash(fl, &runs[r].key, in_port);
				rt_flow_prefetch_way(fl, hs[r]);
			}
			for (r = 0; nb > 1 && r < nb; r++)
				rt_flow_prefetch_entry(fl, hs[r]);
			for (r = 0; r < nb; r++)
				rt_flow_group(fl, w, &runs[r].key, hs[r], in_port, pkts,
					&fl->fs->order[runs[r].first], runs[r].count, gen, now, &o);
			/* the slow path gets its frames in arrival order, as without groups */
			if (unlikely(o.np - np0 > 1 && nb > 1))
				rt_flow_punt_sort(punts + np0, pidx + np0, o.np - np0);
		} else {
			struct flowsort_key keys[RT_FLOW_CHUNK], next;
			uint16_t start[RT_FLOW_CHUNK + 1], nr = 0;

			fl->stats.ungrouped_pkts += k;
			/*
			 * Runs of equal keys share one lookup (the previous-key hint); as
			 * with groups, all their lookups are prefetched before the first.
			 */
			for (i = 0; i < k; i++) {
				flowsort_key_extract(pkts[i], &next);
				if (nr == 0 || !flowsort_key_eq(&next, &keys[nr - 1])) {
					keys[nr].w[0] = next.w[0];
					keys[nr].w[1] = next.w[1];
					hs[nr] = rt_flow_hash(fl, &next, in_port);
					rt_flow_prefetch_way(fl, hs[nr]);
					start[nr++] = i;
				}
			}
			start[nr] = k;
			for (r = 0; nr > 1 && r < nr; r++)
				rt_flow_prefetch_entry(fl, hs[r]);
			for (r = 0; r < nr; r++)
				rt_flow_group(fl, w, &keys[r], hs[r], in_port, pkts + start[r],
					NULL, start[r + 1] - start[r], gen, now, &o);
		}
	}
	rt_flow_punt_flush(w, punts, o.np);
	memcpy(pkts, fwd, o.n * sizeof(pkts[0]));
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
