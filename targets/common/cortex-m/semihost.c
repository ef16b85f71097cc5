/* Semihosting for Cortex-M targets: exit with a status, and a console for
 * boards (through pyOCD/OpenOCD) where no UART is wired to the harness.
 *
 * Exit uses SYS_EXIT_EXTENDED (0x20) with ADP_Stopped_ApplicationExit and the
 * status: QEMU 7.2 turns that into its own exit code, whereas plain SYS_EXIT
 * on AArch32 carries only "success" or "failure".
 */
#include <stdint.h>

#include "cm.h"

#define SYS_OPEN 0x01
#define SYS_WRITE 0x05
#define SYS_EXIT 0x18
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

int rm_cm_semihost(int op, const void *arg)
{
    register int r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void rm_cm_semihost_write(const char *s, uint32_t n)
{
    static int handle = -1;
    if (handle < 0) {
        /* ":tt" opened for writing ("w", mode 4) is the debugger's stdout. */
        const uint32_t open_args[3] = {(uint32_t)(uintptr_t)":tt", 4u, 3u};
        handle = rm_cm_semihost(SYS_OPEN, open_args);
        if (handle < 0)
            return;
    }
    const uint32_t args[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)s, n};
    (void)rm_cm_semihost(SYS_WRITE, args);
}

_Noreturn void rm_cm_semihost_exit(int status)
{
    const uint32_t args[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    (void)rm_cm_semihost(SYS_EXIT_EXTENDED, args);
    /* A host without SYS_EXIT_EXTENDED: report at least success/failure. */
    (void)rm_cm_semihost(SYS_EXIT, (const void *)(uintptr_t)(
        status == 0 ? ADP_STOPPED_APPLICATION_EXIT : 0x20023u /* RunTimeErrorUnknown */));
    for (;;)
        __asm volatile("bkpt 0x00");
}

void rm_cm_dwt_start(void)
{
#if !RM_CM_V6M
    RM_SCB_DEMCR |= (1u << 24); /* TRCENA */
    RM_DWT_LAR = 0xC5ACCE55u;   /* unlock on parts that have the lock (M7) */
    RM_DWT_CYCCNT = 0;
    RM_DWT_CTRL |= 1u;          /* CYCCNTENA */
#endif
}
