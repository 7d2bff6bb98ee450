/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <string.h>

#include "fwd_suggest.h"

/* longer names are not worth a suggestion and would need a bigger row */
#define FWD_SUGGEST_MAX 64

unsigned int
fwd_edit_distance(const char *a, const char *b)
{
	/* three rows: a swap of two letters ("brust") counts as one edit */
	unsigned int rows[3][FWD_SUGGEST_MAX + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la > FWD_SUGGEST_MAX || lb > FWD_SUGGEST_MAX)
		return FWD_SUGGEST_MAX;
	for (j = 0; j <= lb; j++)
		rows[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		unsigned int *cur = rows[i % 3], *up = rows[(i - 1) % 3], *up2 = rows[(i + 1) % 3];

		cur[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			unsigned int best = up[j - 1] + (a[i - 1] != b[j - 1]);

			if (up[j] + 1 < best)
				best = up[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
				up2[j - 2] + 1 < best)
				best = up2[j - 2] + 1;
			cur[j] = best;
		}
	}
	return rows[la % 3][lb];
}

void
fwd_suggest_consider(const char *typed, const char *cand, const char **best, unsigned int *best_d)
{
	unsigned int d = fwd_edit_distance(typed, cand);
	/* a third of the word may be wrong, at least one letter, at most three */
	unsigned int limit = (unsigned int)strlen(typed) / 3;

	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	if (d <= limit && d < *best_d) {
		*best = cand;
		*best_d = d;
	}
}
