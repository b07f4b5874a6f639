//! `create`, `load-users`, `verify-users`, `get`, `inspect`, `copy`, `layout`: the tools for
//! the map file, also used by the cross-language tests (a map written by one language, every
//! user checked by the other).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use sympathy_map::layout::{self, VALUE_FORMAT_USER_FLYWEIGHT};
use sympathy_map::user::{FlyweightCodec, UserCodec, UserView, generate, json};
use sympathy_map::{MapConfig, MapFile, format_name};

/// `map create PATH (--entries N [--mean-value-length B] | --slots N --data-capacity B)`
#[derive(Args, Debug)]
pub struct CreateArgs {
    /// The map file to create (must not exist).
    path: PathBuf,
    /// Size the map for this many entries (slots at load <= 1/2, data with a quarter spare).
    #[arg(long, conflicts_with_all = ["slots", "data_capacity"], required_unless_present = "slots",
          value_parser = crate::quantity::u64)]
    entries: Option<u64>,
    /// The mean value length the entries are sized for.
    #[arg(long, default_value_t = 100)]
    mean_value_length: u64,
    /// Slots in the table: a power of two (at most 3/4 of them hold keys).
    #[arg(long, requires = "data_capacity", value_parser = crate::quantity::u64)]
    slots: Option<u64>,
    /// Bytes of the data area (a multiple of 8).
    #[arg(long, value_parser = crate::quantity::u64)]
    data_capacity: Option<u64>,
    /// The largest value a put accepts [default: 64 KiB, or the data area if smaller].
    #[arg(long)]
    max_value_length: Option<u32>,
    /// How the values are encoded: bytes or user-flyweight.
    #[arg(long, default_value = "bytes", value_parser = ["bytes", "user-flyweight"])]
    value_format: String,
}

fn value_format_code(name: &str) -> u32 {
    match name {
        "user-flyweight" => VALUE_FORMAT_USER_FLYWEIGHT,
        _ => layout::VALUE_FORMAT_BYTES,
    }
}

/// Runs `map create`.
pub fn create(args: CreateArgs) -> Result<()> {
    let mut config = match (args.entries, args.slots, args.data_capacity) {
        (Some(entries), _, _) => MapConfig::for_entries(entries, args.mean_value_length)?,
        (None, Some(slots), Some(data_capacity)) => MapConfig {
            slots,
            data_capacity,
            max_value_length: 64 * 1024,
            value_format: 0,
        },
        _ => bail!("give --entries N, or --slots N with --data-capacity BYTES"),
    };
    if let Some(max) = args.max_value_length {
        config.max_value_length = max;
    } else if args.entries.is_none() {
        let room = config.data_capacity.saturating_sub(layout::DATA_START + 16);
        config.max_value_length = room.min(64 * 1024) as u32;
    }
    config.value_format = value_format_code(&args.value_format);
    let map = MapFile::create(&args.path, &config)?;
    let s = map.stats()?;
    println!(
        "created {}: {} slots, {} bytes of data, values up to {} bytes ({}), {} bytes in all",
        args.path.display(),
        s.slots,
        s.data_capacity,
        s.max_value_length,
        format_name(s.value_format),
        s.file_length
    );
    Ok(())
}

/// `map load-users PATH --users N [--initial-users M] [--flush] [--resume]`
#[derive(Args, Debug)]
pub struct LoadUsersArgs {
    /// The map file (created, sized for the users, when missing).
    pub path: PathBuf,
    /// Users to put: ids 0..N, generated as `sympathy_map::user::generate(id, N)`.
    #[arg(long)]
    pub users: u64,
    /// Create a missing map sized for this many users instead (it grows as it fills)
    /// [default: --users].
    #[arg(long)]
    pub initial_users: Option<u64>,
    /// Call flush (msync) at the end: durable across an OS crash.
    #[arg(long)]
    pub flush: bool,
    /// Finish a load that was stopped (killed, or out of time): a user already in the map with
    /// exactly its value is kept, not put again, so a rerun takes no data space for it.
    #[arg(long)]
    pub resume: bool,
}

