/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ADDR6_H
#define RT_ADDR6_H

/**
 * @file
 * IPv6 address helpers, the twin of the IPv4 ones (rt_addr.h): the address
 * type, prefix masks, compare, and the scope tests the input checks make
 * (RFC 4291 §2.4-§2.7), static inline so that the datapath uses them as they
 * are; parse and format (RFC 4291 §2.2 text in, RFC 5952 canonical text out)
 * for the control path. Addresses are 16 bytes in network order, the layout
 * of a header's addresses and of DPDK's struct rte_ipv6_addr (24.11), so a
 * pointer into a packet is a struct rt6_addr * (alignment 1: any offset).
 * Common room: both the workers and the control path include it.
 */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/** An IPv6 address, network order. */
struct rt6_addr {
	uint8_t a[16];
};

/** Characters of the longest RFC 5952 text and its NUL (INET6_ADDRSTRLEN). */
#define RT6_ADDR_STRLEN 46
/** The same with "/128" after it: the size of rt6_prefix_str()'s buffer. */
#define RT6_PREFIX_STRLEN (RT6_ADDR_STRLEN + 4)

/** The two 64-bit halves of @p x in host order (hi = the first 8 bytes). */
static inline void
rt6_addr_halves(const struct rt6_addr *x, uint64_t *hi, uint64_t *lo)
{
	uint64_t h, l;

	memcpy(&h, &x->a[0], 8);
	memcpy(&l, &x->a[8], 8);
	*hi = __builtin_bswap64(h);
	*lo = __builtin_bswap64(l);
}

/** The address of the halves @p hi, @p lo (host order): rt6_addr_halves() backwards. */
static inline void
rt6_addr_from_halves(struct rt6_addr *x, uint64_t hi, uint64_t lo)
{
	hi = __builtin_bswap64(hi);
	lo = __builtin_bswap64(lo);
	memcpy(&x->a[0], &hi, 8);
	memcpy(&x->a[8], &lo, 8);
}

/** True when @p x and @p y are the same address. */
static inline bool
rt6_addr_eq(const struct rt6_addr *x, const struct rt6_addr *y)
{
	return memcmp(x, y, sizeof(*x)) == 0;
}

/** <0, 0, >0 as @p x sorts before, with or after @p y (numeric order). */
static inline int
rt6_addr_cmp(const struct rt6_addr *x, const struct rt6_addr *y)
{
	return memcmp(x, y, sizeof(*x));
}

/** The network mask of prefix length @p plen (0..128; more is taken as 128). */
static inline void
rt6_mask(uint8_t plen, struct rt6_addr *m)
{
	const uint64_t hi = plen == 0 ? 0 : (plen >= 64 ? UINT64_MAX : UINT64_MAX << (64 - plen));
	const uint64_t lo =
		plen <= 64 ? 0 : (plen >= 128 ? UINT64_MAX : UINT64_MAX << (128 - plen));

	rt6_addr_from_halves(m, hi, lo);
}

/** Clear the host bits of @p x beyond prefix length @p plen. */
static inline void
rt6_addr_mask(struct rt6_addr *x, uint8_t plen)
{
	struct rt6_addr m;

	rt6_mask(plen, &m);
	for (unsigned int i = 0; i < 16; i++)
		x->a[i] &= m.a[i];
}

/** True when @p x has a host bit set beyond prefix length @p plen. */
static inline bool
rt6_addr_has_host_bits(const struct rt6_addr *x, uint8_t plen)
{
	struct rt6_addr y = *x;

	rt6_addr_mask(&y, plen);
	return !rt6_addr_eq(&y, x);
}

/** True when @p x lies in @p prefix/@p plen (the prefix's host bits are not read). */
static inline bool
rt6_addr_in_prefix(const struct rt6_addr *x, const struct rt6_addr *prefix, uint8_t plen)
{
	struct rt6_addr m;

	rt6_mask(plen, &m);
	for (unsigned int i = 0; i < 16; i++)
		if (((x->a[i] ^ prefix->a[i]) & m.a[i]) != 0)
			return false;
	return true;
}

