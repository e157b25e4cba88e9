//! One property per seed-contract entry of the catalog: the program family that exercises
//! exactly what the entry is about, as fxc assembly text. The judgment comes from the entry's
//! category ([`super::judge`]); the inputs are generated per program, edge-biased.
//!
//! A template expands into a family: every `<a;b;c>` in it is one choice, and the family is
//! every combination ([`expand`]). Pixel programs read `linear` inputs, the interpolation
//! mode the contract lowers; the harness feeds every input register raw edge-biased words.

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
            flow: 1,
            memory: 0,
        },
        cb_indexing: false,
        icb: false,
        indexable_temps: false,
        tgsm: false,
        atomics: false,
        buffers: false,
        discard: false,
        ..Knobs::default()
    };
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

/// Why the sampling entries cannot run yet: the GPU executor binds no textures or samplers.
const TEXTURES: &str = "needs textures and samplers bound on the GPU and pixel quads in the \
    interpreter, which dxdiff does not have yet (docs/contract.md)";

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

/// Every property, in catalog order of the seed entries.
pub const PROPERTIES: &[Property] = &[
    Property {
        random: false,
        entry: "adapted/precise",
        what: "`[precise]` add, mul, mad and dp4",
        plan: Plan::Run(&[ps!(
            "<add [precise] o0.xyzw, v0.xyzw, v1.xyzw;mul [precise] o0.xyzw, v0.xyzw, v1.xyzw;mad [precise] o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw;dp4 [precise] o0.xyzw, v0.xyzw, v1.xyzw>\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: "adapted/comparison-masks",
        what: "each float, int and uint compare as a mask",
        plan: Plan::Run(&[ps!(
            "<lt;ge;eq;ne;ilt;ige;ieq;ine;ult;uge> o0.xyzw, v0.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/typeless-registers",
        what: "a register written as float, read as int (and back)",
        plan: Plan::Run(&[
            ps!("add r0.xyzw, v0.xyzw, v1.xyzw\n<iadd;xor;ushr> o0.xyzw, r0.xyzw, v2.xyzw\nret\n"),
            ps!("iadd r0.xyzw, v0.xyzw, v1.xyzw\n<mul;max> o0.xyzw, r0.xyzw, v2.xyzw\nret\n"),
        ]),
    },
    Property {
        random: false,
        entry: "adapted/hoisted-vars",
        what: "values written in an arm or a loop, read after it",
        plan: Plan::Run(&[
            ps!(
                "if_nz v0.x\n  mov r0.xy, v1.xyxx\nelse\n  iadd r0.xy, v1.zwzz, v2.xyxx\nendif\nmov o0.xy, r0.xyxx\nmov o0.zw, v2.zzzw\nret\n"
            ),
            ps!(
                "mov r1.x, l(0)\nloop\n  uge r1.y, r1.x, l(3)\n  breakc_nz r1.y\n  iadd r0.x, v0.x, r1.x\n  iadd r1.x, r1.x, l(1)\nendloop\nmov o0.xyzw, r0.xxxx\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: "adapted/switch-default",
        what: "a switch without `default` over selectors that miss every case",
        plan: Plan::Run(&[ps!(
            "mov o0.xyzw, v2.xyzw\nand r0.x, v0.x, l(<3;7>)\nswitch r0.x\ncase l(0)\n  mov o0.xyzw, v1.xyzw\n  break\ncase l(1)\n  iadd o0.xyzw, v1.xyzw, v2.xyzw\n  break\nendswitch\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/front-facing",
        what: "`SV_IsFrontFace` read as a mask",
        plan: Plan::Run(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\n",
            "dcl_input_ps_sgv constant v1.x, is_front_face\ndcl_output o0.xyzw\ndcl_temps 1\n",
            "<mov o0.xyzw, v1.xxxx;movc o0.xyzw, v1.xxxx, v0.xyzw, -v0.xyzw>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/selection-output-merges",
        what: "arms that write outputs beside a merged temp",
        plan: Plan::Run(&[ps!(
            "mov r0.x, v0.y\nif_<nz;z> v0.x\n  mov o0.xyz, v1.xyzx\n  iadd r0.x, r0.x, v1.w\nelse\n  mov o0.xyz, v2.xyzx\nendif\nmov o0.w, r0.x\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/arm-tail-merge-inputs",
        what: "a scalar merge input inherited through a nested arm's tail",
        plan: Plan::Run(&[ps!(
            "mov r0.x, v0.y\nif_nz v0.x\n  iadd r0.x, v1.x, l(1)\n  if_z v0.z\n    mov r0.x, v2.x\n  endif\nendif\nmov o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: "adapted/source-modifiers",
        what: "neg, abs and -abs on float, int and mover sources",
        plan: Plan::Run(&[
            ps!("mov o0.xyzw, <-v0.xyzw;|v0.xyzw|;-|v0.xyzw|>\nret\n"),
            ps!(
                "<add o0.xyzw, -v0.xyzw, |v1.xyzw|;iadd o0.xyzw, -v0.xyzw, v1.xyzw;movc o0.xyzw, v0.xyzw, -v1.xyzw, -|v2.xyzw|>\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: "adapted/continue-continuing",
        what: "`continuec` in a counted loop",
        plan: Plan::Run(&[ps!(
            "mov r0.x, l(0)\nmov r1.x, l(0)\nloop\n  uge r2.x, r0.x, l(8)\n  breakc_nz r2.x\n  iadd r0.x, r0.x, l(1)\n  and r2.y, r0.x, v0.x\n  continuec_<nz;z> r2.y\n  iadd r1.x, r1.x, v1.x\nendloop\nmov o0.xyzw, r1.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/unwritten-vertex-outputs",
        what: "a vertex output whose components are declared and never written",
        plan: Plan::Run(&[concat!(
            "vs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input v0.xyzw\ndcl_input v1.xyzw\n",
            "dcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n",
            "mov o0.xyzw, v0.xyzw\nmov o1.<x;xy>, v1.<xxxx;xyxx>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/dead-temp-writes",
        what: "temp writes that are overwritten or never read",
        plan: Plan::Run(&[ps!(
            "mov r0.x, v0.x\nmov r0.x, v0.y\niadd r1.x, v1.x, l(3)\n<mov;ineg> o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/terminal-control-flow",
        what: "`ret` in an arm and instructions after the last `ret`",
        plan: Plan::Run(&[ps!(
            "if_<nz;z> v0.x\n  mov o0.xyzw, v1.xyzw\n  ret\nendif\nmov o0.xyzw, v2.xyzw\nret\nmov o0.xyzw, v0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/icb-const-array",
        what: "immediate-constant-buffer reads at in-range and edge indices",
        plan: Plan::Run(&[ps!(
            "dcl_immediateConstantBuffer { { 1.000000, -0.000000, 0x7f800000, 0x7fc00000},\n { 0, 1, 0xffffffff, 0x80000000},\n { 0x00000001, 0x007fffff, 2.500000, -3.000000} }\n<and r0.x, v0.x, l(3);mov r0.x, v0.x>\nmov o0.xyzw, icb[r0.x + 0].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/indexable-temps",
        what: "an indexable temp addressed at fixed slots",
        plan: Plan::Run(&[ps!(
            "dcl_indexableTemp x0[4], 4\nmov x0[0].xyzw, v0.xyzw\nmov x0[<1;3>].xyzw, v1.xyzw\niadd x0[2].xyzw, x0[0].xyzw, x0[<1;3>].xyzw\nmov o0.xyzw, x0[2].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "adapted/indexable-const-tables",
        what: "an immutable indexable temp read at relative, edge indices",
        plan: Plan::Run(&[ps!(
            "dcl_indexableTemp x0[4], 4\nmov x0[0].xyzw, l(1,2,3,4)\nmov x0[1].xyzw, l(5,6,7,8)\nmov x0[2].xyzw, l(9,10,11,12)\nmov x0[3].xyzw, l(13,14,15,16)\n<and r0.x, v0.x, l(3);mov r0.x, v0.x>\nmov o0.xyzw, x0[r0.x + 0].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "supported/packed-varyings",
        what: "two varyings packed into one input register",
        plan: Plan::Run(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xy\ndcl_input_ps linear v0.zw\n",
            "dcl_output o0.xyzw\n<mov o0.xyzw, v0.xyzw;iadd o0.xyzw, v0.zwxy, l(1, 1, 1, 1)>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "supported/linear-noperspective",
        what: "`linear noperspective` inputs passed through",
        plan: Plan::Run(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear noperspective v0.xyzw\n",
            "dcl_output o0.xyzw\nmov o0.xyzw, v0.<xyzw;wzyx>\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: "adapted/saturate-movers",
        what: "`mov_sat` and `movc_sat` of edge words",
        plan: Plan::Run(&[ps!(
            "<mov_sat o0.xyzw, v0.xyzw;movc_sat o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw>\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: "adapted/rcp-division",
        what: "`rcp` and `div` of edge values",
        plan: Plan::Run(&[ps!(
            "<rcp o0.xyzw, v0.xyzw;div o0.xyzw, v0.xyzw, v1.xyzw>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "bounded/vertex-sampling",
        what: "explicit-LOD sampling in a vertex program",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: false,
        entry: "bounded/typed-uav-atomics",
        what: "atomics and typed stores on a typed uint buffer UAV",
        plan: Plan::Bound {
            inside: &[cs!(
                "4, 1, 1",
                "dcl_uav_typed_buffer (uint,uint,uint,uint) u0\n",
                "and r0.x, vThreadID.x, l(<1;3>)\natomic_iadd u0, r0.xxxx, l(1)\nret\n"
            )],
            outside: &[cs!(
                "4, 1, 1",
                "dcl_uav_typed_texture2d (uint,uint,uint,uint) u0\n",
                "and r0.x, vThreadID.x, l(1)\natomic_iadd u0, r0.xxxx, l(1)\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-1x1x1",
        what: "a 1×1×1 program of loads, integer math and a typed store",
        plan: Plan::Bound {
            inside: &[cs!(
                "1, 1, 1",
                "dcl_resource_structured t0, 16\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\n",
                "ld_structured r0.xyzw, l(0), l(0), t0.xyzw\nld_structured r1.xyzw, l(1), l(0), t0.xyzw\nimul null, r2.x, r0.x, r1.x\numax r2.y, r0.y, r1.y\niadd r2.z, r0.z, r1.z\nushr r2.w, r0.w, r1.w\nstore_uav_typed u0.xyzw, l(<0;1>, 0, 0, 0), r2.xyzw\nret\n"
            )],
            outside: &[cs!(
                "2, 1, 1",
                "dcl_resource_structured t0, 16\ndcl_uav_typed_buffer (uint,uint,uint,uint) u0\n",
                "ld_structured r0.xyzw, vThreadID.x, l(0), t0.xyzw\nimul null, r2.x, r0.x, r0.y\nstore_uav_typed u0.xyzw, vThreadID.xxxx, r2.xxxx\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-skinning",
        what: "64×1×1 structured loads, bitfield extracts and stores",
        plan: Plan::Bound {
            inside: &[cs!(
                "64, 1, 1",
                "dcl_resource_structured t0, 16\ndcl_uav_structured u0, 16\n",
                "ld_structured r0.xyzw, vThreadID.x, l(0), t0.xyzw\nubfe r1.x, l(<8;31>), l(4), r0.x\nubfe r1.y, l(8), l(<12;28>), r0.y\niadd r1.z, r0.z, r1.x\niadd r1.w, r0.w, r1.y\nstore_structured u0.xyzw, vThreadID.x, l(0), r1.xyzw\nret\n"
            )],
            outside: &[cs!(
                "32, 1, 1",
                "dcl_resource_structured t0, 16\ndcl_uav_structured u0, 16\n",
                "ld_structured r0.xyzw, vThreadID.x, l(0), t0.xyzw\nubfe r1.x, l(8), l(4), r0.x\nstore_structured u0.x, vThreadID.x, l(0), r1.x\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-sort-step",
        what: "256×1×1 two-word key compare-and-select",
        plan: Plan::Bound {
            inside: &[cs!(
                "256, 1, 1",
                "dcl_resource_structured t0, 8\ndcl_uav_structured u0, 8\n",
                "ld_structured r0.xy, vThreadID.x, l(0), t0.xyxx\niadd r1.x, vThreadID.x, l(1)\nld_structured r0.zw, r1.x, l(0), t0.xxxy\nlt r1.y, <r0.z, r0.x;r0.x, r0.z>\nmovc r2.xy, r1.yyyy, r0.zwzz, r0.xyxx\nstore_structured u0.xy, vThreadID.x, l(0), r2.xyxx\nret\n"
            )],
            outside: &[cs!(
                "128, 1, 1",
                "dcl_resource_structured t0, 8\ndcl_uav_structured u0, 8\n",
                "ld_structured r0.xy, vThreadID.x, l(0), t0.xyxx\nlt r1.y, r0.y, r0.x\nstore_structured u0.x, vThreadID.x, l(0), r1.y\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-bitonic-merge",
        what: "256×1×1 group-shared compare-exchange across a barrier",
        plan: Plan::Bound {
            inside: &[cs!(
                "256, 1, 1",
                "dcl_resource_structured t0, 4\ndcl_uav_structured u0, 4\ndcl_tgsm_structured g0, 4, 256\n",
                "ld_structured r0.x, vThreadID.x, l(0), t0.xxxx\nstore_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x\nsync_g_t\nxor r1.x, vThreadIDInGroupFlattened.x, l(<1;2;64>)\nld_structured r0.y, r1.x, l(0), g0.xxxx\nlt r0.z, r0.y, r0.x\nult r0.w, r1.x, vThreadIDInGroupFlattened.x\nxor r0.z, r0.z, r0.w\nmovc r1.y, r0.z, r0.y, r0.x\nstore_structured u0.x, vThreadID.x, l(0), r1.y\nret\n"
            )],
            outside: &[cs!(
                "64, 1, 1",
                "dcl_resource_structured t0, 4\ndcl_uav_structured u0, 4\ndcl_tgsm_structured g0, 4, 64\n",
                "ld_structured r0.x, vThreadID.x, l(0), t0.xxxx\nstore_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x\nsync_g_t\nxor r1.x, vThreadIDInGroupFlattened.x, l(1)\nld_structured r0.y, r1.x, l(0), g0.xxxx\nstore_structured u0.x, vThreadID.x, l(0), r0.y\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-chunk-sort",
        what: "256×1×1 group-shared odd-even passes in a loop with barriers",
        plan: Plan::Bound {
            inside: &[cs!(
                "256, 1, 1",
                "dcl_resource_structured t0, 4\ndcl_uav_structured u0, 4\ndcl_tgsm_structured g0, 4, 256\n",
                "ld_structured r0.x, vThreadID.x, l(0), t0.xxxx\nstore_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x\nsync_g_t\nmov r2.x, l(0)\nloop\n  uge r2.y, r2.x, l(<2;4>)\n  breakc_nz r2.y\n  ld_structured r0.x, vThreadIDInGroupFlattened.x, l(0), g0.xxxx\n  xor r1.x, vThreadIDInGroupFlattened.x, l(1)\n  ld_structured r0.y, r1.x, l(0), g0.xxxx\n  sync_g_t\n  ult r0.w, r1.x, vThreadIDInGroupFlattened.x\n  ult r0.z, r0.y, r0.x\n  xor r0.z, r0.z, r0.w\n  movc r1.y, r0.z, r0.y, r0.x\n  store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r1.y\n  sync_g_t\n  iadd r2.x, r2.x, l(1)\nendloop\nld_structured r0.x, vThreadIDInGroupFlattened.x, l(0), g0.xxxx\nstore_structured u0.x, vThreadID.x, l(0), r0.x\nret\n"
            )],
            outside: &[cs!(
                "128, 1, 1",
                "dcl_resource_structured t0, 4\ndcl_uav_structured u0, 4\ndcl_tgsm_structured g0, 4, 128\n",
                "ld_structured r0.x, vThreadID.x, l(0), t0.xxxx\nstore_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.x\nsync_g_t\nxor r1.x, vThreadIDInGroupFlattened.x, l(1)\nld_structured r0.y, r1.x, l(0), g0.xxxx\numin r0.z, r0.x, r0.y\nstore_structured u0.x, vThreadID.x, l(0), r0.z\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-histogram-merge",
        what: "256×1×1 group-shared atomic histogram of `ftou` bins",
        plan: Plan::Bound {
            inside: &[cs!(
                "256, 1, 1",
                "dcl_constantbuffer cb0[1], immediateIndexed\ndcl_resource_structured t0, 4\ndcl_uav_raw u0\ndcl_tgsm_raw g0, 1024\n",
                "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\nstore_raw g0.x, r0.x, l(0)\nsync_g_t\nld_structured r1.x, vThreadID.x, l(0), t0.xxxx\nftou r1.y, <cb0[0].x;r1.x>\nand r1.z, r1.y, l(255)\nishl r1.z, r1.z, l(2)\natomic_iadd g0, r1.z, l(1)\nsync_g_t\nld_raw r2.x, r0.x, g0.xxxx\natomic_iadd u0, r0.x, r2.x\nret\n"
            )],
            outside: &[cs!(
                "64, 1, 1",
                "dcl_resource_structured t0, 4\ndcl_uav_raw u0\ndcl_tgsm_raw g0, 256\n",
                "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\nstore_raw g0.x, r0.x, l(0)\nsync_g_t\nld_structured r1.x, vThreadID.x, l(0), t0.xxxx\nand r1.z, r1.x, l(63)\nishl r1.z, r1.z, l(2)\natomic_iadd g0, r1.z, l(1)\nsync_g_t\nld_raw r2.x, r0.x, g0.xxxx\natomic_iadd u0, r0.x, r2.x\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-histogram-create",
        what: "16×16×1 log/exp/div luminance bins through `ftoi`/`ftou` and group atomics (buffer input in place of the texture)",
        plan: Plan::Bound {
            inside: &[cs!(
                "16, 16, 1",
                "dcl_constantbuffer cb0[1], immediateIndexed\ndcl_resource_structured t0, 4\ndcl_uav_raw u0\ndcl_tgsm_raw g0, 256\n",
                "ult r0.y, vThreadIDInGroupFlattened.x, l(64)\nishl r0.x, vThreadIDInGroupFlattened.x, l(2)\nif_nz r0.y\n  store_raw g0.x, r0.x, l(0)\nendif\nsync_g_t\nld_structured r1.x, vThreadID.x, l(0), t0.xxxx\nlog r1.y, r1.x\nexp r1.z, r1.y\ndiv r1.w, r1.z, cb0[0].x\n<ftoi;ftou> r2.x, r1.w\nand r2.x, r2.x, l(63)\nishl r2.x, r2.x, l(2)\natomic_iadd g0, r2.x, l(1)\nsync_g_t\nif_nz r0.y\n  ld_raw r2.y, r0.x, g0.xxxx\n  atomic_iadd u0, r0.x, r2.y\nendif\nret\n"
            )],
            outside: &[cs!(
                "8, 8, 1",
                "dcl_resource_structured t0, 4\ndcl_uav_raw u0\n",
                "ld_structured r1.x, vThreadID.x, l(0), t0.xxxx\nlog r1.y, r1.x\nftoi r2.x, r1.y\nand r2.x, r2.x, l(63)\nishl r2.x, r2.x, l(2)\natomic_iadd u0, r2.x, l(1)\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-particle-clear",
        what: "a counter from an immediate atomic, a typed store and a structured clear",
        plan: Plan::Bound {
            inside: &[cs!(
                "1, 1, 1",
                "dcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_uav_structured u1, 16\n",
                "imm_atomic_iadd r0.x, u0, l(0), l(<1;-1>)\nstore_structured u1.xyzw, l(0), l(0), l(0, 0, 0, 0)\nstore_uav_typed u0.xyzw, l(1, 0, 0, 0), r0.xxxx\nret\n"
            )],
            outside: &[cs!(
                "1, 1, 1",
                "dcl_uav_raw u0\n",
                "imm_atomic_iadd r0.x, u0, l(0), l(1)\nstore_raw u0.x, l(4), r0.x\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/compute-particle-emit",
        what: "16×16×1 group-shared emit counter read back after a barrier",
        plan: Plan::Bound {
            inside: &[cs!(
                "16, 16, 1",
                "dcl_resource_structured t0, 16\ndcl_uav_structured u0, 16\ndcl_tgsm_raw g0, 4\n",
                "ieq r0.x, vThreadIDInGroupFlattened.x, l(0)\nif_nz r0.x\n  store_raw g0.x, l(0), l(0)\nendif\nsync_g_t\nld_structured r1.xyzw, vThreadID.x, l(0), t0.xyzw\nand r0.y, r1.x, l(<1;3>)\nif_nz r0.y\n  imm_atomic_iadd r0.z, g0, l(0), l(1)\nendif\nsync_g_t\nld_raw r0.w, l(0), g0.xxxx\nmov r1.x, r0.w\nstore_structured u0.xyzw, vThreadID.x, l(0), r1.xyzw\nret\n"
            )],
            outside: &[cs!(
                "8, 8, 1",
                "dcl_uav_raw u0\ndcl_tgsm_raw g0, 4\n",
                "ieq r0.x, vThreadIDInGroupFlattened.x, l(0)\nif_nz r0.x\n  store_raw g0.x, l(0), l(0)\nendif\nsync_g_t\natomic_iadd g0, l(0), l(1)\nsync_g_t\nld_raw r0.w, l(0), g0.xxxx\nishl r0.y, vThreadIDInGroupFlattened.x, l(2)\nstore_raw u0.x, r0.y, r0.w\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "adapted/min-precision-f16",
        what: "`min16float` operands computed at full precision",
        plan: Plan::Run(&[ps!(
            "<add;mul;max> r0.xyzw {min16f}, v0.xyzw {min16f}, v1.xyzw {min16f}\nmov o0.xyzw, r0.xyzw {min16f}\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "bounded/compute-profiles-frozen",
        what: "compute programs outside every bounded profile",
        plan: Plan::Bound {
            inside: &[],
            outside: &[cs!(
                "<8, 8, 1;3, 5, 7>",
                "dcl_uav_raw u0\ndcl_tgsm_raw g0, 4\n",
                "ieq r0.x, vThreadIDInGroupFlattened.x, l(0)\nif_nz r0.x\n  store_raw g0.x, l(0), l(0)\nendif\nsync_g_t\natomic_umax g0, l(0), vThreadIDInGroupFlattened.x\nsync_g_t\nld_raw r0.y, l(0), g0.xxxx\nishl r0.z, vThreadIDInGroupFlattened.x, l(2)\nstore_raw u0.x, r0.z, r0.y\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "fail-closed/system-crash",
        what: "a loop that nothing leaves",
        plan: Plan::Reject(&[
            ps!(
                "mov o0.xyzw, v0.xyzw\nmov r0.x, l(0)\nloop\n  iadd r0.x, r0.x, l(1)\n<  continuec_z r0.x\n;  if_nz r0.x\n    mov o0.x, r0.x\n  endif\n>endloop\nret\n"
            ),
            cs!(
                "1, 1, 1",
                "dcl_uav_raw u0\n",
                "mov r0.x, l(0)\nloop\n  store_raw u0.x, l(0), r0.x\n  iadd r0.x, r0.x, l(1)\n  switch r0.x\n  case l(0)\n    break\n  default\n    break\n  endswitch\nendloop\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: "bounded/fixed-resource-identities",
        what: "constant-buffer and SRV reads at fixed registers",
        plan: Plan::Bound {
            inside: &[ps!(
                "dcl_constantbuffer cb<0;3>[2], immediateIndexed\ndcl_resource_structured t<0;2>, 4\nld_structured r0.x, v0.x, l(0), t<0;2>.xxxx\niadd o0.xyzw, r0.xxxx, cb<0;3>[1].xyzw\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: "fail-closed/typed-buffer-srv-bound-view",
        what: "a typed `Buffer` SRV loaded in a compute program",
        plan: Plan::Reject(&[cs!(
            "4, 1, 1",
            "dcl_resource_buffer (<float;uint>,<float;uint>,<float;uint>,<float;uint>) t0\ndcl_uav_raw u0\n",
            "ld r0.xyzw, vThreadID.xxxx, t0.xyzw\nishl r1.x, vThreadID.x, l(2)\nstore_raw u0.x, r1.x, r0.x\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/non-refactorable",
        what: "programs without the `refactoringAllowed` flag",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\n",
            "<add;mul;iadd> o0.xyzw, v0.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/bindless-ranges",
        what: "SM 5.1 texture, sampler and UAV ranges indexed at run time",
        plan: Plan::Reject(&[
            concat!(
                "ps_5_1\ndcl_globalFlags refactoringAllowed\n",
                "dcl_resource_texture2d (float,float,float,float) T0[0:<7;3>], space=0\n",
                "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
                "ftou r0.xyzw, v0.xyzw\nand r1.x, r0.x, l(<7;3>)\n",
                "ld r0.xyzw, r0.yzww, T0[r1.x + 0].xyzw\nmov o0.xyzw, r0.xyzw\nret\n"
            ),
            concat!(
                "cs_5_1\ndcl_globalFlags refactoringAllowed\n",
                "dcl_uav_raw U0[0:3], space=0\ndcl_input vThreadID.x\ndcl_temps 1\ndcl_thread_group 4, 1, 1\n",
                "ishl r0.x, vThreadID.x, l(2)\nstore_raw U0[vThreadID.x + 0].x, r0.x, vThreadID.x\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: "fail-closed/imul-high-half",
        what: "`imul`/`umul` with the high destination written",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\n",
            "dcl_output o0.xyzw\ndcl_output o1.xyzw\n<imul;umul> o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/dynamic-cb-selection",
        what: "an SM 5.1 constant buffer chosen from a range at run time",
        plan: Plan::Reject(&[concat!(
            "ps_5_1\ndcl_globalFlags refactoringAllowed\n",
            "dcl_constantbuffer CB0[0:<3;1>][4], <immediateIndexed;dynamicIndexed>, space=0\n",
            "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
            "ftou r0.x, v0.x\nand r1.x, r0.x, l(<3;1>)\n",
            "mov o0.xyzw, CB0[r1.x + 0][1].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/resinfo-dynamic-mip",
        what: "`resinfo` with a mip level from a register",
        plan: Plan::Reject(&[ps!(
            "dcl_resource_texture2d (float,float,float,float) t0\nftou r0.x, v0.x\nresinfo<;_uint;_rcpFloat> r1.xyzw, r0.x, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/unknown-texture-dimension",
        what: "multisampled and cube-array texture declarations",
        plan: Plan::Reject(&[
            ps!(
                "dcl_resource_<texture2dms(4);texture2dmsarray(4)> (float,float,float,float) t0\nftou r0.xyzw, v0.xyzw\nld_ms r1.xyzw, r0.xyzw, t0.xyzw, l(0)\nmov o0.xyzw, r1.xyzw\nret\n"
            ),
            ps!(
                "dcl_resource_texturecubearray (float,float,float,float) t0\nresinfo_uint r1.xyzw, l(0), t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: "fail-closed/typed-buffer-srv-format",
        what: "a typed `Buffer` SRV loaded in a pixel program",
        plan: Plan::Reject(&[ps!(
            "dcl_resource_buffer (<float;sint>,<float;sint>,<float;sint>,<float;sint>) t0\nftou r0.x, v0.x\nld r1.xyzw, r0.xxxx, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/texture-offsets",
        what: "`ld` with an immediate texel offset",
        plan: Plan::Reject(&[ps!(
            "dcl_resource_texture2d (float,float,float,float) t0\nftou r0.xyzw, v0.xyzw\nld_aoffimmi(<1;-2>,<1;3>,0) r1.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/mutable-indexable-temps",
        what: "an indexable temp written at a relative index",
        plan: Plan::Reject(&[ps!(
            "dcl_indexableTemp x0[4], 4\nmov x0[0].xyzw, l(0,0,0,0)\nmov x0[1].xyzw, l(0,0,0,0)\nmov x0[2].xyzw, l(0,0,0,0)\nmov x0[3].xyzw, l(0,0,0,0)\nand r0.x, v0.x, l(<3;7>)\nmov x0[r0.x + 0].xyzw, v1.xyzw\nmov o0.xyzw, x0[<1;r0.x + 0>].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/subroutines",
        what: "`call` and `callc` into a label",
        plan: Plan::Reject(&[ps!(
            "mov o0.xyzw, v0.xyzw\n<call l0;callc_nz v1.x, l0>\nret\nlabel l0\nmov o0.xyzw, v2.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/geometry-hull-domain",
        what: "a geometry program",
        plan: Plan::Reject(&[concat!(
            "gs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point\n",
            "dcl_stream m0\ndcl_outputtopology pointlist\ndcl_output_siv o0.xyzw, position\ndcl_maxout 1\n",
            "mov o0.xyzw, v[0][0].xyzw\nemit_stream m0\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/general-compute",
        what: "a compute program with group-shared memory outside the bounded profiles",
        plan: Plan::Reject(&[cs!(
            "<32, 2, 1;5, 1, 1>",
            "dcl_uav_raw u0\ndcl_tgsm_raw g0, 512\n",
            "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\nstore_raw g0.x, r0.x, vThreadID.x\nsync_g_t\nxor r0.y, r0.x, l(4)\nld_raw r0.z, r0.y, g0.xxxx\nstore_raw u0.x, r0.x, r0.z\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/sampler-modes",
        what: "a comparison sampler",
        plan: Plan::Reject(&[ps!(
            "dcl_sampler s0, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0\n<sample_c;sample_c_lz> r0.x, v0.xyxx, t0.xxxx, s0, v0.z\nmov o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/interpolation-modes",
        what: "centroid, sample and constant inputs",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps <linear centroid;linear sample;constant;linear noperspective centroid> v0.xyzw\n",
            "dcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/min-precision-kinds",
        what: "`min2_8f`, `min16i` and `min16u` operands",
        plan: Plan::Reject(&[ps!(
            "<add r0.xyzw {min2_8f}, v0.xyzw {min2_8f}, v1.xyzw {min2_8f};iadd r0.xyzw {min16i}, v0.xyzw {min16i}, v1.xyzw {min16i};umax r0.xyzw {min16u}, v0.xyzw {min16u}, v1.xyzw {min16u}>\nmov o0.xyzw, r0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "fail-closed/system-values",
        what: "pixel inputs and outputs with system values outside the contract",
        plan: Plan::Reject(&[
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\n",
                "dcl_input_ps_<sgv constant v1.x, primitive_id;siv linear v1.x, clip_distance;sgv constant v1.x, sampleIndex>\n",
                "dcl_output o0.xyzw\niadd o0.xyzw, v0.xyzw, v1.xxxx\nret\n"
            ),
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\n",
                "dcl_output <oDepth;oDepthGE;oMask>\nmov <oDepth;oDepthGE;oMask>, v0.x\nret\n"
            ),
        ]),
    },
    Property {
        random: true,
        entry: "supported/sample-d-integer-rounding",
        what: "integer min/max, shifts, negation, round_ne/round_pi and unsigned compares (the `sample_d` half needs textures)",
        plan: Plan::Run(&[ps!(
            "<imax o0.xyzw, v0.xyzw, v1.xyzw;imin o0.xyzw, v0.xyzw, v1.xyzw;umax o0.xyzw, v0.xyzw, v1.xyzw;umin o0.xyzw, v0.xyzw, v1.xyzw;ishl o0.xyzw, v0.xyzw, v1.xyzw;ishr o0.xyzw, v0.xyzw, v1.xyzw;ineg o0.xyzw, v0.xyzw;round_ne o0.xyzw, v0.xyzw;round_pi o0.xyzw, v0.xyzw;ult o0.xyzw, v0.xyzw, v1.xyzw;uge o0.xyzw, v0.xyzw, v1.xyzw>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: "supported/array-layer-rounding",
        what: "2D-array sample layers rounded to nearest even",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: false,
        entry: "bounded/detail-map-array",
        what: "detail maps sampled from one 2D-array texture",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: false,
        entry: "bounded/sample-offsets-2d",
        what: "2D samples with immediate offsets",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: false,
        entry: "bounded/resinfo",
        what: "`resinfo` with immediate mips in pixel programs",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: false,
        entry: "bounded/ld",
        what: "texture `ld` in and out of range",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: false,
        entry: "bounded/ld-structured",
        what: "`ld_structured` at edge indices and offsets",
        plan: Plan::Bound {
            inside: &[
                ps!(
                    "dcl_resource_structured t0, 16\nld_structured r0.xyzw, v0.x, l(0), t0.<xyzw;wzyx>\nmov o0.xyzw, r0.xyzw\nret\n"
                ),
                ps!(
                    "dcl_resource_structured t0, 16\nld_structured r0.xy, v0.x, l(<4;8>), t0.<xyxx;yxxx>\nmov o0.xyzw, r0.xyxy\nret\n"
                ),
            ],
            outside: &[ps!(
                "dcl_resource_structured t0, 16\nld_structured r0.x, v0.x, l(<16;14>), t0.xxxx\nmov o0.xyzw, r0.xxxx\nret\n"
            )],
        },
    },
    Property {
        random: true,
        entry: "bounded/f16-conversions",
        what: "`f16tof32` and `f32tof16` of edge words",
        plan: Plan::Bound {
            inside: &[ps!("<f16tof32;f32tof16> o0.xyzw, v0.xyzw\nret\n")],
            outside: &[],
        },
    },
    Property {
        random: true,
        entry: "bounded/udiv",
        what: "`udiv` with zero and edge divisors",
        plan: Plan::Bound {
            inside: &[concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\n",
                "dcl_output o0.xyzw\ndcl_output o1.xyzw\n<udiv o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw;udiv o0.xyzw, null, v0.xyzw, v1.xyzw;udiv null, o1.xyzw, v0.xyzw, v1.xyzw>\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: "bounded/loop-merges",
        what: "values carried around a counted loop",
        plan: Plan::Bound {
            inside: &[ps!(
                "mov r0.xy, l(0, 1, 0, 0)\nand r2.x, v0.y, l(<7;31>)\nloop\n  uge r1.x, r0.x, r2.x\n  breakc_nz r1.x\n  imul null, r0.y, r0.y, v0.x\n  iadd r0.x, r0.x, l(1)\nendloop\nmov o0.xyzw, r0.xyxy\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: "bounded/loop-exit-merges",
        what: "values that differ by which `break` left the loop",
        plan: Plan::Bound {
            inside: &[ps!(
                "mov r0.x, l(0)\nmov r0.y, v1.x\nand r2.x, v0.x, l(7)\nloop\n  ieq r1.x, r0.x, r2.x\n  if_nz r1.x\n    mov r0.y, v1.y\n    break\n  endif\n  uge r1.y, r0.x, l(<5;6>)\n  breakc_nz r1.y\n  iadd r0.x, r0.x, l(1)\n  xor r0.y, r0.y, v1.z\nendloop\nmov o0.xyzw, r0.xyxy\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: "bounded/switch-merges",
        what: "values merged after a switch of break-terminated clauses",
        plan: Plan::Bound {
            inside: &[ps!(
                "mov r0.x, v1.x\nand r1.x, v0.x, l(7)\nswitch r1.x\ncase l(0)\ncase l(1)\n  iadd r0.x, r0.x, l(1)\n  break\ncase l(2)\n  mov r0.x, v1.y\n  break\ncase l(3)\n  xor r0.x, r0.x, v1.z\n  break\n<default\n  ineg r0.x, r0.x\n  break\n;>endswitch\nmov o0.xyzw, r0.xxxx\nret\n"
            )],
            // A clause that falls through into the next one's code.
            outside: &[ps!(
                "mov r0.x, v1.x\nand r1.x, v0.x, l(3)\nswitch r1.x\ncase l(0)\n  mov r0.x, v1.y\ncase l(1)\n  xor r0.x, r0.x, v1.z\n  break\ndefault\n  break\nendswitch\nmov o0.xyzw, r0.xxxx\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: "bounded/selection-merges",
        what: "values merged after nested if/else",
        plan: Plan::Bound {
            inside: &[ps!(
                "mov r0.xy, v1.xyxx\nif_nz v0.x\n  if_<z;nz> v0.y\n    iadd r0.x, r0.x, l(1)\n  else\n    mov r0.y, v1.z\n  endif\nelse\n  xor r0.xy, r0.xyxx, v1.zwzz\nendif\nmov o0.xyzw, r0.xyxy\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: "bounded/undefined-merge-paths",
        what: "a temp unset on one path, read only through `and` with 0",
        plan: Plan::Bound {
            inside: &[ps!(
                "if_nz v0.x\n  mov r0.x, v1.x\nendif\nand r0.y, <r0.x, l(0);l(0), r0.x>\nmov o0.xyzw, r0.yyyy\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: "bounded/gather4",
        what: "`gather4` of a 2D texture",
        plan: Plan::Unreachable(TEXTURES),
    },
    Property {
        random: true,
        entry: "adapted/numeric-conversion-edges",
        what: "`ftoi` and `ftou` of NaN, infinities and out-of-range values",
        plan: Plan::Run(&[ps!("<ftoi;ftou> o0.xyzw, v0.xyzw\nret\n")]),
    },
    Property {
        random: false,
        entry: "adapted/derivative-uniformity",
        what: "derivatives in quad-divergent control flow",
        plan: Plan::Unreachable(
            "derivatives need 2×2 pixel quads: compute-wrapped pixel programs have none, and the interpreter has no quads yet (docs/contract.md)",
        ),
    },
];

/// The property of catalog entry `id`.
pub fn of(id: &str) -> Option<&'static Property> {
    PROPERTIES.iter().find(|p| p.entry == id)
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
        for p in PROPERTIES.iter().filter(|p| p.random) {
            let e = catalog.get(p.entry).expect("entry");
            assert!(!random_family(&e.ops, 1, 1).is_empty(), "{}", p.entry);
        }
    }

    #[test]
    fn every_seed_entry_has_exactly_one_property_and_no_other_does() {
        let catalog = oracles::catalog::catalog();
        for e in &catalog.entries {
            let n = PROPERTIES.iter().filter(|p| p.entry == e.id).count();
            assert_eq!(n, usize::from(e.seed_ref.is_some()), "{}", e.id);
        }
        assert_eq!(
            PROPERTIES.len(),
            catalog
                .entries
                .iter()
                .filter(|e| e.seed_ref.is_some())
                .count()
        );
    }

    #[test]
    fn every_program_assembles_and_decodes() {
        for p in PROPERTIES {
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
