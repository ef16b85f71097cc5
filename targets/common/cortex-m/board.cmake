# The one target.cmake of the Cortex-M boards: the shared start-up, the board
# target layer (DWT or chip timer, semihosting console/exit, a spare IRQ for
# the benchmark interrupt), the board's clock set-up, its chip file, case
# marker and linker script. A board's target.cmake says only what differs,
# then includes this file:
#
#   set(RM_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
#   set(RM_BOARD_CHIP_SOURCE l475.c)  # the chip's timer, NVIC size, ...
#   set(RM_BOARD_DEFINES RM_TARGET_FLASH_WS=1 RM_CM_NUM_IRQ=82 RM_CM_BENCH_IRQ=80)
#   include(${CMAKE_CURRENT_LIST_DIR}/../common/cortex-m/board.cmake)
#
# The board's folder holds clock.c, marker.c, link.ld and the chip source.
get_filename_component(_rm_board_dir "${CMAKE_PARENT_LIST_FILE}" DIRECTORY)
if(NOT RM_BOARD_CHIP_SOURCE)
  message(FATAL_ERROR "Error: RM_BOARD_CHIP_SOURCE is not set in ${_rm_board_dir}/target.cmake. "
                      "Set it to the board's chip source before including board.cmake.")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/cortex-m.cmake)
rm_board_clock_sources(${_rm_board_dir}/clock.c _rm_clock)
rm_cortex_m_target(
  SOURCES ${RM_CM_DIR}/board.c ${_rm_board_dir}/${RM_BOARD_CHIP_SOURCE} ${_rm_board_dir}/marker.c ${_rm_clock}
  LINKER_SCRIPT ${_rm_board_dir}/link.ld
  INLINE_DIR ${RM_CM_DIR}/board-include
  DEFINES RM_TARGET_CASE_MARKER=1 ${RM_BOARD_DEFINES})
