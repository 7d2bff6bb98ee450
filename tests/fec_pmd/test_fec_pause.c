/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * net_fec pause autonegotiation against the model's PHY: one EAL per case
 * (argv[1]). The advertisement in ANAR, the autonegotiation restart, the
 * mode resolved from the link partner's ANLPAR (IEEE 802.3 Annex 28B) and
 * what the MAC then does (RCR.FCE obeys pause, RSEM sends it). Prints TAP.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "fec_cases.h"
#include "fec_check.h"
#include "fec_ethdev.h"
#include "fec_regs.h"

#define NB_MBUF 512

static const uint8_t peer_mac[6] = {0x02, 0x11, 0x22, 0x33, 0x44, 0x55};

static const char *const mode_name[] = {"none", "rx", "tx", "full"};

/*
 * Annex 28B, Table 28B-3, written out: what each asked mode advertises
 * (PAUSE, ASM_DIR) and, for each partner advertisement, what is resolved.
 */
static const struct {
	enum rte_eth_fc_mode ask;
	int lp_pause, lp_asym;
	uint16_t adv;
	enum rte_eth_fc_mode want;
} table[] = {
	{RTE_ETH_FC_NONE, 0, 0, 0, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_NONE, 1, 0, 0, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_NONE, 0, 1, 0, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_NONE, 1, 1, 0, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_FULL, 0, 0, FEC_ADV_PAUSE, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_FULL, 1, 0, FEC_ADV_PAUSE, RTE_ETH_FC_FULL},
	{RTE_ETH_FC_FULL, 0, 1, FEC_ADV_PAUSE, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_FULL, 1, 1, FEC_ADV_PAUSE, RTE_ETH_FC_FULL},
	{RTE_ETH_FC_RX_PAUSE, 0, 0, FEC_ADV_PAUSE | FEC_ADV_ASYM, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_RX_PAUSE, 1, 0, FEC_ADV_PAUSE | FEC_ADV_ASYM, RTE_ETH_FC_FULL},
	{RTE_ETH_FC_RX_PAUSE, 0, 1, FEC_ADV_PAUSE | FEC_ADV_ASYM, RTE_ETH_FC_RX_PAUSE},
	{RTE_ETH_FC_RX_PAUSE, 1, 1, FEC_ADV_PAUSE | FEC_ADV_ASYM, RTE_ETH_FC_FULL},
	{RTE_ETH_FC_TX_PAUSE, 0, 0, FEC_ADV_ASYM, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_TX_PAUSE, 1, 0, FEC_ADV_ASYM, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_TX_PAUSE, 0, 1, FEC_ADV_ASYM, RTE_ETH_FC_NONE},
	{RTE_ETH_FC_TX_PAUSE, 1, 1, FEC_ADV_ASYM, RTE_ETH_FC_TX_PAUSE},
};

static void
port_up(void)
{
	struct rte_eth_conf conf;

	memset(&conf, 0, sizeof(conf));
	CHECK(rte_eth_dev_configure(port, 1, 1, &conf) == 0 &&
			rte_eth_rx_queue_setup(port, 0, 128, 0, NULL, pool) == 0 &&
			rte_eth_tx_queue_setup(port, 0, 128, 0, NULL) == 0 &&
			rte_eth_dev_start(port) == 0,
		"port setup");
}

/* The MAC does @p mode: RCR.FCE for RX pause, RSEM 0x84 for TX pause (fec_fc.c). */
static void
check_mac(enum rte_eth_fc_mode mode, const char *when)
{
	int rx = mode == RTE_ETH_FC_RX_PAUSE || mode == RTE_ETH_FC_FULL;
	int tx = mode == RTE_ETH_FC_TX_PAUSE || mode == RTE_ETH_FC_FULL;

	CHECK(!!(reg(FEC_RCR) & FEC_RCR_FCE) == rx && reg(FEC_RSEM) == (tx ? 0x84u : 0u),
		"%s: MAC should do %s: RCR %#x RSEM %#x", when, mode_name[mode], reg(FEC_RCR),
		reg(FEC_RSEM));
}

