# ST B-L475E-IOT01A (STM32L475VG, Cortex-M4F): shared Cortex-M start-up + the board target layer (DWT or chip timer,
# semihosting console/exit, spare IRQ 80).
set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
set(RM_BOARD_CHIP_SOURCE l475.c)
set(RM_BOARD_DEFINES RM_TARGET_FLASH_WS=1 RM_CM_NUM_IRQ=82 RM_CM_BENCH_IRQ=80)
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/board.cmake)
