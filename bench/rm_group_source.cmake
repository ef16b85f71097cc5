# The case file of a benchmark group (bench/cases/<group>.c), shared by every
# CMake project that builds the groups (bench/, ports' own projects), or a
# configure error listing the known groups.
function(rm_group_source bench_dir group out)
  set(src "${bench_dir}/cases/${group}.c")
  if(NOT EXISTS "${src}")
    file(GLOB known RELATIVE "${bench_dir}/cases" "${bench_dir}/cases/*.c")
    string(REPLACE ".c" "" known "${known}")
    message(FATAL_ERROR "Error: unknown benchmark group '${group}' in RM_GROUPS. "
                        "Known groups: ${known}")
  endif()
  set(${out} "${src}" PARENT_SCOPE)
endfunction()
