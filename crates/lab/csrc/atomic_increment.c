/*
 * C reference kernels of the atomic-increment experiment, ported from the seed
 * ("Further Adventures With CAS Instructions And Micro Benchmarking", run_add / run_xadd /
 * run_cas / run_cas2). Compiled with -O2 by crates/lab/build.rs and called through FFI from
 * crates/lab/src/atomic_increment.rs, which creates, pins and times the threads: only the loop
 * below differs between the C and the Rust runs.
 *
 * Three changes from the seed, made identically in the Rust kernels (docs/atomic-increment.md
 * sets the two languages' loops side by side):
 * - every kernel stops the shared counter at exactly `target` (the seed's xadd and cas loops
 *   could overshoot by up to threads - 1), so the final count can be verified;
 * - the witnessing kernels count the increments they made and their "handoffs": increments whose
 *   witnessed value did not follow the thread's previous one, i.e. another core took the cache
 *   line in between. A few register-only instructions beside a locked instruction;
 * - cas-val makes one CAS per increment: the seed's run_cas2 compared the returned old value
 *   with `next`, which only matches after a second, failing CAS.
 */
#include <stdint.h>

/* What one thread did: keep in sync with `Tally` in atomic_increment.rs. */
typedef struct {
    uint64_t increments;
    uint64_t handoffs;
} sympathy_tally;

/* LOCK ADD: `n` increments whose result is unused (gcc emits `lock addq $0x1`). */
void sympathy_c_lock_add(uint64_t *counter, uint64_t n)
{
    for (uint64_t left = n; left != 0; --left) {
        __sync_add_and_fetch(counter, 1);
    }
}

/* LOCK XADD: increments until the returned value reaches `target`; an increment past it is
 * given back. */
sympathy_tally sympathy_c_lock_xadd(uint64_t *counter, uint64_t target)
{
    sympathy_tally tally = {0, 0};
    uint64_t expected = UINT64_MAX;
    for (;;) {
        uint64_t old = __sync_fetch_and_add(counter, 1);
        if (old + 1 >= target) {
            if (old < target) {
                tally.handoffs += old != expected;
                tally.increments += 1;
            } else {
                __sync_fetch_and_sub(counter, 1);
            }
            return tally;
        }
        tally.handoffs += old != expected;
        expected = old + 1;
        tally.increments += 1;
    }
}

/* LOCK CMPXCHG BOOL: re-read the counter, then a boolean compare-and-swap, until `target`. */
sympathy_tally sympathy_c_cas_bool(uint64_t *counter, uint64_t target)
{
    sympathy_tally tally = {0, 0};
    uint64_t expected = UINT64_MAX;
    for (;;) {
        uint64_t value = __atomic_load_n(counter, __ATOMIC_RELAXED);
        if (value >= target) {
            return tally;
        }
        if (__sync_bool_compare_and_swap(counter, value, value + 1)) {
            tally.handoffs += value != expected;
            expected = value + 1;
            tally.increments += 1;
        }
    }
}

/* LOCK CMPXCHG VAL: the value witnessed by a failed compare-and-swap feeds the next attempt. */
sympathy_tally sympathy_c_cas_val(uint64_t *counter, uint64_t target)
{
    sympathy_tally tally = {0, 0};
    uint64_t expected = UINT64_MAX;
    uint64_t value = __atomic_load_n(counter, __ATOMIC_RELAXED);
    while (value < target) {
        uint64_t witnessed = __sync_val_compare_and_swap(counter, value, value + 1);
        if (witnessed == value) {
            tally.handoffs += value != expected;
            expected = value + 1;
            tally.increments += 1;
            value += 1;
        } else {
            value = witnessed;
        }
    }
    return tally;
}
