//! The tool-naming rule of the 2025-11-25 revision (SEP-986, a SHOULD): 1 to 128
//! characters of `A-Z a-z 0-9 _ - .`. A name outside it still works; the official SDKs
//! warn when such a tool is registered, with the findings [`check`] words as they do, so
//! each binding reports the same findings through its own logger.

/// Where the rule is written (the official Python SDK's warnings name it).
pub const SEP_986_URL: &str = "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names";

/// How a name's length and its characters are counted and quoted, as each official SDK
/// does: TypeScript counts UTF-16 units and quotes with `"`, Python counts code points and
/// quotes as `repr` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wording {
    TypeScript,
    Python,
}

/// What [`check`] found: whether the name follows the rule, and every finding.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolNameCheck {
    pub valid: bool,
    pub warnings: Vec<String>,
}

fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

fn quoted(c: char, wording: Wording) -> String {
    match wording {
        Wording::TypeScript => format!("\"{c}\""),
        Wording::Python => match c {
            '\'' => "\"'\"".to_owned(),
            '\\' => "'\\\\'".to_owned(),
            '\n' => "'\\n'".to_owned(),
            '\r' => "'\\r'".to_owned(),
            '\t' => "'\\t'".to_owned(),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("'\\x{:02x}'", c as u32),
            c => format!("'{c}'"),
        },
    }
}

/// Checks `name` against the rule, with the official SDKs' findings.
pub fn check(name: &str, wording: Wording) -> ToolNameCheck {
    let invalid = |warnings: Vec<String>| ToolNameCheck { valid: false, warnings };
    if name.is_empty() {
        return invalid(vec!["Tool name cannot be empty".to_owned()]);
    }
    let length = match wording {
        Wording::TypeScript => name.encode_utf16().count(),
        Wording::Python => name.chars().count(),
    };
    if length > 128 {
        return invalid(vec![format!("Tool name exceeds maximum length of 128 characters (current: {length})")]);
    }
    let mut warnings = Vec::new();
    if name.contains(' ') {
        warnings.push("Tool name contains spaces, which may cause parsing issues".to_owned());
    }
    if name.contains(',') {
        warnings.push("Tool name contains commas, which may cause parsing issues".to_owned());
    }
    if name.starts_with('-') || name.ends_with('-') {
        warnings
            .push("Tool name starts or ends with a dash, which may cause parsing issues in some contexts".to_owned());
    }
    if name.starts_with('.') || name.ends_with('.') {
        warnings
            .push("Tool name starts or ends with a dot, which may cause parsing issues in some contexts".to_owned());
    }
    let mut bad: Vec<char> = Vec::new();
    for c in name.chars().filter(|c| !allowed(*c)) {
        if !bad.contains(&c) {
            bad.push(c);
        }
    }
    if bad.is_empty() {
        return ToolNameCheck { valid: true, warnings };
    }
    let listed: Vec<String> = bad.into_iter().map(|c| quoted(c, wording)).collect();
    warnings.push(format!("Tool name contains invalid characters: {}", listed.join(", ")));
    warnings.push("Allowed characters are: A-Z, a-z, 0-9, underscore (_), dash (-), and dot (.)".to_owned());
    invalid(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_and_its_findings() {
        assert_eq!(check("get_user.v2-beta", Wording::TypeScript), ToolNameCheck { valid: true, warnings: vec![] });
        let dashed = check("-x.", Wording::Python);
        assert!(dashed.valid);
        assert_eq!(dashed.warnings.len(), 2);
        assert!(!check("a/b", Wording::TypeScript).valid, "no slash in the 2025-11-25 rule");
        let spaced = check("a b,c b", Wording::TypeScript);
        assert_eq!(spaced.warnings[2], "Tool name contains invalid characters: \" \", \",\"");
        assert_eq!(check("it's", Wording::Python).warnings[0], "Tool name contains invalid characters: \"'\"");
        assert_eq!(check("", Wording::Python).warnings, ["Tool name cannot be empty"]);
        // An astral character: one code point, two UTF-16 units.
        let long = "a".repeat(127) + "\u{1F600}";
        assert_eq!(check(&long, Wording::Python).warnings.len(), 2);
        assert_eq!(
            check(&long, Wording::TypeScript).warnings,
            ["Tool name exceeds maximum length of 128 characters (current: 129)"]
        );
    }
}
