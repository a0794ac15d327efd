// SPDX-License-Identifier: GPL-2.0
/*
 * --latency's calibration: the same entry stamp and exit accounting as
 * every recipe's (walk.bpf.h), on bpf_fentry_test1(), a kernel function
 * that only adds one to its argument. The loader runs lat_trigger with
 * BPF_PROG_TEST_RUN, which calls bpf_fentry_test1() (net/bpf/test_run.c),
 * many times: what the pair measures there is what the measurement
 * itself adds to every traced call (trampolines, programs, clock reads).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "walk.bpf.h"

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(lat_cal_entry)
{
	lat_enter();
	return 0;
}

SEC("fexit/bpf_fentry_test1")
int BPF_PROG(lat_cal_exit)
{
	__u64 now = lat_now(PFT_BODY_SETTINGS);

	account_latency(now, 0);
	return 0;
}

/* run by BPF_PROG_TEST_RUN only: the kernel calls bpf_fentry_test1() for it */
SEC("fentry/bpf_fentry_test2")
int BPF_PROG(lat_trigger)
{
	return 0;
}
