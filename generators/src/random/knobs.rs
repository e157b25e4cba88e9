//! What is generated: the knobs, and the instruction rows drawn from the opcode table.

use dxbc::opcodes::{Kind, TABLE};
use dxbc::{Opcode, Stage};

/// The generator's configuration. Every field is a knob a campaign or a translator's narrowing
/// may change.
#[derive(Debug, Clone, PartialEq)]
pub struct Knobs {
    /// Stages to draw from.
    pub stages: Vec<Stage>,
    /// Statements at the top level (each may nest more).
    pub statements: usize,
    /// Deepest nesting of if/loop/switch.
    pub depth: usize,
    /// Working temps `r0..` (also the number of outputs); 1..=8.
    pub temps: u32,
    /// Relative weights of the statement kinds.
    pub mix: Mix,
    /// Opcodes never generated (what a translator rejects).
    pub excluded: Vec<Opcode>,
    /// Source modifiers (`-`, `|x|`) and `_sat`.
    pub modifiers: bool,
    /// Dynamically indexed constant-buffer reads (in range).
    pub cb_indexing: bool,
    /// The immediate constant buffer.
    pub icb: bool,
    /// Indexable temps (`x0`), read with dynamic indices.
    pub indexable_temps: bool,
    /// Dynamic indices that may be out of range (D3D returns 0 for cb/icb; undefined for
    /// indexable temps, so only cb/icb get them). Off by default.
    pub oob_indices: bool,
    /// For compute: TGSM exchanges with barriers.
    pub tgsm: bool,
    /// For compute: atomics on a raw UAV.
    pub atomics: bool,
    /// For compute: structured SRV loads and UAV stores, in and out of range.
    pub buffers: bool,
    /// For compute, with `buffers`: a quarter of the UAV stores go to a typed
    /// `RWTexture1D<float4>` instead of the structured buffer.
    pub uav_textures: bool,
    /// Reads of a 2D float texture (`ld`, `sample_l`, `gather4`), in every stage.
    pub textures: bool,
    /// For pixel programs of Shader Model 5.0: an attribute evaluated off the pixel centre or
    /// at the centroid (`eval_snapped`, `eval_sample_index`, `eval_centroid`), in a quarter of
    /// them, drawn apart from the rest ([`super::draw`]).
    pub evaluations: bool,
    /// For pixel programs: `discard`.
    pub discard: bool,
    /// Every move (`mov`, `movc`, and the moves to the outputs) writes one component, so no
    /// move carries lanes that instructions of different types wrote: the narrowing for a
    /// translator that refuses such moves (a register's lanes may still hold float and integer
    /// values side by side). Off by default.
    pub split_moves: bool,
    /// Every `switch` has a `default` (an empty one where the draw gave none): the narrowing
    /// for a translator that refuses a switch without one. Off by default.
    pub switch_defaults: bool,
    /// The Shader Model of pixel and vertex programs (compute programs are always 5.0); the
    /// rows and stages a model lacks must be left out by the campaign (`--shader-model`).
    pub shader_model: dxbc::TargetModel,
    /// Opcodes a campaign aims at (`fuzz --ops`, `--entry`): together they take
    /// [`AIMED_SHARE`] % of the instruction draws, the other rows the rest, so the campaign
    /// still draws everything at a low rate. Empty: no aim.
    pub aimed: Vec<Opcode>,
    /// The share (percent, 1..=99) of instruction draws the aimed opcodes take together:
    /// [`AIMED_SHARE`] for `--ops`, less for a guided campaign, which must not lose the
    /// variety it is looking for.
    pub aimed_share: u32,
}

/// The share (percent) of instruction draws the aimed opcodes take together.
pub const AIMED_SHARE: u32 = 80;

/// Relative weights of statement kinds: a campaign aims at one area by raising its weight, and
/// a zero turns a kind off. The instruction weights split the ALU statements between classes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mix {
    /// Float arithmetic rows ([`Class::Float`]).
    pub float: u32,
    /// Signed and unsigned integer arithmetic rows ([`Class::Int`]).
    pub int: u32,
    /// Bit manipulation rows ([`Class::Bit`]).
    pub bit: u32,
    /// Conversion rows ([`Class::Conversion`]).
    pub conversion: u32,
    /// Comparison rows ([`Class::Compare`]).
    pub compare: u32,
    /// Move rows ([`Class::Move`]).
    pub moves: u32,
    /// Double-precision rows ([`Class::Double`]).
    pub doubles: u32,
    /// `if`, `loop` and `switch`, while [`Knobs::depth`] allows nesting.
    pub flow: u32,
    /// Compute programs' buffer loads and stores, atomics and TGSM exchanges.
    pub memory: u32,
    /// Texture reads ([`Knobs::textures`]).
    pub textures: u32,
}

impl Knobs {
    /// These knobs with every resource and memory feature off (constant-buffer indexing, the
    /// immediate constant buffer, indexable temps, group-shared memory, atomics, buffers and
    /// discard): programs over registers only.
    pub fn registers_only(self) -> Knobs {
        Knobs {
            cb_indexing: false,
            icb: false,
            indexable_temps: false,
            tgsm: false,
            atomics: false,
            buffers: false,
            uav_textures: false,
            textures: false,
            evaluations: false,
            discard: false,
            ..self
        }
    }
}

