// SPDX-License-Identifier: GPL-2.0
/*
 * Sanitizer runtime defaults, linked into ext4dev in sanitizer builds
 * only (see test/CMakeLists.txt); ASAN_OPTIONS/LSAN_OPTIONS still win.
 *
 * libext2fs 1.47.0's undo I/O manager leaks its written-block bitmap
 * when the filesystem is closed (tune2fs -z leaks the same 279 bytes
 * under valgrind), so `mark-* -z` would fail LeakSanitizer through no
 * fault of ours.  The suppression is as narrow as we can make it: only
 * memory allocated while ext2fs_flush2() writes through the undo
 * manager, and the same bitmap where the undo manager allocates it
 * earlier: when ext2fs_open2() resumes an existing undo file (fsio's
 * open_rw()), and on the first write of the backups-only path (fsio's
 * write_backup()); neither allocates anything of ours.  libext2fs has
 * no frame pointers, so matching a frame that
 * deep needs the slow unwinder on malloc; ext4dev mallocs little.
 */
const char *__asan_default_options(void);
const char *__lsan_default_options(void);
const char *__lsan_default_suppressions(void);

const char *__asan_default_options(void)
{
	return "fast_unwind_on_malloc=0";
}

const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}

const char *__lsan_default_suppressions(void)
{
	return "leak:ext2fs_flush2\n"
	       "leak:open_rw\n"
	       "leak:write_backup\n";
}
