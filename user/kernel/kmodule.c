// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel modules a recipe lives in: whether one is loaded (or built
 * in), whether it is going, and its BTF, split on the kernel's own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "kernel.h"

/* "live", "coming" or "going" for a loaded module; "" built in or absent */
static void module_state(const char *name, char *state, size_t len)
{
	char path[128];
	FILE *f;

	state[0] = '\0';
	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(state, (int)len, f))
		state[0] = '\0';
	state[strcspn(state, "\n")] = '\0';
	fclose(f);
}

static bool module_present(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return !access(path, F_OK);
}

bool kernel_module_live(const char *name)
{
	char state[16];

	module_state(name, state, sizeof(state));
	/* built in (no initstate): it never goes */
	return !strcmp(state, "live") || (!state[0] && module_present(name));
}

int kernel_facts_load_module(struct kernel_facts *kf, const char *name, char *err, size_t errlen)
{
	char path[128], state[16];
	long e;

	if (kf->mod_name[0] && !strcmp(kf->mod_name, name) && (kf->mod_btf || kf->mod_builtin))
		return 0;
	if (!module_present(name)) {
		snprintf(err, errlen, "module %s is not loaded", name);
		return -ENOENT;
	}
	snprintf(kf->mod_name, sizeof(kf->mod_name), "%s", name);
	module_state(name, state, sizeof(state));
	/* built into the kernel: its functions are in the kernel's own BTF */
	kf->mod_builtin = !state[0];
	if (kf->mod_builtin)
		return 0;
	if (kf->btf_custom) {
		snprintf(err, errlen, "--btf replaces the kernel's BTF, and module %s's is split on "
			 "the running kernel's own (/sys/kernel/btf/%s): leave --btf out", name, name);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", name);
	if (access(path, R_OK)) {
		snprintf(err, errlen, "kernel %s has no BTF for module %s (%s: %s; module BTF "
			 "needs 5.11+ and CONFIG_DEBUG_INFO_BTF_MODULES)", kf->release, name, path,
			 strerror(errno));
		return -ENODATA;
	}
	btf__free(kf->mod_btf);
	kf->mod_btf = btf__parse_split(path, kf->btf);
	e = libbpf_get_error(kf->mod_btf);
	if (e) {
		kf->mod_btf = NULL;
		snprintf(err, errlen, "%s: %s", path, strerror((int)-e));
		return (int)e;
	}
	return 0;
}
