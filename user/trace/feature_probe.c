// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace features`: ask the running kernel, the way retsnoop calibrates
 * itself, instead of guessing from its version. On the build host, for
 * example, the kernel is new enough for fentry but an LSM refuses tracing
 * programs, and CONFIG_KPROBES is off: only a real load says so.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "caps.h"
#include "cpu.h"
#include "feature_probe.h"
#include "latency_setup.h"
#include "output.h"
#include "probe.skel.h"

/* Functions present and traceable on every kernel pftrace knows. */
static const char *const probe_functions[] = { "vfs_read", "do_sys_openat2", "schedule" };

static const char *probe_function(const struct kernel_facts *kf)
{
	size_t i;

	for (i = 0; i < sizeof(probe_functions) / sizeof(probe_functions[0]); i++)
		if (btf_has_func(kf->btf, probe_functions[i]))
			return probe_functions[i];
	return probe_functions[0];
}

/* The probe object with only the program KEEP left to load. */
static struct probe_bpf *probe_open(struct bpf_program *(*keep)(struct probe_bpf *),
				    char *why, size_t whylen)
{
	struct probe_bpf *skel = probe_bpf__open();
	struct bpf_program *prog;

	if (!skel) {
		snprintf(why, whylen, "cannot open the probe program: %s", strerror(errno));
		return NULL;
	}
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_autoload(prog, prog == keep(skel));
	return skel;
}

static struct bpf_program *fentry_prog(struct probe_bpf *skel)
{
	return skel->progs.probe_fentry;
}

static struct bpf_program *kprobe_prog(struct probe_bpf *skel)
{
	return skel->progs.probe_kprobe;
}

bool fentry_can_attach(const char *func, char *why, size_t whylen)
{
	struct probe_bpf *skel = probe_open(fentry_prog, why, whylen);
	struct bpf_link *link;
	int err;

	if (!skel)
		return false;
	err = bpf_program__set_attach_target(skel->progs.probe_fentry, 0, func);
	if (!err)
		err = probe_bpf__load(skel);
	if (err) {
		snprintf(why, whylen, "loading an fentry program for %s failed: %s",
			 func, kerr_str(err));
		probe_bpf__destroy(skel);
		return false;
	}
	link = bpf_program__attach(skel->progs.probe_fentry);
	err = link ? 0 : -errno;
	bpf_link__destroy(link);
	probe_bpf__destroy(skel);
	if (err) {
		snprintf(why, whylen, "attaching fentry to %s failed: %s", func, kerr_str(err));
		return false;
	}
	snprintf(why, whylen, "fentry/fexit attach to %s", func);
	return true;
}

/* the kernel's kprobe PMU or tracefs files: visible without privilege */
static bool kprobes_configured(void)
{
	return !access("/sys/bus/event_source/devices/kprobe", F_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", F_OK);
}

bool kprobe_can_attach(const char *func, char *why, size_t whylen)
{
	struct probe_bpf *skel = probe_open(kprobe_prog, why, whylen);
	struct bpf_link *link;
	int err;

	if (!skel)
		return false;
	err = probe_bpf__load(skel);
	if (err) {
		snprintf(why, whylen, "loading a kprobe program failed: %s", kerr_str(err));
		probe_bpf__destroy(skel);
		return false;
	}
	link = bpf_program__attach_kprobe(skel->progs.probe_kprobe, false, func);
	err = link ? 0 : -errno;
	bpf_link__destroy(link);
	probe_bpf__destroy(skel);
	if (err) {
		if (!kprobes_configured())
			snprintf(why, whylen, "no kprobes in this kernel (CONFIG_KPROBES off)");
		else
			snprintf(why, whylen, "kprobe on %s failed: %s%s", func, kerr_str(err),
				 perf_denied_why(err));
		return false;
	}
	snprintf(why, whylen, "kprobe/kretprobe attach to %s", func);
	return true;
}

static bool perf_hw_available(char *why, size_t whylen)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};
	int fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, 0);
	struct cpu_id id;

	if (fd < 0) {
		snprintf(why, whylen, "cycles: %s%s (sampling falls back to cpu-clock)",
			 errno == ENOENT || errno == EOPNOTSUPP ? "not supported" : strerror(errno),
			 perf_denied_why(errno));
		return false;
	}
	close(fd);
	cpu_id_read(&id);
	snprintf(why, whylen, "cycles event opens on cpu 0%s", cpu_id_emulated(&id) ?
		 "; an emulated PMU (CPU implementer 0x00): its cycles follow the "
		 "emulator's clock, not a real core's" : "");
	return true;
}

