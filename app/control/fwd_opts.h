/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_OPTS_H
#define FWD_OPTS_H

/**
 * @file
 * Application options: the command line after "--" and the config file.
 *
 * All functions report a problem as a negative errno and write one
 * human-readable line (no trailing newline) into the caller's buffer, so the
 * caller decides where it goes and tests can check it.
 */

#include <stdio.h>

#include "fwd_config.h"

#define FWD_ERR_LEN 512

/** What fwd_opts_parse() asks the caller to do next. */
enum fwd_opts_action {
	FWD_OPTS_RUN,  /**< configuration complete: run */
	FWD_OPTS_HELP, /**< --help was given: print usage and exit 0 */
};

/**
 * Apply one option, by its long name without dashes ("burst"), to @p cfg.
 *
 * @param cfg   configuration to change
 * @param name  option name, also the config file key
 * @param value its argument; NULL for options without one
 * @param err   receives the reason on failure
 * @param errlen size of @p err
 * @return 0, -ENOENT for an unknown name, -EINVAL for a bad value or a
 *   missing/extra argument.
 */
int fwd_opt_apply(
	struct fwd_config *cfg, const char *name, const char *value, char *err, size_t errlen);

/**
 * Parse the application arguments (what follows "--"), including --config.
 *
 * Defaults are set first, then the config file named by --config is loaded
 * (wherever --config appears), then every other argument is applied in order,
 * so the command line overrides the file.
 *
 * @param cfg  filled in
 * @param argc number of arguments in @p argv
 * @param argv the arguments; argv[0] is the first option, not a program name
 * @param err  receives "what is wrong" on failure, e.g.
 *   "--burst: '0' is not a number from 1 to 512"
 * @param errlen size of @p err
 * @return FWD_OPTS_RUN or FWD_OPTS_HELP, or a negative errno.
 */
int fwd_opts_parse(struct fwd_config *cfg, int argc, char **argv, char *err, size_t errlen);

/**
 * Parse an l3fwd-style map, "(port,queue,lcore)[,(port,queue,lcore)...]".
 *
 * Checks syntax and ranges only; whether the ports and lcores exist is
 * checked against the running system by fwd_map_validate().
 *
 * @return 0 or -EINVAL with @p err set.
 */
int fwd_map_parse(struct fwd_config *cfg, const char *s, char *err, size_t errlen);

/**
 * The config file's key handler, for fwd_cfgfile_load()/fwd_cfgfile_parse()
 * with a struct fwd_config as @p arg: section [forward], keys are option
 * names. Exposed so tests and the fuzzer parse texts exactly as files are.
 */
int fwd_opts_cfgfile_cb(void *arg, const char *section, const char *key, const char *value,
	char *err, size_t errlen);

/** Is @p arg the name of an application option ("--burst", "--burst=4", "-h")? */
int fwd_opts_is_app_option(const char *arg);

/** Print the application usage (options after "--") to @p f. */
void fwd_opts_usage(FILE *f, const char *prog);

#endif /* FWD_OPTS_H */
