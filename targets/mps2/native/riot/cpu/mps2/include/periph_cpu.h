/* RIOT CPU mps2: peripheral types. One UART (CMSDK UART0, transmit only) and
 * one timer (ztimer's), at MPS2_PCLK_HZ. */
#ifndef PERIPH_CPU_H
#define PERIPH_CPU_H

#include "cpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UART_NUMOF (1U)
#define TIMER_NUMOF (1U)
#define TIMER_CHANNEL_NUMOF (1U)
/* The core clock, for busy_wait.h (GNRC's headers include it). */
#define CLOCK_CORECLOCK MPS2_PCLK_HZ

#ifdef __cplusplus
}
#endif

#endif /* PERIPH_CPU_H */
