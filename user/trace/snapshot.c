// SPDX-License-Identifier: GPL-2.0
/*
 * The loader side of bpf/snapshot.bpf.h: run a recipe's snapshot_table
 * program until it has walked every bucket, collecting chain lengths and
 * keys, then once more to see whether the table moved underneath.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "aggregate.h"
#include "kernel.h"
#include "progress.h"
#include "snapshot.h"

#define SNAP_PROG "snapshot_table"
#define NOT_IN_RUN 0xffffffffU

int snapshot_prepare(struct target *t, bool count_keys, unsigned int key_limit,
		     char *err, size_t errlen)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(t->obj, SNAP_PROG);
	struct bpf_map *keys = bpf_object__find_map_by_name(t->obj, "key_counts");
	struct bpf_map *cfg_map = bpf_object__find_map_by_name(t->obj, ".rodata.walk");
	struct walk_config *cfg;
	size_t size = 0;

	if (!prog || !keys || !cfg_map) {
		snprintf(err, errlen, "%s: this build's BPF object has no snapshot program",
			 t->recipe->traced);
		return -ENOENT;
	}
	bpf_program__set_autoload(prog, true);
	if (!count_keys)
		return 0;
	cfg = (struct walk_config *)bpf_map__initial_value(cfg_map, &size);
	if (!cfg || size < sizeof(*cfg) || bpf_map__set_max_entries(keys, key_limit)) {
		snprintf(err, errlen, "%s: cannot set up the key counts", t->recipe->traced);
		return -EINVAL;
	}
	cfg->count_keys = 1;
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/*
 * One walk of the whole table: chain lengths and signatures of every
 * bucket into chain[] and sig[] (allocated here), keys when asked.
 */
struct walk_result {
	__u64 slots;
	__u32 *chain;
	__u32 *sig;
	struct snap_key *keys;
	__u64 nkeys, cap_keys;
	__u64 cut;
	__u64 restarts;   /* buckets walked again (a run's end, or a nulls marker not theirs) */
};

static int walk_table(struct target *t, bool with_keys, struct walk_result *w,
		      char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct bpf_program *prog = bpf_object__find_program_by_name(t->obj, SNAP_PROG);
	struct bpf_map *map = bpf_object__find_map_by_name(t->obj, ".data.snap");
	const char *func = t->recipe->traced;
	struct snap_buf *buf;
	__u64 done = 0, runs = 0, restarts = 0;
	__u32 zero = 0, i;
	int fd, rc = 0;

	memset(w, 0, sizeof(*w));
	if (!prog || bpf_program__fd(prog) < 0 || !map ||
	    bpf_map__value_size(map) != sizeof(struct snap_buf)) {
		snprintf(err, errlen, "%s: the snapshot program is not loaded", func);
		return -ENOENT;
	}
	fd = bpf_map__fd(map);
	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	buf->st.with_keys = with_keys;
	for (;;) {
		buf->st.buckets_done = 0;
		buf->st.nodes = 0;
		/* a bucket carried over from the last run did not begin in this one */
		buf->st.bucket_nodes = NOT_IN_RUN;
		if (bpf_map_update_elem(fd, &zero, buf, BPF_ANY) ||
		    bpf_prog_test_run_opts(bpf_program__fd(prog), &run) ||
		    bpf_map_lookup_elem(fd, &zero, buf)) {
			rc = -errno;
			snprintf(err, errlen, "%s: running the snapshot program failed: %s", func,
				 kerr_str(-rc));
			break;
		}
		if (buf->st.err) {
			rc = buf->st.err;
			snprintf(err, errlen, "%s: the snapshot could not %s (%s)", func,
				 buf->st.slots ? "read the table" : "find the table",
				 kerr_str(-rc));
			break;
		}
		if (!w->chain) {
			if (!buf->st.slots || buf->st.slots > (1ULL << 32)) {
				snprintf(err, errlen, "%s: the table claims %llu buckets", func,
					 (unsigned long long)buf->st.slots);
				rc = -EINVAL;
				break;
			}
			w->slots = buf->st.slots;
			w->chain = calloc(w->slots, sizeof(*w->chain));
			w->sig = calloc(w->slots, sizeof(*w->sig));
			if (!w->chain || !w->sig) {
				rc = -ENOMEM;
				break;
			}
		}
		/*
		 * A run that ends inside a chain: between runs nothing holds
		 * the RCU read lock, and the node it stopped at may be freed.
		 * Walk that bucket again from its head in the next run, unless
		 * it began this run's very first step (a chain longer than a
		 * run, where starting again would never end).
		 */
		if (buf->st.in_chain && buf->st.bucket_nodes != NOT_IN_RUN &&
		    (buf->st.buckets_done || buf->st.bucket_nodes)) {
			buf->st.nodes = buf->st.bucket_nodes;
			buf->st.in_chain = 0;
			restarts++;
		}
		for (i = 0; i < buf->st.buckets_done && done < w->slots; i++, done++) {
			w->chain[done] = buf->chain[i];
			w->sig[done] = buf->chain_sig[i];
		}
		if (with_keys && buf->st.nodes) {
			if (w->nkeys + buf->st.nodes > w->cap_keys) {
				__u64 cap = (w->cap_keys ? w->cap_keys * 2 : 4096) + buf->st.nodes;
				struct snap_key *k = realloc(w->keys, cap * sizeof(*k));

				if (!k) {
					rc = -ENOMEM;
					break;
				}
				w->keys = k;
				w->cap_keys = cap;
			}
			memcpy(w->keys + w->nkeys, buf->keys, buf->st.nodes * sizeof(*w->keys));
			w->nkeys += buf->st.nodes;
		}
		runs++;
		progress("snapshot %s: %llu of %llu buckets", func, (unsigned long long)done,
			 (unsigned long long)w->slots);
		if (buf->st.bucket >= w->slots)
			break;
	}
	progress_done();
	w->cut = buf->st.cut;
	w->restarts = buf->st.restarts + restarts;
	free(buf);
	if (!rc && done != w->slots) {
		snprintf(err, errlen, "%s: the snapshot finished %llu of %llu buckets", func,
			 (unsigned long long)done, (unsigned long long)w->slots);
		rc = -EIO;
	}
	(void)runs;
	return rc;
}

