// SPDX-License-Identifier: GPL-2.0
/*
 * A trace session, libbpf-tools shaped: plan every target, open, set
 * read-only globals, load, attach, loop (sleep, print interval, repeat),
 * detach, read the final counts, render. Nothing is attached until every
 * target has a plan, so one bad -f fails the start, not the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "annotate.h"
#include "caps.h"
#include "cpu.h"
#include "duty.h"
#include "feature_probe.h"
#include "ktext.h"
#include "output.h"
#include "progress.h"
#include "report.h"
#include "sampling.h"
#include "session.h"
#include "filter.h"
#include "latency_setup.h"
#include "snapshot.h"
#include "walk_loop.h"
#include "targets.h"
#include "workload.h"

static double process_start_s;

struct session {
	const struct trace_opts *opts;
	struct sampler *sampler;
	struct sample_result samples;
	bool sampled;
	char sampling_off[PFT_ERRLEN];
	const struct kfunc *funcs;      /* the session's kallsyms, kf.ksyms, owns them */
	int nfuncs;
	const struct kfunc *traced_fn[PFT_MAX_TARGETS];  /* NULL: not in kallsyms */
	struct function_profile profiles[PFT_MAX_TARGETS];
	struct table_snapshot snaps[PFT_MAX_TARGETS];
	struct lat_session lat;
	struct task_filter filter;       /* -p, --cgroup, --only-command, --by */
	struct run_filter run_filter;
	struct by_report by[PFT_MAX_TARGETS];
	struct startup_phase phases[PFT_MAX_PHASES];
	int nphases;
	struct latency_stats lat_stats[PFT_MAX_TARGETS];
	struct walk_loop loops[PFT_MAX_TARGETS];
	char loop_why[PFT_MAX_TARGETS][PFT_ERRLEN];
	char snap_err[PFT_MAX_TARGETS][PFT_ERRLEN];
	int bpf_stats_fd;        /* BPF_ENABLE_STATS, held for this session only */
	char stats_why[PFT_ERRLEN];
	struct kernel_facts kf;
	struct target targets[PFT_MAX_TARGETS];
	int ntargets;
	struct workload run;             /* -- COMMAND, and the signals that end the run */
	int ncpus;
	void *percpu_buf;
	__u64 *agreed_buf;               /* agreed_walks: PFT_AGREED_SLOTS keys x ncpus */
	/* the run itself */
	struct chain_stats prev[PFT_MAX_TARGETS];  /* at the last -i report */
	double startup_ms;              /* process start to every target attached */
	time_t wall_start;
	double start, end;              /* monotonic */
	double cpu_s;                   /* pftrace's own CPU from start to end (detach, snapshots in) */
	const char *end_reason;
	/* --sample N: attached one slice of time in N (model/duty.h) */
	struct {
		bool attached;
		double attach_began;            /* the current or last slice's attach began */
		double on_since;                /* the walks of the current slice began */
		double attached_s;              /* walking in all, the current slice left out */
		double attached_at_tick;        /* attached_s as of the last -i report */
		double attaching_s, detaching_s; /* inside attach and detach calls */
		unsigned int attaches, detaches;
		unsigned int slices;
		double slice_s;                 /* the slice walked, or the next: --slice or chosen */
		double attach_cpu_s, detach_cpu_s; /* pftrace's CPU inside them */
		double walk_cpu_s;              /* the cycled programs' BPF run time while walking */
		__u64 run_ns_at_resume;
		bool stays_attached;            /* the kernel cannot re-attach: pauses only */
	} duty;
	/* --max-overhead: BPF run time over the last window */
	double cap_window_start;
	__u64 cap_window_ns;
	char child_cmd[1024];
};

/* "fexit/avc_lookup" -> kind "fexit", function "avc_lookup" */
static bool section_is(const struct bpf_program *prog, const char *kind, const char *func)
{
	const char *sec = bpf_program__section_name(prog), *slash = strchr(sec, '/');

	if (!slash || strncmp(sec, kind, (size_t)(slash - sec)) || strlen(kind) != (size_t)(slash - sec))
		return false;
	return !func || !strcmp(slash + 1, func);
}

/*
 * Keep only the programs of the planned method, for the traced function
 * and, for fexit, the one whose name ends in "_N" with N the function's
 * parameter count in this kernel's BTF: an fexit program reads its
 * arguments and the return value at fixed context slots, so a recipe
 * carries one program per parameter layout and the kernel picks.
 */
static int select_programs(struct target *t, const struct kernel_facts *kf,
			   char *err, size_t errlen)
{
	const char *func = t->recipe->traced;
	struct bpf_program *prog;
	char names[16][32], suffix[8];
	int nparams = btf_func_params(kf->btf, func, names, NULL, 16), kept = 0;

	snprintf(suffix, sizeof(suffix), "_%d", nparams);
	bpf_object__for_each_program(prog, t->obj) {
		const char *name = bpf_program__name(prog);
		bool keep;

		if (t->method == ATTACH_FEXIT)
			keep = section_is(prog, "fexit", func) &&
			       strlen(name) > strlen(suffix) &&
			       !strcmp(name + strlen(name) - strlen(suffix), suffix);
		else
			keep = section_is(prog, "kprobe", func) || section_is(prog, "kretprobe", func);
		bpf_program__set_autoload(prog, keep);
		kept += keep;
	}
	if (!kept) {
		snprintf(err, errlen, "%s: pftrace has no %s program for its %d-parameter "
			 "form on this kernel", func, attach_method_name(t->method), nparams);
		return -ENOENT;
	}
	return 0;
}

/*
 * Plain adds to the per-CPU counters (bpf/walk.bpf.h) where the kernel
 * never runs the target's walking program inside itself on one CPU:
 * always for kprobes (bpf_prog_active), and for fexit where struct
 * bpf_prog has its per-CPU recursion counter "active" (5.12+). -C
 * adds=atomic keeps the atomic adds (the benchmark compares both).
 */
static bool want_plain_adds(const struct target *t, const struct kernel_facts *kf)
{
	if (t->opts->knobs.adds == KNOB_ADDS_ATOMIC)
		return false;
	return t->method == ATTACH_KPROBE || kf->prog_recursion_guard;
}

/* The settings every recipe shares, in its ".rodata.walk" map; NULL if it lacks one. */
static struct walk_config *walk_config_of(struct target *t)
{
	struct bpf_map *map = bpf_object__find_map_by_name(t->obj, ".rodata.walk");
	struct walk_config *cfg;
	size_t size = 0;

	cfg = map ? (struct walk_config *)bpf_map__initial_value(map, &size) : NULL;
	return cfg && size >= sizeof(*cfg) ? cfg : NULL;
}

/*
 * --sample's fexit targets: attached one slice in N, their walks paused
 * between slices (walk_pause). Their opts are the session's.
 */
static bool duty_cycled(const struct target *t)
{
	return t->opts->duty_one_in > 1 && t->method == ATTACH_FEXIT;
}

static int set_walk_config(struct target *t, const struct kernel_facts *kf, char *err,
			   size_t errlen)
{
	struct walk_config *cfg = walk_config_of(t);
	struct bpf_map *map;
	size_t size = 0;

	if (!cfg) {
		snprintf(err, errlen, "%s: BPF object lacks .rodata.walk", t->recipe->traced);
		return -EINVAL;
	}
	cfg->sample_every = t->opts->sample_every;
	cfg->walk_off = t->opts->knobs.walk == KNOB_WALK_OFF;
	cfg->plain_adds = t->plain_adds = want_plain_adds(t, kf);
	/*
	 * --sample's fexit targets load paused: each walks from the resume
	 * that starts the first slice, once every target is attached, not
	 * from its own attach (session.c, duty_begin()).
	 */
	if (duty_cycled(t)) {
		struct walk_pause *pause;

		map = bpf_object__find_map_by_name(t->obj, ".data.pause");
		pause = map ? (struct walk_pause *)bpf_map__initial_value(map, &size) : NULL;
		if (!pause || size < sizeof(*pause)) {
			snprintf(err, errlen, "%s: BPF object lacks .data.pause", t->recipe->traced);
			return -EINVAL;
		}
		pause->paused = 1;
	}
	return 0;
}

