//! The checks on axis lists and permutations, once for the macro (which
//! knows no rank yet: can any rank take them?) and the runtime (which
//! knows the rank: does this one?). Messages are the callers'.

use crate::model::MAX_RANK;

/// Whether `axes` (each in `-rank..rank`, none named twice once negative
/// axes are counted from the end) fit a tensor of `rank`.
pub fn axes_fit(axes: &[i64], rank: u8) -> bool {
    let rank = i64::from(rank);
    let mut seen = [false; MAX_RANK as usize];
    for &axis in axes {
        let normalized = if axis < 0 { axis + rank } else { axis };
        let Ok(index) = usize::try_from(normalized) else {
            return false;
        };
        if normalized >= rank || seen.get(index).copied().unwrap_or(true) {
            return false;
        }
        seen[index] = true;
    }
    true
}

/// The message for axes named `name` that do not fit a tensor of `rank`
/// (a number, or the runtime's `{R}`): one wording for the runtime's
/// compile-time check and the Rextio plugin's rejection.
pub fn misfit_message(name: &str, rank: &str) -> String {
    format!("`{name}` is out of range for a rank-{rank} tensor, or names an axis twice")
}

/// The ranks `axes` fit, as bits: bit `r − 1` set when they fit a tensor of
/// rank `r` (what `tf!` carries in a typed `axis`).
pub fn fits_mask(axes: &[i64]) -> u8 {
    (1..=MAX_RANK)
        .filter(|&rank| axes_fit(axes, rank))
        .fold(0, |mask, rank| mask | 1 << (rank - 1))
}

/// `axis` counted from the front of a rank-`rank` tensor (`-1` is the
/// last), if it is one of its axes.
pub fn normalized(axis: i64, rank: u8) -> Option<usize> {
    let rank = i64::from(rank);
    let normalized = if axis < 0 { axis + rank } else { axis };
    usize::try_from(normalized)
        .ok()
        .filter(|_| normalized < rank)
}

/// The first of `axes` counted from the front (0 when there is none), if
/// they all fit a rank-`rank` tensor, each axis once.
pub fn first_fitting(axes: &[i64], rank: u8) -> Option<usize> {
    if !axes_fit(axes, rank) {
        return None;
    }
    match axes.first() {
        Some(first) => normalized(*first, rank),
        None => Some(0),
    }
}

/// Whether `axis` is an axis of some rank (`-MAX_RANK..MAX_RANK`).
pub fn in_some_rank(axis: i64) -> bool {
    let max = i64::from(MAX_RANK);
    (-max..max).contains(&axis)
}

/// The first axis `axes` name twice as written (`[1, 1]`; `[1, -2]` is
/// one axis twice only at rank 3, see [`fit_some_rank`]).
pub fn repeated(axes: &[i64]) -> Option<i64> {
    axes.iter()
        .enumerate()
        .find(|(index, axis)| axes[..*index].contains(axis))
        .map(|(_, axis)| *axis)
}

/// Whether some rank takes `axes`, each axis once.
pub fn fit_some_rank(axes: &[i64]) -> bool {
    (1..=MAX_RANK).any(|rank| axes_fit(axes, rank))
}

/// Whether `perm` is a permutation of `0..rank` (each axis once).
pub fn is_permutation(perm: &[i64], rank: u8) -> bool {
    let mut seen = [false; MAX_RANK as usize];
    perm.len() == usize::from(rank)
        && perm.iter().all(|&axis| {
            let slot = usize::try_from(axis)
                .ok()
                .filter(|_| axis < i64::from(rank))
                .and_then(|index| seen.get_mut(index));
            match slot {
                Some(seen) if !*seen => {
                    *seen = true;
                    true
                }
                _ => false,
            }
        })
}

/// Whether `perm` is a permutation of the axes of some rank (of as many
/// axes as it has entries, at most `MAX_RANK`).
pub fn permutes_some_rank(perm: &[i64]) -> bool {
    u8::try_from(perm.len()).is_ok_and(|rank| rank <= MAX_RANK && is_permutation(perm, rank))
}

/// The axes of each of two contracted tensors, as a
/// [`ValueKind::Contraction`](crate::ValueKind::Contraction) value holds
/// them: a count `n`, or the first's axes then the second's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contraction<'a> {
    /// The last `n` axes of the first with the first `n` of the second.
    Count(usize),
    /// These axes of the first with these of the second, pairwise.
    Lists(&'a [i64], &'a [i64]),
}

