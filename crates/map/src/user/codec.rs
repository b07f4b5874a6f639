//! The value encodings of a [`User`]: the [`UserCodec`] seam and the flyweight layout (value
//! format 1 of `docs/map-layout.md`), read in place by [`UserView`].
//!
//! ```text
//!   0 id (u64)   8 registered_ms (i64)   16 last_login_ms (i64)
//!  24 friend_count (u16)   26 name_length (u8)   27 email_length (u8)
//!  28 country (2 ASCII bytes)   30 status (u8)   31 reserved (u8, 0)
//!  32 friends: friend_count x u64, then the name's bytes, then the e-mail's (UTF-8)
//! ```

use super::{Status, User};
use crate::layout::VALUE_FORMAT_USER_FLYWEIGHT;

/// u64 id.
pub const USER_ID_OFFSET: usize = 0;
/// i64 registration time.
pub const USER_REGISTERED_OFFSET: usize = 8;
/// i64 last login time.
pub const USER_LAST_LOGIN_OFFSET: usize = 16;
/// u16 number of friends.
pub const USER_FRIEND_COUNT_OFFSET: usize = 24;
/// u8 bytes of the name.
pub const USER_NAME_LENGTH_OFFSET: usize = 26;
/// u8 bytes of the e-mail.
pub const USER_EMAIL_LENGTH_OFFSET: usize = 27;
/// Two ASCII bytes of the country.
pub const USER_COUNTRY_OFFSET: usize = 28;
/// u8 status code.
pub const USER_STATUS_OFFSET: usize = 30;
/// The friends' ids start here (8-aligned in a record: values start 16 bytes into one).
pub const USER_FRIENDS_OFFSET: usize = 32;
/// Bytes before the friends.
pub const USER_FIXED_LENGTH: usize = 32;
/// The most friends a user may have.
pub const MAX_FRIENDS: usize = u16::MAX as usize;
/// The longest name or e-mail, in bytes.
pub const MAX_TEXT_LENGTH: usize = u8::MAX as usize;

/// A value that is not a well-formed encoded user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a well-formed user value: {what}")]
pub struct CodecError {
    /// What is wrong.
    pub what: String,
}

fn bad(what: String) -> CodecError {
    CodecError { what }
}

/// A way to encode users as map values: the seam where encodings plug in (the flyweight here;
/// an SBE codec implements the same trait with [`crate::layout::VALUE_FORMAT_USER_SBE`]).
/// Encoding writes in place ([`crate::Writer::put_with`] hands it the record's bytes).
pub trait UserCodec {
    /// The map's `value_format` for values of this codec.
    const FORMAT: u32;

    /// Bytes `user` takes.
    ///
    /// # Panics
    /// When the user cannot be encoded (a name or e-mail over [`MAX_TEXT_LENGTH`] bytes, more
    /// than [`MAX_FRIENDS`] friends); [`UserCodec::check`] says so without panicking.
    fn encoded_len(&self, user: &User) -> usize;

    /// Writes `user` into `out`, which is exactly [`UserCodec::encoded_len`] bytes.
    fn encode(&self, user: &User, out: &mut [u8]);

    /// Reads a user back.
    ///
    /// # Errors
    /// [`CodecError`] when `bytes` are not a well-formed value.
    fn decode(&self, bytes: &[u8]) -> Result<User, CodecError>;

    /// The id and the number of friends of an encoded user: in place where the encoding allows
    /// (the default decodes the whole user).
    ///
    /// # Errors
    /// [`CodecError`] when `bytes` are not a well-formed value.
    fn id_and_friend_count(&self, bytes: &[u8]) -> Result<(u64, usize), CodecError> {
        let user = self.decode(bytes)?;
        Ok((user.id, user.friends.len()))
    }

    /// Calls `each` with every friend's id: in place where the encoding allows (the default
    /// decodes the whole user).
    ///
    /// # Errors
    /// [`CodecError`] when `bytes` are not a well-formed value.
    fn for_each_friend(&self, bytes: &[u8], mut each: impl FnMut(u64)) -> Result<(), CodecError> {
        self.decode(bytes)?.friends.into_iter().for_each(&mut each);
        Ok(())
    }

    /// Whether `user` can be encoded.
    ///
    /// # Errors
    /// [`CodecError`] naming the field that is too long.
    fn check(&self, user: &User) -> Result<(), CodecError> {
        if user.name.len() > MAX_TEXT_LENGTH || user.email.len() > MAX_TEXT_LENGTH {
            return Err(bad(format!(
                "name ({} bytes) or e-mail ({} bytes) over {MAX_TEXT_LENGTH} bytes",
                user.name.len(),
                user.email.len()
            )));
        }
        if user.friends.len() > MAX_FRIENDS {
            return Err(bad(format!(
                "{} friends, over {MAX_FRIENDS}",
                user.friends.len()
            )));
        }
        if !user.country.iter().all(u8::is_ascii_uppercase) {
            return Err(bad(format!(
                "country {:?} is not two capital letters",
                user.country
            )));
        }
        Ok(())
    }
}

