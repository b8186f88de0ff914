//! Lists in words, for the rows' sentences and errors.

/// "a", "a or b", "a, b or c".
pub fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [only] => only.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
