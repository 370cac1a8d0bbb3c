//! The authorization server core serves over a provider (`server::http::auth_server`),
//! through core's own HTTP server and a real HTTP client: the endpoints' rules (client
//! authentication, PKCE, grants, registration, revocation, metadata, CORS, error shapes).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ferrymcp_core::peer::BoxFuture;
use ferrymcp_core::server::Server;
use ferrymcp_core::server::http::auth_server::{
    AuthServer, AuthServerOptions, AuthServerProvider, AuthorizationCode, AuthorizationParams, ClientInfo, ErrorKind,
    Handle, Held, IdentityAssertionParams, IssuedToken, ProviderError, construct_redirect_uri, pkce_challenge,
};
use ferrymcp_core::server::http::{HttpHandler, HttpServer, HttpSettings, ServeOptions, serve};
use serde_json::{Value, json};

const REDIRECT: &str = "http://127.0.0.1:1/callback";

#[derive(Default)]
struct Store {
    clients: HashMap<String, Value>,
    codes: HashMap<String, (Value, String)>,
    access: HashMap<String, String>,
    refresh: HashMap<String, (String, Vec<String>)>,
    revoked: Vec<String>,
    issued: usize,
}

/// An in-memory provider: handles are the key strings themselves.
#[derive(Default, Clone)]
struct Memory(Arc<Mutex<Store>>);

fn key(handle: &Handle) -> String {
    handle.downcast_ref::<String>().cloned().unwrap_or_default()
}

impl Memory {
    fn issue(&self, client_id: &str, scopes: Vec<String>) -> Value {
        let mut store = self.0.lock().unwrap();
        store.issued += 1;
        let (access, refresh) = (format!("at{}", store.issued), format!("rt{}", store.issued));
        store.access.insert(access.clone(), client_id.to_owned());
        store.refresh.insert(refresh.clone(), (client_id.to_owned(), scopes.clone()));
        json!({"access_token": access, "token_type": "Bearer", "expires_in": 60, "refresh_token": refresh, "scope": scopes.join(" ")})
    }
}

impl AuthServerProvider for Memory {
    fn get_client(&self, client_id: String) -> BoxFuture<Result<Option<Held<ClientInfo>>, ProviderError>> {
        let found = self.0.lock().unwrap().clients.get(&client_id).cloned();
        Box::pin(async move {
            Ok(found.map(|client| Held {
                value: serde_json::from_value(client).unwrap(),
                handle: Arc::new(client_id) as Handle,
            }))
        })
    }

    fn register_client(&self, client: Value) -> BoxFuture<Result<Value, ProviderError>> {
        let id = client["client_id"].as_str().unwrap().to_owned();
        self.0.lock().unwrap().clients.insert(id, client.clone());
        Box::pin(async move { Ok(client) })
    }

    fn authorize(&self, client: Handle, params: AuthorizationParams) -> BoxFuture<Result<String, ProviderError>> {
        let scopes = params.scopes.clone().unwrap_or_default();
        if scopes.iter().any(|s| s == "denied") {
            return Box::pin(async {
                Err(ProviderError::OAuth {
                    kind: ErrorKind::Authorize,
                    error: "access_denied".into(),
                    description: Some("the user said no".into()),
                })
            });
        }
        let code = format!("code-{}", self.0.lock().unwrap().codes.len());
        let record = json!({
            "client_id": key(&client),
            "expires_at": 4e9,
            "code_challenge": params.code_challenge,
            "redirect_uri": params.redirect_uri,
            "redirect_uri_provided_explicitly": params.redirect_uri_provided_explicitly,
        });
        self.0.lock().unwrap().codes.insert(code.clone(), (record, scopes.join(" ")));
        let state = params.state.clone().unwrap_or_default();
        let url = construct_redirect_uri(&params.redirect_uri, &[("code", &code), ("state", &state)]);
        Box::pin(async move { Ok(url) })
    }

