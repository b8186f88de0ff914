//! The Rextio plugin's constraint sentences, generated from the row: the
//! operands' element types and ranks come from [`Op::dtypes`] and the rule's
//! ranks; only the rest (keywords, literals, layouts) is written by hand, in
//! [`PythonRule::detail`], which may not state a type or a rank.

use super::dtype::{DType, INDEX_DTYPES, MAX_RANK};
use super::keyword::Value;
use super::op::Op;
use super::python::PythonRule;
use super::rule::Role;
use super::wording::join_or;

impl Op {
    /// What `rule` requires, in words: the operands (count, element types,
    /// ranks) from the row, then the rule's [`PythonRule::detail`] with its
    /// placeholders (`{max_rank}`, `{default:<keyword>}`) filled in.
    pub fn constraint(&self, rule: &PythonRule) -> String {
        format!("{}{}", self.operands_sentence(), self.fill(rule.detail))
    }

    /// The operands of the row as a phrase: `two CPU tensors of one of
    /// float32, float64, bfloat16 or float16 at ranks 0–5`, `one CPU tensor of … and one CPU
    /// tensor of its element type at rank 1`.
    pub fn operands_sentence(&self) -> String {
        let mut groups: Vec<(Role, (u8, u8), usize)> = Vec::new();
        for position in 0..self.arity() {
            let role = self.rule.role(position);
            if matches!(role, Role::Dims | Role::Pairs | Role::Size) {
                continue;
            }
            let ranks = self.rule.ranks(position);
            match groups.last_mut() {
                Some((last, last_ranks, count)) if *last == role && *last_ranks == ranks => {
                    *count += 1;
                }
                _ => groups.push((role, ranks, 1)),
            }
        }
        let mut seen_element = false;
        let phrases: Vec<String> = groups
            .iter()
            .map(|&(role, ranks, count)| {
                let (count_word, plural) = count_words(count);
                let at = ranks_text(ranks);
                match role {
                    Role::Condition => format!("{count_word} bool CPU tensor{plural} {at}"),
                    Role::Indices => format!(
                        "{count_word} CPU tensor{plural} of {} indices {at}",
                        names(INDEX_DTYPES)
                    ),
                    _ if seen_element && ranks == (0, 0) => {
                        format!("{count_word} scalar{plural} of its element type")
                    }
                    _ if seen_element => {
                        format!("{count_word} CPU tensor{plural} of its element type {at}")
                    }
                    _ => {
                        seen_element = true;
                        let one_of = match count > 1 && self.dtypes.len() > 1 {
                            true => "one of ",
                            false => "",
                        };
                        format!(
                            "{count_word} CPU tensor{plural} of {one_of}{} {at}",
                            names(self.dtypes)
                        )
                    }
                }
            })
            .collect();
        match phrases.as_slice() {
            [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
            _ => phrases.concat(),
        }
    }

    /// `detail` with its placeholders filled in from the row.
    fn fill(&self, detail: &str) -> String {
        let mut out = detail
            .replace("{max_rank}", &MAX_RANK.to_string())
            .replace("{dtypes}", &names(self.dtypes));
        for keyword in self.keywords {
            let placeholder = format!("{{default:{}}}", keyword.name);
            if out.contains(&placeholder) {
                let value = match keyword.default {
                    Some(Value::Type(dtype)) => dtype.name().to_owned(),
                    Some(value) => value.rust(),
                    None => "none".to_owned(),
                };
                out = out.replace(&placeholder, &value);
            }
        }
        out
    }
}

/// `one` / `two` / …, and the plural ending.
fn count_words(count: usize) -> (&'static str, &'static str) {
    match count {
        1 => ("one", ""),
        2 => ("two", "s"),
        3 => ("three", "s"),
        4 => ("four", "s"),
        _ => ("five", "s"),
    }
}

/// `at rank 4`, `at ranks 0–4`.
fn ranks_text((low, high): (u8, u8)) -> String {
    match low == high {
        true => format!("at rank {low}"),
        false => format!("at ranks {low}–{high}"),
    }
}

/// `float32, int32 or int64`.
fn names(dtypes: &[DType]) -> String {
    let names: Vec<String> = dtypes.iter().map(|d| d.name().to_owned()).collect();
    join_or(&names)
}

#[cfg(test)]
mod tests {
    use crate::{DType, Role, OPS};

