//! `convert-triton-gpu-to-llvm`'s walk-and-rebuild: every `tt.func`
//! becomes an `llvm.func` whose body is rebuilt op by op. A distributed
//! tensor becomes the values this thread holds (one per register of its
//! layout, in register order); a scalar stays one value; a shared-memory
//! descriptor becomes its base pointer in address space 3. Ops that are
//! already scalar (`arith`, `math`, `cf`) are rebuilt per element as their
//! LLVM counterparts; the few without one here are rebuilt as they are,
//! and [`lower_module`] says so, for MLIR's own conversions to finish.

mod assert;
mod atomic;
mod convert_layout;
mod dot;
mod elementwise;
mod emit;
mod fp4;
pub(crate) mod gather;
mod histogram;
mod inline_asm;
mod instrument;
mod layout;
mod ldmatrix;
mod map_elementwise;
mod memory;
mod nvg;
mod print;
mod reduce;
pub(crate) mod scan;
mod tma;
mod types;
mod view;
mod warp_specialize;
mod wgmma;

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use melior::{
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, OperationRef},
        r#type::{IntegerType, TypeLike},
        Attribute, AttributeLike, Block, BlockRef, Identifier, Location, Region, RegionLike,
        RegionRef, Type, Value, ValueLike,
    },
    Context,
};
use tt_dialect::{ir as ttir, types::TensorView};
use tt_passes::{analysis::axis_info::AxisInfoMap, rust_pass::Failure};
use ttg_dialect::{
    layout::{Layout, MemDesc},
    to_linear::splits_dimension,
};

pub use emit::{packed_llvm_struct, packed_type, Emitter};
pub use layout::{Distributed, ThreadIds};
pub use nvg::lower_nvg_ops;
pub(crate) use nvg::partition_of;

/// What the lowering of one op reports when it cannot proceed: the message
/// becomes an error at the op.
pub type LowerResult = Result<(), String>;

/// The bytes of shared memory an access may touch (offsets from
/// `@global_smem`); `None` when they are not known.
pub type Span = Option<Range<u64>>;

/// A shared-memory access, for barrier placement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Read(Span),
    Write(Span),
    /// A point where every thread synchronises anyway.
    Barrier,
}

/// Whether two spans may share a byte.
fn overlap(a: &Span, b: &Span) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.start < b.end && b.start < a.end,
        _ => true,
    }
}

/// The shared memory read and written since the last barrier.
#[derive(Clone, Debug, Default)]
struct Pending {
    reads: Vec<Span>,
    writes: Vec<Span>,
}

impl Pending {
    /// Anything may have been read or written (a block reached from
    /// elsewhere).
    fn unknown() -> Self {
        Self {
            reads: vec![None],
            writes: vec![None],
        }
    }
}

/// Where `tritongpu-global-scratch-memory-allocation` puts a buffer (or a
/// callee's buffers) in its function's global scratch memory.
const GLOBAL_SCRATCH_OFFSET: &str = "ttg.global_scratch_memory_offset";

/// Options of the conversion.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub compute_capability: u32,
    pub ptx_version: u32,
}

/// The state of the conversion of one module.
pub struct Lowering<'c, 'a> {
    pub context: &'c Context,
    pub module: OperationRef<'c, 'a>,
    pub options: Options,
    pub axis: AxisInfoMap,
    pub num_warps: i64,
    pub threads_per_warp: i64,
    /// CTAs per cluster (`ttg.num-ctas`): above 1, only kernels whose
    /// tensors every CTA holds whole (all CTAs run the same code, the first
    /// writes), or kernels that only the first CTA runs.
    pub num_ctas: i64,
    /// Set by the module's [`CLUSTER_CTAS`] attribute: its kernels were
    /// compiled for one CTA, and only the first CTA of each cluster runs
    /// them (the others return at once).
    pub leader_cta_only: bool,
    values: HashMap<usize, Vec<Value<'c, 'a>>>,
    /// The shared-memory views that start inside their buffer's swizzle
    /// pattern ([`memory::XorView`]), by value: their value is their
    /// buffer's base, which only the ops that know the view's start read.
    xor_views: HashMap<usize, memory::XorView>,
    blocks: HashMap<usize, BlockRef<'c, 'a>>,
    prologue: Option<(BlockRef<'c, 'a>, OperationRef<'c, 'a>)>,
    /// This thread's ids, read at the end of the prologue the first time
    /// an op needs them (a function that never does reads none).
    threads: std::cell::RefCell<Option<ThreadIds<'c, 'a>>>,
    shared_base: Option<Value<'c, 'a>>,
    /// The warp id made uniform across the warp (`shfl.sync` of lane 0's),
    /// emitted once per function at its entry.
    uniform_warp: Option<Value<'c, 'a>>,
    /// Shared memory read / written since the last barrier.
    pending: Pending,
    /// Where the ops after the current one go, when its lowering split
    /// the block (see [`Lowering::split_block`]).
    continuation: Option<BlockRef<'c, 'a>>,
    /// Assertions met in the combine region of the reduction or scan being
    /// lowered, each with whether it failed in this thread so far; they are
    /// raised once the op's straight-line code is done (see [`assert`]).
    deferred_asserts: Vec<(OperationRef<'c, 'a>, Value<'c, 'a>)>,
    /// The current function's two trailing pointers (global scratch and
    /// profile scratch), which calls pass on to their callees.
    scratch_args: Vec<Value<'c, 'a>>,
    /// Whether the current function is a kernel (public), whose global
    /// scratch pointer is the whole grid's rather than its own buffer's.
    in_kernel: bool,
    /// Inside a `ttg.warp_specialize` partition: its first thread (`None`
    /// before `tritongpu-allocate-warp-groups` placed it) and its thread
    /// count, from which thread ids count ([`ThreadIds::new`]).
    thread_group: Option<(Option<i64>, i64)>,
    /// Why the op being lowered cannot be, found by a helper that cannot
    /// fail; checked after every op.
    refusal: RefCell<Option<String>>,
    /// An op nested in the one being lowered (a region's) that failed, and
    /// why: reported at that op rather than at its parent.
    failed_inside: Option<(OperationRef<'c, 'a>, String)>,
    /// Each tensor type's layout, read once: types are uniqued, so a type's
    /// address is its key.
    layouts: RefCell<HashMap<usize, Rc<Distributed>>>,
    /// Whether an op was rebuilt in a dialect other than `llvm` and `nvvm`
    /// (see [`elementwise`]), for MLIR's conversions to finish.
    pub left_for_mlir: bool,
    /// `#arith.fastmath<none>` and `#arith.overflow<none>`: the flags an
    /// op may carry and still become its LLVM counterpart.
    no_flags: [Attribute<'c>; 2],
}

fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// The offset of `op`'s shared scratch, which `allocate-shared-memory-nv`
/// records as `allocation.offset`.
fn scratch_offset(op: OperationRef) -> Result<u64, String> {
    crate::allocation::offset(op).ok_or_else(|| {
        let name = op.name();
        format!(
            "{} needs its shared scratch ('allocation.offset'): run allocate-shared-memory-nv first",
            name.as_string_ref().as_str().unwrap_or("the op")
        )
    })
}

impl<'c, 'a> Lowering<'c, 'a> {
    /// The values that stand for `value`.
    pub fn get(&self, value: Value<'c, '_>) -> Result<Vec<Value<'c, 'a>>, String> {
        if self.xor_views.contains_key(&key(value)) {
            return Err(memory::XorView::REFUSAL.into());
        }
        self.values
            .get(&key(value))
            .cloned()
            .ok_or_else(|| "an operand was not converted (internal error)".to_owned())
    }

    /// The single value that stands for the scalar `value`.
    pub fn scalar(&self, value: Value<'c, '_>) -> Result<Value<'c, 'a>, String> {
        let values = self.get(value)?;
        match values.as_slice() {
            [v] => Ok(*v),
            _ => Err("expected a scalar operand".into()),
        }
    }

    /// The shared-memory view `value`: its base pointer and, for a view
    /// that starts inside its buffer's swizzle pattern, where it starts
    /// ([`memory::XorView`]; its base is then the buffer's).
    pub fn shared_view(
        &self,
        value: Value<'c, '_>,
    ) -> Result<(Value<'c, 'a>, Option<memory::XorView>), String> {
        match self.xor_views.get(&key(value)) {
            Some(view) => {
                let base = self.values.get(&key(value)).and_then(|v| v.first());
                let base = base.ok_or("an operand was not converted (internal error)")?;
                Ok((*base, Some(view.clone())))
            }
            None => Ok((self.scalar(value)?, None)),
        }
    }

    /// Records that the shared-memory view `value` stands for its
    /// buffer's base `base`, starting inside the buffer's swizzle pattern
    /// as `view` says.
    pub fn set_xor_view(
        &mut self,
        value: Value<'c, '_>,
        base: Value<'c, 'a>,
        view: memory::XorView,
    ) {
        self.values.insert(key(value), vec![base]);
        self.xor_views.insert(key(value), view);
    }

    /// Records what stands for `value`.
    pub fn set(&mut self, value: Value<'c, '_>, values: Vec<Value<'c, 'a>>) {
        self.values.insert(key(value), values);
    }

    /// An emitter at the end of the function's prologue, which dominates
    /// every block: values computed once per function go there.
    pub fn prologue(&self, location: Location<'c>) -> Emitter<'c, 'a> {
        let (block, _) = self.prologue.expect("inside a function");
        Emitter {
            context: self.context,
            block,
            location,
            before: self.prologue.map(|(_, terminator)| terminator),
        }
    }

