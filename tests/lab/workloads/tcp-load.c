// SPDX-License-Identifier: GPL-2.0
/*
 * tcp-load: loopback TCP connections, for the established hash.
 *
 *   tcp-load [-c CONNECTIONS] [-n MESSAGES] [-p PORT] [-H FILE]
 *
 * A child process listens on 127.0.0.1:PORT and echoes; the parent
 * opens CONNECTIONS connections, all kept open, then sends MESSAGES
 * small messages round-robin over them, waiting for each echo. Every
 * segment received is one established-hash lookup (early demux or
 * tcp_v4_rcv), so the kernel's InSegs counter is the yardstick.
 * With -H FILE it then creates FILE and holds every connection open
 * until killed: a snapshot of the table taken meanwhile finds the
 * sockets the lookups found.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_CONN 4096

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void serve(int lfd, int conns)
{
	struct pollfd pfd[MAX_CONN + 1];
	int n = 0, i, one = 1;
	char buf[64];

	pfd[0].fd = lfd;
	pfd[0].events = POLLIN;
	for (;;) {
		if (poll(pfd, (nfds_t)n + 1, -1) < 0)
			die("poll");
		if ((pfd[0].revents & POLLIN) && n < conns) {
			int fd = accept(lfd, NULL, NULL);

			if (fd < 0)
				die("accept");
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
			pfd[++n].fd = fd;
			pfd[n].events = POLLIN;
		}
		for (i = 1; i <= n; i++) {
			ssize_t got;

			if (!(pfd[i].revents & POLLIN))
				continue;
			got = read(pfd[i].fd, buf, sizeof(buf));
			if (got <= 0)
				exit(0);
			if (write(pfd[i].fd, buf, (size_t)got) != got)
				die("write");
		}
	}
}

int main(int argc, char **argv)
{
	int conns = 16, port = 5555, c, i, lfd, one = 1, fds[MAX_CONN];
	long msgs = 1000, m;
	struct sockaddr_in a = { .sin_family = AF_INET };
	char buf[64] = "ping";
	pid_t server;
	const char *hold = NULL;

	while ((c = getopt(argc, argv, "c:n:p:H:")) != -1) {
		switch (c) {
		case 'c': conns = atoi(optarg); break;
		case 'n': msgs = atol(optarg); break;
		case 'p': port = atoi(optarg); break;
		case 'H': hold = optarg; break;
		default:
			fprintf(stderr, "usage: tcp-load [-c CONNECTIONS] [-n MESSAGES] [-p PORT] [-H FILE]\n");
			return 2;
		}
	}
	if (conns < 1 || conns > MAX_CONN || msgs < 0) {
		fprintf(stderr, "tcp-load: -c 1..%d, -n >= 0\n", MAX_CONN);
		return 2;
	}
	a.sin_port = htons((unsigned short)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, MAX_CONN))
		die("bind/listen");
	server = fork();
	if (server < 0)
		die("fork");
	if (server == 0)
		serve(lfd, conns);
	close(lfd);
	for (i = 0; i < conns; i++) {
		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		if (fds[i] < 0 || connect(fds[i], (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		setsockopt(fds[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	}
	for (m = 0; m < msgs; m++) {
		int fd = fds[m % conns];

		if (write(fd, buf, 4) != 4 || read(fd, buf, sizeof(buf)) <= 0)
			die("echo");
	}
	if (hold) {
		FILE *f = fopen(hold, "w");

		if (!f)
			die(hold);
		fclose(f);
		for (;;)
			pause();   /* killed with the connections open */
	}
	for (i = 0; i < conns; i++)
		close(fds[i]);
	kill(server, SIGTERM);
	waitpid(server, NULL, 0);
	printf("connections %d\nmessages %ld\n", conns, msgs);
	return 0;
}
