// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel symbol addresses without reading /proc/kallsyms: the kernel
 * formats that file anew on every read (150,000 lines, ~0.4 s of guest
 * time in the lab, the bulk of pftrace's start-up), while
 * bpf_kallsyms_lookup_name() (5.16+) answers from its own tables. The
 * loader writes names into ksym_req, runs this once with
 * BPF_PROG_TEST_RUN and reads the addresses back; older kernels refuse
 * to load it and the loader reads the file instead.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "pftrace.h"

char LICENSE[] SEC("license") = "GPL";

struct ksym_batch ksym_req;

SEC("syscall")
int lookup_ksyms(void *ctx)
{
	__u32 i, len;

	for (i = 0; i < PFT_KSYM_BATCH && i < ksym_req.count; i++) {
		len = ksym_req.name_len[i];
		ksym_req.addr[i] = 0;
		/* the helper wants the length with the NUL, within the buffer */
		if (len < 2 || len > PFT_KSYM_NAME_LEN)
			continue;
		bpf_kallsyms_lookup_name(ksym_req.name[i], len, 0, &ksym_req.addr[i]);
	}
	return 0;
}
