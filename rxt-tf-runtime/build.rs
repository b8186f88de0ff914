//! Generates what the runtime derives from the tables of `rxt-tf-spec`:
//!
//! - `active_profile.rs`: the platform profile of the target being built,
//!   or a `compile_error!` that names the target and the supported profiles;
//! - `ops.rs`: the typed dispatch of every op row (a marker type per op, the
//!   operand sets it accepts, a `Signature` impl per accepted combination of
//!   operands and typed keywords) and the plain function of each op.

use std::fmt::Write as _;
use std::{env, fs, path::PathBuf};

use rxt_tf_spec::platform;
use rxt_tf_spec::{Keyword, Op, Operand, Signature, TensorKind, Value, ValueKind, OPS};

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
    for (name, code) in [("active_profile.rs", profile), ("ops.rs", ops)] {
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

const DISPATCH: &str = "crate::ops::dispatch";

/// The generated `ops.rs`, included by `src/ops/mod.rs`.
fn ops_module() -> Result<String, String> {
    let mut markers = String::new();
    let mut functions = String::new();
    let mut sets: Vec<Vec<Operand>> = Vec::new();
    for (index, op) in OPS.iter().enumerate() {
        marker(&mut markers, index, op, &mut sets)?;
        function(&mut functions, op)?;
    }
    let mut accepts = String::new();
    for set in &sets {
        accepted_set(&mut accepts, set);
    }
    Ok(format!(
        "/// The ops of the table as types: `tf!` names them in its expansion,\n\
         /// and compile errors name them.\n\
         pub mod op {{\n{markers}}}\n\n\
         /// The sets of operand types the ops accept at a position.\n\
         pub mod accepts {{\n{accepts}}}\n\n{functions}"
    ))
}

/// The marker type of `op`, with its row, slots and signatures.
fn marker(
    out: &mut String,
    index: usize,
    op: &Op,
    sets: &mut Vec<Vec<Operand>>,
) -> Result<(), String> {
    let name = op.marker_name();
    let _ = writeln!(
        out,
        "    /// `{}`: {} (TensorFlow `{}`).\n    \
         pub struct {name} {{}}\n    \
         impl {DISPATCH}::OpRow for {name} {{\n        \
         const ROW: &'static rxt_tf_spec::Op = rxt_tf_spec::OPS[{index}];\n    }}",
        op.name,
        op.summary,
        op.tf_op.to_string_lossy()
    );
    // Each signature under each of its typed-keyword variants.
    let mut by_variant: Vec<(String, Vec<&Signature>)> = Vec::new();
    for signature in op.signatures {
        for variant in variants(op, signature)? {
            match by_variant.iter_mut().find(|(known, _)| *known == variant) {
                Some((_, signatures)) => signatures.push(signature),
                None => by_variant.push((variant, vec![signature])),
            }
        }
    }
    for (variant, signatures) in &by_variant {
        // What each position accepts under this variant, so a rank that the
        // keywords rule out is reported at the operand.
        for position in 0..op.arity() {
            let mut set = Vec::new();
            for signature in signatures {
                if let Some(operand) = signature.operands.get(position) {
                    if !set.contains(operand) {
                        set.push(*operand);
                    }
                }
            }
            let set = canonical(set);
            let _ = writeln!(
                out,
                "    impl {DISPATCH}::Slot<{}, {variant}> for {name} {{ type Accepts = super::accepts::{}; }}",
                position + 1,
                set_name(&set)
            );
            if !sets.contains(&set) {
                sets.push(set);
            }
        }
        for signature in signatures {
            let operands: Vec<String> = signature.operands.iter().map(operand_type).collect();
            let _ = writeln!(
                out,
                "    impl {DISPATCH}::Signature<({},), {variant}> for {name} {{ type Output = {}; }}",
                operands.join(", "),
                tensor_type(signature.result)
            );
        }
    }
    Ok(())
}

/// The typed-keyword variants of one signature: every combination of the
/// values it allows, as the tuple type `tf!` names.
fn variants(op: &Op, signature: &Signature) -> Result<Vec<String>, String> {
    let mut variants = vec![Vec::<String>::new()];
    for keyword in op.typed_keywords() {
        let values: &[Value] = match signature.when.iter().find(|(k, _)| *k == keyword.name) {
            Some((_, values)) => values,
            None => keyword.allowed,
        };
        let mut next = Vec::new();
        for prefix in &variants {
            for value in values {
                let mut variant = prefix.clone();
                variant.push(variant_type(op, keyword, value)?);
                next.push(variant);
            }
        }
        variants = next;
    }
    Ok(variants
        .into_iter()
        .map(|parts| match parts.is_empty() {
            true => "()".to_owned(),
            false => format!("({},)", parts.join(", ")),
        })
        .collect())
}

fn variant_type(op: &Op, keyword: &Keyword, value: &Value) -> Result<String, String> {
    match value {
        Value::Bool(flag) => Ok(format!("{DISPATCH}::Flag<{flag}>")),
        Value::Int(int) => Ok(format!("{DISPATCH}::Int<{int}>")),
        other => Err(format!(
            "{}.{}: a typed keyword must be a bool or an int, not {other:?}",
            op.name, keyword.name
        )),
    }
}

/// `set` in one order, so equal sets are one type whatever the order the
/// signatures list their members in.
fn canonical(mut set: Vec<Operand>) -> Vec<Operand> {
    set.sort_by_key(|operand| match operand {
        Operand::Tensor(kind) => (kind.dtype.code(), kind.rank),
        Operand::Scalar => (i32::MAX, 0),
    });
    set
}

/// One accepted set and the `OperandOf` impls of its members.
fn accepted_set(out: &mut String, set: &[Operand]) {
    let name = set_name(set);
    let members: Vec<String> = set.iter().map(operand_type).collect();
    let _ = writeln!(
        out,
        "    /// Accepts {}.\n    pub struct {name} {{}}",
        members.join(", ")
    );
    for member in members {
        let _ = writeln!(
            out,
            "    impl<Op, const P: usize> {DISPATCH}::OperandOf<Op, {name}, P> for {member} {{\n        \
             type Checked = Self;\n        \
             fn checked(&self) -> &Self {{ self }}\n    }}"
        );
    }
}

/// `Rank2Tensor`, `Rank1Or2Tensor`, `Rank1Or2TensorOrScalar`: the name of
/// an accepted set.
fn set_name(set: &[Operand]) -> String {
    let mut ranks: Vec<u8> = set
        .iter()
        .filter_map(|operand| match operand {
            Operand::Tensor(kind) => Some(kind.rank),
            Operand::Scalar => None,
        })
        .collect();
    ranks.sort_unstable();
    let ranks: Vec<String> = ranks.iter().map(u8::to_string).collect();
    let scalar = set.contains(&Operand::Scalar);
    match (ranks.is_empty(), scalar) {
        (true, _) => "ScalarOnly".to_owned(),
        (false, false) => format!("Rank{}Tensor", ranks.join("Or")),
        (false, true) => format!("Rank{}TensorOrScalar", ranks.join("Or")),
    }
}

fn operand_type(operand: &Operand) -> String {
    match operand {
        Operand::Tensor(kind) => tensor_type(*kind),
        Operand::Scalar => format!("{DISPATCH}::Scalar"),
    }
}

fn tensor_type(kind: TensorKind) -> String {
    format!("crate::{}", kind.type_name())
}

/// The plain function of `op`: operands by reference, typed keywords as
/// const parameters, the others as arguments.
fn function(out: &mut String, op: &Op) -> Result<(), String> {
    let name = op.name;
    let marker = op.marker_name();
    let params = op.operand_names();
    let generics: Vec<String> = params.iter().map(|p| p.to_uppercase()).collect();
    let mut const_params = Vec::new();
    let mut variant = Vec::new();
    let mut args = Vec::new();
    let mut values = Vec::new();
    let mut docs = Vec::new();
    for keyword in op.keywords {
        let default = match keyword.default {
            Some(value) => format!(", `{}` in `tf!` when omitted", value.rust()),
            None => String::new(),
        };
        if let ([only], Some(_)) = (keyword.allowed, keyword.default) {
            // One possible value: not a parameter.
            values.push(value_source(only));
            continue;
        }
        if keyword.typed {
            let param = keyword.name.to_uppercase();
            let (ty, wrapper, value) = match keyword.kind {
                ValueKind::Bool => ("bool", "Flag", "Bool"),
                ValueKind::Int => ("i64", "Int", "Int"),
                other => {
                    return Err(format!(
                        "{name}.{}: a typed keyword cannot be {other:?}",
                        keyword.name
                    ))
                }
            };
            const_params.push(format!("const {param}: {ty}"));
            variant.push(format!("{DISPATCH}::{wrapper}<{param}>"));
            values.push(format!("rxt_tf_spec::Value::{value}({param})"));
            docs.push(format!(
                "/// - `{}` (the const parameter `{param}`): {}{default}.",
                keyword.name,
                keyword.allowed_text()
            ));
        } else {
            let (ty, value) = match keyword.kind {
                ValueKind::Bool => ("bool", "Bool"),
                ValueKind::Int => ("i64", "Int"),
                ValueKind::Float => ("f64", "Float"),
                other => {
                    return Err(format!(
                        "{name}.{}: a {other:?} keyword needs a single allowed value",
                        keyword.name
                    ))
                }
            };
            args.push(format!("{}: {ty}", keyword.name));
            values.push(format!("rxt_tf_spec::Value::{value}({})", keyword.name));
            docs.push(format!(
                "/// - `{}`: {}{default}.",
                keyword.name,
                keyword.allowed_text()
            ));
        }
    }
    let variant = match variant.is_empty() {
        true => "()".to_owned(),
        false => format!("({},)", variant.join(", ")),
    };
    let operand_types: Vec<String> = generics
        .iter()
        .map(|g| format!("{DISPATCH}::OperandType<{g}>"))
        .collect();
    let signature = format!(
        "op::{marker}: {DISPATCH}::Signature<({},), {variant}>",
        operand_types.join(", ")
    );
    let output = format!(
        "{DISPATCH}::Output<op::{marker}, ({},), {variant}>",
        operand_types.join(", ")
    );
    let mut all_generics = const_params;
    all_generics.extend(generics.iter().cloned());
    let mut all_args: Vec<String> = params
        .iter()
        .zip(&generics)
        .map(|(p, g)| format!("{p}: &{g}"))
        .collect();
    all_args.extend(args);
    let bounds: Vec<String> = generics
        .iter()
        .map(|g| format!("{g}: {DISPATCH}::AsOperand + ?Sized"))
        .collect();
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
        "/// {}: `tf!({name}(...))` as a function (TensorFlow `{}`); accepts {}.\n\
         {keyword_docs}\
         #[allow(clippy::type_complexity)]\n\
         pub fn {name}<{}>({}) -> crate::Result<{output}>\n\
         where\n    {},\n    {signature},\n\
         {{\n    {DISPATCH}::execute::<op::{marker}, _, {variant}>(({},), &[{}])\n}}\n",
        capitalized(op.summary),
        op.tf_op.to_string_lossy(),
        op.ranks_text(),
        all_generics.join(", "),
        all_args.join(", "),
        bounds.join(",\n    "),
        borrowed.join(", "),
        values.join(", ")
    );
    Ok(())
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