int bpf_stats_open(char *why, size_t whylen)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	if (fd < 0)
		snprintf(why, whylen, "BPF_ENABLE_STATS: %s%s", strerror(errno),
			 errno == EPERM && !cap_effective(CAP_SYS_ADMIN) ?
			 " (needs CAP_SYS_ADMIN; pftrace then cannot measure its overhead)" : "");
	else
		snprintf(why, whylen, "per-program run time via BPF_ENABLE_STATS");
	return fd;
}

static bool bpf_stats_available(char *why, size_t whylen)
{
	int fd = bpf_stats_open(why, whylen);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static void set(struct feature *f, const char *name, bool ok, const char *detail)
{
	f->name = name;
	f->available = ok;
	snprintf(f->detail, sizeof(f->detail), "%s", detail);
}

void features_probe(const struct kernel_facts *kf, struct feature out[FEAT_COUNT])
{
	char why[PFT_ERRLEN], missing[64];
	const char *func;
	bool ok;

	if (kf->btf)
		snprintf(why, sizeof(why), "%s (%u types)", kf->btf_path,
			 btf__type_cnt(kf->btf));
	else
		snprintf(why, sizeof(why), "no BTF at /sys/kernel/btf/vmlinux");
	set(&out[FEAT_BTF], "btf", kf->btf != NULL, why);

	func = probe_function(kf);
	if (!caps_can_trace(missing, sizeof(missing))) {
		/* the kernel would say EPERM: say why, and what is known without it */
		snprintf(why, sizeof(why), "not probed: this process lacks %s (run as root, or "
			 "grant CAP_BPF and CAP_PERFMON)", missing);
		set(&out[FEAT_FENTRY], "fentry", false, why);
		if (!kprobes_configured())
			set(&out[FEAT_KPROBES], "kprobes", false,
			    "no kprobes in this kernel (CONFIG_KPROBES off)");
		else
			set(&out[FEAT_KPROBES], "kprobes", false, why);
	} else {
		ok = fentry_can_attach(func, why, sizeof(why));
		set(&out[FEAT_FENTRY], "fentry", ok, why);
		ok = kprobe_can_attach(func, why, sizeof(why));
		set(&out[FEAT_KPROBES], "kprobes", ok, why);
	}
	ok = perf_hw_available(why, sizeof(why));
	set(&out[FEAT_PERF_HW], "perf-hw", ok, why);
	{
		/* --latency's unit: what the session itself would pick */
		struct lat_session ls;
		struct cpu_id id;

		lat_session_start(&ls, libbpf_num_possible_cpus(), -1);
		cpu_id_read(&id);
		set(&out[FEAT_LATENCY], "latency", true, ls.unit != PFT_LAT_CYCLES ? ls.unit_why :
		    cpu_id_emulated(&id) ? "cycles, from a hardware counter per CPU (emulated: "
		    "not a real core's cycles)" : "cycles, from a hardware counter per CPU");
		lat_session_free(&ls);
	}
	ok = selinux_active(why, sizeof(why));
	set(&out[FEAT_SELINUX], "selinux", ok, why);
	{
		static const char *const names[] = { "_stext", "init_task", NULL };
		struct ksyms *ks = kf->ksyms ? kf->ksyms : ksyms_load(names, false);
		unsigned long a = 0;
		bool visible = kallsyms_addresses_visible(ks);
		/*
		 * init_task is data: listed only with CONFIG_KALLSYMS_ALL. Any
		 * type letter: 6.19 calls it 'T'.
		 */
		bool data = ksyms_address(ks, "init_task", NULL, &a);

		if (ks != kf->ksyms)
			ksyms_free(ks);

		set(&out[FEAT_KALLSYMS], "kallsyms", visible && data,
		    !visible ? (cap_effective(CAP_SYSLOG) ?
				"/proc/kallsyms hides addresses (kernel.kptr_restrict)" :
				"/proc/kallsyms hides addresses: this process lacks CAP_SYSLOG")
		    : data ? "/proc/kallsyms shows addresses, data symbols included"
			   : "/proc/kallsyms lists no data symbols (CONFIG_KALLSYMS_ALL off): "
			     "recipes cannot find their tables");
	}
	ok = access("/proc/kcore", R_OK) == 0 && cap_effective(CAP_SYS_RAWIO);
	set(&out[FEAT_KCORE], "kcore", ok,
	    ok ? "/proc/kcore readable" : access("/proc/kcore", F_OK) ?
	    "no /proc/kcore (kernel text read through BPF instead)" :
	    "/proc/kcore needs CAP_SYS_RAWIO (kernel text read through BPF instead)");
	ok = bpf_stats_available(why, sizeof(why));
	set(&out[FEAT_BPF_STATS], "bpf-stats", ok, why);
}
