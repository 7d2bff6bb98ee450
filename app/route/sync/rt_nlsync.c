/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#define _GNU_SOURCE /* setns() */
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

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

#include <rte_errno.h>
#include <rte_lcore.h>

#include "dpdk_compat.h"

#include "rt_log.h"
#include "rt_lograte.h"
#include "rt_nlcands.h"
#include "rt_nlfresh.h"
#include "rt_nlsync.h"
#include "rt_syncmarks.h"

#define NLSYNC_RCVBUF_DEFAULT (4u << 20)
#define NLSYNC_MAX_IFNAMES    RTE_MAX_ETHPORTS
#define NLSYNC_RETRY_MS       1000 /* after a socket error or a refused dump */

#define REF_NAME(sym, name, desc) name,
#define REF_DESC(sym, name, desc) desc,
static const char *const refusal_name[] = {RT_NLSYNC_REFUSALS(REF_NAME)};
static const char *const refusal_desc[] = {RT_NLSYNC_REFUSALS(REF_DESC)};
#undef REF_NAME
#undef REF_DESC

const char *
rt_nlsync_refusal_name(enum rt_nlsync_refusal why)
{
	return (unsigned int)why < RT_NLSYNC_REFUSAL_MAX ? refusal_name[why] : "?";
}

const char *
rt_nlsync_refusal_desc(enum rt_nlsync_refusal why)
{
	return (unsigned int)why < RT_NLSYNC_REFUSAL_MAX ? refusal_desc[why] : "?";
}

enum rt_nlsync_refusal
rt_nlsync_refusal_of(int err)
{
	switch (err) {
	case -ENODEV:
		return RT_NLSYNC_NO_PORT;
	case -EEXIST:
		return RT_NLSYNC_EXISTS;
	case -EPERM:
		return RT_NLSYNC_NOT_OURS;
	case -ENOENT:
		return RT_NLSYNC_NO_ROUTE;
	default:
		return RT_NLSYNC_TABLE;
	}
}

struct rt_nlsync {
	struct rt_table *t;
	char netns[64]; /* as the config allows */
	struct rt_nlsync_ifname ifnames[NLSYNC_MAX_IFNAMES];
	unsigned int n_ifnames;
	uint32_t rcvbuf;

	/* the thread and its hand-shake with the starter */
	pthread_t thread;
	bool running; /* a thread was started and not joined (main thread only) */
	int evfd;     /* wakes the thread: stop or resync */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int start_ret; /* 1 = not yet known, then 0 or -errno */
	char start_err[RT_ERR_LEN];
	volatile bool stop;
	volatile bool resync_asked;

	/* the thread's own */
	struct mnl_socket *nl;
	uint32_t portid;
	uint32_t seq;
	uint32_t dump_seq; /* 0: no dump in flight */
	bool dump_intr;    /* the dump in flight was interrupted: do it again, no sweep */
	bool resync_pending;
	bool marking; /* a resync is under way: applied routes are marked */
	struct rt_syncmarks marks;
	struct rt_nlfresh fresh;   /* the keys an event spoke of in the resync under way */
	struct rt_nlrecent recent; /* the last events, whenever: seeds @c fresh at a begin */
	struct rt_nlcands cands;   /* the kernel's routes by metric: kept across stop and start */
	struct rt_nl_ifmap map[NLSYNC_MAX_IFNAMES];
	unsigned int n_map;

	struct rt_lograte log;     /* the refused routes' lines (a dump may hold thousands) */
	struct rt_nlsync_stats st; /* written by the thread only, but running */
	uint64_t resyncs_at_start; /* st.resyncs when the thread started: rt_nlsync_wait() */
	struct timespec resync_t0; /* when the resync under way began, for its log line */
	uint64_t buf[8192];        /* one datagram (64 KiB, aligned for the headers) */
};

