# POSIX port: no kernel to build, the host's libc provides pthreads and mq_*.
# Target "host" already adds -pthread and librt.
add_library(rm_port OBJECT "${CMAKE_CURRENT_LIST_DIR}/port.c")
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
