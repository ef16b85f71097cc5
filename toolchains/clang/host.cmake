# The host's Clang (the host target: Linux executables).
set(CMAKE_C_COMPILER clang)
