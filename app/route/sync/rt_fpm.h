/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FPM_H
#define RT_FPM_H

/**
 * @file
 * Routes from FRR zebra's Forwarding Plane Manager (dplane_fpm_nl): zebra is
 * the TCP client, the forwarder listens ([route] fpm-listen). The stream is
 * frames of a 4-byte header (version 1, type 1 = netlink, the frame's length
 * with the header, 16 bits in network order) each holding netlink messages
 * in host order:
 *
 * - RTM_NEWNEXTHOP / RTM_DELNEXTHOP: next-hop objects, kept in a table by
 *   id (rt_nexthop.h), flushed at each connect (zebra sends them all again);
 * - RTM_NEWROUTE / RTM_DELROUTE: read by rt_netlink_parse_nh(), a RTA_NH_ID
 *   resolved through that table (zebra's default) or inline RTA_GATEWAY /
 *   RTA_OIF / RTA_MULTIPATH (`no fpm use-next-hop-groups`), then applied by
 *   rt_netlink_apply_from() as source RT_SRC_FPM (`proto fpm`): the table's
 *   RCU update path, as the shell's. Routes of protocol kernel are refused
 *   (the router's connected networks come from its ports), as the netlink
 *   sync does. An encapsulated route (RTA_ENCAP on it or a hop, or NHA_ENCAP
 *   on its next-hop object or a member of its group) is refused whole
 *   (rejected: encap), logged, and withdraws the fpm route to its prefix;
 *   so does an object replaced in place by a tunnel's, for its routes;
 * - anything else (neighbours, links, ...): counted (framing.other_msg),
 *   ignored.
 *
 * Who may connect: the peers of [route] fpm-allow, by default loopback and
 * the addresses of zebra's namespace (the twins', whose thread the listener
 * enters); any other is closed at accept (refused_peers).
 *
 * One session at a time, never displaced by a connection that has said
 * nothing: a connection made while a session is live is held as a
 * candidate (candidates), read into a buffer of its own; once it has sent
 * one whole, well-formed frame it takes over (the old session is closed,
 * replaced; zebra restarted and sends at once, and the old connection, if
 * not yet seen closed, is of a zebra that is gone), and its bytes are the
 * new session's first. A candidate that sends a bad frame, closes, or says
 * nothing for @c candidate_ms is closed (candidates_dropped); a newer one
 * replaces it. When the live session ends, a candidate held takes its place.
 *
 * Mark and sweep: a connect begins a new generation; the routes applied
 * from then on are marked, and @c sweep_ms after the connect (zebra replays
 * its whole table at once when it connects) the routes of source fpm that
 * were not sent again are deleted; while the replay still streams (bytes in
 * the last 500 ms) the sweep waits, up to 10 times @c sweep_ms. A client that goes away leaves its routes
 * in place (forwarding goes on over a zebra restart); the next connection's
 * sweep removes what went meanwhile.
 *
 * A framing error (version, type, a length below a header or a netlink
 * message past its frame, a close in mid-frame) is counted by reason and
 * closes the connection: the stream cannot be trusted past it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_fpm_ctl.h"
#include "rt_netlink.h"
#include "rt_nexthop.h"
#include "rt_nlsync.h"

/** The FPM header: version, type, length (network order, header included). */
#define RT_FPM_HDR_LEN   4
#define RT_FPM_VERSION   1
#define RT_FPM_TYPE_NL   1
#define RT_FPM_FRAME_MAX 65535

/* X(SYM, "name", "what it means"): the stream's own refusals */
#define RT_FPM_REASONS(X)                                                                        \
	X(OK, "ok", "taken")                                                                     \
	X(BAD_VERSION, "bad_version", "an FPM header whose version is not 1: connection closed") \
	X(BAD_TYPE, "bad_type",                                                                  \
		"an FPM message type other than 1 (netlink; protobuf is not taken): "            \
		"connection closed")                                                             \
	X(BAD_LEN, "bad_len",                                                                    \
		"an FPM length below its header and a netlink header: connection closed")        \
	X(NL_LEN, "nl_len",                                                                      \
		"a netlink message below its header or past its frame: connection closed")       \
	X(TRUNCATED, "truncated", "the connection closed in the middle of a frame")              \
	X(OTHER_MSG, "other_msg", "a netlink message neither route nor next hop: ignored")

