//! The sanitizer's helper functions: private `tt.func`s that read and
//! update the state in global scratch memory. Each is made once per
//! signature, table sizes and number of warps; the instrumented code calls
//! them.
//!
//! The state's encodings (B buffers, K barriers, T threads, C commit
//! columns):
//! - write visibility `[B] i64`: per buffer, the threads that see its last
//!   write;
//! - read visibility `[B x T] i64`: per buffer and thread `t`, the reading
//!   threads whose reads `t` sees;
//! - write tracking `[B x K] i8` and read tracking `[B x K] i64`: per
//!   buffer and barrier, whether the barrier's completion publishes the
//!   buffer's last write, and the reads it publishes;
//! - barrier state `[K] i32`: bit 0 the phase, bits 1-8 the arrival count
//!   the barrier was initialized with, bits 9-16 the arrivals still due;
//! - waiting `[K] i32`: per base thread `t`, bit `2t` set while `t` waits
//!   on the barrier and bit `2t + 1` the phase it waits for;
//! - commits `[B x C] i8`: per buffer and base thread, -1 for an access
//!   staged for the next commit group, `n > 0` for an access of the `n`-th
//!   newest committed group, 0 for none.

use mlir_sys::{MlirOperation, MlirType, MlirValue};

use super::builder::{At, BuildResult, Shape, B};
use crate::ttir::loop_support::ir;

/// `arith.cmpi` predicates this file uses beyond [`ir::cmpi`].
mod cmpi {
    pub const NE: i64 = 1;
}

/// The helpers. Arguments named `a` are a buffer's address (i64), `p`
/// the predicate of the instrumented op (i1), `t` a sanitizer thread (i32),
/// `mask` a mask of threads (i64), `bufs` a buffer address tensor
/// (`[B] i64`), `bars` the barrier address tensor (`[K] i64`); the others
/// are pointers to the state in scratch memory. The table sizes a helper is
/// built for (`dims`) are `[K]` for the barrier helpers, `[B, K]` for the
/// tracking ones and `[B]` for the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Helper {
    /// `(bar, count, bars, states)`: `bar` to phase 0, `count` arrivals due.
    InitBarrierState,
    /// `(a, p, t, bufs, wv) -> [B] i1`: `t` sees the last write of `a`.
    VerifyWriteVisibility,
    /// `(a, p, t, bufs, rv) -> [B] i1`: `t` sees every read of `a`.
    VerifyReadVisibility,
    /// `(a, p, mask, bufs, wv)`: a write of `a` that `mask` sees.
    SetWriteVisibility,
    /// `(a, p, mask, bufs, rv)`: a read of `a` by (and seen by) `mask`.
    SetReadVisibility,
    /// `(a, p, bufs, wt)`: no barrier tracks the last write of `a`.
    ClearWriteTracking,
    /// `(a, p, bufs, rv)`: no reads of `a` to wait for.
    ClearReadVisibility,
    /// `(a, p, bufs, rt)`: no barrier tracks reads of `a`.
    ClearReadTracking,
    /// `(bar, p, t, bars, wv, wt)`: `bar` tracks the writes `t` sees.
    TrackVisibleWrites,
    /// `(bar, p, t, bars, rv, rt)`: `bar` tracks the reads `t` sees.
    TrackVisibleReads,
    /// `(bar, p, mask, bars, wv, wt)`: `mask` sees the writes `bar` tracks.
    TransferVisibleWrites,
    /// `(bar, p, mask, bars, rv, rt)`: `mask` sees the reads `bar` tracks.
    TransferVisibleReads,
    /// `(bar, count, p, bars, states) -> [K] i1`: `count` arrivals are due.
    VerifyBarrierArrive,
    /// `(bar, count, p, bars, states)`: `count` arrivals on `bar`.
    UpdateBarrierState,
    /// `(bar, t, phase, p, bars, waiting)`: `t` waits on `bar`'s `phase`.
    SetWaiting,
    /// `(bar, t, p, bars, waiting)`: `t` no longer waits on `bar`.
    ClearWaiting,
    /// `(active, p, waiting, states) -> i1`: some active thread can run.
    CheckAllActiveWaiting,
    /// `(a, p, t, bufs, commits)`: `t` starts an access of `a` that its
    /// next commit group will hold.
    StageAccessForCommit,
    /// `(t, p, commits)`: `t` commits its staged accesses as a new group.
    CommitAccesses,
    /// `(a, p, t, bufs, commits) -> [B x C] i1`: no outstanding access of `a`.
    CheckOutstandingCommits,
    /// `(t, mask, n, p, commits, wv)`: `t` waits until at most `n` groups
    /// are outstanding; `mask` sees the writes of those completed.
    ClearOutstandingCommitsTransferWrites,
    /// The same, for reads (`rv`).
    ClearOutstandingCommitsTransferReads,
    /// `(t, mask, p, wv)`: `mask` sees the writes `t` sees.
    CopyWriteVisibility,
    /// `(t, mask, p, rv)`: `mask` sees the reads `t` sees.
    CopyReadVisibility,
}

