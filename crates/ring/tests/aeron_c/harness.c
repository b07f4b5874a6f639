/*
 * A live Aeron C peer for crates/ring/tests/aeron_c.rs: maps a sympathy ring file (MAP_SHARED),
 * wraps the Agrona-compatible region at file offset 4096 with Aeron's own C structures
 * (aeron_mpsc_rb_t, aeron_broadcast_transmitter_t, aeron_broadcast_receiver_t, vendored
 * unmodified under aeron/, see NOTICE) and plays one role:
 *
 *   harness mpsc-produce PATH TYPE COUNT        COUNT messages of TYPE (aeron_mpsc_rb_write for
 *                                               even i, try_claim + commit for odd i), retrying
 *                                               while the ring is full
 *   harness mpsc-consume PATH COUNT PRODUCERS   reads with aeron_mpsc_rb_read until it has COUNT
 *                                               messages of each type 1..=PRODUCERS, each type's
 *                                               in order, every byte checked
 *   harness broadcast-transmit PATH COUNT [paced]
 *                                               COUNT messages with aeron_broadcast_transmitter;
 *                                               paced: never more than capacity / 2 ahead of the
 *                                               receiver position last read from stdin (one
 *                                               decimal position a line), so no lap can happen
 *   harness broadcast-receive PATH COUNT [paced]
 *                                               a copy receiver (receive_next, copy, validate)
 *                                               until message COUNT - 1; prints "ready" once
 *                                               its receiver is initialised; paced: prints
 *                                               "at POSITION" every PACE_EVERY messages kept
 *
 * Message i of type t has size msg_size(i, t) (4..64 bytes) and carries the test pattern
 * (crates/ring/src/pattern.rs): the low min(8, S) bytes of i little-endian, then byte k (k >= 8)
 * is (i + k) mod 256. Broadcast message i has type bcast_type(i). The Rust test uses the same
 * two functions.
 *
 * Every role ends with one summary line on stdout and exit status 0; any mismatch is printed on
 * stderr (what was expected, what was found, the record's bytes) with exit status 1; a bad
 * command line or file, exit status 2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "concurrent/aeron_mpsc_rb.h"
#include "concurrent/aeron_broadcast_transmitter.h"
#include "concurrent/aeron_broadcast_receiver.h"

#define HEADER_PAGE 4096u
#define KIND_MANY_TO_ONE 2u
#define KIND_BROADCAST 3u
#define MAX_SIZE 64u
#define PACE_EVERY 256u

static size_t msg_size(uint64_t i, int32_t type_id)
{
    return 4u + (size_t)((i * 7u + (uint64_t)type_id * 13u) % 61u);
}

static int32_t bcast_type(uint64_t i)
{
    return 1 + (int32_t)(i % 5u);
}

static uint8_t pattern_byte(uint64_t i, size_t k)
{
    return k < 8 ? (uint8_t)(i >> (8u * k)) : (uint8_t)((i + k) & 0xffu);
}

static void fill(uint64_t i, uint8_t *out, size_t size)
{
    for (size_t k = 0; k < size; k++)
    {
        out[k] = pattern_byte(i, k);
    }
}

static void dump(const char *what, const uint8_t *bytes, size_t len)
{
    fprintf(stderr, "%s (%zu bytes):", what, len);
    for (size_t k = 0; k < len; k++)
    {
        fprintf(stderr, " %02x", bytes[k]);
    }
    fputc('\n', stderr);
}

/* Exits with status 1, naming the first difference, when msg is not message i of size `size`. */
static void check(const char *role, int32_t type_id, uint64_t i, const uint8_t *msg, size_t len, size_t size)
{
    if (len != size)
    {
        fprintf(stderr, "%s: type %" PRId32 " message %" PRIu64 ": %zu bytes, expected %zu\n",
            role, type_id, i, len, size);
        dump("found", msg, len < 256 ? len : 256);
        exit(1);
    }
    for (size_t k = 0; k < len; k++)
    {
        if (msg[k] != pattern_byte(i, k))
        {
            fprintf(stderr, "%s: type %" PRId32 " message %" PRIu64 ": byte %zu is 0x%02x, expected 0x%02x\n",
                role, type_id, i, k, msg[k], pattern_byte(i, k));
            dump("found", msg, len);
            uint8_t expected[MAX_SIZE];
            fill(i, expected, size);
            dump("expected", expected, size);
            exit(1);
        }
    }
}

