// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <perfmon/pfmlib_perf_event.h>

#include "kernel.h"
#include "caps.h"
#include "pmu_sysfs.h"
#include "sampling.h"
#include "sample.skel.h"

/* perf's own names for the events people ask for; the rest go to libpfm4 */
static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} common_events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_DTLB |
		(PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16) },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D |
		(PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16) },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
};

int sample_event_parse(const char *name, struct perf_event_attr *attr, char *err, size_t errlen)
{
	pfm_perf_encode_arg_t arg;
	struct pmu_event ev;
	size_t i;
	int rc;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	for (i = 0; i < sizeof(common_events) / sizeof(common_events[0]); i++) {
		if (strcmp(common_events[i].name, name))
			continue;
		attr->type = common_events[i].type;
		attr->config = common_events[i].config;
		return 0;
	}
	/* the kernel's own list (perf list's names): "stall_backend", "armv8_pmuv3/stall/" */
	if (!pmu_sysfs_event(name, &ev)) {
		attr->type = ev.type;
		attr->config = ev.config[0];
		attr->config1 = ev.config[1];
		attr->config2 = ev.config[2];
		return 0;
	}
	/* raw PMU names ("INST_RETIRED.ANY", "amd64::...") from libpfm4's tables */
	rc = pfm_initialize();
	if (rc == PFM_SUCCESS) {
		memset(&arg, 0, sizeof(arg));
		arg.attr = attr;
		arg.size = sizeof(arg);
		rc = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
		attr->size = sizeof(*attr);
		if (rc == PFM_SUCCESS)
			return 0;
	}
	snprintf(err, errlen, "-e %s: unknown event (perf names: cycles, instructions, "
		 "cache-misses, dTLB-load-misses, L1-dcache-load-misses, cpu-clock; a PMU's event "
		 "in /sys/bus/event_source/devices/PMU/events, as EVENT or PMU/EVENT/; or a PMU "
		 "event libpfm4 knows: %s)", name, pfm_strerror(rc));
	return 2;
}

int sample_freq_check(long hz, char *err, size_t errlen)
{
	long max = 100000;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 100000;
		fclose(f);
	}
	if (hz < 1 || hz > max) {
		snprintf(err, errlen, "-F %ld: out of range (1 to %ld, the kernel's "
			 "perf_event_max_sample_rate)", hz, max);
		return 2;
	}
	return 0;
}

struct sampler {
	struct sample_bpf *skel;
	int fds[1024];
	struct bpf_link *links[1024];
	int n;
	struct sample_result res;
};

