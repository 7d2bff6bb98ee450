/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Flow control (pause frames), as Linux's fec_enet_set_pauseparam and the
 * pause step of fec_restart: RCR.FCE makes the MAC obey received pause
 * frames; the RX FIFO thresholds (RSEM/RSFL/RAEM/RAFL) make it send XOFF
 * with the duration in OPD when its FIFO fills. RSEM = 0 sends none (RM?).
 *
 * Pause autonegotiation, as phylib does for Linux's fec: the asked mode is
 * advertised in the PHY's ANAR (PAUSE, ASM_DIR as linkmode_set_pause sets
 * them), autonegotiation restarted, and every link update resolves the mode
 * from ANAR and the partner's ANLPAR per IEEE 802.3 Annex 28B (Linux's
 * linkmode_resolve_pause; none on a half-duplex or down link).
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
	fep->fc_autoneg = false;
	fep->pause_time = FEC_FC_OPD;
	fep->pause_fwd = false;
}

/* ANAR pause bits for a mode, as Linux's linkmode_set_pause(adv, tx, rx). */
static uint16_t
fc_adv(enum rte_eth_fc_mode mode)
{
	bool rx = mode == RTE_ETH_FC_RX_PAUSE || mode == RTE_ETH_FC_FULL;
	bool tx = mode == RTE_ETH_FC_TX_PAUSE || mode == RTE_ETH_FC_FULL;

	return (uint16_t)((rx ? FEC_ADV_PAUSE : 0) | (rx != tx ? FEC_ADV_ASYM : 0));
}

/* IEEE 802.3 Annex 28B, Table 28B-3 (Linux's linkmode_resolve_pause). */
static enum rte_eth_fc_mode
fc_resolve(uint16_t local, uint16_t partner)
{
	uint16_t both = local & partner;
	bool rx, tx;

	if (both & FEC_ADV_PAUSE) {
		rx = tx = true;
	} else if (both & FEC_ADV_ASYM) {
		/* Only one side can pause the other: the one advertising PAUSE obeys. */
		rx = (local & FEC_ADV_PAUSE) != 0;
		tx = (partner & FEC_ADV_PAUSE) != 0;
	} else {
		rx = tx = false;
	}
	if (rx && tx)
		return RTE_ETH_FC_FULL;
	if (rx)
		return RTE_ETH_FC_RX_PAUSE;
	return tx ? RTE_ETH_FC_TX_PAUSE : RTE_ETH_FC_NONE;
}

void
fec_fc_apply(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	if (dev->data->dev_started)
		fec_wr32(fep, FEC_RCR, fec_fc_restart(fep, fec_rd32(fep, FEC_RCR)));
}

bool
fec_fc_link_update(struct rte_eth_dev *dev, const struct rte_eth_link *link)
{
	struct fec_priv *fep = dev->data->dev_private;
	enum rte_eth_fc_mode mode = RTE_ETH_FC_NONE;
	int anar, anlpar;

	if (!fep->fc_autoneg)
		return false;
	/* Pause is a full-duplex feature (phylib resolves none otherwise). */
	if (link->link_status && link->link_duplex == RTE_ETH_LINK_FULL_DUPLEX) {
		anar = fec_mdio_read(fep, FEC_PHY_ANAR);
		anlpar = fec_mdio_read(fep, FEC_PHY_ANLPAR);
		if (anar < 0 || anlpar < 0)
			return false; /* keep the last resolution; link_update logs the timeout */
		mode = fc_resolve((uint16_t)anar, (uint16_t)anlpar);
	}
	if (mode == fep->fc_mode)
		return false;
	fep->fc_mode = mode;
	return true;
}

int
fec_flow_ctrl_get(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc)
{
	struct fec_priv *fep = dev->data->dev_private;

	memset(fc, 0, sizeof(*fc));
	fc->mode = fep->fc_mode;
	fc->pause_time = fep->pause_time;
	fc->mac_ctrl_frame_fwd = fep->pause_fwd;
	fc->autoneg = fep->fc_autoneg;
	return 0;
}

/*
 * Advertise @p mode's pause bits and restart autonegotiation, as phylib's
 * phy_set_asym_pause + phy_start_aneg: 0, -ENOTSUP (no PHY, or one that
 * cannot autonegotiate) or the MDIO error.
 */
static int
fc_advertise(struct fec_priv *fep, enum rte_eth_fc_mode mode)
{
	int id, bmsr, anar, bmcr, ret;

	id = fec_mdio_read(fep, FEC_PHY_ID1);
	bmsr = id < 0 ? id : fec_mdio_read(fep, FEC_PHY_BMSR);
	if (bmsr < 0)
		return bmsr;
	if (id == 0 || id == 0xFFFF || !(bmsr & FEC_BMSR_ANABLE)) {
		FEC_LOG(ERR, "%s: pause autoneg: %s at MDIO address %u", fep->name,
			id == 0 || id == 0xFFFF ? "no PHY" : "the PHY cannot autonegotiate",
			fep->phy_addr);
		return -ENOTSUP;
	}
	anar = fec_mdio_read(fep, FEC_PHY_ANAR);
	bmcr = anar < 0 ? anar : fec_mdio_read(fep, FEC_PHY_BMCR);
	if (bmcr < 0)
		return bmcr;
	anar = (anar & ~(FEC_ADV_PAUSE | FEC_ADV_ASYM)) | fc_adv(mode);
	ret = fec_mdio_write(fep, FEC_PHY_ANAR, (uint16_t)anar);
	if (ret == 0)
		ret = fec_mdio_write(fep, FEC_PHY_BMCR,
			(uint16_t)((bmcr & ~(FEC_BMCR_PDOWN | FEC_BMCR_ISO)) | FEC_BMCR_ANENA |
				   FEC_BMCR_ANRST));
	return ret;
}

int
fec_flow_ctrl_set(struct rte_eth_dev *dev, struct rte_eth_fc_conf *fc)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret;

	if (fc->autoneg > 1 || (unsigned int)fc->mode > RTE_ETH_FC_FULL) {
		FEC_LOG(ERR, "%s: flow control: mode %u, autoneg %u: modes are 0-3, autoneg 0 or 1",
			fep->name, (unsigned int)fc->mode, fc->autoneg);
		return -EINVAL;
	}
	if (fc->autoneg) {
		ret = fc_advertise(fep, fc->mode);
		if (ret < 0)
			return ret;
	}
	fep->fc_autoneg = fc->autoneg != 0;
	fep->pause_time = fc->pause_time != 0 ? fc->pause_time : FEC_FC_OPD;
	fep->pause_fwd = fc->mac_ctrl_frame_fwd != 0;
	/*
	 * Autonegotiated: link_update resolves the mode on what the PHY shows
	 * now (and later polls, the application's or LSC's, on the renegotiated
	 * link); an MDIO timeout there keeps the last mode until the next one.
	 */
	if (fep->fc_autoneg)
		(void)dev->dev_ops->link_update(dev, 0);
	else
		fep->fc_mode = fc->mode;
	fec_fc_apply(dev);
	return 0;
}