impl Helper {
    pub fn name(self) -> &'static str {
        match self {
            Helper::InitBarrierState => "init_barrier_state",
            Helper::VerifyWriteVisibility => "verify_write_visibility",
            Helper::VerifyReadVisibility => "verify_read_visibility",
            Helper::SetWriteVisibility => "set_write_visibility",
            Helper::SetReadVisibility => "set_read_visibility",
            Helper::ClearWriteTracking => "clear_write_tracking",
            Helper::ClearReadVisibility => "clear_read_visibility",
            Helper::ClearReadTracking => "clear_read_tracking",
            Helper::TrackVisibleWrites => "track_visible_writes",
            Helper::TrackVisibleReads => "track_visible_reads",
            Helper::TransferVisibleWrites => "transfer_visible_writes",
            Helper::TransferVisibleReads => "transfer_visible_reads",
            Helper::VerifyBarrierArrive => "verify_barrier_arrive",
            Helper::UpdateBarrierState => "update_barrier_state",
            Helper::SetWaiting => "set_waiting",
            Helper::ClearWaiting => "clear_waiting",
            Helper::CheckAllActiveWaiting => "check_all_active_waiting",
            Helper::StageAccessForCommit => "stage_access_for_commit",
            Helper::CommitAccesses => "commit_accesses",
            Helper::CheckOutstandingCommits => "check_outstanding_commits",
            Helper::ClearOutstandingCommitsTransferWrites => {
                "clear_outstanding_commits_transfer_writes"
            }
            Helper::ClearOutstandingCommitsTransferReads => {
                "clear_outstanding_commits_transfer_reads"
            }
            Helper::CopyWriteVisibility => "copy_write_visibility",
            Helper::CopyReadVisibility => "copy_read_visibility",
        }
    }

    /// The result types of a call with arguments of `types` for tables of
    /// `dims`.
    pub fn results(self, b: &B, types: &[MlirType], dims: &[i64]) -> BuildResult<Vec<MlirType>> {
        Ok(match self {
            Helper::VerifyWriteVisibility
            | Helper::VerifyReadVisibility
            | Helper::VerifyBarrierArrive => {
                vec![ir::i1_same_shape(types[3])]
            }
            Helper::CheckOutstandingCommits => {
                vec![b.tensor(&[dims[0], super::NUM_COMMIT_THREADS], b.int_type(1))?]
            }
            Helper::CheckAllActiveWaiting => vec![b.int_type(1)],
            _ => Vec::new(),
        })
    }
}

/// The static shape of the tensor type `ty`.
pub fn shape_of(ty: MlirType) -> Vec<i64> {
    // SAFETY: a live type; a non-tensor has rank 0 here.
    unsafe {
        if !mlir_sys::mlirTypeIsARankedTensor(ty) {
            return Vec::new();
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(ty);
        (0..rank)
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(ty, d as isize))
            .collect()
    }
}

/// Creates the private function `symbol` implementing `helper` for
/// arguments of `types`, right before `func`.
pub fn build(
    func: MlirOperation,
    symbol: &str,
    helper: Helper,
    types: &[MlirType],
    dims: &[i64],
    shape: Shape,
) -> BuildResult<()> {
    let ctx = ir::context(func);
    let loc = ir::location(func);
    let locs = vec![loc; types.len()];
    // SAFETY: a fresh block and region, handed to the new function op.
    let (region, block) = unsafe {
        let block = mlir_sys::mlirBlockCreate(types.len() as isize, types.as_ptr(), locs.as_ptr());
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        (region, block)
    };
    let b = B {
        ctx,
        loc,
        at: At::End(block),
        shape,
    };
    let results = helper.results(&b, types, dims)?;
    let args = ir::block_args(block);
    let returned = body(&b, helper, &args, dims)?;
    b.op("tt.return", &returned, &[], &[]);
    // SAFETY: live types; the arrays outlive the calls.
    let fn_type = unsafe {
        mlir_sys::mlirTypeAttrGet(mlir_sys::mlirFunctionTypeGet(
            ctx,
            types.len() as isize,
            types.as_ptr(),
            results.len() as isize,
            results.as_ptr(),
        ))
    };
    let i32t = b.int_type(32);
    let op = ir::create_op(
        "tt.func",
        loc,
        &[],
        &[],
        &[
            ("sym_name", b.parse_attr(&format!("\"{symbol}\""))?),
            ("function_type", fn_type),
            ("sym_visibility", b.parse_attr("\"private\"")?),
            ("ttg.num-warps", ir::integer_attr(i32t, shape.num_warps)),
        ],
        vec![region],
    );
    ir::insert_before(func, op);
    Ok(())
}

