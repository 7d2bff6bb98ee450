/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The model's interrupt lines int0..int2: an eventfd each, written each time
 * an event bit that EIMR unmasks becomes pending in EIR (or EIMR unmasks one
 * already pending), the way the MAC asserts its IRQ lines. Ring n's events
 * (RXB/RXF/TXB/TXF n: EIR bits 0-3 for ring 1, 4-7 for ring 2) are on line
 * n, everything else on int0 (**RM?**: fec-enet.md §5, the routing of
 * int0/int1/int2 per ring; Linux takes every line into one handler, so it
 * never depends on it). Each write adds 1 to the eventfd counter, so the
 * reader sees a count, like a UIO device's.
 *
 * Line 0 is also offered as uio_pdrv_genirq hands an IRQ to user space
 * (fec_model_uio_*), so that the driver's UIO interrupt path runs in CI: the
 * kernel's handler disables the IRQ and counts one event for every open of
 * /dev/uioX (each open reads its own count); a write of 1 enables it again,
 * and a line still asserted then (EIR & EIMR, level) interrupts at once.
 */

#include <errno.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "fec_model_priv.h"

/* The EIR/EIMR bits each line carries. */
static const uint32_t line_bits[FEC_MAX_RINGS] = {~0xFFu, 0x0Fu, 0xF0u};

int
fec_model_irq_fd(struct fec_model *m, unsigned int line)
{
	int fd;

	if (line >= FEC_MAX_RINGS)
		return -EINVAL;
	rte_spinlock_lock(&m->lock);
	if (m->irq_fd[line] < 0)
		m->irq_fd[line] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	fd = m->irq_fd[line] < 0 ? -errno : m->irq_fd[line];
	rte_spinlock_unlock(&m->lock);
	return fd;
}

unsigned int
fec_model_irqs(const struct fec_model *m)
{
	unsigned int l, n = 0;

	for (l = 0; l < FEC_MAX_RINGS; l++)
		n += __atomic_load_n(&m->irqs[l], __ATOMIC_RELAXED);
	return n;
}

unsigned int
fec_model_line_irqs(const struct fec_model *m, unsigned int line)
{
	return line < FEC_MAX_RINGS ? __atomic_load_n(&m->irqs[line], __ATOMIC_RELAXED) : 0;
}

/* uio_pdrv_genirq's handler: IRQ off until user space writes 1, an event per open. */
static void
uio_interrupt(struct fec_model *m)
{
	uint64_t one = 1;
	unsigned int i;

	m->uio_irq_off = true;
	__atomic_fetch_add(&m->uio_irqs, 1, __ATOMIC_RELAXED);
	for (i = 0; i < FEC_MODEL_UIO_MAX; i++)
		if (m->uio_fd[i] >= 0 && write(m->uio_fd[i], &one, sizeof(one)) < 0)
			continue;
}

int
fec_model_uio_open(struct fec_model *m)
{
	unsigned int i;
	int fd = -EMFILE;

	rte_spinlock_lock(&m->lock);
	for (i = 0; i < FEC_MODEL_UIO_MAX; i++) {
		if (m->uio_fd[i] >= 0)
			continue;
		m->uio_fd[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		fd = m->uio_fd[i] < 0 ? -errno : m->uio_fd[i];
		break;
	}
	rte_spinlock_unlock(&m->lock);
	return fd;
}

void
fec_model_uio_close(struct fec_model *m, int fd)
{
	unsigned int i;

	rte_spinlock_lock(&m->lock);
	for (i = 0; i < FEC_MODEL_UIO_MAX; i++) {
		if (fd < 0 || m->uio_fd[i] != fd)
			continue;
		close(fd);
		m->uio_fd[i] = -1;
	}
	rte_spinlock_unlock(&m->lock);
}

void
fec_model_uio_irqcontrol(struct fec_model *m, bool on)
{
	rte_spinlock_lock(&m->lock);
	if (!on) {
		m->uio_irq_off = true;
	} else if (m->uio_irq_off) {
		m->uio_irq_off = false;
		/* A level source still asserted interrupts as soon as it is enabled. */
		if (fec_model_reg(m, FEC_EIR) & fec_model_reg(m, FEC_EIMR) & line_bits[0])
			uio_interrupt(m);
	}
	rte_spinlock_unlock(&m->lock);
}

unsigned int
fec_model_uio_irqs(const struct fec_model *m)
{
	return __atomic_load_n(&m->uio_irqs, __ATOMIC_RELAXED);
}

void
fec_model_irq_raise(struct fec_model *m, uint32_t bits)
{
	uint64_t one = 1;
	unsigned int l;

	if ((bits & line_bits[0]) && !m->uio_irq_off)
		uio_interrupt(m);

	for (l = 0; l < FEC_MAX_RINGS; l++) {
		if (!(bits & line_bits[l]))
			continue;
		__atomic_fetch_add(&m->irqs[l], 1, __ATOMIC_RELAXED);
		/* Non-blocking: a full counter (2^64 - 2) only loses a count, not the edge. */
		if (m->irq_fd[l] >= 0 && write(m->irq_fd[l], &one, sizeof(one)) < 0)
			continue;
	}
}

void
fec_model_irq_free(struct fec_model *m)
{
	unsigned int l;

	for (l = 0; l < FEC_MAX_RINGS; l++) {
		if (m->irq_fd[l] >= 0)
			close(m->irq_fd[l]);
		m->irq_fd[l] = -1;
	}
	for (l = 0; l < FEC_MODEL_UIO_MAX; l++) {
		if (m->uio_fd[l] >= 0)
			close(m->uio_fd[l]);
		m->uio_fd[l] = -1;
	}
}
