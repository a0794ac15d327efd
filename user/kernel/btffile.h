/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The --btf FILE: raw BTF or an ELF with a .BTF section, parsed by
 * libbpf. No kernel access, so it is fuzzed on its own
 * (tests/fuzz/fuzz_btf.c) with whatever bytes a hostile file may hold.
 */
#ifndef PFT_BTFFILE_H
#define PFT_BTFFILE_H

#include <stdbool.h>
#include <stddef.h>

struct btf;

struct btf_file {
	struct btf *btf;
	int fd;                   /* open for the session; else -1 */
	char load_path[32];       /* /proc/self/fd/N: what libbpf reads */
};

/*
 * Open PATH (a regular file, never blocking), check its magic and parse
 * it; it must describe a kernel (a function "schedule"). 0, or -errno
 * with one line "--btf PATH: reason" in err and nothing left open.
 */
int btf_file_load(struct btf_file *bf, const char *path, char *err, size_t errlen);
void btf_file_free(struct btf_file *bf);

bool btf_has_func(const struct btf *btf, const char *func);

#endif
