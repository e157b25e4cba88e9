//! Declaration lines (dxbc-format.md §6.5) -> [`Instruction`]s; the inverse of the
//! disassembler's declaration printer, using the same spelling tables (`names`).

use crate::asm_text::{P, Role, parse_operand, parse_return_types, parse_u32, split_top, syntax};
use crate::ir::*;
use crate::names::{self, value};
use crate::numfmt::parse_imm;
use crate::opcodes::{Num, Opcode};

fn need<T>(v: Option<T>, what: &str) -> P<T> {
    v.ok_or_else(|| syntax(what))
}

fn operand(text: &str, version: Version) -> P<Operand> {
    parse_operand(text, Num::Reg, Role::Decl, version)
}

/// `space=N` of SM5.1 declarations.
fn space(args: &[&str], at: usize, version: Version) -> P<Option<u32>> {
    if !version.is_sm51() {
        if args.len() > at {
            return Err(syntax("unexpected arguments after the declaration"));
        }
        return Ok(None);
    }
    let text = need(args.get(at), "SM5.1 declaration needs space=N")?;
    let v = text
        .trim()
        .strip_prefix("space=")
        .and_then(|v| parse_u32(v.trim()));
    need(v, "bad space=N").map(Some)
}

fn u32_arg(args: &[&str], at: usize) -> P<u32> {
    need(
        args.get(at).and_then(|a| parse_u32(a.trim())),
        "expected a number",
    )
}

/// Split `mode words operand` into the interpolation mode and the operand text.
fn interpolation(text: &str) -> P<(u32, &str)> {
    let text = text.trim();
    let (mode, op) = match text.rfind(' ') {
        Some(i) => (text[..i].trim(), text[i + 1..].trim()),
        None => ("", text),
    };
    if mode.is_empty() {
        return Ok((0, op));
    }
    let normalized = mode.split_whitespace().collect::<Vec<_>>().join(" ");
    Ok((
        need(
            value(names::INTERPOLATION_MODES, &normalized),
            "unknown interpolation mode",
        )?,
        op,
    ))
}

fn uav_flags(stem_rest: &str) -> P<u32> {
    let mut bits = 0;
    for f in stem_rest.split('_').filter(|f| !f.is_empty()) {
        bits |= match f {
            "glc" => 1 << 16,
            "rov" => 1 << 17,
            "opc" => 1 << 23,
            _ => return Err(syntax(&format!("unknown UAV flag `{f}`"))),
        };
    }
    Ok(bits)
}

fn resource_dim(name: &str) -> P<u32> {
    need(
        value(names::RESOURCE_DIMENSIONS, name),
        "unknown resource dimension",
    )
}

/// Split `(types) operand` into the return-type token and the rest.
fn return_type_token(rest: &str) -> P<(u32, &str)> {
    let rest = rest.trim();
    let inner = rest.strip_prefix('(').and_then(|r| r.split_once(')'));
    let (types, after) = need(inner, "expected (t,t,t,t)")?;
    let t = parse_return_types(types)?;
    let token = t
        .iter()
        .enumerate()
        .fold(0, |acc, (i, v)| acc | u32::from(*v) << (4 * i));
    Ok((token, after.trim()))
}

