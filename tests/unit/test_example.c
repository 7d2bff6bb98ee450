/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The worked example of docs/architecture.md, examples/uptime/fwd_uptime.c,
 * linked beside the real components: it registers itself, gets its context,
 * and its hooks, command and endpoint do what the page says. What the page
 * shows of it is the file itself (the docs suite checks the copy).
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmdline_parse.h>
#include <rte_common.h>
#include <rte_telemetry.h>

#include "fwd_component.h"
#include "fwd_test.h"

static const struct fwd_component *
find(const char *name)
{
	const struct fwd_component *c;

	for (c = fwd_component_first(); c != NULL; c = fwd_component_next(c))
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void
test_registered(void)
{
	const struct fwd_component *c = find("uptime");

	CHECK(c != NULL);
	if (c == NULL)
		return;
	CHECK(c->order > find("pktgen")->order && c->order < find("trace")->order);
	CHECK(c->ctx_size > 0 && c->setup != NULL && c->clear != NULL && c->print != NULL);
	CHECK(fwd_component_tel_find("/forwarder/uptime") != NULL);
}

static void
test_hooks(void)
{
	struct fwd_app *app = calloc(1, sizeof(*app));
	const struct fwd_component *c = find("uptime");
	const struct fwd_tel_endpoint *ep = fwd_component_tel_find("/forwarder/uptime");
	struct rte_tel_data *d = rte_tel_data_alloc();
	char buf[256] = "", err[64];
	cmdline_parse_ctx_t cmds[64];
	FILE *f;
	unsigned int secs;
	int n, i, found = 0;

	CHECK_EQ(fwd_components_init(app), 0);
	CHECK(fwd_component_ctx(app, c) != NULL);
	CHECK_EQ(c->setup(app, err, sizeof(err)), 0);
	f = fmemopen(buf, sizeof(buf), "w");
	c->print(app, f, false); /* nothing but at the end */
	c->print(app, f, true);
	fclose(f);
	/* one line, the final one; seconds as they went by (a busy machine may take one) */
	CHECK(sscanf(buf, "uptime: %u s\n", &secs) == 1 && secs < 60);
	CHECK(strchr(buf, '\n') == buf + strlen(buf) - 1);
	c->clear(app);
	CHECK(d != NULL && ep->fn(app, "/forwarder/uptime", "", d) == 0);
	CHECK_EQ(ep->fn(app, "/forwarder/uptime", "x", d), -EINVAL);
	n = fwd_components_cmds(app, cmds, 0, RTE_DIM(cmds));
	for (i = 0; i < n; i++)
		if (strncmp(cmds[i]->help_str, "show uptime:", 12) == 0 && cmds[i]->data == app)
			found++;
	CHECK_EQ(found, 1);
	rte_tel_data_free(d);
	fwd_components_fini(app);
	free(app);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_registered),
	FWD_TEST(test_hooks),
};

int
main(void)
{
	return fwd_test_run(cases, RTE_DIM(cases));
}
