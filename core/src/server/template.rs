//! RFC 6570 URI templates: expansion (template + variables -> URI) and matching, its
//! inverse (URI -> variables), which routes `resources/read` to a template's handler.
//!
//! Levels 1 to 3, plus the explode modifier of the path-like operators (`{/var*}`,
//! `{.var*}`, `{;var*}`). The prefix modifier (`{var:N}`) and query explode (`{?var*}`)
//! are refused, as are templates matching could not read back unambiguously: the same
//! variable twice, two `{?...}` expressions, two variables with no literal between them
//! (`{+path}{ext}`; an operator that writes its own lead character, as in `{+path}{.ext}`,
//! is a separator) and more than one multi-segment variable (`{+var}`, `{#var}` or an
//! exploded one).
//!
//! Matching is a two-ended scan that never backtracks (time linear in the URI for the
//! small variable counts of real templates): the literals and bounded variables after the
//! one multi-segment variable are matched from the right, those before it from the left,
//! and the multi-segment variable takes what lies between. Without one, the whole template
//! is scanned from the right, which gives regex-like greedy semantics. A trailing run of
//! query expressions that starts with `{?...}` is matched leniently: in any order, any
//! subset, other parameters ignored, and a variable the URI leaves out is absent from the
//! result. Values are percent-decoded; a parameter name is not (so `%74oken=` cannot pass
//! for `token=`). These are the rules of the official Python SDK's `UriTemplate`, which
//! documents its matching precisely; ferrymcp's Python and Node layers both use this one.
//!
//! Hand-written: the RFC 6570 crates on crates.io (`uritemplate-next`, `iri-string`'s
//! templates) expand only; none matches.

use serde_json::{Map, Value};

/// The longest template [`UriTemplate::parse`] accepts, in characters.
pub const DEFAULT_MAX_TEMPLATE_LENGTH: usize = 8_192;
/// The most variables one template may have, over all its expressions.
pub const DEFAULT_MAX_VARIABLES: usize = 256;
/// The longest URI [`UriTemplate::matches`] scans, in characters; a longer one matches nothing.
pub const DEFAULT_MAX_URI_LENGTH: usize = 65_536;

/// RFC 3986 reserved characters, kept as they are by `{+var}` and `{#var}`.
const RESERVED: &str = ":/?#[]@!$&'()*+,;=";

/// An expression's operator (RFC 6570 section 2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParam,
    Query,
    QueryContinuation,
}

struct Spec {
    prefix: &'static str,
    separator: &'static str,
    named: bool,
    allow_reserved: bool,
    /// After a named variable whose value is empty: `;x` but `?x=`.
    if_empty: &'static str,
    /// Where a bounded value of this operator ends when matching.
    stops: &'static [u8],
}

impl Operator {
    fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '+' => Self::Reserved,
            '#' => Self::Fragment,
            '.' => Self::Label,
            '/' => Self::Path,
            ';' => Self::PathParam,
            '?' => Self::Query,
            '&' => Self::QueryContinuation,
            _ => return None,
        })
    }

    /// The operator character, `""` for simple expansion.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Simple => "",
            Self::Reserved => "+",
            Self::Fragment => "#",
            Self::Label => ".",
            Self::Path => "/",
            Self::PathParam => ";",
            Self::Query => "?",
            Self::QueryContinuation => "&",
        }
    }

    fn spec(self) -> Spec {
        let spec = |prefix, separator, named, allow_reserved, if_empty, stops| Spec {
            prefix,
            separator,
            named,
            allow_reserved,
            if_empty,
            stops,
        };
        match self {
            Self::Simple => spec("", ",", false, false, "", b"/?#&,"),
            Self::Reserved => spec("", ",", false, true, "", b"?#"),
            Self::Fragment => spec("#", ",", false, true, "", b""),
            Self::Label => spec(".", ".", false, false, "", b"./?#"),
            Self::Path => spec("/", "/", false, false, "", b"/?#"),
            Self::PathParam => spec(";", ";", true, false, "", b";/?#"),
            Self::Query => spec("?", "&", true, false, "=", b"&#"),
            Self::QueryContinuation => spec("&", "&", true, false, "=", b"&#"),
        }
    }
}

/// One variable of a template.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variable {
    pub name: String,
    pub operator: Operator,
    pub explode: bool,
}

