# QEMU microbit (nRF51822, Cortex-M0): the M0 target.
set(RM_CPU_FLAGS -mcpu=cortex-m0 -mthumb)
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/cortex-m.cmake)
rm_cortex_m_target(
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/nrf51.c
  LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/link.ld
  INLINE_DIR ${CMAKE_CURRENT_LIST_DIR}/include
  DEFINES RM_CM_NUM_IRQ=32 RM_CM_BENCH_IRQ=20 RM_CM_PERIODIC_IRQ=9)
# For an RTOS that links with its own script: the plugin counter's section.
set(RM_TARGET_PLUGIN_COUNTER_LD ${CMAKE_CURRENT_LIST_DIR}/rm_plugin_counter.ld)
