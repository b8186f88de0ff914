//! The order `tf.einsum` contracts three or more operands in: pairwise,
//! along the path `opt_einsum`'s greedy optimizer finds for the operands'
//! sizes (`tf.einsum(..., optimize="greedy")`, its default), each pair one
//! `Einsum` on an equation written as `opt_einsum` writes it. The same
//! pairs, in the same order, on the same equations give results bitwise
//! equal to `tf.einsum`'s.

use super::Equation;

/// One pairwise contraction of the list of operands still to contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contraction {
    /// The positions of the operands it takes in that list, greatest
    /// first: they are removed in this order, and the result is appended.
    pub positions: Vec<usize>,
    /// The equation of its `Einsum`, operands in the order of `positions`
    /// (`"jk,ij->ik"`; `...` as in the whole equation).
    pub equation: String,
}

/// A set of labels: bit `n` for the `n`-th of [`LABELS`].
type Labels = u64;

/// Every label, in bit order: the letters, then `0`, which stands for
/// `...` here as it does in `tf.einsum`.
const LABELS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0";

/// The label `tf.einsum` writes for `...` while it finds the path.
const ELLIPSIS: char = '0';

fn bit(label: char) -> Labels {
    LABELS.find(label).map_or(0, |index| 1 << index)
}

fn set_of(labels: &str) -> Labels {
    labels.chars().fold(0, |set, label| set | bit(label))
}

/// The sizes of the labels, by bit.
struct Sizes([u128; LABELS.len()]);

impl Sizes {
    /// The number of elements of a tensor with `labels` (saturating: only
    /// compared, and no tensor in memory comes near).
    fn of(&self, labels: Labels) -> i128 {
        let mut size: u128 = 1;
        for (index, label_size) in self.0.iter().enumerate() {
            if labels & (1 << index) != 0 {
                size = size.saturating_mul(*label_size);
            }
        }
        i128::try_from(size.min(1 << 120)).unwrap_or(i128::MAX)
    }
}

/// The contractions `tf.einsum` runs for `equation` on operands of
/// `shapes`, in order (empty for fewer than three operands, which it runs
/// as one `Einsum`, or shapes that do not fit the subscripts).
pub fn contractions(equation: &Equation, shapes: &[&[i64]]) -> Vec<Contraction> {
    let resolved = equation.resolved.replace("...", &ELLIPSIS.to_string());
    let Some((inputs, output)) = resolved.split_once("->") else {
        return Vec::new();
    };
    let inputs: Vec<&str> = inputs.split(',').collect();
    if inputs.len() < 3 || inputs.len() != shapes.len() {
        return Vec::new();
    }
    let Some(sizes) = label_sizes(&inputs, shapes) else {
        return Vec::new();
    };
    let sets: Vec<Labels> = inputs.iter().map(|labels| set_of(labels)).collect();
    let path = linear_path(&greedy(&sets, set_of(output), &sizes));
    written(&inputs, output, &path)
}

/// The size of each label as `tf.einsum` gives it to `opt_einsum`: the
/// largest of its dimensions and 1 (a 0 counts as 1), `...` the product of
/// the nonzero dimensions it covers.
fn label_sizes(inputs: &[&str], shapes: &[&[i64]]) -> Option<Sizes> {
    let mut sizes = Sizes([1; LABELS.len()]);
    for (labels, shape) in inputs.iter().zip(shapes) {
        let named = labels.chars().filter(|label| *label != ELLIPSIS).count();
        let covered = shape.len().checked_sub(named)?;
        let mut dims = shape.iter();
        for label in labels.chars() {
            let size = match label {
                ELLIPSIS => dims
                    .by_ref()
                    .take(covered)
                    .filter(|dim| **dim != 0)
                    .fold(1_u128, |product, dim| {
                        product.saturating_mul(u128::try_from(*dim).unwrap_or(0))
                    }),
                _ => u128::try_from(*dims.next()?).ok()?,
            };
            let index = LABELS.find(label)?;
            let slot = sizes.0.get_mut(index)?;
            *slot = (*slot).max(size);
        }
        if !labels.contains(ELLIPSIS) && covered != 0 {
            return None;
        }
    }
    Some(sizes)
}

/// A pair `opt_einsum`'s greedy search may contract next: ordered by its
/// cost, then by the ids (the greater first), as its queue orders them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    cost: i128,
    later: usize,
    earlier: usize,
    first: Labels,
    second: Labels,
    result: Labels,
}

/// The state of the greedy search: the tensors left (by label set, each
/// with its id; insertion order kept), and the labels still to contract.
struct Search<'s> {
    sizes: &'s Sizes,
    output: Labels,
    remaining: Vec<(Labels, usize)>,
    /// For each label bit, the label sets left that have it.
    holders: Vec<Vec<Labels>>,
    /// Labels held by at least two, and at least three, of the tensors.
    shared_two: Labels,
    shared_three: Labels,
}

