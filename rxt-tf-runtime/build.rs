//! Generates what the runtime derives from the tables of `rxt-tf-spec`:
//!
//! - `active_profile.rs`: the platform profile of the target being built,
//!   or a `compile_error!` that names the target and the supported profiles;
//! - `tensors.rs`, `ranks.rs`, `elements.rs`: the tensor aliases of every
//!   element type and rank, the supported ranks and the element types;
//! - `rules.rs`: the rank arithmetic of the typing rules, for every rank,
//!   and which element types literals convert to;
//! - `ops.rs`: the typed dispatch of every op row (a marker type per op with
//!   its rule, the element types and ranks it takes at each operand) and the
//!   plain function of each op.

use std::fmt::Write as _;
use std::{env, fs, path::PathBuf};

use rxt_tf_spec::platform;
use rxt_tf_spec::{DType, Op, Role, Rule, TensorKind, Value, ValueKind, MAX_RANK, OPS};

fn main() {
    // Inputs: this script and the tables of `rxt-tf-spec` (a build
    // dependency, so a change there re-runs it too).
    println!("cargo::rerun-if-changed=build.rs");
    let cfg = |key: &str| env::var(key).unwrap_or_default();
    let out_dir = PathBuf::from(cfg("OUT_DIR"));
    let target = cfg("TARGET");
    let selected = platform::profile_index(
        &cfg("CARGO_CFG_TARGET_ARCH"),
        &cfg("CARGO_CFG_TARGET_OS"),
        &cfg("CARGO_CFG_TARGET_ENV"),
    );
    let profile = match selected {
        Some(index) => format!("const ACTIVE_PROFILE_INDEX: usize = {index};\n"),
        // Index 0 keeps the rest of the crate compiling, so the build shows
        // this one error instead of a cascade.
        None => format!(
            "::core::compile_error!({:?});\nconst ACTIVE_PROFILE_INDEX: usize = 0;\n",
            platform::unsupported_target_message(&target)
        ),
    };
    let ops = match ops_module() {
        Ok(code) => code,
        Err(message) => fail(&message),
    };
    let generated = [
        ("active_profile.rs", profile),
        ("ops.rs", ops),
        ("tensors.rs", tensors_module()),
        ("ranks.rs", ranks_module()),
        ("elements.rs", elements_module()),
        ("rules.rs", rules_module()),
    ];
    for (name, code) in generated {
        let path = out_dir.join(name);
        if let Err(err) = fs::write(&path, code) {
            fail(&format!("cannot write {}: {err}", path.display()));
        }
    }
}

fn fail(message: &str) -> ! {
    eprintln!("rxt-tf-runtime build: {message}");
    std::process::exit(1);
}

const DISPATCH: &str = "crate::ops::typed";
/// Where the entry points of typed calls live.
const ENTRY: &str = "crate::ops::entry";

/// Marks the impls of the marker traits: an error names the trait that
/// failed, not a list of the impls it has.
const HIDDEN: &str = "#[diagnostic::do_not_recommend]";

/// The ranks of rxt-tf.
fn ranks() -> impl Iterator<Item = usize> + Clone {
    0..=usize::from(MAX_RANK)
}

/// The rank arithmetic of einsum subscripts with `...`: which ranks an
/// operand's subscripts fit and how many broadcast axes `...` then stands
/// for, the widest of two such counts, and the result for the result's
/// letters and those axes, wherever it has at most `MAX_RANK`. (Equations
/// without `...` are typed by their ranks.)
fn einsum_ranks(out: &mut String) {
    for rank in ranks() {
        let _ = writeln!(
            out,
            "{HIDDEN} impl FitsRank<{rank}> for Letters<{rank}, false> {{ type Broadcast = Rank<0>; }}"
        );
        for letters in 0..=rank {
            let _ = writeln!(
                out,
                "{HIDDEN} impl FitsRank<{rank}> for Letters<{letters}, true> {{ type Broadcast = Rank<{}>; }}",
                rank - letters
            );
        }
        for other in ranks() {
            let _ = writeln!(
                out,
                "{HIDDEN} impl Widest<Rank<{other}>> for Rank<{rank}> {{ type Widest = Rank<{}>; }}",
                rank.max(other)
            );
        }
        for letters in ranks().filter(|letters| letters + rank <= usize::from(MAX_RANK)) {
            let _ = writeln!(
                out,
                "{HIDDEN} impl EinsumResult<{letters}> for Rank<{rank}> {{ type Output<T: Element> = Tensor<T, {}>; }}",
                letters + rank
            );
        }
    }
}

