/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_TEL_PAGE_H
#define FWD_TEL_PAGE_H

/**
 * @file
 * Telemetry replies sized by bytes. DPDK 22.11 writes a reply into a 16 KiB
 * buffer and silently leaves out every dict entry that does not fit, so a
 * page counted in entries (128 routes) loses entries when they are long (a
 * 16-hop ECMP route is ~800 bytes of JSON). An endpoint that lists a table
 * keeps a budget: it adds an entry only when its JSON fits what is left,
 * stops at the first that does not, and says where the next page starts.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fwd_app;
struct fwd_lcore;
struct rte_tel_data;

/** The reply buffer of DPDK 22.11's telemetry (MAX_OUTPUT_LEN in telemetry.c, not exported). */
#define FWD_TEL_REPLY_MAX 16384

/** Bytes reserved for each u64 entry of a page's head (",\"key\":" and 20 digits). */
#define FWD_TEL_HEAD_ENTRY 48

/** What a reply still holds. */
struct fwd_tel_page {
	size_t left;          /**< bytes of JSON */
	unsigned int entries; /**< top-level dict entries (RTE_TEL_MAX_DICT_ENTRIES in all) */
};

/**
 * Start the budget of the reply to @p cmd (the command without its
 * parameter), keeping room for @p head u64 entries (total, count, next...)
 * added after the listed ones.
 */
void fwd_tel_page_init(struct fwd_tel_page *pg, const char *cmd, unsigned int head);

/**
 * JSON bytes of the string @p s as a value (quoted, escaped, as the library
 * cuts it at RTE_TEL_MAX_STRING_LEN - 1 characters) and the comma after it.
 */
size_t fwd_tel_str_bytes(const char *s);

/** JSON bytes of a dict key @p key: the comma before, quotes and colon. */
size_t fwd_tel_key_bytes(const char *key);

/** JSON bytes of a u64 dict entry @p key: @p v, with its comma. */
size_t fwd_tel_u64_bytes(const char *key, uint64_t v);

/**
 * Take @p bytes (one top-level dict entry) from the budget.
 *
 * @return true when they fit (taken), false when not (nothing taken: the
 *   entry must not be added, and the page ends before it).
 */
bool fwd_tel_page_take(struct fwd_tel_page *pg, size_t bytes);

/**
 * A telemetry parameter that must be a decimal number from 0 to @p max: no
 * sign, no spaces, no hex, nothing after it (strtoul() would take "-1" as
 * ULONG_MAX and "7x" as 7). 0 and @p v set, or -EINVAL.
 */
int fwd_tel_param_uint(const char *params, uint64_t max, uint64_t *v);

/** Add the u64 @p v under @p key to the dict @p d, its JSON bytes added to @p bytes. */
void fwd_tel_u64(struct rte_tel_data *d, size_t *bytes, const char *key, uint64_t v);

/**
 * Fill the dict @p one with worker @p lc's counters (by fwd_tel_u64(), so
 * that @p bytes counts them); false: this worker has none (not listed).
 */
typedef bool (*fwd_tel_lcore_fill)(
	struct rte_tel_data *one, const struct fwd_lcore *lc, size_t *bytes);

/** The head entries fwd_tel_lcore_page() adds after the workers: start, count, more, next. */
#define FWD_TEL_LCORES_TAIL 4

/**
 * A per-worker endpoint's page: the dicts "lcore<N>" that @p fill makes of
 * @p app's workers from index @p start, as many as @p pg holds, then
 * "start", "count" (workers on this page), "more" and "next" (the index of
 * the first worker not on it). With 127 workers the dicts of one reply
 * overflow 16 KiB: a client pages by "next". @p app must stay live
 * meanwhile (the telemetry lock held).
 */
void fwd_tel_lcore_page(const struct fwd_app *app, struct rte_tel_data *d, struct fwd_tel_page *pg,
	uint64_t start, fwd_tel_lcore_fill fill);

#endif /* FWD_TEL_PAGE_H */