static uint64_t parse_u64(const char *text, const char *what)
{
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0')
    {
        fprintf(stderr, "bad %s: %s\n", what, text);
        exit(2);
    }
    return (uint64_t)value;
}

struct ring_map
{
    uint8_t *base;
    size_t file_length;
    uint8_t *region;
    size_t region_length;
    size_t capacity;
};

/*
 * Maps the whole file and checks our header page (docs/ring-layout.md): magic SYMPRING,
 * layout_version 2, ready 1, the kind, header_length 4096, and a file of exactly
 * 4096 + capacity + trailer bytes. The Aeron structures then get the region after the page.
 */
static struct ring_map map_ring(const char *path, uint32_t kind, size_t trailer_length)
{
    struct ring_map map;
    int fd = open(path, O_RDWR);
    if (fd < 0)
    {
        fprintf(stderr, "open %s: %s\n", path, strerror(errno));
        exit(2);
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)HEADER_PAGE)
    {
        fprintf(stderr, "%s: not a ring file (%lld bytes)\n", path, (long long)st.st_size);
        exit(2);
    }
    map.file_length = (size_t)st.st_size;
    void *base = mmap(NULL, map.file_length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (MAP_FAILED == base)
    {
        fprintf(stderr, "mmap %s: %s\n", path, strerror(errno));
        exit(2);
    }
    close(fd);
    map.base = (uint8_t *)base;

    uint32_t version, ready, kind_found, header_length;
    uint64_t capacity;
    memcpy(&version, map.base + 8, 4);
    memcpy(&ready, map.base + 12, 4);
    memcpy(&capacity, map.base + 16, 8);
    memcpy(&header_length, map.base + 28, 4);
    memcpy(&kind_found, map.base + 40, 4);
    if (memcmp(map.base, "SYMPRING", 8) != 0 || version != 2 || ready != 1 || kind_found != kind ||
        header_length != HEADER_PAGE || map.file_length != HEADER_PAGE + capacity + trailer_length)
    {
        fprintf(stderr,
            "%s: unexpected header: version %" PRIu32 " ready %" PRIu32 " kind %" PRIu32 " (want %" PRIu32
            ") header_length %" PRIu32 " capacity %" PRIu64 " file %zu bytes (want 4096 + capacity + %zu)\n",
            path, version, ready, kind_found, kind, header_length, capacity, map.file_length, trailer_length);
        exit(2);
    }
    map.region = map.base + HEADER_PAGE;
    map.region_length = map.file_length - HEADER_PAGE;
    map.capacity = (size_t)capacity;
    return map;
}

static void idle(void)
{
    sched_yield();
}

/* ---- many-to-one: producer ---------------------------------------------------------------- */

static int mpsc_produce(const char *path, int32_t type_id, uint64_t count)
{
    struct ring_map map = map_ring(path, KIND_MANY_TO_ONE, AERON_RB_TRAILER_LENGTH);
    aeron_mpsc_rb_t rb;
    if (aeron_mpsc_rb_init(&rb, map.region, map.capacity + AERON_RB_TRAILER_LENGTH) != 0)
    {
        fprintf(stderr, "aeron_mpsc_rb_init failed for capacity %zu\n", map.capacity);
        return 2;
    }
    uint8_t msg[MAX_SIZE];
    uint64_t full = 0, claimed = 0;
    for (uint64_t i = 0; i < count; i++)
    {
        size_t size = msg_size(i, type_id);
        if (i % 2 == 1)
        {
            int32_t offset;
            while ((offset = aeron_mpsc_rb_try_claim(&rb, type_id, size)) < 0)
            {
                if (AERON_RB_ERROR == offset)
                {
                    fprintf(stderr, "mpsc-produce: try_claim(%" PRId32 ", %zu) refused\n", type_id, size);
                    return 1;
                }
                full++;
                idle();
            }
            fill(i, rb.buffer + offset, size);
            if (aeron_mpsc_rb_commit(&rb, offset) != 0)
            {
                fprintf(stderr, "mpsc-produce: commit of message %" PRIu64 " at offset %" PRId32 " failed\n", i, offset);
                return 1;
            }
            claimed++;
        }
        else
        {
            fill(i, msg, size);
            aeron_rb_write_result_t result;
            while ((result = aeron_mpsc_rb_write(&rb, type_id, msg, size)) != AERON_RB_SUCCESS)
            {
                if (AERON_RB_ERROR == result)
                {
                    fprintf(stderr, "mpsc-produce: write(%" PRId32 ", %zu) refused\n", type_id, size);
                    return 1;
                }
                full++;
                idle();
            }
        }
    }
    printf("produced type=%" PRId32 " count=%" PRIu64 " claimed=%" PRIu64 " full=%" PRIu64 "\n",
        type_id, count, claimed, full);
    return 0;
}

