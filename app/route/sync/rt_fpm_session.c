/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The FPM session: one connection's bytes into the table. Frames are cut and
 * checked, their netlink messages parsed (routes, next-hop objects), the
 * routes that name an object remembered so that a change of the object moves
 * them, tunnelled routes refused; the sweep at the end of a replay. No socket
 * here: the listener's thread (rt_fpm_listen.c) feeds it, and so do the fuzzer and
 * the unit tests (rt_fpm_feed()).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

#include <rte_common.h>

#include "rt_fpm_priv.h"

#define FPM_NAME(sym, name, desc) name,
#define FPM_DESC(sym, name, desc) desc,
static const char *const reason_name[] = {RT_FPM_REASONS(FPM_NAME)};
static const char *const reason_desc[] = {RT_FPM_REASONS(FPM_DESC)};
#undef FPM_NAME
#undef FPM_DESC

const char *
rt_fpm_reason_name(enum rt_fpm_reason why)
{
	return (unsigned int)why < RT_FPM_REASON_MAX ? reason_name[why] : "?";
}

const char *
rt_fpm_reason_desc(enum rt_fpm_reason why)
{
	return (unsigned int)why < RT_FPM_REASON_MAX ? reason_desc[why] : "?";
}

int
rt_fpm_frame(const void *buf, size_t len)
{
	const uint8_t *h = buf;
	uint16_t flen;

	if (len < RT_FPM_HDR_LEN)
		return 0;
	if (h[0] != RT_FPM_VERSION)
		return -RT_FPM_BAD_VERSION;
	if (h[1] != RT_FPM_TYPE_NL)
		return -RT_FPM_BAD_TYPE;
	flen = (uint16_t)(h[2] << 8 | h[3]);
	if (flen < RT_FPM_HDR_LEN + sizeof(struct nlmsghdr))
		return -RT_FPM_BAD_LEN;
	return len >= flen ? flen : 0;
}

enum rt_fpm_reason
rt_fpm_frame_check(const void *nl, size_t len)
{
	const uint8_t *p = nl;
	size_t left = len, step;

	if (len > RT_FPM_FRAME_MAX)
		return RT_FPM_NL_LEN;
	/*
	 * Unsigned comparisons, not mnl_nlmsg_ok(): it compares the length as an
	 * int, so a message of nlmsg_len 0xfffffff0 would pass and the walk run
	 * off the frame (the fuzzer's first finding). Checked here once, the
	 * walk that follows can use libmnl's.
	 */
	while (left > 0) {
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)p;

		if (left < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > left)
			return RT_FPM_NL_LEN;
		step = MNL_ALIGN(nlh->nlmsg_len);
		if (step >= left)
			break;
		p += step;
		left -= step;
	}
	return RT_FPM_OK;
}

/* rt_fpm_priv.h */
bool
rt_fpm_log_ok(struct rt_fpm *f)
{
	if (rt_lograte_ok(&f->log))
		return true;
	ST_INC(f, logs_suppressed);
	return false;
}

/*
 * The map, from the names as zebra's namespace has them now (the thread is
 * in it; the fuzzer's and the tests' callers in theirs). When names are
 * given and none is found, the map is one that maps nothing: a route through
 * an interface is refused (no_port), as the line logged says, and never
 * ported by its gateway as if there were no map.
 */
static void
resolve_ifnames(struct rt_fpm *f)
{
	unsigned int i, idx;

	f->n_map = 0;
	for (i = 0; i < f->n_ifnames; i++) {
		idx = if_nametoindex(f->ifnames[i].name);
		if (idx == 0) {
			FPM_LOG(f, WARNING,
				"fpm: no interface %s for port %u: its routes are refused "
				"(no_port) until the next connect\n",
				f->ifnames[i].name, f->ifnames[i].port);
			continue;
		}
		f->map[f->n_map++] =
			(struct rt_nl_ifmap){.ifindex = idx, .port = f->ifnames[i].port};
	}
	if (f->n_ifnames > 0 && f->n_map == 0)
		f->map[f->n_map++] = (struct rt_nl_ifmap){.ifindex = 0}; /* no interface has 0 */
}

void
rt_fpm_session_begin(struct rt_fpm *f)
{
	f->rlen = 0;
	rt_nh_table_flush(f->nh);
	__atomic_store_n(&f->st.nexthops, 0, __ATOMIC_RELAXED);
	rt_syncmarks_clear(&f->marks);
	f->marking = true;
	clock_gettime(CLOCK_MONOTONIC, &f->t_connect);
	f->t_last = f->t_connect;
	resolve_ifnames(f);
}

