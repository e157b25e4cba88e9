//! The adaptation catalog: one entry per documented divergence between D3D11 semantics and a
//! DXBC→WGSL translation, as data (`oracles/catalog.json`, embedded and parsed on first use).
//!
//! The oracle attributes a lane's difference to an entry only when the interpreter recorded, in
//! that lane, an event of one of the entry's [`Entry::domain`]s ([`Entry::allows`]) and the
//! translator's profile claims that entry. Outside its domain an entry's [`Entry::tolerance`]
//! applies. `docs/catalog.md` describes the fields.
//!
//! Organisation:
//! * the seed contract's entries come first, in its order: every `###` heading of "Adapted",
//!   "Supported mappings" and "Adapted — uniformity", every bold bullet of "Not supported (fail
//!   closed)" and "Bounded / temporary", and the "Adapted — numeric conversion edges" section
//!   (which has no `###` heading). `seed_ref` holds the heading or bullet text verbatim
//!   (whitespace of wrapped bullets joined by one space);
//! * the project's own `dxdiff/…` entries follow (`seed_ref` null), each citing its source.
//!
//! Decisions:
//! * A `###` heading under "Adapted" gets the category of what it describes, not of its section:
//!   the compute profiles and other limits are `bounded/…`, "Fail-closed intentional
//!   nontermination" and "Typed `Buffer` SRVs require bound-view metadata" are `fail-closed/…`,
//!   and the two faithful mappings ("Component-packed varyings", "`linear_noperspective`
//!   varyings") are `supported/…`.
//! * A bullet that lists several unrelated boundaries is split into several entries sharing
//!   one `seed_ref`: "Mutable relative `indexable_temp` registers" (mutable indexable temps,
//!   subroutines), "Geometry, hull, and domain stage kinds, …" (those stages, general compute),
//!   "Sampler modes other than `default`" (sampler modes, interpolation modes, minimum-precision
//!   kinds, system values).
//! * "Selected-effect package provenance", "All-body backend packaging" and "Verification
//!   contract" have no `###` headings or bold bullets and describe packaging and process, not a
//!   lowering rule, so they have no entries. The "Purpose" bullets define the categories.
//! * Tolerances: the contract's kinds are `exact`, `ulp`, `abs` and `any`. Two more are used
//!   where WGSL's own bounds need them: `ulp_or_abs` (WGSL `log2`) and `term_scaled` (fusion of
//!   mad and dot products, as in [`crate::rules::transcendental::Tolerance::TermScaled`]).
//!   `op_tolerance` optionally refines the tolerance per opcode mnemonic.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::domain::{Domain, Events};
use crate::rules::transcendental::Tolerance as Band;

/// The catalog's JSON text, as shipped in the crate.
pub const CATALOG_JSON: &str = include_str!("../catalog.json");

/// The `format` field of `catalog.json`.
pub const FORMAT: &str = "dxdiff-catalog/1";

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| {
    Catalog::parse(CATALOG_JSON).expect("the embedded catalog.json is validated by catalog::tests")
});

/// The embedded catalog, parsed at first use.
pub fn catalog() -> &'static Catalog {
    &CATALOG
}

/// An entry's category; it is also the prefix of its id (`adapted/…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    /// Accepted input whose WGSL semantics deliberately differ from D3D.
    Adapted,
    /// Input the translator rejects with a diagnostic.
    FailClosed,
    /// Supported within stated limits.
    Bounded,
    /// A mapping the seed documents as faithful.
    Supported,
    /// The project's own entry for WGSL's general latitude.
    Dxdiff,
}

impl Category {
    pub const ALL: [Category; 5] = [
        Category::Adapted,
        Category::FailClosed,
        Category::Bounded,
        Category::Supported,
        Category::Dxdiff,
    ];

