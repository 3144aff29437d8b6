//! Side-effect, speculation and trait queries, answered by MLIR itself
//! through the `tt` shim (`tt_dialect::ir`): the MLIR 22 C API cannot ask an
//! op for its memory effects or traits, yet LICM and CSE hinge on them.
//! These wrappers take the raw handles the loop passes work with and phrase
//! the questions those passes ask.

use melior::ir::operation::OperationRef;
use mlir_sys::MlirOperation;
use tt_dialect::ir::{self as tt_ir, Trait};

use super::ir;

fn op_ref<'c, 'a>(op: MlirOperation) -> OperationRef<'c, 'a> {
    unsafe { OperationRef::from_raw(op) }
}

/// MLIR's `isMemoryEffectFree`: the op (and, for ops with recursive
/// effects, everything nested in it) has no memory effect.
pub fn is_memory_effect_free(op: MlirOperation) -> bool {
    tt_ir::is_memory_effect_free(op_ref(op))
}

/// MLIR's `isPure`: speculatable and free of memory effects.
pub fn is_pure(op: MlirOperation) -> bool {
    is_speculatable(op) && is_memory_effect_free(op)
}

/// MLIR's `isSpeculatable`.
pub fn is_speculatable(op: MlirOperation) -> bool {
    tt_ir::is_speculatable(op_ref(op))
}

/// MLIR's `isOpTriviallyDead`: no result is used and erasing the op
/// changes nothing.
pub fn is_trivially_dead(op: MlirOperation) -> bool {
    ir::results(op).into_iter().all(|r| !ir::has_uses(r)) && tt_ir::is_trivially_dead(op_ref(op))
}

/// Whether `op` has the MLIR trait `t`.
pub fn has_trait(op: MlirOperation, t: Trait) -> bool {
    tt_ir::has_trait(op_ref(op), t)
}

/// Whether every effect of the op and of what it holds is known and is a
/// read (Triton's `isMemoryEffectFreeOrOnlyRead`).
pub fn only_reads(op: MlirOperation) -> bool {
    tt_ir::memory_effects(op_ref(op)).is_some_and(|e| !e.write && !e.allocate && !e.free)
}

/// Whether the op, or anything it holds, may write memory or has effects
/// that are not known (what stops CSE between two equal reads).
pub fn may_write(op: MlirOperation) -> bool {
    tt_ir::memory_effects(op_ref(op)).is_none_or(|e| e.write)
}

/// Whether the op itself declares its effects and they are all reads
/// (MLIR's `onlyHasEffect<MemoryEffects::Read>`, which CSE asks of ops
/// that are not effect-free). An op with recursive effects declares none
/// of its own here: MLIR's ops of that kind implement no effect interface.
pub fn declares_only_reads(op: MlirOperation) -> bool {
    !has_trait(op, Trait::RecursiveMemoryEffects)
        && tt_ir::memory_effects(op_ref(op)).is_some_and(|e| !e.write && !e.allocate && !e.free)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::new_context;
    use melior::ir::Module;

    const IR: &str = r#"
tt.func @f(%p: tensor<4x!tt.ptr<f32>>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %d = arith.divsi %n, %c1 : i32
  %e = arith.divsi %n, %n : i32
  %v = tt.load %p : tensor<4x!tt.ptr<f32>>
  %w = tt.load %p {isVolatile = true} : tensor<4x!tt.ptr<f32>>
  tt.store %p, %v : tensor<4x!tt.ptr<f32>>
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%a = %v) -> (tensor<4xf32>) : i32 {
    %x = tt.load %p : tensor<4x!tt.ptr<f32>>
    scf.yield %x : tensor<4xf32>
  }
  tt.return
}
"#;

    #[test]
    fn answers_come_from_the_ops_interfaces() {
        let context = new_context(false);
        let module = Module::parse(&context, IR).expect("test IR parses");
        let mut ops = Vec::new();
        ir::walk_pre(module.as_operation().to_raw(), &mut |op| ops.push(op));
        let find = |name: &str, nth: usize| {
            *ops.iter()
                .filter(|op| ir::is(**op, name))
                .nth(nth)
                .expect("op present")
        };
        let constant = find("arith.constant", 0);
        assert!(is_memory_effect_free(constant) && is_speculatable(constant));
        // Division by a constant one is speculatable, by a variable is not.
        assert!(is_speculatable(find("arith.divsi", 0)));
        assert!(!is_speculatable(find("arith.divsi", 1)));
        let load = find("tt.load", 0);
        assert!(!is_memory_effect_free(load) && only_reads(load) && declares_only_reads(load));
        assert!(!may_write(load));
        let volatile = find("tt.load", 1);
        assert!(!only_reads(volatile) && may_write(volatile));
        let store = find("tt.store", 0);
        assert!(!only_reads(store) && may_write(store));
        let lp = find("scf.for", 0);
        assert!(only_reads(lp) && !may_write(lp) && !declares_only_reads(lp));
        let func = find("tt.func", 0);
        assert!(has_trait(func, Trait::IsolatedFromAbove) && may_write(func));
    }
}
