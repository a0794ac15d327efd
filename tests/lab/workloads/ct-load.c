// SPDX-License-Identifier: GPL-2.0
/*
 * ct-load: flows for the connection-tracking table.
 *
 *   ct-load -s [-t] [-p PORT]                     a sink: take what comes to PORT
 *   ct-load [-t] [-d ADDR] [-p PORT] [-f FLOWS] [-n ROUNDS] [-D] [-S] [-r RATE] [-H FILE]
 *
 * Without -s it sends ROUNDS packets (UDP) or messages (TCP, -t) on
 * each of FLOWS flows to ADDR:PORT (127.0.0.1:9000), round-robin. A UDP
 * flow is a source port of its own (FLOWS sockets), or with -D a
 * destination address of its own in 127/8 from ADDR up (one socket: the
 * way to fill a table with hundreds of thousands of entries; a sink on
 * 0.0.0.0:PORT takes them all, so no ICMP error is sent back). A TCP
 * flow is a connection, opened first and closed at the end. -r RATE
 * paces the sending to about RATE packets a second. With -S (UDP) it
 * binds PORT itself and never reads it: once its buffer is full the
 * kernel drops what arrives, sends no ICMP error, and no other process
 * runs (the benchmark's storm). With -H FILE it then creates FILE and
 * keeps every socket open until killed.
 *
 * Every packet a process sends is one conntrack lookup in its
 * namespace's output hook, which an nft counter there counts too; a
 * packet that arrives over a veth is one more in the receiver's
 * namespace (its prerouting hook). A packet over loopback is looked up
 * once: it keeps its entry on the way in.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_SOCKETS 60000

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static long number(const char *s, long min, long max, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end || v < min || v > max) {
		fprintf(stderr, "ct-load: %s wants %ld..%ld, not '%s'\n", what, min, max, s);
		exit(2);
	}
	return v;
}

static void raise_fd_limit(void)
{
	struct rlimit rl = { MAX_SOCKETS + 64, MAX_SOCKETS + 64 };

	setrlimit(RLIMIT_NOFILE, &rl);
}

static struct sockaddr_in addr_of(const char *ip, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };

	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
		fprintf(stderr, "ct-load: '%s' is no IPv4 address\n", ip);
		exit(2);
	}
	return a;
}

/* UDP: bound and drained; TCP: every connection accepted and drained, until killed */
static void sink(int tcp, int port)
{
	struct sockaddr_in a = addr_of("0.0.0.0", port);
	static struct pollfd pfd[MAX_SOCKETS + 1];
	int lfd = socket(AF_INET, tcp ? SOCK_STREAM : SOCK_DGRAM, 0), one = 1, n = 0, i;
	char buf[2048];

	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) || (tcp && listen(lfd, 4096)))
		die("bind");
	pfd[0].fd = lfd;
	pfd[0].events = POLLIN;
	for (;;) {
		if (poll(pfd, (nfds_t)n + 1, -1) < 0 && errno != EINTR)
			die("poll");
		if ((pfd[0].revents & POLLIN) && !tcp) {
			while (recv(lfd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
				;
		} else if ((pfd[0].revents & POLLIN) && n < MAX_SOCKETS) {
			int fd = accept(lfd, NULL, NULL);

			if (fd >= 0) {
				pfd[++n].fd = fd;
				pfd[n].events = POLLIN;
			}
		}
		for (i = 1; i <= n; i++) {
			if (!(pfd[i].revents & (POLLIN | POLLHUP)))
				continue;
			if (recv(pfd[i].fd, buf, sizeof(buf), MSG_DONTWAIT) == 0) {
				close(pfd[i].fd);
				pfd[i] = pfd[n--];
				i--;
			}
		}
	}
}

/* about RATE packets a second: sleep off what the last SENT were ahead of it */
static void pace(long rate, long sent, const struct timespec *t0)
{
	struct timespec now, ahead;
	double due, elapsed;

	if (!rate)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	due = (double)sent / (double)rate;
	elapsed = (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
	if (due <= elapsed)
		return;
	ahead.tv_sec = (time_t)(due - elapsed);
	ahead.tv_nsec = (long)((due - elapsed - (double)ahead.tv_sec) * 1e9);
	nanosleep(&ahead, NULL);
}

static int open_flow(int tcp, const struct sockaddr_in *dst)
{
	int fd = socket(AF_INET, tcp ? SOCK_STREAM : SOCK_DGRAM, 0), one = 1;

	if (fd < 0)
		die("socket");
	if (tcp) {
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (connect(fd, (const struct sockaddr *)dst, sizeof(*dst)))
			die("connect");
	}
	return fd;
}

/* The I-th flow's destination: ADDR, or with -D the I-th address from ADDR up */
static struct sockaddr_in flow_dst(const struct sockaddr_in *base, long i, int vary)
{
	struct sockaddr_in d = *base;

	if (vary)
		d.sin_addr.s_addr = htonl(ntohl(base->sin_addr.s_addr) + (uint32_t)i);
	return d;
}

static void hold(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die(path);
	fclose(f);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *ip = "127.0.0.1", *hold_path = NULL;
	long flows = 16, rounds = 100, rate = 0, r, i, sent = 0;
	int tcp = 0, sinks = 0, vary = 0, self_sink = 0, port = 9000, c, nfd, *fds;
	struct sockaddr_in base, dst;
	struct timespec t0;
	char msg[32] = "ct-load";

	while ((c = getopt(argc, argv, "std:p:f:n:DSr:H:")) != -1) {
		switch (c) {
		case 's': sinks = 1; break;
		case 't': tcp = 1; break;
		case 'd': ip = optarg; break;
		case 'p': port = (int)number(optarg, 1, 65535, "-p"); break;
		case 'f': flows = number(optarg, 1, 16000000, "-f"); break;
		case 'n': rounds = number(optarg, 1, 100000000, "-n"); break;
		case 'D': vary = 1; break;
		case 'S': self_sink = 1; break;
		case 'r': rate = number(optarg, 0, 100000000, "-r"); break;
		case 'H': hold_path = optarg; break;
		default:
			fprintf(stderr, "usage: ct-load -s [-t] [-p PORT] | ct-load [-t] [-d ADDR] "
				"[-p PORT] [-f FLOWS] [-n ROUNDS] [-D] [-S] [-r RATE] [-H FILE]\n");
			return 2;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	if (sinks)
		sink(tcp, port);
	if ((tcp || !vary) && flows > MAX_SOCKETS) {
		fprintf(stderr, "ct-load: at most %d flows of their own sockets (-D for more)\n",
			MAX_SOCKETS);
		return 2;
	}
	base = addr_of(ip, port);
	if (self_sink && !tcp) {
		struct sockaddr_in any = addr_of("0.0.0.0", port);
		int sfd = socket(AF_INET, SOCK_DGRAM, 0);

		if (sfd < 0 || bind(sfd, (struct sockaddr *)&any, sizeof(any)))
			die("bind");
	}
	nfd = tcp || !vary ? (int)flows : 1;
	fds = calloc((size_t)nfd, sizeof(*fds));
	if (!fds)
		die("calloc");
	for (i = 0; i < nfd; i++)
		fds[i] = open_flow(tcp, &base);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < flows; i++, sent++) {
			int fd = fds[nfd == 1 ? 0 : i];

			pace(rate, sent, &t0);
			dst = flow_dst(&base, i, vary);
			if (tcp ? send(fd, msg, sizeof(msg), 0) < 0 :
				  sendto(fd, msg, sizeof(msg), 0, (struct sockaddr *)&dst,
					 sizeof(dst)) < 0)
				die("send");
		}
	}
	if (hold_path)
		hold(hold_path);
	for (i = 0; i < nfd; i++)
		close(fds[i]);
	/* a TCP flow's close is packets too: give them their moment */
	if (tcp)
		usleep(200000);
	return 0;
}
