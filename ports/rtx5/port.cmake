# CMSIS-RTX5 port: builds RTX5 (CMSIS-RTX's Source/) with CMSIS 6's
# RTOS2 API header, core headers and os_systick.c straight from the two
# trees (CMSIS-RTX ships no CMake build), and defines rm_port.
#
# Variables read:
#   RM_SOURCE_DIR   the CMSIS-RTX tree (--source rtx5=PATH or $RTOSMETER_RTX5;
#                   the folder holding Source/rtx_kernel.c)
#   RM_RTX5_CMSIS6  the CMSIS 6 tree (the folder holding CMSIS/RTOS2). When
#                   unset: $RTOSMETER_CMSIS6, else a CMSIS_6 / cmsis6 /
#                   CMSIS6 folder next to the CMSIS-RTX tree or inside it.
#   RM_PROFILE      "vendor" = RTX_Config.h's template values, else default
#   RM_ARCH, RM_CPU the target's architecture and core pick the core header and the
#                   RTX exception file (irq_armv6m.S or irq_armv7m.S)

if(NOT RM_SOURCE_DIR OR NOT EXISTS "${RM_SOURCE_DIR}/Source/rtx_kernel.c")
  message(FATAL_ERROR
    "Error: CMSIS-RTX tree not found in RM_SOURCE_DIR='${RM_SOURCE_DIR}' "
    "(ports/rtx5/port.cmake). Pass --source rtx5=PATH or set RTOSMETER_RTX5 "
    "to a clone of https://github.com/ARM-software/CMSIS-RTX (the folder "
    "holding Source/rtx_kernel.c).")
endif()

# ---- CMSIS 6 (RTOS2 API, core headers, os_systick.c) ----------------------
set(_rm_cmsis6_candidates)
if(RM_RTX5_CMSIS6)
  list(APPEND _rm_cmsis6_candidates "${RM_RTX5_CMSIS6}")
elseif(DEFINED ENV{RTOSMETER_CMSIS6} AND NOT "$ENV{RTOSMETER_CMSIS6}" STREQUAL "")
  list(APPEND _rm_cmsis6_candidates "$ENV{RTOSMETER_CMSIS6}")
else()
  get_filename_component(_rm_rtx_parent "${RM_SOURCE_DIR}" DIRECTORY)
  foreach(_rm_name CMSIS_6 cmsis6 CMSIS6 cmsis_6)
    list(APPEND _rm_cmsis6_candidates "${_rm_rtx_parent}/${_rm_name}"
                                      "${RM_SOURCE_DIR}/${_rm_name}")
  endforeach()
endif()
set(_rm_cmsis6 "")
foreach(_rm_dir IN LISTS _rm_cmsis6_candidates)
  if(NOT _rm_cmsis6 AND EXISTS "${_rm_dir}/CMSIS/RTOS2/Include/cmsis_os2.h")
    set(_rm_cmsis6 "${_rm_dir}")
  endif()
endforeach()
if(NOT _rm_cmsis6)
  message(FATAL_ERROR
    "Error: no CMSIS 6 tree for RTX5 (looked in: ${_rm_cmsis6_candidates}) in "
    "ports/rtx5/port.cmake. Set RTOSMETER_CMSIS6 to a clone of "
    "https://github.com/ARM-software/CMSIS_6 (the folder holding CMSIS/RTOS2), "
    "or put the clone next to the CMSIS-RTX tree as CMSIS_6.")
endif()
file(STRINGS "${_rm_cmsis6}/CMSIS/Core/Include/cmsis_version.h" _rm_cv
     REGEX "#define __CM_CMSIS_VERSION_(MAIN|SUB) ")
string(REGEX REPLACE ".*MAIN[ \t]+\\([ \t]*([0-9]+)U\\).*SUB[ \t]+\\([ \t]*([0-9]+)U\\).*"
       "\\1.\\2" _rm_cmsis_core "${_rm_cv}")

# ---- the core: the target's architecture and cpu (RM_ARCH, RM_CPU) --------
if(RM_ARCH STREQUAL "armv6-m")
  set(_rm_core 0)
  set(_rm_irq irq_armv6m.S)
elseif(RM_ARCH MATCHES "^armv7e?-m$")
  string(REPLACE "cortex-m" "" _rm_core "${RM_CPU}")  # 3, 4 or 7: the CMSIS core header
  set(_rm_irq irq_armv7m.S)
else()
  message(FATAL_ERROR
    "Error: the RTX5 port has no mapping for architecture '${RM_ARCH}' "
    "in ports/rtx5/port.cmake. Supported: armv6-m (irq_armv6m.S), "
    "armv7-m and armv7e-m (irq_armv7m.S); list only those in `archs` of port.toml.")
endif()

