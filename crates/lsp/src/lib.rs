//! The carcassonne-rules language server (`carcassonne-rules lsp`): the
//! compiler's load → check → verify on the editor's buffers as they are
//! typed, and completion, hover and navigation from the checked model.
//!
//! [`workspace`] holds the files and analyses them, [`features`] answers on
//! byte offsets, and this module speaks the protocol (over `lsp-server`, as
//! rust-analyzer does), converting positions with the compiler's one
//! [`carcassonne_rules_compiler::positions`] mapper.

#![forbid(unsafe_code)]

pub mod errata;
pub mod features;
pub mod framing;
pub mod inlay;
pub mod semantic;
pub mod snippet;
pub mod untranslated;
pub mod uri;
pub mod workspace;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::str::FromStr;

use carcassonne_rules_compiler::Rules;
use carcassonne_rules_compiler::codes;
use carcassonne_rules_compiler::diagnostics::FileId;
use carcassonne_rules_compiler::positions::{self, Columns};
use carcassonne_rules_compiler::syntax;
use carcassonne_rules_core::escape::terminal::quoted;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types as lsp;
use serde_json::{Value, json};

use crate::workspace::{Place, Problem, Severity, TranslationSite, Workspace};

/// Runs the server on stdin and stdout until the client says exit, over
/// the bounded [`framing`] (not `Connection::stdio`, which exits on a frame
/// it cannot read).
pub fn stdio() -> Result<(), Box<dyn Error + Send + Sync>> {
    let (connection, threads) = framing::transport(std::io::stdin(), std::io::stdout());
    serve(&connection)?;
    drop(connection);
    threads.join()?;
    Ok(())
}

/// The rules folder of a workspace root: the nearest folder at or above it
/// that holds `modules.yaml` or `rules/modules.yaml` (an editor may be
/// started in `rules/expansions/`, in the repository, or at a translation
/// file), never a language's folder of translations, which mirrors the rules
/// files (`rules/translations/nl/modules.yaml`), or none.
pub fn rules_dir(root: &Path) -> Option<PathBuf> {
    let rules = |dir: &Path| dir.join(syntax::MODULES_FILE).is_file() && !translation_folder(dir);
    root.ancestors()
        .find_map(|dir| [dir.to_path_buf(), dir.join("rules")].into_iter().find(|candidate| rules(candidate)))
}

/// Whether `dir` is a language's folder of translations: in a folder named
/// `translations` beside a rules folder's `modules.yaml`.
fn translation_folder(dir: &Path) -> bool {
    let Some(translations) = dir.parent() else { return false };
    translations.file_name().is_some_and(|name| name == "translations")
        && translations.parent().is_some_and(|rules| rules.join(syntax::MODULES_FILE).is_file())
}

/// What the server says when it finds no rules: without it, an editor
/// started in the wrong folder shows nothing at all.
fn no_rules(root: &Path) -> Notification {
    let message = format!(
        "carcassonne-rules: no rules found — no base.yaml in {} or a folder above it, nor in their rules/; \
         open the folder that holds rules/base.yaml",
        quoted(&root.display().to_string())
    );
    Notification::new("window/showMessage".to_string(), json!({ "type": 2, "message": message }))
}

/// The most problems one edit shows in its file for the other files they
/// land in (renaming an item orphans its translations in every language).
const MAX_ECHOES: usize = 8;

/// The most workspace symbols one query answers (the rules define about
/// 700 names; an empty query asks for all).
const MAX_SYMBOLS: usize = 1000;

/// Serves one client on `connection`, from `initialize` to `exit`.
pub fn serve(connection: &Connection) -> Result<(), Box<dyn Error + Send + Sync>> {
    let (id, params) = connection.initialize_start()?;
    let root = ["/workspaceFolders/0/uri", "/rootUri"]
        .iter()
        .find_map(|at| params.pointer(at).and_then(Value::as_str).and_then(uri::to_path))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    let offers_utf8 = params
        .pointer("/capabilities/general/positionEncodings")
        .and_then(Value::as_array)
        .is_some_and(|kinds| kinds.iter().any(|k| k == "utf-8"));
    let columns = if offers_utf8 { Columns::Utf8 } else { Columns::Utf16 };
    let snippets = params
        .pointer("/capabilities/textDocument/completion/completionItem/snippetSupport")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let annotations = params
        .pointer("/capabilities/workspace/workspaceEdit/changeAnnotationSupport")
        .is_some_and(|support| !support.is_null());
    let watches =
        params.pointer("/capabilities/workspace/didChangeWatchedFiles/dynamicRegistration") == Some(&Value::Bool(true));
    let relative_patterns = params.pointer("/capabilities/workspace/didChangeWatchedFiles/relativePatternSupport")
        == Some(&Value::Bool(true));
    let capabilities = json!({
        "positionEncoding": if offers_utf8 { "utf-8" } else { "utf-16" },
        "textDocumentSync": { "openClose": true, "change": 1, "save": true },
        "completionProvider": { "triggerCharacters": [" ", "(", "=", "{"] },
        "hoverProvider": true,
        "definitionProvider": true,
        "referencesProvider": true,
        "renameProvider": { "prepareProvider": true },
        "codeActionProvider": true,
        "documentSymbolProvider": true,
        "workspaceSymbolProvider": true,
        "inlayHintProvider": true,
        "semanticTokensProvider": {
            "legend": { "tokenTypes": semantic::LEGEND, "tokenModifiers": [] },
            "full": true,
        },
    });
    connection.initialize_finish(
        id,
        json!({ "capabilities": capabilities, "serverInfo": { "name": "carcassonne-rules", "version": env!("CARGO_PKG_VERSION") } }),
    )?;
    let dir = rules_dir(&root).unwrap_or_else(|| {
        // The message goes first: the analysis that follows reports base.yaml missing.
        let _ = connection.sender.send(Message::Notification(no_rules(&root)));
        root.clone()
    });
    if watches {
        // The client tells what changes on disk (a rename saved, a file
        // another program wrote, an editor's backup): the whole rules folder.
        let pattern = if relative_patterns {
            json!({ "baseUri": uri::from_path(&dir), "pattern": "**/*" })
        } else {
            json!("**/*")
        };
        let registration = json!({ "registrations": [{
            "id": "carcassonne-rules-files",
            "method": "workspace/didChangeWatchedFiles",
            "registerOptions": { "watchers": [{ "globPattern": pattern }] },
        }] });
        let request = Request::new(
            "carcassonne-rules/watch".to_string().into(),
            "client/registerCapability".into(),
            registration,
        );
        connection.sender.send(Message::Request(request))?;
    }
    let mut server = Server {
        errata: errata::path(&dir),
        errata_buffer: None,
        workspace: Workspace::new(dir),
        columns,
        snippets,
        annotations,
        watches,
        model: None,
        published: HashMap::new(),
        problems: BTreeMap::new(),
        edit: None,
        echoes: HashMap::new(),
        republish: HashSet::new(),
    };
    server.analyse(connection)?;
    let mut waiting = Vec::new();
    while let Ok(message) = connection.receiver.recv() {
        let mut changed = false;
        let mut next = Some(message);
        // Every message already queued is taken before analysing: a burst of
        // keystrokes is analysed once.
        while let Some(message) = next {
            match message {
                Message::Request(request) => {
                    if connection.handle_shutdown(&request)? {
                        return Ok(());
                    }
                    waiting.push(request);
                }
                Message::Notification(notification) => changed |= server.notified(notification),
                Message::Response(_) => {}
            }
            next = connection.receiver.try_recv().ok();
        }
        if changed {
            server.analyse(connection)?;
        }
        for request in waiting.drain(..) {
            let response = server.answer(request);
            connection.sender.send(Message::Response(response))?;
        }
    }
    Ok(())
}

