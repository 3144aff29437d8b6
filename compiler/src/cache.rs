//! The on-disk compilation cache.
//!
//! An entry is one JSON file named by the SHA-256 of the input text, the
//! options, the last stage asked for and the compiler's identity (its
//! version and the size and modification time of the running executable,
//! so that a rebuilt compiler does not reuse the old one's results). It
//! holds every stage's text and the metadata. Entries are written to a
//! temporary file and renamed into place, so a reader never sees half an
//! entry; an entry that does not read back is treated as a miss.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::{Options, Output, Stage};

/// The environment variable naming the cache folder.
pub const CACHE_DIR_ENV: &str = "TT_CACHE_DIR";

/// Where a compilation's results are cached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Cache {
    /// `$TT_CACHE_DIR`, else `$HOME/.cache/tt-compiler`.
    #[default]
    Default,
    /// This folder.
    Dir(PathBuf),
    /// No caching.
    Off,
}

impl Cache {
    /// The folder, or `None` when caching is off (or there is no home).
    pub fn dir(&self) -> Option<PathBuf> {
        match self {
            Cache::Off => None,
            Cache::Dir(dir) => Some(dir.clone()),
            Cache::Default => std::env::var_os(CACHE_DIR_ENV)
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("HOME").map(|home| Path::new(&home).join(".cache/tt-compiler"))
                }),
        }
    }
}

/// The compiler's identity as far as the cache is concerned.
fn compiler_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .ok()
            .map(|m| {
                let modified = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}:{modified}", m.len())
            })
            .unwrap_or_default();
        format!("tt-compiler {} {exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// The key of a compilation: a hex SHA-256.
pub(crate) fn key(name: &str, input: &str, options: &Options, until: Stage) -> String {
    let mut hash = Sha256::new();
    let header = format!(
        "{}\0cap={} warps={} stages={} ctas={} line-info={} make-ttir={} fp-fusion={} \
         reflect-ftz={} libdevice={:?} ptx={} until={until:?}\0",
        compiler_id(),
        options.capability,
        options.num_warps,
        options.num_stages,
        options.num_ctas,
        options.line_info,
        options.make_ttir,
        options.fp_fusion,
        options.reflect_ftz,
        options.libdevice,
        options.ptx_version,
    );
    hash.update(header.as_bytes());
    hash.update(name.as_bytes());
    hash.update(b"\0");
    hash.update(input.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn entry_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.json"))
}

/// The cached output for `key`, if there is a readable one.
pub(crate) fn load(dir: &Path, key: &str) -> Option<Output> {
    let text = std::fs::read_to_string(entry_path(dir, key)).ok()?;
    serde_json::from_str(&text).ok()
}

/// Stores `output` under `key`. Failing to write is not an error: the
/// next compilation just misses.
pub(crate) fn store(dir: &Path, key: &str, output: &Output) {
    let _ = try_store(dir, key, output);
}

fn try_store(dir: &Path, key: &str, output: &Output) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let json = serde_json::to_string(output).map_err(std::io::Error::other)?;
    let temp = dir.join(format!(
        ".{key}.{}.{:?}.tmp",
        std::process::id(),
        std::thread::current().id()
    ));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(json.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temp, entry_path(dir, key))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_depend_on_input_options_and_stage() {
        let options = Options::default();
        let base = key("in", "module {}", &options, Stage::Ptx);
        assert_eq!(base.len(), 64);
        assert_eq!(base, key("in", "module {}", &options, Stage::Ptx));
        assert_ne!(base, key("in", "module { }", &options, Stage::Ptx));
        assert_ne!(base, key("in", "module {}", &options, Stage::Ttgir));
        assert_ne!(base, key("other", "module {}", &options, Stage::Ptx));
        let eight = Options {
            num_warps: 8,
            ..Options::default()
        };
        assert_ne!(base, key("in", "module {}", &eight, Stage::Ptx));
        let unfused = Options {
            fp_fusion: false,
            ..Options::default()
        };
        assert_ne!(base, key("in", "module {}", &unfused, Stage::Ptx));
        let own_libdevice = Options {
            libdevice: Some("/elsewhere/libdevice.10.bc".into()),
            ..Options::default()
        };
        assert_ne!(base, key("in", "module {}", &own_libdevice, Stage::Ptx));
        let uncached = Options {
            cache: Cache::Off,
            ..Options::default()
        };
        assert_eq!(base, key("in", "module {}", &uncached, Stage::Ptx));
    }

    #[test]
    fn entries_round_trip_and_corrupt_ones_miss() {
        let dir = tempfile::tempdir().unwrap();
        let output = Output {
            ttgir: "module {}".into(),
            ..Output::default()
        };
        assert_eq!(load(dir.path(), "k"), None);
        store(dir.path(), "k", &output);
        assert_eq!(load(dir.path(), "k"), Some(output));
        std::fs::write(entry_path(dir.path(), "k"), "{\"ttgir\": 3").unwrap();
        assert_eq!(load(dir.path(), "k"), None);
        // No temporary files are left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }
}
