//! The op vocabulary of `tf!`: names, operand counts and keywords. The
//! runtime's `ops` module executes these; ranks are checked by the types of
//! the hidden helpers each op expands to.

/// What a keyword of an op accepts.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Keyword {
    /// Required; must be this integer literal.
    RequiredInt(&'static str, &'static str),
    /// Optional; must be this boolean literal.
    OptionalBool(&'static str, bool),
}

impl Keyword {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Keyword::RequiredInt(name, _) | Keyword::OptionalBool(name, _) => name,
        }
    }
}

/// One op `tf!` accepts.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct OpRule {
    /// The seed's canonical name.
    pub(crate) name: &'static str,
    /// Number of positional tensor operands.
    pub(crate) operands: usize,
    /// Keywords it accepts.
    pub(crate) keywords: &'static [Keyword],
    /// The helper under `__private` it expands to.
    pub(crate) helper: &'static str,
    /// Ranks it accepts, for messages.
    pub(crate) ranks: &'static str,
}

/// Every op `tf!` accepts.
pub(crate) const OPS: &[OpRule] = &[
    OpRule {
        name: "matmul",
        operands: 2,
        keywords: &[],
        helper: "matmul",
        ranks: "rank-2 × rank-2",
    },
    OpRule {
        name: "relu",
        operands: 1,
        keywords: &[],
        helper: "relu",
        ranks: "rank-2",
    },
    OpRule {
        name: "sigmoid",
        operands: 1,
        keywords: &[],
        helper: "sigmoid",
        ranks: "rank-2",
    },
    OpRule {
        name: "add",
        operands: 2,
        keywords: &[],
        helper: "add",
        ranks: "2D + 2D, 1D + 1D, 2D + 1D or 1D + 2D",
    },
    OpRule {
        name: "reduce_mean",
        operands: 1,
        keywords: &[
            Keyword::RequiredInt("axis", "1"),
            Keyword::OptionalBool("keepdims", false),
        ],
        helper: "reduce_mean_axis1",
        ranks: "rank-2",
    },
];

/// The rule for `name`, if `tf!` supports it.
pub(crate) fn lookup(name: &str) -> Option<&'static OpRule> {
    OPS.iter().find(|op| op.name == name)
}

/// "`matmul`, `relu`, …" for messages.
pub(crate) fn names() -> String {
    OPS.iter()
        .map(|op| format!("`{}`", op.name))
        .collect::<Vec<_>>()
        .join(", ")
}
