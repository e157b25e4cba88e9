use std::path::{Path, PathBuf};
use std::time::Instant;
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out)
        } else {
            out.push(p)
        }
    }
}
fn main() {
    if let Ok(w) = std::env::var("ONE") {
        let src = std::fs::read_to_string(w).unwrap();
        let a = Instant::now();
        for _ in 0..2000 {
            let _ = naga::front::wgsl::parse_str(&src).unwrap();
        }
        println!(
            "one parse {:.1}us",
            a.elapsed().as_secs_f64() / 2000.0 * 1e6
        );
        return;
    }
    let mut paths = Vec::new();
    files(Path::new("../shared/corpus"), &mut paths);
    let mut rows = vec![];
    if std::env::var("COUNT").is_ok() {
        let mut ok = [0, 0];
        let mut reasons = std::collections::BTreeMap::new();
        for p in &paths {
            let blob = match p.extension().and_then(|e| e.to_str()) {
                Some("o") => std::fs::read(p).ok(),
                Some("json") => std::fs::read_to_string(p)
                    .ok()
                    .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
                    .and_then(|c| c.blob().ok()),
                _ => None,
            };
            let Some(blob) = blob else { continue };
            let Ok(s) = dxbc::Shader::parse(&blob) else {
                continue;
            };
            for (k, prof) in [translator::Profile::Contract, translator::Profile::Exact]
                .into_iter()
                .enumerate()
            {
                match translator::translate(&s, prof) {
                    Ok(_) => ok[k] += 1,
                    Err(e) => {
                        *reasons.entry(format!("{:.150}", e.reason)).or_insert(0) += 1;
                    }
                }
            }
        }
        println!("qualified contract {} exact {}", ok[0], ok[1]);
        for (r, n) in reasons {
            println!("{n:4} {r}");
        }
        return;
    }
    if std::env::var("ROUNDTRIP").is_ok() {
        let mut fails = 0;
        let mut n = 0;
        for p in &paths {
            let blob = match p.extension().and_then(|e| e.to_str()) {
                Some("o") => std::fs::read(p).ok(),
                Some("json") => std::fs::read_to_string(p)
                    .ok()
                    .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
                    .and_then(|c| c.blob().ok()),
                _ => None,
            };
            let Some(blob) = blob else { continue };
            let Ok(s) = dxbc::Shader::parse(&blob) else {
                continue;
            };
            for prof in [translator::Profile::Contract, translator::Profile::Exact] {
                let Ok(t) = translator::translate(&s, prof) else {
                    continue;
                };
                n += 1;
                let m = naga::front::wgsl::parse_str(&t.wgsl).unwrap();
                let info = naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::all(),
                )
                .validate(&m)
                .unwrap();
                let w = naga::back::wgsl::write_string(
                    &m,
                    &info,
                    naga::back::wgsl::WriterFlags::empty(),
                )
                .unwrap();
                match naga::front::wgsl::parse_str(&w) {
                    Ok(m2) => {
                        if let Err(e) = naga::valid::Validator::new(
                            naga::valid::ValidationFlags::all(),
                            naga::valid::Capabilities::all(),
                        )
                        .validate(&m2)
                        {
                            fails += 1;
                            println!("{}: revalidate {:?}", p.display(), e);
                        }
                    }
                    Err(e) => {
                        fails += 1;
                        println!("{}: reparse {}", p.display(), e.emit_to_string(&w));
                    }
                }
                if t.wgsl.contains("diagnostic") && !w.contains("diagnostic") {
                    println!("{}: diagnostic dropped", p.display());
                }
                if t.wgsl.contains("enable") && !w.contains("enable") {
                    println!("{}: enable dropped", p.display());
                }
            }
        }
        println!("{n} translations, {fails} failures");
        return;
    }
    if let Ok(mode) = std::env::var("LOOP") {
        let blobs: Vec<Vec<u8>> = paths
            .iter()
            .filter_map(|p| match p.extension().and_then(|e| e.to_str()) {
                Some("o") => std::fs::read(p).ok(),
                Some("json") => std::fs::read_to_string(p)
                    .ok()
                    .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
                    .and_then(|c| c.blob().ok()),
                _ => None,
            })
            .filter(|b| {
                dxbc::Shader::parse(b).ok().is_some_and(|s| {
                    translator::translate(&s, translator::Profile::Contract).is_ok()
                })
            })
            .collect();
        let a = Instant::now();
        let n = 300;
        for _ in 0..n {
            for b in &blobs {
                let s = dxbc::Shader::parse(b).unwrap();
                if mode == "emit" {
                    let _ = translator::lower(&s, translator::Profile::Contract);
                }
            }
        }
        let k = (n * blobs.len()) as f64;
        println!(
            "{} programs, {mode}: {:.2} us mean, {:.0}/s",
            blobs.len(),
            a.elapsed().as_secs_f64() / k * 1e6,
            k / a.elapsed().as_secs_f64()
        );
        return;
    }
    let (mut te, mut tp, mut tv, mut tw) = (0.0, 0.0, 0.0, 0.0);
    for p in paths {
        let blob = match p.extension().and_then(|e| e.to_str()) {
            Some("o") => std::fs::read(&p).ok(),
            Some("json") => std::fs::read_to_string(&p)
                .ok()
                .and_then(|t| oracles::case::CaseFile::parse(&t).ok())
                .and_then(|c| c.blob().ok()),
            _ => None,
        };
        let Some(blob) = blob else { continue };
        let Ok(s) = dxbc::Shader::parse(&blob) else {
            continue;
        };
        let Ok(t) = translator::translate(&s, translator::Profile::Contract) else {
            continue;
        };
        let n = 20;
        let a = Instant::now();
        for _ in 0..n {
            let _ = translator::lower(&s, translator::Profile::Contract);
        }
        let e = a.elapsed().as_secs_f64() / n as f64;
        let a = Instant::now();
        let mut m = None;
        for _ in 0..n {
            m = Some(naga::front::wgsl::parse_str(&t.wgsl).unwrap());
        }
        let pt = a.elapsed().as_secs_f64() / n as f64;
        let m = m.unwrap();
        let a = Instant::now();
        let mut info = None;
        for _ in 0..n {
            info = Some(
                naga::valid::Validator::new(
                    naga::valid::ValidationFlags::all(),
                    naga::valid::Capabilities::all(),
                )
                .validate(&m)
                .unwrap(),
            );
        }
        let vt = a.elapsed().as_secs_f64() / n as f64;
        let info = info.unwrap();
        let a = Instant::now();
        for _ in 0..n {
            let _ =
                naga::back::wgsl::write_string(&m, &info, naga::back::wgsl::WriterFlags::empty())
                    .unwrap();
        }
        let wt = a.elapsed().as_secs_f64() / n as f64;
        let exprs: usize = m
            .functions
            .iter()
            .map(|(_, f)| f.expressions.len())
            .max()
            .unwrap_or(0)
            .max(
                m.entry_points
                    .iter()
                    .map(|e| e.function.expressions.len())
                    .max()
                    .unwrap_or(0),
            );
        te += e;
        tp += pt;
        tv += vt;
        tw += wt;
        rows.push((
            pt,
            e,
            vt,
            wt,
            exprs,
            t.wgsl.len(),
            blob.len(),
            p.display().to_string(),
        ));
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for r in rows.iter().take(15) {
        println!(
            "parse {:8.1}us emit {:7.1}us valid {:7.1}us write {:7.1} maxexprs {:6} wgsl {:7} dxbc {:6} {}",
            r.0 * 1e6,
            r.1 * 1e6,
            r.2 * 1e6,
            r.3 * 1e6,
            r.4,
            r.5,
            r.6,
            r.7
        );
    }
    let k = rows.len() as f64;
    println!(
        "n={} mean emit {:.1} parse {:.1} valid {:.1} write {:.1}",
        rows.len(),
        te / k * 1e6,
        tp / k * 1e6,
        tv / k * 1e6,
        tw / k * 1e6
    );
    let mut med: Vec<f64> = rows.iter().map(|r| r.0).collect();
    med.sort_by(f64::total_cmp);
    println!("median parse {:.1}", med[med.len() / 2] * 1e6);
    let mut w: Vec<usize> = rows.iter().map(|r| r.5).collect();
    w.sort();
    println!("median wgsl bytes {}", w[w.len() / 2]);
}
#[allow(dead_code)]
fn tiny() {}
