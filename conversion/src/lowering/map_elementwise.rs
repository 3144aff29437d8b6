//! `tt.map_elementwise` (`tl.map_elementwise`): the scalar region once per
//! group of `pack` elements a thread holds. The region takes, operand by
//! operand, that operand's `pack` elements, and returns, result by result,
//! each result's `pack` elements. A region of one block is lowered in
//! place; a region of several blocks (a scalar function that returns early,
//! its branches already `cf`) gets fresh blocks per group, its entry block
//! lowered where the op stands and each `tt.map_elementwise.return`
//! branching to a join block whose arguments are the results; the next
//! group (and then the ops after the op) continue in that join block.

use melior::ir::{
    block::BlockLike,
    operation::{OperationBuilder, OperationLike, OperationRef},
    Block, BlockRef, RegionLike, Type, Value, ValueLike,
};
use tt_dialect::ir as ttir;

use super::{Emitter, LowerResult, Lowering, Pending};

pub fn lower<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
) -> LowerResult {
    let pack = ttir::inherent_attribute(op, "pack")
        .and_then(ttir::int_value)
        .map(|(v, _)| v)
        .filter(|&v| v >= 1)
        .ok_or("pack must be at least 1")? as usize;
    let region = op.region(0).map_err(|_| "the op has no region")?;
    let block = region.first_block().ok_or("the region is empty")?;
    let mut blocks = vec![block];
    while let Some(next) = blocks.last().and_then(|b| b.next_in_region()) {
        blocks.push(next);
    }
    let inputs: Vec<Vec<Value<'c, 'a>>> =
        op.operands().map(|v| lw.get(v)).collect::<Result<_, _>>()?;
    let results: Vec<Value<'c, 'a>> = op.results().map(Into::into).collect();
    let count = match (inputs.first(), results.first()) {
        (Some(values), _) => values.len(),
        (None, Some(&r)) => lw.value_count(r.r#type())?,
        (None, None) => return Ok(()),
    };
    if inputs.iter().any(|v| v.len() != count) {
        return Err("the operands hold different numbers of elements per thread".into());
    }
    if !count.is_multiple_of(pack) {
        return Err(format!(
            "a thread holds {count} elements, not a multiple of pack = {pack}"
        ));
    }
    if block.argument_count() != inputs.len() * pack {
        return Err("the region takes pack arguments per operand".into());
    }
    let result_types: Vec<Type<'c>> = results
        .iter()
        .map(|r| lw.element_type(r.r#type()))
        .collect();
    let mut outputs: Vec<Vec<Value<'c, 'a>>> = vec![Vec::with_capacity(count); results.len()];
    let mut here = emit.block;
    for start in (0..count).step_by(pack) {
        for (i, values) in inputs.iter().enumerate() {
            for k in 0..pack {
                let arg: Value = block.argument(i * pack + k).expect("argument").into();
                lw.set(arg, vec![values[start + k]]);
            }
        }
        let returned = if blocks.len() == 1 {
            let at = Emitter {
                block: here,
                ..emit.at(emit.location)
            };
            let returned = lower_block(lw, &at, block, None)?;
            returned.ok_or("the region has no terminator")?
        } else {
            let (returned, join) = lower_blocks(lw, emit, here, &blocks, &result_types, pack)?;
            here = join;
            returned
        };
        if returned.len() != results.len() * pack {
            return Err("the region returns pack values per result".into());
        }
        for (r, chunk) in returned.chunks(pack).enumerate() {
            outputs[r].extend_from_slice(chunk);
        }
    }
    if here != emit.block {
        lw.continuation = Some(here);
    }
    for (r, values) in results.iter().zip(outputs) {
        lw.set(*r, values);
    }
    Ok(())
}

/// Lowers the ops of `block` into `emit`'s block; at the region's return,
/// either hands back its values (`join` is `None`) or branches to `join`
/// with them.
fn lower_block<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    block: BlockRef<'c, 'a>,
    join: Option<BlockRef<'c, 'a>>,
) -> Result<Option<Vec<Value<'c, 'a>>>, String> {
    let mut next = block.first_operation();
    while let Some(o) = next {
        // SAFETY: the region's ops live as long as the op being lowered.
        let o = unsafe { OperationRef::<'c, 'a>::from_raw(o.to_raw()) };
        let name = o.name().as_string_ref().as_str().unwrap_or("?").to_owned();
        let at = emit.at(o.location());
        if name == "tt.map_elementwise.return" {
            let returned: Vec<Value<'c, 'a>> = o
                .operands()
                .map(|v| lw.scalar(v))
                .collect::<Result<_, _>>()?;
            let Some(join) = join else {
                return Ok(Some(returned));
            };
            let branch = OperationBuilder::new("llvm.br", at.location)
                .add_operands(&returned)
                .add_successors(&[&join])
                .build()
                .map_err(|_| "could not build the region's branch".to_owned())?;
            at.block.append_operation(branch);
            return Ok(None);
        }
        lw.lower_op(&at, o)?;
        if lw.continuation.is_some() {
            return Err(format!(
                "'{name}' in a map_elementwise region is not supported yet"
            ));
        }
        next = o.next_in_block();
    }
    Ok(None)
}

/// One group through a region of several blocks: fresh blocks after
/// `here` for the region's blocks but the entry (lowered into `here`) and a
/// join block taking the `pack` values of every result; the values and the
/// join block.
fn lower_blocks<'c, 'a>(
    lw: &mut Lowering<'c, 'a>,
    emit: &Emitter<'c, 'a>,
    here: BlockRef<'c, 'a>,
    blocks: &[BlockRef<'c, 'a>],
    result_types: &[Type<'c>],
    pack: usize,
) -> Result<(Vec<Value<'c, 'a>>, BlockRef<'c, 'a>), String> {
    let region = here.parent_region().ok_or("a block outside a function")?;
    let mut after = here;
    let mut fresh = Vec::new();
    for old in &blocks[1..] {
        let mut types = Vec::new();
        for a in 0..old.argument_count() {
            let arg: Value = old.argument(a).expect("argument").into();
            if lw.value_count(arg.r#type())? != 1 {
                return Err("tensors flowing between map_elementwise blocks".into());
            }
            types.push((lw.element_type(arg.r#type()), emit.location));
        }
        let new = region.insert_block_after(after, Block::new(&types));
        // SAFETY: the block now belongs to the function being built.
        let new = unsafe { BlockRef::<'c, 'a>::from_raw(new.to_raw()) };
        for a in 0..old.argument_count() {
            let arg: Value = old.argument(a).expect("argument").into();
            lw.set(arg, vec![new.argument(a).expect("argument").into()]);
        }
        lw.blocks.insert(old.to_raw().ptr as usize, new);
        fresh.push(new);
        after = new;
    }
    let join_types: Vec<(Type<'c>, melior::ir::Location<'c>)> = result_types
        .iter()
        .flat_map(|&t| std::iter::repeat_n((t, emit.location), pack))
        .collect();
    let join = region.insert_block_after(after, Block::new(&join_types));
    // SAFETY: as above.
    let join = unsafe { BlockRef::<'c, 'a>::from_raw(join.to_raw()) };
    let entry = Emitter {
        block: here,
        ..emit.at(emit.location)
    };
    lower_block(lw, &entry, blocks[0], Some(join))?;
    for (old, &new) in blocks[1..].iter().zip(&fresh) {
        lw.pending = Pending::unknown();
        let at = Emitter {
            block: new,
            ..emit.at(emit.location)
        };
        lower_block(lw, &at, *old, Some(join))?;
    }
    lw.pending = Pending::unknown();
    let values = (0..join.argument_count())
        .map(|i| join.argument(i).expect("argument").into())
        .collect();
    Ok((values, join))
}
