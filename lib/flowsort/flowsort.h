/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FLOWSORT_H
#define FLOWSORT_H

/**
 * @file
 * Group one RX burst by flow, so that a per-flow stage (flow table, ACL,
 * per-flow counters) runs once per group instead of once per packet.
 *
 * A call returns runs { first, count, key, hash } over an index array
 * (flowsort_ctx::order): packet pkts[order[first + j]] for j < count all have
 * the same key. Groups come out in order of first appearance and packets keep
 * their relative order inside a group, so forwarding group by group never
 * reorders a flow. The mbuf pointers themselves are not moved. A consumer
 * that wants no reordering at all applies each group's decision in arrival
 * order through flowsort_ctx::group_of (FLOWSORT_F_NO_ORDER skips the sort).
 *
 * Runs of equal keys in a row are found first (a train costs one key compare
 * per packet); up to FLOWSORT_SMALL_GROUPS groups are told apart by comparing
 * keys, more go through a small hash table. Callers that parse the packets
 * anyway give their keys (flowsort_burst_keys()) or their runs of equal keys
 * (flowsort_burst_runs()) instead of the mbufs, or group the burst key by key
 * while they parse it (flowsort_stream_begin(), flowsort_stream_key(),
 * flowsort_stream_end()): one compare per packet when flows take turns
 * (A B C D A B C D) as when they come in trains.
 *
 * Keys (struct flowsort_key) are exact: a hash only picks the bucket, key
 * equality is always confirmed, so a collision never merges two flows.
 *
 * Grouping costs a few cycles per packet and wins only when groups are longer
 * than about one packet; a per-queue running mean of group length turns it off
 * by itself (the call then returns 0 and the caller takes its per-packet path)
 * and periodic probe bursts turn it back on. Long groups do not always win
 * either (flows in random order cost a scan per run to tell apart): a
 * consumer that sets flowsort_queue_conf::by_cost times the bursts
 * flowsort_queue_timed() asks for and reports them (flowsort_queue_cost()),
 * and auto mode then runs whichever of grouped and ungrouped measured
 * cheaper, trying the other one now and then. See docs/flowsort.md.
 *
 * Threading: a flowsort_ctx belongs to one lcore; a flowsort_queue belongs to
 * the lcore that polls that RX queue. Nothing here is thread safe or needs to be.
 */

#include <stdint.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Largest burst one call groups. A longer burst is not grouped (the call
 * returns 0 and counts it as bypassed): split it into chunks of at most this.
 */
#define FLOWSORT_BURST_MAX (FLOWSORT_TABLE_SIZE / 2)

/** How many packets ahead flowsort_group() prefetches an mbuf header. */
#define FLOWSORT_PREFETCH_MBUF 8
/** How many packets ahead flowsort_group() prefetches packet data. */
#define FLOWSORT_PREFETCH_DATA 4

/**
 * Groups matched by comparing keys one by one, before the hash table: a burst
 * with at most this many groups never hashes a packet (one hash per group,
 * for flowsort_run::hash). The first packet of a group beyond this switches
 * the rest of the burst to the table.
 */
#define FLOWSORT_SMALL_GROUPS 8

/** log2 of the slots of the per-lcore table; half of them at most are used. */
#define FLOWSORT_TABLE_BITS 9

/** Slots of the per-lcore open-addressing table (load factor <= 0.5). */
#define FLOWSORT_TABLE_SIZE (1 << FLOWSORT_TABLE_BITS)

/** What a key describes; only FLOWSORT_KEY_L4 and FLOWSORT_KEY_L3 are flows. */
enum flowsort_key_type {
	/** unfragmented IPv4 TCP, UDP or SCTP: the 5-tuple */
	FLOWSORT_KEY_L4 = 1,
	/** unfragmented IPv4, any other protocol: the 3-tuple (ports are 0) */
	FLOWSORT_KEY_L3,
	/**
	 * IPv4 fragment (MF set or offset != 0): src, dst, protocol and the IP id in
	 * src_port, i.e. one group per datagram, never merged with the unfragmented
	 * packets of the same 5-tuple.
	 */
	FLOWSORT_KEY_FRAG,
	/**
	 * not IPv4 (IPv6, ARP, two or more VLAN tags, ...): a class, not a flow.
	 * The EtherType (network order) is in src_port, addresses and ports are 0.
	 */
	FLOWSORT_KEY_NONIP,
	/**
	 * malformed or truncated: headers that would need bytes past the first
	 * segment's data_len, bad IPv4 version or header length. A class, not a flow.
	 */
	FLOWSORT_KEY_BAD,
};

/** Bit set in flowsort_key::vlan when the frame carried a VLAN tag (in data or stripped). */
#define FLOWSORT_VLAN_TAGGED 0x1000
/** Mask of the VLAN id in flowsort_key::vlan. */
#define FLOWSORT_VLAN_VID_MASK 0x0fff

/**
 * The grouping key: 16 bytes, compared as two 64-bit words. Unused fields are
 * zero so that equal flows give equal bytes. Addresses and ports are in network
 * byte order, as in the packet.
 */
struct flowsort_key {
	union {
		struct {
			rte_be32_t src_addr; /**< IPv4 source address */
			rte_be32_t dst_addr; /**< IPv4 destination address */
			rte_be16_t src_port; /**< L4 src port; IP id (FRAG); EtherType (NONIP) */
			rte_be16_t dst_port; /**< L4 destination port */
			uint8_t proto;       /**< IPv4 protocol */
			uint8_t type;        /**< enum flowsort_key_type */
			uint16_t vlan;       /**< FLOWSORT_VLAN_TAGGED | VID, or 0 if untagged */
		};
		uint64_t w[2]; /**< the same 16 bytes, for comparison and hashing */
	};
};

/** One group of packets with the same key, in order of first appearance. */
struct flowsort_run {
	uint16_t first;          /**< index of its first entry in flowsort_ctx::order */
	uint16_t count;          /**< number of packets in the group (>= 1) */
	uint32_t hash;           /**< bucket hash: NIC RSS hash, software or injected hash */
	struct flowsort_key key; /**< the key every packet of the group has */
};

/**
 * Hash function for keys (tests inject one to force collisions). It must
 * give equal hashes for equal keys; anything else is allowed.
 *
 * @param key
 *   The key to hash.
 * @param arg
 *   flowsort_ctx_conf::hash_arg.
 * @return
 *   A 32-bit hash.
 */
