/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * Route and neighbour files (rt_routefile.h, rt_fileload.h) and the
 * config's routes-file / neigh-file: every line form `ip -4 route show` and
 * `ip -4 neigh show` print, every refusal with its file:line, the one
 * warning a file, comments, blank lines, CRLF, a line too long (also one
 * longer than the read buffer), a missing file, a directory; then into a
 * table (an ECMP line becomes one group route whose members are the
 * line's gateways), the config's relative paths and growth.
 */

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_eal.h>

#include "fwd_cfgfile.h"
#include "fwd_escape.h"
#include "fwd_test.h"
#include "rt_config.h"
#include "rt_fileload.h"
#include "rt_nhgroup.h"
#include "rt_routefile.h"
#include "rt_table.h"
#include "rt_test_pkt.h"
#include "rt_test_table.h"

#define MAX_GOT 64

/* What a sink was given. */
struct rec {
	struct rt_rf_route r[MAX_GOT];
	struct rt_rf_neigh n[MAX_GOT];
	unsigned int n_r, n_n, n_err, n_warn;
	char err[4][512]; /* the first bad lines */
	char warn[4][512];
	int refuse_route; /* the sink refuses routes with this errno */
	bool stop;        /* the error callback says stop */
	unsigned int
		cancel_after; /* cancelled() says yes once this many routes are in (0: never) */
	unsigned int n_asked; /* times cancelled() was asked */
};

static int
rec_route(void *arg, const struct rt_rf_route *r, char *err, size_t errlen)
{
	struct rec *c = arg;

	if (c->refuse_route != 0) {
		snprintf(err, errlen, "the table is full");
		return c->refuse_route;
	}
	if (c->n_r < MAX_GOT)
		c->r[c->n_r] = *r;
	c->n_r++;
	return 0;
}

static int
rec_neigh(void *arg, const struct rt_rf_neigh *n, char *err, size_t errlen)
{
	struct rec *c = arg;

	(void)err;
	(void)errlen;
	if (c->n_n < MAX_GOT)
		c->n[c->n_n] = *n;
	c->n_n++;
	return 0;
}

static int
rec_dev(void *arg, const char *name)
{
	(void)arg;
	return strcmp(name, "net_x") == 0 ? 1 : -ENODEV;
}

static int
rec_error(void *arg, const char *msg, int code)
{
	struct rec *c = arg;

	(void)code;
	if (c->n_err < 4)
		snprintf(c->err[c->n_err], sizeof(c->err[0]), "%s", msg);
	c->n_err++;
	return c->stop ? -1 : 0;
}

static void
rec_warn(void *arg, const char *msg)
{
	struct rec *c = arg;

	if (c->n_warn < 4)
		snprintf(c->warn[c->n_warn], sizeof(c->warn[0]), "%s", msg);
	c->n_warn++;
}

static bool
rec_cancelled(void *arg)
{
	struct rec *c = arg;

	c->n_asked++;
	return c->cancel_after > 0 && c->n_r >= c->cancel_after;
}

static struct rt_rf_sink
sink_of(struct rec *c)
{
	memset(c, 0, sizeof(*c));
	return (struct rt_rf_sink){.route = rec_route,
		.neigh = rec_neigh,
		.dev = rec_dev,
		.error = rec_error,
		.warn = rec_warn,
		.cancelled = rec_cancelled,
		.arg = c};
}

static int
routes(const char *text, struct rec *c, struct rt_rf_counts *n)
{
	struct rt_rf_sink s = sink_of(c);

	return rt_routefile_parse("f", text, strlen(text), &s, n);
}

static void
test_route_forms(void)
{
	static const char text[] =
		"# a dump of `ip -4 route show`\n"
		"\n"
		"   \t \n"
		"10.1.0.0/16 via 10.0.0.2 dev 0 proto static metric 100\r\n"
		"default via 10.0.1.2 dev net_x proto dhcp src 10.0.1.1 metric 1024 \n"
		"10.9.9.9 via 10.0.0.3\n"
		"blackhole 192.0.2.0/24 proto static\n"
		"unreachable 198.51.100.0/24\n"
		"prohibit 203.0.113.0/24 metric 5\n"
		"10.2.0.0/16 dev 1 proto kernel scope link src 10.0.1.1\n"
		"10.3.0.0/16 proto bgp metric 20\n"
		"\tnexthop via 10.0.0.2 dev 0 weight 1\n"
		"\tnexthop via 10.0.1.2 dev net_x weight 1 \n"
		"10.4.0.0/16 via 10.0.0.2 onlink\n"
		"10.5.0.0/16 nexthop via 10.0.0.2 nexthop via 10.0.1.2\n"
		"unicast 10.6.0.0/24 via 10.0.0.2 table main\n"
		"blackhole default\n"
		"10.7.0.0/16 proto bird\n"
		"\tnexthop via 10.0.0.9 dev 0 weight 1"; /* no newline at the end */
	struct rt_rf_counts n;
	struct rec c;
	const struct rt_rf_route *r = c.r;

	CHECK_EQ(routes(text, &c, &n), 0);
	CHECK_EQ(c.n_err, 0);
	CHECK_EQ(c.n_warn, 0);
	CHECK_EQ(n.lines, 19);
	CHECK_EQ(n.taken, 13);
	CHECK_EQ(c.n_r, 13);
	CHECK(r[0].prefix == IP4(10, 1, 0, 0) && r[0].plen == 16 && r[0].kind == RT_ROUTE_VIA);
	CHECK(r[0].n_hops == 1 && r[0].hops[0].gw == IP4(10, 0, 0, 2) && r[0].hops[0].port == 0);
	CHECK(!r[0].multipath && r[0].line == 4);
	CHECK(r[1].prefix == 0 && r[1].plen == 0 && r[1].hops[0].port == 1); /* net_x */
	CHECK(r[2].plen == 32 && r[2].hops[0].port == -1 && r[2].line == 6);
	CHECK(r[3].kind == RT_ROUTE_BLACKHOLE && r[3].prefix == IP4(192, 0, 2, 0));
	CHECK(r[4].kind == RT_ROUTE_REJECT && r[4].plen == 24);
	CHECK(r[5].kind == RT_ROUTE_REJECT && r[5].prefix == IP4(203, 0, 113, 0));
	CHECK(r[6].kind == RT_ROUTE_DEV && r[6].port == 1);
	CHECK(r[7].multipath && r[7].n_hops == 2 && r[7].line == 11);
	CHECK(r[7].hops[0].gw == IP4(10, 0, 0, 2) && r[7].hops[0].port == 0);
	CHECK(r[7].hops[1].gw == IP4(10, 0, 1, 2) && r[7].hops[1].port == 1);
	CHECK(r[8].kind == RT_ROUTE_VIA && !r[8].multipath);
	CHECK(r[9].multipath && r[9].n_hops == 2 && r[9].hops[1].port == -1);
	CHECK(r[10].prefix == IP4(10, 6, 0, 0) && r[10].kind == RT_ROUTE_VIA);
	CHECK(r[11].kind == RT_ROUTE_BLACKHOLE && r[11].plen == 0);
	CHECK(r[12].multipath && r[12].n_hops == 1 && r[12].hops[0].gw == IP4(10, 0, 0, 9));
}

static void
test_route_warnings(void)
{
	struct rt_rf_counts n;
	struct rec c;

	/* unknown attributes: one warning a file, naming the first one's line */
	CHECK_EQ(routes("10.1.0.0/16 via 10.0.0.2\n"
			"10.2.0.0/16 via 10.0.0.2 color blue dev 0\n"
			"10.3.0.0/16 flavour via 10.0.0.2\n"
			"10.4.0.0/16 via 10.0.0.2 shiny\n",
			 &c, &n),
		0);
	CHECK_EQ(c.n_warn, 1);
	CHECK_CONTAINS(c.warn[0], "f:2: ignoring unknown attribute 'color'");
	CHECK_EQ(c.n_r, 4);
	CHECK_EQ(c.r[1].hops[0].port, 0); /* "blue" was color's value, dev still read */
	CHECK_EQ(c.r[2].hops[0].gw, IP4(10, 0, 0, 2)); /* via is not taken as a value */
	/* weights other than 1: accepted, one warning */
	CHECK_EQ(routes("10.3.0.0/16 proto bgp\n"
			"\tnexthop via 10.0.0.2 weight 3\n"
			"\tnexthop via 10.0.0.3 weight 1\n"
			"10.4.0.0/16\n"
			"\tnexthop via 10.0.0.2 weight 2\n",
			 &c, &n),
		0);
	CHECK_EQ(c.n_warn, 1);
	CHECK_CONTAINS(c.warn[0], "f:2: nexthop weights are ignored");
	CHECK_EQ(n.taken, 2);
	/* a fresh parse warns again */
	CHECK_EQ(routes("10.1.0.0/16 via 10.0.0.2 color blue\n", &c, &n), 0);
	CHECK_EQ(c.n_warn, 1);
}

static void
test_route_errors(void)
{
	static const struct {
		const char *text;
		int code;
		const char *msg;
	} bad[] = {
		{"10.1.2.0/16 via 10.0.0.2\n", -EINVAL,
			"f:1: 10.1.2.0/16 has host bits set (did you mean 10.1.0.0/16?)"},
		{"\n10.1.0.0/33 via 10.0.0.2\n", -EINVAL,
			"f:2: '10.1.0.0/33' is not an IPv4 prefix"},
		{"fe80::/64 dev 0\n", -EINVAL, "f:1: 'fe80::/64' is not an IPv4 prefix"},
		{"hello world\n", -EINVAL, "f:1: 'hello' is not an IPv4 prefix"},
		{"10.1.0.0/16 via 10.0.0.256\n", -EINVAL, "f:1: bad gateway '10.0.0.256'"},
		{"10.1.0.0/16 via 10.0.0.2 dev eth0\n", -ENODEV, "f:1: unknown dev 'eth0'"},
		{"10.1.0.0/16 via 10.0.0.2 dev 99\n", -ENODEV, "f:1: unknown dev '99'"},
		{"10.1.0.0/16 via\n", -EINVAL, "f:1: 'via' needs a value"},
		{"10.1.0.0/16 dev\n", -EINVAL, "f:1: 'dev' needs a value"},
		{"blackhole\n", -EINVAL, "f:1: 'blackhole' needs a prefix"},
		{"blackhole 10.1.0.0/16 via 10.0.0.2\n", -EINVAL,
			"f:1: a blackhole route has no gateway"},
		{"local 10.0.0.1 dev 0 proto kernel scope host\n", -ENOTSUP,
			"f:1: route type 'local' is not supported"},
		{"\tnexthop via 10.0.0.2\n", -EINVAL, "f:1: a nexthop line must follow"},
		{"10.1.0.0/16 proto bgp metric 20\n10.2.0.0/16 via 10.0.0.2\n", -EINVAL,
			"f:1: route has no next hop"},
		{"10.1.0.0/16 proto bgp\n\tnexthop dev 0 weight 1\n", -EINVAL,
			"f:2: a nexthop needs 'via GATEWAY'"},
		{"10.1.0.0/16 via 10.0.0.2\n\tnexthop via 10.0.0.3\n", -EINVAL,
			"f:2: nexthop in a route that has its own via"},
		{"10.1.0.0/16 via 10.0.0.2 via 10.0.0.3\n", -EINVAL, "f:1: via given twice"},
		{"10.1.0.0/16 via 10.0.0.2 dev 0 dev net_x\n", -EINVAL, "f:1: dev given twice"},
		{"10.1.0.0/16 proto bgp\n\tnexthop via 10.0.0.2 dev 0 dev 1\n", -EINVAL,
			"f:2: dev given twice"},
		/* encapsulated routes: sent plain they would go where they must not */
		{"10.1.0.0/16 encap mpls 100 via 10.0.0.2 dev 0 proto static\n", -ENOTSUP,
			"f:1: encap routes are not supported"},
		{"10.1.0.0/16 via 10.0.0.2 dev 0 encap ip id 1 dst 10.9.9.9 ttl 64\n", -ENOTSUP,
			"f:1: encap routes are not supported"},
		{"10.1.0.0/16 proto bgp\n\tnexthop encap mpls 200 via 10.0.0.2 dev 0 weight 1\n",
			-ENOTSUP, "f:2: encap routes are not supported"},
		{"10.1.0.0/16 proto bgp\n\tnexthop via 10.0.0.2 weight 0\n", -EINVAL,
			"f:2: bad weight '0'"},
		{"10.1.0.0/16 via 10.0.0.2 weight 1\n", -EINVAL, "f:1: weight outside a nexthop"},
		{"10.1.0.0/16 via 10.0.0.2\n\x01\x00\n", -EILSEQ,
			"f:2: NUL byte: not a text file, read no further"},
	};
	struct rt_rf_counts n;
	struct rec c;
	unsigned int i;

	for (i = 0; i < RTE_DIM(bad); i++) {
		struct rt_rf_sink s = sink_of(&c);
		size_t len = strlen(bad[i].text);
		int ret;

		if (strstr(bad[i].msg, "NUL") != NULL)
			len += 2; /* the text goes on past its NUL, to its newline */
		ret = rt_routefile_parse("f", bad[i].text, len, &s, &n);
		if (c.n_err != 1)
			printf("#   case %u: %u errors, first '%s'\n", i, c.n_err, c.err[0]);
		CHECK_EQ(ret, bad[i].code);
		CHECK_EQ(c.n_err, 1);
		CHECK_EQ(n.errors, 1);
		CHECK_CONTAINS(c.err[0], bad[i].msg);
	}
}

static void
test_route_too_many_hops(void)
{
	char text[4096];
	struct rt_rf_counts n;
	struct rec c;
	size_t len;
	int i;

	len = (size_t)snprintf(text, sizeof(text), "10.1.0.0/16 proto bgp\n");
	for (i = 0; i < RT_ECMP_MAX + 1; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
			"\tnexthop via 10.0.%d.2 dev 0 weight 1\n", i);
	snprintf(text + len, sizeof(text) - len, "10.2.0.0/16 via 10.0.0.2\n");
	CHECK_EQ(routes(text, &c, &n), -E2BIG);
	CHECK_EQ(c.n_err, 1); /* said once, at the 17th next hop */
	CHECK_CONTAINS(c.err[0], "f:18: more than 16 next hops");
	CHECK_EQ(c.n_r, 1); /* the route after it still loads */
	CHECK_EQ(c.r[0].prefix, IP4(10, 2, 0, 0));
	/* exactly RT_ECMP_MAX is fine */
	len = (size_t)snprintf(text, sizeof(text), "10.1.0.0/16 proto bgp\n");
	for (i = 0; i < RT_ECMP_MAX; i++)
		len += (size_t)snprintf(
			text + len, sizeof(text) - len, "\tnexthop via 10.0.%d.2 weight 1\n", i);
	CHECK_EQ(routes(text, &c, &n), 0);
	CHECK_EQ(c.n_r, 1);
	CHECK_EQ(c.r[0].n_hops, RT_ECMP_MAX);
}

static void
test_route_continue_or_stop(void)
{
	static const char text[] = "10.1.0.0/16 via 10.0.0.2\n"
				   "bad\n"
				   "10.2.0.0/16 via 10.0.0.2\n"
				   "10.3.0.0/16 via nowhere\n"
				   "10.4.0.0/16 via 10.0.0.2\n";
	struct rt_rf_counts n;
	struct rt_rf_sink s;
	struct rec c;

	/* the shell's way: every good line taken, every bad one told */
	CHECK_EQ(routes(text, &c, &n), -EINVAL);
	CHECK_EQ(n.taken, 3);
	CHECK_EQ(n.errors, 2);
	CHECK_CONTAINS(c.err[0], "f:2:");
	CHECK_CONTAINS(c.err[1], "f:4:");
	/* start-up's way: stop at the first */
	s = sink_of(&c);
	c.stop = true;
	CHECK_EQ(rt_routefile_parse("f", text, strlen(text), &s, &n), -EINVAL);
	CHECK_EQ(n.taken, 1);
	CHECK_EQ(c.n_err, 1);
	/* no error callback at all: stop too */
	s = sink_of(&c);
	s.error = NULL;
	CHECK_EQ(rt_routefile_parse("f", text, strlen(text), &s, &n), -EINVAL);
	CHECK_EQ(n.taken, 1);
	/* what the sink refuses is a bad line with the sink's reason */
	s = sink_of(&c);
	c.refuse_route = -ENOSPC;
	CHECK_EQ(rt_routefile_parse("f", "10.1.0.0/16 via 10.0.0.2\n", 25, &s, &n), -ENOSPC);
	CHECK_CONTAINS(c.err[0], "f:1: the table is full");
}

static char *
write_file(const char *name, const char *text, size_t len)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/test_route_file.%d.%s", (int)getpid(), name);
	f = fopen(path, "w");
	if (f == NULL)
		return NULL;
	fwrite(text, 1, len, f);
	fclose(f);
	return path;
}