/** Why the stream was refused (RT_FPM_OK: it was not). */
enum rt_fpm_reason {
#define RT_FPM_ENUM(sym, name, desc) RT_FPM_##sym,
	RT_FPM_REASONS(RT_FPM_ENUM)
#undef RT_FPM_ENUM
		RT_FPM_REASON_MAX
};

/** The counter-style name of @p why ("bad_len"), "?" when out of range. */
const char *rt_fpm_reason_name(enum rt_fpm_reason why);

/** One line saying what @p why means, "?" when out of range. */
const char *rt_fpm_reason_desc(enum rt_fpm_reason why);

/**
 * The frame at the start of @p buf (@p len bytes there).
 *
 * @return its length (header included) when it is all there, 0 when more
 *   bytes are needed, or -RT_FPM_BAD_VERSION / -RT_FPM_BAD_TYPE /
 *   -RT_FPM_BAD_LEN.
 */
int rt_fpm_frame(const void *buf, size_t len);

/**
 * Check that the @p len bytes at @p nl (a frame's payload, 4-aligned) are
 * whole netlink messages, one after another.
 *
 * @return RT_FPM_OK or RT_FPM_NL_LEN.
 */
enum rt_fpm_reason rt_fpm_frame_check(const void *nl, size_t len);

/** The counters (see rt_fpm_counters() for what each means). */
struct rt_fpm_stats {
	uint64_t connects;      /**< clients accepted */
	uint64_t replaced;      /**< connections closed for a newer one */
	uint64_t disconnects;   /**< connections that ended (closed, framing error, replaced) */
	uint64_t refused_peers; /**< connections from peers not allowed, closed at once */
	uint64_t candidates;    /**< connections held while a session was live */
	uint64_t candidates_dropped; /**< candidates closed before a valid frame */
	uint64_t logs_suppressed;    /**< log lines left out (rate limit, rt_lograte.h) */
	uint64_t frames;
	uint64_t received;   /**< route messages */
	uint64_t applied;    /**< route messages applied */
	uint64_t unresolved; /**< routes whose RTA_NH_ID is not in the next-hop table */
	uint64_t nh_received;
	uint64_t nh_applied;
	uint64_t nexthops;    /**< objects in the table now */
	uint64_t nh_moved;    /**< routes moved by a next-hop object replaced in place */
	uint64_t resyncs;     /**< sweeps done */
	uint64_t swept;       /**< stale fpm routes the sweeps deleted */
	uint64_t last_marked; /**< routes marked by the last sweep's connection */
	uint64_t framing[RT_FPM_REASON_MAX];
	uint64_t rejected[RT_NL_REASON_MAX];
	uint64_t refused[RT_NLSYNC_REFUSAL_MAX];
	uint64_t nh_rejected[RT_NH_REASON_MAX];
};

/** Copy the counters into @p st (any thread; each a single aligned read). */
void rt_fpm_stats_get(const struct rt_fpm *f, struct rt_fpm_stats *st);

/**
 * Take @p len bytes as read from the client (the thread does this; the
 * fuzzer too, on a listener never started): frames cut and checked, their
 * messages applied. Bytes of an unfinished frame are kept for the next call.
 *
 * @return 0, or -EPROTO after a framing error (counted; the connection is to
 *   be closed and the bytes kept are dropped).
 */
int rt_fpm_feed(struct rt_fpm *f, const void *bytes, size_t len);

/**
 * A new connection begins, as rt_fpm_feed()'s caller sees it: the bytes kept
 * and the next-hop objects are dropped, the marks start afresh.
 */
void rt_fpm_session_begin(struct rt_fpm *f);

/**
 * The sweep the thread runs @c sweep_ms after a connect (tests call it
 * directly): the fpm routes not sent since rt_fpm_session_begin() are
 * deleted, and the listener forgets every route it no longer holds.
 */
void rt_fpm_sweep(struct rt_fpm *f);

/**
 * How many routes the listener remembers the next-hop object of (tests):
 * never more than the fpm routes of the table after a sweep.
 */
uint32_t rt_fpm_nh_routes(const struct rt_fpm *f);

#endif /* RT_FPM_H */
