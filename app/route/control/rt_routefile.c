/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "numparse.h"

#include "rt_routefile.h"

/* Read in big pieces: a million-line file is about 50 MB */
#define RF_BUF (1u << 20)
/* a line of at most RT_RF_LINE_MAX characters has fewer words than this */
#define RF_MAX_WORDS (RT_RF_LINE_MAX / 2 + 1)
/* what a message quotes of a word the user wrote */
#define Q "%.64s"

/*
 * The attributes `ip route` / `ip neigh` print that mean nothing here: read
 * and ignored without a warning. VALUE: followed by one word; FLAG: alone.
 * Most common first: each lookup is a scan.
 */
/* clang-format off */
#define RF_IGNORED(VALUE, FLAG)                                                      \
	VALUE("proto") VALUE("metric") VALUE("scope") VALUE("src") FLAG("onlink")    \
	VALUE("table") VALUE("realm") VALUE("realms") VALUE("mtu") VALUE("advmss")   \
	VALUE("expires") VALUE("pref") VALUE("preference") VALUE("hoplimit")         \
	VALUE("initcwnd") VALUE("initrwnd") VALUE("rtt") VALUE("rttvar")             \
	VALUE("reordering") VALUE("window") VALUE("cwnd") VALUE("ssthresh")          \
	VALUE("rto_min") VALUE("features") VALUE("quickack") VALUE("congctl")        \
	VALUE("fastopen_no_cookie") VALUE("ttl-propagate") VALUE("nhid")             \
	VALUE("error") VALUE("tos") VALUE("dsfield") VALUE("priority")               \
	FLAG("linkdown") FLAG("dead") FLAG("pervasive") FLAG("notify")               \
	FLAG("offload") FLAG("trap") FLAG("rt_offload") FLAG("rt_trap")              \
	FLAG("rt_offload_failed") FLAG("lock") FLAG("cache")

#define RF_NEIGH_IGNORED(VALUE, FLAG)                                                \
	FLAG("router") VALUE("proto") FLAG("proxy") FLAG("extern_learn")             \
	FLAG("offload") FLAG("managed") FLAG("PERMANENT") FLAG("REACHABLE")          \
	FLAG("STALE") FLAG("DELAY") FLAG("PROBE") FLAG("NOARP") FLAG("NONE")
/* clang-format on */

#define RF_NAME(s) s,
#define RF_SKIP(s)
static const char *const route_value[] = {RF_IGNORED(RF_NAME, RF_SKIP)};
static const char *const neigh_value[] = {RF_NEIGH_IGNORED(RF_NAME, RF_SKIP)};
static const char *const route_flag[] = {RF_IGNORED(RF_SKIP, RF_NAME)};
static const char *const neigh_flag[] = {RF_NEIGH_IGNORED(RF_SKIP, RF_NAME)};
#undef RF_SKIP
#undef RF_NAME

/* The reader's state over one file. */
struct rf {
	const char *name;
	const struct rt_rf_sink *s;
	struct rt_rf_counts *c;
	bool neigh;
	bool writer_seen;        /* a regular file, or a pipe a writer has opened: EOF is the end */
	uint64_t quiet_since_ms; /* the last byte (or the open): the bound counts from here */
	unsigned int lineno;
	int first; /* the first bad line's -errno */
	bool stop;
	bool warned_attr, warned_weight;
	/* the route being read: sent on when a line that is not its "nexthop" comes */
	bool pending, pending_bad, plain_via, hdr_dev;
	struct rt_rf_route r;
};

static void __rte_format_printf(4, 5)
	rf_bad(struct rf *f, unsigned int line, int code, const char *fmt, ...)
{
	char msg[512];
	int n = line > 0 ? snprintf(msg, sizeof(msg), "%s:%u: ", f->name, line)
			 : snprintf(msg, sizeof(msg), "%s: ", f->name);
	va_list ap;

	if (f->stop)
		return; /* told to stop: nothing after is read, nor counted */
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	f->c->errors++;
	if (f->first == 0)
		f->first = code;
	if (f->s->error == NULL || f->s->error(f->s->arg, msg, code) < 0)
		f->stop = true;
}

