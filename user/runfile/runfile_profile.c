// SPDX-License-Identifier: GPL-2.0
/*
 * What a target says of who made its walks (--by) and of its code
 * (--sample's hottest instructions and prefetches), checked against its
 * counts as the writer guarantees them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runfile_reader.h"

/* a traced function's code, and the prefetches in it: past any kernel's */
#define PROFILE_MAX_BYTES (1 << 20)
#define PROFILE_MAX_PREFETCH 4096

/*
 * --by: the walks charged to who made them. Every count a count; the
 * rows, with the lookups no row took, no more than the target's lookups
 * (unless multiplied up by --sample-calls, "scaled"); rows by nodes
 * walked, most first, as pftrace writes them.
 */
int runfile_read_by(struct reader *r, struct json_object *o, const char *where,
		    const struct chain_stats *s, struct by_report *by)
{
	static const char *const keys[] = { "comm", "pid", "cgroup" };
	struct json_object *rows = rd_member(o, "rows");
	char bwhere[48];
	__u64 sum;
	size_t i, n;

	snprintf(bwhere, sizeof(bwhere), "%s.by", where);
	if (!json_object_is_type(o, json_type_object) || !rows ||
	    !json_object_is_type(rows, json_type_array))
		return rd_fail(r, "%s is not an object with \"rows\"", bwhere);
	by->key = rd_string(r, o, "key");
	for (i = 0; i < 3 && strcmp(by->key, keys[i]); i++)
		;
	if (i == 3)
		return rd_fail(r, "%s.key '%s'; pftrace writes comm, pid or cgroup", bwhere, by->key);
	if (rd_flag(r, o, bwhere, "scaled", &by->scaled) ||
	    rd_count(r, o, bwhere, "dropped", true, &by->dropped))
		return -1;
	n = json_object_array_length(rows);
	if (n > PFT_BY_MAX)
		return rd_fail(r, "%s has %zu rows; pftrace writes at most %d", bwhere, n, PFT_BY_MAX);
	by->rows = calloc(n + 1, sizeof(*by->rows));
	if (!by->rows)
		return rd_fail(r, "out of memory");
	sum = by->dropped;
	for (i = 0; i < n; i++) {
		struct json_object *row = json_object_array_get_idx(rows, i);
		struct by_row *b = &by->rows[i];

		by->nrows++;
		rd_string_into(r, row, "name", b->name, sizeof(b->name));
		if (rd_count(r, row, bwhere, "id", true, &b->id) ||
		    rd_count(r, row, bwhere, "lookups", true, &b->lookups) ||
		    rd_count(r, row, bwhere, "nodes", true, &b->nodes) ||
		    rd_count(r, row, bwhere, "misses", true, &b->misses) ||
		    rd_add(r, "by.rows", sum, b->lookups, &sum))
			return -1;
		if (b->misses > b->lookups)
			return rd_fail(r, "%s.rows[%zu]: %llu misses of %llu lookups", bwhere, i,
				       (unsigned long long)b->misses, (unsigned long long)b->lookups);
		if (i && (b->nodes > b[-1].nodes || (b->nodes == b[-1].nodes && b->lookups > b[-1].lookups)))
			return rd_fail(r, "%s.rows[%zu] is out of order (most nodes walked first)", bwhere, i);
	}
	if (!by->scaled && sum > s->lookups)
		return rd_fail(r, "%s: %llu lookups charged (dropped ones included), more than the "
			       "target's %llu", bwhere, (unsigned long long)sum, (unsigned long long)s->lookups);
	return r->failed ? -1 : 0;
}

/* an instruction of a profile, once per address: the same one named twice must agree */
static int profile_insn(struct reader *r, const char *where, struct function_profile *p,
			__u64 offset, __u64 samples, const char *text, const char *bytes, bool prefetch)
{
	struct annotated_insn *a;
	int i;

	for (i = 0; i < p->ninsns && p->insns[i].offset != offset; i++)
		;
	a = &p->insns[i];
	if (i == p->ninsns) {
		p->ninsns++;
		a->offset = (unsigned long)offset;
		a->samples = samples;
	} else if (a->samples != samples) {
		return rd_fail(r, "%s: the instruction at %llu has %llu samples and %llu", where,
			       (unsigned long long)offset, (unsigned long long)a->samples,
			       (unsigned long long)samples);
	}
	if (text[0])
		snprintf(a->text, sizeof(a->text), "%s", text);
	if (bytes[0])
		snprintf(a->bytes, sizeof(a->bytes), "%s", bytes);
	a->prefetch |= prefetch;
	return 0;
}