/// The checked rules of the last analysis that had them, with the texts they
/// were read from (their spans point into those).
struct Model {
    rules: Rc<Rules>,
    texts: BTreeMap<String, String>,
    /// Every translation, where it is written.
    translations: Rc<Vec<TranslationSite>>,
    /// What `check` made of the translations.
    checked_translations: Rc<carcassonne_rules_compiler::translation::Translations>,
    /// Every unit and the units each language lacks, worked out at the
    /// first question that needs them.
    untranslated: std::cell::OnceCell<untranslated::Untranslated>,
}

impl Model {
    fn untranslated(&self) -> &untranslated::Untranslated {
        self.untranslated
            .get_or_init(|| untranslated::Untranslated::of_checked(&self.checked_translations, &self.rules.inputs))
    }
}

struct Server {
    workspace: Workspace,
    columns: Columns,
    /// The client takes snippets in completions.
    snippets: bool,
    /// The client takes change annotations in workspace edits: a rename
    /// asks before it edits outside the rules folder.
    annotations: bool,
    /// Where the wiki crate's errata file is (it may not exist).
    errata: Option<PathBuf>,
    /// The editor's buffer of the errata file, if it is open.
    errata_buffer: Option<String>,
    /// The client watches the rules folder for the server.
    watches: bool,
    model: Option<Model>,
    /// The diagnostics last published, by file: a file is published again
    /// only when they change.
    published: HashMap<String, Vec<lsp::Diagnostic>>,
    /// The problems last published, by file: code actions offer their fixes.
    problems: BTreeMap<String, Vec<Problem>>,
    /// The last edit of a buffer since the last analysis: its file and where
    /// the text changed.
    edit: Option<Edit>,
    /// The problems an edit of one file caused in another, each also shown
    /// in the edited file while it lasts: by the problem, where it is shown.
    echoes: HashMap<(String, &'static str, String), Place>,
    /// The files opened since the last analysis: their diagnostics are
    /// published even if unchanged (a client may keep none for a file it
    /// did not have open).
    republish: HashSet<String>,
}

/// Where an edit changed a buffer.
struct Edit {
    file: String,
    /// The byte offset where the text changed first.
    at: usize,
}

impl Server {
    fn rel(&self, uri: &str) -> Option<String> {
        self.workspace.relative(&uri::to_path(uri)?)
    }

    /// The URI of a rules file (every escaped path is one; `None` otherwise).
    fn uri(&self, rel: &str) -> Option<lsp::Uri> {
        lsp::Uri::from_str(&uri::from_path(&self.workspace.dir.join(rel))).ok()
    }

