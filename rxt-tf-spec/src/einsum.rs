//! Einsum equations as `tf.einsum` reads them: the subscripts give each
//! operand's rank and the result's, checked by `tf!` at compile time and
//! by the runtime for the plain functions.

use crate::model::MAX_RANK;

/// An equation, resolved as `tf.einsum` resolves it before running
/// `Einsum`: spaces dropped, and without `->` the result's labels are
/// those appearing once, in alphabetical order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Equation {
    /// The equation `Einsum` runs (`"ij,jk->ik"`).
    pub resolved: String,
    /// Each operand's rank: its number of labels.
    pub operands: Vec<u8>,
    /// The result's rank.
    pub result: u8,
}

/// `equation` for `operands` operands, or why it is not one rxt-tf runs:
/// letters as labels, at most [`MAX_RANK`] per operand and in the result,
/// each result label once and found in an operand. Broadcasting with `...`
/// is not supported.
pub fn parse(equation: &str, operands: usize) -> Result<Equation, String> {
    let resolved: String = equation.chars().filter(|c| *c != ' ').collect();
    if resolved.contains("...") {
        return Err(
            "`...` (broadcasting over leading axes) is not supported; name each axis \
                    with a letter"
                .to_owned(),
        );
    }
    let (inputs, output) = match resolved.split_once("->") {
        Some((inputs, output)) => (inputs, Some(output)),
        None => (resolved.as_str(), None),
    };
    let letters = |text: &str| text.chars().all(|c| c.is_ascii_alphabetic());
    let labels: Vec<&str> = inputs.split(',').collect();
    if !labels.iter().all(|l| letters(l)) || !output.is_none_or(letters) {
        return Err(format!(
            "`{equation}` is not an einsum equation: subscripts are letters, operands are \
             separated by `,`, the result follows `->`"
        ));
    }
    if labels.len() != operands {
        return Err(format!(
            "`{equation}` has subscripts for {} operands, got {operands}",
            labels.len()
        ));
    }
    let all: String = labels.concat();
    let output = match output {
        Some(output) => output.to_owned(),
        None => {
            let mut once: Vec<char> = all
                .chars()
                .filter(|c| all.chars().filter(|d| d == c).count() == 1)
                .collect();
            once.sort_unstable();
            once.into_iter().collect()
        }
    };
    for (index, label) in output.char_indices() {
        if output[..index].contains(label) {
            return Err(format!(
                "`{equation}`: the result's subscripts name `{label}` twice"
            ));
        }
        if !all.contains(label) {
            return Err(format!(
                "`{equation}`: the result's subscript `{label}` is in no operand"
            ));
        }
    }
    let rank = |text: &str| u8::try_from(text.len()).ok().filter(|r| *r <= MAX_RANK);
    let ranks: Option<Vec<u8>> = labels.iter().map(|l| rank(l)).collect();
    let (Some(ranks), Some(result)) = (ranks, rank(&output)) else {
        return Err(format!(
            "`{equation}`: an operand or the result has more than {MAX_RANK} subscripts"
        ));
    };
    Ok(Equation {
        resolved: format!("{}->{output}", labels.join(",")),
        operands: ranks,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equations_resolve_as_tf_einsum_does() {
        let attention = parse("bqhd, bkhd -> bhqk", 2).expect("attention");
        assert_eq!(attention.resolved, "bqhd,bkhd->bhqk");
        assert_eq!((attention.operands, attention.result), (vec![4, 4], 4));
        let implicit = parse("ij,jk", 2).expect("implicit");
        assert_eq!(implicit.resolved, "ij,jk->ik");
        let trace = parse("ii", 1).expect("trace");
        assert_eq!((trace.resolved.as_str(), trace.result), ("ii->", 0));
        assert_eq!(parse("ba", 1).expect("implicit order").resolved, "ba->ab");
        assert!(parse("ij,jk->ik", 1).is_err());
        assert!(parse("ij->ii", 1).is_err());
        assert!(parse("ij->k", 1).is_err());
        assert!(parse("abcde->a", 1).is_err());
        assert!(parse("...ij->ij", 1).is_err());
        assert!(parse("i1->i", 1).is_err());
    }
}
