//! The corpus cases, as /work/shared/corpus/gen.py defines them: shapes,
//! grids, launch arguments (constexprs are baked into the kernels), input
//! distributions, and the error metric against a CPU reference.
//!
//! A case is data: the buffers' initial contents, the launch parameters
//! (buffer indices and `i32`s), the grid, the buffers gen.py's `run()` resets
//! before every launch, and an error function over the buffers after the
//! launch (inputs included, so it needs no other state).

use crate::rng::Rng;

/// Host contents of one buffer.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    F32(Vec<f32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    /// f16 values as their bits.
    F16(Vec<u16>),
}

impl Data {
    fn f32(&self) -> Option<&[f32]> {
        match self {
            Data::F32(v) => Some(v),
            _ => None,
        }
    }
    fn i64(&self) -> Option<&[i64]> {
        match self {
            Data::I64(v) => Some(v),
            _ => None,
        }
    }
    fn u8(&self) -> Option<&[u8]> {
        match self {
            Data::U8(v) => Some(v),
            _ => None,
        }
    }
    fn f16(&self) -> Option<&[u16]> {
        match self {
            Data::F16(v) => Some(v),
            _ => None,
        }
    }
}

/// The f16 nearest to `x` (ties to even), as bits; beyond f16's range,
/// infinity.
pub fn f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let magnitude = x.abs();
    if magnitude.is_nan() {
        return sign | 0x7e00;
    }
    if magnitude >= 65520.0 {
        return sign | 0x7c00;
    }
    if magnitude < 6.103_515_6e-5 {
        // Subnormal (or zero): a multiple of 2^-24, rounded to even.
        let units = magnitude * 16_777_216.0;
        return sign | units.round_ties_even() as u16;
    }
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = bits & 0x7f_ffff;
    // Keep 10 of the 23 mantissa bits, rounding the 13 dropped ones to even.
    let kept = mantissa >> 13;
    let dropped = mantissa & 0x1fff;
    let round_up = dropped > 0x1000 || (dropped == 0x1000 && kept & 1 == 1);
    // A carry out of the mantissa moves into the exponent, as it should.
    sign | (((exponent as u32) << 10) + kept + u32::from(round_up)) as u16
}

/// The f32 value of the f16 `bits`.
pub fn f16_value(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1f);
    let mantissa = f32::from(bits & 0x3ff);
    sign * match exponent {
        0 => mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

/// One launch parameter.
#[derive(Clone, Copy, Debug)]
pub enum Param {
    /// The buffer with this index.
    Buf(usize),
    I32(i32),
}

/// Everything one launch of a case needs.
pub struct Setup {
    pub buffers: Vec<Data>,
    pub params: Vec<Param>,
    pub grid: (u32, u32, u32),
    /// `(buffer, value)`: filled before every launch, inside the timed
    /// region like gen.py's `run()` (dW/dB zeroed, the max set to -inf).
    pub resets: Vec<(usize, f32)>,
}

/// How a case's error is judged against Triton's (corpus result.json).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The result must equal the reference: the case moves data, does
    /// integer arithmetic, takes a maximum (exact and order-free), or does
    /// one correctly rounded f32 add per element, which the CPU
    /// reproduces bit for bit.
    Exact,
    /// An absolute error no larger than Triton's: rgb2grey truncates an f32
    /// weighted sum to u8; contracting it to FMAs (Triton does) or not
    /// moves values at integer boundaries by 1, so only Triton's own bound
    /// is meaningful.
    AtMostTriton,
    /// A relative error: pass when `err <= max(10 * triton_err, 1e-6)`;
    /// reduction order and exp/div approximations differ from Triton's, so
    /// the bound leaves an order of magnitude of slack.
    Relative,
}

impl Bound {
    /// Whether `err` passes given Triton's error.
    pub fn passes(self, err: f64, triton_err: f64) -> bool {
        match self {
            Bound::Exact => err == 0.0,
            Bound::AtMostTriton => err <= triton_err,
            Bound::Relative => err <= (10.0 * triton_err).max(1e-6),
        }
    }
}

/// One corpus kernel.
pub struct Case {
    pub name: &'static str,
    pub bound: Bound,
    /// Whether gen.py benchmarks it.
    pub bench: bool,
    /// The launch, at correctness (`false`) or benchmark (`true`) size.
    pub setup: fn(bench: bool, rng: &mut Rng) -> Setup,
    /// gen.py's error metric over the buffers after the launch, or `None`
    /// when a buffer has an unexpected type.
    pub error: fn(&[Data], &[Param]) -> Option<f64>,
}

