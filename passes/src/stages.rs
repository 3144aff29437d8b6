//! Triton's compilation stages as named pipelines: `--make-ttir` and
//! `--make-ttgir` run the passes of Triton 3.6's `make_ttir` and
//! `make_ttgir`, in its order.

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

/// An integer option of a stage, with its default; it must be a positive
/// power of two when `power_of_two`.
fn count(
    options: &PassOptions,
    name: &str,
    default: u32,
    power_of_two: bool,
) -> Result<u32, String> {
    let Some(text) = options.get(name) else {
        return Ok(default);
    };
    let value: u32 = text
        .parse()
        .map_err(|_| format!("option '{name}' must be a positive integer, not '{text}'"))?;
    if value == 0 || (power_of_two && !value.is_power_of_two()) {
        let what = if power_of_two {
            "a power of two"
        } else {
            "positive"
        };
        return Err(format!("option '{name}' must be {what}, not {value}"));
    }
    Ok(value)
}

/// The stage `make_ttgir` as a pipeline. Until every pass of the stage
/// exists, this says which ones are missing.
pub fn make_ttgir(options: &PassOptions) -> Result<String, String> {
    let p = make_ttgir_passes(options)?;
    let missing: Vec<&str> = p
        .iter()
        .map(|element| element.split('{').next().unwrap_or(element))
        .filter(|name| crate::registry::lookup(name).is_err())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "make-ttgir cannot run yet: {} not implemented ({})",
            if missing.len() == 1 {
                "this pass is"
            } else {
                "these passes are"
            },
            missing.join(", ")
        ));
    }
    Ok(p.join(","))
}

/// The passes of `make_ttgir` for the target's capability (below 100: the
/// Hopper and Ampere pipelines; Blackwell's is not supported yet), with
/// their options.
fn make_ttgir_passes(options: &PassOptions) -> Result<Vec<String>, String> {
    let target = Target::from_options(options)?;
    let cc = target.capability;
    if cc >= 100 {
        return Err(format!(
            "make-ttgir does not support capability {cc} (Blackwell's pipeline) yet"
        ));
    }
    let warps = count(options, "num-warps", 4, true)?;
    let ctas = count(options, "num-ctas", 1, false)?;
    let stages = count(options, "num-stages", 3, false)?;
    let threads = count(options, "threads-per-warp", 32, true)?;
    // Twice, as in Triton, on every target; hoisting only from sm_80.
    let optimize_dot_operands = format!(
        "tritongpu-optimize-dot-operands{{hoist-layout-conversion={}}}",
        cc >= 80
    );
    let mut p: Vec<String> = vec![
        format!(
            "convert-triton-to-tritongpu{{target=cuda:{cc} num-warps={warps} threads-per-warp={threads} num-ctas={ctas}}}"
        ),
        "tritongpu-coalesce".into(),
        format!("tritongpu-F32DotTC{{emu-tf32={}}}", cc / 10 >= 8),
        "triton-nvidia-gpu-plan-cta".into(),
        "tritongpu-remove-layout-conversions".into(),
        "tritongpu-optimize-thread-locality".into(),
        "tritongpu-accelerate-matmul".into(),
        "tritongpu-remove-layout-conversions".into(),
    ];
    p.push(optimize_dot_operands.clone());
    p.push("triton-nvidia-optimize-descriptor-encoding".into());
    p.push("triton-loop-aware-cse".into());
    if cc / 10 == 8 || cc / 10 == 9 {
        p.extend(
            [
                "tritongpu-fuse-nested-loops",
                "canonicalize",
                "triton-licm",
                "canonicalize",
                "tritongpu-combine-tensor-select-and-if",
            ]
            .map(String::from),
        );
        p.push(format!("nvgpu-warp-specialization{{num-stages={stages}}}"));
        p.push(format!("tritongpu-assign-latencies{{num-stages={stages}}}"));
        p.push("tritongpu-schedule-loops".into());
        p.push(format!("tritongpu-pipeline{{num-stages={stages}}}"));
    } else {
        p.push("triton-licm".into());
    }
    p.extend(
        [
            "canonicalize",
            "triton-loop-aware-cse",
            "tritongpu-prefetch",
        ]
        .map(String::from),
    );
    p.push(optimize_dot_operands);
    p.extend(
        [
            "tritongpu-coalesce-async-copy",
            "triton-nvidia-optimize-tmem-layouts",
        ]
        .map(String::from),
    );
    if cc >= 90 {
        p.push("triton-nvidia-tma-lowering".into());
    }
    p.extend(
        [
            "tritongpu-remove-layout-conversions",
            "triton-nvidia-interleave-tmem",
            "tritongpu-reduce-data-duplication",
            "tritongpu-reorder-instructions",
            "triton-loop-aware-cse",
            "symbol-dce",
        ]
        .map(String::from),
    );
    p.push(format!(
        "triton-nvidia-gpu-fence-insertion{{compute-capability={cc}}}"
    ));
    p.extend(["triton-nvidia-mma-lowering", "sccp", "cse", "canonicalize"].map(String::from));
    Ok(p)
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

    #[test]
    fn make_ttgir_follows_the_capability() {
        let passes = |text: &str| make_ttgir_passes(&PassOptions::parse(text).unwrap());
        let hopper = passes("num-warps=8 num-stages=2").unwrap().join(",");
        assert!(hopper.starts_with(
            "convert-triton-to-tritongpu{target=cuda:90 num-warps=8 threads-per-warp=32 num-ctas=1},tritongpu-coalesce,tritongpu-F32DotTC{emu-tf32=true}"
        ));
        assert!(hopper.contains("tritongpu-pipeline{num-stages=2}"));
        assert!(hopper.contains("triton-nvidia-tma-lowering"));
        assert!(hopper.ends_with("triton-nvidia-mma-lowering,sccp,cse,canonicalize"));
        let turing = passes("target=cuda:75").unwrap().join(",");
        assert!(!turing.contains("pipeline"));
        assert!(turing.contains("tritongpu-optimize-dot-operands{hoist-layout-conversion=false}"));
        assert!(hopper.contains("tritongpu-optimize-dot-operands{hoist-layout-conversion=true}"));
        assert!(passes("target=cuda:100").unwrap_err().contains("Blackwell"));
        assert!(passes("num-warps=3").unwrap_err().contains("power of two"));
    }

    #[test]
    fn make_ttgir_names_exactly_the_missing_passes() {
        let options = PassOptions::default();
        let missing: Vec<String> = make_ttgir_passes(&options)
            .unwrap()
            .iter()
            .map(|e| e.split('{').next().unwrap().to_owned())
            .filter(|name| crate::registry::lookup(name).is_err())
            .collect();
        match make_ttgir(&options) {
            Ok(_) => assert!(missing.is_empty()),
            Err(e) => {
                assert!(!missing.is_empty());
                for name in &missing {
                    assert!(e.contains(name.as_str()), "{e}");
                }
            }
        }
    }
}