/// The Rust type of `dtype` as code generated into this crate names it:
/// the half types through the crate root's re-exports of `half`'s.
fn rust_type(dtype: DType) -> String {
    if dtype.is_primitive() {
        dtype.rust_name().to_owned()
    } else {
        format!("crate::{}", dtype.rust_name())
    }
}

/// The aliases `TensorF32Cpu2D`, … of every element type and rank.
fn tensors_module() -> String {
    let mut out = String::new();
    for kind in TensorKind::all() {
        let _ = writeln!(
            out,
            "/// A rank-{} {} tensor on `CPU:0`: [`Tensor<{}, {}>`](super::Tensor).\n\
             pub type {} = super::Tensor<{}, {}>;",
            kind.rank,
            kind.dtype.name(),
            kind.dtype.rust_name(),
            kind.rank,
            kind.type_name(),
            rust_type(kind.dtype),
            kind.rank
        );
    }
    out
}

/// The supported ranks.
fn ranks_module() -> String {
    let mut out = String::new();
    for rank in ranks() {
        let _ = writeln!(
            out,
            "impl sealed::Sealed for Rank<{rank}> {{}}\nimpl SupportedRank for Rank<{rank}> {{}}"
        );
    }
    out
}

/// [`Element`] of every number type (bool is written out by hand).
fn elements_module() -> String {
    let mut out = String::new();
    for dtype in DType::ALL.iter().filter(|d| **d != DType::Bool) {
        let number = if dtype.is_float() { "Float" } else { "Int" };
        let _ = writeln!(out, "number!({}, {dtype:?}, {number});", rust_type(*dtype));
    }
    out
}

