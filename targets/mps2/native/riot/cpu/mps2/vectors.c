/* RIOT CPU mps2: the 32 external interrupt vectors of QEMU's MPS2 machines
 * (AN385/AN386/AN500 share the CMSDK interrupt map). Handlers are weak:
 * a driver or the application defines the ones it uses. */
#include "cpu.h"
#include "vectors_cortexm.h"

/* The alias target must be in this compilation unit. */
void dummy_handler(void)
{
    dummy_handler_default();
}

WEAK_DEFAULT void isr_uart0_rx(void);
WEAK_DEFAULT void isr_uart0_tx(void);
WEAK_DEFAULT void isr_uart1_rx(void);
WEAK_DEFAULT void isr_uart1_tx(void);
WEAK_DEFAULT void isr_uart2_rx(void);
WEAK_DEFAULT void isr_uart2_tx(void);
WEAK_DEFAULT void isr_gpio0(void);
WEAK_DEFAULT void isr_gpio1(void);
WEAK_DEFAULT void isr_timer0(void);
WEAK_DEFAULT void isr_timer1(void);
WEAK_DEFAULT void isr_dualtimer(void);
WEAK_DEFAULT void isr_spi(void);
WEAK_DEFAULT void isr_uart_overflow(void);
WEAK_DEFAULT void isr_ethernet(void);
WEAK_DEFAULT void isr_i2s(void);
WEAK_DEFAULT void isr_touchscreen(void);
WEAK_DEFAULT void isr_gpio2(void);
WEAK_DEFAULT void isr_gpio3(void);
WEAK_DEFAULT void isr_uart3_rx(void);
WEAK_DEFAULT void isr_uart3_tx(void);
WEAK_DEFAULT void isr_uart4_rx(void);
WEAK_DEFAULT void isr_uart4_tx(void);
WEAK_DEFAULT void isr_irq22(void);
WEAK_DEFAULT void isr_irq23(void);
WEAK_DEFAULT void isr_irq24(void);
WEAK_DEFAULT void isr_irq25(void);
WEAK_DEFAULT void isr_irq26(void);
WEAK_DEFAULT void isr_irq27(void);
WEAK_DEFAULT void isr_irq28(void);
WEAK_DEFAULT void isr_irq29(void);
WEAK_DEFAULT void isr_irq30(void);
WEAK_DEFAULT void isr_irq31(void);

ISR_VECTOR(1) const isr_t vector_cpu[CPU_IRQ_NUMOF] = {
    isr_uart0_rx,  isr_uart0_tx,      isr_uart1_rx, isr_uart1_tx, isr_uart2_rx, isr_uart2_tx,
    isr_gpio0,     isr_gpio1,         isr_timer0,   isr_timer1,   isr_dualtimer, isr_spi,
    isr_uart_overflow, isr_ethernet,  isr_i2s,      isr_touchscreen, isr_gpio2, isr_gpio3,
    isr_uart3_rx,  isr_uart3_tx,      isr_uart4_rx, isr_uart4_tx, isr_irq22,    isr_irq23,
    isr_irq24,     isr_irq25,         isr_irq26,    isr_irq27,    isr_irq28,    isr_irq29,
    isr_irq30,     isr_irq31,
};