    /// The JSON spelling, which is also the id prefix.
    pub const fn as_str(self) -> &'static str {
        match self {
            Category::Adapted => "adapted",
            Category::FailClosed => "fail-closed",
            Category::Bounded => "bounded",
            Category::Supported => "supported",
            Category::Dxdiff => "dxdiff",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How far a result may be from the reference outside an entry's domain.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Tolerance {
    /// Bit-exact (NaNs compare equal to each other).
    Exact,
    /// At most `ulp` representable steps from the reference.
    Ulp { ulp: u32 },
    /// |got − ref| ≤ `abs`.
    Abs { abs: f64 },
    /// Within `ulp` steps or within `abs` (WGSL `log2`: 2^-21 absolute on [0.5, 2]).
    UlpOrAbs { ulp: u32, abs: f64 },
    /// |got − ref| ≤ steps · 2^-24 · (Σ|aᵢ·bᵢ| + |c|): fused-op band over the terms.
    TermScaled { steps: u32 },
    /// Any value.
    Any,
}

impl Tolerance {
    /// The interpreter's band type for this tolerance, where it has one (`UlpOrAbs` and `Any`
    /// have none).
    pub fn as_band(self) -> Option<Band> {
        match self {
            Tolerance::Exact => Some(Band::Exact),
            Tolerance::Ulp { ulp } => Some(Band::Ulp(ulp)),
            Tolerance::Abs { abs } => Some(Band::Abs(abs as f32)),
            Tolerance::TermScaled { steps } => Some(Band::TermScaled { steps }),
            Tolerance::UlpOrAbs { .. } | Tolerance::Any => None,
        }
    }
}

impl fmt::Display for Tolerance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tolerance::Exact => f.write_str("exact"),
            Tolerance::Ulp { ulp } => write!(f, "{ulp} ulp"),
            Tolerance::Abs { abs } => write!(f, "abs {abs:e}"),
            Tolerance::UlpOrAbs { ulp, abs } => write!(f, "{ulp} ulp or abs {abs:e}"),
            Tolerance::TermScaled { steps } => write!(f, "term-scaled {steps}"),
            Tolerance::Any => f.write_str("any"),
        }
    }
}

/// One documented divergence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Stable kebab-case id, prefixed by the category (`adapted/rcp-division`).
    pub id: String,
    pub category: Category,
    /// The seed-contract heading or bold-bullet text, verbatim; `None` for `dxdiff/…` entries.
    pub seed_ref: Option<String>,
    /// DXBC mnemonics covered (`dxbc::TABLE` spelling); empty for structural entries.
    pub ops: Vec<String>,
    /// Interpreter domain-event ids ([`Domain::id`]) where a difference is allowed.
    pub domain: Vec<String>,
    /// The domain in words.
    pub domain_text: String,
    /// The tolerance outside the domain.
    pub tolerance: Tolerance,
    /// Per-mnemonic refinements of `tolerance`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub op_tolerance: BTreeMap<String, Tolerance>,
    /// Citation: seed section, WGSL anchor, D3D11 FS section, semantics doc section.
    pub source: String,
    /// Executors the entry is scoped to (case-insensitive substrings of the adapter's name):
    /// such an entry describes a device's behaviour, not a translation, and applies on a
    /// matching adapter whatever the translation claims. Empty: any executor, when claimed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub executors: Vec<String>,
    #[serde(skip)]
    mask: Events,
}

impl Entry {
    /// Whether this executor-scoped entry applies on `adapter`.
    pub fn scoped_to(&self, adapter: &str) -> bool {
        let a = adapter.to_lowercase();
        self.executors.iter().any(|e| a.contains(&e.to_lowercase()))
    }

    /// True for the project's entry that covers only what D3D leaves undefined: no translator
    /// output can be wrong there, so it allows a difference without being claimed.
    pub fn is_dont_care(&self) -> bool {
        self.category == Category::Dxdiff && self.mask == crate::domain::Domain::D3dUndefined.bit()
    }

    /// True when any of this entry's domains is among `events`.
    pub fn allows(&self, events: Events) -> bool {
        self.mask & events != 0
    }

    /// The entry's domains as a bit set.
    pub fn domain_events(&self) -> Events {
        self.mask
    }

    /// The entry's domains.
    pub fn domains(&self) -> impl Iterator<Item = Domain> + '_ {
        crate::domain::domains(self.mask)
    }

    /// Whether the entry lists `op` (case-insensitive mnemonic).
    pub fn covers(&self, op: dxbc::Opcode) -> bool {
        self.ops
            .iter()
            .any(|m| m.eq_ignore_ascii_case(op.mnemonic()))
    }

    /// The tolerance for `op`: its `op_tolerance` refinement, else [`Entry::tolerance`].
    pub fn tolerance_for(&self, op: dxbc::Opcode) -> Tolerance {
        self.op_tolerance
            .iter()
            .find(|(m, _)| m.eq_ignore_ascii_case(op.mnemonic()))
            .map_or(self.tolerance, |(_, t)| *t)
    }
}

/// Why a catalog text was refused.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("catalog JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("catalog format is `{0}`, expected `{FORMAT}`")]
    Format(String),
    #[error("entry `{id}`: unknown domain `{domain}`")]
    UnknownDomain { id: String, domain: String },
}

/// The whole catalog, in file order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Catalog {
    pub format: String,
    pub entries: Vec<Entry>,
}

