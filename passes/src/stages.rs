//! Triton's compilation stages as named pipelines: `--make-ttir` runs the
//! passes of Triton 3.6's `make_ttir`, in its order.

use crate::options::PassOptions;

/// The GPU a stage compiles for, written `cuda:<capability>` as in Triton
/// (`cuda:90` for an H100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The compute capability as major * 10 + minor.
    pub capability: u32,
}

impl Target {
    /// The H100, this project's reference GPU.
    pub const DEFAULT: Target = Target { capability: 90 };

    /// Parses `cuda:<capability>`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let capability = text
            .strip_prefix("cuda:")
            .and_then(|c| c.parse::<u32>().ok())
            .filter(|&c| c > 0)
            .ok_or_else(|| {
                format!("invalid target '{text}': expected 'cuda:<capability>', e.g. 'cuda:90'")
            })?;
        Ok(Self { capability })
    }

    /// The `target` option of `options`, or [`Target::DEFAULT`].
    pub fn from_options(options: &PassOptions) -> Result<Self, String> {
        options.get("target").map_or(Ok(Self::DEFAULT), Self::parse)
    }
}

/// The passes of `make_ttir`. Tensor descriptors are lowered to pointers
/// only below capability 90, where there is no TMA.
pub fn make_ttir(options: &PassOptions) -> Result<String, String> {
    let target = Target::from_options(options)?;
    let mut passes = vec!["inline", "triton-rewrite-tensor-pointer"];
    if target.capability < 90 {
        passes.push("triton-rewrite-tensor-descriptor-to-pointer");
    }
    passes.extend([
        "canonicalize",
        "triton-combine",
        "triton-reorder-broadcast",
        "cse",
        "symbol-dce",
        "triton-loop-unroll",
    ]);
    Ok(passes.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_parse_and_reject_garbage() {
        assert_eq!(Target::parse("cuda:80").unwrap().capability, 80);
        assert!(Target::parse("cuda:").is_err());
        assert!(Target::parse("hip:gfx942")
            .unwrap_err()
            .contains("cuda:<capability>"));
    }

    #[test]
    fn make_ttir_lowers_descriptors_only_before_hopper() {
        let hopper = make_ttir(&PassOptions::default()).unwrap();
        assert!(!hopper.contains("descriptor"));
        assert!(hopper.starts_with("inline,triton-rewrite-tensor-pointer,canonicalize"));
        let ampere = make_ttir(&PassOptions::parse("target=cuda:80").unwrap()).unwrap();
        assert!(ampere.contains("triton-rewrite-tensor-pointer,triton-rewrite-tensor-descriptor-to-pointer,canonicalize"));
    }
}