    fn load_authorization_code(
        &self,
        _client: Handle,
        code: String,
    ) -> BoxFuture<Result<Option<Held<AuthorizationCode>>, ProviderError>> {
        let found = self.0.lock().unwrap().codes.get(&code).cloned();
        Box::pin(async move {
            Ok(found.map(|(record, _)| Held { value: serde_json::from_value(record).unwrap(), handle: Arc::new(code) }))
        })
    }

    fn exchange_authorization_code(&self, client: Handle, code: Handle) -> BoxFuture<Result<Value, ProviderError>> {
        let (_, scopes) = self.0.lock().unwrap().codes.remove(&key(&code)).unwrap();
        let tokens = self.issue(&key(&client), scopes.split_whitespace().map(str::to_owned).collect());
        Box::pin(async move { Ok(tokens) })
    }

    fn load_refresh_token(
        &self,
        _client: Handle,
        token: String,
    ) -> BoxFuture<Result<Option<Held<IssuedToken>>, ProviderError>> {
        let found = self.0.lock().unwrap().refresh.get(&token).cloned();
        Box::pin(async move {
            Ok(found.map(|(client_id, scopes)| Held {
                value: IssuedToken { client_id, scopes, expires_at: None },
                handle: Arc::new(token),
            }))
        })
    }

    fn exchange_refresh_token(
        &self,
        client: Handle,
        token: Handle,
        scopes: Vec<String>,
    ) -> BoxFuture<Result<Value, ProviderError>> {
        self.0.lock().unwrap().refresh.remove(&key(&token));
        let tokens = self.issue(&key(&client), scopes);
        Box::pin(async move { Ok(tokens) })
    }

    fn load_access_token(&self, token: String) -> BoxFuture<Result<Option<Held<IssuedToken>>, ProviderError>> {
        let found = self.0.lock().unwrap().access.get(&token).cloned();
        Box::pin(async move {
            Ok(found.map(|client_id| Held {
                value: IssuedToken { client_id, scopes: vec![], expires_at: None },
                handle: Arc::new(token),
            }))
        })
    }

    fn revoke_token(&self, token: Handle) -> BoxFuture<Result<(), ProviderError>> {
        let mut store = self.0.lock().unwrap();
        store.access.remove(&key(&token));
        store.revoked.push(key(&token));
        Box::pin(async { Ok(()) })
    }

    fn exchange_identity_assertion(
        &self,
        client: Handle,
        params: IdentityAssertionParams,
    ) -> BoxFuture<Result<Value, ProviderError>> {
        if params.assertion != "good-id-jag" {
            return Box::pin(async {
                Err(ProviderError::OAuth {
                    kind: ErrorKind::Token,
                    error: "invalid_grant".into(),
                    description: Some("the assertion did not verify".into()),
                })
            });
        }
        let tokens = self.issue(&key(&client), params.scopes.unwrap_or_default());
        Box::pin(async move { Ok(tokens) })
    }
}

