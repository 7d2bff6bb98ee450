/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * MAC control: the SoC profile table (Linux fec_main.c fec_devinfo, as listed
 * in fec-enet.md §1.8; the model follows it too), restart/stop sequences,
 * MDIO, multicast hash.
 */

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>

#include "fec_ethdev.h"
#include "fec_rx.h"
#include "fec_tx.h"

#define FEC_POLL_US 1000 /* MDIO and graceful-stop timeouts */

/* What i.MX6SX and the i.MX8M family share (Linux fec_imx6x_info). */
#define FEC_QUIRKS_6SX                                                                             \
	(FEC_QUIRK_ENET_MAC | FEC_QUIRK_HAS_GBIT | FEC_QUIRK_HAS_BUFDESC_EX | FEC_QUIRK_HAS_CSUM | \
		FEC_QUIRK_HAS_VLAN | FEC_QUIRK_HAS_AVB | FEC_QUIRK_ERR007885 |                     \
		FEC_QUIRK_BUG_CAPTURE | FEC_QUIRK_HAS_RACC | FEC_QUIRK_HAS_COALESCE |              \
		FEC_QUIRK_CLEAR_SETUP_MII | FEC_QUIRK_HAS_MULTI_QUEUES)
/* i.MX8MQ adds EEE and int2 wake-up; i.MX8MM/8MP use the 8MQ entry (DT compatible). */
#define FEC_QUIRKS_8MQ \
	(FEC_QUIRKS_6SX | FEC_QUIRK_HAS_EEE | FEC_QUIRK_WAKEUP_FROM_INT2 | FEC_QUIRK_HAS_MDIO_C45)

static const struct fec_soc fec_socs[] = {
	{"imx8mm", FEC_QUIRKS_8MQ, 3},
	{"imx6q",
		FEC_QUIRK_ENET_MAC | FEC_QUIRK_HAS_GBIT | FEC_QUIRK_HAS_BUFDESC_EX |
			FEC_QUIRK_HAS_CSUM | FEC_QUIRK_HAS_VLAN | FEC_QUIRK_ERR006358 |
			FEC_QUIRK_HAS_RACC | FEC_QUIRK_CLEAR_SETUP_MII | FEC_QUIRK_HAS_PMQOS |
			FEC_QUIRK_HAS_MDIO_C45 | FEC_QUIRK_ERR006687,
		1},
	{"imx6sx", FEC_QUIRKS_6SX, 3},
	/* Single queue: no AVB, no multi-queue, so restarted with ECR.RESET. */
	{"imx6ul",
		FEC_QUIRK_ENET_MAC | FEC_QUIRK_HAS_GBIT | FEC_QUIRK_HAS_BUFDESC_EX |
			FEC_QUIRK_HAS_CSUM | FEC_QUIRK_HAS_VLAN | FEC_QUIRK_ERR007885 |
			FEC_QUIRK_BUG_CAPTURE | FEC_QUIRK_HAS_RACC | FEC_QUIRK_HAS_COALESCE |
			FEC_QUIRK_CLEAR_SETUP_MII,
		1},
	{"imx8mq", FEC_QUIRKS_8MQ, 3},
	{"imx8mp", FEC_QUIRKS_8MQ, 3},
};

const struct fec_soc *
fec_soc_find(const char *name)
{
	size_t i;

	if (name == NULL || name[0] == '\0')
		return &fec_socs[0];
	for (i = 0; i < sizeof(fec_socs) / sizeof(fec_socs[0]); i++)
		if (strcmp(fec_socs[i].name, name) == 0)
			return &fec_socs[i];
	return NULL;
}

/* Bit by bit, as Linux's ether_crc_le(); the model uses a table. */
unsigned int
fec_hash_bin(const uint8_t *addr)
{
	uint32_t crc = 0xFFFFFFFFu;
	unsigned int i, b;

	for (i = 0; i < 6; i++) {
		uint8_t byte = addr[i];

		for (b = 0; b < 8; b++, byte >>= 1)
			crc = (crc >> 1) ^ (((crc ^ byte) & 1) ? 0xEDB88320u : 0);
	}
	return crc >> 26;
}