impl Catalog {
    /// Parse a catalog and resolve every domain id.
    pub fn parse(text: &str) -> Result<Catalog, CatalogError> {
        let mut c: Catalog = serde_json::from_str(text)?;
        if c.format != FORMAT {
            return Err(CatalogError::Format(c.format));
        }
        for e in &mut c.entries {
            e.mask = 0;
            for d in &e.domain {
                let dom = Domain::from_id(d).ok_or_else(|| CatalogError::UnknownDomain {
                    id: e.id.clone(),
                    domain: d.clone(),
                })?;
                e.mask |= dom.bit();
            }
        }
        Ok(c)
    }

    /// The entry with this id.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.id == id)
    }

    /// The entries of one category, in file order.
    pub fn by_category(&self, c: Category) -> impl Iterator<Item = &Entry> + '_ {
        self.entries.iter().filter(move |e| e.category == c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn parses_with_format_and_entries_of_every_category() {
        let c = catalog();
        assert_eq!(c.format, FORMAT);
        for cat in Category::ALL {
            assert!(c.by_category(cat).count() > 0, "no {cat} entry");
        }
    }

    #[test]
    fn ids_are_unique_well_formed_and_prefixed_by_category() {
        let mut seen = BTreeSet::new();
        for e in &catalog().entries {
            assert!(seen.insert(e.id.as_str()), "duplicate id {}", e.id);
            let (prefix, rest) = e.id.split_once('/').expect("id has a category prefix");
            assert_eq!(prefix, e.category.as_str(), "{}", e.id);
            assert!(!rest.is_empty() && !rest.starts_with('-') && !rest.ends_with('-'));
            assert!(
                rest.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{} is not kebab-case",
                e.id
            );
            assert!(!e.source.trim().is_empty(), "{} has no source", e.id);
            assert!(
                !e.domain_text.trim().is_empty(),
                "{} has no domain_text",
                e.id
            );
            assert_eq!(
                e.seed_ref.is_none(),
                e.category == Category::Dxdiff,
                "{}: seed_ref is null exactly for dxdiff entries",
                e.id
            );
        }
    }

    #[test]
    fn ids_other_code_relies_on_exist() {
        for id in [
            "adapted/precise",
            "adapted/comparison-masks",
            "adapted/typeless-registers",
            "adapted/switch-default",
            "adapted/front-facing",
            "adapted/source-modifiers",
            "adapted/continue-continuing",
            "adapted/icb-const-array",
            "adapted/indexable-temps",
            "adapted/rcp-division",
            "adapted/saturate-movers",
            "adapted/min-precision-f16",
            "adapted/numeric-conversion-edges",
            "adapted/derivative-uniformity",
            "fail-closed/non-refactorable",
            "fail-closed/imul-high-half",
            "fail-closed/geometry-hull-domain",
            "fail-closed/subroutines",
            "fail-closed/typed-buffer-srv-format",
            "fail-closed/unknown-texture-dimension",
            "bounded/f16-conversions",
            "bounded/udiv",
            "dxdiff/denormals",
            "dxdiff/nan",
            "dxdiff/non-finite",
            "dxdiff/signed-zero",
            "dxdiff/builtin-accuracy",
            "dxdiff/sincos-range",
            "dxdiff/exp-range",
            "dxdiff/doubles",
            "dxdiff/min-max-nan",
            "dxdiff/fusion",
            "dxdiff/oob",
        ] {
            assert!(catalog().get(id).is_some(), "missing {id}");
        }
    }

    #[test]
    fn domains_resolve_and_ops_exist() {
        for e in &catalog().entries {
            for d in &e.domain {
                assert!(Domain::from_id(d).is_some(), "{}: domain {d}", e.id);
            }
            assert_eq!(
                e.domains().count(),
                e.domain.len(),
                "{}: repeated domain",
                e.id
            );
            for m in e.ops.iter().chain(e.op_tolerance.keys()) {
                assert!(
                    dxbc::Opcode::from_mnemonic_ci(m).is_some(),
                    "{}: unknown mnemonic {m}",
                    e.id
                );
            }
            for m in e.op_tolerance.keys() {
                assert!(e.ops.contains(m), "{}: op_tolerance for unlisted {m}", e.id);
            }
        }
    }

    #[test]
    fn allows_and_tolerances() {
        let c = catalog();
        let edges = c.get("adapted/numeric-conversion-edges").expect("entry");
        assert!(edges.allows(Domain::FtoiNan.bit()));
        assert!(edges.allows(Domain::FtouOverflow.bit() | Domain::NanInput.bit()));
        assert!(!edges.allows(Domain::NanInput.bit()));
        assert!(!edges.allows(0));
        assert_eq!(edges.tolerance, Tolerance::Exact);
        let masks = c.get("adapted/comparison-masks").expect("entry");
        assert!(!masks.allows(u64::MAX));
        let acc = c.get("dxdiff/builtin-accuracy").expect("entry");
        assert_eq!(
            acc.tolerance_for(dxbc::Opcode::Sincos),
            Tolerance::Abs {
                abs: 2f64.powi(-11)
            }
        );
        assert!(acc.covers(dxbc::Opcode::Exp));
        assert_eq!(Tolerance::Ulp { ulp: 3 }.as_band(), Some(Band::Ulp(3)));
        assert_eq!(Tolerance::Any.as_band(), None);
        let rcp = c.get("adapted/rcp-division").expect("entry");
        assert!(rcp.allows(Domain::RcpOfZeroOrDenorm.bit()));
    }

    #[test]
    fn bad_catalogs_are_refused() {
        let bad = CATALOG_JSON.replacen("\"ftoi-nan\"", "\"ftoi-nope\"", 1);
        assert!(matches!(
            Catalog::parse(&bad),
            Err(CatalogError::UnknownDomain { .. })
        ));
        let bad = CATALOG_JSON.replacen(FORMAT, "dxdiff-catalog/0", 1);
        assert!(matches!(Catalog::parse(&bad), Err(CatalogError::Format(_))));
        assert!(Catalog::parse("{").is_err());
    }

    #[test]
    fn json_round_trips() {
        let text = serde_json::to_string(catalog()).expect("serialize");
        assert_eq!(&Catalog::parse(&text).expect("reparse"), catalog());
    }

    /// The seed contract's own text with its diff prefix removed: (section, line) pairs.
    fn seed_lines(seed: &str) -> Vec<(String, String)> {
        let mut section = String::new();
        let mut out = Vec::new();
        for l in seed.lines() {
            let Some(l) = l.strip_prefix('+') else {
                continue;
            };
            if let Some(h) = l.strip_prefix("## ") {
                section = h.to_string();
            }
            out.push((section.clone(), l.to_string()));
        }
        out
    }

    fn squash(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Every `###` heading, every bold bullet of the two bullet sections, and the numeric
    /// conversion section's `##` heading.
    fn seed_refs(seed: &str) -> Vec<String> {
        const BULLET_SECTIONS: [&str; 2] = ["Not supported (fail closed)", "Bounded / temporary"];
        let lines = seed_lines(seed);
        let mut refs = Vec::new();
        for (i, (section, l)) in lines.iter().enumerate() {
            if let Some(h) = l.strip_prefix("### ") {
                refs.push(h.to_string());
            } else if l.starts_with("## ") && section == "Adapted — numeric conversion edges" {
                refs.push(section.clone());
            } else if let Some(b) = l.strip_prefix("- **")
                && BULLET_SECTIONS.contains(&section.as_str())
            {
                // A bold text may wrap onto the bullet's continuation lines.
                let mut text = b.to_string();
                let mut j = i + 1;
                while !text.contains("**") && j < lines.len() {
                    text.push(' ');
                    text.push_str(&lines[j].1);
                    j += 1;
                }
                let bold = text.split("**").next().expect("split yields one piece");
                refs.push(squash(bold));
            }
        }
        refs
    }

    #[test]
    fn every_seed_entry_is_catalogued_verbatim() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/seeds/000_6b9a1b14760d2a97.txt"
        );
        let Ok(seed) = std::fs::read_to_string(path) else {
            println!("skipped: the seed contract {path} is not present");
            return;
        };
        let refs = seed_refs(&seed);
        assert!(
            refs.len() >= 60,
            "seed parse found only {} refs",
            refs.len()
        );
        let catalogued: BTreeSet<&str> = catalog()
            .entries
            .iter()
            .filter_map(|e| e.seed_ref.as_deref())
            .collect();
        let missing: Vec<&String> = refs
            .iter()
            .filter(|r| !catalogued.contains(r.as_str()))
            .collect();
        assert!(
            missing.is_empty(),
            "seed entries with no catalog entry: {missing:#?}"
        );
        let text = squash(
            &seed_lines(&seed)
                .iter()
                .map(|(_, l)| l.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        );
        for e in &catalog().entries {
            if let Some(r) = &e.seed_ref {
                assert!(
                    text.contains(r.as_str()),
                    "{}: seed_ref not in the seed",
                    e.id
                );
            }
        }
    }
}
