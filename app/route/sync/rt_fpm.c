/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#define _GNU_SOURCE /* accept4(), setns() */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "dpdk_compat.h"

#include "rt_fpm.h"
#include "rt_log.h"
#include "rt_lograte.h"
#include "rt_syncmarks.h"

#define FPM_MAX_IFNAMES   RTE_MAX_ETHPORTS
#define FPM_QUIET_MS      500 /* a replay that sent nothing for this long is done */
#define FPM_SWEEP_STRETCH 10  /* a busy stream postpones the sweep up to 10 x the delay */
#define FPM_RNH_MIN       256 /* buckets of the prefix -> next-hop id hash, at least */
#define FPM_NETNS_LEN     64  /* a name under /run/netns, as the config allows */

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

/* An fpm route that names its next hop by id: a change of that object moves it. */
struct route_nh {
	struct route_nh *next;
	uint32_t prefix;
	uint8_t plen;
	uint32_t nh_id;
};

struct rt_fpm {
	struct rt_table *t;
	uint32_t addr;
	uint16_t port;  /* as asked */
	uint16_t bound; /* as bound */
	uint32_t sweep_ms;
	struct rt_nlsync_ifname ifnames[FPM_MAX_IFNAMES];
	unsigned int n_ifnames;
	char netns[FPM_NETNS_LEN]; /* zebra's, "" = ours */
	int nsfd;                  /* its /run/netns file, -1 = none (the thread enters it) */
	struct rt_fpm_net allow[RT_FPM_ALLOW_MAX];
	unsigned int n_allow; /* 0: loopback and netns' own addresses */
	uint32_t candidate_ms;

	pthread_t thread;
	bool running; /* a thread was started and not joined (main thread only) */
	int lfd;      /* listening */
	int cfd;      /* the client, -1 = none */
	int kfd;      /* a candidate held while the client is live, -1 = none */
	int evfd;     /* wakes the thread to stop */
	volatile bool stop;

	/* the session: the thread's own (or the fuzzer's) */
	struct rt_nh_table *nh;
	struct rt_syncmarks marks;
	bool marking; /* connected, not swept yet */
	struct timespec t_connect;
	struct timespec t_last; /* the last bytes read */
	struct rt_nl_ifmap map[FPM_MAX_IFNAMES];
	unsigned int n_map;
	size_t rlen;                                /* bytes kept in rbuf */
	uint8_t rbuf[2 * (RT_FPM_FRAME_MAX + 1)];   /* a frame always fits after what is kept */
	uint64_t nlbuf[(RT_FPM_FRAME_MAX + 7) / 8]; /* a frame's payload, aligned */
	uint8_t in[65536];                          /* one recv() */
	size_t klen;                                /* the candidate's bytes so far */
	uint8_t kbuf[RT_FPM_FRAME_MAX];             /* up to its first whole frame */
	struct timespec t_cand;                     /* when the candidate came */
	struct rt_lograte log;                      /* its log lines' bucket */

	/* the fpm routes that name a next-hop object: (prefix, length) -> id, chained */
	struct route_nh **rnh;
	uint32_t n_rnh_buckets; /* a power of 2, FPM_RNH_MIN or more, about rnh_n */
	uint32_t rnh_n;         /* entries */

	bool st_connected, st_in_sync; /* read by other threads */
	struct rt_fpm_stats st;        /* written by the thread only */
};

/* Counters are read by other threads: one aligned store each. */
#define ST_ADD(f, field, v) __atomic_store_n(&(f)->st.field, (f)->st.field + (v), __ATOMIC_RELAXED)
#define ST_INC(f, field)    ST_ADD(f, field, 1)

