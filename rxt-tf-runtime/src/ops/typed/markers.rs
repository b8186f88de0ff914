//! The typed values of keywords `tf!` checks at compile time: flags, axes,
//! counts, permutations, einsum equations and `tensordot` axes, as types.

/// A boolean typed-keyword value.
pub struct Flag<const VALUE: bool>;

/// The typed value of an `axis` keyword: `N` axes, and in `FITS` bit
/// `r − 1` set when they fit a tensor of rank `r` (in range, none twice).
pub struct Axes<const N: usize, const FITS: u8>;

/// Axes given at run time (the plain functions of [`crate::ops`]): checked
/// against the operand's rank when the op runs.
pub type RuntimeAxes<const N: usize> = Axes<N, { u8::MAX }>;

/// A count typed keyword's value (`batch_dims = N`).
pub struct Count<const N: usize>;

/// A `perm` of `N` entries (a permutation, checked by `tf!`).
pub struct Perm<const N: usize>;

/// `perm` omitted: the axes reversed.
pub struct Reversed;

/// The typed value of an einsum `equation`: the ranks its subscripts give
/// the result (`OUT`) and the operands (`A`, `B`, `C`; 0 past the last).
pub struct Equation<const OUT: usize, const A: usize, const B: usize, const C: usize>;

/// The typed value of `tensordot`'s `axes`: `N` axes of each operand, and
/// in `FITS_A` / `FITS_B` bit `r` set when the first's / the second's axes
/// fit a tensor of rank `r` (0 to 5; in range, none twice). A count fits
/// every rank that has as many axes, which the result's rank checks.
pub struct Contracted<const N: usize, const FITS_A: u8, const FITS_B: u8>;

/// `tensordot`'s `axes` given at run time (the plain function): a count,
/// checked when the op runs against the operands' ranks and the result's
/// rank `OUT`.
pub struct ContractedTo<const OUT: usize>;

/// The typed value of an einsum `equation` with `...`: the letters of the
/// result (`OUT`) and of each operand (`A`, `B`, `C`; 0 past the last), and
/// whether each operand has `...` (the result then has it too).
pub struct Subscripts<
    const OUT: usize,
    const A: usize,
    const B: usize,
    const C: usize,
    const ELLIPSIS_A: bool,
    const ELLIPSIS_B: bool,
    const ELLIPSIS_C: bool,
>;
