/*
 * RX interrupts (dev_conf.intr_conf.rxq): each RX queue's RXF event (ring n:
 * RXF, RXF1, RXF2) as an event fd of its own behind one VDEV-type interrupt
 * handle, the shape rte_eth_dev_rx_intr_ctl_q() and rte_epoll_wait() expect:
 * queue n is vector RTE_INTR_VEC_RXTX_OFFSET + n, its fd the model's
 * interrupt line n. On UIO the PMD does not wait on the IRQ yet, so the mode
 * is refused there.
 */

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include <rte_interrupts.h>

#include "fec_ethdev.h"

int
fec_intr_setup(struct rte_eth_dev *dev)
{
	struct fec_priv *fep = dev->data->dev_private;
	uint16_t q, nb = dev->data->nb_rx_queues;
	struct rte_intr_handle *h;
	int fd, ret = -ENOMEM;

	/* Configured again without it: no handle, so enable/ctl_q fail as documented. */
	if (!dev->data->dev_conf.intr_conf.rxq) {
		fec_intr_free(dev);
		return 0;
	}
	if (fep->model == NULL) {
		FEC_LOG(ERR, "%s: RX interrupts need backend=model (the UIO IRQ is not used yet)",
			fep->name);
		return -ENOTSUP;
	}
	/* Configured again with as many queues: same fds, same vectors. */
	if (dev->intr_handle != NULL && rte_intr_nb_efd_get(dev->intr_handle) == nb)
		return 0;
	fec_intr_free(dev);
	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (h == NULL)
		return -ENOMEM;
	/* VDEV: EAL reads this many bytes from the fd on a wake-up (eventfd count). */
	if (rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) < 0 ||
		rte_intr_efd_counter_size_set(h, sizeof(uint64_t)) < 0 ||
		rte_intr_nb_efd_set(h, nb) < 0 || rte_intr_max_intr_set(h, nb + 1) < 0 ||
		rte_intr_vec_list_alloc(h, "fec_intr", nb) < 0)
		goto fail;
	for (q = 0; q < nb; q++) {
		fd = fec_model_irq_fd(fep->model, q);
		if (fd < 0) {
			ret = fd;
			goto fail;
		}
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

void
fec_intr_free(struct rte_eth_dev *dev)
{
	struct rte_intr_handle *h = dev->intr_handle;

	if (h == NULL)
		return;
	/* Out of every epoll set it is in before the handle (and its fd) go. */
	rte_intr_free_epoll_fd(h);
	rte_intr_vec_list_free(h);
	rte_intr_instance_free(h);
	dev->intr_handle = NULL;
}

int
fec_rx_intr_enable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct fec_priv *fep = dev->data->dev_private;
	struct fec_rxq *rxq;
	volatile struct fec_bd *bd;
	uint64_t one = 1;

	if (dev->intr_handle == NULL || qid >= rte_intr_nb_efd_get(dev->intr_handle))
		return -ENOTSUP;
	rxq = dev->data->rx_queues[qid];
	if (rxq == NULL)
		return -ENOTSUP;
	/* Drop an RXF left from polling, then unmask: only new frames assert the line. */
	fec_wr32(fep, FEC_EIR, fec_eir_rxf(qid));
	rte_spinlock_lock(&fep->eimr_lock);
	fep->eimr |= fec_eir_rxf(qid);
	fec_wr32(fep, FEC_EIMR, fep->eimr);
	rte_spinlock_unlock(&fep->eimr_lock);
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

	if (dev->intr_handle == NULL || qid >= rte_intr_nb_efd_get(dev->intr_handle))
		return -ENOTSUP;
	rte_spinlock_lock(&fep->eimr_lock);
	fep->eimr &= ~fec_eir_rxf(qid);
	fec_wr32(fep, FEC_EIMR, fep->eimr);
	rte_spinlock_unlock(&fep->eimr_lock);
	return 0;
}
