//! Drawing einsum equations and operands whose shapes fit them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, PoisonError};

use rxt_tf::__private::DType;

use crate::cases::{Keywords, Operand};
use crate::common::Rng;
use crate::draw::{broadcast_from, broadcast_pair, dim, input, misalign, shape};
use crate::operands::shuffle;

/// The subscripts of an einsum operand or result, as drawn: the letters,
/// and where `...` stands among them (before the letter of that index).
#[derive(Clone, Debug)]
pub(crate) struct Subscripts {
    pub(crate) letters: Vec<char>,
    pub(crate) ellipsis: Option<usize>,
}

impl Subscripts {
    /// The subscripts written `text` (`"ij"`, `"...ij"`, `"i...j"`).
    pub(crate) fn parse(text: &str) -> Subscripts {
        match text.split_once("...") {
            Some((before, after)) => Subscripts {
                letters: before.chars().chain(after.chars()).collect(),
                ellipsis: Some(before.len()),
            },
            None => Subscripts {
                letters: text.chars().collect(),
                ellipsis: None,
            },
        }
    }

    pub(crate) fn text(&self) -> String {
        let mut text: String = self.letters.iter().collect();
        if let Some(at) = self.ellipsis {
            text.insert_str(at, "...");
        }
        text
    }
}

/// An einsum equation as drawn: each operand's subscripts and the number
/// of axes its `...` stands for, and the result's subscripts (`None`:
/// implicit, no `->`).
#[derive(Clone, Debug)]
pub(crate) struct EinsumForm {
    pub(crate) operands: Vec<Subscripts>,
    pub(crate) broadcast: Vec<usize>,
    pub(crate) result: Option<Subscripts>,
}

impl EinsumForm {
    /// The result's subscripts; without `->`, as `tf.einsum` makes them:
    /// the letters appearing once in all the operands, sorted (upper case
    /// first), after `...` where one operand has it.
    pub(crate) fn result(&self) -> Subscripts {
        if let Some(result) = &self.result {
            return result.clone();
        }
        let all: Vec<char> = self
            .operands
            .iter()
            .flat_map(|s| s.letters.clone())
            .collect();
        let mut once: Vec<char> = all
            .iter()
            .copied()
            .filter(|c| all.iter().filter(|d| *d == c).count() == 1)
            .collect();
        once.sort_unstable();
        let ellipses = self
            .operands
            .iter()
            .filter(|s| s.ellipsis.is_some())
            .count();
        Subscripts {
            letters: once,
            ellipsis: (ellipses == 1).then_some(0),
        }
    }

    /// The result's rank: its letters, and with `...` the most axes an
    /// operand's `...` stands for.
    pub(crate) fn result_rank(&self) -> usize {
        let result = self.result();
        let broadcast = self.broadcast.iter().copied().max().unwrap_or(0);
        result.letters.len()
            + if result.ellipsis.is_some() {
                broadcast
            } else {
                0
            }
    }

    /// The equation, with spaces around `,` and `->` when `spaced`
    /// (`tf.einsum` drops them).
    pub(crate) fn text(&self, spaced: bool) -> String {
        let (comma, arrow) = if spaced { (", ", " -> ") } else { (",", "->") };
        let inputs: Vec<String> = self.operands.iter().map(Subscripts::text).collect();
        let mut text = inputs.join(comma);
        if let Some(result) = &self.result {
            text.push_str(arrow);
            text.push_str(&result.text());
        }
        text
    }
}

/// The labels of random einsum equations, shuffled for each: two upper
/// case ones among them, which an implicit result sorts first; enough for
/// three operands of 4 new letters each.
pub(crate) const EINSUM_LABELS: [char; 12] =
    ['i', 'j', 'k', 'l', 'm', 'n', 'b', 'q', 'p', 'r', 'A', 'Z'];

/// Equations of common uses of two operands, drawn now and then beside
/// random ones (the axes each `...` stands for drawn).
pub(crate) const EINSUM_USES: &[&str] = &[
    "ij,jk->ik",
    "ij,jk",
    "ij,kj->ik",
    "ji,jk->ki",
    "bij,bjk->bik",
    "bqhd,bkhd->bhqk",
    "bhqk,bkhd->bqhd",
    "...ij,jk->...ik",
    "...ij,jk",
    "...ij,...jk->...ik",
    "ij,...jk->...ik",
    "b...j,...jk->b...k",
    "...i,...i->...",
    "...,...->...",
    "ij,ij->i",
    "ij,ij->",
    "ij,ij->ij",
    "bi,bi->b",
    "i,i->",
    "i,i",
    "i,j->ij",
    "i,j",
    "ij,k->ijk",
    ",ij->ij",
    ",",
    "ii,i->i",
];

