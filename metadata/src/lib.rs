//! The metadata of a compiled kernel.
//!
//! The compiler writes it next to the PTX (as JSON) and the runtime reads it
//! to check and complete a launch: the user arguments and their types, the
//! number of warps, the dynamic shared memory and the two scratch buffers
//! that every Triton kernel takes after its user arguments.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A scalar type as kernels see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
    /// Triton's `fp8e4nv`.
    F8E4M3FN,
    /// Triton's `fp8e5`.
    F8E5M2,
    /// Triton's `fp8e4b15`.
    F8E4M3B11FNUZ,
    /// Triton's `fp8e4b8` (AMD).
    F8E4M3FNUZ,
    /// Triton's `fp8e5b16` (AMD).
    F8E5M2FNUZ,
}

impl Scalar {
    /// The size in bytes of one value as the kernel receives it (an `i1`
    /// argument is passed as one byte).
    pub fn size(self) -> usize {
        match self {
            Scalar::I1
            | Scalar::I8
            | Scalar::F8E4M3FN
            | Scalar::F8E5M2
            | Scalar::F8E4M3B11FNUZ
            | Scalar::F8E4M3FNUZ
            | Scalar::F8E5M2FNUZ => 1,
            Scalar::I16 | Scalar::F16 | Scalar::BF16 => 2,
            Scalar::I32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::F64 => 8,
        }
    }

    /// The MLIR spelling: `i32`, `f16`, `bf16`, ...
    pub fn name(self) -> &'static str {
        match self {
            Scalar::I1 => "i1",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::F16 => "f16",
            Scalar::BF16 => "bf16",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::F8E4M3FN => "f8E4M3FN",
            Scalar::F8E5M2 => "f8E5M2",
            Scalar::F8E4M3B11FNUZ => "f8E4M3B11FNUZ",
            Scalar::F8E4M3FNUZ => "f8E4M3FNUZ",
            Scalar::F8E5M2FNUZ => "f8E5M2FNUZ",
        }
    }
}

impl FromStr for Scalar {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "i1" => Scalar::I1,
            "i8" => Scalar::I8,
            "i16" => Scalar::I16,
            "i32" => Scalar::I32,
            "i64" => Scalar::I64,
            "f16" => Scalar::F16,
            "bf16" => Scalar::BF16,
            "f32" => Scalar::F32,
            "f64" => Scalar::F64,
            "f8E4M3FN" => Scalar::F8E4M3FN,
            "f8E5M2" => Scalar::F8E5M2,
            "f8E4M3B11FNUZ" => Scalar::F8E4M3B11FNUZ,
            "f8E4M3FNUZ" => Scalar::F8E4M3FNUZ,
            "f8E5M2FNUZ" => Scalar::F8E5M2FNUZ,
            _ => return Err(format!("unknown scalar type '{s}'")),
        })
    }
}

/// The type of one kernel argument: a scalar, a global pointer to
/// scalars, or a TMA descriptor (a 128-byte `CUtensorMap` passed by value,
/// described by the metadata's `tensordesc_meta`). Written as `i32`,
/// `f32`, `*f32` or `nvTmaDesc` (Triton's launcher's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgType {
    Scalar(Scalar),
    Pointer(Scalar),
    TmaDescriptor,
}

impl fmt::Display for ArgType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgType::Scalar(s) => f.write_str(s.name()),
            ArgType::Pointer(s) => write!(f, "*{}", s.name()),
            ArgType::TmaDescriptor => f.write_str("nvTmaDesc"),
        }
    }
}

impl FromStr for ArgType {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "nvTmaDesc" {
            return Ok(ArgType::TmaDescriptor);
        }
        match s.strip_prefix('*') {
            Some(pointee) => Ok(ArgType::Pointer(pointee.parse()?)),
            None => Ok(ArgType::Scalar(s.parse()?)),
        }
    }
}

impl Serialize for ArgType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ArgType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One user argument of a kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelArg {
    /// Its type.
    #[serde(rename = "type")]
    pub ty: ArgType,
    /// The divisibility the kernel was specialised on (`tt.divisibility`),
    /// when there is one: a pointer must be aligned to it, an integer a
    /// multiple of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divisibility: Option<u64>,
}

