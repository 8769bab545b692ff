//! A small C preprocessor: `#define`/`#undef`, conditional inclusion, `#include` from an in-memory
//! map or the built-in standard headers, macro expansion, and a source map back to the user's text.

use crate::headers;
use diagnostics::{Diagnostic, Span};
use budget::hash::HashMap;

/// A macro definition.
#[derive(Clone, Debug)]
struct MacroDefinition {
    /// `None` for object-like macros.
    params: Option<Vec<String>>,
    variadic: bool,
    body: Vec<Token>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokenKind {
    Identifier,
    Number,
    StringLiteral,
    CharLiteral,
    Punct,
    Whitespace,
}

#[derive(Clone, Debug)]
struct Token {
    kind: TokenKind,
    text: String,
    /// Byte offset in the current file's text (for source mapping), when the token comes from it.
    offset: u32,
}

/// One piece of the source map: output bytes `[out_start, out_start+len)` come from the user's
/// file at `src_start` (exactly, byte for byte, when `exact`; otherwise all map to `src_start`).
#[derive(Clone, Copy, Debug)]
struct Segment {
    out_start: u32,
    len: u32,
    src_start: u32,
    src_end: u32,
    exact: bool,
}

/// Maps offsets of the preprocessed text back to byte offsets of the user's main file.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    segments: Vec<Segment>,
    source_len: u32,
}

impl SourceMap {
    /// The offset in the user's file that produced output offset `out`.
    pub fn map_offset(&self, out: u32) -> u32 {
        let index = match self.segments.binary_search_by(|s| s.out_start.cmp(&out)) {
            Ok(i) => i,
            Err(0) => return 0,
            Err(i) => i - 1,
        };
        let seg = self.segments[index];
        let result = if seg.exact && out < seg.out_start + seg.len {
            seg.src_start + (out - seg.out_start)
        } else if seg.exact {
            seg.src_start + seg.len
        } else if out >= seg.out_start + seg.len {
            seg.src_end
        } else {
            seg.src_start
        };
        result.min(self.source_len)
    }

    /// One past the user's offset for the last byte `out` of a range (a macro expansion ends
    /// where its invocation ends).
    fn map_end(&self, out: u32) -> u32 {
        let index = match self.segments.binary_search_by(|s| s.out_start.cmp(&out)) {
            Ok(i) => i,
            Err(0) => return 0,
            Err(i) => i - 1,
        };
        let seg = self.segments[index];
        let result = if seg.exact && out < seg.out_start + seg.len { seg.src_start + (out - seg.out_start) + 1 } else { seg.src_end };
        result.min(self.source_len)
    }

    /// The span in the user's file for an output range.
    pub fn map_span(&self, start: usize, end: usize) -> Span {
        if start == usize::MAX {
            return Span::at(0);
        }
        let s = self.map_offset(start as u32);
        let e = if end > start { self.map_end(end as u32 - 1) } else { s };
        Span::new(s, e.max(s))
    }
}

/// The result of preprocessing.
pub struct Preprocessed {
    pub text: String,
    pub source_map: SourceMap,
}

struct Preprocessor<'a> {
    files: &'a [(String, String)],
    macros: HashMap<String, MacroDefinition>,
    output: String,
    segments: Vec<Segment>,
    diagnostics: Vec<Diagnostic>,
    main_file_name: String,
    include_depth: u32,
    /// Span in the main file of the `#include` currently being processed (for mapping included text).
    include_site: Option<Span>,
    expansion_budget: usize,
    /// Whether "macro expansion too large" was reported (once per file).
    expansion_reported: bool,
}

const MAX_INCLUDE_DEPTH: u32 = 64;
const MAX_OUTPUT_BYTES: usize = 64 << 20;
/// Total bytes macro expansion may produce (guards against exponential macros).
const MAX_EXPANSION_BYTES: usize = 1 << 20;

/// Preprocesses `source` (named `file_name`) with the given in-memory files and predefined macros.
pub fn preprocess(
    source: &str,
    file_name: &str,
    files: &[(String, String)],
    defines: &[(String, String)],
) -> (Preprocessed, Vec<Diagnostic>) {
    let mut pp = Preprocessor {
        files,
        macros: HashMap::default(),
        output: String::with_capacity(source.len() + 1024),
        segments: Vec::new(),
        diagnostics: Vec::new(),
        main_file_name: file_name.to_string(),
        include_depth: 0,
        include_site: None,
        expansion_budget: MAX_EXPANSION_BYTES,
        expansion_reported: false,
    };
    for (name, value) in [
        ("__STDC__", "1"),
        ("__STDC_VERSION__", "201112L"),
        ("__STDC_HOSTED__", "1"),
        ("__x86_64__", "1"),
        ("__LP64__", "1"),
        ("__CHAR_BIT__", "8"),
        ("__SIZEOF_INT__", "4"),
        ("__SIZEOF_LONG__", "8"),
        ("__SIZEOF_POINTER__", "8"),
        ("__PREDABS__", "1"),
    ] {
        pp.define_from_text(name, value);
    }
    // GNU attributes carry nothing the analyses need, and lang-c rejects some placements
    // (`struct __attribute__((packed)) s { ... }`): drop them before parsing.
    for name in ["__attribute__", "__attribute"] {
        pp.macros.insert(name.to_string(), MacroDefinition { params: Some(vec!["__predabs_attribute".into()]), variadic: false, body: Vec::new() });
    }
    for (name, value) in defines {
        pp.define_from_text(name, value);
    }
    pp.process_file(source, file_name, true);
    let source_map = SourceMap { segments: pp.segments, source_len: source.len() as u32 };
    (Preprocessed { text: pp.output, source_map }, pp.diagnostics)
}

