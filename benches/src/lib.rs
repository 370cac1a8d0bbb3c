//! Shared inputs and helpers for the ferrymcp benchmarks.

pub mod driver;
