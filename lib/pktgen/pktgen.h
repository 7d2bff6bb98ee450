/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef PKTGEN_H
#define PKTGEN_H

/**
 * @file
 * Packet generator for `--fwd pktgen`: streams of Ethernet/IPv4 UDP, TCP or
 * ICMP packets, or a pcap replayed, sent by one or more TX lcores, and a
 * receive side that measures loss, reordering, duplicates and latency.
 *
 * Control path (pktgen.c, pktgen_cfg.c, pktgen_rx.c, pktgen_pcap.c): a
 * struct pktgen_stream_cfg filled by pktgen_stream_set() from a `[pktgen]`
 * config section or `pktgen set KEY VALUE`; pktgen_lcore_create() per TX lcore;
 * pktgen_rx_create() per receiving lcore.
 *
 * Fast path (inline here): pktgen_lcore_poll() builds, paces and sends one
 * burst; pktgen_rx_burst() accounts one received burst.
 *
 * Speed path. Every TX lcore has its own fragpool (lib/fragpool). At its
 * first poll the lcore itself (fragpool allocation is owner-only) carves
 * fragments from it and populates with them a mempool of template mbufs,
 * each filled with the payload pattern once: a port's free of a clone-1
 * packet then takes DPDK's non-atomic branch into the lcore's mempool cache,
 * and a template keeps its pattern and headers for the whole run. Headers
 * come from a per-flow image (64 bytes, checksums pre-summed). A packet costs
 * a 64-byte copy, a 12-byte signature and two checksum folds, never a full
 * checksum. With `clone k` the k - 1 extra references are added with one
 * plain store (fragpool_mbuf_share(): never one atomic per send). What the
 * port refuses stays queued for the next poll (so `count` is exact) and is
 * settled by pktgen_lcore_stop() (fragpool_mbuf_settle()); once every
 * template is back in the pool after a stop, the pool is freed and its
 * fragments go back to the fragpool.
 *
 * Signature: every packet whose L4 payload has room for it (12 bytes) starts
 * its payload with a struct pktgen_sig: flow, per-flow sequence number, low
 * 32 bits of the TSC when the burst was built, and the number of packets
 * that carry this sequence number (the clones of one mbuf share it).
 *
 * Threading: a struct pktgen_lcore and a struct pktgen_rx each belong to one
 * lcore. Their stats may be read by another lcore (plain 64-bit loads);
 * pktgen_rx_reset() only posts a request that the owner applies.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <limits.h>

#include <rte_branch_prediction.h>
#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>
#include <rte_mempool.h>

#include "fragpool.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest burst (packets per tx_burst call). */
#define PKTGEN_BURST_MAX 128
/** Largest clone factor (it is carried in one byte of the signature). */
#define PKTGEN_CLONE_MAX 255
/** Most flows of a stream (the flow index is 16 bits in the signature). */
#define PKTGEN_FLOWS_MAX 65536
/** Most (size, weight) entries of an IMIX. */
#define PKTGEN_IMIX_MAX 8
/** Longest payload pattern, in bytes. */
#define PKTGEN_PATTERN_MAX 64
/** Smallest and largest frame size, FCS included. */
#define PKTGEN_SIZE_MIN 64
#define PKTGEN_SIZE_MAX 9018
/** Bytes of the FCS: sizes count it, mbuf lengths do not. */
#define PKTGEN_FCS_LEN 4
/** Bytes on the wire per frame besides the frame: preamble, SFD, inter-frame gap. */
#define PKTGEN_L1_OVERHEAD 20
/** Bytes of header image per flow: Ethernet + VLAN + IPv4 + TCP (58) rounded up. */
#define PKTGEN_HDR_IMG 64
/** First byte of a signature. */
#define PKTGEN_SIG_MAGIC 0xa7
/** @internal Offset in pktgen_lcore::psum of the sums without a signature. */
#define PKTGEN_PSUM_NOSIG (PKTGEN_SIZE_MAX + 1)
/** Latency histogram buckets: 0 is 0 ns, i covers [2^(i-1), 2^i) ns, the last is open. */
#define PKTGEN_HIST_BUCKETS 33
/** Sequence numbers a receiver remembers per flow to tell late from duplicate. */
#define PKTGEN_RX_WINDOW 64

/** L4 protocol of a stream. */
enum pktgen_proto {
	PKTGEN_PROTO_UDP = 0,
	PKTGEN_PROTO_TCP,
	PKTGEN_PROTO_ICMP, /**< echo request; id and sequence from the src/dst port fields */
};

/** How frame sizes are chosen. */
enum pktgen_size_mode {
	PKTGEN_SIZE_FIXED = 0, /**< every frame size_min bytes */
	PKTGEN_SIZE_RANGE,     /**< uniform random in [size_min, size_max] per mbuf */
	PKTGEN_SIZE_IMIX,      /**< imix_size[] interleaved by imix_weight[] */
};

/** How a header field varies from one flow to the next. */
enum pktgen_vary {
	PKTGEN_VARY_INC = 0, /**< flow i takes min + i (mod the range width) */
	PKTGEN_VARY_RANDOM,  /**< flow i takes a random value of the range (from seed) */
};

/** A range of a header field (IPv4 address or port, host order). */
struct pktgen_range {
	uint32_t min;
	uint32_t max;
	enum pktgen_vary vary;
};

/** Order of flows on the wire. */
enum pktgen_arrival {
	PKTGEN_ARRIVAL_RR = 0, /**< one mbuf of each flow in turn */
	PKTGEN_ARRIVAL_TRAIN,  /**< train mbufs of one flow back to back, then the next flow */
};

/** Unit of pktgen_stream_cfg::rate. */
enum pktgen_rate_unit {
	PKTGEN_RATE_MAX = 0, /**< unpaced */
	PKTGEN_RATE_PPS,     /**< packets per second */
	PKTGEN_RATE_BPS,     /**< bits per second on the wire (frame + FCS + 20 bytes L1) */
	PKTGEN_RATE_PCT,     /**< percent of the link speed, on the wire like BPS */
};

/** Payload fill. */
enum pktgen_payload {
	PKTGEN_PAYLOAD_ZERO = 0, /**< zero bytes */
	PKTGEN_PAYLOAD_INC,      /**< 0, 1, 2, ... 255, 0, ... (payload offset mod 256) */
	PKTGEN_PAYLOAD_BYTES,    /**< pattern[] repeated */
};

/** References taken when an mbuf is sent several times (benchmark knob). */
enum pktgen_refcnt_mode {
	PKTGEN_REFCNT_BATCH = 0, /**< one plain store per mbuf per burst */
	PKTGEN_REFCNT_PER_PKT,   /**< one atomic increment per extra send (the old way) */
};

/** pcap replay timing. */
enum pktgen_replay_timing {
	PKTGEN_REPLAY_ORIGINAL = 0, /**< the capture's inter-packet gaps divided by speed */
	PKTGEN_REPLAY_FAST,         /**< back to back (rate still applies) */
};

/**
 * Everything a stream is. Initialise with pktgen_stream_init(), change with
 * pktgen_stream_set(), check with pktgen_stream_check(). Addresses and ports
 * are host order.
 */
