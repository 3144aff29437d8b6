//! Bootstrap driver (to be replaced): parse a file and print it.
use std::ffi::CString;

use melior::{
    dialect::DialectRegistry,
    ir::operation::{OperationLike, OperationPrintingFlags, OperationRef},
    utility::register_all_dialects,
    Context,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = &args[1];
    let debug = args.iter().any(|a| a == "--mlir-print-debuginfo");
    let src = std::fs::read_to_string(path).unwrap();
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    ttg_dialect::register(&registry);
    let ctx = Context::new_with_registry(&registry, false);
    ctx.load_all_available_dialects();
    let s = CString::new(src).unwrap();
    let name = CString::new(path.as_str()).unwrap();
    let op = unsafe {
        mlir_sys::mlirOperationCreateParse(
            ctx.to_raw(),
            mlir_sys::mlirStringRefCreateFromCString(s.as_ptr()),
            mlir_sys::mlirStringRefCreateFromCString(name.as_ptr()),
        )
    };
    let Some(op) = (unsafe { OperationRef::from_option_raw(op) }) else {
        std::process::exit(1);
    };
    let flags = OperationPrintingFlags::new().enable_debug_info(debug, false);
    println!("{}", op.to_string_with_flags(flags).unwrap());
}
