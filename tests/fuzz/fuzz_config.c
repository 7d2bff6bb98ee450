/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: any bytes as a config file, through the same reader and
 * option table the app uses (so every option value parser, the map parser and
 * the MAC parser are fuzzed too). Built with clang -fsanitize=fuzzer,address,
 * undefined by scripts/fuzz.sh; must never crash, hang or read out of bounds,
 * and must say where the error is whenever it refuses a text.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fwd_cfgfile.h"
#include "fwd_opts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fwd_config cfg;
	char err[FWD_ERR_LEN];
	int ret;

	fwd_config_defaults(&cfg);
	err[0] = '\0';
	ret = fwd_cfgfile_parse(
		"fuzz.ini", (const char *)data, size, fwd_opts_cfgfile_cb, &cfg, err, sizeof(err));
	if (ret < 0 && strncmp(err, "fuzz.ini:", 9) != 0)
		abort(); /* every refusal names the file and line */
	if (ret == 0 && (cfg.burst == 0 || cfg.burst > FWD_MAX_BURST || cfg.n_map > FWD_MAX_MAP))
		abort();       /* accepted values are in range */
	fwd_config_free(&cfg); /* the router's routes and neighbours grow as read */
	return 0;
}