/// A form body (reqwest is built without its `form` feature).
fn form(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

async fn json_of(answer: reqwest::Response) -> Value {
    serde_json::from_slice(&answer.bytes().await.unwrap()).unwrap()
}

fn post_form(http: &reqwest::Client, url: String, pairs: &[(&str, &str)]) -> reqwest::RequestBuilder {
    http.post(url).header("content-type", "application/x-www-form-urlencoded").body(form(pairs))
}

struct Running {
    _server: HttpServer,
    base: String,
    http: reqwest::Client,
    memory: Memory,
}

async fn start(identity_assertion: bool) -> Running {
    let memory = Memory::default();
    memory.0.lock().unwrap().clients.insert(
        "agent".into(),
        json!({"client_id": "agent", "client_secret": "agent-secret", "grant_types": ["urn:ietf:params:oauth:grant-type:jwt-bearer"], "token_endpoint_auth_method": "client_secret_basic"}),
    );
    let options = AuthServerOptions {
        issuer_url: "http://127.0.0.1/".into(),
        registration_enabled: true,
        valid_scopes: Some(vec!["mcp".into(), "extra".into(), "denied".into()]),
        revocation_enabled: true,
        identity_assertion_enabled: identity_assertion,
        client_secret_expiry_seconds: None,
        ..AuthServerOptions::default()
    };
    let server = Arc::new(AuthServer::new(options, Arc::new(memory.clone())).unwrap());
    let settings = HttpSettings { auth_server: Some(server), ..HttpSettings::default() };
    let handler = HttpHandler::new(Server::new("as", "1"), settings.resolve(Some("127.0.0.1")).unwrap());
    let running = serve(handler, ServeOptions::default()).await.unwrap();
    let base = format!("http://{}", running.local_addr());
    let builder = ferrymcp_core::client::http::http_client(&ferrymcp_core::tls::ClientTls::default()).unwrap();
    let http = builder.redirect(reqwest::redirect::Policy::none()).build().unwrap();
    Running { _server: running, base, http, memory }
}

impl Running {
    async fn register(&self, metadata: Value) -> reqwest::Response {
        let request = self.http.post(format!("{}/register", self.base)).header("content-type", "application/json");
        request.body(metadata.to_string()).send().await.unwrap()
    }

    async fn token(&self, form: &[(&str, &str)]) -> (u16, Value) {
        let answer = post_form(&self.http, format!("{}/token", self.base), form).send().await.unwrap();
        let status = answer.status().as_u16();
        if status == 200 || status == 400 || status == 401 {
            assert_eq!(answer.headers()["cache-control"], "no-store");
        }
        (status, json_of(answer).await)
    }

    async fn authorize(&self, query: &[(&str, &str)]) -> reqwest::Response {
        self.http.get(format!("{}/authorize?{}", self.base, form(query))).send().await.unwrap()
    }
}

fn query_of(location: &str) -> HashMap<String, String> {
    let url = reqwest::Url::parse(location).unwrap();
    url.query_pairs().into_owned().collect()
}

#[tokio::test]
async fn the_code_grant_with_pkce_refresh_and_revocation() {
    let server = start(false).await;
    let registered = server.register(json!({"redirect_uris": [REDIRECT], "scope": "mcp extra"})).await;
    assert_eq!(registered.status(), 201);
    let client: Value = json_of(registered).await;
    let (id, secret) = (client["client_id"].as_str().unwrap(), client["client_secret"].as_str().unwrap());
    assert_eq!(client["token_endpoint_auth_method"], "client_secret_post");
    assert_eq!(client["client_secret_expires_at"], 0);
    assert_eq!(client["grant_types"], json!(["authorization_code", "refresh_token"]));

    let verifier = "a-verifier-of-enough-length-to-be-a-real-one-0123456789";
    let challenge = pkce_challenge(verifier);
    let answer = server
        .authorize(&[
            ("response_type", "code"),
            ("client_id", id),
            ("code_challenge", &challenge),
            ("state", "xyz"),
            ("scope", "mcp"),
        ])
        .await;
    assert_eq!(answer.status(), 302);
    let location = answer.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with(REDIRECT), "{location}");
    let query = query_of(&location);
    assert_eq!(query["state"], "xyz");
    let code = query["code"].clone();

    // No redirect_uri at /authorize (the only registered one was used): none at /token.
    let base = [("grant_type", "authorization_code"), ("code", &code), ("client_id", id), ("client_secret", secret)];
    let wrong = server.token(&[&base[..], &[("code_verifier", "not-the-verifier")]].concat()).await;
    assert_eq!(wrong, (400, json!({"error": "invalid_grant", "error_description": "incorrect code_verifier"})));
    let with_uri =
        server.token(&[&base[..], &[("code_verifier", verifier), ("redirect_uri", REDIRECT)]].concat()).await;
    assert_eq!(with_uri.1["error"], "invalid_request");
    let (status, tokens) = server.token(&[&base[..], &[("code_verifier", verifier)]].concat()).await;
    assert_eq!(status, 200, "{tokens}");
    assert_eq!(tokens["scope"], "mcp");

    // Refresh: narrower scopes are fine, wider ones are not.
    let refresh = tokens["refresh_token"].as_str().unwrap();
    let form =
        [("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", id), ("client_secret", secret)];
    let wider = server.token(&[&form[..], &[("scope", "mcp extra")]].concat()).await;
    assert_eq!(wider.1["error_description"], "cannot request scope `extra` not provided by refresh token");
    let (status, renewed) = server.token(&form).await;
    assert_eq!(status, 200);
    assert_ne!(renewed["access_token"], tokens["access_token"]);

    // Revocation: a token of another client is left alone, its own is revoked; 200 either way.
    let access = renewed["access_token"].as_str().unwrap();
    let revoke = |pairs: Vec<(&'static str, String)>| {
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let request = post_form(&server.http, format!("{}/revoke", server.base), &pairs);
        async move { request.send().await.unwrap() }
    };
    let answer =
        revoke(vec![("token", access.into()), ("client_id", id.into()), ("client_secret", secret.into())]).await;
    assert_eq!(answer.status(), 200);
    assert_eq!(server.memory.0.lock().unwrap().revoked, vec![access.to_owned()]);
    let anonymous = revoke(vec![("token", access.into()), ("client_id", id.into())]).await;
    assert_eq!(anonymous.status(), 401);
    assert_eq!(json_of(anonymous).await["error"], "unauthorized_client");
}

