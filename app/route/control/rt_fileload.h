/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FILELOAD_H
#define RT_FILELOAD_H

/**
 * @file
 * Route and neighbour files (rt_routefile.h) into a table: the config's
 * routes-file / neigh-file keys at start-up (stop at the first bad line, so
 * the forwarder does not run on half a table), the shell's route load /
 * neigh load (every good line loaded, the bad ones told: a user loading a
 * dump wants the rest of it, and every line to fix).
 *
 * Every route goes through rt4_route_set() (a "nexthop" route of one hop is
 * a via route); a neighbour line's dev, when given, must be the port whose
 * network holds the address.
 */

#include <stdio.h>

#include "rt_routefile.h"
#include "rt_table.h"

/** How one load goes. */
struct rt_fileload {
	struct rt_table *t;
	/** A port name (not a number) to its id, or a negative errno; NULL: numbers only. */
	int (*dev)(void *arg, const char *name);
	void *dev_arg;
	/** Bad lines and warnings are printed here, one a line; NULL: logged. */
	FILE *out;
	/**
	 * 0: stop at the first bad line. N: read every line, print the first N
	 * bad ones (counts.errors has them all).
	 */
	unsigned int max_errors;
	/** The load stops (-EINTR) when this turns true (a signal); NULL: never. */
	const volatile bool *quit;
	/** A pipe quiet this long (ms) ends the load, -ETIMEDOUT; 0: wait for ever. */
	unsigned int pipe_wait_ms;
	/**
	 * Makes a message safe for a terminal before it is printed or kept in
	 * err (fwd_escape(): a file's bytes that are not printable ASCII as
	 * \xNN); NULL: as it is.
	 */
	size_t (*escape)(char *dst, size_t len, const char *src, int keep_lines);
	char *err; /**< the first bad line's "file:line: reason" (may be NULL) */
	size_t errlen;
	struct rt_rf_counts counts; /**< of the last file loaded */
};

/**
 * Load the route file @p path into @p l->t.
 *
 * @return 0 when every line was good, else the first bad line's -errno
 *   (l->err says it); l->counts.taken routes are in the table either way.
 */
int rt_fileload_routes(struct rt_fileload *l, const char *path);

/** Load the neighbour file @p path into @p l->t as static entries; as rt_fileload_routes(). */
int rt_fileload_neigh(struct rt_fileload *l, const char *path);

/**
 * The route of @p r into @p t (what rt_fileload_routes() does with each).
 *
 * @return 0 or a negative errno with @p err set.
 */
int rt_fileload_route(struct rt_table *t, const struct rt_rf_route *r, char *err, size_t errlen);

#endif /* RT_FILELOAD_H */
