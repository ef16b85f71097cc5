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

# RM_TOOLCHAIN (toolchains/<name>) must be one the project maps to its RTOS's
# own toolchain selection: a build must never say clang and compile with gcc.
function(rm_require_toolchain what)
  if(NOT RM_TOOLCHAIN)
    set(RM_TOOLCHAIN gcc)
  endif()
  if(NOT RM_TOOLCHAIN IN_LIST ARGN)
    message(FATAL_ERROR "Error: toolchain '${RM_TOOLCHAIN}' is not one the rtosmeter ${what} "
                        "build maps to its RTOS's own tools (${CMAKE_CURRENT_LIST_FILE}): "
                        "it builds with ${ARGN}.")
  endif()
endfunction()
