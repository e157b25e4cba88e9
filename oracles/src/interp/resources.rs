//! What a batch reads and writes besides registers: constant buffers, the buffers and textures
//! behind `t#`/`u#`, samplers, and group-shared memory. Every D3D out-of-bounds rule for these
//! lives here, in one function per access kind.

use std::collections::BTreeMap;

use crate::domain::{Domain, Events, raise};
pub use crate::rules::texel::{TexelFormat, TexelKind};

/// A buffer behind `t#` or `u#`: its bytes as words. The view's kind (raw, structured, typed)
/// comes from the program's declaration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Buffer {
    /// Contents; may be shorter than `size_bytes`, the rest reads as zero.
    pub words: Vec<u32>,
    /// Bytes in the view (`bufinfo`); words past it are out of bounds.
    pub size_bytes: u32,
    /// The element format of a typed view (`R32_UINT` when not given).
    pub format: Option<Format>,
    /// For a typed UAV texture (`RWTexture1D` … `RWTexture3D`): its shape and format; `words`
    /// then hold its texels, and `format` is unused.
    pub texture: Option<UavTexture>,
}

/// The texture behind a typed UAV: the one mip level a UAV views, its texels held as its
/// [`Buffer`]'s words in `format`, one layer (or 3D slice) after another, each row-major. A
/// device is given the same words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UavTexture {
    /// Texels in a row.
    pub width: u32,
    /// Rows (1 for a 1D texture).
    pub height: u32,
    /// Array layers, or a 3D texture's depth; 1 otherwise.
    pub layers: u32,
    /// How shaders address it (never a cube: D3D has no cube UAV).
    pub view: TextureShape,
    /// How texels are stored, read and written.
    pub format: TexelFormat,
}

impl UavTexture {
    /// Texels in the view.
    pub fn texels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.layers.max(1))
    }

    /// The texel a typed load or store addresses with unsigned coordinates `addr` (x; x and
    /// a 1D array's layer; x, y; x, y and a 2D array's layer or a 3D slice), if it is inside
    /// the view: out of range, a load reads 0 with the format's defaults and a store writes
    /// nothing (FS §22.4.8, §22.4.9).
    pub fn index(&self, addr: [u32; 4]) -> Option<u64> {
        let [x, y, z, _] = addr;
        let (y, layer) = match self.view {
            TextureShape::Line => (0, 0),
            TextureShape::LineArray => (0, y),
            TextureShape::Array | TextureShape::Volume => (y, z),
            TextureShape::Plain
            | TextureShape::Cube
            | TextureShape::CubeArray
            | TextureShape::Multisampled => (y, 0),
        };
        if x >= self.width || y >= self.height || layer >= self.layers.max(1) {
            return None;
        }
        let (w, h) = (u64::from(self.width), u64::from(self.height));
        Some((u64::from(layer) * h + u64::from(y)) * w + u64::from(x))
    }

    /// What `resinfo` reads of it at level 0, in `resinfo`'s order: width, then height (a 1D
    /// view has none), then the layers of an array or a 3D texture's depth; 0 past the axes.
    pub fn dimensions(&self) -> [u32; 3] {
        let layers = self.layers.max(1);
        match self.view {
            TextureShape::Line => [self.width, 0, 0],
            TextureShape::LineArray => [self.width, layers, 0],
            TextureShape::Array | TextureShape::Volume => [self.width, self.height, layers],
            TextureShape::Plain
            | TextureShape::Cube
            | TextureShape::CubeArray
            | TextureShape::Multisampled => [self.width, self.height, 0],
        }
    }
}

/// A typed element format: 32-bit channels only (what buffers and UAVs here carry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Format {
    /// Channels present, 1..=4 (32 bits each).
    pub channels: u8,
    /// `_FLOAT` (not `_UINT`/`_SINT`/`_TYPELESS`): a missing alpha is then 1.0 rather than 1.
    pub float: bool,
}

