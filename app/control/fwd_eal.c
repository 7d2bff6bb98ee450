/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * EAL's failures explained, and its runtime directory removed (fwd_eal.h).
 * EAL 22.11 sets rte_errno to EACCES when it finds no hugepages at all and
 * ENOMEM when it cannot reserve what -m asks; a file prefix another primary
 * holds fails before rte_errno is set (strerror: "Success"). The causes are
 * read from where EAL reads them: the hugepage counts in sysfs and the lock
 * the primary holds on its config file.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fwd_eal.h"

void
fwd_eal_args_scan(int argc, char *const argv[], struct fwd_eal_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	snprintf(a->prefix, sizeof(a->prefix), "rte");
	for (i = 1; i < argc; i++) {
		const char *w = argv[i], *v = NULL;

		if (strcmp(w, "--") == 0)
			break;
		if (strcmp(w, "--no-huge") == 0)
			a->no_huge = true;
		else if (strcmp(w, "--no-shconf") == 0 || strcmp(w, "--in-memory") == 0)
			a->no_shconf = true;
		else if (strcmp(w, "--file-prefix") == 0 && i + 1 < argc)
			v = argv[++i];
		else if (strncmp(w, "--file-prefix=", 14) == 0)
			v = w + 14;
		if (v != NULL)
			snprintf(a->prefix, sizeof(a->prefix), "%s", v);
	}
}

void
fwd_eal_runtime_dir(const struct fwd_eal_args *a, char *buf, size_t len)
{
	const char *base = "/var/run";

	if (getuid() != 0) {
		base = getenv("XDG_RUNTIME_DIR");
		if (base == NULL)
			base = "/tmp";
	}
	snprintf(buf, len, "%s/dpdk/%s", base, a->prefix);
}

/* One unsigned number from file @p path, or -errno. */
static int
read_ulong(const char *path, unsigned long *v)
{
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (f == NULL)
		return -errno;
	if (fscanf(f, "%lu", v) != 1)
		ret = -EINVAL;
	fclose(f);
	return ret;
}

int
fwd_eal_hugepages(const char *sysdir, unsigned long *nr, unsigned long *nfree)
{
	DIR *d = opendir(sysdir);
	struct dirent *e;
	char path[512];

	*nr = *nfree = 0;
	if (d == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		unsigned long n = 0, f = 0;

		if (strncmp(e->d_name, "hugepages-", 10) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/nr_hugepages", sysdir, e->d_name);
		if (read_ulong(path, &n) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/free_hugepages", sysdir, e->d_name);
		if (read_ulong(path, &f) < 0)
			f = 0;
		*nr += n;
		*nfree += f;
	}
	closedir(d);
	return 0;
}

long
fwd_eal_prefix_owner(const char *dir)
{
	struct flock lk;
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/config", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* the primary write-locks the start of the file (rte_eal_config_create);
	 * F_GETLK names the holder without taking anything */
	memset(&lk, 0, sizeof(lk));
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	if (fcntl(fd, F_GETLK, &lk) < 0 || lk.l_type == F_UNLCK) {
		close(fd);
		return 0;
	}
	close(fd);
	return (long)lk.l_pid;
}

void
fwd_eal_explain(const struct fwd_eal_args *a, const char *runtime_dir, const char *sysdir,
	int eal_errno, char *buf, size_t len)
{
	unsigned long nr, nfree;
	long owner;

	buf[0] = '\0';
	owner = a->no_shconf ? 0 : fwd_eal_prefix_owner(runtime_dir);
	if (owner > 0 && owner != (long)getpid()) {
		snprintf(buf, len,
			"another DPDK process (pid %ld) runs with the file prefix '%s' (%s): "
			"give this one its own with --file-prefix NAME",
			owner, a->prefix, runtime_dir);
		return;
	}
	if (a->no_huge || (eal_errno != EACCES && eal_errno != ENOMEM))
		return;
	if (fwd_eal_hugepages(sysdir, &nr, &nfree) < 0) {
		snprintf(buf, len,
			"this kernel offers no hugepages (%s is missing): run without them, "
			"with --no-huge -m 256",
			sysdir);
		return;
	}
	if (nfree == 0)
		snprintf(buf, len,
			"no free hugepages (%lu reserved, none free): run without them, with "
			"--no-huge -m 256, or reserve some, e.g. "
			"echo 256 > %s/hugepages-2048kB/nr_hugepages",
			nr, sysdir);
	else if (eal_errno == ENOMEM)
		snprintf(buf, len,
			"only %lu hugepages are free: ask for less memory (-m MB) or reserve "
			"more (%s/hugepages-*/nr_hugepages)",
			nfree, sysdir);
	else
		snprintf(buf, len,
			"%lu hugepages are free but EAL found no hugetlbfs mount for them: "
			"mount -t hugetlbfs nodev /dev/hugepages, or run without them, with "
			"--no-huge -m 256",
			nfree);
}

int
fwd_eal_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];
	int ret = 0;

	if (d == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (unlink(path) < 0 && ret == 0)
			ret = -errno;
	}
	closedir(d);
	if (rmdir(dir) < 0 && ret == 0)
		ret = -errno;
	return ret;
}
