// SPDX-License-Identifier: GPL-2.0
/*
 * core-check BTF OBJECT... — do all CO-RE relocations of each BPF object
 * resolve against the kernel BTF in the file BTF? Needs no tracing
 * support: libbpf relocates every program before it loads any, and its
 * debug log says, relocation by relocation, what it did. A relocation
 * it cannot resolve is poisoned ("w/ invalid insn") and is reported,
 * unless its type is a flavour named X___optional: a layout some kernels
 * have (a table moved into struct net upstream), read only behind a
 * read-only flag the loader sets from BTF, so that its poisoned
 * instructions are dead code the verifier drops. Those are counted apart.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

static int patched, unresolved, optional;
/* the relocation being resolved: its own first line names its type */
static char current[1024];

static int count_relos(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (!strstr(line, "relo #"))
		return 0;
	if (strstr(line, "<byte_off>") && !strstr(line, "candidate")) {
		snprintf(current, sizeof(current), "%s", line);
	} else if (strstr(line, "patched insn")) {
		patched++;
	} else if (strstr(line, "invalid insn") && strstr(current, "___optional")) {
		optional++;
	} else if (strstr(line, "invalid insn")) {
		/* libbpf's last word on a relocation it could not resolve */
		unresolved++;
		fprintf(stderr, "  %s", line);
	} else if ((strstr(line, "no matching targets") || strstr(line, "failed")) &&
		   !strstr(current, "___optional")) {
		fprintf(stderr, "  %s", line);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: core-check BTF OBJECT...\n");
		return 2;
	}
	libbpf_set_print(count_relos);
	for (i = 2; i < argc; i++) {
		LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = argv[1]);
		struct bpf_object *obj = bpf_object__open_file(argv[i], &opts);

		patched = unresolved = optional = 0;
		if (!obj) {
			printf("%s: cannot open\n", argv[i]);
			bad = 1;
			continue;
		}
		/* the load itself may be refused (fentry on this host): only
		 * the relocation step, which runs first, matters here */
		bpf_object__load(obj);
		bpf_object__close(obj);
		printf("%s: %d CO-RE relocations resolved, %d unresolved, %d optional absent "
		       "against %s\n", argv[i], patched, unresolved, optional, argv[1]);
		if (unresolved)
			bad = 1;
	}
	return bad;
}
