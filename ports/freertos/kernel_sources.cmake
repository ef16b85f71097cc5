# FreeRTOS kernels without a CMake build of their own (before V10.5.0: V9,
# V10.0 .. V10.4): the library freertos_kernel built from the tree's sources
# directly, with what FreeRTOS's own CMake would give a newer tree (heap_4,
# the GCC port of the target's architecture, freertos_config linked in).

# FREERTOS_PORT names (as the kernel's CMake spells them) -> portable/ folders
set(_rm_fr_port_dirs
    GCC_ARM_CM0 GCC/ARM_CM0
    GCC_ARM_CM3 GCC/ARM_CM3
    GCC_ARM_CM4F GCC/ARM_CM4F
    GCC_ARM_CM7 GCC/ARM_CM7/r0p1
    GCC_POSIX ThirdParty/GCC/Posix)

function(rm_freertos_kernel_from_sources tree port)
    list(FIND _rm_fr_port_dirs ${port} _at)
    if(_at LESS 0)
        message(FATAL_ERROR "Error: ports/freertos/kernel_sources.cmake knows no folder "
            "for the FreeRTOS port ${port} (building ${tree}, which has no CMakeLists.txt). "
            "Add it to _rm_fr_port_dirs there.")
    endif()
    math(EXPR _at "${_at} + 1")
    list(GET _rm_fr_port_dirs ${_at} _dir)
    set(_port_dir "${tree}/portable/${_dir}")
    if(NOT EXISTS "${_port_dir}/port.c")
        message(FATAL_ERROR "Error: this FreeRTOS tree (${tree}) has no ${port} port "
            "(portable/${_dir}/port.c is missing): this kernel version cannot run on "
            "the chosen target (ports/freertos/kernel_sources.cmake).")
    endif()
    # stream_buffer.c came with V10.0.0; croutine.c is not used (no co-routines)
    set(_srcs tasks.c queue.c list.c timers.c event_groups.c stream_buffer.c)
    set(_found "")
    foreach(_s ${_srcs})
        if(EXISTS "${tree}/${_s}")
            list(APPEND _found "${tree}/${_s}")
        endif()
    endforeach()
    file(GLOB _port_srcs "${_port_dir}/*.c")
    add_library(freertos_kernel STATIC ${_found} ${_port_srcs}
        "${tree}/portable/MemMang/heap_4.c")
    target_include_directories(freertos_kernel SYSTEM PUBLIC "${tree}/include" "${_port_dir}")
    target_link_libraries(freertos_kernel PUBLIC freertos_config)
    if(port STREQUAL "GCC_POSIX")
        file(GLOB _utils "${_port_dir}/utils/*.c")
        target_sources(freertos_kernel PRIVATE ${_utils})
        target_include_directories(freertos_kernel SYSTEM PUBLIC "${_port_dir}/utils")
        find_package(Threads REQUIRED)
        target_link_libraries(freertos_kernel PUBLIC Threads::Threads)
    endif()
endfunction()
