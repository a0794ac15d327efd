/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recipe registry and the attach planner. A recipe is one hash table:
 * the function whose chain walk it mirrors, the names it answers to, and
 * the glue that opens its BPF skeleton and fills its read-only globals.
 * Adding a table = bpf/recipes/NAME.bpf.c + user/trace/recipe_NAME.c (its
 * struct recipe) + its line in RECIPES in targets.c (tests/host/recipe.sh
 * checks that nothing else is needed).
 */
#ifndef PFT_TARGETS_H
#define PFT_TARGETS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include "kernel.h"
#include "pftrace.h"
#include "report.h"
#include "table_hash.h"

struct bpf_object;
struct bpf_link;
struct bpf_map;
struct bpf_program;
struct bpf_object_open_opts;
struct trace_opts;
struct target;
struct lat_session;

enum attach_method { ATTACH_NONE, ATTACH_FEXIT, ATTACH_KPROBE };

struct recipe {
	const char *name;                /* "avc" */
	const char *table;               /* "SELinux access vector cache" */
	const char *traced;              /* function whose walk it mirrors */
	const char *const *answers_to;   /* other -f names, NULL-terminated */
	const char *iterator;            /* the kernel's loop, for the report */
	const char *const *ksyms;        /* kallsyms names it reads ("x.*": a static) */
	/*
	 * The module the traced function lives in ("nf_conntrack"), NULL for
	 * the kernel's own: its BTF (/sys/kernel/btf/NAME) answers for the
	 * function, and the run ends if the module goes (kprobes let it).
	 */
	const char *module;
	/* its lookups name their network namespace (a net argument): --by netns charges that */
	bool netns_arg;
	enum pft_chain_end chain_end;    /* NULL, or an hlist_nulls marker */
	/* the chained node's size (x86-64, Debian 6.12's BTF): what replay lays out */
	unsigned int node_bytes;
	/* for snapshots and whatif: the bucket function (model/table_hash.h) and what a key holds */
	const struct table_hash *hash;
	const char *key_layout;
	/* The environment the table needs (SELinux on, ...): 0 or -errno. */
	int (*check)(const struct kernel_facts *kf, char *err, size_t errlen);
	/*
	 * Optional: whether the recipe's direct-load build serves this
	 * kernel's layout (kernel_takes_direct_loads() says whether the
	 * kernel takes that build at all). NULL: it does.
	 */
	bool (*direct_layout)(const struct kernel_facts *kf);
	/* Open the skeleton into t->skel and t->obj, its handles into t->bpf. */
	int (*open)(struct target *t, const struct bpf_object_open_opts *opts);
	/*
	 * Fill the recipe's read-only globals (addresses, layout) and
	 * t->detail. The programs of the planned method, function and
	 * parameter count are already chosen (see target.c).
	 */
	int (*configure)(struct target *t, const struct kernel_facts *kf,
			 char *err, size_t errlen);
	/*
	 * Optional: the recipe's own counts (struct recipe_count) into OUT,
	 * at most PFT_RECIPE_COUNTS; how many. Read with the other counts.
	 */
	int (*counts)(const struct target *t, struct recipe_count *out);
	/* Load through the skeleton: its global data mmapped, t->bpf's pointers into them. */
	int (*load)(struct target *t);
	void (*destroy)(struct target *t);
};

/*
 * What the loader reaches in a recipe's object (the maps and globals
 * bpf/walk.bpf.h and bpf/snapshot.bpf.h give every recipe), taken from
 * the skeleton's typed fields by RECIPE_SKELETON: a name changed on the
 * BPF side fails the build, not a run (tests/host/bpf_names.sh).
 */
struct recipe_handles {
	struct walk_config *config;        /* .rodata.walk: written before the load only */
	/*
	 * .data.walk and .data.pause: before the load, the object's initial
	 * image; after it, the maps themselves, mmapped (5.5+), or NULL
	 * where the kernel cannot, and then reached through their maps.
	 */
	struct walk_output *output;
	struct walk_pause *pause;
	struct bpf_map *output_map, *pause_map;
	struct bpf_map *chain_counters, *agreed_walks;
	struct bpf_map *filter_tgids, *filter_cgroup, *by_counts, *key_counts;
	struct bpf_map *lat_starts, *lat_cycles, *lat_counters, *lat_hist;
	struct bpf_map *snap;              /* .data.snap: the snapshot's state and output */
	struct bpf_program *snapshot;      /* run by BPF_PROG_TEST_RUN, never attached */
};

#define PFT_MAX_LINKS 4

struct task_filter;

struct target {
	const char *requested;           /* as given to -f */
	const struct recipe *recipe;
	enum attach_method method;
	bool may_fall_back;              /* fexit untested: kprobe if refused */
	bool direct_loads;               /* opened from the recipe's direct-load build */
	bool direct_refused;             /* the kernel refused that build: probe reads */
	bool map_refused;                /* a map refused: no other build or method helps */
	bool plain_adds;                 /* per-CPU counters take plain adds, not atomics */
	char plan_note[PFT_ERRLEN];      /* what the planner decided, and why */
	char detail[PFT_ERRLEN];         /* recipe facts: layout, slots, hash */
	const struct trace_opts *opts;
	void *skel;
	struct bpf_object *obj;
	struct recipe_handles bpf;        /* into the skeleton */
	struct bpf_link *links[PFT_MAX_LINKS];
	int nlinks;
	const struct table_hash *table_hash; /* the kernel's bucket function (recipe->hash, or AVC's) */
	const struct lat_session *lat;    /* --latency: the session's unit and counters */
	const struct task_filter *filter; /* -p, --cgroup, --only-command, --by: the session's */
	/* start-up: open and configure, load (and verify), attach */
	double open_ms, load_ms, attach_ms;
	__u64 verified_insns;             /* summed over the loaded programs (5.16+) */
};

