/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef FWD_DROP_H
#define FWD_DROP_H

/**
 * @file
 * Every reason the forwarder drops a packet, once: the enum, the counter
 * names printed in stats and the stats file, and their descriptions all come
 * from this one X-macro table, so a new reason cannot be half added.
 */

#include "rt_drop.h"

/* X(ENUM_SUFFIX, "counter_name", "what it means"); the router's reasons come last */
#define FWD_DROP_REASONS(X)                                                                    \
	X(TX_FULL, "tx_full", "the output TX queue did not accept the packet")                 \
	X(RUNT, "runt", "frame shorter than an Ethernet header; MACs cannot be rewritten")     \
	X(RXONLY, "rxonly", "received and discarded by --fwd rxonly (not an error)")           \
	X(STOPPED, "stopped", "held in a TX buffer when the workers stopped and not accepted") \
	X(PORT_DOWN, "port_down", "the output port was stopped (port stop in the shell)")      \
	X(PKTGEN_RX, "pktgen_rx", "received and counted by --fwd pktgen (not an error)")       \
	X(TXQ_STOPPED, "txq_stopped", "the output TX queue was stopped (port P txq Q stop)")   \
	RT_DROP_REASONS(X)

enum fwd_drop_reason {
#define FWD_DROP_ENUM(sym, name, desc) FWD_DROP_##sym,
	FWD_DROP_REASONS(FWD_DROP_ENUM)
#undef FWD_DROP_ENUM
		FWD_DROP_MAX
};

/* rt_worker counts into the router's slice of a worker's drops[] */
#define FWD_DROP_ROUTE_FIRST FWD_DROP_NOT_IPV4
_Static_assert(FWD_DROP_MAX - FWD_DROP_ROUTE_FIRST == RT_DROP_MAX,
	"the router's drop reasons must be the last block of FWD_DROP_REASONS");

/** Counter name of a drop reason ("tx_full", ...); "unknown" if out of range. */
const char *fwd_drop_name(enum fwd_drop_reason r);

/** One-line description of a drop reason. */
const char *fwd_drop_desc(enum fwd_drop_reason r);

#endif /* FWD_DROP_H */