impl Default for Format {
    /// `R32_UINT`, the element format of a typed buffer bound without one.
    fn default() -> Self {
        Format {
            channels: 1,
            float: false,
        }
    }
}

impl Format {
    /// Parse a DXGI name such as `R32G32B32A32_FLOAT`; only 32-bit channels are supported.
    pub fn parse(name: &str) -> Option<Format> {
        let (channels, kind) = match name.split_once('_')? {
            ("R32", k) => (1, k),
            ("R32G32", k) => (2, k),
            ("R32G32B32", k) => (3, k),
            ("R32G32B32A32", k) => (4, k),
            _ => return None,
        };
        let float = match kind {
            "FLOAT" => true,
            "UINT" | "SINT" | "TYPELESS" => false,
            _ => return None,
        };
        Some(Format { channels, float })
    }

    /// Bytes per element.
    pub fn stride(self) -> u32 {
        4 * u32::from(self.channels)
    }

    /// Fill missing channels with D3D's defaults: 0 for colour, 1 (or 1.0) for alpha
    /// (FS §19.1.3.3).
    pub fn expand(self, present: &[u32]) -> [u32; 4] {
        let one = if self.float { 0x3f80_0000 } else { 1 };
        std::array::from_fn(|c| match present.get(c) {
            Some(v) if c < self.channels as usize => *v,
            _ if c == 3 => one,
            _ => 0,
        })
    }
}

/// How a shader sees a [`Texture2d`]: the shape of its `dcl_resource` (dxbc's one enum for it).
pub use dxbc::TextureShape;

/// A 1D, 2D or 3D texture, an array of 1D or 2D textures, or a cube, with its mip chain, as the words it has
/// in memory in its format: the interpreter decodes a texel when it reads one, and a device is
/// given the same words.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture2d {
    /// Width of mip 0 in texels.
    pub width: u32,
    /// Height of mip 0 in texels.
    pub height: u32,
    /// Array layers (1 for a plain 2D texture, 6 for a cube), or a 3D texture's depth at
    /// level 0; 0 reads as 1.
    pub layers: u32,
    /// How shaders address it.
    pub view: TextureShape,
    /// Mip levels; each holds every layer in turn, each layer row-major `width >> m` by
    /// `height >> m` texels of [`TexelFormat::words`] words.
    pub mips: Vec<Vec<u32>>,
    /// How texels are stored and read.
    pub format: TexelFormat,
}

impl Default for Texture2d {
    fn default() -> Self {
        Texture2d {
            width: 0,
            height: 0,
            layers: 1,
            view: TextureShape::Plain,
            mips: Vec::new(),
            format: TexelFormat::Rgba32Float,
        }
    }
}

impl Texture2d {
    /// The array layers, at least 1.
    pub fn layer_count(&self) -> u32 {
        self.layers.max(1)
    }

    /// Whether the view is an array (`Texture2DArray`, `Texture1DArray` or
    /// `TextureCubeArray`).
    pub fn array(&self) -> bool {
        self.view.array()
    }

    /// Whether the view is a `Texture1D` or `Texture1DArray`: one row, addressed by u.
    pub fn line(&self) -> bool {
        matches!(self.view, TextureShape::Line | TextureShape::LineArray)
    }

    /// The address component that holds an array's layer (D3D's: z of a 2D array, y of a 1D
    /// one, w of a cube array, where it selects a cube); `None` for a view without layers to
    /// select.
    pub fn layer_component(&self) -> Option<usize> {
        match self.view {
            TextureShape::Array => Some(2),
            TextureShape::LineArray => Some(1),
            TextureShape::CubeArray => Some(3),
            _ => None,
        }
    }

    /// Whether the view is a `TextureCube` or a `TextureCubeArray` (addressed by a direction).
    pub fn cube(&self) -> bool {
        self.view.cube()
    }

    /// Whether the view is a `Texture2DMS`: one level, its samples as layers.
    pub fn multisampled(&self) -> bool {
        self.view == TextureShape::Multisampled
    }