/* flow_ctrl_get says @p mode and @p autoneg. */
static void
check_get(enum rte_eth_fc_mode mode, int autoneg, const char *when)
{
	struct rte_eth_fc_conf fc;

	CHECK(rte_eth_dev_flow_ctrl_get(port, &fc) == 0 && fc.mode == mode && fc.autoneg == autoneg,
		"%s: get %s autoneg %u, want %s autoneg %d", when, mode_name[fc.mode % 4],
		fc.autoneg, mode_name[mode], autoneg);
}

/* A link update, as the application's poll or the LSC alarm makes it: the link. */
static struct rte_eth_link
poll_link(void)
{
	struct rte_eth_link l;

	memset(&l, 0, sizeof(l));
	CHECK(rte_eth_link_get_nowait(port, &l) == 0, "link_get");
	return l;
}

static int
fc_set(enum rte_eth_fc_mode mode, int autoneg)
{
	struct rte_eth_fc_conf fc;

	memset(&fc, 0, sizeof(fc));
	fc.mode = mode;
	fc.autoneg = (uint8_t)autoneg;
	fc.pause_time = 0x200;
	return rte_eth_dev_flow_ctrl_set(port, &fc);
}

/* Frames still go out and every mbuf comes back at stop. */
static void
traffic_and_stop(void)
{
	unsigned int n;

	CHECK(fec_test_tx(peer_mac, 20) == 20, "20 frames queued");
	step_all();
	n = fec_test_drain_wire();
	CHECK(n == 20, "%u of 20 sent", n);
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	check_no_leak("after stop");
	check_clean();
}

/* Every row of the resolution table, on a started port. */
static void
case_table(void)
{
	char when[96];
	unsigned int i;
	uint32_t restarts;

	port_up();
	for (i = 0; i < RTE_DIM(table); i++) {
		snprintf(when, sizeof(when), "ask %s, partner PAUSE %d ASM_DIR %d",
			mode_name[table[i].ask], table[i].lp_pause, table[i].lp_asym);
		fec_model_phy_set_partner_pause(model, table[i].lp_pause, table[i].lp_asym);
		restarts = fec_model_phy_an_restarts(model);
		CHECK(fc_set(table[i].ask, 1) == 0, "%s: set", when);
		CHECK((fec_model_phy_read(model, FEC_PHY_ANAR) & (FEC_ADV_PAUSE | FEC_ADV_ASYM)) ==
				table[i].adv,
			"%s: ANAR %#x", when, fec_model_phy_read(model, FEC_PHY_ANAR));
		CHECK((fec_model_phy_read(model, FEC_PHY_ANAR) & 0x01E0) == 0x01E0,
			"%s: speed abilities kept: ANAR %#x", when,
			fec_model_phy_read(model, FEC_PHY_ANAR));
		CHECK(fec_model_phy_an_restarts(model) == restarts + 1, "%s: autoneg restarted",
			when);
		check_get(table[i].want, 1, when);
		check_mac(table[i].want, when);
		CHECK((reg(FEC_OPD) & 0xFFFF) == 0x200, "%s: OPD %#x", when, reg(FEC_OPD));
	}
	traffic_and_stop();
}

/*
 * The resolution follows the link: a partner change seen by a link update,
 * a speed change (whose MAC restart applies it), stop/start, half duplex and
 * link down (no pause), autoneg asked on a stopped port.
 */
