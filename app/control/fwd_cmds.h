/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_CMDS_H
#define FWD_CMDS_H

/**
 * @file
 * The shell's command table: rte_cmdline instructions whose help strings are
 * "usage: description", the single source of the shell reference.
 */

#include <cmdline_parse.h>

#include "fwd_app.h"

/** The NULL-terminated instruction list, bound to @p app. */
cmdline_parse_ctx_t *fwd_cmds_ctx(struct fwd_app *app);

#endif /* FWD_CMDS_H */
