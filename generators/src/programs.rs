//! Single-instruction programs: for each ALU opcode, a pixel program that reads its sources from
//! `float` inputs `v0..v3` (interpolated `linear`, as fxc writes them) and writes its
//! destinations to `uint` outputs `o0`/`o1`, so that the raw words pass the stage interface
//! untouched.

use dxbc::builder::{ProgramBuilder, input, output};
use dxbc::chunks::signature::{Signature, SignatureElement};
use dxbc::container::FourCC;
use dxbc::opcodes::{Flags, Kind, TABLE};
use dxbc::{Instruction, Opcode, Stage};

/// A generated program and what it needs.
#[derive(Debug, Clone)]
pub struct SingleOp {
    /// The one instruction the program runs.
    pub opcode: Opcode,
    /// The container (signatures and code), ready to translate.
    pub blob: Vec<u8>,
    /// Input registers `v0..` it reads, four words each.
    pub sources: usize,
    /// Output registers `o0..` it writes.
    pub outputs: usize,
}

/// Whether an opcode is a plain ALU operation over registers (what single-instruction programs
/// exercise): no flow, resources, memory, doubles or derivatives.
pub fn is_single_alu(op: Opcode) -> bool {
    let info = op.info();
    info.kind.is_alu() && !info.has(Flags::DERIVATIVE) || info.has(Flags::MOVE)
}

/// `dcl_input_ps`'s interpolation mode for `linear` (bits 11-14 of the opcode token).
const LINEAR: u32 = 2;

pub(crate) fn signature(kind: FourCC, count: usize, name: &str) -> Signature {
    Signature {
        kind,
        elements: (0..count)
            .map(|r| SignatureElement {
                stream: 0,
                semantic_name: name.to_string(),
                semantic_index: r as u32,
                system_value: 0,
                // Inputs are float, as fxc declares `float4 a : IN0` read with `asuint`;
                // outputs are `uint4 : SV_Target`, so results pass the interface as bits.
                component_type: if kind == FourCC::ISGN { 3 } else { 1 },
                register: r as u32,
                mask: 0xF,
                rw_mask: if kind == FourCC::ISGN { 0xF } else { 0 },
                reserved: 0,
                min_precision: 0,
                name_offset: None,
            })
            .collect(),
    }
}

/// The program for one opcode.
pub fn single(op: Opcode) -> Option<SingleOp> {
    single_with(op, dxbc::Modifier::None, false)
}

/// The program for one opcode with `modifier` on every source and, when `saturate`, `_sat` on
/// the instruction (`mov_sat o0, -|v0|`): what `dxdiff sweep` runs for each modifier of a
/// move.
pub fn single_with(op: Opcode, modifier: dxbc::Modifier, saturate: bool) -> Option<SingleOp> {
    single_writing(op, modifier, saturate, None)
}

/// For each opcode with two destinations, the programs that write one of them, the other
/// `null`, as fxc writes most of them (`imul null, r0.x, …` for a product's low half,
/// `udiv r0.x, null, …` for a quotient): (`<mnemonic>-d<k>`, the program writing destination
/// k to `o0`). A translator may lower one half and refuse the other (the seed's page lowers
/// `imul`'s low half only), so each half is a program of its own.
pub fn single_halves() -> Vec<(String, SingleOp)> {
    TABLE
        .iter()
        .filter(|i| i.model <= dxbc::opcodes::Model::Sm50D3d111 && i.kind != Kind::Double)
        .filter(|i| i.dst == 2 && is_single_alu(i.opcode) && i.opcode != Opcode::Swapc)
        .flat_map(|i| {
            (0..2).filter_map(move |k| {
                let p = single_writing(i.opcode, dxbc::Modifier::None, false, Some(k))?;
                Some((format!("{}-d{k}", i.opcode.mnemonic()), p))
            })
        })
        .collect()
}

/// The program for one opcode; with `only`, just that destination is written (to `o0`), the
/// other is `null`.
fn single_writing(
    op: Opcode,
    modifier: dxbc::Modifier,
    saturate: bool,
    only: Option<usize>,
) -> Option<SingleOp> {
    if !is_single_alu(op) {
        return None;
    }
    let info = op.info();
    let src = info.src as usize;
    let dst = if only.is_some() { 1 } else { info.dst as usize };
    let mut b = ProgramBuilder::new(Stage::Pixel, 5, 0);
    b.dcl(Opcode::DclGlobalFlags, 1 << 11, None, &[]).ok()?;
    for r in 0..src {
        // Interpolation mode 2: linear, what fxc writes for a float input unless the HLSL
        // says `nointerpolation`; the program reads the words with `asuint`.
        b.dcl(Opcode::DclInputPs, LINEAR << 11, Some(input(r as u32)), &[])
            .ok()?;
    }
    for r in 0..dst {
        b.dcl_output(r as u32, 0xF).ok()?;
    }
    let mut operands: Vec<_> = match only {
        Some(k) => (0..info.dst as usize)
            .map(|d| {
                if d == k {
                    output(0)
                } else {
                    dxbc::builder::special(dxbc::OperandType::Null, dxbc::Components::Zero)
                }
            })
            .collect(),
        None => (0..dst).map(|r| output(r as u32)).collect(),
    };
    operands.extend((0..src).map(|r| {
        let mut o = input(r as u32).swizzle([0, 1, 2, 3]);
        o.modifier = modifier;
        o
    }));
    let mut inst = Instruction::with(op, operands);
    inst.saturate = saturate;
    b.emit(inst).ok()?;
    b.op(Opcode::Ret, vec![]).ok()?;
    let sigs = [
        signature(FourCC::ISGN, src, "IN"),
        signature(FourCC::OSGN, dst, "SV_Target"),
    ];
    let blob = b.container(&sigs).ok()?.to_bytes();
    Some(SingleOp {
        opcode: op,
        blob,
        sources: src,
        outputs: dst,
    })
}

