//! One op row, and the texts derived from it.

use core::ffi::CStr;

use super::dtype::DType;
use super::kernel::{Attr, Batched, Input, Promotion, Steps, Work};
use super::keyword::Keyword;
use super::python::PythonRule;
use super::rule::{Role, Rule, MAX_LIST};

/// One op of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Op {
    /// Its name in `tf!`.
    pub name: &'static str,
    /// The binary operator `tf!` also accepts for it (`+` for `add`).
    pub operator: Option<&'static str>,
    /// One line saying what it computes.
    pub summary: &'static str,
    /// The TensorFlow op it executes.
    pub tf_op: &'static CStr,
    /// How it types operands and result.
    pub rule: Rule,
    /// The element types it takes (those TensorFlow's CPU kernels register).
    pub dtypes: &'static [DType],
    /// Its keywords, in the order `tf!` documents them.
    pub keywords: &'static [Keyword],
    /// Attributes it always sets.
    pub attrs: &'static [Attr],
    /// The kernel it runs above rank 2, if another.
    pub batched: Option<Batched>,
    /// Operand element types cast to another before it runs, if any.
    pub promotion: Option<Promotion>,
    /// The element type of its results whatever its operands' (`bool` for
    /// comparisons); `None`: the kernel's.
    pub result_type: Option<DType>,
    /// Keywords `tf!` also takes by position, after the operands, in this
    /// order (`cast(x, f32)`).
    pub positional: &'static [&'static str],
    /// The TensorFlow op's inputs, in order.
    pub inputs: &'static [Input],
    /// How its work grows with its inputs.
    pub work: Work,
    /// How the runtime runs it: its TensorFlow op, or several.
    pub steps: Steps,
    /// The Python forms the plugin lowers to it.
    pub python: &'static [PythonRule],
}

impl Op {
    /// The element type its kernel runs on for operands of `operand`: the
    /// promoted one where the op promotes it.
    #[inline]
    pub fn kernel_element(&self, operand: DType) -> DType {
        match self.promotion {
            Some(promotion) if promotion.from.contains(&operand) => promotion.to,
            _ => operand,
        }
    }

    /// The element type of its result for operands of `operand`.
    #[inline]
    pub fn result_element(&self, operand: DType) -> DType {
        self.result_type
            .unwrap_or_else(|| self.kernel_element(operand))
    }

    /// Its name in messages: its name in `tf!`, which picks the rows
    /// `einsum_one` and `einsum_three` for `einsum` by operand count.
    pub fn called(&self) -> &'static str {
        match self.rule {
            Rule::Einsum { .. } => crate::ops::EINSUM.name,
            _ => self.name,
        }
    }

    /// The number of operands.
    #[inline]
    pub fn arity(&self) -> usize {
        self.rule.arity()
    }

    /// The name of the op's marker type in the runtime's typed dispatch
    /// (`MatmulOp`, `ReduceMeanOp`): unique, so compile errors print it
    /// without a path.
    pub fn marker_name(&self) -> String {
        let camel: String = self
            .name
            .split('_')
            .map(|part| {
                let mut chars = part.chars();
                chars
                    .next()
                    .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                    .unwrap_or_default()
            })
            .collect();
        format!("{camel}Op")
    }

    /// Names for the operands in documentation: `x`, or `a`, `b`, ….
    pub fn operand_names(&self) -> Vec<String> {
        match self.arity() {
            1 => vec!["x".to_owned()],
            arity => ["a", "b", "c", "d", "e"]
                .iter()
                .take(arity)
                .map(|name| (*name).to_owned())
                .collect(),
        }
    }

    /// The keyword named `name`.
    pub fn keyword(&self, name: &str) -> Option<&'static Keyword> {
        self.keywords.iter().find(|k| k.name == name)
    }

    /// The typed keywords, in order.
    pub fn typed_keywords(&self) -> impl Iterator<Item = &'static Keyword> {
        self.keywords.iter().filter(|k| k.typed)
    }

    /// The accepted operands, for messages: `float32, int32 or int64 at
    /// ranks 0–4`.
    pub fn operands_text(&self) -> String {
        let types: Vec<String> = self.dtypes.iter().map(|d| d.name().to_owned()).collect();
        let positions: Vec<String> = (0..self.arity())
            .filter(|position| !matches!(self.rule.role(*position), Role::Dims | Role::Pairs))
            .map(|position| {
                let ranks = match self.rule.ranks(position) {
                    (low, high) if low == high => format!("rank {low}"),
                    (low, high) => format!("ranks {low}–{high}"),
                };
                match self.rule.role(position) {
                    Role::Indices => format!("int32 or int64 indices of {ranks}"),
                    _ => ranks,
                }
            })
            .collect();
        let mut ranks = positions.clone();
        ranks.dedup();
        let condition = match (0..self.arity()).any(|p| self.rule.role(p) == Role::Condition) {
            true => "a bool condition, then ",
            false => "",
        };
        let tensors = match (0..self.arity()).any(|p| self.rule.role(p) == Role::Tensors) {
            true => format!("a list of 2–{MAX_LIST} tensors of "),
            false => String::new(),
        };
        let list = match (0..self.arity())
            .any(|p| matches!(self.rule.role(p), Role::Dims | Role::Pairs))
        {
            true => ", and a list of integers",
            false => "",
        };
        format!(
            "{condition}{tensors}{} at {}{list}",
            join_or(&types),
            ranks.join(" × ")
        )
    }
}

/// "a", "a or b", "a, b or c".
pub fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
