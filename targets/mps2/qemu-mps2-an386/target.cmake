# QEMU mps2-an386 (cortex-m4): CPU flags, then the shared MPS2 target.
set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2.cmake)
