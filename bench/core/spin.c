/* rm_spin (bench.h): the busy work of cases, handlers and loads, a unit of
 * its own so that load.c and runner.c both call down into it and neither
 * calls the other back (the runner starts and stops the load). A real
 * function, never inlined: a unit costs the same wherever it is spun. */
#include "rm_core.h"

void rm_spin(uint32_t n)
{
    for (volatile uint32_t i = 0; i < n; i++) {
    }
}
