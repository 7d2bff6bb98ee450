/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ACL_H
#define RT_ACL_H

/**
 * @file
 * The router's packet filter: an ordered list of permit/deny rules on
 * 5-tuple ranges, compiled into an rte_acl context. The first rule that
 * matches decides; a packet no rule matches is permitted.
 *
 * The flow stage (datapath/rt_flowtable.h) classifies once per new flow, on a flow-table
 * miss, and caches the verdict; every change of the rule list bumps
 * rt_acl::gen, which makes every cached verdict a miss.
 *
 * Rule text, for the [filter] section and the shell:
 *
 *	ACTION = any
 *	ACTION = [proto P] [src PREFIX] [dst PREFIX] [sport N[-M]] [dport N[-M]]
 *
 * ACTION is permit or deny; P is tcp, udp, icmp, sctp or 0..255; a bare
 * address means /32. Ports need proto tcp, udp or sctp. Fragments are
 * classified without ports, so a rule with ports never matches them.
 *
 * Writers (config, shell) are serialised by the caller; a change builds a
 * new rte_acl context, publishes it with one atomic store and frees the old
 * one once every worker has reported a quiescent state (RCU QSBR).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_acl_match.h"

/**
 * Parse one rule: @p action is "permit" or "deny", @p text the match (see
 * the file comment).
 *
 * @return 0, or -EINVAL with @p err set to the reason.
 */
int rt_acl_rule_parse(
	const char *action, const char *text, struct rt_acl_rule *r, char *err, size_t errlen);

/**
 * Format @p r as "ACTION MATCH" (the text rt_acl_rule_parse() reads back).
 *
 * @return the length it needed, as snprintf().
 */
int rt_acl_rule_format(const struct rt_acl_rule *r, char *buf, size_t len);

/**
 * Whether @p r matches the flow @p in (no rte_acl: the reference the tests
 * compare the compiled classifier with).
 */
bool rt_acl_rule_match(const struct rt_acl_rule *r, const struct rt_acl_input *in);

/**
 * Create an empty filter (permits everything).
 *
 * @param qsbr
 *   The RCU variable the workers report to, or NULL.
 * @return the filter, or NULL with rte_errno set.
 */
struct rt_acl *rt_acl_create(struct rte_rcu_qsbr *qsbr, int socket);

/** Free @p acl (NULL is fine); no worker may use it any more. */
void rt_acl_free(struct rt_acl *acl);

/**
 * Append the @p n rules at @p r after the existing ones and publish the new
 * list, compiled once (a config file's [filter] section).
 *
 * @return 0, or -ENOSPC / -ENOMEM with @p err set; the list is unchanged then.
 */
int rt_acl_append(
	struct rt_acl *acl, const struct rt_acl_rule *r, uint32_t n, char *err, size_t errlen);

/**
 * Insert @p r before position @p pos (0 = first; >= the rule count =
 * last) and publish the new list.
 *
 * @return 0, or -ENOSPC / -ENOMEM / -EINVAL with @p err set.
 */
int rt_acl_add(
	struct rt_acl *acl, const struct rt_acl_rule *r, uint32_t pos, char *err, size_t errlen);

/**
 * Remove the rule at position @p pos and publish the new list.
 *
 * @return 0, or -ENOENT / -ENOMEM with @p err set.
 */
int rt_acl_del(struct rt_acl *acl, uint32_t pos, char *err, size_t errlen);

#endif /* RT_ACL_H */