/// Equations of common uses of one operand: diagonals, traces, transposes,
/// sums.
pub(crate) const EINSUM_ONE_USES: &[&str] = &[
    "ii->i",
    "ii->",
    "ii",
    "iiii->i",
    "iij->ji",
    "ij->ji",
    "ji",
    "ij->j",
    "ij->i",
    "ijk->kji",
    "ijkl->lkji",
    "bij->b",
    "i->",
    "->",
    "",
    "i...->...i",
    "...ii->...i",
    "...ij->...ji",
    "...ij->...",
    "...",
    "...->...",
];

/// Equations of common uses of three operands: chains of matmuls,
/// attention, bilinear forms, Hadamard products, outer products then
/// contractions, implicit results, `...` in one, two or all three.
pub(crate) const EINSUM_THREE_USES: &[&str] = &[
    "ij,jk,kl->il",
    "ij,jk,kl",
    "ij,jk,kl->li",
    "ij,kj,kl->il",
    "ji,jk,lk->il",
    "bij,bjk,bkl->bil",
    "bij,jk,bkl->bil",
    "bqd,bkd,bkv->bqv",
    "bhqd,bhkd,bhkv->bhqv",
    "bn,anm,bm->ba",
    "ij,ij,ij->ij",
    "ij,ij,ij->",
    "ij,ij,ij",
    "i,i,i->i",
    "i,j,ij->",
    "i,j,ij",
    "i,ij,j->",
    "i,j,k->ijk",
    "i,j,k",
    "ij,j,j->i",
    ",i,i->",
    ",,->",
    "ii,ij,j->i",
    "...ij,...jk,kl->...il",
    "...ij,...jk,...kl->...il",
    "...ij,jk,kl",
    "...ij,jk,kl->...il",
    "ij,...jk,kl->...il",
    "...i,...i,...i->...",
    "b...i,i...,...->b...",
];

/// One of the common uses of `operands` operands whose first operand fits
/// `rank`, the `...` of its other operands (if any) standing for a drawn
/// number of axes (`None`: none fits).
pub(crate) fn einsum_use(rng: &mut Rng, rank: usize, operands: usize) -> Option<EinsumForm> {
    let uses = match operands {
        1 => EINSUM_ONE_USES,
        2 => EINSUM_USES,
        _ => EINSUM_THREE_USES,
    };
    let fitting: Vec<EinsumForm> = uses
        .iter()
        .filter_map(|text| {
            let (inputs, result) = match text.split_once("->") {
                Some((inputs, result)) => (inputs, Some(Subscripts::parse(result))),
                None => (*text, None),
            };
            let operands: Vec<Subscripts> = inputs.split(',').map(Subscripts::parse).collect();
            let letters = operands[0].letters.len();
            let broadcast = match operands[0].ellipsis {
                Some(_) => rank.checked_sub(letters)?,
                None => (rank == letters).then_some(0)?,
            };
            let mut form = EinsumForm {
                broadcast: vec![broadcast; operands.len()],
                operands,
                result,
            };
            form.broadcast[1..].fill(0);
            (form.result_rank() <= usize::from(rxt_tf_spec::MAX_RANK)).then_some(form)
        })
        .collect();
    if fitting.is_empty() {
        return None;
    }
    let mut form = fitting[rng.below(fitting.len())].clone();
    // The other operands' `...`: any number of axes their letters and the
    // result's leave.
    let result = form.result().letters.len();
    for k in 1..form.operands.len() {
        if form.operands[k].ellipsis.is_some() {
            let letters = form.operands[k].letters.len().max(result);
            form.broadcast[k] = rng.within(0, 4 - letters);
        }
    }
    Some(form)
}

