// SPDX-License-Identifier: GPL-2.0
/*
 * mstat memory's outputs: the account memory.c built, as text for people,
 * as one JSON object (json.c's writer), and the Prometheus series that
 * its lines alone do not give (mstat_memory_prom() writes the lines).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>

#include "json.h"
#include "memory_out.h"
#include "pages.h"
#include "parse_snap.h"
#include "util.h"

const char *const mstat_memory_from[FROM_REST + 1] = {
	[FROM_KERNEL] = "kernel", [FROM_MEMINFO] = "meminfo",
	[FROM_MSTAT] = "mstat", [FROM_SUM] = "sum", [FROM_REST] = "rest",
};

void mstat_memory_text(const struct account *a, const long long mi[MI_NR],
		       const struct mstat_snap *s,
		       const struct mstat_page_samples *ps, const char *sites)
{
	char b[32];
	int i;

	printf("mstat memory: one snapshot, generation %lld (format %s)\n",
	       a->gen, s->version);
	printf("%-40s %12s %7s  %s\n", "", "bytes", "share", "from");
	for (i = 0; i < a->n; i++) {
		const struct line *l = &a->l[i];
		char name[64];

		snprintf(name, sizeof(name), "%*s%s", 2 * l->depth, "",
			 l->name);
		printf("%-40s %12s %6.1f%%  %s\n", name,
		       mstat_bytes(b, (double)l->bytes),
		       a->total ? 100.0 * l->bytes / a->total : 0.0,
		       l->from);
	}
	if (mi[MI_TOTAL] < 0) {
		printf("\nbeside, as checks: the module's counters (no /proc/meminfo beside a saved snapshot: --meminfo FILE gives one)\n");
		printf("  MemTotal %lld, MemFree %lld, Slab %lld, KernelStack %lld\n",
		       mstat_get(s, "kernel_mem_total_bytes"),
		       mstat_get(s, "kernel_mem_free_bytes"),
		       mstat_get(s, "kernel_slab_reclaimable_bytes") +
		       mstat_get(s, "kernel_slab_unreclaimable_bytes"),
		       mstat_get(s, "kernel_kernel_stack_bytes"));
	} else {
		printf("\nbeside, as checks: the module's counters and /proc/meminfo read after\n");
		printf("  MemTotal %lld / %lld, MemFree %lld / %lld, Slab %lld / %lld, KernelStack %lld / %lld\n",
		       mstat_get(s, "kernel_mem_total_bytes"), mi[MI_TOTAL],
		       mstat_get(s, "kernel_mem_free_bytes"), mi[MI_FREE],
		       mstat_get(s, "kernel_slab_reclaimable_bytes") +
		       mstat_get(s, "kernel_slab_unreclaimable_bytes"),
		       mi[MI_SLAB], mstat_get(s, "kernel_kernel_stack_bytes"),
		       mi[MI_KERNEL_STACK]);
	}
	if (mstat_find(s, "kernel_mem_total_bytes_at_load"))
		printf("  when mstat began counting (load or reset): MemFree %lld, Slab %lld, KernelStack %lld, PageTables %lld, file %lld, anon %lld\n",
		       mstat_get(s, "kernel_mem_free_bytes_at_load"),
		       mstat_get(s, "kernel_slab_reclaimable_bytes_at_load") +
		       mstat_get(s, "kernel_slab_unreclaimable_bytes_at_load"),
		       mstat_get(s, "kernel_kernel_stack_bytes_at_load"),
		       mstat_get(s, "kernel_page_tables_bytes_at_load"),
		       mstat_get(s, "kernel_file_bytes_at_load"),
		       mstat_get(s, "kernel_anon_bytes_at_load"));
	printf("  vm areas: vmalloc live %lld bytes in %lld areas; unknown frees %lld (%lld bytes); untracked %lld\n",
	       s->vm[VM_KIND_VMALLOC][VM_LIVE_BYTES],
	       s->vm[VM_KIND_VMALLOC][VM_LIVE_AREAS],
	       mstat_get(s, "vmalloc_unknown_frees"),
	       mstat_get(s, "vmalloc_unknown_bytes"),
	       mstat_get(s, "vmalloc_untracked"));
	printf("  percpu: live %lld bytes in %lld objects; unknown frees %lld; untracked %lld\n",
	       s->src[SRC_PERCPU][SRC_LIVE_BYTES],
	       s->src[SRC_PERCPU][SRC_LIVE_OBJ],
	       mstat_get(s, "percpu_unknown_frees"),
	       mstat_get(s, "percpu_untracked"));
	if (!sites)
		return;
	if (!ps->have) {
		printf("  pages by what they became: no page samples in %s (format 2.3 and profile_pages=1 give them)\n",
		       sites);
		return;
	}
	printf("  pages sampled in use by what their stacks say they became (profile rate %lld, since profile_pages=1):\n   ",
	       ps->rate);
	for (int k = 0; k < PK_NR; k++)
		printf(" %s %s%s", mstat_page_kind_name[k],
		       mstat_bytes(b, (double)ps->kind[k]), k + 1 < PK_NR ? "," : "\n");
	if (ps->dropped > 0)
		printf("  the profile dropped %lld samples, with no room for them (profile_buckets, profile_addrs): every sampled line above is low\n",
		       ps->dropped);
}

/* The page kinds' @v as members of an object, after others if !@first. */
static void json_kinds(const long long v[PK_NR], bool first)
{
	int i;

	for (i = 0; i < PK_NR; i++) {
		printf(first && !i ? " " : ", ");
		mstat_json_key(stdout, mstat_page_kind_name[i]);
		printf("%lld", v[i]);
	}
	printf(" }");
}

