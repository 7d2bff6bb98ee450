/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netinet/in.h>

#include <rte_errno.h>
#include <rte_malloc.h>

#include "rt_acl.h"
#include "numparse.h"

#include "rt_table.h"

#define MAX_WORDS 12

enum { F_PROTO, F_SRC, F_DST, F_SPORT, F_DPORT, F_NUM };

RTE_ACL_RULE_DEF(rt_acl_rule_def, F_NUM);

/* rte_acl wants a 1-byte first field, then fields grouped in 4-byte inputs */
static const struct rte_acl_field_def field_defs[F_NUM] = {
	{RTE_ACL_FIELD_TYPE_BITMASK, 1, F_PROTO, 0, offsetof(struct rt_acl_input, proto)},
	{RTE_ACL_FIELD_TYPE_MASK, 4, F_SRC, 1, offsetof(struct rt_acl_input, src)},
	{RTE_ACL_FIELD_TYPE_MASK, 4, F_DST, 2, offsetof(struct rt_acl_input, dst)},
	{RTE_ACL_FIELD_TYPE_RANGE, 2, F_SPORT, 3, offsetof(struct rt_acl_input, sport)},
	{RTE_ACL_FIELD_TYPE_RANGE, 2, F_DPORT, 3, offsetof(struct rt_acl_input, dport)},
};

static const struct {
	const char *name;
	uint8_t proto;
} proto_names[] = {
	{"tcp", IPPROTO_TCP},
	{"udp", IPPROTO_UDP},
	{"icmp", IPPROTO_ICMP},
	{"sctp", IPPROTO_SCTP},
};

static int
parse_proto(const char *s, uint8_t *proto)
{
	unsigned int i;
	uint64_t v;

	for (i = 0; i < RTE_DIM(proto_names); i++) {
		if (strcmp(s, proto_names[i].name) == 0) {
			*proto = proto_names[i].proto;
			return 0;
		}
	}
	if (num_u64(s, 0, 255, &v) < 0)
		return -EINVAL;
	*proto = (uint8_t)v;
	return 0;
}

