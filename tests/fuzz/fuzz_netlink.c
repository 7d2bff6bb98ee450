/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: any bytes as a stream of netlink messages, each read by
 * rt_netlink_parse() (rt_netlink.h), no EAL. Checks what rt_netlink_apply()
 * relies on: a route taken is well formed (length <= 32, no host bits, the
 * table asked for, a known kind, 0 to RT_ECMP_MAX hops with weights 1..256,
 * at least one hop on a unicast add and a gateway on each of several), that
 * an encapsulated route refused (encap) is an add of a well-formed key, and
 * every refusal is a reason of the table, with a name.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>

#include "rt_netlink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_IN 65536

static void
check(const struct rt_nl_route *r)
{
	unsigned int i;

	if (r->plen > 32 || (r->plen < 32 && (r->prefix & (UINT32_MAX >> r->plen)) != 0))
		abort();
	if (r->table != RT_NL_TABLE_MAIN || r->n_hops > RT_ECMP_MAX)
		abort();
	if (r->kind != RT_ROUTE_VIA && r->kind != RT_ROUTE_BLACKHOLE && r->kind != RT_ROUTE_REJECT)
		abort();
	if (r->kind != RT_ROUTE_VIA && r->n_hops != 0)
		abort();
	if (!r->del && r->kind == RT_ROUTE_VIA && r->n_hops == 0)
		abort();
	for (i = 0; i < r->n_hops; i++) {
		if (r->hops[i].weight < 1 || r->hops[i].weight > 256)
			abort();
		if (r->n_hops > 1 && r->hops[i].gw == 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t aligned[MAX_IN / 8]; /* netlink buffers are aligned: so is this copy */
	const uint8_t *p = (const uint8_t *)aligned;
	size_t left = size < MAX_IN ? size : MAX_IN;

	memcpy(aligned, data, left);
	while (left > 0) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;
		struct rt_nl_route r;
		enum rt_nl_reason why = rt_netlink_parse(p, left, RT_NL_TABLE_MAIN, &r);
		size_t step;

		if (why == RT_NL_OK)
			check(&r);
		else if (why == RT_NL_ENCAP &&
			 (r.del || r.table != RT_NL_TABLE_MAIN || r.plen > 32 ||
				 (r.plen < 32 && (r.prefix & (UINT32_MAX >> r.plen)) != 0)))
			abort(); /* the syncs name it and withdraw its key: a new route's, well formed */
		else if ((unsigned int)why >= RT_NL_REASON_MAX ||
			 strcmp(rt_nl_reason_name(why), "?") == 0)
			abort();
		/* on to the next message as a reader of a socket would, while lengths make sense */
		if (left < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > left)
			break;
		step = MNL_ALIGN(nlh->nlmsg_len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	return 0;
}
