//! Lowering a program to assembly text, with the scaffolding that keeps it defined (the rules
//! of the module docs): temp initialisation, loop counters, index masking, outputs.

use std::fmt::Write as _;

use dxbc::Stage;

use super::recondition::definite;
use super::tree::*;

/// Lowering state.
struct Lower<'a> {
    p: &'a RandomProgram,
    out: String,
    indent: usize,
    uses_indexable: bool,
    uses_icb: bool,
    uses_cb_dyn: bool,
    uses_texture: bool,
    uses: Uses,
}

/// Which resources a compute program touches (only those are declared).
#[derive(Debug, Default, Clone, Copy)]
struct Uses {
    srv: bool,
    uav_store: bool,
    uav_texture: bool,
    atomics: bool,
    tgsm: bool,
}

const COMP: [char; 4] = ['x', 'y', 'z', 'w'];

fn mask_text(mask: u8) -> String {
    (0..4)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| COMP[c])
        .collect()
}

impl RandomProgram {
    /// Loop nesting depth (one counter register per level).
    fn loop_depth(stmts: &[Stmt]) -> u32 {
        stmts
            .iter()
            .map(|s| {
                u32::from(matches!(s, Stmt::Loop { .. }))
                    + s.bodies()
                        .into_iter()
                        .map(Self::loop_depth)
                        .max()
                        .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    }

    fn counter_base(&self) -> u32 {
        self.temps
    }

    fn index_base(&self) -> u32 {
        self.temps + Self::loop_depth(&self.body)
    }

    /// The assembly text.
    pub fn asm(&self) -> String {
        let mut l = Lower {
            p: self,
            out: String::new(),
            indent: 0,
            uses_indexable: false,
            uses_icb: false,
            uses_cb_dyn: false,
            uses_texture: false,
            uses: Uses::default(),
        };
        scan(&self.body, &mut l);
        let mut body = String::new();
        std::mem::swap(&mut l.out, &mut body);
        // Reconditioning: initialise every temp some read may reach before a write.
        let mut defined = vec![0u8; self.temps as usize];
        let mut need = vec![false; self.temps as usize];
        definite(&self.body, &mut defined, &mut need);
        // The outputs written at the end read every component of every working temp.
        for (r, d) in defined.iter().enumerate() {
            if *d != 0xf {
                need[r] = true;
            }
        }
        for r in 0..self.temps {
            if need[r as usize] {
                match self.stage {
                    Stage::Compute => {
                        l.uses.srv = true;
                        l.line(&format!(
                            "ld_structured r{r}.xyzw, vThreadIDInGroupFlattened.x, l({}), t0.xyzw",
                            16 * (r % 4)
                        ));
                    }
                    _ if self.split_moves => {
                        for c in COMP {
                            l.line(&format!("mov r{r}.{c}, v{}.{c}", r % INPUTS));
                        }
                    }
                    _ => l.line(&format!("mov r{r}.xyzw, v{}.xyzw", r % INPUTS)),
                }
            }
        }
        if l.uses_indexable {
            for e in 0..INDEXABLE {
                l.line(&format!(
                    "mov x0[{e}].xyzw, {}",
                    match self.stage {
                        Stage::Compute => format!("cb0[{e}].xyzw"),
                        _ => format!("v{}.xyzw", e % INPUTS),
                    }
                ));
            }
        }
        let inits = std::mem::take(&mut l.out);
        l.block(&self.body, 0);
        let code = std::mem::take(&mut l.out);
        // Outputs.
        let mut outs = String::new();
        for r in 0..self.temps {
            match self.stage {
                Stage::Compute => {
                    let _ = writeln!(
                        outs,
                        "store_structured u0.xyzw, vThreadIDInGroupFlattened.x, l({}), r{r}.xyzw",
                        16 * r
                    );
                }
                _ if self.split_moves => {
                    for c in COMP {
                        let _ = writeln!(outs, "mov o{r}.{c}, r{r}.{c}");
                    }
                }
                _ => {
                    let _ = writeln!(outs, "mov o{r}.xyzw, r{r}.xyzw");
                }
            }
        }
        let mut s = String::new();
        let model = self.shader_model.to_string().replace('.', "_");
        let ver = match self.stage {
            Stage::Compute => "cs_5_0".to_string(),
            Stage::Vertex => format!("vs_{model}"),
            _ => format!("ps_{model}"),
        };
        let _ = writeln!(s, "{ver}\ndcl_globalFlags refactoringAllowed");
        if l.uses_icb {
            let w = icb_words();
            let rows: Vec<String> = w
                .chunks(4)
                .map(|c| {
                    format!(
                        "{{ 0x{:08x}, 0x{:08x}, 0x{:08x}, 0x{:08x} }}",
                        c[0], c[1], c[2], c[3]
                    )
                })
                .collect();
            let _ = writeln!(s, "dcl_immediateConstantBuffer {{ {} }}", rows.join(", "));
        }
        let _ = writeln!(
            s,
            "dcl_constantbuffer CB0[{CB_REGS}], {}",
            if l.uses_cb_dyn {
                "dynamicIndexed"
            } else {
                "immediateIndexed"
            }
        );
        let temps = self.index_base() + INDEX_TEMPS;
        if l.uses_texture {
            let _ = writeln!(s, "dcl_sampler s4, mode_default");
            let _ = writeln!(s, "dcl_resource_texture2d (float,float,float,float) t4");
        }
        // Inputs, outputs and resources per stage, then the temps, then compute's group.
        match self.stage {
            Stage::Compute => {
                if l.uses.srv {
                    let _ = writeln!(s, "dcl_resource_structured t0, 64");
                }
                let _ = writeln!(s, "dcl_uav_structured u0, {}", 16 * self.temps);
                if l.uses.uav_store {
                    let _ = writeln!(s, "dcl_uav_structured u1, 16");
                }
                if l.uses.atomics {
                    let _ = writeln!(s, "dcl_uav_raw u2");
                }
                if l.uses.uav_texture {
                    let _ = writeln!(s, "dcl_uav_typed_texture1d (float,float,float,float) u3");
                }
                let _ = writeln!(s, "dcl_input vThreadIDInGroupFlattened");
            }
            stage => {
                // `linear`: what fxc writes for a float input without `nointerpolation`.
                let input = if stage == Stage::Pixel {
                    "dcl_input_ps linear"
                } else {
                    "dcl_input"
                };
                for r in 0..INPUTS {
                    let _ = writeln!(s, "{input} v{r}.xyzw");
                }
                for r in 0..self.temps {
                    if stage == Stage::Vertex && r == POSITION_OUTPUT {
                        let _ = writeln!(s, "dcl_output_siv o{r}.xyzw, position");
                    } else {
                        let _ = writeln!(s, "dcl_output o{r}.xyzw");
                    }
                }
            }
        }
        let _ = writeln!(s, "dcl_temps {temps}");
        if l.uses_indexable {
            let _ = writeln!(s, "dcl_indexableTemp x0[{INDEXABLE}], 4");
        }
        if self.stage == Stage::Compute {
            let t = self.threads;
            if l.uses.tgsm {
                let _ = writeln!(s, "dcl_tgsm_structured g0, 4, {}", t[0] * t[1] * t[2]);
            }
            let _ = writeln!(s, "dcl_thread_group {}, {}, {}", t[0], t[1], t[2]);
        }
        s.push_str(&inits);
        s.push_str(&code);
        s.push_str(&outs);
        s.push_str("ret\n");
        s
    }
}

/// Record which optional declarations the body needs.
fn scan(stmts: &[Stmt], l: &mut Lower) {
    walk(stmts, &mut |s| match s {
        Stmt::IndexableStore { .. } => l.uses_indexable = true,
        Stmt::SrvLoad { .. } => l.uses.srv = true,
        Stmt::UavStore { texture: true, .. } => l.uses.uav_texture = true,
        Stmt::UavStore { .. } => l.uses.uav_store = true,
        Stmt::Atomic { .. } => l.uses.atomics = true,
        Stmt::Exchange { .. } => l.uses.tgsm = true,
        Stmt::TextureRead { .. } => l.uses_texture = true,
        _ => {}
    });
    visit_srcs(stmts, &mut |s| match &s.reg {
        Reg::CbDyn(_) => l.uses_cb_dyn = true,
        Reg::IcbDyn(_) => l.uses_icb = true,
        Reg::IndexableDyn(_) => l.uses_indexable = true,
        _ => {}
    });
}

impl Lower<'_> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Emit the index computations a source needs (into index temp `slot`), and return its text.
    fn src(&mut self, s: &Src, slot: u32) -> String {
        let sw: String = s.swizzle.iter().map(|c| COMP[*c as usize]).collect();
        let index = |l: &mut Lower, inner: &Src, size: u32| -> String {
            let r = l.p.index_base() + slot;
            let inner_text = l.src(inner, slot);
            let mask = if l.p.oob_indices && size != INDEXABLE {
                // Out-of-range indices on purpose: twice the size.
                2 * size - 1
            } else {
                size - 1
            };
            l.line(&format!("and r{r}.x, {inner_text}, l({mask})"));
            format!("r{r}.x")
        };
        let body = match &s.reg {
            Reg::Temp(r) => format!("r{r}.{sw}"),
            Reg::Input(r) => match self.p.stage {
                Stage::Compute => "vThreadIDInGroupFlattened.xxxx".to_string(),
                _ => format!("v{r}.{sw}"),
            },
            Reg::Cb(r) => format!("cb0[{r}].{sw}"),
            Reg::CbDyn(i) => {
                let ix = index(self, i, CB_REGS);
                format!("cb0[{ix} + 0].{sw}")
            }
            Reg::IcbDyn(i) => {
                let ix = index(self, i, ICB_ROWS);
                format!("icb[{ix} + 0].{sw}")
            }
            Reg::IndexableDyn(i) => {
                let ix = index(self, i, INDEXABLE);
                format!("x0[{ix} + 0].{sw}")
            }
            Reg::Imm(w) => {
                let v: Vec<String> = s
                    .swizzle
                    .iter()
                    .map(|c| format!("0x{:08x}", w[*c as usize]))
                    .collect();
                format!("l({})", v.join(", "))
            }
        };
        let body = if s.abs { format!("|{body}|") } else { body };
        if s.neg { format!("-{body}") } else { body }
    }

    /// A condition as fxc writes one: a single component (`r0.x`), no modifier. The tree's
    /// condition reads its source's first swizzled component, whatever its modifiers.
    fn condition(&mut self, s: &Src) -> String {
        let plain = Src {
            neg: false,
            abs: false,
            swizzle: [s.swizzle[0]; 4],
            ..s.clone()
        };
        let text = self.src(&plain, 0);
        if let Some(list) = text.strip_prefix("l(") {
            let first = list.split([',', ')']).next().unwrap_or("0").trim();
            return format!("l({first})");
        }
        // `….xxxx` → `….x`
        match text.rsplit_once('.') {
            Some((reg, sw)) if sw.len() == 4 => format!("{reg}.{}", &sw[..1]),
            _ => text,
        }
    }

    fn block(&mut self, stmts: &[Stmt], loops: u32) {
        for s in stmts {
            self.stmt(s, loops);
        }
    }

    fn test(nonzero: bool) -> &'static str {
        if nonzero { "nz" } else { "z" }
    }

