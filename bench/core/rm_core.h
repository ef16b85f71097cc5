/* rtosmeter core, internal: the record writer shared by stream.c and
 * runner.c. Not for cases or ports (they use bench.h / port.h).
 *
 * Records are written byte by byte through a small buffer while the CRC is
 * updated, so no line buffer of 16 KiB is needed on a small target. Every
 * record is one call of rm_rec() with a format: one writer instead of a
 * function per record type keeps the core small (goal: <= 4 KiB Flash).
 */
#ifndef RTOSMETER_RM_CORE_H
#define RTOSMETER_RM_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "rtosmeter/bench.h"

/* Code that runs outside every measured interval (the record writer, the
 * runner, case control) is compiled for size between RM_COLD_BEGIN and
 * RM_COLD_END: -Os there saves about 130 B of Flash on a Cortex-M0 and
 * costs nothing that is measured. What a case calls inside its loops
 * (rm_series_add, the hand-over, rm_spin) stays at the
 * build's optimisation level, like the benchmark itself. GCC only; other
 * compilers build it all at the build's level. */
#if defined(__GNUC__) && !defined(__clang__)
#define RM_COLD_BEGIN _Pragma("GCC push_options") _Pragma("GCC optimize(\"Os\")")
#define RM_COLD_END _Pragma("GCC pop_options")
#else
#define RM_COLD_BEGIN
#define RM_COLD_END
#endif

/* One whole record: "@RM <seq> " + fmt expanded + " *<crc>\n", written under
 * rm_port_sched_lock(). fmt is the record type and its fields as literal
 * text, with these conversions (arguments in order):
 *   %s  const char *, escaped (a field value)    %r  const char *, as is
 *   %u  uint32_t, decimal
 *   %x  uint32_t, 8 lower-case hex digits         %_  an escaped space (%20)
 *   %b  const uint32_t *, uint32_t n: n samples in base 32 (protocol.md)
 * e.g. rm_rec("COUNT name=%s period=%u value=%u", name, p, v). */
void rm_rec(const char *fmt, ...);
/* The same without the lock: for a caller that holds it, or must not take
 * it (the fault path, in handler mode). rm_vrec is the writer itself. */
void rm_rec_unlocked(const char *fmt, ...);
void rm_rec_break(void);
void rm_vrec(const char *fmt, va_list ap);

/* The case's state, stream.c's (it gates every record of the case), set by
 * the runner as it starts and ends each case; stream.c never calls the
 * runner. The order matters: a case may emit while the state is at most
 * RM_CS_OPEN. */
typedef enum {
    RM_CS_NONE,    /* outside a case */
    RM_CS_PENDING, /* case started, CASE record not yet written */
    RM_CS_OPEN,    /* CASE written, records may follow */
    RM_CS_FAILED,  /* FAIL written: only END may follow */
    RM_CS_UNSUP,   /* UNSUP written (instead of CASE, or ending it) */
} rm_case_state_t;

extern const char *rm_case_id; /* the current case's id */
extern rm_case_state_t rm_case_state;

/* Opens the current case for records: writes its CASE record if it is
 * still pending; false when the case may not emit any more (failed or
 * unsupported), true outside a case. */
bool rm_case_open(void);
void rm_series_reset_all(void); /* start of a case: release the buffers */

/* The load profile of a loaded firmware (load.c; its kinds: rtosmeter/bench.h). */
uint32_t rm_load_needs(void); /* RM_CAP_* the load needs of the port */
int rm_load_start(void);      /* RM_OK, RM_ENOTSUP (no load timer) or an error */
void rm_load_stop(bool emit); /* emit: write the load's META into the case */

#endif /* RTOSMETER_RM_CORE_H */
