// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the ELF reader behind /proc/kcore and --vmlinux
 * (user/kernel/elfread.c), on any bytes, read both as a core file and as a
 * vmlinux, with and without a banner to look for.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elfread.h"

static void read_as(int fd, bool core, const char *banner)
{
	struct elf_text et;
	char err[512] = "";
	int i;

	if (elf_text_read(fd, "fuzz.elf", core, banner, &et, err, sizeof(err))) {
		/* every refusal is one line naming the file */
		if (strncmp(err, "fuzz.elf", 8) || strchr(err, '\n'))
			abort();
		return;
	}
	if (et.nranges < 0 || et.nranges > ELF_MAX_RANGES || et.build_id_len > BUILD_ID_MAX)
		abort();
	for (i = 0; i < et.nranges; i++)
		if (et.ranges[i].offset < 0 || et.ranges[i].addr + et.ranges[i].size < et.ranges[i].addr)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char id[BUILD_ID_MAX];
	int fd = memfd_create("fuzz.elf", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	read_as(fd, true, NULL);
	read_as(fd, false, NULL);
	read_as(fd, false, "Linux version 6.12.0");
	close(fd);
	if (notes_build_id(data, size, id, sizeof(id)) > sizeof(id))
		abort();
	return 0;
}
