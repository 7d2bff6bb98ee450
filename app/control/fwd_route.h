/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_ROUTE_H
#define FWD_ROUTE_H

/**
 * @file
 * The app's side of --fwd route: it builds the router (app/route/) from the
 * configuration, gives every worker its routing context, runs the slow path
 * on a control thread with its own TX queue on every port, and reports the
 * router's counters: the "route" component (fwd_route.c), set up in --fwd
 * route only.
 */

#include <stdbool.h>
#include <stdio.h>

#include <cmdline_parse.h>

#include "fwd_app.h"
#include "fwd_component.h"
#include "rt_control.h"

/**
 * The router's place among the components (fwd_component.h): it is set up
 * after the ports have started; the route syncs come after it (they write
 * into its table) and so are released before the table goes.
 */
#define FWD_ROUTE_ORDER 100

/**
 * A part of the router (the flow stage, the kernel twins): set up inside the
 * router's set-up, once the workers have their routing contexts and before
 * the slow path runs (it may give itself to @p ctl: the control thread
 * starts polling once set-up is over), and released inside its release, once
 * the slow path has stopped and before the table goes. Each registers itself
 * from its own file with FWD_ROUTE_PART_REGISTER(), so the router names none
 * (a part includes this header; the router includes no part's). Every hook
 * is optional; they run on the main lcore.
 */
struct fwd_route_part {
	const char *name; /**< for logs: "flow", "twin" */
	/** Set-up goes up the order, release and free down it. */
	unsigned int order;
	/** -errno and @p err on failure (the router's set-up then fails). */
	int (*setup)(struct fwd_app *app, struct rt_control *ctl, char *err, size_t errlen);
	/** The slow path stopped and no longer uses it; the table still exists. */
	void (*release)(struct fwd_app *app);
	/** Free what set-up made; holds for a part never set up. */
	void (*free)(struct fwd_app *app);
	/** Its lines after the router's in the statistics. */
	void (*print)(const struct fwd_app *app, FILE *f);
	/** Its members after the router's in the stats file: each `"key": value,`. */
	void (*json)(const struct fwd_app *app, FILE *f);
};

/** The parts the router can hold; a registration beyond them stops the program. */
#define FWD_ROUTE_PARTS_MAX 8

/** Add @p p to the router's parts, in order. From a constructor: FWD_ROUTE_PART_REGISTER(). */
void fwd_route_part_register(const struct fwd_route_part *p);

/** Register @p part (a struct fwd_route_part) when the program loads. */
#define FWD_ROUTE_PART_REGISTER(part)             \
	RTE_INIT(fwd_route_part_register_##part)  \
	{                                         \
		fwd_route_part_register(&(part)); \
	}

/**
 * The router's shell commands (fwd_route_cmds.c), NULL-terminated: route
 * add|replace|del|load|flush, show route ..., neigh add|del|show|load.
 */
extern cmdline_parse_ctx_t fwd_route_cmds[];

/**
 * How many telemetry endpoints the router has (fwd_route_tel[]): counted
 * here for the component in fwd_route.c, checked where they are defined.
 */
#define FWD_ROUTE_N_TEL 3

/**
 * The router's telemetry endpoints (fwd_route_tel.c): /forwarder/routes,
 * /forwarder/route_summary and /forwarder/router.
 */
extern const struct fwd_tel_endpoint fwd_route_tel[];

/** The router's table; NULL outside --fwd route (or before its set-up made it). */
struct rt_table *fwd_route_table(const struct fwd_app *app);

/** Drops of reason @p r decided by the slow path (0 for non-router reasons). */
uint64_t fwd_route_ctl_drops(const struct fwd_app *app, enum fwd_drop_reason r);

/** Slow-path counter @p c (0 outside route mode). */
uint64_t fwd_route_ctl_counter(const struct fwd_app *app, enum rt_ctl_counter c);

/** Frames lcore @p lc handed to the slow path (every exception); 0 outside route mode. */
uint64_t fwd_route_punted(const struct fwd_lcore *lc);

/** Bad lines route load / neigh load print at most (the rest are counted). */
#define FWD_ROUTE_LOAD_MAX_ERRORS 10

/**
 * How long route load / neigh load wait on a quiet pipe (ms): for a writer
 * to open it, then between the writer's bytes. The shell is the forwarder's
 * only prompt: a pipe nobody writes must not take it for ever. (The
 * start-up's routes-file waits without a bound: SIGINT/SIGTERM end it.)
 */
#define FWD_ROUTE_LOAD_PIPE_WAIT_MS 10000

/**
 * The shell's route load / neigh load: every good line of the route file
 * (or the neighbour file, @p neigh) @p path into the table, the first
 * FWD_ROUTE_LOAD_MAX_ERRORS bad lines printed on @p out ("file:line:
 * reason"), then "N routes loaded from PATH" and how many lines were bad.
 * A port's DPDK name works as a dev. A pipe is waited on for its writer and
 * read to its close, each wait bounded by FWD_ROUTE_LOAD_PIPE_WAIT_MS. What
 * the file holds is quoted escaped (fwd_escape()).
 *
 * @return 0 when every line was good, else the first bad line's -errno.
 */
int fwd_route_load_file(struct fwd_app *app, const char *path, bool neigh, FILE *out);

/** Print the routing table, one route per line, as "show route" does. */
void fwd_route_show(struct fwd_app *app, FILE *f);

/**
 * Print, in order, the routes inside @p prefix/@p plen (itself included).
 *
 * @return how many were printed.
 */
uint32_t fwd_route_show_within(struct fwd_app *app, FILE *f, uint32_t prefix, uint8_t plen);

/**
 * Print the route of @p prefix/@p plen (@p exact), or the one the address
 * @p prefix takes (longest match).
 *
 * @return 0, or -ENOENT after printing that there is none.
 */
int fwd_route_show_one(struct fwd_app *app, FILE *f, uint32_t prefix, uint8_t plen, bool exact);

/** Print route counts (by kind, by prefix length), next hops, tbl8 groups and memory. */
void fwd_route_show_summary(struct fwd_app *app, FILE *f);

#endif /* FWD_ROUTE_H */