/// Single-instruction programs for every plain ALU opcode of Shader Model 5.0 and below.
pub fn all_single() -> Vec<SingleOp> {
    TABLE
        .iter()
        .filter(|i| i.model <= dxbc::opcodes::Model::Sm50D3d111 && i.kind != Kind::Double)
        .filter_map(|i| single(i.opcode))
        .collect()
}

/// Coordinates into `r0` from `v0`: texel centres of a 5×3 texture with a layer `k / 2` for
/// three lanes in four, the raw edge-biased words for the fourth (bit 4 of `v1.y` picks).
const COORDS: &str = "and r0.xyzw, v0.xyzw, l(7, 3, 7, 0)\nutof r0.xyzw, r0.xyzw\n\
add r0.xy, r0.xyxx, l(0.5, 0.5, 0, 0)\nmul r0.xyz, r0.xyzx, l(0.2, 0.333333343, 0.5, 0)\n\
and r1.y, v1.y, l(0x30)\nmovc r0.xyzw, r1.yyyy, r0.xyzw, v0.xyzw\n\
and r1.x, v1.x, l(3)\nutof r1.x, r1.x\nmul r1.x, r1.x, l(0.75)\n";

/// Directions into `r0` from `v0` for a cube of 5×5 faces: a texel centre of a face (u and v
/// from `v0.xy & 7`, 2(i + 0.5)/5 − 1 on the face, past its edge for i ≥ 5), or with `corner`
/// a texel corner (2(i + 1)/5 − 1: a gather's footprint is a tie at a centre); the major axis
/// ±1 from `v0.z & 2`, rotated onto x, y or z by `v1.z`'s low bits, so that every face is
/// reached; the raw edge-biased words for one lane in four, and the LOD in `r1.x`, as
/// [`COORDS`].
fn cube_coords(corner: bool) -> String {
    let start = if corner { "-0.6" } else { "-0.8" };
    format!(
        "and r0.xyzw, v0.xyzw, l(7, 7, 2, 0)\nutof r0.xyzw, r0.xyzw\n\
mad r0.xy, r0.xyxx, l(0.4, 0.4, 0, 0), l({start}, {start}, 0, 0)\nadd r0.z, r0.z, l(-1.0)\n\
and r1.x, v1.z, l(1)\nmovc r2.xyz, r1.xxxx, r0.zxyz, r0.xyzx\n\
and r1.x, v1.z, l(2)\nmovc r0.xyz, r1.xxxx, r2.yzxy, r2.xyzx\n\
and r1.y, v1.y, l(0x30)\nmovc r0.xyzw, r1.yyyy, r0.xyzw, v0.xyzw\n\
and r1.x, v1.x, l(3)\nutof r1.x, r1.x\nmul r1.x, r1.x, l(0.75)\n"
    )
}

/// Coordinates into `r0` from `v0` for a 5×3×3 3D texture: texel centres for three lanes in
/// four (x from `v0.x & 7`, past the edge for 5 to 7; y and z from `& 3`, past it for 3), the
/// raw words for the fourth, and the LOD in `r1.x`, as [`COORDS`].
const VOLUME_COORDS: &str = "and r0.xyzw, v0.xyzw, l(7, 3, 3, 0)\nutof r0.xyzw, r0.xyzw\n\
add r0.xyz, r0.xyzx, l(0.5, 0.5, 0.5, 0)\nmul r0.xyz, r0.xyzx, l(0.2, 0.333333343, 0.333333343, 0)\n\
and r1.y, v1.y, l(0x30)\nmovc r0.xyzw, r1.yyyy, r0.xyzw, v0.xyzw\n\
and r1.x, v1.x, l(3)\nutof r1.x, r1.x\nmul r1.x, r1.x, l(0.75)\n";

/// Coordinates into `r0` from `v0` for a 5-texel 1D texture (array): u at texel centres for
/// three lanes in four (`v0.x & 7`, past the edge for 5 to 7), y a layer `k / 2` (the .5 ties,
/// and past the last of three layers), the raw words for the fourth, and the LOD in `r1.x`,
/// as [`COORDS`].
const LINE_COORDS: &str = "and r0.xyzw, v0.xyzw, l(7, 7, 0, 0)\nutof r0.xyzw, r0.xyzw\n\
add r0.x, r0.x, l(0.5)\nmul r0.xy, r0.xyxx, l(0.2, 0.5, 0, 0)\n\
and r1.y, v1.y, l(0x30)\nmovc r0.xyzw, r1.yyyy, r0.xyzw, v0.xyzw\n\
and r1.x, v1.x, l(3)\nutof r1.x, r1.x\nmul r1.x, r1.x, l(0.75)\n";

