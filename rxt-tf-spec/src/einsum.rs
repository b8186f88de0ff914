//! Einsum equations as `tf.einsum` reads them: the subscripts give each
//! operand's rank and the result's (with `...`, at least that many axes,
//! the broadcast ones), checked by `tf!` at compile time and by the
//! runtime for the plain functions.

use crate::model::MAX_RANK;

pub mod order;

/// The subscripts of one operand or of the result: how many letters, and
/// whether `...` stands for broadcast axes among them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subscripts {
    /// The number of letters.
    pub labels: u8,
    /// Whether `...` appears.
    pub ellipsis: bool,
}

impl Subscripts {
    /// The broadcast axes an operand of `rank` has under `...` (`None`: it
    /// does not fit these subscripts).
    pub fn broadcast_axes(self, rank: u8) -> Option<u8> {
        match self.ellipsis {
            true => rank.checked_sub(self.labels),
            false => (rank == self.labels).then_some(0),
        }
    }
}

/// An equation, resolved as `tf.einsum` resolves it before running
/// `Einsum`: spaces dropped, and without `->` the result's labels are
/// those appearing once, in alphabetical order (after `...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equation {
    /// The equation `Einsum` runs (`"ij,jk->ik"`).
    pub resolved: String,
    /// Each operand's subscripts.
    pub operands: Vec<Subscripts>,
    /// The result's subscripts.
    pub result: Subscripts,
}

impl Equation {
    /// The result's rank for operands of `ranks` (`None`: they do not fit
    /// the subscripts, or the result would pass [`MAX_RANK`]): its letters,
    /// and under `...` the most broadcast axes of an operand.
    pub fn result_rank(&self, ranks: &[u8]) -> Option<u8> {
        if ranks.len() != self.operands.len() {
            return None;
        }
        let mut broadcast = 0;
        for (subscripts, rank) in self.operands.iter().zip(ranks) {
            broadcast = broadcast.max(subscripts.broadcast_axes(*rank)?);
        }
        let rank = self.result.labels + if self.result.ellipsis { broadcast } else { 0 };
        (rank <= MAX_RANK && (self.result.ellipsis || broadcast == 0)).then_some(rank)
    }

    /// Each operand's rank and the result's, where there is no `...`.
    pub fn fixed_ranks(&self) -> Option<(Vec<u8>, u8)> {
        let fixed = |s: &Subscripts| (!s.ellipsis).then_some(s.labels);
        let operands: Option<Vec<u8>> = self.operands.iter().map(fixed).collect();
        Some((operands?, fixed(&self.result)?))
    }
}

/// The subscripts of `text` (letters and at most one `...`).
fn subscripts(text: &str) -> Option<Subscripts> {
    let ellipses = text.matches("...").count();
    let letters = text.replacen("...", "", 1);
    if ellipses > 1 || !letters.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    Some(Subscripts {
        labels: u8::try_from(letters.len()).ok()?,
        ellipsis: ellipses == 1,
    })
}