/// gen.py's `rel`: `|a - b| / max(|b|, 1e-30)` in the 2-norm, in f64.
fn rel(a: impl Iterator<Item = f64>, b: impl Iterator<Item = f64>) -> f64 {
    let (mut diff, mut norm) = (0.0, 0.0);
    for (x, y) in a.zip(b) {
        diff += (x - y) * (x - y);
        norm += y * y;
    }
    diff.sqrt() / norm.sqrt().max(1e-30)
}

fn wide(v: &[f32]) -> impl Iterator<Item = f64> + '_ {
    v.iter().map(|&x| x as f64)
}

fn cdiv(a: usize, b: usize) -> u32 {
    a.div_ceil(b) as u32
}

fn grid1(x: u32) -> (u32, u32, u32) {
    (x, 1, 1)
}

/// A row-major `m x k` times `k x n` f16 matmul as gen.py launches the
/// corpus matmuls: A, B and C (f16), then M, N, K and the row strides of
/// A, B and C (the unit strides are specialised into the kernels).
fn matmul_setup(rng: &mut Rng, (m, n, k): (usize, usize, usize), grid: (u32, u32, u32)) -> Setup {
    let mut random = |len| Data::F16(rng.vec(len, |r| f16_bits(r.normal())));
    let (a, b) = (random(m * k), random(k * n));
    Setup {
        buffers: vec![a, b, Data::F16(vec![0; m * n])],
        params: vec![
            Param::Buf(0),
            Param::Buf(1),
            Param::Buf(2),
            Param::I32(m as i32),
            Param::I32(n as i32),
            Param::I32(k as i32),
            Param::I32(k as i32),
            Param::I32(n as i32),
            Param::I32(n as i32),
        ],
        grid,
        resets: vec![],
    }
}

/// gen.py's matmul error: `rel(c, a.float() @ b.float())`.
fn matmul_error(b: &[Data], params: &[Param]) -> Option<f64> {
    let [Param::I32(m), Param::I32(n), Param::I32(k)] = params[3..6] else {
        return None;
    };
    let (m, n, k) = (m as usize, n as usize, k as usize);
    let value = |v: &[u16]| {
        v.iter()
            .map(|&x| f64::from(f16_value(x)))
            .collect::<Vec<_>>()
    };
    let (a, bm, c) = (value(b[0].f16()?), value(b[1].f16()?), value(b[2].f16()?));
    let mut reference = vec![0.0f64; m * n];
    for i in 0..m {
        let row = &mut reference[i * n..(i + 1) * n];
        for p in 0..k {
            let x = a[i * k + p];
            for (r, &y) in row.iter_mut().zip(&bm[p * n..(p + 1) * n]) {
                *r += x * y;
            }
        }
    }
    Some(rel(c.into_iter(), reference.into_iter()))
}

