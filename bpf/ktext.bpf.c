// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel text through BPF, for kernels without /proc/kcore (the build
 * host's among them): the loader asks for [addr, addr + len) with
 * BPF_PROG_TEST_RUN and gets the bytes in ktext_buf. Reads are
 * fault-safe; text that cannot be read comes back as an error.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "pftrace.h"

char LICENSE[] SEC("license") = "GPL";

struct ktext_req ktext_req;
__u8 ktext_buf[PFT_KTEXT_CHUNK];

SEC("syscall")
int read_ktext(void *ctx)
{
	__u32 len = ktext_req.len;

	if (len > PFT_KTEXT_CHUNK)
		len = PFT_KTEXT_CHUNK;
	ktext_req.err = bpf_probe_read_kernel(ktext_buf, len, (void *)ktext_req.addr);
	return 0;
}