void mstat_memory_json(const struct account *a,
		       const struct mstat_page_samples *ps,
		       const struct mstat_memory_whose *w)
{
	int i;

	printf("{\n  \"generation\": %lld,\n  \"mem_total\": %lld,\n"
	       "  \"unexplained\": %lld,\n",
	       a->gen, a->total, a->unexplained);
	if (a->bound >= 0)
		printf("  \"unexplained_bound\": %lld,\n", a->bound);
	if (ps->have) {
		long long se[PK_NR];

		printf("  \"pages_sampled\": { \"rate\": %lld, \"samples\": %lld",
		       ps->rate, ps->samples);
		json_kinds(ps->kind, false);
		/* Each kind's estimate's standard error, and its samples. */
		for (i = 0; i < PK_NR; i++)
			se[i] = mstat_page_se(ps->kind_var[i]);
		printf(",\n  \"pages_sampled_stderr\": {");
		json_kinds(se, true);
		printf(",\n  \"pages_sampled_n\": {");
		json_kinds(ps->kind_n, true);
		printf(",\n  \"pages_sampled_dropped\": %lld,\n", ps->dropped);
	}
	if (w->vc) {
		printf("  \"vmalloc_by_caller\": ");
		mstat_vm_callers_json(stdout, w->vc);
		printf(",\n");
	}
	if (w->pc) {
		printf("  \"percpu_by_caller\": ");
		mstat_pcpu_callers_json(stdout, w->pc);
		printf(",\n");
	}
	if (w->sc) {
		printf("  \"slab_by_caller\": ");
		mstat_slab_callers_json(stdout, w->sc);
		printf(",\n");
	}
	if (w->cg) {
		printf("  \"by_cgroup\": ");
		mstat_cg_table_json(stdout, w->cg);
		printf(",\n");
	}
	printf("  \"lines\": [");
	for (i = 0; i < a->n; i++) {
		const struct line *l = &a->l[i];

		printf("%s\n    { \"depth\": %d, \"name\": ", i ? "," : "",
		       l->depth);
		mstat_json_str(stdout, l->name);
		printf(", \"bytes\": %lld, \"line\": ", l->bytes);
		mstat_json_str(stdout, l->key);
		printf(", \"source\": ");
		mstat_json_str(stdout, mstat_memory_from[l->kind]);
		printf(", \"from\": ");
		mstat_json_str(stdout, l->from);
		printf(" }");
	}
	printf("\n  ]\n}\n");
}

