/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_memzone.h>
#include <rte_rwlock.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"

#include "fwd_component.h"
#include "fwd_log.h"
#include "fwd_route.h"
#include "fwd_stats.h"
#include "fwd_tel_page.h"
#include "rt_control.h"
#include "rt_worker_setup.h"
#include "fwd_telemetry.h"

/*
 * Callbacks run on the telemetry thread. They read counters that workers
 * write (plain aligned 64-bit stores: a read sees an old or a new value), and
 * the app structure itself, which teardown frees: the lock keeps the two
 * apart.
 */
static rte_rwlock_t tel_lock = RTE_RWLOCK_INITIALIZER;
static struct fwd_app *tel_app;
/*
 * Until the app is set up (fwd_telemetry_init()) the endpoints answer
 * "starting", with the mode asked: the socket is there from EAL's start, and
 * with 20 workers on 2 CPUs the set-up takes seconds.
 */
static bool tel_app_was_up;
static const char *tel_mode_name = "";

static bool
tel_stats_fill(struct rte_tel_data *one, const struct fwd_lcore *lc, size_t *b)
{
	fwd_tel_u64(one, b, "rx_pkts", lc->stats.rx_pkts);
	fwd_tel_u64(one, b, "tx_pkts", lc->stats.tx_pkts);
	/* as the lcore line says it: a generator's received frames are measured, not dropped */
	fwd_tel_u64(one, b, "dropped", fwd_stats_lcore_dropped(lc->stats.drops));
	if (lc->pg != NULL)
		fwd_tel_u64(one, b, "measured", lc->stats.drops[FWD_DROP_PKTGEN_RX]);
	fwd_tel_u64(one, b, "rx_bursts", lc->stats.rx_bursts);
	fwd_tel_u64(one, b, "polls", lc->stats.polls);
	fwd_tel_u64(one, b, "idle_sleeps", lc->stats.idle_sleeps);
	fwd_tel_u64(one, b, "idle_wakeups", lc->stats.idle_wakeups);
	fwd_tel_u64(one, b, "punted", fwd_route_punted(lc));
	fwd_tel_u64(one, b, "slow_tx", lc->stats.slow_tx);
	fwd_tel_u64(one, b, "tx_first", lc->stats.tx_first);
	return true;
}

/*
 * the head of /forwarder/stats: mode, state, ports, link_changes, tx_lost,
 * workers, 5 totals (measured in pktgen mode)
 */
#define TEL_STATS_HEAD (11 + FWD_TEL_LCORES_TAIL)

/*
 * DPDK 22.11 telemetry nests one level only: the per-lcore dicts are top-level
 * keys "lcore<N>" next to the totals.
 */
