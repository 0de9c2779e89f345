//! The words the program writes around the rules' own texts (`Step`, "There
//! are no actions in this step."), in English, and in the language of a
//! translation that has them. Each word is a translation unit of its own
//! (`program.no_actions`), translated beside the rules' texts; its English is
//! here, in the program.

use std::borrow::Cow;

use crate::section::{Section, Sections};

macro_rules! words {
    ($($word:ident = $key:literal, $english:literal;)*) => {
        /// A word of the program.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Word {
            $(#[doc = $english] $word,)*
        }

        impl Word {
            /// Every word, in the order of their table.
            pub const ALL: &'static [Word] = &[$(Word::$word),*];

            /// Its key in a translation file (`no_actions`).
            pub const fn key(self) -> &'static str {
                match self { $(Word::$word => $key,)* }
            }

            /// The word whose key is `key`, if one is.
            pub fn named(key: &str) -> Option<Word> {
                Word::ALL.iter().copied().find(|word| word.key() == key)
            }

            /// Its English.
            pub const fn english(self) -> &'static str {
                match self { $(Word::$word => $english,)* }
            }
        }
    };
}

words! {
    OrderOfPlay = "order_of_play", "Order of play";
    Edition = "edition", "edition";
    Variant = "variant", "variant";
    Modules = "modules", "modules";
    NoModules = "no_modules", "none";
    Step = "step", "Step";
    NoActions = "no_actions", "There are no actions in this step.";
    ChooseOneLead = "choose_one_lead", "You may do exactly one of the following:";
    ChooseOneOrNone = "choose_one_or_none", "choose one or none";
    ChooseOne = "choose_one", "choose one";
    OnlyOnce = "only_once", "only once";
    FromAnotherEdition = "from_another_edition", "from another edition";
    OnceOrTwice = "once_or_twice", "once, or twice on a double turn";
    OncePerFeature = "once_per_feature", "once per completed feature";
    RulesOnly = "rules_only", "{publishers} rules only";
    PageTitle = "page_title", "Carcassonne: order of play";
    SkipToOrder = "skip_to_order", "Skip to the order of play";
    Languages = "languages", "Languages";
    YourGame = "your_game", "Your game";
    EditionLegend = "edition_legend", "Edition";
    PublishersRules = "publishers_rules", "Publisher's rules";
    PublishersHelp = "publishers_help", "Where the publishers' rules differ (as the dragon's moves do).";
    Expansions = "expansions", "Expansions";
    ExpansionsHelp = "expansions_help", "Ticking an expansion ticks all its modules; each module can be ticked alone.";
    ClearSelection = "clear_selection", "Clear: base game only";
    PublishedFor = "published_for", "Published for {editions}";
    ModulesOf = "modules_of", "Modules of {expansion}";
    View = "view", "View";
    WhatChanged = "what_changed", "What changed";
    WhatChangedHelp = "what_changed_help", "Highlights what your selection adds to the base game.";
    LinkToSelection = "link_to_selection", "Link to this selection";
    CopyLink = "copy_link", "Copy link";
    NeedsJavaScript = "needs_javascript", "This page needs JavaScript to show the rules of your selection.";
    PlayATurn = "play_a_turn", "Play a turn";
    Undo = "undo", "Undo";
    StartOver = "start_over", "Start over";
    BackToOrder = "back_to_order", "Back to the order of play";
    WhatHappened = "what_happened", "What happened";
    Marker = "marker", "marker";
    Added = "added", "added";
    RuleOfEdition = "rule_of_edition", "A rule of {editions}, shown for other editions";
    Untranslated = "untranslated", "Not translated yet: shown in English.";
    OutdatedTranslation = "outdated_translation", "This translation is outdated: the English has changed since.";
    VariantRules = "variant_rules", "{variant}'s rules";
    BaseGameOnly = "base_game_only", "base game only";
    NotKnown = "not_known", "Not known, so ignored: {ids}.";
    ItemsCount = "items_count", "one: {n} item | other: {n} items";
    AddedCount = "added_count", "one: {n} of them added to the base game by your selection | other: {n} of them added to the base game by your selection";
    ModulesCount = "modules_count", "one: {n} module | other: {n} modules";
    GeneratedBy = "generated_by", "Generated from the project's checked rules by {generator} — the same rules the {command} command line runs.";
    TracePart = "trace_part", "part {part}";
    TraceStep = "trace_step", "step {step}";
    TraceFeature = "trace_feature", "feature {n} of {of}";
    TraceYes = "trace_yes", "yes";
    TraceNo = "trace_no", "no";
    TraceChose = "trace_chose", "chose {item}";
    TraceChoseNone = "trace_chose_none", "chose none";
    TraceSkipped = "trace_skipped", "step {step} skipped";
    TraceNoFeatures = "trace_no_features", "step {step}: no completed feature";
    TraceOnce = "trace_once", "{item}: done once already";
    TraceGoBack = "trace_go_back", "go back from {from} to {to}";
    TraceAnyTime = "trace_any_time", "at any time: {item}";
    TraceEnd = "trace_end", "end of turn";
    PlayPending = "play_pending", "pending: {prompt}";
    PlayHeading = "play_heading", "part {part}, step {step}";
    PlayDo = "play_do", "do {item}";
    PlayChoose = "play_choose", "choose one of {ids}";
    PlayChooseOrNone = "play_choose_or_none", "choose one of {ids}, or none";
    PlayCountFeatures = "play_count_features", "count the completed features";
    PlayYesOrNo = "play_yes_or_no", "y or n";
    PlayYesWords = "play_yes_words", "y yes";
    PlayNoWords = "play_no_words", "n no";
    PlayNumber = "play_number", "a number from {from} to {to}";
    PlayNoneOfThem = "play_none_of_them", "none of them";
    PlayChooseAsk = "play_choose_ask", "choose";
    PlayHowMany = "play_how_many", "how many features were completed?";
    PlayLeft = "play_left", "left the turn at prompt {n}";
    PlayRefused = "play_refused", "refused: {reason}";
    PlayPleaseAnswer = "play_please_answer", "please answer {hint}";
    PlaySecondPart = "play_second_part", "Part {part} of the double turn";
    PlayOver = "play_over", "The turn is over.";
    PlayAnother = "play_another", "Play another turn";
    PlayDoesItHold = "play_does_it_hold", "Does this hold?";
    PlayYouMay = "play_you_may", "You may:";
    PlayCarryOut = "play_carry_out", "Carry out:";
    PlayDid = "play_did", "I did";
    PlayDidNot = "play_did_not", "I did not";
    PlayDone = "play_done", "Done";
    PlayCouldNot = "play_could_not", "Could not";
    PlayMore = "play_more", "More:";
    PlayOk = "play_ok", "OK";
    PlayLogYes = "play_log_yes", "Yes: {item}";
    PlayLogNo = "play_log_no", "No: {item}";
    PlayNotAnyTime = "play_not_any_time", "Not an item of “{section}”.";
    PlayOnlyOnce = "play_only_once", "Allowed only once per turn, and done already.";
    PlayMustChoose = "play_must_choose", "One of the options must be taken here.";
    PlayNotOffered = "play_not_offered", "That option is not offered.";
    PlayWrongAnswer = "play_wrong_answer", "The answer {answer} does not fit the prompt {prompt}.";
    PlayNoSuchStep = "play_no_such_step", "An effect names step {step}, which this selection does not have.";
    TraceTaken = "trace_taken", "took {item}, the only option";
    TraceLeftOut = "trace_left_out", "{item}: left out by what was done before";
    PlayMust = "play_must", "This must be done: it cannot be declined.";
    PlayDoMust = "play_do_must", "do {item}, a must";
    PlayDoAgain = "play_do_again", "play the sub-items of {item} again";
    PlayAsks = "play_asks", "asks: {actor}";
    PlayAMust = "play_a_must", "a must";
    ModalMust = "modal_must", "must";
    ModalMay = "modal_may", "may";
    PlayYesOnly = "play_yes_only", "y";
    ActorActive = "actor_active", "you";
    ActorLeft = "actor_left", "the player on your left";
    ActorEach = "actor_each", "each player in turn, you first";
    ActorEachFromLeft = "actor_each_from_left", "each player in turn from your left, you last";
    ActorOwner = "actor_owner", "the player it concerns";
    ActorScorers = "actor_scorers", "each player who scores";
    CheckOk = "check_ok", "{source}: {editions} editions, {expansions} expansions, {modules} modules, {steps} steps, {items} items{translated}: ok";
    CheckTranslated = "check_translated", "; translated: {languages}";
    ColumnLanguage = "column_language", "lang";
    ColumnUnits = "column_units", "units";
    ColumnTranslated = "column_translated", "translated";
    ColumnOutdated = "column_outdated", "outdated";
    ColumnMissing = "column_missing", "missing";
    ColumnOrphaned = "column_orphaned", "orphaned";
    ColumnPercent = "column_percent", "percent";
    TranslationOutdated = "translation_outdated", "translation outdated";
    TranslationMissing = "translation_missing", "not translated: English";
    PlayWentBackCount = "play_went_back_count", "one: The turn went back {n} time; giving up. | other: The turn went back {n} times; giving up.";
}

