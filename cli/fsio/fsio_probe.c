// SPDX-License-Identifier: GPL-2.0
/*
 * What libblkid finds on a device: the name of a foreign filesystem or
 * partition table a command refuses, and the ext types show-flags
 * prints.  It probes the descriptor fsio already holds, when it holds
 * one, so that a command opens its device once.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <blkid/blkid.h>

#include "fsio.h"

static void copy_value(blkid_probe pr, const char *name, char *buf,
		       size_t len)
{
	const char *value = NULL;

	if (!blkid_probe_lookup_value(pr, name, &value, NULL) && value)
		snprintf(buf, len, "%s", value);
}

/*
 * A probe of the descriptor we hold, when we hold one (libblkid leaves
 * a descriptor it did not open alone), else of the path; from
 * dev->offset on, where mkfs -E offset= puts the filesystem.  A
 * descriptor opened here is left in *@own_fd for the caller to close.
 */
static blkid_probe probe_new(const struct fsio_dev *dev, int *own_fd)
{
	int fd = dev->lock_fd;
	blkid_probe pr;

	*own_fd = -1;
	if (fd < 0 && !dev->offset)
		return blkid_new_probe_from_filename(dev->path);
	if (fd < 0) {
		fd = open(dev->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			return NULL;
		*own_fd = fd;
	}
	pr = blkid_new_probe();
	if (pr && blkid_probe_set_device(pr, fd, dev->offset, 0)) {
		blkid_free_probe(pr);
		pr = NULL;
	}
	return pr;
}

errcode_t fsio_probe_type(struct fsio_dev *dev, bool only_ext)
{
	static const char *ext_types[] = {
		"ext4dev", "ext4", "ext3", "ext2", "jbd", NULL
	};
	blkid_probe pr;
	int rc, own_fd;

	dev->foreign_type[0] = '\0';
	dev->foreign_usage[0] = '\0';
	pr = probe_new(dev, &own_fd);
	if (!pr) {
		rc = errno;
		if (own_fd >= 0)
			close(own_fd);
		return rc ? (errcode_t)rc : EXT2_ET_NO_MEMORY;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE);
	if (only_ext)
		blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_ONLYIN,
						    (char **)ext_types);
	else
		blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		copy_value(pr, "TYPE", dev->foreign_type,
			   sizeof(dev->foreign_type));
		copy_value(pr, "USAGE", dev->foreign_usage,
			   sizeof(dev->foreign_usage));
		if (!dev->foreign_type[0]) {
			copy_value(pr, "PTTYPE", dev->foreign_type,
				   sizeof(dev->foreign_type));
			snprintf(dev->foreign_usage,
				 sizeof(dev->foreign_usage),
				 "partition table");
		}
	} else if (rc == -2) {
		snprintf(dev->foreign_type, sizeof(dev->foreign_type),
			 "ambivalent");
		snprintf(dev->foreign_usage, sizeof(dev->foreign_usage),
			 "set of signatures");
	}
	blkid_free_probe(pr);
	if (own_fd >= 0)
		close(own_fd);
	return 0;
}