impl Default for Knobs {
    fn default() -> Knobs {
        Knobs {
            stages: vec![Stage::Pixel, Stage::Vertex, Stage::Compute],
            statements: 8,
            depth: 2,
            temps: 4,
            mix: Mix {
                float: 6,
                int: 4,
                bit: 3,
                conversion: 2,
                compare: 3,
                moves: 2,
                doubles: 1,
                flow: 3,
                memory: 3,
                textures: 1,
            },
            excluded: Vec::new(),
            modifiers: true,
            cb_indexing: true,
            icb: true,
            indexable_temps: true,
            oob_indices: false,
            tgsm: true,
            atomics: true,
            buffers: true,
            uav_textures: true,
            textures: true,
            evaluations: true,
            discard: true,
            split_moves: false,
            switch_defaults: false,
            shader_model: dxbc::TargetModel::Sm50,
            aimed: Vec::new(),
            aimed_share: AIMED_SHARE,
        }
    }
}

/// The instruction class a row belongs to (its weight in [`Mix`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Float arithmetic (`Kind::AluFloat`).
    Float,
    /// Integer arithmetic (`Kind::AluInt`, `Kind::AluUint`).
    Int,
    /// Bit manipulation (`Kind::Bit`).
    Bit,
    /// Conversions between number types (`Kind::Conversion`).
    Conversion,
    /// Comparisons, and whatever else the table's kinds leave over.
    Compare,
    /// Rows the table flags `MOVE`, whatever their kind.
    Move,
    /// Double-precision rows (`Kind::Double`): pairs of words in `.xy` and `.zw`.
    Double,
}

/// One generatable instruction: derived from the opcode table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The instruction.
    pub opcode: Opcode,
    /// Which [`Mix`] weight draws it.
    pub class: Class,
    /// Destination operands, as the table states them.
    pub dst: u8,
    /// Source operands, as the table states them.
    pub src: u8,
}

/// Every plain register instruction of Shader Model 5.0 and below (the rows single-instruction
/// programs use too, and the double-precision ones), with its class.
pub fn rows() -> Vec<Row> {
    TABLE
        .iter()
        .filter(|i| i.model <= dxbc::opcodes::Model::Sm50D3d111)
        .filter(|i| crate::programs::is_single_alu(i.opcode) || i.kind == Kind::Double)
        .map(|i| Row {
            opcode: i.opcode,
            class: match (i.has(dxbc::opcodes::Flags::MOVE), i.kind) {
                (_, Kind::Double) => Class::Double,
                (true, _) => Class::Move,
                (_, Kind::AluFloat) => Class::Float,
                (_, Kind::AluInt | Kind::AluUint) => Class::Int,
                (_, Kind::Bit) => Class::Bit,
                (_, Kind::Conversion) => Class::Conversion,
                _ => Class::Compare,
            },
            dst: i.dst,
            src: i.src,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use dxbc::opcodes::Flags;

    #[test]
    fn default_knobs_are_within_their_documented_ranges() {
        let k = Knobs::default();
        assert!((1..=8).contains(&k.temps), "temps {}", k.temps);
        assert!(k.statements > 0 && k.depth > 0);
        assert!(!k.stages.is_empty());
        let mut stages = k.stages.clone();
        stages.dedup();
        assert_eq!(
            stages, k.stages,
            "a stage listed twice is drawn twice as often"
        );
        assert!(k.excluded.is_empty());
        assert!(!k.oob_indices, "documented as off by default");
        let m = k.mix;
        let weights = [
            m.float,
            m.int,
            m.bit,
            m.conversion,
            m.compare,
            m.moves,
            m.flow,
            m.memory,
        ];
        assert!(weights.iter().all(|w| *w > 0), "{m:?}");
    }

    #[test]
    fn rows_are_the_single_alu_sm50_rows_of_the_table_with_their_class() {
        let rows = rows();
        let mut opcodes: Vec<u32> = rows.iter().map(|r| r.opcode as u32).collect();
        opcodes.sort();
        opcodes.dedup();
        assert_eq!(opcodes.len(), rows.len(), "an opcode listed twice");
        for r in &rows {
            let info = r.opcode.info();
            assert_eq!(
                crate::programs::is_single_alu(r.opcode),
                info.kind != Kind::Double,
                "{:?}",
                r.opcode
            );
            assert!(!info.has(Flags::DERIVATIVE), "{:?}", r.opcode);
            assert_eq!((r.dst, r.src), (info.dst, info.src), "{:?}", r.opcode);
            assert_eq!(
                r.class == Class::Move,
                info.has(Flags::MOVE) && info.kind != Kind::Double,
                "{:?}",
                r.opcode
            );
        }
        // Every class has rows, so every weight of `Mix` that names one does something.
        for c in [
            Class::Float,
            Class::Int,
            Class::Bit,
            Class::Conversion,
            Class::Compare,
            Class::Move,
            Class::Double,
        ] {
            assert!(rows.iter().any(|r| r.class == c), "no {c:?} rows");
        }
    }
}
