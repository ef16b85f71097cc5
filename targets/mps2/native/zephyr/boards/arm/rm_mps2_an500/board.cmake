# QEMU's mps2-an500 machine (-icount is the rtosmeter runner's, not this file's).
set(SUPPORTED_EMU_PLATFORMS qemu)
set(QEMU_CPU_TYPE_${ARCH} cortex-m7)
set(QEMU_FLAGS_${ARCH} -cpu ${QEMU_CPU_TYPE_${ARCH}} -machine mps2-an500 -nographic -vga none)
board_set_debugger_ifnset(qemu)