/* ---- many-to-one: consumer ---------------------------------------------------------------- */

struct mpsc_consume_state
{
    uint64_t count;
    int32_t producers;
    uint64_t next[64];
    uint64_t total;
};

static void mpsc_handler(int32_t type_id, const void *buffer, size_t length, void *clientd)
{
    struct mpsc_consume_state *state = (struct mpsc_consume_state *)clientd;
    if (type_id < 1 || type_id > state->producers)
    {
        fprintf(stderr, "mpsc-consume: message of unexpected type %" PRId32 " (%zu bytes)\n", type_id, length);
        dump("found", (const uint8_t *)buffer, length < 256 ? length : 256);
        exit(1);
    }
    uint64_t i = state->next[type_id];
    if (i >= state->count)
    {
        fprintf(stderr, "mpsc-consume: type %" PRId32 ": message past the last (%" PRIu64 " already received)\n",
            type_id, i);
        dump("found", (const uint8_t *)buffer, length < 256 ? length : 256);
        exit(1);
    }
    check("mpsc-consume", type_id, i, (const uint8_t *)buffer, length, msg_size(i, type_id));
    state->next[type_id] = i + 1;
    state->total++;
}

static int mpsc_consume(const char *path, uint64_t count, int32_t producers)
{
    if (producers < 1 || producers > 63)
    {
        fprintf(stderr, "producers must be 1..=63\n");
        return 2;
    }
    struct ring_map map = map_ring(path, KIND_MANY_TO_ONE, AERON_RB_TRAILER_LENGTH);
    aeron_mpsc_rb_t rb;
    if (aeron_mpsc_rb_init(&rb, map.region, map.capacity + AERON_RB_TRAILER_LENGTH) != 0)
    {
        fprintf(stderr, "aeron_mpsc_rb_init failed for capacity %zu\n", map.capacity);
        return 2;
    }
    struct mpsc_consume_state state;
    memset(&state, 0, sizeof(state));
    state.count = count;
    state.producers = producers;
    uint64_t want = count * (uint64_t)producers, empty = 0;
    while (state.total < want)
    {
        if (0 == aeron_mpsc_rb_read(&rb, mpsc_handler, &state, 64))
        {
            empty++;
            idle();
        }
    }
    /* Every producer's last message is read, so nothing may follow: a duplicate or a stray
     * record would show here (or above, as a message out of order). */
    size_t extra = aeron_mpsc_rb_read(&rb, mpsc_handler, &state, 64);
    int64_t head = aeron_mpsc_rb_consumer_position(&rb);
    int64_t tail = aeron_mpsc_rb_producer_position(&rb);
    if (extra != 0 || head != tail)
    {
        fprintf(stderr, "mpsc-consume: after the last message: %zu more, head %" PRId64 " tail %" PRId64 "\n",
            extra, head, tail);
        return 1;
    }
    printf("consumed total=%" PRIu64 " producers=%" PRId32 " head=%" PRId64 " tail=%" PRId64 " empty_reads=%" PRIu64 "\n",
        state.total, producers, head, tail, empty);
    return 0;
}

