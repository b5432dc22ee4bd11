// SPDX-License-Identifier: GPL-2.0
/*
 * LABEL=, UUID=, PARTLABEL=, PARTUUID=: every device that carries the
 * tag, not just the first one libblkid would pick.  Two disks cloned
 * with dd share a UUID; two scratch images made by one script share a
 * label.  Writing to one of them at random is how the wrong disk gets
 * changed, so more than one match is refused, naming all of them.
 */
#include <stdlib.h>
#include <string.h>

#include <blkid/blkid.h>

#include "fsio.h"

bool fsio_is_tag(const char *spec)
{
	static const char *const tags[] = {
		"LABEL=", "UUID=", "PARTLABEL=", "PARTUUID=",
	};

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (!strncmp(spec, tags[i], strlen(tags[i])))
			return true;
	return false;
}

/* Append @name to dev->matches, comma separated; cut if full. */
static void add_match(struct fsio_dev *dev, const char *name)
{
	size_t used = strlen(dev->matches);

	snprintf(dev->matches + used, sizeof(dev->matches) - used, "%s%s",
		 used ? ", " : "", name);
}

/*
 * Scan every block device libblkid can see (a private cache, so no
 * cache file is written) and count the verified carriers of the tag.
 */
static int find_matches(struct fsio_dev *dev, const char *tag,
			const char *value, char **first)
{
	blkid_cache cache = NULL;
	blkid_dev_iterate iter;
	blkid_dev bdev;
	int n = 0;

	if (blkid_get_cache(&cache, "/dev/null"))
		return 0;
	blkid_probe_all(cache);
	iter = blkid_dev_iterate_begin(cache);
	blkid_dev_set_search(iter, (char *)tag, (char *)value);
	while (!blkid_dev_next(iter, &bdev)) {
		bdev = blkid_verify(cache, bdev);
		if (!bdev || !blkid_dev_has_tag(bdev, tag, value))
			continue;
		if (!n++)
			*first = strdup(blkid_dev_devname(bdev));
		add_match(dev, blkid_dev_devname(bdev));
	}
	blkid_dev_iterate_end(iter);
	blkid_put_cache(cache);
	return n;
}

errcode_t fsio_resolve_tag(struct fsio_dev *dev)
{
	char *tag = NULL, *value = NULL, *first = NULL;
	int n;

	dev->matches[0] = '\0';
	if (blkid_parse_tag_string(dev->spec, &tag, &value))
		return EXT4DEV_ERR_NO_DEVICE;
	n = find_matches(dev, tag, value, &first);
	free(tag);
	free(value);
	if (n > 1) {
		free(first);
		return EXT4DEV_ERR_AMBIGUOUS;
	}
	/* None in the scan: udev's /dev/disk/by-* links may still know. */
	dev->path = n ? first : blkid_evaluate_spec(dev->spec, NULL);
	return dev->path ? 0 : n ? EXT2_ET_NO_MEMORY : EXT4DEV_ERR_NO_DEVICE;
}
