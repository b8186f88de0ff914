//! The tables of rxt-tf as plain data: the op table ([`ops`], shaped by
//! [`model`]) and the platform profiles ([`platform`]).
//!
//! Dependency-free, so the runtime, its build script, the macros and the
//! code generator all read the same rows. Not for direct use: depend on
//! `rxt-tf`, which pins this crate's exact version.

pub mod model;
pub mod ops;
pub mod platform;

pub use model::{
    diagnostic_code, join_or, Attr, Becomes, DType, Input, Keyword, Op, Operand, PythonKeyword,
    PythonRule, Signature, SiteKind, TensorKind, Value, ValueKind, Work,
};
pub use ops::{by_operator, lookup, tensor_kinds, FALLBACK_RULES, OPS};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_consistent() {
        for op in OPS {
            assert!(!op.signatures.is_empty(), "{}", op.name);
            for signature in op.signatures {
                assert_eq!(signature.operands.len(), op.arity(), "{}", op.name);
                for (name, values) in signature.when {
                    let keyword = op.keyword(name).unwrap_or_else(|| panic!("{name}"));
                    assert!(keyword.typed, "{}.{name}", op.name);
                    assert!(values.iter().all(|v| keyword.accepts(v)), "{}", op.name);
                }
            }
            for keyword in op.keywords {
                if let Some(default) = &keyword.default {
                    assert!(keyword.accepts(default), "{}.{}", op.name, keyword.name);
                }
                if keyword.typed {
                    assert!(!keyword.allowed.is_empty(), "typed needs a finite set");
                }
                if let Becomes::Input(_) = keyword.becomes {
                    assert!(op.inputs.contains(&Input::Keyword(keyword.name)));
                }
            }
            for input in op.inputs {
                match input {
                    Input::Operand(index) => assert!(*index < op.arity(), "{}", op.name),
                    Input::Keyword(name) => assert!(op.keyword(name).is_some(), "{}", op.name),
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
    fn messages_name_the_ranks() {
        assert_eq!(ops::MATMUL.ranks_text(), "rank-2 × rank-2");
        assert_eq!(
            ops::ADD.ranks_text(),
            "rank-2 + rank-2, rank-1 + rank-1, rank-2 + rank-1, rank-1 + rank-2, \
             rank-2 + scalar, rank-1 + scalar, scalar + rank-2 or scalar + rank-1"
        );
        assert_eq!(
            ops::REDUCE_MEAN.keywords[0].allowed_text(),
            "`0`, `1`, `-1` or `-2`"
        );
        assert_eq!(by_operator("-", 1).map(|op| op.name), Some("neg"));
        assert_eq!(by_operator("-", 2).map(|op| op.name), Some("sub"));
    }
}
