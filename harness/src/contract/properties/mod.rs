//! One property per seed-contract entry of the catalog: the program family that exercises
//! exactly what the entry is about, as fxc assembly text. The judgment comes from the entry's
//! category ([`super::judge`]); the inputs are generated per program, edge-biased.
//!
//! A template expands into a family: every `<a;b;c>` in it is one choice, and the family is
//! every combination ([`expand`]). Pixel programs read `linear` inputs, the interpolation
//! mode the contract lowers; the harness feeds every input register raw edge-biased words.
//! The tables are one file per category: `adapted` (with `supported`), `bounded`,
//! `fail_closed`.

/// What is run for an entry.
#[derive(Debug, Clone, Copy)]
pub enum Plan {
    /// Programs inside the entry (adapted, supported, structural): they must qualify and
    /// run as the category says.
    Run(&'static [&'static str]),
    /// A bounded entry: programs inside the bound must qualify and match; programs just
    /// outside it must be rejected under a fail-closed id, or run and match (supported beyond
    /// the contract).
    Bound {
        /// Programs inside the bound.
        inside: &'static [&'static str],
        /// Programs just outside it.
        outside: &'static [&'static str],
    },
    /// A fail-closed entry: programs with the feature, each rejected under the entry's id, or
    /// run and matching (supported beyond the contract).
    Reject(&'static [&'static str]),
    /// Nothing can exercise the entry here; why.
    Unreachable(&'static str),
}

/// One entry's property.
#[derive(Debug, Clone, Copy)]
pub struct Property {
    /// The catalog id.
    pub entry: &'static str,
    /// What the programs exercise, for the table.
    pub what: &'static str,
    /// The programs.
    pub plan: Plan,
    /// Whether random programs over the entry's own ops (the catalog's `ops`) join the
    /// inside programs ([`random_family`]): for entries whose ops are what they are about.
    pub random: bool,
}

/// Random programs about an entry: `n` pixel and vertex programs drawn from `seed` by the
/// fuzzer's generator ([`generators::random`]) with every row but the entry's `ops` (and
/// moves, which carry values between them) left out and no memory, each holding at least one
/// of those ops. Empty when none of the ops is a row the generator draws.
pub fn random_family(ops: &[String], seed: u64, n: usize) -> Vec<Vec<u8>> {
    use generators::random::{Knobs, Mix, generate, rows};
    let rows = rows();
    let mine = |op: dxbc::Opcode| ops.iter().any(|o| o == op.mnemonic());
    if !rows.iter().any(|r| mine(r.opcode)) {
        return Vec::new();
    }
    let knobs = Knobs {
        stages: vec![dxbc::Stage::Pixel, dxbc::Stage::Vertex],
        statements: 6,
        depth: 1,
        excluded: rows
            .iter()
            .filter(|r| !mine(r.opcode) && !r.opcode.info().has(dxbc::opcodes::Flags::MOVE))
            .map(|r| r.opcode)
            .collect(),
        mix: Mix {
            float: 8,
            int: 8,
            bit: 8,
            conversion: 8,
            compare: 8,
            moves: 1,
            doubles: 0,
            flow: 1,
            memory: 0,
            textures: 0,
        },
        ..Knobs::default()
    }
    .registers_only();
    let mut out = Vec::new();
    // Draws that happen to hold none of the ops are skipped; a bounded number of tries.
    for k in 0..(n as u64 * 8) {
        if out.len() == n {
            break;
        }
        let p = generate(
            &knobs,
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(k),
        );
        if let Ok(blob) = p.blob()
            && generators::random::code(&blob).into_iter().any(mine)
        {
            out.push(blob);
        }
    }
    out
}

/// Every family a template may expand into is at most this large.
pub const MAX_FAMILY: usize = 12;

