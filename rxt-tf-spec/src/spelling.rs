//! How a `tf!` spelling chooses its row: the ways of writing an op that
//! `tf.*` allows and that the table keeps as rows of their own (an einsum
//! of one or three operands, `split` with sizes, a mirror `pad`), as data
//! the macro reads instead of knowing op names.

use crate::model::Op;

/// One way of writing the op a [`SPELLINGS`] entry names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// The first positional argument is this keyword, as the Python
    /// function takes it (`einsum("ij,jk->ik", a, b)`: the `equation`).
    LeadingKeyword(&'static str),
    /// The row by the number of operands written (`(count, row)`):
    /// `einsum` of one, two or three tensors.
    ByArity(&'static [(usize, &'static str)]),
    /// A bracketed list at this operand position is the row `row`
    /// (`split(x, [2, -1])` is `split_v`, TensorFlow's `SplitV`).
    ListOperand {
        /// The operand's position (from 0).
        position: usize,
        /// The row then.
        row: &'static str,
    },
    /// A string value of `keyword`: one of `moves` is the row `row`, one
    /// of `stays` the op itself, anything else an error naming both
    /// (`pad(x, p, mode = "REFLECT")` is `mirror_pad`, `MirrorPad`).
    KeywordValue {
        /// The keyword.
        keyword: &'static str,
        /// The values that keep the op's own row.
        stays: &'static [&'static str],
        /// The values that choose `row`.
        moves: &'static [&'static str],
        /// The row they choose.
        row: &'static str,
    },
}

/// Every spelling, by the op name written.
pub const SPELLINGS: &[(&str, Spelling)] = &[
    ("einsum", Spelling::LeadingKeyword("equation")),
    (
        "einsum",
        Spelling::ByArity(&[(1, "einsum_one"), (2, "einsum"), (3, "einsum_three")]),
    ),
    (
        "split",
        Spelling::ListOperand {
            position: 1,
            row: "split_v",
        },
    ),
    (
        "pad",
        Spelling::KeywordValue {
            keyword: "mode",
            stays: &["CONSTANT"],
            moves: &["REFLECT", "SYMMETRIC"],
            row: "mirror_pad",
        },
    ),
];

/// The spellings of the op written `name`, in the order they apply.
pub fn spellings(name: &str) -> impl Iterator<Item = &'static Spelling> + '_ {
    SPELLINGS
        .iter()
        .filter(move |(op, _)| *op == name)
        .map(|(_, spelling)| spelling)
}

/// The keyword written first, by position, for the op written `name`.
pub fn leading_keyword(name: &str) -> Option<&'static str> {
    spellings(name).find_map(|spelling| match spelling {
        Spelling::LeadingKeyword(keyword) => Some(*keyword),
        _ => None,
    })
}

/// For an op written `name` whose row depends on its operand count: the
/// row for `operands` operands (`Err` with the counts it takes if none);
/// `None` if the count does not choose its row.
pub fn by_arity(name: &str, operands: usize) -> Option<Result<&'static Op, (usize, usize)>> {
    spellings(name).find_map(|spelling| match spelling {
        Spelling::ByArity(rows) => {
            let row = rows
                .iter()
                .find(|(count, _)| *count == operands)
                .and_then(|(_, row)| crate::lookup(row));
            let least = rows.iter().map(|(count, _)| *count).min().unwrap_or(0);
            let most = rows.iter().map(|(count, _)| *count).max().unwrap_or(0);
            Some(row.ok_or((least, most)))
        }
        _ => None,
    })
}

/// The row of the op written `name` when operand `position` is written as
/// a bracketed list, if that chooses another.
pub fn by_list_operand(name: &str, position: usize) -> Option<&'static Op> {
    spellings(name).find_map(|spelling| match spelling {
        Spelling::ListOperand { position: at, row } if *at == position => crate::lookup(row),
        _ => None,
    })
}

