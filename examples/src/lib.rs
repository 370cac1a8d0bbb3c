//! Examples of ferrymcp: see `src/bin/`. This library is empty on purpose.
