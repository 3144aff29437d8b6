//! Building LLVM-dialect ops at the end of a block: constants, integer
//! arithmetic, pointers, inline PTX and NVVM special registers. Every
//! helper returns the new op's result, so lowerings read as expressions.

use melior::{
    ir::{
        attribute::{
            ArrayAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute,
            IntegerAttribute, StringAttribute, TypeAttribute,
        },
        block::BlockLike,
        operation::{OperationBuilder, OperationRef},
        r#type::IntegerType,
        Attribute, BlockRef, Identifier, Location, Type, TypeLike, Value, ValueLike,
    },
    Context,
};

/// Adds ops to one block, all at one location: at the block's end, or
/// before `before` when set.
pub struct Emitter<'c, 'a> {
    pub context: &'c Context,
    pub block: BlockRef<'c, 'a>,
    pub location: Location<'c>,
    pub before: Option<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// The same insertion point, at `location`.
    pub fn at(&self, location: Location<'c>) -> Self {
        Self {
            context: self.context,
            block: self.block,
            location,
            before: self.before,
        }
    }

    /// An emitter at the end of `block`, at the same location.
    pub fn at_end_of(&self, block: BlockRef<'c, 'a>) -> Self {
        Self {
            context: self.context,
            block,
            location: self.location,
            before: None,
        }
    }

    /// Ends the block with `llvm.br` to `target`, passing `operands` as its
    /// arguments.
    pub fn br(&self, target: &BlockRef<'c, 'a>, operands: &[Value<'c, 'a>]) -> Result<(), String> {
        let branch = OperationBuilder::new("llvm.br", self.location)
            .add_operands(operands)
            .add_successors(&[target])
            .build()
            .map_err(|_| "could not build an llvm.br".to_owned())?;
        self.block.append_operation(branch);
        Ok(())
    }

    /// Ends the block with `llvm.cond_br` on `condition` to `on_true` or
    /// `on_false` (no block arguments).
    pub fn cond_br(
        &self,
        condition: Value<'c, 'a>,
        on_true: &BlockRef<'c, 'a>,
        on_false: &BlockRef<'c, 'a>,
    ) -> Result<(), String> {
        let branch = OperationBuilder::new("llvm.cond_br", self.location)
            .add_operands(&[condition])
            .add_successors(&[on_true, on_false])
            .add_attributes(&[(
                Identifier::new(self.context, "operandSegmentSizes"),
                self.attr("array<i32: 1, 0, 0>"),
            )])
            .build()
            .map_err(|_| "could not build an llvm.cond_br".to_owned())?;
        self.block.append_operation(branch);
        Ok(())
    }

