//! The seed's user record: "a simple user class holding some attributes and a list of
//! 'friends' making up a social graph", as the off-heap map stores it.
//!
//! - [`User`]: id, name, email, country, status, registration and last-login times, friends.
//! - [`generate`]: user `id` of a population, deterministic, the same in Rust and Java (so a
//!   file written by one language is checked field by field by the other).
//! - [`UserCodec`]: the seam for value encodings; [`FlyweightCodec`] writes the fixed-offset
//!   layout of `docs/map-layout.md` ("Value format 1"), read in place by [`UserView`]. An
//!   SBE-encoded variant implements the same trait with format
//!   [`crate::layout::VALUE_FORMAT_USER_SBE`].
//! - [`json`]: a user as the lookup service returns it.
//!
//! ```
//! use sympathy_map::user::{FlyweightCodec, UserCodec, UserView, generate};
//! let user = generate(42, 1_000);
//! let mut bytes = vec![0; FlyweightCodec.encoded_len(&user)];
//! FlyweightCodec.encode(&user, &mut bytes);
//! let view = UserView::new(&bytes)?;
//! assert_eq!(view.id(), 42);
//! assert_eq!(view.name()?, "user42");
//! assert_eq!(FlyweightCodec.decode(&bytes)?, user);
//! # Ok::<(), sympathy_map::user::CodecError>(())
//! ```

mod codec;
pub mod json;

pub use codec::{
    CodecError, FlyweightCodec, MAX_FRIENDS, MAX_TEXT_LENGTH, USER_COUNTRY_OFFSET,
    USER_EMAIL_LENGTH_OFFSET, USER_FIXED_LENGTH, USER_FRIEND_COUNT_OFFSET, USER_FRIENDS_OFFSET,
    USER_ID_OFFSET, USER_LAST_LOGIN_OFFSET, USER_NAME_LENGTH_OFFSET, USER_REGISTERED_OFFSET,
    USER_STATUS_OFFSET, UserCodec, UserView,
};

/// One user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The user's id, also the map's key.
    pub id: u64,
    /// Display name (UTF-8, at most [`MAX_TEXT_LENGTH`] bytes).
    pub name: String,
    /// E-mail address (UTF-8, at most [`MAX_TEXT_LENGTH`] bytes).
    pub email: String,
    /// ISO 3166 alpha-2 country code: two ASCII capital letters.
    pub country: [u8; 2],
    /// Account status.
    pub status: Status,
    /// Registration time, ms since the Unix epoch.
    pub registered_ms: i64,
    /// Last login time, ms since the Unix epoch.
    pub last_login_ms: i64,
    /// Ids of the user's friends (at most [`MAX_FRIENDS`]).
    pub friends: Vec<u64>,
}

/// An account's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// In use.
    Active,
    /// Blocked for a while.
    Suspended,
    /// Closed by its owner.
    Closed,
}

impl Status {
    /// Its code in the flyweight layout.
    pub fn code(self) -> u8 {
        match self {
            Status::Active => 0,
            Status::Suspended => 1,
            Status::Closed => 2,
        }
    }

    /// The status of a code, if it is one.
    pub fn from_code(code: u8) -> Option<Status> {
        match code {
            0 => Some(Status::Active),
            1 => Some(Status::Suspended),
            2 => Some(Status::Closed),
            _ => None,
        }
    }

    /// Its name in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Suspended => "suspended",
            Status::Closed => "closed",
        }
    }
}

/// The countries [`generate`] draws from.
pub const COUNTRIES: [[u8; 2]; 16] = [
    *b"DE", *b"US", *b"GB", *b"FR", *b"JP", *b"IN", *b"BR", *b"CN", *b"IT", *b"ES", *b"CA", *b"AU",
    *b"NL", *b"SE", *b"PL", *b"MX",
];

/// The earliest registration time [`generate`] gives: 2011-03-13.
pub const FIRST_REGISTRATION_MS: i64 = 1_300_000_000_000;

