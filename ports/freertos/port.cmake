# FreeRTOS port: builds FreeRTOS-Kernel with its own CMake (the freertos_kernel
# target, heap_4) from the tree in RM_SOURCE_DIR, and defines rm_port.
#
# Variables read:
#   RM_SOURCE_DIR      FreeRTOS-Kernel tree (--source freertos=PATH or
#                      $RTOSMETER_FREERTOS; the harness passes it)
#   RM_PROFILE         profile name; "vendor" selects FreeRTOS's shipped
#                      defaults, any other name the benchmark configuration
#                      (see FreeRTOSConfig.h)
#   RM_OPT_FLAGS       optimisation flags (recorded in the CFG lines)
#   RM_FREERTOS_PORT   optional override of the FreeRTOS port (FREERTOS_PORT)

if(NOT RM_SOURCE_DIR OR NOT EXISTS "${RM_SOURCE_DIR}/tasks.c")
    message(FATAL_ERROR
        "Error: FreeRTOS-Kernel tree not found in RM_SOURCE_DIR='${RM_SOURCE_DIR}' "
        "(ports/freertos/port.cmake). Pass --source freertos=PATH or set "
        "RTOSMETER_FREERTOS to a FreeRTOS-Kernel checkout (the folder holding tasks.c).")
endif()

if(NOT DEFINED RM_PROFILE OR RM_PROFILE STREQUAL "")
    set(RM_PROFILE default)
endif()
if(RM_PROFILE STREQUAL "vendor")
    set(_rm_freertos_vendor 1)
else()
    set(_rm_freertos_vendor 0)
endif()

# ---- which FreeRTOS port: from the target's architecture (RM_ARCH) ----------
get_directory_property(_rm_dir_opts COMPILE_OPTIONS)
set(_rm_flags "${CMAKE_C_FLAGS} ${_rm_dir_opts}")
set(_rm_posix 0)
if(RM_FREERTOS_PORT)
    set(_rm_fr_port "${RM_FREERTOS_PORT}")
elseif(RM_ARCH STREQUAL "host")
    set(_rm_fr_port GCC_POSIX)
elseif(RM_ARCH STREQUAL "armv6-m")
    set(_rm_fr_port GCC_ARM_CM0)
elseif(RM_ARCH STREQUAL "armv7-m")
    set(_rm_fr_port GCC_ARM_CM3)
elseif(RM_ARCH STREQUAL "armv7e-m")
    # the FPU is an ABI choice of target.cmake, not of the architecture
    if(_rm_flags MATCHES "-mfloat-abi=(hard|softfp)")
        # Cortex-M7: FreeRTOS's ARM_CM7 ReadMe recommends the CM4F port for
        # every core revision except r0p1 (QEMU's M7 reports r1p2). The r0p1
        # port (GCC_ARM_CM7) can be chosen with -DRM_FREERTOS_PORT.
        set(_rm_fr_port GCC_ARM_CM4F)
    else()
        set(_rm_fr_port GCC_ARM_CM3) # no FPU context to save
    endif()
else()
    message(FATAL_ERROR
        "Error: no FreeRTOS port known for architecture '${RM_ARCH}' "
        "in ports/freertos/port.cmake. Add a mapping there (and the "
        "architecture to `archs` in port.toml), or pass "
        "-DRM_FREERTOS_PORT=<FreeRTOS port name, e.g. GCC_ARM_CM4F>.")
endif()
if(_rm_fr_port STREQUAL "GCC_POSIX")
    set(_rm_posix 1)
endif()
message(STATUS "rtosmeter FreeRTOS: port ${_rm_fr_port}, profile ${RM_PROFILE}")

# ---- the kernel, through its own CMake ------------------------------------
add_library(freertos_config INTERFACE)
target_include_directories(freertos_config SYSTEM INTERFACE ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(freertos_config INTERFACE
    RM_FREERTOS_VENDOR=${_rm_freertos_vendor}
    RM_FREERTOS_POSIX=${_rm_posix})
set(FREERTOS_PORT ${_rm_fr_port} CACHE STRING "FreeRTOS port" FORCE)
set(FREERTOS_HEAP 4 CACHE STRING "FreeRTOS heap" FORCE)
add_subdirectory(${RM_SOURCE_DIR} freertos-kernel EXCLUDE_FROM_ALL)

# RM_OPT_FLAGS and the CPU flags reach the kernel through the directory's
# add_compile_options (bench/CMakeLists.txt, target.cmake): same flags as the
# benchmarks.
# The kernel is FreeRTOS's code, not rtosmeter's: GNU C as it expects (the
# POSIX port needs POSIX/GNU names that strict -std=c11 hides).
set_target_properties(freertos_kernel freertos_kernel_port PROPERTIES C_EXTENSIONS ON)
# Kernel headers are third-party: keep them out of rtosmeter's -Werror.
foreach(_rm_lib freertos_kernel_include freertos_kernel_port_headers)
    get_target_property(_rm_inc ${_rm_lib} INTERFACE_INCLUDE_DIRECTORIES)
    if(_rm_inc)
        set_property(TARGET ${_rm_lib} APPEND PROPERTY
            INTERFACE_SYSTEM_INCLUDE_DIRECTORIES ${_rm_inc})
    endif()
endforeach()

# ---- the port ------------------------------------------------------------
add_library(rm_port OBJECT ${CMAKE_CURRENT_LIST_DIR}/port.c)
target_include_directories(rm_port PRIVATE ${RM_INCLUDE_DIRS})
target_compile_options(rm_port PRIVATE ${RM_WARN_FLAGS})
target_compile_definitions(rm_port PRIVATE
    RM_FREERTOS_PORT_NAME="${_rm_fr_port}"
    RM_FREERTOS_OPT_FLAGS="${RM_OPT_FLAGS}")
target_link_libraries(rm_port PUBLIC freertos_kernel)