/// What a keyword's string value does to the op written `name`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeywordChoice {
    /// The value chooses no other row (or the keyword chooses none).
    Stays,
    /// The value chooses this row.
    Row(&'static Op),
    /// The value is none the spelling knows; these are (stays, moves).
    Unknown(&'static [&'static str], &'static [&'static str]),
}

/// The keyword whose string value may choose another row for the op
/// written `name`.
pub fn choosing_keyword(name: &str) -> Option<&'static str> {
    spellings(name).find_map(|spelling| match spelling {
        Spelling::KeywordValue { keyword, .. } => Some(*keyword),
        _ => None,
    })
}

/// What `keyword = value` (a string) does to the op written `name`.
pub fn by_keyword_value(name: &str, keyword: &str, value: &str) -> KeywordChoice {
    let choice = spellings(name).find_map(|spelling| match spelling {
        Spelling::KeywordValue {
            keyword: chooser,
            stays,
            moves,
            row,
        } if *chooser == keyword => Some(if stays.contains(&value) {
            KeywordChoice::Stays
        } else if moves.contains(&value) {
            crate::lookup(row).map_or(KeywordChoice::Stays, KeywordChoice::Row)
        } else {
            KeywordChoice::Unknown(stays, moves)
        }),
        _ => None,
    });
    choice.unwrap_or(KeywordChoice::Stays)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Rule, ValueKind};

    #[test]
    fn every_spelling_names_rows_that_fit_it() {
        for (name, spelling) in SPELLINGS {
            let op = crate::lookup(name).expect("a spelling of a row");
            match spelling {
                Spelling::LeadingKeyword(keyword) => {
                    assert!(op.keyword(keyword).is_some(), "{name}.{keyword}");
                }
                Spelling::ByArity(rows) => {
                    for (count, row) in *rows {
                        let row = crate::lookup(row).expect("a row");
                        assert_eq!(row.arity(), *count, "{}", row.name);
                        assert!(matches!(row.rule, Rule::Einsum { .. }), "{}", row.name);
                    }
                }
                Spelling::ListOperand { position, row } => {
                    let row = crate::lookup(row).expect("a row");
                    assert!(*position < row.arity(), "{}", row.name);
                }
                Spelling::KeywordValue {
                    keyword,
                    stays,
                    moves,
                    row,
                } => {
                    let row = crate::lookup(row).expect("a row");
                    let own = op.keyword(keyword).expect("the op's keyword");
                    assert_eq!(own.kind, ValueKind::Str, "{name}.{keyword}");
                    assert!(!stays.is_empty() && !moves.is_empty());
                    assert!(row.keyword(keyword).is_some(), "{}.{keyword}", row.name);
                }
            }
        }
    }

    #[test]
    fn spellings_choose_rows() {
        let name = |op: Option<Result<&Op, (usize, usize)>>| op.map(|op| op.map(|op| op.name));
        assert_eq!(name(by_arity("einsum", 1)), Some(Ok("einsum_one")));
        assert_eq!(name(by_arity("einsum", 3)), Some(Ok("einsum_three")));
        assert_eq!(name(by_arity("einsum", 4)), Some(Err((1, 3))));
        assert_eq!(name(by_arity("split", 2)), None);
        assert_eq!(leading_keyword("einsum"), Some("equation"));
        assert_eq!(
            by_list_operand("split", 1).map(|op| op.name),
            Some("split_v")
        );
        assert_eq!(by_list_operand("split", 0), None);
        assert_eq!(choosing_keyword("pad"), Some("mode"));
        assert!(matches!(
            by_keyword_value("pad", "mode", "SYMMETRIC"),
            KeywordChoice::Row(op) if op.name == "mirror_pad"
        ));
        assert_eq!(
            by_keyword_value("pad", "mode", "CONSTANT"),
            KeywordChoice::Stays
        );
        assert!(matches!(
            by_keyword_value("pad", "mode", "WRAP"),
            KeywordChoice::Unknown(..)
        ));
    }
}
