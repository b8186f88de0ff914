//! The sizes of a tensor's dimensions, known or estimated: what the work
//! estimate, the window check and the rules' output sizes read.

use rxt_tf_spec::MAX_RANK;

use crate::error::Result;
use crate::safe::handle::OwnedHandle;
use crate::safe::status::Status;

/// The sizes of a tensor's dimensions, known or estimated: what the GIL
/// policy needs to estimate the work of an op or of a fused call.
#[derive(Clone, Copy, Default)]
pub(crate) struct Sizes {
    /// Read by the work estimate's rules beside this module.
    pub(super) rank: usize,
    pub(super) sizes: [i64; MAX_RANK as usize],
    /// Whether the sizes are the tensor's own (read from it, or computed
    /// by a rule that knows them), not an estimate.
    pub(crate) exact: bool,
}

impl Sizes {
    /// The sizes of the tensor behind `handle`.
    pub(crate) fn of(handle: &OwnedHandle, status: &Status, op: &'static str) -> Result<Sizes> {
        let rank = usize::try_from(handle.rank(status, op)?).unwrap_or(0);
        let mut of = Sizes {
            rank: rank.min(MAX_RANK as usize),
            sizes: [1; MAX_RANK as usize],
            exact: true,
        };
        for index in 0..of.rank {
            of.sizes[index] = handle.dim(index as i32, status, op)?;
        }
        Ok(of)
    }

    /// The exact sizes `sizes` (at most `MAX_RANK` of them).
    pub(crate) fn exact(sizes: &[i64]) -> Sizes {
        let mut exact = Sizes {
            rank: sizes.len().min(MAX_RANK as usize),
            sizes: [1; MAX_RANK as usize],
            exact: true,
        };
        for (slot, size) in exact.sizes.iter_mut().zip(sizes) {
            *slot = *size;
        }
        exact
    }

    /// Whether `other` gives the same sizes, known alike.
    pub(crate) fn same_as(&self, other: &Sizes) -> bool {
        self.exact == other.exact
            && self.rank == other.rank
            && self.sizes[..self.rank] == other.sizes[..other.rank]
    }

    /// The size of axis `index` (1 past the rank).
    pub(crate) fn size(&self, index: usize) -> i64 {
        match index < self.rank {
            true => self.sizes[index],
            false => 1,
        }
    }

    /// The rank (at most `MAX_RANK`, as every rxt-tf tensor's).
    pub(crate) fn rank(&self) -> usize {
        self.rank
    }

    /// The number of elements.
    pub(crate) fn elements(&self) -> i64 {
        self.sizes[..self.rank]
            .iter()
            .fold(1_i64, |count, &size| count.saturating_mul(size.max(0)))
    }

    /// The size of dimension `from_end` counted from the last (0), 1
    /// beyond the rank.
    pub(crate) fn size_from_end(&self, from_end: usize) -> i64 {
        self.rank
            .checked_sub(1 + from_end)
            .map_or(1, |index| self.sizes[index])
    }
}
