//! The properties of the `fail-closed/*` entries: programs that carry each feature.

use super::{Plan, Property};
use catalog::ids as id;

/// Fail-closed entries, in catalog order.
pub(super) const PROPERTIES: &[Property] = &[
    Property {
        random: false,
        entry: id::SYSTEM_CRASH,
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
        entry: id::TYPED_BUFFER_SRV_BOUND_VIEW,
        what: "a typed `Buffer` SRV loaded in a compute program",
        plan: Plan::Reject(&[cs!(
            "4, 1, 1",
            "dcl_resource_buffer (<float;uint>,<float;uint>,<float;uint>,<float;uint>) t0\ndcl_uav_raw u0\n",
            "ld r0.xyzw, vThreadID.xxxx, t0.xyzw\nishl r1.x, vThreadID.x, l(2)\nstore_raw u0.x, r1.x, r0.x\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::NON_REFACTORABLE,
        what: "programs without the `refactoringAllowed` flag",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\ndcl_output o0.xyzw\n",
            "<add;mul;iadd> o0.xyzw, v0.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::BINDLESS_RANGES,
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
        entry: id::IMUL_HIGH_HALF,
        what: "`imul`/`umul` with the high destination written",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\n",
            "dcl_output o0.xyzw\ndcl_output o1.xyzw\n<imul;umul> o0.xyzw, o1.xyzw, v0.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::DYNAMIC_CB_SELECTION,
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
        entry: id::RESINFO_DYNAMIC_MIP,
        what: "`resinfo` with a mip level from a register",
        plan: Plan::Reject(&[ps!(
            "dcl_resource_texture2d (float,float,float,float) t0\nftou r0.x, v0.x\nresinfo<;_uint;_rcpFloat> r1.xyzw, r0.x, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::UNKNOWN_TEXTURE_DIMENSION,
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
        entry: id::TYPED_BUFFER_SRV_FORMAT,
        what: "a typed `Buffer` SRV loaded in a pixel program",
        plan: Plan::Reject(&[ps!(
            "dcl_resource_buffer (<float;sint>,<float;sint>,<float;sint>,<float;sint>) t0\nftou r0.x, v0.x\nld r1.xyzw, r0.xxxx, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::TEXTURE_OFFSETS,
        what: "`ld` with an immediate texel offset",
        plan: Plan::Reject(&[ps!(
            "dcl_resource_texture2d (float,float,float,float) t0\nftou r0.xyzw, v0.xyzw\nld_aoffimmi(<1;-2>,<1;3>,0) r1.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::MUTABLE_INDEXABLE_TEMPS,
        what: "an indexable temp written at a relative index",
        plan: Plan::Reject(&[ps!(
            "dcl_indexableTemp x0[4], 4\nmov x0[0].xyzw, l(0,0,0,0)\nmov x0[1].xyzw, l(0,0,0,0)\nmov x0[2].xyzw, l(0,0,0,0)\nmov x0[3].xyzw, l(0,0,0,0)\nand r0.x, v0.x, l(<3;7>)\nmov x0[r0.x + 0].xyzw, v1.xyzw\nmov o0.xyzw, x0[<1;r0.x + 0>].xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::SUBROUTINES,
        what: "`call` and `callc` into a label",
        plan: Plan::Reject(&[ps!(
            "mov o0.xyzw, v0.xyzw\n<call l0;callc_nz v1.x, l0>\nret\nlabel l0\nmov o0.xyzw, v2.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::GEOMETRY_HULL_DOMAIN,
        what: "a geometry program",
        plan: Plan::Reject(&[concat!(
            "gs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input v[1][0].xyzw\ndcl_inputprimitive point\n",
            "dcl_stream m0\ndcl_outputtopology pointlist\ndcl_output_siv o0.xyzw, position\ndcl_maxout 1\n",
            "mov o0.xyzw, v[0][0].xyzw\nemit_stream m0\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::GENERAL_COMPUTE,
        what: "a compute program with group-shared memory outside the bounded profiles",
        plan: Plan::Reject(&[cs!(
            "<32, 2, 1;5, 1, 1>",
            "dcl_uav_raw u0\ndcl_tgsm_raw g0, 512\n",
            "ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\nstore_raw g0.x, r0.x, vThreadID.x\nsync_g_t\nxor r0.y, r0.x, l(4)\nld_raw r0.z, r0.y, g0.xxxx\nstore_raw u0.x, r0.x, r0.z\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::SAMPLER_MODES,
        what: "a comparison sampler",
        plan: Plan::Reject(&[ps!(
            "dcl_sampler s0, mode_comparison\ndcl_resource_texture2d (float,float,float,float) t0\n<sample_c;sample_c_lz> r0.x, v0.xyxx, t0.xxxx, s0, v0.z\nmov o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::INTERPOLATION_MODES,
        what: "centroid, sample and constant inputs",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_ps <linear centroid;linear sample;constant;linear noperspective centroid> v0.xyzw\n",
            "dcl_output o0.xyzw\nmov o0.xyzw, v0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::MIN_PRECISION_KINDS,
        what: "`min2_8f`, `min16i` and `min16u` operands",
        plan: Plan::Reject(&[ps!(
            "<add r0.xyzw {min2_8f}, v0.xyzw {min2_8f}, v1.xyzw {min2_8f};iadd r0.xyzw {min16i}, v0.xyzw {min16i}, v1.xyzw {min16i};umax r0.xyzw {min16u}, v0.xyzw {min16u}, v1.xyzw {min16u}>\nmov o0.xyzw, r0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::SYSTEM_VALUES,
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
    // The refusals the page documents inside its Adapted and Bounded headings.
    Property {
        random: false,
        entry: id::SWITCH_MERGES_WITHOUT_DEFAULT,
        what: "a switch without `default` whose clauses set a value read after it",
        plan: Plan::Reject(&[ps!(
            "ftou r0.x, v0.x\nand r0.x, r0.x, l(3)\nmov r1.x, v1.x\nswitch r0.x\ncase l(0)\n  mov r1.x, v1.y\n  break\ncase l(<1;2>)\n  add r1.x, v1.x, v1.z\n  break\nendswitch\nmov o0.xyzw, r1.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::UNMERGED_VALUES,
        what: "a value set on one arm only, then read after the join",
        plan: Plan::Reject(&[ps!(
            "ftou r0.x, v0.x\nmov r1.x, v1.x\nif_<nz;z> r0.x\n  mov r2.x, v1.y\n  mov r1.x, v1.z\nendif\nadd r2.y, r1.x, r2.x\nmov o0.xyzw, r2.yyyy\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::INTEGER_ABS_MODIFIERS,
        what: "`abs` and `-abs` on the condition an integer `movc` consumes",
        plan: Plan::Reject(&[ps!(
            "ftou r0.xy, v0.xyxx\nmovc r1.xyzw, <|r0.x|;-|r0.y|>, v1.xyzw, v2.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::MIXED_LANE_TYPES,
        what: "one move of lanes an integer and a float instruction wrote",
        plan: Plan::Reject(&[ps!(
            "<ftou r0.x, v0.x;ftoi r0.x, v0.x;iadd r0.x, v0.x, v1.x>\nmul r0.y, v0.y, v1.y\n<mov o0.xy, r0.xyxx;mov_sat o0.xy, r0.xyxx>\nmov o0.zw, v2.zzzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::UNWRITTEN_FRAGMENT_OUTPUTS,
        what: "a pixel program that returns with `SV_Target` lanes unwritten",
        plan: Plan::Reject(&[ps!(
            "<mov o0.xy, v0.xyxx;mov o0.xyz, v0.xyzx;add o0.w, v0.w, v1.w>\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::INTEGER_SATURATE,
        what: "`_sat` on integer arithmetic",
        plan: Plan::Reject(&[ps!(
            "<iadd_sat;imax_sat;ishl_sat> r0.xyzw, v0.xyzw, v1.xyzw\nmov o0.xyzw, r0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::RCP_SPECIAL_IMMEDIATES,
        what: "`rcp` of immediate zeros, a subnormal, infinities and NaN",
        plan: Plan::Reject(&[ps!(
            "rcp r0.xyzw, l(<0x00000000;0x80000000;0x00000001;0x7f800000;0xff800000;0x7fc00000>, 2.0, 0.5, -4.0)\nmul o0.xyzw, r0.xyzw, v0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::VERTEX_IMPLICIT_LOD,
        what: "implicit-LOD `sample` and `sample_b` in a vertex program",
        plan: Plan::Reject(&[concat!(
            "vs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_default\n",
            "dcl_resource_texture2d (float,float,float,float) t0\ndcl_input v0.xyzw\ndcl_input v1.xyzw\n",
            "dcl_output o0.xyzw\ndcl_output_siv o1.xyzw, position\ndcl_temps 2\n",
            "and r0.xy, v0.xyxx, l(7, 3, 0, 0)\nutof r0.xy, r0.xyxx\nmul r0.xy, r0.xyxx, l(0.2, 0.333333343, 0, 0)\n",
            "<sample r1.xyzw, r0.xyxx, t0.xyzw, s0;sample_b r1.xyzw, r0.xyxx, t0.xyzw, s0, l(0.5)>\n",
            "mov o0.xyzw, r1.xyzw\nmov o1.xyzw, v1.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::ATOMIC_SHAPES,
        what: "result-returning and other atomics on a typed uint buffer UAV",
        plan: Plan::Reject(&[cs!(
            "4, 1, 1",
            "dcl_uav_typed_buffer (uint,uint,uint,uint) u0\ndcl_uav_raw u1\n",
            "and r0.x, vThreadID.x, l(3)\n<imm_atomic_iadd r1.x, u0, r0.x, l(1);imm_atomic_umax r1.x, u0, r0.x, vThreadID.x;imm_atomic_exch r1.x, u0, r0.x, vThreadID.x>\nishl r0.y, vThreadID.x, l(2)\nstore_raw u1.x, r0.y, r1.x\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::RELATIVE_RESOURCE_IDENTITIES,
        what: "a texture of a one-register SM 5.1 range addressed relatively",
        plan: Plan::Reject(&[concat!(
            "ps_5_1\ndcl_globalFlags refactoringAllowed\n",
            "dcl_resource_texture2d (float,float,float,float) T0[0:0], space=0\n",
            "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
            "ftou r0.xyzw, v0.xyzw\nand r1.x, r0.x, l(0)\nand r0.yz, r0.yyzy, l(0, 3, 3, 0)\n",
            "ld r0.xyzw, r0.yzww, T0[r1.x + 0].xyzw\nmov o0.xyzw, r0.xyzw\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::RESINFO_SHAPES,
        what: "`resinfo` asked for a 2D texture's depth, saturated, or of a cube",
        plan: Plan::Reject(&[
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                "dcl_resource_texture2d (float,float,float,float) t0\ndcl_output o0.xyzw\n",
                "<resinfo_uint o0.xyzw, l(0), t0.xyzw;resinfo_sat o0.xyzw, l(0), t0.xyzw;resinfo o0.xyzw, l(1), t0.zzzz>\nret\n"
            ),
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                "dcl_resource_texturecube (float,float,float,float) t0\ndcl_output o0.xyzw\n",
                "resinfo_uint o0.xyzw, l(0), t0.xyzw\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: id::LD_SHAPES,
        what: "`ld` of a 3D texture, a 2D array or uint texels, and `ld` in a vertex program",
        plan: Plan::Reject(&[
            concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                "dcl_resource_<texture3d (float,float,float,float);texture2darray (float,float,float,float);texture2d (uint,uint,uint,uint)> t0\n",
                "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n",
                "ftou r0.xyzw, v0.xyzw\nand r0.xyzw, r0.xyzw, l(7, 3, 3, 1)\nld r0.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r0.xyzw\nret\n"
            ),
            concat!(
                "vs_5_0\ndcl_globalFlags refactoringAllowed\n",
                "dcl_resource_texture2d (float,float,float,float) t0\n",
                "dcl_input v0.xyzw\ndcl_output o0.xyzw\ndcl_output_siv o1.xyzw, position\ndcl_temps 1\n",
                "ftou r0.xyzw, v0.xyzw\nand r0.xyzw, r0.xyzw, l(7, 3, 0, 1)\nld r0.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r0.xyzw\nmov o1.xyzw, v0.xyzw\nret\n"
            ),
        ]),
    },
    Property {
        random: false,
        entry: id::STRUCTURED_LOAD_SHAPES,
        what: "`ld_structured` at a byte offset from a register",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
            "dcl_resource_structured t0, 16\n",
            "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n",
            "ftou r0.xy, v0.xyxx\nand r0.xy, r0.xyxx, l(3, <12;4>, 0, 0)\nld_structured r0.x, r0.x, r0.y, t0.xxxx\nmov o0.xyzw, r0.xxxx\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::DUAL_DESTINATION_MASKS,
        what: "`udiv` whose quotient and remainder are written with different masks",
        plan: Plan::Reject(&[ps!(
            "ftou r0.xyzw, v0.xyzw\nftou r1.xyzw, v1.xyzw\nudiv r2.<xy;x>, r3.<xyz;xy>, r0.xyzw, r1.xyzw\nmov o0.xy, r2.xyxx\nmov o0.zw, r3.xxxy\nret\n"
        )]),
    },
    Property {
        random: false,
        entry: id::FAIL_CLOSED_GATHER4,
        what: "`gather4` of a 2D texture in a pixel program",
        plan: Plan::Reject(&[concat!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_sampler s0, mode_default\n",
            "dcl_resource_texture2d (float,float,float,float) t0\n",
            "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
            "and r0.xy, v0.xyxx, l(7, 3, 0, 0)\nutof r0.xy, r0.xyxx\nmul r0.xy, r0.xyxx, l(0.2, 0.333333343, 0, 0)\n",
            "gather4 r1.xyzw, r0.xyxx, t0.xyzw, s0.<x;y;w>\nmov o0.xyzw, r1.xyzw\nret\n"
        )]),
    },
];