static void __rte_format_printf(3, 4) rf_warn(struct rf *f, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	int n = snprintf(msg, sizeof(msg), "%s:%u: ", f->name, line);
	va_list ap;

	if (f->s->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	f->s->warn(f->s->arg, msg);
}

static bool
in(const char *w, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(w, list[i]) == 0)
			return true;
	return false;
}

/* An attribute this reader knows (handled or ignored). */
static bool
known_word(const struct rf *f, const char *w)
{
	if (f->neigh)
		return strcmp(w, "dev") == 0 || strcmp(w, "lladdr") == 0 ||
		       strcmp(w, "FAILED") == 0 || strcmp(w, "INCOMPLETE") == 0 ||
		       in(w, neigh_value, RTE_DIM(neigh_value)) ||
		       in(w, neigh_flag, RTE_DIM(neigh_flag));
	return strcmp(w, "via") == 0 || strcmp(w, "dev") == 0 || strcmp(w, "nexthop") == 0 ||
	       strcmp(w, "weight") == 0 || in(w, route_value, RTE_DIM(route_value)) ||
	       in(w, route_flag, RTE_DIM(route_flag));
}

/*
 * Skip an attribute at w[*i]: an ignored one silently, an unknown one with
 * the file's one warning (and the word after it, taken as its value, unless
 * that is an attribute we know).
 */
static void
skip_attr(struct rf *f, char **w, int *i, int n)
{
	const char *a = w[*i];
	bool route = !f->neigh;

	if (in(a, route ? route_value : neigh_value,
		    route ? RTE_DIM(route_value) : RTE_DIM(neigh_value))) {
		*i += 2; /* a missing value is a truncated line: nothing to take anyway */
		return;
	}
	if (in(a, route ? route_flag : neigh_flag,
		    route ? RTE_DIM(route_flag) : RTE_DIM(neigh_flag))) {
		*i += 1;
		return;
	}
	if (!f->warned_attr) {
		f->warned_attr = true;
		rf_warn(f, f->lineno,
			"ignoring unknown attribute '" Q "' (and any other unknown one "
			"in this file)",
			a);
	}
	*i += 1;
	if (*i < n && !known_word(f, w[*i]))
		*i += 1;
}

/* "dev" argument: a port number or a name the sink resolves; -1 when bad (said). */
static int
rf_dev(struct rf *f, const char *name)
{
	uint64_t p;
	int port;

	if (name[0] >= '0' && name[0] <= '9' && num_u64(name, 0, RTE_MAX_ETHPORTS - 1, &p) == 0)
		return (int)p;
	port = f->s->dev != NULL ? f->s->dev(f->s->arg, name) : -ENODEV;
	if (port < 0 || port >= RTE_MAX_ETHPORTS) {
		rf_bad(f, f->lineno, -ENODEV,
			"unknown dev '" Q "' (a port number or a DPDK port name, e.g. net_pcap0)",
			name);
		return -1;
	}
	return port;
}

/* Split @p s on blanks, in place; -1 when there are too many words. */
static int
split(char *s, char **w)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		if (n == RF_MAX_WORDS)
			return -1;
		w[n++] = s;
		while (*s != ' ' && *s != '\t' && *s != '\0')
			s++;
		if (*s == '\0')
			return n;
		*s++ = '\0';
	}
}

/* Send the route being read on to the sink. */
static void
flush(struct rf *f)
{
	struct rt_rf_route *r = &f->r;
	char err[RT_ERR_LEN + 64];
	int ret;

	if (!f->pending)
		return;
	f->pending = false;
	if (f->pending_bad)
		return;
	if (r->kind == RT_ROUTE_VIA && r->n_hops == 0) {
		rf_bad(f, r->line, -EINVAL,
			"route has no next hop (expected via GATEWAY, dev PORT or nexthop lines)");
		return;
	}
	if (f->s->route == NULL) {
		f->c->taken++;
		return;
	}
	err[0] = '\0';
	ret = f->s->route(f->s->arg, r, err, sizeof(err));
	if (ret < 0)
		rf_bad(f, r->line, ret, "%s", err[0] != '\0' ? err : "refused");
	else
		f->c->taken++;
}

