// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "aggregate.h"
#include "fileio.h"
#include "filter.h"
#include "kernel.h"
#include "follow.skel.h"

/*
 * The name of a map in a skeleton's object, spelled by the compiler from
 * the skeleton's field: a map renamed in BPF fails the build here.
 */
#define SKEL_MAP_NAME(skel, map) (sizeof(((struct skel *)0)->maps.map) ? #map : #map)

int filter_open(struct task_filter *f, pid_t pid, const char *cgroup_path, bool only_command,
		enum pft_by by, char *err, size_t errlen)
{
	struct statfs sfs;
	struct stat st;

	memset(f, 0, sizeof(*f));
	f->tgids_fd = f->cgroup_fd = -1;
	f->pid = pid;
	f->cgroup_path = cgroup_path;
	f->only_command = only_command;
	f->by = by;
	if (pid && kill(pid, 0) && errno == ESRCH) {
		snprintf(err, errlen, "-p %d: no such process", (int)pid);
		return -ESRCH;
	}
	if (cgroup_path) {
		/* O_DIRECTORY: a FIFO or a device never opens, so never blocks */
		f->cgroup_fd = open(cgroup_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (f->cgroup_fd < 0) {
			snprintf(err, errlen, "--cgroup %s: %s", shown_path(cgroup_path), strerror(errno));
			return -errno;
		}
		if (fstatfs(f->cgroup_fd, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC ||
		    fstat(f->cgroup_fd, &st)) {
			snprintf(err, errlen, "--cgroup %s: not a cgroup v2 directory", shown_path(cgroup_path));
			return -EINVAL;
		}
		/* on cgroup2 a directory's inode number is the cgroup's id */
		f->cgroup_id = st.st_ino;
		f->bits |= PFT_FILTER_CGROUP;
	}
	if (pid || only_command)
		f->bits |= PFT_FILTER_TGIDS;
	return 0;
}

int filter_start(struct task_filter *f, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_map_create_opts, mopts);
	pid_t pid = f->pid;

	if (f->bits & PFT_FILTER_TGIDS) {
		/* named after the maps it stands in for, every object's filter_tgids */
		f->tgids_fd = bpf_map_create(BPF_MAP_TYPE_HASH,
					     SKEL_MAP_NAME(follow_bpf, filter_tgids), sizeof(__u32),
					     sizeof(__u8), PFT_FILTER_TGIDS_MAX, &mopts);
		if (f->tgids_fd < 0) {
			snprintf(err, errlen, "cannot create the pid filter's map: %s", kerr_str(errno));
			return -errno;
		}
	}
	if (pid) {
		__u32 key = (__u32)pid;
		__u8 one = 1;

		if (bpf_map_update_elem(f->tgids_fd, &key, &one, BPF_ANY)) {
			snprintf(err, errlen, "-p %d: %s", (int)pid, kerr_str(errno));
			return -errno;
		}
	}
	if (f->only_command) {
		int rc;

		f->follow = follow_bpf__open();
		if (!f->follow) {
			snprintf(err, errlen, "--only-command: cannot open the fork follower: %s",
				 kerr_str(errno));
			return -errno;
		}
		rc = bpf_map__reuse_fd(f->follow->maps.filter_tgids, f->tgids_fd);
		if (!rc)
			rc = follow_bpf__load(f->follow);
		if (!rc)
			rc = follow_bpf__attach(f->follow);
		if (rc) {
			snprintf(err, errlen, "--only-command: the kernel refused the fork follower "
				 "(raw tracepoint sched_process_fork): %s", kerr_str(rc));
			return rc;
		}
	}
	return 0;
}

int filter_prepare_target(const struct task_filter *f, struct target *t, char *err, size_t errlen)
{
	struct walk_config *cfg = t->bpf.config;
	struct bpf_map *tgids = t->bpf.filter_tgids, *by = t->bpf.by_counts;
	int rc = 0;

	if (!f->bits && !f->by)
		return 0;
	if (!cfg || !tgids || !by) {
		snprintf(err, errlen, "%s: this build's BPF object cannot filter", t->recipe->traced);
		return -ENOENT;
	}
	cfg->filter = f->bits;
	cfg->by = (__u32)f->by;
	if (f->tgids_fd >= 0)
		rc = bpf_map__reuse_fd(tgids, f->tgids_fd);
	if (!rc && f->by)
		rc = bpf_map__set_max_entries(by, PFT_BY_MAX);
	if (rc)
		snprintf(err, errlen, "%s: cannot set up the filter's maps: %s", t->recipe->traced,
			 kerr_str(rc));
	return rc;
}

int filter_after_load(const struct task_filter *f, struct target *t, char *err, size_t errlen)
{
	struct bpf_map *map = t->bpf.filter_cgroup;
	__u32 zero = 0;

	if (f->cgroup_fd < 0)
		return 0;
	if (!map || bpf_map_update_elem(bpf_map__fd(map), &zero, &f->cgroup_fd, BPF_ANY)) {
		snprintf(err, errlen, "%s: cannot hand the cgroup to BPF: %s", t->recipe->traced,
			 kerr_str(errno));
		return -errno;
	}
	return 0;
}

int filter_admit(pid_t pid, void *filter)
{
	const struct task_filter *f = filter;
	__u32 key = (__u32)pid;
	__u8 one = 1;

	if (!f->only_command)
		return 0;
	return bpf_map_update_elem(f->tgids_fd, &key, &one, BPF_ANY) ? -errno : 0;
}

void filter_describe(const struct task_filter *f, struct run_filter *out)
{
	memset(out, 0, sizeof(*out));
	out->present = f->bits != 0;
	out->pid = f->pid;
	out->cgroup = f->cgroup_path;
	out->cgroup_id = f->cgroup_id;
	out->only_command = f->only_command;
	if (f->follow) {
		out->followed = f->follow->bss->follow_added;
		out->follow_dropped = f->follow->bss->follow_dropped;
	}
}

/* The cgroup v2 mount: /sys/fs/cgroup, or the hybrid layout's unified. */
static const char *cgroup2_root(void)
{
	static const char *const roots[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs sfs;
	size_t i;

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!statfs(roots[i], &sfs) && sfs.f_type == CGROUP2_SUPER_MAGIC)
			return roots[i];
	return NULL;
}

/* Depth-first under DIR (PATH, its name from the root) for the cgroup of id ID. */
static bool find_cgroup(int dirfd, char *path, size_t len, size_t used, __u64 id, int depth)
{
	DIR *d;
	struct dirent *e;
	bool found = false;

	if (depth > 32 || !(d = fdopendir(dirfd))) {
		close(dirfd);
		return false;
	}
	while (!found && (e = readdir(d))) {
		struct stat st;
		int sub;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode))
			continue;
		if ((size_t)snprintf(path + used, len - used, "/%s", e->d_name) >= len - used)
			continue;
		if (st.st_ino == id) {
			found = true;
			break;
		}
		sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			found = find_cgroup(sub, path, len, used + strlen(path + used), id, depth + 1);
	}
	if (!found)
		path[used] = '\0';
	closedir(d);
	return found;
}

