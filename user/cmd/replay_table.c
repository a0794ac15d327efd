// SPDX-License-Identifier: GPL-2.0
/*
 * The chains pftrace replay walks: a distribution read from a run file's
 * histograms or made from a synthetic spec, laid out as buckets of
 * nodes the size of the kernel's, scattered over memory, and a shuffled
 * lookup sequence over them.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "cli.h"
#include "fileio.h"
#include "replay_table.h"
#include "runfile.h"
#include "targets.h"

#define bad(...) pft_refuse("replay", __VA_ARGS__)

/*
 * The run file is read once: its text gives the walks to replay and,
 * kept in *doc, the document that -o writes back with "replay" added.
 */
int dist_from_run(struct replay_dist *d, const char *path, const char *func,
		  struct json_object **doc)
{
	struct run_file rf;
	char err[PFT_ERRLEN], *text;
	const struct target_report *t = NULL;
	const struct recipe *rcp;
	char traced[128];
	size_t len;
	int i, rc;

	if (read_regular_file("", path, RUNFILE_MAX_BYTES, &text, &len, err, sizeof(err)))
		return bad("%s", err);
	if (runfile_parse(text, len, path, &rf, err, sizeof(err))) {
		free(text);
		return bad("%s", err);
	}
	*doc = json_tokener_parse(text);
	free(text);
	if (!*doc) {
		runfile_free(&rf);
		return bad("%s: out of memory", path);
	}
	for (i = 0; i < rf.rep.ntargets; i++)
		if (!func || !strcmp(rf.rep.targets[i].traced, func) ||
		    !strcmp(rf.rep.targets[i].requested, func))
			break;
	if (i == rf.rep.ntargets) {
		rc = bad("%s: no target %s in it", path, func ? func : "at all");
		goto refused;
	}
	t = &rf.rep.targets[i];
	text_safe(t->traced, traced, sizeof(traced));
	if (!rf.has_histograms[i] || !t->sum.completed) {
		rc = bad("%s: %s has no walks to replay%s", path, traced,
			 t->sum.self_check_ok ? "" : " (its self-check failed)");
		goto refused;
	}
	memset(d, 0, sizeof(*d));
	for (i = 0; i <= REPLAY_MAX_LEN; i++) {
		d->hit_pos[i] = (double)t->stats.hit_pos_hist[i];
		d->miss_len[i] = (double)(t->stats.chain_walked_hist[i] - t->stats.hit_pos_hist[i]);
	}
	d->tail_ratio = t->stats.walk_hits ? (double)t->stats.next_null_at_hit / (double)t->stats.walk_hits : 1;
	rcp = t->recipe ? recipe_named(t->recipe) : NULL;
	if (!rcp) {
		char safe[128];

		text_safe(t->recipe ? t->recipe : "(none)", safe, sizeof(safe));
		rc = bad("%s: %s's recipe '%s' is not one this pftrace knows: its node size is "
			 "unknown", path, traced, safe);
		goto refused;
	}
	d->node_bytes = (int)rcp->node_bytes;
	snprintf(d->traced, sizeof(d->traced), "%s", t->traced);
	snprintf(d->source, sizeof(d->source), "%s, %s on %s", path, t->traced, rf.rep.kernel_release);
	runfile_free(&rf);
	return 0;

refused:
	/* after the message: it may quote strings that live in rf */
	runfile_free(&rf);
	json_object_put(*doc);
	*doc = NULL;
	return rc;
}

/*
 * SPEC: chain=N (every chain N nodes) or mean=X (1 + Poisson(X - 1)
 * nodes), hits=F (share of lookups that hit, default 1), node=BYTES.
 * Hits land on every position of a chain alike.
 */
