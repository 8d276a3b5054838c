// SPDX-License-Identifier: GPL-2.0
/*
 * The tracefs face: creates the trace events of mstat_trace.h
 * (events/mstat/ in tracefs), which the layers below emit.
 */
#define CREATE_TRACE_POINTS
#include "mstat_trace.h"
