//! The checks every request passes before its body is read: `Host` and `Origin` against
//! DNS rebinding, and the content negotiation headers of a POST.
//!
//! A browser page on an attacker's domain can reach a server on 127.0.0.1 by rebinding its
//! DNS name; such a request carries the attacker's name in `Host` (and in `Origin` when
//! the page scripts it). Only loopback names are accepted by default; a server bound
//! elsewhere lists the names it is reached by.

use http::request::Parts;
use http::{HeaderMap, StatusCode, header};

use super::reply::{ResponseBody, plain_text, refuse};
use super::{GuardStyle, HttpOptions};
use crate::wire::ErrorCode;

/// Boxed: refusals are the rare path, and a response is large.
type Refusal = Box<http::Response<ResponseBody>>;

/// The host names a server bound to loopback is reached by.
pub const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// The log target of the refusals below: the official Python SDK's logger
/// (`mcp.server.transport_security`) in ferrymcp's namespace, which the Python binding
/// forwards to the `logging` module under that name.
pub const SECURITY_LOG: &str = "ferrymcp.server.transport_security";

pub(crate) fn host_and_origin(options: &HttpOptions, parts: &Parts) -> Result<(), Refusal> {
    let python = options.guard_style == GuardStyle::PlainText;
    // The official Python SDK looks at a POST's Content-Type before Host and Origin.
    if python && parts.method == http::Method::POST && !is_json(&parts.headers) {
        return Err(Box::new(plain_text(StatusCode::BAD_REQUEST, "Invalid Content-Type header")));
    }
    let host = parts
        .headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| parts.uri.authority().map(|a| a.as_str()));
    let Some(host) = host else {
        if python {
            tracing::warn!(target: SECURITY_LOG, "Missing Host header in request");
            return Err(Box::new(plain_text(StatusCode::MISDIRECTED_REQUEST, "Invalid Host header")));
        }
        return Err(Box::new(refuse(
            StatusCode::BAD_REQUEST,
            ErrorCode::CONNECTION_CLOSED,
            "Bad Request: a Host header is required",
        )));
    };
    if !host_allowed(options, host) {
        if python {
            tracing::warn!(target: SECURITY_LOG, "Invalid Host header: {host}");
            return Err(Box::new(plain_text(StatusCode::MISDIRECTED_REQUEST, "Invalid Host header")));
        }
        return Err(Box::new(refuse(
            StatusCode::FORBIDDEN,
            ErrorCode::CONNECTION_CLOSED,
            format!("Forbidden: Host {host:?} is not allowed"),
        )));
    }
    if let Some(origin) = parts.headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !origin_allowed(options, origin) {
            if python {
                tracing::warn!(target: SECURITY_LOG, "Invalid Origin header: {origin}");
                return Err(Box::new(plain_text(StatusCode::FORBIDDEN, "Invalid Origin header")));
            }
            return Err(Box::new(refuse(
                StatusCode::FORBIDDEN,
                ErrorCode::CONNECTION_CLOSED,
                format!("Forbidden: Origin {origin:?} is not allowed"),
            )));
        }
    }
    Ok(())
}

/// A POST whose declared `Content-Length` exceeds the limit (the official Python SDK's
/// `413 Request body too large`, answered before any other check).
pub(crate) fn declared_too_large(options: &HttpOptions, parts: &Parts) -> Option<http::Response<ResponseBody>> {
    let declared = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    declared
        .is_some_and(|n| n > options.max_body as u64)
        .then(|| plain_text(StatusCode::PAYLOAD_TOO_LARGE, "Request body too large"))
}

/// `host[:port]` against the allowed hosts: `*` allows all, an empty list none. An entry
/// without a port (or with `:*`) allows the name on any port, `name:port` only that port.
fn host_allowed(options: &HttpOptions, authority: &str) -> bool {
    options.allowed_hosts.iter().any(|allowed| allowed == "*" || authority_matches(allowed, authority))
}

/// Whether every host is allowed (then an Origin is not allowed merely for its host).
fn any_host(options: &HttpOptions) -> bool {
    options.allowed_hosts.iter().any(|allowed| allowed == "*")
}

fn authority_matches(allowed: &str, authority: &str) -> bool {
    let allowed = allowed.strip_suffix(":*").unwrap_or(allowed);
    if strip_port(allowed).len() < allowed.len() {
        return allowed.eq_ignore_ascii_case(authority);
    }
    allowed.eq_ignore_ascii_case(strip_port(authority))
}