    /// Applies a change of the buffers; whether the rules must be analysed again.
    fn notified(&mut self, notification: Notification) -> bool {
        let params = &notification.params;
        if notification.method == "workspace/didChangeWatchedFiles" {
            let changes = params.get("changes").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let paths = changes.iter().filter_map(|c| uri::to_path(c.get("uri")?.as_str()?));
            // Every change is applied: `|` rather than `||`.
            return paths.fold(false, |changed, path| changed | self.workspace.changed_on_disk(&path));
        }
        if notification.method == "textDocument/didSave" && !self.watches {
            // Nothing watched: a save is when other files may have been
            // written too (`:wall` after a rename).
            return self.workspace.reread_folder();
        }
        let uri = params.pointer("/textDocument/uri").and_then(Value::as_str).unwrap_or_default();
        if uri::to_path(uri).is_some_and(|path| Some(&path) == self.errata.as_ref()) {
            self.errata_changed(&notification);
            return false;
        }
        if notification.method == "textDocument/didOpen"
            && let Some(path) = uri::to_path(uri)
            && let Some(backup) = self.workspace.backup(&path)
        {
            // An editor's backup opened: its message again, for a client
            // that kept none for a file it had not open (and watches none).
            self.workspace.changed_on_disk(&path);
            self.republish.insert(backup);
            return true;
        }
        let Some(rel) = self.rel(uri) else { return false };
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                self.republish.insert(rel.clone());
                let text = params.pointer("/textDocument/text").and_then(Value::as_str).unwrap_or_default();
                // A buffer opened unlike its file is no edit to show
                // problems at, and makes the cause of the others unclear.
                if self.workspace.text(&rel) != Some(text) {
                    self.edit = Some(Edit { file: String::new(), at: 0 });
                }
                self.workspace.set_buffer(&rel, text.to_string());
                true
            }
            "textDocument/didChange" => {
                // Full synchronisation: the last change holds the whole text.
                let changes = params.pointer("/contentChanges").and_then(Value::as_array);
                let Some(text) = changes.and_then(|c| c.last()).and_then(|c| c.get("text")).and_then(Value::as_str)
                else {
                    return false;
                };
                self.edited(&rel, text);
                self.workspace.set_buffer(&rel, text.to_string());
                true
            }
            "textDocument/didClose" => {
                self.workspace.close_buffer(&rel);
                true
            }
            _ => false,
        }
    }

    /// Notes where `rel`'s buffer changes to `text`, and moves the problems
    /// shown there for other files with the text after it.
    fn edited(&mut self, rel: &str, text: &str) {
        let old = self.workspace.text(rel).unwrap_or_default();
        let prefix = old.bytes().zip(text.bytes()).take_while(|(a, b)| a == b).count();
        let room = old.len().min(text.len()) - prefix;
        let suffix = old.bytes().rev().zip(text.bytes().rev()).take(room).take_while(|(a, b)| a == b).count();
        let old_end = old.len() - suffix;
        for place in self.echoes.values_mut().filter(|p| p.file == rel) {
            if place.start >= old_end {
                place.start = (place.start + text.len()).saturating_sub(old.len());
            } else if place.start > prefix {
                place.start = prefix;
                place.len = 0;
            }
        }
        let mut at = prefix;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        // Edits of two files analysed at once: neither is the cause.
        self.edit = match self.edit.take() {
            Some(edit) if edit.file != rel => Some(Edit { file: String::new(), at: 0 }),
            _ => Some(Edit { file: rel.to_string(), at }),
        };
    }

    /// Keeps the editor's buffer of the errata file: it is not analysed,
    /// but a rename edits it as it stands.
    fn errata_changed(&mut self, notification: &Notification) {
        let params = &notification.params;
        let text = match notification.method.as_str() {
            "textDocument/didOpen" => params.pointer("/textDocument/text"),
            "textDocument/didChange" => {
                params.pointer("/contentChanges").and_then(Value::as_array).and_then(|c| c.last()?.get("text"))
            }
            "textDocument/didClose" => {
                self.errata_buffer = None;
                return;
            }
            _ => return,
        };
        if let Some(text) = text.and_then(Value::as_str) {
            self.errata_buffer = Some(text.to_string());
        }
    }

    /// One range of `text`: for many, index the text once ([`Server::range_in`]).
    fn range(&self, text: &str, start: usize, len: usize) -> lsp::Range {
        self.range_in(&positions::Lines::new(text), start, len)
    }

    /// A range of the text `lines` indexes, in time logarithmic in its size.
    fn range_in(&self, lines: &positions::Lines, start: usize, len: usize) -> lsp::Range {
        let (line, character) = lines.position(start, self.columns);
        let (end_line, end_character) = lines.position(start.saturating_add(len), self.columns);
        lsp::Range {
            start: lsp::Position { line: clamp(line), character: clamp(character) },
            end: lsp::Position { line: clamp(end_line), character: clamp(end_character) },
        }
    }

    fn location(&self, place: &Place, texts: Option<&BTreeMap<String, String>>) -> Option<lsp::Location> {
        let text =
            texts.and_then(|t| t.get(&place.file)).map(String::as_str).or_else(|| self.workspace.text(&place.file));
        Some(lsp::Location {
            uri: self.uri(&place.file)?,
            range: self.range(text.unwrap_or_default(), place.start, place.len),
        })
    }

    fn publish(
        &self,
        connection: &Connection,
        file: &str,
        diagnostics: Vec<lsp::Diagnostic>,
    ) -> Result<(), Box<dyn Error + Send + Sync>> {
        let Some(uri) = self.uri(file) else { return Ok(()) };
        let params = lsp::PublishDiagnosticsParams { uri, diagnostics, version: None };
        connection
            .sender
            .send(Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)))?;
        Ok(())
    }

    /// Analyses the rules and publishes the diagnostics of each file whose
    /// diagnostics changed (none, for a file whose problems went away).
    fn analyse(&mut self, connection: &Connection) -> Result<(), Box<dyn Error + Send + Sync>> {
        let mut analysis = self.workspace.analyse();
        self.echo(&mut analysis.problems);
        let mut published = HashMap::with_capacity(self.published.len());
        for (file, problems) in &analysis.problems {
            let diagnostics = if problems.is_empty() {
                Vec::new()
            } else {
                // Indexed once: thousands of problems in one file cost no scan each.
                let lines = positions::Lines::new(self.workspace.text(file).unwrap_or_default());
                problems.iter().map(|p| self.diagnostic(&lines, p)).collect()
            };
            let before = self.published.remove(file).unwrap_or_default();
            if diagnostics != before || (self.republish.contains(file) && !diagnostics.is_empty()) {
                self.publish(connection, file, diagnostics.clone())?;
            }
            if !diagnostics.is_empty() {
                published.insert(file.clone(), diagnostics);
            }
        }
        // A file that is gone keeps no stale diagnostics.
        for gone in self.published.keys().filter(|f| !analysis.problems.contains_key(*f)) {
            self.publish(connection, gone, Vec::new())?;
        }
        self.published = published;
        self.republish.clear();
        self.problems = analysis.problems;
        if let Some(rules) = analysis.rules {
            self.model = Some(Model {
                rules,
                texts: analysis.texts,
                translations: analysis.translations,
                checked_translations: analysis.checked_translations,
                untranslated: std::cell::OnceCell::new(),
            });
        }
        Ok(())
    }

    /// Shows in the file last edited each problem the edit caused in another
    /// file (a new item's missing translation lands in `languages.yaml`), at
    /// the line of the edit, with where it lands as related information, for
    /// as long as the problem lasts.
    fn echo(&mut self, problems: &mut BTreeMap<String, Vec<Problem>>) {
        let key = |p: &Problem| (p.at.file.clone(), p.code.id(), p.message.clone());
        let now: HashSet<_> = problems.values().flatten().map(key).collect();
        self.echoes.retain(|k, _| now.contains(k));
        if let Some(edit) = self.edit.take().filter(|edit| !edit.file.is_empty()) {
            let before: HashSet<_> = self.problems.values().flatten().map(key).collect();
            let text = self.workspace.text(&edit.file).unwrap_or_default();
            let line_start = text[..edit.at.min(text.len())].rfind('\n').map_or(0, |n| n + 1);
            let line = &text[line_start..];
            let line = &line[..line.find('\n').unwrap_or(line.len())];
            let indent = line.len() - line.trim_start().len();
            let at = Place { file: edit.file.clone(), start: line_start + indent, len: line.len() - indent };
            let caused = problems.values().flatten().filter(|p| p.at.file != edit.file).map(key);
            for caused in caused.filter(|k| !before.contains(k)).take(MAX_ECHOES).collect::<Vec<_>>() {
                self.echoes.insert(caused, at.clone());
            }
        }
        let mut shown = Vec::new();
        for problem in problems.values().flatten() {
            if let Some(at) = self.echoes.get(&key(problem)) {
                let mut related = vec![(problem.at.clone(), "reported here".to_string())];
                related.extend(problem.related.iter().cloned());
                let message = format!("in {}, after an edit here: {}", problem.at.file, problem.message);
                let landed = Some(problem.at.file.clone());
                shown.push(Problem { at: at.clone(), message, related, landed, ..problem.clone() });
            }
        }
        for problem in shown {
            problems.entry(problem.at.file.clone()).or_default().push(problem);
        }
    }

    /// A problem as the protocol's diagnostic, in the text `lines` indexes.
    fn diagnostic(&self, lines: &positions::Lines, p: &Problem) -> lsp::Diagnostic {
        lsp::Diagnostic {
            range: self.range_in(lines, p.at.start, p.at.len),
            severity: Some(match p.severity {
                Severity::Error => lsp::DiagnosticSeverity::ERROR,
                Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            }),
            code: Some(lsp::NumberOrString::String(p.code.id().into())),
            code_description: lsp::Uri::from_str(&codes::description_url(p.code))
                .ok()
                .map(|href| lsp::CodeDescription { href }),
            source: Some("carcassonne-rules".into()),
            message: p.message.clone(),
            related_information: Some(
                p.related
                    .iter()
                    .filter_map(|(place, label)| {
                        Some(lsp::DiagnosticRelatedInformation {
                            location: self.location(place, None)?,
                            message: label.clone(),
                        })
                    })
                    .collect(),
            ),
            // Told apart from the file's own: where it is reported.
            data: p.landed.as_ref().and_then(|file| Some(json!({ "reportedIn": self.uri(file)?.as_str() }))),
            ..lsp::Diagnostic::default()
        }
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        match self.respond(&request) {
            Ok(value) => Response::new_ok(id, value),
            Err(message) => Response::new_err(id, ErrorCode::RequestFailed as i32, message),
        }
    }

    /// The file, its current text and the byte offset of a request's position.
    fn at(&self, params: &Value) -> Option<(String, &str, usize)> {
        let rel = self.rel(params.pointer("/textDocument/uri")?.as_str()?)?;
        let text = self.workspace.text(&rel)?;
        let line = usize::try_from(params.pointer("/position/line")?.as_u64()?).ok()?;
        let character = usize::try_from(params.pointer("/position/character")?.as_u64()?).ok()?;
        let offset = positions::offset(text, line, character, self.columns);
        Some((rel, text, offset))
    }

    /// Every place the name at `offset` of `rel` is written, translation
    /// files' keys included.
    fn references(&self, model: &Model, rel: &str, text: &str, offset: usize) -> Value {
        let rules = &model.rules;
        let mut sites = features::sites(rules, &model.texts);
        sites.extend(features::translation_sites(rules, &model.translations));
        let Some((kind, name, _)) = named_at(model, &sites, rel, text, offset) else { return Value::Null };
        let found: Vec<lsp::Location> = features::references(rules, &sites, kind, &name)
            .iter()
            .filter_map(|p| self.location(p, Some(&model.texts)))
            .collect();
        json!(found)
    }

    fn respond(&self, request: &Request) -> Result<Value, String> {
        let params = &request.params;
        if request.method == "textDocument/codeAction" {
            return Ok(self.code_actions(params).unwrap_or_else(|| json!([])));
        }
        if request.method == "textDocument/documentSymbol" {
            return Ok(self.symbols(params).unwrap_or(Value::Null));
        }
        if request.method == "workspace/symbol" {
            return Ok(self.workspace_symbols(params).unwrap_or_else(|| json!([])));
        }
        if request.method == "textDocument/semanticTokens/full" {
            return Ok(self.semantic_tokens(params).unwrap_or(Value::Null));
        }
        if request.method == "textDocument/inlayHint" {
            return Ok(self.inlay_hints(params).unwrap_or(Value::Null));
        }
        let (Some(model), Some((rel, text, offset))) = (&self.model, self.at(params)) else {
            return Ok(Value::Null);
        };
        if syntax::translation_file(&rel) {
            // A translation file has its own answers: what a unit translates.
            return Ok(match request.method.as_str() {
                "textDocument/hover" => translation_hover(model, &rel, offset).map_or(Value::Null, |markdown| {
                    json!(lsp::Hover {
                        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                            kind: lsp::MarkupKind::Markdown,
                            value: markdown
                        }),
                        range: None,
                    })
                }),
                "textDocument/references" => self.references(model, &rel, text, offset),
                // A unit's key being typed: the units this file lacks.
                "textDocument/completion" => {
                    let offered = self.missing_units(model, &rel, text, offset);
                    json!(self.completion_items(text, offset, offered))
                }
                // A unit's key goes to what it translates.
                "textDocument/definition" => {
                    let sites = features::translation_sites(&model.rules, &model.translations);
                    features::site_at(&sites, &rel, offset)
                        .and_then(|site| features::definition(&model.rules, &site.name, 0))
                        .and_then(|place| self.location(&place, Some(&model.texts)))
                        .map_or(Value::Null, |location| json!(location))
                }
                _ => Value::Null,
            });
        }
        let rules = &model.rules;
        let value = match request.method.as_str() {
            "textDocument/completion" => {
                let Some(tree) = self.workspace.tree(&rel) else { return Ok(Value::Null) };
                let offered = features::complete(rules, &rel, text, tree, offset);
                let mut items = self.completion_items(text, offset, offered);
                items.extend(snippet::variants(rules, &rel, text, tree, offset, self.snippets).into_iter().map(|v| {
                    lsp::CompletionItem {
                        label: v.label,
                        kind: Some(lsp::CompletionItemKind::SNIPPET),
                        detail: Some("text variant by edition".into()),
                        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                            range: self.range(text, v.start, v.end - v.start),
                            new_text: v.insert,
                        })),
                        insert_text_format: Some(if v.is_snippet {
                            lsp::InsertTextFormat::SNIPPET
                        } else {
                            lsp::InsertTextFormat::PLAIN_TEXT
                        }),
                        additional_text_edits: (!v.quotes.is_empty()).then(|| {
                            v.quotes
                                .iter()
                                .map(|&(at, quote)| lsp::TextEdit {
                                    range: self.range(text, at, 0),
                                    new_text: quote.to_string(),
                                })
                                .collect()
                        }),
                        ..lsp::CompletionItem::default()
                    }
                }));
                json!(items)
            }
            "textDocument/hover" => match features::hover(rules, text, offset) {
                Some(markdown) => json!(lsp::Hover {
                    contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value: markdown
                    }),
                    range: None,
                }),
                None => Value::Null,
            },
            "textDocument/definition" => match features::definition(rules, text, offset) {
                Some(place) => json!(self.location(&place, Some(&model.texts))),
                None => Value::Null,
            },
            "textDocument/references" => self.references(model, &rel, text, offset),
            "textDocument/prepareRename" => {
                let sites = features::sites(rules, &model.texts);
                let (kind, old, start) = renamable_at(model, &sites, &rel, text, offset)?;
                features::renamable(rules, kind, &old)?;
                json!({ "range": self.range(text, start, old.len()), "placeholder": old })
            }
            "textDocument/rename" => {
                let sites = features::sites(rules, &model.texts);
                let (kind, old, _) = renamable_at(model, &sites, &rel, text, offset)?;
                let new = params.get("newName").and_then(Value::as_str).unwrap_or_default();
                if let Some(refusal) = features::refuse_rename(rules, kind, &old, new) {
                    return Err(refusal);
                }
                let mut places = features::references(rules, &sites, kind, &old);
                // An item's translations are keyed by its id: they follow it.
                if kind == features::Kind::Item {
                    places.extend(model.translations.iter().filter(|t| t.unit == old).map(|t| t.key.clone()));
                }
                // The places are in the texts the rules were last checked
                // from: a file edited since would be edited in the wrong places.
                if let Some(changed) =
                    places.iter().find(|p| self.workspace.text(&p.file) != model.texts.get(&p.file).map(String::as_str))
                {
                    return Err(format!(
                        "{} changed since the rules last checked: fix its errors, then rename",
                        changed.file
                    ));
                }
                // By URI text: `Uri` is no map key (it caches its parts).
                let mut changes: BTreeMap<String, Vec<lsp::TextEdit>> = BTreeMap::new();
                for place in places {
                    let Some(location) = self.location(&place, Some(&model.texts)) else { continue };
                    changes
                        .entry(location.uri.as_str().to_string())
                        .or_default()
                        .push(lsp::TextEdit { range: location.range, new_text: new.to_string() });
                }
                self.rename_edit(changes, self.errata_renamed(kind, &old, new))
            }
            _ => Value::Null,
        };
        Ok(value)
    }

    /// The edits of a rename of `old` to `new` in the errata file, by its
    /// URI: its buffer if open, else the file on disk (none if it is not there).
    fn errata_renamed(&self, kind: features::Kind, old: &str, new: &str) -> Option<(String, Vec<lsp::TextEdit>)> {
        let path = self.errata.as_ref()?;
        let on_disk;
        let text = match &self.errata_buffer {
            Some(buffer) => buffer,
            None => {
                let (dir, name) = (path.parent()?, path.file_name()?.to_str()?);
                on_disk = syntax::read_file(dir, name).ok()??;
                &on_disk
            }
        };
        let edits: Vec<lsp::TextEdit> = errata::names(text)
            .into_iter()
            .filter(|n| n.kind == kind && n.name == old)
            .map(|n| lsp::TextEdit { range: self.range(text, n.start, n.name.len()), new_text: new.to_string() })
            .collect();
        (!edits.is_empty()).then(|| (uri::from_path(path), edits))
    }

    /// A rename's workspace edit: the rules files' edits, and the errata
    /// file's (outside the rules folder) marked as needing the author's
    /// confirmation where the client can show that.
    fn rename_edit(
        &self,
        mut changes: BTreeMap<String, Vec<lsp::TextEdit>>,
        outside: Option<(String, Vec<lsp::TextEdit>)>,
    ) -> Value {
        if !self.annotations {
            if let Some((uri, edits)) = outside {
                changes.entry(uri).or_default().extend(edits);
            }
            return json!({ "changes": changes });
        }
        let document =
            |uri: &str, edits: Value| json!({ "textDocument": { "uri": uri, "version": null }, "edits": edits });
        let mut documents: Vec<Value> = changes.iter().map(|(uri, edits)| document(uri, json!(edits))).collect();
        let Some((uri, edits)) = outside else { return json!({ "documentChanges": documents }) };
        const OUTSIDE: &str = "outside-the-rules";
        let annotated: Vec<Value> =
            edits.iter().map(|e| json!({ "range": e.range, "newText": e.new_text, "annotationId": OUTSIDE })).collect();
        documents.push(document(&uri, json!(annotated)));
        let file = self.errata.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
        json!({
            "documentChanges": documents,
            "changeAnnotations": { OUTSIDE: {
                "label": "Outside the rules folder: the wiki crate's errata",
                "needsConfirmation": true,
                "description": file,
            } },
        })
    }

    /// The fixes of the request's diagnostics, as quick fixes: each
    /// diagnostic is found among the problems last published (by its range
    /// and message), so a fix is the compiler's own edit, in whatever file it
    /// falls.
    /// The protocol's completion items for `offered` at `offset`: each
    /// replaces the word typed so far (from its start to the cursor, `-` and
    /// `_` included), and only those that start with that word are sent.
    /// Neovim's omnifunc needs both: 0.7 takes the word's start from the
    /// items' common `textEdit` start (only for items without a
    /// `filterText`) and filters by the new text, 0.11 takes the same start
    /// but leaves an item with a `textEdit` to the server's filtering.
    fn completion_items(
        &self,
        text: &str,
        offset: usize,
        offered: Vec<features::Completion>,
    ) -> Vec<lsp::CompletionItem> {
        let start = features::word_at(text, offset).map_or(offset, |(start, _)| start.min(offset));
        let typed = text[start..offset].to_ascii_lowercase();
        let range = self.range(text, start, offset - start);
        offered
            .into_iter()
            .filter(|c| c.label.to_ascii_lowercase().starts_with(&typed))
            .map(|c| lsp::CompletionItem {
                kind: Some(completion_kind(c.kind)),
                // Editors sort by this, then filter: the ranks stay in front.
                sort_text: Some(format!("{}{}", c.rank, c.label)),
                text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit { range, new_text: c.label.clone() })),
                label: c.label,
                detail: Some(c.detail),
                documentation: (!c.doc.is_empty()).then_some(lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value: c.doc,
                })),
                ..lsp::CompletionItem::default()
            })
            .collect()
    }

    /// The completions at a unit's key being typed in the translation file
    /// `rel`: the units of its section that the language has no
    /// translation of and the file no entry for, each with its English.
    fn missing_units(&self, model: &Model, rel: &str, text: &str, offset: usize) -> Vec<features::Completion> {
        let Some((lang, file)) = untranslated::translated_file(rel) else { return Vec::new() };
        let Some(section) = untranslated::key_place(text, offset) else { return Vec::new() };
        let tree = self.workspace.tree(rel);
        let kind = match section {
            "items" => features::Offered::Item,
            "steps" => features::Offered::Step,
            "markers" => features::Offered::Marker,
            "modules" | "expansions" => features::Offered::Module,
            "editions" | "variants" => features::Offered::Edition,
            _ => features::Offered::Keyword,
        };
        model
            .untranslated()
            .of(lang)
            .filter(|u| u.file == file && u.section == section)
            .filter(|u| tree.is_none_or(|root| !untranslated::written(root, section, &u.key)))
            .map(|u| features::Completion {
                label: u.key.clone(),
                kind,
                rank: 0,
                detail: format!("missing in {lang}"),
                doc: format!("English: {}", markdown_quoted(&u.english)),
            })
            .collect()
    }

    /// For a required language's `missing-translation`: an action per
    /// missing unit it names (the first five, as its message does) that
    /// adds the unit's skeleton to its translation file, each a title and
    /// its workspace edit's changes.
    fn skeletons(&self, problem: &Problem) -> Vec<(String, serde_json::Map<String, Value>)> {
        let Some(model) = self.model.as_ref() else { return Vec::new() };
        // The language's tag where it is declared (the problem itself, or
        // where a problem shown at an edit is reported).
        let declared = std::iter::once(&problem.at)
            .chain(problem.related.iter().map(|(place, _)| place))
            .find(|p| p.file == carcassonne_rules_compiler::translation::LANGUAGES_FILE);
        let Some(declared) = declared else { return Vec::new() };
        let Some(lang) =
            self.workspace.text(&declared.file).and_then(|t| t.get(declared.start..declared.start + declared.len))
        else {
            return Vec::new();
        };
        let all = &model.untranslated().units;
        let mut out = Vec::new();
        for unit in model.untranslated().of(lang) {
            if out.len() == 5 {
                break;
            }
            let target = format!("{}/{lang}/{}", carcassonne_rules_compiler::translation::TRANSLATIONS_DIR, unit.file);
            let Some(text) = self.workspace.text(&target) else { continue };
            // The keys of its section's units of that file that come before it.
            let before: Vec<&str> = all
                .iter()
                .take_while(|u| u.id != unit.id)
                .filter(|u| u.file == unit.file && u.section == unit.section)
                .map(|u| u.key.as_str())
                .collect();
            let Some((at, insert)) = untranslated::skeleton(text, unit, &before) else { continue };
            let Some(place) = self.location(&Place { file: target.clone(), start: at, len: 0 }, None) else { continue };
            let mut changes = serde_json::Map::new();
            changes.insert(place.uri.to_string(), json!([{ "range": place.range, "newText": insert }]));
            out.push((format!("Add `{}` to {target}, its text to translate (empty until then)", unit.id), changes));
        }
        out
    }

    fn code_actions(&self, params: &Value) -> Option<Value> {
        let rel = self.rel(params.pointer("/textDocument/uri")?.as_str()?)?;
        let text = self.workspace.text(&rel).unwrap_or_default();
        let asked = params.pointer("/context/diagnostics")?.as_array()?;
        let lines = positions::Lines::new(text);
        let mut actions = Vec::new();
        for d in asked {
            let range: lsp::Range = serde_json::from_value(d.get("range")?.clone()).ok()?;
            let message = d.get("message").and_then(Value::as_str);
            let published = self.problems.get(&rel).into_iter().flatten();
            let problem = published
                .filter(|p| Some(p.message.as_str()) == message)
                .find(|p| self.range_in(&lines, p.at.start, p.at.len) == range);
            if let Some(problem) = problem.filter(|p| p.code == codes::Code::MissingTranslation) {
                actions.extend(self.skeletons(problem).into_iter().map(|(title, changes)| {
                    json!({ "title": title, "kind": "quickfix", "diagnostics": [d], "edit": { "changes": changes } })
                }));
            }
            for fix in problem.map(|p| p.fixes.as_slice()).unwrap_or_default() {
                let Some(place) = self.location(&fix.at, None) else { continue };
                let mut changes = serde_json::Map::new();
                changes.insert(place.uri.to_string(), json!([{ "range": place.range, "newText": fix.replacement }]));
                actions.push(json!({
                    "title": fix.title,
                    "kind": "quickfix",
                    "diagnostics": [d],
                    "isPreferred": true,
                    "edit": { "changes": changes },
                }));
            }
        }
        Some(json!(actions))
    }

    /// The outline of a file: steps (or sections) → items.
    fn symbols(&self, params: &Value) -> Option<Value> {
        let model = self.model.as_ref()?;
        let rel = self.rel(params.pointer("/textDocument/uri")?.as_str()?)?;
        let file = FileId(model.rules.inputs.iter().position(|input| *input == rel)?);
        let text = model.texts.get(&rel)?;
        // Each symbol's whole extent, from the syntax tree of the text the
        // model was read from (none while the buffer differs from it).
        let mut whole = Whole::default();
        if self.workspace.text(&rel) == Some(text.as_str())
            && let Some(tree) = self.workspace.tree(&rel)
        {
            whole.walk(tree, false);
        }
        fn symbol(server: &Server, text: &str, whole: &Whole, s: &features::Symbol, kind: u32) -> (usize, Value) {
            let selection = server.range(text, s.at.start, s.at.len);
            let item = whole.items.get(&s.at.start);
            let extent = if kind == 24 { item } else { whole.steps.get(&s.name).or(item) };
            let (start, end) = extent.map_or((s.at.start, s.at.start + s.at.len), |r| {
                (r.start.min(s.at.start), r.end.max(s.at.start + s.at.len))
            });
            let range = server.range(text, start, end - start);
            let mut children: Vec<(usize, Value)> =
                s.children.iter().map(|c| symbol(server, text, whole, c, 24)).collect();
            // In the order of the file, not of placement.
            children.sort_by_key(|(start, _)| *start);
            let children: Vec<Value> = children.into_iter().map(|(_, c)| c).collect();
            let value = json!({ "name": s.name, "detail": s.detail, "kind": kind, "range": range,
                                "selectionRange": selection, "children": children });
            (start, value)
        }
        let mut symbols: Vec<(usize, Value)> =
            features::outline(&model.rules, file).iter().map(|s| symbol(self, text, &whole, s, 3)).collect();
        symbols.sort_by_key(|(start, _)| *start);
        Some(json!(symbols.into_iter().map(|(_, s)| s).collect::<Vec<_>>()))
    }

    /// The names the rules define that hold the query, at their definitions.
    fn workspace_symbols(&self, params: &Value) -> Option<Value> {
        let model = self.model.as_ref()?;
        let query = params.get("query").and_then(Value::as_str).unwrap_or_default();
        let found = features::workspace_symbols(&model.rules, query, MAX_SYMBOLS);
        let symbols: Vec<Value> = found
            .into_iter()
            .filter_map(|(name, kind, place)| {
                let (kind, detail) = match kind {
                    features::SymbolKind::Item => (24, "item"),
                    features::SymbolKind::Step => (3, "step"),
                    features::SymbolKind::Module => (2, "module"),
                    features::SymbolKind::Expansion => (4, "expansion"),
                    features::SymbolKind::Flag => (13, "derived flag"),
                    features::SymbolKind::Edition => (22, "edition or variant"),
                    features::SymbolKind::Marker => (14, "marker"),
                };
                let location = self.location(&place, Some(&model.texts))?;
                Some(json!({ "name": name, "kind": kind, "location": location, "containerName": detail }))
            })
            .collect();
        Some(json!(symbols))
    }

    /// The file's current text, by the request's `textDocument`.
    fn document(&self, params: &Value) -> Option<(String, &str)> {
        let rel = self.rel(params.pointer("/textDocument/uri")?.as_str()?)?;
        let text = self.workspace.text(&rel)?;
        Some((rel, text))
    }

    /// Every token of the DSL in the file, classified by the last checked rules.
    fn semantic_tokens(&self, params: &Value) -> Option<Value> {
        let (rel, text) = self.document(params)?;
        let tree = self.workspace.tree(&rel)?;
        let tokens = semantic::tokens(self.model.as_ref().map(|m| m.rules.as_ref()), &rel, tree);
        Some(json!({ "data": semantic::encode(text, &tokens, self.columns) }))
    }

    /// The hints of the requested range.
    fn inlay_hints(&self, params: &Value) -> Option<Value> {
        let (rel, text) = self.document(params)?;
        let model = self.model.as_ref()?;
        let offset_of = |at: &str| -> Option<usize> {
            let line = usize::try_from(params.pointer(&format!("/range/{at}/line"))?.as_u64()?).ok()?;
            let character = usize::try_from(params.pointer(&format!("/range/{at}/character"))?.as_u64()?).ok()?;
            Some(positions::offset(text, line, character, self.columns))
        };
        let (from, to) = (offset_of("start")?, offset_of("end")?);
        let tree = self.workspace.tree(&rel)?;
        let lines = positions::Lines::new(text);
        let hints: Vec<Value> = inlay::hints(&model.rules, &rel, tree, from, to)
            .into_iter()
            .map(|h| {
                let (line, character) = lines.position(h.at, self.columns);
                json!({
                    "position": { "line": line, "character": character },
                    "label": h.label,
                    "tooltip": h.tooltip,
                    "paddingLeft": true,
                })
            })
            .collect();
        Some(json!(hints))
    }
}

