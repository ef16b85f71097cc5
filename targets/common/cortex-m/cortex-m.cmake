# Shared Cortex-M part of every target.cmake: CPU flags for the whole build,
# newlib-nano, section garbage collection, a linker map next to each ELF (the
# footprint attribution reads it), and the OBJECT library rm_target made of
# the shared start-up + semihosting (+ RTT) and the target's own sources.
#
#   set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
#   rm_cortex_m_target(SOURCES a.c LINKER_SCRIPT x.ld INLINE_DIR dir
#                      DEFINES RM_CM_NUM_IRQ=32 ...)
# INLINE_DIR holds the target's rm_target_inline.h (target.h); it and this
# folder become RM_TARGET_INCLUDE_DIRS. DEFINES apply to the whole build: the
# inline trigger needs RM_CM_BENCH_IRQ wherever a case raises the interrupt.
#
# RM_TARGET_MODE set (zephyr: ports/zephyr/app; riot: ports/riot/app): an RTOS
# that owns start-up, vectors, linker script and CPU flags takes only the
# target's sources (without startup.c), defines and inline-header folders, as
# RM_TARGET_SOURCES, RM_TARGET_DEFINES and RM_TARGET_INCLUDE_DIRS.
set(RM_CM_DIR ${CMAKE_CURRENT_LIST_DIR})

function(rm_cortex_m_target)
  cmake_parse_arguments(ARG "" "LINKER_SCRIPT;INLINE_DIR" "SOURCES;DEFINES" ${ARGN})
  if(NOT RM_CPU_FLAGS)
    message(FATAL_ERROR "Error: RM_CPU_FLAGS is not set in ${CMAKE_CURRENT_LIST_FILE}. "
                        "Set it before calling rm_cortex_m_target().")
  endif()
  if(RM_TARGET_MODE)
    set(RM_TARGET_SOURCES ${RM_CM_DIR}/semihost.c ${RM_CM_DIR}/rtt.c ${ARG_SOURCES} PARENT_SCOPE)
    set(RM_TARGET_DEFINES ${ARG_DEFINES} PARENT_SCOPE)
    set(RM_TARGET_INCLUDE_DIRS ${ARG_INLINE_DIR} ${RM_CM_DIR} PARENT_SCOPE)
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
    ${RM_CM_DIR}/startup.c ${RM_CM_DIR}/semihost.c ${RM_CM_DIR}/rtt.c ${ARG_SOURCES})
  # RM_INCLUDE_DIRS / RM_WARN_FLAGS come from bench/CMakeLists.txt.
  target_include_directories(rm_target PRIVATE ${RM_CM_DIR} ${RM_INCLUDE_DIRS})
  target_compile_options(rm_target PRIVATE ${RM_WARN_FLAGS})
  # The linker script is an input: relink when it changes.
  set_property(TARGET rm_target APPEND PROPERTY LINK_DEPENDS ${ARG_LINKER_SCRIPT})
endfunction()
