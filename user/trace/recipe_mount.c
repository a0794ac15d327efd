// SPDX-License-Identifier: GPL-2.0
/* Loader side of bpf/recipes/mount.bpf.c: mount_hashtable, m_hash_shift, m_hash_mask from kallsyms. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>

#include "targets.h"
#include "mount.skel.h"
#include "mount.direct.skel.h"

RECIPE_SKELETON(mount)

static int mount_configure(struct target *t, const struct kernel_facts *kf,
			   char *err, size_t errlen)
{
	struct mount_bpf *skel = t->skel;
	unsigned long table, shift, mask;
	int rc;

	rc = recipe_ksym(kf, "__lookup_mnt", "mount_hashtable", &table, err, errlen);
	if (!rc)
		rc = recipe_ksym(kf, "__lookup_mnt", "m_hash_shift", &shift, err, errlen);
	if (!rc)
		rc = recipe_ksym(kf, "__lookup_mnt", "m_hash_mask", &mask, err, errlen);
	if (rc)
		return rc;
	skel->rodata->mount_hashtable_addr = table;
	skel->rodata->m_hash_shift_addr = shift;
	skel->rodata->m_hash_mask_addr = mask;
	snprintf(t->detail, sizeof(t->detail), "__lookup_mnt(mnt, dentry), bucket "
		 "m_hash(mnt, dentry) over mount_hashtable");
	return 0;
}

static const char *const mount_aliases[] = { "lookup_mnt", NULL };

static const char *const mount_ksyms[] = { "mount_hashtable", "m_hash_shift", "m_hash_mask", NULL };

const struct recipe mount_recipe = {
	.name = "mount",
	.table = "mount hash",
	.traced = "__lookup_mnt",
	.answers_to = mount_aliases,
	.ksyms = mount_ksyms,
	.iterator = "hlist_for_each_entry_rcu(), prefetching before 3.0",
	.chain_end = PFT_END_NULL,
	.node_bytes = 320,		/* struct mount */
	.hash = &table_hash_m_hash,
	.key_layout = "k0 = &mnt_parent->mnt, k1 = mnt_mountpoint",
	RECIPE_OPS(mount),
	.configure = mount_configure,
};