struct rt_nlsync *
rt_nlsync_create(const struct rt_nlsync_params *p)
{
	struct rt_nlsync *s;
	unsigned int i;

	if (p->table == NULL || p->n_ifnames > NLSYNC_MAX_IFNAMES ||
		(p->netns != NULL && strlen(p->netns) >= sizeof(((struct rt_nlsync *)0)->netns))) {
		rte_errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	s->t = p->table;
	if (p->netns != NULL && strcmp(p->netns, ".") != 0)
		snprintf(s->netns, sizeof(s->netns), "%s", p->netns);
	for (i = 0; i < p->n_ifnames; i++)
		s->ifnames[i] = p->ifnames[i];
	s->n_ifnames = p->n_ifnames;
	s->rcvbuf = p->rcvbuf != 0 ? p->rcvbuf : NLSYNC_RCVBUF_DEFAULT;
	s->evfd = -1;
	rt_lograte_init(&s->log, "netlink");
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	return s;
}

const char *
rt_nlsync_netns(const struct rt_nlsync *s)
{
	return s->netns;
}

/* Counters are read by other threads: one aligned store each. */
#define ST_INC(s, field) __atomic_store_n(&(s)->st.field, (s)->st.field + 1, __ATOMIC_RELAXED)

/* Enter the namespace: this thread's network namespace only (setns is per thread). */
static int
enter_netns(struct rt_nlsync *s, char *err, size_t errlen)
{
	char path[sizeof(s->netns) + 16];
	int fd, e;

	if (s->netns[0] == '\0')
		return 0;
	snprintf(path, sizeof(path), "/run/netns/%s", s->netns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "netlink-netns %s: %s: %s", s->netns, path, strerror(e));
		return -e;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		e = errno;
		close(fd);
		snprintf(err, errlen, "netlink-netns %s: setns: %s", s->netns, strerror(e));
		return -e;
	}
	close(fd);
	return 0;
}

static int
open_socket(struct rt_nlsync *s, char *err, size_t errlen)
{
	int grp = RTNLGRP_IPV4_ROUTE, fd, e;
	int size = (int)s->rcvbuf;

	s->nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (s->nl == NULL)
		goto fail;
	if (mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	fd = mnl_socket_get_fd(s->nl);
	/* above rmem_max when allowed (root): a burst of events must not overrun at once */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (mnl_socket_setsockopt(s->nl, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)) < 0)
		goto fail;
	s->portid = mnl_socket_get_portid(s->nl);
	return 0;
fail:
	e = errno != 0 ? errno : EIO;
	snprintf(err, errlen, "netlink socket%s%s: %s", s->netns[0] != '\0' ? " in " : "", s->netns,
		strerror(e));
	if (s->nl != NULL)
		mnl_socket_close(s->nl);
	s->nl = NULL;
	return -e;
}

/* The map, from the names as the namespace has them now (an interface may come later). */
static void
resolve_ifnames(struct rt_nlsync *s)
{
	unsigned int i, idx;

	s->n_map = 0;
	for (i = 0; i < s->n_ifnames; i++) {
		idx = if_nametoindex(s->ifnames[i].name);
		if (idx == 0) {
			RT_LOG(WARNING,
				"netlink: no interface %s%s%s for port %u: its routes are "
				"refused (no_port) until the next resync\n",
				s->ifnames[i].name, s->netns[0] != '\0' ? " in namespace " : "",
				s->netns, s->ifnames[i].port);
			continue;
		}
		s->map[s->n_map++] =
			(struct rt_nl_ifmap){.ifindex = idx, .port = s->ifnames[i].port};
	}
	/*
	 * Names given and none found: an empty map would mean "no map" (ports by
	 * gateway), the opposite of what the warning says. A map of ifindex 0,
	 * which no interface has, refuses every route through an interface.
	 */
	if (s->n_ifnames > 0 && s->n_map == 0)
		s->map[s->n_map++] = (struct rt_nl_ifmap){.ifindex = 0};
}

/* Ask for the whole FIB; its parts come back with our portid and @c dump_seq. */
static int
start_dump(struct rt_nlsync *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct rtmsg *rtm;

	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = ++s->seq != 0 ? s->seq : ++s->seq;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = AF_INET;
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	s->dump_seq = nlh->nlmsg_seq;
	s->dump_intr = false;
	return 0;
}

