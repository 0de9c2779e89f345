//! "Did you mean …?" for unknown names.

/// Names longer than this get no suggestion: no id is that long, and comparing
/// costs the product of the lengths.
pub const MAX_SUGGESTED_LEN: usize = 64;

/// The closest of `candidates` to `wanted`, if it is close enough to suggest:
/// case is ignored, and one edit is always close enough.
pub fn did_you_mean<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if wanted.len() > MAX_SUGGESTED_LEN {
        return None;
    }
    let wanted = wanted.to_lowercase();
    candidates
        .into_iter()
        .map(|c| {
            let lower = c.to_lowercase();
            let close = strsim::damerau_levenshtein(&wanted, &lower) <= 1;
            (strsim::normalized_damerau_levenshtein(&wanted, &lower), close, c)
        })
        .filter(|(score, close, _)| *close || *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.2.cmp(a.2)))
        .map(|(_, _, c)| c)
}

/// "did you mean `x`?" help for an unknown name, if one is close.
pub fn suggestion<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    did_you_mean(wanted, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        assert_eq!(did_you_mean("abey", ["abbey", "builder"]), Some("abbey"));
        assert_eq!(did_you_mean("c2", ["C1", "C2", "WE"]), Some("C2"));
        assert_eq!(did_you_mean("zzzzzz", ["abbey", "builder"]), None);
        assert_eq!(did_you_mean(&"abbey".repeat(100), ["abbey"]), None, "no id is that long");
    }
}
