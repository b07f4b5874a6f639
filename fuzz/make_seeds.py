#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (run from the repository root; output is
committed): valid rings, among them the golden fixture of crates/ring/tests/golden.rs."""
import struct, os

HEADER, TRAILER = 4096, 768

def header(capacity):
    h = bytearray(HEADER)
    h[0:8] = b"SYMPRING"
    struct.pack_into("<IIQiIq", h, 8, 1, 1, capacity, capacity // 8, HEADER, 1_700_000_000_000)
    return h

def trailer(head, tail, head_cache):
    t = bytearray(TRAILER)
    struct.pack_into("<q", t, 128, tail)
    struct.pack_into("<q", t, 256, head_cache)
    struct.pack_into("<q", t, 384, head)
    return t

def record(length, type_id, payload):
    body = struct.pack("<ii", length, type_id) + payload
    return body + b"\0" * ((-len(body)) % 8)

golden_area = (struct.pack("<ii", 11, 5) + b"abc" + b"\xee" * 5
               + struct.pack("<ii", 16, 2) + bytes(range(1, 9))
               + b"\0" * 8 + b"\xee" * 8
               + struct.pack("<ii", 16, -1) + b"\0" * 8)
assert len(golden_area) == 64
golden = header(64) + golden_area + trailer(48, 96, 48)

empty = header(1024) + bytes(1024) + trailer(0, 0, 0)
area = b"".join(record(8 + n, 1 + n % 3, bytes([n]) * n) for n in range(10))
area += bytes(1024 - len(area))
some = header(1024) + area + trailer(0, sum(len(record(8 + n, 1, bytes(n))) for n in range(10)), 0)
claim = header(256) + record(-20, 4, b"x" * 12) + bytes(256 - 24) + trailer(0, 0, 0)

seeds = {"golden-64.ring": golden, "empty-1024.ring": empty, "ten-records-1024.ring": some,
         "claim-in-progress-256.ring": claim}
for name, data in seeds.items():
    with open(os.path.join("fuzz/corpus/open_inspect", name), "wb") as f:
        f.write(data)
# consumer_region: capacity choice, head, tail, record area.
region_seeds = {
    "golden": bytes([0]) + struct.pack("<qq", 48, 96) + golden_area,
    "ten-records": bytes([4]) + struct.pack("<qq", 0, 160) + area,
    "claim": bytes([2]) + struct.pack("<qq", 0, 0) + record(-20, 4, b"x" * 12),
}
for name, data in region_seeds.items():
    with open(os.path.join("fuzz/corpus/consumer_region", name), "wb") as f:
        f.write(data)
