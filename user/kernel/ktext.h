/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the running kernel's text: /proc/kcore (an ELF core file,
 * read with libelf), else a vmlinux given with --vmlinux (its sections
 * moved by the KASLR offset), else through BPF (bpf/ktext.bpf.c). What
 * kcore and BPF return is the text as it runs, alternatives and static
 * keys patched; a vmlinux file shows it as linked.
 */
#ifndef PFT_KTEXT_H
#define PFT_KTEXT_H

#include <stdbool.h>
#include <stddef.h>

enum ktext_source { KTEXT_AUTO, KTEXT_KCORE, KTEXT_VMLINUX, KTEXT_BPF };

struct ktext;

/* NULL with one line in err when the requested (or no) source works. */
struct ksyms;
/* KS: the session's kernel symbols (for _stext), or NULL */
struct ktext *ktext_open(enum ktext_source want, const char *vmlinux, struct ksyms *ks,
			 char *err, size_t errlen);
/* 0, or -errno when [addr, addr + len) cannot be read. */
int ktext_read(struct ktext *kt, unsigned long addr, void *buf, size_t len);
const char *ktext_describe(const struct ktext *kt);
void ktext_close(struct ktext *kt);

#endif
