// SPDX-License-Identifier: GPL-2.0
/*
 * What mkfs prints: mke2fs's summary (with -v its details), the steps as
 * they finish, and nothing at all with -q; and the errors every stage
 * shares (a conf file's, a libext2fs call's).  Progress counters are left
 * out: output that scripts and logs read stays one line per step.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <e2p/e2p.h>

#include "mkfs.h"
#include "mkfs_run.h"
#include "report.h"

int mkfs_conf_error(const struct mkfs_conf_err *err)
{
	if (err->line)
		return report_failure("'%s': line %d: %s", err->file,
				      err->line, err->why);
	return report_failure("'%s': %s", err->file, err->why);
}

int mkfs_fail(const struct mkfs_run *run, errcode_t err, const char *what)
{
	return report_failure("'%s': %s (while %s)", run->plan->device,
			      error_message(err), what);
}

void mkfs_step(const struct mkfs_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void show_details(const struct mkfs_plan *plan, ext2_filsys fs)
{
	struct ext2_super_block *s = fs->super;
	char *os = e2p_os2string((int)s->s_creator_os);

	if (plan->fs_blocks != ext2fs_blocks_count(s)) {
		report_warn(NULL, "%llu blocks unused",
			    (unsigned long long)(plan->fs_blocks -
						 ext2fs_blocks_count(s)));
		fputc('\n', stderr);	/* mke2fs leaves a blank line */
	}
	printf("Filesystem label=%.*s\n", EXT2_LEN_STR(s->s_volume_name));
	printf("OS type: %s\n", os ? os : "(unknown)");
	free(os);
	printf("Block size=%u (log=%u)\n", fs->blocksize, s->s_log_block_size);
	printf("%s size=%u (log=%u)\n", ext2fs_has_feature_bigalloc(s) ?
	       "Cluster" : "Fragment", EXT2_CLUSTER_SIZE(s),
	       s->s_log_cluster_size);
	printf("Stride=%u blocks, Stripe width=%u blocks\n", s->s_raid_stride,
	       s->s_raid_stripe_width);
	printf("%u inodes, %llu blocks\n", s->s_inodes_count,
	       (unsigned long long)ext2fs_blocks_count(s));
	printf("%llu blocks (%2.2f%%) reserved for the super user\n",
	       (unsigned long long)ext2fs_r_blocks_count(s),
	       100.0 * (double)ext2fs_r_blocks_count(s) /
	       (double)ext2fs_blocks_count(s));
	printf("First data block=%u\n", s->s_first_data_block);
	if (plan->root_uid || plan->root_gid)
		printf("Root directory owner=%u:%u\n", plan->root_uid,
		       plan->root_gid);
	if (s->s_reserved_gdt_blocks)
		printf("Maximum filesystem blocks=%llu\n",
		       (unsigned long long)(s->s_reserved_gdt_blocks +
					    fs->desc_blocks) *
		       EXT2_DESC_PER_BLOCK(s) * s->s_blocks_per_group);
	printf("%u block group%s\n", fs->group_desc_count,
	       fs->group_desc_count > 1 ? "s" : "");
	printf("%u blocks per group, %u %s per group\n", s->s_blocks_per_group,
	       s->s_clusters_per_group, ext2fs_has_feature_bigalloc(s) ?
	       "clusters" : "fragments");
	printf("%u inodes per group\n", s->s_inodes_per_group);
}

/* mke2fs's list: wrapped at 72 columns, a tab at each line's start. */
static void show_backups(ext2_filsys fs)
{
	struct ext2_super_block *s = fs->super;
	blk64_t blk = s->s_first_data_block;
	int left = 0, need;
	char num[32];

	printf("Superblock backups stored on blocks: ");
	for (dgrp_t g = 1; g < fs->group_desc_count; g++) {
		blk += s->s_blocks_per_group;
		if (!ext2fs_bg_has_super(fs, g))
			continue;
		if (g != 1)
			printf(", ");
		/* Its digits, the ", " before the next: mke2fs's count. */
		need = snprintf(num, sizeof(num), "%llu",
				(unsigned long long)blk) + 2;
		if (need > left) {
			printf("\n\t");
			left = 72;
		}
		left -= need;
		fputs(num, stdout);
	}
	printf("\n\n");
}

void mkfs_show_stats(const struct mkfs_opts *o, const struct mkfs_plan *plan,
		     ext2_filsys fs)
{
	struct ext2_super_block *s = fs->super;

	if (o->verbose)
		show_details(plan, fs);
	else
		printf("Creating filesystem with %llu %uk blocks and %u "
		       "inodes\n", (unsigned long long)ext2fs_blocks_count(s),
		       fs->blocksize >> 10, s->s_inodes_count);
	if (!e2p_is_null_uuid(s->s_uuid))
		printf("Filesystem UUID: %s\n", e2p_uuid2str(s->s_uuid));
	if (fs->group_desc_count > 1)
		show_backups(fs);
	else
		printf("\n");
}
