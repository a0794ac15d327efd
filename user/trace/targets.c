// SPDX-License-Identifier: GPL-2.0
/*
 * Registry and attach planner: fentry/fexit first (one program sees the
 * arguments and the return value), kprobe + kretprobe when the kernel
 * refuses tracing programs, and a documented substitute when the
 * requested function cannot be traced at all (notrace or inlined).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace_opts.h"
#include "feature_probe.h"
#include "suggest.h"
#include "targets.h"

/*
 * The registry, a line per recipe: NAME_recipe is defined in
 * user/trace/recipe_NAME.c (recipe_dcache.c defines dcache_ref too).
 */
#define RECIPES(X)		\
	X(avc)			\
	X(dcache)		\
	X(dcache_ref)		\
	X(inode)		\
	X(mount)		\
	X(tcp)			\
	X(conntrack)

#define DECLARE_RECIPE(name) extern const struct recipe name##_recipe;
#define LIST_RECIPE(name) &name##_recipe,
RECIPES(DECLARE_RECIPE)
const struct recipe *const recipes[] = { RECIPES(LIST_RECIPE) NULL };

int load_recipe_ksyms(struct kernel_facts *kf, const struct recipe *const *list, int n,
		      bool with_funcs)
{
	const char *names[64];
	const char *const *k;
	int i, used = 0;

	for (i = 0; i < n; i++) {
		/* the traced function itself: where the sampler starts looking */
		if (used < 63)
			names[used++] = list[i]->traced;
		for (k = list[i]->ksyms; k && *k && used < 63; k++)
			names[used++] = *k;
	}
	names[used] = NULL;
	ksyms_free(kf->ksyms);
	kf->ksyms = ksyms_load(names, with_funcs);
	return kf->ksyms ? 0 : -ENOMEM;
}

int recipe_ksym(const struct kernel_facts *kf, const char *func, const char *sym,
		unsigned long *addr, char *err, size_t errlen)
{
	/* any type: 6.19 lists net_hotdata as 'T' */
	if (!ksyms_address(kf->ksyms, sym, NULL, addr)) {
		snprintf(err, errlen, "%s: symbol %s not in /proc/kallsyms "
			 "(needs CONFIG_KALLSYMS_ALL)", func, sym);
		return -ENOENT;
	}
	if (!*addr) {
		snprintf(err, errlen, "%s: /proc/kallsyms hides addresses "
			 "(kernel.kptr_restrict); cannot find %s", func, sym);
		return -EPERM;
	}
	return 0;
}

unsigned long recipe_ksym_soft(const struct kernel_facts *kf, const char *sym)
{
	unsigned long addr = 0;

	return ksyms_address(kf->ksyms, sym, NULL, &addr) ? addr : 0;
}

const struct btf *recipe_btf(const struct kernel_facts *kf, const struct recipe *r)
{
	return r->module && kf->mod_btf ? kf->mod_btf : kf->btf;
}

const char *attach_method_name(enum attach_method m)
{
	switch (m) {
	case ATTACH_FEXIT:
		return "fexit";
	case ATTACH_KPROBE:
		return "kprobe";
	default:
		return "none";
	}
}

const struct recipe *recipe_for(const char *func)
{
	const struct recipe *const *r;
	const char *const *alias;

	for (r = recipes; *r; r++) {
		/* the function it traces, or its name as pftrace list prints it */
		if (!strcmp((*r)->traced, func) || !strcmp((*r)->name, func))
			return *r;
		for (alias = (*r)->answers_to; alias && *alias; alias++)
			if (!strcmp(*alias, func))
				return *r;
	}
	return NULL;
}

const struct recipe *recipe_named(const char *name)
{
	const struct recipe *const *r;

	for (r = recipes; *r; r++)
		if (!strcmp((*r)->name, name))
			return *r;
	return NULL;
}