static int
tel_stats(const char *cmd, const char *params, struct rte_tel_data *d)
{
	uint64_t rx = 0, tx = 0, dropped = 0, measured = 0, start = 0;
	struct fwd_tel_page pg;
	unsigned int i;

	if (params != NULL && fwd_tel_param_uint(params, UINT32_MAX, &start) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	if (tel_app == NULL) {
		rte_rwlock_read_unlock(&tel_lock);
		rte_tel_data_add_dict_string(d, "mode", tel_mode_name);
		rte_tel_data_add_dict_string(d, "state", tel_app_was_up ? "exiting" : "starting");
		rte_tel_data_add_dict_u64(d, "workers", 0);
		return 0;
	}
	/* the totals over every worker, whichever are on this page */
	for (i = 0; i < tel_app->n_workers; i++) {
		const struct fwd_lcore *lc = tel_app->workers[i];

		dropped += fwd_stats_lcore_dropped(lc->stats.drops);
		measured += lc->stats.drops[FWD_DROP_PKTGEN_RX];
		rx += lc->stats.rx_pkts;
		tx += lc->stats.tx_pkts;
	}
	rte_tel_data_add_dict_string(d, "mode", fwd_mode_name(tel_app->cfg.mode));
	rte_tel_data_add_dict_string(d, "state", tel_app->running ? "forwarding" : "stopped");
	rte_tel_data_add_dict_u64(d, "ports", tel_app->nb_ports);
	fwd_tel_page_init(&pg, cmd, TEL_STATS_HEAD);
	{
		/* the stats file's ports[].link_changes, keyed by port id */
		struct rte_tel_data *lch = rte_tel_data_alloc();
		size_t bytes = 2;

		if (lch != NULL) {
			rte_tel_data_start_dict(lch);
			for (i = 0; i < tel_app->nb_ports; i++) {
				char key[8];

				snprintf(key, sizeof(key), "%u", tel_app->ports[i].id);
				fwd_tel_u64(lch, &bytes, key, tel_app->ports[i].link_changes);
			}
			fwd_tel_page_take(&pg, bytes); /* counted in the head's room otherwise */
			rte_tel_data_add_dict_container(d, "link_changes", lch, 0);
		}
	}
	{
		/* the stats file's ports[].tx_lost: accepted for TX, not sent by the device */
		struct rte_tel_data *lost = rte_tel_data_alloc();
		size_t bytes = 2;

		if (lost != NULL) {
			rte_tel_data_start_dict(lost);
			for (i = 0; i < tel_app->nb_ports; i++) {
				struct rte_eth_stats es;
				char key[8];

				if (fwd_stats_port_get(tel_app, tel_app->ports[i].id, &es) != 0)
					continue;
				snprintf(key, sizeof(key), "%u", tel_app->ports[i].id);
				fwd_tel_u64(lost, &bytes, key,
					fwd_stats_port_tx_lost(tel_app, tel_app->ports[i].id, &es));
			}
			fwd_tel_page_take(&pg, bytes);
			rte_tel_data_add_dict_container(d, "tx_lost", lost, 0);
		}
	}
	/* how many lcore<N> dicts there are over all pages */
	rte_tel_data_add_dict_u64(d, "workers", tel_app->n_workers);
	rte_tel_data_add_dict_u64(d, "rx_pkts", rx);
	rte_tel_data_add_dict_u64(d, "tx_pkts", tx);
	rte_tel_data_add_dict_u64(d, "dropped", dropped);
	if (tel_app->cfg.mode == FWD_MODE_PKTGEN)
		rte_tel_data_add_dict_u64(d, "measured", measured);
	{
		/* mbufs out of the packet pools (rings, caches, in flight): a leak grows it */
		uint64_t in_use = 0;

		for (i = 0; i < RTE_MAX_NUMA_NODES; i++)
			if (tel_app->pools[i] != NULL)
				in_use += rte_mempool_in_use_count(tel_app->pools[i]);
		rte_tel_data_add_dict_u64(d, "mbufs_in_use", in_use);
	}
	fwd_tel_lcore_page(tel_app, d, &pg, start, tel_stats_fill);
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

static int
tel_drops(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int r;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	/*
	 * the router's reasons only when routing; not pktgen_rx, which is no
	 * drop (the lcores' "measured", as the console's drops line leaves it out)
	 */
	for (r = 0; tel_app != NULL && r < FWD_DROP_MAX; r++)
		if (r != FWD_DROP_PKTGEN_RX &&
			(r < FWD_DROP_ROUTE_FIRST || tel_app->cfg.mode == FWD_MODE_ROUTE))
			rte_tel_data_add_dict_u64(
				d, fwd_drop_name(r), fwd_stats_drop_total(tel_app, r));
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

static int
tel_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i, j;

	rte_tel_data_start_dict(d);
	rte_rwlock_read_lock(&tel_lock);
	for (i = 0; tel_app != NULL && i < tel_app->n_workers; i++) {
		const struct fwd_lcore *lc = tel_app->workers[i];
		struct rte_tel_data *q = rte_tel_data_alloc();
		char key[16];

		if (q == NULL)
			break;
		rte_tel_data_start_array(q, RTE_TEL_STRING_VAL);
		for (j = 0; j < lc->n_rx; j++) {
			char s[32];

			snprintf(s, sizeof(s), "%u/%u", lc->rx[j].port, lc->rx[j].queue);
			rte_tel_data_add_array_string(q, s);
		}
		snprintf(key, sizeof(key), "%u", lc->lcore_id);
		rte_tel_data_add_dict_container(d, key, q, 0);
	}
	rte_rwlock_read_unlock(&tel_lock);
	return 0;
}

/*
 * Checked versions of three DPDK 22.11 handlers that index without a bounds
 * check and kill the process on a bad parameter: /eal/heap_info,-1 and
 * /eal/memzone_info,99999 read past their arrays (eal_common_memory.c), and
 * /ethdev/info,65536 passes the int port number through a uint16_t check and
 * then indexes rte_eth_devices[65536]. The telemetry library inserts a new
 * registration before an existing one of the same name and takes the first
 * match, so registering these after EAL init shadows DPDK's. They answer
 * with DPDK's keys, from public API only; a bad parameter gets null.
 */

/* "/eal/heap_info,ID": the heaps EAL sets up are one per NUMA socket, in socket order */
static int
tel_eal_heap_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_malloc_socket_stats st;
	char name[32];
	uint64_t id;
	int socket;

	if (fwd_tel_param_uint(params, rte_socket_count() - 1, &id) < 0)
		return -EINVAL;
	socket = rte_socket_id_by_idx((unsigned int)id);
	if (socket < 0 || rte_malloc_get_socket_stats(socket, &st) < 0)
		return -EINVAL;
	snprintf(name, sizeof(name), "socket_%d", socket);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "Head_id", id); /* sic: DPDK's key */
	rte_tel_data_add_dict_string(d, "Name", name);
	rte_tel_data_add_dict_u64(d, "Heap_size", st.heap_totalsz_bytes);
	rte_tel_data_add_dict_u64(d, "Free_size", st.heap_freesz_bytes);
	rte_tel_data_add_dict_u64(d, "Alloc_size", st.heap_allocsz_bytes);
	rte_tel_data_add_dict_u64(d, "Greatest_free_size", st.greatest_free_size);
	rte_tel_data_add_dict_u64(d, "Alloc_count", st.alloc_count);
	rte_tel_data_add_dict_u64(d, "Free_count", st.free_count);
	return 0;
}

