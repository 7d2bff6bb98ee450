/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_SHELL_H
#define FWD_SHELL_H

/**
 * @file
 * The testpmd-style shell: commands from a file (--cmdline-file), then, with
 * -i, from the terminal (line editing, tab completion, history through
 * rte_cmdline's rdline) or from a pipe (one command per line, so scripts can
 * drive it). Commands are rte_cmdline instructions (fwd_cmds.c); a line that
 * does not parse gets the usage of the commands it could have meant, and the
 * shell goes on.
 */

#include <stdbool.h>
#include <stdio.h>

#include "fwd_app.h"

#define FWD_PROMPT "dpdk-forwarder> "

/**
 * Run commands from @p file (NULL: none), then, if @p interactive, from
 * stdin, until "quit", end of input, or app->quit (a signal).
 *
 * @return 0, or a negative errno if @p file cannot be read (reported on stderr).
 */
int fwd_shell_run(struct fwd_app *app, const char *file, bool interactive);

/**
 * Whether standard output is gone: a write to it failed with EPIPE (its
 * reader closed the pipe, `| head`). SIGPIPE is ignored, so this is how the
 * shell and the periodic stats learn that nobody reads them any more: they
 * stop writing, and the run ends (the shell) or goes on (a non-interactive
 * run) as it would otherwise. Flushes stdout to find out.
 */
bool fwd_stdout_closed(void);

/**
 * Execute one command line (with or without its newline), printing its output
 * and, for a bad line, what is wrong and the usage of the commands it could
 * have meant.
 *
 * @return 0 if the line was a command (whatever the command's own result),
 *   -EINVAL if it did not parse.
 */
int fwd_shell_exec(struct fwd_app *app, const char *line);

#endif /* FWD_SHELL_H */
