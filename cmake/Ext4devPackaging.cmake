# The Debian package: `cpack -G DEB` in the build tree makes
# ext4dev_<version>_<arch>.deb.  Besides what the targets install
# (/usr/sbin/ext4dev, the mkfs.ext4dev, fsck.ext4dev and mount.ext4dev
# links, the man
# pages) it carries the bash completion and
# /usr/share/doc/ext4dev/{copyright,README.md,changelog.gz}.  Depends comes from the binary's shared libraries
# (dpkg-shlibdeps), so it follows whatever libext2fs/libblkid it was
# built against.  test/package/deb.sh builds, lints and runs it.
include(GNUInstallDirs)

set(EXT4DEV_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/ext4dev)
set(EXT4DEV_COMPLETIONDIR
	${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions)

# Debian wants a compressed changelog, reproducibly (gzip -n).
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/changelog.in
	${PROJECT_BINARY_DIR}/packaging/changelog @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/packaging/changelog.gz
	COMMAND gzip -9nc changelog > changelog.gz
	DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog
	WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/packaging)
add_custom_target(ext4dev_changelog ALL
	DEPENDS ${PROJECT_BINARY_DIR}/packaging/changelog.gz)

install(FILES ${PROJECT_SOURCE_DIR}/cmake/deb/copyright
	${PROJECT_SOURCE_DIR}/README.md
	${PROJECT_BINARY_DIR}/packaging/changelog.gz
	DESTINATION ${EXT4DEV_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cli/completion/ext4dev.bash
	DESTINATION ${EXT4DEV_COMPLETIONDIR} RENAME ext4dev)
# bash-completion loads completions by command name: one file, a link.
install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink
	ext4dev \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${EXT4DEV_COMPLETIONDIR}/mkfs.ext4dev)")
install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink
	ext4dev \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${EXT4DEV_COMPLETIONDIR}/mount.ext4dev)")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ext4dev)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ext4dev developers <ext4dev@example.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
	"manage ext4's development-filesystem flag (test_fs)")
# The extended description; CPack puts the summary above it.
set(CPACK_PACKAGE_DESCRIPTION
"ext4dev shows, sets and clears the test_filesystem flag of ext2, ext3
and ext4 filesystems in every superblock copy, through libext2fs, and
makes new ext4 filesystems with the flag set (mkfs.ext4dev).  A kernel
with the ext4dev patches mounts only flagged filesystems as ext4dev;
on any other kernel mount.ext4dev checks the flag and mounts a flagged
filesystem as ext4, so ext4dev fstab entries work there too.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
# Only what install() rules name: no test binaries, no build tree.
set(CPACK_INSTALL_CMAKE_PROJECTS
	"${PROJECT_BINARY_DIR};${PROJECT_NAME};ALL;/")
include(CPack)
