//! WGSL that the spec allows and naga cannot read, lowered into WGSL that naga reads, for the
//! executors that go through naga (the compute wrapper and wgpu). Two constructs, each found
//! in a translator's output (docs/carbon.md), each lowered by a rewrite that keeps its meaning
//! and lets naga type-check what it lowered:
//!
//! - **Swizzle assignment** (`v.yzw = e;`, `v.xy += e;`: WGSL's `swizzle_assignment` language
//!   extension, which Tint accepts) becomes
//!   `{ var dxdiff_swz = v.yzw; dxdiff_swz = (e); v.y = dxdiff_swz.x; ... }`. The copy's type
//!   is the swizzle's, so naga checks `e` against exactly the type the spec would. Only a
//!   left side without calls (a path of names, members and indices) is lowered, because the
//!   rewrite reads it more than once; and only one whose components are distinct.
//! - **`bitcast` in a constant expression** (`const icb = array<...>(bitcast<f32>(0x7f800000u))`,
//!   a `const` builtin naga does not evaluate) becomes a function-scope `var` of the same
//!   value at the top of every function that reads it: the value is the same, computed at run
//!   time instead of at shader creation. Only a module-scope `const` that no other module-scope
//!   declaration reads is lowered, and only when every float it bitcasts is finite: a
//!   const-expression that is infinite or NaN is a shader-creation error, which Tint reports
//!   and no lowering may hide.
//!
//! Everything else is left as written, so naga's message on it stands. The text that comes
//! back is what runs on wgpu and is wrapped; Chrome compiles the original where it can.

use std::borrow::Cow;

/// A construct [`for_naga`] lowered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lowered {
    /// `v.xy = e` (WGSL's `swizzle_assignment`).
    SwizzleAssignment,
    /// `bitcast` in a module-scope `const`.
    ConstBitcast,
}

impl Lowered {
    /// The construct as docs and reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Lowered::SwizzleAssignment => "swizzle assignment",
            Lowered::ConstBitcast => "bitcast in a constant expression",
        }
    }
}

/// `wgsl` with the constructs naga cannot read lowered, and which were; borrowed unchanged
/// when there were none.
pub fn for_naga(wgsl: &str) -> (Cow<'_, str>, Vec<Lowered>) {
    let mut done = Vec::new();
    let mut text = Cow::Borrowed(wgsl);
    if wgsl.contains("bitcast<")
        && let Some(t) = const_bitcasts(&text)
    {
        text = Cow::Owned(t);
        done.push(Lowered::ConstBitcast);
    }
    if let Some(t) = swizzle_assignments(&text) {
        text = Cow::Owned(t);
        done.push(Lowered::SwizzleAssignment);
    }
    (text, done)
}

/// A token of the little WGSL this pass needs to see: names, punctuation, and everything else
/// (numbers, comments, whitespace) as opaque text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    Name(&'a str),
    Punct(&'a str),
    Other(&'a str),
}

impl<'a> Tok<'a> {
    fn text(self) -> &'a str {
        match self {
            Tok::Name(s) | Tok::Punct(s) | Tok::Other(s) => s,
        }
    }

    fn is(self, p: &str) -> bool {
        matches!(self, Tok::Punct(s) if s == p)
    }

    /// Whitespace or a comment.
    fn blank(self) -> bool {
        matches!(self, Tok::Other(s) if s.starts_with(char::is_whitespace) || s.starts_with("//") || s.starts_with("/*"))
    }
}

