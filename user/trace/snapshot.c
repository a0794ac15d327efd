// SPDX-License-Identifier: GPL-2.0
/*
 * The loader side of bpf/snapshot.bpf.h: run a recipe's snapshot
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

#define NOT_IN_RUN 0xffffffffU

int snapshot_prepare(struct target *t, bool count_keys, unsigned int key_limit,
		     char *err, size_t errlen)
{
	struct walk_config *cfg = t->bpf.config;

	if (!t->bpf.snapshot || !t->bpf.key_counts || !cfg) {
		snprintf(err, errlen, "%s: this build's BPF object has no snapshot program",
			 t->recipe->traced);
		return -ENOENT;
	}
	bpf_program__set_autoload(t->bpf.snapshot, true);
	if (!count_keys)
		return 0;
	if (bpf_map__set_max_entries(t->bpf.key_counts, key_limit)) {
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

/* One run of the snapshot program over BUF (map FD): 0, or -errno with err. */
static int snap_run(const struct target *t, int fd, struct snap_buf *buf, char *err,
		    size_t errlen)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	const char *func = t->recipe->traced;
	__u32 zero = 0;
	int rc;

	buf->st.buckets_done = 0;
	buf->st.nodes = 0;
	/* a bucket carried over from the last run did not begin in this one */
	buf->st.bucket_nodes = NOT_IN_RUN;
	if (bpf_map_update_elem(fd, &zero, buf, BPF_ANY) ||
	    bpf_prog_test_run_opts(bpf_program__fd(t->bpf.snapshot), &run) ||
	    bpf_map_lookup_elem(fd, &zero, buf)) {
		rc = -errno;
		snprintf(err, errlen, "%s: running the snapshot program failed: %s", func,
			 kerr_str(-rc));
		return rc;
	}
	if (buf->st.err) {
		snprintf(err, errlen, "%s: the snapshot could not %s (%s)", func,
			 buf->st.slots ? "read the table" : "find the table",
			 kerr_str(-buf->st.err));
		return buf->st.err;
	}
	return 0;
}

/* After the first run: the table's size, and room for each bucket's chain. */
static int walk_result_size(const struct target *t, const struct snap_buf *buf,
			    struct walk_result *w, char *err, size_t errlen)
{
	if (!buf->st.slots || buf->st.slots > (1ULL << 32)) {
		snprintf(err, errlen, "%s: the table claims %llu buckets", t->recipe->traced,
			 (unsigned long long)buf->st.slots);
		return -EINVAL;
	}
	w->slots = buf->st.slots;
	w->chain = calloc(w->slots, sizeof(*w->chain));
	w->sig = calloc(w->slots, sizeof(*w->sig));
	return w->chain && w->sig ? 0 : -ENOMEM;
}

/*
 * A run that ends inside a chain: between runs nothing holds the RCU
 * read lock, and the node it stopped at may be freed. Walk that bucket
 * again from its head in the next run, unless it began this run's very
 * first step (a chain longer than a run, where starting again would
 * never end). 1 when it does.
 */
static int rewind_cut_bucket(struct snap_buf *buf)
{
	if (!buf->st.in_chain || buf->st.bucket_nodes == NOT_IN_RUN ||
	    (!buf->st.buckets_done && !buf->st.bucket_nodes))
		return 0;
	buf->st.nodes = buf->st.bucket_nodes;
	buf->st.in_chain = 0;
	return 1;
}

/* A run's output onto W: the buckets it finished, and the keys it kept. */
static int keep_run(struct walk_result *w, const struct snap_buf *buf, bool with_keys,
		    __u64 *done)
{
	__u32 i;

	for (i = 0; i < buf->st.buckets_done && *done < w->slots; i++, (*done)++) {
		w->chain[*done] = buf->chain[i];
		w->sig[*done] = buf->chain_sig[i];
	}
	if (!with_keys || !buf->st.nodes)
		return 0;
	if (w->nkeys + buf->st.nodes > w->cap_keys) {
		__u64 cap = (w->cap_keys ? w->cap_keys * 2 : 4096) + buf->st.nodes;
		struct snap_key *k = realloc(w->keys, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		w->keys = k;
		w->cap_keys = cap;
	}
	memcpy(w->keys + w->nkeys, buf->keys, buf->st.nodes * sizeof(*w->keys));
	w->nkeys += buf->st.nodes;
	return 0;
}

static int walk_table(struct target *t, bool with_keys, struct walk_result *w,
		      char *err, size_t errlen)
{
	const char *func = t->recipe->traced;
	struct snap_buf *buf;
	__u64 done = 0, restarts = 0;
	int fd = bpf_map__fd(t->bpf.snap), rc = 0;

	memset(w, 0, sizeof(*w));
	if (!t->bpf.snapshot || bpf_program__fd(t->bpf.snapshot) < 0 || fd < 0 ||
	    bpf_map__value_size(t->bpf.snap) != sizeof(struct snap_buf)) {
		snprintf(err, errlen, "%s: the snapshot program is not loaded", func);
		return -ENOENT;
	}
	buf = calloc(1, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	buf->st.with_keys = with_keys;
	for (;;) {
		rc = snap_run(t, fd, buf, err, errlen);
		if (!rc && !w->chain)
			rc = walk_result_size(t, buf, w, err, errlen);
		if (rc)
			break;
		restarts += rewind_cut_bucket(buf);
		rc = keep_run(w, buf, with_keys, &done);
		if (rc)
			break;
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
	return rc;
}

static void walk_result_free(struct walk_result *w)
{
	free(w->chain);
	free(w->sig);
	free(w->keys);
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
	out->hash = t->table_hash ? t->table_hash : t->recipe->hash;
	/* a mask takes a power of two only; conntrack's reciprocal_scale() any size */
	if (!rc && !table_hash_takes(out->hash, first.slots)) {
		snprintf(err, errlen, "%s: the table has %llu buckets, which %s cannot bucket",
			 t->recipe->traced, (unsigned long long)first.slots, out->hash->name);
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
		out->key_layout = t->recipe->key_layout;
		out->bits = first.slots & (first.slots - 1) ? 0 : table_slot_bits(first.slots);
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
	struct bpf_map *map = t->bpf.key_counts;
	int counters_fd = bpf_map__fd(t->bpf.chain_counters);
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
	if (counters_fd >= 0 && !bpf_map_lookup_elem(counters_fd, &zero, percpu)) {
		chain_counters_sum(&sum, percpu, ncpus, sizeof(*percpu));
		out->counts_dropped = sum.keys_dropped;
	}
	free(percpu);
	(void)err;
	(void)errlen;
	return 0;
}