impl Search<'_> {
    fn id(&self, labels: Labels) -> Option<usize> {
        self.remaining
            .iter()
            .find(|(set, _)| *set == labels)
            .map(|(_, id)| *id)
    }

    fn take(&mut self, labels: Labels) -> Option<usize> {
        let index = self.remaining.iter().position(|(set, _)| *set == labels)?;
        Some(self.remaining.remove(index).1)
    }

    fn put(&mut self, labels: Labels, id: usize) {
        match self.remaining.iter_mut().find(|(set, _)| *set == labels) {
            Some(entry) => entry.1 = id,
            None => self.remaining.push((labels, id)),
        }
    }

    fn bits(labels: Labels) -> impl Iterator<Item = usize> {
        (0..LABELS.len()).filter(move |index| labels & (1 << index) != 0)
    }

    fn candidate(&self, first: Labels, second: Labels) -> Option<Candidate> {
        let either = first | second;
        let both = first & second;
        let one = either & !both;
        let result = (either & self.output) | (both & self.shared_three) | (one & self.shared_two);
        let cost = self.sizes.of(result) - self.sizes.of(first) - self.sizes.of(second);
        let (mut first, mut second) = (first, second);
        let (mut id1, mut id2) = (self.id(first)?, self.id(second)?);
        if id1 > id2 {
            std::mem::swap(&mut first, &mut second);
            std::mem::swap(&mut id1, &mut id2);
        }
        Some(Candidate {
            cost,
            later: id2,
            earlier: id1,
            first,
            second,
            result,
        })
    }

    /// The best pair of `first` with any of `others`.
    fn best(&self, first: Labels, others: &[Labels]) -> Option<Candidate> {
        others
            .iter()
            .filter_map(|second| self.candidate(first, *second))
            .min()
    }

    fn update_shared(&mut self, labels: Labels) {
        for index in Self::bits(labels) {
            let count = self.holders.get(index).map_or(0, Vec::len);
            let bit = 1 << index;
            match count {
                0 | 1 => {
                    self.shared_two &= !bit;
                    self.shared_three &= !bit;
                }
                2 => {
                    self.shared_two |= bit;
                    self.shared_three &= !bit;
                }
                _ => {
                    self.shared_two |= bit;
                    self.shared_three |= bit;
                }
            }
        }
    }

    fn hold(&mut self, labels: Labels, held: bool) {
        for index in Self::bits(labels & !self.output) {
            if let Some(holders) = self.holders.get_mut(index) {
                holders.retain(|set| *set != labels);
                if held {
                    holders.push(labels);
                }
            }
        }
    }
}

/// `opt_einsum`'s greedy path over the label sets `inputs`, as pairs of
/// ids: the inputs are ids `0..n`, each contraction's result the next id.
fn greedy(inputs: &[Labels], output: Labels, sizes: &Sizes) -> Vec<(usize, usize)> {
    // A label every tensor has is contracted last, as an output label.
    let output = output | inputs.iter().fold(Labels::MAX, |all, set| all & set);
    let mut next_id = inputs.len();
    let mut path = Vec::new();
    let mut search = Search {
        sizes,
        output,
        remaining: Vec::new(),
        holders: vec![Vec::new(); LABELS.len()],
        shared_two: 0,
        shared_three: 0,
    };
    // Tensors of the same labels first, elementwise.
    for (id, labels) in inputs.iter().enumerate() {
        match search.id(*labels) {
            Some(earlier) => {
                path.push((earlier, id));
                search.put(*labels, next_id);
                next_id += 1;
            }
            None => search.put(*labels, id),
        }
    }
    let sets: Vec<Labels> = search.remaining.iter().map(|(set, _)| *set).collect();
    for set in &sets {
        search.hold(*set, true);
    }
    search.update_shared(sets.iter().fold(0, |all, set| all | set) & !output);
    let mut queue = std::collections::BinaryHeap::new();
    for holders in search.holders.clone() {
        let mut holders = holders;
        holders.sort_by_key(|set| search.id(*set));
        for (index, first) in holders.iter().enumerate() {
            if let Some(best) = search.best(*first, holders.get(index + 1..).unwrap_or(&[])) {
                queue.push(std::cmp::Reverse(best));
            }
        }
    }
    while let Some(std::cmp::Reverse(chosen)) = queue.pop() {
        let (Some(id1), Some(id2)) = (search.id(chosen.first), search.id(chosen.second)) else {
            continue;
        };
        let _ = (search.take(chosen.first), search.take(chosen.second));
        search.hold(chosen.first, false);
        search.hold(chosen.second, false);
        path.push((id1, id2));
        let made = next_id;
        next_id += 1;
        let result = chosen.result;
        if let Some(same) = search.id(result) {
            path.push((same, made));
            search.put(result, next_id);
            next_id += 1;
        } else {
            search.hold(result, true);
            search.put(result, made);
        }
        search.update_shared(chosen.first | (chosen.second & !output));
        let mut others: Vec<Labels> = Vec::new();
        for index in Search::bits(result) {
            for set in search.holders.get(index).into_iter().flatten() {
                if *set != result && !others.contains(set) {
                    others.push(*set);
                }
            }
        }
        if let Some(best) = search.best(result, &others) {
            queue.push(std::cmp::Reverse(best));
        }
    }
    // What is left shares no label to contract: outer products, smallest
    // first.
    let mut left: std::collections::BinaryHeap<std::cmp::Reverse<(i128, usize, Labels)>> = search
        .remaining
        .iter()
        .map(|(set, id)| std::cmp::Reverse((sizes.of(set & output), *id, *set)))
        .collect();
    if let Some(std::cmp::Reverse((_, mut id1, mut first))) = left.pop() {
        while let Some(std::cmp::Reverse((_, id2, second))) = left.pop() {
            path.push((id1.min(id2), id1.max(id2)));
            let result = (first | second) & output;
            left.push(std::cmp::Reverse((sizes.of(result), next_id, result)));
            next_id += 1;
            if let Some(std::cmp::Reverse((_, id, set))) = left.pop() {
                (id1, first) = (id, set);
            }
        }
    }
    path
}