static void
test_long_lines_and_files(void)
{
	const size_t big = (3u << 20) + 17; /* past the 1 MiB read buffer, not on its edge */
	struct rt_rf_counts n;
	struct rt_rf_sink s;
	struct rec c;
	char *text = malloc(big + 200), *path;
	char dir[256];
	size_t len;
	int ret;

	if (text == NULL) {
		CHECK(0);
		return;
	}
	/* in memory: a line just too long, then a good one */
	memset(text, 'a', RT_RF_LINE_MAX + 1);
	len = RT_RF_LINE_MAX + 1;
	len += (size_t)sprintf(text + len, "\n10.1.0.0/16 via 10.0.0.2\n");
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_parse("f", text, len, &s, &n), -E2BIG);
	CHECK_CONTAINS(c.err[0], "f:1: line longer than 1024 characters");
	CHECK_EQ(n.taken, 1);
	CHECK_EQ(c.r[0].line, 2);
	/* exactly RT_RF_LINE_MAX is fine (a route and blanks) */
	memset(text, ' ', RT_RF_LINE_MAX);
	memcpy(text, "10.1.0.0/16 via 10.0.0.2", 24);
	text[RT_RF_LINE_MAX] = '\n';
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_parse("f", text, RT_RF_LINE_MAX + 1, &s, &n), 0);
	CHECK_EQ(n.taken, 1);
	/* and with a CRLF ending (the CR is not the line's): twice, and at the end without LF */
	text[RT_RF_LINE_MAX] = '\r';
	text[RT_RF_LINE_MAX + 1] = '\n';
	memcpy(text + RT_RF_LINE_MAX + 2, text, RT_RF_LINE_MAX + 1);
	memcpy(text + RT_RF_LINE_MAX + 2, "10.2.0.0/16", 11);
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_parse("f", text, 2 * RT_RF_LINE_MAX + 3, &s, &n), 0);
	CHECK_EQ(c.n_err, 0);
	CHECK_EQ(n.taken, 2);
	/* one more character is too long, CR or not */
	memset(text, ' ', RT_RF_LINE_MAX + 1);
	memcpy(text, "10.1.0.0/16 via 10.0.0.2", 24);
	text[RT_RF_LINE_MAX + 1] = '\r';
	text[RT_RF_LINE_MAX + 2] = '\n';
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_parse("f", text, RT_RF_LINE_MAX + 3, &s, &n), -E2BIG);
	CHECK_EQ(n.taken, 0);

	/* from a file: a line of 3 MiB that spans several reads, then good lines */
	len = (size_t)sprintf(text, "10.1.0.0/16 via 10.0.0.2\n");
	memset(text + len, 'x', big);
	len += big;
	len += (size_t)sprintf(
		text + len, "\n10.2.0.0/16 via 10.0.0.2\r\n10.3.0.0/16 via 10.0.0.2");
	path = write_file("long", text, len);
	s = sink_of(&c);
	ret = rt_routefile_load(path, &s, &n);
	CHECK_EQ(ret, -E2BIG);
	CHECK_EQ(c.n_err, 1);
	CHECK_CONTAINS(c.err[0], ".long:2: line longer than");
	CHECK_EQ(n.taken, 3);
	CHECK_EQ(n.lines, 4);
	CHECK_EQ(c.r[2].line, 4);
	unlink(path);
	/*
	 * A file of 1024-character CRLF lines: every one a route. The 5-byte
	 * comment puts line 1022's CR last in the first 1 MiB read, its LF in
	 * the next.
	 */
	len = (size_t)sprintf(text, "#abc\n");
	for (unsigned int i = 0; i < 2000; i++) {
		size_t start = len;
		int w;

		memset(text + start, ' ', RT_RF_LINE_MAX);
		w = sprintf(text + start, "10.%u.%u.0/24 via 10.0.0.2", i >> 8, i & 255);
		text[start + (size_t)w] = ' ';
		len = start + RT_RF_LINE_MAX;
		text[len++] = '\r';
		text[len++] = '\n';
	}
	CHECK_EQ(text[(1u << 20) - 1], '\r');
	path = write_file("crlf", text, len);
	free(text);
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_load(path, &s, &n), 0);
	CHECK_EQ(c.n_err, 0);
	CHECK_EQ(n.taken, 2000);
	unlink(path);

	/* a file that does not exist, a directory */
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_load("/nonexistent/r.routes", &s, &n), -ENOENT);
	CHECK_CONTAINS(c.err[0], "/nonexistent/r.routes: cannot open route file: No such file");
	snprintf(dir, sizeof(dir), "/tmp/test_route_file.%d.dir", (int)getpid());
	CHECK_EQ(mkdir(dir, 0700), 0);
	s = sink_of(&c);
	CHECK_EQ(rt_neighfile_load(dir, &s, &n), -EISDIR);
	CHECK_CONTAINS(c.err[0], "is a directory, not a neighbour file");
	rmdir(dir);
}

