/* QEMU mps2-an500 (Cortex-M7): no LEDs or buttons RIOT drives. */
#ifndef BOARD_H
#define BOARD_H

#include "cpu.h"

#endif /* BOARD_H */
