/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef PKTGEN_PRIV_H
#define PKTGEN_PRIV_H

/* Shared by the .c files of lib/pktgen; not installed, not part of the API. */

#include <rte_log.h>

#include "pktgen.h"

extern int pktgen_logtype;

#define PKTGEN_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_##level, pktgen_logtype, "pktgen: " fmt "\n", ##__VA_ARGS__)

/* A pcap replay gets this far behind (a stall) before its clock is moved on. */
#define PKTGEN_REPLAY_MAX_LAG_US 100

/** Payload byte at offset q from the start of the L4 payload. */
uint8_t pktgen_pattern_byte(const struct pktgen_stream_cfg *cfg, uint32_t q);

/** A 64-bit mix (splitmix64 finaliser) for seeded per-flow values. */
uint64_t pktgen_splitmix(uint64_t x);

/** Value of a range field for global flow @p flow; @p field tells the fields apart. */
uint32_t pktgen_flow_field(
	const struct pktgen_range *r, uint32_t flow, uint32_t seed, unsigned int field);

/** Set the token bucket for @p pps (0: unpaced) with @p slack packets of catch-up. */
int pktgen_pace_init(struct pktgen_lcore *g, double pps, uint16_t slack);

/** Set the replay parameters of g->pcap from @p cfg. */
void pktgen_replay_init(struct pktgen_lcore *g, const struct pktgen_stream_cfg *cfg);

/** Start the replay over from the first packet. */
void pktgen_replay_rewind(struct pktgen_lcore *g);

/** Chunks of FRAGPOOL_CHUNK_SIZE the templates of @p g take (0: a template does not fit). */
uint32_t pktgen_tmpl_chunks(const struct pktgen_lcore *g);

/** Build g->pool from fragments of g->fp and fill its templates (owner lcore only); 0 or -errno. */
int pktgen_tmpl_build(struct pktgen_lcore *g);

/** If every template is back in g->pool (or there is none), free it: its fragments go back. */
bool pktgen_tmpl_release(struct pktgen_lcore *g);

/** Fragment bytes of a fragpool mbuf with @p data bytes of data room (headroom apart). */
static inline uint32_t
pktgen_mbuf_frag(uint32_t data)
{
	return (uint32_t)sizeof(struct rte_mbuf) + RTE_PKTMBUF_HEADROOM + data;
}

/** Chunks a fragpool needs for the loaded packets' mbufs, carved in order. */
uint32_t pktgen_pcap_chunks(const struct pktgen_pcap *p);

/** Build the loaded packets' mbufs from @p fp (its owner lcore only); 0 or -errno. */
int pktgen_pcap_build(struct pktgen_pcap *p, struct fragpool *fp);

/** Drop our reference to every loaded packet's mbuf (the ports free what they hold). */
void pktgen_pcap_release(struct pktgen_pcap *p);

#endif /* PKTGEN_PRIV_H */