static void cgroup_name(__u64 id, char *buf, size_t len)
{
	const char *root = cgroup2_root();
	struct stat st;
	int fd;

	buf[0] = '\0';
	if (root && !stat(root, &st) && st.st_ino == id) {
		snprintf(buf, len, "/");
		return;
	}
	fd = root ? open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd >= 0 && find_cgroup(fd, buf, len, 0, id, 0))
		return;
	snprintf(buf, len, "cgroup %llu (gone)", (unsigned long long)id);
}

/*
 * A process in network namespace INUM, "comm (pid N)", the lowest pid
 * found in /proc: the way to find whose namespace (a pod) it is.
 */
static void netns_name(__u64 inum, char *buf, size_t len)
{
	char path[64], link[64], want[40], comm[PFT_COMM_LEN + 1] = "";
	DIR *proc = opendir("/proc");
	struct dirent *de;
	long pid, best = 0;
	ssize_t n;
	FILE *f;

	snprintf(want, sizeof(want), "net:[%llu]", (unsigned long long)inum);
	while (inum && proc && (de = readdir(proc))) {
		pid = strtol(de->d_name, NULL, 10);
		if (pid <= 0 || (best && pid >= best))
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/ns/net", pid);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		if (!strcmp(link, want))
			best = pid;
	}
	if (proc)
		closedir(proc);
	snprintf(path, sizeof(path), "/proc/%ld/comm", best);
	f = best ? fopen(path, "r") : NULL;
	if (f && fgets(comm, sizeof(comm), f))
		comm[strcspn(comm, "\n")] = '\0';
	if (f)
		fclose(f);
	if (best)
		snprintf(buf, len, "%s (pid %ld)", comm, best);
	else
		snprintf(buf, len, inum ? "no process left in it" : "no namespace (an exiting task)");
}

