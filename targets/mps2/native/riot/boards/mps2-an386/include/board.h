/* QEMU mps2-an386 (Cortex-M4F): no LEDs or buttons RIOT drives. */
#ifndef BOARD_H
#define BOARD_H

#include "cpu.h"

#endif /* BOARD_H */
