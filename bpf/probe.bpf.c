// SPDX-License-Identifier: GPL-2.0
/*
 * Feature calibration: the smallest programs of each attach kind. The
 * loader points them at a function (bpf_program__set_attach_target) and
 * asks the running kernel whether it loads and attaches them, which is
 * the only honest answer: an LSM, lockdown or a missing config option can
 * each refuse what the kernel's version says it supports.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/dummy")
int BPF_PROG(probe_fentry)
{
	return 0;
}

SEC("kprobe/dummy")
int BPF_KPROBE(probe_kprobe)
{
	return 0;
}
