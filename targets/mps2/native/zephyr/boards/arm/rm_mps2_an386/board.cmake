# QEMU's mps2-an386 machine (-icount is the rtosmeter runner's, not this file's).
set(SUPPORTED_EMU_PLATFORMS qemu)
set(QEMU_CPU_TYPE_${ARCH} cortex-m4)
set(QEMU_FLAGS_${ARCH} -cpu ${QEMU_CPU_TYPE_${ARCH}} -machine mps2-an386 -nographic -vga none)
board_set_debugger_ifnset(qemu)
