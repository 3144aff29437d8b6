//! A small seeded PRNG (SplitMix64) with the distributions gen.py draws
//! from: uniform `[0, 1)` floats (`torch.rand`), standard normals
//! (`torch.randn`, by Box-Muller) and uniform bytes (`torch.randint(0, 256)`).

/// SplitMix64: tiny, fast and good enough for test data.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, on the 2^-24 grid like `torch.rand`'s floats.
    pub fn uniform(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A standard normal value.
    pub fn normal(&mut self) -> f32 {
        let u1 = ((self.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
        let u2 = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
    }

    /// A uniform byte.
    pub fn byte(&mut self) -> u8 {
        (self.next_u64() >> 56) as u8
    }

    /// `n` values of `f`.
    pub fn vec<T>(&mut self, n: usize, mut f: impl FnMut(&mut Self) -> T) -> Vec<T> {
        (0..n).map(|_| f(self)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distributions_have_the_right_range_and_moments() {
        let mut rng = Rng::new(1);
        let u = rng.vec(100_000, Rng::uniform);
        assert!(u.iter().all(|&v| (0.0..1.0).contains(&v)));
        let mean = u.iter().map(|&v| v as f64).sum::<f64>() / u.len() as f64;
        assert!((mean - 0.5).abs() < 0.01, "{mean}");
        let n = rng.vec(100_000, Rng::normal);
        let mean = n.iter().map(|&v| v as f64).sum::<f64>() / n.len() as f64;
        let var = n.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n.len() as f64;
        assert!(
            mean.abs() < 0.02 && (var - 1.0).abs() < 0.03,
            "{mean} {var}"
        );
        let bytes = rng.vec(10_000, Rng::byte);
        assert!(bytes.contains(&0) && bytes.contains(&255));
        assert_ne!(Rng::new(1).uniform(), Rng::new(2).uniform());
    }
}
