//! The shape of an op row: what `tf!` accepts, what TensorFlow runs, and how
//! the Rextio plugin spells it in Python.

use core::ffi::CStr;

/// An element type, with its `TF_DataType` code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DType {
    /// `float32` (`TF_FLOAT`).
    F32,
    /// `int32` (`TF_INT32`).
    I32,
    /// `int64` (`TF_INT64`).
    I64,
}

impl DType {
    /// The `TF_DataType` code.
    pub const fn code(self) -> i32 {
        match self {
            DType::F32 => 1,
            DType::I32 => 3,
            DType::I64 => 9,
        }
    }

    /// The element type of a `TF_DataType` code, if rxt-tf has it.
    pub const fn from_code(code: i32) -> Option<DType> {
        match code {
            1 => Some(DType::F32),
            3 => Some(DType::I32),
            9 => Some(DType::I64),
            _ => None,
        }
    }

    /// TensorFlow's name for it (`float32`, …).
    pub const fn name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::I32 => "int32",
            DType::I64 => "int64",
        }
    }

    /// The Rust type of its elements (`f32`, `i32`, `i64`).
    pub const fn rust_name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::I32 => "i32",
            DType::I64 => "i64",
        }
    }

    /// The element type whose Rust type is `name`.
    pub fn from_rust_name(name: &str) -> Option<DType> {
        [DType::F32, DType::I32, DType::I64]
            .into_iter()
            .find(|dtype| dtype.rust_name() == name)
    }

    /// The infix of the rxt-tf tensor type names (`F32` in `TensorF32Cpu2D`).
    pub const fn type_infix(self) -> &'static str {
        match self {
            DType::F32 => "F32",
            DType::I32 => "I32",
            DType::I64 => "I64",
        }
    }
}

/// A tensor type of rxt-tf: element type and rank, on `CPU:0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TensorKind {
    /// Element type.
    pub dtype: DType,
    /// Rank (1 or 2).
    pub rank: u8,
}

impl TensorKind {
    /// A float32 tensor of `rank`.
    pub const fn f32(rank: u8) -> TensorKind {
        TensorKind {
            dtype: DType::F32,
            rank,
        }
    }

    /// The Rust type name, e.g. `TensorF32Cpu2D`.
    pub fn type_name(self) -> String {
        format!("Tensor{}Cpu{}D", self.dtype.type_infix(), self.rank)
    }
}

/// A literal value: of a keyword, an attribute or a constant input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A list of integers (becomes a rank-1 tensor when an input).
    Ints(&'static [i64]),
    /// An element type (a `type` attribute).
    Type(DType),
    /// A string (a `string` attribute).
    Str(&'static str),
}

impl Value {
    /// The value as Rust source spells it (`true`, `1`, `[1, 0]`, …).
    pub fn rust(&self) -> String {
        match self {
            Value::Bool(flag) => flag.to_string(),
            Value::Int(int) => int.to_string(),
            Value::Float(float) => format!("{float:?}"),
            Value::Ints(ints) => format!("{ints:?}"),
            Value::Type(dtype) => dtype.rust_name().to_owned(),
            Value::Str(text) => format!("{text:?}"),
        }
    }
}

/// The kind of literal a keyword takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A boolean literal.
    Bool,
    /// An integer literal (possibly negative).
    Int,
    /// A float literal (possibly negative).
    Float,
    /// A list of integer literals (`[1, 0]`).
    Ints,
    /// An element type, spelled as the Rust type (`i64`).
    Type,
}

impl ValueKind {
    /// How messages name it.
    pub const fn describe(self) -> &'static str {
        match self {
            ValueKind::Bool => "a boolean literal",
            ValueKind::Int => "an integer literal",
            ValueKind::Float => "a float literal",
            ValueKind::Ints => "a list of integer literals",
            ValueKind::Type => "an element type",
        }
    }
}

/// What a keyword's value becomes when the op runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Becomes {
    /// The op attribute of this name (its type follows the keyword's kind).
    Attr(&'static CStr),
    /// A constant input tensor of this element type, placed by [`Input::Keyword`].
    Input(DType),
    /// The axis an op that works on the last axis only (`Softmax`) runs
    /// along: another axis is moved last by a transpose before the op and
    /// back after it, as TensorFlow's Python layer does.
    LastAxis,
}

/// A keyword argument of an op: `tf!(op(x, name = literal))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Keyword {
    /// Its name, in `tf!` and in Python.
    pub name: &'static str,
    /// The kind of literal it takes.
    pub kind: ValueKind,
    /// The values accepted; empty means any literal of `kind`.
    pub allowed: &'static [Value],
    /// The value when omitted; `None` makes the keyword required.
    pub default: Option<Value>,
    /// What its value becomes.
    pub becomes: Becomes,
    /// Whether its value takes part in typing: signatures can depend on it
    /// ([`Signature::when`]), so the value is carried in the types of `tf!`'s
    /// expansion (`keepdims` picks the result rank).
    pub typed: bool,
}

impl Keyword {
    /// Whether `value` is accepted.
    pub fn accepts(&self, value: &Value) -> bool {
        let kind_matches = matches!(
            (self.kind, value),
            (ValueKind::Bool, Value::Bool(_))
                | (ValueKind::Int, Value::Int(_))
                | (ValueKind::Float, Value::Float(_))
                | (ValueKind::Ints, Value::Ints(_))
                | (ValueKind::Type, Value::Type(_))
        );
        kind_matches && (self.allowed.is_empty() || self.allowed.contains(value))
    }