/* via, dev, nexthop, weight and the ignored ones, from w[i]: false when the line is bad (said). */
static bool
route_attrs(struct rf *f, char **w, int i, int n)
{
	struct rt_rf_route *r = &f->r;
	struct rt_hop *hop = NULL;
	unsigned int first_hop = r->n_hops, h;
	int port;

	while (i < n) {
		const char *a = w[i];

		if (strcmp(a, "encap") == 0) {
			/* MPLS, IP-in-IP, SRv6...: sent plain it would go where it must not */
			rf_bad(f, f->lineno, -ENOTSUP,
				"encap routes are not supported (the forwarder sends plain IPv4): "
				"route not loaded");
			return false;
		}
		if (strcmp(a, "nexthop") == 0) {
			if (r->kind != RT_ROUTE_VIA || f->plain_via || f->hdr_dev) {
				rf_bad(f, f->lineno, -EINVAL,
					"nexthop in a route that has its own %s",
					r->kind != RT_ROUTE_VIA ? "type"
					: f->plain_via          ? "via"
								: "dev");
				return false;
			}
			if (r->n_hops == RT_ECMP_MAX) {
				rf_bad(f, f->lineno, -E2BIG, "more than %d next hops (RT_ECMP_MAX)",
					RT_ECMP_MAX);
				return false;
			}
			hop = &r->hops[r->n_hops++];
			hop->gw = 0;
			hop->port = -1;
			r->multipath = true;
			i++;
			continue;
		}
		if ((strcmp(a, "via") == 0 || strcmp(a, "dev") == 0 || strcmp(a, "weight") == 0) &&
			i + 1 >= n) {
			rf_bad(f, f->lineno, -EINVAL, "'%s' needs a value", a);
			return false;
		}
		if (strcmp(a, "via") == 0) {
			uint32_t gw;

			if (r->kind != RT_ROUTE_VIA) {
				rf_bad(f, f->lineno, -EINVAL, "a %s route has no gateway",
					r->kind == RT_ROUTE_BLACKHOLE ? "blackhole" : "reject");
				return false;
			}
			if (rt4_addr_parse(w[i + 1], &gw) < 0) {
				rf_bad(f, f->lineno, -EINVAL,
					"bad gateway '" Q "' (expected A.B.C.D)", w[i + 1]);
				return false;
			}
			if ((hop != NULL && hop->gw != 0) || (hop == NULL && f->plain_via)) {
				rf_bad(f, f->lineno, -EINVAL, "via given twice");
				return false;
			}
			if (hop == NULL && r->multipath) {
				rf_bad(f, f->lineno, -EINVAL,
					"via outside a nexthop of a multipath route");
				return false;
			}
			if (hop != NULL) {
				hop->gw = gw;
			} else {
				r->hops[0].gw = gw;
				f->plain_via = true;
			}
			i += 2;
		} else if (strcmp(a, "dev") == 0) {
			port = rf_dev(f, w[i + 1]);
			if (port < 0)
				return false;
			if ((hop != NULL && hop->port >= 0) || (hop == NULL && f->hdr_dev)) {
				rf_bad(f, f->lineno, -EINVAL, "dev given twice");
				return false;
			}
			if (hop != NULL) {
				hop->port = port;
			} else if (r->multipath) {
				rf_bad(f, f->lineno, -EINVAL,
					"dev outside a nexthop of a multipath route");
				return false;
			} else {
				r->port = port;
				f->hdr_dev = true;
			}
			i += 2;
		} else if (strcmp(a, "weight") == 0) {
			uint64_t wt;

			if (hop == NULL) {
				rf_bad(f, f->lineno, -EINVAL, "weight outside a nexthop");
				return false;
			}
			if (num_u64(w[i + 1], 1, 256, &wt) < 0) {
				rf_bad(f, f->lineno, -EINVAL,
					"bad weight '" Q "' (expected 1 to 256)", w[i + 1]);
				return false;
			}
			if (wt != 1 && !f->warned_weight) {
				f->warned_weight = true;
				rf_warn(f, f->lineno,
					"nexthop weights are ignored: flows spread "
					"evenly over a route's next hops (and over every other "
					"weighted route of this file)");
			}
			i += 2;
		} else {
			skip_attr(f, w, &i, n);
		}
	}
	for (h = first_hop; h < r->n_hops; h++) {
		if (r->hops[h].gw == 0) {
			rf_bad(f, f->lineno, -EINVAL, "a nexthop needs 'via GATEWAY'");
			return false;
		}
	}
	return true;
}

