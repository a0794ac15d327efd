// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the --btf path (user/kernel/btffile.c), which hands a
 * file pftrace was given, as root, to libbpf's BTF parser.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#include "btffile.h"

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct btf_file bf;
	char path[64], err[4200] = "";
	int fd = memfd_create("fuzz.btf", MFD_CLOEXEC);

	libbpf_set_print(quiet);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (btf_file_load(&bf, path, err, sizeof(err))) {
		if (strncmp(err, "--btf /proc/self/fd/", 20) || strchr(err, '\n') || bf.fd != -1)
			abort();
	} else {
		if (!btf_has_func(bf.btf, "schedule"))
			abort();
		btf_file_free(&bf);
	}
	close(fd);
	return 0;
}
