//! JUnit XML, the format CI systems read: escaping, and the document shape every report
//! uses (one `<testsuite>` inside `<testsuites>`).

/// Escape text for an XML attribute; control characters XML 1.0 forbids are dropped.
pub fn xml(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\n' => s.push_str("&#10;"),
            '\t' | '\r' => s.push(' '),
            c if (c as u32) < 0x20 => {}
            c => s.push(c),
        }
    }
    s
}

/// One test case of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The `classname` attribute: the group the case belongs to.
    pub class: String,
    /// The `name` attribute.
    pub name: String,
    /// How it ended.
    pub outcome: Outcome,
}

/// How a test case ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Passed.
    Passed,
    /// Skipped, with the reason.
    Skipped(String),
    /// Failed, with the message.
    Failed(String),
}

/// A whole JUnit document with one suite.
pub fn document(suite: &str, cases: &[Case]) -> String {
    let failures = cases
        .iter()
        .filter(|c| matches!(c.outcome, Outcome::Failed(_)))
        .count();
    let skipped = cases
        .iter()
        .filter(|c| matches!(c.outcome, Outcome::Skipped(_)))
        .count();
    let mut s = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" skipped=\"{skipped}\" errors=\"0\">\n",
        xml(suite),
        cases.len()
    );
    for c in cases {
        s.push_str(&format!(
            "  <testcase classname=\"{}\" name=\"{}\"",
            xml(&c.class),
            xml(&c.name)
        ));
        match &c.outcome {
            Outcome::Passed => s.push_str("/>\n"),
            Outcome::Skipped(m) => {
                s.push_str(&format!("><skipped message=\"{}\"/></testcase>\n", xml(m)))
            }
            Outcome::Failed(m) => {
                s.push_str(&format!("><failure message=\"{}\"/></testcase>\n", xml(m)))
            }
        }
    }
    s.push_str("</testsuite>\n</testsuites>\n");
    s
}
