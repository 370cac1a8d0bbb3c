//! Result claims: an extension of the client's answers a verb with a result shape of its
//! own, tagged by a `resultType` outside the core vocabulary (the official Python client's
//! `ResultClaim`, SEP-2133's extension results).
//!
//! A claim is active only at the 2026-07-28 revisions it names (every modern one when it
//! names none): a legacy result has no `resultType`, so a claimed shape cannot be delivered
//! there. An extension that carries claims is declared in the client's capabilities only at
//! a revision where one of its claims is active, so a server never sees the client declare
//! a shape it would reject; the legacy handshake leaves it out. Which tag a result carries
//! is [`Client::claimed`](super::Client::claimed); what the claimed shape is, and what
//! finishes it, is the host's.

use serde_json::{Map, Value};

use crate::protocol::ProtocolVersion;

/// The `resultType`s of the core vocabulary, which no claim may take.
pub const CORE_RESULT_TYPES: [&str; 2] = ["complete", "input_required"];

/// The methods a claim may attach to.
pub const CLAIM_METHODS: [&str; 1] = ["tools/call"];

/// One result shape an extension claims on one method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultClaim {
    /// The claiming extension's identifier, declared under `capabilities.extensions`.
    pub extension: String,
    /// The wire tag (`resultType`) of the claimed shape.
    pub result_type: String,
    /// The method whose result it is (`tools/call`).
    pub method: String,
    /// The revisions it is active at; `None`: every modern one.
    pub protocol_versions: Option<Vec<String>>,
}

impl ResultClaim {
    /// Checks one claim on its own, as it is made: the method is one claims attach to,
    /// the tag is not core vocabulary, the revisions (when named) are some and all
    /// modern. The error is worded for the host to raise as it is.
    pub fn check(result_type: &str, method: &str, protocol_versions: Option<&[String]>) -> Result<(), String> {
        if !CLAIM_METHODS.contains(&method) {
            return Err(format!(
                "claims attach to [{}] only; got method {}",
                CLAIM_METHODS.map(repr).join(", "),
                repr(method)
            ));
        }
        if CORE_RESULT_TYPES.contains(&result_type) {
            return Err(format!("resultType {} is core protocol vocabulary", repr(result_type)));
        }
        let Some(versions) = protocol_versions else { return Ok(()) };
        if versions.is_empty() {
            return Err("empty protocol_versions could never activate; use None for all".into());
        }
        let mut unrecognised: Vec<&str> = versions
            .iter()
            .map(String::as_str)
            .filter(|v| !ProtocolVersion::parse(v).is_some_and(ProtocolVersion::is_modern))
            .collect();
        if unrecognised.is_empty() {
            return Ok(());
        }
        unrecognised.sort_unstable();
        unrecognised.dedup();
        Err(format!(
            "protocol_versions [{}] are not modern protocol revisions; claimed shapes cannot be delivered on a \
             legacy wire (None means every modern version)",
            unrecognised.into_iter().map(repr).collect::<Vec<_>>().join(", ")
        ))
    }

    /// Whether the claim is active on a connection speaking `version`.
    pub fn active_at(&self, version: &str) -> bool {
        ProtocolVersion::parse(version).is_some_and(ProtocolVersion::is_modern)
            && self.protocol_versions.as_ref().is_none_or(|versions| versions.iter().any(|v| v == version))
    }
}

/// Checks a client's claims together: each one on its own ([`ResultClaim::check`]), each
/// claiming extension declared in `capabilities.extensions`, and each tag claimed once (a
/// wire tag can have only one resolver).
pub fn check_claims(claims: &[ResultClaim], capabilities: &Value) -> Result<(), String> {
    let declared = capabilities.get("extensions").and_then(Value::as_object);
    let mut owners: Vec<(&str, &str)> = Vec::new();
    for claim in claims {
        ResultClaim::check(&claim.result_type, &claim.method, claim.protocol_versions.as_deref())?;
        if !declared.is_some_and(|d| d.contains_key(&claim.extension)) {
            return Err(format!(
                "the claim of resultType {} names extension {}, which the client does not declare; a claim is \
                 only advertised through its extension's capability",
                repr(&claim.result_type),
                repr(&claim.extension)
            ));
        }
        if let Some((_, owner)) = owners.iter().find(|(tag, _)| *tag == claim.result_type) {
            let who = if *owner == claim.extension {
                format!("extension {} claims", repr(owner))
            } else {
                format!("extensions {} and {} both claim", repr(owner), repr(&claim.extension))
            };
            return Err(format!(
                "{who} resultType {}; a wire tag can have only one resolver",
                repr(&claim.result_type)
            ));
        }
        owners.push((&claim.result_type, &claim.extension));
    }
    Ok(())
}

