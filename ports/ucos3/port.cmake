# µC/OS-III port: compiles the kernel (uC-OS3's Source/ and its Cortex-M
# port, or its POSIX port for the host), uC-CPU (cpu_core.c and its Cortex-M
# or POSIX port) and uses uC-LIB's headers,
# with rtosmeter's configuration headers (os_cfg.h, os_cfg_app.h, cpu_cfg.h
# in this folder), and defines the OBJECT library rm_port. The kernel has no
# build system of its own: its sources are compiled as they are, with the
# flags of the whole build.
#
# Variables read:
#   RM_SOURCE_DIR   the uC-OS3 tree (--source ucos3=PATH or $RTOSMETER_UCOS3)
#   RM_PROFILE      "vendor": the kernel template's settings; else benchmark
#   RM_ARCH         armv6-m / armv7-m / armv7e-m: the Cortex-M ports; host:
#                   the POSIX ports, with host.c
# uC-CPU and uC-LIB (two more repositories µC/OS-III needs) are found, in
# this order:
#   $RTOSMETER_UC_CPU / $RTOSMETER_UC_LIB (environment, at configure time);
#   uC-CPU/ and uC-LIB/ inside the uC-OS3 tree;
#   uC-CPU/ and uC-LIB/ (or uc-cpu/, uc-lib/) beside it: the vendor's own
#   layout (<vendor>/Software/{uCOS-III,uC-CPU,uC-LIB}) and a folder of clones.

if(NOT RM_SOURCE_DIR OR NOT EXISTS "${RM_SOURCE_DIR}/Source/os.h"
   OR NOT EXISTS "${RM_SOURCE_DIR}/Source/os_q.c")
  message(FATAL_ERROR
    "Error: no uC/OS-III tree at '${RM_SOURCE_DIR}' (RM_SOURCE_DIR) in "
    "ports/ucos3/port.cmake. Pass --source ucos3=PATH or set RTOSMETER_UCOS3 "
    "to a clone of https://github.com/weston-embedded/uC-OS3 (the folder "
    "holding Source/os.h)")
endif()

include("${CMAKE_CURRENT_LIST_DIR}/../ucos_common/uc_common.cmake")
rm_uc_arch(_rm_uc_arch)
rm_uc_vendor(_rm_uc_vendor)

# ---- uC-CPU and uC-LIB ------------------------------------------------------
function(rm_uc3_find out what env probe)
  get_filename_component(_up "${RM_SOURCE_DIR}/.." ABSOLUTE)
  string(TOLOWER "${what}" _lower)
  set(_candidates "$ENV{${env}}" "${RM_SOURCE_DIR}/${what}" "${_up}/${what}" "${_up}/${_lower}")
  foreach(_c IN LISTS _candidates)
    if(_c AND EXISTS "${_c}/${probe}")
      get_filename_component(_c "${_c}" ABSOLUTE)
      set(${out} "${_c}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR
    "Error: ${what} not found for the uC/OS-III tree '${RM_SOURCE_DIR}' "
    "(ports/ucos3/port.cmake). Set ${env} to a clone of "
    "https://github.com/weston-embedded/${what} (the folder holding ${probe}), "
    "or put the clone beside the uC-OS3 tree as ${what}/.")
endfunction()
rm_uc3_find(_rm_uc_cpu uC-CPU RTOSMETER_UC_CPU cpu_core.h)
rm_uc3_find(_rm_uc_lib uC-LIB RTOSMETER_UC_LIB lib_def.h)
message(STATUS "rtosmeter uC/OS-III: ${_rm_uc_arch}, uC-CPU ${_rm_uc_cpu}, uC-LIB ${_rm_uc_lib}")

# ---- versions, for rm_port_describe -------------------------------------------
file(STRINGS "${RM_SOURCE_DIR}/Source/os.h" _v REGEX "define +OS_VERSION ")
string(REGEX REPLACE ".*OS_VERSION +([0-9]+)u.*" "\\1" _v "${_v}")
rm_uc_version_string(_rm_uc_version "${_v}" 3)
file(STRINGS "${_rm_uc_cpu}/cpu_def.h" _v REGEX "define +CPU_CORE_VERSION ")
string(REGEX REPLACE ".*CPU_CORE_VERSION +([0-9]+)u.*" "\\1" _v "${_v}")
if(_v MATCHES "^[0-9]+$")
  rm_uc_version_string(_rm_uc_cpu_version "${_v}" 1)
else()
  set(_rm_uc_cpu_version "?")
endif()
file(STRINGS "${_rm_uc_lib}/lib_def.h" _v REGEX "define +LIB_VERSION ")
string(REGEX REPLACE ".*LIB_VERSION +([0-9]+)u.*" "\\1" _v "${_v}")
if(_v MATCHES "^[0-9]+$")
  rm_uc_version_string(_rm_uc_lib_version "${_v}" 1)
