// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel.h"
#include "latency_setup.h"
#include "target.h"
#include "calibrate.skel.h"

/* the calibration pair runs this many times; its median is the overhead */
#define CALIBRATION_RUNS 2000
/*
 * Its histogram starts one unit per bucket (1,024 units) and widens until
 * the median falls inside: an emulated or slow machine's pair can take
 * microseconds. 2^6 units per bucket reaches 65,536 units.
 */
#define CALIBRATION_MAX_SHIFT 6
/* a session's histogram reaches this many times the overhead at least */
#define RANGE_PER_OVERHEAD 8
#define SESSION_MAX_SHIFT 10

static int open_cycles(int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_hv = 1,
		.pinned = 1,
	};

	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

void lat_session_start(struct lat_session *ls, int ncpus, int shift)
{
	int cpu;

	memset(ls, 0, sizeof(*ls));
	ls->ncpus = ncpus;
	ls->unit = PFT_LAT_CYCLES;
	ls->cycle_fds = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(int));
	for (cpu = 0; ls->cycle_fds && cpu < ncpus; cpu++) {
		ls->cycle_fds[cpu] = open_cycles(cpu);
		/* an offline CPU cannot count; any other refusal means no PMU here */
		if (ls->cycle_fds[cpu] < 0 && errno != ENODEV) {
			int e = errno;

			snprintf(ls->unit_why, sizeof(ls->unit_why), "no cycles counter (%s): "
				 "nanoseconds from bpf_ktime_get_ns()",
				 e == ENOENT || e == EOPNOTSUPP ? "no hardware PMU" :
				 e == EACCES || e == EPERM ? "perf_event_paranoid or a missing capability" :
				 kerr_str(e));
			ls->unit = PFT_LAT_NS;
			break;
		}
	}
	if (!ls->cycle_fds)
		ls->unit = PFT_LAT_NS;
	if (ls->unit == PFT_LAT_NS && ls->cycle_fds) {
		while (cpu-- > 0)
			if (ls->cycle_fds[cpu] >= 0)
				close(ls->cycle_fds[cpu]);
		free(ls->cycle_fds);
		ls->cycle_fds = NULL;
	}
	/* 1,024 buckets: 4 us in 4 ns steps, or 8,192 cycles in 8 */
	ls->shift = shift >= 0 ? (unsigned int)shift : ls->unit == PFT_LAT_NS ? 2 : 3;
	ls->shift_chosen = shift >= 0;
	snprintf(ls->overhead_why, sizeof(ls->overhead_why), "not calibrated");
}

int lat_prepare_target(struct target *t, const struct lat_session *ls, char *err, size_t errlen)
{
	struct walk_config *cfg = t->bpf.config;
	struct bpf_map *starts = t->bpf.lat_starts, *hist = t->bpf.lat_hist;
	struct bpf_program *prog;
	bool kept = t->method != ATTACH_FEXIT;

	if (!cfg || !starts) {
		snprintf(err, errlen, "%s: this build's BPF object cannot measure latency",
			 t->recipe->traced);
		return -ENOENT;
	}
	/* fexit: the entry program stamps the time; kprobe: the kprobe handler does */
	bpf_object__for_each_program(prog, t->obj)
		if (t->method == ATTACH_FEXIT && program_hooks(prog, "fentry", t->recipe->traced)) {
			bpf_program__set_autoload(prog, true);
			kept = true;
		}
	if (!kept) {
		snprintf(err, errlen, "%s: no entry program for --latency", t->recipe->traced);
		return -ENOENT;
	}
	cfg->latency = ls->unit;
	cfg->lat_shift = ls->shift;
	if (!hist || bpf_map__set_max_entries(hist, PFT_LAT_NODES)) {
		snprintf(err, errlen, "%s: cannot size the latency histograms", t->recipe->traced);
		return -EINVAL;
	}
	return bpf_map__set_max_entries(starts, 16384);
}

int lat_after_load(struct target *t, const struct lat_session *ls, char *err, size_t errlen)
{
	struct bpf_map *map = t->bpf.lat_cycles;
	int cpu;

	if (ls->unit != PFT_LAT_CYCLES)
		return 0;
	for (cpu = 0; map && cpu < ls->ncpus; cpu++) {
		__u32 key = (__u32)cpu;

		if (ls->cycle_fds[cpu] >= 0 &&
		    bpf_map_update_elem(bpf_map__fd(map), &key, &ls->cycle_fds[cpu], BPF_ANY)) {
			snprintf(err, errlen, "%s: cannot hand the cycle counters to BPF: %s",
				 t->recipe->traced, kerr_str(errno));
			return -errno;
		}
	}
	return 0;
}

