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

#endif
