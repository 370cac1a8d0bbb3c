//! Certificates made for a test by the `openssl` command: a CA, a server certificate it
//! signed for 127.0.0.1 and localhost, and a client certificate it signed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::listening;

pub struct Certificates {
    pub dir: PathBuf,
    pub ca: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
    /// A client certificate the same CA signed, and its key.
    pub client_cert: PathBuf,
    pub client_key: PathBuf,
}

impl Certificates {
    /// A fresh CA and server certificate in a new folder named after `name`; `None` (the
    /// test is skipped) outside CI without openssl.
    pub fn make(name: &str) -> Option<Certificates> {
        let openssl = listening::program("openssl")?;
        let dir = std::env::temp_dir().join(format!("ferrymcp-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let run = |args: &[&str]| {
            let status = Command::new(&openssl).args(args).current_dir(&dir).stderr(Stdio::null()).status();
            assert!(status.unwrap().success(), "openssl {args:?}");
        };
        let ca = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem"];
        run(&[&ca[..], &["-days", "1", "-subj", "/CN=ferrymcp test CA"]].concat());
        let csr = ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr"];
        run(&[&csr[..], &["-subj", "/CN=127.0.0.1"]].concat());
        std::fs::write(dir.join("ext.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n").unwrap();
        let sign = ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"];
        run(&[&sign[..], &["-out", "server.pem", "-days", "1", "-extfile", "ext.cnf"]].concat());
        let client = ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client.key", "-out", "client.csr"];
        run(&[&client[..], &["-subj", "/CN=ferrymcp test client"]].concat());
        let sign = ["x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"];
        std::fs::write(dir.join("client.cnf"), "extendedKeyUsage=clientAuth\n").unwrap();
        run(&[&sign[..], &["-out", "client.pem", "-days", "1", "-extfile", "client.cnf"]].concat());
        let at = |file: &str| dir.join(file);
        Some(Certificates {
            ca: at("ca.pem"),
            cert: at("server.pem"),
            key: at("server.key"),
            client_cert: at("client.pem"),
            client_key: at("client.key"),
            dir,
        })
    }
}

impl Drop for Certificates {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
