/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_LOGRATE_H
#define RT_LOGRATE_H

/**
 * @file
 * A token bucket for a sync's log lines (the FPM listener's connections, the
 * encapsulated routes both syncs refuse): a peer that connects in a loop, or
 * a table of thousands of refused routes, must not fill the log, nor block
 * the sync's thread on a terminal nobody reads. RT_LOGRATE_BURST lines at
 * once, then RT_LOGRATE_PER_S a second; a line left out is counted, the next
 * line let through is preceded by one saying how many were, and
 * rt_lograte_flush() says what is still unsaid (at the sync's stop). One
 * thread's: not thread safe.
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#define RT_LOGRATE_BURST 20 /**< lines in a burst, */
#define RT_LOGRATE_PER_S 2  /**< then this many a second */

/** A bucket; rt_lograte_init() before use. */
struct rt_lograte {
	const char *who;   /**< the prefix of its lines ("fpm", "netlink") */
	struct timespec t; /**< the bucket last filled */
	uint32_t tokens;   /**< lines that may be written now */
	uint64_t held;     /**< lines left out since the last one written */
};

/** A full bucket for lines prefixed @p who (a string that outlives it). */
void rt_lograte_init(struct rt_lograte *l, const char *who);

/**
 * May a line be written now? When it may and lines were left out before
 * it, one line saying how many is written first.
 *
 * @return true to write the line, false when it is left out (counted).
 */
bool rt_lograte_ok(struct rt_lograte *l);

/** Say how many lines are left out and not yet said, if any (one line). */
void rt_lograte_flush(struct rt_lograte *l);

#endif /* RT_LOGRATE_H */
