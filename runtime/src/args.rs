//! Launch arguments and their check against a kernel's metadata.
//!
//! The check needs no device: it works on [`ArgSig`]s (the type of a given
//! argument, plus its value or address where divisibility matters), so it is
//! unit-tested on machines without a GPU. [`Arg`] is what a caller passes to
//! [`crate::Device::launch`]; it is turned into an [`ArgSig`] before the check.

use tt_metadata::{ArgType, KernelMetadata, Scalar};

use crate::{Buffer, RuntimeError};

/// One user argument of a launch.
#[derive(Clone, Copy, Debug)]
pub enum Arg<'a> {
    /// A device buffer; it matches a `*T` argument whose `T` is the buffer's
    /// element type.
    Buffer(&'a Buffer),
    I1(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    /// An `f16` value, as its IEEE bits.
    F16(u16),
    /// A `bf16` value, as its bits.
    BF16(u16),
    F32(f32),
    F64(f64),
}

/// What the argument check needs to know about one given argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgSig {
    /// Its type.
    pub ty: ArgType,
    /// For an integer, its value; for a pointer, its device address.
    pub value: Option<i128>,
}

impl Arg<'_> {
    /// The type of the argument as the kernel would see it.
    pub fn arg_type(&self) -> ArgType {
        match self {
            Arg::Buffer(b) => ArgType::Pointer(b.element()),
            Arg::I1(_) => ArgType::Scalar(Scalar::I1),
            Arg::I8(_) => ArgType::Scalar(Scalar::I8),
            Arg::I16(_) => ArgType::Scalar(Scalar::I16),
            Arg::I32(_) => ArgType::Scalar(Scalar::I32),
            Arg::I64(_) => ArgType::Scalar(Scalar::I64),
            Arg::F16(_) => ArgType::Scalar(Scalar::F16),
            Arg::BF16(_) => ArgType::Scalar(Scalar::BF16),
            Arg::F32(_) => ArgType::Scalar(Scalar::F32),
            Arg::F64(_) => ArgType::Scalar(Scalar::F64),
        }
    }

    /// The signature the check sees.
    pub fn sig(&self) -> ArgSig {
        let value = match *self {
            Arg::Buffer(b) => Some(b.address() as i128),
            Arg::I8(v) => Some(v.into()),
            Arg::I16(v) => Some(v.into()),
            Arg::I32(v) => Some(v.into()),
            Arg::I64(v) => Some(v.into()),
            _ => None,
        };
        ArgSig {
            ty: self.arg_type(),
            value,
        }
    }

    /// The bytes of the kernel parameter (little-endian; an `i1` is one byte,
    /// a buffer is its 64-bit address).
    pub(crate) fn param_bytes(&self) -> [u8; 8] {
        let mut out = [0u8; 8];
        let bytes: Vec<u8> = match *self {
            Arg::Buffer(b) => b.address().to_le_bytes().to_vec(),
            Arg::I1(v) => vec![v as u8],
            Arg::I8(v) => v.to_le_bytes().to_vec(),
            Arg::I16(v) => v.to_le_bytes().to_vec(),
            Arg::I32(v) => v.to_le_bytes().to_vec(),
            Arg::I64(v) => v.to_le_bytes().to_vec(),
            Arg::F16(v) | Arg::BF16(v) => v.to_le_bytes().to_vec(),
            Arg::F32(v) => v.to_le_bytes().to_vec(),
            Arg::F64(v) => v.to_le_bytes().to_vec(),
        };
        out[..bytes.len()].copy_from_slice(&bytes);
        out
    }
}