else()
  set(_rm_uc_lib_version "?")
endif()

# ---- the kernel ---------------------------------------------------------------
set(_rm_uc_srcs)
foreach(_f os_cfg_app os_core os_dbg os_flag os_mem os_msg os_mutex os_prio os_q os_sem
           os_stat os_task os_tick os_time os_tmr os_var)
  list(APPEND _rm_uc_srcs "${RM_SOURCE_DIR}/Source/${_f}.c")
endforeach()
if(_rm_uc_arch STREQUAL "POSIX")
  # The host: the kernel's POSIX port (each task a SCHED_RR pthread, context
  # switches by semaphores) and uC-CPU's (interrupts are a signal, the tick a
  # timer thread). It needs real-time scheduling: host.c checks for it first.
  set(_rm_uc_port "${RM_SOURCE_DIR}/Ports/POSIX/GNU")
  set(_rm_uc_cpu_port "${_rm_uc_cpu}/POSIX/GNU")
  list(APPEND _rm_uc_srcs "${_rm_uc_port}/os_cpu_c.c" "${_rm_uc_cpu}/cpu_core.c"
       "${_rm_uc_cpu_port}/cpu_c.c")
  set(_rm_uc_posix 1)
  # Its OSInitHook asks for an unlimited RLIMIT_RTPRIO: host.c answers from a
  # real SCHED_RR test (see there).
  set(_rm_uc_link_options "-Wl,--wrap=getrlimit")
else()
  rm_uc_cortex_m_port(${_rm_uc_arch} _rm_uc_port_dir _rm_uc_asm)
  set(_rm_uc_cpu_dir "${_rm_uc_cpu}/ARM-Cortex-M/${_rm_uc_arch}")
  set(_rm_uc_port "${_rm_uc_port_dir}/GNU")
  set(_rm_uc_cpu_port "${_rm_uc_cpu_dir}/GNU")
  list(APPEND _rm_uc_srcs "${_rm_uc_port_dir}/os_cpu_c.c" "${_rm_uc_asm}"
       "${_rm_uc_cpu}/cpu_core.c" "${_rm_uc_cpu_dir}/cpu_c.c" "${_rm_uc_cpu_port}/cpu_a.s")
  set(_rm_uc_posix 0)
  set(_rm_uc_link_options "")
endif()
list(APPEND _rm_uc_srcs "${CMAKE_CURRENT_LIST_DIR}/app_hooks.c")
foreach(_f IN LISTS _rm_uc_srcs)
  if(NOT EXISTS "${_f}")
    message(FATAL_ERROR "Error: ${_f} is missing (ports/ucos3/port.cmake). Use full "
                        "clones of uC-OS3, uC-CPU and uC-LIB.")
  endif()
endforeach()
add_library(ucos3_kernel STATIC ${_rm_uc_srcs})
target_include_directories(ucos3_kernel SYSTEM PUBLIC
  "${CMAKE_CURRENT_LIST_DIR}" "${RM_SOURCE_DIR}/Source" "${_rm_uc_port}"
  "${_rm_uc_cpu}" "${_rm_uc_cpu_port}" "${_rm_uc_lib}")
target_compile_definitions(ucos3_kernel PUBLIC
  RM_UC_VENDOR=${_rm_uc_vendor} RM_UC3_POSIX=${_rm_uc_posix})
# os_cfg.h reads the profile's idle (RM_IDLE_KERNEL) from rm_build_config.h.
target_include_directories(ucos3_kernel PRIVATE "${RM_CONFIG_DIR}")
if(NOT _rm_uc_posix)
  rm_uc_preprocess_asm("${_rm_uc_asm}")
  rm_uc_preprocess_asm("${_rm_uc_cpu_port}/cpu_a.s")
  # The kernel's handlers under the names of the target's vector table
  # (targets/common/cortex-m/startup.c): the vectors are the kernel's code.
  target_compile_definitions(ucos3_kernel PUBLIC
    OS_CPU_PendSVHandler=PendSV_Handler
    OS_CPU_SysTickHandler=SysTick_Handler)
endif()
target_link_options(ucos3_kernel INTERFACE ${_rm_uc_link_options})
set_target_properties(ucos3_kernel PROPERTIES C_EXTENSIONS ON)

# ---- the port ------------------------------------------------------------
add_library(rm_port OBJECT "${CMAKE_CURRENT_LIST_DIR}/port.c")
if(_rm_uc_posix)
  target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/host.c")
endif()
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
target_compile_definitions(rm_port PRIVATE
  RM_UC_VERSION_STR="${_rm_uc_version}" RM_UC_ARCH_STR="${_rm_uc_arch}"
  RM_UC_CPU_VERSION_STR="${_rm_uc_cpu_version}" RM_UC_LIB_VERSION_STR="${_rm_uc_lib_version}")
target_link_libraries(rm_port PUBLIC ucos3_kernel)
