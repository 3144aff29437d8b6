//! A thin CUDA runtime for the kernels this project compiles.
//!
//! It loads the driver dynamically (cudarc's `dynamic-loading`), so it
//! builds and its tests run on machines without CUDA: there every entry
//! point returns [`RuntimeError::NoDriver`] instead of panicking. Module
//! loading, buffers and launches build on [`Device`].

use std::fmt;
use std::sync::Arc;

use cudarc::driver::{sys, CudaContext, DriverError};

/// What can go wrong when talking to the GPU.
#[derive(Debug)]
pub enum RuntimeError {
    /// No CUDA driver library could be loaded on this machine.
    NoDriver,
    /// The driver has no device with this ordinal.
    NoDevice { ordinal: usize, count: usize },
    /// The driver reported an error.
    Driver(DriverError),
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuntimeError::NoDriver => {
                f.write_str("no CUDA driver (libcuda) is installed on this machine")
            }
            RuntimeError::NoDevice { ordinal, count } => {
                write!(
                    f,
                    "no CUDA device {ordinal}: the driver reports {count} device(s)"
                )
            }
            RuntimeError::Driver(e) => write!(f, "CUDA driver error: {e}"),
        }
    }
}

impl std::error::Error for RuntimeError {}

impl From<DriverError> for RuntimeError {
    fn from(e: DriverError) -> Self {
        RuntimeError::Driver(e)
    }
}

/// Whether the CUDA driver library can be loaded here.
pub fn driver_present() -> bool {
    unsafe { sys::is_culib_present() }
}

/// Number of CUDA devices, or [`RuntimeError::NoDriver`].
pub fn device_count() -> Result<usize, RuntimeError> {
    if !driver_present() {
        return Err(RuntimeError::NoDriver);
    }
    Ok(CudaContext::device_count()? as usize)
}

/// One GPU with its primary context.
pub struct Device {
    context: Arc<CudaContext>,
    ordinal: usize,
}

impl Device {
    /// Opens device `ordinal`.
    pub fn open(ordinal: usize) -> Result<Self, RuntimeError> {
        let count = device_count()?;
        if ordinal >= count {
            return Err(RuntimeError::NoDevice { ordinal, count });
        }
        Ok(Self {
            context: CudaContext::new(ordinal)?,
            ordinal,
        })
    }

    /// The device's ordinal.
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// The device's name, as the driver reports it.
    pub fn name(&self) -> Result<String, RuntimeError> {
        Ok(self.context.name()?)
    }

    /// The compute capability, e.g. `(9, 0)` for an H100.
    pub fn compute_capability(&self) -> Result<(i32, i32), RuntimeError> {
        Ok(self.context.compute_capability()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_device_zero_or_reports_why_not() {
        match Device::open(0) {
            Ok(device) => {
                let (major, _) = device.compute_capability().expect("capability");
                assert!(major >= 5, "unexpected compute capability {major}");
                assert!(!device.name().expect("name").is_empty());
            }
            Err(RuntimeError::NoDriver) => {
                assert!(!driver_present());
                eprintln!(
                    "skipped: no CUDA driver on this machine; Device::open reported NoDriver"
                );
            }
            Err(RuntimeError::NoDevice { count, .. }) => {
                assert_eq!(count, 0);
                eprintln!("skipped: the CUDA driver reports no device");
            }
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    #[test]
    fn an_out_of_range_ordinal_is_an_error_not_a_panic() {
        match Device::open(usize::MAX) {
            Err(RuntimeError::NoDriver) | Err(RuntimeError::NoDevice { .. }) => {}
            Err(e) => panic!("unexpected error: {e}"),
            Ok(_) => panic!("device usize::MAX cannot exist"),
        }
    }
}
