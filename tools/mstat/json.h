/* SPDX-License-Identifier: GPL-2.0 */
/* mstat --json: the snapshot as one JSON object (json.c). */
#ifndef MSTAT_JSON_H
#define MSTAT_JSON_H

#include "parse.h"

void mstat_json(const struct mstat_snap *s);

#endif /* MSTAT_JSON_H */
