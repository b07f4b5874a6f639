//! A filesystem too small for the ring: `create` fails with `NoSpace` naming the filesystem
//! and leaves no file; a sparse ring file left by an older create is caught by `open` (`reserve_space`)
//! instead of a `SIGBUS` at the first write.

mod small_filesystem;

use std::os::unix::fs::MetadataExt;

use small_filesystem::SmallFilesystem;
use sympathy_ring::{FileError, Ring, RingError, layout};

#[test]
fn create_on_a_filesystem_too_small_fails_names_it_and_leaves_no_file() {
    let Some(fs) = SmallFilesystem::mount("64k") else {
        return;
    };
    let path = fs.dir().join("ring");
    let err = Ring::create(&path, 65536).unwrap_err();
    let RingError::File(FileError::NoSpace {
        filesystem,
        available,
        needed,
        ..
    }) = &err
    else {
        panic!("expected NoSpace, got {err:?}");
    };
    assert_eq!(*needed, layout::file_length(65536) as u64);
    assert!(*available <= 65536, "{err}");
    assert!(filesystem.contains(fs.dir().to_str().unwrap()), "{err}");
    assert!(filesystem.contains("tmpfs"), "{err}");
    let message = err.to_string();
    assert!(message.contains("smaller capacity"), "{message}");
    assert!(message.contains(&format!("{needed} bytes")), "{message}");
    assert!(!path.exists(), "the failed create removed its file");
    // A ring that fits is created, fully allocated.
    let ring = Ring::create(&path, 4096).unwrap();
    let meta = std::fs::metadata(&path).unwrap();
    assert!(meta.blocks() * 512 >= meta.len(), "not sparse: {meta:?}");
    drop(ring);
}

#[test]
fn open_catches_a_sparse_ring_on_a_full_filesystem() {
    let Some(fs) = SmallFilesystem::mount("64k") else {
        return;
    };
    // A ring file as an old create left it: the header page written, the rest a hole.
    let model = std::env::temp_dir().join(format!("sympathy-sparse-model-{}", std::process::id()));
    let _ = std::fs::remove_file(&model);
    drop(Ring::create(&model, 65536).unwrap());
    let header = &std::fs::read(&model).unwrap()[..layout::HEADER_LENGTH];
    std::fs::remove_file(&model).unwrap();
    let path = fs.dir().join("sparse");
    std::fs::write(&path, header).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(layout::file_length(65536) as u64).unwrap();
    // open reserves the holes before it reads the trailer (on tmpfs a read of a hole takes a
    // page, so the check of the positions would fault on a full filesystem).
    let err = Ring::open(&path).unwrap_err();
    assert!(
        matches!(err, RingError::File(FileError::NoSpace { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("tmpfs"), "{err}");
    // A ring that already has its blocks passes.
    let small = fs.dir().join("small");
    drop(Ring::create(&small, 4096).unwrap());
    Ring::open(&small).unwrap().reserve_space().unwrap();
}