/// The tokens of `s`; concatenated they are `s` again.
fn tokens(s: &str) -> Vec<Tok<'_>> {
    const PUNCT: [&str; 24] = [
        "<<=", ">>=", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->",
        "&&", "||", "++", "--", "<<", ">>", "::", "=", ".",
    ];
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            out.push(Tok::Other(&s[start..i]));
        } else if s[i..].starts_with("//") {
            i = s[i..].find('\n').map_or(b.len(), |n| i + n);
            out.push(Tok::Other(&s[start..i]));
        } else if s[i..].starts_with("/*") {
            // WGSL block comments nest.
            let mut depth = 0usize;
            while i < b.len() {
                if s[i..].starts_with("/*") {
                    depth += 1;
                    i += 2;
                } else if s[i..].starts_with("*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(Tok::Other(&s[start..i.min(b.len())]));
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Tok::Name(&s[start..i]));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_') {
                // An exponent's sign belongs to the number (`1e-5`, `0x1p+3`).
                i += 1;
                if i < b.len()
                    && (b[i] == b'+' || b[i] == b'-')
                    && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P')
                {
                    i += 1;
                }
            }
            out.push(Tok::Other(&s[start..i]));
        } else {
            let p = PUNCT
                .iter()
                .find(|p| s[i..].starts_with(**p))
                .map_or(1, |p| p.len());
            let p = (start..=start + p)
                .rev()
                .find(|e| s.is_char_boundary(*e))
                .unwrap_or(start + 1);
            i = p.max(start + 1);
            out.push(Tok::Punct(&s[start..i]));
        }
    }
    out
}

