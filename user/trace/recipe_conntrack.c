// SPDX-License-Identifier: GPL-2.0
/*
 * Loader side of bpf/recipes/conntrack.bpf.c, the first recipe in a
 * module: __nf_conntrack_find_get() is nf_conntrack's, named in the
 * module's BTF (/sys/kernel/btf/nf_conntrack, which the planner loads
 * split on the kernel's), and the table's globals are the module's
 * symbols in kallsyms. Which layout the table has (one global table, or
 * one per namespace) and which form hash_conntrack_raw() takes come from
 * BTF; the self-check judges both.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "targets.h"
#include "conntrack.skel.h"
#include "conntrack.direct.skel.h"

RECIPE_SKELETON(conntrack)

static long btf_struct_size(const struct btf *btf, const char *name)
{
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_STRUCT);

	return id > 0 ? btf__resolve_size(btf, id) : -1;
}

/* Whether struct nf_conntrack_tuple's dst has __nfct_hash_offsetend: the hash's newer form */
static bool hashes_tuple39(const struct btf *btf)
{
	int id = btf__find_by_name_kind(btf, "nf_conntrack_tuple", BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_member *m;
	int i;

	for (i = 0, m = t ? btf_members(t) : NULL; t && i < btf_vlen(t); i++, m++) {
		if (strcmp(btf__name_by_offset(btf, m->name_off), "dst"))
			continue;
		t = btf__type_by_id(btf, m->type);
		for (i = 0, m = btf_members(t); btf_is_composite(t) && i < btf_vlen(t); i++, m++)
			if (!strcmp(btf__name_by_offset(btf, m->name_off), "__nfct_hash_offsetend"))
				return true;
		return false;
	}
	return false;
}

/*
 * The node and tuple the walk reads as words: a 40-byte tuple after a
 * 16-byte hlist_nulls_node (every kernel from 3.x to 7.2). Anything else
 * is refused rather than misread.
 */
static int check_layout(const struct btf *btf, char *err, size_t errlen)
{
	long tuple = btf_struct_size(btf, "nf_conntrack_tuple");
	long node = btf_struct_size(btf, "nf_conntrack_tuple_hash");

	if (tuple == 40 && node == 56 &&
	    btf_member_offset(btf, "nf_conntrack_tuple_hash", "tuple") == 16)
		return 0;
	snprintf(err, errlen, "__nf_conntrack_find_get: struct nf_conntrack_tuple_hash is %ld "
		 "bytes and its tuple %ld per BTF; pftrace knows 56 and 40", node, tuple);
	return -EINVAL;
}

/* One global table, nf_conntrack_hash[nf_conntrack_htable_size]: its globals' addresses */
static int global_table(struct conntrack_bpf *skel, const struct kernel_facts *kf,
			char *err, size_t errlen)
{
	unsigned long hash, size;
	int rc;

	rc = recipe_ksym(kf, "__nf_conntrack_find_get", "nf_conntrack_hash", &hash, err, errlen);
	if (!rc)
		rc = recipe_ksym(kf, "__nf_conntrack_find_get", "nf_conntrack_htable_size", &size,
				 err, errlen);
	if (rc)
		return rc;
	skel->rodata->ct_hash_addr = hash;
	skel->rodata->ct_size_addr = size;
	return 0;
}

static int conntrack_configure(struct target *t, const struct kernel_facts *kf,
			       char *err, size_t errlen)
{
	struct conntrack_bpf *skel = t->skel;
	const struct btf *btf = recipe_btf(kf, t->recipe);
	bool per_net = btf_member_offset(btf, "netns_ct", "nf_conntrack_hash") >= 0;
	int rc = check_layout(btf, err, errlen);

	if (rc)
		return rc;
	if (per_net) {
		/* a table per namespace: the walks take the lookup's, a snapshot init_net's */
		skel->rodata->ct_table_per_net = true;
		skel->rodata->ct_snap_net = recipe_ksym_soft(kf, "init_net");
	} else if ((rc = global_table(skel, kf, err, errlen))) {
		return rc;
	}
	skel->rodata->ct_hash_tuple39 = hashes_tuple39(btf);
	/* before 6.1 the raw hash has other forms (jhash2): no snapshot keys there */
	if (kf->version >= PFT_KVER(6, 1))
		skel->rodata->ct_rnd_addr = recipe_ksym_soft(kf, "nf_conntrack_hash_rnd");
	t->table_hash = &table_hash_conntrack;
	snprintf(t->detail, sizeof(t->detail), "__nf_conntrack_find_get(net, zone, tuple, hash) "
		 "in module nf_conntrack, bucket reciprocal_scale(hash, %s), raw hash SipHash of %s",
		 per_net ? "net->ct.nf_conntrack_htable_size" : "nf_conntrack_htable_size",
		 skel->rodata->ct_hash_tuple39 ? "the tuple (39 bytes)" :
		 "source, destination, zone and namespace (48 bytes)");
	return 0;
}

/* ct_events (bpf/recipes/conntrack.bpf.c), summed over the CPUs */
static int conntrack_counts(const struct target *t, struct recipe_count *out)
{
	static const struct recipe_count kinds[] = {
		{ "rejected", "matches the kernel did not return (refcount zero, or recycled "
			      "under SLAB_TYPESAFE_BY_RCU): self-check disagreements", 0 },
		{ "off_chain", "misses that ended in another bucket's nulls marker: the kernel "
			       "walks such a bucket again (search_restart)", 0 },
	};
	const struct conntrack_bpf *skel = t->skel;
	int ncpus = libbpf_num_possible_cpus(), fd, i, c, n = 0;
	__u64 *v;

	if (!skel || ncpus <= 0 || (fd = bpf_map__fd(skel->maps.ct_events)) < 0)
		return 0;
	v = calloc((size_t)ncpus, sizeof(*v));
	for (i = 0; v && i < (int)(sizeof(kinds) / sizeof(kinds[0])); i++) {
		__u32 key = (__u32)i;

		out[n] = kinds[i];
		if (bpf_map_lookup_elem(fd, &key, v))
			continue;
		for (c = 0; c < ncpus; c++)
			out[n].value += v[c];
		n++;
	}
	free(v);
	return n;
}

/* The direct build reads an entry's timeout and zone in one load: they must pair (6.1 to 7.2 do) */
static bool conntrack_direct_layout(const struct kernel_facts *kf)
{
	const struct btf *btf = kf->mod_btf ? kf->mod_btf : kf->btf;
	long timeout = btf_member_offset(btf, "nf_conn", "timeout");

	return timeout >= 0 && btf_member_offset(btf, "nf_conn", "zone") == timeout + 4 &&
	       btf_struct_size(btf, "nf_conntrack_zone") == 4;
}

static const char *const conntrack_aliases[] = {
	"nf_conntrack_in", "nf_conntrack_find_get", "resolve_normal_ct", NULL,
};

static const char *const conntrack_ksyms[] = {
	"nf_conntrack_hash", "nf_conntrack_htable_size", "nf_conntrack_hash_rnd", "init_net",
	NULL,
};

const struct recipe conntrack_recipe = {
	.name = "conntrack",
	.table = "netfilter connection tracking",
	.traced = "__nf_conntrack_find_get",
	.answers_to = conntrack_aliases,
	.ksyms = conntrack_ksyms,
	.module = "nf_conntrack",
	.netns_arg = true,
	.iterator = "hlist_nulls_for_each_entry_rcu()",
	.chain_end = PFT_END_NULLS,
	.node_bytes = 320,		/* struct nf_conn, two nodes of which are chained */
	.hash = &table_hash_conntrack,
	.key_layout = "k0 = hash_conntrack_raw() of the entry's tuple (the raw hash only)",
	.direct_layout = conntrack_direct_layout,
	RECIPE_OPS(conntrack),
	.configure = conntrack_configure,
	.counts = conntrack_counts,
};
