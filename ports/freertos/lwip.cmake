# lwIP under the net-* loads (port.toml [net]): the stack from the tree in
# RM_NET_SOURCE_DIR (--source lwip=PATH or $RTOSMETER_LWIP; the harness passes
# it only for a net-* build) as the library `lwip` (IPv6, 6LoWPAN, the
# netconn API, lwIP's FreeRTOS sys_arch), configured by lwip/lwipopts.h, and
# the port's virtual radio (net_radio.c) in rm_port. lwIP is third-party
# code: built with the benchmarks' flags but outside rtosmeter's -Werror.

if(NOT EXISTS "${RM_NET_SOURCE_DIR}/src/netif/lowpan6.c")
    message(FATAL_ERROR
        "Error: lwIP tree not found in RM_NET_SOURCE_DIR='${RM_NET_SOURCE_DIR}' "
        "(ports/freertos/lwip.cmake). Pass --source lwip=PATH or set RTOSMETER_LWIP "
        "to an lwIP checkout (the folder holding src/netif/lowpan6.c).")
endif()

set(LWIP_DIR "${RM_NET_SOURCE_DIR}")
include("${LWIP_DIR}/src/Filelists.cmake")
# IPv6 only (lwipopts.h: LWIP_IPV4 0): the core, IPv6, the sequential API the
# node's UDP connection uses, 6LoWPAN over IEEE 802.15.4 (not its BLE or ZEP
# variants), and the FreeRTOS sys_arch.
add_library(lwip STATIC ${lwipcore_SRCS} ${lwipcore6_SRCS} ${lwipapi_SRCS}
    "${LWIP_DIR}/src/netif/lowpan6_common.c" "${LWIP_DIR}/src/netif/lowpan6.c"
    "${LWIP_DIR}/contrib/ports/freertos/sys_arch.c")
target_include_directories(lwip SYSTEM PUBLIC "${LWIP_DIR}/src/include"
    "${LWIP_DIR}/contrib/ports/freertos/include" "${CMAKE_CURRENT_LIST_DIR}/lwip")
target_include_directories(lwip PRIVATE ${RM_INCLUDE_DIRS})
target_link_libraries(lwip PUBLIC freertos_kernel)
set_target_properties(lwip PROPERTIES C_EXTENSIONS ON)
# sys_arch.c still spells FreeRTOS's tick period by its pre-V8 name, which
# FreeRTOSConfig.h's configENABLE_BACKWARD_COMPATIBILITY 0 withdraws.
# Before V10.0.0 FreeRTOS.h had no configSTACK_DEPTH_TYPE (sys_arch.c casts to
# it): the type of xTaskCreate's stack depth there, as FreeRTOS.h defaults it since.
set(_rm_lwip_defs "portTICK_RATE_MS=portTICK_PERIOD_MS")
if(_rm_fr_version LESS 100000)
    list(APPEND _rm_lwip_defs "configSTACK_DEPTH_TYPE=uint16_t")
endif()
set_source_files_properties("${LWIP_DIR}/contrib/ports/freertos/sys_arch.c"
    PROPERTIES COMPILE_DEFINITIONS "${_rm_lwip_defs}")

target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/net_radio.c")
target_link_libraries(rm_port PUBLIC lwip)
message(STATUS "rtosmeter FreeRTOS: lwIP ${LWIP_VERSION_STRING} from ${LWIP_DIR}")
