/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <string.h>

#include <rte_ether.h>
#include <rte_ip_frag.h>

#include "rt_frag.h"
#include "rt_ipv4.h"

int
rt_frag_ipv4(struct rte_mbuf *m, uint16_t mtu, struct rte_mempool *pool, struct rte_mbuf **out,
	uint16_t max)
{
	struct rte_ether_hdr eth;
	int32_t n, i;

	if (rte_pktmbuf_data_len(m) < RT_MIN_FRAME)
		return -EINVAL;
	memcpy(&eth, rte_pktmbuf_mtod(m, void *), sizeof(eth));
	rte_pktmbuf_adj(m, RT_L2_LEN);
	/* flat fragments where possible: every PMD sends those */
	if (m->nb_segs == 1)
		n = rte_ipv4_fragment_copy_nonseg_packet(m, out, max, mtu, pool);
	else
		n = rte_ipv4_fragment_packet(m, out, max, mtu, pool, pool);
	if (n < 0) {
		rte_pktmbuf_prepend(m, RT_L2_LEN);
		return n;
	}
	for (i = 0; i < n; i++) {
		struct rte_ipv4_hdr *ip = rte_pktmbuf_mtod(out[i], struct rte_ipv4_hdr *);
		void *l2;

		ip->hdr_checksum = rt_ipv4_cksum(ip);
		l2 = rte_pktmbuf_prepend(out[i], RT_L2_LEN);
		if (l2 == NULL) {
			rte_pktmbuf_free_bulk(out, (unsigned int)n);
			rte_pktmbuf_prepend(m, RT_L2_LEN);
			return -ENOMEM;
		}
		memcpy(l2, &eth, sizeof(eth));
	}
	rte_pktmbuf_free(m);
	return n;
}