extern const struct recipe *const recipes[];

/* The BTF that knows R's traced function: its module's, or the kernel's. */
const struct btf *recipe_btf(const struct kernel_facts *kf, const struct recipe *r);

/* The handles of any recipe's skeleton SKEL: every recipe has these fields. */
#define RECIPE_HANDLES(skel) ((struct recipe_handles){				\
	.config = (skel)->rodata_walk ? &(skel)->rodata_walk->walk_config : NULL, \
	.output = (skel)->data_walk ? &(skel)->data_walk->walk_output : NULL,	\
	.pause = (skel)->data_pause ? &(skel)->data_pause->walk_pause : NULL,	\
	.output_map = (skel)->maps.data_walk,					\
	.pause_map = (skel)->maps.data_pause,					\
	.chain_counters = (skel)->maps.chain_counters,				\
	.agreed_walks = (skel)->maps.agreed_walks,				\
	.filter_tgids = (skel)->maps.filter_tgids,				\
	.filter_cgroup = (skel)->maps.filter_cgroup,				\
	.by_counts = (skel)->maps.by_counts,					\
	.key_counts = (skel)->maps.key_counts,					\
	.lat_starts = (skel)->maps.lat_starts,					\
	.lat_cycles = (skel)->maps.lat_cycles,					\
	.lat_counters = (skel)->maps.lat_counters,				\
	.lat_hist = (skel)->maps.lat_hist,					\
	.snap = (skel)->maps.data_snap,						\
	.snapshot = (skel)->progs.snapshot_table,				\
})

/*
 * open/load/destroy of a recipe whose skeleton is NAME.skel.h. With
 * t->direct_loads the skeleton is opened over NAME.direct.bpf.o, the
 * same source built with direct loads (bpf/kread.bpf.h): same maps,
 * programs and globals, so the one skeleton binds either (the sizes of
 * the two skeletons' structs are checked to agree). This is the
 * skeleton's own __open_opts() with the object's bytes swapped.
 */
#define RECIPE_SKELETON(name)							\
_Static_assert(sizeof(struct name##_bpf) == sizeof(struct name##_direct_bpf) && \
	       sizeof(*((struct name##_bpf *)0)->rodata) ==			\
	       sizeof(*((struct name##_direct_bpf *)0)->rodata),			\
	       #name ".bpf.o and " #name ".direct.bpf.o differ in layout");	\
static int name##_open(struct target *t, const struct bpf_object_open_opts *opts) \
{										\
	struct name##_bpf *skel = calloc(1, sizeof(*skel));			\
	int err;								\
										\
	if (!skel)								\
		return -ENOMEM;							\
	err = name##_bpf__create_skeleton(skel);				\
	if (!err && t->direct_loads)						\
		skel->skeleton->data =						\
			(void *)name##_direct_bpf__elf_bytes(&skel->skeleton->data_sz); \
	err = err ?: bpf_object__open_skeleton(skel->skeleton, opts);		\
	if (err) {								\
		name##_bpf__destroy(skel);					\
		return err;							\
	}									\
	t->skel = skel;								\
	t->obj = skel->obj;							\
	t->bpf = RECIPE_HANDLES(skel);						\
	return 0;								\
}										\
static int name##_load(struct target *t)					\
{										\
	struct name##_bpf *skel = t->skel;					\
	int err = name##_bpf__load(skel);					\
										\
	t->bpf = RECIPE_HANDLES(skel);						\
	return err;								\
}										\
static void name##_destroy(struct target *t)					\
{										\
	name##_bpf__destroy(t->skel);						\
	t->skel = NULL;								\
	t->obj = NULL;								\
	t->bpf = (struct recipe_handles){ 0 };					\
}
/* In a struct recipe: the verbs RECIPE_SKELETON(name) defined */
#define RECIPE_OPS(name) .open = name##_open, .load = name##_load, .destroy = name##_destroy

/*
 * Load kf->ksyms: the kallsyms names of these recipes, and with
 * WITH_FUNCS every kernel function (sampling, --latency), in one go.
 */
int load_recipe_ksyms(struct kernel_facts *kf, const struct recipe *const *list, int n,
		      bool with_funcs);
/* Address of a kernel global from kallsyms, or a one-line reason. */
int recipe_ksym(const struct kernel_facts *kf, const char *func, const char *sym,
		unsigned long *addr, char *err, size_t errlen);
/* The same for a symbol only snapshots need: 0 when it cannot be had. */
unsigned long recipe_ksym_soft(const struct kernel_facts *kf, const char *sym);

const char *attach_method_name(enum attach_method m);
/* The recipe -f FUNC selects: by a function it answers to, or by its name ("avc"). */
const struct recipe *recipe_for(const char *func);
/* The recipe called NAME ("avc"), or NULL. */
const struct recipe *recipe_named(const char *name);
/* All function names -f accepts, comma-separated, for error messages. */
void known_functions(char *buf, size_t len);
/* The recipe function closest to FUNC when FUNC looks like a typo of it, else NULL. */
const char *suggest_function(const char *func);

/*
 * Decide how to trace REQUESTED on this kernel. 0, or -errno with one
 * line (naming the function and the reason) in err. With probe, the
 * attach method is settled by loading and attaching a probe program
 * (list, --dry-run); without, fexit is planned and the session falls
 * back to kprobes if the kernel refuses it, which saves a probe's
 * attach and detach (an RCU-tasks grace period) at every start.
 */
int plan_target(struct target *t, const char *requested,
		const struct trace_opts *o, struct kernel_facts *kf,
		bool probe, char *err, size_t errlen);

#endif