/// The whole extent of each item (by where its id starts) and of each step
/// or section key under `items:` (by its name) in a file's syntax tree.
#[derive(Default)]
struct Whole {
    items: HashMap<usize, std::ops::Range<usize>>,
    steps: HashMap<String, std::ops::Range<usize>>,
}

impl Whole {
    fn walk(&mut self, node: &syntax::tree::Node, under_items: bool) {
        use syntax::tree::Value as V;
        match &node.value {
            V::Map(map) => {
                if let Some(id) = node.get("id") {
                    self.items.insert(id.span.start, node.span.clone());
                }
                for (key, value) in &map.entries {
                    if under_items && let Some(name) = key.as_str() {
                        self.steps.insert(name.to_string(), key.span.start..value.span.end.max(key.span.end));
                    }
                    self.walk(value, key.as_str() == Some("items"));
                }
            }
            V::Seq(seq) => seq.entries.iter().for_each(|entry| self.walk(entry, false)),
            V::Scalar(_) => {}
        }
    }
}

/// The name under the cursor, what it names and where it starts: the
/// model's site there, so that a name in a text or a comment is none; by the
/// word alone when the buffer is not the text the model was read from.
fn named_at(
    model: &Model,
    sites: &[features::Site],
    rel: &str,
    text: &str,
    offset: usize,
) -> Option<(features::Kind, String, usize)> {
    if model.texts.get(rel).map(String::as_str) == Some(text) {
        let site = features::site_at(sites, rel, offset)?;
        return Some((site.kind, site.name.clone(), site.at.start));
    }
    let (start, word) = features::word_at(text, offset)?;
    Some((features::kind_of(&model.rules, word)?, word.to_string(), start))
}

