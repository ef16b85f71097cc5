/* RIOT CPU mps2: CMSDK UART0 (0x40004000), transmit only: RIOT's stdio.
 * QEMU ignores the rate but checks the divisor (at least 16). */
#include <errno.h>

#include "cpu.h"
#include "periph/uart.h"

#define UART0_DATA (*(volatile uint32_t *)0x40004000u)
#define UART0_STATE (*(volatile uint32_t *)0x40004004u)
#define UART0_CTRL (*(volatile uint32_t *)0x40004008u)
#define UART0_BAUDDIV (*(volatile uint32_t *)0x40004010u)
#define UART_STATE_TXFULL 1u
#define UART_CTRL_TXEN 1u

int uart_init(uart_t uart, uint32_t baud, uart_rx_cb_t rx_cb, void *arg)
{
    (void)arg;
    if (uart >= UART_NUMOF || baud == 0u || MPS2_PCLK_HZ / baud < 16u)
        return -ENODEV;
    if (rx_cb != NULL)
        return -ENOTSUP; /* no receiver */
    UART0_BAUDDIV = MPS2_PCLK_HZ / baud;
    UART0_CTRL = UART_CTRL_TXEN;
    return 0;
}

void uart_write(uart_t uart, const uint8_t *data, size_t len)
{
    (void)uart;
    for (size_t i = 0; i < len; i++) {
        while (UART0_STATE & UART_STATE_TXFULL)
            ;
        UART0_DATA = data[i];
    }
}

void uart_poweron(uart_t uart)
{
    (void)uart;
}

void uart_poweroff(uart_t uart)
{
    (void)uart;
}
