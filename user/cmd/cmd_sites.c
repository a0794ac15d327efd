// SPDX-License-Identifier: GPL-2.0
/*
 * `pftrace sites`: the prefetch census of the running kernel. Kernels
 * since 3.0 no longer prefetch in their list walks, but hundreds of
 * prefetch instructions remain (the slab allocator's prefetchw, skb
 * allocation, ...). This scans the kernel's text function by function,
 * lists every prefetch instruction, and with -d samples the kernel and
 * ranks the sites by what they cost.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <linux/perf_event.h>
#if defined(__aarch64__)
#include <asm/hwcap.h>
#endif
#include <json-c/json.h>

#include "progress.h"
#include "annotate.h"
#include "caps.h"
#include "cli.h"
#include "disasm.h"
#include "ktext.h"
#include "commands.h"
#include "opts.h"
#include "output.h"
#include "report.h"
#include "sampling.h"
#include "workload.h"

/* text is read in slices this big: one read per slice, not per function */
#define SLICE (4 << 20)

struct site {
	const struct kfunc *func;
	unsigned long offset;
	char kind[32];         /* x86's mnemonic, arm64's prfm operation */
	bool llsc;             /* arm64: before a load-exclusive, an LL/SC atomic's */
	char text[136];
	char bytes[48];
	__u64 samples, next_samples;
};

struct census {
	struct site *sites;
	int nsites, cap;
	int functions_with;      /* functions holding at least one */
	int functions_scanned;
	long unreadable;
};

static int add_sites(struct census *c, const struct kfunc *f, const __u8 *code, unsigned long size,
		     const struct sample_result *r)
{
	struct insn *insns;
	int n, i, found = 0;

	n = disasm_prefetches(code, size, f->addr, &insns);
	if (n < 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct site *s;

		if (c->nsites == c->cap) {
			struct site *nv = realloc(c->sites, (size_t)(c->cap ? 2 * c->cap : 256) * sizeof(*nv));

			if (!nv) {
				free(insns);
				return -ENOMEM;
			}
			c->sites = nv;
			c->cap = c->cap ? 2 * c->cap : 256;
		}
		s = &c->sites[c->nsites++];
		s->func = f;
		s->offset = insns[i].addr - f->addr;
		snprintf(s->kind, sizeof(s->kind), "%s", insns[i].prefetch_kind);
		s->llsc = insns[i].before_exclusive;
		snprintf(s->text, sizeof(s->text), "%s %s", insns[i].mnemonic, insns[i].operands);
		hex_bytes(s->bytes, sizeof(s->bytes), insns[i].bytes, insns[i].size);
		s->samples = r ? samples_at(r, insns[i].addr) : 0;
		s->next_samples = r ? samples_at(r, insns[i].addr + insns[i].size) : 0;
		found++;
	}
	free(insns);
	c->functions_with += found > 0;
	return 0;
}

/* Functions [first, last) lie back to back: read them a slice at a time. */
static int scan(struct census *c, struct ktext *kt, const struct kfunc *funcs, int first, int last,
		const struct sample_result *r)
{
	__u8 *buf = malloc(SLICE);
	int i = first;

	if (!buf)
		return -ENOMEM;
	while (i < last) {
		unsigned long start = funcs[i].addr, end = start;
		int j = i;

		progress("sites: %d of %d functions read", i - first, last - first);
		/* as many whole functions as fit the slice (a huge one alone) */
		while (j < last && funcs[j].size <= SLICE && funcs[j].addr + funcs[j].size - start <= SLICE) {
			end = funcs[j].addr + funcs[j].size;
			j++;
		}
		if (j == i) {            /* larger than a slice: not code we scan */
			i++;
			continue;
		}
		if (ktext_read(kt, start, buf, end - start)) {
			/* unreadable together (a hole between sections): one by one */
			for (; i < j; i++)
				if (!funcs[i].size || ktext_read(kt, funcs[i].addr, buf, funcs[i].size)) {
					c->unreadable++;
				} else {
					c->functions_scanned++;
					if (may_hold_prefetch(buf, funcs[i].size))
						add_sites(c, &funcs[i], buf, funcs[i].size, r);
				}
			continue;
		}
		for (; i < j; i++) {
			const __u8 *code = buf + (funcs[i].addr - start);

			c->functions_scanned++;
			/* a byte scan first: capstone decodes only candidates */
			if (funcs[i].size && may_hold_prefetch(code, funcs[i].size))
				add_sites(c, &funcs[i], code, funcs[i].size, r);
		}
	}
	progress_done();
	free(buf);
	return 0;
}