/* A resync begins (or goes on after a dump that must be done again): new marks, names. */
static void
begin_marking(struct rt_nlsync *s)
{
	s->resync_pending = false;
	if (!s->marking) {
		rt_syncmarks_clear(&s->marks);
		rt_nlfresh_clear(&s->fresh);
		rt_nlfresh_seed(&s->fresh, &s->recent); /* overflow: resync again */
		rt_nlcands_begin(&s->cands);
		s->marking = true;
		clock_gettime(CLOCK_MONOTONIC, &s->resync_t0);
	}
	resolve_ifnames(s);
}

/* A resync begins: new marks, the interface names looked up again, the dump asked. */
static void
begin_resync(struct rt_nlsync *s)
{
	int ret;

	begin_marking(s);
	ret = start_dump(s);
	if (ret < 0) {
		RT_LOG(WARNING, "netlink: cannot ask for a dump: %s\n", strerror(-ret));
		s->resync_pending = true;
	}
}

/*
 * Delete the netlink routes that the resync did not mark: gone from the FIB
 * while nobody listened (a daemon restart, our own restart, an overrun).
 */
static void
sweep(struct rt_nlsync *s)
{
	int n;

	/* the routes by metric first: where the one installed went, the next takes over */
	n = (int)rt_nlcands_sweep(&s->cands, s->t, s->map, s->n_map);
	__atomic_store_n(&s->st.swept, s->st.swept + (uint64_t)n, __ATOMIC_RELAXED);
	n = rt_syncmarks_sweep(s->t, RT_SRC_NETLINK, &s->marks);

	if (n < 0) {
		RT_LOG(WARNING, "netlink: out of memory for the marks: no sweep this time\n");
		return;
	}
	__atomic_store_n(&s->st.swept, s->st.swept + (uint64_t)n, __ATOMIC_RELAXED);
}