impl Variable {
    /// Whether the variable can span several segments (at most one per template).
    fn multi_segment(&self) -> bool {
        self.explode || matches!(self.operator, Operator::Reserved | Operator::Fragment)
    }
}

/// Why a template does not parse; `position` is the character offset of the expression
/// at fault, when there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct TemplateError {
    pub message: String,
    pub position: Option<usize>,
}

/// Why [`UriTemplate::expand`] refused a value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("variable {name:?} must be a string or an array of strings")]
pub struct ExpandError {
    pub name: String,
}

#[derive(Clone, Debug)]
enum Part {
    Literal(String),
    Expr { operator: Operator, variables: Vec<Variable> },
}

/// What the scan sees: a literal run, or one variable's capture.
#[derive(Clone, Debug)]
enum Atom {
    Literal(String),
    /// `if_empty`: a `{;x}` capture, which reads `;x=value` or a bare `;x`.
    Capture {
        var: Variable,
        if_empty: bool,
    },
}

/// A parsed URI template.
#[derive(Clone, Debug)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
    variables: Vec<Variable>,
    prefix: Vec<Atom>,
    multi: Option<Variable>,
    suffix: Vec<Atom>,
    query: Vec<Variable>,
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for UriTemplate {}

impl std::fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl UriTemplate {
    /// Whether `text` has a `{...}` expression (a cheap test; it does not parse).
    pub fn is_template(text: &str) -> bool {
        text.find('{').is_some_and(|open| text[open..].contains('}'))
    }

    /// Parses with the default limits.
    pub fn parse(text: &str) -> Result<Self, TemplateError> {
        Self::parse_with_limits(text, DEFAULT_MAX_TEMPLATE_LENGTH, DEFAULT_MAX_VARIABLES)
    }

    /// Parses a template of at most `max_length` characters and `max_variables` variables.
    pub fn parse_with_limits(text: &str, max_length: usize, max_variables: usize) -> Result<Self, TemplateError> {
        if text.chars().count() > max_length {
            return Err(error(format!("Template exceeds maximum length of {max_length}"), None));
        }
        let (parts, variables) = parse_parts(text, max_variables)?;
        let (path, query) = split_query_tail(&parts);
        let atoms = flatten(path);
        let (prefix, multi, suffix) = partition(atoms)?;
        Ok(Self { text: text.to_owned(), parts, variables, prefix, multi, suffix, query })
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Every variable, in order.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }

    /// The names of every variable, in order.
    pub fn variable_names(&self) -> Vec<&str> {
        self.variables.iter().map(|v| v.name.as_str()).collect()
    }

    /// The variables matched leniently as query parameters, which a URI may leave out (so
    /// whatever they feed needs a default): those of a trailing run of `{?...}`/`{&...}`
    /// expressions that starts with `{?...}`. Every other variable is bound on each match.
    pub fn query_variables(&self) -> Vec<&str> {
        self.query.iter().map(|v| v.name.as_str()).collect()
    }

