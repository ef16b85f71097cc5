/* The result stream through a SEGGER RTT up-buffer (built with
 * RM_STREAM_RTT, `[board] stream = "rtt"`): the firmware copies bytes into
 * a RAM ring and the debug probe reads them while the core runs, where
 * semihosting halts the core on every write. Semihosting stays for the exit.
 *
 * The layout is SEGGER's (`_SEGGER_RTT`: the "SEGGER RTT" id, the numbers of
 * up and down buffers, then their descriptors), so pyOCD, OpenOCD and J-Link
 * tools all read it. The up-buffer blocks when full (SEGGER's
 * BLOCK_IF_FIFO_FULL): no record is ever dropped, a slow host only stalls
 * the firmware between measurements (records are written outside them).
 */
#include "rm_build_config.h"

#if defined(RM_STREAM_RTT) && RM_STREAM_RTT
#include <stdint.h>
#include <string.h>

#include "cm.h"

#ifndef RM_RTT_BUFFER
#define RM_RTT_BUFFER 1024u /* bytes: one poll of the host empties it */
#endif
#define RTT_MODE_BLOCK_IF_FIFO_FULL 2u

typedef struct {
    const char *name;
    char *buf;
    uint32_t size;
    volatile uint32_t wr_off; /* written by the firmware */
    volatile uint32_t rd_off; /* written by the host */
    uint32_t flags;
} rm_rtt_ring_t;

typedef struct {
    char id[16];
    int32_t max_up;
    int32_t max_down;
    rm_rtt_ring_t up[1];
    rm_rtt_ring_t down[1]; /* unused; hosts expect one */
} rm_rtt_cb_t;

/* SEGGER's symbol name: tools look the block up by it. In .bss, so the id
 * is zero until rtt_init() (the host also clears it before the reset). */
rm_rtt_cb_t _SEGGER_RTT __attribute__((used, aligned(4)));
static char up_buf[RM_RTT_BUFFER];
static char down_buf[16];
static const char rtt_id[] = "SEGGER RTT";
static const char rtt_name[] = "rtosmeter";

static void rtt_init(void)
{
    _SEGGER_RTT.max_up = 1;
    _SEGGER_RTT.max_down = 1;
    _SEGGER_RTT.up[0] = (rm_rtt_ring_t){rtt_name, up_buf, sizeof up_buf, 0u, 0u,
                                        RTT_MODE_BLOCK_IF_FIFO_FULL};
    _SEGGER_RTT.down[0] = (rm_rtt_ring_t){rtt_name, down_buf, sizeof down_buf, 0u, 0u, 0u};
    /* The id last: a host never finds a half-made block. */
    __asm volatile("dmb" ::: "memory");
    memcpy(_SEGGER_RTT.id, rtt_id, sizeof rtt_id);
    __asm volatile("dmb" ::: "memory");
}

void rm_cm_rtt_write(const char *s, uint32_t n)
{
    if (_SEGGER_RTT.id[0] == '\0')
        rtt_init();
    rm_rtt_ring_t *up = &_SEGGER_RTT.up[0];
    uint32_t wr = up->wr_off;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t next = wr + 1u == up->size ? 0u : wr + 1u;
        if (next == up->rd_off) { /* full: publish what is there, wait for the host */
            __asm volatile("dmb" ::: "memory");
            up->wr_off = wr;
            while (next == up->rd_off)
                ;
        }
        up->buf[wr] = s[i];
        wr = next;
    }
    __asm volatile("dmb" ::: "memory");
    up->wr_off = wr;
}
#else
typedef int rm_rtt_not_built; /* ISO C wants a declaration in every file */
#endif
