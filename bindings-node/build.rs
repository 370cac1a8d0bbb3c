//! Links the cdylib the way Node expects (napi's symbols resolved at load time).
fn main() {
    napi_build::setup();
}
