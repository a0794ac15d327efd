// SPDX-License-Identifier: GPL-2.0
/*
 * Loader side of bpf/recipes/inode.bpf.c. find_inode_fast() gets its bucket as
 * an argument, so only the parameter order is checked (sb, head, ino
 * first on every kernel) and i_hash_shift located, to report the size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "targets.h"
#include "inode.skel.h"
#include "inode.direct.skel.h"

RECIPE_SKELETON(inode)

static int inode_configure(struct target *t, const struct kernel_facts *kf,
			   char *err, size_t errlen)
{
	struct inode_bpf *skel = t->skel;
	char names[8][32];
	unsigned long shift;
	int n, rc;

	n = btf_func_params(kf->btf, "find_inode_fast", names, NULL, 8);
	if (n < 3 || strcmp(names[0], "sb") || strcmp(names[1], "head") || strcmp(names[2], "ino")) {
		snprintf(err, errlen, "find_inode_fast: unknown parameter layout (%d parameters)", n);
		return -EINVAL;
	}
	rc = recipe_ksym(kf, "find_inode_fast", "i_hash_shift", &shift, err, errlen);
	if (rc)
		return rc;
	skel->rodata->i_hash_shift_addr = shift;
	skel->rodata->inode_hashtable_addr = recipe_ksym_soft(kf, "inode_hashtable");
	snprintf(t->detail, sizeof(t->detail), "find_inode_fast(sb, head, ino%s), "
		 "bucket passed in by iget_locked()/ilookup()", n > 3 ? ", ..." : "");
	return 0;
}

static const char *const inode_aliases[] = { "iget_locked", "ilookup", NULL };

static const char *const inode_ksyms[] = { "i_hash_shift", "inode_hashtable", NULL };

const struct recipe inode_recipe = {
	.name = "inode",
	.table = "inode cache by number",
	.traced = "find_inode_fast",
	.answers_to = inode_aliases,
	.ksyms = inode_ksyms,
	.iterator = "hlist_for_each_entry_rcu(), prefetching before 3.0",
	.chain_end = PFT_END_NULL,
	.node_bytes = 640,		/* struct inode */
	.hash = &table_hash_inode,
	.key_layout = "k0 = i_sb, k1 = i_ino",
	RECIPE_OPS(inode),
	.configure = inode_configure,
};