/*
 * Once every part of the start has written its settings, the exit
 * programs' body: lean when all of them are at their defaults, the walk
 * compiled for those (SETTING() in bpf/walk.bpf.h), with no load of a
 * setting left in it.
 */
static void walk_config_settle(struct target *t)
{
	struct walk_config *cfg = walk_config_of(t);

	if (!cfg)
		return;
	if (cfg->walk_off)
		cfg->body = PFT_BODY_NONE;
	else if (cfg->sample_every > 1 || cfg->count_keys || cfg->latency || cfg->filter ||
		 cfg->by != PFT_BY_NONE || !cfg->plain_adds)
		cfg->body = PFT_BODY_SETTINGS;
	else if (duty_cycled(t))
		cfg->body = PFT_BODY_LEAN_PAUSABLE;
	else
		cfg->body = PFT_BODY_LEAN;
}

/* the object is loaded with bpf_object__load(), not the skeleton's
 * loader, so its global data is read through the map, not an mmap */
static __u64 read_table_slots(const struct target *t)
{
	struct bpf_map *map = bpf_object__find_map_by_name(t->obj, ".data.walk");
	struct walk_output out = { 0 };
	__u32 zero = 0;

	if (!map || bpf_map__value_size(map) != sizeof(out) ||
	    bpf_map_lookup_elem(bpf_map__fd(map), &zero, &out))
		return 0;
	return out.table_slots;
}

/* What the verifier processed for the target's programs (0 before 5.16) */
static __u64 verified_insns(const struct target *t)
{
	struct bpf_program *prog;
	__u64 sum = 0;

	bpf_object__for_each_program(prog, t->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (bpf_program__fd(prog) < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			sum += info.verified_insns;
	}
	return sum;
}

/*
 * Attach the target's loaded programs (again, for --sample's next slice).
 * Return programs first, and (target_detach) gone last: then every call
 * whose entry a kprobe stashed has its return hooked, and no stale entry
 * is left for another call's return to take for its own.
 */
static bool is_return_program(const struct bpf_program *prog)
{
	return !strncmp(bpf_program__section_name(prog), "kretprobe", 9) ||
	       !strncmp(bpf_program__section_name(prog), "fexit", 5);
}

static int target_attach(struct target *t, char *err, size_t errlen)
{
	struct bpf_program *prog;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		bpf_object__for_each_program(prog, t->obj) {
			struct bpf_link *link;

			/* the snapshot program runs by BPF_PROG_TEST_RUN, never from a hook */
			if (!bpf_program__autoload(prog) ||
			    !strcmp(bpf_program__name(prog), "snapshot_table") ||
			    is_return_program(prog) != (pass == 0))
				continue;
			if (t->nlinks == PFT_MAX_LINKS) {
				snprintf(err, errlen, "%s: too many programs", t->recipe->traced);
				return -E2BIG;
			}
			link = bpf_program__attach(prog);
			if (!link) {
				int rc = -errno;

				snprintf(err, errlen, "%s: attaching %s failed: %s", t->recipe->traced,
					 bpf_program__name(prog), kerr_str(rc));
				return rc;
			}
			t->links[t->nlinks++] = link;
		}
	}
	return 0;
}

/*
 * Direct loads (bpf/walk.bpf.h): for fexit programs, on a kernel that
 * takes them (kernel_takes_direct_loads(): every recipe's window lies
 * within PFT_WINDOW_BYTES of its entry's start on the kernels checked)
 * and whose layout the recipe's direct build serves (its direct_layout:
 * the AVC's needs tsid right after ssid), unless they were refused once
 * or -C loads=probe asks for the probe reads (the benchmark compares
 * both).
 */
static bool want_direct_loads(const struct target *t, const struct kernel_facts *kf)
{
	if (t->method != ATTACH_FEXIT || t->direct_refused || t->opts->knobs.loads == KNOB_LOADS_PROBE)
		return false;
	if (t->recipe->direct_layout && !t->recipe->direct_layout(kf))
		return false;
	return kernel_takes_direct_loads(kf);
}

/*
 * Open the target's object for the planned method and set it up: the
 * part of a start that reads the BTF. 0, 1 when the object cannot be
 * opened, 2 when the kernel lacks what the recipe needs.
 */
static int target_open(struct target *t, const struct kernel_facts *kf, char *err,
		       size_t errlen)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts,
		    /* CO-RE relocations against --btf instead of the kernel's */
		    .btf_custom_path = kf->btf_custom ? kf->btf_load_path : NULL);
	const struct recipe *r = t->recipe;
	double t0 = monotonic_s();
	int rc;

	t->direct_loads = want_direct_loads(t, kf);
	rc = r->open(t, &open_opts);
	if (rc) {
		snprintf(err, errlen, "%s: cannot open the BPF object: %s", r->traced, kerr_str(rc));
		return 1;
	}
	if (select_programs(t, kf, err, errlen) || set_walk_config(t, kf, err, errlen) ||
	    r->configure(t, kf, err, errlen))
		return 2;
	if (t->opts->snapshot &&
	    snapshot_prepare(t, !t->opts->snapshot_only, t->opts->key_limit, err, errlen))
		return 2;
	if (t->opts->latency && lat_prepare_target(t, t->lat, err, errlen))
		return 2;
	if (t->filter && filter_prepare_target(t->filter, t, err, errlen))
		return 2;
	walk_config_settle(t);
	t->open_ms = (monotonic_s() - t0) * 1000;
	return 0;
}

/* Load and attach an opened target: 0, or 1 when the kernel refused. */
static int target_load_attach(struct target *t, char *err, size_t errlen)
{
	double t0, t1 = monotonic_s();
	struct bpf_map *map;
	int rc;

	rc = bpf_object__load(t->obj);
	t0 = monotonic_s();
	t->load_ms = (t0 - t1) * 1000;
	if (rc) {
		snprintf(err, errlen, "%s: the kernel refused the %s programs: %s (-v shows "
			 "the verifier's log)", t->recipe->traced, attach_method_name(t->method),
			 kerr_str(rc));
		return 1;
	}
	map = bpf_object__find_map_by_name(t->obj, "chain_counters");
	t->counters_fd = map ? bpf_map__fd(map) : -1;
	map = bpf_object__find_map_by_name(t->obj, "agreed_walks");
	t->agreed_fd = map ? bpf_map__fd(map) : -1;
	if (t->filter && filter_after_load(t->filter, t, err, errlen))
		return 1;
	if (t->opts->latency && lat_after_load(t, t->lat, err, errlen))
		return 1;
	if (!t->opts->snapshot_only && target_attach(t, err, errlen))
		return 1;
	t->attach_ms = (monotonic_s() - t0) * 1000;
	t->verified_insns = verified_insns(t);
	return 0;
}

/*
 * A refused target started over: the BTF parsed again to open it, and
 * dropped again before the load, where libbpf parses its own copy (kept,
 * the two copies made a fallback the session's peak of memory).
 */
