//! The instrumentation of each kind of op: which helpers it calls, with
//! which thread, mask and state, before or after the op.

use mlir_sys::MlirValue;

use super::builder::{At, B};
use super::helpers::Helper;
use super::{internal, Ctx, Mem, MemState, Sanitizer, FLAG};
use super::{TC_THREAD_OFFSET, TMA_THREAD_OFFSET};
use crate::rust_pass::{unsupported, Failure, PassResult};
use crate::ttir::loop_support::ir;
use ttg_dialect::layout::{memory_space, MemorySpace};

const OUTSTANDING_WRITES: &str = "Buffer being accessed has outstanding writes.";
const OUTSTANDING_READS: &str = "Buffer being accessed has outstanding reads";
const ARRIVE_UNDERFLOW: &str = "Barrier arrive underflow: current count would become negative";
const DEADLOCK: &str = "Deadlock detected: all active threads are waiting on mbarriers";
const PENDING: &str = "Accessing buffer with pending access. Pending access type: ";

/// The threads whose view of memory is that of `thread`: a base thread
/// with its TMA and tensor-core peers; any other thread alone.
pub fn peers(thread: i64) -> i64 {
    if thread < TMA_THREAD_OFFSET {
        (1 << thread) | (1 << (thread + TMA_THREAD_OFFSET)) | (1 << (thread + TC_THREAD_OFFSET))
    } else {
        1 << thread
    }
}

/// The commit-table column of `thread`.
fn base(thread: i64) -> i64 {
    thread % TMA_THREAD_OFFSET
}

/// The kind of outstanding accesses a commit table holds.
#[derive(Clone, Copy)]
enum Commits {
    AsyncCopy,
    Wgmma,
    TmaStore,
}

impl Commits {
    fn what(self) -> &'static str {
        match self {
            Commits::AsyncCopy => "async_copy_global_to_shared",
            Commits::Wgmma => "warpgroup_mma operand read",
            Commits::TmaStore => "async_copy_shared_to_global",
        }
    }
}

impl Sanitizer {
    /// The memory space of the buffer `desc` views and its state. A
    /// descriptor's address is resolved at run time, so it need not be
    /// traced to its allocation.
    fn mem_of(&self, c: &Ctx, desc: MlirValue) -> Result<(Mem, MemState), Failure> {
        let space = ir::memdesc(desc).and_then(|d| memory_space(d.memory_space));
        let mem = match space {
            Some(MemorySpace::Shared) => Mem::Shared,
            Some(MemorySpace::Tensor) => Mem::Tensor,
            _ => return Err(unsupported(c.op, FLAG, "this memory space")),
        };
        let state = c.aux.mems[mem.index()].ok_or_else(|| {
            unsupported(c.op, FLAG, "an access to a memory space without buffers")
        })?;
        Ok((mem, state))
    }

    fn commits(&self, c: &Ctx, kind: Commits) -> Option<MlirValue> {
        match kind {
            Commits::AsyncCopy => c.aux.async_copy_commits,
            Commits::Wgmma => c.aux.wgmma_commits,
            Commits::TmaStore => c.aux.tma_store_commits,
        }
    }

    fn assert(&self, b: &B, cond: MlirValue, message: &str) {
        let check_any = ir::integer_attr(b.int_type(1), 0);
        // SAFETY: a live context; the text is copied into the attribute.
        let msg =
            unsafe { mlir_sys::mlirStringAttrGet(b.ctx, melior::StringRef::new(message).to_raw()) };
        b.op(
            "tti.experimental_assert_in_thread",
            &[cond],
            &[],
            &[("message", msg), ("check_any", check_any)],
        );
    }

    fn pred(&self, b: &B, pred: Option<MlirValue>) -> MlirValue {
        pred.unwrap_or_else(|| b.const_int(1, 1))
    }

    /// Checks that `thread` sees the last write of `desc`.
    fn verify_write(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        msg: &str,
    ) -> PassResult {
        self.verify_visibility(c, b, desc, p, thread, msg, true)
    }

    /// Checks that `thread` sees every read of `desc`.
    fn verify_read(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        msg: &str,
    ) -> PassResult {
        self.verify_visibility(c, b, desc, p, thread, msg, false)
    }

