// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include <ext2fs/ext2_fs.h>

#include "flags.h"

/* Order is dumpe2fs's (lib/e2p/ls.c), so our line matches its line. */
const struct flags_entry flags_table[] = {
	{ EXT2_FLAGS_SIGNED_HASH, "signed_directory_hash", NULL,
	  "directory hashes use signed char arithmetic" },
	{ EXT2_FLAGS_UNSIGNED_HASH, "unsigned_directory_hash", NULL,
	  "directory hashes use unsigned char arithmetic" },
	{ EXT2_FLAGS_TEST_FILESYS, "test_filesystem", "test_fs",
	  "OK for use with development (ext4dev) kernel code" },
};

const size_t flags_table_len = sizeof(flags_table) / sizeof(flags_table[0]);

const struct flags_entry *flags_by_name(const char *name)
{
	for (size_t i = 0; i < flags_table_len; i++)
		if (!strcmp(flags_table[i].name, name))
			return &flags_table[i];
	return NULL;
}

const struct flags_entry *flags_by_option(const char *option)
{
	for (size_t i = 0; i < flags_table_len; i++)
		if (flags_table[i].option &&
		    !strcmp(flags_table[i].option, option))
			return &flags_table[i];
	return NULL;
}

static size_t append(char *buf, size_t len, size_t used, const char *word)
{
	int n = snprintf(buf + used, used < len ? len - used : 0, "%s ",
			 word);

	return n < 0 ? used : used + (size_t)n;
}

size_t flags_format(uint32_t s_flags, char *buf, size_t len)
{
	uint32_t unknown = s_flags;
	size_t used = 0;
	char hex[16];

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < flags_table_len; i++) {
		if (!(s_flags & flags_table[i].mask))
			continue;
		used = append(buf, len, used, flags_table[i].name);
		unknown &= ~flags_table[i].mask;
	}
	for (uint32_t bit = 1; unknown; bit <<= 1) {
		if (!(unknown & bit))
			continue;
		snprintf(hex, sizeof(hex), "0x%08x", bit);
		used = append(buf, len, used, hex);
		unknown &= ~bit;
	}
	if (!used)
		used = (size_t)snprintf(buf, len, "(none)");
	return used < len ? used : (len ? len - 1 : 0);
}