/* The counters (map FD) and the histogram of every node count (map HIST_FD). */
static int read_counters(int fd, int hist_fd, int ncpus, struct latency_stats *out)
{
	struct lat_counters *percpu = calloc((size_t)ncpus, sizeof(*percpu));
	struct lat_hist *hist = calloc((size_t)ncpus, sizeof(*hist));
	__u32 zero = 0, n;
	int rc = 0;

	if (!percpu || !hist)
		rc = -ENOMEM;
	else if (bpf_map_lookup_elem(fd, &zero, percpu))
		rc = -errno;
	else
		latency_sum(out, percpu, ncpus);
	memset(out->hist, 0, sizeof(out->hist));
	for (n = 0; !rc && n < PFT_LAT_NODES; n++) {
		if (bpf_map_lookup_elem(hist_fd, &n, hist)) {
			/* the calibration's map holds node count 0 only */
			if (n == 0 || errno != ENOENT)
				rc = -errno;
			break;
		}
		latency_sum_hist(out, (int)n, hist, ncpus);
	}
	free(percpu);
	free(hist);
	return rc;
}

int lat_read(const struct target *t, const struct lat_session *ls, struct latency_stats *out)
{
	struct bpf_map *map = t->bpf.lat_counters, *hist = t->bpf.lat_hist;

	memset(out, 0, sizeof(*out));
	out->unit = ls->unit;
	out->shift = ls->shift;
	out->overhead_known = ls->overhead_known;
	out->overhead = ls->overhead;
	return map && hist ? read_counters(bpf_map__fd(map), bpf_map__fd(hist), ls->ncpus, out) :
			     -ENOENT;
}

/*
 * One calibration: CALIBRATION_RUNS test runs of the pair, into a
 * histogram 2^SHIFT units per bucket; the counts land in ST.
 */
static int calibrate_once(const struct lat_session *ls, const char *btf_custom_path,
			  unsigned int shift, struct latency_stats *st)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .btf_custom_path = btf_custom_path);
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct calibrate_bpf *skel;
	int i, err = 0;

	skel = calibrate_bpf__open_opts(&open_opts);
	if (!skel)
		return -errno;
	skel->rodata_walk->walk_config.latency = ls->unit;
	skel->rodata_walk->walk_config.lat_shift = shift;
	bpf_map__set_max_entries(skel->maps.lat_starts, 64);
	err = calibrate_bpf__load(skel);
	if (!err) {
		if (ls->unit == PFT_LAT_CYCLES)
			for (i = 0; i < ls->ncpus; i++) {
				__u32 key = (__u32)i;

				if (ls->cycle_fds[i] >= 0)
					bpf_map_update_elem(bpf_map__fd(skel->maps.lat_cycles), &key,
							    &ls->cycle_fds[i], BPF_ANY);
			}
		err = calibrate_bpf__attach(skel);
	}
	for (i = 0; !err && i < CALIBRATION_RUNS; i++)
		if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.lat_trigger), &run))
			err = -errno;
	if (!err)
		err = read_counters(bpf_map__fd(skel->maps.lat_counters),
				    bpf_map__fd(skel->maps.lat_hist), ls->ncpus, st);
	st->shift = shift;
	calibrate_bpf__destroy(skel);
	return err;
}

void lat_calibrate(struct lat_session *ls, const char *btf_custom_path)
{
	struct latency_stats *st = calloc(1, sizeof(*st));
	unsigned int shift;
	double median = 0;
	int err = 0;

	if (!st)
		return;
	for (shift = 0; shift <= CALIBRATION_MAX_SHIFT; shift++) {
		memset(st, 0, sizeof(*st));
		err = calibrate_once(ls, btf_custom_path, shift, st);
		median = latency_quantile(st, 0, 0.5);
		/* a median in the last bucket is past the range: widen, or give up */
		if (err || st->count[0] < CALIBRATION_RUNS / 2 ||
		    median < ldexp(1.0, (int)shift) * (PFT_LAT_BUCKETS - 1))
			break;
	}
	if (err) {
		snprintf(ls->overhead_why, sizeof(ls->overhead_why), "not calibrated: the pair on "
			 "bpf_fentry_test1() failed (%s)", kerr_str(-err));
	} else if (st->count[0] >= CALIBRATION_RUNS / 2 && shift <= CALIBRATION_MAX_SHIFT) {
		ls->overhead = median;
		ls->overhead_known = true;
		snprintf(ls->overhead_why, sizeof(ls->overhead_why), "median of %llu calls of an "
			 "entry/exit pair on bpf_fentry_test1()", (unsigned long long)st->count[0]);
		/* a walk costs the overhead and then some: give it room, in wider buckets */
		while (!ls->shift_chosen && ls->shift < SESSION_MAX_SHIFT &&
		       ldexp(1.0, (int)ls->shift) * PFT_LAT_BUCKETS < RANGE_PER_OVERHEAD * median)
			ls->shift++;
	} else {
		snprintf(ls->overhead_why, sizeof(ls->overhead_why), "not calibrated: the pair saw "
			 "%llu of %d calls, median %.0f", (unsigned long long)st->count[0],
			 CALIBRATION_RUNS, median);
	}
	free(st);
}

void lat_session_free(struct lat_session *ls)
{
	int cpu;

	for (cpu = 0; ls->cycle_fds && cpu < ls->ncpus; cpu++)
		if (ls->cycle_fds[cpu] >= 0)
			close(ls->cycle_fds[cpu]);
	free(ls->cycle_fds);
	ls->cycle_fds = NULL;
}
