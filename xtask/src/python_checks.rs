//! The facts the Rextio plugin checks sites with, rendered from the crate's
//! own functions into `spec.py`, so the plugin looks them up instead of
//! keeping a copy: rule names, integer bounds, the element types of fixed
//! roles, axis normalization, tensordot's counted axes and the axis-misfit
//! wording.

use std::fmt::Write as _;

use rxt_tf_spec::axes::{misfit_message, normalized, Contraction};
use rxt_tf_spec::{DType, Role, Rule, MAX_RANK};

use crate::python::{role_name, string, tuple};

/// Every role, so a new one is rendered (or fails to compile here).
const ROLES: [Role; 7] = [
    Role::Element,
    Role::Condition,
    Role::Dims,
    Role::Indices,
    Role::Tensors,
    Role::Size,
    Role::Pairs,
];

/// Appends the checks' tables to `spec.py`.
pub(crate) fn checks(out: &mut String, rules: &[Rule]) {
    let mut names: Vec<String> = Vec::new();
    for rule in rules {
        let name = string(rule.name());
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let _ = writeln!(
        out,
        "\nRULE_NAMES: tuple[str, ...] = {}\n\"\"\"Every typing rule of the table: the plugin \
         has one rule function for each.\"\"\"\n",
        tuple(&names)
    );
    out.push_str("INT_BOUNDS: dict[str, tuple[int, int]] = {\n");
    for dtype in DType::ALL {
        if let Some((least, most)) = dtype.int_bounds() {
            let _ = writeln!(out, "    {}: ({least}, {most}),", string(dtype.name()));
        }
    }
    out.push_str(
        "}\n\"\"\"The least and greatest value of each integer element type (an int beside \
         a tensor of it must fit).\"\"\"\n\n",
    );
    out.push_str("ROLE_DTYPES: dict[str, tuple[str, ...]] = {\n");
    for role in ROLES {
        if let Some(dtypes) = role.fixed_dtypes() {
            let names: Vec<String> = dtypes.iter().map(|d| string(d.name())).collect();
            let _ = writeln!(out, "    {}: {},", string(role_name(role)), tuple(&names));
        }
    }
    out.push_str(
        "}\n\"\"\"The element types a tensor in a fixed-type role must have (a condition, \
         indices), whatever the op's.\"\"\"\n\n",
    );
    out.push_str("NORMALIZED_AXES: dict[int, dict[int, int]] = {\n");
    let bound = i64::from(MAX_RANK);
    for rank in 0..=MAX_RANK {
        let axes: Vec<String> = (-bound..bound)
            .filter_map(|axis| normalized(axis, rank).map(|index| format!("{axis}: {index}")))
            .collect();
        let _ = writeln!(out, "    {rank}: {{{}}},", axes.join(", "));
    }
    out.push_str(
        "}\n\"\"\"Each axis of a tensor of each rank, as written (negative from the last) → \
         counted from the front.\"\"\"\n\n",
    );
    out.push_str("COUNTED_AXES: dict[tuple[int, int, int], tuple[int, ...]] = {\n");
    for count in 0..=usize::from(MAX_RANK) {
        for side in 0..2 {
            for rank in 0..=MAX_RANK {
                if let Some(axes) = Contraction::Count(count).axes(side, rank) {
                    let items: Vec<String> = axes.iter().map(usize::to_string).collect();
                    let _ = writeln!(out, "    ({count}, {side}, {rank}): {},", tuple(&items));
                }
            }
        }
    }
    out.push_str(
        "}\n\"\"\"`tensordot`'s `axes=n`: (n, operand 0 or 1, its rank) → the axes it \
         contracts, where they fit.\"\"\"\n\n",
    );
    let _ = writeln!(
        out,
        "AXIS_MISFIT = {}\n\"\"\"The rejection of axes that do not fit (``{{name}}``, \
         ``{{rank}}``), worded as the runtime's compile-time check.\"\"\"",
        string(&misfit_message("{name}", "{rank}"))
    );
}