/// Writes the body of `helper` over the arguments `args`, for state tables
/// of `dims` (`[B]`, `[B, K]` or `[K]`, see [`Helper`]), and returns the
/// values it returns.
fn body(b: &B, helper: Helper, args: &[MlirValue], dims: &[i64]) -> BuildResult<Vec<MlirValue>> {
    use Helper::*;
    let arg = |i: usize| args[i];
    let n = dims[0];
    let k = dims.get(1).copied().unwrap_or(1);
    let threads = [n, super::NUM_THREADS];
    let commit_shape = [n, super::NUM_COMMIT_THREADS];
    let tracking = [n, k];
    match helper {
        InitBarrierState => {
            let (bar, count, bars, states_ptr) = (arg(0), arg(1), arg(2), arg(3));
            let states = b.load_tensor(states_ptr, &[n], 32)?;
            let mine = eq_splat(b, bars, bar);
            let ty = ir::value_type(states);
            let count = b.splat(b.binary("arith.andi", count, b.const_int(0xff, 32)), ty);
            let init = b.binary("arith.shli", count, b.const_splat(ty, 1));
            let due = b.binary("arith.shli", count, b.const_splat(ty, 9));
            let state = b.binary("arith.ori", init, due);
            b.store_tensor(states_ptr, b.select(mine, state, states), &[n])?;
            Ok(Vec::new())
        }
        VerifyWriteVisibility => {
            let (a, p, t, bufs, wv_ptr) = (arg(0), arg(1), arg(2), arg(3), arg(4));
            let wv = b.load_tensor(wv_ptr, &[n], 64)?;
            let mine = eq_splat(b, bufs, a);
            let ty = ir::value_type(wv);
            let zero = b.const_splat(ty, 0);
            let writers = b.select(mine, wv, zero);
            let none = b.cmpi(ir::cmpi::EQ, writers, zero);
            let bit = b.splat(thread_bit(b, t), ty);
            let seen = b.cmpi(ir::cmpi::EQ, b.binary("arith.andi", writers, bit), bit);
            let ok = b.binary("arith.ori", none, seen);
            Ok(vec![or_not(b, p, ok)])
        }
        VerifyReadVisibility => {
            let (a, p, t, bufs, rv_ptr) = (arg(0), arg(1), arg(2), arg(3), arg(4));
            let rv = b.load_tensor(rv_ptr, &threads, 64)?;
            let rows = rows_2d(b, eq_splat(b, bufs, a), &threads)?;
            let zero = b.const_splat(ir::value_type(rv), 0);
            let mine = b.select(rows, rv, zero);
            let n_ty = ir::value_type(bufs);
            let all = reduce_rows(b, mine, n_ty)?;
            let col = col_is(b, &threads, t)?;
            let seen = reduce_rows(b, b.select(col, mine, zero), n_ty)?;
            let ok = b.cmpi(ir::cmpi::EQ, b.binary("arith.andi", seen, all), all);
            Ok(vec![or_not(b, p, ok)])
        }
        SetWriteVisibility => guarded(b, arg(1), |b| {
            let (a, mask, bufs, wv_ptr) = (arg(0), arg(2), arg(3), arg(4));
            let wv = b.load_tensor(wv_ptr, &[n], 64)?;
            let mine = eq_splat(b, bufs, a);
            let new = b.select(mine, b.splat(mask, ir::value_type(wv)), wv);
            b.store_tensor(wv_ptr, new, &[n])
        }),
        SetReadVisibility => guarded(b, arg(1), |b| {
            let (a, mask, bufs, rv_ptr) = (arg(0), arg(2), arg(3), arg(4));
            let rv = b.load_tensor(rv_ptr, &threads, 64)?;
            let rows = rows_2d(b, eq_splat(b, bufs, a), &threads)?;
            let cols = cols_in_mask(b, &threads, mask)?;
            let target = b.binary("arith.andi", rows, cols);
            let seen = b.binary("arith.ori", rv, b.splat(mask, ir::value_type(rv)));
            b.store_tensor(rv_ptr, b.select(target, seen, rv), &threads)
        }),
        ClearWriteTracking | ClearReadVisibility | ClearReadTracking => guarded(b, arg(1), |b| {
            let (a, bufs, ptr) = (arg(0), arg(2), arg(3));
            let (shape, width) = match helper {
                ClearWriteTracking => (tracking, 8),
                ClearReadVisibility => (threads, 64),
                _ => (tracking, 64),
            };
            let table = b.load_tensor(ptr, &shape, width)?;
            let rows = rows_2d(b, eq_splat(b, bufs, a), &shape)?;
            let zero = b.const_splat(ir::value_type(table), 0);
            b.store_tensor(ptr, b.select(rows, zero, table), &shape)
        }),
        TrackVisibleWrites => guarded(b, arg(1), |b| {
            let (bar, t, bars, wv_ptr, wt_ptr) = (arg(0), arg(2), arg(3), arg(4), arg(5));
            let wv = b.load_tensor(wv_ptr, &[n], 64)?;
            let wt = b.load_tensor(wt_ptr, &tracking, 8)?;
            let cols = cols_2d(b, eq_splat(b, bars, bar), &tracking)?;
            let bit = b.splat(thread_bit(b, t), ir::value_type(wv));
            let seen = b.cmpi(ir::cmpi::EQ, b.binary("arith.andi", wv, bit), bit);
            let rows = rows_2d(b, seen, &tracking)?;
            let target = b.binary("arith.andi", cols, rows);
            let one = b.const_splat(ir::value_type(wt), 1);
            b.store_tensor(wt_ptr, b.select(target, one, wt), &tracking)
        }),
        TrackVisibleReads => guarded(b, arg(1), |b| {
            let (bar, t, bars, rv_ptr, rt_ptr) = (arg(0), arg(2), arg(3), arg(4), arg(5));
            let rv = b.load_tensor(rv_ptr, &threads, 64)?;
            let rt = b.load_tensor(rt_ptr, &tracking, 64)?;
            let cols = cols_2d(b, eq_splat(b, bars, bar), &tracking)?;
            let col = col_is(b, &threads, t)?;
            let zero = b.const_splat(ir::value_type(rv), 0);
            let seen = reduce_rows(b, b.select(col, rv, zero), b.tensor(&[n], b.int_type(64))?)?;
            let seen = rows_2d(b, seen, &tracking)?;
            let tracked = b.binary("arith.ori", rt, seen);
            b.store_tensor(rt_ptr, b.select(cols, tracked, rt), &tracking)
        }),
        TransferVisibleWrites => guarded(b, arg(1), |b| {
            let (bar, mask, bars, wv_ptr, wt_ptr) = (arg(0), arg(2), arg(3), arg(4), arg(5));
            let wv = b.load_tensor(wv_ptr, &[n], 64)?;
            let wt = b.load_tensor(wt_ptr, &tracking, 8)?;
            let cols = cols_2d(b, eq_splat(b, bars, bar), &tracking)?;
            let zero = b.const_splat(ir::value_type(wt), 0);
            let n_ty = b.tensor(&[n], b.int_type(8))?;
            let tracked = reduce_rows(b, b.select(cols, wt, zero), n_ty)?;
            let tracked = b.cmpi(ir::cmpi::EQ, tracked, b.const_splat(n_ty, 1));
            let wv_ty = ir::value_type(wv);
            let add = b.select(tracked, b.splat(mask, wv_ty), b.const_splat(wv_ty, 0));
            b.store_tensor(wv_ptr, b.binary("arith.ori", wv, add), &[n])
        }),
        TransferVisibleReads => guarded(b, arg(1), |b| {
            let (bar, mask, bars, rv_ptr, rt_ptr) = (arg(0), arg(2), arg(3), arg(4), arg(5));
            let rv = b.load_tensor(rv_ptr, &threads, 64)?;
            let rt = b.load_tensor(rt_ptr, &tracking, 64)?;
            let cols = cols_2d(b, eq_splat(b, bars, bar), &tracking)?;
            let zero = b.const_splat(ir::value_type(rt), 0);
            let tracked =
                reduce_rows(b, b.select(cols, rt, zero), b.tensor(&[n], b.int_type(64))?)?;
            let tracked = rows_2d(b, tracked, &threads)?;
            let seen = b.binary("arith.ori", rv, tracked);
            let target = cols_in_mask(b, &threads, mask)?;
            b.store_tensor(rv_ptr, b.select(target, seen, rv), &threads)
        }),
        VerifyBarrierArrive => {
            let (bar, count, p, bars, states_ptr) = (arg(0), arg(1), arg(2), arg(3), arg(4));
            let states = b.load_tensor(states_ptr, &[n], 32)?;
            let ty = ir::value_type(states);
            let mine = eq_splat(b, bars, bar);
            let due = field(b, states, 9);
            let count = b.splat(b.binary("arith.andi", count, b.const_int(0xff, 32)), ty);
            let zero = b.const_splat(ty, 0);
            let left = b.select(mine, b.binary("arith.subi", due, count), zero);
            let ok = b.cmpi(ir::cmpi::SGE, left, zero);
            Ok(vec![or_not(b, p, ok)])
        }
        UpdateBarrierState => guarded(b, arg(2), |b| {
            let (bar, count, bars, states_ptr) = (arg(0), arg(1), arg(3), arg(4));
            let states = b.load_tensor(states_ptr, &[n], 32)?;
            let ty = ir::value_type(states);
            let mine = eq_splat(b, bars, bar);
            let phase = b.binary("arith.andi", states, b.const_splat(ty, 1));
            let init = field(b, states, 1);
            let due = field(b, states, 9);
            let count = b.splat(b.binary("arith.andi", count, b.const_int(0xff, 32)), ty);
            let due = b.select(mine, b.binary("arith.subi", due, count), due);
            let done = b.binary(
                "arith.andi",
                b.cmpi(ir::cmpi::EQ, due, b.const_splat(ty, 0)),
                mine,
            );
            let flip = b.v("arith.extui", &[done], ty, &[]);
            let phase = b.binary("arith.xori", phase, flip);
            let due = b.select(done, init, due);
            let init = b.binary("arith.shli", init, b.const_splat(ty, 1));
            let due = b.binary("arith.shli", due, b.const_splat(ty, 9));
            let state = b.binary("arith.ori", b.binary("arith.ori", phase, init), due);
            b.store_tensor(states_ptr, b.select(mine, state, states), &[n])
        }),
        SetWaiting | ClearWaiting => {
            let set = helper == SetWaiting;
            let p = if set { arg(3) } else { arg(2) };
            guarded(b, p, |b| {
                let (bar, t) = (arg(0), arg(1));
                let (bars, waiting_ptr) = if set {
                    (arg(4), arg(5))
                } else {
                    (arg(3), arg(4))
                };
                let waiting = b.load_tensor(waiting_ptr, &[n], 32)?;
                let ty = ir::value_type(waiting);
                let mine = eq_splat(b, bars, bar);
                // Two bits per base thread: waiting, and the phase waited on.
                let flag_pos = b.binary("arith.muli", t, b.const_int(2, 32));
                let phase_pos = b.binary("arith.addi", flag_pos, b.const_int(1, 32));
                let one = b.const_int(1, 32);
                let flag = b.binary("arith.shli", one, flag_pos);
                let both = b.binary("arith.ori", flag, b.binary("arith.shli", one, phase_pos));
                let keep = b.binary("arith.xori", both, b.const_int(-1, 32));
                let mut new = b.binary("arith.andi", waiting, b.splat(keep, ty));
                if set {
                    let phase = b.binary("arith.andi", arg(2), one);
                    let phase = b.binary("arith.shli", b.splat(phase, ty), b.splat(phase_pos, ty));
                    new = b.binary(
                        "arith.ori",
                        b.binary("arith.ori", new, b.splat(flag, ty)),
                        phase,
                    );
                }
                b.store_tensor(waiting_ptr, b.select(mine, new, waiting), &[n])
            })
        }
        CheckAllActiveWaiting => {
            let (active, p, waiting_ptr, states_ptr) = (arg(0), arg(1), arg(2), arg(3));
            let waiting = b.load_tensor(waiting_ptr, &[n], 32)?;
            let states = b.load_tensor(states_ptr, &[n], 32)?;
            let ty = ir::value_type(waiting);
            let flags = b.binary("arith.andi", waiting, b.const_splat(ty, 0x5555_5555));
            let phases = b.binary(
                "arith.andi",
                waiting,
                b.const_splat(ty, 0xAAAA_AAAAu32 as i32 as i64),
            );
            let phases = b.binary("arith.shrui", phases, b.const_splat(ty, 1));
            let on_one = b.binary("arith.andi", flags, phases);
            let on_zero = b.binary(
                "arith.andi",
                flags,
                b.binary("arith.xori", phases, b.const_splat(ty, 0x5555_5555)),
            );
            // A thread waiting on the barrier's current phase is blocked.
            let phase = b.binary("arith.andi", states, b.const_splat(ty, 1));
            let odd = b.cmpi(ir::cmpi::EQ, phase, b.const_splat(ty, 1));
            let blocked = reduce(b, b.select(odd, on_one, on_zero), 0, b.int_type(32))?;
            let all = b.cmpi(
                ir::cmpi::EQ,
                b.binary("arith.andi", blocked, active),
                active,
            );
            let t = b.const_int(1, 1);
            let ok = b.binary("arith.xori", all, t);
            Ok(vec![b.select(p, ok, t)])
        }
        StageAccessForCommit => guarded(b, arg(1), |b| {
            let (a, t, bufs, commits_ptr) = (arg(0), arg(2), arg(3), arg(4));
            let commits = b.load_tensor(commits_ptr, &commit_shape, 8)?;
            let rows = rows_2d(b, eq_splat(b, bufs, a), &commit_shape)?;
            let target = b.binary("arith.andi", rows, col_is(b, &commit_shape, t)?);
            let staged = b.const_splat(ir::value_type(commits), -1);
            b.store_tensor(
                commits_ptr,
                b.select(target, staged, commits),
                &commit_shape,
            )
        }),
        CommitAccesses => guarded(b, arg(1), |b| {
            let (t, commits_ptr) = (arg(0), arg(2));
            let commits = b.load_tensor(commits_ptr, &commit_shape, 8)?;
            let ty = ir::value_type(commits);
            let col = col_is(b, &commit_shape, t)?;
            let one = b.const_splat(ty, 1);
            // Older groups age by one; the staged accesses become group 1.
            let older = b.binary(
                "arith.andi",
                b.cmpi(ir::cmpi::SGT, commits, b.const_splat(ty, 0)),
                col,
            );
            let aged = b.select(older, b.binary("arith.addi", commits, one), commits);
            let staged = b.binary(
                "arith.andi",
                b.cmpi(ir::cmpi::EQ, aged, b.const_splat(ty, -1)),
                col,
            );
            b.store_tensor(commits_ptr, b.select(staged, one, aged), &commit_shape)
        }),
        CheckOutstandingCommits => {
            let (a, p, bufs, commits_ptr) = (arg(0), arg(1), arg(3), arg(4));
            let commits = b.load_tensor(commits_ptr, &commit_shape, 8)?;
            let rows = rows_2d(b, eq_splat(b, bufs, a), &commit_shape)?;
            let zero = b.const_splat(ir::value_type(commits), 0);
            let ok = b.cmpi(ir::cmpi::EQ, b.select(rows, commits, zero), zero);
            Ok(vec![or_not(b, p, ok)])
        }
        ClearOutstandingCommitsTransferWrites | ClearOutstandingCommitsTransferReads => {
            guarded(b, arg(3), |b| {
                let (t, mask, outstanding, commits_ptr, vis_ptr) =
                    (arg(0), arg(1), arg(2), arg(4), arg(5));
                let commits = b.load_tensor(commits_ptr, &commit_shape, 8)?;
                let ty = ir::value_type(commits);
                let outstanding = b.v("arith.trunci", &[outstanding], b.int_type(8), &[]);
                let col = col_is(b, &commit_shape, t)?;
                // Groups older than the `outstanding` newest ones are complete.
                let done = b.binary(
                    "arith.andi",
                    b.cmpi(ir::cmpi::SGT, commits, b.splat(outstanding, ty)),
                    col,
                );
                let any = reduce(b, done, 1, b.tensor(&[n], b.int_type(1))?)?;
                if helper == ClearOutstandingCommitsTransferWrites {
                    let wv = b.load_tensor(vis_ptr, &[n], 64)?;
                    let seen = b.binary("arith.ori", wv, b.splat(mask, ir::value_type(wv)));
                    b.store_tensor(vis_ptr, b.select(any, seen, wv), &[n])?;
                } else {
                    let rv = b.load_tensor(vis_ptr, &threads, 64)?;
                    let rows = rows_2d(b, any, &threads)?;
                    let seen = b.binary("arith.ori", rv, b.splat(mask, ir::value_type(rv)));
                    b.store_tensor(vis_ptr, b.select(rows, seen, rv), &threads)?;
                }
                b.store_tensor(
                    commits_ptr,
                    b.select(done, b.const_splat(ty, 0), commits),
                    &commit_shape,
                )
            })
        }
        CopyWriteVisibility => guarded(b, arg(2), |b| {
            let (t, mask, wv_ptr) = (arg(0), arg(1), arg(3));
            let wv = b.load_tensor(wv_ptr, &[n], 64)?;
            let ty = ir::value_type(wv);
            let zero = b.const_splat(ty, 0);
            let keep = b.binary("arith.xori", mask, b.const_int(-1, 64));
            let kept = b.binary("arith.andi", wv, b.splat(keep, ty));
            let bit = b.splat(thread_bit(b, t), ty);
            let seen = b.cmpi(cmpi::NE, b.binary("arith.andi", wv, bit), zero);
            let copied = b.select(seen, b.splat(mask, ty), zero);
            b.store_tensor(wv_ptr, b.binary("arith.ori", kept, copied), &[n])
        }),
        CopyReadVisibility => guarded(b, arg(2), |b| {
            let (t, mask, rv_ptr) = (arg(0), arg(1), arg(3));
            let rv = b.load_tensor(rv_ptr, &threads, 64)?;
            let zero = b.const_splat(ir::value_type(rv), 0);
            let targets = cols_in_mask(b, &threads, mask)?;
            let cleared = b.select(targets, zero, rv);
            let col = col_is(b, &threads, t)?;
            let source = reduce_rows(b, b.select(col, rv, zero), b.tensor(&[n], b.int_type(64))?)?;
            let source = rows_2d(b, source, &threads)?;
            let copied = b.select(targets, source, zero);
            b.store_tensor(rv_ptr, b.binary("arith.ori", cleared, copied), &threads)
        }),
    }
}

