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
	struct btf *mod_btf;      /* a module recipe's module BTF, split on btf */
	char mod_name[64];        /* that module (kernel_facts_load_module()) */
	bool mod_builtin;         /* built into the kernel: the kernel's BTF knows it */
	char btf_path[4096];
	bool btf_custom;          /* from --btf */
	int btf_fd;               /* --btf, open for the session; else -1 */
	char btf_load_path[32];   /* /proc/self/fd/N: what libbpf reads for --btf */
	struct ksyms *ksyms;      /* loaded once the plan knows the names it needs */
	bool has_rdonly_cast;     /* kfunc bpf_rdonly_cast (6.2+): walks by direct loads */
	long view_bytes;          /* PFT_VIEW_STRUCT: the view direct loads go through */
	bool prog_recursion_guard; /* struct bpf_prog's per-CPU "active" (5.12+) */
};

#define PFT_KVER(a, b) (((a) << 16) + ((b) << 8))

/* Fails (one line in err) when no usable BTF can be had. */
int kernel_facts_load(struct kernel_facts *kf, const char *btf_path,
		      char *err, size_t errlen);
void kernel_facts_free(struct kernel_facts *kf);
/*
 * Whether the kernel can take the direct-load build of a recipe (fexit
 * only; bpf/kread.bpf.h): it has bpf_rdonly_cast() (6.2+), and its
 * PFT_VIEW_STRUCT, the view the loads go through from an entry's start,
 * reaches PFT_WINDOW_BYTES (x86's cpumask: NR_CPUS of 2048 and more;
 * arm64's user_pt_regs). Else probe reads.
 */
bool kernel_takes_direct_loads(const struct kernel_facts *kf);
/*
 * Whether a fentry/fexit program detached can be attached again, as
 * --sample's slices do: since 5.19 ("bpf: Allow trampoline re-attach
 * for tracing and lsm programs"). Before, the kernel forgets the
 * program's target at its first attach, and a second one fails with
 * ENOENT (5.10 in the lab). By version, so a distribution kernel that
 * took the change back earlier stays attached needlessly, never the
 * other way.
 */
bool kernel_reattaches_fexit(const struct kernel_facts *kf);
/*
 * The parsed BTF is ~6 MB, and libbpf parses a copy of its own for each
 * object it loads: planning done, the session drops its own, and takes
 * it again only to re-plan a target the kernel refused.
 */
void kernel_facts_drop_btf(struct kernel_facts *kf);
/*
 * The BTF of kernel module NAME (/sys/kernel/btf/NAME, split on the
 * kernel's own) into kf->mod_btf, or none where it is built in: 0;
 * -ENOENT when the module is not loaded, -ENODATA when the kernel has
 * no BTF for it, with one line in err. One module at a time: the one
 * the planned recipe lives in.
 */
int kernel_facts_load_module(struct kernel_facts *kf, const char *name, char *err, size_t errlen);
/* Whether module NAME is built in, or loaded and not on its way out (/sys/module/NAME/initstate) */
bool kernel_module_live(const char *name);
int kernel_facts_reload_btf(struct kernel_facts *kf, char *err, size_t errlen);
/* libbpf's messages on stderr with -v, else none */
void setup_libbpf_logging(bool verbose);
/*
 * The map libbpf last failed to create (NULL: none since the clear), and
 * the kernel's error in *ERR: libbpf names it only in its log, which
 * setup_libbpf_logging's printers read, verbose or not.
 */
const char *libbpf_refused_map(int *err);
void libbpf_refused_map_clear(void);
/* RLIMIT_MEMLOCK bounds BPF here (before 5.11) and is not unlimited: *LIMIT bytes */
bool kernel_memlock_limits_bpf(unsigned long long *limit);
unsigned int kernel_version_of(const char *release);

/* Number of parameters of FUNC per BTF, names copied; -1 if absent. */
int btf_func_params(const struct btf *btf, const char *func,
		    char names[][32], const char *struct_names[], int max);
/* Element count of the array member MEMBER of struct SNAME; -1 if none. */
long btf_array_member_len(const struct btf *btf, const char *sname,
			  const char *member);
/* Byte offset of MEMBER in struct SNAME; -1 if either is missing. */
long btf_member_offset(const struct btf *btf, const char *sname, const char *member);

struct kfunc;
struct ksyms;

/*
 * The kernel's symbols, loaded once and passed to whoever needs them.
 * NAMES (NULL-terminated; "name.*" also matches a function's static
 * "name.N") are found up front: through bpf_kallsyms_lookup_name() where
 * the kernel has it, else in one pass of /proc/kallsyms, which the kernel
 * formats anew on every read (about half a second of guest time in the
 * lab). WITH_FUNCS reads every text symbol, the modules' too, in that same pass.
 */
struct ksyms *ksyms_load(const char *const *names, bool with_funcs);
void ksyms_free(struct ksyms *ks);
/*
 * The address of NAME (any type when TYPES is NULL, else one of its
 * letters): 0 with true when the kernel hides addresses; false when
 * NAME is not there. A name not loaded up front costs a pass (KS may
 * be NULL: a pass, always).
 */
bool ksyms_address(struct ksyms *ks, const char *name, const char *types, unsigned long *addr);
/* The same for the first symbol named PREFIX or PREFIX.N (a function's static). */
bool ksyms_address_prefix(struct ksyms *ks, const char *prefix, const char *types,
			  unsigned long *addr);
bool kallsyms_addresses_visible(struct ksyms *ks);
/*
 * Every text symbol ('t', 'T'), the modules' too, sorted by address, sizes
 * running to the next symbol, owned by KS. The count, or -errno.
 */
int ksyms_funcs(struct ksyms *ks, const struct kfunc **funcs);
/*
 * PFTRACE_KALLSYMS, the test seam that names a doctored copy of
 * /proc/kallsyms: unset, or a regular file (a FIFO, a device or a
 * missing path would hang or be taken for the kernel's own). 0, or
 * -errno with the one-line reason.
 */
int kallsyms_env_check(char *err, size_t errlen);
/* Reads of /proc/kallsyms so far (for -v and the tests). */
int ksyms_passes(const struct ksyms *ks);

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
