/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>

#include "rt_worker_setup.h"

int
rt_worker_init(struct rt_worker *w, struct rt_table *t, struct rte_ring *punt,
	unsigned int thread_id, uint64_t *drops)
{
	if (w == NULL || t == NULL || punt == NULL)
		return -EINVAL;
	memset(w, 0, sizeof(*w));
	w->fib = t->fib;
	w->nh = t->nh;
	w->nh_info = t->nh_info;
	w->ports = t->ports;
	w->default_nh = &t->default_nh;
	w->punt = punt;
	w->punt_arp_reserve = rte_ring_get_capacity(punt) / RT_PUNT_ARP_SHARE;
	w->qsbr = t->qsbr;
	w->thread_id = thread_id;
	w->drops = drops != NULL ? drops : w->own_drops;
	if (rte_rcu_qsbr_thread_register(w->qsbr, thread_id) != 0)
		return -rte_errno;
	rte_rcu_qsbr_thread_online(w->qsbr, thread_id);
	return 0;
}

void
rt_worker_fini(struct rt_worker *w)
{
	if (w->qsbr == NULL)
		return;
	rte_rcu_qsbr_thread_offline(w->qsbr, w->thread_id);
	rte_rcu_qsbr_thread_unregister(w->qsbr, w->thread_id);
	w->qsbr = NULL;
}
