//! `tt-run`: runs the corpus kernels on a GPU.
//!
//! ```text
//! tt-run check DIR CORPUS   correctness of DIR/NAME.ptx (+ NAME.json) for the nine
//!                           non-dot corpus kernels; Triton's errors from CORPUS/NAME/result.json
//! tt-run bench DIR          kernel times at gen.py's benchmark sizes
//! ```
//! `check` prints `CHECK name err triton_err PASS|FAIL` per kernel and exits
//! non-zero on any failure; add_print's device printf lines go to stdout.
//! `bench` prints `BENCH name ms`: the median of CUDA-event times around
//! each launch (with gen.py's per-run resets), the L2 flushed before each
//! repetition by writing 256 MB, repetitions for about 300 ms after about
//! 50 ms of warm-up, like `triton.testing.do_bench`.

mod cases;
mod rng;

use std::path::Path;
use std::process::ExitCode;

use cases::{Case, Data, Param, Setup, CASES};
use rng::Rng;
use tt_metadata::{KernelMetadata, Scalar};
use tt_runtime::{Arg, Buffer, Device, Kernel};

const USAGE: &str = "usage: tt-run check DIR CORPUS | tt-run bench DIR";
/// The seed of every case's inputs.
const SEED: u64 = 0x5eed_2026;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["check", dir, corpus] => check(Path::new(dir), Path::new(corpus)),
        ["bench", dir] => bench(Path::new(dir)),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("tt-run: {e}");
            ExitCode::from(2)
        }
    }
}

fn load(device: &Device, dir: &Path, name: &str) -> Result<Kernel, String> {
    let read = |ext: &str| {
        let path = dir.join(format!("{name}.{ext}"));
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let metadata =
        KernelMetadata::from_json(&read("json")?).map_err(|e| format!("{name}.json: {e}"))?;
    device
        .load_ptx(&read("ptx")?, metadata)
        .map_err(|e| e.to_string())
}

/// A case's buffers on the device.
fn upload(device: &Device, setup: &Setup) -> Result<Vec<Buffer>, String> {
    setup
        .buffers
        .iter()
        .map(|data| match data {
            Data::F32(v) => device.upload(v),
            Data::I64(v) => device.upload(v),
            Data::U8(v) => device.upload(v),
            Data::F16(v) => {
                let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
                device.upload_bytes(Scalar::F16, &bytes)
            }
        })
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())
}

/// gen.py's `run()`: the resets, then the launch.
fn run(device: &Device, kernel: &Kernel, setup: &Setup, buffers: &[Buffer]) -> Result<(), String> {
    for &(index, value) in &setup.resets {
        device
            .fill(&buffers[index], value)
            .map_err(|e| e.to_string())?;
    }
    let args: Vec<Arg> = setup
        .params
        .iter()
        .map(|p| match *p {
            Param::Buf(i) => Arg::Buffer(&buffers[i]),
            Param::I32(v) => Arg::I32(v),
        })
        .collect();
    device
        .launch(kernel, setup.grid, &args)
        .map_err(|e| e.to_string())
}