static int
mdio_wait(struct fec_priv *fep)
{
	unsigned int i;

	for (i = 0; i < FEC_POLL_US; i++) {
		if (fec_rd32(fep, FEC_EIR) & FEC_EIR_MII) {
			fec_wr32(fep, FEC_EIR, FEC_EIR_MII);
			return 0;
		}
		rte_delay_us(1);
	}
	fep->mdio_timeouts++;
	FEC_LOG(ERR, "%s: MDIO timeout", fep->name);
	return -ETIMEDOUT;
}

/*
 * One MDIO transaction at a time: the LSC alarm polls the PHY from the
 * interrupt thread while a control thread may run link_update or
 * flow_ctrl_set (pause autonegotiation writes ANAR and BMCR). MMFR and
 * EIR.MII are one per MAC, so two transactions interleaved would read each
 * other's data or take each other's completion. Never taken by a burst; taken
 * inside restart_lock, never the other way round.
 */
int
fec_mdio_read(struct fec_priv *fep, unsigned int reg)
{
	int ret;

	rte_spinlock_lock(&fep->mdio_lock);
	fec_wr32(fep, FEC_EIR, FEC_EIR_MII);
	fec_wr32(fep, FEC_MMFR,
		FEC_MMFR_ST_C22 | FEC_MMFR_OP_RD | FEC_MMFR_PA(fep->phy_addr) | FEC_MMFR_RA(reg) |
			FEC_MMFR_TA);
	ret = mdio_wait(fep);
	if (ret == 0)
		ret = (int)FEC_MMFR_DATA(fec_rd32(fep, FEC_MMFR));
	rte_spinlock_unlock(&fep->mdio_lock);
	return ret;
}

int
fec_mdio_write(struct fec_priv *fep, unsigned int reg, uint16_t val)
{
	int ret;

	rte_spinlock_lock(&fep->mdio_lock);
	fec_wr32(fep, FEC_EIR, FEC_EIR_MII);
	fec_wr32(fep, FEC_MMFR,
		FEC_MMFR_ST_C22 | FEC_MMFR_OP_WR | FEC_MMFR_PA(fep->phy_addr) | FEC_MMFR_RA(reg) |
			FEC_MMFR_TA | val);
	ret = mdio_wait(fep);
	rte_spinlock_unlock(&fep->mdio_lock);
	return ret;
}

static void
set_mac(struct fec_priv *fep, const uint8_t *a)
{
	fec_wr32(fep, FEC_PALR,
		((uint32_t)a[0] << 24) | ((uint32_t)a[1] << 16) | ((uint32_t)a[2] << 8) | a[3]);
	fec_wr32(fep, FEC_PAUR, ((uint32_t)a[4] << 24) | ((uint32_t)a[5] << 16));
}

/* Linux's IDLE_SLOPE_1/2: the credit rate of the AVB TX classes. */
#define FEC_IDLE_SLOPE 0x200u

static void
rx_bd_init(struct fec_rxq *rxq)
{
	uint16_t i;

	/* A frame half chained is lost with the ring's reset. */
	fec_rx_sg_drop(rxq);
	for (i = 0; i < rxq->nb_desc; i++) {
		volatile struct fec_bd *bd =
			(volatile struct fec_bd *)(rxq->bd + ((uint32_t)i << rxq->bd_shift));
		struct rte_mbuf *m = rxq->sw_ring[i];

		if (rxq->ex) {
			volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

			bx->esc = rte_cpu_to_le_32(FEC_BD_EX_RX_INT);
			bx->prot = 0;
			bx->bdu = 0;
			bx->ts = 0;
		}
		bd->datlen = 0;
		bd->addr = rte_cpu_to_le_32(
			m == NULL ? 0 : (uint32_t)(m->buf_iova + RTE_PKTMBUF_HEADROOM));
		rte_io_wmb();
		bd->sc = rte_cpu_to_le_16((m != NULL && rxq->started ? FEC_BD_E : 0) |
					  (i == rxq->nb_desc - 1 ? FEC_BD_W : 0));
	}
	rxq->cur = 0;
}

