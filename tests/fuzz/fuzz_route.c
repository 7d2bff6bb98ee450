/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: the router's configuration, read AND applied. Any bytes
 * as a config file whose [port N], [route], [neigh] and [filter] sections go
 * through rt_config_cfgfile_cb() (what the app's reader does), then
 * rt_config_apply() into a fresh route table with ports 0 and 1 (and
 * rt_config_apply_filter() into an ACL): where the config fuzzer stops at
 * parsing, this one also drives the table's add paths (connected routes,
 * next hops, neighbours, a full table). Checks: every refusal names the file
 * and line; an applied config's every route is in the table.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fuzz_lsan.h"
#include <rte_ether.h>
#include <rte_lcore.h>

#include "fwd_cfgfile.h"
#include "rt_acl.h"
#include "rt_config.h"
#include "rt_table.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char prefix[64];
	char *args[] = {"fuzz", "--no-huge", "-m", "128", "--no-pci", "--file-prefix", prefix,
		"--log-level", "*:error", NULL};

	(void)argc;
	(void)argv;
	snprintf(prefix, sizeof(prefix), "fuzz-route-%d", (int)getpid());
	if (rte_eal_init(9, args) < 0)
		abort();
	fuzz_lsan_scan_dpdk_memory();
	fuzz_clean_rundir_at_exit();
	return 0;
}

/* Only the router's sections, as fwd_opts_cfgfile_cb() hands them over; the rest is ignored. */
static int
route_cb(void *arg, const char *section, const char *key, const char *value, char *err,
	size_t errlen)
{
	if (!rt_config_owns_section(section))
		return 0;
	return rt_config_cfgfile_cb(arg, section, key, value, err, errlen);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rt_config cfg;
	static const struct rte_ether_addr mac[2] = {
		{{0x02, 0, 0, 0, 0, 1}}, {{0x02, 0, 0, 0, 0, 2}}};
	char err[512];
	struct rt_table *t;
	struct rt_acl *acl;
	uint32_t i;
	int ret;

	if (size > 8192)
		return 0;
	rt_config_init(&cfg);
	err[0] = '\0';
	ret = fwd_cfgfile_parse(
		"fuzz.ini", (const char *)data, size, route_cb, &cfg, err, sizeof(err));
	if (ret < 0) {
		if (strncmp(err, "fuzz.ini:", 9) != 0)
			abort(); /* every refusal names the file and line */
		rt_config_free(&cfg);
		return 0;
	}
	/* small, so that a fuzzed config can fill it: the full-table paths run too */
	t = rt_table_create(&(struct rt_table_params){.name = "fzr",
		.socket = SOCKET_ID_ANY,
		.max_routes = 64,
		.max_nh = 32,
		.tbl8s = 8,
		.max_threads = 4});
	acl = rt_acl_create(NULL, SOCKET_ID_ANY);
	if (t == NULL || acl == NULL)
		abort();
	if (rt_iface_enable(t, 0, &mac[0]) < 0 || rt_iface_enable(t, 1, &mac[1]) < 0)
		abort();
	err[0] = '\0';
	ret = rt_config_apply(&cfg, t, err, sizeof(err));
	if (ret < 0 && err[0] == '\0')
		abort(); /* a refusal says why */
	if (ret == 0) {
		for (i = 0; i < cfg.n_routes; i++) {
			/* the first address of an applied route's prefix is routed (by it or a longer one) */
			if (rt_route_lookup(t, cfg.routes[i].prefix) == RT_NH_MISS)
				abort();
		}
	}
	err[0] = '\0';
	ret = rt_config_apply_filter(&cfg, acl, err, sizeof(err));
	if (ret < 0 && err[0] == '\0')
		abort();
	rt_acl_free(acl);
	rt_table_free(t);
	rt_config_free(&cfg);
	return 0;
}
