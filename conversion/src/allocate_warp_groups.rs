//! `tritongpu-allocate-warp-groups`: gives every `ttg.warp_specialize` its
//! warps, as Triton 3.6 does before the lowering to LLVM.
//!
//! - Every `ttg.warp_specialize` is padded with do-nothing partitions
//!   (power-of-two sizes, largest first) until its partitions fill as many
//!   warp groups (4 warps) as the largest one needs, so that all the
//!   module's warp specializations run on the same warps.
//! - Each partition gets a first warp id (`warpGroupStartIds`): after the
//!   kernel's own `ttg.num-warps`, the largest partitions first.
//! - The module records the CTA's warp count as `"ttg.total-num-warps"`.
//! - Where a `ttg.warp_specialize` asks for registers per partition
//!   (`requestedRegisters`), each warp group gets the largest request of
//!   its partitions (rounded up to 8), the default warps share what is
//!   left of `ttg.maxnreg` (or of the 64K registers of an SM) over all the
//!   warps, and the result is `actualRegisters` (default first). Padding
//!   partitions ask for 16. If the requests cannot be met, or the default
//!   warps would get fewer than 24 registers, nothing is set for that op.

use tt_passes::{
    rust_pass::{PassResult, RustPass},
    ttir::loop_support::ir,
};

use mlir_sys::{MlirOperation, MlirRegion};

use crate::module_attrs::{refuse, set_i32};

/// The pass.
pub static PASS: RustPass = RustPass {
    name: "TritonGPUAllocateWarpGroups",
    argument: "tritongpu-allocate-warp-groups",
    description: "Pad warp specializations to whole warp groups and give each partition its warps and registers",
    anchor: "builtin.module",
    run,
};

/// The registers a padding partition asks for.
const PADDING_REGISTERS: i32 = 16;
/// The fewest registers `setmaxnreg` can give the warps that share the rest.
const MIN_SHARED_REGISTERS: i64 = 24;

fn i32_array(op: MlirOperation, name: &str) -> Option<Vec<i32>> {
    ir::attribute(op, name).and_then(ir::dense_i32_array)
}

fn set_i32_array(op: MlirOperation, name: &str, values: &[i32]) {
    ir::set_attribute(op, name, ir::dense_i32_array_attr(ir::context(op), values));
}

/// The `ttg.warp_specialize.partitions` op of `ws` (the only op of its
/// second region).
fn partitions_op(ws: MlirOperation) -> Option<MlirOperation> {
    let holder = *ir::regions(ws).get(1)?;
    ir::region_ops(holder)
        .into_iter()
        .find(|op| ir::is(*op, "ttg.warp_specialize.partitions"))
}

fn warp_specializations(module: MlirOperation) -> Vec<MlirOperation> {
    ir::collect_post(module, &|op| ir::is(op, "ttg.warp_specialize"))
}

fn partition_warps(ws: MlirOperation) -> Vec<i32> {
    i32_array(ws, "partitionNumWarps").unwrap_or_default()
}

/// Adds do-nothing partitions to `ws` until its partitions hold
/// `warp_groups` whole warp groups.
fn pad(ws: MlirOperation, warp_groups: i64) -> PassResult {
    let mut warps = partition_warps(ws);
    let mut to_add = warp_groups * 4 - warps.iter().map(|&w| i64::from(w)).sum::<i64>();
    let mut sizes = Vec::new();
    while to_add > 0 {
        // The largest power of two not above what is left.
        let size = 1i64 << (63 - to_add.leading_zeros());
        sizes.push(size as i32);
        to_add -= size;
    }
    if sizes.is_empty() {
        return Ok(());
    }
    let Some(old) = partitions_op(ws) else {
        return Err(refuse(
            ws,
            PASS.argument,
            "a ttg.warp_specialize without partitions",
        ));
    };
    let captures = ir::operands(ws);
    let location = ir::location(ws);
    // SAFETY: every region created here is handed to the new op, which owns
    // it; the old regions' blocks move into them before the old op goes.
    let mut regions: Vec<MlirRegion> = Vec::new();
    for old_region in ir::regions(old) {
        let region = unsafe { mlir_sys::mlirRegionCreate() };
        unsafe { mlir_sys::mlirRegionTakeBody(region, old_region) };
        regions.push(region);
    }
    for _ in &sizes {
        let types: Vec<_> = captures.iter().map(|c| ir::value_type(*c)).collect();
        // SAFETY: each capture is a live value.
        let locations: Vec<_> = captures
            .iter()
            .map(|c| unsafe { mlir_sys::mlirValueGetLocation(*c) })
            .collect();
        unsafe {
            let region = mlir_sys::mlirRegionCreate();
            let block =
                mlir_sys::mlirBlockCreate(types.len() as isize, types.as_ptr(), locations.as_ptr());
            mlir_sys::mlirRegionAppendOwnedBlock(region, block);
            let ret = ir::create_op("ttg.warp_return", location, &[], &[], &[], Vec::new());
            mlir_sys::mlirBlockAppendOwnedOperation(block, ret);
            regions.push(region);
        }
    }
    let attributes: Vec<(String, _)> = ir::attributes(old);
    let named: Vec<(&str, _)> = attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new = ir::create_op(
        "ttg.warp_specialize.partitions",
        ir::location(old),
        &ir::operands(old),
        &[],
        &named,
        regions,
    );
    ir::insert_before(old, new);
    ir::erase(old);
    warps.extend(&sizes);
    set_i32_array(ws, "partitionNumWarps", &warps);
    if let Some(mut requested) = i32_array(ws, "requestedRegisters") {
        requested.extend(sizes.iter().map(|_| PADDING_REGISTERS));
        set_i32_array(ws, "requestedRegisters", &requested);
    }
    Ok(())
}

