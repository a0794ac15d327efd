// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "opts.h"
#include "fileio.h"
#include "knobs.h"
#include "progress.h"
#include "suggest.h"

enum { OPT_FORMAT = 256, OPT_BTF, OPT_DRY_RUN, OPT_SAMPLE, OPT_MAX_OVERHEAD, OPT_NO_SAMPLES,
       OPT_VMLINUX, OPT_SNAPSHOT, OPT_KEYS, OPT_LATENCY, OPT_CGROUP, OPT_ONLY_COMMAND, OPT_BY,
       OPT_SAMPLE_CALLS, OPT_SLICE };

/* The trace command's options: getopt's arrays and --help come from here. */
const struct opt_spec trace_opt_specs[] = {
	{ "function", 'f', "FUNC", "function to trace (avc_has_perm_noaudit, avc_lookup, ...)" },
	{ "duration", 'd', "SECONDS", "stop after SECONDS (default: Ctrl-C, or COMMAND's end)" },
	{ "interval", 'i', "SECONDS", "print the counts of each interval (with --format json,\n"
				       "one JSON line each)" },
	{ "output", 'o', "FILE", "write the run to FILE: JSON, or Prometheus text if FILE\n"
				 "ends in .prom (node_exporter's textfile collector; with -i,\n"
				 "rewritten at every interval); - for stdout" },
	{ "format", OPT_FORMAT, "FORMAT", "text, json, openmetrics or prometheus on stdout\n"
					  "(default text)" },
	{ "sample", OPT_SAMPLE, "N", "stay attached 1 slice of time in N (counts scaled):\n"
				     "bounds the whole cost, the trampoline's too" },
	{ "slice", OPT_SLICE, "MS", "--sample: each attached slice's length (default: 20,\n"
				    "lengthened up to 1000 as walking outweighs switching)" },
	{ "sample-calls", OPT_SAMPLE_CALLS, "N", "stay attached, walk one call in N per CPU: calls\n"
						  "stay exact, each still pays the trampoline" },
	{ "max-overhead", OPT_MAX_OVERHEAD, "PCT", "stop when pftrace's BPF programs use more than\n"
						    "PCT% of one CPU (measured each second)" },
	{ "btf", OPT_BTF, "FILE", "kernel BTF to use instead of /sys/kernel/btf/vmlinux" },
	{ "dry-run", OPT_DRY_RUN, NULL, "print the attach plan and exit" },
	{ "event", 'e', "EVENT", "sample EVENT beside the walks (default cycles; cpu-clock\n"
				 "where there is no PMU; perf names or libpfm4's)" },
	{ "freq", 'F', "HZ", "samples per second and CPU (default 999)" },
	{ "no-samples", OPT_NO_SAMPLES, NULL, "walks only" },
	{ "snapshot", OPT_SNAPSHOT, NULL, "at the end, walk the whole table: its shape beside\n"
					   "ideal hashing, and every key (for pftrace whatif)" },
	{ "latency", OPT_LATENCY, NULL, "time every lookup, entry to return, by nodes walked:\n"
					 "cost per node (cycles where a PMU counts them, else ns)" },
	{ "pid", 'p', "PID", "count only the lookups of process PID (its threads)" },
	{ "cgroup", OPT_CGROUP, "PATH", "count only the lookups of tasks in cgroup v2 PATH\n"
					"and below (/sys/fs/cgroup/...)" },
	{ "only-command", OPT_ONLY_COMMAND, NULL, "count only the lookups of COMMAND and of the\n"
						  "processes it forks" },
	{ "by", OPT_BY, "KEY", "charge the walks to who made them: comm, pid or cgroup\n"
			       "(the top 10 by nodes walked; all in JSON)" },
	{ "keys", OPT_KEYS, "N", "--snapshot: count lookups of at most N distinct keys\n"
				 "(default 65536; the others are counted as dropped)" },
	{ "vmlinux", OPT_VMLINUX, "FILE", "kernel text for the annotation where there is no\n"
					  "/proc/kcore (else it is read through BPF)" },
	{ "knob", 'C', "KEY=VALUE", "a rare knob (below)" },
	{ "quiet", 'q', NULL, "no status line (shown only when stdout and stderr are a terminal)" },
	{ "verbose", 'v', NULL, "explain the plan, show libbpf's messages" },
	{ "help", 'h', NULL, "this text" },
	{ "version", 'V', NULL, "print the version" },
	{ 0 },
};

void print_trace_options(FILE *f)
{
	opts_print_help(f, trace_opt_specs);
	knobs_print_help(f, trace_knob_specs);
}

