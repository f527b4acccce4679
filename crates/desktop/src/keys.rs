//! Players' keys: a seat online belongs to the key that took it, so a player keeps its key in a
//! file readable by its owner alone, and the table keeps one per player number in the user's data
//! folder.

use std::path::Path;

use crate::library::data_dir;

/// The table's key for player `n`, made on first use.
///
/// It is the one the table hosts with (player 1) or joins that seat with, so that a table that
/// crashed, or a player who hosted and comes back to the player who continued as host, gets its
/// seat back.
pub fn player_key(n: u32) -> Result<[u8; 32], String> {
    player_key_in(&data_dir()?, n)
}

/// Player `n`'s key in the data folder `data`: `keys/player-N.key`, in a folder only its owner
/// can list.
pub fn player_key_in(data: &Path, n: u32) -> Result<[u8; 32], String> {
    let dir = data.join("keys");
    create_private_dir(&dir)?;
    key_file(&dir.join(format!("player-{n}.key")))
}

/// Creates a folder (and its parents) that only its owner can list.
fn create_private_dir(dir: &Path) -> Result<(), String> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| {
        format!(
            "{}: {e}",
            foehold_core::error::printable(&dir.display().to_string())
        )
    })
}

/// The key kept in `path` (64 hex digits), made and written there when the file does not exist.
///
/// The key is the player's: a new key file is created readable and writable by its owner alone,
/// and never over a file or link already there. Only a regular file of at most
/// [`MAX_KEY_BYTES`] is read as one.
pub fn key_file(path: &Path) -> Result<[u8; 32], String> {
    let name = foehold_core::error::printable(&path.display().to_string()).into_owned();
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() > MAX_KEY_BYTES => Err(format!(
            "{name}: not a key: a file of 64 hex digits was expected, found {} bytes",
            meta.len()
        )),
        Ok(_) => {
            let text = crate::files::read_file(path).map_err(|e| e.to_string())?;
            let text = text.trim();
            let bytes: Vec<u8> = (0..text.len())
                .step_by(2)
                .filter_map(|i| text.get(i..i + 2))
                .filter_map(|h| u8::from_str_radix(h, 16).ok())
                .collect();
            <[u8; 32]>::try_from(bytes.as_slice())
                .ok()
                .filter(|_| text.len() == 64)
                .ok_or_else(|| format!("{name}: not a key: 64 hex digits were expected"))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            use std::io::Write;
            let key = foehold_net::quic::new_key();
            let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options.open(path).map_err(|e| format!("{name}: {e}"))?;
            file.write_all((hex + "\n").as_bytes())
                .map_err(|e| format!("{name}: {e}"))?;
            Ok(key)
        }
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// The largest key file read: a key is one line of 64 hex digits.
pub const MAX_KEY_BYTES: u64 = 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_file_is_its_owners_alone_and_only_a_small_regular_file_is_read() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("me.key");
        let key = key_file(&path).expect("a new key");
        assert_eq!(key_file(&path).expect("read back"), key);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path)
                .expect("there")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{mode:o}");
            let e = key_file(Path::new("/dev/zero")).expect_err("a device");
            assert!(e.contains("not a regular file"), "{e}");
        }
        let big = dir.path().join("big.key");
        std::fs::File::create(&big)
            .and_then(|f| f.set_len(1 << 30))
            .expect("a sparse file");
        let e = key_file(&big).expect_err("too large");
        assert!(e.contains("not a key"), "{e}");
        std::fs::write(&big, "12\n").expect("written");
        assert!(key_file(&big).expect_err("short").contains("64 hex digits"));
    }

    #[test]
    fn a_tables_player_keys_live_in_a_private_folder_one_per_player() {
        let data = tempfile::tempdir().expect("a folder");
        let one = player_key_in(data.path(), 1).expect("made");
        let two = player_key_in(data.path(), 2).expect("made");
        assert_ne!(one, two);
        assert_eq!(player_key_in(data.path(), 1).expect("read back"), one);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let keys = data.path().join("keys");
            let mode = std::fs::metadata(&keys)
                .expect("there")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700, "{mode:o}");
        }
    }
}
