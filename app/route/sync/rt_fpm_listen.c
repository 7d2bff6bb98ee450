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

#include "rt_fpm_priv.h"

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
	rt_fpm_rnh_free(f);
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
