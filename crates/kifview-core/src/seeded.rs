//! A small seeded generator (SplitMix64) and a draw weighted by counts: the same seed gives the
//! same draws on every machine (a match's openings walked through a book, in every shard; a
//! repertoire drill's replies).

/// SplitMix64: a 64-bit state advanced by a constant and mixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index into `weights` drawn in proportion to them (all zero: evenly); none when there
    /// are none.
    pub fn pick(&mut self, weights: &[u64]) -> Option<usize> {
        if weights.is_empty() {
            return None;
        }
        let total: u128 = weights.iter().map(|&w| u128::from(w)).sum();
        if total == 0 {
            return Some((self.next_u64() % weights.len() as u64) as usize);
        }
        let mut r = (u128::from(self.next_u64()) << 64 | u128::from(self.next_u64())) % total;
        for (i, &w) in weights.iter().enumerate() {
            if r < u128::from(w) {
                return Some(i);
            }
            r -= u128::from(w);
        }
        Some(weights.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_follow_the_weights_repeat_with_the_seed_and_never_index_out_of_range() {
        let mut counts = [0u32; 3];
        let mut a = SplitMix::new(7);
        let mut b = SplitMix::new(7);
        for _ in 0..4000 {
            let i = a.pick(&[6, 3, 1]).unwrap();
            assert_eq!(b.pick(&[6, 3, 1]), Some(i));
            counts[i] += 1;
        }
        assert!((2200..2600).contains(&counts[0]), "{counts:?}");
        assert!((1000..1400).contains(&counts[1]), "{counts:?}");
        assert!((250..550).contains(&counts[2]), "{counts:?}");
        assert_eq!(a.pick(&[]), None);
        assert!(a.pick(&[0, 0]).is_some_and(|i| i < 2), "all zero: evenly");
        assert_eq!(a.pick(&[0, 5, 0]), Some(1), "a zero weight is never drawn");
    }
}
