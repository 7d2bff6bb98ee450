/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cmdline.h>
#include <rte_common.h>
#include <cmdline_parse.h>
#include <cmdline_rdline.h>

#include "fwd_cmds.h"
#include "fwd_shell.h"
#include "fwd_suggest.h"

/*
 * rte_cmdline does the parsing and completion; the shell owns the line
 * editor (an rdline of its own) so that a bad line gets a useful answer
 * instead of cmdline's bare "Bad arguments".
 */
#define FWD_LINE_MAX 512 /* as rdline's own buffer */

static struct cmdline *parser;
static cmdline_parse_ctx_t *ctx;
static bool out_closed; /* stdout's reader has gone (EPIPE) */

bool
fwd_stdout_closed(void)
{
	if (!out_closed && fflush(stdout) == EOF && errno == EPIPE)
		out_closed = true;
	return out_closed;
}

static int
init_parser(struct fwd_app *app)
{
	if (parser != NULL)
		return 0;
	ctx = fwd_cmds_ctx(app);
	/* no fds: cmdline_new() would print a prompt; the shell does its own I/O */
	parser = cmdline_new(ctx, FWD_PROMPT, -1, -1);
	return parser != NULL ? 0 : -ENOMEM;
}

/* First word of @p s into @p w (at most n-1 chars). */
static void
first_word(const char *s, char *w, size_t n)
{
	size_t i = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n' && *s != ':' && i + 1 < n)
		w[i++] = *s++;
	w[i] = '\0';
}

int
fwd_shell_exec(struct fwd_app *app, const char *line)
{
	char buf[FWD_LINE_MAX + 2];
	char word[64], cmd[64];
	size_t len = strcspn(line, "\n");
	unsigned int i, shown = 0;
	int ret;

	if (init_parser(app) < 0)
		return -ENOMEM;
	if (len > FWD_LINE_MAX) {
		printf("line too long (%u characters at most)\n", FWD_LINE_MAX);
		return -EINVAL;
	}
	memcpy(buf, line, len);
	buf[len] = '\n';
	buf[len + 1] = '\0';

	ret = cmdline_parse(parser, buf);
	fflush(stdout);
	if (ret >= 0)
		return 0;

	first_word(buf, word, sizeof(word));
	if (ret == CMDLINE_PARSE_BAD_ARGS) {
		printf("bad arguments for '%s'; usage:\n", word);
		for (i = 0; ctx[i] != NULL; i++) {
			first_word(ctx[i]->help_str, cmd, sizeof(cmd));
			if (strcmp(cmd, word) == 0) {
				printf("  %s\n", ctx[i]->help_str);
				shown++;
			}
		}
	}
	if (shown == 0) {
		const char *best = NULL;
		unsigned int best_d = UINT32_MAX;
		char names[64][64];

		/* the nearest first word of the command table: "did you mean 'start'?" */
		for (i = 0; ctx[i] != NULL && i < RTE_DIM(names); i++) {
			first_word(ctx[i]->help_str, names[i], sizeof(names[i]));
			fwd_suggest_consider(word, names[i], &best, &best_d);
		}
		if (best != NULL)
			printf("unknown command '%s'; did you mean '%s'? type 'help' for the list\n",
				word, best);
		else
			printf("unknown command '%s': type 'help' for the list\n", word);
	}
	fflush(stdout);
	return -EINVAL;
}

/*
 * Commands one per line from @p f, each echoed after the prompt, as a log of the session.
 *
 * @return 0 at the end of input or on quit, or -errno when reading failed.
 */
static int
run_lines(struct fwd_app *app, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	while (!app->quit) {
		ssize_t n;

		printf(FWD_PROMPT);
		if (fwd_stdout_closed())
			break;
		errno = 0;
		n = getline(&line, &cap, f);
		if (n < 0) {
			if (errno == EINTR && !app->quit) {
				clearerr(f);
				continue;
			}
			printf("\n");
			if (ferror(f))
				ret = errno != 0 ? -errno : -EIO;
			break;
		}
		printf("%s%s", line, n > 0 && line[n - 1] == '\n' ? "" : "\n");
		fwd_shell_exec(app, line);
		if (fwd_stdout_closed())
			break; /* nobody reads the answers: as the end of input */
	}
	free(line);
	return ret;
}