#[tokio::test]
async fn client_authentication_and_grant_refusals() {
    let server = start(true).await;
    // Unknown client, missing client, wrong Basic credentials: 401 invalid_client.
    let (status, body) = server.token(&[("grant_type", "refresh_token"), ("client_id", "nobody")]).await;
    assert_eq!((status, body["error"].as_str()), (401, Some("invalid_client")));
    let (status, body) = server.token(&[("grant_type", "refresh_token")]).await;
    assert_eq!((status, body["error_description"].as_str()), (401, Some("Missing client_id")));
    let jwt = [
        ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
        ("client_id", "agent"),
        ("assertion", "good-id-jag"),
        ("scope", "mcp"),
    ];
    let (status, body) = server.token(&jwt).await;
    assert_eq!(
        (status, body["error_description"].as_str()),
        (401, Some("Missing or invalid Basic authentication in Authorization header"))
    );
    let basic = |secret: &str| {
        use base64::Engine as _;
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("agent:{secret}")))
    };
    let send = |authorization: String, pairs: Vec<(&'static str, &'static str)>| {
        let request =
            post_form(&server.http, format!("{}/token", server.base), &pairs).header("authorization", authorization);
        async move {
            let answer = request.send().await.unwrap();
            (answer.status().as_u16(), json_of(answer).await)
        }
    };
    let (status, body) = send(basic("wrong"), jwt.to_vec()).await;
    assert_eq!((status, body["error_description"].as_str()), (401, Some("Invalid client_secret")));
    // The identity-assertion grant: the provider's error, then tokens.
    let bad = [
        ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
        ("client_id", "agent"),
        ("assertion", "forged"),
    ];
    let (status, body) = send(basic("agent-secret"), bad.to_vec()).await;
    assert_eq!(
        (status, body),
        (400, json!({"error": "invalid_grant", "error_description": "the assertion did not verify"}))
    );
    let (status, body) = send(basic("agent-secret"), jwt.to_vec()).await;
    assert_eq!((status, body["scope"].as_str()), (200, Some("mcp")));
    // A grant the client is not registered for; a grant nobody knows.
    let refresh = vec![("grant_type", "refresh_token"), ("client_id", "agent"), ("refresh_token", "x")];
    let (status, body) = send(basic("agent-secret"), refresh).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("unsupported_grant_type")));
    let (status, body) = send(basic("agent-secret"), vec![("grant_type", "password"), ("client_id", "agent")]).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_request")));
}

