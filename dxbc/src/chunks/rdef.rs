//! RDEF: resource reflection: constant buffers, their variables and types, resource bindings,
//! target, compile flags and creator string (section 3).
//!
//! fxc versions order the tables differently, so no single writer reproduces every RDEF. [`Rdef`]
//! therefore remembers the bytes it was parsed from and re-emits them while its typed value still
//! equals what those bytes decode to; an edited value is written in a canonical layout instead.

use super::bad;
use crate::byteio::{cstr_at, latin1_bytes, pad_ab, put_u32, u16_at, u32_at, u32_of, usize_of};
use crate::container::FourCC;
use crate::error::{DxbcError, Result};

/// Type records nest through member lists; deeper than this is treated as a cycle.
const MAX_TYPE_DEPTH: usize = 32;

/// A resource binding record (`D3D11_SHADER_INPUT_BIND_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceBinding {
    /// The name the shader declares the resource by, e.g. `g_texture`.
    pub name: String,
    /// `D3D_SHADER_INPUT_TYPE`.
    pub input_type: u32,
    /// `D3D_RESOURCE_RETURN_TYPE`.
    pub return_type: u32,
    /// `D3D_SRV_DIMENSION` (not the token stream's numbering).
    pub dimension: u32,
    /// Sample count, structure stride or `0xFFFFFFFF`, depending on the input type.
    pub num_samples: u32,
    /// First register slot the binding occupies (`t#`, `s#`, `cb#`, `u#`).
    pub bind_point: u32,
    /// Number of consecutive slots bound (the array size; 1 for a single resource).
    pub bind_count: u32,
    /// `D3D_SHADER_INPUT_FLAGS`: 1 user-packed, 2 comparison sampler, bits 2..=3 component count - 1.
    pub flags: u32,
    /// SM5.1 only (40-byte records): register space and range id.
    pub space_and_id: Option<(u32, u32)>,
}

/// A type record with its members (`D3D11_SHADER_TYPE_DESC`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Type {
    /// `D3D_SHADER_VARIABLE_CLASS`: 0 scalar, 1 vector, 2/3 row/column-major matrix, 5 struct...
    pub class: u16,
    /// `D3D_SHADER_VARIABLE_TYPE`: 1 bool, 2 int, 3 float, 19 uint, 39 double, objects...
    pub base_type: u16,
    /// Number of rows (1 for scalars and vectors).
    pub rows: u16,
    /// Number of columns (vector or matrix width).
    pub columns: u16,
    /// Array element count, 0 when not an array.
    pub elements: u16,
    /// Struct members in declaration order; empty for non-struct types.
    pub members: Vec<Member>,
    /// SM5 fields at +16..+32, kept raw: their meaning is uncertain (section 3.5) and in practice
    /// they are zero. They are written back unchanged, even in the canonical layout.
    pub sm5_raw: [u32; 4],
    /// SM5 type name (`float4x4`); `None` when the offset is 0 or the target is SM4.
    pub name: Option<String>,
}

/// A struct member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Member name.
    pub name: String,
    /// Member type.
    pub ty: Type,
    /// Byte offset of the member from the start of its struct.
    pub offset: u32,
}

/// A constant-buffer variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Variable name as declared in the source.
    pub name: String,
    /// Byte offset of the variable from the start of its constant buffer.
    pub start_offset: u32,
    /// Size of the variable in bytes.
    pub size: u32,
    /// `D3D_SHADER_VARIABLE_FLAGS`: 1 user-packed, 2 used, 4 interface pointer, 8 interface arg.
    pub flags: u32,
    /// The variable's type record.
    pub ty: Type,
    /// `size` bytes of initial data, when the record has a default-value offset.
    pub default_value: Option<Vec<u8>>,
    /// SM5 fields; SM4 records decode them as `0xFFFFFFFF, 0, 0xFFFFFFFF, 0`.
    pub start_texture: u32,
    /// Number of texture slots the variable uses (SM5).
    pub texture_count: u32,
    /// First sampler slot the variable uses, or `0xFFFFFFFF` for none.
    pub start_sampler: u32,
    /// Number of sampler slots the variable uses.
    pub sampler_count: u32,
}

