// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's symbols: the names a plan needs, through
 * bpf_kallsyms_lookup_name() where the kernel has it, else one pass of
 * /proc/kallsyms (or PFTRACE_KALLSYMS, never opened blocking), and the
 * text functions (the kernel's and its modules') by address for the
 * samplers and the census.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "fileio.h"
#include "kernel.h"
#include "pftrace.h"
#include "ksym.skel.h"

static bool ksym_name_matches(const char *sym, const char *name, bool prefix)
{
	size_t n = strlen(name);

	if (prefix)
		return !strncmp(sym, name, n) && (sym[n] == '\0' || sym[n] == '.');
	return !strcmp(sym, name);
}

struct ksym_entry {
	char name[128];
	char type;
	unsigned long addr;
};

#define KSYM_WANTED_MAX 32
/*
 * The kernel's symbols, read once per process part that needs them: the
 * names asked for up front (through BPF, or one pass of /proc/kallsyms),
 * and, when asked for, every text symbol of the same pass.
 */
struct ksyms {
	char wanted[KSYM_WANTED_MAX][128];   /* "name" or "name.*" */
	int nwanted;
	struct ksym_entry found[KSYM_WANTED_MAX * 2];
	int nfound;
	struct kfunc *funcs;                 /* sorted by address; NULL until read */
	int nfuncs, cap_funcs;
	bool funcs_read;
	int passes;                          /* reads of /proc/kallsyms so far */
};

int kallsyms_env_check(char *err, size_t errlen)
{
	const char *path = getenv("PFTRACE_KALLSYMS");
	int fd;

	if (!path)
		return 0;
	if (!*path) {
		snprintf(err, errlen, "PFTRACE_KALLSYMS is empty: unset it, or name a copy of "
			 "/proc/kallsyms");
		return -EINVAL;
	}
	fd = open_regular("PFTRACE_KALLSYMS", path, NULL, err, errlen);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static FILE *kallsyms_open(struct ksyms *ks)
{
	/* a test seam: the lab checks refusals with a doctored copy */
	const char *path = getenv("PFTRACE_KALLSYMS");
	char err[PFT_ERRLEN];
	/* never a blocking open: a FIFO or a device there is refused, not waited on */
	int fd = path ? open_regular("PFTRACE_KALLSYMS", path, NULL, err, sizeof(err)) : -1;
	FILE *f = path ? (fd >= 0 ? fdopen(fd, "r") : NULL) : fopen("/proc/kallsyms", "r");

	if (path && fd >= 0 && !f)
		close(fd);

	/* large reads: every read() makes the kernel find its place again */
	if (f)
		setvbuf(f, NULL, _IOFBF, 1 << 17);
	if (f && ks)
		ks->passes++;
	return f;
}

/*
 * One kallsyms line, "ffffffff81000000 T name\t[module]", split in place
 * without sscanf(): this loop runs over 150,000 lines.
 */
static bool kallsyms_split(char *line, unsigned long *addr, char *type, char **name)
{
	char *end;

	*addr = strtoul(line, &end, 16);
	if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
		return false;
	*type = end[1];
	*name = end + 3;
	(*name)[strcspn(*name, " \t\n")] = '\0';
	return true;
}

static void ksym_found(struct ksyms *ks, const char *name, char type, unsigned long addr)
{
	struct ksym_entry *e;

	if (ks->nfound == (int)(sizeof(ks->found) / sizeof(ks->found[0])))
		return;
	e = &ks->found[ks->nfound++];
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->type = type;
	e->addr = addr;
}

/*
 * Exact names through bpf_kallsyms_lookup_name() (5.16+). Returns
 * false when the kernel will not run it (older, or addresses hidden),
 * and the caller reads /proc/kallsyms instead.
 */
static bool ksym_lookup_bpf(struct ksyms *ks, char names[][128], int n)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct ksym_bpf *skel;
	bool ok = false;
	int i, fd;

	if (getenv("PFTRACE_KALLSYMS") || n > PFT_KSYM_BATCH)
		return false;
	skel = ksym_bpf__open_and_load();
	if (!skel)
		return false;
	for (i = 0; i < n; i++) {
		snprintf(skel->bss->ksym_req.name[i], PFT_KSYM_NAME_LEN, "%s", names[i]);
		skel->bss->ksym_req.name_len[i] = (__u32)strlen(skel->bss->ksym_req.name[i]) + 1;
	}
	skel->bss->ksym_req.count = (__u32)n;
	fd = bpf_program__fd(skel->progs.lookup_ksyms);
	if (!bpf_prog_test_run_opts(fd, &run) && run.retval == 0) {
		ok = true;
		for (i = 0; i < n; i++) {
			/* a zero address: hidden by kptr_restrict, or absent */
			if (skel->bss->ksym_req.addr[i])
				ksym_found(ks, names[i], '?', skel->bss->ksym_req.addr[i]);
		}
		/* all hidden means kptr_restrict: let the file say so */
		if (n && !ks->nfound)
			ok = false;
	}
	ksym_bpf__destroy(skel);
	return ok;
}