static int llsc_count(const struct census *cen)
{
	int i, n = 0;

	for (i = 0; i < cen->nsites; i++)
		n += cen->sites[i].llsc;
	return n;
}

/* arm64: the CPUs have LSE atomics (the kernel then patches LL/SC out) */
static bool cpu_has_lse(void)
{
#if defined(__aarch64__)
	return getauxval(AT_HWCAP) & HWCAP_ATOMICS;
#else
	return false;
#endif
}

static int site_cost_cmp(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	__u64 cx = x->samples + x->next_samples, cy = y->samples + y->next_samples;

	return (cy > cx) - (cy < cx);
}

struct func_cost {
	const struct kfunc *f;
	__u64 samples;
};

static int func_cost_cmp(const void *a, const void *b)
{
	const struct func_cost *x = a, *y = b;

	return (y->samples > x->samples) - (y->samples < x->samples);
}

/* Kernel-wide samples summed per function, hottest first (at most MAX). */
static int hottest_functions(const struct sample_result *r, const struct kfunc *funcs, int nfuncs,
			     struct func_cost *out, int max)
{
	struct func_cost *all = NULL;
	int n = 0, i;
	const struct kfunc *last = NULL;

	all = calloc((size_t)(r->nips ? r->nips : 1), sizeof(*all));
	if (!all)
		return 0;
	/* ips are sorted by address: each function's are adjacent */
	for (i = 0; i < r->nips; i++) {
		const struct kfunc *f = kfunc_at(funcs, nfuncs, r->ips[i].ip);

		if (!f)
			continue;
		if (f != last) {
			all[n].f = f;
			all[n++].samples = 0;
			last = f;
		}
		all[n - 1].samples += r->ips[i].count;
	}
	qsort(all, (size_t)n, sizeof(*all), func_cost_cmp);
	if (n > max)
		n = max;
	memcpy(out, all, (size_t)n * sizeof(*all));
	free(all);
	return n;
}

enum { OPT_TEXT_FROM = 300, OPT_VMLINUX, OPT_FORMAT };

#define sites_bad(...) pft_refuse("sites", __VA_ARGS__)
#define MAX_ONLY 64
#define MAX_HOT 20

struct sites_opts {
	const char *only[MAX_ONLY];   /* -f: these functions only */
	int nonly;
	const char *event;            /* -e */
	long hz;                      /* -F */
	double seconds;               /* -d: sample this long (0: no samples) */
	char **command;               /* -- COMMAND: sample while it runs */
	enum ktext_source src;        /* --text-from */
	const char *vmlinux;
	enum out_format format;
	bool verbose;
};

/* What the census found, with the samples when it sampled. */
struct sites_result {
	struct census cen;
	struct sample_result samples;
	const struct sample_result *r;   /* &samples, or NULL: not sampled */
	struct func_cost hot[MAX_HOT];
	int nhot;
	char release[128];
	const char *text_source;
};