/// A template's family: every combination of its `<a;b;…>` choices, in order, at most
/// [`MAX_FAMILY`]. Choices spelled the same are one choice: `cb<0;3>` twice in a template
/// names the same buffer in both places.
pub fn expand(template: &str) -> Vec<String> {
    // Literal text and choice indices, alternating; the distinct choice lists.
    let mut parts: Vec<Result<&str, usize>> = Vec::new();
    let mut lists: Vec<Vec<&str>> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('<') {
        let Some(len) = rest[open..].find('>') else {
            break;
        };
        parts.push(Ok(&rest[..open]));
        let list: Vec<&str> = rest[open + 1..open + len].split(';').collect();
        let k = lists.iter().position(|l| *l == list).unwrap_or_else(|| {
            lists.push(list);
            lists.len() - 1
        });
        parts.push(Err(k));
        rest = &rest[open + len + 1..];
    }
    parts.push(Ok(rest));
    let total = lists
        .iter()
        .map(Vec::len)
        .product::<usize>()
        .min(MAX_FAMILY);
    (0..total)
        .map(|n| {
            // Mixed radix, the last list fastest.
            let mut pick = vec![0; lists.len()];
            let mut m = n;
            for (k, l) in lists.iter().enumerate().rev() {
                pick[k] = m % l.len();
                m /= l.len();
            }
            parts
                .iter()
                .map(|p| match p {
                    Ok(text) => text,
                    Err(k) => lists[*k][pick[*k]],
                })
                .collect()
        })
        .collect()
}

macro_rules! ps {
    ($body:literal) => {
        concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
            "dcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_input_ps linear v2.xyzw\n",
            "dcl_output o0.xyzw\ndcl_temps 4\n",
            $body
        )
    };
}

macro_rules! cs {
    ($group:literal, $decls:literal, $body:literal) => {
        concat!(
            "cs_5_0\ndcl_globalFlags refactoringAllowed\n",
            $decls,
            "dcl_input vThreadID.x\ndcl_input vThreadIDInGroupFlattened\ndcl_temps 4\n",
            "dcl_thread_group ",
            $group,
            "\n",
            $body
        )
    };
}

/// A sampling program of stage `$stage` (`ps` or `vs`, bare) over `t0` declared `$dim`
/// (`texture2d`, `texture2darray`) and sampler `s0`, whose body first computes sample
/// coordinates into `r0` ([`coords!`]) and a LOD into `r1.x`, then runs `$body`, which leaves
/// its result in `r2`.
macro_rules! sampling {
    ($stage:ident, $dim:literal, $coords:expr, $body:literal) => {
        concat!(
            stringify!($stage),
            "_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_default\n",
            "dcl_resource_",
            $dim,
            " (float,float,float,float) t0\n",
            sampling!(@io $stage),
            "dcl_temps 3\n",
            $coords,
            "<and r1.x, v1.x, l(3)\nutof r1.x, r1.x\nmul r1.x, r1.x, l(0.75);mov r1.x, v1.x>\n",
            $body,
            "\nmov o0.xyzw, r2.xyzw\n",
            sampling!(@tail $stage),
            "ret\n"
        )
    };
    (@io ps) => {
        "dcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\n"
    };
    // A vertex program writes `SV_Position`, as every real one does.
    (@io vs) => {
        "dcl_input v0.xyzw\ndcl_input v1.xyzw\ndcl_output o0.xyzw\ndcl_output_siv o1.xyzw, position\n"
    };
    (@tail ps) => {
        ""
    };
    (@tail vs) => {
        "mov o1.xyzw, v0.xyzw\n"
    };
}