static void
case_link(void)
{
	port_up();
	fec_model_phy_set_partner_pause(model, 1, 1);
	CHECK(fc_set(RTE_ETH_FC_FULL, 1) == 0, "autoneg full");
	check_get(RTE_ETH_FC_FULL, 1, "partner pauses");
	check_mac(RTE_ETH_FC_FULL, "partner pauses");

	/* The partner renegotiates without pause, now at 100 Mb/s: a restart. */
	fec_model_phy_set_partner_pause(model, 0, 0);
	fec_model_phy_set_link(model, 1, 100, 1);
	check_get(RTE_ETH_FC_FULL, 1, "not polled yet");
	CHECK(poll_link().link_speed == RTE_ETH_SPEED_NUM_100M, "100 Mb/s");
	CHECK(!(reg(FEC_ECR) & FEC_ECR_SPEED) && (reg(FEC_ECR) & FEC_ECR_ETHEREN),
		"MAC restarted at 100: ECR %#x", reg(FEC_ECR));
	check_get(RTE_ETH_FC_NONE, 1, "partner without pause");
	check_mac(RTE_ETH_FC_NONE, "restart at 100");

	/* Same speed, the partner pauses again: applied without a restart. */
	fec_model_phy_set_partner_pause(model, 1, 0);
	poll_link();
	check_get(RTE_ETH_FC_FULL, 1, "partner pauses again");
	check_mac(RTE_ETH_FC_FULL, "partner pauses again");

	CHECK(rte_eth_dev_stop(port) == 0 && rte_eth_dev_start(port) == 0, "stop/start");
	check_mac(RTE_ETH_FC_FULL, "after stop/start");
	CHECK(reg(FEC_RCR) & FEC_RCR_MII_MODE, "RCR rebuilt: %#x", reg(FEC_RCR));

	/* Half duplex: pause does not exist. */
	fec_model_phy_set_link(model, 1, 100, 0);
	poll_link();
	check_get(RTE_ETH_FC_NONE, 1, "half duplex");
	check_mac(RTE_ETH_FC_NONE, "half duplex");

	/* Down: none; up full again: resolved again. */
	fec_model_phy_set_link(model, 0, 0, 0);
	poll_link();
	check_get(RTE_ETH_FC_NONE, 1, "link down");
	fec_model_phy_set_link(model, 1, 1000, 1);
	poll_link();
	check_get(RTE_ETH_FC_FULL, 1, "up at 1G full");
	check_mac(RTE_ETH_FC_FULL, "up at 1G full");

	/* Asked while stopped: advertised at once, resolved and applied by start. */
	CHECK(rte_eth_dev_stop(port) == 0, "stop");
	fec_model_phy_set_partner_pause(model, 0, 1);
	CHECK(fc_set(RTE_ETH_FC_RX_PAUSE, 1) == 0, "autoneg rx while stopped");
	CHECK((fec_model_phy_read(model, FEC_PHY_ANAR) & (FEC_ADV_PAUSE | FEC_ADV_ASYM)) ==
			(FEC_ADV_PAUSE | FEC_ADV_ASYM),
		"advertised while stopped: ANAR %#x", fec_model_phy_read(model, FEC_PHY_ANAR));
	CHECK(rte_eth_dev_start(port) == 0, "start");
	check_get(RTE_ETH_FC_RX_PAUSE, 1, "started");
	check_mac(RTE_ETH_FC_RX_PAUSE, "started");
	traffic_and_stop();
}

/* Autoneg off: the forced mode holds whatever the partner and the link do. */
static void
case_forced(void)
{
	uint32_t restarts;

	port_up();
	fec_model_phy_set_partner_pause(model, 1, 1);
	CHECK(fc_set(RTE_ETH_FC_FULL, 1) == 0, "autoneg full");
	check_get(RTE_ETH_FC_FULL, 1, "autoneg");
	restarts = fec_model_phy_an_restarts(model);
	CHECK(fc_set(RTE_ETH_FC_TX_PAUSE, 0) == 0, "forced tx");
	check_get(RTE_ETH_FC_TX_PAUSE, 0, "forced");
	check_mac(RTE_ETH_FC_TX_PAUSE, "forced");
	CHECK(fec_model_phy_an_restarts(model) == restarts, "no autoneg restart for a forced mode");
	fec_model_phy_set_partner_pause(model, 0, 0);
	fec_model_phy_set_link(model, 1, 100, 1);
	poll_link();
	CHECK(!(reg(FEC_ECR) & FEC_ECR_SPEED), "restarted at 100: ECR %#x", reg(FEC_ECR));
	check_get(RTE_ETH_FC_TX_PAUSE, 0, "after a partner and speed change");
	check_mac(RTE_ETH_FC_TX_PAUSE, "after the restart at 100");
	fec_model_phy_set_link(model, 1, 100, 0);
	poll_link();
	check_get(RTE_ETH_FC_TX_PAUSE, 0, "half duplex: forced is forced");
	CHECK(rte_eth_dev_stop(port) == 0 && rte_eth_dev_start(port) == 0, "stop/start");
	check_mac(RTE_ETH_FC_TX_PAUSE, "after stop/start");
	traffic_and_stop();
}

