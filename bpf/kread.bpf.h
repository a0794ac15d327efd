/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the kernel's memory: words by probe read, arguments as
 * scalars, and a node's fields, from a copy of its window on the stack
 * or, in a recipe's direct-load build (PFT_DIRECT_LOADS), by loads
 * from the entry itself.
 */
#ifndef KREAD_BPF_H
#define KREAD_BPF_H

#include "pftrace.h"

/* Read a kernel word; 0 when unreadable (a walk then faults cleanly). */
static __always_inline __u64 kread_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)addr);
	return v;
}

static __always_inline __u32 kread_u32(__u64 addr)
{
	__u32 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)addr);
	return v;
}

/*
 * An fexit argument declared as a pointer in the kernel's BTF reaches
 * the program as a typed pointer, and the verifier forbids arithmetic
 * on it (the matchers XOR keys). Copying it through the stack with a
 * probe read turns it into a plain integer of the same value.
 */
static __always_inline __u64 as_scalar(__u64 v)
{
	__u64 in = v, out = 0;

	bpf_probe_read_kernel(&out, sizeof(out), &in);
	return out;
}

/*
 * FIELD of the TYPE object at PTR. fexit arguments are typed pointers
 * the program may load from directly (a plain load, fault-safe);
 * kprobe arguments are integers and need a helper call per read. TYPED
 * is a constant at each inlined call site, so only one form is emitted.
 */
#define ARG_FIELD(typed, ptr, type, field) \
	((typed) ? ((type *)(ptr))->field : BPF_CORE_READ((type *)(ptr), field))

/*
 * A __ro_after_init kernel global read once and kept: set before any
 * lookup can happen, never changed after. Racing first readers store
 * the same value.
 */
#define READ_ONCE_CACHED(cache, addr, readfn) \
	((cache) ? (cache) : ((cache) = readfn(addr)))

/*
 * The bytes of one entry the walk reads: [lo, lo + len) of the entry,
 * lo 8-aligned, holding the list node and every field the recipe
 * compares. 256 bytes cover the widest (the inode's, 40 to 224). The
 * probe-read build copies them to the stack; the direct-load build
 * reads each field from the entry itself. (PFT_WINDOW_BYTES: pftrace.h)
 */
struct node_window {
	__u64 qw[PFT_WINDOW_BYTES / 8];
};

/*
 * A field of the probe-read build's window (a copy on the stack from
 * the entry's offset LO), by its offset in the entry (CO-RE relocated).
 * The offset into the window is computed apart and pinned in a register:
 * the verifier allows adding a known scalar to the stack pointer, never
 * subtracting one from it.
 */
static __always_inline const void *win_at(const struct node_window *win, __u32 off, __u32 lo)
{
	__u64 d = (__u64)off - lo;

	barrier_var(d);
	return (const char *)win->qw + d;
}
#define WIN(win, lo, type, off) (*(const type *)win_at((win), (off), (lo)))

/*
 * MEMBER of struct T in a node's window, read as TYPE. The direct-load
 * build's window is the entry itself: there the read is a typed access,
 * which clang compiles to one load whose offset CO-RE relocates, where
 * an offset from bpf_core_field_offset() costs a move and an add before
 * every load (about 10 instructions per AVC node). The probe-read
 * build's window is a copy on the stack, from the entry's offset LO.
 */
#ifdef PFT_DIRECT_LOADS
#define NODE_FIELD(win, lo, T, member, type) (*(const type *)&((const T *)(win))->member)
#else
#define NODE_FIELD(win, lo, T, member, type) WIN(win, lo, type, bpf_core_field_offset(T, member))
#endif

