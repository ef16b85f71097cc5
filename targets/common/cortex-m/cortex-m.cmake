# Shared Cortex-M part of every target.cmake: CPU flags for the whole build,
# newlib-nano, section garbage collection, a linker map next to each ELF (the
# footprint attribution reads it), and the OBJECT library rm_target made of
# the shared start-up + semihosting (+ RTT) + NVIC calls (cm_irq.c, empty
# for a port that owns the NVIC: RM_PORT_OWNS_NVIC) and the target's own
# sources.
#
#   set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
#   rm_cortex_m_target(SOURCES a.c LINKER_SCRIPT x.ld INLINE_DIR dir
#                      DEFINES RM_CM_NUM_IRQ=32 ...)
# INLINE_DIR holds the target's rm_target_inline.h (target.h); it and this
# folder become RM_TARGET_INCLUDE_DIRS. DEFINES apply to the whole build: the
# inline trigger needs RM_CM_BENCH_IRQ wherever a case raises the interrupt.
#
# RAM size: read from the linker script's RAM region (its one copy), passed to
# the C code as RM_TARGET_RAM_BYTES and to port.cmake as the variable of that
# name; each port sizes its heap, pools and stacks from its tier, RM_RAM_TIER
# (docs/memory.md).
#
# RM_TARGET_MODE set (zephyr: ports/zephyr/app; riot: ports/riot/app): an RTOS
# that owns start-up, vectors, linker script and CPU flags takes only the
# target's sources (without startup.c), defines and inline-header folders, as
# RM_TARGET_SOURCES, RM_TARGET_DEFINES and RM_TARGET_INCLUDE_DIRS.
set(RM_CM_DIR ${CMAKE_CURRENT_LIST_DIR})

# The LENGTH of the RAM region in a linker script (e.g. "LENGTH = 128K"), in bytes.
function(rm_linker_ram_bytes script out)
  file(STRINGS "${script}" _rm_lines REGEX "^[ \t]*RAM[ \t(]")
  if(NOT _rm_lines MATCHES "LENGTH[ \t]*=[ \t]*([0-9]+)([KM]?)")
    message(FATAL_ERROR "Error: no 'RAM ... LENGTH = <n>[K|M]' line in ${script}: "
                        "the ports size their memory from it.")
  endif()
  set(_rm_n ${CMAKE_MATCH_1})
  if(CMAKE_MATCH_2 STREQUAL "K")
    math(EXPR _rm_n "${_rm_n} * 1024")
  elseif(CMAKE_MATCH_2 STREQUAL "M")
    math(EXPR _rm_n "${_rm_n} * 1048576")
  endif()
  set(${out} ${_rm_n} PARENT_SCOPE)
endfunction()

# A board's clock set-up (targets/<board>/clock.c: PLL, flash wait states,
# caches, run from Reset_Handler before main: RM_BOARD_CLOCK_MAX) unless
# RM_BOARD_CLOCK is "reset" (the profile's board_clock, passed by
# rtosmeter.build), with the failure report its bounded waits share.
#   rm_board_clock_sources(${CMAKE_CURRENT_LIST_DIR}/clock.c _rm_clock)
function(rm_board_clock_sources clock_c out)
  if(NOT DEFINED RM_BOARD_CLOCK OR RM_BOARD_CLOCK STREQUAL "")
    set(RM_BOARD_CLOCK max)
  endif()
  if(RM_BOARD_CLOCK STREQUAL "max")
    set(${out} ${clock_c} ${RM_CM_DIR}/clock_fail.c PARENT_SCOPE)
    add_compile_definitions(RM_BOARD_CLOCK_MAX=1)
  elseif(RM_BOARD_CLOCK STREQUAL "reset")
    set(${out} "" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "Error: RM_BOARD_CLOCK='${RM_BOARD_CLOCK}' (a profile's board_clock) "
                        "is neither 'max' nor 'reset' (${CMAKE_CURRENT_LIST_FILE}).")
  endif()
endfunction()

