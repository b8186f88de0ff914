//! Validation of an `#[inference]` function: options, signature and the
//! injected test target, every error collected.

use quote::ToTokens;
use rxt_tf_spec::platform;
use syn::spanned::Spanned;
use syn::{FnArg, ItemFn, Pat, ReturnType, Type};

use crate::errors::Errors;
use crate::inference::model::{InferenceFn, Options};
use crate::inference::parse::AttrArg;

/// The model of `function` with `args`, recording every problem in `errors`.
pub(crate) fn inference_fn(
    function: ItemFn,
    args: syn::Result<Vec<AttrArg>>,
    errors: &mut Errors,
) -> InferenceFn {
    let options = match args {
        Ok(args) => options(args, errors),
        Err(err) => {
            errors.add(err);
            Options::default()
        }
    };
    check_signature(&function, errors);
    if let Some(target) = &options.target {
        check_injected_target(target, errors);
    }
    // Types the expansion can name (not `impl Trait`) are checked by trait,
    // so aliases work and any type the runtime extracts is accepted.
    let nameable = |ty: &Type| !matches!(ty, Type::ImplTrait(_) | Type::Infer(_));
    let parameter_types = function
        .sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            FnArg::Typed(typed) if nameable(&typed.ty) => Some((*typed.ty).clone()),
            _ => None,
        })
        .collect();
    let return_type = match &function.sig.output {
        ReturnType::Type(_, ty) if nameable(ty) => Some((**ty).clone()),
        _ => None,
    };
    InferenceFn {
        function,
        options,
        parameter_types,
        return_type,
    }
}

fn options(args: Vec<AttrArg>, errors: &mut Errors) -> Options {
    let mut options = Options::default();
    let mut fuse_span = None;
    for arg in args {
        match (&arg.key, arg.value) {
            (key, syn::Lit::Str(value)) if key.is_ident("crate") => {
                match value.parse::<syn::Path>() {
                    Ok(path) => options.krate = path.to_token_stream(),
                    Err(err) => errors.add(err),
                }
            }
            (key, syn::Lit::Str(value)) if key.is_ident("__target") => {
                options.target = Some(value);
            }
            (key, syn::Lit::Bool(value)) if key.is_ident("fuse") => {
                options.fuse = value.value;
                fuse_span = Some(value.span());
            }
            (key, syn::Lit::Str(value))
                if key.is_ident("backend")
                    && ["litert", "tensorflow"].contains(&value.value().as_str()) =>
            {
                options.litert = value.value() == "litert";
            }
            (key, value)
                if ["crate", "fuse", "backend", "__target"]
                    .iter()
                    .any(|k| key.is_ident(k)) =>
            {
                let expected = if key.is_ident("fuse") {
                    "`true` or `false`"
                } else if key.is_ident("backend") {
                    "`\"tensorflow\"` (the default) or `\"litert\"`"
                } else if key.is_ident("crate") {
                    "a string literal naming the crate's path"
                } else {
                    "a string literal naming a target triple"
                };
                errors.push(
                    &value,
                    format!(
                        "rxt-tf: #[inference] option `{}` takes {expected}",
                        key.to_token_stream()
                    ),
                );
            }
            (key, _) => errors.push(
                key,
                format!(
                    "rxt-tf: unknown #[inference] option `{}`; the options are `fuse = false`, `backend = \"litert\"` and `crate = \"path\"`",
                    key.to_token_stream()
                ),
            ),
        }
    }
    if let (true, false, Some(span)) = (options.litert, options.fuse, fuse_span) {
        errors.add(syn::Error::new(
            span,
            "rxt-tf: `fuse = false` runs the body per op on TensorFlow, and `backend = \"litert\"` runs its fused trace through LiteRT: choose one",
        ));
    }
    options
}

fn check_signature(function: &ItemFn, errors: &mut Errors) {
    let sig = &function.sig;
    if let Some(token) = &sig.asyncness {
        errors.push(
            token,
            "rxt-tf: #[inference] functions cannot be `async`; TensorFlow ops run synchronously",
        );
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.push_at(
            sig.generics.span(),
            "rxt-tf: #[inference] functions cannot be generic; name the tensor types \
                 (`TensorF32Cpu2D`, `TensorI32Cpu1D`, …)",
        );
    }
    for input in &sig.inputs {
        match input {
            // A method of a model (`#[pymethods]`) reads its tensors through
            // `&self`; it must not move or change them.
            FnArg::Receiver(receiver)
                if receiver.reference.is_none() || receiver.mutability.is_some() =>
            {
                errors.push(
                    receiver,
                    "rxt-tf: #[inference] methods take `&self` (tensors held in a model are \
                     borrowed by `tf!`, not moved or changed)",
                )
            }
            FnArg::Receiver(_) => {}
            FnArg::Typed(typed) => {
                if !matches!(&*typed.pat, Pat::Ident(_) | Pat::Wild(_)) {
                    errors.push(&typed.pat, "rxt-tf: parameters must be plain names");
                }
            }
        }
    }
    if let ReturnType::Default = &sig.output {
        errors.push_at(
            sig.ident.span(),
            "rxt-tf: #[inference] functions must return a `Result`, e.g. `rxt_tf::Result<TensorF32Cpu1D>` or `PyResult<...>`, so op errors reach Python",
        );
    }
}

/// The error for an unsupported injected target (the test hook), from the
/// same platform table the runtime's build uses.
fn check_injected_target(target: &syn::LitStr, errors: &mut Errors) {
    let triple = target.value();
    let (arch, os, env) = platform::target_cfg(&triple);
    if platform::profile_index(&arch, &os, &env).is_none() {
        errors.push(target, platform::unsupported_target_message(&triple));
    }
}
