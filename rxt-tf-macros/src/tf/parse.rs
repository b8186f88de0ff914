//! Parsing: the raw syntax of `tf_impl!` input, split into the shapes
//! `tf!` knows (an op call, a binary operator) without judging them.

use proc_macro2::{TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{BinOp, Expr, ExprCall, Token, UnOp};

use crate::tf::index::{index_syntax, IndexSyntax};
use crate::tf::literal::number_literal;

/// `tf_impl!(<crate path tokens>; <expr>)`.
pub(crate) struct TfInput {
    /// The path of the rxt-tf crate (`$crate` from the `tf!` front).
    pub(crate) krate: TokenStream,
    /// The user's expression.
    pub(crate) body: Body,
}

/// What `tf!` is given.
pub(crate) enum Body {
    /// An expression: an op call or an operator.
    Expr(Expr),
    /// Python's indexing, `x[:, 0]`.
    Index(IndexSyntax),
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
        if !input.peek(Token![where]) {
            let tokens: Vec<TokenTree> = input.fork().parse::<TokenStream>()?.into_iter().collect();
            if let Some(index) = index_syntax(&tokens) {
                input.parse::<TokenStream>()?;
                return Ok(TfInput {
                    krate,
                    body: Body::Index(index?),
                });
            }
        }
        let expr = match input.peek(Token![where]) {
            true => keyword_call(input)?,
            false => input.parse()?,
        };
        if !input.is_empty() {
            return Err(input.error("rxt-tf: `tf!` takes one expression"));
        }
        Ok(TfInput {
            krate,
            body: Body::Expr(expr),
        })
    }
}

/// `where(c, a, b)`: a call of the op `where`, which is a Rust keyword, as
/// a call of `r#where`.
fn keyword_call(input: ParseStream<'_>) -> syn::Result<Expr> {
    let keyword: Token![where] = input.parse()?;
    let content;
    let paren = syn::parenthesized!(content in input);
    let args = content.parse_terminated(Expr::parse, Token![,])?;
    let name = proc_macro2::Ident::new_raw("where", keyword.span);
    Ok(Expr::Call(ExprCall {
        attrs: Vec::new(),
        func: Box::new(syn::parse_quote!(#name)),
        paren_token: paren,
        args,
    }))
}

/// The shape of a `tf!` expression.
pub(crate) enum Syntax<'a> {
    /// `name(args...)`.
    Call(&'a ExprCall, Vec<Arg<'a>>),
    /// `left <op> right`.
    Operator(&'a BinOp, &'a Expr, &'a Expr),
    /// `-operand`.
    Negation(&'a UnOp, &'a Expr),
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
        // An expression forwarded through a `macro_rules!` `$e:expr`.
        Expr::Group(inner) => syntax(&inner.expr),
        Expr::Binary(binary) => Syntax::Operator(&binary.op, &binary.left, &binary.right),
        Expr::Unary(unary)
            if matches!(unary.op, UnOp::Neg(_)) && number_literal(expr).is_none() =>
        {
            Syntax::Negation(&unary.op, &unary.expr)
        }
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
