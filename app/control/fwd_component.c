/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The registry of components: a list in order, filled by constructors before
 * main() runs, read-only after. Walks go up the order, and down it for
 * release and free, so a component set up after another (and perhaps using
 * it) is gone before it.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_debug.h>

#include "fwd_component.h"

static STAILQ_HEAD(, fwd_component) components = STAILQ_HEAD_INITIALIZER(components);
static unsigned int n_components;

void
fwd_component_register(struct fwd_component *c)
{
	struct fwd_component *prev = NULL, *it;

	RTE_VERIFY(n_components < FWD_COMPONENTS_MAX);
	c->id = n_components++;

	STAILQ_FOREACH(it, &components, next)
	{
		if (it->order > c->order)
			break;
		prev = it;
	}
	if (prev == NULL)
		STAILQ_INSERT_HEAD(&components, c, next);
	else
		STAILQ_INSERT_AFTER(&components, prev, c, next);
}

const struct fwd_component *
fwd_component_first(void)
{
	return STAILQ_FIRST(&components);
}

const struct fwd_component *
fwd_component_next(const struct fwd_component *c)
{
	return STAILQ_NEXT(c, next);
}

int
fwd_components_init(struct fwd_app *app)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	{
		if (c->ctx_size == 0 || app->ctx[c->id] != NULL)
			continue;
		app->ctx[c->id] = calloc(1, c->ctx_size);
		if (app->ctx[c->id] == NULL)
			return -ENOMEM;
	}
	return 0;
}

void
fwd_components_fini(struct fwd_app *app)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	{
		free(app->ctx[c->id]);
		app->ctx[c->id] = NULL;
	}
}

int
fwd_components_setup(struct fwd_app *app, char *err, size_t errlen)
{
	struct fwd_component *c;
	int ret;

	STAILQ_FOREACH(c, &components, next)
	{
		if (c->setup == NULL)
			continue;
		ret = c->setup(app, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * The list is singly linked and short (a component per feature): down the
 * order by walking up to each position in turn.
 */
#define FOREACH_REVERSE(c, body)                                             \
	do {                                                                 \
		struct fwd_component *end_ = NULL;                           \
		while (end_ != STAILQ_FIRST(&components)) {                  \
			struct fwd_component *c = STAILQ_FIRST(&components); \
			while (STAILQ_NEXT(c, next) != end_)                 \
				c = STAILQ_NEXT(c, next);                    \
			body;                                                \
			end_ = c;                                            \
		}                                                            \
	} while (0)

void
fwd_components_release(struct fwd_app *app, int *missing)
{
	FOREACH_REVERSE(c, if (c->release != NULL) c->release(app, missing));
}

void
fwd_components_free(struct fwd_app *app)
{
	FOREACH_REVERSE(c, if (c->free != NULL) c->free(app));
}

void
fwd_components_clear(struct fwd_app *app)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	if (c->clear != NULL)
		c->clear(app);
}

void
fwd_components_print(struct fwd_app *app, FILE *f, bool final)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	if (c->print != NULL)
		c->print(app, f, final);
}

void
fwd_components_json(const struct fwd_app *app, FILE *f)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	if (c->json != NULL)
		c->json(app, f);
}

int
fwd_components_cmds(struct fwd_app *app, cmdline_parse_ctx_t *out, unsigned int n, unsigned int max)
{
	struct fwd_component *c;
	unsigned int i;

	STAILQ_FOREACH(c, &components, next)
	{
		for (i = 0; c->cmds != NULL && c->cmds[i] != NULL; i++) {
			if (n >= max)
				return -ENOSPC;
			c->cmds[i]->data = app;
			out[n++] = c->cmds[i];
		}
	}
	return (int)n;
}

const struct fwd_tel_endpoint *
fwd_component_tel_find(const char *name)
{
	struct fwd_component *c;
	unsigned int i;

	STAILQ_FOREACH(c, &components, next)
	for (i = 0; i < c->n_tel; i++)
		if (strcmp(c->tel[i].name, name) == 0)
			return &c->tel[i];
	return NULL;
}

void
fwd_components_tick(struct fwd_app *app)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	if (c->tick != NULL)
		c->tick(app);
}

bool
fwd_components_done(const struct fwd_app *app)
{
	struct fwd_component *c;

	STAILQ_FOREACH(c, &components, next)
	if (c->done != NULL && c->done(app))
		return true;
	return false;
}

int
fwd_components_mode_check(const struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen)
{
	struct fwd_component *c;
	int ret;

	STAILQ_FOREACH(c, &components, next)
	{
		if (c->mode_check == NULL)
			continue;
		ret = c->mode_check(app, mode, err, errlen);
		if (ret < 0)
			return ret;
	}
	return 0;
}