struct pktgen_stream_cfg {
	enum pktgen_proto proto;
	struct rte_ether_addr src_mac;
	struct rte_ether_addr dst_mac;
	uint16_t vlan;     /**< VLAN id 1..4095, 0: untagged */
	uint8_t vlan_prio; /**< PCP 0..7 */
	uint8_t ttl;
	uint8_t tos;
	uint8_t tcp_flags; /**< RTE_TCP_*_FLAG bits */
	enum pktgen_size_mode size_mode;
	uint16_t size_min; /**< frame size with FCS (FIXED: the size) */
	uint16_t size_max;
	uint8_t imix_n;
	uint16_t imix_size[PKTGEN_IMIX_MAX];
	uint16_t imix_weight[PKTGEN_IMIX_MAX];
	enum pktgen_payload payload;
	uint8_t pattern_len;
	uint8_t pattern[PKTGEN_PATTERN_MAX];
	struct pktgen_range src_ip;
	struct pktgen_range dst_ip;
	struct pktgen_range src_port;
	struct pktgen_range dst_port;
	uint32_t flows; /**< distinct 5-tuples, 1..PKTGEN_FLOWS_MAX */
	enum pktgen_arrival arrival;
	uint32_t train;  /**< mbufs per train (ARRIVAL_TRAIN) */
	uint64_t count;  /**< packets to send in all, 0: no limit */
	double duration; /**< seconds, 0: no limit */
	double rate;     /**< in rate_unit; ignored for RATE_MAX */
	enum pktgen_rate_unit rate_unit;
	uint16_t clone;      /**< sends per mbuf, 1..PKTGEN_CLONE_MAX */
	uint16_t burst;      /**< packets per tx_burst, 1..PKTGEN_BURST_MAX */
	uint16_t pace_slack; /**< most packets sent above the rate after a stall */
	enum pktgen_refcnt_mode refcnt;
	uint32_t seed;
	uint32_t mbufs;      /**< templates per TX lcore */
	char pcap[PATH_MAX]; /**< replay this file instead of building packets ("" = none) */
	enum pktgen_replay_timing replay_timing;
	uint32_t loops; /**< pcap passes, 0: until count/duration/stop */
	double speed;   /**< pcap timing multiplier (2 = twice as fast) */
};

/** Signature at the start of the L4 payload (host byte order: same machine). */
struct pktgen_sig {
	uint8_t magic;  /**< PKTGEN_SIG_MAGIC */
	uint8_t copies; /**< packets carrying this (flow, seq): the clone factor of this send */
	uint16_t flow;  /**< flow index in the stream */
	uint32_t seq;   /**< per-flow sequence number, +1 per mbuf */
	uint32_t tsc;   /**< low 32 bits of the sender's TSC */
} __rte_packed;

/* X(field, "description"): every TX counter. */
#define PKTGEN_TX_STATS(X)                                                                      \
	X(tx_pkts, "packets the port accepted")                                                 \
	X(tx_bytes, "bytes the port accepted (frames without FCS)")                             \
	X(tx_bursts, "tx_burst calls that sent at least one packet")                            \
	X(tx_retry, "packets the port refused at first and that were offered again")            \
	X(tx_unsent, "packets built but never accepted, settled at stop")                       \
	X(mbufs, "distinct mbufs built (packets / clone)")                                      \
	X(alloc_fail, "polls that found no free template (all held by the port)")               \
	X(pace_forgiven, "packets of pacing credit dropped after a stall (the catch-up bound)") \
	X(pace_short,                                                                           \
		"seconds in which over 1 % of the rate was forgiven: a rate it cannot reach")   \
	X(replay_loops, "pcap replay: passes over the file completed")

/* X(field, "description"): every RX counter (pktgen_rx_stats() fills them). */
#define PKTGEN_RX_STATS(X)                                                                   \
	X(rx_pkts, "packets seen")                                                           \
	X(rx_bytes, "bytes seen (frames without FCS)")                                       \
	X(foreign, "packets without a pktgen signature (or a flow beyond the receiver's)")   \
	X(signed_pkts, "packets with a signature")                                           \
	X(lost, "packets missing from the sequence (final once traffic stopped)")            \
	X(reorder, "packets that came after a higher sequence number of their flow")         \
	X(dup, "copies of a sequence number beyond the copies it was sent with")             \
	X(late, "packets too old for the window (counted in reorder, taken back from lost)") \
	X(lat_min_ns, "lowest latency")                                                      \
	X(lat_avg_ns, "mean latency")                                                        \
	X(lat_max_ns, "highest latency")

/** TX counters of one lcore. */
struct pktgen_tx_stats {
#define PKTGEN_STAT_FIELD(f, d) uint64_t f;
	PKTGEN_TX_STATS(PKTGEN_STAT_FIELD)
};

/** RX counters (totals over the flows). */
struct pktgen_rx_stats {
	PKTGEN_RX_STATS(PKTGEN_STAT_FIELD)
#undef PKTGEN_STAT_FIELD
};

#define PKTGEN_STAT_ONE(f, d) +1
/** Number of TX counters. */
#define PKTGEN_TX_STAT_MAX (0 PKTGEN_TX_STATS(PKTGEN_STAT_ONE))
/** Number of RX counters. */
#define PKTGEN_RX_STAT_MAX (0 PKTGEN_RX_STATS(PKTGEN_STAT_ONE))

/** Names of the TX counters in struct order ("tx_pkts", ...). */
extern const char *const pktgen_tx_stat_names[];
/** Names of the RX counters in struct order. */
extern const char *const pktgen_rx_stat_names[];

/** Counter @p i of @p s (i < PKTGEN_TX_STAT_MAX), in the order of pktgen_tx_stat_names. */
static inline uint64_t
pktgen_tx_stat(const struct pktgen_tx_stats *s, unsigned int i)
{
	return ((const uint64_t *)s)[i];
}

/** Counter @p i of @p s (i < PKTGEN_RX_STAT_MAX), in the order of pktgen_rx_stat_names. */
static inline uint64_t
pktgen_rx_stat(const struct pktgen_rx_stats *s, unsigned int i)
{
	return ((const uint64_t *)s)[i];
}

/* ---------------------------------------------------------------- configuration */

/** One configuration key: its name, value syntax and meaning (for help tables). */
struct pktgen_key {
	const char *name;
	const char *syntax;
	const char *help;
};

/**
 * Fill @p cfg with the defaults: UDP, 64-byte frames, one flow
 * 10.0.0.1:1024 -> 10.0.0.2:1024, unpaced, no limit, clone 1, burst 32.
 *
 * @param cfg
 *   The configuration to initialise.
 */
void pktgen_stream_init(struct pktgen_stream_cfg *cfg);

/**
 * Set one key of a stream from text: the handler of a `[pktgen]` config
 * section (fwd_cfgfile_cb shape minus the section) and of `pktgen set`.
 *
 * @param cfg
 *   The configuration to change; left unchanged on error.
 * @param key
 *   A key of pktgen_stream_keys() (e.g. "size").
 * @param value
 *   Its value (e.g. "64-1518").
 * @param err
 *   Receives the reason on error (may be NULL).
 * @param errlen
 *   Size of @p err.
 * @return
 *   0, -ENOENT for an unknown key, -EINVAL for a bad value.
 */
int pktgen_stream_set(struct pktgen_stream_cfg *cfg, const char *key, const char *value, char *err,
	size_t errlen);

/**
 * Check that the keys fit together (size range, IMIX sizes, ranges, the rate
 * unit against a known link): what pktgen_stream_set() cannot see key by key.
 *
 * @param cfg
 *   The configuration.
 * @param err
 *   Receives the reason on error (may be NULL).
 * @param errlen
 *   Size of @p err.
 * @return
 *   0 or -EINVAL.
 */
int pktgen_stream_check(const struct pktgen_stream_cfg *cfg, char *err, size_t errlen);

/**
 * The table of keys, for help output (`pktgen set` help, --help).
 *
 * @param n
 *   Receives the number of entries.
 * @return
 *   The table (static storage).
 */
const struct pktgen_key *pktgen_stream_keys(unsigned int *n);

/**
 * Print the key table, one "  key VALUE-SYNTAX  meaning" line each.
 *
 * @param f
 *   Where to print.
 */
void pktgen_stream_help(FILE *f);