#[tokio::test]
async fn authorize_errors_redirect_only_to_a_known_redirect_uri() {
    let server = start(false).await;
    let client: Value = json_of(
        server.register(json!({"redirect_uris": [REDIRECT, "http://127.0.0.1:2/cb"], "scope": "mcp denied"})).await,
    )
    .await;
    let id = client["client_id"].as_str().unwrap();
    // Unknown client: 400 JSON, never a redirect.
    let answer = server
        .authorize(&[("response_type", "code"), ("client_id", "nobody"), ("code_challenge", "c"), ("state", "s")])
        .await;
    assert_eq!(answer.status(), 400);
    assert_eq!(
        json_of(answer).await,
        json!({"error": "invalid_request", "error_description": "Client ID 'nobody' not found", "state": "s"})
    );
    // Two registered URIs and none given: 400.
    let answer = server.authorize(&[("response_type", "code"), ("client_id", id), ("code_challenge", "c")]).await;
    assert_eq!(answer.status(), 400);
    // A known redirect URI: errors go back there, with the state.
    let known = [("client_id", id), ("redirect_uri", REDIRECT), ("code_challenge", "c"), ("state", "s")];
    let answer = server.authorize(&[&known[..], &[("response_type", "token")]].concat()).await;
    assert_eq!(answer.status(), 302);
    assert_eq!(query_of(answer.headers()["location"].to_str().unwrap())["error"], "unsupported_response_type");
    let answer = server
        .authorize(&[&known[..], &[("response_type", "code"), ("code_challenge_method", "plain")]].concat())
        .await;
    assert_eq!(query_of(answer.headers()["location"].to_str().unwrap())["error"], "invalid_request");
    // The provider's AuthorizeError, redirected.
    let answer = server.authorize(&[&known[..], &[("response_type", "code"), ("scope", "denied")]].concat()).await;
    let query = query_of(answer.headers()["location"].to_str().unwrap());
    assert_eq!((query["error"].as_str(), query["error_description"].as_str()), ("access_denied", "the user said no"));
}

