// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-objects: list the BPF programs and links alive in the kernel, by
 * walking their ids with the bpf syscall (the guest has no bpftool).
 * Prints "progs N links M" and then one line per program name.
 */
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

static int count_ids(int cmd, int get_fd_cmd, int print_names)
{
	union bpf_attr attr;
	__u32 id = 0;
	int n = 0;

	for (;;) {
		memset(&attr, 0, sizeof(attr));
		attr.start_id = id;
		if (sys_bpf(cmd, &attr))
			break;
		id = attr.next_id;
		n++;
		if (print_names) {
			struct bpf_prog_info info;
			int fd;

			memset(&attr, 0, sizeof(attr));
			attr.prog_id = id;
			fd = (int)sys_bpf(get_fd_cmd, &attr);
			if (fd < 0)
				continue;
			memset(&info, 0, sizeof(info));
			memset(&attr, 0, sizeof(attr));
			attr.info.bpf_fd = (__u32)fd;
			attr.info.info_len = sizeof(info);
			attr.info.info = (__u64)(unsigned long)&info;
			if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
				printf("prog %u %s\n", id, info.name);
			close(fd);
		}
	}
	return n;
}

int main(void)
{
	int progs = count_ids(BPF_PROG_GET_NEXT_ID, BPF_PROG_GET_FD_BY_ID, 1);
	int links = count_ids(BPF_LINK_GET_NEXT_ID, 0, 0);

	printf("progs %d links %d\n", progs, links);
	return 0;
}