/// `values == splat(value)`.
fn eq_splat(b: &B, values: MlirValue, value: MlirValue) -> MlirValue {
    let splat = b.splat(value, ir::value_type(values));
    b.cmpi(ir::cmpi::EQ, values, splat)
}

/// `1 << t` as i64.
fn thread_bit(b: &B, t: MlirValue) -> MlirValue {
    let t = b.v("arith.extui", &[t], b.int_type(64), &[]);
    b.binary("arith.shli", b.const_int(1, 64), t)
}

/// `(x >> shift) & 0xff`.
fn field(b: &B, x: MlirValue, shift: i64) -> MlirValue {
    let ty = ir::value_type(x);
    let shifted = b.binary("arith.shrui", x, b.const_splat(ty, shift));
    b.binary("arith.andi", shifted, b.const_splat(ty, 0xff))
}

/// `select(p, ok, true)`: a check that passes where the op does not run.
fn or_not(b: &B, p: MlirValue, ok: MlirValue) -> MlirValue {
    let ty = ir::value_type(ok);
    let yes = b.const_splat(ty, 1);
    b.select(p, ok, yes)
}

/// Runs `f` under `scf.if p`.
fn guarded(
    b: &B,
    p: MlirValue,
    f: impl FnOnce(&B) -> BuildResult<()>,
) -> BuildResult<Vec<MlirValue>> {
    // SAFETY: fresh regions and a block handed to the new `scf.if`.
    let (then_region, else_region, block) = unsafe {
        let block = mlir_sys::mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
        let then_region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(then_region, block);
        (then_region, mlir_sys::mlirRegionCreate(), block)
    };
    let op = ir::create_op(
        "scf.if",
        b.loc,
        &[p],
        &[],
        &[],
        vec![then_region, else_region],
    );
    match b.at {
        At::Before(before) => ir::insert_before(before, op),
        // SAFETY: a live block takes ownership of the detached op.
        At::End(parent) => unsafe { mlir_sys::mlirBlockAppendOwnedOperation(parent, op) },
    }
    let inner = B {
        at: At::End(block),
        ..*b
    };
    f(&inner)?;
    inner.op("scf.yield", &[], &[], &[]);
    Ok(Vec::new())
}

