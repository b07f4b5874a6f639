//! A user as JSON, as the lookup service (`sympathy serve-map`, and its Java twin) returns it:
//! byte for byte the same text in both languages.
//!
//! ```text
//! {"id":1,"name":"user1","email":"user1@example.com","country":"NL","status":"active",
//!  "registered_ms":1532160822465,"last_login_ms":1542570246623,
//!  "friends":[790915,381227,39575,94435,471666,80818,254924,91801]}
//! ```
//! (one line). Strings escape `"`, `\` and the control characters below U+0020 (as `\u00XX`);
//! everything else is written as it is.

use std::fmt::Write;

use super::codec::{CodecError, UserView};

/// Appends the JSON of the user `view` to `out`.
///
/// # Errors
/// [`CodecError`] when a text field is not UTF-8 or the country or status is invalid.
///
/// ```
/// use sympathy_map::user::{FlyweightCodec, UserCodec, UserView, generate, json};
/// let user = generate(1, 1_000_000);
/// let mut bytes = vec![0; FlyweightCodec.encoded_len(&user)];
/// FlyweightCodec.encode(&user, &mut bytes);
/// let mut out = String::new();
/// json::write_user(&UserView::new(&bytes)?, &mut out)?;
/// assert!(out.starts_with(r#"{"id":1,"name":"user1","email":"user1@example.com","#));
/// # Ok::<(), sympathy_map::user::CodecError>(())
/// ```
pub fn write_user(view: &UserView<'_>, out: &mut String) -> Result<(), CodecError> {
    let country = view.country_code()?;
    let status = view.status()?;
    // Writing into a String cannot fail: the `fmt::Result`s are unwrapped by `let _`.
    let _ = write!(out, "{{\"id\":{},\"name\":", view.id());
    write_string(view.name()?, out);
    out.push_str(",\"email\":");
    write_string(view.email()?, out);
    let _ = write!(
        out,
        ",\"country\":\"{}{}\",\"status\":\"{}\",\"registered_ms\":{},\"last_login_ms\":{},\"friends\":[",
        country[0] as char,
        country[1] as char,
        status.name(),
        view.registered_ms(),
        view.last_login_ms()
    );
    for (k, friend) in view.friends().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{friend}");
    }
    out.push_str("]}");
    Ok(())
}

/// Appends `text` as a JSON string.
pub fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_is_the_text_the_java_service_writes() {
        use crate::user::{FlyweightCodec, UserCodec, UserView, generate};
        let user = generate(1, 1_000_000);
        let mut bytes = vec![0; FlyweightCodec.encoded_len(&user)];
        FlyweightCodec.encode(&user, &mut bytes);
        let mut out = String::new();
        write_user(&UserView::new(&bytes).unwrap(), &mut out).unwrap();
        // The same text as the Java UsersTest pins.
        assert_eq!(
            out,
            "{\"id\":1,\"name\":\"user1\",\"email\":\"user1@example.com\",\"country\":\"NL\",\
             \"status\":\"active\",\"registered_ms\":1532160822465,\"last_login_ms\":1542570246623,\
             \"friends\":[790915,381227,39575,94435,471666,80818,254924,91801]}"
        );
    }

    #[test]
    fn strings_escape_quotes_backslashes_and_controls() {
        let mut out = String::new();
        write_string("a\"b\\c\nd\u{1}é", &mut out);
        assert_eq!(out, r#""a\"b\\c\u000ad\u0001é""#);
    }
}
