// SPDX-License-Identifier: GPL-2.0
/*
 * Loader side of bpf/recipes/tcp.bpf.c: the parameter layout (8 parameters with
 * hashinfo up to 6.18, 7 without from 6.19) and the address of the
 * established-hash secret: a static (inet_ehash_secret.N) up to 6.8, and
 * net_hotdata.tcp_protocol.secret from 6.9, located through BTF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "targets.h"
#include "tcp.skel.h"
#include "tcp.direct.skel.h"

RECIPE_SKELETON(tcp)

static int ehash_secret_address(const struct kernel_facts *kf, unsigned long *addr,
				char *err, size_t errlen)
{
	long proto = btf_member_offset(kf->btf, "net_hotdata", "tcp_protocol");
	long secret = btf_member_offset(kf->btf, "net_protocol", "secret");
	int rc;

	if (proto >= 0 && secret >= 0) {
		rc = recipe_ksym(kf, "__inet_lookup_established", "net_hotdata", addr, err, errlen);
		if (!rc)
			*addr += (unsigned long)(proto + secret);
		return rc;
	}
	if (!ksyms_address_prefix(kf->ksyms, "inet_ehash_secret", "bBdD", addr) || !*addr) {
		snprintf(err, errlen, "__inet_lookup_established: cannot find inet_ehash_secret "
			 "in /proc/kallsyms");
		return -ENOENT;
	}
	return 0;
}

static int tcp_configure(struct target *t, const struct kernel_facts *kf,
			 char *err, size_t errlen)
{
	struct tcp_bpf *skel = t->skel;
	char names[10][32];
	unsigned long secret;
	int n, rc;

	n = btf_func_params(kf->btf, "__inet_lookup_established", names, NULL, 10);
	if (!(n == 8 && !strcmp(names[1], "hashinfo") && !strcmp(names[5], "hnum")) &&
	    !(n == 7 && !strcmp(names[1], "saddr") && !strcmp(names[4], "hnum"))) {
		snprintf(err, errlen, "__inet_lookup_established: unknown parameter layout "
			 "(%d parameters)", n);
		return -EINVAL;
	}
	rc = ehash_secret_address(kf, &secret, err, errlen);
	if (rc)
		return rc;
	skel->rodata->ehash_secret_addr = secret;
	/*
	 * 6.15 made inet_ehashfn() add the local port after hashing instead
	 * of hashing it; nothing but the version tells, and the self-check
	 * judges the guess.
	 */
	skel->rodata->ehash_adds_lport = kf->version >= PFT_KVER(6, 15);
	skel->rodata->tcp_nparams = (__u32)n;
	skel->rodata->tcp_hashinfo_addr = recipe_ksym_soft(kf, "tcp_hashinfo");
	snprintf(t->detail, sizeof(t->detail), "__inet_lookup_established(net, %ssaddr, sport, "
		 "daddr, hnum, ...), bucket %s & ehash_mask", n == 8 ? "hashinfo, " : "",
		 kf->version >= PFT_KVER(6, 15) ? "(hnum + inet_ehashfn() of port 0)" : "inet_ehashfn()");
	return 0;
}

static const char *const tcp_aliases[] = { "__inet_lookup", "tcp_v4_early_demux", NULL };

static const char *const tcp_ksyms[] = { "net_hotdata", "inet_ehash_secret.*", "tcp_hashinfo",
					 NULL };

const struct recipe tcp_recipe = {
	.name = "tcp",
	.table = "TCP established (IPv4)",
	.traced = "__inet_lookup_established",
	.answers_to = tcp_aliases,
	.ksyms = tcp_ksyms,
	.iterator = "sk_nulls_for_each_rcu()",
	.chain_end = PFT_END_NULLS,
	.netns_arg = true,
	.node_bytes = 2368,		/* struct tcp_sock */
	.hash = &table_hash_ehash,
	.key_layout = "k0 = skc_hash",
	RECIPE_OPS(tcp),
	.configure = tcp_configure,
};
