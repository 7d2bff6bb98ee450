/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: any bytes as an FPM stream from zebra (rt_fpm.h), no EAL,
 * no socket, no table. The first byte sets the size of the pieces the rest
 * arrives in (a TCP stream cuts frames anywhere). Checked:
 *
 * - rt_fpm_feed() on a listener never started (the thread's own path: frames,
 *   next-hop objects, routes parsed and resolved): its counters balance
 *   (received = applied + rejected + refused + unresolved, next hops the same)
 *   and every framing error ends the stream;
 * - the same frames walked here with rt_fpm_frame(), their next-hop messages
 *   into a table of this file's own (rt_nh_parse(), rt_nh_table_apply()) and
 *   their routes through rt_netlink_parse_nh() and rt_nh_resolve(): a route
 *   taken is well formed, as rt_netlink_apply() relies on.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "rt_fpm.h"
#include "rt_nexthop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct rt_fpm *fpm;
static struct rt_nh_table *nh;

static void
check_route(const struct rt_nl_route *r)
{
	unsigned int i;

	if (r->plen > 32 || (r->plen < 32 && (r->prefix & (UINT32_MAX >> r->plen)) != 0))
		abort();
	if (r->n_hops > RT_ECMP_MAX || (r->kind != RT_ROUTE_VIA && r->n_hops != 0))
		abort();
	if (!r->del && r->kind == RT_ROUTE_VIA && r->n_hops == 0)
		abort();
	for (i = 0; i < r->n_hops; i++)
		if (r->hops[i].weight < 1 || r->hops[i].weight > 256)
			abort();
}

static void
message(const struct nlmsghdr *nlh, size_t left)
{
	struct rt_nl_route r;
	struct rt_nh_msg m;
	enum rt_nh_reason nw;
	enum rt_nl_reason why;

	if (nlh->nlmsg_type == RTM_NEWNEXTHOP || nlh->nlmsg_type == RTM_DELNEXTHOP) {
		nw = rt_nh_parse(nlh, left, &m);
		if (nw == RT_NH_OK) {
			if (m.id == 0 || (!m.del && m.kind == RT_NHO_GROUP &&
						 (m.n == 0 || m.n > RT_ECMP_MAX)))
				abort();
			nw = rt_nh_table_apply(nh, &m);
		}
		if ((unsigned int)nw >= RT_NH_REASON_MAX || strcmp(rt_nh_reason_name(nw), "?") == 0)
			abort();
		if (rt_nh_table_count(nh) > RT_NH_MAX)
			abort();
		return;
	}
	why = rt_netlink_parse_nh(nlh, left, RT_NL_TABLE_MAIN, &r);
	if (why != RT_NL_OK)
		return;
	if (r.nh_id != 0 && r.n_hops != 0)
		abort();
	if (rt_nh_resolve(nh, &r) == 0 &&
		(r.nh_id == 0 || r.del || r.kind != RT_ROUTE_VIA || r.n_hops > 0))
		check_route(&r);
}

static void
walk(const uint8_t *p, size_t len)
{
	static uint64_t nl[(RT_FPM_FRAME_MAX + 7) / 8];
	int flen;

	while ((flen = rt_fpm_frame(p, len)) > 0) {
		const size_t plen = (size_t)flen - RT_FPM_HDR_LEN;
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)nl;
		int left = (int)plen;

		memcpy(nl, p + RT_FPM_HDR_LEN, plen);
		if (rt_fpm_frame_check(nl, plen) != RT_FPM_OK)
			return;
		for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left))
			message(nlh, (size_t)left);
		p += flen;
		len -= (size_t)flen;
	}
}

static void
check_balance(void)
{
	struct rt_fpm_stats st;
	uint64_t sum = 0, nsum = 0;
	unsigned int i;

	rt_fpm_stats_get(fpm, &st);
	for (i = 0; i < RT_NL_REASON_MAX; i++)
		sum += st.rejected[i];
	for (i = 0; i < RT_NLSYNC_REFUSAL_MAX; i++)
		sum += st.refused[i];
	for (i = 0; i < RT_NH_REASON_MAX; i++)
		nsum += st.nh_rejected[i];
	if (st.received != st.applied + sum + st.unresolved ||
		st.nh_received != st.nh_applied + nsum || st.rejected[RT_NL_OK] != 0 ||
		st.nh_rejected[RT_NH_OK] != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t piece, off;

	if (fpm == NULL) {
		fpm = rt_fpm_create(&(struct rt_fpm_params){.table = NULL});
		nh = rt_nh_table_create();
		if (fpm == NULL || nh == NULL)
			abort();
	}
	if (size == 0)
		return 0;
	piece = (size_t)data[0] + 1;
	rt_fpm_session_begin(fpm);
	for (off = 1; off < size; off += piece)
		if (rt_fpm_feed(fpm, data + off, size - off < piece ? size - off : piece) < 0)
			break;
	check_balance();
	rt_nh_table_flush(nh);
	walk(data + 1, size - 1);
	return 0;
}
