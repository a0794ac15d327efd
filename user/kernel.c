// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kernel.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

unsigned int kernel_version_of(const char *release)
{
	unsigned int major = 0, minor = 0;

	if (sscanf(release, "%u.%u", &major, &minor) != 2)
		return 0;
	return PFT_KVER(major, minor);
}

int kernel_facts_load(struct kernel_facts *kf, const char *btf_path,
		      char *err, size_t errlen)
{
	struct utsname u;
	long e;

	memset(kf, 0, sizeof(*kf));
	if (uname(&u) == 0)
		snprintf(kf->release, sizeof(kf->release), "%s", u.release);
	kf->version = kernel_version_of(kf->release);

	if (btf_path) {
		kf->btf_custom = true;
		snprintf(kf->btf_path, sizeof(kf->btf_path), "%s", btf_path);
		if (access(btf_path, R_OK)) {
			snprintf(err, errlen, "--btf %s: %s", btf_path, strerror(errno));
			return -ENOENT;
		}
		kf->btf = btf__parse(btf_path, NULL);
		e = libbpf_get_error(kf->btf);
		if (e || !btf__type_cnt(kf->btf) || !btf_has_func(kf->btf, "schedule")) {
			snprintf(err, errlen, "--btf %s: not a kernel BTF (%s)", btf_path,
				 e ? strerror((int)-e) : "no kernel functions in it");
			kf->btf = e ? NULL : kf->btf;
			kernel_facts_free(kf);
			return -EINVAL;
		}
		return 0;
	}
	snprintf(kf->btf_path, sizeof(kf->btf_path), "%s", VMLINUX_BTF);
	if (access(VMLINUX_BTF, R_OK)) {
		snprintf(err, errlen, "this kernel has no BTF (%s: %s); "
			 "pass --btf FILE with the BTF of kernel %s",
			 VMLINUX_BTF, strerror(errno), kf->release);
		return -ENOENT;
	}
	kf->btf = btf__parse(VMLINUX_BTF, NULL);
	e = libbpf_get_error(kf->btf);
	if (e) {
		kf->btf = NULL;
		snprintf(err, errlen, "%s: %s", VMLINUX_BTF, strerror((int)-e));
		return (int)e;
	}
	return 0;
}

void kernel_facts_free(struct kernel_facts *kf)
{
	btf__free(kf->btf);
	kf->btf = NULL;
}

bool btf_has_func(const struct btf *btf, const char *func)
{
	return btf && btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) > 0;
}

/* Strip typedefs and qualifiers down to the underlying type. */
static const struct btf_type *btf_resolve(const struct btf *btf, __u32 id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

int btf_func_params(const struct btf *btf, const char *func,
		    char names[][32], const char *struct_names[], int max)
{
	const struct btf_type *fn, *proto, *pt;
	const struct btf_param *p;
	int id, n, i;

	if (!btf)
		return -1;
	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id <= 0)
		return -1;
	fn = btf__type_by_id(btf, id);
	proto = btf__type_by_id(btf, fn->type);
	if (!proto || !btf_is_func_proto(proto))
		return -1;
	n = btf_vlen(proto);
	p = btf_params(proto);
	for (i = 0; i < n && i < max; i++) {
		snprintf(names[i], 32, "%s", btf__name_by_offset(btf, p[i].name_off));
		if (!struct_names)
			continue;
		/* "struct selinux_avc *" -> "selinux_avc", else "" */
		struct_names[i] = "";
		pt = btf_resolve(btf, p[i].type);
		if (pt && btf_is_ptr(pt)) {
			pt = btf_resolve(btf, pt->type);
			if (pt && btf_is_struct(pt))
				struct_names[i] = btf__name_by_offset(btf, pt->name_off);
		}
	}
	return n;
}

static const struct btf_member *btf_find_member(const struct btf *btf, const char *sname,
						const char *member, const struct btf_type **owner)
{
	const struct btf_type *t;
	const struct btf_member *m;
	int id, i;

	if (!btf)
		return NULL;
	id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	if (id <= 0)
		return NULL;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		if (!strcmp(btf__name_by_offset(btf, m->name_off), member)) {
			*owner = t;
			return m;
		}
	}
	return NULL;
}

