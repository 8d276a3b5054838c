// SPDX-License-Identifier: GPL-2.0
/*
 * mstat memory --by caller: the vmalloc line by caller, from the kernel's
 * own list of vm areas. Each line of /proc/vmallocinfo is one area:
 *
 *	0xffffc90000a1d000-0xffffc90002a1e000 33558528 bpf_map_area_alloc+0x.../0x... pages=8192 vmalloc N0=8192
 *
 * its range, its size with the guard page, the caller that asked for it
 * (%pS: a module's function with " [module]" after it), then, for an
 * area with pages of its own (vmalloc() and its users: kvmalloc(), BPF
 * maps, module text, kernel stacks), "pages=N": those pages are what
 * NR_VMALLOC, the account's vmalloc line (VmallocUsed), counts. An area
 * of ioremap(), vmap() or vm_map_ram() has none: counted apart, never in
 * the line. So the callers' bytes add up to the vmalloc line, read apart
 * by a few milliseconds: mstat memory prints both.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callers.h"
#include "input.h"
#include "json.h"
#include "parse.h"
#include "util.h"
#include "vmcallers.h"

/*
 * What the areas of some callers are. execmem_alloc() takes every
 * executable area since 6.10 (module text, BPF's JIT and its packs), so
 * its areas are named by that, not by whose they are.
 */
static const struct {
	const char *func;
	const char *kind;
} vm_kinds[] = {
	{ "bpf_map_area_alloc", "BPF maps" },
	{ "__bpf_map_area_alloc", "BPF maps" },
	{ "bpf_map_area_mmapable_alloc", "BPF maps" },
	{ "bpf_prog_alloc_no_stats", "BPF programs" },
	{ "bpf_prog_realloc", "BPF programs" },
	{ "bpf_prog_pack_alloc", "BPF programs" },
	{ "alloc_new_pack", "BPF programs" },
	{ "bpf_jit_alloc_exec", "BPF programs" },
	{ "execmem_alloc", "executable: module text, BPF JIT" },
	{ "module_alloc", "module text" },
	{ "move_module", "module text" },
	{ "load_module", "modules" },
	{ "alloc_thread_stack_node", "kernel stacks" },
	{ "dup_task_struct", "kernel stacks" },
	{ "kernel_clone", "kernel stacks" },
	{ "fork_idle", "kernel stacks" },
	{ "alloc_large_system_hash", "boot hash tables" },
	{ "pcpu_mem_zalloc", "percpu chunks' maps" },
	{ "pcpu_create_chunk", "percpu chunks' maps" },
};

/*
 * What @name's areas are: vm_kinds[]'s, or a BPF map's for a map type's
 * allocator (htab_map_alloc, array_map_alloc: bpf_map_area_alloc()
 * inlined into it).
 */
static const char *vm_kind(const char *name)
{
	static const char map[] = "_map_alloc";
	size_t i, n = strcspn(name, " ");

	for (i = 0; i < ARRAY_SIZE(vm_kinds); i++)
		if (strlen(vm_kinds[i].func) == n &&
		    !strncmp(vm_kinds[i].func, name, n))
			return vm_kinds[i].kind;
	if (n > sizeof(map) - 1 &&
	    !strncmp(name + n - (sizeof(map) - 1), map, sizeof(map) - 1))
		return "BPF maps";
	return NULL;
}

/*
 * One line's caller into @buf: its function without the offset, and a
 * module's name after it ("f [mod]"); "unknown" for a line with none.
 */
static void vm_caller(const char *tok, const char *next, char *buf,
		      size_t size)
{
	size_t n = strcspn(tok, "+ \t");

	if (!n || !strncmp(tok, "pages=", 6) || !strncmp(tok, "phys=", 5)) {
		snprintf(buf, size, "unknown");
		return;
	}
	if (next && next[0] == '[')
		snprintf(buf, size, "%.*s %.*s", (int)n, tok,
			 (int)strcspn(next, " \t"), next);
	else
		snprintf(buf, size, "%.*s", (int)n, tok);
}

/* Caller @name's entry of @cs, made (and its kind named) if new. */
static struct mstat_caller *vm_entry(struct mstat_callers *cs,
				     const char *name)
{
	struct mstat_caller *c = mstat_callers_add(cs, name);

	c->kind = vm_kind(name);
	return c;
}

/*
 * @ow's vmalloc areas into @cs by caller (as vmallocinfo names one): a
 * caller whose areas vmallocinfo, read a moment apart, does not list
 * gets an entry of its own with no bytes there.
 */
static void vm_since(const struct mstat_owners *ow, struct mstat_callers *cs,
		     struct mstat_vm_callers *vc)
{
	struct mstat_caller *c;
	size_t i;

	for (i = 0; ow && i < ow->n; i++) {
		const struct mstat_owner *r = &ow->r[i];

		if (r->src != SRC_VMALLOC || strcmp(r->kind, "vmalloc"))
			continue;
		c = vm_entry(cs, r->other ? "other (mstat's table full)" :
					    r->caller);
		c->since_bytes += r->bytes;
		c->since_count += r->allocs - r->frees;
		vc->since_bytes += r->bytes;
	}
}

/*
 * Line @p (NUL-terminated, cut into words here) into @cs: 1 if its area
 * has pages, 0 if not, -1 if it is not an area's line.
 */