struct rt_fpm *
rt_fpm_create(const struct rt_fpm_params *p)
{
	struct rt_fpm *f;
	unsigned int i;

	if (p->n_ifnames > FPM_MAX_IFNAMES || p->n_allow > RT_FPM_ALLOW_MAX ||
		(p->netns != NULL && strlen(p->netns) >= FPM_NETNS_LEN)) {
		rte_errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	f->nh = rt_nh_table_create();
	f->n_rnh_buckets = FPM_RNH_MIN;
	f->rnh = calloc(f->n_rnh_buckets, sizeof(*f->rnh));
	if (f->nh == NULL || f->rnh == NULL) {
		rt_nh_table_free(f->nh);
		free(f->rnh);
		free(f);
		rte_errno = ENOMEM;
		return NULL;
	}
	f->t = p->table;
	f->addr = p->addr;
	f->port = p->port;
	f->sweep_ms = p->sweep_ms != 0 ? p->sweep_ms : RT_FPM_SWEEP_MS_DEFAULT;
	for (i = 0; i < p->n_ifnames; i++)
		f->ifnames[i] = p->ifnames[i];
	f->n_ifnames = p->n_ifnames;
	if (p->netns != NULL && strcmp(p->netns, ".") != 0)
		snprintf(f->netns, sizeof(f->netns), "%s", p->netns);
	for (i = 0; i < p->n_allow; i++)
		f->allow[i] = p->allow[i];
	f->n_allow = p->n_allow;
	f->candidate_ms = p->candidate_ms != 0 ? p->candidate_ms : RT_FPM_CANDIDATE_MS_DEFAULT;
	rt_lograte_init(&f->log, "fpm");
	f->lfd = f->cfd = f->kfd = f->evfd = f->nsfd = -1;
	return f;
}

/*
 * May a log line be written (a connection's, a refused route's)? The
 * listener's bucket (rt_lograte.h); a line left out is counted
 * (logs_suppressed), and the next one written says how many were.
 */
static bool
log_ok(struct rt_fpm *f)
{
	if (rt_lograte_ok(&f->log))
		return true;
	ST_INC(f, logs_suppressed);
	return false;
}

/* A log line of the listener's, rate-limited (log_ok()). */
#define FPM_LOG(f, level, ...)                      \
	do {                                        \
		if (log_ok(f))                      \
			RT_LOG(level, __VA_ARGS__); \
	} while (0)

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

static void
rnh_free(struct rt_fpm *f)
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

static void
close_client(struct rt_fpm *f, const char *why)
{
	if (f->cfd < 0)
		return;
	if (f->rlen > 0)
		ST_INC(f, framing[RT_FPM_TRUNCATED]);
	FPM_LOG(f, INFO, "fpm: client gone (%s)%s\n", why,
		f->marking ? ": its routes stay until the next connection's sweep" : "");
	close(f->cfd);
	f->cfd = -1;
	f->rlen = 0;
	f->marking = false; /* the next connection marks anew */
	rt_syncmarks_clear(&f->marks);
	ST_INC(f, disconnects);
	__atomic_store_n(&f->st_connected, false, __ATOMIC_RELAXED);
	__atomic_store_n(&f->st_in_sync, false, __ATOMIC_RELAXED);
}

/* A candidate goes without having taken over (@p counted: as candidates_dropped). */
static void
drop_candidate(struct rt_fpm *f, const char *why, bool counted)
{
	if (f->kfd < 0)
		return;
	close(f->kfd);
	f->kfd = -1;
	f->klen = 0;
	if (!counted)
		return;
	ST_INC(f, candidates_dropped);
	FPM_LOG(f, WARNING, "fpm: held connection closed (%s): the session goes on\n", why);
}

/* @p fd is the client from now on: a new session. */
static void
begin_client(struct rt_fpm *f, int fd, const char *what)
{
	f->cfd = fd;
	ST_INC(f, connects);
	rt_fpm_session_begin(f);
	__atomic_store_n(&f->st_connected, true, __ATOMIC_RELAXED);
	FPM_LOG(f, INFO, "fpm: %s: sweep in %u ms\n", what, f->sweep_ms);
}

/*
 * The candidate becomes the client (it sent a valid frame, or the client
 * went): its bytes so far are the session's first.
 */
static void
promote_candidate(struct rt_fpm *f)
{
	const int fd = f->kfd;

	f->kfd = -1;
	begin_client(f, fd, "held connection takes over");
	clock_gettime(CLOCK_MONOTONIC, &f->t_last);
	if (f->klen > 0 && rt_fpm_feed(f, f->kbuf, f->klen) < 0)
		close_client(f, "framing error");
	f->klen = 0;
}

/*
 * True when the thread's namespace (zebra's) has @p ip as an address of its
 * own: a socket can be bound to it there (ip_nonlocal_bind aside). A peer's
 * address is checked so, not looked up in a dump: one system call, at
 * accept only.
 */
static bool
netns_has_addr(uint32_t ip)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(ip)};
	const int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	ok = bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

