/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_CFGFILE_H
#define FWD_CFGFILE_H

/**
 * @file
 * A small INI reader that keeps line numbers.
 *
 * rte_cfgfile does not say which line of a file is wrong, and a user who
 * mistyped a key deserves "file:line: what". Syntax: "[section]" lines,
 * "key = value" lines, '#' or ';' comments on their own line or after
 * whitespace, blank lines. Keys outside a section are an error.
 */

#include <stddef.h>

#define FWD_CFG_LINE_MAX 1024

/**
 * Called for every key: return 0 to go on, or a negative errno after writing
 * the reason into @p err (the reader prefixes "file:line: ").
 */
typedef int (*fwd_cfgfile_cb)(void *arg, const char *section, const char *key, const char *value,
	char *err, size_t errlen);

/**
 * Inside a callback: "file:line" of the key being handled, for a caller that
 * keeps the value and can only find it wrong later (say, a port that does not
 * exist until EAL has probed the devices). Empty outside a callback.
 */
const char *fwd_cfgfile_where(void);

/**
 * Read @p path and call @p cb for each key in order.
 *
 * @return 0, or a negative errno with @p err set to "path:line: what"
 *   (or "path: what" when the file cannot be opened).
 */
int fwd_cfgfile_load(const char *path, fwd_cfgfile_cb cb, void *arg, char *err, size_t errlen);

/**
 * Same as fwd_cfgfile_load() on an in-memory text (used by tests and the
 * fuzzer); @p name stands for the file name in messages.
 */
int fwd_cfgfile_parse(const char *name, const char *text, size_t len, fwd_cfgfile_cb cb, void *arg,
	char *err, size_t errlen);

#endif /* FWD_CFGFILE_H */