/// Replaces comments by spaces (keeping newlines and offsets), for other parsers of C-like text.
pub(crate) fn blank_comments_pub(text: &str) -> String {
    blank_comments(text)
}

/// Replaces comments by spaces (keeping newlines, so offsets are unchanged).
fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' | b'\'' => {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if i + 1 < bytes.len() && bytes[i + 1] == b'/' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    // a backslash-newline continues a line comment
                    if bytes[i] == b'\\' && i + 1 < bytes.len() && bytes[i + 1] == b'\n' {
                        out[i] = b' ';
                        i += 2;
                        continue;
                    }
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if i + 1 < bytes.len() && bytes[i + 1] == b'*' => {
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && i + 1 < bytes.len() && bytes[i + 1] == b'/') {
                    if bytes[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                if i < bytes.len() {
                    out[i] = b' ';
                    if i + 1 < bytes.len() {
                        out[i + 1] = b' ';
                    }
                    i += 2;
                }
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were replaced by ASCII spaces, and only whole characters (comment bodies
    // may contain multi-byte characters: those bytes became spaces one by one, still valid UTF-8).
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}
fn is_ident_continue(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Splits text into tokens; `base` is added to token offsets.
fn tokenize(text: &str, base: u32) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        let kind = if c == b'\\' && i + 1 < bytes.len() && bytes[i + 1] == b'\n' {
            i += 2;
            TokenKind::Whitespace
        } else if c.is_ascii_whitespace() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            TokenKind::Whitespace
        } else if is_ident_start(c) {
            while i < bytes.len() && is_ident_continue(bytes[i]) {
                i += 1;
            }
            // wide/unicode string or char prefixes
            if i < bytes.len() && (bytes[i] == b'"' || bytes[i] == b'\'') && matches!(&text[start..i], "L" | "u" | "U" | "u8") {
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i = (i + 1).min(bytes.len());
                if quote == b'"' {
                    TokenKind::StringLiteral
                } else {
                    TokenKind::CharLiteral
                }
            } else {
                TokenKind::Identifier
            }
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < bytes.len() && bytes[i + 1].is_ascii_digit()) {
            while i < bytes.len() {
                let d = bytes[i];
                let exponent_sign = (d == b'+' || d == b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P');
                if exponent_sign || d.is_ascii_alphanumeric() || d == b'.' || d == b'_' {
                    i += 1;
                } else {
                    break;
                }
            }
            TokenKind::Number
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(bytes.len());
            if c == b'"' {
                TokenKind::StringLiteral
            } else {
                TokenKind::CharLiteral
            }
        } else {
            let three = &bytes[i..(i + 3).min(bytes.len())];
            let two = &bytes[i..(i + 2).min(bytes.len())];
            if three == b"..." || three == b"<<=" || three == b">>=" {
                i += 3;
            } else if matches!(
                two,
                b"##" | b"->" | b"++" | b"--" | b"<<" | b">>" | b"<=" | b">=" | b"==" | b"!=" | b"&&" | b"||" | b"+=" | b"-=" | b"*=" | b"/=" | b"%=" | b"&=" | b"|=" | b"^="
            ) {
                i += 2;
            } else {
                // one (possibly multi-byte) character
                i += 1;
                while i < bytes.len() && !text.is_char_boundary(i) {
                    i += 1;
                }
            }
            TokenKind::Punct
        };
        tokens.push(Token { kind, text: text[start..i].to_string(), offset: base + start as u32 });
    }
    tokens
}

fn first_non_ws(tokens: &[Token], from: usize) -> Option<usize> {
    (from..tokens.len()).find(|&i| tokens[i].kind != TokenKind::Whitespace)
}

/// State of one `#if` group.
struct Conditional {
    /// Whether the enclosing context is active.
    parent_active: bool,
    /// Whether some branch of this group was already taken.
    taken: bool,
    /// Whether the current branch is active.
    active: bool,
    seen_else: bool,
    span: Span,
}

impl<'a> Preprocessor<'a> {
    fn define_from_text(&mut self, name: &str, value: &str) {
        let body = tokenize(value, 0);
        self.macros.insert(name.to_string(), MacroDefinition { params: None, variadic: false, body });
    }

    /// Span in the main file for offset range in the current file.
    fn span_in_file(&self, is_main: bool, start: u32, end: u32) -> Span {
        if is_main {
            Span::new(start, end)
        } else {
            self.include_site.unwrap_or_default()
        }
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::error(span, message));
    }

    fn emit_exact(&mut self, text: &str, src_start: u32, is_main: bool) {
        if text.is_empty() {
            return;
        }
        let out_start = self.output.len() as u32;
        if is_main {
            self.segments.push(Segment { out_start, len: text.len() as u32, src_start, src_end: src_start + text.len() as u32, exact: true });
        } else {
            let site = self.include_site.unwrap_or_default();
            self.segments.push(Segment { out_start, len: text.len() as u32, src_start: site.start, src_end: site.end, exact: false });
        }
        self.output.push_str(text);
    }

    fn emit_collapsed(&mut self, text: &str, span: Span) {
        if text.is_empty() {
            return;
        }
        let out_start = self.output.len() as u32;
        self.segments.push(Segment { out_start, len: text.len() as u32, src_start: span.start, src_end: span.end, exact: false });
        self.output.push_str(text);
    }

    fn emit_line_marker(&mut self, line: usize, file: &str) {
        if !self.output.is_empty() && !self.output.ends_with('\n') {
            self.output.push('\n');
        }
        let marker = format!("# {} \"{}\"\n", line, file.replace('\\', "\\\\").replace('"', "\\\""));
        // markers map to nothing in particular: give them the position of the following text
        self.output.push_str(&marker);
    }

    fn process_file(&mut self, raw: &str, file_name: &str, is_main: bool) {
        let text = blank_comments(raw);
        let mut conditionals: Vec<Conditional> = Vec::new();
        // line starts, with backslash-newline continuation joining for directives
        let bytes = text.as_bytes();
        let mut pos = 0usize;
        let mut line_number = 1usize;
        let mut chunk_start: Option<usize> = None;
        let mut chunk_line = 1usize;
        self.emit_line_marker(1, file_name);
        while pos < bytes.len() {
            // find end of logical line
            let line_start = pos;
            let mut end = pos;
            let mut lines_in = 1;
            while end < bytes.len() && bytes[end] != b'\n' {
                if bytes[end] == b'\\' && end + 1 < bytes.len() && bytes[end + 1] == b'\n' {
                    end += 2;
                    lines_in += 1;
                    continue;
                }
                if bytes[end] == b'\\' && end + 2 < bytes.len() && bytes[end + 1] == b'\r' && bytes[end + 2] == b'\n' {
                    end += 3;
                    lines_in += 1;
                    continue;
                }
                end += 1;
            }
            let next = if end < bytes.len() { end + 1 } else { end };
            let line = &text[line_start..end];
            let trimmed = line.trim_start();
            let active = conditionals.last().map(|c| c.active).unwrap_or(true);
            if trimmed.starts_with('#') {
                // flush the pending chunk of ordinary lines
                if let Some(cs) = chunk_start.take() {
                    self.expand_chunk(&text[cs..line_start], cs as u32, is_main, chunk_line, file_name);
                }
                let hash_offset = line_start + (line.len() - trimmed.len());
                self.directive(&text, hash_offset, end, is_main, file_name, &mut conditionals, active);
                // keep line numbers of the output in step with the file
                line_number += lines_in;
                self.emit_line_marker(line_number, file_name);
                chunk_line = line_number;
            } else {
                if active {
                    if chunk_start.is_none() {
                        chunk_start = Some(line_start);
                        chunk_line = line_number;
                    }
                } else if let Some(cs) = chunk_start.take() {
                    self.expand_chunk(&text[cs..line_start], cs as u32, is_main, chunk_line, file_name);
                }
                line_number += lines_in;
                if !active {
                    chunk_line = line_number;
                }
            }
            pos = next;
            if self.output.len() > MAX_OUTPUT_BYTES {
                self.error(self.span_in_file(is_main, line_start as u32, end as u32), "preprocessor output too large");
                return;
            }
        }
        if let Some(cs) = chunk_start.take() {
            self.expand_chunk(&text[cs..], cs as u32, is_main, chunk_line, file_name);
        }
        for c in conditionals {
            let span = if is_main { c.span } else { self.include_site.unwrap_or_default() };
            self.diagnostics.push(
                Diagnostic::error(span, "unterminated conditional directive").with_help("add the matching `#endif`"),
            );
        }
    }

    fn directive(
        &mut self,
        text: &str,
        hash: usize,
        end: usize,
        is_main: bool,
        file_name: &str,
        conditionals: &mut Vec<Conditional>,
        active: bool,
    ) {
        let line = &text[hash + 1..end];
        let tokens = tokenize(line, hash as u32 + 1);
        let span = self.span_in_file(is_main, hash as u32, end as u32);
        let Some(name_index) = first_non_ws(&tokens, 0) else { return };
        let name = tokens[name_index].text.clone();
        let rest = &tokens[name_index + 1..];
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let value = if !active {
                    false
                } else if name == "if" {
                    self.evaluate_condition(rest, span) != 0
                } else {
                    match first_non_ws(rest, 0) {
                        Some(i) if rest[i].kind == TokenKind::Identifier => {
                            let defined = self.macros.contains_key(&rest[i].text);
                            if name == "ifdef" {
                                defined
                            } else {
                                !defined
                            }
                        }
                        _ => {
                            self.error(span, format!("`#{name}` needs a macro name"));
                            false
                        }
                    }
                };
                conditionals.push(Conditional { parent_active: active, taken: value, active: value, seen_else: false, span });
            }
            "elif" => {
                let Some(mut top) = conditionals.pop() else {
                    self.error(span, "`#elif` without `#if`");
                    return;
                };
                if top.seen_else {
                    self.error(span, "`#elif` after `#else`");
                }
                if top.parent_active && !top.taken {
                    let value = self.evaluate_condition(rest, span) != 0;
                    top.active = value;
                    top.taken = value;
                } else {
                    top.active = false;
                }
                conditionals.push(top);
            }
            "else" => {
                let Some(mut top) = conditionals.pop() else {
                    self.error(span, "`#else` without `#if`");
                    return;
                };
                if top.seen_else {
                    self.error(span, "`#else` after `#else`");
                }
                top.seen_else = true;
                top.active = top.parent_active && !top.taken;
                top.taken = true;
                conditionals.push(top);
            }
            "endif" => {
                if conditionals.pop().is_none() {
                    self.error(span, "`#endif` without `#if`");
                }
            }
            _ if !active => {}
            "define" => self.define(rest, span),
            "undef" => {
                if let Some(i) = first_non_ws(rest, 0) {
                    self.macros.remove(&rest[i].text);
                }
            }
            "include" | "include_next" => self.include(rest, span, is_main, file_name),
            "error" => {
                let message: String = rest.iter().map(|t| t.text.as_str()).collect();
                self.error(span, format!("#error {}", message.trim()));
            }
            "warning" => {
                let message: String = rest.iter().map(|t| t.text.as_str()).collect();
                self.diagnostics.push(Diagnostic::warning(span, format!("#warning {}", message.trim())));
            }
            "pragma" | "line" | "ident" | "sccs" | "assert" | "unassert" => {}
            _ if tokens[name_index].kind == TokenKind::Number => {} // a line marker `# 12 "file.c"`
            _ => self.error(span, format!("unknown preprocessor directive `#{name}`")),
        }
    }

    fn define(&mut self, tokens: &[Token], span: Span) {
        let Some(i) = first_non_ws(tokens, 0) else {
            self.error(span, "`#define` needs a macro name");
            return;
        };
        if tokens[i].kind != TokenKind::Identifier {
            self.error(span, "macro name must be an identifier");
            return;
        }
        let name = tokens[i].text.clone();
        let mut j = i + 1;
        let mut params = None;
        let mut variadic = false;
        if j < tokens.len() && tokens[j].text == "(" {
            // function-like
            let mut list = Vec::new();
            j += 1;
            loop {
                let Some(k) = first_non_ws(tokens, j) else {
                    self.error(span, format!("unterminated parameter list of macro `{name}`"));
                    return;
                };
                let t = &tokens[k];
                if t.text == ")" {
                    j = k + 1;
                    break;
                } else if t.text == "," {
                    j = k + 1;
                } else if t.text == "..." {
                    variadic = true;
                    list.push("__VA_ARGS__".to_string());
                    j = k + 1;
                } else if t.kind == TokenKind::Identifier {
                    list.push(t.text.clone());
                    j = k + 1;
                    // GNU named variadic `args...`
                    if let Some(m) = first_non_ws(tokens, j) {
                        if tokens[m].text == "..." {
                            variadic = true;
                            j = m + 1;
                        }
                    }
                } else {
                    self.error(span, format!("bad parameter list of macro `{name}`"));
                    return;
                }
            }
            params = Some(list);
        }
        let mut body: Vec<Token> = tokens[j..].to_vec();
        while body.first().is_some_and(|t| t.kind == TokenKind::Whitespace) {
            body.remove(0);
        }
        while body.last().is_some_and(|t| t.kind == TokenKind::Whitespace) {
            body.pop();
        }
        for t in &mut body {
            if t.kind == TokenKind::Whitespace {
                t.text = " ".into();
            }
        }
        self.macros.insert(name, MacroDefinition { params, variadic, body });
    }

    fn include(&mut self, tokens: &[Token], span: Span, is_main: bool, _file_name: &str) {
        // the operand may itself be a macro
        let Some(i) = first_non_ws(tokens, 0) else {
            self.error(span, "`#include` needs a file name");
            return;
        };
        let (name, system) = if tokens[i].kind == TokenKind::StringLiteral {
            (tokens[i].text.trim_matches('"').to_string(), false)
        } else if tokens[i].text == "<" {
            let name: String = tokens[i + 1..].iter().take_while(|t| t.text != ">").map(|t| t.text.as_str()).collect();
            (name.trim().to_string(), true)
        } else {
            self.error(span, "`#include` expects \"FILE\" or <FILE>");
            return;
        };
        if self.include_depth >= MAX_INCLUDE_DEPTH {
            self.error(span, format!("#include nested too deeply (`{name}`)"));
            return;
        }
        let user_file = if system {
            None
        } else {
            self.files
                .iter()
                .find(|(n, _)| *n == name)
                .or_else(|| self.files.iter().find(|(n, _)| n.rsplit('/').next() == name.rsplit('/').next()))
                .map(|(n, t)| (n.clone(), t.clone()))
        };
        let (included_name, contents) = match user_file {
            Some(found) => found,
            None => match headers::builtin_header(&name) {
                Some(text) => (format!("<{name}>"), text.to_string()),
                None => {
                    self.diagnostics.push(
                        Diagnostic::warning(span, format!("header `{name}` is not available; ignoring the #include"))
                            .with_help("pass the file in the in-memory include map, or declare what you use"),
                    );
                    return;
                }
            },
        };
        let saved_site = self.include_site;
        if is_main {
            self.include_site = Some(span);
        }
        self.include_depth += 1;
        self.process_file(&contents, &included_name, false);
        self.include_depth -= 1;
        self.include_site = saved_site;
        let _ = &self.main_file_name;
    }

    /// Evaluates the operand of `#if`/`#elif`.
    fn evaluate_condition(&mut self, tokens: &[Token], span: Span) -> i128 {
        // replace `defined X` / `defined(X)` first
        let mut replaced = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if t.kind == TokenKind::Identifier && t.text == "defined" {
                let mut j = first_non_ws(tokens, i + 1);
                let mut paren = false;
                if let Some(k) = j {
                    if tokens[k].text == "(" {
                        paren = true;
                        j = first_non_ws(tokens, k + 1);
                    }
                }
                let Some(k) = j else {
                    self.error(span, "`defined` needs a macro name");
                    return 0;
                };
                let value = self.macros.contains_key(&tokens[k].text);
                let mut after = k + 1;
                if paren {
                    match first_non_ws(tokens, k + 1) {
                        Some(m) if tokens[m].text == ")" => after = m + 1,
                        _ => {
                            self.error(span, "missing `)` after `defined(`");
                            return 0;
                        }
                    }
                }
                replaced.push(Token { kind: TokenKind::Number, text: if value { "1".into() } else { "0".into() }, offset: t.offset });
                i = after;
            } else {
                replaced.push(t.clone());
                i += 1;
            }
        }
        let mut disabled = Vec::new();
        let expanded = self.expand_tokens(&replaced, &mut disabled, 0);
        let significant: Vec<Token> = expanded.into_iter().filter(|t| t.kind != TokenKind::Whitespace).collect();
        let mut parser = ConditionParser { tokens: &significant, pos: 0, error: None, depth: 0 };
        let value = parser.conditional();
        if parser.error.is_none() && parser.pos < significant.len() {
            parser.error = Some(format!("unexpected `{}` in #if expression", significant[parser.pos].text));
        }
        if let Some(message) = parser.error {
            self.error(span, message);
            return 0;
        }
        value
    }

    fn expand_chunk(&mut self, chunk: &str, base: u32, is_main: bool, _line: usize, _file_name: &str) {
        let tokens = tokenize(chunk, base);
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if t.kind == TokenKind::Identifier && self.macros.contains_key(&t.text) {
                let start = t.offset;
                let (replacement, consumed) = self.expand_one(&tokens, i, &mut Vec::new(), 0);
                if consumed == 0 {
                    self.emit_exact(&t.text.clone(), t.offset, is_main);
                    i += 1;
                    continue;
                }
                let last = &tokens[i + consumed - 1];
                let end = last.offset + last.text.len() as u32;
                let text: String = join_tokens(&replacement);
                // keep newlines of a multi-line invocation so line numbers stay right
                let newlines = tokens[i..i + consumed].iter().map(|t| t.text.matches('\n').count()).sum::<usize>();
                let mut text = text.replace('\n', " ");
                for _ in 0..newlines {
                    text.push('\n');
                }
                let span = self.span_in_file(is_main, start, end);
                if is_main {
                    self.emit_collapsed(&format!(" {text} "), span);
                } else {
                    self.emit_exact(&format!(" {text} "), 0, false);
                }
                i += consumed;
            } else {
                // copy a run of tokens that need no expansion
                let run_start = i;
                while i < tokens.len() && !(tokens[i].kind == TokenKind::Identifier && self.macros.contains_key(&tokens[i].text)) {
                    i += 1;
                }
                let from = tokens[run_start].offset;
                let text: String = tokens[run_start..i].iter().map(|t| t.text.as_str()).collect();
                let text = text.replace("\\\n", "  ");
                self.emit_exact(&text, from, is_main);
            }
            if self.output.len() > MAX_OUTPUT_BYTES {
                return;
            }
        }
    }

    /// Expands the macro invocation at `tokens[i]`; returns the replacement and how many input
    /// tokens it consumed (0 when the name is not an invocation, e.g. a function-like macro without `(`).
    fn expand_one(&mut self, tokens: &[Token], i: usize, disabled: &mut Vec<String>, depth: u32) -> (Vec<Token>, usize) {
        let name = tokens[i].text.clone();
        let offset = tokens[i].offset;
        if name == "__LINE__" {
            return (vec![Token { kind: TokenKind::Number, text: "0".into(), offset }], 1);
        }
        if name == "__FILE__" {
            let text = format!("{:?}", self.main_file_name);
            return (vec![Token { kind: TokenKind::StringLiteral, text, offset }], 1);
        }
        let Some(def) = self.macros.get(&name).cloned() else { return (Vec::new(), 0) };
        if depth > 200 || self.expansion_budget == 0 {
            if self.expansion_budget == 0 && !self.expansion_reported {
                self.expansion_reported = true;
                let span = self.include_site.unwrap_or(Span::new(offset, offset + name.len() as u32));
                self.error(span, format!("macro expansion too large (at `{name}`)"));
            }
            return (Vec::new(), 0);
        }
        match &def.params {
            None => {
                disabled.push(name);
                let out = self.expand_tokens(&def.body, disabled, depth + 1);
                disabled.pop();
                (out, 1)
            }
            Some(params) => {
                let Some(open) = first_non_ws(tokens, i + 1) else { return (Vec::new(), 0) };
                if tokens[open].text != "(" {
                    return (Vec::new(), 0);
                }
                // collect arguments
                let mut args: Vec<Vec<Token>> = vec![Vec::new()];
                let mut level = 0;
                let mut j = open + 1;
                let mut closed = false;
                while j < tokens.len() {
                    let t = &tokens[j];
                    if t.text == "(" {
                        level += 1;
                    } else if t.text == ")" {
                        if level == 0 {
                            closed = true;
                            break;
                        }
                        level -= 1;
                    } else if t.text == "," && level == 0 && !(def.variadic && args.len() == params.len()) {
                        args.push(Vec::new());
                        j += 1;
                        continue;
                    }
                    args.last_mut().expect("nonempty").push(t.clone());
                    j += 1;
                }
                if !closed {
                    return (Vec::new(), 0);
                }
                if params.is_empty() && args.len() == 1 && args[0].iter().all(|t| t.kind == TokenKind::Whitespace) {
                    args.clear();
                }
                while def.variadic && args.len() < params.len() {
                    args.push(Vec::new());
                }
                if args.len() != params.len() {
                    let _ = self.diagnostics.len();
                    // wrong argument count: leave the invocation alone
                    return (Vec::new(), 0);
                }
                let body = substitute(&def.body, params, &args, self, disabled, depth);
                disabled.push(name);
                let out = self.expand_tokens(&body, disabled, depth + 1);
                disabled.pop();
                (out, j + 1 - i)
            }
        }
    }

    fn expand_tokens(&mut self, tokens: &[Token], disabled: &mut Vec<String>, depth: u32) -> Vec<Token> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let t = &tokens[i];
            if t.kind == TokenKind::Identifier && !disabled.contains(&t.text) && (self.macros.contains_key(&t.text) || t.text == "__LINE__" || t.text == "__FILE__") {
                let (replacement, consumed) = self.expand_one(tokens, i, disabled, depth);
                if consumed > 0 {
                    let size: usize = replacement.iter().map(|t| t.text.len()).sum();
                    self.expansion_budget = self.expansion_budget.saturating_sub(size);
                    out.extend(replacement);
                    i += consumed;
                    continue;
                }
            }
            out.push(t.clone());
            i += 1;
        }
        out
    }
}

