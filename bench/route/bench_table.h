/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef BENCH_TABLE_H
#define BENCH_TABLE_H

/**
 * @file
 * The route benchmarks' table: the one bench/route/mkfulltable.py's full.ini
 * describes (port 0 10.0.0.1/24, port 1 100.64.0.1/10, the gateways' network),
 * loaded from a route file and a neighbour file as the config's routes-file
 * and neigh-file do, with a default route via mkfulltable's gateway 0.
 */

#include <stddef.h>
#include <stdint.h>

#include "rt_table.h"

/** mkfulltable.py's gateway 0 (100.64.0.2): the default route's. */
#define BENCH_TABLE_GW0 0x64400002u

/** Port 0's MAC: the frames a benchmark routes arrive there. */
#define BENCH_TABLE_MAC0                    \
	{                                   \
		{                           \
			0x02, 0, 0, 0, 0, 1 \
		}                           \
	}

/**
 * Create a table named @p name, enable and address ports 0 and 1, load the
 * neighbours of @p neigh_file then the routes of @p routes_file, and add
 * 0.0.0.0/0 via BENCH_TABLE_GW0 unless the file has a default route.
 *
 * @return the table, or NULL with @p err set to one line.
 */
struct rt_table *bench_table_load(const char *name, const char *routes_file, const char *neigh_file,
	char *err, size_t errlen);

#endif /* BENCH_TABLE_H */