# ---- memory: the target's RAM tier (RM_RAM_TIER: docs/memory.md) ----------
if(RM_RAM_TIER STREQUAL "small")
  # 16 KiB of RAM or less: small stacks (the runner's is larger).
  set(_rm_dyn 6400)
  set(_rm_stack 384)
  set(_rm_runner_stack 1024)
  set(_rm_idle 256)
elseif(RM_RAM_TIER STREQUAL "medium")
  # The 96-256 KiB boards: a third of the RAM for every thread's stack.
  math(EXPR _rm_dyn "${RM_TARGET_RAM_BYTES} / 3 / 8 * 8")
  set(_rm_stack 1024)
  set(_rm_runner_stack 2048)
  set(_rm_idle 512)
else()
  set(_rm_dyn 131072)
  set(_rm_stack 2048)
  set(_rm_runner_stack 2048)
  set(_rm_idle 512)
endif()

if(RM_PROFILE STREQUAL "vendor")
  set(_rm_vendor 1)
else()
  set(_rm_vendor 0)
endif()
message(STATUS "rtosmeter RTX5: ${RM_CPU} (${_rm_irq}), CMSIS ${_rm_cmsis_core} "
               "from ${_rm_cmsis6}, profile ${RM_PROFILE}")

# ---- the kernel ------------------------------------------------------------
file(GLOB _rm_rtx_sources "${RM_SOURCE_DIR}/Source/rtx_*.c")
add_library(rm_rtx5_kernel STATIC EXCLUDE_FROM_ALL
  ${_rm_rtx_sources}
  "${RM_SOURCE_DIR}/Source/GCC/${_rm_irq}"
  "${_rm_cmsis6}/CMSIS/RTOS2/Source/os_systick.c")
# RTX's and CMSIS's headers are third-party: system headers, no -Werror.
target_include_directories(rm_rtx5_kernel SYSTEM PUBLIC
  "${CMAKE_CURRENT_LIST_DIR}"
  "${RM_SOURCE_DIR}/Include"
  "${_rm_cmsis6}/CMSIS/RTOS2/Include"
  "${_rm_cmsis6}/CMSIS/Core/Include")
target_include_directories(rm_rtx5_kernel PRIVATE "${RM_SOURCE_DIR}/Source")
# _RTE_: os_systick.c then reads the device header from RTE_Components.h.
target_compile_definitions(rm_rtx5_kernel PRIVATE _RTE_)
target_compile_definitions(rm_rtx5_kernel PUBLIC
  RM_RTX_CORE=${_rm_core} RM_RTX_VENDOR=${_rm_vendor}
  RM_RTX_DYN_MEM=${_rm_dyn} RM_RTX_IDLE_STACK=${_rm_idle})
set_target_properties(rm_rtx5_kernel PROPERTIES C_EXTENSIONS ON)

# ---- the port --------------------------------------------------------------
add_library(rm_port OBJECT "${CMAKE_CURRENT_LIST_DIR}/port.c")
# lowpower (RM_IDLE_KERNEL in rm_build_config.h): the tickless idle's SysTick
# (not on ARMv6-M, whose idle wakes on every tick: port.c osRtxIdleThread).
file(STRINGS "${RM_CONFIG_DIR}/rm_build_config.h" _rm_rtx_idle REGEX "#define RM_IDLE_KERNEL ")
if(_rm_rtx_idle AND NOT RM_ARCH STREQUAL "armv6-m")
  target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/rtx_tickless.c")
endif()
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
target_compile_definitions(rm_port PRIVATE
  RM_RTX_STACK=${_rm_stack}u RM_RTX_RUNNER_STACK=${_rm_runner_stack}u
  RM_RTX_CMSIS_CORE="${_rm_cmsis_core}")
# The kernel is an archive: irq_armv*.S (SVC/PendSV/SysTick handlers, which
# override the target's weak ones) is pulled in by rtx_lib.c's reference to
# irqRtxLib, os_systick.c by RTX's OS_Tick_* calls.
target_link_libraries(rm_port PUBLIC rm_rtx5_kernel)

# ---- the network stack under a net-* load: lwIP ---------------------------
# (bench/net/lwip: the radio and lwipopts.h every lwIP port shares) on our
# CMSIS-RTOS2 sys_arch (lwip/sys_arch.c), held to our warnings.
if(RM_NET_SOURCE_DIR)
  set(RM_LWIP_SYS_ARCH "${CMAKE_CURRENT_LIST_DIR}/lwip/sys_arch.c")
  set(RM_LWIP_SYS_ARCH_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/lwip")
  set(RM_LWIP_KERNEL rm_rtx5_kernel)
  include("${RM_BENCH_DIR}/net/lwip/lwip.cmake")
  set_source_files_properties("${RM_LWIP_SYS_ARCH}" PROPERTIES COMPILE_OPTIONS "${RM_WARN_FLAGS}")
endif()