/* Close a fifo's writing end after a while (the writer of a pipe finishing). */
static void *
close_later(void *arg)
{
	int *fd = arg;

	usleep(200 * 1000);
	close(*fd);
	return NULL;
}

/*
 * A pipe's writer that comes after its reader has found no writer: it opens
 * once the reader said it waits (its warning), writes, and closes; if the
 * reader returns first, it never opens.
 */
struct late_writer {
	const char *path;
	const char *text;
	const struct rec *c; /* the reader's sink: its warnings */
	int returned;        /* set when the load returned */
};

static void *
write_late(void *arg)
{
	struct late_writer *lw = arg;
	int fd;

	while (__atomic_load_n(&lw->c->n_warn, __ATOMIC_ACQUIRE) == 0)
		if (__atomic_load_n(&lw->returned, __ATOMIC_ACQUIRE))
			return NULL;
		else
			usleep(1000);
	fd = open(lw->path, O_WRONLY); /* the reader is there: no wait */
	if (fd >= 0) {
		usleep(100 * 1000); /* the reader waits on an open pipe with nothing in it */
		if (write(fd, lw->text, strlen(lw->text)) < 0)
			perror("write");
		close(fd);
	}
	return NULL;
}

/*
 * Files that are not text files are refused or end the read, never read for
 * ever (`route load /dev/zero` once hung the shell, deaf to SIGTERM): a
 * device, binary data in a regular file and past a long line's start, a
 * pipe with no writer, a pipe whose writer finishes, and one whose writer
 * never does (the sink's cancelled() ends it).
 */
