// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "latency.h"
#include "whatif.h"

/* H's cost at SLOTS buckets, timed on its first use */
static struct estimate hash_cost(struct whatif_costs *c, const struct table_hash *h,
				 __u64 slots)
{
	int i = table_hash_index(h);

	if (i < 0)
		return c->time_hash(h, slots);
	if (!c->known[i]) {
		c->hash[i] = c->time_hash(h, slots);
		c->known[i] = true;
	}
	return c->hash[i];
}

/* What a node costs: the run's --latency fit where it is in ns, else a warm walk here. */
static void price_node(struct whatif_table *w, struct whatif_costs *c)
{
	const struct target_report *t = w->t;

	/* a fit whose interval reaches zero, or whose medians stray off its line, says nothing a verdict can use */
	if (t->latency_fit && t->latency_unit && !strcmp(t->latency_unit, "ns") &&
	    t->latency_fit->per_node_lo > 0 && !latency_fit_poor(t->latency_fit)) {
		w->node_cost.median = t->latency_fit->per_node;
		w->node_cost.lo = t->latency_fit->per_node_lo;
		w->node_cost.hi = t->latency_fit->per_node_hi;
		w->node_cost_source = "the run's --latency fit";
		return;
	}
	w->node_cost = c->time_node();
	w->node_cost_source = "a warm walk of 64-byte nodes on this CPU (replay's)";
}

/*
 * The next layout, (H, SLOTS): the first is the kernel's own, whose keys
 * (OWN: in its chain order) give the identity and the walk the others
 * are judged against. 0, or what predict_layout() returned.
 */
static int lay_out(struct whatif_table *w, const struct table_hash *h, __u64 slots,
		   bool own, struct whatif_costs *c)
{
	const struct table_snapshot *s = w->t->snapshot;
	struct whatif_layout *l = &w->layouts[w->nlayouts], *first = &w->layouts[0];
	double now_exact;
	int rc;

	memset(l, 0, sizeof(*l));
	if (c->laying_out)
		c->laying_out(w, h, slots);
	rc = (own ? predict_own_layout : predict_layout)(&l->p, h, slots, s->keys, s->nkeys,
		w->counted ? w->weigh->counts : NULL, w->counted ? w->weigh->ncounts : 0, w->redrawn);
	if (rc)
		return rc;
	if (w->nlayouts++ == 0) {
		w->identity = table_shape_equal(&l->p.shape, &s->shape);
		if (w->counted) {
			price_node(w, c);
			w->hash_now = hash_cost(c, h, slots);
			w->priced = true;
		}
		return 0;
	}
	if (!w->counted)
		return 0;
	now_exact = first->p.mean_walk_in_order >= 0 ? first->p.mean_walk_in_order : first->p.mean_walk;
	verdict_compute(first->p.mean_walk, l->p.mean_walk, now_exact, l->p.mean_walk_lo,
			l->p.mean_walk_hi, w->node_cost, w->hash_now, hash_cost(c, h, slots), &l->v);
	l->has_verdict = true;
	return 0;
}

/* The hashes to lay the keys out under: those asked that fit the keys, else all that do. */
static int candidate_hashes(const struct whatif_ask *q, const struct table_hash *current,
			    const struct table_hash **out)
{
	const struct table_hash *h;
	int n = 0, i;

	for (i = 0; i < q->nhashes; i++)
		if (table_hash_compatible(current, q->hashes[i]))
			out[n++] = q->hashes[i];
	if (n)
		return n;
	/* the current hash is in the registry: at least itself */
	for (i = 0; (h = table_hash_at(i)); i++)
		if (table_hash_compatible(current, h))
			out[n++] = h;
	return n;
}

__u64 whatif_kernel_size(const struct table_hash *h, __u64 slots)
{
	__u64 step = h && h->size_step ? h->size_step : 1;

	return (slots + step - 1) / step * step;
}

__u64 whatif_size_refused(const struct whatif_ask *q, const struct table_hash *current)
{
	int i;

	for (i = 0; i < q->nslots; i++)
		if (!table_hash_takes(current, q->slots[i]))
			return q->slots[i];
	return 0;
}

/*
 * The sizes to try: those asked (as the kernel would allocate them),
 * else the keys' own range, else half to eight times the kernel's.
 */
static int candidate_slots(const struct whatif_ask *q, const struct table_snapshot *s,
			   const struct table_hash *current, __u64 *slots)
{
	const struct table_keys *k = current->keys;
	__u64 own = s->shape.buckets, v;
	int n = 0, i;

	if (q->nslots) {
		for (i = 0; i < q->nslots; i++)
			slots[n++] = whatif_kernel_size(current, q->slots[i]);
		return n;
	}
	if (k->whatif_bits_min) {
		for (i = (int)k->whatif_bits_min; i <= (int)k->whatif_bits_max; i++)
			slots[n++] = 1ULL << i;
		return n;
	}
	for (i = -1; i <= 3; i++) {
		v = whatif_kernel_size(current, i < 0 ? own / 2 : own << i);
		if (v >= 2 && v <= PFT_TABLE_MAX_SLOTS && table_hash_takes(current, v))
			slots[n++] = v;
	}
	return n;
}

