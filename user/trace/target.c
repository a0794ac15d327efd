// SPDX-License-Identifier: GPL-2.0
/*
 * A target's BPF object: open, choose its programs and write its
 * settings, load, attach (and detach and attach again for --sample),
 * free. Every map and global comes from the skeleton's typed fields
 * (t->bpf, RECIPE_SKELETON); only the attach point a program's section
 * names is read as a string, here, since libbpf offers no other way to
 * it (program_hooks()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "filter.h"
#include "latency_setup.h"
#include "snapshot.h"
#include "target.h"
#include "trace_opts.h"
#include "workload.h"

bool program_hooks(const struct bpf_program *prog, const char *kind, const char *func)
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
	int nparams = btf_func_params(recipe_btf(kf, t->recipe), func, names, NULL, 16), kept = 0;

	snprintf(suffix, sizeof(suffix), "_%d", nparams);
	bpf_object__for_each_program(prog, t->obj) {
		const char *name = bpf_program__name(prog);
		bool keep;

		if (t->method == ATTACH_FEXIT)
			keep = program_hooks(prog, "fexit", func) &&
			       strlen(name) > strlen(suffix) &&
			       !strcmp(name + strlen(name) - strlen(suffix), suffix);
		else
			keep = program_hooks(prog, "kprobe", func) ||
			       program_hooks(prog, "kretprobe", func);
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
 * Plain adds to the per-CPU counters (bpf/settings.bpf.h) where the
 * kernel never runs the target's walking program inside itself on one
 * CPU: always for kprobes (bpf_prog_active), and for fexit where struct
 * bpf_prog has its per-CPU recursion counter "active" (5.12+). -C
 * adds=atomic keeps the atomic adds (the benchmark compares both).
 */
static bool want_plain_adds(const struct target *t, const struct kernel_facts *kf)
{
	if (t->opts->knobs.adds == KNOB_ADDS_ATOMIC)
		return false;
	return t->method == ATTACH_KPROBE || kf->prog_recursion_guard;
}

bool target_cycled(const struct target *t)
{
	return t->opts->duty_one_in > 1 && t->method == ATTACH_FEXIT;
}

int target_walk_until(struct target *t, __u64 until_ns)
{
	struct walk_pause ctl = { .until_ns = until_ns };
	__u32 zero = 0;

	/* one store where the global data is mmapped: no system call per slice
	 * (an aligned 64-bit store, which a program reads whole) */
	if (t->bpf.pause) {
		*(volatile __u64 *)&t->bpf.pause->until_ns = until_ns;
		return 0;
	}
	if (bpf_map_update_elem(bpf_map__fd(t->bpf.pause_map), &zero, &ctl, BPF_ANY))
		return -errno;
	return 0;
}

static int set_walk_config(struct target *t, const struct kernel_facts *kf, char *err,
			   size_t errlen)
{
	struct walk_config *cfg = t->bpf.config;

	if (!cfg) {
		snprintf(err, errlen, "%s: the BPF object has no walk settings", t->recipe->traced);
		return -EINVAL;
	}
	cfg->sample_every = t->opts->sample_every;
	cfg->walk_off = t->opts->knobs.walk == KNOB_WALK_OFF;
	cfg->plain_adds = t->plain_adds = want_plain_adds(t, kf);
	/*
	 * --sample's fexit targets load paused: each walks from the resume
	 * that starts the first slice, once every target is attached, not
	 * from its own attach (duty_cycle.c).
	 */
	if (target_cycled(t))
		target_walk_until(t, PFT_WALK_PAUSED);
	return 0;
}

/*
 * Once every part of the start has written its settings, the exit
 * programs' body: lean when all of them are at their defaults, the walk
 * compiled for those (SETTING() in bpf/settings.bpf.h), with no load of
 * a setting left in it.
 */
static void walk_config_settle(struct target *t)
{
	struct walk_config *cfg = t->bpf.config;

	if (!cfg)
		return;
	if (cfg->walk_off)
		cfg->body = PFT_BODY_NONE;
	else if (cfg->sample_every > 1 || cfg->count_keys || cfg->latency || cfg->filter ||
		 cfg->by != PFT_BY_NONE || !cfg->plain_adds)
		cfg->body = PFT_BODY_SETTINGS;
	else if (target_cycled(t))
		cfg->body = PFT_BODY_LEAN_PAUSABLE;
	else
		cfg->body = PFT_BODY_LEAN;
}