static int open_event(struct perf_event_attr *attr, int cpu)
{
	return (int)syscall(__NR_perf_event_open, attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * Check that EVENT opens here; a hardware event that this machine
 * cannot count becomes cpu-clock, and the result says so.
 */
static int event_or_fallback(struct sampler *s, const char *event, struct perf_event_attr *attr,
			     char *err, size_t errlen)
{
	int fd = open_event(attr, 0);

	if (fd < 0 && attr->type != PERF_TYPE_SOFTWARE &&
	    (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV || errno == EINVAL)) {
		snprintf(s->res.note, sizeof(s->res.note), "%s is not supported on this machine "
			 "(no hardware PMU); sampled cpu-clock instead", event);
		s->res.fallback = true;
		snprintf(s->res.event, sizeof(s->res.event), "cpu-clock");
		attr->type = PERF_TYPE_SOFTWARE;
		attr->config = PERF_COUNT_SW_CPU_CLOCK;
		attr->config1 = attr->config2 = 0;
		fd = open_event(attr, 0);
	}
	if (fd < 0) {
		snprintf(err, errlen, "-e %s: cannot open the perf event: %s%s", event,
			 strerror(errno), perf_denied_why(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* CPUs present (a list such as "0-3,5"), online or not; 0 when unreadable */
static int present_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/present", "r");
	int lo, hi, n = 0;
	char sep;

	if (!f)
		return 0;
	while (fscanf(f, "%d", &lo) == 1) {
		hi = lo;
		if (fscanf(f, "%c", &sep) == 1 && sep == '-' && fscanf(f, "%d%c", &hi, &sep) < 1)
			break;
		if (hi >= lo && hi - lo < 65536)
			n += hi - lo + 1;
		if (sep != ',')
			break;
	}
	fclose(f);
	return n;
}

/*
 * A perf event for one CPU opens only while that CPU is online, and one
 * that comes online later has none: the samples are of the CPUs online
 * at the start. Said on stderr and in the result's note.
 */
static void note_unsampled_cpus(struct sampler *s, int present)
{
	size_t used = strlen(s->res.note);
	char line[128];

	snprintf(line, sizeof(line), "sampled %d of %d CPUs: the others were offline at the "
		 "start, and are not sampled if they come online", s->n, present);
	fprintf(stderr, "pftrace: %s\n", line);
	snprintf(s->res.note + used, sizeof(s->res.note) - used, "%s%s", used ? "; " : "", line);
}

/* One event per online CPU, each running the sampling program. */
static int attach_per_cpu(struct sampler *s, const char *event, struct perf_event_attr *attr,
			  char *err, size_t errlen)
{
	int cpu, ncpus = libbpf_num_possible_cpus(), fd, open_errno = 0, present;

	for (cpu = 0; cpu < ncpus && s->n < 1024; cpu++) {
		fd = open_event(attr, cpu);
		if (fd < 0) {
			open_errno = errno;
			continue;   /* an offline CPU */
		}
		s->fds[s->n] = fd;
		s->links[s->n] = bpf_program__attach_perf_event(s->skel->progs.on_sample, fd);
		if (!s->links[s->n]) {
			snprintf(err, errlen, "sampling: attaching to cpu %d: %s", cpu, kerr_str(errno));
			close(fd);
			return -1;
		}
		s->n++;
	}
	/*
	 * None at all is no offline CPU: the kernel lowered
	 * perf_event_max_sample_rate under -F since the check (it does when
	 * its sample interrupts run long, as under QEMU's TCG), or refused.
	 */
	if (!s->n) {
		snprintf(err, errlen, "-e %s: the perf event opens on no CPU: %s%s", event,
			 strerror(open_errno), open_errno == EINVAL ?
			 " (-F above kernel.perf_event_max_sample_rate now?)" : "");
		return -1;
	}
	s->res.cpus = s->n;
	present = present_cpus();
	if (s->n < present)
		note_unsampled_cpus(s, present);
	return 0;
}

struct sampler *sampler_start(const char *event, int freq, const unsigned long ranges[][2],
			      int nranges, bool paused, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	struct sampler *s = calloc(1, sizeof(*s));
	int i;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sample_event_parse(event, &attr, err, errlen))
		goto fail;
	snprintf(s->res.asked, sizeof(s->res.asked), "%s", event);
	snprintf(s->res.event, sizeof(s->res.event), "%s", event);
	s->res.freq = freq;
	attr.freq = 1;
	attr.sample_freq = (__u64)freq;
	attr.disabled = 0;
	if (event_or_fallback(s, event, &attr, err, errlen))
		goto fail;
	attr.disabled = paused;

	s->skel = sample_bpf__open();
	if (!s->skel) {
		snprintf(err, errlen, "sampling: cannot open the BPF object: %s", strerror(errno));
		goto fail;
	}
	for (i = 0; i < nranges && i < PFT_SAMPLE_RANGES; i++) {
		s->skel->rodata->range_lo[i] = ranges[i][0];
		s->skel->rodata->range_hi[i] = ranges[i][1];
	}
	s->skel->rodata->nranges = (__u32)i;
	s->skel->rodata->whole_kernel = nranges == 0;
	if (sample_bpf__load(s->skel)) {
		snprintf(err, errlen, "sampling: the kernel refused the perf_event program: %s",
			 kerr_str(errno));
		goto fail;
	}
	if (attach_per_cpu(s, event, &attr, err, errlen))
		goto fail;
	return s;
fail:
	sampler_free(s);
	return NULL;
}

void sampler_resume(struct sampler *s)
{
	int i;

	for (i = 0; s && i < s->n; i++)
		ioctl(s->fds[i], PERF_EVENT_IOC_ENABLE, 0);
}

static int ip_cmp(const void *a, const void *b)
{
	const struct ip_count *x = a, *y = b;

	return (x->ip > y->ip) - (x->ip < y->ip);
}

int sampler_finish(struct sampler *s, struct sample_result *out)
{
	struct sample_counts *percpu;
	int fd, i, ncpus = libbpf_num_possible_cpus(), cap = 0;
	__u64 key, next, count;
	void *prev = NULL;
	__u32 zero = 0;

	for (i = 0; i < s->n; i++) {
		bpf_link__destroy(s->links[i]);
		close(s->fds[i]);
		s->links[i] = NULL;
		s->fds[i] = -1;
	}
	s->n = 0;
	percpu = calloc((size_t)ncpus, sizeof(*percpu));
	if (percpu && !bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.sample_counts), &zero, percpu)) {
		for (i = 0; i < ncpus; i++) {
			s->res.counts.total += percpu[i].total;
			s->res.counts.kernel += percpu[i].kernel;
			s->res.counts.kept += percpu[i].kept;
			s->res.counts.dropped += percpu[i].dropped;
		}
	}
	free(percpu);
	fd = bpf_map__fd(s->skel->maps.ip_samples);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &count))
			continue;
		if (s->res.nips == cap) {
			struct ip_count *nv;

			cap = cap ? 2 * cap : 1024;
			nv = realloc(s->res.ips, (size_t)cap * sizeof(*nv));
			if (!nv)
				break;
			s->res.ips = nv;
		}
		s->res.ips[s->res.nips++] = (struct ip_count){ (unsigned long)key, count };
	}
	if (s->res.nips)
		qsort(s->res.ips, (size_t)s->res.nips, sizeof(*s->res.ips), ip_cmp);
	*out = s->res;
	s->res.ips = NULL;   /* now the caller's */
	return 0;
}

