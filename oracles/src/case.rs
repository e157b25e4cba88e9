//! The `dxdiff-case/1` format (docs/case-format.md in the shared docs): one program and its runs,
//! with inputs and optional expected outputs. Words are raw bit patterns written as `"0x…"`
//! strings and never pass through a host float, so NaN payloads and signed zeros survive.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The `format` string every case file carries; any other value is refused.
pub const FORMAT: &str = "dxdiff-case/1";

/// A 32-bit word, serialised as `"0x%08x"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Word(pub u32);

impl Serialize for Word {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("0x{:08x}", self.0))
    }
}

impl<'de> Deserialize<'de> for Word {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Word, D::Error> {
        let s = String::deserialize(d)?;
        let hex = s
            .strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "word `{s}` is not 0x-prefixed hex (words are strings such as \"0x3f800000\", 1 to 8 hex digits)"
                ))
            })?;
        // `from_str_radix` takes a leading `+`, so "0x+1" would read as 1: digits only.
        if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(serde::de::Error::custom(format!(
                "word `{s}` is not a 32-bit hex value (1 to 8 hex digits after `0x`)"
            )));
        }
        u32::from_str_radix(hex, 16).map(Word).map_err(|_| {
            serde::de::Error::custom(format!(
                "word `{s}` is not a 32-bit hex value (1 to 8 hex digits after `0x`)"
            ))
        })
    }
}

/// The raw bits of case-file words.
pub fn words(w: &[Word]) -> Vec<u32> {
    w.iter().map(|w| w.0).collect()
}

/// One case file: a program (its container) and the runs made of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// The case's name, for reports.
    pub name: String,
    /// The profile, e.g. `ps_5_0`; informational, the container's own version is what runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shader_model: Option<String>,
    /// The whole container, lower-case hex.
    pub dxbc: String,
    /// The program's source, informational and never compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_text: Option<String>,
    /// The kind of `source_text`: `hlsl` or `asm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_text_kind: Option<String>,
    /// The catalog entries the translation that produced the case relied on (its
    /// `adaptations`), when a translation did: what a difference may be adapted by when the
    /// case is replayed without that translation (`--executor interp`). Empty for a case
    /// written by hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<String>,
    /// The runs, each with its own inputs and expectations.
    pub runs: Vec<Run>,
}

/// One run of the program: its inputs and, optionally, the outputs expected of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Unique within the file.
    pub id: String,
    /// Inputs by register or slot key (`cbN`, `vN`, `uN`, `tN`, `sN`); anything left out is zero.
    #[serde(default)]
    pub inputs: BTreeMap<String, Input>,
    /// Compute only: thread-group counts `[x, y, z]`; `None` means `[1, 1, 1]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispatch: Option<[u32; 3]>,
    /// Pixel/vertex only: one input-register map per invocation, to run several in one run.
    /// A pixel program that takes derivatives runs them four to a 2×2 quad (invocation
    /// `i` at x = `i & 1`, y = `i >> 1`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invocations: Option<Vec<BTreeMap<String, Vec<Word>>>>,
    /// With `invocations`: which invocation's outputs and discard `expect` addresses (0 when
    /// absent). A dxdiff extension: a quad's counterexample names the pixel that differed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_invocation: Option<usize>,
    /// Expected outputs by `oN`, `uN` or `discarded`; `None` makes the run differential-only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<BTreeMap<String, Expect>>,
    /// Flag spellings as written; ask [`Run::has`] rather than comparing strings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// Markers the original test suite put on the row; informational, kept verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upstream_flags: Option<serde_json::Value>,
    /// Where the run came from; informational.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A run flag dxdiff acts on. `flags` stays a list of strings in the file (flags dxdiff does
/// not know are kept and ignored); code asks [`Run::has`] instead of comparing spellings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunFlag {
    /// The run needs double precision, which the GPU executor does not run.
    RequiresDouble,
}

impl RunFlag {
    /// The spelling in a case file's `flags`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RunFlag::RequiresDouble => "requires_double",
        }
    }
}

impl std::fmt::Display for RunFlag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Run {
    /// A run named `id` with no inputs (every register zero), no expectations and no flags.
    pub fn new(id: impl Into<String>) -> Run {
        Run {
            id: id.into(),
            inputs: BTreeMap::new(),
            dispatch: None,
            invocations: None,
            expect_invocation: None,
            expect: None,
            flags: Vec::new(),
            upstream_flags: None,
            source: None,
        }
    }

