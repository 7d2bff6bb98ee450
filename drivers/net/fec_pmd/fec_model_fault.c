/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/* Model errata: the TDAR doorbell's ERR006358 and ERR007885 behaviours. */

#include <rte_log.h>

#include "fec_model_priv.h"

/* Called with the model lock held, for a TDAR write while ETHEREN=1. */
bool
fec_model_tdar_fault(struct fec_model *m)
{
	if (fec_model_reg(m, FEC_TDAR) & FEC_DAR_ACTIVE) {
		m->tdar_busy_writes++;
		if (m->err007885)
			RTE_LOG(WARNING, PMD,
				"fec_model: %s: TDAR written while active (ERR007885)\n", m->name);
	}
	if (m->tdar_lose == 0)
		return false;
	m->tdar_lose--;
	m->tdar_lost++;
	return true;
}

void
fec_model_tdar_lose(struct fec_model *m, unsigned int n)
{
	rte_spinlock_lock(&m->lock);
	m->tdar_lose = n;
	rte_spinlock_unlock(&m->lock);
}

unsigned int
fec_model_tdar_lost(const struct fec_model *m)
{
	return m->tdar_lost;
}

unsigned int
fec_model_tdar_busy_writes(const struct fec_model *m)
{
	return m->tdar_busy_writes;
}
