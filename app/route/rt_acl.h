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
 * The flow stage (rt_flow.h) classifies once per new flow, on a flow-table
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

#endif /* RT_ACL_H */
