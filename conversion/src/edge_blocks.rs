//! Folds back the small blocks that LLVM's O3 leaves on critical edges, so
//! that the loops of a kernel reach code generation shaped as Triton's do.
//!
//! GVN's partial redundancy elimination splits an edge from a conditional
//! branch to a join to compute a value on it (a kernel's loop guard jumping
//! past the loop to its exit, where the epilogue recomputes a thread-index
//! expression the loop also has). Code generation then places the join's
//! phi copies in that block instead of before the branch. When the phis
//! are a `wgmma` accumulator's (its zero start on the path that skips the
//! loop), `ptxas` counts those copies as writes to the accumulator inside
//! the asynchronous `wgmma` pipeline and serializes every `wgmma` of the
//! kernel (its note C7515): tutorial 06's fp8 attention ran 12% slower than
//! Triton's for it. Triton's LLVM does not split that edge for Triton's IR.
//!
//! [`fold_edge_blocks`] moves the few side-effect-free instructions of such
//! a block into its predecessor, just before the branch (executing them on
//! both paths is harmless and cheap), points the branch at the join, and
//! deletes the block.

use std::collections::HashMap;
use std::ffi::CString;

use llvm_sys::core::{
    LLVMAddIncoming, LLVMBuildPhi, LLVMCanValueUseFastMathFlags, LLVMCountIncoming,
    LLVMCreateBuilderInContext, LLVMDeleteBasicBlock, LLVMDisposeBuilder,
    LLVMGetBasicBlockTerminator, LLVMGetFastMathFlags, LLVMGetIncomingBlock, LLVMGetIncomingValue,
    LLVMGetInstructionOpcode, LLVMGetNumSuccessors, LLVMGetSuccessor, LLVMGetValueName2,
    LLVMInsertIntoBuilderWithName, LLVMInstructionEraseFromParent, LLVMInstructionRemoveFromParent,
    LLVMIsAPHINode, LLVMIsConditional, LLVMIsDeclaration, LLVMPositionBuilderBefore,
    LLVMReplaceAllUsesWith, LLVMSetFastMathFlags, LLVMSetSuccessor, LLVMSetValueName2, LLVMTypeOf,
};
use llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use llvm_sys::prelude::{LLVMBasicBlockRef, LLVMValueRef};
use llvm_sys::LLVMOpcode;

use crate::llvm_ir::{blocks, functions, instructions, LlvmModule};

/// The most instructions a folded block may hold besides its branch (the
/// cost LLVM's SimplifyCFG speculates to fold a two-way branch).
const MAX_MOVED: usize = 4;

/// Folds every edge block of `module`'s function definitions (see the
/// module's summary); returns how many were folded.
pub(crate) fn fold_edge_blocks(module: &LlvmModule) -> usize {
    let mut folded = 0;
    for function in functions(module.raw()) {
        // SAFETY: a function of a live module.
        if unsafe { LLVMIsDeclaration(function) } != 0 {
            continue;
        }
        // Folding one block leaves the others' shapes as they were, except
        // for the predecessors it changes: recount after each.
        while let Some(edge) = find_edge_block(function) {
            fold(module, edge);
            folded += 1;
        }
    }
    folded
}

/// A block to fold: `block`, whose single predecessor `pred` ends in a
/// conditional branch, and which branches on to `join`.
struct EdgeBlock {
    pred: LLVMBasicBlockRef,
    block: LLVMBasicBlockRef,
    join: LLVMBasicBlockRef,
}

fn find_edge_block(function: LLVMValueRef) -> Option<EdgeBlock> {
    let blocks: Vec<LLVMBasicBlockRef> = blocks(function).collect();
    let mut preds: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>> = HashMap::new();
    for &block in &blocks {
        for successor in successors(block) {
            preds.entry(successor).or_default().push(block);
        }
    }
    blocks.iter().find_map(|&block| {
        let [pred] = preds.get(&block)?.as_slice() else {
            return None;
        };
        let pred = *pred;
        // SAFETY: terminators of blocks of a live, verified function.
        let (branch, own) = unsafe {
            (
                LLVMGetBasicBlockTerminator(pred),
                LLVMGetBasicBlockTerminator(block),
            )
        };
        // SAFETY (both): opcode and condition of live terminators.
        let conditional = unsafe {
            LLVMGetInstructionOpcode(branch) == LLVMOpcode::LLVMBr && LLVMIsConditional(branch) != 0
        };
        let unconditional = unsafe {
            LLVMGetInstructionOpcode(own) == LLVMOpcode::LLVMBr && LLVMIsConditional(own) == 0
        };
        if !conditional || !unconditional {
            return None;
        }
        let [join] = successors(block)[..] else {
            return None;
        };
        // The join must not already be reached from `pred` (its phis would
        // then take two values from it), nor be either block itself.
        if join == block || join == pred || successors(pred).contains(&join) {
            return None;
        }
        let body: Vec<LLVMValueRef> = instructions(block).collect();
        let moved = &body[..body.len() - 1];
        let foldable = moved.len() <= MAX_MOVED
            && moved.iter().all(|&i| speculatable(i))
            && !phis(join).is_empty()
            && !is_loop_header(&blocks, &preds, join);
        foldable.then_some(EdgeBlock { pred, block, join })
    })
}

