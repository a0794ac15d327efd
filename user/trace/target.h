/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One planned target's BPF object, from open to free, in the manner of
 * retsnoop's mass_attacher: open (the skeleton, its programs chosen and
 * its settings written: the part that reads the BTF), start (load, and
 * attach, with the fallbacks a refusal calls for), detach, free. And
 * what the session reads of it while it runs.
 */
#ifndef PFT_TARGET_H
#define PFT_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "targets.h"

/*
 * Open T's object for the planned method and set it up. 0, 1 when the
 * object cannot be opened, 2 when the kernel lacks what the recipe needs.
 */
int target_open(struct target *t, const struct kernel_facts *kf, char *err, size_t errlen);
/*
 * Load and attach an opened target; when the kernel refuses the direct
 * loads, or fexit planned untested, start over with probe reads or
 * with kprobe + kretprobe and say why (plan_note, stderr). 0, or 1 when
 * the kernel refused, 2 when the restart's open failed.
 */
int target_start(struct target *t, struct kernel_facts *kf, char *err, size_t errlen);
/* Attach the loaded programs (again, for --sample's next slice). */
int target_attach(struct target *t, char *err, size_t errlen);
void target_detach(struct target *t);
void target_free(struct target *t);

/*
 * Whether PROG hooks KIND ("fexit", "kprobe", ...) of FUNC (NULL: any):
 * its section says so, and libbpf tells no other way.
 */
struct bpf_program;
bool program_hooks(const struct bpf_program *prog, const char *kind, const char *func);

/* --sample N's targets: fexit ones, attached one slice of time in N. */
bool target_cycled(const struct target *t);
/* Pause its walks (PFT_WALK_PAUSED), or let them walk until UNTIL_NS on
 * the monotonic clock (walk_pause): 0 or -errno. */
int target_walk_until(struct target *t, __u64 until_ns);
/* BPF run time and runs of its programs so far (0 without BPF_ENABLE_STATS). */
void target_overhead(const struct target *t, __u64 *run_time_ns, __u64 *runs,
		     __u64 *recursion_misses);
__u64 target_run_time_ns(const struct target *t);
/* The bucket count its walks use (walk_output), 0 when unknown. */
__u64 target_table_slots(const struct target *t);

#endif