int dist_from_spec(struct replay_dist *d, const char *spec)
{
	char buf[256], *tok, *save = NULL, *end;
	double chain = 0, mean = 0, hits = 1, node = 64, len_w[REPLAY_MAX_LEN + 1] = { 0 }, sum = 0;
	int i, p;

	memset(d, 0, sizeof(*d));
	d->node_bytes = 64;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		double v;

		if (!eq)
			return bad("--synthetic: '%s' is not KEY=VALUE", tok);
		*eq = '\0';
		if (strcmp(tok, "chain") && strcmp(tok, "mean") && strcmp(tok, "hits") && strcmp(tok, "node"))
			return bad("--synthetic: unknown key '%s' (known: chain, mean, hits, node)", tok);
		v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || !isfinite(v))
			return bad("--synthetic: %s wants a number, not '%s'", tok, eq + 1);
		if (!strcmp(tok, "chain"))
			chain = v;
		else if (!strcmp(tok, "mean"))
			mean = v;
		else if (!strcmp(tok, "hits"))
			hits = v;
		else
			node = v;
	}
	if ((chain > 0) == (mean > 0))
		return bad("--synthetic: give chain=N or mean=X (one of them, positive)");
	if (chain && (chain != floor(chain) || chain > REPLAY_MAX_LEN))
		return bad("--synthetic: chain=%g is not a whole number of nodes from 1 to %d", chain,
			   REPLAY_MAX_LEN);
	if (mean && (mean < 1 || mean > 64))
		return bad("--synthetic: mean=%g: chains have 1 node or more, and 64 on average at most", mean);
	if (hits < 0 || hits > 1)
		return bad("--synthetic: hits=%g is not a share between 0 and 1", hits);
	/* checked as a double: converting 1e300 to int would be undefined */
	if (node != floor(node) || node < (double)sizeof(struct replay_node) || node > 65536)
		return bad("--synthetic: node=%g is not a whole number of bytes from %zu to 65536",
			   node, sizeof(struct replay_node));
	d->node_bytes = (int)node;
	for (i = 1; i <= REPLAY_MAX_LEN; i++) {
		/* Poisson(mean - 1) shifted by one, by its recurrence */
		len_w[i] = chain ? (i == (int)chain) : (i == 1 ? exp(-(mean - 1)) : len_w[i - 1] * (mean - 1) / (i - 1));
		sum += len_w[i];
	}
	for (i = 1; i <= REPLAY_MAX_LEN; i++) {
		len_w[i] /= sum;
		d->miss_len[i] = (1 - hits) * len_w[i];
		for (p = 1; p <= i; p++)
			d->hit_pos[p] += hits * len_w[i] / i;
	}
	/* a hit is on the tail when its position is its chain's length */
	for (i = 1, sum = 0; i <= REPLAY_MAX_LEN; i++)
		sum += len_w[i] / i;
	d->tail_ratio = sum;
	snprintf(d->traced, sizeof(d->traced), "synthetic");
	snprintf(d->source, sizeof(d->source), "synthetic %s", spec);
	return 0;
}

/*
 * M templates in the proportions of the distribution (largest
 * remainder, not random draws: the replayed mix matches the recorded one
 * to within 1/M). A non-tail hit at p gets a chain of p + 1 nodes.
 */
