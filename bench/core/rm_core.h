/* rtosmeter core, internal: the record writer shared by stream.c and
 * runner.c. Not for cases or ports (they use bench.h / port.h).
 *
 * Records are written byte by byte through a small buffer while the CRC is
 * updated, so no line buffer of 16 KiB is needed on a small target.
 */
#ifndef RTOSMETER_RM_CORE_H
#define RTOSMETER_RM_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "rtosmeter/bench.h"

void rm_rec_begin(const char *type);
void rm_rec_raw(const char *s);          /* unescaped text, e.g. " 3 0 " */
void rm_rec_u32(uint32_t v);             /* decimal */
void rm_rec_field(const char *key, const char *value); /* " key=value" */
void rm_rec_field_u32(const char *key, uint32_t v);
void rm_rec_field_hex(const char *key, uint32_t v);
void rm_rec_escaped(const char *s);      /* append to an open value */
void rm_rec_end(void);

/* Case state, owned by runner.c, consulted by stream.c. */
typedef enum {
    RM_CS_NONE,    /* outside a case */
    RM_CS_PENDING, /* case started, CASE record not yet written */
    RM_CS_OPEN,    /* CASE written, records may follow */
    RM_CS_FAILED,  /* FAIL written: only END may follow */
    RM_CS_UNSUP,   /* UNSUP written instead of CASE: nothing follows */
} rm_case_state_t;

/* Writes the CASE record if it is still pending; false when the case may
 * not emit any more (failed or unsupported). */
bool rm_case_emit_ok(void);
void rm_series_reset_all(void); /* end of a case: release the buffers */

#endif /* RTOSMETER_RM_CORE_H */
