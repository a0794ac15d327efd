/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ELF files pftrace reads kernel text from: /proc/kcore's memory
 * segments, a vmlinux's text sections, and the build ID that says which
 * kernel a vmlinux is. Pure: libelf only, no kernel access, so it can be
 * fuzzed (tests/fuzz/fuzz_elf.c).
 */
#ifndef PFT_ELFREAD_H
#define PFT_ELFREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ELF_MAX_RANGES 256
#define BUILD_ID_MAX 64

struct elf_range {
	unsigned long addr, size;
	off_t offset;
};

struct elf_text {
	struct elf_range ranges[ELF_MAX_RANGES];
	int nranges;
	unsigned char build_id[BUILD_ID_MAX];  /* NT_GNU_BUILD_ID, if any */
	size_t build_id_len;
	bool has_banner;                       /* banner (see below) found in it */
};

/*
 * Read the ELF open on fd: PT_LOAD segments when core (kcore), else the
 * executable PROGBITS sections and the build ID. If banner is not NULL,
 * look for that exact string in the file's read-only data (the running
 * kernel's /proc/version is its linux_banner). 0, or -errno with the
 * reason ("NAME: ...") in err.
 */
int elf_text_read(int fd, const char *name, bool core, const char *banner,
		  struct elf_text *et, char *err, size_t errlen);

/* The GNU build ID in a buffer of ELF notes (/sys/kernel/notes); its length or 0. */
size_t notes_build_id(const unsigned char *notes, size_t len, unsigned char *id, size_t idmax);

/* "0a1b..." of a build ID, into buf */
const char *build_id_hex(const unsigned char *id, size_t len, char *buf, size_t buflen);

#endif
