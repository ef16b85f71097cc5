# CMake toolchain file: Clang for bare-metal Arm Cortex-M, against the newlib
# of Debian's arm-none-eabi-gcc (toolchains/clang/toolchain.toml).
#
# - C: clang --target=arm-none-eabi; the target's CPU flags are GCC's, which
#   Clang accepts (-mcpu, -mthumb, -mfpu, -mfloat-abi).
# - -fshort-enums: arm-none-eabi-gcc's platform ABI, with which newlib and
#   libgcc are built (Tag_ABI_enum_size: small). Clang's default is int-sized
#   enums: an enum in a struct shared with the C library would disagree in
#   size, which GNU ld warns about on every link.
# - Assembly (.S/.s files of an RTOS, written for GNU as): arm-none-eabi-gcc.
# - Link: the arm-none-eabi-gcc driver (newlib multilib, nano.specs, crt
#   files, libgcc) with ld.lld as the linker (-fuse-ld=lld; -B names a folder
#   holding ld.lld, as the driver looks there first).
include(${CMAKE_CURRENT_LIST_DIR}/../common/arm-none-eabi.cmake)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET arm-none-eabi)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)

# newlib's headers: the sysroot of arm-none-eabi-gcc's C library.
execute_process(COMMAND arm-none-eabi-gcc -print-file-name=libc.a
                OUTPUT_VARIABLE rm_libc OUTPUT_STRIP_TRAILING_WHITESPACE)
get_filename_component(rm_libc "${rm_libc}" REALPATH)
get_filename_component(rm_sysroot "${rm_libc}/../.." ABSOLUTE)
if(NOT EXISTS "${rm_sysroot}/include/stdio.h")
  message(FATAL_ERROR "Error: newlib's headers not found under ${rm_sysroot} "
                      "(toolchains/clang/arm-none-eabi.cmake). apt-get install libnewlib-arm-none-eabi")
endif()
set(CMAKE_C_FLAGS_INIT "--sysroot=${rm_sysroot} -fshort-enums")

find_program(rm_ld_lld ld.lld)
if(NOT rm_ld_lld)
  message(FATAL_ERROR "Error: ld.lld not found (toolchains/clang/arm-none-eabi.cmake). "
                      "apt-get install lld")
endif()
set(rm_lld_dir "${CMAKE_BINARY_DIR}/rm-lld")
file(MAKE_DIRECTORY "${rm_lld_dir}")
file(CREATE_LINK "${rm_ld_lld}" "${rm_lld_dir}/ld.lld" SYMBOLIC)
set(CMAKE_C_LINK_EXECUTABLE
    "arm-none-eabi-gcc -B${rm_lld_dir}/ -fuse-ld=lld <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_ASM_LINK_EXECUTABLE "${CMAKE_C_LINK_EXECUTABLE}")
