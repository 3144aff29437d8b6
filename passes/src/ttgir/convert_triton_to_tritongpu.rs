//! `convert-triton-to-tritongpu`: gives every tensor of a TTIR module a GPU
//! layout, as Triton 3.6's dialect conversion does.
//!
//! Every tensor type without an encoding gets Triton's default blocked
//! layout for its shape ([`Blocked::default_for`]); block pointers get their
//! pointee converted. Most ops only have their result types converted in
//! place; the ops Triton rewrites specially (`tt.expand_dims`, `tt.dot`,
//! `tt.broadcast`, `tt.reduce`, `tt.scan`, `tt.trans`, `tt.join`,
//! `tt.split`, `tt.cat`, `arith.constant`) get the layouts Triton's patterns
//! give them, with the `ttg.convert_layout` ops those patterns create.
//!
//! Where an operand's layout is not the default one of its original type
//! (the result of an expand_dims, broadcast, dot or reduce), the dialect
//! conversion would insert a target materialization: a `ttg.convert_layout`
//! right after the operand's definition (at the start of its block for a
//! block argument), located at the user, and reused by every later user
//! that wants the same type. [`Converter::remap`] does exactly that, so the
//! output matches Triton's op for op. Ops are visited in pre-order, the
//! order of MLIR's conversion driver.

use std::collections::HashMap;

use melior::{
    ir::{attribute::AttributeLike, r#type::TypeLike},
    ir::{operation::OperationRef, Attribute, Type},
    pass::Pass,
    StringRef,
};
use mlir_sys::{MlirAttribute, MlirContext, MlirOperation, MlirType, MlirValue};

use crate::options::PassOptions;
use crate::rust_pass::{fail, RustPass};
use crate::stages::Target;
use crate::ttgir::plan_cta::refuse_cluster_tensors;
use crate::ttir::loop_support::ir::{self, Val};

/// The pass's flag.
pub const ARGUMENT: &str = "convert-triton-to-tritongpu";

/// The pass's parsed options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `target`, as given; checked when the pass runs, so that a bad
    /// target is reported at the module. Without it, the module's
    /// `ttg.target`, else `cuda:90` (make-ttgir's default).
    pub target: Option<String>,
    pub num_warps: u32,
    pub threads_per_warp: u32,
    pub num_ctas: u32,
    /// Accepted for Triton compatibility; every op is converted here, so no
    /// source materialization is ever needed.
    pub enable_source_remat: bool,
}

impl Options {
    /// Parses the pass options (`num-warps=4 threads-per-warp=32 num-ctas=1`
    /// by default).
    pub fn parse(options: &PassOptions) -> Result<Self, String> {
        let number = |key: &str, default: u32| -> Result<u32, String> {
            match options.get(key) {
                None => Ok(default),
                Some(text) => text
                    .parse::<u32>()
                    .ok()
                    .filter(|n| n.is_power_of_two())
                    .ok_or_else(|| {
                        format!(
                            "invalid value '{text}' for option '{key}': expected a power of two"
                        )
                    }),
            }
        };
        let enable_source_remat = options.flag("enable-source-remat", false)?;
        Ok(Self {
            target: options.get("target").map(str::to_owned),
            num_warps: number("num-warps", 4)?,
            threads_per_warp: number("threads-per-warp", 32)?,
            num_ctas: number("num-ctas", 1)?,
            enable_source_remat,
        })
    }
}

/// The pass; its `run` uses the default options.
pub static PASS: RustPass = RustPass {
    name: "ConvertTritonToTritonGPU",
    argument: ARGUMENT,
    description: "Convert Triton to TritonGPU: default blocked layouts for every tensor",
    anchor: "builtin.module",
    run: |op| {
        let options = Options::parse(&PassOptions::default()).map_err(|m| fail(op, &m))?;
        refuse_cluster_tensors(op, options.num_ctas.into(), ARGUMENT)?;
        run(op, &options).map_err(|m| fail(op, &m))
    },
};