/// How a launcher fills the TMA descriptor of one `nvTmaDesc` argument,
/// in Triton's terms (its `tensordesc_meta` entries): the swizzle mode
/// (`CUtensorMapSwizzle`: 0 none, 1, 2, 3 for 32, 64, 128 bytes), the
/// element's bytes, Triton's TMA element type code, the box one message
/// moves (outermost dimension first) and whether fp4 elements are padded
/// to a byte each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorDescMeta {
    pub swizzle: u32,
    pub elem_size: u32,
    pub elem_type: u32,
    pub block_size: Vec<i64>,
    pub fp4_padded: bool,
}

/// Everything a launcher needs to know about a compiled kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelMetadata {
    /// The kernel's symbol in the PTX.
    pub name: String,
    /// The target, e.g. `cuda:90`.
    pub target: String,
    /// The PTX version, times ten (`87` for PTX 8.7).
    pub ptx_version: u32,
    /// Warps per CTA; a CTA has `num_warps * threads_per_warp` threads.
    pub num_warps: u32,
    /// CTAs per cluster.
    pub num_ctas: u32,
    /// Threads per warp.
    pub threads_per_warp: u32,
    /// Bytes of dynamic shared memory a launch must provide.
    pub shared: u32,
    /// Bytes of global scratch memory per CTA (0: the pointer is null).
    pub global_scratch_size: u32,
    /// Alignment of the global scratch memory.
    pub global_scratch_align: u32,
    /// Bytes of profiler scratch memory (0: the pointer is null).
    pub profile_scratch_size: u32,
    /// Alignment of the profiler scratch memory.
    pub profile_scratch_align: u32,
    /// The user arguments, in order. The kernel takes two more, the global
    /// and the profile scratch pointers, which the runtime fills in.
    pub args: Vec<KernelArg>,
    /// One entry per `nvTmaDesc` argument, in order.
    #[serde(default)]
    pub tensordesc_meta: Vec<TensorDescMeta>,
}

impl KernelMetadata {
    /// Threads per CTA.
    pub fn threads_per_cta(&self) -> u32 {
        self.num_warps * self.threads_per_warp
    }

    /// The metadata as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("metadata always serialises")
    }

    /// Reads metadata from JSON.
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("invalid kernel metadata: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_types_round_trip_through_text() {
        for text in [
            "i1",
            "i32",
            "f32",
            "bf16",
            "*f32",
            "*i8",
            "*i64",
            "*f8E4M3FN",
            "*f8E5M2",
        ] {
            let ty: ArgType = text.parse().unwrap();
            assert_eq!(ty.to_string(), text);
        }
        assert_eq!(
            "*u8".parse::<ArgType>().unwrap_err(),
            "unknown scalar type 'u8'"
        );
    }

    #[test]
    fn metadata_round_trips_through_json() {
        let metadata = KernelMetadata {
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
                KernelArg {
                    ty: ArgType::Pointer(Scalar::F32),
                    divisibility: Some(16),
                },
                KernelArg {
                    ty: ArgType::Scalar(Scalar::I32),
                    divisibility: None,
                },
                KernelArg {
                    ty: ArgType::TmaDescriptor,
                    divisibility: None,
                },
            ],
            tensordesc_meta: vec![TensorDescMeta {
                swizzle: 3,
                elem_size: 2,
                elem_type: 6,
                block_size: vec![64, 64],
                fp4_padded: false,
            }],
        };
        let json = metadata.to_json();
        assert!(json.contains("\"type\": \"nvTmaDesc\""), "{json}");
        assert!(json.contains("\"type\": \"*f32\""), "{json}");
        assert_eq!(KernelMetadata::from_json(&json).unwrap(), metadata);
        assert_eq!(metadata.threads_per_cta(), 128);
        assert!(KernelMetadata::from_json("{}")
            .unwrap_err()
            .starts_with("invalid kernel metadata"));
    }
}