    /// The check behind [`Self::verify_write`] (`writes`) and
    /// [`Self::verify_read`]: the helper over the buffer's visibility
    /// table, asserted where it answers.
    #[allow(clippy::too_many_arguments)]
    fn verify_visibility(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        msg: &str,
        writes: bool,
    ) -> PassResult {
        let (_, state) = self.mem_of(c, desc)?;
        let p = self.pred(b, p);
        let t = b.const_int(thread, 32);
        let a = b.memdesc_to_i64(desc);
        let dims = [state.num_buffers];
        let (helper, table) = if writes {
            (Helper::VerifyWriteVisibility, state.write_visibility)
        } else {
            (Helper::VerifyReadVisibility, state.read_visibility)
        };
        let ok = self.call(c, b, helper, &dims, &[a, p, t, state.buffers, table])?;
        if let Some(ok) = ok {
            self.assert(b, ok, msg);
        }
        Ok(())
    }

    /// Checks that no access of `kind` to `desc` is outstanding.
    fn check_commits(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        kind: Commits,
    ) -> PassResult {
        let (mem, state) = self.mem_of(c, desc)?;
        let Some(commits) = self.commits(c, kind).filter(|_| mem == Mem::Shared) else {
            return Ok(());
        };
        let a = b.memdesc_to_i64(desc);
        let p = self.pred(b, p);
        let t = b.const_int(base(thread), 32);
        let dims = [state.num_buffers];
        let ok = self.call(
            c,
            b,
            Helper::CheckOutstandingCommits,
            &dims,
            &[a, p, t, state.buffers, commits],
        )?;
        if let Some(ok) = ok {
            self.assert(b, ok, &format!("{PENDING}{}", kind.what()));
        }
        Ok(())
    }

    /// Records a read of `desc` that the threads of `mask` see.
    fn set_read(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        mask: i64,
    ) -> PassResult {
        // As in Triton 3.6: without barriers, no visibility can pass
        // between threads, so none is recorded.
        if c.aux.barriers.is_none() {
            return Ok(());
        }
        let (_, state) = self.mem_of(c, desc)?;
        let p = self.pred(b, p);
        let mask = b.const_int(mask, 64);
        let a = b.memdesc_to_i64(desc);
        let dims = [state.num_buffers];
        self.call(
            c,
            b,
            Helper::SetReadVisibility,
            &dims,
            &[a, p, mask, state.buffers, state.read_visibility],
        )?;
        Ok(())
    }

    /// Records a completed write of `desc` that the threads of `mask` see.
    fn set_write(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        mask: i64,
    ) -> PassResult {
        if c.aux.barriers.is_none() {
            return Ok(());
        }
        let (_, state) = self.mem_of(c, desc)?;
        let p = self.pred(b, p);
        let mask_v = b.const_int(mask, 64);
        let a = b.memdesc_to_i64(desc);
        let dims = [state.num_buffers];
        self.call(
            c,
            b,
            Helper::SetWriteVisibility,
            &dims,
            &[a, p, mask_v, state.buffers, state.write_visibility],
        )?;
        let k = c.aux.barriers.map(|bars| bars.num_barriers);
        if let (Some(wt), Some(k)) = (state.write_tracking, k) {
            let a = b.memdesc_to_i64(desc);
            let p = self.pred(b, Some(p));
            self.call(
                c,
                b,
                Helper::ClearWriteTracking,
                &[state.num_buffers, k],
                &[a, p, state.buffers, wt],
            )?;
        }
        let a = b.memdesc_to_i64(desc);
        self.call(
            c,
            b,
            Helper::ClearReadVisibility,
            &dims,
            &[a, p, state.buffers, state.read_visibility],
        )?;
        if let (Some(rt), Some(k)) = (state.read_tracking, k) {
            let a = b.memdesc_to_i64(desc);
            self.call(
                c,
                b,
                Helper::ClearReadTracking,
                &[state.num_buffers, k],
                &[a, p, state.buffers, rt],
            )?;
        }
        Ok(())
    }

    /// A read of `desc` by `thread` (done when the op is).
    fn read(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        operand: &str,
    ) -> PassResult {
        self.verify_readable(c, b, desc, p, thread, operand)?;
        self.set_read(c, b, desc, p, peers(thread))
    }