/// Builds the pass from its options (the registry's factory).
pub fn factory(options: &PassOptions) -> Result<Pass, String> {
    let options = Options::parse(options)?;
    Ok(PASS.build_with(move |op| {
        refuse_cluster_tensors(op, options.num_ctas.into(), ARGUMENT)?;
        run(op, &options).map_err(|m| fail(op, &m))
    }))
}

/// Runs the conversion on `module`; an error is reported at the module.
fn run(module: OperationRef, options: &Options) -> Result<(), String> {
    let module = module.to_raw();
    // The option, else the module's own `ttg.target`, else make-ttgir's
    // default target.
    let from_module = ir::attribute(module, "ttg.target").and_then(|a| {
        // SAFETY: an attribute of the live module.
        tt_dialect::ir::string_value(unsafe { Attribute::from_raw(a) })
    });
    let default = format!("cuda:{}", Target::DEFAULT.capability);
    let target = options
        .target
        .clone()
        .filter(|t| !t.is_empty())
        .or(from_module)
        .unwrap_or(default);
    let target = target.as_str();
    Target::parse(target)?;
    let ctx = ir::context(module);
    let i32_type = ir::i32_type(ctx);
    let module_attrs = [
        (
            "ttg.num-ctas",
            ir::integer_attr(i32_type, options.num_ctas.into()),
        ),
        (
            "ttg.num-warps",
            ir::integer_attr(i32_type, options.num_warps.into()),
        ),
        ("ttg.target", unsafe {
            mlir_sys::mlirStringAttrGet(ctx, StringRef::new(target).to_raw())
        }),
        (
            "ttg.threads-per-warp",
            ir::integer_attr(i32_type, options.threads_per_warp.into()),
        ),
    ];
    for (name, value) in module_attrs {
        ir::set_attribute(module, name, value);
    }
    let mut ops = Vec::new();
    ir::walk_pre(module, &mut |op| {
        if op.ptr != module.ptr {
            ops.push(op);
        }
    });
    let mut converter = Converter {
        ctx,
        num_warps: options.num_warps,
        threads_per_warp: options.threads_per_warp,
        encodings: HashMap::new(),
        original: HashMap::new(),
        casts: HashMap::new(),
    };
    for op in ops {
        converter.convert(op)?;
    }
    Ok(())
}

/// A blocked encoding of one CTA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blocked {
    pub size_per_thread: Vec<u32>,
    pub threads_per_warp: Vec<u32>,
    pub warps_per_cta: Vec<u32>,
    pub order: Vec<u32>,
}

impl Blocked {
    /// Triton's builder from a shape, sizes per thread and an order:
    /// lanes and warps go to the dims from the fastest on, each dim taking
    /// at most what its extent can use; the slowest dim takes the rest.
    pub fn build(
        shape: &[i64],
        size_per_thread: Vec<u32>,
        order: Vec<u32>,
        num_warps: u32,
        threads_per_warp: u32,
    ) -> Self {
        let rank = shape.len();
        let mut lanes = vec![1u32; rank];
        let mut warps = vec![1u32; rank];
        let mut remaining_lanes = u64::from(threads_per_warp);
        let mut remaining_threads = u64::from(num_warps) * u64::from(threads_per_warp);
        let mut remaining_warps = u64::from(num_warps);
        let (mut prev_lanes, mut prev_warps) = (1u64, 1u64);
        for &dim in order.iter().take(rank.saturating_sub(1)) {
            let d = dim as usize;
            let extent = (shape[d] / i64::from(size_per_thread[d])).max(1) as u64;
            let threads = remaining_threads.clamp(1, extent);
            let l = threads.clamp(1, remaining_lanes.max(1));
            let w = (threads / l).clamp(1, remaining_warps.max(1));
            lanes[d] = l as u32;
            warps[d] = w as u32;
            remaining_warps /= w;
            remaining_lanes /= l;
            remaining_threads /= threads;
            prev_lanes *= l;
            prev_warps *= w;
        }
        if let Some(&last) = order.last() {
            lanes[last as usize] = (u64::from(threads_per_warp) / prev_lanes) as u32;
            warps[last as usize] = (u64::from(num_warps) / prev_warps) as u32;
        }
        Self {
            size_per_thread,
            threads_per_warp: lanes,
            warps_per_cta: warps,
            order,
        }
    }