/// Whether `join` heads a loop: it dominates one of its predecessors
/// (that predecessor cannot be reached from the entry without passing
/// through `join`). A loop's preheader has the shape of an edge block, but
/// it stays.
fn is_loop_header(
    blocks: &[LLVMBasicBlockRef],
    preds: &HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>>,
    join: LLVMBasicBlockRef,
) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![blocks[0]];
    while let Some(block) = stack.pop() {
        if block == join || !seen.insert(block) {
            continue;
        }
        stack.extend(successors(block));
    }
    // A predecessor the entry cannot reach at all counts too: such blocks
    // are left as they are.
    preds[&join].iter().any(|p| !seen.contains(p))
}

fn fold(module: &LlvmModule, edge: EdgeBlock) {
    // SAFETY: the three blocks belong to one live function, `edge.block`'s
    // only predecessor is `edge.pred` and its only successor `edge.join`
    // (find_edge_block checked). Moving its instructions before `pred`'s
    // terminator keeps every operand dominating its use: operands from
    // outside the block dominate its single predecessor's end. The phis of
    // `join` are rebuilt with `pred` for `block`; the block then has no
    // users and is deleted.
    unsafe {
        let builder = LLVMCreateBuilderInContext(module.context().raw());
        let branch = LLVMGetBasicBlockTerminator(edge.pred);
        let body: Vec<LLVMValueRef> = instructions(edge.block).collect();
        for &instruction in &body[..body.len() - 1] {
            // Inserting renames the instruction: keep its own name.
            let name = value_name(instruction);
            LLVMInstructionRemoveFromParent(instruction);
            LLVMPositionBuilderBefore(builder, branch);
            LLVMInsertIntoBuilderWithName(builder, instruction, name.as_ptr());
        }
        for i in 0..LLVMGetNumSuccessors(branch) {
            if LLVMGetSuccessor(branch, i) == edge.block {
                LLVMSetSuccessor(branch, i, edge.join);
            }
        }
        for phi in phis(edge.join) {
            LLVMPositionBuilderBefore(builder, phi);
            let name = value_name(phi);
            let rebuilt = LLVMBuildPhi(builder, LLVMTypeOf(phi), c"".as_ptr());
            for k in 0..LLVMCountIncoming(phi) {
                let mut value = LLVMGetIncomingValue(phi, k);
                let mut from = LLVMGetIncomingBlock(phi, k);
                if from == edge.block {
                    from = edge.pred;
                }
                LLVMAddIncoming(rebuilt, &mut value, &mut from, 1);
            }
            if LLVMCanValueUseFastMathFlags(phi) != 0 {
                LLVMSetFastMathFlags(rebuilt, LLVMGetFastMathFlags(phi));
            }
            LLVMInstructionSetDebugLoc(rebuilt, LLVMInstructionGetDebugLoc(phi));
            LLVMReplaceAllUsesWith(phi, rebuilt);
            LLVMInstructionEraseFromParent(phi);
            // Named once the old phi is gone, so the name stays free.
            LLVMSetValueName2(rebuilt, name.as_ptr(), name.as_bytes().len());
        }
        LLVMDisposeBuilder(builder);
        LLVMDeleteBasicBlock(edge.block);
    }
}

/// Whether `instruction` may run where it did not (no side effects, no
/// undefined behaviour for any operands, cheap): integer and floating-point
/// arithmetic without division, comparisons, selects, casts and address
/// arithmetic.
fn speculatable(instruction: LLVMValueRef) -> bool {
    use LLVMOpcode::*;
    // SAFETY: an instruction of a live function.
    let opcode = unsafe { LLVMGetInstructionOpcode(instruction) };
    matches!(
        opcode,
        LLVMAdd
            | LLVMSub
            | LLVMMul
            | LLVMShl
            | LLVMLShr
            | LLVMAShr
            | LLVMAnd
            | LLVMOr
            | LLVMXor
            | LLVMICmp
            | LLVMFCmp
            | LLVMSelect
            | LLVMZExt
            | LLVMSExt
            | LLVMTrunc
            | LLVMBitCast
            | LLVMPtrToInt
            | LLVMIntToPtr
            | LLVMAddrSpaceCast
            | LLVMGetElementPtr
            | LLVMFAdd
            | LLVMFSub
            | LLVMFMul
            | LLVMFNeg
            | LLVMFreeze
    )
}