/// One built-in program per sampling and derivative opcode, named by its mnemonic, as fxc
/// text: the opcode over `t0` (a 2D texture, or a 2D array where the opcode takes a layer) and
/// `s0`, its coordinates from [`COORDS`], its result in `o0`. `sample_l` and `gather4` run in
/// a vertex program (explicit or no LOD, no quads needed), which writes `SV_Position` as every
/// real one does; the opcodes that take derivatives (`sample` among them: D3D has no implicit
/// LOD outside a pixel program) run in a pixel program. A `resinfo` writes the lanes fxc
/// writes for the texture's shape (`.xyw` of a 2D texture; zero in the rest). The `_cube` programs sample a `TextureCube`
/// along [`cube_coords`] directions, the `_3d` ones a `Texture3D` at [`VOLUME_COORDS`], the
/// `_1d` and `_1darray` ones a `Texture1D` or `Texture1DArray` at [`LINE_COORDS`].
pub fn sampling() -> Vec<(&'static str, String)> {
    let program = |stage: &str, dim: &str, decls: &str, body: &str| {
        let coords = match dim {
            "texturecube" => cube_coords(body.contains("gather4")),
            // A cube array's w picks the cube: k / 2 from `v1.w & 7`, the .5 ties and past the
            // last of three cubes, as an array's layer.
            "texturecubearray" => format!(
                "{}and r1.z, v1.w, l(7)\nutof r1.z, r1.z\nmul r0.w, r1.z, l(0.5)\n",
                cube_coords(body.contains("gather4"))
            ),
            "texture3d" => VOLUME_COORDS.to_string(),
            "texture1d" | "texture1darray" => LINE_COORDS.to_string(),
            _ => COORDS.to_string(),
        };
        // A vertex program writes `SV_Position` (every real one does: the rasterizer needs
        // it); here the raw `v0`, in `o1`.
        let (io, position, moved) = if stage == "ps" {
            (
                "dcl_input_ps linear v0.xyzw\ndcl_input_ps linear v1.xyzw\n",
                "",
                "",
            )
        } else {
            (
                "dcl_input v0.xyzw\ndcl_input v1.xyzw\n",
                "dcl_output_siv o1.xyzw, position\n",
                "mov o1.xyzw, v0.xyzw\n",
            )
        };
        // A result of one component (a comparison) is replicated, as fxc writes `.xxxx`,
        // rather than reading lanes nothing wrote.
        let result = if body.lines().last().is_some_and(|l| l.contains(" r2.x,")) {
            "r2.xxxx"
        } else {
            "r2.xyzw"
        };
        format!(
            "{stage}_5_0\ndcl_globalFlags refactoringAllowed\n{decls}\
dcl_resource_{dim} (float,float,float,float) t0\n{io}dcl_output o0.xyzw\n{position}dcl_temps 3\n\
{coords}{body}\nmov o0.xyzw, {result}\n{moved}ret\n"
        )
    };
    let s0 = "dcl_sampler s0, mode_default\n";
    let c0 = "dcl_sampler s0, mode_comparison\n";
    vec![
        (
            "sample",
            program(
                "ps",
                "texture2d",
                s0,
                "sample r2.xyzw, r0.xyxx, t0.xyzw, s0",
            ),
        ),
        (
            "sample_l",
            program(
                "vs",
                "texture2darray",
                s0,
                "sample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_b",
            program(
                "ps",
                "texture2d",
                s0,
                "sample_b r2.xyzw, r0.xyxx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_d",
            program(
                "ps",
                "texture2d",
                s0,
                "sample_d r2.xyzw, r0.xyxx, t0.xyzw, s0, r0.zwzz, r1.xyxx",
            ),
        ),
        (
            "sample_c",
            program(
                "ps",
                "texture2d",
                c0,
                "mul r1.x, r1.x, l(0.5)\nsample_c r2.x, r0.xyxx, t0.xxxx, s0, r1.x",
            ),
        ),
        (
            "sample_c_lz",
            program(
                "vs",
                "texture2d",
                c0,
                "mul r1.x, r1.x, l(0.5)\nsample_c_lz r2.x, r0.xyxx, t0.xxxx, s0, r1.x",
            ),
        ),
        (
            "gather4",
            program(
                "vs",
                "texture2d",
                s0,
                "gather4 r2.xyzw, r0.xyxx, t0.xyzw, s0.y",
            ),
        ),
        (
            "gather4_po",
            program(
                "vs",
                "texture2d",
                s0,
                "gather4_po r2.xyzw, r0.xyxx, v1.zwzz, t0.xyzw, s0.y",
            ),
        ),
        (
            "gather4_po_c",
            program(
                "vs",
                "texture2d",
                c0,
                "mul r1.x, r1.x, l(0.5)\ngather4_po_c r2.xyzw, r0.xyxx, v1.zwzz, t0.xyzw, s0.x, r1.x",
            ),
        ),
        (
            "ld_depth",
            program(
                "vs",
                "texture2d",
                c0,
                "mul r1.x, r1.x, l(0.5)\nsample_c_lz r2.x, r0.xyxx, t0.xxxx, s0, r1.x\n\
ftou r0.xyzw, v0.xyzw\nld r1.xyzw, r0.xyzw, t0.xyzw\nmov r2.yzw, r1.xxyw",
            ),
        ),
        (
            "gather4_c",
            program(
                "vs",
                "texture2d",
                c0,
                "mul r1.x, r1.x, l(0.5)\ngather4_c r2.xyzw, r0.xyxx, t0.xyzw, s0.x, r1.x",
            ),
        ),
        // A texture both compared and gathered (the SDK's contact-hardening shadows): the
        // depths themselves through a plain sampler, then the comparisons of two of them.
        (
            "gather4_depth",
            program(
                "vs",
                "texture2d",
                "dcl_sampler s0, mode_comparison\ndcl_sampler s1, mode_default\n",
                "gather4_po r2.xyzw, r0.xyxx, v1.zwzz, t0.xyzw, s1.x\n\
mul r1.x, r1.x, l(0.5)\ngather4_c r1.xyzw, r0.xyxx, t0.xyzw, s0.x, r1.x\nmov r2.zw, r1.xxxy",
            ),
        ),
        (
            "sample_l_cube",
            program(
                "vs",
                "texturecube",
                s0,
                "sample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_cube",
            program(
                "ps",
                "texturecube",
                s0,
                "sample r2.xyzw, r0.xyzx, t0.xyzw, s0",
            ),
        ),
        (
            "gather4_cube",
            program(
                "vs",
                "texturecube",
                s0,
                "gather4 r2.xyzw, r0.xyzx, t0.xyzw, s0.x",
            ),
        ),
        (
            "sample_c_cube",
            program(
                "ps",
                "texturecube",
                c0,
                "mul r1.x, r1.x, l(0.5)\nsample_c r2.x, r0.xyzx, t0.xxxx, s0, r1.x",
            ),
        ),
        (
            "ldms",
            program(
                "ps",
                "texture2dms(4)",
                "",
                "and r1.xyzw, v0.xyzw, l(7, 3, 0, 0)\nand r1.z, v1.z, l(3)\n\
ldms r2.xyzw, r1.xyxx, t0.xyzw, r1.z",
            ),
        ),
        (
            "sampleinfo",
            program(
                "ps",
                "texture2dms(4)",
                "",
                "sampleinfo r2.xyzw, t0.xyzw\nsampleinfo_uint r2.y, t0.x",
            ),
        ),
        (
            "samplepos",
            program(
                "ps",
                "texture2dms(4)",
                "",
                "and r1.x, v1.x, l(7)\nsamplepos r2.xy, t0.xyxx, r1.x\nmov r2.zw, l(0, 0, 0, 0)",
            ),
        ),
        (
            "sample_l_cubearray",
            program(
                "vs",
                "texturecubearray",
                s0,
                "sample_l r2.xyzw, r0.xyzw, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_cubearray",
            program(
                "ps",
                "texturecubearray",
                s0,
                "sample r2.xyzw, r0.xyzw, t0.xyzw, s0",
            ),
        ),
        (
            "gather4_cubearray",
            program(
                "vs",
                "texturecubearray",
                s0,
                "gather4 r2.xyzw, r0.xyzw, t0.xyzw, s0.x",
            ),
        ),
        (
            "sample_c_cubearray",
            program(
                "ps",
                "texturecubearray",
                c0,
                "mul r1.x, r1.x, l(0.5)\nsample_c r2.x, r0.xyzw, t0.xxxx, s0, r1.x",
            ),
        ),
        (
            "gather4_c_cubearray",
            program(
                "vs",
                "texturecubearray",
                c0,
                "mul r1.x, r1.x, l(0.5)\ngather4_c r2.xyzw, r0.xyzw, t0.xyzw, s0.x, r1.x",
            ),
        ),
        (
            "resinfo_cubearray",
            program(
                "ps",
                "texturecubearray",
                "",
                "resinfo r2.xyw, l(1), t0.xyzw\nmov r2.z, l(0)",
            ),
        ),
        (
            "sample_c_lz_cube",
            program(
                "vs",
                "texturecube",
                c0,
                "mul r1.x, r1.x, l(0.5)\nsample_c_lz r2.x, r0.xyzx, t0.xxxx, s0, r1.x",
            ),
        ),
        (
            "gather4_c_cube",
            program(
                "vs",
                "texturecube",
                c0,
                "mul r1.x, r1.x, l(0.5)\ngather4_c r2.xyzw, r0.xyzx, t0.xyzw, s0.x, r1.x",
            ),
        ),
        (
            "sample_l_3d",
            program(
                "vs",
                "texture3d",
                s0,
                "sample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_3d",
            program(
                "ps",
                "texture3d",
                s0,
                "sample r2.xyzw, r0.xyzx, t0.xyzw, s0",
            ),
        ),
        (
            "ld_3d",
            program(
                "ps",
                "texture3d",
                "",
                "ftou r0.xyzw, v0.xyzw\nld r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        // Immediate offsets on `ld`: small addresses, so that the move lands in range, past
        // the edge, and below 0 (which wraps out of range). 1D ignores v, 2D w, arrays their
        // layer; the offsets name those too, so a translator that applies them is caught.
        (
            "ld_aoffimmi",
            program(
                "ps",
                "texture2d",
                "",
                "and r0.xyzw, v0.xyzw, l(7, 7, 3, 1)\nld_aoffimmi(-2,1,3) r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "ld_aoffimmi_3d",
            program(
                "vs",
                "texture3d",
                "",
                "and r0.xyzw, v0.xyzw, l(7, 3, 3, 1)\nld_aoffimmi(1,-1,-2) r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "ld_aoffimmi_1d",
            program(
                "ps",
                "texture1d",
                "",
                "and r0.xyzw, v0.xyzw, l(7, 7, 7, 1)\nld_aoffimmi(-3,2,1) r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "ld_aoffimmi_2darray",
            program(
                "ps",
                "texture2darray",
                "",
                "and r0.xyzw, v0.xyzw, l(7, 3, 3, 1)\nld_aoffimmi(2,-1,-1) r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "resinfo_3d",
            program("ps", "texture3d", "", "resinfo r2.xyzw, l(1), t0.xyzw"),
        ),
        (
            "sample_l_offset_array",
            program(
                "vs",
                "texture2darray",
                s0,
                "sample_l_aoffimmi(1,-2,0) r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_l_offset_3d",
            program(
                "vs",
                "texture3d",
                s0,
                "sample_l_aoffimmi(-1,2,1) r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_l_1d",
            program(
                "vs",
                "texture1d",
                s0,
                "sample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "sample_1d",
            program(
                "ps",
                "texture1d",
                s0,
                "sample r2.xyzw, r0.xyzx, t0.xyzw, s0",
            ),
        ),
        (
            "sample_l_1darray",
            program(
                "vs",
                "texture1darray",
                s0,
                "sample_l r2.xyzw, r0.xyzx, t0.xyzw, s0, r1.x",
            ),
        ),
        (
            "ld_1d",
            program(
                "ps",
                "texture1d",
                "",
                "ftou r0.xyzw, v0.xyzw\nld r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "ld_1darray",
            program(
                "ps",
                "texture1darray",
                "",
                "ftou r0.xyzw, v0.xyzw\nld r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "resinfo_1d",
            program(
                "ps",
                "texture1d",
                "",
                "resinfo r2.xw, l(1), t0.xyzw\nmov r2.yz, l(0, 0, 0, 0)",
            ),
        ),
        (
            "resinfo_1darray",
            program(
                "ps",
                "texture1darray",
                "",
                "resinfo r2.xyw, l(1), t0.xyzw\nmov r2.z, l(0)",
            ),
        ),
        (
            "ld",
            program(
                "ps",
                "texture2d",
                "",
                "ftou r0.xyzw, v0.xyzw\nld r2.xyzw, r0.xyzw, t0.xyzw",
            ),
        ),
        (
            "resinfo",
            program(
                "ps",
                "texture2d",
                "",
                "resinfo r2.xyw, l(1), t0.xyzw\nmov r2.z, l(0)",
            ),
        ),
        (
            "lod",
            program("ps", "texture2d", s0, "lod r2.xyzw, r0.xyxx, t0.xyzw, s0"),
        ),
        (
            "deriv_rtx_coarse",
            program("ps", "texture2d", "", "deriv_rtx_coarse r2.xyzw, r0.xyzw"),
        ),
        (
            "deriv_rtx_fine",
            program("ps", "texture2d", "", "deriv_rtx_fine r2.xyzw, r0.xyzw"),
        ),
        (
            "deriv_rty_coarse",
            program("ps", "texture2d", "", "deriv_rty_coarse r2.xyzw, r0.xyzw"),
        ),
        (
            "deriv_rty_fine",
            program("ps", "texture2d", "", "deriv_rty_fine r2.xyzw, r0.xyzw"),
        ),
    ]
}

/// One compute program per typed UAV texture shape and return type (`verify`'s built-in
/// programs for `RWTexture1D` … `RWTexture3D`), as fxc text: (name, text). Each thread reads
/// four edge-biased words from `t0`; a store writes them at its thread id (every texel of
/// the texture the harness makes one past each axis of the group is written once, the last
/// row and column never), a load reads at an address of low bits of its words (in and out
/// of range) and copies the texel to a raw `u1`. The format is the translator's choice,
/// stated in its manifest.
pub fn uav_textures() -> Vec<(&'static str, String)> {
    let program = |group: &str, dim: &str, ret: &str, body: &str| {
        let ty = [ret; 4].join(",");
        format!(
            "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_resource_raw t0\n\
dcl_uav_typed_{dim} ({ty}) u0\ndcl_uav_raw u1\ndcl_input vThreadID.xyz\n\
dcl_input vThreadIDInGroupFlattened\ndcl_temps 4\ndcl_thread_group {group}\n\
ishl r0.x, vThreadIDInGroupFlattened.x, l(4)\nld_raw r1.xyzw, r0.x, t0.xyzw\n{body}\nret\n"
        )
    };
    let store = |address: &str| format!("store_uav_typed u0.xyzw, {address}, r1.xyzw");
    let load = |mask: &str| {
        format!(
            "and r2.xyzw, r1.xyzw, l({mask})\nld_uav_typed r3.xyzw, r2.xyzw, u0.xyzw\n\
store_raw u1.xyzw, r0.x, r3.xyzw"
        )
    };
    vec![
        (
            "store_uav_typed_2d",
            program("4, 4, 1", "texture2d", "float", &store("vThreadID.xyyy")),
        ),
        (
            "store_uav_typed_2d_unorm",
            program("4, 4, 1", "texture2d", "unorm", &store("vThreadID.xyyy")),
        ),
        (
            "store_uav_typed_1d_snorm",
            program("8, 1, 1", "texture1d", "snorm", &store("vThreadID.xxxx")),
        ),
        (
            "store_uav_typed_2darray",
            program(
                "2, 2, 2",
                "texture2darray",
                "uint",
                &store("vThreadID.xyzz"),
            ),
        ),
        (
            "store_uav_typed_1darray",
            program(
                "4, 2, 1",
                "texture1darray",
                "sint",
                &store("vThreadID.xyyy"),
            ),
        ),
        (
            "store_uav_typed_3d",
            program("2, 2, 2", "texture3d", "float", &store("vThreadID.xyzz")),
        ),
        (
            "ld_uav_typed_2d",
            program("4, 4, 1", "texture2d", "float", &load("7, 7, 0, 0")),
        ),
        (
            "ld_uav_typed_3d",
            program("2, 2, 2", "texture3d", "uint", &load("3, 3, 3, 0")),
        ),
        (
            "ld_uav_typed_1darray",
            program("4, 2, 1", "texture1darray", "sint", &load("7, 3, 0, 0")),
        ),
        (
            "resinfo_uav",
            program(
                "4, 4, 1",
                "texture2darray",
                "float",
                "and r2.x, r1.x, l(1)\nresinfo_uint r3.xyzw, r2.x, u0.xyzw\n\
store_raw u1.xyzw, r0.x, r3.xyzw",
            ),
        ),
    ]
}

/// One pixel program per double-precision opcode (`verify`'s built-in programs for doubles),
/// as fxc text: (mnemonic, text). `v0`..`v2` hold two doubles each (low word first, in .xy
/// and .zw; the harness puts edge doubles in them, `harness::inputs`), the result goes to
/// `o0` as bits. A double result fills `o0` (two doubles), a 32-bit one `o0.xy` (one per
/// double), a widening conversion reads `v0.xy`.
pub fn doubles() -> Vec<(&'static str, String)> {
    let program = |body: &str| {
        format!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps\n\
dcl_input_ps constant v0.xyzw\ndcl_input_ps constant v1.xyzw\ndcl_input_ps constant v2.xyzw\n\
dcl_output o0.xyzw\n{body}\nret\n"
        )
    };
    let two = |op: &str| program(&format!("{op} o0.xyzw, v0.xyzw, v1.xyzw"));
    let one = |op: &str| program(&format!("{op} o0.xyzw, v0.xyzw"));
    let test = |op: &str| {
        program(&format!(
            "{op} o0.xy, v0.xyzw, v1.xyzw\nmov o0.zw, l(0, 0, 0, 0)"
        ))
    };
    let narrow = |op: &str| program(&format!("{op} o0.xy, v0.xyzw\nmov o0.zw, l(0, 0, 0, 0)"));
    vec![
        ("dadd", two("dadd")),
        ("dmul", two("dmul")),
        ("ddiv", two("ddiv")),
        ("dmin", two("dmin")),
        ("dmax", two("dmax")),
        ("dfma", program("dfma o0.xyzw, v0.xyzw, v1.xyzw, v2.xyzw")),
        ("drcp", one("drcp")),
        (
            "dmov",
            program("dmov_sat o0.xy, v0.xyxy\ndmov o0.zw, -v1.zwzw"),
        ),
        ("dmovc", program("dmovc o0.xyzw, v2.xxzz, v0.xyzw, v1.xyzw")),
        ("deq", test("deq")),
        ("dge", test("dge")),
        ("dlt", test("dlt")),
        ("dne", test("dne")),
        ("dtof", narrow("dtof")),
        ("dtoi", narrow("dtoi")),
        ("dtou", narrow("dtou")),
        ("ftod", program("ftod o0.xyzw, v0.xyxx")),
        ("itod", program("itod o0.xyzw, v0.xyxx")),
        ("utod", program("utod o0.xyzw, v0.xyxx")),
    ]
}

/// Subroutines and class linkage, one program per flow opcode: `fcall` through interfaces of
/// three and two tables whose bodies read their instance's `this` record and data through a
/// constant buffer chosen at run time, `fcall` into a dynamically indexed interface array,
/// and `call`/`callc` of labels with an early `retc` and a nested call. The harness binds a
/// table per slot per vector (`harness::inputs::linkage`), so a run calls every body.
pub fn linkage() -> Vec<(&'static str, String)> {
    let interfaces = "dcl_function_body fb0
dcl_function_body fb1
dcl_function_body fb2
dcl_function_body fb3
dcl_function_body fb4
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_function_table ft2 = {fb2}
dcl_function_table ft3 = {fb3}
dcl_function_table ft4 = {fb4}";
    let bodies = "label fb0
mul r0.xyz, v0.xyzx, l(0.5, 0.5, 0.5, 0)
ret
label fb1
mov r1.x, this[0].x
mov r1.y, this[0].y
add r0.xyz, v0.xyzx, cb[r1.x + 0][r1.y + 0].xyzx
ret
label fb2
mov r1.x, this[0].x
mov r1.y, this[0].y
mad r0.xyz, v0.xyzx, cb[r1.x + 0][r1.y + 0].wwww, v1.xyzx
retc_nz v1.w
mul r0.xyz, r0.xyzx, r0.xyzx
ret";
    let fcall = format!(
        "ps_5_0
dcl_constantbuffer cb0[4], dynamicIndexed
dcl_constantbuffer cb2[3], dynamicIndexed
{interfaces}
dcl_interface fp0[1][1] = {{ft0, ft1, ft2}}
dcl_interface fp1[1][1] = {{ft3, ft4}}
dcl_input_ps linear v0.xyzw
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
mov r0.xyzw, l(0, 0, 0, 0)
fcall fp0[0][0]
fcall fp1[0][0]
mov o0.xyzw, r0.xyzw
ret
{bodies}
label fb3
mov r0.w, l(1.0)
ret
label fb4
mov r1.x, this[1].x
mov r1.y, this[1].y
dp3 r0.w, r0.xyzx, cb[r1.x + 0][r1.y + 0].xyzx
ret
"
    );
    let dynamic = format!(
        "ps_5_0
dcl_constantbuffer cb1[2], dynamicIndexed
{interfaces}
dcl_interface_dynamicindexed fp0[3][1] = {{ft0, ft1, ft2}}
dcl_input_ps constant v0.xyzw
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
dcl_temps 2
and r1.z, v0.w, l(3)
mov r0.xyzw, l(0, 0, 0, 0)
fcall fp0[r1.z + 0][0]
mov o0.xyzw, r0.xyzw
ret
{bodies}
label fb3
ret
label fb4
ret
"
    );
    let call = "ps_5_0
dcl_input_ps constant v0.xyzw
dcl_output o0.xyzw
dcl_temps 2
mov r0.xyzw, v0.xyzw
call l0
callc_nz v0.w, l1
mov o0.xyzw, r0.xyzw
ret
label l0
iadd r0.x, r0.x, r0.y
ishl r0.y, r0.y, l(1)
ret
label l1
mov r1.x, l(0)
loop
  uge r1.y, r1.x, l(4)
  breakc_nz r1.y
  xor r0.z, r0.z, r1.x
  iadd r1.x, r1.x, l(1)
  ieq r1.y, r0.z, l(7)
  retc_nz r1.y
endloop
call l0
ret
";
    let callc = "ps_5_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, v0.xyzw
lt r0.w, v0.w, l(0.0)
callc_z r0.w, l0
mov o0.xyzw, r0.xyzw
ret
label l0
mul r0.xyz, r0.xyzx, v0.wwww
max r0.w, v0.w, l(0.0)
ret
";
    vec![
        ("fcall", fcall),
        ("fcall_dynamic", dynamic),
        ("call", call.to_string()),
        ("callc", callc.to_string()),
    ]
}

/// System values the exact profile lowers beyond the seed: clip distances out of a vertex
/// program (`SV_ClipDistance`, WGSL's `clip_distances`), two in a register that also holds
/// other data, four of their own and six over two registers; and pixel inputs that pack a one-component system value
/// beside varyings, as fxc declares them.
pub fn system_values() -> Vec<(&'static str, String)> {
    let mut all = clip_distances();
    let pixel = |decls: &str, body: &str| {
        format!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\n{decls}dcl_output o0.xyzw\n{body}ret\n"
        )
    };
    all.push((
        "packed_front_face",
        pixel(
            "dcl_input_ps linear v1.xyz\ndcl_input_ps_sgv v1.w, is_front_face\n",
            "movc o0.xyzw, v1.wwww, v1.xyzx, -v1.zyxz\n",
        ),
    ));
    all.push((
        "packed_primitive_id",
        pixel(
            "dcl_input_ps_sgv v2.x, primitive_id\ndcl_input_ps constant v2.yzw\n",
            "iadd o0.xyzw, v2.yzwx, v2.xxxx\n",
        ),
    ));
    all
}

/// Clip distances out of a vertex program (`SV_ClipDistance`, WGSL's `clip_distances`): two
/// in a register that also holds other data, four of their own, and six over two registers.
fn clip_distances() -> Vec<(&'static str, String)> {
    let program = |decls: &str, body: &str| {
        format!(
            "vs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input v0.xyzw\ndcl_input v1.xyzw\n\
dcl_output_siv o0.xyzw, position\n{decls}dcl_temps 1\nmov o0.xyzw, v0.xyzw\n{body}ret\n"
        )
    };
    vec![
        (
            "clip_distance",
            program(
                "dcl_output o1.xy\ndcl_output_siv o1.zw, clip_distance\n",
                "mul o1.xy, v1.xyxx, v0.wwww\ndp4 o1.z, v0.xyzw, v1.xyzw\nadd o1.w, -v0.w, v1.z\n",
            ),
        ),
        (
            "clip_distance4",
            program(
                "dcl_output_siv o1.xyzw, clip_distance\n",
                "mad r0.xyzw, v0.xyzw, v1.wzyx, -v0.wwww\nmov o1.xyzw, r0.xyzw\n",
            ),
        ),
        (
            "clip_distance6",
            program(
                "dcl_output o1.xy\ndcl_output_siv o1.zw, clip_distance\n\
dcl_output_siv o2.xyzw, clip_distance\n",
                "mov o1.xy, v1.zwzz\nadd o1.zw, v0.xxxy, -v1.xxxy\n\
mad o2.xyzw, v1.xyzw, v0.zwxy, v0.wwww\n",
            ),
        ),
    ]
}

/// Pixel and vertex programs that write UAVs (the harness runs each vector in a dispatch of
/// its own): a structured store then a load of it, an atomic whose result is read, and a
/// typed store to a `RWTexture2D`.
pub fn stage_uavs() -> Vec<(&'static str, String)> {
    let body = "and r0.x, v1.x, l(7)\nstore_structured u1.xyzw, r0.x, l(0), v0.xyzw\n\
and r0.y, v1.y, l(12)\nimm_atomic_iadd r1.x, u2, r0.y, v1.z\n\
ld_structured r1.yzw, r0.x, l(4), u1.xxyz\nand r0.zw, v1.zzzw, l(0, 0, 3, 3)\n\
store_uav_typed u3.xyzw, r0.zwzz, v0.wzyx\nmov o0.xyzw, r1.xyzw\n";
    let decls = "dcl_globalFlags refactoringAllowed\ndcl_uav_structured u1, 16\ndcl_uav_raw u2\n\
dcl_uav_typed_texture2d (float,float,float,float) u3\n";
    vec![
        (
            "uavs_ps",
            format!(
                "ps_5_0\n{decls}dcl_input_ps linear v0.xyzw\ndcl_input_ps constant v1.xyzw\n\
dcl_output o0.xyzw\ndcl_temps 2\n{body}ret\n"
            ),
        ),
        (
            "uavs_vs",
            format!(
                "vs_5_0\n{decls}dcl_input v0.xyzw\ndcl_input v1.xyzw\n\
dcl_output o0.xyzw\ndcl_output_siv o1.xyzw, position\ndcl_temps 2\n{body}mov o1.xyzw, v0.xyzw\nret\n"
            ),
        ),
    ]
}

/// Append/consume counters (`imm_atomic_alloc`, `imm_atomic_consume`) where one invocation
/// counts alone, so every count is defined: a pixel program (the harness runs each vector
/// alone, with its own counter) and a compute program of one thread. Each allocates twice
/// and consumes once, and stores at the slot it allocated.
pub fn counters() -> Vec<(&'static str, String)> {
    let body = "imm_atomic_alloc r0.x, u1\nimm_atomic_alloc r0.y, u1\nimm_atomic_consume r0.z, u1\n\
and r1.x, r0.x, l(63)\nstore_structured u1.x, r1.x, l(0), r0.z\n";
    vec![
        (
            "counter_ps",
            format!(
                "ps_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_structured u1, 4\n\
dcl_input_ps constant v0.xyzw\ndcl_output o0.xyzw\ndcl_temps 2\n{body}\
iadd o0.xyzw, r0.xyzx, v0.xyzw\nret\n"
            ),
        ),
        (
            "counter_cs",
            format!(
                "cs_5_0\ndcl_globalFlags refactoringAllowed\ndcl_uav_structured u1, 4\n\
dcl_uav_raw u2\ndcl_temps 2\ndcl_thread_group 1, 1, 1\n{body}\
store_raw u2.xyz, l(0), r0.xyzx\nret\n"
            ),
        ),
    ]
}

/// Pull-model attribute evaluation, one program per instruction. Each evaluates a perspective
/// or screen-linear attribute at run-time and immediate positions (an offset, a sample, the
/// centroid), with a source modifier, and a `constant` attribute, which stays its fed value.
/// `eval_sample_index` also runs under a branch some pixels of a quad skip, and reads one
/// sample past the target's four (undefined).
pub fn evaluations() -> Vec<(&'static str, String)> {
    let pixel = |decls: &str, body: &str| {
        format!(
            "ps_5_0\ndcl_globalFlags refactoringAllowed\n{decls}dcl_output o0.xyzw\n\
dcl_output o1.xyzw\ndcl_temps 2\n{body}ret\n"
        )
    };
    vec![
        (
            "eval_snapped",
            pixel(
                "dcl_input_ps linear v1.xyzw\ndcl_input_ps constant v2.xyzw\n",
                "eval_snapped o0.xyzw, v1.xyzw, v2.xyxx\n\
eval_snapped r0.xy, -v1.zwzz, l(-8, 7, 0, 0)\neval_snapped r0.zw, |v1.xxxy|, v2.zzzw\n\
eval_snapped r1.xy, v2.xyxx, l(3, -3, 0, 0)\nmov o1.xyzw, r0.xyzw\nadd o1.x, r0.x, r1.x\n",
            ),
        ),
        (
            "eval_sample_index",
            pixel(
                "dcl_input_ps linear noperspective v1.xyzw\ndcl_input_ps constant v2.xyzw\n",
                "and r0.x, v2.x, l(3)\neval_sample_index o0.xyzw, v1.xyzw, r0.x\n\
eval_sample_index r0.yz, v1.wwzw, l(2)\nmov r1.xy, l(0, 0, 0, 0)\nif_nz v2.y\n\
  eval_sample_index r1.xy, v1.xyxx, l(1)\nendif\n\
eval_sample_index r1.z, v1.z, l(4)\nmov o1.xy, r1.zyzz\nmul o1.y, r0.y, r0.z\n\
mov o1.zw, r1.xxxy\n",
            ),
        ),
        (
            "eval_centroid",
            pixel(
                "dcl_input_ps linear centroid v1.xyzw\ndcl_input_ps constant v2.xyzw\n",
                "eval_centroid o0.xyzw, v1.xyzw\neval_centroid r0.xyzw, -v2.yxwz\n\
mov o1.xyzw, r0.xyzw\n",
            ),
        ),
    ]
}

/// Every built-in program `verify` runs from text: [`sampling`], [`uav_textures`],
/// [`doubles`], [`linkage`], [`system_values`], [`stage_uavs`], [`counters`] and
/// [`evaluations`], in that order.
pub fn text_programs() -> Vec<(&'static str, String)> {
    let mut all = sampling();
    all.extend(uav_textures());
    all.extend(doubles());
    all.extend(linkage());
    all.extend(system_values());
    all.extend(stage_uavs());
    all.extend(counters());
    all.extend(evaluations());
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc::OperandType;

    /// Every program of `programs` assembles, and holds the instruction `mnemonic` names
    /// after its program's name.
    fn assemble_with_opcodes(programs: Vec<(&str, String)>, mnemonic: impl Fn(&str) -> &str) {
        for (name, text) in programs {
            let blob = dxbc::assemble_container(&text)
                .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"))
                .to_bytes();
            let shader = dxbc::Shader::parse(&blob).expect("valid container");
            let op = mnemonic(name);
            assert!(
                shader
                    .program
                    .instructions
                    .iter()
                    .any(|i| i.opcode.mnemonic() == op),
                "{name}"
            );
        }
    }

    #[test]
    fn every_sampling_program_assembles_with_its_opcode() {
        let all = sampling();
        assert_eq!(all.len(), 51);
        assemble_with_opcodes(all, |name| {
            if name == "gather4_depth" {
                return "gather4_po";
            }
            name.trim_end_matches("_cubearray")
                .trim_end_matches("_cube")
                .trim_end_matches("_3d")
                .trim_end_matches("_1darray")
                .trim_end_matches("_1d")
                .trim_end_matches("_2darray")
                .trim_end_matches("_depth")
                .trim_end_matches("_array")
                .trim_end_matches("_offset")
                .trim_end_matches("_aoffimmi")
        });
    }

    #[test]
    fn every_system_value_program_assembles_and_declares_its_value() {
        use dxbc::SystemValue as Sv;
        for (name, text) in system_values() {
            let p = dxbc::assemble(&text)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .program;
            let want = match name {
                "packed_front_face" => Sv::IsFrontFace,
                "packed_primitive_id" => Sv::PrimitiveId,
                _ => Sv::ClipDistance,
            };
            assert!(
                p.instructions
                    .iter()
                    .any(|i| i.system_value_name() == Some(dxbc::SystemValueName::Known(want))),
                "{name}"
            );
        }
    }

    #[test]
    fn every_evaluation_program_assembles_with_its_opcode() {
        assemble_with_opcodes(evaluations(), |name| name);
    }

    #[test]
    fn every_counter_program_assembles_with_its_counter() {
        assemble_with_opcodes(counters(), |_| "imm_atomic_consume");
    }

    #[test]
    fn every_stage_uav_program_assembles_with_its_stores() {
        assemble_with_opcodes(stage_uavs(), |_| "store_uav_typed");
    }

    #[test]
    fn every_linkage_program_assembles_with_its_opcode() {
        assemble_with_opcodes(linkage(), |name| name.trim_end_matches("_dynamic"));
    }

    #[test]
    fn every_double_program_assembles_with_its_opcode() {
        assemble_with_opcodes(doubles(), |name| name);
    }

    #[test]
    fn every_uav_texture_program_assembles_with_its_opcode() {
        assemble_with_opcodes(uav_textures(), |name| {
            ["store_uav_typed", "ld_uav_typed", "resinfo"]
                .into_iter()
                .find(|m| name.starts_with(m))
                .expect("named for its opcode")
        });
    }

    #[test]
    fn every_program_decodes_and_has_the_opcode() {
        let all = all_single();
        assert!(all.len() > 60, "{}", all.len());
        for p in &all {
            let shader = dxbc::Shader::parse(&p.blob).expect("valid container");
            assert!(
                shader
                    .program
                    .instructions
                    .iter()
                    .any(|i| i.opcode == p.opcode)
            );
            assert!(
                shader
                    .program
                    .instructions
                    .iter()
                    .all(|i| i.operands.iter().all(|o| o.ty != OperandType::Immediate64))
            );
        }
    }
}
