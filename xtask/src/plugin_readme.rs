//! The plugin README's sentences that state element types or ranks
//! (`<!-- codegen:types -->` in `plugin-py/README.md`), from the rows.

use rxt_tf_spec::ops::{ARGMAX, MATMUL, SIGMOID};
use rxt_tf_spec::{join_or, DType, Op, Value, MAX_RANK};

/// The markers' element types and ranks, and what a few ops take.
pub(crate) fn types_section() -> String {
    let markers: Vec<String> = DType::ALL
        .iter()
        .map(|dtype| format!("`{}`", dtype.type_infix()))
        .collect();
    let names: Vec<String> = DType::ALL.iter().map(|d| d.name().to_owned()).collect();
    // What `tf.argmax` of a rank-2 float32 tensor returns: its default
    // `output_type`, one rank less.
    let argmax_type = match ARGMAX.keyword("output_type").and_then(|k| k.default) {
        Some(Value::Type(dtype)) => dtype,
        _ => ARGMAX.result_element(DType::F32),
    };
    let argmax_rank = ARGMAX.rule.result_rank(&[2], 1, false).unwrap_or(0);
    let examples: Vec<String> = [&MATMUL, &SIGMOID, &ARGMAX]
        .iter()
        .map(|op| example(op))
        .collect();
    let markers = format!(
        "The annotation markers in `rxt_tf_plugin.types` import nothing: one class \
         per element type ({} for {}) and rank 0–{MAX_RANK}, named \
         `Tensor<Type>Cpu<Rank>D`, each the plugin type \
         `rxt-tf/tensor-<type>-cpu-<rank>d` — e.g. `TensorF32Cpu2D` \
         (`rxt-tf/tensor-f32-cpu-2d`), `Tensor{}Cpu{argmax_rank}D` (what `tf.argmax` of a \
         rank-2 tensor returns). The module is generated from `rxt-tf-spec`, like the \
         op table; it is the list.",
        join_or(&markers),
        join_or(&names),
        argmax_type.type_infix(),
    );
    let ops = format!(
        "Each op's element types and operand ranks come from the table \
         (`OpRow.dtypes`, `OpRow.ranks`); for example {}.",
        examples.join("; ")
    );
    format!("{}{}", bullet(&markers), bullet(&ops))
}

/// `` `tf.matmul` takes float32, float64, bfloat16, float16, int32 or int64 at ranks 2–5 ``.
fn example(op: &Op) -> String {
    let target = op
        .python
        .first()
        .and_then(|rule| rule.targets.first())
        .map_or(op.name.to_owned(), |t| t.replacen("tensorflow.", "tf.", 1));
    format!("`{target}` takes {}", op.operands_text())
}

/// A Markdown list item, wrapped at 76 columns.
fn bullet(text: &str) -> String {
    let mut out = String::from("-");
    let mut width = 1;
    for word in text.split(' ') {
        if width + 1 + word.chars().count() > 76 {
            out.push_str("\n ");
            width = 1;
        }
        out.push(' ');
        out.push_str(word);
        width += 1 + word.chars().count();
    }
    out.push('\n');
    out
}
