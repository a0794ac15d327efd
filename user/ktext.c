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

#include "kernel.h"
#include "ktext.h"
#include "pftrace.h"
#include "ktext.skel.h"

struct ktext_range {
	unsigned long addr, size;
	off_t offset;
};

struct ktext {
	enum ktext_source source;
	int fd;
	struct ktext_range ranges[256];   /* kcore PT_LOADs, vmlinux sections */
	int nranges;
	long slide;                        /* vmlinux: running = linked + slide */
	struct ktext_bpf *skel;
	char desc[300];
};

/* PT_LOAD segments of /proc/kcore, or SHF_EXECINSTR sections of a vmlinux */
static int elf_ranges(struct ktext *kt, const char *path, bool core, char *err, size_t errlen)
{
	Elf *elf;
	size_t n, i;

	elf_version(EV_CURRENT);
	kt->fd = open(path, O_RDONLY);
	if (kt->fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	elf = elf_begin(kt->fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s: not an ELF file (%s)", path, elf_errmsg(-1));
		if (elf)
			elf_end(elf);
		return -EINVAL;
	}
	if (core) {
		if (elf_getphdrnum(elf, &n)) {
			elf_end(elf);
			snprintf(err, errlen, "%s: no program headers", path);
			return -EINVAL;
		}
		for (i = 0; i < n && kt->nranges < 256; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			kt->ranges[kt->nranges++] = (struct ktext_range){
				ph.p_vaddr, ph.p_filesz, (off_t)ph.p_offset };
		}
	} else {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn)) && kt->nranges < 256) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
			    !(sh.sh_flags & SHF_EXECINSTR))
				continue;
			kt->ranges[kt->nranges++] = (struct ktext_range){
				sh.sh_addr, sh.sh_size, (off_t)sh.sh_offset };
		}
	}
	elf_end(elf);
	if (!kt->nranges) {
		snprintf(err, errlen, "%s: no %s in it", path, core ? "memory segments" : "text sections");
		return -EINVAL;
	}
	return 0;
}

static int open_kcore(struct ktext *kt, char *err, size_t errlen)
{
	int rc = elf_ranges(kt, "/proc/kcore", true, err, errlen);

	snprintf(kt->desc, sizeof(kt->desc), "/proc/kcore");
	return rc;
}

/*
 * The KASLR slide: where _stext runs (kallsyms) minus where it was
 * linked (the first text section of the file, which _stext opens).
 */
static int open_vmlinux(struct ktext *kt, const char *path, char *err, size_t errlen)
{
	unsigned long stext = 0, linked = ~0UL;
	int rc = elf_ranges(kt, path, false, err, errlen), i;

	if (rc)
		return rc;
	for (i = 0; i < kt->nranges; i++)
		if (kt->ranges[i].addr < linked)
			linked = kt->ranges[i].addr;
	if (!ksym_address("_stext", "tT", &stext) || !stext) {
		snprintf(err, errlen, "%s: cannot place it: _stext not in /proc/kallsyms", path);
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

struct ktext *ktext_open(enum ktext_source want, const char *vmlinux, char *err, size_t errlen)
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
		rc = open_vmlinux(kt, vmlinux, err, errlen);
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
			kt->nranges = 0;
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
	for (i = 0; i < kt->nranges; i++) {
		const struct ktext_range *r = &kt->ranges[i];

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
