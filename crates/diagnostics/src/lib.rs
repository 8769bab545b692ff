//! Source spans, diagnostics with severity/labels/help, and line:column rendering shared by every stage.

use std::fmt;

/// A half-open byte range `[start, end)` into one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: u32, end: u32) -> Span {
        Span { start, end: end.max(start) }
    }
    /// An empty span at `offset`.
    pub fn at(offset: u32) -> Span {
        Span { start: offset, end: offset }
    }
    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
    pub fn len(self) -> u32 {
        self.end - self.start
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        })
    }
}

/// A secondary span with a short message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// One message for the user, anchored at a primary span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub labels: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), span, labels: Vec::new(), help: None }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, message: message.into(), span, labels: Vec::new(), help: None }
    }
    pub fn note(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Note, message: message.into(), span, labels: Vec::new(), help: None }
    }
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { span, message: message.into() });
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// 1-based line and column (column counted in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Maps byte offsets of one text to lines and columns.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    text: String,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        LineIndex { line_starts, text: text.to_string() }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// Line and column of `offset` (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() as u32 + 1;
        LineCol { line: line as u32 + 1, column }
    }

    /// Byte offset of the start of 1-based `line` (clamped).
    pub fn line_start(&self, line: u32) -> u32 {
        let i = (line.max(1) as usize - 1).min(self.line_starts.len() - 1);
        self.line_starts[i]
    }

    /// The text of 1-based `line` without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line.max(1) as usize - 1).min(self.line_starts.len() - 1);
        let start = self.line_starts[i] as usize;
        let end = self.line_starts.get(i + 1).map(|&e| e as usize).unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// Renders `file:line:col: severity: message`, the source line and a caret under the span,
/// then labels and help, the way compilers do on a terminal.
pub fn render(diagnostic: &Diagnostic, file_name: &str, index: &LineIndex) -> String {
    let mut out = String::new();
    let lc = index.line_col(diagnostic.span.start);
    out.push_str(&format!("{file_name}:{lc}: {}: {}\n", diagnostic.severity, diagnostic.message));
    render_snippet(&mut out, index, diagnostic.span, "");
    for label in &diagnostic.labels {
        let llc = index.line_col(label.span.start);
        out.push_str(&format!("{file_name}:{llc}: note: {}\n", label.message));
        render_snippet(&mut out, index, label.span, "");
    }
    if let Some(help) = &diagnostic.help {
        out.push_str(&format!("  = help: {help}\n"));
    }
    out
}

/// Characters of a source line shown around the span; a longer line is cut to this window
/// (a generated program on one line of 100 KB would otherwise be printed once per diagnostic).
const SNIPPET_WIDTH: usize = 120;

fn render_snippet(out: &mut String, index: &LineIndex, span: Span, _message: &str) {
    let lc = index.line_col(span.start);
    let line: Vec<char> = index.line_text(lc.line).chars().collect();
    let gutter = format!("{}", lc.line);
    let end_lc = index.line_col(span.end);
    let column = lc.column as usize - 1;
    let width = if end_lc.line == lc.line { (end_lc.column.saturating_sub(lc.column)).max(1) as usize } else { 1 };
    let (from, to) = if line.len() <= SNIPPET_WIDTH { (0, line.len()) } else {
        let from = column.saturating_sub(SNIPPET_WIDTH / 2).min(line.len() - SNIPPET_WIDTH);
        (from, from + SNIPPET_WIDTH)
    };
    let before = if from > 0 { "… " } else { "" };
    let after = if to < line.len() { " …" } else { "" };
    let shown: String = line[from..to].iter().collect();
    out.push_str(&format!("{gutter} | {before}{shown}{after}\n"));
    let caret_at = column.saturating_sub(from) + before.chars().count();
    let width = width.min((to + before.chars().count()).saturating_sub(caret_at).max(1));
    out.push_str(&format!("{} | {}{}\n", " ".repeat(gutter.len()), " ".repeat(caret_at), "^".repeat(width)));
}

/// Renders every diagnostic, one after the other.
pub fn render_all(diagnostics: &[Diagnostic], file_name: &str, text: &str) -> String {
    let index = LineIndex::new(text);
    diagnostics.iter().map(|d| render(d, file_name, &index)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_to_a_window_around_the_span() {
        let text = format!("{}x := ;{}", "a".repeat(5000), "b".repeat(5000));
        let off = text.find(';').unwrap() as u32;
        let d = Diagnostic::error(Span::new(off, off + 1), "expected expression");
        let r = render_all(&[d], "long.bp", &text);
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "long.bp:1:5006: error: expected expression");
        assert!(lines[1].starts_with("1 | … aaa") && lines[1].ends_with("bbb …"), "{}", lines[1]);
        assert!(lines[1].chars().count() < SNIPPET_WIDTH + 10);
        // the caret stands under the `;`
        let caret = lines[2].find('^').unwrap();
        assert_eq!(lines[1].chars().nth(lines[2][..caret].chars().count()), Some(';'));
        // a short line is shown whole
        let r = render_all(&[Diagnostic::error(Span::new(2, 3), "here")], "s.bp", "x := ;");
        assert_eq!(r, "s.bp:1:3: error: here\n1 | x := ;\n  |   ^\n");
    }

    #[test]
    fn line_col_and_render() {
        let text = "int main() {\n  return 1 +;\n}\n";
        let index = LineIndex::new(text);
        let off = text.find(';').unwrap() as u32;
        assert_eq!(index.line_col(off), LineCol { line: 2, column: 13 });
        assert_eq!(index.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_text(2), "  return 1 +;");
        let d = Diagnostic::error(Span::new(off, off + 1), "expected expression").with_help("add an operand");
        let shown = render(&d, "a.c", &index);
        assert_eq!(
            shown,
            "a.c:2:13: error: expected expression\n2 |   return 1 +;\n  |             ^\n  = help: add an operand\n"
        );
    }

    #[test]
    fn offsets_past_the_end_are_clamped() {
        let index = LineIndex::new("ab\ncd");
        assert_eq!(index.line_col(100), LineCol { line: 2, column: 3 });
        assert!(has_errors(&[Diagnostic::error(Span::at(0), "x")]));
        assert!(!has_errors(&[Diagnostic::warning(Span::at(0), "x")]));
    }
}
