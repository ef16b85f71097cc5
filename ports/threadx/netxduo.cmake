# NetX Duo under a net-* load (issue 32), included by port.cmake when the
# build has a frame trace (rtosmeter.net_trace wrote rm_net_trace.h into
# RM_CONFIG_DIR): NetX Duo's common/ IP stack (its IPv6, ICMPv6 and UDP) on
# ThreadX, linked from a static library so that only what the node calls is
# in the firmware, and our driver (net_netxduo.c). NetX Duo is a tree of its
# own: RM_NET_SOURCE_DIR (--source netxduo=PATH or $RTOSMETER_NETXDUO; the
# harness passes it, port.toml [net.source]; eclipse-threadx/netxduo, never committed).

set(_rm_nxd "${RM_NET_SOURCE_DIR}")
if(NOT _rm_nxd OR NOT EXISTS "${_rm_nxd}/common/inc/nx_api.h")
  message(FATAL_ERROR
    "Error: a net-* load on ThreadX needs NetX Duo: RM_NET_SOURCE_DIR='${_rm_nxd}' is not a "
    "NetX Duo tree (no common/inc/nx_api.h) in ports/threadx/netxduo.cmake. Pass "
    "--source netxduo=PATH or set RTOSMETER_NETXDUO to a clone of "
    "https://github.com/eclipse-threadx/netxduo (tag v6.4.2_rel)")
endif()
if(THREADX_ARCH STREQUAL "linux" OR NOT EXISTS "${_rm_nxd}/ports/${THREADX_ARCH}/gnu/inc/nx_port.h")
  message(FATAL_ERROR
    "Error: NetX Duo has no port for ThreadX's '${THREADX_ARCH}' in ${_rm_nxd}/ports "
    "(ports/threadx/netxduo.cmake)")
endif()

file(GLOB _rm_nxd_sources "${_rm_nxd}/common/src/*.c")
# the sample RAM driver is NetX Duo's loopback for its demos; ours is the node's link
list(FILTER _rm_nxd_sources EXCLUDE REGEX "nx_ram_network_driver\\.c$")
add_library(netxduo STATIC ${_rm_nxd_sources})
target_include_directories(netxduo PUBLIC
  "${CMAKE_CURRENT_LIST_DIR}/netxduo" "${_rm_nxd}/common/inc" "${_rm_nxd}/ports/${THREADX_ARCH}/gnu/inc")
target_compile_definitions(netxduo PUBLIC NX_INCLUDE_USER_DEFINE_FILE)
target_link_libraries(netxduo PUBLIC threadx)

file(STRINGS "${_rm_nxd}/common/inc/nx_api.h" _rm_nxd_ver
     REGEX "#define NETXDUO_(MAJOR|MINOR|PATCH)_VERSION")
string(REGEX REPLACE ".*MAJOR_VERSION[ \t]+([0-9]+).*MINOR_VERSION[ \t]+([0-9]+).*PATCH_VERSION[ \t]+([0-9]+).*"
       "\\1.\\2.\\3" _rm_nxd_version "${_rm_nxd_ver}")

target_sources(rm_port PRIVATE "${CMAKE_CURRENT_LIST_DIR}/net_netxduo.c")
target_compile_definitions(rm_port PRIVATE RM_NXD_VERSION_STR="${_rm_nxd_version}")
target_link_libraries(rm_port PUBLIC netxduo)
