//! Tint as a judge of WGSL: what its compilation messages say. The harness's `corpus --gate
//! tint` (`qualify::tint`) and its validity judge of a translator's WGSL (`translators::wgsl`)
//! both read its verdict from here.

use super::CompileMessage;

/// Tint's verdict as one line: the first error with its place, or `None` when it compiled.
pub fn rejection(messages: &[CompileMessage]) -> Option<String> {
    let e = messages.iter().find(|m| m.kind == "error")?;
    let more = messages.iter().filter(|m| m.kind == "error").count() - 1;
    let tail = if more > 0 {
        format!(" (and {more} more)")
    } else {
        String::new()
    };
    Some(format!(
        "tint rejected the WGSL naga accepted: {}:{}: {}{tail}",
        e.line, e.column, e.message
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_is_the_reason_and_warnings_are_not_rejections() {
        let m = |kind: &str, message: &str, line| CompileMessage {
            kind: kind.into(),
            message: message.into(),
            line,
            column: 5,
        };
        assert_eq!(rejection(&[m("warning", "unused", 1)]), None);
        let why = rejection(&[
            m("warning", "unused", 1),
            m(
                "error",
                "'workgroupBarrier' must only be called from uniform control flow",
                9,
            ),
            m("error", "another", 10),
        ])
        .expect("rejected");
        assert_eq!(
            why,
            "tint rejected the WGSL naga accepted: 9:5: 'workgroupBarrier' must only be \
             called from uniform control flow (and 1 more)"
        );
    }
}
