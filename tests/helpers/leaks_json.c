// SPDX-License-Identifier: GPL-2.0
/*
 * leaks_json - the JSON reader of the leak judge (leaks.c): a verdict of
 * `mstat leaks --json` as a tree of values, and the lookups the judge
 * makes in it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leaks_json.h"

static const char *jp;		/* the parser's position */
static const char *jerr;

void *xalloc(size_t n)
{
	void *p = calloc(1, n);

	if (!p) {
		fprintf(stderr, "leaks: out of memory\n");
		exit(2);
	}
	return p;
}

static void jskip(void)
{
	while (isspace((unsigned char)*jp))
		jp++;
}

static struct jval *jparse(int depth);

static char *jstring(void)
{
	size_t cap = 64, n = 0;
	char *s = xalloc(cap);

	jp++;	/* the opening quote */
	while (*jp && *jp != '"') {
		char c = *jp++;

		if (c == '\\') {
			static const char from[] = "ntrbf\"\\/";
			static const char to[] = "\n\t\r\b\f\"\\/";
			const char *e;

			c = *jp++;
			e = c ? strchr(from, c) : NULL;
			if (e) {
				c = to[e - from];
			} else if (c == 'u') {
				/* kept as '?': names here are ASCII */
				if (strlen(jp) < 4) {
					jerr = "short \\u escape";
					return s;
				}
				jp += 4;
				c = '?';
			} else {
				jerr = "bad escape";
				return s;
			}
		}
		if (n + 2 > cap) {
			char *t;

			cap *= 2;
			t = realloc(s, cap);
			if (!t) {
				fprintf(stderr, "leaks: out of memory\n");
				exit(2);
			}
			s = t;
		}
		s[n++] = c;
	}
	s[n] = '\0';
	if (*jp != '"')
		jerr = "unterminated string";
	else
		jp++;
	return s;
}

/* The elements of an array or the members of an object, up to @close. */
static void jlist(struct jval *v, char close, int depth)
{
	struct jval **tail = &v->kids;

	jp++;
	jskip();
	if (*jp == close) {
		jp++;
		return;
	}
	for (;;) {
		char *key = NULL;
		struct jval *k;

		jskip();
		if (close == '}') {
			if (*jp != '"') {
				jerr = "object key not a string";
				return;
			}
			key = jstring();
			jskip();
			if (*jp != ':') {
				jerr = "no ':' after a key";
				return;
			}
			jp++;
		}
		k = jparse(depth + 1);
		if (jerr)
			return;
		k->key = key;
		*tail = k;
		tail = &k->next;
		jskip();
		if (*jp == ',') {
			jp++;
			continue;
		}
		if (*jp == close) {
			jp++;
			return;
		}
		jerr = "no ',' or end of list";
		return;
	}
}

static struct jval *jparse(int depth)
{
	struct jval *v = xalloc(sizeof(*v));
	char *end;

	if (depth > 32) {
		jerr = "nested too deep";
		return v;
	}
	jskip();
	switch (*jp) {
	case '{':
		v->type = J_OBJ;
		jlist(v, '}', depth);
		break;
	case '[':
		v->type = J_ARR;
		jlist(v, ']', depth);
		break;
	case '"':
		v->type = J_STR;
		v->str = jstring();
		break;
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(jp, "true", 4) || !strncmp(jp, "null", 4)) {
			v->type = *jp == 't' ? J_BOOL : J_NULL;
			v->num = *jp == 't';
			jp += 4;
		} else if (!strncmp(jp, "false", 5)) {
			v->type = J_BOOL;
			jp += 5;
		} else {
			jerr = "bad literal";
		}
		break;
	default:
		v->type = J_NUM;
		errno = 0;
		v->num = strtod(jp, &end);
		if (end == jp || errno)
			jerr = "bad value";
		jp = end;
	}
	return v;
}

struct jval *jget(const struct jval *o, const char *key)
{
	struct jval *k;

	if (!o || o->type != J_OBJ)
		return NULL;
	for (k = o->kids; k; k = k->next)
		if (!strcmp(k->key, key))
			return k;
	return NULL;
}

const char *jstr(const struct jval *o, const char *key)
{
	struct jval *v = jget(o, key);

	return v && v->type == J_STR ? v->str : NULL;
}

/* The number @key of @o in @out; false if it has none. */
bool jnum(const struct jval *o, const char *key, double *out)
{
	struct jval *v = jget(o, key);

	if (!v || v->type != J_NUM)
		return false;
	*out = v->num;
	return true;
}

/*
 * Whether @label, a cache as mstat names it (the names SLUB merged into
 * it comma-joined after its own), has @name among its names.
 */
bool names_has(const char *label, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = label; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Whether array @key of @o has @s (for "caches": among a label's names). */
bool jhas(const struct jval *o, const char *key, const char *s)
{
	struct jval *a = jget(o, key), *e;
	bool names = !strcmp(key, "caches");

	if (!a || a->type != J_ARR)
		return false;
	for (e = a->kids; e; e = e->next)
		if (e->type == J_STR &&
		    (names ? names_has(e->str, s) : !strcmp(e->str, s)))
			return true;
	return false;
}

/* A string array's elements on one line, for a diagnostic. */
const char *jlist_str(const struct jval *o, const char *key)
{
	static char buf[512];
	struct jval *a = jget(o, key), *e;
	size_t n = 0;

	buf[0] = '\0';
	if (!a || a->type != J_ARR)
		return "(none)";
	for (e = a->kids; e && n < sizeof(buf) - 1; e = e->next)
		if (e->type == J_STR)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? "," : "", e->str);
	return buf;
}


struct jval *jtree(const char *text, const char **err)
{
	struct jval *root;

	jp = text;
	jerr = NULL;
	root = jparse(0);
	jskip();
	if (!jerr && *jp)
		jerr = "text after the object";
	*err = jerr;
	return root;
}