    use super::super::dtype::INDEX_DTYPES;

    /// The element types named in `text` outside backquotes.
    fn named_dtypes(text: &str) -> Vec<DType> {
        let prose: String = text.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let words: Vec<&str> = prose.split(|c: char| !c.is_ascii_alphanumeric()).collect();
        DType::ALL
            .iter()
            .copied()
            .filter(|dtype| words.contains(&dtype.name()))
            .collect()
    }

    /// The rank ranges `text` states (`rank 4`, `ranks 0–4`).
    fn stated_ranks(text: &str) -> Vec<(u8, u8)> {
        let mut out = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("rank") {
            rest = &rest[at + 4..];
            let tail = rest.strip_prefix('s').unwrap_or(rest);
            let Some(tail) = tail.strip_prefix([' ', '-']) else {
                continue;
            };
            let digits = |s: &str| {
                s.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            };
            let low = digits(tail);
            if low.is_empty() {
                continue;
            }
            let after = &tail[low.len()..];
            let high = after.strip_prefix('–').map(digits).unwrap_or_default();
            let low: u8 = low.parse().unwrap_or(u8::MAX);
            let high: u8 = if high.is_empty() {
                low
            } else {
                high.parse().unwrap_or(u8::MAX)
            };
            out.push((low, high));
        }
        out
    }

    #[test]
    fn hand_written_details_state_no_type_or_rank() {
        for op in OPS {
            for rule in op.python {
                assert_eq!(
                    named_dtypes(rule.detail),
                    Vec::<DType>::new(),
                    "{}: the detail names an element type; let the row say it",
                    rule.rule_id
                );
                assert_eq!(
                    stated_ranks(rule.detail),
                    Vec::<(u8, u8)>::new(),
                    "{}: the detail states a rank; let the row say it",
                    rule.rule_id
                );
                for word in ["float tensor", "float CPU tensor", "integer tensor"] {
                    assert!(!rule.detail.contains(word), "{}: {word}", rule.rule_id);
                }
            }
        }
    }

    #[test]
    fn every_constraint_states_its_rows_types_and_ranks() {
        for op in OPS {
            let roles: Vec<Role> = (0..op.arity()).map(|p| op.rule.role(p)).collect();
            let mut wanted: Vec<DType> = op.dtypes.to_vec();
            if roles.contains(&Role::Indices) {
                wanted.extend(INDEX_DTYPES);
            }
            if roles.contains(&Role::Condition) {
                wanted.push(DType::Bool);
            }
            for rule in op.python {
                let text = op.constraint(rule);
                let mut also = wanted.clone();
                for keyword in op.keywords {
                    if let Some(crate::Value::Type(dtype)) = keyword.default {
                        if rule
                            .detail
                            .contains(&format!("{{default:{}}}", keyword.name))
                            || rule.detail.contains("{dtypes}")
                        {
                            also.push(dtype);
                        }
                    }
                }
                let mut expected: Vec<DType> = DType::ALL
                    .iter()
                    .copied()
                    .filter(|dtype| also.contains(dtype))
                    .collect();
                expected.dedup();
                assert_eq!(named_dtypes(&text), expected, "{}: {text}", rule.rule_id);
                let stated = stated_ranks(&text);
                for position in 0..op.arity() {
                    let ranks = op.rule.ranks(position);
                    let role = op.rule.role(position);
                    if matches!(role, Role::Dims | Role::Pairs | Role::Size) {
                        continue;
                    }
                    assert!(
                        stated.contains(&ranks) || (ranks == (0, 0) && text.contains("scalar")),
                        "{}: operand {position} at ranks {ranks:?} is not stated: {text}",
                        rule.rule_id
                    );
                }
                for ranks in &stated {
                    assert!(
                        (0..op.arity()).any(|p| op.rule.ranks(p) == *ranks),
                        "{}: states ranks {ranks:?} no operand has: {text}",
                        rule.rule_id
                    );
                }
            }
        }
    }

    #[test]
    fn matmul_names_float64() {
        let text = crate::ops::MATMUL.constraint(&crate::ops::MATMUL.python[0]);
        assert!(
            text.starts_with(
                "two CPU tensors of one of float32, float64, bfloat16, float16, int32 or int64 at ranks 2–5"
            ),
            "{text}"
        );
    }
}
