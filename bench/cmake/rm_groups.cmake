# A benchmark group's case file, bench/cases/<group>.c, for every build that
# compiles groups (bench/CMakeLists.txt and the ports' own CMake projects):
# an unknown group stops the build naming the groups there are.
function(rm_group_source group out_var)
  set(src "${RM_BENCH_DIR}/cases/${group}.c")
  if(NOT EXISTS "${src}")
    file(GLOB known RELATIVE "${RM_BENCH_DIR}/cases" "${RM_BENCH_DIR}/cases/*.c")
    string(REPLACE ".c" "" known "${known}")
    message(FATAL_ERROR "Error: unknown benchmark group '${group}' in RM_GROUPS. "
                        "Known groups: ${known}")
  endif()
  set(${out_var} "${src}" PARENT_SCOPE)
endfunction()