    /// Whether the view is a `Texture3D`.
    pub fn volume(&self) -> bool {
        self.view == TextureShape::Volume
    }

    /// The layers (or a 3D texture's depth slices) a level holds: a 3D texture's depth halves
    /// per level, at least 1 (FS §5.3.3); array layers do not.
    pub fn level_layers(&self, level: usize) -> u32 {
        if self.volume() {
            (self.layer_count() >> level.min(31)).max(1)
        } else {
            self.layer_count()
        }
    }

    /// A level's size: mip 0's halved `level` times, at least 1 (FS §5.3.3).
    pub fn level_size(&self, level: usize) -> (u32, u32) {
        let m = level.min(31) as u32;
        ((self.width >> m).max(1), (self.height >> m).max(1))
    }

    /// Whether shaders read floats from it (sampling filters them) rather than integers.
    pub fn float(&self) -> bool {
        self.format.kind() == TexelKind::Float
    }

    /// What an out-of-bounds `ld` returns: 0 in present channels, the defaults elsewhere.
    pub fn oob(&self) -> [u32; 4] {
        self.format.out_of_range()
    }

    /// The texel at (x, y) of `layer` in `level`, decoded, if all three are inside the
    /// texture.
    pub fn texel(&self, level: usize, layer: u32, x: u32, y: u32) -> Option<[u32; 4]> {
        Some(self.format.decode(self.stored(level, layer, x, y)?))
    }

    /// The stored words of a texel, if it is inside the texture.
    fn stored(&self, level: usize, layer: u32, x: u32, y: u32) -> Option<&[u32]> {
        let (w, h) = self.level_size(level);
        if x >= w || y >= h || layer >= self.level_layers(level) {
            return None;
        }
        let at = (u64::from(layer) * u64::from(h) + u64::from(y)) * u64::from(w) + u64::from(x);
        let n = self.format.words();
        let start = usize::try_from(at).ok()?.checked_mul(n)?;
        self.mips.get(level)?.get(start..start.checked_add(n)?)
    }
}

/// A sampler's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampler {
    /// Linear filtering; point sampling otherwise.
    pub linear: bool,
    /// wrap, clamp, mirror, border per axis.
    pub address: [Address; 3],
    /// Border colour as raw words, returned for `Address::Border` outside the texture.
    pub border: [u32; 4],
    /// `MinLOD` and `MaxLOD`: the level of detail is clamped to them before the texture's own
    /// levels (FS §7.18.11).
    pub lod_clamp: (f32, f32),
    /// A comparison sampler's function (`D3D11_FILTER_COMPARISON_*` with its
    /// `ComparisonFunc`); `None` for a sampler that reads texels.
    pub compare: Option<Compare>,
    /// `MaxAnisotropy` of an anisotropic filter (with `linear`), 2 to 16; 1 for point and
    /// linear filters. An explicit-LOD sample ignores it (D3D: anisotropic filtering without
    /// derivatives is isotropic); a sample whose LOD comes from derivatives is open.
    pub max_anisotropy: u8,
}

/// A comparison function: whether the reference a shader gives passes against a texel
/// (D3D11_COMPARISON_FUNC: "source" is the reference, "destination" the texel; WebGPU's
/// `GPUCompareFunction` reads the same way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compare {
    /// Never passes.
    Never,
    /// reference < texel.
    Less,
    /// reference == texel.
    Equal,
    /// reference <= texel.
    LessEqual,
    /// reference > texel.
    Greater,
    /// reference != texel.
    NotEqual,
    /// reference >= texel.
    GreaterEqual,
    /// Always passes.
    Always,
}

impl Compare {
    /// Every function, in D3D's numbering order.
    pub const ALL: [Compare; 8] = [
        Compare::Never,
        Compare::Less,
        Compare::Equal,
        Compare::LessEqual,
        Compare::Greater,
        Compare::NotEqual,
        Compare::GreaterEqual,
        Compare::Always,
    ];