static void
test_special_files(void)
{
	const char route[] = "10.1.0.0/16 via 10.0.0.2\n10.2.0.0/16 via 10.0.0.2\n";
	struct rt_rf_counts n;
	struct rt_rf_sink s;
	struct rec c;
	char fifo[256], *text, *path;
	pthread_t th;
	size_t len;
	int fd;

	s = sink_of(&c);
	CHECK_EQ(rt_routefile_load("/dev/zero", &s, &n), -EINVAL);
	CHECK_CONTAINS(c.err[0], "/dev/zero: not a regular file or a pipe");
	CHECK_EQ(n.lines, 0);
	s = sink_of(&c);
	CHECK_EQ(rt_neighfile_load("/dev/zero", &s, &n), -EINVAL);
	CHECK_CONTAINS(c.err[0], "not read as a neighbour file");

	/* 8 MiB of zeros after a good line: one error, read no further */
	len = 8u << 20;
	text = calloc(1, len);
	if (text == NULL) {
		CHECK(0);
		return;
	}
	memcpy(text, route, 25);
	path = write_file("zeros", text, len);
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_load(path, &s, &n), -EILSEQ);
	CHECK_EQ(c.n_err, 1);
	CHECK_CONTAINS(c.err[0], ".zeros:2: NUL byte: not a text file");
	CHECK_EQ(n.taken, 1);
	/* the zeros after a line too long to hold (the skipping path) */
	memset(text, 'x', 2 * RT_RF_LINE_MAX);
	memset(text + 2 * RT_RF_LINE_MAX, 0, 16);
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_parse("f", text, len, &s, &n), -EILSEQ);
	CHECK_EQ(c.n_err, 1);
	CHECK_CONTAINS(c.err[0], "f:1: NUL byte");
	memset(text, 'x', (1u << 20) + 100); /* past the read buffer, then zeros */
	path = write_file("zeros", text, len);
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_load(path, &s, &n), -E2BIG);
	CHECK_EQ(c.n_err, 2);
	CHECK_CONTAINS(c.err[1], ".zeros:1: NUL byte");
	CHECK_EQ(n.lines, 1);
	unlink(path);
	free(text);

	snprintf(fifo, sizeof(fifo), "/tmp/test_route_file.%d.fifo", (int)getpid());
	unlink(fifo);
	CHECK_EQ(mkfifo(fifo, 0600), 0);
	/*
	 * A writer that opens after the reader: waited for (said once), then
	 * read to its close. (Once the load went on at once with nothing read,
	 * the writer blocked in its open for ever.)
	 */
	{
		struct late_writer lw = {.path = fifo, .text = route, .c = &c};

		s = sink_of(&c);
		s.pipe_wait_ms = 30000; /* a bound only so that a broken reader fails, not hangs */
		CHECK_EQ(pthread_create(&th, NULL, write_late, &lw), 0);
		CHECK_EQ(rt_routefile_load(fifo, &s, &n), 0);
		__atomic_store_n(&lw.returned, 1, __ATOMIC_RELEASE);
		pthread_join(th, NULL);
		CHECK_EQ(n.taken, 2);
		CHECK_EQ(c.n_err, 0);
		CHECK_EQ(c.n_warn, 1);
		CHECK_CONTAINS(c.warn[0], ".fifo: waiting for a writer to open the pipe");
	}
	/* no writer within the sink's bound: said, nothing read */
	s = sink_of(&c);
	s.pipe_wait_ms = 300;
	CHECK_EQ(rt_routefile_load(fifo, &s, &n), -ETIMEDOUT);
	CHECK_EQ(n.lines, 0);
	CHECK_EQ(c.n_err, 1);
	CHECK_CONTAINS(c.err[0], ".fifo: no writer opened the pipe in 0.3 s: nothing read");
	/* a writer that opens and says nothing within the bound: the lines so far stay */
	fd = open(fifo, O_RDWR | O_NONBLOCK);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, route, sizeof(route) - 1), (ssize_t)(sizeof(route) - 1));
	s = sink_of(&c);
	s.pipe_wait_ms = 300;
	CHECK_EQ(rt_routefile_load(fifo, &s, &n), -ETIMEDOUT);
	CHECK_EQ(n.taken, 1);
	CHECK_EQ(c.n_warn, 0);
	CHECK_CONTAINS(c.err[0], ".fifo: the pipe's writer sent nothing for 0.3 s: load stopped");
	close(fd);
	/* a writer that finishes after a while: every line, then the end */
	fd = open(fifo, O_RDWR | O_NONBLOCK);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, route, sizeof(route) - 1), (ssize_t)(sizeof(route) - 1));
	CHECK_EQ(pthread_create(&th, NULL, close_later, &fd), 0);
	s = sink_of(&c);
	CHECK_EQ(rt_routefile_load(fifo, &s, &n), 0);
	pthread_join(th, NULL);
	CHECK_EQ(n.taken, 2);
	CHECK_EQ(c.n_err, 0);
	/*
	 * A writer that never finishes: the load ends when cancelled() says so.
	 * The last line read stays pending (a nexthop line may follow it) and is
	 * not taken: only whole routes go in.
	 */
	fd = open(fifo, O_RDWR | O_NONBLOCK);
	CHECK(fd >= 0);
	CHECK_EQ(write(fd, route, sizeof(route) - 1), (ssize_t)(sizeof(route) - 1));
	s = sink_of(&c);
	c.cancel_after = 1;
	CHECK_EQ(rt_routefile_load(fifo, &s, &n), -EINTR);
	CHECK_EQ(n.taken, 1);
	CHECK_EQ(n.lines, 2);
	CHECK_CONTAINS(c.err[0], ".fifo: load interrupted");
	CHECK(c.n_asked >= 1);
	close(fd);
	unlink(fifo);
}