/// Triton's error for a case, from the corpus's result.json.
fn triton_error(corpus: &Path, name: &str) -> Result<f64, String> {
    let path = corpus.join(name).join("result.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value = text
        .split_once("\"err\":")
        .map(|(_, rest)| rest.trim_start())
        .and_then(|rest| rest.split([',', '}']).next())
        .ok_or_else(|| format!("{}: no \"err\" field", path.display()))?;
    value
        .trim()
        .parse()
        .map_err(|e| format!("{}: bad \"err\" value '{value}': {e}", path.display()))
}

/// Runs one case at correctness size; its error.
fn check_one(device: &Device, dir: &Path, case: &Case) -> Result<f64, String> {
    let kernel = load(device, dir, case.name)?;
    let setup = (case.setup)(false, &mut Rng::new(SEED));
    let buffers = upload(device, &setup)?;
    run(device, &kernel, &setup, &buffers)?;
    device.synchronize().map_err(|e| e.to_string())?;
    let after = buffers
        .iter()
        .zip(&setup.buffers)
        .map(|(buffer, before)| match before {
            Data::F32(_) => device.download(buffer).map(Data::F32),
            Data::I64(_) => device.download(buffer).map(Data::I64),
            Data::U8(_) => device.download(buffer).map(Data::U8),
            Data::F16(_) => device.download_bytes(buffer).map(|bytes| {
                Data::F16(
                    bytes
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect(),
                )
            }),
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    (case.error)(&after, &setup.params)
        .ok_or_else(|| "internal: a buffer has the wrong type".into())
}

fn check(dir: &Path, corpus: &Path) -> Result<bool, String> {
    let device = Device::open(0).map_err(|e| e.to_string())?;
    let mut all = true;
    for case in CASES {
        let triton = triton_error(corpus, case.name)?;
        match check_one(&device, dir, case) {
            Ok(err) => {
                let pass = case.bound.passes(err, triton);
                all &= pass;
                let verdict = if pass { "PASS" } else { "FAIL" };
                println!("CHECK {} {err:e} {triton:e} {verdict}", case.name);
            }
            Err(e) => {
                all = false;
                println!("CHECK {} - {triton:e} FAIL ({e})", case.name);
            }
        }
    }
    Ok(all)
}

/// The median time in ms of one case at benchmark size.
fn bench_one(device: &Device, dir: &Path, case: &Case, flush: &Buffer) -> Result<f64, String> {
    let kernel = load(device, dir, case.name)?;
    let setup = (case.setup)(true, &mut Rng::new(SEED));
    let buffers = upload(device, &setup)?;
    let e = |e: tt_runtime::RuntimeError| e.to_string();
    let timed_run = || run(device, &kernel, &setup, &buffers);
    timed_run()?;
    device.synchronize().map_err(e)?;
    // Estimate, as do_bench does: five flushed runs.
    let start = device.record_event().map_err(e)?;
    for _ in 0..5 {
        device.fill(flush, 0i32).map_err(e)?;
        timed_run()?;
    }
    let end = device.record_event().map_err(e)?;
    device.synchronize().map_err(e)?;
    let estimate = (start.elapsed_ms(&end).map_err(e)? as f64 / 5.0).max(1e-3);
    for _ in 0..((50.0 / estimate) as usize).max(1) {
        timed_run()?;
    }
    let reps = ((300.0 / estimate) as usize).max(1);
    let mut events = Vec::with_capacity(reps);
    for _ in 0..reps {
        device.fill(flush, 0i32).map_err(e)?;
        let start = device.record_event().map_err(e)?;
        timed_run()?;
        events.push((start, device.record_event().map_err(e)?));
    }
    device.synchronize().map_err(e)?;
    let mut times = events
        .iter()
        .map(|(s, t)| s.elapsed_ms(t).map(f64::from))
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    times.sort_by(f64::total_cmp);
    Ok(median(&times))
}

/// The median of sorted values (the mean of the middle two for an even count, like torch).
fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

fn bench(dir: &Path) -> Result<bool, String> {
    let device = Device::open(0).map_err(|e| e.to_string())?;
    let flush = device
        .alloc_zeros(Scalar::I32, 64 << 20)
        .map_err(|e| e.to_string())?;
    let mut all = true;
    for case in CASES.iter().filter(|c| c.bench) {
        match bench_one(&device, dir, case, &flush) {
            Ok(ms) => println!("BENCH {} {ms:.5}", case.name),
            Err(e) => {
                all = false;
                println!("BENCH {} - ({e})", case.name);
            }
        }
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_follow_torch() {
        assert_eq!(median(&[1.0, 2.0, 9.0]), 2.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 9.0]), 3.0);
    }

    #[test]
    fn triton_errors_are_read_from_result_json() {
        let dir = std::env::temp_dir().join(format!("tt-run-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("k")).unwrap();
        std::fs::write(
            dir.join("k/result.json"),
            r#"{"case": "k", "err": 8.9e-08, "x": 1}"#,
        )
        .unwrap();
        assert_eq!(triton_error(&dir, "k").unwrap(), 8.9e-8);
        std::fs::write(dir.join("k/result.json"), r#"{"case": "k"}"#).unwrap();
        assert!(triton_error(&dir, "k")
            .unwrap_err()
            .ends_with("no \"err\" field"));
        assert!(triton_error(&dir, "absent").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
