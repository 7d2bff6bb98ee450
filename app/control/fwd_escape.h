/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_ESCAPE_H
#define FWD_ESCAPE_H

/**
 * @file
 * Messages that quote what a user wrote (a config line, an option value, a
 * shell command) go to a terminal: a byte that is not printable ASCII could
 * be an escape sequence that rewrites the screen, or garbage from a binary
 * file. Every such byte is written as \\xNN instead.
 */

#include <stddef.h>
#include <stdio.h>

#include <rte_common.h>

/**
 * Copy @p src into @p dst (@p len bytes, always NUL-terminated, cut short
 * if it does not fit) with every byte outside printable ASCII written as
 * "\xNN"; a newline and a tab stay when @p keep_lines is non-zero.
 *
 * @return the length of the result.
 */
size_t fwd_escape(char *dst, size_t len, const char *src, int keep_lines);

/**
 * printf() to @p f with the formatted text escaped as by fwd_escape() (lines
 * and tabs kept): for shell output that quotes what was typed.
 */
void fwd_fprintf_escaped(FILE *f, const char *fmt, ...) __rte_format_printf(2, 3);

/** Print "dpdk-forwarder: error: <escaped message>" and a newline on stderr. */
void fwd_err_print(const char *fmt, ...) __rte_format_printf(1, 2);

#endif /* FWD_ESCAPE_H */
