/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMU events by the names the kernel lists in sysfs, as perf takes them:
 * "armv8_pmuv3/stall_backend/" or a bare "stall_backend" (the first PMU
 * under /sys/bus/event_source/devices/ that lists it). The event file
 * ("event=0x24") and the PMU's format files ("config:0-15") give the
 * perf_event_attr's type and config words.
 */
#ifndef PFT_PMU_SYSFS_H
#define PFT_PMU_SYSFS_H

#include <linux/types.h>

struct pmu_event {
	__u32 type;
	__u64 config[3];      /* config, config1, config2 */
	char pmu[64];
};

/* 0; -ENOENT when no PMU lists NAME; -EINVAL for a name or file that does not parse */
int pmu_sysfs_event(const char *name, struct pmu_event *ev);
/* The same under another sysfs root (tests). */
int pmu_sysfs_event_at(const char *devices, const char *name, struct pmu_event *ev);

#endif
