// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btffile.h"
#include "fileio.h"
#include "kernel.h"
#include "pftrace.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

unsigned int kernel_version_of(const char *release)
{
	unsigned int major = 0, minor = 0;

	if (sscanf(release, "%u.%u", &major, &minor) != 2)
		return 0;
	return PFT_KVER(major, minor);
}

static int load_custom_btf(struct kernel_facts *kf, const char *path, char *err, size_t errlen)
{
	struct btf_file bf;
	int rc;

	kf->btf_custom = true;
	snprintf(kf->btf_path, sizeof(kf->btf_path), "%s", path);
	rc = btf_file_load(&bf, path, err, errlen);
	if (rc)
		return rc;
	kf->btf = bf.btf;
	kf->btf_fd = bf.fd;
	snprintf(kf->btf_load_path, sizeof(kf->btf_load_path), "%s", bf.load_path);
	return 0;
}

/* Parse the BTF at PATH into kf->btf; errors name kf->btf_path, the user's. */
static int parse_btf(struct kernel_facts *kf, const char *path, char *err, size_t errlen)
{
	long e;

	kf->btf = btf__parse(path, NULL);
	e = libbpf_get_error(kf->btf);
	if (e) {
		kf->btf = NULL;
		snprintf(err, errlen, "%s: %s", kf->btf_path, strerror((int)-e));
		return (int)e;
	}
	return 0;
}

/* What the loader asks of the BTF for every target, read from it once. */
static void note_bpf_facts(struct kernel_facts *kf)
{
	int id = btf__find_by_name_kind(kf->btf, PFT_VIEW_STRUCT, BTF_KIND_STRUCT);

	kf->has_rdonly_cast = btf__find_by_name_kind(kf->btf, "bpf_rdonly_cast",
						     BTF_KIND_FUNC) >= 0;
	kf->view_bytes = id > 0 ? btf__resolve_size(kf->btf, id) : 0;
	kf->prog_recursion_guard = btf_member_offset(kf->btf, "bpf_prog", "active") >= 0;
}

bool kernel_takes_direct_loads(const struct kernel_facts *kf)
{
	return kf->has_rdonly_cast && kf->view_bytes >= PFT_WINDOW_BYTES;
}

bool kernel_reattaches_fexit(const struct kernel_facts *kf)
{
	return kf->version >= PFT_KVER(5, 19);
}

int kernel_facts_load(struct kernel_facts *kf, const char *btf_path,
		      char *err, size_t errlen)
{
	struct utsname u;
	int rc;

	memset(kf, 0, sizeof(*kf));
	if (uname(&u) == 0)
		snprintf(kf->release, sizeof(kf->release), "%s", u.release);
	kf->version = kernel_version_of(kf->release);

	kf->btf_fd = -1;
	if (btf_path) {
		rc = load_custom_btf(kf, btf_path, err, errlen);
	} else {
		snprintf(kf->btf_path, sizeof(kf->btf_path), "%s", VMLINUX_BTF);
		if (access(VMLINUX_BTF, R_OK)) {
			snprintf(err, errlen, "this kernel has no BTF (%s: %s); "
				 "pass --btf FILE with the BTF of kernel %s",
				 VMLINUX_BTF, strerror(errno), kf->release);
			return -ENOENT;
		}
		rc = parse_btf(kf, VMLINUX_BTF, err, errlen);
	}
	if (!rc)
		note_bpf_facts(kf);
	return rc;
}

void kernel_facts_drop_btf(struct kernel_facts *kf)
{
	btf__free(kf->mod_btf);
	kf->mod_btf = NULL;
	btf__free(kf->btf);
	kf->btf = NULL;
}

int kernel_facts_reload_btf(struct kernel_facts *kf, char *err, size_t errlen)
{
	int rc = 0;

	if (!kf->btf)
		rc = parse_btf(kf, kf->btf_custom ? kf->btf_load_path : VMLINUX_BTF, err, errlen);
	if (!rc && kf->mod_name[0] && !kf->mod_btf && !kf->mod_builtin)
		rc = kernel_facts_load_module(kf, kf->mod_name, err, errlen);
	return rc;
}

void kernel_facts_free(struct kernel_facts *kf)
{
	ksyms_free(kf->ksyms);
	kf->ksyms = NULL;
	kernel_facts_drop_btf(kf);
	if (kf->btf_custom && kf->btf_fd >= 0)
		close(kf->btf_fd);
	kf->btf_fd = -1;
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
