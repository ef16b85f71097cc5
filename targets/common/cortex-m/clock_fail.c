/* A board's clock set-up that found a ready flag never set (clock_io.h):
 * say which, through the target's output (semihosting or RTT), and end the
 * run with its own status, before any record: the harness shows the line. */
#include <stddef.h>
#include <string.h>

#include "clock_io.h"
#include "rtosmeter/target.h"

#define RM_CLOCK_EXIT 4 /* docs/protocol.md: clock set-up failed */

_Noreturn void rm_clock_fail(const char *what)
{
    static const char head[] = "rtosmeter: board clock set-up failed: ";
    static const char tail[] = " never became ready (build with the profile key "
                               "board_clock = \"reset\" to stay at the reset clock)\n";
    rm_target_write(head, sizeof head - 1u);
    rm_target_write(what, strlen(what));
    rm_target_write(tail, sizeof tail - 1u);
    rm_target_exit(RM_CLOCK_EXIT);
}
