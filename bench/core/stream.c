/* rtosmeter result stream writer (docs/protocol.md, version 1): records with
 * sequence numbers, %XX escaping and a CRC-32, plus the series buffers and
 * the reporting calls of bench.h.
 *
 * Code size matters more than speed here (a Cortex-M0 with 16 KiB RAM runs
 * this too): the CRC is computed bitwise without a table, bytes go out
 * through a 64-byte buffer, and no printf is used.
 */
#include "rm_core.h"

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

static void out_put(char c) /* part of the CRC */
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

static const char hex_digits[] = "0123456789abcdef";

void rm_rec_raw(const char *s)
{
    while (*s != '\0') {
        out_put(*s++);
    }
}

void rm_rec_u32(uint32_t v)
{
    char tmp[10];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0u);
    while (n > 0) {
        out_put(tmp[--n]);
    }
}

void rm_rec_begin(const char *type)
{
    rec_crc = 0xFFFFFFFFu;
    rm_rec_raw("@RM ");
    rm_rec_u32(rec_seq++);
    out_put(' ');
    rm_rec_raw(type);
}

void rm_rec_escaped(const char *s)
{
    for (; *s != '\0'; s++) {
        uint8_t c = (uint8_t)*s;
        if (c < 0x21u || c > 0x7eu || c == '%' || c == '*' || c == '=') {
            /* %XX is upper-case (protocol.md); CRCs and FAULT fields are
             * lower-case (hex_digits). */
            out_put('%');
            out_put("0123456789ABCDEF"[c >> 4]);
            out_put("0123456789ABCDEF"[c & 15u]);
        } else {
            out_put((char)c);
        }
    }
}

static void field_key(const char *key)
{
    out_put(' ');
    rm_rec_raw(key);
    out_put('=');
}

void rm_rec_field(const char *key, const char *value)
{
    field_key(key);
    rm_rec_escaped(value);
}

void rm_rec_field_u32(const char *key, uint32_t v)
{
    field_key(key);
    rm_rec_u32(v);
}

void rm_rec_field_hex(const char *key, uint32_t v)
{
    field_key(key);
    for (int sh = 28; sh >= 0; sh -= 4) {
        out_put(hex_digits[(v >> sh) & 15u]);
    }
}

void rm_rec_end(void)
{
    out_put(' ');
    uint32_t crc = ~rec_crc;
    out_buf[out_len++] = '*'; /* the CRC covers up to the space before '*' */
    if (out_len == sizeof out_buf) {
        out_flush();
    }
    for (int sh = 28; sh >= 0; sh -= 4) {
        out_put(hex_digits[(crc >> sh) & 15u]);
    }
    out_put('\n');
    out_flush();
}

/* ---- configuration and case records ----------------------------------- */
void rm_emit_cfg(const char *key, const char *value)
{
    rm_rec_begin("CFG");
    rm_rec_field("k", key);
    rm_rec_field("v", value);
    rm_rec_end();
}

void rm_emit_cfg_u32(const char *key, uint32_t value)
{
    rm_rec_begin("CFG");
    rm_rec_field("k", key);
    rm_rec_field_u32("v", value);
    rm_rec_end();
}

void rm_count(const char *name, uint32_t period, uint32_t value)
{
    if (!rm_case_emit_ok()) {
        return;
    }
    rm_rec_begin("COUNT");
    rm_rec_field("name", name);
    rm_rec_field_u32("period", period);
    rm_rec_field_u32("value", value);
    rm_rec_end();
}

void rm_check(const char *name, bool ok, uint32_t got, uint32_t want)
{
    if (!rm_case_emit_ok()) {
        return;
    }
    rm_rec_begin("CHECK");
    rm_rec_field("name", name);
    rm_rec_field_u32("ok", ok ? 1u : 0u);
    rm_rec_field_u32("got", got);
    rm_rec_field_u32("want", want);
    rm_rec_end();
    if (!ok) {
        rm_fail("check failed");
    }
}

void rm_meta(const char *key, uint32_t value)
{
    if (!rm_case_emit_ok()) {
        return;
    }
    rm_rec_begin("META");
    rm_rec_field("k", key);
    rm_rec_field_u32("v", value);
    rm_rec_end();
}

void rm_meta_str(const char *key, const char *value)
{
    if (!rm_case_emit_ok()) {
        return;
    }
    rm_rec_begin("META");
    rm_rec_field("k", key);
    rm_rec_field("v", value);
    rm_rec_end();
}

/* ---- series ----------------------------------------------------------- */
/* At most two series are open at once (one per interval of a two-interval
 * case); their buffers are static so the RAM cost is visible in the map. */
#define RM_SERIES_SLOTS 2
#define RM_MAX_PER_LINE 2048u /* 7 chars per sample max: lines < 16 KiB */

static uint32_t series_buf[RM_SERIES_SLOTS][RM_BATCH];
static bool series_used[RM_SERIES_SLOTS];
static uint16_t series_next_id;

void rm_series_reset_all(void)
{
    for (int i = 0; i < RM_SERIES_SLOTS; i++) {
        series_used[i] = false;
    }
    series_next_id = 0u;
}

void rm_series_open(rm_series_t *s, const char *name, const char *what)
{
    s->buf = NULL;
    s->total = 0u;
    s->fill = 0u;
    s->id = series_next_id++;
    for (int i = 0; i < RM_SERIES_SLOTS; i++) {
        if (!series_used[i]) {
            series_used[i] = true;
            s->buf = series_buf[i];
            break;
        }
    }
    if (s->buf == NULL) {
        rm_fail("more than 2 series open at once");
        return;
    }
    if (!rm_case_emit_ok()) {
        return;
    }
    rm_rec_begin("SERIES");
    rm_rec_field_u32("id", s->id);
    rm_rec_field("name", name);
    rm_rec_field("what", what);
    rm_rec_end();
}

/* Base 32, most significant digit first; the last digit marks the end. */
static void put_sample(uint32_t v)
{
    char tmp[7];
    int n = 0;
    tmp[n++] = "0123456789abcdefghijklmnopqrstuv"[v & 31u];
    v >>= 5;
    while (v != 0u) {
        tmp[n++] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$&+-"[v & 31u];
        v >>= 5;
    }
    while (n > 0) {
        out_put(tmp[--n]);
    }
}

static void series_flush(rm_series_t *s)
{
    uint32_t done = 0u;
    while (done < s->fill) {
        uint32_t n = s->fill - done;
        if (n > RM_MAX_PER_LINE) {
            n = RM_MAX_PER_LINE;
        }
        if (rm_case_emit_ok()) {
            rm_rec_begin("S");
            out_put(' ');
            rm_rec_u32(s->id);
            out_put(' ');
            rm_rec_u32(s->total - s->fill + done);
            out_put(' ');
            for (uint32_t i = 0; i < n; i++) {
                put_sample(s->buf[done + i]);
            }
            rm_rec_end();
        }
        done += n;
    }
    s->fill = 0u;
}

void rm_series_add(rm_series_t *s, uint32_t ticks)
{
    if (s->buf == NULL) {
        return;
    }
    s->buf[s->fill++] = ticks;
    s->total++;
    if (s->fill == (uint32_t)RM_BATCH) {
        series_flush(s);
    }
}

void rm_series_close(rm_series_t *s)
{
    if (s->buf == NULL) {
        return;
    }
    series_flush(s);
    for (int i = 0; i < RM_SERIES_SLOTS; i++) {
        if (s->buf == series_buf[i]) {
            series_used[i] = false;
        }
    }
    s->buf = NULL;
}
