/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: the interactive shell, on a real forwarder. Initialise
 * sets up the very app main() runs (EAL on two net_null ports, lcore 1
 * forwarding, the options of FWD_FUZZ_ARGS: by default the router of
 * config/router.ini, `--fwd pktgen` or `--fwd io` are the other runs of
 * scripts/fuzz.sh); each input is a few shell lines given to fwd_shell_exec(),
 * the function the shell, --cmdline-file and the tests use. So every
 * rte_cmdline token parser, our own argument checks and the commands behind
 * them (start/stop, mode switches, routes, neighbours, filters, pktgen set,
 * stats) are fuzzed together, in any order. `quit` only sets app.quit: it is
 * cleared after each input. Stdout goes to /dev/null (the replies), stderr stays.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fuzz_lsan.h"

#include "fwd_app.h"
#include "fwd_lifecycle.h"
#include "fwd_opts.h"
#include "fwd_shell.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LINES 8 /* per input: enough for a sequence, short enough to stay fast */

static struct fwd_app app;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char prefix[64], opts[512];
	char *eal[] = {"fuzz", "-l", "0,1", "--no-huge", "-m", "256", "--no-pci", "--file-prefix",
		prefix, "--vdev", "net_null0", "--vdev", "net_null1", "--log-level", "*:error",
		NULL};
	char *av[32], *save = NULL, *tok, err[FWD_ERR_LEN];
	const char *env = getenv("FWD_FUZZ_ARGS");
	int ac = 0;

	(void)argc;
	(void)argv;
	snprintf(opts, sizeof(opts), "%s", env != NULL ? env : "--config config/router.ini");
	for (tok = strtok_r(opts, " ", &save); tok != NULL && ac < 31;
		tok = strtok_r(NULL, " ", &save))
		av[ac++] = tok;
	av[ac] = NULL;
	if (fwd_opts_parse(&app.cfg, ac, av, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_shell: FWD_FUZZ_ARGS: %s\n", err);
		abort();
	}
	app.cfg.stats_period = 0; /* no periodic prints from anybody */
	snprintf(prefix, sizeof(prefix), "fuzz-shell-%d", (int)getpid());
	if (rte_eal_init((int)(sizeof(eal) / sizeof(eal[0])) - 1, eal) < 0)
		abort();
	fuzz_lsan_scan_dpdk_memory();
	fuzz_clean_rundir_at_exit();
	if (fwd_app_setup(&app, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz_shell: setup: %s\n", err);
		abort();
	}
	if (freopen("/dev/null", "w", stdout) == NULL)
		abort();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *line, *save = NULL;
	unsigned int n = 0;

	if (size > 2048)
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = strtok_r(text, "\n", &save); line != NULL && n < MAX_LINES;
		line = strtok_r(NULL, "\n", &save), n++)
		(void)fwd_shell_exec(&app, line); /* a refusal is an answer, not a failure */
	free(text);
	app.quit = false;
	return 0;
}
