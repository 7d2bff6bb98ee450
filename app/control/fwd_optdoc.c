/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

/*
 * The option table (fwd_opts.c) rendered for people: --help on a terminal,
 * the user guide's table (--help=md, checked by unit-opts) and the man page
 * (--help=man, generated at build time). One source, so none of them can
 * drift from what the parser accepts.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "fwd_opts.h"

#ifndef FWD_VERSION
#define FWD_VERSION ""
#endif

#define TEXT_WIDTH  79
#define TEXT_INDENT 29

int
fwd_help_format_parse(const char *s)
{
	if (strcmp(s, "text") == 0)
		return FWD_HELP_TEXT;
	if (strcmp(s, "md") == 0)
		return FWD_HELP_MD;
	if (strcmp(s, "man") == 0)
		return FWD_HELP_MAN;
	return -EINVAL;
}

/* "(1-512; default 32)", "(default every port)", "" for --help */
static void
meta(const struct fwd_opt_doc *d, char *buf, size_t len)
{
	if (d->range[0] != '\0' && d->defdoc != NULL)
		snprintf(buf, len, "(%s; default %s)", d->range, d->defdoc);
	else if (d->range[0] != '\0')
		snprintf(buf, len, "(%s)", d->range);
	else if (d->defdoc != NULL)
		snprintf(buf, len, "(default %s)", d->defdoc);
	else
		buf[0] = '\0';
}

/* Print @p text from column @p col on, wrapped at TEXT_WIDTH, continued at TEXT_INDENT. */
static void
wrap(FILE *f, const char *text, unsigned int col)
{
	const char *p = text;

	while (*p != '\0') {
		const char *sp = strchr(p, ' ');
		size_t w = sp != NULL ? (size_t)(sp - p) : strlen(p);

		if (col > TEXT_INDENT && col + 1 + w > TEXT_WIDTH) {
			fprintf(f, "\n%*s", TEXT_INDENT, "");
			col = TEXT_INDENT;
		} else if (col > TEXT_INDENT) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, p);
		col += (unsigned int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

void
fwd_opts_usage(FILE *f, const char *prog)
{
	struct fwd_opt_doc d;
	const char *name, *of, *from;
	unsigned int i;

	fprintf(f,
		"Usage: %s [EAL options] -- [options]\n"
		"\n"
		"With no EAL options (nothing before \"--\"), the embedded default is used:\n"
		"  " FWD_EAL_DEFAULT "\n"
		"(A, B: the first two CPUs the process may run on; PID: its process id)\n"
		"\n"
		"Options (also keys of the [forward] section of a --config file; the\n"
		"command line overrides the file):\n",
		prog);
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		char lhs[64], text[512], m[160];

		snprintf(lhs, sizeof(lhs), "%s%s--%s%s%s", d.short_name != NULL ? d.short_name : "",
			d.short_name != NULL ? ", " : "", d.name, d.arg != NULL ? " " : "",
			d.arg != NULL ? d.arg : "");
		meta(&d, m, sizeof(m));
		snprintf(text, sizeof(text), "%s%s%s", d.help, m[0] != '\0' ? " " : "", m);
		if (strlen(lhs) > TEXT_INDENT - 3)
			fprintf(f, "  %s\n%*s", lhs, TEXT_INDENT, "");
		else
			fprintf(f, "  %-*s ", TEXT_INDENT - 3, lhs);
		wrap(f, text, TEXT_INDENT);
	}
	fprintf(f,
		"\nOther tools' spellings (docs/user-guide.md, \"Coming from testpmd / l3fwd\"):\n");
	for (i = 0; fwd_opts_alias(i, &name, &of, &from) == 0; i++) {
		char lhs[40];

		snprintf(lhs, sizeof(lhs), "--%s", name);
		fprintf(f, "  %-26s %s: --%s\n", lhs, from, of);
	}
	fprintf(f, "  %-26s testpmd: --interactive\n", "-i");
	fprintf(f, "  %-26s testpmd: --auto-start\n", "-a");
	fprintf(f, "  %-26s l3fwd: --portmask (also testpmd's name)\n", "-p HEX");
	fprintf(f, "  %-26s l3fwd: --map\n", "--config \"(p,q,l),...\"");
	fprintf(f, "  %-26s testpmd's own (--rxq, --txq, --rxd, --txd, --burst, --nb-cores,\n", "");
	fprintf(f, "  %-26s --portmask, --port-topology, --eth-peer, --total-num-mbufs,\n", "");
	fprintf(f, "  %-26s --stats-period, --auto-start, --cmdline-file) mean the same\n", "");
	fprintf(f, "\nModes:\n");
#define FWD_MODE_HELP(sym, name, desc) fprintf(f, "  %-10s %s\n", name, desc);
	FWD_MODES(FWD_MODE_HELP)
#undef FWD_MODE_HELP
	fprintf(f,
		"\nExample:\n"
		"  %s -l 0,1 --no-huge -m 256 --no-pci --vdev net_null0 --vdev net_null1 \\\n"
		"     -- --fwd mac --map \"(0,0,1),(1,0,1)\" --stats-period 1 --duration 5\n",
		prog);
}

/* Markdown table cell text: a '|' would end the cell, even in a code span. */
static void
md_cell(FILE *f, const char *s, int code)
{
	if (code)
		fputc('`', f);
	for (; *s != '\0'; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	if (code)
		fputc('`', f);
}

static void
print_md(FILE *f)
{
	struct fwd_opt_doc d;
	unsigned int i;

	fprintf(f, "| option | argument | default | values | meaning |\n"
		   "|---|---|---|---|---|\n");
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		char name[64];

		fputs("| ", f);
		if (d.short_name != NULL) {
			md_cell(f, d.short_name, 1);
			fputs(", ", f);
		}
		snprintf(name, sizeof(name), "--%s", d.name);
		md_cell(f, name, 1);
		fputs(" | ", f);
		if (d.arg != NULL)
			md_cell(f, d.arg, 1);
		fputs(" | ", f);
		if (d.defdoc != NULL)
			md_cell(f, d.defdoc, d.def != NULL);
		fputs(" | ", f);
		if (d.range[0] != '\0')
			md_cell(f, d.range, 1);
		fputs(" | ", f);
		md_cell(f, d.help, 0);
		fputs(" |\n", f);
	}
}

/* roff text: '-' is a hyphen unless escaped, '\' starts an escape, '.' or '\'' a request. */
static void
roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s != '\0'; s++) {
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
	}
}