/// The rank-1 `v` (sanitizer layout) broadcast along the columns of a
/// `shape` tensor: element `[i, j]` is `v[i]`.
fn rows_2d(b: &B, v: MlirValue, shape: &[i64; 2]) -> BuildResult<MlirValue> {
    spread(b, v, shape, 1)
}

/// The rank-1 `v` broadcast along the rows: element `[i, j]` is `v[j]`.
fn cols_2d(b: &B, v: MlirValue, shape: &[i64; 2]) -> BuildResult<MlirValue> {
    spread(b, v, shape, 0)
}

/// `v` expanded at `axis` and broadcast to `shape`.
fn spread(b: &B, v: MlirValue, shape: &[i64; 2], axis: usize) -> BuildResult<MlirValue> {
    let element = element_type(ir::value_type(v));
    let sliced = b.slice_tensor(shape, axis, element)?;
    let v = b.v("ttg.convert_layout", &[v], sliced, &[]);
    expand(b, v, shape, axis, element)
}

fn expand(
    b: &B,
    v: MlirValue,
    shape: &[i64; 2],
    axis: usize,
    element: MlirType,
) -> BuildResult<MlirValue> {
    let mut expanded_shape = shape.to_vec();
    expanded_shape[axis] = 1;
    let full = b.tensor(shape, element)?;
    // SAFETY: `full` is a live ranked tensor type.
    let encoding = unsafe { mlir_sys::mlirRankedTensorTypeGetEncoding(full) };
    let expanded_ty = super::builder::ranked(&expanded_shape, element, encoding);
    let axis_attr = ir::integer_attr(b.int_type(32), axis as i64);
    let mut out = b.v("tt.expand_dims", &[v], expanded_ty, &[("axis", axis_attr)]);
    if expanded_shape != shape {
        out = b.v("tt.broadcast", &[out], full, &[]);
    }
    Ok(out)
}

