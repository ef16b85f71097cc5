# Bare-metal port: no kernel to build; rm_port is the one file that owns main().
add_library(rm_port OBJECT ${CMAKE_CURRENT_LIST_DIR}/port.c)
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