long btf_member_offset(const struct btf *btf, const char *sname, const char *member)
{
	const struct btf_type *owner;
	const struct btf_member *m = btf_find_member(btf, sname, member, &owner);

	if (!m)
		return -1;
	return (long)(btf_member_bit_offset(owner, (__u32)(m - btf_members(owner))) / 8);
}

long btf_array_member_len(const struct btf *btf, const char *sname,
			  const char *member)
{
	const struct btf_type *owner, *mt;
	const struct btf_member *m = btf_find_member(btf, sname, member, &owner);

	if (!m)
		return -1;
	mt = btf_resolve(btf, m->type);
	if (!mt || !btf_is_array(mt))
		return -1;
	return btf_array(mt)->nelems;
}

/* Scan kallsyms for NAME (or, with prefix, NAME.N); core symbols only. */
static bool ksym_scan(const char *name, bool prefix, const char *types, unsigned long *addr)
{
	char line[512], sym[256], type;
	size_t n = strlen(name);
	unsigned long a;
	bool found = false;
	/* a test seam: the lab checks refusals with a doctored copy */
	const char *path = getenv("PFTRACE_KALLSYMS");
	FILE *f = fopen(path ? path : "/proc/kallsyms", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* module symbols carry a "[module]" suffix: never ours */
		if (sscanf(line, "%lx %c %255s", &a, &type, sym) != 3)
			continue;
		if (prefix ? strncmp(sym, name, n) || (sym[n] != '\0' && sym[n] != '.')
			   : strcmp(sym, name))
			continue;
		if (types && !strchr(types, type))
			continue;
		*addr = a;
		found = true;
		break;
	}
	fclose(f);
	return found;
}

bool ksym_address(const char *name, const char *types, unsigned long *addr)
{
	return ksym_scan(name, false, types, addr);
}

bool ksym_address_prefix(const char *prefix, const char *types, unsigned long *addr)
{
	return ksym_scan(prefix, true, types, addr);
}

bool kallsyms_addresses_visible(void)
{
	unsigned long a = 0;

	return ksym_address("_stext", NULL, &a) && a != 0;
}

int ftrace_traceable(const char *func)
{
	static const char *const lists[] = {
		"/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions",
	};
	char line[512];
	size_t n = strlen(func);
	FILE *f = NULL;
	int found = 0;
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]) && !f; i++)
		f = fopen(lists[i], "r");
	if (!f)
		return -1;
	/* lines are "name" or "name [module]" */
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, func, n) &&
		    (line[n] == '\n' || line[n] == ' ' || line[n] == '\0')) {
			found = 1;
			break;
		}
	}
	fclose(f);
	return found;
}

bool selinux_active(char *why, size_t whylen)
{
	char line[256];
	bool registered = false;
	FILE *f = fopen("/proc/filesystems", "r");
	int enforce = -1;

	/* selinuxfs is registered only when SELinux initialised at boot */
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (strstr(line, "\tselinuxfs\n"))
				registered = true;
		fclose(f);
	}
	if (!registered) {
		snprintf(why, whylen, "SELinux is not active on this kernel (no selinuxfs)");
		return false;
	}
	f = fopen("/sys/fs/selinux/enforce", "r");
	if (f) {
		if (fscanf(f, "%d", &enforce) != 1)
			enforce = -1;
		fclose(f);
	}
	if (enforce < 0)
		snprintf(why, whylen, "active (selinuxfs not mounted at /sys/fs/selinux)");
	else
		snprintf(why, whylen, "active, %s", enforce ? "enforcing" : "permissive");
	return true;
}

const char *kerr_str(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case 524:
		return "not supported by this kernel (ENOTSUPP)";
	case 525:
		return "not supported by this kernel (ETOOSMALL)";
	default:
		return strerror(err);
	}
}
