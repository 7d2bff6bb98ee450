/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* The SoC profile table (Linux fec_main.c fec_devinfo, as listed in fec-enet.md §1.8). */

#include <stddef.h>
#include <string.h>

#include "fec_quirks.h"

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