/// A constant buffer record with its variables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConstantBuffer {
    /// Buffer name (`$Globals` for loose globals).
    pub name: String,
    /// The buffer's variables in record order.
    pub variables: Vec<Variable>,
    /// Size of the buffer in bytes (a multiple of 16).
    pub size: u32,
    /// `D3D_SHADER_CBUFFER_FLAGS`: 1 user-packed (explicit `register()`).
    pub flags: u32,
    /// `D3D_CBUFFER_TYPE`.
    pub cb_type: u32,
}

/// The bytes an [`Rdef`] was parsed from. It is provenance, not part of the value, so it always
/// compares equal: two `Rdef`s are equal when their reflection data is.
#[derive(Debug, Clone, Default)]
struct Original(Option<Vec<u8>>);

impl PartialEq for Original {
    fn eq(&self, _: &Original) -> bool {
        true
    }
}

impl Eq for Original {}

/// A decoded RDEF chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rdef {
    /// Target shader model minor version.
    pub target_minor: u8,
    /// Target shader model major version.
    pub target_major: u8,
    /// `0xFFFF` pixel, `0xFFFE` vertex, `0x4753` GS, `0x4853` HS, `0x4453` DS, `0x4353` CS.
    pub program_type: u16,
    /// The compiler flags fxc was run with (`D3DCOMPILE_*` bits).
    pub compile_flags: u32,
    /// Compiler identification string, e.g. `Microsoft (R) HLSL Shader Compiler 10.1`.
    pub creator: String,
    /// The 8 DWORDs of the SM5 `RD11` extension header (magic, record sizes, interface slots),
    /// present when the target major version is 5 or more.
    pub rd11: Option<[u32; 8]>,
    /// Constant buffer records in table order.
    pub constant_buffers: Vec<ConstantBuffer>,
    /// Resource binding records in table order.
    pub bindings: Vec<ResourceBinding>,
    original: Original,
}

/// Record sizes that depend on the target.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    header: usize,
    binding: usize,
    variable: usize,
    ty: usize,
}

impl Rdef {
    fn sizes(&self) -> Sizes {
        sizes_for(self.target_major, self.rd11.as_ref())
    }
}

fn sizes_for(major: u8, rd11: Option<&[u32; 8]>) -> Sizes {
    match rd11 {
        Some(h) if major >= 5 => Sizes {
            header: 60,
            binding: if h[3] == 40 { 40 } else { 32 },
            variable: 40,
            ty: 36,
        },
        _ => Sizes {
            header: 28,
            binding: 32,
            variable: 24,
            ty: 16,
        },
    }
}

fn err(offset: usize, what: impl Into<String>) -> DxbcError {
    bad(FourCC::RDEF, offset, what)
}

/// Bounds-checked reader over the chunk data.
struct Reader<'a> {
    data: &'a [u8],
    sizes: Sizes,
    /// Type records decoded so far; bounds the work a hostile chunk can cause through shared
    /// sub-types (a small DAG could otherwise expand exponentially).
    type_budget: usize,
}

