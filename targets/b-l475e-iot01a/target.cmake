# ST B-L475E-IOT01A (STM32L475VG, Cortex-M4): shared Cortex-M start-up + the board target layer (DWT or chip timer,
# semihosting console/exit, spare IRQ 80).
set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfloat-abi=soft)
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/cortex-m.cmake)
rm_cortex_m_target(
  SOURCES ${RM_CM_DIR}/board.c ${CMAKE_CURRENT_LIST_DIR}/l475.c
  LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/link.ld
  INLINE_DIR ${RM_CM_DIR}/board-include
  DEFINES RM_CM_NUM_IRQ=82 RM_CM_BENCH_IRQ=80)
