/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The kernel twins as a component (fwd_component.h): `show twin`,
 * /forwarder/twins and the check of the twins' pools at release. The twins
 * are made in the router's set-up (fwd_route.c calls fwd_twin_setup(): the
 * slow path must have them before its thread polls) and released with it.
 */

#include <errno.h>
#include <stdio.h>

#include <cmdline_parse.h>
#include <cmdline_parse_string.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"
#include "fwd_cmds.h"
#include "fwd_component.h"
#include "fwd_route.h"
#include "fwd_twin.h"

struct cmd_twin_result {
	cmdline_fixed_string_t show;
	cmdline_fixed_string_t twin;
};

static void
cmd_show_twin_parsed(void *res, struct cmdline *cl, void *data)
{
	struct fwd_app *app = data;

	RTE_SET_USED(res);
	RTE_SET_USED(cl);
	if (fwd_cmds_router(app) != NULL)
		fwd_twin_show(app, stdout);
}

static cmdline_parse_token_string_t cmd_show_tok =
	TOKEN_STRING_INITIALIZER(struct cmd_twin_result, show, "show");
static cmdline_parse_token_string_t cmd_show_what_twin =
	TOKEN_STRING_INITIALIZER(struct cmd_twin_result, twin, "twin");
static cmdline_parse_inst_t cmd_show_twin = {
	.f = cmd_show_twin_parsed,
	.help_str = "show twin: the ports' kernel twins (interface, namespace, DPDK port, "
		    "punt-rate) and their counters",
	.tokens = {(void *)&cmd_show_tok, (void *)&cmd_show_what_twin, NULL},
};

static cmdline_parse_ctx_t twin_cmds[] = {
	(cmdline_parse_inst_t *)&cmd_show_twin,
	NULL,
};

/* "/forwarder/twins": what "show twin" prints; port<N>: the twin of router port N */
static int
tel_twins(struct fwd_app *app, const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint16_t i;

	if (params != NULL && *params != '\0')
		return -EINVAL;
	RTE_SET_USED(cmd);
	rte_tel_data_start_dict(d);
	if (app->cfg.mode != FWD_MODE_ROUTE)
		return 0;
	rte_tel_data_add_dict_u64(d, "to_twin", fwd_route_ctl_counter(app, RT_CTL_TO_TWIN));
	rte_tel_data_add_dict_u64(d, "arp_to_twin", fwd_route_ctl_counter(app, RT_CTL_ARP_TO_TWIN));
	rte_tel_data_add_dict_u64(d, "from_twin", fwd_route_ctl_counter(app, RT_CTL_FROM_TWIN));
	rte_tel_data_add_dict_u64(d, "punt_rate", fwd_route_ctl_drops(app, FWD_DROP_PUNT_RATE));
	rte_tel_data_add_dict_u64(
		d, "twin_tx_full", fwd_route_ctl_drops(app, FWD_DROP_TWIN_TX_FULL));
	for (i = 0; i < app->n_twins; i++) {
		const struct fwd_twin_port *tw = &app->twins[i];
		const struct rt_cfg_port *cp = &app->cfg.route.ports[tw->port];
		struct rte_tel_data *one = rte_tel_data_alloc();
		char key[32];

		if (one == NULL)
			break;
		rte_tel_data_start_dict(one);
		rte_tel_data_add_dict_string(one, "ifname", cp->twin);
		rte_tel_data_add_dict_string(one, "netns", app->cfg.route.twin_netns);
		rte_tel_data_add_dict_u64(one, "twin_port", tw->port_id);
		rte_tel_data_add_dict_u64(one, "punt_rate",
			cp->punt_rate != 0 ? cp->punt_rate : RT_TWIN_RATE_DEFAULT);
		snprintf(key, sizeof(key), "port%u", tw->port);
		rte_tel_data_add_dict_container(d, key, one, 0);
	}
	return 0;
}

static const struct fwd_tel_endpoint twin_tel[] = {
	{"/forwarder/twins", tel_twins,
		"--fwd route: the kernel twins (port<N>: ifname, netns, twin_port, punt_rate), "
		"to_twin, from_twin, punt_rate. No parameters."},
};

static struct fwd_component twin_component = {
	.name = "twin",
	/*
	 * Before the router in order, so its release comes after the router's,
	 * which frees the twins: then their pools are checked.
	 */
	.order = FWD_ROUTE_ORDER - 5,
	.release = fwd_twin_check,
	.cmds = twin_cmds,
	.tel = twin_tel,
	.n_tel = RTE_DIM(twin_tel),
};

FWD_COMPONENT_REGISTER(twin_component)
