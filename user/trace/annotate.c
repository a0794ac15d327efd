// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "annotate.h"
#include "disasm.h"
#include "ktext.h"
#include "sampling.h"

/* kallsyms sizes run to the next symbol: a few bogus ones are huge */
#define MAX_FUNCTION_BYTES (1 << 20)

void hex_bytes(char *buf, size_t len, const __u8 *b, int n)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && used + 3 < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%02x", i ? " " : "", b[i]);
}

int profile_function(const struct kfunc *f, struct ktext *kt, const struct sample_result *r,
		     struct function_profile *out)
{
	struct insn *insns = NULL;
	unsigned long size = f->size > MAX_FUNCTION_BYTES ? MAX_FUNCTION_BYTES : f->size;
	__u8 *code;
	int n, i, rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", f->name);
	out->addr = f->addr;
	out->size = size;
	if (r)
		out->samples = samples_in(r, f->addr, f->addr + size);
	code = malloc(size ? size : 1);
	if (!code)
		return -ENOMEM;
	rc = ktext_read(kt, f->addr, code, size);
	if (rc) {
		snprintf(out->error, sizeof(out->error), "%s: text unreadable (%s)", f->name,
			 kerr_str(rc));
		free(code);
		return rc;
	}
	n = disasm(code, size, f->addr, &insns);
	free(code);
	if (n < 0) {
		snprintf(out->error, sizeof(out->error), "%s: cannot decode", f->name);
		return -EINVAL;
	}
	out->insns = calloc((size_t)(n ? n : 1), sizeof(*out->insns));
	if (!out->insns) {
		free(insns);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct annotated_insn *a = &out->insns[i];

		a->offset = insns[i].addr - f->addr;
		snprintf(a->text, sizeof(a->text), "%s%s%s", insns[i].mnemonic,
			 insns[i].operands[0] ? " " : "", insns[i].operands);
		hex_bytes(a->bytes, sizeof(a->bytes), insns[i].bytes, insns[i].size);
		a->prefetch = insns[i].prefetch;
		a->samples = r ? samples_at(r, insns[i].addr) : 0;
		out->nprefetch += a->prefetch;
	}
	out->ninsns = n;
	free(insns);
	return 0;
}

void profile_free(struct function_profile *p)
{
	free(p->insns);
	p->insns = NULL;
	p->ninsns = 0;
}
