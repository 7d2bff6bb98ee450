/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_EAL_H
#define FWD_EAL_H

/**
 * @file
 * EAL's start-up and exit as the user sees them: why rte_eal_init() failed,
 * in words that say what to do (EAL 22.11 ends a missing hugepage pool with
 * "Permission denied" and a file-prefix clash with "Success"), and the
 * runtime directory a process that chose its own file prefix removes at exit.
 */

#include <stdbool.h>
#include <stddef.h>

/** The EAL options fwd_eal_explain() needs, read before rte_eal_init() permutes argv. */
struct fwd_eal_args {
	bool no_huge;    /**< --no-huge: no hugepages wanted */
	bool no_shconf;  /**< --no-shconf or --in-memory: no config file, no clash */
	char prefix[64]; /**< --file-prefix, or EAL's default "rte" */
};

/** Read @p argv[1..argc-1] (the EAL options) into @p a. */
void fwd_eal_args_scan(int argc, char *const argv[], struct fwd_eal_args *a);

/**
 * EAL's runtime directory for @p a's file prefix, as EAL 22.11 makes it
 * (/var/run/dpdk/PREFIX for root; else under $XDG_RUNTIME_DIR or /tmp), in
 * @p buf: known before rte_eal_init() has made it.
 */
void fwd_eal_runtime_dir(const struct fwd_eal_args *a, char *buf, size_t len);

/**
 * Hugepages of every size under @p sysdir (/sys/kernel/mm/hugepages):
 * *nr reserved, *nfree of them free. Returns 0, or -errno when @p sysdir
 * cannot be read (a kernel without hugetlbfs).
 */
int fwd_eal_hugepages(const char *sysdir, unsigned long *nr, unsigned long *nfree);

/**
 * The pid of another process holding the EAL config file of runtime
 * directory @p dir (the primary that owns that file prefix), or 0 when none
 * does (no file, or no lock on it).
 */
long fwd_eal_prefix_owner(const char *dir);

/**
 * After rte_eal_init() failed with @p eal_errno: one sentence in @p buf
 * saying the likely cause and what to do, or an empty string when nothing
 * known fits. @p a holds the options given; @p runtime_dir is EAL's runtime
 * directory for them; @p sysdir is where the hugepage counts are
 * (/sys/kernel/mm/hugepages).
 */
void fwd_eal_explain(const struct fwd_eal_args *a, const char *runtime_dir, const char *sysdir,
	int eal_errno, char *buf, size_t len);

/**
 * Remove runtime directory @p dir and the files in it (EAL 22.11's
 * rte_eal_cleanup() leaves the config, memseg and socket files behind).
 * Only for a directory no other process uses. Returns 0 or -errno.
 */
int fwd_eal_rmdir(const char *dir);

#endif /* FWD_EAL_H */
