//! A light scanner of the C source text: the tokens outside comments, literals and preprocessor
//! lines, the loops (`while`, `for`, `do`) with their headers and extents, and the branching
//! statements (`if`, `while`, `for`) with their condition ranges. Witness locations point at
//! these keywords (format 2.0: a loop invariant's location is the first character of the loop's
//! keyword; a branching waypoint's is the branching keyword's).

use diagnostics::LineIndex;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Ident,
    Punct(u8),
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    start: u32,
    end: u32,
    kind: Tok,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    While,
    For,
    Do,
}

/// One loop statement of the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopSite {
    pub kind: LoopKind,
    /// Offset of the keyword (`while`, `for`, `do`).
    pub keyword: u32,
    /// `while`/`for`: the header's parentheses (offsets of `(` and `)`).
    pub header: Option<(u32, u32)>,
    /// `for`: the offsets of the header's two semicolons.
    pub semicolons: Option<(u32, u32)>,
    /// End of the whole statement (exclusive).
    pub end: u32,
    /// `do`: the offset just after the keyword (where the body starts).
    pub body_start: u32,
}

/// An `if`, `while` or `for` with a condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchSite {
    pub keyword: u32,
    /// The condition's text range, trimmed (exclusive end).
    pub condition: (u32, u32),
}

/// The scanned source.
pub struct SourceIndex {
    text: String,
    pub lines: LineIndex,
    tokens: Vec<Token>,
    /// Brace depth before each token.
    depth: Vec<i32>,
    pub loops: Vec<LoopSite>,
    pub branches: Vec<BranchSite>,
    /// Text ranges of the statements inside function bodies (compound statements left out).
    statements: Vec<(u32, u32)>,
}

fn tokenize(text: &str) -> Vec<Token> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // preprocessor line, with continuations
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\n' {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        line_start = false;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(b.len());
            continue;
        }
        let start = i;
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            out.push(Token {
                start: start as u32,
                end: i as u32,
                kind: Tok::Other,
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                start: start as u32,
                end: i as u32,
                kind: Tok::Ident,
            });
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                start: start as u32,
                end: i as u32,
                kind: Tok::Other,
            });
            continue;
        }
        i += 1;
        while i < b.len() && !text.is_char_boundary(i) {
            i += 1;
        }
        out.push(Token {
            start: start as u32,
            end: i as u32,
            kind: Tok::Punct(c),
        });
    }
    out
}

struct Parser<'a> {
    text: &'a str,
    tokens: &'a [Token],
    loops: Vec<LoopSite>,
    branches: Vec<BranchSite>,
    statements: Vec<(u32, u32)>,
    in_body: u32,
}