    /// Whether the run carries `flag`.
    pub fn has(&self, flag: RunFlag) -> bool {
        self.flags.iter().any(|f| f == flag.as_str())
    }
}

/// One entry of `inputs`, told apart by its JSON shape ([`Input::deserialize`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Input {
    /// Plain words: a constant buffer (`cbN`, four per register) or an input register (`vN`).
    Words(Vec<Word>),
    /// A 2D texture SRV (`tN`).
    Texture {
        /// The texture, under the `texture2d` key.
        texture2d: TextureDesc,
    },
    /// A sampler (`sN`).
    Sampler(SamplerDesc),
    /// A buffer: a UAV's initial contents (`uN`) or a buffer SRV (`tN`).
    Buffer(BufferDesc),
}

/// Read a JSON value as `T`, an error naming `what` it was taken for.
fn shaped<'de, T: serde::de::DeserializeOwned, D: Deserializer<'de>>(
    v: serde_json::Value,
    what: &str,
) -> Result<T, D::Error> {
    serde_json::from_value(v).map_err(|e| serde::de::Error::custom(format!("{what}: {e}")))
}

/// Chosen by shape, not by trying each variant in turn: serde's untagged enums drop the
/// variants' own errors ("data did not match any variant"), so a bad word deep in an input
/// would not be named.
impl<'de> Deserialize<'de> for Input {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Input, D::Error> {
        use serde_json::Value;
        let v = Value::deserialize(d)?;
        match &v {
            Value::Array(_) => shaped::<_, D>(v, "a list of words").map(Input::Words),
            Value::Object(m) if m.contains_key("texture2d") => {
                shaped::<TextureKey, D>(v, "a texture").map(|t| Input::Texture {
                    texture2d: t.texture2d,
                })
            }
            Value::Object(m) if m.contains_key("size_bytes") => {
                shaped::<_, D>(v, "a buffer").map(Input::Buffer)
            }
            Value::Object(m) if m.contains_key("filter") => {
                shaped::<_, D>(v, "a sampler").map(Input::Sampler)
            }
            _ => Err(serde::de::Error::custom(
                "an input is a list of words (`[\"0x3f800000\", …]`), a buffer (`{\"size_bytes\": N, \"words\": […]}`), a texture (`{\"texture2d\": …}`) or a sampler (`{\"filter\": …}`)",
            )),
        }
    }
}

/// A texture input's `texture2d` object, read through [`shaped`].
#[derive(Deserialize)]
struct TextureKey {
    texture2d: TextureDesc,
}

/// A buffer input: its size and the words that fill its start (the rest is zero).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BufferDesc {
    /// Size in bytes, at most D3D11's buffer limit.
    pub size_bytes: u32,
    /// Initial contents from byte 0; the rest of the buffer is zero.
    #[serde(default)]
    pub words: Vec<Word>,
    /// DXGI format name (e.g. `R32_UINT`), for typed buffers only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// A UAV's hidden counter (`imm_atomic_alloc`/`consume`) at the start: the initial count
    /// an application passes with the view. 0 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<Word>,
}

/// A 1D, 2D or 3D texture, 1D or 2D texture array, or cube input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextureDesc {
    /// Width of mip 0 in texels, 1 up to D3D11's 2D-texture dimension limit.
    pub width: u32,
    /// Height of mip 0 in texels, 1 up to D3D11's 2D-texture dimension limit.
    pub height: u32,
    /// DXGI format name, e.g. `R32G32B32A32_FLOAT`.
    pub format: String,
    /// Texel words per mip level, mip 0 first; each level holds every layer in turn, each
    /// layer row-major.
    pub mips: Vec<Vec<Word>>,
    /// For a `Texture2DArray` view: its layers; with `cube`, a `TextureCubeArray`'s cubes.
    /// Absent for a plain 2D texture and a cube.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layers: Option<u32>,
    /// For a `TextureCube` view: true, and `mips` hold six square faces per level, as layers in
    /// D3D's order (+X, −X, +Y, −Y, +Z, −Z).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cube: bool,
    /// For a `Texture3D` view: its depth at level 0, halving per level like the width and
    /// height; `mips` hold each level's depth slices in turn. Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// For a `Texture1D` view (or, with `layers`, a `Texture1DArray`): true, and `height` is 1.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub texture1d: bool,
    /// For a `Texture2DMS` view: its samples per texel (2 to 32); `mips` then holds one level,
    /// each sample's plane in turn, row-major.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
}

