//! The set bits of a few words, found word by word: a set of modules or of
//! visible items holds few of its possible members, so visiting every
//! possible member costs far more than visiting the members.

/// The positions of the set bits of `words`, lowest first (bit `b` of word
/// `w` is position `64 * w + b`).
pub(crate) fn ones<const W: usize>(words: [u64; W]) -> impl Iterator<Item = usize> {
    words.into_iter().enumerate().flat_map(|(w, word)| Ones(word).map(move |b| 64 * w + b))
}

/// The set bits of one word, lowest first.
struct Ones(u64);

impl Iterator for Ones {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1; // clears the lowest set bit
        Some(bit)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_set_bit_in_order_and_no_other() {
        let words = [1 | 1 << 63, 0, 1 << 5 | 1 << 6, u64::MAX];
        let expected: Vec<usize> = (0..256).filter(|&n| words[n / 64] & (1 << (n % 64)) != 0).collect();
        assert_eq!(ones(words).collect::<Vec<_>>(), expected);
        assert_eq!(&expected[..5], [0, 63, 133, 134, 192]);
        assert_eq!(ones([0, 0]).count(), 0);
    }
}