    /// The accepted values for messages: "`1`", "`0`, `1` or `-1`", or
    /// "a float literal".
    pub fn allowed_text(&self) -> String {
        if self.allowed.is_empty() {
            return self.kind.describe().to_owned();
        }
        let values: Vec<String> = self
            .allowed
            .iter()
            .map(|v| format!("`{}`", v.rust()))
            .collect();
        join_or(&values)
    }
}

/// One operand slot of a signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// An rxt-tf tensor.
    Tensor(TensorKind),
    /// A float32 scalar: a float literal in `tf!` (`tf!(0.5 * x)`), run as
    /// a scalar constant.
    Scalar,
}

impl Operand {
    /// A float32 tensor operand of `rank`.
    pub const fn f32(rank: u8) -> Operand {
        Operand::Tensor(TensorKind::f32(rank))
    }

    /// `rank-2` or `scalar`, for messages.
    pub fn describe(&self) -> String {
        match self {
            Operand::Tensor(kind) => format!("rank-{}", kind.rank),
            Operand::Scalar => "scalar".to_owned(),
        }
    }

    /// The rank (0 for a scalar literal).
    pub fn rank(&self) -> u8 {
        match self {
            Operand::Tensor(kind) => kind.rank,
            Operand::Scalar => 0,
        }
    }
}

/// Operand kinds an op accepts together, with the result they give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Signature {
    /// The operands, in order.
    pub operands: &'static [Operand],
    /// The result.
    pub result: TensorKind,
    /// Values of typed keywords this signature requires (`keepdims` must
    /// be `true`; `axis` one of `0`, `-1`).
    pub when: &'static [(&'static str, &'static [Value])],
}

/// One input of the TensorFlow op, in the op's input order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input {
    /// The `tf!` operand at this position.
    Operand(usize),
    /// The constant made from this keyword's value (see [`Becomes::Input`]).
    Keyword(&'static str),
}

/// An attribute the op always gets, set before any input is added.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attr {
    /// The attribute's name.
    pub name: &'static CStr,
    /// Its value.
    pub value: Value,
}

/// How an op's work is estimated from its inputs, to decide whether the GIL
/// is released while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A matrix product: elements of the left operand × columns of the right.
    MatMul,
    /// One pass over the first input's elements (element-wise ops, reductions).
    FirstInput,
    /// One pass over the larger input's elements (broadcasting binary ops).
    LargerInput,
}

/// The kind of Python site a rule claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteKind {
    /// A call such as `tf.matmul(a, b)`.
    Call,
    /// A binary operator such as `a + b`.
    Binop,
}

impl SiteKind {
    /// Rextio's name for the kind.
    pub const fn as_str(self) -> &'static str {
        match self {
            SiteKind::Call => "call",
            SiteKind::Binop => "binop",
        }
    }
}

/// How the Rextio plugin claims an op in typed Python: one rule record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PythonRule {
    /// The site kind.
    pub kind: SiteKind,
    /// Dotted call targets, canonical first (aliases after), or the operator.
    pub targets: &'static [&'static str],
    /// The rule record id.
    pub rule_id: &'static str,
    /// The number of its diagnostic code (`RXTP-RXTTF-<number>`).
    pub code: u16,
    /// What the rule requires, in words.
    pub constraint: &'static str,
    /// Keywords Python may also pass positionally after the operands, in
    /// order (`tf.reduce_sum(x, 0, True)`).
    pub positional: &'static [&'static str],
    /// Keywords only Python passes, accepted with one of their values and
    /// dropped when lowering (`data_format='NHWC'`).
    pub python_only: &'static [PythonKeyword],
}

/// A keyword only the Python form takes: accepted with one of `values`,
/// dropped when lowering.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PythonKeyword {
    /// The keyword.
    pub name: &'static str,
    /// The accepted literal values.
    pub values: &'static [Value],
}

impl PythonRule {
    /// The diagnostic code, e.g. `RXTP-RXTTF-001`.
    pub fn diagnostic_code(&self) -> String {
        diagnostic_code(self.code)
    }
}

/// The diagnostic code of rule number `number`.
pub fn diagnostic_code(number: u16) -> String {
    format!("RXTP-RXTTF-{number:03}")
}

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
    /// The operand kinds it accepts, with their results.
    pub signatures: &'static [Signature],
    /// Its keywords, in the order `tf!` documents them.
    pub keywords: &'static [Keyword],
    /// Attributes it always sets.
    pub attrs: &'static [Attr],
    /// The TensorFlow op's inputs, in order.
    pub inputs: &'static [Input],
    /// How its work grows with its inputs.
    pub work: Work,
    /// The Python forms the plugin lowers to it.
    pub python: &'static [PythonRule],
}

impl Op {
    /// The number of operands.
    pub fn arity(&self) -> usize {
        self.signatures.first().map_or(0, |s| s.operands.len())
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
            arity => ["a", "b", "c", "d"]
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

    /// The accepted operand kinds, for messages: `rank-2 × rank-2`, or
    /// `rank-2 + rank-2, rank-1 + rank-1, …` for operators.
    pub fn ranks_text(&self) -> String {
        let separator = match self.operator {
            Some(operator) if self.arity() == 2 => format!(" {operator} "),
            _ => " × ".to_owned(),
        };
        let mut forms: Vec<String> = Vec::new();
        for signature in self.signatures {
            let form: Vec<String> = signature.operands.iter().map(Operand::describe).collect();
            let form = form.join(&separator);
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
        join_or(&forms)
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