typedef uint32_t (*flowsort_hash_t)(const struct flowsort_key *key, void *arg);

/** Do not use the NIC RSS hash even when the mbuf carries one. */
#define FLOWSORT_F_NO_RSS 0x1
/**
 * Do not build flowsort_ctx::order nor flowsort_run::first: for a consumer
 * that handles the packets in arrival order, one template per group, through
 * flowsort_ctx::group_of (the group of each run of equal keys). Saves the
 * sort when flows are interleaved, and never reorders anything.
 */
#define FLOWSORT_F_NO_ORDER 0x2

/** Per-lcore configuration. Zero-filled gives the defaults. */
struct flowsort_ctx_conf {
	/** hash for all keys (the RSS hash is then ignored); NULL: RSS or CRC32-C */
	flowsort_hash_t hash_fn;
	void *hash_arg; /**< passed to hash_fn */
	uint32_t flags; /**< FLOWSORT_F_* */
};

/** Per-lcore grouping state and the result of the last call. */
struct flowsort_ctx {
	/* Result of the last flowsort_burst() that returned > 0. */
	uint16_t nb_runs;   /**< runs in runs[] */
	uint16_t nb_pkts;   /**< packets in order[] */
	uint16_t gen;       /**< table generation; 0 is never current */
	uint8_t table_used; /**< the last grouping needed the table (> FLOWSORT_SMALL_GROUPS) */
	/** the last grouping found every group contiguous: order[i] == i (unless NO_ORDER) */
	uint8_t in_order;
	uint32_t flags;                     /**< FLOWSORT_F_* */
	flowsort_hash_t hash_fn;            /**< injected hash or NULL */
	void *hash_arg;                     /**< its argument */
	uint16_t order[FLOWSORT_BURST_MAX]; /**< packet indexes, run after run */
	/**
	 * group_of[r]: the group (index in runs[]) of run r of equal keys, in
	 * arrival order: the runs given to flowsort_group_runs(), or those that
	 * flowsort_group() and flowsort_group_keys() cut (start[], nb_in). After
	 * flowsort_stream_end(), the group of packet r (nb_in is the packets).
	 */
	uint16_t group_of[FLOWSORT_BURST_MAX];
	/**
	 * flowsort_stream_key()'s guess: next_of[g] is the group of the packet
	 * that last followed a packet of group g (g itself for a new group).
	 */
	uint16_t next_of[FLOWSORT_BURST_MAX];
	/** first packet of each run of equal keys flowsort_group() / _keys() cut, and the end */
	uint16_t start[FLOWSORT_BURST_MAX + 1];
	/** scratch: the key of each of those runs */
	struct flowsort_key keys[FLOWSORT_BURST_MAX];
	uint16_t nb_in; /**< number of runs of equal keys in the last grouped burst */
	struct flowsort_run runs[FLOWSORT_BURST_MAX]; /**< the groups */
	/** open addressing, linear probing; a slot is live only if its gen is current */
	struct {
		uint16_t gen;
		uint16_t group;
		uint32_t hash;
	} slot[FLOWSORT_TABLE_SIZE] __rte_cache_aligned;
};

/** What a queue does: the flowsort = on|off|auto setting. */
enum flowsort_mode {
	FLOWSORT_MODE_AUTO = 0, /**< group, and bypass by itself when groups are ~1 packet */
	FLOWSORT_MODE_ON,       /**< always group */
	FLOWSORT_MODE_OFF,      /**< never group: every call returns 0 */
};

/**
 * Per-queue configuration. Zero-filled gives the defaults, which suit a
 * per-flow stage costing tens of cycles or more per lookup.
 * Group lengths are fixed point with 8 fractional bits (256 = 1 packet/group).
 */
struct flowsort_queue_conf {
	enum flowsort_mode mode; /**< default FLOWSORT_MODE_AUTO */
	/** turn off when the mean group length falls below this; default 307 (1.2) */
	uint16_t off_below;
	/** turn back on when it rises to this or above; default 384 (1.5) */
	uint16_t on_at;
	/**
	 * while off, group one burst in this many to re-measure; default 16. The
	 * gap doubles after every probe that finds short groups, up to probe_max.
	 */
	uint16_t probe_every;
	/** longest gap between probes; default 16 x probe_every, at most 32768 */
	uint16_t probe_max;
	/** bursts shorter than this are never grouped nor measured; default 4 */
	uint16_t min_burst;
	/**
	 * Non-zero: the consumer reports the cost of the bursts
	 * flowsort_queue_timed() asks for (flowsort_queue_cost()), and auto mode
	 * groups only while grouped bursts measure cheaper than ungrouped ones.
	 * 0: the group length alone decides (as documented above).
	 */
	uint8_t by_cost;
	/**
	 * by_cost: one burst in this many is run the other way (grouped or not)
	 * to re-measure it; default 64. The way taken is timed one burst in 8.
	 */
	uint16_t cost_probe_every;
};

/** X(field, "name", "description") for every per-queue counter. */
#define FLOWSORT_STATS(X)                                                                \
	X(bursts_sorted, "bursts_sorted", "bursts grouped (probes included)")            \
	X(bursts_bypassed, "bursts_bypassed",                                            \
		"bursts returned ungrouped (off, by cost, short or too long)")           \
	X(probes, "probes", "bursts grouped while off, to re-measure group length")      \
	X(groups, "groups", "groups output by grouped bursts")                           \
	X(pkts_sorted, "pkts_sorted", "packets in grouped bursts")                       \
	X(pkts_bypassed, "pkts_bypassed", "packets in bypassed bursts")                  \
	X(turned_off, "turned_off", "times auto mode turned grouping off")               \
	X(turned_on, "turned_on", "times auto mode turned grouping back on")             \
	X(cost_probes, "cost_probes", "bursts run the other way to re-measure its cost") \
	X(cost_switches, "cost_switches", "times measured costs changed grouped vs ungrouped")

/** Per-queue counters; mean group length = pkts_sorted / groups. */
struct flowsort_stats {
#define FLOWSORT_STAT_FIELD(f, name, desc) uint64_t f;
	FLOWSORT_STATS(FLOWSORT_STAT_FIELD)
#undef FLOWSORT_STAT_FIELD
};

/** Number of counters in struct flowsort_stats. */
#define FLOWSORT_NB_STATS (sizeof(struct flowsort_stats) / sizeof(uint64_t))