static int target_restart(struct target *t, struct kernel_facts *kf, char *err, size_t errlen)
{
	int rc;

	if (kernel_facts_reload_btf(kf, err, errlen))
		return 2;
	rc = target_open(t, kf, err, errlen);
	kernel_facts_drop_btf(kf);
	return rc ? rc : target_load_attach(t, err, errlen);
}

/* BPF run time and run count of the target's programs so far. */
static void read_overhead(const struct target *t, __u64 *run_time_ns, __u64 *runs,
			  __u64 *recursion_misses)
{
	struct bpf_program *prog;

	*run_time_ns = *runs = *recursion_misses = 0;
	bpf_object__for_each_program(prog, t->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (!bpf_program__autoload(prog) || bpf_program__fd(prog) < 0 ||
		    !strcmp(bpf_program__name(prog), "snapshot_table"))
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		*run_time_ns += info.run_time_ns;
		*runs += info.run_cnt;
		*recursion_misses += info.recursion_misses;
	}
}

static void target_free(struct target *t);

/*
 * Load and attach a target opened with the planned method; when fexit
 * was planned untested and the kernel refuses it (no trampolines, too
 * many arguments, an LSM), start over with kprobe + kretprobe and say
 * why.
 */
static int target_start(struct target *t, struct kernel_facts *kf, char *err, size_t errlen)
{
	char fexit_err[PFT_ERRLEN], kprobe_err[PFT_ERRLEN];
	int rc = target_load_attach(t, err, errlen);
	size_t used;

	/* direct loads refused: the same programs with probe reads, said in the plan */
	if (rc == 1 && t->direct_loads) {
		used = strlen(t->plan_note);
		snprintf(t->plan_note + used, sizeof(t->plan_note) - used, "%sdirect loads refused "
			 "(%s); using probe reads", used ? "\n" : "", err);
		fprintf(stderr, "pftrace: %s; using probe reads\n", err);
		target_free(t);
		t->direct_refused = true;
		rc = target_restart(t, kf, err, errlen);
	}
	if (rc != 1 || t->method != ATTACH_FEXIT || !t->may_fall_back)
		return rc;
	snprintf(fexit_err, sizeof(fexit_err), "%s", err);
	target_free(t);
	t->method = ATTACH_KPROBE;
	rc = target_restart(t, kf, kprobe_err, sizeof(kprobe_err));
	if (rc) {
		snprintf(err, errlen, "%s; and with kprobes: %s", fexit_err, kprobe_err);
		return rc;
	}
	used = strlen(t->plan_note);
	snprintf(t->plan_note + used, sizeof(t->plan_note) - used, "%s%s; using kprobe + kretprobe",
		 used ? "\n" : "", fexit_err);
	fprintf(stderr, "pftrace: %s; using kprobe + kretprobe\n", fexit_err);
	return 0;
}

static void target_detach(struct target *t)
{
	int i;

	/* in the reverse of target_attach()'s order: entry programs first */
	for (i = t->nlinks - 1; i >= 0; i--)
		bpf_link__destroy(t->links[i]);
	t->nlinks = 0;
}

/*
 * --sample N: the programs are attached for one slice of time in N
 * (model/duty.h says how long, and when the next), so that the whole
 * cost, the trampoline's included, falls to about 1/N. Where inside an
 * attach or a detach the programs go live or quiet differs by kernel
 * (in the lab 6.12 quiets them as a detach begins, 6.1 near its end),
 * and a detach returns only after an RCU-tasks grace period (ftrace's
 * unregister: 50-400 ms in the lab), one target after another. So the
 * programs walk only while walk_pause.paused is clear: it is cleared
 * once every target is attached and set before the first detach. The
 * time attached is the time between, exactly, and the counts scaled by
 * the run's duration over it are estimates of the whole run's. A target
 * waiting for its detach meanwhile costs only its trampoline.
 *
 * fexit targets only: a kretprobe registered afresh for every slice
 * missed most returns in the lab, so kprobe targets stay attached, and
 * their plan says so.
 */
static bool duty_cycling(const struct session *s)
{
	return s->opts->duty_one_in > 1;
}


static bool pause_cycled(struct session *s, bool paused);

