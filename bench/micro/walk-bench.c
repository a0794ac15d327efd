// SPDX-License-Identifier: GPL-2.0
/*
 * walk-bench: what one node of a chain walk costs a BPF program on this
 * CPU, natively (no QEMU): a probe read of the next pointer, a probe
 * read of a 64-byte window (pftrace's walk), or direct loads through
 * bpf_rdonly_cast(). Each program walks chains of 1 and of 256 nodes by
 * BPF_PROG_TEST_RUN; the kernel's BPF statistics time each run, and the
 * difference over 255 nodes is the cost per node. The same way, a
 * per-CPU counter's add is timed plain and atomic, 1 add against 257.
 *
 *   walk-bench [--json FILE]
 *
 * Needs CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN (BPF_ENABLE_STATS).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "walk_bench.skel.h"

#define RUNS 20000
#define ROUNDS 7
#define LONG_CHAIN 256

struct variant {
	const char *name, *what;
	struct bpf_program *prog;
	double ns_short, ns_long, per_node;
	bool loaded;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* run PROG RUNS times; its mean run time in ns from the kernel's statistics */
static double mean_run_ns(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	struct bpf_prog_info a = {}, b = {};
	__u32 len = sizeof(a);
	int fd = bpf_program__fd(prog), i;

	if (bpf_obj_get_info_by_fd(fd, &a, &len))
		return -1;
	for (i = 0; i < RUNS; i++)
		if (bpf_prog_test_run_opts(fd, &opts) || opts.retval)
			return -1;
	len = sizeof(b);
	if (bpf_obj_get_info_by_fd(fd, &b, &len) || b.run_cnt <= a.run_cnt)
		return -1;
	return (double)(b.run_time_ns - a.run_time_ns) / (double)(b.run_cnt - a.run_cnt);
}

static int set_chain(struct walk_bench_bpf *skel, __u32 len)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	skel->data->chain_len = len;
	return bpf_prog_test_run_opts(bpf_program__fd(skel->progs.link_chain), &opts) || opts.retval;
}

/* the median over ROUNDS of the mean run time, with a chain of LEN nodes */
static double median_ns(struct walk_bench_bpf *skel, struct variant *v, __u32 len)
{
	double r[ROUNDS];
	int i;

	if (set_chain(skel, len))
		return -1;
	for (i = 0; i < ROUNDS; i++)
		if ((r[i] = mean_run_ns(v->prog)) < 0)
			return -1;
	qsort(r, ROUNDS, sizeof(r[0]), cmp_double);
	return r[ROUNDS / 2];
}

/* ns per add of a per-CPU counter by PROG: 257 adds a run against 1 */
static double ns_per_add(struct walk_bench_bpf *skel, struct bpf_program *prog)
{
	double one[ROUNDS], many[ROUNDS];
	int i;

	for (i = 0; i < ROUNDS; i++) {
		skel->data->add_count = 1;
		one[i] = mean_run_ns(prog);
		skel->data->add_count = 257;
		many[i] = mean_run_ns(prog);
		if (one[i] < 0 || many[i] < 0)
			return -1;
	}
	qsort(one, ROUNDS, sizeof(one[0]), cmp_double);
	qsort(many, ROUNDS, sizeof(many[0]), cmp_double);
	return (many[ROUNDS / 2] - one[ROUNDS / 2]) / 256;
}

int main(int argc, char **argv)
{
	const char *json = argc == 3 && !strcmp(argv[1], "--json") ? argv[2] : NULL;
	struct walk_bench_bpf *skel;
	struct variant v[3] = {
		{ "probe8", "bpf_probe_read_kernel() of the next pointer" },
		{ "window", "bpf_probe_read_kernel() of a 64-byte window (pftrace)" },
		{ "direct", "direct loads through bpf_rdonly_cast() (6.2+)" },
	};
	double add_plain, add_atomic;
	int stats_fd, i;
	FILE *out;

	if (argc != 1 && !json) {
		fprintf(stderr, "usage: walk-bench [--json FILE]\n");
		return 2;
	}
	skel = walk_bench_bpf__open();
	if (!skel) {
		fprintf(stderr, "walk-bench: cannot open the BPF object\n");
		return 1;
	}
	v[0].prog = skel->progs.walk_probe8;
	v[1].prog = skel->progs.walk_window;
	v[2].prog = skel->progs.walk_direct;
	if (walk_bench_bpf__load(skel)) {
		/* a kernel without bpf_rdonly_cast(): the probe reads alone */
		walk_bench_bpf__destroy(skel);
		skel = walk_bench_bpf__open();
		if (!skel)
			return 1;
		bpf_program__set_autoload(skel->progs.walk_direct, false);
		if (walk_bench_bpf__load(skel)) {
			fprintf(stderr, "walk-bench: the kernel refused the programs: %s\n",
				strerror(errno));
			return 1;
		}
		v[2].prog = NULL;
	}
	v[0].prog = skel->progs.walk_probe8;
	v[1].prog = skel->progs.walk_window;
	if (v[2].prog)
		v[2].prog = skel->progs.walk_direct;
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "walk-bench: BPF_ENABLE_STATS refused: %s\n", strerror(errno));
		return 1;
	}
	printf("walk-bench: ns per node, a chain of %d nodes against one, median of %d x %d runs\n",
	       LONG_CHAIN, ROUNDS, RUNS);
	for (i = 0; i < 3; i++) {
		if (!v[i].prog) {
			printf("  %-8s not on this kernel: %s\n", v[i].name, v[i].what);
			continue;
		}
		v[i].ns_short = median_ns(skel, &v[i], 1);
		v[i].ns_long = median_ns(skel, &v[i], LONG_CHAIN);
		if (v[i].ns_short < 0 || v[i].ns_long < 0) {
			fprintf(stderr, "walk-bench: %s did not run\n", v[i].name);
			return 1;
		}
		v[i].per_node = (v[i].ns_long - v[i].ns_short) / (LONG_CHAIN - 1);
		v[i].loaded = true;
		printf("  %-8s %6.2f ns/node  (%7.1f ns for 1 node, %8.1f for %d)  %s\n", v[i].name,
		       v[i].per_node, v[i].ns_short, v[i].ns_long, LONG_CHAIN, v[i].what);
	}
	if (v[2].loaded)
		printf("  direct loads cost %.2fx the window read per node\n",
		       v[2].per_node / v[1].per_node);
	add_plain = ns_per_add(skel, skel->progs.adds_plain);
	add_atomic = ns_per_add(skel, skel->progs.adds_atomic);
	if (add_plain < 0 || add_atomic < 0) {
		fprintf(stderr, "walk-bench: the adds did not run\n");
		return 1;
	}
	printf("  per-CPU counter add: %.2f ns plain, %.2f ns atomic\n", add_plain, add_atomic);
	if (json) {
		out = fopen(json, "w");
		if (!out) {
			fprintf(stderr, "walk-bench: %s: %s\n", json, strerror(errno));
			return 1;
		}
		fprintf(out, "{\"native_ns_per_node_probe8\": %.3f, \"native_ns_per_node_window\": %.3f",
			v[0].per_node, v[1].per_node);
		if (v[2].loaded)
			fprintf(out, ", \"native_ns_per_node_direct\": %.3f", v[2].per_node);
		fprintf(out, ", \"native_ns_per_add_plain\": %.3f, \"native_ns_per_add_atomic\": %.3f}\n",
			add_plain, add_atomic);
		fclose(out);
	}
	close(stats_fd);
	walk_bench_bpf__destroy(skel);
	return 0;
}
