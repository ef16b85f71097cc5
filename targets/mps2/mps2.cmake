# Shared target.cmake body for the QEMU MPS2 machines. The including
# target.cmake sets RM_CPU_FLAGS (e.g. -mcpu=cortex-m4 -mfpu=... ) first.
include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/cortex-m.cmake)
rm_cortex_m_target(
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/mps2.c
  LINKER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/mps2.ld
  INLINE_DIR ${CMAKE_CURRENT_LIST_DIR}/include
  DEFINES RM_CM_NUM_IRQ=32 RM_CM_BENCH_IRQ=31 RM_CM_PERIODIC_IRQ=8 RM_CM_LOAD_IRQ=10)
# For an RTOS that links with its own script (RM_TARGET_MODE): the plugin
# counter's section, which mps2.ld places for everyone else.
set(RM_TARGET_PLUGIN_COUNTER_LD ${CMAKE_CURRENT_LIST_DIR}/rm_plugin_counter.ld)