static void walk_result_free(struct walk_result *w)
{
	free(w->chain);
	free(w->sig);
	free(w->keys);
}

static unsigned int log2_exact(__u64 v)
{
	unsigned int b = 0;

	while ((1ULL << b) < v)
		b++;
	return b;
}

int snapshot_take(struct target *t, struct table_snapshot *out, char *err, size_t errlen)
{
	struct walk_result first, second;
	double start;
	__u64 i;
	int rc;

	memset(out, 0, sizeof(*out));
	start = now_ms();
	rc = walk_table(t, true, &first, err, errlen);
	out->took_ms = now_ms() - start;
	if (rc) {
		walk_result_free(&first);
		return rc;
	}
	rc = walk_table(t, false, &second, err, errlen);
	if (!rc && (first.slots & (first.slots - 1))) {
		snprintf(err, errlen, "%s: the table has %llu buckets, not a power of two",
			 t->recipe->traced, (unsigned long long)first.slots);
		rc = -EINVAL;
	}
	if (!rc) {
		/* resized between the walks: every bucket changed */
		if (first.slots != second.slots)
			out->changed_buckets = first.slots > second.slots ? first.slots : second.slots;
		for (i = 0; first.slots == second.slots && i < first.slots; i++)
			out->changed_buckets += first.chain[i] != second.chain[i] ||
						first.sig[i] != second.sig[i];
		rc = table_shape_from_chains(&out->shape, first.chain, first.slots);
	}
	if (!rc && out->shape.entries != first.nkeys) {
		snprintf(err, errlen, "%s: the snapshot counted %llu entries but kept %llu keys",
			 t->recipe->traced, (unsigned long long)out->shape.entries,
			 (unsigned long long)first.nkeys);
		rc = -EIO;
	}
	if (!rc) {
		out->hash = t->table_hash ? t->table_hash : t->recipe->hash;
		out->key_layout = t->recipe->key_layout;
		out->bits = log2_exact(first.slots);
		out->keys = first.keys;
		out->nkeys = first.nkeys;
		out->cut = first.cut;
		out->restarts = first.restarts;
		first.keys = NULL;
		uniform_expectation(&out->shape, &out->uniform);
	}
	walk_result_free(&first);
	walk_result_free(&second);
	if (rc)
		table_snapshot_free(out);
	return rc;
}

int snapshot_read_counts(struct target *t, struct table_snapshot *out, int ncpus,
			 char *err, size_t errlen)
{
	struct bpf_map *map = bpf_object__find_map_by_name(t->obj, "key_counts");
	struct snap_key key, next, *prev = NULL;
	struct chain_counters sum, *percpu;
	struct key_hits kh;
	__u32 zero = 0;
	__u64 cap;
	int fd;

	if (!map)
		return -ENOENT;
	fd = bpf_map__fd(map);
	cap = bpf_map__max_entries(map);
	out->counts = calloc(cap ? cap : 1, sizeof(*out->counts));
	percpu = calloc((size_t)ncpus, sizeof(*percpu));
	if (!out->counts || !percpu) {
		free(percpu);
		return -ENOMEM;
	}
	out->counted = true;
	out->counts_limit = cap;
	while (out->ncounts < cap && !bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &kh))
			continue;   /* deleted meanwhile: nothing deletes, but be safe */
		out->counts[out->ncounts].key = key;
		out->counts[out->ncounts].hits = kh.hits;
		out->counts[out->ncounts].misses = kh.misses;
		out->ncounts++;
	}
	if (t->counters_fd >= 0 && !bpf_map_lookup_elem(t->counters_fd, &zero, percpu)) {
		chain_counters_sum(&sum, percpu, ncpus, sizeof(*percpu));
		out->counts_dropped = sum.keys_dropped;
	}
	free(percpu);
	(void)err;
	(void)errlen;
	return 0;
}
