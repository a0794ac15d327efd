/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts about the running kernel that every other piece asks for: its
 * release, its BTF (or the file given with --btf), kallsyms and the
 * ftrace filter list. Read once, shared by the planner and the recipes.
 */
#ifndef PFT_KERNEL_H
#define PFT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include "btffile.h"
#include "fileio.h"   /* PFT_ERRLEN */


struct btf;

struct kernel_facts {
	char release[128];
	unsigned int version;     /* KERNEL_VERSION(major, minor, 0) */
	struct btf *btf;          /* vmlinux BTF, or the --btf file */
	char btf_path[4096];
	bool btf_custom;          /* from --btf */
	int btf_fd;               /* --btf, open for the session; else -1 */
	char btf_load_path[32];   /* /proc/self/fd/N: what libbpf reads for --btf */
};

#define PFT_KVER(a, b) (((a) << 16) + ((b) << 8))

/* Fails (one line in err) when no usable BTF can be had. */
int kernel_facts_load(struct kernel_facts *kf, const char *btf_path,
		      char *err, size_t errlen);
void kernel_facts_free(struct kernel_facts *kf);
/* libbpf's messages on stderr with -v, else none */
void setup_libbpf_logging(bool verbose);
unsigned int kernel_version_of(const char *release);

/* Number of parameters of FUNC per BTF, names copied; -1 if absent. */
int btf_func_params(const struct btf *btf, const char *func,
		    char names[][32], const char *struct_names[], int max);
/* Element count of the array member MEMBER of struct SNAME; -1 if none. */
long btf_array_member_len(const struct btf *btf, const char *sname,
			  const char *member);
/* Byte offset of MEMBER in struct SNAME; -1 if either is missing. */
long btf_member_offset(const struct btf *btf, const char *sname, const char *member);

/*
 * kallsyms: address of NAME (any symbol type when types is NULL, else
 * one of the type letters in types). 0 with *found when the kernel hides
 * addresses. Returns false when NAME is not there.
 */
bool ksym_address(const char *name, const char *types, unsigned long *addr);
bool kallsyms_addresses_visible(void);
/*
 * Read the symbols NAMES (NULL-terminated; "name.*" also matches a
 * function's static "name.N") in one pass, so that later lookups of
 * them need no pass of their own: the kernel formats /proc/kallsyms on
 * every read, about half a second of guest time in the lab per pass.
 */
void ksym_preload(const char *const *names);
/* The same for the first symbol named PREFIX or PREFIX.N (a function's static). */
bool ksym_address_prefix(const char *prefix, const char *types, unsigned long *addr);

/*
 * 1 when FUNC is in the ftrace filter list (attachable by fentry and
 * kprobe), 0 when it is not (notrace or inlined), -1 when the list
 * cannot be read (tracefs not mounted).
 */
int ftrace_traceable(const char *func);

/* A kernel function from kallsyms: its address and its size up to the next symbol. */
struct kfunc {
	unsigned long addr;
	unsigned long size;
	char *name;
};

/*
 * Every core-kernel text symbol ('t', 'T'), sorted by address; sizes
 * run to the next symbol. Returns the count (the array in *out, free
 * with kfuncs_free) or -errno.
 */
int kfuncs_load(struct kfunc **out);
void kfuncs_free(struct kfunc *f, int n);
/* The function holding ADDR, or NULL. */
const struct kfunc *kfunc_at(const struct kfunc *f, int n, unsigned long addr);
const struct kfunc *kfunc_named(const struct kfunc *f, int n, const char *name);

bool selinux_active(char *why, size_t whylen);

/*
 * strerror() that also knows the kernel-internal codes BPF can return
 * (ENOTSUPP 524: e.g. a trampoline for a function with too many
 * arguments), which libc prints as "Unknown error 524".
 */
const char *kerr_str(int err);

#endif