/// As [`named_at`], refusing a place that names nothing.
fn renamable_at(
    model: &Model,
    sites: &[features::Site],
    rel: &str,
    text: &str,
    offset: usize,
) -> Result<(features::Kind, String, usize), String> {
    named_at(model, sites, rel, text, offset).ok_or_else(|| "there is no item or derived flag to rename here".into())
}

/// A line or column as the protocol's `u32`.
/// The protocol's icon for what a completion names.
fn completion_kind(kind: features::Offered) -> lsp::CompletionItemKind {
    use features::Offered;
    match kind {
        Offered::Item => lsp::CompletionItemKind::REFERENCE,
        Offered::Step => lsp::CompletionItemKind::FOLDER,
        Offered::Module => lsp::CompletionItemKind::MODULE,
        Offered::Flag => lsp::CompletionItemKind::VARIABLE,
        Offered::Edition => lsp::CompletionItemKind::ENUM_MEMBER,
        Offered::Marker => lsp::CompletionItemKind::CONSTANT,
        Offered::Keyword => lsp::CompletionItemKind::KEYWORD,
    }
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// What the translation at `offset` of the translation file `rel`
/// translates: the English as it is, and the English it was translated from
/// when that changed since.
fn translation_hover(model: &Model, rel: &str, offset: usize) -> Option<String> {
    let within = |p: &Place| p.file == rel && p.start <= offset && offset <= p.start + p.len;
    let site = model.translations.iter().find(|t| within(&t.key) || within(&t.from) || within(&t.text))?;
    let shown = |text: &str| markdown_quoted(text);
    let mut out = format!("**`{}`** in `{}`\n\nEnglish: {}", site.unit, site.lang, shown(&site.now));
    if site.state == carcassonne_rules_compiler::translation::State::Outdated {
        // A fence longer than any run of backticks in the texts: they cannot close it.
        let longest = |t: &str| t.split(|c| c != '`').map(str::len).max().unwrap_or(0);
        let fence = "`".repeat(3.max(longest(&site.was).max(longest(&site.now)) + 1));
        let line = |t: &str| carcassonne_rules_core::escape::terminal::line(t).into_owned();
        out.push_str(&format!(
            "\n\n**Outdated**: its English changed since it was translated\n\n{fence}diff\n- {}\n+ {}\n{fence}",
            line(&site.was),
            line(&site.now)
        ));
    }
    Some(out)
}

/// A text from the rules as Markdown shows it, never as markup.
fn markdown_quoted(text: &str) -> String {
    carcassonne_rules_core::escape::markdown::github(text).into_owned()
}
