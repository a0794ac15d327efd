// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "walk_loop.h"

#define MAX_PATHS 4096

/* A direct jump's target ("jne 0xffffffff81234567"), or 0. */
static unsigned long jump_target(const struct insn *in)
{
	char *end;
	unsigned long t;

	if (in->mnemonic[0] != 'j' || strncmp(in->operands, "0x", 2))
		return 0;
	t = strtoul(in->operands, &end, 16);
	return *end ? 0 : t;
}

static bool is_uncond(const struct insn *in)
{
	return !strcmp(in->mnemonic, "jmp");
}

/* mov REG, qword ptr [REG ...]: pos = pos->next, the walk's own step */
static bool chases_pointer(const struct insn *in)
{
	const char *comma = strchr(in->operands, ',');
	size_t len;

	if (strcmp(in->mnemonic, "mov") || !comma)
		return false;
	len = (size_t)(comma - in->operands);
	return len >= 2 && len < 8 && in->operands[0] == 'r' &&
	       !strncmp(comma, ", qword ptr [", 13) &&
	       !strncmp(comma + 13, in->operands, len) &&
	       (comma[13 + len] == ']' || comma[13 + len] == ' ');
}

static int index_of(const struct insn *insns, int n, unsigned long addr)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (insns[mid].addr == addr)
			return mid;
		if (insns[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

struct path_walk {
	const struct insn *insns;
	int head, last;
	int min, max, paths;
	int visits;        /* branches followed: bounds the search, whatever the code */
};

/* Every way from K once round to the head; LEN instructions so far. */
static void follow(struct path_walk *pw, int k, int len)
{
	if (++pw->visits > 4 * MAX_PATHS)
		return;
	while (k <= pw->last && pw->paths < MAX_PATHS && len < 512) {
		const struct insn *in = &pw->insns[k];
		unsigned long t = jump_target(in);
		int ti = t ? index_of(pw->insns, pw->last + 1, t) : -1;

		len++;
		if (!strncmp(in->mnemonic, "ret", 3) || !strcmp(in->mnemonic, "ud2"))
			return;
		if (in->mnemonic[0] == 'j' && (ti == pw->head)) {
			/* once round */
			pw->paths++;
			if (!pw->min || len < pw->min)
				pw->min = len;
			if (len > pw->max)
				pw->max = len;
			if (is_uncond(in))
				return;
		} else if (in->mnemonic[0] == 'j') {
			bool inside = ti > k && ti <= pw->last;

			if (is_uncond(in)) {
				if (!inside)
					return;   /* leaves the loop, or an indirect jump */
				k = ti;
				continue;
			}
			if (inside)
				follow(pw, ti, len);
		}
		k++;
	}
}

int find_walk_loop(const struct insn *insns, int n, struct walk_loop *out)
{
	int *last = n > 0 ? calloc((size_t)n, sizeof(*last)) : NULL;
	int j, i, k, head = -1;

	memset(out, 0, sizeof(*out));
	if (!last)
		return -1;
	/* every back edge to a head whose body chases a pointer: the head's last one */
	for (j = 0; j < n; j++) {
		unsigned long t = jump_target(&insns[j]);
		bool chase = false;

		if (!t || t > insns[j].addr || (i = index_of(insns, n, t)) < 0)
			continue;
		for (k = i; k <= j && !chase; k++)
			chase = chases_pointer(&insns[k]);
		if (chase && j > last[i])
			last[i] = j;
	}
	/* the innermost such loop */
	for (i = 0; i < n; i++)
		if (last[i] && (head < 0 || last[i] - i < last[head] - head))
			head = i;
	if (head >= 0) {
		struct path_walk pw = { .insns = insns, .head = head, .last = last[head] };

		follow(&pw, head, 0);
		if (pw.paths) {
			out->head = insns[head].addr;
			out->body = last[head] - head + 1;
			out->min_path = pw.min;
			out->max_path = pw.max;
		} else {
			head = -1;
		}
	}
	free(last);
	return head >= 0 ? 0 : -1;
}

int walk_loop_of(const struct kfunc *f, struct ktext *kt, struct walk_loop *out)
{
	struct insn *insns = NULL;
	size_t size = f->size > 65536 ? 65536 : f->size;
	unsigned char *code = malloc(size ? size : 1);
	int n, rc;

	if (!code)
		return -ENOMEM;
	rc = ktext_read(kt, f->addr, code, size);
	n = rc ? -1 : disasm(code, size, f->addr, &insns);
	free(code);
	rc = n < 0 ? -EIO : find_walk_loop(insns, n, out) ? -ENOENT : 0;
	free(insns);
	return rc;
}
