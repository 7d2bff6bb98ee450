/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */
#ifndef FEC_CASES_H
#define FEC_CASES_H

#include <stdio.h>
#include <string.h>

#include "fec_check.h"

/*
 * The net_fec test binaries' one main: a table of cases, one EAL process per
 * case, the case named by the first argument (meson registers each as
 * fec_pmd_<binary>_<name>, tests/fec_pmd/meson.build).
 */

/*
 * One case: its name, the devargs after "net_fec0,backend=model", and what it
 * runs: @p fn, or @p fn_case given its own row (for cases that share a
 * function and differ by @p arg or @p devargs). @p lcores, when set, is EAL's
 * --lcores for the case (the default is fec_test_lcores, one lcore).
 */
struct fec_case {
	const char *name;
	const char *devargs;
	void (*fn)(void);
	void (*fn_case)(const struct fec_case *c);
	const void *arg;
	const char *lcores;
};

/*
 * A binary's cases and what is done around every one of them. @p tag names
 * the pool and the EAL file prefix, @p nb_mbuf and @p log_level go to
 * fec_test_init(). The hooks, each optional:
 * @p prepare before EAL starts, with the command line and the case's devargs
 * in @p devargs (@p size bytes) to rewrite: 0, or -1 with a "Bail out!" line
 * printed; @p setup once the port's model and the pool exist, before the case:
 * 0, or -1 likewise; @p teardown after the case, before the port is closed
 * (checks there count as the case's).
 */
struct fec_suite {
	const char *tag;
	const char *log_level;
	unsigned int nb_mbuf;
	const struct fec_case *cases;
	unsigned int nb_cases;
	int (*prepare)(const struct fec_case *c, int argc, char **argv, char *devargs, size_t size);
	int (*setup)(const struct fec_case *c);
	void (*teardown)(const struct fec_case *c);
};

/* The case of @p s named @p name, NULL if it has none. */
static inline const struct fec_case *
fec_case_find(const struct fec_suite *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nb_cases; i++)
		if (strcmp(s->cases[i].name, name) == 0)
			return &s->cases[i];
	return NULL;
}

/*
 * Run the case of @p s that argv[1] names (argv[2] and on are the prepare
 * hook's): EAL and the port as fec_test_init() makes them, the case, the TAP
 * plan and summary. The exit status: 0 when every check held, 1 when one
 * failed or the set-up did, 2 (with a "Bail out!" line listing the cases)
 * when no case or an unknown one is named.
 */
static inline int
fec_run_cases(int argc, char **argv, const struct fec_suite *s)
{
	const struct fec_case *c = argc >= 2 ? fec_case_find(s, argv[1]) : NULL;
	char devargs[320]; /* fits fec_test_init()'s vdev string */
	unsigned int i;

	if (c == NULL) {
		if (argc >= 2)
			printf("Bail out! %s: unknown case %s; the cases:", argv[0], argv[1]);
		else
			printf("Bail out! usage: %s CASE; the cases:", argv[0]);
		for (i = 0; i < s->nb_cases; i++)
			printf(" %s", s->cases[i].name);
		printf("\n");
		return 2;
	}
	snprintf(devargs, sizeof(devargs), "%s", c->devargs);
	if (c->lcores != NULL)
		fec_test_lcores = c->lcores;
	if (s->prepare != NULL && s->prepare(c, argc, argv, devargs, sizeof(devargs)) < 0)
		return 1;
	if (fec_test_init(argv[0], s->tag, c->name, devargs, s->nb_mbuf, s->log_level) < 0)
		return 1;
	if (s->setup != NULL && s->setup(c) < 0)
		return 1;
	if (c->fn_case != NULL)
		c->fn_case(c);
	else
		c->fn();
	if (s->teardown != NULL)
		s->teardown(c);
	return fec_test_finish(c->name);
}

/*
 * The binary's main(): fec_run_cases() over the table @p cases (an array)
 * and the struct fec_suite fields given after it (designated: .tag,
 * .log_level, .nb_mbuf and the hooks).
 */
#define FEC_CASES_MAIN(cases, ...)                                                  \
	int main(int argc, char **argv)                                             \
	{                                                                           \
		static const struct fec_suite fec_suite = {                         \
			__VA_ARGS__, .cases = (cases), .nb_cases = RTE_DIM(cases)}; \
                                                                                    \
		return fec_run_cases(argc, argv, &fec_suite);                       \
	}

#endif /* FEC_CASES_H */