static const struct opt_spec sites_opt_specs[] = {
	{ "function", 'f', "FUNC", "census of FUNC only (repeatable; default the whole core text)" },
	{ "duration", 'd', "SECONDS", "sample the kernel for SECONDS and rank the sites by cost" },
	{ "event", 'e', "EVENT", "what to sample (default cycles; cpu-clock without a PMU)" },
	{ "freq", 'F', "HZ", "samples per second and CPU (default 999)" },
	{ "text-from", OPT_TEXT_FROM, "SOURCE", "kcore or bpf: where to read kernel text" },
	{ "vmlinux", OPT_VMLINUX, "FILE", "the running kernel's vmlinux, for text as linked" },
	{ "format", OPT_FORMAT, "FORMAT", "text or json (default text)" },
	{ "verbose", 'v', NULL, "show libbpf's messages" },
	{ "quiet", 'q', NULL, "no status line of the scan on a terminal" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec sites_cmd = {
	"sites", "sites [-f FUNC]... [-d SECONDS] [-e EVENT] [-F HZ] [-- COMMAND...]",
	"Lists every prefetch instruction in the kernel's text; with -d or a command,\n"
	"samples the kernel meanwhile and ranks the sites by what they cost.",
	sites_opt_specs,
};

/* 0: parsed; 2: refused (one line); -1: help printed */
static int parse_sites_opts(int argc, char **argv, struct sites_opts *o)
{
	struct opt_parser parser;
	char err[PFT_ERRLEN];
	int c;

	memset(o, 0, sizeof(*o));
	o->event = "cycles";
	o->hz = PFT_DEFAULT_SAMPLE_HZ;
	o->src = KTEXT_AUTO;
	o->format = FORMAT_TEXT;
	opts_begin(&parser, sites_opt_specs, true);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'h':
			cmd_print_help(stdout, &sites_cmd);
			return -1;
		case 'f':
			if (o->nonly == MAX_ONLY)
				return sites_bad("at most %d -f", MAX_ONLY);
			o->only[o->nonly++] = optarg;
			break;
		case 'd':
			if (pft_parse_seconds("sites", "-d", optarg, 0, &o->seconds))
				return 2;
			break;
		case 'e':
			o->event = optarg;
			break;
		case 'F':
			if (pft_parse_whole(optarg, LONG_MIN, LONG_MAX, &o->hz))
				return sites_bad("-F wants samples per second, not '%s'", optarg);
			if (sample_freq_check(o->hz, err, sizeof(err)))
				return sites_bad("%s", err);
			break;
		case OPT_TEXT_FROM:
			if (!strcmp(optarg, "kcore"))
				o->src = KTEXT_KCORE;
			else if (!strcmp(optarg, "bpf"))
				o->src = KTEXT_BPF;
			else
				return sites_bad("--text-from wants kcore or bpf, not '%s'", optarg);
			break;
		case OPT_VMLINUX:
			o->vmlinux = optarg;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "json"))
				o->format = FORMAT_JSON;
			else if (strcmp(optarg, "text"))
				return sites_bad("--format wants text or json, not '%s'", optarg);
			break;
		case 'q':
			progress_quiet();
			break;
		case 'v':
			o->verbose = true;
			break;
		case ':':
			return sites_bad("option '%s' needs a value", pft_optname(argv));
		default:
			return sites_bad("%s", pft_unknown_option(sites_opt_specs, argv));
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			return sites_bad("unexpected argument '%s'", argv[optind]);
		o->command = &argv[optind];
		if (!o->seconds)
			o->seconds = INFINITY;   /* until the command ends */
	}
	return 0;
}

/*
 * Sample the whole kernel for -d, or while the command runs. 0, or the
 * exit status after a one-line refusal.
 */
static int sample_kernel(const struct sites_opts *o, struct sites_result *res)
{
	struct workload run;
	struct sampler *sampler;
	char err[PFT_ERRLEN];

	workload_init(&run);
	sampler = sampler_start(o->event, (int)o->hz, NULL, 0, false, err, sizeof(err));
	if (!sampler) {
		fprintf(stderr, "pftrace: sites: %s\n", err);
		return 2;
	}
	if (o->command && workload_start(&run, o->command, err, sizeof(err))) {
		sampler_free(sampler);
		return sites_bad("%s", err);
	}
	workload_wait(&run, monotonic_s() + o->seconds);
	workload_stop(&run);
	sampler_finish(sampler, &res->samples);
	sampler_free(sampler);
	res->r = &res->samples;
	return 0;
}