static void
tx_bd_init(struct fec_txq *txq)
{
	uint16_t i;

	fec_tx_free_inflight(txq);
	for (i = 0; i < txq->nb_desc; i++) {
		volatile struct fec_bd *bd =
			(volatile struct fec_bd *)(txq->bd + ((uint32_t)i << txq->bd_shift));

		if (txq->ex) {
			volatile struct fec_bd_ex *bx = (volatile struct fec_bd_ex *)bd;

			bx->esc = 0;
			bx->bdu = 0;
		}
		bd->addr = 0;
		bd->datlen = 0;
		bd->sc = rte_cpu_to_le_16(i == txq->nb_desc - 1 ? FEC_BD_W : 0);
	}
}

/*
 * Restart steps 4-6 for every ring (Linux fec_enet_bd_init and
 * fec_enet_enable_ring): BDs, start and buffer size registers; on multi-ring
 * IPs RCMR and the TX class of rings 1 and 2, and a ring without a queue
 * gets start 0, no classification and no class (the MAC is only disabled
 * across restarts there: values of an earlier configuration stay otherwise).
 */
static void
rings_init(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q;

	for (q = 0; q < fep->nb_rings; q++) {
		struct fec_rxq *rxq = fec_rxq_at(dev, q);
		struct fec_txq *txq = fec_txq_at(dev, q);

		if (rxq != NULL) {
			rx_bd_init(rxq);
			fec_wr32(fep, fec_rdsr_off(q), rxq->bd_bus);
			fec_wr32(fep, fec_mrbr_off(q), rxq->buf_len);
		} else if (q != 0) {
			fec_wr32(fep, fec_rdsr_off(q), 0);
		}
		if (q != 0)
			fec_wr32(fep, q == 1 ? FEC_RCMR1 : FEC_RCMR2,
				rxq != NULL ? fep->rcmr[q] : 0);
		if (txq != NULL) {
			tx_bd_init(txq);
			fec_wr32(fep, fec_tdsr_off(q), txq->bd_bus);
		} else if (q != 0) {
			fec_wr32(fep, fec_tdsr_off(q), 0);
		}
		if (q != 0)
			fec_wr32(fep, q == 1 ? FEC_DMA_CFG1 : FEC_DMA_CFG2,
				txq != NULL ? FEC_DMA_CLASS_EN | FEC_IDLE_SLOPE : 0);
	}
}

