/* Latency group "lat_memory": lat.pool (acquire and release one 128-byte
 * block of a fixed-block pool) and lat.heap (the RTOS's general allocator,
 * 128 bytes), each call alone, from the runner.
 */
#include "rm_case_util.h"

static rm_pool_t pool_; /* port.h has no pool delete: one pool per firmware */

static void run_pool(const rm_case_t *c)
{
    (void)c;
    if (pool_ == NULL) {
        RM_TRY(rm_pool_create(&pool_, RM_BLOCK_SIZE, 4u));
    }
    rm_pool_t pool = pool_;
    rm_series_t a, f;
    rm_series_open(&a, "acquire", "acquire a 128 B block");
    rm_series_open(&f, "release", "release the block");
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        void *blk = NULL;
        uint32_t t0 = rm_ts();
        rm_raw_t raw = rm_pool_alloc_raw(pool, &blk);
        uint32_t t1 = rm_ts();
        RM_SETTLE_RAW(raw);
        int rc = rm_pool_alloc_rc(raw, &blk);
        if (rc != RM_OK) {
            rm_fatal("rm_pool_alloc/free", rc);
            break;
        }
        uint32_t t2 = rm_ts();
        raw = rm_pool_free_raw(pool, blk);
        uint32_t t3 = rm_ts();
        RM_SETTLE_RAW(raw);
        rc = rm_pool_free_rc(raw);
        if (rc != RM_OK) {
            rm_fatal("rm_pool_alloc/free", rc);
            break;
        }
        rm_series_add(&a, t1 - t0);
        rm_series_add(&f, t3 - t2);
    }
    rm_series_close(&a);
    rm_series_close(&f);
}

static void run_heap(const rm_case_t *c)
{
    (void)c;
    rm_series_t a, f;
    rm_series_open(&a, "alloc", "allocate 128 B");
    rm_series_open(&f, "free", "free them");
    for (uint32_t i = 0; i < (uint32_t)(RM_SAMPLES); i++) {
        void *mem = NULL;
        uint32_t t0 = rm_ts();
        rm_raw_t raw = rm_heap_alloc_raw(RM_BLOCK_SIZE, &mem);
        uint32_t t1 = rm_ts();
        RM_SETTLE_RAW(raw);
        int rc = rm_heap_alloc_rc(raw, &mem);
        if (rc != RM_OK) {
            rm_fatal("rm_heap_alloc/free", rc);
            break;
        }
        uint32_t t2 = rm_ts();
        raw = rm_heap_free_raw(mem);
        uint32_t t3 = rm_ts();
        RM_SETTLE_RAW(raw);
        rc = rm_heap_free_rc(raw);
        if (rc != RM_OK) {
            rm_fatal("rm_heap_alloc/free", rc);
            break;
        }
        rm_series_add(&a, t1 - t0);
        rm_series_add(&f, t3 - t2);
    }
    rm_series_close(&a);
    rm_series_close(&f);
}

RM_CASE(pool, "lat.pool", RM_CAP_POOL, run_pool, NULL);
RM_CASE(heap, "lat.heap", RM_CAP_HEAP, run_heap, NULL);