pub(crate) fn parse_declaration(
    ident: &str,
    groups: &[&str],
    rest: &str,
    version: Version,
) -> P<Instruction> {
    let lower = ident.to_ascii_lowercase();
    let args = split_top(rest);
    let mut inst;
    let mut controls = 0u32;
    let mut ops: Vec<Operand> = Vec::new();
    let mut trailing: Vec<u32> = Vec::new();
    let simple = |op: Opcode| Instruction::new(op);
    if let Some(dim) = lower
        .strip_prefix("dcl_resource_")
        .filter(|d| *d != "raw" && *d != "structured")
    {
        inst = simple(Opcode::DclResource);
        let d = resource_dim(dim)?;
        controls |= d << 11;
        if let Some(count) = groups.first() {
            controls |= need(
                parse_u32(count.trim()).filter(|c| *c < 128),
                "bad sample count",
            )? << 16;
        } else if matches!(d, 4 | 9) {
            return Err(syntax("multisampled resources need (sample count)"));
        }
        let (rt, after) = return_type_token(args.first().copied().unwrap_or(""))?;
        ops.push(operand(after, version)?);
        trailing.push(rt);
        trailing.extend(space(&args, 1, version)?);
    } else if let Some(tail) = lower.strip_prefix("dcl_uav_typed_") {
        inst = simple(Opcode::DclUavTyped);
        let (dim, flags) = tail.split_once('_').unwrap_or((tail, ""));
        controls |= resource_dim(dim)? << 11 | uav_flags(flags)?;
        let (rt, after) = return_type_token(args.first().copied().unwrap_or(""))?;
        ops.push(operand(after, version)?);
        trailing.push(rt);
        trailing.extend(space(&args, 1, version)?);
    } else if let Some(flags) = lower.strip_prefix("dcl_uav_raw") {
        inst = simple(Opcode::DclUavRaw);
        controls |= uav_flags(flags)?;
        ops.push(operand(need(args.first(), "missing operand")?, version)?);
        trailing.extend(space(&args, 1, version)?);
    } else if let Some(flags) = lower.strip_prefix("dcl_uav_structured") {
        inst = simple(Opcode::DclUavStructured);
        controls |= uav_flags(flags)?;
        ops.push(operand(need(args.first(), "missing operand")?, version)?);
        trailing.push(u32_arg(&args, 1)?);
        trailing.extend(space(&args, 2, version)?);
    } else if let Some(dynamic) = lower.strip_prefix("dcl_interface") {
        inst = simple(Opcode::DclInterface);
        controls |= match dynamic {
            "" => 0,
            "_dynamicindexed" => 1 << 11,
            _ => return Err(syntax("unknown dcl_interface form")),
        };
        let (head, tables) = need(rest.split_once('='), "dcl_interface needs = {...}")?;
        let head = head.trim();
        let nums: Vec<u32> = head
            .trim_start_matches("fp")
            .split(['[', ']'])
            .filter(|s| !s.is_empty())
            .map(|s| parse_u32(s.trim()))
            .collect::<Option<_>>()
            .ok_or_else(|| syntax("bad fp#[n][m]"))?;
        let [id, array, sites] = nums[..] else {
            return Err(syntax("dcl_interface needs fp#[array length][call sites]"));
        };
        let ids = id_list(tables, "ft")?;
        trailing.extend([id, sites, array << 16 | ids.len() as u32]);
        trailing.extend(ids);
    } else {
        let opcode = need(Opcode::from_mnemonic_ci(&lower), "unknown declaration")?;
        inst = simple(opcode);
        let m = lower.as_str();
        match opcode {
            Opcode::DclGlobalFlags => {
                for f in rest.split('|').map(str::trim).filter(|f| !f.is_empty()) {
                    controls |=
                        1 << (11 + need(value(names::GLOBAL_FLAGS, f), "unknown global flag")?);
                }
            }
            Opcode::DclConstantbuffer => {
                let mut op = operand(need(args.first(), "missing operand")?, version)?;
                op.components = Components::Four(Selection::Swizzle([0, 1, 2, 3]));
                if version.is_sm51() {
                    let size = op.indices.pop();
                    let size = need(size.and_then(|i| i.immediate()), "CB#[a:b][size]")?;
                    trailing.push(size as u32);
                }
                ops.push(op);
                controls |= match need(args.get(1), "immediateIndexed or dynamicIndexed")?
                    .to_ascii_lowercase()
                    .as_str()
                {
                    "immediateindexed" => 0,
                    "dynamicindexed" => 1 << 11,
                    _ => return Err(syntax("expected immediateIndexed or dynamicIndexed")),
                };
                trailing.extend(space(&args, 2, version)?);
            }
            Opcode::DclSampler => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
                let mode = need(args.get(1), "missing sampler mode")?;
                controls |= need(value(names::SAMPLER_MODES, mode), "unknown sampler mode")? << 11;
                trailing.extend(space(&args, 2, version)?);
            }
            Opcode::DclResourceRaw => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
                trailing.extend(space(&args, 1, version)?);
            }
            Opcode::DclResourceStructured => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
                trailing.push(u32_arg(&args, 1)?);
                trailing.extend(space(&args, 2, version)?);
            }
            Opcode::DclTgsmRaw => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
                trailing.push(u32_arg(&args, 1)?);
            }
            Opcode::DclTgsmStructured => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
                trailing.extend([u32_arg(&args, 1)?, u32_arg(&args, 2)?]);
            }
            Opcode::DclInput | Opcode::DclOutput | Opcode::DclStream => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
            }
            Opcode::DclInputSgv
            | Opcode::DclInputSiv
            | Opcode::DclOutputSgv
            | Opcode::DclOutputSiv => {
                ops.push(operand(need(args.first(), "missing operand")?, version)?);
                trailing.push(system_value(args.get(1))?);
            }
            Opcode::DclInputPs | Opcode::DclInputPsSgv | Opcode::DclInputPsSiv => {
                let (mode, op) = interpolation(need(args.first(), "missing operand")?)?;
                // fxc writes constant (1) for `_sgv` without printing it.
                let mode = if opcode == Opcode::DclInputPsSgv && mode == 0 {
                    1
                } else {
                    mode
                };
                controls |= mode << 11;
                ops.push(operand(op, version)?);
                if opcode != Opcode::DclInputPs {
                    trailing.push(system_value(args.get(1))?);
                }
            }
            Opcode::DclTemps
            | Opcode::DclMaxout
            | Opcode::DclGsinstances
            | Opcode::DclHsForkPhaseInstanceCount
            | Opcode::DclHsJoinPhaseInstanceCount => trailing.push(u32_arg(&args, 0)?),
            Opcode::DclIndexableTemp => {
                let x = need(args.first(), "missing x#[n]")?;
                let nums: Vec<u32> = x
                    .trim_start_matches('x')
                    .split(['[', ']'])
                    .filter(|s| !s.is_empty())
                    .map(|s| parse_u32(s.trim()))
                    .collect::<Option<_>>()
                    .ok_or_else(|| syntax("bad x#[n]"))?;
                let [id, count] = nums[..] else {
                    return Err(syntax("dcl_indexableTemp needs x#[count], components"));
                };
                trailing.extend([id, count, u32_arg(&args, 1)?]);
            }
            Opcode::DclIndexrange => {
                let text = need(args.first(), "missing operand")?;
                let (op, count) = need(text.rsplit_once(' '), "dcl_indexrange needs a count")?;
                ops.push(operand(op, version)?);
                trailing.push(need(parse_u32(count.trim()), "bad count")?);
            }
            Opcode::DclOutputtopology => {
                controls |= need(
                    value(names::OUTPUT_TOPOLOGIES, rest.trim()),
                    "unknown topology",
                )? << 11;
            }
            Opcode::DclInputprimitive => {
                let r = rest.trim().to_ascii_lowercase();
                let v = match r.strip_prefix("patch").and_then(|n| n.parse::<u32>().ok()) {
                    Some(n) if (1..=32).contains(&n) => n + 7,
                    _ => need(
                        value(names::INPUT_PRIMITIVES, &r),
                        "unknown input primitive",
                    )?,
                };
                controls |= v << 11;
            }
            Opcode::DclInputControlPointCount | Opcode::DclOutputControlPointCount => {
                controls |= need(
                    Some(u32_arg(&args, 0)?).filter(|v| *v < 64),
                    "count above 63",
                )? << 11;
            }
            Opcode::DclTessellatorDomain => {
                controls |= need(value(names::TESS_DOMAINS, rest.trim()), "unknown domain")? << 11;
            }
            Opcode::DclTessellatorPartitioning => {
                controls |= need(
                    value(names::TESS_PARTITIONINGS, rest.trim()),
                    "unknown partitioning",
                )? << 11;
            }
            Opcode::DclTessellatorOutputPrimitive => {
                controls |= need(
                    value(names::TESS_OUTPUT_PRIMITIVES, rest.trim()),
                    "unknown primitive",
                )? << 11;
            }
            Opcode::DclHsMaxTessfactor => {
                let v = rest
                    .trim()
                    .strip_prefix("l(")
                    .and_then(|r| r.strip_suffix(')'));
                trailing.push(need(
                    v.and_then(|v| parse_imm(v.trim())),
                    "expected l(value)",
                )?);
            }
            Opcode::DclThreadGroup => {
                trailing.extend([u32_arg(&args, 0)?, u32_arg(&args, 1)?, u32_arg(&args, 2)?]);
            }
            Opcode::DclFunctionBody => {
                let v = rest.trim().strip_prefix("fb").and_then(parse_u32);
                trailing.push(need(v, "expected fb#")?);
            }
            Opcode::DclFunctionTable => {
                let (head, bodies) =
                    need(rest.split_once('='), "dcl_function_table needs = {...}")?;
                let id = need(
                    head.trim().strip_prefix("ft").and_then(parse_u32),
                    "expected ft#",
                )?;
                let ids = id_list(bodies, "fb")?;
                trailing.extend([id, ids.len() as u32]);
                trailing.extend(ids);
            }
            _ => {
                return Err(syntax(&format!(
                    "`{m}` is not a declaration this assembler reads"
                )));
            }
        }
    }
    if inst.opcode != Opcode::DclResource && !groups.is_empty() {
        return Err(syntax("unexpected parenthesised group"));
    }
    inst.controls = controls;
    inst.operands = ops;
    inst.trailing = trailing;
    if inst.operands.len() != inst.info().operand_count() {
        return Err(syntax("wrong number of operands"));
    }
    Ok(inst)
}

fn system_value(arg: Option<&&str>) -> P<u32> {
    need(
        arg.and_then(|a| value(names::SYSTEM_VALUES, a.trim())),
        "unknown system value",
    )
}

fn id_list(text: &str, prefix: &str) -> P<Vec<u32>> {
    let inner = text
        .trim()
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'));
    let inner = need(inner, "expected {...}")?;
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.strip_prefix(prefix).and_then(parse_u32))
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(|| syntax(&format!("expected a list of {prefix}#")))
}