impl Reader<'_> {
    fn u32(&self, at: usize) -> Result<u32> {
        u32_at(self.data, at).ok_or_else(|| err(at, "field lies outside the chunk"))
    }

    fn u16(&self, at: usize) -> Result<u16> {
        u16_at(self.data, at).ok_or_else(|| err(at, "field lies outside the chunk"))
    }

    fn string(&self, at: usize, field: usize) -> Result<String> {
        cstr_at(self.data, at).ok_or_else(|| err(field, format!("bad string offset {at}")))
    }

    /// Checks that `count` records of `size` bytes at `offset` fit, before anything is allocated.
    fn array(&self, offset: usize, count: usize, size: usize, field: usize) -> Result<()> {
        count
            .checked_mul(size)
            .and_then(|n| n.checked_add(offset))
            .filter(|&end| end <= self.data.len())
            .map(|_| ())
            .ok_or_else(|| err(field, format!("{count} records at {offset} do not fit")))
    }

    fn ty(&mut self, at: usize, depth: usize) -> Result<Type> {
        if depth > MAX_TYPE_DEPTH {
            return Err(err(at, "type records nest too deeply (cycle?)"));
        }
        self.type_budget = self
            .type_budget
            .checked_sub(1)
            .ok_or_else(|| err(at, "too many type records"))?;
        self.array(at, 1, self.sizes.ty, at)?;
        let member_count = usize::from(self.u16(at + 10)?);
        let member_offset = usize_of(self.u32(at + 12)?);
        let mut members = Vec::new();
        if member_count > 0 {
            self.array(member_offset, member_count, 12, at + 12)?;
            members.reserve(member_count);
            for i in 0..member_count {
                let m = member_offset + 12 * i;
                members.push(Member {
                    name: self.string(usize_of(self.u32(m)?), m)?,
                    ty: self.ty(usize_of(self.u32(m + 4)?), depth + 1)?,
                    offset: self.u32(m + 8)?,
                });
            }
        }
        let (sm5_raw, name) = if self.sizes.ty == 36 {
            let raw = [
                self.u32(at + 16)?,
                self.u32(at + 20)?,
                self.u32(at + 24)?,
                self.u32(at + 28)?,
            ];
            let name_offset = usize_of(self.u32(at + 32)?);
            let name = if name_offset == 0 {
                None
            } else {
                Some(self.string(name_offset, at + 32)?)
            };
            (raw, name)
        } else {
            ([0; 4], None)
        };
        Ok(Type {
            class: self.u16(at)?,
            base_type: self.u16(at + 2)?,
            rows: self.u16(at + 4)?,
            columns: self.u16(at + 6)?,
            elements: self.u16(at + 8)?,
            members,
            sm5_raw,
            name,
        })
    }

    fn variable(&mut self, at: usize) -> Result<Variable> {
        let size = self.u32(at + 8)?;
        let default_offset = usize_of(self.u32(at + 20)?);
        let default_value = if default_offset == 0 {
            None
        } else {
            self.array(default_offset, usize_of(size), 1, at + 20)?;
            Some(self.data[default_offset..default_offset + usize_of(size)].to_vec())
        };
        let sm5 = self.sizes.variable == 40;
        Ok(Variable {
            name: self.string(usize_of(self.u32(at)?), at)?,
            start_offset: self.u32(at + 4)?,
            size,
            flags: self.u32(at + 12)?,
            ty: self.ty(usize_of(self.u32(at + 16)?), 0)?,
            default_value,
            start_texture: if sm5 { self.u32(at + 24)? } else { u32::MAX },
            texture_count: if sm5 { self.u32(at + 28)? } else { 0 },
            start_sampler: if sm5 { self.u32(at + 32)? } else { u32::MAX },
            sampler_count: if sm5 { self.u32(at + 36)? } else { 0 },
        })
    }
}

impl Rdef {
    /// Decodes an RDEF chunk's data, following (and checking) every offset.
    pub fn parse(data: &[u8]) -> Result<Rdef> {
        let mut rdef = Rdef::parse_value(data)?;
        rdef.original = Original(Some(data.to_vec()));
        Ok(rdef)
    }