/* this thread's CPU: attach and detach run their kernel work on it */
static double thread_cpu_s(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* BPF run time of every target's programs so far, or of the cycled ones
 * only (0 without BPF_ENABLE_STATS) */
static __u64 run_time_ns(const struct session *s, bool cycled_only)
{
	__u64 total = 0, ns, runs, misses;
	int i;

	for (i = 0; i < s->ntargets; i++) {
		if (cycled_only && !duty_cycled(&s->targets[i]))
			continue;
		read_overhead(&s->targets[i], &ns, &runs, &misses);
		total += ns;
	}
	return total;
}

/*
 * The slices' length follows the measured costs, unless --slice fixes
 * it, BPF run time is not measured (BPF_ENABLE_STATS refused: no walking
 * cost to set against the switch), or the programs stay attached, where
 * a switch is a pause and costs nothing.
 */
static bool slice_chosen(const struct session *s)
{
	return !s->opts->slice_set && s->bpf_stats_fd >= 0 && !s->duty.stays_attached;
}

static bool duty_begin(struct session *s)
{
	/* attach() attached everything, paused: the first slice starts here */
	if (!pause_cycled(s, false))
		return false;
	s->duty.attached = true;
	s->duty.slice_s = s->opts->slice_s;
	s->duty.on_since = s->duty.attach_began = monotonic_s();
	s->duty.run_ns_at_resume = run_time_ns(s, true);
	s->duty.slices = 1;
	return true;
}

/* attached so far, up to NOW */
static double duty_attached_s(const struct session *s, double now)
{
	return s->duty.attached_s + (s->duty.attached ? now - s->duty.on_since : 0);
}

static void detach_cycled(struct session *s)
{
	int i;

	for (i = 0; i < s->ntargets; i++)
		if (duty_cycled(&s->targets[i]))
			target_detach(&s->targets[i]);
}

/*
 * Pause (or resume) the walks of every cycled target: one write to an
 * array map each, which does not fail but for a broken object. False
 * when one failed: a resume that did not happen must not count as
 * walking time, so the run ends there (a failed pause is followed by
 * the detach, which stops the walks as well).
 */
static bool pause_cycled(struct session *s, bool paused)
{
	struct walk_pause ctl = { .paused = paused };
	bool ok = true;
	__u32 zero = 0;
	int i;

	for (i = 0; i < s->ntargets; i++) {
		struct bpf_map *map;

		if (!duty_cycled(&s->targets[i]))
			continue;
		map = bpf_object__find_map_by_name(s->targets[i].obj, ".data.pause");
		if (!map || bpf_map_update_elem(bpf_map__fd(map), &zero, &ctl, BPF_ANY)) {
			fprintf(stderr, "pftrace: --sample: cannot %s %s's walks: %s\n",
				paused ? "pause" : "resume", s->targets[i].recipe->traced,
				map ? strerror(errno) : "no .data.pause map");
			ok = false;
		}
	}
	return ok;
}

/* The slice ends: the walks pause, and the time attached and their cost stop here. */
static void duty_slice_end(struct session *s)
{
	__u64 run_ns;

	pause_cycled(s, true);
	s->duty.attached_s += monotonic_s() - s->duty.on_since;
	run_ns = run_time_ns(s, true);
	/* a program whose figures could not be read leaves the sum lower */
	if (run_ns > s->duty.run_ns_at_resume)
		s->duty.walk_cpu_s += (double)(run_ns - s->duty.run_ns_at_resume) / 1e9;
	s->duty.attached = false;
}

/* Detach the paused targets, timed: the kernel's wait shows, and its CPU. */
static void duty_detach(struct session *s)
{
	double t0 = monotonic_s(), cpu0 = thread_cpu_s(), took;

	detach_cycled(s);
	took = monotonic_s() - t0;
	s->duty.detach_cpu_s += thread_cpu_s() - cpu0;
	s->duty.detaching_s += took;
	s->duty.detaches++;
}

/* pftrace's CPU for one switch, a detach and an attach, the means so far;
 * before any re-attach the detach stands for both */
static double switch_cpu_s(const struct session *s)
{
	double detach = s->duty.detaches ? s->duty.detach_cpu_s / s->duty.detaches : 0;
	double attach = s->duty.attaches ? s->duty.attach_cpu_s / s->duty.attaches : detach;

	return detach + attach;
}

/* the slice the costs measured so far ask for (model/duty.h) */
static double next_slice_s(const struct session *s)
{
	return duty_next_slice_s(switch_cpu_s(s), s->duty.walk_cpu_s, s->duty.attached_s,
				 s->opts->slice_s, DUTY_MAX_CHOSEN_SLICE_MS / 1000.0);
}

/* The next slice's edge; false when a re-attach failed (the run ends). */
static bool duty_switch(struct session *s, double *next)
{
	double t0 = monotonic_s(), cpu0, ended, t1;
	char err[PFT_ERRLEN];
	int i;

	if (s->duty.attached) {
		duty_slice_end(s);
		if (!s->duty.stays_attached)
			duty_detach(s);
		ended = s->duty.slice_s;
		if (slice_chosen(s))
			s->duty.slice_s = next_slice_s(s);
		*next = duty_next_attach(s->duty.attach_began, ended, s->duty.slice_s,
					 s->opts->duty_one_in, monotonic_s());
		return true;
	}
	s->duty.attach_began = t0;
	cpu0 = thread_cpu_s();
	if (!s->duty.stays_attached) {
		for (i = 0; i < s->ntargets; i++) {
			if (duty_cycled(&s->targets[i]) &&
			    target_attach(&s->targets[i], err, sizeof(err))) {
				fprintf(stderr, "pftrace: --sample: %s; stopped\n", err);
				return false;
			}
		}
	}
	if (!pause_cycled(s, false))
		return false;
	t1 = monotonic_s();
	if (!s->duty.stays_attached) {
		s->duty.attach_cpu_s += thread_cpu_s() - cpu0;
		s->duty.attaching_s += t1 - t0;
		s->duty.attaches++;
	}
	s->duty.on_since = t1;
	s->duty.run_ns_at_resume = run_time_ns(s, true);
	s->duty.attached = true;
	s->duty.slices++;
	/* a slice is of walking time: it starts once every target is attached */
	*next = t1 + s->duty.slice_s;
	return true;
}

/* What the reports say of the duty cycle over SPAN_S, ATTACHED_S of it attached. */
static void duty_summarize(const struct session *s, double span_s, double attached_s,
			   bool whole_run, struct duty_summary *d)
{
	memset(d, 0, sizeof(*d));
	if (!duty_cycling(s))
		return;
	d->one_in = s->opts->duty_one_in;
	d->slice_chosen = slice_chosen(s);
	d->stays_attached = s->duty.stays_attached;
	d->slice_ms = 1000 * s->duty.slice_s;   /* in force at the end: --slice's, or the last chosen */
	d->slices = s->duty.slices;
	d->switching_s = s->duty.attaching_s + s->duty.detaching_s;
	d->attach_ms = s->duty.attaches ? 1000 * s->duty.attaching_s / s->duty.attaches : 0;
	d->detach_ms = s->duty.detaches ? 1000 * s->duty.detaching_s / s->duty.detaches : 0;
	d->switch_cpu_ms = 1000 * switch_cpu_s(s);
	/*
	 * A run that ended within microseconds of its start: call it one
	 * slice. An -i interval between slices walked nothing, and says so.
	 */
	d->attached_s = attached_s > 1e-6 || !whole_run ? fmax(attached_s, 0) :
			fmin(span_s, s->opts->slice_s);
	/* the walks' cost at the rate of the slices ended so far: the whole
	 * run's for the run, an -i interval's share for the interval */
	d->walk_cpu_s = s->duty.attached_s > 1e-6 ?
			s->duty.walk_cpu_s / s->duty.attached_s * d->attached_s : 0;
	d->scale = d->attached_s > 0 && span_s > 0 ? span_s / d->attached_s : 1;
	if (d->scale < 1)
		d->scale = 1;
}

static void target_free(struct target *t)
{
	target_detach(t);
	if (t->skel)
		t->recipe->destroy(t);
}

/*
 * The target's agreed_walks, every key's per-CPU values in turn, into
 * s->agreed_buf: one batch lookup (5.6+), or key by key where the
 * kernel refuses that.
 */
static int read_agreed(struct session *s, const struct target *t)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 keys[PFT_AGREED_SLOTS], next = 0, count = PFT_AGREED_SLOTS, k;

	if (t->agreed_fd < 0)
		return -ENOENT;
	if ((!bpf_map_lookup_batch(t->agreed_fd, NULL, &next, keys, s->agreed_buf, &count, &opts) ||
	     errno == ENOENT) && count == PFT_AGREED_SLOTS) {
		/* an array's keys come in order: check it, rather than trust it */
		for (k = 0; k < count && keys[k] == k; k++)
			;
		if (k == count)
			return 0;
	}
	for (k = 0; k < PFT_AGREED_SLOTS; k++)
		if (bpf_map_lookup_elem(t->agreed_fd, &k, s->agreed_buf + (size_t)k * s->ncpus))
			return -errno;
	return 0;
}

static int read_stats(struct session *s, struct target *t, struct chain_stats *out)
{
	struct chain_counters counters;
	__u32 zero = 0;
	int err;

	memset(out, 0, sizeof(*out));
	if (t->counters_fd < 0 || bpf_map_lookup_elem(t->counters_fd, &zero, s->percpu_buf))
		return -errno;
	chain_counters_sum(&counters, s->percpu_buf, s->ncpus, sizeof(struct chain_counters));
	err = read_agreed(s, t);
	if (err)
		return err;
	chain_counters_add_agreed(&counters, s->agreed_buf, s->ncpus);
	chain_stats_from_counters(out, &counters, s->opts->sample_every);
	return 0;
}

static void fill_target_report(struct target_report *tr, const struct session *s,
			       const struct target *t, const struct chain_stats *stats,
			       const struct duty_summary *duty)
{
	memset(tr, 0, sizeof(*tr));
	tr->requested = t->requested;
	tr->traced = t->recipe->traced;
	tr->recipe = t->recipe->name;
	tr->table = t->recipe->table;
	tr->method = attach_method_name(t->method);
	tr->loads = t->direct_loads ? "direct" : "probe";
	tr->adds = t->plain_adds ? "plain" : "atomic";
	tr->plan_note = t->plan_note;
	tr->detail = t->detail;
	tr->sample_every = t->opts->sample_every;
	if (duty_cycled(t))
		tr->duty = *duty;
	tr->iterator = t->recipe->iterator;
	tr->chain_end = t->recipe->chain_end;
	tr->table_slots = read_table_slots(t);
	tr->stats = *stats;
	report_finish_target(tr);
}

static void fill_overhead(struct target_report *tr, const struct session *s,
			  const struct target *t)
{
	tr->overhead_known = s->bpf_stats_fd >= 0;
	if (tr->overhead_known)
		read_overhead(t, &tr->run_time_ns, &tr->runs, &tr->recursion_misses);
}

