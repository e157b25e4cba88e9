#!/usr/bin/env node
// dxdiff's adapter for @carbonenginejs/format-webgpu, the DXBC -> WGSL compiler whose
// compatibility page is dxdiff's seed contract (docs/carbon.md).
//
//   dxdiff verify --translator "serve:node examples/translators/carbon/translate.mjs --serve"
//   dxdiff verify --translator "cmd:node examples/translators/carbon/translate.mjs"
//   node examples/translators/carbon/translate.mjs < program.dxbc      # one answer
//
// Where the packages are: $DXDIFF_CARBON, else ../shared/systems/carbonenginejs beside the
// dxdiff checkout this file sits in, else the same path from the working directory. Without
// them the adapter exits 1 with the reason on stderr (dxdiff records a translator crash).
//
// The protocol (docs/translators.md):
// - one-shot: the container on stdin, one JSON answer on stdout, exit 0;
// - `--serve`: one request per line on stdin, `{"id": N, "dxbc": "<hex>"}`, one answer per
//   line on stdout, the same document with the request's `id`. The process stays up between
//   programs, so node's start-up and the import are paid once per worker.
//
// What the adapter adds to the compiler, and nothing else (it never edits the WGSL):
// - a manifest read from the compiler's own typed program: its binding plan (group, binding,
//   register, WGSL type) and its interface fields (register, components, location or builtin);
// - the claims: the page's entries that apply to the program (CLAIMS below), and the latitude
//   the page keeps for ordinary float math ("Unless a mapping states otherwise ...");
// - a refusal's catalog id, where the page documents the refusal (REFUSALS below), and the
//   instruction in dxdiff's numbering (every declaration and instruction after the version
//   and length tokens), where the compiler counts only executable instructions.
//
// A refusal is the compiler throwing while it builds its IR or its WGSL. A crash is the
// adapter's honest "something broke": the compiler's DXBC reader calling a container that
// dxdiff decoded malformed, or a JavaScript fault (TypeError, RangeError...) inside it.

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The packages' folder: the first candidate that holds format-webgpu. */
function carbonRoot() {
    const entry = "node_modules/@carbonenginejs/format-webgpu/src/index.js";
    const candidates = [
        process.env.DXDIFF_CARBON,
        path.resolve(here, "../../../../shared/systems/carbonenginejs"),
        path.resolve("../shared/systems/carbonenginejs"),
    ].filter(Boolean);
    for (const c of candidates) {
        if (fs.existsSync(path.join(c, entry))) {
            return path.join(c, entry);
        }
    }
    throw new Error(`carbonenginejs not found (set DXDIFF_CARBON); looked in ${candidates.join(", ")}`);
}

// ---------------------------------------------------------------------------------------------
// The token stream, only as far as dxdiff's instruction numbering needs it.

/** Word offsets (within the SHDR/SHEX chunk's tokens) of every declaration and instruction. */
function instructionOffsets(bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const u32 = (at) => (at + 4 <= bytes.length ? view.getUint32(at, true) : null);
    const chunks = u32(28);
    if (bytes.length < 32 || chunks === null) {
        return [];
    }
    for (let i = 0; i < chunks && i < 64; i++) {
        const at = u32(32 + 4 * i);
        if (at === null) {
            return [];
        }
        const tag = String.fromCharCode(...bytes.subarray(at, at + 4));
        if (tag !== "SHDR" && tag !== "SHEX") {
            continue;
        }
        const start = at + 8;
        const words = Math.min(u32(start + 4) ?? 0, Math.floor((bytes.length - start) / 4));
        const offsets = [];
        let w = 2;
        while (w < words) {
            offsets.push(w);
            const token = u32(start + 4 * w);
            const opcode = token & 0x7ff;
            // customdata (opcode 53) carries its length in the next word.
            const length = opcode === 53 ? u32(start + 4 * (w + 1)) ?? 0 : (token >>> 24) & 0x7f;
            if (length === 0) {
                break;
            }
            w += length;
        }
        return offsets;
    }
    return [];
}

/** dxdiff's index of the instruction that starts at token word `offset`, or null. */
function dxdiffIndex(offsets, offset) {
    const i = offsets.indexOf(offset);
    return i < 0 ? null : i;
}

// ---------------------------------------------------------------------------------------------
// Refusals: the page's documented refusals by the compiler's words, each with its catalog id
// (`dxdiff catalog`). A refusal the page does not document keeps no id, and dxdiff files it
// under `dxdiff/refused`. Order matters: the first match wins.