void print_usage(FILE *f)
{
	size_t i;

	/* every command's synopsis, from the registry: nothing here to drift */
	for (i = 0; i < ncommands; i++)
		fprintf(f, "%s pftrace %s\n", i ? "      " : "Usage:", commands[i].spec->synopsis);
	fprintf(f, "       pftrace help COMMAND\n       pftrace --version\n\n%s\n"
		"(pftrace COMMAND --help: the options of one command.)\n\n", trace_cmd.summary);
	opts_print_help(f, trace_opt_specs);
	knobs_print_help(f, trace_knob_specs);
	fprintf(f, "\n"
"Exit status: 0 done, 1 runtime failure, 2 bad input or environment,\n"
"3 the self-check found pftrace's walk disagreeing with the kernel.\n");
}

int pft_refuse(const char *who, const char *fmt, ...)
{
	char msg[2048], shown[4 * 2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* what it quotes from argv (an option's value, a file name) reaches a terminal */
	fprintf(stderr, "pftrace: %s%s%s\n", who ? who : "", who ? ": " : "",
		text_safe(msg, shown, sizeof(shown)));
	return 2;
}

#define bad(...) pft_refuse(NULL, __VA_ARGS__)

const char *pft_optname(char **argv)
{
	static char shortname[3];
	const char *last = optind > 0 ? argv[optind - 1] : "";

	/*
	 * A long option is the word getopt just passed. A short one may sit
	 * inside a cluster (-Xv), where that word is the one before it: name
	 * the letter itself, which getopt keeps in optopt.
	 */
	if (!strncmp(last, "--", 2) || optopt <= 0 || optopt > 127)
		return last;
	shortname[0] = '-';
	shortname[1] = (char)optopt;
	shortname[2] = '\0';
	return shortname;
}

const char *pft_unknown_option(const struct opt_spec *specs, char **argv)
{
	static char msg[160];
	const char *given = pft_optname(argv), *names[PFT_MAX_OPTS], *close = NULL;
	char word[64];
	size_t n = 0;

	/* "--durtion=5": the name alone is what was mistyped */
	snprintf(word, sizeof(word), "%s", given + (given[0] == '-' && given[1] == '-' ? 2 : 0));
	word[strcspn(word, "=")] = '\0';
	for (; specs->name && n < PFT_MAX_OPTS; specs++)
		names[n++] = specs->name;
	if (given[0] == '-' && given[1] == '-')
		close = suggest_name(word, names, n);
	if (close)
		snprintf(msg, sizeof(msg), "unknown option '%s'; did you mean --%s?", given, close);
	else
		snprintf(msg, sizeof(msg), "unknown option '%s'", given);
	return msg;
}

/* A finite number of seconds in [min, a year], and nothing else. */
int pft_parse_seconds(const char *who, const char *opt, const char *s, double min, double *out)
{
	char *end;
	double v;

	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v) || v <= 0 || v < min || v > PFT_MAX_SECONDS) {
		if (min > 0)
			return pft_refuse(who, "%s wants a number of seconds (%g <= N <= %d), not '%s'",
					  opt, min, PFT_MAX_SECONDS, s);
		return pft_refuse(who, "%s wants a number of seconds (0 < N <= %d), not '%s'",
				  opt, PFT_MAX_SECONDS, s);
	}
	*out = v;
	return 0;
}

static int parse_format(const char *s, enum out_format *f)
{
	if (!strcmp(s, "text"))
		*f = FORMAT_TEXT;
	else if (!strcmp(s, "json"))
		*f = FORMAT_JSON;
	else if (!strcmp(s, "openmetrics"))
		*f = FORMAT_OPENMETRICS;
	else if (!strcmp(s, "prometheus"))
		*f = FORMAT_PROMETHEUS;
	else
		return bad("--format wants text, json, openmetrics or prometheus, not '%s'", s);
	return 0;
}

static void record_cmdline(struct trace_opts *o, int argc, char **argv)
{
	size_t len = 0;
	int i;

	o->cmdline[0] = '\0';
	for (i = 0; i < argc && len < sizeof(o->cmdline) - 1; i++)
		len += snprintf(o->cmdline + len, sizeof(o->cmdline) - len, "%s%s",
				i ? " " : "", i ? argv[i] : "pftrace");
}

