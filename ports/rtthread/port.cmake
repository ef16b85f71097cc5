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
#   RM_ARCH, RM_CPU the target's architecture and core pick libcpu/arm/cortex-m<N>
#   RM_CONFIG_DIR   rm_build_config.h: RM_IDLE_KERNEL selects the idle hook

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

# ---- the core: the target's architecture and cpu (RM_ARCH, RM_CPU) --------
if(RM_ARCH STREQUAL "armv6-m")
  set(_rm_libcpu cortex-m0)
elseif(RM_ARCH MATCHES "^armv7e?-m$")
  set(_rm_libcpu "${RM_CPU}")  # libcpu/arm/cortex-m3, -m4 or -m7
else()
  message(FATAL_ERROR
    "Error: the RT-Thread port has no libcpu mapping for architecture "
    "'${RM_ARCH}' in ports/rtthread/port.cmake. Supported: armv6-m, armv7-m, "
    "armv7e-m; list only those in `archs` of port.toml.")
endif()
# ---- memory: the target's RAM tier (RM_RAM_TIER: docs/memory.md) ----------
if(RM_RAM_TIER STREQUAL "small")
  # 16 KiB of RAM or less: small stacks (the runner's is larger).
  set(_rm_stack 384)
  set(_rm_runner_stack 1024)
  set(_rm_heap 6656)
elseif(RM_RAM_TIER STREQUAL "medium")
  # The 96-256 KiB boards: half the RAM is the heap every thread stack comes from.
  math(EXPR _rm_heap "${RM_TARGET_RAM_BYTES} / 2")
  set(_rm_stack 1024)
  set(_rm_runner_stack 2048)
else()
  set(_rm_stack 2048)
  set(_rm_runner_stack 2048)
  set(_rm_heap 196608)
endif()
set(_rm_cpudir "${_rm_rtt}/libcpu/arm/${_rm_libcpu}")
if(NOT EXISTS "${_rm_cpudir}/context_gcc.S")
  message(FATAL_ERROR "Error: ${_rm_cpudir}/context_gcc.S not found (ports/rtthread/port.cmake): "
                      "the RT-Thread tree lacks its ${_rm_libcpu} port.")
endif()

# Cortex-M0: RT-Thread Nano 4.1.1's context_gcc.S leaves PendSV with
# EXC_RETURN 0xFFFFFFFC (MOVS R0, #4; RSBS R0, R0, #0), a reserved value that
# Cortex-M0 silicon tolerates and QEMU refuses (UsageFault, "failed exception
# return integrity check"; RT-Thread fixed the same code for the M23 in PR
# #3701). The build compiles a copy from the build folder with the
# architected 0xFFFFFFFD (#3): the same instructions, one constant. A tree
# that already has the fix is compiled as it is. The tree is never written.
set(_rm_ctx_src "${_rm_cpudir}/context_gcc.S")
set(_rm_exc_patch 0)
if(_rm_libcpu STREQUAL "cortex-m0")
  file(READ "${_rm_ctx_src}" _rm_ctx)
  string(REGEX REPLACE
    "(MOVS[ \t]+R0,[ \t]*#)0x04([ \t]*\n[ \t]*RSBS[ \t]+R0,[ \t]*R0,[ \t]*#0x00[ \t]*\n[ \t]*BX[ \t]+R0)"
    "\\10x03\\2" _rm_ctx_fixed "${_rm_ctx}")
  if(NOT _rm_ctx_fixed STREQUAL _rm_ctx)
    set(_rm_ctx_src "${CMAKE_CURRENT_BINARY_DIR}/rm_rtthread_m0_context_gcc.S")
    file(CONFIGURE OUTPUT "${_rm_ctx_src}" CONTENT "${_rm_ctx_fixed}" @ONLY)
    set(_rm_exc_patch 1)
  endif()
endif()

if(RM_PROFILE STREQUAL "vendor")
  set(_rm_vendor 1)
else()
  set(_rm_vendor 0)
endif()
# The profile's idle (docs/idle.md): idle = "kernel" (rm_build_config.h says
# RM_IDLE_KERNEL) compiles the kernel with its idle hook, which port.c sets
# to WFI; every other profile's kernel is compiled as before (no hook).
file(STRINGS "${RM_CONFIG_DIR}/rm_build_config.h" _rm_idle_kernel REGEX "^#define RM_IDLE_KERNEL ")
message(STATUS "rtosmeter RT-Thread: ${_rm_rtt}, libcpu ${_rm_libcpu}, profile ${RM_PROFILE}")

# ---- the kernel --------------------------------------------------------------
file(GLOB _rm_rtt_sources "${_rm_rtt}/src/*.c")
add_library(rm_rtthread_kernel STATIC EXCLUDE_FROM_ALL
  ${_rm_rtt_sources}
  "${_rm_cpudir}/cpuport.c"
  "${_rm_ctx_src}")
target_include_directories(rm_rtthread_kernel SYSTEM PUBLIC
  "${CMAKE_CURRENT_LIST_DIR}" "${_rm_rtt}/include")
target_compile_definitions(rm_rtthread_kernel PUBLIC RM_RTT_VENDOR=${_rm_vendor})
if(_rm_idle_kernel)
  target_compile_definitions(rm_rtthread_kernel PUBLIC RM_RTT_IDLE_HOOK=1)
endif()
set_target_properties(rm_rtthread_kernel PROPERTIES C_EXTENSIONS ON)
# context_gcc.S defines HardFault_Handler (it prints through rt_kprintf and
# spins): renamed, so the target's handler reports the fault instead.
set_source_files_properties("${_rm_ctx_src}" PROPERTIES
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
  RM_RTT_STACK=${_rm_stack}u RM_RTT_RUNNER_STACK=${_rm_runner_stack}u RM_RTT_HEAP=${_rm_heap}u RM_RTT_CPU="${_rm_libcpu}" RM_RTT_EXC_RETURN_PATCH=${_rm_exc_patch})
# The kernel is an archive: context_gcc.S (PendSV_Handler, overriding the
# target's weak one) comes in with rt_hw_context_switch*, which the
# scheduler calls.
target_link_libraries(rm_port PUBLIC rm_rtthread_kernel)