/// `path` with ids made positions in the shrinking list of operands
/// (`opt_einsum`'s `ssa_to_linear`), each pair ascending.
fn linear_path(path: &[(usize, usize)]) -> Vec<[usize; 2]> {
    let count = path.len() + 1;
    let mut ids: Vec<usize> = (0..count).collect();
    let mut linear = Vec::with_capacity(path.len());
    for (next, (a, b)) in (count..).zip(path) {
        let position = |id: &usize| ids.partition_point(|known| known < id);
        let mut pair = [position(a), position(b)];
        pair.sort_unstable();
        ids.remove(pair[1]);
        ids.remove(pair[0]);
        ids.push(next);
        linear.push(pair);
    }
    linear
}

/// The equations of `path`, written as `opt_einsum`'s `contract_path`
/// writes them: the operands taken greatest position first; a result's
/// labels those still needed, in the order they first appear among its
/// operands; the last result the equation's own.
fn written(inputs: &[&str], output: &str, path: &[[usize; 2]]) -> Vec<Contraction> {
    let mut list: Vec<String> = inputs.iter().map(|labels| (*labels).to_owned()).collect();
    let mut contractions = Vec::with_capacity(path.len());
    for (step, pair) in path.iter().enumerate() {
        let positions = vec![pair[1], pair[0]];
        let taken: Vec<String> = positions
            .iter()
            .filter_map(|position| match *position < list.len() {
                true => Some(list.remove(*position)),
                false => None,
            })
            .collect();
        let result = if step + 1 == path.len() {
            output.to_owned()
        } else {
            let needed = list.iter().fold(set_of(output), |all, l| all | set_of(l));
            let joined = taken.concat();
            let mut kept: Vec<char> = Vec::new();
            for label in joined.chars() {
                if needed & bit(label) != 0 && !kept.contains(&label) {
                    kept.push(label);
                }
            }
            kept.into_iter().collect()
        };
        let equation = format!("{}->{result}", taken.join(","));
        list.push(result);
        contractions.push(Contraction {
            positions,
            equation: equation.replace(ELLIPSIS, "..."),
        });
    }
    contractions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::einsum::parse;

    fn order(equation: &str, shapes: &[&[i64]]) -> Vec<(Vec<usize>, String)> {
        let parsed = parse(equation, shapes.len()).expect("an equation");
        contractions(&parsed, shapes)
            .into_iter()
            .map(|c| (c.positions, c.equation))
            .collect()
    }

    #[test]
    fn chains_contract_the_cheaper_pair_first() {
        // Paths `tf.einsum`'s own path finder gives, TF 2.21
        // (`special_math_ops._get_opt_einsum_contract_path`).
        let chain = "ij,jk,kl->il";
        assert_eq!(
            order(chain, &[&[2, 30], &[30, 30], &[30, 2]]),
            vec![
                (vec![1, 0], "jk,ij->ki".to_owned()),
                (vec![1, 0], "ki,kl->il".to_owned())
            ]
        );
        assert_eq!(
            order(chain, &[&[30, 2], &[2, 30], &[30, 30]]),
            vec![
                (vec![2, 1], "kl,jk->lj".to_owned()),
                (vec![1, 0], "lj,ij->il".to_owned())
            ]
        );
    }

    #[test]
    fn fewer_than_three_operands_are_one_einsum() {
        assert!(order("ij,jk->ik", &[&[2, 3], &[3, 4]]).is_empty());
    }
}
