/* rtosmeter result stream writer (docs/protocol.md, version 1): records with
 * sequence numbers, %XX escaping and a CRC-32, plus the series buffers and
 * the reporting calls of bench.h.
 *
 * Code size matters more than speed here (a Cortex-M0 with 16 KiB RAM runs
 * this too): one format-driven writer (rm_rec) serves every record type, the
 * CRC is computed bitwise without a table, bytes go out through a 64-byte
 * buffer, and no printf is used. The target writes numbers and the host
 * names them: a missing capability goes out as a mask (UNSUP missing=), and
 * the harness reads the names from RM_CAPS in port.h.
 */
#include "rm_core.h"

RM_COLD_BEGIN /* up to rm_series_add: runs outside measured intervals */

/* ---- the record writer ------------------------------------------------ */
static char out_buf[64];
static uint32_t out_len;
static uint32_t rec_crc;
static uint32_t rec_seq;

static void out_flush(void)
{
    if (out_len != 0u) {
        rm_target_write(out_buf, out_len);
        out_len = 0u;
    }
}

/* The writer's helpers are not inlined: each is called from several places,
 * and here size beats speed (records are written outside measurements). */
#define RM_SMALL __attribute__((noinline))

RM_SMALL static void out_put(char c)
{
    uint32_t crc = rec_crc ^ (uint8_t)c;
    for (int i = 0; i < 8; i++) {
        crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    rec_crc = crc;
    out_buf[out_len++] = c;
    if (out_len == sizeof out_buf) {
        out_flush();
    }
}

/* A fault can strike while a record is being written: end that line so that
 * the FAULT record starts on a line of its own (the harness skips an empty
 * line, and reports the cut record as corrupt). */
void rm_rec_break(void)
{
    out_put('\n');
    out_flush();
}

RM_SMALL static void put_str(const char *s)
{
    while (*s != '\0') {
        out_put(*s++);
    }
}

/* Most significant digit first, by recursion (at most 10 levels): shorter
 * than a digit buffer. */
RM_SMALL static void put_u32(uint32_t v)
{
    if (v >= 10u) {
        put_u32(v / 10u);
    }
    out_put((char)('0' + v % 10u));
}

/* One digit 0-9, then `a`...: hex with `a` = 'a' (CRC, FAULT fields) or 'A'
 * (%XX escapes), d < 16; a sample's final digit (0-9 a-v), d < 32. */
RM_SMALL static void put_digit(uint32_t d, char a)
{
    out_put((char)(d < 10u ? '0' + d : a + (d - 10u)));
}

RM_SMALL static void put_escaped(const char *s)
{
    for (; *s != '\0'; s++) {
        uint8_t c = (uint8_t)*s;
        if (c < 0x21u || c > 0x7eu || c == '%' || c == '*' || c == '=') {
            out_put('%');
            put_digit(c >> 4, 'A');
            put_digit(c & 15u, 'A');
        } else {
            out_put((char)c);
        }
    }
}

/* Base 32, most significant digit first (recursion, at most 7 levels):
 * continuation digits A-Z !#$&+-, then the final digit 0-9 a-v, which
 * marks the end of the sample. */
RM_SMALL static void put_sample(uint32_t v, bool final)
{
    if (v >= 32u) {
        put_sample(v >> 5, false);
    }
    uint32_t d = v & 31u;
    if (final) {
        put_digit(d, 'a');
    } else {
        out_put(d < 26u ? (char)('A' + d) : "!#$&+-"[d - 26u]);
    }
}

/* 8 lower-case hex digits (%x, the CRC). */
RM_SMALL static void put_hex32(uint32_t v)
{
    for (int sh = 28; sh >= 0; sh -= 4) {
        put_digit((v >> sh) & 15u, 'a');
    }
}

void rm_vrec(const char *fmt, va_list ap)
{
    rec_crc = 0xFFFFFFFFu;
    put_str("@RM ");
    put_u32(rec_seq++);
    out_put(' ');
    for (; *fmt != '\0'; fmt++) {
        if (*fmt != '%') {
            out_put(*fmt);
            continue;
        }
        /* An if chain, not a switch: a switch over 'b'..'x' is a jump table
         * of 23 words on Thumb-1 (v6-M). */
        char conv = *++fmt;
        if (conv == 's') {
            put_escaped(va_arg(ap, const char *));
        } else if (conv == 'r') {
            put_str(va_arg(ap, const char *));
        } else if (conv == '_') {
            put_str("%20");
        } else if (conv == 'b') {
            const uint32_t *p = va_arg(ap, const uint32_t *);
            for (uint32_t n = va_arg(ap, uint32_t); n > 0u; n--) {
                put_sample(*p++, true);
            }
        } else { /* 'u' or 'x' */
            uint32_t v = va_arg(ap, uint32_t);
            if (conv == 'x') {
                put_hex32(v);
            } else {
                put_u32(v);
            }
        }
    }
    out_put(' ');
    uint32_t crc = ~rec_crc; /* the CRC covers up to the space before '*' */
    out_put('*');
    put_hex32(crc);
    out_put('\n');
    out_flush();
}

/* The record lock (port.h) is never nested: a record is written either by
 * rm_rec/case_rec, which take it, or by code that already holds it (series)
 * or must not take it (the fault path), through rm_rec_unlocked. */
static void locked_vrec(const char *fmt, va_list ap)
{
    rm_port_sched_lock();
    rm_vrec(fmt, ap);
    rm_port_sched_unlock();
}

void rm_rec(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    locked_vrec(fmt, ap);
    va_end(ap);
}

void rm_rec_unlocked(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rm_vrec(fmt, ap);
    va_end(ap);
}

/* ---- the case's state ------------------------------------------------- */
/* Not volatile: case threads change it only inside calls the runner makes
 * (rm_case_wait_done and the case's own function), which the compiler cannot
 * see through, so every read after such a call reloads it. */
const char *rm_case_id;
rm_case_state_t rm_case_state = RM_CS_NONE;

/* Not inlined: end_early and run_one would each carry a copy (Flash). */
__attribute__((noinline)) bool rm_case_open(void)
{
    if (rm_case_state == RM_CS_PENDING) {
        rm_case_state = RM_CS_OPEN;
        rm_rec("CASE id=%s", rm_case_id);
    }
    return rm_case_state <= RM_CS_OPEN; /* NONE or OPEN */
}

/* Ends the open case early as `st` (FAILED or UNSUP); false when no case is
 * open or it already ended (the first reason is kept). A FAIL needs the CASE
 * record; an UNSUP stands alone, or ends a case that has emitted (the
 * harness keeps its records and marks it unsupported). */
__attribute__((noinline)) static bool end_early(rm_case_state_t st)
{
    if (rm_case_state == RM_CS_NONE || rm_case_state >= RM_CS_FAILED) {
        return false;
    }
    if (st == RM_CS_FAILED) {
        (void)rm_case_open();
    }
    rm_case_state = st;
    return true;
}

void rm_fail(const char *reason)
{
    if (end_early(RM_CS_FAILED)) {
        rm_rec("FAIL reason=%s", reason);
    }
}

void rm_fatal(const char *call, int rc)
{
    if (end_early(RM_CS_FAILED)) {
        rm_rec("FAIL reason=FATAL:%_%s%_failed%_(%r%u)", call, rc < 0 ? "-" : "",
               (uint32_t)(rc < 0 ? -rc : rc));
    }
}

void rm_unsupported(const char *reason)
{
    if (end_early(RM_CS_UNSUP)) {
        rm_rec("UNSUP id=%s reason=%s", rm_case_id, reason);
    }
}

RM_COLD_END

/* Polled in the cases' loops. */
bool rm_case_failed(void)
{
    return rm_case_state >= RM_CS_FAILED;
}

RM_COLD_BEGIN

/* A record inside the current case (writes the pending CASE first); nothing
 * once the case has failed or is unsupported. */
static void case_rec(const char *fmt, ...)
{
    if (rm_case_open()) {
        va_list ap;
        va_start(ap, fmt);
        locked_vrec(fmt, ap);
        va_end(ap);
    }
}

/* ---- configuration and case records ----------------------------------- */
void rm_emit_cfg(const char *key, const char *value)
{
    rm_rec("CFG k=%s v=%s", key, value);
}

void rm_emit_cfg_u32(const char *key, uint32_t value)
{
    rm_rec("CFG k=%s v=%u", key, value);
}

void rm_count(const char *name, uint32_t period, uint32_t value)
{
    case_rec("COUNT name=%s period=%u value=%u", name, period, value);
}

void rm_check(const char *name, bool ok, uint32_t got, uint32_t want)
{
    case_rec("CHECK name=%s ok=%u got=%u want=%u", name, (uint32_t)(ok ? 1u : 0u), got,
             want);
    if (!ok) {
        rm_fail("check failed");
    }
}

void rm_meta(const char *key, uint32_t value)
{
    case_rec("META k=%s v=%u", key, value);
}

void rm_meta_str(const char *key, const char *value)
{
    case_rec("META k=%s v=%s", key, value);
}

/* ---- series ----------------------------------------------------------- */
/* At most two series are open at once (one per interval of a two-interval
 * case); their buffers are static so the RAM cost is visible in the map. A
 * full buffer is one S record: at 7 characters per sample at most, 2048
 * samples keep a line under 16 KiB. Writing one costs far more than any
 * interval (the CRC of every byte, the UART), so it happens only where no
 * measurement runs: bench.h, rm_series_open_span. */
#define RM_SERIES_SLOTS 2 /* rm_series_close assumes two */
_Static_assert((RM_BATCH) >= 1 && (RM_BATCH) <= 2048,
               "RM_BATCH must be 1..2048 (one S record of at most 16 KiB)");

static uint32_t series_buf[RM_SERIES_SLOTS][RM_BATCH];
static uint8_t series_used; /* bit i: slot i is open */
static uint16_t series_next_id;

void rm_series_reset_all(void)
{
    series_used = 0u;
    series_next_id = 0u;
}

RM_SMALL static void series_open(rm_series_t *s, const char *name, const char *what,
                                 const char *extra, bool span)
{
    s->buf = NULL;
    s->span = span;
    s->total = 0u;
    s->fill = 0u;
    s->id = series_next_id++;
    for (unsigned i = 0; i < RM_SERIES_SLOTS; i++) {
        if ((series_used & (1u << i)) == 0u) {
            series_used |= (uint8_t)(1u << i);
            s->buf = series_buf[i];
            break;
        }
    }
    if (s->buf == NULL) {
        rm_fail("more than 2 series open");
        return;
    }
    case_rec("SERIES id=%u name=%s what=%s%r", (uint32_t)s->id, name, what, extra);
}

/* One array, not two literals: rm_series_open passes its empty tail. (A
 * literal "" would be merged by the linker into another string's end, which
 * the map then lists as overlapping sections.) */
static const char sub0[] = " sub=0";

void rm_series_open(rm_series_t *s, const char *name, const char *what)
{
    series_open(s, name, what, &sub0[sizeof sub0 - 1u], false);
}

void rm_series_open_diff(rm_series_t *s, const char *name, const char *what)
{
    series_open(s, name, what, sub0, false);
}

void rm_series_open_span(rm_series_t *s, const char *name, const char *what)
{
    series_open(s, name, what, &sub0[sizeof sub0 - 1u], true);
}

/* With the lock held: several threads may add to one series (lat.yield), and
 * time slicing may switch between them anywhere. The case cannot be pending
 * here (the SERIES record wrote CASE), so rm_case_open() only tests. */
RM_SMALL static void series_flush(rm_series_t *s)
{
    if (s->fill != 0u && rm_case_open()) {
        rm_rec_unlocked("S %u %u %b", (uint32_t)s->id, s->total - s->fill, s->buf,
                        s->fill);
    }
    s->fill = 0u;
}

bool rm_series_full(const rm_series_t *s)
{
    return s->buf != NULL && s->fill == (uint32_t)(RM_BATCH);
}

/* A span series between two of its measurements (rm_series_open_span). */
void rm_series_flush(rm_series_t *s)
{
    if (s->buf != NULL) {
        rm_port_sched_lock();
        series_flush(s);
        rm_port_sched_unlock();
    }
}

RM_COLD_END

/* In the cases' loops, between two measurements: the build's level. Only a
 * series of single intervals is written when its batch fills (its samples
 * hold no time outside their own interval); a span series waits for its
 * case's rm_series_flush, or, if the case missed it, is written before the
 * next sample is stored (late: inside the measurement, as its samples show). */
void rm_series_add(rm_series_t *s, uint32_t ticks)
{
    if (s->buf == NULL) {
        return;
    }
    rm_port_sched_lock();
    if (s->fill == (uint32_t)(RM_BATCH)) {
        series_flush(s);
    }
    s->buf[s->fill++] = ticks;
    s->total++;
    if (s->fill == (uint32_t)(RM_BATCH) && !s->span) {
        series_flush(s);
    }
    rm_port_sched_unlock();
}

void rm_series_close(rm_series_t *s)
{
    if (s->buf == NULL) {
        return;
    }
    rm_port_sched_lock();
    series_flush(s);
    series_used &= (uint8_t)~(1u << (s->buf == series_buf[0] ? 0u : 1u));
    s->buf = NULL;
    rm_port_sched_unlock();
}