static void
end_resync(struct rt_nlsync *s)
{
	struct timespec t1;
	uint64_t swept;

	s->dump_seq = 0;
	if (s->dump_intr || s->fresh.overflow) {
		/*
		 * The FIB changed under the dump, which may have skipped a route,
		 * or a key an event spoke of may have taken the dump's stale word:
		 * no sweep, all of it again (the marks and keys kept).
		 */
		s->resync_pending = true;
		return;
	}
	swept = s->st.swept;
	sweep(s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	RT_LOG(INFO, "netlink: resync: %u routes marked, %" PRIu64 " swept, in %.3f s\n",
		s->marks.n, s->st.swept - swept,
		(double)(t1.tv_sec - s->resync_t0.tv_sec) +
			(t1.tv_nsec - s->resync_t0.tv_nsec) / 1e9);
	__atomic_store_n(&s->st.last_marked, s->marks.n, __ATOMIC_RELAXED);
	s->marking = false;
	rt_syncmarks_clear(&s->marks);
	rt_nlfresh_clear(&s->fresh);
	ST_INC(s, resyncs);
	if (!s->resync_pending)
		__atomic_store_n(&s->st.in_sync, true, __ATOMIC_RELAXED);
}

/*
 * The kernel's route of @p r's key (prefix, length, metric) is a tunnel's:
 * refused, and the route it replaces, if the sync held one there, goes as
 * if deleted (the next metric, if any, takes its place): what the kernel
 * routes there now must not be sent plain. Said on a rate-limited line.
 */
static void
encap_withdraw(struct rt_nlsync *s, struct rt_nl_route *r)
{
	const char *type = rt_nl_encap_name(r->encap);
	char err[RT_ERR_LEN], a[16], t[16];
	bool held;

	r->del = true;
	r->replace = false;
	r->n_hops = 0;
	held = rt_nlcands_apply(&s->cands, s->t, r, s->map, s->n_map, NULL, err, sizeof(err)) == 0;
	if (type == NULL) {
		snprintf(t, sizeof(t), "%u", r->encap);
		type = t;
	}
	if (!rt_lograte_ok(&s->log))
		ST_INC(s, logs_suppressed);
	else
		RT_LOG(WARNING,
			"netlink: %s/%u metric %u: encap %s routes are not supported (the "
			"forwarder sends plain IPv4): route not loaded%s\n",
			rt4_addr_str(r->prefix, a), r->plen, r->metric, type,
			held ? ", the one it replaces withdrawn" : "");
}

/*
 * During a resync, whether the dump's message @p r is to be left out: an
 * event spoke of its key earlier in the resync, or deleted it just before
 * (rt_nlfresh_seed()), and the events have the last word (rt_nlfresh.h). An
 * event's key is noted.
 */
static bool
superseded(struct rt_nlsync *s, const struct rt_nl_route *r, bool dumped)
{
	if (!dumped)
		rt_nlrecent_add(&s->recent, r->prefix, r->plen, r->metric, r->del);
	if (!s->marking)
		return false;
	if (dumped)
		return rt_nlfresh_has(&s->fresh, r->prefix, r->plen, r->metric);
	rt_nlfresh_add(&s->fresh, r->prefix, r->plen, r->metric); /* overflow: resync again */
	return false;
}

/* One route message; @p dumped: a part of our dump, not an event. */
static void
route_msg(struct rt_nlsync *s, const struct nlmsghdr *nlh, bool dumped)
{
	char err[RT_ERR_LEN], a[16];
	enum rt_nl_reason why;
	struct rt_nl_route r;
	enum rt_nlsync_refusal ref;
	int ret;

	ST_INC(s, received);
	why = rt_netlink_parse(nlh, nlh->nlmsg_len, RT_NL_TABLE_MAIN, &r);
	if ((why == RT_NL_OK || why == RT_NL_ENCAP) && superseded(s, &r, dumped)) {
		ST_INC(s, superseded);
		return;
	}
	if (why != RT_NL_OK)
		__atomic_store_n(&s->st.rejected[why], s->st.rejected[why] + 1, __ATOMIC_RELAXED);
	if (why == RT_NL_ENCAP) {
		encap_withdraw(s, &r);
		return;
	}
	if (why != RT_NL_OK)
		return;
	if (r.protocol == RTPROT_KERNEL) {
		ref = RT_NLSYNC_KERNEL;
		goto refused;
	}
	/*
	 * The kernel's latest word on a (prefix, metric) wins (a dump's messages
	 * carry no NLM_F_REPLACE); of a prefix's routes the lowest metric is
	 * installed, as the kernel forwards by it.
	 */
	r.replace = !r.del;
	ret = rt_nlcands_apply(&s->cands, s->t, &r, s->map, s->n_map, NULL, err, sizeof(err));
	if (ret == 0) {
		ST_INC(s, applied);
		if (!r.del && s->marking)
			rt_syncmarks_add(&s->marks, r.prefix, r.plen); /* overflow: no sweep */
		return;
	}
	ref = rt_nlsync_refusal_of(ret);
	RT_LOG(DEBUG, "netlink: %s %s/%u refused: %s\n", r.del ? "delete" : "route",
		rt4_addr_str(r.prefix, a), r.plen, err);
refused:
	__atomic_store_n(&s->st.refused[ref], s->st.refused[ref] + 1, __ATOMIC_RELAXED);
}

/* One datagram: events and dump parts, in the order the kernel queued them. */
static void
datagram(struct rt_nlsync *s, const void *buf, size_t len)
{
	const struct nlmsghdr *nlh = buf;
	int left = (int)len;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		const bool ours = s->dump_seq != 0 && nlh->nlmsg_pid == s->portid &&
				  nlh->nlmsg_seq == s->dump_seq;

		if (ours && (nlh->nlmsg_flags & NLM_F_DUMP_INTR))
			s->dump_intr = true;
		switch (nlh->nlmsg_type) {
		case NLMSG_DONE:
			if (ours)
				end_resync(s);
			break;
		case NLMSG_ERROR:
			if (ours) {
				const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

				RT_LOG(WARNING, "netlink: dump refused: %s\n", strerror(-e->error));
				s->dump_seq = 0;
				s->resync_pending = true;
			}
			break;
		case RTM_NEWROUTE:
		case RTM_DELROUTE:
			route_msg(s, nlh, ours);
			break;
		default:
			break; /* NLMSG_NOOP, and nothing else joined */
		}
	}
}

