//! A small op builder for the concurrency sanitizer: it creates ops before
//! an op or at the end of a block, and knows the distributed layouts and
//! the tensor-over-scratch-memory idioms (`splat` / `make_range` / `addptr`
//! pointer tensors, loads and stores) that the sanitizer's state uses.

use mlir_sys::{
    MlirAttribute, MlirBlock, MlirContext, MlirLocation, MlirOperation, MlirType, MlirValue,
};

use crate::ttir::loop_support::ir;

/// Where new ops go.
#[derive(Clone, Copy)]
pub enum At {
    /// Right before this op.
    Before(MlirOperation),
    /// At the end of this block.
    End(MlirBlock),
}

/// The layouts of one region's sanitizer tensors: every thread holds every
/// element.
#[derive(Clone, Copy)]
pub struct Shape {
    pub num_warps: i64,
    pub threads_per_warp: i64,
}

/// An op builder over the C API handles.
#[derive(Clone, Copy)]
pub struct B {
    pub ctx: MlirContext,
    pub loc: MlirLocation,
    pub at: At,
    pub shape: Shape,
}

/// What building failed on: a type or attribute text MLIR rejected.
pub type BuildResult<T> = Result<T, String>;

impl B {
    /// Creates `name` at the insertion point.
    pub fn op(
        &self,
        name: &str,
        operands: &[MlirValue],
        results: &[MlirType],
        attributes: &[(&str, MlirAttribute)],
    ) -> MlirOperation {
        let op = ir::create_op(name, self.loc, operands, results, attributes, Vec::new());
        match self.at {
            At::Before(before) => ir::insert_before(before, op),
            // SAFETY: `block` is a live block and `op` a detached op whose
            // ownership passes to the block.
            At::End(block) => unsafe { mlir_sys::mlirBlockAppendOwnedOperation(block, op) },
        }
        op
    }

    /// Creates `name` with one result and returns it.
    pub fn v(
        &self,
        name: &str,
        operands: &[MlirValue],
        result: MlirType,
        attributes: &[(&str, MlirAttribute)],
    ) -> MlirValue {
        ir::result(self.op(name, operands, &[result], attributes), 0)
    }

    pub fn int_type(&self, width: u32) -> MlirType {
        // SAFETY: a live context.
        unsafe { mlir_sys::mlirIntegerTypeGet(self.ctx, width) }
    }

    pub fn parse_type(&self, text: &str) -> BuildResult<MlirType> {
        ir::parse_type(self.ctx, text).ok_or_else(|| format!("invalid type '{text}'"))
    }

    pub fn parse_attr(&self, text: &str) -> BuildResult<MlirAttribute> {
        ir::parse_attribute(self.ctx, text).ok_or_else(|| format!("invalid attribute '{text}'"))
    }

    pub fn ptr_type(&self, element_width: u32) -> BuildResult<MlirType> {
        self.parse_type(&format!("!tt.ptr<i{element_width}>"))
    }

    /// The blocked layout of a rank-1 or rank-2 sanitizer tensor of
    /// `shape`: the whole tensor in every thread, dimension 0 fastest.
    pub fn layout_text(&self, shape: &[i64]) -> String {
        let Shape {
            num_warps: nw,
            threads_per_warp: tpw,
        } = self.shape;
        match shape {
            [n] => format!(
                "#ttg.blocked<{{sizePerThread = [{n}], threadsPerWarp = [{tpw}], warpsPerCTA = [{nw}], order = [0]}}>"
            ),
            _ => format!(
                "#ttg.blocked<{{sizePerThread = [{}, {}], threadsPerWarp = [1, {tpw}], warpsPerCTA = [1, {nw}], order = [0, 1]}}>",
                shape[0], shape[1]
            ),
        }
    }

    /// `tensor<shape x element>` in the sanitizer layout.
    pub fn tensor(&self, shape: &[i64], element: MlirType) -> BuildResult<MlirType> {
        let layout = self.parse_attr(&self.layout_text(shape))?;
        Ok(ranked(shape, element, layout))
    }