size_t make_templates(const struct replay_dist *d, struct replay_template *tpl, size_t m)
{
	double w[2 * (REPLAY_MAX_LEN + 1)], total = 0, rem[2 * (REPLAY_MAX_LEN + 1)];
	size_t count[2 * (REPLAY_MAX_LEN + 1)], used = 0, k, n = 0;
	int i, kinds = 2 * (REPLAY_MAX_LEN + 1);

	for (i = 0; i <= REPLAY_MAX_LEN; i++) {
		w[i] = d->hit_pos[i];                  /* hits at position i */
		w[REPLAY_MAX_LEN + 1 + i] = d->miss_len[i];
		total += w[i] + d->miss_len[i];
	}
	for (i = 0; i < kinds; i++) {
		double exact = total > 0 ? w[i] / total * (double)m : 0;

		count[i] = (size_t)exact;
		rem[i] = exact - (double)count[i];
		used += count[i];
	}
	while (used < m) {
		int best = 0;

		for (i = 1; i < kinds; i++)
			if (rem[i] > rem[best])
				best = i;
		count[best]++;
		rem[best] = -1;
		used++;
	}
	for (i = 0; i < kinds; i++) {
		for (k = 0; k < count[i] && n < m; k++, n++) {
			if (i <= REPLAY_MAX_LEN) {
				/* spread tail and non-tail hits evenly over the templates */
				bool tail = i == 0 || floor((double)(k + 1) * d->tail_ratio) > floor((double)k * d->tail_ratio);

				tpl[n].hit_pos = i;
				tpl[n].chain_len = tail ? i : i + 1;
			} else {
				tpl[n].hit_pos = 0;
				tpl[n].chain_len = i - (REPLAY_MAX_LEN + 1);
			}
		}
	}
	return n;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	/* xorshift64*: fast, and the same table on every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static struct replay_node *node_at(const struct replay_table *t, size_t i)
{
	return (struct replay_node *)(t->nodes + i * (size_t)t->node_bytes);
}

int build_table(struct replay_table *t, const struct replay_template *tpl, size_t m,
		int node_bytes, size_t nseq)
{
	size_t i, j, *slot, next_slot = 0;
	uint64_t key = 1;

	memset(t, 0, sizeof(*t));
	t->node_bytes = node_bytes;
	t->nbuckets = m;
	for (i = 0; i < m; i++)
		t->nnodes += (size_t)tpl[i].chain_len;
	t->buckets = calloc(m, sizeof(*t->buckets));
	t->nodes = aligned_alloc(64, ((t->nnodes ? t->nnodes : 1) * (size_t)node_bytes + 63) / 64 * 64);
	slot = malloc((t->nnodes ? t->nnodes : 1) * sizeof(*slot));
	t->seq = malloc(nseq * sizeof(*t->seq));
	if (!t->buckets || !t->nodes || !slot || !t->seq) {
		free(slot);
		return -ENOMEM;
	}
	memset(t->nodes, 0, t->nnodes * (size_t)node_bytes);
	/* nodes sit in shuffled order: each next is a load from anywhere */
	for (i = 0; i < t->nnodes; i++)
		slot[i] = i;
	for (i = t->nnodes; i > 1; i--) {
		j = rng() % i;
		size_t tmp = slot[i - 1];

		slot[i - 1] = slot[j];
		slot[j] = tmp;
	}
	for (i = 0; i < m; i++) {
		struct replay_node **link = &t->buckets[i].first;
		int n;

		for (n = 0; n < tpl[i].chain_len; n++) {
			struct replay_node *node = node_at(t, slot[next_slot++]);

			node->key = key++;
			*link = node;
			link = &node->next;
		}
		*link = NULL;
	}
	free(slot);
	/* the lookup sequence: every template equally often, shuffled */
	for (i = 0; i < nseq; i++) {
		size_t b = i % m;
		struct replay_node *pos = t->buckets[b].first;
		int p;

		t->seq[i].bucket = (uint32_t)b;
		if (tpl[b].hit_pos) {
			for (p = 1; p < tpl[b].hit_pos; p++)
				pos = pos->next;
			t->seq[i].key = pos->key;
		} else {
			t->seq[i].key = UINT64_MAX - i;     /* in no chain */
		}
	}
	for (i = nseq; i > 1; i--) {
		struct replay_lookup tmp;

		j = rng() % i;
		tmp = t->seq[i - 1];
		t->seq[i - 1] = t->seq[j];
		t->seq[j] = tmp;
	}
	return 0;
}

void free_table(struct replay_table *t)
{
	free(t->buckets);
	free(t->nodes);
	free(t->seq);
}

void count_walks(const struct replay_table *t, __u64 *walked_hist, __u64 *hits)
{
	size_t i;

	*hits = 0;
	for (i = 0; i < t->nseq; i++) {
		const struct replay_node *pos = t->buckets[t->seq[i].bucket].first;
		int n = 0;

		for (; pos; pos = pos->next) {
			n++;
			if (pos->key == t->seq[i].key) {
				(*hits)++;
				break;
			}
		}
		walked_hist[n > PFT_MAX_WALK ? PFT_MAX_WALK : n]++;
	}
}

double dist_mean(const struct replay_dist *d, double *hit_ratio)
{
	double total = 0, nodes = 0, hits = 0;
	int i;

	for (i = 0; i <= REPLAY_MAX_LEN; i++) {
		total += d->hit_pos[i] + d->miss_len[i];
		nodes += i * (d->hit_pos[i] + d->miss_len[i]);
		hits += d->hit_pos[i];
	}
	*hit_ratio = total ? hits / total : 0;
	return total ? nodes / total : 0;
}
