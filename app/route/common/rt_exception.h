/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_EXCEPTION_H
#define RT_EXCEPTION_H

/**
 * @file
 * Why a worker hands a frame to the slow path, and how the reason travels
 * with the frame: the workers' punt stage (datapath/rt_punt.h) writes it, the
 * slow-path thread (control/rt_control.c) reads it.
 */

#include <stdint.h>

/* X(ENUM_SUFFIX, "counter_name", "why the slow path gets it") */
#define RT_EXCEPTIONS(X)                                                     \
	X(ARP, "arp", "ARP frame")                                           \
	X(LOCAL, "local", "for one of the router's addresses")               \
	X(TTL, "ttl", "TTL would expire: ICMP time exceeded")                \
	X(NO_ROUTE, "no_route", "no route: ICMP net unreachable")            \
	X(REJECT, "reject", "reject route: ICMP host unreachable")           \
	X(MTU, "mtu", "larger than the output MTU: fragment or frag needed") \
	X(UNRESOLVED, "unresolved", "next hop MAC unknown: ARP and hold")

enum rt_exception {
#define RT_EXC_ENUM(sym, name, desc) RT_EXC_##sym,
	RT_EXCEPTIONS(RT_EXC_ENUM)
#undef RT_EXC_ENUM
		RT_EXC_MAX
};

/*
 * The exception and its next hop travel in the mbuf's hash.usr (the RSS hash
 * is of no use once the frame is routed): exception in the top 8 bits, next
 * hop index (24 bits, like rte_lpm's) below.
 */
#define RT_PUNT_TAG(exc, nh) ((uint32_t)(exc) << 24 | ((nh)&0xffffff))
#define RT_PUNT_EXC(m)       ((m)->hash.usr >> 24)
#define RT_PUNT_NH(m)        ((m)->hash.usr & 0xffffff)

#endif /* RT_EXCEPTION_H */