/// A sampler input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplerDesc {
    /// `point` or `linear`.
    pub filter: String,
    /// Address mode per coordinate: `wrap`, `clamp`, `mirror` or `border`.
    #[serde(default)]
    pub address: Vec<String>,
    /// The four border-colour words, for `border` addressing.
    #[serde(default)]
    pub border: Vec<Word>,
    /// `MinLOD`: the smallest level of detail a sample takes (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_lod: Option<f32>,
    /// `MaxLOD`: the largest level of detail a sample takes (default: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lod: Option<f32>,
    /// A comparison sampler's function: `never`, `less`, `equal`, `less_equal`, `greater`,
    /// `not_equal`, `greater_equal` or `always` (default: none, a sampler that reads texels).
    /// A dxdiff extension, for `sample_c`, `sample_c_lz` and `gather4_c`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<String>,
    /// With the filter `anisotropic` (a dxdiff extension): `MaxAnisotropy`, 2 to 16
    /// (default 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_anisotropy: Option<u8>,
}

/// What one `expect` entry asks for, told apart by its JSON shape: a boolean or an object.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Expect {
    /// For `discarded` (pixel only): whether the invocation must have been discarded.
    Discarded(bool),
    /// For `oN` or `uN`: words and how to compare them.
    Words(WordsExpect),
}

impl<'de> Deserialize<'de> for Expect {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Expect, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match v {
            serde_json::Value::Bool(b) => Ok(Expect::Discarded(b)),
            v @ serde_json::Value::Object(_) => {
                shaped::<_, D>(v, "expected words").map(Expect::Words)
            }
            _ => Err(serde::de::Error::custom(
                "an expectation is `true`/`false` (for `discarded`) or `{\"words\": […], \"compare\": \"bits\"}`",
            )),
        }
    }
}

/// Expected words for an output register or UAV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WordsExpect {
    /// The expected words; for a UAV only the first `words.len()` are compared.
    pub words: Vec<Word>,
    /// How each word is compared.
    pub compare: Compare,
    /// For [`Compare::Ulp`]: the largest [`ulp_distance`] that passes; `None` means 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_ulp: Option<u32>,
}

/// How an expected word is compared with the actual one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compare {
    /// Bit-for-bit equality.
    Bits,
    /// Within `max_ulp` by [`ulp_distance`] (so +0 equals -0).
    Ulp,
}

/// A pixel program's special registers, which case files key by their fxc names
/// ([`dxbc::OperandType::name`]): each stands for the `v#`/`o#` register
/// [`dxbc::OperandType::special_register`] gives it.
const SPECIAL: [dxbc::OperandType; 3] = [
    dxbc::OperandType::InputCoverageMask,
    dxbc::OperandType::OutputDepth,
    dxbc::OperandType::OutputCoverageMask,
];

/// The key of register `reg` of the `v` or `o` file (`prefix`): `v3`, or a special register's
/// fxc name (`vCoverage`, `oDepth`, `oMask`).
pub fn register_key(prefix: &str, reg: u32) -> String {
    SPECIAL
        .iter()
        .find(|ty| ty.name().starts_with(prefix) && ty.special_register() == Some(reg))
        .map_or_else(|| format!("{prefix}{reg}"), |ty| ty.name().to_string())
}

/// The register a key of the `prefix` file names: `cb0` → 0, `v3` → 3, `oDepth` → 32.
pub fn register_of(key: &str, prefix: &str) -> Option<u32> {
    if let Some(ty) = SPECIAL
        .iter()
        .find(|ty| ty.name() == key && key.starts_with(prefix))
    {
        return ty.special_register();
    }
    key.strip_prefix(prefix)?.parse().ok()
}

/// ULP distance as the case format defines it: each word read as i32, a negative `x` mapped to
/// `INT_MIN - x`, the difference taken in 64 bits. So +0 and -0 are 0 apart and +inf is 1 ULP
/// from FLT_MAX.
pub fn ulp_distance(a: u32, b: u32) -> u64 {
    let key = |w: u32| {
        let x = i64::from(w as i32);
        if x < 0 { i64::from(i32::MIN) - x } else { x }
    };
    (key(a) - key(b)).unsigned_abs()
}

