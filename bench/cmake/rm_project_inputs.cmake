# For the CMake projects of ports built by their RTOS's own tools (port.toml
# `cmake_project`): the harness's inputs they all need (docs/architecture.md,
# Build contract), checked once here. Stops naming the project when one is
# missing.
function(rm_require_inputs what)
  foreach(var RM_TARGET_DIR RM_PORT_DIR RM_CONFIG_DIR RM_GROUPS)
    if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
      message(FATAL_ERROR "Error: ${var} is not set in the rtosmeter ${what} build "
                          "(${CMAKE_CURRENT_LIST_FILE}). Pass -D${var}=... "
                          "(see docs/architecture.md, Build contract).")
    endif()
  endforeach()
endfunction()
