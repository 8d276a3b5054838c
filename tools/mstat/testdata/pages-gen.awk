# SPDX-License-Identifier: GPL-2.0
#
# Writes mstat_sites-2.3.txt: a /proc/mstat_sites 2.3 (mstat_proc.c's
# mstat_sites_show()) with page rows whose stacks say what the pages
# became (pages.c's page_frames), for test.sh's memory_pages tests; and
# with -v set=mydrv mstat_sites-2.3-mydrv.txt (mydrv() below):
#
#   awk -f testdata/pages-gen.awk >testdata/mstat_sites-2.3.txt
#   awk -v set=mydrv -f testdata/pages-gen.awk \
#	>testdata/mstat_sites-2.3-mydrv.txt
#
# A row is "SOURCE SIZE SAMPLED FREED CGROUP NODE CACHE", then its frames,
# innermost first, the first the site. Its allocs are SAMPLED + FREED
# objects of SIZE bytes; est_bytes and est_calls are the sampled ones
# scaled as the module's mstat_scale() does, by 1 / (1 - e^(-SIZE/R)) at
# sample_rate R = 65536, rounded (the module's Q32 probability may round
# one apart: the tool only adds these columns up, so the test's figures
# are the file's). A row's live lines are one per sampled object in use,
# as the module prints them, ages made up.
BEGIN {
	R = 65536
	n = 0
	if (set == "mydrv") {
		mydrv()
		emit()
		exit
	}
	# Raw pages, caller e1000_alloc_rx_buffers [e1000]: two stacks, one
	# caller (the tool names a raw page by its first frame).
	row("page 4096 8 2 softirq 0 -",
	    "e1000_alloc_rx_buffers+0x129/0x3a0 [e1000]",
	    "e1000_clean_rx_irq+0x2f8/0x4c0 [e1000]",
	    "e1000_clean+0x27e/0x8b0 [e1000]",
	    "__napi_poll+0x2b/0x1c0",
	    "net_rx_action+0x2c6/0x360",
	    "handle_softirqs+0xd4/0x2b0",
	    "irq_exit_rcu+0x78/0xa0",
	    "common_interrupt+0x7f/0xa0")
	row("page 4096 4 0 1 0 -",
	    "e1000_alloc_rx_buffers+0x129/0x3a0 [e1000]",
	    "e1000_configure+0x3d1/0x480 [e1000]",
	    "e1000_open+0xa0/0x170 [e1000]",
	    "__dev_open+0xe8/0x1b0",
	    "__dev_change_flags+0x1ad/0x220",
	    "dev_change_flags+0x22/0x60",
	    "do_setlink+0x2d1/0x1040",
	    "rtnl_newlink+0x5c6/0x9e0")
	# Raw pages, caller __rb_allocate_pages: the trace ring buffer.
	row("page 4096 7 1 4000 0 -",
	    "__rb_allocate_pages+0xb4/0x1c0",
	    "ring_buffer_resize+0x1ab/0x5a0",
	    "tracing_resize_ring_buffer+0x3f/0xa0",
	    "tracing_entries_write+0x89/0xf0",
	    "vfs_write+0xf3/0x450",
	    "ksys_write+0x6d/0xf0",
	    "do_syscall_64+0x87/0x1b0",
	    "entry_SYSCALL_64_after_hwframe+0x76/0x7e")
	# A slab's page: allocate_slab is its first frame.
	row("page 4096 9 3 1 0 -",
	    "allocate_slab+0x2c1/0x440",
	    "new_slab+0x29/0x60",
	    "___slab_alloc+0x6a8/0xb80",
	    "__slab_alloc.isra.0+0x23/0x40",
	    "kmem_cache_alloc_noprof+0x2a6/0x300",
	    "alloc_inode+0x5e/0xc0",
	    "iget_locked+0x145/0x290",
	    "kernfs_get_inode+0x17/0xf0")
	# A vmalloc area's page.
	row("page 4096 5 0 1 0 -",
	    "vm_area_alloc_pages+0x1b5/0x2b0",
	    "__vmalloc_area_node+0xf2/0x260",
	    "__vmalloc_node_range_noprof+0x1d6/0x330",
	    "__vmalloc_node_noprof+0x4f/0x60",
	    "load_module+0x112/0x1f40",
	    "init_module_from_file+0x89/0xe0",
	    "idempotent_init_module+0x11d/0x310",
	    "__x64_sys_finit_module+0x5e/0xb0")
	# A user fault's page table: pte_alloc_one is nearer than the
	# fault's frames, so it is a page table, not a user page.
	row("page 4096 3 0 4001 0 -",
	    "pte_alloc_one+0x1c/0xb0",
	    "__pte_alloc+0x2f/0x170",
	    "__handle_mm_fault+0xa1e/0xff0",
	    "handle_mm_fault+0x180/0x2d0",
	    "do_user_addr_fault+0x20c/0x6a0",
	    "exc_page_fault+0x76/0x190",
	    "asm_exc_page_fault+0x26/0x30")
	# User pages: an anonymous fault's, and a copy on write's.
	row("page 4096 4 1 4001 0 -",
	    "do_anonymous_page+0x1a4/0x7d0",
	    "__handle_mm_fault+0xb81/0xff0",
	    "handle_mm_fault+0x180/0x2d0",
	    "do_user_addr_fault+0x20c/0x6a0",
	    "exc_page_fault+0x76/0x190",
	    "asm_exc_page_fault+0x26/0x30")
	row("page 4096 2 0 4001 0 -",
	    "wp_page_copy+0x8b/0x6f0",
	    "do_wp_page+0x2a7/0x5e0",
	    "__handle_mm_fault+0x6f4/0xff0",
	    "handle_mm_fault+0x180/0x2d0",
	    "do_user_addr_fault+0x20c/0x6a0",
	    "exc_page_fault+0x76/0x190",
	    "asm_exc_page_fault+0x26/0x30")
	# Not pages: the driver's kmalloc (the same first frame as its raw
	# pages), and a cache's objects under a fault.
	row("kmalloc 256 30 5 softirq 0 kmalloc-256",
	    "e1000_alloc_rx_buffers+0x7e/0x3a0 [e1000]",
	    "e1000_clean_rx_irq+0x2f8/0x4c0 [e1000]",
	    "e1000_clean+0x27e/0x8b0 [e1000]",
	    "__napi_poll+0x2b/0x1c0",
	    "net_rx_action+0x2c6/0x360",
	    "handle_softirqs+0xd4/0x2b0")
	row("cache 624 6 1 1 0 inode_cache",
	    "alloc_inode+0x5e/0xc0",
	    "iget_locked+0x145/0x290",
	    "kernfs_get_inode+0x17/0xf0",
	    "kernfs_iop_lookup+0x78/0xd0",
	    "__lookup_slow+0x86/0x130")
	emit()
}

