// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "cpu.h"

/* arm64 cores pftrace is likely to meet (the kernel's cputype.h, lscpu) */
static const struct {
	int implementer, part;
	const char *name;
} arm64_parts[] = {
	{ 0x41, 0xd03, "ARM Cortex-A53" },   { 0x41, 0xd08, "ARM Cortex-A72" },
	{ 0x41, 0xd0b, "ARM Cortex-A76" },   { 0x41, 0xd0c, "ARM Neoverse-N1" },
	{ 0x41, 0xd40, "ARM Neoverse-V1" },  { 0x41, 0xd49, "ARM Neoverse-N2" },
	{ 0x41, 0xd4f, "ARM Neoverse-V2" },  { 0x41, 0xd83, "ARM Neoverse-V3AE" },
	{ 0x41, 0xd84, "ARM Neoverse-V3" },  { 0x41, 0xd8e, "ARM Neoverse-N3" },
	{ 0x48, 0xd01, "HiSilicon Kunpeng-920" }, { 0x46, 0x001, "Fujitsu A64FX" },
	{ 0xc0, 0xac3, "AmpereOne" },        { 0x61, 0x022, "Apple M1" },
};

/* "CPU part\t: 0xd0c" -> 0xd0c; -1 when KEY is not this line's */
static int hex_field(const char *line, const char *key)
{
	const char *colon = strchr(line, ':');
	char *end;
	long v;

	if (strncmp(line, key, strlen(key)) || !colon)
		return -1;
	v = strtol(colon + 1, &end, 16);
	return end == colon + 1 || v < 0 || v > 0xffff ? -1 : (int)v;
}

void cpu_id_parse(FILE *f, struct cpu_id *id)
{
	char line[512];
	int v;

	memset(id, 0, sizeof(*id));
	id->implementer = id->part = -1;
	while (f && fgets(line, sizeof(line), f)) {
		const char *colon = strchr(line, ':');

		if (line[0] == '\n' && (id->model[0] || id->part >= 0))
			break;                          /* the first CPU only */
		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(id->model, sizeof(id->model), "%s", colon + (colon[1] == ' ' ? 2 : 1));
			id->model[strcspn(id->model, "\n")] = '\0';
		} else if ((v = hex_field(line, "CPU implementer")) >= 0) {
			id->implementer = v;
		} else if ((v = hex_field(line, "CPU part")) >= 0) {
			id->part = v;
		}
	}
	for (v = 0; !id->model[0] && v < (int)(sizeof(arm64_parts) / sizeof(arm64_parts[0])); v++)
		if (arm64_parts[v].implementer == id->implementer && arm64_parts[v].part == id->part)
			snprintf(id->model, sizeof(id->model), "%s", arm64_parts[v].name);
}

void cpu_id_read(struct cpu_id *id)
{
	FILE *f = fopen("/proc/cpuinfo", "r");

	cpu_id_parse(f, id);
	if (f)
		fclose(f);
}

bool cpu_id_emulated(const struct cpu_id *id)
{
	return id->implementer == 0;
}

void cpu_id_describe(const struct cpu_id *id, char *buf, size_t len)
{
	if (id->implementer < 0)
		snprintf(buf, len, "%s", id->model);
	else if (cpu_id_emulated(id))
		snprintf(buf, len, "an emulated CPU (implementer 0x00, part 0x%03x)", id->part);
	else if (id->model[0])
		snprintf(buf, len, "%s (implementer 0x%02x, part 0x%03x)", id->model, id->implementer,
			 id->part);
	else
		snprintf(buf, len, "implementer 0x%02x, part 0x%03x", id->implementer, id->part);
}