static const struct {
	const char *word;
	uint8_t kind;
} route_types[] = {
	{"unicast", RT_ROUTE_VIA},
	{"blackhole", RT_ROUTE_BLACKHOLE},
	{"unreachable", RT_ROUTE_REJECT},
	{"prohibit", RT_ROUTE_REJECT},
};

static const char *const unsupported_types[] = {
	"local", "broadcast", "multicast", "throw", "nat", "anycast"};

/* A route's first line: starts a new route. */
static void
route_line(struct rf *f, char **w, int n)
{
	struct rt_rf_route *r = &f->r;
	char a[16];
	unsigned int t;
	int i = 0;

	flush(f);
	if (f->stop)
		return; /* the sink said stop at the route before */
	memset(r, 0, offsetof(struct rt_rf_route, hops));
	r->hops[0].gw = 0;
	r->hops[0].port = -1;
	r->kind = RT_ROUTE_VIA;
	r->port = -1;
	r->line = f->lineno;
	f->pending = true;
	f->pending_bad = true; /* until the line is read */
	f->plain_via = false;
	f->hdr_dev = false;

	for (t = 0; t < RTE_DIM(route_types); t++) {
		if (strcmp(w[0], route_types[t].word) == 0) {
			r->kind = route_types[t].kind;
			i = 1;
			break;
		}
	}
	if (in(w[0], unsupported_types, RTE_DIM(unsupported_types))) {
		rf_bad(f, f->lineno, -ENOTSUP,
			"route type '%s' is not supported (unicast, blackhole, unreachable, "
			"prohibit)",
			w[0]);
		return;
	}
	if (i >= n) {
		rf_bad(f, f->lineno, -EINVAL, "'%s' needs a prefix", w[0]);
		return;
	}
	if (strcmp(w[i], "default") == 0) {
		r->prefix = 0;
		r->plen = 0;
	} else if (rt4_prefix_parse(w[i], &r->prefix, &r->plen, false) < 0) {
		rf_bad(f, f->lineno, -EINVAL,
			"'" Q "' is not an IPv4 prefix (A.B.C.D/LEN, A.B.C.D or default)", w[i]);
		return;
	} else if ((r->prefix & ~rt4_mask(r->plen)) != 0) {
		rf_bad(f, f->lineno, -EINVAL, Q " has host bits set (did you mean %s/%u?)", w[i],
			rt4_addr_str(r->prefix & rt4_mask(r->plen), a), r->plen);
		return;
	}
	if (!route_attrs(f, w, i + 1, n))
		return;
	if (r->kind == RT_ROUTE_VIA && !r->multipath) {
		if (f->plain_via) {
			r->n_hops = 1;
			r->hops[0].port = r->port;
		} else if (f->hdr_dev) {
			r->kind = RT_ROUTE_DEV;
		}
		/* neither: a multipath route whose nexthop lines come next */
	}
	f->pending_bad = false;
}

