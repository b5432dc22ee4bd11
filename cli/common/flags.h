/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_FLAGS_H
#define EXT4DEV_FLAGS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The single source of superblock s_flags names.  Output (show-flags),
 * option parsing (-E test_fs), --help and the man-page test all read
 * this table, so a name can only be spelled one way.
 */
struct flags_entry {
	uint32_t mask;		/* bit in s_flags */
	const char *name;	/* as dumpe2fs prints it */
	const char *option;	/* -E keyword that sets it, or NULL */
	const char *help;	/* one line for --help and the man page */
};

extern const struct flags_entry flags_table[];
extern const size_t flags_table_len;

/* Longest string flags_format() can produce, with its NUL. */
#define EXT4DEV_FLAGS_BUFSZ 384

const struct flags_entry *flags_by_name(const char *name);
const struct flags_entry *flags_by_option(const char *option);

/*
 * Names of the bits set in @s_flags, each followed by a blank as
 * dumpe2fs lists them ("signed_directory_hash test_filesystem "); bits
 * the table does not know appear as hex ("0x00000100 "); no bit at all
 * gives "(none)".  Returns the length written.
 */
size_t flags_format(uint32_t s_flags, char *buf, size_t len);

#endif