/* ---- broadcast: transmitter --------------------------------------------------------------- */

static int broadcast_transmit(const char *path, uint64_t count, bool paced)
{
    struct ring_map map = map_ring(path, KIND_BROADCAST, AERON_BROADCAST_BUFFER_TRAILER_LENGTH);
    aeron_broadcast_transmitter_t transmitter;
    if (aeron_broadcast_transmitter_init(&transmitter, map.region, map.capacity + AERON_BROADCAST_BUFFER_TRAILER_LENGTH) != 0)
    {
        fprintf(stderr, "aeron_broadcast_transmitter_init failed for capacity %zu\n", map.capacity);
        return 2;
    }
    uint8_t msg[MAX_SIZE];
    int64_t acked = 0; /* the receiver's position, as it last reported it (paced) */
    uint64_t pauses = 0;
    for (uint64_t i = 0; i < count; i++)
    {
        int64_t tail = transmitter.descriptor->tail_counter;
        while (paced && tail - acked > (int64_t)(map.capacity / 2))
        {
            char line[64];
            if (NULL == fgets(line, sizeof(line), stdin))
            {
                fprintf(stderr, "broadcast-transmit: stdin closed while paced at tail %" PRId64 " (receiver at %" PRId64 ")\n",
                    tail, acked);
                return 1;
            }
            line[strcspn(line, "\n")] = '\0';
            acked = (int64_t)parse_u64(line, "receiver position");
            pauses++;
        }
        int32_t type_id = bcast_type(i);
        size_t size = msg_size(i, type_id);
        fill(i, msg, size);
        if (aeron_broadcast_transmitter_transmit(&transmitter, type_id, msg, size) != 0)
        {
            fprintf(stderr, "broadcast-transmit: message %" PRIu64 " refused\n", i);
            return 1;
        }
    }
    int64_t tail;
    AERON_GET_ACQUIRE(tail, transmitter.descriptor->tail_counter);
    printf("transmitted count=%" PRIu64 " tail=%" PRId64 " paced_reads=%" PRIu64 "\n", count, tail, pauses);
    return 0;
}

/* ---- broadcast: receiver ------------------------------------------------------------------ */