/** Per-queue bypass state and counters. */
struct flowsort_queue {
	uint8_t mode;         /**< enum flowsort_mode */
	uint8_t off;          /**< auto mode currently bypassing */
	uint16_t off_below;   /**< see flowsort_queue_conf */
	uint16_t on_at;       /**< see flowsort_queue_conf */
	uint16_t probe_every; /**< see flowsort_queue_conf */
	uint16_t probe_max;   /**< see flowsort_queue_conf */
	uint16_t probe_gap;   /**< current gap between probes */
	uint16_t min_burst;   /**< see flowsort_queue_conf */
	uint16_t until_probe; /**< bypassed bursts left before the next probe */
	uint32_t mean_len;    /**< running mean group length, 8 fractional bits */
	uint8_t by_cost;      /**< see flowsort_queue_conf */
	/** by_cost: ungrouped measured cheaper, bursts are not grouped (a FLOWSORT_COST_* way) */
	uint8_t cost_way;
	/** the way of the burst to time (FLOWSORT_COST_* + 1), 0: none; see flowsort_queue_timed() */
	uint8_t timed;
	uint8_t tick;              /**< bursts since the way taken was last timed */
	uint8_t spike;             /**< bit per way: its last sample was an outlier */
	uint16_t cost_probe_every; /**< see flowsort_queue_conf */
	uint16_t until_cost_probe; /**< bursts left before the other way is tried */
	/** running mean cycles per packet (4 fractional bits) per FLOWSORT_COST_* way; 0: unknown */
	uint32_t cost[2];
	struct flowsort_stats stats; /**< counters */
};

/** flowsort_queue::cost index of grouped bursts. */
#define FLOWSORT_COST_GROUPED 0
/** flowsort_queue::cost index of ungrouped bursts (the caller's previous-key path). */
#define FLOWSORT_COST_UNGROUPED 1
/** With by_cost, the way taken is timed once in this many bursts (a power of 2). */
#define FLOWSORT_COST_TICK 8

/**
 * Create the per-lcore grouping state (about 16 KiB, from rte_malloc).
 *
 * @param conf
 *   Configuration, or NULL for the defaults.
 * @param socket_id
 *   NUMA socket to allocate on, or SOCKET_ID_ANY.
 * @return
 *   The state, or NULL with rte_errno set (EINVAL, ENOMEM).
 */
struct flowsort_ctx *flowsort_ctx_create(const struct flowsort_ctx_conf *conf, int socket_id);

/**
 * Free a state made by flowsort_ctx_create().
 *
 * @param ctx
 *   The state; NULL is a no-op.
 */
void flowsort_ctx_free(struct flowsort_ctx *ctx);

/**
 * Create the per-queue bypass state and counters.
 *
 * @param conf
 *   Configuration, or NULL for the defaults.
 * @param socket_id
 *   NUMA socket to allocate on, or SOCKET_ID_ANY.
 * @return
 *   The state, or NULL with rte_errno set (EINVAL if on_at < off_below, ENOMEM).
 */
struct flowsort_queue *flowsort_queue_create(const struct flowsort_queue_conf *conf, int socket_id);

/**
 * Free a state made by flowsort_queue_create().
 *
 * @param q
 *   The state; NULL is a no-op.
 */
void flowsort_queue_free(struct flowsort_queue *q);

/**
 * Change a queue's mode at run time (from the lcore that polls it). Switching
 * to auto starts with grouping on.
 *
 * @param q
 *   The queue state.
 * @param mode
 *   The new mode.
 * @return
 *   0, or -EINVAL for an unknown mode.
 */
int flowsort_queue_set_mode(struct flowsort_queue *q, enum flowsort_mode mode);

/**
 * Copy a queue's counters.
 *
 * @param q
 *   The queue state.
 * @param stats
 *   Filled with the counters.
 */
void flowsort_queue_stats_get(const struct flowsort_queue *q, struct flowsort_stats *stats);

/**
 * Zero a queue's counters (from the lcore that polls it).
 *
 * @param q
 *   The queue state.
 */
void flowsort_queue_stats_reset(struct flowsort_queue *q);

/**
 * Name of the i-th counter of struct flowsort_stats, in declaration order.
 *
 * @param i
 *   Counter index, < FLOWSORT_NB_STATS.
 * @return
 *   Its name, or NULL if i is out of range.
 */
const char *flowsort_stats_name(unsigned int i);

/**
 * Whether auto mode is currently bypassing because groups are short (for
 * stats and tests). With flowsort_queue_conf::by_cost, a queue that is not
 * off this way may still bypass because ungrouped bursts measured cheaper
 * (flowsort_queue::cost_way).
 *
 * @param q
 *   The queue state.
 * @return
 *   1 if the next non-probe burst will be returned ungrouped, else 0.
 */
static inline int
flowsort_queue_is_off(const struct flowsort_queue *q)
{
	return q->mode == FLOWSORT_MODE_OFF || (q->mode == FLOWSORT_MODE_AUTO && q->off);
}

/**
 * Whether the consumer should time the burst the last flowsort_burst*() call
 * was given (only with flowsort_queue_conf::by_cost, in auto mode): from just
 * before that call to the end of the per-flow work, whichever way it took,
 * then report it with flowsort_queue_cost(). Most bursts are not timed, so
 * the timer's own cost stays small.
 *
 * @param q
 *   The queue state.
 * @return
 *   Non-zero if the burst should be timed.
 */
static inline int
flowsort_queue_timed(const struct flowsort_queue *q)
{
	return q->timed != 0;
}

/**
 * Report the cost of a burst flowsort_queue_timed() asked for. Auto mode keeps
 * a running mean cost per packet of grouped and of ungrouped bursts and runs
 * the cheaper. It tries the other way once every cost_probe_every bursts and
 * switches on such a try only, when the other way is cheaper by more than
 * 1/32 (hysteresis), so a change of traffic changes the choice within a few
 * tries. A sample above twice its way's mean counts as twice the mean
 * (preemption, interrupts) unless the previous sample of that way was as high.
 * Does nothing when no burst is to be timed.
 *
 * @param q
 *   The queue state.
 * @param cycles
 *   What the burst cost (any unit, e.g. TSC cycles; the same for every report).
 * @param n
 *   Its packets (> 0; with 0 the report is dropped).
 */
void flowsort_queue_cost(struct flowsort_queue *q, uint64_t cycles, uint16_t n);

