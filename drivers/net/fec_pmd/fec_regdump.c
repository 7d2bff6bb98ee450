/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * get_reg: the 4 KiB register block as 1024 32-bit words, indexed by offset/4.
 * Only registers the ENET has are read (as Linux's fec_enet_get_regs reads a
 * list): holes read as 0, so a dump never touches an undefined address.
 */

#include <errno.h>
#include <string.h>

#include "fec_ethdev.h"

static const uint16_t fec_dump_regs[] = {FEC_EIR, FEC_EIMR, FEC_RDAR, FEC_TDAR, FEC_ECR, FEC_MMFR,
	FEC_MSCR, FEC_MIBC, FEC_RCR, FEC_TCR, FEC_PALR, FEC_PAUR, FEC_OPD, FEC_IAUR, FEC_IALR,
	FEC_GAUR, FEC_GALR, FEC_TFWR, FEC_RDSR, FEC_TDSR, FEC_MRBR, FEC_RSFL, FEC_RSEM, FEC_RAEM,
	FEC_RAFL, FEC_TSEM, FEC_TAEM, FEC_TAFL, FEC_TIPG, FEC_FTRL, FEC_TACC, FEC_RACC};

/* The AVB rings' registers: read only on the 3-ring IPs (reserved elsewhere). */
static const uint16_t fec_dump_regs_avb[] = {FEC_RDSR1, FEC_TDSR1, FEC_MRBR1, FEC_RDSR2, FEC_TDSR2,
	FEC_MRBR2, FEC_RCMR1, FEC_RCMR2, FEC_DMA_CFG1, FEC_DMA_CFG2, FEC_RDAR1, FEC_TDAR1,
	FEC_RDAR2, FEC_TDAR2};

#define FEC_DUMP_WORDS (FEC_REG_SPACE / 4)

static bool
dumped(const struct fec_priv *fep, uint32_t off)
{
	unsigned int i;

	if (off >= FEC_MIB_FIRST && off <= FEC_MIB_LAST)
		return true;
	for (i = 0; i < RTE_DIM(fec_dump_regs); i++)
		if (fec_dump_regs[i] == off)
			return true;
	for (i = 0; fep->nb_rings > 1 && i < RTE_DIM(fec_dump_regs_avb); i++)
		if (fec_dump_regs_avb[i] == off)
			return true;
	return false;
}

int
fec_get_reg(struct rte_eth_dev *dev, struct rte_dev_reg_info *info)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t *out = info->data;
	uint32_t i, len;

	/* The SoC profile's quirk bits tell a reader which ENET this is. */
	info->version = fep->soc->quirks;
	info->width = sizeof(uint32_t);
	if (out == NULL) {
		info->offset = 0;
		info->length = FEC_DUMP_WORDS;
		return 0;
	}
	len = info->length == 0 ? FEC_DUMP_WORDS - info->offset : info->length;
	if (info->offset >= FEC_DUMP_WORDS || len > FEC_DUMP_WORDS - info->offset)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		uint32_t off = (info->offset + i) * 4;

		out[i] = dumped(fep, off) ? fec_rd32(fep, off) : 0;
	}
	info->length = len;
	return 0;
}
