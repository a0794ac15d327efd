// SPDX-License-Identifier: GPL-2.0
/* Negative control for core-check: a field no kernel has. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct avc_node___nonexistent {
	int no_such_field;
} __attribute__((preserve_access_index));

SEC("kprobe/avc_lookup")
int core_bad(void *ctx)
{
	struct avc_node___nonexistent *n = (void *)ctx;

	return BPF_CORE_READ(n, no_such_field);
}
