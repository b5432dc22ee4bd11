// SPDX-License-Identifier: GPL-2.0
/*
 * LABEL=, UUID=, PARTLABEL=, PARTUUID=: every device that carries the
 * tag, not just the first one libblkid would pick.  Two disks cloned
 * with dd share a UUID; two scratch images made by one script share a
 * label.  Writing to one of them at random is how the wrong disk gets
 * changed, so more than one match is refused, naming all of them.
 */
#include <stdio.h>
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

/*
 * Does @path probe as ambivalent, and as ext4dev alone carry the tag?
 * A flagged ext2 or ext3 is claimed by two probers (ext4dev's and its
 * own), and libblkid then drops it from its cache: LABEL= and UUID=
 * stop finding it, for findfs and mount too.  What ext4dev flagged, it
 * must still find: asked for the ext4dev prober alone, libblkid names
 * its label and UUID.
 */
static bool ambivalent_carrier(const char *path, const char *tag,
			       const char *value)
{
	static const char *const only[] = { "ext4dev", NULL };
	const char *found = NULL;
	bool match = false;
	blkid_probe pr = blkid_new_probe_from_filename(path);

	if (!pr)
		return false;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_LABEL |
					  BLKID_SUBLKS_UUID);
	if (blkid_do_safeprobe(pr) == -2) {
		blkid_probe_filter_superblocks_type(pr, BLKID_FLTR_ONLYIN,
						    (char **)only);
		match = !blkid_do_safeprobe(pr) &&
			!blkid_probe_lookup_value(pr, tag, &found, NULL) &&
			found && !strcmp(found, value);
	}
	blkid_free_probe(pr);
	return match;
}

/* The devices libblkid's scan left out: every ambivalent carrier. */
static int find_ambivalent(struct fsio_dev *dev, const char *tag,
			   const char *value, char **first, int n)
{
	char line[256], name[128], path[160];
	FILE *f;

	if (strcmp(tag, "LABEL") && strcmp(tag, "UUID"))
		return n;
	f = fopen("/proc/partitions", "re");
	if (!f)
		return n;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %*u %127s", name) != 1)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", name);
		if (!ambivalent_carrier(path, tag, value))
			continue;
		if (!n++)
			*first = strdup(path);
		add_match(dev, path);
	}
	fclose(f);
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
	n = find_ambivalent(dev, tag, value, &first, n);
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