struct tel_mz_find {
	const void *addr;
	struct rte_memzone mz;
	bool found;
};

static void
tel_mz_match(const struct rte_memzone *mz, void *arg)
{
	struct tel_mz_find *f = arg;

	if (mz->addr == f->addr && !f->found) {
		f->mz = *mz; /* copied under the memzone lock the walk holds */
		f->found = true;
	}
}

/*
 * The address of memzone number @p idx, NULL if there is none. The public API
 * has no memzone-by-index lookup; rte_memzone_dump() prints each zone's index
 * (the one /eal/memzone_list answers) with its address.
 */
static const void *
tel_mz_addr(uint64_t idx)
{
	char *text = NULL, *line, *save = NULL;
	const void *addr = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		return NULL;
	rte_memzone_dump(f);
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line != NULL && addr == NULL;
		line = strtok_r(NULL, "\n", &save)) {
		char head[32], *virt;
		int hl = snprintf(head, sizeof(head), "Zone %" PRIu64 ": ", idx);

		if (strncmp(line, head, (size_t)hl) != 0)
			continue;
		/* the name comes before and may hold anything: the last ", virt:" is the field */
		for (virt = strstr(line, ", virt:"); virt != NULL && strstr(virt + 1, ", virt:");)
			virt = strstr(virt + 1, ", virt:");
		if (virt != NULL)
			addr = (const void *)(uintptr_t)strtoull(virt + 7, NULL, 16);
	}
	free(text);
	return addr;
}

/* "/eal/memzone_info,INDEX" */
static int
tel_eal_memzone_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct tel_mz_find f = {0};
	char addr[32];
	uint64_t idx;
	size_t pg;
	uintptr_t lo, hi;

	if (fwd_tel_param_uint(params, fwd_compat_memzone_max() - 1, &idx) < 0)
		return -EINVAL;
	f.addr = tel_mz_addr(idx);
	if (f.addr == NULL)
		return -EINVAL;
	rte_memzone_walk(tel_mz_match, &f);
	/* gone since the dump, or memory EAL does not map (the check DPDK makes too) */
	if (!f.found || rte_mem_virt2memseg_list(f.mz.addr) == NULL || f.mz.hugepage_sz == 0)
		return -EINVAL;
	pg = (size_t)f.mz.hugepage_sz;
	lo = RTE_ALIGN_FLOOR((uintptr_t)f.mz.addr, pg);
	hi = RTE_ALIGN_CEIL((uintptr_t)f.mz.addr + f.mz.len, pg);
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_u64(d, "Zone", idx);
	rte_tel_data_add_dict_string(d, "Name", f.mz.name);
	rte_tel_data_add_dict_u64(d, "Length", f.mz.len);
	snprintf(addr, sizeof(addr), "%p", f.mz.addr);
	rte_tel_data_add_dict_string(d, "Address", addr);
	rte_tel_data_add_dict_int(d, "Socket", f.mz.socket_id);
	rte_tel_data_add_dict_u64(d, "Flags", f.mz.flags);
	rte_tel_data_add_dict_u64(d, "Hugepage_size", pg);
	snprintf(addr, sizeof(addr), "%p", (void *)lo);
	rte_tel_data_add_dict_string(d, "Hugepage_base", addr);
	rte_tel_data_add_dict_int(d, "Hugepage_used", (int)RTE_MAX((hi - lo) / pg, (uintptr_t)1));
	return 0;
}