/*
 * Scan -f's functions, or the core kernel's text, _stext to _etext. Any
 * type of _etext: arm64 lists it as data ('D', 6.12 and 7.2), and a
 * census that missed it ran on through the init text, freed after boot
 * and its pages reused: on arm64 6.1 it counted prfm in them that were
 * gone when read again. Never past _sinittext, then.
 */
static void census(const struct sites_opts *o, struct ktext *kt, struct ksyms *ks,
		   const struct kfunc *funcs, int nfuncs, struct sites_result *res)
{
	unsigned long stext = 0, etext = 0, sinittext = 0;
	int i, first = 0, last;

	if (o->nonly) {
		for (i = 0; i < o->nonly; i++) {
			int at = (int)(kfunc_named(funcs, nfuncs, o->only[i]) - funcs);

			scan(&res->cen, kt, funcs, at, at + 1, res->r);
		}
	} else {
		ksyms_address(ks, "_stext", "tT", &stext);
		ksyms_address(ks, "_etext", NULL, &etext);
		if (ksyms_address(ks, "_sinittext", NULL, &sinittext) && sinittext > stext &&
		    (!etext || sinittext < etext))
			etext = sinittext;
		while (first < nfuncs && funcs[first].addr < stext)
			first++;
		for (last = first; last < nfuncs && (!etext || funcs[last].addr < etext); last++)
			;
		scan(&res->cen, kt, funcs, first, last, res->r);
	}
	if (res->r) {
		qsort(res->cen.sites, (size_t)res->cen.nsites, sizeof(*res->cen.sites), site_cost_cmp);
		res->nhot = hottest_functions(res->r, funcs, nfuncs, res->hot, MAX_HOT);
	}
}

static void render_sites_json(const struct sites_result *res)
{
	const struct census *cen = &res->cen;
	struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
	struct json_object *totals = json_object_new_object();
	int i;

	json_object_object_add(root, "tool", json_object_new_string("pftrace"));
	json_object_object_add(root, "kernel", json_object_new_string(res->release));
	json_object_object_add(root, "text_source", json_object_new_string(res->text_source));
	json_object_object_add(root, "functions_scanned", json_object_new_int(cen->functions_scanned));
	json_object_object_add(root, "functions_with_prefetch", json_object_new_int(cen->functions_with));
	json_object_object_add(root, "unreadable", json_object_new_int64(cen->unreadable));
	for (i = 0; i < cen->nsites; i++) {
		const struct site *s = &cen->sites[i];
		struct json_object *o = json_object_new_object(), *t;

		json_object_object_add(o, "function", json_object_new_string(s->func->name));
		json_object_object_add(o, "offset", json_object_new_uint64(s->offset));
		json_object_object_add(o, "instruction", json_object_new_string(s->text));
		json_object_object_add(o, "bytes", json_object_new_string(s->bytes));
		if (res->r) {
			json_object_object_add(o, "samples", json_object_new_uint64(s->samples));
			json_object_object_add(o, "next_samples", json_object_new_uint64(s->next_samples));
		}
		json_object_array_add(arr, o);
		json_object_object_add(o, "kind", json_object_new_string(s->kind));
		if (ISA_NATIVE == ISA_ARM64)
			json_object_object_add(o, "llsc_fallback", json_object_new_boolean(s->llsc));
		t = json_object_object_get(totals, s->kind);
		json_object_object_add(totals, s->kind,
				       json_object_new_int(t ? json_object_get_int(t) + 1 : 1));
	}
	json_object_object_add(root, "sites", arr);
	json_object_object_add(root, "totals", totals);
	if (ISA_NATIVE == ISA_ARM64) {
		json_object_object_add(root, "llsc_fallbacks", json_object_new_int(llsc_count(cen)));
		json_object_object_add(root, "lse_atomics", json_object_new_boolean(cpu_has_lse()));
	}
	if (res->r) {
		struct json_object *smp = sampling_json(res->r), *hf = json_object_new_array();

		for (i = 0; i < res->nhot; i++) {
			struct json_object *h = json_object_new_object();

			json_object_object_add(h, "function", json_object_new_string(res->hot[i].f->name));
			json_object_object_add(h, "samples", json_object_new_uint64(res->hot[i].samples));
			json_object_array_add(hf, h);
		}
		json_object_object_add(smp, "hottest_functions", hf);
		json_object_object_add(root, "sampling", smp);
	}
	json_print(root, stdout);
	json_object_put(root);
}