/** True for :: (RFC 4291 §2.5.2): never a destination, a source only of DAD. */
static inline bool
rt6_addr_is_unspec(const struct rt6_addr *x)
{
	static const struct rt6_addr zero;

	return rt6_addr_eq(x, &zero);
}

/** True for ::1 (RFC 4291 §2.5.3): never on a wire. */
static inline bool
rt6_addr_is_loopback(const struct rt6_addr *x)
{
	static const struct rt6_addr one = {.a = {[15] = 1}};

	return rt6_addr_eq(x, &one);
}

/** True for a multicast address, ff00::/8 (RFC 4291 §2.7). */
static inline bool
rt6_addr_is_mcast(const struct rt6_addr *x)
{
	return x->a[0] == 0xff;
}

/**
 * The scope of multicast address @p x (RFC 4291 §2.7, RFC 7346): 1 interface-local,
 * 2 link-local, 5 site-local, 8 organization-local, 14 global (0 and 15 reserved).
 */
static inline unsigned int
rt6_mcast_scope(const struct rt6_addr *x)
{
	return x->a[1] & 0x0f;
}

/** True for a link-local unicast address, fe80::/10 (RFC 4291 §2.5.6): never forwarded. */
static inline bool
rt6_addr_is_linklocal(const struct rt6_addr *x)
{
	return x->a[0] == 0xfe && (x->a[1] & 0xc0) == 0x80;
}

/** True for an IPv4-mapped address, ::ffff:0:0/96 (RFC 4291 §2.5.5.2). */
static inline bool
rt6_addr_is_v4mapped(const struct rt6_addr *x)
{
	static const uint8_t pfx[12] = {[10] = 0xff, [11] = 0xff};

	return memcmp(x->a, pfx, sizeof(pfx)) == 0;
}

/** The IPv4 address (host order) in the last 32 bits of @p x (for ::ffff:a.b.c.d). */
static inline uint32_t
rt6_addr_v4(const struct rt6_addr *x)
{
	return (uint32_t)x->a[12] << 24 | (uint32_t)x->a[13] << 16 | (uint32_t)x->a[14] << 8 |
	       x->a[15];
}

/**
 * Parse an IPv6 address in any RFC 4291 §2.2 text form: eight groups of 1-4 hex digits,
 * "::" once for a run of zero groups, the last 32 bits as a dotted quad; no zone ("%eth0"),
 * no brackets, no spaces.
 *
 * @return 0 or -EINVAL.
 */
int rt6_addr_parse(const char *s, struct rt6_addr *x);

/**
 * Parse "ADDRESS/LEN" (LEN 0..128, a number as numparse.h reads every one) into @p x and @p plen;
 * a bare address means /128 when @p need_len is false. Host bits are kept: the caller
 * decides whether they are an error (rt6_addr_has_host_bits()).
 *
 * @return 0 or -EINVAL.
 */
int rt6_prefix_parse(const char *s, struct rt6_addr *x, uint8_t *plen, bool need_len);

/**
 * Format @p x in RFC 5952's canonical text into @p buf (RT6_ADDR_STRLEN bytes): lower-case
 * hex without leading zeros, the longest run of two or more zero groups (the first of equal
 * runs) as "::", and an IPv4-mapped address as ::ffff:a.b.c.d (§5).
 *
 * @return @p buf.
 */
const char *rt6_addr_str(const struct rt6_addr *x, char *buf);

/** Format @p x/@p plen as rt6_addr_str() and "/LEN" into @p buf (RT6_PREFIX_STRLEN bytes). */
const char *rt6_prefix_str(const struct rt6_addr *x, uint8_t plen, char *buf);

#endif /* RT_ADDR6_H */