/// Sample coordinates into `r0` from the input `v0`: either texel centres of the generated
/// 5×3 texture (`(i + 0.5) / 5`, `(j + 0.5) / 3`; with `$corner`, texel corners `i / 5`, the
/// exact positions of a `gather4` footprint) with a layer `k / 2` (the .5 ties of an array
/// layer), or the raw edge-biased words (NaN, infinities, huge, denormal).
macro_rules! coords {
    () => {
        coords!("0.5")
    };
    ($corner:literal) => {
        concat!(
            "<and r0.xyzw, v0.xyzw, l(7, 3, 7, 0)\nutof r0.xyzw, r0.xyzw\n",
            "add r0.xy, r0.xyxx, l(",
            $corner,
            ", ",
            $corner,
            ", 0, 0)\nmul r0.xyz, r0.xyzx, l(0.2, 0.333333343, 0.5, 0);mov r0.xyzw, v0.xyzw>\n"
        )
    };
}

mod adapted;
mod bounded;
mod fail_closed;

/// Every property: one per seed entry of the catalog.
pub fn all() -> impl Iterator<Item = &'static Property> {
    adapted::PROPERTIES
        .iter()
        .chain(bounded::PROPERTIES)
        .chain(fail_closed::PROPERTIES)
}

/// The property of catalog entry `id`.
pub fn of(id: &str) -> Option<&'static Property> {
    all().find(|p| p.entry == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_is_every_combination_in_order() {
        assert_eq!(
            expand("a<1;2>b<x;y>c"),
            ["a1bxc", "a1byc", "a2bxc", "a2byc"]
        );
        assert_eq!(expand("no choices"), ["no choices"]);
        assert_eq!(expand("<;x>"), ["", "x"]);
        assert_eq!(expand("<a;b>-<a;b>"), ["a-a", "b-b"]);
        assert_eq!(expand("<a;b;c;d>-<1;2;3;4>").len(), MAX_FAMILY);
    }

    #[test]
    fn a_random_family_holds_the_entry_ops_and_follows_the_seed() {
        let ops: Vec<String> = ["rcp", "div"].map(String::from).to_vec();
        let a = random_family(&ops, 5, 6);
        assert_eq!(a.len(), 6);
        for blob in &a {
            let code = generators::random::code(blob);
            assert!(
                code.iter()
                    .any(|o| matches!(o, dxbc::Opcode::Rcp | dxbc::Opcode::Div)),
                "{code:?}"
            );
        }
        assert_eq!(random_family(&ops, 5, 6), a);
        assert_ne!(random_family(&ops, 6, 6), a);
        let sampling: Vec<String> = ["sample_l", "sample_d"].map(String::from).to_vec();
        assert!(random_family(&sampling, 5, 6).is_empty());
    }

    #[test]
    fn every_random_property_has_ops_the_generator_draws() {
        let catalog = oracles::catalog::catalog();
        for p in all().filter(|p| p.random) {
            let e = catalog.get(p.entry).expect("entry");
            assert!(!random_family(&e.ops, 1, 1).is_empty(), "{}", p.entry);
        }
    }

    #[test]
    fn every_seed_entry_has_exactly_one_property_and_no_other_does() {
        let catalog = oracles::catalog::catalog();
        for e in &catalog.entries {
            let n = all().filter(|p| p.entry == e.id).count();
            assert_eq!(n, usize::from(e.seed_ref.is_some()), "{}", e.id);
        }
        assert_eq!(
            all().count(),
            catalog
                .entries
                .iter()
                .filter(|e| e.seed_ref.is_some())
                .count()
        );
    }

    #[test]
    fn every_program_assembles_and_decodes() {
        for p in all() {
            let texts: Vec<&str> = match p.plan {
                Plan::Run(t) | Plan::Reject(t) => t.to_vec(),
                Plan::Bound { inside, outside } => inside.iter().chain(outside).copied().collect(),
                Plan::Unreachable(_) => vec![],
            };
            for t in texts {
                for text in expand(t) {
                    let c = dxbc::assemble_container(&text)
                        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", p.entry));
                    dxbc::Shader::parse(&c.to_bytes())
                        .unwrap_or_else(|e| panic!("{}: {e}\n{text}", p.entry));
                }
            }
        }
    }
}
