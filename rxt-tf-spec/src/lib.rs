//! The tables of rxt-tf as plain data: the op table ([`ops`], shaped by
//! [`model`]) and the platform profiles ([`platform`]).
//!
//! Dependency-free, so the runtime, its build script, the macros and the
//! code generator all read the same rows. Not for direct use: depend on
//! `rxt-tf`, which pins this crate's exact version.

pub mod axes;
pub mod einsum;
pub mod model;
pub mod ops;
pub mod platform;
pub mod spelling;

pub use model::{
    axes_fit, diagnostic_code, fits_mask, join_or, Attr, AttrValue, Batched, Becomes, DType, Input,
    Keyword, ListEntries, Op, Promotion, PythonKeyword, PythonRule, Role, Rule, SiteKind, Steps,
    TensorKind, Value, ValueKind, Work, MAX_LIST, MAX_RANK,
};
pub use ops::{by_operator, lookup, FALLBACK_RULES, OPS};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_consistent() {
        for op in OPS {
            assert!(!op.dtypes.is_empty(), "{}", op.name);
            assert_eq!(op.operand_names().len(), op.arity(), "{}", op.name);
            let typed: Vec<&str> = op.typed_keywords().map(|k| k.name).collect();
            let wanted: &[&str] = match op.rule {
                Rule::Reduce => &["axis", "keepdims"],
                Rule::Moments => &["axes", "keepdims"],
                Rule::Conv { .. } | Rule::Pool { .. } | Rule::Normalize | Rule::FusedNormalize => {
                    &[]
                }
                Rule::Einsum { .. } => &["equation"],
                Rule::Contract => &["axes"],
                Rule::AlongAxis | Rule::Sort => &["axis"],
                Rule::ArgReduce => &["axis", "output_type"],
                Rule::Permute => &["perm"],
                Rule::Convert => &["dtype"],
                Rule::ExpandDims => &["axis"],
                Rule::Shape => &["out_type"],
                Rule::Squeeze => &["axis"],
                Rule::Gather => &["axis", "batch_dims"],
                Rule::Join | Rule::Stack => &["axis"],
                Rule::Index => &["indexed_axes", "shrink_axes", "new_axes"],
                Rule::Split => &["axis", "num_split"],
                Rule::SplitSizes => &["axis"],
                Rule::Unstack => &["num", "axis"],
                Rule::OneHot => &["axis"],
                Rule::Filled | Rule::Eye => &["dtype"],
                _ => &[],
            };
            assert_eq!(typed, wanted, "{}: the rule's typed keywords", op.name);
            if let Some(batched) = op.batched {
                assert_eq!(
                    batched.keyword_attrs.len(),
                    op.keywords.len(),
                    "{}",
                    op.name
                );
            }
            for keyword in op.keywords {
                if let Some(default) = &keyword.default {
                    assert!(keyword.accepts(default), "{}.{}", op.name, keyword.name);
                }
                if keyword.typed && keyword.kind == ValueKind::Bool {
                    assert!(!keyword.allowed.is_empty(), "a typed flag needs its values");
                }
                if let Becomes::Input(_) = keyword.becomes {
                    assert!(op.inputs.contains(&Input::Keyword(keyword.name)));
                }
            }
            for input in op.inputs {
                match input {
                    Input::Operand(index) => assert!(*index < op.arity(), "{}", op.name),
                    Input::Keyword(name) => assert!(op.keyword(name).is_some(), "{}", op.name),
                    Input::Operands(indices) => {
                        assert!(
                            indices.iter().all(|index| *index < op.arity()),
                            "{}",
                            op.name
                        )
                    }
                }
            }
        }
    }

    #[test]
    fn names_rule_ids_and_codes_are_unique() {
        let mut names = Vec::new();
        let mut rules = Vec::new();
        let mut codes: Vec<u16> = FALLBACK_RULES.iter().map(|rule| rule.2).collect();
        for op in OPS {
            assert!(!names.contains(&op.name), "{}", op.name);
            names.push(op.name);
            for rule in op.python {
                assert!(!rules.contains(&rule.rule_id), "{}", rule.rule_id);
                assert!(!codes.contains(&rule.code), "{}", rule.code);
                rules.push(rule.rule_id);
                codes.push(rule.code);
            }
        }
    }

    #[test]
    fn messages_name_types_and_ranks() {
        assert_eq!(
            ops::MATMUL.operands_text(),
            "float32, float64, bfloat16, float16, int32 or int64 at ranks 2–5"
        );
        assert_eq!(
            ops::BIAS_ADD.operands_text(),
            "float32, float64, bfloat16, float16, int32 or int64 at ranks 2–5 × rank 1"
        );
        assert_eq!(
            ops::EXP.operands_text(),
            "float32, float64, bfloat16 or float16 at ranks 0–5"
        );
        assert_eq!(by_operator("-", 1).map(|op| op.name), Some("neg"));
        assert_eq!(by_operator("-", 2).map(|op| op.name), Some("sub"));
    }

    #[test]
    fn axes_fit_by_rank() {
        assert!(axes_fit(&[0, 2], 3));
        assert!(!axes_fit(&[0, 2], 2));
        assert!(axes_fit(&[-1], 1));
        assert!(!axes_fit(&[1, -2], 3), "the same axis twice");
        assert!(axes_fit(&[1, -2], 4));
        assert!(!axes_fit(&[-5], 4));
    }

    #[test]
    fn result_ranks_follow_the_rules() {
        assert_eq!(Rule::Broadcast.result_rank(&[0, 3], 0, false), Some(3));
        assert_eq!(Rule::MatMul.result_rank(&[4, 2], 0, false), Some(4));
        assert_eq!(Rule::Reduce.result_rank(&[4], 2, false), Some(2));
        assert_eq!(Rule::Reduce.result_rank(&[4], 2, true), Some(4));
        assert_eq!(Rule::ArgReduce.result_rank(&[1], 0, false), Some(0));
    }
}
