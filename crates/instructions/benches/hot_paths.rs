//! The hot paths under callgrind, through gungraun: each benchmark runs its kernel for
//! [`N`] and for `2 * N` messages (cases `n1000` and `n2000`); the gate
//! (`sympathy_instructions::gate`) turns the two counts into instructions per message.
//! Benchmark `group::op_param` becomes the id `group/op/param` (`serialization::encode_serde_binary`
//! is `serialization/encode/serde-binary`).
//!
//! Run by `ci/instructions` (which needs `gungraun-runner`, installed by `ci/setup`):
//! `cargo bench -p sympathy-instructions --bench hot_paths -- --output-format=json`.

use std::hint::black_box;

use gungraun::prelude::*;
use gungraun::{Callgrind, LibraryBenchmarkConfig};
use sympathy_instructions::kernels::{self, RingPair};
use sympathy_lab::serialization::{HandCodec, Order, Sbe, SerdeBinary, ZeroCopy};
use sympathy_queue::{Consumer, Producer};

/// Messages of the shorter run; the longer runs twice as many.
const N: usize = 1000;
const N2: usize = 2 * N;

fn empty_ring(n: usize) -> (RingPair, usize) {
    (RingPair::new().expect("an anonymous ring"), n)
}

fn ring_of<const LEN: usize>(n: usize) -> (RingPair, usize) {
    (RingPair::filled(LEN, n).expect("a filled ring"), n)
}

fn empty_queue(n: usize) -> ((Producer<u32>, Consumer<u32>), usize) {
    (kernels::queue_filled(0).expect("a queue"), n)
}

fn full_queue(n: usize) -> ((Producer<u32>, Consumer<u32>), usize) {
    (kernels::queue_filled(n).expect("a filled queue"), n)
}

fn order_buffer(n: usize) -> (Vec<u8>, usize) {
    (vec![0; kernels::ORDER_BUFFER], n)
}

fn serde_binary_bytes(n: usize) -> (Vec<u8>, usize) {
    (kernels::encoded::<SerdeBinary>().expect("an order"), n)
}

fn hand_codec_bytes(n: usize) -> (Vec<u8>, usize) {
    (kernels::encoded::<HandCodec>().expect("an order"), n)
}

fn zero_copy_bytes(n: usize) -> (Vec<u8>, usize) {
    (kernels::encoded::<ZeroCopy>().expect("an order"), n)
}

fn sbe_bytes(n: usize) -> (Vec<u8>, usize) {
    (kernels::encoded::<Sbe>().expect("an order"), n)
}

macro_rules! ring_benches {
    ($len:literal, $write:ident, $read:ident) => {
        #[library_benchmark]
        #[bench::n1000(args = (N), setup = empty_ring)]
        #[bench::n2000(args = (N2), setup = empty_ring)]
        fn $write((mut pair, n): (RingPair, usize)) -> RingPair {
            kernels::ring_write(&mut pair.producer, &[7; $len], n).expect("room for every message");
            pair
        }

        #[library_benchmark]
        #[bench::n1000(args = (N), setup = ring_of::<$len>)]
        #[bench::n2000(args = (N2), setup = ring_of::<$len>)]
        fn $read((mut pair, n): (RingPair, usize)) -> (RingPair, u64) {
            let sum = kernels::ring_read(&mut pair.consumer, n).expect("every message waiting");
            (pair, sum)
        }
    };
}

ring_benches!(4, write_4b, read_4b);
ring_benches!(256, write_256b, read_256b);

library_benchmark_group!(
    name = ring,
    benchmarks = [write_4b, write_256b, read_4b, read_256b]
);

#[library_benchmark]
#[bench::n1000(args = (N), setup = empty_queue)]
#[bench::n2000(args = (N2), setup = empty_queue)]
fn offer_u32(
    ((mut producer, consumer), n): ((Producer<u32>, Consumer<u32>), usize),
) -> (Producer<u32>, Consumer<u32>) {
    kernels::queue_offer(&mut producer, n).expect("room for every value");
    (producer, consumer)
}

#[library_benchmark]
#[bench::n1000(args = (N), setup = full_queue)]
#[bench::n2000(args = (N2), setup = full_queue)]
fn poll_u32(
    ((producer, mut consumer), n): ((Producer<u32>, Consumer<u32>), usize),
) -> (Producer<u32>, Consumer<u32>, u64) {
    let sum = kernels::queue_poll(&mut consumer, n).expect("every value waiting");
    (producer, consumer, sum)
}

#[library_benchmark]
#[bench::n1000(args = (N), setup = empty_queue)]
#[bench::n2000(args = (N2), setup = empty_queue)]
fn offer_u32_batch(
    ((mut producer, consumer), n): ((Producer<u32>, Consumer<u32>), usize),
) -> (Producer<u32>, Consumer<u32>) {
    kernels::queue_offer_batch(&mut producer, n).expect("room for every value");
    (producer, consumer)
}

#[library_benchmark]
#[bench::n1000(args = (N), setup = full_queue)]
#[bench::n2000(args = (N2), setup = full_queue)]
fn poll_u32_batch(
    ((producer, mut consumer), n): ((Producer<u32>, Consumer<u32>), usize),
) -> (Producer<u32>, Consumer<u32>, u64) {
    let sum = kernels::queue_poll_batch(&mut consumer, n).expect("every value waiting");
    (producer, consumer, sum)
}

library_benchmark_group!(
    name = queue,
    benchmarks = [offer_u32, poll_u32, offer_u32_batch, poll_u32_batch]
);

macro_rules! codec_benches {
    ($codec:ty, $encode:ident, $decode:ident, $bytes:ident) => {
        #[library_benchmark]
        #[bench::n1000(args = (N), setup = order_buffer)]
        #[bench::n2000(args = (N2), setup = order_buffer)]
        fn $encode((mut buf, n): (Vec<u8>, usize)) -> (Vec<u8>, usize) {
            let written = kernels::encode::<$codec>(black_box(&Order::seed()), &mut buf, n)
                .expect("the order fits");
            (buf, written)
        }

        #[library_benchmark]
        #[bench::n1000(args = (N), setup = $bytes)]
        #[bench::n2000(args = (N2), setup = $bytes)]
        fn $decode((buf, n): (Vec<u8>, usize)) -> (Vec<u8>, Option<Order>) {
            let order = kernels::decode::<$codec>(&buf, n).expect("a valid order");
            (buf, order)
        }
    };
}

codec_benches!(
    SerdeBinary,
    encode_serde_binary,
    decode_serde_binary,
    serde_binary_bytes
);
codec_benches!(
    HandCodec,
    encode_hand_codec,
    decode_hand_codec,
    hand_codec_bytes
);
codec_benches!(
    ZeroCopy,
    encode_zero_copy,
    decode_zero_copy,
    zero_copy_bytes
);
codec_benches!(Sbe, encode_sbe, decode_sbe, sbe_bytes);

library_benchmark_group!(
    name = serialization,
    benchmarks = [
        encode_serde_binary,
        decode_serde_binary,
        encode_hand_codec,
        decode_hand_codec,
        encode_zero_copy,
        decode_zero_copy,
        encode_sbe,
        decode_sbe
    ]
);

// Instructions only: no cache simulation (faster, and Ir is what the gate compares).
main!(
    config = LibraryBenchmarkConfig::default().tool(Callgrind::with_args(["--cache-sim=no"]));
    library_benchmark_groups = ring, queue, serialization
);
