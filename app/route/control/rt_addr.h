/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ADDR_H
#define RT_ADDR_H

/**
 * @file
 * IPv4 address helpers of the control path: parse and format addresses and
 * prefixes, masks, and the rules every table writer and the config share on
 * what may be a gateway. Addresses are in host byte order. Family-specific
 * names carry the family (rt4_), so an IPv6 twin (rt6_, rt_addr6.h) fits
 * beside without renaming.
 */

#include <stdbool.h>
#include <stdint.h>

/** Characters of a dotted quad and its NUL: the size of rt4_addr_str()'s buffer. */
#define RT4_ADDR_STRLEN 16

/** Format @p ip as a dotted quad into @p buf (RT4_ADDR_STRLEN bytes); returns @p buf. */
const char *rt4_addr_str(uint32_t ip, char *buf);

/**
 * Parse "a.b.c.d" (strictly: four decimal octets of at most three digits)
 * into @p ip.
 *
 * @return 0 or -EINVAL.
 */
int rt4_addr_parse(const char *s, uint32_t *ip);

/**
 * Parse "a.b.c.d/len" (len 0..32) into @p ip and @p plen; a bare address
 * means /32 when @p need_len is false.
 *
 * @return 0 or -EINVAL.
 */
int rt4_prefix_parse(const char *s, uint32_t *ip, uint8_t *plen, bool need_len);

/** Network mask of a prefix length (0..32), host order. */
static inline uint32_t
rt4_mask(uint8_t plen)
{
	return plen == 0 ? 0 : UINT32_MAX << (32 - plen);
}

/**
 * True when @p ip, on a network of prefix length @p plen, is that network's
 * network (host part all zeros) or broadcast (all ones) address; a /31 or
 * /32 has neither (RFC 3021).
 */
static inline bool
rt4_net_bcast_or_net(uint32_t ip, uint8_t plen)
{
	const uint32_t m = rt4_mask(plen);

	return plen <= 30 && ((ip & ~m) == 0 || (ip | m) == UINT32_MAX);
}

/**
 * Why @p ip may not be a next hop or a neighbour on the network
 * @p own/@p plen (the router's address there is @p own): NULL when it may,
 * else "not on ..."-style text. The one rule for gateways and static
 * neighbours, from the config file (before EAL) and the table alike.
 */
static inline const char *
rt4_neigh_addr_invalid(uint32_t ip, uint32_t own, uint8_t plen)
{
	if (((ip ^ own) & rt4_mask(plen)) != 0)
		return "not on any connected network";
	if (ip == own)
		return "the router's own address";
	if (rt4_net_bcast_or_net(ip, plen))
		return "the network or broadcast address of a connected network";
	return NULL;
}

#endif /* RT_ADDR_H */