/**
 * The default software hash: CRC32-C of the 16 key bytes.
 *
 * @param key
 *   The key.
 * @return
 *   Its hash.
 */
static inline uint32_t
flowsort_hash_sw(const struct flowsort_key *key)
{
	return rte_hash_crc_8byte(key->w[1], rte_hash_crc_8byte(key->w[0], 0x9e3779b9));
}

/**
 * Whether two keys are equal.
 *
 * @param a
 *   A key.
 * @param b
 *   Another key.
 * @return
 *   Non-zero if they are equal.
 */
static inline int
flowsort_key_eq(const struct flowsort_key *a, const struct flowsort_key *b)
{
	return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1])) == 0;
}

/**
 * @internal Second word of a key: ports (raw bytes as in the packet, src first),
 * protocol, type and vlan, laid out as struct flowsort_key.
 */
static inline uint64_t
__flowsort_key_w1(uint32_t ports_raw, uint8_t proto, uint8_t type, uint16_t vlan)
{
#if RTE_BYTE_ORDER == RTE_LITTLE_ENDIAN
	return (uint64_t)ports_raw | (uint64_t)proto << 32 | (uint64_t)type << 40 |
	       (uint64_t)vlan << 48;
#else
	return (uint64_t)ports_raw << 32 | (uint64_t)proto << 24 | (uint64_t)type << 16 | vlan;
#endif
}

/**
 * The key's VLAN field for a tag the NIC stripped (RTE_MBUF_F_RX_VLAN_STRIPPED):
 * FLOWSORT_VLAN_TAGGED | VID, or 0 when the NIC stripped none.
 *
 * @param m
 *   The packet.
 * @return
 *   The value for flowsort_key::vlan (or for flowsort_key_ipv4()'s @p vlan).
 */
static inline uint16_t
flowsort_key_vlan_stripped(const struct rte_mbuf *m)
{
	if (likely(!(m->ol_flags & RTE_MBUF_F_RX_VLAN_STRIPPED)))
		return 0;
	return FLOWSORT_VLAN_TAGGED | (m->vlan_tci & FLOWSORT_VLAN_VID_MASK);
}

/**
 * The key of an IPv4 packet whose header the caller has already checked, the
 * same bytes flowsort_key_extract() gives: for a stage that parses the header
 * anyway (a router's input checks) and must not parse it twice.
 *
 * @param m
 *   The packet. Preconditions: an IPv4 header starts at offset @p l3 of the
 *   first segment, its version is 4, its header length is @p hlen (>= 20)
 *   and all of it is within data_len.
 * @param l3
 *   Offset of the IPv4 header (14 untagged, 18 with one VLAN tag in the data).
 * @param hlen
 *   IPv4 header length in bytes (IHL * 4).
 * @param vlan
 *   The key's VLAN field: 0 untagged, else FLOWSORT_VLAN_TAGGED | VID (see
 *   flowsort_key_vlan_stripped()).
 * @param key
 *   Filled with the key (every byte written).
 */
static __rte_always_inline void
flowsort_key_ipv4(const struct rte_mbuf *m, uint32_t l3, uint32_t hlen, uint16_t vlan,
	struct flowsort_key *key)
{
	const struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod_offset(m, const struct rte_ipv4_hdr *, l3);
	const uint8_t proto = ip->next_proto_id;
	uint32_t l4 = 0;
	uint64_t addrs;
	uint8_t type;

	/* src and dst are adjacent: one load is both */
	memcpy(&addrs, &ip->src_addr, sizeof(addrs));
	if (unlikely(ip->fragment_offset &
		     RTE_BE16(RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))) {
		l4 = ip->packet_id;
		type = FLOWSORT_KEY_FRAG;
	} else if (likely(proto == IPPROTO_UDP || proto == IPPROTO_TCP || proto == IPPROTO_SCTP)) {
		if (unlikely(rte_pktmbuf_data_len(m) < l3 + hlen + 4)) {
			key->w[0] = 0;
			key->w[1] = __flowsort_key_w1(0, 0, FLOWSORT_KEY_BAD, 0);
			return;
		}
		memcpy(&l4, (const uint8_t *)ip + hlen, sizeof(l4));
		type = FLOWSORT_KEY_L4;
	} else {
		type = FLOWSORT_KEY_L3;
	}
	/*
	 * Built in registers and stored as two words: field-by-field stores read
	 * back as words would stall on store forwarding in the compare that follows.
	 */
	key->w[0] = addrs;
	key->w[1] = __flowsort_key_w1(l4, proto, type, vlan);
}

/**
 * Extract the grouping key of a packet. Reads only the first segment and never
 * past its data_len; one VLAN tag (in the data, or stripped by the NIC) is
 * parsed and its id kept in the key. IPv4 options are skipped.
 *
 * @param m
 *   The packet, starting at its Ethernet header.
 * @param key
 *   Filled with the key (every byte written).
 */
static inline void
flowsort_key_extract(const struct rte_mbuf *m, struct flowsort_key *key)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip;
	uint32_t len = rte_pktmbuf_data_len(m);
	uint32_t l3 = sizeof(struct rte_ether_hdr);
	uint32_t ihl;
	uint16_t et, vlan;

	if (unlikely(len < l3))
		goto bad;
	et = ((const struct rte_ether_hdr *)p)->ether_type;
	vlan = flowsort_key_vlan_stripped(m);
	if (unlikely(et == RTE_BE16(RTE_ETHER_TYPE_VLAN) || et == RTE_BE16(RTE_ETHER_TYPE_QINQ))) {
		const struct rte_vlan_hdr *vh = (const struct rte_vlan_hdr *)(p + l3);

		if (len < l3 + sizeof(*vh))
			goto bad;
		/* a second tag (stripped + in data): stacked VLANs are a class of their own */
		if (vlan != 0)
			goto nonip;
		vlan = FLOWSORT_VLAN_TAGGED |
		       (rte_be_to_cpu_16(vh->vlan_tci) & FLOWSORT_VLAN_VID_MASK);
		et = vh->eth_proto;
		l3 += sizeof(*vh);
	}
	if (unlikely(et != RTE_BE16(RTE_ETHER_TYPE_IPV4)))
		goto nonip;
	if (unlikely(len < l3 + sizeof(*ip)))
		goto bad;
	ip = (const struct rte_ipv4_hdr *)(p + l3);
	ihl = (uint32_t)(ip->version_ihl & RTE_IPV4_HDR_IHL_MASK) * 4;
	if (unlikely((ip->version_ihl >> 4) != 4 || ihl < sizeof(*ip) || len < l3 + ihl))
		goto bad;
	flowsort_key_ipv4(m, l3, ihl, vlan, key);
	return;
