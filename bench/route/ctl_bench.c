/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The router's control path against the table's size (issue 17): the cost of a route add, a
 * route delete, `show route PREFIX` (rt_route_get, exact and covering), a static neighbour
 * add and delete, with the table loaded from a small and from a full route file
 * (bench/route/mkfulltable.py). Each operation is timed one call at a time with the TSC over
 * 2 000 distinct keys, in 20 chunks of 100, and the median chunk is reported, so a chunk that
 * lost the CPU on the shared machine does not count. Never run by the tests:
 * bench/route/ctl_bench.sh runs it, docs/benchmarks-route.md holds a run.
 *
 *   ctl_bench EAL... -- ROUTES_FILE NEIGH_FILE
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ether.h>

#include "bench_table.h"

#define KEYS  2000
#define CHUNK 100

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median over the chunks of the cycles per call of op(i) for i in 0..KEYS-1. */
static double
median_cycles(struct rt_table *t, int (*op)(struct rt_table *t, unsigned int i))
{
	uint64_t per[KEYS / CHUNK];
	unsigned int c, i;

	for (c = 0; c < KEYS / CHUNK; c++) {
		uint64_t t0 = rte_rdtsc_precise();

		for (i = 0; i < CHUNK; i++)
			if (op(t, c * CHUNK + i) != 0) {
				fprintf(stderr, "ctl_bench: operation %u failed\n", c * CHUNK + i);
				exit(1);
			}
		per[c] = (rte_rdtsc_precise() - t0) / CHUNK;
	}
	qsort(per, KEYS / CHUNK, sizeof(per[0]), cmp_u64);
	return (double)per[KEYS / CHUNK / 2];
}

/* New /24s inside 100.0.0.0/8 - 100.63.x: outside mkfulltable's space (it skips 100.64/10 only,
 * so these may cover or be covered by its routes, as a real update would). */
static uint32_t
key_prefix(unsigned int i)
{
	return 0x64000000u | (uint32_t)(i * 7919u % 16384u) << 8;
}

static uint32_t gw0; /* a gateway with a neighbour */

static int
op_add(struct rt_table *t, unsigned int i)
{
	char err[RT_ERR_LEN];
	struct rt_route r;

	if (rt_route_get(t, key_prefix(i), 24, true, &r) == 0)
		return 0; /* the full table has it already: a replace is not this figure */
	return rt4_route_set(t,
		&(const struct rt4_route_req){.src = RT_SRC_CONFIG,
			.prefix = key_prefix(i),
			.plen = 24,
			.kind = RT_ROUTE_VIA,
			.n_hops = 1,
			.hop[0] = {gw0, -1}},
		err, sizeof(err));
}

static int
op_del(struct rt_table *t, unsigned int i)
{
	char err[RT_ERR_LEN];
	int ret = rt4_route_del(t,
		&(const struct rt4_route_req){
			.src = RT_SRC_CONFIG, .prefix = key_prefix(i), .plen = 24},
		err, sizeof(err));

	return ret == -ENOENT ? 0 : ret;
}

static int
op_get_exact(struct rt_table *t, unsigned int i)
{
	struct rt_route r;

	return rt_route_get(t, key_prefix(i), 24, true, &r) == 0 ? 0 : -1;
}

static int
op_get_cover(struct rt_table *t, unsigned int i)
{
	struct rt_route r;

	/* any address: the default route covers it */
	(void)rt_route_get(t, (uint32_t)i * 2654435761u, 0, false, &r);
	return 0;
}

/* Static neighbours on port 1's 100.64.0.0/10, above mkfulltable's 65 536 gateways. */
static int
op_neigh_add(struct rt_table *t, unsigned int i)
{
	struct rte_ether_addr mac = {{0x02, 0x01, 0, 0, (uint8_t)(i >> 8), (uint8_t)i}};
	char err[RT_ERR_LEN];

	return rt_neigh_static_add(t, 0x64500000u + i, &mac, err, sizeof(err));
}

static int
op_neigh_del(struct rt_table *t, unsigned int i)
{
	char err[RT_ERR_LEN];

	return rt_neigh_static_del(t, 0x64500000u + i, err, sizeof(err));
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*op)(struct rt_table *t, unsigned int i);
	} ops[] = {
		{"route add /24", op_add},
		{"show route P (exact)", op_get_exact},
		{"route del /24", op_del},
		{"show route A (covering)", op_get_cover},
		{"neigh add", op_neigh_add},
		{"neigh del", op_neigh_del},
	};
	struct rt_route_summary s;
	struct rt_table *t;
	char err[256];
	unsigned int i;
	int n;

	n = rte_eal_init(argc, argv);
	if (n < 0)
		return 1;
	argc -= n;
	argv += n;
	if (argc != 3) {
		fprintf(stderr, "usage: ctl_bench EAL... -- ROUTES_FILE NEIGH_FILE\n");
		return 2;
	}
	t = bench_table_load("ctl_bench", argv[1], argv[2], err, sizeof(err));
	if (t == NULL) {
		fprintf(stderr, "ctl_bench: %s\n", err);
		return 1;
	}
	gw0 = BENCH_TABLE_GW0;
	rt_route_summary_get(t, &s);
	printf("# table: %u routes, %u neighbours\n", s.routes, s.neighbours);
	for (i = 0; i < RTE_DIM(ops); i++)
		printf("%-24s %8.0f cycles\n", ops[i].name, median_cycles(t, ops[i].op));
	printf("# TSC %.2f GHz\n", (double)rte_get_tsc_hz() / 1e9);
	rt_table_free(t);
	rte_eal_cleanup();
	return 0;
}
