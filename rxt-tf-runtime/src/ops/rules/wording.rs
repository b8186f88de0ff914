//! The rules' compile-time messages against the spec's wording, which the
//! Rextio plugin's rejections use too.

#[test]
fn the_axis_misfit_reads_as_the_spec_words_it() {
    let rules = include_str!("mod.rs");
    let message = rxt_tf_spec::axes::misfit_message("axis", "{R}");
    assert!(
        rules.contains(&format!("message = \"rxt-tf: {message}\"")),
        "`AxesFit`'s message is not the spec's: {message}"
    );
}
