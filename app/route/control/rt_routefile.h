/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ROUTEFILE_H
#define RT_ROUTEFILE_H

/**
 * @file
 * Route and neighbour files as Linux prints them, so that a table dumped
 * with `ip -4 route show` / `ip -4 neigh show` (or BIRD's or FRR's exported
 * to the kernel and dumped the same way) loads as it is. Parsing needs no
 * EAL and allocates nothing per line: the reader hands each route or
 * neighbour to the caller's sink (rt_fileload.h puts them into a table).
 *
 * Route lines, one route each (attributes in any order):
 *
 *	PREFIX via GW [dev PORT] [proto X] [metric N] [scope S] [src A] [onlink] ...
 *	default via GW ...                     0.0.0.0/0
 *	A.B.C.D via GW                         a bare address is a /32
 *	PREFIX dev PORT ...                    on-link (ARP for each destination)
 *	blackhole PREFIX ...                   dropped, counted
 *	unreachable PREFIX ... / prohibit PREFIX ...   ICMP unreachable (the table's reject)
 *	PREFIX proto bgp metric 20             multipath: the next hops follow on
 *		nexthop via GW [dev PORT] weight 1     continuation lines (or inline)
 *
 * PORT is a port number or the port's DPDK name (net_pcap0, 0000:01:00.0),
 * which the sink's resolver turns into a number. Weights other than 1 are
 * accepted with one warning per file: the table spreads flows evenly, and a
 * dump that loads with equal weights forwards where one refused would not.
 * proto, metric, scope, src, table and the other attributes `ip route`
 * prints are read and ignored; an attribute this reader does not know is
 * ignored too, with ONE warning per file (its first file:line), and so is
 * the word after it unless that word is an attribute we know (`ip route`
 * prints most attributes as "name value").
 *
 * Neighbour lines: `IP dev PORT lladdr MAC [router] [proxy] STATE`. Every
 * state with a MAC (PERMANENT, REACHABLE, STALE, DELAY, PROBE, NOARP, ...)
 * becomes a static entry; lines without lladdr, FAILED and INCOMPLETE ones
 * (the kernel no longer trusts their MAC) and IPv6 lines (a plain
 * `ip neigh show`) are skipped and counted.
 *
 * A route with `encap` (MPLS, IP-in-IP, SRv6, ...) is refused: sent as a
 * plain route it would leave without its encapsulation. A word given twice
 * (via, dev, lladdr) is refused: neither is guessed.
 *
 * In both, '#' starts a comment line, blank lines are skipped, CRLF endings
 * are fine (the CR does not count in RT_RF_LINE_MAX). Every refusal is
 * "file:line: reason".
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ether.h>

#include "rt_table.h"

/** Longest line read (a longer one is an error, and is skipped). */
#define RT_RF_LINE_MAX 1024

/** One route read from a file. */
struct rt_rf_route {
	uint32_t prefix;
	uint8_t plen;
	uint8_t kind;   /**< enum rt_route_kind: VIA, DEV, BLACKHOLE or REJECT */
	bool multipath; /**< VIA from "nexthop" words, even one (the table sees a via either way) */
	uint8_t n_hops; /**< VIA: 1..RT_ECMP_MAX */
	int port;       /**< DEV: the port; VIA: see hops[].port */
	unsigned int line; /**< the route's (first) line */
	struct rt_hop hops[RT_ECMP_MAX];
};

/** One neighbour read from a file. */
struct rt_rf_neigh {
	uint32_t ip;
	int port; /**< -1 when the line names no dev */
	struct rte_ether_addr mac;
	unsigned int line;
};

/** What the reader does with what it reads. Every callback may be NULL. */
struct rt_rf_sink {
	/** Take a route: 0, or a negative errno with @p err set (the line is bad). */
	int (*route)(void *arg, const struct rt_rf_route *r, char *err, size_t errlen);
	/** Take a neighbour: 0, or a negative errno with @p err set. */
	int (*neigh)(void *arg, const struct rt_rf_neigh *n, char *err, size_t errlen);
	/** A port name (not a number) to its port id, or a negative errno. */
	int (*dev)(void *arg, const char *name);
	/**
	 * A bad line, @p msg "file:line: reason", @p code its -errno: return 0
	 * to read on, negative to stop. NULL: stop at the first.
	 */
	int (*error)(void *arg, const char *msg, int code);
	/** A warning ("file:line: ..."): at most one of each kind per file. */
	void (*warn)(void *arg, const char *msg);
	/**
	 * Asked between reads (and every 100 ms while a pipe is quiet): true
	 * stops the load with -EINTR, so a signal ends a load from a pipe
	 * whose writer never closes it. NULL: never.
	 */
	bool (*cancelled)(void *arg);
	/**
	 * A pipe quiet this long, in ms (no writer has opened it yet, or its
	 * writer sends nothing), ends the load with -ETIMEDOUT: the shell's
	 * bound. 0: wait for ever (until cancelled()), as the start-up does.
	 */
	unsigned int pipe_wait_ms;
	void *arg;
};

/** What a read did. */
struct rt_rf_counts {
	uint32_t lines;   /**< lines read (incl. comments and continuation lines) */
	uint32_t taken;   /**< routes or neighbours the sink took */
	uint32_t skipped; /**< neighbour lines skipped by rule (no MAC, FAILED, IPv6) */
	uint32_t errors;  /**< bad lines */
};

/**
 * Read the route file @p path into @p sink. @p path is a regular file or a
 * pipe: a pipe no writer has opened yet is waited on (said once through
 * warn()), then read until its writer closes it; a device, a socket or a directory
 * is refused before anything is read, and a NUL byte ends the read: neither
 * /dev/zero nor a disk image is read on for ever.
 *
 * @return 0 when every line was good; else the first bad line's -errno
 *   (the sink's error callback saw every one until it said stop), the
 *   -errno of a file that cannot be read (-ENOENT, -EISDIR, -EINVAL for
 *   another kind of file, -EILSEQ for binary data), -EINTR when the
 *   sink's cancelled() said stop, or -ETIMEDOUT when a pipe was quiet for
 *   the sink's pipe_wait_ms.
 */
int rt_routefile_load(const char *path, const struct rt_rf_sink *sink, struct rt_rf_counts *c);

/**
 * rt_routefile_load() on @p len bytes of @p text (tests, the fuzzer);
 * @p name stands for the file name in messages.
 */
int rt_routefile_parse(const char *name, const char *text, size_t len,
	const struct rt_rf_sink *sink, struct rt_rf_counts *c);

/** Read the neighbour file @p path into @p sink; returns as rt_routefile_load(). */
int rt_neighfile_load(const char *path, const struct rt_rf_sink *sink, struct rt_rf_counts *c);

/** rt_neighfile_load() on @p len bytes of @p text. */
int rt_neighfile_parse(const char *name, const char *text, size_t len,
	const struct rt_rf_sink *sink, struct rt_rf_counts *c);

#endif /* RT_ROUTEFILE_H */
