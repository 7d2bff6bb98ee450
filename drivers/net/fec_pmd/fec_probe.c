/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* net_fec: devargs, the backend registry, vdev probe and remove. */

#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_kvargs.h>
#include <rte_malloc.h>
#include <ethdev_vdev.h>
#include <bus_vdev_driver.h>

#include "fec_backend.h"
#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_tx.h"

RTE_LOG_REGISTER(fec_logtype, pmd.net.fec, NOTICE);

/* Backends linked in: UIO (fec_uio.c) and, when its library is, the model. */
#define FEC_BACKEND_MAX 4
static const struct fec_backend *fec_backends[FEC_BACKEND_MAX];

void
fec_backend_register(const struct fec_backend *be)
{
	unsigned int i;

	for (i = 0; i < FEC_BACKEND_MAX; i++) {
		if (fec_backends[i] == NULL || fec_backends[i] == be) {
			fec_backends[i] = be;
			return;
		}
	}
	RTE_LOG(ERR, EAL, "net_fec: no room for backend %s\n", be->name);
}

const struct fec_backend *
fec_backend_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < FEC_BACKEND_MAX && fec_backends[i] != NULL; i++)
		if (strcmp(fec_backends[i]->name, name) == 0)
			return fec_backends[i];
	return NULL;
}

#define FEC_ARG_BACKEND "backend"
#define FEC_ARG_BD      "bd"
#define FEC_ARG_PROFILE "profile"
#define FEC_ARG_MODE    "mode"
#define FEC_ARG_WIRE    "wire"
#define FEC_ARG_PHY     "phy_addr"
#define FEC_ARG_UIO     "uio_name"
#define FEC_ARG_SHIFT16 "shift16"
#define FEC_ARG_MIB_MS  "mib_period_ms"
#define FEC_ARG_STATS   "stats"
#define FEC_ARG_SOC     "soc"
#define FEC_ARG_LSC_MS  "lsc_period_ms"
#define FEC_ARG_TX_TMO  "tx_timeout_ms"
#define FEC_ARG_WD_MS   "watchdog_ms"
#define FEC_ARG_FOLLOW  "pcap_follow"
#define FEC_ARG_RCMR    "rcmr"
#define FEC_ARG_INTR    "intr"
#define FEC_ARG_COAL    "rx_coalesce"
#define FEC_ARG_ITR_CLK "itr_clk_mhz"
#define FEC_ARG_PTP_CLK "ptp_clk_mhz"

static const char *const fec_valid_args[] = {FEC_ARG_BACKEND, FEC_ARG_BD, FEC_ARG_PROFILE,
	FEC_ARG_MODE, FEC_ARG_WIRE, FEC_ARG_PHY, FEC_ARG_UIO, FEC_ARG_SHIFT16, FEC_ARG_MIB_MS,
	FEC_ARG_STATS, FEC_ARG_SOC, FEC_ARG_LSC_MS, FEC_ARG_TX_TMO, FEC_ARG_WD_MS, FEC_ARG_FOLLOW,
	FEC_ARG_RCMR, FEC_ARG_INTR, FEC_ARG_COAL, FEC_ARG_ITR_CLK, FEC_ARG_PTP_CLK, NULL};

/* One PCP value or a range LO-HI into the ring's set; -EINVAL when malformed. */
static int
rcmr_entry(const char *e, size_t len, uint8_t pcps[FEC_MAX_RINGS], uint8_t *ring_max)
{
	unsigned int ring, lo, hi, v;
	char buf[16], tail;

	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, e, len);
	buf[len] = '\0';
	if (sscanf(buf, "%u:%u-%u%c", &ring, &lo, &hi, &tail) == 3) {
		/* LO-HI */
	} else if (sscanf(buf, "%u:%u%c", &ring, &lo, &tail) == 2 && strchr(buf, '-') == NULL) {
		hi = lo;
	} else {
		return -EINVAL;
	}
	if (ring < 1 || ring >= FEC_MAX_RINGS || lo > 7 || hi > 7 || lo > hi)
		return -EINVAL;
	for (v = lo; v <= hi; v++)
		pcps[ring] |= (uint8_t)(1u << v);
	if (ring > *ring_max)
		*ring_max = (uint8_t)ring;
	return 0;
}