/// The flyweight layout: fixed offsets, the friends in place, read without decoding by
/// [`UserView`] (the seed's "struct emulation" and the project's hand codecs).
#[derive(Debug, Clone, Copy, Default)]
pub struct FlyweightCodec;

impl UserCodec for FlyweightCodec {
    const FORMAT: u32 = VALUE_FORMAT_USER_FLYWEIGHT;

    #[inline]
    fn encoded_len(&self, user: &User) -> usize {
        assert!(
            user.friends.len() <= MAX_FRIENDS
                && user.name.len() <= MAX_TEXT_LENGTH
                && user.email.len() <= MAX_TEXT_LENGTH,
            "user {} cannot be encoded (UserCodec::check says why)",
            user.id
        );
        USER_FIXED_LENGTH + 8 * user.friends.len() + user.name.len() + user.email.len()
    }

    #[inline]
    fn encode(&self, user: &User, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            self.encoded_len(user),
            "the buffer is the encoded length"
        );
        out[USER_ID_OFFSET..8].copy_from_slice(&user.id.to_le_bytes());
        out[USER_REGISTERED_OFFSET..16].copy_from_slice(&user.registered_ms.to_le_bytes());
        out[USER_LAST_LOGIN_OFFSET..24].copy_from_slice(&user.last_login_ms.to_le_bytes());
        out[USER_FRIEND_COUNT_OFFSET..26]
            .copy_from_slice(&(user.friends.len() as u16).to_le_bytes());
        out[USER_NAME_LENGTH_OFFSET] = user.name.len() as u8;
        out[USER_EMAIL_LENGTH_OFFSET] = user.email.len() as u8;
        out[USER_COUNTRY_OFFSET..30].copy_from_slice(&user.country);
        out[USER_STATUS_OFFSET] = user.status.code();
        out[31] = 0;
        let mut at = USER_FRIENDS_OFFSET;
        for friend in &user.friends {
            out[at..at + 8].copy_from_slice(&friend.to_le_bytes());
            at += 8;
        }
        out[at..at + user.name.len()].copy_from_slice(user.name.as_bytes());
        at += user.name.len();
        out[at..].copy_from_slice(user.email.as_bytes());
    }

    #[inline]
    fn id_and_friend_count(&self, bytes: &[u8]) -> Result<(u64, usize), CodecError> {
        let view = UserView::new(bytes)?;
        Ok((view.id(), view.friend_count()))
    }

    #[inline]
    fn for_each_friend(&self, bytes: &[u8], each: impl FnMut(u64)) -> Result<(), CodecError> {
        UserView::new(bytes)?.friends().for_each(each);
        Ok(())
    }

    fn decode(&self, bytes: &[u8]) -> Result<User, CodecError> {
        let view = UserView::new(bytes)?;
        Ok(User {
            id: view.id(),
            name: view.name()?.to_owned(),
            email: view.email()?.to_owned(),
            country: view.country_code()?,
            status: view.status()?,
            registered_ms: view.registered_ms(),
            last_login_ms: view.last_login_ms(),
            friends: view.friends().collect(),
        })
    }
}

/// A user read in place from flyweight bytes (no copy, no allocation): fixed fields at fixed
/// offsets, the friends as an iterator over the bytes.
#[derive(Debug, Clone, Copy)]
pub struct UserView<'a> {
    bytes: &'a [u8],
    friend_count: usize,
}

