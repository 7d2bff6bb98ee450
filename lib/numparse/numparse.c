/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "numparse.h"

/* not isdigit(): no locale may widen the rule */
static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int
num_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	int over = 0;

	if (s == NULL || !is_digit(*s))
		return -EINVAL;
	for (; is_digit(*s); s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			over = 1; /* keep reading: "99999999999999999999x" is junk, not range */
		else
			v = v * 10 + d;
	}
	if (*s != '\0')
		return -EINVAL;
	if (over || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int
num_real(const char *s, const char **end, double *out)
{
	char buf[64];
	const char *p = s;
	size_t n;

	if (s == NULL || !is_digit(*p))
		return -EINVAL;
	while (is_digit(*p))
		p++;
	if (*p == '.') {
		if (!is_digit(p[1]))
			return -EINVAL;
		for (p++; is_digit(*p); p++)
			;
	}
	if (end != NULL)
		*end = p;
	else if (*p != '\0')
		return -EINVAL;
	n = (size_t)(p - s);
	if (n >= sizeof(buf))
		return -ERANGE;
	/* strtod rounds correctly; on a copy, so it cannot read an exponent past the rule */
	memcpy(buf, s, n);
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	return 0;
}

int
num_secs(const char *s, double max, double *out)
{
	double v;
	int ret = num_real(s, NULL, &v);

	if (ret < 0)
		return ret;
	if (v > max || (v != 0 && v < NUM_SECS_MIN))
		return -ERANGE;
	*out = v;
	return 0;
}
