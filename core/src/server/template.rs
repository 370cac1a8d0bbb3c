//! RFC 6570 URI templates, matched in reverse: which template does a URI fit, and with
//! which variables.
//!
//! Resource templates in the wild use levels 1 and 2 (`{var}`, `{+var}`, `{#var}`) and the
//! level 3 forms `{/var}`, `{.var}`, `{?a,b}` and `{&a}`; these are matched here. A
//! template that does not parse fails at registration.

use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Expr { op: Option<char>, vars: Vec<String> },
}

/// A parsed URI template.
#[derive(Clone, Debug)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
}

impl UriTemplate {
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let close = rest[open..].find('}').ok_or_else(|| format!("unclosed '{{' in {text:?}"))? + open;
            let mut body = &rest[open + 1..close];
            let op = body.chars().next().filter(|c| "+#./;?&".contains(*c));
            if let Some(op) = op {
                body = &body[op.len_utf8()..];
            }
            let vars: Vec<String> = body.split(',').map(|v| v.trim_end_matches('*').to_owned()).collect();
            if vars.iter().any(|v| v.is_empty() || !v.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.')) {
                return Err(format!("bad expression {{{body}}} in {text:?}"));
            }
            parts.push(Part::Expr { op, vars });
            rest = &rest[close + 1..];
        }
        if rest.contains('}') {
            return Err(format!("stray '}}' in {text:?}"));
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Self { text: text.to_owned(), parts })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The names of every variable, in order.
    pub fn variables(&self) -> Vec<&str> {
        self.parts
            .iter()
            .flat_map(|p| match p {
                Part::Expr { vars, .. } => vars.iter().map(String::as_str).collect(),
                Part::Literal(_) => Vec::new(),
            })
            .collect()
    }

    /// The names of the query variables (`{?q}`, `{&q}`), which a URI may leave out.
    pub fn query_variables(&self) -> Vec<&str> {
        self.parts
            .iter()
            .flat_map(|p| match p {
                Part::Expr { op: Some('?' | '&'), vars } => vars.iter().map(String::as_str).collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// The variables if `uri` fits this template.
    pub fn matches(&self, uri: &str) -> Option<Map<String, Value>> {
        let mut vars = Map::new();
        match_parts(&self.parts, uri, &mut vars).then_some(vars)
    }
}

fn match_parts(parts: &[Part], uri: &str, vars: &mut Map<String, Value>) -> bool {
    let Some((first, rest)) = parts.split_first() else { return uri.is_empty() };
    match first {
        Part::Literal(text) => uri.strip_prefix(text.as_str()).is_some_and(|tail| match_parts(rest, tail, vars)),
        Part::Expr { op, vars: names } => {
            // Try every split point, shortest value first, so later literals can anchor.
            for end in (0..=uri.len()).filter(|i| uri.is_char_boundary(*i)) {
                let (value, tail) = uri.split_at(end);
                if !allowed(*op, value) {
                    break;
                }
                let mut attempt = vars.clone();
                if bind(*op, names, value, &mut attempt) && match_parts(rest, tail, &mut attempt) {
                    *vars = attempt;
                    return true;
                }
            }
            false
        }
    }
}

/// Whether `value` can still belong to one expression of this operator.
fn allowed(op: Option<char>, value: &str) -> bool {
    match op {
        None => !value.contains(['/', '?', '#', '&']),
        Some('+') | Some('#') => true,
        Some('?') | Some('&') => !value.contains('#'),
        Some(_) => !value.contains(['?', '#']),
    }
}

fn bind(op: Option<char>, names: &[String], value: &str, vars: &mut Map<String, Value>) -> bool {
    let decode = |s: &str| Value::String(percent_decode(s));
    match op {
        None | Some('+') => {
            if names.len() == 1 {
                if value.is_empty() {
                    return false;
                }
                vars.insert(names[0].clone(), decode(value));
                return true;
            }
            let values: Vec<&str> = value.split(',').collect();
            values.len() == names.len() && {
                names.iter().zip(values).for_each(|(n, v)| _ = vars.insert(n.clone(), decode(v)));
                true
            }
        }
        Some(prefix @ ('#' | '/' | '.')) => {
            if value.is_empty() {
                return true;
            }
            let Some(body) = value.strip_prefix(prefix) else { return false };
            let sep = if prefix == '#' { ',' } else { prefix };
            let values: Vec<&str> = body.split(sep).collect();
            if names.len() == 1 && prefix == '/' && values.len() > 1 {
                let list = values.iter().map(|v| decode(v)).collect();
                vars.insert(names[0].clone(), Value::Array(list));
                return true;
            }
            values.len() <= names.len() && {
                names.iter().zip(values).for_each(|(n, v)| _ = vars.insert(n.clone(), decode(v)));
                true
            }
        }
        Some(prefix @ ('?' | '&' | ';')) => {
            if value.is_empty() {
                return true;
            }
            let Some(body) = value.strip_prefix(prefix) else { return false };
            let sep = if prefix == ';' { ';' } else { '&' };
            for pair in body.split(sep) {
                let (name, v) = pair.split_once('=').unwrap_or((pair, ""));
                if !names.iter().any(|n| n == name) {
                    return false;
                }
                vars.insert(name.to_owned(), decode(v));
            }
            true
        }
        Some(_) => false,
    }
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn m(template: &str, uri: &str) -> Option<Value> {
        UriTemplate::parse(template).unwrap().matches(uri).map(Value::Object)
    }

    #[test]
    fn simple_variables() {
        assert_eq!(m("test://template/{id}/data", "test://template/123/data"), Some(json!({"id": "123"})));
        assert_eq!(m("greeting://{name}", "greeting://Ada%20L"), Some(json!({"name": "Ada L"})));
        assert_eq!(m("test://template/{id}/data", "test://template/1/2/data"), None);
        assert_eq!(m("test://template/{id}/data", "test://template//data"), None);
        assert_eq!(m("users://{a}-{b}", "users://x-y"), Some(json!({"a": "x", "b": "y"})));
    }

    #[test]
    fn reserved_path_and_query() {
        assert_eq!(m("file:///{+path}", "file:///a/b/c.txt"), Some(json!({"path": "a/b/c.txt"})));
        assert_eq!(m("api://items{/id}", "api://items/7"), Some(json!({"id": "7"})));
        assert_eq!(m("api://search{?q,lang}", "api://search?q=rust&lang=en"), Some(json!({"q": "rust", "lang": "en"})));
        assert_eq!(m("api://search{?q}", "api://search?x=1"), None);
    }

    #[test]
    fn bad_templates_are_refused() {
        assert!(UriTemplate::parse("x://{id").is_err());
        assert!(UriTemplate::parse("x://{}").is_err());
        assert!(UriTemplate::parse("x://id}").is_err());
        assert_eq!(UriTemplate::parse("x://{a}/{+b}").unwrap().variables(), vec!["a", "b"]);
    }

    #[test]
    fn query_variables_are_those_a_uri_may_leave_out() {
        let template = UriTemplate::parse("api://{kind}/search{?q,lang}{&page}").unwrap();
        assert_eq!(template.variables(), vec!["kind", "q", "lang", "page"]);
        assert_eq!(template.query_variables(), vec!["q", "lang", "page"]);
        assert!(UriTemplate::parse("static://x").unwrap().query_variables().is_empty());
    }
}