    fn parse_value(data: &[u8]) -> Result<Rdef> {
        let word = |at: usize| u32_at(data, at).ok_or_else(|| err(at, "header is truncated"));
        let target_minor = *data.get(16).ok_or_else(|| err(16, "header is truncated"))?;
        let target_major = *data.get(17).ok_or_else(|| err(17, "header is truncated"))?;
        let rd11 = if target_major >= 5 {
            let mut h = [0u32; 8];
            for (i, w) in h.iter_mut().enumerate() {
                *w = word(28 + 4 * i)?;
            }
            Some(h)
        } else {
            None
        };
        let sizes = sizes_for(target_major, rd11.as_ref());
        // Shared sub-types legitimately expand into several copies, so allow far more type records
        // than fit in the bytes, but keep the total proportional to the input.
        let mut r = Reader {
            data,
            sizes,
            type_budget: data.len().saturating_mul(2) + 4096,
        };
        let cb_count = usize_of(word(0)?);
        let cb_offset = usize_of(word(4)?);
        let binding_count = usize_of(word(8)?);
        let binding_offset = usize_of(word(12)?);

        r.array(binding_offset, binding_count, sizes.binding, 12)?;
        let mut bindings = Vec::with_capacity(binding_count);
        for i in 0..binding_count {
            let at = binding_offset + sizes.binding * i;
            bindings.push(ResourceBinding {
                name: r.string(usize_of(r.u32(at)?), at)?,
                input_type: r.u32(at + 4)?,
                return_type: r.u32(at + 8)?,
                dimension: r.u32(at + 12)?,
                num_samples: r.u32(at + 16)?,
                bind_point: r.u32(at + 20)?,
                bind_count: r.u32(at + 24)?,
                flags: r.u32(at + 28)?,
                space_and_id: if sizes.binding == 40 {
                    Some((r.u32(at + 32)?, r.u32(at + 36)?))
                } else {
                    None
                },
            });
        }

        r.array(cb_offset, cb_count, 24, 4)?;
        let mut constant_buffers = Vec::with_capacity(cb_count);
        for i in 0..cb_count {
            let at = cb_offset + 24 * i;
            let var_count = usize_of(r.u32(at + 4)?);
            let var_offset = usize_of(r.u32(at + 8)?);
            r.array(var_offset, var_count, sizes.variable, at + 8)?;
            let mut variables = Vec::with_capacity(var_count);
            for v in 0..var_count {
                variables.push(r.variable(var_offset + sizes.variable * v)?);
            }
            constant_buffers.push(ConstantBuffer {
                name: r.string(usize_of(r.u32(at)?), at)?,
                variables,
                size: r.u32(at + 12)?,
                flags: r.u32(at + 16)?,
                cb_type: r.u32(at + 20)?,
            });
        }

        Ok(Rdef {
            target_minor,
            target_major,
            program_type: u16_at(data, 18).ok_or_else(|| err(18, "header is truncated"))?,
            compile_flags: word(20)?,
            creator: r.string(usize_of(word(24)?), 24)?,
            rd11,
            constant_buffers,
            bindings,
            original: Original(None),
        })
    }

    /// Encodes the chunk data: the original bytes when this value is unchanged since parsing,
    /// otherwise the canonical layout (see [`Rdef::encode_canonical`]).
    pub fn encode(&self) -> Vec<u8> {
        if let Some(bytes) = &self.original.0
            && Rdef::parse_value(bytes).is_ok_and(|orig| orig == *self)
        {
            return bytes.clone();
        }
        self.encode_canonical()
    }

    /// Forgets the parsed bytes, so [`Rdef::encode`] always writes the canonical layout.
    pub fn forget_original(&mut self) {
        self.original = Original(None);
    }

