// SPDX-License-Identifier: GPL-2.0
/*
 * Sampling beside the walks: one perf event per CPU runs this on every
 * sample, which counts the interrupted kernel instruction pointer if it
 * falls in a traced function (or, in kernel-wide mode, anywhere in the
 * kernel) into a hash map. No per-sample traffic to user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "pftrace.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 range_lo[PFT_SAMPLE_RANGES] = {};
const volatile __u64 range_hi[PFT_SAMPLE_RANGES] = {};
const volatile __u32 nranges = 0;
const volatile bool whole_kernel = false;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PFT_SAMPLE_IPS);
	__type(key, __u64);
	__type(value, __u64);
} ip_samples SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sample_counts);
} sample_counts SEC(".maps");

/* kernel addresses live in the upper half of the address space */
#define KERNEL_HALF (1ULL << 63)
#if defined(__TARGET_ARCH_arm64)
/* arch/arm64/include/uapi/asm/ptrace.h: regs[31], sp, then pc, the 33rd */
#define PFT_PT_REGS_IP_WORD 32
#else
/* arch/x86/include/uapi/asm/ptrace.h: r15 ... ss, with ip the 17th */
#define PFT_PT_REGS_IP_WORD 16
#endif

SEC("perf_event")
int on_sample(struct bpf_perf_event_data *ctx)
{
	/*
	 * regs is bpf_user_pt_regs_t (x86's uapi struct pt_regs, arm64's
	 * struct user_pt_regs), an ABI: ip is one of its words. Read by
	 * that offset rather than through vmlinux.h's CO-RE type, it
	 * leaves the object without relocations, and libbpf without the
	 * kernel's BTF to parse (~40 ms of start-up under QEMU).
	 */
	__u64 ip = ((const __u64 *)ctx)[PFT_PT_REGS_IP_WORD], one = 1, *n;
	struct sample_counts *c;
	__u32 zero = 0, i;
	bool keep = false;

	c = bpf_map_lookup_elem(&sample_counts, &zero);
	if (!c)
		return 0;
	c->total++;
	if (!(ip & KERNEL_HALF))
		return 0;
	c->kernel++;
	if (whole_kernel) {
		keep = true;
	} else {
		for (i = 0; i < PFT_SAMPLE_RANGES && i < nranges; i++)
			if (ip >= range_lo[i] && ip < range_hi[i])
				keep = true;
	}
	if (!keep)
		return 0;
	c->kept++;
	n = bpf_map_lookup_elem(&ip_samples, &ip);
	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&ip_samples, &ip, &one, BPF_NOEXIST))
		c->dropped++;   /* map full (or a racing insert: then rare) */
	return 0;
}
