// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "suggest.h"

#define SUGGEST_MAX_LEN 64

int edit_distance(const char *a, const char *b)
{
	int d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	size_t n = strlen(a), m = strlen(b), i, j;

	if (n > SUGGEST_MAX_LEN || m > SUGGEST_MAX_LEN)
		return 255;
	for (i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (i = 1; i <= n; i++) {
		for (j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1], best = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			/* "lokup" for "look up": two neighbours swapped is one slip */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m] > 255 ? 255 : d[n][m];
}

const char *suggest_name(const char *given, const char *const *names, size_t n)
{
	int limit = (int)strlen(given) / 3, best = 256;
	const char *pick = NULL;
	size_t i;

	limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
	for (i = 0; i < n; i++) {
		int d = names[i] ? edit_distance(given, names[i]) : 256;

		if (d < best) {
			best = d;
			pick = names[i];
		}
	}
	return best <= limit ? pick : NULL;
}
