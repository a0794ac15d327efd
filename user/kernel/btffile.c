// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btffile.h"
#include "fileio.h"

bool btf_has_func(const struct btf *btf, const char *func)
{
	return btf && btf__find_by_name_kind(btf, func, BTF_KIND_FUNC) > 0;
}

void btf_file_free(struct btf_file *bf)
{
	btf__free(bf->btf);
	bf->btf = NULL;
	if (bf->fd >= 0)
		close(bf->fd);
	bf->fd = -1;
}

/*
 * The file stays open for the session, and libbpf reads it again
 * through /proc/self/fd, so what it parses is what was checked here.
 */
int btf_file_load(struct btf_file *bf, const char *path, char *err, size_t errlen)
{
	static const unsigned char raw_magic[2] = { 0x9f, 0xeb }, elf_magic[4] = { 0x7f, 'E', 'L', 'F' };
	unsigned char head[4];
	ssize_t n;
	long e;

	memset(bf, 0, sizeof(*bf));
	bf->fd = open_regular("--btf", path, NULL, err, errlen);
	if (bf->fd < 0) {
		int rc = bf->fd;

		bf->fd = -1;
		return rc;
	}
	snprintf(bf->load_path, sizeof(bf->load_path), "/proc/self/fd/%d", bf->fd);
	n = pread(bf->fd, head, sizeof(head), 0);
	if (n <= 0) {
		snprintf(err, errlen, "--btf %s: %s", shown_path(path), n ? strerror(errno) : "is empty");
		btf_file_free(bf);
		return -EINVAL;
	}
	if (!(n >= 2 && !memcmp(head, raw_magic, 2)) && !(n == 4 && !memcmp(head, elf_magic, 4))) {
		snprintf(err, errlen, "--btf %s: not a kernel BTF (neither raw BTF nor an ELF file)",
			 shown_path(path));
		btf_file_free(bf);
		return -EINVAL;
	}
	bf->btf = btf__parse(bf->load_path, NULL);
	e = libbpf_get_error(bf->btf);
	if (e)
		bf->btf = NULL;
	if (e || !btf__type_cnt(bf->btf) || !btf_has_func(bf->btf, "schedule")) {
		snprintf(err, errlen, "--btf %s: not a kernel BTF (%s)", shown_path(path),
			 e ? "libbpf cannot parse its BTF" : "no kernel functions in it");
		btf_file_free(bf);
		return -EINVAL;
	}
	return 0;
}
