#!/usr/bin/env node
// An example external translator for dxdiff, in plain JavaScript (node, no packages).
//
// It is small but real: it decodes the DXBC container itself, lowers a documented subset of
// pixel-shader instructions to WGSL, and refuses everything else by name. Start from it if your
// DXBC -> WGSL compiler is written in JS and you want dxdiff to check it against D3D.
//
// Run it:
//
//   dxdiff verify --translator "cmd:node examples/translators/node/translate.js"
//   dxdiff replay --executor gpu examples/cases --translator "cmd:node examples/translators/node/translate.js"
//   dxdiff translate --translator "cmd:node examples/translators/node/translate.js" prog.dxbc
//   node examples/translators/node/translate.js < prog.dxbc      # the raw answer
//   dxdiff verify --translator "serve:node examples/translators/node/translate.js --serve"
//
// The protocol (docs/translators.md), from this side:
//
// - dxdiff runs the command line once per program (through `sh -c`), writes the whole DXBC
//   container to stdin and closes it. Read stdin to its end before doing anything.
// - Print exactly one JSON document on stdout and exit 0. Either
//     {"status": "ok", "wgsl": "<the module>", "manifest": {...}, "adaptations": [...]}
//   where the manifest (docs/manifest.md) tells the harness how to bind each constant buffer and
//   feed each v#/o# register, and `adaptations` lists the catalog ids (`dxdiff catalog`) whose
//   latitude the WGSL relies on; or
//     {"status": "rejected", "reason": "...", "instruction": 7}
//   to refuse the program. Without a `catalog_id` dxdiff files the refusal under
//   `dxdiff/refused`. A refusal is an honest answer, not a failure: the program is skipped.
// - Anything else is recorded as a translator crash, with the last 4 KiB of stderr: a non-zero
//   exit, no answer within --translator-timeout, output that is not the protocol's JSON, WGSL
//   that naga does not validate, or a claim that is not a catalog id. This script exits 1 with
//   a message on stderr for a malformed container (dxdiff only sends containers it can decode,
//   so that is a bug on one side or the other) and 2 for an internal error.
// - Claims are judged per lane: a difference from D3D is "adapted" only in a lane where the
//   reference interpreter entered the domain of a claimed entry. Claim nothing and every lane
//   must match D3D bit for bit (within the ops' own error bands). Claim only what the WGSL
//   really relies on: dxdiff counts what each claim excused.
//
// The subset (everything else is refused as "<opcode> is not lowered by this example"):
// - ps_4_0, ps_4_1 and ps_5_0 programs;
// - declarations dcl_globalFlags, dcl_constantbuffer cbN[M] (immediate or dynamic indexing
//   declared; only immediate indices are lowered), dcl_input_ps (v#), dcl_output (o#),
//   dcl_temps;
// - add, mul, mad, min, max, mov, iadd, and, or, xor, not, ishl, ushr, ret;
// - operands r#, v#, o# (destinations), cbN[imm], 32-bit immediates; swizzle, select-1 and mask
//   component modes; _sat; the neg/abs source modifiers.
//
// How D3D's semantics are kept (registers are vec4<u32>; each op bitcasts what it needs):
// - float ops flush denormal inputs and results to a zero of the same sign, in WGSL;
// - NaN and infinity operands of add/mul/mad are resolved on the bits, as D3D defines them, so
//   WGSL's finite-math assumption never sees them; a NaN result is 0x7fc00000;
// - the sign of a zero result of add/mul is computed on the bits (WGSL may ignore it);
// - mad is a rounded mul, then a rounded add (unfused), which is D3D's reference evaluation;
// - min/max are done on the bits: a NaN operand yields the other one, -0 < +0;
// - _sat is done on the bits: NaN -> 0, -0 -> +0;
// - mov copies bits; with a modifier or _sat it is a float move (flush, NaN -> 0x7fc00000);
// - integer ops wrap; a neg source modifier is two's-complement negation; shift counts are
//   masked with & 31.
// The one latitude left is an add/mul of finite values that overflows to infinity: WGSL may
// assume it does not happen, so programs with add/mul/mad claim `dxdiff/non-finite`.
//
// DXDIFF_NODE_PLANT=add-as-sub plants a wrong lowering (add computes a - b), so a test can
// check that dxdiff catches it.
'use strict';

const PLANT = process.env.DXDIFF_NODE_PLANT || '';

