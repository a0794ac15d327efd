// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel facts read from real BTF: the build host's own kernel (6.18)
 * has the AVC's types and avc_lookup's 6.4+ parameter layout.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <bpf/btf.h>
#include "cmocka_prelude.h"
#include "kernel.h"
#include "targets.h"

static void test_version_parse(void **state)
{
	assert_int_equal(kernel_version_of("6.19.14+deb13-cloud-amd64"), PFT_KVER(6, 19));
	assert_int_equal(kernel_version_of("5.10.0-32-cloud-amd64"), PFT_KVER(5, 10));
	assert_true(kernel_version_of("6.1.0-50-cloud-amd64") < PFT_KVER(6, 4));
	assert_int_equal(kernel_version_of("garbage"), 0);
}

static void test_btf_facts(void **state)
{
	struct kernel_facts kf;
	char err[PFT_ERRLEN], names[8][32];
	const char *structs[8];
	int n;

	assert_int_equal(kernel_facts_load(&kf, NULL, err, sizeof(err)), 0);
	assert_true(btf_has_func(kf.btf, "avc_lookup"));
	assert_false(btf_has_func(kf.btf, "no_such_function_here"));
	n = btf_func_params(kf.btf, "avc_lookup", names, structs, 8);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "ssid");
	assert_string_equal(names[1], "tsid");
	assert_string_equal(names[2], "tclass");
	assert_string_equal(structs[0], "");
	/* a pointer parameter resolves to its struct's name */
	n = btf_func_params(kf.btf, "vfs_read", names, structs, 8);
	assert_int_equal(n, 4);
	assert_string_equal(structs[0], "file");
	assert_int_equal(btf_array_member_len(kf.btf, "avc_cache", "slots"), 512);
	assert_int_equal(btf_array_member_len(kf.btf, "avc_cache", "lru_hint"), -1);
	assert_int_equal(btf_array_member_len(kf.btf, "no_such_struct", "slots"), -1);
	kernel_facts_free(&kf);
}

static void test_btf_path_refusals(void **state)
{
	struct kernel_facts kf;
	char err[PFT_ERRLEN];

	assert_true(kernel_facts_load(&kf, "/no/such/file", err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "--btf /no/such/file"));
	/* a readable file that is not BTF */
	assert_true(kernel_facts_load(&kf, "/etc/passwd", err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "not a kernel BTF"));
	/* the same BTF as a file works */
	assert_int_equal(kernel_facts_load(&kf, "/sys/kernel/btf/vmlinux", err, sizeof(err)), 0);
	assert_true(kf.btf_custom);
	kernel_facts_free(&kf);
}

static void test_btf_member_offset(void **state)
{
	struct kernel_facts kf;
	char err[PFT_ERRLEN];

	assert_int_equal(kernel_facts_load(&kf, NULL, err, sizeof(err)), 0);
	/* struct avc_node { struct avc_entry ae; struct hlist_node list; ... } */
	assert_true(btf_member_offset(kf.btf, "avc_node", "list") > 0);
	assert_int_equal(btf_member_offset(kf.btf, "avc_node", "ae"), 0);
	assert_int_equal(btf_member_offset(kf.btf, "avc_node", "no_such_member"), -1);
	assert_int_equal(btf_member_offset(kf.btf, "no_such_struct", "list"), -1);
	/*
	 * The AVC's matcher reads ssid and tsid in one load where struct
	 * avc_entry keeps them side by side (recipe_avc.c asks this of BTF)
	 */
	assert_int_equal(btf_member_offset(kf.btf, "avc_entry", "tsid"),
			 btf_member_offset(kf.btf, "avc_entry", "ssid") + 4);
	kernel_facts_free(&kf);
}

/*
 * A raw BTF file, for --btf, of a kernel whose struct cpumask is LONGS
 * longs (NR_CPUS / 64), with bpf_rdonly_cast() or without: all the
 * loader asks of BTF to choose between direct loads and probe reads,
 * and the one function btf_file_load() wants of a kernel's BTF.
 */
