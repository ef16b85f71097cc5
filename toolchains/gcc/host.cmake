# The host's GNU C compiler (the host target: Linux executables).
set(CMAKE_C_COMPILER gcc)