/* A "nexthop ..." line: the next hop(s) of the route of the lines before. */
static void
nexthop_line(struct rf *f, char **w, int n)
{
	if (!f->pending) {
		rf_bad(f, f->lineno, -EINVAL, "a nexthop line must follow its route's line");
		return;
	}
	if (f->pending_bad)
		return; /* the route's first bad line was said */
	if (!route_attrs(f, w, 0, n))
		f->pending_bad = true;
}

static void
neigh_line(struct rf *f, char **w, int n)
{
	struct rt_rf_neigh nb = {.port = -1, .line = f->lineno};
	bool has_mac = false, has_dev = false, untrusted = false;
	int i;

	if (strchr(w[0], ':') != NULL) {
		f->c->skipped++; /* IPv6, from a plain `ip neigh show` */
		return;
	}
	if (rt4_addr_parse(w[0], &nb.ip) < 0) {
		rf_bad(f, f->lineno, -EINVAL, "'" Q "' is not an IPv4 address", w[0]);
		return;
	}
	for (i = 1; i < n;) {
		const char *a = w[i];

		if (strcmp(a, "dev") == 0 || strcmp(a, "lladdr") == 0) {
			if (i + 1 >= n) {
				rf_bad(f, f->lineno, -EINVAL, "'%s' needs a value", a);
				return;
			}
			/* two of one: which is meant? Neither is guessed */
			if (a[0] == 'd' ? has_dev : has_mac) {
				rf_bad(f, f->lineno, -EINVAL, "%s given twice", a);
				return;
			}
			if (a[0] == 'd') {
				has_dev = true;
				nb.port = rf_dev(f, w[i + 1]);
				if (nb.port < 0)
					return;
			} else {
				if (rte_ether_unformat_addr(w[i + 1], &nb.mac) < 0 ||
					!rte_is_unicast_ether_addr(&nb.mac) ||
					rte_is_zero_ether_addr(&nb.mac)) {
					rf_bad(f, f->lineno, -EINVAL,
						"'" Q "' is not a unicast MAC address", w[i + 1]);
					return;
				}
				has_mac = true;
			}
			i += 2;
		} else if (strcmp(a, "FAILED") == 0 || strcmp(a, "INCOMPLETE") == 0) {
			untrusted = true;
			i++;
		} else {
			skip_attr(f, w, &i, n);
		}
	}
	if (!has_mac || untrusted) {
		f->c->skipped++;
		return;
	}
	if (f->s->neigh != NULL) {
		char err[RT_ERR_LEN + 64];
		int ret;

		err[0] = '\0';
		ret = f->s->neigh(f->s->arg, &nb, err, sizeof(err));
		if (ret < 0) {
			rf_bad(f, f->lineno, ret, "%s", err[0] != '\0' ? err : "refused");
			return;
		}
	}
	f->c->taken++;
}

/*
 * A NUL byte: this is not a text file (a disk image, /dev/zero through a
 * pipe). Said once, and nothing after it is read: there is no line to find.
 */
static void
rf_binary(struct rf *f)
{
	flush(f); /* the route before is whole: no nexthop line can follow it now */
	rf_bad(f, f->lineno, -EILSEQ, "NUL byte: not a text file, read no further");
	f->stop = true;
}

