/* QEMU mps2-an500: the peripherals of RIOT's CPU mps2 (periph_cpu.h). */
#ifndef PERIPH_CONF_H
#define PERIPH_CONF_H

#include "periph_cpu.h"

#endif /* PERIPH_CONF_H */