/// `capabilities` as declared on a connection speaking `version`: an extension that
/// carries claims, none of them active at `version`, is left out (and `extensions` with
/// it when nothing is left); an extension without claims always stays.
pub fn capabilities_at(capabilities: &Value, claims: &[ResultClaim], version: &str) -> Value {
    let Some(extensions) = capabilities.get("extensions").and_then(Value::as_object) else {
        return capabilities.clone();
    };
    let kept: Map<String, Value> = extensions
        .iter()
        .filter(|(id, _)| {
            let mut owned = claims.iter().filter(|c| &c.extension == *id).peekable();
            owned.peek().is_none() || owned.any(|c| c.active_at(version))
        })
        .map(|(id, settings)| (id.clone(), settings.clone()))
        .collect();
    if kept.len() == extensions.len() {
        return capabilities.clone();
    }
    let mut capabilities = capabilities.clone();
    let object = capabilities.as_object_mut().expect("has extensions, so an object");
    if kept.is_empty() {
        object.shift_remove("extensions");
    } else {
        object.insert("extensions".into(), Value::Object(kept));
    }
    capabilities
}

/// `text` as the official Python SDK's messages quote a name (`repr`).
fn repr(text: &str) -> String {
    crate::server::python_repr(text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn claim(extension: &str, tag: &str, versions: Option<&[&str]>) -> ResultClaim {
        ResultClaim {
            extension: extension.into(),
            result_type: tag.into(),
            method: "tools/call".into(),
            protocol_versions: versions.map(|v| v.iter().map(|s| (*s).to_owned()).collect()),
        }
    }

    #[test]
    fn a_claim_is_checked_as_it_is_made() {
        assert_eq!(ResultClaim::check("receipt", "tools/call", None), Ok(()));
        assert_eq!(
            ResultClaim::check("receipt", "prompts/get", None).unwrap_err(),
            "claims attach to ['tools/call'] only; got method 'prompts/get'"
        );
        assert_eq!(
            ResultClaim::check("input_required", "tools/call", None).unwrap_err(),
            "resultType 'input_required' is core protocol vocabulary"
        );
        assert!(ResultClaim::check("r", "tools/call", Some(&[])).unwrap_err().starts_with("empty protocol_versions"));
        let legacy = ResultClaim::check("r", "tools/call", Some(&["2025-11-25".into(), "2026-07-28".into()]));
        assert!(legacy.unwrap_err().starts_with("protocol_versions ['2025-11-25'] are not modern protocol revisions"));
    }

    #[test]
    fn a_claim_is_active_at_the_modern_revisions_it_names() {
        assert!(claim("a/b", "r", None).active_at("2026-07-28"));
        assert!(!claim("a/b", "r", None).active_at("2025-11-25"));
        assert!(!claim("a/b", "r", Some(&["2026-07-28"])).active_at("2025-06-18"));
    }

    #[test]
    fn claims_are_checked_against_the_declared_extensions() {
        let capabilities = json!({"extensions": {"a/b": {}, "c/d": {}}});
        assert_eq!(check_claims(&[claim("a/b", "r", None), claim("c/d", "s", None)], &capabilities), Ok(()));
        let undeclared = check_claims(&[claim("x/y", "r", None)], &capabilities).unwrap_err();
        assert!(undeclared.contains("names extension 'x/y', which the client does not declare"));
        let twice = check_claims(&[claim("a/b", "r", None), claim("c/d", "r", None)], &capabilities).unwrap_err();
        assert_eq!(
            twice,
            "extensions 'a/b' and 'c/d' both claim resultType 'r'; a wire tag can have only one resolver"
        );
    }

    #[test]
    fn a_claim_bearing_extension_is_declared_only_where_a_claim_is_active() {
        let capabilities = json!({"sampling": {}, "extensions": {"a/b": {"k": 1}, "c/d": {}}});
        let claims = [claim("a/b", "r", None)];
        assert_eq!(capabilities_at(&capabilities, &claims, "2026-07-28"), capabilities);
        assert_eq!(
            capabilities_at(&capabilities, &claims, "2025-11-25"),
            json!({"sampling": {}, "extensions": {"c/d": {}}})
        );
        let only = json!({"extensions": {"a/b": {}}});
        assert_eq!(capabilities_at(&only, &claims, "2025-11-25"), json!({}));
        assert_eq!(capabilities_at(&only, &[], "2025-11-25"), only);
    }
}