nonip:
	key->w[0] = 0;
	key->w[1] = __flowsort_key_w1(et, 0, FLOWSORT_KEY_NONIP, vlan);
	return;
bad:
	key->w[0] = 0;
	key->w[1] = __flowsort_key_w1(0, 0, FLOWSORT_KEY_BAD, 0);
}

/** @internal Hash of a key; the RSS hash is trusted for unfragmented IPv4 only. */
static inline uint32_t
__flowsort_hash(
	const struct flowsort_ctx *ctx, const struct rte_mbuf *m, const struct flowsort_key *key)
{
	if (unlikely(ctx->hash_fn != NULL))
		return ctx->hash_fn(key, ctx->hash_arg);
	/*
	 * The NIC hashes a subset of our 5-tuple, so equal keys get equal RSS
	 * hashes. Not so for classes (IPv6 flows share one NONIP key) nor for
	 * fragments (some NICs hash the first fragment with its ports): those
	 * would split one key over two buckets and reorder it.
	 */
	if (m != NULL && (m->ol_flags & RTE_MBUF_F_RX_RSS_HASH) && key->type <= FLOWSORT_KEY_L3 &&
		!(ctx->flags & FLOWSORT_F_NO_RSS))
		return m->hash.rss;
	return flowsort_hash_sw(key);
}

/** @internal Table slot of a hash: Fibonacci hashing, because RSS low bits pick the queue. */
static inline uint32_t
__flowsort_slot(uint32_t hash)
{
	return (hash * 0x9e3779b1u) >> (32 - FLOWSORT_TABLE_BITS);
}

/** @internal Start a new table generation: wipes the table once every 65535 bursts. */
void __flowsort_ctx_wrap(struct flowsort_ctx *ctx);

/** @internal Start a table generation and enter the burst's first @p nb groups. */
static inline void
__flowsort_table_fill(struct flowsort_ctx *ctx, uint16_t nb)
{
	uint32_t gen, s;
	uint16_t g;

	gen = ++ctx->gen;
	if (unlikely(gen == UINT16_MAX)) {
		__flowsort_ctx_wrap(ctx);
		gen = ctx->gen;
	}
	ctx->table_used = 1;
	/* their keys are distinct: each takes the first free slot of its probe */
	for (g = 0; g < nb; g++) {
		const uint32_t h = ctx->runs[g].hash;

		for (s = __flowsort_slot(h); ctx->slot[s].gen == gen;
			s = (s + 1) & (FLOWSORT_TABLE_SIZE - 1))
			;
		ctx->slot[s].gen = (uint16_t)gen;
		ctx->slot[s].hash = h;
		ctx->slot[s].group = g;
	}
}

/**
 * Cut runs of equal keys while the keys go by, for flowsort_group_runs() and
 * flowsort_burst_runs(): packet @p i starts run *nr (key and first packet
 * stored in @p keys and @p start) unless its key equals @p prev, the previous
 * packet's, which it then becomes. Start with @p prev all zero (key type 0 is
 * no key's, so packet 0 always starts a run) and *nr = 0; end with
 * start[*nr] = the burst's length. Word compares and copies: a 16-byte struct
 * copy would stall on store forwarding.
 *
 * @param key
 *   Packet i's key.
 * @param i
 *   Its index in the burst.
 * @param prev
 *   The previous packet's key; updated.
 * @param keys
 *   Receives each run's key.
 * @param start
 *   Receives each run's first packet.
 * @param nr
 *   Runs so far; updated.
 */
static __rte_always_inline void
flowsort_run_cut(const struct flowsort_key *key, unsigned int i, struct flowsort_key *prev,
	struct flowsort_key *keys, uint16_t *start, unsigned int *nr)
{
	const uint64_t k0 = key->w[0], k1 = key->w[1];

	if (((k0 ^ prev->w[0]) | (k1 ^ prev->w[1])) == 0)
		return;
	prev->w[0] = k0;
	prev->w[1] = k1;
	keys[*nr].w[0] = k0;
	keys[*nr].w[1] = k1;
	start[(*nr)++] = (uint16_t)i;
}

/**
 * Group a burst given as runs of equal keys: the caller compared each
 * packet's key with the previous one's while parsing (the cheapest grouping
 * there is: trains cost nothing more here), and this sorts the runs into
 * groups, unconditionally (no bypass). A run's key is compared with each
 * group's while there are at most FLOWSORT_SMALL_GROUPS groups, and looked
 * up in the hash table beyond. The hash (flowsort_run::hash) is computed once
 * per group.
 *
 * @param ctx
 *   Per-lcore state.
 * @param pkts
 *   The burst, for the RSS hash only; NULL: the software (or injected) hash.
 * @param keys
 *   keys[r] is the key of every packet of run r; may be ctx->keys.
 * @param start
 *   nb_runs + 1 entries: run r is packets start[r] .. start[r + 1] - 1;
 *   start[0] == 0, increasing, start[nb_runs] == the burst's length (at most
 *   FLOWSORT_BURST_MAX). Adjacent runs should have different keys; equal
 *   ones are grouped right but cost a sort.
 * @param nb_runs
 *   Number of runs, >= 1.
 * @return
 *   Number of groups (ctx->nb_runs).
 */