static int
parse_u16(const char *s, const char *stop, uint16_t *v)
{
	char buf[24];
	uint64_t n;

	/* more digits than a uint64_t has cannot be in range: no need to copy them */
	if ((size_t)(stop - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, stop - s);
	buf[stop - s] = '\0';
	if (num_u64(buf, 0, UINT16_MAX, &n) < 0)
		return -EINVAL;
	*v = (uint16_t)n;
	return 0;
}

/* "N" or "N-M" with N <= M */
static int
parse_ports(const char *s, uint16_t *lo, uint16_t *hi)
{
	const char *dash = strchr(s, '-');
	const char *end = s + strlen(s);

	if (dash == NULL)
		return parse_u16(s, end, lo) < 0 ? -EINVAL : ((*hi = *lo), 0);
	if (parse_u16(s, dash, lo) < 0 || parse_u16(dash + 1, end, hi) < 0 || *lo > *hi)
		return -EINVAL;
	return 0;
}

int
rt_acl_rule_parse(
	const char *action, const char *text, struct rt_acl_rule *r, char *err, size_t errlen)
{
	char buf[512], *w[MAX_WORDS], *save = NULL, *tok;
	bool seen[F_NUM] = {false};
	int n = 0, i;

	memset(r, 0, sizeof(*r));
	r->sport_hi = UINT16_MAX;
	r->dport_hi = UINT16_MAX;
	if (strcmp(action, "permit") == 0) {
		r->action = RT_ACL_PERMIT;
	} else if (strcmp(action, "deny") == 0) {
		r->action = RT_ACL_DENY;
	} else {
		snprintf(err, errlen, "unknown key '%s' in [filter] (expected permit, deny)",
			action);
		return -EINVAL;
	}
	if (strlen(text) >= sizeof(buf)) {
		snprintf(err, errlen, "rule too long");
		return -EINVAL;
	}
	strcpy(buf, text);
	for (tok = strtok_r(buf, " \t", &save); tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		if (n == MAX_WORDS) {
			snprintf(err, errlen, "too many words in the rule");
			return -EINVAL;
		}
		w[n++] = tok;
	}
	if (n == 0) {
		snprintf(err, errlen, "empty rule (write '%s = any' to match everything)", action);
		return -EINVAL;
	}
	if (n == 1 && strcmp(w[0], "any") == 0)
		return 0;
	for (i = 0; i < n; i += 2) {
		static const char *const names[F_NUM] = {"proto", "src", "dst", "sport", "dport"};
		unsigned int f;

		for (f = 0; f < F_NUM && strcmp(w[i], names[f]) != 0; f++)
			;
		if (f == F_NUM) {
			snprintf(err, errlen,
				"unexpected '%s' (expected proto, src, dst, sport, dport or any)",
				w[i]);
			return -EINVAL;
		}
		if (i + 1 >= n) {
			snprintf(err, errlen, "'%s' needs a value", w[i]);
			return -EINVAL;
		}
		if (seen[f]) {
			snprintf(err, errlen, "'%s' given twice", w[i]);
			return -EINVAL;
		}
		seen[f] = true;
		switch (f) {
		case F_PROTO:
			if (parse_proto(w[i + 1], &r->proto) < 0) {
				snprintf(err, errlen,
					"bad protocol '%s' (tcp, udp, icmp, sctp or 0..255)",
					w[i + 1]);
				return -EINVAL;
			}
			r->has_proto = 1;
			break;
		case F_SRC:
		case F_DST: {
			uint32_t ip;
			uint8_t plen;
			char a[16];

			if (rt4_prefix_parse(w[i + 1], &ip, &plen, false) < 0) {
				snprintf(err, errlen, "'%s' is not a prefix (ADDRESS[/LENGTH])",
					w[i + 1]);
				return -EINVAL;
			}
			if ((ip & ~rt4_mask(plen)) != 0) {
				snprintf(err, errlen, "%s has host bits set (did you mean %s/%u?)",
					w[i + 1], rt4_addr_str(ip & rt4_mask(plen), a), plen);
				return -EINVAL;
			}
			if (f == F_SRC) {
				r->src = ip;
				r->src_plen = plen;
			} else {
				r->dst = ip;
				r->dst_plen = plen;
			}
			break;
		}
		default:
			if (parse_ports(w[i + 1], f == F_SPORT ? &r->sport_lo : &r->dport_lo,
				    f == F_SPORT ? &r->sport_hi : &r->dport_hi) < 0) {
				snprintf(err, errlen, "bad port range '%s' (N or N-M, 0..65535)",
					w[i + 1]);
				return -EINVAL;
			}
			break;
		}
	}
	if ((seen[F_SPORT] || seen[F_DPORT]) &&
		(!r->has_proto || (r->proto != IPPROTO_TCP && r->proto != IPPROTO_UDP &&
					  r->proto != IPPROTO_SCTP))) {
		snprintf(err, errlen, "sport and dport need proto tcp, udp or sctp");
		return -EINVAL;
	}
	return 0;
}

static int
fmt_ports(char *buf, size_t len, const char *what, uint16_t lo, uint16_t hi)
{
	if (lo == 0 && hi == UINT16_MAX)
		return 0;
	if (lo == hi)
		return snprintf(buf, len, " %s %u", what, lo);
	return snprintf(buf, len, " %s %u-%u", what, lo, hi);
}

int
rt_acl_rule_format(const struct rt_acl_rule *r, char *buf, size_t len)
{
	char a[16];
	int n, k;
	unsigned int i;

	n = snprintf(buf, len, "%s", r->action == RT_ACL_DENY ? "deny" : "permit");
	if (!r->has_proto && r->src_plen == 0 && r->dst_plen == 0 && r->sport_lo == 0 &&
		r->sport_hi == UINT16_MAX && r->dport_lo == 0 && r->dport_hi == UINT16_MAX)
		return n + snprintf(buf + RTE_MIN((size_t)n, len), len - RTE_MIN((size_t)n, len),
				   " any");
#define APPEND(...)                                            \
	do {                                                   \
		size_t o_ = RTE_MIN((size_t)n, len);           \
		k = snprintf(buf + o_, len - o_, __VA_ARGS__); \
		n += k;                                        \
	} while (0)
	if (r->has_proto) {
		for (i = 0; i < RTE_DIM(proto_names) && proto_names[i].proto != r->proto; i++)
			;
		if (i < RTE_DIM(proto_names))
			APPEND(" proto %s", proto_names[i].name);
		else
			APPEND(" proto %u", r->proto);
	}
	if (r->src_plen != 0)
		APPEND(" src %s/%u", rt4_addr_str(r->src, a), r->src_plen);
	if (r->dst_plen != 0)
		APPEND(" dst %s/%u", rt4_addr_str(r->dst, a), r->dst_plen);
	n += fmt_ports(buf + RTE_MIN((size_t)n, len), len - RTE_MIN((size_t)n, len), "sport",
		r->sport_lo, r->sport_hi);
	n += fmt_ports(buf + RTE_MIN((size_t)n, len), len - RTE_MIN((size_t)n, len), "dport",
		r->dport_lo, r->dport_hi);
#undef APPEND
	(void)k;
	return n;
}

bool
rt_acl_rule_match(const struct rt_acl_rule *r, const struct rt_acl_input *in)
{
	uint32_t src = rte_be_to_cpu_32(in->src), dst = rte_be_to_cpu_32(in->dst);
	uint16_t sp = rte_be_to_cpu_16(in->sport), dp = rte_be_to_cpu_16(in->dport);

	return (!r->has_proto || r->proto == in->proto) &&
	       ((src ^ r->src) & rt4_mask(r->src_plen)) == 0 &&
	       ((dst ^ r->dst) & rt4_mask(r->dst_plen)) == 0 && sp >= r->sport_lo &&
	       sp <= r->sport_hi && dp >= r->dport_lo && dp <= r->dport_hi;
}

struct rt_acl *
rt_acl_create(struct rte_rcu_qsbr *qsbr, int socket)
{
	struct rt_acl *acl = rte_zmalloc_socket("rt_acl", sizeof(*acl), 0, socket);

	if (acl == NULL) {
		rte_errno = ENOMEM;
		return NULL;
	}
	acl->qsbr = qsbr;
	acl->socket = socket;
	return acl;
}

static void
ver_free(struct rt_acl_ver *v)
{
	if (v == NULL)
		return;
	rte_acl_free(v->ctx);
	rte_free(v);
}

void
rt_acl_free(struct rt_acl *acl)
{
	if (acl == NULL)
		return;
	ver_free(acl->ver);
	rte_free(acl);
}

/* Compile rules[0..n) into a new version. */
static struct rt_acl_ver *
build(struct rt_acl *acl, const struct rt_acl_rule *rules, const uint8_t *slots, uint32_t n)
{
	static uint32_t seq; /* rte_acl names are process-wide; writers are serialised */
	struct rte_acl_config bcfg = {.num_categories = 1, .num_fields = F_NUM};
	struct rt_acl_ver *v = rte_zmalloc_socket("rt_acl_ver", sizeof(*v), 0, acl->socket);
	char name[RTE_ACL_NAMESIZE];
	uint32_t i;

	if (v == NULL)
		return NULL;
	v->n = n;
	if (n == 0)
		return v;
	snprintf(name, sizeof(name), "rt_acl_%u", __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	v->ctx = rte_acl_create(&(struct rte_acl_param){
		.name = name,
		.socket_id = acl->socket,
		.rule_size = RTE_ACL_RULE_SZ(F_NUM),
		.max_rule_num = RT_ACL_MAX_RULES,
	});
	if (v->ctx == NULL)
		goto fail;
	for (i = 0; i < n; i++) {
		const struct rt_acl_rule *r = &rules[i];
		struct rt_acl_rule_def d;

		memset(&d, 0, sizeof(d));
		d.data.category_mask = 1;
		/* rte_acl takes the highest priority: earlier rules rank higher */
		d.data.priority = (int32_t)(RT_ACL_MAX_RULES - i);
		d.data.userdata = i + 1;
		d.field[F_PROTO].value.u8 = r->has_proto ? r->proto : 0;
		d.field[F_PROTO].mask_range.u8 = r->has_proto ? 0xff : 0;
		d.field[F_SRC].value.u32 = r->src;
		d.field[F_SRC].mask_range.u32 = r->src_plen;
		d.field[F_DST].value.u32 = r->dst;
		d.field[F_DST].mask_range.u32 = r->dst_plen;
		d.field[F_SPORT].value.u16 = r->sport_lo;
		d.field[F_SPORT].mask_range.u16 = r->sport_hi;
		d.field[F_DPORT].value.u16 = r->dport_lo;
		d.field[F_DPORT].mask_range.u16 = r->dport_hi;
		if (rte_acl_add_rules(v->ctx, (const struct rte_acl_rule *)&d, 1) != 0)
			goto fail;
		v->slot[i] = slots[i];
		v->action[i] = r->action;
	}
	memcpy(bcfg.defs, field_defs, sizeof(field_defs));
	if (rte_acl_build(v->ctx, &bcfg) != 0)
		goto fail;
	return v;
fail:
	ver_free(v);
	return NULL;
}

/* Publish @p v, then free the old version once no worker can be using it. */
static void
publish(struct rt_acl *acl, struct rt_acl_ver *v)
{
	struct rt_acl_ver *old = acl->ver;

	__atomic_store_n(&acl->ver, v, __ATOMIC_RELEASE);
	__atomic_fetch_add(&acl->gen, 1, __ATOMIC_RELEASE);
	if (acl->qsbr != NULL)
		rte_rcu_qsbr_synchronize(acl->qsbr, RTE_QSBR_THRID_INVALID);
	ver_free(old);
}

/*
 * Insert the @p n rules at @p r before position @p pos, each in a free counter
 * slot, and publish the list, compiled once.
 */
static int
insert(struct rt_acl *acl, const struct rt_acl_rule *r, uint32_t n, uint32_t pos, char *err,
	size_t errlen)
{
	struct rt_acl_rule rules[RT_ACL_MAX_RULES];
	uint8_t slots[RT_ACL_MAX_RULES], taken[RT_ACL_MAX_RULES];
	struct rt_acl_ver *v;
	uint32_t i, s = 0;

	if (n == 0)
		return 0;
	if (n > RT_ACL_MAX_RULES - acl->n) {
		snprintf(err, errlen, "more than %d filter rules", RT_ACL_MAX_RULES);
		return -ENOSPC;
	}
	if (pos > acl->n)
		pos = acl->n;
	memcpy(rules, acl->rules, pos * sizeof(rules[0]));
	memcpy(slots, acl->slot, pos);
	memcpy(taken, acl->slot_map, sizeof(taken));
	for (i = 0; i < n; i++) {
		while (taken[s])
			s++;
		taken[s] = 1;
		rules[pos + i] = r[i];
		slots[pos + i] = (uint8_t)s;
	}
	memcpy(&rules[pos + n], &acl->rules[pos], (acl->n - pos) * sizeof(rules[0]));
	memcpy(&slots[pos + n], &acl->slot[pos], acl->n - pos);
	v = build(acl, rules, slots, acl->n + n);
	if (v == NULL) {
		snprintf(err, errlen, "cannot compile the filter rules: %s",
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	/* a new rule in a slot: the workers' counts of the old one start again */
	for (i = 0; i < n; i++) {
		s = slots[pos + i];
		__atomic_fetch_add(&acl->slot_epoch[s], 1, __ATOMIC_RELEASE);
		acl->slot_map[s] = 1;
	}
	memcpy(acl->rules, rules, (acl->n + n) * sizeof(rules[0]));
	memcpy(acl->slot, slots, acl->n + n);
	acl->n += n;
	publish(acl, v);
	return 0;
}

int
rt_acl_add(struct rt_acl *acl, const struct rt_acl_rule *r, uint32_t pos, char *err, size_t errlen)
{
	return insert(acl, r, 1, pos, err, errlen);
}

int
rt_acl_append(struct rt_acl *acl, const struct rt_acl_rule *r, uint32_t n, char *err, size_t errlen)
{
	/* one compile for the whole list: a config's rules, not one build per rule */
	return insert(acl, r, n, UINT32_MAX, err, errlen);
}

int
rt_acl_del(struct rt_acl *acl, uint32_t pos, char *err, size_t errlen)
{
	struct rt_acl_rule rules[RT_ACL_MAX_RULES];
	uint8_t slots[RT_ACL_MAX_RULES];
	struct rt_acl_ver *v;
	uint8_t s;

	if (pos >= acl->n) {
		snprintf(err, errlen, "no filter rule %u (there are %u)", pos, acl->n);
		return -ENOENT;
	}
	s = acl->slot[pos];
	memcpy(rules, acl->rules, pos * sizeof(rules[0]));
	memcpy(slots, acl->slot, pos);
	memcpy(&rules[pos], &acl->rules[pos + 1], (acl->n - pos - 1) * sizeof(rules[0]));
	memcpy(&slots[pos], &acl->slot[pos + 1], acl->n - pos - 1);
	v = build(acl, rules, slots, acl->n - 1);
	if (v == NULL) {
		snprintf(err, errlen, "cannot compile the filter rules: %s",
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	acl->n--;
	memcpy(acl->rules, rules, acl->n * sizeof(rules[0]));
	memcpy(acl->slot, slots, acl->n);
	publish(acl, v);
	acl->slot_map[s] = 0;
	return 0;
}
