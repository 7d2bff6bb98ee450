/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_COMPONENT_H
#define FWD_COMPONENT_H

/**
 * @file
 * Components: a feature of the forwarder (the packet trace, the generator,
 * the router's syncs, ...) described once, in its own files, and registered
 * by a constructor, as grout's modules and VPP's nodes are. The lifecycle,
 * the shell, telemetry and the stats output walk the registered components;
 * none of them names a feature, so adding one adds files and edits no
 * central table (docs/architecture.md, "Components").
 *
 * Every hook is optional (NULL: nothing to do). Hooks run on the main lcore,
 * in @ref fwd_component.order (release and free in reverse), except the
 * telemetry endpoints, which run on telemetry's thread while the app is
 * live (fwd_telemetry.c keeps them out during teardown and quiescence).
 * Shell commands find the app in their @c data argument.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/queue.h>

#include <cmdline_parse.h>
#include <rte_common.h>
#include <rte_telemetry.h>

#include "fwd_app.h"

/**
 * A telemetry endpoint of a component. @p fn runs on telemetry's thread with
 * @p app live (readers are kept out while it is torn down or quiesced); it
 * answers -EINVAL on a bad parameter, as DPDK's own endpoints do.
 */
struct fwd_tel_endpoint {
	const char *name; /**< "/forwarder/...", as rte_telemetry_register_cmd() takes */
	int (*fn)(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d);
	const char *help; /**< under 128 characters, or telemetry refuses the command */
};

/** A feature's descriptor: what the rest of the forwarder calls it for. */
struct fwd_component {
	const char *name; /**< for logs: "trace", "pktgen", ... */
	/**
	 * Order among components: set-up, the shell's help and the stats output
	 * go up it, release and free down it. Gaps leave room between features.
	 */
	unsigned int order;
	/** Set-up after the ports started and the workers exist; -errno and @p err on failure. */
	int (*setup)(struct fwd_app *app, char *err, size_t errlen);
	/**
	 * The workers stopped and the ports closed: give back every mbuf held,
	 * and add to @p missing what did not come back (mbufs of its own pools).
	 */
	void (*release)(struct fwd_app *app, int *missing);
	/**
	 * Free what set-up (or the run) allocated. Runs at teardown and after a
	 * failed start-up too: it must hold for a component never set up.
	 */
	void (*free)(struct fwd_app *app);
	/** Zero the component's counters (clear fwd stats). */
	void (*clear)(struct fwd_app *app);
	/** Its lines of the periodic and final statistics. */
	void (*print)(struct fwd_app *app, FILE *f, bool final);
	/** Its members of the stats file's object: each `,"key": value`. */
	void (*json)(const struct fwd_app *app, FILE *f);
	/**
	 * A look every few ms from the run loop and the shell's sleep, on the
	 * main lcore (a generator says, once a second, a rate it cannot reach).
	 */
	void (*tick)(struct fwd_app *app);
	/** True when its work is over and the run is to end (a counted generator's). */
	bool (*done)(const struct fwd_app *app);
	/**
	 * May the run switch to @p mode ("set fwd")? 0, or -ENOTSUP with @p err
	 * saying why when @p mode needs what this component sets up only at
	 * start and it was not (the router's table, the generators).
	 */
	int (*mode_check)(const struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen);
	/**
	 * Its shell commands: a NULL-terminated list. Each instruction's @c data
	 * is set to the app when the shell is built: its callback's third argument.
	 */
	cmdline_parse_ctx_t *cmds;
	const struct fwd_tel_endpoint *tel; /**< its telemetry endpoints */
	unsigned int n_tel;                 /**< how many */
	/**
	 * Bytes of its context, the state it keeps in the app (0: none): zeroed
	 * before any hook runs and freed after its free, reached with
	 * fwd_component_ctx(), so that struct fwd_app names no feature's state.
	 */
	size_t ctx_size;
	unsigned int id;                  /**< set by the registry: its slot in fwd_app::ctx */
	STAILQ_ENTRY(fwd_component) next; /**< the registry's (fwd_component.c) */
};

/**
 * The context of component @p c in @p app (fwd_component::ctx_size bytes),
 * from fwd_components_init() to fwd_components_fini(); NULL outside.
 */
static inline void *
fwd_component_ctx(const struct fwd_app *app, const struct fwd_component *c)
{
	return app->ctx[c->id];
}

/**
 * Add @p c to the registry, in order, and give it its id. Called from
 * constructors (before main): use FWD_COMPONENT_REGISTER(). More than
 * FWD_COMPONENTS_MAX stops the program (a build's mistake).
 */
void fwd_component_register(struct fwd_component *c);

/** Register @p comp (a struct fwd_component) when the program loads. */
#define FWD_COMPONENT_REGISTER(comp)             \
	RTE_INIT(fwd_component_register_##comp)  \
	{                                        \
		fwd_component_register(&(comp)); \
	}

/** The first registered component, in order; NULL when none. */
const struct fwd_component *fwd_component_first(void);

/** The component after @p c, in order; NULL after the last. */
const struct fwd_component *fwd_component_next(const struct fwd_component *c);

/**
 * Give every component its zeroed context in @p app (before anything else of
 * the set-up: every hook may use it).
 *
 * @return 0, or -ENOMEM (what was given is freed by fwd_components_fini()).
 */
int fwd_components_init(struct fwd_app *app);

/** Free every component's context (after fwd_components_free()); again is harmless. */
void fwd_components_fini(struct fwd_app *app);

/**
 * Set up every component, in order; at the first failure, its -errno with
 * @p err saying why (the start-up then ends: fwd_app_abort() releases and
 * frees every component).
 */
int fwd_components_setup(struct fwd_app *app, char *err, size_t errlen);

/** Release every component, in reverse order; adds what is missing to @p missing. */
void fwd_components_release(struct fwd_app *app, int *missing);

/** Free every component, in reverse order. */
void fwd_components_free(struct fwd_app *app);

/** Clear every component's counters. */
void fwd_components_clear(struct fwd_app *app);

/** Every component's statistics lines, in order. */
void fwd_components_print(struct fwd_app *app, FILE *f, bool final);

/** Every component's stats-file members, in order. */
void fwd_components_json(const struct fwd_app *app, FILE *f);

/** Every component's tick, in order. */
void fwd_components_tick(struct fwd_app *app);

/** True when a component says the run is over. */
bool fwd_components_done(const struct fwd_app *app);

/**
 * Whether the run may switch to @p mode: 0, or the first component's refusal
 * (-ENOTSUP and @p err).
 */
int fwd_components_mode_check(
	const struct fwd_app *app, enum fwd_mode mode, char *err, size_t errlen);

/**
 * Append every component's shell commands to @p out (which holds @p n of
 * @p max), each bound to @p app (its @c data); the new count, or -ENOSPC
 * when they do not fit.
 */
int fwd_components_cmds(
	struct fwd_app *app, cmdline_parse_ctx_t *out, unsigned int n, unsigned int max);

/** The component endpoint named @p name; NULL when no component has it. */
const struct fwd_tel_endpoint *fwd_component_tel_find(const char *name);

#endif /* FWD_COMPONENT_H */
