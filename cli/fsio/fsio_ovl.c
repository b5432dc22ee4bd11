// SPDX-License-Identifier: GPL-2.0
/*
 * A file seen through overlayfs is another name of a layer's file: its
 * st_dev is the overlay's, so only the overlay's own description, its
 * line in /proc/self/mountinfo, says which file holds the bytes.  The
 * upper layer's copy if there is one (unless it is metadata only), else
 * the first lower layer that has the name; a whiteout ends the search.
 * Only reads: nothing here opens a file through the overlay, so nothing
 * is copied up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "fsio_blk.h"

#define OVL_SUPER_MAGIC 0x794c7630
#define OVL_MAX_LAYERS 500
/* mountinfo separates its fields with spaces (escaped inside them). */
#define FIELD_SEP " \t\n"

/* The overlay mount a path is under, as mountinfo describes it. */
struct ovl_mount {
	char *line;		/* the whole line, split in place */
	char *root;		/* the overlay's directory mounted there */
	char *point;		/* where it is mounted */
	char *opts;		/* its super options: lowerdir=, upperdir= */
};

/* mountinfo's octal escapes (\040 for a space), in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 3;
		} else if (s[0] == '\\' && s[1] == ':') {
			*out++ = *++s;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Is mount point @point a prefix of @path at a '/'?  Its length. */
static size_t covers(const char *point, const char *path)
{
	size_t n = strlen(point);

	if (!strcmp(point, "/"))
		return 1;
	if (strncmp(point, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

/*
 * Split one mountinfo line: "id parent maj:min root point opts
 * [optional...] - type source superopts".  False if it is not overlay.
 */
static bool split_line(char *line, struct ovl_mount *m)
{
	char *f[6], *save, *tok;
	int n = 0;

	for (tok = strtok_r(line, FIELD_SEP, &save); tok && n < 6;
	     tok = strtok_r(NULL, FIELD_SEP, &save))
		f[n++] = tok;
	while (tok && strcmp(tok, "-"))
		tok = strtok_r(NULL, FIELD_SEP, &save);
	if (n < 5 || !tok)
		return false;
	m->root = f[3];
	m->point = f[4];
	tok = strtok_r(NULL, FIELD_SEP, &save);		/* type */
	if (!tok || strcmp(tok, "overlay"))
		return false;
	tok = strtok_r(NULL, FIELD_SEP, &save);		/* source */
	m->opts = tok ? strtok_r(NULL, FIELD_SEP, &save) : NULL;
	return !!m->opts;
}

/*
 * The mount @path (a real path) is on, if it is an overlay: the one
 * whose point is the longest prefix, the last of equals (the top).
 */
static bool find_mount(const char *path, struct ovl_mount *m)
{
	char *line = NULL, *copy;
	size_t cap = 0, best = 0, n;
	bool is_ovl = false;
	struct ovl_mount cur;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	memset(m, 0, sizeof(*m));
	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		copy = strdup(line);
		if (!copy)
			break;
		memset(&cur, 0, sizeof(cur));
		cur.line = copy;
		is_ovl = split_line(copy, &cur);
		if (!cur.point) {
			free(copy);
			continue;
		}
		unescape(cur.point);
		n = covers(cur.point, path);
		if (!n || n < best) {
			free(copy);
			continue;
		}
		best = n;
		free(m->line);
		*m = is_ovl ? cur : (struct ovl_mount){ .line = copy };
	}
	free(line);
	fclose(f);
	if (m->opts)
		return true;
	free(m->line);
	m->line = NULL;
	return false;
}

/* Metadata only: the data is still a lower layer's. */
static bool is_metacopy(const char *path)
{
	return lgetxattr(path, "trusted.overlay.metacopy", NULL, 0) >= 0 ||
	       lgetxattr(path, "user.overlay.metacopy", NULL, 0) >= 0;
}

/*
 * Layer @dir's file at @rel: 1 found (in @real), 0 not there, -1 the
 * search ends (a whiteout, or not a regular file).
 */
static int try_layer(const char *dir, const char *rel, bool upper,
		     char *real, size_t len)
{
	struct stat st;

	if ((size_t)snprintf(real, len, "%s%s", dir, rel) >= len)
		return -1;
	if (lstat(real, &st))
		return 0;
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0))
		return -1;
	if (!S_ISREG(st.st_mode))
		return -1;
	return upper && is_metacopy(real) ? 0 : 1;
}

/* Split @list at unescaped colons; "::" starts data-only layers. */
static unsigned int split_lowers(char *list, char **out, unsigned int max)
{
	unsigned int n = 0;
	char *p = list;

	while (n < max && *p) {
		out[n++] = p;
		while (*p && !(*p == ':' && p > list && p[-1] != '\\'))
			p++;
		if (!*p)
			break;
		*p++ = '\0';
		if (*p == ':')
			break;		/* data-only layers: not by name */
	}
	return n;
}

/* Upper first, then lowers in order: where the data of @rel is. */
static bool search_layers(char *opts, const char *rel, char *real,
			  size_t len)
{
	char *lowers[OVL_MAX_LAYERS], *upper = NULL, *save, *opt;
	unsigned int n = 0;
	int found = 0;

	for (opt = strtok_r(opts, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (!strncmp(opt, "upperdir=", 9))
			upper = opt + 9;
		else if (!strncmp(opt, "lowerdir=", 9))
			n += split_lowers(opt + 9, lowers + n,
					  OVL_MAX_LAYERS - n);
		else if (!strncmp(opt, "lowerdir+=", 10) && n < OVL_MAX_LAYERS)
			lowers[n++] = opt + 10;
	}
	if (upper) {
		unescape(upper);
		found = try_layer(upper, rel, true, real, len);
	}
	for (unsigned int i = 0; !found && i < n; i++) {
		unescape(lowers[i]);
		found = try_layer(lowers[i], rel, false, real, len);
	}
	return found > 0;
}

bool fsio_ovl_real(const char *path, char *real, size_t len)
{
	char full[PATH_MAX], rel[PATH_MAX];
	struct ovl_mount m;
	struct statfs sf;
	size_t at;
	bool ok;

	if (statfs(path, &sf) || sf.f_type != OVL_SUPER_MAGIC ||
	    !realpath(path, full) || !find_mount(full, &m))
		return false;
	at = strcmp(m.point, "/") ? strlen(m.point) : 0;
	unescape(m.root);
	/* A bind mount of an overlay's subdirectory shows from there. */
	ok = (size_t)snprintf(rel, sizeof(rel), "%s%s",
			      strcmp(m.root, "/") ? m.root : "",
			      full + at) < sizeof(rel) &&
	     search_layers(m.opts, rel, real, len);
	free(m.line);
	return ok;
}
