/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * UIO backend, two kernel sides told apart by the map count:
 * - NXP's imx-fec-uio (out of tree): map0 = register block, map1 = a coherent
 *   descriptor block with its 32-bit bus address;
 * - mainline's uio_pdrv_genirq bound through driver_override: map0 = register
 *   block only (named after the DT node, "ethernet"), the interrupt on the
 *   UIO fd. The descriptor area is then a DPDK memzone: IOVA as PA, below
 *   4 GiB (the uDMA takes 32-bit addresses).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_io.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_string_fns.h>

#include "fec_backend.h"
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

size_t
fec_bd_slice_size(size_t bd_len)
{
	size_t slice = bd_len / FEC_NB_SLICES;

	return slice >= 4096 ? RTE_ALIGN_FLOOR(slice, 4096) : RTE_ALIGN_FLOOR(slice, 64);
}

/* First /sys/class/uio entry whose name matches (see fec_uio_map()). */
static int
find_uio(const char *uio_name, char *found, size_t len)
{
	static const char *const auto_names[] = {"imx-fec-uio", "ethernet"};
	char buf[64];
	unsigned int pass;
	struct dirent *e;
	DIR *d;

	for (pass = 0; pass < (uio_name[0] != '\0' ? 1u : RTE_DIM(auto_names)); pass++) {
		const char *want = uio_name[0] != '\0' ? uio_name : auto_names[pass];
		/* NXP's name is matched as a substring, as its module may suffix it. */
		bool exact = strcmp(want, "imx-fec-uio") != 0;

		d = opendir(UIO_SYS);
		if (d == NULL)
			return -ENODEV;
		while ((e = readdir(d)) != NULL) {
			if (strncmp(e->d_name, "uio", 3) != 0 ||
				read_sys(e->d_name, "name", buf, sizeof(buf)) < 0)
				continue;
			if (exact ? strcmp(buf, want) == 0 : strstr(buf, want) != NULL) {
				snprintf(found, len, "%s", e->d_name);
				closedir(d);
				return 0;
			}
		}
		closedir(d);
	}
	return -ENODEV;
}

