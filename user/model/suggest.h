/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "Did you mean": the known name closest to what was typed, by edit
 * distance (insertions, deletions, substitutions and swaps of two
 * neighbours each cost one), when it is close enough to be a typo.
 */
#ifndef PFT_SUGGEST_H
#define PFT_SUGGEST_H

#include <stddef.h>

/* Edit distance between A and B (optimal string alignment), capped at 255. */
int edit_distance(const char *a, const char *b);
/*
 * The name in NAMES[0..n) closest to GIVEN, or NULL when none is within
 * a third of GIVEN's length (at least 1, at most 3) edits.
 */
const char *suggest_name(const char *given, const char *const *names, size_t n);

#endif
