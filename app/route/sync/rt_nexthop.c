/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <libmnl/libmnl.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "rt_nexthop.h"

#define RT_NH_NAME(sym, name, desc) name,
#define RT_NH_DESC(sym, name, desc) desc,
static const char *const reason_name[] = {RT_NH_REASONS(RT_NH_NAME)};
static const char *const reason_desc[] = {RT_NH_REASONS(RT_NH_DESC)};
#undef RT_NH_NAME
#undef RT_NH_DESC

const char *
rt_nh_reason_name(enum rt_nh_reason why)
{
	return (unsigned int)why < RT_NH_REASON_MAX ? reason_name[why] : "?";
}

const char *
rt_nh_reason_desc(enum rt_nh_reason why)
{
	return (unsigned int)why < RT_NH_REASON_MAX ? reason_desc[why] : "?";
}

/* What the attribute walk of one next-hop message collects. */
struct nh_walk {
	struct rt_nh_msg *m;
	enum rt_nh_reason why;
	bool has_id, blackhole, has_group, gw6;
};

static int
nh_attr(const struct nlattr *a, void *data)
{
	struct nh_walk *w = data;
	const uint16_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case NHA_ID:
		if (len != sizeof(uint32_t))
			goto bad;
		w->m->id = mnl_attr_get_u32(a);
		w->has_id = true;
		break;
	case NHA_GATEWAY:
		if (len == 16) { /* an IPv6 gateway (RFC 5549 or an AF_INET6 object) */
			w->gw6 = true;
			break;
		}
		if (len != sizeof(uint32_t))
			goto bad;
		w->m->gw = ntohl(mnl_attr_get_u32(a));
		break;
	case NHA_OIF:
		if (len != sizeof(uint32_t))
			goto bad;
		w->m->oif = mnl_attr_get_u32(a);
		break;
	case NHA_BLACKHOLE:
		w->blackhole = true;
		break;
	case NHA_GROUP: {
		const struct nexthop_grp *g = mnl_attr_get_payload(a);
		unsigned int i, n = len / sizeof(*g);

		if (len == 0 || len % sizeof(*g) != 0)
			goto bad;
		if (n > RT_ECMP_MAX) {
			w->why = RT_NH_TOO_MANY;
			return MNL_CB_ERROR;
		}
		for (i = 0; i < n; i++) {
			uint32_t id;

			memcpy(&id, &g[i].id, sizeof(id)); /* the payload is only 4-aligned */
			if (id == 0)
				goto bad;
			w->m->members[i] = id;
		}
		w->m->n = (uint8_t)n;
		w->has_group = true;
		break;
	}
	case NHA_ENCAP:
		w->m->encap = true;
		break;
	case NHA_ENCAP_TYPE:
		if (len != sizeof(uint16_t))
			goto bad;
		w->m->encap = true;
		w->m->encap_type = mnl_attr_get_u16(a);
		break;
	default:
		break; /* NHA_GROUP_TYPE, NHA_FDB, ...: nothing here needs them */
	}
	return MNL_CB_OK;
bad:
	w->why = RT_NH_BAD_ATTR;
	return MNL_CB_ERROR;
}