#ifdef PFT_DIRECT_LOADS
/*
 * The direct-load build of a recipe (its *.direct.bpf.o), loaded for
 * fexit where the kernel has bpf_rdonly_cast() (6.2+) and its view
 * below holds a window (the loader reads both from BTF): the fields of
 * a node are plain loads, which the verifier makes fault-safe, instead
 * of a bpf_probe_read_kernel() call per node (bench/micro: 7.2 ns a
 * node for the call, 1.5 for the loads, on the build host).
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/*
 * The kernel type an entry is loaded through (PFT_VIEW_STRUCT): struct
 * cpumask is one array of longs, NR_CPUS bits (1 KB on Debian's x86
 * kernels), and the verifier takes a load of any width inside an array
 * of integers, so the fields (NODE_FIELD, typed as the entry's own
 * struct in C, at the entry's offsets) may be of any type. arm64's
 * user_pt_regs is 31 words of an array and three more words: through
 * an untrusted pointer (bpf_rdonly_cast()) a load that starts in an
 * integer member may end past it (btf_struct_walk(), 6.2+), so it too
 * takes any load up to its end. What the verifier checks is that a load
 * ends within the struct: a kernel whose struct is smaller than
 * PFT_WINDOW_BYTES (x86's NR_CPUS under 2048) gets the probe-read build
 * (kernel_takes_direct_loads()), and one whose entry puts a field
 * further out than the struct reaches has the direct build refused,
 * and the loader starts over with probe reads. The flavour names the
 * words kload_u64() reads (VIEW_WORDS); CO-RE matches it to the
 * kernel's.
 */
#ifdef __TARGET_ARCH_arm64
struct user_pt_regs___window {
	__u64 regs[PFT_WINDOW_BYTES / 8];
};
#define kernel_view_t struct user_pt_regs___window   /* a struct: CO-RE finds no typedef */
#define VIEW_WORDS regs
#else
struct cpumask___window {
	unsigned long bits[PFT_WINDOW_BYTES / 8];
};
#define kernel_view_t struct cpumask___window
#define VIEW_WORDS bits
#endif
#endif

#ifdef PFT_DIRECT_LOADS
/*
 * ADDR as a pointer the program loads from directly. The loads are
 * fault-safe, whatever the address: the JIT reads 0 from a user-space
 * one without touching it, and a load that faults reads 0 (an
 * exception-table entry), so a walk sees a chain's end there, and the
 * self-check, which compares each walk's result with the kernel's, is
 * what would show it. The direct build therefore tests no address
 * before a load (a test and its branch cost 4 x86 instructions a node)
 * and counts no read fault at a node: it cannot tell one. (A table
 * whose own address cannot be read still faults its walks.)
 */
#define KERNEL_VIEW(addr)							\
	((const kernel_view_t *)bpf_rdonly_cast((void *)(addr),		\
		bpf_core_type_id_kernel(kernel_view_t)))

/*
 * A typed pointer V as a plain integer: stored on the stack, and loaded
 * back through the untrusted view, whose load the verifier does not
 * follow to the stack. A cast and a checked load, where as_scalar()'s
 * probe read is a helper call (about 50 instructions more).
 */
static __always_inline __u64 typed_as_scalar(__u64 v)
{
	__u64 in = v;

	return KERNEL_VIEW(&in)->VIEW_WORDS[0];
}
#else
#define typed_as_scalar(v) as_scalar(v)
#endif

/*
 * A bucket's head pointer, read once per walk: into *V, 0 or the probe
 * read's error. A direct load where the build has them (one helper call
 * less per lookup).
 */
static __always_inline long kload_u64(__u64 addr, __u64 *v)
{
#ifdef PFT_DIRECT_LOADS
	*v = KERNEL_VIEW(addr)->VIEW_WORDS[0];
	return 0;
#else
	*v = 0;
	return bpf_probe_read_kernel(v, sizeof(*v), (void *)addr);
#endif
}

/*
 * An fexit program's pointer argument N (VALUE, BTF-typed) as a plain
 * integer for a key. The direct build loads it from the context itself
 * (the trampoline's saved arguments, an array of words) through an
 * untrusted view: a load the verifier allows at any offset, of a plain
 * integer, with no branch to double what the verifier walks after it.
 * bpf_get_func_arg(), which the verifier inlines, costs 17 instructions
 * a call; a pointer difference from a cached address costs 7 and a
 * branch that doubles the dcache's verification. The probe-read build
 * calls as_scalar().
 */
#ifdef PFT_DIRECT_LOADS
#define ARG_SCALAR(ctx, n, value) (KERNEL_VIEW(ctx)->VIEW_WORDS[(n)])
#else
#define ARG_SCALAR(ctx, n, value) as_scalar(value)
#endif

#endif /* KREAD_BPF_H */