static int broadcast_receive(const char *path, uint64_t count, bool paced)
{
    struct ring_map map = map_ring(path, KIND_BROADCAST, AERON_BROADCAST_BUFFER_TRAILER_LENGTH);
    aeron_broadcast_receiver_t receiver;
    if (aeron_broadcast_receiver_init(&receiver, map.region, map.capacity + AERON_BROADCAST_BUFFER_TRAILER_LENGTH) != 0)
    {
        fprintf(stderr, "aeron_broadcast_receiver_init failed for capacity %zu\n", map.capacity);
        return 2;
    }
    printf("ready position=%" PRId64 "\n", receiver.next_record);
    fflush(stdout);

    const size_t max_length = AERON_BROADCAST_MAX_MESSAGE_LENGTH(map.capacity);
    uint8_t *scratch = malloc(max_length > MAX_SIZE ? max_length : MAX_SIZE);
    if (NULL == scratch)
    {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    uint64_t received = 0, overrun = 0, next = 0, empty = 0;
    bool in_order = true; /* no lap since the previous message kept: the next is `next` exactly */
    for (;;)
    {
        const long laps_before = receiver.lapped_count;
        if (!aeron_broadcast_receiver_receive_next(&receiver))
        {
            empty++;
            idle();
            continue;
        }
        if (receiver.lapped_count != laps_before)
        {
            /* Lapped: receive_next jumped to the latest record; what was between is lost. */
            in_order = false;
        }
        aeron_broadcast_record_descriptor_t *record =
            (aeron_broadcast_record_descriptor_t *)(receiver.buffer + receiver.record_offset);
        const int32_t record_length = record->length;
        const int32_t type_id = record->msg_type_id;
        const int64_t length = (int64_t)record_length - (int64_t)AERON_BROADCAST_RECORD_HEADER_LENGTH;
        const bool sane = length >= 0 && (size_t)length <= max_length &&
            receiver.record_offset + (size_t)record_length <= receiver.capacity;
        if (sane)
        {
            memcpy(scratch, receiver.buffer + receiver.record_offset + AERON_BROADCAST_RECORD_HEADER_LENGTH, (size_t)length);
        }
        if (!aeron_broadcast_receiver_validate(&receiver))
        {
            /* Overwritten while copied: a lap, nothing kept. */
            overrun++;
            in_order = false;
            continue;
        }
        if (!sane || type_id < 1)
        {
            fprintf(stderr,
                "broadcast-receive: record at position %" PRId64 " (offset %zu) not overwritten but impossible: "
                "length %" PRId32 " type %" PRId32 "\n",
                receiver.cursor, receiver.record_offset, record_length, type_id);
            dump("record header", (const uint8_t *)record, 8);
            return 1;
        }
        if (length < 4)
        {
            fprintf(stderr, "broadcast-receive: message of %" PRId64 " bytes\n", length);
            return 1;
        }
        uint64_t i = 0;
        memcpy(&i, scratch, (size_t)length < 8 ? (size_t)length : 8u);
        if (in_order ? i != next : i < next)
        {
            fprintf(stderr, "broadcast-receive: message %" PRIu64 " where %s %" PRIu64 " was due (laps %ld)\n",
                i, in_order ? "exactly" : "at least", next, receiver.lapped_count);
            dump("found", scratch, (size_t)length);
            return 1;
        }
        if (i >= count)
        {
            fprintf(stderr, "broadcast-receive: message %" PRIu64 " past the last (%" PRIu64 ")\n", i, count - 1);
            return 1;
        }
        if (type_id != bcast_type(i))
        {
            fprintf(stderr, "broadcast-receive: message %" PRIu64 " has type %" PRId32 ", expected %" PRId32 "\n",
                i, type_id, bcast_type(i));
            return 1;
        }
        check("broadcast-receive", type_id, i, scratch, (size_t)length, msg_size(i, type_id));
        received++;
        next = i + 1;
        in_order = true;
        if (paced && received % PACE_EVERY == 0)
        {
            printf("at %" PRId64 "\n", receiver.next_record);
        }
        if (i == count - 1)
        {
            break;
        }
    }
    printf("received=%" PRIu64 " lapped=%ld overrun=%" PRIu64 " last=%" PRIu64 " empty_polls=%" PRIu64 "\n",
        received, receiver.lapped_count, overrun, next - 1, empty);
    free(scratch);
    aeron_broadcast_receiver_close(&receiver);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 5 && strcmp(argv[1], "mpsc-produce") == 0)
    {
        uint64_t type_id = parse_u64(argv[3], "TYPE");
        if (type_id < 1 || type_id > INT32_MAX)
        {
            fprintf(stderr, "TYPE must be 1..=2^31-1\n");
            return 2;
        }
        return mpsc_produce(argv[2], (int32_t)type_id, parse_u64(argv[4], "COUNT"));
    }
    if (argc == 5 && strcmp(argv[1], "mpsc-consume") == 0)
    {
        return mpsc_consume(argv[2], parse_u64(argv[3], "COUNT"), (int32_t)parse_u64(argv[4], "PRODUCERS"));
    }
    const bool paced = argc == 5 && strcmp(argv[4], "paced") == 0;
    if ((argc == 4 || paced) && strcmp(argv[1], "broadcast-transmit") == 0)
    {
        return broadcast_transmit(argv[2], parse_u64(argv[3], "COUNT"), paced);
    }
    if ((argc == 4 || paced) && strcmp(argv[1], "broadcast-receive") == 0)
    {
        uint64_t count = parse_u64(argv[3], "COUNT");
        if (count == 0)
        {
            fprintf(stderr, "COUNT must be at least 1\n");
            return 2;
        }
        return broadcast_receive(argv[2], count, paced);
    }
    fprintf(stderr,
        "usage: %s mpsc-produce PATH TYPE COUNT | mpsc-consume PATH COUNT PRODUCERS |\n"
        "          broadcast-transmit PATH COUNT [paced] | broadcast-receive PATH COUNT [paced]\n",
        argv[0]);
    return 2;
}