impl Parser<'_> {
    fn is_punct(&self, i: usize, c: u8) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == Tok::Punct(c))
    }

    fn ident(&self, i: usize) -> Option<&str> {
        let t = self.tokens.get(i)?;
        (t.kind == Tok::Ident).then(|| &self.text[t.start as usize..t.end as usize])
    }

    /// Index of the bracket closing the one at `i` (or the end).
    fn matching(&self, i: usize) -> usize {
        let mut depth = 0i32;
        let mut j = i;
        while j < self.tokens.len() {
            match self.tokens[j].kind {
                Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
                Tok::Punct(b')' | b']' | b'}') => {
                    depth -= 1;
                    if depth == 0 {
                        return j;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        self.tokens.len().saturating_sub(1)
    }

    fn end_offset(&self, i: usize) -> u32 {
        self.tokens.get(i.saturating_sub(1)).map(|t| t.end).unwrap_or(0)
    }

    /// The trimmed inner range of the parentheses at token indices `open..close`.
    fn inner(&self, open: usize, close: usize) -> (u32, u32) {
        if close <= open + 1 {
            let at = self.tokens[open].end;
            return (at, at);
        }
        (self.tokens[open + 1].start, self.tokens[close - 1].end)
    }

    /// Parses the statement starting at token `i`; returns the index after it. Records its
    /// text range when it lies inside a function body.
    fn statement(&mut self, i: usize, fuel: &mut u32) -> usize {
        let end = self.statement_inner(i, fuel);
        if self.in_body > 0 && i < self.tokens.len() && end > i && !self.is_punct(i, b'{') && !self.is_punct(i, b'}') {
            self.statements.push((self.tokens[i].start, self.end_offset(end)));
        }
        end
    }

    fn statement_inner(&mut self, i: usize, fuel: &mut u32) -> usize {
        if i >= self.tokens.len() || *fuel == 0 {
            return self.tokens.len();
        }
        *fuel -= 1;
        if self.is_punct(i, b'{') {
            let close = self.matching(i);
            let mut j = i + 1;
            while j < close {
                j = self.statement(j, fuel).max(j + 1);
            }
            return close + 1;
        }
        match self.ident(i) {
            Some("if") if self.is_punct(i + 1, b'(') => {
                let close = self.matching(i + 1);
                self.branches.push(BranchSite {
                    keyword: self.tokens[i].start,
                    condition: self.inner(i + 1, close),
                });
                let mut j = self.statement(close + 1, fuel);
                if self.ident(j) == Some("else") {
                    j = self.statement(j + 1, fuel);
                }
                j
            }
            Some("switch") if self.is_punct(i + 1, b'(') => {
                let close = self.matching(i + 1);
                self.statement(close + 1, fuel)
            }
            Some("while") if self.is_punct(i + 1, b'(') => {
                let close = self.matching(i + 1);
                self.branches.push(BranchSite {
                    keyword: self.tokens[i].start,
                    condition: self.inner(i + 1, close),
                });
                let end = self.statement(close + 1, fuel);
                self.loops.push(LoopSite {
                    kind: LoopKind::While,
                    keyword: self.tokens[i].start,
                    header: Some((self.tokens[i + 1].start, self.tokens[close].start)),
                    semicolons: None,
                    end: self.end_offset(end),
                    body_start: self.tokens[close].end,
                });
                end
            }
            Some("for") if self.is_punct(i + 1, b'(') => {
                let close = self.matching(i + 1);
                let semis: Vec<usize> = (i + 2..close)
                    .filter(|&j| self.is_punct(j, b';') && self.depth_between(i + 1, j) == 1)
                    .collect();
                let end = self.statement(close + 1, fuel);
                if let [s1, s2] = semis[..] {
                    self.branches.push(BranchSite {
                        keyword: self.tokens[i].start,
                        condition: self.inner(s1, s2),
                    });
                    self.loops.push(LoopSite {
                        kind: LoopKind::For,
                        keyword: self.tokens[i].start,
                        header: Some((self.tokens[i + 1].start, self.tokens[close].start)),
                        semicolons: Some((self.tokens[s1].start, self.tokens[s2].start)),
                        end: self.end_offset(end),
                        body_start: self.tokens[close].end,
                    });
                }
                end
            }
            Some("do") => {
                let j = self.statement(i + 1, fuel);
                let mut end = j;
                if self.ident(j) == Some("while") && self.is_punct(j + 1, b'(') {
                    end = self.matching(j + 1) + 1;
                    if self.is_punct(end, b';') {
                        end += 1;
                    }
                }
                self.loops.push(LoopSite {
                    kind: LoopKind::Do,
                    keyword: self.tokens[i].start,
                    header: None,
                    semicolons: None,
                    end: self.end_offset(end),
                    body_start: self.tokens[i].end,
                });
                end
            }
            Some("case" | "default") => {
                let mut j = i + 1;
                while j < self.tokens.len() && !self.is_punct(j, b':') {
                    j += 1;
                }
                self.statement(j + 1, fuel)
            }
            Some(name) if self.is_punct(i + 1, b':') && !matches!(name, "else") && !self.is_punct(i + 2, b':') => self.statement(i + 2, fuel),
            _ => {
                // expression statement, declaration, jump: up to `;` at bracket depth 0,
                // parsing nested bodies of function definitions
                let mut j = i;
                while j < self.tokens.len() {
                    match self.tokens[j].kind {
                        Tok::Punct(b';') => return j + 1,
                        Tok::Punct(b'{') => {
                            // a function body or an initialiser: parse statements inside
                            let close = self.matching(j);
                            let mut k = j + 1;
                            self.in_body += 1;
                            while k < close {
                                k = self.statement(k, fuel).max(k + 1);
                            }
                            self.in_body -= 1;
                            j = close + 1;
                            if !self.is_punct(j, b';') && !self.is_punct(j, b',') {
                                return j;
                            }
                            continue;
                        }
                        Tok::Punct(b'(' | b'[') => j = self.matching(j) + 1,
                        Tok::Punct(b'}') => return j,
                        _ => j += 1,
                    }
                }
                j
            }
        }
    }

    /// Parenthesis depth of token `j` relative to the `(` at `open` (1 = directly inside).
    fn depth_between(&self, open: usize, j: usize) -> i32 {
        let mut d = 0;
        for t in &self.tokens[open..j] {
            match t.kind {
                Tok::Punct(b'(' | b'[' | b'{') => d += 1,
                Tok::Punct(b')' | b']' | b'}') => d -= 1,
                _ => {}
            }
        }
        d
    }
}

impl SourceIndex {
    pub fn new(text: &str) -> SourceIndex {
        let tokens = tokenize(text);
        let mut depth = Vec::with_capacity(tokens.len());
        let mut d = 0;
        for t in &tokens {
            depth.push(d);
            match t.kind {
                Tok::Punct(b'{') => d += 1,
                Tok::Punct(b'}') => d -= 1,
                _ => {}
            }
        }
        let mut p = Parser {
            text,
            tokens: &tokens,
            loops: Vec::new(),
            branches: Vec::new(),
            statements: Vec::new(),
            in_body: 0,
        };
        let mut i = 0;
        let mut fuel = 10_000_000u32;
        while i < tokens.len() {
            i = p.statement(i, &mut fuel).max(i + 1);
        }
        let (mut loops, mut branches, mut statements) = (p.loops, p.branches, p.statements);
        loops.sort_by_key(|l| l.keyword);
        branches.sort_by_key(|b| b.keyword);
        statements.sort_unstable();
        statements.dedup();
        SourceIndex {
            text: text.to_string(),
            lines: LineIndex::new(text),
            tokens,
            depth,
            loops,
            branches,
            statements,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// 1-based line and column of `offset`.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let lc = self.lines.line_col(offset);
        (lc.line, lc.column)
    }

    /// The byte offset of 1-based `line` and `column` (`None` column: the first token on the line).
    pub fn offset_of(&self, line: u32, column: Option<u32>) -> Option<u32> {
        if line == 0 || line > self.lines.line_count() {
            return None;
        }
        let start = self.lines.line_start(line);
        let text = self.lines.line_text(line);
        match column {
            Some(c) => {
                let chars: u32 = c.saturating_sub(1);
                let byte: usize = text.char_indices().nth(chars as usize).map(|(b, _)| b).unwrap_or(text.len());
                Some(start + byte as u32)
            }
            None => Some(start + (text.len() - text.trim_start().len()) as u32),
        }
    }

    /// The innermost loop whose head region contains `offset`: from the keyword to the
    /// statement's end, leaving out a `for` header's initialisation clause.
    pub fn loop_at(&self, offset: u32) -> Option<&LoopSite> {
        self.loops
            .iter()
            .filter(|l| {
                let start = match (l.kind, l.semicolons) {
                    (LoopKind::For, Some((s1, _))) => s1,
                    _ => l.keyword,
                };
                start <= offset && offset < l.end
            })
            .max_by_key(|l| l.keyword)
    }

    /// The `if`/`while`/`for` whose condition is exactly the text range `start..end`.
    pub fn branch_with_condition(&self, start: u32, end: u32) -> Option<&BranchSite> {
        self.branches.iter().find(|b| b.condition == (start, end))
    }

    pub fn branch_at_keyword(&self, keyword: u32) -> Option<&BranchSite> {
        self.branches.iter().find(|b| b.keyword == keyword)
    }

    fn token_at_or_after(&self, offset: u32) -> usize {
        self.tokens.partition_point(|t| t.start < offset)
    }

    /// Whether a declaration at `decl` is still in scope at `at` (same or enclosing block, and
    /// earlier in the text).
    pub fn in_scope(&self, decl: u32, at: u32) -> bool {
        if decl >= at {
            return false;
        }
        let (i, j) = (self.token_at_or_after(decl), self.token_at_or_after(at));
        let Some(&d0) = self.depth.get(i) else { return false };
        self.depth[i..j.min(self.depth.len())].iter().all(|&d| d >= d0)
    }

    /// The offset of the `)` closing the last call in `start..end` (a call's closing parenthesis).
    pub fn last_close_paren(&self, start: u32, end: u32) -> Option<u32> {
        let i = self.token_at_or_after(start);
        self.tokens[i..]
            .iter()
            .take_while(|t| t.end <= end)
            .filter(|t| t.kind == Tok::Punct(b')'))
            .last()
            .map(|t| t.start)
    }

    /// The first statement starting at or after `offset`.
    pub fn statement_after(&self, offset: u32) -> Option<(u32, u32)> {
        let i = self.statements.partition_point(|s| s.0 < offset);
        self.statements.get(i).copied()
    }

    /// The statement starting exactly at `offset`.
    pub fn statement_at(&self, offset: u32) -> Option<(u32, u32)> {
        self.statements.iter().find(|s| s.0 == offset).copied()
    }

    /// Whether the identifier `name` occurs as a token.
    pub fn mentions(&self, name: &str) -> bool {
        self.tokens
            .iter()
            .any(|t| t.kind == Tok::Ident && &self.text[t.start as usize..t.end as usize] == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_loops_and_branches() {
        let src = "int main() {\n  int i = 0; // while (x)\n  for (int j = 0; j < 3; j++) { if (j) i++; }\n  do { i--; } while (i > 0);\n  while (i < 10)\n    i++;\n  return 0;\n}\n";
        let idx = SourceIndex::new(src);
        let kinds: Vec<(LoopKind, (u32, u32))> = idx.loops.iter().map(|l| (l.kind, idx.line_col(l.keyword))).collect();
        assert_eq!(kinds, vec![(LoopKind::For, (3, 3)), (LoopKind::Do, (4, 3)), (LoopKind::While, (5, 3))]);
        let conds: Vec<&str> = idx.branches.iter().map(|b| &src[b.condition.0 as usize..b.condition.1 as usize]).collect();
        assert_eq!(conds, vec!["j < 3", "j", "i < 10"]);
        let inside = src.find("i++;\n  return").map(|o| o as u32).unwrap_or(0);
        assert_eq!(idx.loop_at(inside).map(|l| l.kind), Some(LoopKind::While));
        let init = src.find("int j").map(|o| o as u32).unwrap_or(0);
        assert_eq!(idx.loop_at(init), None);
        assert_eq!(idx.offset_of(5, Some(3)), Some(src.find("while (i < 10)").map(|o| o as u32).unwrap_or(0)));
    }
}
