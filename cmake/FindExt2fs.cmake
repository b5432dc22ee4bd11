# FindExt2fs: libext2fs and libcom_err from e2fsprogs, through pkg-config.
#
# Imported targets:
#   Ext2fs::ComErr  libcom_err (error_message(), add_error_table())
#   Ext2fs::Ext2fs  libext2fs, linked to Ext2fs::ComErr
#
# Code that calls com_err itself should still link Ext2fs::ComErr
# explicitly: relying on the transitive link hides the dependency.

find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
	pkg_check_modules(PC_EXT2FS QUIET ext2fs)
	pkg_check_modules(PC_COMERR QUIET com_err)
endif()

find_path(Ext2fs_INCLUDE_DIR ext2fs/ext2fs.h HINTS ${PC_EXT2FS_INCLUDE_DIRS})
find_library(Ext2fs_LIBRARY NAMES ext2fs HINTS ${PC_EXT2FS_LIBRARY_DIRS})
find_path(ComErr_INCLUDE_DIR et/com_err.h HINTS ${PC_COMERR_INCLUDE_DIRS})
find_library(ComErr_LIBRARY NAMES com_err HINTS ${PC_COMERR_LIBRARY_DIRS})
set(Ext2fs_VERSION "${PC_EXT2FS_VERSION}")

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Ext2fs
	REQUIRED_VARS Ext2fs_LIBRARY Ext2fs_INCLUDE_DIR
		ComErr_LIBRARY ComErr_INCLUDE_DIR
	VERSION_VAR Ext2fs_VERSION)

if(Ext2fs_FOUND AND NOT TARGET Ext2fs::ComErr)
	add_library(Ext2fs::ComErr UNKNOWN IMPORTED)
	set_target_properties(Ext2fs::ComErr PROPERTIES
		IMPORTED_LOCATION "${ComErr_LIBRARY}"
		INTERFACE_INCLUDE_DIRECTORIES "${ComErr_INCLUDE_DIR}")
endif()
if(Ext2fs_FOUND AND NOT TARGET Ext2fs::Ext2fs)
	add_library(Ext2fs::Ext2fs UNKNOWN IMPORTED)
	set_target_properties(Ext2fs::Ext2fs PROPERTIES
		IMPORTED_LOCATION "${Ext2fs_LIBRARY}"
		INTERFACE_INCLUDE_DIRECTORIES "${Ext2fs_INCLUDE_DIR}"
		INTERFACE_LINK_LIBRARIES Ext2fs::ComErr)
endif()
mark_as_advanced(Ext2fs_INCLUDE_DIR Ext2fs_LIBRARY ComErr_INCLUDE_DIR
	ComErr_LIBRARY)
