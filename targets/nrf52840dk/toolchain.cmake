# arm-none-eabi-gcc + newlib, shared by every Cortex-M target.
include(${CMAKE_CURRENT_LIST_DIR}/../common/arm-none-eabi.cmake)
