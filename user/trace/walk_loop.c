// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "walk_loop.h"

#define MAX_PATHS 4096
#define MAX_STEPS (64L * MAX_PATHS)
#define MAX_OUTSIDE 32

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
	int n, head, last;
	unsigned char *onpath;   /* the instructions of the path being followed */
	int min, max, paths;
	long steps;              /* instructions followed: bounds the search, whatever the code */
};

static void follow(struct path_walk *pw, int k, int len, int outside);

/*
 * Instruction K on a path once round, LEN instructions before it and
 * OUTSIDE of them past the loop's last back edge: compilers put the rare
 * cases of a walk's compare there (6.12's arm64 avc_lookup compares tsid
 * and tclass after its ret, and branches back into the loop).
 */
static void step(struct path_walk *pw, int k, int len, int outside)
{
	const struct insn *in = &pw->insns[k];
	bool branch = in->flow == FLOW_BRANCH || in->flow == FLOW_JUMP;
	int ti = branch && in->target ? index_of(pw->insns, pw->n, in->target) : -1;

	len++;
	outside += k > pw->last;
	if (in->flow == FLOW_END)
		return;
	pw->onpath[k] = 1;
	if (ti == pw->head) {
		/* once round */
		pw->paths++;
		if (!pw->min || len < pw->min)
			pw->min = len;
		if (len > pw->max)
			pw->max = len;
	} else if (ti >= 0) {
		follow(pw, ti, len, outside);
	}
	if (in->flow != FLOW_JUMP)
		follow(pw, k + 1, len, outside);
	pw->onpath[k] = 0;
}

/*
 * Every way from K once round to the head. A path never goes above the
 * head nor crosses an instruction twice (an inner loop is not once
 * round), and spends at most MAX_OUTSIDE instructions past the loop.
 */
static void follow(struct path_walk *pw, int k, int len, int outside)
{
	if (k <= pw->head || k >= pw->n || pw->onpath[k] || len >= 512 ||
	    outside > MAX_OUTSIDE || pw->paths >= MAX_PATHS || ++pw->steps > MAX_STEPS)
		return;
	step(pw, k, len, outside);
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
		unsigned long t = insns[j].target;
		bool chase = false;

		if (!t || t > insns[j].addr || (i = index_of(insns, n, t)) < 0)
			continue;
		for (k = i; k <= j && !chase; k++)
			chase = insns[k].chases_pointer;
		if (chase && j > last[i])
			last[i] = j;
	}
	/*
	 * The innermost such loop that a path goes round: code that only
	 * looks like one (7.2's arm64 avc_lookup re-reads the preempt count
	 * through current, ldr x0, [x0, #8], between a label and a branch
	 * back to it that no path returns by) is passed over for the next.
	 */
	for (;;) {
		struct path_walk pw = { .insns = insns, .n = n };

		head = -1;
		for (i = 0; i < n; i++)
			if (last[i] > 0 && (head < 0 || last[i] - i < last[head] - head))
				head = i;
		if (head < 0)
			break;
		pw.head = head;
		pw.last = last[head];
		pw.onpath = calloc((size_t)n, 1);
		if (pw.onpath)
			step(&pw, head, 0, 0);
		free(pw.onpath);
		if (pw.paths) {
			out->head = insns[head].addr;
			out->body = last[head] - head + 1;
			out->min_path = pw.min;
			out->max_path = pw.max;
			break;
		}
		last[head] = -1;       /* not a loop a walk goes round */
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
