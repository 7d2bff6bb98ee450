/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Flow control (pause frames), as Linux's fec_enet_set_pauseparam and the
 * pause step of fec_restart: RCR.FCE makes the MAC obey received pause
 * frames; the RX FIFO thresholds (RSEM/RSFL/RAEM/RAFL) make it send XOFF
 * with the duration in OPD when its FIFO fills. RSEM = 0 sends none (RM?).
 */

#include <errno.h>
#include <string.h>

#include "fec_ethdev.h"

/* Linux's values (FEC_ENET_RSEM_V, _RSFL_V, _RAEM_V, _RAFL_V, _OPD_V). */
#define FEC_FC_RSEM 0x84u
#define FEC_FC_RSFL 16u
#define FEC_FC_RAEM 8u
#define FEC_FC_RAFL 8u
#define FEC_FC_OPD  0xFFF0u

#define FEC_RCR_PAUFWD (1u << 13)

uint32_t
fec_fc_restart(struct fec_priv *fep, uint32_t rcr)
{
	bool rx = fep->fc_mode == RTE_ETH_FC_RX_PAUSE || fep->fc_mode == RTE_ETH_FC_FULL;
	bool tx = fep->fc_mode == RTE_ETH_FC_TX_PAUSE || fep->fc_mode == RTE_ETH_FC_FULL;

	fec_wr32(fep, FEC_RSEM, tx ? FEC_FC_RSEM : 0);
	fec_wr32(fep, FEC_RSFL, FEC_FC_RSFL);
	fec_wr32(fep, FEC_RAEM, FEC_FC_RAEM);
	fec_wr32(fep, FEC_RAFL, FEC_FC_RAFL);
	fec_wr32(fep, FEC_OPD, fep->pause_time);
	rcr &= ~(FEC_RCR_FCE | FEC_RCR_PAUFWD);
	if (rx)
		rcr |= FEC_RCR_FCE;
	if (fep->pause_fwd)
		rcr |= FEC_RCR_PAUFWD;
	return rcr;
}

void
fec_fc_init(struct fec_priv *fep)
{
	/* FCE on, as the restart always had it; thresholds as Linux with pause on. */
	fep->fc_mode = RTE_ETH_FC_FULL;
	fep->pause_time = FEC_FC_OPD;
	fep->pause_fwd = false;
}

int
fec_flow_ctrl_get(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc)
{
	struct fec_priv *fep = dev->data->dev_private;

	memset(fc, 0, sizeof(*fc));
	fc->mode = fep->fc_mode;
	fc->pause_time = fep->pause_time;
	fc->mac_ctrl_frame_fwd = fep->pause_fwd;
	fc->autoneg = 0;
	return 0;
}

int
fec_flow_ctrl_set(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc)
{
	struct fec_priv *fep = dev->data->dev_private;

	/* Pause autonegotiation (PHY advertisement) is not done here. */
	if (fc->autoneg || fc->mode > RTE_ETH_FC_FULL)
		return -ENOTSUP;
	fep->fc_mode = fc->mode;
	fep->pause_time = fc->pause_time != 0 ? fc->pause_time : FEC_FC_OPD;
	fep->pause_fwd = fc->mac_ctrl_frame_fwd != 0;
	if (dev->data->dev_started)
		fec_wr32(fep, FEC_RCR, fec_fc_restart(fep, fec_rd32(fep, FEC_RCR)));
	return 0;
}
