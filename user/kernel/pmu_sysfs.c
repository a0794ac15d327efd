// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu_sysfs.h"

#define DEVICES "/sys/bus/event_source/devices"

/* names become path components: letters, digits, _ . - only, no "." or ".." */
static bool plain_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len > 63 || s[0] == '.')
		return false;
	for (i = 0; i < len; i++)
		if (!(s[i] == '_' || s[i] == '-' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	return true;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return -ENOENT;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EINVAL;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* VALUE's bits laid into the config word that FORMAT ("config1:0-7,32-35") names */
static int place_bits(const char *format, __u64 value, __u64 config[3])
{
	const char *p = strchr(format, ':');
	int word, shift = 0;

	if (!strncmp(format, "config:", 7))
		word = 0;
	else if (!strncmp(format, "config1:", 8))
		word = 1;
	else if (!strncmp(format, "config2:", 8))
		word = 2;
	else
		return -EINVAL;
	for (p++; *p; ) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;
		__u64 mask;
		int width;

		if (end == p)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				return -EINVAL;
		}
		if (lo < 0 || hi < lo || hi > 63 || shift + (hi - lo + 1) > 64)
			return -EINVAL;
		width = (int)(hi - lo + 1);   /* and shift + width <= 64: shift < 64 */
		mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
		config[word] |= ((value >> shift) & mask) << lo;
		shift += width;
		if (*end == ',')
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return 0;
}

/* "event=0x24,umask=0x1" with the PMU's format files */
static int encode(const char *pmu_dir, char *terms, struct pmu_event *ev)
{
	char *save = NULL, *term, format[256], path[512];

	for (term = strtok_r(terms, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '='), *end;
		__u64 value = 1;                        /* a bare term is a flag */

		if (eq) {
			*eq = '\0';
			value = strtoull(eq + 1, &end, 0);
			if (end == eq + 1 || *end)
				return -EINVAL;
		}
		if (!plain_name(term, strlen(term)))
			return -EINVAL;
		snprintf(path, sizeof(path), "%s/format/%s", pmu_dir, term);
		if (read_line(path, format, sizeof(format)) || place_bits(format, value, ev->config))
			return -EINVAL;
	}
	return 0;
}

static int event_of(const char *devices, const char *pmu, const char *event, struct pmu_event *ev)
{
	char dir[256], path[512], terms[256], type[32], *end;
	int rc;

	snprintf(dir, sizeof(dir), "%s/%s", devices, pmu);
	snprintf(path, sizeof(path), "%s/events/%s", dir, event);
	rc = read_line(path, terms, sizeof(terms));
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/type", dir);
	if (read_line(path, type, sizeof(type)))
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ev->type = (__u32)strtoul(type, &end, 10);
	if (end == type || *end)
		return -EINVAL;
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pmu);
	return encode(dir, terms, ev);
}

int pmu_sysfs_event_at(const char *devices, const char *name, struct pmu_event *ev)
{
	const char *slash = strchr(name, '/');
	char pmu[64], event[64];
	struct dirent **list = NULL;
	int rc = -ENOENT, n, i;

	if (slash) {                              /* PMU/EVENT/ */
		size_t plen = (size_t)(slash - name), elen = strlen(slash + 1);

		if (elen && slash[elen] == '/')
			elen--;
		if (!plain_name(name, plen) || !plain_name(slash + 1, elen))
			return -EINVAL;
		snprintf(pmu, sizeof(pmu), "%.*s", (int)plen, name);
		snprintf(event, sizeof(event), "%.*s", (int)elen, slash + 1);
		return event_of(devices, pmu, event, ev);
	}
	if (!plain_name(name, strlen(name)))
		return -EINVAL;
	/* by name, so that the same machine always gives the same PMU */
	n = scandir(devices, &list, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (rc == -ENOENT && list[i]->d_name[0] != '.')
			rc = event_of(devices, list[i]->d_name, name, ev);
		free(list[i]);
	}
	free(list);
	return rc;
}

int pmu_sysfs_event(const char *name, struct pmu_event *ev)
{
	return pmu_sysfs_event_at(DEVICES, name, ev);
}
