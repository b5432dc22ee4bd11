// SPDX-License-Identifier: GPL-2.0
/*
 * Set up the new filesystem in memory with ext2fs_initialize() and fill
 * in the superblock fields mke2fs sets after it, in mke2fs's order.
 * The device is opened (and a missing image file created) only once all
 * of that has succeeded, and never with -n.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <e2p/e2p.h>
#include <uuid/uuid.h>

#include "exitcodes.h"
#include "fsio.h"
#include "mkfs.h"
#include "mkfs_config.h"
#include "mkfs_run.h"
#include "report.h"

/* Journal blocks for @mib MiB (mke2fs's jsize_to_blks). */
static unsigned int mib_to_blocks(ext2_filsys fs, int mib)
{
	return (unsigned int)(mib * 1024) / (fs->blocksize / 1024);
}

static int journal_size(struct mkfs_run *run)
{
	const struct mkfs_opts *o = run->opts;
	ext2_filsys fs = run->fs;
	bool fc = ext2fs_has_feature_fast_commit(fs->super);
	unsigned long long total;

	if (!o->journal_size && !ext2fs_has_feature_journal(fs->super))
		return EXT4DEV_CONTINUE;
	if (ext2fs_get_journal_params(&run->jp, fs)) {
		memset(&run->jp, 0, sizeof(run->jp));
		report_warn(run->plan->device, "filesystem too small for a "
			    "journal; making it without one");
		return EXT4DEV_CONTINUE;
	}
	if (o->journal_size <= 0 && (o->journal_fc_size <= 0 || !fc))
		return EXT4DEV_CONTINUE;
	if (o->journal_size > 0)
		run->jp.num_journal_blocks = mib_to_blocks(fs, o->journal_size);
	if (!fc)
		run->jp.num_fc_blocks = 0;
	else if (o->journal_fc_size > 0)
		run->jp.num_fc_blocks = (unsigned int)o->journal_fc_size *
					1024 / fs->blocksize;
	total = (unsigned long long)run->jp.num_journal_blocks +
		run->jp.num_fc_blocks;
	if (total < 1024 || total > 10240000)
		return report_failure("'%s': a journal of %llu blocks (-J "
				      "size) must have 1024 to 10240000 "
				      "blocks", run->plan->device, total);
	if (total > ext2fs_free_blocks_count(fs->super) / 2)
		return report_failure("'%s': a journal of %llu blocks (-J "
				      "size) is too big for this filesystem",
				      run->plan->device, total);
	return EXT4DEV_CONTINUE;
}

static int set_uuid(struct mkfs_run *run)
{
	struct ext2_super_block *sb = run->fs->super;
	const char *u = run->opts->uuid ? run->opts->uuid : "random";
	const struct mkfs_uuid_entry *kw = mkfs_uuid_by_name(u);

	if (kw)
		kw->make(sb->s_uuid);
	else if (uuid_parse(u, sb->s_uuid))
		return report_usage(EXT4DEV_MKFS_CMD, "invalid UUID '%s'", u);
	if (ext2fs_has_feature_csum_seed(sb))
		sb->s_checksum_seed = ext2fs_crc32c_le(~0U, sb->s_uuid,
						       sizeof(sb->s_uuid));
	ext2fs_init_csum_seed(run->fs);
	return EXT4DEV_CONTINUE;
}

static int set_errors(struct mkfs_run *run)
{
	const char *s = mkfs_cfg_str(&run->cfg->errors, NULL);

	if (s && !mkfs_errors_by_name(s))
		return report_failure("'%s': invalid errors behaviour '%s'",
				      run->cfg->file, s);
	if (s)
		run->fs->super->s_errors = (__u16)mkfs_errors_by_name(s);
	if (run->opts->errors_behavior)
		run->fs->super->s_errors = (__u16)run->opts->errors_behavior;
	return EXT4DEV_CONTINUE;
}

static int set_hash_and_checks(struct mkfs_run *run)
{
	struct ext2_super_block *sb = run->fs->super;
	const char *alg = mkfs_cfg_str(&run->cfg->hash_alg, "half_md4");
	unsigned int sum = 0;
	char buf[32];
	bool periodic;
	int hash, rc;

	snprintf(buf, sizeof(buf), "%s", alg);
	hash = e2p_string2hash(buf);
	sb->s_def_hash_version = hash >= 0 ? (__u8)hash : EXT2_HASH_HALF_MD4;
	if (run->plan->hash_seed_set)
		memcpy(sb->s_hash_seed, run->plan->param.s_hash_seed,
		       sizeof(sb->s_hash_seed));
	else
		uuid_generate((unsigned char *)sb->s_hash_seed);
	rc = mkfs_cfg_bool(&run->cfg->enable_periodic_fsck, false, &periodic);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (!periodic) {
		sb->s_max_mnt_count = -1;
		return EXT4DEV_CONTINUE;
	}
	/* mke2fs's jitter: spread the checks by a UUID-derived amount. */
	sb->s_checkinterval = 86400U * 180U;
	for (size_t i = 0; i < sizeof(sb->s_uuid); i++)
		sum += sb->s_uuid[i];
	sb->s_max_mnt_count = (__s16)(EXT2_DFL_MAX_MNT_COUNT +
				      sum % EXT2_DFL_MAX_MNT_COUNT);
	return EXT4DEV_CONTINUE;
}