int parse_trace_opts(int argc, char **argv, struct trace_opts *o)
{
	char ext_err[PFT_ERRLEN];
	struct opt_parser parser;
	char *end;
	long n;
	int c;

	memset(o, 0, sizeof(*o));
	o->sample_every = 1;
	o->duty_one_in = 1;
	o->slice_s = PFT_DEFAULT_SLICE_MS / 1000.0;
	o->event = "cycles";
	o->sample_hz = 999;
	o->key_limit = PFT_KEY_COUNTS_MAX;
	record_cmdline(o, argc, argv);
	opts_begin(&parser, trace_opt_specs, true);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case 'f':
			if (o->nfunctions == PFT_MAX_TARGETS)
				return bad("at most %d -f functions", PFT_MAX_TARGETS);
			o->functions[o->nfunctions++] = optarg;
			break;
		case 'd':
			if (pft_parse_seconds(NULL, "-d", optarg, 0, &o->duration_s))
				return 2;
			break;
		case 'i':
			/* shorter intervals would print nothing but their own cost */
			if (pft_parse_seconds(NULL, "-i", optarg, PFT_MIN_INTERVAL_S, &o->interval_s))
				return 2;
			break;
		case 'o':
			if (!*optarg)
				return bad("-o wants a file name");
			if (output_extension_check(optarg, true, ext_err, sizeof(ext_err)))
				return bad("%s", ext_err);
			o->output_path = optarg;
			break;
		case OPT_FORMAT:
			if (parse_format(optarg, &o->common.format))
				return 2;
			break;
		case OPT_BTF:
			o->common.btf_path = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_SAMPLE:
			n = strtol(optarg, &end, 10);
			/* past 10000 a 10-second trace would not hold one slice */
			if (end == optarg || *end || n < 1 || n > 10000)
				return bad("--sample wants a whole number from 1 to 10000, not '%s'", optarg);
			o->duty_one_in = (unsigned int)n;
			break;
		case OPT_SAMPLE_CALLS:
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < 1 || n > 1000000)
				return bad("--sample-calls wants a whole number from 1 to 1000000, not '%s'",
					   optarg);
			o->sample_every = (unsigned int)n;
			break;
		case OPT_SLICE:
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < PFT_MIN_SLICE_MS || n > PFT_MAX_SLICE_MS)
				return bad("--slice wants milliseconds from %d to %d, not '%s'",
					   PFT_MIN_SLICE_MS, PFT_MAX_SLICE_MS, optarg);
			o->slice_s = (double)n / 1000;
			o->slice_set = true;
			break;
		case OPT_MAX_OVERHEAD:
			o->max_overhead_pct = strtod(optarg, &end);
			if (end == optarg || *end || !isfinite(o->max_overhead_pct) ||
			    o->max_overhead_pct <= 0 || o->max_overhead_pct > 100)
				return bad("--max-overhead wants a percentage of one CPU "
					   "(0 < PCT <= 100), not '%s'", optarg);
			break;
		case 'e':
			o->event = optarg;
			break;
		case 'F':
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end)
				return bad("-F wants samples per second, not '%s'", optarg);
			o->sample_hz = n;
			break;
		case OPT_NO_SAMPLES:
			o->no_samples = true;
			break;
		case OPT_VMLINUX:
			o->vmlinux = optarg;
			break;
		case OPT_SNAPSHOT:
			o->snapshot = true;
			break;
		case OPT_LATENCY:
			o->latency = true;
			break;
		case 'p':
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < 1 || n > 4194304)
				return bad("-p wants a process id, not '%s'", optarg);
			o->pid = n;
			break;
		case OPT_CGROUP:
			if (!*optarg)
				return bad("--cgroup wants a cgroup v2 directory");
			o->cgroup = optarg;
			break;
		case OPT_ONLY_COMMAND:
			o->only_command = true;
			break;
		case OPT_BY:
			if (!strcmp(optarg, "comm"))
				o->by = PFT_BY_COMM;
			else if (!strcmp(optarg, "pid"))
				o->by = PFT_BY_PID;
			else if (!strcmp(optarg, "cgroup"))
				o->by = PFT_BY_CGROUP;
			else
				return bad("--by wants comm, pid or cgroup, not '%s'", optarg);
			break;
		case OPT_KEYS:
			n = strtol(optarg, &end, 10);
			if (end == optarg || *end || n < 1 || n > 4194304)
				return bad("--keys wants a whole number from 1 to 4194304, not '%s'", optarg);
			o->key_limit = (unsigned int)n;
			break;
		case 'C':
			if (knob_parse(NULL, trace_knob_specs, &o->knobs, optarg))
				return 2;
			break;
		case 'v':
			o->common.verbose = true;
			break;
		case 'q':
			progress_quiet();
			break;
		case 'h':
			print_usage(stdout);
			return -1;
		case 'V':
			printf("pftrace %s\n", PFTRACE_VERSION_LONG);
			return -1;
		case ':':
			return bad("option '%s' needs a value", pft_optname(argv));
		default:
			return bad("%s (see pftrace --help)", pft_unknown_option(trace_opt_specs, argv));
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			return bad("unexpected argument '%s' (a command to run goes after --)",
				   argv[optind]);
		o->command = &argv[optind];
	}
	if (!o->nfunctions)
		return bad("no function to trace: give -f FUNC (pftrace list shows them)");
	if (o->interval_s && o->duration_s && o->interval_s > o->duration_s)
		return bad("-i %g is longer than -d %g", o->interval_s, o->duration_s);
	if (o->only_command && !o->command)
		return bad("--only-command needs a command to run after --");
	if (o->only_command && o->pid)
		return bad("-p and --only-command each name the processes to count: give one");
	if (o->latency && (o->sample_every > 1 || o->duty_one_in > 1))
		return bad("--latency times every call; it cannot be combined with --sample "
			   "or --sample-calls");
	if (o->sample_every > 1 && o->duty_one_in > 1)
		return bad("--sample and --sample-calls each thin the trace: give one");
	if (o->slice_set && o->duty_one_in <= 1)
		return bad("--slice is the length of --sample's slices; give --sample N too");
	if (o->interval_s && o->output_path && output_is_stdout(o->output_path))
		return bad("-i and -o - would both write to stdout: give -o a file");
	/* an OpenMetrics exposition ends at its "# EOF": one per output */
	if (o->interval_s && (o->common.format == FORMAT_OPENMETRICS ||
				o->common.format == FORMAT_PROMETHEUS))
		return bad("-i reports intervals as text or json on stdout; for metrics give -o FILE.prom");
	return 0;
}