/* ranked by cost when sampled (the costly ones, then a count of the rest), else by place */
static void print_site_lines(const struct sites_result *res)
{
	const struct kfunc *prev = NULL;
	int i;

	for (i = 0; i < res->cen.nsites; i++) {
		const struct site *s = &res->cen.sites[i];

		if (res->r) {
			if (!s->samples && !s->next_samples && i) {
				printf("  (%d more sites with no samples)\n", res->cen.nsites - i);
				break;
			}
			printf("  %6llu + %-6llu %s+%#lx: %s\n", (unsigned long long)s->samples,
			       (unsigned long long)s->next_samples, s->func->name, s->offset, s->text);
		} else if (s->func != prev) {
			printf("  %s:\n    %#6lx: %-32s %s\n", s->func->name, s->offset, s->text, s->bytes);
		} else {
			printf("    %#6lx: %-32s %s\n", s->offset, s->text, s->bytes);
		}
		prev = s->func;
	}
}

static int kind_count(const struct census *cen, const char *kind)
{
	int i, n = 0;

	for (i = 0; i < cen->nsites; i++)
		n += !strcmp(cen->sites[i].kind, kind);
	return n;
}

static void print_x86_totals(const struct census *cen)
{
	static const char *const names[] = { "prefetchnta", "prefetcht0", "prefetcht1",
					     "prefetcht2", "prefetchw", "prefetch" };
	size_t k;

	printf("totals:");
	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		printf(" %s %d%s", names[k], kind_count(cen, names[k]),
		       k + 1 < sizeof(names) / sizeof(names[0]) ? "," : "\n");
}

/*
 * arm64: prefetch() is prfm pldl1keep, prefetchw() pstl1keep; the LL/SC
 * atomics put pstl1strm before their ldxr, and a kernel with LSE atomics
 * on a CPU that has them patches those sequences out: counted apart.
 */
static void print_arm64_totals(const struct census *cen)
{
	const char *seen[64];
	int nseen = 0, i, k, llsc = llsc_count(cen);

	printf("totals:");
	for (i = 0; i < cen->nsites; i++) {
		for (k = 0; k < nseen && strcmp(seen[k], cen->sites[i].kind); k++)
			;
		if (k == nseen && nseen < 64) {
			seen[nseen++] = cen->sites[i].kind;
			printf("%s %s %d", nseen > 1 ? "," : "", cen->sites[i].kind,
			       kind_count(cen, cen->sites[i].kind));
		}
	}
	printf("%s\n", nseen ? "" : " none");
	printf("LL/SC fallbacks: %d of the %d (a prefetch before a load-exclusive); %s\n",
	       llsc, cen->nsites, cpu_has_lse() ?
	       "this CPU has LSE atomics, so the kernel runs its LSE ones instead" :
	       "this CPU has no LSE atomics: the kernel runs them");
}

