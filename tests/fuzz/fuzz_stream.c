/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * libFuzzer target: the generator's stream parser (lib/pktgen's
 * pktgen_stream_set() and pktgen_stream_check(), what `pktgen set KEY VALUE`
 * and the [pktgen] section call). Each input line is "KEY VALUE" or
 * "KEY = VALUE". Besides never crashing, it checks the promise of
 * pktgen_stream_print(): what it prints, pktgen_stream_set() reads back
 * without an error, into a stream that prints the same.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Split @p line at the first run of blanks or '=': key and value (both may be empty). */
static void
split(char *line, char **key, char **value)
{
	char *p = line + strcspn(line, " \t=");

	*key = line;
	if (*p == '\0') {
		*value = p;
		return;
	}
	*p++ = '\0';
	p += strspn(p, " \t=");
	*value = p;
}

/* Apply every "key = value" line of @p text to @p cfg; returns how many were refused. */
static unsigned int
apply(struct pktgen_stream_cfg *cfg, char *text)
{
	char err[256], *save = NULL, *line, *key, *value;
	unsigned int refused = 0;

	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		split(line, &key, &value);
		err[0] = '\0';
		if (pktgen_stream_set(cfg, key, value, err, sizeof(err)) < 0) {
			if (err[0] == '\0')
				abort(); /* every refusal says why */
			refused++;
		}
	}
	return refused;
}

static char *
print(const struct pktgen_stream_cfg *cfg, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (f == NULL)
		abort();
	pktgen_stream_print(cfg, f);
	fclose(f);
	return buf;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pktgen_stream_cfg cfg, back;
	char err[256], *text, *once, *twice;
	size_t n1, n2;

	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0'; /* a NUL inside ends the text, as in a C string */
	pktgen_stream_init(&cfg);
	apply(&cfg, text);
	free(text);
	(void)pktgen_stream_check(&cfg, err, sizeof(err));

	once = print(&cfg, &n1);
	pktgen_stream_init(&back);
	text = strdup(once);
	if (text == NULL)
		abort();
	if (apply(&back, text) != 0) /* what it printed, it must read */
		abort();
	free(text);
	twice = print(&back, &n2);
	if (n1 != n2 || memcmp(once, twice, n1) != 0)
		abort(); /* and read the same stream */
	free(once);
	free(twice);
	return 0;
}
