//! The passes of Triton's `make_ttgir` stage, one file per pass, named after
//! its flag.

pub mod accelerate_matmul;
pub mod assign_latencies;
pub mod coalesce;
pub mod coalesce_async_copy;
pub mod combine_tensor_select_and_if;
pub mod convert_triton_to_tritongpu;
pub mod dot_path;
pub mod f32_dot_tc;
pub mod fence_insertion;
pub mod fuse_nested_loops;
pub mod infer_layout;
pub mod optimize_dot_operands;
pub mod optimize_thread_locality;
pub mod pipeline;
pub mod pipeline_expand;
pub mod pipeline_lower;
pub mod pipeline_waits;
pub mod pipelining;
pub mod plan_cta;
pub mod prefetch;
pub mod reduce_data_duplication;
pub mod remove_layout_conversions;
pub mod reorder_instructions;
pub mod schedule_loops;
pub mod tma_lowering;