static inline uint16_t
flowsort_group_runs(struct flowsort_ctx *ctx, struct rte_mbuf *const *pkts,
	const struct flowsort_key *keys, const uint16_t *start, uint16_t nb_runs)
{
	struct flowsort_run *runs = ctx->runs;
	uint16_t *group_of = ctx->group_of;
	uint16_t *order = ctx->order;
	const unsigned int n = start[nb_runs];
	unsigned int nb = 0, g, r, i, j;
	uint16_t gen = 0;
	int scattered = 0;

	ctx->table_used = 0;
	/* few groups: a compare per group beats hashing every run */
	for (r = 0, g = 0; r < nb_runs; r++) {
		const uint64_t k0 = keys[r].w[0], k1 = keys[r].w[1];
		const unsigned int len = start[r + 1] - start[r];

		/*
		 * First guess: the group after the previous run's (flows taking
		 * turns, A B C A B C, hit with one compare); else every group.
		 */
		j = g + 1 < nb ? g + 1 : 0;
		if (r == 0 || ((runs[j].key.w[0] ^ k0) | (runs[j].key.w[1] ^ k1)) != 0)
			for (j = 0; j < nb; j++)
				if (((runs[j].key.w[0] ^ k0) | (runs[j].key.w[1] ^ k1)) == 0)
					break;
		if (j < nb) {
			/* a flow seen before, after some other: order must be rebuilt */
			runs[j].count += len;
			group_of[r] = j;
			g = j;
			scattered = 1;
			continue;
		}
		if (unlikely(nb == FLOWSORT_SMALL_GROUPS))
			break;
		g = nb++;
		runs[g].count = len;
		runs[g].hash = __flowsort_hash(ctx, pkts != NULL ? pkts[start[r]] : NULL, &keys[r]);
		runs[g].key.w[0] = k0;
		runs[g].key.w[1] = k1;
		group_of[r] = g;
	}
	if (r < nb_runs) {
		/* one group too many: the rest of the burst uses the table */
		__flowsort_table_fill(ctx, nb);
		gen = ctx->gen;
	}
	for (; r < nb_runs; r++) {
		const uint64_t k0 = keys[r].w[0], k1 = keys[r].w[1];
		const uint32_t h =
			__flowsort_hash(ctx, pkts != NULL ? pkts[start[r]] : NULL, &keys[r]);
		uint32_t s;

		for (s = __flowsort_slot(h);; s = (s + 1) & (FLOWSORT_TABLE_SIZE - 1)) {
			if (ctx->slot[s].gen != gen) {
				ctx->slot[s].gen = gen;
				ctx->slot[s].hash = h;
				ctx->slot[s].group = nb;
				g = nb++;
				runs[g].count = 0;
				runs[g].hash = h;
				runs[g].key.w[0] = k0;
				runs[g].key.w[1] = k1;
				break;
			}
			g = ctx->slot[s].group;
			if (ctx->slot[s].hash == h && runs[g].key.w[0] == k0 &&
				runs[g].key.w[1] == k1) {
				scattered = 1;
				break;
			}
		}
		runs[g].count += start[r + 1] - start[r];
		group_of[r] = g;
	}
	ctx->nb_runs = nb;
	ctx->nb_pkts = n;
	ctx->nb_in = nb_runs;
	ctx->in_order = !scattered;
	if (ctx->flags & FLOWSORT_F_NO_ORDER)
		return nb;
	if (!scattered) {
		/* every group is already contiguous, in order */
		for (i = 0, g = 0; g < nb; g++) {
			runs[g].first = i;
			i += runs[g].count;
		}
		for (i = 0; i < n; i++)
			order[i] = i;
		return nb;
	}
	/* stable counting sort of the runs: prefix sums give each group's first slot */
	for (i = 0, g = 0; g < nb; g++) {
		runs[g].first = i;
		i += runs[g].count;
		runs[g].count = 0;
	}
	for (r = 0; r < nb_runs; r++) {
		struct flowsort_run *run = &runs[group_of[r]];

		for (i = start[r]; i < start[r + 1]; i++)
			order[run->first + run->count++] = i;
	}
	return nb;
}

/**
 * Group a burst by keys the caller has already extracted (flowsort_key_ipv4()
 * or flowsort_key_extract()), unconditionally (no bypass): packets whose key
 * equals the previous packet's form a run, then flowsort_group_runs().
 *
 * @param ctx
 *   Per-lcore state.
 * @param pkts
 *   The burst, for the RSS hash only; NULL: the software (or injected) hash.
 * @param keys
 *   keys[i] is the key of pkts[i]; not ctx->keys.
 * @param n
 *   The burst's length, 1 to FLOWSORT_BURST_MAX.
 * @return
 *   Number of groups (ctx->nb_runs).
 */
static inline uint16_t
flowsort_group_keys(struct flowsort_ctx *ctx, struct rte_mbuf *const *pkts,
	const struct flowsort_key *keys, uint16_t n)
{
	struct flowsort_key prev = {.w = {0, 0}};
	unsigned int i, nr = 0;

	for (i = 0; i < n; i++)
		flowsort_run_cut(&keys[i], i, &prev, ctx->keys, ctx->start, &nr);
	ctx->start[nr] = n;
	return flowsort_group_runs(ctx, pkts, ctx->keys, ctx->start, (uint16_t)nr);
}

/**
 * Group a burst into ctx->runs / ctx->order, unconditionally (no bypass):
 * extract every key, cut runs of equal keys on the way, then
 * flowsort_group_runs().
 *
 * @param ctx
 *   Per-lcore state.
 * @param pkts
 *   The burst.
 * @param n
 *   Its length, 1 to FLOWSORT_BURST_MAX.
 * @return
 *   Number of groups (ctx->nb_runs).
 */
static inline uint16_t
flowsort_group(struct flowsort_ctx *ctx, struct rte_mbuf *const *pkts, uint16_t n)
{
	struct flowsort_key prev = {.w = {0, 0}};
	unsigned int i, nr = 0;

	for (i = 0; i < n; i++) {
		struct flowsort_key k;

		/* mbuf first, then its data once the mbuf has arrived */
		if (likely(i + FLOWSORT_PREFETCH_MBUF < n))
			rte_prefetch0(pkts[i + FLOWSORT_PREFETCH_MBUF]);
		if (likely(i + FLOWSORT_PREFETCH_DATA < n))
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i + FLOWSORT_PREFETCH_DATA], void *));
		flowsort_key_extract(pkts[i], &k);
		flowsort_run_cut(&k, i, &prev, ctx->keys, ctx->start, &nr);
	}
	ctx->start[nr] = n;
	return flowsort_group_runs(ctx, pkts, ctx->keys, ctx->start, (uint16_t)nr);
}

/** @internal Fold one grouped burst into the running mean and switch state. */
void __flowsort_queue_update(struct flowsort_queue *q, uint16_t n, uint16_t nb_runs);

/** @internal by_cost, groups long enough: which way this burst goes, and whether it is timed. */
static __rte_always_inline int
__flowsort_cost_pick(struct flowsort_queue *q)
{
	unsigned int way = q->cost_way;

	if (unlikely(--q->until_cost_probe == 0)) {
		/* the other way, timed: its cost may have changed with the traffic */
		q->until_cost_probe = q->cost_probe_every;
		q->stats.cost_probes++;
		way ^= 1;
		q->timed = (uint8_t)(way + 1);
	} else if (unlikely((++q->tick & (FLOWSORT_COST_TICK - 1)) == 0)) {
		q->timed = (uint8_t)(way + 1);
	}
	return way == FLOWSORT_COST_GROUPED;
}