    fn stmt(&mut self, s: &Stmt, loops: u32) {
        match s {
            Stmt::Op(o) => {
                let srcs: Vec<String> = o
                    .src
                    .iter()
                    .enumerate()
                    .map(|(k, x)| self.src(x, k as u32))
                    .collect();
                let dsts: Vec<String> = o
                    .dst
                    .iter()
                    .map(|d| match d {
                        Some((r, m)) => format!("r{r}.{}", mask_text(*m)),
                        None => "null".to_string(),
                    })
                    .collect();
                let sat = if o.sat { "_sat" } else { "" };
                let mover = o.opcode.info().has(dxbc::opcodes::Flags::MOVE);
                if let ([Some((r, m))], true) = (o.dst.as_slice(), mover && self.p.split_moves) {
                    // One component per move: each source lane moves alone.
                    for c in (0..4).filter(|c| m & (1 << c) != 0) {
                        let mut all = vec![format!("r{r}.{}", COMP[c])];
                        all.extend(srcs.iter().cloned());
                        self.line(&format!("{}{sat} {}", o.opcode.mnemonic(), all.join(", ")));
                    }
                    return;
                }
                let mut all = dsts;
                all.extend(srcs);
                self.line(&format!("{}{sat} {}", o.opcode.mnemonic(), all.join(", ")));
            }
            Stmt::If {
                nonzero,
                cond,
                then,
                otherwise,
            } => {
                let c = self.condition(cond);
                self.line(&format!("if_{} {c}", Self::test(*nonzero)));
                self.indent += 1;
                self.block(then, loops);
                self.indent -= 1;
                if let Some(o) = otherwise {
                    self.line("else");
                    self.indent += 1;
                    self.block(o, loops);
                    self.indent -= 1;
                }
                self.line("endif");
            }
            Stmt::Loop { trips, body } => {
                let c = self.p.counter_base() + loops;
                self.line(&format!("mov r{c}.x, l({trips})"));
                self.line("loop");
                self.indent += 1;
                self.line(&format!("breakc_z r{c}.x"));
                self.line(&format!("iadd r{c}.x, r{c}.x, l(-1)"));
                self.block(body, loops + 1);
                self.indent -= 1;
                self.line("endloop");
            }
            Stmt::BreakC { nonzero, cond } => {
                let c = self.condition(cond);
                self.line(&format!("breakc_{} {c}", Self::test(*nonzero)));
            }
            Stmt::ContinueC { nonzero, cond } => {
                let c = self.condition(cond);
                self.line(&format!("continuec_{} {c}", Self::test(*nonzero)));
            }
            Stmt::Discard { nonzero, cond } => {
                let c = self.condition(cond);
                self.line(&format!("discard_{} {c}", Self::test(*nonzero)));
            }
            Stmt::Switch {
                sel,
                cases,
                default,
            } => {
                let c = self.src(sel, 0);
                let r = self.p.index_base() + 4;
                self.line(&format!("and r{r}.x, {c}, l(3)"));
                self.line(&format!("switch r{r}.x"));
                self.indent += 1;
                for (k, body) in cases {
                    self.line(&format!("case l({k})"));
                    self.indent += 1;
                    self.block(body, loops);
                    self.line("break");
                    self.indent -= 1;
                }
                if let Some(d) = default {
                    self.line("default");
                    self.indent += 1;
                    self.block(d, loops);
                    self.line("break");
                    self.indent -= 1;
                }
                self.indent -= 1;
                self.line("endswitch");
            }
            Stmt::IndexableStore { index, mask, value } => {
                let v = self.src(value, 1);
                let i = self.src(index, 0);
                let r = self.p.index_base() + 3;
                self.line(&format!("and r{r}.x, {i}, l({})", INDEXABLE - 1));
                self.line(&format!("mov x0[r{r}.x + 0].{}, {v}", mask_text(*mask)));
            }
            Stmt::SrvLoad {
                dst,
                index,
                in_range,
                offset,
            } => {
                let i = self.src(index, 0);
                let r = self.p.index_base() + 3;
                let t = self.p.threads;
                let n = t[0] * t[1] * t[2];
                if *in_range {
                    self.line(&format!("and r{r}.x, {i}, l({})", n - 1));
                } else {
                    self.line(&format!("or r{r}.x, {i}, l(0x1000)"));
                }
                let m = mask_text(dst.1);
                // Destination component c takes the next loaded word (fxc's `r0.yz .. t0.xxyx`).
                let mut next = 0;
                let sw: String = (0..4)
                    .map(|c| {
                        if dst.1 & (1 << c) != 0 {
                            next += 1;
                            COMP[next - 1]
                        } else {
                            'x'
                        }
                    })
                    .collect();
                self.line(&format!(
                    "ld_structured r{}.{m}, r{r}.x, l({offset}), t0.{sw}",
                    dst.0
                ));
            }
            Stmt::UavStore {
                in_range,
                mask,
                value,
                texture,
            } => {
                let v = self.src(value, 1);
                let r = self.p.index_base() + 3;
                if *in_range {
                    self.line(&format!("mov r{r}.x, vThreadIDInGroupFlattened.x"));
                } else {
                    self.line(&format!(
                        "iadd r{r}.x, vThreadIDInGroupFlattened.x, l(0x1000)"
                    ));
                }
                if *texture {
                    // A typed store writes every component; the texel is the thread's own.
                    self.line(&format!("store_uav_typed u3.xyzw, r{r}.xxxx, {v}"));
                } else {
                    self.line(&format!(
                        "store_structured u1.{}, r{r}.x, l(0), {v}",
                        mask_text(store_mask(*mask))
                    ));
                }
            }
            Stmt::TextureRead {
                opcode,
                dst,
                coords,
                lod,
            } => {
                let c = self.src(coords, 0);
                let m = mask_text(dst.1);
                let d = dst.0;
                match opcode {
                    dxbc::Opcode::Ld => {
                        // x and y a few texels past the edges, the level one past the last
                        // mip of the textures the harness makes: in and out of range.
                        let r = self.p.index_base() + 3;
                        self.line(&format!("and r{r}.xyzw, {c}, l(15, 15, 0, 3)"));
                        self.line(&format!("ld r{d}.{m}, r{r}.xyzw, t4.xyzw"));
                    }
                    dxbc::Opcode::SampleL => {
                        let lod = self.src(lod, 1);
                        self.line(&format!("sample_l r{d}.{m}, {c}, t4.xyzw, s4, {lod}"));
                    }
                    _ => self.line(&format!("gather4 r{d}.{m}, {c}, t4.xyzw, s4.x")),
                }
            }
            Stmt::Evaluate {
                opcode,
                dst,
                attribute,
                offset,
            } => {
                let a = self.src(attribute, 0);
                let m = mask_text(dst.1);
                let d = dst.0;
                let mn = opcode.mnemonic();
                if *opcode == dxbc::Opcode::EvalCentroid {
                    self.line(&format!("{mn} r{d}.{m}, {a}"));
                } else {
                    let o = self.src(offset, 1);
                    self.line(&format!("{mn} r{d}.{m}, {a}, {o}"));
                }
            }
            Stmt::Atomic {
                opcode,
                address,
                value,
            } => {
                let v = self.src(value, 1);
                let a = self.src(address, 0);
                let r = self.p.index_base() + 3;
                // Each operation has its own four words: one operation alone commutes, two
                // different ones on a word do not (iadd then imax is not imax then iadd).
                let region = 16 * ATOMICS.iter().position(|o| o == opcode).unwrap_or(0);
                self.line(&format!("and r{r}.x, {a}, l(12)"));
                self.line(&format!("iadd r{r}.x, r{r}.x, l({region})"));
                self.line(&format!("{} u2, r{r}.x, {v}", opcode.mnemonic()));
            }
            Stmt::Exchange { dst, value, sel } => {
                let v = self.src(value, 1);
                self.line(&format!(
                    "store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), {v}"
                ));
                self.line("sync_g_t");
                let i = self.src(sel, 0);
                let r = self.p.index_base() + 3;
                let t = self.p.threads;
                self.line(&format!("and r{r}.x, {i}, l({})", t[0] * t[1] * t[2] - 1));
                self.line(&format!(
                    "ld_structured r{}.{}, r{r}.x, l(0), g0.xxxx",
                    dst.0,
                    mask_text(dst.1)
                ));
                self.line("sync_g_t");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Knobs;
    use dxbc::{Index, Opcode, Operand, OperandType};

    /// The temp registers an operand names, its index registers included.
    fn temps_in(o: &Operand, out: &mut Vec<u32>) {
        if o.ty == OperandType::Temp
            && let Some(r) = o.indices.first().and_then(Index::immediate)
        {
            out.push(r as u32);
        }
        for i in &o.indices {
            if let Some(r) = i.relative() {
                temps_in(r, out);
            }
        }
    }

    #[test]
    fn lowered_programs_assemble_and_declare_every_temp_they_use() {
        let mut deepest = 0;
        for stage in [Stage::Pixel, Stage::Vertex, Stage::Compute] {
            let k = Knobs {
                stages: vec![stage],
                ..Knobs::default()
            };
            for seed in 0..100 {
                let p = crate::random::generate(&k, seed);
                let asm = p.asm();
                let program = dxbc::assemble(&asm)
                    .unwrap_or_else(|e| panic!("{stage:?} {seed}: {e}\n{asm}"))
                    .program;
                let declared: Vec<u32> = program
                    .instructions
                    .iter()
                    .filter_map(|i| i.temps_count())
                    .collect();
                let loops = RandomProgram::loop_depth(&p.body);
                deepest = deepest.max(loops);
                assert_eq!(
                    declared,
                    [p.temps + loops + INDEX_TEMPS],
                    "{stage:?} {seed}"
                );
                let mut used = Vec::new();
                for i in &program.instructions {
                    if i.opcode != Opcode::DclTemps {
                        i.operands.iter().for_each(|o| temps_in(o, &mut used));
                    }
                }
                assert!(
                    used.iter().all(|r| *r < declared[0]),
                    "{stage:?} {seed}: r{:?} over dcl_temps {}\n{asm}",
                    used.iter().max(),
                    declared[0]
                );
                assert_eq!(
                    program.instructions.last().map(|i| i.opcode),
                    Some(Opcode::Ret)
                );
            }
        }
        assert!(
            deepest >= 2,
            "no nested loops drawn: the counters went untested"
        );
    }

    #[test]
    fn temps_read_before_written_are_initialised_before_the_body() {
        let mov = |d: u32, s: Reg| {
            Stmt::Op(Op {
                opcode: Opcode::Mov,
                sat: false,
                dst: vec![Some((d, 0xF))],
                src: vec![Src::plain(s)],
            })
        };
        let p = RandomProgram {
            stage: Stage::Pixel,
            temps: 3,
            threads: [1, 1, 1],
            // r1 is read before any write; r0 is written whole first; r2 only in part.
            body: vec![
                mov(0, Reg::Temp(1)),
                Stmt::Op(Op {
                    opcode: Opcode::Mov,
                    sat: false,
                    dst: vec![Some((2, 0b0011))],
                    src: vec![Src::plain(Reg::Temp(0))],
                }),
                mov(1, Reg::Imm([7; 4])),
            ],
            oob_indices: false,
            split_moves: false,
            shader_model: dxbc::TargetModel::Sm50,
        };
        let asm = p.asm();
        let at = |line: &str| asm.find(line).unwrap_or_else(|| panic!("no {line}\n{asm}"));
        assert!(
            at("mov r1.xyzw, v1.xyzw") < at("mov r0.xyzw, r1.xyzw"),
            "{asm}"
        );
        // r2's outputs read .zw, which no path writes.
        assert!(
            at("mov r2.xyzw, v2.xyzw") < at("mov r0.xyzw, r1.xyzw"),
            "{asm}"
        );
        assert!(
            !asm.contains("mov r0.xyzw, v0"),
            "r0 needs no initialising\n{asm}"
        );
        assert!(at("mov o2.xyzw, r2.xyzw") > at("mov r1.xyzw, l("), "{asm}");
    }
}