static inline uint32_t
rnh_hash(uint32_t prefix, uint8_t plen, uint32_t n_buckets)
{
	const uint64_t k = (uint64_t)prefix << 8 | plen;

	return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32) & (n_buckets - 1);
}

/* Rehash into @p nb buckets (the hash follows the routes it holds, both ways). */
static void
rnh_resize(struct rt_fpm *f, uint32_t nb)
{
	struct route_nh **b = calloc(nb, sizeof(*b));
	uint32_t i;

	if (b == NULL)
		return; /* longer chains, still correct */
	for (i = 0; i < f->n_rnh_buckets; i++)
		while (f->rnh[i] != NULL) {
			struct route_nh *o = f->rnh[i];
			const uint32_t h = rnh_hash(o->prefix, o->plen, nb);

			f->rnh[i] = o->next;
			o->next = b[h];
			b[h] = o;
		}
	free(f->rnh);
	f->rnh = b;
	f->n_rnh_buckets = nb;
}

static struct route_nh **
rnh_find(struct rt_fpm *f, uint32_t prefix, uint8_t plen)
{
	struct route_nh **e = &f->rnh[rnh_hash(prefix, plen, f->n_rnh_buckets)];

	while (*e != NULL && ((*e)->prefix != prefix || (*e)->plen != plen))
		e = &(*e)->next;
	return e;
}

/* Remember (nh_id != 0) or forget (0) which object the route to prefix/plen names. */
static void
rnh_set(struct rt_fpm *f, uint32_t prefix, uint8_t plen, uint32_t nh_id)
{
	struct route_nh **e = rnh_find(f, prefix, plen), *o = *e;

	if (o != NULL && nh_id == 0) {
		*e = o->next;
		free(o);
		f->rnh_n--;
	} else if (o != NULL) {
		o->nh_id = nh_id;
	} else if (nh_id != 0) {
		o = malloc(sizeof(*o));
		if (o == NULL)
			return; /* that route does not follow its object's changes */
		*o = (struct route_nh){.prefix = prefix, .plen = plen, .nh_id = nh_id};
		*e = o;
		if (++f->rnh_n > f->n_rnh_buckets)
			rnh_resize(f, f->n_rnh_buckets * 2);
	}
}

/*
 * Forget every route the table no longer holds as an fpm route (swept,
 * deleted by the table or another source): what is remembered is bounded by
 * the live table, and the hash shrinks with it.
 */
static void
rnh_prune(struct rt_fpm *f)
{
	struct rt_route old;
	uint32_t i, nb;

	for (i = 0; i < f->n_rnh_buckets; i++) {
		struct route_nh **e = &f->rnh[i];

		while (*e != NULL) {
			struct route_nh *o = *e;

			if (f->t != NULL &&
				rt_route_get(f->t, o->prefix, o->plen, true, &old) == 0 &&
				old.src == RT_SRC_FPM) {
				e = &o->next;
				continue;
			}
			*e = o->next;
			free(o);
			f->rnh_n--;
		}
	}
	for (nb = f->n_rnh_buckets; nb > FPM_RNH_MIN && f->rnh_n < nb / 4; nb /= 2)
		;
	if (nb != f->n_rnh_buckets)
		rnh_resize(f, nb);
}

uint32_t
rt_fpm_nh_routes(const struct rt_fpm *f)
{
	return f->rnh_n;
}

void
rt_fpm_rnh_free(struct rt_fpm *f)
{
	uint32_t i;

	for (i = 0; f->rnh != NULL && i < f->n_rnh_buckets; i++)
		while (f->rnh[i] != NULL) {
			struct route_nh *o = f->rnh[i];

			f->rnh[i] = o->next;
			free(o);
		}
	free(f->rnh);
	f->rnh = NULL;
	f->rnh_n = 0;
}

/*
 * Zebra's route to @p r's prefix is a tunnel's (@p by_object: through its
 * next-hop object; @p changed: that object was replaced by a tunnel's): the
 * fpm route held there, if any, is withdrawn, since zebra no longer routes
 * that way and the forwarder cannot send what it does plain. Said on a
 * rate-limited line.
 */
