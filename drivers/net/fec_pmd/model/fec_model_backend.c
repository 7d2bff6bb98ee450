/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model as a net_fec register backend (fec_backend.h): devarg
 * backend=model. Registered by a constructor, so linking this library is what
 * makes model ports possible; the PMD itself knows no model symbol. The
 * devargs it reads (mode, wire, pcap_follow, phy_addr, soc, itr_clk_mhz) were
 * checked by the PMD's probe.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>

#include "fec_backend.h"
#include "fec_model.h"

/*
 * wire=pcap:[IN,OUT]: the brackets keep the comma inside one kvargs value.
 * Either file may be left empty (receive-only or transmit-only cable).
 */
static int
wire_pcap(struct fec_model *model, const char *spec)
{
	char buf[sizeof(((struct fec_args *)0)->wire)];
	size_t len = strlen(spec);
	char *comma;

	if (len < 3 || spec[0] != '[' || spec[len - 1] != ']')
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%.*s", (int)(len - 2), spec + 1);
	comma = strchr(buf, ',');
	if (comma == NULL)
		return -EINVAL;
	*comma = '\0';
	return fec_model_set_wire_pcap(model, buf, comma + 1);
}

/* Out of line on purpose: bench/fec_pmd/run.sh subtracts its inclusive cost. */
void
fec_model_reg_write(void *m, uint32_t off, uint32_t val)
{
	fec_model_write32(m, off, val);
}

static int
model_attach(struct fec_priv *fep, const struct fec_args *a)
{
	struct fec_model_cfg cfg = {
		.profile = a->profile,
		.phy_addr = a->phy_addr,
		.autostep = strcmp(a->mode, "autostep") == 0,
		.check = 1,
		.itr_clk_mhz = a->itr_clk_mhz,
	};
	struct fec_model *m;
	int ret = 0;

	m = fec_model_create(fep->name, &cfg);
	if (m == NULL)
		return -rte_errno;
	if (strcmp(a->wire, "loop") == 0)
		fec_model_set_wire_loop(m, 1);
	else if (strncmp(a->wire, "ring:", 5) == 0)
		ret = fec_model_set_wire_ring(m, a->wire + 5);
	else if (strncmp(a->wire, "pcap:", 5) == 0)
		ret = wire_pcap(m, a->wire + 5);
	if (ret == 0 && a->pcap_follow)
		fec_model_set_wire_pcap_follow(m, 1);
	if (ret < 0)
		FEC_LOG(ERR, "%s: wire '%s': %s", fep->name, a->wire, strerror(-ret));
	if (ret == 0 && strcmp(a->mode, "thread") == 0)
		ret = fec_model_thread_start(m);
	if (ret < 0) {
		fec_model_free(m);
		return ret;
	}
	fep->be_ctx = m;
	fep->regs = fec_model_regs(m);
	fep->wr32 = fec_model_reg_write;
	fep->wr32_ctx = m;
	fep->bd_va = fec_model_bd_area(m, &fep->bd_bus, &fep->bd_len);
	/* Named in the interrupt set-up's logs (fec_intr.c). */
	snprintf(fep->uio_dev, sizeof(fep->uio_dev), "the model's UIO line");
	return 0;
}

static void
model_detach(struct fec_priv *fep)
{
	if (fep->be_ctx == NULL)
		return;
	fec_model_free(fep->be_ctx);
	fep->be_ctx = NULL;
}

/* RX queue setup: the pool goes into a DMA window of the model. */
static int
model_rx_pool(struct fec_priv *fep, struct rte_mempool *mp)
{
	return fec_model_map_mempool(fep->be_ctx, mp);
}

static void
map_pool_cb(struct rte_mempool *mp, void *arg)
{
	struct fec_priv *fep = arg;

	if (fec_is_pktmbuf_pool(mp) && fec_model_map_mempool(fep->be_ctx, mp) < 0)
		FEC_LOG(WARNING, "%s: pool %s not visible to the model DMA", fep->name, mp->name);
}

/* dev_start: any pool the application may transmit from needs bus addresses. */
static int
model_tx_pools(struct fec_priv *fep)
{
	rte_mempool_walk(map_pool_cb, fep);
	return 0;
}

/* In step mode nothing moves unless it is stepped (harmless in thread mode). */
static void
model_wait_tick(const struct fec_priv *fep)
{
	fec_model_step(fep->be_ctx, 1);
}

static int
model_irq_open(struct fec_priv *fep)
{
	return fec_model_uio_open(fep->be_ctx);
}

static void
model_irq_close(struct fec_priv *fep, int fd)
{
	fec_model_uio_close(fep->be_ctx, fd);
}

static int
model_irq_enable(struct fec_priv *fep)
{
	fec_model_uio_irqcontrol(fep->be_ctx, true);
	return 0;
}

static int
model_line_fd(struct fec_priv *fep, uint16_t q)
{
	return fec_model_irq_fd(fep->be_ctx, q);
}

static const struct fec_backend fec_backend_model = {
	.name = "model",
	.attach = model_attach,
	.detach = model_detach,
	.rx_pool = model_rx_pool,
	.tx_pools = model_tx_pools,
	.wait_tick = model_wait_tick,
	.irq_open = model_irq_open,
	.irq_close = model_irq_close,
	.irq_enable = model_irq_enable,
	.irq_counter_size = sizeof(uint64_t), /* its UIO emulation is an eventfd */
	.line_fd = model_line_fd,
};

RTE_INIT(fec_backend_model_register)
{
	fec_backend_register(&fec_backend_model);
}
