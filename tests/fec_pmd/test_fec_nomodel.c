/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec linked without its model (issue 38): the PMD library alone
 * (fec_pmd_dep, not fec_model_dep). backend=model, the default, is refused
 * at probe, cleanly: no port, the reason logged, EAL still usable; the UIO
 * backend is there (it fails here only for want of a UIO device). TAP output.
 */

#include <dirent.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_ethdev.h>

#include "fec_backend.h"

static int failures, checks;

#define CHECK(cond, ...)                                \
	do {                                            \
		checks++;                               \
		if (cond) {                             \
			printf("ok %d - ", checks);     \
		} else {                                \
			failures++;                     \
			printf("not ok %d - ", checks); \
		}                                       \
		printf(__VA_ARGS__);                    \
		printf("\n");                           \
	} while (0)

/* EAL leaves its runtime dir behind: removed at the end. */
static void
remove_rundir(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

int
main(int argc, char **argv)
{
	char prefix[64], rundir[256];
	char *eal[] = {argv[0], "--lcores", "0", "--no-huge", "-m", "64", "--no-pci",
		"--file-prefix", prefix, "--log-level", "pmd.net.fec:info"};
	int ret;

	RTE_SET_USED(argc);
	snprintf(prefix, sizeof(prefix), "fec_nomodel_%d", (int)getpid());
	if (rte_eal_init((int)RTE_DIM(eal), eal) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	CHECK(fec_backend_find("model") == NULL, "no model backend registered without its library");
	CHECK(fec_backend_find("uio") != NULL, "the UIO backend is built into the PMD");
	ret = rte_dev_probe("net_fec0,backend=model");
	CHECK(ret < 0, "backend=model refused at probe (%d)", ret);
	ret = rte_dev_probe("net_fec1");
	CHECK(ret < 0, "the default backend (model) refused too (%d)", ret);
	ret = rte_dev_probe("net_fec2,backend=uio,uio_name=fec_nomodel_none");
	CHECK(ret < 0, "backend=uio without a UIO device refused (%d)", ret);
	CHECK(rte_eth_dev_count_avail() == 0, "no port left behind (%u)",
		(unsigned int)rte_eth_dev_count_avail());
	rte_eal_cleanup();
	remove_rundir(rundir);
	printf("1..%d\n", checks);
	printf("# nomodel: %d checks, %d failed\n", checks, failures);
	return failures != 0;
}
