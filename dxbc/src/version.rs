//! Which stage a program runs in and at which shader model: the version token (word 0).

use crate::limits::Limit;

/// Which pipeline stage a program runs in (version token bits 16..=31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Pixel shader (`ps_*`), program type 0.
    Pixel = 0,
    /// Vertex shader (`vs_*`), program type 1.
    Vertex = 1,
    /// Geometry shader (`gs_*`), program type 2.
    Geometry = 2,
    /// Hull shader (`hs_*`, SM5 tessellation control), program type 3.
    Hull = 3,
    /// Domain shader (`ds_*`, SM5 tessellation evaluation), program type 4.
    Domain = 4,
    /// Compute shader (`cs_*`), program type 5.
    Compute = 5,
}

impl Stage {
    /// The output-register limit of the stage: 8 render targets for pixel shaders, 32
    /// elsewhere. (The stage knows its limit, so `limits` need not know stages.)
    pub const fn output_registers(self) -> Limit {
        match self {
            Stage::Pixel => Limit::PixelOutputRegisters,
            _ => Limit::OutputRegisters,
        }
    }

    /// The stage for a version token's program-type field, or `None` for a value above 5.
    pub fn from_number(n: u32) -> Option<Stage> {
        Some(match n {
            0 => Stage::Pixel,
            1 => Stage::Vertex,
            2 => Stage::Geometry,
            3 => Stage::Hull,
            4 => Stage::Domain,
            5 => Stage::Compute,
            _ => return None,
        })
    }

    /// The two-letter prefix of the profile name (`ps`, `vs`, ...).
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
        }
    }

    /// The stage for a profile prefix such as `ps` (case-insensitive), or `None`.
    pub fn from_prefix(p: &str) -> Option<Stage> {
        (0..=5)
            .filter_map(Stage::from_number)
            .find(|s| s.prefix().eq_ignore_ascii_case(p))
    }
}

/// Shader model and stage, e.g. `ps_5_0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    /// The pipeline stage (version token bits 16..=31).
    pub stage: Stage,
    /// Shader model major version (version token bits 4..=7).
    pub major: u8,
    /// Shader model minor version (version token bits 0..=3).
    pub minor: u8,
}

impl Version {
    /// A version for `stage` at shader model `major.minor`.
    pub fn new(stage: Stage, major: u8, minor: u8) -> Version {
        Version {
            stage,
            major,
            minor,
        }
    }

    /// SM5.1 adds a range-id index to resource operands and extra declaration DWORDs.
    pub fn is_sm51(self) -> bool {
        self.at_least(5, 1)
    }

    /// Whether this shader model is `major.minor` or later (the stage is ignored).
    pub fn at_least(self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl Version {
    /// The name (`ps_5_0`) appended to `out`. Without the formatting machinery: the translator
    /// writes it into every module's header, where `write!` was a measurable part of lowering
    /// a small program.
    pub fn push_name(&self, out: &mut String) {
        // A `String` takes every write.
        let _ = self.write_name(out);
    }

    /// The name written piece by piece: what [`Version::push_name`] and `Display` both spell.
    fn write_name(&self, out: &mut impl std::fmt::Write) -> std::fmt::Result {
        out.write_str(self.stage.prefix())?;
        for n in [self.major, self.minor] {
            out.write_char('_')?;
            if n >= 100 {
                out.write_char(char::from(b'0' + n / 100))?;
            }
            if n >= 10 {
                out.write_char(char::from(b'0' + n / 10 % 10))?;
            }
            out.write_char(char::from(b'0' + n % 10))?;
        }
        Ok(())
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.write_name(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name spells both numbers in decimal, past one digit too (a `Version` is not only
    /// what the decoder accepts).
    #[test]
    fn names_spell_stage_and_model() {
        for (v, name) in [
            (Version::new(Stage::Pixel, 5, 0), "ps_5_0"),
            (Version::new(Stage::Compute, 4, 1), "cs_4_1"),
            (Version::new(Stage::Vertex, 10, 255), "vs_10_255"),
        ] {
            assert_eq!(v.to_string(), name);
            let mut out = String::from("> ");
            v.push_name(&mut out);
            assert_eq!(out, format!("> {name}"));
        }
    }
}