impl<'a> UserView<'a> {
    /// A view of `bytes`, checked to be exactly as long as its lengths say.
    ///
    /// # Errors
    /// [`CodecError`] when the bytes are shorter or longer than their lengths imply.
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Result<UserView<'a>, CodecError> {
        if bytes.len() < USER_FIXED_LENGTH {
            return Err(bad(format!(
                "{} bytes, shorter than the {USER_FIXED_LENGTH} fixed bytes",
                bytes.len()
            )));
        }
        let friend_count = u16::from_le_bytes([bytes[24], bytes[25]]) as usize;
        let expected = USER_FIXED_LENGTH
            + 8 * friend_count
            + bytes[USER_NAME_LENGTH_OFFSET] as usize
            + bytes[USER_EMAIL_LENGTH_OFFSET] as usize;
        if bytes.len() != expected {
            return Err(bad(format!(
                "{} bytes, but its {friend_count} friends, name and e-mail lengths make {expected}",
                bytes.len()
            )));
        }
        Ok(UserView {
            bytes,
            friend_count,
        })
    }

    #[inline(always)]
    fn u64_at(&self, offset: usize) -> u64 {
        let mut word = [0; 8];
        word.copy_from_slice(&self.bytes[offset..offset + 8]);
        u64::from_le_bytes(word)
    }

    /// The id.
    #[inline]
    pub fn id(&self) -> u64 {
        self.u64_at(USER_ID_OFFSET)
    }

    /// Registration time, ms since the Unix epoch.
    pub fn registered_ms(&self) -> i64 {
        self.u64_at(USER_REGISTERED_OFFSET) as i64
    }

    /// Last login time, ms since the Unix epoch.
    pub fn last_login_ms(&self) -> i64 {
        self.u64_at(USER_LAST_LOGIN_OFFSET) as i64
    }

    /// How many friends.
    #[inline]
    pub fn friend_count(&self) -> usize {
        self.friend_count
    }

    /// Friend `k` (< [`UserView::friend_count`]).
    #[inline]
    pub fn friend(&self, k: usize) -> u64 {
        assert!(k < self.friend_count, "friend {k} of {}", self.friend_count);
        self.u64_at(USER_FRIENDS_OFFSET + 8 * k)
    }

    /// The friends' ids, in place.
    #[inline]
    pub fn friends(&self) -> impl ExactSizeIterator<Item = u64> + 'a {
        let end = USER_FRIENDS_OFFSET + 8 * self.friend_count;
        self.bytes[USER_FRIENDS_OFFSET..end]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
    }

    fn text(&self, start: usize, length: usize, what: &str) -> Result<&'a str, CodecError> {
        std::str::from_utf8(&self.bytes[start..start + length])
            .map_err(|e| bad(format!("the {what} is not UTF-8: {e}")))
    }

    /// The name.
    ///
    /// # Errors
    /// [`CodecError`] when it is not UTF-8.
    pub fn name(&self) -> Result<&'a str, CodecError> {
        let start = USER_FRIENDS_OFFSET + 8 * self.friend_count;
        self.text(start, self.bytes[USER_NAME_LENGTH_OFFSET] as usize, "name")
    }

    /// The e-mail address.
    ///
    /// # Errors
    /// [`CodecError`] when it is not UTF-8.
    pub fn email(&self) -> Result<&'a str, CodecError> {
        let start = USER_FRIENDS_OFFSET
            + 8 * self.friend_count
            + self.bytes[USER_NAME_LENGTH_OFFSET] as usize;
        self.text(
            start,
            self.bytes[USER_EMAIL_LENGTH_OFFSET] as usize,
            "e-mail",
        )
    }

    /// The country's two bytes.
    ///
    /// # Errors
    /// [`CodecError`] when they are not two ASCII capital letters.
    pub fn country_code(&self) -> Result<[u8; 2], CodecError> {
        let code = [self.bytes[28], self.bytes[29]];
        if code.iter().all(u8::is_ascii_uppercase) {
            Ok(code)
        } else {
            Err(bad(format!(
                "country bytes {code:?} are not two capital letters"
            )))
        }
    }

    /// The status.
    ///
    /// # Errors
    /// [`CodecError`] for an unknown status code.
    pub fn status(&self) -> Result<Status, CodecError> {
        let code = self.bytes[USER_STATUS_OFFSET];
        Status::from_code(code).ok_or_else(|| bad(format!("status code {code} is unknown")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::user::generate;

    #[test]
    fn round_trips_and_views_in_place() {
        for id in 0..2000 {
            let user = generate(id, 2000);
            let mut bytes = vec![0; FlyweightCodec.encoded_len(&user)];
            FlyweightCodec.encode(&user, &mut bytes);
            assert_eq!(FlyweightCodec.decode(&bytes).unwrap(), user);
            let view = UserView::new(&bytes).unwrap();
            assert_eq!(view.friends().collect::<Vec<_>>(), user.friends);
        }
    }

    #[test]
    fn malformed_values_are_refused() {
        let user = generate(5, 10);
        let mut bytes = vec![0; FlyweightCodec.encoded_len(&user)];
        FlyweightCodec.encode(&user, &mut bytes);
        assert!(UserView::new(&bytes[..31]).is_err());
        assert!(UserView::new(&bytes[..bytes.len() - 1]).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(UserView::new(&longer).is_err());
        let mut status = bytes.clone();
        status[USER_STATUS_OFFSET] = 9;
        assert!(FlyweightCodec.decode(&status).is_err());
        let mut name = bytes.clone();
        let at = USER_FRIENDS_OFFSET + 8 * user.friends.len();
        name[at] = 0xff;
        assert!(
            FlyweightCodec
                .decode(&name)
                .unwrap_err()
                .what
                .contains("UTF-8")
        );
    }

    #[test]
    fn a_user_too_large_is_named_by_check() {
        let mut user = generate(5, 10);
        user.name = "x".repeat(256);
        assert!(FlyweightCodec.check(&user).is_err());
    }
}