    /// Runs `f` on this thread's ids, reading them at the end of the
    /// prologue first if no op has needed them yet.
    fn with_threads<R>(&self, f: impl FnOnce(&mut ThreadIds<'c, 'a>, &Emitter<'c, 'a>) -> R) -> R {
        let entry = self.prologue(Location::unknown(self.context));
        let mut threads = self.threads.borrow_mut();
        let threads = threads.get_or_insert_with(|| {
            ThreadIds::new(&entry, self.threads_per_warp, self.thread_group())
        });
        f(threads, &entry)
    }

    /// How many CTAs of this kernel fit on one SM by their shared memory
    /// (`ttg.shared`, which `allocate-shared-memory-nv` sets) and the SM's
    /// capacity for the target; `None` for a kernel without shared memory.
    pub fn ctas_per_sm_by_shared_memory(&self) -> Option<i64> {
        let shared = self
            .module
            .attribute("ttg.shared")
            .ok()
            .and_then(ttir::int_value)
            .map(|(n, _)| n)
            .filter(|&n| n > 0)?;
        let kib = match self.options.compute_capability {
            90.. => 228,
            80 | 87 => 164,
            86 | 89 => 100,
            _ => 64,
        };
        Some(kib * 1024 / shared)
    }

    /// The warps a kernel launches: its own and those of its
    /// `ttg.warp_specialize` partitions (`ttg.total-num-warps`, which
    /// `tritongpu-allocate-warp-groups` sets).
    fn total_warps(&self) -> i64 {
        self.module
            .attribute("ttg.total-num-warps")
            .ok()
            .and_then(ttir::int_value)
            .map_or(self.num_warps, |(n, _)| n)
    }

    /// The warp group whose threads the ids count from
    /// ([`ThreadIds::new`]): its first thread and its thread count. Inside a
    /// `ttg.warp_specialize` partition the partition's; elsewhere the
    /// function's own warps from thread 0 (which, as Triton's `getThreadId`
    /// does, bounds the id by their count: in a warp-specialized kernel
    /// more warps run, and the bound is what lets the code generator see
    /// that a test of the id is one of the default warps'). A partition not
    /// placed yet has none to count from: the op reading them is refused.
    pub fn thread_group(&self) -> Option<(i64, i64)> {
        let Some(group) = self.thread_group else {
            return Some((0, self.num_warps * self.threads_per_warp));
        };
        match group {
            (Some(start), threads) => Some((start, threads)),
            (None, _) => {
                self.refusal.replace(Some(
                    "thread ids inside a ttg.warp_specialize partition need its \
                     warps (warpGroupStartIds): run tritongpu-allocate-warp-groups first"
                        .into(),
                ));
                None
            }
        }
    }

    /// The thread's lane/warp contribution to the coordinates of `ty`.
    pub fn offsets(&mut self, ty: Type<'c>, dist: &Distributed) -> Vec<Value<'c, 'a>> {
        self.with_threads(|threads, entry| threads.offsets(entry, ty.to_raw().ptr as usize, dist))
    }

    /// This thread's value of a linear map over its lane and warp bits
    /// ([`ThreadIds::linear`]), emitted at `emit`.
    pub fn thread_linear<W: Copy + Into<i64>>(
        &self,
        emit: &Emitter<'c, 'a>,
        lane_weights: &[W],
        warp_weights: &[W],
    ) -> Value<'c, 'a> {
        self.with_threads(|threads, _| threads.linear(emit, lane_weights, warp_weights))
    }

    /// The thread's ids (`tid.x`, lane, warp).
    pub fn thread_ids(&self) -> (Value<'c, 'a>, Value<'c, 'a>, Value<'c, 'a>) {
        self.with_threads(|t, _| (t.tid, t.lane, t.warp))
    }

    /// The coordinates of every element this thread holds of a tensor of
    /// type `ty`: one i32 per dimension, per register.
    pub fn coordinates(
        &mut self,
        emit: &Emitter<'c, 'a>,
        ty: Type<'c>,
    ) -> Result<Vec<Vec<Value<'c, 'a>>>, String> {
        let dist = self.distributed(ty)?;
        let offsets = self.offsets(ty, &dist);
        Ok(dist
            .registers
            .iter()
            .map(|reg| {
                reg.iter()
                    .zip(&offsets)
                    .map(|(&c, &o)| {
                        if c == 0 {
                            o
                        } else {
                            emit.xor(o, emit.i32(c as i64))
                        }
                    })
                    .collect()
            })
            .collect())
    }

    /// Where this CTA's part of the tensor `dist` starts, per dimension,
    /// in a cluster whose CTAs split it: the XOR, over the set bits of the
    /// CTA's rank in the cluster, of their offsets. `None` where every CTA
    /// holds the whole tensor.
    pub fn cta_offsets(
        &self,
        emit: &Emitter<'c, 'a>,
        dist: &Distributed,
    ) -> Option<Vec<Value<'c, 'a>>> {
        if dist.block.iter().flatten().all(|&x| x == 0) {
            return None;
        }
        let rank = emit.special_register("cluster.ctarank");
        Some(
            (0..dist.rank())
                .map(|d| {
                    let weights: Vec<i64> = dist.block.iter().map(|b| i64::from(b[d])).collect();
                    layout::xor_of_bits(emit, &[(rank, &weights)])
                })
                .collect(),
        )
    }

    /// The base of the dynamic shared memory (`@global_smem`), as a
    /// pointer in address space 3.
    pub fn shared_base(&mut self) -> Value<'c, 'a> {
        if let Some(v) = self.shared_base {
            return v;
        }
        let v = self.prologue(Location::unknown(self.context)).global_smem();
        self.shared_base = Some(v);
        v
    }

    /// This thread's warp id, known to the compiler as uniform across the
    /// warp (a `shfl.sync` of lane 0's, as Triton's warp id), computed at
    /// the function's entry so that loops do not repeat the shuffle.
    pub fn uniform_warp(&mut self) -> Value<'c, 'a> {
        if let Some(v) = self.uniform_warp {
            return v;
        }
        let threads_per_warp = self.threads_per_warp;
        let v = self.with_threads(|threads, entry| {
            let warp = entry.lshr(
                threads.unmasked,
                entry.i32(i64::from(threads_per_warp.trailing_zeros())),
            );
            entry.warp_uniform(warp)
        });
        self.uniform_warp = Some(v);
        v
    }

    /// `@global_smem + offset` bytes (an offset the allocation assigned).
    /// In a kernel the symbol's address is taken where the op needs it,
    /// right before the byte offset is added, as Triton's lowering does; a
    /// device function adds the offset to the base its caller passed.
    pub fn shared_at(&mut self, emit: &Emitter<'c, 'a>, offset: u64) -> Value<'c, 'a> {
        let offset = emit.i32(offset as i64);
        let base = if self.in_kernel {
            emit.global_smem()
        } else {
            self.shared_base()
        };
        emit.gep(base, offset, emit.int_type(8))
    }

    /// Orders shared-memory accesses across threads: a `bar.sync` (with one
    /// warp, `bar.warp.sync`) before a
    /// read that may see another thread's write since the last barrier, or
    /// a write that may overwrite what another thread read or wrote since
    /// then. Accesses to disjoint bytes (two buffers the allocation placed
    /// apart) need no barrier between them, as in Triton's membar analysis.
    /// Block boundaries count as unknown history (a loop's back edge may
    /// carry any access), so the first access in a block after the entry
    /// is fenced.
    pub fn shared_access(&mut self, emit: &Emitter<'c, 'a>, access: Access) {
        self.shared_accesses(emit, vec![access]);
    }

    /// Several accesses of one op (a dot reading both operands): one
    /// barrier before them if any conflicts, and all of them pending after.
    pub fn shared_accesses(&mut self, emit: &Emitter<'c, 'a>, accesses: Vec<Access>) {
        let conflict = accesses.iter().any(|access| match access {
            Access::Barrier => true,
            Access::Read(span) => self.pending.writes.iter().any(|w| overlap(w, span)),
            Access::Write(span) => self
                .pending
                .reads
                .iter()
                .chain(&self.pending.writes)
                .any(|a| overlap(a, span)),
        });
        if conflict {
            if self.num_warps == 1 {
                emit.warp_barrier();
            } else {
                emit.barrier();
            }
            self.pending = Pending::default();
        }
        for access in accesses {
            match access {
                Access::Barrier => {}
                Access::Read(span) => self.pending.reads.push(span),
                Access::Write(span) => self.pending.writes.push(span),
            }
        }
    }

    /// The bytes of the shared buffer that the memory descriptor `desc`
    /// views ([`crate::allocation::value_range`]).
    pub fn buffer_span(&self, desc: Value<'c, 'a>) -> Span {
        crate::allocation::value_range(desc)
    }

    /// Declares the external function `symbol` of LLVM type `fn_type` in
    /// the module, once.
    pub fn declare_function(&self, symbol: &str, fn_type: &str) {
        let body = self
            .module
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .expect("module body");
        let mut op = body.first_operation();
        while let Some(o) = op {
            if ttir::inherent_attribute(o, "sym_name")
                .and_then(ttir::string_value)
                .is_some_and(|s| s == symbol)
            {
                return;
            }
            op = o.next_in_block();
        }
        let context = self.context;
        let declaration = OperationBuilder::new("llvm.func", Location::unknown(context))
            .add_attributes(&[
                (
                    Identifier::new(context, "sym_name"),
                    StringAttribute::new(context, symbol).into(),
                ),
                (
                    Identifier::new(context, "function_type"),
                    TypeAttribute::new(Type::parse(context, fn_type).expect("function type"))
                        .into(),
                ),
                (
                    Identifier::new(context, "linkage"),
                    Attribute::parse(context, "#llvm.linkage<external>").expect("linkage"),
                ),
            ])
            .add_regions([Region::new()])
            .build()
            .expect("llvm.func declaration");
        match body.first_operation() {
            Some(first) => body.insert_operation_before(first, declaration),
            None => body.append_operation(declaration),
        };
    }