    /// The case format's name (and, with `-` for `_`, WebGPU's).
    pub fn name(self) -> &'static str {
        match self {
            Compare::Never => "never",
            Compare::Less => "less",
            Compare::Equal => "equal",
            Compare::LessEqual => "less_equal",
            Compare::Greater => "greater",
            Compare::NotEqual => "not_equal",
            Compare::GreaterEqual => "greater_equal",
            Compare::Always => "always",
        }
    }

    /// The function the case format names `name`.
    pub fn from_name(name: &str) -> Option<Compare> {
        Compare::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether `reference` passes against `texel` (IEEE comparisons: a NaN passes only
    /// `not_equal` and `always`).
    pub fn passes(self, reference: f32, texel: f32) -> bool {
        match self {
            Compare::Never => false,
            Compare::Less => reference < texel,
            Compare::Equal => reference == texel,
            Compare::LessEqual => reference <= texel,
            Compare::Greater => reference > texel,
            Compare::NotEqual => reference != texel,
            Compare::GreaterEqual => reference >= texel,
            Compare::Always => true,
        }
    }
}

/// A sampler address mode: what a coordinate outside [0, 1] maps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Address {
    /// Repeat the texture.
    Wrap,
    /// Clamp to the edge texel.
    Clamp,
    /// Repeat, flipping every other copy.
    Mirror,
    /// Use the sampler's border colour.
    Border,
    /// Mirror once about 0, then clamp (`D3D11_TEXTURE_ADDRESS_MIRROR_ONCE`).
    MirrorOnce,
}

impl Address {
    /// The case format's name of the mode (docs/case-format.md).
    pub fn name(self) -> &'static str {
        match self {
            Address::Wrap => "wrap",
            Address::Clamp => "clamp",
            Address::Mirror => "mirror",
            Address::Border => "border",
            Address::MirrorOnce => "mirror_once",
        }
    }

    /// The mode the case format names `name`.
    pub fn from_name(name: &str) -> Option<Address> {
        [
            Address::Wrap,
            Address::Clamp,
            Address::Mirror,
            Address::Border,
            Address::MirrorOnce,
        ]
        .into_iter()
        .find(|a| a.name() == name)
    }
}

impl Sampler {
    /// The LOD range of a sampler without `MinLOD`/`MaxLOD` (D3D's defaults, -FLT_MAX and
    /// FLT_MAX): only the texture's levels clamp.
    pub const NO_LOD_CLAMP: (f32, f32) = (f32::MIN, f32::MAX);
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler {
            linear: false,
            address: [Address::Clamp; 3],
            border: [0; 4],
            lod_clamp: Sampler::NO_LOD_CLAMP,
            compare: None,
            max_anisotropy: 1,
        }
    }
}

/// An SRV.
#[derive(Debug, Clone, PartialEq)]
pub enum Srv {
    /// A buffer view (raw, structured or typed, per the declaration).
    Buffer(Buffer),
    /// A 2D texture view.
    Texture2d(Texture2d),
}

/// Everything bound for one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resources {
    /// Constant buffers by slot, as words (four per register).
    pub cbs: BTreeMap<u32, Vec<u32>>,
    /// SRVs by `t#` slot.
    pub srvs: BTreeMap<u32, Srv>,
    /// UAVs by `u#` slot; a dispatch updates them in place.
    pub uavs: BTreeMap<u32, Buffer>,
    /// Samplers by `s#` slot.
    pub samplers: BTreeMap<u32, Sampler>,
    /// Hidden counters of append/consume UAVs (`imm_atomic_alloc`/`consume`).
    pub counters: BTreeMap<u32, u32>,
}

/// A constant-buffer read: past the bound data it gives 0 (FS §7.5), as does an empty slot.
pub fn cb_read(cb: Option<&Vec<u32>>, register: u64, component: usize) -> u32 {
    let Some(cb) = cb else { return 0 };
    usize::try_from(register)
        .ok()
        .and_then(|r| r.checked_mul(4))
        .and_then(|w| cb.get(w + component))
        .copied()
        .unwrap_or(0)
}

