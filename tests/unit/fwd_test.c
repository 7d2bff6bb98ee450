/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fwd_test.h"

int fwd_test_case_failed;

int
fwd_test_run(const struct fwd_test_case *cases, unsigned int n)
{
	unsigned int i, failed = 0;

	printf("1..%u\n", n);
	for (i = 0; i < n; i++) {
		fwd_test_case_failed = 0;
		cases[i].fn();
		printf("%s %u - %s\n", fwd_test_case_failed ? "not ok" : "ok", i + 1,
			cases[i].name);
		failed += fwd_test_case_failed;
		fflush(stdout);
	}
	return failed != 0;
}

const struct fwd_test_case *
fwd_test_case_named(const struct fwd_test_case *cases, unsigned int n, int argc, char **argv)
{
	unsigned int i;

	for (i = 0; argc == 2 && i < n; i++)
		if (strcmp(cases[i].name, argv[1]) == 0)
			return &cases[i];
	if (argc != 2)
		printf("Bail out! usage: %s CASE; the cases:", argv[0]);
	else
		printf("Bail out! %s: unknown case %s; the cases:", argv[0], argv[1]);
	for (i = 0; i < n; i++)
		printf(" %s", cases[i].name);
	printf("\n");
	return NULL;
}

int
fwd_test_run_one(const struct fwd_test_case *c)
{
	printf("1..1\n");
	fwd_test_case_failed = 0;
	c->fn();
	printf("%s 1 - %s\n", fwd_test_case_failed ? "not ok" : "ok", c->name);
	fflush(stdout);
	return fwd_test_case_failed != 0;
}

static char runtime_dir[128];

/* EAL leaves its runtime directory behind; a test run should not. */
static void
remove_runtime_dir(void)
{
	struct dirent *e;
	DIR *d = opendir(runtime_dir);
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", runtime_dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(runtime_dir);
}

int
fwd_test_eal_init(const char *name, unsigned int mem_mb)
{
	char prefix[64], mem[16];
	char *args[] = {"unit", "--no-huge", "-m", mem, "--no-pci", "--lcores", "0@0,1@0",
		"--file-prefix", prefix, "--log-level", "*:error", NULL};

	snprintf(prefix, sizeof(prefix), "unit-%s-%d", name, (int)getpid());
	snprintf(mem, sizeof(mem), "%u", mem_mb);
	snprintf(runtime_dir, sizeof(runtime_dir), "%s/dpdk/%s",
		getuid() == 0 ? "/var/run"
			      : (getenv("XDG_RUNTIME_DIR") ? getenv("XDG_RUNTIME_DIR") : "/tmp"),
		prefix);
	atexit(remove_runtime_dir);
	return rte_eal_init((int)(sizeof(args) / sizeof(args[0])) - 1, args) < 0 ? -1 : 0;
}
