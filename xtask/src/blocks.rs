//! Generated blocks inside hand-written Markdown: each between a begin and
//! an end marker (`<!-- codegen:<name> begin: … -->`, `<!-- codegen:<name>
//! end -->`); the rest of the file is kept as written.

/// `text` (the file `file`, for messages) with the block `name` replaced by
/// `body`.
pub(crate) fn replace(file: &str, text: &str, name: &str, body: &str) -> Result<String, String> {
    let begin = format!(
        "<!-- codegen:{name} begin: generated from rxt-tf-spec by `cargo run -p xtask -- codegen`; \
         do not edit -->\n"
    );
    let end = format!("<!-- codegen:{name} end -->");
    let start = text
        .find(&begin)
        .ok_or_else(|| format!("{file} has no `{}` marker", begin.trim_end()))?;
    let stop = text[start..]
        .find(&end)
        .map(|offset| start + offset)
        .ok_or_else(|| format!("{file} has no `{end}` marker"))?;
    Ok(format!("{}{begin}{body}{}", &text[..start], &text[stop..]))
}
