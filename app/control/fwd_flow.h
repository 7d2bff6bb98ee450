/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_FLOW_H
#define FWD_FLOW_H

/**
 * @file
 * The app's side of the flow stage of --fwd route (app/route/datapath/rt_burst.h, rt_flowtable.h): one
 * flow table and flowsort state per worker, the filter from the [filter]
 * section, their counters in the stats and the stats file, and the data of
 * the shell's "show flows" and "filter" commands.
 */

#include <stdint.h>
#include <stdio.h>

#include "fwd_app.h"
#include "rt_flow_ctl.h"

/**
 * The flow stage's place among the components (fwd_component.h): after the
 * router (FWD_ROUTE_ORDER), whose set-up builds it, before the route syncs.
 */
#define FWD_FLOW_ORDER 105

/** The flow component's context (fwd_component.h): the filter (the flow stages are the workers'). */
struct fwd_flow_ctx {
	struct rt_acl *acl; /**< the [filter] rules, or NULL outside --fwd route */
};

/** The flow stage's context in @p app (the component's, fwd_flow_cmds.c). */
struct fwd_flow_ctx *fwd_flow_ctx(const struct fwd_app *app);

/** Flows listed by fwd_flow_print() and put in the stats file. */
#define FWD_FLOW_TOP_STATS 10

/**
 * Create the filter with the [filter] rules and every worker's flow stage
 * (flowsort = on|off|auto from the [forward] section). The router's part
 * (fwd_route.h): its set-up calls it once the workers have their routing
 * contexts.
 *
 * @return 0, or a negative errno with @p err set.
 */
int fwd_flow_setup(struct fwd_app *app, char *err, size_t errlen);

/** The table and filter are going away: keep the flows readable for the final stats. */
void fwd_flow_detach(struct fwd_app *app);

/** Free the flow stages and the filter. */
void fwd_flow_free(struct fwd_app *app);

/** Flow-stage counters, the top flows and the filter's counters, for the stats print. */
void fwd_flow_print(const struct fwd_app *app, FILE *f);

/** The same as a "flows" member of the stats file (with its trailing comma). */
void fwd_flow_json(const struct fwd_app *app, FILE *f);

/**
 * "show flows [top N] [bytes]": the @p n biggest flows over all workers by
 * packets (or bytes), one per line.
 */
void fwd_flow_show(const struct fwd_app *app, FILE *f, unsigned int n, enum rt_flow_order by);

/**
 * Insert a filter rule ("permit"/"deny", then the match) before position
 * @p pos (UINT32_MAX: last), while forwarding or not.
 *
 * @return 0, or a negative errno with @p err set.
 */
int fwd_flow_filter_add(struct fwd_app *app, const char *action, const char *match, uint32_t pos,
	char *err, size_t errlen);

/**
 * Delete the filter rule at position @p pos.
 *
 * @return 0, or a negative errno with @p err set.
 */
int fwd_flow_filter_del(struct fwd_app *app, uint32_t pos, char *err, size_t errlen);

/**
 * "set flowsort on|off|auto": change every worker's flowsort mode. Only while
 * forwarding is stopped (a queue's mode belongs to the lcore that polls it).
 *
 * @return 0, or -EBUSY / -ENODEV with @p err set.
 */
int fwd_flow_set_mode(struct fwd_app *app, enum flowsort_mode mode, char *err, size_t errlen);

/**
 * "set flow-table on|off|auto": change when every worker runs its flow
 * stage (rt_flow_wanted()). Only while forwarding is stopped. flow-table =
 * off is refused while the filter has rules or flowsort is on (both live in
 * the flow stage).
 *
 * @return 0, or -EBUSY / -ENODEV / -EINVAL with @p err set.
 */
int fwd_flow_set_table(
	struct fwd_app *app, enum rt_flow_table_mode table, char *err, size_t errlen);

struct rte_tel_data;
struct fwd_tel_page;

/**
 * The /forwarder/flows telemetry answer into the dict @p d: "flowsort" (the
 * mode), "flow_table" (the key), "in_use" (whether the workers run the flow
 * stage; 0: "off" says why and how to turn it on, and no counters follow
 * but "start", "count" 0 and "more" 0), per worker "lcore<N>" (entries and the flow-stage and flowsort
 * counters, as in the stats file) from the @p start-th flow table, as many as
 * @p pg holds, then "start", "count", "more" and "next" (the first table not
 * sent); on the first page (@p start 0) the FWD_FLOW_TOP_STATS biggest flows
 * by packets (or bytes if @p by says so) as "top0", "top1", ...
 * Called with the app alive (the telemetry lock held).
 *
 * @return 0, or -ENODEV when not routing (nothing added but "flowsort").
 */
int fwd_flow_telemetry(const struct fwd_app *app, struct rte_tel_data *d, enum rt_flow_order by,
	struct fwd_tel_page *pg, uint32_t start);

/**
 * The /forwarder/filter telemetry answer into the dict @p d: "rules" (how
 * many there are), then each filter rule from the @p start-th, as many as
 * @p pg holds, as "rule<N>" (N its position, as `filter show` numbers it):
 * {"rule": its text, "pkts": packets it decided}, the stats file's
 * flows.filter[]; then "start", "count", "more" and "next" (the first rule
 * not sent). Called with the app alive (the telemetry lock held).
 *
 * @return 0, or -ENODEV when not routing (nothing added).
 */
int fwd_flow_filter_telemetry(
	const struct fwd_app *app, struct rte_tel_data *d, struct fwd_tel_page *pg, uint32_t start);

/**
 * Zero every worker's flow-stage counters, its flows' packets and bytes and
 * the filter rules' counts ("clear fwd stats"). Workers must be stopped.
 */
void fwd_flow_stats_reset(struct fwd_app *app);

/** "filter show": the rules in order with their packet counters. */
void fwd_flow_filter_show(const struct fwd_app *app, FILE *f);

#endif /* FWD_FLOW_H */