/*
 * Events were lost (ENOBUFS), or the socket failed: a new socket, and all of
 * it again. Not the same socket: a dump in flight when it overran may never
 * go on (the kernel continues a dump from a read, and nothing may be left to
 * read), and a second dump on it is refused while the first one runs. The
 * marks start afresh: one made before the loss may be of a route whose delete
 * was lost, which the sweep must now remove.
 */
static void
reconnect(struct rt_nlsync *s)
{
	char err[RT_ERR_LEN];

	__atomic_store_n(&s->st.in_sync, false, __ATOMIC_RELAXED);
	mnl_socket_close(s->nl);
	s->nl = NULL;
	s->dump_seq = 0;
	s->marking = false;
	s->resync_pending = true;
	rt_nlrecent_clear(&s->recent); /* a later event of theirs may be among the lost */
	if (open_socket(s, err, sizeof(err)) < 0)
		RT_LOG(WARNING, "netlink: %s: trying again every %u ms\n", err, NLSYNC_RETRY_MS);
}

static void
report_start(struct rt_nlsync *s, int ret, const char *err)
{
	pthread_mutex_lock(&s->lock);
	s->start_ret = ret;
	snprintf(s->start_err, sizeof(s->start_err), "%s", err);
	pthread_cond_signal(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void *
nlsync_thread(void *arg)
{
	struct rt_nlsync *s = arg;
	char err[RT_ERR_LEN] = "";
	int ret, timeout;

	ret = enter_netns(s, err, sizeof(err));
	if (ret == 0)
		ret = open_socket(s, err, sizeof(err));
	report_start(s, ret, err);
	if (ret < 0)
		return NULL;
	RT_LOG(INFO, "netlink: following the routes of %s%s\n",
		s->netns[0] != '\0' ? "namespace " : "the forwarder's own namespace", s->netns);
	s->marking = false;
	s->resync_pending = true;
	while (!s->stop) {
		struct pollfd pfd[2] = {
			{.fd = s->nl != NULL ? mnl_socket_get_fd(s->nl) : -1, .events = POLLIN},
			{.fd = s->evfd, .events = POLLIN},
		};
		ssize_t n;

		if (s->resync_asked) {
			s->resync_asked = false;
			s->resync_pending = true;
		}
		if (s->nl == NULL && open_socket(s, err, sizeof(err)) == 0)
			pfd[0].fd = mnl_socket_get_fd(s->nl);
		/* one dump at a time: a resync asked during one begins after it */
		if (s->nl != NULL && s->resync_pending && s->dump_seq == 0)
			begin_resync(s);
		timeout = s->nl == NULL || (s->resync_pending && s->dump_seq == 0) ? NLSYNC_RETRY_MS
										   : -1;
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents & POLLIN) {
			uint64_t v;

			if (read(s->evfd, &v, sizeof(v)) < 0)
				v = 0; /* another read took it: nothing lost, the flags are read above */
		}
		if (s->nl == NULL || !(pfd[0].revents & (POLLIN | POLLERR)))
			continue;
		n = recv(mnl_socket_get_fd(s->nl), s->buf, sizeof(s->buf), 0);
		if (n >= 0) {
			datagram(s, s->buf, (size_t)n);
			continue;
		}
		if (errno == EAGAIN || errno == EINTR)
			continue;
		if (errno == ENOBUFS)
			ST_INC(s, overruns); /* events were lost */
		else
			RT_LOG(ERR, "netlink: recv: %s: reconnecting\n", strerror(errno));
		reconnect(s);
	}
	if (s->nl != NULL)
		mnl_socket_close(s->nl);
	s->nl = NULL;
	rt_lograte_flush(&s->log); /* lines left out and not yet said */
	rt_syncmarks_clear(&s->marks);
	rt_nlfresh_clear(&s->fresh);
	rt_nlrecent_clear(&s->recent); /* stopped: the events from now on are not heard */
	s->marking = false;
	s->dump_seq = 0;
	__atomic_store_n(&s->st.in_sync, false, __ATOMIC_RELAXED);
	__atomic_store_n(&s->st.running, false, __ATOMIC_RELAXED);
	return NULL;
}

int
rt_nlsync_replay_begin(struct rt_nlsync *s, uint32_t portid, uint32_t seq)
{
	if (s->running)
		return -EBUSY;
	begin_marking(s);
	s->portid = portid;
	s->dump_seq = seq != 0 ? seq : 1;
	s->dump_intr = false;
	return 0;
}

int
rt_nlsync_replay(struct rt_nlsync *s, const void *buf, size_t len)
{
	if (s->running)
		return -EBUSY;
	datagram(s, buf, len);
	return 0;
}

int
rt_nlsync_start(struct rt_nlsync *s, char *err, size_t errlen)
{
	int ret;

	/* a thread that ended on its own (poll failed) is joined: it may start again */
	if (s->running && !__atomic_load_n(&s->st.running, __ATOMIC_RELAXED))
		rt_nlsync_stop(s);
	if (s->running) {
		snprintf(err, errlen, "netlink sync already running");
		return -EALREADY;
	}
	s->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->evfd < 0) {
		ret = -errno;
		snprintf(err, errlen, "eventfd: %s", strerror(-ret));
		return ret;
	}
	s->stop = false;
	s->resync_asked = false;
	s->start_ret = 1;
	s->resyncs_at_start = s->st.resyncs;
	__atomic_store_n(&s->st.running, true, __ATOMIC_RELAXED);
	ret = fwd_compat_ctrl_thread_create(&s->thread, "fwd-nlsync", nlsync_thread, s);
	if (ret != 0) {
		__atomic_store_n(&s->st.running, false, __ATOMIC_RELAXED);
		close(s->evfd);
		s->evfd = -1;
		snprintf(err, errlen, "cannot start the netlink thread: %s", strerror(ret));
		return -ret;
	}
	pthread_mutex_lock(&s->lock);
	while (s->start_ret == 1)
		pthread_cond_wait(&s->cond, &s->lock);
	ret = s->start_ret;
	pthread_mutex_unlock(&s->lock);
	if (ret < 0) {
		pthread_join(s->thread, NULL);
		__atomic_store_n(&s->st.running, false, __ATOMIC_RELAXED);
		close(s->evfd);
		s->evfd = -1;
		snprintf(err, errlen, "%s", s->start_err);
		return ret;
	}
	s->running = true;
	return 0;
}

