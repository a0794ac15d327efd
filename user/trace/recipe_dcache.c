// SPDX-License-Identifier: GPL-2.0
/*
 * Loader side of bpf/recipes/dcache.bpf.c: the addresses of dentry_hashtable and
 * d_hash_shift from kallsyms. Two entries share the object: the RCU walk
 * (__d_lookup_rcu, nearly every lookup) and the ref walk (__d_lookup,
 * what a path walk falls back to when RCU walk gives up).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "targets.h"
#include "dcache.skel.h"
#include "dcache.direct.skel.h"

RECIPE_SKELETON(dcache)

static int dcache_configure(struct target *t, const struct kernel_facts *kf,
			    char *err, size_t errlen)
{
	struct dcache_bpf *skel = t->skel;
	const char *func = t->recipe->traced;
	unsigned long table, shift;
	int rc;

	rc = recipe_ksym(kf, func, "dentry_hashtable", &table, err, errlen);
	if (!rc)
		rc = recipe_ksym(kf, func, "d_hash_shift", &shift, err, errlen);
	if (rc)
		return rc;
	skel->rodata->dentry_hashtable_addr = table;
	skel->rodata->d_hash_shift_addr = shift;
	snprintf(t->detail, sizeof(t->detail), "%s(parent, name, ...), bucket "
		 "dentry_hashtable + (name->hash >> d_hash_shift)", func);
	return 0;
}

static const char *const dcache_ksyms[] = { "dentry_hashtable", "d_hash_shift", NULL };

static const char *const dcache_rcu_aliases[] = {
	"__d_lookup_rcu_op_compare", "lookup_fast", NULL,
};

static const char *const dcache_ref_aliases[] = {
	"d_lookup", NULL,
};

const struct recipe dcache_recipe = {
	.name = "dcache",
	.table = "dentry cache, RCU walk",
	.traced = "__d_lookup_rcu",
	.answers_to = dcache_rcu_aliases,
	.ksyms = dcache_ksyms,
	.iterator = "hlist_bl_for_each_entry_rcu()",
	.chain_end = PFT_END_NULL,
	.node_bytes = 192,		/* struct dentry */
	.hash = &table_hash_d_hash,
	.key_layout = "k0 = d_name.hash_len (hash in the low 32 bits)",
	RECIPE_OPS(dcache),
	.configure = dcache_configure,
};

const struct recipe dcache_ref_recipe = {
	.name = "dcache-ref",
	.table = "dentry cache, ref walk",
	.traced = "__d_lookup",
	.answers_to = dcache_ref_aliases,
	.ksyms = dcache_ksyms,
	.iterator = "hlist_bl_for_each_entry_rcu()",
	.chain_end = PFT_END_NULL,
	.node_bytes = 192,		/* struct dentry */
	.hash = &table_hash_d_hash,
	.key_layout = "k0 = d_name.hash_len (hash in the low 32 bits)",
	RECIPE_OPS(dcache),
	.configure = dcache_configure,
};