// Mnemonics by opcode number (bits 0-10 of an instruction's first token); '-' is reserved.
const OPCODE_NAMES = `add and break breakc call callc case continue continuec cut default
deriv_rtx deriv_rty discard div dp2 dp3 dp4 else emit emit_then_cut endif endloop endswitch eq
exp frc ftoi ftou ge iadd if ieq ige ilt imad imax imin imul ine ineg ishl ishr itof label ld
ldms log loop lt mad min max customdata mov movc mul ne nop not or resinfo ret retc round_ne
round_ni round_pi round_z rsq sample sample_c sample_c_lz sample_l sample_d sample_b sqrt switch
sincos udiv ult uge umul umad umax umin ushr utof xor dcl_resource dcl_constantbuffer
dcl_sampler dcl_indexrange dcl_outputtopology dcl_inputprimitive dcl_maxout dcl_input
dcl_input_sgv dcl_input_siv dcl_input_ps dcl_input_ps_sgv dcl_input_ps_siv dcl_output
dcl_output_sgv dcl_output_siv dcl_temps dcl_indexableTemp dcl_globalFlags - lod gather4
samplepos sampleinfo - hs_decls hs_control_point_phase hs_fork_phase hs_join_phase emit_stream
cut_stream emit_then_cut_stream fcall bufinfo deriv_rtx_coarse deriv_rtx_fine deriv_rty_coarse
deriv_rty_fine gather4_c gather4_po gather4_po_c rcp f32tof16 f16tof32 uaddc usubb countbits
firstbit_hi firstbit_lo firstbit_shi ubfe ibfe bfi bfrev swapc dcl_stream dcl_function_body
dcl_function_table dcl_interface dcl_input_control_point_count dcl_output_control_point_count
dcl_tessellator_domain dcl_tessellator_partitioning dcl_tessellator_output_primitive
dcl_hs_max_tessfactor dcl_hs_fork_phase_instance_count dcl_hs_join_phase_instance_count
dcl_thread_group dcl_uav_typed dcl_uav_raw dcl_uav_structured dcl_tgsm_raw dcl_tgsm_structured
dcl_resource_raw dcl_resource_structured ld_uav_typed store_uav_typed ld_raw store_raw
ld_structured store_structured atomic_and atomic_or atomic_xor atomic_cmp_store atomic_iadd
atomic_imax atomic_imin atomic_umax atomic_umin imm_atomic_alloc imm_atomic_consume
imm_atomic_iadd imm_atomic_and imm_atomic_or imm_atomic_xor imm_atomic_exch imm_atomic_cmp_exch
imm_atomic_imax imm_atomic_imin imm_atomic_umax imm_atomic_umin sync dadd dmax dmin dmul deq
dge dlt dne dmov dmovc dtof ftod eval_snapped eval_sample_index eval_centroid dcl_gsinstances
abort debug_break - ddiv dfma drcp msad dtoi dtou itod utod - gather4_s gather4_c_s
gather4_po_s gather4_po_c_s ld_s ldms_s ld_uav_typed_s ld_raw_s ld_structured_s sample_l_s
sample_c_lz_s sample_cl_s sample_b_cl_s sample_d_cl_s sample_c_cl_s
check_access_fully_mapped`.split(/\s+/);

function opName(n) {
  const s = OPCODE_NAMES[n];
  return s && s !== '-' ? s : `opcode ${n}`;
}

const OP = {
  add: 0, and: 1, customdata: 0x35, mad: 0x32, min: 0x33, max: 0x34, mov: 0x36, mul: 0x38,
  not: 0x3b, or: 0x3c, ret: 0x3e, iadd: 0x1e, ishl: 0x29, ushr: 0x55, xor: 0x57,
  dcl_constantbuffer: 0x59, dcl_input_ps: 0x62, dcl_output: 0x65, dcl_temps: 0x68,
  dcl_globalFlags: 0x6a,
};

// Instructions whose 7-bit length may be 0, the real length following in the next DWORD.
const LONG_FORM = new Set([0x78, 0x90, 0x91, 0x92, 0x9b]);

// Operand types (bits 12-19 of an operand token) this example reads, and names for messages.
const T = { temp: 0, input: 1, output: 2, imm32: 4, cb: 8 };
const OPERAND_NAMES = {
  0: 'r#', 1: 'v#', 2: 'o#', 3: 'x# (indexable temp)', 4: 'l(...)', 5: 'd(...) (64-bit immediate)',
  6: 's#', 7: 't#', 8: 'cb#', 9: 'icb', 10: 'label', 11: 'vPrim', 12: 'oDepth', 13: 'null',
  14: 'rasterizer', 15: 'oMask', 30: 'u#', 31: 'g#', 35: 'vCoverage', 38: 'oDepthGE',
  39: 'oDepthLE', 41: 'oStencilRef', 42: 'vInnerCoverage',
};
const operandName = (t) => OPERAND_NAMES[t] || `operand type ${t}`;

const XYZW = 'xyzw';

// A container we cannot read: exit 1 with the reason on stderr.
class Malformed extends Error {}
// A program we will not lower: answered with {"status":"rejected"}.
class Rejection extends Error {
  constructor(reason, instruction) {
    super(reason);
    this.instruction = instruction;
  }
}
const fail = (msg) => {
  throw new Malformed(msg);
};
const refuse = (reason, instruction) => {
  throw new Rejection(reason, instruction);
};

// ---------------------------------------------------------------------------------------------
// The container: 'DXBC', a 16-byte checksum (not checked here), version 1, total size, chunk
// count, then one offset per chunk; each chunk is a FourCC, a byte size and the data.

