// SPDX-License-Identifier: GPL-2.0
/*
 * Loader side of bpf/recipes/avc.bpf.c: read the AVC's shape off the running
 * kernel (parameter layout and slot count from BTF, the cache's address
 * from kallsyms, the bucket function from the version) into the
 * program's read-only globals.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "trace_opts.h"
#include "avc.h"
#include "targets.h"
#include "avc.skel.h"
#include "avc.direct.skel.h"

static const char *const avc_aliases[] = {
	"avc_has_perm_noaudit", "avc_has_perm", "avc_has_perm_flags",
	"avc_has_extended_perms", NULL,
};

static int avc_check(const struct kernel_facts *kf, char *err, size_t errlen)
{
	char why[PFT_ERRLEN];

	if (!selinux_active(why, sizeof(why))) {
		snprintf(err, errlen, "avc_lookup: %s; nothing would call it", why);
		return -ENODEV;
	}
	return 0;
}

RECIPE_SKELETON(avc)

/*
 * 6.19 switched avc_hash() to av_hash() (MurmurHash3) together with
 * CONFIG_SECURITY_SELINUX_AVC_HASH_BITS. Nothing in BTF or kallsyms tells
 * the two apart (both are inlined), so the version decides and the
 * self-check judges: a wrong guess shows up as disagreement at once.
 */
static enum pft_avc_hash avc_hash_for(const struct kernel_facts *kf,
				      const struct trace_opts *o)
{
	if (o->knobs.avc_hash)
		return o->knobs.avc_hash == KNOB_AVC_HASH_MURMUR3 ? PFT_AVC_HASH_MURMUR3 : PFT_AVC_HASH_XOR;
	return kf->version >= PFT_KVER(6, 19) ? PFT_AVC_HASH_MURMUR3 : PFT_AVC_HASH_XOR;
}

/* struct avc_entry (an avc_node's "ae") keeps tsid right after ssid: one load reads both */
static bool avc_key_pair(const struct kernel_facts *kf)
{
	long ssid = btf_member_offset(kf->btf, "avc_entry", "ssid");

	return ssid >= 0 && btf_member_offset(kf->btf, "avc_entry", "tsid") == ssid + 4;
}

/* avc_lookup(struct selinux_avc *avc, u32 ssid, u32 tsid, u16 tclass), 4.17 to 6.3 */
static int avc_layout_up_to_6_3(char names[][32], const char *structs[])
{
	static const char *const params[] = { "avc", "ssid", "tsid", "tclass" };
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(names[i], 32, "%s", params[i]);
		structs[i] = i ? "" : "selinux_avc";
	}
	return 4;
}

static int avc_configure(struct target *t, const struct kernel_facts *kf,
			 char *err, size_t errlen)
{
	struct avc_bpf *skel = t->skel;
	char names[8][32], layout[160];
	const char *structs[8];
	unsigned long addr = 0;
	long slots, cache_off, slots_off;
	enum pft_avc_hash hash;
	bool from_version = false;
	int n, rc;

	n = btf_func_params(kf->btf, "avc_lookup", names, structs, 8);
	if (n < 0 && kf->version < PFT_KVER(6, 4)) {
		/* not in BTF (plan_target: kprobes only): 4.17 to 6.3's layout */
		n = avc_layout_up_to_6_3(names, structs);
		from_version = true;
	}
	if (n == 4 && !strcmp(structs[0], "selinux_avc")) {
		/* up to 6.3: avc_lookup(struct selinux_avc *avc, ssid, tsid, tclass) */
		skel->rodata->avc_cache_is_arg = true;
		/* the same static object, which only a snapshot needs by name */
		skel->rodata->avc_global_addr = recipe_ksym_soft(kf, "selinux_avc");
	} else if (n == 3) {
		/* 6.4+: avc_lookup(ssid, tsid, tclass), cache is the global selinux_avc */
		rc = recipe_ksym(kf, "avc_lookup", "selinux_avc", &addr, err, errlen);
		if (rc)
			return rc;
		skel->rodata->avc_global_addr = addr;
		/* the walk's bucket array, found once rather than at every call */
		cache_off = btf_member_offset(kf->btf, "selinux_avc", "avc_cache");
		slots_off = btf_member_offset(kf->btf, "avc_cache", "slots");
		if (cache_off < 0 || slots_off < 0) {
			snprintf(err, errlen, "avc_lookup: no selinux_avc.avc_cache.slots in BTF");
			return -EINVAL;
		}
		skel->rodata->avc_slots_addr = addr + cache_off + slots_off;
	} else {
		snprintf(err, errlen, "avc_lookup: unknown parameter layout (%d parameters)", n);
		return -EINVAL;
	}

	slots = btf_array_member_len(kf->btf, "avc_cache", "slots");
	/* the mask shares its word with the hash's bit (avc.h) */
	if (slots <= 0 || (slots & (slots - 1)) || slots > PFT_AVC_RULE_MURMUR3) {
		snprintf(err, errlen, "avc_lookup: struct avc_cache.slots has %ld entries "
			 "per BTF; expected a power of two up to 2^30", slots);
		return -EINVAL;
	}
	skel->rodata->avc_slots = (__u32)slots;
	/* what the walks use, whether or not one runs: no note at every call */
	skel->data_walk->walk_output.table_slots = (__u64)slots;
	skel->rodata->avc_key_pair = avc_key_pair(kf);
	hash = avc_hash_for(kf, t->opts);
	skel->rodata->avc_bucket_rule = (__u32)(slots - 1) |
					(hash == PFT_AVC_HASH_MURMUR3 ? PFT_AVC_RULE_MURMUR3 : 0);
	t->table_hash = hash == PFT_AVC_HASH_MURMUR3 ? &table_hash_murmur3 : &table_hash_xor;

	if (n == 4)
		snprintf(layout, sizeof(layout), "avc_lookup(%s, %s, %s, %s)%s",
			 names[0], names[1], names[2], names[3],
			 from_version ? " by the version (not in BTF)" : "");
	else
		snprintf(layout, sizeof(layout), "avc_lookup(%s, %s, %s), cache at selinux_avc",
			 names[0], names[1], names[2]);
	snprintf(t->detail, sizeof(t->detail), "%s, %ld slots, %s bucket hash%s", layout,
		 slots, t->table_hash->name,
		 skel->rodata->avc_key_pair ? ", ssid and tsid matched in one load" : "");
	return 0;
}

static const char *const avc_ksyms[] = { "selinux_avc", NULL };

const struct recipe avc_recipe = {
	.name = "avc",
	.table = "SELinux access vector cache",
	.traced = "avc_lookup",
	.answers_to = avc_aliases,
	.ksyms = avc_ksyms,
	.iterator = "hlist_for_each_entry_rcu(), prefetching before 3.0",
	.chain_end = PFT_END_NULL,
	.node_bytes = 64,		/* struct avc_node */
	.hash = &table_hash_xor,	/* murmur3 from 6.19: see avc_configure() */
	.key_layout = "k0 = ssid | tsid << 32, k1 = tclass",
	.check = avc_check,
	.direct_layout = avc_key_pair,   /* the direct build matches the pair in one load */
	RECIPE_OPS(avc),
	.configure = avc_configure,
};
