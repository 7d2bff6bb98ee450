/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#ifndef RT_ACL_MATCH_H
#define RT_ACL_MATCH_H

/**
 * @file
 * The filter as the workers see it: the compiled rule list they classify a
 * flow with (on a flow-table miss) and its generation. Rules are parsed,
 * added and removed by the control path (control/rt_acl.h).
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_acl.h>
#include <rte_byteorder.h>
#include <rte_rcu_qsbr.h>

#define RT_ACL_MAX_RULES 128  /**< rules in one list; slot numbers fit in a uint8_t */
#define RT_ACL_NO_RULE   0xff /**< no rule matched: the slot of the default permit */

/** What a rule does to the packets it matches. */
enum rt_acl_action {
	RT_ACL_PERMIT = 0,
	RT_ACL_DENY = 1,
};

/** One rule, addresses and ports in host order. */
struct rt_acl_rule {
	uint8_t action;    /**< enum rt_acl_action */
	uint8_t has_proto; /**< match on @c proto */
	uint8_t proto;     /**< IP protocol */
	uint8_t src_plen;  /**< 0 = any source */
	uint8_t dst_plen;  /**< 0 = any destination */
	uint32_t src;
	uint32_t dst;
	uint16_t sport_lo, sport_hi; /**< 0..65535 = any */
	uint16_t dport_lo, dport_hi;
};

/** What rte_acl reads: a flow's 5-tuple in network order, protocol first. */
struct rt_acl_input {
	uint8_t proto;
	uint8_t pad[3];
	rte_be32_t src;
	rte_be32_t dst;
	rte_be16_t sport;
	rte_be16_t dport;
};

/** One compiled rule list; replaced as a whole by every change. */
struct rt_acl_ver {
	struct rte_acl_ctx *ctx; /**< NULL when the list is empty */
	uint32_t n;
	uint8_t slot[RT_ACL_MAX_RULES];   /**< counter slot of the rule at each position */
	uint8_t action[RT_ACL_MAX_RULES]; /**< its action */
};

/** A filter: the rule list and its compiled form. */
struct rt_acl {
	struct rt_acl_ver *ver; /**< what the workers classify with; atomic */
	uint32_t gen;           /**< bumped by every change; atomic */
	/** bumped when a slot gets a new rule: per-worker counters of the slot restart */
	uint32_t slot_epoch[RT_ACL_MAX_RULES];
	struct rte_rcu_qsbr *qsbr; /**< the workers' RCU; NULL = no reader to wait for */
	int socket;
	uint32_t n;                                 /**< rules */
	struct rt_acl_rule rules[RT_ACL_MAX_RULES]; /**< in order */
	uint8_t slot[RT_ACL_MAX_RULES];             /**< counter slot of each rule */
	uint8_t slot_map[RT_ACL_MAX_RULES];         /**< 1 = slot taken */
};

/** Number of rules. */
static inline uint32_t
rt_acl_count(const struct rt_acl *acl)
{
	return acl->n;
}

/** Counter slot of the rule at position @p pos (< rt_acl_count()). */
static inline uint8_t
rt_acl_slot(const struct rt_acl *acl, uint32_t pos)
{
	return acl->slot[pos];
}

/** Current generation: a cached verdict of another generation is stale. */
static inline uint32_t
rt_acl_gen(const struct rt_acl *acl)
{
	return __atomic_load_n(&acl->gen, __ATOMIC_ACQUIRE);
}

/**
 * Classify one flow (worker side, between two quiescent states).
 *
 * @param slot
 *   Receives the counter slot of the matching rule, or RT_ACL_NO_RULE.
 * @return the action to take (RT_ACL_PERMIT when no rule matches).
 */
static inline enum rt_acl_action
rt_acl_classify(const struct rt_acl *acl, const struct rt_acl_input *in, uint8_t *slot)
{
	const struct rt_acl_ver *v = __atomic_load_n(&acl->ver, __ATOMIC_ACQUIRE);
	const uint8_t *data = (const uint8_t *)in;
	uint32_t res = 0;

	*slot = RT_ACL_NO_RULE;
	if (v == NULL || v->ctx == NULL || rte_acl_classify(v->ctx, &data, &res, 1, 1) != 0 ||
		res == 0)
		return RT_ACL_PERMIT;
	*slot = v->slot[res - 1];
	return (enum rt_acl_action)v->action[res - 1];
}

#endif /* RT_ACL_MATCH_H */
