/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_MAP_H
#define FWD_MAP_H

/**
 * @file
 * The (port, queue, lcore) map: the default one, and the check of a given one.
 */

#include <stdbool.h>
#include <stddef.h>

#include "fwd_app.h"

/** Build the default map: every port's queues 0..rxq-1 spread over the workers. */
int fwd_map_default(struct fwd_config *cfg, uint16_t nb_ports, char *err, size_t errlen);

/**
 * Check a map against @p nb_ports ports and the enabled lcores: ports exist,
 * lcores are enabled workers (not the main lcore), each port's queues are
 * 0..N-1 with none missing.
 */
int fwd_map_validate(const struct fwd_config *cfg, uint16_t nb_ports, char *err, size_t errlen);

#endif /* FWD_MAP_H */