    /// Triton's default layout for `shape`: one element per thread, the
    /// last dim fastest.
    pub fn default_for(shape: &[i64], num_warps: u32, threads_per_warp: u32) -> Self {
        let rank = shape.len();
        Self::build(
            shape,
            vec![1; rank],
            (0..rank as u32).rev().collect(),
            num_warps,
            threads_per_warp,
        )
    }

    /// The elements each thread holds of a tensor of `shape`.
    pub fn total_elems_per_thread(&self, shape: &[i64]) -> u64 {
        (0..shape.len())
            .map(|d| {
                let spt = u64::from(self.size_per_thread[d]);
                let tile =
                    spt * u64::from(self.threads_per_warp[d]) * u64::from(self.warps_per_cta[d]);
                (shape[d].max(0) as u64).div_ceil(tile).max(1) * spt
            })
            .product()
    }

    /// Triton's text, `#ttg.blocked<{...}>`.
    pub fn text(&self) -> String {
        format!(
            "#ttg.blocked<{{sizePerThread = {}, threadsPerWarp = {}, warpsPerCTA = {}, order = {}}}>",
            list(&self.size_per_thread),
            list(&self.threads_per_warp),
            list(&self.warps_per_cta),
            list(&self.order)
        )
    }
}

fn list(values: &[u32]) -> String {
    let items: Vec<String> = values.iter().map(u32::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// A ranked tensor's parts.
struct TensorParts {
    shape: Vec<i64>,
    element: MlirType,
    encoding: Option<MlirAttribute>,
}

fn tensor_parts(ty: MlirType) -> Option<TensorParts> {
    let view = tt_dialect::types::TensorView::of(unsafe { Type::from_raw(ty) })?;
    Some(TensorParts {
        shape: view.shape.to_vec(),
        element: view.element.to_raw(),
        encoding: view.encoding.map(|e| e.to_raw()),
    })
}

fn tensor(shape: &[i64], element: MlirType, encoding: MlirAttribute) -> MlirType {
    unsafe {
        mlir_sys::mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), element, encoding)
    }
}

fn attribute_text(attr: MlirAttribute) -> String {
    unsafe { Attribute::from_raw(attr) }.to_string()
}

struct Converter {
    ctx: MlirContext,
    num_warps: u32,
    threads_per_warp: u32,
    /// Parsed encodings by text.
    encodings: HashMap<String, MlirAttribute>,
    /// The type each value had before the pass changed it.
    original: HashMap<Val, MlirType>,
    /// Materializations: (value, wanted type) to the converted value.
    casts: HashMap<(Val, usize), MlirValue>,
}

impl Converter {
    fn encoding(&mut self, text: String) -> MlirAttribute {
        let ctx = self.ctx;
        *self.encodings.entry(text).or_insert_with_key(|text| {
            ir::parse_attribute(ctx, text).unwrap_or_else(|| panic!("cannot parse encoding {text}"))
        })
    }

    fn default_blocked(&self, shape: &[i64]) -> Blocked {
        Blocked::default_for(shape, self.num_warps, self.threads_per_warp)
    }

    /// The type converter: the default blocked layout for tensors without
    /// an encoding, block pointers to such tensors converted likewise.
    fn convert_type(&mut self, ty: MlirType) -> MlirType {
        if let Some(parts) = tensor_parts(ty) {
            if parts.encoding.is_some() {
                return ty;
            }
            let text = self.default_blocked(&parts.shape).text();
            let encoding = self.encoding(text);
            return tensor(&parts.shape, parts.element, encoding);
        }
        let melior_ty = unsafe { Type::from_raw(ty) };
        if let Some((pointee, space)) = tt_dialect::types::pointer_parts(melior_ty) {
            if tensor_parts(pointee.to_raw()).is_some() {
                let converted = self.convert_type(pointee.to_raw());
                return tt_dialect::types::pointer_type(
                    unsafe { Type::from_raw(converted) },
                    space,
                )
                .to_raw();
            }
        }
        ty
    }