/** @internal Whether to group this burst (else it is counted as bypassed). */
static __rte_always_inline int
__flowsort_burst_begin(struct flowsort_queue *q, uint16_t n)
{
	q->timed = 0;
	if (unlikely(n < q->min_burst || n > FLOWSORT_BURST_MAX || q->mode == FLOWSORT_MODE_OFF))
		goto bypass;
	if (q->mode == FLOWSORT_MODE_AUTO) {
		if (q->off) {
			if (likely(--q->until_probe != 0))
				goto bypass;
			q->stats.probes++;
		} else if (q->by_cost && !__flowsort_cost_pick(q)) {
			goto bypass;
		}
	}
	return 1;
bypass:
	q->stats.bursts_bypassed++;
	q->stats.pkts_bypassed += n;
	return 0;
}

/** @internal Count a grouped burst and feed auto mode's measure. */
static __rte_always_inline void
__flowsort_burst_end(struct flowsort_queue *q, uint16_t n, uint16_t nb)
{
	q->stats.bursts_sorted++;
	q->stats.pkts_sorted += n;
	q->stats.groups += nb;
	if (q->mode == FLOWSORT_MODE_AUTO)
		__flowsort_queue_update(q, n, nb);
}

/**
 * Group one RX burst, unless this queue's state says grouping cannot win.
 *
 * On return > 0, ctx->runs[0 .. ret-1] are the groups and ctx->order the packet
 * indexes; they stay valid until the next call on this ctx. On return 0 the
 * burst was not grouped (mode off, auto mode bypassing, n < min_burst or
 * n > FLOWSORT_BURST_MAX): process pkts one by one, in order; use
 * flowsort_key_extract() if the key is needed.
 *
 * @param ctx
 *   Per-lcore state.
 * @param q
 *   State of the queue the burst came from.
 * @param pkts
 *   The burst (not modified).
 * @param n
 *   Its length.
 * @return
 *   Number of groups, or 0 if bypassed.
 */
static inline uint16_t
flowsort_burst(struct flowsort_ctx *ctx, struct flowsort_queue *q, struct rte_mbuf *const *pkts,
	uint16_t n)
{
	uint16_t nb;

	if (!__flowsort_burst_begin(q, n))
		return 0;
	nb = flowsort_group(ctx, pkts, n);
	__flowsort_burst_end(q, n, nb);
	return nb;
}

/**
 * flowsort_burst() on keys the caller has already extracted: for a stage
 * that parses every packet anyway (its own checks) and fills keys[] then,
 * so that a bypassed burst costs no parse and a grouped one no second parse.
 *
 * @param ctx
 *   Per-lcore state.
 * @param q
 *   State of the queue the burst came from.
 * @param pkts
 *   The burst, for the RSS hash only; NULL: the software (or injected) hash.
 * @param keys
 *   keys[i] is the key of packet i (flowsort_key_ipv4(), flowsort_key_extract()).
 * @param n
 *   The burst's length.
 * @return
 *   Number of groups, or 0 if bypassed.
 */
static inline uint16_t
flowsort_burst_keys(struct flowsort_ctx *ctx, struct flowsort_queue *q,
	struct rte_mbuf *const *pkts, const struct flowsort_key *keys, uint16_t n)
{
	uint16_t nb;

	if (!__flowsort_burst_begin(q, n))
		return 0;
	nb = flowsort_group_keys(ctx, pkts, keys, n);
	__flowsort_burst_end(q, n, nb);
	return nb;
}

/**
 * flowsort_burst() on runs of equal keys the caller has already cut (see
 * flowsort_group_runs()): for a stage that parses every packet anyway and
 * compares each key with the previous one's while it is in registers. A
 * bypassed burst's runs are what a previous-key hint needs.
 *
 * @param ctx
 *   Per-lcore state.
 * @param q
 *   State of the queue the burst came from.
 * @param pkts
 *   The burst, for the RSS hash only; NULL: the software (or injected) hash.
 * @param keys
 *   keys[r]: the key of run r.
 * @param start
 *   nb_runs + 1 entries: start[r] is run r's first packet, start[nb_runs]
 *   the burst's length (see flowsort_group_runs()).
 * @param nb_runs
 *   Number of runs, >= 1.
 * @return
 *   Number of groups, or 0 if bypassed.
 */
static inline uint16_t
flowsort_burst_runs(struct flowsort_ctx *ctx, struct flowsort_queue *q,
	struct rte_mbuf *const *pkts, const struct flowsort_key *keys, const uint16_t *start,
	uint16_t nb_runs)
{
	const uint16_t n = start[nb_runs];
	uint16_t nb;

	if (!__flowsort_burst_begin(q, n))
		return 0;
	nb = flowsort_group_runs(ctx, pkts, keys, start, nb_runs);
	__flowsort_burst_end(q, n, nb);
	return nb;
}

/**
 * A burst being grouped key by key: flowsort_stream_begin() sets it,
 * flowsort_stream_key() takes each packet's key, flowsort_stream_end() gives
 * the groups. The caller's, on its stack.
 */
struct flowsort_stream {
	uint32_t g;         /**< group of the previous packet */
	uint32_t nb;        /**< groups so far */
	uint32_t n;         /**< packets so far */
	uint32_t scattered; /**< a group came back after another one */
	uint16_t gen;       /**< the burst's table generation */
};

/**
 * Start grouping one burst key by key, unless this queue's state says
 * grouping cannot win (the same decision as flowsort_burst(): mode, auto
 * mode's measure, min_burst and FLOWSORT_BURST_MAX, taken on @p n, the
 * packets the caller received, before it parses them). For a stage that
 * parses every packet anyway: the key of each packet it keeps goes to
 * flowsort_stream_key() while it is in registers, with no run or key arrays
 * in between. When this returns 0 the burst is not grouped (counted as
 * bypassed): the caller takes its ungrouped path, and calls neither of the
 * other two.
 *
 * @param ctx
 *   Per-lcore state.
 * @param q
 *   State of the queue the burst came from.
 * @param n
 *   The burst's length.
 * @param st
 *   Set for flowsort_stream_key().
 * @return
 *   Non-zero to group the burst.
 */
