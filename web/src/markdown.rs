//! A tiny markdown subset for the gallery's lab notes: `#` headings, paragraphs, `-`/`*` and
//! `1.` lists, and inline `code`, **strong** and *emphasis*. Parsing is pure and total (any text
//! gives blocks; unmatched markers stay literal); rendering to HTML nodes is in
//! `components/labnotes.rs`, so no raw HTML is ever injected.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Strong(Vec<Inline>),
    Emphasis(Vec<Inline>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    Heading(u8, Vec<Inline>),
    Paragraph(Vec<Inline>),
    List { ordered: bool, items: Vec<Vec<Inline>> },
}

/// The list marker of a line and the item text after it.
fn list_item(line: &str) -> Option<(bool, &str)> {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some((false, rest));
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        if let Some(rest) = t[digits..].strip_prefix(". ") {
            return Some((true, rest));
        }
    }
    None
}

fn heading(line: &str) -> Option<(u8, &str)> {
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if (1..=6).contains(&hashes) {
        line[hashes..].strip_prefix(' ').map(|rest| (hashes as u8, rest.trim()))
    } else {
        None
    }
}

/// Parses markdown text into blocks.
pub fn parse(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut paragraph: Vec<&str> = Vec::new();
    let flush = |paragraph: &mut Vec<&str>, blocks: &mut Vec<Block>| {
        if !paragraph.is_empty() {
            blocks.push(Block::Paragraph(inline(&paragraph.join(" "))));
            paragraph.clear();
        }
    };
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            flush(&mut paragraph, &mut blocks);
        } else if let Some((level, rest)) = heading(trimmed) {
            flush(&mut paragraph, &mut blocks);
            blocks.push(Block::Heading(level, inline(rest)));
        } else if let Some((ordered, rest)) = list_item(line) {
            flush(&mut paragraph, &mut blocks);
            match blocks.last_mut() {
                Some(Block::List { ordered: o, items }) if *o == ordered => items.push(inline(rest)),
                _ => blocks.push(Block::List { ordered, items: vec![inline(rest)] }),
            }
        } else if let (true, Some(Block::List { items, .. })) = (paragraph.is_empty() && line.starts_with("  "), blocks.last_mut()) {
            // an indented continuation of the last list item
            if let Some(item) = items.last_mut() {
                item.push(Inline::Text(" ".into()));
                item.extend(inline(trimmed));
            }
        } else {
            paragraph.push(trimmed);
        }
    }
    flush(&mut paragraph, &mut blocks);
    blocks
}

/// Parses inline markup: `code`, **strong**, *emphasis* (also `_emphasis_`).
pub fn inline(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut plain = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let found = match c {
            '`' => rest[1..].find('`').map(|end| (Inline::Code(rest[1..1 + end].to_string()), 2 + end)),
            '*' if rest.starts_with("**") => {
                rest[2..].find("**").filter(|&end| end > 0).map(|end| (Inline::Strong(inline(&rest[2..2 + end])), 4 + end))
            }
            '*' | '_' => rest[1..]
                .find(c)
                .filter(|&end| end > 0 && !rest[1..].starts_with(' '))
                .map(|end| (Inline::Emphasis(inline(&rest[1..1 + end])), 2 + end)),
            _ => None,
        };
        match found {
            Some((node, len)) => {
                if !plain.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut plain)));
                }
                out.push(node);
                rest = &rest[len..];
            }
            None => {
                plain.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    if !plain.is_empty() {
        out.push(Inline::Text(plain));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Inline {
        Inline::Text(s.into())
    }

    #[test]
    fn lab_note_structure() {
        let blocks = parse("## partition\n\n**Predict.** What does `prev = curr` do?\nSecond line.\n\n- one *two*\n- three\n\n1. first\n2. second\n");
        assert_eq!(blocks[0], Block::Heading(2, vec![text("partition")]));
        assert_eq!(
            blocks[1],
            Block::Paragraph(vec![
                Inline::Strong(vec![text("Predict.")]),
                text(" What does "),
                Inline::Code("prev = curr".into()),
                text(" do? Second line."),
            ])
        );
        assert_eq!(
            blocks[2],
            Block::List { ordered: false, items: vec![vec![text("one "), Inline::Emphasis(vec![text("two")])], vec![text("three")]] }
        );
        assert!(matches!(&blocks[3], Block::List { ordered: true, items } if items.len() == 2));
    }

    #[test]
    fn unmatched_markers_stay_literal() {
        assert_eq!(inline("a * b and `c"), vec![text("a * b and `c")]);
        assert_eq!(inline("x_1 <script>"), vec![text("x_1 <script>")]);
        assert_eq!(inline("**"), vec![text("**")]);
        assert_eq!(parse(""), Vec::new());
    }

    #[test]
    fn every_gallery_lab_note_parses_to_a_heading_and_text() {
        for example in playground_api::examples::ALL {
            let blocks = parse(example.lab_note);
            assert!(matches!(blocks.first(), Some(Block::Heading(2, _))), "{}", example.id);
            assert!(blocks.len() >= 3, "{}", example.id);
        }
    }
}