    fn set_type(&mut self, value: MlirValue, ty: MlirType) {
        let old = ir::value_type(value);
        if !ir::same_type(old, ty) {
            self.original.entry(Val(value)).or_insert(old);
            unsafe { mlir_sys::mlirValueSetType(value, ty) };
        }
    }

    /// The type a user wants for `value`: its original type, converted.
    fn wanted(&mut self, value: MlirValue) -> MlirType {
        let original = self
            .original
            .get(&Val(value))
            .copied()
            .unwrap_or_else(|| ir::value_type(value));
        self.convert_type(original)
    }

    /// Makes operand `index` of `op` have its wanted type, through a
    /// (shared) `ttg.convert_layout` after its definition when it has
    /// another layout. Returns the operand.
    fn remap(&mut self, op: MlirOperation, index: usize) -> MlirValue {
        let value = ir::operand(op, index);
        let wanted = self.wanted(value);
        if ir::same_type(ir::value_type(value), wanted) {
            return value;
        }
        let key = (Val(value), wanted.ptr as usize);
        let converted = match self.casts.get(&key) {
            Some(&cast) => cast,
            None => {
                let cast = ir::create_op(
                    "ttg.convert_layout",
                    ir::location(op),
                    &[value],
                    &[wanted],
                    &[],
                    Vec::new(),
                );
                match ir::defining_op(value) {
                    Some(def) => ir::insert_after(def, cast),
                    None => unsafe {
                        mlir_sys::mlirBlockInsertOwnedOperation(ir::value_block(value), 0, cast)
                    },
                }
                let result = ir::result(cast, 0);
                self.casts.insert(key, result);
                result
            }
        };
        ir::set_operand(op, index, converted);
        converted
    }

    fn remap_all(&mut self, op: MlirOperation) {
        for index in 0..ir::operand_count(op) {
            self.remap(op, index);
        }
    }

    fn convert_results(&mut self, op: MlirOperation) {
        for result in ir::results(op) {
            let ty = self.convert_type(ir::value_type(result));
            self.set_type(result, ty);
        }
    }

    /// A `ttg.convert_layout` of `value` to `ty`, inserted before `op`.
    fn convert_before(
        &mut self,
        op: MlirOperation,
        value: MlirValue,
        ty: MlirType,
        location: mlir_sys::MlirLocation,
    ) -> MlirValue {
        let cast = ir::create_op(
            "ttg.convert_layout",
            location,
            &[value],
            &[ty],
            &[],
            Vec::new(),
        );
        ir::insert_before(op, cast);
        ir::result(cast, 0)
    }

    /// The blocked layout of a remapped operand, which must be the default
    /// one this pass gave it.
    fn operand_blocked(&mut self, value: MlirValue) -> Result<(TensorParts, Blocked), String> {
        let parts = tensor_parts(ir::value_type(value)).ok_or("expected a tensor operand")?;
        let blocked = self.default_blocked(&parts.shape);
        let expected = self.encoding(blocked.text());
        if parts.encoding.map(|e| e.ptr) != Some(expected.ptr) {
            return Err(
                "operand already has a layout other than the default blocked one: not supported"
                    .into(),
            );
        }
        Ok((parts, blocked))
    }

    fn set_result_encoding(&mut self, op: MlirOperation, index: usize, encoding: MlirAttribute) {
        let result = ir::result(op, index);
        if let Some(parts) = tensor_parts(ir::value_type(result)) {
            self.set_type(result, tensor(&parts.shape, parts.element, encoding));
        }
    }

