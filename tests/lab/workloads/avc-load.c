// SPDX-License-Identifier: GPL-2.0
/*
 * avc-load: drive the SELinux AVC with a known set of keys.
 *
 *   avc-load [-t TYPES] [-p PREFIX] [-D DOMAIN,DOMAIN...] [-r ROUNDS] [-d DIR]
 *
 * Creates TYPES files in DIR (a tmpfs), labels file i with PREFIX<i>
 * (security.selinux xattr), then for each DOMAIN (dyntransition through
 * /proc/self/attr/current) stats every file ROUNDS times. Each stat is a
 * file:getattr check, so the AVC ends up holding about TYPES x DOMAINS
 * entries (plus the directory's). With many types, XOR-hashed kernels
 * put them on only a quarter of the slots: long chains, on purpose.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "avc-load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void become(const char *domain)
{
	char ctx[256];
	int fd = open("/proc/self/attr/current", O_WRONLY);
	int n = snprintf(ctx, sizeof(ctx), "system_u:system_r:%s", domain);

	if (fd < 0 || write(fd, ctx, (size_t)n) != n)
		die(ctx);
	close(fd);
}

int main(int argc, char **argv)
{
	const char *prefix = "tmp_t", *dir = "/tmp/avc-load";
	char *domains = NULL, name[64], ctx[256], *dom, *save = NULL;
	long types = 1, rounds = 1, t, r, stats = 0, ndomains = 0;
	struct stat st;
	int c, dfd;

	while ((c = getopt(argc, argv, "t:p:D:r:d:")) != -1) {
		switch (c) {
		case 't': types = atol(optarg); break;
		case 'p': prefix = optarg; break;
		case 'D': domains = optarg; break;
		case 'r': rounds = atol(optarg); break;
		case 'd': dir = optarg; break;
		default:
			fprintf(stderr, "usage: avc-load [-t TYPES] [-p PREFIX] [-D DOMAINS] "
				"[-r ROUNDS] [-d DIR]\n");
			return 2;
		}
	}
	if (types < 1 || rounds < 1) {
		fprintf(stderr, "avc-load: -t and -r want positive numbers\n");
		return 2;
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		die(dir);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die(dir);
	for (t = 0; t < types; t++) {
		int fd;

		snprintf(name, sizeof(name), "f%ld", t);
		fd = openat(dfd, name, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			die(name);
		/* -t 1 labels with PREFIX itself, so "-p tmp_t" means tmp_t */
		if (types == 1)
			snprintf(ctx, sizeof(ctx), "system_u:object_r:%s", prefix);
		else
			snprintf(ctx, sizeof(ctx), "system_u:object_r:%s%ld", prefix, t);
		if (fsetxattr(fd, "security.selinux", ctx, strlen(ctx) + 1, 0))
			die(ctx);
		close(fd);
	}
	do {
		dom = domains ? strtok_r(save ? NULL : domains, ",", &save) : NULL;
		if (dom) {
			become(dom);
			ndomains++;
		}
		for (r = 0; r < rounds; r++) {
			for (t = 0; t < types; t++) {
				snprintf(name, sizeof(name), "f%ld", t);
				if (fstatat(dfd, name, &st, 0))
					die(name);
				stats++;
			}
		}
	} while (dom);
	fprintf(stderr, "avc-load: %ld stat calls over %ld types in %ld domains\n",
		stats, types, ndomains ? ndomains : 1);
	return 0;
}