# The second file, mstat_sites-2.3-mydrv.txt (-v set=mydrv): a driver's
# raw pages under the page allocator's own frames, as a module that did
# not skip them all printed them (6.12's and 5.10's names, a clone
# suffix), pages whose kind a clone's or an older kernel's frame decides,
# and a row of mixed sizes, for test.sh's memory_pages_callers and
# memory_pages_stderr.
function mydrv() {
	# (a) Two 3 MiB objects, far above the rate: both sure to be sampled.
	row("page 3145728 2 0 1 0 -",
	    "get_free_pages_noprof+0x12/0x40",
	    "mydrv_fill+0x3a/0x90 [mydrv]",
	    "mydrv_init+0x1f/0x60 [mydrv]",
	    "do_one_initcall+0x58/0x300",
	    "do_init_module+0x60/0x250",
	    "init_module_from_file+0x89/0xe0",
	    "idempotent_init_module+0x11d/0x310",
	    "__x64_sys_finit_module+0x5e/0xb0")
	# (b) Many pages far below the rate, one caller under 6.12's
	# allocator frames and under 5.10's.
	row("page 4096 64 16 softirq 0 -",
	    "__alloc_pages_noprof+0x1a2/0x360",
	    "alloc_pages_mpol_noprof+0x93/0x1e0",
	    "alloc_pages_noprof+0x5b/0xa0",
	    "mydrv_rx_refill+0x4c/0x1d0 [mydrv]",
	    "mydrv_poll+0x1d8/0x2c0 [mydrv]",
	    "__napi_poll+0x2b/0x1c0",
	    "net_rx_action+0x2c6/0x360",
	    "handle_softirqs+0xd4/0x2b0")
	row("page 4096 32 4 1 0 -",
	    "__alloc_pages_nodemask+0x161/0x310",
	    "alloc_pages_current+0x87/0xe0",
	    "__get_free_pages+0x11/0x40",
	    "mydrv_rx_refill+0x4c/0x1d0 [mydrv]",
	    "mydrv_open+0x71/0x130 [mydrv]",
	    "__dev_open+0xe8/0x1b0",
	    "__dev_change_flags+0x1ad/0x220",
	    "dev_change_flags+0x22/0x60")
	# (c) Clones: the allocator's frame and the caller's.
	row("page 8192 3 1 1 0 -",
	    "alloc_pages_exact_noprof.constprop.0+0x1c/0x90",
	    "mydrv_ring_alloc.isra.0+0x2e/0x120 [mydrv]",
	    "mydrv_open+0x52/0x130 [mydrv]",
	    "__dev_open+0xe8/0x1b0",
	    "__dev_change_flags+0x1ad/0x220",
	    "dev_change_flags+0x22/0x60")
	# (c) A slab's page under a clone of allocate_slab: slab.
	row("page 8192 6 2 1 0 -",
	    "allocate_slab.constprop.0+0x2c1/0x440",
	    "___slab_alloc.part.0+0x6a8/0xb80",
	    "__kmalloc_cache_noprof+0x2a6/0x300",
	    "mydrv_open+0x30/0x130 [mydrv]",
	    "__dev_open+0xe8/0x1b0")
	# A large kmalloc on 5.10 to 6.0: slab.
	row("page 16384 2 1 1 0 -",
	    "kmalloc_large_node+0x5e/0xb0",
	    "__kmalloc_node+0x3b0/0x470",
	    "kvmalloc_node+0x4f/0xe0",
	    "mydrv_table_alloc+0x2b/0x80 [mydrv]",
	    "mydrv_init+0x44/0x60 [mydrv]",
	    "do_one_initcall+0x58/0x300")
	# A vmalloc area's page, vm_area_alloc_pages inlined: vmalloc.
	row("page 4096 6 0 1 0 -",
	    "__vmalloc_node_range_noprof+0x1d6/0x330",
	    "__vmalloc_node_noprof+0x4f/0x60",
	    "__bpf_map_area_alloc+0xa9/0x100",
	    "array_map_alloc+0xe5/0x220",
	    "map_create+0x1b3/0x8a0",
	    "__sys_bpf+0x2f5/0x2b40",
	    "__x64_sys_bpf+0x1a/0x30",
	    "do_syscall_64+0x87/0x1b0")
	# A GPU buffer's page under a user's fault: raw, not a user page.
	row("page 4096 5 0 4001 0 -",
	    "ttm_pool_alloc_page+0x8f/0x140 [ttm]",
	    "ttm_pool_alloc+0x2c3/0x5a0 [ttm]",
	    "ttm_tt_populate+0x6e/0x130 [ttm]",
	    "ttm_bo_vm_fault_reserved+0x1b0/0x2f0 [ttm]",
	    "__do_fault+0x36/0x150",
	    "do_fault+0xb6/0x410",
	    "__handle_mm_fault+0x6f4/0xff0",
	    "handle_mm_fault+0x180/0x2d0")
	# Ten pages and one 2 MiB block from one stack: the module's
	# est_bytes scales all by the chance of their mean size.
	row("page 4096*10,2097152 11 0 1 0 -",
	    "alloc_pages_noprof+0x5b/0xa0",
	    "mydrv_mixed+0x61/0x110 [mydrv]",
	    "mydrv_ioctl+0x9d/0x3c0 [mydrv]",
	    "__x64_sys_ioctl+0x94/0xd0",
	    "do_syscall_64+0x87/0x1b0",
	    "entry_SYSCALL_64_after_hwframe+0x76/0x7e")
}

