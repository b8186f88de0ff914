//! Parsing: the raw syntax of `tf_impl!` input, split into the shapes
//! `tf!` knows (an op call, a binary operator) without judging them.

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{BinOp, Expr, ExprCall, Token};

/// `tf_impl!(<crate path tokens>; <expr>)`.
pub(crate) struct TfInput {
    /// The path of the rxt-tf crate (`$crate` from the `tf!` front).
    pub(crate) krate: TokenStream,
    /// The user's expression.
    pub(crate) expr: Expr,
}

impl Parse for TfInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut krate = TokenStream::new();
        while !input.peek(Token![;]) {
            if input.is_empty() {
                return Err(input
                    .error("rxt-tf: expected `<crate path>; <expression>`; use the `tf!` macro"));
            }
            krate.extend([input.parse::<TokenTree>()?]);
        }
        input.parse::<Token![;]>()?;
        if input.is_empty() {
            return Err(input.error(
                "rxt-tf: `tf!` needs an op call such as `tf!(matmul(x, w))` or a sum `tf!(a + b)`",
            ));
        }
        let expr = input.parse()?;
        if !input.is_empty() {
            return Err(input.error("rxt-tf: `tf!` takes one expression"));
        }
        Ok(TfInput { krate, expr })
    }
}

/// The shape of a `tf!` expression.
pub(crate) enum Syntax<'a> {
    /// `name(args...)`.
    Call(&'a ExprCall, Vec<Arg<'a>>),
    /// `left <op> right`.
    Operator(&'a BinOp, &'a Expr, &'a Expr),
    /// Anything else.
    Other(&'a Expr),
}

/// One argument of an op call.
pub(crate) enum Arg<'a> {
    /// An operand.
    Positional(&'a Expr),
    /// `key = value`.
    Keyword(&'a Expr, &'a Expr),
}

/// Splits `expr` into its shape, looking through parentheses.
pub(crate) fn syntax(expr: &Expr) -> Syntax<'_> {
    match expr {
        Expr::Paren(inner) => syntax(&inner.expr),
        Expr::Binary(binary) => Syntax::Operator(&binary.op, &binary.left, &binary.right),
        Expr::Call(call) => {
            let args = call
                .args
                .iter()
                .map(|arg| match arg {
                    Expr::Assign(assign) => Arg::Keyword(&assign.left, &assign.right),
                    positional => Arg::Positional(positional),
                })
                .collect();
            Syntax::Call(call, args)
        }
        other => Syntax::Other(other),
    }
}