const REFUSALS = [
    [/disables refactoring globally/, "fail-closed/non-refactorable"],
    [/uniform-buffer.* requires an unsupported array or unbounded range/, "fail-closed/dynamic-cb-selection"],
    [/unsupported array or unbounded range|comparison-only/, "fail-closed/bindless-ranges"],
    [/does not support the \w+ high result|requires a null high destination/, "fail-closed/imul-high-half"],
    [/dynamic cbuffer register selection/, "fail-closed/dynamic-cb-selection"],
    [/resinfo instruction \d+ requires an immediate mip level/, "fail-closed/resinfo-dynamic-mip"],
    [/sampled resource .* has unsupported dimension/, "fail-closed/unknown-texture-dimension"],
    [/without explicit bound-view format metadata/, "fail-closed/typed-buffer-srv-format"],
    [/sample offsets|sample_controls/, "fail-closed/texture-offsets"],
    [/indexable temp .*(relative|not a supported constant table|not supported)/, "fail-closed/mutable-indexable-temps"],
    [/(interface_call|call|callc|label|fcall) control flow|function (body|table)/, "fail-closed/subroutines"],
    [/does not support the (geometry|hull|domain) shader stage/, "fail-closed/geometry-hull-domain"],
    [/^WGSL [\w -]*\bcompute\b|lower compute|compute lowering/, "fail-closed/general-compute"],
    [/sampler .* has unsupported mode/, "fail-closed/sampler-modes"],
    [/interpolation/, "fail-closed/interpolation-modes"],
    [/minimum-precision kind/, "fail-closed/min-precision-kinds"],
    [/system semantic .* is not supported|output semantic .* is not supported|live system input/, "fail-closed/system-values"],
    [/switch at \d+ carries merges without a default case/, "fail-closed/switch-merges-without-default"],
    [/output .* leaves [xyzw]+ unwritten before return/, "fail-closed/unwritten-fragment-outputs"],
    [/rcp instruction \d+ requires finite normal immediate/, "fail-closed/rcp-special-immediates"],
    [/unsupported (abs|absneg) modifier for (u|i)(nt)?32|unsupported (abs|absneg) modifier for (uint|sint)/, "fail-closed/integer-abs-modifiers"],
    [/saturates a non-float result/, "fail-closed/integer-saturate"],
    [/atomic instruction|opcode (imm_atomic|atomic)\w* at|storage resource .* is not supported in the vertex stage/, "fail-closed/atomic-shapes"],
    [/does not dominate|observable undefined|is not a scalar \w*[ -]?\w* ?phi|unsupported (loop |switch )?incoming edges|unsupported loop backedge input|unsupported loop-exit input|unsupported (merge|loop-exit|header) predecessors|merge graph contains a cycle|has no selection plan|switch case at \d+ must end in break or return/, "fail-closed/unmerged-values"],
    [/opcode gather4\b/, "fail-closed/gather4"],
    [/requires matching destination masks/, "fail-closed/dual-destination-masks"],
    [/unresolved or mixed result type/, "fail-closed/mixed-lane-types"],
    [/opcode sample(_b)? at .*vertex|vertex opcode sample(_b)? /, "fail-closed/vertex-implicit-lod"],
    [/cannot report component|resinfo instruction \d+ (cannot saturate|has unsupported return type|supports only)/, "fail-closed/resinfo-shapes"],
    [/load instruction \d+ resource shape is not supported|sampled resource .* requires a float4 return type/, "fail-closed/ld-shapes"],
    [/structured load \d+ (requires an immediate|has a non-DWORD|cannot saturate)|beyond .*stride/, "fail-closed/structured-load-shapes"],
    [/requires a fixed, unmodified, default-precision .* handle|out-of-range fixed handle identity/, "fail-closed/relative-resource-identities"],
];

/** The catalog id of a refusal the page documents, or null. */
function refusalId(message) {
    for (const [pattern, id] of REFUSALS) {
        if (pattern.test(message)) {
            return id;
        }
    }
    return null;
}

// ---------------------------------------------------------------------------------------------
// Claims: the page's entries that apply to a program, read off the compiler's own IR.

const COMPARISONS = new Set(["lt", "ge", "eq", "ne", "ilt", "ige", "ieq", "ine", "ult", "uge"]);
const FLOAT_OPS = new Set([
    "add", "mul", "mad", "div", "dp2", "dp3", "dp4", "min", "max", "frc", "exp", "log", "sqrt",
    "rsq", "rcp", "sincos", "round_ne", "round_ni", "round_pi", "round_z", "lt", "ge", "eq", "ne",
    "ftoi", "ftou", "itof", "utof", "f16tof32", "f32tof16", "deriv_rtx", "deriv_rty",
    "deriv_rtx_coarse", "deriv_rtx_fine", "deriv_rty_coarse", "deriv_rty_fine",
]);
/** The page's latitude for ordinary WGSL float math (end of "Supported mappings": "inherit
 * WGSL's permitted rounding, denormal, and zero-sign behavior plus its finite-math assumption"). */