function readChunks(buf) {
  if (buf.length < 32) fail(`${buf.length} bytes is too short for a DXBC header (32 bytes)`);
  if (buf.toString('latin1', 0, 4) !== 'DXBC') fail('the input does not start with "DXBC"');
  const version = buf.readUInt32LE(20);
  if (version !== 1) fail(`container version ${version}, expected 1`);
  const total = buf.readUInt32LE(24);
  if (total !== buf.length) fail(`the header says ${total} bytes, the input has ${buf.length}`);
  const count = buf.readUInt32LE(28);
  if (32 + 4 * count > total) fail(`${count} chunk offsets do not fit in ${total} bytes`);
  const chunks = new Map();
  for (let i = 0; i < count; i++) {
    const at = buf.readUInt32LE(32 + 4 * i);
    if (at + 8 > total) fail(`chunk ${i} starts at byte ${at}, past the end`);
    const tag = buf.toString('latin1', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (at + 8 + size > total) fail(`chunk ${i} (${tag}) runs past the end`);
    if (!chunks.has(tag)) chunks.set(tag, buf.subarray(at + 8, at + 8 + size));
  }
  return chunks;
}

// Signature chunks: ISGN/OSGN (24-byte elements) or ISG1/OSG1 (32-byte elements, with a stream
// and a min-precision field). Each element: semantic name, index, system value, component type
// (1 uint, 2 sint, 3 float), register, mask.
function readSignature(chunks, plain, v1) {
  let data = chunks.get(plain);
  let size = 24;
  let skip = 0;
  if (!data && chunks.has(v1)) {
    data = chunks.get(v1);
    size = 32;
    skip = 4;
  }
  if (!data) return null;
  const tag = size === 24 ? plain : v1;
  if (data.length < 8) fail(`${tag} is too short`);
  const n = data.readUInt32LE(0);
  const first = data.readUInt32LE(4);
  if (first + n * size > data.length) fail(`${tag}: ${n} elements do not fit`);
  const elements = [];
  for (let i = 0; i < n; i++) {
    const e = first + i * size + skip;
    const nameAt = data.readUInt32LE(e);
    if (nameAt >= data.length) fail(`${tag}: element ${i} has its name past the end`);
    const end = data.indexOf(0, nameAt);
    if (end < 0) fail(`${tag}: element ${i} has an unterminated name`);
    elements.push({
      name: data.toString('latin1', nameAt, end),
      index: data.readUInt32LE(e + 4),
      type: data.readUInt32LE(e + 12),
      register: data.readUInt32LE(e + 16),
      mask: data.readUInt8(e + 20),
    });
  }
  return elements;
}

// ---------------------------------------------------------------------------------------------
// The token stream (SHEX or SHDR): a version token, a length token (in DWORDs, both included),
// then instructions. An instruction's first token holds the opcode (bits 0-10) and its length
// in DWORDs (bits 24-30); custom-data blocks (opcode 0x35) keep their length in the next DWORD.

function readProgram(code) {
  if (code.length % 4 !== 0 || code.length < 8) fail(`a ${code.length}-byte token stream`);
  const words = new Array(code.length / 4);
  for (let i = 0; i < words.length; i++) words[i] = code.readUInt32LE(4 * i);
  const version = words[0];
  const length = words[1];
  if (length < 2 || length > words.length) {
    fail(`the program says ${length} DWORDs, its chunk holds ${words.length}`);
  }
  const instructions = [];
  let at = 2;
  while (at < length) {
    const token = words[at];
    const op = token & 0x7ff;
    let len = (token >>> 24) & 0x7f;
    if (op === OP.customdata || (len === 0 && LONG_FORM.has(op))) {
      if (at + 1 >= length) fail(`${opName(op)} at DWORD ${at} has no length DWORD`);
      len = words[at + 1];
    }
    if (len === 0 || (op === OP.customdata && len < 2)) {
      fail(`instruction ${instructions.length} (${opName(op)}) has length ${len}`);
    }
    if (at + len > length) {
      fail(`instruction ${instructions.length} (${opName(op)}) runs past the end of the program`);
    }
    instructions.push({ index: instructions.length, at, len, op, token, name: opName(op) });
    at += len;
  }
  return {
    kind: version >>> 16, // 0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute
    major: (version >>> 4) & 0xf,
    minor: version & 0xf,
    words,
    instructions,
  };
}

// Reads the tokens of one instruction, never past its end.
class Cursor {
  constructor(words, inst) {
    this.words = words;
    this.inst = inst;
    this.at = inst.at + 1;
    this.end = inst.at + inst.len;
  }
  next() {
    if (this.at >= this.end) fail(`instruction ${this.inst.index} (${this.inst.name}) is truncated`);
    return this.words[this.at++];
  }
}

// One operand: its token, extended operand tokens (source modifier, min precision), immediate
// values, then an index per dimension (an immediate, a relative operand, or both).
function readOperand(cur) {
  const token = cur.next();
  const o = {
    comps: token & 3, // 0 none, 1 one, 2 four
    mode: (token >>> 2) & 3, // with four: 0 mask, 1 swizzle, 2 select-1
    bits: (token >>> 4) & 0xff,
    type: (token >>> 12) & 0xff,
    modifier: 0, // 1 neg, 2 abs, 3 -abs
    precision: 0,
    unknownExtension: false,
    values: null,
    indices: [],
  };
  let more = token >>> 31;
  while (more) {
    const ext = cur.next();
    if ((ext & 0x3f) === 1) {
      o.modifier = (ext >>> 6) & 0xff;
      o.precision = (ext >>> 14) & 7;
    } else if ((ext & 0x3f) !== 0) {
      o.unknownExtension = true;
    }
    more = ext >>> 31;
  }
  if (o.type === T.imm32 || o.type === 5) {
    if (o.comps !== 1 && o.comps !== 2) fail(`an immediate with component count ${o.comps}`);
    const n = o.comps === 1 ? (o.type === T.imm32 ? 1 : 2) : 4;
    o.values = [];
    for (let i = 0; i < n; i++) o.values.push(cur.next());
  }
  const dims = (token >>> 20) & 3;
  for (let d = 0; d < dims; d++) {
    const rep = (token >>> (22 + 3 * d)) & 7;
    const index = { value: 0, relative: null, wide: false };
    if (rep === 0 || rep === 3) index.value = cur.next();
    if (rep === 1 || rep === 4) {
      index.wide = cur.next() !== 0;
      index.value = cur.next();
    }
    if (rep >= 2) index.relative = readOperand(cur);
    if (rep > 4) fail(`index representation ${rep}`);
    o.indices.push(index);
  }
  return o;
}

// An index that is a plain 32-bit immediate, or a refusal.
function immediateIndex(o, d, inst) {
  const index = o.indices[d];
  if (!index || index.relative || index.wide) {
    refuse(`${inst.name}: a dynamically indexed ${operandName(o.type)} is not lowered by this example`, inst.index);
  }
  return index.value;
}

// ---------------------------------------------------------------------------------------------
// WGSL helpers, emitted only when a program uses them. Every value is a u32 holding the D3D bits.

const HELPERS = {
  d3d_ftz: `// D3D flushes float denormals to a zero of the same sign.
fn d3d_ftz(x: u32) -> u32 {
    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);
}`,
  d3d_is_nan: `fn d3d_is_nan(x: u32) -> bool {
    return (x & 0x7fffffffu) > 0x7f800000u;
}`,
  d3d_is_inf: `fn d3d_is_inf(x: u32) -> bool {
    return (x & 0x7fffffffu) == 0x7f800000u;
}`,
  d3d_add: `// add: NaN and infinities resolved on the bits, so the f32 add only sees finite values;
// a zero result gets the sign IEEE round-to-nearest gives it (WGSL may ignore zero signs).
fn d3d_add(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_is_nan(a) || d3d_is_nan(b)) {
        return 0x7fc00000u;
    }
    if (d3d_is_inf(a) || d3d_is_inf(b)) {
        if (d3d_is_inf(a) && d3d_is_inf(b) && a != b) {
            return 0x7fc00000u;
        }
        return select(b, a, d3d_is_inf(a));
    }
    let r = d3d_ftz(bitcast<u32>(bitcast<f32>(a) + bitcast<f32>(b)));
    if ((r & 0x7fffffffu) != 0u) {
        return r;
    }
    let ma = a & 0x7fffffffu;
    let mb = b & 0x7fffffffu;
    if (ma == mb) {
        return a & b & 0x80000000u;
    }
    return select(b, a, ma > mb) & 0x80000000u;
}`,
  d3d_mul: `// mul: as d3d_add; inf * 0 is NaN, a zero result has the sign of a * b.
fn d3d_mul(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_is_nan(a) || d3d_is_nan(b)) {
        return 0x7fc00000u;
    }
    let sign = (a ^ b) & 0x80000000u;
    if (d3d_is_inf(a) || d3d_is_inf(b)) {
        if ((a & 0x7fffffffu) == 0u || (b & 0x7fffffffu) == 0u) {
            return 0x7fc00000u;
        }
        return sign | 0x7f800000u;
    }
    let r = d3d_ftz(bitcast<u32>(bitcast<f32>(a) * bitcast<f32>(b)));
    if ((r & 0x7fffffffu) == 0u) {
        return sign;
    }
    return r;
}`,
  d3d_order: `// A key whose unsigned order is the float order, with -0 below +0 (not for NaN).
fn d3d_order(x: u32) -> u32 {
    return select(x ^ 0x80000000u, ~x, (x & 0x80000000u) != 0u);
}`,
  d3d_min: `// min: a NaN operand gives the other one; min(-0, +0) = -0.
fn d3d_min(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_is_nan(a)) {
        return select(b, 0x7fc00000u, d3d_is_nan(b));
    }
    if (d3d_is_nan(b)) {
        return a;
    }
    return select(b, a, d3d_order(a) < d3d_order(b));
}`,
  d3d_max: `// max: a NaN operand gives the other one; max(-0, +0) = +0.
fn d3d_max(a0: u32, b0: u32) -> u32 {
    let a = d3d_ftz(a0);
    let b = d3d_ftz(b0);
    if (d3d_is_nan(a)) {
        return select(b, 0x7fc00000u, d3d_is_nan(b));
    }
    if (d3d_is_nan(b)) {
        return a;
    }
    return select(b, a, d3d_order(a) >= d3d_order(b));
}`,
  d3d_fmov: `// mov with a modifier or _sat is a float move: denormals flushed, NaN made canonical.
fn d3d_fmov(a: u32) -> u32 {
    return select(d3d_ftz(a), 0x7fc00000u, d3d_is_nan(a));
}`,
  d3d_sat: `// _sat: clamp to [0, 1] with NaN -> 0, -0 -> +0, denormals -> +0.
fn d3d_sat(x: u32) -> u32 {
    if (d3d_is_nan(x) || (x & 0x80000000u) != 0u || (x & 0x7f800000u) == 0u) {
        return 0u;
    }
    return min(x, 0x3f800000u);
}`,
  d3d_iabs: `// The abs modifier on an integer source: two's-complement, |INT_MIN| = INT_MIN.
fn d3d_iabs(a: u32) -> u32 {
    return select(a, 0u - a, (a & 0x80000000u) != 0u);
}`,
};
const HELPER_NEEDS = {
  d3d_add: ['d3d_ftz', 'd3d_is_nan', 'd3d_is_inf'],
  d3d_mul: ['d3d_ftz', 'd3d_is_nan', 'd3d_is_inf'],
  d3d_min: ['d3d_ftz', 'd3d_is_nan', 'd3d_order'],
  d3d_max: ['d3d_ftz', 'd3d_is_nan', 'd3d_order'],
  d3d_fmov: ['d3d_ftz', 'd3d_is_nan'],
  d3d_sat: ['d3d_is_nan'],
};

// The ALU subset: how many sources, how a source modifier reads (float or int), the lowering of
// one component, and the helpers it calls.
const ALU = {
  [OP.add]: { srcs: 2, type: 'float', helpers: ['d3d_add'],
    lower: ([a, b]) => (PLANT === 'add-as-sub' ? `d3d_add(${a}, ${b} ^ 0x80000000u)` : `d3d_add(${a}, ${b})`) },
  [OP.mul]: { srcs: 2, type: 'float', helpers: ['d3d_mul'], lower: ([a, b]) => `d3d_mul(${a}, ${b})` },
  // Unfused, as D3D's reference: the product is rounded (and flushed) before the add.
  [OP.mad]: { srcs: 3, type: 'float', helpers: ['d3d_add', 'd3d_mul'],
    lower: ([a, b, c]) => `d3d_add(d3d_mul(${a}, ${b}), ${c})` },
  [OP.min]: { srcs: 2, type: 'float', helpers: ['d3d_min'], lower: ([a, b]) => `d3d_min(${a}, ${b})` },
  [OP.max]: { srcs: 2, type: 'float', helpers: ['d3d_max'], lower: ([a, b]) => `d3d_max(${a}, ${b})` },
  [OP.mov]: { srcs: 1, type: 'raw', helpers: [], lower: ([a]) => a },
  [OP.iadd]: { srcs: 2, type: 'int', helpers: [], lower: ([a, b]) => `(${a} + ${b})` },
  [OP.and]: { srcs: 2, type: 'int', helpers: [], lower: ([a, b]) => `(${a} & ${b})` },
  [OP.or]: { srcs: 2, type: 'int', helpers: [], lower: ([a, b]) => `(${a} | ${b})` },
  [OP.xor]: { srcs: 2, type: 'int', helpers: [], lower: ([a, b]) => `(${a} ^ ${b})` },
  [OP.not]: { srcs: 1, type: 'int', helpers: [], lower: ([a]) => `(~${a})` },
  // D3D uses the low five bits of the shift count.
  [OP.ishl]: { srcs: 2, type: 'int', helpers: [], lower: ([a, b]) => `(${a} << (${b} & 31u))` },
  [OP.ushr]: { srcs: 2, type: 'int', helpers: [], lower: ([a, b]) => `(${a} >> (${b} & 31u))` },
};
// Ops whose f32 arithmetic may overflow to infinity, which WGSL lets an implementation assume
// does not happen: the one latitude these lowerings rely on.
const OVERFLOWING = new Set([OP.add, OP.mul, OP.mad]);

const hex = (x) => `0x${(x >>> 0).toString(16).padStart(8, '0')}u`;

// ---------------------------------------------------------------------------------------------

function translate(buf) {
  const chunks = readChunks(buf);
  const code = chunks.get('SHEX') || chunks.get('SHDR');
  if (!code) fail('no SHEX or SHDR chunk');
  const program = readProgram(code);
  const stage = ['ps', 'vs', 'gs', 'hs', 'ds', 'cs'][program.kind] || `type ${program.kind}`;
  const profile = `${stage}_${program.major}_${program.minor}`;
  if (program.kind !== 0) refuse(`${profile} programs are not lowered by this example (pixel shaders only)`);
  if (!['4_0', '4_1', '5_0'].includes(`${program.major}_${program.minor}`)) {
    refuse(`${profile} is not lowered by this example (ps_4_0, ps_4_1 and ps_5_0 only)`);
  }
  const isgn = readSignature(chunks, 'ISGN', 'ISG1') || [];
  const osgn = readSignature(chunks, 'OSGN', 'OSG1') || [];

  const cbs = new Map(); // register -> rows
  const inputs = new Map(); // register -> interpolation mode
  const outputs = new Set();
  let temps = 0;
  const helpers = new Set();
  const body = [];
  let overflowing = false;
  let returned = false;

  // The WGSL for component `c` of source operand `o`, as its consumer reads it.
  function source(o, c, type, inst) {
    if (o.precision) refuse(`${inst.name}: min-precision operands are not lowered by this example`, inst.index);
    if (o.unknownExtension) refuse(`${inst.name}: an unknown extended operand token`, inst.index);
    let expr;
    if (o.type === T.imm32) {
      expr = hex(o.comps === 1 ? o.values[0] : o.values[c]);
    } else {
      let base;
      if (o.type === T.temp) {
        const i = immediateIndex(o, 0, inst);
        if (i >= temps) refuse(`${inst.name}: r${i} is not declared`, inst.index);
        base = `r[${i}]`;
      } else if (o.type === T.input) {
        if (o.indices.length !== 1) refuse(`${inst.name}: a ${o.indices.length}-D input is not lowered by this example`, inst.index);
        const i = immediateIndex(o, 0, inst);
        if (!inputs.has(i)) refuse(`${inst.name}: v${i} is not declared`, inst.index);
        base = `v[${i}]`;
      } else if (o.type === T.cb) {
        if (o.indices.length !== 2) refuse(`${inst.name}: a ${o.indices.length}-D constant buffer operand`, inst.index);
        const slot = immediateIndex(o, 0, inst);
        const row = immediateIndex(o, 1, inst);
        if (!cbs.has(slot)) refuse(`${inst.name}: cb${slot} is not declared`, inst.index);
        if (row >= cbs.get(slot)) {
          refuse(`${inst.name}: cb${slot}[${row}] is past the declared ${cbs.get(slot)} rows`, inst.index);
        }
        base = `cb${slot}[${row}]`;
      } else {
        refuse(`${inst.name}: ${operandName(o.type)} sources are not lowered by this example`, inst.index);
      }
      if (o.comps !== 2) refuse(`${inst.name}: a ${o.comps === 1 ? 'one' : 'zero'}-component source`, inst.index);
      let k;
      if (o.mode === 1) k = (o.bits >>> (2 * c)) & 3; // swizzle
      else if (o.mode === 2) k = o.bits & 3; // select-1
      else if (o.mode === 0 && (o.bits & (1 << c))) k = c; // mask: the component itself
      else refuse(`${inst.name}: source component mode ${o.mode} does not supply .${XYZW[c]}`, inst.index);
      expr = `${base}.${XYZW[k]}`;
    }
    // Source modifiers, as the consumer reads them: float ones act on the sign bit, integer
    // ones are two's-complement negation and absolute value.
    const m = o.modifier;
    if (m === 0) return expr;
    if (m > 3) refuse(`${inst.name}: source modifier ${m}`, inst.index);
    if (type === 'int') {
      if (m === 1) return `(0u - ${expr})`;
      helpers.add('d3d_iabs');
      return m === 2 ? `d3d_iabs(${expr})` : `(0u - d3d_iabs(${expr}))`;
    }
    if (m === 1) return `(${expr} ^ 0x80000000u)`;
    if (m === 2) return `(${expr} & 0x7fffffffu)`;
    return `(${expr} | 0x80000000u)`;
  }

  function declaration(inst, cur) {
    switch (inst.op) {
      case OP.dcl_globalFlags:
        // refactoringAllowed and friends: nothing to do, the lowering is exact either way.
        return;
      case OP.dcl_temps:
        temps = cur.next();
        if (temps > 4096) refuse(`dcl_temps ${temps} is past D3D's 4096`, inst.index);
        return;
      case OP.dcl_constantbuffer: {
        const o = readOperand(cur);
        if (o.type !== T.cb || o.indices.length !== 2) fail(`dcl_constantbuffer of a ${operandName(o.type)}`);
        const slot = immediateIndex(o, 0, inst);
        const rows = immediateIndex(o, 1, inst);
        if (slot > 13) refuse(`cb${slot} is past D3D's 14 constant buffers`, inst.index);
        if (rows === 0 || rows > 4096) refuse(`dcl_constantbuffer cb${slot}[${rows}] is not lowered by this example`, inst.index);
        cbs.set(slot, rows);
        return;
      }
      case OP.dcl_input_ps: {
        const o = readOperand(cur);
        if (o.type !== T.input || o.indices.length !== 1) {
          refuse(`dcl_input_ps of ${operandName(o.type)} is not lowered by this example`, inst.index);
        }
        const reg = immediateIndex(o, 0, inst);
        const mode = (inst.token >>> 11) & 0xf;
        if (mode < 1 || mode > 5) {
          refuse(`dcl_input_ps with interpolation mode ${mode} is not lowered by this example`, inst.index);
        }
        if (inputs.has(reg) && inputs.get(reg) !== mode) {
          refuse(`v${reg} is declared with two interpolation modes, which this example does not split`, inst.index);
        }
        if (reg > 31) refuse(`v${reg} is past D3D's 32 pixel inputs`, inst.index);
        inputs.set(reg, mode);
        return;
      }
      case OP.dcl_output: {
        const o = readOperand(cur);
        if (o.type !== T.output) refuse(`dcl_output ${operandName(o.type)} is not lowered by this example`, inst.index);
        const reg = immediateIndex(o, 0, inst);
        if (reg > 7) refuse(`o${reg} is past D3D's 8 render targets`, inst.index);
        outputs.add(reg);
        return;
      }
      default:
        refuse(`${inst.name} is not lowered by this example`, inst.index);
    }
  }

  function alu(inst, cur, spec) {
    // Extended opcode tokens (sample offsets, resource types) mean nothing to these ops.
    let more = inst.token >>> 31;
    while (more) {
      const ext = cur.next();
      if ((ext & 0x3f) !== 0) refuse(`${inst.name} with an extended opcode token of type ${ext & 0x3f}`, inst.index);
      more = ext >>> 31;
    }
    const saturate = (inst.token >>> 13) & 1;
    const dst = readOperand(cur);
    const srcs = [];
    for (let i = 0; i < spec.srcs; i++) srcs.push(readOperand(cur));
    if (dst.type !== T.temp && dst.type !== T.output) {
      refuse(`${inst.name}: ${operandName(dst.type)} destinations are not lowered by this example`, inst.index);
    }
    if (dst.comps !== 2 || dst.mode !== 0 || dst.modifier || dst.precision) {
      refuse(`${inst.name}: a destination that is not a plain write mask`, inst.index);
    }
    const reg = immediateIndex(dst, 0, inst);
    if (dst.type === T.temp && reg >= temps) refuse(`${inst.name}: r${reg} is not declared`, inst.index);
    if (dst.type === T.output && !outputs.has(reg)) refuse(`${inst.name}: o${reg} is not declared`, inst.index);
    const target = dst.type === T.temp ? `r[${reg}]` : `o[${reg}]`;
    // A mov with a modifier or _sat is a float move (D3D).
    const floatMove = inst.op === OP.mov && (saturate || srcs[0].modifier !== 0);
    const type = floatMove ? 'float' : spec.type;
    for (const h of spec.helpers) helpers.add(h);
    if (floatMove) helpers.add('d3d_fmov');
    if (saturate) helpers.add('d3d_sat');
    if (OVERFLOWING.has(inst.op)) overflowing = true;
    // Every source is read before any component is written: `add r0.xy, r0.yx, ...`.
    const lets = [];
    const stores = [];
    for (let c = 0; c < 4; c++) {
      if (!(dst.bits & (1 << c))) continue;
      let value = spec.lower(srcs.map((s) => source(s, c, type, inst)));
      if (floatMove) value = `d3d_fmov(${value})`;
      if (saturate) value = `d3d_sat(${value})`;
      const name = `i${inst.index}${XYZW[c]}`;
      lets.push(`    let ${name} = ${value};`);
      stores.push(`    ${target}.${XYZW[c]} = ${name};`);
    }
    body.push(`    // ${inst.name}${saturate ? '_sat' : ''} (instruction ${inst.index})`, ...lets, ...stores);
  }

  for (const inst of program.instructions) {
    if (returned) refuse(`${inst.name} after ret is not lowered by this example`, inst.index);
    const cur = new Cursor(program.words, inst);
    if (inst.op === OP.ret) {
      body.push('    return;');
      returned = true;
    } else if (ALU[inst.op]) {
      alu(inst, cur, ALU[inst.op]);
    } else {
      declaration(inst, cur);
    }
  }

  // Interfaces: one vec4 per register, typed from the signature (uint, sint or float), at
  // @location(register) for inputs and at the render target's location for outputs.
  const scalarOf = (elements, reg, what, instruction) => {
    const types = new Set(elements.filter((e) => e.register === reg).map((e) => e.type));
    if (types.size > 1) refuse(`${what}${reg} packs elements of different types, which this example does not split`, instruction);
    const [t] = [...types];
    return t === 1 ? 'u32' : t === 2 ? 'i32' : 'f32';
  };
  const semanticOf = (elements, reg, fallback) => {
    const e = elements.find((x) => x.register === reg);
    return e ? e.name : fallback;
  };
  const interpolation = (mode, scalar, reg) => {
    if (mode === 1) return '@interpolate(flat) ';
    if (scalar !== 'f32') refuse(`v${reg} holds integers but is not declared constant (flat)`);
    return ['', '', '@interpolate(perspective, center) ', '@interpolate(perspective, centroid) ',
      '@interpolate(linear, center) ', '@interpolate(linear, centroid) '][mode];
  };
  const inRegs = [...inputs.keys()].sort((a, b) => a - b);
  const outRegs = [...outputs].sort((a, b) => a - b);
  const manifestInputs = [];
  const params = [];
  const loads = [];
  for (const reg of inRegs) {
    const scalar = scalarOf(isgn, reg, 'v');
    const type = `vec4<${scalar}>`;
    params.push(`@location(${reg}) ${interpolation(inputs.get(reg), scalar, reg)}in${reg}: ${type}`);
    loads.push(`    v[${reg}] = bitcast<vec4<u32>>(in${reg});`);
    manifestInputs.push({ register: reg, mask: 15, location: reg, wgsl_type: type, semantic: semanticOf(isgn, reg, 'TEXCOORD') });
  }
  const manifestOutputs = [];
  const members = [];
  const results = [];
  for (const reg of outRegs) {
    const scalar = scalarOf(osgn, reg, 'o');
    const type = `vec4<${scalar}>`;
    members.push(`    @location(${reg}) o${reg}: ${type},`);
    results.push(`bitcast<${type}>(o[${reg}])`);
    manifestOutputs.push({ register: reg, mask: 15, location: reg, wgsl_type: type, semantic: semanticOf(osgn, reg, 'SV_Target') });
  }

  // Helpers in dependency order.
  const order = [];
  const want = (h) => {
    if (order.includes(h)) return;
    for (const d of HELPER_NEEDS[h] || []) want(d);
    order.push(h);
  };
  [...helpers].sort().forEach(want);

  const bindings = [];
  const wgsl = [`// ${profile}, translated by examples/translators/node/translate.js`, ''];
  for (const [slot, rows] of [...cbs].sort((a, b) => a[0] - b[0])) {
    wgsl.push(`@group(0) @binding(${slot}) var<uniform> cb${slot}: array<vec4<u32>, ${rows}>;`);
    bindings.push({ kind: 'cbuffer', register: slot, group: 0, binding: slot, layout: 'uniform-vec4-array', size_bytes: rows * 16 });
  }
  if (temps) wgsl.push(`var<private> r: array<vec4<u32>, ${temps}>;`);
  if (inRegs.length) wgsl.push(`var<private> v: array<vec4<u32>, ${inRegs[inRegs.length - 1] + 1}>;`);
  if (outRegs.length) wgsl.push(`var<private> o: array<vec4<u32>, ${outRegs[outRegs.length - 1] + 1}>;`);
  wgsl.push('');
  for (const h of order) wgsl.push(HELPERS[h], '');
  wgsl.push('fn run() {', ...body, '}', '');
  if (outRegs.length) wgsl.push('struct PsOut {', ...members, '}', '');
  wgsl.push('@fragment');
  wgsl.push(`fn main(${params.join(', ')})${outRegs.length ? ' -> PsOut' : ''} {`);
  wgsl.push(...loads, '    run();');
  if (outRegs.length) wgsl.push(`    return PsOut(${results.join(', ')});`);
  wgsl.push('}', '');

  return {
    status: 'ok',
    wgsl: wgsl.join('\n'),
    manifest: { stage: 'fragment', entry_point: 'main', bindings, inputs: manifestInputs, outputs: manifestOutputs },
    adaptations: overflowing ? ['dxdiff/non-finite'] : [],
  };
}

function answer(buf) {
  try {
    return translate(buf);
  } catch (e) {
    if (!(e instanceof Rejection)) throw e;
    const out = { status: 'rejected', reason: e.message };
    if (e.instruction !== undefined) out.instruction = e.instruction;
    return out;
  }
}

// Required from another script (a test, a fuzzer), the module only exports its functions.
if (require.main !== module) {
  module.exports = { answer, translate, Malformed };
} else if (process.argv.includes('--serve')) {
  // The persistent form (`serve:`, docs/translators.md): one request per line,
  // {"id": N, "dxbc": "<hex>"}, one answer per line with the same id. A container this script
  // cannot read ends the process with the reason on stderr, as the one-shot form exits 1;
  // dxdiff blames that program and starts a fresh process for the next.
  const lines = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let out;
    try {
      const request = JSON.parse(line);
      out = { id: request.id, ...answer(Buffer.from(request.dxbc, 'hex')) };
    } catch (e) {
      process.stderr.write(`translate.js: ${e instanceof Malformed ? 'malformed input' : 'internal error'}: ${e.stack || e}\n`);
      process.exit(e instanceof Malformed ? 1 : 2);
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  });
} else {
  const parts = [];
  process.stdin.on('data', (d) => parts.push(d));
  process.stdin.on('error', (e) => {
    process.stderr.write(`translate.js: reading stdin: ${e.message}\n`);
    process.exit(1);
  });
  process.stdin.on('end', () => {
    let out;
    try {
      out = answer(Buffer.concat(parts));
    } catch (e) {
      if (e instanceof Malformed) {
        process.stderr.write(`translate.js: malformed input: ${e.message}\n`);
        process.exitCode = 1;
      } else {
        process.stderr.write(`translate.js: internal error: ${e.stack || e}\n`);
        process.exitCode = 2;
      }
      return;
    }
    process.stdout.write(`${JSON.stringify(out)}\n`);
  });
}