    fn convert(&mut self, op: MlirOperation) -> Result<(), String> {
        let name = ir::name(op);
        let result = match name.as_str() {
            "tt.func" => self.convert_function(op),
            "scf.for" | "scf.while" => {
                self.convert_block_arguments(op);
                self.remap_all(op);
                self.convert_results(op);
                Ok(())
            }
            "arith.constant" => self.convert_constant(op),
            "tt.expand_dims" => self.convert_expand_dims(op),
            "tt.dot" => self.convert_dot(op),
            "tt.broadcast" => {
                let src = self.remap(op, 0);
                if let Some(parts) = tensor_parts(ir::value_type(src)) {
                    if let Some(encoding) = parts.encoding {
                        self.set_result_encoding(op, 0, encoding);
                    }
                }
                Ok(())
            }
            "tt.reduce" => self.convert_reduce(op),
            "tt.scan" => {
                self.remap_all(op);
                for index in 0..ir::result_count(op) {
                    let encoding = tensor_parts(ir::value_type(ir::operand(op, index)))
                        .and_then(|p| p.encoding);
                    if let Some(encoding) = encoding {
                        self.set_result_encoding(op, index, encoding);
                    }
                }
                Ok(())
            }
            "tt.trans" => self.convert_trans(op),
            "tt.join" => self.convert_join(op),
            "tt.split" => self.convert_split(op),
            "tt.cat" => self.convert_cat(op),
            "tt.descriptor_gather" | "tt.descriptor_scatter" => self.convert_gather_scatter(op),
            _ => {
                self.remap_all(op);
                self.convert_results(op);
                Ok(())
            }
        };
        result.map_err(|message| format!("cannot convert '{name}': {message}"))
    }

    /// Converts the arguments of every block in `op`'s regions.
    fn convert_block_arguments(&mut self, op: MlirOperation) {
        for region in ir::regions(op) {
            for block in ir::blocks(region) {
                for argument in ir::block_args(block) {
                    let ty = self.convert_type(ir::value_type(argument));
                    self.set_type(argument, ty);
                }
            }
        }
    }

    fn convert_function(&mut self, op: MlirOperation) -> Result<(), String> {
        self.convert_block_arguments(op);
        let Some(attr) = ir::attribute(op, "function_type") else {
            return Ok(());
        };
        unsafe {
            let ty = mlir_sys::mlirTypeAttrGetValue(attr);
            let inputs: Vec<MlirType> = (0..mlir_sys::mlirFunctionTypeGetNumInputs(ty))
                .map(|i| mlir_sys::mlirFunctionTypeGetInput(ty, i))
                .collect();
            let results: Vec<MlirType> = (0..mlir_sys::mlirFunctionTypeGetNumResults(ty))
                .map(|i| mlir_sys::mlirFunctionTypeGetResult(ty, i))
                .collect();
            let inputs: Vec<MlirType> = inputs.into_iter().map(|t| self.convert_type(t)).collect();
            let results: Vec<MlirType> =
                results.into_iter().map(|t| self.convert_type(t)).collect();
            let converted = mlir_sys::mlirFunctionTypeGet(
                self.ctx,
                inputs.len() as isize,
                inputs.as_ptr(),
                results.len() as isize,
                results.as_ptr(),
            );
            if !ir::same_type(converted, ty) {
                ir::set_attribute(op, "function_type", mlir_sys::mlirTypeAttrGet(converted));
            }
        }
        Ok(())
    }

    fn convert_constant(&mut self, op: MlirOperation) -> Result<(), String> {
        let result = ir::result(op, 0);
        let ty = self.convert_type(ir::value_type(result));
        if ir::same_type(ty, ir::value_type(result)) {
            return Ok(());
        }
        let value = ir::attribute(op, "value").ok_or("no value")?;
        let reshaped =
            tt_dialect::ir::reshape_attr(unsafe { Attribute::from_raw(value) }, unsafe {
                Type::from_raw(ty)
            })
            .ok_or("the value is not a dense elements attribute")?;
        ir::set_attribute(op, "value", reshaped.to_raw());
        self.set_type(result, ty);
        Ok(())
    }