/// Checks the given arguments against the kernel's: their number, each
/// type, and the divisibility the kernel was specialised on (a pointer's
/// address, an integer's value). Errors name the argument index.
pub fn check_args(metadata: &KernelMetadata, given: &[ArgSig]) -> Result<(), RuntimeError> {
    if metadata.args.len() != given.len() {
        return Err(RuntimeError::ArgCount {
            kernel: metadata.name.clone(),
            expected: metadata.args.len(),
            given: given.len(),
        });
    }
    for (index, (want, got)) in metadata.args.iter().zip(given).enumerate() {
        if want.ty != got.ty {
            return Err(RuntimeError::ArgType {
                kernel: metadata.name.clone(),
                index,
                expected: want.ty,
                given: got.ty,
            });
        }
        if let (Some(divisor), Some(value)) = (want.divisibility, got.value) {
            if divisor > 1 && value.rem_euclid(divisor as i128) != 0 {
                return Err(RuntimeError::ArgDivisibility {
                    kernel: metadata.name.clone(),
                    index,
                    divisor,
                    value,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tt_metadata::KernelArg;

    fn add_kernel() -> KernelMetadata {
        let arg = |ty: &str, divisibility| KernelArg {
            ty: ty.parse().unwrap(),
            divisibility,
        };
        KernelMetadata {
            name: "add_kernel".into(),
            target: "cuda:90".into(),
            ptx_version: 87,
            num_warps: 4,
            num_ctas: 1,
            threads_per_warp: 32,
            shared: 0,
            global_scratch_size: 0,
            global_scratch_align: 1,
            profile_scratch_size: 0,
            profile_scratch_align: 1,
            args: vec![
                arg("*f32", Some(16)),
                arg("*f32", Some(16)),
                arg("*f32", Some(16)),
                arg("i32", Some(16)),
                arg("f32", None),
            ],
            tensordesc_meta: Vec::new(),
        }
    }

    fn sig(ty: &str, value: Option<i128>) -> ArgSig {
        ArgSig {
            ty: ty.parse().unwrap(),
            value,
        }
    }

    fn good() -> Vec<ArgSig> {
        vec![
            sig("*f32", Some(0x7000_0000)),
            sig("*f32", Some(0x7000_0400)),
            sig("*f32", Some(0x7000_0800)),
            sig("i32", Some(98432)),
            sig("f32", None),
        ]
    }

    #[test]
    fn matching_arguments_pass() {
        check_args(&add_kernel(), &good()).unwrap();
    }

    #[test]
    fn a_wrong_count_is_reported() {
        let err = check_args(&add_kernel(), &good()[..3]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel add_kernel takes 5 user argument(s), 3 given"
        );
    }

    #[test]
    fn a_wrong_type_names_the_argument() {
        let mut given = good();
        given[1] = sig("*i32", Some(0x7000_0400));
        let err = check_args(&add_kernel(), &given).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel add_kernel, argument 1: expected *f32, given *i32"
        );
        given[1] = good()[1];
        given[4] = sig("f64", None);
        let err = check_args(&add_kernel(), &given).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel add_kernel, argument 4: expected f32, given f64"
        );
    }

    #[test]
    fn divisibility_is_checked_for_integers_and_addresses() {
        let mut given = good();
        given[3] = sig("i32", Some(98433));
        let err = check_args(&add_kernel(), &given).unwrap_err();
        assert_eq!(
            err.to_string(),
            "kernel add_kernel, argument 3: the kernel was specialised on a multiple of 16, given 98433"
        );
        let mut given = good();
        given[2] = sig("*f32", Some(0x7000_0804));
        assert!(matches!(
            check_args(&add_kernel(), &given),
            Err(RuntimeError::ArgDivisibility { index: 2, .. })
        ));
    }

    #[test]
    fn scalar_parameters_are_little_endian_bytes() {
        assert_eq!(
            Arg::I32(-2).param_bytes(),
            [0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0]
        );
        assert_eq!(Arg::I1(true).param_bytes(), [1, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(Arg::F32(1.0).param_bytes()[..4], 1.0f32.to_le_bytes());
        assert_eq!(Arg::I32(7).sig(), sig("i32", Some(7)));
        assert_eq!(Arg::F64(0.5).arg_type().to_string(), "f64");
    }
}
