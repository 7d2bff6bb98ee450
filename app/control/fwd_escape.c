/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <stdarg.h>
#include <stdio.h>

#include "fwd_escape.h"

/* longer than any message: FWD_ERR_LEN plus a quoted config line */
#define ESC_MSG_MAX 2048

size_t
fwd_escape(char *dst, size_t len, const char *src, int keep_lines)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (len == 0)
		return 0;
	for (; *src != '\0'; src++) {
		unsigned char c = (unsigned char)*src;

		if ((c >= 0x20 && c < 0x7f) || (keep_lines && (c == '\n' || c == '\t'))) {
			if (n + 1 >= len)
				break;
			dst[n++] = (char)c;
			continue;
		}
		if (n + 4 >= len)
			break;
		dst[n++] = '\\';
		dst[n++] = 'x';
		dst[n++] = hex[c >> 4];
		dst[n++] = hex[c & 0xf];
	}
	dst[n] = '\0';
	return n;
}

static void
vprint_escaped(FILE *f, const char *prefix, const char *fmt, va_list ap, int keep_lines)
{
	char msg[ESC_MSG_MAX], out[4 * ESC_MSG_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fwd_escape(out, sizeof(out), msg, keep_lines);
	fprintf(f, "%s%s", prefix, out);
}

void
fwd_fprintf_escaped(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_escaped(f, "", fmt, ap, 1);
	va_end(ap);
}

void
fwd_err_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* one line: a newline in a quoted value is escaped too */
	vprint_escaped(stderr, "dpdk-forwarder: error: ", fmt, ap, 0);
	va_end(ap);
	fputc('\n', stderr);
}