/* Stock layout: the BD area in DPDK memory the 32-bit uDMA can reach. */
static int
bd_memzone(struct fec_priv *fep)
{
	char mz_name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;

	if (rte_eal_iova_mode() != RTE_IOVA_PA) {
		FEC_LOG(ERR,
			"%s: uio_pdrv_genirq gives no DMA mapping: descriptors and buffers need "
			"physical addresses (hugepages, --iova-mode=pa), IOVA mode is %s",
			fep->name, rte_eal_iova_mode() == RTE_IOVA_VA ? "VA" : "DC");
		return -EINVAL;
	}
	/* memzone names are short: a long device name is refused, not cut */
	if (snprintf(mz_name, sizeof(mz_name), "fec_bd_%s", fep->name) >= (int)sizeof(mz_name)) {
		FEC_LOG(ERR, "%s: the name is too long for a memzone name", fep->name);
		return -ENAMETOOLONG;
	}
	/* Slice-aligned, so each ring base is naturally aligned. */
	mz = rte_memzone_reserve_aligned(
		mz_name, FEC_BD_AREA_SIZE, SOCKET_ID_ANY, RTE_MEMZONE_IOVA_CONTIG, FEC_RING_SLICE);
	if (mz == NULL) {
		FEC_LOG(ERR, "%s: no memory for the descriptor area: %s", fep->name,
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	if (mz->iova == RTE_BAD_IOVA || mz->iova + mz->len > (1ULL << 32)) {
		FEC_LOG(ERR,
			"%s: descriptor area at IOVA %#" PRIx64 " is beyond the 32-bit reach of "
			"the uDMA: give the guest/board its hugepages below 4 GiB",
			fep->name, (uint64_t)mz->iova);
		rte_memzone_free(mz);
		return -ERANGE;
	}
	memset(mz->addr, 0, mz->len);
	fep->bd_mz = mz;
	fep->bd_va = mz->addr;
	fep->bd_bus = (uint32_t)mz->iova;
	fep->bd_len = FEC_BD_AREA_SIZE;
	return 0;
}

int
fec_uio_map(struct fec_priv *fep, const char *uio_name)
{
	uint64_t regs_addr, regs_size, bd_addr = 0, bd_size = 0;
	long pg = sysconf(_SC_PAGESIZE);
	char found[256] = "", path[300];
	int ret;

	if (find_uio(uio_name, found, sizeof(found)) < 0) {
		FEC_LOG(ERR,
			"%s: no UIO device named %s: bind the ENET to uio_pdrv_genirq "
			"(driver_override) or load NXP's fec-uio",
			fep->name, uio_name[0] != '\0' ? uio_name : "imx-fec-uio or ethernet");
		return -ENODEV;
	}
	if (read_map(found, 0, &regs_addr, &regs_size) < 0)
		return -ENODEV;
	fep->uio_stock = read_map(found, 1, &bd_addr, &bd_size) < 0;
	if (regs_size < FEC_REG_SPACE ||
		(!fep->uio_stock && (fec_bd_slice_size(bd_size) < FEC_RING_MAX * 8u ||
					    bd_addr + bd_size > (1ULL << 32)))) {
		FEC_LOG(ERR,
			"%s: %s maps unusable (regs %#" PRIx64 ", BDs %#" PRIx64 "@%#" PRIx64 ")",
			fep->name, found, regs_size, bd_size, bd_addr);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/dev/%s", found);
	/* Names are uioN: a longer one fails the open of the IRQ, not this copy. */
	rte_strscpy(fep->uio_dev, path, sizeof(fep->uio_dev));
	fep->uio_fd = open(path, O_RDWR | O_SYNC);
	if (fep->uio_fd < 0)
		return -errno;
	/* UIO selects map N by an mmap offset of N pages. */
	fep->uio_regs_map =
		mmap(NULL, regs_size, PROT_READ | PROT_WRITE, MAP_SHARED, fep->uio_fd, 0);
	if (fep->uio_regs_map == MAP_FAILED) {
		fec_uio_unmap(fep);
		return -ENOMEM;
	}
	fep->uio_regs_len = regs_size;
	fep->regs = fep->uio_regs_map;
	if (fep->uio_stock) {
		ret = bd_memzone(fep);
		if (ret < 0) {
			fec_uio_unmap(fep);
			return ret;
		}
	} else {
		fep->uio_bd_map =
			mmap(NULL, bd_size, PROT_READ | PROT_WRITE, MAP_SHARED, fep->uio_fd, pg);
		if (fep->uio_bd_map == MAP_FAILED) {
			fec_uio_unmap(fep);
			return -ENOMEM;
		}
		fep->uio_bd_len = bd_size;
		fep->bd_va = fep->uio_bd_map;
		fep->bd_bus = (uint32_t)bd_addr;
		fep->bd_len = bd_size;
	}
	FEC_LOG(INFO, "%s: %s (%s layout), registers %#" PRIx64 ", descriptors at bus %#x",
		fep->name, found, fep->uio_stock ? "stock uio_pdrv_genirq" : "NXP imx-fec-uio",
		regs_addr, fep->bd_bus);
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
	if (fep->bd_mz != NULL)
		rte_memzone_free(fep->bd_mz);
	fep->bd_mz = NULL;
	if (fep->uio_fd >= 0)
		close(fep->uio_fd);
	fep->uio_fd = -1;
}

struct pool_check {
	int bad;
};

static void
check_chunk(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *memhdr, unsigned int i)
{
	struct pool_check *c = arg;

	RTE_SET_USED(mp);
	RTE_SET_USED(i);
	if (memhdr->iova == RTE_BAD_IOVA || memhdr->iova + memhdr->len > (1ULL << 32))
		c->bad = 1;
}

/* Hardware: every pktmbuf pool the application may transmit from. */
static void
check_pool_cb(struct rte_mempool *mp, void *arg)
{
	struct fec_priv *fep = arg;
	struct pool_check c = {0};

	if (!fec_is_pktmbuf_pool(mp))
		return;
	rte_mempool_mem_iter(mp, check_chunk, &c);
	if (c.bad) {
		FEC_LOG(ERR,
			"%s: pool %s has IOVAs the 32-bit MAC cannot reach (need IOVA as PA "
			"below 4 GiB)",
			fep->name, mp->name);
		fep->pool_bad = true;
	}
}

/* dev_start: a pool beyond the 32-bit DMA reach refuses the start. */
static int
uio_tx_pools(struct fec_priv *fep)
{
	fep->pool_bad = false;
	rte_mempool_walk(check_pool_cb, fep);
	return fep->pool_bad ? -ERANGE : 0;
}

/* RX queue setup: the buffers must be below 4 GiB of bus address. */
static int
uio_rx_pool(struct fec_priv *fep, struct rte_mempool *mp)
{
	struct pool_check c = {0};

	rte_mempool_mem_iter(mp, check_chunk, &c);
	if (c.bad) {
		FEC_LOG(ERR, "%s: pool %s has IOVAs the 32-bit MAC cannot reach", fep->name,
			mp->name);
		return -EINVAL;
	}
	return 0;
}

/* The register write on hardware: one store (rte_write32: a barrier, then it). */
static void
uio_wr32(void *regs, uint32_t off, uint32_t val)
{
	rte_write32(val, (volatile uint8_t *)regs + off);
}

static int
uio_attach(struct fec_priv *fep, const struct fec_args *a)
{
	int ret = fec_uio_map(fep, a->uio_name);

	if (ret < 0)
		return ret;
	fep->wr32 = uio_wr32;
	fep->wr32_ctx = (void *)(uintptr_t)fep->regs;
	return 0;
}

static void
uio_wait_tick(const struct fec_priv *fep)
{
	RTE_SET_USED(fep);
	rte_delay_us(1);
}

/* One more open of the UIO device, for the RX interrupt (fec_intr.c). */
static int
uio_irq_open(struct fec_priv *fep)
{
	int fd = open(fep->uio_dev, O_RDWR | O_NONBLOCK | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static void
uio_irq_close(struct fec_priv *fep, int fd)
{
	RTE_SET_USED(fep);
	close(fd);
}

/* uio_pdrv_genirq's irqcontrol: 1 enables the IRQ its handler disabled. */
static int
uio_irq_enable(struct fec_priv *fep)
{
	int32_t one = 1;

	return write(fep->intr_uio_fd, &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

static const struct fec_backend fec_backend_uio = {
	.name = "uio",
	.attach = uio_attach,
	.detach = fec_uio_unmap,
	.rx_pool = uio_rx_pool,
	.tx_pools = uio_tx_pools,
	.wait_tick = uio_wait_tick,
	.irq_open = uio_irq_open,
	.irq_close = uio_irq_close,
	.irq_enable = uio_irq_enable,
	.irq_counter_size = sizeof(int32_t), /* the UIO read gives a 32-bit count */
	.line_fd = NULL,                     /* one IRQ: no line per queue */
};

RTE_INIT(fec_backend_uio_register)
{
	fec_backend_register(&fec_backend_uio);
}