const FLOAT_LATITUDE = [
    "dxdiff/denormals", "dxdiff/nan", "dxdiff/non-finite", "dxdiff/signed-zero", "dxdiff/faithful-rounding",
    "dxdiff/builtin-accuracy", "dxdiff/sincos-range", "dxdiff/exp-range", "dxdiff/min-max-nan",
    "dxdiff/cancellation",
];

/** Opcode name as dxdiff and fxc spell it (carbon writes a few differently). */
const opName = (name) => ({ dcl_global_flags: "dcl_globalFlags" })[name] ?? name;

/** The entries a translation relies on. */
function claims(ir, program, wgsl) {
    const out = new Set();
    const ops = new Set((ir.instructions ?? []).map((i) => opName(i.opcodeName)));
    const has = (...names) => names.some((n) => ops.has(n));
    const operands = (ir.instructions ?? []).flatMap((i) => i.operands ?? []);
    if ((ir.instructions ?? []).some((i) => i.preciseMask)) out.add("adapted/precise");
    if ([...ops].some((o) => COMPARISONS.has(o))) out.add("adapted/comparison-masks");
    if (wgsl.includes("bitcast<")) out.add("adapted/typeless-registers");
    if (has("switch")) out.add("adapted/switch-default");
    if ((ir.signatures?.input ?? []).some((e) => e.systemValueType === 9)) out.add("adapted/front-facing");
    if (operands.some((o) => o.modifierName && o.modifierName !== "none")) out.add("adapted/source-modifiers");
    if (has("continue", "continuec")) out.add("adapted/continue-continuing");
    if (program.stage === "vertex") out.add("adapted/unwritten-vertex-outputs");
    if (ir.immediateConstantBuffer) out.add("adapted/icb-const-array");
    if (ir.constTables) out.add("adapted/indexable-const-tables");
    if ((ir.declarations ?? []).some((d) => /indexable/.test(d.opcodeName))) out.add("adapted/indexable-temps");
    if ((ir.instructions ?? []).some((i) => i.saturate && /^movc?$/.test(i.opcodeName))) out.add("adapted/saturate-movers");
    if (has("rcp", "div")) out.add("adapted/rcp-division");
    if (operands.some((o) => o.minPrecisionName === "float_16")) out.add("adapted/min-precision-f16");
    if (has("ftoi", "ftou")) out.add("adapted/numeric-conversion-edges");
    if (program.requiresDerivativeUniformityOptOut) out.add("adapted/derivative-uniformity");
    if (has("f16tof32", "f32tof16")) out.add("bounded/f16-conversions");
    if (has("udiv")) out.add("bounded/udiv");
    if ([...ops].some((o) => FLOAT_OPS.has(o)) || operands.some((o) => o.modifierName && o.modifierName !== "none")
        || (ir.instructions ?? []).some((i) => i.saturate)) {
        for (const id of FLOAT_LATITUDE) out.add(id);
    }
    return [...out].sort();
}

// ---------------------------------------------------------------------------------------------
// The manifest (docs/manifest.md), from the compiler's binding plan and interface.

const MASK = { x: 1, y: 2, z: 4, w: 8 };

/** A manifest binding for one of the program's WGSL bindings. */
function binding(b) {
    const base = { register: b.registerIndex, group: b.group, binding: b.binding };
    switch (b.resourceKind) {
        case "uniform-buffer":
            return { ...base, kind: "cbuffer", layout: "uniform-vec4-array", size_bytes: b.buffer?.minBindingSize };
        case "sampler":
            return { ...base, kind: "sampler", layout: b.type };
        case "sampled-resource":
            if (b.type.startsWith("texture")) {
                return { ...base, kind: "srv", layout: b.type };
            }
            return { ...base, kind: "srv", layout: storageLayout(b.type), ...(b.structureStride ? { stride: b.structureStride } : {}) };
        default:
            // Storage: UAVs and anything else declared as a storage array.
            return {
                ...base,
                kind: b.resourceKind.includes("unordered") || /read_write/.test(b.declaration ?? "") ? "uav" : "srv",
                layout: storageLayout(b.type),
                ...(b.structureStride ? { stride: b.structureStride } : {}),
            };
    }
}

const storageLayout = (type) => (/atomic</.test(type) ? "storage-atomic-u32-array" : "storage-u32-array");