    /// The rank-1 `tensor<n x element>` sliced out of the rank-2 layout of
    /// `parent` along `dim`.
    pub fn slice_tensor(
        &self,
        parent: &[i64],
        dim: usize,
        element: MlirType,
    ) -> BuildResult<MlirType> {
        let layout = self.parse_attr(&format!(
            "#ttg.slice<{{dim = {dim}, parent = {}}}>",
            self.layout_text(parent)
        ))?;
        Ok(ranked(&[parent[1 - dim]], element, layout))
    }

    pub fn const_int(&self, value: i64, width: u32) -> MlirValue {
        let ty = self.int_type(width);
        self.v(
            "arith.constant",
            &[],
            ty,
            &[("value", ir::integer_attr(ty, value))],
        )
    }

    /// `arith.constant dense<value> : ty` for an integer tensor type.
    pub fn const_splat(&self, ty: MlirType, value: i64) -> MlirValue {
        // SAFETY: `ty` is a live integer tensor type.
        let attr = unsafe {
            let element = mlir_sys::mlirShapedTypeGetElementType(ty);
            mlir_sys::mlirDenseElementsAttrSplatGet(ty, ir::integer_attr(element, value))
        };
        self.v("arith.constant", &[], ty, &[("value", attr)])
    }

    pub fn binary(&self, name: &str, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        self.v(name, &[lhs, rhs], ir::value_type(lhs), &[])
    }

    pub fn cmpi(&self, predicate: i64, lhs: MlirValue, rhs: MlirValue) -> MlirValue {
        let attr = ir::integer_attr(self.int_type(64), predicate);
        let ty = ir::i1_same_shape(ir::value_type(lhs));
        self.v("arith.cmpi", &[lhs, rhs], ty, &[("predicate", attr)])
    }

    pub fn select(&self, cond: MlirValue, a: MlirValue, b: MlirValue) -> MlirValue {
        self.v("arith.select", &[cond, a, b], ir::value_type(a), &[])
    }

    pub fn splat(&self, value: MlirValue, ty: MlirType) -> MlirValue {
        self.v("tt.splat", &[value], ty, &[])
    }

    /// `tt.make_range` over `[0, n)` of type `ty`.
    fn make_range(&self, n: i64, ty: MlirType) -> MlirValue {
        let i32t = self.int_type(32);
        self.v(
            "tt.make_range",
            &[],
            ty,
            &[
                ("start", ir::integer_attr(i32t, 0)),
                ("end", ir::integer_attr(i32t, n)),
            ],
        )
    }

    /// `make_range(n) * stride` as a tensor of type `ty`.
    fn strided_range(&self, n: i64, stride: i64, ty: MlirType) -> MlirValue {
        let range = self.make_range(n, ty);
        let stride = self.const_splat(ty, stride);
        self.binary("arith.muli", range, stride)
    }

    /// A tensor of pointers to every element of the dense, dimension-0
    /// fastest array of `shape` at `base` (`!tt.ptr<i{width}>`).
    pub fn pointer_tensor(&self, base: MlirValue, shape: &[i64]) -> BuildResult<MlirValue> {
        let ptr = ir::value_type(base);
        let ptrs_ty = self.tensor(shape, ptr)?;
        let ptrs = self.splat(base, ptrs_ty);
        let i32t = self.int_type(32);
        if let [n] = shape {
            let ty = self.tensor(shape, i32t)?;
            let offsets = self.strided_range(*n, 1, ty);
            return Ok(self.v("tt.addptr", &[ptrs, offsets], ptrs_ty, &[]));
        }
        let full = self.tensor(shape, i32t)?;
        let mut result = ptrs;
        let mut stride = 1;
        for dim in 0..2 {
            let sliced = self.slice_tensor(shape, 1 - dim, i32t)?;
            let offsets = self.strided_range(shape[dim], stride, sliced);
            let mut expanded_shape = shape.to_vec();
            expanded_shape[1 - dim] = 1;
            let expanded_ty = self.tensor_like(&expanded_shape, i32t, full);
            let axis = ir::integer_attr(i32t, (1 - dim) as i64);
            let mut offsets = self.v("tt.expand_dims", &[offsets], expanded_ty, &[("axis", axis)]);
            if expanded_shape != shape {
                offsets = self.v("tt.broadcast", &[offsets], full, &[]);
            }
            result = self.v("tt.addptr", &[result, offsets], ptrs_ty, &[]);
            stride *= shape[dim];
        }
        Ok(result)
    }

