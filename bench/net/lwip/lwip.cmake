# lwIP under the net-* loads, for any port whose port.toml [net] says
# stack = "lwip": the stack from the tree in RM_NET_SOURCE_DIR (--source
# lwip=PATH or $RTOSMETER_LWIP; the harness passes it only for a net-* build)
# as the library `lwip` (IPv6, 6LoWPAN, the netconn API, the kernel's
# sys_arch), configured by lwipopts.h here, and the virtual radio
# (net_radio.c) in rm_port. lwIP is third-party code: built with the
# benchmarks' flags but outside rtosmeter's -Werror.
#
# Variables the port's port.cmake sets before including this file:
#   RM_LWIP_SYS_ARCH          the kernel's sys_arch.c
#   RM_LWIP_SYS_ARCH_INCLUDE  the folder holding its arch/sys_arch.h
#   RM_LWIP_KERNEL            the kernel's library target
# The port also defines rm_lwip_isr_exit (net_radio.c).

if(NOT EXISTS "${RM_NET_SOURCE_DIR}/src/netif/lowpan6.c")
    message(FATAL_ERROR
        "Error: lwIP tree not found in RM_NET_SOURCE_DIR='${RM_NET_SOURCE_DIR}' "
        "(bench/net/lwip/lwip.cmake). Pass --source lwip=PATH or set RTOSMETER_LWIP "
        "to an lwIP checkout (the folder holding src/netif/lowpan6.c).")
endif()
foreach(_rm_var RM_LWIP_SYS_ARCH RM_LWIP_SYS_ARCH_INCLUDE RM_LWIP_KERNEL)
    if(NOT ${_rm_var})
        message(FATAL_ERROR "Error: bench/net/lwip/lwip.cmake needs ${_rm_var} "
                            "from the port's port.cmake")
    endif()
endforeach()

set(LWIP_DIR "${RM_NET_SOURCE_DIR}")
include("${LWIP_DIR}/src/Filelists.cmake")
# IPv6 only (lwipopts.h: LWIP_IPV4 0): the core, IPv6, the sequential API the
# node's UDP connection uses, 6LoWPAN over IEEE 802.15.4 (not its BLE or ZEP
# variants), and the kernel's sys_arch.
add_library(lwip STATIC ${lwipcore_SRCS} ${lwipcore6_SRCS} ${lwipapi_SRCS}
    "${LWIP_DIR}/src/netif/lowpan6_common.c" "${LWIP_DIR}/src/netif/lowpan6.c"
    "${RM_LWIP_SYS_ARCH}")
target_include_directories(lwip SYSTEM PUBLIC "${LWIP_DIR}/src/include"
    "${RM_LWIP_SYS_ARCH_INCLUDE}" "${CMAKE_CURRENT_LIST_DIR}")
target_include_directories(lwip PRIVATE ${RM_INCLUDE_DIRS})
target_link_libraries(lwip PUBLIC ${RM_LWIP_KERNEL})
set_target_properties(lwip PROPERTIES C_EXTENSIONS ON)

target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/net_radio.c")
target_link_libraries(rm_port PUBLIC lwip)
message(STATUS "rtosmeter: lwIP ${LWIP_VERSION_STRING} from ${LWIP_DIR} on ${RM_LWIP_KERNEL}")
