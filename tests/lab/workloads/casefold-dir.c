// SPDX-License-Identifier: GPL-2.0
/*
 * casefold-dir DIR: make the empty directory DIR compare its names
 * without case (FS_CASEFOLD_FL, as chattr +F does), on a filesystem
 * mounted with casefolding (tmpfs -o casefold, 6.13+). Its entries'
 * dentries then carry DCACHE_OP_COMPARE: the dcache's other match.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#ifndef FS_CASEFOLD_FL
#define FS_CASEFOLD_FL 0x40000000
#endif

int main(int argc, char **argv)
{
	int fd, flags;

	if (argc != 2) {
		fprintf(stderr, "usage: casefold-dir DIR\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_DIRECTORY);
	if (fd < 0 || ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		perror(argv[1]);
		return 1;
	}
	flags |= FS_CASEFOLD_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &flags)) {
		perror(argv[1]);
		return 1;
	}
	close(fd);
	return 0;
}