static void
encap_withdraw(struct rt_fpm *f, const struct rt_nl_route *r, bool by_object, bool changed)
{
	const struct rt4_route_req del = {.prefix = r->prefix, .plen = r->plen, .src = RT_SRC_FPM};
	const char *type = rt_nl_encap_name(r->encap);
	char err[RT_ERR_LEN], a[16], t[16];
	bool held;

	held = f->t != NULL && rt4_route_del(f->t, &del, err, sizeof(err)) == 0;
	rnh_set(f, r->prefix, r->plen, 0);
	if (type == NULL) {
		snprintf(t, sizeof(t), "%u", r->encap);
		type = t;
	}
	FPM_LOG(f, WARNING,
		"fpm: %s/%u: encap %s routes are not supported (the forwarder sends plain IPv4): "
		"%s%s%s\n",
		rt4_addr_str(r->prefix, a), r->plen, type,
		changed ? "route withdrawn" : "route not loaded",
		!changed && held ? ", the one it replaces withdrawn" : "",
		changed     ? " (its next-hop object became a tunnel's)"
		: by_object ? " (its next-hop object's encap)"
			    : "");
}

/*
 * Object @p id was replaced in place: every fpm route that names it (or a
 * group it is in) takes its new hops, one replace each, as the kernel moves
 * its routes with their nexthop. A rare event: the routes are walked. A
 * route gone from the table (swept, deleted by the table) is forgotten.
 */
static void
nexthop_changed(struct rt_fpm *f, uint32_t id)
{
	char err[RT_ERR_LEN];
	struct rt_route old;
	uint32_t i;
	int ret;

	for (i = 0; i < f->n_rnh_buckets; i++) {
		struct route_nh **e = &f->rnh[i];

		while (*e != NULL) {
			struct route_nh *o = *e;
			struct rt_nl_route r = {.replace = true,
				.kind = RT_ROUTE_VIA,
				.prefix = o->prefix,
				.plen = o->plen,
				.nh_id = o->nh_id};

			if (f->t == NULL ||
				rt_route_get(f->t, o->prefix, o->plen, true, &old) < 0 ||
				old.src != RT_SRC_FPM) {
				*e = o->next;
				free(o);
				f->rnh_n--;
				continue;
			}
			if (!rt_nh_depends(f->nh, o->nh_id, id)) {
				e = &o->next;
				continue;
			}
			ret = rt_nh_resolve(f->nh, &r);
			if (ret == -ENOTSUP) {
				/* the object became a tunnel's: its routes must not stay plain */
				*e = o->next;
				free(o);
				f->rnh_n--;
				encap_withdraw(f, &r, true, true);
				continue;
			}
			e = &o->next;
			if (ret < 0)
				continue;
			if (rt_netlink_apply_from(
				    f->t, RT_SRC_FPM, &r, f->map, f->n_map, err, sizeof(err)) == 0)
				ST_INC(f, nh_moved);
		}
	}
}

static void
nexthop_msg(struct rt_fpm *f, const struct nlmsghdr *nlh)
{
	struct rt_nh_msg m;
	enum rt_nh_reason why;
	bool changed;

	ST_INC(f, nh_received);
	why = rt_nh_parse(nlh, nlh->nlmsg_len, &m);
	/* an object replaced in place moves its routes; the same one again (zebra re-sends) is no work */
	changed = why == RT_NH_OK && !m.del && rt_nh_table_has(f->nh, m.id) &&
		  !rt_nh_table_same(f->nh, &m);
	if (why == RT_NH_OK)
		why = rt_nh_table_apply(f->nh, &m);
	if (why != RT_NH_OK) {
		ST_INC(f, nh_rejected[why]);
		return;
	}
	ST_INC(f, nh_applied);
	if (changed)
		nexthop_changed(f, m.id);
	__atomic_store_n(&f->st.nexthops, rt_nh_table_count(f->nh), __ATOMIC_RELAXED);
}