#[tokio::test]
async fn metadata_registration_rules_and_cors() {
    let server = start(true).await;
    let answer =
        server.http.get(format!("{}/.well-known/oauth-authorization-server", server.base)).send().await.unwrap();
    assert_eq!(answer.headers()["cache-control"], "public, max-age=3600");
    let document: Value = json_of(answer).await;
    assert_eq!(document["issuer"], "http://127.0.0.1/");
    assert_eq!(document["authorization_endpoint"], "http://127.0.0.1/authorize");
    assert_eq!(document["registration_endpoint"], "http://127.0.0.1/register");
    assert_eq!(document["revocation_endpoint"], "http://127.0.0.1/revoke");
    assert_eq!(document["scopes_supported"], json!(["mcp", "extra", "denied"]));
    assert_eq!(
        document["grant_types_supported"],
        json!(["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:jwt-bearer"])
    );
    assert_eq!(
        document["authorization_grant_profiles_supported"],
        json!(["urn:ietf:params:oauth:grant-profile:id-jag"])
    );

    for (metadata, description) in [
        (json!({"redirect_uris": [REDIRECT], "scope": "root"}), "Requested scopes are not valid: root"),
        (
            json!({"redirect_uris": [REDIRECT], "grant_types": ["refresh_token"]}),
            "grant_types must include 'authorization_code'",
        ),
        (
            json!({"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "private_key_jwt"}),
            "token_endpoint_auth_method 'private_key_jwt' is not supported",
        ),
        (json!({"scope": "mcp"}), "redirect_uris: Field required"),
    ] {
        let answer = server.register(metadata).await;
        assert_eq!(answer.status(), 400);
        assert_eq!(
            json_of(answer).await,
            json!({"error": "invalid_client_metadata", "error_description": description})
        );
    }
    let public: Value =
        json_of(server.register(json!({"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"})).await)
            .await;
    assert!(public.get("client_secret").is_none_or(Value::is_null));

    let preflight = server
        .http
        .request(reqwest::Method::OPTIONS, format!("{}/token", server.base))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert_eq!(preflight.status(), 200);
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    assert_eq!(preflight.headers()["access-control-allow-methods"], "POST, OPTIONS");
    let wrong_method = server.http.get(format!("{}/token", server.base)).send().await.unwrap();
    assert_eq!(wrong_method.status(), 405);
    // The authorization endpoint is not for scripts: no CORS headers.
    let answer = server
        .http
        .get(format!("{}/authorize", server.base))
        .header("origin", "https://app.example")
        .send()
        .await
        .unwrap();
    assert!(answer.headers().get("access-control-allow-origin").is_none());
}

#[test]
fn an_issuer_must_be_https_unless_loopback() {
    let provider = Arc::new(Memory::default());
    let options = |issuer: &str| AuthServerOptions { issuer_url: issuer.into(), ..AuthServerOptions::default() };
    let refused = |issuer: &str| AuthServer::new(options(issuer), provider.clone()).err().map(|e| e.0);
    assert_eq!(refused("http://auth.example.com/").as_deref(), Some("Issuer URL must be HTTPS"));
    assert_eq!(refused("https://auth.example.com/?x=1").as_deref(), Some("Issuer URL must not have a query string"));
    assert_eq!(refused("https://auth.example.com/#f").as_deref(), Some("Issuer URL must not have a fragment"));
    assert_eq!(refused("http://localhost:9000"), None);
    // The S256 challenge as Python's hashlib and base64 compute it.
    assert_eq!(
        pkce_challenge("dBjftJeZ4CVP-mJ92K1qYwnh1XFt3NtbRvQovm7ELs0"),
        "aNtgksnVULnikFuzLfDcZNeXjKINda7h2TfS_WjLIfg"
    );
    assert_eq!(
        construct_redirect_uri("http://a.example/cb?x=1", &[("code", "a b")]),
        "http://a.example/cb?x=1&code=a+b"
    );
}

/// A real identity provider's token endpoint, small: RFC 8414 metadata and the RFC 8693
/// exchange of the ID token `user-id-token` for the ID-JAG `good-id-jag`; each token
/// request's form is kept for the test to read.
async fn identity_provider() -> (String, Arc<Mutex<Vec<HashMap<String, String>>>>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (issuer, forms) = (base.clone(), seen.clone());
    tokio::spawn(async move {
        loop {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = Vec::new();
            let mut chunk = [0u8; 4096];
            let (head, body) = loop {
                let read = socket.read(&mut chunk).await.unwrap();
                request.extend_from_slice(&chunk[..read]);
                let text = String::from_utf8_lossy(&request).into_owned();
                if let Some((head, body)) = text.split_once("\r\n\r\n") {
                    let length = head
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_owned())
                        })
                        .map_or(0, |v| v.parse::<usize>().unwrap());
                    if body.len() >= length || read == 0 {
                        break (head.to_owned(), body.to_owned());
                    }
                }
            };
            let (status, answer) = if head.starts_with("GET /.well-known/oauth-authorization-server ") {
                (200, json!({"issuer": issuer, "token_endpoint": format!("{issuer}/token")}))
            } else if head.starts_with("POST /token ") {
                let form: HashMap<String, String> = form_urlencoded::parse(body.as_bytes()).into_owned().collect();
                forms.lock().unwrap().push(form.clone());
                if form.get("subject_token").map(String::as_str) == Some("user-id-token") {
                    let jag = json!({"issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "access_token": "good-id-jag", "token_type": "N_A", "expires_in": 300, "scope": "mcp"});
                    (200, jag)
                } else {
                    (400, json!({"error": "invalid_grant", "error_description": "unknown ID token"}))
                }
            } else {
                (404, json!({}))
            };
            let body = answer.to_string();
            let reply = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            socket.write_all(reply.as_bytes()).await.unwrap();
        }
    });
    (base, seen)
}

#[tokio::test]
async fn cross_app_access_token_exchange_at_the_idp_then_the_jwt_bearer_grant() {
    use ferrymcp_core::client::auth::cross_app::{
        ClientAuth, JwtAuthGrantRequest, discover_and_request_jwt_auth_grant, exchange_jwt_auth_grant,
        secure_token_endpoint,
    };
    let (idp, forms) = identity_provider().await;
    let server = start(true).await;
    let http = ferrymcp_core::client::auth::Http::standalone().unwrap();
    let request = JwtAuthGrantRequest {
        audience: server.base.clone(),
        resource: "http://127.0.0.1:9/mcp".into(),
        id_token: "user-id-token".into(),
        client_id: "idp-client".into(),
        client_secret: Some(String::new()),
        scope: Some("mcp".into()),
    };
    let grant = discover_and_request_jwt_auth_grant(&http, &idp, &request).await.unwrap();
    assert_eq!(
        (grant.jwt_auth_grant.as_str(), grant.expires_in, grant.scope.as_deref()),
        ("good-id-jag", Some(300), Some("mcp"))
    );
    let sent = forms.lock().unwrap()[0].clone();
    let expected: HashMap<String, String> = [
        ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
        ("requested_token_type", "urn:ietf:params:oauth:token-type:id-jag"),
        ("audience", server.base.as_str()),
        ("resource", "http://127.0.0.1:9/mcp"),
        ("subject_token", "user-id-token"),
        ("subject_token_type", "urn:ietf:params:oauth:token-type:id_token"),
        ("client_id", "idp-client"),
        ("scope", "mcp"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    // An empty secret is not sent (a public client at the IdP).
    assert_eq!(sent, expected);
    // The IdP's refusal, in the official wording.
    let refused = JwtAuthGrantRequest { id_token: "stolen".into(), ..request.clone() };
    let error = discover_and_request_jwt_auth_grant(&http, &idp, &refused).await.unwrap_err();
    assert_eq!(error.to_string(), "Token exchange failed: invalid_grant - unknown ID token");
    // Step 2 at core's authorization server: the ID-JAG for an access token.
    let token_endpoint = format!("{}/token", server.base);
    let tokens = exchange_jwt_auth_grant(
        &http,
        &token_endpoint,
        &grant.jwt_auth_grant,
        "agent",
        Some("agent-secret"),
        ClientAuth::ClientSecretBasic,
    )
    .await
    .unwrap();
    assert!(server.memory.0.lock().unwrap().access.contains_key(&tokens.access_token));
    // The secret in the body, where the client registered client_secret_basic: refused.
    let error = exchange_jwt_auth_grant(
        &http,
        &token_endpoint,
        &grant.jwt_auth_grant,
        "agent",
        Some("agent-secret"),
        ClientAuth::ClientSecretPost,
    )
    .await
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "JWT grant exchange failed: invalid_client - Missing or invalid Basic authentication in Authorization header"
    );
    let error = exchange_jwt_auth_grant(
        &http,
        &token_endpoint,
        "forged",
        "agent",
        Some("agent-secret"),
        ClientAuth::ClientSecretBasic,
    )
    .await
    .unwrap_err();
    assert_eq!(error.to_string(), "JWT grant exchange failed: invalid_grant - the assertion did not verify");
    // Credentials never go to a plain-HTTP token endpoint off loopback.
    assert!(secure_token_endpoint("http://idp.example.com/token").is_err());
    assert!(secure_token_endpoint("http://[::1]:8/token").is_ok());
    assert!(secure_token_endpoint("https://idp.example.com/token").is_ok());
}