enum rt_nh_reason
rt_nh_parse(const void *buf, size_t len, struct rt_nh_msg *m)
{
	const struct nlmsghdr *nlh = buf;
	const struct nhmsg *nhm;
	struct nh_walk w = {.m = m};

	if (len < sizeof(*nlh) || nlh->nlmsg_len < sizeof(*nlh) || nlh->nlmsg_len > len)
		return RT_NH_TRUNCATED;
	if (nlh->nlmsg_type != RTM_NEWNEXTHOP && nlh->nlmsg_type != RTM_DELNEXTHOP)
		return RT_NH_NOT_NEXTHOP;
	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*nhm)))
		return RT_NH_TRUNCATED;
	nhm = mnl_nlmsg_get_payload(nlh);
	memset(m, 0, sizeof(*m));
	m->del = nlh->nlmsg_type == RTM_DELNEXTHOP;
	if (mnl_attr_parse(nlh, sizeof(*nhm), nh_attr, &w) < 0)
		return w.why != RT_NH_OK ? w.why : RT_NH_BAD_ATTR;
	if (!w.has_id || m->id == 0)
		return RT_NH_BAD_ATTR;
	if (m->del)
		return RT_NH_OK;
	if (w.has_group) {
		/* a group is AF_UNSPEC; its members say what they are (and have the encap) */
		if (w.blackhole || m->gw != 0 || m->oif != 0 || m->encap)
			return RT_NH_BAD_ATTR;
		m->kind = RT_NHO_GROUP;
		return RT_NH_OK;
	}
	if (w.blackhole) {
		m->kind = RT_NHO_BLACKHOLE;
		m->gw = m->oif = 0;
		m->encap = false; /* nothing leaves: nothing to encapsulate */
		m->encap_type = 0;
		return RT_NH_OK;
	}
	if (nhm->nh_family != AF_INET || w.gw6)
		return RT_NH_NOT_INET;
	if (m->gw == 0 && m->oif == 0)
		return RT_NH_EMPTY;
	m->kind = RT_NHO_GATEWAY;
	return RT_NH_OK;
}

/* One object, chained in its bucket. */
struct nh_obj {
	struct nh_obj *next;
	struct rt_nh_msg m;
};

struct rt_nh_table {
	struct nh_obj **bucket;
	uint32_t n_buckets; /* a power of 2 */
	uint32_t n;
};

static inline uint32_t
nh_hash(uint32_t id, uint32_t n_buckets)
{
	return (uint32_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) & (n_buckets - 1);
}

struct rt_nh_table *
rt_nh_table_create(void)
{
	struct rt_nh_table *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->n_buckets = 256;
	t->bucket = calloc(t->n_buckets, sizeof(*t->bucket));
	if (t->bucket == NULL) {
		free(t);
		return NULL;
	}
	return t;
}

void
rt_nh_table_flush(struct rt_nh_table *t)
{
	uint32_t i;

	for (i = 0; i < t->n_buckets; i++)
		while (t->bucket[i] != NULL) {
			struct nh_obj *o = t->bucket[i];

			t->bucket[i] = o->next;
			free(o);
		}
	t->n = 0;
}

void
rt_nh_table_free(struct rt_nh_table *t)
{
	if (t == NULL)
		return;
	rt_nh_table_flush(t);
	free(t->bucket);
	free(t);
}

uint32_t
rt_nh_table_count(const struct rt_nh_table *t)
{
	return t->n;
}

static struct nh_obj **
find(const struct rt_nh_table *t, uint32_t id)
{
	struct nh_obj **o = &t->bucket[nh_hash(id, t->n_buckets)];

	while (*o != NULL && (*o)->m.id != id)
		o = &(*o)->next;
	return o;
}

static const struct rt_nh_msg *
lookup(const struct rt_nh_table *t, uint32_t id)
{
	const struct nh_obj *o = *find(t, id);

	return o != NULL ? &o->m : NULL;
}

/* Twice the buckets when there are more objects than buckets (chains stay short). */
static void
grow(struct rt_nh_table *t)
{
	uint32_t nb = t->n_buckets * 2, i;
	struct nh_obj **b = calloc(nb, sizeof(*b));

	if (b == NULL)
		return; /* longer chains, still correct */
	for (i = 0; i < t->n_buckets; i++)
		while (t->bucket[i] != NULL) {
			struct nh_obj *o = t->bucket[i];
			uint32_t h = nh_hash(o->m.id, nb);

			t->bucket[i] = o->next;
			o->next = b[h];
			b[h] = o;
		}
	free(t->bucket);
	t->bucket = b;
	t->n_buckets = nb;
}

