//! Analyses that passes query: today [`axis_info`], Triton's AxisInfo
//! (contiguity, divisibility and constancy per dimension of every integer
//! and pointer value), and its test pass `test-print-alignment`.

pub mod axis_info;
pub mod test_alignment;