/* the machine this run is on: uname, /proc/cpuinfo, online CPUs */
static void set_machine(struct run_report *r)
{
	static struct utsname u;
	static char model[160];
	struct cpu_id id;

	uname(&u);
	cpu_id_read(&id);
	cpu_id_describe(&id, model, sizeof(model));
	r->hostname = u.nodename;
	r->arch = u.machine;
	r->cpu_model = model;
	r->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * One interval's counts: text sections under a time stamp, or with
 * --format json one compact JSON line, so that stdout stays a stream of
 * JSON texts (JSON Lines; the final report is a line of its own too).
 */
static void print_interval(struct session *s, struct chain_stats *prev, double span)
{
	bool json = s->opts->common.format == FORMAT_JSON;
	struct json_object *rec = NULL, *targets = NULL;
	struct target_report tr;
	struct chain_stats cur, delta;
	char stamp[16];
	time_t now = time(NULL);
	int i;

	struct duty_summary duty;
	double attached = duty_attached_s(s, monotonic_s());

	/* this interval's share of the duty cycle, for its own scale */
	duty_summarize(s, span, attached - s->duty.attached_at_tick, false, &duty);
	s->duty.attached_at_tick = attached;
	strftime(stamp, sizeof(stamp), "%H:%M:%S", localtime(&now));
	if (json) {
		rec = json_object_new_object();
		targets = json_object_new_array();
		json_object_object_add(rec, "interval_end", json_object_new_string(stamp));
		json_object_object_add(rec, "interval_s", json_object_new_double(span));
		json_object_object_add(rec, "targets", targets);
	} else {
		printf("%s\n", stamp);
	}
	for (i = 0; i < s->ntargets; i++) {
		if (read_stats(s, &s->targets[i], &cur))
			continue;
		chain_stats_sub(&delta, &cur, &prev[i]);
		prev[i] = cur;
		fill_target_report(&tr, s, &s->targets[i], &delta, &duty);
		if (json) {
			json_object_array_add(targets, render_target_json(&tr, span));
		} else {
			render_target_text(stdout, &tr, span);
			printf("\n");
		}
	}
	if (json) {
		json_print_line(rec, stdout);
		json_object_put(rec);
	}
	fflush(stdout);
}

/*
 * -i with -o FILE.prom: the metrics so far, rewritten (atomically, so a
 * scrape sees one whole file) at every interval; counters count from
 * the session's start, as a Prometheus counter should.
 */
static void write_interval_metrics(struct session *s)
{
	struct run_report *rep = calloc(1, sizeof(*rep));
	struct by_report *by = calloc(PFT_MAX_TARGETS, sizeof(*by));
	struct chain_stats cur;
	struct duty_summary duty;
	char err[PFT_ERRLEN];
	double now;
	int i;

	if (!rep || !by) {
		free(rep);
		free(by);
		return;
	}
	now = monotonic_s();
	rep->kernel_release = s->kf.release;
	rep->duration_s = now - s->start;
	duty_summarize(s, rep->duration_s, duty_attached_s(s, now), true, &duty);
	set_machine(rep);
	for (i = 0; i < s->ntargets; i++) {
		struct target_report *tr = &rep->targets[rep->ntargets];

		if (read_stats(s, &s->targets[i], &cur))
			continue;
		fill_target_report(tr, s, &s->targets[i], &cur, &duty);
		fill_overhead(tr, s, &s->targets[i]);
		if (s->opts->by && !filter_read_by(&s->filter, &s->targets[i], s->opts->sample_every,
						   s->ncpus, &by[i]))
			tr->by = &by[i];
		rep->ntargets++;
	}
	if (report_write_file(rep, s->opts->output_path, err, sizeof(err)))
		fprintf(stderr, "pftrace: %s\n", err);
	for (i = 0; i < PFT_MAX_TARGETS; i++)
		free(by[i].rows);
	free(by);
	free(rep);
}

static void join_command(char *buf, size_t len, char **argv)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; argv && *argv && used < len; argv++)
		used += snprintf(buf + used, len - used, "%s%s", used ? " " : "", *argv);
}

