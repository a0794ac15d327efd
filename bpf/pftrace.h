/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts shared by the BPF programs and the loader: the settings the
 * loader gives every recipe, and what BPF writes for user space to read
 * (a table's counters, samples, kernel text, kallsyms). Plain
 * fixed-width types only; both sides include this file. A recipe's own
 * settings live in its own header (bpf/avc.h).
 */
#ifndef PFTRACE_H
#define PFTRACE_H

/*
 * A walk follows at most this many nodes. Longer chains are counted as
 * truncated and are not put in the histograms: a walk that gives up does
 * not know where the chain ends. 256 is far past anything a sane table
 * holds and keeps the verifier's work for the bounded loop small.
 */
#define PFT_MAX_WALK 256
/* Histogram slot i counts lookups that walked (or hit at) i nodes. */
#define PFT_HIST_SLOTS (PFT_MAX_WALK + 1)
/*
 * The bytes of an entry a walk reads at each node (bpf/walk.bpf.h): the
 * probe-read build's window, at most; and the least the kernel type
 * direct loads go through must hold, from an entry's start, for the
 * loader to pick the direct-load build (every recipe's fields lie
 * within it on the kernels checked).
 */
#define PFT_WINDOW_BYTES 256
/*
 * That kernel type (bpf/kread.bpf.h): a struct of integers only, at least
 * a window long. x86: struct cpumask, NR_CPUS bits (1 KB on Debian's
 * kernels). arm64: Debian's NR_CPUS is 512 there (a 64-byte cpumask, so
 * every walk took probe reads), so the uapi struct user_pt_regs, 34 __u64
 * (272 bytes) on every arm64 kernel.
 */
#if defined(__aarch64__) || defined(__TARGET_ARCH_arm64)
#define PFT_VIEW_STRUCT "user_pt_regs"
#else
#define PFT_VIEW_STRUCT "cpumask"
#endif

/* How a chain ends, per recipe (rodata "chain_end"). */
enum pft_chain_end {
	PFT_END_NULL = 0,      /* hlist: next == NULL */
	PFT_END_NULLS = 1,     /* hlist_nulls: an odd "nulls" marker, never NULL */
};

/*
 * Settings every recipe takes, in the object's ".rodata.walk" section so
 * the loader can set them without knowing the recipe's skeleton type.
 */
struct walk_config {
	__u32 sample_every;         /* --sample N: walk one call in N per CPU */
	__u32 walk_off;             /* -C walk=off: return at once (bench floor) */
	__u32 count_keys;           /* --snapshot: count lookups by key in key_counts */
	__u32 latency;              /* --latency: 0 off, PFT_LAT_NS or PFT_LAT_CYCLES */
	__u32 lat_shift;            /* a latency bucket is 2^lat_shift units wide */
	__u32 filter;               /* PFT_FILTER_*: whose lookups count (0: everyone's) */
	__u32 by;                   /* enum pft_by: --by, lookups by who made them */
	__u32 plain_adds;           /* per-CPU counters take plain adds (walk.bpf.h) */
	__u32 body;                 /* enum pft_body: which body the exit programs run */
};

/*
 * The body an exit program runs (walk.bpf.h, WALK_EXIT_PROG), as the
 * loader chooses from the settings above once they are all known.
 */
enum pft_body {
	PFT_BODY_SETTINGS = 0,      /* the walk, testing each setting */
	PFT_BODY_LEAN = 1,          /* every setting at its default: the walk without those tests */
	PFT_BODY_LEAN_PAUSABLE = 2, /* the same, and --sample's pause between slices */
	PFT_BODY_NONE = 3,          /* -C walk=off: return at once (the benchmark's floor) */
};

/*
 * -p, --only-command, --cgroup: a lookup counts only when the task it
 * runs in passes. A lookup in interrupt context (TCP's receive path)
 * runs in whichever task was interrupted, and is judged by that task.
 */
#define PFT_FILTER_TGIDS  1         /* its thread group is in filter_tgids */
#define PFT_FILTER_CGROUP 2         /* it is in filter_cgroup's cgroup or below */
/* filter_tgids: -p's one, or the command and every process it forks */
#define PFT_FILTER_TGIDS_MAX 16384

/* --by: who pays for the walks, kept per key in the "by_counts" hash */
enum pft_by {
	PFT_BY_NONE = 0,
	PFT_BY_COMM = 1,            /* key: comm (id 0) */
	PFT_BY_PID = 2,             /* key: id = thread group id */
	PFT_BY_CGROUP = 3,          /* key: id = cgroup v2 id */
	PFT_BY_NETNS = 4,           /* key: id = network namespace inode (the lookup's, or the task's) */
};
#define PFT_BY_MAX 4096
#define PFT_COMM_LEN 16
struct by_key {
	__u64 id;
	char comm[PFT_COMM_LEN];
};
struct by_counts {
	__u64 lookups;
	__u64 nodes;                /* nodes walked */
	__u64 misses;               /* the kernel did not find the key */
	char comm[PFT_COMM_LEN];    /* the task that made the first lookup */
};

/*
 * What a recipe learns about its table while it runs, in ".data.walk"
 * (readable through the object's mmaped map, whatever the recipe).
 */
struct walk_output {
	__u64 table_slots;          /* bucket count the walks use (the AVC's: set by the loader) */
};

/*
 * What the loader switches while the programs run (--sample's slices):
 * until_ns is 0 where nothing is cycled (walk every call), PFT_WALK_PAUSED
 * between slices (return at once, count nothing), and within a slice its
 * end on the monotonic clock (bpf_ktime_get_ns()), past which the walks
 * return as if paused: a loader stopped (SIGSTOP, a debugger, starved of
 * CPU) cannot stretch a slice.
 */
#define PFT_WALK_PAUSED 1
struct walk_pause {
	__u64 until_ns;
};

/* Names for bpf/ksym.bpf.c to look up in one run (loader writes, BPF fills addr). */
#define PFT_KSYM_BATCH 16
#define PFT_KSYM_NAME_LEN 64
struct ksym_batch {
	__u32 count;
	__u32 name_len[PFT_KSYM_BATCH];      /* strlen + 1 */
	char name[PFT_KSYM_BATCH][PFT_KSYM_NAME_LEN];
	__u64 addr[PFT_KSYM_BATCH];          /* 0: not found */
};

/* One read of kernel text by bpf/ktext.bpf.c. */
#define PFT_KTEXT_CHUNK 65536
struct ktext_req {
	__u64 addr;
	__u32 len;
	__s32 err;                  /* bpf_probe_read_kernel()'s result */
};

/* Sampling (bpf/sample.bpf.c): per-CPU counts, and IPs kept in a map. */
#define PFT_SAMPLE_RANGES 8
#define PFT_SAMPLE_IPS 65536
struct sample_counts {
	__u64 total;                /* every sample */
	__u64 kernel;               /* interrupted in the kernel */
	__u64 kept;                 /* in a traced function (or any kernel, kernel-wide) */
	__u64 dropped;              /* kept but the IP map was full */
};

/*
 * One traced table's counters, as BPF writes them into the per-CPU
 * "chain_counters" map: the kernel's verdict (its return value), and
 * the histograms of pftrace's own re-walk of the chain, for the lookups
 * whose walk did not find what the kernel found; agreed_walks below
 * counts the others, and the loader adds them in
 * (chain_counters_add_agreed()). Only what BPF writes is here; lookups,
 * walk hits and misses, nodes walked and the self-check's agreements
 * follow from these, and user space derives them (struct chain_stats in
 * user/model/aggregate.h). That keeps the cost per lookup to one add.
 */
struct chain_counters {
	__u64 calls;                /* with --sample: calls seen (else derived) */
	__u64 hits;                 /* the kernel found the key */
	__u64 misses;               /* the kernel did not */
	__u64 next_null_at_hit;     /* walk hits on the last node of the chain */
	__u64 truncated;            /* walks that gave up after PFT_MAX_WALK */
	__u64 read_faults;          /* walks stopped by a failed kernel read */
	__u64 self_disagree;        /* completed walks whose verdict was not the kernel's */
	__u64 lost;                 /* kprobe entry state that could not be kept */
	__u64 keys_dropped;         /* lookups not counted by key: key_counts was full */
	__u64 by_dropped;           /* lookups not counted by --by: by_counts was full */
	__u64 chain_walked_hist[PFT_HIST_SLOTS]; /* every completed walk */
	__u64 hit_pos_hist[PFT_HIST_SLOTS];      /* completed walks that hit */
};

/*
 * Nearly every lookup ends with our walk finding what the kernel found
 * (or, like it, nothing): those take one add each, in the per-CPU
 * "agreed_walks" array, and leave chain_counters above to the lookups
 * that disagree. The key is row * PFT_HIST_SLOTS + the nodes visited,
 * the row how the walk ended. The kernel's verdict is the walk's, so
 * the row says it too: found in rows 1 and 3, not found in the others.
 */
enum pft_agreed_row {
	PFT_AGREED_MISS = 0,        /* the walk completed without a match */
	PFT_AGREED_HIT = 1,         /* a match with nodes after it */
	PFT_AGREED_TRUNCATED = 2,   /* gave up after PFT_MAX_WALK nodes */
	PFT_AGREED_HIT_LAST = 3,    /* a match on the chain's last node */
	PFT_AGREED_FAULT = 4,       /* stopped by a failed kernel read */
};
#define PFT_AGREED_ROWS 5
#define PFT_AGREED_SLOTS (PFT_AGREED_ROWS * PFT_HIST_SLOTS)

/*
 * A whole-table snapshot (bpf/snapshot.bpf.h): the loader runs a
 * recipe's "snapshot_table" program with BPF_PROG_TEST_RUN again and
 * again; each run walks up to PFT_SNAP_STEPS steps (a bucket head or a
 * node each) from where the last stopped, and leaves the chain length
 * and a signature of every bucket it finished, and the key of every
 * node it visited. One struct, in the object's ".data.snap" map.
 */
#define PFT_SNAP_STEPS 1024
/* a chain longer than this is cut (a list changing underneath can cycle) */
#define PFT_SNAP_MAX_CHAIN 65536
/* What a rehash needs of one entry; its meaning is the recipe's (key_layout). */
struct snap_key {
	__u64 k0;
	__u64 k1;
};
struct snap_state {
	/* the table, found by the recipe on the first run */
	__u64 table;                /* bucket array */
	__u64 slots;
	__u64 stride;               /* bytes per bucket */
	/* where the walk is: bucket, node (0: at the bucket's head), so far */
	__u64 bucket;
	__u64 pos;
	__u64 len;
	__u64 sig;                  /* node addresses of the bucket, mixed */
	__u32 in_chain;             /* the bucket's head has been read */
	__u32 with_keys;            /* loader: record keys (the first pass) */
	__s32 err;                  /* a kernel read failed (or the table is unknown) */
	/* this run's output, appended by the loader to what earlier runs gave */
	__u32 buckets_done;         /* chain[] and chain_sig[] of the buckets finished */
	__u32 nodes;                /* keys[0, n) */
	__u32 bucket_nodes;         /* keys[] index where this run began the current bucket */
	__u64 cut;                  /* chains cut at PFT_SNAP_MAX_CHAIN, all runs */
	__u64 restarts;             /* buckets walked again: a chain ended in another's marker */
};
/*
 * --latency: each traced call's own time, entry to return, in
 * nanoseconds or (where a PMU counts them) CPU cycles, by the number of
 * nodes the walk visited. Per node count (the last slot takes all
 * longer walks): the lookups, the sum of their times (and of squares),
 * and a histogram of PFT_LAT_BUCKETS buckets 2^lat_shift units wide
 * (the last one takes every longer time).
 */
enum pft_lat_unit { PFT_LAT_OFF = 0, PFT_LAT_NS = 1, PFT_LAT_CYCLES = 2 };
#define PFT_LAT_NODES 32
#define PFT_LAT_BUCKETS 1024
struct lat_counters {
	__u64 count[PFT_LAT_NODES];
	__u64 sum[PFT_LAT_NODES];
	__u64 lost;                 /* exits with no entry stamp (nested, or attached mid-call) */
	__u64 migrated;             /* cycles: entry and return on different CPUs, not counted */
};
/* one per node count, in the per-CPU "lat_hist" map (a value stays under 32 KB) */
struct lat_hist {
	__u32 bucket[PFT_LAT_BUCKETS];
};

/* key_counts: lookups per key (struct snap_key), by our walk's verdict */
#define PFT_KEY_COUNTS_MAX 65536
struct key_hits {
	__u64 hits;
	__u64 misses;
};

struct snap_buf {
	struct snap_state st;
	__u32 chain[PFT_SNAP_STEPS];
	__u32 chain_sig[PFT_SNAP_STEPS];
	struct snap_key keys[PFT_SNAP_STEPS];
};

#endif /* PFTRACE_H */