int
rt_nlsync_wait(const struct rt_nlsync *s, unsigned int timeout_ms)
{
	const struct timespec ms = {0, 1000 * 1000};
	unsigned int i;

	for (i = 0; i <= timeout_ms; i++) {
		if (!__atomic_load_n(&s->st.running, __ATOMIC_RELAXED))
			return -ENOTCONN;
		if (__atomic_load_n(&s->st.resyncs, __ATOMIC_RELAXED) > s->resyncs_at_start)
			return 0;
		nanosleep(&ms, NULL);
	}
	return -ETIMEDOUT;
}

static void
wake(struct rt_nlsync *s)
{
	const uint64_t one = 1;

	if (write(s->evfd, &one, sizeof(one)) < 0)
		RT_LOG(DEBUG, "netlink: wake: %s\n", strerror(errno)); /* full: awake anyway */
}

int
rt_nlsync_stop(struct rt_nlsync *s)
{
	if (!s->running)
		return -EALREADY;
	s->stop = true;
	wake(s);
	pthread_join(s->thread, NULL);
	close(s->evfd);
	s->evfd = -1;
	s->running = false;
	return 0;
}

int
rt_nlsync_resync(struct rt_nlsync *s)
{
	if (!s->running)
		return -ENOTCONN;
	s->resync_asked = true;
	wake(s);
	return 0;
}