void
fec_hw_restart(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint32_t rcr, ecr, max_fl;
	uint16_t q;

	/* A hard reset stops the 1588 counter: its time is kept across (fec_ptp.c). */
	fec_ptp_restart_save(fep);
	/* 1. Multi-queue IPs are only disabled; older ones take a hard reset. */
	fec_wr32(fep, FEC_ECR, fep->hard_reset ? FEC_ECR_RESET : 0);
	rte_delay_us(10);
	/* 2. Reset clears the station address. */
	set_mac(fep, dev->data->mac_addrs[0].addr_bytes);
	/* 3. Ack everything but MDIO. */
	fec_wr32(fep, FEC_EIR, ~FEC_EIR_MII);
	/* 4-6. Rings. */
	rings_init(dev);
	/* 7. Duplex, MDC. */
	rcr = FEC_RCR_MII_MODE | FEC_RCR_NLC | FEC_RCR_FCE | FEC_RCR_RGMII;
	if (fep->full_duplex) {
		fec_wr32(fep, FEC_TCR, FEC_TCR_FDEN);
	} else {
		fec_wr32(fep, FEC_TCR, 0);
		rcr |= FEC_RCR_DRT;
	}
	fec_wr32(fep, FEC_MSCR, fep->mscr);
	/* 8. Accelerators; truncate at what one buffer holds (what scatter takes). */
	fec_wr32(fep, FEC_RACC, fep->shift16 ? FEC_RACC_SHIFT16 : 0);
	fec_wr32(fep, FEC_FTRL, fep->scatter ? FEC_MAX_FRAME : fep->rx_frame_max);
	/* 9-11. Speed, frame length, filters. */
	ecr = FEC_ECR_ETHEREN | FEC_ECR_DBSWP;
	if (fep->speed == 1000)
		ecr |= FEC_ECR_SPEED;
	else if (fep->speed == 10)
		rcr |= FEC_RCR_RMII_10T;
	/* Room for one VLAN tag: a tagged frame of a full MTU is not a length error. */
	max_fl = dev->data->mtu + RTE_ETHER_HDR_LEN + RTE_VLAN_HLEN + RTE_ETHER_CRC_LEN;
	rcr |= max_fl << FEC_RCR_MAX_FL_SHIFT;
	if (dev->data->promiscuous)
		rcr |= FEC_RCR_PROM;
	rcr = fec_fc_restart(fep, rcr);
	fec_wr32(fep, FEC_RCR, rcr);
	if (dev->data->all_multicast) {
		fec_wr32(fep, FEC_GAUR, UINT32_MAX);
		fec_wr32(fep, FEC_GALR, UINT32_MAX);
	} else {
		fec_wr32(fep, FEC_GAUR, fep->gaur);
		fec_wr32(fep, FEC_GALR, fep->galr);
	}
	fec_wr32(fep, FEC_IAUR, 0);
	fec_wr32(fep, FEC_IALR, 0);
	/* 12. Store-and-forward, descriptor format. */
	fec_wr32(fep, FEC_TFWR, FEC_TFWR_STRFWD);
	if (fep->ex)
		ecr |= FEC_ECR_EN1588;
	/* 13. Counters on, MAC on, RX armed. */
	fec_wr32(fep, FEC_MIBC, 0);
	fec_wr32(fep, FEC_ECR, ecr);
	for (q = 0; q < dev->data->nb_rx_queues; q++)
		if (fec_rxq_at(dev, q) != NULL)
			fec_wr32(fep, fec_rdar_off(q), 0);
	/* 14. Only what the application enabled (fec_intr.c); 0 when polled. */
	rte_spinlock_lock(&fep->eimr_lock);
	fec_wr32(fep, FEC_EIMR, fep->eimr);
	rte_spinlock_unlock(&fep->eimr_lock);
	/* RX coalescing (devarg rx_coalesce), on every ring as Linux's fec_enet_itr_coal_set. */
	if (fep->rxic != 0)
		for (q = 0; q < fep->nb_rings; q++)
			fec_wr32(fep, FEC_RXIC(q), fep->rxic);
	/* 14. The 1588 counter again if the reset stopped it (Linux's fec_ptp_restore_state). */
	fec_ptp_restart_restore(fep);
}

void
fec_hw_stop(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	unsigned int i;

	if (fep->link_up) {
		fec_wr32(fep, FEC_TCR, fec_rd32(fep, FEC_TCR) | FEC_TCR_GTS);
		for (i = 0; i < FEC_POLL_US; i++) {
			if (fec_rd32(fep, FEC_EIR) & FEC_EIR_GRA)
				break;
			rte_delay_us(1);
		}
		if (i == FEC_POLL_US) {
			/* Linux goes on too (fec_stop): the disable below halts the uDMA anyway. */
			fep->gra_timeouts++;
			FEC_LOG(WARNING, "%s: graceful stop timed out", fep->name);
		}
		fec_wr32(fep, FEC_EIR, FEC_EIR_GRA);
	}
	fec_ptp_restart_save(fep);
	fec_wr32(fep, FEC_ECR, fep->hard_reset ? FEC_ECR_RESET : 0);
	/* The 1588 time runs on while stopped (timesync is not the port's state). */
	fec_ptp_restart_restore(fep);
	fec_wr32(fep, FEC_TCR, 0);
	fec_wr32(fep, FEC_MSCR, fep->mscr);
	fec_wr32(fep, FEC_EIMR, 0);
}
