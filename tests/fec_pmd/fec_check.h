/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */
#ifndef FEC_CHECK_H
#define FEC_CHECK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_model.h"

/*
 * The net_fec tests' assertion and frame helpers. The assertion: counts into the including file's `checks` and `failures`
 * (each test binary keeps its own) and prints a TAP "not ok" line with the reason.
 */
#define CHECK(cond, ...)                                                           \
	do {                                                                       \
		checks++;                                                          \
		if (!(cond)) {                                                     \
			failures++;                                                \
			printf("not ok - %s:%d: %s: ", __func__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                       \
			printf("\n");                                              \
		}                                                                  \
	} while (0)

/*
 * Every test binary's state (one per translation unit): the TAP counts, and
 * the one port it tests (net_fec0 on the model), its model and the pool.
 */
static int failures, checks;
static struct rte_mempool *pool;
static struct fec_model *model;
static uint16_t port;
static unsigned int fec_test_nb_mbuf;
/* EAL's --lcores for fec_test_init(): one lcore unless a case needs workers. */
static const char *fec_test_lcores = "0";

/* EAL's runtime dir of this process, removed at exit (EAL leaves it behind). */
static char fec_test_rundir[256];

static void
fec_test_remove_rundir(void)
{
	struct dirent *e;
	DIR *d = opendir(fec_test_rundir);
	char path[512];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", fec_test_rundir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(fec_test_rundir);
}

/*
 * The set-up every case shares: EAL on the lcores fec_test_lcores names (one
 * unless the binary set it before), without hugepages or PCI,
 * file prefix "@p tag_@p name_PID", one vdev "net_fec0,backend=model@p devargs",
 * log level @p log_level, then a pool of @p nb_mbuf mbufs named @p tag and the
 * port's model. 0, or -1 with a TAP "Bail out!" line printed.
 */
static inline int
fec_test_init(char *argv0, const char *tag, const char *name, const char *devargs,
	unsigned int nb_mbuf, const char *log_level)
{
	char prefix[64], vdev[352], level[32], lcores[32];
	char *eal[] = {argv0, "--lcores", lcores, "--no-huge", "-m", "128", "--no-pci",
		"--file-prefix", prefix, "--vdev", vdev, "--log-level", level};

	snprintf(prefix, sizeof(prefix), "%s_%s_%d", tag, name, (int)getpid());
	snprintf(vdev, sizeof(vdev), "net_fec0,backend=model%s", devargs);
	snprintf(level, sizeof(level), "%s", log_level);
	snprintf(lcores, sizeof(lcores), "%s", fec_test_lcores);
	if (rte_eal_init((int)RTE_DIM(eal), eal) < 0) {
		printf("Bail out! EAL init failed\n");
		return -1;
	}
	snprintf(fec_test_rundir, sizeof(fec_test_rundir), "%s", rte_eal_get_runtime_dir());
	atexit(fec_test_remove_rundir);
	fec_test_nb_mbuf = nb_mbuf;
	pool = rte_pktmbuf_pool_create(tag, nb_mbuf, 0, 0, RTE_MBUF_DEFAULT_BUF_SIZE, 0);
	model = fec_model_lookup("net_fec0");
	if (pool == NULL || model == NULL || rte_eth_dev_get_port_by_name("net_fec0", &port) != 0) {
		printf("Bail out! set-up failed\n");
		return -1;
	}
	return 0;
}

/*
 * The end every case shares: close the port (which frees the model), clean
 * up EAL, print the TAP plan and summary for case @p name. The exit status.
 */
static inline int
fec_test_finish(const char *name)
{
	rte_eth_dev_close(port);
	rte_eal_cleanup();
	printf("1..%d\n", checks);
	printf("# %s: %d checks, %d failed\n", name, checks, failures);
	return failures != 0;
}

/* Step a step-mode model until it has nothing left to do. */
static inline void
step_all(void)
{
	while (fec_model_step(model, 1024) > 0)
		;
}

/* The model saw no contract violation. */
static inline void
check_clean(void)
{
	CHECK(fec_model_violations(model) == 0, "model: %u violations, last: %s",
		fec_model_violations(model), fec_model_last_violation(model));
}

/* Every mbuf of the pool is back (@p when names the moment). */
static inline void
check_no_leak(const char *when)
{
	CHECK(rte_mempool_avail_count(pool) == fec_test_nb_mbuf, "%s: %u of %u mbufs back", when,
		rte_mempool_avail_count(pool), fec_test_nb_mbuf);
}

/* A model register. */
static inline uint32_t
reg(uint32_t off)
{
	return fec_model_read32(model, off);
}

/* An xstat of the port by name, UINT64_MAX if it has none of that name. */
static inline uint64_t
xstat(const char *name)
{
	uint64_t id, v = UINT64_MAX;

	if (rte_eth_xstats_get_id_by_name(port, name, &id) == 0)
		rte_eth_xstats_get_by_id(port, &id, &v, 1);
	return v;
}

/*
 * Send @p n (at most 64) 60-byte frames to @p dst from the pool on queue 0 of
 * the port: how many the PMD took (the rest are freed, as are all of them
 * when the pool runs dry).
 */
static inline unsigned int
fec_test_tx(const uint8_t *dst, unsigned int n)
{
	struct rte_mbuf *m[64];
	unsigned int i, sent;

	n = RTE_MIN(n, (unsigned int)RTE_DIM(m));
	if (rte_pktmbuf_alloc_bulk(pool, m, n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		memset(rte_pktmbuf_mtod(m[i], uint8_t *), 0, 60);
		memcpy(rte_pktmbuf_mtod(m[i], uint8_t *), dst, 6);
		m[i]->data_len = m[i]->pkt_len = 60;
	}
	sent = rte_eth_tx_burst(port, 0, m, (uint16_t)n);
	for (i = sent; i < n; i++)
		rte_pktmbuf_free(m[i]);
	return sent;
}

/*
 * Receive up to @p n frames on queue 0, in bursts of at most 64, stepping
 * the model whenever a burst comes back empty, until three in a row do: how
 * many.
 */
static inline unsigned int
fec_test_rx_all(struct rte_mbuf **out, unsigned int n)
{
	unsigned int got = 0, idle = 0;

	while (got < n && idle < 3) {
		uint16_t k = rte_eth_rx_burst(port, 0, out + got, (uint16_t)RTE_MIN(n - got, 64u));

		got += k;
		if (k == 0) {
			idle++;
			step_all();
		} else {
			idle = 0;
		}
	}
	return got;
}

/* Free @p n frames. */
static inline void
fec_test_free_all(struct rte_mbuf **m, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		rte_pktmbuf_free(m[i]);
}

/* Take every frame the model's MAC has put on its wire: how many. */
static inline unsigned int
fec_test_drain_wire(void)
{
	uint8_t buf[2048];
	unsigned int n = 0;

	while (fec_model_tx_frame(model, buf, sizeof(buf)) >= 0)
		n++;
	return n;
}

#endif /* FEC_CHECK_H */
