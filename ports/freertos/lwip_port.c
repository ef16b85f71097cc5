/* FreeRTOS's side of the shared lwIP radio (bench/net/lwip/rm_lwip_port.h),
 * built only under a net-* load (port.cmake): FreeRTOS's from-ISR calls
 * leave the context switch to the interrupt's end. */
#include "FreeRTOS.h"
#include "lwip/sys.h" /* ERR_NEED_SCHED: lwIP's FreeRTOS sys_arch.h */
#include "rm_lwip_port.h"

void rm_lwip_isr_exit(int rc)
{
    portYIELD_FROM_ISR(rc == ERR_NEED_SCHED ? pdTRUE : pdFALSE);
}