/* fpm-allow's networks, or by default loopback and zebra's namespace. */
static bool
peer_allowed(const struct rt_fpm *f, uint32_t ip)
{
	unsigned int i;

	for (i = 0; i < f->n_allow; i++)
		if ((ip & rt4_mask(f->allow[i].plen)) == f->allow[i].net)
			return true;
	if (f->n_allow > 0)
		return false;
	if (ip >> 24 == 127)
		return true;
	return f->netns[0] != '\0' && netns_has_addr(ip);
}

static void
accept_client(struct rt_fpm *f)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	char a[INET_ADDRSTRLEN], what[64];
	int fd = accept4(f->lfd, (struct sockaddr *)&sa, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return; /* gone before we took it, or EAGAIN */
	inet_ntop(AF_INET, &sa.sin_addr, a, sizeof(a));
	if (!peer_allowed(f, ntohl(sa.sin_addr.s_addr))) {
		close(fd);
		ST_INC(f, refused_peers);
		FPM_LOG(f, WARNING, "fpm: connection from %s:%u refused: not an allowed peer%s\n",
			a, ntohs(sa.sin_port),
			f->n_allow > 0 ? " (fpm-allow)" : " (loopback or twin-netns; fpm-allow)");
		return;
	}
	if (f->cfd < 0) {
		snprintf(what, sizeof(what), "client %s:%u connected", a, ntohs(sa.sin_port));
		begin_client(f, fd, what);
		return;
	}
	/* a session is live: this one takes over only once it sends a valid frame */
	drop_candidate(f, "a newer connection came", true);
	f->kfd = fd;
	f->klen = 0;
	clock_gettime(CLOCK_MONOTONIC, &f->t_cand);
	ST_INC(f, candidates);
	FPM_LOG(f, INFO,
		"fpm: connection from %s:%u held: it takes over once it sends a valid frame "
		"(within %u ms)\n",
		a, ntohs(sa.sin_port), f->candidate_ms);
}

/* The candidate's bytes: its first whole frame, checked, makes it the client. */
static void
candidate_read(struct rt_fpm *f)
{
	const ssize_t n = recv(f->kfd, f->kbuf + f->klen, sizeof(f->kbuf) - f->klen, 0);
	int flen;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		drop_candidate(f, n == 0 ? "closed" : strerror(errno), true);
		return;
	}
	f->klen += (size_t)n;
	flen = rt_fpm_frame(f->kbuf, f->klen);
	if (flen == 0)
		return; /* kbuf holds a whole frame of any length: more will come */
	if (flen > 0) {
		memcpy(f->nlbuf, f->kbuf + RT_FPM_HDR_LEN, (size_t)flen - RT_FPM_HDR_LEN);
		if (rt_fpm_frame_check(f->nlbuf, (size_t)flen - RT_FPM_HDR_LEN) != RT_FPM_OK)
			flen = -RT_FPM_NL_LEN;
	}
	if (flen < 0) {
		ST_INC(f, framing[-flen]);
		drop_candidate(f, rt_fpm_reason_name((enum rt_fpm_reason) - flen), true);
		return;
	}
	ST_INC(f, replaced);
	close_client(f, "replaced by a connection that sent a valid frame");
	promote_candidate(f);
}

