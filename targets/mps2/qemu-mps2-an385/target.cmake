# QEMU mps2-an385 (cortex-m3): CPU flags, then the shared MPS2 target.
set(RM_CPU_FLAGS -mcpu=cortex-m3 -mthumb)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2.cmake)
