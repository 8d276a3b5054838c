// SPDX-License-Identifier: GPL-2.0
/*
 * The eBPF comparison's programs (see mstat_bpf.h for the two sets):
 * raw tracepoint programs, which need no BTF of the kernel; their context
 * is the tracepoint's arguments as u64s, in TP_PROTO's order
 * (include/trace/events/kmem.h, 6.12):
 *
 *	kmalloc: call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node
 *	kfree:   call_site, ptr
 *
 * The loader (tests/helpers/mstat-bpf.c) loads one set. A program does
 * not run while the same program runs on its CPU (an interrupt that allocates during
 * it): the kernel skips that event and counts it in the program's
 * recursion_misses, which the loader reports.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "mstat_bpf.h"

#define KMALLOC_PTR		1
#define KMALLOC_BYTES_ALLOC	3
#define KFREE_PTR		1
/* ZERO_SIZE_PTR: kfree() of it, or of NULL, frees nothing. */
#define ZERO_SIZE_PTR		16

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, MSTAT_BPF_NR_CELLS);
	__type(key, __u32);
	__type(value, struct mstat_bpf_cell);
} cells SEC(".maps");

/* The sized set's: the size of every object it saw allocated, by address. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MSTAT_BPF_MAX_LIVE);
	__type(key, __u64);
	__type(value, __u64);
} sizes SEC(".maps");

/* mstat_size_class() of mstat_stats.h, 256 B to 8 KiB by comparisons. */
static __always_inline __u32 size_class(__u64 size)
{
	/* Classes of 1..192 bytes by (size - 1) / 8, as kmalloc's size_index. */
	static const __u8 small[24] = {
		0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
		5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
	};

	if (size <= 192)
		return size ? small[(size - 1) / 8] : 0;
	if (size > 8192)
		return MSTAT_BPF_CLASS_LARGE;
	/* Powers of two from 256 (class 7) to 8192 (class 12). */
	if (size <= 1024)
		return size <= 256 ? 7 : size <= 512 ? 8 : 9;
	return size <= 2048 ? 10 : size <= 4096 ? 11 : 12;
}

static __always_inline struct mstat_bpf_cell *cell(__u32 c)
{
	return bpf_map_lookup_elem(&cells, &c);
}

SEC("raw_tp/kmalloc")
int mstat_c_kmalloc(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 bytes = ctx->args[KMALLOC_BYTES_ALLOC];
	struct mstat_bpf_cell *v;

	if (!ctx->args[KMALLOC_PTR])
		return 0;
	v = cell(size_class(bytes));
	if (!v)
		return 0;
	v->allocs++;
	v->bytes += bytes;
	return 0;
}

SEC("raw_tp/kfree")
int mstat_c_kfree(struct bpf_raw_tracepoint_args *ctx)
{
	struct mstat_bpf_cell *v;

	if (ctx->args[KFREE_PTR] <= ZERO_SIZE_PTR)
		return 0;
	v = cell(MSTAT_BPF_UNSIZED);
	if (v)
		v->frees++;
	return 0;
}

/*
 * The count before the record: a free that finds the record counts after
 * the allocation did, so in any one moment's counts, frees <= allocs in
 * every class.
 */
SEC("raw_tp/kmalloc")
int mstat_s_kmalloc(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 ptr = ctx->args[KMALLOC_PTR];
	__u64 bytes = ctx->args[KMALLOC_BYTES_ALLOC];
	struct mstat_bpf_cell *v;

	if (!ptr)
		return 0;
	v = cell(size_class(bytes));
	if (!v)
		return 0;
	v->allocs++;
	v->bytes += bytes;
	if (bpf_map_update_elem(&sizes, &ptr, &bytes, BPF_ANY)) {
		v = cell(MSTAT_BPF_UNSIZED);
		if (v)
			v->allocs++;
	}
	return 0;
}

SEC("raw_tp/kfree")
int mstat_s_kfree(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 ptr = ctx->args[KFREE_PTR];
	struct mstat_bpf_cell *v;
	__u64 *size, bytes;

	if (ptr <= ZERO_SIZE_PTR)
		return 0;
	size = bpf_map_lookup_elem(&sizes, &ptr);
	if (!size) {
		v = cell(MSTAT_BPF_UNSIZED);
		if (v)
			v->frees++;
		return 0;
	}
	/* Read before the delete: a deleted element is reused at once. */
	bytes = *size;
	bpf_map_delete_elem(&sizes, &ptr);
	v = cell(size_class(bytes));
	if (!v)
		return 0;
	v->frees++;
	v->bytes_freed += bytes;
	return 0;
}