/// The index of the next token after `i` that is not blank.
fn next(t: &[Tok<'_>], mut i: usize) -> Option<usize> {
    i += 1;
    while i < t.len() && t[i].blank() {
        i += 1;
    }
    (i < t.len()).then_some(i)
}

/// Whether `s` names distinct vector components of one set (`xyzw` or `rgba`), two or more.
fn swizzle(s: &str) -> Option<Vec<char>> {
    let set = if s.chars().all(|c| "xyzw".contains(c)) {
        "xyzw"
    } else if s.chars().all(|c| "rgba".contains(c)) {
        "rgba"
    } else {
        return None;
    };
    let comps: Vec<char> = s.chars().collect();
    let distinct = comps
        .iter()
        .enumerate()
        .all(|(k, c)| !comps[..k].contains(c));
    ((2..=4).contains(&comps.len()) && distinct).then(|| {
        comps
            .iter()
            .map(|c| "xyzw".as_bytes()[set.find(*c).unwrap_or(0)] as char)
            .collect()
    })
}

const KEYWORDS: [&str; 16] = [
    "let", "var", "const", "return", "if", "else", "for", "while", "loop", "switch", "case",
    "default", "break", "continue", "discard", "fn",
];

/// Rewrite every swizzle assignment; `None` when there is none.
fn swizzle_assignments(s: &str) -> Option<String> {
    let t = tokens(s);
    let mut out = String::with_capacity(s.len() + 256);
    let mut changed = false;
    let mut parens = 0i32;
    let mut at_start = true;
    let mut i = 0;
    while i < t.len() {
        let tok = t[i];
        if at_start
            && parens == 0
            && let Tok::Name(first) = tok
            && !KEYWORDS.contains(&first)
            && let Some((end, text)) = swizzle_statement(&t, i)
        {
            out.push_str(&text);
            changed = true;
            i = end;
            at_start = true;
            continue;
        }
        match tok {
            Tok::Punct("(") => parens += 1,
            Tok::Punct(")") => parens -= 1,
            _ => {}
        }
        if !tok.blank() {
            at_start = tok.is(";") || tok.is("{") || tok.is("}");
        }
        out.push_str(tok.text());
        i += 1;
    }
    changed.then_some(out)
}

/// The statement at token `i` rewritten, if it assigns to a swizzle, and the token after its
/// `;`.
fn swizzle_statement(t: &[Tok<'_>], i: usize) -> Option<(usize, String)> {
    // The left side: a name, then `.member` and `[index]` (no calls).
    let mut j = i;
    let mut last_member: Option<(usize, usize)> = None;
    loop {
        let k = next(t, j)?;
        if t[k].is(".") {
            let m = next(t, k)?;
            let Tok::Name(_) = t[m] else { return None };
            last_member = Some((k, m));
            j = m;
        } else if t[k].is("[") {
            let mut depth = 0;
            let mut e = k;
            loop {
                match t.get(e)? {
                    Tok::Punct("[") => depth += 1,
                    Tok::Punct("]") => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Tok::Punct("(") | Tok::Punct(";") | Tok::Punct("{") => return None,
                    _ => {}
                }
                e += 1;
            }
            last_member = None;
            j = e;
        } else {
            break;
        }
    }
    let (dot, member) = last_member?;
    let comps = swizzle(t[member].text())?;
    let op_at = next(t, j)?;
    let op = match t[op_at] {
        Tok::Punct(p)
            if p == "="
                || (p.len() >= 2
                    && p.ends_with('=')
                    && !matches!(p, "==" | "!=" | "<=" | ">=")) =>
        {
            p
        }
        _ => return None,
    };
    // The right side, to the `;` outside any brackets.
    let mut depth = 0i32;
    let mut e = op_at + 1;
    loop {
        match t.get(e)? {
            Tok::Punct("(" | "[") => depth += 1,
            Tok::Punct(")" | "]") => depth -= 1,
            Tok::Punct("{" | "}") => return None,
            Tok::Punct(";") if depth == 0 => break,
            _ => {}
        }
        e += 1;
    }
    let span = |a: usize, b: usize| -> String { t[a..b].iter().map(|x| x.text()).collect() };
    let base = span(i, dot).trim_end().to_string();
    let target = span(i, member + 1);
    let rhs = span(op_at + 1, e).trim().to_string();
    let mut text = format!("{{ var dxdiff_swz = {target}; dxdiff_swz {op} ({rhs});");
    for (k, c) in comps.iter().enumerate() {
        text.push_str(&format!(
            " {base}.{c} = dxdiff_swz.{};",
            ['x', 'y', 'z', 'w'][k]
        ));
    }
    text.push_str(" }");
    Some((e + 1, text))
}

/// Move every module-scope `const` whose value calls `bitcast` into the functions that read
/// it; `None` when there is none, or when one is read where a function-scope value cannot be
/// (another module-scope declaration).
fn const_bitcasts(s: &str) -> Option<String> {
    let t = tokens(s);
    // Module-scope consts with a bitcast: (name, first token, token after `;`, value text).
    let mut consts: Vec<(&str, usize, usize, String)> = Vec::new();
    let mut depth = 0i32;
    let mut i = 0;
    while i < t.len() {
        match t[i] {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => depth -= 1,
            Tok::Name("const") if depth == 0 => {
                let n = next(&t, i)?;
                let Tok::Name(name) = t[n] else {
                    i += 1;
                    continue;
                };
                // `const NAME (: TYPE)? = VALUE;`
                let mut e = n;
                let mut eq = None;
                let mut d = 0i32;
                while e < t.len() {
                    match t[e] {
                        Tok::Punct("(" | "[") => d += 1,
                        Tok::Punct(")" | "]") => d -= 1,
                        Tok::Punct("=") if eq.is_none() && d == 0 => eq = Some(e),
                        Tok::Punct(";") if d == 0 => break,
                        _ => {}
                    }
                    e += 1;
                }
                let eq = eq?;
                let value: String = t[eq + 1..e].iter().map(|x| x.text()).collect();
                let ty: String = t[n + 1..eq].iter().map(|x| x.text()).collect();
                if value.contains("bitcast") {
                    // A const that evaluates to infinity or NaN is a shader-creation error in
                    // WGSL: no lowering may make it valid.
                    if !finite_bitcasts(&value) {
                        return None;
                    }
                    let ty = ty.trim().trim_start_matches(':').trim().to_string();
                    let decl = if ty.is_empty() {
                        format!("var {name} = {};", value.trim())
                    } else {
                        format!("var {name}: {ty} = {};", value.trim())
                    };
                    consts.push((name, i, e + 1, decl));
                }
                i = e;
            }
            _ => {}
        }
        i += 1;
    }
    if consts.is_empty() {
        return None;
    }
    // Each const's readers: function bodies only (a module-scope reader keeps it a const).
    let mut out = String::with_capacity(s.len() + 256);
    let mut depth = 0i32;
    let mut i = 0;
    let mut in_fn = false;
    let mut fn_body_start: Option<usize> = None;
    while i < t.len() {
        if let Some((_, _, end, _)) = consts.iter().find(|c| c.1 == i) {
            i = *end;
            continue;
        }
        let tok = t[i];
        match tok {
            Tok::Name("fn") if depth == 0 => in_fn = true,
            Tok::Punct("{") => {
                depth += 1;
                if depth == 1 && in_fn {
                    fn_body_start = Some(i);
                }
            }
            Tok::Punct("}") => {
                depth -= 1;
                if depth == 0 {
                    in_fn = false;
                }
            }
            // Read outside a function body (another const, an array size, a parameter's
            // type): a function-scope value cannot stand in there, so leave it all alone.
            Tok::Name(n) if !(in_fn && depth >= 1) && consts.iter().any(|c| c.0 == n) => {
                return None;
            }
            _ => {}
        }
        out.push_str(tok.text());
        if let Some(start) = fn_body_start.take() {
            // The function's body: which consts does it read?
            let mut d = 0i32;
            let mut e = start;
            let mut read = Vec::new();
            while e < t.len() {
                match t[e] {
                    Tok::Punct("{") => d += 1,
                    Tok::Punct("}") => {
                        d -= 1;
                        if d == 0 {
                            break;
                        }
                    }
                    Tok::Name(n) => {
                        if let Some(c) = consts.iter().find(|c| c.0 == n)
                            && !read.contains(&c.0)
                        {
                            read.push(c.0);
                        }
                    }
                    _ => {}
                }
                e += 1;
            }
            for name in read {
                if let Some(c) = consts.iter().find(|c| c.0 == name) {
                    out.push_str("\n    ");
                    out.push_str(&c.3);
                }
            }
        }
        i += 1;
    }
    Some(out)
}

/// Whether every `bitcast<…f32…>(…)` or `bitcast<…f16…>(…)` in `value` bitcasts only integer
/// literals whose float is finite (what a const-expression may hold). A float bitcast of
/// anything else cannot be checked here, so it counts as not finite.
fn finite_bitcasts(value: &str) -> bool {
    let mut rest = value;
    while let Some(at) = rest.find("bitcast<") {
        rest = &rest[at + "bitcast<".len()..];
        let Some(close) = rest.find('>') else {
            return false;
        };
        // `vec4<f32>>` closes twice.
        let target_end = rest[close..].find('(').map_or(close, |p| close + p);
        let target = &rest[..target_end];
        let half = target.contains("f16");
        if !(target.contains("f32") || half) {
            continue;
        }
        let args = &rest[target_end..];
        let Some(end) = args.find(')') else {
            return false;
        };
        for lit in args[1..end]
            .split([',', '(', ')'])
            .map(str::trim)
            .filter(|t| !t.is_empty() && !t.starts_with("vec"))
        {
            let digits = lit.trim_end_matches(['u', 'i']);
            let parsed = match digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
            {
                Some(h) => u32::from_str_radix(h, 16).ok(),
                None => digits.parse::<u32>().ok(),
            };
            let Some(bits) = parsed else {
                return false;
            };
            let finite = if half {
                (bits & 0x7c00) != 0x7c00 && ((bits >> 16) & 0x7c00) != 0x7c00
            } else {
                f32::from_bits(bits).is_finite()
            };
            if !finite {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naga_reads(s: &str) -> bool {
        crate::validate(s).is_ok()
    }

    #[test]
    fn swizzle_assignments_become_component_stores_naga_checks() {
        let src = "fn f() -> vec4<f32> {\n    var v: vec4<f32>;\n    v.yzw = vec3<f32>(1.0, 2.0, 3.0);\n    v.xy += vec2<f32>(0.5);\n    return v;\n}\n";
        assert!(!naga_reads(src));
        let (out, done) = for_naga(src);
        assert_eq!(done, vec![Lowered::SwizzleAssignment]);
        assert!(naga_reads(&out), "{out}");
        assert!(out.contains("v.y = dxdiff_swz.x; v.z = dxdiff_swz.y; v.w = dxdiff_swz.z;"));
        // A right side of the wrong width stays an error naga reports.
        let wrong = "fn f() {\n    var v: vec4<f32>;\n    v.zw = vec3<f32>(1.0);\n}\n";
        let (out, _) = for_naga(wrong);
        assert!(!naga_reads(&out), "{out}");
    }

    #[test]
    fn members_and_indices_on_the_left_are_kept() {
        let src = "struct S { o: vec4<u32> }\nfn f(i: u32) -> S {\n    var s: S;\n    var a: array<vec4<u32>, 2>;\n    s.o.zw = vec2<u32>(1u, 2u);\n    a[i & 1u].rg = s.o.zw;\n    return s;\n}\n";
        let (out, done) = for_naga(src);
        assert_eq!(done, vec![Lowered::SwizzleAssignment]);
        assert!(naga_reads(&out), "{out}");
        assert!(out.contains("a[i & 1u].x = dxdiff_swz.x"), "{out}");
    }

    #[test]
    fn left_sides_with_calls_or_repeated_components_are_left_alone() {
        for src in [
            "fn g() -> u32 { return 0u; }\nfn f() {\n    var a: array<vec4<f32>, 2>;\n    a[g()].xy = vec2<f32>(1.0);\n}\n",
            "fn f() {\n    var v: vec4<f32>;\n    v.xx = vec2<f32>(1.0);\n}\n",
            "fn f() {\n    var v: vec4<f32>;\n    let b = v.xy == vec2<f32>(1.0);\n}\n",
        ] {
            let (out, done) = for_naga(src);
            assert!(done.is_empty(), "{out}");
            assert_eq!(out, src);
        }
    }

    #[test]
    fn const_bitcasts_move_into_the_functions_that_read_them() {
        let src = "const icb = array<vec4<f32>, 2>(vec4<f32>(bitcast<f32>(0x80000000u), 1.0, 2.0, 3.0), vec4<f32>(0.0));\nconst k = 2u;\nfn f(i: u32) -> f32 {\n    return icb[i % k].x;\n}\nfn g() -> u32 {\n    return k;\n}\n";
        assert!(!naga_reads(src));
        let (out, done) = for_naga(src);
        assert_eq!(done, vec![Lowered::ConstBitcast]);
        assert!(naga_reads(&out), "{out}");
        assert_eq!(out.matches("var icb").count(), 1, "{out}");
        assert!(out.contains("const k = 2u;"));
    }

    #[test]
    fn a_const_that_would_hold_a_non_finite_float_stays_invalid() {
        // WGSL: a const-expression that is infinite or NaN is a shader-creation error, so a
        // lowering must not turn it into a runtime value naga accepts.
        for bits in ["0x7f800000u", "0xffc00000u", "0x7fc01234u"] {
            let src = format!(
                "const icb = array<vec4<f32>, 1>(vec4<f32>(bitcast<f32>({bits}), 1.0, 2.0, 3.0));\nfn f() -> f32 {{\n    return icb[0].x;\n}}\n"
            );
            let (out, done) = for_naga(&src);
            assert!(done.is_empty(), "{out}");
        }
        assert!(finite_bitcasts(
            "bitcast<vec2<f32>>(vec2<u32>(0x3f800000u, 1u))"
        ));
        assert!(!finite_bitcasts(
            "bitcast<vec2<f32>>(vec2<u32>(0x3f800000u, 0x7f800001u))"
        ));
        assert!(finite_bitcasts("bitcast<u32>(1.0)"));
    }

    #[test]
    fn a_const_read_at_module_scope_is_left_alone() {
        let src = "const a = bitcast<i32>(4u);\nconst b = a + 1i;\nfn f() -> i32 { return b; }\n";
        let (out, done) = for_naga(src);
        assert!(done.is_empty());
        assert_eq!(out, src);
    }

    #[test]
    fn tokens_concatenate_to_the_text() {
        let src = "/* a /* nested */ b */ let x = 1e-5f + 0x1p+3f; // c\nv.xy <<= y;";
        let t: String = tokens(src).iter().map(|t| t.text()).collect();
        assert_eq!(t, src);
    }
}
