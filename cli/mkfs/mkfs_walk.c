// SPDX-License-Identifier: GPL-2.0
/*
 * The host's side of -d's walk besides the files: directory listings
 * through descriptors, the entry's path for messages, and the hard-link
 * table (mkfs_walk.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkfs_walk.h"

void mkfs_names_free(struct mkfs_names *l)
{
	while (l->n)
		free(l->names[--l->n]);
	free(l->names);
	l->names = NULL;
	l->cap = 0;
}

static int push_name(struct mkfs_names *l, const char *name)
{
	char **more;

	if (l->n == l->cap) {
		more = realloc(l->names, (l->cap ? l->cap * 2 : 32) *
				       sizeof(*more));
		if (!more)
			return ENOMEM;
		l->names = more;
		l->cap = l->cap ? l->cap * 2 : 32;
	}
	l->names[l->n] = strdup(name);
	if (!l->names[l->n])
		return ENOMEM;
	l->n++;
	return 0;
}

/* mke2fs sorts with alphasort() in the C locale: strcmp()'s order. */
static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int mkfs_names_read(int dfd, struct mkfs_names *l)
{
	/* A descriptor of its own: closedir() closes what it is given. */
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;
	int err = 0;

	if (!d) {
		err = errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	while (!err) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			err = errno;
			break;
		}
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			err = push_name(l, de->d_name);
	}
	closedir(d);
	if (err)
		mkfs_names_free(l);
	else if (l->n)
		qsort(l->names, l->n, sizeof(*l->names), by_name);
	return err;
}

bool mkfs_path_init(struct mkfs_path *p, const char *root)
{
	p->s = strdup(root);
	p->len = p->s ? strlen(p->s) : 0;
	p->cap = p->len + 1;
	return p->s;
}

void mkfs_path_free(struct mkfs_path *p)
{
	free(p->s);
	p->s = NULL;
	p->len = 0;
	p->cap = 0;
}

size_t mkfs_path_push(struct mkfs_path *p, const char *name)
{
	size_t old = p->len, need = old + strlen(name) + 2;
	char *more;

	if (need > p->cap) {
		more = realloc(p->s, need * 2);
		if (!more)
			return SIZE_MAX;
		p->s = more;
		p->cap = need * 2;
	}
	p->len += (size_t)sprintf(p->s + old, "/%s", name);
	return old;
}

void mkfs_path_pop(struct mkfs_path *p, size_t old)
{
	p->len = old;
	p->s[old] = '\0';
}

const char *mkfs_path_shown(const struct mkfs_path *p, char *buf, size_t len)
{
	size_t half = (MKFS_PATH_SHOWN - 3) / 2;

	if (p->len <= MKFS_PATH_SHOWN || len <= MKFS_PATH_SHOWN)
		return p->s;
	snprintf(buf, len, "%.*s...%s", (int)half, p->s,
		 p->s + p->len - half);
	return buf;
}

/* Whether @st names a file whose other names are only linked. */
static bool may_have_names(const struct stat *st)
{
	return !S_ISDIR(st->st_mode) && !S_ISLNK(st->st_mode) &&
	       st->st_nlink > 1;
}

const struct mkfs_link *mkfs_links_find(const struct mkfs_links *l,
					const struct stat *st)
{
	if (!may_have_names(st))
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		if (l->links[i].dev == st->st_dev &&
		    l->links[i].ino == st->st_ino)
			return &l->links[i];
	return NULL;
}

int mkfs_links_add(struct mkfs_links *l, const struct stat *st,
		   ext2_ino_t dst)
{
	struct mkfs_link *more;

	if (!may_have_names(st))
		return 0;
	if (l->n == l->cap) {
		more = realloc(l->links, (l->cap ? l->cap * 2 : 64) *
				       sizeof(*more));
		if (!more)
			return ENOMEM;
		l->links = more;
		l->cap = l->cap ? l->cap * 2 : 64;
	}
	l->links[l->n++] = (struct mkfs_link){ st->st_dev, st->st_ino, dst };
	return 0;
}

void mkfs_links_free(struct mkfs_links *l)
{
	free(l->links);
	l->links = NULL;
	l->n = 0;
	l->cap = 0;
}
