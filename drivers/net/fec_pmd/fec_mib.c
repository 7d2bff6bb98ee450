/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * MIB counters: 32-bit in the MAC, 64-bit in the driver. An EAL alarm folds
 * them in while the port is started, so an application that reads stats
 * rarely (or never) loses nothing to a wrap; the fast path pays nothing.
 */

#include <rte_alarm.h>

#include "fec_ethdev.h"

static const uint32_t fec_mib_offs[FEC_MIB_NB] = {
#define X(n, o) (o),
	FEC_MIB_TABLE(X)
#undef X
};

/* Alarm callbacks run so far, all ports (tests wait on it). */
static uint64_t fec_mib_alarm_runs;

void
fec_mib_update(struct fec_priv *fep)
{
	unsigned int i;

	for (i = 0; i < FEC_MIB_NB; i++) {
		uint32_t cur = fec_rd32(fep, fec_mib_offs[i]);

		/* 32-bit counters wrap: unsigned difference is the increment. */
		fep->mib[i] += (uint32_t)(cur - fep->mib_last[i]);
		fep->mib_last[i] = cur;
	}
}

static void
fec_mib_alarm(void *arg)
{
	struct fec_priv *fep = arg;

	rte_spinlock_lock(&fep->mib_lock);
	fec_mib_update(fep);
	rte_spinlock_unlock(&fep->mib_lock);
	__atomic_fetch_add(&fec_mib_alarm_runs, 1, __ATOMIC_RELEASE);
	/*
	 * Re-armed from inside the callback: rte_eal_alarm_cancel() from another
	 * thread waits for a running callback and then also removes what it
	 * re-armed; the flag makes that independent of the EAL's loop.
	 */
	if (__atomic_load_n(&fep->mib_alarm_on, __ATOMIC_ACQUIRE) &&
		rte_eal_alarm_set(fep->mib_period_ms * 1000ULL, fec_mib_alarm, fep) < 0)
		FEC_LOG(ERR, "%s: MIB alarm not re-armed: counters may wrap unseen", fep->name);
}

int
fec_mib_alarm_start(struct fec_priv *fep)
{
	int ret;

	__atomic_store_n(&fep->mib_alarm_on, true, __ATOMIC_RELEASE);
	ret = rte_eal_alarm_set(fep->mib_period_ms * 1000ULL, fec_mib_alarm, fep);
	if (ret < 0)
		__atomic_store_n(&fep->mib_alarm_on, false, __ATOMIC_RELEASE);
	return ret;
}

void
fec_mib_alarm_stop(struct fec_priv *fep)
{
	__atomic_store_n(&fep->mib_alarm_on, false, __ATOMIC_RELEASE);
	/* Waits for a callback running on the interrupt thread to finish. */
	rte_eal_alarm_cancel(fec_mib_alarm, fep);
}

uint64_t
fec_mib_alarm_count(void)
{
	return __atomic_load_n(&fec_mib_alarm_runs, __ATOMIC_ACQUIRE);
}
