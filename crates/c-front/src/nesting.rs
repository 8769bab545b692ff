//! Nesting limits, checked on the preprocessed text before lang-c parses it.
//!
//! lang-c's parser, the lowering and every later pass over expressions (simplification, weakest
//! preconditions, the solver's encoder) recurse over the syntax tree, so a program with 20,000
//! nested parentheses, 3,000 nested blocks or a 10,000-term sum overflows the stack (natively
//! 8 MiB on the main thread, in the browser's web worker wasm's default 1 MiB). Instead of
//! crashing, such a program is rejected here with a diagnostic at the token where the limit is
//! passed: "expression nested too deeply (more than N levels)".
//!
//! The scan is one pass over the tokens with a stack of open brackets. Each open bracket
//! (`(`, `[`, `{`) is a *frame*; a frame counts the operators (every punctuator that is not a
//! closing bracket, `{`, `,` or `;`, plus `sizeof`, `_Alignof`) and the statement keywords (`if`, `else`,
//! `while`, `for`, `do`, `switch`) seen in it since its last `,` or `;`. The *depth* at a token
//! is the number of open frames plus the counts of all of them. It bounds the depth of the
//! syntax tree from above: a left-deep chain `x + x + ... + x` has one node per operator, a
//! parenthesis, a subscript or a call one per bracket, a brace-less `if`/`else if` chain one
//! per keyword (a `;` or a block's `}` followed by `else` keeps the count, since the `else`
//! continues the statement).
//!
//! Long chains of binary operators are legitimate C, but handling them iteratively would mean
//! rewriting every recursive pass over `c_ir::Expr` in the workspace, and rebalancing a left-deep
//! sum into a balanced tree changes the intermediate values (signed overflow, mixed widths), so
//! they are rejected too, with a message that says to split them with temporaries. The limits
//! are far above what C compilers guarantee (C11 §5.2.4.1: 63 nested parenthesised
//! expressions, 127 nested blocks) and far below what overflows a 1 MiB stack (the test
//! `nesting::limit_sized_programs_fit_a_one_mebibyte_stack` lowers inputs at the limits on a
//! thread with 1 MiB of stack).

use crate::preprocess::SourceMap;
use diagnostics::{Diagnostic, Span};

/// The largest accepted depth (see the module documentation for how it is counted).
pub const MAX_NESTING: usize = 256;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cause {
    Bracket,
    Block,
    Operator,
    /// Many operators in one frame: `x + x + ... + x`.
    Chain,
    Statement,
}

struct Frame {
    /// Depth at the opening bracket (the frame itself counts one more).
    base: usize,
    /// Operators and opening brackets since the last `,` or `;` of this frame.
    operators: usize,
    /// Statement keywords since the last `;` (not followed by `else`) of this frame.
    statements: usize,
    /// Whether the frame is a brace (a block, an initializer or a body).
    brace: bool,
}

impl Frame {
    fn depth(&self) -> usize {
        self.base + 1 + self.operators + self.statements
    }
}

/// One token of the scan: its byte range and whether it is a word (identifier, keyword,
/// number) or a punctuator.
struct Lexer<'t> {
    bytes: &'t [u8],
    at: usize,
}

