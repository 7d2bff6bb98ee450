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

#include <stdbool.h>
#include <stdio.h>

#include "fwd_config.h"

#define FWD_ERR_LEN 512

/**
 * The EAL arguments used when none are given before "--", as --help and the
 * docs show them: A and B are the first two CPUs the process may run on, PID
 * its process id. main() builds the real arguments from this one string, so
 * what --help says is what runs (the e2e case embedded_default checks it).
 */
#define FWD_EAL_DEFAULT                                                                       \
	"--lcores 0@A,1@B --no-huge -m 256 --no-pci --file-prefix dpdk-forwarder-PID --vdev " \
	"net_null0 --vdev net_null1"

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

/** What --help prints: --help, --help=md (the user guide's table), --help=man. */
enum fwd_help_format {
	FWD_HELP_TEXT, /**< the usage, for a terminal */
	FWD_HELP_MD,   /**< the option table of docs/user-guide.md (checked by unit-opts) */
	FWD_HELP_MAN,  /**< the man page dpdk-forwarder.1, in roff (built and installed) */
};

/** One option as the docs show it (fwd_opts_doc()). */
struct fwd_opt_doc {
	const char *name;       /**< long name without "--", also the config file key */
	const char *short_name; /**< "-i", or NULL */
	const char *arg;        /**< argument name ("N"), NULL for flags and --help */
	const char *def;        /**< default as a value the option accepts, or NULL */
	const char *defdoc;     /**< default as the docs say it (def, or words); NULL: none */
	const char *help;       /**< one sentence, no trailing period */
	char range[64];         /**< accepted values ("1-512", "on|off"); "" when free */
	bool file_key;          /**< also a key of the [forward] section */
};

/**
 * The @p i-th entry of the option table, in --help order.
 *
 * @return 0, or -ENOENT when @p i is past the last option.
 */
int fwd_opts_doc(unsigned int i, struct fwd_opt_doc *d);

/**
 * The @p i-th alias: another tool's spelling @p name of our option @p of.
 *
 * @return 0, or -ENOENT when @p i is past the last alias.
 */
int fwd_opts_alias(unsigned int i, const char **name, const char **of, const char **from);

/** "text", "md", "man" -> enum fwd_help_format, or -EINVAL. */
int fwd_help_format_parse(const char *s);

/** Print the application usage (options after "--") to @p f. */
void fwd_opts_usage(FILE *f, const char *prog);

/**
 * Print the option table as @p format (enum fwd_help_format) to @p f: what
 * --help, --help=md and --help=man print. @p prog names the program in the
 * text usage.
 */
void fwd_opts_help(FILE *f, int format, const char *prog);

#endif /* FWD_OPTS_H */
