/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one parser of what the mstat module publishes: /proc/mstat
 * ("mstat - version: 1.x") and /proc/mstat_sites ("mstat_sites -
 * version: 1.x" or "2.x"): their types here, the parser of /proc/mstat
 * in parse_snap.h. Every subcommand, `mstat check` included, reads
 * through it. It does no I/O and prints nothing: it fills a struct or
 * returns a struct mstat_perror, and each caller words its own messages.
 *
 * The grammar, as the module prints it (mstat_proc.c):
 *  - the first line is "<name> - version: MAJOR.MINOR";
 *  - every other line ends in '\n' and is either a '#' comment or words
 *    separated by one space each: "name value", "class SIZE|large" and
 *    nine numbers, "order N" and four numbers, from format 1.1
 *    "kmalloc_class SIZE|large" and four numbers, from format 1.2
 *    "cache ID SIZE" and five numbers, "live" or "gone" and a name (one
 *    word: bytes outside '!'..'~' and the backslash as "\ooo", "-" for
 *    none), and "cache_overflow" and five numbers (for /proc/mstat); one
 *    "# snapshot N sample_rate R sites|stacks N ..." header, then rows of
 *    eight numbers and a site, from format 2 each followed by its stack's
 *    callers, a line each, "\t" and the frame (for /proc/mstat_sites,
 *    MAJOR 1 or 2); from format 2.2 a row has three more words before
 *    its site, its labels "cgroup node cache" (each "-" when unknown, the
 *    cgroup also "hardirq" or "softirq", the cache's name written as in
 *    a cache row), and after its frames a line "+ AGE_MS BYTES" per live
 *    sampled object, oldest first;
 *  - a number is a u64, or '-' and a magnitude up to 2^63 (an s64); both
 *    are kept as their two's complement.
 * A later minor only adds lines or columns: MSTAT_PARSE_EXACT (what the
 * checker wants) refuses them, the default reads past them.
 */
#ifndef MSTAT_PARSE_H
#define MSTAT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define MSTAT_PROC		"/proc/mstat"
#define MSTAT_SITES_PROC	"/proc/mstat_sites"
#define MSTAT_HEAD		"mstat - version: "
#define MSTAT_SITES_HEAD	"mstat_sites - version: "
#define MSTAT_OWNERS_PROC	"/proc/mstat_owners"
#define MSTAT_OWNERS_HEAD	"mstat_owners - version: "
#define MSTAT_OWNERS_MAJOR	1	/* ... of /proc/mstat_owners */
#define MSTAT_MAJOR		1	/* the format major this parser reads */
#define MSTAT_SITES_MAJOR	2	/* ... of /proc/mstat_sites, and 1 */

#define MSTAT_MAX_COUNTERS	256
#define MSTAT_MAX_CLASSES	32
#define MSTAT_MAX_ORDERS	32
#define MSTAT_MAX_CACHES	2048	/* the module's largest table */
#define MSTAT_NAME_MAX		64	/* a counter's name, NUL included */
#define MSTAT_CACHE_NAME_MAX	64	/* a cache's name, decoded, NUL included */
#define MSTAT_LABEL_MAX		16	/* a class's label, NUL included */

/*
 * The sources, in the order the file lists them: format 1.0's four,
 * then 1.6's vm areas and percpu objects (@has_src says which a file has).
 */
enum {
	SRC_KMALLOC, SRC_CACHE, SRC_PAGE, SRC_API, SRC_VMALLOC, SRC_PERCPU,
	MSTAT_NR_SRC
};
#define MSTAT_NR_SRC_1_0	4

extern const char *const mstat_src_names[MSTAT_NR_SRC];

#define MSTAT_NR_CTX		3
extern const char *const mstat_ctx_names[MSTAT_NR_CTX];

/* <src>_<field> lines; slab_ has all but enabled and failures. */
enum {
	SRC_ENABLED, SRC_ALLOCS, SRC_FREES, SRC_FAILURES, SRC_BYTES_REQ,
	SRC_BYTES_ALLOC, SRC_BYTES_FREED, SRC_LIVE_OBJ, SRC_LIVE_BYTES, SRC_NR
};

extern const char *const mstat_src_fields[SRC_NR];

#define MSTAT_NR_SLAB_FIELDS	8
extern const char *const mstat_slab_fields[MSTAT_NR_SLAB_FIELDS];

/* Columns of a "class SIZE ..." row after SIZE. */
enum {
	CLS_ALLOCS, CLS_FREES, CLS_LIVE_OBJ, CLS_BYTES_REQ, CLS_BYTES_ALLOC,
	CLS_BYTES_FREED, CLS_LIVE_BYTES, CLS_FRAG, CLS_FRAG_LIVE_EST, CLS_NR
};

extern const char *const mstat_cls_fields[CLS_NR];

/*
 * Columns of a "kmalloc_class SIZE ..." row after SIZE (format 1.1); from
 * 1.8 the objects its caches held at load (0 before), in its live counts.
 */
enum {
	KCLS_ALLOCS, KCLS_FREES, KCLS_LIVE_OBJ, KCLS_LIVE_BYTES, KCLS_AT_LOAD,
	KCLS_NR
};

extern const char *const mstat_kcls_fields[KCLS_NR];

/* Columns of a "cache ID SIZE ..." row after SIZE, and of "cache_overflow". */
enum {
	CACHE_ALLOCS, CACHE_FREES, CACHE_FAILURES, CACHE_LIVE_OBJ,
	CACHE_LIVE_BYTES, CACHE_NR
};

extern const char *const mstat_cache_fields[CACHE_NR];

/* Columns of an "order N ..." row after N. */
enum { ORD_ALLOCS, ORD_FREES, ORD_FAILURES, ORD_LIVE_PAGES, ORD_NR };

extern const char *const mstat_ord_fields[ORD_NR];

/* Columns of a "vm KIND ..." row after KIND (format 1.6). */
enum {
	VM_ALLOCS, VM_FREES, VM_LIVE_AREAS, VM_BYTES_ALLOC, VM_BYTES_FREED,
	VM_LIVE_BYTES, VM_NR
};

/* The kinds, in the order the file lists them. */
enum { VM_KIND_VMALLOC, VM_KIND_VMAP, VM_KIND_IOREMAP, VM_KIND_OTHER,
	MSTAT_NR_VM_KINDS };

extern const char *const mstat_vm_fields[VM_NR];
extern const char *const mstat_vm_kinds[MSTAT_NR_VM_KINDS];

/* Rows of format 1.0: a later minor only adds lines. */
#define MSTAT_NR_CLASSES	14
#define MSTAT_NR_ORDERS		11

struct mstat_counter {
	char name[MSTAT_NAME_MAX];
	long long val;		/* a u64 as its two's complement */
	int line;
};

struct mstat_class {
	char name[MSTAT_LABEL_MAX];	/* "96" or "large" */
	unsigned long long size;	/* bytes; 0 for "large" */
	long long v[CLS_NR];
	int line;
};

struct mstat_order {
	unsigned int n;		/* the order, as the row says */
	long long v[ORD_NR];
	int line;
};

/**
 * struct mstat_cache - one row of the per-cache table (format 1.2)
 * @id: the row's id, unique for the module's life
 * @size: the cache's object size
 * @v: CACHE_NR columns
 * @at_load: from format 1.8, the objects the cache held when counting
 *	began, in its live counts (0 before 1.8)
 * @gone: the cache was destroyed
 * @named: the module knew its name (the row's name was not "-")
 * @name: the name, decoded; "" if not @named
 * @line: where it was
 */
struct mstat_cache {
	unsigned long long id;
	unsigned long long size;
	long long v[CACHE_NR];
	unsigned long long at_load;
	bool gone;
	bool named;
	char name[MSTAT_CACHE_NAME_MAX];
	int line;
};

/* A line given again: a checker notes it, keeps the first and goes on. */
enum mstat_dup_kind {
	MSTAT_DUP_COUNTER, MSTAT_DUP_CLASS, MSTAT_DUP_ORDER, MSTAT_DUP_KCLASS,
	MSTAT_DUP_CACHE, MSTAT_DUP_VM
};

struct mstat_dup {
	enum mstat_dup_kind kind;
	int line;
	char what[MSTAT_NAME_MAX];	/* the name, the label, the order */
};

/* Told of each duplicate; returns true to go on, false to stop. */
typedef bool mstat_dup_fn(void *arg, const struct mstat_dup *d);

/**
 * struct mstat_snap - one parsed /proc/mstat
 * @path: where it was read from (set by the caller, for messages)
 * @version: "1.0"
 * @major: format major
 * @minor: format minor
 * @ctr: every "name value" line, in file order
 * @cls: the size-class rows, in file order
 * @ord: the page-order rows, in file order
 * @kcls: the kmalloc source's size-class rows (format 1.1 on), in file
 *	order; v[] holds KCLS_NR columns
 * @cache: the per-cache rows (format 1.2 on), in file order
 * @ncache: how many
 * @over: the "cache_overflow" row's CACHE_NR columns
 * @has_caches: the file has the per-cache table (its overflow row)
 * @vm: the "vm KIND" rows' columns, by kind (format 1.6)
 * @has_vm: which kinds' rows the file has
 * @src: the per-source lines, by source and SRC_* (mstat_snap_index())
 * @has_src: which sources the file has (their "_enabled" line)
 * @gen: its generation (mstat_snap_index())
 * @when: CLOCK_MONOTONIC right after the open that took it
 */
struct mstat_snap {
	const char *path;
	char version[32];
	int major, minor;
	struct mstat_counter ctr[MSTAT_MAX_COUNTERS];
	int nctr;
	struct mstat_class cls[MSTAT_MAX_CLASSES];
	int ncls;
	struct mstat_order ord[MSTAT_MAX_ORDERS];
	int nord;
	struct mstat_class kcls[MSTAT_MAX_CLASSES];
	int nkcls;
	struct mstat_cache cache[MSTAT_MAX_CACHES];
	int ncache;
	long long over[CACHE_NR];
	bool has_caches;
	long long vm[MSTAT_NR_VM_KINDS][VM_NR];
	bool has_vm[MSTAT_NR_VM_KINDS];
	long long src[MSTAT_NR_SRC][SRC_NR];
	bool has_src[MSTAT_NR_SRC];
	long long gen;
	struct timespec when;
};

/*
 * A row's cgroup label (format 2.2): the cgroup v2 id (>= 1; the inode
 * number of its directory under the cgroup2 mount), or one of these.
 * Rows of formats before 2.2 have MSTAT_CGROUP_UNKNOWN.
 */
#define MSTAT_CGROUP_UNKNOWN	0LL	/* "-": no cgroups, or not taken */
#define MSTAT_CGROUP_HARDIRQ	(-1LL)	/* "hardirq" */
#define MSTAT_CGROUP_SOFTIRQ	(-2LL)	/* "softirq" */

#define MSTAT_NODE_UNKNOWN	(-1LL)	/* a row's node label "-" */

/**
 * struct mstat_live - one live sampled object of a row (format 2.2)
 * @age_ms: its age in milliseconds when the file was read
 * @bytes: its sampled bytes (its size)
 * @line: where it was
 */
struct mstat_live {
	long long age_ms, bytes;
	int line;
};

/**
 * struct mstat_site - one row of /proc/mstat_sites
 * @est_bytes: the in-use estimate (and so on: the eight numbers, in the
 *	file's column order)
 * @text: the call site (format 1) or the stack's leaf frame (format 2),
 *	as %pS printed it, module included
 * @func: the symbol, without +off/len
 * @module: the module, or NULL for the kernel
 * @frame: the callers, innermost first, as %pS (format 2)
 * @nframe: how many
 * @cgroup: the cgroup label, MSTAT_CGROUP_* or an id (format 2.2)
 * @node: the NUMA node label, or MSTAT_NODE_UNKNOWN (format 2.2)
 * @cache: the slab cache's name, decoded, or NULL when unknown (format
 *	2.2)
 * @src: the source of its samples, an index of mstat_src_names[], or -1
 *	when not given (before format 2.3)
 * @live: the row's live lines, in file order (oldest first); the
 *	difference between @sampled_bytes and their sum has no age
 * @nlive: how many
 * @line: the row's line
 */
struct mstat_site {
	long long est_bytes, est_calls, sampled_bytes, sampled_calls;
	long long allocs, alloc_bytes, frees, free_bytes;
	char *text;
	char *func;
	char *module;
	char **frame;
	size_t nframe;
	long long cgroup;
	long long node;
	char *cache;
	int src;
	long long drops;	/* of @frees, entries dropped (2.5; else 0) */
	struct mstat_live *live;
	size_t nlive;
	int line;
};

/*
 * The header's figures: @nsites rows ("sites" in format 1, "stacks" in
 * 2), @site_drops samples without a row ("site_drops", "stack_drops"),
 * and from format 2 the frames a stack may hold (@depth) and the samples
 * whose unwound stack did not hold their call site, kept as the call site
 * alone (@leafless); from 2.1 whether the snapshot was served again
 * (@reused) and its age (@age_ms); from 2.2 the address-table entries
 * dropped because the profile could not vouch for their free
 * (@addr_phantoms); from 2.4 how long the profile's history is
 * (@history_ms: since its rate last changed, a reset, or an entry dropped
 * without its free) and since the rows' counts began (@counts_ms: load
 * or a reset); -1 when not given.
 */
struct mstat_sites {
	const char *path;
	char version[32];
	int major, minor;
	long long snapshot, rate, nsites, site_drops, addr_drops, addr_live;
	long long depth, leafless;
	long long reused, age_ms, addr_phantoms, history_ms;
	long long counts_ms;
	struct mstat_site *site;
	size_t n, cap;
};

/* Why a parse stopped. */
enum mstat_perr {
	MSTAT_OK,
	MSTAT_E_NUL,		/* a NUL byte at @off: not text */
	MSTAT_E_EMPTY,		/* no bytes at all */
	MSTAT_E_PARTIAL,	/* the last line has no newline */
	MSTAT_E_HEAD,		/* line 1 is not "<name> - version: ..." */
	MSTAT_E_VERSION,	/* the version is not MAJOR.MINOR */
	MSTAT_E_MAJOR,		/* a major other than MSTAT_MAJOR */
	MSTAT_E_LINE,		/* a line of no known shape */
	MSTAT_E_COUNTER,	/* a malformed "name value" line */
	MSTAT_E_CLASS,		/* a malformed class row */
	MSTAT_E_ORDER,		/* a malformed order row */
	MSTAT_E_CACHE,		/* a malformed cache or cache_overflow row */
	MSTAT_E_VM,		/* a malformed vm row */
	MSTAT_E_TOO_MANY,	/* more lines of a kind than MSTAT_MAX_* */
	MSTAT_E_DUP,		/* a line given twice, @dup says which */
	MSTAT_E_SITES_HEADER,	/* no or a malformed "# snapshot ..." line */
	MSTAT_E_SITE_ROW,	/* a malformed site row or frame line */
	MSTAT_E_SITE_CGROUP,	/* a row's malformed cgroup label */
	MSTAT_E_SITE_NODE,	/* a row's malformed node label */
	MSTAT_E_SITE_CACHE,	/* a row's malformed cache label */
	MSTAT_E_SITE_SOURCE,	/* a row's unknown source */
	MSTAT_E_SITE_LIVE,	/* a malformed live line ("+ AGE_MS BYTES") */
	MSTAT_E_SITE_PLACE,	/* a frame or live line before any row, or a
				 * frame after its row's live lines */
	MSTAT_E_SITE_COLUMNS,	/* the column line has fewer columns than
				 * the version's, or more than it knows */
	MSTAT_E_SITES_COUNT,	/* fewer or more rows than the header says */
	MSTAT_E_OWNERS_HEADER,	/* no or a malformed "# rows ..." line */
	MSTAT_E_OWNER_ROW,	/* a malformed owner row */
	MSTAT_E_OWNERS_COUNT,	/* fewer or more owner rows than its header */
	MSTAT_E_NOMEM,		/* out of memory */
};

/**
 * struct mstat_perror - where and why a parse stopped
 * @code: what went wrong
 * @line: the line, from 1 (0 for the whole-file errors)
 * @text: that line, whole, inside the caller's buffer (valid until it
 *	  is freed)
 * @off: MSTAT_E_NUL: the offset of the NUL byte
 * @dup: MSTAT_E_DUP: which line was given twice
 */
struct mstat_perror {
	enum mstat_perr code;
	int line;
	const char *text;
	size_t off;
	struct mstat_dup dup;
};

#define MSTAT_PARSE_EXACT	1u	/* the shapes of the file's minor, nothing else */

bool mstat_parse_num(const char *s, long long *v);
bool mstat_is_s64(const char *name);
bool mstat_parse_u64(const char *s, unsigned long long *v);

/*
 * The lines, words and numbers of both files (parse.c), for the parsers
 * (parse.c's of /proc/mstat_sites, parse_snap.c's of /proc/mstat). A
 * line is split at single spaces into at most MSTAT_MAX_WORDS words.
 */
#define MSTAT_MAX_WORDS		32

/* @n numbers of @w into @v (mstat_parse_num()), or false. */
bool mstat_parse_nums(char **w, int n, long long *v);
int mstat_split(char *line, char **w, int max);
void mstat_unsplit(char *line, const char *end);
/* Stop a parse: @err gets @code, @line and @text; returns false. */
bool mstat_fail(struct mstat_perror *err, enum mstat_perr code, int line,
		const char *text);
bool mstat_check_text(const char *buf, size_t len, struct mstat_perror *err);
char *mstat_next_line(char **pos);
bool mstat_parse_head(char *line, const char *head, char *version,
		      int *major, int *minor, int lo, int hi,
		      struct mstat_perror *err);
bool mstat_cache_name_decode(const char *w, struct mstat_cache *c);

/**
 * mstat_sites_parse() - parse a /proc/mstat_sites text
 * @ss: gets the rows (@ss->path is kept; free with mstat_sites_clear())
 * @buf, @len, @err: as for mstat_snap_parse()
 *
 * Return: true if the whole text parsed and has as many rows as its
 * header says.
 */
bool mstat_sites_parse(struct mstat_sites *ss, char *buf, size_t len,
		       struct mstat_perror *err);
void mstat_sites_clear(struct mstat_sites *ss);

/*
 * "-", "hardirq", "softirq" or an id >= 1, as both /proc/mstat_sites and
 * /proc/mstat_owners write a cgroup: into *@v (MSTAT_CGROUP_*), or false.
 */
bool mstat_parse_cgroup(const char *s, long long *v);

/**
 * struct mstat_owner - one row of /proc/mstat_owners (format 1): who
 *	holds some of the vm areas or percpu objects mstat counted since
 *	load or the last reset, exactly
 * @src: SRC_VMALLOC or SRC_PERCPU
 * @kind: a vm area's kind as the module names it ("vmalloc", "vmap",
 *	"ioremap", "other"), "-" for a percpu object
 * @cgroup: the allocating tasks' cgroup, MSTAT_CGROUP_* or an id
 * @allocs: objects allocated
 * @frees: of them, freed
 * @bytes: the live ones' bytes
 * @caller: the caller's function without +off/len, then " [module]" for
 *	a module's; "other" for the owners past a full table
 * @other: that overflow row
 */
struct mstat_owner {
	int src;
	char kind[16];
	long long cgroup;
	long long allocs, frees, bytes;
	char caller[128];
	bool other;
};

/*
 * /proc/mstat_owners: @rows and @capacity from its header, @r its @n
 * rows in file order (each source's, vmalloc's first).
 */
struct mstat_owners {
	const char *path;
	char version[32];
	int major, minor;
	long long rows, capacity;
	struct mstat_owner *r;
	size_t n;
};

/*
 * Parse a /proc/mstat_owners text (parse_owners.c) into @ow (@ow->path
 * kept; free @ow->r); @err as for mstat_snap_parse(). A later minor's
 * added words at a row's end are skipped.
 * Return: true if the whole text parsed, as many rows as its header says.
 */
bool mstat_owners_parse(struct mstat_owners *ow, char *buf, size_t len,
			struct mstat_perror *err);

#endif /* MSTAT_PARSE_H */
