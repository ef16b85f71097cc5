/* nRF52840 clock: the core always runs at 64 MHz (HFCLK, from the internal
 * oscillator or the crystal alike), and DWT CYCCNT counts it. */
#include <stdint.h>

uint32_t rm_board_cpu_hz(void);

uint32_t rm_board_cpu_hz(void)
{
    return 64000000u;
}
