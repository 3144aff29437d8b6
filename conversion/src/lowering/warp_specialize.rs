//! `ttg.warp_specialize` in `convert-triton-gpu-to-llvm`: the op stays (a
//! later pass, `convert-warp-specialize-to-llvm`, turns it into the warps'
//! dispatch), but the code of its regions is lowered like a function body.
//! The default region runs on the function's warps and uses its values
//! directly; its results leave it in their LLVM form (a tensor as the
//! struct of its registers) and are unpacked after the op. Each partition gets a prologue of its own: its captures
//! arrive in their LLVM form (a tensor as the struct of its registers, a
//! memory descriptor as its base and offsets) and are unpacked there, and
//! its thread ids count from the partition's first thread. The values a
//! partition's lowered code takes from the function (its global scratch
//! pointer) become captures once the whole module is lowered
//! (`nvg::isolate_partitions`). A region's CTA-wide barriers
//! (`nvvm.barrier0`) stay so: `convert-warp-specialize-to-llvm` makes them
//! the barriers of the region's own warps, as Triton's does.

use melior::ir::{
    attribute::AttributeLike,
    block::BlockLike,
    operation::{OperationBuilder, OperationLike, OperationRef},
    Block, BlockRef, Identifier, Location, Region, RegionLike, Type, Value, ValueLike,
};
use tt_dialect::ir as ttir;
use tt_passes::ttir::loop_support::ir as raw;

use super::{emit::Emitter, LowerResult, Lowering, Pending};

/// The blocks of `region`, in order.
fn blocks_of<'c, 'a>(region: melior::ir::RegionRef<'c, 'a>) -> Vec<BlockRef<'c, 'a>> {
    let mut blocks = Vec::new();
    let mut block = region.first_block();
    while let Some(b) = block {
        blocks.push(b);
        block = b.next_in_region();
    }
    blocks
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// A new region with one block per block of `old`: the first takes
    /// `entry` arguments, the others one argument per value their old
    /// arguments stand for.
    fn region_like(
        &self,
        old: &[BlockRef<'c, 'a>],
        entry: &[Type<'c>],
        location: Location<'c>,
    ) -> Result<Region<'c>, String> {
        let region = Region::new();
        for (i, block) in old.iter().enumerate() {
            let mut types: Vec<(Type<'c>, Location<'c>)> = Vec::new();
            if i == 0 {
                types.extend(entry.iter().map(|t| (*t, location)));
            } else {
                for a in 0..block.argument_count() {
                    let ty = block.argument(a).expect("argument").r#type();
                    let n = self.value_count(ty)?;
                    types.extend(std::iter::repeat_n((self.element_type(ty), location), n));
                }
            }
            region.append_block(Block::new(&types));
        }
        Ok(region)
    }
}

