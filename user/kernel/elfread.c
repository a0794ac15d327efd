// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "elfread.h"
#include "fileio.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

size_t notes_build_id(const unsigned char *notes, size_t len, unsigned char *id, size_t idmax)
{
	size_t off = 0;

	/* Elf64_Nhdr and Elf32_Nhdr are alike: three 4-byte words, name, desc */
	while (off + 12 <= len) {
		unsigned int namesz, descsz, type;
		size_t name_off, desc_off, next;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		name_off = off + 12;
		desc_off = name_off + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_off + (((size_t)descsz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || desc_off > len || next > len || next <= off)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(notes + name_off, "GNU", 4) &&
		    descsz && descsz <= idmax) {
			memcpy(id, notes + desc_off, descsz);
			return descsz;
		}
		off = next;
	}
	return 0;
}

const char *build_id_hex(const unsigned char *id, size_t len, char *buf, size_t buflen)
{
	size_t i, out = 0;

	buf[0] = '\0';
	for (i = 0; i < len && out + 3 <= buflen; i++)
		out += (size_t)snprintf(buf + out, buflen - out, "%02x", id[i]);
	return buf;
}

/*
 * A range that wraps past the end of the address space or of the file
 * describes no memory: reading through it would compute offsets that
 * never were (found by tests/fuzz/fuzz_elf.c).
 */
static void add_range(struct elf_text *et, unsigned long addr, unsigned long size, off_t offset)
{
	unsigned long end;
	off_t last;

	if (offset < 0 || __builtin_add_overflow(addr, size, &end) ||
	    __builtin_add_overflow(offset, (off_t)size, &last) || (off_t)size < 0)
		return;
	if (et->nranges < ELF_MAX_RANGES)
		et->ranges[et->nranges++] = (struct elf_range){ addr, size, offset };
}

/* notes and the banner, from one section */
static void scan_section(Elf_Scn *scn, const GElf_Shdr *sh, const char *banner, struct elf_text *et)
{
	Elf_Data *d;
	size_t blen;

	if (sh->sh_type == SHT_NOTE && !et->build_id_len) {
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf)
			et->build_id_len = notes_build_id(d->d_buf, d->d_size, et->build_id,
							  sizeof(et->build_id));
	}
	if (banner && !et->has_banner && sh->sh_type == SHT_PROGBITS &&
	    (sh->sh_flags & SHF_ALLOC) && !(sh->sh_flags & (SHF_EXECINSTR | SHF_WRITE))) {
		d = elf_getdata(scn, NULL);
		blen = strlen(banner);
		if (d && d->d_buf && blen && memmem(d->d_buf, d->d_size, banner, blen))
			et->has_banner = true;
	}
}

int elf_text_read(int fd, const char *name, bool core, const char *banner,
		  struct elf_text *et, char *err, size_t errlen)
{
	unsigned char ident[4];
	Elf *elf;
	size_t n, i;
	int rc = 0;

	memset(et, 0, sizeof(*et));
	elf_version(EV_CURRENT);
	if (pread(fd, ident, sizeof(ident), 0) != (ssize_t)sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG)) {
		snprintf(err, errlen, "%s: not an ELF file", shown_path(name));
		return -EINVAL;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s: not a readable ELF file (%s)", shown_path(name), elf_errmsg(-1));
		if (elf)
			elf_end(elf);
		return -EINVAL;
	}
	if (core) {
		if (elf_getphdrnum(elf, &n)) {
			snprintf(err, errlen, "%s: no program headers", shown_path(name));
			rc = -EINVAL;
			goto out;
		}
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
				add_range(et, ph.p_vaddr, ph.p_filesz, (off_t)ph.p_offset);
		}
	} else {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh))
				continue;
			scan_section(scn, &sh, banner, et);
			if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR))
				add_range(et, sh.sh_addr, sh.sh_size, (off_t)sh.sh_offset);
		}
	}
	if (!et->nranges) {
		snprintf(err, errlen, "%s: no %s in it", shown_path(name), core ? "memory segments" : "text sections");
		rc = -EINVAL;
	}
out:
	elf_end(elf);
	return rc;
}
