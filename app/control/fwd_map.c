/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>

#include <rte_lcore.h>

#include "fwd_map.h"
#include "fwd_app.h"
#include "fwd_log.h"

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
	if (cfg->nb_cores > n_workers) {
		snprintf(err, errlen,
			"--nb-cores %u: only %u worker lcore%s (the main lcore does not forward; "
			"give EAL more with -l)",
			cfg->nb_cores, n_workers, n_workers == 1 ? "" : "s");
		return -EINVAL;
	}
	if (cfg->nb_cores != 0)
		n_workers = cfg->nb_cores; /* testpmd's: the first N forward */
	if ((unsigned int)nb_ports * cfg->rxq > FWD_MAX_MAP) {
		snprintf(err, errlen, "%u ports x %u queues is more than %d map entries", nb_ports,
			cfg->rxq, FWD_MAX_MAP);
		return -EINVAL;
	}
	/* queue-major, so that with one queue per port the ports spread over lcores */
	for (q = 0; q < cfg->rxq; q++) {
		for (port = 0; port < nb_ports; port++) {
			if (!fwd_port_used(cfg, port))
				continue;
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
	unsigned int i, n_lcores = 0;
	uint16_t port;

	if (cfg->portmask >> nb_ports != 0) {
		snprintf(err, errlen, "-p 0x%" PRIx64 ": port %u does not exist (%u port%s found)",
			cfg->portmask,
			(unsigned int)__builtin_ctzll(cfg->portmask >> nb_ports) + nb_ports,
			nb_ports, nb_ports == 1 ? "" : "s");
		return -ENODEV;
	}

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
		if (!fwd_port_used(cfg, e->port)) {
			snprintf(err, errlen,
				"--map: port %u is not in the port mask -p 0x%" PRIx64, e->port,
				cfg->portmask);
			return -EINVAL;
		}
		if (e->lcore == rte_get_main_lcore()) {
			/* l3fwd's "-l 1,2 --config (0,0,1),(1,0,2)" lands here: EAL's main
			 * lcore is the lowest of -l, and it runs the stats and the shell */
			if (e->lcore > 0)
				snprintf(err, errlen,
					"--map: lcore %u is the main lcore (EAL's: the lowest of -l), "
					"which runs the stats and the shell, not a queue; give EAL a "
					"lower lcore for them (e.g. -l 0,%u,...) or pick another with "
					"--main-lcore",
					e->lcore, e->lcore);
			else /* no lcore is lower than 0 */
				snprintf(err, errlen,
					"--map: lcore 0 is the main lcore (EAL's: the lowest of -l), "
					"which runs the stats and the shell, not a queue; map the queue "
					"to another lcore of -l, or make another lcore the main one with "
					"--main-lcore N");
			return -EINVAL;
		}
		if (per_lcore[e->lcore] == 0)
			n_lcores++;
		if (++per_lcore[e->lcore] > FWD_MAX_RX_PER_LCORE) {
			snprintf(err, errlen, "--map: lcore %u polls more than %d queues", e->lcore,
				FWD_MAX_RX_PER_LCORE);
			return -EINVAL;
		}
		queues[e->port] |= UINT64_C(1) << e->queue;
	}
	if (cfg->nb_cores != 0 && n_lcores > cfg->nb_cores) {
		snprintf(err, errlen, "--nb-cores %u: the map names %u lcores", cfg->nb_cores,
			n_lcores);
		return -EINVAL;
	}
	for (port = 0; port < nb_ports; port++) {
		uint64_t q = queues[port];

		if (q == 0 && fwd_port_used(cfg, port))
			FWD_LOG(WARNING,
				"port %u is in no --map entry: it is not polled, only sent to "
				"(leave it out with -p)\n",
				port);

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
