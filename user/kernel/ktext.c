// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "elfread.h"
#include "fileio.h"
#include "kernel.h"
#include "ktext.h"
#include "pftrace.h"
#include "ktext.skel.h"

struct ktext {
	enum ktext_source source;
	int fd;
	struct elf_text elf;               /* kcore PT_LOADs, vmlinux sections */
	long slide;                        /* vmlinux: running = linked + slide */
	struct ktext_bpf *skel;
	char desc[300];
};

static int elf_ranges(struct ktext *kt, const char *what, const char *path, bool core,
		      const char *banner, char *err, size_t errlen)
{
	char name[4200];

	kt->fd = open_regular(what, path, NULL, err, errlen);
	if (kt->fd < 0)
		return kt->fd;
	snprintf(name, sizeof(name), "%s%s%s", what, *what ? " " : "", path);
	return elf_text_read(kt->fd, name, core, banner, &kt->elf, err, errlen);
}

/*
 * Is the vmlinux the running kernel? Its build ID against the one in
 * /sys/kernel/notes; where either has none, the running kernel's banner
 * (/proc/version) must be in its read-only data. Text from another
 * build would be annotated at the wrong addresses without a word.
 */
static int check_running_kernel(const struct ktext *kt, const char *path,
				const unsigned char *running_id, size_t running_len,
				char *err, size_t errlen)
{
	char a[2 * BUILD_ID_MAX + 1], b[2 * BUILD_ID_MAX + 1];

	if (running_len && kt->elf.build_id_len) {
		if (running_len == kt->elf.build_id_len &&
		    !memcmp(running_id, kt->elf.build_id, running_len))
			return 0;
		snprintf(err, errlen, "--vmlinux %s: build ID %s is not the running kernel's (%s)",
			 shown_path(path), build_id_hex(kt->elf.build_id, kt->elf.build_id_len, a, sizeof(a)),
			 build_id_hex(running_id, running_len, b, sizeof(b)));
		return -EINVAL;
	}
	if (kt->elf.has_banner)
		return 0;
	snprintf(err, errlen, "--vmlinux %s: not the running kernel (%s, and /proc/version's "
		 "banner is not in it)", shown_path(path), kt->elf.build_id_len ? "the running kernel has no "
		 "build ID" : "it has no build ID");
	return -EINVAL;
}

static int open_kcore(struct ktext *kt, char *err, size_t errlen)
{
	int rc = elf_ranges(kt, "", "/proc/kcore", true, NULL, err, errlen);

	snprintf(kt->desc, sizeof(kt->desc), "/proc/kcore");
	return rc;
}

/*
 * The KASLR slide: where _stext runs (kallsyms) minus where it was
 * linked (the first text section of the file, which _stext opens).
 */
static int open_vmlinux(struct ktext *kt, const char *path, struct ksyms *ks, char *err,
			size_t errlen)
{
	unsigned long stext = 0, linked = ~0UL;
	unsigned char running_id[BUILD_ID_MAX], *notes = NULL;
	char *banner = NULL, *nl;
	size_t running_len = 0, len;
	char ignored[PFT_ERRLEN];
	int rc, i;

	if (!read_regular_file("", "/sys/kernel/notes", 1 << 16, (char **)&notes, &len,
			       ignored, sizeof(ignored)))
		running_len = notes_build_id(notes, len, running_id, sizeof(running_id));
	free(notes);
	if (!read_regular_file("", "/proc/version", 4096, &banner, &len, ignored, sizeof(ignored)) &&
	    (nl = strchr(banner, '\n')))
		nl[1] = '\0';   /* linux_banner ends in the newline too */
	rc = elf_ranges(kt, "--vmlinux", path, false, banner, err, errlen);
	free(banner);
	if (!rc)
		rc = check_running_kernel(kt, path, running_id, running_len, err, errlen);
	if (rc)
		return rc;
	for (i = 0; i < kt->elf.nranges; i++)
		if (kt->elf.ranges[i].addr < linked)
			linked = kt->elf.ranges[i].addr;
	if (!ksyms_address(ks, "_stext", "tT", &stext) || !stext) {
		snprintf(err, errlen, "%s: cannot place it: _stext not in /proc/kallsyms", shown_path(path));
		return -ENOENT;
	}
	kt->slide = (long)(stext - linked);
	snprintf(kt->desc, sizeof(kt->desc), "%s (as linked: live patches not seen)", path);
	return 0;
}

static int open_bpf(struct ktext *kt, char *err, size_t errlen)
{
	kt->skel = ktext_bpf__open_and_load();
	if (!kt->skel) {
		snprintf(err, errlen, "reading kernel text through BPF: %s", kerr_str(errno));
		return -errno;
	}
	snprintf(kt->desc, sizeof(kt->desc), "BPF (bpf_probe_read_kernel)");
	return 0;
}

struct ktext *ktext_open(enum ktext_source want, const char *vmlinux, struct ksyms *ks,
			 char *err, size_t errlen)
{
	struct ktext *kt = calloc(1, sizeof(*kt));
	char why_kcore[PFT_ERRLEN] = "";
	int rc;

	if (!kt) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	kt->fd = -1;
	if (vmlinux)
		want = KTEXT_VMLINUX;
	switch (want) {
	case KTEXT_KCORE:
		rc = open_kcore(kt, err, errlen);
		break;
	case KTEXT_VMLINUX:
		rc = open_vmlinux(kt, vmlinux, ks, err, errlen);
		break;
	case KTEXT_BPF:
		rc = open_bpf(kt, err, errlen);
		break;
	default:
		rc = open_kcore(kt, why_kcore, sizeof(why_kcore));
		if (rc) {
			if (kt->fd >= 0)
				close(kt->fd);
			kt->fd = -1;
			kt->elf.nranges = 0;
			rc = open_bpf(kt, err, errlen);
			if (rc)
				snprintf(err + strlen(err), errlen - strlen(err), " (and %s)", why_kcore);
		}
	}
	if (rc) {
		ktext_close(kt);
		return NULL;
	}
	kt->source = want;
	return kt;
}

int ktext_read(struct ktext *kt, unsigned long addr, void *buf, size_t len)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	unsigned long at;
	size_t done = 0;
	int i;

	if (kt->skel) {
		while (done < len) {
			__u32 n = (__u32)(len - done > PFT_KTEXT_CHUNK ? PFT_KTEXT_CHUNK : len - done);

			kt->skel->bss->ktext_req.addr = addr + done;
			kt->skel->bss->ktext_req.len = n;
			if (bpf_prog_test_run_opts(bpf_program__fd(kt->skel->progs.read_ktext), &run))
				return -errno;
			if (kt->skel->bss->ktext_req.err)
				return kt->skel->bss->ktext_req.err;
			memcpy((char *)buf + done, kt->skel->bss->ktext_buf, n);
			done += n;
		}
		return 0;
	}
	at = addr - (unsigned long)kt->slide;
	for (i = 0; i < kt->elf.nranges; i++) {
		const struct elf_range *r = &kt->elf.ranges[i];

		if (at < r->addr || at + len > r->addr + r->size)
			continue;
		if (pread(kt->fd, buf, len, r->offset + (off_t)(at - r->addr)) != (ssize_t)len)
			return errno ? -errno : -EIO;
		return 0;
	}
	return -EFAULT;
}

const char *ktext_describe(const struct ktext *kt)
{
	return kt->desc;
}

void ktext_close(struct ktext *kt)
{
	if (!kt)
		return;
	if (kt->fd >= 0)
		close(kt->fd);
	ktext_bpf__destroy(kt->skel);
	free(kt);
}