    fn convert_expand_dims(&mut self, op: MlirOperation) -> Result<(), String> {
        let src = self.remap(op, 0);
        let (parts, blocked) = self.operand_blocked(src)?;
        let axis = integer_attribute(op, "axis")? as usize;
        let insert = |values: &[u32]| {
            let mut values = values.to_vec();
            values.insert(axis, 1);
            values
        };
        let rank = parts.shape.len() + 1;
        let result = Blocked {
            size_per_thread: insert(&blocked.size_per_thread),
            threads_per_warp: insert(&blocked.threads_per_warp),
            warps_per_cta: insert(&blocked.warps_per_cta),
            order: (0..rank as u32).collect(),
        };
        let slice = self.encoding(format!(
            "#ttg.slice<{{dim = {axis}, parent = {}}}>",
            result.text()
        ));
        let sliced = self.convert_before(
            op,
            src,
            tensor(&parts.shape, parts.element, slice),
            ir::location(op),
        );
        ir::set_operand(op, 0, sliced);
        let encoding = self.encoding(result.text());
        self.set_result_encoding(op, 0, encoding);
        Ok(())
    }

    fn convert_dot(&mut self, op: MlirOperation) -> Result<(), String> {
        let result = ir::result(op, 0);
        let parts = tensor_parts(ir::value_type(result)).ok_or("the result is not a tensor")?;
        let shape = &parts.shape;
        let rank = shape.len();
        if rank < 2 {
            return Err("the result has rank below 2".into());
        }
        let mut size_per_thread = vec![1u32; rank];
        let per_thread = tt_dialect::types::num_elements(shape)
            / (i64::from(self.num_warps) * i64::from(self.threads_per_warp));
        let per_dim = if per_thread >= 16 {
            4
        } else if per_thread >= 4 {
            2
        } else {
            1
        };
        for d in [rank - 1, rank - 2] {
            size_per_thread[d] = (per_dim as i64).min(shape[d]).max(1) as u32;
        }
        let d_layout = Blocked::build(
            shape,
            size_per_thread,
            (0..rank as u32).rev().collect(),
            self.num_warps,
            self.threads_per_warp,
        );
        let d_text = d_layout.text();
        let d_encoding = self.encoding(d_text.clone());
        let operands: Vec<MlirValue> = (0..3).map(|i| self.remap(op, i)).collect();
        for (index, &value) in operands.iter().enumerate() {
            let value_parts =
                tensor_parts(ir::value_type(value)).ok_or("an operand is not a tensor")?;
            let encoding = if index < 2 {
                let current = value_parts.encoding.map(attribute_text).unwrap_or_default();
                if current.starts_with("#ttg.dot_op") {
                    continue;
                }
                self.encoding(format!(
                    "#ttg.dot_op<{{opIdx = {index}, parent = {d_text}}}>"
                ))
            } else {
                d_encoding
            };
            let location = unsafe { mlir_sys::mlirValueGetLocation(value) };
            let converted = self.convert_before(
                op,
                value,
                tensor(&value_parts.shape, value_parts.element, encoding),
                location,
            );
            ir::set_operand(op, index, converted);
        }
        self.set_result_encoding(op, 0, d_encoding);
        Ok(())
    }

    fn convert_reduce(&mut self, op: MlirOperation) -> Result<(), String> {
        self.remap_all(op);
        let axis = integer_attribute(op, "axis")?;
        for index in 0..ir::result_count(op) {
            if tensor_parts(ir::value_type(ir::result(op, index))).is_none() {
                continue;
            }
            let encoding = tensor_parts(ir::value_type(ir::operand(op, index)))
                .and_then(|p| p.encoding)
                .ok_or("an operand is not a tensor with a layout")?;
            let slice = self.encoding(format!(
                "#ttg.slice<{{dim = {axis}, parent = {}}}>",
                attribute_text(encoding)
            ));
            self.set_result_encoding(op, index, slice);
        }
        Ok(())
    }