static int plan_all(struct session *s, char *err, size_t errlen)
{
	const struct trace_opts *o = s->opts;
	const struct recipe *planned[PFT_MAX_TARGETS];
	int i, j, rc;

	for (i = 0; i < o->nfunctions; i++) {
		struct target *t = &s->targets[s->ntargets];

		rc = plan_target(t, o->functions[i], o, &s->kf, o->dry_run, err, errlen);
		if (rc)
			return rc;
		for (j = 0; j < s->ntargets; j++) {
			if (s->targets[j].recipe == t->recipe) {
				snprintf(err, errlen, "%s: traced already (as %s, by -f %s)",
					 o->functions[i], t->recipe->traced,
					 s->targets[j].requested);
				return -EEXIST;
			}
		}
		planned[s->ntargets++] = t->recipe;
	}
	/*
	 * The recipes' symbols and the traced functions' addresses, through
	 * BPF where the kernel can; every function (the sampler's trim,
	 * --latency's loop) is read after the run, when nothing is traced.
	 */
	if (load_recipe_ksyms(&s->kf, planned, s->ntargets, false)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* -v: where start-up time goes, the figure the overhead issue bounds */
static void add_phase(struct session *s, const char *name, double ms, __u64 insns)
{
	struct startup_phase *p;

	if (s->opts->common.verbose && insns)
		fprintf(stderr, "pftrace: start-up: %-40s %8.1f ms, %llu instructions verified\n",
			name, ms, (unsigned long long)insns);
	else if (s->opts->common.verbose)
		fprintf(stderr, "pftrace: start-up: %-40s %8.1f ms\n", name, ms);
	if (s->nphases == PFT_MAX_PHASES)
		return;
	p = &s->phases[s->nphases++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->ms = ms;
	p->verified_insns = insns;
}

static void note_phase(struct session *s, const char *phase, double *since)
{
	double now = monotonic_s();

	add_phase(s, phase, (now - *since) * 1000, 0);
	*since = now;
}

/* a target's open; *since moves past it */
static void note_target_open(struct session *s, const struct target *t, double *since)
{
	char name[64];

	snprintf(name, sizeof(name), "%s: open", t->recipe->traced);
	add_phase(s, name, t->open_ms, 0);
	*since = monotonic_s();
}

/* a target's load and verify, and attach; *since moves past them */
static void note_target_phases(struct session *s, const struct target *t, double *since)
{
	char name[64];
	double now = monotonic_s(), rest;

	snprintf(name, sizeof(name), "%s: load and verify", t->recipe->traced);
	add_phase(s, name, t->load_ms, t->verified_insns);
	snprintf(name, sizeof(name), "%s: attach", t->recipe->traced);
	add_phase(s, name, t->attach_ms, 0);
	/* a refused attempt, and its fallback's open, load and attach, are the rest */
	rest = (now - *since) * 1000 - t->load_ms - t->attach_ms;
	if (rest > 5) {
		snprintf(name, sizeof(name), "%s: the rest (a refused attempt and its fallback)",
			 t->recipe->traced);
		add_phase(s, name, rest, 0);
	}
	*since = now;
}

/*
 * Sampling beside the walks, on the traced functions' code, set up
 * paused and resumed once attached. A failure turns sampling off, with
 * a reason, never the trace.
 *
 * Start-up knows only where each function starts (its address came with
 * the recipes' symbols, through BPF where the kernel offers it): a
 * function's end needs the next symbol, which only a read of all of
 * /proc/kallsyms tells, and that read was most of pftrace's start-up
 * (~1 s of 1.8 under QEMU). So the sampler keeps the first
 * PFT_SAMPLE_FN_BYTES from each start, and finish_sampling() reads
 * kallsyms once the walks are detached and trims to the true extent.
 */
#define PFT_SAMPLE_FN_BYTES 16384
static void start_sampling(struct session *s)
{
	unsigned long ranges[PFT_SAMPLE_RANGES][2];
	char err[PFT_ERRLEN];
	int i, n = 0;

	for (i = 0; i < s->ntargets && n < PFT_SAMPLE_RANGES; i++) {
		unsigned long addr = 0;

		if (ksyms_address(s->kf.ksyms, s->targets[i].recipe->traced, "tT", &addr) && addr) {
			ranges[n][0] = addr;
			ranges[n][1] = addr + PFT_SAMPLE_FN_BYTES;
			n++;
		}
	}
	if (!n) {
		snprintf(s->sampling_off, sizeof(s->sampling_off),
			 "no traced function's address in /proc/kallsyms");
		return;
	}
	s->sampler = sampler_start(s->opts->event, (int)s->opts->sample_hz, ranges, n, true,
				   err, sizeof(err));
	if (!s->sampler)
		snprintf(s->sampling_off, sizeof(s->sampling_off), "%s", err);
}

/*
 * The samples the provisional ranges kept, cut to the traced functions'
 * true extent (kallsyms, read after detach): "in_traced" counts those.
 */
static void trim_samples(struct session *s)
{
	struct sample_result *r = &s->samples;
	__u64 kept = 0;
	int i, j, n = 0;

	for (j = 0; j < r->nips; j++) {
		for (i = 0; i < s->ntargets; i++) {
			const struct kfunc *f = s->traced_fn[i];

			if (f && r->ips[j].ip >= f->addr && r->ips[j].ip < f->addr + f->size)
				break;
		}
		if (i == s->ntargets)
			continue;
		kept += r->ips[j].count;
		r->ips[n++] = r->ips[j];
	}
	r->nips = n;
	r->counts.kept = kept;
	for (i = 0; i < s->ntargets; i++) {
		const struct kfunc *f = s->traced_fn[i];

		if (f && f->size > PFT_SAMPLE_FN_BYTES && !r->note[0])
			snprintf(r->note, sizeof(r->note), "%s is %lu bytes; samples past its first "
				 "%d were not kept", f->name, f->size, PFT_SAMPLE_FN_BYTES);
	}
}

/* After detach: the samples, laid on each traced function's code. */
static void finish_sampling(struct session *s)
{
	char err[PFT_ERRLEN];
	struct ktext *kt;
	int i;

	if (!s->sampler)
		return;
	sampler_finish(s->sampler, &s->samples);
	sampler_free(s->sampler);
	s->sampler = NULL;
	s->sampled = true;
	/* the one full read of kallsyms, now that nothing is traced */
	if (!s->funcs && (s->nfuncs = ksyms_funcs(s->kf.ksyms, &s->funcs)) < 0)
		s->nfuncs = 0;
	for (i = 0; i < s->ntargets; i++)
		s->traced_fn[i] = kfunc_named(s->funcs, s->nfuncs, s->targets[i].recipe->traced);
	trim_samples(s);
	kt = ktext_open(KTEXT_AUTO, s->opts->vmlinux, s->kf.ksyms, err, sizeof(err));
	for (i = 0; i < s->ntargets; i++) {
		const struct kfunc *f = s->traced_fn[i];

		if (!f)
			snprintf(s->profiles[i].error, sizeof(s->profiles[i].error),
				 "%s not in /proc/kallsyms", s->targets[i].recipe->traced);
		else if (!kt)
			snprintf(s->profiles[i].error, sizeof(s->profiles[i].error), "%s", err);
		else
			profile_function(f, kt, &s->samples, &s->profiles[i]);
	}
	ktext_close(kt);
}

static void print_plan(const struct session *s, FILE *f, bool dry_run)
{
	int i;

	for (i = 0; i < s->ntargets; i++) {
		const struct target *t = &s->targets[i];

		if (t->plan_note[0])
			fprintf(f, "pftrace: %s\n", t->plan_note);
		if (dry_run || s->opts->common.verbose)
			fprintf(f, "pftrace: plan: %s -> %s via %s (recipe %s)\n", t->requested,
				t->recipe->traced, attach_method_name(t->method), t->recipe->name);
	}
}

void session_mark_process_start(void)
{
	process_start_s = monotonic_s();
}

/* What needs the system but no tracing: refused before anything loads. */
static int preflight(struct session *s, char *err, size_t errlen)
{
	const struct trace_opts *o = s->opts;
	char missing[128];

	if (!o->no_samples) {
		struct perf_event_attr attr;

		if (sample_event_parse(o->event, &attr, err, errlen) ||
		    sample_freq_check(o->sample_hz, err, errlen))
			return -EINVAL;
	}
	if (!caps_can_trace(missing, sizeof(missing))) {
		snprintf(err, errlen, "tracing needs CAP_BPF and CAP_PERFMON (or root); this "
			 "process lacks %s", missing);
		return -EPERM;
	}
	/* a wrong vmlinux is refused now, not after the run */
	if (o->vmlinux) {
		struct ktext *kt = ktext_open(KTEXT_VMLINUX, o->vmlinux, s->kf.ksyms, err, errlen);

		if (!kt)
			return -EINVAL;
		ktext_close(kt);
	}
	if (o->output_path && check_output_path(o->output_path, err, errlen))
		return -EINVAL;
	return filter_open(&s->filter, (pid_t)o->pid, o->cgroup, o->only_command, (enum pft_by)o->by,
			   err, errlen);
}

/* The kernel's facts and the plan: what --dry-run shows. 0 or exit 2. */
static int prepare(struct session *s, double *phase_start)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];

	if (preflight(s, err, sizeof(err)) ||
	    kernel_facts_load(&s->kf, o->common.btf_path, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	note_phase(s, "kernel BTF", phase_start);
	if (plan_all(s, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	note_phase(s, "plan and kallsyms", phase_start);
	print_plan(s, stderr, o->dry_run);
	return 0;
}

/*
 * Load and attach every target, with the sampler and the command. 0, or
 * the exit status; whatever started is undone by session_free().
 */
static int attach(struct session *s, double *phase_start)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];
	int i, rc;

	/* from here a Ctrl-C, attach included, ends in the same orderly stop */
	workload_init(&s->run);

	s->ncpus = libbpf_num_possible_cpus();
	s->percpu_buf = s->ncpus > 0 ? calloc((size_t)s->ncpus, sizeof(struct chain_counters)) : NULL;
	s->agreed_buf = s->ncpus > 0 ? calloc((size_t)s->ncpus * PFT_AGREED_SLOTS,
					      sizeof(*s->agreed_buf)) : NULL;
	if (!s->percpu_buf || !s->agreed_buf) {
		fprintf(stderr, "pftrace: cannot size per-CPU buffers\n");
		return 1;
	}
	/*
	 * Run-time accounting costs two clock reads per program run, so it
	 * is switched on through a file descriptor that lives exactly as
	 * long as this session, never through the global sysctl.
	 */
	s->bpf_stats_fd = bpf_stats_open(s->stats_why, sizeof(s->stats_why));
	if (o->max_overhead_pct && s->bpf_stats_fd < 0) {
		fprintf(stderr, "pftrace: --max-overhead needs the kernel's BPF run-time "
			"statistics (%s)\n", s->stats_why);
		return 2;
	}
	if (o->latency) {
		lat_session_start(&s->lat, s->ncpus, -1);
		lat_calibrate(&s->lat, s->kf.btf_custom ? s->kf.btf_load_path : NULL);
		note_phase(s, "latency calibration", phase_start);
		for (i = 0; i < s->ntargets; i++)
			s->targets[i].lat = &s->lat;
	}
	if (filter_start(&s->filter, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	for (i = 0; i < s->ntargets; i++)
		s->targets[i].filter = &s->filter;
	if (o->only_command) {
		s->run.admit = filter_admit;
		s->run.admit_arg = &s->filter;
	}
	/*
	 * The sampler starts before the walks are traced: its own work
	 * (kallsyms, perf_event_open, a BPF load) calls into SELinux and the
	 * VFS, and pftrace must not count its own lookups.
	 */
	if (!o->no_samples) {
		start_sampling(s);
		note_phase(s, "sampler (perf events, BPF, kernel functions)", phase_start);
	}
	for (i = 0; i < s->ntargets; i++) {
		rc = target_open(&s->targets[i], &s->kf, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pftrace: %s\n", err);
			return rc;
		}
		note_target_open(s, &s->targets[i], phase_start);
	}
	/* what needed the BTF is done: libbpf parses its own copy to load */
	kernel_facts_drop_btf(&s->kf);
	for (i = 0; i < s->ntargets; i++) {
		rc = target_start(&s->targets[i], &s->kf, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pftrace: %s\n", err);
			return rc;
		}
		note_target_phases(s, &s->targets[i], phase_start);
	}
	s->startup_ms = (monotonic_s() - process_start_s) * 1000;
	if (o->command && workload_start(&s->run, o->command, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 2;
	}
	/* after the command's exec, whose own lookups are no workload's */
	sampler_resume(s->sampler);
	return 0;
}

/*
 * --max-overhead: the share of one CPU over the last second, not the
 * run's average, so that a burst cannot hide behind a quiet start.
 */
static bool over_overhead_cap(struct session *s, double now)
{
	__u64 ns = run_time_ns(s, false);
	double pct = 100.0 * (double)(ns - s->cap_window_ns) / ((now - s->cap_window_start) * 1e9);

	if (pct > s->opts->max_overhead_pct) {
		fprintf(stderr, "pftrace: overhead %.2f%% of one CPU passed --max-overhead "
			"%g%%; stopped after %.1f s\n", pct, s->opts->max_overhead_pct, now - s->start);
		return true;
	}
	s->cap_window_ns = ns;
	s->cap_window_start = now;
	return false;
}

/* this process's CPU time so far, user and system */
static double self_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* Until -d, a signal, the command's end or the overhead cap; -i reports meanwhile. */
static void wait_for_end(struct session *s)
{
	const struct trace_opts *o = s->opts;
	double deadline, next_tick, next_cap_check = INFINITY, next_status = INFINITY;
	double next_duty = INFINITY;
	int i;

	if (!o->command && o->common.format == FORMAT_TEXT)
		fprintf(stderr, "Tracing %d function%s... Hit Ctrl-C to end.\n", s->ntargets,
			s->ntargets == 1 ? "" : "s");
	s->wall_start = time(NULL);
	s->start = monotonic_s();
	s->cpu_s = -self_cpu_s();
	deadline = o->duration_s ? s->start + o->duration_s : INFINITY;
	next_tick = o->interval_s ? s->start + o->interval_s : INFINITY;
	/* a terminal sees the time left (or traced) once a second */
	if (progress_on())
		next_status = s->start;
	if (duty_cycling(s)) {
		bool any = false;

		for (i = 0; i < s->ntargets; i++) {
			any |= duty_cycled(&s->targets[i]);
			if (!duty_cycled(&s->targets[i]))
				fprintf(stderr, "pftrace: --sample: %s is traced by kprobes, which stay "
					"attached (a kretprobe attached afresh each slice misses returns); "
					"its counts are whole\n", s->targets[i].recipe->traced);
		}
		s->duty.stays_attached = any && !kernel_reattaches_fexit(&s->kf);
		if (s->duty.stays_attached)
			fprintf(stderr, "pftrace: --sample: kernel %s cannot attach a detached fexit "
				"program again (before 5.19): the programs stay attached, their walks "
				"paused between slices, and every call still pays the trampoline\n",
				s->kf.release);
		/* with nothing to cycle, no slices to keep time for */
		if (any) {
			if (!duty_begin(s)) {
				s->end_reason = "attach failed";
				return;
			}
			next_duty = s->duty.on_since + s->duty.slice_s;
		}
	}
	if (o->max_overhead_pct) {
		next_cap_check = s->start + 1;
		s->cap_window_start = s->start;
		s->cap_window_ns = run_time_ns(s, false);
	}
	for (;;) {
		double now = monotonic_s();

		if (now >= deadline) {
			s->end_reason = "duration";
			progress_done();
			return;
		}
		if (now >= next_status) {
			if (isinf(deadline))
				progress("tracing %d function%s: %.0f s (Ctrl-C ends)", s->ntargets,
					 s->ntargets == 1 ? "" : "s", now - s->start);
			else
				progress("tracing %d function%s: %.0f s left", s->ntargets,
					 s->ntargets == 1 ? "" : "s", ceil(deadline - now));
			next_status += 1;
			continue;
		}
		if (now >= next_tick) {
			progress_done();
			print_interval(s, s->prev, o->interval_s);
			if (o->output_path && output_is_prometheus(o->output_path))
				write_interval_metrics(s);
			next_tick += o->interval_s;
			continue;
		}
		if (now >= next_duty) {
			if (!duty_switch(s, &next_duty)) {
				s->end_reason = "attach failed";
				progress_done();
				return;
			}
			continue;
		}
		if (now >= next_cap_check) {
			if (over_overhead_cap(s, now)) {
				s->end_reason = "overhead cap";
				return;
			}
			next_cap_check = now + 1;
			continue;
		}
		s->end_reason = workload_wait(&s->run, fmin(fmin(fmin(fmin(deadline, next_tick),
									next_cap_check), next_status),
							     next_duty));
		if (s->end_reason) {
			progress_done();
			return;
		}
	}
}

/*
 * The whole table, after the walks were detached, and the lookups the
 * trace counted by key. A snapshot that fails leaves the run intact and
 * says why, in the report and on stderr.
 */
static void take_snapshot(struct session *s, int i)
{
	struct target *t = &s->targets[i];
	struct table_snapshot *snap = &s->snaps[i];
	char *err = s->snap_err[i];

	if (snapshot_take(t, snap, err, PFT_ERRLEN)) {
		fprintf(stderr, "pftrace: %s\n", err);
		return;
	}
	if (!s->opts->snapshot_only &&
	    snapshot_read_counts(t, snap, s->ncpus, err, PFT_ERRLEN)) {
		snprintf(err, PFT_ERRLEN, "%s: cannot read the key counts", t->recipe->traced);
		fprintf(stderr, "pftrace: %s\n", err);
		table_snapshot_free(snap);
	}
}

/*
 * Detach first: the counts read afterwards are final and consistent.
 * Snapshots come before the command is stopped, so that they find the
 * table as the traced lookups left it (a stopped command's sockets,
 * files and mounts would be gone).
 */
static void stop(struct session *s)
{
	/* the run ended inside a slice: it ends with the run, before the detach */
	bool in_slice = duty_cycling(s) && s->duty.attached;
	int i;

	if (in_slice)
		duty_slice_end(s);
	s->end = monotonic_s();
	if (in_slice && !s->duty.stays_attached)
		duty_detach(s);
	for (i = 0; i < s->ntargets; i++)
		target_detach(&s->targets[i]);
	if (s->opts->snapshot)
		for (i = 0; i < s->ntargets; i++)
			take_snapshot(s, i);
	s->cpu_s += self_cpu_s();
	finish_sampling(s);
	workload_stop(&s->run);
}

/*
 * --latency: the counts, and the walk loop of the traced function's
 * code (its instructions per node), which under QEMU -icount is what
 * the cost per node must come to.
 */
static void collect_latency(struct session *s, int i, struct target_report *tr)
{
	struct target *t = &s->targets[i];
	const struct kfunc *f;
	struct ktext *kt;
	char err[PFT_ERRLEN];
	int rc;

	if (lat_read(t, &s->lat, &s->lat_stats[i]))
		return;
	if (t->method != ATTACH_FEXIT)
		s->lat_stats[i].overhead_known = false;
	tr->latency = &s->lat_stats[i];
	tr->latency_unit_why = s->lat.unit_why;
	tr->latency_overhead_why = t->method == ATTACH_FEXIT ? s->lat.overhead_why :
				   "not calibrated: the calibration pair is fentry/fexit, this target kprobes";
	tr->loop_why = s->loop_why[i];
	if (!s->funcs && (s->nfuncs = ksyms_funcs(s->kf.ksyms, &s->funcs)) < 0)
		s->nfuncs = 0;
	f = kfunc_named(s->funcs, s->nfuncs, t->recipe->traced);
	kt = f ? ktext_open(KTEXT_AUTO, s->opts->vmlinux, s->kf.ksyms, err, sizeof(err)) : NULL;
	if (!f)
		snprintf(s->loop_why[i], PFT_ERRLEN, "%s not in /proc/kallsyms", t->recipe->traced);
	else if (!kt)
		snprintf(s->loop_why[i], PFT_ERRLEN, "%s", err);
	else if ((rc = walk_loop_of(f, kt, &s->loops[i])))
		snprintf(s->loop_why[i], PFT_ERRLEN, "%s", rc == -ENOENT ?
			 "no loop that chases a pointer in its code" : "its code is unreadable");
	else {
		tr->loop_min = s->loops[i].min_path;
		tr->loop_max = s->loops[i].max_path;
		tr->loop_body = s->loops[i].body;
	}
	ktext_close(kt);
}

/* The run as the renderers and the run file know it; pointers into s. */
static void collect(struct session *s, struct run_report *rep)
{
	const struct trace_opts *o = s->opts;
	struct chain_stats fin;
	struct duty_summary duty;
	struct rusage ru;
	int i;

	duty_summarize(s, s->end - s->start, s->duty.attached_s, true, &duty);
	rep->command = o->cmdline;
	rep->kernel_release = s->kf.release;
	rep->btf_path = s->kf.btf_path;
	strftime(rep->started, sizeof(rep->started), "%Y-%m-%dT%H:%M:%SZ", gmtime(&s->wall_start));
	rep->duration_s = s->end - s->start;
	rep->end_reason = s->end_reason;
	if (o->command) {
		join_command(s->child_cmd, sizeof(s->child_cmd), o->command);
		rep->child_command = s->child_cmd;
		rep->child_exit = s->run.exit_status;
	}
	for (i = 0; i < s->ntargets; i++) {
		struct target_report *tr = &rep->targets[rep->ntargets++];

		read_stats(s, &s->targets[i], &fin);
		fill_target_report(tr, s, &s->targets[i], &fin, &duty);
		fill_overhead(tr, s, &s->targets[i]);
		if (s->sampled)
			tr->profile = &s->profiles[i];
		if (o->latency)
			collect_latency(s, i, tr);
		if (o->by && !filter_read_by(&s->filter, &s->targets[i], o->sample_every, s->ncpus,
					     &s->by[i]))
			tr->by = &s->by[i];
		if (s->snaps[i].shape.by_len)
			tr->snapshot = &s->snaps[i];
		else if (s->snap_err[i][0])
			tr->snapshot_error = s->snap_err[i];
	}
	filter_describe(&s->filter, &s->run_filter);
	rep->filter = &s->run_filter;
	rep->samples = s->sampled ? &s->samples : NULL;
	rep->sampling_off = o->no_samples ? NULL : s->sampling_off;
	rep->bpf_stats = s->bpf_stats_fd >= 0 ? "" : s->stats_why;
	set_machine(rep);
	rep->startup_ms = s->startup_ms;
	rep->phases = s->phases;
	rep->nphases = s->nphases;
	if (!getrusage(RUSAGE_SELF, &ru))
		rep->peak_rss_kb = ru.ru_maxrss;
	rep->cpu_s = s->cpu_s;
}

/* stdout and -o; the exit status: 0, 1 (a write failed) or 3 (self-check) */
static int render(const struct session *s, const struct run_report *rep)
{
	const struct trace_opts *o = s->opts;
	char err[PFT_ERRLEN];

	if (o->output_path && output_is_stdout(o->output_path)) {
		/* -o -: stdout carries the run file, and only that */
	} else if (o->interval_s && o->common.format == FORMAT_JSON) {
		struct json_object *root = render_json(rep);

		json_print_line(root, stdout);
		json_object_put(root);
	} else {
		report_print(rep, o->common.format);
	}
	if (o->output_path && report_write_file(rep, o->output_path, err, sizeof(err))) {
		fprintf(stderr, "pftrace: %s\n", err);
		return 1;
	}
	return report_self_check_ok(rep) ? 0 : 3;
}

static void session_free(struct session *s)
{
	int i;

	workload_stop(&s->run);
	for (i = 0; i < s->ntargets; i++)
		target_free(&s->targets[i]);
	free(s->percpu_buf);
	free(s->agreed_buf);
	sampler_free(s->sampler);
	sample_result_free(&s->samples);
	for (i = 0; i < s->ntargets; i++) {
		profile_free(&s->profiles[i]);
		table_snapshot_free(&s->snaps[i]);
	}
	lat_session_free(&s->lat);
	filter_close(&s->filter);
	for (i = 0; i < s->ntargets; i++)
		free(s->by[i].rows);
	if (s->bpf_stats_fd >= 0)
		close(s->bpf_stats_fd);
	kernel_facts_free(&s->kf);
	free(s);
}

/*
 * A trace session: prepare (facts, plan) -> attach -> wait -> stop
 * (detach) -> collect -> render. Every exit goes through session_free(),
 * which undoes whatever started.
 */
int run_trace(const struct trace_opts *o)
{
	struct session *s = calloc(1, sizeof(*s));
	struct run_report *rep = calloc(1, sizeof(*rep));
	double phase_start = process_start_s;
	int rc;

	if (!s || !rep) {
		fprintf(stderr, "pftrace: out of memory\n");
		free(s);
		free(rep);
		return 1;
	}
	s->opts = o;
	s->bpf_stats_fd = -1;
	s->filter.tgids_fd = s->filter.cgroup_fd = -1;
	s->end_reason = "interrupted";
	setup_libbpf_logging(o->common.verbose);

	rc = prepare(s, &phase_start);
	if (!rc && !o->dry_run)
		rc = attach(s, &phase_start);
	if (!rc && !o->dry_run) {
		if (!o->snapshot_only)
			wait_for_end(s);
		else
			s->wall_start = time(NULL), s->start = monotonic_s(),
			s->cpu_s = -self_cpu_s(), s->end_reason = "snapshot only";
		stop(s);
		collect(s, rep);
		rc = render(s, rep);
	}
	free(rep);
	session_free(s);
	return rc;
}