/* ---- the terminal: rdline editing, completion, history ---- */

static struct fwd_app *tty_app;

static int
tty_write_char(struct rdline *rdl, char c)
{
	ssize_t n = write(STDOUT_FILENO, &c, 1);

	if (n < 0 && errno == EPIPE)
		out_closed = true;
	return (int)n;
}

static void
tty_validate(struct rdline *rdl, const char *buf, unsigned int size)
{
	fwd_shell_exec(tty_app, buf);
}

static int
tty_complete(struct rdline *rdl, const char *buf, char *dst, unsigned int dstsize, int *state)
{
	return cmdline_complete(parser, buf, state, dst, dstsize);
}

static void
run_tty(struct fwd_app *app)
{
	struct termios saved, raw;
	struct rdline *rdl;
	const char *prev = NULL;

	tty_app = app;
	rdl = rdline_new(tty_write_char, tty_validate, tty_complete, app);
	if (rdl == NULL) {
		run_lines(app, stdin);
		return;
	}
	tcgetattr(STDIN_FILENO, &saved);
	raw = saved;
	/* rdline edits and echoes; keep ISIG so Ctrl-C quits through the signal path */
	raw.c_lflag &= ~(ICANON | ECHO);
	tcsetattr(STDIN_FILENO, TCSANOW, &raw);

	rdline_newline(rdl, FWD_PROMPT);
	while (!app->quit) {
		char c;
		ssize_t n = read(STDIN_FILENO, &c, 1);
		int ret;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		ret = rdline_char_in(rdl, c);
		if (fwd_stdout_closed())
			break;
		if (ret == RDLINE_RES_VALIDATED) {
			const char *line = rdline_get_buffer(rdl);

			prev = rdline_get_history_item(rdl, 0);
			if (strlen(line) > 1 &&
				(prev == NULL || strncmp(prev, line, strlen(prev)) != 0 ||
					line[strlen(prev)] != '\n'))
				rdline_add_history(rdl, line);
			if (!app->quit)
				rdline_newline(rdl, FWD_PROMPT);
		} else if (ret == RDLINE_RES_EOF || ret == RDLINE_RES_EXITED) {
			break;
		}
	}
	printf("\n");
	tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	rdline_free(rdl);
}

int
fwd_shell_run(struct fwd_app *app, const char *file, bool interactive)
{
	int ret = 0;

	if (init_parser(app) < 0) {
		fprintf(stderr, "dpdk-forwarder: error: cannot create the command parser\n");
		return -ENOMEM;
	}
	if (file != NULL) {
		FILE *f = fopen(file, "r");
		struct stat st;

		if (f == NULL)
			ret = -errno;
		else if (fstat(fileno(f), &st) < 0)
			ret = -errno;
		else if (S_ISDIR(st.st_mode)) /* fopen() takes a directory; reads then fail */
			ret = -EISDIR;
		if (ret < 0) {
			fprintf(stderr, "dpdk-forwarder: error: %s: cannot open command file: %s\n",
				file, strerror(-ret));
			if (f != NULL)
				fclose(f);
			goto out;
		}
		ret = run_lines(app, f);
		fclose(f);
		if (ret < 0) {
			fprintf(stderr, "dpdk-forwarder: error: %s: cannot read command file: %s\n",
				file, strerror(-ret));
			goto out;
		}
	}
	if (interactive && !app->quit) {
		if (isatty(STDIN_FILENO))
			run_tty(app);
		else
			run_lines(app, stdin);
	}
out:
	cmdline_free(parser);
	parser = NULL;
	return ret;
}
