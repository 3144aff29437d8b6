//! `make-llir`: Triton 3.6's `make_llir` stage as a named pipeline, from
//! TritonGPU IR to an LLVM-dialect module ready for translation.
//!
//! `enable-line-info` (debug scopes, hence `.loc` lines in the PTX) runs
//! last unless `line-info=false`, the counterpart of Triton's
//! `TRITON_DISABLE_LINE_INFO`.

use tt_passes::{options::PassOptions, registry, stages::Target};

/// Triton's PTX version for CUDA 13 toolchains on this LLVM (`.version 8.7`).
pub const DEFAULT_PTX_VERSION: u32 = 87;

/// The stage's pass list for the options (`target=cuda:NN`,
/// `ptx-version=NN`), or which of its passes are missing.
pub fn make_llir(options: &PassOptions) -> Result<String, String> {
    let target = Target::from_options(options)?;
    let ptx = match options.get("ptx-version") {
        None => DEFAULT_PTX_VERSION,
        Some(text) => text.parse().map_err(|_| {
            format!("option 'ptx-version' must be a number such as 87, not '{text}'")
        })?,
    };
    let line_info = options.flag("line-info", true)?;
    let cc = target.capability;
    if !(70..100).contains(&cc) {
        return Err(format!(
            "make-llir supports cuda:70 to cuda:99, not cuda:{cc}"
        ));
    }
    let mut passes = vec![
        "tritongpu-combine-tensor-select-and-if".to_owned(),
        "tritongpu-allocate-warp-groups".to_owned(),
        "convert-scf-to-cf".to_owned(),
        "gluon-inline".to_owned(),
        format!("allocate-shared-memory-nv{{compute-capability={cc} ptx-version={ptx}}}"),
        "triton-tensor-memory-allocation".to_owned(),
        "triton-nvidia-check-matmul-two-cta".to_owned(),
        "tritongpu-global-scratch-memory-allocation".to_owned(),
        format!("triton-nvidia-gpu-proxy-fence-insertion{{compute-capability={cc}}}"),
        format!("convert-triton-gpu-to-llvm{{compute-capability={cc} ptx-version={ptx}}}"),
        "canonicalize".to_owned(),
        "cse".to_owned(),
        "convert-nv-gpu-to-llvm".to_owned(),
        "convert-warp-specialize-to-llvm".to_owned(),
        "canonicalize".to_owned(),
        "cse".to_owned(),
        "symbol-dce".to_owned(),
        "convert-nvvm-to-llvm".to_owned(),
    ];
    if line_info {
        passes.push("enable-line-info".to_owned());
    }
    let missing: Vec<&str> = passes
        .iter()
        .map(|p| p.split('{').next().unwrap_or(p))
        .filter(|name| registry::lookup(name).is_err())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "make-llir cannot run yet: not implemented: {}",
            missing.join(", ")
        ));
    }
    Ok(passes.join(","))
}