fn join_tokens(tokens: &[Token]) -> String {
    let mut s = String::new();
    let mut previous: Option<&Token> = None;
    for t in tokens {
        if let Some(p) = previous {
            // keep tokens apart that would otherwise glue together
            let glue = (is_word(p) && is_word(t)) || (p.kind == TokenKind::Punct && t.kind == TokenKind::Punct);
            if glue && !s.ends_with(' ') {
                s.push(' ');
            }
        }
        s.push_str(&t.text);
        previous = Some(t);
    }
    s
}

fn is_word(t: &Token) -> bool {
    matches!(t.kind, TokenKind::Identifier | TokenKind::Number)
}

/// Replaces parameters in a function-like macro body by (expanded) arguments, handling `#` and `##`.
fn substitute(
    body: &[Token],
    params: &[String],
    args: &[Vec<Token>],
    pp: &mut Preprocessor<'_>,
    disabled: &mut Vec<String>,
    depth: u32,
) -> Vec<Token> {
    let param_index = |t: &Token| -> Option<usize> {
        if t.kind == TokenKind::Identifier {
            params.iter().position(|p| *p == t.text)
        } else {
            None
        }
    };
    let trim = |v: &[Token]| -> Vec<Token> {
        let mut v = v.to_vec();
        while v.first().is_some_and(|t| t.kind == TokenKind::Whitespace) {
            v.remove(0);
        }
        while v.last().is_some_and(|t| t.kind == TokenKind::Whitespace) {
            v.pop();
        }
        v
    };
    let mut out: Vec<Token> = Vec::new();
    let mut expanded_args: Vec<Option<Vec<Token>>> = vec![None; args.len()];
    let mut i = 0;
    while i < body.len() {
        if pp.expansion_budget == 0 {
            break;
        }
        let t = &body[i];
        if t.text == "#" {
            if let Some(k) = first_non_ws(body, i + 1) {
                if let Some(p) = param_index(&body[k]) {
                    let raw: String = join_tokens(&trim(&args[p]));
                    let text = format!("\"{}\"", raw.replace('\\', "\\\\").replace('"', "\\\""));
                    out.push(Token { kind: TokenKind::StringLiteral, text, offset: t.offset });
                    i = k + 1;
                    continue;
                }
            }
        }
        if t.text == "##" {
            // paste: join the previous significant token with the next one (raw argument)
            while out.last().is_some_and(|t| t.kind == TokenKind::Whitespace) {
                out.pop();
            }
            if let Some(k) = first_non_ws(body, i + 1) {
                let right: Vec<Token> = match param_index(&body[k]) {
                    Some(p) => trim(&args[p]),
                    None => vec![body[k].clone()],
                };
                let mut right = right.into_iter();
                if let Some(first) = right.next() {
                    if let Some(last) = out.last_mut() {
                        last.text.push_str(&first.text);
                        let joined = tokenize(&last.text, last.offset);
                        if joined.len() == 1 {
                            last.kind = joined[0].kind;
                        }
                    } else {
                        out.push(first);
                    }
                }
                out.extend(right);
                i = k + 1;
                continue;
            }
            i += 1;
            continue;
        }
        if let Some(p) = param_index(t) {
            // an operand of a following `##` is used raw
            let next_is_paste = first_non_ws(body, i + 1).is_some_and(|k| body[k].text == "##");
            if next_is_paste {
                out.extend(trim(&args[p]));
            } else {
                let expanded = match &expanded_args[p] {
                    Some(e) => e.clone(),
                    None => {
                        let e = pp.expand_tokens(&args[p], disabled, depth + 1);
                        expanded_args[p] = Some(e.clone());
                        e
                    }
                };
                let size: usize = expanded.iter().map(|t| t.text.len()).sum();
                pp.expansion_budget = pp.expansion_budget.saturating_sub(size);
                out.push(Token { kind: TokenKind::Whitespace, text: " ".into(), offset: t.offset });
                out.extend(expanded);
                out.push(Token { kind: TokenKind::Whitespace, text: " ".into(), offset: t.offset });
            }
            i += 1;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// Integer expressions of `#if`.
struct ConditionParser<'t> {
    tokens: &'t [Token],
    pos: usize,
    error: Option<String>,
    /// Open parentheses, unary operators and `?:` around the current token (recursion depth).
    depth: usize,
}

/// The deepest `#if` expression evaluated (the recursive parser stays far from the stack's end).
const MAX_CONDITION_DEPTH: usize = 256;

impl ConditionParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.tokens.get(self.pos).map(|t| t.text.as_str())
    }
    fn fail(&mut self, message: String) -> i128 {
        if self.error.is_none() {
            self.error = Some(message);
        }
        self.pos = self.tokens.len();
        0
    }
    fn conditional(&mut self) -> i128 {
        if self.depth >= MAX_CONDITION_DEPTH {
            return self.fail(format!("#if expression nested too deeply (more than {MAX_CONDITION_DEPTH} levels)"));
        }
        self.depth += 1;
        let value = self.conditional_inner();
        self.depth -= 1;
        value
    }
    fn conditional_inner(&mut self) -> i128 {
        let c = self.binary(0);
        if self.peek() == Some("?") {
            self.pos += 1;
            let a = self.conditional();
            if self.peek() != Some(":") {
                return self.fail("expected `:` in #if expression".into());
            }
            self.pos += 1;
            let b = self.conditional();
            return if c != 0 { a } else { b };
        }
        c
    }
    fn precedence(op: &str) -> Option<u8> {
        Some(match op {
            "||" => 1,
            "&&" => 2,
            "|" => 3,
            "^" => 4,
            "&" => 5,
            "==" | "!=" => 6,
            "<" | ">" | "<=" | ">=" => 7,
            "<<" | ">>" => 8,
            "+" | "-" => 9,
            "*" | "/" | "%" => 10,
            _ => return None,
        })
    }
    fn binary(&mut self, min: u8) -> i128 {
        let mut left = self.unary();
        loop {
            let Some(op) = self.peek().map(str::to_string) else { break };
            let Some(p) = Self::precedence(&op) else { break };
            if p <= min {
                break;
            }
            self.pos += 1;
            let right = self.binary(p);
            left = match op.as_str() {
                "||" => ((left != 0) || (right != 0)) as i128,
                "&&" => ((left != 0) && (right != 0)) as i128,
                "|" => left | right,
                "^" => left ^ right,
                "&" => left & right,
                "==" => (left == right) as i128,
                "!=" => (left != right) as i128,
                "<" => (left < right) as i128,
                ">" => (left > right) as i128,
                "<=" => (left <= right) as i128,
                ">=" => (left >= right) as i128,
                "<<" => left.checked_shl((right & 127) as u32).unwrap_or(0),
                ">>" => left >> (right & 127),
                "+" => left.wrapping_add(right),
                "-" => left.wrapping_sub(right),
                "*" => left.wrapping_mul(right),
                "/" | "%" => {
                    if right == 0 {
                        return self.fail("division by zero in #if expression".into());
                    }
                    if op == "/" {
                        left.wrapping_div(right)
                    } else {
                        left.wrapping_rem(right)
                    }
                }
                _ => left,
            };
        }
        left
    }
    fn unary(&mut self) -> i128 {
        if self.depth >= MAX_CONDITION_DEPTH {
            return self.fail(format!("#if expression nested too deeply (more than {MAX_CONDITION_DEPTH} levels)"));
        }
        self.depth += 1;
        let value = self.unary_inner();
        self.depth -= 1;
        value
    }
    fn unary_inner(&mut self) -> i128 {
        let Some(t) = self.tokens.get(self.pos).cloned() else {
            return self.fail("missing operand in #if expression".into());
        };
        self.pos += 1;
        match t.text.as_str() {
            "-" => self.unary().wrapping_neg(),
            "+" => self.unary(),
            "!" => (self.unary() == 0) as i128,
            "~" => !self.unary(),
            "(" => {
                let v = self.conditional();
                if self.peek() != Some(")") {
                    return self.fail("expected `)` in #if expression".into());
                }
                self.pos += 1;
                v
            }
            _ => match t.kind {
                TokenKind::Number => match parse_integer_literal(&t.text) {
                    Some(v) => v,
                    None => self.fail(format!("invalid number `{}` in #if expression", t.text)),
                },
                TokenKind::CharLiteral => parse_char_literal(&t.text).unwrap_or(0),
                // identifiers left after expansion are 0
                TokenKind::Identifier => 0,
                _ => self.fail(format!("unexpected `{}` in #if expression", t.text)),
            },
        }
    }
}