void
rt_nlsync_stats_get(const struct rt_nlsync *s, struct rt_nlsync_stats *st)
{
	unsigned int i;

	st->received = __atomic_load_n(&s->st.received, __ATOMIC_RELAXED);
	st->applied = __atomic_load_n(&s->st.applied, __ATOMIC_RELAXED);
	for (i = 0; i < RT_NL_REASON_MAX; i++)
		st->rejected[i] = __atomic_load_n(&s->st.rejected[i], __ATOMIC_RELAXED);
	for (i = 0; i < RT_NLSYNC_REFUSAL_MAX; i++)
		st->refused[i] = __atomic_load_n(&s->st.refused[i], __ATOMIC_RELAXED);
	st->resyncs = __atomic_load_n(&s->st.resyncs, __ATOMIC_RELAXED);
	st->swept = __atomic_load_n(&s->st.swept, __ATOMIC_RELAXED);
	st->overruns = __atomic_load_n(&s->st.overruns, __ATOMIC_RELAXED);
	st->last_marked = __atomic_load_n(&s->st.last_marked, __ATOMIC_RELAXED);
	st->superseded = __atomic_load_n(&s->st.superseded, __ATOMIC_RELAXED);
	st->logs_suppressed = __atomic_load_n(&s->st.logs_suppressed, __ATOMIC_RELAXED);
	st->running = __atomic_load_n(&s->st.running, __ATOMIC_RELAXED);
	st->in_sync = __atomic_load_n(&s->st.in_sync, __ATOMIC_RELAXED);
}

/* the reasons' names by number, as rt_sync_counter_group() takes them */
static const char *
name_nl_reason(unsigned int i)
{
	return rt_nl_reason_name(i);
}

static const char *
name_nlsync_refusal(unsigned int i)
{
	return rt_nlsync_refusal_name(i);
}

void
rt_nlsync_counters_reasons(struct rt_nlsync_counter *c, unsigned int max, unsigned int *n,
	const uint64_t *rejected, const uint64_t *refused)
{
	rt_sync_counter_group(c, max, n, "rejected", name_nl_reason, rejected, 1, RT_NL_REASON_MAX);
	rt_sync_counter_group(
		c, max, n, "refused", name_nlsync_refusal, refused, 0, RT_NLSYNC_REFUSAL_MAX);
}

unsigned int
rt_nlsync_counters(const struct rt_nlsync *s, struct rt_nlsync_counter *c, unsigned int max)
{
	struct rt_nlsync_stats st;
	unsigned int n = 0;

	rt_nlsync_stats_get(s, &st);
	rt_sync_counter_put(c, max, &n, NULL, "received", st.received);
	rt_sync_counter_put(c, max, &n, NULL, "applied", st.applied);
	rt_sync_counter_put(c, max, &n, NULL, "resyncs", st.resyncs);
	rt_sync_counter_put(c, max, &n, NULL, "swept", st.swept);
	rt_sync_counter_put(c, max, &n, NULL, "overruns", st.overruns);
	rt_sync_counter_put(c, max, &n, NULL, "last_marked", st.last_marked);
	rt_sync_counter_put(c, max, &n, NULL, "superseded", st.superseded);
	rt_sync_counter_put(c, max, &n, NULL, "logs_suppressed", st.logs_suppressed);
	rt_nlsync_counters_reasons(c, max, &n, st.rejected, st.refused);
	return n;
}

const char *
rt_nlsync_state(const struct rt_nlsync *s)
{
	if (!__atomic_load_n(&s->st.running, __ATOMIC_RELAXED))
		return "stopped";
	return __atomic_load_n(&s->st.in_sync, __ATOMIC_RELAXED) ? "in_sync" : "syncing";
}

void
rt_nlsync_free(struct rt_nlsync *s)
{
	if (s == NULL)
		return;
	rt_nlsync_stop(s);
	rt_nlcands_clear(&s->cands);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	free(s);
}
