/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_DROP_H
#define RT_DROP_H

/**
 * @file
 * Why --fwd route drops a packet, in the same X(SYM, "name", "description")
 * form as FWD_DROP_REASONS (app/common/fwd_drop.h).
 *
 * The table is meant to be appended, as one contiguous block, to
 * FWD_DROP_REASONS; then FWD_DROP_<SYM> == FWD_DROP_<first route SYM> +
 * RT_DROP_<SYM>, so the route code counts into a slice of the worker's
 * fwd_lcore_stats.drops[] (rt_worker.drops points at
 * &drops[FWD_DROP_NOT_IPV4]) without knowing where the slice starts, and
 * nothing depends on the order headers are included in.
 *
 * The first block is counted by the workers, the second by the control
 * context (rt_control_stats()).
 */

/* X(ENUM_SUFFIX, "counter_name", "what it means") */
#define RT_DROP_REASONS(X)                                                                         \
	X(NOT_IPV4, "not_ipv4", "--fwd route: neither IPv4 nor ARP")                               \
	X(OTHER_HOST, "l2_other_host", "destination MAC is another host's (not ours, not group)")  \
	X(IP_TRUNCATED, "ip_truncated", "frame too short for an IPv4 header")                      \
	X(IP_VERSION, "ip_version", "IP version is not 4")                                         \
	X(IP_IHL, "ip_ihl", "IHL below 5, or the header is longer than the frame")                 \
	X(IP_LEN, "ip_len", "total length below the header length or beyond the frame")            \
	X(IP_CKSUM, "ip_cksum", "bad IPv4 header checksum")                                        \
	X(MARTIAN_SRC, "martian_src",                                                              \
		"source in 0/8, 127/8, 224/4 (multicast) or 240/4; to the router: from a subnet "  \
		"broadcast or network address")                                                    \
	X(MARTIAN_DST, "martian_dst", "destination in 0/8 or 127/8")                               \
	X(MCAST_DST, "mcast_dst", "multicast or limited broadcast destination: not routed")        \
	X(L2_BCAST, "l2_bcast_fwd", "link-layer broadcast/multicast, not for us (RFC 1812 5.3.4)") \
	X(BLACKHOLE, "blackhole", "matched a blackhole route")                                     \
	X(PUNT_FULL, "punt_full", "the ring to the slow path was full (but for ARP's reserve)")    \
	X(ARP_PUNT_FULL, "arp_punt_full", "ARP, the ring to the slow path full to the last slot")  \
	X(FILTER, "filter_deny", "denied by a [filter] rule (flow stage, rt_acl)")                 \
	X(TTL_EXCEEDED, "ttl_exceeded", "TTL <= 1 on forward; ICMP time exceeded sent if allowed") \
	X(NO_ROUTE, "no_route", "no route; ICMP net unreachable sent if allowed")                  \
	X(REJECT, "reject", "matched a reject route; ICMP host unreachable sent if allowed")       \
	X(FRAG_NEEDED, "frag_needed", "larger than the output MTU with DF; ICMP frag needed sent") \
	X(FRAG_FAILED, "frag_failed", "could not be fragmented (no mbufs, too many fragments)")    \
	X(ARP_HOLD_FULL, "arp_hold_full",                                                          \
		"next hop unresolved, its hold queue full (or no memory)")                         \
	X(ARP_FAILED, "arp_failed", "held for a next hop that never answered ARP")                 \
	X(ARP_BAD, "arp_bad", "malformed or irrelevant ARP packet")                                \
	X(LOCAL_OTHER, "local_other", "for the router itself, but not ARP or ICMP echo")           \
	X(CTL_NOMEM, "ctl_nomem", "slow path: no mbuf to build an ICMP or ARP packet")             \
	X(CTL_TX_FULL, "ctl_tx_full", "slow path: the control TX queue did not accept the packet") \
	X(NH_FULL, "nh_full", "slow path: no free next hop for a new on-link neighbour")           \
	X(PUNT_RATE, "punt_rate", "for the port's kernel twin, over its punt-rate (token bucket)") \
	X(ECHO_RATE, "echo_rate", "ICMP echo request to the router over icmp-echo-rate: no reply") \
	X(TWIN_TX_FULL, "twin_tx_full", "for the port's kernel twin, which did not take it")       \
	X(ARP_HELD_AT_EXIT, "arp_held_at_exit",                                                    \
		"held for an unresolved next hop when the router shut down")                       \
	X(CTL_QUEUED_AT_EXIT, "ctl_queued_at_exit",                                                \
		"on a slow-path ring (from a worker, or to the worker that sends) at shutdown")

enum rt_drop_reason {
#define RT_DROP_ENUM(sym, name, desc) RT_DROP_##sym,
	RT_DROP_REASONS(RT_DROP_ENUM)
#undef RT_DROP_ENUM
		RT_DROP_MAX
};

/** Counter name of a route drop reason ("ip_cksum", ...); "unknown" if out of range. */
const char *rt_drop_name(enum rt_drop_reason r);

/** One-line description of a route drop reason. */
const char *rt_drop_desc(enum rt_drop_reason r);

#endif /* RT_DROP_H */
