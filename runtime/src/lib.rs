//! A thin CUDA runtime for the kernels this project compiles.
//!
//! It loads the driver dynamically (cudarc's `dynamic-loading`), so it
//! builds and its tests run on machines without CUDA: there every entry
//! point returns [`RuntimeError::NoDriver`] instead of panicking.
//!
//! A [`Device`] loads [`Kernel`]s (PTX text or cubin bytes plus their
//! [`KernelMetadata`]), owns typed [`Buffer`]s and launches kernels with
//! Triton's calling convention: the user arguments (checked against the
//! metadata, see [`check_args`]), then the global and the profile scratch
//! pointers, which the runtime allocates (or passes as null when their size
//! is 0). All work runs in order on the device's one stream.

mod args;

use std::ffi::c_void;
use std::fmt;
use std::sync::Arc;

use cudarc::driver::{
    result, sys, CudaContext, CudaEvent, CudaSlice, CudaStream, DevicePtr, DriverError,
};
use cudarc::nvrtc::Ptx;

pub use args::{check_args, Arg, ArgSig};
pub use tt_metadata::{ArgType, KernelMetadata, Scalar};

/// The dynamic shared memory a kernel gets without opting in.
const DEFAULT_DYNAMIC_SHARED_LIMIT: u32 = 48 * 1024;

/// What can go wrong when talking to the GPU.
#[derive(Debug)]
pub enum RuntimeError {
    /// No CUDA driver library could be loaded on this machine.
    NoDriver,
    /// The driver has no device with this ordinal.
    NoDevice { ordinal: usize, count: usize },
    /// The driver reported an error.
    Driver(DriverError),
    /// The module could not be loaded, or lacks the kernel's symbol.
    Load { kernel: String, error: String },
    /// The kernel needs something this runtime does not provide.
    Unsupported { kernel: String, what: String },
    /// A launch was given the wrong number of user arguments.
    ArgCount {
        kernel: String,
        expected: usize,
        given: usize,
    },
    /// A launch argument has the wrong type.
    ArgType {
        kernel: String,
        index: usize,
        expected: ArgType,
        given: ArgType,
    },
    /// An integer or an address breaks the divisibility the kernel was
    /// specialised on.
    ArgDivisibility {
        kernel: String,
        index: usize,
        divisor: u64,
        value: i128,
    },
    /// A grid dimension is 0.
    EmptyGrid { kernel: String },
    /// The launch itself failed.
    Launch { kernel: String, error: DriverError },
    /// Work already launched failed; reported when synchronising.
    Synchronize(DriverError),
    /// A buffer was read or written as the wrong element type or length.
    BufferMismatch { what: String },
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
            RuntimeError::Load { kernel, error } => {
                write!(f, "cannot load kernel {kernel}: {error}")
            }
            RuntimeError::Unsupported { kernel, what } => {
                write!(f, "kernel {kernel}: {what} is not supported")
            }
            RuntimeError::ArgCount {
                kernel,
                expected,
                given,
            } => write!(
                f,
                "kernel {kernel} takes {expected} user argument(s), {given} given"
            ),
            RuntimeError::ArgType {
                kernel,
                index,
                expected,
                given,
            } => write!(
                f,
                "kernel {kernel}, argument {index}: expected {expected}, given {given}"
            ),
            RuntimeError::ArgDivisibility {
                kernel,
                index,
                divisor,
                value,
            } => write!(
                f,
                "kernel {kernel}, argument {index}: the kernel was specialised on a multiple of {divisor}, given {value}"
            ),
            RuntimeError::EmptyGrid { kernel } => {
                write!(f, "kernel {kernel}: a grid dimension is 0")
            }
            RuntimeError::Launch { kernel, error } => {
                write!(f, "launching kernel {kernel} failed: {error}")
            }
            RuntimeError::Synchronize(e) => {
                write!(f, "the device reported an error at synchronisation: {e}")
            }
            RuntimeError::BufferMismatch { what } => f.write_str(what),
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

/// A host type that can be copied to and from a buffer of [`Scalar`]s.
/// Unsigned types map onto the signless integer of their width, as in
/// Triton (`uint8` data is `*i8`). `f16`/`bf16`/`i1` buffers use the byte
/// API ([`Device::upload_bytes`], [`Device::download_bytes`]).
pub trait Element: Copy + Default + sealed::Plain + 'static {
    /// The element type of a buffer holding this type.
    const SCALAR: Scalar;
}