const struct opt_spec common_opt_specs[] = {
	{ "format", OPT_FORMAT, "FORMAT", "text or json on stdout (default text)" },
	{ "btf", OPT_BTF, "FILE", "kernel BTF to use instead of /sys/kernel/btf/vmlinux" },
	{ "verbose", 'v', NULL, "show libbpf's messages" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec trace_cmd = {
	NULL, "-f FUNC [-f FUNC]... [options] [-- COMMAND [ARG]...]",
	"Measures hash-chain walks of a kernel lookup function while it runs:\n"
	"nodes walked, hit or miss, hit position, next==NULL at the hit, and\n"
	"what the pre-3.0 hlist prefetch would have done with those walks.",
	trace_opt_specs,
};

const struct cmd_spec snapshot_cmd = {
	"snapshot", "snapshot -f FUNC [-f FUNC]... [-d SECONDS] [-o FILE] [-- COMMAND...]",
	"Walk the whole table behind each FUNC once: its shape beside ideal\n"
	"hashing, and every entry's key, for pftrace whatif. With -d or a\n"
	"COMMAND it traces first and counts the lookups by key (--snapshot).\n"
	"It takes the trace command's options.",
	trace_opt_specs,
};

const struct cmd_spec features_cmd = {
	"features", "features [--format text|json] [--btf FILE] [-v]",
	"What this kernel and this process offer pftrace: attach methods, BTF,\n"
	"kallsyms, SELinux, PMU, capabilities; each line says why when no.",
	common_opt_specs,
};

const struct cmd_spec list_cmd = {
	"list", "list [--format text|json] [--btf FILE] [-v]",
	"Every recipe (hash table) pftrace knows, the functions it answers to,\n"
	"and whether and how each attaches on this kernel.",
	common_opt_specs,
};

static const struct opt_spec help_only_specs[] = {
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct opt_spec report_opt_specs[] = {
	{ "format", OPT_FORMAT, "FORMAT", "text (default), json, openmetrics, prometheus, or csv:\n"
					  "traced,histogram,nodes,count, one row per bucket" },
	{ "help", 'h', NULL, "this text" },
	{ 0 },
};

const struct cmd_spec report_cmd = {
	"report", "report RUN.json [--format text|json|openmetrics|prometheus|csv]",
	"The run as a 72-column block for a commit message, then, for each table\n"
	"with a snapshot and counted lookups, whether another size or hash pays off.\n"
	"The other formats give the run file's data for other tools.",
	report_opt_specs,
};

const struct cmd_spec diff_cmd = {
	"diff", "diff BEFORE.json AFTER.json",
	"Compares two runs: chain-length histograms side by side, the changes in\n"
	"rate, walks, hits and NULL prefetches, and a chi-square test of whether\n"
	"the chain lengths differ.",
	help_only_specs,
};

int parse_common_opts(int argc, char **argv, struct common_opts *o, const char *cmd)
{
	struct opt_parser parser;
	int c;

	memset(o, 0, sizeof(*o));
	opts_begin(&parser, common_opt_specs, false);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (parse_format(optarg, &o->format))
				return 2;
			break;
		case 'h':
		{
			const struct command *named = command_named(cmd);

			cmd_print_help(stdout, named ? named->spec : &trace_cmd);
			return -1;
		}
		case OPT_BTF:
			o->btf_path = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		case ':':
			return pft_refuse(cmd, "option '%s' needs a value", pft_optname(argv));
		default:
			return pft_refuse(cmd, "%s", pft_unknown_option(common_opt_specs, argv));
		}
	}
	if (optind < argc)
		return pft_refuse(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}