/// The rank arithmetic of the rules, for every rank, and the element types
/// literals convert to.
fn rules_module() -> String {
    let mut out = String::new();
    for dtype in DType::ALL {
        let rust = rust_type(*dtype);
        if *dtype != DType::Bool {
            let _ = writeln!(out, "{HIDDEN} impl FromIntLiteral for {rust} {{}}");
        }
        if dtype.is_float() {
            let _ = writeln!(
                out,
                "{HIDDEN} impl FromFloatLiteral for {rust} {{ fn from_python_float(value: f64) -> Self {{ \
                 crate::safe::host::python_float::to_{}(value) }} }}",
                dtype.rust_name()
            );
        }
    }
    einsum_ranks(&mut out);
    for a in ranks() {
        for b in ranks() {
            let _ = writeln!(
                out,
                "impl BroadcastWith<{b}> for Rank<{a}> {{ type Output<T: Element> = Tensor<T, {}>; }}",
                a.max(b)
            );
            for c in ranks() {
                let _ = writeln!(
                    out,
                    "impl BroadcastWithBoth<{b}, {c}> for Rank<{a}> {{ type Output<T: Element> = Tensor<T, {}>; }}",
                    a.max(b).max(c)
                );
            }
            for n in 0..=a.min(b) {
                let result = a + b - 2 * n;
                if result <= usize::from(MAX_RANK) {
                    let _ = writeln!(
                        out,
                        "{HIDDEN} impl ContractWith<{b}, {n}> for Rank<{a}> \
                         {{ type Output<T: Element> = Tensor<T, {result}>; }}"
                    );
                }
            }
            if a >= 2 && b >= 2 {
                let _ = writeln!(
                    out,
                    "impl MatMulWith<{b}> for Rank<{a}> {{ type Output<T: Element> = Tensor<T, {}>; }}",
                    a.max(b)
                );
            }
        }
    }
    for rank in ranks() {
        let bit = 1_u16 << rank;
        for mask in (0..1_u16 << (MAX_RANK + 1)).filter(|mask| mask & bit != 0) {
            let _ = writeln!(
                out,
                "{HIDDEN} impl ContractionFits<{mask}> for Rank<{rank}> {{}}"
            );
        }
        // One impl per rank, so a wrong length is reported, not inferred.
        let _ = writeln!(
            out,
            "{HIDDEN} impl Permutable for Rank<{rank}> {{ type Perm = Perm<{rank}>; }}\n\
             {HIDDEN} impl PerAxisList for Rank<{rank}> {{ type List = Dims<{rank}>; }}\n\
             {HIDDEN} impl ShapeOf<{rank}> for Dims<{rank}> {{ type Output<T: Element> = Tensor<T, {rank}>; }}"
        );
    }
    let max = usize::from(MAX_RANK);
    for rank in ranks() {
        for indexed in 0..=rank {
            for shrink in 0..=indexed {
                for new in 0..=max - (rank - shrink) {
                    let _ = writeln!(
                        out,
                        "{HIDDEN} impl IndexRank<{indexed}, {shrink}, {new}> for Rank<{rank}> \
                         {{ type Output<T: Element> = Tensor<T, {}>; }}",
                        rank - shrink + new
                    );
                }
            }
        }
    }
    for params in ranks().skip(1) {
        for indices in ranks() {
            for batch in 0..=indices.min(params - 1) {
                let result = params - 1 + indices - batch;
                if result <= usize::from(MAX_RANK) {
                    let _ = writeln!(
                        out,
                        "{HIDDEN} impl GatherRank<{indices}, {batch}> for Rank<{params}> \
                         {{ type Output<T: Element> = Tensor<T, {result}>; }}"
                    );
                }
            }
        }
    }
    for rank in ranks().skip(1) {
        for n in 1..=rank {
            for (keep, result) in [(false, rank - n), (true, rank)] {
                let _ = writeln!(
                    out,
                    "impl ReduceBy<{n}, {keep}> for Rank<{rank}> {{ type Output<T: Element> = Tensor<T, {result}>; }}"
                );
            }
        }
        // A new axis: the result's rank is the one the axis must fit.
        let _ = writeln!(
            out,
            "{HIDDEN} impl Grow for Rank<{}> {{ type Next = Rank<{rank}>; \
             type Output<T: Element> = Tensor<T, {rank}>; }}\n\
             {HIDDEN} impl<const FITS: u8> NewAxisFits<FITS> for Rank<{rank}> \
             where Axes<1, FITS>: AxesFit<{rank}> {{}}",
            rank - 1
        );
        let bit = 1_u16 << (rank - 1);
        for mask in (0..1_u16 << MAX_RANK).filter(|mask| mask & bit != 0) {
            let _ = writeln!(
                out,
                "{HIDDEN} impl<const N: usize> AxesFit<{rank}> for Axes<N, {mask}> {{}}"
            );
        }
    }
    out
}

/// The generated `ops.rs`, included by `src/ops/mod.rs`.
fn ops_module() -> Result<String, String> {
    let mut markers = String::new();
    let mut functions = String::new();
    for (index, op) in OPS.iter().enumerate() {
        marker(&mut markers, index, op);
        function(&mut functions, op)?;
    }
    let kinds = element_kinds();
    Ok(format!(
        "/// The ops of the table as types: `tf!` names them in its expansion,\n\
         /// and compile errors name them.\n\
         pub mod op {{\n{markers}}}\n\n{kinds}\n{functions}"
    ))
}

