/* Register access for the boards' case marker (targets/<board>/marker.c).
 *
 * On the chip these are plain volatile accesses. Built with RM_MARKER_HOST
 * (tests/marker_host), they call a register model instead, so a host test
 * runs the very same code and sees every access it makes.
 */
#ifndef RM_MARKER_IO_H
#define RM_MARKER_IO_H

#include <stdint.h>

#ifdef RM_MARKER_HOST
uint32_t rm_marker_rd(uint32_t addr);
void rm_marker_wr(uint32_t addr, uint32_t value);
#define RM_MK_RD(a) rm_marker_rd(a)
#define RM_MK_WR(a, v) rm_marker_wr((a), (uint32_t)(v))
#else
#define RM_MK_RD(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define RM_MK_WR(a, v) (*(volatile uint32_t *)(uintptr_t)(a) = (uint32_t)(v))
#endif

#endif /* RM_MARKER_IO_H */
