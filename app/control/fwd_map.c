/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>

#include <rte_lcore.h>

#include "fwd_app.h"

int
fwd_map_default(struct fwd_config *cfg, uint16_t nb_ports, char *err, size_t errlen)
{
	unsigned int workers[RTE_MAX_LCORE];
	unsigned int n_workers = 0, lcore, n = 0;
	uint16_t port, q;

	RTE_LCORE_FOREACH_WORKER(lcore)
	workers[n_workers++] = lcore;
	if (n_workers == 0) {
		snprintf(err, errlen,
			"no worker lcore: give EAL at least two lcores (e.g. -l 0,1); the main "
			"lcore only prints stats");
		return -EINVAL;
	}
	if ((unsigned int)nb_ports * cfg->rxq > FWD_MAX_MAP) {
		snprintf(err, errlen, "%u ports x %u queues is more than %d map entries", nb_ports,
			cfg->rxq, FWD_MAX_MAP);
		return -EINVAL;
	}
	/* queue-major, so that with one queue per port the ports spread over lcores */
	for (q = 0; q < cfg->rxq; q++) {
		for (port = 0; port < nb_ports; port++) {
			cfg->map[n].port = port;
			cfg->map[n].queue = q;
			cfg->map[n].lcore = workers[n % n_workers];
			n++;
		}
	}
	cfg->n_map = n;
	return 0;
}

int
fwd_map_validate(const struct fwd_config *cfg, uint16_t nb_ports, char *err, size_t errlen)
{
	uint64_t queues[RTE_MAX_ETHPORTS] = {0}; /* bit q: queue q is mapped */
	unsigned int per_lcore[RTE_MAX_LCORE] = {0};
	unsigned int i;
	uint16_t port;

	for (i = 0; i < cfg->n_map; i++) {
		const struct fwd_map_entry *e = &cfg->map[i];

		if (e->port >= nb_ports) {
			snprintf(err, errlen, "--map: port %u does not exist (%u port%s found)",
				e->port, nb_ports, nb_ports == 1 ? "" : "s");
			return -ENODEV;
		}
		if (!rte_lcore_is_enabled(e->lcore)) {
			snprintf(err, errlen,
				"--map: lcore %u is not enabled (give it to EAL with -l or -c)",
				e->lcore);
			return -EINVAL;
		}
		if (e->lcore == rte_get_main_lcore()) {
			snprintf(err, errlen,
				"--map: lcore %u is the main lcore, which prints stats; map queues "
				"to worker lcores",
				e->lcore);
			return -EINVAL;
		}
		if (++per_lcore[e->lcore] > FWD_MAX_RX_PER_LCORE) {
			snprintf(err, errlen, "--map: lcore %u polls more than %d queues", e->lcore,
				FWD_MAX_RX_PER_LCORE);
			return -EINVAL;
		}
		queues[e->port] |= UINT64_C(1) << e->queue;
	}
	for (port = 0; port < nb_ports; port++) {
		uint64_t q = queues[port];

		/* mapped queues must be exactly 0..N-1: an unpolled queue fills and drops */
		if ((q & (q + 1)) != 0) {
			unsigned int missing = (unsigned int)__builtin_ctzll(~q);

			snprintf(err, errlen,
				"--map: port %u RX queue %u is not mapped (queues must be 0..N-1)",
				port, missing);
			return -EINVAL;
		}
	}
	return 0;
}