/// A random einsum equation of `operands` operands, the first of `rank`:
/// each operand's letters new, repeated in it (a diagonal, a trace) or,
/// after the first, shared with an earlier operand (a contraction, a
/// product); `...` in none, one, several or all, standing for 0 axes or
/// more; the result implicit now and then (not with `...` in several
/// operands), or the letters kept, in any order (a transpose, an outer
/// product), after, between or before `...`; of rank 4 at most.
pub(crate) fn random_einsum(rng: &mut Rng, rank: usize, operands: usize) -> EinsumForm {
    let mut labels = EINSUM_LABELS;
    shuffle(rng, &mut labels);
    let mut fresh = labels.into_iter();
    let ellipses: Vec<bool> = match (rng.chance(30), operands) {
        (false, _) => vec![false; operands],
        (true, 1) => vec![true],
        (true, 2) => match rng.below(4) {
            0 => vec![true, false],
            1 => vec![false, true],
            _ => vec![true, true],
        },
        // Any of the operands, at least one.
        (true, _) => {
            let mask = 1 + rng.below((1 << operands) - 1);
            (0..operands).map(|k| mask >> k & 1 == 1).collect()
        }
    };
    let mut form = EinsumForm {
        operands: Vec::new(),
        broadcast: Vec::new(),
        result: None,
    };
    for (k, &ellipsis) in ellipses.iter().enumerate() {
        let rank = if k == 0 {
            rank
        } else {
            rng.within(0, usize::from(rxt_tf_spec::MAX_RANK))
        };
        let broadcast = if ellipsis { rng.within(0, rank) } else { 0 };
        // The letters of the operands before (with repeats: a letter of
        // several of them drawn more often).
        let earlier: Vec<char> = form
            .operands
            .iter()
            .flat_map(|s| s.letters.clone())
            .collect();
        let mut letters: Vec<char> = Vec::new();
        for _ in 0..rank - broadcast {
            let letter = match rng.below(100) {
                0..=11 if !letters.is_empty() => rng.pick(&letters),
                12..=61 if !earlier.is_empty() => rng.pick(&earlier),
                _ => fresh.next().expect("a fresh label"),
            };
            letters.push(letter);
        }
        let at = ellipsis.then(|| {
            if rng.chance(70) {
                0
            } else {
                rng.within(0, letters.len())
            }
        });
        form.operands.push(Subscripts {
            letters,
            ellipsis: at,
        });
        form.broadcast.push(broadcast);
    }
    let room =
        usize::from(rxt_tf_spec::MAX_RANK) - form.broadcast.iter().copied().max().unwrap_or(0);
    // Implicit: not with `...` in several operands (the result would drop
    // it, which rxt-tf refuses before running).
    let several = ellipses.iter().filter(|e| **e).count() > 1;
    if !several && rng.chance(25) && form.result().letters.len() <= room {
        return form;
    }
    let mut letters: Vec<char> = Vec::new();
    for s in &form.operands {
        for &c in &s.letters {
            if !letters.contains(&c) {
                letters.push(c);
            }
        }
    }
    if rng.chance(70) {
        shuffle(rng, &mut letters);
    }
    let keep = if rng.chance(30) {
        letters.len()
    } else {
        rng.within(0, letters.len())
    };
    letters.truncate(keep.min(room));
    let at = ellipses.iter().any(|e| *e).then(|| {
        if rng.chance(70) {
            0
        } else {
            rng.within(0, letters.len())
        }
    });
    form.result = Some(Subscripts {
        letters,
        ellipsis: at,
    });
    form
}

/// An einsum equation of `operands` operands (a common use a fifth of the
/// time, else random) and tensors of `dtype` whose shapes fit it, the
/// first of `rank`: each letter one size 0–4 (for three operands, the
/// order `tf.einsum` contracts them in follows), the axes of `...` in
/// several operands broadcasting (equal or 1; now and then two not:
/// raises); now and then one axis of a letter that appears more than once
/// of another size (raises). Spaces around `,` and `->` now and then.
/// Three operands whose contraction in `tf.einsum`'s order would make a
/// result past rank 4 are drawn again ([`einsum_pairs_fit`]).
pub(crate) fn einsum_operands(
    rng: &mut Rng,
    dtype: DType,
    rank: usize,
    operands: usize,
) -> (Vec<Operand>, Keywords) {
    loop {
        let form = match rng.chance(20) {
            true => einsum_use(rng, rank, operands),
            false => None,
        };
        let form = form.unwrap_or_else(|| random_einsum(rng, rank, operands));
        let shapes = einsum_shapes(rng, &form);
        if operands == 3 && !einsum_pairs_fit(&form.text(false), &shapes) {
            continue;
        }
        let equation = kept_equation(form.text(rng.chance(5)));
        let operands = shapes
            .into_iter()
            .map(|shape| Operand::Tensor(input(rng, dtype, shape)))
            .collect();
        return (operands, Keywords::Equation(equation, form.result_rank()));
    }
}