impl Contraction<'static> {
    /// Reads a count (`n ≥ 0`) or a list of even length (its halves).
    pub fn of(value: &crate::Value) -> Option<Contraction<'static>> {
        match value {
            crate::Value::Int(count) => usize::try_from(*count).ok().map(Contraction::Count),
            crate::Value::Ints(axes) if axes.len() % 2 == 0 => {
                let (first, second) = axes.split_at(axes.len() / 2);
                Some(Contraction::Lists(first, second))
            }
            _ => None,
        }
    }
}

impl Contraction<'_> {
    /// The number of axes contracted on each side.
    pub fn count(self) -> usize {
        match self {
            Contraction::Count(count) => count,
            Contraction::Lists(first, _) => first.len(),
        }
    }

    /// The axes of operand `side` (0 or 1), counted from the front, if they
    /// fit a tensor of `rank`, each once.
    pub fn axes(self, side: usize, rank: u8) -> Option<Vec<usize>> {
        match self {
            Contraction::Count(count) => {
                let rank = usize::from(rank);
                let start = if side == 0 {
                    rank.checked_sub(count)?
                } else {
                    0
                };
                (count <= rank).then(|| (start..start + count).collect())
            }
            Contraction::Lists(first, second) => {
                let axes = if side == 0 { first } else { second };
                if !axes_fit(axes, rank) {
                    return None;
                }
                axes.iter().map(|axis| normalized(*axis, rank)).collect()
            }
        }
    }

    /// The ranks operand `side`'s axes fit, as bits: bit `r` set when they
    /// fit a tensor of rank `r` (0 to `MAX_RANK`; what `tf!` carries).
    pub fn fits_mask(self, side: usize) -> u8 {
        (0..=MAX_RANK)
            .filter(|&rank| self.axes(side, rank).is_some())
            .fold(0, |mask, rank| mask | 1 << rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_by_rank() {
        assert_eq!(normalized(-1, 3), Some(2));
        assert_eq!(normalized(3, 3), None);
        assert_eq!(normalized(-4, 3), None);
        assert_eq!(normalized(-5, 5), Some(0));
        assert_eq!(first_fitting(&[-1, 0], 2), Some(1));
        assert_eq!(first_fitting(&[1, -1], 2), None, "one axis twice");
        assert_eq!(first_fitting(&[], 0), Some(0));
        assert!(in_some_rank(-5) && in_some_rank(4));
        assert!(!in_some_rank(5) && !in_some_rank(-6));
        assert_eq!(repeated(&[0, 2, 0]), Some(0));
        assert_eq!(repeated(&[1, -2]), None);
        assert!(fit_some_rank(&[1, -2]));
        assert!(
            !fit_some_rank(&[0, -5]),
            "axis 0 twice at rank 5, too few axes below"
        );
    }

    #[test]
    fn contractions() {
        let count = Contraction::of(&crate::Value::Int(1)).unwrap();
        assert_eq!(count.axes(0, 3), Some(vec![2]));
        assert_eq!(count.axes(1, 2), Some(vec![0]));
        assert_eq!(count.axes(1, 0), None);
        assert_eq!(count.fits_mask(0), 0b111110);
        let lists = Contraction::of(&crate::Value::Ints(&[-1, 0, 0, 1])).unwrap();
        assert_eq!(lists.count(), 2);
        assert_eq!(lists.axes(0, 3), Some(vec![2, 0]));
        assert_eq!(lists.axes(0, 1), None, "axis 0 twice");
        assert_eq!(lists.axes(1, 2), Some(vec![0, 1]));
        assert_eq!(lists.fits_mask(1), 0b111100);
        let none = Contraction::of(&crate::Value::Ints(&[])).unwrap();
        assert_eq!(none.fits_mask(0), 0b111111);
        assert_eq!(Contraction::of(&crate::Value::Int(-1)), None);
        assert_eq!(Contraction::of(&crate::Value::Ints(&[1])), None);
    }

    #[test]
    fn permutations() {
        assert!(is_permutation(&[1, 0, 2], 3));
        assert!(is_permutation(&[], 0));
        assert!(!is_permutation(&[1, 0], 3));
        assert!(!is_permutation(&[0, 0], 2));
        assert!(!is_permutation(&[0, 2], 2));
        assert!(!is_permutation(&[-1, 0], 2));
        assert!(permutes_some_rank(&[2, 0, 1]));
        assert!(permutes_some_rank(&[]));
        assert!(permutes_some_rank(&[0, 1, 2, 3, 4]));
        assert!(!permutes_some_rank(&[0, 1, 2, 3, 4, 5]));
        assert!(!permutes_some_rank(&[1, 2]));
    }
}