static void
print_man(FILE *f)
{
	struct fwd_opt_doc d;
	const char *name, *of, *from;
	unsigned int i;

	fprintf(f,
		".\\\" Generated by dpdk-forwarder --help=man from the option table; do not edit.\n"
		".TH DPDK\\-FORWARDER 1 \"\" \"dpdk\\-forwarder %s\" \"User Commands\"\n"
		".SH NAME\n"
		"dpdk\\-forwarder \\- DPDK userspace packet forwarder, IPv4 router and traffic "
		"generator\n"
		".SH SYNOPSIS\n"
		".B dpdk\\-forwarder\n"
		"[\\fIEAL options\\fR]\n"
		".B \\-\\-\n"
		"[\\fIoptions\\fR]\n"
		".SH DESCRIPTION\n"
		"Receives packets on DPDK ports and forwards them, in the manner of testpmd "
		"and l3fwd.\n"
		"Options before\n"
		".B \\-\\-\n"
		"are DPDK's EAL options (\\fBdpdk\\-forwarder \\-h\\fR prints them);\n"
		"with none, an embedded default runs on two lcores with two net_null ports,\n"
		"without hugepages or PCI devices.\n"
		"Every option after\n"
		".B \\-\\-\n"
		"but \\-\\-config and \\-\\-help is also a key of the [forward] section of a\n"
		"\\-\\-config file; the command line overrides the file.\n"
		".SH OPTIONS\n",
		FWD_VERSION);
	for (i = 0; fwd_opts_doc(i, &d) == 0; i++) {
		char m[160];

		fputs(".TP\n", f);
		if (d.short_name != NULL) {
			fputs("\\fB", f);
			roff(f, d.short_name);
			fputs("\\fR, ", f);
		}
		fputs("\\fB\\-\\-", f);
		roff(f, d.name);
		fputs("\\fR", f);
		if (d.arg != NULL) {
			fputs(" \\fI", f);
			roff(f, d.arg);
			fputs("\\fR", f);
		}
		fputc('\n', f);
		roff(f, d.help);
		meta(&d, m, sizeof(m));
		if (m[0] != '\0') {
			fputc(' ', f);
			roff(f, m);
		}
		fputs(".\n", f);
	}
	fputs(".SH MODES\n", f);
#define FWD_MODE_MAN(sym, name, desc) \
	do {                          \
		fputs(".TP\n.B ", f); \
		roff(f, name);        \
		fputc('\n', f);       \
		roff(f, desc);        \
		fputs(".\n", f);      \
	} while (0);
	FWD_MODES(FWD_MODE_MAN)
#undef FWD_MODE_MAN
	fputs(".SH OTHER TOOLS' SPELLINGS\n"
	      "Accepted as the options they stand for:\n",
		f);
	for (i = 0; fwd_opts_alias(i, &name, &of, &from) == 0; i++) {
		fputs(".TP\n\\fB\\-\\-", f);
		roff(f, name);
		fprintf(f, "\\fR\n%s's \\fB\\-\\-", from);
		roff(f, of);
		fputs("\\fR.\n", f);
	}
	fputs(".TP\n\\fB\\-\\-config\\fR \\fI(port,queue,lcore),...\\fR\n"
	      "l3fwd's: a value that opens a list means \\fB\\-\\-map\\fR.\n"
	      ".SH CONFIG FILE\n"
	      "An INI file: [forward] (the options above), [pktgen] (the generator's stream),\n"
	      "[port N] (ip, mtu), [route] (route, blackhole, reject), [neigh] (ADDRESS = MAC)\n"
	      "and [filter] (permit, deny).\n"
	      "The installed example.ini lists every key at its default; router.ini is a\n"
	      "working router.\n"
	      ".SH FILES\n"
	      ".TP\n"
	      ".I share/dpdk\\-forwarder/example.ini\n"
	      "every key, at its default (under the install prefix)\n"
	      ".TP\n"
	      ".I share/dpdk\\-forwarder/router.ini\n"
	      "the IPv4 router example\n"
	      ".TP\n"
	      ".I share/doc/dpdk\\-forwarder/\n"
	      "the user guide (user\\-guide.md), the shell, the generator, the architecture\n"
	      ".SH EXIT STATUS\n"
	      "0 after a clean stop or \\-\\-help; 1 on an error, which is printed as one line.\n"
	      ".SH SEE ALSO\n"
	      ".BR dpdk\\-testpmd (1),\n"
	      ".BR dpdk\\-l3fwd (1)\n",
		f);
}

void
fwd_opts_help(FILE *f, int format, const char *prog)
{
	switch (format) {
	case FWD_HELP_MD:
		print_md(f);
		break;
	case FWD_HELP_MAN:
		print_man(f);
		break;
	case FWD_HELP_TEXT:
	default:
		fwd_opts_usage(f, prog);
	}
}