/// `value`'s name (empty when it has none).
fn value_name(value: LLVMValueRef) -> CString {
    let mut len = 0;
    // SAFETY: the name of a live value, copied before any change to it.
    let bytes = unsafe {
        let raw = LLVMGetValueName2(value, &mut len);
        if raw.is_null() {
            &[][..]
        } else {
            std::slice::from_raw_parts(raw.cast::<u8>(), len)
        }
    };
    CString::new(bytes).unwrap_or_default()
}

fn successors(block: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    // SAFETY: the terminator of a block of a verified function.
    unsafe {
        let terminator = LLVMGetBasicBlockTerminator(block);
        if terminator.is_null() {
            return Vec::new();
        }
        (0..LLVMGetNumSuccessors(terminator))
            .map(|i| LLVMGetSuccessor(terminator, i))
            .collect()
    }
}

fn phis(block: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    instructions(block)
        // SAFETY: instructions of a live block.
        .take_while(|&i| unsafe { !LLVMIsAPHINode(i).is_null() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold_text(text: &str) -> (usize, String) {
        let module = LlvmModule::parse_ir(text, "test").expect("valid IR");
        let folded = fold_edge_blocks(&module);
        module.verify().expect("still valid");
        (folded, module.to_ir_string())
    }

    /// A loop guard's edge past the loop, split by GVN to compute a value
    /// the loop's path also has, as O3 leaves tutorial 06's fp8 attention.
    const SPLIT_GUARD: &str = r#"
define void @f(i1 %c, i32 %x, ptr %p) {
entry:
  br i1 %c, label %ph, label %entry.exit_crit_edge

entry.exit_crit_edge:
  %pre = and i32 %x, 28
  br label %exit

ph:
  %a = and i32 %x, 28
  br label %exit

exit:
  %v = phi i32 [ %pre, %entry.exit_crit_edge ], [ %a, %ph ]
  %acc = phi float [ 0.0, %entry.exit_crit_edge ], [ 1.0, %ph ]
  store i32 %v, ptr %p
  store float %acc, ptr %p
  ret void
}
"#;

    #[test]
    fn folds_a_split_guard_edge_into_its_branch() {
        let (folded, text) = fold_text(SPLIT_GUARD);
        assert_eq!(folded, 1);
        assert!(!text.contains("crit_edge"), "{text}");
        // The computation moved before the guard's branch, and the phis
        // take their values from the guard's block.
        let entry = text.split("ph:").next().unwrap();
        assert!(entry.contains("%pre = and i32 %x, 28"), "{text}");
        assert!(
            text.contains("%v = phi i32 [ %pre, %entry ], [ %a, %ph ]"),
            "{text}"
        );
        assert!(
            text.contains("%acc = phi float [ 0.000000e+00, %entry ], [ 1.000000e+00, %ph ]"),
            "{text}"
        );
    }

    #[test]
    fn leaves_loop_preheaders() {
        let (_, text) = fold_text(&SPLIT_GUARD.replace(
            "ph:\n  %a = and i32 %x, 28\n  br label %exit",
            "ph:\n  %a = and i32 %x, 28\n  br label %loop\n\nloop:\n  %i = phi i32 [ 0, %ph ], [ %n, %loop ]\n  %n = add i32 %i, 1\n  %more = icmp slt i32 %n, %x\n  br i1 %more, label %loop, label %exit",
        ).replace("[ %a, %ph ]", "[ %a, %loop ]").replace("[ 1.0, %ph ]", "[ 1.0, %loop ]"));
        // The edge block is folded; the loop keeps its preheader.
        assert!(!text.contains("crit_edge"), "{text}");
        assert!(text.contains("ph:"), "{text}");
        assert!(text.contains("phi i32 [ 0, %ph ]"), "{text}");
    }

    #[test]
    fn leaves_blocks_with_memory_accesses_or_a_second_edge() {
        let load = SPLIT_GUARD.replace("%pre = and i32 %x, 28", "%pre = load i32, ptr %p");
        let (_, text) = fold_text(&load);
        let block = text
            .split("entry.exit_crit_edge:")
            .nth(1)
            .expect("the block stays");
        assert!(block.contains("%pre = load"), "{text}");
        // The guard also jumps to the join directly: its phis would take
        // two values from it.
        let both = SPLIT_GUARD
            .replace("br i1 %c, label %ph, label %entry.exit_crit_edge", "switch i32 %x, label %ph [ i32 0, label %entry.exit_crit_edge\n i32 1, label %exit ]")
            .replace("[ %a, %ph ]", "[ %a, %ph ], [ %x, %entry ]")
            .replace("[ 1.0, %ph ]", "[ 1.0, %ph ], [ 2.0, %entry ]");
        assert_eq!(fold_text(&both).0, 0);
    }
}
