//! The MLIR context and dialect registry: the one place where dialects are
//! registered, so that every tool and test sees the same set.

use melior::{dialect::DialectRegistry, utility::register_all_dialects, Context};

/// A registry holding every upstream MLIR dialect plus Triton's dialects.
pub fn dialect_registry() -> DialectRegistry {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    // tt, ttg and ttng, with all of their Rust rules.
    ttg_dialect::register(&registry);
    registry
}

/// A context with [`dialect_registry`] appended. Multi-threading is on, as in mlir-opt: the verifier checks
/// functions in parallel, and MLIR's parallel diagnostic handler still
/// reports diagnostics in op order. `allow_unregistered` lets ops of unknown dialects
/// parse (as `mlir-opt --allow-unregistered-dialect` does).
pub fn new_context(allow_unregistered: bool) -> Context {
    // Dialects load on demand (the parser loads those the input names, pass
    // managers those their passes depend on), as in mlir-opt: loading all
    // of them up front costs more than parsing a typical kernel.
    let context = Context::new_with_registry(&dialect_registry(), true);
    context.set_allow_unregistered_dialects(allow_unregistered);
    context
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_upstream_and_triton_dialects() {
        let context = new_context(false);
        for dialect in ["tt", "ttg", "ttng", "arith", "scf"] {
            context.get_or_load_dialect(dialect);
        }
        assert!(context.is_registered_operation("tt.func"));
        assert!(context.is_registered_operation("ttg.convert_layout"));
        assert!(context.is_registered_operation("ttng.warp_group_dot"));
        assert!(context.is_registered_operation("arith.addi"));
        assert!(context.is_registered_operation("scf.for"));
        assert!(!context.allow_unregistered_dialects());
        assert!(new_context(true).allow_unregistered_dialects());
    }
}
