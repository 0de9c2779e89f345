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
    let wanted_len = wanted.chars().count();
    candidates
        .into_iter()
        .filter_map(|c| {
            let lower = c.to_lowercase();
            let len = lower.chars().count();
            let longest = wanted_len.max(len);
            // The distance is at least the difference in length: where that
            // alone is too far, the distance need not be computed.
            let least = wanted_len.abs_diff(len);
            if least > 1 && score(least, longest) < MIN_SCORE {
                return None;
            }
            // One distance serves both tests (strsim's normalized score would compute it again).
            let distance = strsim::damerau_levenshtein(&wanted, &lower);
            let score = score(distance, longest);
            (distance <= 1 || score >= MIN_SCORE).then_some((score, c))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then_with(|| b.1.cmp(a.1)))
        .map(|(_, c)| c)
}

/// How many suggestions one run looks for (each compares a name with every
/// candidate): rules with thousands of unknown names are reported in time
/// linear in them, the first ones with a suggestion.
pub const MAX_SUGGESTIONS_PER_RUN: usize = 1_000;

/// "Did you mean" within [`MAX_SUGGESTIONS_PER_RUN`]: one per run.
#[derive(Debug)]
pub struct Suggestions {
    left: usize,
}

impl Default for Suggestions {
    fn default() -> Self {
        Suggestions { left: MAX_SUGGESTIONS_PER_RUN }
    }
}

impl Suggestions {
    /// As [`did_you_mean`], none once the run has looked for its share.
    pub fn did_you_mean<'a>(&mut self, wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
        self.left = self.left.checked_sub(1)?;
        did_you_mean(wanted, candidates)
    }
}

/// How close a name must be, on [`score`]'s scale, to be suggested.
const MIN_SCORE: f64 = 0.6;

/// strsim's normalized Damerau–Levenshtein score: 1 for the same names, 0
/// for names that share nothing.
fn score(distance: usize, longest: usize) -> f64 {
    if longest == 0 { 1.0 } else { 1.0 - distance as f64 / longest as f64 }
}

/// "did you mean `x`?" help for an unknown name, if one is close.
pub fn suggestion<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    did_you_mean(wanted, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_looks_for_a_bounded_number_of_suggestions() {
        let mut suggestions = Suggestions::default();
        for _ in 0..MAX_SUGGESTIONS_PER_RUN {
            assert_eq!(suggestions.did_you_mean("abey", ["abbey"]), Some("abbey"));
        }
        assert_eq!(suggestions.did_you_mean("abey", ["abbey"]), None);
    }

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        assert_eq!(did_you_mean("abey", ["abbey", "builder"]), Some("abbey"));
        assert_eq!(did_you_mean("c2", ["C1", "C2", "WE"]), Some("C2"));
        assert_eq!(did_you_mean("zzzzzz", ["abbey", "builder"]), None);
        assert_eq!(did_you_mean(&"abbey".repeat(100), ["abbey"]), None, "no id is that long");
    }

    #[test]
    fn scores_are_strsims() {
        let names = ["", "a", "ab", "abbey", "abey", "Abbey", "builder", "bulider", "mayor", "mayors", "c1", "C2", "ü"];
        for a in names {
            for b in names {
                let (a, b) = (a.to_lowercase(), b.to_lowercase());
                let longest = a.chars().count().max(b.chars().count());
                let ours = score(strsim::damerau_levenshtein(&a, &b), longest);
                assert_eq!(ours, strsim::normalized_damerau_levenshtein(&a, &b), "{a} {b}");
            }
        }
    }

    #[test]
    fn the_closest_name_wins_and_ties_go_to_the_alphabetically_first() {
        assert_eq!(did_you_mean("mayr", ["mayors", "mayor"]), Some("mayor"));
        assert_eq!(did_you_mean("ab", ["ac", "aa"]), Some("aa"));
        assert_eq!(did_you_mean("", ["", "a"]), Some(""));
    }
}