mod sealed {
    /// Plain numbers: every bit pattern is a valid value.
    pub trait Plain {}
}

macro_rules! element {
    ($($t:ty => $s:ident),*) => {$(
        impl sealed::Plain for $t {}
        impl Element for $t {
            const SCALAR: Scalar = Scalar::$s;
        }
    )*};
}
element!(i8 => I8, u8 => I8, i16 => I16, u16 => I16, i32 => I32, u32 => I32,
         i64 => I64, u64 => I64, f32 => F32, f64 => F64);

fn as_bytes<T: Element>(data: &[T]) -> &[u8] {
    // SAFETY: `Element` types are plain numbers without padding.
    unsafe { std::slice::from_raw_parts(data.as_ptr().cast(), std::mem::size_of_val(data)) }
}

fn as_bytes_mut<T: Element>(data: &mut [T]) -> &mut [u8] {
    // SAFETY: as above, and every bit pattern is a valid `T`.
    unsafe { std::slice::from_raw_parts_mut(data.as_mut_ptr().cast(), std::mem::size_of_val(data)) }
}

/// Device memory holding `len` values of one [`Scalar`] type.
#[derive(Debug)]
pub struct Buffer {
    data: CudaSlice<u8>,
    element: Scalar,
    len: usize,
}

impl Buffer {
    /// The element type.
    pub fn element(&self) -> Scalar {
        self.element
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no element.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device address.
    pub fn address(&self) -> u64 {
        self.data.device_ptr(self.data.stream()).0
    }
}

/// A loaded kernel and its metadata.
pub struct Kernel {
    function: cudarc::driver::CudaFunction,
    metadata: KernelMetadata,
}

impl Kernel {
    /// The kernel's metadata.
    pub fn metadata(&self) -> &KernelMetadata {
        &self.metadata
    }
}

/// A point on the device's stream, for timing.
pub struct Event(CudaEvent);

impl Event {
    /// Milliseconds from this event to `later` (both must have completed,
    /// e.g. after [`Device::synchronize`]).
    pub fn elapsed_ms(&self, later: &Event) -> Result<f32, RuntimeError> {
        Ok(self.0.elapsed_ms(&later.0)?)
    }
}

/// One GPU with its primary context and the stream all work runs on.
pub struct Device {
    context: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    ordinal: usize,
}

impl Device {
    /// Opens device `ordinal`.
    pub fn open(ordinal: usize) -> Result<Self, RuntimeError> {
        let count = device_count()?;
        if ordinal >= count {
            return Err(RuntimeError::NoDevice { ordinal, count });
        }
        let context = CudaContext::new(ordinal)?;
        // One stream orders everything, so cudarc's cross-stream events are
        // not needed (and would add work to every launch).
        unsafe { context.disable_event_tracking() };
        let stream = context.default_stream();
        Ok(Self {
            context,
            stream,
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

    /// Loads a kernel from PTX text.
    pub fn load_ptx(&self, ptx: &str, metadata: KernelMetadata) -> Result<Kernel, RuntimeError> {
        if ptx.contains('\0') {
            return Err(RuntimeError::Load {
                kernel: metadata.name,
                error: "the PTX text contains a NUL byte".into(),
            });
        }
        self.load(Ptx::from_src(ptx), metadata)
    }

    /// Loads a kernel from a cubin (or fatbin) image.
    pub fn load_cubin(
        &self,
        cubin: &[u8],
        metadata: KernelMetadata,
    ) -> Result<Kernel, RuntimeError> {
        self.load(Ptx::from_binary(cubin.to_vec()), metadata)
    }

    fn load(&self, image: Ptx, metadata: KernelMetadata) -> Result<Kernel, RuntimeError> {
        let load_error = |error: DriverError| RuntimeError::Load {
            kernel: metadata.name.clone(),
            error: error.to_string(),
        };
        if !(1..=MAX_PORTABLE_CLUSTER).contains(&metadata.num_ctas) {
            return Err(RuntimeError::Unsupported {
                kernel: metadata.name.clone(),
                what: format!(
                    "a cluster of {} CTAs (1 to {MAX_PORTABLE_CLUSTER} launch everywhere)",
                    metadata.num_ctas
                ),
            });
        }
        let module = self.context.load_module(image).map_err(load_error)?;
        let function = module.load_function(&metadata.name).map_err(load_error)?;
        if metadata.shared > DEFAULT_DYNAMIC_SHARED_LIMIT {
            function
                .set_attribute(
                    sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    metadata.shared as i32,
                )
                .map_err(load_error)?;
        }
        Ok(Kernel { function, metadata })
    }

    /// A zero-filled buffer of `len` elements of type `element`.
    pub fn alloc_zeros(&self, element: Scalar, len: usize) -> Result<Buffer, RuntimeError> {
        let data = self.stream.alloc_zeros::<u8>(len * element.size())?;
        Ok(Buffer { data, element, len })
    }

    /// A buffer holding a copy of `data`.
    pub fn upload<T: Element>(&self, data: &[T]) -> Result<Buffer, RuntimeError> {
        self.upload_bytes(T::SCALAR, as_bytes(data))
    }

    /// A buffer of `element`s from their little-endian bytes.
    pub fn upload_bytes(&self, element: Scalar, bytes: &[u8]) -> Result<Buffer, RuntimeError> {
        if !bytes.len().is_multiple_of(element.size()) {
            return Err(RuntimeError::BufferMismatch {
                what: format!(
                    "{} bytes are not a whole number of {} values",
                    bytes.len(),
                    element.name()
                ),
            });
        }
        let data = self.stream.clone_htod(bytes)?;
        Ok(Buffer {
            data,
            element,
            len: bytes.len() / element.size(),
        })
    }

    /// Copies a buffer back (waits for the work before it).
    pub fn download<T: Element>(&self, buffer: &Buffer) -> Result<Vec<T>, RuntimeError> {
        if T::SCALAR != buffer.element {
            return Err(RuntimeError::BufferMismatch {
                what: format!(
                    "a buffer of {} read as {}",
                    buffer.element.name(),
                    T::SCALAR.name()
                ),
            });
        }
        let mut out = vec![T::default(); buffer.len];
        self.stream
            .memcpy_dtoh(&buffer.data, as_bytes_mut(&mut out))
            .map_err(RuntimeError::Synchronize)?;
        Ok(out)
    }

    /// Copies a buffer's bytes back (waits for the work before it).
    pub fn download_bytes(&self, buffer: &Buffer) -> Result<Vec<u8>, RuntimeError> {
        self.stream
            .clone_dtoh(&buffer.data)
            .map_err(RuntimeError::Synchronize)
    }

    /// Sets every element of a buffer to `value` (in stream order).
    pub fn fill<T: Element>(&self, buffer: &Buffer, value: T) -> Result<(), RuntimeError> {
        if T::SCALAR != buffer.element {
            return Err(RuntimeError::BufferMismatch {
                what: format!(
                    "a buffer of {} filled with {}",
                    buffer.element.name(),
                    T::SCALAR.name()
                ),
            });
        }
        let bytes = as_bytes(std::slice::from_ref(&value));
        let (address, stream, n) = (buffer.address(), self.stream.cu_stream(), buffer.len);
        self.context.bind_to_thread()?;
        // SAFETY: the buffer is live and `n` elements of `size` bytes long.
        unsafe {
            match *bytes {
                [b] => sys::cuMemsetD8Async(address, b, n, stream).result()?,
                [a, b] => sys::cuMemsetD16Async(address, u16::from_le_bytes([a, b]), n, stream)
                    .result()?,
                [a, b, c, d] => {
                    sys::cuMemsetD32Async(address, u32::from_le_bytes([a, b, c, d]), n, stream)
                        .result()?
                }
                _ => {
                    let host = vec![value; n];
                    result::memcpy_htod_async(address, as_bytes(&host), stream)?;
                    self.stream.synchronize()?;
                }
            }
        }
        Ok(())
    }

    /// Launches `kernel` on `grid` CTAs of `num_warps * threads_per_warp`
    /// threads with the user arguments `args`, which are checked against
    /// the metadata first. The launch is asynchronous: errors of the
    /// running kernel show at [`Device::synchronize`] (or a download).
    pub fn launch(
        &self,
        kernel: &Kernel,
        grid: (u32, u32, u32),
        args: &[Arg],
    ) -> Result<(), RuntimeError> {
        let metadata = &kernel.metadata;
        let sigs: Vec<ArgSig> = args.iter().map(Arg::sig).collect();
        check_args(metadata, &sigs)?;
        if grid.0 == 0 || grid.1 == 0 || grid.2 == 0 {
            return Err(RuntimeError::EmptyGrid {
                kernel: metadata.name.clone(),
            });
        }
        // A cluster kernel runs `num_ctas` CTAs per program along x, and
        // each has its own scratch, as Triton's launcher gives them.
        let clusters = metadata.num_ctas;
        if grid.0.checked_mul(clusters).is_none() {
            return Err(RuntimeError::Unsupported {
                kernel: metadata.name.clone(),
                what: format!("a grid of {} programs of {clusters} CTAs along x", grid.0),
            });
        }
        let ctas = grid.0 as usize * grid.1 as usize * grid.2 as usize * clusters as usize;
        let global_scratch = self.scratch(metadata.global_scratch_size, ctas)?;
        let profile_scratch = self.scratch(metadata.profile_scratch_size, ctas)?;
        let scratch_address = |s: &Option<Buffer>| s.as_ref().map_or(0, Buffer::address);
        let mut params: Vec<[u8; 8]> = args.iter().map(Arg::param_bytes).collect();
        params.push(scratch_address(&global_scratch).to_le_bytes());
        params.push(scratch_address(&profile_scratch).to_le_bytes());
        let mut pointers: Vec<*mut c_void> = params
            .iter_mut()
            .map(|p| p.as_mut_ptr().cast::<c_void>())
            .collect();
        let threads = metadata.threads_per_cta();
        let launched = self.context.bind_to_thread().and_then(|()| {
            // SAFETY: the parameters match the kernel's signature (checked
            // above; the two scratch pointers complete it) and live until
            // the call returns, which copies them.
            unsafe {
                if clusters == 1 {
                    result::launch_kernel(
                        kernel.function.cu_function(),
                        grid,
                        (threads, 1, 1),
                        metadata.shared,
                        self.stream.cu_stream(),
                        &mut pointers,
                    )
                } else {
                    launch_clusters(
                        kernel.function.cu_function(),
                        grid,
                        clusters,
                        threads,
                        metadata.shared,
                        self.stream.cu_stream(),
                        &mut pointers,
                    )
                }
            }
        });
        // The scratch buffers are freed in stream order, after the kernel.
        drop((global_scratch, profile_scratch));
        launched.map_err(|error| RuntimeError::Launch {
            kernel: metadata.name.clone(),
            error,
        })
    }

    /// Scratch memory of `per_cta` bytes for each of `ctas` CTAs, or none.
    fn scratch(&self, per_cta: u32, ctas: usize) -> Result<Option<Buffer>, RuntimeError> {
        if per_cta == 0 {
            return Ok(None);
        }
        self.alloc_zeros(Scalar::I8, per_cta as usize * ctas)
            .map(Some)
    }

    /// Waits for all launched work; reports the errors it raised.
    pub fn synchronize(&self) -> Result<(), RuntimeError> {
        self.stream
            .synchronize()
            .map_err(RuntimeError::Synchronize)?;
        self.context.check_err().map_err(RuntimeError::Synchronize)
    }

    /// Records a timing event on the stream, after the work launched so far.
    pub fn record_event(&self) -> Result<Event, RuntimeError> {
        let event = self
            .context
            .new_event(Some(sys::CUevent_flags::CU_EVENT_DEFAULT))?;
        event.record(&self.stream)?;
        Ok(Event(event))
    }
}

/// The most CTAs a cluster may have without the kernel opting in to
/// non-portable sizes.
const MAX_PORTABLE_CLUSTER: u32 = 8;

/// Launches `grid` programs of `clusters` CTAs each (a cluster per program,
/// its CTAs side by side along x), as Triton's launcher does for
/// `num_ctas > 1`.
///
/// # Safety
/// `params` must match the kernel's signature and `stream` belong to the
/// current context.
unsafe fn launch_clusters(
    function: sys::CUfunction,
    grid: (u32, u32, u32),
    clusters: u32,
    threads: u32,
    shared: u32,
    stream: sys::CUstream,
    params: &mut [*mut c_void],
) -> Result<(), DriverError> {
    let mut value: sys::CUlaunchAttributeValue = std::mem::zeroed();
    value.clusterDim.x = clusters;
    value.clusterDim.y = 1;
    value.clusterDim.z = 1;
    let mut attribute = sys::CUlaunchAttribute {
        id: sys::CUlaunchAttributeID::CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
        pad: [0; 4],
        value,
    };
    let config = sys::CUlaunchConfig {
        gridDimX: grid.0 * clusters,
        gridDimY: grid.1,
        gridDimZ: grid.2,
        blockDimX: threads,
        blockDimY: 1,
        blockDimZ: 1,
        sharedMemBytes: shared,
        hStream: stream,
        attrs: &mut attribute,
        numAttrs: 1,
    };
    sys::cuLaunchKernelEx(&config, function, params.as_mut_ptr(), std::ptr::null_mut()).result()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The device for a GPU test, or `None` (after printing why) where
    /// there is none.
    fn gpu() -> Option<Device> {
        match Device::open(0) {
            Ok(device) => Some(device),
            Err(e @ (RuntimeError::NoDriver | RuntimeError::NoDevice { .. })) => {
                eprintln!("skipped: {e}");
                None
            }
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    /// A hand-written PTX kernel with Triton's signature:
    /// `out[i] = a[i] * k` for i < n, then the two scratch pointers.
    const SCALE_PTX: &str = r#"
.version 8.0
.target sm_70
.address_size 64
.visible .entry scale(
	.param .u64 a, .param .u64 out, .param .f32 k, .param .u32 n,
	.param .u64 gs, .param .u64 ps)
{
	.reg .pred %p;
	.reg .b32 %r<6>;
	.reg .f32 %f<3>;
	.reg .b64 %d<6>;
	ld.param.u64 %d0, [a];
	ld.param.u64 %d1, [out];
	ld.param.f32 %f0, [k];
	ld.param.u32 %r0, [n];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.s32 %r4, %r1, %r2, %r3;
	setp.ge.u32 %p, %r4, %r0;
	@%p bra DONE;
	mul.wide.u32 %d2, %r4, 4;
	add.s64 %d3, %d0, %d2;
	add.s64 %d4, %d1, %d2;
	ld.global.f32 %f1, [%d3];
	mul.f32 %f2, %f1, %f0;
	st.global.f32 [%d4], %f2;
DONE:
	ret;
}
"#;

    fn scale_metadata() -> KernelMetadata {
        KernelMetadata::from_json(
            r#"{"name": "scale", "target": "cuda:90", "ptx_version": 80, "num_warps": 2,
                "num_ctas": 1, "threads_per_warp": 32, "shared": 0,
                "global_scratch_size": 0, "global_scratch_align": 1,
                "profile_scratch_size": 0, "profile_scratch_align": 1,
                "args": [{"type": "*f32"}, {"type": "*f32"}, {"type": "f32"}, {"type": "i32"}]}"#,
        )
        .unwrap()
    }

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

    #[test]
    fn host_types_map_to_signless_scalars() {
        assert_eq!(<u8 as Element>::SCALAR, Scalar::I8);
        assert_eq!(<u64 as Element>::SCALAR, Scalar::I64);
        assert_eq!(as_bytes(&[1.0f32]), 1.0f32.to_le_bytes());
    }

    #[test]
    fn launches_a_kernel_and_times_it() {
        let Some(device) = gpu() else { return };
        let kernel = device.load_ptx(SCALE_PTX, scale_metadata()).unwrap();
        let n = 1000;
        let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let a = device.upload(&input).unwrap();
        let out = device.alloc_zeros(Scalar::F32, n).unwrap();
        let start = device.record_event().unwrap();
        let args = [
            Arg::Buffer(&a),
            Arg::Buffer(&out),
            Arg::F32(2.0),
            Arg::I32(n as i32 - 1),
        ];
        device.launch(&kernel, (16, 1, 1), &args).unwrap();
        let end = device.record_event().unwrap();
        device.synchronize().unwrap();
        assert!(start.elapsed_ms(&end).unwrap() >= 0.0);
        let got: Vec<f32> = device.download(&out).unwrap();
        assert_eq!(got[10], 20.0);
        assert_eq!(got[n - 2], 2.0 * (n - 2) as f32);
        assert_eq!(got[n - 1], 0.0, "masked off by n");
        assert!(device.download::<i32>(&out).is_err());
        device.fill(&out, -1.5f32).unwrap();
        assert!(device
            .download::<f32>(&out)
            .unwrap()
            .iter()
            .all(|&v| v == -1.5));
        let err = device
            .launch(
                &kernel,
                (1, 1, 1),
                &[Arg::Buffer(&a), Arg::Buffer(&out), Arg::F32(2.0)],
            )
            .unwrap_err();
        assert!(matches!(
            err,
            RuntimeError::ArgCount {
                expected: 4,
                given: 3,
                ..
            }
        ));
        let err = device.launch(&kernel, (0, 1, 1), &args).unwrap_err();
        assert!(matches!(err, RuntimeError::EmptyGrid { .. }));
    }

    #[test]
    fn a_missing_symbol_is_a_load_error() {
        let Some(device) = gpu() else { return };
        let mut metadata = scale_metadata();
        metadata.name = "absent".into();
        let err = device.load_ptx(SCALE_PTX, metadata).err().unwrap();
        assert!(
            err.to_string().starts_with("cannot load kernel absent"),
            "{err}"
        );
    }

    /// A cluster kernel with Triton's signature (one output pointer, then
    /// the two scratch pointers): the first CTA of each two-CTA cluster
    /// writes, at its cluster's index, how many CTAs run along x.
    const CLUSTER_PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry clusters(.param .u64 out, .param .u64 scratch, .param .u64 profile)
.reqnctapercluster 2, 1, 1
{
    .reg .pred %p;
    .reg .b32 %r<5>;
    .reg .b64 %rd<6>;
    mov.u32 %r1, %cluster_ctarank;
    setp.ne.u32 %p, %r1, 0;
    @%p ret;
    mov.u32 %r2, %clusterid.x;
    mov.u32 %r3, %nctaid.x;
    ld.param.u64 %rd1, [out];
    mul.wide.u32 %rd2, %r2, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r3;
    ret;
}
"#;

    #[test]
    fn launches_clusters_of_ctas() {
        let Some(device) = gpu() else { return };
        if device.compute_capability().unwrap().0 < 9 {
            eprintln!("skipped: clusters need sm_90");
            return;
        }
        // Scratch memory makes the launch allocate a slot per CTA.
        let mut metadata = KernelMetadata::from_json(
            r#"{"name": "clusters", "target": "cuda:90", "ptx_version": 80, "num_warps": 2,
                "num_ctas": 2, "threads_per_warp": 32, "shared": 0,
                "global_scratch_size": 16, "global_scratch_align": 1,
                "profile_scratch_size": 0, "profile_scratch_align": 1,
                "args": [{"type": "*i32"}]}"#,
        )
        .unwrap();
        let kernel = device.load_ptx(CLUSTER_PTX, metadata.clone()).unwrap();
        let out = device.alloc_zeros(Scalar::I32, 4).unwrap();
        device
            .launch(&kernel, (4, 1, 1), &[Arg::Buffer(&out)])
            .unwrap();
        device.synchronize().unwrap();
        // Four programs of two CTAs: eight CTAs along x, one write each.
        assert_eq!(device.download::<i32>(&out).unwrap(), vec![8; 4]);
        metadata.num_ctas = 9;
        let err = device.load_ptx(CLUSTER_PTX, metadata).err().unwrap();
        assert!(matches!(err, RuntimeError::Unsupported { .. }), "{err}");
    }
}
