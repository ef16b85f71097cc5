# ST NUCLEO-L053R8 (STM32L053R8, Cortex-M0+): shared Cortex-M start-up + the board target layer (DWT or chip timer,
# semihosting console/exit, spare IRQ 29).
set(RM_CPU_FLAGS -mcpu=cortex-m0plus -mthumb)
set(RM_BOARD_CHIP_SOURCE l053.c)
set(RM_BOARD_DEFINES RM_TARGET_FLASH_WS=1 RM_CM_NUM_IRQ=32 RM_CM_BENCH_IRQ=29)
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/board.cmake)
