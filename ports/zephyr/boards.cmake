# rtosmeter target -> Zephyr board. Sets, in the caller's scope:
#   RM_ZEPHYR_BOARD          the board name for this Zephyr version
#   RM_ZEPHYR_BOARD_MODULES  the Zephyr modules it needs (folder names)
#   RM_ZEPHYR_ARCH           arm, or posix (native_sim_64)
#   RM_ZEPHYR_SUFFIX         .elf, or "" for native_sim's Linux executable
#                            (what the harness looks for: rm_<group><suffix>)
# Upstream boards where Zephyr has one (mps2_an385, qemu_cortex_m0, native_sim_64
# for the host: a Linux process, functional checks only, as its simulated time
# stands still while code runs); the M4F/M7 MPS2 machines are this port's own board + SoC
# (boards/arm/rm_mps2_an386, rm_mps2_an500; soc/arm/rm_mps2). Zephyr 3.7's
# hardware model v2 renamed boards (mps2_an385 -> mps2/an385): the name is
# chosen from the tree's VERSION.
function(rm_zephyr_board target zephyr_base)
  file(STRINGS "${zephyr_base}/VERSION" ver REGEX "^VERSION_(MAJOR|MINOR)")
  string(REGEX REPLACE ".*MAJOR = ([0-9]+).*MINOR = ([0-9]+).*" "\\1.\\2" ver "${ver}")
  set(hwv2 OFF)
  if(ver VERSION_GREATER_EQUAL 3.7)
    set(hwv2 ON)
  endif()
  set(arch arm)
  set(suffix .elf)
  set(modules cmsis)
  if(target STREQUAL "qemu-mps2-an385")
    set(board mps2_an385)
    if(hwv2)
      set(board mps2/an385)
    endif()
  elseif(target STREQUAL "qemu-mps2-an386")
    set(board rm_mps2_an386)
  elseif(target STREQUAL "qemu-mps2-an500")
    set(board rm_mps2_an500)
  elseif(target STREQUAL "qemu-microbit")
    set(board qemu_cortex_m0)
    list(APPEND modules nordic)
  elseif(target STREQUAL "host")
    set(board native_sim_64) # 64-bit: room for every host pthread (32-bit: see port.toml)
    set(arch posix)
    set(suffix "")
    set(modules "")
  else()
    message(FATAL_ERROR "Error: the Zephyr port has no board for target '${target}' "
                        "(ports/zephyr/boards.cmake). Known: qemu-mps2-an385, qemu-mps2-an386, "
                        "qemu-mps2-an500, qemu-microbit, host (native_sim_64).")
  endif()
  if(hwv2 AND board MATCHES "^rm_")
    message(FATAL_ERROR "Error: ports/zephyr's own boards (${board}) use Zephyr's board "
                        "model v1 (before 3.7); this tree is Zephyr ${ver}. Use Zephyr 3.5/3.6 "
                        "for ${target}, or qemu-mps2-an385.")
  endif()
  set(RM_ZEPHYR_BOARD "${board}" PARENT_SCOPE)
  set(RM_ZEPHYR_BOARD_MODULES "${modules}" PARENT_SCOPE)
  set(RM_ZEPHYR_ARCH "${arch}" PARENT_SCOPE)
  set(RM_ZEPHYR_SUFFIX "${suffix}" PARENT_SCOPE)
endfunction()
