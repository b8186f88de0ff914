//! What the rows are built from: the element-type sets, the attributes and
//! inputs most ops share, the Rextio rule builders, and the `const fn`s of
//! the common row shapes (element-wise, broadcasting), so a new element-wise
//! op is one call.

use core::ffi::CStr;

use crate::model::{
    Attr, AttrValue, DType, Input, Op, PythonRule, Rule, SiteKind, Steps, Value, Work,
};

/// Float element types: the ops whose CPU kernels are float-only.
pub const FLOATS: &[DType] = &[DType::F32, DType::F64, DType::BF16, DType::F16];

/// Numeric element types: the ops whose CPU kernels also take integers.
pub const NUMBERS: &[DType] = &[
    DType::F32,
    DType::F64,
    DType::BF16,
    DType::F16,
    DType::I32,
    DType::I64,
];

/// Bool only: the logical ops.
pub const BOOLS: &[DType] = &[DType::Bool];

/// `T`, the element type attribute of every op here.
pub(super) const T: Attr = Attr {
    name: c"T",
    value: AttrValue::Element,
};

/// `Tidx = int32`: the type of an axis input.
pub(super) const TIDX_I32: Attr = Attr {
    name: c"Tidx",
    value: AttrValue::Fixed(Value::Type(DType::I32)),
};

pub(super) const UNARY_INPUTS: &[Input] = &[Input::Operand(0)];

pub(super) const BINARY_INPUTS: &[Input] = &[Input::Operand(0), Input::Operand(1)];

/// The Rextio rule of a call form.
pub(super) const fn calls(
    targets: &'static [&'static str],
    rule_id: &'static str,
    code: u16,
    detail: &'static str,
) -> PythonRule {
    PythonRule {
        kind: SiteKind::Call,
        targets,
        rule_id,
        code,
        detail,
        positional: &[],
        python_only: &[],
        macro_only: &[],
        leading_literal_keeps_its_type: false,
        renamed: &[],
        matching_dtype: None,
        other_dtype_casts: false,
        needs_literal: false,
        scalar_shape: false,
        omitted_axis_is_every_axis: false,
    }
}

/// The Rextio rule of a binary operator form.
pub(super) const fn binop(
    token: &'static [&'static str],
    rule_id: &'static str,
    code: u16,
    detail: &'static str,
) -> PythonRule {
    PythonRule {
        kind: SiteKind::Binop,
        targets: token,
        rule_id,
        code,
        detail,
        positional: &[],
        python_only: &[],
        macro_only: &[],
        leading_literal_keeps_its_type: false,
        renamed: &[],
        matching_dtype: None,
        other_dtype_casts: false,
        needs_literal: false,
        scalar_shape: false,
        omitted_axis_is_every_axis: false,
    }
}

/// The Rextio rule of a comparison operator form (`a > b`; plugin API 1.5).
/// `needs_literal`: `a == b` and `a != b`, which give a scalar where the
/// shapes do not broadcast, take a tensor and a literal only.
pub(super) const fn compare(
    token: &'static [&'static str],
    rule_id: &'static str,
    code: u16,
    detail: &'static str,
    needs_literal: bool,
) -> PythonRule {
    PythonRule {
        kind: SiteKind::Compare,
        needs_literal,
        ..binop(token, rule_id, code, detail)
    }
}

/// The rest of an element-wise op's constraint, after its one tensor.
pub(super) const UNARY_DETAIL: &str = ", positional, no keywords";

/// The rest of a broadcasting call's constraint, after its two tensors.
pub(super) const BINARY_DETAIL: &str = ", broadcasting, or one of them and a literal; no keywords";

/// The rest of a broadcasting operator's constraint.
pub(super) const OPERATOR_DETAIL: &str = ", broadcasting, or one of them and a literal";

/// An element-wise op of one tensor with no keywords, on `dtypes`.
pub(super) const fn elementwise(
    name: &'static str,
    summary: &'static str,
    tf_op: &'static CStr,
    dtypes: &'static [DType],
    python: &'static [PythonRule],
) -> Op {
    Op {
        name,
        operator: None,
        summary,
        tf_op,
        rule: Rule::SameRank { min_rank: 0 },
        dtypes,
        keywords: &[],
        attrs: &[T],
        batched: None,
        promotion: None,
        result_type: None,
        positional: &[],
        inputs: UNARY_INPUTS,
        work: Work::FirstInput,
        steps: Steps::One,
        python,
    }
}

/// A broadcasting binary op of two tensors, or a tensor and a literal.
pub(super) const fn broadcasting(
    name: &'static str,
    operator: Option<&'static str>,
    summary: &'static str,
    tf_op: &'static CStr,
    dtypes: &'static [DType],
    python: &'static [PythonRule],
) -> Op {
    Op {
        name,
        operator,
        summary,
        tf_op,
        rule: Rule::Broadcast,
        dtypes,
        keywords: &[],
        attrs: &[T],
        batched: None,
        promotion: None,
        result_type: None,
        positional: &[],
        inputs: BINARY_INPUTS,
        work: Work::LargerInput,
        steps: Steps::One,
        python,
    }
}
