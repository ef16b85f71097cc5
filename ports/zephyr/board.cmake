# The Zephyr board name for this tree: rm_zephyr_board(<board> <native_dir>
# <zephyr_base>) sets RM_ZEPHYR_BOARD in the caller's scope. The board is
# port.toml [targets]' (RM_NATIVE_BOARD), the target family's own boards
# are in <native_dir>/boards (RM_NATIVE_DIR). Zephyr 3.7's hardware model v2
# renamed the upstream boards (mps2_an385 -> mps2/an385); the family's own
# boards use model v1, so a 3.7+ tree cannot build them.
function(rm_zephyr_board board native_dir zephyr_base)
  file(STRINGS "${zephyr_base}/VERSION" ver REGEX "^VERSION_(MAJOR|MINOR)")
  string(REGEX REPLACE ".*MAJOR = ([0-9]+).*MINOR = ([0-9]+).*" "\\1.\\2" ver "${ver}")
  set(own "")
  if(native_dir)
    file(GLOB own "${native_dir}/boards/*/${board}")
  endif()
  if(ver VERSION_GREATER_EQUAL 3.7 AND own)
    message(FATAL_ERROR "Error: the Zephyr board ${board} of ${native_dir} uses Zephyr's "
                        "board model v1 (before 3.7); this tree is Zephyr ${ver}. Use "
                        "Zephyr 3.5/3.6 for it (ports/zephyr/board.cmake).")
  elseif(ver VERSION_GREATER_EQUAL 3.7)
    string(REGEX REPLACE "^mps2_" "mps2/" board "${board}")
  endif()
  set(RM_ZEPHYR_BOARD "${board}" PARENT_SCOPE)
endfunction()