static __rte_always_inline int
flowsort_stream_begin(
	struct flowsort_ctx *ctx, struct flowsort_queue *q, uint16_t n, struct flowsort_stream *st)
{
	if (!__flowsort_burst_begin(q, n))
		return 0;
	st->g = 0;
	st->nb = 0;
	st->n = 0;
	st->scattered = 0;
	/* a table generation of its own (table_used is then 1) */
	__flowsort_table_fill(ctx, 0);
	st->gen = ctx->gen;
	/* key type 0 is no key's: the first packet misses the guess and makes group 0 */
	ctx->runs[0].key.w[0] = 0;
	ctx->runs[0].key.w[1] = 0;
	ctx->next_of[0] = 0;
	return 1;
}

/**
 * @internal flowsort_stream_key() when the guess was wrong: the key's group
 * through the table (one hash), or a new group. No compare with every group
 * first: a wrong guess is most often a new flow (every packet new, the first
 * round of flows taking turns), whose hash the group needs anyway.
 */
static __rte_always_inline unsigned int
__flowsort_stream_find(struct flowsort_ctx *ctx, struct flowsort_stream *st,
	const struct rte_mbuf *m, const uint64_t k0, const uint64_t k1)
{
	struct flowsort_run *runs = ctx->runs;
	/* a copy for the hash: the caller's key can then stay in registers */
	const struct flowsort_key kc = {.w = {k0, k1}};
	const uint32_t h = __flowsort_hash(ctx, m, &kc);
	const unsigned int nb = st->nb;
	unsigned int j;
	uint32_t s;

	for (s = __flowsort_slot(h);; s = (s + 1) & (FLOWSORT_TABLE_SIZE - 1)) {
		if (ctx->slot[s].gen != st->gen)
			break;
		j = ctx->slot[s].group;
		if (ctx->slot[s].hash == h && runs[j].key.w[0] == k0 && runs[j].key.w[1] == k1) {
			/* back to an earlier group */
			st->scattered = 1;
			runs[j].count++;
			return j;
		}
	}
	ctx->slot[s].gen = st->gen;
	ctx->slot[s].hash = h;
	ctx->slot[s].group = (uint16_t)nb;
	runs[nb].count = 1;
	runs[nb].hash = h;
	runs[nb].key.w[0] = k0;
	runs[nb].key.w[1] = k1;
	ctx->next_of[nb] = (uint16_t)nb;
	st->nb = nb + 1;
	return nb;
}

/**
 * The next packet's key, in arrival order, of a burst flowsort_stream_begin()
 * said to group: first compared with one guess, the group of the packet
 * that followed the previous packet's group last time (a train's own group,
 * the next flow of flows taking turns), then, hashed, through the table
 * (a new group on a miss): one hash per group, and one per wrong guess of a
 * group seen before. Groups are numbered in order of first appearance;
 * ctx->group_of[i] gets packet i's.
 *
 * @param ctx
 *   Per-lcore state.
 * @param st
 *   The burst's state.
 * @param m
 *   The packet, for the RSS hash only; NULL: the software (or injected) hash.
 * @param key
 *   Its key (flowsort_key_ipv4(), flowsort_key_extract()).
 */
static __rte_always_inline void
flowsort_stream_key(struct flowsort_ctx *ctx, struct flowsort_stream *st, const struct rte_mbuf *m,
	const struct flowsort_key *key)
{
	struct flowsort_run *runs = ctx->runs;
	const uint64_t k0 = key->w[0], k1 = key->w[1];
	const unsigned int g = st->g;
	unsigned int j = ctx->next_of[g];

	/*
	 * A right guess j != g never tells a scattered burst first: the guess
	 * is a step g -> j taken before, so the first packet that came back to
	 * an earlier group took __flowsort_stream_find(), which set scattered.
	 */
	if (likely(((runs[j].key.w[0] ^ k0) | (runs[j].key.w[1] ^ k1)) == 0)) {
		runs[j].count++;
	} else {
		/* counts the packet in its group */
		j = __flowsort_stream_find(ctx, st, m, k0, k1);
		ctx->next_of[g] = (uint16_t)j;
	}
	ctx->group_of[st->n++] = (uint16_t)j;
	st->g = j;
}

/**
 * End a burst grouped by flowsort_stream_key(): the groups are
 * ctx->runs[0 .. ret-1] (key, hash, count), ctx->group_of[i] the group of
 * the i-th key given, ctx->in_order whether every group is contiguous (then
 * group g's packets are the count of it after those of groups 0 .. g-1), and,
 * unless FLOWSORT_F_NO_ORDER, ctx->order and flowsort_run::first as
 * flowsort_burst() gives them. Counts the burst and feeds auto mode's
 * measure. A burst whose every packet the caller dropped (no key given) is
 * counted neither grouped nor bypassed.
 *
 * @param ctx
 *   Per-lcore state.
 * @param q
 *   State of the queue the burst came from.
 * @param st
 *   The burst's state.
 * @return
 *   Number of groups; 0 if no key was given.
 */
static __rte_always_inline uint16_t
flowsort_stream_end(
	struct flowsort_ctx *ctx, struct flowsort_queue *q, const struct flowsort_stream *st)
{
	struct flowsort_run *runs = ctx->runs;
	const unsigned int n = st->n, nb = st->nb;
	unsigned int g, i;

	if (unlikely(n == 0))
		return 0;
	ctx->nb_runs = (uint16_t)nb;
	ctx->nb_pkts = (uint16_t)n;
	ctx->nb_in = (uint16_t)n;
	ctx->in_order = !st->scattered;
	if (!(ctx->flags & FLOWSORT_F_NO_ORDER)) {
		for (i = 0, g = 0; g < nb; g++) {
			runs[g].first = (uint16_t)i;
			i += runs[g].count;
		}
		if (!st->scattered) {
			for (i = 0; i < n; i++)
				ctx->order[i] = (uint16_t)i;
		} else {
			/* stable counting sort: count again from each group's first slot */
			for (g = 0; g < nb; g++)
				runs[g].count = 0;
			for (i = 0; i < n; i++) {
				struct flowsort_run *run = &runs[ctx->group_of[i]];

				ctx->order[run->first + run->count++] = (uint16_t)i;
			}
		}
	}
	__flowsort_burst_end(q, (uint16_t)n, (uint16_t)nb);
	return (uint16_t)nb;
}

#ifdef __cplusplus
}
#endif

#endif /* FLOWSORT_H */