/// Runs `map load-users`.
pub fn load_users(args: LoadUsersArgs) -> Result<()> {
    let map = if args.path.exists() {
        MapFile::open(&args.path)?
    } else {
        let sized_for = args.initial_users.unwrap_or(args.users);
        MapFile::create(&args.path, &sympathy_map::user::map_config(sized_for)?)?
    };
    expect_users(&map)?;
    let mut writer = map.writer()?;
    if writer.torn_records_dropped() > 0 {
        println!(
            "removed {} torn records (written after the last flush before the system crashed)",
            writer.torn_records_dropped()
        );
    }
    let start = Instant::now();
    let (mut kept, mut encoded) = (0u64, Vec::new());
    for id in 0..args.users {
        let user = generate(id, args.users);
        let length = FlyweightCodec.encoded_len(&user);
        if args.resume {
            encoded.resize(length, 0);
            FlyweightCodec.encode(&user, &mut encoded);
            if writer.get(id)? == Some(&encoded[..]) {
                kept += 1;
            } else {
                writer.put(id, &encoded)?; // encoded already: no second encode in place
            }
            continue;
        }
        writer.put_with(id, length, |bytes| FlyweightCodec.encode(&user, bytes))?;
    }
    if args.flush {
        writer.flush()?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let put = args.users - kept;
    let resumed = if args.resume {
        format!(" ({kept} were there already, {put} put)")
    } else {
        String::new()
    };
    let stats = map.stats()?;
    let grows = writer.grows();
    let grown = if grows.tables + grows.data_areas == 0 {
        String::new()
    } else {
        format!(
            "; the table grew {} times ({} slots), the data area {} times ({} bytes); the \
             grows took {:.1} ms in all, the longest {:.1} ms",
            grows.tables,
            stats.slots,
            grows.data_areas,
            stats.data_capacity,
            grows.total.as_secs_f64() * 1e3,
            grows.longest.as_secs_f64() * 1e3
        )
    };
    println!(
        "loaded {} users into {}{resumed} in {seconds:.2} s ({:.0} puts/s); {} keys, {} data \
         bytes{grown}",
        args.users,
        args.path.display(),
        put as f64 / seconds,
        writer.len(),
        writer.data_end()
    );
    Ok(())
}

/// Fails unless the map's values are flyweight users.
pub(super) fn expect_users(map: &MapFile) -> Result<()> {
    let format = map.value_format();
    if format != VALUE_FORMAT_USER_FLYWEIGHT {
        return Err(sympathy_map::MapError::ValueFormat {
            found: format,
            expected: VALUE_FORMAT_USER_FLYWEIGHT,
        }
        .into());
    }
    Ok(())
}

/// `map verify-users PATH --users N`
#[derive(Args, Debug)]
pub struct VerifyUsersArgs {
    /// The map file.
    path: PathBuf,
    /// The users it must hold: ids 0..N, each equal to the generator's.
    #[arg(long)]
    users: u64,
}

/// Runs `map verify-users`.
pub fn verify_users(args: VerifyUsersArgs) -> Result<()> {
    let map = MapFile::open_read_only(&args.path)?;
    expect_users(&map)?;
    if map.len() != args.users {
        bail!(
            "{}: holds {} keys, expected {} users",
            args.path.display(),
            map.len(),
            args.users
        );
    }
    for id in 0..args.users {
        let bytes = map
            .get(id)?
            .with_context(|| format!("user {id} is missing from {}", args.path.display()))?;
        let found = FlyweightCodec
            .decode(bytes)
            .with_context(|| format!("user {id}"))?;
        let expected = generate(id, args.users);
        if found != expected {
            bail!("user {id} differs: found {found:?}, expected {expected:?}");
        }
    }
    let mut extra = 0u64;
    for entry in map.entries() {
        let (key, _) = entry?;
        if key >= args.users {
            extra += 1;
        }
    }
    if extra > 0 {
        bail!("{extra} keys at or past {} are in the map", args.users);
    }
    println!(
        "verified {} users in {}: every field of every user equals the generator's",
        args.users,
        args.path.display()
    );
    Ok(())
}

/// `map get PATH KEY`
#[derive(Args, Debug)]
pub struct GetArgs {
    /// The map file.
    path: PathBuf,
    /// The key.
    key: u64,
}

/// Runs `map get`: exit status 1 when the key is absent.
pub fn get(args: GetArgs) -> Result<()> {
    let map = MapFile::open_read_only(&args.path)?;
    let Some(bytes) = map.get(args.key)? else {
        bail!("key {} is not in {}", args.key, args.path.display());
    };
    if map.value_format() == VALUE_FORMAT_USER_FLYWEIGHT {
        let mut out = String::new();
        json::write_user(&UserView::new(bytes)?, &mut out)?;
        println!("{out}");
    } else {
        println!(
            "{}",
            bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
        );
    }
    Ok(())
}

/// `map inspect PATH`
#[derive(Args, Debug)]
pub struct InspectArgs {
    /// The map file.
    path: PathBuf,
}

/// Runs `map inspect`.
pub fn inspect(args: InspectArgs) -> Result<()> {
    let map = MapFile::open_read_only(&args.path)?;
    let s = map.stats()?;
    println!("map {}", args.path.display());
    println!(
        "  slots            {} ({} used: keys and tombstones){}",
        s.slots,
        s.used_slots,
        if s.slots == s.first_slots {
            String::new()
        } else {
            format!("; grown from {}", s.first_slots)
        }
    );
    println!("  keys             {}", s.count);
    println!(
        "  data             {} of {} bytes used",
        s.data_end, s.data_capacity
    );
    println!("  max value length {}", s.max_value_length);
    println!(
        "  value format     {} ({})",
        s.value_format,
        format_name(s.value_format)
    );
    println!("  file length      {}", s.file_length);
    println!(
        "  created          {} ms since the epoch",
        s.creation_time_ms
    );
    println!("  recoveries       {}", s.recoveries);
    println!("  writer           {:?}", map.writer_state());
    Ok(())
}

/// `map copy SRC DST [--slots N] [--data-capacity B]`
#[derive(Args, Debug)]
pub struct CopyArgs {
    /// The map to copy (read only).
    source: PathBuf,
    /// The new map (must not exist).
    destination: PathBuf,
    /// Slots of the new map [default: twice the source's].
    #[arg(long)]
    slots: Option<u64>,
    /// Data bytes of the new map [default: twice the live records' bytes, at least the
    /// source's].
    #[arg(long, value_parser = crate::quantity::u64)]
    data_capacity: Option<u64>,
}

/// Runs `map copy`: the live entries only, so overwritten and removed values' bytes are left
/// behind. Sizes too small for the live entries are refused before anything is written, and
/// the copy is built beside the destination and linked into place whole: a failed copy leaves
/// no map there.
pub fn copy(args: CopyArgs) -> Result<()> {
    let source = MapFile::open_read_only(&args.source)?;
    let s = source.stats()?;
    let (mut keys, mut live) = (0u64, 0u64);
    for entry in source.entries() {
        keys += 1;
        live += layout::record_length(entry?.1.len() as u64);
    }
    let config = MapConfig {
        slots: args.slots.unwrap_or((s.slots * 2).min(layout::MAX_SLOTS)),
        data_capacity: args
            .data_capacity
            .unwrap_or((live * 2 + layout::DATA_START).max(s.data_capacity)),
        max_value_length: s.max_value_length,
        value_format: s.value_format,
    };
    let need_data = layout::DATA_START + live;
    if keys > layout::max_used_slots(config.slots) || need_data > config.data_capacity {
        let need_slots = slots_for(keys);
        bail!(
            "map copy: {} would be too small for the {keys} keys of {}: they need at least \
             {need_slots} slots and a data capacity of {need_data} bytes (give larger --slots \
             and --data-capacity, or leave them out); nothing was written",
            args.destination.display(),
            args.source.display()
        );
    }
    if args.destination.exists() {
        bail!(
            "map copy: {} exists; give a new path (nothing was written)",
            args.destination.display()
        );
    }
    let partial = partial_path(&args.destination);
    let copied = copy_into(&source, &partial, &config);
    let linked = copied.and_then(|n| {
        std::fs::hard_link(&partial, &args.destination)
            .with_context(|| format!("linking the copy to {}", args.destination.display()))
            .map(|()| n)
    });
    let _ = std::fs::remove_file(&partial);
    let copied = linked?;
    println!(
        "copied {copied} keys from {} into {} ({} slots, {} data bytes)",
        args.source.display(),
        args.destination.display(),
        config.slots,
        config.data_capacity
    );
    Ok(())
}

/// The smallest power-of-two slot count whose load limit holds `keys`.
fn slots_for(keys: u64) -> u64 {
    let mut slots = layout::MIN_SLOTS;
    while layout::max_used_slots(slots) < keys && slots < layout::MAX_SLOTS {
        slots *= 2;
    }
    slots
}

/// Where a copy is built before it is linked into place: beside it, named for this process.
fn partial_path(destination: &std::path::Path) -> PathBuf {
    let mut name = destination.as_os_str().to_owned();
    name.push(format!(".partial-{}", std::process::id()));
    PathBuf::from(name)
}

/// Creates the map at `path` and puts every live entry of `source`; the keys copied.
fn copy_into(source: &MapFile, path: &std::path::Path, config: &MapConfig) -> Result<u64> {
    let destination = MapFile::create(path, config)?;
    let mut writer = destination.writer()?;
    for entry in source.entries() {
        let (key, value) = entry?;
        writer.put(key, value)?;
    }
    writer.flush()?;
    Ok(writer.len())
}

/// Runs `map layout`.
pub fn layout() -> Result<()> {
    for (name, value) in layout::HEADER_CONSTANTS.iter().chain(layout::CONSTANTS) {
        println!("{name}={value}");
    }
    Ok(())
}
