//! Values kept for the life of the process, each distinct one once, so a
//! planned call (and a trace key) can hold them as `&'static`: the
//! permutations that move an axis last or reverse the axes, single axes as
//! lists, and the few run-time lists, texts and einsum equations a program
//! uses.

use std::sync::{Mutex, PoisonError};

use rxt_tf_spec::MAX_RANK;

/// Values kept once each, found by equality.
struct Kept<T: ?Sized + 'static>(Mutex<Vec<&'static T>>);

impl<T: ?Sized + PartialEq> Kept<T> {
    const fn new() -> Kept<T> {
        Kept(Mutex::new(Vec::new()))
    }

    /// The kept value equal to `value`, or `keep(value)`, kept from now on.
    fn get(&self, value: &T, keep: impl FnOnce(&T) -> &'static T) -> &'static T {
        let mut known = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = known.iter().find(|known| **known == value) {
            return found;
        }
        let kept = keep(value);
        known.push(kept);
        kept
    }
}

/// `list`, kept: the sizes of image ops and run-time axis lists.
pub(crate) fn list(list: &[i64]) -> &'static [i64] {
    static LISTS: Kept<[i64]> = Kept::new();
    LISTS.get(list, |list| Box::leak(list.to_vec().into_boxed_slice()))
}

/// `text`, kept: the pairwise equations of three-operand einsums.
pub(crate) fn text(text: &str) -> &'static str {
    static TEXTS: Kept<str> = Kept::new();
    TEXTS.get(text, |text| Box::leak(text.to_owned().into_boxed_str()))
}

/// `equation` as `tf.einsum` passes it to `Einsum` (spaces dropped, the
/// result's subscripts written out), parsed once per distinct equation; one
/// that does not parse is passed on for TensorFlow to refuse.
pub(crate) fn equation(equation: &'static str) -> &'static str {
    /// Each equation given, with what it resolves to.
    static RESOLVED: Mutex<Vec<(&'static str, &'static str)>> = Mutex::new(Vec::new());
    let mut known = RESOLVED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, resolved)) = known.iter().find(|(given, _)| *given == equation) {
        return resolved;
    }
    let operands = equation
        .split("->")
        .next()
        .map_or(1, |inputs| inputs.split(',').count());
    let resolved = match rxt_tf_spec::einsum::parse(equation, operands) {
        Ok(parsed) if parsed.resolved != equation => text(&parsed.resolved),
        _ => equation,
    };
    known.push((equation, resolved));
    resolved
}

/// Every permutation `swapped` and `reversed` return, by rank.
static PERMS: [[[i64; MAX_RANK as usize]; MAX_RANK as usize + 1]; MAX_RANK as usize + 1] = perms();

/// `[rank][axis]`: axis `axis` and the last swapped; `[rank][rank]`: the
/// axes reversed.
const fn perms() -> [[[i64; MAX_RANK as usize]; MAX_RANK as usize + 1]; MAX_RANK as usize + 1] {
    let mut out = [[[0_i64; MAX_RANK as usize]; MAX_RANK as usize + 1]; MAX_RANK as usize + 1];
    let mut rank = 0;
    while rank <= MAX_RANK as usize {
        let mut axis = 0;
        while axis <= rank {
            let mut index = 0;
            while index < rank {
                out[rank][axis][index] = if axis == rank {
                    (rank - 1 - index) as i64
                } else if index == axis {
                    (rank - 1) as i64
                } else if index == rank - 1 {
                    axis as i64
                } else {
                    index as i64
                };
                index += 1;
            }
            axis += 1;
        }
        rank += 1;
    }
    out
}

/// The permutation of `rank` axes swapping `axis` and the last (its own
/// inverse).
pub(crate) fn swapped(rank: u8, axis: usize) -> &'static [i64] {
    let rank = usize::from(rank);
    PERMS
        .get(rank)
        .and_then(|by_axis| by_axis.get(axis))
        .map_or(&[], |perm| &perm[..rank])
}

/// The permutation reversing `rank` axes.
pub(crate) fn reversed(rank: u8) -> &'static [i64] {
    swapped(rank, usize::from(rank))
}

/// `axis` as a list of one (as list attributes and rank-1 axis inputs take
/// a single axis), or `None` past the ranks.
pub(crate) fn single_axis(axis: i64) -> Option<&'static [i64]> {
    /// Every single axis, as a list of one.
    static SINGLES: [[i64; 1]; 2 * MAX_RANK as usize + 1] = {
        let mut all = [[0_i64]; 2 * MAX_RANK as usize + 1];
        let mut index = 0;
        while index < all.len() {
            all[index] = [index as i64 - MAX_RANK as i64];
            index += 1;
        }
        all
    };
    usize::try_from(axis + i64::from(MAX_RANK))
        .ok()
        .and_then(|index| SINGLES.get(index))
        .map(|single| single.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations() {
        assert_eq!(swapped(2, 0), &[1, 0]);
        assert_eq!(swapped(4, 1), &[0, 3, 2, 1]);
        assert_eq!(reversed(3), &[2, 1, 0]);
        assert_eq!(reversed(0), &[] as &[i64]);
    }
}