/**
 * Print @p cfg as "key = value" lines that pktgen_stream_set() reads back.
 *
 * @param cfg
 *   The configuration.
 * @param f
 *   Where to print.
 */
void pktgen_stream_print(const struct pktgen_stream_cfg *cfg, FILE *f);

/**
 * Mean frame size of the stream in bytes, FCS included (for rate units and
 * for printing bit rates).
 *
 * @param cfg
 *   The configuration.
 * @return
 *   The mean size.
 */
double pktgen_stream_mean_size(const struct pktgen_stream_cfg *cfg);

/* ---------------------------------------------------------------- TX lcore */

/** Where and how one TX lcore runs. */
struct pktgen_lcore_params {
	uint16_t port;            /**< output port (used by pktgen_lcore_run()) */
	uint16_t queue;           /**< output queue */
	int socket;               /**< NUMA socket of the tables (SOCKET_ID_ANY ok) */
	unsigned int lcore;       /**< the lcore that polls: owns the fragpool, builds the mbufs */
	unsigned int index;       /**< this lcore among the TX lcores of the stream, 0-based */
	unsigned int count;       /**< TX lcores of the stream (count and rate are split) */
	uint32_t link_speed_mbps; /**< for rate in %; 0 if unknown */
	uint64_t hz;              /**< TSC frequency, 0: rte_get_tsc_hz() (tests inject a clock) */
	char *err;     /**< receives why pktgen_lcore_create() failed; NULL: it is logged */
	size_t errlen; /**< size of err */
};

struct pktgen_pcap;

/** @internal State of one TX lcore. Read it only through the functions below. */
struct pktgen_lcore {
	/* read by every poll */
	struct rte_mempool *pool; /**< the templates: its memory is fragments of fp */
	bool built; /**< the templates (or the pcap's mbufs) exist: see pktgen_lcore_prepare() */
	const uint8_t (*hdr)[PKTGEN_HDR_IMG]; /**< per local flow header image */
	const uint32_t *ip_sum;               /**< per local flow: IPv4 header sum without length */
	const uint32_t *l4_sum;               /**< per local flow: L4 + pseudo sum without length */
	const uint32_t *sig_head; /**< per local flow: first 4 bytes of a clone-1 signature */
	const uint32_t *sig_sum;  /**< per local flow: l4_sum + those 4 bytes */
	uint32_t *seq;            /**< per local flow: next sequence number */
	/**
	 * psum[n]: sum of payload bytes [sizeof(sig), n); psum[PKTGEN_PSUM_NOSIG + n]: of
	 * bytes [0, n)
	 */
	const uint32_t *psum;
	const uint8_t *pat0;   /**< the first sizeof(sig) payload bytes */
	const uint16_t *sizes; /**< IMIX schedule of frame lengths without FCS */
	uint16_t n_sizes;
	uint16_t size_pos;
	uint16_t len_min;  /**< frame lengths without FCS */
	uint16_t len_span; /**< RANGE: len_max - len_min + 1 */
	uint8_t size_mode;
	uint8_t proto;
	uint8_t refcnt_mode;
	uint8_t paced;
	uint16_t hdr_len;  /**< L2 + L3 + L4 headers */
	uint16_t ck_off;   /**< offset of the L4 checksum in the frame */
	uint16_t ck_zero;  /**< what a computed checksum of 0 is sent as */
	uint8_t len_words; /**< times the L4 length is in the L4 sum: UDP 2, TCP 1, ICMP 0 */
	uint16_t l3_off;
	uint16_t l4_off;
	uint16_t burst;
	uint16_t clone;
	uint16_t flow_stride; /**< global flow = flow_base + local * flow_stride */
	uint16_t flow_base;
	uint32_t n_flows; /**< local flows */
	uint32_t flow;    /**< current local flow */
	uint32_t train;   /**< mbufs per train (1 for round-robin) */
	uint32_t train_left;
	uint64_t rng;
	uint64_t remaining;   /**< packets still to build, UINT64_MAX: no limit */
	uint64_t count_share; /**< this lcore's part of count, UINT64_MAX: no limit */
	/* pacing: token bucket in packet * hz * 1000 units, so rates need not be integers */
	uint64_t hz;
	uint64_t pps_milli;
	uint64_t pkt_cost; /**< hz * 1000 */
	uint64_t credit;
	uint64_t credit_cap;
	uint64_t dt_cap;        /**< longest gap worth credit_cap: longer ones are clamped first */
	uint64_t forgiven_frac; /**< forgiven credit short of a whole packet */
	uint64_t win_end;       /**< TSC at which this second of pace_short ends */
	uint64_t win_start;     /**< and at which it began */
	uint64_t win_forgiven;  /**< pace_forgiven when it began */
	uint64_t last_tsc;
	uint64_t start_tsc;
	uint64_t dur_tsc;   /**< 0: no duration */
	uint64_t pause_tsc; /**< when pktgen_lcore_pause() paused the run; 0: not paused */
	bool started;
	bool done;
	uint16_t port;
	uint16_t queue;
	uint16_t n_pend; /**< packets refused by the port, offered again first */
	uint16_t pend_pos;
	struct pktgen_pcap *pcap; /**< replay instead of building, or NULL */
	/* control path */
	struct fragpool *fp; /**< owned by lcore: every mbuf the generator builds */
	uint32_t n_tmpl;     /**< templates (the pool's size) */
	uint32_t tmpl_cache; /**< the pool's per-lcore cache */
	uint32_t tmpl_gen;   /**< pools built so far (their names) */
	int socket;          /**< of the template pool */
	bool stopped; /**< by pktgen_lcore_stop(): the templates go back to fp once all are in */
	const uint8_t *fill; /**< what a template holds after the headers: the pattern */
	uint16_t tmpl_data;  /**< data room of a template (after the headroom) */
	unsigned int lcore;  /**< the polling lcore, fp's owner */
	uint32_t uid;        /**< makes the memory names unique */
	char name[24];
	struct pktgen_tx_stats stats __rte_cache_aligned;
	struct rte_mbuf *pend[PKTGEN_BURST_MAX];
};

/**
 * Create the state of one TX lcore: its fragpool (owned by params->lcore,
 * sized for cfg->mbufs templates and a TX ring's worth more), its per-flow
 * header images, its share of count and rate (split evenly over
 * params->count lcores; flows are dealt out, flow f to lcore f % count). With
 * cfg->pcap set, the file is read instead and replayed (by lcore index 0
 * only: the others are done at once). The mbufs themselves are built by
 * params->lcore at its first poll (fragpool allocation is owner-only).
 *
 * @param name
 *   Unique name (memory names derive from it), at most 20 chars.
 * @param cfg
 *   A configuration that passes pktgen_stream_check(); copied, not kept.
 * @param params
 *   Where the lcore runs.
 * @return
 *   The state, or NULL with rte_errno set (EINVAL: bad configuration or a
 *   pcap that is not an Ethernet capture, ENOMEM, ENOENT or EACCES: pcap not
 *   readable) and the reason in params->err.
 */
struct pktgen_lcore *pktgen_lcore_create(const char *name, const struct pktgen_stream_cfg *cfg,
	const struct pktgen_lcore_params *params);

/**
 * Settle everything this lcore still holds (packets the port refused and
 * that wait for another try: fragpool_mbuf_settle()), mark the run done, and
 * give the templates back to the fragpool if they are all back in their
 * pool (else pktgen_lcore_in_use() does once they are; a pcap's packets are
 * dropped at once, a port frees what it holds). Idempotent; call it on every stop path
 * (count reached, duration over, stop command, signal), on the polling lcore
 * or after it stopped polling. After it, and once the ports have freed what
 * they accepted (a stopped port frees its TX ring), pktgen_lcore_in_use() is
 * 0. A start after that builds the templates again.
 *
 * @param g
 *   The lcore state.
 */