/// The element kinds generic code is written over (`T: rxt_tf::Float`):
/// each a trait whose supertraits are the ops taking every type of the
/// kind (their [`ElementOf`](crate::ops::typed::ElementOf), and their
/// result type where it is the same for all: `Self` or one type), so `tf!`
/// checks a call on a type parameter of the kind as on each of its types.
fn element_kinds() -> String {
    let kinds: [(&str, &str, &str, &[DType]); 2] = [
        (
            "Numeric",
            "crate::tensor::Element + crate::ops::typed::FromIntLiteral",
            "The number types (`f32`, `f64`, `bf16`, `f16`, `i32`, `i64`): code \
             generic over them (`fn f<T: rxt_tf::Numeric>`) may call every op that \
             takes all of them, integer literals converting to `T`.",
            rxt_tf_spec::ops::NUMBERS,
        ),
        (
            "Float",
            "Numeric + crate::ops::typed::FromFloatLiteral",
            "The float types (`f32`, `f64`, `bf16`, `f16`): code generic over \
             them (`fn f<T: rxt_tf::Float>`) may call every op that takes all of \
             them, float and integer literals converting to `T`.",
            rxt_tf_spec::ops::FLOATS,
        ),
    ];
    let mut out = String::new();
    for (name, base, doc, types) in kinds {
        let mut bounds = vec![base.to_owned()];
        for op in OPS {
            if !types.iter().all(|dtype| op.dtypes.contains(dtype)) {
                continue;
            }
            let marker = format!("op::{}", op.marker_name());
            bounds.push(format!(
                "{DISPATCH}::ElementOf<{marker}, Accept = {DISPATCH}::Accepted>"
            ));
            let results: Vec<DType> = types.iter().map(|t| op.result_element(*t)).collect();
            let result = if results == types {
                Some("Self".to_owned())
            } else if results.iter().all(|r| *r == results[0]) {
                Some(rust_type(results[0]))
            } else {
                None
            };
            if let Some(result) = result {
                bounds.push(format!(
                    "{DISPATCH}::ResultOf<{marker}, Element = {result}>"
                ));
            }
        }
        let impls: String = types
            .iter()
            .map(|dtype| format!("impl {name} for {} {{}}\n", rust_type(*dtype)))
            .collect();
        let _ = writeln!(
            out,
            "/// {doc}\n///\n\
             /// Implemented for exactly those types. Its supertraits (one per op\n\
             /// of the table) are how `tf!` checks generic calls, not API: bound\n\
             /// code by this trait only.\n\
             #[diagnostic::on_unimplemented(\n    \
             message = \"rxt-tf: `{{Self}}` is not one of the {kind} element types\",\n    \
             label = \"not a {kind} type\"\n)]\n\
             pub trait {name}:\n    {}\n{{}}\n{impls}",
            bounds.join("\n    + "),
            kind = name.to_lowercase(),
        );
    }
    out
}

/// The rule type of `rule`.
fn rule_type(rule: Rule) -> &'static str {
    match rule {
        Rule::SameRank { .. } => "SameRank",
        Rule::Broadcast => "Broadcast",
        Rule::MatMul => "MatMul",
        Rule::BiasAdd => "BiasAdd",
        Rule::Reduce => "Reduce",
        Rule::AlongAxis => "AlongAxis",
        Rule::ArgReduce => "ArgReduce",
        Rule::Permute => "Permute",
        Rule::Convert => "Convert",
        Rule::ExpandDims => "ExpandDims",
        Rule::Shape => "Shape",
        Rule::Squeeze => "Squeeze",
        Rule::Select => "Select",
        Rule::Reshape => "Reshape",
        Rule::PerAxis => "PerAxis",
        Rule::Gather => "Gather",
        Rule::Window => "Window",
        Rule::Join => "Join",
        Rule::Stack => "Stack",
        Rule::Index => "Index",
        Rule::Split => "Split",
        Rule::SplitSizes => "SplitSizes",
        Rule::Unstack => "Unstack",
        Rule::TopK => "TopK",
        Rule::OneHot => "OneHot",
        Rule::Pad => "Pad",
        Rule::Fill => "Fill",
        Rule::Filled => "Filled",
        Rule::Sequence => "Sequence",
        Rule::Clip => "Clip",
        Rule::Sort => "Sort",
        Rule::Eye => "Eye",
        Rule::Moments => "Moments",
        Rule::Conv { .. } => "Conv",
        Rule::Normalize => "Normalize",
        Rule::Einsum { .. } => "Einsum",
        Rule::Pool { .. } => "Pool",
        Rule::Contract => "Contract",
        Rule::FusedNormalize => "FusedNormalize",
    }
}

