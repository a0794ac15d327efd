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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <json-c/json.h>

#include "annotate.h"
#include "caps.h"
#include "cli.h"
#include "disasm.h"
#include "ktext.h"
#include "output.h"
#include "sampling.h"
#include "sites.h"

/* text is read in slices this big: one read per slice, not per function */
#define SLICE (4 << 20)

struct site {
	const struct kfunc *func;
	unsigned long offset;
	char mnemonic[32];
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

	n = disasm(code, size, f->addr, &insns);
	if (n < 0)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct site *s;

		if (!insns[i].prefetch)
			continue;
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
		snprintf(s->mnemonic, sizeof(s->mnemonic), "%s", insns[i].mnemonic);
		snprintf(s->text, sizeof(s->text), "%s %s", insns[i].mnemonic, insns[i].operands);
		hex_bytes(s->bytes, sizeof(s->bytes), insns[i].bytes, insns[i].size);
		s->samples = r ? samples_at(r, insns[i].addr) : 0;
		s->next_samples = r && i + 1 < n ? samples_at(r, insns[i + 1].addr) : 0;
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
	free(buf);
	return 0;
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

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = sig;
}

/* Sample for SECONDS, or while COMMAND runs. */
static int sample_window(double seconds, char **command)
{
	struct timespec ts = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
	struct sigaction sa = { .sa_handler = on_signal };
	int status = 0;
	pid_t pid;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!command) {
		while (!stop && nanosleep(&ts, &ts) && errno == EINTR)
			;
		return 0;
	}
	pid = fork();
	if (pid == 0) {
		execvp(command[0], command);
		fprintf(stderr, "pftrace: sites: cannot run '%s': %s\n", command[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		if (stop)
			kill(pid, SIGTERM);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int cmd_sites(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "function", required_argument, NULL, 'f' },
		{ "duration", required_argument, NULL, 'd' },
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "text-from", required_argument, NULL, OPT_TEXT_FROM },
		{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *only[64], *event = "cycles", *vmlinux = NULL;
	enum ktext_source src = KTEXT_AUTO;
	enum out_format format = FORMAT_TEXT;
	int nonly = 0, c, nfuncs, i, first = 0, last, rc = 0, nhot = 0;
	double seconds = 0;
	long hz = PFT_DEFAULT_SAMPLE_HZ;
	char err[PFT_ERRLEN], *end, **command = NULL, release[128] = "";
	struct kfunc *funcs = NULL;
	struct ktext *kt = NULL;
	struct sampler *sampler = NULL;
	struct sample_result res = { 0 }, *r = NULL;
	struct census cen = { 0 };
	struct func_cost hot[20];
	unsigned long stext = 0, etext = 0;
	bool verbose = false;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:f:d:e:F:v", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (nonly == 64)
				return sites_bad("at most 64 -f");
			only[nonly++] = optarg;
			break;
		case 'd':
			seconds = strtod(optarg, &end);
			if (end == optarg || *end || !(seconds > 0) || seconds > 86400)
				return sites_bad("-d wants a number of seconds (0 < N <= 86400), not '%s'", optarg);
			break;
		case 'e':
			event = optarg;
			break;
		case 'F':
			hz = strtol(optarg, &end, 10);
			if (end == optarg || *end)
				return sites_bad("-F wants samples per second, not '%s'", optarg);
			if (sample_freq_check(hz, err, sizeof(err)))
				return sites_bad("%s", err);
			break;
		case OPT_TEXT_FROM:
			if (!strcmp(optarg, "kcore"))
				src = KTEXT_KCORE;
			else if (!strcmp(optarg, "bpf"))
				src = KTEXT_BPF;
			else
				return sites_bad("--text-from wants kcore or bpf, not '%s'", optarg);
			break;
		case OPT_VMLINUX:
			vmlinux = optarg;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "json"))
				format = FORMAT_JSON;
			else if (strcmp(optarg, "text"))
				return sites_bad("--format wants text or json, not '%s'", optarg);
			break;
		case 'v':
			verbose = true;
			break;
		case ':':
			return sites_bad("option '%s' needs a value", pft_optname(argv));
		default:
			return sites_bad("unknown option '%s'", pft_optname(argv));
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			return sites_bad("unexpected argument '%s'", argv[optind]);
		command = &argv[optind];
		if (!seconds)
			seconds = 1e9;   /* until the command ends */
	}
	setup_libbpf_logging(verbose);
	if (!caps_can_trace(err, sizeof(err)))
		return sites_bad("reading kernel text needs CAP_BPF and CAP_PERFMON (or root); "
				 "this process lacks %s", err);
	{
		struct perf_event_attr attr;

		if ((seconds || command) && sample_event_parse(event, &attr, err, sizeof(err)))
			return sites_bad("%s", err);
	}
	nfuncs = kfuncs_load(&funcs);
	if (nfuncs <= 0)
		return sites_bad("cannot read /proc/kallsyms");
	kt = ktext_open(src, vmlinux, err, sizeof(err));
	if (!kt) {
		fprintf(stderr, "pftrace: sites: %s\n", err);
		kfuncs_free(funcs, nfuncs);
		return 2;
	}
	for (i = 0; i < nonly; i++) {
		if (!kfunc_named(funcs, nfuncs, only[i])) {
			fprintf(stderr, "pftrace: sites: %s: not a kernel function in /proc/kallsyms\n", only[i]);
			rc = 2;
			goto out;
		}
	}
	if (seconds) {
		sampler = sampler_start(event, (int)hz, NULL, 0, false, err, sizeof(err));
		if (!sampler) {
			fprintf(stderr, "pftrace: sites: %s\n", err);
			rc = 2;
			goto out;
		}
		sample_window(seconds, command);
		sampler_finish(sampler, &res);
		r = &res;
	}

	/* the core kernel's text runs from _stext to _etext */
	ksym_address("_stext", "tT", &stext);
	ksym_address("_etext", "tT", &etext);
	if (nonly) {
		for (i = 0; i < nonly; i++) {
			const struct kfunc *f = kfunc_named(funcs, nfuncs, only[i]);

			scan(&cen, kt, funcs, (int)(f - funcs), (int)(f - funcs) + 1, r);
		}
	} else {
		while (first < nfuncs && funcs[first].addr < stext)
			first++;
		for (last = first; last < nfuncs && (!etext || funcs[last].addr < etext); last++)
			;
		scan(&cen, kt, funcs, first, last, r);
	}
	if (r) {
		qsort(cen.sites, (size_t)cen.nsites, sizeof(*cen.sites), site_cost_cmp);
		nhot = hottest_functions(r, funcs, nfuncs, hot, 20);
	}
	{
		FILE *u = fopen("/proc/sys/kernel/osrelease", "r");

		if (u) {
			if (fgets(release, sizeof(release), u))
				release[strcspn(release, "\n")] = '\0';
			fclose(u);
		}
	}

	if (format == FORMAT_JSON) {
		struct json_object *root = json_object_new_object(), *arr = json_object_new_array();
		struct json_object *totals = json_object_new_object();

		json_object_object_add(root, "tool", json_object_new_string("pftrace"));
		json_object_object_add(root, "kernel", json_object_new_string(release));
		json_object_object_add(root, "text_source", json_object_new_string(ktext_describe(kt)));
		json_object_object_add(root, "functions_scanned", json_object_new_int(cen.functions_scanned));
		json_object_object_add(root, "functions_with_prefetch", json_object_new_int(cen.functions_with));
		json_object_object_add(root, "unreadable", json_object_new_int64(cen.unreadable));
		for (i = 0; i < cen.nsites; i++) {
			struct site *s = &cen.sites[i];
			struct json_object *o = json_object_new_object(), *t;

			json_object_object_add(o, "function", json_object_new_string(s->func->name));
			json_object_object_add(o, "offset", json_object_new_uint64(s->offset));
			json_object_object_add(o, "instruction", json_object_new_string(s->text));
			json_object_object_add(o, "bytes", json_object_new_string(s->bytes));
			if (r) {
				json_object_object_add(o, "samples", json_object_new_uint64(s->samples));
				json_object_object_add(o, "next_samples", json_object_new_uint64(s->next_samples));
			}
			json_object_array_add(arr, o);
			t = json_object_object_get(totals, s->mnemonic);
			json_object_object_add(totals, s->mnemonic,
					       json_object_new_int(t ? json_object_get_int(t) + 1 : 1));
		}
		json_object_object_add(root, "sites", arr);
		json_object_object_add(root, "totals", totals);
		if (r) {
			struct json_object *smp = sampling_json(r), *hf = json_object_new_array();

			for (i = 0; i < nhot; i++) {
				struct json_object *h = json_object_new_object();

				json_object_object_add(h, "function", json_object_new_string(hot[i].f->name));
				json_object_object_add(h, "samples", json_object_new_uint64(hot[i].samples));
				json_object_array_add(hf, h);
			}
			json_object_object_add(smp, "hottest_functions", hf);
			json_object_object_add(root, "sampling", smp);
		}
		json_print(root, stdout);
		json_object_put(root);
	} else {
		const struct kfunc *prev = NULL;

		printf("pftrace sites: %d prefetch instructions in %d of %d functions of Linux %s "
		       "(text from %s)\n", cen.nsites, cen.functions_with, cen.functions_scanned,
		       release, ktext_describe(kt));
		if (r) {
			printf("sampled %llu %s samples, %llu in the kernel%s%s; sites by cost "
			       "(samples at the prefetch + at the next instruction, where skid puts a stall)\n",
			       (unsigned long long)r->counts.total, r->event,
			       (unsigned long long)r->counts.kernel, r->fallback ? "; " : "",
			       r->fallback ? r->note : "");
		}
		for (i = 0; i < cen.nsites; i++) {
			struct site *s = &cen.sites[i];

			if (r) {
				/* ranked: the costly ones, then how many cost nothing seen */
				if (!s->samples && !s->next_samples && i) {
					printf("  (%d more sites with no samples)\n", cen.nsites - i);
					break;
				}
				printf("  %6llu + %-6llu %s+%#lx: %s\n", (unsigned long long)s->samples,
				       (unsigned long long)s->next_samples, s->func->name, s->offset, s->text);
			} else if (s->func != prev)
				printf("  %s:\n    %#6lx: %-32s %s\n", s->func->name, s->offset, s->text, s->bytes);
			else
				printf("    %#6lx: %-32s %s\n", s->offset, s->text, s->bytes);
			prev = s->func;
		}
		if (!cen.nsites && nonly)
			printf("  no prefetch instruction in %s%s\n", only[0], nonly > 1 ? " and the others" : "");
		{
			/* totals by mnemonic */
			const char *names[] = { "prefetchnta", "prefetcht0", "prefetcht1", "prefetcht2",
						"prefetchw", "prefetch" };
			size_t k;

			printf("totals:");
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
				int n = 0;

				for (i = 0; i < cen.nsites; i++)
					n += !strcmp(cen.sites[i].mnemonic, names[k]);
				printf(" %s %d%s", names[k], n, k + 1 < sizeof(names) / sizeof(names[0]) ? "," : "\n");
			}
		}
		if (nhot) {
			printf("hottest kernel functions (%s samples):\n", r->event);
			for (i = 0; i < nhot; i++)
				printf("  %8llu  %s\n", (unsigned long long)hot[i].samples, hot[i].f->name);
		}
	}
	fflush(stdout);
out:
	free(cen.sites);
	sample_result_free(&res);
	sampler_free(sampler);
	ktext_close(kt);
	kfuncs_free(funcs, nfuncs);
	return rc;
}