    /// The URI for these values: a string, or an array of strings (joined with commas, or
    /// with the operator's separator when exploded). A variable not given is left out, as
    /// RFC 6570 says (so a required path segment left out gives an incomplete URI).
    pub fn expand(&self, values: &Map<String, Value>) -> Result<String, ExpandError> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Literal(text) => out.push_str(text),
                Part::Expr { operator, variables } => expand_expression(*operator, variables, values, &mut out)?,
            }
        }
        Ok(out)
    }

    /// The variables if `uri` fits (strings, an array of strings for an exploded
    /// variable), with the default URI length limit.
    pub fn matches(&self, uri: &str) -> Option<Map<String, Value>> {
        self.matches_with_limit(uri, DEFAULT_MAX_URI_LENGTH)
    }

    /// As [`matches`](Self::matches); a URI longer than `max_uri_length` characters fits nothing.
    pub fn matches_with_limit(&self, uri: &str, max_uri_length: usize) -> Option<Map<String, Value>> {
        if uri.len() > max_uri_length && uri.chars().count() > max_uri_length {
            return None;
        }
        if self.query.is_empty() {
            return self.scan(uri);
        }
        let before_fragment = uri.split_once('#').map_or(uri, |(head, _)| head);
        let (path, query) = before_fragment.split_once('?').unwrap_or((before_fragment, ""));
        let mut found = self.scan(path)?;
        if !query.is_empty() {
            let mut given: Vec<(&str, &str)> = Vec::new();
            for pair in query.split('&') {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                if !name.is_empty() && !given.iter().any(|(seen, _)| *seen == name) {
                    given.push((name, value));
                }
            }
            for var in &self.query {
                if let Some((_, value)) = given.iter().find(|(name, _)| *name == var.name) {
                    found.insert(var.name.clone(), Value::String(percent_decode(value)));
                }
            }
        }
        Some(found)
    }

    fn scan(&self, uri: &str) -> Option<Map<String, Value>> {
        let Some(multi) = &self.multi else {
            let (found, start) = scan_suffix(&self.suffix, uri, uri.len(), true)?;
            return (start == 0).then_some(found);
        };
        // The suffix starts with a literal (parse refuses a capture next to the
        // multi-segment variable), so its anchor does not depend on the prefix.
        let (suffix, suffix_start) = scan_suffix(&self.suffix, uri, uri.len(), false)?;
        let (mut found, prefix_end) = scan_prefix(&self.prefix, uri, suffix_start)?;
        if suffix_start < prefix_end {
            return None;
        }
        found.insert(multi.name.clone(), extract_multi(multi, &uri[prefix_end..suffix_start])?);
        found.extend(suffix);
        Some(found)
    }
}

fn error(message: String, position: Option<usize>) -> TemplateError {
    TemplateError { message, position }
}

fn parse_parts(text: &str, max_variables: usize) -> Result<(Vec<Part>, Vec<Variable>), TemplateError> {
    let mut parts = Vec::new();
    let mut variables: Vec<Variable> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let Some(open) = text[at..].find('{').map(|i| i + at) else {
            parts.push(Part::Literal(text[at..].to_owned()));
            break;
        };
        if open > at {
            parts.push(Part::Literal(text[at..open].to_owned()));
        }
        let position = text[..open].chars().count();
        let Some(close) = text[open..].find('}').map(|i| i + open) else {
            return Err(error(format!("Unclosed expression at position {position}"), Some(position)));
        };
        let (operator, vars) = parse_expression(&text[open + 1..close], position)?;
        variables.extend(vars.iter().cloned());
        parts.push(Part::Expr { operator, variables: vars });
        if variables.len() > max_variables {
            return Err(error(format!("Template exceeds maximum of {max_variables} variables"), None));
        }
        at = close + 1;
    }
    for (i, var) in variables.iter().enumerate() {
        if variables[..i].iter().any(|seen| seen.name == var.name) {
            return Err(error(
                format!("Variable {} appears more than once; repeated variables are not supported", quoted(&var.name)),
                None,
            ));
        }
    }
    let queries = parts.iter().filter(|p| matches!(p, Part::Expr { operator: Operator::Query, .. })).count();
    if queries > 1 {
        return Err(error(
            "Template contains more than one {?...} expression; use {?a,b} or {?a}{&b} for multiple query parameters"
                .to_owned(),
            None,
        ));
    }
    Ok((parts, variables))
}

