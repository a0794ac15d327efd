/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose lookups a session counts (-p, --cgroup, --only-command) and who
 * pays for them (--by): the maps every target's walk consults
 * (bpf/calls.bpf.h, bpf/by.bpf.h), and bpf/follow.bpf.c, which follows
 * the command's forks.
 */
#ifndef PFT_FILTER_H
#define PFT_FILTER_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>
#include "pftrace.h"
#include "report.h"
#include "targets.h"

struct follow_bpf;

struct task_filter {
	pid_t pid;                 /* -p: a thread group, or 0 */
	const char *cgroup_path;   /* --cgroup, or NULL */
	bool only_command;         /* --only-command */
	enum pft_by by;            /* --by */
	__u32 bits;                /* PFT_FILTER_* for the targets' walk_config */
	int tgids_fd;              /* filter_tgids, shared by every target (-1: none) */
	int cgroup_fd;             /* the cgroup's directory (-1: none) */
	__u64 cgroup_id;
	struct follow_bpf *follow; /* --only-command's fork follower */
};

/* Check the options and open what they name: 0, or -errno and ERR (exit 2). */
int filter_open(struct task_filter *f, pid_t pid, const char *cgroup_path, bool only_command,
		enum pft_by by, char *err, size_t errlen);
/* Create the shared pid map and start the fork follower: 0, or -errno and ERR. */
int filter_start(struct task_filter *f, char *err, size_t errlen);
/* Before a target loads: its walk_config, and the shared maps in place of its own. */
int filter_prepare_target(const struct task_filter *f, struct target *t, char *err, size_t errlen);
/* After a target loaded: the cgroup into its filter_cgroup. */
int filter_after_load(const struct task_filter *f, struct target *t, char *err, size_t errlen);
/* --only-command: follow the command (PID, not yet exec'd) and its forks. 0 or -errno. */
int filter_admit(pid_t pid, void *filter);
/* The filter as the run file and the text show it (NULL fields: not given). */
void filter_describe(const struct task_filter *f, struct run_filter *out);
/* --by: the target's rows, sorted by nodes walked; scaled by SAMPLE_EVERY. */
int filter_read_by(const struct task_filter *f, const struct target *t, unsigned int sample_every,
		   int ncpus, struct by_report *out);
void filter_close(struct task_filter *f);

#endif