static void render_sites_text(const struct sites_opts *o, const struct sites_result *res)
{
	const struct census *cen = &res->cen;
	const struct sample_result *r = res->r;
	int i;

	printf("pftrace sites: %d prefetch instructions in %d of %d functions of Linux %s "
	       "(text from %s)\n", cen->nsites, cen->functions_with, cen->functions_scanned,
	       res->release, res->text_source);
	if (r)
		printf("sampled %llu %s samples, %llu in the kernel%s%s; sites by cost "
		       "(samples at the prefetch + at the next instruction, where skid puts a stall)\n",
		       (unsigned long long)r->counts.total, r->event,
		       (unsigned long long)r->counts.kernel, r->fallback ? "; " : "",
		       r->fallback ? r->note : "");
	print_site_lines(res);
	if (!cen->nsites && o->nonly)
		printf("  no prefetch instruction in %s%s\n", o->only[0],
		       o->nonly > 1 ? " and the others" : "");
	if (ISA_NATIVE == ISA_ARM64)
		print_arm64_totals(cen);
	else
		print_x86_totals(cen);
	if (res->nhot) {
		printf("hottest kernel functions (%s samples):\n", r->event);
		for (i = 0; i < res->nhot; i++)
			printf("  %8llu  %s\n", (unsigned long long)res->hot[i].samples,
			       res->hot[i].f->name);
	}
}

static void read_release(char *buf, size_t len)
{
	FILE *u = fopen("/proc/sys/kernel/osrelease", "r");

	buf[0] = '\0';
	if (u) {
		if (fgets(buf, (int)len, u))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(u);
	}
}

/* Refusals that need the system, before any text is read. */
static int sites_preflight(const struct sites_opts *o)
{
	struct perf_event_attr attr;
	char err[PFT_ERRLEN];

	if (!caps_can_trace(err, sizeof(err)))
		return sites_bad("reading kernel text needs CAP_BPF and CAP_PERFMON (or root); "
				 "this process lacks %s", err);
	if (o->seconds && sample_event_parse(o->event, &attr, err, sizeof(err)))
		return sites_bad("%s", err);
	return 0;
}

int cmd_sites(int argc, char **argv)
{
	struct sites_opts o;
	struct sites_result res = { 0 };
	static const char *const text_bounds[] = { "_stext", "_etext", "_sinittext", NULL };
	const struct kfunc *funcs = NULL;
	struct ktext *kt = NULL;
	struct ksyms *ks;
	char err[PFT_ERRLEN];
	int nfuncs = 0, i, rc;

	rc = parse_sites_opts(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	setup_libbpf_logging(o.verbose);
	rc = sites_preflight(&o);
	if (rc)
		return rc;
	/* one pass of kallsyms: every function and the text's bounds */
	ks = ksyms_load(text_bounds, true);
	nfuncs = ks ? ksyms_funcs(ks, &funcs) : -ENOMEM;
	if (nfuncs <= 0) {
		ksyms_free(ks);
		return sites_bad("cannot read /proc/kallsyms");
	}
	kt = ktext_open(o.src, o.vmlinux, ks, err, sizeof(err));
	if (!kt)
		rc = sites_bad("%s", err);
	for (i = 0; !rc && i < o.nonly; i++)
		if (!kfunc_named(funcs, nfuncs, o.only[i]))
			rc = sites_bad("%s: not a kernel function in /proc/kallsyms", o.only[i]);
	if (!rc && o.seconds)
		rc = sample_kernel(&o, &res);
	if (!rc) {
		census(&o, kt, ks, funcs, nfuncs, &res);
		read_release(res.release, sizeof(res.release));
		res.text_source = ktext_describe(kt);
		if (o.format == FORMAT_JSON)
			render_sites_json(&res);
		else
			render_sites_text(&o, &res);
		fflush(stdout);
	}
	free(res.cen.sites);
	sample_result_free(&res.samples);
	ktext_close(kt);
	ksyms_free(ks);
	return rc;
}