/// A constant buffer read whose slot is chosen at run time (`cb[r1.w + 0][r0.w + 0]`, in a
/// program with interfaces): a slot a program may name reads as [`cb_read`] does; past them
/// (slot 14 and on, the driver's, [`dxbc::linkage::API_CB_SLOTS`]) D3D leaves the read
/// undefined, and this gives 0 and `false`.
pub fn indexed_cb_read(res: &Resources, slot: u64, register: u64, component: usize) -> (u32, bool) {
    match u32::try_from(slot) {
        Ok(s) if s < dxbc::linkage::API_CB_SLOTS => {
            (cb_read(res.cbs.get(&s), register, component), true)
        }
        _ => (0, false),
    }
}

/// The function table bound to interface slot `slot`: word x of its table row in the
/// class-instance buffer ([`dxbc::linkage::instance_row`]). `None` where the buffer has no
/// such row: no instance is bound there.
pub fn bound_table(res: &Resources, slot: u64) -> Option<u32> {
    let cb = res.cbs.get(&dxbc::CLASS_INSTANCE_CB)?;
    let slot = u32::try_from(slot)
        .ok()
        .filter(|s| *s < dxbc::linkage::MAX_SLOTS)?;
    let (_, row) = dxbc::linkage::instance_row(slot);
    cb.get(row as usize * 4).copied()
}

/// Component `component` of `this[slot]`, the "this" record of the instance bound to interface
/// slot `slot` (x its data's constant buffer, y its first row, z its first texture, w its first
/// sampler): 0 where none is bound.
pub fn this_record(res: &Resources, slot: u64, component: usize) -> u32 {
    match u32::try_from(slot)
        .ok()
        .filter(|s| *s < dxbc::linkage::MAX_SLOTS)
    {
        Some(s) => {
            let (row, _) = dxbc::linkage::instance_row(s);
            cb_read(
                res.cbs.get(&dxbc::CLASS_INSTANCE_CB),
                u64::from(row),
                component,
            )
        }
        None => 0,
    }
}

/// A raw or structured load of the word at `byte`: out of bounds reads 0 (FS §22.4.10, §22.4.12).
pub fn buffer_load(buf: Option<&Buffer>, byte: u64, ev: &mut Events) -> u32 {
    match buf.and_then(|b| in_bounds_word(b, byte)) {
        Some(w) => buf.map_or(0, |b| b.words.get(w).copied().unwrap_or(0)),
        None => {
            raise(ev, Domain::OobRead);
            0
        }
    }
}

/// A raw or structured store of one word: out of bounds is dropped (FS §22.4.11, §22.4.13).
pub fn buffer_store(buf: Option<&mut Buffer>, byte: u64, value: u32, ev: &mut Events) {
    let Some(b) = buf else {
        raise(ev, Domain::OobWrite);
        return;
    };
    match in_bounds_word(b, byte) {
        Some(w) => {
            if b.words.len() <= w {
                b.words.resize(w + 1, 0);
            }
            b.words[w] = value;
        }
        None => raise(ev, Domain::OobWrite),
    }
}

/// The word index of `byte` when the whole word lies inside the view.
fn in_bounds_word(b: &Buffer, byte: u64) -> Option<usize> {
    (byte.checked_add(4)? <= u64::from(b.size_bytes)).then_some((byte / 4) as usize)
}

/// Group-shared memory of one thread group: raw (`dcl_tgsm_raw`) or structured, as words.
#[derive(Debug, Clone, Default)]
pub struct Tgsm {
    /// Regions by `g#` slot.
    pub regions: BTreeMap<u32, Buffer>,
    /// A store or atomic went past the end of a region: D3D leaves all of the group's TGSM
    /// undefined from then on.
    pub spoiled: bool,
}