enum Tok<'t> {
    Word(&'t [u8]),
    Punct(&'t [u8]),
}

impl<'t> Lexer<'t> {
    /// The next token that is not whitespace, a comment or a literal, with its offset.
    fn next(&mut self) -> Option<(usize, Tok<'t>)> {
        let b = self.bytes;
        loop {
            let c = *b.get(self.at)?;
            let start = self.at;
            if c.is_ascii_whitespace() {
                self.at += 1;
            } else if c == b'/' && b.get(self.at + 1) == Some(&b'/') {
                while self.at < b.len() && b[self.at] != b'\n' {
                    self.at += 1;
                }
            } else if c == b'/' && b.get(self.at + 1) == Some(&b'*') {
                self.at += 2;
                while self.at < b.len() && !(b[self.at] == b'*' && b.get(self.at + 1) == Some(&b'/')) {
                    self.at += 1;
                }
                self.at = (self.at + 2).min(b.len());
            } else if c == b'"' || c == b'\'' {
                self.at += 1;
                while self.at < b.len() && b[self.at] != c && b[self.at] != b'\n' {
                    self.at += if b[self.at] == b'\\' { 2 } else { 1 };
                }
                self.at = (self.at + 1).min(b.len());
            } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
                while self.at < b.len() && (b[self.at].is_ascii_alphanumeric() || b[self.at] == b'_' || b[self.at] >= 0x80) {
                    self.at += 1;
                }
                return Some((start, Tok::Word(&b[start..self.at])));
            } else {
                let two = &b[start..(start + 2).min(b.len())];
                let long = matches!(
                    two,
                    b"->" | b"++" | b"--" | b"<<" | b">>" | b"<=" | b">=" | b"==" | b"!=" | b"&&" | b"||" | b"+=" | b"-=" | b"*=" | b"/=" | b"%=" | b"&=" | b"|=" | b"^="
                );
                self.at += if long { 2 } else { 1 };
                return Some((start, Tok::Punct(&b[start..self.at])));
            }
        }
    }

    /// Whether the next token is the word `else`.
    fn peek_else(&self) -> bool {
        let mut copy = Lexer { bytes: self.bytes, at: self.at };
        matches!(copy.next(), Some((_, Tok::Word(b"else"))))
    }
}

/// The first place in `text` (preprocessed C, or a predicate expression) where the nesting
/// depth passes [`MAX_NESTING`], as an error diagnostic mapped through `map` to the user's file.
pub fn check(text: &str, map: Option<&SourceMap>) -> Option<Diagnostic> {
    check_with_limit(text, map, MAX_NESTING)
}

fn check_with_limit(text: &str, map: Option<&SourceMap>, limit: usize) -> Option<Diagnostic> {
    let mut lexer = Lexer { bytes: text.as_bytes(), at: 0 };
    // the file itself is the outermost frame
    let mut frames = vec![Frame {
        base: 0,
        operators: 0,
        statements: 0,
        brace: true,
    }];
    while let Some((offset, token)) = lexer.next() {
        let top = frames.len() - 1;
        let cause = match token {
            Tok::Word(b"if" | b"else" | b"while" | b"for" | b"do" | b"switch") => {
                frames[top].statements += 1;
                Cause::Statement
            }
            Tok::Word(b"sizeof" | b"_Alignof" | b"__alignof__") => {
                frames[top].operators += 1;
                Cause::Operator
            }
            Tok::Word(_) => continue,
            Tok::Punct(p @ (b"(" | b"[" | b"{")) => {
                // a block is one level; a bracket is also an operator of its frame (`a[i][j]`, `f(x)(y)`, casts)
                frames[top].operators += usize::from(p != b"{");
                let base = frames[top].depth();
                frames.push(Frame {
                    base,
                    operators: 0,
                    statements: 0,
                    brace: p == b"{",
                });
                if p == b"{" {
                    Cause::Block
                } else {
                    Cause::Bracket
                }
            }
            Tok::Punct(b")" | b"]" | b"}") => {
                if frames.len() > 1 {
                    let closed = frames.pop().is_some_and(|f| f.brace);
                    let parent = frames.len() - 1;
                    if closed && frames[parent].brace {
                        end_statement(&mut frames[parent], lexer.peek_else());
                    }
                }
                continue;
            }
            Tok::Punct(b";") => {
                end_statement(&mut frames[top], lexer.peek_else());
                continue;
            }
            Tok::Punct(b",") => {
                frames[top].operators = 0;
                continue;
            }
            Tok::Punct(_) => {
                frames[top].operators += 1;
                Cause::Operator
            }
        };
        let top = frames.len() - 1;
        let depth = frames[top].depth();
        if depth > limit {
            let at = map.map_or(offset as u32, |m| m.map_offset(offset as u32));
            return Some(too_deep(Span::new(at, at + 1), main_cause(&frames, cause), limit));
        }
    }
    None
}

