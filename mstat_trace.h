/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mstat's own trace events, in tracefs as events/mstat/:
 *
 *  mstat_snapshot: one consistent snapshot was taken (gen, wait_ns,
 *	waited_cpus, latency_ns);
 *  mstat_source: an event source was switched on or off.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM mstat

#if !defined(_MSTAT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _MSTAT_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(mstat_snapshot,

	TP_PROTO(u64 gen, u64 wait_ns, unsigned int waited_cpus,
		 u64 latency_ns),

	TP_ARGS(gen, wait_ns, waited_cpus, latency_ns),

	TP_STRUCT__entry(
		__field(u64, gen)
		__field(u64, wait_ns)
		__field(u64, latency_ns)
		__field(unsigned int, waited_cpus)
	),

	TP_fast_assign(
		__entry->gen = gen;
		__entry->wait_ns = wait_ns;
		__entry->latency_ns = latency_ns;
		__entry->waited_cpus = waited_cpus;
	),

	TP_printk("gen=%llu wait_ns=%llu waited_cpus=%u latency_ns=%llu",
		  __entry->gen, __entry->wait_ns, __entry->waited_cpus,
		  __entry->latency_ns)
);

TRACE_EVENT(mstat_source,

	TP_PROTO(const char *source, bool enabled),

	TP_ARGS(source, enabled),

	TP_STRUCT__entry(
		__array(char, source, 8)
		__field(bool, enabled)
	),

	TP_fast_assign(
		strscpy(__entry->source, source, sizeof(__entry->source));
		__entry->enabled = enabled;
	),

	TP_printk("source=%s enabled=%d", __entry->source, __entry->enabled)
);

#endif /* _MSTAT_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE mstat_trace
#include <trace/define_trace.h>
