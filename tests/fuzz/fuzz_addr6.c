/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: any bytes as the text of an IPv6 address and of a prefix (rt_addr6.h).
 * No EAL, no table. Must never crash or read past the text; what parses must write back in
 * RFC 5952 form within RT6_ADDR_STRLEN, read back as the same address, and write the same
 * text again (the canonical form is a fixed point); a prefix's length is 0..128. The first
 * byte says whether a prefix needs its length.
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_addr6.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
round_trip(const struct rt6_addr *x)
{
	char b1[RT6_ADDR_STRLEN], b2[RT6_ADDR_STRLEN];
	struct rt6_addr y;

	rt6_addr_str(x, b1);
	if (strlen(b1) >= RT6_ADDR_STRLEN || rt6_addr_parse(b1, &y) != 0 || !rt6_addr_eq(x, &y) ||
		strcmp(rt6_addr_str(&y, b2), b1) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rt6_addr x;
	uint8_t plen;
	char *s;

	if (size == 0)
		return 0;
	/* exactly the text, NUL-terminated, in a buffer of its size: ASan sees any overrun */
	s = malloc(size);
	if (s == NULL)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (rt6_addr_parse(s, &x) == 0)
		round_trip(&x);
	if (rt6_prefix_parse(s, &x, &plen, data[0] & 1) == 0) {
		char p[RT6_PREFIX_STRLEN];

		if (plen > 128)
			abort();
		round_trip(&x);
		rt6_prefix_str(&x, plen, p);
		rt6_addr_mask(&x, plen);
		if (rt6_addr_has_host_bits(&x, plen))
			abort();
	}
	/* the 16 bytes themselves as an address */
	if (size >= 16) {
		memcpy(&x, data, 16);
		round_trip(&x);
	}
	free(s);
	return 0;
}
