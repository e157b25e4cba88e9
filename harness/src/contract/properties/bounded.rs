//! The properties of the `bounded/*` entries: programs inside each bound, and just outside it.

use super::{Plan, Property};
use catalog::ids as id;

/// Bounded entries, in catalog order.
pub(super) const PROPERTIES: &[Property] = &[
    Property {
        random: false,
        entry: id::VERTEX_SAMPLING,
        what: "explicit-LOD sampling in a vertex program",
        plan: Plan::Bound {
            inside: &[sampling!(
                vs,
                "<texture2d;texture2darray>",
                coords!(),
                "sample_l r2.xyzw, r0.xyzx, t0.<xyzw;wzyx>, s0, r1.x"
            )],
            // Implicit-LOD sampling, which the contract keeps to pixel programs.
            outside: &[sampling!(
                vs,
                "texture2d",
                coords!(),
                "sample r2.xyzw, r0.xyxx, t0.xyzw, s0"
            )],
        },
    },
    Property {
        random: false,
        entry: id::TYPED_UAV_ATOMICS,
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
        entry: id::COMPUTE_1X1X1,
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
        entry: id::COMPUTE_SKINNING,
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
        entry: id::COMPUTE_SORT_STEP,
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
        entry: id::COMPUTE_BITONIC_MERGE,
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
        entry: id::COMPUTE_CHUNK_SORT,
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
        entry: id::COMPUTE_HISTOGRAM_MERGE,
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
        entry: id::COMPUTE_HISTOGRAM_CREATE,
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
        entry: id::COMPUTE_PARTICLE_CLEAR,
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
        entry: id::COMPUTE_PARTICLE_EMIT,
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
        entry: id::COMPUTE_PROFILES_FROZEN,
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
        entry: id::FIXED_RESOURCE_IDENTITIES,
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
        entry: id::DETAIL_MAP_ARRAY,
        what: "the physical form of detail maps: one 2D-array texture sampled at fixed layers 0, 1, 2",
        plan: Plan::Bound {
            inside: &[sampling!(
                ps,
                "texture2darray",
                coords!(),
                "mov r0.z, l(<0.0;1.0;2.0>)\nsample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x"
            )],
            // Sample offsets on the array, which the transform rejects.
            outside: &[sampling!(
                ps,
                "texture2darray",
                coords!(),
                "mov r0.z, l(1.0)\nsample_l_aoffimmi(1,-1,0) r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x"
            )],
        },
    },
    Property {
        random: false,
        entry: id::SAMPLE_OFFSETS_2D,
        what: "2D samples with immediate offsets at the ends of [-8, 7], in both stages",
        plan: Plan::Bound {
            inside: &[
                sampling!(
                    ps,
                    "texture2d",
                    coords!(),
                    "sample_l_aoffimmi(<-8;7;1>,<-1;3>,0) r2.xyzw, r0.xyxx, t0.xyzw, s0, r1.x"
                ),
                sampling!(
                    vs,
                    "texture2d",
                    coords!(),
                    "sample_l_aoffimmi(<-8;7>,-1,0) r2.xyzw, r0.xyxx, t0.xyzw, s0, r1.x"
                ),
            ],
            // Offsets on a non-2D shape, and on `ld`.
            outside: &[sampling!(
                ps,
                "texture2darray",
                coords!(),
                "sample_l_aoffimmi(1,1,0) r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x"
            )],
        },
    },
    Property {
        random: false,
        entry: id::RESINFO,
        what: "`resinfo` of a 2D texture at immediate mips, in range and past the last",
        plan: Plan::Bound {
            // The lanes fxc writes for a 2D texture: width, height and levels (`.xyw`), or
            // two of them moved (`.zw` of `t0.zwxy`); never the depth a 2D texture lacks.
            inside: &[
                concat!(
                    "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                    "dcl_resource_texture2d (<float;uint>,<float;uint>,<float;uint>,<float;uint>) t0\n",
                    "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n",
                    "mov r0.xyzw, l(0, 0, 0, 0)\n",
                    "resinfo<;_uint;_rcpFloat> r0.xyw, l(<0;2;3;9>), t0.xyzw\n",
                    "mov o0.xyzw, r0.xyzw\nret\n"
                ),
                concat!(
                    "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                    "dcl_resource_texture2d (float,float,float,float) t0\n",
                    "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n",
                    "mov r0.xyzw, l(0, 0, 0, 0)\n",
                    "resinfo<;_uint> r0.zw, l(<0;1;9>), t0.zwxy\n",
                    "mov o0.xyzw, r0.xyzw\nret\n"
                ),
            ],
            // A mip level from a register.
            outside: &[concat!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                "dcl_resource_texture2d (float,float,float,float) t0\n",
                "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 1\n",
                "and r0.x, v0.x, l(3)\nresinfo_uint r0.xyzw, r0.x, t0.xyzw\n",
                "mov o0.xyzw, r0.xyzw\nret\n"
            )],
        },
    },
    Property {
        random: false,
        entry: id::LD,
        what: "`ld` of 2D float textures at edge coordinates and mips",
        plan: Plan::Bound {
            // Float textures: the page's binding contract is four-component float views
            // (`rgba8unorm` today); integer texels are outside it.
            inside: &[
                concat!(
                    "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                    "dcl_resource_texture2d (float,float,float,float) t0\n",
                    "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
                    "<ftou r0.xyzw, v0.xyzw;and r0.xyzw, v0.xyzw, l(7, 3, 3, 0)>\n",
                    "ld r1.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
                ),
                cs!(
                    "8, 1, 1",
                    "dcl_resource_texture2d (float,float,float,float) t0\ndcl_resource_structured t1, 16\ndcl_uav_structured u0, 16\n",
                    "ld_structured r0.xyzw, vThreadID.x, l(0), t1.xyzw\n<and r0.xyzw, r0.xyzw, l(7, 3, 3, 0)\n;>ld r1.xyzw, r0.xyzw, t0.<wzyx;xyzw>\nstore_structured u0.xyzw, vThreadID.x, l(0), r1.xyzw\nret\n"
                ),
            ],
            // Integer texels, and an immediate texel offset.
            outside: &[
                concat!(
                    "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                    "dcl_resource_texture2d (<uint;sint>,<uint;sint>,<uint;sint>,<uint;sint>) t0\n",
                    "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
                    "<ftou r0.xyzw, v0.xyzw;and r0.xyzw, v0.xyzw, l(7, 3, 3, 0)>\n",
                    "ld r1.xyzw, r0.xyzw, t0.xyzw\nmov o0.xyzw, r1.xyzw\nret\n"
                ),
                concat!(
                    "ps_5_0\ndcl_globalFlags refactoringAllowed\n",
                    "dcl_resource_texture2d (float,float,float,float) t0\n",
                    "dcl_input_ps linear v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n",
                    "and r0.xyzw, v0.xyzw, l(7, 3, 3, 0)\nld_aoffimmi(1,0,0) r1.xyzw, r0.xyzw, t0.xyzw\n",
                    "mov o0.xyzw, r1.xyzw\nret\n"
                ),
            ],
        },
    },
    Property {
        random: false,
        entry: id::LD_STRUCTURED,
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
        entry: id::F16_CONVERSIONS,
        what: "`f16tof32` and `f32tof16` of edge words",
        plan: Plan::Bound {
            inside: &[ps!("<f16tof32;f32tof16> o0.xyzw, v0.xyzw\nret\n")],
            outside: &[],
        },
    },
    Property {
        random: true,
        entry: id::UDIV,
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
        entry: id::LOOP_MERGES,
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
        entry: id::LOOP_EXIT_MERGES,
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
        entry: id::SWITCH_MERGES,
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
        entry: id::SELECTION_MERGES,
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
        entry: id::UNDEFINED_MERGE_PATHS,
        what: "a temp unset on one path, read only through `and` with the condition that is 0 there",
        plan: Plan::Bound {
            inside: &[ps!(
                "ftou r1.x, v0.x\nif_nz r1.x\n  mov r0.x, v1.x\nendif\nand r0.y, <r0.x, r1.x;r1.x, r0.x>\nmov o0.xyzw, r0.yyyy\nret\n"
            )],
            outside: &[],
        },
    },
    Property {
        random: false,
        entry: id::BOUNDED_GATHER4,
        what: "`gather4` of a 2D texture or array, each channel, at footprint corners and raw positions",
        // The seed has not built gather4's WGSL: a translator refuses it, or lowers it beyond
        // the contract and must match.
        plan: Plan::Reject(&[
            sampling!(
                ps,
                "<texture2d;texture2darray>",
                coords!("0.0"),
                "gather4 r2.xyzw, r0.xyzx, t0.<xyzw;wzyx>, s0.<x;y;w>"
            ),
            sampling!(
                vs,
                "texture2d",
                coords!("0.0"),
                "gather4_aoffimmi(<-8;7>,1,0) r2.xyzw, r0.xyxx, t0.xyzw, s0.x"
            ),
        ]),
    },
];
