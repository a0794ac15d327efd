/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU, as /proc/cpuinfo says: x86's "model name"; arm64 has none, so
 * its "CPU implementer" and "CPU part" (MIDR_EL1), named where known.
 * Implementer 0x00 is reserved for software: QEMU's -cpu max, whose PMU
 * counts cycles of QEMU's virtual clock, not of a core.
 */
#ifndef PFT_CPU_H
#define PFT_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cpu_id {
	char model[128];      /* "Intel(R) Xeon(R) ...", "ARM Neoverse-N1", "" */
	int implementer;      /* arm64's MIDR implementer, or -1 */
	int part;             /* arm64's MIDR part number, or -1 */
};

/* Read the first CPU's identity from a cpuinfo stream. */
void cpu_id_parse(FILE *cpuinfo, struct cpu_id *id);
/* From /proc/cpuinfo. */
void cpu_id_read(struct cpu_id *id);
/* One line for the run file's machine: the model, or arm64's named MIDR fields. */
void cpu_id_describe(const struct cpu_id *id, char *buf, size_t len);
/* An emulator's CPU (arm64 implementer 0x00): its PMU's cycles are not a core's. */
bool cpu_id_emulated(const struct cpu_id *id);

#endif