/// The marker type of `op`, with its row, rule, element types and ranks.
fn marker(out: &mut String, index: usize, op: &Op) {
    let name = op.marker_name();
    let _ = writeln!(
        out,
        "    /// `{}`: {} (TensorFlow `{}`).\n    \
         pub struct {name} {{}}\n    \
         impl {DISPATCH}::OpRow for {name} {{\n        \
         const ROW: &'static rxt_tf_spec::Op = rxt_tf_spec::OPS[{index}];\n        \
         type Rule = crate::ops::rules::{};\n    }}",
        op.name,
        op.summary,
        op.tf_op.to_string_lossy(),
        rule_type(op.rule)
    );
    for dtype in op.dtypes {
        let _ = writeln!(
            out,
            "    {HIDDEN} impl {DISPATCH}::ElementOf<{name}> for {} {{ type Accept = {DISPATCH}::Accepted; }}",
            rust_type(*dtype)
        );
    }
    for dtype in DType::ALL {
        let _ = writeln!(
            out,
            "    {HIDDEN} impl {DISPATCH}::ResultOf<{name}> for {} {{ type Element = {}; }}",
            rust_type(*dtype),
            rust_type(op.result_element(*dtype))
        );
    }
    for position in 0..op.arity() {
        let (low, high) = op.rule.ranks(position);
        for rank in low..=high {
            let _ = writeln!(
                out,
                "    {HIDDEN} impl {DISPATCH}::RankOf<{name}, {}> for crate::tensor::Rank<{rank}> {{ type Accept<X> = X; }}",
                position + 1
            );
        }
    }
    for position in 0..op.arity() {
        let takes = match op.rule.role(position) {
            Role::Dims => "DimsAt",
            Role::Size => "SizeAt",
            Role::Pairs => "PairsAt",
            _ => continue,
        };
        let _ = writeln!(
            out,
            "    {HIDDEN} impl {DISPATCH}::{takes}<{}> for {name} {{ type Accept<X> = X; }}",
            position + 1
        );
    }
    if op.rule.takes_literals() {
        let _ = writeln!(
            out,
            "    {HIDDEN} impl {DISPATCH}::TakesLiterals for {name} {{ type Accept<X> = X; }}"
        );
    }
}

