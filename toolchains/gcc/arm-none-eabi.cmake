# CMake toolchain file for bare-metal Arm Cortex-M builds with Debian's
# gcc-arm-none-eabi + newlib (toolchains/gcc/toolchain.toml). The target's
# target.cmake adds the CPU flags; this file only chooses the programs.
include(${CMAKE_CURRENT_LIST_DIR}/../common/arm-none-eabi.cmake)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