/* Refusals: clear errors, nothing changed. */
static void
case_bad(void)
{
	struct fec_model_fault f;
	struct rte_eth_fc_conf fc;
	uint32_t restarts;

	port_up();
	CHECK(fc_set(RTE_ETH_FC_RX_PAUSE, 0) == 0, "forced rx");
	restarts = fec_model_phy_an_restarts(model);
	CHECK(fc_set(RTE_ETH_FC_FULL, 2) == -EINVAL, "autoneg 2 refused");
	CHECK(fc_set((enum rte_eth_fc_mode)4, 0) == -EINVAL, "mode 4 refused");
	CHECK(fc_set((enum rte_eth_fc_mode)7, 1) == -EINVAL, "mode 7 with autoneg refused");
	memset(&fc, 0, sizeof(fc));
	fc.mode = RTE_ETH_FC_FULL;
	fc.send_xon = 2;
	CHECK(rte_eth_dev_flow_ctrl_set(port, &fc) == -EINVAL, "send_xon 2 refused (ethdev)");
	/* The PHY does not answer: the error, and nothing advertised or changed. */
	memset(&f, 0, sizeof(f));
	f.kind = FEC_FAULT_MDIO_TIMEOUT;
	f.count = 1;
	CHECK(fec_model_inject(model, &f) == 0, "MDIO timeout armed");
	CHECK(fc_set(RTE_ETH_FC_FULL, 1) == -ETIMEDOUT, "autoneg with the PHY silent: -ETIMEDOUT");
	CHECK(fec_model_faults_injected(model, FEC_FAULT_MDIO_TIMEOUT) == 1, "the timeout hit");
	CHECK((fec_model_phy_read(model, FEC_PHY_ANAR) & (FEC_ADV_PAUSE | FEC_ADV_ASYM)) == 0,
		"nothing advertised: ANAR %#x", fec_model_phy_read(model, FEC_PHY_ANAR));
	CHECK(fec_model_phy_an_restarts(model) == restarts, "no autoneg restart");
	check_get(RTE_ETH_FC_RX_PAUSE, 0, "after the refusals");
	check_mac(RTE_ETH_FC_RX_PAUSE, "after the refusals");
	traffic_and_stop();
}

/* No PHY at the MDIO address: autoneg refused, a forced mode still works. */
static void
case_nophy(void)
{
	struct fec_priv *fep = rte_eth_devices[port].data->dev_private;

	port_up();
	/* The model's PHY answers at the address it was made with: look elsewhere. */
	fep->phy_addr = (fep->phy_addr + 7) % 32;
	CHECK(fc_set(RTE_ETH_FC_FULL, 1) == -ENOTSUP, "autoneg without a PHY: -ENOTSUP");
	check_get(RTE_ETH_FC_FULL, 0, "default kept");
	CHECK(fc_set(RTE_ETH_FC_NONE, 0) == 0, "forced none");
	check_mac(RTE_ETH_FC_NONE, "forced none");
	traffic_and_stop();
}

static const struct fec_case cases[] = {
	{"table", "", .fn = case_table},
	{"link", "", .fn = case_link},
	{"forced", "", .fn = case_forced},
	{"bad", "", .fn = case_bad},
	{"nophy", "", .fn = case_nophy},
};

FEC_CASES_MAIN(cases, .tag = "fecpause", .log_level = "*:error", .nb_mbuf = NB_MBUF)