__u64 target_table_slots(const struct target *t)
{
	struct walk_output out = { 0 };
	__u32 zero = 0;

	if (t->bpf.output)
		return t->bpf.output->table_slots;
	if (bpf_map_lookup_elem(bpf_map__fd(t->bpf.output_map), &zero, &out))
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
 * Return programs attach first, and (target_detach) go last: then every
 * call whose entry a kprobe stashed has its return hooked, and no stale
 * entry is left for another call's return to take for its own.
 */
static bool is_return_program(const struct bpf_program *prog)
{
	return program_hooks(prog, "kretprobe", NULL) || program_hooks(prog, "fexit", NULL);
}

int target_attach(struct target *t, char *err, size_t errlen)
{
	struct bpf_program *prog;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		bpf_object__for_each_program(prog, t->obj) {
			struct bpf_link *link;

			/* the snapshot program runs by BPF_PROG_TEST_RUN, never from a hook */
			if (!bpf_program__autoload(prog) || prog == t->bpf.snapshot ||
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
 * Direct loads (bpf/kread.bpf.h): for fexit programs, on a kernel that
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

/* What the session's options ask of the object beyond the walk, before its load. */
static int prepare_options(struct target *t, char *err, size_t errlen)
{
	if (t->opts->snapshot &&
	    snapshot_prepare(t, !t->opts->snapshot_only, t->opts->key_limit, err, errlen))
		return -EINVAL;
	if (t->opts->latency && lat_prepare_target(t, t->lat, err, errlen))
		return -EINVAL;
	if (t->filter && filter_prepare_target(t->filter, t, err, errlen))
		return -EINVAL;
	return 0;
}

int target_open(struct target *t, const struct kernel_facts *kf, char *err, size_t errlen)
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
	    r->configure(t, kf, err, errlen) || prepare_options(t, err, errlen))
		return 2;
	walk_config_settle(t);
	t->open_ms = (monotonic_s() - t0) * 1000;
	return 0;
}

/*
 * A load refused for memory, not for its code: a map the kernel would
 * not create (libbpf's log names it), or RLIMIT_MEMLOCK where the
 * kernel charges BPF to it (before 5.11; libbpf raises the limit itself
 * only with CAP_SYS_RESOURCE). Probe reads or kprobes would need the
 * same memory, so no fallback is tried (map_refused). True with ERR.
 */
static bool refused_for_memory(struct target *t, int rc, char *err, size_t errlen)
{
	unsigned long long limit;
	const char *map;
	int map_err;

	map = libbpf_refused_map(&map_err);
	if (rc == -EPERM && kernel_memlock_limits_bpf(&limit)) {
		snprintf(err, errlen, "%s: the kernel refused %s%s: RLIMIT_MEMLOCK is %llu KiB, "
			 "and this kernel charges BPF maps and programs to it; raise it (ulimit -l "
			 "unlimited, LimitMEMLOCK=infinity in a unit) or run with CAP_SYS_RESOURCE",
			 t->recipe->traced, map ? "map " : "the programs", map ? map : "",
			 limit / 1024);
	} else if (map) {
		struct bpf_map *m = bpf_object__find_map_by_name(t->obj, map);

		snprintf(err, errlen, "%s: the kernel refused map %s (%u entries): %s%s",
			 t->recipe->traced, map, m ? bpf_map__max_entries(m) : 0,
			 kerr_str(map_err),
			 m && m == t->bpf.key_counts ? "; a smaller --keys needs less" : "");
	} else {
		return false;
	}
	t->map_refused = true;
	return true;
}

/* Load and attach an opened target: 0, or 1 when the kernel refused. */
static int target_load_attach(struct target *t, char *err, size_t errlen)
{
	double t0, t1 = monotonic_s();
	int rc;

	libbpf_refused_map_clear();
	rc = t->recipe->load(t);
	t0 = monotonic_s();
	t->load_ms = (t0 - t1) * 1000;
	if (rc && refused_for_memory(t, rc, err, errlen))
		return 1;
	if (rc) {
		snprintf(err, errlen, "%s: the kernel refused the %s programs: %s (-v shows "
			 "the verifier's log)", t->recipe->traced, attach_method_name(t->method),
			 kerr_str(rc));
		return 1;
	}
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

void target_overhead(const struct target *t, __u64 *run_time_ns, __u64 *runs,
		     __u64 *recursion_misses)
{
	struct bpf_program *prog;

	*run_time_ns = *runs = *recursion_misses = 0;
	bpf_object__for_each_program(prog, t->obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (!bpf_program__autoload(prog) || bpf_program__fd(prog) < 0 ||
		    prog == t->bpf.snapshot)
			continue;
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
			continue;
		*run_time_ns += info.run_time_ns;
		*runs += info.run_cnt;
		*recursion_misses += info.recursion_misses;
	}
}

__u64 target_run_time_ns(const struct target *t)
{
	__u64 ns, runs, misses;

	target_overhead(t, &ns, &runs, &misses);
	return ns;
}

/* A fallback: NOTED, a line more in the target's plan, SAID on stderr, and what instead. */
static void note_fallback(struct target *t, const char *noted, const char *said,
			  const char *instead)
{
	size_t used = strlen(t->plan_note);

	snprintf(t->plan_note + used, sizeof(t->plan_note) - used, "%s%s; %s",
		 used ? "\n" : "", noted, instead);
	fprintf(stderr, "pftrace: %s; %s\n", said, instead);
}

int target_start(struct target *t, struct kernel_facts *kf, char *err, size_t errlen)
{
	char fexit_err[PFT_ERRLEN], kprobe_err[PFT_ERRLEN], why[PFT_ERRLEN + 32];
	int rc = target_load_attach(t, err, errlen);

	if (rc == 1 && t->map_refused)
		return rc;
	/* direct loads refused: the same programs with probe reads, said in the plan */
	if (rc == 1 && t->direct_loads) {
		snprintf(why, sizeof(why), "direct loads refused (%s)", err);
		note_fallback(t, why, err, "using probe reads");
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
	note_fallback(t, fexit_err, fexit_err, "using kprobe + kretprobe");
	return 0;
}

void target_detach(struct target *t)
{
	int i;

	/* in the reverse of target_attach()'s order: entry programs first */
	for (i = t->nlinks - 1; i >= 0; i--)
		bpf_link__destroy(t->links[i]);
	t->nlinks = 0;
}

void target_free(struct target *t)
{
	target_detach(t);
	if (t->skel)
		t->recipe->destroy(t);
}