/// The corpus kernels that run here, in corpus order: the nine without a
/// dot, then the two matmuls (wgmma with 64 KiB of dynamic shared memory,
/// and mma.sync), checked at gen.py's correctness sizes only.
pub const CASES: &[Case] = &[
    Case {
        name: "vector_add",
        bound: Bound::Exact,
        bench: true,
        setup: |bench, rng| {
            let n = if bench { 1 << 26 } else { 98432 };
            Setup {
                buffers: vec![
                    Data::F32(rng.vec(n, Rng::uniform)),
                    Data::F32(rng.vec(n, Rng::uniform)),
                    Data::F32(vec![0.0; n]),
                ],
                params: vec![
                    Param::Buf(0),
                    Param::Buf(1),
                    Param::Buf(2),
                    Param::I32(n as i32),
                ],
                grid: grid1(cdiv(n, 1024)),
                resets: vec![],
            }
        },
        error: |b, _| {
            let (x, y, o) = (b[0].f32()?, b[1].f32()?, b[2].f32()?);
            Some(rel(wide(o), x.iter().zip(y).map(|(a, b)| (a + b) as f64)))
        },
    },
    Case {
        name: "add_print",
        bound: Bound::Exact,
        bench: false,
        setup: |_, _| {
            let n = 32;
            Setup {
                buffers: vec![
                    Data::I64((0..n as i64).collect()),
                    Data::I64((0..n as i64).collect()),
                    Data::I64(vec![0; n]),
                ],
                params: vec![
                    Param::Buf(0),
                    Param::Buf(1),
                    Param::Buf(2),
                    Param::I32(n as i32),
                ],
                grid: grid1(cdiv(n, 16)),
                resets: vec![],
            }
        },
        error: |b, _| {
            let (x, y, o) = (b[0].i64()?, b[1].i64()?, b[2].i64()?);
            let sum = x.iter().zip(y).map(|(a, b)| (a + b) as f64);
            Some(rel(o.iter().map(|&v| v as f64), sum))
        },
    },
    Case {
        name: "copy",
        bound: Bound::Exact,
        bench: false,
        setup: |_, rng| Setup {
            buffers: vec![
                Data::F32(rng.vec(15, Rng::uniform)),
                Data::F32(vec![0.0; 15]),
            ],
            params: vec![Param::Buf(0), Param::Buf(1), Param::I32(15)],
            grid: grid1(8),
            resets: vec![],
        },
        error: |b, _| Some(rel(wide(b[1].f32()?), wide(b[0].f32()?))),
    },
    Case {
        name: "rgb2grey",
        bound: Bound::AtMostTriton,
        bench: true,
        setup: |bench, rng| {
            let (h, w) = if bench { (4096, 4096) } else { (150, 200) };
            Setup {
                buffers: vec![
                    Data::U8(rng.vec(3 * h * w, Rng::byte)),
                    Data::U8(vec![0; h * w]),
                ],
                params: vec![
                    Param::Buf(0),
                    Param::Buf(1),
                    Param::I32(h as i32),
                    Param::I32(w as i32),
                ],
                grid: (cdiv(h, 32), cdiv(w, 32), 1),
                resets: vec![],
            }
        },
        error: |b, _| {
            let (img, out) = (b[0].u8()?, b[1].u8()?);
            let plane = out.len();
            let mut worst = 0i32;
            for (i, &got) in out.iter().enumerate() {
                // torch: each product and sum rounded to f32, then truncated.
                let [r, g, bl] = [0, 1, 2].map(|c| img[c * plane + i] as f32);
                let grey = 0.2989f32 * r + 0.5870f32 * g + 0.1140f32 * bl;
                worst = worst.max((got as i32 - grey as u8 as i32).abs());
            }
            Some(worst as f64)
        },
    },
    Case {
        name: "softmax",
        bound: Bound::Relative,
        bench: true,
        setup: |bench, rng| {
            let (r, c) = if bench { (4096, 4096) } else { (1823, 781) };
            Setup {
                buffers: vec![
                    Data::F32(rng.vec(r * c, Rng::normal)),
                    Data::F32(vec![0.0; r * c]),
                ],
                params: vec![
                    Param::Buf(0),
                    Param::Buf(1),
                    Param::I32(c as i32),
                    Param::I32(c as i32),
                    Param::I32(r as i32),
                    Param::I32(c as i32),
                ],
                grid: grid1(r.min(132 * 4) as u32),
                resets: vec![],
            }
        },
        error: |b, p| {
            let (x, y) = (b[0].f32()?, b[1].f32()?);
            let Param::I32(cols) = *p.get(5)? else {
                return None;
            };
            let mut reference = Vec::with_capacity(x.len());
            for row in x.chunks(cols as usize) {
                let max = row.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v as f64));
                let sum: f64 = row.iter().map(|&v| (v as f64 - max).exp()).sum();
                reference.extend(row.iter().map(|&v| (v as f64 - max).exp() / sum));
            }
            Some(rel(wide(y), reference.into_iter()))
        },
    },
    Case {
        name: "swizzle",
        bound: Bound::Exact,
        bench: false,
        setup: |_, _| Setup {
            buffers: vec![Data::I64((0..20).collect()), Data::I64(vec![-1; 20])],
            params: vec![Param::Buf(0), Param::Buf(1)],
            grid: (5, 4, 1),
            resets: vec![],
        },
        error: |b, _| {
            const EXPECT: [i64; 20] = [
                0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 12, 14, 16, 18, 13, 15, 17, 19,
            ];
            let z = b[1].i64()?;
            Some(z.iter().zip(EXPECT).map(|(&a, e)| (a - e).abs()).max()? as f64)
        },
    },
    Case {
        name: "layernorm_bwd",
        bound: Bound::Relative,
        bench: true,
        setup: |bench, rng| {
            let (m, n) = if bench { (4096, 8192) } else { (1151, 8192) };
            let x = rng.vec(m * n, Rng::normal);
            let dy = rng.vec(m * n, Rng::normal);
            let w = rng.vec(n, Rng::uniform);
            let (mut mean, mut rstd) = (Vec::with_capacity(m), Vec::with_capacity(m));
            for row in x.chunks(n) {
                let mu = wide(row).sum::<f64>() / n as f64;
                let var = wide(row).map(|v| (v - mu) * (v - mu)).sum::<f64>() / n as f64;
                mean.push(mu as f32);
                rstd.push((1.0 / (var + 1e-5).sqrt()) as f32);
            }
            Setup {
                buffers: vec![
                    Data::F32(vec![0.0; m * n]),
                    Data::F32(dy),
                    Data::F32(vec![0.0; n]),
                    Data::F32(vec![0.0; n]),
                    Data::F32(x),
                    Data::F32(w),
                    Data::F32(mean),
                    Data::F32(rstd),
                ],
                params: (0..8)
                    .map(Param::Buf)
                    .chain([Param::I32(n as i32), Param::I32(n as i32)])
                    .collect(),
                grid: grid1(m as u32),
                resets: vec![(2, 0.0), (3, 0.0)],
            }
        },
        error: |b, _| {
            let [dx, dy, dw, db, x, w, mean, rstd] = [0, 1, 2, 3, 4, 5, 6, 7].map(|i| b[i].f32());
            let (dx, dy, dw, db, x, w, mean, rstd) = (dx?, dy?, dw?, db?, x?, w?, mean?, rstd?);
            let n = w.len();
            let mut rdx = Vec::with_capacity(dx.len());
            let (mut rdw, mut rdb) = (vec![0.0f64; n], vec![0.0f64; n]);
            for (row, (xs, dys)) in x.chunks(n).zip(dy.chunks(n)).enumerate() {
                let (mu, rs) = (mean[row] as f64, rstd[row] as f64);
                let xhat: Vec<f64> = wide(xs).map(|v| (v - mu) * rs).collect();
                let wdy: Vec<f64> = wide(w).zip(wide(dys)).map(|(a, b)| a * b).collect();
                let c1 = xhat.iter().zip(&wdy).map(|(a, b)| a * b).sum::<f64>() / n as f64;
                let c2 = wdy.iter().sum::<f64>() / n as f64;
                rdx.extend(
                    xhat.iter()
                        .zip(&wdy)
                        .map(|(xh, wd)| (wd - (xh * c1 + c2)) * rs),
                );
                for (j, (&g, xh)) in dys.iter().zip(&xhat).enumerate() {
                    rdw[j] += g as f64 * xh;
                    rdb[j] += g as f64;
                }
            }
            let e_dx = rel(wide(dx), rdx.into_iter());
            let e_dw = rel(wide(dw), rdw.into_iter());
            let e_db = rel(wide(db), rdb.into_iter());
            Some(e_dx.max(e_dw).max(e_db))
        },
    },
    Case {
        name: "max_reduce",
        bound: Bound::Exact,
        bench: true,
        setup: |_, rng| {
            let m = 1 << 20;
            Setup {
                buffers: vec![
                    Data::F32(rng.vec(m, Rng::normal)),
                    Data::F32(vec![f32::NEG_INFINITY]),
                ],
                params: vec![Param::Buf(0), Param::Buf(1), Param::I32(m as i32)],
                grid: grid1(cdiv(m, 1024)),
                resets: vec![(1, f32::NEG_INFINITY)],
            }
        },
        error: |b, _| {
            let max = b[0].f32()?.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
            Some((b[1].f32()?[0] - max).abs() as f64)
        },
    },
    Case {
        name: "prod_reduce",
        bound: Bound::Relative,
        bench: false,
        setup: |_, rng| {
            let m = 1 << 16;
            let x = rng.vec(m, |r| 1.0f32 + (r.uniform() - 0.5) * 1e-3);
            Setup {
                buffers: vec![Data::F32(x), Data::F32(vec![0.0; m / 1024])],
                params: vec![Param::Buf(0), Param::Buf(1), Param::I32(m as i32)],
                grid: grid1((m / 1024) as u32),
                resets: vec![],
            }
        },
        error: |b, _| {
            let products = b[0].f32()?.chunks(1024).map(|c| wide(c).product::<f64>());
            Some(rel(wide(b[1].f32()?), products))
        },
    },
    Case {
        name: "matmul",
        bound: Bound::Relative,
        bench: false,
        // 128x128 tiles: cdiv(1000, 128) * cdiv(1100, 128) programs.
        setup: |_, rng| {
            matmul_setup(
                rng,
                (1000, 1100, 1200),
                grid1(cdiv(1000, 128) * cdiv(1100, 128)),
            )
        },
        error: matmul_error,
    },
    Case {
        name: "matmul_naive",
        bound: Bound::Relative,
        bench: false,
        setup: |_, rng| matmul_setup(rng, (512, 512, 512), (32, 32, 1)),
        error: matmul_error,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn case(name: &str) -> &'static Case {
        CASES.iter().find(|c| c.name == name).unwrap()
    }

    /// Runs a case's reference error on a CPU "kernel" result.
    fn error_after(name: &str, kernel: impl Fn(&mut [Data])) -> f64 {
        let c = case(name);
        let mut setup = (c.setup)(false, &mut Rng::new(7));
        kernel(&mut setup.buffers);
        (c.error)(&setup.buffers, &setup.params).unwrap()
    }

    #[test]
    fn the_metric_sees_a_correct_result_as_exact_and_a_wrong_one_as_wrong() {
        let add = |b: &mut [Data]| {
            if let [Data::F32(x), Data::F32(y), Data::F32(o)] = b {
                for i in 0..o.len() {
                    o[i] = x[i] + y[i];
                }
            }
        };
        assert_eq!(error_after("vector_add", add), 0.0);
        assert!(error_after("vector_add", |_| {}) > 0.5);
        let swizzled = |b: &mut [Data]| {
            if let [_, Data::I64(z)] = b {
                let e = [
                    0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11, 12, 14, 16, 18, 13, 15, 17, 19,
                ];
                z.copy_from_slice(&e);
            }
        };
        assert_eq!(error_after("swizzle", swizzled), 0.0);
        assert_eq!(error_after("swizzle", |_| {}), 20.0);
        assert!(error_after("prod_reduce", |_| {}) == 1.0);
    }

    #[test]
    fn bounds_follow_the_rules() {
        assert!(Bound::Exact.passes(0.0, 0.0) && !Bound::Exact.passes(1e-9, 0.0));
        assert!(Bound::AtMostTriton.passes(1.0, 1.0) && !Bound::AtMostTriton.passes(2.0, 1.0));
        assert!(Bound::Relative.passes(9e-7, 9e-8) && !Bound::Relative.passes(1.1e-6, 9e-8));
        assert!(Bound::Relative.passes(6e-6, 6.3e-7));
    }

    #[test]
    fn every_case_matches_its_kernel_launch_shape() {
        for c in CASES {
            let setup = (c.setup)(false, &mut Rng::new(1));
            for p in &setup.params {
                if let Param::Buf(i) = p {
                    assert!(*i < setup.buffers.len(), "{}", c.name);
                }
            }
            assert!(setup.grid.0 > 0 && setup.grid.1 > 0 && setup.grid.2 > 0);
        }
        assert_eq!(CASES.len(), 11);
        assert_eq!(CASES.iter().filter(|c| c.bench).count(), 5);
    }

    #[test]
    fn f16_conversion_rounds_to_nearest_even() {
        for x in [0.0f32, 1.0, -2.5, 0.1, 65504.0, 6.1e-5, 3.0e-7, -1e-8] {
            let back = f16_value(f16_bits(x));
            let ulp = if x.abs() < 6.103_515_6e-5 {
                2f32.powi(-24)
            } else {
                x.abs() * 2f32.powi(-10)
            };
            assert!(
                (back - x).abs() <= ulp / 2.0 + f32::EPSILON * x.abs(),
                "{x} -> {back}"
            );
        }
        assert_eq!(f16_bits(1.0), 0x3c00);
        assert_eq!(f16_bits(-2.0), 0xc000);
        assert_eq!(f16_bits(1.0 + 2f32.powi(-11)), 0x3c00); // a tie: to even
        assert_eq!(f16_bits(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
        assert_eq!(f16_bits(1e6), 0x7c00);
        assert_eq!(f16_value(0x7bff), 65504.0);
    }

    #[test]
    fn the_matmul_metric_sees_a_correct_product_as_exact() {
        let c = case("matmul_naive");
        let mut setup = (c.setup)(false, &mut Rng::new(3));
        let wrong = (c.error)(&setup.buffers, &setup.params).unwrap();
        assert!(wrong > 0.99, "{wrong}");
        let n = 512;
        let (a, b) = (
            setup.buffers[0].f16().unwrap().to_vec(),
            setup.buffers[1].f16().unwrap().to_vec(),
        );
        let product: Vec<u16> = (0..n * n)
            .map(|ij| {
                let (i, j) = (ij / n, ij % n);
                let sum: f64 = (0..n)
                    .map(|p| {
                        f64::from(f16_value(a[i * n + p])) * f64::from(f16_value(b[p * n + j]))
                    })
                    .sum();
                f16_bits(sum as f32)
            })
            .collect();
        setup.buffers[2] = Data::F16(product);
        let rounded = (c.error)(&setup.buffers, &setup.params).unwrap();
        assert!(rounded < 1e-3, "{rounded}");
    }
}
