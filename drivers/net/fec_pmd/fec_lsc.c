/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Link state change events (dev_conf.intr_conf.lsc): the PHY is polled over
 * MDIO by an EAL alarm, as phylib polls a PHY without an interrupt line (once
 * a second by default). A change of status, speed or duplex updates the link
 * (restarting the MAC for a new speed or duplex, as link_update does) and
 * raises RTE_ETH_EVENT_INTR_LSC on the interrupt thread.
 */

#include <rte_alarm.h>

#include "fec_ethdev.h"

static void
fec_lsc_alarm(void *arg)
{
	struct rte_eth_dev *dev = arg;
	struct fec_priv *fep = dev->data->dev_private;
	struct rte_eth_link old, cur;

	rte_eth_linkstatus_get(dev, &old);
	dev->dev_ops->link_update(dev, 0);
	rte_eth_linkstatus_get(dev, &cur);
	if (old.link_status != cur.link_status ||
		(cur.link_status &&
			(old.link_speed != cur.link_speed || old.link_duplex != cur.link_duplex))) {
		fep->lsc_events++;
		rte_eth_dev_callback_process(dev, RTE_ETH_EVENT_INTR_LSC, NULL);
	}
	if (__atomic_load_n(&fep->lsc_on, __ATOMIC_ACQUIRE) &&
		rte_eal_alarm_set(fep->lsc_period_ms * 1000ULL, fec_lsc_alarm, dev) < 0)
		FEC_LOG(ERR, "%s: LSC alarm not re-armed: no more link events", fep->name);
}

int
fec_lsc_start(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	int ret;

	if (!dev->data->dev_conf.intr_conf.lsc)
		return 0;
	__atomic_store_n(&fep->lsc_on, true, __ATOMIC_RELEASE);
	ret = rte_eal_alarm_set(fep->lsc_period_ms * 1000ULL, fec_lsc_alarm, dev);
	if (ret < 0)
		__atomic_store_n(&fep->lsc_on, false, __ATOMIC_RELEASE);
	return ret;
}

void
fec_lsc_stop(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;

	__atomic_store_n(&fep->lsc_on, false, __ATOMIC_RELEASE);
	/* Waits for a running callback; also removes what it re-armed. */
	rte_eal_alarm_cancel(fec_lsc_alarm, dev);
}