/* A queue's state where the driver reports it, else the port's (the forwarder starts no queue on its own). */
static int
tel_queue_state(uint16_t port, uint16_t q, bool rx, bool started)
{
	struct rte_eth_rxq_info ri;
	struct rte_eth_txq_info ti;

	if (rx && rte_eth_rx_queue_info_get(port, q, &ri) == 0)
		return ri.queue_state;
	if (!rx && rte_eth_tx_queue_info_get(port, q, &ti) == 0)
		return ti.queue_state;
	return started ? RTE_ETH_QUEUE_STATE_STARTED : RTE_ETH_QUEUE_STATE_STOPPED;
}

/*
 * "/ethdev/info,PORT": what the public ethdev API says; what only the
 * device's private data holds (started, configured, the queues' states on a
 * driver that does not report them, the smallest RX buffer) the forwarder
 * knows, since it configures and starts every port itself.
 */
static int
tel_ethdev_info(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct rte_tel_data *rxq = NULL, *txq = NULL;
	char mac[RTE_ETHER_ADDR_FMT_SIZE], name[RTE_ETH_NAME_MAX_LEN];
	struct rte_eth_dev_info info;
	struct rte_eth_conf conf;
	struct rte_ether_addr ea;
	const struct fwd_port *p;
	struct rte_mempool *mp;
	uint64_t port;
	uint16_t mtu = 0, q;
	int ret = -EINVAL;

	if (fwd_tel_param_uint(params, RTE_MAX_ETHPORTS - 1, &port) < 0 ||
		!rte_eth_dev_is_valid_port((uint16_t)port))
		return -EINVAL;
	rte_rwlock_read_lock(&tel_lock);
	if (tel_app == NULL || port >= tel_app->nb_ports)
		goto out;
	p = &tel_app->ports[port];
	if (rte_eth_dev_info_get(p->id, &info) != 0 || rte_eth_dev_conf_get(p->id, &conf) != 0 ||
		rte_eth_dev_get_name_by_port(p->id, name) != 0)
		goto out;
	ret = -ENOMEM;
	rxq = rte_tel_data_alloc();
	txq = rte_tel_data_alloc();
	if (rxq == NULL || txq == NULL)
		goto out;
	if (rte_eth_macaddr_get(p->id, &ea) != 0)
		memset(&ea, 0, sizeof(ea));
	rte_eth_dev_get_mtu(p->id, &mtu);
	mp = tel_app->pools[p->socket];
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", name);
	rte_tel_data_add_dict_int(d, "state",
		rte_eth_dev_is_removed(p->id) ? RTE_ETH_DEV_REMOVED : RTE_ETH_DEV_ATTACHED);
	rte_tel_data_add_dict_int(d, "nb_rx_queues", info.nb_rx_queues);
	rte_tel_data_add_dict_int(d, "nb_tx_queues", info.nb_tx_queues);
	rte_tel_data_add_dict_int(d, "port_id", p->id);
	rte_tel_data_add_dict_int(d, "mtu", mtu);
	/* what ethdev keeps: the smallest data room of the pools given to RX queues */
	rte_tel_data_add_dict_u64(
		d, "rx_mbuf_size_min", mp != NULL ? rte_pktmbuf_data_room_size(mp) : 0);
	rte_ether_format_addr(mac, sizeof(mac), &ea);
	rte_tel_data_add_dict_string(d, "mac_addr", mac);
	rte_tel_data_add_dict_int(d, "promiscuous", rte_eth_promiscuous_get(p->id) == 1);
	rte_tel_data_add_dict_int(
		d, "scattered_rx", (conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0);
	rte_tel_data_add_dict_int(d, "all_multicast", rte_eth_allmulticast_get(p->id) == 1);
	rte_tel_data_add_dict_int(d, "dev_started", p->started);
	rte_tel_data_add_dict_int(
		d, "lro", (conf.rxmode.offloads & RTE_ETH_RX_OFFLOAD_TCP_LRO) != 0);
	rte_tel_data_add_dict_int(d, "dev_configured", !p->closed);
	rte_tel_data_start_array(rxq, RTE_TEL_INT_VAL);
	for (q = 0; q < info.nb_rx_queues; q++)
		rte_tel_data_add_array_int(rxq, tel_queue_state(p->id, q, true, p->started));
	rte_tel_data_start_array(txq, RTE_TEL_INT_VAL);
	for (q = 0; q < info.nb_tx_queues; q++)
		rte_tel_data_add_array_int(txq, tel_queue_state(p->id, q, false, p->started));
	rte_tel_data_add_dict_container(d, "rxq_state", rxq, 0);
	rte_tel_data_add_dict_container(d, "txq_state", txq, 0);
	rxq = txq = NULL;
	rte_tel_data_add_dict_int(d, "numa_node", rte_eth_dev_socket_id(p->id));
	rte_tel_data_add_dict_u64(d, "dev_flags", info.dev_flags != NULL ? *info.dev_flags : 0);
	rte_tel_data_add_dict_u64(d, "rx_offloads", conf.rxmode.offloads);
	rte_tel_data_add_dict_u64(d, "tx_offloads", conf.txmode.offloads);
	rte_tel_data_add_dict_u64(d, "ethdev_rss_hf", conf.rx_adv_conf.rss_conf.rss_hf);
	ret = 0;
out:
	rte_rwlock_read_unlock(&tel_lock);
	rte_tel_data_free(rxq);
	rte_tel_data_free(txq);
	return ret;
}

/* A help text of 128 characters or more, or a bad name, and the library refuses the command. */
static const struct {
	const char *name;
	telemetry_cb fn;
	const char *help;
} tel_cmds[] = {
	{"/forwarder/stats", tel_stats,
		"Forwarding mode, state, packet totals and per-lcore counters, paged (next). "
		"Parameter: the first worker (default 0)."},
	{"/forwarder/drops", tel_drops, "Dropped packets by reason. No parameters."},
	{"/forwarder/lcores", tel_lcores,
		"RX queues (port/queue) polled by each worker lcore. No parameters."},
	/* registered after EAL's and ethdev's own, which these shadow */
	{"/eal/heap_info", tel_eal_heap_info,
		"Returns malloc heap stats. Parameters: int heap_id (checked by dpdk-forwarder)"},
	{"/eal/memzone_info", tel_eal_memzone_info,
		"Returns memzone info. Parameters: int mz_id (checked by dpdk-forwarder)"},
	{"/ethdev/info", tel_ethdev_info,
		"Returns the device info for a port. Parameters: int port_id (checked by "
		"dpdk-forwarder)"},
};

/*
 * A component's endpoint (fwd_component.h): telemetry's callbacks take no
 * argument of their own, so one callback serves them all, finding the
 * endpoint by the command's name.
 */
static int
tel_component(const char *cmd, const char *params, struct rte_tel_data *d)
{
	const struct fwd_tel_endpoint *ep = fwd_component_tel_find(cmd);
	int ret = 0;

	if (ep == NULL)
		return -EINVAL;
	rte_rwlock_read_lock(&tel_lock);
	if (tel_app != NULL)
		ret = ep->fn(tel_app, cmd, params, d);
	else
		rte_tel_data_start_dict(d);
	rte_rwlock_read_unlock(&tel_lock);
	return ret;
}

static void
tel_register(const char *name, telemetry_cb fn, const char *help)
{
	int ret = rte_telemetry_register_cmd(name, fn, help);

	if (ret < 0)
		FWD_LOG(WARNING, "telemetry: cannot register %s: %s\n", name, strerror(-ret));
}

void
fwd_telemetry_register(enum fwd_mode mode)
{
	static bool registered;
	const struct fwd_component *c;
	unsigned int i;

	if (registered)
		return;
	registered = true;
	tel_mode_name = fwd_mode_name(mode);
	for (i = 0; i < RTE_DIM(tel_cmds); i++)
		tel_register(tel_cmds[i].name, tel_cmds[i].fn, tel_cmds[i].help);
	for (c = fwd_component_first(); c != NULL; c = fwd_component_next(c))
		for (i = 0; i < c->n_tel; i++)
			tel_register(c->tel[i].name, tel_component, c->tel[i].help);
}

void
fwd_telemetry_init(struct fwd_app *app)
{
	fwd_telemetry_register(app->cfg.mode);
	rte_rwlock_write_lock(&tel_lock);
	tel_app = app;
	tel_app_was_up = true;
	rte_rwlock_write_unlock(&tel_lock);
}

void
fwd_telemetry_uninit(void)
{
	rte_rwlock_write_lock(&tel_lock);
	tel_app = NULL;
	rte_rwlock_write_unlock(&tel_lock);
}

void
fwd_telemetry_quiesce(void)
{
	rte_rwlock_write_lock(&tel_lock);
}

void
fwd_telemetry_resume(void)
{
	rte_rwlock_write_unlock(&tel_lock);
}