    fn convert_trans(&mut self, op: MlirOperation) -> Result<(), String> {
        let src = self.remap(op, 0);
        let (_, blocked) = self.operand_blocked(src)?;
        let order = dense_i32_attribute(op, "order")?;
        let permute =
            |values: &[u32]| -> Vec<u32> { order.iter().map(|&o| values[o as usize]).collect() };
        let mut inverse = vec![0u32; order.len()];
        for (i, &o) in order.iter().enumerate() {
            inverse[o as usize] = i as u32;
        }
        let result = Blocked {
            size_per_thread: permute(&blocked.size_per_thread),
            threads_per_warp: permute(&blocked.threads_per_warp),
            warps_per_cta: permute(&blocked.warps_per_cta),
            order: blocked.order.iter().map(|&d| inverse[d as usize]).collect(),
        };
        let encoding = self.encoding(result.text());
        self.set_result_encoding(op, 0, encoding);
        Ok(())
    }

    fn convert_join(&mut self, op: MlirOperation) -> Result<(), String> {
        let lhs = self.remap(op, 0);
        self.remap(op, 1);
        let (parts, blocked) = self.operand_blocked(lhs)?;
        let rank = parts.shape.len() as u32;
        let append = |values: &[u32], last: u32| {
            let mut values = values.to_vec();
            values.push(last);
            values
        };
        let mut order = vec![rank];
        order.extend(&blocked.order);
        let result = Blocked {
            size_per_thread: append(&blocked.size_per_thread, 2),
            threads_per_warp: append(&blocked.threads_per_warp, 1),
            warps_per_cta: append(&blocked.warps_per_cta, 1),
            order,
        };
        let encoding = self.encoding(result.text());
        self.set_result_encoding(op, 0, encoding);
        Ok(())
    }

    fn convert_split(&mut self, op: MlirOperation) -> Result<(), String> {
        let src = self.remap(op, 0);
        let (parts, _) = self.operand_blocked(src)?;
        let rank = parts.shape.len();
        let result_shape = &parts.shape[..rank - 1];
        let default = self.default_blocked(result_shape);
        let append = |values: &[u32], last: u32| {
            let mut values = values.to_vec();
            values.push(last);
            values
        };
        let mut order = vec![rank as u32 - 1];
        order.extend(&default.order);
        let src_layout = Blocked {
            size_per_thread: append(&default.size_per_thread, 2),
            threads_per_warp: append(&default.threads_per_warp, 1),
            warps_per_cta: append(&default.warps_per_cta, 1),
            order,
        };
        let src_encoding = self.encoding(src_layout.text());
        let converted = self.convert_before(
            op,
            src,
            tensor(&parts.shape, parts.element, src_encoding),
            ir::location(op),
        );
        ir::set_operand(op, 0, converted);
        let encoding = self.encoding(default.text());
        for index in 0..ir::result_count(op) {
            self.set_result_encoding(op, index, encoding);
        }
        Ok(())
    }

    fn convert_cat(&mut self, op: MlirOperation) -> Result<(), String> {
        let lhs = self.remap(op, 0);
        let rhs = self.remap(op, 1);
        let (lhs_parts, lhs_layout) = self.operand_blocked(lhs)?;
        let (rhs_parts, rhs_layout) = self.operand_blocked(rhs)?;
        let result = ir::result(op, 0);
        let parts = tensor_parts(ir::value_type(result)).ok_or("the result is not a tensor")?;
        let mut layout = self.default_blocked(&parts.shape);
        let total = layout.total_elems_per_thread(&parts.shape);
        let wanted = (lhs_layout.total_elems_per_thread(&lhs_parts.shape)
            + rhs_layout.total_elems_per_thread(&rhs_parts.shape))
        .next_power_of_two();
        let fastest = layout.order[0] as usize;
        layout.size_per_thread[fastest] *= (wanted / total.max(1)) as u32;
        let encoding = self.encoding(layout.text());
        self.set_result_encoding(op, 0, encoding);
        Ok(())
    }
}