/// The plain function of `op`: operands by reference, typed keywords as
/// generic parameters and checked arguments, the others as arguments.
fn function(out: &mut String, op: &Op) -> Result<(), String> {
    let name = op.name;
    let marker = op.marker_name();
    let params = op.operand_names();
    let generics: Vec<String> = params.iter().map(|p| p.to_uppercase()).collect();
    let mut type_params = Vec::new();
    let mut variant = Vec::new();
    let mut args = Vec::new();
    let mut values = Vec::new();
    let mut docs = Vec::new();
    // The keywords given at run time (bit `i` for keyword `i`): axes and
    // permutations, inputs of a fused trace rather than part of its key.
    let mut runtime: u32 = 0;
    for (index, keyword) in op.keywords.iter().enumerate() {
        let bit = 1_u32 << index;
        let default = match keyword.default {
            Some(value) => format!(", `{}` in `tf!` when omitted", value.rust()),
            None => String::new(),
        };
        if let ([only], Some(_)) = (keyword.allowed, keyword.default) {
            // One possible value: not a parameter (its type, if typed).
            values.push(value_source(only));
            if keyword.typed {
                variant.push(typed_value(keyword, only)?);
            }
            continue;
        }
        let param = keyword.name.to_uppercase();
        let described = match keyword.typed {
            true => match keyword.kind {
                ValueKind::Bool => {
                    type_params.push(format!("const {param}: bool"));
                    variant.push(format!("{DISPATCH}::Flag<{param}>"));
                    values.push(format!("rxt_tf_spec::Value::Bool({param})"));
                    format!("the const parameter `{param}`")
                }
                ValueKind::Int => {
                    runtime |= bit;
                    args.push(format!("{}: i64", keyword.name));
                    variant.push(format!("{DISPATCH}::RuntimeAxes<1>"));
                    values.push(format!("rxt_tf_spec::Value::Int({})", keyword.name));
                    "checked against the rank when the op runs".to_owned()
                }
                ValueKind::Axes | ValueKind::Ints => {
                    runtime |= bit;
                    type_params.push("const N: usize".to_owned());
                    args.push(format!("{}: [i64; N]", keyword.name));
                    variant.push(match keyword.kind {
                        ValueKind::Axes => format!("{DISPATCH}::RuntimeAxes<N>"),
                        _ => format!("{DISPATCH}::Perm<N>"),
                    });
                    values.push(format!("{ENTRY}::interned(&{})?", keyword.name));
                    "checked against the rank when the op runs".to_owned()
                }
                ValueKind::Type => {
                    let param = "OutputType";
                    type_params.push(format!("{param}: crate::Element"));
                    variant.push(param.to_owned());
                    values.push(format!(
                        "rxt_tf_spec::Value::Type(<{param} as crate::Element>::DTYPE)"
                    ));
                    format!("the type parameter `{param}`")
                }
                ValueKind::Contraction => {
                    // A count: the last `axes` axes of the first operand
                    // with the first `axes` of the second, checked with
                    // the result's rank `OUT` when the op runs.
                    type_params.push("const OUT: usize".to_owned());
                    args.push(format!("{}: i64", keyword.name));
                    variant.push(format!("{DISPATCH}::ContractedTo<OUT>"));
                    values.push(format!("rxt_tf_spec::Value::Int({})", keyword.name));
                    "a count, with the const parameter `OUT` (the result's rank), checked \
                     when the op runs"
                        .to_owned()
                }
                ValueKind::Count => {
                    type_params.push(format!("const {param}: usize"));
                    variant.push(format!("{DISPATCH}::Count<{param}>"));
                    values.push(format!("rxt_tf_spec::Value::Int({param} as i64)"));
                    format!("the const parameter `{param}`")
                }
                ValueKind::Equation => {
                    // The ranks the subscripts give: the result's, then
                    // each operand's (checked against the equation when the
                    // op runs).
                    let mut ranks = vec!["OUT".to_owned(), "RANK_A".to_owned()];
                    for (position, rank) in [(1, "RANK_B"), (2, "RANK_C")] {
                        ranks.push(if op.arity() > position { rank } else { "0" }.to_owned());
                    }
                    for rank in ranks.iter().filter(|rank| *rank != "0") {
                        type_params.push(format!("const {rank}: usize"));
                    }
                    args.push(format!("{}: &'static str", keyword.name));
                    variant.push(format!("{DISPATCH}::Equation<{}>", ranks.join(", ")));
                    values.push(format!("rxt_tf_spec::Value::Str({})", keyword.name));
                    "with const parameters `OUT` (the result's rank) and `RANK_A`, `RANK_B`, \
                     `RANK_C` (the operands'), checked against it when the op runs"
                        .to_owned()
                }
                ValueKind::Float
                | ValueKind::Str
                | ValueKind::Number
                | ValueKind::Spatial
                | ValueKind::Volume => {
                    return Err(format!(
                        "{name}.{}: a {:?} keyword cannot be typed",
                        keyword.name, keyword.kind
                    ))
                }
            },
            false => {
                let (ty, value) = match keyword.kind {
                    ValueKind::Bool => ("bool", "Bool"),
                    ValueKind::Int | ValueKind::Count => ("i64", "Int"),
                    ValueKind::Str => ("&'static str", "Str"),
                    // One size for every spatial axis, or one per axis.
                    ValueKind::Spatial | ValueKind::Volume => ("&'static [i64]", "Ints"),
                    // An integral value also fills an integer tensor.
                    ValueKind::Number => ("f64", "Float"),
                    ValueKind::Float => ("f64", "Float"),
                    other => {
                        return Err(format!(
                            "{name}.{}: a {other:?} keyword needs a single allowed value",
                            keyword.name
                        ))
                    }
                };
                if keyword.name == "axis" && keyword.kind == ValueKind::Int {
                    runtime |= bit;
                }
                args.push(format!("{}: {ty}", keyword.name));
                values.push(format!("rxt_tf_spec::Value::{value}({})", keyword.name));
                format!("`{}`", keyword.name)
            }
        };
        docs.push(format!(
            "/// - `{}` ({described}): {}{default}.",
            keyword.name,
            keyword.allowed_text()
        ));
    }
    let variant = match variant.is_empty() {
        true => "()".to_owned(),
        false => format!("({},)", variant.join(", ")),
    };
    let operand_types: Vec<String> = generics
        .iter()
        .map(|g| format!("{DISPATCH}::OperandType<{g}>"))
        .collect();
    let operands = format!("({},)", operand_types.join(", "));
    let signature = format!(
        "<op::{marker} as {DISPATCH}::OpRow>::Rule: {DISPATCH}::Signature<op::{marker}, {operands}, {variant}>"
    );
    let output = format!("{DISPATCH}::Output<op::{marker}, {operands}, {variant}>");
    let mut all_generics = type_params;
    all_generics.extend(generics.iter().cloned());
    let mut all_args: Vec<String> = params
        .iter()
        .zip(&generics)
        .map(|(p, g)| format!("{p}: &{g}"))
        .collect();
    all_args.extend(args);
    let mut bounds: Vec<String> = generics
        .iter()
        .map(|g| format!("{g}: {DISPATCH}::AsOperand + ?Sized"))
        .collect();
    bounds.extend(
        operand_types
            .iter()
            .enumerate()
            .map(|(index, ty)| format!("{ty}: {DISPATCH}::OperandOf<op::{marker}, {}>", index + 1)),
    );
    let borrowed: Vec<String> = params
        .iter()
        .map(|p| format!("{DISPATCH}::AsOperand::as_operand({p})"))
        .collect();
    let keyword_docs = match docs.is_empty() {
        true => String::new(),
        false => format!("///\n/// Keywords:\n{}\n", docs.join("\n")),
    };
    let _ = writeln!(
        out,
        "/// {}: `tf!({name}(...))` as a function (TensorFlow `{}`); takes {}.\n\
         {keyword_docs}\
         #[allow(clippy::type_complexity, clippy::too_many_arguments)]\n\
         pub fn {}<{}>({}) -> crate::Result<{output}>\n\
         where\n    {},\n    {signature},\n\
         {{\n    {ENTRY}::execute_given::<op::{marker}, _, {variant}>(({},), &[{}], {runtime})\n}}\n",
        capitalized(op.summary),
        op.tf_op.to_string_lossy(),
        op.operands_text(),
        function_name(name),
        all_generics.join(", "),
        all_args.join(", "),
        bounds.join(",\n    "),
        borrowed.join(", "),
        values.join(", ")
    );
    Ok(())
}

