/*
 * C reference kernels of the ping-pong experiment, ported from the seed ("Inter Thread
 * Latency", itl.cpp). Compiled with -O2 by crates/lab/build.rs and called through FFI from
 * crates/lab/src/ping_pong.rs, which creates, pins and times the two threads.
 *
 * `ping` starts: it publishes 1, 2, ..., n on its own counter, each after seeing the pong
 * counter catch up; `pong` answers each value by publishing the same value on its counter.
 * Unlike the seed (whose pong thread spins forever as a daemon), pong stops after n answers and
 * ping waits for the last answer, so a run is exactly 2n one-way hops and both counters end at n.
 */
#include <stdint.h>

/* xadd, as the seed: each publication is a locked add-and-fetch on the thread's own counter. */
void sympathy_c_ping_xadd(uint64_t *ping, const uint64_t *pong, uint64_t n)
{
    uint64_t value = 0;
    while (value < n) {
        /* SYNC POINT: pong-published */
        while (__atomic_load_n(pong, __ATOMIC_ACQUIRE) != value) {
        }
        /* SYNC POINT: ping-published (a locked add is a full barrier) */
        value = __sync_add_and_fetch(ping, 1);
    }
    /* SYNC POINT: pong-published */
    while (__atomic_load_n(pong, __ATOMIC_ACQUIRE) != n) {
    }
}

void sympathy_c_pong_xadd(uint64_t *pong, const uint64_t *ping, uint64_t n)
{
    uint64_t value = 0;
    while (value < n) {
        /* SYNC POINT: ping-published */
        while (__atomic_load_n(ping, __ATOMIC_ACQUIRE) == value) {
        }
        /* SYNC POINT: pong-published (a locked add is a full barrier) */
        value = __sync_add_and_fetch(pong, 1);
    }
}

/* store-release: the owner is the only writer, so a plain release store publishes (lazySet). */
void sympathy_c_ping_store_release(uint64_t *ping, const uint64_t *pong, uint64_t n)
{
    uint64_t value = 0;
    while (value < n) {
        /* SYNC POINT: pong-published */
        while (__atomic_load_n(pong, __ATOMIC_ACQUIRE) != value) {
        }
        value += 1;
        /* SYNC POINT: ping-published */
        __atomic_store_n(ping, value, __ATOMIC_RELEASE);
    }
    /* SYNC POINT: pong-published */
    while (__atomic_load_n(pong, __ATOMIC_ACQUIRE) != n) {
    }
}

void sympathy_c_pong_store_release(uint64_t *pong, const uint64_t *ping, uint64_t n)
{
    uint64_t value = 0;
    while (value < n) {
        /* SYNC POINT: ping-published */
        while (__atomic_load_n(ping, __ATOMIC_ACQUIRE) == value) {
        }
        value += 1;
        /* SYNC POINT: pong-published */
        __atomic_store_n(pong, value, __ATOMIC_RELEASE);
    }
}