static void
test_neigh_lines(void)
{
	static const char text[] =
		"10.0.0.2 dev 0 lladdr 02:00:00:00:00:02 REACHABLE\n"
		"10.0.0.3 dev net_x lladdr 02:00:00:00:00:03 router STALE\r\n"
		"10.0.0.4 dev 0 FAILED\n"
		"10.0.0.5 dev 0 INCOMPLETE\n"
		"# static ones\n"
		"10.0.0.6 dev 0 lladdr 02:00:00:00:00:06 PERMANENT\n"
		"fe80::1 dev 0 lladdr 02:00:00:00:00:07 router STALE\n"
		"10.0.0.8 dev 0 lladdr 02:00:00:00:00:08 proto zebra colour red PROBE\n"
		"10.0.0.9 dev 0 lladdr 02:00:00:00:00:09 sparkly DELAY\n"
		"10.0.0.10 lladdr 02:00:00:00:00:0a FAILED\n"
		"10.0.0.11 lladdr 02:00:00:00:00:0b\n";
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{"10.0.0.256 dev 0 lladdr 02:00:00:00:00:02 STALE\n",
			"f:1: '10.0.0.256' is not an IPv4"},
		{"10.0.0.2 dev 0 lladdr 02:00:00:00:00 STALE\n",
			"f:1: '02:00:00:00:00' is not a unicast"},
		{"10.0.0.2 dev 0 lladdr 01:00:5e:00:00:01\n",
			"f:1: '01:00:5e:00:00:01' is not a unicast"},
		{"10.0.0.2 dev 0 lladdr\n", "f:1: 'lladdr' needs a value"},
		{"10.0.0.2 dev eth0 lladdr 02:00:00:00:00:02\n", "f:1: unknown dev 'eth0'"},
		{"10.0.0.2 dev 0 lladdr 02:00:00:00:00:02 lladdr 02:00:00:00:00:03 STALE\n",
			"f:1: lladdr given twice"},
		{"10.0.0.2 dev 0 lladdr 02:00:00:00:00:02 lladdr 02:00:00:00:00:02\n",
			"f:1: lladdr given twice"},
		{"10.0.0.2 dev 0 dev net_x lladdr 02:00:00:00:00:02\n", "f:1: dev given twice"},
	};
	struct rt_rf_counts n;
	struct rt_rf_sink s = sink_of(&(struct rec){0});
	struct rec c;
	unsigned int i;

	s = sink_of(&c);
	CHECK_EQ(rt_neighfile_parse("f", text, strlen(text), &s, &n), 0);
	CHECK_EQ(n.taken, 6);
	CHECK_EQ(n.skipped, 4);
	CHECK_EQ(c.n_warn, 1);
	CHECK_CONTAINS(c.warn[0], "f:8: ignoring unknown attribute 'colour'");
	CHECK(c.n[0].ip == IP4(10, 0, 0, 2) && c.n[0].port == 0 && c.n[0].mac.addr_bytes[5] == 2);
	CHECK(c.n[1].port == 1 && c.n[1].line == 2);
	CHECK(c.n[2].ip == IP4(10, 0, 0, 6));
	CHECK(c.n[5].ip == IP4(10, 0, 0, 11) && c.n[5].port == -1);
	for (i = 0; i < RTE_DIM(bad); i++) {
		s = sink_of(&c);
		CHECK(rt_neighfile_parse("f", bad[i].text, strlen(bad[i].text), &s, &n) < 0);
		CHECK_EQ(c.n_err, 1);
		CHECK_CONTAINS(c.err[0], bad[i].msg);
	}
}