/// First warp ids: after the kernel's warps, the largest partitions first
/// (ties in partition order).
fn start_ids(warps: &[i32], base: i32) -> Vec<i32> {
    let mut order: Vec<usize> = (0..warps.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(warps[i]));
    let mut ids = vec![0; warps.len()];
    let mut next = base;
    for i in order {
        ids[i] = next;
        next += warps[i];
    }
    ids
}

/// The registers of the default warps and then of each partition, or
/// `None` where the requests cannot be met.
fn registers(
    warps: &[i32],
    ids: &[i32],
    requested: &[i32],
    base_warps: i64,
    maxnreg: i64,
    threads_per_warp: i64,
) -> Option<Vec<i32>> {
    // Warp groups in warp-id order: the partitions each holds, their
    // largest request and their warps.
    let mut order: Vec<usize> = (0..warps.len()).collect();
    order.sort_by_key(|&i| ids[i]);
    let mut groups: Vec<(Vec<usize>, i64, i64)> = Vec::new();
    for i in order {
        if ids[i] % 4 == 0 || groups.is_empty() {
            groups.push((Vec::new(), 0, 0));
        }
        let group = groups.last_mut()?;
        group.0.push(i);
        let rounded = (i64::from(*requested.get(i)?) + 7) / 8 * 8;
        group.1 = group.1.max(rounded);
        group.2 += i64::from(warps[i]);
    }
    let total_warps = base_warps + groups.iter().map(|g| g.2).sum::<i64>();
    let mut left = maxnreg * total_warps * threads_per_warp;
    for (_, regs, group_warps) in &groups {
        left -= regs * group_warps * threads_per_warp;
    }
    if left < 0 {
        return None;
    }
    let shared = left / (base_warps * threads_per_warp) / 8 * 8;
    if shared < MIN_SHARED_REGISTERS {
        return None;
    }
    let mut out = vec![0i32; 1 + warps.len()];
    out[0] = i32::try_from(shared).ok()?;
    for (members, regs, _) in &groups {
        for &i in members {
            out[1 + i] = i32::try_from(*regs).ok()?;
        }
    }
    Some(out)
}

fn run(module: melior::ir::operation::OperationRef) -> PassResult {
    let m = module.to_raw();
    let Some(base) = ir::attribute(m, "ttg.num-warps").and_then(ir::integer_attr_value) else {
        return Err(refuse(
            m,
            PASS.argument,
            "modules without \"ttg.num-warps\"",
        ));
    };
    let all = warp_specializations(m);
    let most = all
        .iter()
        .map(|ws| {
            partition_warps(*ws)
                .iter()
                .map(|&w| i64::from(w))
                .sum::<i64>()
        })
        .max()
        .unwrap_or(0);
    let warp_groups = (most + 3) / 4;
    for ws in &all {
        pad(*ws, warp_groups)?;
    }
    // Padding rebuilt the partition holders, not the `ttg.warp_specialize`
    // ops themselves, so `all` still names live ops.
    let base_i32 = i32::try_from(base).unwrap_or(i32::MAX);
    for ws in &all {
        set_i32_array(
            *ws,
            "warpGroupStartIds",
            &start_ids(&partition_warps(*ws), base_i32),
        );
    }
    let total = base + warp_groups * 4;
    set_i32(m, "ttg.total-num-warps", total);

    if !all
        .iter()
        .any(|ws| ir::attribute(*ws, "requestedRegisters").is_some())
    {
        return Ok(());
    }
    let threads_per_warp = ir::module_int(m, "ttg.threads-per-warp").unwrap_or(32);
    let maxnreg = ir::module_int(m, "ttg.maxnreg")
        .unwrap_or_else(|| 64 * 1024 / total / threads_per_warp / 8 * 8);
    for ws in &all {
        let warps = partition_warps(*ws);
        let Some(requested) = i32_array(*ws, "requestedRegisters") else {
            continue;
        };
        if warps.iter().sum::<i32>() % 4 != 0 || requested.len() != warps.len() {
            continue;
        }
        let ids = i32_array(*ws, "warpGroupStartIds").unwrap_or_default();
        if let Some(actual) = registers(&warps, &ids, &requested, base, maxnreg, threads_per_warp) {
            set_i32_array(*ws, "actualRegisters", &actual);
            set_i32(m, "ttg.maxnreg", maxnreg);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_partitions_start_first() {
        assert_eq!(start_ids(&[1, 8, 4, 2, 1], 4), vec![18, 4, 12, 16, 19]);
        assert_eq!(start_ids(&[2, 1, 8, 1], 4), vec![12, 14, 4, 15]);
    }

    #[test]
    fn default_warps_share_what_the_groups_leave() {
        // 8 kernel warps and one warp group of partitions (1, 2, 1 warps)
        // asking for 48, 80 and 48 registers, 168 per thread at most.
        let warps = [1, 2, 1];
        let ids = start_ids(&warps, 8);
        assert_eq!(
            registers(&warps, &ids, &[48, 80, 48], 8, 168, 32),
            Some(vec![208, 80, 80, 80])
        );
        // Asking for more than there is sets nothing.
        assert_eq!(registers(&[4], &[4], &[248], 4, 128, 32), None);
    }
}