static int kfunc_cmp(const void *a, const void *b)
{
	const struct kfunc *x = a, *y = b;

	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * A text symbol of the pass ('t' or 'T'), the kernel's or a loaded
 * module's (a recipe may trace a module's function, nf_conntrack's).
 */
static int add_func(struct ksyms *ks, char type, const char *sym, unsigned long a)
{
	struct kfunc *nv;
	char *name;

	if ((type != 't' && type != 'T') || !a)
		return 0;
	if (ks->nfuncs == ks->cap_funcs) {
		int cap = ks->cap_funcs ? ks->cap_funcs * 2 : 65536;

		nv = realloc(ks->funcs, (size_t)cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		ks->funcs = nv;
		ks->cap_funcs = cap;
	}
	name = strdup(sym);
	if (!name)
		return -ENOMEM;
	ks->funcs[ks->nfuncs].addr = a;
	ks->funcs[ks->nfuncs].name = name;
	ks->funcs[ks->nfuncs].size = 0;
	ks->nfuncs++;
	return 0;
}

/*
 * One pass over /proc/kallsyms: the wanted names (BASE, PREFIX: the
 * names with any ".*" cut, and whether it was there), and with FUNCS
 * every text symbol.
 */
static int kallsyms_pass(struct ksyms *ks, char base[][128], const bool *prefix, bool funcs)
{
	char line[512], *sym, type;
	unsigned long a;
	int i, rc = 0;
	FILE *f = kallsyms_open(ks);

	if (!f)
		return -errno;
	if (funcs) {
		/* a pass that failed part-way before leaves nothing behind */
		kfuncs_free(ks->funcs, ks->nfuncs);
		ks->funcs = NULL;
		ks->nfuncs = ks->cap_funcs = 0;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!kallsyms_split(line, &a, &type, &sym))
			continue;
		for (i = 0; i < ks->nwanted; i++) {
			/* cheap first-letter test before the full compare */
			if (!base[i][0] || sym[0] != base[i][0] ||
			    !ksym_name_matches(sym, base[i], prefix[i]))
				continue;
			ksym_found(ks, sym, type, a);
			break;
		}
		if (funcs && !rc)
			rc = add_func(ks, type, sym, a);
	}
	fclose(f);
	if (funcs && !rc) {
		qsort(ks->funcs, (size_t)ks->nfuncs, sizeof(*ks->funcs), kfunc_cmp);
		for (i = 0; i < ks->nfuncs; i++)
			ks->funcs[i].size = i + 1 < ks->nfuncs ?
					    ks->funcs[i + 1].addr - ks->funcs[i].addr : 0;
		ks->funcs_read = true;
	}
	return rc;
}

struct ksyms *ksyms_load(const char *const *names, bool with_funcs)
{
	char base[KSYM_WANTED_MAX][128], exact[KSYM_WANTED_MAX][128];
	bool prefix[KSYM_WANTED_MAX];
	struct ksyms *ks = calloc(1, sizeof(*ks));
	int i, nexact = 0;

	if (!ks)
		return NULL;
	for (; names && *names && ks->nwanted < KSYM_WANTED_MAX; names++) {
		size_t n = strlen(*names);
		bool is_prefix = n > 2 && !strcmp(*names + n - 2, ".*");

		/* statics ("x.N") need the file: their suffix is unknown */
		if (!is_prefix)
			snprintf(exact[nexact++], 128, "%s", *names);
		snprintf(base[ks->nwanted], 128, "%s", *names);
		prefix[ks->nwanted] = is_prefix;
		if (is_prefix)
			base[ks->nwanted][n - 2] = '\0';
		snprintf(ks->wanted[ks->nwanted++], 128, "%s", *names);
	}
	/* the whole file is read anyway for the functions: the names come with it */
	if (!with_funcs && ksym_lookup_bpf(ks, exact, nexact)) {
		/* the statics, if any, are looked up in the file on demand */
		for (i = 0; i < ks->nwanted; i++)
			if (prefix[i])
				ks->wanted[i][0] = '\0';
		return ks;
	}
	if (ks->nwanted || with_funcs)
		kallsyms_pass(ks, base, prefix, with_funcs);
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	if (!ks)
		return;
	kfuncs_free(ks->funcs, ks->nfuncs);
	free(ks);
}

int ksyms_funcs(struct ksyms *ks, const struct kfunc **funcs)
{
	bool none[1] = { false };
	char nobase[1][128] = { "" };
	int rc = 0, saved = ks->nwanted;

	if (!ks->funcs_read) {
		/* asked late: a pass of its own, matching no names */
		ks->nwanted = 0;
		rc = kallsyms_pass(ks, nobase, none, true);
		ks->nwanted = saved;
	}
	*funcs = ks->funcs;
	return rc ? rc : ks->nfuncs;
}

int ksyms_passes(const struct ksyms *ks)
{
	return ks->passes;
}

/* 1 found, 0 not there, -1 not loaded (scan the file) */
static int ksym_from_cache(const struct ksyms *ks, const char *name, bool prefix,
			   const char *types, unsigned long *addr)
{
	char key[130];
	int i;

	snprintf(key, sizeof(key), prefix ? "%s.*" : "%s", name);
	for (i = 0; i < ks->nwanted; i++)
		if (!strcmp(ks->wanted[i], key))
			break;
	if (i == ks->nwanted)
		return -1;
	for (i = 0; i < ks->nfound; i++) {
		const struct ksym_entry *e = &ks->found[i];

		/* '?': found through BPF, which does not tell the type */
		if (ksym_name_matches(e->name, name, prefix) &&
		    (!types || e->type == '?' || strchr(types, e->type))) {
			*addr = e->addr;
			return 1;
		}
	}
	return 0;
}

/* NAME (or, with prefix, NAME.N) among the core symbols; a name not loaded costs a pass. */
static bool ksym_scan(struct ksyms *ks, const char *name, bool prefix, const char *types,
		      unsigned long *addr)
{
	char line[512], *sym, type;
	unsigned long a;
	bool found = false;
	int cached = ks ? ksym_from_cache(ks, name, prefix, types, addr) : -1;
	FILE *f;

	if (cached >= 0)
		return cached;
	f = kallsyms_open(ks);
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!kallsyms_split(line, &a, &type, &sym))
			continue;
		if (!ksym_name_matches(sym, name, prefix))
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

bool ksyms_address(struct ksyms *ks, const char *name, const char *types, unsigned long *addr)
{
	return ksym_scan(ks, name, false, types, addr);
}

bool ksyms_address_prefix(struct ksyms *ks, const char *prefix, const char *types,
			  unsigned long *addr)
{
	return ksym_scan(ks, prefix, true, types, addr);
}

bool kallsyms_addresses_visible(struct ksyms *ks)
{
	unsigned long a = 0;

	return ksyms_address(ks, "_stext", NULL, &a) && a != 0;
}

void kfuncs_free(struct kfunc *f, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(f[i].name);
	free(f);
}

const struct kfunc *kfunc_at(const struct kfunc *f, int n, unsigned long addr)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (addr < f[mid].addr)
			hi = mid - 1;
		else if (addr >= f[mid].addr + f[mid].size)
			lo = mid + 1;
		else
			return &f[mid];
	}
	return NULL;
}

const struct kfunc *kfunc_named(const struct kfunc *f, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}