static int insn_offset_cmp(const void *a, const void *b)
{
	const struct annotated_insn *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* one "hottest" or "prefetch" entry: its address, samples, text and bytes */
static int read_insn(struct reader *r, struct json_object *e, const char *where,
		     const struct function_profile *p, __u64 *offset, __u64 *samples,
		     struct annotated_insn *text)
{
	rd_string_into(r, e, "instruction", text->text, sizeof(text->text));
	rd_string_into(r, e, "bytes", text->bytes, sizeof(text->bytes));
	if (rd_count(r, e, where, "offset", true, offset) ||
	    rd_count(r, e, where, "samples", true, samples))
		return -1;
	if ((p->size && *offset >= p->size) || *samples > p->samples)
		return rd_fail(r, "%s: an instruction at %llu with %llu samples, in a function of %lu "
			       "bytes and %llu samples", where, (unsigned long long)*offset,
			       (unsigned long long)*samples, p->size, (unsigned long long)p->samples);
	return r->failed ? -1 : 0;
}

/* An instruction's length from its bytes as annotate writes them, "0f 18 08"; 0 if not such. */
static size_t insn_length(const char *bytes)
{
	size_t len = strlen(bytes), i;

	if (len < 2 || len % 3 != 2)
		return 0;
	for (i = 0; i < len; i++)
		if (i % 3 == 2 ? bytes[i] != ' ' : !strchr("0123456789abcdef", bytes[i]))
			return 0;
	return (len + 1) / 3;
}

/*
 * A prefetch instruction and the one after it (its address plus its
 * length, from its bytes), whose samples show the stall by skid.
 */
static int read_prefetch(struct reader *r, struct json_object *e, const char *where,
			 struct function_profile *p)
{
	struct annotated_insn text = { 0 };
	__u64 offset, samples, next;
	size_t len;

	if (read_insn(r, e, where, p, &offset, &samples, &text) ||
	    rd_count(r, e, where, "next_samples", true, &next))
		return -1;
	len = insn_length(text.bytes);
	if (!len)
		return rd_fail(r, "%s: bytes '%s' are no instruction's", where, text.bytes);
	if (next > p->samples)
		return rd_fail(r, "%s: next_samples %llu of %llu", where, (unsigned long long)next,
			       (unsigned long long)p->samples);
	return profile_insn(r, where, p, offset, samples, text.text, text.bytes, true) ||
	       profile_insn(r, where, p, offset + len, next, "", "", false);
}

/*
 * The samples on a traced function's code: its hottest instructions and
 * its prefetches, put back as the instructions they came from. The
 * hottest must be those instructions' hottest, a prefetch's next
 * instruction must follow it, and the samples must be the function's.
 */
int runfile_read_profile(struct reader *r, struct json_object *v, const char *where,
			 struct function_profile *p)
{
	struct json_object *hot = rd_member(v, "hottest"), *pf = rd_member(v, "prefetch");
	int idx[PFT_HOTTEST], n, i;
	char pwhere[48];
	__u64 size, sum = 0;
	size_t nhot, npf, k;

	snprintf(pwhere, sizeof(pwhere), "%s.samples", where);
	if (rd_count(r, v, pwhere, "size", false, &size) ||
	    rd_count(r, v, pwhere, "samples", false, &p->samples))
		return -1;
	if (size > PROFILE_MAX_BYTES)
		return rd_fail(r, "%s.size %llu is past a function's", pwhere, (unsigned long long)size);
	p->size = (unsigned long)size;
	if (rd_member(v, "error")) {
		r->where = pwhere;
		rd_string_into(r, v, "error", p->error, sizeof(p->error));
		return r->failed ? -1 : 0;
	}
	if (!hot || !pf || !json_object_is_type(hot, json_type_array) ||
	    !json_object_is_type(pf, json_type_array))
		return rd_fail(r, "%s has no \"hottest\" and \"prefetch\" lists", pwhere);
	nhot = json_object_array_length(hot);
	npf = json_object_array_length(pf);
	if (nhot > PFT_HOTTEST || npf > PROFILE_MAX_PREFETCH)
		return rd_fail(r, "%s: %zu hottest and %zu prefetch instructions; pftrace writes at most "
			       "%d and %d", pwhere, nhot, npf, PFT_HOTTEST, PROFILE_MAX_PREFETCH);
	p->insns = calloc(nhot + 2 * npf + 1, sizeof(*p->insns));
	if (!p->insns)
		return rd_fail(r, "out of memory");
	r->where = pwhere;
	for (k = 0; k < nhot; k++) {
		struct annotated_insn text = { 0 };
		__u64 offset, samples;

		if (read_insn(r, json_object_array_get_idx(hot, k), pwhere, p, &offset, &samples, &text) ||
		    profile_insn(r, pwhere, p, offset, samples, text.text, "", false))
			return -1;
	}
	for (k = 0; k < npf; k++)
		if (read_prefetch(r, json_object_array_get_idx(pf, k), pwhere, p))
			return -1;
	qsort(p->insns, (size_t)p->ninsns, sizeof(*p->insns), insn_offset_cmp);
	for (i = 0; i < p->ninsns; i++) {
		const struct annotated_insn *a = &p->insns[i];

		p->nprefetch += a->prefetch;
		if (rd_add(r, "samples", sum, a->samples, &sum))
			return -1;
		if (a->prefetch && (i + 1 == p->ninsns ||
				    p->insns[i + 1].offset != a->offset + insn_length(a->bytes)))
			return rd_fail(r, "%s: the prefetch at %lu overlaps the next instruction", pwhere,
				       a->offset);
	}
	if (sum > p->samples)
		return rd_fail(r, "%s: its instructions have %llu samples, the function %llu", pwhere,
			       (unsigned long long)sum, (unsigned long long)p->samples);
	n = profile_hottest(p, idx, PFT_HOTTEST);
	for (i = 0; i < n && (size_t)n == nhot; i++) {
		__u64 offset;

		rd_count(r, json_object_array_get_idx(hot, i), pwhere, "offset", true, &offset);
		if (p->insns[idx[i]].offset != offset)
			break;
	}
	if ((size_t)n != nhot || i != n)
		return rd_fail(r, "%s.hottest is not its instructions' hottest, most samples first", pwhere);
	return r->failed ? -1 : 0;
}
