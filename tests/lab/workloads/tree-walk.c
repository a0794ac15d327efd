// SPDX-License-Identifier: GPL-2.0
/*
 * tree-walk: path walks over a deep directory tree, for the dcache.
 *
 *   tree-walk [-d DEPTH] [-w WIDTH] [-r ROUNDS] [-m MISSES] DIR
 *
 * Builds WIDTH^DEPTH leaf directories under DIR (each level WIDTH
 * wide), WIDTH files in each, then stats every file by its full path
 * ROUNDS times (each component is one dcache lookup), then stats MISSES
 * names that do not exist (each a dcache miss that walks a whole chain).
 * Prints what it did as "key value" lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int depth = 3, width = 4;
static long files, dirs, stats, components;

static int path_components(const char *p)
{
	int n = 0;

	for (; *p; p++)
		if (*p == '/' && p[1] && p[1] != '/')
			n++;
	return n;
}

static void build(const char *dir, int level)
{
	char path[4096];
	int i, fd;

	for (i = 0; i < width; i++) {
		if (level < depth) {
			snprintf(path, sizeof(path), "%s/d%d", dir, i);
			if (mkdir(path, 0755) && errno != EEXIST) {
				perror(path);
				exit(1);
			}
			dirs++;
			build(path, level + 1);
		} else {
			snprintf(path, sizeof(path), "%s/f%d", dir, i);
			fd = open(path, O_CREAT | O_WRONLY, 0644);
			if (fd < 0) {
				perror(path);
				exit(1);
			}
			close(fd);
			files++;
		}
	}
}

static void walk(const char *dir, int level)
{
	char path[4096];
	struct stat st;
	int i;

	for (i = 0; i < width; i++) {
		if (level < depth) {
			snprintf(path, sizeof(path), "%s/d%d", dir, i);
			walk(path, level + 1);
		} else {
			snprintf(path, sizeof(path), "%s/f%d", dir, i);
			if (stat(path, &st)) {
				perror(path);
				exit(1);
			}
			stats++;
			components += path_components(path);
		}
	}
}

int main(int argc, char **argv)
{
	long rounds = 1, misses = 0, r, m, missed = 0;
	char path[4096];
	struct stat st;
	int c;

	while ((c = getopt(argc, argv, "d:w:r:m:")) != -1) {
		switch (c) {
		case 'd': depth = atoi(optarg); break;
		case 'w': width = atoi(optarg); break;
		case 'r': rounds = atol(optarg); break;
		case 'm': misses = atol(optarg); break;
		default:
			fprintf(stderr, "usage: tree-walk [-d DEPTH] [-w WIDTH] [-r ROUNDS] [-m MISSES] DIR\n");
			return 2;
		}
	}
	if (optind != argc - 1 || depth < 1 || width < 1 || rounds < 0 || misses < 0) {
		fprintf(stderr, "usage: tree-walk [-d DEPTH] [-w WIDTH] [-r ROUNDS] [-m MISSES] DIR\n");
		return 2;
	}
	if (mkdir(argv[optind], 0755) && errno != EEXIST) {
		perror(argv[optind]);
		return 1;
	}
	build(argv[optind], 1);
	for (r = 0; r < rounds; r++)
		walk(argv[optind], 1);
	for (m = 0; m < misses; m++) {
		snprintf(path, sizeof(path), "%s/nx%ld", argv[optind], m);
		if (stat(path, &st) && errno == ENOENT)
			missed++;
	}
	printf("dirs %ld\nfiles %ld\nstats %ld\ncomponents %ld\nmisses %ld\n",
	       dirs, files, stats, components, missed);
	return 0;
}
