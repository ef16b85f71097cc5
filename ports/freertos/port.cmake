# FreeRTOS port: builds FreeRTOS-Kernel with its own CMake (the freertos_kernel
# target, heap_4) from the tree in RM_SOURCE_DIR, or, for trees older than
# V10.5.0 (no CMakeLists.txt: V9, V10.4), from its sources directly
# (kernel_sources.cmake); and defines rm_port. The kernel version read from
# include/task.h reaches the C code as RM_FREERTOS_VERSION (e.g. 100406).
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

# ---- the kernel version: the port's build and its capabilities follow it ----
file(STRINGS "${RM_SOURCE_DIR}/include/task.h" _rm_ver_lines
     REGEX "^#define[ \t]+tskKERNEL_VERSION_(MAJOR|MINOR|BUILD)[ \t]+[0-9]+")
foreach(_rm_part MAJOR MINOR BUILD)
    string(REGEX MATCH "tskKERNEL_VERSION_${_rm_part}[ \t]+([0-9]+)" _rm_m "${_rm_ver_lines}")
    if(NOT _rm_m)
        message(FATAL_ERROR "Error: no tskKERNEL_VERSION_${_rm_part} in "
            "${RM_SOURCE_DIR}/include/task.h (ports/freertos/port.cmake): is this a "
            "FreeRTOS-Kernel tree?")
    endif()
    set(_rm_ver_${_rm_part} ${CMAKE_MATCH_1})
endforeach()
# V9.0.0 -> 90000, V10.4.6 -> 100406, V11.1.0 -> 110100
math(EXPR _rm_fr_version
     "${_rm_ver_MAJOR} * 10000 + ${_rm_ver_MINOR} * 100 + ${_rm_ver_BUILD}")
message(STATUS "rtosmeter FreeRTOS: kernel V${_rm_ver_MAJOR}.${_rm_ver_MINOR}.${_rm_ver_BUILD}")

add_library(freertos_config INTERFACE)
target_include_directories(freertos_config SYSTEM INTERFACE ${CMAKE_CURRENT_LIST_DIR}
    ${RM_CONFIG_DIR})
target_compile_definitions(freertos_config INTERFACE
    RM_FREERTOS_VENDOR=${_rm_freertos_vendor}
    RM_FREERTOS_POSIX=${_rm_posix}
    RM_FREERTOS_VERSION=${_rm_fr_version})
if(RM_ARCH STREQUAL "armv6-m")
    # no CLZ on ARMv6-M: the generic ready-list search
    target_compile_definitions(freertos_config INTERFACE RM_FREERTOS_NO_CLZ=1)
endif()

if(EXISTS "${RM_SOURCE_DIR}/CMakeLists.txt")
    # V10.5.0 and later: the kernel through its own CMake
    set(FREERTOS_PORT ${_rm_fr_port} CACHE STRING "FreeRTOS port" FORCE)
    set(FREERTOS_HEAP 4 CACHE STRING "FreeRTOS heap" FORCE)
    add_subdirectory(${RM_SOURCE_DIR} freertos-kernel EXCLUDE_FROM_ALL)
    set(_rm_fr_libs freertos_kernel freertos_kernel_port)
    # V11.0/V11.1's CMake leaves out the ARMv6-M port's portasm.c (fixed in
    # V11.2.0): add it where the tree has the file and its CMake does not.
    file(READ "${RM_SOURCE_DIR}/portable/CMakeLists.txt" _rm_fr_cmake)
    if(_rm_fr_port STREQUAL "GCC_ARM_CM0"
       AND EXISTS "${RM_SOURCE_DIR}/portable/GCC/ARM_CM0/portasm.c"
       AND NOT _rm_fr_cmake MATCHES "GCC/ARM_CM0/portasm.c")
        target_sources(freertos_kernel_port PRIVATE
            "${RM_SOURCE_DIR}/portable/GCC/ARM_CM0/portasm.c")
    endif()
    set(_rm_fr_headers freertos_kernel_include freertos_kernel_port_headers)
else()
    include(${CMAKE_CURRENT_LIST_DIR}/kernel_sources.cmake)
    rm_freertos_kernel_from_sources("${RM_SOURCE_DIR}" ${_rm_fr_port})
    set(_rm_fr_libs freertos_kernel)
    set(_rm_fr_headers freertos_kernel)
endif()

# RM_OPT_FLAGS and the CPU flags reach the kernel through the directory's
# add_compile_options (bench/CMakeLists.txt, target.cmake): same flags as the
# benchmarks.
# The kernel is FreeRTOS's code, not rtosmeter's: GNU C as it expects (the
# POSIX port needs POSIX/GNU names that strict -std=c11 hides).
set_target_properties(${_rm_fr_libs} PROPERTIES C_EXTENSIONS ON)
# Kernel headers are third-party: keep them out of rtosmeter's -Werror.
foreach(_rm_lib ${_rm_fr_headers})
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

# ---- the network stack under a net-* load: lwIP ---------------------------
# (bench/net/lwip: the radio and lwipopts.h every lwIP port shares) on
# lwIP's own FreeRTOS sys_arch (contrib/ports/freertos).
if(RM_NET_SOURCE_DIR)
    set(RM_LWIP_SYS_ARCH "${RM_NET_SOURCE_DIR}/contrib/ports/freertos/sys_arch.c")
    set(RM_LWIP_SYS_ARCH_INCLUDE "${RM_NET_SOURCE_DIR}/contrib/ports/freertos/include")
    set(RM_LWIP_KERNEL freertos_kernel)
    include("${RM_BENCH_DIR}/net/lwip/lwip.cmake")
    target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/lwip_port.c")
    # sys_arch.c still spells FreeRTOS's tick period by its pre-V8 name, which
    # FreeRTOSConfig.h's configENABLE_BACKWARD_COMPATIBILITY 0 withdraws.
    # Before V10.0.0 FreeRTOS.h had no configSTACK_DEPTH_TYPE (sys_arch.c casts to
    # it): the type of xTaskCreate's stack depth there, as FreeRTOS.h defaults it since.
    set(_rm_lwip_defs "portTICK_RATE_MS=portTICK_PERIOD_MS")
    if(_rm_fr_version LESS 100000)
        list(APPEND _rm_lwip_defs "configSTACK_DEPTH_TYPE=uint16_t")
    endif()
    set_source_files_properties("${RM_LWIP_SYS_ARCH}"
        PROPERTIES COMPILE_DEFINITIONS "${_rm_lwip_defs}")
endif()