int
fec_rcmr_parse(const char *spec, uint32_t rcmr[FEC_MAX_RINGS], uint8_t *ring_max)
{
	uint8_t pcps[FEC_MAX_RINGS] = {0};
	size_t len = strlen(spec);
	const char *p, *end;
	unsigned int q;

	memset(rcmr, 0, FEC_MAX_RINGS * sizeof(rcmr[0]));
	*ring_max = 0;
	/* [a,b]: the brackets keep the commas inside one kvargs value. */
	if (len >= 2 && spec[0] == '[' && spec[len - 1] == ']') {
		spec++;
		len -= 2;
	}
	/* An empty entry (",," or a comma at an end) is a typo, not nothing. */
	if (len == 0 || spec[len - 1] == ',')
		return -EINVAL;
	for (p = spec; p < spec + len; p = end + 1) {
		end = memchr(p, ',', (size_t)(spec + len - p));
		if (end == NULL)
			end = spec + len;
		if (rcmr_entry(p, (size_t)(end - p), pcps, ring_max) < 0)
			return -EINVAL;
	}
	/* A PCP on both rings would go to ring 1 only: refused, not guessed. */
	if (pcps[1] & pcps[2])
		return -EINVAL;
	for (q = 1; q < FEC_MAX_RINGS; q++) {
		unsigned int n = 0, v, first = 0;

		if (pcps[q] == 0)
			continue;
		for (v = 0; v < 8; v++) {
			if (!(pcps[q] & (1u << v)))
				continue;
			/* Four compare fields per register. */
			if (n == 4)
				return -EINVAL;
			if (n == 0)
				first = v;
			rcmr[q] |= FEC_RCMR_CMP(v, n);
			n++;
		}
		/* Unused fields repeat the first value: they must not match PCP 0. */
		for (; n < 4; n++)
			rcmr[q] |= FEC_RCMR_CMP(first, n);
		rcmr[q] |= FEC_RCMR_MATCHEN;
	}
	return 0;
}

static int
copy_arg(const char *key, const char *value, void *opaque)
{
	struct fec_args *a = opaque;
	char *dst;
	size_t len;

	if (strcmp(key, FEC_ARG_MIB_MS) == 0 || strcmp(key, FEC_ARG_LSC_MS) == 0 ||
		strcmp(key, FEC_ARG_TX_TMO) == 0 || strcmp(key, FEC_ARG_WD_MS) == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 0);

		if (*value == '\0' || *end != '\0' || v == 0 || v > FEC_MIB_PERIOD_MAX_MS)
			return -EINVAL;
		if (strcmp(key, FEC_ARG_MIB_MS) == 0)
			a->mib_period_ms = (unsigned int)v;
		else if (strcmp(key, FEC_ARG_LSC_MS) == 0)
			a->lsc_period_ms = (unsigned int)v;
		else if (strcmp(key, FEC_ARG_TX_TMO) == 0)
			a->tx_timeout_ms = (unsigned int)v;
		else
			a->wd_period_ms = (unsigned int)v;
		return 0;
	}
	if (strcmp(key, FEC_ARG_ITR_CLK) == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 10);

		if (*value == '\0' || *end != '\0' || v == 0 || v > 1000)
			return -EINVAL;
		a->itr_clk_mhz = (unsigned int)v;
		return 0;
	}
	if (strcmp(key, FEC_ARG_PTP_CLK) == 0) {
		char *end;

		a->ptp_clk_mhz = strtoul(value, &end, 10);
		return *value == '\0' || *end != '\0' ? -EINVAL : 0;
	}
	if (strcmp(key, FEC_ARG_PHY) == 0 || strcmp(key, FEC_ARG_SHIFT16) == 0 ||
		strcmp(key, FEC_ARG_FOLLOW) == 0) {
		char *end;
		unsigned long v = strtoul(value, &end, 0);

		if (*value == '\0' || *end != '\0' || v > 31)
			return -EINVAL;
		if (strcmp(key, FEC_ARG_PHY) == 0) {
			a->phy_addr = (unsigned int)v;
			a->phy_set = true;
		} else if (strcmp(key, FEC_ARG_FOLLOW) == 0) {
			a->pcap_follow = (unsigned int)v;
		} else {
			a->shift16 = (unsigned int)v;
		}
		return 0;
	}
	if (strcmp(key, FEC_ARG_BACKEND) == 0) {
		dst = a->backend;
		len = sizeof(a->backend);
	} else if (strcmp(key, FEC_ARG_BD) == 0) {
		dst = a->bd;
		len = sizeof(a->bd);
	} else if (strcmp(key, FEC_ARG_PROFILE) == 0 || strcmp(key, FEC_ARG_SOC) == 0) {
		/* profile= is the older name of soc=. */
		dst = a->profile;
		len = sizeof(a->profile);
	} else if (strcmp(key, FEC_ARG_MODE) == 0) {
		dst = a->mode;
		len = sizeof(a->mode);
	} else if (strcmp(key, FEC_ARG_WIRE) == 0) {
		dst = a->wire;
		len = sizeof(a->wire);
	} else if (strcmp(key, FEC_ARG_STATS) == 0) {
		dst = a->stats;
		len = sizeof(a->stats);
	} else if (strcmp(key, FEC_ARG_RCMR) == 0) {
		dst = a->rcmr;
		len = sizeof(a->rcmr);
	} else if (strcmp(key, FEC_ARG_INTR) == 0) {
		dst = a->intr;
		len = sizeof(a->intr);
	} else if (strcmp(key, FEC_ARG_COAL) == 0) {
		dst = a->coal;
		len = sizeof(a->coal);
	} else {
		dst = a->uio_name;
		len = sizeof(a->uio_name);
	}
	if (strlen(value) >= len)
		return -EINVAL;
	snprintf(dst, len, "%s", value);
	return 0;
}

