# NXP FRDM-K64F (MK64FN1M0, Cortex-M4F): shared Cortex-M start-up + the board target layer (DWT or chip timer,
# semihosting console/exit, spare IRQ 20).
set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
set(RM_BOARD_CHIP_SOURCE k64f.c)
set(RM_BOARD_DEFINES RM_CM_NUM_IRQ=86 RM_CM_BENCH_IRQ=20)
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/board.cmake)