# The file: its header, then the rows by est_bytes, largest first, as the
# module sorts them.
function emit(    i, j, t) {
	print "mstat_sites - version: 2.3"
	printf "# snapshot 5 sample_rate %d stacks %d stack_drops 0 addr_drops 0 addr_live %d depth 32 leafless 0 reused 0 age_ms 0 addr_phantoms 0\n",
	       R, n, live
	print "# est_bytes est_calls sampled_bytes sampled_calls allocs alloc_bytes frees free_bytes cgroup node cache source site"
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (est[j] > est[i]) {
				t = text[i]; text[i] = text[j]; text[j] = t
				t = est[i]; est[i] = est[j]; est[j] = t
			}
	for (i = 1; i <= n; i++)
		printf "%s", text[i]
}

# A row's sizes: SIZE is one size for all its objects, or a list
# "S*N,S,..." of its sampled ones in use, N objects of S bytes (into sz[],
# from 1); its frees are of the first.
function sizes(spec, k, sz,    l, w2, i, j, m, e, c) {
	m = split(spec, l, ",")
	c = 0
	for (i = 1; i <= m; i++) {
		e = split(l[i], w2, "*")
		for (j = 0; j < (e > 1 ? w2[2] : 1); j++)
			sz[++c] = w2[1]
	}
	for (i = c + 1; i <= k; i++)
		sz[i] = sz[1]
}

function row(spec, s0, s1, s2, s3, s4, s5, s6, s7,    w, sz, k, f, a,
	     sb, ab, scale, s, i, r) {
	split(spec, w, " ")
	k = w[3]; f = w[4]; a = k + f
	sizes(w[2], k, sz)
	for (i = 1; i <= k; i++)
		sb += sz[i]
	ab = sb + f * sz[1]
	# The module's chance: of the row's mean sampled size, in whole bytes.
	scale = 1 / (1 - exp(-int(ab / a) / R))
	r = sprintf("%.0f %.0f %d %d %d %d %d %d %s %s %s %s %s\n",
		    sb * scale, k * scale, sb, k, a, ab,
		    f, f * sz[1], w[5], w[6], w[7], w[1], s0)
	s[1] = s1; s[2] = s2; s[3] = s3; s[4] = s4; s[5] = s5; s[6] = s6
	s[7] = s7
	for (i = 1; i <= 7; i++)
		if (s[i] != "")
			r = r "\t" s[i] "\n"
	for (i = 0; i < k; i++)
		r = r sprintf("+ %d %d\n", (k > 60 ? 1000 * k : 60000) - 1000 * i,
			      sz[i + 1])
	live += k
	n++
	text[n] = r
	est[n] = sb * scale
}