impl WordsExpect {
    /// Whether `actual` (at least as long as the expectation) satisfies it; the first word that
    /// does not, with its index.
    pub fn check(&self, actual: &[u32]) -> Result<(), (usize, u32, u32)> {
        for (i, want) in self.words.iter().enumerate() {
            let got = actual.get(i).copied().unwrap_or(0);
            let ok = match self.compare {
                Compare::Bits => got == want.0,
                Compare::Ulp => ulp_distance(got, want.0) <= u64::from(self.max_ulp.unwrap_or(0)),
            };
            if !ok {
                return Err((i, want.0, got));
            }
        }
        Ok(())
    }
}

impl Word {
    /// Raw words as case-file words.
    pub fn list(words: &[u32]) -> Vec<Word> {
        words.iter().map(|w| Word(*w)).collect()
    }
}

impl Expect {
    /// An expectation that every word equals these bits.
    pub fn bits(words: &[u32]) -> Expect {
        Expect::Words(WordsExpect {
            words: Word::list(words),
            compare: Compare::Bits,
            max_ulp: None,
        })
    }
}

impl CaseFile {
    /// A case of one program (its container) and one run.
    pub fn single(name: &str, blob: &[u8], run: Run) -> CaseFile {
        CaseFile {
            format: FORMAT.into(),
            name: name.into(),
            shader_model: None,
            dxbc: blob.iter().map(|b| format!("{b:02x}")).collect(),
            source_text: None,
            source_text_kind: None,
            claims: Vec::new(),
            runs: vec![run],
        }
    }

    /// Parse a case file, refusing another `format` and numbers beyond D3D11's limits.
    pub fn parse(text: &str) -> Result<CaseFile, String> {
        let case: CaseFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if case.format != FORMAT {
            return Err(format!("format is `{}`, expected `{FORMAT}`", case.format));
        }
        case.check()?;
        Ok(case)
    }

    /// Check every number that sizes an allocation or names a slot against D3D11's limits
    /// (`dxbc::limits`), so nothing downstream allocates by an unchecked number from the file.
    /// The error names the JSON path, the value and the limit.
    pub fn check(&self) -> Result<(), String> {
        use dxbc::limits::Limit;
        let within = |path: &str, value: u64, lo: u64, limit: Limit| -> Result<(), String> {
            let hi = u64::from(limit.value());
            if (lo..=hi).contains(&value) {
                Ok(())
            } else {
                Err(format!(
                    "[case.limit] {path}: {value} is outside {lo}..={hi} ({:?}: {})",
                    limit,
                    limit.info().source
                ))
            }
        };
        // A register or slot key: its number must name one of D3D11's slots. Keys of other
        // shapes are left to the reader that binds them (which skips the run, naming the key).
        let slot = |path: &str, key: &str| -> Result<(), String> {
            // `cb14` is the class-instance buffer, past the program's slots on purpose.
            if key == format!("cb{}", dxbc::CLASS_INSTANCE_CB) {
                return Ok(());
            }
            let Some((prefix, limit)) = [
                ("cb", Limit::ConstantBuffers),
                ("v", Limit::InputRegisters),
                ("u", Limit::UnorderedAccessViews),
                ("t", Limit::ShaderResources),
                ("s", Limit::Samplers),
                ("o", Limit::OutputRegisters),
            ]
            .into_iter()
            .find(|(p, _)| {
                key.strip_prefix(p)
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            }) else {
                return Ok(());
            };
            let n: u64 = key[prefix.len()..].parse().unwrap_or(u64::MAX);
            within(path, n.saturating_add(1), 1, limit)
        };
        for (r, run) in self.runs.iter().enumerate() {
            for (key, input) in &run.inputs {
                let path = format!("runs[{r}].inputs.{key}");
                slot(&path, key)?;
                match input {
                    Input::Buffer(b) => within(
                        &format!("{path}.size_bytes"),
                        b.size_bytes.into(),
                        0,
                        Limit::BufferBytes,
                    )?,
                    Input::Texture { texture2d: t } => {
                        // A 3D texture's three axes have their own, smaller limit.
                        let side = if t.depth.is_some() {
                            Limit::Texture3dDimension
                        } else {
                            Limit::Texture2dDimension
                        };
                        within(&format!("{path}.width"), t.width.into(), 1, side)?;
                        within(&format!("{path}.height"), t.height.into(), 1, side)?;
                        if let Some(depth) = t.depth {
                            within(&format!("{path}.depth"), depth.into(), 1, side)?;
                        }
                        if let Some(layers) = t.layers {
                            within(
                                &format!("{path}.layers"),
                                layers.into(),
                                1,
                                Limit::Texture2dArrayLayers,
                            )?;
                        }
                    }
                    Input::Words(_) | Input::Sampler(_) => {}
                }
            }
            for (i, regs) in run.invocations.iter().flatten().enumerate() {
                for key in regs.keys() {
                    slot(&format!("runs[{r}].invocations[{i}].{key}"), key)?;
                }
            }
            if let Some(i) = run.expect_invocation {
                let n = run.invocations.as_ref().map_or(0, Vec::len);
                if i >= n {
                    return Err(format!(
                        "runs[{r}].expect_invocation: {i}, but the run has {n} invocations"
                    ));
                }
            }
            for (d, n) in run.dispatch.iter().flatten().enumerate() {
                within(
                    &format!("runs[{r}].dispatch[{d}]"),
                    (*n).into(),
                    0,
                    Limit::DispatchGroupsPerDimension,
                )?;
            }
        }
        Ok(())
    }