void known_functions(char *buf, size_t len)
{
	const struct recipe *const *r;
	const char *const *alias;
	size_t used = 0;

	buf[0] = '\0';
	for (r = recipes; *r; r++) {
		for (alias = (*r)->answers_to; alias && *alias; alias++)
			used += snprintf(buf + used, used < len ? len - used : 0, "%s%s",
					 used ? ", " : "", *alias);
		used += snprintf(buf + used, used < len ? len - used : 0, "%s%s",
				 used ? ", " : "", (*r)->traced);
	}
}

/* The recipe function name closest to FUNC when FUNC looks like a typo of it, else NULL. */
const char *suggest_function(const char *func)
{
	const char *names[128];
	const struct recipe *const *r;
	const char *const *alias;
	size_t n = 0;

	for (r = recipes; *r; r++) {
		for (alias = (*r)->answers_to; alias && *alias && n < 127; alias++)
			names[n++] = *alias;
		if (n < 128)
			names[n++] = (*r)->traced;
	}
	return suggest_name(func, names, n);
}

static void explain_substitute(struct target *t, const char *requested, const char *traced,
			       const struct kernel_facts *kf)
{
	const struct btf *btf = recipe_btf(kf, t->recipe);
	int traceable = ftrace_traceable(requested);
	unsigned long addr;

	/*
	 * Missing from BTF: gone (inlined away everywhere), or, where
	 * kallsyms still has it, a notrace copy that pahole left out
	 * because BTF then listed only ftrace-able functions (5.10).
	 */
	if (!btf_has_func(btf, requested) && !ksyms_address(kf->ksyms, requested, "tT", &addr))
		snprintf(t->plan_note, sizeof(t->plan_note),
			 "%s: inlined away in this kernel (no such function); tracing %s, "
			 "which does its chain walk", requested, traced);
	else if (!btf_has_func(btf, requested))
		snprintf(t->plan_note, sizeof(t->plan_note),
			 "%s: notrace on this kernel (so not in its BTF either); tracing %s, "
			 "which does its chain walk", requested, traced);
	else if (traceable == 0)
		snprintf(t->plan_note, sizeof(t->plan_note),
			 "%s: notrace on this kernel; tracing %s, which does its chain walk",
			 requested, traced);
	else
		snprintf(t->plan_note, sizeof(t->plan_note),
			 "%s: pftrace measures this table's walk in %s; tracing that",
			 requested, traced);
}

/*
 * The traced function missing from BTF is inlined or renamed, unless
 * kallsyms still lists it as text: then the kernel has it, and BTF left
 * it out. So avc_lookup() on arm64's 5.10 (a local text symbol, in
 * ftrace's available_filter_functions, not in BTF): no fexit without
 * BTF, but a kprobe attaches to it by name, and the recipe takes the
 * parameters by the version.
 */
#define NO_BTF_TEXT "not in this kernel's BTF, though kallsyms lists it: no fexit without BTF"

static bool in_kallsyms_text(const struct kernel_facts *kf, const char *func)
{
	unsigned long addr;

	return ksyms_address(kf->ksyms, func, "tT", &addr);
}

/* "TRACED: WHY; using kprobe + kretprobe", after the plan's note so far */
static void note_kprobe(struct target *t, const char *why)
{
	size_t used = strlen(t->plan_note);

	snprintf(t->plan_note + used, sizeof(t->plan_note) - used, "%s%s: %s; using kprobe + kretprobe",
		 used ? "\n" : "", t->recipe->traced, why);
}

/*
 * A recipe in a module: the module loaded, and its BTF, which knows the
 * traced function and its parameters. 0, or -errno with one line.
 */
static int plan_module(const struct recipe *r, const char *requested, struct kernel_facts *kf,
		       char *err, size_t errlen)
{
	char why[PFT_ERRLEN];
	int rc;

	if (!r->module)
		return 0;
	rc = kernel_facts_load_module(kf, r->module, why, sizeof(why));
	if (rc == -ENOENT)
		snprintf(err, errlen, "%s: %s, so nothing calls %s (modprobe %s, or load what "
			 "uses it)", requested, why, r->traced, r->module);
	else if (rc)
		snprintf(err, errlen, "%s: %s; pftrace needs it to attach to %s and read its "
			 "types", requested, why, r->traced);
	return rc;
}