static void
route_msg(struct rt_fpm *f, const struct nlmsghdr *nlh)
{
	char err[RT_ERR_LEN], a[16];
	enum rt_nl_reason why;
	enum rt_nlsync_refusal ref;
	struct rt_nl_route r;
	int ret;

	ST_INC(f, received);
	why = rt_netlink_parse_nh(nlh, nlh->nlmsg_len, RT_NL_TABLE_MAIN, &r);
	if (why == RT_NL_ENCAP) {
		ST_INC(f, rejected[why]);
		encap_withdraw(f, &r, false, false);
		return;
	}
	if (why != RT_NL_OK) {
		ST_INC(f, rejected[why]);
		return;
	}
	if (r.protocol == RTPROT_KERNEL) {
		ref = RT_NLSYNC_KERNEL;
		goto refused;
	}
	ret = rt_nh_resolve(f->nh, &r);
	if (ret == -ENOTSUP) {
		/* its next-hop object (or a member of its group) is a tunnel's */
		ST_INC(f, rejected[RT_NL_ENCAP]);
		encap_withdraw(f, &r, true, false);
		return;
	}
	if (ret < 0) {
		ST_INC(f, unresolved);
		return;
	}
	/* zebra's word on a prefix wins (its routes carry NLM_F_REPLACE; a replay too) */
	r.replace = !r.del;
	if (f->t == NULL) {
		ret = 0; /* parse and resolve only */
	} else {
		ret = rt_netlink_apply_from(
			f->t, RT_SRC_FPM, &r, f->map, f->n_map, err, sizeof(err));
	}
	if (ret == 0) {
		ST_INC(f, applied);
		if (f->t != NULL)
			rnh_set(f, r.prefix, r.plen, r.del ? 0 : r.nh_id);
		if (!r.del && f->marking)
			rt_syncmarks_add(&f->marks, r.prefix, r.plen); /* overflow: no sweep */
		return;
	}
	ref = rt_nlsync_refusal_of(ret);
	/*
	 * Every add of zebra's is a replace (above): one of the port's own network
	 * or address is refused -EPERM by the table, which for an add means the
	 * prefix exists, not that a route of another source was to be changed
	 */
	if (ret == -EPERM && !r.del)
		ref = RT_NLSYNC_EXISTS;
	RT_LOG(DEBUG, "fpm: %s %s/%u refused: %s\n", r.del ? "delete" : "route",
		rt4_addr_str(r.prefix, a), r.plen, err);
refused:
	ST_INC(f, refused[ref]);
}

/* One frame's payload: whole netlink messages (checked), in order. */
static void
frame(struct rt_fpm *f, const void *nl, size_t len)
{
	const struct nlmsghdr *nlh = nl;
	int left = (int)len;

	ST_INC(f, frames);
	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		switch (nlh->nlmsg_type) {
		case RTM_NEWROUTE:
		case RTM_DELROUTE:
			route_msg(f, nlh);
			break;
		case RTM_NEWNEXTHOP:
		case RTM_DELNEXTHOP:
			nexthop_msg(f, nlh);
			break;
		default:
			ST_INC(f, framing[RT_FPM_OTHER_MSG]);
			break;
		}
	}
}

int
rt_fpm_feed(struct rt_fpm *f, const void *bytes, size_t len)
{
	const uint8_t *in = bytes;
	size_t off = 0;
	int flen;

	while (len > 0) {
		size_t take = RTE_MIN(len, sizeof(f->rbuf) - f->rlen);

		memcpy(f->rbuf + f->rlen, in, take);
		f->rlen += take;
		in += take;
		len -= take;
		off = 0;
		while ((flen = rt_fpm_frame(f->rbuf + off, f->rlen - off)) > 0) {
			const size_t plen = (size_t)flen - RT_FPM_HDR_LEN;

			/* copied: frames follow each other at any offset, netlink wants 4-aligned */
			memcpy(f->nlbuf, f->rbuf + off + RT_FPM_HDR_LEN, plen);
			if (rt_fpm_frame_check(f->nlbuf, plen) != RT_FPM_OK) {
				flen = -RT_FPM_NL_LEN;
				break;
			}
			frame(f, f->nlbuf, plen);
			off += (size_t)flen;
		}
		if (flen < 0) {
			ST_INC(f, framing[-flen]);
			f->rlen = 0;
			return -EPROTO;
		}
		memmove(f->rbuf, f->rbuf + off, f->rlen - off);
		f->rlen -= off;
	}
	return 0;
}

/* The connection has had its time to replay: what it did not send went. */
void
rt_fpm_sweep(struct rt_fpm *f)
{
	int n = f->t != NULL ? rt_syncmarks_sweep(f->t, RT_SRC_FPM, &f->marks) : 0;

	f->marking = false;
	if (n < 0) {
		RT_LOG(WARNING, "fpm: out of memory for the marks: no sweep this time\n");
		n = 0;
	}
	ST_ADD(f, swept, (uint64_t)n);
	__atomic_store_n(&f->st.last_marked, f->marks.n, __ATOMIC_RELAXED);
	RT_LOG(INFO, "fpm: resync: %u routes sent again, %d swept\n", f->marks.n, n);
	rt_syncmarks_clear(&f->marks);
	rnh_prune(f);
	ST_INC(f, resyncs);
	__atomic_store_n(&f->st_in_sync, true, __ATOMIC_RELAXED);
}