    /// The checks of a read of `desc` by `thread`: no write it does not
    /// see, no asynchronous copy into it outstanding.
    fn verify_readable(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        operand: &str,
    ) -> PassResult {
        self.verify_write(
            c,
            b,
            desc,
            p,
            thread,
            &with_operand(OUTSTANDING_WRITES, operand),
        )?;
        self.check_commits(c, b, desc, p, thread, Commits::AsyncCopy)
    }

    /// The checks of a write of `desc` by `thread`.
    fn verify_writable(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        operand: &str,
    ) -> PassResult {
        self.verify_readable(c, b, desc, p, thread, operand)?;
        self.verify_read(
            c,
            b,
            desc,
            p,
            thread,
            &with_operand(OUTSTANDING_READS, operand),
        )?;
        self.check_commits(c, b, desc, p, thread, Commits::Wgmma)?;
        self.check_commits(c, b, desc, p, thread, Commits::TmaStore)
    }

    /// A write of `desc` by `thread` (done when the op is).
    fn write(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        operand: &str,
    ) -> PassResult {
        self.verify_writable(c, b, desc, p, thread, operand)?;
        self.set_write(c, b, desc, p, peers(thread))
    }

    /// Stages an access of `desc` by `thread` for its next commit group.
    fn stage(
        &mut self,
        c: &Ctx,
        b: &B,
        desc: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        kind: Commits,
    ) -> PassResult {
        let (_, state) = self.mem_of(c, desc)?;
        let commits = self
            .commits(c, kind)
            .ok_or_else(|| internal(c.op, "no commit table"))?;
        let p = self.pred(b, p);
        let t = b.const_int(base(thread), 32);
        let a = b.memdesc_to_i64(desc);
        self.call(
            c,
            b,
            Helper::StageAccessForCommit,
            &[state.num_buffers],
            &[a, p, t, state.buffers, commits],
        )?;
        Ok(())
    }

    fn commit(&mut self, c: &Ctx, b: &B, thread: i64, kind: Commits) -> PassResult {
        let commits = self
            .commits(c, kind)
            .ok_or_else(|| internal(c.op, "no commit table"))?;
        let state =
            c.aux.mems[Mem::Shared.index()].ok_or_else(|| internal(c.op, "no shared buffers"))?;
        let p = self.pred(b, None);
        let t = b.const_int(base(thread), 32);
        self.call(
            c,
            b,
            Helper::CommitAccesses,
            &[state.num_buffers],
            &[t, p, commits],
        )?;
        Ok(())
    }

    /// Waits until at most `pending` groups of `kind` are outstanding.
    fn wait_commits(
        &mut self,
        c: &Ctx,
        b: &B,
        thread: i64,
        pending: i64,
        kind: Commits,
    ) -> PassResult {
        let (Some(commits), Some(state)) = (self.commits(c, kind), c.aux.mems[Mem::Shared.index()])
        else {
            return Ok(());
        };
        let t = b.const_int(base(thread), 32);
        let mask = b.const_int(peers(thread), 64);
        let n = b.const_int(pending, 32);
        let p = self.pred(b, None);
        let (helper, vis) = match kind {
            Commits::AsyncCopy => (
                Helper::ClearOutstandingCommitsTransferWrites,
                state.write_visibility,
            ),
            _ => (
                Helper::ClearOutstandingCommitsTransferReads,
                state.read_visibility,
            ),
        };
        self.call(
            c,
            b,
            helper,
            &[state.num_buffers],
            &[t, mask, n, p, commits, vis],
        )?;
        Ok(())
    }

