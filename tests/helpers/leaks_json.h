/* SPDX-License-Identifier: GPL-2.0 */
/*
 * leaks_json.c's reader: JSON, as much as the leak judge needs.
 */
#ifndef LEAKS_JSON_H
#define LEAKS_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* A value; an object's members and an array's elements are its kids. */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	double num;
	char *str;		/* J_STR: the string; a member: its key */
	struct jval *kids;	/* J_ARR, J_OBJ: the first element */
	struct jval *next;	/* the next element of the parent */
	char *key;
};

/* calloc() of @n bytes, or exit 2. */
void *xalloc(size_t n);
/* @text as a tree; *@err a message if it is not one JSON value, else NULL. */
struct jval *jtree(const char *text, const char **err);
/* Member @key of object @o, or NULL. */
struct jval *jget(const struct jval *o, const char *key);
/* The string @key of @o, or NULL. */
const char *jstr(const struct jval *o, const char *key);
/* The number @key of @o in @out; false if it has none. */
bool jnum(const struct jval *o, const char *key, double *out);
/* Whether cache label @label (SLUB's merged names after its own) has @name. */
bool names_has(const char *label, const char *name);
/* Whether array @key of @o has @s (for "caches": among a label's names). */
bool jhas(const struct jval *o, const char *key, const char *s);
/* A string array's elements on one line, for a diagnostic. */
const char *jlist_str(const struct jval *o, const char *key);

#endif /* LEAKS_JSON_H */