/// A `;` or a block's `}` ends the statement unless an `else` continues it.
fn end_statement(frame: &mut Frame, else_follows: bool) {
    frame.operators = 0;
    if !else_follows {
        frame.statements = 0;
    }
}

/// What contributes most to the depth: brackets, blocks, operators of one chain or statements.
fn main_cause(frames: &[Frame], last: Cause) -> Cause {
    let statements: usize = frames.iter().map(|f| f.statements).sum();
    let blocks = frames.iter().filter(|f| f.brace).count();
    let brackets = frames.len() - blocks;
    let top = frames.last().map_or(0, |f| f.operators);
    let candidates = [(statements, Cause::Statement), (blocks, Cause::Block), (brackets, Cause::Bracket), (top, Cause::Chain)];
    candidates
        .iter()
        .copied()
        .filter(|&(n, _)| n * 3 > frames.last().map_or(0, Frame::depth))
        .max_by_key(|&(n, _)| n)
        .map_or(last, |(_, c)| c)
}

fn too_deep(span: Span, cause: Cause, limit: usize) -> Diagnostic {
    let message = match cause {
        Cause::Chain => format!("expression too long (more than {limit} operators in one chain)"),
        Cause::Operator | Cause::Bracket => format!("expression nested too deeply (more than {limit} levels)"),
        Cause::Block => format!("blocks nested too deeply (more than {limit} levels)"),
        Cause::Statement => format!("statements nested too deeply (more than {limit} levels of if/else, loops and blocks)"),
    };
    Diagnostic::error(span, message).with_help(
        "predabs analyses programs with recursive algorithms and refuses nesting this deep rather than \
         run out of stack; split the expression with temporary variables, or flatten the nesting",
    )
}

#[cfg(test)]
mod tests {
    use super::check_with_limit;

    fn depth_ok(text: &str, limit: usize) -> bool {
        check_with_limit(text, None, limit).is_none()
    }

    #[test]
    fn ordinary_code_is_shallow() {
        let text = "int f(int a[], int n) { int s = 0; for (int i = 0; i < n; i++) { if (a[i] > 0) s += a[i]; else if (a[i] < -3) s -= 1; else s = s * 2 + 1; } return s; }";
        assert!(depth_ok(text, 16));
        // sequential statements do not add up
        let many: String = (0..500).map(|i| format!("if (x == {i}) y = {i};\n")).collect();
        assert!(depth_ok(&format!("void g(int x, int y) {{ {many} }}"), 16));
        let init: String = (0..2000).map(|i| format!("{i}, ")).collect();
        assert!(depth_ok(&format!("int a[] = {{ {init} }};"), 8));
    }

    #[test]
    fn each_shape_counts() {
        let limit = 50;
        let parens = format!("int x = {}1{};", "(".repeat(60), ")".repeat(60));
        let blocks = format!("void f(void) {{ {} {} }}", "{".repeat(60), "}".repeat(60));
        let sum = format!("int x = 1{};", " + 1".repeat(60));
        let chain: String = (0..30).map(|i| format!("if (x == {i}) y = {i}; else ")).collect();
        let chain = format!("void f(int x, int y) {{ {chain} y = 0; }}");
        let casts = format!("int x = {}1;", "(int)".repeat(60));
        let index = format!("int x = a{};", "[0]".repeat(60));
        for text in [parens, blocks, sum, chain, casts, index] {
            assert!(!depth_ok(&text, limit), "{text}");
        }
    }

    #[test]
    fn the_diagnostic_points_at_the_token_past_the_limit() {
        let text = format!("int x = {}1{};", "(".repeat(10), ")".repeat(10));
        let d = check_with_limit(&text, None, 5).expect("too deep");
        assert_eq!(d.span.start, 9);
        assert!(d.message.contains("nested too deeply (more than 5 levels)"), "{}", d.message);
        let sum = format!("int x = 1{};", " + 1".repeat(10));
        let d = check_with_limit(&sum, None, 5).expect("too long");
        assert!(d.message.contains("expression too long"), "{}", d.message);
    }
}
