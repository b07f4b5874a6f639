//! `map watch-users`: a reader that checks every user a load has counted so far, pass after
//! pass, while the load puts them and the map grows under it (in this process or, the point of
//! it, in another language's); it reports the longest lookup, which includes mapping the grown
//! file again. The Java twin is `java/sidecar map watch-users`, with the same arguments and line.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Args;
use sympathy_map::MapFile;
use sympathy_map::user::{FlyweightCodec, UserCodec, generate};

/// `map watch-users PATH --users N [--timeout-seconds S]`
#[derive(Args, Debug)]
pub struct WatchUsersArgs {
    /// The map file (waited for until it exists and opens).
    path: PathBuf,
    /// The users the load puts: ids 0..N, generated as `generate(id, N)`.
    #[arg(long)]
    users: u64,
    /// Give up (exit 1) when the load has not put them all by then.
    #[arg(long, default_value_t = 600)]
    timeout_seconds: u64,
}

/// Runs `map watch-users`: opens the map read-only, then, until a pass that began with all N
/// users counted has checked them, reads the count and checks every user below it (present,
/// and its bytes those the generator encodes), timing each lookup.
pub fn watch_users(args: WatchUsersArgs) -> Result<()> {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(args.timeout_seconds);
    let map = open_when_there(&args, deadline)?;
    super::tools::expect_users(&map)?;
    let first_slots = map.stats()?.slots;
    println!(
        "watching {} for {} users: {} counted so far, a table of {first_slots} slots",
        args.path.display(),
        args.users,
        map.len()
    );
    let (mut passes, mut lookups, mut longest) = (0u64, 0u64, Duration::ZERO);
    let mut expected = Vec::new();
    loop {
        let counted = map.len();
        for id in 0..counted {
            let user = generate(id, args.users);
            expected.resize(FlyweightCodec.encoded_len(&user), 0);
            FlyweightCodec.encode(&user, &mut expected);
            let before = Instant::now();
            let found = map.get(id)?;
            longest = longest.max(before.elapsed());
            match found {
                None => bail!("user {id} is missing while {counted} keys were counted"),
                Some(bytes) if bytes != &expected[..] => bail!(
                    "user {id} differs from the generator's while {counted} keys were counted"
                ),
                Some(_) => {}
            }
        }
        lookups += counted;
        passes += 1;
        if counted >= args.users {
            break;
        }
        if Instant::now() > deadline {
            bail!(
                "{}: only {counted} of {} users counted after {} s (is the load running?)",
                args.path.display(),
                args.users,
                args.timeout_seconds
            );
        }
        if counted == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let stats = map.stats()?;
    println!(
        "watched {} users in {passes} passes over {:.2} s: {lookups} lookups, every key present \
         and equal; longest lookup {:.1} us; the table grew from {first_slots} to {} slots, the \
         reader mapped the file {} times",
        args.users,
        start.elapsed().as_secs_f64(),
        longest.as_secs_f64() * 1e6,
        stats.slots,
        stats.mappings
    );
    Ok(())
}

/// The map at `args.path`, opened read-only once it exists and its creator has finished it.
fn open_when_there(args: &WatchUsersArgs, deadline: Instant) -> Result<MapFile> {
    loop {
        match MapFile::open_read_only(&args.path) {
            Ok(map) => return Ok(map),
            Err(_) if Instant::now() < deadline && !args.path.exists() => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e.into()),
        }
    }
}
