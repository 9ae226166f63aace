//! File writes that a kill cannot leave half done.

use crate::error::{Error, Result};
use std::path::Path;

/// Writes `text` to `path` atomically: a temporary file in the same folder,
/// then a rename, so a reader (or a kill) never sees half a file.
///
/// # Errors
/// [`Error::Io`].
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension(format!(
        "{}.tmp",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    std::fs::write(&tmp, text).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
}