static int by_nodes_desc(const void *a, const void *b)
{
	const struct by_row *x = a, *y = b;

	return x->nodes < y->nodes ? 1 : x->nodes > y->nodes ? -1 :
	       x->lookups < y->lookups ? 1 : x->lookups > y->lookups ? -1 : 0;
}

int filter_read_by(const struct task_filter *f, const struct target *t, unsigned int sample_every,
		   int ncpus, struct by_report *out)
{
	struct bpf_map *map = t->bpf.by_counts;
	int counters_fd = bpf_map__fd(t->bpf.chain_counters);
	struct chain_counters *percpu = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof(*percpu));
	struct chain_counters sum;
	struct by_key key, next;
	struct by_counts c;
	void *prev = NULL;
	__u32 zero = 0;
	int fd;

	out->key = f->by == PFT_BY_COMM ? "comm" : f->by == PFT_BY_PID ? "pid" :
		   f->by == PFT_BY_NETNS ? "netns" : "cgroup";
	out->netns_of = f->by != PFT_BY_NETNS ? NULL : t->recipe->netns_arg ? "lookup" : "task";
	out->scaled = sample_every > 1;
	out->nrows = 0;
	out->rows = calloc(PFT_BY_MAX, sizeof(*out->rows));
	if (!map || !out->rows || !percpu) {
		free(percpu);
		return -ENOMEM;
	}
	if (counters_fd >= 0 && !bpf_map_lookup_elem(counters_fd, &zero, percpu)) {
		chain_counters_sum(&sum, percpu, ncpus, sizeof(*percpu));
		out->dropped = sum.by_dropped * sample_every;
	}
	free(percpu);
	fd = bpf_map__fd(map);
	while (out->nrows < PFT_BY_MAX && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		struct by_row *r;

		if (bpf_map_lookup_elem(fd, &key, &c))
			continue;
		r = &out->rows[out->nrows++];
		r->lookups = c.lookups * sample_every;
		r->nodes = c.nodes * sample_every;
		r->misses = c.misses * sample_every;
		if (f->by == PFT_BY_COMM) {
			snprintf(r->name, sizeof(r->name), "%.*s", PFT_COMM_LEN, key.comm);
		} else if (f->by == PFT_BY_PID) {
			r->id = key.id;
			snprintf(r->name, sizeof(r->name), "%.*s", PFT_COMM_LEN, c.comm);
		} else if (f->by == PFT_BY_NETNS) {
			r->id = key.id;
			netns_name(key.id, r->name, sizeof(r->name));
		} else {
			r->id = key.id;
			cgroup_name(key.id, r->name, sizeof(r->name));
		}
	}
	qsort(out->rows, (size_t)out->nrows, sizeof(*out->rows), by_nodes_desc);
	return 0;
}

void filter_close(struct task_filter *f)
{
	follow_bpf__destroy(f->follow);
	f->follow = NULL;
	if (f->tgids_fd >= 0)
		close(f->tgids_fd);
	if (f->cgroup_fd >= 0)
		close(f->cgroup_fd);
	f->tgids_fd = f->cgroup_fd = -1;
}