static int vm_line(char *p, struct mstat_callers *cs, long page)
{
	char *tok[16], *save = NULL, *t, *pages = NULL;
	char name[sizeof(cs->c->name)];
	struct mstat_caller *c;
	int k = 0;

	for (t = strtok_r(p, " \t", &save); t && k < 16;
	     t = strtok_r(NULL, " \t", &save)) {
		tok[k++] = t;
		if (!strncmp(t, "pages=", 6))
			pages = t + 6;
	}
	if (k < 3 || strncmp(tok[0], "0x", 2) || !strchr(tok[0], '-'))
		return -1;
	if (!pages)
		return 0;
	vm_caller(tok[2], k > 3 ? tok[3] : NULL, name, sizeof(name));
	c = vm_entry(cs, name);
	c->bytes += strtoll(pages, NULL, 10) * page;
	c->count++;
	return 1;
}

int mstat_vm_callers_read(const char *path, int top,
			  const struct mstat_owners *ow,
			  struct mstat_vm_callers *vc)
{
	struct mstat_callers cs = { 0 };
	enum mstat_read_fail how;
	size_t len, i;
	char *buf, *p, *nl;
	long page = sysconf(_SC_PAGESIZE);
	int r;

	memset(vc, 0, sizeof(*vc));
	vc->path = path;
	buf = mstat_slurp(path, 256 << 20, NULL, &len, &how);
	if (!buf) {
		mstat_err("%s: %s%s", path, strerror(errno),
			  errno == EACCES ? " (root only)" : "");
		return -1;
	}
	for (p = buf; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		r = vm_line(p, &cs, page);
		if (r < 0 && *p) {
			mstat_err("%s: not /proc/vmallocinfo's format: \"%.60s\"",
				  path, p);
			free(buf);
			mstat_callers_free(&cs);
			return -1;
		}
		vc->others += r == 0;
		if (!nl)
			break;
	}
	free(buf);
	vc->owners = ow ? ow->path : NULL;
	vm_since(ow, &cs, vc);
	for (i = 0; i < cs.n; i++) {
		vc->areas += cs.c[i].count;
		vc->bytes += cs.c[i].bytes;
	}
	/* The top ones, then the rest as one. */
	mstat_callers_top(&cs, top, "every other caller");
	vc->c = cs.c;
	vc->n = (int)cs.n;
	return 0;
}

void mstat_vm_callers_free(struct mstat_vm_callers *vc)
{
	free(vc->c);
	vc->c = NULL;
	vc->n = 0;
}

void mstat_vm_callers_text(FILE *f, const struct mstat_vm_callers *vc,
			   long long vmalloc)
{
	char b[32], c[32];
	int i;

	fprintf(f, "\nvmalloc by caller (the kernel's %s: %s areas with pages, %s",
		vc->path, mstat_count(b, vc->areas),
		mstat_bytes(c, (double)vc->bytes));
	if (vmalloc >= 0)
		fprintf(f, "; the vmalloc line above %s",
			mstat_bytes(b, (double)vmalloc));
	fprintf(f, "; %s areas without, not in it)\n",
		mstat_count(c, vc->others));
	if (vc->owners)
		fprintf(f, "  since load (exact, %s): %s; the rest made before\n",
			vc->owners, mstat_bytes(b, (double)vc->since_bytes));
	for (i = 0; i < vc->n; i++) {
		fprintf(f, "  %12s  %-40s %7s area%s",
			mstat_bytes(b, (double)vc->c[i].bytes), vc->c[i].name,
			mstat_count(c, vc->c[i].count),
			vc->c[i].count == 1 ? " " : "s");
		if (vc->owners)
			fprintf(f, "  %12s since load",
				mstat_bytes(b, (double)vc->c[i].since_bytes));
		fprintf(f, "%s%s\n", vc->c[i].kind ? "  " : "",
			vc->c[i].kind ? vc->c[i].kind : "");
	}
}

void mstat_vm_callers_json(FILE *f, const struct mstat_vm_callers *vc)
{
	int i;

	fputs("{\"from\": ", f);
	mstat_json_str(f, vc->path);
	fprintf(f, ", \"areas\": %lld, \"bytes\": %lld, \"areas_without_pages\": %lld, \"owners\": ",
		vc->areas, vc->bytes, vc->others);
	if (vc->owners)
		mstat_json_str(f, vc->owners);
	else
		fputs("null", f);
	fprintf(f, ", \"since_load_bytes\": %lld, \"callers\": [",
		vc->owners ? vc->since_bytes : -1);
	for (i = 0; i < vc->n; i++) {
		fputs(i ? ", {\"caller\": " : "{\"caller\": ", f);
		mstat_json_str(f, vc->c[i].name);
		fputs(", \"kind\": ", f);
		if (vc->c[i].kind)
			mstat_json_str(f, vc->c[i].kind);
		else
			fputs("null", f);
		fprintf(f, ", \"bytes\": %lld, \"areas\": %lld, \"since_load_bytes\": %lld, \"since_load_areas\": %lld}",
			vc->c[i].bytes, vc->c[i].count,
			vc->owners ? vc->c[i].since_bytes : -1,
			vc->owners ? vc->c[i].since_count : -1);
	}
	fputs("]}", f);
}