/* A parse of many generated lines: the count, and the speed printed (never asserted). */
static void
test_many_lines(void)
{
	const unsigned int n_lines = 200000;
	size_t cap = (size_t)n_lines * 64, len = 0;
	char *text = malloc(cap);
	struct rt_rf_counts n;
	struct rt_rf_sink s;
	struct rec c;
	struct timespec a, b;
	unsigned int i;

	if (text == NULL) {
		CHECK(0);
		return;
	}
	for (i = 0; i < n_lines; i++)
		len += (size_t)snprintf(text + len, cap - len,
			"%u.%u.%u.0/24 via 10.0.0.2 dev 0 proto bgp metric 20\n", 11 + (i >> 16),
			(i >> 8) & 255, i & 255);
	s = sink_of(&c);
	s.route = NULL; /* parse only */
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK_EQ(rt_routefile_parse("gen", text, len, &s, &n), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK_EQ(n.taken, n_lines);
	printf("# parsed %u lines in %.3f s\n", n_lines,
		(double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	free(text);
}

/* ---- into a table ---- */

static int
dev_x(void *arg, const char *name)
{
	(void)arg;
	return strcmp(name, "net_x") == 0 ? 1 : -ENODEV;
}

static void
test_into_table(void)
{
	static const char routes_text[] =
		"10.1.0.0/16 via 10.0.0.2 dev 0 proto static metric 100\n"
		"default via 10.0.1.2 dev net_x proto static\n"
		"10.9.9.9 via 10.0.0.3\n"
		"blackhole 192.0.2.0/24 proto static\n"
		"unreachable 198.51.100.0/24\n"
		"10.2.0.0/16 dev 1 proto static scope link\n"
		"10.5.0.0/16 via 10.7.0.2\n" /* not on a connected network: the table says */
		"10.3.0.0/16 proto bgp metric 20\n"
		"\tnexthop via 10.0.0.2 dev 0 weight 1\n"
		"\tnexthop via 10.0.1.2 dev net_x weight 1\n"
		"10.4.0.0/16 proto bgp\n"
		"\tnexthop via 10.0.0.4 weight 1\n";
	static const char neigh_text[] = "10.0.0.2 dev 0 lladdr 02:00:00:00:10:02 REACHABLE\n"
					 "10.0.1.2 dev net_x lladdr 02:00:00:00:11:02 STALE\n"
					 "10.0.0.7 dev 1 lladdr 02:00:00:00:10:07 STALE\n"
					 "10.0.0.8 dev 0 FAILED\n";
	char err[512], *path;
	struct rt_table *t = rt_test_table("rt_file1");
	struct rt_fileload l = {.dev = dev_x, .max_errors = 10, .err = err, .errlen = sizeof(err)};
	uint32_t nh, ecmp;
	int ret;
	FILE *out = tmpfile();
	char outbuf[4096] = "";

	if (t == NULL || out == NULL) {
		CHECK(0);
		return;
	}
	l.t = t;
	l.out = out;
	path = write_file("routes", routes_text, strlen(routes_text));
	ret = rt_fileload_routes(&l, path);
	unlink(path);
	/* the one bad line; the ECMP one is taken */
	CHECK(ret == -EINVAL);
	CHECK_CONTAINS(err, ".routes:7: next hop 10.7.0.2 is not on any connected network");
	CHECK_EQ(l.counts.errors, 1);
	CHECK_EQ(l.counts.taken, 8);
	rewind(out);
	outbuf[fread(outbuf, 1, sizeof(outbuf) - 1, out)] = '\0';
	CHECK_CONTAINS(outbuf, ".routes:7: next hop 10.7.0.2");
	nh = rt_route_lookup(t, IP4(10, 1, 2, 3));
	CHECK(nh != RT_NH_MISS && t->nh_info[nh].ip == IP4(10, 0, 0, 2) && t->nh[nh].port == 0);
	nh = rt_route_lookup(t, IP4(8, 8, 8, 8));
	CHECK(nh != RT_NH_MISS && t->nh_info[nh].ip == IP4(10, 0, 1, 2) && t->nh[nh].port == 1);
	CHECK_EQ(t->nh_info[rt_route_lookup(t, IP4(10, 9, 9, 9))].ip, IP4(10, 0, 0, 3));
	CHECK_EQ(t->nh[rt_route_lookup(t, IP4(192, 0, 2, 9))].type, RT_NH_BLACKHOLE);
	CHECK_EQ(t->nh[rt_route_lookup(t, IP4(198, 51, 100, 9))].type, RT_NH_REJECT);
	CHECK_EQ(t->nh[rt_route_lookup(t, IP4(10, 2, 3, 4))].type, RT_NH_CONNECTED);
	/* a one-hop "nexthop" route went through rt4_route_set() as a via */
	CHECK_EQ(t->nh_info[rt_route_lookup(t, IP4(10, 4, 1, 1))].ip, IP4(10, 0, 0, 4));
	/* the ECMP route is one group whose members are the line's two gateways */
	ecmp = rt_route_lookup(t, IP4(10, 3, 1, 1));
	CHECK(ecmp != RT_NH_MISS && t->nh[ecmp].type == RT_NH_GROUP);
	if (ecmp != RT_NH_MISS && t->nh[ecmp].type == RT_NH_GROUP) {
		uint32_t members[RT_ECMP_MAX];
		uint8_t active[RT_ECMP_MAX];
		unsigned int n = rt_nhgroup_members(t, ecmp, members, active);

		CHECK_EQ(n, 2);
		if (n == 2) {
			CHECK_EQ(t->nh_info[members[0]].ip, IP4(10, 0, 0, 2));
			CHECK_EQ(t->nh[members[0]].port, 0);
			CHECK_EQ(t->nh_info[members[1]].ip, IP4(10, 0, 1, 2));
			CHECK_EQ(t->nh[members[1]].port, 1);
		}
	}

	/* neighbours: dev checked against the address's network, FAILED skipped */
	path = write_file("neigh", neigh_text, strlen(neigh_text));
	ret = rt_fileload_neigh(&l, path);
	unlink(path);
	CHECK_EQ(ret, -EINVAL);
	CHECK_CONTAINS(err, ".neigh:3: neighbour 10.0.0.7 is on port 0's network, not port 1's");
	CHECK_EQ(l.counts.taken, 2);
	CHECK_EQ(l.counts.skipped, 1);
	nh = rt_nh_neigh_find(t, IP4(10, 0, 1, 2));
	CHECK(nh != RT_NH_MISS && (t->nh[nh].l2 & RT_NH_F_VALID));
	CHECK(rt_route_lookup(t, IP4(10, 0, 0, 7)) == rt_route_lookup(t, IP4(10, 0, 0, 99)));

	/* stop at the first (start-up) */
	l.max_errors = 0;
	rt_route_flush(t, NULL);
	path = write_file("routes", routes_text, strlen(routes_text));
	CHECK_EQ(rt_fileload_routes(&l, path), -EINVAL);
	unlink(path);
	CHECK_EQ(l.counts.taken, 6);
	fclose(out);
	rt_table_free(t);
}

/* Every byte of @p s is printable ASCII or a newline. */
static bool
printable(const char *s)
{
	for (; *s != '\0'; s++)
		if ((*s < 0x20 || *s > 0x7e) && *s != '\n')
			return false;
	return true;
}

/*
 * What a file says reaches the terminal escaped (fwd_escape(): \xNN), in
 * the bad lines and warnings printed and in the first bad line kept for the
 * start-up's error: an escape sequence in a file does not drive the
 * operator's terminal.
 */
static void
test_messages_escaped(void)
{
	static const char routes_text[] = "10.1.0.0/16 via 10.0.0.2 \x1b]0;owned\x07 x\n"
					  "10.2.0.0/16 via 10.0.0.2 dev \x1b[2J\x1b[31mred\n"
					  "\x9b"
					  "31m10.3.0.0/16 via 10.0.0.2\n";
	static const char neigh_text[] = "10.0.0.2 dev 0 lladdr 02:00:00:00:00:0\x1b[8m\n";
	char err[512], outbuf[4096] = "", *path;
	struct rt_table *t = rt_test_table("rt_file_esc");
	struct rt_fileload l = {.dev = dev_x,
		.max_errors = 10,
		.err = err,
		.errlen = sizeof(err),
		.escape = fwd_escape};
	FILE *out = tmpfile();
	size_t got;

	if (t == NULL || out == NULL) {
		CHECK(0);
		return;
	}
	l.t = t;
	l.out = out;
	path = write_file("routes", routes_text, strlen(routes_text));
	CHECK_EQ(rt_fileload_routes(&l, path), -ENODEV);
	unlink(path);
	CHECK_EQ(l.counts.taken, 1);
	CHECK_EQ(l.counts.errors, 2);
	CHECK_CONTAINS(err, ".routes:2: unknown dev '\\x1b[2J\\x1b[31mred'");
	CHECK(printable(err));
	path = write_file("neigh", neigh_text, strlen(neigh_text));
	CHECK_EQ(rt_fileload_neigh(&l, path), -EINVAL);
	unlink(path);
	rewind(out);
	got = fread(outbuf, 1, sizeof(outbuf) - 1, out);
	outbuf[got] = '\0';
	CHECK_CONTAINS(outbuf, ".routes:1: ignoring unknown attribute '\\x1b]0;owned\\x07'");
	CHECK_CONTAINS(outbuf, ".routes:2: unknown dev '\\x1b[2J\\x1b[31mred'");
	CHECK_CONTAINS(outbuf, ".routes:3: '\\x9b31m10.3.0.0/16' is not an IPv4 prefix");
	CHECK_CONTAINS(outbuf, ".neigh:1: '02:00:00:00:00:0\\x1b[8m' is not a unicast MAC");
	CHECK(strlen(outbuf) == got && printable(outbuf));
	fclose(out);
	rt_table_free(t);
}

/* The config's routes-file and neigh-file: relative paths, order, the first bad line. */
static void
test_config_files(void)
{
	static struct rt_config cfg;
	char dir[256], ini[300], p[300], err[512];
	struct rt_table *t;
	FILE *f;
	int ret;

	snprintf(dir, sizeof(dir), "/tmp/test_route_file.%d.cfg", (int)getpid());
	CHECK_EQ(mkdir(dir, 0700), 0);
	snprintf(p, sizeof(p), "%s/a.routes", dir);
	f = fopen(p, "w");
	fprintf(f, "10.1.0.0/16 via 10.0.0.2\n172.16.0.0/12 via 10.0.1.2 dev 1\n");
	fclose(f);
	snprintf(p, sizeof(p), "%s/a.neigh", dir);
	f = fopen(p, "w");
	fprintf(f, "10.0.0.2 dev 0 lladdr 02:00:00:00:10:02 PERMANENT\n");
	fclose(f);
	snprintf(ini, sizeof(ini), "%s/r.ini", dir);
	f = fopen(ini, "w");
	fprintf(f, "[port 0]\nip = 10.0.0.1/24\n[port 1]\nip = 10.0.1.1/24\n[route]\n"
		   "route = 192.168.0.0/16 via 10.0.0.2\nroutes-file = a.routes\n"
		   "neigh-file = a.neigh\n");
	fclose(f);

	rt_config_init(&cfg);
	cfg.where = fwd_cfgfile_where();
	CHECK_EQ(fwd_cfgfile_load(ini, rt_config_cfgfile_cb, &cfg, err, sizeof(err)), 0);
	CHECK_EQ(cfg.n_files, 2);
	snprintf(p, sizeof(p), "%s/a.routes", dir);
	CHECK(cfg.n_files == 2 && strcmp(cfg.files[0].path, p) == 0 && !cfg.files[0].neigh);
	CHECK(cfg.n_files == 2 && cfg.files[1].neigh);
	t = rt_test_table_bare("rt_file2", 0, 0);
	CHECK_EQ(rt_config_apply(&cfg, t, err, sizeof(err)), 0);
	CHECK_EQ(rt_config_apply_files(&cfg, &(struct rt_fileload){.t = t}, err, sizeof(err)), 0);
	CHECK_EQ(t->nh_info[rt_route_lookup(t, IP4(172, 20, 0, 1))].ip, IP4(10, 0, 1, 2));
	CHECK(t->nh[rt_route_lookup(t, IP4(10, 1, 0, 1))].l2 & RT_NH_F_VALID);
	/* a file's route to a prefix the config gave: refused with the file's line */
	f = fopen(p, "a");
	fprintf(f, "192.168.0.0/16 via 10.0.0.3\n");
	fclose(f);
	rt_table_free(t);
	t = rt_test_table_bare("rt_file3", 0, 0);
	CHECK_EQ(rt_config_apply(&cfg, t, err, sizeof(err)), 0);
	ret = rt_config_apply_files(&cfg, &(struct rt_fileload){.t = t}, err, sizeof(err));
	CHECK_EQ(ret, -EEXIST);
	CHECK_CONTAINS(err, "a.routes:3: ");
	rt_table_free(t);
	rt_config_free(&cfg);
	CHECK_EQ(cfg.n_files, 0);

	/* a missing file is told at its config line, before EAL would start */
	f = fopen(ini, "a");
	fprintf(f, "routes-file = missing.routes\n");
	fclose(f);
	rt_config_init(&cfg);
	cfg.where = fwd_cfgfile_where();
	CHECK_EQ(fwd_cfgfile_load(ini, rt_config_cfgfile_cb, &cfg, err, sizeof(err)), -ENOENT);
	CHECK_CONTAINS(err, "r.ini:9: routes-file ");
	CHECK_CONTAINS(err, "missing.routes: No such file");
	rt_config_free(&cfg);
	unlink(ini);
	unlink(p);
	snprintf(p, sizeof(p), "%s/a.neigh", dir);
	unlink(p);
	rmdir(dir);
}

/* No fixed limit on a config's own routes; "already given" still found. */
static void
test_config_grows(void)
{
	static struct rt_config cfg;
	const unsigned int n = 5000;
	size_t cap = (size_t)n * 48 + 256, len = 0;
	char *text = malloc(cap), err[256];
	unsigned int i;

	if (text == NULL) {
		CHECK(0);
		return;
	}
	len += (size_t)snprintf(text, cap, "[port 0]\nip = 10.0.0.1/24\n[route]\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
			"route = 20.%u.%u.0/24 via 10.0.0.2\n", i >> 8, i & 255);
	len += (size_t)snprintf(text + len, cap - len, "[neigh]\n");
	for (i = 0; i < 600; i++)
		len += (size_t)snprintf(text + len, cap - len,
			"10.0.0.%u = 02:00:00:00:%02x:%02x\n", 2 + (i % 250), i >> 8, i & 255);
	rt_config_init(&cfg);
	CHECK_EQ(
		fwd_cfgfile_parse("g.ini", text, len, rt_config_cfgfile_cb, &cfg, err, sizeof(err)),
		-EEXIST);
	CHECK_EQ(cfg.n_routes, n);
	CHECK_EQ(cfg.n_neigh, 250);
	CHECK_CONTAINS(err, "neighbour 10.0.0.2 is already given");
	CHECK_EQ(cfg.routes[n - 1].prefix, IP4(20, (n - 1) >> 8, (n - 1) & 255, 0));
	rt_config_free(&cfg);
	/* the same route twice, far apart */
	len = (size_t)snprintf(text, cap, "[port 0]\nip = 10.0.0.1/24\n[route]\n");
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(text + len, cap - len,
			"route = 20.%u.%u.0/24 via 10.0.0.2\n", i >> 8, i & 255);
	len += (size_t)snprintf(text + len, cap - len, "blackhole = 20.0.7.0/24\n");
	rt_config_init(&cfg);
	CHECK_EQ(
		fwd_cfgfile_parse("g.ini", text, len, rt_config_cfgfile_cb, &cfg, err, sizeof(err)),
		-EEXIST);
	CHECK_CONTAINS(err, "g.ini:5004: a route to 20.0.7.0/24 is already given");
	rt_config_free(&cfg);
	free(text);
}

static const struct fwd_test_case cases[] = {
	FWD_TEST(test_route_forms),
	FWD_TEST(test_route_warnings),
	FWD_TEST(test_route_errors),
	FWD_TEST(test_route_too_many_hops),
	FWD_TEST(test_route_continue_or_stop),
	FWD_TEST(test_long_lines_and_files),
	FWD_TEST(test_special_files),
	FWD_TEST(test_neigh_lines),
	FWD_TEST(test_many_lines),
	FWD_TEST(test_into_table),
	FWD_TEST(test_messages_escaped),
	FWD_TEST(test_config_files),
	FWD_TEST(test_config_grows),
};

int
main(void)
{
	int ret;

	if (fwd_test_eal_init("route-file", 128) < 0) {
		printf("Bail out! EAL init failed\n");
		return 1;
	}
	ret = fwd_test_run(cases, RTE_DIM(cases));
	rte_eal_cleanup();
	return ret;
}
