// SPDX-License-Identifier: GPL-2.0
/*
 * path-stat PATH COUNT: stat PATH COUNT times, nothing else. With PATH
 * below a tower of mounts, each stat crosses every mount point once:
 * an exact yardstick for the mount hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	struct stat st;
	long n, i;

	if (argc != 3 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: path-stat PATH COUNT\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		if (stat(argv[1], &st)) {
			perror(argv[1]);
			return 1;
		}
	}
	return 0;
}
