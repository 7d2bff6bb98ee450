/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef FUZZ_LSAN_H
#define FUZZ_LSAN_H

/*
 * LeakSanitizer scans the stacks, the globals and its own heap for pointers, not DPDK's
 * memory (an anonymous mmap with --no-huge). An object the fuzzer builds once, in
 * rte_zmalloc()'d memory, that holds malloc()'d arrays (the route table's free lists)
 * would make those arrays look leaked at exit. Registering DPDK's mapped segments as
 * root regions makes LSan read them too, so a real leak is still reported and a
 * reachable array is not.
 */

#include <sanitizer/lsan_interface.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_memory.h>

static int
fuzz_lsan_root(
	const struct rte_memseg_list *msl, const struct rte_memseg *ms, size_t len, void *arg)
{
	(void)msl;
	(void)arg;
	__lsan_register_root_region(ms->addr, len);
	return 0;
}

/** Make LeakSanitizer scan DPDK's memory; call it once, after rte_eal_init(). */
static inline void
fuzz_lsan_scan_dpdk_memory(void)
{
	rte_memseg_contig_walk(fuzz_lsan_root, NULL);
}

/* EAL's runtime dir of this process (EAL leaves it behind), removed at exit. */
static char fuzz_rundir[256];

static void
fuzz_remove_rundir(void)
{
	struct dirent *e;
	DIR *d = opendir(fuzz_rundir);
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", fuzz_rundir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(fuzz_rundir);
}

/** Remove EAL's runtime dir when the fuzzer exits; call it once, after rte_eal_init(). */
static inline void
fuzz_clean_rundir_at_exit(void)
{
	snprintf(fuzz_rundir, sizeof(fuzz_rundir), "%s", rte_eal_get_runtime_dir());
	atexit(fuzz_remove_rundir);
}

#endif
