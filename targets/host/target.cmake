# Host target: a normal Linux executable. No CPU flags; threads need -pthread
# and the POSIX message queues of the posix port need librt.
add_compile_options(-pthread)
add_link_options(-pthread)
link_libraries(rt)

add_library(rm_target OBJECT "${CMAKE_CURRENT_LIST_DIR}/target.c")
target_include_directories(rm_target PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_target PRIVATE ${RM_WARN_FLAGS})
