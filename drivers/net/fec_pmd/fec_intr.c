/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * RX interrupts (dev_conf.intr_conf.rxq) behind one VDEV-type interrupt
 * handle, the shape rte_eth_dev_rx_intr_ctl_q() and rte_epoll_wait() expect
 * (queue n is vector RTE_INTR_VEC_RXTX_OFFSET + n), in two ways:
 *
 * - lines (the model's default): each RX queue's RXF event (ring n: RXF,
 *   RXF1, RXF2) on an event fd of its own, the model's interrupt line n.
 *   Enable acks the ring's stale RXF, unmasks it, and writes the fd itself
 *   when a frame is already in the ring (the wake-up the unmask raced).
 * - uio (backend=uio; intr=uio on the model, to test it there): the one IRQ
 *   uio_pdrv_genirq hands to user space. Its handler disables the IRQ and
 *   counts an event per open of /dev/uioX; a write of 1 enables it again.
 *   The port opens the device once more for the handle (an open of its own:
 *   its count is read by EAL after each wake-up, 4 bytes). The IRQ carries
 *   ring 0's events only (on silicon the first ENET interrupt the stock
 *   uio_pdrv_genirq takes is one SPI, rings 1 and 2 have theirs; on QEMU
 *   every MAC event is on it but QEMU has no RX rings 1/2), so queue 0 alone
 *   has a vector: the other queues have no fd (docs/fec_pmd.md). The fd
 *   cannot be written by the driver, so there is no self-wake: instead RXF
 *   is acked when the caller disables the interrupt (before it polls), not
 *   when it enables it. A frame that lands after that ack, polled or not,
 *   leaves RXF pending, and the unmask with the IRQ enabled interrupts at
 *   once: no wake-up lost, at the price of one early wake-up after frames
 *   that came during the polling.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_interrupts.h>

#include "fec_backend.h"
#include "fec_ethdev.h"

static void
uio_irq_close(struct fec_priv *fep)
{
	if (fep->intr_uio_fd < 0)
		return;
	fep->be->irq_close(fep, fep->intr_uio_fd);
	fep->intr_uio_fd = -1;
}

/*
 * Consume a count left from an interrupt the caller did not wait for (one
 * that came after a timeout): it was for frames already polled, and would
 * end the next wait at once. Nothing to read is the usual case.
 */
static void
uio_irq_drain(struct fec_priv *fep)
{
	uint64_t count;

	if (read(fep->intr_uio_fd, &count, fep->be->irq_counter_size) < 0)
		return;
}

/* The handle with queue n's fd on vector n; fd_of(q) < 0 leaves queue q without one. */
static int
handle_setup(struct rte_eth_dev *dev, uint16_t nb_efd, int (*fd_of)(struct fec_priv *, uint16_t),
	uint32_t counter_size)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q, nb = dev->data->nb_rx_queues;
	struct rte_intr_handle *h;
	int fd, ret = -ENOMEM;

	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (h == NULL)
		return -ENOMEM;
	/* VDEV: EAL reads this many bytes from the fd on a wake-up. */
	if (rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) < 0 ||
		rte_intr_efd_counter_size_set(h, counter_size) < 0 ||
		rte_intr_nb_efd_set(h, nb_efd) < 0 || rte_intr_max_intr_set(h, nb + 1) < 0 ||
		rte_intr_vec_list_alloc(h, "fec_intr", nb) < 0)
		goto fail;
	for (q = 0; q < nb; q++) {
		fd = q < nb_efd ? fd_of(fep, q) : -1;
		if (q < nb_efd && fd < 0) {
			ret = fd;
			goto fail;
		}
		/*
		 * A queue beyond nb_efd: fd -1 for rte_eth_dev_rx_intr_ctl_q_get_fd()
		 * and a vector past nb_efd, which rte_intr_rx_ctl() refuses.
		 */
		if (rte_intr_efds_index_set(h, q, fd) < 0 ||
			rte_intr_vec_list_index_set(h, q, RTE_INTR_VEC_RXTX_OFFSET + q) < 0)
			goto fail;
	}
	dev->intr_handle = h;
	return 0;
fail:
	rte_intr_vec_list_free(h);
	rte_intr_instance_free(h);
	return ret;
}

static int
uio_fd(struct fec_priv *fep, uint16_t q)
{
	RTE_SET_USED(q);
	return fep->intr_uio_fd;
}

int
fec_intr_setup(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t nb = dev->data->nb_rx_queues;
	int ret;

	/* Configured again without it: no handle, so enable/ctl_q fail as documented. */
	if (!dev->data->dev_conf.intr_conf.rxq) {
		fec_intr_free(dev);
		return 0;
	}
	/* Configured again with as many queues: same fds, same vectors. */
	if (dev->intr_handle != NULL && rte_intr_max_intr_get(dev->intr_handle) == nb + 1)
		return 0;
	fec_intr_free(dev);
	if (!fep->intr_uio) {
		/* The devargs check refuses intr=lines on UIO, which has no lines. */
		if (fep->be->line_fd == NULL)
			return -ENOTSUP;
		return handle_setup(dev, nb, fep->be->line_fd, sizeof(uint64_t));
	}
	ret = fep->be->irq_open(fep);
	if (ret < 0) {
		FEC_LOG(ERR, "%s: cannot open %s for its interrupt: %s", fep->name, fep->uio_dev,
			strerror(-ret));
		return ret;
	}
	fep->intr_uio_fd = ret;
	ret = handle_setup(dev, 1, uio_fd, fep->be->irq_counter_size);
	if (ret < 0)
		uio_irq_close(fep);
	else if (nb > 1)
		FEC_LOG(INFO, "%s: RX interrupts on queue 0 only (the one UIO IRQ carries ring 0)",
			fep->name);
	return ret;
}

