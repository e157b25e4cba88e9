//! Text that came from outside dxdiff (a translator's reason and stderr, a file's name) made
//! safe for where it is shown: a terminal, a line that scripts read, a Markdown table cell. HTML
//! and JUnit escape on their own ([`crate::html::escape`]).
//!
//! A terminal obeys escape sequences (ESC, CSI, OSC: colours, a moved cursor, a changed title,
//! a hyperlink), a carriage return overwrites the line shown, and bidirectional overrides
//! reorder what is read; a newline in a cell ends a Markdown table row and starts a forged
//! one. Each of these is shown as its escape instead (`\x1b`, `\r`, `\u{202e}`), so the text
//! stays readable and nothing in it acts.

/// Every control character (C0 but the newline, DEL, C1) and every bidirectional control
/// written as its escape; newlines kept, for a message of several lines.
pub fn printable(s: &str) -> String {
    escape(s, false)
}

/// [`printable`] on one line: newlines escaped too (`\n`).
pub fn one_line(s: &str) -> String {
    escape(s, true)
}

/// [`one_line`] as a Markdown table cell: backslashes and `|` escaped as well. A table row is
/// split at every `|` that no backslash escapes, so a backslash of the text is doubled first:
/// `a\|b` stays one cell.
pub fn cell(s: &str) -> String {
    one_line(s).replace('\\', "\\\\").replace('|', "\\|")
}

fn escape(s: &str, newlines: bool) -> String {
    // The common case, text with nothing to escape, is returned as it is.
    if !s.chars().any(|c| needs_escape(c, newlines)) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !needs_escape(c, newlines) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out
}

fn needs_escape(c: char, newlines: bool) -> bool {
    match c {
        // A line break or a tab is harmless in a message, but not in a cell or in a line that
        // scripts split.
        '\n' | '\t' => newlines,
        // Bidirectional embeddings, overrides and isolates, and the marks.
        '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        c => c.is_control(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_in_outside_text_acts_on_a_terminal_or_a_table() {
        let hostile = "red \u{1b}[31mX\u{1b}]0;title\u{7}\rover\u{202e}txt\u{85}|a\nb\tc";
        let p = printable(hostile);
        assert_eq!(
            p,
            "red \\x1b[31mX\\x1b]0;title\\x07\\rover\\u{202e}txt\\x85|a\nb\tc"
        );
        assert!(!one_line(hostile).contains('\n'));
        let c = cell(hostile);
        assert!(c.ends_with("\\|a\\\\nb\\\\tc"), "{c}");
        // A backslash before a pipe cannot unescape it.
        assert_eq!(cell("a\\|b"), "a\\\\\\|b");
        assert!(!c.chars().any(char::is_control));
        // Plain text, accents and symbols included, is left as it is.
        for plain in ["rejected: sample_c (dxbc.foo) — 2×", "naïve ≥ 1"] {
            assert_eq!(cell(plain), plain);
        }
    }
}
