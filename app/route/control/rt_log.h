/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_LOG_H
#define RT_LOG_H

/**
 * @file
 * The routing component's one log type, "app.route"
 * (--log-level=app.route:debug).
 */

#include <rte_log.h>

extern int rt_logtype;

#define RT_LOG(level, ...) rte_log(RTE_LOG_##level, rt_logtype, "route: " __VA_ARGS__)

#endif /* RT_LOG_H */