/// The `shape` tensor whose element `[i, j]` is `j == t`.
fn col_is(b: &B, shape: &[i64; 2], t: MlirValue) -> BuildResult<MlirValue> {
    let i32t = b.int_type(32);
    let cols = col_index(b, shape, i32t)?;
    let t = b.splat(t, ir::value_type(cols));
    let eq = b.cmpi(ir::cmpi::EQ, cols, t);
    expand(b, eq, shape, 0, b.int_type(1))
}

/// The `shape` tensor whose element `[i, j]` is bit `j` of `mask`.
fn cols_in_mask(b: &B, shape: &[i64; 2], mask: MlirValue) -> BuildResult<MlirValue> {
    let i64t = b.int_type(64);
    let cols = col_index(b, shape, i64t)?;
    let ty = ir::value_type(cols);
    let bits = b.binary("arith.shrui", b.splat(mask, ty), cols);
    let bits = b.binary("arith.andi", bits, b.const_splat(ty, 1));
    let set = b.cmpi(cmpi::NE, bits, b.const_splat(ty, 0));
    expand(b, set, shape, 0, b.int_type(1))
}

/// `[0, shape[1])` as `element`s, in the column slice layout of `shape`.
fn col_index(b: &B, shape: &[i64; 2], element: MlirType) -> BuildResult<MlirValue> {
    let i32t = b.int_type(32);
    let range_ty = b.slice_tensor(shape, 0, i32t)?;
    let range = b.v(
        "tt.make_range",
        &[],
        range_ty,
        &[
            ("start", ir::integer_attr(i32t, 0)),
            ("end", ir::integer_attr(i32t, shape[1])),
        ],
    );
    if ir::same_type(element, i32t) {
        return Ok(range);
    }
    let ty = b.slice_tensor(shape, 0, element)?;
    Ok(b.v("arith.extui", &[range], ty, &[]))
}