/* RC, the status line cleared */
static int laid_out(struct whatif_costs *c, int rc)
{
	if (c->laid_out)
		c->laid_out();
	return rc;
}

/* --entries: the kernel's hash at SLOTS, filled to ENTRIES under uniform hashing */
static int fill_out(struct whatif_table *w, __u64 slots, __u64 entries)
{
	struct whatif_layout *l = &w->layouts[w->nlayouts];

	memset(l, 0, sizeof(*l));
	l->p.hash = w->current;
	l->p.slots = slots;
	l->p.mean_walk_in_order = -1;
	l->filled = true;
	if (uniform_fill(&l->fill, slots, entries))
		return -ENOMEM;
	w->nlayouts++;
	return 0;
}

int whatif_weigh(struct whatif_table *w, const struct whatif_ask *q,
		 const struct target_report *t, const struct table_snapshot *weigh,
		 struct whatif_costs *c)
{
	const struct table_snapshot *s = t->snapshot;
	const struct table_hash *hashes[TABLE_HASHES_MAX];
	__u64 sizes[WHATIF_MAX_LAYOUTS];
	int nh, nb, i, j;

	memset(w, 0, sizeof(*w));
	w->t = t;
	w->weigh = weigh;
	w->counted = weigh->counted;
	w->redrawn = q->redrawn;
	w->current = q->forced_current ? q->forced_current : s->hash;
	if (!table_hash_compatible(s->hash, w->current) ||
	    !table_hash_takes(w->current, s->shape.buckets))
		return -EINVAL;
	nh = candidate_hashes(q, w->current, hashes);
	nb = candidate_slots(q, s, w->current, sizes);
	/* the status line's count: the layouts below (--entries' fills are not laid out) */
	w->planned = 1;
	for (i = 0; !q->entries && i < nb; i++)
		for (j = 0; j < nh; j++)
			w->planned += !(hashes[j] == w->current && sizes[i] == s->shape.buckets) &&
				      table_hash_takes(hashes[j], sizes[i]);
	if (w->planned > WHATIF_MAX_LAYOUTS)
		w->planned = WHATIF_MAX_LAYOUTS;
	/* the snapshot's keys are in its chain order, unless another hash is taken for its own */
	if (lay_out(w, w->current, s->shape.buckets, !q->forced_current, c)) {
		w->failed_slots = s->shape.buckets;
		return laid_out(c, -ENOMEM);
	}
	/* --entries: the table as it would be at that many entries, at each size */
	for (i = 0; q->entries && i < nb && w->nlayouts < WHATIF_MAX_LAYOUTS; i++)
		if (fill_out(w, sizes[i], q->entries)) {
			w->failed_slots = sizes[i];
			return laid_out(c, -ENOMEM);
		}
	for (i = 0; !q->entries && i < nb; i++)
		for (j = 0; j < nh && w->nlayouts < WHATIF_MAX_LAYOUTS; j++) {
			if (hashes[j] == w->current && sizes[i] == s->shape.buckets)
				continue;
			if (!table_hash_takes(hashes[j], sizes[i]))
				continue;
			if (lay_out(w, hashes[j], sizes[i], false, c)) {
				w->failed_slots = sizes[i];
				return laid_out(c, -ENOMEM);
			}
		}
	return laid_out(c, 0);
}

int whatif_weigh_report(struct whatif_table *w, const struct target_report *t,
			struct whatif_costs *c)
{
	const struct table_snapshot *s = t->snapshot;
	const struct table_hash *h;
	int i;

	memset(w, 0, sizeof(*w));
	if (!s || !s->counted || !s->keys || !t->sum.self_check_ok)
		return -1;
	w->t = t;
	w->weigh = s;
	w->counted = true;
	w->current = s->hash;
	w->planned = 1;
	for (i = 0; (h = table_hash_at(i)); i++)
		if (table_hash_compatible(s->hash, h))
			w->planned += (h != s->hash && table_hash_takes(h, s->shape.buckets)) +
				      (s->shape.buckets * 2 <= PFT_TABLE_MAX_SLOTS &&
				       table_hash_takes(h, s->shape.buckets * 2));
	if (lay_out(w, s->hash, s->shape.buckets, true, c))
		return laid_out(c, -1);
	for (i = 0; (h = table_hash_at(i)); i++) {
		if (!table_hash_compatible(s->hash, h))
			continue;
		if (h != s->hash)
			lay_out(w, h, s->shape.buckets, false, c);
		if (s->shape.buckets * 2 <= PFT_TABLE_MAX_SLOTS)
			lay_out(w, h, s->shape.buckets * 2, false, c);
	}
	return laid_out(c, 0);
}

void whatif_table_free(struct whatif_table *w)
{
	int i;

	for (i = 0; i < w->nlayouts; i++) {
		layout_prediction_free(&w->layouts[i].p);
		uniform_fill_free(&w->layouts[i].fill);
	}
	w->nlayouts = 0;
}
