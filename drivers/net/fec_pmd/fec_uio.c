/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * UIO backend: NXP's fec-uio kernel module exposes the register block as map0
 * and a coherent descriptor block (with its 32-bit bus address) as map1.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fec_ethdev.h"

#define UIO_SYS "/sys/class/uio"

static int
read_sys(const char *dev, const char *file, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", UIO_SYS, dev, file);
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	if (fgets(buf, (int)len, f) == NULL) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int
read_map(const char *dev, int map, uint64_t *addr, uint64_t *size)
{
	char file[64], buf[64];

	snprintf(file, sizeof(file), "maps/map%d/addr", map);
	if (read_sys(dev, file, buf, sizeof(buf)) < 0)
		return -ENODEV;
	*addr = strtoull(buf, NULL, 0);
	snprintf(file, sizeof(file), "maps/map%d/size", map);
	if (read_sys(dev, file, buf, sizeof(buf)) < 0)
		return -ENODEV;
	*size = strtoull(buf, NULL, 0);
	return 0;
}

int
fec_uio_map(struct fec_priv *fep, const char *uio_name)
{
	uint64_t regs_addr, regs_size, bd_addr, bd_size;
	char found[256] = "", buf[64], path[300];
	long pg = sysconf(_SC_PAGESIZE);
	struct dirent *e;
	DIR *d;

	d = opendir(UIO_SYS);
	if (d == NULL) {
		FEC_LOG(ERR, "%s: no %s: is the fec-uio module loaded?", fep->name, UIO_SYS);
		return -ENODEV;
	}
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "uio", 3) != 0)
			continue;
		if (read_sys(e->d_name, "name", buf, sizeof(buf)) == 0 &&
			strstr(buf, uio_name) != NULL) {
			snprintf(found, sizeof(found), "%s", e->d_name);
			break;
		}
	}
	closedir(d);
	if (found[0] == '\0') {
		FEC_LOG(ERR, "%s: no UIO device named %s", fep->name, uio_name);
		return -ENODEV;
	}
	if (read_map(found, 0, &regs_addr, &regs_size) < 0 ||
		read_map(found, 1, &bd_addr, &bd_size) < 0)
		return -ENODEV;
	if (regs_size < FEC_REG_SPACE || bd_size < FEC_NB_SLICES * 8u * 8u ||
		bd_addr + bd_size > (1ULL << 32)) {
		FEC_LOG(ERR,
			"%s: %s maps unusable (regs %#" PRIx64 ", BDs %#" PRIx64 "@%#" PRIx64 ")",
			fep->name, found, regs_size, bd_size, bd_addr);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/dev/%s", found);
	fep->uio_fd = open(path, O_RDWR | O_SYNC);
	if (fep->uio_fd < 0)
		return -errno;
	/* UIO selects map N by an mmap offset of N pages. */
	fep->uio_regs_map =
		mmap(NULL, regs_size, PROT_READ | PROT_WRITE, MAP_SHARED, fep->uio_fd, 0);
	fep->uio_bd_map = mmap(NULL, bd_size, PROT_READ | PROT_WRITE, MAP_SHARED, fep->uio_fd, pg);
	if (fep->uio_regs_map == MAP_FAILED || fep->uio_bd_map == MAP_FAILED) {
		fec_uio_unmap(fep);
		return -ENOMEM;
	}
	fep->uio_regs_len = regs_size;
	fep->uio_bd_len = bd_size;
	fep->regs = fep->uio_regs_map;
	fep->bd_va = fep->uio_bd_map;
	fep->bd_bus = (uint32_t)bd_addr;
	fep->bd_len = bd_size;
	return 0;
}

void
fec_uio_unmap(struct fec_priv *fep)
{
	if (fep->uio_regs_map != NULL && fep->uio_regs_map != MAP_FAILED)
		munmap(fep->uio_regs_map, fep->uio_regs_len);
	if (fep->uio_bd_map != NULL && fep->uio_bd_map != MAP_FAILED)
		munmap(fep->uio_bd_map, fep->uio_bd_len);
	fep->uio_regs_map = NULL;
	fep->uio_bd_map = NULL;
	if (fep->uio_fd >= 0)
		close(fep->uio_fd);
	fep->uio_fd = -1;
}
