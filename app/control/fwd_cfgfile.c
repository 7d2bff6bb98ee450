/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright (c) 2026 dpdk-forwarder authors
 */

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwd_cfgfile.h"

#define FWD_CFG_FILE_MAX (1 << 20) /* a config file is small; refuse a huge one */

static char *
strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* A comment starts with '#' or ';' at the start of the text or after blank. */
static void
cut_comment(char *s)
{
	char *p;

	for (p = s; *p != '\0'; p++) {
		if ((*p == '#' || *p == ';') && (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

static int
valid_name(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != ' ' && *s != '.')
			return 0;
	return 1;
}

/* "file:line" of the key in the callback; one parse at a time per thread */
static __thread char cur_where[300];

const char *
fwd_cfgfile_where(void)
{
	return cur_where;
}

/* Handle one line; returns 0 or -errno with err holding the bare reason. */
static int
parse_line(char *line, char *section, size_t seclen, fwd_cfgfile_cb cb, void *arg, char *err,
	size_t errlen)
{
	char *s, *eq, *key, *value;

	cut_comment(line);
	s = strip(line);
	if (*s == '\0')
		return 0;

	if (*s == '[') {
		char *close = strchr(s, ']');

		if (close == NULL || strip(close + 1)[0] != '\0') {
			snprintf(err, errlen, "section header must be '[name]'");
			return -EINVAL;
		}
		*close = '\0';
		s = strip(s + 1);
		if (!valid_name(s) || strlen(s) >= seclen) {
			snprintf(err, errlen, "bad section name '%s'", s);
			return -EINVAL;
		}
		strcpy(section, s);
		return 0;
	}

	eq = strchr(s, '=');
	if (eq == NULL) {
		snprintf(err, errlen, "expected 'key = value' or '[section]', got '%s'", s);
		return -EINVAL;
	}
	*eq = '\0';
	key = strip(s);
	value = strip(eq + 1);
	if (!valid_name(key)) {
		snprintf(err, errlen, "bad key '%s'", key);
		return -EINVAL;
	}
	if (section[0] == '\0') {
		snprintf(err, errlen, "key '%s' is outside any [section]", key);
		return -EINVAL;
	}
	return cb(arg, section, key, value, err, errlen);
}

int
fwd_cfgfile_parse(const char *name, const char *text, size_t len, fwd_cfgfile_cb cb, void *arg,
	char *err, size_t errlen)
{
	char section[64] = "";
	char line[FWD_CFG_LINE_MAX];
	char reason[512];
	unsigned int lineno = 0;
	size_t pos = 0;

	while (pos < len) {
		size_t n = 0;
		int ret;

		lineno++;
		while (pos < len && text[pos] != '\n') {
			if (text[pos] == '\0') {
				snprintf(err, errlen, "%s:%u: NUL byte in a text file", name,
					lineno);
				return -EINVAL;
			}
			if (n + 1 >= sizeof(line)) {
				snprintf(err, errlen, "%s:%u: line longer than %d characters", name,
					lineno, FWD_CFG_LINE_MAX - 1);
				return -EINVAL;
			}
			line[n++] = text[pos++];
		}
		pos++; /* the newline */
		line[n] = '\0';
		if (n > 0 && line[n - 1] == '\r')
			line[n - 1] = '\0';

		reason[0] = '\0';
		snprintf(cur_where, sizeof(cur_where), "%s:%u", name, lineno);
		ret = parse_line(line, section, sizeof(section), cb, arg, reason, sizeof(reason));
		cur_where[0] = '\0';
		if (ret < 0) {
			snprintf(err, errlen, "%s:%u: %s", name, lineno, reason);
			return ret;
		}
	}
	return 0;
}

int
fwd_cfgfile_load(const char *path, fwd_cfgfile_cb cb, void *arg, char *err, size_t errlen)
{
	FILE *f;
	char *text;
	size_t len;
	int ret;

	f = fopen(path, "r");
	if (f == NULL) {
		ret = -errno;
		snprintf(err, errlen, "%s: cannot open config file: %s", path, strerror(errno));
		return ret;
	}
	text = malloc(FWD_CFG_FILE_MAX + 1);
	if (text == NULL) {
		fclose(f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	len = fread(text, 1, FWD_CFG_FILE_MAX + 1, f);
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "%s: read error", path);
	} else if (len > FWD_CFG_FILE_MAX) {
		ret = -EFBIG;
		snprintf(err, errlen, "%s: larger than %d bytes; not a config file?", path,
			FWD_CFG_FILE_MAX);
	} else {
		ret = fwd_cfgfile_parse(path, text, len, cb, arg, err, errlen);
	}
	free(text);
	fclose(f);
	return ret;
}
