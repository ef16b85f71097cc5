# QEMU mps2-an500 (cortex-m7): CPU flags, then the shared MPS2 target.
set(RM_CPU_FLAGS -mcpu=cortex-m7 -mthumb -mfpu=fpv5-d16 -mfloat-abi=hard)
include(${CMAKE_CURRENT_LIST_DIR}/../mps2.cmake)
