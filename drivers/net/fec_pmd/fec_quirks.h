/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FEC_QUIRKS_H
#define FEC_QUIRKS_H

/**
 * @file
 * Per-SoC quirk profiles: the errata and features Linux's fec_main.c
 * associates with each i.MX ENET (its fec_devinfo table). The driver and the
 * model both take their behaviour from the same entry (devarg soc=).
 */

#include <stdint.h>

/* Quirk bits, numbered as Linux's FEC_QUIRK_* (fec.h). */
#define FEC_QUIRK_ENET_MAC         (1u << 0)
#define FEC_QUIRK_HAS_GBIT         (1u << 3)
#define FEC_QUIRK_HAS_BUFDESC_EX   (1u << 4)
#define FEC_QUIRK_HAS_CSUM         (1u << 5)
#define FEC_QUIRK_HAS_VLAN         (1u << 6)
#define FEC_QUIRK_ERR006358        (1u << 7)
#define FEC_QUIRK_HAS_AVB          (1u << 8)
#define FEC_QUIRK_ERR007885        (1u << 9)
#define FEC_QUIRK_BUG_CAPTURE      (1u << 10)
#define FEC_QUIRK_HAS_RACC         (1u << 12)
#define FEC_QUIRK_HAS_COALESCE     (1u << 13)
#define FEC_QUIRK_ERR006687        (1u << 14)
#define FEC_QUIRK_CLEAR_SETUP_MII  (1u << 17)
#define FEC_QUIRK_HAS_MULTI_QUEUES (1u << 19)
#define FEC_QUIRK_HAS_EEE          (1u << 20)
#define FEC_QUIRK_WAKEUP_FROM_INT2 (1u << 22)
#define FEC_QUIRK_HAS_PMQOS        (1u << 23)
#define FEC_QUIRK_HAS_MDIO_C45     (1u << 24)

/** One SoC's ENET. */
struct fec_soc {
	const char *name;  /**< devarg value: imx6q, imx6sx, imx6ul, imx8mq, imx8mm, imx8mp */
	uint32_t quirks;   /**< FEC_QUIRK_* */
	uint8_t nb_queues; /**< RX/TX rings the IP has (3 with AVB) */
};

/**
 * Look a SoC profile up by name.
 *
 * @param name
 *   Profile name (NULL: the default, imx8mm).
 * @return
 *   The entry, or NULL for an unknown name.
 */
const struct fec_soc *fec_soc_find(const char *name);

/**
 * Whether a profile's MAC is reset with ECR.RESET at restart: Linux only
 * disables the multi-queue IPs (ECR=0) and hard-resets the others.
 *
 * @param soc
 *   Profile.
 * @return
 *   1 for a hard reset.
 */
static inline int
fec_soc_hard_reset(const struct fec_soc *soc)
{
	return !(soc->quirks & FEC_QUIRK_HAS_MULTI_QUEUES);
}

#endif /* FEC_QUIRKS_H */
