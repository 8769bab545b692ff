//! A small C lexer for syntax colouring: splits text into classified tokens, per line, so the
//! editor overlay can render exactly the characters of the textarea underneath.

/// Token classes (CSS class `tok-<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenClass {
    Plain,
    Keyword,
    Type,
    Number,
    String,
    Comment,
    Preprocessor,
    /// `__VERIFIER_*`, `assert`, `assume`, `reach_error`, `malloc`, `NULL`.
    Builtin,
}

impl TokenClass {
    pub fn css(self) -> &'static str {
        match self {
            TokenClass::Plain => "tok-plain",
            TokenClass::Keyword => "tok-kw",
            TokenClass::Type => "tok-type",
            TokenClass::Number => "tok-num",
            TokenClass::String => "tok-str",
            TokenClass::Comment => "tok-com",
            TokenClass::Preprocessor => "tok-pp",
            TokenClass::Builtin => "tok-builtin",
        }
    }
}

const KEYWORDS: &[&str] = &[
    "if", "else", "while", "for", "do", "return", "goto", "break", "continue", "switch", "case", "default",
    "sizeof", "typedef", "static", "extern", "const", "volatile", "inline", "register", "auto", "restrict",
    // boolean programs
    "skip", "assume", "enforce", "decl", "begin", "end", "then", "fi", "od", "choose", "schoose",
    "constrain", "dead",
];
const TYPES: &[&str] = &[
    "int", "char", "short", "long", "unsigned", "signed", "void", "struct", "union", "enum", "float", "double",
    "_Bool", "bool", "size_t", "list",
];
const BUILTINS: &[&str] = &["assert", "reach_error", "malloc", "free", "abort", "NULL", "unknown", "true", "false"];

/// One token: class and byte range into the text.
pub type Token = (TokenClass, usize, usize);

/// Tokenizes the whole text (comments and strings may span lines).
pub fn tokenize(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let push = |out: &mut Vec<Token>, class: TokenClass, start: usize, end: usize| {
        if let Some(last) = out.last_mut() {
            if last.0 == class && last.2 == start {
                last.2 = end;
                return;
            }
        }
        out.push((class, start, end));
    };
    while i < bytes.len() {
        let b = bytes[i];
        let start = i;
        let class;
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            class = TokenClass::Comment;
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            i = (i + 2).min(bytes.len());
            class = TokenClass::Comment;
        } else if b == b'#' && line_start {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            class = TokenClass::Preprocessor;
        } else if b == b'"' || b == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = i.min(bytes.len());
            if i < bytes.len() && bytes[i] == b {
                i += 1;
            }
            class = TokenClass::String;
        } else if b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            class = TokenClass::Number;
        } else if b.is_ascii_alphabetic() || b == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            class = if KEYWORDS.contains(&word) {
                TokenClass::Keyword
            } else if TYPES.contains(&word) {
                TokenClass::Type
            } else if BUILTINS.contains(&word) || word.starts_with("__VERIFIER_") {
                TokenClass::Builtin
            } else {
                TokenClass::Plain
            };
        } else {
            // One UTF-8 character of punctuation or whitespace.
            i += text[i..].chars().next().map_or(1, char::len_utf8);
            class = TokenClass::Plain;
        }
        if b == b'\n' {
            line_start = true;
        } else if !b.is_ascii_whitespace() {
            line_start = false;
        }
        push(&mut out, class, start, i);
    }
    out
}

/// The tokens of each line (without the newline), as `(class, text)` pieces.
pub fn lines(text: &str) -> Vec<Vec<(TokenClass, &str)>> {
    let mut result: Vec<Vec<(TokenClass, &str)>> = vec![Vec::new()];
    for (class, start, end) in tokenize(text) {
        let mut piece_start = start;
        for (offset, ch) in text[start..end].char_indices() {
            if ch == '\n' {
                let at = start + offset;
                if at > piece_start {
                    result.last_mut().expect("non-empty").push((class, &text[piece_start..at]));
                }
                result.push(Vec::new());
                piece_start = at + 1;
            }
        }
        if end > piece_start {
            result.last_mut().expect("non-empty").push((class, &text[piece_start..end]));
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(text: &str) -> Vec<(TokenClass, &str)> {
        tokenize(text).into_iter().map(|(c, s, e)| (c, &text[s..e])).filter(|(_, t)| !t.trim().is_empty()).collect()
    }

    #[test]
    fn classifies_c_tokens() {
        let got = classes("#include <assert.h>\nint x = 42; // hi\nassert(x);");
        assert_eq!(got[0], (TokenClass::Preprocessor, "#include <assert.h>"));
        assert!(got.contains(&(TokenClass::Type, "int")));
        assert!(got.contains(&(TokenClass::Number, "42")));
        assert!(got.contains(&(TokenClass::Comment, "// hi")));
        assert!(got.contains(&(TokenClass::Builtin, "assert")));
    }

    #[test]
    fn lines_reproduce_the_text_exactly() {
        let text = "int main(void) {\n  /* multi\n line */ return 'a';\n}\n\u{e9}\n";
        let rebuilt: Vec<String> = lines(text).iter().map(|l| l.iter().map(|(_, t)| *t).collect()).collect();
        assert_eq!(rebuilt.join("\n"), text);
        assert_eq!(lines(text).len(), text.lines().count() + 1);
    }

    #[test]
    fn unterminated_comment_and_string_do_not_panic() {
        for text in ["/* open", "\"open", "'", "#", "a /", "1.5e"] {
            let rebuilt: String = lines(text).iter().map(|l| l.iter().map(|(_, t)| *t).collect::<String>()).collect();
            assert_eq!(rebuilt, text);
        }
    }
}
