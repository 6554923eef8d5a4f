//! The benchmarks' and tests' random numbers: xorshift64, fast and the same on every machine
//! (a seed gives the same records everywhere). Included by `collgen.rs` and `randgen.rs`.

pub struct Rng(pub u64);
impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