void sampler_free(struct sampler *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		bpf_link__destroy(s->links[i]);
		close(s->fds[i]);
	}
	sample_bpf__destroy(s->skel);
	free(s->res.ips);
	free(s);
}

void sample_result_free(struct sample_result *r)
{
	free(r->ips);
	r->ips = NULL;
	r->nips = 0;
}

__u64 samples_in(const struct sample_result *r, unsigned long lo, unsigned long hi)
{
	__u64 n = 0;
	int i;

	for (i = 0; i < r->nips; i++)
		if (r->ips[i].ip >= lo && r->ips[i].ip < hi)
			n += r->ips[i].count;
	return n;
}

__u64 samples_at(const struct sample_result *r, unsigned long ip)
{
	return samples_in(r, ip, ip + 1);
}

/*
 * Start-up knows only where each function starts (its address came with
 * the recipes' symbols, through BPF where the kernel offers it): a
 * function's end needs the next symbol, which only a read of all of
 * /proc/kallsyms tells, and that read was most of pftrace's start-up
 * (~1 s of 1.8 under QEMU). So the sampler keeps the first
 * PFT_SAMPLE_FN_BYTES from each start, and sample_result_trim() cuts
 * to the true extent once kallsyms is read, after the trace.
 */
struct sampler *sampler_start_traced(const char *event, int freq, struct ksyms *ks,
				     const char *const *names, int n, char *err, size_t errlen)
{
	unsigned long ranges[PFT_SAMPLE_RANGES][2];
	int i, nranges = 0;

	for (i = 0; i < n && nranges < PFT_SAMPLE_RANGES; i++) {
		unsigned long addr = 0;

		if (ksyms_address(ks, names[i], "tT", &addr) && addr) {
			ranges[nranges][0] = addr;
			ranges[nranges][1] = addr + PFT_SAMPLE_FN_BYTES;
			nranges++;
		}
	}
	if (!nranges) {
		snprintf(err, errlen, "no traced function's address in /proc/kallsyms");
		return NULL;
	}
	return sampler_start(event, freq, ranges, nranges, true, err, errlen);
}

void sample_result_trim(struct sample_result *r, const struct kfunc *const *fns, int n)
{
	__u64 kept = 0;
	int i, j, nips = 0;

	for (j = 0; j < r->nips; j++) {
		for (i = 0; i < n; i++) {
			const struct kfunc *f = fns[i];

			if (f && r->ips[j].ip >= f->addr && r->ips[j].ip < f->addr + f->size)
				break;
		}
		if (i == n)
			continue;
		kept += r->ips[j].count;
		r->ips[nips++] = r->ips[j];
	}
	r->nips = nips;
	r->counts.kept = kept;
	for (i = 0; i < n; i++) {
		const struct kfunc *f = fns[i];

		if (f && f->size > PFT_SAMPLE_FN_BYTES && !r->note[0])
			snprintf(r->note, sizeof(r->note), "%s is %lu bytes; samples past its first "
				 "%d were not kept", f->name, f->size, PFT_SAMPLE_FN_BYTES);
	}
}