/// Lowers `ttg.warp_specialize` `op` at `emit` (see the module's summary).
pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let location = op.location();
    let captures: Vec<Value<'c, 'a>> = op
        .operands()
        .map(|v| lw.pack_abi(emit, v))
        .collect::<Result<_, _>>()?;
    let capture_types: Vec<Type<'c>> = op
        .operands()
        .map(|v| lw.abi_type(v.r#type()))
        .collect::<Result<_, _>>()?;
    let result_types: Vec<Type<'c>> = op
        .results()
        .map(|r| lw.abi_type(r.r#type()))
        .collect::<Result<_, _>>()?;

    let default_old = blocks_of(
        op.region(0)
            .map_err(|_| "a warp_specialize without regions")?,
    );
    let holder = op
        .region(1)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation())
        .filter(|p| ttir::is_op(*p, "ttg.warp_specialize.partitions"))
        .ok_or("a ttg.warp_specialize without its partitions")?;
    let partitions_old: Vec<Vec<BlockRef<'c, 'a>>> = (0..holder.region_count())
        .map(|i| blocks_of(holder.region(i).expect("region")))
        .collect();
    if default_old.is_empty() || partitions_old.iter().any(Vec::is_empty) {
        return Err("a ttg.warp_specialize region without a block".into());
    }
    let warps = ttir::inherent_attribute(op, "partitionNumWarps")
        .and_then(|a| raw::dense_i32_array(AttributeLike::to_raw(&a)))
        .ok_or("a ttg.warp_specialize without partitionNumWarps")?;
    if warps.len() != partitions_old.len() {
        return Err("partitionNumWarps must give one warp count per partition".into());
    }
    let starts = ttir::inherent_attribute(op, "warpGroupStartIds")
        .and_then(|a| raw::dense_i32_array(AttributeLike::to_raw(&a)));

    let default_region = lw.region_like(&default_old, &[], location)?;
    let mut partition_regions = Vec::new();
    for old in &partitions_old {
        // The partition's prologue, then one block per old block.
        let region = lw.region_like(old, &[], location)?;
        let prologue = Block::new(
            &capture_types
                .iter()
                .map(|t| (*t, location))
                .collect::<Vec<_>>(),
        );
        match region.first_block() {
            Some(first) => region.insert_block_before(first, prologue),
            None => region.append_block(prologue),
        };
        partition_regions.push(region);
    }
    let partitions = raw::create_op(
        "ttg.warp_specialize.partitions",
        location.to_raw(),
        &[],
        &[],
        &[],
        partition_regions
            .into_iter()
            .map(|region| {
                let owned = region.to_raw();
                // The op created below takes ownership of the region.
                std::mem::forget(region);
                owned
            })
            .collect(),
    );
    // SAFETY: `create_op` returns a new op that nothing owns yet; the
    // block it is appended to owns it from then on.
    let partitions = unsafe { melior::ir::Operation::from_raw(partitions) };
    let holder_region = Region::new();
    holder_region
        .append_block(Block::new(&[]))
        .append_operation(partitions);
    let attributes: Vec<(Identifier<'c>, melior::ir::Attribute<'c>)> = ttir::attributes(op);
    let new = OperationBuilder::new("ttg.warp_specialize", location)
        .add_operands(&captures)
        .add_results(&result_types)
        .add_attributes(&attributes)
        .add_regions([default_region, holder_region])
        .build()
        .map_err(|_| "could not build ttg.warp_specialize")?;
    let new = match emit.before {
        Some(before) => emit.block.insert_operation_before(before, new),
        None => emit.block.append_operation(new),
    };
    // SAFETY: the op was just inserted in a block of the function being
    // built, which outlives this lowering.
    let new = unsafe { OperationRef::<'c, 'a>::from_raw(new.to_raw()) };

    // The default region: the function's warps, values and prologue.
    let default_new = blocks_of(new.region(0).expect("default region"));
    let failed = lw.lower_blocks(&default_old, &default_new, lw.pending.clone());
    if let Err(inner) = failed {
        lw.failed_inside = Some(inner);
        return Err(String::new());
    }

    let new_holder = new
        .region(1)
        .ok()
        .and_then(|r| r.first_block())
        .and_then(|b| b.first_operation())
        .expect("built above");
    for (i, old) in partitions_old.iter().enumerate() {
        let blocks = blocks_of(new_holder.region(i).expect("built above"));
        let threads = i64::from(warps[i]) * lw.threads_per_warp;
        let start = starts
            .as_ref()
            .and_then(|s| s.get(i))
            .map(|&w| i64::from(w) * lw.threads_per_warp);
        if let Err(inner) = lower_partition(lw, old, &blocks, start, threads, i64::from(warps[i])) {
            lw.failed_inside = Some(inner);
            return Err(String::new());
        }
    }
    // The default region's results cross its end as a function's results
    // do (a tensor as the struct of its registers).
    for (old, result) in op.results().zip(new.results()) {
        let values = lw.unpack_abi(emit, result.into(), old.r#type());
        lw.set(old.into(), values);
    }
    // The warps meet again after the op, having touched any shared memory.
    lw.pending = Pending::unknown();
    Ok(())
}

/// Lowers partition `old` into `new` (its prologue, then one block per old
/// block), with the function's per-thread state set aside: the partition
/// reads its own thread ids, counted from `start` (its first thread) over
/// `threads`, and runs on `warps` warps.
fn lower_partition<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    old: &[BlockRef<'c, 'a>],
    new: &[BlockRef<'c, 'a>],
    start: Option<i64>,
    threads: i64,
    warps: i64,
) -> Result<(), (OperationRef<'c, 'a>, String)> {
    let prologue = new[0];
    let location = Location::unknown(lw.context);
    let branch = OperationBuilder::new("llvm.br", location)
        .add_successors(&[&new[1]])
        .build()
        .expect("llvm.br");
    let branch = prologue.append_operation(branch);
    // SAFETY: the branch was just appended to a block of the function.
    let branch = unsafe { OperationRef::<'c, 'a>::from_raw(branch.to_raw()) };
    let saved = (
        lw.prologue.replace((prologue, branch)),
        lw.threads.take(),
        lw.uniform_warp.take(),
        lw.thread_group.replace((start, threads)),
        std::mem::replace(&mut lw.num_warps, warps),
    );
    // A kernel's shared memory base is read again in the partition; a
    // device function's is its argument, captured.
    let outer_shared_base = lw.shared_base;
    if lw.in_kernel {
        lw.shared_base = None;
    }
    let entry = lw.prologue(location);
    if let Some(first) = old.first() {
        for i in 0..first.argument_count() {
            let arg: Value = first.argument(i).expect("argument").into();
            let abi: Value = prologue.argument(i).expect("argument").into();
            let values = lw.unpack_abi(&entry, abi, arg.r#type());
            lw.set(arg, values);
        }
    }
    let result = lw.lower_blocks(old, &new[1..], Pending::default());
    if result.is_ok() {
        super::fold_prologue(branch);
    }
    lw.prologue = saved.0;
    lw.threads.replace(saved.1);
    lw.uniform_warp = saved.2;
    lw.thread_group = saved.3;
    lw.num_warps = saved.4;
    lw.shared_base = outer_shared_base;
    result
}

/// `ttg.warp_yield` (the default region's results) and `ttg.warp_return`
/// (a partition's end), on the lowered values.
pub fn terminator<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let operands: Vec<Value<'c, 'a>> = op
        .operands()
        .map(|v| lw.pack_abi(emit, v))
        .collect::<Result<_, _>>()?;
    let name = op.name();
    emit.op(
        name.as_string_ref().as_str().unwrap_or_default(),
        &operands,
        &[],
        &[],
    );
    Ok(())
}
