# What the µC/OS-II and µC/OS-III ports share in their port.cmake: the
# kernel port folder for the target's CPU, the profile, the version string.

# ARMv7-M (Cortex-M3/M4/M7), ARMv6-M (Cortex-M0/M0+/M1) or POSIX (the
# host: µC/OS-III's POSIX port; µC/OS-II has none), from the target's
# architecture (RM_ARCH).
function(rm_uc_arch out)
  if(RM_ARCH STREQUAL "host")
    set(${out} POSIX PARENT_SCOPE)
  elseif(RM_ARCH STREQUAL "armv6-m")
    set(${out} ARMv6-M PARENT_SCOPE)
  elseif(RM_ARCH MATCHES "^armv7e?-m$")
    set(${out} ARMv7-M PARENT_SCOPE)
  else()
    message(FATAL_ERROR
      "Error: no uC/OS Cortex-M port for architecture '${RM_ARCH}' "
      "(ports/ucos_common/uc_common.cmake). Known: armv6-m (ARMv6-M), armv7-m and "
      "armv7e-m (ARMv7-M), host (POSIX); list only those in `archs` of port.toml.")
  endif()
endfunction()

# 1 for the "vendor" profile (the kernel's shipped template), else 0.
function(rm_uc_vendor out)
  if(RM_PROFILE STREQUAL "vendor")
    set(${out} 1 PARENT_SCOPE)
  else()
    set(${out} 0 PARENT_SCOPE)
  endif()
endfunction()

# OS_VERSION (e.g. 29300 or 30802) as "2.93.00" / "3.08.02".
function(rm_uc_version_string out number major)
  math(EXPR _minor "(${number} / 100) % 100")
  math(EXPR _patch "${number} % 100")
  if(_minor LESS 10)
    set(_minor "0${_minor}")
  endif()
  if(_patch LESS 10)
    set(_patch "0${_patch}")
  endif()
  set(${out} "${major}.${_minor}.${_patch}" PARENT_SCOPE)
endfunction()

# The ARMv6-M GNU ports are .s files (not preprocessed by default): run
# them through the preprocessor so that the handler renaming applies.
function(rm_uc_preprocess_asm file)
  set_source_files_properties("${file}" PROPERTIES LANGUAGE ASM
    COMPILE_OPTIONS "-x;assembler-with-cpp")
endfunction()

# The kernel's Cortex-M port folder (Ports/ARM-Cortex-M/<arch>) and its GNU
# context switch (os_cpu_a.S on ARMv7-M, os_cpu_a.s on ARMv6-M).
function(rm_uc_cortex_m_port arch dir_out asm_out)
  set(_dir "${RM_SOURCE_DIR}/Ports/ARM-Cortex-M/${arch}")
  if(arch STREQUAL "ARMv7-M")
    set(${asm_out} "${_dir}/GNU/os_cpu_a.S" PARENT_SCOPE)
  else()
    set(${asm_out} "${_dir}/GNU/os_cpu_a.s" PARENT_SCOPE)
  endif()
  set(${dir_out} "${_dir}" PARENT_SCOPE)
endfunction()
