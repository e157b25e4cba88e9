//! The properties of the entries the contract lowers: `adapted/*` and `supported/*`.

use super::{Plan, Property};
use catalog::ids as id;

/// Adapted and supported entries, in catalog order.
pub(super) const PROPERTIES: &[Property] = &[
    Property {
        random: false,
        entry: id::PRECISE,
        what: "`[precise]` add, mul, mad and dp4",
        plan: Plan::Run(&[ps!(
            "<add [precise] o0.xyzw, v0.xyzw, v1.xyzw;mul [precise] o0.xyzw, v0.xyzw, v1.xyzw;mad [precise] o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw;dp4 [precise] o0.xyzw, v0.xyzw, v1.xyzw>\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: id::COMPARISON_MASKS,
        what: "each float, int and uint compare as a mask",
        plan: Plan::Run(&[ps!(
            "<lt;ge;eq;ne;ilt;ige;ieq;ine;ult;uge> o0.xyzw, v0.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::TYPELESS_REGISTERS,
        what: "a register written as float, read as int (and back)",
        plan: Plan::Run(&[
            ps!("add r0.xyzw, v0.xyzw, v1.xyzw\n<iadd;xor;ushr> o0.xyzw, r0.xyzw, v2.xyzw\nret\n"),
            ps!("iadd r0.xyzw, v0.xyzw, v1.xyzw\n<mul;max> o0.xyzw, r0.xyzw, v2.xyzw\nret\n"),
        ]),
    },
    Property {
        random: false,
        entry: id::HOISTED_VARS,
        what: "values written in an arm or a loop, read after it",
        plan: Plan::Run(&[
            ps!(
                "if_nz v0.x\n  mov r0.xy, v1.xyxx\nelse\n  iadd r0.xy, v1.zwzz, v2.xyxx\nendif\nmov o0.xy, r0.xyxx\nmov o0.zw, v2.zzzw\nret\n"
            ),
            ps!(
                "mov r0.x, l(0)\nmov r1.x, l(0)\nloop\n  uge r1.y, r1.x, l(3)\n  breakc_nz r1.y\n  iadd r0.x, v0.x, r1.x\n  iadd r1.x, r1.x, l(1)\nendloop\nmov o0.xyzw, r0.xxxx\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: id::SWITCH_DEFAULT,
        what: "a switch without `default` over selectors that miss every case",
        plan: Plan::Run(&[ps!(
            "mov o0.xyzw, v2.xyzw\nand r0.x, v0.x, l(<3;7>)\nswitch r0.x\ncase l(0)\n  mov o0.xyzw, v1.xyzw\n  break\ncase l(1)\n  iadd o0.xyzw, v1.xyzw, v2.xyzw\n  break\nendswitch\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::FRONT_FACING,
        what: "`SV_IsFrontFace` read as a mask",
        plan: Plan::Run(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\n",
            "dcl_input_ps_sgv constant v1.x, is_front_face\ndcl_output o0.xyzw\ndcl_temps 1\n",
            "<mov o0.xyzw, v1.xxxx;movc o0.xyzw, v1.xxxx, v0.xyzw, -v0.xyzw>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::SELECTION_OUTPUT_MERGES,
        what: "arms that write outputs beside a merged temp",
        plan: Plan::Run(&[ps!(
            "mov r0.x, v0.y\nif_<nz;z> v0.x\n  mov o0.xyz, v1.xyzx\n  iadd r0.x, r0.x, v1.w\nelse\n  mov o0.xyz, v2.xyzx\nendif\nmov o0.w, r0.x\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::ARM_TAIL_MERGE_INPUTS,
        what: "a scalar merge input inherited through a nested arm's tail",
        plan: Plan::Run(&[ps!(
            "mov r0.x, v0.y\nif_nz v0.x\n  iadd r0.x, v1.x, l(1)\n  if_z v0.z\n    mov r0.x, v2.x\n  endif\nendif\nmov o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: id::SOURCE_MODIFIERS,
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
        entry: id::CONTINUE_CONTINUING,
        what: "`continuec` in a counted loop",
        plan: Plan::Run(&[ps!(
            "mov r0.x, l(0)\nmov r1.x, l(0)\nloop\n  uge r2.x, r0.x, l(8)\n  breakc_nz r2.x\n  iadd r0.x, r0.x, l(1)\n  and r2.y, r0.x, v0.x\n  continuec_<nz;z> r2.y\n  iadd r1.x, r1.x, v1.x\nendloop\nmov o0.xyzw, r1.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::UNWRITTEN_VERTEX_OUTPUTS,
        what: "a vertex output whose components are declared and never written",
        plan: Plan::Run(&[concat!(
            "vs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input v0.xyzw\ndcl_input v1.xyzw\n",
            "dcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n",
            "mov o0.xyzw, v0.xyzw\nmov o1.<x;xy>, v1.<xxxx;xyxx>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::DEAD_TEMP_WRITES,
        what: "temp writes that are overwritten or never read",
        plan: Plan::Run(&[ps!(
            "mov r0.x, v0.x\nmov r0.x, v0.y\niadd r1.x, v1.x, l(3)\n<mov;ineg> o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::TERMINAL_CONTROL_FLOW,
        what: "`ret` in an arm and instructions after the last `ret`",
        plan: Plan::Run(&[ps!(
            "ftou r3.x, v0.x\nif_<nz;z> r3.x\n  mov o0.xyzw, v1.xyzw\n  ret\nendif\nmov o0.xyzw, v2.xyzw\nret\nmov o0.xyzw, v0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::ICB_CONST_ARRAY,
        what: "immediate-constant-buffer reads at in-range and edge indices",
        plan: Plan::Run(&[ps!(
            "dcl_immediateConstantBuffer { { 1.000000, -0.000000, 0x7f800000, 0x7fc00000},\n { 0, 1, 0xffffffff, 0x80000000},\n { 0x00000001, 0x007fffff, 2.500000, -3.000000} }\n<and r0.x, v0.x, l(3);ftou r0.x, v0.x>\nmov o0.xyzw, icb[r0.x + 0].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::INDEXABLE_TEMPS,
        what: "an indexable temp addressed at fixed slots",
        plan: Plan::Run(&[ps!(
            "dcl_indexableTemp x0[4], 4\nmov x0[0].xyzw, v0.xyzw\nmov x0[<1;3>].xyzw, v1.xyzw\niadd x0[2].xyzw, x0[0].xyzw, x0[<1;3>].xyzw\nmov o0.xyzw, x0[2].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::INDEXABLE_CONST_TABLES,
        what: "an immutable indexable temp read at relative, edge indices",
        plan: Plan::Run(&[ps!(
            "dcl_indexableTemp x0[4], 4\nmov x0[0].xyzw, l(1,2,3,4)\nmov x0[1].xyzw, l(5,6,7,8)\nmov x0[2].xyzw, l(9,10,11,12)\nmov x0[3].xyzw, l(13,14,15,16)\n<and r0.x, v0.x, l(3);ftou r0.x, v0.x>\nmov o0.xyzw, x0[r0.x + 0].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::PACKED_VARYINGS,
        what: "two varyings packed into one input register",
        plan: Plan::Run(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xy\ndcl_input_ps linear v0.zw\n",
            "dcl_output o0.xyzw\n<mov o0.xyzw, v0.xyzw;iadd o0.xyzw, v0.zwxy, l(1, 1, 1, 1)>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::LINEAR_NOPERSPECTIVE,
        what: "`linear noperspective` inputs passed through",
        plan: Plan::Run(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear noperspective v0.xyzw\n",
            "dcl_output o0.xyzw\nmov o0.xyzw, v0.<xyzw;wzyx>\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: id::SATURATE_MOVERS,
        what: "`mov_sat` and `movc_sat` of edge words",
        plan: Plan::Run(&[ps!(
            "<mov_sat o0.xyzw, v0.xyzw;movc_sat o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw>\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: id::RCP_DIVISION,
        what: "`rcp` and `div` of edge values",
        plan: Plan::Run(&[ps!(
            "<rcp o0.xyzw, v0.xyzw;div o0.xyzw, v0.xyzw, v1.xyzw>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::MIN_PRECISION_F16,
        what: "`min16float` operands computed at full precision",
        plan: Plan::Run(&[ps!(
            "<add;mul;max> r0.xyzw {min16f}, v0.xyzw {min16f}, v1.xyzw {min16f}\nmov o0.xyzw, r0.xyzw {min16f}\nret\n"
        )]),
    },
    Property {
        random: true,
        entry: id::SAMPLE_D_INTEGER_ROUNDING,
        what: "`sample_d` of 2D textures and arrays in both stages (gradients xy only), integer min/max, shifts, negation, round_ne/round_pi and unsigned compares",
        plan: Plan::Run(&[
            ps!(
                "<imax o0.xyzw, v0.xyzw, v1.xyzw;imin o0.xyzw, v0.xyzw, v1.xyzw;umax o0.xyzw, v0.xyzw, v1.xyzw;umin o0.xyzw, v0.xyzw, v1.xyzw;ishl o0.xyzw, v0.xyzw, v1.xyzw;ishr o0.xyzw, v0.xyzw, v1.xyzw;ineg o0.xyzw, v0.xyzw;round_ne o0.xyzw, v0.xyzw;round_pi o0.xyzw, v0.xyzw;ult o0.xyzw, v0.xyzw, v1.xyzw;uge o0.xyzw, v0.xyzw, v1.xyzw>\nret\n"
            ),
            // Gradients of (lod · 0.2, 0) and (0, lod · 0.333): a step of `lod` texels.
            sampling!(
                ps,
                "<texture2d;texture2darray>",
                coords!(),
                "mul r1.yz, r1.xxxx, l(0, <0.2;1.0>, 0.333333343, 0)\nmov r1.w, l(0)\nsample_d r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.ywyy, r1.wzww"
            ),
            sampling!(
                vs,
                "texture2d",
                coords!(),
                "mul r1.yz, r1.xxxx, l(0, 0.2, 0.333333343, 0)\nmov r1.w, l(0)\nsample_d r2.xyzw, r0.xyxx, t0.xyzw, s0, r1.ywyy, r1.wzww"
            ),
        ]),
    },
    Property {
        random: false,
        entry: id::ARRAY_LAYER_ROUNDING,
        what: "2D-array samples at layers on the .5 ties, in both stages",
        plan: Plan::Run(&[
            sampling!(
                ps,
                "texture2darray",
                coords!(),
                "sample_l r2.xyzw, r0.xyzx, t0.<xyzw;wzyx>, s0, r1.x"
            ),
            sampling!(
                vs,
                "texture2darray",
                coords!(),
                "sample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x"
            ),
        ]),
    },
    Property {
        random: true,
        entry: id::NUMERIC_CONVERSION_EDGES,
        what: "`ftoi` and `ftou` of NaN, infinities and out-of-range values",
        plan: Plan::Run(&[ps!("<ftoi;ftou> o0.xyzw, v0.xyzw\nret\n")]),
    },
    Property {
        random: false,
        entry: id::DERIVATIVE_UNIFORMITY,
        what: "derivatives in quad-divergent control flow",
        // Drawn over quads (docs/harness.md, "Quads"): a branch on a per-pixel input splits
        // quads, and the derivative (or implicit-LOD sample) inside it runs in some of a quad's
        // lanes only.
        plan: Plan::Run(&[
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                "dcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_temps 3\n",
                "and r0.xyzw, v0.xyzw, l(7, 7, 7, 7)\nutof r0.xyzw, r0.xyzw\nmov r1.xyzw, l(0, 0, 0, 0)\n",
                "<and r2.x, v1.x, l(1);and r2.x, v1.x, l(0x80000000)>\nif_nz r2.x\n",
                "<deriv_rtx_fine;deriv_rty_coarse;deriv_rtx> r1.xyz, r0.xyzx\nendif\n",
                "mov o0.xyzw, r1.xyzw\nret\n"
            ),
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_default\n",
                "dcl_resource_texture2d (float,float,float,float) t0\n",
                "dcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\ndcl_temps 3\n",
                "and r0.xyzw, v0.xyzw, l(7, 3, 7, 7)\nutof r0.xyzw, r0.xyzw\n",
                "mul r0.xy, r0.xyxx, l(0.2, 0.333333343, 0, 0)\nmov r1.xyzw, l(0, 0, 0, 0)\n",
                "and r2.x, v1.x, l(1)\nif_nz r2.x\n",
                "sample r1.xyzw, r0.xyxx, t0.xyzw, s0\nendif\n",
                "mov o0.xyzw, r1.xyzw\nret\n"
            ),
        ]),
    },
];