static int64_t
ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (int64_t)(t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * Milliseconds until the sweep: @c sweep_ms after the connect, but while the
 * replay still streams (bytes within the last FPM_QUIET_MS) later, up to
 * FPM_SWEEP_STRETCH times @c sweep_ms: a big table takes seconds to replay,
 * and a sweep in the middle of it would delete (for a moment) the routes
 * not sent yet. Bounded, since BGP churn may never leave the stream quiet.
 */
static int64_t
sweep_in(const struct rt_fpm *f)
{
	const int64_t since = ms_since(&f->t_connect);
	int64_t left = (int64_t)f->sweep_ms - since;
	const int64_t quiet = FPM_QUIET_MS - ms_since(&f->t_last);
	const int64_t cap = (int64_t)f->sweep_ms * FPM_SWEEP_STRETCH - since;

	if (quiet > left)
		left = quiet;
	return left < cap ? left : cap;
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

/* The next timer (the sweep, a silent candidate's end) in ms, -1 = none; 0: one is due. */
static int
next_timeout(struct rt_fpm *f)
{
	int64_t left = -1;

	if (f->cfd >= 0 && f->marking) {
		left = sweep_in(f);
		if (left <= 0) {
			rt_fpm_sweep(f);
			return 0;
		}
	}
	if (f->kfd >= 0) {
		const int64_t k = (int64_t)f->candidate_ms - ms_since(&f->t_cand);

		if (k <= 0) {
			char why[48];

			snprintf(why, sizeof(why), "no valid frame in %u ms", f->candidate_ms);
			drop_candidate(f, why, true);
			return 0;
		}
		left = left < 0 || k < left ? k : left;
	}
	return (int)left;
}

static void *
fpm_thread(void *arg)
{
	struct rt_fpm *f = arg;

	/* zebra's namespace: its interfaces' names and its addresses are looked up there */
	if (f->nsfd >= 0 && setns(f->nsfd, CLONE_NEWNET) < 0)
		RT_LOG(ERR, "fpm: setns %s: %s: names and peers looked up in ours\n", f->netns,
			strerror(errno));
	while (!f->stop) {
		struct pollfd pfd[4] = {
			{.fd = f->lfd, .events = POLLIN},
			{.fd = f->evfd, .events = POLLIN},
			{.fd = f->cfd, .events = POLLIN},
			{.fd = f->kfd, .events = POLLIN},
		};
		const int timeout = next_timeout(f);
		ssize_t n;

		if (timeout == 0)
			continue;
		if (poll(pfd, RTE_DIM(pfd), timeout) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents & POLLIN) {
			uint64_t v;

			if (read(f->evfd, &v, sizeof(v)) < 0)
				v = 0; /* nothing lost: the flag is read above */
		}
		if (f->kfd >= 0 && pfd[3].fd == f->kfd &&
			(pfd[3].revents & (POLLIN | POLLERR | POLLHUP)))
			candidate_read(f);
		if (pfd[0].revents & POLLIN)
			accept_client(f);
		if (f->cfd < 0 || pfd[2].fd != f->cfd ||
			!(pfd[2].revents & (POLLIN | POLLERR | POLLHUP)))
			continue;
		n = recv(f->cfd, f->in, sizeof(f->in), 0);
		if (n > 0) {
			clock_gettime(CLOCK_MONOTONIC, &f->t_last);
			if (rt_fpm_feed(f, f->in, (size_t)n) < 0)
				close_client(f, "framing error");
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			continue;
		} else {
			close_client(f, n == 0 ? "closed" : strerror(errno));
		}
		/* the session ended: a connection held takes its place */
		if (f->cfd < 0 && f->kfd >= 0)
			promote_candidate(f);
	}
	drop_candidate(f, "the listener stops", false);
	close_client(f, "the listener stops");
	/* lines left out and not yet said by a later one: said now, at the listener's end */
	rt_lograte_flush(&f->log);
	return NULL;
}

int
rt_fpm_start(struct rt_fpm *f, char *err, size_t errlen)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	socklen_t sl = sizeof(sa);
	const int one = 1;
	char a[INET_ADDRSTRLEN], path[FPM_NETNS_LEN + 16];
	int ret;

	if (f->running) {
		snprintf(err, errlen, "fpm listener already running");
		return -EALREADY;
	}
	sa.sin_addr.s_addr = htonl(f->addr);
	sa.sin_port = htons(f->port);
	inet_ntop(AF_INET, &sa.sin_addr, a, sizeof(a));
	if (f->netns[0] != '\0') {
		snprintf(path, sizeof(path), "/run/netns/%s", f->netns);
		f->nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (f->nsfd < 0) {
			ret = errno;
			snprintf(err, errlen, "fpm: zebra's namespace %s: %s", path, strerror(ret));
			return -ret;
		}
	}
	f->lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (f->lfd < 0)
		goto fail;
	/* a restarted forwarder binds again at once, whatever TIME_WAIT is left */
	setsockopt(f->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(f->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(f->lfd, 4) < 0 ||
		getsockname(f->lfd, (struct sockaddr *)&sa, &sl) < 0)
		goto fail;
	f->bound = ntohs(sa.sin_port);
	f->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (f->evfd < 0)
		goto fail;
	f->stop = false;
	ret = fwd_compat_ctrl_thread_create(&f->thread, "fwd-fpm", fpm_thread, f);
	if (ret != 0) {
		errno = ret;
		goto fail;
	}
	f->running = true;
	RT_LOG(INFO, "fpm: listening on %s:%u\n", a, f->bound);
	return 0;
fail:
	ret = errno != 0 ? errno : EIO;
	snprintf(err, errlen, "fpm-listen %s:%u: %s", a, f->port, strerror(ret));
	if (f->lfd >= 0)
		close(f->lfd);
	if (f->evfd >= 0)
		close(f->evfd);
	if (f->nsfd >= 0)
		close(f->nsfd);
	f->lfd = f->evfd = f->nsfd = -1;
	return -ret;
}

int
rt_fpm_stop(struct rt_fpm *f)
{
	const uint64_t one = 1;

	if (!f->running)
		return -EALREADY;
	f->stop = true;
	if (write(f->evfd, &one, sizeof(one)) < 0)
		RT_LOG(DEBUG, "fpm: wake: %s\n", strerror(errno)); /* full: awake anyway */
	pthread_join(f->thread, NULL);
	close(f->lfd);
	close(f->evfd);
	if (f->nsfd >= 0)
		close(f->nsfd);
	f->lfd = f->evfd = f->nsfd = -1;
	f->running = false;
	return 0;
}

void
rt_fpm_free(struct rt_fpm *f)
{
	if (f == NULL)
		return;
	rt_fpm_stop(f);
	rt_syncmarks_clear(&f->marks);
	rt_nh_table_free(f->nh);
	rnh_free(f);
	free(f);
}

uint16_t
rt_fpm_port(const struct rt_fpm *f)
{
	return f->bound;
}

const char *
rt_fpm_where(const struct rt_fpm *f, char *buf, size_t len)
{
	const struct in_addr in = {.s_addr = htonl(f->addr)};
	char a[INET_ADDRSTRLEN];

	snprintf(buf, len, "%s:%u", inet_ntop(AF_INET, &in, a, sizeof(a)),
		f->bound != 0 ? f->bound : f->port);
	return buf;
}

const char *
rt_fpm_state(const struct rt_fpm *f)
{
	if (!f->running)
		return "stopped";
	if (!__atomic_load_n(&f->st_connected, __ATOMIC_RELAXED))
		return "listening";
	return __atomic_load_n(&f->st_in_sync, __ATOMIC_RELAXED) ? "in_sync" : "syncing";
}

int
rt_fpm_wait_sync(const struct rt_fpm *f, unsigned int timeout_ms)
{
	const struct timespec ms = {0, 1000 * 1000};
	const uint64_t r0 = __atomic_load_n(&f->st.resyncs, __ATOMIC_RELAXED);
	unsigned int i;

	for (i = 0; i <= timeout_ms; i++) {
		if (!f->running)
			return -ENOTCONN;
		if (__atomic_load_n(&f->st.resyncs, __ATOMIC_RELAXED) > r0)
			return 0;
		nanosleep(&ms, NULL);
	}
	return -ETIMEDOUT;
}

void
rt_fpm_stats_get(const struct rt_fpm *f, struct rt_fpm_stats *st)
{
	const uint64_t *src = (const uint64_t *)&f->st;
	uint64_t *dst = (uint64_t *)st;
	size_t i;

	/* all of it is u64s: one aligned load each */
	RTE_BUILD_BUG_ON(sizeof(*st) % sizeof(uint64_t) != 0);
	for (i = 0; i < sizeof(*st) / sizeof(uint64_t); i++)
		dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
}

/* the reasons' names by number, as rt_sync_counter_group() takes them */
static const char *
name_fpm_reason(unsigned int i)
{
	return rt_fpm_reason_name(i);
}

static const char *
name_nh_reason(unsigned int i)
{
	return rt_nh_reason_name(i);
}

unsigned int
rt_fpm_counters(const struct rt_fpm *f, struct rt_nlsync_counter *c, unsigned int max)
{
	struct rt_fpm_stats st;
	unsigned int n = 0;

	rt_fpm_stats_get(f, &st);
	rt_sync_counter_put(c, max, &n, NULL, "connects", st.connects);
	rt_sync_counter_put(c, max, &n, NULL, "replaced", st.replaced);
	rt_sync_counter_put(c, max, &n, NULL, "disconnects", st.disconnects);
	rt_sync_counter_put(c, max, &n, NULL, "refused_peers", st.refused_peers);
	rt_sync_counter_put(c, max, &n, NULL, "candidates", st.candidates);
	rt_sync_counter_put(c, max, &n, NULL, "candidates_dropped", st.candidates_dropped);
	rt_sync_counter_put(c, max, &n, NULL, "logs_suppressed", st.logs_suppressed);
	rt_sync_counter_put(c, max, &n, NULL, "frames", st.frames);
	rt_sync_counter_put(c, max, &n, NULL, "received", st.received);
	rt_sync_counter_put(c, max, &n, NULL, "applied", st.applied);
	rt_sync_counter_put(c, max, &n, NULL, "unresolved", st.unresolved);
	rt_sync_counter_put(c, max, &n, NULL, "nexthops_received", st.nh_received);
	rt_sync_counter_put(c, max, &n, NULL, "nexthops_applied", st.nh_applied);
	rt_sync_counter_put(c, max, &n, NULL, "nexthops", st.nexthops);
	rt_sync_counter_put(c, max, &n, NULL, "nexthop_moves", st.nh_moved);
	rt_sync_counter_put(c, max, &n, NULL, "resyncs", st.resyncs);
	rt_sync_counter_put(c, max, &n, NULL, "swept", st.swept);
	rt_sync_counter_put(c, max, &n, NULL, "last_marked", st.last_marked);
	rt_sync_counter_group(
		c, max, &n, "framing", name_fpm_reason, st.framing, 1, RT_FPM_REASON_MAX);
	rt_nlsync_counters_reasons(c, max, &n, st.rejected, st.refused);
	rt_sync_counter_group(
		c, max, &n, "nh_rejected", name_nh_reason, st.nh_rejected, 1, RT_NH_REASON_MAX);
	return n;
}
