# ST B-L475E-IOT01A (STM32L475VG, Cortex-M4F): shared Cortex-M start-up + the board target layer (DWT or chip timer,
# semihosting console/exit, spare IRQ 80).
set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/cortex-m.cmake)
rm_board_clock_sources(${CMAKE_CURRENT_LIST_DIR}/clock.c _rm_clock)
rm_cortex_m_target(
  SOURCES ${RM_CM_DIR}/board.c ${CMAKE_CURRENT_LIST_DIR}/l475.c ${CMAKE_CURRENT_LIST_DIR}/marker.c ${_rm_clock}
  LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/link.ld
  INLINE_DIR ${RM_CM_DIR}/board-include
  DEFINES RM_TARGET_CASE_MARKER=1 RM_TARGET_FLASH_WS=1 RM_CM_NUM_IRQ=82 RM_CM_BENCH_IRQ=80)