/* One line of @p len characters (no newline). */
static void
rf_line(struct rf *f, const char *text, size_t len)
{
	char buf[RT_RF_LINE_MAX + 1];
	char *w[RF_MAX_WORDS];
	int n;

	f->lineno++;
	f->c->lines++;
	if (len > 0 && text[len - 1] == '\r')
		len--;
	if (memchr(text, '\0', len) != NULL) {
		rf_binary(f);
		return;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	n = split(buf, w);
	if (n < 0) {
		rf_bad(f, f->lineno, -EINVAL, "too many words");
		return;
	}
	if (n == 0 || w[0][0] == '#')
		return;
	if (f->neigh)
		neigh_line(f, w, n);
	else if (strcmp(w[0], "nexthop") == 0)
		nexthop_line(f, w, n);
	else
		route_line(f, w, n);
}

/*
 * The complete lines of @p buf (all of it at @p eof); returns how many bytes
 * were used. A line too long is said once and skipped up to its newline,
 * over as many calls as it takes (*@p skipping).
 */
static size_t
rf_lines(struct rf *f, const char *buf, size_t len, bool eof, bool *skipping)
{
	size_t pos = 0;

	while (pos < len && !f->stop) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - (buf + pos)) : len - pos;

		if (*skipping) {
			if (memchr(buf + pos, '\0', n) != NULL) {
				rf_binary(f);
				return len;
			}
			if (nl == NULL)
				return len;
			*skipping = false;
			pos += n + 1;
			continue;
		}
		/*
		 * The limit is on the line's text: a CRLF ending's CR is not part of
		 * it. Without its newline yet, one more byte may be that CR: wait.
		 */
		if (n == RT_RF_LINE_MAX + 1 && buf[pos + n - 1] == '\r') {
			if (nl == NULL && !eof)
				return pos;
			rf_line(f, buf + pos, n);
			pos += n + (nl != NULL ? 1 : 0);
			continue;
		}
		if (n > RT_RF_LINE_MAX) {
			f->lineno++;
			f->c->lines++;
			if (memchr(buf + pos, '\0', n) != NULL) {
				rf_binary(f);
				return len;
			}
			rf_bad(f, f->lineno, -E2BIG, "line longer than %d characters",
				RT_RF_LINE_MAX);
			if (nl == NULL) {
				*skipping = !eof;
				return len;
			}
			pos += n + 1;
			continue;
		}
		if (nl == NULL && !eof)
			return pos; /* the rest of it is in the next read */
		rf_line(f, buf + pos, n);
		pos += n + (nl != NULL ? 1 : 0);
	}
	return f->stop ? len : pos;
}

static int
rf_finish(struct rf *f)
{
	if (!f->stop)
		flush(f);
	return f->first;
}

static void
rf_init(struct rf *f, const char *name, const struct rt_rf_sink *s, struct rt_rf_counts *c,
	bool neigh)
{
	memset(f, 0, sizeof(*f));
	memset(c, 0, sizeof(*c));
	f->name = name;
	f->s = s;
	f->c = c;
	f->neigh = neigh;
}

static int
rf_parse(const char *name, const char *text, size_t len, const struct rt_rf_sink *s,
	struct rt_rf_counts *c, bool neigh)
{
	struct rf f;
	bool skipping = false;

	rf_init(&f, name, s, c, neigh);
	rf_lines(&f, text, len, true, &skipping);
	return rf_finish(&f);
}

static uint64_t
rf_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Wait up to 100 ms on a quiet pipe (no byte, or no writer yet): 0 to read
 * again, -EINTR when cancelled, -ETIMEDOUT when it has been quiet for the
 * sink's pipe_wait_ms. A pipe no writer has opened reads as EOF at once;
 * poll() tells when one has (POLLIN, or POLLHUP once it has come and gone).
 */
static int
rf_wait(struct rf *f, int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	unsigned int bound = f->s->pipe_wait_ms;

	if (f->s->cancelled != NULL && f->s->cancelled(f->s->arg))
		return -EINTR;
	if (bound != 0 && rf_now_ms() - f->quiet_since_ms >= bound)
		return -ETIMEDOUT;
	/* a signal or a timeout: both just ask again */
	if (poll(&p, 1, 100) > 0 && (p.revents & (POLLIN | POLLHUP)) != 0)
		f->writer_seen = true;
	return f->s->cancelled != NULL && f->s->cancelled(f->s->arg) ? -EINTR : 0;
}

/* Why a wait ended: told once, and the load stops. */
static void
rf_wait_failed(struct rf *f, int ret)
{
	if (ret == -EINTR)
		rf_bad(f, 0, ret, "load interrupted");
	else if (!f->writer_seen)
		rf_bad(f, 0, ret, "no writer opened the pipe in %.1f s: nothing read",
			f->s->pipe_wait_ms / 1000.0);
	else
		rf_bad(f, 0, ret, "the pipe's writer sent nothing for %.1f s: load stopped",
			f->s->pipe_wait_ms / 1000.0);
	f->stop = true;
}

