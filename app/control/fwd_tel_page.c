/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_telemetry.h>

#include "dpdk_compat.h"
#include "fwd_app.h"
#include "fwd_tel_page.h"

void
fwd_tel_page_init(struct fwd_tel_page *pg, const char *cmd, unsigned int head)
{
	/* {"CMD":{...}} and the terminating NUL the library keeps room for */
	size_t frame = strlen(cmd) + 8;

	pg->left = FWD_TEL_REPLY_MAX - frame - (size_t)head * FWD_TEL_HEAD_ENTRY;
	pg->entries = RTE_TEL_MAX_DICT_ENTRIES - head;
}

size_t
fwd_tel_str_bytes(const char *s)
{
	size_t n = 3, i; /* quotes and a comma */

	for (i = 0; s[i] != '\0' && i < RTE_TEL_MAX_STRING_LEN - 1; i++) {
		const unsigned char c = (unsigned char)s[i];

		/* a library that escapes writes \" \\ as two and a control character as \u00XX */
		n += c == '"' || c == '\\' ? 2 : c < 0x20 ? 6 : 1;
	}
	return n;
}

size_t
fwd_tel_key_bytes(const char *key)
{
	return fwd_tel_str_bytes(key) + 1; /* the colon */
}

size_t
fwd_tel_u64_bytes(const char *key, uint64_t v)
{
	size_t n = fwd_tel_key_bytes(key) + 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

bool
fwd_tel_page_take(struct fwd_tel_page *pg, size_t bytes)
{
	if (pg->entries == 0 || bytes > pg->left)
		return false;
	pg->left -= bytes;
	pg->entries--;
	return true;
}

int
fwd_tel_param_uint(const char *params, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	const char *c;

	if (params == NULL || *params == '\0')
		return -EINVAL;
	for (c = params; *c != '\0'; c++) {
		uint64_t digit = (uint64_t)(*c - '0');

		if (*c < '0' || *c > '9' || digit > max || x > (max - digit) / 10)
			return -EINVAL;
		x = x * 10 + digit;
	}
	*v = x;
	return 0;
}

void
fwd_tel_u64(struct rte_tel_data *d, size_t *bytes, const char *key, uint64_t v)
{
	rte_tel_data_add_dict_u64(d, key, v);
	*bytes += fwd_tel_u64_bytes(key, v);
}

void
fwd_tel_lcore_page(const struct fwd_app *app, struct rte_tel_data *d, struct fwd_tel_page *pg,
	uint64_t start, fwd_tel_lcore_fill fill)
{
	unsigned int i, count = 0;

	for (i = (unsigned int)RTE_MIN(start, (uint64_t)app->n_workers); i < app->n_workers; i++) {
		const struct fwd_lcore *lc = app->workers[i];
		struct rte_tel_data *one = rte_tel_data_alloc();
		size_t bytes = fwd_tel_key_bytes("lcoreNNNN") + 2; /* the key, { and } */
		char key[32];

		if (one == NULL)
			break;
		rte_tel_data_start_dict(one);
		if (!fill(one, lc, &bytes)) {
			rte_tel_data_free(one);
			continue;
		}
		if (!fwd_tel_page_take(pg, bytes)) {
			rte_tel_data_free(one);
			break; /* the page ends here: "next" names this worker */
		}
		snprintf(key, sizeof(key), "lcore%u", lc->lcore_id);
		rte_tel_data_add_dict_container(d, key, one, 0);
		count++;
	}
	rte_tel_data_add_dict_u64(d, "start", start);
	rte_tel_data_add_dict_u64(d, "count", count);
	rte_tel_data_add_dict_u64(d, "more", i < app->n_workers);
	if (i < app->n_workers)
		rte_tel_data_add_dict_u64(d, "next", i);
}