function(rm_cortex_m_target)
  cmake_parse_arguments(ARG "" "LINKER_SCRIPT;INLINE_DIR" "SOURCES;DEFINES" ${ARGN})
  if(NOT RM_CPU_FLAGS)
    message(FATAL_ERROR "Error: RM_CPU_FLAGS is not set in ${CMAKE_CURRENT_LIST_FILE}. "
                        "Set it before calling rm_cortex_m_target().")
  endif()
  rm_linker_ram_bytes("${ARG_LINKER_SCRIPT}" _rm_ram)
  set(RM_TARGET_RAM_BYTES ${_rm_ram} PARENT_SCOPE)
  list(APPEND ARG_DEFINES RM_TARGET_RAM_BYTES=${_rm_ram})
  # The ports' memory tiers: small (up to 16 KiB: the Cortex-M0 sizes),
  # medium (the boards' 96-256 KiB), large (none defined: the QEMU MPS2 4 MiB).
  if(_rm_ram LESS_EQUAL 16384)
    set(_rm_tier small)
    list(APPEND ARG_DEFINES RM_RAM_SMALL=1)
  elseif(_rm_ram LESS 1048576)
    set(_rm_tier medium)
    list(APPEND ARG_DEFINES RM_RAM_MEDIUM=1)
  else()
    set(_rm_tier large)
  endif()
  set(RM_RAM_TIER ${_rm_tier} PARENT_SCOPE)
  # Cache entries: the build's record (builds.config cmake.RM_TARGET_RAM_BYTES,
  # cmake.RM_RAM_TIER), without a CFG record the firmware would spend
  # instructions on (the QEMU figures stay as they were).
  set(RM_TARGET_RAM_BYTES ${_rm_ram} CACHE INTERNAL "the target's RAM (its linker script)")
  set(RM_RAM_TIER ${_rm_tier} CACHE INTERNAL "the ports' memory tier (docs/memory.md)")
  if(RM_TARGET_MODE)
    set(RM_TARGET_SOURCES ${RM_CM_DIR}/semihost.c ${RM_CM_DIR}/rtt.c ${RM_CM_DIR}/cm_irq.c
        ${ARG_SOURCES} PARENT_SCOPE)
    set(RM_TARGET_DEFINES ${ARG_DEFINES} PARENT_SCOPE)
    set(RM_TARGET_INCLUDE_DIRS ${ARG_INLINE_DIR} ${RM_CM_DIR} PARENT_SCOPE)
    set(RM_TARGET_LINKER_SCRIPT ${ARG_LINKER_SCRIPT} PARENT_SCOPE) # for an RTOS that links with it
    return()
  endif()
  add_compile_options(${RM_CPU_FLAGS} -ffunction-sections -fdata-sections -g)
  add_link_options(${RM_CPU_FLAGS}
    --specs=nano.specs --specs=nosys.specs
    -T${ARG_LINKER_SCRIPT} -L${RM_CM_DIR}
    -Wl,--gc-sections
    -Wl,-Map=$<TARGET_PROPERTY:NAME>.map)
  add_compile_definitions(${ARG_DEFINES})
  set(RM_TARGET_INCLUDE_DIRS ${ARG_INLINE_DIR} ${RM_CM_DIR} PARENT_SCOPE)
  add_library(rm_target OBJECT
    ${RM_CM_DIR}/startup.c ${RM_CM_DIR}/semihost.c ${RM_CM_DIR}/rtt.c ${RM_CM_DIR}/cm_irq.c
    ${ARG_SOURCES})
  # RM_INCLUDE_DIRS / RM_WARN_FLAGS come from bench/CMakeLists.txt.
  target_include_directories(rm_target PRIVATE ${RM_CM_DIR} ${RM_INCLUDE_DIRS})
  target_compile_options(rm_target PRIVATE ${RM_WARN_FLAGS})
  # The linker script is an input: relink when it changes.
  set_property(TARGET rm_target APPEND PROPERTY LINK_DEPENDS ${ARG_LINKER_SCRIPT})
endfunction()
