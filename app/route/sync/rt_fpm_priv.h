/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_FPM_PRIV_H
#define RT_FPM_PRIV_H

/*
 * The FPM listener's state, shared by its two halves and private to them:
 * rt_fpm_session.c, a connection's byte stream into the table (frames,
 * route and next-hop messages, the objects' routes, the sweep; no socket:
 * the fuzzer's and the unit tests' path), and rt_fpm_listen.c, the listener
 * (sockets, peers, candidates, its thread, the counters' readers).
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "rt_fpm.h"
#include "rt_log.h"
#include "rt_lograte.h"
#include "rt_nexthop.h"
#include "rt_syncmarks.h"

#define FPM_MAX_IFNAMES   RTE_MAX_ETHPORTS
#define FPM_QUIET_MS      500 /* a replay that sent nothing for this long is done */
#define FPM_SWEEP_STRETCH 10  /* a busy stream postpones the sweep up to 10 x the delay */
#define FPM_RNH_MIN       256 /* buckets of the prefix -> next-hop id hash, at least */
#define FPM_NETNS_LEN     64  /* a name under /run/netns, as the config allows */

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

/*
 * May a log line be written (a connection's, a refused route's)? The
 * listener's bucket (rt_lograte.h); a line left out is counted
 * (logs_suppressed), and the next one written says how many were.
 */
bool rt_fpm_log_ok(struct rt_fpm *f);

/* A log line of the listener's, rate-limited (rt_fpm_log_ok()). */
#define FPM_LOG(f, level, ...)                      \
	do {                                        \
		if (rt_fpm_log_ok(f))               \
			RT_LOG(level, __VA_ARGS__); \
	} while (0)

/* Free the hash of the fpm routes that name a next-hop object (rt_fpm_free()). */
void rt_fpm_rnh_free(struct rt_fpm *f);

#endif /* RT_FPM_PRIV_H */
