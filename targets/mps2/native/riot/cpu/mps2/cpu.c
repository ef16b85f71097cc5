/* RIOT CPU mps2: start-up after reset (RIOT's cortexm_common reset handler
 * calls cpu_init). QEMU's MPS2 needs no clock set-up: every clock is 25 MHz. */
#include "cpu.h"
#include "kernel_init.h"
#include "periph/init.h"
#include "stdio_base.h"

void cpu_init(void)
{
    cortexm_init();
    early_init(); /* stdio before periph_init, as RIOT's CPUs do */
    periph_init();
}
