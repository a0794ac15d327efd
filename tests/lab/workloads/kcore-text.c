// SPDX-License-Identifier: GPL-2.0
/*
 * kcore-text START END [IMAGE TEXT]: the running kernel's bytes [START,
 * END) (hex addresses from /proc/kallsyms), read from /proc/kcore by its
 * program headers, to stdout. With IMAGE, the kernel image as linked
 * whose first byte is at TEXT (_text), only the 4-byte words that differ
 * from it, as (offset from START, word) pairs of little-endian u32: what
 * boot patched, not 25 MB through a serial port. TEXT "-" is for a
 * kallsyms without _text (arm64 6.1): START is then _stext, 64 KiB into
 * the Image (arch/arm64/kernel/vmlinux.lds.S aligns it past the head).
 * The arm64 lab hands them to objdump on the host: the very text pftrace
 * sites scanned.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int kcore = -1, image = -1;
static Elf64_Ehdr eh;

/* where ADDR lies in /proc/kcore, and how many bytes follow it there */
static unsigned long long kcore_offset(unsigned long long addr, unsigned long long *avail)
{
	Elf64_Phdr ph;
	int i;

	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(kcore, &ph, sizeof(ph), (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize)) !=
		    sizeof(ph))
			break;
		if (ph.p_type == PT_LOAD && addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			*avail = ph.p_vaddr + ph.p_filesz - addr;
			return ph.p_offset + (addr - ph.p_vaddr);
		}
	}
	*avail = 0;
	return 0;
}

/* the words of BUF (LEN bytes at START + AT) unlike IMAGE's at SKIP + AT */
static int put_differences(const char *buf, size_t len, unsigned long long at, unsigned long long skip)
{
	static char linked[1 << 16];
	size_t i;

	if (pread(image, linked, len, (off_t)(skip + at)) != (ssize_t)len)
		memset(linked, 0, len);          /* past the image's end: all differ */
	for (i = 0; i + 4 <= len; i += 4) {
		uint32_t pair[2];

		if (!memcmp(buf + i, linked + i, 4))
			continue;
		pair[0] = (uint32_t)(at + i);
		memcpy(&pair[1], buf + i, 4);
		if (fwrite(pair, sizeof(pair), 1, stdout) != 1)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long start, end, at, skip = 0;
	static char buf[1 << 16];

	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: kcore-text START END [IMAGE TEXT]\n");
		return 2;
	}
	start = strtoull(argv[1], NULL, 16);
	end = strtoull(argv[2], NULL, 16);
	kcore = open("/proc/kcore", O_RDONLY);
	if (kcore < 0 || pread(kcore, &eh, sizeof(eh), 0) != sizeof(eh)) {
		perror("kcore-text: /proc/kcore");
		return 1;
	}
	if (argc == 5) {
		image = open(argv[3], O_RDONLY);
		skip = strcmp(argv[4], "-") ? start - strtoull(argv[4], NULL, 16) : 0x10000;
		if (image < 0) {
			perror(argv[3]);
			return 1;
		}
	}
	for (at = start; at < end; ) {
		unsigned long long avail, off = kcore_offset(at, &avail);

		if (!avail) {
			fprintf(stderr, "kcore-text: %#llx is in no segment of /proc/kcore\n", at);
			return 1;
		}
		if (avail > end - at)
			avail = end - at;
		if (avail > sizeof(buf))
			avail = sizeof(buf);
		if (pread(kcore, buf, avail, (off_t)off) != (ssize_t)avail ||
		    (image < 0 ? fwrite(buf, 1, avail, stdout) != avail :
				 put_differences(buf, avail, at - start, skip))) {
			perror("kcore-text");
			return 1;
		}
		at += avail;
	}
	return 0;
}
