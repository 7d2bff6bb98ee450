/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FRAG_H
#define RT_FRAG_H

/**
 * @file
 * IPv4 fragmentation of a frame for a smaller output MTU, with rte_ip_frag
 * (which copies into non-first fragments only the options whose "copied" bit
 * is set, RFC 791), plus what it leaves to its caller: the header checksums
 * and the Ethernet header of every fragment.
 */

#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

/** Most fragments rt_frag_ipv4() makes of one packet. */
#define RT_FRAG_MAX 64

/**
 * Fragment the frame @p m (Ethernet header first, DF clear, TTL unchanged)
 * into frames of at most @p mtu bytes of IP each, from @p pool, each with
 * @p m's Ethernet header and a correct header checksum; an already fragmented
 * @p m gives fragments with the right offsets and its MF bit on the last.
 *
 * @return the number of fragments in @p out (then @p m has been freed), or a
 *   negative errno (-ENOTSUP: DF set, -EINVAL: more than @p max fragments or
 *   bad header, -ENOMEM) and @p m untouched.
 */
int rt_frag_ipv4(struct rte_mbuf *m, uint16_t mtu, struct rte_mempool *pool, struct rte_mbuf **out,
	uint16_t max);

#endif /* RT_FRAG_H */
