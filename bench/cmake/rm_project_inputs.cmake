# For the CMake projects of ports built by their RTOS's own tools (port.toml
# `cmake_project`): the harness's inputs they all need (docs/architecture.md,
# Build contract), checked once here. Stops naming the project when one is
# missing.

# bench/core's sources, which every firmware links: the one list that
# bench/CMakeLists.txt and every port's own project compile, so a core file
# cannot reach some builds and not others.
set(RM_CORE_SOURCES "")
foreach(name stream.c runner.c load.c spin.c port_defaults.c tm_porting_layer.c)
  get_filename_component(src "${CMAKE_CURRENT_LIST_DIR}/../core/${name}" ABSOLUTE)
  list(APPEND RM_CORE_SOURCES "${src}")
endforeach()

function(rm_require_inputs what)
  foreach(var RM_TARGET_DIR RM_PORT_DIR RM_CONFIG_DIR RM_GROUPS)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
      message(FATAL_ERROR "Error: ${var} is not set in the rtosmeter ${what} build "
                          "(${CMAKE_CURRENT_LIST_FILE}). Pass -D${var}=... "
                          "(see docs/architecture.md, Build contract).")
    endif()
  endforeach()
endfunction()

# RM_NATIVE_BOARD: the RTOS's own board for the target, from the port's
# port.toml [targets] (with RM_NATIVE_MODULES, RM_NATIVE_DEFINES and
# RM_NATIVE_DIR, the target family's board files for this RTOS). The harness
# plans only the targets and toolchains that table names, so the project
# never chooses a board or refuses a toolchain itself.
function(rm_require_native_board what)
  if(NOT RM_NATIVE_BOARD)
    message(FATAL_ERROR "Error: RM_NATIVE_BOARD is not set in the rtosmeter ${what} build "
                        "(${CMAKE_CURRENT_LIST_FILE}): the port's port.toml [targets] names "
                        "no board for ${RM_TARGET_DIR}. Pass -DRM_NATIVE_BOARD=... "
                        "(see docs/architecture.md, Build contract).")
  endif()
endfunction()

# The target's rmcycles plugin counter section (RM_TARGET_PLUGIN_COUNTER_LD,
# from its target.cmake in RM_TARGET_MODE: one output section statement) as
# a linker script of its own, for an RTOS whose link takes extra -T scripts
# (RIOT's LINKFLAGS, NuttX's ARCHSCRIPT): written into the build folder;
# "" when the target has none.
function(rm_plugin_counter_script out_var)
  set(script "")
  if(RM_TARGET_PLUGIN_COUNTER_LD)
    file(READ "${RM_TARGET_PLUGIN_COUNTER_LD}" section)
    set(script "${CMAKE_BINARY_DIR}/rm_plugin_counter_sections.ld")
    file(CONFIGURE OUTPUT "${script}" CONTENT
         "/* generated from ${RM_TARGET_PLUGIN_COUNTER_LD} */\nSECTIONS\n{\n${section}}\n")
  endif()
  set(${out_var} "${script}" PARENT_SCOPE)
endfunction()