/// An origin listed (exactly, as `scheme://host:*` for any port, or `*` for all), or one
/// whose host is an allowed host.
fn origin_allowed(options: &HttpOptions, origin: &str) -> bool {
    let listed = |allowed: &String| match allowed.strip_suffix(":*") {
        _ if allowed == "*" => true,
        Some(prefix) => {
            origin.len() > prefix.len()
                && origin[..prefix.len()].eq_ignore_ascii_case(prefix)
                && origin[prefix.len()..].starts_with(':')
                && origin[prefix.len() + 1..].bytes().all(|b| b.is_ascii_digit())
        }
        None => allowed.eq_ignore_ascii_case(origin),
    };
    if options.allowed_origins.iter().any(listed) {
        return true;
    }
    match origin.split_once("://") {
        Some((scheme, authority)) if matches!(scheme, "http" | "https") && !authority.contains('/') => {
            !any_host(options) && host_allowed(options, authority)
        }
        _ => false,
    }
}

fn strip_port(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority.find(']').map_or(authority, |end| &authority[..=end]);
    }
    authority.rsplit_once(':').map_or(authority, |(host, _)| host)
}

/// What the `Accept` header lets the server answer with: (JSON, SSE).
pub(crate) fn accepts(headers: &HeaderMap) -> (bool, bool) {
    let (mut json, mut sse) = (false, false);
    for value in headers.get_all(header::ACCEPT) {
        for range in value.to_str().unwrap_or("").split(',') {
            let media = range.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            match media.as_str() {
                "*/*" => (json, sse) = (true, true),
                "application/json" | "application/*" => json = true,
                "text/event-stream" | "text/*" => sse = true,
                _ => {}
            }
        }
    }
    (json, sse)
}

/// A POST body must be declared JSON.
pub(crate) fn is_json(headers: &HeaderMap) -> bool {
    let value = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    value.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("application/json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_and_origins_pass_others_do_not() {
        let options = HttpOptions::default();
        assert!(host_allowed(&options, "127.0.0.1:8080"));
        assert!(host_allowed(&options, "[::1]:3000"));
        assert!(host_allowed(&options, "LOCALHOST"));
        assert!(!host_allowed(&options, "evil.example.com"));
        assert!(!host_allowed(&options, "localhost.evil.example.com:80"));
        assert!(origin_allowed(&options, "http://localhost:5173"));
        assert!(!origin_allowed(&options, "http://evil.example.com"));
        assert!(!origin_allowed(&options, "null"));
        let listed = HttpOptions { allowed_origins: vec!["https://app.example.com".into()], ..HttpOptions::default() };
        assert!(origin_allowed(&listed, "https://app.example.com"));
    }

    #[test]
    fn ports_and_wildcards_as_the_official_sdk_spells_them() {
        let options = HttpOptions {
            allowed_hosts: vec!["app.example.com:8443".into(), "localhost:*".into()],
            allowed_origins: vec!["https://web.example.com:*".into()],
            ..HttpOptions::default()
        };
        assert!(host_allowed(&options, "app.example.com:8443"));
        assert!(!host_allowed(&options, "app.example.com:9000"));
        assert!(host_allowed(&options, "localhost:1234"));
        assert!(origin_allowed(&options, "https://web.example.com:3000"));
        assert!(!origin_allowed(&options, "https://web.example.com.evil:3000"));
        assert!(!origin_allowed(&options, "https://web.example.com:3000/x"));
        assert!(origin_allowed(&options, "http://localhost:5173"));
        let open = HttpOptions {
            allowed_hosts: vec!["*".into()],
            allowed_origins: vec!["*".into()],
            ..HttpOptions::default()
        };
        assert!(host_allowed(&open, "anything:1") && origin_allowed(&open, "https://anywhere.example"));
    }

    #[test]
    fn accept_ranges_and_wildcards() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, "application/json;q=0.9, text/event-stream".parse().unwrap());
        assert_eq!(accepts(&headers), (true, true));
        headers.insert(header::ACCEPT, "text/event-stream".parse().unwrap());
        assert_eq!(accepts(&headers), (false, true));
        headers.insert(header::ACCEPT, "*/*".parse().unwrap());
        assert_eq!(accepts(&headers), (true, true));
    }
}
