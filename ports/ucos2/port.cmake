# µC/OS-II port: compiles the kernel (Source/ucos_ii.c, the kernel's own
# single-file build, and the Cortex-M port of Ports/ARM-Cortex-M) from the
# tree in RM_SOURCE_DIR with rtosmeter's configuration headers (os_cfg.h,
# app_cfg.h in this folder), and defines the OBJECT library rm_port.
# µC/OS-II has no build system of its own: its sources are compiled as they
# are, with the flags of the whole build.
#
# Variables read:
#   RM_SOURCE_DIR   the uC-OS2 tree (--source ucos2=PATH or $RTOSMETER_UCOS2)
#   RM_PROFILE      "vendor": the kernel template's settings; else benchmark

if(NOT RM_SOURCE_DIR OR NOT EXISTS "${RM_SOURCE_DIR}/Source/ucos_ii.h")
  message(FATAL_ERROR
    "Error: no uC/OS-II tree at '${RM_SOURCE_DIR}' (RM_SOURCE_DIR) in "
    "ports/ucos2/port.cmake. Pass --source ucos2=PATH or set RTOSMETER_UCOS2 "
    "to a clone of https://github.com/weston-embedded/uC-OS2 (the folder "
    "holding Source/ucos_ii.h)")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/../ucos_common/uc_common.cmake")
rm_uc_arch(_rm_uc_arch)
rm_uc_vendor(_rm_uc_vendor)

rm_uc_cortex_m_port(${_rm_uc_arch} _rm_uc_port _rm_uc_asm)
foreach(_f "${_rm_uc_port}/os_cpu_c.c" "${_rm_uc_asm}" "${_rm_uc_port}/GNU/os_dbg.c")
  if(NOT EXISTS "${_f}")
    message(FATAL_ERROR "Error: the uC/OS-II tree at '${RM_SOURCE_DIR}' has no "
                        "${_f} (ports/ucos2/port.cmake). Use a full uC-OS2 clone.")
  endif()
endforeach()

file(STRINGS "${RM_SOURCE_DIR}/Source/ucos_ii.h" _rm_uc_ver REGEX "define +OS_VERSION ")
string(REGEX REPLACE ".*OS_VERSION +([0-9]+)u.*" "\\1" _rm_uc_ver "${_rm_uc_ver}")
rm_uc_version_string(_rm_uc_version "${_rm_uc_ver}" 2)

# ---- the kernel ---------------------------------------------------------------
add_library(ucos2_kernel STATIC
  "${RM_SOURCE_DIR}/Source/ucos_ii.c"
  "${_rm_uc_port}/os_cpu_c.c"
  "${_rm_uc_asm}"
  "${_rm_uc_port}/GNU/os_dbg.c"
  "${CMAKE_CURRENT_LIST_DIR}/app_hooks.c")
rm_uc_preprocess_asm("${_rm_uc_asm}")
target_include_directories(ucos2_kernel SYSTEM PUBLIC
  "${CMAKE_CURRENT_LIST_DIR}" "${RM_SOURCE_DIR}/Source" "${_rm_uc_port}/GNU")
# os_cfg.h reads the profile's idle (RM_IDLE_KERNEL) from rm_build_config.h.
target_include_directories(ucos2_kernel PRIVATE "${RM_CONFIG_DIR}")
# The kernel's handlers under the names of the target's vector table
# (targets/common/cortex-m/startup.c): the vectors are the kernel's code.
target_compile_definitions(ucos2_kernel PUBLIC
  RM_UC_VENDOR=${_rm_uc_vendor}
  OS_CPU_PendSVHandler=PendSV_Handler
  OS_CPU_SysTickHandler=SysTick_Handler)
set_target_properties(ucos2_kernel PROPERTIES C_EXTENSIONS ON)

# ---- the port ------------------------------------------------------------
add_library(rm_port OBJECT "${CMAKE_CURRENT_LIST_DIR}/port.c")
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
target_compile_definitions(rm_port PRIVATE
  RM_UC_VERSION_STR="${_rm_uc_version}" RM_UC_ARCH_STR="${_rm_uc_arch}")
target_link_libraries(rm_port PUBLIC ucos2_kernel)