/*
 * Open @p path for reading: a regular file or a pipe. Non-blocking, so a
 * pipe with no writer neither blocks the open nor the reads (rf_wait()).
 */
static int
rf_open(struct rf *f, const char *path, bool neigh)
{
	const char *what = neigh ? "neighbour" : "route";
	struct stat st;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		rf_bad(f, 0, -e, "cannot open %s file: %s", what, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		rf_bad(f, 0, -e, "cannot stat %s file: %s", what, strerror(e));
		return -e;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		rf_bad(f, 0, -EISDIR, "is a directory, not a %s file", what);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		close(fd);
		rf_bad(f, 0, -EINVAL, "not a regular file or a pipe, not read as a %s file", what);
		return -EINVAL;
	}
	f->writer_seen = !S_ISFIFO(st.st_mode);
	f->quiet_since_ms = rf_now_ms();
	return fd;
}

static int
rf_load(const char *path, const struct rt_rf_sink *s, struct rt_rf_counts *c, bool neigh)
{
	struct rf f;
	bool skipping = false, told_wait = false;
	size_t have = 0;
	char *buf;
	int fd, ret;

	rf_init(&f, path, s, c, neigh);
	fd = rf_open(&f, path, neigh);
	if (fd < 0)
		return fd;
	buf = malloc(RF_BUF);
	if (buf == NULL) {
		close(fd);
		rf_bad(&f, 0, -ENOMEM, "out of memory");
		return -ENOMEM;
	}
	while (!f.stop) {
		ssize_t got = read(fd, buf + have, RF_BUF - have);
		size_t used;

		if (got < 0 && (errno == EINTR || errno == EAGAIN)) {
			if (errno == EAGAIN)
				f.writer_seen = true; /* open, with nothing to say yet */
			ret = rf_wait(&f, fd);
			if (ret < 0)
				rf_wait_failed(&f, ret);
			continue;
		}
		if (got == 0 && !f.writer_seen) {
			/* a pipe nobody opened yet: wait for its writer, as for its lines */
			if (!told_wait && s->warn != NULL) {
				char msg[512];

				snprintf(msg, sizeof(msg),
					"%s: waiting for a writer to open the pipe", path);
				s->warn(s->arg, msg);
				told_wait = true;
			}
			ret = rf_wait(&f, fd);
			if (ret < 0)
				rf_wait_failed(&f, ret);
			continue;
		}
		if (got < 0) {
			int e = errno;

			rf_bad(&f, 0, -e, "read error: %s", strerror(e));
			break;
		}
		if (got > 0)
			f.quiet_since_ms = rf_now_ms();
		have += (size_t)got;
		used = rf_lines(&f, buf, have, got == 0, &skipping);
		memmove(buf, buf + used, have - used);
		have -= used;
		if (got == 0)
			break;
		if (s->cancelled != NULL && s->cancelled(s->arg)) {
			rf_bad(&f, 0, -EINTR, "load interrupted");
			f.stop = true;
		}
	}
	free(buf);
	close(fd);
	return rf_finish(&f);
}

int
rt_routefile_parse(const char *name, const char *text, size_t len, const struct rt_rf_sink *sink,
	struct rt_rf_counts *c)
{
	return rf_parse(name, text, len, sink, c, false);
}

int
rt_routefile_load(const char *path, const struct rt_rf_sink *sink, struct rt_rf_counts *c)
{
	return rf_load(path, sink, c, false);
}

int
rt_neighfile_parse(const char *name, const char *text, size_t len, const struct rt_rf_sink *sink,
	struct rt_rf_counts *c)
{
	return rf_parse(name, text, len, sink, c, true);
}

int
rt_neighfile_load(const char *path, const struct rt_rf_sink *sink, struct rt_rf_counts *c)
{
	return rf_load(path, sink, c, true);
}