enum rt_nh_reason
rt_nh_table_apply(struct rt_nh_table *t, const struct rt_nh_msg *m)
{
	struct nh_obj **slot = find(t, m->id), *o;
	unsigned int i;

	if (m->del) {
		if (*slot == NULL)
			return RT_NH_UNKNOWN;
		o = *slot;
		*slot = o->next;
		free(o);
		t->n--;
		return RT_NH_OK;
	}
	for (i = 0; m->kind == RT_NHO_GROUP && i < m->n; i++) {
		const struct rt_nh_msg *mb = lookup(t, m->members[i]);

		if (mb == NULL)
			return RT_NH_UNKNOWN;
		if (mb->kind != RT_NHO_GATEWAY)
			return RT_NH_NESTED;
	}
	if (*slot != NULL) {
		/* a group must not become a member of itself or of another group */
		if ((*slot)->m.kind == RT_NHO_GATEWAY && m->kind != RT_NHO_GATEWAY) {
			for (i = 0; i < t->n_buckets; i++)
				for (o = t->bucket[i]; o != NULL; o = o->next) {
					unsigned int k;

					for (k = 0; o->m.kind == RT_NHO_GROUP && k < o->m.n; k++)
						if (o->m.members[k] == m->id)
							return RT_NH_NESTED;
				}
		}
		(*slot)->m = *m;
		return RT_NH_OK;
	}
	if (t->n >= RT_NH_MAX)
		return RT_NH_FULL;
	o = malloc(sizeof(*o));
	if (o == NULL)
		return RT_NH_FULL;
	o->m = *m;
	o->next = NULL;
	*slot = o;
	t->n++;
	if (t->n > t->n_buckets)
		grow(t);
	return RT_NH_OK;
}

bool
rt_nh_table_has(const struct rt_nh_table *t, uint32_t id)
{
	return lookup(t, id) != NULL;
}

bool
rt_nh_table_same(const struct rt_nh_table *t, const struct rt_nh_msg *m)
{
	const struct rt_nh_msg *o = lookup(t, m->id);

	if (o == NULL || m->del || o->kind != m->kind || o->gw != m->gw || o->oif != m->oif ||
		o->encap != m->encap || o->encap_type != m->encap_type)
		return false;
	if (m->kind != RT_NHO_GROUP)
		return true;
	return o->n == m->n && memcmp(o->members, m->members, m->n * sizeof(m->members[0])) == 0;
}

bool
rt_nh_depends(const struct rt_nh_table *t, uint32_t id, uint32_t changed)
{
	const struct rt_nh_msg *nh;
	unsigned int i;

	if (id == changed)
		return true;
	nh = lookup(t, id);
	for (i = 0; nh != NULL && nh->kind == RT_NHO_GROUP && i < nh->n; i++)
		if (nh->members[i] == changed)
			return true;
	return false;
}

int
rt_nh_resolve(const struct rt_nh_table *t, struct rt_nl_route *r)
{
	const struct rt_nh_msg *nh;
	unsigned int i;

	if (r->nh_id == 0 || r->del || r->kind != RT_ROUTE_VIA)
		return 0;
	nh = lookup(t, r->nh_id);
	if (nh == NULL)
		return -ENOENT;
	r->n_hops = 0;
	switch (nh->kind) {
	case RT_NHO_BLACKHOLE:
		r->kind = RT_ROUTE_BLACKHOLE;
		return 0;
	case RT_NHO_GATEWAY:
		if (nh->encap) {
			r->encap = nh->encap_type;
			return -ENOTSUP;
		}
		r->hops[0] = (struct rt_nl_hop){.gw = nh->gw, .ifindex = nh->oif, .weight = 1};
		r->n_hops = 1;
		return 0;
	default:
		break;
	}
	for (i = 0; i < nh->n; i++) {
		const struct rt_nh_msg *mb = lookup(t, nh->members[i]);

		/* a member deleted after its group was made (the kernel drops it from the group) */
		if (mb == NULL || mb->kind != RT_NHO_GATEWAY)
			continue;
		if (mb->encap) {
			/* one member tunnelled among plain ones: the whole route is refused */
			r->n_hops = 0;
			r->encap = mb->encap_type;
			return -ENOTSUP;
		}
		r->hops[r->n_hops++] =
			(struct rt_nl_hop){.gw = mb->gw, .ifindex = mb->oif, .weight = 1};
	}
	return r->n_hops > 0 ? 0 : -ENOENT;
}
