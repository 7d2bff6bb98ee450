/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_CMDS_H
#define FWD_CMDS_H

/**
 * @file
 * The shell's command table: rte_cmdline instructions whose help strings are
 * "usage: description", the single source of the shell reference. The core's
 * commands are fwd_cmds.c's; a component's are its own (fwd_component.h),
 * which share the helpers below with them.
 */

#include <stdint.h>
#include <stdio.h>

#include <cmdline_parse.h>
#include <rte_ethdev.h>

#include "fwd_app.h"
#include "fwd_escape.h"

struct rt_table;

/** The NULL-terminated instruction list, bound to @p app. */
cmdline_parse_ctx_t *fwd_cmds_ctx(struct fwd_app *app);

/**
 * Print every command's usage, one per line (the "help" command): the list
 * fwd_cmds_ctx() built, nothing before it.
 */
void fwd_cmds_help(FILE *f);

/** What fwd_cmds_port_arg() gives for "all": no port id is this. */
#define FWD_CMDS_ALL_PORTS RTE_MAX_ETHPORTS

/**
 * Print a command's answer on stdout, escaped as fwd_fprintf_escaped() does:
 * for output that quotes what was typed (a byte that is not printable goes
 * out as \xNN, so a typed escape sequence cannot drive the terminal).
 */
#define fwd_cmds_say(...) fwd_fprintf_escaped(stdout, __VA_ARGS__)

/**
 * Parse a command's "<port>|all" argument @p s: a port of @p app into
 * @p port, or FWD_CMDS_ALL_PORTS for "all".
 *
 * @return 0, or -EINVAL after printing why (the ports there are).
 */
int fwd_cmds_port_arg(const struct fwd_app *app, const char *s, uint16_t *port);

/**
 * The router's table, for a command that needs one: NULL after printing
 * "not routing: start the forwarder with --fwd route" when there is none.
 */
struct rt_table *fwd_cmds_router(const struct fwd_app *app);

#endif /* FWD_CMDS_H */