    /// Appends op `name` and returns it.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(n, a)| (Identifier::new(self.context, n), *a))
            .collect();
        let op = OperationBuilder::new(name, self.location)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(&attributes)
            .build()
            .unwrap_or_else(|_| panic!("MLIR refused to build '{name}'"));
        let op = match self.before {
            Some(before) => self.block.insert_operation_before(before, op),
            None => self.block.append_operation(op),
        };
        unsafe { OperationRef::from_raw(op.to_raw()) }
    }

    /// Appends op `name` with one result and returns that result.
    pub fn value(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        let op = self.op(name, operands, &[result], attributes);
        op.result(0).expect("one result").into()
    }

    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.context, bits).into()
    }

    pub fn i32_type(&self) -> Type<'c> {
        self.int_type(32)
    }

    /// `!llvm.ptr<space>`.
    pub fn ptr_type(&self, space: u32) -> Type<'c> {
        // SAFETY: the context is live and the LLVM dialect is loaded.
        unsafe {
            Type::from_raw(mlir_sys::mlirLLVMPointerTypeGet(
                self.context.to_raw(),
                space,
            ))
        }
    }

    /// `vector<n x element>`.
    pub fn vector_type(&self, n: u64, element: Type<'c>) -> Type<'c> {
        let shape = [n as i64];
        // SAFETY: `shape` outlives the call; a 1-D vector of a scalar
        // integer or float type is always valid.
        unsafe {
            Type::from_raw(mlir_sys::mlirVectorTypeGet(
                1,
                shape.as_ptr(),
                element.to_raw(),
            ))
        }
    }

    /// `!llvm.struct<(types...)>`.
    pub fn struct_type(&self, types: &[Type<'c>]) -> Type<'c> {
        llvm_struct(self.context, types)
    }

    pub fn attr(&self, text: &str) -> Attribute<'c> {
        Attribute::parse(self.context, text).unwrap_or_else(|| panic!("bad attribute {text}"))
    }

    pub fn string_attr(&self, text: &str) -> Attribute<'c> {
        StringAttribute::new(self.context, text).into()
    }

    /// An integer constant of type `ty`.
    pub fn int(&self, ty: Type<'c>, value: i64) -> Value<'c, 'a> {
        self.value(
            "llvm.mlir.constant",
            &[],
            ty,
            &[("value", IntegerAttribute::new(ty, value).into())],
        )
    }

    pub fn i32(&self, value: i64) -> Value<'c, 'a> {
        self.int(self.i32_type(), value)
    }

    /// A constant of type `ty` with attribute `value`.
    pub fn constant(&self, ty: Type<'c>, value: Attribute<'c>) -> Value<'c, 'a> {
        self.value("llvm.mlir.constant", &[], ty, &[("value", value)])
    }

    /// A binary op whose result has its operands' type.
    pub fn binary(&self, name: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(name, &[lhs, rhs], lhs.r#type(), &[])
    }

    pub fn add(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.add", lhs, rhs)
    }

    pub fn mul(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.mul", lhs, rhs)
    }

    pub fn and(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.and", lhs, rhs)
    }

    pub fn or(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.or", lhs, rhs)
    }

    pub fn xor(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.xor", lhs, rhs)
    }

    pub fn shl(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.shl", lhs, rhs)
    }

    pub fn lshr(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        self.binary("llvm.lshr", lhs, rhs)
    }

    /// `value * factor` for an unsigned constant `factor`: nothing for 1, a
    /// shift for other powers of two (what LLVM would make of it, emitted
    /// directly so that its optimizer has less to do).
    pub fn mul_by(&self, value: Value<'c, 'a>, factor: i64) -> Value<'c, 'a> {
        match power_of_two(factor) {
            Some(0) => value,
            Some(k) => self.shl(value, self.int(value.r#type(), k)),
            None => self.mul(value, self.int(value.r#type(), factor)),
        }
    }

    /// `value / divisor`, unsigned, for a constant `divisor`: nothing for
    /// 1, a shift for other powers of two.
    pub fn udiv_by(&self, value: Value<'c, 'a>, divisor: i64) -> Value<'c, 'a> {
        match power_of_two(divisor) {
            Some(0) => value,
            Some(k) => self.lshr(value, self.int(value.r#type(), k)),
            None => self.binary("llvm.udiv", value, self.int(value.r#type(), divisor)),
        }
    }

    /// `value % divisor`, unsigned, for a constant `divisor`: a mask for
    /// powers of two (0 for 1).
    pub fn urem_by(&self, value: Value<'c, 'a>, divisor: i64) -> Value<'c, 'a> {
        match power_of_two(divisor) {
            Some(0) => self.int(value.r#type(), 0),
            Some(_) => self.and(value, self.int(value.r#type(), divisor - 1)),
            None => self.binary("llvm.urem", value, self.int(value.r#type(), divisor)),
        }
    }

    /// `icmp <predicate>` (`eq`, `ne`, `slt`, `ult`, ...).
    pub fn icmp(&self, predicate: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let code = match predicate {
            "eq" => 0,
            "ne" => 1,
            "slt" => 2,
            "sle" => 3,
            "sgt" => 4,
            "sge" => 5,
            "ult" => 6,
            "ule" => 7,
            "ugt" => 8,
            "uge" => 9,
            _ => panic!("unknown icmp predicate {predicate}"),
        };
        let i64_type = self.int_type(64);
        self.value(
            "llvm.icmp",
            &[lhs, rhs],
            self.int_type(1),
            &[("predicate", IntegerAttribute::new(i64_type, code).into())],
        )
    }

    /// `fcmp <predicate>`, with LLVM's predicate names (`oeq`, `une`, ...).
    pub fn fcmp(&self, predicate: &str, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        const PREDICATES: [&str; 16] = [
            "_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
            "ule", "une", "uno", "_true",
        ];
        let code = PREDICATES
            .iter()
            .position(|p| *p == predicate)
            .unwrap_or_else(|| panic!("unknown fcmp predicate {predicate}"));
        let i64_type = self.int_type(64);
        self.value(
            "llvm.fcmp",
            &[lhs, rhs],
            self.int_type(1),
            &[(
                "predicate",
                IntegerAttribute::new(i64_type, code as i64).into(),
            )],
        )
    }

    /// A call of the LLVM intrinsic `name` (`llvm.nvvm.prmt`, ...) with one
    /// result of type `result`.
    pub fn call_intrinsic(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        self.intrinsic_call(name, operands, &[result])
            .result(0)
            .expect("one result")
            .into()
    }

    /// A call of the LLVM intrinsic `name` without a result
    /// (`llvm.nvvm.barrier.cta.sync.all`, ...).
    pub fn call_void_intrinsic(&self, name: &str, operands: &[Value<'c, 'a>]) {
        self.intrinsic_call(name, operands, &[]);
    }

    fn intrinsic_call(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
    ) -> OperationRef<'c, 'a> {
        let segments = format!("array<i32: {}, 0>", operands.len());
        self.op(
            "llvm.call_intrinsic",
            operands,
            results,
            &[
                ("intrin", self.string_attr(name)),
                ("operandSegmentSizes", self.attr(&segments)),
                ("op_bundle_sizes", self.attr("array<i32>")),
            ],
        )
    }

    /// The start of the kernel's dynamic shared memory (`@global_smem`).
    pub fn global_smem(&self) -> Value<'c, 'a> {
        self.value(
            "llvm.mlir.addressof",
            &[],
            self.ptr_type(3),
            &[("global_name", self.attr("@global_smem"))],
        )
    }

    /// `value` as lane 0 holds it (`shfl.sync.idx` over the full warp), which
    /// tells the compiler it is the same across the warp (a warp id).
    pub fn warp_uniform(&self, value: Value<'c, 'a>) -> Value<'c, 'a> {
        self.value(
            "nvvm.shfl.sync",
            &[self.i32(-1), value, self.i32(0), self.i32(31)],
            self.i32_type(),
            &[("kind", self.attr("#nvvm<shfl_kind idx>"))],
        )
    }

    pub fn select(
        &self,
        condition: Value<'c, 'a>,
        on_true: Value<'c, 'a>,
        on_false: Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        self.value(
            "llvm.select",
            &[condition, on_true, on_false],
            on_true.r#type(),
            &[],
        )
    }

    /// A vector of `element`s holding `values` in order (the single value
    /// itself when there is one).
    pub fn vector_of(&self, values: &[Value<'c, 'a>], element: Type<'c>) -> Value<'c, 'a> {
        if values.len() == 1 {
            return values[0];
        }
        let ty = self.vector_type(values.len() as u64, element);
        // Undefined until filled, as Triton builds its vectors.
        let mut acc = self.value("llvm.mlir.undef", &[], ty, &[]);
        for (i, &v) in values.iter().enumerate() {
            acc = self.value("llvm.insertelement", &[acc, v, self.i32(i as i64)], ty, &[]);
        }
        acc
    }

    /// An LLVM struct of type `ty` holding `values` as its fields, in order.
    pub fn struct_of(&self, values: &[Value<'c, 'a>], ty: Type<'c>) -> Value<'c, 'a> {
        // Undefined until filled, as Triton's `packLLElements` starts.
        let undef = self.value("llvm.mlir.undef", &[], ty, &[]);
        values
            .iter()
            .enumerate()
            .fold(undef, |packed, (i, &v)| self.insert(packed, v, i as i64))
    }

    /// The `n` elements (of type `element`) of `vector`, which is a single
    /// element when `n` is 1.
    pub fn elements_of(
        &self,
        vector: Value<'c, 'a>,
        n: usize,
        element: Type<'c>,
    ) -> Vec<Value<'c, 'a>> {
        if n == 1 {
            return vec![vector];
        }
        (0..n)
            .map(|i| {
                self.value(
                    "llvm.extractelement",
                    &[vector, self.i32(i as i64)],
                    element,
                    &[],
                )
            })
            .collect()
    }

    /// `values` of type `element`, 32 bits together, as one i32 (an MMA
    /// or `ldmatrix` register).
    pub fn pack_word(&self, values: &[Value<'c, 'a>], element: Type<'c>) -> Value<'c, 'a> {
        self.bitcast(self.vector_of(values, element), self.i32_type())
    }

    /// The `n` elements of type `element` that the i32 `word` holds.
    pub fn unpack_word(
        &self,
        word: Value<'c, 'a>,
        n: usize,
        element: Type<'c>,
    ) -> Vec<Value<'c, 'a>> {
        let ty = if n == 1 {
            element
        } else {
            self.vector_type(n as u64, element)
        };
        self.elements_of(self.bitcast(word, ty), n, element)
    }

    pub fn bitcast(&self, value: Value<'c, 'a>, ty: Type<'c>) -> Value<'c, 'a> {
        if value.r#type() == ty {
            return value;
        }
        self.value("llvm.bitcast", &[value], ty, &[])
    }

    /// `pointer` moved `bytes` bytes (itself when 0).
    pub fn byte_offset(&self, pointer: Value<'c, 'a>, bytes: i64) -> Value<'c, 'a> {
        if bytes == 0 {
            pointer
        } else {
            self.gep(pointer, self.i32(bytes), self.int_type(8))
        }
    }

    /// `&base[index]` with elements of type `element`.
    pub fn gep(
        &self,
        base: Value<'c, 'a>,
        index: Value<'c, 'a>,
        element: Type<'c>,
    ) -> Value<'c, 'a> {
        self.value(
            "llvm.getelementptr",
            &[base, index],
            base.r#type(),
            &[
                (
                    "rawConstantIndices",
                    DenseI32ArrayAttribute::new(self.context, &[i32::MIN]).into(),
                ),
                ("elem_type", TypeAttribute::new(element).into()),
            ],
        )
    }

    /// The addressing of shared-memory accesses `&base[part ^ offset]`
    /// ([`XorAddressing::at`]), where the thread-dependent `part` (in
    /// elements) only has bits of `reach`. Elements of 2 to 8 bytes are
    /// addressed in bytes, as Triton addresses them: `part` is scaled here,
    /// once, and each access XORs its constant into the scaled offset (one
    /// instruction an access, where scaling after the XOR takes two).
    pub fn xor_addressing(
        &self,
        base: Value<'c, 'a>,
        part: Value<'c, 'a>,
        reach: i64,
        element: Type<'c>,
    ) -> XorAddressing<'c, 'a> {
        let bytes = tt_dialect::types::bit_width(element)
            .filter(|&b| (16..=64).contains(&b) && b.is_power_of_two())
            .map_or(1, |b| i64::from(b / 8));
        let (part, unit) = if bytes > 1 {
            let scaled = self.shl(part, self.i32(i64::from(bytes.trailing_zeros())));
            (scaled, self.int_type(8))
        } else {
            (part, element)
        };
        XorAddressing {
            base,
            part,
            reach,
            bytes,
            unit,
        }
    }

    /// `aggregate` with field `index` set to `value`.
    pub fn insert(
        &self,
        aggregate: Value<'c, 'a>,
        value: Value<'c, 'a>,
        index: i64,
    ) -> Value<'c, 'a> {
        self.value(
            "llvm.insertvalue",
            &[aggregate, value],
            aggregate.r#type(),
            &[(
                "position",
                DenseI64ArrayAttribute::new(self.context, &[index]).into(),
            )],
        )
    }

    /// Field `index` of an LLVM struct value.
    pub fn extract(&self, value: Value<'c, 'a>, index: i64, ty: Type<'c>) -> Value<'c, 'a> {
        self.value(
            "llvm.extractvalue",
            &[value],
            ty,
            &[(
                "position",
                DenseI64ArrayAttribute::new(self.context, &[index]).into(),
            )],
        )
    }

    /// An NVVM special register such as `tid.x` or `ctaid.y`.
    pub fn special_register(&self, name: &str) -> Value<'c, 'a> {
        self.value(
            &format!("nvvm.read.ptx.sreg.{name}"),
            &[],
            self.i32_type(),
            &[],
        )
    }

    /// Inline PTX with side effects: `asm` with `constraints`, returning
    /// `result` (`None` for no result).
    pub fn inline_asm(
        &self,
        asm: &str,
        constraints: &str,
        operands: &[Value<'c, 'a>],
        result: Option<Type<'c>>,
    ) -> Option<Value<'c, 'a>> {
        self.asm(asm, constraints, operands, result, true)
    }

    /// Inline PTX that only computes its result from its operands (a
    /// conversion, say), so LLVM may merge, move or drop it as any pure
    /// instruction.
    pub fn pure_asm(
        &self,
        asm: &str,
        constraints: &str,
        operands: &[Value<'c, 'a>],
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        self.asm(asm, constraints, operands, Some(result), false)
            .expect("a result")
    }

    /// Inline PTX with side effects and no result, its result typed
    /// `!llvm.void` as Triton's PTXBuilder types it (the form Triton's
    /// barrier and TMA lowerings print).
    pub fn void_asm(&self, asm: &str, constraints: &str, operands: &[Value<'c, 'a>]) {
        let void = Type::parse(self.context, "!llvm.void").expect("the LLVM dialect is loaded");
        self.asm(asm, constraints, operands, Some(void), true);
    }

    /// Inline PTX returning `result` (a struct for several registers),
    /// with side effects or without.
    pub fn asm(
        &self,
        asm: &str,
        constraints: &str,
        operands: &[Value<'c, 'a>],
        result: Option<Type<'c>>,
        side_effects: bool,
    ) -> Option<Value<'c, 'a>> {
        self.asm_with(asm, constraints, operands, result, side_effects, true)
    }

    /// As [`Self::asm`], with or without the empty `operand_attrs` of
    /// Triton's PTXBuilder (the user's `tt.elementwise_inline_asm` goes
    /// without, as Triton builds it).
    pub fn asm_with(
        &self,
        asm: &str,
        constraints: &str,
        operands: &[Value<'c, 'a>],
        result: Option<Type<'c>>,
        side_effects: bool,
        operand_attrs: bool,
    ) -> Option<Value<'c, 'a>> {
        let mut attributes = vec![
            ("asm_string", self.string_attr(asm)),
            ("constraints", self.string_attr(constraints)),
            (
                "asm_dialect",
                IntegerAttribute::new(self.int_type(64), 0).into(),
            ),
        ];
        if operand_attrs {
            // No per-operand attributes, written out as Triton's
            // PTXBuilder does (`operand_attrs = []`).
            attributes.push((
                "operand_attrs",
                ArrayAttribute::new(self.context, &[]).into(),
            ));
        }
        if side_effects {
            attributes.push(("has_side_effects", Attribute::unit(self.context)));
        }
        let op = self.op("llvm.inline_asm", operands, result.as_slice(), &attributes);
        result.map(|_| op.result(0).expect("one result").into())
    }

    /// `llvm.call @callee(operands)`, returning its result when `result`
    /// is set (`None` for a void function).
    pub fn call(
        &self,
        callee: &str,
        operands: &[Value<'c, 'a>],
        result: Option<Type<'c>>,
    ) -> Option<Value<'c, 'a>> {
        let op = self.op(
            "llvm.call",
            operands,
            result.as_slice(),
            &[
                (
                    "callee",
                    FlatSymbolRefAttribute::new(self.context, callee).into(),
                ),
                (
                    "operandSegmentSizes",
                    DenseI32ArrayAttribute::new(self.context, &[operands.len() as i32, 0]).into(),
                ),
                (
                    "op_bundle_sizes",
                    DenseI32ArrayAttribute::new(self.context, &[]).into(),
                ),
            ],
        );
        result.map(|_| op.result(0).expect("one result").into())
    }

    /// `bar.warp.sync -1`: a barrier across the warp, which is the whole
    /// CTA when it has one warp (Triton's barrier then).
    pub fn warp_barrier(&self) {
        let all = self.i32(-1);
        self.op("nvvm.bar.warp.sync", &[all], &[], &[]);
    }

    /// `bar.sync 0`: a barrier across the CTA.
    pub fn barrier(&self) {
        self.op("nvvm.barrier0", &[], &[], &[]);
    }
}

/// The type that carries values of `types` as one (what a call returns,
/// an inline asm's registers): nothing for no type, the type itself for
/// one, a literal struct for several.
/// `Some(k)` when `value` is `2^k` (k < 63), else `None` (zero and negative
/// values included).
fn power_of_two(value: i64) -> Option<i64> {
    (value > 0 && value.count_ones() == 1).then(|| i64::from(value.trailing_zeros()))
}

pub fn packed_type<'c>(context: &'c melior::Context, types: &[Type<'c>]) -> Option<Type<'c>> {
    match types {
        [] => None,
        [one] => Some(*one),
        many => Some(llvm_struct(context, many)),
    }
}

/// A literal (unnamed) LLVM struct of `types`.
pub fn llvm_struct<'c>(context: &'c melior::Context, types: &[Type<'c>]) -> Type<'c> {
    literal_struct(context, types, false)
}

/// A packed literal LLVM struct of `types`: its fields back to back, with
/// no padding between them.
pub fn packed_llvm_struct<'c>(context: &'c melior::Context, types: &[Type<'c>]) -> Type<'c> {
    literal_struct(context, types, true)
}

fn literal_struct<'c>(context: &'c melior::Context, types: &[Type<'c>], packed: bool) -> Type<'c> {
    let fields: Vec<mlir_sys::MlirType> = types.iter().map(|t| t.to_raw()).collect();
    // SAFETY: `fields` outlives the call; a literal (unnamed) struct of
    // LLVM-compatible types is always valid.
    unsafe {
        Type::from_raw(mlir_sys::mlirLLVMStructTypeLiteralGet(
            context.to_raw(),
            fields.len() as isize,
            fields.as_ptr(),
            packed,
        ))
    }
}

/// Shared-memory addresses `&base[part ^ offset]` for constant `offset`s
/// ([`Emitter::xor_addressing`]).
pub struct XorAddressing<'c, 'a> {
    base: Value<'c, 'a>,
    /// The thread's part, scaled to `unit`s.
    part: Value<'c, 'a>,
    /// The bits (in elements) that `part` may have.
    reach: i64,
    /// Bytes of one element when `unit` is a byte, else 1.
    bytes: i64,
    unit: Type<'c>,
}

impl<'c, 'a> XorAddressing<'c, 'a> {
    /// `&base[part ^ offset]` (`offset` in elements): the offset's bits
    /// inside `reach` are XOR-ed into the thread's part, its other bits
    /// are added as a second, constant index, which the backend folds into
    /// the access's immediate offset (Triton's additive strides).
    pub fn at(&self, emit: &Emitter<'c, 'a>, offset: i64) -> Value<'c, 'a> {
        let (mixed, apart) = (offset & self.reach, offset & !self.reach);
        let index = if mixed == 0 {
            self.part
        } else {
            emit.xor(self.part, emit.i32(mixed * self.bytes))
        };
        let at = emit.gep(self.base, index, self.unit);
        if apart == 0 {
            at
        } else {
            emit.gep(at, emit.i32(apart * self.bytes), self.unit)
        }
    }
}