    /// The canonical layout: header, bindings, constant buffers, each buffer's variables, types
    /// (identical types stored once, members before their parent), default values, strings (each
    /// distinct string once), then `0xAB` padding.
    pub fn encode_canonical(&self) -> Vec<u8> {
        let sizes = self.sizes();
        let var_total: usize = self
            .constant_buffers
            .iter()
            .map(|c| c.variables.len())
            .sum();
        let cb_start = sizes.header + sizes.binding * self.bindings.len();
        let var_start = cb_start + 24 * self.constant_buffers.len();
        let types_start = var_start + sizes.variable * var_total;

        let mut w = Writer {
            sizes,
            types: Vec::new(),
            type_keys: Vec::new(),
            strings: Vec::new(),
        };
        // Lay out the types first (their offsets are needed by the variable records).
        let var_types: Vec<Vec<usize>> = self
            .constant_buffers
            .iter()
            .map(|c| {
                c.variables
                    .iter()
                    .map(|v| w.add_type(&v.ty, types_start))
                    .collect()
            })
            .collect();
        let defaults_start = types_start + w.types.len();
        let mut defaults = Vec::new();
        let mut default_offsets = Vec::new();
        for v in self.constant_buffers.iter().flat_map(|c| &c.variables) {
            default_offsets.push(v.default_value.as_ref().map(|d| {
                let at = defaults_start + defaults.len();
                defaults.extend_from_slice(d);
                at
            }));
        }
        while defaults.len() % 4 != 0 {
            defaults.push(0);
        }
        let strings_start = defaults_start + defaults.len();
        // Type records carry string offsets; patch them now that the string area is placed.
        w.fix_type_strings(types_start, strings_start);

        let mut out = Vec::new();
        put_u32(&mut out, u32_of(self.constant_buffers.len()));
        put_u32(
            &mut out,
            if self.constant_buffers.is_empty() {
                0
            } else {
                u32_of(cb_start)
            },
        );
        put_u32(&mut out, u32_of(self.bindings.len()));
        put_u32(
            &mut out,
            if self.bindings.is_empty() {
                0
            } else {
                u32_of(sizes.header)
            },
        );
        out.push(self.target_minor);
        out.push(self.target_major);
        out.extend_from_slice(&self.program_type.to_le_bytes());
        put_u32(&mut out, self.compile_flags);
        put_u32(&mut out, w.string(&self.creator, strings_start));
        if sizes.header == 60 {
            for &h in self.rd11.iter().flatten() {
                put_u32(&mut out, h);
            }
        }
        for b in &self.bindings {
            put_u32(&mut out, w.string(&b.name, strings_start));
            for v in [
                b.input_type,
                b.return_type,
                b.dimension,
                b.num_samples,
                b.bind_point,
            ] {
                put_u32(&mut out, v);
            }
            put_u32(&mut out, b.bind_count);
            put_u32(&mut out, b.flags);
            if sizes.binding == 40 {
                let (space, id) = b.space_and_id.unwrap_or((0, 0));
                put_u32(&mut out, space);
                put_u32(&mut out, id);
            }
        }
        let mut next_var = var_start;
        for c in &self.constant_buffers {
            put_u32(&mut out, w.string(&c.name, strings_start));
            put_u32(&mut out, u32_of(c.variables.len()));
            put_u32(
                &mut out,
                if c.variables.is_empty() {
                    0
                } else {
                    u32_of(next_var)
                },
            );
            put_u32(&mut out, c.size);
            put_u32(&mut out, c.flags);
            put_u32(&mut out, c.cb_type);
            next_var += sizes.variable * c.variables.len();
        }
        let mut defaults_iter = default_offsets.into_iter();
        for (c, types) in self.constant_buffers.iter().zip(&var_types) {
            for (v, &ty) in c.variables.iter().zip(types) {
                put_u32(&mut out, w.string(&v.name, strings_start));
                put_u32(&mut out, v.start_offset);
                put_u32(&mut out, v.size);
                put_u32(&mut out, v.flags);
                put_u32(&mut out, u32_of(ty));
                put_u32(
                    &mut out,
                    u32_of(defaults_iter.next().flatten().unwrap_or(0)),
                );
                if sizes.variable == 40 {
                    for x in [
                        v.start_texture,
                        v.texture_count,
                        v.start_sampler,
                        v.sampler_count,
                    ] {
                        put_u32(&mut out, x);
                    }
                }
            }
        }
        out.extend_from_slice(&w.types);
        out.extend_from_slice(&defaults);
        out.extend_from_slice(&w.strings);
        pad_ab(&mut out);
        out
    }
}

