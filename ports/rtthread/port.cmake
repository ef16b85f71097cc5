# RT-Thread port: builds the RT-Thread kernel (src/*.c) and its Cortex-M
# libcpu port (cpuport.c, context_gcc.S) from the tree in RM_SOURCE_DIR
# with rtosmeter's rtconfig.h, and defines rm_port. RT-Thread's own build
# (SCons, or a BSP's project files) is per board; there is none for these
# QEMU machines, so the kernel's sources are compiled directly.
#
# Variables read:
#   RM_SOURCE_DIR   an RT-Thread tree: the full repository, or RT-Thread Nano
#                   (its rt-thread/ folder, or the repository root holding it)
#   RM_PROFILE      "vendor" = the Nano template's rtconfig.h values, else
#                   the benchmark configuration (rtconfig.h)
#   RM_TARGET_DIR   its target.toml's `cpu` picks libcpu/arm/cortex-m<N>

set(_rm_rtt "")
foreach(_rm_dir "${RM_SOURCE_DIR}" "${RM_SOURCE_DIR}/rt-thread")
  if(NOT _rm_rtt AND EXISTS "${_rm_dir}/src/thread.c" AND EXISTS "${_rm_dir}/include/rtthread.h")
    set(_rm_rtt "${_rm_dir}")
  endif()
endforeach()
if(NOT RM_SOURCE_DIR OR NOT _rm_rtt)
  message(FATAL_ERROR
    "Error: RT-Thread tree not found in RM_SOURCE_DIR='${RM_SOURCE_DIR}' "
    "(ports/rtthread/port.cmake). Pass --source rtthread=PATH or set "
    "RTOSMETER_RTTHREAD to a clone of https://github.com/RT-Thread/rt-thread "
    "or to the rt-thread/ folder of https://github.com/RT-Thread/rtthread-nano "
    "(the folder holding src/thread.c).")
endif()

# ---- the core: target.toml's cpu -------------------------------------------
set(_rm_cpu "")
if(EXISTS "${RM_TARGET_DIR}/target.toml")
  file(STRINGS "${RM_TARGET_DIR}/target.toml" _rm_cpu_line REGEX "^cpu[ \t]*=")
  if(_rm_cpu_line)
    string(REGEX REPLACE "^cpu[ \t]*=[ \t]*\"([^\"]*)\".*" "\\1" _rm_cpu "${_rm_cpu_line}")
  endif()
endif()
if(_rm_cpu MATCHES "^cortex-m(0|0plus|1)$")
  set(_rm_libcpu cortex-m0)
  set(_rm_stack 512)
  set(_rm_heap 7168)
elseif(_rm_cpu MATCHES "^cortex-m(3|4|7)$")
  set(_rm_libcpu "cortex-m${CMAKE_MATCH_1}")
  set(_rm_stack 2048)
  set(_rm_heap 196608)
else()
  message(FATAL_ERROR
    "Error: the RT-Thread port has no libcpu mapping for cpu '${_rm_cpu}' of "
    "${RM_TARGET_DIR}/target.toml in ports/rtthread/port.cmake. Supported: "
    "cortex-m0/m0plus/m1, cortex-m3, cortex-m4, cortex-m7.")
endif()
set(_rm_cpudir "${_rm_rtt}/libcpu/arm/${_rm_libcpu}")
if(NOT EXISTS "${_rm_cpudir}/context_gcc.S")
  message(FATAL_ERROR "Error: ${_rm_cpudir}/context_gcc.S not found (ports/rtthread/port.cmake): "
                      "the RT-Thread tree lacks its ${_rm_libcpu} port.")
endif()

if(RM_PROFILE STREQUAL "vendor")
  set(_rm_vendor 1)
else()
  set(_rm_vendor 0)
endif()
message(STATUS "rtosmeter RT-Thread: ${_rm_rtt}, libcpu ${_rm_libcpu}, profile ${RM_PROFILE}")

# ---- the kernel --------------------------------------------------------------
file(GLOB _rm_rtt_sources "${_rm_rtt}/src/*.c")
add_library(rm_rtthread_kernel STATIC EXCLUDE_FROM_ALL
  ${_rm_rtt_sources}
  "${_rm_cpudir}/cpuport.c"
  "${_rm_cpudir}/context_gcc.S")
target_include_directories(rm_rtthread_kernel SYSTEM PUBLIC
  "${CMAKE_CURRENT_LIST_DIR}" "${_rm_rtt}/include")
target_compile_definitions(rm_rtthread_kernel PUBLIC RM_RTT_VENDOR=${_rm_vendor})
set_target_properties(rm_rtthread_kernel PROPERTIES C_EXTENSIONS ON)
# context_gcc.S defines HardFault_Handler (it prints through rt_kprintf and
# spins): renamed, so the target's handler reports the fault instead.
set_source_files_properties("${_rm_cpudir}/context_gcc.S" PROPERTIES
  COMPILE_DEFINITIONS "HardFault_Handler=rm_rtthread_unused_hardfault")
if(_rm_vendor)
  # RT_USING_COMPONENTS_INIT: keep the sorted .rti_fn* table (INSERT script).
  target_link_options(rm_rtthread_kernel INTERFACE
    "-Wl,-T,${CMAKE_CURRENT_LIST_DIR}/rtthread_sections.ld")
endif()

# ---- the port ------------------------------------------------------------------
add_library(rm_port OBJECT "${CMAKE_CURRENT_LIST_DIR}/port.c")
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
target_compile_definitions(rm_port PRIVATE
  RM_RTT_STACK=${_rm_stack}u RM_RTT_HEAP=${_rm_heap}u RM_RTT_CPU="${_rm_libcpu}")
# The kernel is an archive: context_gcc.S (PendSV_Handler, overriding the
# target's weak one) comes in with rt_hw_context_switch*, which the
# scheduler calls.
target_link_libraries(rm_port PUBLIC rm_rtthread_kernel)