/// `equation` for `operands` operands, or why it is not one rxt-tf runs:
/// letters as labels and `...` at most once per operand, at most
/// [`MAX_RANK`] letters each; each result letter once and found in an
/// operand; the result keeps `...` where an operand has it.
pub fn parse(equation: &str, operands: usize) -> Result<Equation, String> {
    let resolved: String = equation.chars().filter(|c| *c != ' ').collect();
    let (inputs, output) = match resolved.split_once("->") {
        Some((inputs, output)) => (inputs, Some(output)),
        None => (resolved.as_str(), None),
    };
    let labels: Vec<&str> = inputs.split(',').collect();
    let malformed = || {
        format!(
            "`{equation}` is not an einsum equation: subscripts are letters (and `...` once \
             each), operands are separated by `,`, the result follows `->`"
        )
    };
    let parsed: Option<Vec<Subscripts>> = labels.iter().map(|l| subscripts(l)).collect();
    let parsed = parsed.ok_or_else(malformed)?;
    if labels.len() != operands {
        return Err(format!(
            "`{equation}` has subscripts for {} operands, got {operands}",
            labels.len()
        ));
    }
    let letters: String = labels.concat().replace("...", "");
    let any_ellipsis = parsed.iter().any(|s| s.ellipsis);
    let output = match output {
        Some(output) => output.to_owned(),
        None => {
            // `tf.einsum`'s: the letters appearing once, sorted; `...`
            // (its label `0` sorts first) where it appears once.
            let mut once: Vec<char> = letters
                .chars()
                .filter(|c| letters.chars().filter(|d| d == c).count() == 1)
                .collect();
            once.sort_unstable();
            let ellipsis = parsed.iter().filter(|s| s.ellipsis).count() == 1;
            let head = if ellipsis { "..." } else { "" };
            format!("{head}{}", once.into_iter().collect::<String>())
        }
    };
    let result = subscripts(&output).ok_or_else(malformed)?;
    let result_letters = output.replace("...", "");
    for (index, label) in result_letters.char_indices() {
        if result_letters[..index].contains(label) {
            return Err(format!(
                "`{equation}`: the result's subscripts name `{label}` twice"
            ));
        }
        if !letters.contains(label) {
            return Err(format!(
                "`{equation}`: the result's subscript `{label}` is in no operand"
            ));
        }
    }
    if result.ellipsis && !any_ellipsis {
        return Err(format!(
            "`{equation}`: the result has `...`, no operand has"
        ));
    }
    if any_ellipsis && !result.ellipsis {
        return Err(format!(
            "`{equation}`: an operand has `...`, so the result needs it too (its broadcast \
             axes are kept)"
        ));
    }
    let too_many = |s: &Subscripts| s.labels > MAX_RANK;
    if parsed.iter().any(too_many) || too_many(&result) {
        return Err(format!(
            "`{equation}`: an operand or the result has more than {MAX_RANK} subscripts"
        ));
    }
    Ok(Equation {
        resolved: format!("{}->{output}", labels.join(",")),
        operands: parsed,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixed(equation: &str, operands: usize) -> (String, Vec<u8>, u8) {
        let parsed = parse(equation, operands).expect("an equation");
        let (ranks, result) = parsed.fixed_ranks().expect("no ellipsis");
        (parsed.resolved, ranks, result)
    }

    #[test]
    fn equations_resolve_as_tf_einsum_does() {
        let attention = fixed("bqhd, bkhd -> bhqk", 2);
        assert_eq!(attention, ("bqhd,bkhd->bhqk".to_owned(), vec![4, 4], 4));
        assert_eq!(fixed("ij,jk", 2).0, "ij,jk->ik");
        assert_eq!(fixed("ii", 1), ("ii->".to_owned(), vec![2], 0));
        assert_eq!(fixed("ba", 1).0, "ba->ab");
        assert!(parse("ij,jk->ik", 1).is_err());
        assert!(parse("ij->ii", 1).is_err());
        assert!(parse("ij->k", 1).is_err());
        assert!(parse("abcdef->a", 1).is_err());
        assert!(parse("i1->i", 1).is_err());
        assert!(parse("......i->i", 1).is_err());
    }

    #[test]
    fn ellipses_broadcast() {
        let matmul = parse("...ij,...jk->...ik", 2).expect("batched");
        assert_eq!(matmul.result_rank(&[3, 4]), Some(4));
        assert_eq!(matmul.result_rank(&[2, 2]), Some(2));
        assert_eq!(matmul.result_rank(&[1, 2]), None);
        let implicit = parse("...ij,jk", 2).expect("implicit");
        assert_eq!(implicit.resolved, "...ij,jk->...ik");
        assert_eq!(implicit.result_rank(&[4, 2]), Some(4));
        assert!(parse("...ij,jk->ik", 2).is_err());
        assert!(parse("ij,jk->...ik", 2).is_err());
        assert_eq!(
            parse("i...j->j...i", 1).expect("inside").result_rank(&[4]),
            Some(4)
        );
    }
}