void pktgen_lcore_stop(struct pktgen_lcore *g);

/**
 * Pause the run at TSC @p now: its polling lcore stops polling for a while
 * (the forwarder stops its workers around a change: a burst size, a port or
 * queue stopped, a trace armed) and the run goes on after. Nothing is
 * settled: packets a port refused stay to be offered first, the templates
 * stay built; what the pause lasts counts neither for the duration nor as
 * pacing credit. A paused run is not done; pktgen_lcore_stop() ends one.
 *
 * @param g
 *   The lcore state.
 * @param now
 *   TSC now, in the hz given at creation.
 */
void pktgen_lcore_pause(struct pktgen_lcore *g, uint64_t now);

/**
 * Go on with a paused run at TSC @p now (its first poll after the pause calls
 * it; nothing when the run is not paused).
 *
 * @param g
 *   The lcore state.
 * @param now
 *   TSC now.
 */
static inline void
pktgen_lcore_resume(struct pktgen_lcore *g, uint64_t now)
{
	if (likely(g->pause_tsc == 0))
		return;
	if (g->started) {
		/* the pause is neither sending time nor credit */
		g->start_tsc += now - g->pause_tsc;
		g->last_tsc = now;
		/* nor a second of pace_short: a window begins at the next poll */
		g->win_end = 0;
	}
	g->pause_tsc = 0;
}

/**
 * Build the templates (or the pcap's mbufs) now, from the lcore's fragpool.
 * Polling lcore only; the first poll after creation or a stop calls it, so
 * this is only for keeping the build out of a timed or paced first poll
 * (pktgen_lcore_poll() and pktgen_lcore_run() do that already).
 *
 * @param g
 *   The lcore state.
 * @return
 *   0 (also if built already or done), -EPERM on another lcore, -ENOBUFS if
 *   the fragpool is short (the mbufs still held by a port from an earlier
 *   run pin their chunks). On error the run is marked done.
 */
int pktgen_lcore_prepare(struct pktgen_lcore *g);

/**
 * Fragments of the lcore's fragpool not back yet (the templates until a
 * stop, packets held by a port), after giving the templates back to the
 * fragpool if the run is stopped and all are back in their pool, and
 * settling the fragpool's own return ring
 * (fragpool_reclaim()). On the polling lcore, or once it stopped polling (the
 * pool's owner must not run at the same time).
 *
 * @param g
 *   The lcore state.
 * @return
 *   The count; 0 after pktgen_lcore_stop() once the ports freed everything.
 */
uint64_t pktgen_lcore_in_use(struct pktgen_lcore *g);

/**
 * The lcore's fragpool: every mbuf the generator builds is a fragment of it.
 *
 * @param g
 *   The lcore state.
 * @return
 *   The pool.
 */
struct fragpool *pktgen_lcore_fragpool(const struct pktgen_lcore *g);

/**
 * Make a stopped or finished lcore start over: count, duration and pacing
 * restart at the next poll; sequence numbers go on.
 *
 * @param g
 *   The lcore state (stopped).
 */
void pktgen_lcore_restart(struct pktgen_lcore *g);

/**
 * Stop (see pktgen_lcore_stop()) and free the lcore state and its fragpool.
 * The ports should no longer hold its mbufs (stop or drain them first): if
 * they do, the template mempool and the fragpool are left allocated (and a
 * warning logged) rather than freed under them. To free it once they gave
 * them back, use pktgen_lcore_try_free() instead.
 *
 * @param g
 *   The lcore state, or NULL.
 */
void pktgen_lcore_free(struct pktgen_lcore *g);

/**
 * Free @p g if the ports hold none of its mbufs any more (pktgen_lcore_in_use()
 * is 0 after a stop); otherwise stop it and leave it allocated, to be tried
 * again once they gave them back. Its polling lcore stopped (the fragpool's
 * owner must not run at the same time).
 *
 * @param g
 *   The lcore state, or NULL.
 * @return
 *   true if @p g was freed (or NULL), false if it is still held.
 */
bool pktgen_lcore_try_free(struct pktgen_lcore *g);

/**
 * The mempool of the generator's templates while they exist (from the first
 * poll to the stop that gives them back to the fragpool), so m->pool tells
 * them apart; a pcap replay's packets name the fragpool's own mbuf mempool
 * (pktgen_lcore_fragpool()->mbuf_pool). Count what is out with
 * pktgen_lcore_in_use().
 *
 * @param g
 *   The lcore state.
 * @return
 *   The mempool, or NULL when there are no templates.
 */
struct rte_mempool *pktgen_lcore_pool(const struct pktgen_lcore *g);

/**
 * Copy the TX counters.
 *
 * @param g
 *   The lcore state.
 * @param st
 *   Receives the counters.
 */
void pktgen_lcore_stats(const struct pktgen_lcore *g, struct pktgen_tx_stats *st);

/**
 * The rate this lcore is asked to send (its share of the stream's).
 *
 * @param g
 *   The lcore state.
 * @return
 *   Packets per second, 0 when unpaced.
 */
double pktgen_lcore_pps(const struct pktgen_lcore *g);

/**
 * Whether the run is over (count sent, duration over, pcap loops done, or
 * stopped). Once it is, polls send nothing.
 *
 * @param g
 *   The lcore state.
 * @return
 *   true when done.
 */
static inline bool
pktgen_lcore_done(const struct pktgen_lcore *g)
{
	return g->done;
}

/** @internal pcap replay poll (pktgen_pcap.c). */
uint16_t pktgen_replay_poll(struct pktgen_lcore *g, uint16_t port, uint16_t queue, uint64_t now);

