/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tool's JSON writer (json.c), and mstat --json.
 *
 * One escaping rule for every string (RFC 8259): a quote and a backslash
 * as \" and \\, control bytes (below 0x20) and DEL as \u00XX, well-formed
 * UTF-8 as it is; a byte that starts no well-formed UTF-8 sequence (a
 * kernel name is bytes, not necessarily UTF-8), with the continuation
 * bytes that would have begun one with it, as one \ufffd (U+FFFD, the
 * replacement character), as Python's decode("utf-8", "replace") does.
 * The output is therefore always valid UTF-8 and valid JSON.
 */
#ifndef MSTAT_JSON_H
#define MSTAT_JSON_H

#include <stdio.h>

#include "parse.h"

/* @s as a JSON string, quoted, by the rule above. */
void mstat_json_str(FILE *f, const char *s);
/* @name as an object's key: the string, then ": ". */
void mstat_json_key(FILE *f, const char *name);
/* @v with one decimal, or null if it is not finite. */
void mstat_json_num(FILE *f, double v);

void mstat_json(const struct mstat_snap *s);

#endif /* MSTAT_JSON_H */
