/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The components' registry (app/control/fwd_component.h): constructors
 * register in any order and the walks go by order, up for set-up, help,
 * statistics and clear, down for release and free; a failed set-up stops
 * the walk and says why; commands are bound to the app; endpoints are found
 * by name. Three test components beside the real ones (the trace).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline_parse.h>
#include <rte_common.h>

#include "fwd_component.h"
#include "fwd_test.h"

static char calls[256];   /* "s10 s500 ...": each hook's letter and its component's order */
static int fail_setup_of; /* the order whose set-up fails, 0: none */

static void
note(char what, unsigned int order)
{
	size_t n = strlen(calls);

	snprintf(calls + n, sizeof(calls) - n, "%s%c%u", n ? " " : "", what, order);
}

#define HOOKS(ORDER)                                                            \
	static int setup_##ORDER(struct fwd_app *app, char *err, size_t errlen) \
	{                                                                       \
		note('s', ORDER);                                               \
		if (fail_setup_of == ORDER) {                                   \
			snprintf(err, errlen, "component %u refused", ORDER);   \
			return -EIO;                                            \
		}                                                               \
		return 0;                                                       \
	}                                                                       \
	static void release_##ORDER(struct fwd_app *app, int *missing)          \
	{                                                                       \
		note('r', ORDER);                                               \
		*missing += ORDER;                                              \
	}                                                                       \
	static void free_##ORDER(struct fwd_app *app)                           \
	{                                                                       \
		note('f', ORDER);                                               \
	}                                                                       \
	static void clear_##ORDER(struct fwd_app *app)                          \
	{                                                                       \
		note('c', ORDER);                                               \
	}                                                                       \
	static void print_##ORDER(struct fwd_app *app, FILE *f, bool final)     \
	{                                                                       \
		fprintf(f, "[%u%s]", ORDER, final ? " final" : "");             \
	}                                                                       \
	static void json_##ORDER(const struct fwd_app *app, FILE *f)            \
	{                                                                       \
		fprintf(f, ",\"c%u\":1", ORDER);                                \
	}

HOOKS(10)
HOOKS(500)
HOOKS(2000)

static void
cmd_cb(void *res, struct cmdline *cl, void *data)
{
}

static cmdline_parse_inst_t cmd_a = {.f = cmd_cb, .help_str = "a", .tokens = {NULL}};
static cmdline_parse_inst_t cmd_b = {.f = cmd_cb, .help_str = "b", .tokens = {NULL}};
static cmdline_parse_ctx_t cmds_500[] = {&cmd_a, &cmd_b, NULL};

static int
tel_fn(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	return 0;
}

static const struct fwd_tel_endpoint tel_500[] = {{"/test/one", tel_fn, "one"}};

static bool done_500_says; /* what component 500's done hook answers */

static void
tick_500(struct fwd_app *app)
{
	note('t', 500);
}

static bool
done_500(const struct fwd_app *app)
{
	return done_500_says;
}

/* Component 500 has state that only a start in macswap sets up (as if). */
static int
mode_check_500(const struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen)
{
	if (mode != FWD_MODE_MACSWAP)
		return 0;
	snprintf(err, errlen, "macswap needs component 500 from the start");
	return -ENOTSUP;
}