    /// An arrival of `thread` on `barrier`: the barrier's completion will
    /// publish what `thread` sees.
    fn arrive(
        &mut self,
        c: &Ctx,
        b: &B,
        barrier: MlirValue,
        p: Option<MlirValue>,
        thread: i64,
        count: i64,
    ) -> PassResult {
        let bars = c
            .aux
            .barriers
            .ok_or_else(|| unsupported(c.op, FLAG, "barriers not allocated in the kernel"))?;
        let p = self.pred(b, p);
        for state in c.aux.mems.iter().flatten() {
            let (Some(wt), Some(rt)) = (state.write_tracking, state.read_tracking) else {
                continue;
            };
            let dims = [state.num_buffers, bars.num_barriers];
            let t = b.const_int(thread, 32);
            let bar = b.memdesc_to_i64(barrier);
            self.call(
                c,
                b,
                Helper::TrackVisibleWrites,
                &dims,
                &[bar, p, t, bars.barriers, state.write_visibility, wt],
            )?;
            let t = b.const_int(thread, 32);
            let bar = b.memdesc_to_i64(barrier);
            self.call(
                c,
                b,
                Helper::TrackVisibleReads,
                &dims,
                &[bar, p, t, bars.barriers, state.read_visibility, rt],
            )?;
        }
        let dims = [bars.num_barriers];
        let n = b.const_int(count, 32);
        let bar = b.memdesc_to_i64(barrier);
        let ok = self.call(
            c,
            b,
            Helper::VerifyBarrierArrive,
            &dims,
            &[bar, n, p, bars.barriers, bars.states],
        )?;
        if let Some(ok) = ok {
            self.assert(b, ok, ARRIVE_UNDERFLOW);
        }
        let n = b.const_int(count, 32);
        let bar = b.memdesc_to_i64(barrier);
        self.call(
            c,
            b,
            Helper::UpdateBarrierState,
            &dims,
            &[bar, n, p, bars.barriers, bars.states],
        )?;
        Ok(())
    }