/// The `ori` reduction of the rank-2 `x` along its columns, as a rank-1
/// tensor of type `ty` (the sanitizer layout).
fn reduce_rows(b: &B, x: MlirValue, ty: MlirType) -> BuildResult<MlirValue> {
    let element = element_type(ir::value_type(x));
    let n = shape_of(ty);
    let out_ty = super::builder::ranked(&n, element, encoding_of(ty));
    reduce(b, x, 1, out_ty)
}

/// The `ori` reduction of `x` along `axis`, converted to `ty` (a scalar or
/// a rank-1 tensor in the sanitizer layout).
fn reduce(b: &B, x: MlirValue, axis: usize, ty: MlirType) -> BuildResult<MlirValue> {
    let x_ty = ir::value_type(x);
    let element = element_type(x_ty);
    let shape = shape_of(x_ty);
    let reduced_ty = if shape.len() == 1 {
        element
    } else {
        let shape2 = [shape[0], shape[1]];
        b.slice_tensor(&shape2, axis, element)?
    };
    let locs = [b.loc, b.loc];
    let types = [element, element];
    // SAFETY: a fresh block and region handed to the new `tt.reduce`.
    let (region, block) = unsafe {
        let block = mlir_sys::mlirBlockCreate(2, types.as_ptr(), locs.as_ptr());
        let region = mlir_sys::mlirRegionCreate();
        mlir_sys::mlirRegionAppendOwnedBlock(region, block);
        (region, block)
    };
    let inner = B {
        at: At::End(block),
        ..*b
    };
    let args = ir::block_args(block);
    let combined = inner.binary("arith.ori", args[0], args[1]);
    inner.op("tt.reduce.return", &[combined], &[], &[]);
    let axis_attr = ir::integer_attr(b.int_type(32), axis as i64);
    let op = ir::create_op(
        "tt.reduce",
        b.loc,
        &[x],
        &[reduced_ty],
        &[("axis", axis_attr)],
        vec![region],
    );
    match b.at {
        At::Before(before) => ir::insert_before(before, op),
        // SAFETY: a live block takes ownership of the detached op.
        At::End(parent) => unsafe { mlir_sys::mlirBlockAppendOwnedOperation(parent, op) },
    }
    let reduced = ir::result(op, 0);
    if shape.len() == 1 {
        return Ok(reduced);
    }
    Ok(b.v("ttg.convert_layout", &[reduced], ty, &[]))
}

fn element_type(ty: MlirType) -> MlirType {
    // SAFETY: a live shaped type.
    unsafe { mlir_sys::mlirShapedTypeGetElementType(ty) }
}

fn encoding_of(ty: MlirType) -> mlir_sys::MlirAttribute {
    // SAFETY: a live ranked tensor type.
    unsafe { mlir_sys::mlirRankedTensorTypeGetEncoding(ty) }
}