    /// Splits the flow at the end of `emit`'s block: returns two new empty
    /// blocks placed after it, `(side, continuation)`. The caller ends
    /// `emit`'s block with a branch to them; the ops that follow the one
    /// being lowered go into `continuation`.
    pub fn split_block(&mut self, emit: &Emitter<'c, 'a>) -> (BlockRef<'c, 'a>, BlockRef<'c, 'a>) {
        let region = emit.block.parent_region().expect("a block in a function");
        let side = region.insert_block_after(emit.block, Block::new(&[]));
        let continuation = region.insert_block_after(side, Block::new(&[]));
        let (side, continuation) = unsafe {
            (
                BlockRef::<'c, 'a>::from_raw(side.to_raw()),
                BlockRef::<'c, 'a>::from_raw(continuation.to_raw()),
            )
        };
        self.continuation = Some(continuation);
        (side, continuation)
    }

    /// A pointer to a new internal constant global holding `text` (a
    /// terminating NUL is added), named `<prefix><n>` with the first free
    /// `n`, as Triton's `addStringToModule` names them.
    pub fn string_global(&self, emit: &Emitter<'c, 'a>, prefix: &str, text: &str) -> Value<'c, 'a> {
        let body = self
            .module
            .region(0)
            .ok()
            .and_then(|r| r.first_block())
            .expect("module body");
        let mut taken = std::collections::HashSet::new();
        let mut op = body.first_operation();
        while let Some(o) = op {
            if let Some(name) = ttir::inherent_attribute(o, "sym_name").and_then(ttir::string_value)
            {
                taken.insert(name);
            }
            op = o.next_in_block();
        }
        let name = (0..)
            .map(|n| format!("{prefix}{n}"))
            .find(|n| !taken.contains(n))
            .expect("a free name");
        let mut bytes = text.to_owned();
        bytes.push('\0');
        let context = self.context;
        let global = OperationBuilder::new("llvm.mlir.global", Location::unknown(context))
            .add_attributes(&[
                (
                    Identifier::new(context, "sym_name"),
                    StringAttribute::new(context, &name).into(),
                ),
                (
                    Identifier::new(context, "global_type"),
                    TypeAttribute::new(
                        Type::parse(context, &format!("!llvm.array<{} x i8>", bytes.len()))
                            .expect("array type"),
                    )
                    .into(),
                ),
                (
                    Identifier::new(context, "linkage"),
                    Attribute::parse(context, "#llvm.linkage<internal>").expect("linkage"),
                ),
                (
                    Identifier::new(context, "constant"),
                    Attribute::unit(context),
                ),
                (
                    Identifier::new(context, "value"),
                    StringAttribute::new(context, &bytes).into(),
                ),
                (
                    Identifier::new(context, "addr_space"),
                    Attribute::parse(context, "0 : i32").expect("attribute"),
                ),
            ])
            .add_regions([Region::new()])
            .build()
            .expect("llvm.mlir.global");
        match body.first_operation() {
            Some(first) => body.insert_operation_before(first, global),
            None => body.append_operation(global),
        };
        emit.value(
            "llvm.mlir.addressof",
            &[],
            emit.ptr_type(0),
            &[("global_name", emit.attr(&format!("@{name}")))],
        )
    }

    /// The LLVM type of one value standing for a value of type `ty`:
    /// pointers become `!llvm.ptr<space>`, tensors their element's type,
    /// shared-memory descriptors `!llvm.ptr<3>`.
    pub fn element_type(&self, ty: Type<'c>) -> Type<'c> {
        convert_type(self.context, ty)
    }
}

/// The value standing for element `i` of an operand: a scalar operand (one
/// value) stands for every element.
/// The `axis` attribute of `op` (`tt.reduce`, `tt.scan`, `tt.expand_dims`).
pub fn axis(op: OperationRef) -> Result<usize, String> {
    ttir::inherent_attribute(op, "axis")
        .and_then(ttir::int_value)
        .map(|(v, _)| v as usize)
        .ok_or_else(|| "the axis attribute is missing".to_owned())
}

/// The first result of `op`, which its lowering was chosen for.
fn result<'c, 'a>(op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
    op.result(0).expect("one result").into()
}

/// Operand `i` of `op`, or the error that it is missing.
fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Result<Value<'c, 'a>, String> {
    ttir::operand(op, i).ok_or_else(|| format!("missing operand {i}"))
}

/// The integer attribute `name` of `op`, or the error that it is missing.
fn int_attr(op: OperationRef, name: &str) -> Result<i64, String> {
    ttir::inherent_attribute(op, name)
        .and_then(ttir::int_value)
        .map(|(v, _)| v)
        .ok_or_else(|| format!("the {name} attribute is missing"))
}

pub fn value_at<'c, 'a>(values: &[Value<'c, 'a>], i: usize) -> Value<'c, 'a> {
    if values.len() == 1 {
        values[0]
    } else {
        values[i]
    }
}

/// See [`Lowering::element_type`].
pub fn convert_type<'c>(context: &'c Context, ty: Type<'c>) -> Type<'c> {
    if let Some(tensor) = TensorView::of(ty) {
        return convert_type(context, tensor.element);
    }
    if let Some(space) = pointer_address_space(ty) {
        return types::llvm_pointer(context, space);
    }
    if unsafe { ttg_dialect::ffi::ttgTypeIsAAsyncToken(ty.to_raw()) } {
        return IntegerType::new(context, 32).into();
    }
    if unsafe { ttg_dialect::ffi::ttgTypeIsAMemDesc(ty.to_raw()) } {
        return types::llvm_pointer(context, 3);
    }
    // A tensor descriptor: the generic address of its 128 bytes.
    if tt_dialect::types::tensor_desc_block(ty).is_some() {
        return types::llvm_pointer(context, 0);
    }
    // LLVM has no 8-bit floats: their bits travel as i8.
    if types::float_bits(ty) == Some(8) {
        return IntegerType::new(context, 8).into();
    }
    // Triton's type converter: 32-bit indices.
    if ty.is_index() {
        return IntegerType::new(context, 32).into();
    }
    ty
}

/// Attribute `name` of argument `index` of `function` (its `arg_attrs`).
fn argument_attribute<'c>(
    function: OperationRef<'c, '_>,
    index: usize,
    name: &str,
) -> Option<Attribute<'c>> {
    let all = ttir::inherent_attribute(function, "arg_attrs")?;
    // SAFETY: `all` is a live attribute, read as an array only when it is
    // one, and its element as a dictionary only when it is one.
    unsafe {
        let raw = all.to_raw();
        if !mlir_sys::mlirAttributeIsAArray(raw)
            || index >= mlir_sys::mlirArrayAttrGetNumElements(raw) as usize
        {
            return None;
        }
        let dictionary = mlir_sys::mlirArrayAttrGetElement(raw, index as isize);
        if !mlir_sys::mlirAttributeIsADictionary(dictionary) {
            return None;
        }
        let value = mlir_sys::mlirDictionaryAttrGetElementByName(
            dictionary,
            melior::StringRef::new(name).to_raw(),
        );
        (!value.ptr.is_null()).then(|| Attribute::from_raw(value))
    }
}

/// The address space of a `!tt.ptr`, or `None` for other types.
pub fn pointer_address_space(ty: Type) -> Option<u32> {
    unsafe {
        tt_dialect::ffi::ttTypeIsAPointer(ty.to_raw())
            .then(|| tt_dialect::ffi::ttPointerTypeGetAddressSpace(ty.to_raw()) as u32)
    }
}

/// The pointee of a `!tt.ptr` (or of the elements of a tensor of them).
pub fn pointee_type(ty: Type) -> Option<Type> {
    let ty = tt_dialect::types::element_type(ty);
    unsafe {
        tt_dialect::ffi::ttTypeIsAPointer(ty.to_raw())
            .then(|| Type::from_raw(tt_dialect::ffi::ttPointerTypeGetPointee(ty.to_raw())))
    }
}

