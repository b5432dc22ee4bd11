# One interface target carries our warning and sanitizer flags, so they
# apply to our own targets only and never leak into CMAKE_C_FLAGS.
add_library(ext4dev_warnings INTERFACE)
target_compile_options(ext4dev_warnings INTERFACE
	-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
	-Wformat=2 -Wno-unused-parameter)
if(EXT4DEV_WERROR)
	target_compile_options(ext4dev_warnings INTERFACE -Werror)
endif()
if(EXT4DEV_SANITIZE)
	set(_san -fsanitize=address,undefined -fno-sanitize-recover=all
		-fno-omit-frame-pointer)
	target_compile_options(ext4dev_warnings INTERFACE ${_san})
	target_link_options(ext4dev_warnings INTERFACE ${_san})
endif()