/// The operands' shapes for `form`: each letter one size, the axes of
/// `...` broadcasting; now and then not (see [`einsum_operands`]).
pub(crate) fn einsum_shapes(rng: &mut Rng, form: &EinsumForm) -> Vec<Vec<usize>> {
    let mut sizes: BTreeMap<char, usize> = BTreeMap::new();
    for s in &form.operands {
        for &c in &s.letters {
            sizes.entry(c).or_insert_with(|| dim(rng));
        }
    }
    let broadcast: Vec<Vec<usize>> = match (form.operands.as_slice(), form.broadcast.as_slice()) {
        ([a, b], &[ea, eb]) if a.ellipsis.is_some() && b.ellipsis.is_some() => {
            let (a, b) = broadcast_pair(rng, ea, eb);
            vec![a, b]
        }
        // Three operands: the axes of each `...` trailing ones of one
        // shape, some of them 1; now and then two that do not broadcast.
        ([_, _, _], counts) => {
            let full = shape(rng, counts.iter().copied().max().unwrap_or(0));
            let mut axes: Vec<Vec<usize>> = counts
                .iter()
                .map(|&e| broadcast_from(rng, &full, e))
                .collect();
            let with: Vec<usize> = (0..counts.len())
                .filter(|&k| form.operands[k].ellipsis.is_some())
                .collect();
            if with.len() > 1 && rng.chance(8) {
                let i = rng.below(with.len());
                let j = (i + 1 + rng.below(with.len() - 1)) % with.len();
                let (i, j) = (with[i.min(j)], with[i.max(j)]);
                let (before, after) = axes.split_at_mut(j);
                misalign(rng, &mut before[i], &mut after[0]);
            }
            axes
        }
        (_, counts) => counts.iter().map(|&e| shape(rng, e)).collect(),
    };
    let mut shapes: Vec<Vec<usize>> = form
        .operands
        .iter()
        .zip(broadcast)
        .map(|(s, broadcast)| {
            let mut shape: Vec<usize> = s.letters.iter().map(|c| sizes[c]).collect();
            if let Some(at) = s.ellipsis {
                shape.splice(at..at, broadcast);
            }
            shape
        })
        .collect();
    if rng.chance(6) {
        // The axes of letters that appear more than once.
        let all: Vec<char> = form
            .operands
            .iter()
            .flat_map(|s| s.letters.clone())
            .collect();
        let mut axes: Vec<(usize, usize)> = Vec::new();
        for (k, s) in form.operands.iter().enumerate() {
            for (i, c) in s.letters.iter().enumerate() {
                if all.iter().filter(|d| *d == c).count() > 1 {
                    let after = s.ellipsis.is_some_and(|at| i >= at);
                    axes.push((k, if after { i + form.broadcast[k] } else { i }));
                }
            }
        }
        if !axes.is_empty() {
            let (k, axis) = axes[rng.below(axes.len())];
            shapes[k][axis] = (shapes[k][axis] + rng.within(1, 4)) % 5;
        }
    }
    shapes
}

/// Whether each pairwise contraction `tf.einsum` runs for `equation` (of
/// three operands) on operands of `shapes`, in the order it picks for
/// their sizes (`rxt_tf_spec::einsum::order`, checked against TensorFlow's
/// own path finder by `tests/einsum_order.rs`), gives a result of rank 4
/// at most. A larger one rxt-tf refuses before running it (ValueError,
/// `rxt-tf: einsum: … whose result would have more than 4 axes`), where
/// eager runs it: such cases are left out.
pub(crate) fn einsum_pairs_fit(equation: &str, shapes: &[Vec<usize>]) -> bool {
    use rxt_tf_spec::einsum::{order, parse};
    let Ok(parsed) = parse(equation, shapes.len()) else {
        return true;
    };
    let dims: Vec<Vec<i64>> = shapes
        .iter()
        .map(|shape| shape.iter().map(|&d| d as i64).collect())
        .collect();
    let views: Vec<&[i64]> = dims.iter().map(Vec::as_slice).collect();
    let contractions = order::contractions(&parsed, &views);
    let Some((_, earlier)) = contractions.split_last() else {
        return true;
    };
    // The ranks of the operands still to contract, as the runtime keeps
    // them: the pair's removed, its result's appended.
    let mut ranks: Vec<u8> = shapes.iter().map(|shape| shape.len() as u8).collect();
    earlier.iter().all(|contraction| {
        let taken: Vec<u8> = contraction
            .positions
            .iter()
            .map(|&position| ranks.remove(position))
            .collect();
        let rank = parse(&contraction.equation, taken.len())
            .ok()
            .and_then(|pair| pair.result_rank(&taken));
        rank.inspect(|&rank| ranks.push(rank)).is_some()
    })
}

/// `equation`, kept for the life of the process (the plain functions take
/// a `&'static str`), each distinct one once.
pub(crate) fn kept_equation(equation: String) -> &'static str {
    static KEPT: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = kept.get(equation.as_str()) {
        return found;
    }
    let leaked: &'static str = Box::leak(equation.into_boxed_str());
    kept.insert(leaked);
    leaked
}
