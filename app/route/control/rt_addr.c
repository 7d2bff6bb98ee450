/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "numparse.h"
#include "rt_addr.h"

const char *
rt4_addr_str(uint32_t ip, char *buf)
{
	snprintf(buf, RT4_ADDR_STRLEN, "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff,
		ip & 0xff);
	return buf;
}

int
rt4_addr_parse(const char *s, uint32_t *ip)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned int octet = 0, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			octet = octet * 10 + (unsigned int)(*s++ - '0');
			digits++;
		}
		if (digits == 0 || digits > 3 || octet > 255)
			return -EINVAL;
		v = v << 8 | octet;
		if (i < 3 && *s++ != '.')
			return -EINVAL;
	}
	if (*s != '\0')
		return -EINVAL;
	*ip = v;
	return 0;
}

int
rt4_prefix_parse(const char *s, uint32_t *ip, uint8_t *plen, bool need_len)
{
	char buf[32];
	const char *slash = strchr(s, '/');
	size_t n = slash != NULL ? (size_t)(slash - s) : strlen(s);
	uint64_t len;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (rt4_addr_parse(buf, ip) < 0)
		return -EINVAL;
	if (slash == NULL) {
		if (need_len)
			return -EINVAL;
		*plen = 32;
		return 0;
	}
	if (num_u64(slash + 1, 0, 32, &len) < 0)
		return -EINVAL;
	*plen = (uint8_t)len;
	return 0;
}
