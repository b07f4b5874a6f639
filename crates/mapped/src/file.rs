//! Refusing anything but a regular file before opening it: opening a FIFO for reading waits for
//! a writer, and a device such as `/dev/zero` would pass for a file of endless zeros.

use std::path::Path;

/// What `path` is when it is not a regular file (`metadata` is what it resolves to), naming the
/// symbolic link it was reached by: `"a character device, through a symbolic link to
/// /dev/zero"`; `None` for a regular file.
///
/// ```
/// use sympathy_mapped::file::not_a_regular_file;
/// let dev = std::path::Path::new("/dev/null");
/// let what = not_a_regular_file(dev, &std::fs::metadata(dev).unwrap());
/// assert_eq!(what.as_deref(), Some("a character device"));
/// ```
pub fn not_a_regular_file(path: &Path, metadata: &std::fs::Metadata) -> Option<String> {
    use std::os::unix::fs::FileTypeExt;
    let t = metadata.file_type();
    let what = if t.is_file() {
        return None;
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    };
    let via = match std::fs::read_link(path) {
        Ok(target) => format!(", through a symbolic link to {}", target.display()),
        Err(_) => String::new(),
    };
    Some(format!("{what}{via}"))
}