/** @internal Fold a 32-bit ones' complement sum and complement it. */
static __rte_always_inline uint16_t
pktgen_cksum_fold(uint32_t sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/** @internal Bytes of @p n packets we still hold a reference to. */
static __rte_always_inline uint64_t
pktgen_bytes(struct rte_mbuf *const *pkts, uint16_t n)
{
	uint64_t b = 0;
	uint16_t i;

	for (i = 0; i < n; i++)
		b += pkts[i]->pkt_len;
	return b;
}

/** @internal Keep what the port refused for the next poll (the references stay ours). */
static __rte_always_inline void
pktgen_keep_unsent(struct pktgen_lcore *g, struct rte_mbuf **pkts, uint16_t sent, uint16_t n)
{
	memcpy(g->pend, &pkts[sent], (n - sent) * sizeof(pkts[0]));
	g->n_pend = n - sent;
	g->pend_pos = 0;
	g->stats.tx_retry += n - sent;
	g->stats.tx_bytes -= pktgen_bytes(g->pend, g->n_pend);
}

/** @internal Offer the pending packets again; returns how many went. */
static __rte_always_inline uint16_t
pktgen_tx_pending(struct pktgen_lcore *g, uint16_t port, uint16_t queue)
{
	struct rte_mbuf **p = &g->pend[g->pend_pos];
	uint16_t sent;

	/* count bytes before sending: a sent mbuf may be freed at once */
	g->stats.tx_bytes += pktgen_bytes(p, g->n_pend);
	sent = rte_eth_tx_burst(port, queue, p, g->n_pend);
	g->stats.tx_pkts += sent;
	g->stats.tx_bursts += sent != 0;
	g->pend_pos += sent;
	g->n_pend -= sent;
	if (g->n_pend != 0) {
		g->stats.tx_retry += g->n_pend;
		g->stats.tx_bytes -= pktgen_bytes(&g->pend[g->pend_pos], g->n_pend);
	}
	return sent;
}

/**
 * @internal The run ended (its duration is over) maybe in the middle of a
 * stall: what the rate would have sent up to @p end beyond the slack is
 * forgiven, so that sent + forgiven adds up to the target.
 */
static inline void
pktgen_pace_end(struct pktgen_lcore *g, uint64_t end)
{
	double due;

	if ((int64_t)(end - g->last_tsc) <= 0)
		return;
	due = (double)(end - g->last_tsc) * g->pps_milli + (double)g->credit;
	if (due > (double)g->credit_cap)
		g->stats.pace_forgiven += (uint64_t)((due - (double)g->credit_cap) / g->pkt_cost);
	g->last_tsc = end;
}

/**
 * @internal A second of pacing is over at @p now: counted in pace_short if
 * more than 1 % of what the rate asked in it was forgiven (the lcore or the
 * port is too slow for the rate, or it stalled), and the next one begins.
 */
void pktgen_pace_window(struct pktgen_lcore *g, uint64_t now);

/** @internal Time checks and pacing: how many packets this poll may build. */
static __rte_always_inline uint16_t
pktgen_tx_budget(struct pktgen_lcore *g, uint64_t now)
{
	uint64_t n = g->burst;

	if (unlikely(!g->started)) {
		g->started = true;
		g->start_tsc = now;
		g->last_tsc = now;
		/* the first packet may leave at once */
		g->credit = g->pkt_cost;
		g->win_end = 0;
	}
	if (g->dur_tsc != 0 && now - g->start_tsc >= g->dur_tsc) {
		if (g->paced && g->remaining != 0)
			pktgen_pace_end(g, g->start_tsc + g->dur_tsc);
		g->remaining = 0;
		return 0;
	}
	if (g->remaining < n)
		n = g->remaining;
	if (g->paced) {
		uint64_t dt = now - g->last_tsc;

		g->last_tsc = now;
		/* bound dt first: a long stall must not overflow the product */
		if (unlikely(dt > g->dt_cap)) {
			const uint64_t excess = dt - g->dt_cap;

			/* in credit units when they cannot overflow, keeping the fraction */
			if (excess <= (UINT64_MAX - g->pkt_cost) / g->pps_milli) {
				g->forgiven_frac += excess * g->pps_milli;
				g->stats.pace_forgiven += g->forgiven_frac / g->pkt_cost;
				g->forgiven_frac %= g->pkt_cost;
			} else {
				g->stats.pace_forgiven +=
					(uint64_t)((double)excess * g->pps_milli / g->pkt_cost);
			}
			dt = g->dt_cap;
		}
		g->credit += dt * g->pps_milli;
		if (g->credit > g->credit_cap) {
			/* keep the fraction of a packet, so sent + forgiven adds up exactly */
			g->forgiven_frac += g->credit - g->credit_cap;
			g->stats.pace_forgiven += g->forgiven_frac / g->pkt_cost;
			g->forgiven_frac %= g->pkt_cost;
			g->credit = g->credit_cap;
		}
		if (n > g->credit / g->pkt_cost)
			n = g->credit / g->pkt_cost;
		if (unlikely(now >= g->win_end))
			pktgen_pace_window(g, now);
	}
	return (uint16_t)n;
}

/** @internal Next flow (local index) in arrival order. */
static __rte_always_inline uint32_t
pktgen_next_flow(struct pktgen_lcore *g)
{
	uint32_t f = g->flow;

	if (--g->train_left == 0) {
		g->train_left = g->train;
		if (++g->flow == g->n_flows)
			g->flow = 0;
	}
	return f;
}

/** @internal Frame length (without FCS) of the next mbuf. */
static __rte_always_inline uint16_t
pktgen_next_len(struct pktgen_lcore *g)
{
	uint16_t len;

	switch (g->size_mode) {
	case PKTGEN_SIZE_IMIX:
		len = g->sizes[g->size_pos];
		if (++g->size_pos == g->n_sizes)
			g->size_pos = 0;
		return len;
	case PKTGEN_SIZE_RANGE:
		/* xorshift64*: a generator must not be slowed by rand() */
		g->rng ^= g->rng >> 12;
		g->rng ^= g->rng << 25;
		g->rng ^= g->rng >> 27;
		return (uint16_t)(g->len_min +
				  (uint32_t)(((g->rng * 2685821657736338717ULL) >> 32) %
					     g->len_span));
	default:
		return g->len_min;
	}
}

/**
 * @internal What a template buffer holds is kept in its hash.usr (an RX
 * field, in the cache line every send touches anyway): local flow << 16 |
 * frame length of the headers in it, UINT32_MAX for none. A port's transmit
 * path does not change a buffer, so one that comes back to the pool still
 * has the headers of its last use and needs only a new signature.
 */
#define PKTGEN_KEY(m) ((m)->hash.usr)

/**
 * @internal Write the headers of local flow @p f and length @p len into @p m.
 * Out of line: it is the rare path, and inlined the compiler hoists part of
 * it (the IPv4 checksum) into every packet.
 */
static __rte_noinline __rte_unused void
pktgen_build_headers(
	const struct pktgen_lcore *g, struct rte_mbuf *m, uint8_t *p, uint32_t f, uint16_t len)
{
	const uint16_t l3 = g->l3_off, room = (uint16_t)(len - g->hdr_len);
	const uint16_t be_iplen = rte_cpu_to_be_16((uint16_t)(len - l3));
	const uint16_t be_l4len = rte_cpu_to_be_16((uint16_t)(len - g->l4_off));
	const uint16_t ck = pktgen_cksum_fold(g->ip_sum[f] + be_iplen);

	m->data_off = RTE_PKTMBUF_HEADROOM;
	m->data_len = len;
	m->pkt_len = len;
	m->ol_flags = 0;
	/* the bytes after hdr_len in the image are the pattern, as in the buffer already */
	rte_mov64(p, g->hdr[f]);
	memcpy(p + l3 + 2, &be_iplen, 2);
	memcpy(p + l3 + 10, &ck, 2);
	if (g->proto == PKTGEN_PROTO_UDP)
		memcpy(p + g->l4_off + 4, &be_l4len, 2);
	/*
	 * Without room for a signature the pattern fills the payload; an earlier
	 * use of this buffer may have put a signature past the 64 bytes the image
	 * covers: restore the pattern there.
	 */
	if (room < sizeof(struct pktgen_sig))
		memcpy(p + g->hdr_len, g->pat0, room);
}

/**
 * @internal Build one mbuf of local flow @p f, @p len bytes, carrying @p
 * copies sends: the headers only when the buffer does not hold them already,
 * then the signature and the L4 checksum (an update of a pre-summed value).
 */
static __rte_always_inline void
pktgen_build(struct pktgen_lcore *g, struct rte_mbuf *m, uint32_t f, uint16_t len, uint8_t copies,
	uint32_t tsc)
{
	uint8_t *const p = (uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM;
	/* read g before writing packet bytes: byte stores may alias anything */
	const uint16_t hdr_len = g->hdr_len, ck_off = g->ck_off;
	const uint16_t room = (uint16_t)(len - hdr_len);
	const uint16_t be_l4len = rte_cpu_to_be_16((uint16_t)(len - g->l4_off));
	const uint32_t key = f << 16 | len;
	uint32_t l4 = g->l4_sum[f] + g->len_words * (uint32_t)be_l4len;
	const uint16_t ck_zero = g->ck_zero;
	uint16_t ck;

	if (likely(room >= sizeof(struct pktgen_sig))) {
		struct pktgen_sig sig = {
			.magic = PKTGEN_SIG_MAGIC,
			.copies = copies,
			.flow = (uint16_t)(g->flow_base + f * g->flow_stride),
			.seq = g->seq[f]++,
			.tsc = tsc,
		};
		uint16_t w[6];

		memcpy(w, &sig, sizeof(sig));
		l4 += (uint32_t)w[0] + w[1] + w[2] + w[3] + w[4] + w[5] + g->psum[room];
		if (unlikely(PKTGEN_KEY(m) != key)) {
			pktgen_build_headers(g, m, p, f, len);
			PKTGEN_KEY(m) = key;
		}
		memcpy(p + hdr_len, &sig, sizeof(sig));
	} else {
		l4 += g->psum[PKTGEN_PSUM_NOSIG + room];
		if (unlikely(PKTGEN_KEY(m) != key)) {
			pktgen_build_headers(g, m, p, f, len);
			PKTGEN_KEY(m) = key;
		}
	}
	ck = pktgen_cksum_fold(l4);
	/* UDP sends a computed 0 as 0xffff (0 means no checksum); TCP and ICMP as 0 */
	if (unlikely(ck == 0))
		ck = ck_zero;
	memcpy(p + ck_off, &ck, 2);
}

/**
 * @internal Build @p n single-send mbufs (clone 1), the hot loop of an
 * unpaced generator: what does not change within a burst is held in locals
 * (a store into a packet may alias anything reached through @p g), and the
 * signature's first word and its checksum contribution are per-flow tables.
 *
 * @return
 *   The bytes built.
 */
static __rte_always_inline uint64_t
pktgen_build_burst1_mode(struct pktgen_lcore *g, struct rte_mbuf **mb, uint16_t n, uint32_t tsc,
	const bool fixed, const bool one_flow)
{
	const uint32_t *const sig_head = g->sig_head;
	const uint32_t *const sig_sum = g->sig_sum;
	const uint32_t *const l4_sum = g->l4_sum;
	const uint32_t *const psum = g->psum;
	uint32_t *const seqs = g->seq;
	const uint16_t hdr_len = g->hdr_len, ck_off = g->ck_off, l4_off = g->l4_off;
	const uint16_t ck_zero = g->ck_zero;
	const uint32_t len_words = g->len_words, n_flows = g->n_flows, train = g->train;
	const uint32_t tsum = (tsc & 0xffff) + (tsc >> 16);
	const uint16_t len_fixed = g->len_min;
	/* fixed size: the length's and the payload's part of the sum, once per burst */
	const uint32_t sum_fixed =
		len_words * (uint32_t)rte_cpu_to_be_16((uint16_t)(len_fixed - l4_off)) +
		psum[(uint16_t)(len_fixed - hdr_len) >= sizeof(struct pktgen_sig)
				? (uint16_t)(len_fixed - hdr_len)
				: PKTGEN_PSUM_NOSIG + (uint16_t)(len_fixed - hdr_len)];
	uint32_t flow = g->flow, train_left = g->train_left;
	uint64_t bytes = 0;
	uint16_t u;

	for (u = 0; u < n; u++) {
		struct rte_mbuf *m = mb[u];
		uint8_t *const p = (uint8_t *)m->buf_addr + RTE_PKTMBUF_HEADROOM;
		const uint16_t len = fixed ? len_fixed : pktgen_next_len(g);
		const uint16_t room = (uint16_t)(len - hdr_len);
		const uint32_t f = one_flow ? 0 : flow;
		uint32_t sum;
		uint16_t ck;

		if (!one_flow && --train_left == 0) {
			train_left = train;
			if (++flow == n_flows)
				flow = 0;
		}
		if (unlikely(PKTGEN_KEY(m) != (f << 16 | len))) {
			pktgen_build_headers(g, m, p, f, len);
			PKTGEN_KEY(m) = f << 16 | len;
		}
		if (fixed)
			sum = sum_fixed;
		else
			sum = len_words * (uint32_t)rte_cpu_to_be_16((uint16_t)(len - l4_off)) +
			      psum[room >= sizeof(struct pktgen_sig) ? room
								     : PKTGEN_PSUM_NOSIG + room];
		if (likely(room >= sizeof(struct pktgen_sig))) {
			const uint32_t seq = seqs[f]++;
			const uint32_t head = sig_head[f];

			memcpy(p + hdr_len, &head, 4);
			memcpy(p + hdr_len + 4, &seq, 4);
			memcpy(p + hdr_len + 8, &tsc, 4);
			ck = pktgen_cksum_fold(
				sig_sum[f] + sum + tsum + (seq & 0xffff) + (seq >> 16));
		} else {
			ck = pktgen_cksum_fold(l4_sum[f] + sum);
		}
		if (unlikely(ck == 0))
			ck = ck_zero;
		memcpy(p + ck_off, &ck, 2);
		bytes += len;
	}
	g->flow = flow;
	g->train_left = train_left;
	return bytes;
}

/** @internal pktgen_build_burst1_mode() instantiated for the common shapes of a stream. */
static __rte_always_inline uint64_t
pktgen_build_burst1(struct pktgen_lcore *g, struct rte_mbuf **mb, uint16_t n, uint32_t tsc)
{
	if (g->size_mode == PKTGEN_SIZE_FIXED) {
		if (g->n_flows == 1)
			return pktgen_build_burst1_mode(g, mb, n, tsc, true, true);
		return pktgen_build_burst1_mode(g, mb, n, tsc, true, false);
	}
	return pktgen_build_burst1_mode(g, mb, n, tsc, false, false);
}

/**
 * One TX iteration at time @p now: offer again what the port refused last
 * time, else build up to a burst of packets (as many as the count, the
 * duration and the pacing allow) and send them. Sets done when the count is
 * reached or the duration is over (then call pktgen_lcore_stop()).
 *
 * The clock is a parameter so that tests can run a fake one; @p now is also
 * the timestamp stamped in the packets.
 *
 * @param g
 *   The lcore state.
 * @param port
 *   Output port.
 * @param queue
 *   Output queue.
 * @param now
 *   TSC now (rte_rdtsc()), in the hz given at creation.
 * @return
 *   Packets the port accepted in this call.
 */
static inline uint16_t
pktgen_lcore_poll_at(struct pktgen_lcore *g, uint16_t port, uint16_t queue, uint64_t now)
{
	struct rte_mbuf *pkts[PKTGEN_BURST_MAX];
	struct rte_mbuf *mb[PKTGEN_BURST_MAX];
	const uint16_t k = g->clone;
	uint64_t bytes = 0;
	uint16_t n, units, u, i, sent;

	pktgen_lcore_resume(g, now);
	if (unlikely(g->n_pend != 0)) {
		sent = pktgen_tx_pending(g, port, queue);
		if (g->n_pend == 0 && g->remaining == 0)
			g->done = true;
		return sent;
	}
	if (unlikely(g->done))
		return 0;
	if (unlikely(!g->built) && pktgen_lcore_prepare(g) != 0)
		return 0;
	if (unlikely(g->pcap != NULL))
		return pktgen_replay_poll(g, port, queue, now);
	n = pktgen_tx_budget(g, now);
	if (unlikely(n == 0)) {
		if (g->remaining == 0)
			g->done = true;
		return 0;
	}
	units = k == 1 ? n : (uint16_t)((n + k - 1) / k);
	if (unlikely(rte_mempool_get_bulk(g->pool, (void **)mb, units) != 0)) {
		g->stats.alloc_fail++;
		return 0;
	}
	if (k == 1) {
		bytes = pktgen_build_burst1(g, mb, n, (uint32_t)now);
		sent = rte_eth_tx_burst(port, queue, mb, n);
		g->stats.tx_bytes += bytes;
		if (unlikely(sent < n))
			pktgen_keep_unsent(g, mb, sent, n);
	} else {
		i = 0;
		for (u = 0; u < units; u++) {
			struct rte_mbuf *m = mb[u];
			uint16_t c = RTE_MIN(k, (uint16_t)(n - i)), j;
			uint16_t len = pktgen_next_len(g);

			pktgen_build(g, m, pktgen_next_flow(g), len, (uint8_t)c, (uint32_t)now);
			bytes += (uint64_t)len * c;
			/*
			 * Fresh from our pool, so ours alone at count 1: the c - 1 more
			 * references for c sends are one plain store (the seed pattern); the
			 * driver drops one per send, the last free puts it back in the pool.
			 */
			if (g->refcnt_mode == PKTGEN_REFCNT_BATCH)
				fragpool_mbuf_share(m, (uint16_t)(c - 1));
			else
				for (j = 1; j < c; j++)
					rte_mbuf_refcnt_update(m, 1);
			for (j = 0; j < c; j++)
				pkts[i++] = m;
		}
		sent = rte_eth_tx_burst(port, queue, pkts, n);
		g->stats.tx_bytes += bytes;
		if (unlikely(sent < n))
			pktgen_keep_unsent(g, pkts, sent, n);
	}
	g->stats.mbufs += units;
	g->stats.tx_pkts += sent;
	g->stats.tx_bursts += sent != 0;
	if (g->remaining != UINT64_MAX)
		g->remaining -= n;
	if (g->paced)
		g->credit -= (uint64_t)n * g->pkt_cost;
	if (g->remaining == 0 && g->n_pend == 0)
		g->done = true;
	return sent;
}

/**
 * pktgen_lcore_poll_at() with the TSC now.
 *
 * @param g
 *   The lcore state.
 * @param port
 *   Output port.
 * @param queue
 *   Output queue.
 * @return
 *   Packets the port accepted in this call.
 */
static inline uint16_t
pktgen_lcore_poll(struct pktgen_lcore *g, uint16_t port, uint16_t queue)
{
	/* build before reading the clock: the build is not part of the run's time */
	if (unlikely(!g->built) && !g->done)
		pktgen_lcore_prepare(g);
	return pktgen_lcore_poll_at(g, port, queue, rte_rdtsc());
}

/**
 * The whole TX loop on the port and queue of the creation parameters: poll
 * until done or *quit, then pktgen_lcore_stop().
 *
 * @param g
 *   The lcore state.
 * @param quit
 *   Set by another lcore (stop command, signal) to end the run early.
 * @return
 *   0.
 */
int pktgen_lcore_run(struct pktgen_lcore *g, volatile bool *quit);

/* ---------------------------------------------------------------- receive side */

/** @internal Per-flow receive state. */
struct pktgen_rx_flow {
	uint64_t pkts;
	uint64_t bytes;
	uint64_t reorder;
	uint64_t dup;
	uint64_t late;
	int64_t lost;     /**< final losses of sequence numbers that left the window */
	uint32_t max_seq; /**< highest sequence number seen */
	uint32_t first_seq;
	uint8_t started;
	uint8_t copies;                 /**< copies of the latest sequence number */
	uint8_t cnt[PKTGEN_RX_WINDOW];  /**< copies seen of seq s at [s % WINDOW] */
	uint8_t want[PKTGEN_RX_WINDOW]; /**< copies seq s was sent with, 0: none seen */
} __rte_cache_aligned;

/** Per-flow counters returned by pktgen_rx_flow_stats(). */
struct pktgen_rx_flow_stats {
	uint64_t pkts;
	uint64_t bytes;
	uint64_t lost;
	uint64_t reorder;
	uint64_t dup;
	uint64_t late;
};

/** @internal State of one receiving lcore. */
struct pktgen_rx {
	uint32_t n_flows; /**< the stream's: a signature of a flow beyond is foreign */
	uint32_t n_alloc; /**< flows kept (n_flows or more, after pktgen_rx_set_flows()) */
	int socket;
	uint32_t reset_req; /**< set by pktgen_rx_reset(), applied by the owner */
	uint64_t ns_mult;   /**< ns = cycles * ns_mult >> 32 */
	uint64_t hz;
	uint64_t pkts;
	uint64_t bytes;
	uint64_t foreign;
	uint64_t lat_n;
	uint64_t lat_sum_ns;
	uint64_t lat_min_ns;
	uint64_t lat_max_ns;
	uint64_t hist[PKTGEN_HIST_BUCKETS];
	struct pktgen_rx_flow *flows;
};

/**
 * Create a receive-side accountant for up to @p n_flows flows (the stream's
 * flows; packets of other flows count as foreign).
 *
 * @param name
 *   Unique name for the memory.
 * @param n_flows
 *   1..PKTGEN_FLOWS_MAX.
 * @param socket
 *   NUMA socket (SOCKET_ID_ANY ok).
 * @param hz
 *   TSC frequency, 0: rte_get_tsc_hz().
 * @return
 *   The state, or NULL with rte_errno set (EINVAL, ENOMEM).
 */
struct pktgen_rx *pktgen_rx_create(const char *name, uint32_t n_flows, int socket, uint64_t hz);

/**
 * Make @p r account @p n_flows flows (the stream's flows changed). The
 * counters stay: flows kept keep theirs, new ones start at zero, and those
 * beyond a smaller count keep what they counted in the totals. Owner
 * stopped (the control path, while the lcore does not poll).
 *
 * @param r
 *   The state.
 * @param n_flows
 *   1..PKTGEN_FLOWS_MAX.
 * @return
 *   0, -EINVAL, or -ENOMEM (then @p r is unchanged).
 */
int pktgen_rx_set_flows(struct pktgen_rx *r, uint32_t n_flows);

/**
 * Free a receive-side accountant.
 *
 * @param r
 *   The state, or NULL.
 */
void pktgen_rx_free(struct pktgen_rx *r);

/**
 * Ask for every counter of @p r to be zeroed. Safe from any lcore: the owner
 * applies it at its next pktgen_rx_burst() (call that even with n == 0 when
 * the queue is idle).
 *
 * @param r
 *   The state.
 */
void pktgen_rx_reset(struct pktgen_rx *r);

/** @internal Apply a reset now (owner only). */
void pktgen_rx_reset_apply(struct pktgen_rx *r);

/**
 * Totals over the flows. lost counts the sequence numbers (times their
 * copies) missing between the first and the highest seen of each flow; it is
 * final once traffic has stopped.
 *
 * @param r
 *   The state.
 * @param st
 *   Receives the counters.
 */
void pktgen_rx_stats(const struct pktgen_rx *r, struct pktgen_rx_stats *st);

/**
 * Counters of one flow.
 *
 * @param r
 *   The state.
 * @param flow
 *   Flow index < n_flows (or one kept from a larger count).
 * @param st
 *   Receives the counters.
 * @return
 *   0, or -EINVAL for a flow out of range.
 */
int pktgen_rx_flow_stats(const struct pktgen_rx *r, uint32_t flow, struct pktgen_rx_flow_stats *st);

/**
 * The latency histogram: @p hist[0] counts 0 ns, @p hist[i] counts
 * [2^(i-1), 2^i) ns, the last bucket everything above. It sums to signed_pkts.
 *
 * @param r
 *   The state.
 * @param hist
 *   Receives PKTGEN_HIST_BUCKETS counters.
 */
void pktgen_rx_hist(const struct pktgen_rx *r, uint64_t hist[PKTGEN_HIST_BUCKETS]);

/**
 * The sum of the latencies the histogram counts, in ns (lat_avg_ns is it
 * divided by signed_pkts, rounded down): a histogram's exact sum for an
 * exporter.
 *
 * @param r
 *   The state.
 */
uint64_t pktgen_rx_lat_sum_ns(const struct pktgen_rx *r);

/** @internal Find the signature of @p m, or NULL. */
static __rte_always_inline const struct pktgen_sig *
pktgen_rx_sig(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t len = rte_pktmbuf_data_len(m), off = RTE_ETHER_HDR_LEN, ihl;
	uint16_t et;

	if (len < RTE_ETHER_HDR_LEN + sizeof(struct rte_ipv4_hdr))
		return NULL;
	memcpy(&et, p + 12, 2);
	if (et == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
		memcpy(&et, p + 16, 2);
		off += 4;
	}
	if (et != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) || len < off + 20)
		return NULL;
	ihl = (p[off] & 0xf) * 4u;
	if ((p[off] >> 4) != 4 || ihl < 20)
		return NULL;
	switch (p[off + 9]) {
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
		off += ihl + 8;
		break;
	case IPPROTO_TCP:
		if (len < off + ihl + 13 || (p[off + ihl + 12] >> 4) < 5)
			return NULL;
		off += ihl + (p[off + ihl + 12] >> 4) * 4u;
		break;
	default:
		return NULL;
	}
	if (len < off + sizeof(struct pktgen_sig) || p[off] != PKTGEN_SIG_MAGIC || p[off + 1] == 0)
		return NULL;
	return (const struct pktgen_sig *)(p + off);
}

/** @internal Copies still missing from a window slot that is being finalised. */
static __rte_always_inline uint32_t
pktgen_rx_missing(const struct pktgen_rx_flow *fl, uint32_t slot)
{
	/* a sequence number never seen: assume it was sent like the latest one */
	if (fl->want[slot] == 0)
		return fl->copies;
	return fl->cnt[slot] < fl->want[slot] ? (uint32_t)(fl->want[slot] - fl->cnt[slot]) : 0;
}

/** @internal Sequence accounting of one packet of flow @p fl. */
static __rte_always_inline void
pktgen_rx_seq(struct pktgen_rx_flow *fl, uint32_t seq, uint8_t copies)
{
	const uint32_t slot = seq % PKTGEN_RX_WINDOW;
	int32_t d;

	if (unlikely(!fl->started)) {
		fl->started = 1;
		fl->first_seq = seq;
		fl->max_seq = seq;
		fl->copies = copies;
		fl->cnt[slot] = 1;
		fl->want[slot] = copies;
		return;
	}
	d = (int32_t)(seq - fl->max_seq);
	if (likely(d > 0)) {
		/* slots leaving the window are final: what they miss is lost */
		uint32_t s, steps = RTE_MIN((uint32_t)d, (uint32_t)PKTGEN_RX_WINDOW);

		for (s = 1; s <= steps; s++) {
			uint32_t old = fl->max_seq + s - PKTGEN_RX_WINDOW;
			uint32_t os = old % PKTGEN_RX_WINDOW;

			if ((int32_t)(old - fl->first_seq) >= 0)
				fl->lost += pktgen_rx_missing(fl, os);
			fl->cnt[os] = 0;
			fl->want[os] = 0;
		}
		fl->copies = copies;
		if ((uint32_t)d > PKTGEN_RX_WINDOW)
			fl->lost += (int64_t)((uint32_t)d - PKTGEN_RX_WINDOW) * copies;
		fl->max_seq = seq;
		fl->cnt[slot] = 1;
		fl->want[slot] = copies;
		return;
	}
	if (d > -PKTGEN_RX_WINDOW) {
		if ((int32_t)(seq - fl->first_seq) < 0) {
			/* older than the first seen: it was never counted as lost */
			fl->reorder++;
			fl->late++;
			return;
		}
		if (fl->cnt[slot] >= copies) {
			fl->dup++;
			return;
		}
		fl->cnt[slot]++;
		fl->want[slot] = copies;
		if (d < 0)
			fl->reorder++;
		return;
	}
	/* out of the window: counted lost already (we cannot tell a duplicate) */
	fl->reorder++;
	fl->late++;
	if ((int32_t)(seq - fl->first_seq) >= 0)
		fl->lost--;
}

/**
 * Account a received burst at time @p now: packets, bytes, per-flow
 * counters, loss, reordering, duplicates, latency. Does not free the mbufs.
 *
 * @param r
 *   The state (owned by the calling lcore).
 * @param pkts
 *   The packets.
 * @param n
 *   How many (0 is fine: it applies a pending reset).
 * @param now
 *   TSC now, in the hz given at creation (the sender's clock: same machine).
 */
static inline void
pktgen_rx_burst_at(struct pktgen_rx *r, struct rte_mbuf **pkts, uint16_t n, uint64_t now)
{
	uint16_t i;

	if (unlikely(r->reset_req != 0))
		pktgen_rx_reset_apply(r);
	for (i = 0; i < n; i++) {
		const struct rte_mbuf *m = pkts[i];
		const struct pktgen_sig *sig = pktgen_rx_sig(m);
		struct pktgen_rx_flow *fl;
		uint64_t ns;
		uint32_t cyc;
		unsigned int b;

		r->pkts++;
		r->bytes += m->pkt_len;
		if (sig == NULL || sig->flow >= r->n_flows) {
			r->foreign++;
			continue;
		}
		fl = &r->flows[sig->flow];
		fl->pkts++;
		fl->bytes += m->pkt_len;
		pktgen_rx_seq(fl, sig->seq, sig->copies);
		cyc = (uint32_t)now - sig->tsc;
		ns = ((uint64_t)cyc * r->ns_mult) >> 32;
		r->lat_n++;
		r->lat_sum_ns += ns;
		if (ns < r->lat_min_ns)
			r->lat_min_ns = ns;
		if (ns > r->lat_max_ns)
			r->lat_max_ns = ns;
		b = ns == 0 ? 0 : 64 - __builtin_clzll(ns);
		r->hist[RTE_MIN(b, (unsigned int)PKTGEN_HIST_BUCKETS - 1)]++;
	}
}

/**
 * pktgen_rx_burst_at() with the TSC now.
 *
 * @param r
 *   The state (owned by the calling lcore).
 * @param pkts
 *   The packets (not freed).
 * @param n
 *   How many.
 */
static inline void
pktgen_rx_burst(struct pktgen_rx *r, struct rte_mbuf **pkts, uint16_t n)
{
	pktgen_rx_burst_at(r, pkts, n, rte_rdtsc());
}

/* ---------------------------------------------------------------- pcap */

/**
 * Read a pcap file (Ethernet link type) into memory. The mbufs are built
 * from it later, by the replaying lcore from its own fragpool
 * (pktgen_lcore_prepare()), and dropped at every stop. Packets longer than
 * a 9 KB buffer or truncated in the capture are skipped and counted.
 *
 * @param name
 *   Unique name for the memory.
 * @param path
 *   The file.
 * @param socket
 *   NUMA socket.
 * @param err
 *   Receives the reason on error (may be NULL).
 * @param errlen
 *   Size of @p err.
 * @return
 *   The loaded file, or NULL with rte_errno set (the errno of a file that
 *   cannot be read, EISDIR, EINVAL: not a pcap or pcapng capture of Ethernet
 *   frames, or no packet in it, ENOMEM) and the reason in @p err.
 */
struct pktgen_pcap *pktgen_pcap_load(
	const char *name, const char *path, int socket, char *err, size_t errlen);

/**
 * Free a loaded pcap (stop the replay first: pktgen_lcore_stop() drops its mbufs).
 *
 * @param p
 *   The file, or NULL.
 */
void pktgen_pcap_free(struct pktgen_pcap *p);

/**
 * Packets loaded.
 *
 * @param p
 *   The file.
 * @return
 *   The count.
 */
uint32_t pktgen_pcap_count(const struct pktgen_pcap *p);

/**
 * Packets skipped at load (too long, truncated).
 *
 * @param p
 *   The file.
 * @return
 *   The count.
 */
uint32_t pktgen_pcap_skipped(const struct pktgen_pcap *p);

/**
 * The pcap of a replaying lcore.
 *
 * @param g
 *   The lcore state.
 * @return
 *   The loaded file, or NULL when @p g builds packets.
 */
struct pktgen_pcap *pktgen_lcore_pcap(const struct pktgen_lcore *g);

#ifdef __cplusplus
}
#endif

#endif /* PKTGEN_H */
