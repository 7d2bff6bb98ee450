/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_SUGGEST_H
#define FWD_SUGGEST_H

/**
 * @file
 * "Did you mean": the nearest known name to a mistyped one, for the command
 * line's unknown options and the shell's unknown commands.
 */

#include <stddef.h>

/** Edit distance (insertions, deletions, substitutions) between two strings. */
unsigned int fwd_edit_distance(const char *a, const char *b);

/**
 * Is @p cand close enough to @p typed to be suggested, and nearer than *best_d?
 * Updates *best and *best_d when it is.
 */
void fwd_suggest_consider(
	const char *typed, const char *cand, const char **best, unsigned int *best_d);

#endif /* FWD_SUGGEST_H */