/// Whether the op `op` (named `name`) lowers tensors and buffers split
/// across the CTAs of a cluster (each CTA's part, [`Distributed::of`]):
/// elementwise ops, the ops that relate a layout to its broadcast or
/// slice, global and shared loads and stores, conversions within each
/// CTA, transposes, joins and splits, reductions and scans along a
/// dimension the CTAs do not split, and wgmma.
fn splits_allowed(op: OperationRef, name: &str) -> bool {
    if name == "tt.reduce" || name == "tt.scan" {
        let operand = op.operand(0).ok().map(|v| Distributed::of(v.r#type()));
        return match (operand, axis(op)) {
            (Some(Ok(dist)), Ok(axis)) => !splits_dimension(&dist.block, axis),
            _ => false,
        };
    }
    const OPS: &[&str] = &[
        "tt.splat",
        "tt.make_range",
        "tt.broadcast",
        "tt.expand_dims",
        "tt.trans",
        "tt.join",
        "tt.split",
        "tt.addptr",
        "tt.load",
        "tt.store",
        "tt.bitcast",
        "tt.fp_to_fp",
        "tt.int_to_ptr",
        "tt.ptr_to_int",
        "tt.precise_sqrt",
        "tt.precise_divf",
        "tt.mulhiui",
        "tt.clampf",
        "tt.extern_elementwise",
        "ttg.local_alloc",
        "ttg.local_load",
        "ttg.local_store",
        "ttg.local_dealloc",
        "ttg.convert_layout",
        "ttng.warp_group_dot",
        "ttng.warp_group_dot_wait",
        "cf.br",
        "cf.cond_br",
    ];
    OPS.contains(&name) || name.starts_with("arith.") || name.starts_with("math.")
}

/// Whether an operand or result of `op` is a tensor or buffer whose layout
/// gives the CTAs of a cluster different parts.
fn touches_split_values(op: OperationRef) -> bool {
    let split = |ty: Type| Layout::of_type(ty).is_some_and(|l| l.splits_across_ctas());
    op.operands().any(|v| split(v.r#type()))
        || (0..op.result_count()).any(|i| op.result(i).is_ok_and(|r| split(r.r#type())))
}

/// The module attribute (an i32, on a module of `"ttg.num-ctas" = 1`) of
/// kernels compiled for one CTA and launched in clusters of that many
/// CTAs: the cluster is the program (`tt.get_program_id` is the cluster's
/// id), its first CTA runs the kernel and the others return at once, so
/// results are those of one CTA a program. Set by the compiler where
/// Triton would split tensors across the cluster's CTAs, which this
/// project does not do yet.
pub const CLUSTER_CTAS: &str = "triton_rs.cluster_ctas";

/// Converts every `tt.func` of `module`; returns whether some ops were left
/// in their own dialects (`arith`, `math`) for MLIR's conversions. On
/// failure the error is already emitted at the op that caused it.
pub fn lower_module<'c, 'a>(
    context: &'c Context,
    module: OperationRef<'c, 'a>,
    options: Options,
) -> Result<bool, Failure> {
    let int_attr = |name: &str, default: i64| {
        module
            .attribute(name)
            .ok()
            .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
            .map_or(default, |a| a.value())
    };
    let num_ctas = int_attr("ttg.num-ctas", 1);
    let leader_cluster = if num_ctas == 1 {
        int_attr(CLUSTER_CTAS, 1)
    } else {
        1
    };
    // Hopper's clusters hold at most 16 CTAs (8 portably).
    for (name, value) in [("ttg.num-ctas", num_ctas), (CLUSTER_CTAS, leader_cluster)] {
        if !(1..=16).contains(&value) {
            return Err(tt_passes::rust_pass::fail(
                module,
                &format!("convert-triton-gpu-to-llvm: '{name}' must be from 1 to 16, not {value}"),
            ));
        }
    }
    let mut lowering = Lowering {
        context,
        module,
        options,
        axis: AxisInfoMap::analyze(module),
        num_warps: int_attr("ttg.num-warps", 4),
        threads_per_warp: int_attr("ttg.threads-per-warp", 32),
        num_ctas: num_ctas.max(leader_cluster),
        leader_cta_only: leader_cluster > 1,
        values: HashMap::new(),
        xor_views: HashMap::new(),
        blocks: HashMap::new(),
        prologue: None,
        threads: std::cell::RefCell::new(None),
        shared_base: None,
        uniform_warp: None,
        pending: Pending::default(),
        continuation: None,
        deferred_asserts: Vec::new(),
        scratch_args: Vec::new(),
        in_kernel: false,
        thread_group: None,
        refusal: RefCell::default(),
        failed_inside: None,
        layouts: RefCell::default(),
        left_for_mlir: false,
        no_flags: ["#arith.fastmath<none>", "#arith.overflow<none>"]
            .map(|text| Attribute::parse(context, text).expect("arith is loaded")),
    };
    refuse_amd_layouts(module)?;
    declare_shared_memory(context, module);
    let functions = tt_passes::rust_pass::collect_ops(module, "tt.func");
    for function in functions {
        lowering.lower_function(function)?;
    }
    nvg::isolate_partitions(module);
    Ok(lowering.left_for_mlir)
}

/// Makes the kernel whose body is `region` return at once in every CTA of
/// its cluster but the first ([`CLUSTER_CTAS`]): its entry block's code
/// moves to a new block that the entry enters only where
/// `%cluster_ctarank` is 0; the others branch to a block that returns.
fn return_unless_leader<'c>(
    context: &'c Context,
    region: RegionRef<'c, '_>,
    location: Location<'c>,
) {
    let entry = region.first_block().expect("a kernel has an entry block");
    let body = region.insert_block_after(entry, Block::new(&[]));
    let exit = region.append_block(Block::new(&[]));
    tt_passes::ttir::pointer_ir::move_ops(entry, body);
    let emit = Emitter {
        context,
        block: entry,
        location,
        before: None,
    };
    let rank = emit.special_register("cluster.ctarank");
    let leader = emit.icmp("eq", rank, emit.i32(0));
    entry.append_operation(
        OperationBuilder::new("llvm.cond_br", location)
            .add_operands(&[leader])
            .add_successors(&[&body, &exit])
            .add_attributes(&[(
                Identifier::new(context, "operandSegmentSizes"),
                Attribute::parse(context, "array<i32: 1, 0, 0>").expect("a dense array"),
            )])
            .build()
            .expect("llvm.cond_br"),
    );
    exit.append_operation(
        OperationBuilder::new("llvm.return", location)
            .build()
            .expect("llvm.return"),
    );
}

/// Moves the code of the block that the prologue branch `branch` enters
/// (the old entry block's, which nothing else branches to) to the end of
/// the prologue, in place of the branch: one entry block, as Triton's.
fn fold_prologue(branch: OperationRef) {
    use tt_passes::ttir::loop_support::ir as raw;
    let branch = branch.to_raw();
    let prologue = raw::op_block(branch);
    // SAFETY: `branch` is a live `llvm.br` with one successor; the emptied
    // block, which no branch names any more, is detached before it is
    // destroyed.
    unsafe {
        let body = mlir_sys::mlirOperationGetSuccessor(branch, 0);
        raw::erase(branch);
        if let Some(&first) = raw::block_ops(body).first() {
            raw::move_tail(first, prologue);
        }
        mlir_sys::mlirBlockDetach(body);
        mlir_sys::mlirBlockDestroy(body);
    }
}

/// Stops at the first op whose operands or results are laid out in one of
/// AMD's encodings (MFMA, WMMA, rotating shared memory, or a slice or dot
/// operand of one): this lowering emits NVVM and knows none of them.
fn refuse_amd_layouts(module: OperationRef) -> Result<(), Failure> {
    use tt_passes::ttir::loop_support::ir;
    use ttg_dialect::layout::Layout;
    let amd = |value| {
        // SAFETY: the type of a live value of the module.
        let ty = unsafe { Type::from_raw(ir::value_type(value)) };
        Layout::of_type(ty)?.amd_encoding()
    };
    let mut found = None;
    ir::walk_pre(module.to_raw(), &mut |op| {
        if found.is_none() {
            found = ir::operands(op)
                .into_iter()
                .chain(ir::results(op))
                .find_map(amd)
                .map(|kind| (op, kind));
        }
    });
    match found {
        None => Ok(()),
        Some((op, kind)) => {
            // SAFETY: an op of the live module, found by the walk above.
            let op = unsafe { OperationRef::from_raw(op) };
            Err(tt_passes::rust_pass::fail(
                op,
                &format!(
                    "convert-triton-gpu-to-llvm: the AMD layout #ttg.{kind} is not supported yet"
                ),
            ))
        }
    }
}

/// `llvm.mlir.global external @global_smem() {addr_space = 3, alignment = 16} : !llvm.array<0 x i8>`,
/// unless the module declares it already.
fn declare_shared_memory<'c>(context: &'c Context, module: OperationRef<'c, '_>) {
    let body = module
        .region(0)
        .ok()
        .and_then(|r| r.first_block())
        .expect("a module has a body");
    let mut op = body.first_operation();
    while let Some(o) = op {
        if ttir::inherent_attribute(o, "sym_name")
            .and_then(ttir::string_value)
            .is_some_and(|s| s == "global_smem")
        {
            return;
        }
        op = o.next_in_block();
    }
    let location = Location::unknown(context);
    let attr = |text: &str| Attribute::parse(context, text).expect("attribute");
    let op = OperationBuilder::new("llvm.mlir.global", location)
        .add_attributes(&[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, "global_smem").into(),
            ),
            (
                Identifier::new(context, "global_type"),
                TypeAttribute::new(Type::parse(context, "!llvm.array<0 x i8>").expect("type"))
                    .into(),
            ),
            (
                Identifier::new(context, "linkage"),
                attr("#llvm.linkage<external>"),
            ),
            (Identifier::new(context, "addr_space"), attr("3 : i32")),
            (Identifier::new(context, "alignment"), attr("16 : i64")),
        ])
        .add_regions([Region::new()])
        .build()
        .expect("llvm.mlir.global");
    match body.first_operation() {
        Some(first) => {
            body.insert_operation_before(first, op);
        }
        None => {
            body.append_operation(op);
        }
    }
}

impl<'c, 'a> Lowering<'c, 'a> {
    fn lower_function(&mut self, function: OperationRef<'c, 'a>) -> Result<(), Failure> {
        let fail = |op: OperationRef, message: &str| {
            tt_passes::rust_pass::fail(op, message);
        };
        let context = self.context;
        let name = ttir::inherent_attribute(function, "sym_name")
            .and_then(ttir::string_value)
            .unwrap_or_default();
        let is_kernel = ttir::inherent_attribute(function, "sym_visibility")
            .and_then(ttir::string_value)
            .is_none_or(|s| s != "private");
        // A device function (a `noinline` callee) returns its values: one,
        // or several in a struct. A kernel returns nothing.
        let mut results = Vec::new();
        let returns_values = ttir::inherent_attribute(function, "function_type")
            .and_then(|a| TypeAttribute::try_from(a).ok())
            .is_some_and(|a| {
                a.value().is_function()
                    // SAFETY: the type is a function type (checked first).
                    && unsafe { mlir_sys::mlirFunctionTypeGetNumResults(a.value().to_raw()) } > 0
            });
        if is_kernel && returns_values {
            fail(
                function,
                "convert-triton-gpu-to-llvm: a kernel (a public function) cannot return values",
            );
            return Err(Failure);
        }
        if !is_kernel {
            let ty = ttir::inherent_attribute(function, "function_type")
                .and_then(|a| TypeAttribute::try_from(a).ok())
                .map(|a| a.value())
                .ok_or(())
                .map_err(|_| {
                    fail(
                        function,
                        "convert-triton-gpu-to-llvm: a function without a type",
                    )
                })
                .map_err(|_| Failure)?;
            if !ty.is_function() {
                fail(
                    function,
                    "convert-triton-gpu-to-llvm: a function whose type is not a function type",
                );
                return Err(Failure);
            }
            // SAFETY: `ty` is a live function type (checked above).
            let count = unsafe { mlir_sys::mlirFunctionTypeGetNumResults(ty.to_raw()) };
            for i in 0..count {
                // SAFETY: `i` is below the function type's result count.
                let result =
                    unsafe { Type::from_raw(mlir_sys::mlirFunctionTypeGetResult(ty.to_raw(), i)) };
                match self.abi_type(result) {
                    Ok(ty) => results.push(ty),
                    Err(e) => {
                        fail(function, &format!("convert-triton-gpu-to-llvm: {e}"));
                        return Err(Failure);
                    }
                }
            }
        }
        let Some(old_entry) = function.region(0).ok().and_then(|r| r.first_block()) else {
            fail(
                function,
                "convert-triton-gpu-to-llvm: a kernel needs a body",
            );
            return Err(Failure);
        };
        let location = function.location();
        let global_ptr = Type::parse(context, "!llvm.ptr<1>").expect("type");
        let mut inputs = Vec::new();
        for i in 0..old_entry.argument_count() {
            let arg: Value = old_entry.argument(i).expect("argument").into();
            match self.abi_type(arg.r#type()) {
                Ok(ty) => inputs.push(ty),
                Err(e) => {
                    fail(function, &format!("convert-triton-gpu-to-llvm: {e}"));
                    return Err(Failure);
                }
            }
        }
        // A device function's shared memory: the part of its caller's that
        // the call reserves (Triton's stack pointer argument).
        if !is_kernel {
            inputs.push(Type::parse(context, "!llvm.ptr<3>").expect("type"));
        }
        // Global scratch and profile scratch, as Triton's launcher passes.
        inputs.push(global_ptr);
        inputs.push(global_ptr);
        let returned = packed_type(context, &results)
            .unwrap_or_else(|| Type::parse(context, "!llvm.void").expect("type"));
        let fn_type = Type::parse(
            context,
            &format!(
                "!llvm.func<{} ({})>",
                returned,
                inputs
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
        .expect("function type");

        // The new body: a prologue holding the arguments and per-function
        // values, then one block per old block.
        let region = Region::new();
        region.append_block(Block::new(
            &inputs.iter().map(|t| (*t, location)).collect::<Vec<_>>(),
        ));
        let mut old_blocks = Vec::new();
        let mut block = Some(old_entry);
        while let Some(b) = block {
            old_blocks.push(b);
            block = b.next_in_region();
        }
        let mut new_blocks = Vec::new();
        for (i, old) in old_blocks.iter().enumerate() {
            let mut types = Vec::new();
            if i > 0 {
                for a in 0..old.argument_count() {
                    let arg: Value = old.argument(a).expect("argument").into();
                    match self.value_count(arg.r#type()) {
                        Ok(n) => types.extend(std::iter::repeat_n(
                            (self.element_type(arg.r#type()), location),
                            n,
                        )),
                        Err(e) => {
                            fail(function, &format!("convert-triton-gpu-to-llvm: {e}"));
                            return Err(Failure);
                        }
                    }
                }
            }
            new_blocks.push(region.append_block(Block::new(&types)));
        }
        let mut attributes = vec![
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, &name).into(),
            ),
            (
                Identifier::new(context, "function_type"),
                TypeAttribute::new(fn_type).into(),
            ),
        ];
        if is_kernel {
            // `1 : ui1`, as Triton writes it (NVVM reads only its presence).
            attributes.push((
                Identifier::new(context, "nvvm.kernel"),
                Attribute::parse(context, "1 : ui1").expect("attribute"),
            ));
            attributes.push((
                Identifier::new(context, "nvvm.reqntid"),
                Attribute::parse(
                    context,
                    &format!("array<i32: {}>", self.total_warps() * self.threads_per_warp),
                )
                .expect("attribute"),
            ));
            if self.num_ctas > 1 {
                // A cluster of `num_ctas` CTAs along x (`.reqnctapercluster`).
                attributes.push((
                    Identifier::new(context, "nvvm.cluster_dim"),
                    Attribute::parse(context, &format!("array<i32: {}>", self.num_ctas))
                        .expect("attribute"),
                ));
            }
        } else {
            attributes.push((
                Identifier::new(context, "linkage"),
                Attribute::parse(context, "#llvm.linkage<internal>").expect("attribute"),
            ));
            // Every device function left here is `noinline` (the TTIR
            // inliner took the others): LLVM must not inline it either,
            // as in Triton.
            attributes.push((
                Identifier::new(context, "no_inline"),
                Attribute::unit(context),
            ));
        }
        // `ttg.maxnreg` (Triton's `maxnreg` option) caps the registers of
        // every kernel: PTX's `.maxnreg`.
        let maxnreg = self
            .module
            .attribute("ttg.maxnreg")
            .ok()
            .and_then(ttir::int_value)
            .map(|(n, _)| {
                (
                    Identifier::new(context, "nvvm.maxnreg"),
                    melior::ir::attribute::IntegerAttribute::new(
                        IntegerType::new(context, 32).into(),
                        n,
                    )
                    .into(),
                )
            });
        // TMA descriptors (`!tt.tensordesc` arguments, or pointers marked
        // `tt.nv_tma_desc = 1`) reach a kernel by value, 64-byte aligned,
        // as constants of the grid, as Triton passes them.
        let tma_arguments: Vec<bool> = (0..old_entry.argument_count())
            .map(|i| {
                let arg: Value = old_entry.argument(i).expect("argument").into();
                tt_dialect::types::tensor_desc_block(arg.r#type()).is_some()
                    || argument_attribute(function, i, "tt.nv_tma_desc")
                        .and_then(ttir::int_value)
                        .is_some_and(|(v, _)| v == 1)
            })
            .collect();
        let arg_attrs = (is_kernel && tma_arguments.contains(&true)).then(|| {
            let dictionaries: Vec<String> = (0..inputs.len())
                .map(|i| {
                    if tma_arguments.get(i).copied().unwrap_or(false) {
                        "{llvm.align = 64 : i32, llvm.byval = !llvm.array<128 x i8>, \
                         nvvm.grid_constant, tt.nv_tma_desc = 1 : i32}"
                            .to_owned()
                    } else {
                        "{}".to_owned()
                    }
                })
                .collect();
            (
                Identifier::new(context, "arg_attrs"),
                Attribute::parse(context, &format!("[{}]", dictionaries.join(", ")))
                    .expect("argument attributes"),
            )
        });
        // The function's own shared scratch (the warps' states of a
        // warp-specialized kernel), where the allocation gave it one.
        let offset = function
            .attribute("allocation.offset")
            .ok()
            .map(|a| (Identifier::new(context, "allocation.offset"), a));
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .into_iter()
            .chain(offset)
            .chain(maxnreg.filter(|_| is_kernel))
            .chain(arg_attrs)
            .collect();
        let new_function = OperationBuilder::new("llvm.func", location)
            .add_attributes(&attributes)
            .add_regions([region])
            .build()
            .expect("llvm.func");
        // Next to the old function, in its own block (a module nested in
        // the one converted keeps its functions).
        let body = function.block().expect("a function lives in a module");
        let new_function = body.insert_operation_after(function, new_function);
        let new_function = unsafe { OperationRef::<'c, 'a>::from_raw(new_function.to_raw()) };
        let new_region = new_function.region(0).expect("region");
        let mut blocks = Vec::new();
        let mut b = new_region.first_block();
        while let Some(x) = b {
            blocks.push(unsafe { BlockRef::<'c, 'a>::from_raw(x.to_raw()) });
            b = x.next_in_region();
        }
        let prologue_block = blocks[0];
        let branch = OperationBuilder::new("llvm.br", location)
            .add_successors(&[&blocks[1]])
            .build()
            .expect("llvm.br");
        let branch = prologue_block.append_operation(branch);
        let branch = unsafe { OperationRef::<'c, 'a>::from_raw(branch.to_raw()) };
        self.prologue = Some((prologue_block, branch));
        self.values.clear();
        self.xor_views.clear();
        self.blocks.clear();
        self.shared_base = None;
        self.uniform_warp = None;
        let entry = self.prologue(location);
        for i in 0..old_entry.argument_count() {
            let arg: Value = old_entry.argument(i).expect("argument").into();
            let new: Value = prologue_block.argument(i).expect("argument").into();
            let values = self.unpack_abi(&entry, new, arg.r#type());
            self.set(arg, values);
        }
        // Thread ids are read at the end of the prologue when an op first
        // needs them (after the arguments' unpacking).
        self.threads.replace(None);
        let arguments = prologue_block.argument_count();
        if !is_kernel {
            self.shared_base = Some(
                prologue_block
                    .argument(arguments - 3)
                    .expect("argument")
                    .into(),
            );
        }
        self.in_kernel = is_kernel;
        self.scratch_args = (arguments - 2..arguments)
            .map(|i| prologue_block.argument(i).expect("argument").into())
            .collect();
        if let Err((op, message)) = self.lower_blocks(&old_blocks, &blocks[1..], Pending::default())
        {
            let name = op.name();
            let name = name.as_string_ref().as_str().unwrap_or("?").to_owned();
            fail(
                op,
                &format!("convert-triton-gpu-to-llvm: {message} (in '{name}')"),
            );
            unsafe { mlir_sys::mlirOperationDestroy(new_function.to_raw()) };
            return Err(Failure);
        }
        fold_prologue(self.prologue.expect("set above").1);
        if is_kernel && self.leader_cta_only {
            return_unless_leader(self.context, new_region, location);
        }
        // The old function goes; its values must not be looked up again.
        self.values.clear();
        self.threads.replace(None);
        self.prologue = None;
        unsafe { mlir_sys::mlirOperationDestroy(function.to_raw()) };
        Ok(())
    }

    /// Lowers the ops of `old` blocks (one region's) into the `new` ones,
    /// block by block: the arguments of every block but the first become
    /// the new block's, one per value they stand for; `entry` is what the
    /// first block knows of shared-memory accesses before it. On failure,
    /// the op that failed and why.
    fn lower_blocks(
        &mut self,
        old: &[BlockRef<'c, 'a>],
        new: &[BlockRef<'c, 'a>],
        entry: Pending,
    ) -> Result<(), (OperationRef<'c, 'a>, String)> {
        for (o, n) in old.iter().zip(new) {
            self.blocks.insert(o.to_raw().ptr as usize, *n);
        }
        for (old_block, new_block) in old.iter().zip(new).skip(1) {
            let mut next = 0;
            for a in 0..old_block.argument_count() {
                let arg: Value = old_block.argument(a).expect("argument").into();
                let n = self
                    .value_count(arg.r#type())
                    .expect("checked by the caller");
                let values = (next..next + n)
                    .map(|j| new_block.argument(j).expect("argument").into())
                    .collect();
                next += n;
                self.set(arg, values);
            }
        }
        let mut entry = Some(entry);
        for (old_block, new_block) in old.iter().zip(new) {
            self.pending = entry.take().unwrap_or_else(Pending::unknown);
            // The block's ops go to: `new_block`, or the continuation of
            // the last op that split it.
            let mut current = *new_block;
            let mut op = old_block.first_operation();
            while let Some(o) = op {
                let emit = Emitter {
                    context: self.context,
                    block: current,
                    location: o.location(),
                    before: None,
                };
                let lowered = self.lower_op(&emit, o);
                if let Some(inner) = self.failed_inside.take() {
                    return Err(inner);
                }
                if let Err(message) = lowered.and_then(|()| self.refusal.take().map_or(Ok(()), Err))
                {
                    return Err((o, message));
                }
                if let Some(next) = self.continuation.take() {
                    current = next;
                }
                self.materialize_unused(&emit.at_end_of(current), o);
                op = o.next_in_block();
            }
        }
        Ok(())
    }

    /// The tensor and memory-descriptor results of `op` that nothing
    /// reads, packed as Triton's conversion leaves every such value: the
    /// struct of the thread's registers, or of a descriptor's base and
    /// offsets. LLVM deletes them; until then the IR shows the op's work
    /// as Triton's does.
    fn materialize_unused(&self, emit: &Emitter<'c, 'a>, op: OperationRef<'c, 'a>) {
        for result in op.results() {
            let value: Value = result.into();
            let ty = value.r#type();
            // SAFETY: `value` is a result of the live op `op`.
            let unused = unsafe { mlir_sys::mlirValueGetFirstUse(value.to_raw()).ptr.is_null() };
            if unused && (TensorView::of(ty).is_some() || MemDesc::of(ty).is_some()) {
                // A value the lowering left without registers (an op it
                // keeps as it is) has nothing to pack.
                let _ = self.pack_abi(emit, value);
            }
        }
    }

    /// `ty`'s distributed layout ([`Distributed::of`]), built once per type.
    pub fn distributed(&self, ty: Type<'c>) -> Result<Rc<Distributed>, String> {
        let key = ty.to_raw().ptr as usize;
        if let Some(layout) = self.layouts.borrow().get(&key) {
            return Ok(layout.clone());
        }
        let layout = Rc::new(Distributed::of(ty)?);
        self.layouts.borrow_mut().insert(key, layout.clone());
        Ok(layout)
    }

    /// How a value of type `ty` crosses a function boundary (argument,
    /// result), as Triton passes them: a scalar as itself, a tensor as a
    /// struct of the thread's elements, a shared-memory descriptor as its
    /// base and one (zero) offset per dimension, a tensor descriptor as a
    /// generic pointer (to the 128-byte TMA descriptor).
    fn abi_type(&self, ty: Type<'c>) -> Result<Type<'c>, String> {
        if let Some(desc) = MemDesc::of(ty) {
            let mut fields = vec![types::llvm_pointer(self.context, 3)];
            fields.extend(std::iter::repeat_n(
                Type::from(IntegerType::new(self.context, 32)),
                desc.shape.len(),
            ));
            return Ok(emit::llvm_struct(self.context, &fields));
        }
        if tt_dialect::types::tensor_desc_block(ty).is_some() {
            return Ok(types::llvm_pointer(self.context, 0));
        }
        if TensorView::of(ty).is_none() {
            return Ok(self.element_type(ty));
        }
        let n = self.value_count(ty)?;
        Ok(emit::llvm_struct(
            self.context,
            &vec![self.element_type(ty); n],
        ))
    }

    /// `value` in its [`Self::abi_type`] form, built with `emit`.
    fn pack_abi(
        &self,
        emit: &Emitter<'c, 'a>,
        value: Value<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        if MemDesc::of(value.r#type()).is_some() {
            let ty = self.abi_type(value.r#type())?;
            let rank = MemDesc::of(value.r#type()).map_or(0, |d| d.shape.len());
            let mut fields = vec![self.scalar(value)?];
            fields.extend(std::iter::repeat_n(emit.i32(0), rank));
            return Ok(emit.struct_of(&fields, ty));
        }
        if TensorView::of(value.r#type()).is_none() {
            return self.scalar(value);
        }
        let ty = self.abi_type(value.r#type())?;
        Ok(emit.struct_of(&self.get(value)?, ty))
    }

    /// The values that stand for a value of type `ty` passed as `abi` (its
    /// [`Self::abi_type`] form).
    fn unpack_abi(
        &self,
        emit: &Emitter<'c, 'a>,
        abi: Value<'c, 'a>,
        ty: Type<'c>,
    ) -> Vec<Value<'c, 'a>> {
        if MemDesc::of(ty).is_some() {
            return vec![emit.extract(abi, 0, types::llvm_pointer(self.context, 3))];
        }
        if TensorView::of(ty).is_none() {
            return vec![abi];
        }
        let element = self.element_type(ty);
        let n = self.value_count(ty).unwrap_or(0);
        (0..n)
            .map(|i| emit.extract(abi, i as i64, element))
            .collect()
    }

    /// `builtin.unrealized_conversion_cast` between a tensor and the LLVM
    /// struct of its thread's elements (how Triton's lit files feed and read
    /// registers): the struct's fields are the tensor's values, in register
    /// order, and back.
    fn lower_cast(&mut self, emit: &Emitter<'c, 'a>, op: OperationRef<'c, 'a>) -> LowerResult {
        if op.operand_count() != 1 || op.result_count() != 1 {
            return Err("only casts of one value are supported".into());
        }
        let from = ttir::operand(op, 0).ok_or("missing operand")?;
        let to: Value = op.result(0).map_err(|_| "missing result")?.into();
        let (tensor, other) = match (
            TensorView::of(from.r#type()).is_some(),
            TensorView::of(to.r#type()).is_some(),
        ) {
            (true, false) => (from.r#type(), to.r#type()),
            (false, true) => (to.r#type(), from.r#type()),
            _ => return Err("only casts between a tensor and an LLVM struct are supported".into()),
        };
        if self.abi_type(tensor)? != other {
            return Err(format!(
                "a cast between {tensor} and {other}: the struct must hold the thread's {} elements of the tensor",
                self.value_count(tensor)?
            ));
        }
        if TensorView::of(to.r#type()).is_some() {
            let values = self.unpack_abi(emit, self.scalar(from)?, tensor);
            self.set(to, values);
        } else {
            let packed = self.pack_abi(emit, from)?;
            self.set(to, vec![packed]);
        }
        Ok(())
    }

    /// A copy of `op` on the lowered values of its scalar operands, its
    /// results (scalars, in their LLVM types) standing for the old ones.
    fn keep_op(&mut self, emit: &Emitter<'c, 'a>, op: OperationRef<'c, 'a>) -> LowerResult {
        let scalar = |ty: Type<'c>| TensorView::of(ty).is_none() && MemDesc::of(ty).is_none();
        if !op.operands().all(|v| scalar(v.r#type())) || !op.results().all(|r| scalar(r.r#type())) {
            return Err("only ops on scalars are kept as they are".into());
        }
        let operands: Vec<Value<'c, 'a>> = op
            .operands()
            .map(|v| self.scalar(v))
            .collect::<Result<_, _>>()?;
        let results: Vec<Type<'c>> = op
            .results()
            .map(|r| self.abi_type(r.r#type()))
            .collect::<Result<_, _>>()?;
        let attributes: Vec<(String, Attribute<'c>)> = ttir::attributes(op)
            .into_iter()
            .map(|(id, a)| (id.as_string_ref().as_str().unwrap_or("").to_owned(), a))
            .collect();
        let attributes: Vec<(&str, Attribute<'c>)> =
            attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let name = op.name();
        let copy = emit.op(
            name.as_string_ref().as_str().unwrap_or_default(),
            &operands,
            &results,
            &attributes,
        );
        for (old, new) in op.results().zip(copy.results()) {
            self.set(old.into(), vec![new.into()]);
        }
        Ok(())
    }

    /// How many values stand for a value of type `ty`.
    fn value_count(&self, ty: Type<'c>) -> Result<usize, String> {
        if TensorView::of(ty).is_some() {
            Ok(self.distributed(ty)?.len())
        } else {
            Ok(1)
        }
    }

    fn lower_op(&mut self, emit: &Emitter<'c, 'a>, op: OperationRef<'c, 'a>) -> LowerResult {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
        if self.num_ctas > 1 && touches_split_values(op) && !splits_allowed(op, &name) {
            return Err(format!(
                "'{name}' on tensors or buffers split across the CTAs of a cluster is not supported yet"
            ));
        }
        match name.as_str() {
            "tt.return" => {
                let values: Vec<Value<'c, 'a>> = op
                    .operands()
                    .map(|v| self.pack_abi(emit, v))
                    .collect::<Result<_, _>>()?;
                let types: Vec<Type> = values.iter().map(|v| v.r#type()).collect();
                let returned = packed_type(self.context, &types).map(|ty| match values[..] {
                    [one] => one,
                    _ => emit.struct_of(&values, ty),
                });
                emit.op("llvm.return", returned.as_slice(), &[], &[]);
                Ok(())
            }
            "tt.call" => self.lower_call(emit, op),
            "ttg.warp_specialize" => warp_specialize::lower(self, emit, op),
            "ttg.warp_yield" | "ttg.warp_return" => warp_specialize::terminator(self, emit, op),
            "ttg.global_scratch_alloc" => {
                // An empty buffer gets no offset; any address will do.
                let empty = op
                    .attribute("nbytes")
                    .ok()
                    .and_then(ttir::int_value)
                    .is_some_and(|(v, _)| v == 0);
                let offset = op
                    .attribute(GLOBAL_SCRATCH_OFFSET)
                    .ok()
                    .and_then(ttir::int_value)
                    .map(|(v, _)| v)
                    .or(empty.then_some(0))
                    .ok_or(
                        "'ttg.global_scratch_alloc' needs its offset \
                         ('ttg.global_scratch_memory_offset'): run \
                         tritongpu-global-scratch-memory-allocation first",
                    )?;
                let pointer = self.global_scratch(emit, Some(offset));
                self.set(
                    op.result(0).map_err(|_| "missing result")?.into(),
                    vec![pointer],
                );
                Ok(())
            }
            "builtin.unrealized_conversion_cast" => self.lower_cast(emit, op),
            // LLVM and NVVM ops already in the input (`tl.assume`'s
            // `llvm.intr.assume`; Triton's lit files store cast registers
            // with `llvm.store`) stay, on the new values.
            n if (n.starts_with("llvm.") || n.starts_with("nvvm."))
                && op.region_count() == 0
                && op.successor_count() == 0 =>
            {
                self.keep_op(emit, op)
            }
            // An undefined value (a function path that returns nothing):
            // LLVM's poison, one for every element.
            "ub.poison" => {
                let result: Value = op.result(0).map_err(|_| "missing result")?.into();
                let ty = result.r#type();
                let poison = emit.value("llvm.mlir.poison", &[], self.element_type(ty), &[]);
                let n = self.value_count(ty)?;
                self.set(result, vec![poison; n]);
                Ok(())
            }
            "cf.br" | "cf.cond_br" => self.lower_branch(emit, op, &name),
            // `tl.debug_barrier()`: a CTA-wide barrier.
            "gpu.barrier" => {
                self.shared_access(emit, Access::Barrier);
                Ok(())
            }
            "tt.get_program_id" | "tt.get_num_programs" => view::program_id(self, emit, op, &name),
            "tt.splat" => view::splat(self, emit, op),
            "tt.make_range" => view::make_range(self, emit, op),
            "tt.broadcast" | "tt.expand_dims" => view::remap(self, emit, op),
            "tt.unsplat" => view::unsplat(self, emit, op),
            "tt.trans" => view::trans(self, emit, op),
            "tt.reshape" => view::reshape(self, emit, op),
            "tt.join" => view::join(self, emit, op),
            "tt.split" => view::split(self, emit, op),
            "ttg.fp4_to_fp" => fp4::lower(self, emit, op),
            "tt.cat" => view::cat(self, emit, op),
            "ttg.convert_layout" => convert_layout::lower(self, emit, op),
            "tt.dot" => dot::lower(self, emit, op),
            "ttng.warp_group_dot" => wgmma::warp_group_dot(self, emit, op),
            "ttng.warp_group_dot_wait" => wgmma::warp_group_dot_wait(self, emit, op),
            "ttng.fence_async_shared" => wgmma::fence_async_shared(self, emit, op),
            "ttng.init_barrier" => tma::init_barrier(self, emit, op),
            "ttng.inval_barrier" => tma::inval_barrier(self, emit, op),
            "ttng.barrier_expect" => tma::barrier_expect(self, emit, op),
            "ttng.arrive_barrier" => tma::arrive_barrier(self, emit, op),
            "ttng.wait_barrier" => tma::wait_barrier(self, emit, op),
            "ttng.async_copy_mbarrier_arrive" => tma::async_copy_mbarrier_arrive(self, emit, op),
            // Tensors in a cluster reach the lowering only when every CTA
            // holds the whole tensor: TMA would copy once per CTA, and
            // Triton multicasts or splits those copies instead.
            n if n.starts_with("ttng.async_tma") && self.num_ctas > 1 && !self.leader_cta_only => {
                Err(format!(
                "'{n}' in a cluster of several CTAs (\"ttg.num-ctas\" = {}) is not supported yet",
                self.num_ctas
            ))
            }
            "ttng.async_tma_copy_global_to_local" => tma::copy_global_to_local(self, emit, op),
            "ttng.async_tma_copy_local_to_global" => tma::copy_local_to_global(self, emit, op),
            "ttng.async_tma_reduce" => tma::reduce(self, emit, op),
            "ttng.async_tma_gather" => tma::gather(self, emit, op),
            "ttng.async_tma_scatter" => tma::scatter(self, emit, op),
            "ttng.async_tma_store_wait" => tma::store_wait(self, emit, op),
            "ttng.tensormap_create" => tma::tensormap_create(self, emit, op),
            "ttng.reinterpret_tensor_descriptor" => {
                tma::reinterpret_tensor_descriptor(self, emit, op)
            }
            "ttng.tensormap_fenceproxy_acquire" => {
                tma::tensormap_fenceproxy_acquire(self, emit, op)
            }
            "tt.reduce" => {
                reduce::lower(self, emit, op)?;
                assert::raise_deferred(self, emit)
            }
            "tt.scan" => {
                scan::lower(self, emit, op)?;
                assert::raise_deferred(self, emit)
            }
            "tt.addptr" => view::addptr(self, emit, op),
            "tt.load" => memory::load(self, emit, op),
            "tt.store" => memory::store(self, emit, op),
            "ttg.local_alloc" => memory::local_alloc(self, emit, op),
            "ttg.local_dealloc" => Ok(()),
            "ttg.memdesc_index" => memory::memdesc_index(self, emit, op),
            "ttg.memdesc_trans" => memory::memdesc_trans(self, emit, op),
            "ttg.memdesc_reinterpret" => memory::memdesc_reinterpret(self, emit, op),
            "ttg.memdesc_reshape" => memory::memdesc_reshape(self, emit, op),
            "ttg.memdesc_subslice" => memory::memdesc_subslice(self, emit, op),
            "ttg.local_load" => memory::local_load(self, emit, op),
            "ttg.local_store" => memory::local_store(self, emit, op),
            "ttg.async_copy_global_to_local" => memory::async_copy(self, emit, op),
            "ttg.async_commit_group" => memory::async_commit_group(self, emit, op),
            "ttg.async_wait" => memory::async_wait(self, emit, op),
            "tt.print" => print::lower(self, emit, op),
            "tt.assert" => assert::lower(self, emit, op),
            "tt.atomic_rmw" => atomic::rmw(self, emit, op),
            "tt.atomic_cas" => atomic::cas(self, emit, op),
            "tt.elementwise_inline_asm" => inline_asm::lower(self, emit, op),
            "tt.histogram" => histogram::lower(self, emit, op),
            "tt.gather" => gather::lower(self, emit, op),
            "tt.map_elementwise" => map_elementwise::lower(self, emit, op),
            "tti.experimental_buffer_pointers" => instrument::buffer_pointers(self, emit, op),
            "tti.experimental_assert_in_thread" => instrument::assert_in_thread(self, emit, op),
            // An op of no loaded dialect (the sinks of Triton's lit files)
            // stays, on the lowered scalars, as Triton's partial conversion
            // leaves it.
            _ if op.region_count() == 0
                && op.successor_count() == 0
                && !tt_passes::ttir::loop_support::ir::is_registered(op.to_raw()) =>
            {
                self.keep_op(emit, op)
            }
            "tti.experimental_memdesc_to_i32" | "tti.experimental_memdesc_to_i64" => {
                instrument::memdesc_to_int(self, emit, op)
            }
            "tti.experimental_lock_acquire" => instrument::lock_acquire(self, emit, op),
            "tti.experimental_lock_release" => instrument::lock_release(self, emit, op),
            _ => elementwise::lower(self, emit, op, &name),
        }
    }

    /// The global scratch memory at byte `offset` of this function's
    /// buffer, as Triton computes it: in a device function, the offset
    /// from the pointer its caller passed; in a kernel whose module needs
    /// global scratch (`ttg.global_scratch_memory_size`), the offset into
    /// this program's slice of the grid's buffer, the programs numbered
    /// x-fastest (times the cluster size plus the CTA's rank in it).
    fn global_scratch(&mut self, emit: &Emitter<'c, 'a>, offset: Option<i64>) -> Value<'c, 'a> {
        let base = self.scratch_args[0];
        let i8_type = emit.int_type(8);
        if !self.in_kernel {
            return match offset {
                Some(offset) => emit.gep(base, emit.i32(offset), i8_type),
                None => base,
            };
        }
        let size = self
            .module
            .attribute("ttg.global_scratch_memory_size")
            .ok()
            .and_then(ttir::int_value)
            .map_or(0, |(v, _)| v);
        if size == 0 {
            return base;
        }
        let (id, count) = if self.num_ctas > 1 {
            ("clusterid", "nclusterid")
        } else {
            ("ctaid", "nctaid")
        };
        let ids = ["x", "y", "z"].map(|a| emit.special_register(&format!("{id}.{a}")));
        let counts = ["x", "y"].map(|a| emit.special_register(&format!("{count}.{a}")));
        let mut linear = ids[2];
        for k in [1, 0] {
            linear = emit.add(ids[k], emit.mul(linear, counts[k]));
        }
        if self.num_ctas > 1 {
            let rank = emit.special_register("cluster.ctarank");
            linear = emit.add(emit.mul(linear, emit.i32(self.num_ctas)), rank);
        }
        let mut bytes = emit.mul(linear, emit.i32(size));
        if let Some(offset) = offset {
            bytes = emit.add(bytes, emit.i32(offset));
        }
        emit.gep(base, bytes, i8_type)
    }

    /// `tt.call` of a `noinline` function: `llvm.call` with the scalars, the
    /// callee's shared memory, its global scratch (at the call's
    /// `ttg.global_scratch_memory_offset`) and the caller's profile
    /// scratch; several results come back in a struct.
    fn lower_call(&mut self, emit: &Emitter<'c, 'a>, op: OperationRef<'c, 'a>) -> LowerResult {
        let callee = ttir::inherent_attribute(op, "callee")
            .and_then(ttir::symbol_ref_value)
            .ok_or("a call without callee")?;
        let mut arguments: Vec<Value<'c, 'a>> = op
            .operands()
            .map(|v| self.pack_abi(emit, v))
            .collect::<Result<_, _>>()?;
        // The callee's shared memory is the call's buffer (sized by the
        // allocation to what the callee and its callees use), which the
        // callee may read and write: order it after this function's
        // accesses to the same bytes.
        let shared = match crate::allocation::offset(op) {
            Some(offset) => {
                // The callee's bytes, or all of them (`None`) when the
                // callee was lowered first and its size cannot be read
                // back.
                let span = crate::allocation::buffer_range(op);
                self.shared_access(emit, Access::Write(span));
                self.shared_at(emit, offset)
            }
            None => self.shared_base(),
        };
        arguments.push(shared);
        let offset = op
            .attribute(GLOBAL_SCRATCH_OFFSET)
            .ok()
            .and_then(ttir::int_value)
            .map(|(v, _)| v);
        arguments.push(self.global_scratch(emit, offset));
        arguments.push(self.scratch_args[1]);
        let results: Vec<Value<'c, 'a>> = op.results().map(Into::into).collect();
        let types: Vec<Type<'c>> = results
            .iter()
            .map(|r| self.abi_type(r.r#type()))
            .collect::<Result<_, _>>()?;
        let value = emit.call(&callee, &arguments, packed_type(self.context, &types));
        match (value, results.as_slice()) {
            (Some(v), [one]) => {
                let values = self.unpack_abi(emit, v, one.r#type());
                self.set(*one, values);
            }
            (Some(v), many) => {
                for (i, r) in many.iter().enumerate() {
                    let field = emit.extract(v, i as i64, types[i]);
                    let values = self.unpack_abi(emit, field, r.r#type());
                    self.set(*r, values);
                }
            }
            (None, _) => {}
        }
        // The callee may synchronise or touch anything: forget what this
        // function had pending.
        self.pending = Pending::unknown();
        Ok(())
    }

    fn lower_branch(
        &mut self,
        emit: &Emitter<'c, 'a>,
        op: OperationRef<'c, 'a>,
        name: &str,
    ) -> LowerResult {
        let successor = |i: usize| -> Result<BlockRef<'c, 'a>, String> {
            let raw = unsafe { mlir_sys::mlirOperationGetSuccessor(op.to_raw(), i as isize) };
            self.blocks
                .get(&(raw.ptr as usize))
                .copied()
                .ok_or_else(|| "a branch to an unknown block".to_owned())
        };
        let expand =
            |this: &Self, values: Vec<Value<'c, 'a>>| -> Result<Vec<Value<'c, 'a>>, String> {
                let mut out = Vec::new();
                for v in values {
                    out.extend(this.get(v)?);
                }
                Ok(out)
            };
        if name == "cf.br" {
            let args = expand(self, op.operands().collect())?;
            let target = successor(0)?;
            let br = OperationBuilder::new("llvm.br", emit.location)
                .add_operands(&args)
                .add_successors(&[&target])
                .add_attributes(&loop_annotation(self.context, op))
                .build()
                .map_err(|_| "could not rebuild the branch".to_owned())?;
            emit.block.append_operation(br);
            return Ok(());
        }
        let condition = self.scalar(ttir::operand(op, 0).ok_or("a branch without condition")?)?;
        let true_args = expand(self, ttir::segment(op, 1).unwrap_or_default())?;
        let false_args = expand(self, ttir::segment(op, 2).unwrap_or_default())?;
        let (t, f) = (successor(0)?, successor(1)?);
        let sizes = Attribute::parse(
            self.context,
            &format!("array<i32: 1, {}, {}>", true_args.len(), false_args.len()),
        )
        .expect("attribute");
        let mut operands = vec![condition];
        operands.extend(&true_args);
        operands.extend(&false_args);
        let br = OperationBuilder::new("llvm.cond_br", emit.location)
            .add_operands(&operands)
            .add_successors(&[&t, &f])
            .add_attributes(&[(Identifier::new(self.context, "operandSegmentSizes"), sizes)])
            .add_attributes(&loop_annotation(self.context, op))
            .build()
            .map_err(|_| "could not rebuild the branch".to_owned())?;
        emit.block.append_operation(br);
        Ok(())
    }
}

/// The loop metadata (`tl.range(..., disable_licm=True)`, unrolling) that
/// scf-to-cf left on a loop's back edge as `llvm.loop_annotation`, as the
/// LLVM branch's `loop_annotation`.
fn loop_annotation<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
) -> Vec<(Identifier<'c>, Attribute<'c>)> {
    op.attribute("llvm.loop_annotation")
        .ok()
        .map(|a| (Identifier::new(context, "loop_annotation"), a))
        .into_iter()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    /// Whether lowering `body` (a kernel's ops on `%x: f32` and `%p`) leaves
    /// ops for MLIR's conversions.
    fn leaves(body: &str) -> bool {
        let context = tt_passes::context::new_context(false);
        for dialect in ["llvm", "nvvm", "cf", "arith", "math"] {
            context.get_or_load_dialect(dialect);
        }
        let text = format!(
            "#blocked = #ttg.blocked<{{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}}>\n\
             module attributes {{\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 1 : i32, ttg.target = \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32}} {{\n\
             tt.func public @k(%p: !tt.ptr<f32>, %x: f32) {{\n{body}\ntt.return\n}}\n}}"
        );
        let module = Module::parse(&context, &text).expect("parses");
        let options = Options {
            compute_capability: 90,
            ptx_version: 87,
        };
        lower_module(&context, module.as_operation(), options).expect("lowers")
    }

    #[test]
    fn only_ops_without_a_lowering_here_are_left_for_mlir() {
        // Specially lowered (exp on f32: ex2.approx) and one-to-one ops.
        assert!(!leaves(
            "%t = tt.splat %x : f32 -> tensor<32xf32, #blocked>\n\
             %e = math.exp %t : tensor<32xf32, #blocked>\n\
             %s = arith.addf %e, %t : tensor<32xf32, #blocked>\n\
             %c = arith.cmpf olt, %s, %t : tensor<32xf32, #blocked>"
        ));
        // Fast-math flags, and an op with no counterpart here.
        assert!(leaves("%s = arith.addf %x, %x fastmath<fast> : f32"));
        assert!(leaves("%s = math.copysign %x, %x : f32"));
    }
}
