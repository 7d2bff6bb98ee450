/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's interrupt line: an eventfd written each time an event bit that
 * EIMR unmasks becomes pending in EIR (or EIMR unmasks one already pending),
 * the way the MAC asserts int0. Each write adds 1 to the eventfd counter, so
 * the reader sees a count, like a UIO device's.
 */

#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fec_model_priv.h"

int
fec_model_irq_fd(struct fec_model *m)
{
	int fd;

	rte_spinlock_lock(&m->lock);
	if (m->irq_fd < 0)
		m->irq_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fd = m->irq_fd < 0 ? -errno : m->irq_fd;
	rte_spinlock_unlock(&m->lock);
	return fd;
}

unsigned int
fec_model_irqs(const struct fec_model *m)
{
	return __atomic_load_n(&m->irqs, __ATOMIC_RELAXED);
}

void
fec_model_irq_raise(struct fec_model *m)
{
	uint64_t one = 1;

	__atomic_fetch_add(&m->irqs, 1, __ATOMIC_RELAXED);
	/* Non-blocking: a full counter (2^64 - 2) only loses a count, not the edge. */
	if (m->irq_fd >= 0 && write(m->irq_fd, &one, sizeof(one)) < 0)
		return;
}

void
fec_model_irq_free(struct fec_model *m)
{
	if (m->irq_fd >= 0)
		close(m->irq_fd);
	m->irq_fd = -1;
}
