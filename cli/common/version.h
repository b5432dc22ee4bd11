/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_VERSION_H
#define EXT4DEV_VERSION_H

/* "ext4dev 0.1.0 (libext2fs 1.47.0)" on stdout; returns 0. */
int ext4dev_print_version(void);

#endif