/*
 * The raw pages the profile sampled, by caller as mstat memory names them
 * (its top MSTAT_RAW_CALLERS, then "every other caller": a name no
 * function has, so a caller label never stands for two things), each
 * with its standard error in a family of its own, so that sum() of the
 * bytes is the sampled raw pages and no series is an error bar. Nothing
 * without page samples, or none raw.
 */
void mstat_memory_raw_prom(FILE *f, const struct mstat_page_samples *ps)
{
	int i;

	if (!ps->have || !ps->ncaller)
		return;
	mstat_prom_head(f, "mstat_memory_raw_pages_bytes", "gauge",
			"Pages in use that no kernel counter names (raw pages), as the heap profile sampled them (profile_pages=1), by caller: the first frame of their stack outside the page allocator. An estimate: see mstat_memory_raw_pages_stderr_bytes.");
	for (i = 0; i < ps->ncaller; i++) {
		fputs("mstat_memory_raw_pages_bytes{caller=\"", f);
		mstat_prom_label(f, ps->caller[i].name);
		fprintf(f, "\"} %lld\n", ps->caller[i].bytes);
	}
	mstat_prom_head(f, "mstat_memory_raw_pages_stderr_bytes", "gauge",
			"One standard error of mstat_memory_raw_pages_bytes of the same caller, from each sampled object's chance (Horvitz-Thompson): about bytes / sqrt(samples) for objects far below the rate, 0 far above it.");
	for (i = 0; i < ps->ncaller; i++) {
		fputs("mstat_memory_raw_pages_stderr_bytes{caller=\"", f);
		mstat_prom_label(f, ps->caller[i].name);
		fprintf(f, "\"} %lld\n",
			mstat_page_se(ps->caller[i].var));
	}
}

/*
 * What the account's lines alone do not say, each a gauge of its own: how
 * far unexplained may be off by the kernel's counters' lag (1.9 on:
 * lag_bound()), and, where /proc/meminfo was read beside the snapshot,
 * how much older the snapshot is than it: 0 for a snapshot this read
 * took, its snapshot_age_ms for one the module served again to a reader
 * under proc_min_interval_ms (mstat serve's, without CAP_SYS_ADMIN). The
 * meminfo lines are then of a later moment than the others by as much,
 * which no bound covers: the age is given, never folded in or dropped.
 */
void mstat_memory_moment_prom(FILE *f, const struct account *a,
			      const struct mstat_snap *s,
			      const long long mi[MI_NR])
{
	bool beside = false;
	int i;

	for (i = 0; i < MI_NR; i++)
		beside |= mi[i] >= 0;
	if (a->bound >= 0) {
		mstat_prom_head(f, "mstat_memory_unexplained_bound_bytes", "gauge",
				"How far mstat_memory_bytes{line=\"unexplained\"} may be off the truth either way, by the lag of the kernel's counters in the account (each vmstat counter by the per-CPU differences not yet folded: kernel_zone_stat_lag_bytes, kernel_node_stat_lag_bytes). Two reads' unexplained may differ by twice this with no memory moving: only a change beyond it is memory. Format 1.9 on.");
		fprintf(f, "mstat_memory_unexplained_bound_bytes %lld\n",
			a->bound);
	}
	if (beside) {
		mstat_prom_head(f, "mstat_memory_snapshot_age_seconds", "gauge",
				"How much older the snapshot is than the /proc/meminfo read beside it, whose are the from=\"meminfo\" lines: 0 for a snapshot this read took; for one the module served again (snapshot_reused 1: a reader without CAP_SYS_ADMIN within proc_min_interval_ms, as mstat serve's unit), its age then, snapshot_age_ms. The meminfo lines are that much later than the others, which the unexplained bound does not cover. None without a meminfo beside the snapshot.");
		fprintf(f, "mstat_memory_snapshot_age_seconds %.3f\n",
			mstat_snap_age(s));
	}
}