    /// `tensor<shape x element>` with the encoding of `like`.
    fn tensor_like(&self, shape: &[i64], element: MlirType, like: MlirType) -> MlirType {
        // SAFETY: `like` is a live ranked tensor type.
        let encoding = unsafe { mlir_sys::mlirRankedTensorTypeGetEncoding(like) };
        ranked(shape, element, encoding)
    }

    /// Loads the array of `shape` (`i{width}` elements) at `base`.
    pub fn load_tensor(
        &self,
        base: MlirValue,
        shape: &[i64],
        width: u32,
    ) -> BuildResult<MlirValue> {
        let ptrs = self.pointer_tensor(base, shape)?;
        let ty = self.tensor(shape, self.int_type(width))?;
        let i32t = self.int_type(32);
        let op = self.op(
            "tt.load",
            &[ptrs],
            &[ty],
            &[
                ("boundaryCheck", ir::dense_i32_array_attr(self.ctx, &[])),
                ("cache", ir::integer_attr(i32t, 1)),
                ("evict", ir::integer_attr(i32t, 1)),
                ("isVolatile", self.parse_attr("false")?),
                (
                    "operandSegmentSizes",
                    ir::dense_i32_array_attr(self.ctx, &[1, 0, 0]),
                ),
            ],
        );
        Ok(ir::result(op, 0))
    }

    /// Stores `value` (a tensor of `shape`) to the array at `base`.
    pub fn store_tensor(
        &self,
        base: MlirValue,
        value: MlirValue,
        shape: &[i64],
    ) -> BuildResult<()> {
        let ptrs = self.pointer_tensor(base, shape)?;
        let i32t = self.int_type(32);
        self.op(
            "tt.store",
            &[ptrs, value],
            &[],
            &[
                ("boundaryCheck", ir::dense_i32_array_attr(self.ctx, &[])),
                ("cache", ir::integer_attr(i32t, 1)),
                ("evict", ir::integer_attr(i32t, 1)),
            ],
        );
        Ok(())
    }

    /// `ttg.global_scratch_alloc` of `count` `i{width}` elements.
    pub fn scratch(&self, count: i64, width: u32) -> BuildResult<MlirValue> {
        let bytes = i64::from(width / 8);
        let i32t = self.int_type(32);
        Ok(self.v(
            "ttg.global_scratch_alloc",
            &[],
            self.ptr_type(width)?,
            &[
                ("nbytes", ir::integer_attr(i32t, count * bytes)),
                ("alignment", ir::integer_attr(i32t, bytes)),
            ],
        ))
    }

    /// `tti.experimental_memdesc_to_i64 memdesc`.
    pub fn memdesc_to_i64(&self, memdesc: MlirValue) -> MlirValue {
        self.v(
            "tti.experimental_memdesc_to_i64",
            &[memdesc],
            self.int_type(64),
            &[],
        )
    }
}

/// `tensor<shape x element, encoding>`.
pub fn ranked(shape: &[i64], element: MlirType, encoding: MlirAttribute) -> MlirType {
    // SAFETY: live element type and encoding; the shape is copied.
    unsafe {
        mlir_sys::mlirRankedTensorTypeGet(shape.len() as isize, shape.as_ptr(), element, encoding)
    }
}