#define COMPONENT(ORDER, ...)                                              \
	static struct fwd_component comp_##ORDER = {.name = "test" #ORDER, \
		.order = ORDER,                                            \
		.setup = setup_##ORDER,                                    \
		.release = release_##ORDER,                                \
		.free = free_##ORDER,                                      \
		.clear = clear_##ORDER,                                    \
		.print = print_##ORDER,                                    \
		.json = json_##ORDER,                                      \
		__VA_ARGS__};                                              \
	FWD_COMPONENT_REGISTER(comp_##ORDER)

/* Component 10's state, kept in the app (fwd_app names no feature's state). */
struct ctx_10 {
	unsigned int setups;
	char big[4000];
};

/* registered out of order: the registry sorts */
COMPONENT(2000)
COMPONENT(10, .ctx_size = sizeof(struct ctx_10))
COMPONENT(500, .cmds = cmds_500, .tel = tel_500, .n_tel = RTE_DIM(tel_500), .tick = tick_500,
	.done = done_500, .mode_check = mode_check_500)

/* An app as fwd_app_setup() starts it: every component's context given (their hooks use it). */
static struct fwd_app *
new_app(void)
{
	struct fwd_app *app = calloc(1, sizeof(*app));

	if (app == NULL || fwd_components_init(app) < 0)
		abort();
	return app;
}

/* ...and as free_all() ends it. */
static void
del_app(struct fwd_app *app)
{
	fwd_components_fini(app);
	free(app);
}

static void
test_order(void)
{
	/* the features that register themselves from their own files (linked whole) */
	static const char *const real[] = {
		"twin", "route", "flow", "netlink", "fpm", "pktgen", "trace"};
	bool found[RTE_DIM(real)] = {false};
	const struct fwd_component *c;
	unsigned int last = 0, mine = 0, i;

	for (c = fwd_component_first(); c != NULL; c = fwd_component_next(c)) {
		CHECK(c->order >= last);
		last = c->order;
		if (strncmp(c->name, "test", 4) == 0)
			mine++;
		for (i = 0; i < RTE_DIM(real); i++)
			found[i] |= strcmp(c->name, real[i]) == 0;
	}
	CHECK_EQ(mine, 3);
	for (i = 0; i < RTE_DIM(real); i++) {
		if (!found[i])
			printf("#   %s did not register itself\n", real[i]);
		CHECK(found[i]);
	}
}

static void
test_setup_up_release_down(void)
{
	struct fwd_app *app = new_app();
	char err[128] = "";
	int missing = 0;

	calls[0] = '\0';
	fail_setup_of = 0;
	CHECK_EQ(fwd_components_setup(app, err, sizeof(err)), 0);
	CHECK(strcmp(calls, "s10 s500 s2000") == 0);
	calls[0] = '\0';
	fwd_components_release(app, &missing);
	CHECK(strcmp(calls, "r2000 r500 r10") == 0);
	CHECK_EQ(missing, 2510);
	calls[0] = '\0';
	fwd_components_clear(app);
	CHECK(strcmp(calls, "c10 c500 c2000") == 0);
	printf("# %s\n", calls);
	del_app(app);
}

static void
test_setup_failure_stops(void)
{
	struct fwd_app *app = new_app();
	char err[128] = "";

	calls[0] = '\0';
	fail_setup_of = 500;
	CHECK_EQ(fwd_components_setup(app, err, sizeof(err)), -EIO);
	CHECK(strcmp(calls, "s10 s500") == 0);
	CHECK_CONTAINS(err, "component 500 refused");
	calls[0] = '\0';
	fwd_components_free(app); /* as fwd_app_abort() does: every one, set up or not */
	CHECK(strcmp(calls, "f2000 f500 f10") == 0);
	fail_setup_of = 0;
	del_app(app);
}

static void
test_print_json(void)
{
	struct fwd_app *app = new_app();
	char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fwd_components_print(app, f, true);
	fwd_components_json(app, f);
	fclose(f);
	CHECK_CONTAINS(buf, "[10 final][500 final][2000 final]");
	CHECK_CONTAINS(buf, ",\"c10\":1,\"c500\":1,\"c2000\":1");
	del_app(app);
}

static void
test_cmds_bound(void)
{
	struct fwd_app *app = new_app();
	cmdline_parse_ctx_t out[64];
	int n, i, a = -1, b = -1;

	n = fwd_components_cmds(app, out, 1, 64);
	CHECK(n >= 3); /* the one there, a and b, and the trace's */
	for (i = 1; i < n; i++) {
		if (out[i] == &cmd_a)
			a = i;
		if (out[i] == &cmd_b)
			b = i;
	}
	CHECK(a > 0 && b == a + 1);
	CHECK(cmd_a.data == app && cmd_b.data == app);
	CHECK_EQ(fwd_components_cmds(app, out, 0, 1), -ENOSPC);
	del_app(app);
}

static void
test_tel_find(void)
{
	const struct fwd_tel_endpoint *ep = fwd_component_tel_find("/test/one");

	CHECK(ep != NULL && ep->fn == tel_fn);
	CHECK(fwd_component_tel_find("/forwarder/trace") != NULL);
	CHECK(fwd_component_tel_find("/test/none") == NULL);
}

/*
 * The run loop's tick reaches the components that have one; the run ends
 * when any component says it is done (a counted generator), not before:
 * the real ones (the generator's, in another mode) say no.
 */
static void
test_tick_done(void)
{
	struct fwd_app *app = new_app();

	calls[0] = '\0';
	fwd_components_tick(app);
	CHECK_EQ(strcmp(calls, "t500"), 0);
	done_500_says = false;
	CHECK(!fwd_components_done(app));
	done_500_says = true;
	CHECK(fwd_components_done(app));
	done_500_says = false;
	del_app(app);
}

/*
 * "set fwd" asks every component whether the mode may start now: the router
 * and the generator refuse theirs when they were not set up at start
 * (fwd_ctl.c names neither), a test component refuses its own, and any other
 * mode passes.
 */
static void
test_mode_check(void)
{
	struct fwd_app *app = new_app();
	char err[256] = "";

	CHECK_EQ(fwd_components_mode_check(app, FWD_MODE_IO, err, sizeof(err)), 0);
	CHECK_EQ(fwd_components_mode_check(app, FWD_MODE_MACSWAP, err, sizeof(err)), -ENOTSUP);
	CHECK_CONTAINS(err, "macswap needs component 500");
	CHECK_EQ(fwd_components_mode_check(app, FWD_MODE_ROUTE, err, sizeof(err)), -ENOTSUP);
	CHECK_CONTAINS(err, "route mode must be chosen at start (--fwd route)");
	CHECK_EQ(fwd_components_mode_check(app, FWD_MODE_PKTGEN, err, sizeof(err)), -ENOTSUP);
	CHECK_CONTAINS(err, "pktgen mode must be chosen at start (--fwd pktgen)");
	del_app(app);
}

/*
 * Each component's context: zeroed by fwd_components_init(), its own (the
 * router's, the twins' are not the test's), reached through the component,
 * gone after fwd_components_fini(); none for a component without ctx_size.
 */
static void
test_contexts(void)
{
	struct fwd_app *app = calloc(1, sizeof(*app));
	struct ctx_10 *c10;
	unsigned int i;

	CHECK(fwd_component_ctx(app, &comp_10) == NULL);
	CHECK_EQ(fwd_components_init(app), 0);
	c10 = fwd_component_ctx(app, &comp_10);
	CHECK(c10 != NULL);
	CHECK(fwd_component_ctx(app, &comp_500) == NULL);
	CHECK(comp_10.id != comp_500.id && comp_10.id < FWD_COMPONENTS_MAX);
	for (i = 0; i < sizeof(c10->big); i++)
		if (c10->big[i] != 0)
			break;
	CHECK_EQ(i, sizeof(c10->big));
	c10->setups = 7;
	CHECK_EQ(fwd_components_init(app), 0); /* again: kept, not replaced */
	CHECK(fwd_component_ctx(app, &comp_10) == c10 && c10->setups == 7);
	fwd_components_fini(app);
	CHECK(fwd_component_ctx(app, &comp_10) == NULL);
	for (i = 0; i < FWD_COMPONENTS_MAX; i++)
		CHECK(app->ctx[i] == NULL);
	free(app);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_contexts),
	FWD_TEST(test_mode_check),
	FWD_TEST(test_tick_done),
	FWD_TEST(test_order),
	FWD_TEST(test_setup_up_release_down),
	FWD_TEST(test_setup_failure_stops),
	FWD_TEST(test_print_json),
	FWD_TEST(test_cmds_bound),
	FWD_TEST(test_tel_find),
};

int
main(void)
{
	return fwd_test_run(cases, RTE_DIM(cases));
}
