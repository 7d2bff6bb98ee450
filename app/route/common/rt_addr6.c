/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "numparse.h"
#include "rt_addr6.h"

/*
 * The text forms are RFC 4291 §2.2's, which the C library's inet_pton() reads exactly (at most
 * four hex digits a group, one "::", a dotted quad only as the last 32 bits, without leading
 * zeros in its octets): its reader, not one of ours. Its writer is not RFC 5952's everywhere
 * (glibc writes ::0.1.0.2 for ::1:2, the deprecated IPv4-compatible form), so the writer is
 * ours.
 */
int
rt6_addr_parse(const char *s, struct rt6_addr *x)
{
	struct rt6_addr v;

	if (s == NULL || inet_pton(AF_INET6, s, &v) != 1)
		return -EINVAL;
	*x = v;
	return 0;
}

int
rt6_prefix_parse(const char *s, struct rt6_addr *x, uint8_t *plen, bool need_len)
{
	char buf[RT6_ADDR_STRLEN];
	const char *slash = strchr(s, '/');
	const size_t n = slash != NULL ? (size_t)(slash - s) : strlen(s);
	struct rt6_addr v;
	uint64_t len;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (rt6_addr_parse(buf, &v) < 0)
		return -EINVAL;
	if (slash == NULL) {
		if (need_len)
			return -EINVAL;
		len = 128;
	} else if (num_u64(slash + 1, 0, 128, &len) < 0) {
		return -EINVAL;
	}
	*x = v;
	*plen = (uint8_t)len;
	return 0;
}

const char *
rt6_addr_str(const struct rt6_addr *x, char *buf)
{
	unsigned int g[8], i, best = 8, best_n = 0, run = 0;
	char *p = buf;

	for (i = 0; i < 8; i++)
		g[i] = (unsigned int)x->a[2 * i] << 8 | x->a[2 * i + 1];
	if (rt6_addr_is_v4mapped(x)) { /* RFC 5952 §5 */
		snprintf(buf, RT6_ADDR_STRLEN, "::ffff:%u.%u.%u.%u", x->a[12], x->a[13], x->a[14],
			x->a[15]);
		return buf;
	}
	/* the longest run of zero groups, the first of equal ones (§4.2.3), two at least (§4.2.2) */
	for (i = 0; i < 8; i++) {
		run = g[i] == 0 ? run + 1 : 0;
		if (run > best_n) {
			best_n = run;
			best = i + 1 - run;
		}
	}
	if (best_n < 2)
		best = 8;
	for (i = 0; i < 8; i++) {
		if (i == best) {
			*p++ = ':';
			if (i == 0)
				*p++ = ':';
			i += best_n - 1;
			continue;
		}
		p += sprintf(p, "%x", g[i]); /* lower case, no leading zeros (§4.1, §4.3) */
		if (i < 7)
			*p++ = ':';
	}
	*p = '\0';
	return buf;
}

const char *
rt6_prefix_str(const struct rt6_addr *x, uint8_t plen, char *buf)
{
	char a[RT6_ADDR_STRLEN];

	snprintf(buf, RT6_PREFIX_STRLEN, "%s/%u", rt6_addr_str(x, a), plen);
	return buf;
}