static int
parse_args(struct rte_vdev_device *vdev, struct fec_args *a)
{
	const char *params = rte_vdev_device_args(vdev);
	struct rte_kvargs *kv;
	int ret;

	memset(a, 0, sizeof(*a));
	snprintf(a->backend, sizeof(a->backend), "model");
	snprintf(a->bd, sizeof(a->bd), "enhanced");
	snprintf(a->profile, sizeof(a->profile), "imx8mm");
	snprintf(a->mode, sizeof(a->mode), "step");
	snprintf(a->wire, sizeof(a->wire), "script");
	snprintf(a->stats, sizeof(a->stats), "mib");
	a->shift16 = 1;
	a->mib_period_ms = FEC_MIB_PERIOD_MS;
	a->lsc_period_ms = FEC_LSC_PERIOD_MS;
	a->tx_timeout_ms = FEC_TX_TIMEOUT_MS;
	a->wd_period_ms = FEC_WD_PERIOD_MS;
	a->itr_clk_mhz = FEC_ITR_CLK_MHZ;
	a->ptp_clk_mhz = FEC_PTP_CLK_MHZ;
	if (params == NULL || params[0] == '\0')
		return 0;
	kv = rte_kvargs_parse(params, fec_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = rte_kvargs_process(kv, NULL, copy_arg, a);
	rte_kvargs_free(kv);
	if (ret < 0)
		return -EINVAL;
	if ((strcmp(a->backend, "model") != 0 && strcmp(a->backend, "uio") != 0) ||
		(strcmp(a->bd, "legacy") != 0 && strcmp(a->bd, "enhanced") != 0) ||
		fec_soc_find(a->profile) == NULL ||
		(strcmp(a->mode, "step") != 0 && strcmp(a->mode, "autostep") != 0 &&
			strcmp(a->mode, "thread") != 0) ||
		(strcmp(a->wire, "script") != 0 && strcmp(a->wire, "loop") != 0 &&
			strncmp(a->wire, "ring:", 5) != 0 && strncmp(a->wire, "pcap:", 5) != 0) ||
		(strncmp(a->wire, "ring:", 5) == 0 && a->wire[5] == '\0') || a->shift16 > 1 ||
		a->pcap_follow > 1 || (a->pcap_follow && strncmp(a->wire, "pcap:", 5) != 0) ||
		(strcmp(a->stats, "mib") != 0 && strcmp(a->stats, "sw") != 0))
		return -EINVAL;
	/* RX interrupts: the model's lines, or one UIO IRQ (the only kind on UIO). */
	if (a->intr[0] == '\0')
		snprintf(a->intr, sizeof(a->intr), "%s",
			strcmp(a->backend, "uio") == 0 ? "uio" : "lines");
	if (strcmp(a->intr, "uio") != 0 &&
		(strcmp(a->intr, "lines") != 0 || strcmp(a->backend, "uio") == 0))
		return -EINVAL;
	return 0;
}
static void
phy_bringup(struct fec_priv *fep, bool given)
{
	unsigned int addr;
	int id = -1, bmcr;

	for (addr = given ? fep->phy_addr : 0; addr < 32; addr++) {
		fep->phy_addr = addr;
		id = fec_mdio_read(fep, FEC_PHY_ID1);
		if ((id >= 0 && id != 0xFFFF && id != 0) || given)
			break;
	}
	if (addr == 32 || id < 0 || id == 0xFFFF) {
		fep->phy_addr = given ? fep->phy_addr : 0;
		FEC_LOG(WARNING, "%s: no PHY %s%u on MDIO", fep->name,
			given ? "at address " : "up to ", given ? fep->phy_addr : 31u);
		return;
	}
	bmcr = fec_mdio_read(fep, FEC_PHY_BMCR);
	if (bmcr >= 0 && ((bmcr & (FEC_BMCR_PDOWN | FEC_BMCR_ISO)) || !(bmcr & FEC_BMCR_ANENA)))
		fec_mdio_write(fep, FEC_PHY_BMCR,
			(uint16_t)((bmcr & ~(FEC_BMCR_PDOWN | FEC_BMCR_ISO)) | FEC_BMCR_ANENA |
				   FEC_BMCR_ANRST));
	FEC_LOG(INFO, "%s: PHY %04x:%04x at MDIO address %u", fep->name, (unsigned int)id,
		(unsigned int)fec_mdio_read(fep, FEC_PHY_ID2) & 0xFFFF, fep->phy_addr);
}

static int
fec_probe(struct rte_vdev_device *vdev)
{
	static const uint8_t def_mac[6] = {0x02, 0x00, 0x00, 0xFE, 0xC0, 0x00};
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *dev;
	struct fec_priv *fep;
	struct fec_args a;
	unsigned int i;
	uint32_t inc;
	int ret;

	ret = parse_args(vdev, &a);
	if (ret < 0) {
		FEC_LOG(ERR, "%s: bad devargs '%s'", name, rte_vdev_device_args(vdev));
		return ret;
	}
	dev = rte_eth_vdev_allocate(vdev, sizeof(*fep));
	if (dev == NULL)
		return -ENOMEM;
	fep = dev->data->dev_private;
	snprintf(fep->name, sizeof(fep->name), "%s", name);
	fep->uio_fd = -1;
	fep->intr_uio_fd = -1;
	fep->intr_uio = strcmp(a.intr, "uio") == 0;
	fep->ex = strcmp(a.bd, "enhanced") == 0;
	fep->soc = fec_soc_find(a.profile);
	fep->nb_rings = fep->soc->nb_queues > 1 ? FEC_MAX_RINGS : 1;
	if (a.rcmr[0] != '\0' && (fep->nb_rings == 1 || fec_rcmr_parse(a.rcmr, fep->rcmr,
								&fep->rcmr_ring_max) < 0)) {
		FEC_LOG(ERR,
			"%s: rcmr='%s': want RING:PCP[-PCP] entries, [a,b] for several, rings 1-2, "
			"at most 4 PCPs a ring, none on both (and a 3-ring SoC: %s has %u)",
			name, a.rcmr, a.profile, fep->nb_rings);
		ret = -EINVAL;
		goto fail;
	}
	if (a.coal[0] != '\0') {
		if (!(fep->soc->quirks & FEC_QUIRK_HAS_COALESCE)) {
			FEC_LOG(ERR, "%s: rx_coalesce: soc %s has no RXIC (no HAS_COALESCE quirk)",
				name, a.profile);
			ret = -EINVAL;
			goto fail;
		}
		ret = fec_coalesce_parse(name, a.coal, a.itr_clk_mhz, &fep->rxic);
		if (ret < 0)
			goto fail;
	}
	ret = fec_ptp_clk_parse(name, a.ptp_clk_mhz, &inc);
	if (ret < 0)
		goto fail;
	fec_ptp_init(fep, inc);
	fep->err007885 = (fep->soc->quirks & FEC_QUIRK_ERR007885) != 0;
	fep->err006358 = (fep->soc->quirks & FEC_QUIRK_ERR006358) != 0;
	fep->hard_reset = fec_soc_hard_reset(fep->soc);
	fep->shift16 = a.shift16;
	fep->sw_stats = strcmp(a.stats, "sw") == 0;
	fep->phy_addr = a.phy_addr;
	fep->mib_period_ms = a.mib_period_ms;
	fep->lsc_period_ms = a.lsc_period_ms;
	fep->wd_period_ms = a.wd_period_ms;
	fep->tx_timeout_cycles = a.tx_timeout_ms * rte_get_timer_hz() / 1000;
	rte_spinlock_init(&fep->mib_lock);
	rte_spinlock_init(&fep->restart_lock);
	rte_spinlock_init(&fep->mdio_lock);
	rte_spinlock_init(&fep->eimr_lock);
	fec_fc_init(fep);
	/* MDC = 66 MHz ipg / ((13 + 1) * 2) < 2.5 MHz, hold time 1 cycle. */
	fep->mscr = (13u << 1) | (1u << 8);
	/* The register backend, once: nothing later asks which one the port has. */
	fep->be = fec_backend_find(a.backend);
	if (fep->be == NULL) {
		FEC_LOG(ERR, "%s: backend=%s is not linked into this application%s", name,
			a.backend,
			strcmp(a.backend, "model") == 0
				? " (the model library, drivers/net/fec_pmd/model)"
				: "");
		ret = -ENOTSUP;
		goto fail;
	}
	ret = fep->be->attach(fep, &a);
	if (ret < 0)
		goto fail;
	fep->bd_slice = fec_bd_slice_size(fep->bd_len);
	dev->data->mac_addrs = rte_zmalloc("fec_mac", RTE_ETHER_ADDR_LEN, 0);
	if (dev->data->mac_addrs == NULL) {
		ret = -ENOMEM;
		goto fail_backend;
	}
	memcpy(dev->data->mac_addrs[0].addr_bytes, def_mac, sizeof(def_mac));
	dev->data->mac_addrs[0].addr_bytes[5] = (uint8_t)dev->data->port_id;
	/* Probe-time reset; the MDC clock is needed for the PHY. */
	fec_wr32(fep, FEC_ECR, FEC_ECR_RESET);
	/* What the MAC holds after a reset: model vs QEMU vs silicon (docs/fec_pmd.md). */
	FEC_LOG(DEBUG,
		"%s: after reset ECR %#x RCR %#x TCR %#x MIBC %#x OPD %#x PAUR %#x FTRL %#x "
		"MRBR %#x RDAR %#x EIMR %#x",
		name, fec_rd32(fep, FEC_ECR), fec_rd32(fep, FEC_RCR), fec_rd32(fep, FEC_TCR),
		fec_rd32(fep, FEC_MIBC), fec_rd32(fep, FEC_OPD), fec_rd32(fep, FEC_PAUR),
		fec_rd32(fep, FEC_FTRL), fec_rd32(fep, FEC_MRBR), fec_rd32(fep, FEC_RDAR),
		fec_rd32(fep, FEC_EIMR));
	fec_wr32(fep, FEC_MSCR, fep->mscr);
	phy_bringup(fep, a.phy_set);
	/* Counters start from what the hardware holds now. */
	fec_mib_update(fep);
	for (i = 0; i < FEC_MIB_NB; i++)
		fep->mib[i] = 0;
	dev->dev_ops = &fec_eth_ops;
	/* Link events come from polling the PHY (fec_lsc.c). */
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC;
	dev->rx_pkt_burst = fec_rx_burst;
	dev->tx_pkt_burst = fec_tx_burst;
	dev->tx_pkt_prepare = fec_tx_prepare;
	dev->rx_descriptor_status = fec_rx_descriptor_status;
	dev->tx_descriptor_status = fec_tx_descriptor_status;
	rte_eth_dev_probing_finish(dev);
	FEC_LOG(INFO, "%s: backend %s, %s BDs, profile %s", name, a.backend, a.bd, a.profile);
	return 0;
fail_backend:
	fep->be->detach(fep);
fail:
	rte_eth_dev_release_port(dev);
	return ret;
}

static int
fec_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return 0;
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver fec_vdev_drv = {
	.probe = fec_probe,
	.remove = fec_remove,
};

RTE_PMD_REGISTER_VDEV(net_fec, fec_vdev_drv);
RTE_PMD_REGISTER_PARAM_STRING(net_fec,
	"backend=model|uio bd=legacy|enhanced "
	"soc=imx6q|imx6sx|imx6ul|imx8mq|imx8mm|imx8mp mode=step|autostep|thread "
	"wire=script|loop|ring:<name>|pcap:[<in>,<out>] "
	"phy_addr=<0-31> "
	"uio_name=<name> shift16=0|1 mib_period_ms=<1-30000> "
	"stats=mib|sw lsc_period_ms=<1-30000> tx_timeout_ms=<1-30000> watchdog_ms=<1-30000> "
	"pcap_follow=0|1 rcmr=<ring>:<pcp>[-<pcp>]|[<ring>:<pcp>[-<pcp>],...] "
	"ptp_clk_mhz=<MHz>");