/// The Rust name of the function of op `name`: raw where it is a keyword
/// (`r#where`).
fn function_name(name: &str) -> String {
    match name {
        "where" => format!("r#{name}"),
        _ => name.to_owned(),
    }
}

/// The type that carries the fixed value of a typed keyword, as `tf!`
/// writes it: `Axes<1, FITS>`, `Count<N>`, `Flag<B>` or the element type.
fn typed_value(keyword: &rxt_tf_spec::Keyword, value: &Value) -> Result<String, String> {
    Ok(match (keyword.kind, value) {
        (ValueKind::Count, Value::Int(count)) => format!("{DISPATCH}::Count<{count}>"),
        (_, Value::Int(axis)) => {
            let fits = rxt_tf_spec::fits_mask(&[*axis]);
            format!("{DISPATCH}::Axes<1, {fits}>")
        }
        (_, Value::Bool(flag)) => format!("{DISPATCH}::Flag<{flag}>"),
        (_, Value::Type(dtype)) => rust_type(*dtype),
        _ => {
            return Err(format!(
                "{}: no fixed typed value for {value:?}",
                keyword.name
            ))
        }
    })
}

/// `value` as Rust source building an `rxt_tf_spec::Value`.
fn value_source(value: &Value) -> String {
    match value {
        Value::Bool(flag) => format!("rxt_tf_spec::Value::Bool({flag})"),
        Value::Int(int) => format!("rxt_tf_spec::Value::Int({int})"),
        Value::Float(float) => format!("rxt_tf_spec::Value::Float({float:?})"),
        Value::Ints(ints) => format!("rxt_tf_spec::Value::Ints(&{ints:?})"),
        Value::Type(dtype) => format!("rxt_tf_spec::Value::Type(rxt_tf_spec::DType::{dtype:?})"),
        Value::Str(text) => format!("rxt_tf_spec::Value::Str({text:?})"),
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
