// SPDX-License-Identifier: GPL-2.0
#include <getopt.h>
#include <limits.h>
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
	{ "by", OPT_BY, "KEY", "charge the walks to who made them: comm, pid, cgroup or netns\n"
			       "(the top 10 by nodes walked; all in JSON). netns: the\n"
			       "lookup's own for conntrack and tcp, else the task's" },
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

int pft_parse_whole(const char *s, long min, long max, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
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

static int parse_by(const char *s, int *by)
{
	if (!strcmp(s, "comm"))
		*by = PFT_BY_COMM;
	else if (!strcmp(s, "pid"))
		*by = PFT_BY_PID;
	else if (!strcmp(s, "cgroup"))
		*by = PFT_BY_CGROUP;
	else if (!strcmp(s, "netns"))
		*by = PFT_BY_NETNS;
	else
		return bad("--by wants comm, pid, cgroup or netns, not '%s'", s);
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

/* What an option handler returns for an option that is not its own. */
#define NOT_MINE (-2)

/* The options that take a number, each range-checked: 0, 2 (refused), or NOT_MINE. */
static int number_option(int c, const char *arg, struct trace_opts *o)
{
	char *end;
	long n;

	switch (c) {
	case 'd':
		return pft_parse_seconds(NULL, "-d", arg, 0, &o->duration_s);
	case 'i':
		/* shorter intervals would print nothing but their own cost */
		return pft_parse_seconds(NULL, "-i", arg, PFT_MIN_INTERVAL_S, &o->interval_s);
	case OPT_SAMPLE:
		/* past 10000 a 10-second trace would not hold one slice */
		if (pft_parse_whole(arg, 1, 10000, &n))
			return bad("--sample wants a whole number from 1 to 10000, not '%s'", arg);
		o->duty_one_in = (unsigned int)n;
		return 0;
	case OPT_SAMPLE_CALLS:
		if (pft_parse_whole(arg, 1, 1000000, &n))
			return bad("--sample-calls wants a whole number from 1 to 1000000, not '%s'", arg);
		o->sample_every = (unsigned int)n;
		return 0;
	case OPT_SLICE:
		if (pft_parse_whole(arg, PFT_MIN_SLICE_MS, PFT_MAX_SLICE_MS, &n))
			return bad("--slice wants milliseconds from %d to %d, not '%s'",
				   PFT_MIN_SLICE_MS, PFT_MAX_SLICE_MS, arg);
		o->slice_s = (double)n / 1000;
		o->slice_set = true;
		return 0;
	case OPT_MAX_OVERHEAD:
		o->max_overhead_pct = strtod(arg, &end);
		if (end == arg || *end || !isfinite(o->max_overhead_pct) ||
		    o->max_overhead_pct <= 0 || o->max_overhead_pct > 100)
			return bad("--max-overhead wants a percentage of one CPU "
				   "(0 < PCT <= 100), not '%s'", arg);
		return 0;
	case 'F':
		/* the range is the sampler's to check, against this machine's limit */
		if (pft_parse_whole(arg, LONG_MIN, LONG_MAX, &o->sample_hz))
			return bad("-F wants samples per second, not '%s'", arg);
		return 0;
	case 'p':
		if (pft_parse_whole(arg, 1, 4194304, &o->pid))
			return bad("-p wants a process id, not '%s'", arg);
		return 0;
	case OPT_KEYS:
		if (pft_parse_whole(arg, 1, 4194304, &n))
			return bad("--keys wants a whole number from 1 to 4194304, not '%s'", arg);
		o->key_limit = (unsigned int)n;
		return 0;
	}
	return NOT_MINE;
}

/* The options that name something (a function, a file, a word): 0, 2, or NOT_MINE. */
static int word_option(int c, const char *arg, struct trace_opts *o)
{
	char ext_err[PFT_ERRLEN];

	switch (c) {
	case 'f':
		if (o->nfunctions == PFT_MAX_TARGETS)
			return bad("at most %d -f functions", PFT_MAX_TARGETS);
		o->functions[o->nfunctions++] = arg;
		return 0;
	case 'o':
		if (!*arg)
			return bad("-o wants a file name");
		if (output_extension_check(arg, true, ext_err, sizeof(ext_err)))
			return bad("%s", ext_err);
		o->output_path = arg;
		return 0;
	case OPT_FORMAT:
		return parse_format(arg, &o->common.format) ? 2 : 0;
	case OPT_BTF:
		o->common.btf_path = arg;
		return 0;
	case 'e':
		o->event = arg;
		return 0;
	case OPT_VMLINUX:
		o->vmlinux = arg;
		return 0;
	case OPT_CGROUP:
		if (!*arg)
			return bad("--cgroup wants a cgroup v2 directory");
		o->cgroup = arg;
		return 0;
	case OPT_BY:
		return parse_by(arg, &o->by);
	case 'C':
		return knob_parse(NULL, trace_knob_specs, &o->knobs, arg) ? 2 : 0;
	}
	return NOT_MINE;
}

/* The flags: 0, -1 (help or version printed), or NOT_MINE. */
static int flag_option(int c, struct trace_opts *o)
{
	switch (c) {
	case OPT_DRY_RUN:
		o->dry_run = true;
		return 0;
	case OPT_NO_SAMPLES:
		o->no_samples = true;
		return 0;
	case OPT_SNAPSHOT:
		o->snapshot = true;
		return 0;
	case OPT_LATENCY:
		o->latency = true;
		return 0;
	case OPT_ONLY_COMMAND:
		o->only_command = true;
		return 0;
	case 'v':
		o->common.verbose = true;
		return 0;
	case 'q':
		progress_quiet();
		return 0;
	case 'h':
		print_usage(stdout);
		return -1;
	case 'V':
		printf("pftrace %s\n", PFTRACE_VERSION_LONG);
		return -1;
	}
	return NOT_MINE;
}

/* What no one option says alone: the combinations that cannot work. 0 or 2. */
static int check_trace_opts(const struct trace_opts *o)
{
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

static void trace_opts_defaults(struct trace_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->sample_every = 1;
	o->duty_one_in = 1;
	o->slice_s = PFT_DEFAULT_SLICE_MS / 1000.0;
	o->event = "cycles";
	o->sample_hz = 999;
	o->key_limit = PFT_KEY_COUNTS_MAX;
}

int parse_trace_opts(int argc, char **argv, struct trace_opts *o)
{
	struct opt_parser parser;
	int c, rc;

	trace_opts_defaults(o);
	record_cmdline(o, argc, argv);
	opts_begin(&parser, trace_opt_specs, true);
	while ((c = opts_next(&parser, argc, argv)) != -1) {
		if (c == ':')
			return bad("option '%s' needs a value", pft_optname(argv));
		rc = number_option(c, optarg, o);
		if (rc == NOT_MINE)
			rc = word_option(c, optarg, o);
		if (rc == NOT_MINE)
			rc = flag_option(c, o);
		if (rc == NOT_MINE)
			return bad("%s (see pftrace --help)", pft_unknown_option(trace_opt_specs, argv));
		if (rc)
			return rc;
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			return bad("unexpected argument '%s' (a command to run goes after --)",
				   argv[optind]);
		o->command = &argv[optind];
	}
	return check_trace_opts(o);
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