/// Builds the type and string areas of the canonical layout.
struct Writer {
    sizes: Sizes,
    /// Encoded type and member records; string offsets inside are relative to the string area
    /// until `fix_type_strings` adds its start.
    types: Vec<u8>,
    /// Already-written types with their offsets, for de-duplication.
    type_keys: Vec<(Type, usize)>,
    strings: Vec<u8>,
    // Positions in `types` holding string-area-relative offsets.
}

impl Writer {
    /// Offset of `s` in the final chunk, adding it to the string area the first time.
    fn string(&mut self, s: &str, strings_start: usize) -> u32 {
        u32_of(strings_start + self.string_rel(s))
    }

    fn string_rel(&mut self, s: &str) -> usize {
        let bytes = latin1_bytes(s);
        let mut at = 0;
        while at < self.strings.len() {
            let end = self.strings[at..]
                .iter()
                .position(|&b| b == 0)
                .map_or(self.strings.len(), |p| at + p);
            if self.strings[at..end] == bytes[..] {
                return at;
            }
            at = end + 1;
        }
        let at = self.strings.len();
        self.strings.extend_from_slice(&bytes);
        self.strings.push(0);
        at
    }

    /// Writes `ty` (members first) unless an identical type is already written; returns its
    /// offset in the chunk.
    fn add_type(&mut self, ty: &Type, types_start: usize) -> usize {
        if let Some((_, at)) = self.type_keys.iter().find(|(t, _)| t == ty) {
            return *at;
        }
        let member_types: Vec<usize> = ty
            .members
            .iter()
            .map(|m| self.add_type(&m.ty, types_start))
            .collect();
        let members_at = types_start + self.types.len();
        for (m, &t) in ty.members.iter().zip(&member_types) {
            let name = self.string_rel(&m.name);
            put_u32(&mut self.types, STRING_MARK | u32_of(name));
            put_u32(&mut self.types, u32_of(t));
            put_u32(&mut self.types, m.offset);
        }
        let at = types_start + self.types.len();
        for v in [ty.class, ty.base_type, ty.rows, ty.columns, ty.elements] {
            self.types.extend_from_slice(&v.to_le_bytes());
        }
        self.types.extend_from_slice(
            &u16::try_from(ty.members.len())
                .unwrap_or(u16::MAX)
                .to_le_bytes(),
        );
        put_u32(
            &mut self.types,
            if ty.members.is_empty() {
                0
            } else {
                u32_of(members_at)
            },
        );
        if self.sizes.ty == 36 {
            for v in ty.sm5_raw {
                put_u32(&mut self.types, v);
            }
            let name = match &ty.name {
                Some(n) => STRING_MARK | u32_of(self.string_rel(n)),
                None => 0,
            };
            put_u32(&mut self.types, name);
        }
        self.type_keys.push((ty.clone(), at));
        at
    }

    /// Replaces the marked string-relative offsets in the type area with chunk offsets.
    fn fix_type_strings(&mut self, types_start: usize, strings_start: usize) {
        // Member records are 12 bytes (name at +0); type records have the name at +32 (SM5).
        // Walk the recorded types to find them rather than scanning for the mark.
        let mut fixes = Vec::new();
        for (ty, at) in &self.type_keys {
            let rel = at - types_start;
            if self.sizes.ty == 36 && ty.name.is_some() {
                fixes.push(rel + 32);
            }
            let members_rel = rel - 12 * ty.members.len();
            for i in 0..ty.members.len() {
                fixes.push(members_rel + 12 * i);
            }
        }
        for f in fixes {
            if let Some(v) = u32_at(&self.types, f) {
                let fixed = u32_of(strings_start) + (v & !STRING_MARK);
                self.types[f..f + 4].copy_from_slice(&fixed.to_le_bytes());
            }
        }
    }
}