static void write_cpumask_btf(const char *path, __u32 longs, bool rdonly_cast)
{
	struct btf *b = btf__new_empty();
	int ulong, u32, arr, proto, fd;
	const void *raw;
	__u32 size;

	assert_non_null(b);
	ulong = btf__add_int(b, "long unsigned int", 8, 0);
	u32 = btf__add_int(b, "unsigned int", 4, 0);
	arr = btf__add_array(b, u32, ulong, longs);
	assert_true(btf__add_struct(b, PFT_VIEW_STRUCT, longs * 8) > 0);
	assert_int_equal(btf__add_field(b, "bits", arr, 0, 0), 0);
	proto = btf__add_func_proto(b, 0);
	assert_true(btf__add_func(b, "schedule", BTF_FUNC_GLOBAL, proto) > 0);
	if (rdonly_cast)
		assert_true(btf__add_func(b, "bpf_rdonly_cast", BTF_FUNC_GLOBAL, proto) > 0);
	raw = btf__raw_data(b, &size);
	assert_non_null(raw);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, size), (ssize_t)size);
	close(fd);
	btf__free(b);
}

/* --sample detaches fexit programs between slices only where the kernel
 * takes them back (5.19+); the lab's 5.10 refused the second attach */
static void test_reattach_choice(void **state)
{
	struct kernel_facts kf = { .version = PFT_KVER(5, 10) };

	assert_false(kernel_reattaches_fexit(&kf));
	kf.version = PFT_KVER(5, 18);
	assert_false(kernel_reattaches_fexit(&kf));
	kf.version = PFT_KVER(5, 19);
	assert_true(kernel_reattaches_fexit(&kf));
	kf.version = kernel_version_of("6.1.0-41-cloud-amd64");
	assert_true(kernel_reattaches_fexit(&kf));
	kf.version = kernel_version_of("5.10.0-32-cloud-amd64");
	assert_false(kernel_reattaches_fexit(&kf));
}

/*
 * Direct loads go through PFT_VIEW_STRUCT (x86: struct cpumask; arm64:
 * struct user_pt_regs) from an entry's start: a kernel whose struct is
 * smaller than a window (x86's NR_CPUS under 2048) gets the probe-read
 * build. No lab kernel is such a kernel (Debian's x86 NR_CPUS is 8192;
 * arm64's user_pt_regs is 272 bytes): --btf files stand in for them.
 */
static void test_direct_loads_choice(void **state)
{
	char path[] = "/tmp/pftrace-cpumask-XXXXXX", err[PFT_ERRLEN];
	struct kernel_facts kf;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	/* NR_CPUS 8192 (Debian's), 2048 (the least that holds a window), 1024, 64 */
	write_cpumask_btf(path, 128, true);
	assert_int_equal(kernel_facts_load(&kf, path, err, sizeof(err)), 0);
	assert_int_equal(kf.view_bytes, 1024);
	assert_true(kernel_takes_direct_loads(&kf));
	kernel_facts_free(&kf);

	write_cpumask_btf(path, PFT_WINDOW_BYTES / 8, true);
	assert_int_equal(kernel_facts_load(&kf, path, err, sizeof(err)), 0);
	assert_true(kernel_takes_direct_loads(&kf));
	kernel_facts_free(&kf);

	write_cpumask_btf(path, PFT_WINDOW_BYTES / 8 - 1, true);
	assert_int_equal(kernel_facts_load(&kf, path, err, sizeof(err)), 0);
	assert_int_equal(kf.view_bytes, PFT_WINDOW_BYTES - 8);
	assert_false(kernel_takes_direct_loads(&kf));
	kernel_facts_free(&kf);

	write_cpumask_btf(path, 1, true);
	assert_int_equal(kernel_facts_load(&kf, path, err, sizeof(err)), 0);
	assert_false(kernel_takes_direct_loads(&kf));
	kernel_facts_free(&kf);

	/* a 6.1 kernel: no bpf_rdonly_cast(), however wide its cpumask */
	write_cpumask_btf(path, 128, false);
	assert_int_equal(kernel_facts_load(&kf, path, err, sizeof(err)), 0);
	assert_false(kf.has_rdonly_cast);
	assert_false(kernel_takes_direct_loads(&kf));
	kernel_facts_free(&kf);
	unlink(path);
}