    /// Instruments `c.op`, an op that touches tracked memory or orders
    /// accesses; `Ok(false)` when it is not one this pass knows.
    pub(super) fn instrument_known(&mut self, c: &Ctx) -> Result<bool, Failure> {
        let op = c.op;
        let t = c.thread;
        let name = ir::name(op);
        let before = c.builder();
        let after = || match ir::next_op(op) {
            Some(next) => Ok(B {
                at: At::Before(next),
                ..before
            }),
            None => Err(internal(op, "no op after the instrumented op")),
        };
        let operand = |i: usize| ir::operand(op, i);
        let int_attr = |n: &str| ir::attribute(op, n).and_then(ir::integer_attr_value);
        match name.as_str() {
            "ttg.local_load" => {
                self.locked(&before, c, |s, b| s.read(c, b, operand(0), None, t, ""))?
            }
            "ttng.tmem_load" => {
                self.locked(&before, c, |s, b| s.read(c, b, operand(0), None, t, ""))?
            }
            "ttg.local_store" => {
                self.locked(&before, c, |s, b| s.write(c, b, operand(1), None, t, ""))?
            }
            "ttng.tmem_store" => {
                let p = Some(operand(ir::operand_count(op) - 1));
                self.locked(&before, c, |s, b| s.write(c, b, operand(0), p, t, ""))?
            }
            "ttg.local_alloc" | "ttng.tmem_alloc" => {
                let b = after()?;
                let desc = ir::result(op, 0);
                self.locked(&b, c, |s, b| s.write(c, b, desc, None, t, ""))?
            }
            "ttg.async_copy_global_to_local" => self.locked(&before, c, |s, b| {
                let desc = operand(1);
                s.verify_writable(c, b, desc, None, t, "")?;
                s.stage(c, b, desc, None, t, Commits::AsyncCopy)
            })?,
            "ttg.async_commit_group" => {
                if c.aux.async_copy_commits.is_some() {
                    self.locked(&before, c, |s, b| s.commit(c, b, t, Commits::AsyncCopy))?
                }
            }
            "ttg.async_wait" => {
                if self.commits(c, Commits::AsyncCopy).is_some() {
                    let n = int_attr("num").unwrap_or(0);
                    self.locked(&before, c, |s, b| {
                        s.wait_commits(c, b, t, n, Commits::AsyncCopy)
                    })?
                }
            }
            "ttng.warp_group_dot" => {
                let is_async = ir::attribute(op, "isAsync").is_some_and(|a| {
                    // SAFETY: a live attribute.
                    unsafe {
                        mlir_sys::mlirAttributeIsABool(a) && mlir_sys::mlirBoolAttrGetValue(a)
                    }
                });
                // As in Triton 3.6, only an asynchronous wgmma is tracked:
                // its operand reads stay outstanding until a
                // `ttng.warp_group_dot_wait`.
                if is_async {
                    let operands: Vec<(MlirValue, &str)> = [(operand(0), "A"), (operand(1), "B")]
                        .into_iter()
                        .filter(|(v, _)| ir::memdesc(*v).is_some())
                        .collect();
                    self.locked(&before, c, |s, b| {
                        for (desc, name) in &operands {
                            s.verify_readable(c, b, *desc, None, t, name)?;
                            s.stage(c, b, *desc, None, t, Commits::Wgmma)?;
                        }
                        s.commit(c, b, t, Commits::Wgmma)
                    })?
                }
            }
            "ttng.warp_group_dot_wait" => {
                if self.commits(c, Commits::Wgmma).is_some() {
                    let n = int_attr("pendings").unwrap_or(0);
                    self.locked(&before, c, |s, b| {
                        s.wait_commits(c, b, t, n, Commits::Wgmma)
                    })?
                }
            }
            "ttng.async_tma_store_wait" => {
                if self.commits(c, Commits::TmaStore).is_some() {
                    let n = int_attr("pendings").unwrap_or(0);
                    self.locked(&before, c, |s, b| {
                        s.wait_commits(c, b, t, n, Commits::TmaStore)
                    })?
                }
            }
            "ttng.async_tma_copy_local_to_global" => {
                let desc = operand(ir::operand_count(op) - 1);
                let tma = t + TMA_THREAD_OFFSET;
                self.locked(&before, c, |s, b| {
                    s.verify_write(c, b, desc, None, tma, OUTSTANDING_WRITES)?;
                    s.check_commits(c, b, desc, None, tma, Commits::AsyncCopy)?;
                    s.stage(c, b, desc, None, tma, Commits::TmaStore)?;
                    s.commit(c, b, tma, Commits::TmaStore)
                })?
            }
            // As in Triton 3.6, a scatter's read is checked but not tracked
            // as an outstanding TMA store.
            "ttng.async_tma_scatter" => {
                let desc = operand(ir::operand_count(op) - 1);
                let tma = t + TMA_THREAD_OFFSET;
                self.locked(&before, c, |s, b| {
                    s.verify_write(c, b, desc, None, tma, OUTSTANDING_WRITES)?;
                    s.check_commits(c, b, desc, None, tma, Commits::AsyncCopy)
                })?
            }
            "ttng.async_tma_copy_global_to_local" | "ttng.async_tma_gather" => {
                let n = ir::operand_count(op);
                let (barrier, desc, p) = (operand(n - 3), operand(n - 2), Some(operand(n - 1)));
                let tma = t + TMA_THREAD_OFFSET;
                self.locked(&before, c, |s, b| {
                    s.write(c, b, desc, p, tma, "")?;
                    s.arrive(c, b, barrier, p, tma, 1)
                })?
            }
            "ttng.arrive_barrier" => {
                let count = int_attr("count").unwrap_or(1);
                let p = (ir::operand_count(op) > 1).then(|| operand(1));
                self.locked(&before, c, |s, b| s.arrive(c, b, operand(0), p, t, count))?
            }
            "ttng.wait_barrier" => self.wait_barrier(c, &before, after()?)?,
            "ttng.tc_gen5_mma" => self.tc_gen5_mma(c, &before)?,
            "ttng.tc_gen5_commit" => {
                let p = (ir::operand_count(op) > 1).then(|| operand(1));
                let tc = t + TC_THREAD_OFFSET;
                self.locked(&before, c, |s, b| s.arrive(c, b, operand(0), p, tc, 1))?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn wait_barrier(&mut self, c: &Ctx, before: &B, after: B) -> PassResult {
        let op = c.op;
        let bars = c
            .aux
            .barriers
            .ok_or_else(|| unsupported(op, FLAG, "barriers not allocated in the kernel"))?;
        let segments = ir::attribute(op, "operandSegmentSizes")
            .and_then(ir::dense_i32_array)
            .unwrap_or_default();
        let (barrier, phase) = (ir::operand(op, 0), ir::operand(op, 1));
        let p = (segments.get(2).copied().unwrap_or(0) > 0).then(|| ir::operand(op, 2));
        let t = c.thread;
        let dims = [bars.num_barriers];
        let pv = self.pred(before, p);
        before.op("tti.experimental_lock_acquire", &[c.aux.lock, pv], &[], &[]);
        let tv = before.const_int(base(t), 32);
        let bar = before.memdesc_to_i64(barrier);
        self.call(
            c,
            before,
            Helper::SetWaiting,
            &dims,
            &[bar, tv, phase, pv, bars.barriers, bars.waiting],
        )?;
        let active = before.const_int(c.active_mask, 32);
        let ok = self.call(
            c,
            before,
            Helper::CheckAllActiveWaiting,
            &dims,
            &[active, pv, bars.waiting, bars.states],
        )?;
        if let Some(ok) = ok {
            self.assert(before, ok, DEADLOCK);
        }
        before.op("tti.experimental_lock_release", &[c.aux.lock, pv], &[], &[]);
        let b = &after;
        self.locked(b, c, |s, b| {
            let pv = s.pred(b, p);
            for state in c.aux.mems.iter().flatten() {
                let (Some(wt), Some(rt)) = (state.write_tracking, state.read_tracking) else {
                    continue;
                };
                let tracking = [state.num_buffers, bars.num_barriers];
                let bar = b.memdesc_to_i64(barrier);
                let mask = b.const_int(peers(t), 64);
                s.call(
                    c,
                    b,
                    Helper::TransferVisibleWrites,
                    &tracking,
                    &[bar, pv, mask, bars.barriers, state.write_visibility, wt],
                )?;
                let bar = b.memdesc_to_i64(barrier);
                let mask = b.const_int(peers(t), 64);
                s.call(
                    c,
                    b,
                    Helper::TransferVisibleReads,
                    &tracking,
                    &[bar, pv, mask, bars.barriers, state.read_visibility, rt],
                )?;
            }
            let bar = b.memdesc_to_i64(barrier);
            let tv = b.const_int(base(t), 32);
            s.call(
                c,
                b,
                Helper::ClearWaiting,
                &dims,
                &[bar, tv, pv, bars.barriers, bars.waiting],
            )?;
            Ok(())
        })
    }

    fn tc_gen5_mma(&mut self, c: &Ctx, before: &B) -> PassResult {
        let op = c.op;
        let segments = ir::attribute(op, "operandSegmentSizes")
            .and_then(ir::dense_i32_array)
            .unwrap_or_default();
        let [_, _, _, acc_dep, _, _, num_barriers, _] = segments[..] else {
            return Err(internal(op, "unexpected operand segments"));
        };
        let (a, b_desc, d) = (ir::operand(op, 0), ir::operand(op, 1), ir::operand(op, 2));
        let base_index = 3 + acc_dep as usize;
        let p = Some(ir::operand(op, base_index + 1));
        let barriers: Vec<(MlirValue, MlirValue)> = (0..num_barriers as usize)
            .map(|i| {
                let first = base_index + 2;
                (
                    ir::operand(op, first + i),
                    ir::operand(op, first + num_barriers as usize + i),
                )
            })
            .collect();
        let tc = c.thread + TC_THREAD_OFFSET;
        self.locked(before, c, |s, b| {
            for (desc, name) in [(a, "A"), (b_desc, "B")] {
                s.verify_write(c, b, desc, p, tc, &with_operand(OUTSTANDING_WRITES, name))?;
                s.set_read(c, b, desc, p, peers(tc))?;
            }
            s.verify_write(c, b, d, p, tc, &with_operand(OUTSTANDING_WRITES, "Acc"))?;
            s.verify_read(c, b, d, p, tc, &with_operand(OUTSTANDING_READS, "Acc"))?;
            s.set_write(c, b, d, p, peers(tc))?;
            for (barrier, bp) in &barriers {
                s.arrive(c, b, *barrier, Some(*bp), tc, 1)?;
            }
            Ok(())
        })
    }
}

/// `message`, naming the operand when there is one.
fn with_operand(message: &str, operand: &str) -> String {
    if operand.is_empty() {
        message.to_string()
    } else {
        format!("{}. Operand: {operand}", message.trim_end_matches('.'))
    }
}