fn parse_expression(body: &str, position: usize) -> Result<(Operator, Vec<Variable>), TemplateError> {
    let at = Some(position);
    let Some(first) = body.chars().next() else {
        return Err(error(format!("Empty expression at position {position}"), at));
    };
    let operator = Operator::from_char(first).unwrap_or(Operator::Simple);
    let list = if operator == Operator::Simple { body } else { &body[first.len_utf8()..] };
    if list.is_empty() {
        return Err(error(format!("Expression has operator but no variables at position {position}"), at));
    }
    let mut variables = Vec::new();
    for spec in list.split(',') {
        if spec.contains(':') {
            return Err(error(
                format!("Prefix modifier {{var:N}} is not supported (in {} at position {position})", quoted(spec)),
                at,
            ));
        }
        let (name, explode) = match spec.strip_suffix('*') {
            Some(name) => (name, true),
            None => (spec, false),
        };
        let valid = !name.is_empty()
            && name
                .split('.')
                .all(|run| !run.is_empty() && run.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        if !valid {
            return Err(error(format!("Invalid variable name {} at position {position}", quoted(name)), at));
        }
        let explode_refused = matches!(
            operator,
            Operator::Simple | Operator::Reserved | Operator::Fragment | Operator::Query | Operator::QueryContinuation
        );
        if explode && explode_refused {
            return Err(error(
                format!("Explode modifier on {{{}{name}*}} is not supported for matching", operator.as_str()),
                at,
            ));
        }
        variables.push(Variable { name: name.to_owned(), operator, explode });
    }
    Ok((operator, variables))
}

/// A name as Python's `repr` quotes it in messages (the names are ASCII, or refused).
fn quoted(text: &str) -> String {
    if text.contains('\'') && !text.contains('"') {
        format!("\"{text}\"")
    } else {
        format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// The path parts, and the variables of a trailing query run matched leniently (empty
/// when the template does not end in one that starts with `{?...}`, or when its path part
/// has a `?` or `#` of its own that splitting the URI would cut).
fn split_query_tail(parts: &[Part]) -> (&[Part], Vec<Variable>) {
    let tail = parts
        .iter()
        .rev()
        .take_while(|p| matches!(p, Part::Expr { operator: Operator::Query | Operator::QueryContinuation, .. }))
        .count();
    let split = parts.len() - tail;
    if tail == 0 || !matches!(parts[split], Part::Expr { operator: Operator::Query, .. }) {
        return (parts, Vec::new());
    }
    let path_cut = parts[..split].iter().any(|p| match p {
        Part::Literal(text) => text.contains(['?', '#']),
        Part::Expr { operator, .. } => matches!(operator, Operator::Query | Operator::Fragment),
    });
    if path_cut {
        return (parts, Vec::new());
    }
    let query = parts[split..]
        .iter()
        .flat_map(|p| match p {
            Part::Expr { variables, .. } => variables.clone(),
            Part::Literal(_) => Vec::new(),
        })
        .collect();
    (&parts[..split], query)
}

/// Lowers expressions to literals and single-variable captures; the operators' lead
/// characters and separators become literals, and adjacent literals are merged so anchors
/// are as long as they can be. An exploded capture carries its own separators.
fn flatten(parts: &[Part]) -> Vec<Atom> {
    let mut atoms = Vec::new();
    let push = |atoms: &mut Vec<Atom>, text: &str| {
        if text.is_empty() {
            return;
        }
        if let Some(Atom::Literal(last)) = atoms.last_mut() {
            last.push_str(text);
        } else {
            atoms.push(Atom::Literal(text.to_owned()));
        }
    };
    for part in parts {
        match part {
            Part::Literal(text) => push(&mut atoms, text),
            Part::Expr { operator, variables } => {
                let spec = operator.spec();
                for (i, var) in variables.iter().enumerate() {
                    let lead = if i == 0 { spec.prefix } else { spec.separator };
                    let capture = |if_empty| Atom::Capture { var: var.clone(), if_empty };
                    if var.explode {
                        atoms.push(capture(false));
                    } else if *operator == Operator::PathParam {
                        push(&mut atoms, &format!("{lead}{}", var.name));
                        atoms.push(capture(true));
                    } else if spec.named {
                        push(&mut atoms, &format!("{lead}{}=", var.name));
                        atoms.push(capture(false));
                    } else {
                        push(&mut atoms, lead);
                        atoms.push(capture(false));
                    }
                }
            }
        }
    }
    atoms
}

type Partitioned = (Vec<Atom>, Option<Variable>, Vec<Atom>);

/// Splits the atoms at the multi-segment variable (none: all of them are the suffix).
fn partition(atoms: Vec<Atom>) -> Result<Partitioned, TemplateError> {
    let mut multi = None;
    for (i, atom) in atoms.iter().enumerate() {
        let Atom::Capture { var, .. } = atom else { continue };
        if let Some(Atom::Capture { var: previous, .. }) = i.checked_sub(1).map(|j| &atoms[j]) {
            return Err(error(
                format!(
                    "Variables {} and {} are adjacent with no literal separator; matching cannot determine where \
                     one ends and the other begins. Add a literal between them or use a single variable.",
                    quoted(&previous.name),
                    quoted(&var.name)
                ),
                None,
            ));
        }
        if var.multi_segment() {
            if multi.is_some() {
                return Err(error(
                    "Template contains more than one multi-segment variable ({+var}, {#var}, or explode modifier); \
                     matching would be ambiguous"
                        .to_owned(),
                    None,
                ));
            }
            multi = Some(i);
        }
    }
    let Some(index) = multi else { return Ok((Vec::new(), None, atoms)) };
    let mut prefix = atoms;
    let suffix = prefix.split_off(index + 1);
    let Some(Atom::Capture { var, .. }) = prefix.pop() else { unreachable!("index is a capture") };
    Ok((prefix, Some(var), suffix))
}

/// Scans `atoms` right to left from `end`; each bounded variable takes the shortest span
/// its preceding literal allows (the rightmost occurrence), which leaves the first one
/// greedy. `anchored`: the atoms are the whole template, so the first sits at 0.
fn scan_suffix(atoms: &[Atom], uri: &str, end: usize, anchored: bool) -> Option<(Map<String, Value>, usize)> {
    let bytes = uri.as_bytes();
    let mut found = Map::new();
    let mut pos = end;
    let mut i = atoms.len();
    while i > 0 {
        i -= 1;
        let (var, if_empty) = match &atoms[i] {
            Atom::Literal(text) => {
                if !uri[..pos].ends_with(text.as_str()) {
                    return None;
                }
                pos -= text.len();
                continue;
            }
            Atom::Capture { var, if_empty } => (var, *if_empty),
        };
        let stops = var.operator.spec().stops;
        let previous = match i.checked_sub(1).map(|j| &atoms[j]) {
            Some(Atom::Literal(text)) => Some(text.as_str()),
            _ => None,
        };
        let mut earliest = pos;
        while earliest > 0 && !stops.contains(&bytes[earliest - 1]) {
            earliest -= 1;
        }
        if if_empty {
            // `;name` (empty) or `;name=value`; the preceding literal ends in `;name`.
            if previous.is_some_and(|text| uri[..pos].ends_with(text)) {
                found.insert(var.name.clone(), Value::String(String::new()));
                continue;
            }
            let eq = uri[earliest..pos].find('=')? + earliest;
            found.insert(var.name.clone(), Value::String(percent_decode(&uri[eq + 1..pos])));
            pos = eq;
            continue;
        }
        let start = match previous {
            None => earliest,
            Some(text) if anchored && i == 1 => {
                // The template's first literal sits at 0, not at its rightmost occurrence.
                let start = text.len();
                if !uri.starts_with(text) || start < earliest || start > pos {
                    return None;
                }
                start
            }
            Some(text) => {
                let at = uri[..pos].rfind(text)?;
                if at + text.len() < earliest {
                    return None;
                }
                at + text.len()
            }
        };
        found.insert(var.name.clone(), Value::String(percent_decode(&uri[start..pos])));
        pos = start;
    }
    Some((found, pos))
}

/// Scans `atoms` left to right from 0, never past `limit`; each bounded variable takes the
/// shortest span its following literal allows (its first occurrence), leaving the
/// multi-segment variable as much as it can have.
fn scan_prefix(atoms: &[Atom], uri: &str, limit: usize) -> Option<(Map<String, Value>, usize)> {
    let bytes = uri.as_bytes();
    let mut found = Map::new();
    let mut pos = 0;
    for (i, atom) in atoms.iter().enumerate() {
        let (var, if_empty) = match atom {
            Atom::Literal(text) => {
                let end = pos + text.len();
                if end > limit || !uri[pos..].starts_with(text.as_str()) {
                    return None;
                }
                pos = end;
                continue;
            }
            Atom::Capture { var, if_empty } => (var, *if_empty),
        };
        // Parse refuses two adjacent captures and a capture next to the multi-segment
        // variable, so a literal follows.
        let Some(Atom::Literal(next)) = atoms.get(i + 1) else { return None };
        if if_empty {
            if uri[pos..].starts_with(next.as_str()) {
                found.insert(var.name.clone(), Value::String(String::new()));
                continue;
            }
            if pos < limit && bytes[pos] == b'=' {
                pos += 1;
            } else {
                return None;
            }
        }
        let stops = var.operator.spec().stops;
        let mut latest = pos;
        while latest < limit && !stops.contains(&bytes[latest]) {
            latest += 1;
        }
        let end = uri[pos..].find(next.as_str()).map(|at| at + pos).filter(|at| *at <= latest)?;
        found.insert(var.name.clone(), Value::String(percent_decode(&uri[pos..end])));
        pos = end;
    }
    Some((found, pos))
}

/// The multi-segment variable's value from the span between prefix and suffix.
fn extract_multi(var: &Variable, raw: &str) -> Option<Value> {
    let spec = var.operator.spec();
    if !var.explode {
        if raw.bytes().any(|b| spec.stops.contains(&b)) {
            return None;
        }
        return Some(Value::String(percent_decode(raw)));
    }
    if raw.is_empty() {
        return Some(Value::Array(Vec::new()));
    }
    let separator = spec.separator.as_bytes()[0];
    // `{/a*}` expands to `/x/y`, never `x/y`.
    if raw.as_bytes()[0] != separator || raw.bytes().any(|b| b != separator && spec.stops.contains(&b)) {
        return None;
    }
    let named = format!("{}=", var.name);
    let mut items = Vec::new();
    for segment in raw[1..].split(spec.separator) {
        let value = if !spec.named {
            segment
        } else if let Some(value) = segment.strip_prefix(named.as_str()) {
            value
        } else if segment == var.name {
            ""
        } else {
            return None;
        };
        items.push(Value::String(percent_decode(value)));
    }
    Some(Value::Array(items))
}

fn expand_expression(
    operator: Operator,
    variables: &[Variable],
    values: &Map<String, Value>,
    out: &mut String,
) -> Result<(), ExpandError> {
    let spec = operator.spec();
    let named = |name: &str, value: &str| {
        if value.is_empty() { format!("{name}{}", spec.if_empty) } else { format!("{name}={value}") }
    };
    let mut rendered = Vec::new();
    for var in variables {
        let Some(value) = values.get(&var.name) else { continue };
        let refused = || ExpandError { name: var.name.clone() };
        match value {
            Value::String(text) => {
                let encoded = encode(text, spec.allow_reserved);
                rendered.push(if spec.named { named(&var.name, &encoded) } else { encoded });
            }
            Value::Array(items) => {
                let items = items
                    .iter()
                    .map(|item| item.as_str().map(|s| encode(s, spec.allow_reserved)).ok_or_else(refused))
                    .collect::<Result<Vec<_>, _>>()?;
                if items.is_empty() {
                    continue;
                }
                if var.explode {
                    let items: Vec<String> =
                        if spec.named { items.iter().map(|item| named(&var.name, item)).collect() } else { items };
                    rendered.push(items.join(spec.separator));
                } else {
                    let joined = items.join(",");
                    rendered.push(if spec.named { named(&var.name, &joined) } else { joined });
                }
            }
            _ => return Err(refused()),
        }
    }
    if !rendered.is_empty() {
        out.push_str(spec.prefix);
        out.push_str(&rendered.join(spec.separator));
    }
    Ok(())
}

/// Percent-encodes all but the unreserved characters; with `allow_reserved`, RFC 3986's
/// reserved characters and existing `%XX` triplets stay as they are (a bare `%` does not).
fn encode(value: &str, allow_reserved: bool) -> String {
    let bytes = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let triplet = allow_reserved
            && b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        if triplet {
            out.push_str(&value[i..i + 3]);
            i += 3;
            continue;
        }
        let keep = b.is_ascii_alphanumeric()
            || b"-._~".contains(&b)
            || (allow_reserved && b.is_ascii() && RESERVED.as_bytes().contains(&b));
        if keep {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
    out
}

fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
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

    fn x(template: &str, values: Value) -> String {
        UriTemplate::parse(template).unwrap().expand(values.as_object().unwrap()).unwrap()
    }

    fn refused(template: &str) -> TemplateError {
        UriTemplate::parse(template).unwrap_err()
    }

    #[test]
    fn simple_variables() {
        assert_eq!(m("test://template/{id}/data", "test://template/123/data"), Some(json!({"id": "123"})));
        assert_eq!(m("greeting://{name}", "greeting://Ada%20L"), Some(json!({"name": "Ada L"})));
        assert_eq!(m("test://template/{id}/data", "test://template/1/2/data"), None);
        assert_eq!(m("users://{a}-{b}", "users://x-y"), Some(json!({"a": "x", "b": "y"})));
        // A literal repeated inside the value: the first literal is anchored at 0.
        assert_eq!(m("prefix-{id}", "prefix-prefix-123"), Some(json!({"id": "prefix-123"})));
        // An encoded slash is part of the value; a literal one ends it.
        assert_eq!(m("file://docs/{name}", "file://docs/a%2Fb"), Some(json!({"name": "a/b"})));
        assert_eq!(m("file://docs/{name}", "file://docs/a/b"), None);
        assert_eq!(m("static://x", "static://x"), Some(json!({})));
        assert_eq!(m("static://x", "static://xy"), None);
        // The first literal is checked before a value is cut after it (multi-byte URIs).
        assert_eq!(m("x://{a}", ",2/-é"), None);
        assert_eq!(m("é{a}", "éb"), Some(json!({"a": "b"})));
    }

    #[test]
    fn multi_segment_variables() {
        assert_eq!(m("file:///{+path}", "file:///a/b/c.txt"), Some(json!({"path": "a/b/c.txt"})));
        assert_eq!(
            m("manuals://{+path}{.ext}", "manuals://printing/setup.md"),
            Some(json!({"path": "printing/setup", "ext": "md"}))
        );
        assert_eq!(m("/files{/path*}", "/files/a/b/c"), Some(json!({"path": ["a", "b", "c"]})));
        assert_eq!(m("/files{/path*}", "/files"), Some(json!({"path": []})));
        assert_eq!(
            m("shelves://browse{/path*}", "shelves://browse/fiction/sci-fi"),
            Some(json!({"path": ["fiction", "sci-fi"]}))
        );
        assert_eq!(m("{/a*}/end", "/x/y/end"), Some(json!({"a": ["x", "y"]})));
        assert_eq!(m("x://{id}/{+rest}", "x://1/2/3"), Some(json!({"id": "1", "rest": "2/3"})));
        assert_eq!(m("x://k{;keys*}", "x://k;keys=a;keys=b"), Some(json!({"keys": ["a", "b"]})));
        assert_eq!(m("x://{+path}", "x://a?b"), None);
    }

    #[test]
    fn path_parameters_read_with_or_without_a_value() {
        assert_eq!(m("x://m{;id}", "x://m;id=7"), Some(json!({"id": "7"})));
        assert_eq!(m("x://m{;id}", "x://m;id"), Some(json!({"id": ""})));
        assert_eq!(m("x://m{;id}/z", "x://m;id=7/z"), Some(json!({"id": "7"})));
    }

    #[test]
    fn query_tails_are_lenient() {
        let t = "logs://{service}{?since,level}";
        assert_eq!(m(t, "logs://api"), Some(json!({"service": "api"})));
        assert_eq!(m(t, "logs://api?level=error"), Some(json!({"service": "api", "level": "error"})));
        assert_eq!(
            m(t, "logs://api?level=error&since=5m&utm=x"),
            Some(json!({"service": "api", "since": "5m", "level": "error"}))
        );
        // First value wins; names are not decoded; `+` is not a space.
        assert_eq!(m(t, "logs://api?level=a&level=b"), Some(json!({"service": "api", "level": "a"})));
        assert_eq!(m(t, "logs://api?%6Cevel=x"), Some(json!({"service": "api"})));
        assert_eq!(m(t, "logs://api?level=a+b%20c"), Some(json!({"service": "api", "level": "a+b c"})));
        assert_eq!(m("api://search{?q}", "api://search?x=1"), Some(json!({})));
        // A `{&...}` alone is matched strictly.
        assert_eq!(m("x://a?fixed=1{&page}", "x://a?fixed=1&page=2"), Some(json!({"page": "2"})));
        assert_eq!(m("x://a?fixed=1{&page}", "x://a?fixed=1"), None);
    }

    #[test]
    fn expansion() {
        assert_eq!(x("file://docs/{name}", json!({"name": "hello world.txt"})), "file://docs/hello%20world.txt");
        assert_eq!(x("file://docs/{+path}", json!({"path": "src/main.py"})), "file://docs/src/main.py");
        assert_eq!(x("/search{?q,lang}", json!({"q": "mcp", "lang": "en"})), "/search?q=mcp&lang=en");
        assert_eq!(x("/search{?q,lang}", json!({})), "/search");
        assert_eq!(x("/files{/path*}", json!({"path": ["a", "b", "c"]})), "/files/a/b/c");
        assert_eq!(x("/l{?list}", json!({"list": ["a", "b"]})), "/l?list=a,b");
        assert_eq!(x("/m{;x,y}", json!({"x": "", "y": "1"})), "/m;x;y=1");
        assert_eq!(x("/q{?x}", json!({"x": ""})), "/q?x=");
        assert_eq!(x("{+p}", json!({"p": "100%25/%zz é"})), "100%25/%25zz%20%C3%A9");
        assert_eq!(x("{#f}", json!({"f": "a,b"})), "#a,b");
        let t = UriTemplate::parse("x://{a}").unwrap();
        assert_eq!(t.expand(json!({"a": 1}).as_object().unwrap()).unwrap_err().name, "a");
        // Round trip.
        let t = UriTemplate::parse("x://{id}/{+rest}{?q}").unwrap();
        let values = json!({"id": "a b", "rest": "c/d", "q": "é"});
        let uri = t.expand(values.as_object().unwrap()).unwrap();
        assert_eq!(t.matches(&uri).map(Value::Object), Some(values));
    }

    #[test]
    fn templates_matching_cannot_read_back_are_refused() {
        assert_eq!(refused("x://{id").message, "Unclosed expression at position 4");
        assert_eq!(refused("x://{id").position, Some(4));
        assert_eq!(refused("x://{}").message, "Empty expression at position 4");
        assert_eq!(refused("x://{+}").message, "Expression has operator but no variables at position 4");
        assert_eq!(refused("x://{a b}").message, "Invalid variable name 'a b' at position 4");
        assert_eq!(refused("x://{a..b}").message, "Invalid variable name 'a..b' at position 4");
        assert_eq!(refused("x://{a:3}").message, "Prefix modifier {var:N} is not supported (in 'a:3' at position 4)");
        assert_eq!(refused("x://{?a*}").message, "Explode modifier on {?a*} is not supported for matching");
        assert_eq!(
            refused("x://{a}/{a}").message,
            "Variable 'a' appears more than once; repeated variables are not supported"
        );
        assert!(refused("x://{?a}{?b}").message.starts_with("Template contains more than one {?...} expression"));
        assert_eq!(
            refused("manuals://{+path}{ext}").message,
            "Variables 'path' and 'ext' are adjacent with no literal separator; matching cannot determine where one \
             ends and the other begins. Add a literal between them or use a single variable."
        );
        assert!(
            refused("copy://{+source}/to/{+destination}")
                .message
                .starts_with("Template contains more than one multi-segment")
        );
        assert!(UriTemplate::parse("x://{a}{.b}").is_ok());
        let long = "x".repeat(DEFAULT_MAX_TEMPLATE_LENGTH + 1);
        assert_eq!(refused(&long).message, "Template exceeds maximum length of 8192");
        assert_eq!(
            UriTemplate::parse_with_limits("{a}/{b}/{c}", 100, 2).unwrap_err().message,
            "Template exceeds maximum of 2 variables"
        );
        // Positions count characters, not bytes.
        assert_eq!(refused("é://{x").position, Some(4));
    }

    #[test]
    fn query_variables_are_those_a_uri_may_leave_out() {
        let template = UriTemplate::parse("api://{kind}/search{?q,lang}{&page}").unwrap();
        assert_eq!(template.variable_names(), vec!["kind", "q", "lang", "page"]);
        assert_eq!(template.query_variables(), vec!["q", "lang", "page"]);
        assert!(UriTemplate::parse("static://x").unwrap().query_variables().is_empty());
        assert!(UriTemplate::parse("x://a?fixed=1{&page}").unwrap().query_variables().is_empty());
        assert!(UriTemplate::is_template("file://docs/{name}"));
        assert!(!UriTemplate::is_template("file://docs/readme.txt"));
    }

    #[test]
    fn long_uris_match_nothing_and_scans_stay_linear() {
        let t = UriTemplate::parse("x://{a}-{b}-{c}-{d}").unwrap();
        assert_eq!(t.matches_with_limit("x://1-2-3-4", 10), None);
        // A hostile URI for a backtracking matcher: many separators, no final match.
        let uri = format!("x://{}", "-".repeat(60_000));
        let started = std::time::Instant::now();
        assert_eq!(t.matches(&uri).map(|m| m.len()), Some(4));
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }
}