static void set_names(struct mkfs_run *run)
{
	struct ext2_super_block *sb = run->fs->super;

	if (run->opts->label) {
		memset(sb->s_volume_name, 0, sizeof(sb->s_volume_name));
		strncpy((char *)sb->s_volume_name, run->opts->label,
			sizeof(sb->s_volume_name));
	}
	if (run->opts->mount_dir) {
		memset(sb->s_last_mounted, 0, sizeof(sb->s_last_mounted));
		strncpy((char *)sb->s_last_mounted, run->opts->mount_dir,
			sizeof(sb->s_last_mounted));
	}
	if (ext2fs_has_feature_encrypt(sb)) {
		sb->s_encrypt_algos[0] = EXT4_ENCRYPTION_MODE_AES_256_XTS;
		sb->s_encrypt_algos[1] = EXT4_ENCRYPTION_MODE_AES_256_CTS;
	}
	if (ext2fs_has_feature_metadata_csum(sb))
		sb->s_checksum_type = EXT2_CRC32C_CHKSUM;
}

/* mke2fs's advice about weaker checksum coverage, unless -q. */
static void csum_advice(struct mkfs_run *run)
{
	struct ext2_super_block *sb = run->fs->super;

	if (run->opts->quiet || !ext2fs_has_feature_metadata_csum(sb))
		return;
	if (!ext2fs_has_feature_extents(sb))
		report_warn(NULL, "extents are not enabled; block maps cannot "
			    "be checksummed (-O extents)");
	if (!ext2fs_has_feature_64bit(sb))
		report_warn(NULL, "64bit is not enabled; checksums are not "
			    "full-strength (-O 64bit)");
}

/*
 * In memory only: libext2fs gets /dev/null, so that everything that can
 * still refuse (a journal too big, say) does so before the device is
 * touched; mkfs_attach() then points the filesystem at the device.
 */
static int initialize(struct mkfs_run *run)
{
	struct ext2_super_block param = run->plan->param;
	errcode_t err;

	if (!run->opts->production)
		param.s_flags |= EXT2_FLAGS_TEST_FILESYS;
	err = ext2fs_initialize("/dev/null", EXT2_FLAG_64BITS, &param,
				unix_io_manager, &run->fs);
	if (err) {
		run->fs = NULL;
		return report_failure("'%s': %s (while setting up the "
				      "superblock)", run->plan->device,
				      error_message(err));
	}
	return EXT4DEV_CONTINUE;
}

static off_t fs_bytes(const struct mkfs_run *run)
{
	return (off_t)ext2fs_blocks_count(run->fs->super) *
	       run->fs->blocksize;
}

static int attach_error(const struct mkfs_run *run, errcode_t err)
{
	if (err == EFBIG && run->dev->max_file_size)
		return report_failure("'%s': %s (%lld bytes asked; the "
				      "filesystem it is on takes files up "
				      "to %lld bytes)", run->plan->device,
				      error_message(err),
				      (long long)fs_bytes(run),
				      (long long)run->dev->max_file_size);
	return report_failure("'%s': %s", run->plan->device,
			      error_message(err));
}

int mkfs_attach(struct mkfs_run *run)
{
	errcode_t err = 0;

	/* Missing when the lock was taken, yet not made then: raced. */
	if (!run->plan->dev_exists && !run->dev->target_created)
		err = EEXIST;
	if (!err && run->dev->target_created && !run->opts->quiet)
		printf("Creating regular file %s\n", run->plan->device);
	/* A file the host cannot grow that far: say so before writing. */
	if (!err)
		err = fsio_size_target(run->dev, fs_bytes(run));
	if (!err)
		err = fsio_attach(run->dev, run->fs);
	return err ? attach_error(run, err) : EXT4DEV_CONTINUE;
}

/*
 * -n: what mkfs_attach() checks (the size a missing file would take,
 * whether the device could be opened for writing), without writing or
 * opening anything for writing.
 */
int mkfs_check_attach(struct mkfs_run *run)
{
	errcode_t err;

	if (!run->plan->dev_exists)
		err = fsio_probe_create(run->dev, fs_bytes(run));
	else
		err = fsio_check_writable(run->dev);
	return err ? attach_error(run, err) : EXT4DEV_CONTINUE;
}

int mkfs_setup(struct mkfs_run *run)
{
	struct ext2_super_block *sb;
	int rc = initialize(run);

	if (rc == EXT4DEV_CONTINUE)
		rc = set_errors(run);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	sb = run->fs->super;
	csum_advice(run);
	if (ext2fs_has_feature_csum_seed(sb) &&
	    !ext2fs_has_feature_metadata_csum(sb))
		return report_failure("'%s': metadata_csum_seed needs "
				      "metadata_csum", run->plan->device);
	rc = journal_size(run);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	if (ext2fs_has_feature_flex_bg(sb) ||
	    ext2fs_has_feature_huge_file(sb) ||
	    ext2fs_has_feature_gdt_csum(sb) ||
	    ext2fs_has_feature_dir_nlink(sb) ||
	    ext2fs_has_feature_metadata_csum(sb) ||
	    ext2fs_has_feature_extra_isize(sb))
		sb->s_kbytes_written = 1;
	return EXT4DEV_CONTINUE;
}

int mkfs_name(struct mkfs_run *run)
{
	int rc = set_uuid(run);

	if (rc == EXT4DEV_CONTINUE)
		rc = set_hash_and_checks(run);
	if (rc != EXT4DEV_CONTINUE)
		return rc;
	set_names(run);
	return EXT4DEV_CONTINUE;
}

void mkfs_run_release(struct mkfs_run *run)
{
	if (run->fs)
		ext2fs_free(run->fs);
	run->fs = NULL;
}
