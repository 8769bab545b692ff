//! Readable formulas over predicates for the invariants view: the model checker prints
//! invariants over boolean variables (`!{curr == NULL} && {curr->val > v}`); the view shows
//! them as C conditions (`curr != NULL ∧ curr->val > v`), negating comparisons where it can.

/// The negated comparison operator, if `op` is one.
fn negated(op: &str) -> Option<&'static str> {
    Some(match op {
        "==" => "!=",
        "!=" => "==",
        "<" => ">=",
        ">=" => "<",
        ">" => "<=",
        "<=" => ">",
        _ => return None,
    })
}

/// The byte range of the only top-level comparison in `expr` (outside parentheses, brackets and
/// braces; `->`, `<<`, `>>` are not comparisons), if there is exactly one and no top-level `&&`,
/// `||` or `?:` binds looser than it.
fn sole_comparison(expr: &str) -> Option<(usize, usize)> {
    let bytes = expr.as_bytes();
    let mut depth = 0i32;
    let mut found = None;
    let mut count = 0;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied().unwrap_or(0);
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth != 0 => {}
            // a lower-precedence operator at top level: not a plain comparison
            b'&' if next == b'&' => return None,
            b'|' if next == b'|' => return None,
            b'?' => return None,
            b'-' if next == b'>' => i += 1,
            b'<' if next == b'<' => i += 1,
            b'>' if next == b'>' => i += 1,
            b'=' | b'!' | b'<' | b'>' if next == b'=' => {
                count += 1;
                found = Some((i, i + 2));
                i += 1;
            }
            b'<' | b'>' => {
                count += 1;
                found = Some((i, i + 1));
            }
            _ => {}
        }
        i += 1;
    }
    if count == 1 {
        found
    } else {
        None
    }
}

/// `!(expr)` as a C condition: a single comparison is flipped, anything else is wrapped.
pub fn negate(expr: &str) -> String {
    let expr = expr.trim();
    if let Some((start, end)) = sole_comparison(expr) {
        if let Some(op) = negated(&expr[start..end]) {
            return format!("{} {op} {}", expr[..start].trim_end(), expr[end..].trim_start());
        }
    }
    format!("!({expr})")
}

/// The formula with `{p}` → `p`, `!{p}` → the negation of `p`, `&&` → `∧`, `||` → `∨`.
pub fn readable(formula: &str) -> String {
    let mut out = String::with_capacity(formula.len());
    let mut rest = formula;
    while let Some(open) = rest.find('{') {
        let (before, after) = rest.split_at(open);
        // find the matching close brace
        let mut depth = 0usize;
        let mut close = None;
        for (i, ch) in after.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { break };
        let inner = &after[1..close];
        match before.strip_suffix('!') {
            Some(prefix) => {
                out.push_str(prefix);
                out.push_str(&negate(inner));
            }
            None => {
                out.push_str(before);
                out.push_str(inner);
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out.replace(" && ", " ∧ ").replace(" || ", " ∨ ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_invariant_reads_as_c() {
        assert_eq!(
            readable("!{curr == NULL} && {curr->val > v} && (!{prev->val > v} || {prev == NULL})"),
            "curr != NULL ∧ curr->val > v ∧ (prev->val <= v ∨ prev == NULL)"
        );
    }

    #[test]
    fn shifts_arrows_and_compound_predicates() {
        assert_eq!(negate("x << 2 >= y"), "x << 2 < y");
        assert_eq!(negate("p->next == q"), "p->next != q");
        assert_eq!(negate("a < b && c"), "!(a < b && c)");
        assert_eq!(negate("x == 'x + 1"), "x != 'x + 1");
        assert_eq!(readable("true"), "true");
        assert_eq!(readable("locked == 0 || got != 0"), "locked == 0 ∨ got != 0");
        assert_eq!(readable("!{f(a[1])}"), "!(f(a[1]))");
        assert_eq!(readable("{unclosed"), "{unclosed");
    }
}
