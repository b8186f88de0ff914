//! Compile-time behaviour of `tf!` and `#[inference]`: every rejected form in
//! `ui-tests/*.rs` with its expected `.stderr`, and the accepted forms in
//! `ui-tests/pass/` (whose presence makes trybuild build for real, so the
//! rank checks done with trait bounds are exercised).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui-tests/*.rs");
    cases.pass("ui-tests/pass/*.rs");
}