impl Converter {
    /// `tt.descriptor_gather` / `tt.descriptor_scatter`: the row offsets
    /// (operand 1) go to the layout TMA gathers and scatters read them in,
    /// Triton's pick: a slice (dim 0) of a blocked layout with four
    /// neighbouring offsets per thread, broadcast over the warps.
    fn convert_gather_scatter(&mut self, op: MlirOperation) -> Result<(), String> {
        self.remap_all(op);
        self.convert_results(op);
        let offsets = ir::operand(op, 1);
        let parts = tensor_parts(ir::value_type(offsets)).ok_or("expected tensor row offsets")?;
        if parts.shape.len() != 1 {
            return Err("the row offsets must be one-dimensional".into());
        }
        let encoding = self.encoding(gather_offsets_encoding(
            self.threads_per_warp,
            self.num_warps,
        ));
        if parts.encoding.map(|e| e.ptr) == Some(encoding.ptr) {
            return Ok(());
        }
        let ty = tensor(&parts.shape, parts.element, encoding);
        let converted = self.convert_before(op, offsets, ty, ir::location(op));
        ir::set_operand(op, 1, converted);
        Ok(())
    }
}

/// The text of the layout TMA gathers and scatters read their row offsets
/// in (Triton's `getNewIndicesType`): `gather4` / `scatter4` take four
/// consecutive offsets, so a slice (dim 0) of a blocked layout with four
/// neighbouring offsets per thread, broadcast over the warps.
pub(crate) fn gather_offsets_encoding(threads_per_warp: u32, num_warps: u32) -> String {
    let parent = Blocked {
        size_per_thread: vec![1, 4],
        threads_per_warp: vec![threads_per_warp, 1],
        warps_per_cta: vec![1, num_warps],
        order: vec![1, 0],
    };
    format!("#ttg.slice<{{dim = 0, parent = {}}}>", parent.text())
}

fn integer_attribute(op: MlirOperation, name: &str) -> Result<i64, String> {
    ir::attribute(op, name)
        .and_then(ir::integer_attr_value)
        .ok_or_else(|| format!("missing integer attribute '{name}'"))
}

fn dense_i32_attribute(op: MlirOperation, name: &str) -> Result<Vec<i32>, String> {
    let attr = ir::attribute(op, name).ok_or_else(|| format!("missing attribute '{name}'"))?;
    ir::dense_i32_array(attr).ok_or_else(|| format!("attribute '{name}' is not an i32 array"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layouts_match_triton() {
        let text = |shape: &[i64], warps| Blocked::default_for(shape, warps, 32).text();
        assert_eq!(
            text(&[1024], 4),
            "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>"
        );
        assert_eq!(
            text(&[4, 4], 2),
            "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 1], order = [1, 0]}>"
        );
        assert_eq!(
            text(&[64, 128], 8),
            "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>"
        );
        assert_eq!(
            text(&[128, 1], 8),
            "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>"
        );
    }

    #[test]
    fn dot_layout_matches_triton() {
        let layout = Blocked::build(&[128, 128], vec![4, 4], vec![1, 0], 8, 32);
        assert_eq!(layout.threads_per_warp, [1, 32]);
        assert_eq!(layout.warps_per_cta, [8, 1]);
    }

    #[test]
    fn options_parse_and_reject_garbage() {
        let options = Options::parse(&PassOptions::parse("target=cuda:90 num-warps=8").unwrap());
        let options = options.unwrap();
        assert_eq!(options.num_warps, 8);
        assert_eq!(options.threads_per_warp, 32);
        assert!(Options::parse(&PassOptions::parse("num-warps=3").unwrap()).is_err());
        assert!(Options::parse(&PassOptions::parse("enable-source-remat=maybe").unwrap()).is_err());
    }
}