/* The recipe that knows REQUESTED, its check passed and its module loaded: 0, or -errno with one line. */
static int plan_recipe(const char *requested, struct kernel_facts *kf,
		       const struct recipe **rp, char *err, size_t errlen)
{
	const struct recipe *r = recipe_for(requested);
	char known[1024];
	int rc;

	if (!r) {
		const char *close = suggest_function(requested);

		known_functions(known, sizeof(known));
		if (close)
			snprintf(err, errlen, "%s: no recipe knows this function; did you mean %s?",
				 requested, close);
		else
			snprintf(err, errlen, "%s: no recipe knows this function (known: %s)",
				 requested, known);
		return -ENOENT;
	}
	*rp = r;
	rc = r->check ? r->check(kf, err, errlen) : 0;
	if (!rc)
		rc = plan_module(r, requested, kf, err, errlen);
	return rc;
}

int plan_target(struct target *t, const char *requested,
		const struct trace_opts *o, struct kernel_facts *kf,
		bool probe, char *err, size_t errlen)
{
	enum knob_attach force = o->knobs.attach;
	char fentry_why[PFT_ERRLEN], kprobe_why[PFT_ERRLEN];
	const struct recipe *r;
	bool in_btf, kprobe_only;
	int rc;

	memset(t, 0, sizeof(*t));
	t->requested = requested;
	t->opts = o;
	rc = plan_recipe(requested, kf, &r, err, errlen);
	if (rc)
		return rc;
	t->recipe = r;
	in_btf = btf_has_func(recipe_btf(kf, r), r->traced);
	if (!in_btf && !in_kallsyms_text(kf, r->traced)) {
		snprintf(err, errlen, "%s: %s is not in this kernel's BTF "
			 "(inlined or renamed in %s)", requested, r->traced, kf->release);
		return -ENOENT;
	}
	/* -f avc names the recipe: no function to stand in for */
	if (strcmp(requested, r->traced) && strcmp(requested, r->name))
		explain_substitute(t, requested, r->traced, kf);
	if (!in_btf) {
		if (force == KNOB_ATTACH_FEXIT) {
			snprintf(err, errlen, "%s: -C attach=fexit: %s", r->traced, NO_BTF_TEXT);
			return -EOPNOTSUPP;
		}
		note_kprobe(t, NO_BTF_TEXT);
	}
	kprobe_only = force == KNOB_ATTACH_KPROBE || !in_btf;
	if (!probe) {
		t->method = kprobe_only ? ATTACH_KPROBE : ATTACH_FEXIT;
		t->may_fall_back = !force && in_btf;
		return 0;
	}

	if (!kprobe_only) {
		if (fentry_can_attach(r->traced, fentry_why, sizeof(fentry_why))) {
			t->method = ATTACH_FEXIT;
			return 0;
		}
		if (force) {
			snprintf(err, errlen, "%s: -C attach=fexit: %s", r->traced, fentry_why);
			return -EOPNOTSUPP;
		}
	}
	if (kprobe_can_attach(r->traced, kprobe_why, sizeof(kprobe_why))) {
		t->method = ATTACH_KPROBE;
		if (!kprobe_only)
			note_kprobe(t, fentry_why);
		return 0;
	}
	if (force == KNOB_ATTACH_KPROBE)
		snprintf(err, errlen, "%s: -C attach=kprobe: %s", r->traced, kprobe_why);
	else
		snprintf(err, errlen, "%s: cannot attach: %s; %s", r->traced,
			 in_btf ? fentry_why : NO_BTF_TEXT, kprobe_why);
	return -EOPNOTSUPP;
}