/* A doctored kallsyms (the test seam PFTRACE_KALLSYMS) */
static void test_kallsyms_fixture(void **state)
{
	char path[] = "/tmp/pftrace-kallsyms.XXXXXX";
	unsigned long addr = 0;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("ffffffff81000000 T _stext\n"
	      "ffffffff81000100 T inet_ehash_secret_bogus\n"
	      "ffffffff82000000 d inet_ehash_secret.5\n"
	      "ffffffff83000000 b selinux_avc\n"
	      "ffffffffc0000000 t helper\t[some_module]\n", f);
	fclose(f);
	setenv("PFTRACE_KALLSYMS", path, 1);
	{
		static const char *const wanted[] = { "inet_ehash_secret.*", "selinux_avc", NULL };
		struct ksyms *ks = ksyms_load(wanted, true);
		const struct kfunc *funcs;

		/* the names and every function in one read of the file */
		assert_non_null(ks);
		assert_int_equal(ksyms_passes(ks), 1);
		assert_true(ksyms_address_prefix(ks, "inet_ehash_secret", "bBdD", &addr));
		assert_int_equal(addr, 0xffffffff82000000UL);
		assert_true(ksyms_address(ks, "selinux_avc", "bB", &addr));
		assert_int_equal(addr, 0xffffffff83000000UL);
		assert_false(ksyms_address(ks, "selinux_avc", "tT", &addr));
		/* text only, a module's too (conntrack's), sorted, sized to the next symbol */
		assert_int_equal(ksyms_funcs(ks, &funcs), 3);
		assert_string_equal(funcs[0].name, "_stext");
		assert_int_equal(funcs[0].size, 0x100);
		assert_string_equal(funcs[2].name, "helper");
		assert_int_equal(ksyms_passes(ks), 1);
		/* a name not asked for up front costs a read of its own */
		assert_false(ksyms_address_prefix(ks, "inet_ehash", NULL, &addr));
		assert_int_equal(ksyms_passes(ks), 2);
		ksyms_free(ks);
	}
	unsetenv("PFTRACE_KALLSYMS");
	unlink(path);
}

static void test_kerr_str(void **state)
{
	assert_string_equal(kerr_str(-524), "not supported by this kernel (ENOTSUPP)");
	assert_string_equal(kerr_str(-EPERM), "Operation not permitted");
	assert_string_equal(kerr_str(ENOENT), "No such file or directory");
}

static void test_kallsyms(void **state)
{
	unsigned long addr = 1;

	assert_true(ksyms_address(NULL, "avc_lookup", "tT", &addr));
	assert_false(ksyms_address(NULL, "avc_lookup", "bB", &addr));
	assert_false(ksyms_address(NULL, "no_such_symbol_here", NULL, &addr));
	/* root sees addresses; the planner refuses a zero one */
	if (geteuid() == 0)
		assert_true(kallsyms_addresses_visible(NULL));
}

/* a recipe carries what the rest needs, and is found by name */
static void test_registry(void **state)
{
	const struct recipe *const *r;
	int n = 0;

	for (r = recipes; *r; r++, n++) {
		assert_true((*r)->node_bytes >= 16);
		assert_ptr_equal(recipe_named((*r)->name), *r);
		assert_ptr_equal(recipe_for((*r)->traced), *r);
		/* -f avc, -f dcache-ref: the names pftrace list prints */
		assert_ptr_equal(recipe_for((*r)->name), *r);
		assert_non_null((*r)->open);
		assert_non_null((*r)->configure);
		assert_non_null((*r)->load);
	}
	assert_int_equal(n, 7);
	assert_null(recipe_named("nosuch"));
	/* the module recipe: its function is the module's, answered for by its BTF */
	assert_string_equal(recipe_named("conntrack")->module, "nf_conntrack");
	assert_ptr_equal(recipe_for("nf_conntrack_in"), recipe_named("conntrack"));
	assert_null(recipe_named("avc")->module);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_parse),
		cmocka_unit_test(test_btf_facts),
		cmocka_unit_test(test_btf_path_refusals),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_btf_member_offset),
		cmocka_unit_test(test_direct_loads_choice),
		cmocka_unit_test(test_reattach_choice),
		cmocka_unit_test(test_kallsyms_fixture),
		cmocka_unit_test(test_kerr_str),
		cmocka_unit_test(test_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