/// splitmix64's finalizer: the generator's source of every "random" choice, a pure function of
/// its input, identical in Java (`Users.mix`).
///
/// ```
/// assert_eq!(sympathy_map::user::mix(0), 0xe220_a839_7b1d_cdaf);
/// ```
#[inline]
pub const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// User `id` of a population of `population` users (ids `0..population`): the same user in
/// every run and in both languages. Name `user<id>`, e-mail `user<id>@example.com`, a country
/// of [`COUNTRIES`], 95% active, 4% suspended, 1% closed, registered over ten years from
/// [`FIRST_REGISTRATION_MS`], last seen within a year of it, and 0 to 8 friends (4 on average)
/// drawn from the population (none when it is empty).
///
/// ```
/// let u = sympathy_map::user::generate(7, 100);
/// assert_eq!(u.name, "user7");
/// assert!(u.friends.len() <= 8 && u.friends.iter().all(|&f| f < 100));
/// ```
pub fn generate(id: u64, population: u64) -> User {
    let r = mix(id);
    let friends = friends_of(id, population).collect();
    let registered_ms = FIRST_REGISTRATION_MS + (r % 315_360_000_000) as i64;
    let status = match r % 100 {
        0..95 => Status::Active,
        95..99 => Status::Suspended,
        _ => Status::Closed,
    };
    User {
        id,
        name: format!("user{id}"),
        email: format!("user{id}@example.com"),
        country: COUNTRIES[((r >> 8) % 16) as usize],
        status,
        registered_ms,
        last_login_ms: registered_ms + (mix(r) % 31_536_000_000) as i64,
        friends,
    }
}

/// The friends of user `id` of a population, as [`generate`] gives them, without building the
/// user (for checksums).
///
/// ```
/// use sympathy_map::user::{friends_of, generate};
/// assert!(friends_of(9, 50).eq(generate(9, 50).friends));
/// ```
pub fn friends_of(id: u64, population: u64) -> impl ExactSizeIterator<Item = u64> {
    let r = mix(id);
    let count = if population == 0 {
        0
    } else {
        ((r >> 16) % 9) as u32
    };
    (0..count).map(move |k| mix(r.wrapping_add(u64::from(k) + 1)) % population)
}

/// Bytes the flyweight encoding of user `id` takes ([`FlyweightCodec`]), without building it.
///
/// ```
/// use sympathy_map::user::{FlyweightCodec, UserCodec, flyweight_len_of, generate};
/// assert_eq!(flyweight_len_of(123, 1000), FlyweightCodec.encoded_len(&generate(123, 1000)));
/// ```
pub fn flyweight_len_of(id: u64, population: u64) -> usize {
    let digits = id.checked_ilog10().unwrap_or(0) as usize + 1;
    // "user<id>" and "user<id>@example.com"
    USER_FIXED_LENGTH + 8 * friends_of(id, population).len() + (4 + digits) + (4 + digits + 12)
}

/// The size of a map for users `0..users` in the flyweight layout: slots at load <= 1/2, a data
/// area with room for their exact records plus a quarter (the Java `Users.mapConfig`).
///
/// # Errors
/// [`MapError::BadConfig`](crate::MapError::BadConfig) for more users than one map holds, said
/// before the sizing walks their records (a walk of 2^64 ids would not end).
///
/// ```
/// let config = sympathy_map::user::map_config(1000)?;
/// assert_eq!(config.slots, 2048);
/// assert!(sympathy_map::user::map_config(10_000_000_000).is_err());
/// # Ok::<(), sympathy_map::MapError>(())
/// ```
pub fn map_config(users: u64) -> Result<crate::MapConfig, crate::MapError> {
    // The entry count alone first: the walk below is one step per user.
    crate::MapConfig::for_entries(users, 0)?;
    let bytes: u64 = (0..users)
        .map(|id| crate::layout::record_length(flyweight_len_of(id, users) as u64))
        .sum();
    let mean = bytes.checked_div(users).unwrap_or(0);
    Ok(
        crate::MapConfig::for_entries(users, mean.saturating_sub(16) + 8)?
            .with_value_format(crate::layout::VALUE_FORMAT_USER_FLYWEIGHT),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_pinned() {
        // The same values the Java UsersTest pins: a change here must change both.
        let u = generate(1, 1_000_000);
        assert_eq!(u.name, "user1");
        assert_eq!(u.email, "user1@example.com");
        assert_eq!(
            (u.country, u.status, u.registered_ms, u.last_login_ms),
            (*b"NL", Status::Active, 1_532_160_822_465, 1_542_570_246_623)
        );
        assert_eq!(
            u.friends,
            [
                790_915, 381_227, 39_575, 94_435, 471_666, 80_818, 254_924, 91_801
            ]
        );
    }

    #[test]
    fn friends_average_four() {
        let total: usize = (0..100_000)
            .map(|i| generate(i, 100_000).friends.len())
            .sum();
        assert!((390_000..410_000).contains(&total), "{total}");
    }
}
