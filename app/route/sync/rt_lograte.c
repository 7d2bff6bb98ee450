/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <inttypes.h>

#include "rt_log.h"
#include "rt_lograte.h"

void
rt_lograte_init(struct rt_lograte *l, const char *who)
{
	l->who = who;
	l->tokens = RT_LOGRATE_BURST;
	l->held = 0;
	clock_gettime(CLOCK_MONOTONIC, &l->t);
}

bool
rt_lograte_ok(struct rt_lograte *l)
{
	struct timespec now;
	int64_t ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (int64_t)(now.tv_sec - l->t.tv_sec) * 1000 + (now.tv_nsec - l->t.tv_nsec) / 1000000;
	if (ms >= 1000 / RT_LOGRATE_PER_S) {
		const uint64_t add = (uint64_t)ms * RT_LOGRATE_PER_S / 1000;

		l->tokens = add >= RT_LOGRATE_BURST - l->tokens ? RT_LOGRATE_BURST
								: l->tokens + (uint32_t)add;
		l->t = now;
	}
	if (l->tokens == 0) {
		l->held++;
		return false;
	}
	l->tokens--;
	rt_lograte_flush(l);
	return true;
}

void
rt_lograte_flush(struct rt_lograte *l)
{
	if (l->held == 0)
		return;
	RT_LOG(WARNING, "%s: %" PRIu64 " log lines left out (rate limit)\n", l->who, l->held);
	l->held = 0;
}
