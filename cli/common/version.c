// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include <ext2fs/ext2fs.h>

#include "exitcodes.h"
#include "version.h"

int ext4dev_print_version(void)
{
	const char *lib_version = NULL;

	ext2fs_get_library_version(&lib_version, NULL);
	printf("ext4dev %s (libext2fs %s)\n", EXT4DEV_VERSION,
	       lib_version ? lib_version : "unknown");
	return EXT4DEV_EXIT_OK;
}