/// Marks a provisional string-relative offset inside the type area (cleared when fixed).
const STRING_MARK: u32 = 0x8000_0000;

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(base_type: u16) -> Type {
        Type {
            class: 0,
            base_type,
            rows: 1,
            columns: 1,
            elements: 0,
            members: vec![],
            sm5_raw: [0; 4],
            name: Some("float".to_string()),
        }
    }

    fn sample(major: u8) -> Rdef {
        let st = Type {
            class: 5,
            base_type: 0,
            rows: 1,
            columns: 2,
            elements: 0,
            members: vec![
                Member {
                    name: "a".into(),
                    ty: scalar(3),
                    offset: 0,
                },
                Member {
                    name: "b".into(),
                    ty: scalar(3),
                    offset: 4,
                },
            ],
            sm5_raw: [0; 4],
            name: Some("S".into()),
        };
        let var = |name: &str, ty: Type| Variable {
            name: name.into(),
            start_offset: 0,
            size: 8,
            flags: 2,
            ty,
            default_value: Some(vec![1, 2, 3, 4, 5, 6, 7, 8]),
            start_texture: u32::MAX,
            texture_count: 0,
            start_sampler: u32::MAX,
            sampler_count: 0,
        };
        let mut r = Rdef {
            target_minor: 0,
            target_major: major,
            program_type: 0xFFFF,
            compile_flags: 0x100,
            creator: "test".into(),
            rd11: (major >= 5).then_some([0x3131_4452, 60, 24, 32, 40, 36, 12, 0]),
            constant_buffers: vec![ConstantBuffer {
                name: "cb".into(),
                variables: vec![var("s", st), var("f", scalar(3))],
                size: 16,
                flags: 0,
                cb_type: 0,
            }],
            bindings: vec![ResourceBinding {
                name: "cb".into(),
                input_type: 0,
                return_type: 0,
                dimension: 0,
                num_samples: 0,
                bind_point: 0,
                bind_count: 1,
                flags: 0,
                space_and_id: None,
            }],
            original: Original(None),
        };
        if major < 5 {
            let strip = |t: &mut Type| t.name = None;
            for v in &mut r.constant_buffers[0].variables {
                strip(&mut v.ty);
                v.ty.members.iter_mut().for_each(|m| strip(&mut m.ty));
            }
        }
        r
    }

    #[test]
    fn canonical_round_trip() {
        for major in [4, 5] {
            let r = sample(major);
            let bytes = r.encode();
            assert_eq!(bytes.len() % 4, 0);
            let back = Rdef::parse(&bytes).expect("own encoding parses");
            assert_eq!(back, r);
            assert_eq!(back.encode(), bytes);
        }
    }

    #[test]
    fn every_truncation_is_an_error_or_parses() {
        let bytes = sample(5).encode();
        for len in 0..bytes.len() {
            let _ = Rdef::parse(&bytes[..len]);
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xFF;
            if let Ok(r) = Rdef::parse(&b) {
                let _ = r.encode_canonical();
            }
        }
    }

    #[test]
    fn self_referencing_type_is_an_error() {
        let mut bytes = sample(4).encode();
        // Point the first member's type at its own parent struct record.
        let r = Rdef::parse(&bytes).expect("parses");
        assert_eq!(r.constant_buffers[0].variables[0].ty.members.len(), 2);
        let var_at = usize_of(u32_at(&bytes, 28 + 32 + 8).expect("var offset"));
        let ty_at = u32_at(&bytes, var_at + 16).expect("type offset");
        let members_at = usize_of(u32_at(&bytes, usize_of(ty_at) + 12).expect("members"));
        bytes[members_at + 4..members_at + 8].copy_from_slice(&ty_at.to_le_bytes());
        assert!(Rdef::parse(&bytes).is_err());
    }
}
