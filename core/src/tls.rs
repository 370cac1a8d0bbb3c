//! TLS for Streamable HTTP, both ends: rustls, with ring as its cryptography.
//!
//! A client trusts the platform's certificate store (read by `rustls-native-certs`, which
//! honours `SSL_CERT_FILE` and `SSL_CERT_DIR` as OpenSSL does), or only the CA bundle it is
//! given ([`ClientTls::ca_file`], as `curl --cacert` or Python's `verify="ca.pem"`), and
//! may present a client certificate. The built-in server serves `https://` from a
//! certificate chain and key in PEM files, for deployments without a proxy in front; it
//! offers HTTP/2 and HTTP/1.1 by ALPN.
//!
//! Everything here needs the `tls` feature (on by default). Without it the types exist, so
//! options can name them, and using them is an error that says the feature is missing.

use std::io;
use std::path::PathBuf;

/// How a client checks the servers it talks to, and how it identifies itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientTls {
    /// Trust only the CAs in this PEM file (none: the platform's store, with `SSL_CERT_FILE`
    /// and `SSL_CERT_DIR`).
    pub ca_file: Option<PathBuf>,
    /// A client certificate chain and its private key, both PEM.
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

/// What the built-in server presents: a certificate chain and its private key, both PEM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerTls {
    pub cert_file: PathBuf,
    pub key_file: PathBuf,
}

/// Whether this build can speak TLS.
pub const AVAILABLE: bool = cfg!(feature = "tls");

#[cfg(not(feature = "tls"))]
pub(crate) fn unavailable() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "TLS is not built into this ferrymcp (its `tls` feature is off)")
}

#[cfg(feature = "tls")]
mod rustls_config {
    use std::io;
    use std::path::Path;
    use std::sync::Arc;

    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use rustls::{ClientConfig, RootCertStore, ServerConfig};

    use super::{ClientTls, ServerTls};

    fn provider() -> Arc<rustls::crypto::CryptoProvider> {
        Arc::new(rustls::crypto::ring::default_provider())
    }

    fn invalid(path: &Path, what: &str, why: impl std::fmt::Display) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidInput, format!("{}: {what}: {why}", path.display()))
    }

    fn certificates(path: &Path) -> io::Result<Vec<CertificateDer<'static>>> {
        let certs = CertificateDer::pem_file_iter(path)
            .map_err(|e| invalid(path, "cannot read certificates", e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| invalid(path, "not a PEM certificate", e))?;
        if certs.is_empty() {
            return Err(invalid(path, "no certificate", "the file has no PEM CERTIFICATE block"));
        }
        Ok(certs)
    }

    fn key(path: &Path) -> io::Result<PrivateKeyDer<'static>> {
        PrivateKeyDer::from_pem_file(path).map_err(|e| invalid(path, "no PEM private key", e))
    }

    /// The client's rustls configuration: its trust anchors, and its certificate if any.
    pub fn client(tls: &ClientTls) -> io::Result<ClientConfig> {
        let mut roots = RootCertStore::empty();
        match &tls.ca_file {
            Some(path) => {
                for cert in certificates(path)? {
                    roots.add(cert).map_err(|e| invalid(path, "not a usable CA certificate", e))?;
                }
            }
            None => {
                let found = rustls_native_certs::load_native_certs();
                for error in &found.errors {
                    tracing::debug!("a platform certificate could not be read: {error}");
                }
                let (added, _ignored) = roots.add_parsable_certificates(found.certs);
                if added == 0 {
                    tracing::warn!("no CA certificate found in the platform's store (set SSL_CERT_FILE?)");
                }
            }
        }
        let builder = ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_root_certificates(roots);
        let mut config = match &tls.client_cert {
            Some((cert, key_file)) => builder
                .with_client_auth_cert(certificates(cert)?, key(key_file)?)
                .map_err(|e| invalid(key_file, "this client certificate and key cannot be used", e))?,
            None => builder.with_no_client_auth(),
        };
        // The HTTP client speaks HTTP/1.1 (one connection per stream, reused).
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(config)
    }

    /// The built-in server's rustls configuration.
    pub fn server(tls: &ServerTls) -> io::Result<ServerConfig> {
        let mut config = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_no_client_auth()
            .with_single_cert(certificates(&tls.cert_file)?, key(&tls.key_file)?)
            .map_err(|e| invalid(&tls.key_file, "the key does not go with the certificate", e))?;
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(config)
    }
}

#[cfg(feature = "tls")]
pub(crate) use rustls_config::{client as client_config, server as server_config};

impl ClientTls {
    /// Checks the files now (a missing CA file is an error at connect time, not a TLS
    /// failure later).
    pub fn check(&self) -> io::Result<()> {
        #[cfg(feature = "tls")]
        {
            client_config(self).map(drop)
        }
        #[cfg(not(feature = "tls"))]
        {
            if *self == Self::default() { Ok(()) } else { Err(unavailable()) }
        }
    }
}