impl Word {
    /// Whether the word says a count, in one form per plural category of
    /// its language (CLDR's: `one: {n} item | other: {n} items`).
    pub fn is_plural(self) -> bool {
        self.key().ends_with("_count")
    }
}

/// The forms of a plural word, each with its CLDR category (`one`, `few`,
/// `many`, `other`…), in written order; `None` if `text` is not a list of
/// `category: form` separated by ` | `.
pub fn plural_forms(text: &str) -> Option<Vec<(&str, &str)>> {
    text.split('|')
        .map(|form| {
            let (category, form) = form.split_once(':')?;
            let category = category.trim();
            PLURAL_CATEGORIES.contains(&category).then_some((category, form.trim()))
        })
        .collect()
}

/// CLDR's plural categories.
pub const PLURAL_CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// The placeholders of a word (`{publishers}`), in order: a translation
/// keeps exactly these.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else { break };
        out.push(&rest[start..start + len + 1]);
        rest = &rest[start + len + 1..];
    }
    out
}

/// The program's words in one language, and the sections' headings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words<'a> {
    words: Vec<Cow<'a, str>>,
    headings: Sections<Cow<'a, str>>,
}

impl Default for Words<'_> {
    fn default() -> Self {
        Words::english()
    }
}

impl<'a> Words<'a> {
    /// The English words, the program's own.
    pub fn english() -> Words<'static> {
        Words {
            words: Word::ALL.iter().map(|w| Cow::Borrowed(w.english())).collect(),
            headings: Sections::from_fn(|s| Cow::Borrowed(s.title())),
        }
    }

    /// `word` in this language.
    pub fn get(&self, word: Word) -> &str {
        let at = Word::ALL.iter().position(|&w| w == word).unwrap_or(0);
        self.words.get(at).map_or(word.english(), |w| w.as_ref())
    }

    /// `word` as `text`.
    pub fn set(&mut self, word: Word, text: impl Into<Cow<'a, str>>) {
        if let Some(at) = Word::ALL.iter().position(|&w| w == word) {
            self.words[at] = text.into();
        }
    }

    /// `word` in this language with each placeholder (`{step}`) filled in.
    pub fn fill(&self, word: Word, values: &[(&str, &str)]) -> String {
        values
            .iter()
            .fold(self.get(word).to_string(), |text, (name, value)| text.replace(&format!("{{{name}}}"), value))
    }

    /// Who `actor` is, in words ("the player on your left").
    pub fn actor(&self, actor: crate::Actor) -> &str {
        use crate::Actor;
        self.get(match actor {
            Actor::Active => Word::ActorActive,
            Actor::Left => Word::ActorLeft,
            Actor::Each => Word::ActorEach,
            Actor::EachFromLeft => Word::ActorEachFromLeft,
            Actor::Owner => Word::ActorOwner,
            Actor::Scorers => Word::ActorScorers,
        })
    }

    /// The heading of `section`.
    pub fn heading(&self, section: Section) -> &str {
        &self.headings[section]
    }

    /// `section`'s heading as `text`.
    pub fn set_heading(&mut self, section: Section, text: impl Into<Cow<'a, str>>) {
        self.headings[section] = text.into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_snake_case_and_every_word_can_be_set() {
        let mut seen = std::collections::HashSet::new();
        for word in Word::ALL {
            assert!(seen.insert(word.key()), "{} twice", word.key());
            assert!(word.key().bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", word.key());
        }
        let mut words = Words::english();
        assert_eq!(words.get(Word::NoActions), crate::order::NO_ACTIONS);
        for (n, &word) in Word::ALL.iter().enumerate() {
            words.set(word, format!("w{n}"));
        }
        for (n, &word) in Word::ALL.iter().enumerate() {
            assert_eq!(words.get(word), format!("w{n}"));
        }
        assert_eq!(placeholders(Word::RulesOnly.english()), ["{publishers}"]);
        for word in Word::ALL.iter().filter(|w| w.is_plural()) {
            let forms = plural_forms(word.english()).expect("plural forms");
            assert_eq!(forms.iter().map(|(c, _)| *c).collect::<Vec<_>>(), ["one", "other"], "{}", word.key());
        }
        assert_eq!(plural_forms("one: a | few: b"), Some(vec![("one", "a"), ("few", "b")]));
        assert_eq!(plural_forms("one a"), None);
        assert_eq!(plural_forms("single: a"), None);
        assert_eq!(placeholders("a {x} b {y}"), ["{x}", "{y}"]);
        assert!(placeholders("no braces").is_empty());
        words.set_heading(Section::Setup, "Voorbereiding");
        assert_eq!(words.heading(Section::Setup), "Voorbereiding");
        assert_eq!(words.heading(Section::Notes), "Notes");
    }
}
