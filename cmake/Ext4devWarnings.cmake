# One interface target carries our warning and sanitizer flags, so they
# apply to our own targets only and never leak into CMAKE_C_FLAGS.
add_library(ext4dev_warnings INTERFACE)
target_compile_options(ext4dev_warnings INTERFACE
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wformat=2 -Wno-unused-parameter)
if(EXT4DEV_WERROR)
	target_compile_options(ext4dev_warnings INTERFACE -Werror)
endif()
if(EXT4DEV_SANITIZE OR EXT4DEV_FUZZ)
	set(_san -fsanitize=address,undefined -fno-sanitize-recover=all
		-fno-omit-frame-pointer)
	target_compile_options(ext4dev_warnings INTERFACE ${_san})
	target_link_options(ext4dev_warnings INTERFACE ${_san})
endif()
# libFuzzer targets (test/fuzz) link against ext4dev_core, which then
# needs coverage instrumentation; the ASan/UBSan runtime above supplies
# the hooks for the binaries that are not fuzzers.
if(EXT4DEV_FUZZ)
	if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
		message(FATAL_ERROR "EXT4DEV_FUZZ needs clang (libFuzzer): "
			"configure with CC=clang or the asan preset")
	endif()
	target_compile_options(ext4dev_warnings INTERFACE
		-fsanitize=fuzzer-no-link)
endif()
