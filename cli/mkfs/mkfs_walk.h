/* SPDX-License-Identifier: GPL-2.0 */
#ifndef EXT4DEV_MKFS_WALK_H
#define EXT4DEV_MKFS_WALK_H

/*
 * mkfs_walk.c: what -d's walk (mkfs_populate.c) needs of the host's
 * tree besides the files themselves: a directory's names in mke2fs's
 * order, read through a descriptor, and the path DIR/a/b of the entry
 * being copied, kept only to name it in an error; and the files with
 * more than one name copied so far, whose other names are only linked.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include <ext2fs/ext2fs.h>

/* A directory's names but . and .., sorted with strcmp(). */
struct mkfs_names {
	char **names;
	size_t n, cap;
};

/* The names of directory @dfd into @l; 0 or an errno. */
int mkfs_names_read(int dfd, struct mkfs_names *l);
void mkfs_names_free(struct mkfs_names *l);

/* DIR/a/b, as long as the tree is deep (past PATH_MAX too). */
struct mkfs_path {
	char *s;
	size_t len, cap;
};

/* An error shows at most this much of a path: its start and its end. */
#define MKFS_PATH_SHOWN 240

bool mkfs_path_init(struct mkfs_path *p, const char *root);
void mkfs_path_free(struct mkfs_path *p);

/* Append "/@name"; returns the old length (SIZE_MAX: out of memory). */
size_t mkfs_path_push(struct mkfs_path *p, const char *name);

/* Back to the length mkfs_path_push() returned. */
void mkfs_path_pop(struct mkfs_path *p, size_t old);

/* The path for a message: itself, or its middle elided into @buf. */
const char *mkfs_path_shown(const struct mkfs_path *p, char *buf, size_t len);

/* A file with more than one name, and its inode in the new filesystem. */
struct mkfs_link {
	dev_t dev;
	ino_t ino;
	ext2_ino_t dst;
};

struct mkfs_links {
	struct mkfs_link *links;
	size_t n, cap;
};

/*
 * The copy of the file @st names, if it is one with more names (not a
 * directory or symbolic link) already copied; else NULL.
 */
const struct mkfs_link *mkfs_links_find(const struct mkfs_links *l,
					const struct stat *st);

/* Remember @st's copy @dst, if it may have more names: 0 or ENOMEM. */
int mkfs_links_add(struct mkfs_links *l, const struct stat *st,
		   ext2_ino_t dst);
void mkfs_links_free(struct mkfs_links *l);

#endif
