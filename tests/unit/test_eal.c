/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * fwd_eal.c (issue 37.16, 37.17): EAL's options read before rte_eal_init(),
 * hugepages counted from a sysfs tree, the process holding a prefix found
 * by its config-file lock, each failure explained, a runtime dir removed.
 * No EAL runs here: the sysfs trees and runtime dirs are the test's own.
 */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_common.h>

#include "fwd_eal.h"
#include "fwd_test.h"

static char tmp[64];

static void
put(const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	if (f != NULL) {
		fputs(text, f);
		fclose(f);
	}
}

static void
sub(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	mkdir(path, 0755);
}

static void
test_args_scan(void)
{
	char *a1[] = {"fwd", "-l", "0,1", "--no-huge", "--file-prefix", "p1", "--", "--fwd", "io"};
	char *a2[] = {"fwd", "--file-prefix=p2", "--in-memory"};
	char *a3[] = {"fwd", "-l", "0", "--", "--file-prefix", "app"};
	struct fwd_eal_args a;

	fwd_eal_args_scan((int)RTE_DIM(a1), a1, &a);
	CHECK(a.no_huge && !a.no_shconf);
	CHECK(strcmp(a.prefix, "p1") == 0);
	fwd_eal_args_scan((int)RTE_DIM(a2), a2, &a);
	CHECK(!a.no_huge && a.no_shconf);
	CHECK(strcmp(a.prefix, "p2") == 0);
	/* after "--" the words are the application's */
	fwd_eal_args_scan((int)RTE_DIM(a3), a3, &a);
	CHECK(strcmp(a.prefix, "rte") == 0);
}

static void
test_hugepages(void)
{
	char sys[128];
	unsigned long nr, nfree;

	snprintf(sys, sizeof(sys), "%s/hp", tmp);
	CHECK_EQ(fwd_eal_hugepages(sys, &nr, &nfree), -ENOENT);
	sub("hp");
	CHECK_EQ(fwd_eal_hugepages(sys, &nr, &nfree), 0);
	CHECK_EQ(nr, 0);
	CHECK_EQ(nfree, 0);
	sub("hp/hugepages-2048kB");
	put("hp/hugepages-2048kB/nr_hugepages", "256\n");
	put("hp/hugepages-2048kB/free_hugepages", "200\n");
	sub("hp/hugepages-1048576kB");
	put("hp/hugepages-1048576kB/nr_hugepages", "2\n");
	put("hp/hugepages-1048576kB/free_hugepages", "1\n");
	CHECK_EQ(fwd_eal_hugepages(sys, &nr, &nfree), 0);
	CHECK_EQ(nr, 258);
	CHECK_EQ(nfree, 201);
}

static void
test_explain_hugepages(void)
{
	struct fwd_eal_args a = {.prefix = "rte"};
	char sys[128], rundir[128], buf[512];

	snprintf(rundir, sizeof(rundir), "%s/run-none", tmp);
	snprintf(sys, sizeof(sys), "%s/hp0", tmp);
	sub("hp0");
	sub("hp0/hugepages-2048kB");
	put("hp0/hugepages-2048kB/nr_hugepages", "0\n");
	put("hp0/hugepages-2048kB/free_hugepages", "0\n");
	/* EAL 22.11's words for it: EACCES, "Permission denied" */
	fwd_eal_explain(&a, rundir, sys, EACCES, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "no free hugepages (0 reserved, none free)");
	CHECK_CONTAINS(buf, "--no-huge -m 256");
	CHECK_CONTAINS(buf, "hugepages-2048kB/nr_hugepages");
	/* pages there, but not what -m asks */
	put("hp0/hugepages-2048kB/nr_hugepages", "10\n");
	put("hp0/hugepages-2048kB/free_hugepages", "10\n");
	fwd_eal_explain(&a, rundir, sys, ENOMEM, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "only 10 hugepages are free");
	fwd_eal_explain(&a, rundir, sys, EACCES, buf, sizeof(buf));
	CHECK_CONTAINS(buf, "no hugetlbfs mount");
	/* not a hugepage failure, or none wanted: nothing to add */
	fwd_eal_explain(&a, rundir, sys, EINVAL, buf, sizeof(buf));
	CHECK_EQ(buf[0], '\0');
	a.no_huge = true;
	fwd_eal_explain(&a, rundir, sys, ENOMEM, buf, sizeof(buf));
	CHECK_EQ(buf[0], '\0');
}

static void
test_prefix_owner(void)
{
	struct fwd_eal_args a = {.prefix = "p9"};
	char rundir[128], path[192], buf[512], want[64], c;
	int go[2], done[2];
	pid_t pid;

	snprintf(rundir, sizeof(rundir), "%s/run", tmp);
	sub("run");
	CHECK_EQ(fwd_eal_prefix_owner(rundir), 0); /* no config file */
	put("run/config", "x");
	CHECK_EQ(fwd_eal_prefix_owner(rundir), 0); /* nobody holds it */
	if (pipe(go) < 0 || pipe(done) < 0) {
		CHECK(0);
		return;
	}
	pid = fork();
	if (pid == 0) {
		/* a primary: write-locks the start of the config file */
		struct flock lk = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 1};
		int fd;

		snprintf(path, sizeof(path), "%s/config", rundir);
		fd = open(path, O_RDWR);
		if (fd < 0 || fcntl(fd, F_SETLK, &lk) < 0)
			_exit(1);
		if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (read(go[0], &c, 1) != 1) {
		CHECK(0);
		return;
	}
	CHECK_EQ(fwd_eal_prefix_owner(rundir), pid);
	fwd_eal_explain(&a, rundir, "/nonexistent", 0, buf, sizeof(buf));
	snprintf(want, sizeof(want), "another DPDK process (pid %d)", (int)pid);
	CHECK_CONTAINS(buf, want);
	CHECK_CONTAINS(buf, "file prefix 'p9'");
	CHECK_CONTAINS(buf, "--file-prefix NAME");
	a.no_shconf = true; /* --in-memory: EAL takes no such lock */
	fwd_eal_explain(&a, rundir, "/nonexistent", 0, buf, sizeof(buf));
	CHECK_EQ(buf[0], '\0');
	if (write(done[1], "d", 1) != 1)
		CHECK(0);
	waitpid(pid, NULL, 0);
	CHECK_EQ(fwd_eal_prefix_owner(rundir), 0);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
}

static void
test_rmdir(void)
{
	char dir[128];

	sub("rd");
	put("rd/config", "c");
	put("rd/mp_socket", "s");
	put("rd/fbarray_memseg-2048k-0-0", "m");
	snprintf(dir, sizeof(dir), "%s/rd", tmp);
	CHECK_EQ(fwd_eal_rmdir(dir), 0);
	CHECK(access(dir, F_OK) < 0 && errno == ENOENT);
	CHECK_EQ(fwd_eal_rmdir(dir), -ENOENT);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_args_scan),
	FWD_TEST(test_hugepages),
	FWD_TEST(test_explain_hugepages),
	FWD_TEST(test_prefix_owner),
	FWD_TEST(test_rmdir),
};

int
main(void)
{
	char cmd[128];
	int ret;

	snprintf(tmp, sizeof(tmp), "%s/fwd-test-eal-XXXXXX",
		getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(tmp) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		ret = 1;
	return ret;
}