    /// The container bytes.
    pub fn blob(&self) -> Result<Vec<u8>, String> {
        decode_hex(&self.dxbc).map_err(|why| format!("`dxbc` has {why}"))
    }
}

/// Bytes from hex digits, two a byte, as case files and the `serve:` protocol carry containers.
/// Why not, where the text is not that: "an odd number of hex digits" or "a non-hex digit at
/// character N".
pub fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    let s = text.as_bytes();
    if !s.len().is_multiple_of(2) {
        return Err("an odd number of hex digits".into());
    }
    s.chunks(2)
        .enumerate()
        .map(|(i, p)| {
            let d = |b: u8| (b as char).to_digit(16);
            match (d(p[0]), d(p[1])) {
                (Some(h), Some(l)) => Ok((h * 16 + l) as u8),
                _ => Err(format!("a non-hex digit at character {}", 2 * i)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_registers_have_fxc_keys_both_ways() {
        for (prefix, reg, key) in [
            ("v", 3, "v3"),
            ("v", 32, "vCoverage"),
            ("o", 32, "oDepth"),
            ("o", 33, "oMask"),
        ] {
            assert_eq!(register_key(prefix, reg), key);
            assert_eq!(register_of(key, prefix), Some(reg));
        }
        assert_eq!(register_of("oDepth", "v"), None);
    }

    #[test]
    fn numbers_beyond_d3d11_limits_are_refused_with_their_path() {
        let case = |inputs: &str| {
            format!(
                r#"{{"format": "dxdiff-case/1", "name": "n", "dxbc": "", "runs": [{{"id": "a", "inputs": {inputs}}}]}}"#
            )
        };
        assert!(CaseFile::parse(&case(r#"{"v31": ["0x1"]}"#)).is_ok());
        let far = CaseFile::parse(&case(r#"{"v4294967295": ["0x1"]}"#)).expect_err("refused");
        assert!(far.contains("runs[0].inputs.v4294967295"), "{far}");
        assert!(far.contains("InputRegisters"), "{far}");
        let huge =
            CaseFile::parse(&case(r#"{"u0": {"size_bytes": 4294967295}}"#)).expect_err("refused");
        assert!(huge.contains("runs[0].inputs.u0.size_bytes"), "{huge}");
        assert!(CaseFile::parse(&case(r#"{"cb15": ["0x1"]}"#)).is_err());
        // Slot 14 is the class-instance buffer (`dxbc::CLASS_INSTANCE_CB`).
        assert!(CaseFile::parse(&case(r#"{"cb14": ["0x1"]}"#)).is_ok());
        assert!(CaseFile::parse(&case(r#"{"cb13": ["0x1"]}"#)).is_ok());
        // A key of another shape is the binder's to refuse, per run.
        assert!(CaseFile::parse(&case(r#"{"zz": ["0x1"]}"#)).is_ok());
        let layers = CaseFile::parse(&case(
            r#"{"t0": {"texture2d": {"width": 1, "height": 1, "format": "R32_FLOAT", "mips": [[]], "layers": 4096}}}"#,
        ))
        .expect_err("refused");
        assert!(layers.contains("runs[0].inputs.t0.layers"), "{layers}");
        assert!(layers.contains("Texture2dArrayLayers"), "{layers}");
        let wide = CaseFile::parse(&case(
            r#"{"t0": {"texture2d": {"width": 4096, "height": 1, "format": "R32_FLOAT", "mips": [[]], "depth": 1}}}"#,
        ))
        .expect_err("refused");
        assert!(wide.contains("Texture3dDimension"), "{wide}");
    }

    #[test]
    fn expect_invocation_must_name_one_of_the_invocations() {
        let case = |extra: &str| {
            format!(
                r#"{{"format": "dxdiff-case/1", "name": "n", "dxbc": "", "runs": [{{"id": "a", "invocations": [{{}}, {{}}]{extra}}}]}}"#
            )
        };
        assert!(CaseFile::parse(&case(r#", "expect_invocation": 1"#)).is_ok());
        let past = CaseFile::parse(&case(r#", "expect_invocation": 2"#)).expect_err("refused");
        assert!(past.contains("runs[0].expect_invocation"), "{past}");
        let json =
            serde_json::to_value(CaseFile::parse(&case("")).expect("parses")).expect("serializes");
        assert!(json["runs"][0].get("expect_invocation").is_none());
    }

    #[test]
    fn flags_are_typed_and_keep_their_spelling() {
        let text = r#"{"format": "dxdiff-case/1", "name": "n", "dxbc": "", "runs": [
            {"id": "a", "flags": ["requires_double", "something_else"]}, {"id": "b"}]}"#;
        let case = CaseFile::parse(text).expect("parses");
        assert!(case.runs[0].has(RunFlag::RequiresDouble));
        assert!(!case.runs[1].has(RunFlag::RequiresDouble));
        let json = serde_json::to_value(&case).expect("serializes");
        assert_eq!(
            json["runs"][0]["flags"],
            serde_json::json!(["requires_double", "something_else"])
        );
        assert!(json["runs"][1].get("flags").is_none());
    }

    #[test]
    fn ulp_distance_follows_the_case_format() {
        assert_eq!(ulp_distance(0x0000_0000, 0x8000_0000), 0);
        assert_eq!(ulp_distance(0x7f80_0000, 0x7f7f_ffff), 1);
        assert_eq!(ulp_distance(0x3f80_0000, 0x3f80_0002), 2);
        assert_eq!(ulp_distance(0x0000_0001, 0x8000_0001), 2);
    }

    #[test]
    fn a_word_is_hex_digits_only() {
        for bad in [
            "\"0x+1\"",
            "\"0x\"",
            "\"0x-1\"",
            "\"0x 1\"",
            "\"0x100000000\"",
        ] {
            assert!(serde_json::from_str::<Word>(bad).is_err(), "{bad}");
        }
        assert_eq!(
            serde_json::from_str::<Word>("\"0XfF\"").ok(),
            Some(Word(0xff))
        );
    }

    #[test]
    fn a_bad_word_or_input_is_named_with_the_forms_that_are_accepted() {
        let input = |json: &str| {
            serde_json::from_str::<Input>(json)
                .expect_err("refused")
                .to_string()
        };
        let e = input(r#"["0x1", "2"]"#);
        assert!(
            e.contains("a list of words") && e.contains("word `2`") && e.contains("0x3f800000"),
            "{e}"
        );
        let e = input(r#"["0x123456789"]"#);
        assert!(e.contains("1 to 8 hex digits"), "{e}");
        let e = input(r#"{"size_bytes": 16, "words": ["zz"]}"#);
        assert!(e.contains("a buffer") && e.contains("word `zz`"), "{e}");
        let e = input("7");
        assert!(e.contains("an input is a list of words"), "{e}");
        assert_eq!(
            serde_json::from_str::<Input>(r#"["0x1", "0xFFFFFFFF"]"#).expect("words"),
            Input::Words(vec![Word(1), Word(u32::MAX)])
        );
        let e = serde_json::from_str::<Expect>(r#"{"words": ["1"], "compare": "bits"}"#)
            .expect_err("refused")
            .to_string();
        assert!(
            e.contains("expected words") && e.contains("word `1`"),
            "{e}"
        );
    }

    #[test]
    fn words_keep_their_bits() {
        let w: Vec<Word> = serde_json::from_str(r#"["0x7fc00001", "0x80000000"]"#).expect("parses");
        assert_eq!(words(&w), vec![0x7fc0_0001, 0x8000_0000]);
        assert_eq!(
            serde_json::to_string(&w).expect("writes"),
            r#"["0x7fc00001","0x80000000"]"#
        );
        assert!(serde_json::from_str::<Word>(r#""12""#).is_err());
    }
}