/// Value of a C integer literal (ignoring suffixes).
pub fn parse_integer_literal(text: &str) -> Option<i128> {
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    if digits.is_empty() {
        return if radix == 8 { Some(0) } else { None };
    }
    u128::from_str_radix(digits, radix).ok().map(|v| v as i128)
}

/// Value of a C character literal such as `'a'` or `'\n'`.
pub fn parse_char_literal(text: &str) -> Option<i128> {
    let inner = text.trim_start_matches(['L', 'u', 'U']).strip_prefix('\'')?.strip_suffix('\'')?;
    let values = unescape(inner);
    values.first().map(|&b| b as i8 as i128)
}

/// Decodes C escape sequences into bytes.
pub fn unescape(inner: &str) -> Vec<u8> {
    let bytes = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 >= bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = bytes[i];
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < bytes.len() && (b'0'..=b'7').contains(&bytes[i]) {
                    v = v * 8 + (bytes[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'x' => {
                let mut v = 0u32;
                while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16).wrapping_add((bytes[i] as char).to_digit(16).unwrap_or(0));
                    i += 1;
                }
                out.push(v as u8);
            }
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'e' => out.push(27),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> (String, Vec<Diagnostic>) {
        let (p, d) = preprocess(src, "t.c", &[], &[]);
        let text: String = p.text.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join(" ");
        (text.split_whitespace().collect::<Vec<_>>().join(" "), d)
    }

    #[test]
    fn object_and_function_macros_expand() {
        let (t, d) = run("#define N 10\n#define SQ(x) ((x)*(x))\nint a = SQ(N+1);\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(t.replace(' ', ""), "inta=((10+1)*(10+1));");
    }

    #[test]
    fn conditionals_select_branches() {
        let (t, d) = run("#define A 2\n#if A > 1 && defined(A)\nyes\n#elif 1\nno\n#else\nno2\n#endif\n#ifndef B\nb\n#endif\n");
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(t, "yes b");
    }

    #[test]
    fn unbalanced_if_reports() {
        let (_, d) = run("#if 1\nint x;\n");
        assert!(d.iter().any(|d| d.message.contains("unterminated")));
        let (_, d) = run("#endif\n");
        assert!(d.iter().any(|d| d.message.contains("without")));
    }

    #[test]
    fn spans_map_back_through_markers() {
        let src = "#include <stdlib.h>\nint x;\n";
        let (p, _) = preprocess(src, "t.c", &[], &[]);
        let at = p.text.rfind("int x").unwrap();
        assert_eq!(p.source_map.map_offset(at as u32) as usize, src.find("int x").unwrap());
    }
}