void
fec_intr_free(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct rte_intr_handle *h = dev->intr_handle;

	if (h == NULL)
		return;
	/* Out of every epoll set it is in before the handle (and its fd) go. */
	rte_intr_free_epoll_fd(h);
	rte_intr_vec_list_free(h);
	rte_intr_instance_free(h);
	dev->intr_handle = NULL;
	uio_irq_close(fep);
}

/* The queue has a vector of the handle. */
static bool
has_vector(struct rte_eth_dev *dev, uint16_t qid)
{
	return dev->intr_handle != NULL && qid < rte_intr_nb_efd_get(dev->intr_handle) &&
	       dev->data->rx_queues[qid] != NULL;
}

static void
eimr_update(struct fec_priv *fep, uint32_t set, uint32_t clear)
{
	rte_spinlock_lock(&fep->eimr_lock);
	fep->eimr = (fep->eimr & ~clear) | set;
	fec_wr32(fep, FEC_EIMR, fep->eimr);
	rte_spinlock_unlock(&fep->eimr_lock);
}

int
fec_rx_intr_enable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_rxq *rxq;
	volatile struct fec_bd *bd;
	uint64_t one = 1;

	if (!has_vector(dev, qid))
		return -ENOTSUP;
	if (fep->intr_uio) {
		int ret;

		uio_irq_drain(fep);
		/*
		 * IRQ on, then the unmask: an RXF pending since the disable interrupts
		 * now, once (the other order interrupts at the unmask if the IRQ was
		 * still on, and again when it is enabled with RXF still pending).
		 */
		ret = fep->be->irq_enable(fep);
		if (ret == 0)
			eimr_update(fep, fec_eir_rxf(qid), 0);
		return ret;
	}
	rxq = dev->data->rx_queues[qid];
	/* Drop an RXF left from polling, then unmask: only new frames assert the line. */
	fec_wr32(fep, FEC_EIR, fec_eir_rxf(qid));
	eimr_update(fep, fec_eir_rxf(qid), 0);
	/* The unmask must be visible to the MAC before the BD is read again. */
	rte_mb();
	/*
	 * A frame completed after the application's last empty burst but before
	 * the unmask raised RXF while it was masked (or was acked just above): no
	 * edge will come for it, and the caller would sleep with a frame in the
	 * ring. So look at the next BD now and wake the caller ourselves.
	 */
	bd = (volatile struct fec_bd *)(rxq->bd + ((uint32_t)rxq->cur << rxq->bd_shift));
	if (rxq->started && !(rte_le_to_cpu_16(bd->sc) & FEC_BD_E) &&
		write(rte_intr_efds_index_get(dev->intr_handle, qid), &one, sizeof(one)) < 0)
		return -errno;
	return 0;
}

int
fec_rx_intr_disable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_priv *fep = dev->data->dev_private;

	if (!has_vector(dev, qid))
		return -ENOTSUP;
	eimr_update(fep, 0, fec_eir_rxf(qid));
	/*
	 * UIO: the ack, after the mask (a frame between them is polled next, and
	 * asserts nothing meanwhile), so that RXF pending at the next enable
	 * means a frame came after this point.
	 */
	if (fep->intr_uio)
		fec_wr32(fep, FEC_EIR, fec_eir_rxf(qid));
	return 0;
}

int
fec_coalesce_parse(const char *name, const char *spec, unsigned int clk_mhz, uint32_t *rxic)
{
	unsigned long frames, usecs;
	uint64_t periods;
	char *end;

	frames = strtoul(spec, &end, 10);
	if (end == spec || *end != ':' || end[1] < '0' || end[1] > '9') {
		FEC_LOG(ERR, "%s: rx_coalesce='%s': want FRAMES:USECS", name, spec);
		return -EINVAL;
	}
	usecs = strtoul(end + 1, &end, 10);
	if (*end != '\0') {
		FEC_LOG(ERR, "%s: rx_coalesce='%s': want FRAMES:USECS", name, spec);
		return -EINVAL;
	}
	/* 1 frame would be an interrupt per frame; ICFT 0 is unpredictable (RM). */
	if (frames < 2 || frames > 255) {
		FEC_LOG(ERR,
			"%s: rx_coalesce='%s': FRAMES %lu out of 2..255 (ICFT is 8 bits; 1 is no "
			"coalescing: leave rx_coalesce out)",
			name, spec, frames);
		return -EINVAL;
	}
	/* Linux's fec_enet_us_to_itr_clock(): ICTT counts 64 clocks. */
	periods = (uint64_t)usecs * clk_mhz / FEC_IC_TT_CLOCKS;
	if (usecs == 0 || periods == 0 || periods > 0xFFFF) {
		FEC_LOG(ERR,
			"%s: rx_coalesce='%s': USECS %lu out of %u..%u (ICTT: 1..65535 periods of "
			"64 clocks at itr_clk_mhz=%u)",
			name, spec, usecs, (FEC_IC_TT_CLOCKS + clk_mhz - 1) / clk_mhz,
			(unsigned int)(0xFFFFull * FEC_IC_TT_CLOCKS / clk_mhz), clk_mhz);
		return -EINVAL;
	}
	*rxic = FEC_IC_EN | FEC_IC_CS | FEC_IC_ICFT(frames) | FEC_IC_ICTT(periods);
	return 0;
}