/** A manifest interface entry for one interface field. */
function iface(field) {
    const entry = {
        register: Number.isInteger(field.registerIndex) ? field.registerIndex : null,
        mask: (field.components ?? []).reduce((m, c) => m | (MASK[c] ?? 0), 0) || 15,
        wgsl_type: field.type,
        semantic: field.semanticName ?? "",
    };
    if (field.attribute?.kind === "builtin") {
        entry.builtin = field.attribute.name;
    } else {
        entry.location = field.attribute?.index ?? field.registerIndex;
    }
    return entry;
}

function manifest(out, ir) {
    const program = out.program;
    const m = {
        stage: out.stage,
        entry_point: out.entryPoint,
        bindings: (program.bindings ?? []).map(binding),
        inputs: (program.interface?.inputs ?? []).map(iface),
        outputs: (program.interface?.outputs ?? []).map(iface),
    };
    if (out.stage === "compute") {
        const size = program.threadGroupSize ?? program.workgroupSize
            ?? (ir.declarations ?? []).find((d) => /thread_group/.test(d.opcodeName))?.data?.threadGroupSize;
        if (size) {
            m.workgroup_size = Array.isArray(size) ? size : [size.x, size.y, size.z];
        }
    }
    if (/^\s*enable\s+/m.test(out.code)) {
        m.enables = [...out.code.matchAll(/^\s*enable\s+([^;]+);/gm)].flatMap((x) => x[1].split(",").map((s) => s.trim()));
    }
    return m;
}

// ---------------------------------------------------------------------------------------------

/** A JavaScript fault inside the compiler, not one of its refusals. */
const isFault = (e) => e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError
    || e instanceof SyntaxError || e?.name === "DxbcReadError";

class Crash extends Error {}

/** One program's answer (a protocol document); throws Crash for what is not an answer. */
function translate(webgpu, bytes) {
    const offsets = instructionOffsets(bytes);
    let ir;
    const refuse = (e, stage) => {
        if (isFault(e)) {
            throw new Crash(`${stage}: ${e.name}: ${e.message}\n${e.stack ?? ""}`);
        }
        const message = String(e?.message ?? e);
        const answer = { status: "rejected", reason: message };
        const id = refusalId(message);
        if (id) answer.catalog_id = id;
        // The compiler names an executable instruction by its own count, or a token offset.
        const at = e?.details?.dxbcOffset ?? e?.details?.offset;
        let index = Number.isInteger(at) ? dxdiffIndex(offsets, at) : null;
        const named = /instruction (\d+)/.exec(message);
        if (index === null && named && ir?.instructions) {
            const inst = ir.instructions.find((i) => i.index === Number(named[1]));
            if (inst) index = dxdiffIndex(offsets, inst.dxbcOffset);
        }
        if (index !== null) answer.instruction = index;
        return answer;
    };
    try {
        ir = webgpu.buildShaderIr(bytes);
    } catch (e) {
        return refuse(e, "buildShaderIr");
    }
    let out;
    try {
        out = webgpu.buildWgsl(ir);
    } catch (e) {
        return refuse(e, "buildWgsl");
    }
    return {
        status: "ok",
        wgsl: out.code,
        manifest: manifest(out, ir),
        adaptations: claims(ir, out.program, out.code),
    };
}

async function main() {
    let webgpu;
    try {
        webgpu = (await import(pathToFileURL(carbonRoot()).href)).CjsFormatWebgpu;
    } catch (e) {
        process.stderr.write(`${e.message}\n`);
        process.exit(1);
    }
    if (process.env.DXDIFF_CARBON_PLANT === "crash") {
        // For dxdiff's own tests: a translator that dies on every program.
        throw new Error("planted crash");
    }
    if (!process.argv.includes("--serve")) {
        const bytes = new Uint8Array(fs.readFileSync(0));
        try {
            process.stdout.write(JSON.stringify(translate(webgpu, bytes)));
        } catch (e) {
            process.stderr.write(`${e.message}\n`);
            process.exit(1);
        }
        return;
    }
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        if (!line.trim()) continue;
        let request;
        try {
            request = JSON.parse(line);
        } catch (e) {
            process.stderr.write(`not a request: ${e.message}\n`);
            process.exit(1);
        }
        let answer;
        try {
            answer = translate(webgpu, new Uint8Array(Buffer.from(request.dxbc, "hex")));
        } catch (e) {
            // A crash ends the process: dxdiff blames this program and starts a fresh one.
            process.stderr.write(`${e.message}\n`);
            process.exit(1);
        }
        process.stdout.write(`${JSON.stringify({ id: request.id, ...answer })}\n`);
    }
}

await main();
